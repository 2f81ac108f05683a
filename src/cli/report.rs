//! `simulate --report FILE.html` (one deck, or `merge --report` of a sharded
//! run) and `simulate --versus-cards B --report FILE.html` (two decks): one
//! self-contained page each, opened from disk with no network. The charts
//! are inline SVG ([`super::charts`]) with labelled axes; a few lines of
//! inline script sort the tables by a click on a column's header and filter
//! the cards by name or type, and the tables are whole without it.
//!
//! A page is its header (what was played, by which computer players, and a
//! warning when one played at random), then its sections in order, each an
//! `<section>` made by a function of its own: a new figure is a new section
//! (the declared metrics' is [`metrics_section`]).

use std::fmt::Write as _;

use super::charts::{self, BLUE, Bar, BarShape, IntervalShape, ORANGE, RED, esc};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::sim::compare::{CardComparison, Comparison};
use crate::sim::metrics::Mean;
use crate::sim::report::MetricFigures;
use crate::sim::{Counts, Figures, Rate};

/// What the page of one deck's run shows.
pub struct Page<'a> {
    /// The title line: rule set, games, seed, players.
    pub title: String,
    /// The deck line.
    pub deck: &'a str,
    /// The rule set: what the cards' costs and types are named by.
    pub rules: &'a RuleSet,
    /// Each seat's name and its computer player's (its policy's) name.
    pub players: Vec<(String, String)>,
    /// Each seat's name and win rate (0 to 1).
    pub seats: Vec<(String, f64)>,
    /// Each seat's name and loss rate, for a rule set that says how a seat
    /// loses (`:loser`); empty for others.
    pub losses: Vec<(String, f64)>,
    /// Games by length: `lengths[t]` games lasted `t` turns.
    pub lengths: &'a [u64],
    /// Each card, with its counts and figures, in the order to show.
    pub cards: Vec<(&'a Card, Counts, Figures)>,
    /// The rule set's declared metrics (none: no section).
    pub metrics: &'a [MetricFigures],
}

/// What the page of two decks played on the same seeds shows.
pub struct VersusPage<'a> {
    /// The title line: rule set, games, seed, players.
    pub title: String,
    /// The two decks' lines, A then B.
    pub decks: [&'a str; 2],
    /// The rule set.
    pub rules: &'a RuleSet,
    /// Each seat's name and its computer player's name.
    pub players: Vec<(String, String)>,
    /// The two decks' cards, A then B: each card's cost and type.
    pub cards: [&'a [Card]; 2],
    /// What changed from A to B.
    pub comparison: &'a Comparison<'a>,
}

/// The page of one deck's run, as HTML.
pub fn html(page: &Page<'_>) -> String {
    let mut out = head(&page.title, &[page.deck.to_string()], &page.players);
    out.push_str("<div class=\"charts\">\n");
    out.push_str(&seats_section(&page.seats, &page.losses));
    out.push_str(&lengths_section(page.lengths));
    out.push_str("</div>\n");
    out.push_str(&metrics_section(page.metrics));
    if !page.cards.is_empty() {
        out.push_str("<div class=\"charts\">\n");
        out.push_str(&improvement_section(&page.cards));
        out.push_str(&play_rate_section(&page.cards));
        out.push_str("</div>\n");
        out.push_str(&cards_section(page.rules, &page.cards));
    }
    out.push_str(&foot());
    out
}

/// The page comparing two decks, as HTML.
pub fn versus_html(page: &VersusPage<'_>) -> String {
    let [a, b] = page.decks;
    let mut out = head(
        &page.title,
        &[format!("A {a}"), format!("B {b}")],
        &page.players,
    );
    out.push_str("<div class=\"charts\">\n");
    out.push_str(&versus_seats_section(page));
    out.push_str(&versus_change_section(page.comparison));
    out.push_str("</div>\n");
    out.push_str(&versus_metrics_section(page.comparison));
    out.push_str(&versus_cards_section(page));
    out.push_str(&foot());
    out
}

/// The document's start and the page's header: the title, `lines` (the
/// decks), who played, and the warning when a seat played at random.
fn head(title: &str, lines: &[String], players: &[(String, String)]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n",
        esc(title),
        esc(title),
    );
    for line in lines {
        let _ = writeln!(out, "<p class=\"deck\">{}</p>", esc(line));
    }
    out.push_str(&players_note(players));
    out.push_str("</header>\n");
    out
}

/// Who played each seat, what `--ai` defaults to, and, when any seat played
/// at random, why its figures can mislead.
fn players_note(players: &[(String, String)]) -> String {
    let named: Vec<String> = players
        .iter()
        .map(|(seat, ai)| format!("{} <b>{}</b>", esc(seat), esc(ai)))
        .collect();
    let mut out = format!(
        "<p class=\"players\" id=\"players\">Computer players: {}. <code>--ai</code> defaults to random for every seat; <code>--ai greedy</code> plays one move ahead, <code>--ai search</code> two, <code>--ai mcts</code> searches a tree of <code>--budget</code> iterations a move.</p>\n",
        named.join(", ")
    );
    out.push_str(ADVICE);
    if players.iter().any(|(_, ai)| ai == "random") {
        out.push_str(
            "<p class=\"warning\" id=\"random-warning\" role=\"note\"><strong>Figures from random play can mislead.</strong> A seat played by <code>random</code> picks any legal move, so a card that needs good play looks weak, and the cards' verdicts change with the player: ranked by improvement when drawn, random and greedy play do not agree on the cards. Simulate again with <code>--ai greedy</code> before acting on a card's figures.</p>\n",
        );
    }
    out
}

/// Which player to balance with, and what each costs: the figures are
/// docs/PLAYERS.md's (Arcomage, one core, release build).
const ADVICE: &str = "<p class=\"players\" id=\"player-advice\">Which player to balance with: rank the cards with <code>greedy</code> (in Arcomage about 11,000 games a second on one core, five times random's time), then confirm a verdict with <code>mcts</code> before changing a card for it: the strongest player (it beats <code>search</code> 58 % of Arcomage games, <code>greedy</code> 68 %), and the dearest (about 3 games a second at its default budget of 1,000; <code>--budget 300</code> is nearly four times faster, and no match for <code>search</code>). <code>search</code> costs nearly as much (about 30 games a second) and plays weaker; <code>random</code> costs least (about 50,000) and tells least. docs/PLAYERS.md has the figures for every bundled game.</p>\n";

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em 2em;color:#222}\
h1{font-size:1.4em;margin-bottom:.3em}h2{font-size:1.1em;margin-top:1.6em}\
.deck,.players{color:#555;margin:.2em 0}\
.warning{background:#fff4e0;border-left:4px solid #d08a2e;padding:.5em .8em;margin:.8em 0}\
.charts{display:flex;flex-wrap:wrap;gap:0 3em;align-items:flex-start}\
svg{max-width:100%;height:auto}svg text{font-size:12px;fill:#222}svg .axis-label{fill:#555}\
table{border-collapse:collapse;font-size:12px}table.sortable{width:100%}\
td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}\
td:first-child,th:first-child,.text{text-align:left}\
thead th{position:sticky;top:0;background:#fff}\
th button{font:inherit;font-weight:bold;border:0;background:none;padding:0;cursor:pointer;color:inherit}\
th[aria-sort=ascending] button::after{content:\" \\25B2\"}th[aria-sort=descending] button::after{content:\" \\25BC\"}\
.filter input{font:inherit;width:20em}";

/// Sorting and filtering, for every `table.sortable` and every
/// `input[data-filter]` (hidden until this runs: without script the tables
/// are whole and in the order the command printed). `?sort=COLUMN`
/// (`&order=asc|desc`) and `?filter=TEXT` open the page sorted and filtered:
/// a view to send someone, and the browser test's way to drive it.
const SCRIPT: &str = r#"(function () {
  "use strict";
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  function key(cell) {
    var v = cell.getAttribute("data-v");
    if (v === null) return cell.textContent.trim().toLowerCase();
    return v === "" ? null : parseFloat(v);
  }
  function sortBy(table, th, up) {
    var col = th.cellIndex, body = table.tBodies[0];
    each(th.parentNode.cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      if (x === null || y === null) return (x === null) - (y === null);
      var c = x < y ? -1 : x > y ? 1 : 0;
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  function click(table, th) {
    var was = th.getAttribute("aria-sort");
    sortBy(table, th, was ? was === "descending" : !th.hasAttribute("data-num"));
  }
  each(document.querySelectorAll("table.sortable"), function (table) {
    each(table.tHead.rows[0].cells, function (th) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = th.textContent;
      b.title = "sort by " + th.textContent;
      th.textContent = "";
      th.appendChild(b);
      b.addEventListener("click", function () { click(table, th); });
    });
  });
  each(document.querySelectorAll("input[data-filter]"), function (box) {
    var table = document.getElementById(box.getAttribute("data-filter"));
    var bar = box.closest(".filter"), shown = bar.querySelector(".shown");
    bar.hidden = false;
    box.addEventListener("input", function () {
      var words = box.value.trim().toLowerCase(), rows = table.tBodies[0].rows, n = 0;
      each(rows, function (r) {
        var hit = r.getAttribute("data-find").indexOf(words) >= 0;
        r.hidden = !hit;
        if (hit) n++;
      });
      shown.textContent = words ? n + " of " + rows.length + " shown" : "";
    });
  });
  var query = new URLSearchParams(location.search);
  var column = query.get("sort"), words = query.get("filter");
  if (column) {
    each(document.querySelectorAll("th[data-col]"), function (th) {
      if (th.getAttribute("data-col") !== column) return;
      var order = query.get("order"), table = th.closest("table");
      if (order) sortBy(table, th, order === "asc"); else click(table, th);
    });
  }
  if (words) {
    each(document.querySelectorAll("input[data-filter]"), function (box) {
      box.value = words;
      box.dispatchEvent(new Event("input"));
    });
  }
})();"#;

/// The script, then the document's end.
fn foot() -> String {
    format!("<script>\n{SCRIPT}\n</script>\n</body>\n</html>\n")
}

/// Each seat's win rate, and its loss rate where a seat can lose (a
/// game neither won nor lost is a tie, a turn limit or a stop).
fn seats_section(seats: &[(String, f64)], losses: &[(String, f64)]) -> String {
    let mut rows: Vec<Bar<'_>> = Vec::new();
    for (name, rate) in seats {
        let lost = losses.iter().find(|(seat, _)| seat == name);
        rows.push(Bar {
            name: if lost.is_some() {
                format!("{name} won")
            } else {
                name.clone()
            },
            value: *rate,
            colour: BLUE,
        });
        if let Some((_, rate)) = lost {
            rows.push(Bar {
                name: format!("{name} lost"),
                value: *rate,
                colour: RED,
            });
        }
    }
    let shape = BarShape {
        aria: "seat win rates",
        row: 24.0,
        left: 90.0,
        width: 500.0,
        axis: "win rate (% of games)",
    };
    format!(
        "<section id=\"seats\">\n<h2>Seat win rates</h2>\n{}</section>\n",
        charts::bars(&shape, &rows)
    )
}

/// The histogram of game lengths.
fn lengths_section(lengths: &[u64]) -> String {
    format!(
        "<section id=\"lengths\">\n<h2>Game length</h2>\n{}</section>\n",
        charts::lengths(lengths)
    )
}

/// Each card's improvement when drawn, with its interval.
fn improvement_section(cards: &[(&Card, Counts, Figures)]) -> String {
    let rows: Vec<(&str, crate::sim::Difference)> = cards
        .iter()
        .map(|(card, _, f)| (card.name.as_str(), f.improvement))
        .collect();
    let shape = IntervalShape {
        aria: "improvement when drawn",
        axis: "improvement when drawn (percentage points, with 95% interval)",
    };
    format!(
        "<section id=\"improvement\">\n<h2>Improvement when drawn</h2>\n<p>In-hand win rate minus not-seen win rate, in percentage points, with its 95% interval; dark where the interval leaves out 0.</p>\n{}</section>\n",
        charts::intervals(&shape, &rows)
    )
}

/// Each card's play rate.
fn play_rate_section(cards: &[(&Card, Counts, Figures)]) -> String {
    let rows: Vec<Bar<'_>> = cards
        .iter()
        .map(|(card, _, f)| Bar {
            name: card.name.clone(),
            value: f.play_rate.value,
            colour: BLUE,
        })
        .collect();
    let shape = BarShape {
        aria: "play rate",
        row: 14.0,
        left: 170.0,
        width: 400.0,
        axis: "play rate (% of the games it was in hand)",
    };
    format!(
        "<section id=\"play-rate\">\n<h2>Play rate</h2>\n<p>Games a card was played over games it was in hand.</p>\n{}</section>\n",
        charts::bars(&shape, &rows)
    )
}

/// A card's cost as its definition gives it: what playing it costs (the
/// number; what it is paid in is its type), then each activated ability's
/// that costs something, in its own attribute where not the card's; "—" for
/// a card nothing of which costs. With the number to sort by, the cost of
/// playing it (none for a card without one: sorted last).
fn cost(card: &Card, rules: &RuleSet) -> (String, Option<i64>) {
    let play = &card.play;
    let paid = play.pay_with.is_some() || play.cost != 0;
    let mut parts: Vec<String> = Vec::new();
    if paid {
        parts.push(play.cost.to_string());
    }
    for ability in card.abilities.iter().filter(|a| a.cost != 0) {
        let mut part = format!("{} {}", ability.name, ability.cost);
        if let Some(attr) = ability.pay_with.filter(|&a| Some(a) != play.pay_with) {
            let _ = write!(part, " {}", rules.attributes[attr]);
        }
        parts.push(part);
    }
    let text = if parts.is_empty() {
        "—".to_string()
    } else {
        parts.join("; ")
    };
    (text, paid.then_some(play.cost))
}

/// A card's type as its definition gives it: its `:kind` where it names one,
/// and its `:type` (what it is paid in); "—" for neither.
fn card_type(card: &Card, rules: &RuleSet) -> String {
    let parts: Vec<&str> = card
        .play
        .kind
        .map(|k| rules.kinds[k].as_str())
        .into_iter()
        .chain(card.play.pay_with.map(|a| rules.attributes[a].as_str()))
        .collect();
    if parts.is_empty() {
        "—".to_string()
    } else {
        parts.join(" · ")
    }
}

/// The cells of a card's name, cost and type, and the text the filter
/// searches (its name and type), for the row's start.
fn card_cells(card: &Card, rules: &RuleSet) -> (String, String) {
    let (cost_text, cost_key) = cost(card, rules);
    let kind = card_type(card, rules);
    let find = format!("{} {}", card.name, kind).to_lowercase();
    let cells = format!(
        "<td>{}</td><td data-v=\"{}\">{}</td><td class=\"text\">{}</td>",
        esc(&card.name),
        cost_key.map_or(String::new(), |c| c.to_string()),
        esc(&cost_text),
        esc(&kind)
    );
    (cells, esc(&find))
}

/// A column's header: its name for `?sort=`, whether it holds numbers
/// (sorted highest first at the first click), and what it shows.
fn header(col: &str, numeric: bool, shown: &str) -> String {
    format!(
        "<th data-col=\"{col}\"{}>{}</th>",
        if numeric { " data-num" } else { "" },
        esc(shown)
    )
}

/// The filter's box, shown by the script, for the table `table`.
fn filter_box(table: &str) -> String {
    format!(
        "<p class=\"filter\" hidden><label>Filter cards by name or type: <input type=\"search\" data-filter=\"{table}\" placeholder=\"e.g. dragon, bricks\"></label> <span class=\"shown\"></span></p>\n"
    )
}

/// A rate with its interval, as a cell sorted by the rate.
fn rate_cell(r: Rate) -> String {
    format!(
        "<td data-v=\"{:.6}\">{:.1}% ({:.1}–{:.1})</td>",
        r.value,
        100.0 * r.value,
        100.0 * r.low,
        100.0 * r.high
    )
}

/// The per-card table: cost and type, counts, rates and improvement.
fn cards_section(rules: &RuleSet, cards: &[(&Card, Counts, Figures)]) -> String {
    let mut t = String::from("<section id=\"table\">\n<h2>Figures</h2>\n");
    t.push_str(&filter_box("cards"));
    t.push_str("<table class=\"sortable\" id=\"cards\">\n<thead><tr>");
    for (col, numeric, shown) in [
        ("card", false, "card"),
        ("cost", true, "cost"),
        ("type", false, "type"),
        ("in_hand", true, "in hand"),
        ("played", true, "played"),
        ("discarded", true, "discarded"),
        ("play_rate", true, "play rate"),
        ("in_hand_wr", true, "in-hand win rate"),
        ("played_wr", true, "played win rate"),
        ("not_seen_wr", true, "not-seen win rate"),
        ("improvement", true, "improvement"),
        ("mean_turn", true, "mean turn"),
    ] {
        t.push_str(&header(col, numeric, shown));
    }
    t.push_str("</tr></thead>\n<tbody>\n");
    for (card, c, f) in cards {
        let (cells, words) = card_cells(card, rules);
        let d = f.improvement;
        let _ = writeln!(
            t,
            "<tr data-find=\"{words}\">{cells}<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{:.6}\">{:.1}%</td>{}{}{}<td data-v=\"{:.6}\">{:+.1} ({:+.1}, {:+.1}){}</td><td data-v=\"{:.6}\">{:.1}</td></tr>",
            c.in_hand,
            c.in_hand,
            c.plays,
            c.plays,
            c.discards,
            c.discards,
            f.play_rate.value,
            100.0 * f.play_rate.value,
            rate_cell(f.in_hand),
            rate_cell(f.played),
            rate_cell(f.not_seen),
            d.value,
            100.0 * d.value,
            100.0 * d.low,
            100.0 * d.high,
            if d.significant() { "*" } else { "" },
            f.mean_turn,
            f.mean_turn
        );
    }
    t.push_str("</tbody>\n</table>\n<p>Rates with 95% intervals; * where the improvement's interval leaves out 0. Click a column's header to sort by it, again to reverse.</p>\n</section>\n");
    t
}

/// Each seat's win rate with deck A and deck B, and the table of the
/// changes with their intervals, mean length included.
fn versus_seats_section(page: &VersusPage<'_>) -> String {
    let comparison = page.comparison;
    let mut rows: Vec<Bar<'_>> = Vec::new();
    for (s, c) in comparison.seats.iter().enumerate() {
        let seat = &page.rules.seats[s];
        rows.push(Bar {
            name: format!("{seat} A"),
            value: c.a.value,
            colour: BLUE,
        });
        rows.push(Bar {
            name: format!("{seat} B"),
            value: c.b.value,
            colour: ORANGE,
        });
    }
    let shape = BarShape {
        aria: "seat win rates, deck A and deck B",
        row: 20.0,
        left: 90.0,
        width: 500.0,
        axis: "win rate (% of games)",
    };
    let mut out = format!(
        "<section id=\"seats\">\n<h2>Seat win rates</h2>\n{}<table id=\"seat-changes\">\n<thead><tr><th>seat</th><th>A</th><th>B</th><th>change (95%)</th></tr></thead>\n<tbody>\n",
        charts::bars(&shape, &rows)
    );
    for (s, c) in comparison.seats.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{:.1}%</td><td>{:.1}%</td><td>{}</td></tr>",
            esc(&page.rules.seats[s]),
            100.0 * c.a.value,
            100.0 * c.b.value,
            super::table::points(&c.change)
        );
    }
    let length = &comparison.length;
    let _ = writeln!(
        out,
        "<tr><td>mean length</td><td>{:.1} turns</td><td>{:.1} turns</td><td>{:+.1} turns ({:+.1},{:+.1}){}</td></tr>\n</tbody>\n</table>\n<p>Changes are B minus A with 95% intervals (Newcombe for rates, Welch for length); * where the interval leaves out 0.</p>\n</section>",
        length.a,
        length.b,
        length.b - length.a,
        length.low,
        length.high,
        if length.significant() { "*" } else { "" }
    );
    out
}

/// Each card in both decks: the change in its in-hand win rate, with its interval.
fn versus_change_section(comparison: &Comparison<'_>) -> String {
    let rows: Vec<(&str, crate::sim::Difference)> = comparison
        .cards
        .iter()
        .filter_map(|c| Some((c.name, c.change?)))
        .collect();
    let shape = IntervalShape {
        aria: "change in in-hand win rate",
        axis: "in-hand win rate, B minus A (percentage points, with 95% interval)",
    };
    format!(
        "<section id=\"changes\">\n<h2>Change in in-hand win rate</h2>\n<p>Each card in both decks: its in-hand win rate with deck B minus with deck A, in percentage points, with its 95% interval; dark where the interval leaves out 0. One card in twenty that did not change may leave out 0 by chance: look at the size of the change too.</p>\n{}</section>\n",
        charts::intervals(&shape, &rows)
    )
}

/// The card named `name` in `deck`.
fn find<'a>(deck: &'a [Card], name: &str) -> Option<&'a Card> {
    deck.iter().find(|c| c.name == name)
}

/// A figure of one deck as a percentage cell ("–" where the deck lacks the card).
fn side_cell(f: Option<Figures>, get: fn(&Figures) -> f64) -> String {
    f.map_or("<td data-v=\"\">–</td>".to_string(), |f| {
        format!("<td data-v=\"{:.6}\">{:.1}%</td>", get(&f), 100.0 * get(&f))
    })
}

/// The cells of a card's name, cost and type in a comparison: B's where it
/// is in B, A's cost beside where the two differ ("25 → 22").
fn versus_card_cells(page: &VersusPage<'_>, c: &CardComparison<'_>) -> (String, String) {
    let [a, b] = page.cards;
    let (in_a, in_b) = (find(a, c.name), find(b, c.name));
    let Some(card) = in_b.or(in_a) else {
        return (
            format!("<td>{}</td><td></td><td></td>", esc(c.name)),
            String::new(),
        );
    };
    let (cells, words) = card_cells(card, page.rules);
    let (Some(x), Some(y)) = (in_a, in_b) else {
        return (cells, words);
    };
    let (was, now) = (cost(x, page.rules).0, cost(y, page.rules).0);
    if was == now {
        return (cells, words);
    }
    let key = cost(y, page.rules)
        .1
        .map_or(String::new(), |k| k.to_string());
    let cells = format!(
        "<td>{}</td><td data-v=\"{key}\">{} → {}</td><td class=\"text\">{}</td>",
        esc(&card.name),
        esc(&was),
        esc(&now),
        esc(&card_type(card, page.rules))
    );
    (cells, words)
}

/// The per-card table of a comparison, as `--versus-cards` prints it, with
/// each card's cost and type and its play rates.
fn versus_cards_section(page: &VersusPage<'_>) -> String {
    let mut t = String::from("<section id=\"table\">\n<h2>Figures</h2>\n");
    t.push_str(&filter_box("cards"));
    t.push_str("<table class=\"sortable\" id=\"cards\">\n<thead><tr>");
    for (col, numeric, shown) in [
        ("card", false, "card"),
        ("cost", true, "cost"),
        ("type", false, "type"),
        ("in_hand_wr_a", true, "in-hand A"),
        ("in_hand_wr_b", true, "in-hand B"),
        ("change", true, "change (95%)"),
        ("improvement_a", true, "improvement A"),
        ("improvement_b", true, "improvement B"),
        ("play_rate_a", true, "play rate A"),
        ("play_rate_b", true, "play rate B"),
    ] {
        t.push_str(&header(col, numeric, shown));
    }
    t.push_str("</tr></thead>\n<tbody>\n");
    for c in &page.comparison.cards {
        let (cells, words) = versus_card_cells(page, c);
        let change = match (c.change, c.a, c.b) {
            (Some(d), _, _) => format!(
                "<td data-v=\"{:.6}\">{}</td>",
                d.value,
                super::table::points(&d)
            ),
            (None, None, _) => "<td data-v=\"\">added in B</td>".to_string(),
            (None, _, None) => "<td data-v=\"\">only in A</td>".to_string(),
            _ => "<td data-v=\"\"></td>".to_string(),
        };
        let _ = writeln!(
            t,
            "<tr data-find=\"{words}\">{cells}{}{}{change}{}{}{}{}</tr>",
            side_cell(c.a, |f| f.in_hand.value),
            side_cell(c.b, |f| f.in_hand.value),
            side_cell(c.a, |f| f.improvement.value),
            side_cell(c.b, |f| f.improvement.value),
            side_cell(c.a, |f| f.play_rate.value),
            side_cell(c.b, |f| f.play_rate.value),
        );
    }
    t.push_str("</tbody>\n</table>\n<p>Changes are B minus A with 95% intervals; * where the interval leaves out 0. Click a column's header to sort by it, again to reverse.</p>\n</section>\n");
    t
}

/// The declared metrics: each one's mean over the games and each seat's,
/// then, per metric, each card's means and improvement when drawn.
/// Nothing for a rule set without metrics.
fn metrics_section(metrics: &[MetricFigures]) -> String {
    let Some(first) = metrics.first() else {
        return String::new();
    };
    let cell = |m: &Mean| {
        if m.n == 0 {
            "–".to_string()
        } else {
            format!("{:.2} ({:.2}, {:.2})", m.value, m.low, m.high)
        }
    };
    let mut out = String::from(
        "<section id=\"metrics\">\n<h2>Metrics</h2>\n<p>Each declared metric's mean with its 95% interval (Student's t below 30 games): over the games (each game's value the mean of its seats'), and each seat's.</p>\n<table>\n<tr><th>metric</th><th>all seats</th>",
    );
    for (seat, _) in &first.seats {
        let _ = write!(out, "<th>{}</th>", esc(seat));
    }
    out.push_str("</tr>\n");
    for m in metrics {
        let _ = write!(
            out,
            "<tr><td title=\"{}\">{}</td><td>{}</td>",
            esc(&m.doc),
            esc(&m.name),
            cell(&m.overall)
        );
        for (_, mean) in &m.seats {
            let _ = write!(out, "<td>{}</td>", cell(mean));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    for m in metrics.iter().filter(|m| !m.cards.is_empty()) {
        let _ = write!(
            out,
            "<h3>{} by card</h3>\n<p>The holder's mean in games the card was in hand, played, and not seen; improvement = in-hand minus not-seen mean (Welch), * when its interval leaves out 0.</p>\n<table class=\"sortable\">\n<thead><tr>{}",
            esc(&m.name),
            header(&format!("metric:{}:card", m.name), false, "card")
        );
        for (part, shown) in [
            ("in_hand", "in hand"),
            ("played", "played"),
            ("not_seen", "not seen"),
            ("improvement", "improvement"),
        ] {
            out.push_str(&header(&format!("metric:{}:{part}", m.name), true, shown));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (card, c) in &m.cards {
            let d = c.improvement;
            let improvement = if c.in_hand.n < 2 || c.not_seen.n < 2 {
                "–".to_string()
            } else {
                format!(
                    "{:+.2} ({:+.2}, {:+.2}){}",
                    d.value,
                    d.low,
                    d.high,
                    if d.significant { "*" } else { "" }
                )
            };
            // The sort keys: a mean of no game, a difference of too few, sort last.
            let key = |m: &Mean| {
                if m.n == 0 {
                    String::new()
                } else {
                    format!("{:.6}", m.value)
                }
            };
            let d_key = if improvement == "–" {
                String::new()
            } else {
                format!("{:.6}", d.value)
            };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{d_key}\">{improvement}</td></tr>",
                esc(card),
                key(&c.in_hand),
                cell(&c.in_hand),
                key(&c.played),
                cell(&c.played),
                key(&c.not_seen),
                cell(&c.not_seen)
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</section>\n");
    out
}

/// The declared metrics compared: each one's mean over the games with deck
/// A and B, and B − A with Welch's interval. Nothing without metrics.
fn versus_metrics_section(comparison: &Comparison<'_>) -> String {
    if comparison.metrics.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section id=\"metrics\">\n<h2>Metrics</h2>\n<p>Each declared metric's mean over the games (each game's value the mean of its seats'), with deck A and deck B; the change is B minus A with its 95% interval (Welch), * when it leaves out 0.</p>\n<table>\n<tr><th>metric</th><th>A</th><th>B</th><th>change</th></tr>\n",
    );
    for m in &comparison.metrics {
        let p = &m.overall;
        let d = p.change;
        let change = if p.a.n < 2 || p.b.n < 2 {
            "–".to_string()
        } else {
            format!(
                "{:+.2} ({:+.2}, {:+.2}){}",
                d.value,
                d.low,
                d.high,
                if d.significant { "*" } else { "" }
            )
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{:.2}</td><td>{:.2}</td><td>{change}</td></tr>",
            esc(&m.name),
            p.a.value,
            p.b.value
        );
    }
    out.push_str("</table>\n</section>\n");
    out
}
