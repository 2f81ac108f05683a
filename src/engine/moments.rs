//! Moments: the hooks of every timing attached to a moment the turn machine
//! reaches, run for a seat, for each seat, or for each entity of a kind, with
//! the statuses' hooks and countdowns after; and the same run outside a game,
//! for tools.

use super::{By, Game, Phase};
use crate::check::ast::EntityId;
use crate::check::rules::{KindId, Moment, RuleSet, TimingId};
use crate::eval::{Event, Owner, State, with_bindings};

impl Game<'_> {
    /// Runs the hooks of every timing attached to `moment`, with roles bound as on
    /// `seat`'s turn, checking victory after each. A timing with `:each` runs once
    /// per entity of its kind, so when a moment runs for every seat it runs only
    /// with the first (`skip_each` for the others).
    #[inline]
    pub(super) fn run_moment(&mut self, moment: Moment, seat: EntityId) {
        if self.rules.hooks_at(moment).is_empty() {
            // Nothing to run (Arcomage's turn end): only the victory check.
            if self.changed && !matches!(self.phase, Phase::Over(_)) {
                self.check_victory();
            }
            return;
        }
        self.run_moment_as(moment, seat);
    }

    fn run_moment_as(&mut self, moment: Moment, seat: EntityId) {
        for &(timing, each) in self.rules.hooks_at(moment) {
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            self.run_timing_as(timing, each, seat);
        }
        self.judge_moment();
    }

    /// A moment is where victory is judged, hooks or not: a given state, or a
    /// condition that reads no value, is decided here.
    fn judge_moment(&mut self) {
        if self.changed && !matches!(self.phase, Phase::Over(_)) {
            self.check_victory();
        }
    }

    /// Runs one timing's hook with the roles of `seat`'s turn: once, or once
    /// for each entity of the kind its `:each` names.
    fn run_timing_as(&mut self, timing: TimingId, each: Option<KindId>, seat: EntityId) {
        let rules = self.rules;
        match each {
            None => {
                let roles = &self.roles[seat.index() * self.role_count..][..self.role_count];
                let program = &self.code.program;
                if let Some(effects) = program.hook(timing) {
                    program.apply_inline(rules, effects, &mut self.state, roles, &mut self.events);
                    self.state.claim(Owner::Rules);
                }
                self.flush_events(|cause| By::Hook(timing, cause));
                self.check_victory();
                self.run_statuses(timing, seat, seat);
            }
            Some(kind) => self.run_for_each(timing, kind, seat),
        }
    }

    /// Runs `timing`'s hook once for each entity of `kind` in play, in the order
    /// they were added, with the seat roles of `seat` and `:self` bound to it.
    fn run_for_each(&mut self, timing: TimingId, kind: KindId, seat: EntityId) {
        let rules = self.rules;
        let mut roles = std::mem::take(&mut self.each_roles);
        let mut entity = EntityId::FIRST;
        // Entities spawned meanwhile wait for the timing's next run, as with `:each` effects.
        let count = self.state.len();
        while entity.index() < count {
            if self.state.kind(entity) == Some(kind) {
                roles.clear();
                roles.extend_from_slice(self.seat_roles(seat.index()));
                roles.push(entity);
                let program = &self.code.program;
                if let Some(effects) = program.hook(timing) {
                    program.apply_inline(rules, effects, &mut self.state, &roles, &mut self.events);
                    self.state.claim(Owner::Rules);
                }
                self.flush_events(|cause| By::Hook(timing, cause));
                self.check_victory();
                self.each_roles = roles;
                self.run_statuses(timing, seat, entity);
                roles = std::mem::take(&mut self.each_roles);
                if matches!(self.phase, Phase::Over(_)) {
                    break;
                }
            }
            entity = EntityId::new(entity.index() + 1);
        }
        self.each_roles = roles;
    }

    /// Runs `timing` for the statuses `holder` holds (their hooks there, their
    /// countdowns), with the roles of `seat`'s turn; then checks victory.
    fn run_statuses(&mut self, timing: TimingId, seat: EntityId, holder: EntityId) {
        if self.state.statuses().is_empty() || matches!(self.phase, Phase::Over(_)) {
            return;
        }
        let roles = &self.roles[seat.index() * self.role_count..][..self.role_count];
        self.code.program.run_status_timing(
            self.rules,
            &mut self.state,
            timing,
            Some(holder),
            roles,
            &mut self.events,
        );
        self.flush_events(|cause| By::Hook(timing, cause));
        self.check_victory();
    }

    /// Runs `moment` for the seats: each of its timings in declaration order,
    /// and each timing once for each seat in play, in seat order (an `:each`
    /// timing once in all, with the roles of the first seat in play), so that
    /// every seat has rolled initiative before any tie is looked at.
    pub(super) fn run_moment_for_seats(&mut self, moment: Moment) {
        let rules = self.rules;
        if rules.hooks_at(moment).is_empty() {
            return;
        }
        for &(timing, each) in rules.hooks_at(moment) {
            for seat in EntityId::below(self.seats) {
                if matches!(self.phase, Phase::Over(_)) {
                    return;
                }
                // A seat out of play gets no hooks.
                if self.state.is_live(seat) {
                    self.run_timing_as(timing, each, seat);
                    if each.is_some() {
                        break;
                    }
                }
            }
        }
        self.judge_moment();
    }
}

/// Runs `timing` once outside a game, as the turn machine runs it on `seat`'s
/// turn: its hook (once for each entity of its `:each` kind, with `:self`
/// bound), then the hooks and countdowns of the statuses of the entity it runs
/// for. For tools (`eval --then`); victory is not judged.
pub fn run_timing(
    rules: &RuleSet,
    state: &mut State,
    timing: TimingId,
    seat: EntityId,
    events: &mut Vec<Event>,
) {
    with_roles_outside(rules, seat, |roles| {
        crate::eval::run_timing(rules, state, timing, roles, seat, events);
    })
}

/// Runs `f` with the entity each role means on `seat`'s turn outside a game:
/// the seats in turn from `seat` on, as the turn machine binds them. For tools.
fn with_roles_outside<R>(rules: &RuleSet, seat: EntityId, f: impl FnOnce(&[EntityId]) -> R) -> R {
    let n = rules.roles.len();
    let seats = rules.seats.len().max(n).max(1);
    with_bindings(&[], n, |roles| {
        for (i, r) in roles.iter_mut().enumerate() {
            *r = EntityId::new((seat.index() + i) % seats);
        }
        f(roles)
    })
}

/// Runs every timing of `moment` outside a game, in the turn machine's order:
/// a turn moment as on the first seat's turn; a round or game moment once for
/// each seat in play, in seat order, its timings with `:each` with the first
/// only. Entities whose kind's `:removed-when` holds leave play after each
/// timing (pushed to `removed`). For tools (`eval --then`).
pub fn run_moment(
    rules: &RuleSet,
    state: &mut State,
    moment: Moment,
    events: &mut Vec<Event>,
    removed: &mut Vec<EntityId>,
) {
    let seats = match moment {
        Moment::TurnStart | Moment::TurnEnd => 1,
        _ => rules.seats.len().min(state.len()).max(1),
    };
    let mut first = true;
    for seat in EntityId::below(seats) {
        if seats > 1 && !state.is_live(seat) {
            continue;
        }
        for &(timing, each) in rules.hooks_at(moment) {
            if each.is_none() || first {
                run_timing(rules, state, timing, seat, events);
                with_roles_outside(rules, seat, |roles| {
                    state.remove_fallen(rules, roles, removed, events)
                });
            }
        }
        first = false;
    }
}

/// What a moment is called in a log: "start" and "end" for a turn's.
pub fn moment_label(moment: Moment) -> &'static str {
    match moment {
        Moment::GameStart => "game start",
        Moment::RoundStart => "round start",
        Moment::TurnStart => "start",
        Moment::TurnEnd => "end",
        Moment::RoundEnd => "round end",
        Moment::Run => "run",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::keys::Keys;

    #[test]
    fn every_moment_has_a_label() {
        for &m in Moment::ALL {
            assert!(!moment_label(m).is_empty(), "{}", m.name());
        }
    }
}
