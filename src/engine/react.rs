//! Reactions (`:reaction {:on :played :where …}` on a card, cards kept in
//! `:zones`): when a card is played, once it is paid for and what its
//! `:played` triggers set off has run, and before its effects, a window
//! opens. Each other seat, in turn order after the card's player, that
//! holds a reaction whose `:where` holds and which it can pay for decides,
//! as the one to act ([`Game::ctx`]'s `current`, [`Phase::React`]): it
//! plays a reaction, or passes ([`Ability::Pass`]). A seat with none is
//! not asked. A reaction played is paid for and opens its own window (the
//! windows nest, to `:budgets :trigger-depth`), then its effects run with
//! `:subject` the card it answers and `:source` that card's player; then
//! the window it answered goes on to the next seat. Once every seat has
//! answered, or the card is cancelled (`{:cancel :subject}`), the window
//! closes and the card's play resumes: its effects, unless cancelled, then
//! what follows any play.
//!
//! Decided here: a seat is asked once in each window (after its reaction
//! resolves, the next seat is asked, not it again); a reaction is never
//! played on its owner's own initiative (in `Phase::Act`), since there is
//! no card for it to answer.

use super::{Ability, Action, CardId, Game, GameEvent, Illegal, Phase};
use crate::ids::EntityId;

/// What a game whose deck has reactions keeps: the windows open, innermost last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Reactions {
    windows: Vec<Window>,
}

/// A window: a card played, paid for, waiting for the other seats' answers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Window {
    /// The card being answered.
    card: CardId,
    /// Its instance: `:subject` in a reaction.
    entity: EntityId,
    /// Its player: `:source` in a reaction.
    player: EntityId,
    /// The seats still to be asked, in turn order; the first is deciding
    /// once [`Game::ask_next`] has made it the one to act.
    waiting: Vec<EntityId>,
    /// Whether `waiting[0]` is deciding now.
    asking: bool,
    /// The reaction that cancelled the card, if one did.
    cancelled_by: Option<CardId>,
    /// The target and option it was played with.
    aim: (Option<EntityId>, Option<crate::ids::OptionId>),
}

impl Reactions {
    /// What a game of `cards` keeps, if some card is a reaction.
    pub(super) fn new(cards: &[crate::check::defs::Card]) -> Option<Box<Reactions>> {
        cards
            .iter()
            .any(|c| c.reaction.is_some())
            .then(Box::<Reactions>::default)
    }
}

impl Game<'_> {
    /// Opens a window for `card` (instance `entity`) just paid for by
    /// `player`, if another seat can answer it and the windows open are
    /// fewer than `:budgets :trigger-depth`: the first such seat is then the
    /// one to act. False when none can: the play goes on at once.
    #[cold]
    #[inline(never)]
    pub(super) fn open_window(
        &mut self,
        player: EntityId,
        card: CardId,
        entity: EntityId,
        aim: (Option<EntityId>, Option<crate::ids::OptionId>),
    ) -> bool {
        let depth = self.react.as_deref().map_or(0, |r| r.windows.len());
        // A game its cost or its triggers ended has nobody left to answer.
        if depth >= usize::from(self.rules.trigger_depth) || matches!(self.phase, Phase::Over(_)) {
            return false;
        }
        let seats = self.seats;
        let waiting: Vec<EntityId> = (1..seats)
            .map(|k| EntityId::new((player.index() + k) % seats))
            .filter(|&s| self.state.is_live(s))
            .collect();
        let Some(r) = self.react.as_deref_mut() else {
            return false;
        };
        r.windows.push(Window {
            card,
            entity,
            player,
            waiting,
            asking: false,
            cancelled_by: None,
            aim,
        });
        if self.ask_next() {
            return true;
        }
        // Nobody can answer: as if no window had opened.
        if let Some(r) = self.react.as_deref_mut() {
            r.windows.pop();
        }
        self.current = player;
        self.phase = Phase::Act;
        false
    }

    /// Makes the next seat of the innermost window that can answer its card
    /// the one to act, dropping those that cannot. False when none is left
    /// (or the card is cancelled already).
    fn ask_next(&mut self) -> bool {
        loop {
            let Some(w) = self.react.as_deref_mut().and_then(|r| r.windows.last_mut()) else {
                return false;
            };
            if w.asking {
                w.waiting.remove(0);
                w.asking = false;
            }
            if w.cancelled_by.is_some() {
                return false;
            }
            let Some(&seat) = w.waiting.first() else {
                return false;
            };
            w.asking = true;
            self.current = seat;
            self.phase = Phase::React;
            if self.can_react() {
                return true;
            }
        }
    }

    /// Whether the seat to act holds a reaction it may play now.
    fn can_react(&mut self) -> bool {
        (0..self.hand().len()).any(|i| {
            let play = self.play(i);
            self.allowed_reaction(play)
        })
    }

    /// Whether `action` is allowed in a window: a pass, or a reaction of the
    /// deciding seat's hand whose `:where` holds for the card answered, and
    /// which it can pay for and find room for.
    pub(super) fn allowed_reaction(&mut self, action: Action) -> bool {
        let Some(w) = self.react.as_deref().and_then(|r| r.windows.last()) else {
            return false;
        };
        let (subject, source) = (w.entity, w.player);
        match action.ability {
            Ability::Pass => true,
            Ability::Card(i) => {
                let i = usize::from(i);
                let Some(&card) = self.hand().get(i) else {
                    return false;
                };
                let Some(reaction) = &self.cards[card.index()].reaction else {
                    return false;
                };
                if !self.affordable_at(i) || !self.room_for(card) {
                    return false;
                }
                let Some(filter) = &reaction.filter else {
                    return true;
                };
                let Some(bearer) = self.hand_instance(self.current, i) else {
                    return false;
                };
                let h =
                    super::triggers::Happened::about(super::triggers::On::Played, subject, None);
                let seat = self.current;
                let holds =
                    self.trigger_frame(bearer, seat, subject, source, h, |_, state, roles| {
                        crate::eval::holds(filter, state, roles)
                    });
                self.state.forget_rolls();
                holds
            }
            Ability::Discard(_)
            | Ability::Action(_)
            | Ability::EndTurn
            | Ability::Use(_)
            | Ability::Target => false,
        }
    }

    /// The deciding seat passes: the card resolves for it, and the next
    /// seat is asked (or the window closes).
    pub(super) fn pass_window(&mut self) {
        let card = self
            .react
            .as_deref()
            .and_then(|r| r.windows.last())
            .map(|w| w.card);
        if let Some(card) = card {
            let seat = self.current;
            self.record(GameEvent::Declined { seat, card });
        }
        self.advance_window();
    }

    /// The card the reaction resolving now answers and its player (its
    /// `:subject` and `:source`): the innermost window's; `None` for a card
    /// played on a turn, which answers nothing.
    #[inline]
    pub(super) fn answered(&self) -> Option<(EntityId, EntityId)> {
        let w = self.react.as_deref()?.windows.last()?;
        Some((w.entity, w.player))
    }

    /// Runs the effects of reaction `card`, played by `seat`, answering
    /// `(subject, source)`: the seat's roles, then `:subject` and
    /// `:source`; `:this-card` is set by the caller. A card it cancels is
    /// noted on the window that answers it, and logged.
    pub(super) fn run_reaction(
        &mut self,
        seat: EntityId,
        card: CardId,
        (subject, source): (EntityId, EntityId),
    ) {
        let n = self.role_count;
        let s = seat.index().min(self.seats.saturating_sub(1));
        let mut roles: Vec<EntityId> = self.roles[s * n..][..n].to_vec();
        roles.extend([subject, source]);
        let effects = &self.cards[card.index()].effects;
        crate::eval::apply(
            self.rules,
            effects,
            &mut self.state,
            &roles,
            &mut self.events,
        );
        self.state.claim(crate::eval::Owner::Card(card.index()));
        self.flush_events(|cause| super::By::Card(card, cause));
        let cancelled = self
            .state
            .cards
            .as_deref_mut()
            .map(crate::eval::zones::CardTable::take_cancelled)
            .unwrap_or_default();
        for (entity, _) in cancelled {
            let Some(w) = self
                .react
                .as_deref_mut()
                .and_then(|r| r.windows.iter_mut().rev().find(|w| w.entity == entity))
            else {
                continue;
            };
            if w.cancelled_by.is_none() {
                w.cancelled_by = Some(card);
                let answered = w.card;
                self.record(GameEvent::Cancelled {
                    card: answered,
                    by: card,
                });
            }
        }
    }

    /// After a reaction has resolved: the window it answered in goes on.
    pub(super) fn after_reaction(&mut self) {
        self.advance_window();
    }

    /// The innermost window goes on: its next seat that can answer decides;
    /// with none left, it closes and its card's play resumes, with its
    /// player the one to act.
    fn advance_window(&mut self) {
        if matches!(self.phase, Phase::Over(_)) {
            self.close_windows();
            return;
        }
        if self.ask_next() {
            return;
        }
        let Some(w) = self.react.as_deref_mut().and_then(|r| r.windows.pop()) else {
            return;
        };
        self.current = w.player;
        self.phase = Phase::Act;
        self.resolve_played(w.player, w.card, w.entity, w.cancelled_by.is_some(), w.aim);
    }

    /// Forgets every window: the game is over, or starts anew.
    pub(super) fn close_windows(&mut self) {
        if let Some(r) = self.react.as_deref_mut() {
            r.windows.clear();
        }
    }

    /// The card being answered in the innermost window and its player,
    /// while a seat decides whether to answer it ([`Phase::React`]).
    pub fn answering(&self) -> Option<(CardId, EntityId)> {
        if self.phase != Phase::React {
            return None;
        }
        let w = self.react.as_deref()?.windows.last()?;
        Some((w.card, w.player))
    }

    /// A pass in the window open: the deciding seat lets the card resolve.
    pub fn pass_action(&self) -> Action {
        Action {
            ability: Ability::Pass,
            actor: self.current,
            target: None,
            choice: None,
        }
    }

    /// How many windows are open (0: none; a seat answering a reaction to
    /// a card is in the second).
    pub fn window_depth(&self) -> usize {
        self.react.as_deref().map_or(0, |r| r.windows.len())
    }

    /// In a computer player's world: the window open at `depth` and those
    /// inside it play out with every seat passing, until the card it
    /// answers has resolved (or been cancelled); what the play does next
    /// (the rest of the turn) is not played.
    pub(crate) fn play_window_out(&mut self, depth: usize) {
        // Each pass asks the next seat or closes a window: bounded by the
        // seats times the depth.
        let bound = self.seats.saturating_mul(depth.max(1)).saturating_add(1);
        for _ in 0..bound {
            if self.phase != Phase::React || self.window_depth() < depth {
                return;
            }
            let pass = self.pass_action();
            if self.act(pass).is_err() {
                return;
            }
        }
    }

    /// Why `action` is refused in a window, or, for a pass, outside one.
    #[cold]
    pub(super) fn reaction_refusal(&mut self, action: Action) -> Illegal {
        let Some((answered, _)) = self.answering() else {
            return Illegal::Refused(
                "no card waits for an answer: there is nothing to pass on".to_string(),
            );
        };
        if action.actor != self.current {
            return Illegal::NotYourTurn(action.actor);
        }
        let answered = &self.cards[answered.index()].name;
        let Ability::Card(i) = action.ability else {
            return Illegal::Reacting;
        };
        let i = usize::from(i);
        let Some(&card) = self.hand().get(i) else {
            return Illegal::NoSuchCard(i);
        };
        let def = &self.cards[card.index()];
        if def.reaction.is_none() {
            return Illegal::Refused(format!(
                "{} is not a reaction: answering {answered}, a seat plays a reaction or passes",
                def.name
            ));
        }
        if !self.affordable_at(i) {
            let attr = def.play.pay_with.unwrap_or(crate::ids::AttrId::FIRST);
            return Illegal::CannotAfford {
                name: def.name.clone(),
                cost: self.cost_at(i),
                resource: self.rules.attributes[attr].clone(),
                have: self.state.get(self.current, attr),
            };
        }
        Illegal::Refused(format!("{} cannot answer {answered}", def.name))
    }
}
