//! `grimoire simulate --check-invariants`: a run's games played again with
//! every game invariant ([`crate::engine::invariants`]) checked after every
//! action ([`crate::sim::checked`]), and some replayed fresh from their seeds
//! to compare logs.

use std::fmt::Write as _;

use super::Output;
use super::deck::load_deck;
use super::simulate::{SimArgs, simulate};
use crate::sim::{CheckedRun, Failure, check_range};

/// By default every this many games (the first included) is replayed fresh from its seed.
pub const REPLAY_EVERY: u64 = 1000;

/// `grimoire simulate --check-invariants`: the figures of `simulate`, after
/// the same games (and, with `--versus-cards`, the second deck's) played
/// again with every invariant checked, every `replay_every`th replayed.
/// A violation is an error naming the game, its seed and turn (exit 1).
pub fn simulate_checked(args: &SimArgs, replay_every: u64) -> Output {
    let mut out = simulate(args);
    if out.code != 0 {
        return out;
    }
    let (rules, deck) = match super::simulate::load_run(args) {
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
    // `simulate` said already if `--threads` was past the machine's cores.
    let pool = match super::simulate::worker_pool(args.threads) {
        Ok((pool, _)) => pool,
        Err(out) => return out,
    };
    let games = args.games_played();
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
