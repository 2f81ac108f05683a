//! A run's games played with every game invariant
//! ([`crate::engine::invariants`]) checked after every action, and some
//! replayed fresh from their seeds to compare logs: what `simulate
//! --check-invariants` runs.

use std::ops::Range;

use rayon::prelude::*;

use super::run::{chunks, game_seed};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::engine::ai::{Ai, Policy};
use crate::engine::invariants::{Monitor, Violation, play_checked, replay_matches};
use crate::engine::{Game, Log};

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
    /// The sums of both.
    pub fn merge(self, other: CheckedRun) -> CheckedRun {
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
    let Ok(mut game) = Game::new(rules, deck, game_seed(seed, range.start), Log::Keep) else {
        return Ok(done);
    };
    let (mut ai, mut checker) = (Ai::new(), Monitor::new());
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
            let log = game.log().unwrap_or(&[]);
            replay_matches(rules, deck, s, policies, log, game.state()).map_err(fail)?;
            done.replayed += 1;
        }
    }
    Ok(done)
}
