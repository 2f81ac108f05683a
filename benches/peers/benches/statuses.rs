//! One full turn of a fighter holding 20 active statuses, its foe holding 20
//! too: grimoire against the same turn written in Rhai, in Lua (mlua), and in
//! plain Rust.
//!
//! The turn: the acting fighter's turn-start hooks (4 × damage over time, 4 ×
//! a conditional heal below 300 HP), a strike of floor(power × 1.5) − the
//! foe's armor, where power and armor carry the modifiers of 4 + 4 statuses,
//! then its turn-end hooks (4 × heal over time) and the countdown of its 20
//! statuses. Every implementation starts again from the same state each 500
//! turns, before any status runs out, and all agree on every value.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use grimoire::check::ast::Effect;
use grimoire::check::rules::{RuleSet, TimingId};
use grimoire::diag::Source;
use grimoire::engine::run_timing;
use grimoire::eval::{CompiledEffects, Event, Program, State, acquire, apply};
use grimoire::files::check_sources;
use grimoire::ids::EntityId;
use grimoire::syntax::read_one;

/// The two fighters, the seats' players: the roles `:you` and `:other` of the turn measured.
const FIGHTERS: [EntityId; 2] = [EntityId::new(0), EntityId::new(1)];

/// Turns between restarts from the starting state.
const ROUND: u32 = 500;

const RULES: &str = r#"
{:rules :fighters
 :roles {:you "the fighter whose turn it is" :other "its foe"}
 :attributes {:hp {:default 50000 :min 0 :max 1000000} :power {:default 15 :min 0} :armor {:default 0 :min 0}}
 :seats [:a :b]
 :timings {:turn-start {:at :turn-start} :turn-end {:at :turn-end}}}
"#;

const STATUSES: &str = r#"
{:status :dot :polarity :debuff :stacking :independent :lasts [1000 :turn-end]
 :hooks {:turn-start [{:effected :holder :resource :hp :amount [- :magnitude]}]}}
{:status :frenzy :polarity :buff :stacking :independent :lasts [1000 :turn-end]
 :hooks {:turn-start [{:effected :holder :resource :hp :amount [< [:holder :hp] 300 1 0]}]}}
{:status :hot :polarity :buff :stacking :independent :lasts [1000 :turn-end]
 :hooks {:turn-end [{:effected :holder :resource :hp :amount 2}]}}
{:status :might :polarity :buff :stacking :independent :lasts [1000 :turn-end]
 :modifiers {:power {:add 1}}}
{:status :guard :polarity :buff :stacking :independent :lasts [1000 :turn-end]
 :modifiers {:armor {:add 1}}}
"#;

const STRIKE: &str = "[{:effected :other :resource :hp :amount [- [max 0 [- [floor [* [:you :power] 1.5]] [:other :armor]]]]}]";

struct Grimoire {
    rules: RuleSet,
    template: State,
    state: State,
    strike: Vec<Effect>,
    /// The hooks and the strike compiled, as a game runs them; `None`: the
    /// evaluator's tree walk, as tools run them.
    compiled: Option<(Program, CompiledEffects)>,
    start: TimingId,
    end: TimingId,
    events: Vec<Event>,
    turns: u32,
}

impl Grimoire {
    fn new(compiled: bool) -> Grimoire {
        let rules = RuleSet::parse(RULES).expect("rules");
        let mut checked = check_sources(vec![Source::new("statuses.edn", STATUSES)], Some(&rules));
        assert_eq!(checked.error_count(), 0, "{:?}", checked.diagnostics);
        let rules = checked.extended.pop().expect("extended rules");
        let mut template = State::new(&rules, 2, 1);
        let mut events = Vec::with_capacity(256);
        for fighter in FIGHTERS {
            for id in ["dot", "frenzy", "hot", "might", "guard"] {
                for _ in 0..4 {
                    let s = rules.status(id).expect("status");
                    acquire(
                        &rules,
                        &mut template,
                        &FIGHTERS,
                        fighter,
                        fighter,
                        s,
                        3,
                        &mut events,
                    );
                }
            }
        }
        assert_eq!(template.statuses().len(), 40);
        let strike = rules
            .check_effects(&read_one(&grimoire::syntax::Arena::new(), STRIKE).unwrap())
            .expect("strike");
        let compiled =
            compiled.then(|| (Program::new(&rules), CompiledEffects::new(&rules, &strike)));
        Grimoire {
            compiled,
            start: rules.timing("turn-start").unwrap(),
            end: rules.timing("turn-end").unwrap(),
            state: template.clone(),
            template,
            strike,
            events,
            rules,
            turns: 0,
        }
    }

    fn turn(&mut self) {
        if self.turns.is_multiple_of(ROUND) {
            self.state.clone_from(&self.template);
        }
        self.turns += 1;
        self.events.clear();
        let (rules, state, events) = (&self.rules, &mut self.state, &mut self.events);
        match &self.compiled {
            Some((program, strike)) => {
                program.run_timing(rules, state, self.start, &FIGHTERS, FIGHTERS[0], events);
                program.apply(rules, strike, state, &FIGHTERS, events);
                program.run_timing(rules, state, self.end, &FIGHTERS, FIGHTERS[0], events);
            }
            None => {
                run_timing(rules, state, self.start, FIGHTERS[0], events);
                apply(rules, &self.strike, state, &FIGHTERS, events);
                run_timing(rules, state, self.end, FIGHTERS[0], events);
            }
        }
    }

    fn hp(&self) -> (i64, i64) {
        let hp = self.rules.attribute("hp").unwrap();
        (
            self.state.get(FIGHTERS[0], hp),
            self.state.get(FIGHTERS[1], hp),
        )
    }
}

/// The same turn in plain Rust, as a game would hand-write it.
#[derive(Clone)]
struct Fighter {
    hp: i64,
    power: i64,
    armor: i64,
    statuses: Vec<(u8, i64, u32)>,
}

impl Fighter {
    fn new() -> Fighter {
        let mut statuses = Vec::new();
        for kind in 0..5u8 {
            for _ in 0..4 {
                statuses.push((kind, 3, 1000));
            }
        }
        Fighter {
            hp: 50000,
            power: 15,
            armor: 0,
            statuses,
        }
    }
    fn stat(&self, base: i64, kind: u8) -> i64 {
        base + self.statuses.iter().filter(|s| s.0 == kind).count() as i64
    }
}

struct Native {
    fighters: [Fighter; 2],
    turns: u32,
}

impl Native {
    fn turn(&mut self) {
        if self.turns.is_multiple_of(ROUND) {
            self.fighters = [Fighter::new(), Fighter::new()];
        }
        self.turns += 1;
        let [a, b] = &mut self.fighters;
        for &(kind, mag, _) in &a.statuses {
            match kind {
                0 => a.hp = (a.hp - mag).clamp(0, 1_000_000),
                1 if a.hp < 300 => a.hp = (a.hp + 1).clamp(0, 1_000_000),
                _ => {}
            }
        }
        let power = a.stat(a.power, 3).max(0);
        let armor = b.stat(b.armor, 4).max(0);
        let damage = ((power as f64 * 1.5).floor() as i64 - armor).max(0);
        b.hp = (b.hp - damage).clamp(0, 1_000_000);
        for &(kind, _, _) in &a.statuses {
            if kind == 2 {
                a.hp = (a.hp + 2).clamp(0, 1_000_000);
            }
        }
        for s in &mut a.statuses {
            s.2 -= 1;
        }
    }
}

const RHAI: &str = r#"
fn new_fighter() {
    let statuses = [];
    for kind in ["dot", "frenzy", "hot", "might", "guard"] {
        for i in 0..4 { statuses.push(#{ kind: kind, mag: 3, left: 1000 }); }
    }
    #{ hp: 50000, power: 15, armor: 0, statuses: statuses }
}
fn stat(base, kind) {
    let v = this[base];
    for s in this.statuses { if s.kind == kind { v += 1; } }
    v
}
fn turn() {
    if this.turns % 500 == 0 { this.a = new_fighter(); this.b = new_fighter(); }
    this.turns += 1;
    let n = this.a.statuses.len();
    for i in 0..n {
        let s = this.a.statuses[i];
        if s.kind == "dot" { this.a.hp = max(0, this.a.hp - s.mag); }
        else if s.kind == "frenzy" && this.a.hp < 300 { this.a.hp += 1; }
    }
    let power = this.a.stat("power", "might");
    let armor = this.b.stat("armor", "guard");
    let damage = max(0, (power.to_float() * 1.5).floor().to_int() - armor);
    this.b.hp = max(0, this.b.hp - damage);
    for i in 0..n {
        if this.a.statuses[i].kind == "hot" { this.a.hp += 2; }
    }
    for i in 0..n { this.a.statuses[i].left -= 1; }
}
"#;

struct Rhai {
    engine: rhai::Engine,
    ast: rhai::AST,
    scope: rhai::Scope<'static>,
    state: rhai::Dynamic,
}

impl Rhai {
    fn new() -> Rhai {
        let engine = rhai::Engine::new();
        let ast = engine.compile(RHAI).expect("compiles");
        let mut state = rhai::Map::new();
        state.insert("turns".into(), rhai::Dynamic::from(0_i64));
        Rhai {
            engine,
            ast,
            scope: rhai::Scope::new(),
            state: rhai::Dynamic::from_map(state),
        }
    }
    fn turn(&mut self) {
        let options = rhai::CallFnOptions::new()
            .eval_ast(false)
            .bind_this_ptr(&mut self.state);
        self.engine
            .call_fn_with_options::<()>(options, &mut self.scope, &self.ast, "turn", ())
            .expect("rhai turn");
    }
    fn hp(&self) -> (i64, i64) {
        let map = self.state.read_lock::<rhai::Map>().expect("a map");
        let hp = |who: &str| {
            let f = map[who].read_lock::<rhai::Map>().expect("a fighter");
            f["hp"].as_int().expect("hp")
        };
        (hp("a"), hp("b"))
    }
}

const LUA: &str = r#"
local function new_fighter()
    local statuses = {}
    for _, kind in ipairs({"dot", "frenzy", "hot", "might", "guard"}) do
        for i = 1, 4 do statuses[#statuses + 1] = {kind = kind, mag = 3, left = 1000} end
    end
    return {hp = 50000, power = 15, armor = 0, statuses = statuses}
end
local function stat(f, base, kind)
    local v = f[base]
    for _, s in ipairs(f.statuses) do if s.kind == kind then v = v + 1 end end
    return v
end
state = {turns = 0}
function turn()
    if state.turns % 500 == 0 then state.a = new_fighter(); state.b = new_fighter() end
    state.turns = state.turns + 1
    local a, b = state.a, state.b
    for _, s in ipairs(a.statuses) do
        if s.kind == "dot" then a.hp = math.max(0, a.hp - s.mag)
        elseif s.kind == "frenzy" and a.hp < 300 then a.hp = a.hp + 1 end
    end
    local power = stat(a, "power", "might")
    local armor = stat(b, "armor", "guard")
    local damage = math.max(0, math.floor(power * 1.5) - armor)
    b.hp = math.max(0, b.hp - damage)
    for _, s in ipairs(a.statuses) do if s.kind == "hot" then a.hp = a.hp + 2 end end
    for _, s in ipairs(a.statuses) do s.left = s.left - 1 end
end
function hp() return state.a.hp, state.b.hp end
"#;

struct Lua {
    lua: mlua::Lua,
    turn: mlua::Function,
}

impl Lua {
    fn new() -> Lua {
        let lua = mlua::Lua::new();
        lua.load(LUA).exec().expect("loads");
        let turn = lua.globals().get("turn").expect("turn");
        Lua { lua, turn }
    }
    fn turn(&self) {
        self.turn.call::<()>(()).expect("lua turn");
    }
    fn hp(&self) -> (i64, i64) {
        let f: mlua::Function = self.lua.globals().get("hp").expect("hp");
        f.call::<(i64, i64)>(()).expect("lua hp")
    }
}

fn bench(c: &mut Criterion) {
    let mut g = Grimoire::new(false);
    let mut compiled = Grimoire::new(true);
    let mut native = Native {
        fighters: [Fighter::new(), Fighter::new()],
        turns: 0,
    };
    let mut rhai = Rhai::new();
    let lua = Lua::new();
    // All four agree, turn by turn, before any is timed.
    for _ in 0..(ROUND - 1) {
        g.turn();
        compiled.turn();
        native.turn();
        rhai.turn();
        lua.turn();
        let want = (native.fighters[0].hp, native.fighters[1].hp);
        assert_eq!(g.hp(), want, "grimoire");
        assert_eq!(compiled.hp(), want, "grimoire compiled");
        assert_eq!(compiled.events, g.events, "grimoire compiled events");
        assert_eq!(rhai.hp(), want, "rhai");
        assert_eq!(lua.hp(), want, "lua");
    }
    let mut group = c.benchmark_group("status_turn");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    group.bench_function("grimoire", |b| b.iter(|| black_box(&mut g).turn()));
    group.bench_function("grimoire_compiled", |b| {
        b.iter(|| black_box(&mut compiled).turn())
    });
    group.bench_function("native_rust", |b| b.iter(|| black_box(&mut native).turn()));
    group.bench_function("rhai", |b| b.iter(|| black_box(&mut rhai).turn()));
    group.bench_function("lua", |b| b.iter(|| black_box(&lua).turn()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
