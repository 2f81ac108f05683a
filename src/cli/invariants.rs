//! `grimoire simulate --check-invariants`: a run's games played again with
//! every game invariant ([`crate::engine::invariants`]) checked after every
//! action, and some replayed fresh from their seeds to compare logs.

use std::fmt::Write as _;
use std::ops::Range;

use rayon::prelude::*;

use super::Output;
use super::play::{load_changed_deck, load_deck};
use super::simulate::{SimArgs, chunks, game_seed, simulate};
use crate::defs::Card;
use crate::engine::Game;
use crate::engine::ai::{Ai, Policy};
use crate::engine::invariants::{Checker, Violation, play_checked, replay_matches};
use crate::rules::RuleSet;

/// By default every this many games (the first included) is replayed fresh from its seed.
pub const REPLAY_EVERY: u64 = 1000;

/// What a checked run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckedRun {
    /// Games played and checked.
    pub games: u64,
    /// Actions done over all games, each followed by a check.
    pub actions: u64,
    /// Games replayed from their seeds and compared.
    pub replayed: u64,
}

impl CheckedRun {
    fn merge(self, other: CheckedRun) -> CheckedRun {
        CheckedRun {
            games: self.games + other.games,
            actions: self.actions + other.actions,
            replayed: self.replayed + other.replayed,
        }
    }
}

/// The first violation of a run: the game's number in the run (from 0) and seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The game's number in the run, from 0.
    pub game: u64,
    /// Its seed.
    pub seed: u64,
    /// What broke.
    pub violation: Violation,
}

/// Plays games `range` of a run seeded `seed` with every invariant checked,
/// replaying every `replay_every`th game (by number in the run; 0: none) fresh
/// from its seed. The failure of the lowest-numbered game that has one, so the
/// answer does not depend on the thread count.
pub fn check_range(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    range: Range<u64>,
    policies: &[Policy],
    replay_every: u64,
) -> Result<CheckedRun, Box<Failure>> {
    chunks(range)
        .map(|games| check_games(rules, deck, seed, games, policies, replay_every))
        .reduce(
            || Ok(CheckedRun::default()),
            |a, b| match (a, b) {
                (Ok(a), Ok(b)) => Ok(a.merge(b)),
                (Err(a), Err(b)) => Err(if a.game <= b.game { a } else { b }),
                (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
            },
        )
}

/// One task's games, as `simulate` plays them: one game reset for each seed,
/// so that a replay from a fresh game also checks that a reset leaves nothing behind.
fn check_games(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    range: Range<u64>,
    policies: &[Policy],
    replay_every: u64,
) -> Result<CheckedRun, Box<Failure>> {
    let mut done = CheckedRun::default();
    let Ok(mut game) = Game::new(rules, deck, game_seed(seed, range.start), true) else {
        return Ok(done);
    };
    let (mut ai, mut checker) = (Ai::new(), Checker::new());
    for i in range {
        let s = game_seed(seed, i);
        let fail = |violation| {
            Box::new(Failure {
                game: i,
                seed: s,
                violation,
            })
        };
        game.reset(s);
        done.actions += play_checked(&mut game, &mut ai, policies, &mut checker).map_err(fail)?;
        done.games += 1;
        if replay_every > 0 && i % replay_every == 0 {
            let log = game.log.as_deref().unwrap_or(&[]);
            replay_matches(rules, deck, s, policies, log, game.state()).map_err(fail)?;
            done.replayed += 1;
        }
    }
    Ok(done)
}

/// `grimoire simulate --check-invariants`: the figures of `simulate`, after
/// the same games (and, with `--versus-cards`, the second deck's) played
/// again with every invariant checked, every `replay_every`th replayed.
/// A violation is an error naming the game, its seed and turn (exit 1).
pub fn simulate_checked(args: &SimArgs, replay_every: u64) -> Output {
    let mut out = simulate(args);
    if out.code != 0 {
        return out;
    }
    let (rules, deck) = match load_changed_deck(
        &args.rules,
        &args.cards,
        &args.changes,
        args.format,
        args.color,
    ) {
        Ok(d) => d,
        Err(out) => return out,
    };
    let mut decks = vec![("", deck.cards)];
    if !args.versus.is_empty() {
        match load_deck(&args.rules, &args.versus, args.color) {
            Ok((_, d)) => decks.push((" (--versus-cards)", d.cards)),
            Err(out) => return out,
        }
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return Output::usage(format!("cannot start worker threads: {e}")),
    };
    let games = args.shard.map_or(0..args.games, |s| s.games(args.games));
    let mut total = CheckedRun::default();
    for (which, cards) in &decks {
        let checked = pool.install(|| {
            check_range(
                &rules,
                cards,
                args.seed,
                games.clone(),
                &args.ai,
                replay_every,
            )
        });
        match checked {
            Ok(c) => total = total.merge(c),
            Err(f) => return Output::failure(failure_message(&f, which)),
        }
    }
    let _ = writeln!(
        out.stderr,
        "invariants held: {} games, {} actions each followed by a check, {} games replayed from their seeds",
        total.games, total.actions, total.replayed
    );
    out
}

/// A failure as people read it: the game as `--record-game` numbers it (from 1).
pub fn failure_message(f: &Failure, deck: &str) -> String {
    format!(
        "game {}{deck} (seed {}; `--record-game {} FILE` records it), {}",
        f.game + 1,
        f.seed,
        f.game + 1,
        f.violation
    )
}
