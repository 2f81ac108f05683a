//! Activated abilities (`:abilities` on a card, with `:zones`): what the
//! seat whose turn it is may do with a card of its own in a zone of play.
//! A use is [`Ability::Use`] with the card's instance as the actor, a
//! chosen target and an option as a card's play has them; it is paid for
//! (the ability's `:cost` in its `:type`), then its effects run with
//! `:this-card` the card, its random targets drawn as it resolves. A use
//! counts as the turn's action, as a card played does.

use super::{Ability, Action, Game, GameEvent, Illegal, Phase};
use crate::check::abilities::Activated;
use crate::eval::{Cause, Owner, State};
use crate::ids::{CardId, EntityId, OptionId, ZoneId};

/// Where the game keeps which once-a-turn abilities were used this turn.
#[derive(Clone, Debug, Default)]
pub(super) struct Used {
    /// The turn the list is for.
    turn: u32,
    /// Each (instance, ability) used in it.
    uses: Vec<(EntityId, u8)>,
}

/// Why an ability may not be used now, whatever it aims at: words only
/// once somebody reads them.
#[derive(Clone, Copy, Debug)]
enum UseRefusal<'r> {
    /// It is used once a turn, and was this turn.
    UsedThisTurn,
    /// It costs more of `attr` than the seat has (`have`).
    TooDear { attr: crate::ids::AttrId, have: i64 },
    /// Its `:usable-when` or its targets refuse it.
    Aims(super::aims::Refusal<'r>),
}

impl<'r> Game<'r> {
    /// Fills `out` with the card instances `seat` has in its own piles of
    /// the zones of play, zone by zone, in pile order.
    pub(super) fn in_play_of(&self, seat: EntityId, out: &mut Vec<EntityId>) {
        out.clear();
        let (Some(set), Some(table)) = (
            self.rules.zones.as_ref().filter(|z| !z.classic),
            self.state.cards.as_deref(),
        ) else {
            return;
        };
        for z in ZoneId::below(set.zones.len()) {
            if !set.zones[z].in_play || set.zones[z].shared {
                continue;
            }
            if let Some(pile) = table.pile(set, z, seat) {
                out.extend_from_slice(table.contents(pile));
            }
        }
    }

    /// The card whose instance `entity` is, and its ability `k`, if it has one.
    fn activated(&self, entity: EntityId, k: u8) -> Option<(CardId, &'r Activated)> {
        let cards: &'r [crate::check::defs::Card] = self.cards;
        let card = self.state.cards.as_deref()?.card(entity)?;
        Some((card, cards[card.index()].abilities.get(usize::from(k))?))
    }

    /// Whether some card of the deck has `:abilities` (with `:zones`).
    pub fn has_abilities(&self) -> bool {
        self.used.is_some()
    }

    /// Whether the deck's cards act beyond their own effects: triggers,
    /// auras, keywords given, reactions or activated abilities (with
    /// `:zones`). A computer player's trial of a move then plays it whole.
    pub fn cards_act(&self) -> bool {
        self.triggers.is_some()
            || self.react.is_some()
            || self.used.is_some()
            || (self.aims && self.cards.iter().any(|c| self.chooses_later_def(c)))
    }

    /// In a computer player's world: the play just made goes on to its end,
    /// each later target the first candidate, each window of answers
    /// played out with every seat passing ([`Game::play_window_out`] from `depth`).
    pub(crate) fn settle_play(&mut self, depth: usize) {
        // Each step chooses a target or closes a window: bounded by the targets and seats.
        for _ in 0..64 {
            match self.phase {
                Phase::Target => {
                    let mut out = Vec::new();
                    self.targets_allowed(&mut out);
                    match out.first() {
                        Some(&first) if self.act(first).is_ok() => {}
                        _ => return,
                    }
                }
                Phase::React => self.play_window_out(depth),
                _ => return,
            }
        }
    }

    /// Whether `seat` holds `entity` in one of its zones of play.
    fn holds_in_play(&mut self, seat: EntityId, entity: EntityId) -> bool {
        let mut in_play = std::mem::take(&mut self.aim_scratch.in_play);
        self.in_play_of(seat, &mut in_play);
        let holds = in_play.contains(&entity);
        self.aim_scratch.in_play = in_play;
        holds
    }

    /// Whether ability `k` of `entity` was used this turn.
    fn used_this_turn(&self, entity: EntityId, k: u8) -> bool {
        self.used
            .as_deref()
            .is_some_and(|u| u.turn == self.turn && u.uses.contains(&(entity, k)))
    }

    /// Pushes to `out` every use of an ability the seat to act may make now:
    /// for each of its cards in play, each ability, each chosen target, each option.
    pub(super) fn uses_allowed(&mut self, out: &mut Vec<Action>) {
        if self.used.is_none() || self.phase != Phase::Act {
            return;
        }
        let seat = self.current;
        let mut in_play = std::mem::take(&mut self.aim_scratch.in_play);
        self.in_play_of(seat, &mut in_play);
        for &entity in &in_play {
            let Some(card) = self.state.cards.as_deref().and_then(|t| t.card(entity)) else {
                continue;
            };
            let cards: &'r [crate::check::defs::Card] = self.cards;
            for (k, a) in cards[card.index()].abilities.iter().enumerate() {
                let k = k as u8;
                if self.use_refusal_of(seat, entity, k, a).is_some() {
                    continue;
                }
                // Each chosen target with each option of its `:choose`, in the set's order.
                let options = a
                    .choose
                    .and_then(|c| self.rules.choices.get(c))
                    .map(|set| set.options());
                let count = options.as_ref().map_or(1, ExactSizeIterator::len);
                let mut push = |target: Option<EntityId>| {
                    for i in 0..count {
                        out.push(Action {
                            ability: Ability::Use(k),
                            actor: entity,
                            target,
                            choice: options.as_ref().map(|o| OptionId::new(o.start + i)),
                        });
                    }
                };
                let Some(t) = a.chosen() else {
                    push(None);
                    continue;
                };
                let any = self.with_candidates(&a.targets, entity, seat, |found| {
                    found.iter().for_each(|&e| push(Some(e)));
                    !found.is_empty()
                });
                // An optional target with nothing to aim at: one use on
                // nothing, with no option, as a card played on nothing.
                if !any && t.optional {
                    out.push(Action {
                        ability: Ability::Use(k),
                        actor: entity,
                        target: None,
                        choice: None,
                    });
                }
            }
        }
        self.aim_scratch.in_play = in_play;
    }

    /// `action` in words, who and what: `Mage`, `ping Yeti (harm)` for a
    /// card's ability; as [`super::log::action_words`] says for the rest.
    pub fn action_words(&self, action: Action) -> (String, String) {
        let name = |e: EntityId| self.entity_name(e);
        let Ability::Use(k) = action.ability else {
            return super::log::action_words(self.rules, action, name);
        };
        let ability = self
            .activated(action.actor, k)
            .map_or("?", |(_, a)| a.name.as_str());
        let mut what = ability.to_string();
        if let Some(t) = action.target {
            what.push(' ');
            what.push_str(&name(t));
        }
        if let Some(option) = action.choice.and_then(|o| self.rules.options.get(o)) {
            what.push_str(&format!(" ({option})"));
        }
        (name(action.actor), what)
    }

    /// The use of card instance `actor`'s ability called `name`, on
    /// `target`, with the option called `option` (a scenario's step); why
    /// not, when the card has no such ability or option.
    pub fn ability_use(
        &self,
        actor: EntityId,
        name: &str,
        target: Option<EntityId>,
        option: Option<&str>,
    ) -> Result<Action, String> {
        let card = self.state.cards.as_deref().and_then(|t| t.card(actor));
        let Some(card) = card else {
            return Err(format!("{} is not a card", self.entity_name(actor)));
        };
        let def = &self.cards[card.index()];
        let Some(k) = def.abilities.iter().position(|a| a.name == name) else {
            return Err(format!("{} has no ability `:{name}`", def.name));
        };
        let set = def.abilities[k]
            .choose
            .and_then(|c| self.rules.choices.get(c));
        let choice = match (option, set) {
            (None, _) => None,
            (Some(o), Some(set)) => match set
                .options()
                .find(|&i| self.rules.options[OptionId::new(i)] == o)
            {
                Some(i) => Some(OptionId::new(i)),
                None => return Err(format!("`:{}` has no option `:{o}`", set.name)),
            },
            (Some(_), None) => {
                return Err(format!("{}'s `:{name}` takes no option", def.name));
            }
        };
        Ok(Action {
            ability: Ability::Use(k as u8),
            actor,
            target,
            choice,
        })
    }

    /// The options ability `k` of card instance `entity` is used with: its
    /// `:choose` set's first option and how many, `None` inside for one
    /// without; `None` when the card has no such ability.
    pub fn ability_options(&self, entity: EntityId, k: u8) -> Option<Option<(usize, usize)>> {
        let (_, a) = self.activated(entity, k)?;
        Some(
            a.choose
                .and_then(|c| self.rules.choices.get(c))
                .map(|s| (s.first.index(), usize::from(s.len))),
        )
    }

    /// Whether ability `k` of card instance `entity` chooses a target.
    pub fn ability_aims(&self, entity: EntityId, k: u8) -> bool {
        self.activated(entity, k)
            .is_some_and(|(_, a)| a.chosen().is_some())
    }

    /// Is the use `action` (of ability `k`) allowed now?
    pub(super) fn allowed_use(&mut self, k: u8, action: Action) -> bool {
        self.use_refusal(k, action).is_none()
    }

    /// Why the use `action` (of ability `k`) is refused now, if it is.
    pub(super) fn use_refusal(&mut self, k: u8, action: Action) -> Option<Illegal> {
        match self.phase {
            Phase::Act => {}
            Phase::Over(_) => return Some(Illegal::Over),
            Phase::MustDiscard(_) => return Some(Illegal::MustDiscard),
            Phase::React => return Some(Illegal::Reacting),
            Phase::Target => return Some(Illegal::Targeting),
            Phase::BetweenTurns => return Some(Illegal::BetweenTurns),
        }
        let seat = self.current;
        let entity = action.actor;
        let Some((card, a)) = self.activated(entity, k) else {
            return Some(Illegal::NotAllowed(format!(
                "{} has no such ability",
                self.entity_name(entity)
            )));
        };
        let name = &self.cards[card.index()].name;
        if !self.holds_in_play(seat, entity) {
            return Some(Illegal::NotAllowed(format!(
                "{name} is not in play on {}'s side: only its controller uses its `:{}`, on their turn",
                self.entity_name(seat),
                a.name
            )));
        }
        if let Some(why) = self.use_refusal_of(seat, entity, k, a) {
            return Some(Illegal::Refused(self.use_refusal_words(card, a, why)));
        }
        if let Some(t) = a.chosen().filter(|t| t.optional && action.target.is_none()) {
            // On nothing: only when nothing can be aimed at, and with no option.
            if !self.with_candidates(&a.targets, entity, seat, <[_]>::is_empty) {
                return Some(Illegal::NotAllowed(format!(
                    "{name}'s `:{}` needs a target: choose its `:{}`",
                    a.name, t.name
                )));
            }
            return action.choice.map(|_| {
                Illegal::NotAllowed(format!(
                    "{name}'s `:{}` is used on nothing: it names no option",
                    a.name
                ))
            });
        }
        let set = a.choose.and_then(|c| self.rules.choices.get(c));
        let fits = match (set, action.choice) {
            (None, None) => true,
            (Some(set), Some(o)) => set.options().contains(&o.index()),
            _ => false,
        };
        if !fits {
            return Some(Illegal::NotAllowed(match set {
                Some(set) => format!("{name}'s `:{}` takes an option of `:{}`", a.name, set.name),
                None => format!("{name}'s `:{}` takes no option", a.name),
            }));
        }
        match (a.chosen(), action.target) {
            (None, None) => None,
            (None, Some(_)) => Some(Illegal::NotAllowed(format!(
                "{name}'s `:{}` chooses no target",
                a.name
            ))),
            (Some(t), None) => Some(Illegal::NotAllowed(format!(
                "{name}'s `:{}` needs a target: choose its `:{}`",
                a.name, t.name
            ))),
            (Some(t), Some(e)) => {
                let ok = self.with_candidates(&a.targets, entity, seat, |found| found.contains(&e));
                (!ok).then(|| {
                    Illegal::NotAllowed(format!(
                        "{name}'s `:{}` cannot aim at {}: it is not a `:{}` it may choose",
                        a.name,
                        self.entity_name(e),
                        t.name
                    ))
                })
            }
        }
    }

    /// Why `seat` may not use ability `k` (`a`) of its card `entity` now,
    /// whatever it aims at: used already this turn, too dear, a
    /// `:usable-when` case failing, or a target without a candidate.
    fn use_refusal_of(
        &mut self,
        seat: EntityId,
        entity: EntityId,
        k: u8,
        a: &'r Activated,
    ) -> Option<UseRefusal<'r>> {
        if a.once_per_turn && self.used_this_turn(entity, k) {
            return Some(UseRefusal::UsedThisTurn);
        }
        if let Some(attr) = a.pay_with {
            let have = self.state.get(seat, attr);
            if a.cost > 0 && have < a.cost {
                return Some(UseRefusal::TooDear { attr, have });
            }
        }
        self.refusal_of(&a.targets, &a.usable, entity, seat)
            .map(UseRefusal::Aims)
    }

    /// `why` card `card` may not use its ability `a`, in words.
    fn use_refusal_words(&self, card: CardId, a: &Activated, why: UseRefusal<'_>) -> String {
        let name = &self.cards[card.index()].name;
        match why {
            UseRefusal::UsedThisTurn => format!("{name}'s `:{}` is used once a turn", a.name),
            UseRefusal::TooDear { attr, have } => format!(
                "{name}'s `:{}` costs {} {}; you have {have}",
                a.name, a.cost, self.rules.attributes[attr]
            ),
            UseRefusal::Aims(r) => r.words(&format!("{name}'s `:{}`", a.name)),
        }
    }

    /// Uses ability `k` of `action.actor`: logged, paid for, marked used
    /// this turn, its effects run; then the turn goes on as after a card.
    pub(super) fn use_ability(&mut self, k: u8, action: Action) {
        let Some((card, a)) = self.activated(action.actor, k) else {
            return;
        };
        let (seat, entity) = (self.current, action.actor);
        self.record(GameEvent::Used {
            seat,
            card,
            instance: entity,
            ability: k,
        });
        if let Some(used) = self.used.as_deref_mut() {
            if used.turn != self.turn {
                used.turn = self.turn;
                used.uses.clear();
            }
            used.uses.push((entity, k));
        }
        if let Some(attr) = a.pay_with.filter(|_| a.cost > 0) {
            let cost = a.cost.saturating_neg();
            let (rules, state) = (self.rules, &mut self.state);
            crate::eval::add_to(
                rules,
                state,
                seat,
                attr,
                cost,
                Cause::effect(0),
                &mut self.events,
            );
            self.flush_events(|_| super::By::Cost(card));
        }
        let outer = self.set_trigger_source(Some(entity));
        self.state.choice = action.choice;
        self.run_use(seat, card, entity, a, action.target);
        self.state.choice = None;
        self.set_trigger_source(outer);
        self.check_victory();
        if matches!(self.phase, Phase::Over(_)) {
            return;
        }
        if !self.offer_choice(true) {
            self.after_zoned_action();
        }
    }

    /// Runs ability `a`'s effects for `seat`, `:this-card` being `entity`,
    /// its targets bound (random ones drawn now).
    fn run_use(
        &mut self,
        seat: EntityId,
        card: CardId,
        entity: EntityId,
        a: &'r Activated,
        chosen: Option<EntityId>,
    ) {
        let was = self.state.cards.as_deref_mut().map(|t| {
            let was = t.this_card();
            t.set_this_card(entity);
            was
        });
        let mut all = std::mem::take(&mut self.aim_scratch.bound);
        let mut found = std::mem::take(&mut self.aim_scratch.found);
        all.clear();
        all.extend_from_slice(self.seat_roles(seat.index()));
        let bound = super::aims::bind(
            self.rules,
            &a.targets,
            &mut self.state,
            entity,
            &mut all,
            chosen.as_slice(),
            &mut found,
        );
        self.aim_scratch.found = found;
        if bound {
            for &target in &all[self.role_count..] {
                self.record(GameEvent::Aimed { card, target });
                let h =
                    super::triggers::Happened::about(super::triggers::On::Targeted, target, None);
                self.happened(h);
            }
            let mut events = std::mem::take(&mut self.events);
            crate::eval::apply(self.rules, &a.effects, &mut self.state, &all, &mut events);
            self.events = events;
            self.state.claim(Owner::Card(card.index()));
            self.flush_events(|cause| super::By::Card(card, cause));
        } else {
            self.record(GameEvent::Fizzled { card });
        }
        self.aim_scratch.bound = all;
        if let (Some(t), Some(was)) = (self.state.cards.as_deref_mut(), was) {
            t.set_this_card(was);
        }
    }

    /// A trial of the use `action` (of ability `k`) on `state`, a copy of
    /// the game's (a computer player's lookahead): paid for, its effects
    /// run with `roles`, `:this-card` its card. Nothing after.
    pub(super) fn try_use(
        &self,
        state: &mut State,
        k: u8,
        action: Action,
        roles: &[EntityId],
        events: &mut Vec<crate::eval::Event>,
    ) {
        let Some((_, a)) = self.activated(action.actor, k) else {
            return;
        };
        let (rules, seat) = (self.rules, self.current);
        if let Some(attr) = a.pay_with.filter(|_| a.cost > 0) {
            let cost = a.cost.saturating_neg();
            crate::eval::add_to(rules, state, seat, attr, cost, Cause::effect(0), events);
        }
        if let Some(table) = state.cards.as_deref_mut() {
            table.set_this_card(action.actor);
        }
        state.choice = action.choice;
        let n = self.role_count.min(roles.len());
        let mut all = roles[..n].to_vec();
        let bound = super::aims::bind(
            rules,
            &a.targets,
            state,
            action.actor,
            &mut all,
            action.target.as_slice(),
            &mut Vec::new(),
        );
        if bound {
            crate::eval::apply(rules, &a.effects, state, &all, events);
        }
        state.choice = None;
    }
}

/// The tracker of once-a-turn uses, for a deck where some card has abilities.
pub(super) fn tracker(cards: &[crate::check::defs::Card]) -> Option<Box<Used>> {
    cards
        .iter()
        .any(|c| !c.abilities.is_empty())
        .then(|| Box::new(Used::default()))
}
