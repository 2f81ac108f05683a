//! The tree search's iterations per second (issue 34): one decision of
//! `--ai mcts` at a fixed position of each bundled rule set, the throughput
//! counted in iterations. The position: the first decision with more than
//! one legal move after ten random moves from seed 3 (a few turns in).
//! No peer plays these games with a tree search; the figure is grimoire's
//! own, written in docs/PERFORMANCE.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grimoire::check::rules::{BUNDLED, RuleSet};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::mcts::MctsParams;
use grimoire::engine::{Game, Log};
use grimoire::files;

fn iterations(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts_iterations");
    group.sample_size(10);
    for (name, _) in BUNDLED {
        let mut rules: RuleSet = files::load_rules(name).expect("bundled");
        let deck = files::load_deck(&mut rules, &[]).expect("its deck").cards;
        let mut game = Game::new(&rules, &deck, 3, Log::Skip).expect("a game");
        let mut ai = Ai::new();
        // Every iteration of the budget run, so the throughput counts them all.
        ai.tree().run_whole_budget_unchecked();
        // Ten moves in, then on to a decision with a choice in it (one
        // legal move is played without a search).
        let mut legal = Vec::new();
        for moved in 0.. {
            game.legal(&mut legal);
            if moved >= 10 && legal.len() > 1 {
                break;
            }
            let action = ai.choose(&mut game, Policy::Random).expect("a move");
            game.act(action).expect("legal");
            assert!(game.outcome().is_none(), "{name}: over before a choice");
        }
        let budget = 200u32;
        let policy = Policy::Mcts(MctsParams {
            budget,
            ..MctsParams::DEFAULT
        });
        group.throughput(Throughput::Elements(u64::from(budget)));
        group.bench_function(*name, |b| {
            b.iter(|| black_box(ai.choose(&mut game.clone(), policy)))
        });
    }
    group.finish();
}

criterion_group!(benches, iterations);
criterion_main!(benches);
