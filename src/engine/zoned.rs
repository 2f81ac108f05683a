//! The engine's own rules for cards kept in `:zones`: the deck made and
//! dealt, the draws at a turn's start, a card played from the `:plays` zone
//! (to its `:to` zone, or through `:playing` to `:discard-to`), discards, the
//! hand refilled after each action, and `:plays :many` turns that end when
//! their seat says so. A rule set with `:cards` alone never comes here: its
//! cards stay in [`super::cards::Zones`], on the code paths it always had.

use std::sync::Arc;

use super::{Ability, Action, By, CardId, Game, GameEvent, Illegal, MAX_ACTIONS_PER_TURN, Phase};
use crate::check::defs::Card;
use crate::check::rules::{Overflow, RuleSet, ZoneSet};
use crate::eval::zones::{self, At, CardSpec};
use crate::eval::{Cause, Event, Owner, State};
use crate::ids::{EntityId, KindId, ZoneId};

/// Where a turn goes back to while a seat chooses a discard an effect left
/// it (`:pick :chosen`) on that turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Resume {
    /// The seat whose turn it is.
    seat: EntityId,
    /// Whether the rest of a card's play follows the choices (its turn ends,
    /// or it plays again), or nothing more (the seat acts again).
    after_play: bool,
}

/// What each card's instances are made from, by [`CardId`]: its `:kind`
/// (else the rule set's first kind of card) and its `:values`.
pub(super) fn card_specs(rules: &RuleSet, cards: &[Card]) -> Arc<[CardSpec]> {
    let kind = rules.card_kind.unwrap_or(KindId::FIRST);
    cards
        .iter()
        .map(|c| CardSpec {
            name: c.name.as_str().into(),
            kind: c.play.kind.unwrap_or(kind),
            values: c.play.values.clone(),
            keywords: c.play.keywords.clone(),
        })
        .collect()
}

impl<'r> Game<'r> {
    /// The rule set's zones, when its cards are kept as instances.
    #[inline]
    fn zone_set(&self) -> Option<&'r ZoneSet> {
        let rules: &'r RuleSet = self.rules;
        rules.zones.as_ref().filter(|z| !z.classic)
    }

    /// The pile of zone `zone` that `owner` owns (a shared zone's own).
    fn pile(&self, zone: ZoneId, owner: EntityId) -> Option<usize> {
        let set = self.zone_set()?;
        self.state.cards.as_deref()?.pile(set, zone, owner)
    }

    /// `seat`'s pile of the `:plays` zone: its hand.
    fn hand_pile(&self, seat: EntityId) -> Option<usize> {
        self.pile(self.zone_set()?.plays?, seat)
    }

    /// The cards of `seat`'s hand (its pile of the `:plays` zone), in order.
    #[inline(never)]
    pub(super) fn zoned_hand(&self, seat: EntityId) -> &[CardId] {
        match (self.hand_pile(seat), self.state.cards.as_deref()) {
            (Some(pile), Some(table)) => table.defs(pile),
            _ => &[],
        }
    }

    /// The instance at position `i` of `seat`'s hand.
    pub(super) fn hand_instance(&self, seat: EntityId, i: usize) -> Option<EntityId> {
        let pile = self.hand_pile(seat)?;
        self.state.cards.as_deref()?.contents(pile).get(i).copied()
    }

    /// What the card at position `i` of the acting seat's hand costs it
    /// now: its `:cost`, less the seat's `:discounts` attribute for the
    /// card's kind (modifiers included), never below 0.
    pub fn cost_at(&self, i: usize) -> i64 {
        let Some(&card) = self.hand().get(i) else {
            return 0;
        };
        let def = &self.cards[card.index()];
        let discounts = self.rules.cards.as_ref().map_or(&[][..], |c| &c.discounts);
        if discounts.is_empty() || !self.zoned {
            return def.play.cost;
        }
        let kind = def.play.kind.or(self.rules.card_kind);
        let off: i64 = discounts
            .iter()
            .filter(|&&(k, _)| Some(k) == kind)
            .map(|&(_, a)| self.state.get(self.current, a))
            .sum();
        (def.play.cost - off.max(0))
            .max(0)
            .min(def.play.cost.max(0))
    }

    /// Whether the acting seat can pay for the card at position `i` of its
    /// hand now ([`Game::cost_at`]).
    pub(super) fn affordable_at(&self, i: usize) -> bool {
        let Some(&card) = self.hand().get(i) else {
            return false;
        };
        if self
            .rules
            .cards
            .as_ref()
            .is_none_or(|c| c.discounts.is_empty())
        {
            return self.affordable(card);
        }
        match self.cards[card.index()].play.pay_with {
            None => true,
            Some(attr) => {
                let cost = self.cost_at(i);
                cost <= 0 || self.state.get(self.current, attr) >= cost
            }
        }
    }

    /// A trial of playing card `i` of the hand of the seat whose turn it is
    /// on `state`, a copy of the game's (a computer player's lookahead): the
    /// instance goes where the card goes, is paid for, and its effects run
    /// with `roles`, `:this-card` being it. Nothing after (no discard, no
    /// refill, no turn passing): what the play itself changes is what is scored.
    pub(super) fn try_card_zoned(
        &self,
        state: &mut State,
        action: Action,
        roles: &[EntityId],
        events: &mut Vec<Event>,
    ) {
        let i = action.hand_position();
        let (rules, seat) = (self.rules, self.current);
        let (Some(set), Some(entity)) = (self.zone_set(), self.hand_instance(seat, i)) else {
            return;
        };
        let Some(&card) = self.hand().get(i) else {
            return;
        };
        let def = &self.cards[card.index()];
        let cost = self.cost_at(i);
        let dest = def.play.to.unwrap_or(set.playing);
        if let Some(pile) = state.cards.as_deref().and_then(|t| t.pile(set, dest, seat)) {
            let cause = Cause::effect(0);
            zones::move_card(rules, state, entity, pile, At::Top, cause, events);
        }
        super::cards::pay_cost(rules, state, seat, def, cost, events);
        if let Some(table) = state.cards.as_deref_mut() {
            table.set_this_card(entity);
        }
        let (program, code) = (&self.code.program, &self.code.cards[card.index()]);
        state.choice = action.choice;
        if def.aims.targets.is_empty() {
            program.apply_inline(rules, code, state, roles, events);
            state.choice = None;
            return;
        }
        // Its targets as the play would bind them, random ones drawn from the trial's generator.
        let n = self.role_count.min(roles.len());
        let mut all = roles[..n].to_vec();
        let bound = super::aims::bind(
            rules,
            &def.aims.targets,
            state,
            entity,
            &mut all,
            action.target.as_slice(),
            &mut Vec::new(),
        );
        if bound {
            program.apply_inline(rules, code, state, &all, events);
        }
        state.choice = None;
    }

    /// Cards left in the pile `seat`'s hand draws from.
    pub(super) fn zoned_draw_pile_len(&self, seat: EntityId) -> usize {
        let Some(set) = self.zone_set() else {
            return 0;
        };
        let from = set.plays.and_then(|h| set.zones[h].draws_from);
        match (
            from.and_then(|z| self.pile(z, seat)),
            self.state.cards.as_deref(),
        ) {
            (Some(pile), Some(table)) => table.count(pile),
            _ => 0,
        }
    }

    /// Makes the deck's cards in the `:start` zones, shuffled, then deals: for
    /// each seat in order, each of its zones' `:deal`, then its `:refill`;
    /// then a shared zone's `:deal`. Moves are logged; none is a turn's.
    pub(super) fn setup_zones(&mut self) {
        let copies: Vec<u8> = self.cards.iter().map(|c| c.play.copies).collect();
        let Some(specs) = self.specs.clone() else {
            return;
        };
        let seats = self.seats;
        zones::setup(
            self.rules,
            &mut self.state,
            seats,
            specs,
            &copies,
            &mut self.events,
        );
        let Some(set) = self.zone_set() else {
            return;
        };
        let start = set
            .zones
            .iter()
            .position(|z| z.start)
            .map_or(ZoneId::FIRST, ZoneId::new);
        self.flush_events(|c| By::Zone(start, c));
        for seat in EntityId::below(seats) {
            for z in ZoneId::below(set.zones.len()) {
                let def = &set.zones[z];
                if !def.shared {
                    self.draw_into(seat, z, usize::from(def.deal));
                    self.refill_zone(seat, z);
                }
            }
        }
        for z in ZoneId::below(set.zones.len()) {
            if set.zones[z].shared {
                self.draw_into(EntityId::FIRST, z, usize::from(set.zones[z].deal));
            }
        }
    }

    /// `seat` draws `n` cards into its pile of zone `zone` (fewer when they
    /// run out), each move logged; an empty pile's `:when-empty` effects
    /// run with `seat`'s roles.
    fn draw_into(&mut self, seat: EntityId, zone: ZoneId, n: usize) {
        for _ in 0..n {
            let roles = &self.roles[seat.index() * self.role_count..][..self.role_count];
            let cause = Cause::effect(0);
            zones::draw(
                self.rules,
                &mut self.state,
                roles,
                seat,
                zone,
                cause,
                &mut self.events,
            );
            self.state.claim(Owner::Rules);
            self.flush_events(|c| By::Zone(zone, c));
        }
    }

    /// Tops `seat`'s pile of zone `zone` up to its `:refill`, as far as
    /// there are cards (a draw that brings none ends it).
    fn refill_zone(&mut self, seat: EntityId, zone: ZoneId) {
        let Some(set) = self.zone_set() else {
            return;
        };
        let want = usize::from(set.zones[zone].refill);
        while let (Some(pile), Some(table)) = (self.pile(zone, seat), self.state.cards.as_deref()) {
            if table.count(pile) >= want {
                break;
            }
            let roles = &self.roles[seat.index() * self.role_count..][..self.role_count];
            let drew = zones::draw(
                self.rules,
                &mut self.state,
                roles,
                seat,
                zone,
                Cause::effect(0),
                &mut self.events,
            );
            self.state.claim(Owner::Rules);
            self.flush_events(|c| By::Zone(zone, c));
            if !drew {
                break;
            }
        }
    }

    /// Refills every zone of `seat`'s that has a `:refill`: after each of its actions.
    fn refill_all(&mut self, seat: EntityId) {
        let Some(set) = self.zone_set() else {
            return;
        };
        for z in ZoneId::below(set.zones.len()) {
            if !set.zones[z].shared && set.zones[z].refill > 0 {
                self.refill_zone(seat, z);
            }
        }
    }

    /// The draws a turn starts with, before its `:turn-start` hooks: each of
    /// the seat's zones' `:draw-each-turn`. False if they ended the game.
    pub(super) fn turn_draws(&mut self) -> bool {
        let Some(set) = self.zone_set() else {
            return true;
        };
        let seat = self.current;
        if seat.index() >= self.seats {
            return true;
        }
        for z in ZoneId::below(set.zones.len()) {
            let n = set.zones[z].draw_each_turn;
            if n > 0 && !set.zones[z].shared {
                self.draw_into(seat, z, usize::from(n));
            }
        }
        self.check_victory();
        !matches!(self.phase, Phase::Over(_))
    }

    /// Moves `card` into `pile` at the top (or where the pile's `:overflow`
    /// sends it), logged as the zones' doing.
    fn move_logged(&mut self, card: EntityId, pile: usize, zone: ZoneId) -> zones::Moved {
        let moved = zones::move_card(
            self.rules,
            &mut self.state,
            card,
            pile,
            At::Top,
            Cause::effect(0),
            &mut self.events,
        );
        self.flush_events(|c| By::Zone(zone, c));
        moved
    }

    /// Where a card played or discarded from `seat`'s hand goes: the hand's
    /// `:discard-to` (out of the game without one, or for a card played `:once`).
    fn discard_pile(&self, seat: EntityId, once: bool) -> Option<usize> {
        let set = self.zone_set()?;
        let to = set
            .plays
            .and_then(|h| set.zones[h].discard_to)
            .filter(|_| !once)
            .unwrap_or(set.removed);
        self.pile(to, seat)
    }

    /// Is `action` allowed now, in a game whose cards are in zones? Out of
    /// line: `allowed` is on the classic games' hottest path.
    #[inline(never)]
    pub(super) fn allowed_zoned(&mut self, action: Action) -> bool {
        if let Ability::Use(k) = action.ability {
            return self.allowed_use(k, action);
        }
        if self.phase == Phase::Target || action.ability == Ability::Target {
            return self.allowed_target(action);
        }
        if action.actor != self.current {
            return false;
        }
        if self.phase == Phase::React {
            return self.allowed_reaction(action);
        }
        if (action.target.is_some() || self.aimed())
            && matches!(action.ability, Ability::Card(_) | Ability::Discard(_))
        {
            return self.allowed_aimed(action);
        }
        if action.ability == Ability::EndTurn {
            return self.rules.plays_many && self.phase == Phase::Act;
        }
        let Some(&card) = self.hand().get(action.hand_position()) else {
            return false;
        };
        let def = &self.cards[card.index()];
        match (self.phase, action.ability) {
            (Phase::MustDiscard(_), Ability::Discard(_)) => def.play.discardable,
            (Phase::Act, Ability::Discard(_)) => def.play.discardable && self.may_discard(),
            // A reaction answers another seat's card: never played on its own.
            (Phase::Act, Ability::Card(i)) => {
                def.reaction.is_none() && self.affordable_at(usize::from(i)) && self.room_for(card)
            }
            _ => false,
        }
    }

    /// Whether some card has targets, conditions or a forced play.
    fn aimed(&self) -> bool {
        self.aims
    }

    /// [`Game::allowed_zoned`] in a game whose cards aim: a card's chosen
    /// target must be one of its candidates (and a card that chooses none
    /// takes none), its `:playable-when` must hold, and a forced card of the
    /// hand leaves only itself to play (or discard).
    fn allowed_aimed(&mut self, action: Action) -> bool {
        let seat = self.current;
        let i = action.hand_position();
        let (Some(&card), Some(instance)) = (self.hand().get(i), self.hand_instance(seat, i))
        else {
            return false;
        };
        let def = &self.cards[card.index()];
        match (self.phase, action.ability) {
            (Phase::MustDiscard(_), Ability::Discard(_)) => {
                action.target.is_none() && def.play.discardable
            }
            (Phase::Act, Ability::Discard(_)) => {
                action.target.is_none()
                    && def.play.discardable
                    && self.may_discard()
                    && self.forced_refusal(seat, i, action.ability).is_none()
            }
            (Phase::Act, Ability::Card(_)) => {
                let aimed_right = match (def.aims.chosen(), action.target) {
                    (None, None) => true,
                    (Some(_), Some(t)) => {
                        self.with_chosen(card, instance, seat, |found| found.contains(&t))
                    }
                    // An optional target with nothing to aim at: played on nothing.
                    (Some((_, t)), None) => {
                        t.optional && self.with_chosen(card, instance, seat, <[_]>::is_empty)
                    }
                    _ => false,
                };
                // A card that aims, played on nothing, names no option.
                let fits = if def.aims.chosen().is_some() && action.target.is_none() {
                    action.choice.is_none()
                } else {
                    self.choice_fits(card, action.choice)
                };
                aimed_right && fits && self.card_playable(i, card, instance, seat)
            }
            _ => false,
        }
    }

    /// Whether the `:plays` zone lets its owner discard instead of acting.
    fn may_discard(&self) -> bool {
        self.zone_set()
            .and_then(|s| s.plays.map(|h| s.zones[h].may_discard))
            .unwrap_or(false)
    }

    /// Whether a card played to its `:to` zone finds room there, or that
    /// zone's `:overflow` takes it elsewhere; a card without `:to` always does.
    pub(super) fn room_for(&self, card: CardId) -> bool {
        let (Some(set), Some(table)) = (self.zone_set(), self.state.cards.as_deref()) else {
            return true;
        };
        let Some(to) = self.cards[card.index()].play.to else {
            return true;
        };
        let Some(pile) = table.pile(set, to, self.current) else {
            return false;
        };
        table.count(pile) < usize::from(set.zones[to].capacity)
            || set.zones[to].overflow != Overflow::Refuse
    }

    /// Why the zones refuse `action` on `card`, if they do (none for a game
    /// without zones, or an action they allow).
    pub(super) fn zoned_refusal(&mut self, action: Action, card: CardId) -> Option<Illegal> {
        if !self.zoned || !matches!(self.phase, Phase::Act) {
            return None;
        }
        let def = &self.cards[card.index()];
        if let Some(refusal) = self.aimed_refusal(action, card) {
            return Some(refusal);
        }
        match action.ability {
            Ability::Card(_) if def.reaction.is_some() => Some(Illegal::Zones(format!(
                "{} is a reaction: it is played only in answer to another seat's card",
                def.name
            ))),
            Ability::Discard(_) if def.play.discardable && !self.may_discard() => {
                Some(Illegal::Zones(
                    "the hand has no `:may-discard`: a card is discarded only when one says so"
                        .to_string(),
                ))
            }
            Ability::Card(i) if self.affordable_at(usize::from(i)) && !self.room_for(card) => {
                let set = self.zone_set()?;
                let to = def.play.to?;
                Some(Illegal::Zones(format!(
                    "there is no room for {} in {}'s {}",
                    def.name,
                    self.entity_name(self.current),
                    set.zones[to].name
                )))
            }
            _ => None,
        }
    }

    /// Whether the seat to act may do anything, cards in zones: play or
    /// discard a card, end the turn, or use an action.
    pub(super) fn has_action_zoned(&mut self) -> bool {
        if matches!(self.phase, Phase::BetweenTurns | Phase::Over(_)) {
            return false;
        }
        // A seat answering a card may always pass; one asked for a target
        // has a candidate (it is asked only then).
        if matches!(self.phase, Phase::React | Phase::Target) {
            return true;
        }
        let n = self.hand().len();
        // The buffer the search of `:actions` below uses too.
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let cards = (0..n).any(|i| {
            let (play, discard) = (self.play(i), self.discard(i));
            if self.aims {
                self.zoned_plays(i, &mut found);
                return !found.is_empty() || self.allowed(discard);
            }
            self.allowed(play) || self.allowed(discard)
        });
        let end = self.end_turn_action();
        let end = self.allowed(end);
        let any = if cards || end {
            true
        } else {
            found.clear();
            self.uses_allowed(&mut found);
            if found.is_empty() && !self.rules.actions.is_empty() {
                self.actions_allowed(&mut found, 1);
            }
            !found.is_empty()
        };
        self.found = found;
        any
    }

    /// Does `action`, cards in zones: the engine's rules for them, then the
    /// turn's; in a simultaneous turn still being chosen, holds it.
    pub(super) fn act_zoned(&mut self, action: Action) -> Result<(), Illegal> {
        if self.holding() {
            return self.hold(action);
        }
        self.act_zoned_now(action)
    }

    /// [`Game::act_zoned`], done now.
    pub(super) fn act_zoned_now(&mut self, action: Action) -> Result<(), Illegal> {
        if !self.allowed(action) {
            return self.check(action);
        }
        match action.ability {
            Ability::Action(id) => self.act_action(id, action),
            Ability::EndTurn => {
                self.record(GameEvent::EndedTurn { seat: self.current });
                self.play_again_pending = false;
                self.end_turn();
            }
            Ability::Card(i) => self.play_zoned(usize::from(i), action.target, action.choice),
            Ability::Discard(i) => self.discard_zoned(usize::from(i)),
            Ability::Pass => self.pass_window(),
            Ability::Use(k) => self.use_ability(k, action),
            Ability::Target => self.act_target(action),
        }
        // Discards left to choose by what else ran (an action, a turn's
        // hooks) are offered before the next seat acts.
        if self.phase == Phase::Act
            && self
                .state
                .cards
                .as_deref()
                .is_some_and(|t| t.has_requests())
        {
            self.offer_choice(false);
        }
        Ok(())
    }

    /// Plays the card at position `i` of the current hand: it moves to its
    /// `:to` zone, or to `:playing`; it is paid for, its number recorded, its
    /// effects run; from `:playing` it goes to the discards (out of the game
    /// `:once`); victory is checked; the hand refills, the card's `:draw`
    /// draws and its `:discard` must be discarded.
    fn play_zoned(
        &mut self,
        i: usize,
        chosen: Option<EntityId>,
        choice: Option<crate::ids::OptionId>,
    ) {
        let (rules, seat) = (self.rules, self.current);
        let (Some(set), Some(entity)) = (self.zone_set(), self.hand_instance(seat, i)) else {
            return;
        };
        let card = self.hand()[i];
        let def = &self.cards[card.index()];
        let hand = set.plays.unwrap_or(ZoneId::FIRST);
        // What it costs as it is played: a discount ends as the card leaves.
        let cost = self.cost_at(i);
        self.record(GameEvent::Played { seat, card, choice });
        let dest = def.play.to.unwrap_or(set.playing);
        if let Some(pile) = self.pile(dest, seat) {
            self.move_logged(entity, pile, hand);
        }
        super::cards::pay_cost(rules, &mut self.state, seat, def, cost, &mut self.events);
        if !self.events.is_empty() {
            self.flush_events(|_| By::Cost(card));
        }
        if let Some(attr) = rules.cards.as_ref().and_then(|z| z.played) {
            super::cards::record_play(rules, &mut self.state, seat, attr, card, &mut self.events);
            self.flush_events(|_| By::Played(card));
        }
        // What waits for a card played runs before its effects; the card is
        // the `:source` of what they do.
        let outer = self.set_trigger_source(Some(entity));
        self.happened(super::triggers::Happened::about(
            super::triggers::On::Played,
            entity,
            Some(seat),
        ));
        self.set_trigger_source(outer);
        let aim = (chosen, choice);
        // Its later chosen targets are asked now: its play resumes once they are.
        if self.aims && self.chooses_later(card) && self.start_aiming(seat, card, entity, aim) {
            return;
        }
        self.after_aiming(seat, card, entity, aim);
    }

    /// The play of card `card` (instance `entity`) by `seat` once its
    /// targets are chosen: other seats may answer it first (its play
    /// resumes once they have); then it resolves.
    pub(super) fn after_aiming(
        &mut self,
        seat: EntityId,
        card: CardId,
        entity: EntityId,
        aim: (Option<EntityId>, Option<crate::ids::OptionId>),
    ) {
        if self.react.is_some() && self.open_window(seat, card, entity, aim) {
            return;
        }
        self.resolve_played(seat, card, entity, false, aim);
    }

    /// The rest of a card's play, once no seat answers it any more: its
    /// effects run (unless a reaction `cancelled` it); from `:playing` it
    /// goes to the discards; victory is checked; then, for the card of the
    /// seat whose turn it is, the hand refills, its `:draw` draws, its
    /// `:discard` must be discarded and the turn goes on; for a reaction,
    /// the window it answered in goes on.
    pub(super) fn resolve_played(
        &mut self,
        seat: EntityId,
        card: CardId,
        entity: EntityId,
        cancelled: bool,
        (chosen, choice): (Option<EntityId>, Option<crate::ids::OptionId>),
    ) {
        let Some(set) = self.zone_set() else {
            return;
        };
        let def = &self.cards[card.index()];
        let hand = set.plays.unwrap_or(ZoneId::FIRST);
        let answered = self.answered();
        if !cancelled {
            // The card is the `:source` of what its effects do.
            let outer = self.set_trigger_source(Some(entity));
            // `:this-card` is this instance while its effects run.
            if let Some(table) = self.state.cards.as_deref_mut() {
                table.set_this_card(entity);
            }
            match answered {
                Some(answered) => self.run_reaction(seat, card, answered),
                None => self.run_card_aimed(seat, card, entity, chosen, choice),
            }
            self.set_trigger_source(outer);
        }
        let playing = self.pile(set.playing, seat);
        let table = self.state.cards.as_deref();
        if playing.is_some()
            && table.and_then(|t| t.pile_of(entity)) == playing
            && let Some(pile) = self.discard_pile(seat, def.play.once)
        {
            self.move_logged(entity, pile, hand);
        }
        self.check_victory();
        if matches!(self.phase, Phase::Over(_)) {
            self.close_windows();
            return;
        }
        self.refill_all(seat);
        self.draw_into(seat, hand, usize::from(def.play.draw));
        if answered.is_some() {
            self.after_reaction();
            return;
        }
        self.play_again_pending = def.play.play_again;
        let must = match def.play.discard {
            0 => 0,
            n => usize::from(n).min(self.discardable_in_hand()) as u8,
        };
        if must > 0 {
            self.phase = Phase::MustDiscard(must);
        } else if !self.offer_choice(true) {
            self.after_zoned_action();
        }
    }

    /// Offers the first discard effects left to choose (`:pick :chosen`)
    /// that its seat can make: that seat becomes the one to act, and must
    /// discard. True if one is offered; false when none waits, and the
    /// turn's seat acts again. `after_play`: what the turn does once the
    /// choices are made, the rest of a play (or nothing more).
    pub(super) fn offer_choice(&mut self, after_play: bool) -> bool {
        loop {
            let request = self
                .state
                .cards
                .as_deref_mut()
                .and_then(|t| t.take_request());
            let Some(request) = request else {
                if let Some(resume) = self.resume.take() {
                    self.current = resume.seat;
                }
                return false;
            };
            if request.seat.index() >= self.seats {
                continue;
            }
            let discardable = self
                .hand_of(request.seat)
                .iter()
                .filter(|&&c| self.cards[c.index()].play.discardable)
                .count();
            let n = usize::from(request.count)
                .min(discardable)
                .min(usize::from(u8::MAX));
            if n == 0 {
                continue;
            }
            self.resume.get_or_insert(Resume {
                seat: self.current,
                after_play,
            });
            self.current = request.seat;
            self.phase = Phase::MustDiscard(n as u8);
            return true;
        }
    }

    /// The seat choosing a discard an effect left it on another seat's
    /// turn (`:pick :chosen`): it is the one to act ([`Game::ctx`]'s
    /// `current`) until it has; `None` when none is choosing.
    pub fn chooser(&self) -> Option<EntityId> {
        self.resume.map(|_| self.current)
    }

    /// Discards the card at position `i` of the current hand to the hand's
    /// `:discard-to`: one a card made the seat discard, or one it chose to
    /// instead of acting, which refills the hand and ends the turn.
    fn discard_zoned(&mut self, i: usize) {
        let seat = self.current;
        let (Some(set), Some(entity)) = (self.zone_set(), self.hand_instance(seat, i)) else {
            return;
        };
        let card = self.hand()[i];
        let hand = set.plays.unwrap_or(ZoneId::FIRST);
        let forced = matches!(self.phase, Phase::MustDiscard(_));
        self.record(GameEvent::Discarded { seat, card, forced });
        if let Some(pile) = self.discard_pile(seat, false) {
            self.move_logged(entity, pile, hand);
        }
        match self.phase {
            // What the discard set off may have emptied the hand (the
            // Beloved's knock-out discards the rest): no more than is left.
            Phase::MustDiscard(n) if n > 1 && self.discardable_in_hand() > 0 => {
                let left = self.discardable_in_hand().min(usize::from(n - 1));
                self.phase = Phase::MustDiscard(left as u8);
            }
            Phase::MustDiscard(_) => {
                self.phase = Phase::Act;
                let after_play = self.resume.is_none_or(|r| r.after_play);
                if !self.offer_choice(after_play) && after_play {
                    self.after_zoned_action();
                }
            }
            _ => {
                self.refill_all(seat);
                self.play_again_pending = false;
                self.end_turn();
            }
        }
    }

    /// How many cards of the current hand may be discarded.
    fn discardable_in_hand(&self) -> usize {
        self.hand()
            .iter()
            .filter(|&&c| self.cards[c.index()].play.discardable)
            .count()
    }

    /// After a card's play and its discards: the seat acts again when its
    /// card said "play again" or the turn is one of many plays (until
    /// [`MAX_ACTIONS_PER_TURN`]); otherwise the turn ends.
    pub(super) fn after_zoned_action(&mut self) {
        self.actions_this_turn += 1;
        let again = self.play_again_pending || self.rules.plays_many;
        self.play_again_pending = false;
        if again && self.actions_this_turn < MAX_ACTIONS_PER_TURN {
            self.phase = Phase::Act;
            if !self.has_action() {
                self.record(GameEvent::Passed { seat: self.current });
                self.end_turn();
            }
        } else {
            self.end_turn();
        }
    }

    /// Puts a new instance of `card` into the current seat's hand (a
    /// scenario's step): false when the hand is full.
    pub(super) fn give_zoned(&mut self, card: CardId) -> bool {
        let Some(pile) = self.hand_pile(self.current) else {
            return false;
        };
        // A card a scenario gives is not a move of the game's.
        self.make_unlogged(card, pile).is_some()
    }

    /// A new instance of `card` on top of `pile`, its making not logged;
    /// `None` when the pile has no room.
    fn make_unlogged(&mut self, card: CardId, pile: usize) -> Option<EntityId> {
        let at = (pile, At::Top);
        let made = zones::create(
            self.rules,
            &mut self.state,
            card,
            at,
            Cause::effect(0),
            &mut self.events,
        );
        self.events.clear();
        made
    }

    /// Makes a new instance of `card` where `seat`'s play of it puts it
    /// while its effects run (its `:to` zone, else `:playing`), unlogged, and
    /// makes it `:this-card`: a card's effects tried outside a turn
    /// (`grimoire eval --card`). `None` when that pile has no room.
    pub(super) fn make_resolving(&mut self, card: CardId, seat: EntityId) -> Option<EntityId> {
        let set = self.zone_set()?;
        let dest = self.cards.get(card.index())?.play.to.unwrap_or(set.playing);
        let pile = self.pile(dest, seat)?;
        // Put there to be tried, not played: nothing of it is logged.
        let made = self.make_unlogged(card, pile)?;
        if let Some(table) = self.state.cards.as_deref_mut() {
            table.set_this_card(made);
        }
        Some(made)
    }

    /// Takes the card at `at` out of the current hand and out of the
    /// table, unlogged: undoes [`Game::give`].
    pub(super) fn take_back_zoned(&mut self, at: usize) -> Option<CardId> {
        let seat = self.current;
        let entity = self.hand_instance(seat, at)?;
        let card = self.hand().get(at).copied()?;
        zones::forget(self.rules, &mut self.state, entity);
        Some(card)
    }

    /// The cards of `owner`'s pile of zone `zone` (the zone's own, when
    /// shared), bottom first; `None` in a board's empty site. `None` for a
    /// zone the game does not have, or an owner that is no seat.
    pub fn zone_cards(&self, zone: ZoneId, owner: EntityId) -> Option<Vec<Option<CardId>>> {
        if !self.zoned {
            let pile = self.zones.classic_pile(zone.index(), owner.index())?;
            return Some(pile.iter().map(|&c| Some(c)).collect());
        }
        let pile = self.pile(zone, owner)?;
        let table = self.state.cards.as_deref()?;
        let defs = table.defs(pile);
        Some(
            defs.iter()
                .map(|&c| (c != CardId::MAX).then_some(c))
                .collect(),
        )
    }

    /// Puts exactly `cards` in `owner`'s pile of zone `zone`, bottom first
    /// (`None` leaves a board's site empty): a scenario's given zones. What
    /// was there is forgotten, as if never dealt, and new instances are
    /// made, unlogged. Why not, when the zone cannot hold them.
    pub fn set_zone_cards(
        &mut self,
        zone: ZoneId,
        owner: EntityId,
        cards: &[Option<CardId>],
    ) -> Result<(), String> {
        if !self.zoned {
            let pile = self
                .zones
                .classic_pile_mut(zone.index(), owner.index())
                .ok_or_else(|| {
                    "cards of `:cards` are only in the deck, the hands and the discards".to_string()
                })?;
            *pile = cards.iter().flatten().copied().collect();
            return Ok(());
        }
        let (Some(set), Some(pile)) = (self.zone_set(), self.pile(zone, owner)) else {
            return Err("no such pile".to_string());
        };
        let held: Vec<EntityId> = self.state.cards.as_deref().map_or_else(Vec::new, |t| {
            t.contents(pile)
                .iter()
                .copied()
                .filter(|&e| e != EntityId::MAX)
                .collect()
        });
        for e in held {
            zones::forget(self.rules, &mut self.state, e);
        }
        let def = &set.zones[zone];
        if cards.iter().flatten().count() > usize::from(def.capacity) {
            self.events.clear();
            return Err(format!(
                "`:{}` holds {} cards at most",
                def.name, def.capacity
            ));
        }
        for (slot, card) in cards.iter().enumerate() {
            let Some(card) = *card else {
                continue;
            };
            // Each in its own slot: a board of sites keeps the gaps between.
            let at = At::Slot(u16::try_from(slot).unwrap_or(u16::MAX));
            let cause = Cause::effect(0);
            zones::create(
                self.rules,
                &mut self.state,
                card,
                (pile, at),
                cause,
                &mut self.events,
            );
        }
        // Given in play, a card has its keywords; given, not played: nothing
        // of it is logged.
        crate::eval::give_keywords(self.rules, &mut self.state, &mut self.events);
        self.events.clear();
        self.changed = true;
        self.dirty = u64::MAX;
        Ok(())
    }
}
