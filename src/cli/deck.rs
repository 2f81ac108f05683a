//! Rule sets and their decks as the commands load them: a deck that does not
//! check refused with its located errors, a card found by name or the names
//! it may have meant, and the deck's line in a header.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{Format, Output, open_rules};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::diag::{Code, Diagnostic, Severity, edit_distance, nearest, plural};
use crate::files::{self, CardChange, Deck, DeckError, DeckSource};

/// Loads a rule set and its deck, refusing a deck that does not check.
pub(crate) fn load_deck(
    rules: &str,
    cards: &[PathBuf],
    color: bool,
) -> Result<(RuleSet, Deck), Output> {
    load_changed_deck(rules, cards, &[], Format::Human, color)
}

/// [`load_deck`] with `changes` made to its cards (`simulate --change`); in
/// `format` JSON the deck's located errors are the JSON list `check` prints
/// (on standard output), so that a machine reads where a change went wrong.
pub(crate) fn load_changed_deck(
    rules: &str,
    cards: &[PathBuf],
    changes: &[CardChange],
    format: Format,
    color: bool,
) -> Result<(RuleSet, Deck), Output> {
    let mut opened = open_rules(rules, format, color)?;
    match opened.deck(files::Library::current(), cards, changes) {
        Ok(deck) => Ok((opened.rules, deck)),
        Err(e) => Err(deck_error(e, format, color)),
    }
}

/// A deck that could not be loaded, as output: its files' located errors
/// (in `format`), or what could not be read.
pub(crate) fn deck_error(e: DeckError, format: Format, color: bool) -> Output {
    match e {
        DeckError::Invalid(checked) => {
            let errors: Vec<_> = checked
                .diagnostics
                .iter()
                .filter(|(_, d)| d.severity == Severity::Error)
                .map(|(i, d)| (&checked.sources[*i], d))
                .collect();
            let mut out = Output::diagnostics(&errors, format, color);
            let _ = writeln!(
                out.stderr,
                "error: the deck does not check ({} error{}); not starting",
                errors.len(),
                plural(errors.len())
            );
            out
        }
        e @ DeckError::Io(_) => {
            let mut out = Output::coded(Code::DeckUnavailable, e.to_string());
            out.stderr
                .push_str("help: pass the card files or folders with --cards\n");
            out
        }
        e => Output::coded(Code::DeckUnavailable, e.to_string()),
    }
}

/// The deck for `--card`: a deck with bad rows still gives its good cards,
/// with the files' errors shown as warnings.
pub(crate) fn lenient_deck(
    name: &str,
    rules: &RuleSet,
    cards: &[PathBuf],
    color: bool,
) -> Result<(Vec<Card>, String), Output> {
    let home = files::Library::current().home(name, &rules.name);
    match files::load_deck_in(&mut rules.clone(), home.as_ref(), cards, &[]) {
        Ok(deck) => Ok((deck.cards, String::new())),
        Err(DeckError::Invalid(checked)) => {
            let shown: Vec<Diagnostic> = checked
                .diagnostics
                .iter()
                .map(|(_, d)| Diagnostic {
                    severity: Severity::Warning,
                    ..d.clone()
                })
                .collect();
            let located: Vec<_> = checked
                .diagnostics
                .iter()
                .zip(&shown)
                .map(|((i, _), d)| (&checked.sources[*i], d))
                .collect();
            let warnings = Output::diagnostics(&located, Format::Human, color).stderr;
            Ok((
                Card::from_definitions(&checked.definitions, &checked.sources, &rules.name),
                warnings,
            ))
        }
        Err(_) => load_deck(name, cards, color).map(|(_, deck)| (deck.cards, String::new())),
    }
}

/// The card called `name`, or a usage error with the names it may have meant.
pub(crate) fn find_card<'d>(deck: &'d [Card], name: &str, rules: &str) -> Result<&'d Card, Output> {
    if let Some(card) = deck.iter().find(|c| c.name == name) {
        return Ok(card);
    }
    let lower = name.to_lowercase();
    let names: Vec<&str> = deck.iter().map(|c| c.name.as_str()).collect();
    let mut near: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.to_lowercase().contains(&lower))
        .collect();
    if near.is_empty() {
        near.extend(nearest(name, names.iter().copied()));
    }
    // Card names are half-remembered words ("Fundations"): two edits are near.
    if near.is_empty() {
        near.extend(
            names
                .iter()
                .copied()
                .filter(|n| edit_distance(&lower, &n.to_lowercase()) <= 2),
        );
    }
    let hint = match near.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean \"{one}\"?"),
        many => format!(
            "; did you mean one of {}?",
            many.iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Err(Output::usage(format!(
        "no card named \"{name}\" in rule set `{rules}`{hint}"
    )))
}

/// The deck line of a log header or report: "deck: the bundled arcomage deck,
/// 102 cards"; after a line saying where the rule set came from when it is a
/// project's ("rules: arcomage of project mygame (rules/arcomage.edn), not the
/// bundled one").
pub(crate) fn deck_line(deck: &Deck) -> String {
    let rules = deck
        .rules_from
        .as_ref()
        .map(|from| format!("rules: {from}\n"))
        .unwrap_or_default();
    if deck.source == DeckSource::NoZones {
        return format!("{rules}deck: {}", deck.source);
    }
    // Every copy counts: a deck of 20 copies of one card holds 20 cards.
    let n = copies(deck);
    format!(
        "{rules}deck: {}, {n} card{}",
        deck.source,
        crate::diag::plural(n)
    )
}

/// How many cards a deck deals: every copy of every card.
pub(crate) fn copies(deck: &Deck) -> u64 {
    deck.cards.iter().map(|c| u64::from(c.play.copies)).sum()
}

/// The deck's line, with the changes made to its cards.
pub(crate) fn changed_line(line: String, changes: &[CardChange]) -> String {
    if changes.is_empty() {
        return line;
    }
    let changes: Vec<String> = changes.iter().map(ToString::to_string).collect();
    format!("{line}, changed: {}", changes.join(", "))
}
