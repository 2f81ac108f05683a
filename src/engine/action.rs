//! What an actor can use ([`Ability`]), an ability used ([`Action`]), and
//! whether it is allowed now: the cheap test, the reason it is not
//! ([`Illegal`]), and every action that is.

use super::{Cancel, CardId, Game, Phase};
use crate::check::ast::EntityId;
use crate::check::rules::turn_kinds::TurnKindId;
use crate::check::rules::{ActionDef, ActionId, KindId, RuleSet, WhilePreparing};
use crate::eval::{CompiledBool, CompiledEffects, State, with_bindings};
use crate::ids::{AttrId, OptionId};

/// What an actor can use on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ability {
    /// Play the card at this hand position.
    Card(u16),
    /// Discard the card at this hand position (card zones).
    Discard(u16),
    /// Use this action of the rule set's `:actions`.
    Action(ActionId),
    /// End the turn (`:turns {:plays :many}`: a seat plays until it says so).
    EndTurn,
    /// Let the card being played resolve without answering it ([`Phase::React`]).
    Pass,
    /// Use this ability of the card whose instance is the actor (its `:abilities`, in order).
    Use(u8),
    /// Choose the next chosen target of the card being played ([`Phase::Target`]): [`Action::target`].
    Target,
}

/// An ability used: what, by whom, on whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// What is used.
    pub ability: Ability,
    /// Who uses it: for a card, the entity whose turn it is; for an action
    /// of `:actions`, an entity of the action's `:actor` kind.
    pub actor: EntityId,
    /// Who it is aimed at, for abilities that choose; cards do not (their
    /// effects name roles), so a card's action has none.
    pub target: Option<EntityId>,
    /// The option it is used with, for an action with `:choose`: its place
    /// in [`RuleSet::options`].
    pub choice: Option<OptionId>,
}

impl Action {
    /// The hand position this action names (none, past any hand, for an action of `:actions`).
    pub fn hand_position(self) -> usize {
        match self.ability {
            Ability::Card(i) | Ability::Discard(i) => usize::from(i),
            Ability::Action(_)
            | Ability::EndTurn
            | Ability::Pass
            | Ability::Use(_)
            | Ability::Target => usize::MAX,
        }
    }
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The hand has no card at that position.
    #[error("there is no card {0} in the hand")]
    NoSuchCard(usize),
    /// The player cannot pay for the card.
    #[error("{name} costs {cost} {resource}; you have {have}")]
    CannotAfford {
        /// The card.
        name: String,
        /// Its cost.
        cost: i64,
        /// What it is paid in.
        resource: String,
        /// What the player has.
        have: i64,
    },
    /// The card cannot be discarded.
    #[error("{0} cannot be discarded")]
    Undiscardable(String),
    /// A card must be discarded now.
    #[error("you must discard a card first")]
    MustDiscard,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A seat must first answer the card being played, or pass.
    #[error("a card waits for an answer: play a reaction or pass")]
    Reacting,
    /// The card being played waits for its next chosen target.
    #[error("a card waits for its next target: choose one")]
    Targeting,
    /// The turn has ended and the next has not begun.
    #[error("the turn has ended")]
    BetweenTurns,
    /// The action names an actor whose turn it is not.
    #[error("it is not the turn of entity {0}")]
    NotYourTurn(EntityId),
    /// The ability takes no target, or not this one.
    #[error("a card takes no target: its effects name whom they touch")]
    NoTarget,
    /// The rule set has no such action.
    #[error("there is no action {0}")]
    NoSuchAction(usize),
    /// The action's `:when` does not hold for this actor and target, or they
    /// are not of its kinds, or not in play.
    #[error("{0}")]
    NotAllowed(String),
    /// One of the action's `:refused-when` cases holds: the designer's reason.
    #[error("{0}")]
    Refused(String),
    /// The zones refuse it: no room where the card would go, no discarding
    /// from a hand without `:may-discard`, no ending a turn of one play.
    #[error("{0}")]
    Zones(String),
}

/// One value an action's `:pay` changed, and what it was before it paid.
pub(super) type Paid = (EntityId, AttrId, i64);

/// What an action's conditions say for one actor and target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Allowed,
    /// Its `:when` does not hold.
    NotNow,
    /// Its `:refused-when` case with this index holds.
    Refused(usize),
    /// The turn's kind does not allow its `:type`: the controller may choose again.
    WrongTurn,
    /// Its actor is preparing, and it is not one of the actions `:while-preparing` allows.
    Preparing,
    /// It `:forces` a prepared action, and its actor has none.
    NothingPrepared,
}

/// One action of `:actions`, compiled.
#[derive(Debug)]
pub(super) struct ActionCode {
    /// `:when`
    when: Option<CompiledBool>,
    /// Each `:refused-when` condition, in order.
    refused: Box<[CompiledBool]>,
    /// `:pay`
    pub(super) pay: CompiledEffects,
    /// `:effects`
    pub(super) effects: CompiledEffects,
}

impl ActionCode {
    pub(super) fn new(rules: &RuleSet, def: &ActionDef) -> ActionCode {
        ActionCode {
            when: def.when.as_ref().map(CompiledBool::new),
            refused: def
                .refused
                .iter()
                .map(|(c, _)| CompiledBool::new(c))
                .collect(),
            pay: CompiledEffects::new(rules, &def.pay),
            effects: CompiledEffects::new(rules, &def.effects),
        }
    }
}

impl Game<'_> {
    /// Whether doing `action` now draws from the generator: a chancy card, or
    /// an action whose effects roll. A discard never does.
    #[inline]
    pub fn draws(&self, action: Action) -> bool {
        match action.ability {
            Ability::Card(i) => self
                .hand()
                .get(usize::from(i))
                .is_some_and(|&c| self.chancy(c)),
            Ability::Discard(_)
            | Ability::EndTurn
            | Ability::Pass
            | Ability::Use(_)
            | Ability::Target => false,
            Ability::Action(id) => self.rules.actions.get(id).is_some_and(|a| a.draws),
        }
    }

    /// Can the entity whose turn it is pay for `card`?
    pub fn affordable(&self, card: CardId) -> bool {
        self.zones.affordable(&self.state, self.current, card)
    }

    /// Playing the card at hand position `i`, for the entity whose turn it is.
    pub fn play(&self, i: usize) -> Action {
        // A position past u16 cannot be in a hand; it stays out of reach, not wrapped.
        self.action(Ability::Card(u16::try_from(i).unwrap_or(u16::MAX)))
    }

    /// Discarding the card at hand position `i`, for the entity whose turn it is.
    pub fn discard(&self, i: usize) -> Action {
        self.action(Ability::Discard(u16::try_from(i).unwrap_or(u16::MAX)))
    }

    /// Ending the turn, for the entity whose turn it is (`:turns {:plays :many}`).
    pub fn end_turn_action(&self) -> Action {
        self.action(Ability::EndTurn)
    }

    fn action(&self, ability: Ability) -> Action {
        Action {
            ability,
            actor: self.current,
            target: None,
            choice: None,
        }
    }

    /// Using action `id` of `:actions`, by `actor`, on `target`.
    pub fn use_action(&self, id: ActionId, actor: EntityId, target: Option<EntityId>) -> Action {
        Action {
            ability: Ability::Action(id),
            actor,
            target,
            choice: None,
        }
    }

    /// Is `action` allowed now? The cheap test; [`Game::check`] says why not.
    #[inline]
    pub fn allowed(&mut self, action: Action) -> bool {
        if let Ability::Action(id) = action.ability {
            return self.phase == Phase::Act
                && self.action_verdict(id, action) == Some(Verdict::Allowed);
        }
        if self.zoned {
            return self.allowed_zoned(action);
        }
        if action.actor != self.current || action.target.is_some() {
            return false;
        }
        let Some(&card) = self.zones.hand(self.current).get(action.hand_position()) else {
            return false;
        };
        match (self.phase, action.ability) {
            (Phase::Over(_) | Phase::BetweenTurns | Phase::React | Phase::Target, _)
            | (Phase::MustDiscard(_), Ability::Card(_) | Ability::Action(_)) => false,
            (_, Ability::Discard(_)) => self.cards[card.index()].play.discardable,
            (Phase::Act, Ability::Card(_) | Ability::Action(_)) => self.affordable(card),
            // Past the hand: the lookup above has already refused it.
            (_, Ability::EndTurn | Ability::Pass | Ability::Use(_) | Ability::Target) => false,
        }
    }

    /// What action `id`'s conditions say for `action`'s actor and target, if
    /// they are in play and of its kinds (`None` otherwise).
    fn action_verdict(&mut self, id: ActionId, action: Action) -> Option<Verdict> {
        let def = self.rules.actions.get(id)?;
        let kind_of = |e: EntityId| self.state.kind(e);
        if kind_of(action.actor) != Some(def.actor) {
            return None;
        }
        match (def.target, action.target) {
            (None, None) => {}
            (Some(k), Some(t)) if kind_of(t) == Some(k) => {}
            _ => return None,
        }
        if !chosen_well(self.rules, def, action.choice) {
            return None;
        }
        if !self.rules.turn_kinds[self.turn_kind].allows(def.type_) {
            return Some(Verdict::WrongTurn);
        }
        if let Some(v) = self.preparing_verdict(def, action.actor) {
            return Some(v);
        }
        let seat = self.current.index();
        let roles = &self.roles[seat * self.role_count..][..self.role_count];
        let code = &self.code.actions[id.index()];
        Some(verdict(code, &mut self.state, roles, action))
    }

    /// What being "preparing" says of `def` for `actor`, if it refuses it: an
    /// actor with a prepared action waiting may use only the actions marked
    /// `:while-preparing`, and one marked `:forces` needs a prepared action.
    #[inline]
    fn preparing_verdict(&self, def: &ActionDef, actor: EntityId) -> Option<Verdict> {
        match (def.while_preparing, self.preparing(actor)) {
            (None, true) => Some(Verdict::Preparing),
            (Some(WhilePreparing::Forces), false) => Some(Verdict::NothingPrepared),
            _ => None,
        }
    }

    /// Whether delayed action `id`, chosen on `seat`'s turn, may still resolve
    /// now ([`recheck`], on the game's state).
    pub(super) fn still_allowed(
        &mut self,
        id: ActionId,
        seat: EntityId,
        action: Action,
        paid: &[Paid],
    ) -> Result<(), Cancel> {
        let Some(code) = self.code.actions.get(id.index()) else {
            return Err(Cancel::NotNow);
        };
        let roles = &self.roles[seat.index() * self.role_count..][..self.role_count];
        recheck(code, &mut self.state, roles, action, paid)
    }

    /// Is `action` allowed now, and if not, why?
    pub fn check(&mut self, action: Action) -> Result<(), Illegal> {
        if self.allowed(action) {
            return Ok(());
        }
        match self.phase {
            Phase::Over(_) => return Err(Illegal::Over),
            Phase::BetweenTurns => return Err(Illegal::BetweenTurns),
            Phase::MustDiscard(_) if matches!(action.ability, Ability::Action(_)) => {
                return Err(Illegal::MustDiscard);
            }
            _ => {}
        }
        if let Ability::Use(k) = action.ability {
            return Err(self
                .use_refusal(k, action)
                .unwrap_or(Illegal::NotAllowed("not now".to_string())));
        }
        if self.phase == Phase::Target || action.ability == Ability::Target {
            return Err(self.target_refusal(action));
        }
        if self.phase == Phase::React || action.ability == Ability::Pass {
            return Err(self.reaction_refusal(action));
        }
        if let Ability::Action(id) = action.ability {
            return Err(self.action_refusal(id, action));
        }
        if action.actor != self.current {
            return Err(Illegal::NotYourTurn(action.actor));
        }
        if action.target.is_some() && !self.aims {
            return Err(Illegal::NoTarget);
        }
        if action.ability == Ability::EndTurn {
            return Err(Illegal::Zones(
                "a turn of one play ends by itself: only `:turns {:plays :many}` lets a seat end it"
                    .to_string(),
            ));
        }
        let i = action.hand_position();
        let Some(&card) = self.hand().get(i) else {
            return Err(Illegal::NoSuchCard(i));
        };
        if let Some(why) = self.zoned_refusal(action, card) {
            return Err(why);
        }
        let def = &self.cards[card.index()];
        match (self.phase, action.ability) {
            (Phase::MustDiscard(_), _) => Err(Illegal::MustDiscard),
            (_, Ability::Discard(_)) => Err(Illegal::Undiscardable(def.name.clone())),
            _ => {
                let attr = def.play.pay_with.unwrap_or(AttrId::FIRST);
                Err(Illegal::CannotAfford {
                    name: def.name.clone(),
                    cost: self.cost_at(i),
                    resource: self.rules.attributes[attr].clone(),
                    have: self.state.get(self.current, attr),
                })
            }
        }
    }

    /// Why action `id` is not allowed for `action`'s actor and target.
    #[cold]
    fn action_refusal(&mut self, id: ActionId, action: Action) -> Illegal {
        let rules = self.rules;
        let Some(def) = rules.actions.get(id) else {
            return Illegal::NoSuchAction(id.index());
        };
        let actor = self.entity_name(action.actor);
        let target = action
            .target
            .map(|t| self.entity_name(t))
            .unwrap_or_default();
        let kind = |k: KindId| rules.kinds.get(k).map_or("?", String::as_str);
        if !self.state.is_live(action.actor) {
            return Illegal::NotAllowed(format!("{actor} is not in play"));
        }
        if self.state.kind(action.actor) != Some(def.actor) {
            return Illegal::NotAllowed(format!(
                "{} is used by a {}; {} is not one",
                def.name,
                kind(def.actor),
                actor
            ));
        }
        match (def.target, action.target) {
            (None, Some(_)) => {
                return Illegal::NotAllowed(format!("{} takes no target", def.name));
            }
            (Some(k), None) => {
                return Illegal::NotAllowed(format!("{} needs a target: a {}", def.name, kind(k)));
            }
            (Some(k), Some(t)) if self.state.kind(t) != Some(k) => {
                return Illegal::NotAllowed(format!(
                    "{} is aimed at a {} in play; {} is not one",
                    def.name,
                    kind(k),
                    target
                ));
            }
            _ => {}
        }
        if !chosen_well(rules, def, action.choice) {
            return Illegal::NotAllowed(match def.choose.and_then(|c| rules.choices.get(c)) {
                Some(set) => format!(
                    "{} is used with one {}: {}",
                    def.name,
                    set.name,
                    crate::check::list(
                        rules.options.as_slice()[set.options()]
                            .iter()
                            .map(|o| format!("`:{o}`"))
                    )
                ),
                None => format!("{} takes no option", def.name),
            });
        }
        match self.action_verdict(id, action) {
            Some(Verdict::Refused(i)) => Illegal::Refused(def.refused[i].1.clone()),
            Some(Verdict::WrongTurn) => {
                let turn = &rules.turn_kinds[self.turn_kind];
                let allowed = rules
                    .turn_kinds
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| turn.allows(TurnKindId::new(i)))
                    .map(|(_, k)| k.name.clone());
                Illegal::Refused(format!(
                    "a {} turn allows only {} actions; {} is a {} action",
                    turn.name,
                    crate::check::list(allowed),
                    def.name,
                    rules.turn_kinds[def.type_].name
                ))
            }
            Some(Verdict::Preparing) => Illegal::Refused(self.preparing_refusal(action.actor)),
            Some(Verdict::NothingPrepared) => {
                Illegal::Refused(format!("{actor} has no prepared action to {}", def.name))
            }
            _ => Illegal::NotAllowed(match action.target {
                Some(_) => format!("{actor} cannot {} {target} now", def.name),
                None => format!("{actor} cannot {} now", def.name),
            }),
        }
    }

    /// Why an actor that is preparing may not use an action: what it
    /// prepares, and the actions it may use.
    #[cold]
    fn preparing_refusal(&self, actor: EntityId) -> String {
        let rules = self.rules;
        let kind = self.state.kind(actor);
        let may = rules
            .actions
            .iter()
            .filter(|a| a.while_preparing.is_some() && Some(a.actor) == kind)
            .map(|a| a.name.clone());
        let prepared = self
            .prepared_by(actor)
            .map(|a| {
                let name = match a.ability {
                    Ability::Action(id) => rules.actions.get(id).map_or("", |d| d.name.as_str()),
                    Ability::Card(_)
                    | Ability::Discard(_)
                    | Ability::EndTurn
                    | Ability::Pass
                    | Ability::Use(_)
                    | Ability::Target => "",
                };
                match a.target {
                    Some(t) => format!(" {name} {}", self.entity_name(t)),
                    None => format!(" {name}"),
                }
            })
            .unwrap_or_default();
        format!(
            "{} is preparing{prepared}: while preparing it may only {}",
            self.entity_name(actor),
            crate::check::list(may)
        )
    }

    /// Every allowed action: card plays in hand order, then discards, then the
    /// rule set's actions in declaration order, actors and targets in the order
    /// they entered play.
    pub fn legal(&mut self, out: &mut Vec<Action>) {
        out.clear();
        let n = self.hand().len();
        for i in 0..n {
            // A card that aims is played once for each target it may choose.
            if self.aims {
                self.zoned_plays(i, out);
                continue;
            }
            let a = self.play(i);
            if self.allowed(a) {
                out.push(a);
            }
        }
        for i in 0..n {
            let a = self.discard(i);
            if self.allowed(a) {
                out.push(a);
            }
        }
        if self.zoned {
            let end = self.end_turn_action();
            if self.allowed(end) {
                out.push(end);
            }
            // The pass first: a player choosing among equals keeps the
            // first, and a reaction no better than letting the card
            // resolve is a reaction wasted.
            if self.phase == Phase::React {
                out.insert(0, self.pass_action());
            }
            if self.phase == Phase::Target {
                out.clear();
                self.targets_allowed(out);
                return;
            }
            self.uses_allowed(out);
        }
        self.actions_allowed(out, usize::MAX);
    }

    /// Pushes to `out` the allowed actions of `:actions`, at most `limit` of them.
    pub(super) fn actions_allowed(&mut self, out: &mut Vec<Action>, limit: usize) {
        let rules = self.rules;
        if rules.actions.is_empty() || self.phase != Phase::Act {
            return;
        }
        let seat = self.current.index();
        let roles = &self.roles[seat * self.role_count..][..self.role_count];
        let count = self.state.len();
        let allows_all = rules.turn_kinds[self.turn_kind].allows_all();
        let turn = &rules.turn_kinds[self.turn_kind];
        // With nothing prepared and no action caring, preparing refuses nothing:
        // the common case skips the test per actor.
        let preparing = !self.pending.is_empty();
        let mut found = 0;
        for (id, (def, code)) in rules.actions.iter().zip(&self.code.actions).enumerate() {
            // An action the turn's kind does not allow is refused: not legal.
            if !allows_all && !turn.allows(def.type_) {
                continue;
            }
            let ask_preparing = preparing || def.while_preparing.is_some();
            for actor in EntityId::below(count) {
                if self.state.kind(actor) != Some(def.actor)
                    || (ask_preparing && self.preparing_verdict(def, actor).is_some())
                {
                    continue;
                }
                // One action for each option of its `:choose`, or one with none.
                let set = def.choose.and_then(|c| rules.choices.get(c));
                // Without `:choose`, one action with no option.
                let options = set.map_or(0..1, |set| set.options());
                let mut try_one = |target: Option<EntityId>, state: &mut State| {
                    for option in options.clone() {
                        let choice = set.map(|_| OptionId::new(option));
                        let action = Action {
                            ability: Ability::Action(ActionId::new(id)),
                            actor,
                            target,
                            choice,
                        };
                        if verdict(code, state, roles, action) == Verdict::Allowed {
                            out.push(action);
                            found += 1;
                        }
                    }
                };
                match def.target {
                    None => try_one(None, &mut self.state),
                    Some(kind) => {
                        for target in EntityId::below(count) {
                            if self.state.kind(target) == Some(kind) {
                                try_one(Some(target), &mut self.state);
                            }
                        }
                    }
                }
                if found >= limit {
                    return;
                }
            }
        }
    }

    /// Whether the entity whose turn it is may do anything: the test of
    /// [`Game::allowed`] over its hand, without building each action; then
    /// over the rule set's actions, stopping at the first allowed.
    pub(super) fn has_action(&mut self) -> bool {
        if self.zoned {
            return self.has_action_zoned();
        }
        let zones = &self.zones;
        let discardable = |c: CardId| self.cards[c.index()].play.discardable;
        let hand = zones.hand(self.current);
        let cards = match self.phase {
            Phase::Act => hand
                .iter()
                .any(|&c| discardable(c) || zones.affordable(&self.state, self.current, c)),
            Phase::MustDiscard(_) => hand.iter().any(|&c| discardable(c)),
            Phase::BetweenTurns | Phase::Over(_) | Phase::React | Phase::Target => false,
        };
        if cards || self.rules.actions.is_empty() {
            return cards;
        }
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        self.actions_allowed(&mut found, 1);
        let any = !found.is_empty();
        self.found = found;
        any
    }
}

/// Whether `choice` is one of the options of `def`'s `:choose` (none, without one).
fn chosen_well(rules: &RuleSet, def: &ActionDef, choice: Option<OptionId>) -> bool {
    match (def.choose.and_then(|c| rules.choices.get(c)), choice) {
        (Some(set), Some(option)) => set.options().contains(&option.index()),
        (set, option) => set.is_none() && option.is_none(),
    }
}

/// Whether a prepared action may still resolve on `state`: its actor and
/// target in play, its `:when` holding and none of its `:refused-when` cases,
/// as when it was chosen, with the roles `roles` of the seat that chose it.
/// The values its `:pay` changed (`paid`) are read as they were before it
/// paid, so the cost it already spent does not count against it, however
/// long ago (a turn's start may have reset the count it paid into since).
/// Neither the turn's kind nor the actor's preparing is asked again: the
/// action was chosen when they allowed it.
pub(super) fn recheck(
    code: &ActionCode,
    state: &mut State,
    roles: &[EntityId],
    action: Action,
    paid: &[Paid],
) -> Result<(), Cancel> {
    for entity in [Some(action.actor), action.target].into_iter().flatten() {
        if !state.is_live(entity) {
            return Err(Cancel::Gone(entity));
        }
    }
    // How far each paid value moves back, to move it again after: on the
    // stack for the few values a `:pay` changes (a search's rollouts
    // resolve prepared actions and allocate nothing).
    let mut on_stack = [0i64; 8];
    let mut on_heap = Vec::new();
    let shifts: &mut [i64] = if paid.len() <= on_stack.len() {
        &mut on_stack[..paid.len()]
    } else {
        on_heap.resize(paid.len(), 0);
        &mut on_heap
    };
    for (&(entity, attr, before), by) in paid.iter().zip(shifts.iter_mut()) {
        *by = before.wrapping_sub(state.get(entity, attr));
        state.shift(entity, attr, *by);
    }
    let said = verdict(code, state, roles, action);
    for (&(entity, attr, _), &by) in paid.iter().zip(shifts.iter()).rev() {
        state.shift(entity, attr, by.wrapping_neg());
    }
    // Dice a condition rolled belong to no change.
    state.forget_rolls();
    match said {
        Verdict::Allowed | Verdict::WrongTurn | Verdict::Preparing | Verdict::NothingPrepared => {
            Ok(())
        }
        Verdict::NotNow => Err(Cancel::NotNow),
        Verdict::Refused(i) => Err(Cancel::Refused(u16::try_from(i).unwrap_or(u16::MAX))),
    }
}

/// Whether action `def` is allowed for `action`'s actor and target, with the
/// seat roles `roles` bound around them.
fn verdict(code: &ActionCode, state: &mut State, roles: &[EntityId], action: Action) -> Verdict {
    let verdict = bind_action(state, roles, action, |state, r| {
        if code.when.as_ref().is_some_and(|c| !c.holds(state, r)) {
            return Verdict::NotNow;
        }
        match code.refused.iter().position(|c| c.holds(state, r)) {
            Some(i) => Verdict::Refused(i),
            None => Verdict::Allowed,
        }
    });
    state.claim(crate::eval::Owner::Rules);
    verdict
}

/// Runs `f` with `roles`, then `:actor` and (if the action has one) `:target` bound.
pub(super) fn bind_action<R>(
    state: &mut State,
    roles: &[EntityId],
    action: Action,
    f: impl FnOnce(&mut State, &[EntityId]) -> R,
) -> R {
    let n = roles.len();
    let more = if action.target.is_some() { 2 } else { 1 };
    state.choice = action.choice;
    let out = with_bindings(roles, more, |r| {
        r[n] = action.actor;
        if let Some(t) = action.target {
            r[n + 1] = t;
        }
        f(state, r)
    });
    state.choice = None;
    out
}
