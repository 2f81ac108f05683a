//! The state effects change: every entity's attribute values (and their base
//! values where statuses modify them), kinds, active statuses and the seeded
//! generator; and the changes to the turn queue effects ask the engine for.

use rand::SeedableRng;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use super::{Event, Instance};
use crate::check::ast::{AttrId, EntityId, StatusId};
use crate::check::rules::{KindId, RuleSet};
use crate::ids::{OptionId, TimingId, TurnKindId};

/// The most `{:run …}` effects that may run one inside another's hooks:
/// deeper ones do nothing.
pub const MAX_RUN_DEPTH: usize = 8;

/// The timings running one inside another through `{:run …}` effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Running {
    pub(super) timings: [TimingId; MAX_RUN_DEPTH],
    pub(super) len: u8,
}

/// The work one step of a game may do (an action with everything it sets
/// off, a moment's hooks, an entity's turn), and one `eval` or `roll`: each
/// entity an `:each`, `count` or `sum` visits (and each effect of an
/// `:each`'s body it runs), each die rolled, each `advantage` taken and each
/// status acquired costs one. A plain effect list needs none: `check` bounds
/// its length. No bundled game's step comes near it (`docs/RELIABILITY.md`).
/// A rule set may ask for another (`:budgets :work`), up to 100 000 000.
pub const FUEL: u64 = crate::check::rules::budgets::DEFAULT_WORK;

/// The most status instances a state may hold at once, unless the rule set
/// asks for another (`:budgets :statuses`), up to 1 000 000.
pub const MAX_INSTANCES: usize = crate::check::rules::budgets::DEFAULT_STATUSES;

/// Which budget an evaluation ran out of: it stopped there, its work so far
/// kept, and a game ends as aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Exhausted {
    /// More steps of work than the rule set's budget ([`FUEL`] by default).
    Fuel,
    /// More status instances held at once than the rule set's budget
    /// ([`MAX_INSTANCES`] by default).
    Instances,
    /// Removals that set off removals, more than [`MAX_REMOVAL_WAVES`] waves deep.
    Removals,
    /// More entries in a game's turn queue than it may hold (the engine's
    /// `MAX_QUEUE`, 10 000).
    Queue,
    /// More entities than a state may hold ([`MAX_ENTITIES`]).
    Entities,
}

impl Exhausted {
    /// Every budget, in the order tallies count them.
    pub const ALL: [Exhausted; 5] = [
        Exhausted::Fuel,
        Exhausted::Instances,
        Exhausted::Removals,
        Exhausted::Queue,
        Exhausted::Entities,
    ];

    /// Its place in [`Exhausted::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// One word for it, as tables and JSON name it: `work`, `statuses`.
    pub fn word(self) -> &'static str {
        match self {
            Exhausted::Fuel => "work",
            Exhausted::Instances => "statuses",
            Exhausted::Removals => "removals",
            Exhausted::Queue => "queue",
            Exhausted::Entities => "entities",
        }
    }
}

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exhausted::Fuel => write!(
                f,
                "the work budget ran out: one step did more units of work than `:budgets :work` \
                 allows ({FUEL} by default): entities visited by `:each`, `count` or `sum`, dice, \
                 `advantage`, statuses acquired"
            ),
            Exhausted::Instances => write!(
                f,
                "the status budget ran out: more statuses held at once than `:budgets :statuses` \
                 allows ({MAX_INSTANCES} by default; a status that acquires itself?)"
            ),
            Exhausted::Removals => write!(
                f,
                "the removal budget ran out: removals set off removals more than \
                 {MAX_REMOVAL_WAVES} waves deep (an `:on-removed` that makes another fall?)"
            ),
            Exhausted::Queue => write!(
                f,
                "the queue budget ran out: the turn queue would hold more than 10000 \
                 entries (turns or timed entries queued faster than they are taken?)"
            ),
            Exhausted::Entities => write!(
                f,
                "the entity budget ran out: a spawn past {MAX_ENTITIES} entities in one game \
                 (entities spawned faster than they leave play?)"
            ),
        }
    }
}

/// The construct whose effects a step was running when it ran out of a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The rule set's own data: a hook, an action, an operation, a kind's
    /// `:on-removed` or `:on-turn`, a victory condition, a turn order's key.
    Rules,
    /// A status's definition: its hooks, `:on-acquire`, `:on-expire`, `:on-remove`.
    Status(StatusId),
    /// The card at this index of the game's deck.
    Card(usize),
}

/// Where in the data a step ran out of a budget: the innermost effect map
/// that was running, and the construct it belongs to. Both are found on the
/// way out of the evaluation, so finding them costs the running step nothing
/// but a test of [`State::exhausted`] after each effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The construct, once one claimed it; `None` for the caller's own
    /// effects (`eval`'s) or what ran outside any effect (the turn queue).
    pub owner: Option<Owner>,
    /// The innermost effect map running, in its construct's file.
    pub span: Option<crate::check::ast::Span>,
}

/// The generator every chance draws from: PCG-XSH-RR 64/32, a named, portable algorithm.
pub type Rng = Pcg32;

/// The kind an entity has once it is out of play.
pub(super) const GONE: KindId = KindId::MAX;

/// The kind of a card instance in a zone that is not in play (a hand, a
/// deck): no kind's loops, counts or removals see it, and it is not live.
pub(super) const ZONED: KindId = KindId::new(u16::MAX as usize - 1);

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
    pub(super) width: usize,
    pub(super) values: Vec<i64>,
    /// Base values, laid out as `values`; empty when no status modifies any attribute.
    pub(super) base: Vec<i64>,
    /// Each entity's kind; [`GONE`] once it is out of play, [`ZONED`] for a
    /// card instance in a zone not in play.
    pub(super) kinds: Vec<KindId>,
    /// Active statuses, in the order they were acquired.
    pub(super) instances: Vec<Instance>,
    /// The number the next instance gets.
    pub(super) serial: u32,
    /// How many status effect lists are running, one inside another.
    #[serde(skip)]
    pub(super) depth: u8,
    /// The timings running one inside another through `{:run …}` effects.
    #[serde(skip)]
    pub(super) running: Running,
    /// The generator chance draws from; part of the state so that games replay exactly.
    pub rng: Rng,
    /// Dice rolled while an amount was computed, waiting to be logged with
    /// the change they feed (empty between effects).
    #[serde(skip)]
    pub(super) rolls: Vec<Event>,
    /// The arguments of the formulas being evaluated, innermost last.
    #[serde(skip)]
    pub(super) args: Vec<i64>,
    /// Where the innermost formula's arguments start in `args`.
    #[serde(skip)]
    pub(super) arg_base: usize,
    /// Changes to the turn queue that effects asked for, in order, for the
    /// engine to make (`{:queue …}`); outside a game nothing takes them.
    #[serde(skip)]
    pub queued: Vec<QueueRequest>,
    /// The roles of the timed entries in `queued`, one list after another
    /// (each request says where its list is), so queuing allocates nothing.
    #[serde(skip)]
    pub queued_roles: Vec<EntityId>,
    /// The option chosen for the action being used, if any (what `[choice …]` reads).
    #[serde(skip)]
    pub choice: Option<OptionId>,
    /// Work left before the step running stops (`tank` at each step's start).
    #[serde(skip, default = "full_tank")]
    pub(super) fuel: u64,
    /// The work each step may do: the rule set's budget.
    #[serde(skip, default = "full_tank")]
    pub(super) tank: u64,
    /// The statuses the state may hold at once: the rule set's budget.
    #[serde(skip, default = "status_room")]
    pub(super) max_instances: usize,
    /// The budget the step running ran out of, if it did.
    #[serde(skip)]
    pub(super) exhausted: Option<Exhausted>,
    /// Where it ran out, as far as found.
    #[serde(skip)]
    pub(super) stopped_at: Place,
    /// Where each card instance is, in a game with `:zones`; `None` otherwise
    /// (Arcomage: its cards are the engine's, and copying a state stays cheap).
    #[serde(skip)]
    pub cards: Option<Box<super::zones::CardTable>>,
    /// The numbers of the event a trigger or a metric is read for now:
    /// `[event :amount]`, `[event :position]` (0 outside one). Kept here,
    /// not with the cards: a metric reads them in a game without `:zones`.
    #[serde(skip)]
    event: [i64; 2],
}

fn full_tank() -> u64 {
    FUEL
}

fn status_room() -> usize {
    MAX_INSTANCES
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
        kind: TurnKindId,
        /// How many.
        count: u32,
    },
    /// A timed entry after `after` reorders that runs `timing` for `entity`,
    /// with the rule set's roles bound as where it was queued.
    Timed {
        /// The timing it runs.
        timing: TimingId,
        /// For whom (`:self` in its hooks).
        entity: EntityId,
        /// Reorders before it.
        after: u32,
        /// Where the rule set's roles where it was queued are in
        /// [`State::queued_roles`]: from the first index to the second.
        roles: (u32, u32),
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
            queued_roles: Vec::new(),
            choice: self.choice,
            fuel: self.fuel,
            tank: self.tank,
            max_instances: self.max_instances,
            exhausted: self.exhausted,
            stopped_at: self.stopped_at,
            cards: self.cards.clone(),
            event: self.event,
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
        self.queued_roles.clear();
        self.choice = source.choice;
        self.fuel = source.fuel;
        self.tank = source.tank;
        self.max_instances = source.max_instances;
        self.exhausted = source.exhausted;
        self.stopped_at = source.stopped_at;
        self.event = source.event;
        if self.cards.is_some() || source.cards.is_some() {
            self.clone_cards(source);
        }
    }
}

impl State {
    /// Copies `source`'s card table into this one's buffers: only games with `:zones` have one.
    #[cold]
    fn clone_cards(&mut self, source: &State) {
        match (&mut self.cards, &source.cards) {
            (Some(mine), Some(theirs)) => mine.clone_from(theirs),
            (mine, theirs) => mine.clone_from(theirs),
        }
    }

    /// Drops the dice rolled outside effects ([`value`](super::value), [`holds`](super::holds)), which
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
            queued_roles: Vec::new(),
            choice: None,
            fuel: rules.work_budget,
            tank: rules.work_budget,
            max_instances: rules.status_budget,
            exhausted: None,
            stopped_at: Place::default(),
            cards: None,
            event: [0; 2],
        };
        for _ in 0..entities {
            state.add(rules, KindId::FIRST);
        }
        state
    }

    /// Takes `n` units of work from the step's budget; false (and the
    /// budget marked exhausted) when there is not that much left, so that the
    /// caller stops what it fans out.
    #[inline]
    pub(super) fn spend(&mut self, n: u64) -> bool {
        match self.fuel.checked_sub(n) {
            Some(left) => {
                self.fuel = left;
                true
            }
            None => {
                self.fuel = 0;
                self.exhausted.get_or_insert(Exhausted::Fuel);
                false
            }
        }
    }

    /// Marks the step running as out of budget `why` (the first reason stays).
    pub fn exhaust(&mut self, why: Exhausted) {
        self.exhausted.get_or_insert(why);
    }

    /// Whether the step running has run out of a budget.
    #[inline]
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.exhausted
    }

    /// Where the step running ran out of its budget, as far as found (see [`Place`]).
    pub fn stopped_at(&self) -> Place {
        self.stopped_at
    }

    /// After effect `span` ran: if the step ran out of budget inside it and
    /// no effect nearer the cause was named, it is the place.
    #[inline(always)]
    pub(super) fn blame_effect(&mut self, span: crate::check::ast::Span) {
        if self.exhausted.is_some() {
            self.name_effect(span);
        }
    }

    #[cold]
    #[inline(never)]
    fn name_effect(&mut self, span: crate::check::ast::Span) {
        let at = &mut self.stopped_at;
        if at.owner.is_none() && at.span.is_none() {
            at.span = Some(span);
        }
    }

    /// After the effects of `owner` ran: if the step ran out of budget and no
    /// construct nearer the cause claimed it, `owner` is where it did.
    #[inline(always)]
    pub fn claim(&mut self, owner: Owner) {
        if self.exhausted.is_some() {
            self.name_owner(owner);
        }
    }

    #[cold]
    #[inline(never)]
    fn name_owner(&mut self, owner: Owner) {
        self.stopped_at.owner.get_or_insert(owner);
    }

    /// A new step begins with a full budget; what the last ran out of, if
    /// anything, is returned and forgotten, with where.
    #[inline]
    pub fn refuel(&mut self) -> Option<(Exhausted, Place)> {
        self.fuel = self.tank;
        let why = self.exhausted.take()?;
        Some((why, std::mem::take(&mut self.stopped_at)))
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
        self.queued_roles.clear();
        self.tank = rules.work_budget;
        self.max_instances = rules.status_budget;
        self.fuel = self.tank;
        self.exhausted = None;
        self.stopped_at = Place::default();
        self.event = [0; 2];
        for _ in 0..entities {
            self.add(rules, KindId::FIRST);
        }
    }

    /// A number of the event a trigger or a metric is read for now (0 outside one).
    #[inline]
    pub fn event_number(&self, field: crate::check::ast::EventField) -> i64 {
        self.event[field as usize]
    }

    /// Sets the numbers of the event a trigger or a metric is about to be
    /// read for (amount, position).
    pub fn set_event(&mut self, amount: i64, position: i64) {
        self.event = [amount, position];
    }

    /// Calls `f` on this state as an observer reads it, with a full work
    /// budget of its own: the work `f` does and a budget it runs out of are
    /// forgotten after, so reading a metric never changes how a game plays.
    pub fn aside<R>(&mut self, f: impl FnOnce(&mut State) -> R) -> R {
        let saved = (self.fuel, self.exhausted.take(), self.stopped_at);
        self.fuel = self.tank;
        let out = f(self);
        (self.fuel, self.exhausted, self.stopped_at) = saved;
        self.forget_rolls();
        out
    }

    /// Adds the rule set's `:setup` entities, in order, with their values: what
    /// every game starts with after its seats.
    pub fn add_setup(&mut self, rules: &RuleSet) {
        for entity in rules.setup_entities() {
            let id = match entity.seat {
                // A seat's values, when the state has that seat.
                Some(seat) if seat < rules.seats.len() && seat < self.len() => EntityId::new(seat),
                Some(_) => continue,
                None => self.add(rules, entity.kind),
            };
            for &(attr, value) in &entity.values {
                self.put(id, attr, value);
            }
            // Drawn in setup order, so the same seed sets the same fight up.
            for &(attr, lo, hi) in &entity.drawn {
                let value = rand::RngExt::random_range(&mut self.rng, lo..=hi);
                self.put(id, attr, value);
            }
        }
    }

    /// Adds an entity of `kind` with the rule set's defaults; its number is the next one.
    pub fn add(&mut self, rules: &RuleSet, kind: KindId) -> EntityId {
        let id = EntityId::new(self.kinds.len());
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
        if let Some(kind) = self.kinds.get_mut(entity.index()) {
            *kind = GONE;
            self.instances.retain(|i| i.holder != entity);
        }
    }

    /// Whether `entity` is a card instance in a zone that is not in play (a
    /// hand, a deck): out of play, but in the game.
    pub fn is_zoned(&self, entity: EntityId) -> bool {
        self.kinds.get(entity.index()) == Some(&ZONED)
    }

    /// Whether `entity` exists and is still in play.
    pub fn is_live(&self, entity: EntityId) -> bool {
        self.kind(entity).is_some()
    }

    /// The kind of `entity`, if it exists and is still in play.
    pub fn kind(&self, entity: EntityId) -> Option<KindId> {
        // Above every kind a rule set declares: `ZONED`, then `GONE`.
        self.kinds
            .get(entity.index())
            .copied()
            .filter(|&k| k < ZONED)
    }

    /// The entities of `kind` still in play, in the order they were added.
    pub fn of_kind(&self, kind: KindId) -> impl Iterator<Item = EntityId> + '_ {
        EntityId::below(self.kinds.len()).filter(move |&e| self.kinds[e.index()] == kind)
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
        self.values[entity.index() * self.width + attr.index()]
    }

    /// Sets a value directly, without bounds, modifiers or events: for building
    /// states (its base too, where statuses modify it).
    pub fn put(&mut self, entity: EntityId, attr: AttrId, value: i64) {
        let at = entity.index() * self.width + attr.index();
        self.values[at] = value;
        if !self.base.is_empty() {
            self.base[at] = value;
        }
    }

    /// Adds `by` to a value (and its base, where statuses modify it), without
    /// bounds, modifiers or events, wrapping: so that adding `-by` after it
    /// gives back exactly what was there. For reading a state with a change
    /// taken back for a moment (a delayed action's cost, while it is checked again).
    pub fn shift(&mut self, entity: EntityId, attr: AttrId, by: i64) {
        let at = entity.index() * self.width + attr.index();
        self.values[at] = self.values[at].wrapping_add(by);
        if let Some(base) = self.base.get_mut(at) {
            *base = base.wrapping_add(by);
        }
    }

    /// The value of `attr` of `entity` before status modifiers.
    pub fn base(&self, entity: EntityId, attr: AttrId) -> i64 {
        let at = entity.index() * self.width + attr.index();
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
        let at = entity.index() * self.width;
        &self.values[at..at + self.width]
    }
}

/// The most statuses that may be acquired one inside another's effects (a
/// status whose on-acquire effects acquire another): deeper ones do nothing,
/// so two statuses that acquire each other cannot loop.
pub const MAX_STATUS_DEPTH: u8 = 8;

/// The most waves of removals one check runs: an entity's `:on-removed`
/// effects may make others fall, which run theirs, and so on, this deep.
pub const MAX_REMOVAL_WAVES: usize = 16;

/// The most entities a state may hold: a `{:spawn …}` past it does nothing
/// and marks the step out of budget ([`Exhausted::Entities`]), so a hook that
/// spawns every turn cannot exhaust memory, and a game says why it stopped.
pub const MAX_ENTITIES: usize = 100_000;
