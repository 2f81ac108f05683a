//! The evaluator: checked effects applied to a state, one event per change.
//!
//! Evaluation cannot fail: names were resolved and types checked before, integer
//! arithmetic saturates, division by zero gives 0, and every chance draws from
//! the seeded generator inside the [`State`]. Applying effects allocates nothing
//! beyond the growth of the caller's event buffer.

use rand::RngExt;
use rand::SeedableRng;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use crate::ast::{
    Arith, AttrId, Bool, Dec, Effect, Entity, EntityId, Expr, Int, MAX_AT_ONCE, OpId, Resource,
    Rounding, StatusId,
};
use crate::rules::{KindId, RuleSet};

mod compiled;
mod status;
pub use compiled::{CompiledBool, CompiledEffects, CompiledInt, Program};
pub use status::{Instance, StatusChange, acquire, end_status, run_status_timing};

/// The generator every chance draws from: PCG-XSH-RR 64/32, a named, portable algorithm.
pub type Rng = Pcg32;

/// The kind an entity has once it is out of play.
const GONE: KindId = KindId::MAX;

/// Every entity's attribute values, and the seeded generator.
///
/// Entities are rows of one width (the rule set's attributes), numbered by
/// [`EntityId`] in the order they were added. A game adds its seats first;
/// more can be added during play ([`State::add`]) and removed ([`State::remove`]):
/// a removed entity keeps its number, so nothing that names it can come to name
/// another.
///
/// Values are what effects see. Where statuses modify an attribute, the value
/// before modifiers (its base) is kept beside it, in `base`, which is empty for
/// a rule set no status modifies (Arcomage), so reading a value is one load
/// either way.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    width: usize,
    values: Vec<i64>,
    /// Base values, laid out as `values`; empty when no status modifies any attribute.
    base: Vec<i64>,
    /// Each entity's kind; [`GONE`] once it is out of play.
    kinds: Vec<KindId>,
    /// Active statuses, in the order they were acquired.
    instances: Vec<Instance>,
    /// The number the next instance gets.
    serial: u32,
    /// How many status effect lists are running, one inside another.
    #[serde(skip)]
    depth: u8,
    /// The timings running one inside another through `{:run …}` effects.
    #[serde(skip)]
    running: Running,
    /// The generator chance draws from; part of the state so that games replay exactly.
    pub rng: Rng,
    /// Dice rolled while an amount was computed, waiting to be logged with
    /// the change they feed (empty between effects).
    #[serde(skip)]
    rolls: Vec<Event>,
    /// The arguments of the formulas being evaluated, innermost last.
    #[serde(skip)]
    args: Vec<i64>,
    /// Where the innermost formula's arguments start in `args`.
    #[serde(skip)]
    arg_base: usize,
    /// Changes to the turn queue that effects asked for, in order, for the
    /// engine to make (`{:queue …}`); outside a game nothing takes them.
    #[serde(skip)]
    pub queued: Vec<QueueRequest>,
    /// The option chosen for the action being used, counted from 1 over
    /// every option of the rule set; 0 when none is (what `[choice …]` reads).
    #[serde(skip)]
    pub choice: u16,
}

/// The most extra turns one `{:queue :turns …}` adds, and the most reorders a
/// timed entry may wait for: a queue stays a size a game can hold.
pub const MAX_QUEUED: i64 = 100;

/// A change to the turn queue an effect asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueRequest {
    /// `count` extra turns of turn kind `kind` for `entity`, at the front.
    Turns {
        /// Whose turns.
        entity: EntityId,
        /// Their turn kind.
        kind: u8,
        /// How many.
        count: u32,
    },
    /// A timed entry after `after` reorders that runs `timing` for `entity`,
    /// with the rule set's roles bound as where it was queued.
    Timed {
        /// The timing it runs.
        timing: u16,
        /// For whom (`:self` in its hooks).
        entity: EntityId,
        /// Reorders before it.
        after: u32,
        /// The rule set's roles where it was queued.
        roles: Vec<EntityId>,
    },
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            width: self.width,
            values: self.values.clone(),
            base: self.base.clone(),
            kinds: self.kinds.clone(),
            instances: self.instances.clone(),
            serial: self.serial,
            depth: self.depth,
            running: self.running,
            rng: self.rng.clone(),
            rolls: Vec::new(),
            args: Vec::new(),
            arg_base: 0,
            queued: Vec::new(),
            choice: self.choice,
        }
    }

    /// Copies into the buffers already held: the greedy AI's trial plays copy a
    /// state for every card it tries, and allocate nothing doing it.
    fn clone_from(&mut self, source: &State) {
        self.width = source.width;
        self.values.clone_from(&source.values);
        self.base.clone_from(&source.base);
        self.kinds.clone_from(&source.kinds);
        self.instances.clone_from(&source.instances);
        self.serial = source.serial;
        self.depth = source.depth;
        self.running = source.running;
        self.rng.clone_from(&source.rng);
        self.rolls.clear();
        self.queued.clear();
        self.choice = source.choice;
    }
}

impl State {
    /// Records a `{:queue …}` effect's change for the engine to make.
    #[cold]
    fn queue_request(
        &mut self,
        op: &crate::ast::QueueOp,
        entity: EntityId,
        amount: i64,
        frame: &Frame<'_>,
    ) {
        let n = amount.clamp(0, MAX_QUEUED) as u32;
        self.queued.push(match op {
            crate::ast::QueueOp::Turns(kind) => QueueRequest::Turns {
                entity,
                kind: *kind,
                count: n,
            },
            crate::ast::QueueOp::Timed(timing) => QueueRequest::Timed {
                timing: *timing,
                entity,
                after: n,
                roles: frame.roles.to_vec(),
            },
        });
    }

    /// Drops the dice rolled outside effects ([`value`], [`holds`]), which
    /// no change is there to log them with.
    #[inline]
    pub fn forget_rolls(&mut self) {
        if !self.rolls.is_empty() {
            self.rolls.clear();
        }
    }

    /// `entities` entities of the first kind (a game's seats), each with the rule
    /// set's defaults, and a generator seeded with `seed`.
    pub fn new(rules: &RuleSet, entities: usize, seed: u64) -> State {
        let mut state = State {
            width: rules.attribute_defs.len(),
            values: Vec::with_capacity(rules.attribute_defs.len() * entities),
            base: Vec::new(),
            kinds: Vec::with_capacity(entities),
            instances: Vec::new(),
            serial: 0,
            depth: 0,
            running: Running::default(),
            rng: Rng::seed_from_u64(seed),
            rolls: Vec::new(),
            args: Vec::new(),
            arg_base: 0,
            queued: Vec::new(),
            choice: 0,
        };
        for _ in 0..entities {
            state.add(rules, 0);
        }
        state
    }

    /// Starts again as [`State::new`] would, reusing the buffers: a simulation
    /// resets one state per game.
    pub fn reset(&mut self, rules: &RuleSet, entities: usize, seed: u64) {
        self.width = rules.attribute_defs.len();
        self.values.clear();
        self.base.clear();
        self.kinds.clear();
        self.instances.clear();
        self.serial = 0;
        self.depth = 0;
        self.running = Running::default();
        self.rng = Rng::seed_from_u64(seed);
        self.queued.clear();
        for _ in 0..entities {
            self.add(rules, 0);
        }
    }

    /// Adds the rule set's `:setup` entities, in order, with their values: what
    /// every game starts with after its seats.
    pub fn add_setup(&mut self, rules: &RuleSet) {
        for entity in &rules.setup {
            let id = match entity.seat {
                // A seat's values, when the state has that seat.
                Some(seat) if seat < self.len() => seat as EntityId,
                Some(_) => continue,
                None => self.add(rules, entity.kind),
            };
            for &(attr, value) in &entity.values {
                self.put(id, attr, value);
            }
        }
    }

    /// Removes every status whose `:removed-when` holds (its `:on-remove`
    /// runs, with the rule set's roles bound to `roles`), then takes out of
    /// play every entity whose kind's `:removed-when` holds for it, in the
    /// order they were added; each one taken out is pushed to `removed`, and
    /// its kind's `:on-removed` effects run (their changes pushed to
    /// `events`), which may remove more.
    pub fn remove_fallen(
        &mut self,
        rules: &RuleSet,
        roles: &[EntityId],
        removed: &mut Vec<EntityId>,
        events: &mut Vec<Event>,
    ) {
        let kinds = rules.removed_when.iter().any(Option::is_some);
        if !kinds && !rules.conditional_statuses {
            return;
        }
        // Removals that cause removals end: a kind whose `:on-removed` spawns
        // one that falls at once cannot loop.
        for _ in 0..MAX_REMOVAL_WAVES {
            let (first, changes) = (removed.len(), events.len());
            let statuses =
                rules.conditional_statuses && status::remove_unbound(rules, self, roles, events);
            if !kinds && !statuses {
                return;
            }
            for entity in 0..self.len() as EntityId {
                let Some(kind) = self.kind(entity) else {
                    continue;
                };
                if let Some(Some(cond)) = rules.removed_when.get(kind as usize)
                    && boolean(cond, self, &Frame::outside(&[entity]))
                {
                    self.remove(entity);
                    removed.push(entity);
                    if let Some(effects) = rules.on_removed.get(kind as usize)
                        && !effects.is_empty()
                    {
                        apply(rules, effects, self, &[entity], events);
                    }
                }
            }
            if (removed.len() == first && !statuses) || events.len() == changes {
                return;
            }
        }
    }

    /// Adds an entity of `kind` with the rule set's defaults; its number is the next one.
    pub fn add(&mut self, rules: &RuleSet, kind: KindId) -> EntityId {
        let id = self.kinds.len() as EntityId;
        self.values
            .extend(rules.attribute_defs.iter().map(|a| a.default));
        if rules.modified.contains(&true) {
            // The first entity of a rule set with modifiers starts the base row.
            if self.base.is_empty() {
                self.base.clone_from(&self.values);
            } else {
                self.base
                    .extend(rules.attribute_defs.iter().map(|a| a.default));
            }
        }
        self.kinds.push(kind);
        id
    }

    /// Takes an entity out of play; its values stay readable, its number is never
    /// reused, and its statuses end without running anything.
    pub fn remove(&mut self, entity: EntityId) {
        if let Some(kind) = self.kinds.get_mut(entity as usize) {
            *kind = GONE;
            self.instances.retain(|i| i.holder != entity);
        }
    }

    /// Whether `entity` exists and is still in play.
    pub fn is_live(&self, entity: EntityId) -> bool {
        self.kind(entity).is_some()
    }

    /// The kind of `entity`, if it exists and is still in play.
    pub fn kind(&self, entity: EntityId) -> Option<KindId> {
        self.kinds
            .get(entity as usize)
            .copied()
            .filter(|&k| k != GONE)
    }

    /// The entities of `kind` still in play, in the order they were added.
    pub fn of_kind(&self, kind: KindId) -> impl Iterator<Item = EntityId> + '_ {
        (0..self.kinds.len() as EntityId).filter(move |&e| self.kinds[e as usize] == kind)
    }

    /// How many entities were ever added (removed ones included).
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// True if no entity was ever added.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The value of `attr` of `entity`.
    #[inline]
    pub fn get(&self, entity: EntityId, attr: AttrId) -> i64 {
        self.values[entity as usize * self.width + attr as usize]
    }

    /// Sets a value directly, without bounds, modifiers or events: for building
    /// states (its base too, where statuses modify it).
    pub fn put(&mut self, entity: EntityId, attr: AttrId, value: i64) {
        let at = entity as usize * self.width + attr as usize;
        self.values[at] = value;
        if !self.base.is_empty() {
            self.base[at] = value;
        }
    }

    /// The value of `attr` of `entity` before status modifiers.
    pub fn base(&self, entity: EntityId, attr: AttrId) -> i64 {
        let at = entity as usize * self.width + attr as usize;
        self.base.get(at).copied().unwrap_or(self.values[at])
    }

    /// The active statuses, in the order they were acquired.
    pub fn statuses(&self) -> &[Instance] {
        &self.instances
    }

    /// The active statuses `entity` holds, in the order they were acquired.
    pub fn statuses_of(&self, entity: EntityId) -> impl Iterator<Item = &Instance> + '_ {
        self.instances.iter().filter(move |i| i.holder == entity)
    }

    /// Every value of `entity`, in the rule set's attribute order.
    pub fn row(&self, entity: EntityId) -> &[i64] {
        let at = entity as usize * self.width;
        &self.values[at..at + self.width]
    }
}

/// Why a change happened: which effect of the applied list, and through which operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
///
/// Six bytes, `None` written as `u16::MAX`, so that `Option<Cause>` fits a
/// register: passed through memory, it stalled every event's store (measured:
/// Foundations 16 → 26 ns).
pub struct Cause {
    /// Index of the effect in the list that was applied.
    pub effect: u16,
    via: u16,
    status: u16,
}

/// How a [`Cause`] writes "none".
const NONE: u16 = u16::MAX;

impl Cause {
    /// The `effect`-th effect of the list applied, on its own.
    pub fn effect(effect: usize) -> Cause {
        Cause {
            effect: u16::try_from(effect).unwrap_or(u16::MAX),
            via: NONE,
            status: NONE,
        }
    }

    /// The operation the change was made in, if it came through one (`:damage`).
    pub fn via(self) -> Option<OpId> {
        (self.via != NONE).then_some(self.via)
    }

    /// The status whose effects made it, if a status's did (on acquiring it,
    /// at a timing, on its end).
    pub fn status(self) -> Option<StatusId> {
        (self.status != NONE).then_some(self.status)
    }

    /// The same cause, made through operation `op` (the outermost one, if it already was).
    pub fn through(self, op: OpId) -> Cause {
        Cause {
            via: if self.via == NONE { op } else { self.via },
            ..self
        }
    }

    /// The same cause, made by status `status`'s effects.
    pub fn by_status(self, status: StatusId) -> Cause {
        Cause { status, ..self }
    }
}

/// What an event changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum What {
    /// An attribute: the event's values are the attribute's, as effects see it.
    Attr(AttrId),
    /// A status: the event's values are its turns left (its stacks, for
    /// [`StatusChange::Stacked`]).
    Status(StatusId, StatusChange),
    /// The entity entered play, of this kind (`{:spawn …}`); its values are 0.
    Spawned(KindId),
    /// One die of a roll, of this many faces: `after` is its face; `before`
    /// is 1 if it counts, 0 if a keep (`kh`, `kl`) dropped it. The dice of a
    /// roll come just before its [`What::Rolled`].
    Die(u16),
    /// A roll of dice of this many faces is done: `before` is its modifier
    /// (`+2`), `after` its total; the keep says which dice counted.
    Rolled(u16, crate::dice::KeepKind),
    /// `[advantage …]` (true: the higher kept) or `[disadvantage …]`: `after`
    /// is the value kept, `before` the other.
    Kept(bool),
}

/// One change: to an attribute, or to an entity's statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    /// The entity changed.
    pub entity: EntityId,
    /// What changed.
    pub what: What,
    /// Its value before.
    pub before: i64,
    /// Its value after, within the attribute's bounds.
    pub after: i64,
    /// What made it.
    pub cause: Cause,
}

impl Event {
    /// The attribute changed, if an attribute was.
    #[inline]
    pub fn attr(&self) -> Option<AttrId> {
        match self.what {
            What::Attr(a) => Some(a),
            What::Status(..)
            | What::Spawned(_)
            | What::Die(_)
            | What::Rolled(..)
            | What::Kept(_) => None,
        }
    }
}

/// Calls `f` with role bindings for one run of effects: the roles `around`,
/// then `more` slots for the entities bound after them (`:self`, `:holder`,
/// `:source`), 0 until set. Up to 16 live on the stack, so hooks and `:each`
/// runs allocate nothing.
#[inline]
pub fn with_bindings<R>(
    around: &[EntityId],
    more: usize,
    f: impl FnOnce(&mut [EntityId]) -> R,
) -> R {
    let len = around.len() + more;
    let mut stack = [0 as EntityId; 16];
    let mut heap = Vec::new();
    let roles: &mut [EntityId] = if len <= stack.len() {
        &mut stack[..len]
    } else {
        heap.resize(len, 0);
        &mut heap
    };
    roles[..around.len()].copy_from_slice(around);
    f(roles)
}

/// The most statuses that may be acquired one inside another's effects (a
/// status whose on-acquire effects acquire another): deeper ones do nothing,
/// so two statuses that acquire each other cannot loop.
pub const MAX_STATUS_DEPTH: u8 = 8;

/// Bindings for one application: which entity each role means.
#[derive(Clone, Copy)]
struct Frame<'b> {
    roles: &'b [EntityId],
    target: EntityId,
    /// `:amount` in an operation; `:magnitude` in a status's effects (which
    /// have no `:amount`): one slot, so the frame stays as small as it was.
    amount: i64,
}

/// Applies `effects` in order to `state`, with role `i` bound to entity `roles[i]`.
///
/// Each change that alters a value is pushed to `events`. Later effects see the
/// changes of earlier ones.
pub fn apply(
    rules: &RuleSet,
    effects: &[Effect],
    state: &mut State,
    roles: &[EntityId],
    events: &mut Vec<Event>,
) {
    // Whether any value has a base beside it is decided once per list, not
    // per effect: a rule set no status modifies runs without the test.
    let frame = &Frame::outside(roles);
    if state.base.is_empty() {
        run::<false>(rules, effects, state, frame, events, None);
    } else {
        run::<true>(rules, effects, state, frame, events, None);
    }
}

/// An amount the fast arms of `apply_one` do not cover, with the dice it
/// rolled logged. Out of line: the check inlined into every effect's loop
/// cost random games about 5 % (measured).
#[inline(never)]
fn amount_logged(
    e: &Int,
    state: &mut State,
    frame: &Frame<'_>,
    who: EntityId,
    cause: Cause,
    events: &mut Vec<Event>,
) -> i64 {
    let n = int(e, state, frame);
    flush_rolls(state, who, cause, events);
    n
}

/// A resource that is not a plain attribute, with the dice its choice rolled
/// (`[> 1d20 10 :wall :tower]`) logged. Out of line, as `amount_logged`.
#[inline(never)]
fn resource_logged(
    t: &Resource,
    state: &mut State,
    frame: &Frame<'_>,
    who: EntityId,
    cause: Cause,
    events: &mut Vec<Event>,
) -> Target {
    let target = resource(t, state, frame);
    flush_rolls(state, who, cause, events);
    target
}

/// Moves the dice rolled so far, if any, into `events`, as rolled by `who`
/// for `cause`. Only the test is inlined; the move is out of line.
#[inline(always)]
fn flush_rolls(state: &mut State, who: EntityId, cause: Cause, events: &mut Vec<Event>) {
    if !state.rolls.is_empty() {
        move_rolls(state, who, cause, events);
    }
}

#[cold]
#[inline(never)]
fn move_rolls(state: &mut State, who: EntityId, cause: Cause, events: &mut Vec<Event>) {
    events.extend(state.rolls.drain(..).map(|e| Event {
        entity: if e.entity == ROLLER_UNKNOWN {
            who
        } else {
            e.entity
        },
        cause,
        ..e
    }));
}

/// The entity of a roll event whose roller is the entity its change is to.
const ROLLER_UNKNOWN: EntityId = EntityId::MAX;

/// Who rolls `[+ 1d6 [:you :dex]]`: the entity whose attribute its modifier
/// reads first (`:you`, so the log says "pain rolls 1d6+10"); otherwise
/// [`ROLLER_UNKNOWN`], and the roll is the changed entity's.
fn roller(e: &Int, frame: &Frame<'_>) -> EntityId {
    match e {
        Int::Attr(Entity::Role(r), _) => frame
            .roles
            .get(*r as usize)
            .copied()
            .unwrap_or(ROLLER_UNKNOWN),
        Int::Attr(Entity::Target, _) => frame.target,
        Int::Fold(_, items) => items
            .iter()
            .map(|i| roller(i, frame))
            .find(|&r| r != ROLLER_UNKNOWN)
            .unwrap_or(ROLLER_UNKNOWN),
        Int::Neg(a) | Int::Abs(a) | Int::Best(_, a) => roller(a, frame),
        Int::Roll(r) => roller(&r.1, frame),
        Int::Lookup(l) => roller(&l.1, frame),
        Int::Formula(f) => f
            .args
            .iter()
            .map(|i| roller(i, frame))
            .find(|&r| r != ROLLER_UNKNOWN)
            .unwrap_or(ROLLER_UNKNOWN),
        _ => ROLLER_UNKNOWN,
    }
}

/// Rolls `dice` and adds `extra` to its modifier: each face from the state's
/// generator, recorded to be logged.
#[cold]
#[inline(never)]
fn roll(dice: &crate::dice::Dice, extra: i64, by: EntityId, state: &mut State) -> i64 {
    use crate::dice::Keep;
    let first = state.rolls.len();
    for _ in 0..dice.count {
        let face = state.rng.random_range(1..=i64::from(dice.sides));
        state.rolls.push(Event {
            entity: by,
            what: What::Die(dice.sides),
            before: 1,
            after: face,
            cause: Cause::effect(0),
        });
    }
    // Drop the lowest (keep high) or highest (keep low) until `n` are left;
    // among equal faces the later one goes, so the log reads left to right.
    let (n, high) = match dice.keep {
        Keep::All => (dice.count, true),
        Keep::High(n) => (n, true),
        Keep::Low(n) => (n, false),
    };
    for _ in n..dice.count {
        let faces = &mut state.rolls[first..];
        let worst = faces
            .iter()
            .enumerate()
            .filter(|(_, e)| e.before == 1)
            .fold(None, |worst: Option<(usize, i64)>, (i, e)| match worst {
                Some((_, w)) if (high && e.after > w) || (!high && e.after < w) => worst,
                _ => Some((i, e.after)),
            });
        if let Some((i, _)) = worst {
            faces[i].before = 0;
        }
    }
    let kept: i64 = state.rolls[first..]
        .iter()
        .filter(|e| e.before == 1)
        .map(|e| e.after)
        .sum();
    let modifier = dice.modifier.saturating_add(extra);
    let total = kept.saturating_add(modifier);
    state.rolls.push(Event {
        entity: by,
        what: What::Rolled(dice.sides, dice.keep.kind()),
        before: modifier,
        after: total,
        cause: Cause::effect(0),
    });
    total
}

/// `[formula :name a …]`: the arguments evaluated once each, then the body
/// with them bound. Out of line so that `int`'s frame stays small.
#[inline(never)]
fn formula(f: &crate::ast::Formula, state: &mut State, frame: &Frame<'_>) -> i64 {
    let base = state.args.len();
    for a in &f.args {
        let v = int(a, state, frame);
        state.args.push(v);
    }
    let outer = std::mem::replace(&mut state.arg_base, base);
    let v = int(&f.body, state, frame);
    state.arg_base = outer;
    state.args.truncate(base);
    v
}

/// `[lookup :table x]`, out of line so that `int`'s frame stays small.
#[inline(never)]
fn lookup(l: &(crate::ast::Lookup, Int), state: &mut State, frame: &Frame<'_>) -> i64 {
    l.0.get(int(&l.1, state, frame))
}

/// `[advantage a]` / `[disadvantage a]`: `a` twice, the higher (lower) kept.
#[cold]
#[inline(never)]
fn best_of_two(higher: bool, a: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    let (x, y) = (int(a, state, frame), int(a, state, frame));
    let (kept, other) = if (x >= y) == higher { (x, y) } else { (y, x) };
    state.rolls.push(Event {
        entity: roller(a, frame),
        what: What::Kept(higher),
        before: other,
        after: kept,
        cause: Cause::effect(0),
    });
    kept
}

/// Applies a list of effects in `frame`. At the top level (`inside` is `None`) each
/// change's cause is its effect's index; inside an operation it is the applying
/// effect and the operation, `inside`.
/// `MODIFIED`: whether the state may hold base values, which a change to a
/// modified attribute must go through.
fn run<const MODIFIED: bool>(
    rules: &RuleSet,
    effects: &[Effect],
    state: &mut State,
    frame: &Frame<'_>,
    events: &mut Vec<Event>,
    inside: Option<Cause>,
) {
    // The cause travels beside the frame, in registers: read back from a frame
    // written moments before, it stalled the load (measured).
    let cause = |i: usize| inside.unwrap_or(Cause::effect(i));
    let mut i = 0;
    while i < effects.len() {
        let effect = &effects[i];
        if effect.at_once <= 1 {
            apply_one::<MODIFIED>(rules, effect, state, frame, cause(i), events);
            i += 1;
            continue;
        }
        let n = usize::from(effect.at_once).min(effects.len() - i);
        at_once::<MODIFIED>(rules, &effects[i..i + n], state, frame, events, |k| {
            cause(i + k)
        });
        i += n;
    }
}

/// Applies an `:at-once` group: every effect is computed from the same state
/// first. Out of line, so its buffer does not weigh on every effect list's frame.
#[inline(never)]
fn at_once<const MODIFIED: bool>(
    rules: &RuleSet,
    group: &[Effect],
    state: &mut State,
    frame: &Frame<'_>,
    events: &mut Vec<Event>,
    cause: impl Fn(usize) -> Cause,
) {
    let mut resolved = [(0 as EntityId, Target::Attr(0), 0i64); MAX_AT_ONCE];
    for (k, (slot, effect)) in resolved.iter_mut().zip(group).enumerate() {
        *slot = (
            entity(&effect.entity, state, frame),
            resource(&effect.resource, state, frame),
            int(&effect.amount, state, frame),
        );
        flush_rolls(state, slot.0, cause(k), events);
    }
    for (k, (effect, &(entity, target, amount))) in group.iter().zip(&resolved).enumerate() {
        let change = Change {
            set: effect.set,
            entity,
            target,
            amount,
            cause: cause(k),
        };
        change.apply::<MODIFIED>(rules, state, frame, events, &effect.resource);
    }
}

#[inline(always)]
fn apply_one<const MODIFIED: bool>(
    rules: &RuleSet,
    effect: &Effect,
    state: &mut State,
    frame: &Frame<'_>,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let who = entity(&effect.entity, state, frame);
    let target = match effect.resource {
        Resource::Attr(a) => Target::Attr(a),
        ref t => resource_logged(t, state, frame, who, cause, events),
    };
    let amount = match effect.amount {
        Int::Lit(n) => n,
        Int::Pick(cmp, r, attr, n, then, other) => {
            if cmp.test(state.get(frame.roles[r as usize], attr), n) {
                then
            } else {
                other
            }
        }
        // A smart value as the amount (Arcomage's production, `[:you :quarry]`).
        Int::Attr(Entity::Role(r), attr) => state.get(frame.roles[r as usize], attr),
        ref e => amount_logged(e, state, frame, who, cause, events),
    };
    let change = Change {
        set: effect.set,
        entity: who,
        target,
        amount,
        cause,
    };
    change.apply::<MODIFIED>(rules, state, frame, events, &effect.resource);
}

/// What an effect changes, resolved: an attribute, an operation, or statuses.
///
/// Four bytes: with a reference to the status change in it, the enum doubled
/// and Foundations went from 16 to 17 ns (measured). A status change or an
/// `:each` is found again from the effect's resource through `path`, the
/// choices its simple logic made (bit 0 the outermost), without evaluating
/// anything twice.
#[derive(Clone, Copy)]
enum Target {
    Attr(AttrId),
    Op(OpId),
    Nested(u32),
}

/// One resolved change: add `amount` to (or set) an attribute of `entity`, or
/// apply an operation or a status change to it.
struct Change {
    set: bool,
    entity: EntityId,
    target: Target,
    amount: i64,
    cause: Cause,
}

impl Change {
    #[inline(always)]
    /// `resource` is the effect's, for a status change to be found in.
    fn apply<const MODIFIED: bool>(
        self,
        rules: &RuleSet,
        state: &mut State,
        frame: &Frame<'_>,
        events: &mut Vec<Event>,
        resource: &Resource,
    ) {
        match self.target {
            Target::Attr(attr) => {
                if MODIFIED && !state.base.is_empty() && rules.modified[attr as usize] {
                    return change_modified(rules, state, &self, attr, events);
                }
                change_value(
                    state,
                    rules.bounds[attr as usize],
                    self.entity,
                    attr,
                    self.set,
                    self.amount,
                    self.cause,
                    events,
                );
            }
            Target::Op(op) => self.operation::<MODIFIED>(op, rules, state, frame, events),
            Target::Nested(path) => {
                match chosen(resource, path) {
                    Some(Resource::Status(op)) => {
                        status::change(rules, state, frame, &self, op, events)
                    }
                    Some(Resource::Each(each)) => {
                        for_each::<MODIFIED>(rules, state, frame, each, self.cause, events)
                    }
                    Some(Resource::Spawn(spawn)) => {
                        spawn_one(rules, state, frame, spawn, self.cause, events)
                    }
                    Some(Resource::Run(timing)) => {
                        run_nested(rules, None, state, frame, *timing, self.entity, events)
                    }
                    Some(Resource::Queue(op)) => {
                        state.queue_request(op, self.entity, self.amount, frame)
                    }
                    _ => {}
                }
                // Dice in the conditions inside (`:where`, a status's chance) are logged here.
                flush_rolls(state, self.entity, self.cause, events);
            }
        }
    }

    /// Applies operation `op` to the entity, with `:target` and `:amount` bound.
    /// Kept out of line so the plain attribute change above stays small.
    #[inline(never)]
    fn operation<const MODIFIED: bool>(
        &self,
        op: OpId,
        rules: &RuleSet,
        state: &mut State,
        frame: &Frame<'_>,
        events: &mut Vec<Event>,
    ) {
        let inner = Frame {
            target: self.entity,
            amount: self.amount,
            ..*frame
        };
        let cause = self.cause.through(op);
        run::<MODIFIED>(
            rules,
            &rules.operation_defs[op as usize].effects,
            state,
            &inner,
            events,
            Some(cause),
        );
    }
}

#[inline]
fn entity(e: &Entity, state: &mut State, frame: &Frame<'_>) -> EntityId {
    match e {
        Entity::Role(r) => frame.roles[*r as usize],
        _ => entity_slow(e, state, frame),
    }
}

fn entity_slow(e: &Entity, state: &mut State, frame: &Frame<'_>) -> EntityId {
    match e {
        Entity::Role(r) => frame.roles[*r as usize],
        Entity::Target => frame.target,
        Entity::If(c, a, b) => {
            if boolean(c, state, frame) {
                entity(a, state, frame)
            } else {
                entity(b, state, frame)
            }
        }
    }
}

/// Adds `amount` to (or, with `set`, puts it in) `attr` of `entity`, within
/// `bounds`, pushing an event if the value moved: an attribute no status
/// modifies, the change most effects make.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn change_value(
    state: &mut State,
    (min, max): (i64, i64),
    entity: EntityId,
    attr: AttrId,
    set: bool,
    amount: i64,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    // One index, one bounds check, for both the read and the write.
    let Some(value) = state
        .values
        .get_mut(entity as usize * state.width + attr as usize)
    else {
        return;
    };
    let before = *value;
    let raw = if set {
        amount
    } else {
        before.saturating_add(amount)
    };
    let after = raw.clamp(min, max);
    if after != before {
        *value = after;
        events.push(Event {
            entity,
            what: What::Attr(attr),
            before,
            after,
            cause,
        });
    }
}

/// Changes an attribute some status modifies: the change goes to its base
/// value, and the value effects see is worked out again.
#[inline(never)]
fn change_modified(
    rules: &RuleSet,
    state: &mut State,
    change: &Change,
    attr: AttrId,
    events: &mut Vec<Event>,
) {
    let at = change.entity as usize * state.width + attr as usize;
    let Some(&base) = state.base.get(at) else {
        return;
    };
    let (min, max) = rules.bounds[attr as usize];
    let raw = if change.set {
        change.amount
    } else {
        base.saturating_add(change.amount)
    };
    state.base[at] = raw.clamp(min, max);
    status::recompute(rules, state, change.entity, attr, change.cause, events);
}

/// Adds `amount` to `entity`'s `attr` within its bounds, as an effect would
/// (through its base where statuses modify it), pushing the event: for changes
/// the engine makes itself, such as paying a card's cost.
pub fn add_to(
    rules: &RuleSet,
    state: &mut State,
    entity: EntityId,
    attr: AttrId,
    amount: i64,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let change = Change {
        set: false,
        entity,
        target: Target::Attr(attr),
        amount,
        cause,
    };
    change.apply::<true>(
        rules,
        state,
        &Frame::outside(&[]),
        events,
        &Resource::Attr(attr),
    );
}

/// What a resource names, resolved.
fn resource(t: &Resource, state: &mut State, frame: &Frame<'_>) -> Target {
    match t {
        Resource::Attr(a) => Target::Attr(*a),
        Resource::Op(o) => Target::Op(*o),
        Resource::Status(_)
        | Resource::Each(_)
        | Resource::Spawn(_)
        | Resource::Run(_)
        | Resource::Queue(_) => Target::Nested(0),
        Resource::If(c, a, b) => {
            let choice = u32::from(!boolean(c, state, frame));
            match resource(if choice == 0 { a } else { b }, state, frame) {
                // Past 32 levels of choice the path wraps; the checker's depth limit keeps far below.
                Target::Nested(path) => Target::Nested(path.wrapping_shl(1) | choice),
                other => other,
            }
        }
    }
}

/// The status change or `:each` that `path` leads to in `t` (bit 0 the
/// outermost choice; 1: else).
#[cold]
fn chosen(mut t: &Resource, mut path: u32) -> Option<&Resource> {
    loop {
        match t {
            Resource::Status(_)
            | Resource::Each(_)
            | Resource::Spawn(_)
            | Resource::Run(_)
            | Resource::Queue(_) => {
                return Some(t);
            }
            Resource::If(_, a, b) => {
                t = if path & 1 == 0 { a } else { b };
                path >>= 1;
            }
            Resource::Attr(_) | Resource::Op(_) => return None,
        }
    }
}

/// `[= :holder :you]`. Out of line: `boolean` recurses.
#[inline(never)]
fn same(a: &Entity, b: &Entity, state: &mut State, frame: &Frame<'_>) -> bool {
    entity(a, state, frame) == entity(b, state, frame)
}

/// The most `{:run …}` effects that may run one inside another's hooks:
/// deeper ones do nothing.
pub const MAX_RUN_DEPTH: usize = 8;

/// The timings running one inside another through `{:run …}` effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Running {
    timings: [u16; MAX_RUN_DEPTH],
    len: u8,
}

/// `{:run :timing}`: the timing's hooks run now, for `who` (or each entity of
/// its `:each` kind), with the roles of the effects around it. A timing never
/// runs inside its own run, and runs nest at most [`MAX_RUN_DEPTH`] deep, so
/// hooks that run each other cannot loop.
#[inline(never)]
fn run_nested(
    rules: &RuleSet,
    program: Option<&Program>,
    state: &mut State,
    frame: &Frame<'_>,
    timing: u16,
    who: EntityId,
    events: &mut Vec<Event>,
) {
    let running = state.running;
    let depth = usize::from(running.len);
    if depth >= MAX_RUN_DEPTH || running.timings[..depth].contains(&timing) {
        return;
    }
    state.running.timings[depth] = timing;
    state.running.len += 1;
    let n = rules.roles.len().min(frame.roles.len());
    self::timing(
        rules,
        program,
        state,
        timing,
        &frame.roles[..n],
        who,
        events,
    );
    state.running.len -= 1;
}

/// Runs timing `timing` once: its rule-set hook, then the hooks and countdowns
/// of the statuses of the entity it runs for, with the rule set's roles bound
/// to `roles`. A timing with `:each` runs for every entity of its kind in play
/// (those added meanwhile wait for its next run), with `:self` bound to each;
/// one at the moment `:run` runs for `who`, bound to `:self`; any other runs
/// for `who` with nothing more bound.
pub fn run_timing(
    rules: &RuleSet,
    state: &mut State,
    timing: u16,
    roles: &[EntityId],
    who: EntityId,
    events: &mut Vec<Event>,
) {
    self::timing(rules, None, state, timing, roles, who, events);
}

/// [`run_timing`], its hooks run compiled when `program` is given.
fn timing(
    rules: &RuleSet,
    program: Option<&Program>,
    state: &mut State,
    timing: u16,
    roles: &[EntityId],
    who: EntityId,
    events: &mut Vec<Event>,
) {
    let n = roles.len();
    let Some(def) = rules.timings.get(usize::from(timing)) else {
        return;
    };
    let hook = |state: &mut State, roles: &[EntityId], events: &mut Vec<Event>| match program
        .and_then(|p| Some((p, p.hook(timing)?)))
    {
        Some((p, code)) => p.apply(rules, code, state, roles, events),
        None => apply(
            rules,
            &rules.hooks[usize::from(timing)],
            state,
            roles,
            events,
        ),
    };
    let statuses = |state: &mut State, holder, roles: &[EntityId], events: &mut Vec<Event>| {
        status::statuses_at(rules, program, state, timing, Some(holder), roles, events);
    };
    match def.each {
        None if def.at == crate::rules::Moment::Run => with_bindings(roles, 1, |roles| {
            roles[n] = who;
            hook(state, roles, events);
            statuses(state, who, &roles[..n], events);
        }),
        None => {
            hook(state, roles, events);
            statuses(state, who, roles, events);
        }
        Some(kind) => with_bindings(roles, 1, |roles| {
            let count = state.len() as EntityId;
            for entity in 0..count {
                if state.kind(entity) != Some(kind) {
                    continue;
                }
                roles[n] = entity;
                hook(state, roles, events);
                statuses(state, entity, &roles[..n], events);
            }
        }),
    }
}

/// The most waves of removals one check runs: an entity's `:on-removed`
/// effects may make others fall, which run theirs, and so on, this deep.
pub const MAX_REMOVAL_WAVES: usize = 16;

/// The most entities a state may hold: a `{:spawn …}` past it does nothing, so
/// a hook that spawns every turn cannot exhaust memory.
pub const MAX_ENTITIES: usize = 100_000;

/// Runs a `{:spawn …}`: a new entity of its kind, with its values computed
/// where the effect runs, within their bounds.
#[cold]
#[inline(never)]
fn spawn_one(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    spawn: &crate::ast::Spawn,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    if state.len() >= MAX_ENTITIES {
        return;
    }
    // The values are computed before the entity exists, from the state as it was.
    let mut values = [(0 as AttrId, 0i64); 16];
    let mut extra = Vec::new();
    for (i, (attr, value)) in spawn.values.iter().enumerate() {
        let v = int(value, state, frame);
        match values.get_mut(i) {
            Some(slot) => *slot = (*attr, v),
            None => extra.push((*attr, v)),
        }
    }
    let entity = state.add(rules, spawn.kind);
    events.push(Event {
        entity,
        what: What::Spawned(spawn.kind),
        before: 0,
        after: 0,
        cause,
    });
    let n = spawn.values.len().min(values.len());
    for &(attr, v) in values[..n].iter().chain(&extra) {
        let (min, max) = rules.bounds[attr as usize];
        state.put(entity, attr, v.clamp(min, max));
    }
}

/// Runs an `:each`: its effects once for every entity of its kind in play (in
/// the order they were added; entities added meanwhile wait for the next run)
/// for which its `:where` holds, with `:self` bound after the roles around it.
#[cold]
#[inline(never)]
fn for_each<const MODIFIED: bool>(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    each: &crate::ast::Each,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let Some(kind) = each.kind else {
        // `{:when …}`: once, with the roles as they are.
        if each
            .filter
            .as_ref()
            .is_none_or(|c| boolean(c, state, frame))
        {
            run::<MODIFIED>(rules, &each.effects, state, frame, events, Some(cause));
        }
        return;
    };
    each_of_kind(state, frame, kind, each.outer, |state, inner| {
        if each
            .filter
            .as_ref()
            .is_none_or(|c| boolean(c, state, inner))
        {
            run::<MODIFIED>(rules, &each.effects, state, inner, events, Some(cause));
        }
    })
}

fn int(e: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    match e {
        Int::Lit(n) => *n,
        Int::Pick(cmp, r, attr, n, then, other) => {
            if cmp.test(state.get(frame.roles[*r as usize], *attr), *n) {
                *then
            } else {
                *other
            }
        }
        // The common smart value `[:you :wall]`, without a call to resolve the entity.
        Int::Attr(Entity::Role(r), attr) => state.get(frame.roles[*r as usize], *attr),
        Int::Attr(who, attr) => {
            let who = entity(who, state, frame);
            state.get(who, *attr)
        }
        Int::Amount => frame.amount,
        Int::Fold(op, items) => {
            let Some((first, rest)) = items.split_first() else {
                return 0;
            };
            let mut acc = operand(first, state, frame);
            for item in rest {
                let v = operand(item, state, frame);
                acc = match op {
                    Arith::Add => acc.saturating_add(v),
                    Arith::Sub => acc.saturating_sub(v),
                    Arith::Mul => acc.saturating_mul(v),
                    Arith::Min => acc.min(v),
                    Arith::Max => acc.max(v),
                };
            }
            acc
        }
        Int::Neg(a) => operand(a, state, frame).saturating_neg(),
        Int::If(c, a, b) => {
            // Simple logic on a smart value with literal branches, `[= [:you :wall] 0 6 3]`,
            // is the seed's commonest shape: it runs here without further calls.
            let holds = match **c {
                Bool::AttrCmp(cmp, r, attr, n) => {
                    cmp.test(state.get(frame.roles[r as usize], attr), n)
                }
                ref c => boolean(c, state, frame),
            };
            match if holds { &**a } else { &**b } {
                Int::Lit(n) => *n,
                e => int(e, state, frame),
            }
        }
        Int::Round(mode, d) => {
            let x = dec(d, state, frame);
            // `as` saturates at the i64 limits and maps NaN to 0.
            match mode {
                Rounding::Nearest => x.round() as i64,
                Rounding::Floor => x.floor() as i64,
                Rounding::Ceil => x.ceil() as i64,
            }
        }
        Int::Random(lo, hi) => {
            let (a, b) = (int(lo, state, frame), int(hi, state, frame));
            let (lo, hi) = (a.min(b), a.max(b));
            state.rng.random_range(lo..=hi)
        }
        Int::Magnitude => frame.amount,
        Int::Statuses(who, filter) => {
            let who = entity(who, state, frame);
            status::count(state, who, filter, status::Count::Instances)
        }
        Int::TurnsLeft(who, filter) => {
            let who = entity(who, state, frame);
            status::count(state, who, filter, status::Count::TurnsLeft)
        }
        Int::Abs(a) => abs(a, state, frame),
        Int::Count(over) | Int::Sum(over) => sum_over(over, state, frame),
        Int::Dice(d) => roll(d, 0, ROLLER_UNKNOWN, state),
        Int::Roll(r) => {
            let extra = int(&r.1, state, frame);
            roll(&r.0, extra, roller(&r.1, frame), state)
        }
        Int::Lookup(l) => lookup(l, state, frame),
        Int::Formula(f) => formula(f, state, frame),
        Int::Arg(i) => state
            .args
            .get(state.arg_base + usize::from(*i))
            .copied()
            .unwrap_or(0),
        Int::Best(higher, a) => best_of_two(*higher, a, state, frame),
        Int::Choice(column) => usize::from(state.choice)
            .checked_sub(1)
            .and_then(|i| column.get(i))
            .copied()
            .unwrap_or(0),
    }
}

/// A condition inside another: the commonest (an attribute compared with a
/// number) tested here, without a call into [`boolean`].
#[inline(always)]
fn test(e: &Bool, state: &mut State, frame: &Frame<'_>) -> bool {
    match *e {
        Bool::AttrCmp(cmp, r, attr, n) => cmp.test(state.get(frame.roles[r as usize], attr), n),
        ref e => boolean(e, state, frame),
    }
}

/// An operand of an operator: the leaves most operands are (a number, a
/// smart value of a role, `:amount`) read here, without a call into [`int`].
#[inline(always)]
fn operand(e: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    match *e {
        Int::Lit(n) => n,
        Int::Attr(Entity::Role(r), attr) => state.get(frame.roles[r as usize], attr),
        Int::Amount => frame.amount,
        ref e => int(e, state, frame),
    }
}

/// `[count …]` and `[sum …]`: the value summed over the entities of a kind in
/// play for which the condition holds, with `:self` bound to each in turn.
#[cold]
#[inline(never)]
fn sum_over(over: &crate::ast::Over, state: &mut State, frame: &Frame<'_>) -> i64 {
    let mut total = 0i64;
    each_of_kind(state, frame, over.kind, over.outer, |state, inner| {
        if over
            .filter
            .as_ref()
            .is_none_or(|c| boolean(c, state, inner))
        {
            total = total.saturating_add(int(&over.value, state, inner));
        }
    });
    total
}

/// Calls `f` for each entity of `kind` in play, in the order they were added,
/// with the first `outer` roles of `frame` and then `:self`, bound to it.
/// Entities added meanwhile wait for the next run.
#[inline]
fn each_of_kind(
    state: &mut State,
    frame: &Frame<'_>,
    kind: KindId,
    outer: u8,
    mut f: impl FnMut(&mut State, &Frame<'_>),
) {
    let outer = usize::from(outer).min(frame.roles.len());
    with_bindings(&frame.roles[..outer], 1, |roles| {
        let count = state.len() as EntityId;
        for entity in 0..count {
            if state.kind(entity) != Some(kind) {
                continue;
            }
            roles[outer] = entity;
            f(state, &Frame { roles, ..*frame });
        }
    })
}

fn dec(e: &Dec, state: &mut State, frame: &Frame<'_>) -> f64 {
    match e {
        Dec::Lit(d) => *d,
        Dec::Int(i) => int(i, state, frame) as f64,
        Dec::Fold(op, items) => {
            let Some((first, rest)) = items.split_first() else {
                return 0.0;
            };
            let mut acc = dec(first, state, frame);
            for item in rest {
                let v = dec(item, state, frame);
                acc = match op {
                    Arith::Add => acc + v,
                    Arith::Sub => acc - v,
                    Arith::Mul => acc * v,
                    Arith::Min => acc.min(v),
                    Arith::Max => acc.max(v),
                };
            }
            acc
        }
        Dec::Neg(a) => -dec(a, state, frame),
        Dec::Div(a, b) => {
            let (a, b) = (dec(a, state, frame), dec(b, state, frame));
            if b == 0.0 { 0.0 } else { a / b }
        }
        Dec::If(c, a, b) => {
            if boolean(c, state, frame) {
                dec(a, state, frame)
            } else {
                dec(b, state, frame)
            }
        }
    }
}

fn boolean(e: &Bool, state: &mut State, frame: &Frame<'_>) -> bool {
    match e {
        Bool::Lit(b) => *b,
        Bool::AttrCmp(cmp, r, attr, n) => cmp.test(state.get(frame.roles[*r as usize], *attr), *n),
        Bool::CmpInt(cmp, a, b) => {
            let a = operand(a, state, frame);
            cmp.test(a, operand(b, state, frame))
        }
        Bool::CmpDec(cmp, a, b) => {
            let a = dec(a, state, frame);
            cmp.test(a, dec(b, state, frame))
        }
        Bool::And(a, b) => test(a, state, frame) && test(b, state, frame),
        Bool::Or(a, b) => test(a, state, frame) || test(b, state, frame),
        Bool::Not(a) => !test(a, state, frame),
        Bool::If(c, a, b) => {
            if boolean(c, state, frame) {
                boolean(a, state, frame)
            } else {
                boolean(b, state, frame)
            }
        }
        Bool::Same(a, b) => same(a, b, state, frame),
        Bool::Chance(p) => {
            let p = dec(p, state, frame);
            // NaN and out-of-range probabilities clamp: `random_bool` needs 0..=1.
            let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
            state.rng.random_bool(p)
        }
        Bool::Has(has) => {
            let who = entity(&has.0, state, frame);
            status::count(state, who, &has.1, status::Count::Instances) > 0
        }
    }
}

/// The value of an [`Expr`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A decimal.
    Dec(f64),
    /// A truth value.
    Bool(bool),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Dec(d) => write!(f, "{d:?}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl<'b> Frame<'b> {
    /// Bindings outside any effect: for expressions evaluated on their own.
    fn outside(roles: &'b [EntityId]) -> Frame<'b> {
        Frame {
            roles,
            target: 0,
            amount: 0,
        }
    }
}

/// Evaluates any checked expression against a state.
pub fn eval_expr(e: &Expr, state: &mut State, roles: &[EntityId]) -> Value {
    let frame = &Frame::outside(roles);
    match e {
        Expr::Int(i) => Value::Int(int(i, state, frame)),
        Expr::Dec(d) => Value::Dec(dec(d, state, frame)),
        Expr::Bool(b) => Value::Bool(boolean(b, state, frame)),
    }
}

/// Does condition `cond` hold, with role `i` bound to entity `roles[i]`?
/// Dice it rolls wait to be logged with the next change, or dropped by
/// [`State::forget_rolls`].
pub fn holds(cond: &Bool, state: &mut State, roles: &[EntityId]) -> bool {
    boolean(cond, state, &Frame::outside(roles))
}

/// The value of integer expression `e`, with role `i` bound to entity `roles[i]`.
/// Dice it rolls wait as [`holds`]'s do; [`value_logged`] logs them.
pub fn value(e: &Int, state: &mut State, roles: &[EntityId]) -> i64 {
    int(e, state, &Frame::outside(roles))
}

/// The value of `e`, as [`value`], with the dice it rolls pushed to `events`
/// as rolled by `roles[0]`.
pub fn value_logged(
    e: &Int,
    state: &mut State,
    roles: &[EntityId],
    events: &mut Vec<Event>,
) -> i64 {
    let n = int(e, state, &Frame::outside(roles));
    let who = roles.first().copied().unwrap_or(0);
    flush_rolls(state, who, Cause::effect(0), events);
    n
}

/// `[abs a]`, out of line so that `int`'s frame, on the evaluator's recursion path, stays small.
#[inline(never)]
fn abs(a: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    int(a, state, frame).saturating_abs()
}
