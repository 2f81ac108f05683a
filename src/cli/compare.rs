//! `grimoire simulate … --versus-cards B`: the same seeds played with two
//! decks, and what changed ([`crate::sim::compare`]) — seat win rates, game
//! length and each card's figures — shown with 95 % intervals for every
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
use crate::sim::compare::{CardComparison, Comparison};

/// What the comparison is shown with besides its figures.
pub(crate) struct Heading<'a> {
    /// Games played with each deck.
    pub(crate) games: u64,
    /// The run's seed.
    pub(crate) seed: u64,
    /// Each seat's policy's name.
    pub(crate) policies: &'a [&'a str],
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
        _ if csv => self::csv(&comparison.cards),
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
    to_json(&json!({
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
    }))
}

fn human(rules: &RuleSet, heading: &Heading<'_>, comparison: &Comparison<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} · {} games each · seed {} · {} · the same seeds with two decks",
        rules.name,
        heading.games,
        heading.seed,
        players(rules, heading)
    );
    let [a, b] = heading.decks;
    let _ = writeln!(out, "A {a}\nB {b}");
    let _ = writeln!(out, "\n{:<7} {:>8} {:>8}  change (95%)", "seat", "A", "B");
    for (s, c) in comparison.seats.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:<7} {:>7.1}% {:>7.1}%  {}",
            rules.seats[s],
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
            "{} · {} games each · seed {} · {} · two decks",
            rules.name,
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

fn csv(cards: &[CardComparison<'_>]) -> String {
    let mut out = String::from(
        "card,in_hand_wr_a,in_hand_wr_b,change,change_low,change_high,change_significant,improvement_a,improvement_b\n",
    );
    let num = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
    for c in cards {
        let _ = writeln!(
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
    }
    out
}
