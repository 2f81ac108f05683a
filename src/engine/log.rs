//! The game log as people read it: turns, plays and discards, every change, the end.

use std::fmt::Write as _;

use super::{By, GameEvent, Outcome, moment_label};
use crate::ast::EntityId;
use crate::defs::Card;
use crate::rules::RuleSet;

/// A game log as people read it: turns, plays and discards, every change, the end.
pub fn render(rules: &RuleSet, cards: &[Card], log: &[GameEvent]) -> String {
    render_named(rules, cards, log, &rules.seats)
}

/// [`render`] with each seat called by `names[seat]` (scenarios say `you` and `other`).
pub fn render_named(
    rules: &RuleSet,
    cards: &[Card],
    log: &[GameEvent],
    names: &[String],
) -> String {
    let mut out = String::new();
    // Seats by name; entities added in play by number.
    let seat = |s: EntityId| match names.get(s as usize) {
        Some(name) => std::borrow::Cow::Borrowed(name.as_str()),
        None => std::borrow::Cow::Owned(format!("#{s}")),
    };
    // A moment's hook changes share one line: "start: p1.bricks 5 -> 7, …".
    let mut hook_line: Vec<String> = Vec::new();
    let mut hook_name = "start";
    let flush = |out: &mut String, hook_line: &mut Vec<String>, name: &str| {
        if !hook_line.is_empty() {
            let _ = writeln!(out, "  {name}: {}", hook_line.join(", "));
            hook_line.clear();
        }
    };
    for e in log {
        match *e {
            GameEvent::Changed {
                change,
                by: By::Hook(timing, _),
            } => {
                let name = moment_label(rules.timings[timing as usize].at);
                if name != hook_name {
                    flush(&mut out, &mut hook_line, hook_name);
                    hook_name = name;
                }
                hook_line.push(format!(
                    "{}.{} {} -> {}",
                    seat(change.entity),
                    rules.attributes[change.attr as usize],
                    change.before,
                    change.after
                ));
                continue;
            }
            _ => flush(&mut out, &mut hook_line, hook_name),
        }
        match *e {
            GameEvent::TurnStart { turn, seat: s } => {
                let _ = writeln!(out, "turn {turn}: {}", seat(s));
            }
            GameEvent::Played { seat: s, card } => {
                let c = &cards[card as usize];
                let _ = writeln!(out, "  {} plays {}: {}", seat(s), c.name, c.text);
            }
            GameEvent::Discarded {
                seat: s,
                card,
                forced,
            } => {
                let how = if forced { "must discard" } else { "discards" };
                let _ = writeln!(out, "  {} {how} {}", seat(s), cards[card as usize].name);
            }
            GameEvent::Passed { seat: s } => {
                let _ = writeln!(out, "  {} cannot act and passes", seat(s));
            }
            GameEvent::Changed { change, by } => {
                let note = if matches!(by, By::Cost(_)) {
                    " (cost)"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "    {}.{} {} -> {}{note}",
                    seat(change.entity),
                    rules.attributes[change.attr as usize],
                    change.before,
                    change.after
                );
            }
            GameEvent::Ended(outcome) => {
                let _ = match outcome {
                    Outcome::Win { seat: s, reason } => writeln!(
                        out,
                        "{} wins: {}",
                        seat(s),
                        rules
                            .victory
                            .get(reason as usize)
                            .map_or("", |v| v.reason.as_str())
                    ),
                    Outcome::Tie => writeln!(out, "tie: both players won at once"),
                    Outcome::TurnLimit => writeln!(out, "draw: the turn limit was reached"),
                    Outcome::NobodyLeft => writeln!(out, "draw: no seat is left in play"),
                };
            }
        }
    }
    flush(&mut out, &mut hook_line, hook_name);
    out
}
