//! Applying one card effect: grimoire's evaluator against a Rhai script and a
//! Lua function doing the same work, with native Rust as the floor.
//!
//! The card is Arcomage's Foundations: "If you have no wall, +6 Wall, otherwise
//! +3 Wall", `[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]`.
//!
//! Every applier does the same per application: the wall is set to 0 or 5 in
//! turn (so both branches run), the event buffer is cleared, then the wall is
//! read, compared with 0, 6 or 3 added, clamped at 0, stored, and the change
//! recorded as a grimoire `Event`. For the scripted peers the script computes
//! the new wall from the old; the host reads, stores and records, exactly as
//! grimoire's `apply` does internally.
//!
//! The `zones` group times operations on cards kept in zones (issue 30), on
//! the skirmish fixture (`tests/data/zones/`): see `bench_zones`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use grimoire::check::ast::Effect;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::view::Unseen;
use grimoire::engine::{Game, Log};
use grimoire::eval::{Cause, CompiledEffects, CompiledInt, Event, Program, State, What, apply};
use grimoire::ids::{CardId, EntityId};
use grimoire::syntax::read_one;
use rand::SeedableRng;

const FOUNDATIONS: &str = "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]";

const RHAI_SCRIPT: &str = r#"
fn foundations(wall) {
    let amount = if wall == 0 { 6 } else { 3 };
    let after = wall + amount;
    if after < 0 { 0 } else { after }
}
"#;

const LUA_SCRIPT: &str = r#"
function foundations(wall)
    local amount
    if wall == 0 then amount = 6 else amount = 3 end
    local after = wall + amount
    if after < 0 then after = 0 end
    return after
end
"#;

/// How many applications the batched benchmarks make per iteration.
const BATCH: u64 = 1000;

/// What every applier shares: the rule set, a state, the event buffer.
struct Table {
    rules: RuleSet,
    effects: Vec<Effect>,
    /// The same effects compiled, as a game runs a card's.
    program: Program,
    code: CompiledEffects,
    state: State,
    wall: grimoire::ids::AttrId,
    events: Vec<Event>,
    /// The entity each role is bound to: `:you` 0, `:other` 1.
    roles: [EntityId; 2],
    /// Alternates the starting wall between 0 and 5.
    flip: bool,
}

impl Table {
    fn new() -> Table {
        let rules = RuleSet::bundled("arcomage")
            .expect("bundled")
            .expect("valid rule set");
        let arena = grimoire::syntax::Arena::new();
        let form = read_one(&arena, FOUNDATIONS).expect("reads");
        let effects = rules.check_effects(&form).expect("checks");
        let state = State::new(&rules, 2, 7);
        let wall = rules.attribute("wall").expect("wall");
        Table {
            program: Program::new(&rules),
            code: CompiledEffects::new(&rules, &effects),
            rules,
            effects,
            state,
            wall,
            events: Vec::with_capacity(16),
            // Opaque once here, so the optimiser cannot treat the roles as constants,
            // without a `black_box` in the timed loop (a `black_box` of a slice
            // there costs a store-forwarding stall that is the harness's, not grimoire's).
            roles: black_box([EntityId::new(0), EntityId::new(1)]),
            flip: false,
        }
    }

    /// The per-application set-up every applier pays: next starting wall, empty buffer.
    #[inline(always)]
    fn reset(&mut self) {
        self.flip = !self.flip;
        self.state
            .put(self.roles[0], self.wall, if self.flip { 0 } else { 5 });
        self.events.clear();
    }

    /// The host side of a scripted peer: read the wall, let `f` compute the new
    /// one, store it and record the change (as grimoire's evaluator does).
    #[inline(always)]
    fn host(&mut self, f: impl FnOnce(i64) -> i64) {
        let entity = self.roles[0];
        let before = self.state.get(entity, self.wall);
        let after = f(before);
        if after != before {
            self.state.put(entity, self.wall, after);
            self.events.push(Event {
                entity,
                what: What::Attr(self.wall),
                before,
                after,
                cause: Cause::effect(0),
            });
        }
    }

    fn grimoire(&mut self) {
        self.reset();
        apply(
            &self.rules,
            &self.effects,
            &mut self.state,
            &self.roles,
            &mut self.events,
        );
    }

    fn compiled(&mut self) {
        self.reset();
        self.program.apply(
            &self.rules,
            &self.code,
            &mut self.state,
            &self.roles,
            &mut self.events,
        );
    }

    fn native(&mut self) {
        self.reset();
        self.host(|wall| {
            let amount = if wall == 0 { 6 } else { 3 };
            wall.saturating_add(amount).max(0)
        });
    }

    /// Checks the last application: the wall went 0 → 6 or 5 → 8, one event.
    fn check(&self) {
        let after = self.state.get(self.roles[0], self.wall);
        let expected = if self.flip { 6 } else { 8 };
        assert_eq!(after, expected);
        assert_eq!(self.events.len(), 1);
        assert_eq!(self.events[0].after, expected);
    }
}

struct RhaiPeer {
    engine: rhai::Engine,
    ast: rhai::AST,
    scope: rhai::Scope<'static>,
}

impl RhaiPeer {
    fn new() -> RhaiPeer {
        let engine = rhai::Engine::new();
        let ast = engine.compile(RHAI_SCRIPT).expect("compiles");
        RhaiPeer {
            engine,
            ast,
            scope: rhai::Scope::new(),
        }
    }

    fn call(&mut self, wall: i64) -> i64 {
        // The script only defines a function: skip re-running its top level on each call.
        let options = rhai::CallFnOptions::new().eval_ast(false);
        self.engine
            .call_fn_with_options::<i64>(
                options,
                &mut self.scope,
                &self.ast,
                "foundations",
                (wall,),
            )
            .expect("rhai call")
    }
}

struct LuaPeer {
    _lua: mlua::Lua,
    f: mlua::Function,
}

impl LuaPeer {
    fn new() -> LuaPeer {
        let lua = mlua::Lua::new();
        lua.load(LUA_SCRIPT).exec().expect("loads");
        let f: mlua::Function = lua.globals().get("foundations").expect("defined");
        LuaPeer { _lua: lua, f }
    }

    fn call(&self, wall: i64) -> i64 {
        self.f.call::<i64>(wall).expect("lua call")
    }
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
}

fn bench_apply(c: &mut Criterion) {
    let mut t = Table::new();
    let mut rhai = RhaiPeer::new();
    let lua = LuaPeer::new();

    // Every applier gives the same result before it is timed.
    for _ in 0..4 {
        t.grimoire();
        t.check();
        t.compiled();
        t.check();
        t.native();
        t.check();
        t.reset();
        t.host(|w| rhai.call(w));
        t.check();
        t.reset();
        t.host(|w| lua.call(w));
        t.check();
    }

    // One application per iteration.
    let mut group = c.benchmark_group("apply");
    configure(&mut group);
    group.bench_function("grimoire", |b| b.iter(|| t.grimoire()));
    group.bench_function("grimoire_compiled", |b| b.iter(|| t.compiled()));
    group.bench_function("native_rust", |b| b.iter(|| t.native()));
    group.bench_function("rhai", |b| {
        b.iter(|| {
            t.reset();
            t.host(|w| rhai.call(w));
        })
    });
    group.bench_function("lua", |b| {
        b.iter(|| {
            t.reset();
            t.host(|w| lua.call(w));
        })
    });
    group.finish();

    // BATCH applications per iteration: the per-application cost without the
    // harness's per-iteration overhead. Criterion reports applications/s.
    let mut group = c.benchmark_group("apply_x1000");
    configure(&mut group);
    group.throughput(Throughput::Elements(BATCH));
    group.bench_function("grimoire", |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                t.grimoire();
            }
        })
    });
    group.bench_function("grimoire_compiled", |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                t.compiled();
            }
        })
    });
    group.bench_function("native_rust", |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                t.native();
            }
        })
    });
    group.bench_function("rhai", |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                t.reset();
                t.host(|w| rhai.call(w));
            }
        })
    });
    group.bench_function("lua", |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                t.reset();
                t.host(|w| lua.call(w));
            }
        })
    });
    group.finish();
    t.check();
}

/// The skirmish fixture's files, from this crate's folder.
const SKIRMISH_RULES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/zones/rules/skirmish.edn"
);
const SKIRMISH_CARDS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/zones/cards/skirmish"
);

/// A checked effect list of the skirmish rule set, and the same compiled.
fn skirmish_effects(rules: &RuleSet, text: &str) -> (Vec<Effect>, CompiledEffects) {
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, text).expect("reads");
    let effects = rules
        .check_effects(&form)
        .unwrap_or_else(|d| panic!("{text}: {d:?}"));
    let code = CompiledEffects::new(rules, &effects);
    (effects, code)
}

/// Operations on cards in zones, each on a position prepared once and
/// restored (`clone_from`) at the start of every iteration, so that each
/// times one operation on the same position and no pile grows;
/// `restore_state` and `restore_game` time the restore alone, to be taken
/// off the others:
///
/// - `draw_1`: `{:effected :you :draw 1}`, compiled, from the dealt deck
///   (42 cards) into a hand of 4;
/// - `move_hand_to_board`: the one minion of a hand of 4 moved to an empty
///   board (`{:move {:from [:hand :you] :pick :all :where [of-kind :self
///   :minion]} :to [:board :you]}`, compiled: the 4 cards tested, 1 moved);
/// - `count_hand`: `[count [:hand :you]]`, compiled (it changes nothing: no restore);
/// - `each_board_of_7`: `{:each [:board :you] …}` giving each of 7 minions
///   +1 attack, compiled;
/// - `determinise`: `Game::determinise` of p1 after 12 random actions from
///   the deal (the deck and p2's hand hidden from p1), on a copy of the game.
fn bench_zones(c: &mut Criterion) {
    let mut rules =
        grimoire::files::load_rules(SKIRMISH_RULES).expect("the skirmish rule set loads");
    let deck = grimoire::files::load_deck(&mut rules, &[SKIRMISH_CARDS.into()])
        .expect("the skirmish deck loads")
        .cards;
    let card = |name: &str| {
        let at = deck.iter().position(|c| c.name == name);
        Some(CardId::new(at.unwrap_or_else(|| panic!("no card {name}"))))
    };
    let set = rules.zones.as_ref().expect("zones");
    let zone = |name: &str| set.zone(name).unwrap_or_else(|| panic!("no zone {name}"));
    let (p1, roles) = (EntityId::FIRST, [EntityId::new(0), EntityId::new(1)]);
    let program = Program::new(&rules);
    let mut events: Vec<Event> = Vec::with_capacity(64);

    // The deck dealt as a game deals it, p1's hand then set to 4 cards with one minion.
    let mut dealt = Game::dealt(&rules, &deck, 7).expect("deals");
    let hand = [card("Coin"), card("Yeti"), card("Scout"), card("Fireball")];
    dealt
        .set_zone_cards(zone("hand"), p1, &hand)
        .expect("a hand of 4");
    let hand_state = dealt.state().clone();
    let seven = [card("Yeti"); 7];
    dealt
        .set_zone_cards(zone("board"), p1, &seven)
        .expect("a board of 7");
    let board_state = dealt.into_state();

    let (_, draw) = skirmish_effects(&rules, "[{:effected :you :draw 1}]");
    let (_, to_board) = skirmish_effects(
        &rules,
        "[{:move {:from [:hand :you] :pick :all :where [of-kind :self :minion]} :to [:board :you]}]",
    );
    let (count, _) = skirmish_effects(
        &rules,
        "[{:effected :you :resource :mana :set true :amount [count [:hand :you]]}]",
    );
    let count = CompiledInt::new(&count[0].amount);
    let (_, each) = skirmish_effects(
        &rules,
        "[{:each [:board :you] :effects [{:effected :self :resource :attack :amount 1}]}]",
    );

    // A mid-game position: 12 random actions from the deal.
    let mut mid = Game::new(&rules, &deck, 7, Log::Skip).expect("a game");
    let mut ai = Ai::new();
    for _ in 0..12 {
        match ai.choose(&mut mid, Policy::Random) {
            Some(action) if mid.outcome().is_none() => mid.act(action).expect("legal"),
            _ => break,
        }
    }
    assert!(mid.outcome().is_none(), "the position is mid-game");
    let (mut world, mut unseen) = (mid.clone(), Unseen::new());
    let mut rng = grimoire::eval::Rng::seed_from_u64(11);

    // Each operation does what it says before it is timed.
    let piles = |state: &State| {
        let table = state.cards.as_deref().expect("cards");
        let pile = |z: &str| table.pile(set, zone(z), p1).expect("a pile");
        (table.count(pile("hand")), table.count(pile("board")))
    };
    let mut state = hand_state.clone();
    program.apply(&rules, &draw, &mut state, &roles, &mut events);
    assert_eq!(piles(&state), (5, 0), "draw 1");
    state.clone_from(&hand_state);
    program.apply(&rules, &to_board, &mut state, &roles, &mut events);
    assert_eq!(piles(&state), (3, 1), "the minion moved");
    state.clone_from(&hand_state);
    assert_eq!(count.value(&mut state, &roles), 4, "count");
    state.clone_from(&board_state);
    events.clear();
    program.apply(&rules, &each, &mut state, &roles, &mut events);
    assert_eq!(events.len(), 7, "+1 attack to each of 7");
    let p1_hand = mid.hand_of(p1).to_vec();
    world.determinise(p1, &mut rng, &mut unseen);
    assert_eq!(world.hand_of(p1), p1_hand, "p1's own hand is what it sees");

    let mut group = c.benchmark_group("zones");
    configure(&mut group);
    group.bench_function("restore_state", |b| {
        b.iter(|| state.clone_from(black_box(&hand_state)))
    });
    group.bench_function("draw_1", |b| {
        b.iter(|| {
            state.clone_from(&hand_state);
            events.clear();
            program.apply(&rules, &draw, &mut state, &roles, &mut events);
        })
    });
    group.bench_function("move_hand_to_board", |b| {
        b.iter(|| {
            state.clone_from(&hand_state);
            events.clear();
            program.apply(&rules, &to_board, &mut state, &roles, &mut events);
        })
    });
    state.clone_from(&hand_state);
    group.bench_function("count_hand", |b| {
        b.iter(|| black_box(count.value(&mut state, &roles)))
    });
    group.bench_function("each_board_of_7", |b| {
        b.iter(|| {
            state.clone_from(&board_state);
            events.clear();
            program.apply(&rules, &each, &mut state, &roles, &mut events);
        })
    });
    group.bench_function("restore_game", |b| {
        b.iter(|| world.clone_from(black_box(&mid)))
    });
    group.bench_function("determinise", |b| {
        b.iter(|| {
            world.clone_from(&mid);
            world.determinise(p1, &mut rng, &mut unseen);
        })
    });
    group.finish();
}

criterion_group!(benches, bench_apply, bench_zones);
criterion_main!(benches);
