//! Effects applied: a list run in order (or an `:at-once` group from one
//! state), each resolved to a change of an attribute, an operation, a status,
//! an `:each`, a spawn, a `{:run …}` or a `{:queue …}`, and an event pushed
//! for every value that moved; `{:run :timing}` runs a timing's hooks in
//! place, guarded against re-entry and nesting past [`MAX_RUN_DEPTH`], and
//! [`run_timing`] runs one for tools.

use super::expr::{Frame, boolean, entity, flush_rolls, int, with_bindings};
use super::state::{
    MAX_ENTITIES, MAX_QUEUED, MAX_REMOVAL_WAVES, MAX_RUN_DEPTH, Owner, QueueRequest,
};
use super::{Cause, Event, Program, State, What, status};
use crate::check::ast::{AttrId, Effect, Entity, EntityId, Int, MAX_AT_ONCE, OpId, Resource};
use crate::check::rules::RuleSet;
use crate::ids::TimingId;

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

/// Applies a list of effects in `frame`. At the top level (`inside` is `None`) each
/// change's cause is its effect's index; inside an operation it is the applying
/// effect and the operation, `inside`.
/// `MODIFIED`: whether the state may hold base values, which a change to a
/// modified attribute must go through.
pub(super) fn run<const MODIFIED: bool>(
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
            state.blame_effect(effect.span);
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
pub(super) fn at_once<const MODIFIED: bool>(
    rules: &RuleSet,
    group: &[Effect],
    state: &mut State,
    frame: &Frame<'_>,
    events: &mut Vec<Event>,
    cause: impl Fn(usize) -> Cause,
) {
    let mut resolved = [(EntityId::FIRST, Target::Attr(AttrId::FIRST), 0i64); MAX_AT_ONCE];
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
        state.blame_effect(effect.span);
    }
}

#[inline(always)]
pub(super) fn apply_one<const MODIFIED: bool>(
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
            if cmp.test(state.get(frame.roles[r.index()], attr), n) {
                then
            } else {
                other
            }
        }
        // A smart value as the amount (Arcomage's production, `[:you :quarry]`).
        Int::Attr(Entity::Role(r), attr) => state.get(frame.roles[r.index()], attr),
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
pub(super) enum Target {
    Attr(AttrId),
    Op(OpId),
    Nested(u32),
}

/// One resolved change: add `amount` to (or set) an attribute of `entity`, or
/// apply an operation or a status change to it.
pub(super) struct Change {
    pub(super) set: bool,
    pub(super) entity: EntityId,
    pub(super) target: Target,
    pub(super) amount: i64,
    pub(super) cause: Cause,
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
                if MODIFIED && !state.base.is_empty() && rules.modified[attr] {
                    return change_modified(rules, state, &self, attr, events);
                }
                change_value(
                    state,
                    rules.bounds[attr],
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
                    Some(Resource::Cards(op)) => super::card_ops::apply(
                        rules,
                        state,
                        frame,
                        op,
                        self.entity,
                        self.amount,
                        self.cause,
                        events,
                    ),
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
            &rules.operation_defs[op].effects,
            state,
            &inner,
            events,
            Some(cause),
        );
        state.claim(Owner::Rules);
    }
}

/// Adds `amount` to (or, with `set`, puts it in) `attr` of `entity`, within
/// `bounds`, pushing an event if the value moved: an attribute no status
/// modifies, the change most effects make.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn change_value(
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
        .get_mut(entity.index() * state.width + attr.index())
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
pub(super) fn change_modified(
    rules: &RuleSet,
    state: &mut State,
    change: &Change,
    attr: AttrId,
    events: &mut Vec<Event>,
) {
    let at = change.entity.index() * state.width + attr.index();
    let Some(&base) = state.base.get(at) else {
        return;
    };
    let (min, max) = rules.bounds[attr];
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
        | Resource::Queue(_)
        | Resource::Cards(_) => Target::Nested(0),
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
            | Resource::Queue(_)
            | Resource::Cards(_) => {
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

/// Runs a `{:spawn …}`: a new entity of its kind, with its values computed
/// where the effect runs, within their bounds.
#[cold]
#[inline(never)]
fn spawn_one(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    spawn: &crate::check::ast::Spawn,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    if state.len() >= MAX_ENTITIES {
        state.exhaust(super::state::Exhausted::Entities);
        return;
    }
    // The values are computed before the entity exists, from the state as it was.
    let mut values = [(AttrId::FIRST, 0i64); 16];
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
        let (min, max) = rules.bounds[attr];
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
    each: &crate::check::ast::Each,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let Some(source) = &each.source else {
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
    // Each run of the body costs its length: a list is bounded, a loop of it is not.
    let cost = each.effects.len() as u64;
    super::card_ops::each_in(state, frame, source, each.outer, |state, inner| {
        if each
            .filter
            .as_ref()
            .is_none_or(|c| boolean(c, state, inner))
            && state.spend(cost)
        {
            run::<MODIFIED>(rules, &each.effects, state, inner, events, Some(cause));
        }
    })
}

impl State {
    /// Records a `{:queue …}` effect's change for the engine to make.
    #[cold]
    pub(super) fn queue_request(
        &mut self,
        op: &crate::check::ast::QueueOp,
        entity: EntityId,
        amount: i64,
        frame: &Frame<'_>,
    ) {
        let n = amount.clamp(0, MAX_QUEUED) as u32;
        let start = self.queued_roles.len() as u32;
        if matches!(op, crate::check::ast::QueueOp::Timed(_)) {
            self.queued_roles.extend_from_slice(frame.roles);
        }
        let roles = (start, self.queued_roles.len() as u32);
        self.queued.push(match op {
            crate::check::ast::QueueOp::Turns(kind) => QueueRequest::Turns {
                entity,
                kind: *kind,
                count: n,
            },
            crate::check::ast::QueueOp::Timed(timing) => QueueRequest::Timed {
                timing: *timing,
                entity,
                after: n,
                roles,
            },
        });
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
            for entity in EntityId::below(self.len()) {
                let Some(kind) = self.kind(entity) else {
                    continue;
                };
                if let Some(Some(cond)) = rules.removed_when.get(kind)
                    && boolean(cond, self, &Frame::outside(&[entity]))
                {
                    self.remove(entity);
                    removed.push(entity);
                    if let Some(effects) = rules.on_removed.get(kind)
                        && !effects.is_empty()
                    {
                        apply(rules, effects, self, &[entity], events);
                        self.claim(Owner::Rules);
                    }
                    // A card goes where its zone sends what falls from it.
                    if self.cards.is_some() {
                        super::zones::fallen(self, entity, events);
                        super::zones::fell(rules, self, entity, events);
                    }
                }
            }
            if (removed.len() == first && !statuses) || events.len() == changes {
                return;
            }
        }
        // Still falling after the last wave: said, not left to look settled.
        self.exhausted
            .get_or_insert(super::state::Exhausted::Removals);
    }
}

/// `{:run :timing}`: the timing's hooks run now, for `who` (or each entity of
/// its `:each` kind), with the roles of the effects around it. A timing never
/// runs inside its own run, and runs nest at most [`MAX_RUN_DEPTH`] deep, so
/// hooks that run each other cannot loop.
#[inline(never)]
pub(super) fn run_nested(
    rules: &RuleSet,
    program: Option<&Program>,
    state: &mut State,
    frame: &Frame<'_>,
    timing: TimingId,
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
    timing: TimingId,
    roles: &[EntityId],
    who: EntityId,
    events: &mut Vec<Event>,
) {
    self::timing(rules, None, state, timing, roles, who, events);
}

/// [`run_timing`], its hooks run compiled when `program` is given.
pub(super) fn timing(
    rules: &RuleSet,
    program: Option<&Program>,
    state: &mut State,
    timing: TimingId,
    roles: &[EntityId],
    who: EntityId,
    events: &mut Vec<Event>,
) {
    let n = roles.len();
    let Some(def) = rules.timings.get(timing) else {
        return;
    };
    let hook = |state: &mut State, roles: &[EntityId], events: &mut Vec<Event>| match program
        .and_then(|p| Some((p, p.hook(timing)?)))
    {
        Some((p, code)) => {
            p.apply(rules, code, state, roles, events);
            state.claim(Owner::Rules);
        }
        None => {
            apply(rules, &rules.hooks[timing], state, roles, events);
            state.claim(Owner::Rules);
        }
    };
    let statuses = |state: &mut State, holder, roles: &[EntityId], events: &mut Vec<Event>| {
        status::statuses_at(rules, program, state, timing, Some(holder), roles, events);
    };
    match def.each {
        None if def.at == crate::check::rules::Moment::Run => with_bindings(roles, 1, |roles| {
            roles[n] = who;
            hook(state, roles, events);
            statuses(state, who, &roles[..n], events);
        }),
        None => {
            hook(state, roles, events);
            statuses(state, who, roles, events);
        }
        Some(kind) => with_bindings(roles, 1, |roles| {
            for entity in EntityId::below(state.len()) {
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
