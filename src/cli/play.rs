//! `grimoire play`: a seeded game, AI against AI or a person against an AI.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use super::{Format, Output, load_rules, state_table};
use crate::defs::Card;
use crate::diag::{Diagnostic, Severity};
use crate::engine::ai::{Ai, Policy};
use crate::engine::{Action, Game, Phase};
use crate::files::{self, Deck, DeckError, DeckSource};
use crate::rules::RuleSet;

/// What `grimoire play` needs.
#[derive(Clone, Debug)]
pub struct PlayArgs {
    /// Rule set name or path.
    pub rules: String,
    /// Card files or folders; empty means the deck bundled with the rule set.
    pub cards: Vec<PathBuf>,
    /// The game's seed.
    pub seed: u64,
    /// The AI of each seat (one value: both seats).
    pub ai: Vec<Policy>,
    /// A person plays the first seat.
    pub human: bool,
    /// Write what replays the game here (`--record`).
    pub record: Option<PathBuf>,
    /// Colour diagnostics.
    pub color: bool,
}

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
    changes: &[files::CardChange],
    format: Format,
    color: bool,
) -> Result<(RuleSet, Deck), Output> {
    let mut rules = load_rules(rules, format, color)?;
    match files::load_deck_changed(&mut rules, cards, changes) {
        Ok(deck) => Ok((rules, deck)),
        Err(DeckError::Invalid(checked)) => {
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
                crate::diag::plural(errors.len())
            );
            Err(out)
        }
        Err(e @ DeckError::Io(_)) => {
            let mut out = Output::usage(e.to_string());
            out.stderr
                .push_str("help: pass the card files or folders with --cards\n");
            Err(out)
        }
        Err(e) => Err(Output::usage(e.to_string())),
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
    match files::load_deck(&mut rules.clone(), cards) {
        Ok(deck) => Ok((deck.cards, String::new())),
        Err(files::DeckError::Invalid(checked)) => {
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
                Card::from_definitions(&checked.definitions, &rules.name),
                warnings,
            ))
        }
        Err(_) => {
            super::play::load_deck(name, cards, color).map(|(_, deck)| (deck.cards, String::new()))
        }
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
        near.extend(crate::diag::nearest(name, names.iter().copied()));
    }
    // Card names are half-remembered words ("Fundations"): two edits are near.
    if near.is_empty() {
        near.extend(
            names
                .iter()
                .copied()
                .filter(|n| crate::diag::edit_distance(&lower, &n.to_lowercase()) <= 2),
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

/// The deck line of a log header or report: "deck: the bundled arcomage deck, 102 cards".
pub(crate) fn deck_line(deck: &Deck) -> String {
    if deck.source == DeckSource::NoZones {
        return format!("deck: {}", deck.source);
    }
    // Every copy counts: a deck of 20 copies of one card holds 20 cards.
    let n = copies(deck);
    format!(
        "deck: {}, {n} card{}",
        deck.source,
        if n == 1 { "" } else { "s" }
    )
}

/// How many cards a deck deals: every copy of every card.
pub(crate) fn copies(deck: &Deck) -> u64 {
    deck.cards.iter().map(|c| u64::from(c.play.copies)).sum()
}

/// The policy of `seat` from `--ai` values (one value serves every seat).
pub(crate) fn policy(ai: &[Policy], seat: usize) -> Policy {
    ai.get(seat)
        .or(ai.last())
        .copied()
        .unwrap_or(Policy::Random)
}

/// `grimoire play`: plays one game and returns its log; with a person, talks
/// through `input`/`output`. With `--record`, writes what replays it.
pub fn play(args: &PlayArgs, input: &mut dyn BufRead, output: &mut dyn Write) -> Output {
    // A recording that could not be written is said before a game is played.
    if let Some(path) = &args.record
        && let Err(e) = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
    {
        return Output::usage(format!("{}: {e}", path.display()));
    }
    let mut tee = super::replay::Tee::new(input);
    let (mut out, game) = play_game(args, &mut tee, output);
    if let (Some(path), Some(game)) = (&args.record, game) {
        let typed = tee.into_text();
        if let Err(e) = super::replay::write(path, args, &game, typed) {
            out.stderr
                .push_str(&format!("error: {}: {e}\n", path.display()));
            out.code = super::EXIT_USAGE;
        }
    }
    out
}

/// What a played game leaves for its recording: the deck it was dealt from
/// and each decision, as its place in the legal actions of the moment.
pub(crate) struct Played {
    pub(crate) rules: RuleSet,
    pub(crate) deck: Vec<crate::defs::Card>,
    pub(crate) decisions: Vec<u32>,
}

/// One game, as [`play`] describes; also what recording it needs (`None`
/// when it never started).
pub(crate) fn play_game(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> (Output, Option<Played>) {
    let (rules, deck) = match load_deck(&args.rules, &args.cards, args.color) {
        Ok(d) => d,
        Err(out) => return (out, None),
    };
    let mut decisions: Vec<u32> = Vec::new();
    let mut legal = Vec::new();
    let out = run_game(args, &rules, &deck, input, output, &mut |game, action| {
        game.legal(&mut legal);
        let at = legal
            .iter()
            .position(|a| *a == action)
            .unwrap_or(usize::MAX);
        decisions.push(u32::try_from(at).unwrap_or(u32::MAX));
    });
    (
        out,
        Some(Played {
            rules,
            deck: deck.cards,
            decisions,
        }),
    )
}

fn run_game(
    args: &PlayArgs,
    rules: &RuleSet,
    deck: &Deck,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    decided: &mut dyn FnMut(&mut Game<'_>, Action),
) -> Output {
    let rules = rules.clone();
    let deck_cards = deck.cards.clone();
    let header_deck = deck_line(deck);
    let deck = deck_cards;
    let mut game = match Game::new(&rules, &deck, args.seed, true) {
        Ok(g) => g,
        Err(e) => return Output::usage(e.to_string()),
    };
    let seats = rules.seats.len();
    let mut header = format!("{} · seed {} · ", rules.name, args.seed);
    let players: Vec<String> = (0..seats)
        .map(|s| {
            let who = if args.human && s == 0 {
                "you".to_string()
            } else {
                policy(&args.ai, s).name().to_string()
            };
            format!("{} {who}", rules.seats[s])
        })
        .collect();
    header.push_str(&players.join(" vs "));
    header.push('\n');
    header.push_str(&header_deck);
    header.push('\n');
    let mut ai = Ai::new();
    let mut shown = 0;
    if args.human {
        let _ = output.write_all(header.as_bytes());
    }
    while game.outcome().is_none() {
        let human_turn = args.human && game.current == 0;
        let action = if human_turn {
            let log = game.log.as_deref().unwrap_or(&[]);
            let _ = output
                .write_all(crate::engine::log::render(&rules, &deck, &log[shown..]).as_bytes());
            shown = log.len();
            match ask(&mut game, input, output) {
                Some(a) => a,
                None => {
                    let _ = writeln!(output, "game abandoned");
                    return Output::default();
                }
            }
        } else {
            let seat_policy = policy(&args.ai, game.current as usize);
            match ai.choose(&mut game, seat_policy) {
                Some(a) => a,
                None => break,
            }
        };
        // Its place among the legal actions, before acting changes them.
        if game.allowed(action) {
            decided(&mut game, action);
        }
        if let Err(e) = game.act(action) {
            if human_turn {
                let _ = writeln!(output, "{e}");
                continue;
            }
            return Output::usage(format!(
                "internal error: the AI chose an illegal action: {e}"
            ));
        }
    }
    let log = game.log.as_deref().unwrap_or(&[]);
    let mut text = if args.human { String::new() } else { header };
    text.push_str(&crate::engine::log::render(&rules, &deck, &log[shown..]));
    text.push('\n');
    text.push_str(&state_table(
        &rules,
        &rules.game_entity_names(),
        game.state(),
    ));
    if args.human {
        let _ = output.write_all(text.as_bytes());
        return Output::default();
    }
    Output {
        stdout: text,
        ..Output::default()
    }
}

/// Shows the hand and reads a choice: `N` plays card N, `d N` discards it, `q` quits.
fn ask(game: &mut Game<'_>, input: &mut dyn BufRead, output: &mut dyn Write) -> Option<Action> {
    let rules = game.rules();
    if game.hand().is_empty() && !rules.actions.is_empty() {
        return ask_action(game, input, output);
    }
    let seat = game.current as usize;
    loop {
        let mut prompt = String::new();
        let _ = writeln!(
            prompt,
            "\n{}",
            state_table(rules, &rules.game_entity_names(), game.state())
        );
        match game.phase {
            Phase::MustDiscard(n) => {
                let _ = writeln!(
                    prompt,
                    "you must discard {n} card{}:",
                    if n == 1 { "" } else { "s" }
                );
            }
            _ => prompt.push_str("your hand:\n"),
        }
        for (i, &card) in game.hand().iter().enumerate() {
            let c = &game.cards()[card as usize];
            let cost = c
                .play
                .pay_with
                .map(|a| format!("{} {}", c.play.cost, rules.attributes[a as usize]))
                .unwrap_or_else(|| "free".into());
            let mut notes = Vec::new();
            if !game.affordable(card) {
                notes.push("cannot afford");
            }
            if !c.play.discardable {
                notes.push("cannot be discarded");
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!("  [{}]", notes.join(", "))
            };
            let _ = writeln!(
                prompt,
                "  {}. {} ({cost}): {}{notes}",
                i + 1,
                c.name,
                c.text
            );
        }
        prompt.push_str("play N, discard with d N, quit with q > ");
        let line = answer(&prompt, input, output)?;
        let line = line.as_str();
        let (discard, number) = match line.strip_prefix('d') {
            Some(rest) => (true, rest.trim()),
            None => (false, line),
        };
        let Some(i) = number
            .parse::<usize>()
            .ok()
            .filter(|&i| i >= 1 && i <= game.hand().len())
        else {
            let _ = writeln!(
                output,
                "type a card number from 1 to {}, or d N to discard",
                game.hand().len()
            );
            continue;
        };
        let action = if discard {
            game.discard(i - 1)
        } else {
            game.play(i - 1)
        };
        match game.check(action) {
            Ok(()) => return Some(action),
            Err(e) => {
                let _ = writeln!(output, "{e} (seat {})", rules.seats[seat]);
            }
        }
    }
}

/// Asks the person for one of the rule set's actions: every legal (action,
/// actor, target), numbered.
fn ask_action(
    game: &mut Game<'_>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Option<Action> {
    let rules = game.rules();
    let names = rules.game_entity_names();
    let name = |e: crate::ast::EntityId| {
        names
            .get(e as usize)
            .cloned()
            .unwrap_or_else(|| format!("#{e}"))
    };
    let mut legal = Vec::new();
    game.legal(&mut legal);
    loop {
        let mut prompt = format!("\n{}", state_table(rules, &names, game.state()));
        prompt.push_str("your actions:\n");
        for (i, &a) in legal.iter().enumerate() {
            let (who, what) = crate::engine::log::action_words(rules, a, name);
            let _ = writeln!(prompt, "  {}. {who}: {what}", i + 1);
        }
        prompt.push_str("act with N, quit with q > ");
        let line = answer(&prompt, input, output)?;
        match line.parse::<usize>().ok().and_then(|i| i.checked_sub(1)) {
            Some(i) if i < legal.len() => return Some(legal[i]),
            _ => {
                let _ = writeln!(output, "type an action number from 1 to {}", legal.len());
            }
        }
    }
}

/// Shows `prompt` and reads one line, trimmed; `None` at the end of input or on `q`.
fn answer(prompt: &str, input: &mut dyn BufRead, output: &mut dyn Write) -> Option<String> {
    let _ = output.write_all(prompt.as_bytes());
    let _ = output.flush();
    let mut line = String::new();
    if input.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let line = line.trim();
    (line != "q").then(|| line.to_string())
}
