//! `grimoire simulate`: many seeded AI games, win rates and per-card figures.
//!
//! Game `i` is seeded from the run's seed and `i` alone, and every tally is a
//! sum of integers, so the result is the same whatever the thread count.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rayon::prelude::*;
use serde_json::json;

use super::play::{deck_line, load_deck, policy};
use super::{Format, Output, to_json};
use crate::defs::Card;
use crate::engine::ai::{Ai, Policy};
use crate::engine::{Ability, Game, Outcome};
use crate::rules::RuleSet;

/// What `grimoire simulate` needs.
#[derive(Clone, Debug)]
pub struct SimArgs {
    /// Rule set name or path.
    pub rules: String,
    /// Card files or folders; empty means the deck bundled with the rule set.
    pub cards: Vec<PathBuf>,
    /// How many games.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// The AI of each seat (one value: both seats).
    pub ai: Vec<Policy>,
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Output format.
    pub format: Format,
    /// Show a progress bar on standard error.
    pub progress: bool,
    /// Colour diagnostics.
    pub color: bool,
}

/// Games run by one task: fixed, so the split never depends on the thread count.
const CHUNK: u64 = 256;

/// Sums over games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins per seat.
    pub wins: Vec<u64>,
    /// Games where both seats won at once.
    pub ties: u64,
    /// Games stopped by the turn limit.
    pub turn_limits: u64,
    /// Games stopped because the player to act had no action the AI could take.
    pub no_action: u64,
    /// Games stopped because the engine refused the action the AI chose.
    pub refused: u64,
    /// Turns over all games.
    pub turns: u64,
    /// Times each card was played.
    pub played: Vec<u64>,
    /// Times each card was played by the player who went on to win.
    pub played_by_winner: Vec<u64>,
}

/// Why a simulated game stopped before the engine ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The player to act had nothing the AI could do.
    NoAction,
    /// The engine refused the action the AI chose.
    Refused,
}

impl Tally {
    /// Counts one finished or stopped game: its ending and its length. Returns
    /// the winning seat, if any.
    pub fn count(&mut self, game: &Game<'_>, stop: Option<Stop>) -> Option<usize> {
        self.turns += u64::from(game.turn);
        let ending = match (game.outcome(), stop) {
            (Some(Outcome::Win { seat, .. }), _) => {
                self.wins[seat as usize] += 1;
                return Some(seat as usize);
            }
            // Every seat out of play at once is a draw, as the log says.
            (Some(Outcome::Tie | Outcome::NobodyLeft), _) => &mut self.ties,
            (Some(Outcome::TurnLimit), _) => &mut self.turn_limits,
            (None, Some(Stop::NoAction) | None) => &mut self.no_action,
            (None, Some(Stop::Refused)) => &mut self.refused,
        };
        *ending += 1;
        None
    }

    /// An empty tally for `seats` seats and `cards` cards.
    pub fn new(seats: usize, cards: usize) -> Tally {
        Tally {
            wins: vec![0; seats],
            played: vec![0; cards],
            played_by_winner: vec![0; cards],
            ..Tally::default()
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        let add = |a: &mut Vec<u64>, b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.wins, &other.wins);
        add(&mut self.played, &other.played);
        add(&mut self.played_by_winner, &other.played_by_winner);
        self.ties += other.ties;
        self.turn_limits += other.turn_limits;
        self.no_action += other.no_action;
        self.refused += other.refused;
        self.turns += other.turns;
        self
    }
}

/// The seed of game `i` of a run seeded `seed` (SplitMix64, so nearby games differ widely).
pub fn game_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays games `range` and sums them.
pub fn run_games(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    range: std::ops::Range<u64>,
    ai_policies: &[Policy],
    done: &AtomicU64,
) -> Tally {
    let seats = rules.seats.len();
    let mut tally = Tally::new(seats, deck.len());
    let Ok(mut game) = Game::new(rules, deck, game_seed(seed, range.start), false) else {
        return tally;
    };
    let mut ai = Ai::new();
    let mut plays: Vec<u32> = vec![0; seats * deck.len()];
    for i in range {
        game.reset(game_seed(seed, i));
        let mut stop = None;
        while game.outcome().is_none() {
            let seat = game.current as usize;
            let Some(action) = ai.choose(&mut game, policy(ai_policies, seat)) else {
                stop = Some(Stop::NoAction);
                break;
            };
            if let Ability::Card(h) = action.ability {
                plays[seat * deck.len() + game.hand()[usize::from(h)] as usize] += 1;
            }
            if game.act(action).is_err() {
                stop = Some(Stop::Refused);
                break;
            }
        }
        let winner = tally.count(&game, stop);
        for (k, n) in plays.iter_mut().enumerate() {
            if *n > 0 {
                let (seat, card) = (k / deck.len(), k % deck.len());
                tally.played[card] += u64::from(*n);
                if winner == Some(seat) {
                    tally.played_by_winner[card] += u64::from(*n);
                }
                *n = 0;
            }
        }
        done.fetch_add(1, Ordering::Relaxed);
    }
    tally
}

/// Runs `games` games on the current rayon pool.
pub fn run_all(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    games: u64,
    ai: &[Policy],
    done: &AtomicU64,
) -> Tally {
    let chunks = games.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let range =
                c.saturating_mul(CHUNK)..c.saturating_add(1).saturating_mul(CHUNK).min(games);
            run_games(rules, deck, seed, range, ai, done)
        })
        .reduce(|| Tally::new(rules.seats.len(), deck.len()), Tally::merge)
}

/// `grimoire simulate`.
pub fn simulate(args: &SimArgs) -> Output {
    let (rules, deck) = match load_deck(&args.rules, &args.cards, args.color) {
        Ok(d) => d,
        Err(out) => return out,
    };
    let source = deck.source.to_string();
    let deck_shown = deck_line(&deck);
    let deck = deck.cards;
    if let Err(e) = Game::new(&rules, &deck, 0, false) {
        return Output::usage(e.to_string());
    }
    let done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return Output::usage(format!("cannot start worker threads: {e}")),
    };
    let tally = std::thread::scope(|scope| {
        if args.progress {
            scope.spawn(|| progress_bar(&done, &finished, args.games));
        }
        let tally = pool.install(|| run_all(&rules, &deck, args.seed, args.games, &args.ai, &done));
        finished.store(true, Ordering::Relaxed);
        tally
    });
    let policies: Vec<&str> = (0..rules.seats.len())
        .map(|s| policy(&args.ai, s).name())
        .collect();
    Output {
        stdout: match args.format {
            Format::Human => render(&rules, &deck, &deck_shown, args, &policies, &tally),
            Format::Json => to_json(&report_json(
                &rules, &deck, &source, args, &policies, &tally,
            )),
        },
        ..Output::default()
    }
}

fn rate(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn render(
    rules: &RuleSet,
    deck: &[Card],
    deck_shown: &str,
    args: &SimArgs,
    policies: &[&str],
    t: &Tally,
) -> String {
    let mut out = String::new();
    let players: Vec<String> = rules
        .seats
        .iter()
        .zip(policies)
        .map(|(s, p)| format!("{s} {p}"))
        .collect();
    let _ = writeln!(
        out,
        "{} · {} games · seed {} · {}",
        rules.name,
        args.games,
        args.seed,
        players.join(" vs ")
    );
    let _ = writeln!(out, "{deck_shown}");
    let _ = writeln!(out, "\n{:<7} {:>8} {:>7}", "seat", "wins", "rate");
    let rows = rules
        .seats
        .iter()
        .map(String::as_str)
        .zip(t.wins.iter().copied())
        .chain([
            ("ties", t.ties),
            ("limit", t.turn_limits),
            ("stuck", t.no_action),
            ("refused", t.refused),
        ]);
    for (name, n) in rows {
        let _ = writeln!(
            out,
            "{name:<7} {n:>8} {:>6.1}%",
            100.0 * rate(n, args.games)
        );
    }
    let _ = writeln!(out, "\nmean length: {:.1} turns", rate(t.turns, args.games));
    // A rule set without cards has no card table to show.
    if deck.is_empty() {
        return out;
    }
    let width = deck.iter().map(|c| c.name.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "\n{:<width$} {:>9} {:>9}",
        "card", "played", "win rate"
    );
    let mut order: Vec<usize> = (0..deck.len()).collect();
    order.sort_by(|&a, &b| t.played[b].cmp(&t.played[a]).then(a.cmp(&b)));
    for c in order {
        let _ = writeln!(
            out,
            "{:<width$} {:>9} {:>8.1}%",
            deck[c].name,
            t.played[c],
            100.0 * rate(t.played_by_winner[c], t.played[c])
        );
    }
    out
}

fn report_json(
    rules: &RuleSet,
    deck: &[Card],
    source: &str,
    args: &SimArgs,
    policies: &[&str],
    t: &Tally,
) -> serde_json::Value {
    let seats: Vec<_> = rules
        .seats
        .iter()
        .enumerate()
        .map(|(s, name)| json!({"seat": name, "ai": policies[s], "wins": t.wins[s], "win_rate": rate(t.wins[s], args.games)}))
        .collect();
    let cards: Vec<_> = deck
        .iter()
        .enumerate()
        .map(|(c, card)| {
            json!({
                "card": card.name,
                "played": t.played[c],
                "played_by_winner": t.played_by_winner[c],
                "win_rate": rate(t.played_by_winner[c], t.played[c]),
            })
        })
        .collect();
    json!({
        "rules": rules.name,
        "deck": {"source": source, "cards": deck.len(), "copies": deck.iter().map(|c| u64::from(c.play.copies)).sum::<u64>()},
        "games": args.games,
        "seed": args.seed,
        "seats": seats,
        "ties": t.ties,
        "turn_limits": t.turn_limits,
        "no_action": t.no_action,
        "refused": t.refused,
        "mean_turns": rate(t.turns, args.games),
        "cards": cards,
    })
}

fn progress_bar(done: &AtomicU64, finished: &AtomicBool, total: u64) {
    let mut err = std::io::stderr();
    while !finished.load(Ordering::Relaxed) {
        let n = done.load(Ordering::Relaxed).min(total);
        let filled = (30 * n).checked_div(total).unwrap_or(30) as usize;
        let _ = write!(
            err,
            "\r[{}{}] {n}/{total} games",
            "#".repeat(filled),
            " ".repeat(30 - filled)
        );
        let _ = err.flush();
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = write!(err, "\r{}\r", " ".repeat(60));
    let _ = err.flush();
}
