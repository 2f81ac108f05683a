//! Timings run in place: `{:run :timing}` inside effects, guarded against
//! re-entry and nesting past [`MAX_RUN_DEPTH`], and [`run_timing`] for tools.

use super::effects::apply;
use super::expr::{Frame, with_bindings};
use super::{Event, Program, State, status};
use crate::ast::EntityId;
use crate::rules::RuleSet;

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
pub(super) fn run_nested(
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
pub(super) fn timing(
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
