//! What a card aims at and when it may be played, cards in `:zones`: the
//! candidates for each of its `:targets` (a chosen one only among what its
//! player can see), its `:playable-when` conditions with their reasons, its
//! `:forced-when`, and the targets bound as it resolves (a random one drawn
//! then from the game's generator).

use rand::RngExt;

use super::{Action, Game};
use crate::check::rules::RuleSet;
use crate::check::targets::Target;
use crate::eval::State;
use crate::ids::{CardId, EntityId};

/// The candidates for `target` of card instance `instance`, with `roles`
/// (the seat's, then the earlier targets) bound: what its `:from` holds and
/// its `:where` accepts, none of the earlier targets, in the order its
/// places list them. With `seat`, only what that seat can see.
pub(super) fn candidates(
    rules: &RuleSet,
    state: &mut State,
    target: &Target,
    instance: EntityId,
    roles: &[EntityId],
    seat: Option<EntityId>,
    out: &mut Vec<EntityId>,
) {
    out.clear();
    as_this_card(state, instance, |state| {
        gather(rules, state, target, roles, out)
    });
    if let (Some(seat), Some(set), Some(table)) =
        (seat, rules.zones.as_ref(), state.cards.as_deref())
    {
        out.retain(|&e| table.card(e).is_none() || table.sees(set, seat, e));
    }
}

/// What `target`'s places hold and its `:where` accepts, with `roles`
/// bound: none of the earlier targets, none twice.
fn gather(
    rules: &RuleSet,
    state: &mut State,
    target: &Target,
    roles: &[EntityId],
    out: &mut Vec<EntityId>,
) {
    for source in &target.from {
        let before = out.len();
        crate::eval::members(
            state,
            source,
            target.filter.as_ref(),
            roles,
            target.outer,
            out,
        );
        // A target is never one of the earlier targets, nor twice the same.
        let earlier = &roles[rules.roles.len().min(roles.len())..];
        let mut i = before;
        while i < out.len() {
            let e = out[i];
            if earlier.contains(&e) || out[..i].contains(&e) {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// Runs `f` with `:this-card` bound to `card`, then binds back what was,
/// and forgets the dice conditions rolled (a test of a card is no roll).
fn as_this_card<R>(state: &mut State, card: EntityId, f: impl FnOnce(&mut State) -> R) -> R {
    let was = state.cards.as_deref_mut().map(|t| {
        let was = t.this_card();
        t.set_this_card(card);
        was
    });
    let out = f(state);
    state.forget_rolls();
    if let (Some(t), Some(was)) = (state.cards.as_deref_mut(), was) {
        t.set_this_card(was);
    }
    out
}

/// Binds the `targets` of card instance `instance` as it resolves, pushed
/// to `bound` after the roles it holds (the playing seat's), `chosen` being
/// its chosen targets in order: each random one drawn now from `state`'s
/// generator. False when one has no candidate left (the card does
/// nothing). `found` is a buffer.
pub(super) fn bind(
    rules: &RuleSet,
    targets: &[Target],
    state: &mut State,
    instance: EntityId,
    bound: &mut Vec<EntityId>,
    chosen: &[EntityId],
    found: &mut Vec<EntityId>,
) -> bool {
    let mut chosen = chosen.iter();
    for target in targets {
        candidates(rules, state, target, instance, bound, None, found);
        let picked = if target.random {
            let n = found.len();
            (n > 0).then(|| found[state.rng.random_range(0..n)])
        } else {
            chosen.next().copied().filter(|c| found.contains(c))
        };
        let Some(picked) = picked else {
            return false;
        };
        bound.push(picked);
    }
    true
}

/// A card being played whose later chosen targets its seat is choosing
/// ([`super::Phase::Target`]): what its play resumes with once they are chosen.
#[derive(Clone, Debug)]
pub(super) struct Aiming {
    seat: EntityId,
    card: CardId,
    entity: EntityId,
    /// Its first chosen target and its option, as played.
    aim: (Option<EntityId>, Option<crate::ids::OptionId>),
    /// The later chosen targets so far.
    picks: Vec<EntityId>,
}

/// Buffers the aims' checks fill anew each time, kept so that a legality
/// check allocates nothing once they have grown (the tree search asks
/// thousands a decision).
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// The roles bound so far: the seat's, then each target's first candidate.
    roles: Vec<EntityId>,
    /// A target's candidates.
    pub(super) found: Vec<EntityId>,
    /// The chosen targets a card in the hand may be played on.
    targets: Vec<Option<EntityId>>,
    /// The card instances a seat has in play, whose abilities are asked.
    pub(super) in_play: Vec<EntityId>,
    /// The roles a card's effects run with: the seat's, then its targets.
    pub(super) bound: Vec<EntityId>,
}

/// What the buffers hold is stale between checks: a copy starts empty.
impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

/// Why a card may not be played (or an ability used) now, as its aims say:
/// words only once somebody reads them.
#[derive(Clone, Copy, Debug)]
pub(super) enum Refusal<'r> {
    /// A `:playable-when` (or `:usable-when`) case failed: its `:reason`.
    Because(&'r str),
    /// The target of this name has no candidate.
    NoTarget(&'r str),
}

impl Refusal<'_> {
    /// The refusal in words, `name` saying what is refused.
    pub(super) fn words(self, name: &str) -> String {
        match self {
            Refusal::Because(reason) => reason.to_string(),
            Refusal::NoTarget(target) => {
                format!("{name} has no target: nothing can be its `:{target}`")
            }
        }
    }
}

impl<'r> Game<'r> {
    /// Why card `card` (instance `instance`) may not be played now by
    /// `seat`: the first `:playable-when` case that fails, or a target
    /// without a candidate. `None` when it may.
    pub(super) fn unplayable(
        &mut self,
        card: CardId,
        instance: EntityId,
        seat: EntityId,
    ) -> Option<Refusal<'r>> {
        let aims = &self.cards[card.index()].aims;
        self.refusal_of(&aims.targets, &aims.playable, instance, seat)
    }

    /// Why what has `targets` and `playable` (a card, or an ability of one)
    /// may not be done now by `seat` with card instance `instance`: the
    /// first `playable` case that fails, or a target without a candidate.
    /// `None` when it may.
    pub(super) fn refusal_of(
        &mut self,
        targets: &'r [Target],
        playable: &'r [crate::check::targets::Playable],
        instance: EntityId,
        seat: EntityId,
    ) -> Option<Refusal<'r>> {
        let rules = self.rules;
        if playable.is_empty() && targets.is_empty() {
            return None;
        }
        let at = seat.index() * self.role_count;
        let seat_roles = &self.roles[at..at + self.role_count];
        let failed = as_this_card(&mut self.state, instance, |state| {
            playable
                .iter()
                .find(|p| !crate::eval::holds(&p.when, state, seat_roles))
        });
        if let Some(p) = failed {
            return Some(Refusal::Because(&p.reason));
        }
        // Each target needs a candidate: the chosen one among what the seat sees.
        let mut bound = std::mem::take(&mut self.aim_scratch.roles);
        let mut found = std::mem::take(&mut self.aim_scratch.found);
        bound.clear();
        bound.extend_from_slice(seat_roles);
        let mut refusal = None;
        for target in targets {
            let seen = (!target.random).then_some(seat);
            candidates(
                rules,
                &mut self.state,
                target,
                instance,
                &bound,
                seen,
                &mut found,
            );
            match found.first() {
                Some(&e) => bound.push(e),
                // Played on nothing: it will do nothing as it resolves.
                None if target.optional => break,
                None => {
                    refusal = Some(Refusal::NoTarget(&target.name));
                    break;
                }
            }
        }
        self.aim_scratch.roles = bound;
        self.aim_scratch.found = found;
        refusal
    }

    /// `f` of the chosen targets card `card` (instance `instance`) may be
    /// played on by `seat` now, in order (none for a card that chooses none).
    pub(super) fn with_chosen<R>(
        &mut self,
        card: CardId,
        instance: EntityId,
        seat: EntityId,
        f: impl FnOnce(&[EntityId]) -> R,
    ) -> R {
        let targets = &self.cards[card.index()].aims.targets;
        self.with_candidates(targets, instance, seat, f)
    }

    /// `f` of the candidates for the chosen one of `targets` (the first, if
    /// any) of what card instance `instance` does for `seat` now, in order;
    /// of none when none is chosen.
    pub(super) fn with_candidates<R>(
        &mut self,
        targets: &'r [Target],
        instance: EntityId,
        seat: EntityId,
        f: impl FnOnce(&[EntityId]) -> R,
    ) -> R {
        let mut found = std::mem::take(&mut self.aim_scratch.found);
        found.clear();
        // The chosen target is the first (the checker sees to it).
        if let Some(target) = targets.first().filter(|t| !t.random) {
            let at = seat.index() * self.role_count;
            candidates(
                self.rules,
                &mut self.state,
                target,
                instance,
                &self.roles[at..at + self.role_count],
                Some(seat),
                &mut found,
            );
        }
        let out = f(&found);
        self.aim_scratch.found = found;
        out
    }

    /// Why a forced card of `seat`'s hand keeps it from doing `ability`
    /// (playing or discarding) with the card at hand position `i`: the
    /// `:reason` of the first card whose `:forced-when` holds, when none
    /// that holds is this card done this way. `None` when nothing is forced
    /// or this is what is.
    pub(super) fn forced_refusal(
        &mut self,
        seat: EntityId,
        i: usize,
        ability: super::Ability,
    ) -> Option<&'r str> {
        use super::Ability;
        let cards = self.cards;
        if !cards.iter().any(|c| c.aims.forced.is_some()) {
            return None;
        }
        let at = seat.index() * self.role_count;
        let mut first = None;
        for j in 0..self.hand_of(seat).len() {
            let card = self.hand_of(seat)[j];
            let (Some(forced), Some(instance)) = (
                &cards[card.index()].aims.forced,
                self.hand_instance(seat, j),
            ) else {
                continue;
            };
            let roles = &self.roles[at..at + self.role_count];
            let holds = as_this_card(&mut self.state, instance, |state| {
                crate::eval::holds(&forced.when, state, roles)
            });
            if !holds {
                continue;
            }
            let kept = j == i
                && match ability {
                    Ability::Card(_) => !forced.discard,
                    Ability::Discard(_) => forced.discard,
                    _ => false,
                };
            if kept {
                return None;
            }
            first.get_or_insert(forced.reason.as_str());
        }
        first
    }

    /// Whether `seat` may play the card `card` (instance `instance`) at
    /// hand position `i` now, on its own turn, whatever it aims at: it is
    /// no reaction, no forced card keeps it from it, it is affordable, its
    /// `:to` has room, and its aims refuse nothing.
    pub(super) fn card_playable(
        &mut self,
        i: usize,
        card: CardId,
        instance: EntityId,
        seat: EntityId,
    ) -> bool {
        self.cards[card.index()].reaction.is_none()
            && self.affordable_at(i)
            && self.room_for(card)
            && self
                .forced_refusal(seat, i, super::Ability::Card(i as u16))
                .is_none()
            && self.unplayable(card, instance, seat).is_none()
    }

    /// Why the aims refuse `action` on card `card`, if they do: a forced
    /// card left unplayed, a `:playable-when` reason, a target missing, not
    /// taken, or not a candidate.
    pub(super) fn aimed_refusal(&mut self, action: Action, card: CardId) -> Option<super::Illegal> {
        use super::{Ability, Illegal};
        if !self.aims || self.phase != super::Phase::Act {
            return None;
        }
        let (seat, i) = (self.current, action.hand_position());
        let instance = self.hand_instance(seat, i)?;
        if let Some(reason) = self.forced_refusal(seat, i, action.ability) {
            return Some(Illegal::Refused(reason.to_string()));
        }
        if !matches!(action.ability, Ability::Card(_)) {
            return (action.target.is_some()).then_some(Illegal::NoTarget);
        }
        let def = &self.cards[card.index()];
        let name = &def.name;
        match (def.aims.chosen(), action.target) {
            (None, Some(_)) => return Some(Illegal::NoTarget),
            (Some((_, t)), None)
                if t.optional && self.with_chosen(card, instance, seat, <[_]>::is_empty) => {}
            (Some((_, t)), None) => {
                // A card with nothing to aim at says so, before asking for a target.
                if let Some(why) = self.unplayable(card, instance, seat) {
                    return Some(Illegal::Refused(why.words(name)));
                }
                return Some(Illegal::Zones(format!(
                    "{name} needs a target: choose its `:{}`",
                    t.name
                )));
            }
            (Some((_, t)), Some(e))
                if !self.with_chosen(card, instance, seat, |found| found.contains(&e)) =>
            {
                let t = &t.name;
                return Some(Illegal::Zones(format!(
                    "{name} cannot aim at {}: it is not a `:{t}` it may choose",
                    self.entity_name(e)
                )));
            }
            _ => {}
        }
        if let Some(why) = self.option_refusal(card, action) {
            return Some(why);
        }
        self.unplayable(card, instance, seat)
            .map(|why| Illegal::Refused(why.words(name)))
    }

    /// Why `action` names the wrong option for card `card`, if it does: an
    /// option the card's `:choose` does not offer, none where it needs one,
    /// or one where it takes none (no `:choose`, or played on nothing).
    #[cold]
    fn option_refusal(&self, card: CardId, action: super::Action) -> Option<super::Illegal> {
        let def = &self.cards[card.index()];
        let name = &def.name;
        let on_nothing = def.aims.chosen().is_some() && action.target.is_none();
        if on_nothing {
            return action.choice.map(|_| {
                super::Illegal::NotAllowed(format!(
                    "{name} is played on nothing: it names no option"
                ))
            });
        }
        if self.choice_fits(card, action.choice) {
            return None;
        }
        let rules = self.rules;
        let Some(set) = def.aims.choose.and_then(|c| rules.choices.get(c)) else {
            return Some(super::Illegal::NotAllowed(format!(
                "{name} has no `:choose`: it takes no option"
            )));
        };
        let offered = crate::diag::list(
            rules.options.as_slice()[set.options()]
                .iter()
                .map(|o| format!("`:{o}`")),
        );
        let chosen = match action.choice {
            Some(o) => match rules.options.get(o) {
                Some(name) => format!("`:{name}` is not one"),
                None => format!("option {} is not one", o.index()),
            },
            None => "none was chosen".to_string(),
        };
        Some(super::Illegal::NotAllowed(format!(
            "{name} needs one `:{}` option: {offered}; {chosen}",
            set.name
        )))
    }

    /// Runs card `card`'s effects (instance `instance`, played by `seat`),
    /// its targets bound after the seat's roles: the chosen one, and each
    /// random one drawn now. A card with a target left without a candidate
    /// does nothing, and the log says so.
    pub(super) fn run_card_aimed(
        &mut self,
        seat: EntityId,
        card: CardId,
        instance: EntityId,
        chosen: Option<EntityId>,
        choice: Option<crate::ids::OptionId>,
    ) {
        // The option is read by `[choice :field]` while its effects run.
        self.state.choice = choice;
        self.run_card_targets(seat, card, instance, chosen);
        self.state.choice = None;
    }

    /// [`Game::run_card_aimed`] once the option is set.
    fn run_card_targets(
        &mut self,
        seat: EntityId,
        card: CardId,
        instance: EntityId,
        chosen: Option<EntityId>,
    ) {
        if self.cards[card.index()].aims.targets.is_empty() {
            return self.run_card(seat, card);
        }
        // The chosen targets in order: the first, as played, then the later ones.
        let mut picks = std::mem::take(&mut self.later);
        if let Some(c) = chosen {
            picks.insert(0, c);
        }
        let mut all = std::mem::take(&mut self.aim_scratch.bound);
        let mut found = std::mem::take(&mut self.aim_scratch.found);
        all.clear();
        all.extend_from_slice(self.seat_roles(seat.index()));
        let bound = bind(
            self.rules,
            &self.cards[card.index()].aims.targets,
            &mut self.state,
            instance,
            &mut all,
            &picks,
            &mut found,
        );
        picks.clear();
        self.later = picks;
        self.aim_scratch.found = found;
        if !bound {
            self.record(super::GameEvent::Fizzled { card });
            self.aim_scratch.bound = all;
            return;
        }
        for &target in &all[self.role_count..] {
            self.record(super::GameEvent::Aimed { card, target });
            // What waits for being aimed at runs before the card's effects.
            let h = super::triggers::Happened::about(super::triggers::On::Targeted, target, None);
            self.happened(h);
        }
        let (code, rules) = (&self.code, self.rules);
        code.program.apply_inline(
            rules,
            &code.cards[card.index()],
            &mut self.state,
            &all,
            &mut self.events,
        );
        self.aim_scratch.bound = all;
        self.state.claim(crate::eval::Owner::Card(card.index()));
        self.flush_events(|cause| super::By::Card(card, cause));
    }

    /// Whether card `card` chooses more than one target: the later ones are
    /// asked of its seat once it is paid for ([`super::Phase::Target`]).
    pub(super) fn chooses_later(&self, card: CardId) -> bool {
        self.chooses_later_def(&self.cards[card.index()])
    }

    /// [`Game::chooses_later`] of a card's definition.
    pub(super) fn chooses_later_def(&self, card: &crate::check::defs::Card) -> bool {
        card.aims.targets.iter().filter(|t| !t.random).count() > 1
    }

    /// Starts asking for the later chosen targets of card `card` (instance
    /// `entity`), played by `seat` with `aim`: true while one is asked (the
    /// play waits); false when none has a candidate left, and the play goes on.
    pub(super) fn start_aiming(
        &mut self,
        seat: EntityId,
        card: CardId,
        entity: EntityId,
        aim: (Option<EntityId>, Option<crate::ids::OptionId>),
    ) -> bool {
        self.later.clear();
        let aiming = Aiming {
            seat,
            card,
            entity,
            aim,
            picks: Vec::new(),
        };
        self.ask_target(aiming)
    }

    /// Asks `aiming`'s seat for its card's next chosen target, if one is
    /// left with a candidate: true then ([`super::Phase::Target`]).
    fn ask_target(&mut self, aiming: Aiming) -> bool {
        if self.next_candidates(&aiming).is_empty() {
            // Nothing left to choose (or nothing to choose from): the play
            // goes on, and a target without one leaves the card doing nothing.
            self.later = aiming.picks;
            return false;
        }
        self.phase = super::Phase::Target;
        self.aiming = Some(Box::new(aiming));
        true
    }

    /// The candidates for `aiming`'s next chosen target, among what its
    /// seat sees, the earlier targets bound; none when every chosen one is picked.
    fn next_candidates(&mut self, aiming: &Aiming) -> Vec<EntityId> {
        // Played on nothing (its `:optional` first target had no
        // candidate): the card does nothing, so nothing more is asked.
        if aiming.aim.0.is_none() {
            return Vec::new();
        }
        let cards: &'r [crate::check::defs::Card] = self.cards;
        let targets = &cards[aiming.card.index()].aims.targets;
        let k = 1 + aiming.picks.len();
        let Some(target) = targets.get(k).filter(|t| !t.random) else {
            return Vec::new();
        };
        let mut roles = self.seat_roles(aiming.seat.index()).to_vec();
        roles.extend(aiming.aim.0);
        roles.extend(&aiming.picks);
        let mut found = Vec::new();
        candidates(
            self.rules,
            &mut self.state,
            target,
            aiming.entity,
            &roles,
            Some(aiming.seat),
            &mut found,
        );
        found
    }

    /// Pushes to `out` the targets the seat may choose now ([`super::Phase::Target`]).
    pub(super) fn targets_allowed(&mut self, out: &mut Vec<Action>) {
        let Some(aiming) = self.aiming.take() else {
            return;
        };
        let found = self.next_candidates(&aiming);
        out.extend(found.into_iter().map(|t| Action {
            ability: super::Ability::Target,
            actor: aiming.seat,
            target: Some(t),
            choice: None,
        }));
        self.aiming = Some(aiming);
    }

    /// Choosing `target` as the next target of the card being played, for
    /// the seat whose turn it is ([`super::Phase::Target`]).
    pub fn target_action(&self, target: EntityId) -> Action {
        Action {
            ability: super::Ability::Target,
            actor: self.current,
            target: Some(target),
            choice: None,
        }
    }

    /// Whether `action` chooses a candidate for the next target now.
    pub(super) fn allowed_target(&mut self, action: Action) -> bool {
        self.target_check(action).is_ok()
    }

    /// Why `action` may not choose the next target now.
    pub(super) fn target_refusal(&mut self, action: Action) -> super::Illegal {
        self.target_check(action)
            .err()
            .unwrap_or(super::Illegal::Targeting)
    }

    fn target_check(&mut self, action: Action) -> Result<(), super::Illegal> {
        use super::Illegal;
        if self.phase != super::Phase::Target {
            return Err(Illegal::NotAllowed(
                "no card waits for a target: a target is chosen as its card is played".to_string(),
            ));
        }
        if action.ability != super::Ability::Target {
            return Err(Illegal::Targeting);
        }
        let Some(aiming) = self.aiming.take() else {
            return Err(Illegal::Targeting);
        };
        let found = self.next_candidates(&aiming);
        let (seat, card) = (aiming.seat, aiming.card);
        self.aiming = Some(aiming);
        if action.actor != seat {
            return Err(Illegal::NotYourTurn(action.actor));
        }
        match action.target {
            Some(t) if found.contains(&t) => Ok(()),
            Some(t) => Err(Illegal::Zones(format!(
                "{} cannot aim at {}: it is not a target it may choose",
                self.cards[card.index()].name,
                self.entity_name(t)
            ))),
            None => Err(Illegal::Targeting),
        }
    }

    /// Takes `action`'s target as the next of the card being played; once
    /// every chosen target is, the play goes on.
    pub(super) fn act_target(&mut self, action: Action) {
        let (Some(mut aiming), Some(t)) = (self.aiming.take(), action.target) else {
            return;
        };
        self.phase = super::Phase::Act;
        aiming.picks.push(t);
        let (seat, card, entity, aim) = (aiming.seat, aiming.card, aiming.entity, aiming.aim);
        if self.ask_target(*aiming) {
            return;
        }
        self.after_aiming(seat, card, entity, aim);
    }

    /// Pushes to `out` every play of the card at hand position `i` the seat
    /// may make: one per chosen target, or one without.
    pub(super) fn zoned_plays(&mut self, i: usize, out: &mut Vec<Action>) {
        let seat = self.current;
        let (Some(&card), Some(instance)) = (self.hand().get(i), self.hand_instance(seat, i))
        else {
            return;
        };
        let play = self.play(i);
        // In the act phase every play of the card is allowed if the card is:
        // its targets and options are what it may choose, so the card is
        // tested once, not once a target and option.
        let whole = self.phase == super::Phase::Act && self.zoned;
        if whole && !self.card_playable(i, card, instance, seat) {
            return;
        }
        let aims = &self.cards[card.index()].aims;
        let mut targets = std::mem::take(&mut self.aim_scratch.targets);
        targets.clear();
        match aims.chosen() {
            None => targets.push(None),
            Some(_) => self.with_chosen(card, instance, seat, |found| {
                targets.extend(found.iter().copied().map(Some));
            }),
        }
        // An optional target with nothing to aim at: played on nothing, and
        // with no option (it does nothing, so nothing is named).
        let on_nothing = targets.is_empty() && aims.chosen().is_some_and(|(_, t)| t.optional);
        if on_nothing {
            targets.push(None);
        }
        // Each target with each option of its `:choose`, in the set's order.
        let options = match aims.choose.and_then(|c| self.rules.choices.get(c)) {
            Some(set) if !on_nothing => Some(set.options()),
            _ => None,
        };
        let count = options.as_ref().map_or(1, ExactSizeIterator::len);
        for &target in &targets {
            for k in 0..count {
                let choice = options
                    .as_ref()
                    .map(|o| crate::ids::OptionId::new(o.start + k));
                let aimed = Action {
                    target,
                    choice,
                    ..play
                };
                if whole {
                    debug_assert!(self.allowed(aimed), "{aimed:?} is listed but not allowed");
                    out.push(aimed);
                } else if self.allowed(aimed) {
                    out.push(aimed);
                }
            }
        }
        self.aim_scratch.targets = targets;
    }

    /// Whether `choice` is what card `card` may be played with: an option of
    /// its `:choose`, or none for a card without.
    pub(super) fn choice_fits(&self, card: CardId, choice: Option<crate::ids::OptionId>) -> bool {
        let set = self.cards[card.index()]
            .aims
            .choose
            .and_then(|c| self.rules.choices.get(c));
        match (set, choice) {
            (None, None) => true,
            (Some(set), Some(o)) => set.options().contains(&o.index()),
            _ => false,
        }
    }
}
