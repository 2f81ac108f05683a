//! Whole simulated Arcomage games per second: the random and the greedy policy on
//! one core, and the random policy on one and on two worker threads.

use std::hint::black_box;
use std::sync::atomic::AtomicU64;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::Policy;
use grimoire::files;
use grimoire::sim::{run_all, run_games};

/// The deck `simulate arcomage` plays: the library's own loader of the bundled deck.
fn deck(rules: &RuleSet) -> Vec<Card> {
    let deck = files::load_deck(&mut rules.clone(), &[]).expect("the bundled deck loads");
    assert_eq!(deck.cards.len(), 102);
    deck.cards
}

fn games(c: &mut Criterion) {
    let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
    let deck = deck(&rules);
    let done = AtomicU64::new(0);

    let mut group = c.benchmark_group("games_one_core");
    group.sample_size(20);
    for (policy, n) in [(Policy::Random, 2_000u64), (Policy::Greedy, 200)] {
        group.throughput(Throughput::Elements(n));
        let mut seed = 0u64;
        group.bench_function(policy.name(), |b| {
            b.iter(|| {
                seed += 1;
                black_box(run_games(&rules, &deck, seed, 0..n, &[policy], &done))
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("games_threads");
    group.sample_size(10);
    let n = 20_000u64;
    group.throughput(Throughput::Elements(n));
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut seed = 0u64;
        group.bench_function(format!("random_{threads}_threads"), |b| {
            b.iter(|| {
                seed += 1;
                pool.install(|| {
                    black_box(run_all(&rules, &deck, seed, n, &[Policy::Random], &done))
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
