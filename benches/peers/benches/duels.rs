//! Seeded duels per second on one core: grimoire playing its bundled rule set
//! `duel` (`rules/duel.edn`, `effects/duel/statuses.edn`) with the random
//! policy, against the same duel written as a Rhai script and as a Lua 5.4
//! script (mlua), in `benches/peers/scripts/`.
//!
//! Each plays whole games, every one from its own seed, both combatants
//! choosing uniformly among their legal actions; no log is kept. The scripts
//! take the fighters' levels, the hits to win and the turn limit from the rule
//! set; the rules themselves are written out in each.
//!
//! grimoire's dice cannot draw what the scripts' generators draw, so before
//! anything is timed the three are compared statistically: mean length and
//! the rate of each ending, with 95 % intervals, over `GRIMOIRE_DUEL_GAMES`
//! games each of the bundled duel (100,000 unless set) and
//! `GRIMOIRE_DUEL_VARIANT_GAMES` games each (10,000 unless set) of three
//! variants that reach what its short games rarely do: collapse, exhaustion,
//! advantage, the tiebreak, the turn limit. 0 skips either; games are seeded
//! from `GRIMOIRE_DUEL_SEED` (7 unless set). A difference of more than four
//! standard errors fails the bench. `scripts/duel_exact.py` works out the
//! exact figures of the two duels decided by hits.
//!
//! The scripts' dice: Rhai calls `d(n)`, a SplitMix64 generator registered by
//! this file; Lua calls its own `math.random` (xoshiro256**, in C). The game
//! logic itself is all script.

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grimoire::check::rules::{BUNDLED, RuleSet};
use grimoire::diag::Source;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::playout::{Computer, Ending, play_out};
use grimoire::engine::{Game, Log, Outcome};
use grimoire::files::{check_sources, load_rules};
use grimoire::ids::EntityId;
use grimoire::sim::{Tally, game_seed, run_games};

const RHAI: &str = include_str!("../scripts/duel.rhai");
const LUA: &str = include_str!("../scripts/duel.lua");

/// A duel's figures the scripts take from the rule set: each seat's mastery
/// levels (offense, defense, speed, endurance), the hits to win, the turn limit.
#[derive(Clone, Copy, Debug)]
struct Duel {
    levels: [[i64; 4]; 2],
    hits_to_win: i64,
    limit: i64,
}

impl Duel {
    fn of(rules: &RuleSet) -> Duel {
        let game = Game::new(rules, &[], 0, Log::Skip).expect("a duel starts");
        let level = |seat, name| game.state().get(seat, rules.attribute(name).expect(name));
        let levels = [EntityId::new(0), EntityId::new(1)]
            .map(|seat| ["offense", "defense", "speed", "endurance"].map(|name| level(seat, name)));
        Duel {
            levels,
            hits_to_win: rules.param("hits-to-win").expect("hits-to-win"),
            limit: i64::from(rules.turn_limit),
        }
    }
}

/// How games ended: sums over games, from which means and rates follow.
#[derive(Clone, Copy, Debug, Default)]
struct Endings {
    games: u64,
    /// Wins of seat 1 and seat 2.
    wins: [u64; 2],
    ties: u64,
    turn_limits: u64,
    turns: u64,
    squares: u64,
}

impl Endings {
    fn from_script(t: [i64; 6]) -> Endings {
        let [draws, w1, w2, ties, turns, squares] = t.map(|x| x as u64);
        Endings {
            games: draws + w1 + w2 + ties,
            wins: [w1, w2],
            ties,
            turn_limits: draws,
            turns,
            squares,
        }
    }

    /// Mean and standard error of the game length in turns.
    fn length(&self) -> (f64, f64) {
        let n = self.games as f64;
        let mean = self.turns as f64 / n;
        let var = (self.squares as f64 / n - mean * mean) * n / (n - 1.0);
        (mean, (var / n).sqrt())
    }

    /// Rate and standard error of an ending counted `k` times.
    fn rate(&self, k: u64) -> (f64, f64) {
        let n = self.games as f64;
        let p = k as f64 / n;
        (p, (p * (1.0 - p) / n).sqrt())
    }

    /// The figures compared: (name, estimate, standard error).
    fn figures(&self) -> [(&'static str, f64, f64); 5] {
        let r = |k| self.rate(k);
        let (m, s) = self.length();
        let (w1, s1) = r(self.wins[0]);
        let (w2, s2) = r(self.wins[1]);
        let (t, st) = r(self.ties);
        let (d, sd) = r(self.turn_limits);
        [
            ("mean turns", m, s),
            ("seat 1 wins", w1, s1),
            ("seat 2 wins", w2, s2),
            ("ties", t, st),
            ("turn limit", d, sd),
        ]
    }
}

/// grimoire's games, one by one as `run_games` plays them, with each length kept.
fn grimoire_endings(rules: &RuleSet, seed: u64, n: u64) -> Endings {
    let mut game = Game::new(rules, &[], seed, Log::Skip).expect("a duel starts");
    let mut ai = Ai::new();
    let mut e = Endings::default();
    for i in 0..n {
        game.reset(game_seed(seed, i));
        let mut players = Computer {
            ai: &mut ai,
            policies: &[Policy::Random],
        };
        let ending = play_out(&mut game, &mut players, &mut ());
        assert_eq!(
            ending,
            Ending::Over,
            "a legal action, allowed, until the end"
        );
        match game.outcome() {
            Some(Outcome::Win { seat, .. }) => e.wins[seat.index()] += 1,
            Some(Outcome::Tie) => e.ties += 1,
            Some(Outcome::TurnLimit) => e.turn_limits += 1,
            other => panic!("a duel ended {other:?}"),
        }
        let t = u64::from(game.ctx().turn);
        e.games += 1;
        e.turns += t;
        e.squares += t * t;
    }
    e
}

/// SplitMix64: the dice registered into Rhai.
fn splitmix(state: &Cell<u64>) -> u64 {
    let mut z = state.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
    state.set(z);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Rhai {
    engine: rhai::Engine,
    ast: rhai::AST,
    scope: rhai::Scope<'static>,
}

impl Rhai {
    fn new() -> Rhai {
        let mut engine = rhai::Engine::new();
        let dice = Rc::new(Cell::new(0u64));
        let d = dice.clone();
        engine.register_fn("seed_dice", move |seed: i64| {
            d.set(seed as u64);
            // One step, so neighbouring seeds start far apart.
            let first = splitmix(&d);
            d.set(first);
        });
        engine.register_fn("d", move |sides: i64| -> i64 {
            // Lemire's multiply-shift: 1..=sides from the high 32 bits.
            (((splitmix(&dice) >> 32) * sides as u64) >> 32) as i64 + 1
        });
        let ast = engine.compile(RHAI).expect("duel.rhai compiles");
        Rhai {
            engine,
            ast,
            scope: rhai::Scope::new(),
        }
    }

    fn run(&mut self, duel: &Duel, first: u64, n: u64) -> Endings {
        let levels = |s: usize| -> rhai::Array { duel.levels[s].map(rhai::Dynamic::from).to_vec() };
        let options = rhai::CallFnOptions::new().eval_ast(false);
        let tally: rhai::Array = self
            .engine
            .call_fn_with_options(
                options,
                &mut self.scope,
                &self.ast,
                "run",
                (
                    first as i64,
                    n as i64,
                    levels(0),
                    levels(1),
                    duel.hits_to_win,
                    duel.limit,
                ),
            )
            .expect("rhai run");
        let t: Vec<i64> = tally.iter().map(|x| x.as_int().expect("a count")).collect();
        Endings::from_script(t.try_into().expect("six counts"))
    }
}

struct Lua {
    lua: mlua::Lua,
    run: mlua::Function,
}

impl Lua {
    fn new() -> Lua {
        let lua = mlua::Lua::new();
        lua.load(LUA)
            .set_name("duel.lua")
            .exec()
            .expect("duel.lua loads");
        let run = lua.globals().get("run").expect("run");
        Lua { lua, run }
    }

    fn run(&self, duel: &Duel, first: u64, n: u64) -> Endings {
        let levels = |s: usize| {
            self.lua
                .create_sequence_from(duel.levels[s])
                .expect("a table")
        };
        let t: (i64, i64, i64, i64, i64, i64) = self
            .run
            .call((
                first as i64,
                n as i64,
                levels(0),
                levels(1),
                duel.hits_to_win,
                duel.limit,
            ))
            .expect("lua run");
        Endings::from_script([t.0, t.1, t.2, t.3, t.4, t.5])
    }
}

/// The bundled duel's text with `:name`'s value in `:params` replaced.
fn with_param(text: &str, name: &str, value: i64) -> String {
    let params = text.find(":params {").expect("duel.edn has params");
    let key = format!(":{name} ");
    let at = params + text[params..].find(&key).expect("the param is in duel.edn") + key.len();
    let end = at + text[at..].find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
    format!("{}{value}{}", &text[..at], &text[end..])
}

/// The text with seat `seat`'s setup values replaced by `levels`.
fn with_levels(text: &str, seat: usize, levels: [i64; 4]) -> String {
    let key = format!(":p{} {{:values {{", seat + 1);
    let at = text.find(&key).expect("the seat's setup is in duel.edn") + key.len();
    let end = at + text[at..].find('}').expect("the setup map ends");
    let [o, d, s, e] = levels;
    let values = format!(
        ":side {} :offense {o} :defense {d} :speed {s} :endurance {e}",
        seat + 1
    );
    format!("{}{values}{}", &text[..at], &text[end..])
}

/// A variant of the bundled duel read from `text`, with the bundled statuses.
fn variant(text: &str) -> RuleSet {
    let rules = RuleSet::parse(text).expect("the variant checks");
    let sources = grimoire::bundled::FILES
        .iter()
        .filter(|(p, _)| p.starts_with("cards/duel/") || p.starts_with("effects/duel/"))
        .map(|(p, t)| Source::new(*p, *t))
        .collect();
    let mut checked = check_sources(sources, Some(&rules));
    assert_eq!(checked.error_count(), 0, "{:?}", checked.diagnostics);
    checked.extended.pop().expect("with its statuses")
}

/// Plays `n` games of `rules` in each implementation and fails on a
/// difference chance does not explain.
fn compare(what: &str, rules: &RuleSet, n: u64, rhai: &mut Rhai, lua: &Lua) {
    let duel = Duel::of(rules);
    let seed = games_from_env("GRIMOIRE_DUEL_SEED", 7);
    let timed = |f: &mut dyn FnMut() -> Endings| {
        let start = Instant::now();
        let e = f();
        (e, start.elapsed())
    };
    let results = [
        ("grimoire", timed(&mut || grimoire_endings(rules, seed, n))),
        ("rhai", timed(&mut || rhai.run(&duel, seed * n, n))),
        ("lua", timed(&mut || lua.run(&duel, seed * n, n))),
    ];
    println!("\n{what}: {n} games each, {duel:?}");
    println!(
        "{:<9} {:>17} {:>17} {:>17} {:>17} {:>17} {:>10}",
        "", "mean turns", "seat 1 wins", "seat 2 wins", "ties", "turn limit", "games/s"
    );
    let reference = results[0].1.0.figures();
    let mut worst: (f64, &str, &str) = (0.0, "", "");
    for (name, (e, took)) in &results {
        let mut line = format!("{name:<9}");
        let mut zs = String::new();
        for ((label, x, se), (_, x0, se0)) in e.figures().into_iter().zip(reference) {
            let digits = if label == "mean turns" { 3 } else { 4 };
            line += &format!(" {:>8.digits$} ± {:<6.digits$}", x, 1.96 * se);
            let spread = (se * se + se0 * se0).sqrt();
            let z = if spread > 0.0 { (x - x0) / spread } else { 0.0 };
            zs += &format!(" {z:>+17.2}");
            if z.abs() > worst.0 {
                worst = (z.abs(), name, label);
            }
        }
        println!("{line} {:>10.0}", n as f64 / took.as_secs_f64());
        if *name != "grimoire" {
            println!("{:<9}{zs}", "  z");
        }
    }
    assert!(
        worst.0 <= 4.0,
        "{what}: {} disagrees with grimoire on {} by {:.1} standard errors",
        worst.1,
        worst.2,
        worst.0
    );
}

/// A count from the environment variable `name`, else `default`.
fn games_from_env(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number of games"))
}

/// The statistical check of the three implementations: the bundled duel, then
/// variants that reach what its short games rarely do.
fn check(rules: &RuleSet, rhai: &mut Rhai, lua: &Lua) {
    let games = games_from_env("GRIMOIRE_DUEL_GAMES", 100_000);
    if games > 0 {
        compare("the bundled duel", rules, games, rhai, lua);
    }
    let games = games_from_env("GRIMOIRE_DUEL_VARIANT_GAMES", 10_000);
    if games == 0 {
        return;
    }
    let text = BUNDLED
        .iter()
        .find(|(name, _)| *name == "duel")
        .expect("duel is bundled")
        .1;
    let collapse = with_param(text, "hits-to-win", 0);
    let fighters = |text: &str, p1, p2| with_levels(&with_levels(text, 0, p1), 1, p2);
    let variants = [
        // Stamina, exhaustion, stability, recovery and ties decide.
        ("only a collapse ends it (hits to win 0)", collapse.clone()),
        // Advantage for attacker and defender, no free dodge, tied speed.
        (
            "mastery gaps of 2, equal speed",
            fighters(text, [5, 5, 3, 3], [3, 2, 3, 3]),
        ),
        // Long exhaustion phases; some games reach the turn limit.
        (
            "endurance 7, hits to win 0",
            fighters(&collapse, [4, 2, 4, 7], [3, 3, 2, 7]),
        ),
    ];
    for (what, text) in &variants {
        compare(
            &format!("variant: {what}"),
            &variant(text),
            games,
            rhai,
            lua,
        );
    }
    println!();
}

fn bench(c: &mut Criterion) {
    // As `grimoire simulate duel` loads it: the bundled rule set and statuses.
    let rules = load_rules("duel").expect("the bundled duel loads");
    assert!(rules.status("exhausted").is_some(), "with its statuses");
    let duel = Duel::of(&rules);
    let mut rhai = Rhai::new();
    let lua = Lua::new();

    check(&rules, &mut rhai, &lua);

    let done = AtomicU64::new(0);
    let mut group = c.benchmark_group("duels_one_core");
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
            let tally: Tally = run_games(&rules, &[], seed, 0..n, &[Policy::Random], &done);
            black_box(tally)
        })
    });
    let mut seed = 0u64;
    group.bench_function("rhai", |b| {
        b.iter(|| {
            seed += 1;
            black_box(rhai.run(&duel, seed * n, n))
        })
    });
    let mut seed = 0u64;
    group.bench_function("lua", |b| {
        b.iter(|| {
            seed += 1;
            black_box(lua.run(&duel, seed * n, n))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
