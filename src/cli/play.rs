//! `grimoire play`: a seeded game, AI against AI or a person against an AI.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use super::{Format, Output, load_rules, state_table};
use crate::diag::Severity;
use crate::engine::ai::{Ai, Policy};
use crate::engine::{Action, By, Card, Game, GameEvent, Outcome, Phase};
use crate::files;
use crate::rules::RuleSet;

/// What `grimoire play` needs.
#[derive(Clone, Debug)]
pub struct PlayArgs {
    /// Rule set name or path.
    pub rules: String,
    /// Card files or folders; empty means `cards/RULES`.
    pub cards: Vec<PathBuf>,
    /// The game's seed.
    pub seed: u64,
    /// The AI of each seat (one value: both seats).
    pub ai: Vec<Policy>,
    /// A person plays the first seat.
    pub human: bool,
    /// Colour diagnostics.
    pub color: bool,
}

/// Loads a rule set and its cards, refusing a deck that does not check.
pub(crate) fn load_deck(
    rules: &str,
    cards: &[PathBuf],
    color: bool,
) -> Result<(RuleSet, Vec<Card>), Output> {
    let rules = load_rules(rules, Format::Human, color)?;
    let folder = PathBuf::from("cards").join(&rules.name);
    let bundled = files::BUNDLED_DECKS
        .iter()
        .find(|(name, _)| *name == rules.name);
    let checked = match bundled {
        // Outside a checkout, a bundled rule set plays its bundled deck.
        Some((_, texts)) if cards.is_empty() && !folder.is_dir() => {
            let sources = texts
                .iter()
                .map(|(path, text)| crate::diag::Source::new(format!("<bundled {path}>"), *text))
                .collect();
            files::check_sources(sources, Some(&rules))
        }
        _ if cards.is_empty() => files::check_paths(&[folder], Some(&rules)),
        _ => files::check_paths(cards, Some(&rules)),
    };
    let errors: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|(_, d)| d.severity == Severity::Error)
        .map(|(i, d)| (&checked.sources[*i], d))
        .collect();
    if !checked.io_errors.is_empty() {
        let mut out = Output::usage(checked.io_errors.join("\n"));
        out.stderr
            .push_str("help: pass the card files or folders with --cards\n");
        return Err(out);
    }
    if !errors.is_empty() {
        let mut out = Output::diagnostics(&errors, Format::Human, color);
        let _ = writeln!(
            out.stderr,
            "error: the deck does not check ({} errors); not starting",
            errors.len()
        );
        return Err(out);
    }
    let deck = Card::from_definitions(&checked.definitions, &rules.name);
    if deck.is_empty() {
        return Err(Output::usage(format!(
            "no cards for rule set `{}` in the given paths",
            rules.name
        )));
    }
    Ok((rules, deck))
}

/// The policy of `seat` from `--ai` values (one value serves every seat).
pub(crate) fn policy(ai: &[Policy], seat: usize) -> Policy {
    ai.get(seat)
        .or(ai.last())
        .copied()
        .unwrap_or(Policy::Random)
}

/// `grimoire play`: plays one game and returns its log; with a person, talks through `input`/`output`.
pub fn play(args: &PlayArgs, input: &mut dyn BufRead, output: &mut dyn Write) -> Output {
    let (rules, deck) = match load_deck(&args.rules, &args.cards, args.color) {
        Ok(d) => d,
        Err(out) => return out,
    };
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
    let mut ai = Ai::new();
    let mut shown = 0;
    if args.human {
        let _ = output.write_all(header.as_bytes());
    }
    while game.outcome().is_none() {
        let human_turn = args.human && game.current == 0;
        let action = if human_turn {
            let log = game.log.as_deref().unwrap_or(&[]);
            let _ = output.write_all(render_log(&rules, &deck, &log[shown..]).as_bytes());
            shown = log.len();
            match ask(&game, input, output) {
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
    text.push_str(&render_log(&rules, &deck, &log[shown..]));
    text.push('\n');
    text.push_str(&state_table(&rules, &rules.seats, game.state()));
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
fn ask(game: &Game<'_>, input: &mut dyn BufRead, output: &mut dyn Write) -> Option<Action> {
    let rules = game.rules();
    let seat = game.current as usize;
    loop {
        let mut prompt = String::new();
        let _ = writeln!(
            prompt,
            "\n{}",
            state_table(rules, &rules.seats, game.state())
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
        let _ = output.write_all(prompt.as_bytes());
        let _ = output.flush();
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim();
        if line == "q" {
            return None;
        }
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
            Action::Discard(i - 1)
        } else {
            Action::Play(i - 1)
        };
        match game.check(action) {
            Ok(()) => return Some(action),
            Err(e) => {
                let _ = writeln!(output, "{e} (seat {})", rules.seats[seat]);
            }
        }
    }
}

/// A game log as people read it: turns, plays and discards, every change, the end.
pub fn render_log(rules: &RuleSet, cards: &[Card], log: &[GameEvent]) -> String {
    render_log_named(rules, cards, log, &rules.seats)
}

/// [`render_log`] with each seat called by `names[seat]` (scenarios say `you` and `other`).
pub fn render_log_named(
    rules: &RuleSet,
    cards: &[Card],
    log: &[GameEvent],
    names: &[String],
) -> String {
    let mut out = String::new();
    let seat = |s: u8| names.get(s as usize).map_or("?", String::as_str);
    // A hook's changes share one line: "start: p1.bricks 5 -> 7, …".
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
                event,
                by: by @ (By::TurnStart | By::TurnEnd),
            } => {
                let name = if by == By::TurnStart { "start" } else { "end" };
                if name != hook_name {
                    flush(&mut out, &mut hook_line, hook_name);
                    hook_name = name;
                }
                hook_line.push(format!(
                    "{}.{} {} -> {}",
                    seat(event.slot),
                    rules.attributes[event.attr as usize],
                    event.before,
                    event.after
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
            GameEvent::Changed { event, by } => {
                let note = if by == By::Cost { " (cost)" } else { "" };
                let _ = writeln!(
                    out,
                    "    {}.{} {} -> {}{note}",
                    seat(event.slot),
                    rules.attributes[event.attr as usize],
                    event.before,
                    event.after
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
                };
            }
        }
    }
    flush(&mut out, &mut hook_line, hook_name);
    out
}
