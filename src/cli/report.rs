//! `simulate --report FILE.html`: one self-contained page (no network, no
//! script: charts inline as SVG) with the seat win rates, the game-length
//! histogram, the declared metrics' means (overall, per seat, per card), and per card the improvement when drawn with its interval and
//! the play rate, then the figures as a table.

use std::fmt::Write as _;

use crate::check::defs::Card;
use crate::sim::metrics::Mean;
use crate::sim::report::MetricFigures;
use crate::sim::{Counts, Figures, Rate};

/// What the page shows.
pub struct Page<'a> {
    /// The title line: rule set, games, seed, players.
    pub title: String,
    /// The deck line.
    pub deck: &'a str,
    /// Each seat's name and win rate (0 to 1).
    pub seats: Vec<(String, f64)>,
    /// Games by length: `lengths[t]` games lasted `t` turns.
    pub lengths: &'a [u64],
    /// Each card, with its counts and figures, in the order to show.
    pub cards: Vec<(&'a Card, Counts, Figures)>,
    /// The rule set's declared metrics (none: no section).
    pub metrics: &'a [MetricFigures],
}

/// Text made safe inside HTML and SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page as HTML.
pub fn html(page: &Page<'_>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n{}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n<p class=\"deck\">{}</p>\n",
        esc(&page.title),
        STYLE,
        esc(&page.title),
        esc(page.deck)
    );
    out.push_str("<section id=\"seats\">\n<h2>Seat win rates</h2>\n");
    out.push_str(&seats_chart(&page.seats));
    out.push_str("</section>\n<section id=\"lengths\">\n<h2>Game length</h2>\n");
    out.push_str(&length_chart(page.lengths));
    out.push_str("</section>\n");
    out.push_str(&metrics_section(page.metrics));
    if !page.cards.is_empty() {
        out.push_str("<section id=\"improvement\">\n<h2>Improvement when drawn</h2>\n<p>In-hand win rate minus not-seen win rate, in percentage points, with its 95% interval; dark where the interval leaves out 0.</p>\n");
        out.push_str(&improvement_chart(&page.cards));
        out.push_str("</section>\n<section id=\"play-rate\">\n<h2>Play rate</h2>\n<p>Games a card was played over games it was in hand.</p>\n");
        out.push_str(&play_rate_chart(&page.cards));
        out.push_str("</section>\n<section id=\"table\">\n<h2>Figures</h2>\n");
        out.push_str(&table(&page.cards));
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}\
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}.deck{color:#555}\
svg text{font-size:12px;fill:#222}table{border-collapse:collapse;font-size:12px}\
td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}\
td:first-child,th:first-child{text-align:left}";

/// Horizontal bars, one a seat, with the rate written beside.
fn seats_chart(seats: &[(String, f64)]) -> String {
    let (row, left, width) = (24.0, 90.0, 500.0);
    let height = row * seats.len() as f64 + 10.0;
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"seat win rates\" width=\"{}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
        left + width + 80.0
    );
    for (i, (name, rate)) in seats.iter().enumerate() {
        let y = i as f64 * row + 5.0;
        let _ = writeln!(
            svg,
            "<text x=\"0\" y=\"{}\">{}</text><rect x=\"{left}\" y=\"{y}\" width=\"{:.1}\" height=\"{}\" fill=\"#4a7fb5\"/><text x=\"{:.1}\" y=\"{}\">{:.1}%</text>",
            y + 14.0,
            esc(name),
            width * rate,
            row - 6.0,
            left + width * rate + 6.0,
            y + 14.0,
            100.0 * rate
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// A histogram of game lengths, in at most 50 bins.
fn length_chart(lengths: &[u64]) -> String {
    let first = lengths.iter().position(|&n| n > 0).unwrap_or(0);
    let last = lengths.iter().rposition(|&n| n > 0).unwrap_or(0);
    let span = last - first + 1;
    let per = span.div_ceil(50).max(1);
    let bins: Vec<u64> = (first..=last)
        .step_by(per)
        .map(|s| lengths[s..(s + per).min(last + 1)].iter().sum())
        .collect();
    let top = bins.iter().copied().max().unwrap_or(1).max(1) as f64;
    let (w, h, left) = (12.0, 160.0, 40.0);
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"game length histogram\" width=\"{}\" height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
        left + w * bins.len() as f64 + 20.0,
        h + 40.0
    );
    for (i, &n) in bins.iter().enumerate() {
        let bh = h * n as f64 / top;
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#6a9f58\"><title>{}–{} turns: {n} games</title></rect>",
            left + i as f64 * w,
            h - bh + 10.0,
            w - 1.0,
            first + i * per,
            first + (i + 1) * per - 1
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"{}\">{first} turns</text><text x=\"{:.1}\" y=\"{}\" text-anchor=\"end\">{last} turns</text><text x=\"0\" y=\"20\">{}</text>",
        h + 30.0,
        left + w * bins.len() as f64,
        h + 30.0,
        top as u64
    );
    svg.push_str("</svg>\n");
    svg
}

/// One row a card: a dot at the improvement and a line across its interval.
fn improvement_chart(cards: &[(&Card, Counts, Figures)]) -> String {
    let limit = cards
        .iter()
        .flat_map(|(_, _, f)| [f.improvement.low.abs(), f.improvement.high.abs()])
        .fold(0.01f64, f64::max);
    let (row, left, width) = (14.0, 170.0, 600.0);
    let x = |v: f64| left + width / 2.0 + v / limit * width / 2.0;
    let height = row * cards.len() as f64 + 30.0;
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"improvement when drawn\" width=\"{}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">\n<line x1=\"{:.1}\" y1=\"0\" x2=\"{:.1}\" y2=\"{height}\" stroke=\"#999\"/>\n",
        left + width + 20.0,
        x(0.0),
        x(0.0)
    );
    for (i, (card, _, f)) in cards.iter().enumerate() {
        let y = i as f64 * row + 10.0;
        let d = f.improvement;
        let colour = if d.significant() {
            "#b5443a"
        } else {
            "#d9a09b"
        };
        let _ = writeln!(
            svg,
            "<text x=\"0\" y=\"{:.1}\">{}</text><line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/><circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{colour}\"><title>{}: {:+.1} ({:+.1}, {:+.1})</title></circle>",
            y + 4.0,
            esc(&card.name),
            x(d.low),
            x(d.high),
            x(d.value),
            esc(&card.name),
            100.0 * d.value,
            100.0 * d.low,
            100.0 * d.high
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"{:.1}\">{:+.0} points</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{:+.0} points</text>",
        height - 4.0,
        -100.0 * limit,
        left + width,
        height - 4.0,
        100.0 * limit
    );
    svg.push_str("</svg>\n");
    svg
}

/// One bar a card: its play rate.
fn play_rate_chart(cards: &[(&Card, Counts, Figures)]) -> String {
    let (row, left, width) = (14.0, 170.0, 400.0);
    let height = row * cards.len() as f64 + 10.0;
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"play rate\" width=\"{}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
        left + width + 60.0
    );
    for (i, (card, _, f)) in cards.iter().enumerate() {
        let y = i as f64 * row + 2.0;
        let r = f.play_rate.value;
        let _ = writeln!(
            svg,
            "<text x=\"0\" y=\"{:.1}\">{}</text><rect x=\"{left}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{}\" fill=\"#4a7fb5\"/><text x=\"{:.1}\" y=\"{:.1}\">{:.0}%</text>",
            y + 10.0,
            esc(&card.name),
            width * r,
            row - 3.0,
            left + width * r + 4.0,
            y + 10.0,
            100.0 * r
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn table(cards: &[(&Card, Counts, Figures)]) -> String {
    let mut t = String::from(
        "<table>\n<tr><th>card</th><th>in hand</th><th>played</th><th>discarded</th><th>play rate</th><th>in-hand win rate</th><th>played win rate</th><th>not-seen win rate</th><th>improvement</th><th>mean turn</th></tr>\n",
    );
    let pct = |r: Rate| {
        format!(
            "{:.1}% ({:.1}–{:.1})",
            100.0 * r.value,
            100.0 * r.low,
            100.0 * r.high
        )
    };
    for (card, c, f) in cards {
        let d = f.improvement;
        let _ = writeln!(
            t,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{}</td><td>{}</td><td>{}</td><td>{:+.1} ({:+.1}, {:+.1}){}</td><td>{:.1}</td></tr>",
            esc(&card.name),
            c.in_hand,
            c.plays,
            c.discards,
            100.0 * f.play_rate.value,
            pct(f.in_hand),
            pct(f.played),
            pct(f.not_seen),
            100.0 * d.value,
            100.0 * d.low,
            100.0 * d.high,
            if d.significant() { "*" } else { "" },
            f.mean_turn
        );
    }
    t.push_str("</table>\n");
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
            "<h3>{} by card</h3>\n<p>The holder's mean in games the card was in hand, played, and not seen; improvement = in-hand minus not-seen mean (Welch), * when its interval leaves out 0.</p>\n<table>\n<tr><th>card</th><th>in hand</th><th>played</th><th>not seen</th><th>improvement</th></tr>\n",
            esc(&m.name)
        );
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
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{improvement}</td></tr>",
                esc(card),
                cell(&c.in_hand),
                cell(&c.played),
                cell(&c.not_seen)
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("</section>\n");
    out
}
