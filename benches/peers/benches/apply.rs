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

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use grimoire::check::ast::Effect;
use grimoire::check::rules::RuleSet;
use grimoire::eval::{Cause, CompiledEffects, Event, Program, State, What, apply};
use grimoire::ids::EntityId;
use grimoire::syntax::read_one;

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

criterion_group!(benches, bench_apply);
criterion_main!(benches);
