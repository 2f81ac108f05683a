//! The engine: turns, hands, decks and victory, driven by a rule set's data.
//!
//! A [`Game`] seats players, deals from a shuffled deck, applies the rule set's
//! hooks at the start and end of each turn, and lets the player whose turn it
//! is play or discard a card. Costs, "play again", "draw", "discard" and
//! "cannot be discarded" come from each card's data; victory from the rule
//! set's `:victory` conditions. All chance (shuffles, AI choices) draws from
//! the generator inside the state, so a seed replays a game exactly.

pub mod ai;

use rand::seq::SliceRandom;

use crate::ast::{AttrId, Effect};
use crate::eval::{Cause, Event, State, apply};
use crate::files::{CardRules, DefKind, Definition};
use crate::rules::RuleSet;

/// The most actions one turn may hold: "play again" past it ends the turn, so a
/// deck of nothing but "play again" cards still reaches the turn limit.
pub const MAX_ACTIONS_PER_TURN: u32 = 100;

/// A card as the engine plays it.
#[derive(Clone, Debug)]
pub struct Card {
    /// Its name.
    pub name: String,
    /// Its text for players.
    pub text: String,
    /// What it does.
    pub effects: Vec<Effect>,
    /// Cost and flags.
    pub play: CardRules,
}

impl Card {
    /// The cards among `defs` written for rule set `rules`.
    pub fn from_definitions(defs: &[Definition], rules: &str) -> Vec<Card> {
        defs.iter()
            .filter(|d| d.kind == DefKind::Card && d.rules == rules)
            .map(|d| Card {
                name: d.name.clone(),
                text: d.text.clone().unwrap_or_default(),
                effects: d.effects.clone(),
                play: d.play.clone(),
            })
            .collect()
    }
}

/// Index of a card in the game's card list.
pub type CardId = u16;

/// What the player whose turn it is can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play the card at this hand position.
    Play(usize),
    /// Discard the card at this hand position.
    Discard(usize),
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The player chooses a card to play or discard.
    Act,
    /// The player must discard this many more cards (after Prism's "draw 1, discard 1").
    MustDiscard(u8),
    /// A turn has ended and the next has not begun: only with [`Game::pause_between_turns`].
    BetweenTurns,
    /// The game has ended.
    Over(Outcome),
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This seat won, by the rule set's victory condition with this index.
    Win {
        /// The winning seat.
        seat: u8,
        /// Index in [`RuleSet::victory`].
        reason: u16,
    },
    /// Both seats met a victory condition at once.
    Tie,
    /// The turn limit (`:max-turns`) was reached.
    TurnLimit,
}

/// What changed an attribute during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The rule set's `:turn-start` hook (Arcomage: production).
    TurnStart,
    /// The rule set's `:turn-end` hook.
    TurnEnd,
    /// Paying for a card.
    Cost,
    /// A card's effects.
    Card,
}

/// One entry of a game's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// A turn begins.
    TurnStart {
        /// 1-based turn number.
        turn: u32,
        /// Whose turn.
        seat: u8,
    },
    /// A card is played.
    Played {
        /// Who played it.
        seat: u8,
        /// Which card.
        card: CardId,
    },
    /// A card is discarded.
    Discarded {
        /// Who discarded it.
        seat: u8,
        /// Which card.
        card: CardId,
        /// True when a card's "discard 1" forced it.
        forced: bool,
    },
    /// The player could do nothing and passed.
    Passed {
        /// Who passed.
        seat: u8,
    },
    /// An attribute changed.
    Changed {
        /// The change; its slot is the seat.
        event: Event,
        /// What made it.
        by: By,
    },
    /// The game ended.
    Ended(Outcome),
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
    /// The turn has ended and the next has not begun.
    #[error("the turn has ended")]
    BetweenTurns,
}

/// Why a game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rule set declares no seats.
    #[error("rule set `{0}` is not a game: it declares no `:seats`")]
    NoSeats(String),
    /// A param the engine needs is missing.
    #[error("rule set `{rules}` needs the param `:{param}` to be played")]
    MissingParam {
        /// The rule set.
        rules: String,
        /// The param.
        param: &'static str,
    },
    /// There are no cards (or every card has `:copies 0`).
    #[error("there are no cards for rule set `{0}`")]
    NoCards(String),
    /// A param the engine needs is out of range.
    #[error("the param `:{param}` is {value}; it must be from 1 to {max}")]
    BadParam {
        /// The param.
        param: &'static str,
        /// Its value.
        value: i64,
        /// The largest value allowed.
        max: i64,
    },
}

/// Which attributes any victory condition reads; every one if some condition cannot say.
fn watched(rules: &RuleSet) -> Vec<bool> {
    let mut out = vec![false; rules.attributes.len()];
    for v in &rules.victory {
        match &v.reads {
            Some(reads) => reads.iter().for_each(|&(_, a)| out[a as usize] = true),
            None => out.iter_mut().for_each(|w| *w = true),
        }
    }
    out
}

/// Pays a card's cost from `seat`'s attribute, within the attribute's bounds;
/// the change, if any, goes to `events`.
pub fn pay(
    rules: &RuleSet,
    state: &mut State,
    seat: u8,
    card: &CardRules,
    events: &mut Vec<Event>,
) {
    let Some(attr) = card.pay_with else { return };
    let before = state.get(seat as usize, attr);
    let (min, max) = rules.bounds[attr as usize];
    let after = before.saturating_sub(card.cost).clamp(min, max);
    if after != before {
        state.put(seat as usize, attr, after);
        events.push(Event {
            slot: seat,
            attr,
            before,
            after,
            cause: Cause {
                effect: 0,
                via: None,
            },
        });
    }
}

/// Bit `i` of a change mask; values past the 64th share the last bit.
fn bit(i: usize) -> u64 {
    1 << i.min(63)
}

/// For each seat and victory condition, the mask of the values it reads
/// (everything, for a condition that draws chance or reads computed entities).
fn victory_masks(rules: &RuleSet, seats: usize) -> Vec<u64> {
    let width = rules.attributes.len();
    let mut out = Vec::with_capacity(seats * rules.victory.len());
    for seat in 0..seats {
        for v in &rules.victory {
            out.push(match &v.reads {
                // A condition that reads no value (`true`, params only) is checked every time.
                Some(reads) if !reads.is_empty() => reads.iter().fold(0, |m, &(r, a)| {
                    let slot = (seat + r as usize) % seats;
                    m | bit(slot * width + a as usize)
                }),
                _ => u64::MAX,
            });
        }
    }
    out
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game<'r> {
    rules: &'r RuleSet,
    cards: &'r [Card],
    /// Every attribute of every seat, and the generator. Private: a value changed
    /// behind the engine's back would escape its victory checks ([`Game::set`]).
    state: State,
    /// Each seat's hand, in the order drawn.
    pub hands: Vec<Vec<CardId>>,
    draw_pile: Vec<CardId>,
    discard_pile: Vec<CardId>,
    /// The seat whose turn it is.
    pub current: u8,
    /// The 1-based turn number.
    pub turn: u32,
    /// Where the game is.
    pub phase: Phase,
    play_again_pending: bool,
    hand_size: usize,
    max_turns: u32,
    /// `roles[seat]`: the seat each entity name means during `seat`'s turn.
    roles: Vec<Vec<u8>>,
    events: Vec<Event>,
    pause: bool,
    actions_this_turn: u32,
    /// Whether any value changed since victory was last checked.
    changed: bool,
    /// Which values changed since then: bit `slot × attributes + attribute`.
    dirty: u64,
    /// For each seat and victory condition, the bits of the values it reads.
    victory_masks: Vec<u64>,
    /// Each card's cost, packed for the affordability test: (attribute, cost; 0 if free).
    costs: Vec<(AttrId, i64)>,
    /// The attributes victory conditions read, by attribute (all, if one cannot say).
    watched: Vec<bool>,
    /// The log, if kept.
    pub log: Option<Vec<GameEvent>>,
}

impl<'r> Game<'r> {
    /// Shuffles the deck with `seed`, deals every seat a hand and starts turn 1.
    pub fn new(
        rules: &'r RuleSet,
        cards: &'r [Card],
        seed: u64,
        keep_log: bool,
    ) -> Result<Game<'r>, SetupError> {
        let seats = rules.seats.len();
        if seats == 0 {
            return Err(SetupError::NoSeats(rules.name.clone()));
        }
        if cards.iter().all(|c| c.play.copies == 0) {
            return Err(SetupError::NoCards(rules.name.clone()));
        }
        let param = |name: &'static str| {
            rules.param(name).ok_or(SetupError::MissingParam {
                rules: rules.name.clone(),
                param: name,
            })
        };
        let ranged = |name: &'static str, max: i64| {
            let value = param(name)?;
            if (1..=max).contains(&value) {
                Ok(value)
            } else {
                Err(SetupError::BadParam {
                    param: name,
                    value,
                    max,
                })
            }
        };
        let hand_size = ranged("hand-size", 64)? as usize;
        let max_turns = ranged("max-turns", i64::from(u32::MAX))? as u32;
        let roles = (0..seats)
            .map(|seat| {
                (0..rules.entities.len())
                    .map(|i| ((seat + i) % seats) as u8)
                    .collect()
            })
            .collect();
        let mut game = Game {
            rules,
            cards,
            state: State::new(rules, seats, seed),
            hands: vec![Vec::with_capacity(hand_size + 4); seats],
            draw_pile: Vec::new(),
            discard_pile: Vec::new(),
            current: 0,
            turn: 1,
            phase: Phase::Act,
            play_again_pending: false,
            hand_size,
            max_turns,
            roles,
            events: Vec::with_capacity(32),
            pause: false,
            actions_this_turn: 0,
            changed: true,
            dirty: u64::MAX,
            victory_masks: victory_masks(rules, seats),
            costs: cards
                .iter()
                .map(|c| c.play.pay_with.map_or((0, 0), |a| (a, c.play.cost)))
                .collect(),
            watched: watched(rules),
            log: keep_log.then(Vec::new),
        };
        game.deal();
        game.start_turn();
        Ok(game)
    }

    /// Starts a new game on the same rules and cards, reusing every buffer.
    pub fn reset(&mut self, seed: u64) {
        self.state = State::new(self.rules, self.rules.seats.len(), seed);
        for hand in &mut self.hands {
            hand.clear();
        }
        self.discard_pile.clear();
        self.current = 0;
        self.turn = 1;
        self.phase = Phase::Act;
        self.play_again_pending = false;
        self.actions_this_turn = 0;
        self.changed = true;
        self.dirty = u64::MAX;
        if let Some(log) = &mut self.log {
            log.clear();
        }
        self.deal();
        self.start_turn();
    }

    fn deal(&mut self) {
        self.draw_pile.clear();
        for (id, card) in self.cards.iter().enumerate() {
            for _ in 0..card.play.copies {
                self.draw_pile.push(id as CardId);
            }
        }
        self.draw_pile.shuffle(&mut self.state.rng);
        for seat in 0..self.hands.len() {
            self.refill(seat);
        }
    }

    /// The rule set.
    pub fn rules(&self) -> &'r RuleSet {
        self.rules
    }

    /// The cards, indexed by [`CardId`].
    pub fn cards(&self) -> &'r [Card] {
        self.cards
    }

    /// The hand of the seat whose turn it is.
    pub fn hand(&self) -> &[CardId] {
        &self.hands[self.current as usize]
    }

    /// The slots each entity name means for `seat`.
    pub fn roles(&self, seat: u8) -> &[u8] {
        &self.roles[seat as usize]
    }

    /// Cards left to draw.
    pub fn draw_pile_len(&self) -> usize {
        self.draw_pile.len()
    }

    fn draw(&mut self, seat: usize) {
        if self.draw_pile.is_empty() {
            // The discards become the new deck, reshuffled.
            std::mem::swap(&mut self.draw_pile, &mut self.discard_pile);
            self.draw_pile.shuffle(&mut self.state.rng);
        }
        if let Some(card) = self.draw_pile.pop() {
            self.hands[seat].push(card);
        }
    }

    fn refill(&mut self, seat: usize) {
        while self.hands[seat].len() < self.hand_size {
            let before = self.hands[seat].len();
            self.draw(seat);
            if self.hands[seat].len() == before {
                break;
            }
        }
    }

    /// Can the current player pay for `card`?
    pub fn affordable(&self, card: CardId) -> bool {
        let (attr, cost) = self.costs[card as usize];
        cost <= 0 || self.state.get(self.current as usize, attr) >= cost
    }

    /// Is `action` allowed now? The cheap test; [`Game::check`] says why not.
    #[inline]
    pub fn allowed(&self, action: Action) -> bool {
        let (Action::Play(i) | Action::Discard(i)) = action;
        let Some(&card) = self.hand().get(i) else {
            return false;
        };
        match (self.phase, action) {
            (Phase::Over(_) | Phase::BetweenTurns, _)
            | (Phase::MustDiscard(_), Action::Play(_)) => false,
            (_, Action::Discard(_)) => self.cards[card as usize].play.discardable,
            (Phase::Act, Action::Play(_)) => self.affordable(card),
        }
    }

    /// Is `action` allowed now, and if not, why?
    pub fn check(&self, action: Action) -> Result<(), Illegal> {
        if self.allowed(action) {
            return Ok(());
        }
        let hand = self.hand();
        let (Action::Play(i) | Action::Discard(i)) = action;
        let Some(&card) = hand.get(i) else {
            return Err(Illegal::NoSuchCard(i));
        };
        let def = &self.cards[card as usize];
        match (self.phase, action) {
            (Phase::Over(_), _) => Err(Illegal::Over),
            (Phase::BetweenTurns, _) => Err(Illegal::BetweenTurns),
            (Phase::MustDiscard(_), Action::Play(_)) => Err(Illegal::MustDiscard),
            (_, Action::Discard(_)) if !def.play.discardable => {
                Err(Illegal::Undiscardable(def.name.clone()))
            }
            (_, Action::Discard(_)) => Ok(()),
            (Phase::Act, Action::Play(_)) if self.affordable(card) => Ok(()),
            (Phase::Act, Action::Play(_)) => {
                let attr = def.play.pay_with.unwrap_or(0);
                Err(Illegal::CannotAfford {
                    name: def.name.clone(),
                    cost: def.play.cost,
                    resource: self.rules.attributes[attr as usize].clone(),
                    have: self.state.get(self.current as usize, attr),
                })
            }
        }
    }

    /// Every allowed action, plays first, in hand order.
    pub fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let n = self.hand().len();
        out.extend((0..n).map(Action::Play).filter(|&a| self.allowed(a)));
        out.extend((0..n).map(Action::Discard).filter(|&a| self.allowed(a)));
    }

    fn record(&mut self, e: GameEvent) {
        if let Some(log) = &mut self.log {
            log.push(e);
        }
    }

    fn flush_events(&mut self, by: By) {
        let width = self.rules.attributes.len();
        for e in &self.events {
            // Only values some victory condition reads can end the game.
            if self.watched[e.attr as usize] {
                self.changed = true;
                self.dirty |= bit(e.slot as usize * width + e.attr as usize);
            }
        }
        if let Some(log) = &mut self.log {
            log.extend(
                self.events
                    .iter()
                    .map(|&event| GameEvent::Changed { event, by }),
            );
        }
        self.events.clear();
    }

    /// Starts the turn of `current`, passing for as long as nobody can act.
    fn start_turn(&mut self) {
        if !self.begin_turn() {
            self.end_turn();
        }
    }

    /// The turn's start: its hook, a victory check. False if the game went on
    /// and the player could do nothing (they pass; the caller ends the turn).
    fn begin_turn(&mut self) -> bool {
        let seat = self.current;
        self.record(GameEvent::TurnStart {
            turn: self.turn,
            seat,
        });
        self.run_hook(By::TurnStart);
        if self.phase == Phase::Act && !self.has_action() {
            self.record(GameEvent::Passed { seat });
            return false;
        }
        true
    }

    /// Applies a rule-set hook for the seat whose turn it is, then checks victory.
    fn run_hook(&mut self, hook: By) {
        let rules = self.rules;
        let effects = match hook {
            By::TurnEnd => &rules.hooks.turn_end,
            _ => &rules.hooks.turn_start,
        };
        let roles = &self.roles[self.current as usize];
        apply(rules, effects, &mut self.state, roles, &mut self.events);
        self.flush_events(hook);
        self.check_victory();
    }

    fn has_action(&self) -> bool {
        (0..self.hand().len())
            .any(|i| self.allowed(Action::Play(i)) || self.allowed(Action::Discard(i)))
    }

    /// Ends the current turn and starts the next; a loop, not recursion, so turns
    /// where nobody can act cannot exhaust the stack.
    fn end_turn(&mut self) {
        loop {
            let seat = self.current;
            self.run_hook(By::TurnEnd);
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            if self.turn >= self.max_turns {
                self.finish(Outcome::TurnLimit);
                return;
            }
            self.current = ((seat as usize + 1) % self.hands.len()) as u8;
            self.turn += 1;
            self.actions_this_turn = 0;
            if self.pause {
                self.phase = Phase::BetweenTurns;
                return;
            }
            self.phase = Phase::Act;
            if self.begin_turn() {
                return;
            }
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.phase = Phase::Over(outcome);
        self.record(GameEvent::Ended(outcome));
    }

    /// Checks every victory condition for every seat; ends the game if any holds.
    fn check_victory(&mut self) {
        // Nothing a condition reads changed since the last check: nothing new can hold.
        if !std::mem::take(&mut self.changed) {
            return;
        }
        let dirty = std::mem::take(&mut self.dirty);
        let conditions = self.rules.victory.len();
        let mut winner: Option<u8> = None;
        let mut reason = 0;
        let mut tie = false;
        for seat in 0..self.hands.len() {
            let roles = &self.roles[seat];
            for (i, v) in self.rules.victory.iter().enumerate() {
                // A condition that was false and reads nothing that changed is still false.
                if dirty & self.victory_masks[seat * conditions + i] == 0 {
                    continue;
                }
                if crate::eval::holds(&v.when, &mut self.state, roles) {
                    let w = roles[v.winner as usize];
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
        }
        match (winner, tie) {
            (_, true) => self.finish(Outcome::Tie),
            (Some(seat), false) => self.finish(Outcome::Win { seat, reason }),
            (None, false) => {}
        }
    }

    /// Does `action` for the player whose turn it is.
    pub fn act(&mut self, action: Action) -> Result<(), Illegal> {
        if !self.allowed(action) {
            return self.check(action);
        }
        let seat = self.current;
        let s = seat as usize;
        match action {
            Action::Play(i) => {
                let card = self.hands[s].remove(i);
                self.record(GameEvent::Played { seat, card });
                let def = &self.cards[card as usize];
                pay(
                    self.rules,
                    &mut self.state,
                    seat,
                    &def.play,
                    &mut self.events,
                );
                self.flush_events(By::Cost);
                apply(
                    self.rules,
                    &def.effects,
                    &mut self.state,
                    &self.roles[s],
                    &mut self.events,
                );
                self.flush_events(By::Card);
                self.discard_pile.push(card);
                self.check_victory();
                if matches!(self.phase, Phase::Over(_)) {
                    return Ok(());
                }
                self.refill(s);
                for _ in 0..def.play.draw {
                    self.draw(s);
                }
                self.play_again_pending = def.play.play_again;
                let discardable = self.hands[s]
                    .iter()
                    .filter(|&&c| self.cards[c as usize].play.discardable)
                    .count();
                let must = (def.play.discard as usize).min(discardable) as u8;
                if must > 0 {
                    self.phase = Phase::MustDiscard(must);
                } else {
                    self.after_action();
                }
            }
            Action::Discard(i) => {
                let card = self.hands[s].remove(i);
                let forced = matches!(self.phase, Phase::MustDiscard(_));
                self.record(GameEvent::Discarded { seat, card, forced });
                self.discard_pile.push(card);
                match self.phase {
                    Phase::MustDiscard(n) if n > 1 => self.phase = Phase::MustDiscard(n - 1),
                    Phase::MustDiscard(_) => {
                        self.phase = Phase::Act;
                        self.after_action();
                    }
                    _ => {
                        self.refill(s);
                        self.play_again_pending = false;
                        self.end_turn();
                    }
                }
            }
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

    /// Stop after each turn's end, before the next turn's start hooks run, until
    /// [`Game::resume`]: for scenarios that look at the state a play leaves.
    pub fn pause_between_turns(&mut self, pause: bool) {
        self.pause = pause;
    }

    /// Starts the next turn after a pause.
    pub fn resume(&mut self) {
        if self.phase == Phase::BetweenTurns {
            self.phase = Phase::Act;
            self.start_turn();
        }
    }

    /// Puts `card` into the hand of the seat whose turn it is: for scenarios.
    pub fn give(&mut self, card: CardId) {
        self.hands[self.current as usize].push(card);
    }

    /// Every attribute of every seat, and the generator.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Sets a value directly (a scenario's given state, a debugging tool), bounds
    /// not applied. Call [`Game::recheck`] after the last one, so victory is
    /// judged on the whole new state.
    pub fn set(&mut self, slot: usize, attr: AttrId, value: i64) {
        self.state.put(slot, attr, value);
        self.dirty = u64::MAX;
        self.changed = true;
    }

    /// Checks every victory condition now, as after any change.
    pub fn recheck(&mut self) {
        if !matches!(self.phase, Phase::Over(_)) {
            self.check_victory();
        }
    }

    /// Removes the card at `at` from the current hand: undoes [`Game::give`] in scenarios.
    pub fn take_back(&mut self, at: usize) -> Option<CardId> {
        let hand = &mut self.hands[self.current as usize];
        (at < hand.len()).then(|| hand.remove(at))
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }
}
