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

pub mod ai;
pub mod cards;
pub mod invariants;
pub mod log;
pub mod playout;

use crate::ast::StatusId;
use crate::ast::{AttrId, EntityId, OpId};
use crate::defs::Card;
use std::sync::Arc;

use crate::eval::{
    Cause, CompiledBool, CompiledEffects, CompiledInt, Event, Program, QueueRequest, State,
    StatusChange, What, apply, holds, with_bindings,
};
use crate::rules::turn_kinds::{MAX_TURNS_PER_ROUND, TurnKindId};
use crate::rules::{ActionDef, ActionId, KindId, Moment, RuleSet, TimingId};
pub use cards::CardId;
use cards::Zones;

/// The most actions one turn may hold: "play again" past it ends the turn, so a
/// deck of nothing but "play again" cards still reaches the turn limit.
pub const MAX_ACTIONS_PER_TURN: u32 = 100;

/// What an actor can use on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ability {
    /// Play the card at this hand position.
    Card(u16),
    /// Discard the card at this hand position (card zones).
    Discard(u16),
    /// Use this action of the rule set's `:actions`.
    Action(ActionId),
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
    /// The option it is used with, for an action with `:choose`: its number
    /// in [`RuleSet::options`] plus 1; 0 for none.
    pub choice: u16,
}

impl Action {
    /// The hand position this action names (none, past any hand, for an action of `:actions`).
    pub fn hand_position(self) -> usize {
        match self.ability {
            Ability::Card(i) | Ability::Discard(i) => usize::from(i),
            Ability::Action(_) => usize::MAX,
        }
    }
}

/// Where an action of `:actions` stands when it is logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Chosen and resolved at once.
    Done,
    /// Chosen; its effects wait for the next round's start (`:delayed-when`).
    Delayed,
    /// A delayed action resolves.
    Resolved,
    /// A delayed action is cancelled: its actor or target left play.
    Cancelled,
}

/// A delayed action waiting for its round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pending {
    action: Action,
    seat: EntityId,
    round: u32,
}

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
    /// Two seats met a victory condition at once.
    Tie,
    /// The turn limit (`:turns {:limit N}`) was reached.
    TurnLimit,
    /// Every seat was taken out of play: nobody is left to take a turn.
    NobodyLeft,
}

/// What changed an attribute during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The hook of a timing (Arcomage's `:turn-start`: production); which effect of it.
    Hook(TimingId, Cause),
    /// Paying for this card.
    Cost(CardId),
    /// Playing this card: the attribute `:cards :played` names takes its number.
    Played(CardId),
    /// This card's effects; which effect of it.
    Card(CardId, Cause),
    /// The `:on-removed` effects of an entity leaving play; which effect.
    Removal(Cause),
    /// An action's `:pay` or `:effects`; which effect.
    Action(ActionId, Cause),
    /// A status given before play ([`Game::give_status`]); which effect of it.
    Given(Cause),
    /// An entity's turn (its kind's `:on-turn`); which effect.
    EntityTurn(EntityId, Cause),
}

/// One attribute change of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The entity changed.
    pub entity: EntityId,
    /// The attribute changed.
    pub attr: AttrId,
    /// Its value before.
    pub before: i64,
    /// Its value after, within the attribute's bounds.
    pub after: i64,
}

/// One entry of a game's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// A turn begins.
    TurnStart {
        /// 1-based turn number.
        turn: u32,
        /// Whose turn.
        seat: EntityId,
        /// Its turn kind.
        kind: TurnKindId,
    },
    /// A card is played.
    Played {
        /// Who played it.
        seat: EntityId,
        /// Which card.
        card: CardId,
    },
    /// A card is discarded.
    Discarded {
        /// Who discarded it.
        seat: EntityId,
        /// Which card.
        card: CardId,
        /// True when a card's "discard 1" forced it.
        forced: bool,
    },
    /// An action of `:actions` was used.
    Acted {
        /// The seat whose turn it was when it was chosen.
        seat: EntityId,
        /// What, by whom, on whom.
        action: Action,
        /// Done at once, delayed, resolved or cancelled.
        stage: Stage,
    },
    /// The actor could do nothing and passed.
    Passed {
        /// Who passed.
        seat: EntityId,
    },
    /// An attribute changed.
    Changed {
        /// The change.
        change: Change,
        /// What made it.
        by: By,
    },
    /// A status was acquired, blocked, counted down or ended.
    Status {
        /// Whose status.
        entity: EntityId,
        /// Which.
        status: StatusId,
        /// What happened to it.
        change: StatusChange,
        /// Turns left (stacks, when stacked) before.
        before: i64,
        /// And after; −1 for a status that does not run out.
        after: i64,
        /// What made it.
        by: By,
    },
    /// One die of a roll: its face, and whether it counted.
    Die {
        /// Who rolled.
        entity: EntityId,
        /// Its face.
        face: i64,
        /// False when a keep (`kh`, `kl`) dropped it.
        kept: bool,
    },
    /// A roll is done; its dice are the [`GameEvent::Die`]s just before.
    Rolled {
        /// Who rolled.
        entity: EntityId,
        /// Faces of each die.
        sides: u16,
        /// Which dice counted.
        keep: crate::dice::KeepKind,
        /// Added to the dice kept.
        modifier: i64,
        /// The result.
        total: i64,
    },
    /// `[advantage …]` or `[disadvantage …]` kept one of two values.
    Kept {
        /// Who rolled.
        entity: EntityId,
        /// True when the higher was kept.
        higher: bool,
        /// The value kept.
        kept: i64,
        /// The other.
        other: i64,
    },
    /// An entity entered play (`{:spawn …}`).
    Spawned {
        /// Its number.
        entity: EntityId,
        /// Its kind.
        kind: KindId,
    },
    /// An entity left play: its kind's `:removed-when` held.
    Removed {
        /// Which.
        entity: EntityId,
    },
    /// An entity that is not a seat took its turn (its kind's `:on-turn`).
    EntityTurn {
        /// Which.
        entity: EntityId,
    },
    /// A timed queue entry came up and ran its timing.
    TimedRan {
        /// The timing.
        timing: TimingId,
        /// For whom.
        entity: EntityId,
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
}

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

/// One entry of the turn queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// This entity's turn, of this turn kind.
    Turn(EntityId, TurnKindId),
    /// A reorder: the round ends here and the base queue is spliced in at the
    /// front of what is left. The queue's end is one too.
    Reorder,
    /// A timed entry, by index in [`Game::timed`].
    Timed(u32),
}

/// What a timed queue entry runs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct TimedEntry {
    timing: TimingId,
    entity: EntityId,
    roles: Vec<EntityId>,
}

/// One entry of the turn queue as [`Game::queue_listing`] shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queued {
    /// An entity's turn, of a turn kind.
    Turn(EntityId, TurnKindId),
    /// A reorder.
    Reorder,
    /// A timed entry: the timing it runs, for whom.
    Timed(TimingId, EntityId),
}

/// The most entries a turn queue holds: what effects add past it is dropped,
/// so a rule set that adds turns every turn cannot grow it without end.
pub const MAX_QUEUE: usize = 10_000;

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

/// Bit `i` of a change mask; values past the 64th share the last bit.
fn bit(i: usize) -> u64 {
    1 << i.min(63)
}

/// Which of an action's effect lists to run.
#[derive(Clone, Copy)]
enum ActionList {
    /// `:pay`
    Pay,
    /// `:effects`
    Effects,
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
    /// Each action's conditions and effects, by [`ActionId`].
    actions: Box<[ActionCode]>,
}

/// One action of `:actions`, compiled.
#[derive(Debug)]
struct ActionCode {
    /// `:when`
    when: Option<CompiledBool>,
    /// Each `:refused-when` condition, in order.
    refused: Box<[CompiledBool]>,
    /// `:pay`
    pay: CompiledEffects,
    /// `:effects`
    effects: CompiledEffects,
}

impl ActionCode {
    fn new(rules: &RuleSet, def: &ActionDef) -> ActionCode {
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
                    let entity = (seat + r as usize) % seats;
                    m | bit(entity * width + a as usize)
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
    /// Every attribute of every entity, and the generator. Private: a value changed
    /// behind the engine's back would escape its victory checks ([`Game::set`]).
    state: State,
    /// Card zones; empty, with no hand ever filled, when the rule set has no `:cards`.
    zones: Zones,
    seats: usize,
    /// The turn queue; `next` is the next entry to run, those before it are done.
    queue: Vec<Entry>,
    next: usize,
    /// The base queue a reorder splices in: every entity's turns.
    base: Vec<Entry>,
    /// Whether entities other than seats take turns, or statuses add turns,
    /// so the base queue is built anew at every reorder.
    entity_turns: bool,
    /// What the timed entries queued this game run.
    timed: Vec<TimedEntry>,
    /// The turn kind of the turn being taken.
    pub turn_kind: TurnKindId,
    /// The entity whose turn it is.
    pub current: EntityId,
    /// The 1-based turn number.
    pub turn: u32,
    /// The 1-based round number.
    pub round: u32,
    /// Where the game is.
    pub phase: Phase,
    play_again_pending: bool,
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
    pub log: Option<Vec<GameEvent>>,
}

impl<'r> Game<'r> {
    /// Seats the players, deals if there are card zones, and starts turn 1.
    pub fn new(
        rules: &'r RuleSet,
        cards: &'r [Card],
        seed: u64,
        keep_log: bool,
    ) -> Result<Game<'r>, SetupError> {
        Self::starting_from(rules, cards, seed, keep_log, &[])
    }

    /// [`Game::new`], with `values` (entity, attribute, value) set over the
    /// setup before the game's start, so its `:game-start` timings and the
    /// first round's turn order see them (a scenario's `:start`).
    pub fn starting_from(
        rules: &'r RuleSet,
        cards: &'r [Card],
        seed: u64,
        keep_log: bool,
        values: &[(EntityId, AttrId, i64)],
    ) -> Result<Game<'r>, SetupError> {
        let seats = rules.seats.len();
        if seats == 0 {
            return Err(SetupError::NoSeats(rules.name.clone()));
        }
        if rules.cards.is_some() && cards.iter().all(|c| c.play.copies == 0) {
            return Err(SetupError::NoCards(rules.name.clone()));
        }
        let zones = Zones::new(rules, rules.cards.as_ref(), cards, seats);
        let role_count = rules.roles.len();
        let roles = (0..seats)
            .flat_map(|seat| (0..role_count).map(move |i| ((seat + i) % seats) as EntityId))
            .collect();
        let mut game = Game {
            rules,
            cards,
            state: State::new(rules, seats, seed),
            zones,
            seats,
            queue: Vec::with_capacity(seats + 1),
            next: 0,
            base: (0..seats as EntityId)
                .flat_map(|seat| {
                    rules.kind_turns[0]
                        .iter()
                        .map(move |&k| Entry::Turn(seat, k))
                })
                .collect(),
            entity_turns: rules.status_turns
                || rules.kind_turns.iter().skip(1).any(|t| !t.is_empty()),
            timed: Vec::new(),
            turn_kind: 0,
            current: 0,
            turn: 1,
            round: 1,
            phase: Phase::Act,
            play_again_pending: false,
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
                    s.leaves(&mut |leaf| draws |= leaf == crate::ast::Leaf::Draw);
                    draws
                }),
            removals: rules.removed_when.iter().any(Option::is_some) || rules.conditional_statuses,
            removed: Vec::new(),
            pending: Vec::new(),
            found: Vec::new(),
            order_keys: Vec::new(),
            log: keep_log.then(Vec::new),
        };
        game.state.add_setup(rules);
        for &(entity, attr, value) in values {
            if (entity as usize) < game.state.len() && (attr as usize) < rules.attributes.len() {
                game.state.put(entity, attr, value);
            }
        }
        game.begin();
        Ok(game)
    }

    /// Starts a new game on the same rules and cards, reusing every buffer.
    pub fn reset(&mut self, seed: u64) {
        self.state.reset(self.rules, self.seats, seed);
        self.state.add_setup(self.rules);
        self.current = 0;
        self.turn = 1;
        self.round = 1;
        self.phase = Phase::Act;
        self.play_again_pending = false;
        self.actions_this_turn = 0;
        self.changed = true;
        self.dirty = u64::MAX;
        self.pending.clear();
        self.queue.clear();
        self.next = 0;
        self.timed.clear();
        if let Some(log) = &mut self.log {
            log.clear();
        }
        self.begin();
    }

    /// Deals, runs the game's and the first round's start, and starts the first turn.
    fn begin(&mut self) {
        if self.rules.cards.is_some() {
            self.zones.deal(self.cards, &mut self.state.rng);
        }
        self.run_moment_for_seats(Moment::GameStart);
        // After the game's start, which may roll what the turn order sorts by.
        self.splice_base_queue();
        self.run_moment_for_seats(Moment::RoundStart);
        if matches!(self.phase, Phase::Over(_)) {
            return;
        }
        if let Some(first) = self.next_turn() {
            self.current = first;
            self.start_turn();
        }
    }

    /// A reorder's splice: the base queue goes in at the front of what is
    /// left of the queue (the entries done are dropped).
    fn splice_base_queue(&mut self) {
        if self.entity_turns {
            self.build_base_queue();
        }
        if !self.rules.turn_order.is_empty() {
            self.sort_base_queue();
        }
        if self.next >= self.queue.len() {
            self.queue.clear();
            self.queue.extend_from_slice(&self.base);
        } else {
            self.queue.drain(..self.next);
            self.queue.splice(0..0, self.base.iter().copied());
        }
        self.next = 0;
    }

    /// The base queue of every entity in play: its kind's `:turns`, in the order entities entered play.
    #[inline(never)]
    fn build_base_queue(&mut self) {
        self.base.clear();
        for entity in 0..self.state.len() as EntityId {
            if let Some(kind) = self.state.kind(entity)
                && let Some(turns) = self.rules.kind_turns.get(kind as usize)
            {
                self.base
                    .extend(turns.iter().map(|&k| Entry::Turn(entity, k)));
            }
        }
        if self.rules.status_turns {
            self.add_status_turns();
        }
    }

    /// Adds to the base queue the `:turns` of every active status, after its
    /// holder's other turns, up to [`MAX_TURNS_PER_ROUND`] an entity.
    #[cold]
    fn add_status_turns(&mut self) {
        for inst in self.state.statuses() {
            let def = &self.rules.status_defs[inst.status as usize];
            if def.turns.is_empty() || !self.state.is_live(inst.holder) {
                continue;
            }
            let holder = inst.holder;
            let has = self
                .base
                .iter()
                .filter(|e| matches!(e, Entry::Turn(h, _) if *h == holder))
                .count();
            let room = MAX_TURNS_PER_ROUND.saturating_sub(has);
            let at = self
                .base
                .iter()
                .rposition(|e| matches!(e, Entry::Turn(h, _) if *h <= holder))
                .map_or(0, |i| i + 1);
            let more = def.turns.iter().take(room).map(|&k| Entry::Turn(holder, k));
            self.base.splice(at..at, more);
        }
    }

    /// Sorts the base queue's turns by the rule set's `:turns :order` keys,
    /// highest first; ties keep seat order.
    #[inline(never)]
    fn sort_base_queue(&mut self) {
        let keys = &self.rules.turn_order;
        let width = keys.len();
        let mut ranked = std::mem::take(&mut self.order_keys);
        ranked.clear();
        for entity in 0..self.state.len() as EntityId {
            for key in keys {
                ranked.push(match self.state.kind(entity) {
                    Some(_) => crate::eval::value(key, &mut self.state, &[entity]),
                    None => 0,
                });
            }
        }
        let row = |e: EntityId| &ranked[e as usize * width..][..width];
        // A stable sort: an entity's turns keep their order, ties keep entity order.
        self.base.sort_by(|a, b| match (a, b) {
            (Entry::Turn(a, _), Entry::Turn(b, _)) => row(*b).cmp(row(*a)).then(a.cmp(b)),
            _ => std::cmp::Ordering::Equal,
        });
        self.order_keys = ranked;
    }

    /// The next entity to take a turn, running round ends and starts on the way;
    /// `None` if one of those ended the game.
    #[inline]
    fn next_turn(&mut self) -> Option<EntityId> {
        // The common case: the next entry is the turn of a seat in play.
        if let Some(&Entry::Turn(entity, kind)) = self.queue.get(self.next)
            && (entity as usize) < self.seats
            && self.state.is_live(entity)
        {
            self.next += 1;
            self.turn_kind = kind;
            return Some(entity);
        }
        self.next_turn_slow()
    }

    #[inline(never)]
    fn next_turn_slow(&mut self) -> Option<EntityId> {
        // Two reorders without a seat's turn between them: nobody is left.
        let mut empty_rounds = 0;
        loop {
            if matches!(self.phase, Phase::Over(_)) {
                return None;
            }
            let entry = self.queue.get(self.next).copied();
            self.next += 1;
            match entry {
                Some(Entry::Turn(entity, kind)) if self.state.is_live(entity) => {
                    if (entity as usize) < self.seats {
                        self.turn_kind = kind;
                        return Some(entity);
                    }
                    self.entity_turn(entity);
                }
                Some(Entry::Turn(..)) => {}
                Some(Entry::Timed(i)) => self.run_timed(i as usize),
                Some(Entry::Reorder) | None => {
                    empty_rounds += 1;
                    if empty_rounds > 1 {
                        self.finish(Outcome::NobodyLeft);
                        return None;
                    }
                    self.run_moment_for_seats(Moment::RoundEnd);
                    if matches!(self.phase, Phase::Over(_)) {
                        return None;
                    }
                    self.round += 1;
                    self.splice_base_queue();
                    self.resolve_pending();
                    if matches!(self.phase, Phase::Over(_)) {
                        return None;
                    }
                    self.run_moment_for_seats(Moment::RoundStart);
                }
            }
        }
    }

    /// An entity that is not a seat takes its turn: its kind's `:on-turn`
    /// effects, with the first seat's roles and `:self` bound to it. No choice.
    #[cold]
    fn entity_turn(&mut self, entity: EntityId) {
        let rules = self.rules;
        let Some(kind) = self.state.kind(entity) else {
            return;
        };
        self.record(GameEvent::EntityTurn { entity });
        let mut roles = std::mem::take(&mut self.each_roles);
        roles.clear();
        roles.extend_from_slice(self.seat_roles(0));
        roles.push(entity);
        let effects = &rules.on_turn[kind as usize];
        apply(rules, effects, &mut self.state, &roles, &mut self.events);
        self.each_roles = roles;
        self.flush_events(|cause| By::EntityTurn(entity, cause));
        self.check_victory();
    }

    /// A timed entry comes up: its timing runs for its entity, with the roles
    /// bound where it was queued.
    #[cold]
    fn run_timed(&mut self, i: usize) {
        let Some(t) = self.timed.get(i) else {
            return;
        };
        let (timing, entity) = (t.timing, t.entity);
        let roles = std::mem::take(&mut self.timed[i].roles);
        self.record(GameEvent::TimedRan { timing, entity });
        if self.state.is_live(entity) {
            let n = self.rules.roles.len().min(roles.len());
            self.code.program.run_timing(
                self.rules,
                &mut self.state,
                timing,
                &roles[..n],
                entity,
                &mut self.events,
            );
            self.flush_events(|cause| By::Hook(timing, cause));
            self.check_victory();
        }
    }

    /// Makes the changes to the queue that effects asked for: extra turns at
    /// the front, in the order asked; timed entries right after the reorder
    /// they wait for, reorders added at the end until there are enough.
    #[cold]
    #[inline(never)]
    fn take_queued(&mut self) {
        let mut requests = std::mem::take(&mut self.state.queued);
        let mut at = self.next.min(self.queue.len());
        for request in requests.drain(..) {
            match request {
                QueueRequest::Turns {
                    entity,
                    kind,
                    count,
                } => {
                    let room = MAX_QUEUE.saturating_sub(self.queue.len());
                    let n = (count as usize).min(room);
                    self.queue
                        .splice(at..at, std::iter::repeat_n(Entry::Turn(entity, kind), n));
                    at += n;
                }
                QueueRequest::Timed {
                    timing,
                    entity,
                    after,
                    roles,
                } => {
                    if self.queue.len() + after as usize >= MAX_QUEUE {
                        continue;
                    }
                    let mut seen = 0;
                    let mut pos = self.next.min(self.queue.len());
                    if after > 0 {
                        while pos < self.queue.len() && seen < after {
                            if self.queue[pos] == Entry::Reorder {
                                seen += 1;
                            }
                            pos += 1;
                        }
                        for _ in seen..after {
                            self.queue.push(Entry::Reorder);
                        }
                        if seen < after {
                            pos = self.queue.len();
                        }
                    }
                    self.queue
                        .insert(pos, Entry::Timed(self.timed.len() as u32));
                    self.timed.push(TimedEntry {
                        timing,
                        entity,
                        roles,
                    });
                }
            }
        }
        self.state.queued = requests;
    }

    /// The turn queue as a player would read it: the turn being taken (if
    /// one is), then the entries not yet begun. Reorders and timed entries
    /// show; turns of entities out of play do not.
    pub fn queue_listing(&self) -> Vec<Queued> {
        let mut out = Vec::new();
        if self.phase == Phase::Act || matches!(self.phase, Phase::MustDiscard(_)) {
            out.push(Queued::Turn(self.current, self.turn_kind));
        }
        for entry in &self.queue[self.next.min(self.queue.len())..] {
            match *entry {
                Entry::Turn(e, k) if self.state.is_live(e) => out.push(Queued::Turn(e, k)),
                Entry::Turn(..) => {}
                Entry::Reorder => out.push(Queued::Reorder),
                Entry::Timed(i) => {
                    if let Some(t) = self.timed.get(i as usize) {
                        out.push(Queued::Timed(t.timing, t.entity));
                    }
                }
            }
        }
        out
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
        self.zones.hand(self.current)
    }

    /// The hand of `seat`, whoever's turn it is (empty without card zones):
    /// what a table shows its owner, and what a computer player never reads
    /// for any seat but its own.
    pub fn hand_of(&self, seat: EntityId) -> &[CardId] {
        self.zones.hand(seat)
    }

    /// The entity each role means for `seat`.
    pub fn roles(&self, seat: EntityId) -> &[EntityId] {
        self.seat_roles(seat as usize)
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

    /// Whether doing `action` now draws from the generator: a chancy card, or
    /// an action whose effects roll. A discard never does.
    pub fn draws(&self, action: Action) -> bool {
        match action.ability {
            Ability::Card(i) => self
                .hand()
                .get(usize::from(i))
                .is_some_and(|&c| self.chancy(c)),
            Ability::Discard(_) => false,
            Ability::Action(id) => self
                .rules
                .actions
                .get(usize::from(id))
                .is_some_and(|a| a.draws),
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

    fn action(&self, ability: Ability) -> Action {
        Action {
            ability,
            actor: self.current,
            target: None,
            choice: 0,
        }
    }

    /// Using action `id` of `:actions`, by `actor`, on `target`.
    pub fn use_action(&self, id: ActionId, actor: EntityId, target: Option<EntityId>) -> Action {
        Action {
            ability: Ability::Action(id),
            actor,
            target,
            choice: 0,
        }
    }

    /// Is `action` allowed now? The cheap test; [`Game::check`] says why not.
    #[inline]
    pub fn allowed(&mut self, action: Action) -> bool {
        if let Ability::Action(id) = action.ability {
            return self.phase == Phase::Act
                && self.action_verdict(id, action) == Some(Verdict::Allowed);
        }
        if action.actor != self.current || action.target.is_some() {
            return false;
        }
        let Some(&card) = self.hand().get(action.hand_position()) else {
            return false;
        };
        match (self.phase, action.ability) {
            (Phase::Over(_) | Phase::BetweenTurns, _)
            | (Phase::MustDiscard(_), Ability::Card(_) | Ability::Action(_)) => false,
            (_, Ability::Discard(_)) => self.cards[card as usize].play.discardable,
            (Phase::Act, Ability::Card(_) | Ability::Action(_)) => self.affordable(card),
        }
    }

    /// What action `id`'s conditions say for `action`'s actor and target, if
    /// they are in play and of its kinds (`None` otherwise).
    fn action_verdict(&mut self, id: ActionId, action: Action) -> Option<Verdict> {
        let def = self.rules.actions.get(usize::from(id))?;
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
        if !self.rules.turn_kinds[usize::from(self.turn_kind)].allows(def.type_) {
            return Some(Verdict::WrongTurn);
        }
        let seat = self.current as usize;
        let roles = &self.roles[seat * self.role_count..][..self.role_count];
        let code = &self.code.actions[usize::from(id)];
        Some(verdict(code, &mut self.state, roles, action))
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
        if let Ability::Action(id) = action.ability {
            return Err(self.action_refusal(id, action));
        }
        if action.actor != self.current {
            return Err(Illegal::NotYourTurn(action.actor));
        }
        if action.target.is_some() {
            return Err(Illegal::NoTarget);
        }
        let i = action.hand_position();
        let Some(&card) = self.hand().get(i) else {
            return Err(Illegal::NoSuchCard(i));
        };
        let def = &self.cards[card as usize];
        match (self.phase, action.ability) {
            (Phase::MustDiscard(_), _) => Err(Illegal::MustDiscard),
            (_, Ability::Discard(_)) => Err(Illegal::Undiscardable(def.name.clone())),
            _ => {
                let attr = def.play.pay_with.unwrap_or(0);
                Err(Illegal::CannotAfford {
                    name: def.name.clone(),
                    cost: def.play.cost,
                    resource: self.rules.attributes[attr as usize].clone(),
                    have: self.state.get(self.current, attr),
                })
            }
        }
    }

    /// Why action `id` is not allowed for `action`'s actor and target.
    #[cold]
    fn action_refusal(&mut self, id: ActionId, action: Action) -> Illegal {
        let rules = self.rules;
        let Some(def) = rules.actions.get(usize::from(id)) else {
            return Illegal::NoSuchAction(usize::from(id));
        };
        let names = rules.game_entity_names();
        let name = |e: EntityId| {
            names
                .get(e as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{e}"))
        };
        let kind = |k: KindId| rules.kinds.get(usize::from(k)).map_or("?", String::as_str);
        if !self.state.is_live(action.actor) {
            return Illegal::NotAllowed(format!("{} is not in play", name(action.actor)));
        }
        if self.state.kind(action.actor) != Some(def.actor) {
            return Illegal::NotAllowed(format!(
                "{} is used by a {}; {} is not one",
                def.name,
                kind(def.actor),
                name(action.actor)
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
                    name(t)
                ));
            }
            _ => {}
        }
        if !chosen_well(rules, def, action.choice) {
            return Illegal::NotAllowed(
                match def.choose.and_then(|c| rules.choices.get(usize::from(c))) {
                    Some(set) => format!(
                        "{} is used with one {}: {}",
                        def.name,
                        set.name,
                        crate::check::list(
                            rules.options[usize::from(set.first)..][..usize::from(set.len)]
                                .iter()
                                .map(|o| format!("`:{o}`"))
                        )
                    ),
                    None => format!("{} takes no option", def.name),
                },
            );
        }
        match self.action_verdict(id, action) {
            Some(Verdict::Refused(i)) => Illegal::Refused(def.refused[i].1.clone()),
            Some(Verdict::WrongTurn) => {
                let turn = &rules.turn_kinds[usize::from(self.turn_kind)];
                let allowed = rules
                    .turn_kinds
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| turn.allows(i as TurnKindId))
                    .map(|(_, k)| k.name.clone());
                Illegal::Refused(format!(
                    "a {} turn allows only {} actions; {} is a {} action",
                    turn.name,
                    crate::check::list(allowed),
                    def.name,
                    rules.turn_kinds[usize::from(def.type_)].name
                ))
            }
            _ => Illegal::NotAllowed(match action.target {
                Some(t) => format!("{} cannot {} {} now", name(action.actor), def.name, name(t)),
                None => format!("{} cannot {} now", name(action.actor), def.name),
            }),
        }
    }

    /// Every allowed action: card plays in hand order, then discards, then the
    /// rule set's actions in declaration order, actors and targets in the order
    /// they entered play.
    pub fn legal(&mut self, out: &mut Vec<Action>) {
        out.clear();
        let n = self.hand().len();
        for i in 0..n {
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
        self.actions_allowed(out, usize::MAX);
    }

    /// Pushes to `out` the allowed actions of `:actions`, at most `limit` of them.
    fn actions_allowed(&mut self, out: &mut Vec<Action>, limit: usize) {
        let rules = self.rules;
        if rules.actions.is_empty() || self.phase != Phase::Act {
            return;
        }
        let seat = self.current as usize;
        let roles = &self.roles[seat * self.role_count..][..self.role_count];
        let count = self.state.len() as EntityId;
        let mut found = 0;
        for (id, (def, code)) in rules.actions.iter().zip(&self.code.actions).enumerate() {
            for actor in 0..count {
                if self.state.kind(actor) != Some(def.actor) {
                    continue;
                }
                // One action for each option of its `:choose`, or one with none.
                let options = def
                    .choose
                    .and_then(|c| rules.choices.get(usize::from(c)))
                    .map_or(0..1, |set| set.first + 1..set.first + 1 + set.len);
                let mut try_one = |target: Option<EntityId>, state: &mut State| {
                    for choice in options.clone() {
                        let action = Action {
                            ability: Ability::Action(id as ActionId),
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
                        for target in 0..count {
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

    fn record(&mut self, e: GameEvent) {
        if let Some(log) = &mut self.log {
            log.push(e);
        }
    }

    /// Notes the evaluator's events for victory checks and the log, each made
    /// `by`; then takes out of play whatever fell, running their kinds' `:on-removed`.
    fn flush_events(&mut self, by: impl Fn(Cause) -> By) {
        self.note_events(&by);
        if !self.state.queued.is_empty() {
            self.take_queued();
        }
        if self.removals {
            let seat = self.current as usize;
            let roles = &self.roles[seat * self.role_count..(seat + 1) * self.role_count];
            self.state
                .remove_fallen(self.rules, roles, &mut self.removed, &mut self.events);
            for entity in std::mem::take(&mut self.removed) {
                self.record(GameEvent::Removed { entity });
                self.changed = true;
                self.dirty = u64::MAX;
            }
            if !self.events.is_empty() {
                self.note_events(&By::Removal);
            }
        }
    }

    /// Notes the evaluator's events for victory checks and the log, each made `by`.
    fn note_events(&mut self, by: &impl Fn(Cause) -> By) {
        let width = self.rules.attributes.len();
        for e in &self.events {
            match e.what {
                // Only values some victory condition reads can end the game.
                What::Attr(attr) => {
                    if self.watched[attr as usize] {
                        self.changed = true;
                        self.dirty |= bit(e.entity as usize * width + attr as usize);
                    }
                }
                // A condition may read statuses or entities: every one is checked again.
                What::Status(..) | What::Spawned(_) => {
                    self.changed = true;
                    self.dirty = u64::MAX;
                }
                // A roll changes nothing by itself.
                What::Die(_) | What::Rolled(..) | What::Kept(_) => {}
            }
        }
        if let Some(log) = &mut self.log {
            log.extend(self.events.iter().map(|e| match e.what {
                What::Attr(attr) => GameEvent::Changed {
                    change: Change {
                        entity: e.entity,
                        attr,
                        before: e.before,
                        after: e.after,
                    },
                    by: by(e.cause),
                },
                What::Spawned(kind) => GameEvent::Spawned {
                    entity: e.entity,
                    kind,
                },
                What::Die(_) => GameEvent::Die {
                    entity: e.entity,
                    face: e.after,
                    kept: e.before == 1,
                },
                What::Rolled(sides, keep) => GameEvent::Rolled {
                    entity: e.entity,
                    sides,
                    keep,
                    modifier: e.before,
                    total: e.after,
                },
                What::Kept(higher) => GameEvent::Kept {
                    entity: e.entity,
                    higher,
                    kept: e.after,
                    other: e.before,
                },
                What::Status(status, change) => GameEvent::Status {
                    entity: e.entity,
                    status,
                    change,
                    before: e.before,
                    after: e.after,
                    by: by(e.cause),
                },
            }));
        }
        self.events.clear();
    }

    /// Starts the turn of `current`, passing for as long as nobody can act.
    fn start_turn(&mut self) {
        if !self.begin_turn() {
            self.end_turn();
        }
    }

    /// The turn's start: its hooks, a victory check. False if the game went on
    /// and the actor could do nothing (they pass; the caller ends the turn).
    fn begin_turn(&mut self) -> bool {
        let seat = self.current;
        // Dice rolled outside effects (an action's condition, the AI's trials) are not logged.
        self.state.forget_rolls();
        self.record(GameEvent::TurnStart {
            turn: self.turn,
            seat,
            kind: self.turn_kind,
        });
        self.run_moment(Moment::TurnStart, seat);
        if self.phase == Phase::Act && !self.has_action() {
            self.record(GameEvent::Passed { seat });
            return false;
        }
        true
    }

    /// Runs the hooks of every timing attached to `moment`, with roles bound as on
    /// `seat`'s turn, checking victory after each. A timing with `:each` runs once
    /// per entity of its kind, so when a moment runs for every seat it runs only
    /// with the first (`skip_each` for the others).
    #[inline]
    fn run_moment(&mut self, moment: Moment, seat: EntityId) {
        if self.rules.hooks_at(moment).is_empty() {
            // Nothing to run (Arcomage's turn end): only the victory check.
            if self.changed && !matches!(self.phase, Phase::Over(_)) {
                self.check_victory();
            }
            return;
        }
        self.run_moment_as(moment, seat);
    }

    /// The entity each role means during `seat`'s turn.
    #[inline]
    fn seat_roles(&self, seat: usize) -> &[EntityId] {
        &self.roles[seat * self.role_count..(seat + 1) * self.role_count]
    }

    fn run_moment_as(&mut self, moment: Moment, seat: EntityId) {
        for &(timing, each) in self.rules.hooks_at(moment) {
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            self.run_timing_as(timing, each, seat);
        }
        self.judge_moment();
    }

    /// A moment is where victory is judged, hooks or not: a given state, or a
    /// condition that reads no value, is decided here.
    fn judge_moment(&mut self) {
        if self.changed && !matches!(self.phase, Phase::Over(_)) {
            self.check_victory();
        }
    }

    /// Runs one timing's hook with the roles of `seat`'s turn: once, or once
    /// for each entity of the kind its `:each` names.
    fn run_timing_as(&mut self, timing: TimingId, each: Option<KindId>, seat: EntityId) {
        let rules = self.rules;
        match each {
            None => {
                let roles = &self.roles[seat as usize * self.role_count..][..self.role_count];
                let program = &self.code.program;
                if let Some(effects) = program.hook(timing) {
                    program.apply_inline(rules, effects, &mut self.state, roles, &mut self.events);
                }
                self.flush_events(|cause| By::Hook(timing, cause));
                self.check_victory();
                self.run_statuses(timing, seat, seat);
            }
            Some(kind) => self.run_for_each(timing, kind, seat),
        }
    }

    /// Runs `timing`'s hook once for each entity of `kind` in play, in the order
    /// they were added, with the seat roles of `seat` and `:self` bound to it.
    fn run_for_each(&mut self, timing: TimingId, kind: KindId, seat: EntityId) {
        let rules = self.rules;
        let mut roles = std::mem::take(&mut self.each_roles);
        let mut entity = 0;
        // Entities spawned meanwhile wait for the timing's next run, as with `:each` effects.
        let count = self.state.len();
        while (entity as usize) < count {
            if self.state.kind(entity) == Some(kind) {
                roles.clear();
                roles.extend_from_slice(self.seat_roles(seat as usize));
                roles.push(entity);
                let program = &self.code.program;
                if let Some(effects) = program.hook(timing) {
                    program.apply_inline(rules, effects, &mut self.state, &roles, &mut self.events);
                }
                self.flush_events(|cause| By::Hook(timing, cause));
                self.check_victory();
                self.each_roles = roles;
                self.run_statuses(timing, seat, entity);
                roles = std::mem::take(&mut self.each_roles);
                if matches!(self.phase, Phase::Over(_)) {
                    break;
                }
            }
            entity += 1;
        }
        self.each_roles = roles;
    }

    /// Runs `timing` for the statuses `holder` holds (their hooks there, their
    /// countdowns), with the roles of `seat`'s turn; then checks victory.
    fn run_statuses(&mut self, timing: TimingId, seat: EntityId, holder: EntityId) {
        if self.state.statuses().is_empty() || matches!(self.phase, Phase::Over(_)) {
            return;
        }
        let roles = &self.roles[seat as usize * self.role_count..][..self.role_count];
        self.code.program.run_status_timing(
            self.rules,
            &mut self.state,
            timing,
            Some(holder),
            roles,
            &mut self.events,
        );
        self.flush_events(|cause| By::Hook(timing, cause));
        self.check_victory();
    }

    /// Runs `moment` for the seats: each of its timings in declaration order,
    /// and each timing once for each seat in play, in seat order (an `:each`
    /// timing once in all, with the roles of the first seat in play), so that
    /// every seat has rolled initiative before any tie is looked at.
    fn run_moment_for_seats(&mut self, moment: Moment) {
        let rules = self.rules;
        if rules.hooks_at(moment).is_empty() {
            return;
        }
        for &(timing, each) in rules.hooks_at(moment) {
            for seat in 0..self.seats as EntityId {
                if matches!(self.phase, Phase::Over(_)) {
                    return;
                }
                // A seat out of play gets no hooks.
                if self.state.is_live(seat) {
                    self.run_timing_as(timing, each, seat);
                    if each.is_some() {
                        break;
                    }
                }
            }
        }
        self.judge_moment();
    }

    /// Whether the entity whose turn it is may do anything: the test of
    /// [`Game::allowed`] over its hand, without building each action; then
    /// over the rule set's actions, stopping at the first allowed.
    fn has_action(&mut self) -> bool {
        let zones = &self.zones;
        let discardable = |c: CardId| self.cards[c as usize].play.discardable;
        let hand = zones.hand(self.current);
        let cards = match self.phase {
            Phase::Act => hand
                .iter()
                .any(|&c| discardable(c) || zones.affordable(&self.state, self.current, c)),
            Phase::MustDiscard(_) => hand.iter().any(|&c| discardable(c)),
            Phase::BetweenTurns | Phase::Over(_) => false,
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

    /// Uses action `id` of `:actions`: logs it, runs its `:pay`, then its
    /// `:effects` now or, when its `:delayed-when` holds, at the next round's
    /// start; the turn goes on while the seat can still act.
    fn act_action(&mut self, id: ActionId, action: Action) {
        let rules = self.rules;
        let def = &rules.actions[usize::from(id)];
        let seat = self.current;
        let delayed = def.delayed_when.as_ref().is_some_and(|c| {
            let roles = &self.roles[seat as usize * self.role_count..][..self.role_count];
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
        self.run_action(ActionList::Pay, id, seat, action);
        if delayed {
            self.pending.push(Pending {
                action,
                seat,
                round: self.round + 1,
            });
        } else {
            self.run_action(ActionList::Effects, id, seat, action);
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
    /// and `:actor`, `:target` bound; then checks victory.
    fn run_action(&mut self, list: ActionList, id: ActionId, seat: EntityId, action: Action) {
        let def = &self.rules.actions[usize::from(id)];
        let compiled = &self.code.actions[usize::from(id)];
        let (source, code) = match list {
            ActionList::Pay => (&def.pay, &compiled.pay),
            ActionList::Effects => (&def.effects, &compiled.effects),
        };
        if source.is_empty() {
            return;
        }
        let roles = &self.roles[seat as usize * self.role_count..][..self.role_count];
        let (rules, program, events) = (self.rules, &self.code.program, &mut self.events);
        bind_action(&mut self.state, roles, action, |state, r| {
            program.apply_inline(rules, code, state, r, events)
        });
        self.flush_events(|cause| By::Action(id, cause));
        self.check_victory();
    }

    /// Resolves the delayed actions whose round has come, in the order they
    /// were chosen: each one whose actor and target are still in play runs its
    /// effects; the others are cancelled.
    fn resolve_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        let round = self.round;
        let mut waiting = 0;
        for i in 0..pending.len() {
            let p = pending[i];
            if p.round > round || matches!(self.phase, Phase::Over(_)) {
                pending[waiting] = p;
                waiting += 1;
                continue;
            }
            let Ability::Action(id) = p.action.ability else {
                continue;
            };
            let live = self.state.is_live(p.action.actor)
                && p.action.target.is_none_or(|t| self.state.is_live(t));
            let stage = if live {
                Stage::Resolved
            } else {
                Stage::Cancelled
            };
            self.record(GameEvent::Acted {
                seat: p.seat,
                action: p.action,
                stage,
            });
            if live {
                self.run_action(ActionList::Effects, id, p.seat, p.action);
            }
        }
        pending.truncate(waiting);
        self.pending = pending;
    }

    /// Ends the current turn and starts the next; a loop, not recursion, so turns
    /// where nobody can act cannot exhaust the stack.
    fn end_turn(&mut self) {
        loop {
            self.run_moment(Moment::TurnEnd, self.current);
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            if self.turn >= self.rules.turn_limit {
                self.finish(Outcome::TurnLimit);
                return;
            }
            if self.pause {
                // Stop before the next turn is chosen, so that round moments run on resuming.
                self.phase = Phase::BetweenTurns;
                return;
            }
            if !self.advance() {
                return;
            }
            self.phase = Phase::Act;
            if self.begin_turn() {
                return;
            }
        }
    }

    /// Moves to the next turn in the queue; false if the game ended on the way.
    #[inline]
    fn advance(&mut self) -> bool {
        let Some(next) = self.next_turn() else {
            return false;
        };
        self.current = next;
        self.turn += 1;
        self.actions_this_turn = 0;
        true
    }

    /// Who takes the next turn: the entity whose turn it is, or, between turns,
    /// the next in the queue (round moments not yet run).
    pub fn next_actor(&self) -> EntityId {
        if self.phase != Phase::BetweenTurns {
            return self.current;
        }
        let live = |e: &&Entry| matches!(e, Entry::Turn(x, _) if (*x as usize) < self.seats && self.state.is_live(*x));
        let turn = |e: &Entry| match *e {
            Entry::Turn(x, _) => x,
            Entry::Reorder | Entry::Timed(_) => self.current,
        };
        self.queue[self.next.min(self.queue.len())..]
            .iter()
            .chain(&self.base)
            .find(live)
            .map_or(self.current, turn)
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
        let mut winner: Option<EntityId> = None;
        let mut reason = 0;
        let mut tie = false;
        let state = &mut self.state;
        // Seat after seat, condition after condition; one flat list of masks,
        // so a condition that reads nothing that changed costs one test.
        for (k, &mask) in self.victory_masks.iter().enumerate() {
            // A condition that was false and reads nothing that changed is still false.
            if dirty & mask == 0 {
                continue;
            }
            let (seat, i) = (k / conditions, k % conditions);
            // A seat out of play can no longer win.
            if !state.is_live(seat as EntityId) {
                continue;
            }
            let roles = &self.roles[seat * self.role_count..][..self.role_count];
            if self.code.victory[i].holds(state, roles) {
                let w = roles[self.rules.victory[i].winner as usize];
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
        match (winner, tie) {
            (_, true) => self.finish(Outcome::Tie),
            (Some(seat), false) => self.finish(Outcome::Win { seat, reason }),
            // Every seat fell at once (two fighters killing each other): a
            // draw now, not after rounds with nobody to take a turn.
            (None, false) if (0..self.seats).all(|s| !self.state.is_live(s as EntityId)) => {
                self.finish(Outcome::NobodyLeft)
            }
            (None, false) => {}
        }
    }

    /// Does `action` for the entity whose turn it is.
    pub fn act(&mut self, action: Action) -> Result<(), Illegal> {
        if !self.allowed(action) {
            return self.check(action);
        }
        if let Ability::Action(id) = action.ability {
            self.act_action(id, action);
            return Ok(());
        }
        let seat = self.current;
        let s = seat as usize;
        let i = action.hand_position();
        let rules = self.rules;
        let zones = &mut self.zones;
        match action.ability {
            Ability::Card(_) => {
                let card = zones.hands[s].remove(i);
                let def = &self.cards[card as usize];
                self.record(GameEvent::Played { seat, card });
                cards::pay(rules, &mut self.state, seat, def, &mut self.events);
                if !self.events.is_empty() {
                    self.flush_events(|_| By::Cost(card));
                }
                if let Some(attr) = rules.cards.as_ref().and_then(|z| z.played) {
                    cards::record_play(rules, &mut self.state, seat, attr, card, &mut self.events);
                    self.flush_events(|_| By::Played(card));
                }
                let code = &self.code;
                code.program.apply_inline(
                    rules,
                    &code.cards[card as usize],
                    &mut self.state,
                    &self.roles[s * self.role_count..][..self.role_count],
                    &mut self.events,
                );
                self.flush_events(|cause| By::Card(card, cause));
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
                            .filter(|&&c| self.cards[c as usize].play.discardable)
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
            Ability::Action(_) => {}
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
            if self.advance() {
                self.start_turn();
            }
        }
    }

    /// Puts `card` into the hand of the entity whose turn it is: for scenarios.
    /// Does nothing without card zones.
    pub fn give(&mut self, card: CardId) {
        if self.rules.cards.is_some() {
            self.zones.hands[self.current as usize].push(card);
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
        let seat = self.current as usize;
        let roles = &self.roles[seat * self.role_count..][..self.role_count];
        crate::eval::acquire(
            self.rules,
            &mut self.state,
            roles,
            entity,
            self.current,
            status,
            magnitude,
            &mut self.events,
        );
        self.flush_events(By::Given);
        self.recheck();
    }

    /// Takes an entity out of play: its turns still queued are skipped.
    pub fn remove_entity(&mut self, entity: EntityId) {
        self.state.remove(entity);
    }

    /// Checks every victory condition now, as after any change.
    pub fn recheck(&mut self) {
        if !matches!(self.phase, Phase::Over(_)) {
            self.check_victory();
        }
    }

    /// Removes the card at `at` from the current hand: undoes [`Game::give`] in scenarios.
    pub fn take_back(&mut self, at: usize) -> Option<CardId> {
        let hand = &mut self.zones.hands[self.current as usize];
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

impl Game<'_> {
    /// What `action` of `:actions` would do to `state` (a copy of the game's):
    /// its `:pay`, and its `:effects` unless it would be delayed; then who
    /// would leave play. For the greedy AI's lookahead.
    pub(crate) fn try_action(
        &self,
        state: &mut State,
        action: Action,
        events: &mut Vec<Event>,
        removed: &mut Vec<EntityId>,
    ) {
        let Ability::Action(id) = action.ability else {
            return;
        };
        let Some(def) = self.rules.actions.get(usize::from(id)) else {
            return;
        };
        let roles = self.seat_roles(self.current as usize);
        let (program, code) = (&self.code.program, &self.code.actions[usize::from(id)]);
        bind_action(state, roles, action, |state, r| {
            program.apply_inline(self.rules, &code.pay, state, r, events);
            let delayed = def
                .delayed_when
                .as_ref()
                .is_some_and(|c| holds(c, state, r));
            if !delayed {
                program.apply_inline(self.rules, &code.effects, state, r, events);
            }
        });
        state.remove_fallen(self.rules, roles, removed, events);
    }
}

/// Whether `choice` is one of the options of `def`'s `:choose` (0, without one).
fn chosen_well(rules: &RuleSet, def: &ActionDef, choice: u16) -> bool {
    match def.choose.and_then(|c| rules.choices.get(usize::from(c))) {
        Some(set) => choice > set.first && choice <= set.first + set.len,
        None => choice == 0,
    }
}

/// Whether action `def` is allowed for `action`'s actor and target, with the
/// seat roles `roles` bound around them.
fn verdict(code: &ActionCode, state: &mut State, roles: &[EntityId], action: Action) -> Verdict {
    bind_action(state, roles, action, |state, r| {
        if code.when.as_ref().is_some_and(|c| !c.holds(state, r)) {
            return Verdict::NotNow;
        }
        match code.refused.iter().position(|c| c.holds(state, r)) {
            Some(i) => Verdict::Refused(i),
            None => Verdict::Allowed,
        }
    })
}

/// Runs `f` with `roles`, then `:actor` and (if the action has one) `:target` bound.
fn bind_action<R>(
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
    state.choice = 0;
    out
}

/// Runs `timing` once outside a game, as the turn machine runs it on `seat`'s
/// turn: its hook (once for each entity of its `:each` kind, with `:self`
/// bound), then the hooks and countdowns of the statuses of the entity it runs
/// for. For tools (`eval --then`); victory is not judged.
pub fn run_timing(
    rules: &RuleSet,
    state: &mut State,
    timing: TimingId,
    seat: EntityId,
    events: &mut Vec<Event>,
) {
    with_roles_outside(rules, seat, |roles| {
        crate::eval::run_timing(rules, state, timing, roles, seat, events);
    })
}

/// Runs `f` with the entity each role means on `seat`'s turn outside a game:
/// the seats in turn from `seat` on, as the turn machine binds them. For tools.
fn with_roles_outside<R>(rules: &RuleSet, seat: EntityId, f: impl FnOnce(&[EntityId]) -> R) -> R {
    let n = rules.roles.len();
    let seats = rules.seats.len().max(n).max(1);
    with_bindings(&[], n, |roles| {
        for (i, r) in roles.iter_mut().enumerate() {
            *r = ((seat as usize + i) % seats) as EntityId;
        }
        f(roles)
    })
}

/// Runs every timing of `moment` outside a game, in the turn machine's order:
/// a turn moment as on the first seat's turn; a round or game moment once for
/// each seat in play, in seat order, its timings with `:each` with the first
/// only. Entities whose kind's `:removed-when` holds leave play after each
/// timing (pushed to `removed`). For tools (`eval --then`).
pub fn run_moment(
    rules: &RuleSet,
    state: &mut State,
    moment: Moment,
    events: &mut Vec<Event>,
    removed: &mut Vec<EntityId>,
) {
    let seats = match moment {
        Moment::TurnStart | Moment::TurnEnd => 1,
        _ => rules.seats.len().min(state.len()).max(1),
    };
    let mut first = true;
    for seat in 0..seats as EntityId {
        if seats > 1 && !state.is_live(seat) {
            continue;
        }
        for &(timing, each) in rules.hooks_at(moment) {
            if each.is_none() || first {
                run_timing(rules, state, timing, seat, events);
                with_roles_outside(rules, seat, |roles| {
                    state.remove_fallen(rules, roles, removed, events)
                });
            }
        }
        first = false;
    }
}

/// What a moment is called in a log: "start" and "end" for a turn's.
pub fn moment_label(moment: Moment) -> &'static str {
    match moment {
        Moment::GameStart => "game start",
        Moment::RoundStart => "round start",
        Moment::TurnStart => "start",
        Moment::TurnEnd => "end",
        Moment::RoundEnd => "round end",
        Moment::Run => "run",
    }
}

/// The operation a cause came through, by name, for logs.
pub fn via_name(rules: &RuleSet, via: Option<OpId>) -> Option<&str> {
    via.map(|o| rules.operations[o as usize].as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::keys::Keys;

    #[test]
    fn every_moment_has_a_label() {
        for &m in Moment::ALL {
            assert!(!moment_label(m).is_empty(), "{}", m.name());
        }
    }
}
