//! `grimoire simulate … --versus-cards B`: the same seeds played with two
//! decks, and what changed ([`crate::sim::compare`]) — seat win rates, game
//! length, the declared metrics and each card's figures — shown with 95 % intervals for every
//! difference, marked where the interval leaves out 0. "Did making Dragon
//! cost 22 instead of 25 change anything?" gets its answer on one screen.

use std::fmt::Write as _;

use serde_json::json;

use super::report::VersusPage;
use super::table::{csv_cell, name_width, points};
use super::{Format, Output, to_json};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::sim::Figures;
use crate::sim::compare::{CardComparison, Comparison, MeanPair, MetricChange};

/// What the comparison is shown with besides its figures.
pub(crate) struct Heading<'a> {
    /// Games played with each deck.
    pub(crate) games: u64,
    /// The run's seed.
    pub(crate) seed: u64,
    /// Each seat's policy's name.
    pub(crate) policies: &'a [String],
    /// The two decks' lines ("deck: the bundled arcomage deck, 102 cards").
    pub(crate) decks: [&'a str; 2],
}

/// The comparison in the format asked (`csv` before `format`).
pub(crate) fn report(
    rules: &RuleSet,
    heading: &Heading<'_>,
    comparison: &Comparison<'_>,
    format: Format,
    csv: bool,
) -> Output {
    let stdout = match format {
        _ if csv => self::csv(&comparison.cards, &comparison.metrics),
        Format::Json => json_text(rules, heading, comparison),
        Format::Human => human(rules, heading, comparison),
    };
    Output {
        stdout,
        ..Output::default()
    }
}

fn json_text(rules: &RuleSet, heading: &Heading<'_>, comparison: &Comparison<'_>) -> String {
    let length = &comparison.length;
    let mut value = json!({
        "rules": rules.name,
        "games": heading.games,
        "seed": heading.seed,
        "ai": heading.policies,
        "decks": heading.decks,
        "seats": comparison.seats.iter().enumerate().map(|(s, c)| {
            let d = c.change;
            json!({"seat": rules.seats[s], "ai": heading.policies[s], "win_rate": [c.a.value, c.b.value],
                   "change": d.value, "low": d.low, "high": d.high, "significant": d.significant()})
        }).collect::<Vec<_>>(),
        "mean_turns": {"values": [length.a, length.b], "change": length.b - length.a,
                       "low": length.low, "high": length.high, "significant": length.significant()},
        "cards": comparison.cards.iter().map(|c| json!({
            "card": c.name,
            "in_hand_wr": [c.a.map(|f| f.in_hand.value), c.b.map(|f| f.in_hand.value)],
            "play_rate": [c.a.map(|f| f.play_rate.value), c.b.map(|f| f.play_rate.value)],
            "improvement": [c.a.map(|f| f.improvement.value), c.b.map(|f| f.improvement.value)],
            "change": c.change.map(|d| json!({"value": d.value, "low": d.low, "high": d.high,
                                               "significant": d.significant()})),
        })).collect::<Vec<_>>(),
    });
    if !comparison.metrics.is_empty() {
        value["metrics"] = metrics_json(rules, comparison);
    }
    if let Some(e) = rules.encounters.get(rules.encounter) {
        value["encounter"] = json!(e.name);
    }
    // A seat's losses beside its wins, where a seat can lose.
    for (s, c) in comparison.losses.iter().enumerate() {
        let d = c.change;
        value["seats"][s]["loss_rate"] = json!([c.a.value, c.b.value]);
        value["seats"][s]["loss_change"] = json!({"value": d.value, "low": d.low, "high": d.high,
                                                  "significant": d.significant()});
    }
    to_json(&value)
}

/// A mean with each deck and the change, as JSON: `{"values": [A, B],
/// "n": [A, B], "change", "low", "high", "significant"}`.
fn pair_json(p: &MeanPair) -> serde_json::Value {
    let d = p.change;
    json!({"values": [p.a.value, p.b.value], "n": [p.a.n, p.b.n], "change": d.value,
           "low": d.low, "high": d.high, "significant": d.significant})
}

/// The metrics compared, by name: each overall, per seat and per card.
fn metrics_json(rules: &RuleSet, comparison: &Comparison<'_>) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    for m in &comparison.metrics {
        let mut entry = pair_json(&m.overall);
        entry["seats"] = m
            .seats
            .iter()
            .zip(&rules.seats)
            .map(|(p, seat)| {
                let mut v = json!({"seat": seat});
                if let (Some(v), serde_json::Value::Object(p)) = (v.as_object_mut(), pair_json(p)) {
                    v.extend(p);
                }
                v
            })
            .collect();
        entry["cards"] = comparison
            .cards
            .iter()
            .zip(&m.cards)
            .map(|(c, p)| {
                let mut v = json!({"card": c.name});
                if let (Some(v), Some(serde_json::Value::Object(p))) =
                    (v.as_object_mut(), p.as_ref().map(pair_json))
                {
                    v.extend(p);
                }
                v
            })
            .collect();
        map.insert(m.name.clone(), entry);
    }
    serde_json::Value::Object(map)
}

/// A change of a mean, "+0.22 (+0.10,+0.34)*"; "-" without two games a side.
fn mean_change(p: &MeanPair) -> String {
    super::table::mean_difference(&p.change, p.a.n >= 2 && p.b.n >= 2)
}

/// The metrics' means with each deck and the change, after the length.
fn metrics_block(out: &mut String, metrics: &[MetricChange]) {
    if metrics.is_empty() {
        return;
    }
    let width = name_width(metrics.iter().map(|m| m.name.as_str())).max(6);
    let _ = writeln!(
        out,
        "\n{:<width$} {:>9} {:>9}  change (95%)",
        "metric", "A", "B"
    );
    for m in metrics {
        let _ = writeln!(
            out,
            "{:<width$} {:>9.2} {:>9.2}  {}",
            m.name,
            m.overall.a.value,
            m.overall.b.value,
            mean_change(&m.overall)
        );
    }
}

/// ` · encounter NAME` for a rule set with `:encounters`, as `simulate`'s header says it.
fn encounter(rules: &RuleSet) -> String {
    rules
        .encounters
        .get(rules.encounter)
        .map(|e| format!(" · encounter {}", e.name))
        .unwrap_or_default()
}

fn human(rules: &RuleSet, heading: &Heading<'_>, comparison: &Comparison<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}{} · {} games each · seed {} · {} · the same seeds with two decks",
        rules.name,
        encounter(rules),
        heading.games,
        heading.seed,
        players(rules, heading)
    );
    let [a, b] = heading.decks;
    let _ = writeln!(out, "A {a}\nB {b}");
    let _ = writeln!(out, "\n{:<7} {:>8} {:>8}  change (95%)", "seat", "A", "B");
    let lost: Vec<String> = rules.seats.iter().map(|s| format!("{s} lost")).collect();
    let rows = rules.seats.iter().zip(&comparison.seats);
    for (name, c) in rows.chain(lost.iter().zip(&comparison.losses)) {
        let _ = writeln!(
            out,
            "{:<7} {:>7.1}% {:>7.1}%  {}",
            name,
            100.0 * c.a.value,
            100.0 * c.b.value,
            points(&c.change)
        );
    }
    let length = &comparison.length;
    let _ = writeln!(
        out,
        "{:<7} {:>8.1} {:>8.1}  {:+.1} turns ({:+.1},{:+.1}){}",
        "length",
        length.a,
        length.b,
        length.b - length.a,
        length.low,
        length.high,
        if length.significant() { "*" } else { "" }
    );
    metrics_block(&mut out, &comparison.metrics);
    let cards = &comparison.cards;
    let width = name_width(cards.iter().map(|c| c.name));
    let _ = writeln!(
        out,
        "\n{:<width$} {:>10} {:>10}  {:<22} {:>8} {:>8}",
        "card", "in-hand A", "in-hand B", "change (95%)", "improv A", "improv B"
    );
    let pct = |f: Option<Figures>, get: fn(&Figures) -> f64| {
        f.map_or("-".to_string(), |f| format!("{:.1}%", 100.0 * get(&f)))
    };
    for c in cards {
        let change = match (c.change, c.a, c.b) {
            (Some(d), _, _) => points(&d),
            (None, None, _) => "added in B".to_string(),
            (None, _, None) => "only in A".to_string(),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "{:<width$} {:>10} {:>10}  {:<22} {:>8} {:>8}",
            c.name,
            pct(c.a, |f| f.in_hand.value),
            pct(c.b, |f| f.in_hand.value),
            change,
            pct(c.a, |f| f.improvement.value),
            pct(c.b, |f| f.improvement.value),
        );
    }
    let _ = writeln!(
        out,
        "\nchanges are B minus A with 95% intervals (Newcombe for rates, Welch for length); * when the interval leaves out 0\n(one card in twenty that did not change may show * by chance: look at the size of the change too)"
    );
    if !comparison.metrics.is_empty() {
        let _ = writeln!(
            out,
            "metrics: the mean of each game's seats, B minus A with Welch's interval (Student's t below 30 games); per card in the JSON and CSV"
        );
    }
    out
}

/// Who played each seat, as the heads of `simulate`'s outputs say it:
/// "p1 greedy vs p2 random".
fn players(rules: &RuleSet, heading: &Heading<'_>) -> String {
    rules
        .seats
        .iter()
        .zip(heading.policies)
        .map(|(seat, ai)| format!("{seat} {ai}"))
        .collect::<Vec<_>>()
        .join(" vs ")
}

/// The comparison's page (`--versus-cards B --report FILE.html`): the
/// same figures as the table, `decks` the two decks' cards (A, B).
pub(crate) fn page<'a>(
    rules: &'a RuleSet,
    heading: &Heading<'a>,
    decks: [&'a [Card]; 2],
    comparison: &'a Comparison<'a>,
) -> VersusPage<'a> {
    VersusPage {
        title: format!(
            "{}{} · {} games each · seed {} · {} · two decks",
            rules.name,
            encounter(rules),
            heading.games,
            heading.seed,
            players(rules, heading)
        ),
        decks: heading.decks,
        rules,
        players: rules
            .seats
            .iter()
            .zip(heading.policies)
            .map(|(seat, ai)| (seat.clone(), (*ai).to_string()))
            .collect(),
        cards: decks,
        comparison,
    }
}

fn csv(cards: &[CardComparison<'_>], metrics: &[MetricChange]) -> String {
    let mut out = String::from(
        "card,in_hand_wr_a,in_hand_wr_b,change,change_low,change_high,change_significant,improvement_a,improvement_b",
    );
    for m in metrics {
        let name = format!("metric:{}", m.name);
        for part in [
            "in_hand_a",
            "in_hand_b",
            "change",
            "change_low",
            "change_high",
            "change_significant",
        ] {
            let _ = write!(out, ",{name}:{part}");
        }
    }
    out.push('\n');
    let num = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
    for (row, c) in cards.iter().enumerate() {
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            csv_cell(c.name),
            num(c.a.map(|f| f.in_hand.value)),
            num(c.b.map(|f| f.in_hand.value)),
            num(c.change.map(|d| d.value)),
            num(c.change.map(|d| d.low)),
            num(c.change.map(|d| d.high)),
            c.change
                .map_or(String::new(), |d| d.significant().to_string()),
            num(c.a.map(|f| f.improvement.value)),
            num(c.b.map(|f| f.improvement.value)),
        );
        // Each metric: the card's in-hand mean with each deck, and the change.
        for m in metrics {
            match m.cards.get(row).copied().flatten() {
                Some(p) if p.a.n >= 2 && p.b.n >= 2 => {
                    let d = p.change;
                    let _ = write!(
                        out,
                        ",{:.4},{:.4},{:.4},{:.4},{:.4},{}",
                        p.a.value, p.b.value, d.value, d.low, d.high, d.significant
                    );
                }
                Some(p) => {
                    let mean = |m: crate::sim::metrics::Mean| {
                        if m.n == 0 {
                            String::new()
                        } else {
                            format!("{:.4}", m.value)
                        }
                    };
                    let _ = write!(out, ",{},{},,,,", mean(p.a), mean(p.b));
                }
                None => out.push_str(",,,,,,"),
            }
        }
        out.push('\n');
    }
    out
}
