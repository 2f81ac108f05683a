//! The turn queue: the base queue spliced in each round (sorted by the turn
//! order, with entities' and statuses' turns), extra turns and timed entries
//! that effects queue, and turns taken from it in order: started, passed,
//! ended.

use super::act::Due;
use super::spare::WithList;
use super::{By, Game, GameEvent, Outcome, Phase};
use crate::check::ast::EntityId;
use crate::check::rules::Moment;
use crate::check::rules::TimingId;
use crate::check::rules::turn_kinds::{MAX_TURNS_PER_ROUND, TurnKindId};
use crate::eval::{QueueRequest, apply};

/// One entry of the turn queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// This entity's turn, of this turn kind.
    Turn(EntityId, TurnKindId),
    /// A reorder: the round ends here and the base queue is spliced in at the
    /// front of what is left. The queue's end is one too.
    Reorder,
    /// A timed entry, by index in [`Game::timed`].
    Timed(u32),
}

/// What a timed queue entry runs.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct TimedEntry {
    timing: TimingId,
    entity: EntityId,
    roles: Vec<EntityId>,
}

impl WithList for TimedEntry {
    type Item = EntityId;

    fn list(&mut self) -> &mut Vec<EntityId> {
        &mut self.roles
    }

    fn with_list(&self, mut roles: Vec<EntityId>) -> TimedEntry {
        roles.extend_from_slice(&self.roles);
        TimedEntry { roles, ..*self }
    }
}

impl Clone for TimedEntry {
    fn clone(&self) -> TimedEntry {
        self.with_list(Vec::new())
    }

    /// Into the roles' buffer already held: a search copies the game's
    /// timed entries into a world of its once an iteration.
    fn clone_from(&mut self, source: &TimedEntry) {
        self.timing = source.timing;
        self.entity = source.entity;
        self.roles.clone_from(&source.roles);
    }
}

/// One entry of the turn queue as [`Game::queue_listing`] shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queued {
    /// An entity's turn, of a turn kind.
    Turn(EntityId, TurnKindId),
    /// A reorder.
    Reorder,
    /// A timed entry: the timing it runs, for whom.
    Timed(TimingId, EntityId),
}

/// The most entries a turn queue holds: what effects add past it is dropped,
/// so a rule set that adds turns every turn cannot grow it without end.
pub const MAX_QUEUE: usize = 10_000;

impl Game<'_> {
    /// A reorder's splice: the base queue goes in at the front of what is
    /// left of the queue (the entries done are dropped).
    pub(super) fn splice_base_queue(&mut self) {
        if self.entity_turns {
            self.build_base_queue();
        }
        if !self.rules.turn_order.is_empty() {
            self.sort_base_queue();
        }
        if self.next >= self.queue.len() {
            self.queue.clear();
            self.queue.extend_from_slice(&self.base);
        } else {
            self.queue.drain(..self.next);
            // Turns queued as the round ended (or the game started) are at
            // the front of what is left: they run first, before the base queue.
            let first = self
                .queue
                .iter()
                .take_while(|e| matches!(e, Entry::Turn(..)))
                .count();
            self.queue.splice(first..first, self.base.iter().copied());
        }
        self.next = 0;
    }

    /// The base queue of every entity in play: its kind's `:turns`, in the order entities entered play.
    #[inline(never)]
    fn build_base_queue(&mut self) {
        self.base.clear();
        for entity in EntityId::below(self.state.len()) {
            if let Some(kind) = self.state.kind(entity)
                && let Some(turns) = self.rules.kind_turns.get(kind)
            {
                self.base
                    .extend(turns.iter().map(|&k| Entry::Turn(entity, k)));
            }
        }
        if self.rules.status_turns {
            self.add_status_turns();
        }
    }

    /// Adds to the base queue the `:turns` of every active status, after its
    /// holder's other turns, up to [`MAX_TURNS_PER_ROUND`] an entity.
    #[cold]
    fn add_status_turns(&mut self) {
        for inst in self.state.statuses() {
            let def = &self.rules.status_defs[inst.status];
            if def.turns.is_empty() || !self.state.is_live(inst.holder) {
                continue;
            }
            let holder = inst.holder;
            let has = self
                .base
                .iter()
                .filter(|e| matches!(e, Entry::Turn(h, _) if *h == holder))
                .count();
            let room = MAX_TURNS_PER_ROUND.saturating_sub(has);
            let at = self
                .base
                .iter()
                .rposition(|e| matches!(e, Entry::Turn(h, _) if *h <= holder))
                .map_or(0, |i| i + 1);
            let more = def.turns.iter().take(room).map(|&k| Entry::Turn(holder, k));
            self.base.splice(at..at, more);
        }
    }

    /// Sorts the base queue's turns by the rule set's `:turns :order` keys,
    /// highest first; ties keep seat order.
    #[inline(never)]
    fn sort_base_queue(&mut self) {
        let keys = &self.rules.turn_order;
        let width = keys.len();
        let mut ranked = std::mem::take(&mut self.order_keys);
        ranked.clear();
        for entity in EntityId::below(self.state.len()) {
            for key in keys {
                ranked.push(match self.state.kind(entity) {
                    Some(_) => crate::eval::value(key, &mut self.state, &[entity]),
                    None => 0,
                });
            }
        }
        self.state.claim(crate::eval::Owner::Rules);
        let row = |e: EntityId| &ranked[e.index() * width..][..width];
        // A stable sort: an entity's turns keep their order, ties keep entity order.
        self.base.sort_by(|a, b| match (a, b) {
            (Entry::Turn(a, _), Entry::Turn(b, _)) => row(*b).cmp(row(*a)).then(a.cmp(b)),
            _ => std::cmp::Ordering::Equal,
        });
        self.order_keys = ranked;
    }

    /// The next entity to take a turn, running round ends and starts on the way;
    /// `None` if one of those ended the game.
    #[inline]
    pub(super) fn next_turn(&mut self) -> Option<EntityId> {
        // The common case: the next entry is the turn of a seat in play.
        if let Some(&Entry::Turn(entity, kind)) = self.queue.get(self.next)
            && entity.index() < self.seats
            && self.state.is_live(entity)
            && self.rules.turn_skip.is_none()
        {
            self.next += 1;
            self.turn_kind = kind;
            return Some(entity);
        }
        self.next_turn_slow()
    }

    /// Whether seat `seat`'s turn is passed over now: the rule set's
    /// `:turns {:skip-when …}` holds with `:self` the seat.
    #[cold]
    fn skips_turn(&mut self, seat: EntityId) -> bool {
        let Some(cond) = &self.rules.turn_skip else {
            return false;
        };
        let skips = crate::eval::holds(cond, &mut self.state, &[seat]);
        self.state.claim(crate::eval::Owner::Rules);
        skips
    }

    #[inline(never)]
    fn next_turn_slow(&mut self) -> Option<EntityId> {
        // Two reorders without a seat's turn between them: nobody is left.
        // A round whose seats' turns were all passed over (`:skip-when`)
        // still has seats in play: their skips may end at a round's moment,
        // so the game goes on, for at most the turn limit in such rounds.
        let (mut empty_rounds, mut skipped_rounds) = (0, 0u32);
        let mut skipped = false;
        loop {
            if matches!(self.phase, Phase::Over(_)) {
                return None;
            }
            let entry = self.queue.get(self.next).copied();
            // The queue's end is a reorder that takes no place: what the
            // round's end queues goes there, not behind it.
            if entry.is_some() {
                self.next += 1;
            }
            match entry {
                Some(Entry::Turn(entity, kind)) if self.state.is_live(entity) => {
                    if entity.index() < self.seats && self.skips_turn(entity) {
                        // Passed over whole: no hooks, no draw, no play.
                        skipped = true;
                        continue;
                    }
                    if entity.index() < self.seats {
                        self.turn_kind = kind;
                        return Some(entity);
                    }
                    self.entity_turn(entity);
                }
                Some(Entry::Turn(..)) => {}
                Some(Entry::Timed(i)) => self.run_timed(i as usize),
                Some(Entry::Reorder) | None => {
                    if std::mem::take(&mut skipped) {
                        skipped_rounds += 1;
                        empty_rounds = 0;
                    } else {
                        empty_rounds += 1;
                    }
                    if empty_rounds > 1 {
                        self.finish(Outcome::NobodyLeft);
                        return None;
                    }
                    if skipped_rounds >= self.rules.turn_limit {
                        self.finish(Outcome::TurnLimit);
                        return None;
                    }
                    // Prepared actions resolve as their round ends, before its timings.
                    self.resolve_pending(Due::RoundEnd);
                    if matches!(self.phase, Phase::Over(_)) {
                        return None;
                    }
                    self.run_moment_for_seats(Moment::RoundEnd);
                    if matches!(self.phase, Phase::Over(_)) {
                        return None;
                    }
                    self.round += 1;
                    self.splice_base_queue();
                    self.run_moment_for_seats(Moment::RoundStart);
                    if self.intents.is_some() {
                        self.decide_intents(true);
                    }
                }
            }
        }
    }

    /// An entity that is not a seat takes its turn: its kind's `:on-turn`
    /// effects, with the first seat's roles and `:self` bound to it. No choice.
    #[cold]
    fn entity_turn(&mut self, entity: EntityId) {
        let rules = self.rules;
        let Some(kind) = self.state.kind(entity) else {
            return;
        };
        self.record(GameEvent::EntityTurn { entity });
        let mut roles = std::mem::take(&mut self.each_roles);
        roles.clear();
        roles.extend_from_slice(self.seat_roles(0));
        roles.push(entity);
        let effects = &rules.on_turn[kind];
        apply(rules, effects, &mut self.state, &roles, &mut self.events);
        self.state.claim(crate::eval::Owner::Rules);
        self.each_roles = roles;
        self.flush_events(|cause| By::EntityTurn(entity, cause));
        self.check_victory();
        // A scripted enemy then does the move it showed, if still in play.
        if rules.scripts[kind].is_some()
            && self.state.is_live(entity)
            && !matches!(self.phase, Phase::Over(_))
        {
            self.scripted_turn(entity);
        }
    }

    /// A timed entry comes up: its timing runs for its entity, with the roles
    /// bound where it was queued.
    #[cold]
    fn run_timed(&mut self, i: usize) {
        let Some(t) = self.timed.get(i) else {
            return;
        };
        let (timing, entity) = (t.timing, t.entity);
        // A copy, in a kept list: the slot is free from here (its timing may
        // queue another into it) and keeps its own list for that one.
        let mut roles = self.spare_roles.take();
        roles.extend_from_slice(&t.roles);
        self.free_timed.push(i as u32);
        self.record(GameEvent::TimedRan { timing, entity });
        if self.state.is_live(entity) {
            let n = self.rules.roles.len().min(roles.len());
            self.code.program.run_timing(
                self.rules,
                &mut self.state,
                timing,
                &roles[..n],
                entity,
                &mut self.events,
            );
            self.flush_events(|cause| By::Hook(timing, cause));
            self.check_victory();
        }
        self.spare_roles.keep(roles);
    }

    /// Makes the changes to the queue that effects asked for: extra turns at
    /// the front, in the order asked; timed entries right after the reorder
    /// they wait for, reorders added at the end until there are enough.
    #[cold]
    #[inline(never)]
    pub(super) fn take_queued(&mut self) {
        let mut requests = std::mem::take(&mut self.state.queued);
        let mut roles_queued = std::mem::take(&mut self.state.queued_roles);
        let mut at = self.next.min(self.queue.len());
        for request in requests.drain(..) {
            match request {
                QueueRequest::Turns {
                    entity,
                    kind,
                    count,
                } => {
                    let room = MAX_QUEUE.saturating_sub(self.queue.len());
                    if (count as usize) > room {
                        self.state.exhaust(crate::eval::Exhausted::Queue);
                    }
                    let n = (count as usize).min(room);
                    self.queue
                        .splice(at..at, std::iter::repeat_n(Entry::Turn(entity, kind), n));
                    at += n;
                }
                QueueRequest::Timed {
                    timing,
                    entity,
                    after,
                    roles,
                } => {
                    if self.queue.len() + after as usize >= MAX_QUEUE {
                        self.state.exhaust(crate::eval::Exhausted::Queue);
                        continue;
                    }
                    let mut seen = 0;
                    let mut pos = self.next.min(self.queue.len());
                    if after > 0 {
                        while pos < self.queue.len() && seen < after {
                            if self.queue[pos] == Entry::Reorder {
                                seen += 1;
                            }
                            pos += 1;
                        }
                        for _ in seen..after {
                            self.queue.push(Entry::Reorder);
                        }
                        if seen < after {
                            pos = self.queue.len();
                        }
                    }
                    // A slot of an entry that has run is used again, with its
                    // roles' buffer: what a game holds is the entries pending,
                    // not all it ever queued.
                    let roles = &roles_queued[roles.0 as usize..roles.1 as usize];
                    let slot = match self.free_timed.pop() {
                        Some(slot) => {
                            let entry = &mut self.timed[slot as usize];
                            entry.timing = timing;
                            entry.entity = entity;
                            entry.roles.clear();
                            entry.roles.extend_from_slice(roles);
                            slot
                        }
                        None => {
                            let mut buffer = self.spare_roles.take();
                            buffer.extend_from_slice(roles);
                            self.timed.push(TimedEntry {
                                timing,
                                entity,
                                roles: buffer,
                            });
                            (self.timed.len() - 1) as u32
                        }
                    };
                    self.queue.insert(pos, Entry::Timed(slot));
                }
            }
        }
        self.state.queued = requests;
        roles_queued.clear();
        self.state.queued_roles = roles_queued;
    }

    /// The turn queue as a player would read it: the turn being taken (if
    /// one is), then the entries not yet begun. Reorders and timed entries
    /// show; turns of entities out of play do not.
    pub fn queue_listing(&self) -> Vec<Queued> {
        let mut out = Vec::new();
        if self.phase == Phase::Act || matches!(self.phase, Phase::MustDiscard(_)) {
            out.push(Queued::Turn(self.current, self.turn_kind));
        }
        for entry in &self.queue[self.next.min(self.queue.len())..] {
            match *entry {
                Entry::Turn(e, k) if self.state.is_live(e) => out.push(Queued::Turn(e, k)),
                Entry::Turn(..) => {}
                Entry::Reorder => out.push(Queued::Reorder),
                Entry::Timed(i) => {
                    if let Some(t) = self.timed.get(i as usize) {
                        out.push(Queued::Timed(t.timing, t.entity));
                    }
                }
            }
        }
        out
    }

    /// Starts the turn of `current`, passing for as long as nobody can act.
    pub(super) fn start_turn(&mut self) {
        if !self.begin_turn() {
            self.end_turn();
        }
    }

    /// The turn's start: its hooks, a victory check. False if the game went on
    /// and the actor could do nothing (they pass; the caller ends the turn).
    fn begin_turn(&mut self) -> bool {
        let seat = self.current;
        // Dice rolled outside effects (an action's condition, the AI's trials) are not logged.
        self.state.forget_rolls();
        if self.zoned && self.rules.turn_kinds[self.turn_kind].simultaneous {
            return self.begin_simultaneous();
        }
        self.record(GameEvent::TurnStart {
            turn: self.turn,
            seat,
            kind: self.turn_kind,
        });
        // Cards in zones: the turn's own draws come before its hooks.
        if self.zoned && !self.turn_draws() {
            return true;
        }
        self.run_moment(Moment::TurnStart, seat);
        if self.triggers.is_some() || self.meter.is_some() {
            use super::triggers::{Happened, On};
            self.happened(Happened::about(On::TurnStart, seat, Some(seat)));
        }
        if self.phase == Phase::Act && !self.has_action() {
            self.record(GameEvent::Passed { seat });
            return false;
        }
        true
    }

    /// Ends the current turn and starts the next; a loop, not recursion, so turns
    /// where nobody can act cannot exhaust the stack.
    pub(super) fn end_turn(&mut self) {
        loop {
            // A simultaneous turn ends once its held choices have resolved.
            if self.simul.is_some() && self.resolve_held() {
                return;
            }
            self.run_moment(Moment::TurnEnd, self.current);
            if self.triggers.is_some() || self.meter.is_some() {
                use super::triggers::{Happened, On};
                let seat = self.current;
                self.happened(Happened::about(On::TurnEnd, seat, Some(seat)));
            }
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            if self.turn >= self.rules.turn_limit {
                self.finish(Outcome::TurnLimit);
                return;
            }
            if self.pause {
                // Stop before the next turn is chosen, so that round moments run on resuming.
                self.phase = Phase::BetweenTurns;
                return;
            }
            if !self.advance() {
                return;
            }
            self.phase = Phase::Act;
            if self.begin_turn() {
                return;
            }
        }
    }

    /// Moves to the next turn in the queue; false if the game ended on the way.
    #[inline]
    pub(super) fn advance(&mut self) -> bool {
        let Some(next) = self.next_turn() else {
            return false;
        };
        self.current = next;
        self.turn += 1;
        self.actions_this_turn = 0;
        true
    }

    /// Who takes the next turn: the entity whose turn it is, or, between turns,
    /// the next in the queue (round moments not yet run).
    pub fn next_actor(&self) -> EntityId {
        if self.phase != Phase::BetweenTurns {
            return self.current;
        }
        // A seat whose turn `:skip-when` passes over is not next: read on a
        // copy of the state, since looking must not change the game.
        let mut scratch = self
            .rules
            .turn_skip
            .as_ref()
            .map(|c| (c, self.state.clone()));
        let live = |e: &&Entry| {
            matches!(e, Entry::Turn(x, _) if (*x).index() < self.seats && self.state.is_live(*x))
                && match (&mut scratch, e) {
                    (Some((cond, state)), Entry::Turn(x, _)) => {
                        !crate::eval::holds(cond, state, &[*x])
                    }
                    _ => true,
                }
        };
        let turn = |e: &Entry| match *e {
            Entry::Turn(x, _) => x,
            Entry::Reorder | Entry::Timed(_) => self.current,
        };
        self.queue[self.next.min(self.queue.len())..]
            .iter()
            .chain(&self.base)
            .find(live)
            .map_or(self.current, turn)
    }
}
