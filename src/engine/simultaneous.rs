//! Simultaneous turns (`:turn-kinds {:draft {:simultaneous true}}`, cards
//! kept in `:zones`): consecutive turns of such a kind in the queue are one
//! turn, taken by all their seats at once. Each seat chooses in seat order,
//! as the one to act ([`Game::ctx`]'s `current`, the same switch a chosen
//! discard on another's turn makes); its choice is held, unseen: nothing
//! moves and nothing is logged until the last seat has chosen. Then the
//! choices resolve in seat order, each with its own seat's roles, each the
//! seat's one action of the turn.
//!
//! What "a turn" means: one turn number, one `:turn-start` and one
//! `:turn-end` run of the hooks (with the first seat's roles), one step
//! toward the turn limit. The zones' own draws at a turn's start
//! (`:draw-each-turn`) are each seat's, in seat order. A seat with no legal
//! action is not asked, and passes when the choices resolve; so does a
//! seat whose held choice is no longer allowed by then.
//!
//! What the others see of a held choice is nothing: [`Game::view`] and the
//! log are made from the state, which it has not touched, and a world dealt
//! for one seat ([`Game::determinise`]) forgets the others' choices, so
//! they choose again there. The mechanism is one of "another seat decides":
//! a seat list, a cursor, and `current` switched to each in turn.

use super::{Action, Game, GameEvent, Illegal, MAX_ACTIONS_PER_TURN, Phase};
use crate::check::rules::Moment;
use crate::ids::EntityId;

use super::queue::Entry;

/// A simultaneous turn being taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Simultaneous {
    /// The seats taking part, in seat order; the first's roles are the
    /// turn's hooks'.
    seats: Vec<EntityId>,
    /// The seats still to choose, in seat order (the one choosing first).
    waiting: Vec<EntityId>,
    /// Each choice held: the seat that made it, and the action.
    held: Vec<(EntityId, Action)>,
    /// Once the last seat has chosen, how many of `seats` have resolved;
    /// `None` while the seats choose.
    resolved: Option<usize>,
}

impl Simultaneous {
    /// Whether its seats are still choosing (their choices held).
    fn choosing(&self) -> bool {
        self.resolved.is_none()
    }
}

impl Game<'_> {
    /// Whether a simultaneous turn is being taken and its seats are still
    /// choosing: an action now is held, not done.
    #[inline]
    pub(super) fn holding(&self) -> bool {
        self.simul.as_deref().is_some_and(Simultaneous::choosing)
    }

    /// The seats taking the simultaneous turn being taken, in seat order;
    /// empty when the turn being taken is one seat's.
    pub fn simultaneous_seats(&self) -> &[EntityId] {
        self.simul.as_deref().map_or(&[], |s| s.seats.as_slice())
    }

    /// The seats whose choice in the simultaneous turn is held, unseen, in
    /// the order they chose (not what they chose); empty otherwise.
    pub fn chosen_seats(&self) -> Vec<EntityId> {
        match self.simul.as_deref() {
            Some(s) if s.choosing() => s.held.iter().map(|&(seat, _)| seat).collect(),
            _ => Vec::new(),
        }
    }

    /// Starts a turn of a simultaneous kind for `current`: the turns of
    /// the same kind that follow it in the queue, each of another seat,
    /// join it. Logged once; the seats' own draws, then the turn's start
    /// hooks once; then the first seat with a legal action chooses. False
    /// when none has one (the caller ends the turn: every seat passes).
    #[cold]
    #[inline(never)]
    pub(super) fn begin_simultaneous(&mut self) -> bool {
        let kind = self.turn_kind;
        let mut seats = vec![self.current];
        while let Some(&Entry::Turn(e, k)) = self.queue.get(self.next) {
            if k != kind || e.index() >= self.seats || seats.contains(&e) {
                break;
            }
            self.next += 1;
            if self.state.is_live(e) {
                seats.push(e);
            }
        }
        seats.sort_unstable();
        let first = seats[0];
        self.current = first;
        self.record(GameEvent::TurnStart {
            turn: self.turn,
            seat: first,
            kind,
        });
        let mask = seats
            .iter()
            .fold(0u64, |m, s| m | 1u64 << s.index().min(63));
        self.record(GameEvent::AtOnce { seats: mask });
        self.simul = Some(Box::new(Simultaneous {
            waiting: seats.clone(),
            seats,
            held: Vec::new(),
            resolved: None,
        }));
        let all = self.simultaneous_seats().to_vec();
        for seat in all {
            self.current = seat;
            if !self.turn_draws() {
                return true;
            }
        }
        self.current = first;
        self.run_moment(Moment::TurnStart, first);
        if self.phase != Phase::Act {
            return true;
        }
        self.next_chooser()
    }

    /// Makes the first waiting seat with a legal action the one to act,
    /// passing over those with none (they pass when the choices resolve).
    /// False when no seat is left to choose.
    fn next_chooser(&mut self) -> bool {
        loop {
            let Some(seat) = self
                .simul
                .as_deref()
                .and_then(|s| s.waiting.first().copied())
            else {
                return false;
            };
            self.current = seat;
            self.phase = Phase::Act;
            if self.state.is_live(seat) && self.has_action() {
                return true;
            }
            if let Some(s) = self.simul.as_deref_mut() {
                s.waiting.remove(0);
            }
        }
    }

    /// Holds `action`, the choice of the seat to act in a simultaneous
    /// turn, if it is allowed now: unseen, undone. The next seat chooses;
    /// after the last, the choices resolve.
    #[cold]
    #[inline(never)]
    pub(super) fn hold(&mut self, action: Action) -> Result<(), Illegal> {
        if !self.allowed(action) {
            return self.check(action);
        }
        let seat = self.current;
        if let Some(s) = self.simul.as_deref_mut() {
            s.held.push((seat, action));
            s.waiting.retain(|&w| w != seat);
        }
        if !self.next_chooser() {
            self.end_turn();
        }
        Ok(())
    }

    /// Resolves the held choices of a simultaneous turn, in seat order,
    /// each with its seat as the one to act (so its roles, its discards
    /// and choices to make); a seat with no choice held, or one no longer
    /// allowed, passes. The turn's end comes after the last: the first
    /// seat is `current` again. True while the turn waits (a seat must
    /// choose a discard) or the game is over: the caller stops there.
    #[cold]
    #[inline(never)]
    pub(super) fn resolve_held(&mut self) -> bool {
        loop {
            if matches!(self.phase, Phase::Over(_)) {
                self.simul = None;
                return true;
            }
            let Some(s) = self.simul.as_deref_mut() else {
                return false;
            };
            let next = s.resolved.unwrap_or(0);
            let Some(&seat) = s.seats.get(next) else {
                let first = s.seats.first().copied().unwrap_or(self.current);
                self.simul = None;
                self.current = first;
                self.phase = Phase::Act;
                return false;
            };
            s.resolved = Some(next + 1);
            let held = s.held.iter().find(|&&(h, _)| h == seat).map(|&(_, a)| a);
            self.current = seat;
            self.phase = Phase::Act;
            // One action a seat: its last, so "play again" and turns of many plays end here.
            self.actions_this_turn = MAX_ACTIONS_PER_TURN - 1;
            self.play_again_pending = false;
            match held {
                Some(action) if self.allowed(action) => {
                    // What follows it (discards, the next seat's choice) runs from its end.
                    let _ = self.act_zoned_now(action);
                    return true;
                }
                _ => self.record(GameEvent::Passed { seat }),
            }
        }
    }

    /// In a world dealt for `seat` ([`Game::determinise`]): the other
    /// seats' held choices are forgotten, and they are to choose again,
    /// after the seat choosing now, in seat order.
    pub(super) fn forget_others_choices(&mut self, seat: EntityId) {
        let Some(s) = self.simul.as_deref_mut().filter(|s| s.choosing()) else {
            return;
        };
        let current = self.current;
        for &(other, _) in s.held.iter().filter(|&&(h, _)| h != seat) {
            s.waiting.push(other);
        }
        s.held.retain(|&(h, _)| h == seat);
        s.waiting.sort_unstable();
        // The seat choosing now stays first: it is the one to act.
        if let Some(at) = s.waiting.iter().position(|&w| w == current) {
            s.waiting.remove(at);
            s.waiting.insert(0, current);
        }
    }

    /// In a computer player's world: every seat but `seat` leaves the
    /// simultaneous turn being chosen, so `seat`'s choice resolves at once
    /// (the others' it cannot know; a ply spent on them would see nothing
    /// resolve).
    pub(crate) fn choose_alone(&mut self, seat: EntityId) {
        if let Some(s) = self.simul.as_deref_mut().filter(|s| s.choosing()) {
            s.seats.retain(|&w| w == seat);
            s.waiting.retain(|&w| w == seat);
            s.held.retain(|&(h, _)| h == seat);
        }
    }
}

impl Game<'_> {
    /// The choices held in the simultaneous turn being chosen, each with
    /// its seat: for the fairness test, which changes what a seat cannot see.
    #[doc(hidden)]
    pub fn held_unchecked(&self) -> Vec<(EntityId, Action)> {
        match self.simul.as_deref() {
            Some(s) if s.choosing() => s.held.clone(),
            _ => Vec::new(),
        }
    }

    /// Replaces the choice `seat` holds with `action`, unchecked: for the
    /// fairness test. Whether `seat` held one.
    #[doc(hidden)]
    pub fn set_held_unchecked(&mut self, seat: EntityId, action: Action) -> bool {
        let Some(s) = self.simul.as_deref_mut().filter(|s| s.choosing()) else {
            return false;
        };
        match s.held.iter_mut().find(|(h, _)| *h == seat) {
            Some(held) => {
                held.1 = action;
                true
            }
            None => false,
        }
    }
}
