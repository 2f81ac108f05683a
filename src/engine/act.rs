//! Doing what an actor chose: a card played or discarded, an action of
//! `:actions` used now or prepared (delayed to the next round's end, or
//! until its actor forces it), and "play again".

use super::action::{Paid, bind_action, recheck};
use super::spare::WithList;
use super::{Ability, Action, By, Game, GameEvent, Illegal, Phase, Stage, cards};
use crate::check::ast::EntityId;
use crate::check::rules::{ActionId, WhilePreparing};
use crate::eval::{Event, Owner, State, holds};

/// The most actions one turn may hold: "play again" past it ends the turn, so a
/// deck of nothing but "play again" cards still reaches the turn limit.
pub const MAX_ACTIONS_PER_TURN: u32 = 100;

/// A delayed (prepared) action waiting for its round's end.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Pending {
    action: Action,
    seat: EntityId,
    /// The round at whose end it resolves, unless forced before.
    round: u32,
    /// What its `:pay` changed (entity, attribute, the value before): it is
    /// checked again with those values, so its spent cost does not make it illegal.
    paid: Vec<Paid>,
}

impl Clone for Pending {
    fn clone(&self) -> Pending {
        self.with_list(Vec::new())
    }

    /// Into the payments' buffer already held: a search copies the game's
    /// prepared actions into a world of its once an iteration.
    fn clone_from(&mut self, source: &Pending) {
        let Pending {
            action,
            seat,
            round,
            paid,
        } = source;
        self.action = *action;
        self.seat = *seat;
        self.round = *round;
        self.paid.clone_from(paid);
    }
}

impl WithList for Pending {
    type Item = Paid;

    fn list(&mut self) -> &mut Vec<Paid> {
        &mut self.paid
    }

    fn with_list(&self, mut paid: Vec<Paid>) -> Pending {
        paid.extend_from_slice(&self.paid);
        Pending { paid, ..*self }
    }
}

/// Which prepared actions resolve now.
#[derive(Clone, Copy)]
pub(super) enum Due {
    /// Those whose round is ending.
    RoundEnd,
    /// Those of this actor, which forces them (`:while-preparing :forces`).
    Forced(EntityId),
}

/// Which of an action's effect lists to run.
#[derive(Clone, Copy)]
enum ActionList {
    /// `:pay`
    Pay,
    /// `:effects`
    Effects,
}

impl Game<'_> {
    /// Runs `card`'s effects with `seat`'s roles, a budget that ran out in
    /// them said to be the card's, and logs what they did: a card of
    /// `:zones` is played so once it is paid for (classic `act` writes it out).
    pub(super) fn run_card(&mut self, seat: EntityId, card: crate::ids::CardId) {
        let (code, s) = (&self.code, seat.index());
        code.program.apply_inline(
            self.rules,
            &code.cards[card.index()],
            &mut self.state,
            &self.roles[s * self.role_count..][..self.role_count],
            &mut self.events,
        );
        self.state.claim(Owner::Card(card.index()));
        self.flush_events(|cause| By::Card(card, cause));
    }

    /// Does `action` for the entity whose turn it is.
    pub fn act(&mut self, action: Action) -> Result<(), Illegal> {
        if self.zoned {
            return self.act_zoned(action);
        }
        if !self.allowed(action) {
            return self.check(action);
        }
        if let Ability::Action(id) = action.ability {
            self.act_action(id, action);
            return Ok(());
        }
        let seat = self.current;
        let s = seat.index();
        let i = action.hand_position();
        let rules = self.rules;
        let zones = &mut self.zones;
        match action.ability {
            Ability::Card(_) => {
                let card = zones.hands[s].remove(i);
                let def = &self.cards[card.index()];
                self.record(GameEvent::Played {
                    seat,
                    card,
                    choice: None,
                });
                cards::pay(rules, &mut self.state, seat, def, &mut self.events);
                if !self.events.is_empty() {
                    self.flush_plain(|_| By::Cost(card));
                }
                if let Some(attr) = rules.cards.as_ref().and_then(|z| z.played) {
                    cards::record_play(rules, &mut self.state, seat, attr, card, &mut self.events);
                    self.flush_plain(|_| By::Played(card));
                }
                // Written out, not `run_card`: shared with the zoned play, its
                // `flush_events` was compiled out of line (+0.9 % instructions
                // on random Arcomage, measured).
                let code = &self.code;
                code.program.apply_inline(
                    rules,
                    &code.cards[card.index()],
                    &mut self.state,
                    &self.roles[s * self.role_count..][..self.role_count],
                    &mut self.events,
                );
                self.state.claim(Owner::Card(card.index()));
                self.flush_plain(|cause| By::Card(card, cause));
                // A card played `:once` leaves the game instead.
                if !def.play.once {
                    self.zones.discard(s, card);
                }
                self.check_victory();
                if matches!(self.phase, Phase::Over(_)) {
                    return Ok(());
                }
                let zones = &mut self.zones;
                zones.refill(s, &mut self.state.rng);
                for _ in 0..def.play.draw {
                    zones.draw(s, &mut self.state.rng);
                }
                self.play_again_pending = def.play.play_again;
                // Only a card that makes the player discard needs the count.
                let must = match def.play.discard {
                    0 => 0,
                    n => {
                        let discardable = zones.hands[s]
                            .iter()
                            .filter(|&&c| self.cards[c.index()].play.discardable)
                            .count();
                        (n as usize).min(discardable) as u8
                    }
                };
                if must > 0 {
                    self.phase = Phase::MustDiscard(must);
                } else {
                    self.after_action();
                }
            }
            Ability::Discard(_) => {
                let card = zones.hands[s].remove(i);
                zones.discard(s, card);
                let forced = matches!(self.phase, Phase::MustDiscard(_));
                self.record(GameEvent::Discarded { seat, card, forced });
                match self.phase {
                    Phase::MustDiscard(n) if n > 1 => self.phase = Phase::MustDiscard(n - 1),
                    Phase::MustDiscard(_) => {
                        self.phase = Phase::Act;
                        self.after_action();
                    }
                    _ => {
                        self.zones.refill(s, &mut self.state.rng);
                        self.play_again_pending = false;
                        self.end_turn();
                    }
                }
            }
            Ability::Action(_)
            | Ability::EndTurn
            | Ability::Pass
            | Ability::Use(_)
            | Ability::Target => {}
        }
        Ok(())
    }

    fn after_action(&mut self) {
        self.actions_this_turn += 1;
        if self.play_again_pending && self.actions_this_turn >= MAX_ACTIONS_PER_TURN {
            // An endless "play again" chain would never reach the turn limit.
            self.play_again_pending = false;
        }
        if self.play_again_pending {
            self.play_again_pending = false;
            self.phase = Phase::Act;
            if !self.has_action() {
                self.record(GameEvent::Passed { seat: self.current });
                self.end_turn();
            }
        } else {
            self.end_turn();
        }
    }

    /// Uses action `id` of `:actions`: logs it, runs its `:pay`, then its
    /// `:effects` now or, when its `:delayed-when` holds, at the next round's
    /// end (prepared); an action that `:forces` resolves its actor's prepared
    /// actions between its `:pay` and its `:effects`. The turn goes on while
    /// the seat can still act.
    pub(super) fn act_action(&mut self, id: ActionId, action: Action) {
        let rules = self.rules;
        let def = &rules.actions[id];
        let seat = self.current;
        let delayed = def.delayed_when.as_ref().is_some_and(|c| {
            let roles = &self.roles[seat.index() * self.role_count..][..self.role_count];
            bind_action(&mut self.state, roles, action, |state, r| {
                holds(c, state, r)
            })
        });
        let stage = if delayed { Stage::Delayed } else { Stage::Done };
        self.record(GameEvent::Acted {
            seat,
            action,
            stage,
        });
        if delayed {
            let mut paid = self.spare_paid.take();
            self.run_action(ActionList::Pay, id, seat, action, Some(&mut paid));
            self.pending.push(Pending {
                action,
                seat,
                round: self.round + 1,
                paid,
            });
        } else {
            self.run_action(ActionList::Pay, id, seat, action, None);
            if def.while_preparing == Some(WhilePreparing::Forces)
                && !matches!(self.phase, Phase::Over(_))
            {
                self.resolve_pending(Due::Forced(action.actor));
            }
            if !matches!(self.phase, Phase::Over(_)) {
                self.run_action(ActionList::Effects, id, seat, action, None);
            }
        }
        if matches!(self.phase, Phase::Over(_)) {
            return;
        }
        self.actions_this_turn += 1;
        if self.actions_this_turn < MAX_ACTIONS_PER_TURN && self.has_action() {
            self.phase = Phase::Act;
        } else {
            self.end_turn();
        }
    }

    /// Runs one of action `id`'s effect lists with the roles of `seat`'s turn
    /// and `:actor`, `:target` bound; then checks victory. The values it
    /// changes, as they were before, are added to `paid`, if given.
    fn run_action(
        &mut self,
        list: ActionList,
        id: ActionId,
        seat: EntityId,
        action: Action,
        paid: Option<&mut Vec<Paid>>,
    ) {
        let def = &self.rules.actions[id];
        let compiled = &self.code.actions[id.index()];
        let (source, code) = match list {
            ActionList::Pay => (&def.pay, &compiled.pay),
            ActionList::Effects => (&def.effects, &compiled.effects),
        };
        if source.is_empty() {
            return;
        }
        let roles = &self.roles[seat.index() * self.role_count..][..self.role_count];
        let (rules, program, events) = (self.rules, &self.code.program, &mut self.events);
        bind_action(&mut self.state, roles, action, |state, r| {
            program.apply_inline(rules, code, state, r, events);
            state.claim(Owner::Rules);
        });
        if let Some(paid) = paid {
            // The first change of each value holds what it was before paying.
            for e in &self.events {
                if let Some(a) = e.attr()
                    && !paid.iter().any(|&(x, y, _)| x == e.entity && y == a)
                {
                    paid.push((e.entity, a, e.before));
                }
            }
        }
        // What the action did, its actor did: the `:source` of what it sets off.
        let outer = self.set_trigger_source(Some(action.actor));
        self.flush_events(|cause| By::Action(id, cause));
        self.set_trigger_source(outer);
        self.check_victory();
    }

    /// Whether `actor` has a prepared action waiting: it is "preparing".
    #[inline]
    pub(super) fn preparing(&self, actor: EntityId) -> bool {
        !self.pending.is_empty() && self.pending.iter().any(|p| p.action.actor == actor)
    }

    /// The first action `actor` has prepared and is waiting, if any.
    pub(super) fn prepared_by(&self, actor: EntityId) -> Option<Action> {
        self.pending
            .iter()
            .find(|p| p.action.actor == actor)
            .map(|p| p.action)
    }

    /// Resolves the prepared actions that are `due`, in the order they were
    /// chosen: each one still allowed ([`Game::still_allowed`]) runs its
    /// effects; the others are cancelled, and the log says why.
    pub(super) fn resolve_pending(&mut self, due: Due) {
        if self.pending.is_empty() {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        let round = self.round;
        // Those that wait move to the front, in order; those done go after.
        let mut waiting = 0;
        for i in 0..pending.len() {
            let p = &pending[i];
            let now = match due {
                Due::RoundEnd => p.round <= round,
                Due::Forced(actor) => p.action.actor == actor,
            };
            if !now || matches!(self.phase, Phase::Over(_)) {
                pending.swap(waiting, i);
                waiting += 1;
                continue;
            }
            let Ability::Action(id) = p.action.ability else {
                continue;
            };
            let verdict = self.still_allowed(id, p.seat, p.action, &p.paid);
            let stage = match verdict {
                Ok(()) => Stage::Resolved,
                Err(why) => Stage::Cancelled(why),
            };
            self.record(GameEvent::Acted {
                seat: p.seat,
                action: p.action,
                stage,
            });
            if verdict.is_ok() {
                self.run_action(ActionList::Effects, id, p.seat, p.action, None);
            }
        }
        for mut done in pending.drain(waiting..) {
            self.spare_paid.keep(std::mem::take(done.list()));
        }
        // Actions delayed while these resolved wait behind those already waiting.
        pending.append(&mut self.pending);
        self.pending = pending;
    }
}

impl Game<'_> {
    /// What `action` of `:actions` would do to `state` (a copy of the game's):
    /// its `:pay`, the prepared actions it forces (those still allowed on
    /// `state`), and its `:effects` unless it would be delayed; then who
    /// would leave play. For the greedy AI's lookahead.
    /// Inline: in one file with the rest of `Game` it was inlined into the AI's trials.
    #[inline]
    pub(crate) fn try_action(
        &self,
        state: &mut State,
        action: Action,
        events: &mut Vec<Event>,
        removed: &mut Vec<EntityId>,
    ) {
        let Ability::Action(id) = action.ability else {
            if let Ability::Use(k) = action.ability {
                let roles = self.seat_roles(self.current.index());
                self.try_use(state, k, action, roles, events);
                state.remove_fallen(self.rules, roles, removed, events);
            }
            return;
        };
        let Some(def) = self.rules.actions.get(id) else {
            return;
        };
        let roles = self.seat_roles(self.current.index());
        let (program, code) = (&self.code.program, &self.code.actions[id.index()]);
        let delayed = bind_action(state, roles, action, |state, r| {
            program.apply_inline(self.rules, &code.pay, state, r, events);
            state.claim(Owner::Rules);
            def.delayed_when
                .as_ref()
                .is_some_and(|c| holds(c, state, r))
        });
        if def.while_preparing == Some(WhilePreparing::Forces) {
            self.try_forced(state, action.actor, events);
        }
        if !delayed {
            bind_action(state, roles, action, |state, r| {
                program.apply_inline(self.rules, &code.effects, state, r, events);
                state.claim(Owner::Rules);
            });
        }
        state.remove_fallen(self.rules, roles, removed, events);
    }

    /// What forcing `actor`'s prepared actions would do to `state`: the
    /// effects of each one still allowed there.
    #[cold]
    fn try_forced(&self, state: &mut State, actor: EntityId, events: &mut Vec<Event>) {
        for p in self.pending.iter().filter(|p| p.action.actor == actor) {
            let Ability::Action(id) = p.action.ability else {
                continue;
            };
            let code = &self.code.actions[id.index()];
            let roles = self.seat_roles(p.seat.index());
            if recheck(code, state, roles, p.action, &p.paid).is_ok() {
                bind_action(state, roles, p.action, |state, r| {
                    self.code
                        .program
                        .apply_inline(self.rules, &code.effects, state, r, events);
                });
            }
        }
    }
}
