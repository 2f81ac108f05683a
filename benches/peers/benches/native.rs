//! Whole random-policy Arcomage games per second on one core: grimoire
//! against the native floor, the same game written directly in Rust
//! (`src/lib.rs`), on the same seeds. Grimoire's ratio to the floor is the
//! figure issue 11 asks to improve.
//!
//! - `native_floor/grimoire`: `run_games`, 2,000 games an iteration, as
//!   `games_one_core/random` in `games.rs` (with `simulate`'s per-card tally).
//! - `native_floor/grimoire_bare`: the same games through the engine's
//!   play-out loop with no observer (`Game` and `Ai` alone), counting only
//!   wins and turns, as the native runner does.
//! - `native_floor/native`: the native game on the same seeds.
//!
//! Before anything is timed, both sides play 2,000 games and must agree on
//! every seat's wins, the ties, the turn limits and the total of turns
//! (`tests/native_equivalence.rs` compares them move by move). Then each
//! side plays the same 20,000 games three times, alternating, and the best
//! rates and their ratio are printed, so one run gives the ratio directly.

use std::hint::black_box;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::playout::{Computer, play_out};
use grimoire::engine::{Game, Log, Outcome};
use grimoire::files;
use grimoire::sim::{game_seed, run_games};
use grimoire_peers::{Arcomage, Summary};

/// Games an iteration: as `games_one_core/random`.
const GAMES: u64 = 2_000;

/// The deck `simulate arcomage` plays: the library's own loader of the bundled deck.
fn deck(rules: &RuleSet) -> Vec<Card> {
    let deck = files::load_deck(&mut rules.clone(), &[]).expect("the bundled deck loads");
    assert_eq!(deck.cards.len(), 102);
    deck.cards
}

/// Grimoire's games with nothing but the native runner's bookkeeping.
fn grimoire_bare(game: &mut Game<'_>, ai: &mut Ai, seed: u64, n: u64) -> Summary {
    let mut summary = Summary::default();
    for i in 0..n {
        game.reset(game_seed(seed, i));
        let mut players = Computer {
            ai: &mut *ai,
            policies: &[Policy::Random],
        };
        // However the game stops, only its ending is counted, as natively.
        let _ = play_out(game, &mut players, &mut ());
        summary.games += 1;
        summary.turns += u64::from(game.ctx().turn);
        match game.outcome() {
            Some(Outcome::Win { seat, .. }) => summary.wins[seat.index()] += 1,
            Some(Outcome::TurnLimit) => summary.turn_limits += 1,
            _ => summary.ties += 1,
        }
    }
    summary
}

/// Games per second of the fastest of `rounds`, each `n` games.
fn best_rate(rounds: &[Duration], n: u64) -> f64 {
    let best = rounds.iter().min().copied().unwrap_or(Duration::MAX);
    n as f64 / best.as_secs_f64()
}

fn native(c: &mut Criterion) {
    let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
    let deck = deck(&rules);
    let done = AtomicU64::new(0);
    let mut native = Arcomage::new();
    let seeds = |seed: u64, n: u64| (0..n).map(move |i| game_seed(seed, i));

    // The same games, or the figures compare nothing.
    let tally = run_games(&rules, &deck, 0, 0..GAMES, &[Policy::Random], &done);
    let summary = native.run(seeds(0, GAMES));
    assert_eq!(
        (
            tally.wins.as_slice(),
            tally.ties,
            tally.turn_limits,
            tally.turns
        ),
        (
            summary.wins.as_slice(),
            summary.ties,
            summary.turn_limits,
            summary.turns
        ),
        "grimoire and the native game must play the same games"
    );

    // Alternating rounds of the same 20,000 games: the ratio from one run.
    let n = 20_000;
    let (mut slow, mut fast) = ([Duration::MAX; 3], [Duration::MAX; 3]);
    for round in 0..3 {
        let start = Instant::now();
        black_box(run_games(&rules, &deck, 7, 0..n, &[Policy::Random], &done));
        slow[round] = start.elapsed();
        let start = Instant::now();
        black_box(native.run(seeds(7, n)));
        fast[round] = start.elapsed();
    }
    let (g, f) = (best_rate(&slow, n), best_rate(&fast, n));
    eprintln!(
        "native floor, {n} games, best of 3: grimoire {g:.0} games/s, native {f:.0} games/s, \
         native/grimoire {:.1}x",
        f / g
    );

    let mut group = c.benchmark_group("native_floor");
    group.sample_size(20);
    group.throughput(Throughput::Elements(GAMES));
    let mut seed = 0u64;
    group.bench_function("grimoire", |b| {
        b.iter(|| {
            seed += 1;
            black_box(run_games(
                &rules,
                &deck,
                seed,
                0..GAMES,
                &[Policy::Random],
                &done,
            ))
        })
    });
    let mut game = Game::new(&rules, &deck, 0, Log::Skip).unwrap();
    let mut ai = Ai::new();
    let mut seed = 0u64;
    group.bench_function("grimoire_bare", |b| {
        b.iter(|| {
            seed += 1;
            black_box(grimoire_bare(&mut game, &mut ai, seed, GAMES))
        })
    });
    let mut seed = 0u64;
    group.bench_function("native", |b| {
        b.iter(|| {
            seed += 1;
            black_box(native.run(seeds(seed, GAMES)))
        })
    });
    group.finish();
}

criterion_group!(benches, native);
criterion_main!(benches);
