//! The engine: a turn machine driven by a rule set's data, with card zones when
//! the rule set switches them on.
//!
//! The turn machine ([`Game`]) keeps a queue of turns: each round it splices in
//! the base queue (every seat once, in seat order), runs the hooks of the
//! timings attached to each [`Moment`] it reaches (game start, round start and
//! end, turn start and end), lets the entity whose turn it is act, checks
//! victory after every change, and keeps a log. Card zones ([`cards`]) hold the
//! deck, hands and discards; a card is one kind of [`Ability`]. All chance
//! (shuffles, effects, AI choices) draws from the generator inside the state,
//! so a seed replays a game exactly.
//!
//! This file holds [`Game`] itself: its setup, what it shows, and what
//! scenarios set. Its other methods live by job: abilities and their legality
//! (`action.rs`), doing what was chosen (`act.rs`), the turn queue and turns
//! (`queue.rs`), moments and their timings (`moments.rs`), victory
//! (`victory.rs`), and events and the log (`events.rs`).

pub mod ai;
pub mod cards;
pub mod intent;
pub mod invariants;
pub mod log;
pub mod mcts;
pub mod observe;
pub mod playout;
pub mod view;

mod abilities;
mod act;
mod action;
mod aims;
mod events;
mod metrics;
mod moments;
mod queue;
mod react;
mod simultaneous;
mod spare;
mod triggers;
mod victory;
mod zoned;
pub use act::MAX_ACTIONS_PER_TURN;
pub use action::{Ability, Action, Illegal};
pub use cards::CardId;
pub use events::{By, Cancel, Change, GameEvent, Stage, via_name};
pub use moments::{moment_label, run_moment, run_timing};
pub use queue::{MAX_QUEUE, Queued};

use crate::check::ast::{AttrId, EntityId, StatusId};
use crate::check::defs::Card;
use crate::check::rules::turn_kinds::TurnKindId;
use crate::check::rules::{Moment, RuleSet};
use crate::eval::{CompiledBool, CompiledEffects, CompiledInt, Event, Program, State};
use crate::ids::KindId;
use act::Pending;
use action::ActionCode;
use cards::Zones;
use queue::{Entry, TimedEntry};
use std::sync::Arc;
use victory::{victory_masks, watched};

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The actor chooses what to do.
    Act,
    /// The actor must discard this many more cards (after Prism's "draw 1, discard 1").
    MustDiscard(u8),
    /// A turn has ended and the next has not begun: only with [`Game::pause_between_turns`].
    BetweenTurns,
    /// The game has ended.
    Over(Outcome),
    /// Out of turn, the seat to act ([`TurnContext::current`]) may answer
    /// the card being played with a reaction card of its hand, or pass
    /// ([`Ability::Pass`]).
    React,
    /// The card being played, paid for, waits for its seat to choose its
    /// next chosen target ([`Ability::Target`]); its effects run once each is chosen.
    Target,
}

/// Where a game is in its turns, apart from the game's state: whose turn,
/// which turn and round, and what the actor may do. A copy, read through
/// [`Game::ctx`]; only the turn machine moves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnContext {
    /// The entity whose turn it is.
    pub current: EntityId,
    /// The 1-based turn number.
    pub turn: u32,
    /// The 1-based round number.
    pub round: u32,
    /// Where the game is.
    pub phase: Phase,
    /// The turn kind of the turn being taken.
    pub turn_kind: TurnKindId,
}

/// Whether a game keeps its log of events ([`Game::log`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Log {
    /// Keep every event: for showing a game, replaying it, testing it.
    Keep,
    /// Keep none: for playing many games fast.
    Skip,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This seat won, by the rule set's victory condition with this index.
    Win {
        /// The winning seat.
        seat: EntityId,
        /// Index in [`RuleSet::victory`].
        reason: u16,
    },
    /// This seat lost, by the rule set's condition with this index (`:loser`):
    /// the game is over and no seat won.
    Loss {
        /// The losing seat.
        seat: EntityId,
        /// Index in [`RuleSet::victory`].
        reason: u16,
    },
    /// Two seats met a victory condition at once.
    Tie,
    /// The turn limit (`:turns {:limit N}`) was reached.
    TurnLimit,
    /// Every seat was taken out of play: nobody is left to take a turn.
    NobodyLeft,
    /// A step of the game (an action and all it set off, a moment's hooks)
    /// ran out of a budget: the rule set does unbounded work.
    Aborted(crate::eval::Exhausted),
}

/// Why a game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rule set declares no seats.
    #[error("rule set `{0}` is not a game: it declares no `:seats`")]
    NoSeats(String),
    /// Card zones are on and there are no cards (or every card has `:copies 0`).
    #[error("there are no cards for rule set `{0}`")]
    NoCards(String),
}

/// What a game evaluates most, compiled once per game (see [`crate::eval::CompiledBool`]).
#[derive(Debug)]
pub(crate) struct Code {
    /// Each victory condition, in declaration order.
    pub(crate) victory: Box<[CompiledBool]>,
    /// `:ai {:score …}`.
    pub(crate) score: Option<CompiledInt>,
    /// The operations and every hook (the rule set's, the statuses'), compiled.
    program: Program,
    /// Each card's effects, by [`CardId`].
    cards: Box<[CompiledEffects]>,
    /// Each action's conditions and effects, by [`ActionId`](crate::check::rules::ActionId).
    actions: Box<[ActionCode]>,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game<'r> {
    rules: &'r RuleSet,
    cards: &'r [Card],
    /// Every attribute of every entity, and the generator. Private: a value changed
    /// behind the engine's back would escape its victory checks ([`Game::set`]).
    state: State,
    /// Card zones; empty, with no hand ever filled, when the rule set has no
    /// `:cards`, or keeps its cards in `:zones`.
    zones: Zones,
    /// Whether the rule set keeps its cards in `:zones`, as instances in the
    /// state ([`crate::eval::zones`]): set once; the classic paths never read more.
    zoned: bool,
    /// What each card's instances are made from, for a game with `:zones`
    /// (`None` otherwise, so copying a game copies nothing more).
    specs: Option<Arc<[crate::eval::zones::CardSpec]>>,
    seats: usize,
    /// The turn queue; `next` is the next entry to run, those before it are done.
    queue: Vec<Entry>,
    next: usize,
    /// The base queue a reorder splices in: every entity's turns.
    base: Vec<Entry>,
    /// Whether entities other than seats take turns, or statuses add turns,
    /// so the base queue is built anew at every reorder.
    entity_turns: bool,
    /// What the timed entries queued this game run, by slot.
    timed: Vec<TimedEntry>,
    /// Slots of `timed` whose entries have run, to be used again.
    free_timed: Vec<u32>,
    /// The turn kind of the turn being taken.
    turn_kind: TurnKindId,
    /// The entity whose turn it is.
    current: EntityId,
    /// The 1-based turn number.
    turn: u32,
    /// The 1-based round number.
    round: u32,
    /// Where the game is.
    phase: Phase,
    /// Where a step ran out of its budget, for a game aborted.
    stopped_at: crate::eval::Place,
    play_again_pending: bool,
    /// While a seat chooses a discard an effect left it (`:pick :chosen`) on
    /// another's turn: whose turn it is, and what follows the choice.
    resume: Option<zoned::Resume>,
    /// The simultaneous turn being taken, if one is: its seats, the
    /// choices held, how far they have resolved.
    simul: Option<Box<simultaneous::Simultaneous>>,
    /// The entity each role means during each seat's turn: seat `s`'s bindings
    /// are `roles[s × role count ..][.. role count]`, flat so a lookup is one index.
    roles: Vec<EntityId>,
    role_count: usize,
    events: Vec<Event>,
    /// The roles of a hook run for each entity of a kind: a seat's, then `:self`.
    each_roles: Vec<EntityId>,
    pause: bool,
    actions_this_turn: u32,
    /// Whether any value changed since victory was last checked.
    changed: bool,
    /// Which values changed since then: bit `entity × attributes + attribute`.
    dirty: u64,
    /// For each seat and victory condition, the bits of the values it reads.
    victory_masks: Vec<u64>,
    /// The victory conditions and the AI's score, compiled; shared by the
    /// copies a search makes.
    code: Arc<Code>,
    /// The attributes victory conditions read, by attribute (all, if one cannot say).
    watched: Vec<bool>,
    /// Whether scoring a state can draw from the generator (see [`Game::score_draws`]).
    score_draws: bool,
    /// Whether some kind has a `:removed-when`, checked after every change.
    removals: bool,
    removed: Vec<EntityId>,
    /// Delayed actions, in the order they were chosen.
    pending: Vec<Pending>,
    /// A buffer for [`Game::has_action`]'s search.
    found: Vec<Action>,
    /// A buffer for the turn order's sort keys, a row per seat.
    order_keys: Vec<i64>,
    /// The log, if kept.
    log: Option<Vec<GameEvent>>,
    /// The cards' triggers waiting and running, for a game whose cards have some.
    triggers: Option<Box<triggers::Triggers>>,
    /// The totals of the metrics that count events, for a game whose rule set has some.
    meter: Option<Box<metrics::Meter>>,
    /// Whether some card has targets, play conditions or a forced play.
    aims: bool,
    /// The reaction windows open, for a game (with `:zones`) whose deck has reactions.
    react: Option<Box<react::Reactions>>,
    /// The once-a-turn abilities used this turn, for a deck (with `:zones`)
    /// where some card has `:abilities`.
    used: Option<Box<abilities::Used>>,
    /// The card being played whose later chosen targets are being asked ([`Phase::Target`]).
    aiming: Option<Box<aims::Aiming>>,
    /// The later chosen targets of the card being played, once chosen: its
    /// effects bind them after its first.
    later: Vec<EntityId>,
    /// Scripted enemies' intents, for a rule set where some kind has `:moves`.
    intents: Option<Box<intent::Intents>>,
    /// Buffers the legality checks of cards that aim reuse: not the game's state.
    aim_scratch: aims::Scratch,
    /// Role lists for timed entries, kept when a copy drops its entries.
    spare_roles: spare::Spare<EntityId>,
    /// Payment lists for prepared actions, kept likewise.
    spare_paid: spare::Spare<action::Paid>,
}

impl<'r> Game<'r> {
    /// Seats the players, deals if there are card zones, and starts turn 1.
    pub fn new(
        rules: &'r RuleSet,
        cards: &'r [Card],
        seed: u64,
        log: Log,
    ) -> Result<Game<'r>, SetupError> {
        Self::starting_from(rules, cards, seed, log, &[])
    }

    /// [`Game::new`], with `values` (entity, attribute, value) set over the
    /// setup before the game's start, so its `:game-start` timings and the
    /// first round's turn order see them (a scenario's `:start`).
    pub fn starting_from(
        rules: &'r RuleSet,
        cards: &'r [Card],
        seed: u64,
        log: Log,
        values: &[(EntityId, AttrId, i64)],
    ) -> Result<Game<'r>, SetupError> {
        let mut game = Self::seated(rules, cards, seed, log)?;
        for &(entity, attr, value) in values {
            if entity.index() < game.state.len() && attr.index() < rules.attributes.len() {
                game.state.put(entity, attr, value);
            }
        }
        game.begin();
        Ok(game)
    }

    /// A game as far as [`Game::dealt`]: its seats and setup entities, no
    /// card made yet, no moment run.
    fn seated(
        rules: &'r RuleSet,
        cards: &'r [Card],
        seed: u64,
        log: Log,
    ) -> Result<Game<'r>, SetupError> {
        let seats = rules.seats.len();
        if seats == 0 {
            return Err(SetupError::NoSeats(rules.name.clone()));
        }
        if rules.cards.is_some() && cards.iter().all(|c| c.play.copies == 0) {
            return Err(SetupError::NoCards(rules.name.clone()));
        }
        let zones = Zones::new(rules, rules.cards.as_ref(), cards, seats);
        let zoned = rules.zones.as_ref().is_some_and(|z| !z.classic);
        let role_count = rules.roles.len();
        let roles = (0..seats)
            .flat_map(|seat| (0..role_count).map(move |i| EntityId::new((seat + i) % seats)))
            .collect();
        let mut game = Game {
            rules,
            cards,
            state: State::new(rules, seats, seed),
            zones,
            zoned,
            specs: zoned.then(|| zoned::card_specs(rules, cards)),
            seats,
            queue: Vec::with_capacity(seats + 1),
            next: 0,
            base: EntityId::below(seats)
                .flat_map(|seat| {
                    rules.kind_turns[KindId::FIRST]
                        .iter()
                        .map(move |&k| Entry::Turn(seat, k))
                })
                .collect(),
            entity_turns: rules.status_turns
                || rules.kind_turns.iter().skip(1).any(|t| !t.is_empty()),
            timed: Vec::new(),
            free_timed: Vec::new(),
            turn_kind: TurnKindId::FIRST,
            current: EntityId::FIRST,
            turn: 1,
            round: 1,
            phase: Phase::Act,
            stopped_at: crate::eval::Place::default(),
            play_again_pending: false,
            resume: None,
            simul: None,
            roles,
            role_count,
            events: Vec::with_capacity(32),
            each_roles: Vec::new(),
            pause: false,
            actions_this_turn: 0,
            changed: true,
            dirty: u64::MAX,
            victory_masks: victory_masks(rules, seats),
            code: Arc::new(Code {
                victory: rules
                    .victory
                    .iter()
                    .map(|v| CompiledBool::new(&v.when))
                    .collect(),
                score: rules.ai_score.as_ref().map(CompiledInt::new),
                program: Program::new(rules),
                cards: cards
                    .iter()
                    .map(|c| CompiledEffects::new(rules, &c.effects))
                    .collect(),
                actions: rules
                    .actions
                    .iter()
                    .map(|a| ActionCode::new(rules, a))
                    .collect(),
            }),
            watched: watched(rules),
            score_draws: rules.victory.iter().any(|v| v.reads.is_none())
                || rules.ai_score.as_ref().is_some_and(|s| {
                    let mut draws = false;
                    s.leaves(&mut |leaf| draws |= leaf == crate::check::ast::Leaf::Draw);
                    draws
                }),
            removals: rules.removed_when.iter().any(Option::is_some) || rules.conditional_statuses,
            removed: Vec::new(),
            pending: Vec::new(),
            found: Vec::new(),
            order_keys: Vec::new(),
            log: (log == Log::Keep).then(Vec::new),
            triggers: triggers::Triggers::new(rules, cards),
            meter: metrics::Meter::new(rules, seats),
            aims: cards
                .iter()
                .any(|c| c.aims != crate::check::defs::Aims::default()),
            react: zoned.then(|| react::Reactions::new(cards)).flatten(),
            used: zoned.then(|| abilities::tracker(cards)).flatten(),
            aiming: None,
            later: Vec::new(),
            intents: intent::Intents::new(rules),
            aim_scratch: aims::Scratch::default(),
            spare_roles: spare::Spare::default(),
            spare_paid: spare::Spare::default(),
        };
        game.state.add_setup(rules);
        Ok(game)
    }

    /// The game `seed` sets up, stopped before it starts: the seats, the
    /// setup entities and the cards dealt (with `:zones`, the deck's cards
    /// made in their `:start` zones, shuffled, and each seat's hand dealt
    /// and refilled), as [`Game::new`] makes them, but no moment run and no
    /// turn begun. What `grimoire eval` applies effects to.
    pub fn dealt(
        rules: &'r RuleSet,
        cards: &'r [Card],
        seed: u64,
    ) -> Result<Dealt<'r>, SetupError> {
        let mut game = Self::seated(rules, cards, seed, Log::Skip)?;
        game.deal();
        Ok(Dealt { game })
    }

    /// Starts a new game on the same rules and cards, reusing every buffer.
    pub fn reset(&mut self, seed: u64) {
        self.state.reset(self.rules, self.seats, seed);
        self.state.add_setup(self.rules);
        self.current = EntityId::FIRST;
        self.turn = 1;
        self.round = 1;
        self.phase = Phase::Act;
        self.stopped_at = crate::eval::Place::default();
        self.play_again_pending = false;
        self.resume = None;
        self.simul = None;
        self.close_windows();
        self.actions_this_turn = 0;
        self.changed = true;
        self.dirty = u64::MAX;
        self.pending.clear();
        self.queue.clear();
        self.next = 0;
        self.timed.clear();
        self.free_timed.clear();
        if let Some(log) = &mut self.log {
            log.clear();
        }
        if let Some(meter) = self.meter.as_deref_mut() {
            meter.clear();
        }
        if let Some(t) = &mut self.intents {
            t.clear();
        }
        self.begin();
    }

    /// Deals: the cards made in their zones and shuffled, the hands dealt.
    fn deal(&mut self) {
        if self.zoned {
            self.setup_zones();
        } else if self.rules.cards.is_some() {
            self.zones.deal(self.cards, &mut self.state.rng);
        }
    }

    /// Deals, runs the game's and the first round's start, and starts the first turn.
    fn begin(&mut self) {
        self.deal();
        self.run_moment_for_seats(Moment::GameStart);
        // After the game's start, which may roll what the turn order sorts by.
        self.splice_base_queue();
        self.run_moment_for_seats(Moment::RoundStart);
        // Scripted enemies show their first moves before any seat acts.
        if self.intents.is_some() {
            self.decide_intents(true);
        }
        if matches!(self.phase, Phase::Over(_)) {
            return;
        }
        if let Some(first) = self.next_turn() {
            self.current = first;
            self.start_turn();
        }
    }

    /// Where the game is in its turns: whose turn, which turn and round, the phase.
    #[inline]
    pub fn ctx(&self) -> TurnContext {
        TurnContext {
            current: self.current,
            turn: self.turn,
            round: self.round,
            phase: self.phase,
            turn_kind: self.turn_kind,
        }
    }

    /// The events so far, if the game keeps its log ([`Log::Keep`]).
    pub fn log(&self) -> Option<&[GameEvent]> {
        self.log.as_deref()
    }

    /// Forgets the events logged so far, if the log is kept: a scenario's log
    /// starts after the values it gives. The intents scripted enemies show
    /// are kept: they are what the seats see as the scenario starts.
    pub fn clear_log(&mut self) {
        if let Some(log) = &mut self.log {
            log.retain(|e| {
                matches!(
                    e,
                    GameEvent::Intends { .. } | GameEvent::IntentChanged { .. }
                )
            });
        }
    }

    /// The moves `entity` has been shown to intend, in order, as far as the
    /// log (if kept) goes back: by each move's key.
    pub fn intended(&self, entity: EntityId) -> Vec<&'r str> {
        let rules: &'r RuleSet = self.rules;
        self.log
            .iter()
            .flatten()
            .filter_map(|e| match *e {
                GameEvent::Intends {
                    entity: x,
                    kind,
                    chosen,
                    ..
                } if x == entity => rules
                    .scripts
                    .get(kind)?
                    .as_deref()?
                    .moves
                    .get(usize::from(chosen))
                    .map(|m| m.key.as_str()),
                _ => None,
            })
            .collect()
    }

    /// Overwrites the turn context behind the turn machine's back: only for
    /// tests of [`invariants::Monitor`], which must be shown broken games.
    #[doc(hidden)]
    pub fn set_ctx_unchecked(&mut self, ctx: TurnContext) {
        self.current = ctx.current;
        self.turn = ctx.turn;
        self.round = ctx.round;
        self.phase = ctx.phase;
        self.turn_kind = ctx.turn_kind;
    }

    /// The card table to edit behind the engine's back: only for tests of
    /// [`invariants::Monitor`], which must be shown broken zones.
    #[doc(hidden)]
    pub fn cards_mut_unchecked(&mut self) -> Option<&mut crate::eval::zones::CardTable> {
        self.state.cards.as_deref_mut()
    }

    /// The log to edit behind the turn machine's back: only for tests of
    /// [`invariants::Monitor`], which must be shown broken logs.
    #[doc(hidden)]
    pub fn log_mut_unchecked(&mut self) -> Option<&mut Vec<GameEvent>> {
        self.log.as_mut()
    }

    /// What logs call `entity`: its seat's or setup name, or, for one that
    /// entered play during the game, its kind and number (`tile#33`).
    pub fn entity_name(&self, entity: EntityId) -> String {
        if let Some(name) = self.rules.game_entity_names().get(entity.index()) {
            return name.clone();
        }
        // Out of play, an entity keeps no kind in the state; the log saw it enter.
        let logged = || {
            self.log.iter().flatten().find_map(|e| match *e {
                GameEvent::Spawned { entity: e, kind } if e == entity => Some(kind),
                _ => None,
            })
        };
        if let Some(card) = self.state.cards.as_deref().and_then(|t| t.card(entity))
            && let Some(c) = self.cards.get(card.index())
        {
            return log::card_name(&c.name, entity);
        }
        match self.state.kind(entity).or_else(logged) {
            Some(kind) => log::spawned_name(self.rules, kind, entity),
            None => format!("#{entity}"),
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

    /// The card zones (empty when the rule set has none).
    #[inline]
    pub(crate) fn zones(&self) -> &Zones {
        &self.zones
    }

    /// The hand of the entity whose turn it is (empty without card zones).
    #[inline]
    pub fn hand(&self) -> &[CardId] {
        self.hand_of(self.current)
    }

    /// The hand of `seat`, whoever's turn it is (empty without card zones):
    /// what a table shows its owner, and what a computer player never reads
    /// for any seat but its own.
    pub fn hand_of(&self, seat: EntityId) -> &[CardId] {
        if self.zoned {
            return self.zoned_hand(seat);
        }
        self.zones.hand(seat)
    }

    /// Whether the rule set keeps its cards in `:zones`, as instances in the
    /// state, rather than in the engine's own piles (`:cards` alone).
    pub fn zoned(&self) -> bool {
        self.zoned
    }

    /// The entity each role means for `seat`.
    pub fn roles(&self, seat: EntityId) -> &[EntityId] {
        self.seat_roles(seat.index())
    }

    /// The compiled victory conditions and score.
    pub(crate) fn code(&self) -> &Code {
        &self.code
    }

    /// How many seats play.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Cards left to draw (0 without card zones).
    pub fn draw_pile_len(&self) -> usize {
        if self.zoned {
            return self.zoned_draw_pile_len(self.current);
        }
        self.zones.draw_pile_len(self.current)
    }

    /// Whether scoring a state can draw from the generator: the greedy AI's
    /// `:ai :score`, or a victory condition that draws chance or reads computed entities.
    pub fn score_draws(&self) -> bool {
        self.score_draws
    }

    /// Whether card `card`'s effects draw from the generator (`random`, `chance`).
    pub fn chancy(&self, card: CardId) -> bool {
        self.zones.chancy(card)
    }

    /// The entity each role means during `seat`'s turn.
    #[inline]
    fn seat_roles(&self, seat: usize) -> &[EntityId] {
        &self.roles[seat * self.role_count..(seat + 1) * self.role_count]
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
            if self.advance() {
                self.start_turn();
            }
        }
    }

    /// Ends the turn being taken though its actor could still act (a
    /// scenario's `:next-turn`): the turn's end runs, then the next turn
    /// starts, or waits while paused ([`Game::pause_between_turns`]).
    /// Between turns it does nothing; refused while a card must be
    /// discarded, and once the game is over.
    pub fn end_turn_now(&mut self) -> Result<(), Illegal> {
        match self.phase {
            Phase::Act => {
                self.play_again_pending = false;
                self.end_turn();
                Ok(())
            }
            Phase::BetweenTurns => Ok(()),
            Phase::MustDiscard(_) => Err(Illegal::MustDiscard),
            Phase::React => Err(Illegal::Reacting),
            Phase::Target => Err(Illegal::Targeting),
            Phase::Over(_) => Err(Illegal::Over),
        }
    }

    /// Puts `card` into the hand of the entity whose turn it is: for scenarios.
    /// Does nothing without card zones.
    pub fn give(&mut self, card: CardId) {
        if self.zoned {
            // A full hand takes no more: the scenario's step finds it missing.
            self.give_zoned(card);
        } else if self.rules.cards.is_some() {
            self.zones.hands[self.current.index()].push(card);
        }
    }

    /// Every attribute of every entity, and the generator.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Sets a value directly (a scenario's given state, a debugging tool), bounds
    /// not applied. Call [`Game::recheck`] after the last one, so victory is
    /// judged on the whole new state.
    pub fn set(&mut self, entity: EntityId, attr: AttrId, value: i64) {
        self.state.put(entity, attr, value);
        self.dirty = u64::MAX;
        self.changed = true;
    }

    /// Adds an entity of the kind called `kind` to the game, with the rule set's
    /// defaults (a unit, a tile, a rock): hooks run `:each` entity of its kind
    /// reach it, and it can be changed like any other. `None` for an unknown kind.
    pub fn add_entity(&mut self, kind: &str) -> Option<EntityId> {
        let kind = self.rules.kind(kind)?;
        Some(self.state.add(self.rules, kind))
    }

    /// `entity` acquires `status` through the normal path (blocks, stacking,
    /// on-acquire effects), applied by the seat whose turn it is: a
    /// scenario's given statuses. Victory is judged after.
    pub fn give_status(&mut self, entity: EntityId, status: StatusId, magnitude: i64) {
        self.give_status_lasting(entity, status, magnitude, None);
    }

    /// [`Game::give_status`], with `left` turns left if given, instead of
    /// what the status's definition says: a scenario's `{:hero {:power 1}}`.
    pub fn give_status_lasting(
        &mut self,
        entity: EntityId,
        status: StatusId,
        magnitude: i64,
        left: Option<u32>,
    ) {
        let seat = self.current.index();
        let roles = &self.roles[seat * self.role_count..][..self.role_count];
        crate::eval::acquire_lasting(
            self.rules,
            &mut self.state,
            roles,
            (entity, self.current),
            status,
            magnitude,
            left,
            &mut self.events,
        );
        self.flush_events(By::Given);
        self.recheck();
    }

    /// Takes an entity out of play: its turns still queued are skipped.
    pub fn remove_entity(&mut self, entity: EntityId) {
        self.state.remove(entity);
    }

    /// Checks every victory condition now, as after any change, once the
    /// auras of the cards in play reach whom they reach (cards given in play).
    pub fn recheck(&mut self) {
        // Cards given in play hold what their auras give before anything is asked.
        if self.triggers.is_some() {
            self.update_auras();
        }
        if !matches!(self.phase, Phase::Over(_)) {
            self.check_victory();
        }
    }

    /// Removes the card at `at` from the current hand: undoes [`Game::give`] in scenarios.
    pub fn take_back(&mut self, at: usize) -> Option<CardId> {
        if self.zoned {
            return self.take_back_zoned(at);
        }
        let hand = &mut self.zones.hands[self.current.index()];
        (at < hand.len()).then(|| hand.remove(at))
    }

    /// Makes this game a copy of `source` without its log, reusing this
    /// one's buffers: what a tree search does once an iteration, so once the
    /// buffers have grown a copy of a game of classic cards allocates
    /// nothing (boxed parts, such as the triggers' or the reactions' state,
    /// may still).
    pub fn copy_unlogged_from(&mut self, source: &Game<'r>) {
        // Destructured, so a field added to `Game` and not copied here fails to compile.
        let Game {
            rules,
            cards,
            state,
            zones,
            zoned,
            specs,
            seats,
            queue,
            next,
            base,
            entity_turns,
            timed,
            free_timed,
            turn_kind,
            current,
            turn,
            round,
            phase,
            stopped_at,
            play_again_pending,
            resume,
            simul,
            roles,
            role_count,
            events,
            each_roles,
            pause,
            actions_this_turn,
            changed,
            dirty,
            victory_masks,
            code,
            watched,
            score_draws,
            removals,
            removed,
            pending,
            found,
            order_keys,
            log: _,
            triggers,
            meter,
            aims,
            react,
            used,
            aiming,
            later,
            intents,
            aim_scratch: _,
            spare_roles: _,
            spare_paid: _,
        } = source;
        self.rules = rules;
        self.cards = cards;
        self.state.clone_from(state);
        self.zones.clone_from(zones);
        self.zoned = *zoned;
        self.specs.clone_from(specs);
        self.seats = *seats;
        self.queue.clone_from(queue);
        self.next = *next;
        self.base.clone_from(base);
        self.entity_turns = *entity_turns;
        self.spare_roles.copy(&mut self.timed, timed);
        self.free_timed.clone_from(free_timed);
        self.turn_kind = *turn_kind;
        self.current = *current;
        self.turn = *turn;
        self.round = *round;
        self.phase = *phase;
        self.stopped_at = *stopped_at;
        self.play_again_pending = *play_again_pending;
        self.resume.clone_from(resume);
        self.simul.clone_from(simul);
        self.roles.clone_from(roles);
        self.role_count = *role_count;
        self.events.clone_from(events);
        self.each_roles.clone_from(each_roles);
        self.pause = *pause;
        self.actions_this_turn = *actions_this_turn;
        self.changed = *changed;
        self.dirty = *dirty;
        self.victory_masks.clone_from(victory_masks);
        self.code.clone_from(code);
        self.watched.clone_from(watched);
        self.score_draws = *score_draws;
        self.removals = *removals;
        self.removed.clone_from(removed);
        self.spare_paid.copy(&mut self.pending, pending);
        self.found.clone_from(found);
        self.order_keys.clone_from(order_keys);
        self.log = None;
        self.triggers.clone_from(triggers);
        self.meter.clone_from(meter);
        self.aims = *aims;
        self.react.clone_from(react);
        self.used.clone_from(used);
        self.aiming.clone_from(aiming);
        self.later.clone_from(later);
        self.intents.clone_from(intents);
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }

    /// For a game aborted, where the step ran out of its budget, as people
    /// read it: ``cards/g/bomb.edn:3:5, in card `Bomb` ``.
    pub fn stopped_at(&self) -> Option<String> {
        matches!(self.phase, Phase::Over(Outcome::Aborted(_)))
            .then(|| log::place_words(self.rules, self.cards, self.stopped_at))
    }
}

/// A game set up and dealt, not yet started ([`Game::dealt`]): its piles
/// given as a scenario gives them, a card made to be tried, then its state
/// taken. It cannot be played: no moment has run, no turn begun.
#[derive(Clone, Debug)]
pub struct Dealt<'r> {
    game: Game<'r>,
}

impl<'r> Dealt<'r> {
    /// Every attribute of every entity, the cards in their piles, the generator.
    pub fn state(&self) -> &State {
        &self.game.state
    }

    /// The state, taken.
    pub fn into_state(self) -> State {
        self.game.state
    }

    /// The entity each role means during `seat`'s turn.
    pub fn roles(&self, seat: EntityId) -> &[EntityId] {
        self.game.roles(seat)
    }

    /// The cards of `owner`'s pile of zone `zone`, bottom first: see [`Game::zone_cards`].
    pub fn zone_cards(
        &self,
        zone: crate::ids::ZoneId,
        owner: EntityId,
    ) -> Option<Vec<Option<CardId>>> {
        self.game.zone_cards(zone, owner)
    }

    /// Puts exactly `cards` in `owner`'s pile of zone `zone`, bottom first:
    /// see [`Game::set_zone_cards`].
    pub fn set_zone_cards(
        &mut self,
        zone: crate::ids::ZoneId,
        owner: EntityId,
        cards: &[Option<CardId>],
    ) -> Result<(), String> {
        self.game.set_zone_cards(zone, owner, cards)
    }

    /// With `:zones`, makes a new instance of `card` where `seat`'s play of
    /// it would put it while its effects run (its `:to` zone, else
    /// `:playing`), unlogged, bound as `:this-card`: what a card's effects
    /// tried alone act on. `None` without `:zones`, or when that pile is full.
    pub fn make_resolving(&mut self, card: CardId, seat: EntityId) -> Option<EntityId> {
        if !self.game.zoned {
            return None;
        }
        self.game.make_resolving(card, seat)
    }
}
