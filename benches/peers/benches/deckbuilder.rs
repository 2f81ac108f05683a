//! Seeded deckbuilder fights per second on one core: grimoire playing its
//! bundled rule set `deckbuilder` (`rules/deckbuilder.edn`, the starter deck
//! of `cards/deckbuilder/`, encounter `gnasher`) with the random policy,
//! against the same fight written as a Lua 5.4 script (mlua),
//! `benches/peers/scripts/deckbuilder.lua`.
//!
//! Each plays whole fights, every one from its own seed, the player choosing
//! as grimoire's random policy does (a card it can pay for, uniformly by hand
//! place, until none is left; then the turn ends). The script takes the
//! player's health, the Gnasher's health range and the turn limit from the
//! rule set; the rules themselves (the deck, the draw and reshuffle, energy,
//! block, vulnerable and its rounding, the Gnasher's moves and the odds of
//! its pattern) are written out in it.
//!
//! grimoire's generator cannot draw what Lua's draws, so before anything is
//! timed the two are compared statistically: the loss rate, the mean rounds
//! and the mean health left, over `GRIMOIRE_DECKBUILDER_GAMES` fights each
//! (100,000 unless set; 0 skips it), seeded from `GRIMOIRE_DECKBUILDER_SEED`
//! (7 unless set). A difference of more than four standard errors fails the
//! bench.

use std::hint::black_box;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::playout::{Computer, Ending, play_out};
use grimoire::engine::{Game, Log, Outcome};
use grimoire::files;
use grimoire::ids::EntityId;
use grimoire::sim::{Tally, game_seed, run_games};

const LUA: &str = include_str!("../scripts/deckbuilder.lua");

/// What the script takes from the rule set.
#[derive(Clone, Copy, Debug)]
struct Fight {
    health: i64,
    gnasher: (i64, i64),
    limit: i64,
}

impl Fight {
    /// Read from games set up by grimoire: the player's health, and the
    /// least and most health the Gnasher is dealt over many seeds.
    fn of(rules: &RuleSet, deck: &[Card]) -> Fight {
        let mut game = Game::new(rules, deck, 0, Log::Skip).expect("a fight starts");
        let health = rules.attribute("health").expect("health");
        let gnasher = EntityId::new(1);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for seed in 0..1_000 {
            game.reset(seed);
            let h = game.state().get(gnasher, health);
            (lo, hi) = (lo.min(h), hi.max(h));
        }
        Fight {
            health: game.state().get(EntityId::new(0), health),
            gnasher: (lo, hi),
            limit: i64::from(rules.turn_limit),
        }
    }
}

/// Sums over fights: how many, lost, rounds (and squares), health left (and squares).
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    games: u64,
    losses: u64,
    rounds: u64,
    rounds2: u64,
    left: u64,
    left2: u64,
}

impl Sums {
    /// Mean and standard error from a sum and a sum of squares.
    fn mean(&self, sum: u64, squares: u64) -> (f64, f64) {
        let n = self.games as f64;
        let mean = sum as f64 / n;
        let var = (squares as f64 / n - mean * mean) * n / (n - 1.0);
        (mean, (var / n).sqrt())
    }

    /// The figures compared: (name, estimate, standard error).
    fn figures(&self) -> [(&'static str, f64, f64); 3] {
        let n = self.games as f64;
        let p = self.losses as f64 / n;
        let (r, sr) = self.mean(self.rounds, self.rounds2);
        let (h, sh) = self.mean(self.left, self.left2);
        [
            ("loss rate", p, (p * (1.0 - p) / n).sqrt()),
            ("mean rounds", r, sr),
            ("health left", h, sh),
        ]
    }
}

/// grimoire's fights, one by one as `run_games` plays them.
fn grimoire_sums(rules: &RuleSet, deck: &[Card], seed: u64, n: u64) -> Sums {
    let mut game = Game::new(rules, deck, seed, Log::Skip).expect("a fight starts");
    let mut ai = Ai::new();
    let health = rules.attribute("health").expect("health");
    let mut s = Sums::default();
    for i in 0..n {
        game.reset(game_seed(seed, i));
        let mut players = Computer {
            ai: &mut ai,
            policies: &[Policy::Random],
        };
        let ending = play_out(&mut game, &mut players, &mut ());
        assert_eq!(ending, Ending::Over, "a legal action until the end");
        match game.outcome() {
            Some(Outcome::Loss { .. }) => s.losses += 1,
            Some(Outcome::Win { .. }) => {}
            other => panic!("a fight ended {other:?}"),
        }
        let r = u64::from(game.ctx().round);
        let h = game.state().get(EntityId::new(0), health).max(0) as u64;
        s.games += 1;
        (s.rounds, s.rounds2) = (s.rounds + r, s.rounds2 + r * r);
        (s.left, s.left2) = (s.left + h, s.left2 + h * h);
    }
    s
}

struct Lua {
    run: mlua::Function,
    _lua: mlua::Lua,
}

impl Lua {
    fn new() -> Lua {
        let lua = mlua::Lua::new();
        lua.load(LUA)
            .set_name("deckbuilder.lua")
            .exec()
            .expect("deckbuilder.lua loads");
        let run = lua.globals().get("run").expect("run");
        Lua { run, _lua: lua }
    }

    fn run(&self, fight: &Fight, first: u64, n: u64) -> Sums {
        let t: (i64, i64, i64, i64, i64, i64) = self
            .run
            .call((
                first as i64,
                n as i64,
                fight.health,
                fight.gnasher.0,
                fight.gnasher.1,
                fight.limit,
            ))
            .expect("lua run");
        let [games, losses, rounds, rounds2, left, left2] =
            [t.0, t.1, t.2, t.3, t.4, t.5].map(|x| x as u64);
        Sums {
            games,
            losses,
            rounds,
            rounds2,
            left,
            left2,
        }
    }
}

/// A count from the environment variable `name`, else `default`.
fn from_env(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

/// Plays `n` fights in each and fails on a difference chance does not explain.
fn compare(rules: &RuleSet, deck: &[Card], fight: &Fight, lua: &Lua) {
    let n = from_env("GRIMOIRE_DECKBUILDER_GAMES", 100_000);
    if n == 0 {
        return;
    }
    let seed = from_env("GRIMOIRE_DECKBUILDER_SEED", 7);
    let timed = |f: &mut dyn FnMut() -> Sums| {
        let start = Instant::now();
        let s = f();
        (s, start.elapsed())
    };
    let results = [
        ("grimoire", timed(&mut || grimoire_sums(rules, deck, seed, n))),
        ("lua", timed(&mut || lua.run(fight, seed * n, n))),
    ];
    println!("\nthe Gnasher, starter deck, random play: {n} fights each, {fight:?}");
    println!(
        "{:<9} {:>19} {:>19} {:>19} {:>10}",
        "", "loss rate", "mean rounds", "health left", "fights/s"
    );
    let reference = results[0].1.0.figures();
    let mut worst: (f64, &str) = (0.0, "");
    for (name, (s, took)) in &results {
        let mut line = format!("{name:<9}");
        let mut zs = String::new();
        for ((label, x, se), (_, x0, se0)) in s.figures().into_iter().zip(reference) {
            line += &format!(" {:>9.4} ± {:<7.4}", x, 1.96 * se);
            let spread = (se * se + se0 * se0).sqrt();
            let z = if spread > 0.0 { (x - x0) / spread } else { 0.0 };
            zs += &format!(" {z:>+19.2}");
            if z.abs() > worst.0 {
                worst = (z.abs(), label);
            }
        }
        println!("{line} {:>10.0}", n as f64 / took.as_secs_f64());
        if *name != "grimoire" {
            println!("{:<9}{zs}", "  z");
        }
    }
    assert!(
        worst.0 <= 4.0,
        "Lua disagrees with grimoire on {} by {:.1} standard errors",
        worst.1,
        worst.0
    );
}

fn bench(c: &mut Criterion) {
    // As `grimoire simulate deckbuilder --encounter gnasher` loads it.
    let mut rules = files::load_rules("deckbuilder").expect("the bundled deckbuilder loads");
    rules.choose_encounter("gnasher").expect("the gnasher encounter");
    let deck = files::load_deck(&mut rules.clone(), &[])
        .expect("the bundled deck loads")
        .cards;
    let fight = Fight::of(&rules, &deck);
    let lua = Lua::new();

    compare(&rules, &deck, &fight, &lua);

    let done = AtomicU64::new(0);
    let mut group = c.benchmark_group("deckbuilder_one_core");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(2));
    let n = 1_000u64;
    group.throughput(Throughput::Elements(n));
    let mut seed = 0u64;
    group.bench_function("grimoire", |b| {
        b.iter(|| {
            seed += 1;
            let tally: Tally = run_games(&rules, &deck, seed, 0..n, &[Policy::Random], &done);
            black_box(tally)
        })
    });
    let mut seed = 0u64;
    group.bench_function("lua", |b| {
        b.iter(|| {
            seed += 1;
            black_box(lua.run(&fight, seed * n, n))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
