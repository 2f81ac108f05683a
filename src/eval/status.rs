//! Statuses on entities: acquiring one (through blocks and stacking), the
//! values its modifiers make, dispels and duration changes, its hooks at
//! timings, and its end by running out or by removal.
//!
//! Instances live in one list per state, in acquisition order, which is what
//! "oldest" and "newest" mean. Each carries what filters match on (polarity,
//! category, flags), so a query such as `[statuses :you :debuff]` reads the
//! list alone, as cheaply as it can be read.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::{
    Cause, Change, CompiledEffects, Event, Frame, MAX_STATUS_DEPTH, Program, State, What, dec, int,
    run, with_bindings,
};
use crate::check::ast::{
    AttrId, CategoryId, Effect, EntityId, Filter, Pick, Polarity, StatusDef, StatusId, StatusOp,
};
use crate::check::rules::RuleSet;
use crate::ids::{FlagId, TimingId};

/// Turns left of a status that lasts until it is removed.
pub const FOREVER: u32 = u32::MAX;

/// Blocks left of a status that blocks without limit.
const UNLIMITED: u16 = u16::MAX;

/// A status held by an entity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instance {
    /// Which status.
    pub status: StatusId,
    /// The entity it is on.
    pub holder: EntityId,
    /// The entity that applied it.
    pub source: EntityId,
    /// What it was acquired with (the amount of the effect that applied it).
    pub magnitude: i64,
    /// Counts of its timing left before it runs out; [`FOREVER`] if it does not.
    pub left: u32,
    /// Its stacks (1 unless it stacks).
    pub stacks: u8,
    /// Statuses it may still block; `u16::MAX` without limit.
    pub charges: u16,
    /// Its number in the state, in acquisition order; never reused.
    pub serial: u32,
    /// How many of its `:segments` have run (0 for a status without).
    #[serde(default)]
    pub segments_run: u16,
    polarity: Polarity,
    category: Option<CategoryId>,
    /// Bit `i` set: it sets flag `i`.
    flags: u64,
}

impl Instance {
    /// Does it match `filter`?
    #[inline]
    pub fn matches(&self, filter: &Filter) -> bool {
        filter.status.is_none_or(|s| s == self.status)
            && (filter.categories == 0
                || self
                    .category
                    .is_some_and(|c| filter.categories & crate::check::ast::category_bit(c) != 0))
            && filter.polarity.is_none_or(|p| self.polarity == p)
            && filter.flag.is_none_or(|f| self.flags & flag_bit(f) != 0)
    }

    /// Which status, on whom, from whom, with what: what its effects are run with.
    fn held(&self) -> Held {
        Held {
            status: self.status,
            holder: self.holder,
            source: self.source,
            magnitude: self.magnitude,
        }
    }

    /// Turns left, for people and JSON: `None` for a status that does not run out.
    pub fn turns_left(&self) -> Option<u32> {
        (self.left != FOREVER).then_some(self.left)
    }
}

/// What a status's effects run with: `:holder`, `:source`, `:magnitude`, and
/// the status their changes are caused by.
#[derive(Clone, Copy)]
struct Held {
    status: StatusId,
    holder: EntityId,
    source: EntityId,
    magnitude: i64,
}

fn flag_bit(flag: FlagId) -> u64 {
    1u64.checked_shl(flag.index() as u32).unwrap_or(0)
}

/// What happened to a status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StatusChange {
    /// A new instance.
    Acquired,
    /// Acquired again: its turns left were reset.
    Refreshed,
    /// Acquired again: one more stack.
    Stacked,
    /// Not acquired: a status its holder has blocked it.
    Blocked,
    /// Not acquired: a status its holder has sent it back to its source.
    Reflected,
    /// Its turns left changed (`:extend`), or counted down at its timing.
    Extended,
    /// It ran out.
    Expired,
    /// It was removed before running out (a dispel, or its `:removed-when`).
    Removed,
    /// One of its segments ran: the event's `before` is its number (from 1),
    /// `after` how many there are.
    Segment,
}

/// What a status query adds up.
pub(super) enum Count {
    /// How many instances match.
    Instances,
    /// Their turns left, summed.
    TurnsLeft,
}

/// Counts `entity`'s statuses that match `filter`.
#[inline]
pub(super) fn count(state: &State, entity: EntityId, filter: &Filter, what: Count) -> i64 {
    let matching = state
        .instances
        .iter()
        .filter(|i| i.holder == entity && i.matches(filter));
    match what {
        Count::Instances => matching.count() as i64,
        Count::TurnsLeft => matching
            .map(|i| i64::from(i.turns_left().unwrap_or(0)))
            .sum(),
    }
}

/// The number of turns left, as an event carries it: −1 for "until removed".
fn shown(left: u32) -> i64 {
    if left == FOREVER { -1 } else { i64::from(left) }
}

/// Applies a status change an effect makes. Out of line, so the plain
/// attribute change in the evaluator's loop stays small.
#[inline(never)]
pub(super) fn change(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    change: &Change,
    op: &StatusOp,
    events: &mut Vec<Event>,
) {
    let cx = Context {
        rules,
        roles: frame.roles.get(..rules.roles.len()).unwrap_or(frame.roles),
        cause: change.cause,
    };
    let entity = change.entity;
    match op {
        StatusOp::Acquire { status, lasts } => {
            let lasts = lasts.as_ref().map(|l| int(l, state, frame));
            // The source is the entity the first role names: the actor.
            let source = cx.roles.first().copied().unwrap_or(entity);
            cx.acquire(state, entity, source, *status, change.amount, lasts, events);
        }
        StatusOp::Dispel { filter, pick } => {
            let times = match pick {
                Pick::All => u32::MAX,
                _ => u32::try_from(change.amount.max(0)).unwrap_or(u32::MAX),
            };
            for _ in 0..times {
                let Some(serial) = choose(state, entity, filter, *pick) else {
                    break;
                };
                // The removal is the dispel's doing: its events name the
                // status or card whose effect dispelled, not the one removed.
                cx.end_as(
                    state,
                    serial,
                    0,
                    StatusChange::Removed,
                    Some(cx.cause),
                    events,
                );
            }
        }
        StatusOp::Extend { filter } => {
            let mut after = None;
            while let Some(serial) = next_matching(state, entity, filter, after) {
                after = Some(serial);
                cx.extend(state, serial, 0, change.amount, events);
            }
        }
    }
}

/// The serial of the first instance after `after` (in acquisition order) that
/// `entity` holds and that matches `filter`.
fn next_matching(
    state: &State,
    entity: EntityId,
    filter: &Filter,
    after: Option<u32>,
) -> Option<u32> {
    state
        .instances
        .iter()
        .find(|i| after.is_none_or(|a| i.serial > a) && i.holder == entity && i.matches(filter))
        .map(|i| i.serial)
}

/// Which of `entity`'s matching statuses a dispel takes next.
fn choose(state: &mut State, entity: EntityId, filter: &Filter, pick: Pick) -> Option<u32> {
    let mut matching = state
        .instances
        .iter()
        .filter(|i| i.holder == entity && i.matches(filter));
    let found = match pick {
        Pick::Oldest | Pick::All => matching.next(),
        Pick::Newest => matching.next_back(),
        // `max_by_key` keeps the last of equals, `min_by_key` the first: the
        // oldest of equals is wanted both ways, so "most" compares reversed.
        Pick::MostLeft => matching.min_by_key(|i| std::cmp::Reverse(i.left)),
        Pick::LeastLeft => matching.min_by_key(|i| i.left),
        Pick::Random => {
            let n = matching.count();
            if n == 0 {
                return None;
            }
            let k = state.rng.random_range(0..n);
            return state
                .instances
                .iter()
                .filter(|i| i.holder == entity && i.matches(filter))
                .nth(k)
                .map(|i| i.serial);
        }
    };
    found.map(|i| i.serial)
}

/// A status's effect list: as checked, or compiled (a game's hooks).
#[derive(Clone, Copy)]
enum Effects<'a> {
    Tree(&'a [Effect]),
    Compiled(&'a Program, &'a CompiledEffects),
}

impl Effects<'_> {
    fn is_empty(&self) -> bool {
        match self {
            Effects::Tree(effects) => effects.is_empty(),
            Effects::Compiled(_, code) => code.is_empty(),
        }
    }
}

/// Where a status change happens: the rule set, the roles of the turn, and
/// the cause its events carry.
#[derive(Clone, Copy)]
struct Context<'r> {
    rules: &'r RuleSet,
    /// The rule set's roles, bound as in the effect or turn that made the change.
    roles: &'r [EntityId],
    cause: Cause,
}

impl<'r> Context<'r> {
    /// A change no effect list made (a tool's, a timing's): its events carry effect 0.
    fn outside(rules: &'r RuleSet, roles: &'r [EntityId]) -> Context<'r> {
        Context {
            rules,
            roles,
            cause: Cause::effect(0),
        }
    }

    /// `holder` acquires `status` from `source`, through its blocks and the
    /// status's stacking, and runs its on-acquire effects.
    #[allow(clippy::too_many_arguments)]
    fn acquire(
        &self,
        state: &mut State,
        holder: EntityId,
        source: EntityId,
        status: StatusId,
        magnitude: i64,
        lasts: Option<i64>,
        events: &mut Vec<Event>,
    ) {
        let rules = self.rules;
        let Some(def) = rules.status_defs.get(status) else {
            return;
        };
        if state.depth >= MAX_STATUS_DEPTH || !state.is_live(holder) || !state.spend(1) {
            return;
        }
        let cause = self.cause.by_status(status);
        if self.blocked(state, holder, source, status, def, magnitude, events) {
            return;
        }
        let left = match lasts {
            Some(n) => u32::try_from(n.max(0)).unwrap_or(FOREVER - 1),
            None => def.lasts.map_or(FOREVER, |(n, _)| n),
        };
        if left == 0 {
            return;
        }
        let existing = state
            .instances
            .iter()
            .position(|i| i.holder == holder && i.status == status);
        let stack_limit = match def.stacking {
            crate::check::ast::Stacking::Independent => None,
            crate::check::ast::Stacking::Refresh => Some(1),
            crate::check::ast::Stacking::Stack(n) => Some(n),
        };
        let held = Held {
            status,
            holder,
            source,
            magnitude,
        };
        let (change, before, after) = match (existing, stack_limit) {
            (Some(k), Some(limit)) => {
                let inst = &mut state.instances[k];
                let (was_left, stacks) = (inst.left, inst.stacks);
                inst.left = left;
                inst.magnitude = magnitude;
                // Its turns start over, and so do its segments.
                inst.segments_run = 0;
                if stacks < limit {
                    inst.stacks += 1;
                    let (from, to) = (i64::from(stacks), i64::from(stacks + 1));
                    (StatusChange::Stacked, from, to)
                } else {
                    (StatusChange::Refreshed, shown(was_left), shown(left))
                }
            }
            _ => {
                if state.instances.len() >= state.max_instances {
                    state
                        .exhausted
                        .get_or_insert(super::state::Exhausted::Instances);
                    return;
                }
                let serial = state.serial;
                state.serial = state.serial.wrapping_add(1);
                state.instances.push(Instance {
                    status,
                    holder,
                    source,
                    magnitude,
                    left,
                    stacks: 1,
                    charges: def
                        .blocks
                        .as_ref()
                        .and_then(|b| b.charges)
                        .unwrap_or(UNLIMITED),
                    serial,
                    segments_run: 0,
                    polarity: def.polarity,
                    category: def.category,
                    flags: def.flags.iter().fold(0, |m, &f| m | flag_bit(f)),
                });
                (StatusChange::Acquired, 0, shown(left))
            }
        };
        events.push(Event {
            entity: holder,
            what: What::Status(status, change),
            before,
            after,
            cause,
        });
        self.recompute_for(state, holder, def, cause, events);
        // A new instance or stack is acquired; a refresh only resets the turns left.
        if change != StatusChange::Refreshed {
            self.run_effects(state, Effects::Tree(&def.on_acquire), held, events);
        }
    }

    /// Whether one of `holder`'s statuses blocks `status` (rolling its chance,
    /// using a charge, sending it back to `source` if it reflects).
    #[allow(clippy::too_many_arguments)]
    fn blocked(
        &self,
        state: &mut State,
        holder: EntityId,
        source: EntityId,
        status: StatusId,
        def: &StatusDef,
        magnitude: i64,
        events: &mut Vec<Event>,
    ) -> bool {
        let rules = self.rules;
        let mut k = 0;
        while k < state.instances.len() {
            let inst = state.instances[k];
            k += 1;
            if inst.holder != holder {
                continue;
            }
            let Some(block) = &rules.status_defs[inst.status].blocks else {
                continue;
            };
            let incoming = Instance {
                status,
                polarity: def.polarity,
                category: def.category,
                flags: def.flags.iter().fold(0, |m, &f| m | flag_bit(f)),
                ..inst
            };
            if !incoming.matches(&block.filter) {
                continue;
            }
            if let Some(p) = &block.chance {
                let roles = [inst.holder, inst.source];
                let frame = status_frame(&roles, inst.magnitude);
                let p = dec(p, state, &frame);
                let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
                if !state.rng.random_bool(p) {
                    continue;
                }
            }
            let reflect = block.reflect && source != holder;
            events.push(Event {
                entity: holder,
                what: What::Status(
                    status,
                    if reflect {
                        StatusChange::Reflected
                    } else {
                        StatusChange::Blocked
                    },
                ),
                before: 0,
                after: 0,
                cause: self.cause.by_status(inst.status),
            });
            if inst.charges != UNLIMITED {
                let left = inst.charges.saturating_sub(1);
                state.instances[k - 1].charges = left;
                if left == 0 {
                    self.end(state, inst.serial, 0, StatusChange::Expired, events);
                }
            }
            if reflect {
                state.depth += 1;
                self.acquire(state, source, holder, status, magnitude, None, events);
                state.depth -= 1;
            }
            return true;
        }
        false
    }

    /// Adds `by` to the turns left of the instance numbered `serial`, which
    /// is likely at index `hint`; at 0 it runs out.
    fn extend(
        &self,
        state: &mut State,
        serial: u32,
        hint: usize,
        by: i64,
        events: &mut Vec<Event>,
    ) {
        let Some(k) = locate(&state.instances, serial, hint) else {
            return;
        };
        let inst = &mut state.instances[k];
        if inst.left == FOREVER {
            return;
        }
        let before = inst.left;
        let after = (i64::from(before) + by).clamp(0, i64::from(FOREVER - 1)) as u32;
        if after == before {
            return;
        }
        inst.left = after;
        let status = inst.status;
        events.push(Event {
            entity: inst.holder,
            what: What::Status(status, StatusChange::Extended),
            before: i64::from(before),
            after: i64::from(after),
            cause: self.cause.by_status(status),
        });
        if after == 0 {
            self.end(state, serial, k, StatusChange::Expired, events);
        }
    }

    /// Ends the instance numbered `serial` (likely at index `hint`): it ran
    /// out (its `:on-expire` runs) or was removed (its `:on-remove` runs).
    /// Its events are the status's own doing.
    fn end(
        &self,
        state: &mut State,
        serial: u32,
        hint: usize,
        how: StatusChange,
        events: &mut Vec<Event>,
    ) {
        self.end_as(state, serial, hint, how, None, events);
    }

    /// [`Context::end`], its event made by `by` (by the instance's own
    /// status, without). The values that change as its modifiers end are
    /// the status's own doing either way: logs name it beside them.
    fn end_as(
        &self,
        state: &mut State,
        serial: u32,
        hint: usize,
        how: StatusChange,
        by: Option<Cause>,
        events: &mut Vec<Event>,
    ) {
        let Some(k) = locate(&state.instances, serial, hint) else {
            return;
        };
        let inst = state.instances.remove(k);
        let def = &self.rules.status_defs[inst.status];
        let cause = self.cause.by_status(inst.status);
        events.push(Event {
            entity: inst.holder,
            what: What::Status(inst.status, how),
            before: shown(inst.left),
            after: 0,
            cause: by.unwrap_or(cause),
        });
        self.recompute_for(state, inst.holder, def, cause, events);
        let effects = match how {
            StatusChange::Expired => &def.on_expire,
            _ => &def.on_remove,
        };
        self.run_effects(state, Effects::Tree(effects), inst.held(), events);
    }

    /// Runs the next segment of the instance numbered `serial` (of status
    /// `def`), if it is still held and has one left; whether the segment
    /// acquired the status again, starting its segments over.
    fn run_segment(
        &self,
        state: &mut State,
        serial: u32,
        def: &StatusDef,
        events: &mut Vec<Event>,
    ) -> bool {
        let Some(inst) = state.instances.iter_mut().find(|i| i.serial == serial) else {
            return false;
        };
        let k = usize::from(inst.segments_run);
        let Some(effects) = def.segments.get(k) else {
            return false;
        };
        inst.segments_run += 1;
        let inst = *inst;
        events.push(Event {
            entity: inst.holder,
            what: What::Status(inst.status, StatusChange::Segment),
            before: k as i64 + 1,
            after: def.segments.len() as i64,
            cause: self.cause.by_status(inst.status),
        });
        self.run_effects(state, Effects::Tree(effects), inst.held(), events);
        state
            .instances
            .iter()
            .any(|i| i.serial == serial && i.segments_run == 0)
    }

    /// Works out again the attributes `def` modifies on `holder`.
    fn recompute_for(
        &self,
        state: &mut State,
        holder: EntityId,
        def: &StatusDef,
        cause: Cause,
        events: &mut Vec<Event>,
    ) {
        for m in &def.modifiers {
            recompute(self.rules, state, holder, m.attr, cause, events);
        }
    }

    /// Runs one of a status's effect lists, with `:holder`, `:source` and `:magnitude` bound.
    fn run_effects(
        &self,
        state: &mut State,
        effects: Effects<'_>,
        held: Held,
        events: &mut Vec<Event>,
    ) {
        let Held {
            status,
            holder,
            source,
            magnitude,
        } = held;
        if effects.is_empty() {
            return;
        }
        // The roles of the turn, then the holder and the source.
        let n = self.roles.len();
        with_bindings(self.roles, 2, |roles| {
            roles[n] = holder;
            roles[n + 1] = source;
            let frame = Frame {
                roles,
                target: holder,
                amount: magnitude,
            };
            let cause = self.cause.by_status(status);
            state.depth += 1;
            match effects {
                Effects::Tree(effects) => {
                    run::<true>(self.rules, effects, state, &frame, events, Some(cause));
                }
                Effects::Compiled(program, code) => {
                    program.run_held(self.rules, code, state, &frame, cause, events);
                }
            }
            state.claim(super::state::Owner::Status(status));
            state.depth -= 1;
        })
    }
}

/// The frame a status's modifiers and block chances are computed in: only
/// `:holder` and `:source` are bound, as roles 0 and 1.
fn status_frame(roles: &[EntityId; 2], magnitude: i64) -> Frame<'_> {
    Frame {
        roles,
        target: roles[0],
        amount: magnitude,
    }
}

/// Works out the value effects see of `entity`'s `attr`, which statuses
/// modify: `clamp(floor((base + Σ add) × Π mul), min, max)`, each modifier
/// once per stack. Pushes an event if the value changed.
pub(super) fn recompute(
    rules: &RuleSet,
    state: &mut State,
    entity: EntityId,
    attr: AttrId,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let at = entity.index() * state.width + attr.index();
    let Some(&base) = state.base.get(at) else {
        return;
    };
    let mut add = 0i64;
    let mut mul = 1.0f64;
    let mut multiplied = false;
    let mut k = 0;
    while k < state.instances.len() {
        let inst = state.instances[k];
        k += 1;
        if inst.holder != entity {
            continue;
        }
        let def = &rules.status_defs[inst.status];
        for m in def.modifiers.iter().filter(|m| m.attr == attr) {
            let roles = [inst.holder, inst.source];
            let frame = status_frame(&roles, inst.magnitude);
            let stacks = i64::from(inst.stacks);
            if let Some(a) = &m.add {
                add = add.saturating_add(int(a, state, &frame).saturating_mul(stacks));
            }
            if let Some(x) = &m.mul {
                mul *= dec(x, state, &frame).powi(i32::from(inst.stacks));
                multiplied = true;
            }
        }
    }
    let sum = base.saturating_add(add);
    // `as` saturates at the i64 limits and maps NaN to 0.
    let raw = if multiplied {
        (sum as f64 * mul).floor() as i64
    } else {
        sum
    };
    let bounds = rules.bounds[attr];
    super::change_value(state, bounds, entity, attr, true, raw, cause, events);
}

/// `holder` acquires `status` from `source` with `magnitude`, as an
/// `{:acquire …}` effect would, with the rule set's roles bound to `roles`:
/// for tools and the engine (`eval --status`).
#[allow(clippy::too_many_arguments)]
pub fn acquire(
    rules: &RuleSet,
    state: &mut State,
    roles: &[EntityId],
    holder: EntityId,
    source: EntityId,
    status: StatusId,
    magnitude: i64,
    events: &mut Vec<Event>,
) {
    let cx = Context::outside(rules, roles);
    cx.acquire(state, holder, source, status, magnitude, None, events);
}

/// [`acquire`] by `(holder, source)`, with `left` turns left if given,
/// instead of what the status's definition says (a scenario's
/// `{:hero {:power 1}}`).
#[allow(clippy::too_many_arguments)]
pub fn acquire_lasting(
    rules: &RuleSet,
    state: &mut State,
    roles: &[EntityId],
    (holder, source): (EntityId, EntityId),
    status: StatusId,
    magnitude: i64,
    left: Option<u32>,
    events: &mut Vec<Event>,
) {
    let cx = Context::outside(rules, roles);
    let lasts = left.map(i64::from);
    cx.acquire(state, holder, source, status, magnitude, lasts, events);
}

/// Ends the instance numbered `serial` as removed (its `:on-remove` runs), with
/// the rule set's roles bound to `roles`.
pub fn end_status(
    rules: &RuleSet,
    state: &mut State,
    roles: &[EntityId],
    serial: u32,
    events: &mut Vec<Event>,
) {
    let cx = Context::outside(rules, roles);
    cx.end(state, serial, 0, StatusChange::Removed, events);
}

/// Drops every instance `keep` refuses, as if it had never been acquired:
/// no event, no `:on-remove`, and the values its modifiers changed left as
/// they are (what a seat that cannot see it sees). Whether any was dropped.
/// For a world dealt from what one seat sees (`engine::Game::determinise`).
pub fn forget_statuses(state: &mut State, mut keep: impl FnMut(&Instance) -> bool) -> bool {
    let before = state.instances.len();
    state.instances.retain(|i| keep(i));
    state.instances.len() != before
}

/// Removes every status whose `:removed-when` holds (its `:on-remove` runs,
/// with the rule set's roles bound to `roles`), in acquisition order;
/// whether any was.
pub(super) fn remove_unbound(
    rules: &RuleSet,
    state: &mut State,
    roles: &[EntityId],
    events: &mut Vec<Event>,
) -> bool {
    let cx = Context::outside(rules, roles);
    // Statuses acquired meanwhile (an `:on-remove` that acquires one) wait
    // for the caller's next wave, so a status that re-acquires itself cannot loop.
    let end = state.serial;
    let mut after: Option<u32> = None;
    let mut any = false;
    loop {
        let found = state.instances.iter().copied().find(|i| {
            after.is_none_or(|a| i.serial > a)
                && i.serial < end
                && rules.status_defs[i.status].removed_when.is_some()
        });
        let Some(inst) = found else {
            return any;
        };
        after = Some(inst.serial);
        let def = &rules.status_defs[inst.status];
        let roles = [inst.holder, inst.source];
        let frame = status_frame(&roles, inst.magnitude);
        if def
            .removed_when
            .as_ref()
            .is_some_and(|c| super::boolean(c, state, &frame))
        {
            cx.end(state, inst.serial, 0, StatusChange::Removed, events);
            any = true;
        }
    }
}

/// Runs timing `timing` for statuses: the hook each status has there, then its
/// countdown if it lasts by that timing, status by status in acquisition order.
/// Only statuses held by `holder` take part, or every one when `holder` is
/// `None`; statuses acquired meanwhile wait for the timing's next run.
pub fn run_status_timing(
    rules: &RuleSet,
    state: &mut State,
    timing: TimingId,
    holder: Option<EntityId>,
    roles: &[EntityId],
    events: &mut Vec<Event>,
) {
    statuses_at(rules, None, state, timing, holder, roles, events);
}

/// [`run_status_timing`], the statuses' hooks run compiled when `program` is given.
pub(super) fn statuses_at(
    rules: &RuleSet,
    program: Option<&Program>,
    state: &mut State,
    timing: TimingId,
    holder: Option<EntityId>,
    roles: &[EntityId],
    events: &mut Vec<Event>,
) {
    let cx = Context::outside(rules, roles);
    let end = state.serial;
    let mut after: Option<u32> = None;
    // Where to look: the list is in serial order, so the next is after the
    // last one unless effects removed that one or instances before it.
    let mut from = 0;
    loop {
        if let Some(a) = after {
            from = match state.instances.get(from) {
                Some(i) if i.serial == a => from + 1,
                Some(i) if i.serial < a => from,
                _ => 0,
            };
        }
        let Some((k, inst)) = state.instances[from..]
            .iter()
            .enumerate()
            .find(|(_, i)| {
                after.is_none_or(|a| i.serial > a)
                    && i.serial < end
                    && holder.is_none_or(|h| i.holder == h)
            })
            .map(|(k, i)| (from + k, *i))
        else {
            return;
        };
        from = k;
        after = Some(inst.serial);
        let def = &rules.status_defs[inst.status];
        // What it does here: looked up in a game, found in its definition by a tool.
        let (hook, counts_down) = match program
            .and_then(|p| Some((p, p.status_at(inst.status, timing)?)))
        {
            Some((p, (code, counts_down))) => (code.map(|c| Effects::Compiled(p, c)), counts_down),
            None => (
                def.hooks
                    .iter()
                    .find(|(t, _)| *t == timing)
                    .map(|(_, e)| Effects::Tree(e)),
                def.lasts.is_some_and(|(_, t)| t == timing),
            ),
        };
        if let Some(effects) = hook {
            cx.run_effects(state, effects, inst.held(), events);
        }
        if counts_down {
            // A segment that acquired its own status again started it over:
            // this pass is not counted against the new run.
            let restarted =
                !def.segments.is_empty() && cx.run_segment(state, inst.serial, def, events);
            if !restarted {
                // Its index when found, unless its hooks removed one before it.
                cx.extend(state, inst.serial, k, -1, events);
            }
        }
    }
}

/// The index of the instance numbered `serial`: `hint` when it is there (the
/// caller's last sight of it), else found by a scan.
fn locate(instances: &[Instance], serial: u32, hint: usize) -> Option<usize> {
    if instances.get(hint).is_some_and(|i| i.serial == serial) {
        return Some(hint);
    }
    instances.iter().position(|i| i.serial == serial)
}
