//! `grimoire simulate … --versus-cards B`: the same seeds played with two
//! decks, and what changed — seat win rates, game length and each card's
//! figures — with 95 % intervals for every difference, marked where the
//! interval leaves out 0. "Did making Dragon cost 22 instead of 25 change
//! anything?" gets its answer on one screen.
//!
//! The two runs share seeds but not games (a changed card changes every draw
//! after it), so the intervals treat them as independent samples: cautious.

use std::fmt::Write as _;

use serde_json::json;

use super::cardstats::{Counts, Difference, Figures, Rate, name_width};
use super::simulate::{SimArgs, Tally};
use super::{Format, Output, to_json};
use crate::defs::Card;
use crate::rules::RuleSet;

/// One deck's run.
pub struct Side<'a> {
    /// The deck line ("deck: the bundled arcomage deck, 102 cards").
    pub shown: &'a str,
    /// Its cards.
    pub deck: &'a [Card],
    /// What its games added up to.
    pub tally: &'a Tally,
}

/// A difference of means and its 95 % interval (Welch's normal approximation).
#[derive(Clone, Copy, Debug, PartialEq)]
struct MeanChange {
    a: f64,
    b: f64,
    low: f64,
    high: f64,
}

impl MeanChange {
    fn of(a: &Tally, b: &Tally) -> MeanChange {
        let stats = |t: &Tally| {
            let n = t.games.max(1) as f64;
            let mean = t.turns as f64 / n;
            let var = (t.turns_sq as f64 / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
            (mean, var / n)
        };
        let ((ma, va), (mb, vb)) = (stats(a), stats(b));
        let half = 1.959_963_984_540_054 * (va + vb).sqrt();
        MeanChange {
            a: ma,
            b: mb,
            low: mb - ma - half,
            high: mb - ma + half,
        }
    }

    fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// A card's counts in a deck, summed over seats; `None` if the deck lacks it.
fn card_counts(side: &Side<'_>, seats: usize, name: &str) -> Option<Counts> {
    let n = side.deck.len();
    let c = side.deck.iter().position(|card| card.name == name)?;
    let mut sum = Counts::default();
    for s in 0..seats {
        sum.add(&side.tally.cards[s * n + c]);
    }
    Some(sum)
}

/// One card's row: its figures in each deck, and the change in its in-hand win rate.
struct CardChange<'a> {
    name: &'a str,
    a: Option<Figures>,
    b: Option<Figures>,
    change: Option<Difference>,
}

/// The comparison in the format asked.
pub fn report(
    rules: &RuleSet,
    args: &SimArgs,
    policies: &[&str],
    a: &Side<'_>,
    b: &Side<'_>,
) -> Output {
    let seats = rules.seats.len();
    let seat_changes: Vec<(Rate, Rate, Difference)> = (0..seats)
        .map(|s| {
            let ra = Rate::wilson(a.tally.wins[s], a.tally.games);
            let rb = Rate::wilson(b.tally.wins[s], b.tally.games);
            (ra, rb, Difference::between(rb, ra))
        })
        .collect();
    let length = MeanChange::of(a.tally, b.tally);
    // Every card of either deck, in A's order, then B's new ones.
    let mut names: Vec<&str> = a.deck.iter().map(|c| c.name.as_str()).collect();
    for c in b.deck {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    let mut cards: Vec<CardChange<'_>> = names
        .into_iter()
        .map(|name| {
            let fa = card_counts(a, seats, name).map(|c| c.figures());
            let fb = card_counts(b, seats, name).map(|c| c.figures());
            let change = match (fa, fb) {
                (Some(x), Some(y)) => Some(Difference::between(y.in_hand, x.in_hand)),
                _ => None,
            };
            CardChange {
                name,
                a: fa,
                b: fb,
                change,
            }
        })
        .collect();
    // Significant changes first, then the largest; cards in one deck last.
    cards.sort_by(|x, y| {
        let key = |c: &CardChange<'_>| {
            c.change
                .map_or((0, 0.0), |d| (u8::from(d.significant()), d.value.abs()))
        };
        let (kx, ky) = (key(x), key(y));
        ky.0.cmp(&kx.0).then(ky.1.total_cmp(&kx.1))
    });
    let stdout = match args.format {
        _ if args.csv => csv(&cards),
        Format::Json => to_json(&json!({
            "rules": rules.name,
            "games": args.games,
            "seed": args.seed,
            "decks": [a.shown, b.shown],
            "seats": (0..seats).map(|s| {
                let (ra, rb, d) = seat_changes[s];
                json!({"seat": rules.seats[s], "ai": policies[s], "win_rate": [ra.value, rb.value],
                       "change": d.value, "low": d.low, "high": d.high, "significant": d.significant()})
            }).collect::<Vec<_>>(),
            "mean_turns": {"values": [length.a, length.b], "change": length.b - length.a,
                           "low": length.low, "high": length.high, "significant": length.significant()},
            "cards": cards.iter().map(|c| json!({
                "card": c.name,
                "in_hand_wr": [c.a.map(|f| f.in_hand.value), c.b.map(|f| f.in_hand.value)],
                "play_rate": [c.a.map(|f| f.play_rate.value), c.b.map(|f| f.play_rate.value)],
                "improvement": [c.a.map(|f| f.improvement.value), c.b.map(|f| f.improvement.value)],
                "change": c.change.map(|d| json!({"value": d.value, "low": d.low, "high": d.high,
                                                   "significant": d.significant()})),
            })).collect::<Vec<_>>(),
        })),
        Format::Human => {
            let mut out = String::new();
            let _ = writeln!(
                out,
                "{} · {} games each · seed {} · the same seeds with two decks",
                rules.name, args.games, args.seed
            );
            let _ = writeln!(out, "A {}\nB {}", a.shown, b.shown);
            let _ = writeln!(out, "\n{:<7} {:>8} {:>8}  change (95%)", "seat", "A", "B");
            for (s, (ra, rb, d)) in seat_changes.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "{:<7} {:>7.1}% {:>7.1}%  {}",
                    rules.seats[s],
                    100.0 * ra.value,
                    100.0 * rb.value,
                    d.points()
                );
            }
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
            let width = name_width(cards.iter().map(|c| c.name));
            let _ = writeln!(
                out,
                "\n{:<width$} {:>10} {:>10}  {:<22} {:>8} {:>8}",
                "card", "in-hand A", "in-hand B", "change (95%)", "improv A", "improv B"
            );
            let pct = |f: Option<Figures>, get: fn(&Figures) -> f64| {
                f.map_or("-".to_string(), |f| format!("{:.1}%", 100.0 * get(&f)))
            };
            for c in &cards {
                let change = match (c.change, c.a, c.b) {
                    (Some(d), _, _) => d.points(),
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
    };
    Output {
        stdout,
        ..Output::default()
    }
}

fn csv(cards: &[CardChange<'_>]) -> String {
    let mut out = String::from(
        "card,in_hand_wr_a,in_hand_wr_b,change,change_low,change_high,change_significant,improvement_a,improvement_b\n",
    );
    let num = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
    for c in cards {
        let name = if c.name.contains([',', '"', '\n']) {
            format!("\"{}\"", c.name.replace('"', "\"\""))
        } else {
            c.name.to_string()
        };
        let _ = writeln!(
            out,
            "{name},{},{},{},{},{},{},{},{}",
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
