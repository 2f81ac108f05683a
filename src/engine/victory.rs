//! Victory: which values each seat's conditions read, and the check after
//! every change that skips conditions whose values did not move.

use super::{Game, GameEvent, Outcome, Phase};
use crate::check::ast::EntityId;
use crate::check::rules::RuleSet;

/// Which attributes any victory condition reads; every one if some condition cannot say.
pub(super) fn watched(rules: &RuleSet) -> Vec<bool> {
    let mut out = vec![false; rules.attributes.len()];
    // An intent's amount may read any value: every change is looked at, so
    // what the seats are shown stays what the enemy will do.
    let amounts = rules
        .scripts
        .iter()
        .flatten()
        .any(|s| s.moves.iter().any(|m| m.amount.is_some()));
    if amounts {
        out.iter_mut().for_each(|w| *w = true);
    }
    for v in &rules.victory {
        match &v.reads {
            Some(reads) => reads.iter().for_each(|&(_, a)| out[a.index()] = true),
            None => out.iter_mut().for_each(|w| *w = true),
        }
    }
    out
}

/// Bit `i` of a change mask; values past the 64th share the last bit.
pub(super) fn bit(i: usize) -> u64 {
    1 << i.min(63)
}

/// For each seat and victory condition, the mask of the values it reads
/// (everything, for a condition that draws chance or reads computed entities).
pub(super) fn victory_masks(rules: &RuleSet, seats: usize) -> Vec<u64> {
    let width = rules.attributes.len();
    let mut out = Vec::with_capacity(seats * rules.victory.len());
    for seat in 0..seats {
        for v in &rules.victory {
            out.push(match &v.reads {
                // A condition that reads no value (`true`, params only) is checked every time.
                Some(reads) if !reads.is_empty() => reads.iter().fold(0, |m, &(r, a)| {
                    let entity = (seat + r.index()) % seats;
                    m | bit(entity * width + a.index())
                }),
                _ => u64::MAX,
            });
        }
    }
    out
}

impl Game<'_> {
    pub(super) fn finish(&mut self, outcome: Outcome) {
        self.phase = Phase::Over(outcome);
        self.record(GameEvent::Ended(outcome));
    }

    /// Checks every victory condition for every seat; ends the game if any holds.
    pub(super) fn check_victory(&mut self) {
        // A step that ran out of its budget ends the game; else the next
        // step starts with a full one.
        if let Some((why, at)) = self.state.refuel() {
            self.stopped_at = at;
            self.record(GameEvent::OutOfBudget(at));
            self.finish(Outcome::Aborted(why));
            return;
        }
        // Nothing a condition reads changed since the last check: nothing new can hold.
        if !std::mem::take(&mut self.changed) {
            return;
        }
        if self.intents.is_some() {
            self.refresh_intents();
        }
        let dirty = std::mem::take(&mut self.dirty);
        let conditions = self.rules.victory.len();
        let mut winner: Option<EntityId> = None;
        let mut reason = 0;
        let mut tie = false;
        let mut loser: Option<(EntityId, u16)> = None;
        let state = &mut self.state;
        // Seat after seat, condition after condition; one flat list of masks,
        // so a condition that reads nothing that changed costs one test.
        for (k, &mask) in self.victory_masks.iter().enumerate() {
            // A condition that was false and reads nothing that changed is still false.
            if dirty & mask == 0 {
                continue;
            }
            let (seat, i) = (k / conditions, k % conditions);
            let loses = self.rules.victory[i].loses;
            // A seat out of play can no longer win (but a fallen one has lost).
            if !loses && !state.is_live(EntityId::new(seat)) {
                continue;
            }
            let roles = &self.roles[seat * self.role_count..][..self.role_count];
            if loses {
                if loser.is_none() && self.code.victory[i].holds(state, roles) {
                    loser = Some((roles[(self.rules.victory[i].winner).index()], i as u16));
                }
                continue;
            }
            if self.code.victory[i].holds(state, roles) {
                let w = roles[(self.rules.victory[i].winner).index()];
                match winner {
                    None => {
                        winner = Some(w);
                        reason = i as u16;
                    }
                    Some(prev) if prev != w => tie = true,
                    Some(_) => {}
                }
            }
        }
        // Dice a condition rolled are not part of the log.
        self.state.forget_rolls();
        self.state.claim(crate::eval::Owner::Rules);
        match (winner, tie) {
            // A seat that has lost has lost, whatever else holds at once.
            _ if loser.is_some() => {
                let (seat, reason) = loser.unwrap_or_default();
                self.finish(Outcome::Loss { seat, reason })
            }
            (_, true) => self.finish(Outcome::Tie),
            (Some(seat), false) => self.finish(Outcome::Win { seat, reason }),
            // Every seat fell at once (two fighters killing each other): a
            // draw now, not after rounds with nobody to take a turn.
            (None, false) if (0..self.seats).all(|s| !self.state.is_live(EntityId::new(s))) => {
                self.finish(Outcome::NobodyLeft)
            }
            (None, false) => {}
        }
    }
}
