//! Scenarios: tests written as data. Given a state, play these cards, expect these values.
//!
//! ```clojure
//! {:scenario "Foundations on no wall"
//!  :given {:you {:wall 0 :bricks 10}}
//!  :play ["Foundations"]
//!  :expect {:you {:wall 6 :bricks 7} :next :other}}
//! ```
//!
//! The acting player is the first seat; `:you` and `:other` keep naming the
//! same seats for the whole scenario. Before each step the named card is put
//! into the hand of the player whose turn it is, then played (or discarded,
//! `[:discard "Name"]`; `[:refused "Name"]` or `[:refused [:discard "Name"]]`
//! when the engine must refuse it) through the engine: costs, effects, "play again",
//! "draw", "discard" and victory all apply. Neither a round's end nor the next
//! turn's start runs after the last step, so the state is what the plays left.
//!
//! Rule sets with `:actions` and `:setup` entities name entities by their
//! setup names too (`:hero`), and entities that enter play by kind and
//! number as logs name them (`:tile#33`); give them statuses before the
//! first step (`:statuses {:hero [:power]}`, or with turns left,
//! `{:hero {:power 1}}`), and act: `[:act :hero :move :cell-2-1]`,
//! `[:refused [:act …] "reason"]`, `[:status :hero :power]` (acquired now),
//! `:next-turn` (the turn being taken ends and the next begins, with
//! any round end and start on the way). `:expect` may then name statuses and
//! turns left (`:statuses {:hero {:power 2}}`), entities out of play
//! (`:gone [:minion]`) and any condition (`:holds [[= 1 [count :tile]]]`,
//! setup names bound as roles).
//!
//! With card zones, `:given {:zones {[:hand :you] ["Yeti"] :deck ["Scout"]}}`
//! puts exactly those cards in those piles (an ordered zone written top
//! first, a board as `{slot "Name"}`), and `:expect {:zones {…}}` reads them
//! back (`{:count 0}` for a count alone).

mod read;
mod run;
mod zones;

use crate::check::ast::{AttrId, Bool, EntityId, RoleId, StatusId};
use crate::check::keys::keys;
use crate::check::rules::ActionId;
use crate::engine::CardId;
use crate::syntax::Span;

use crate::ids::{KindId, OptionId, TimingId, TurnKindId, ZoneId};
pub use read::load;
pub use run::{run, run_logged};

/// One checked scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// The seed of the game it runs in (shuffles, chance).
    pub seed: u64,
    /// The encounter its game is set up as (`:encounter :cultist`), if not the first.
    pub encounter: Option<String>,
    /// The number of players its game has (`:players 3`), for a rule set with `:players`.
    pub players: Option<usize>,
    /// Values set before the game's start (`:start`), if any: then the
    /// game's start is kept, not reset to the defaults, and logged.
    pub start: Option<Vec<(Who, AttrId, i64)>>,
    /// Values set before the first step: entity, attribute, value.
    pub given: Vec<(Who, AttrId, i64)>,
    /// Statuses acquired before the first step, in order.
    pub statuses: Vec<GivenStatus>,
    /// Piles given before the first step (`:given {:zones {…}}`): exactly these cards.
    pub zones: Vec<(PileRef, PileWant)>,
    /// What is done, in order.
    pub steps: Vec<Step>,
    /// What must hold afterwards.
    pub expect: Vec<Expect>,
    /// The exact log expected, if given.
    pub log: Option<String>,
    /// Texts each some line of the log must hold (`:logged ["Scavenger triggers"]`).
    pub logged: Vec<String>,
    /// The scenario's map.
    pub span: Span,
}

impl Scenario {
    /// Whether it names a seat by its name (`:p1`) anywhere, rather than by role.
    fn names_a_seat(&self, seats: usize) -> bool {
        let seat = |w: &Who| matches!(*w, Who::Entity(e) if e.index() < seats);
        let values = self.start.iter().flatten().chain(&self.given);
        values.clone().any(|(w, _, _)| seat(w))
            || self.statuses.iter().any(|g| seat(&g.holder))
            || self
                .zones
                .iter()
                .any(|(p, _)| p.owner.as_ref().is_some_and(seat))
            || self.steps.iter().any(|step| match step {
                Step::Act(a, _, t, _) | Step::RefusedAct(a, _, t, _, _) => {
                    seat(a) || t.iter().any(seat)
                }
                Step::Use(a, _, t, _) | Step::RefusedUse(a, _, t, _, _) => {
                    seat(a) || t.iter().any(seat)
                }
                Step::Target(t) | Step::RefusedTarget(t, _) => seat(t),
                Step::Status(w, _, _) => seat(w),
                Step::Expect(list) => list.iter().any(|e| e.names(&seat)),
                _ => false,
            })
            || self.expect.iter().any(|e| e.names(&seat))
    }
}

impl Expect {
    /// Whether it names an entity `pick` picks.
    fn names(&self, pick: &impl Fn(&Who) -> bool) -> bool {
        match self {
            Expect::Value(w, _, _) | Expect::Statuses(w, _) | Expect::Gone(w) => pick(w),
            Expect::Next(w)
            | Expect::Winner(Some(w))
            | Expect::Intents(w, _)
            | Expect::Loser(w) => pick(w),
            Expect::Zone(pile, _) => pile.owner.as_ref().is_some_and(pick),
            Expect::Queue(list) => list.iter().any(|q| match q {
                QueueWant::Turn(w, _) | QueueWant::Timed(_, Some(w)) => pick(w),
                _ => false,
            }),
            _ => false,
        }
    }
}

/// A pile a scenario names: a shared zone (`:deck`), or a seat's own of a
/// zone per seat (`[:hand :you]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PileRef {
    /// The zone.
    pub zone: ZoneId,
    /// Its owner, for a zone per seat.
    pub owner: Option<Who>,
}

/// What a scenario gives or expects of a pile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PileWant {
    /// These cards, bottom first (a file writes an ordered zone top first).
    Cards(Vec<CardId>),
    /// These cards in these slots (`{0 "Yeti" 2 "Wisp"}`), and no others.
    Slots(Vec<(u16, CardId)>),
    /// This many cards, whichever (`{:count 0}`): expected only.
    Count(usize),
}

/// A status a scenario gives before its first step: `:statuses {:hero
/// [:power [:heal4 23]]}`, or with turns left, `:statuses {:hero {:power 1}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GivenStatus {
    /// Who acquires it.
    pub holder: Who,
    /// Which.
    pub status: StatusId,
    /// Its magnitude (0 unless given).
    pub magnitude: i64,
    /// Its turns left, if given; otherwise it lasts as its definition says.
    pub left: Option<u32>,
}

/// Whom a scenario names: a role (`:you`), a setup entity (`:hero`), or an
/// entity that enters play during it, as logs name it (`:tile#33`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The entity a role means on the first seat's turn.
    Role(RoleId),
    /// An entity by number: a seat or a `:setup` entity.
    Entity(EntityId),
    /// An entity of this kind that enters play during the scenario, by number.
    Spawned(KindId, EntityId),
    /// The card at a place of a pile (`[:board :other 0]`): the zone, its
    /// owner for a zone per seat (a seat), and the place from the bottom (a
    /// board's slot), found when the step runs.
    Card(ZoneId, Option<EntityId>, u16),
}

/// One step of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Play this card.
    Play(CardId),
    /// Play this card aimed at this entity, with this option
    /// (`[:play "Firebolt" :target [:board :other 0]]`, `[:play "Rite" :choose :help]`).
    PlayWith(CardId, Option<Who>, Option<OptionId>),
    /// Playing this card so must be refused
    /// (`[:refused [:play "Firebolt" :target [:board :you 0]]]`).
    RefusedWith(CardId, Option<Who>, Option<OptionId>, Option<String>),
    /// Choose the next target of the card being played (`[:target WHO]`;
    /// a play's second `:target` is one).
    Target(Who),
    /// Choosing this as the next target must be refused, with this reason if given.
    RefusedTarget(Who, Option<String>),
    /// Discard this card.
    Discard(CardId),
    /// The step must be refused (`[:refused "Name"]`, `[:refused [:discard "Name"]]`); nothing changes.
    Refused(CardId, bool, Option<String>),
    /// Use an action of `:actions`: `[:act :hero :move :cell-2-1]`, with the
    /// option chosen (its [`Action::choice`](crate::engine::Action::choice)) for an action with `:choose`:
    /// `[:act :dio :stand-punch :pain :head]`.
    Act(Who, ActionId, Option<Who>, Option<OptionId>),
    /// The action must be refused, with this reason if given.
    RefusedAct(Who, ActionId, Option<Who>, Option<OptionId>, Option<String>),
    /// Use an ability of a card in play (its `:abilities`):
    /// `[:use [:board :you 0] :ping :target [:board :other 1] :choose :harm]`,
    /// the ability and the option by name.
    Use(Who, String, Option<Who>, Option<String>),
    /// The use must be refused, with this reason if given:
    /// `[:refused [:use [:board :you 0] :ping] "reason"]`.
    RefusedUse(Who, String, Option<Who>, Option<String>, Option<String>),
    /// The next turn begins (`:next-turn`): a round's end and start on the way run.
    NextTurn,
    /// The seat answering a card lets it resolve (`:pass`): a reaction window's pass.
    Pass,
    /// An entity acquires a status now, through the normal path: `[:status :hero :power]`.
    Status(Who, StatusId, i64),
    /// Expectations checked here, mid-play: `[:expect {:queue […]}]`.
    Expect(Vec<Expect>),
}

/// One entry of an expected turn queue: `[:turn :c1]` (`[:turn :c1 :fast-magic]`
/// with its turn kind), `:reorder`, `[:timed :bomb :c1]` (`[:timed :bomb]`, for anyone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueWant {
    /// A turn of this entity, of this turn kind if given.
    Turn(Who, Option<TurnKindId>),
    /// A reorder.
    Reorder,
    /// A timed entry running this timing, for this entity if given.
    Timed(TimingId, Option<Who>),
}

/// One expectation.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// An attribute's value.
    Value(Who, AttrId, i64),
    /// The statuses an entity holds, each with its turns left, in acquisition order.
    Statuses(Who, Vec<(StatusId, i64)>),
    /// The entity is out of play.
    Gone(Who),
    /// A condition holds (the text, for the message).
    Holds(Bool, String),
    /// Whose turn it is next: a role, or a seat by name.
    Next(Who),
    /// Who won: `Some(role or seat)`, or `None` for a game still going.
    Winner(Option<Who>),
    /// Both players won at once (`:winner :tie`).
    Tie,
    /// This seat lost (`:loser :you`): a `:victory` condition with `:loser` held.
    Loser(Who),
    /// Cards the acting player must still discard.
    MustDiscard(u8),
    /// Cards in the hand of the player whose turn it is.
    Hand(usize),
    /// The turn queue, as [`Game::queue_listing`](crate::engine::Game::queue_listing) lists it.
    Queue(Vec<QueueWant>),
    /// A pile's cards (`:zones {[:hand :you] ["Yeti"]}`).
    Zone(PileRef, PileWant),
    /// The moves a scripted enemy was shown to intend, in order, from the
    /// scenario's start (`:intents {:jaw-worm [:chomp :bellow]}`), by key.
    Intents(Who, Vec<String>),
}

keys! {
    /// The keys of a scenario.
    pub enum ScenarioKey {
        /// `:scenario "Name"`.
        Scenario = "scenario",
        /// `:rules :name`: the rule set it is written for.
        Rules = "rules",
        /// `:seed N`: the game's seed.
        Seed = "seed",
        /// `:encounter :cultist`: the encounter its game is set up as (the rule set's first without it).
        Encounter = "encounter",
        /// `:players 3`: its game is played by that many seats (a rule set with `:players`).
        Players = "players",
        /// `:start {:p1 {:speed 3}}`: values set before the game's start, whose
        /// timings then run and are kept.
        Start = "start",
        /// `:given {:you {:wall 0}}`: values set before the first step.
        Given = "given",
        /// `:statuses {:hero [:power]}`: statuses acquired before the first step.
        Statuses = "statuses",
        /// `:play ["Card" …]`: the steps.
        Play = "play",
        /// `:expect {…}`: what must hold afterwards.
        Expect = "expect",
        /// `:log "…"`: the exact log expected.
        Log = "log",
        /// `:logged ["…"]`: texts the log must hold, each within one line.
        Logged = "logged",
    }
}

keys! {
    /// The keys of `:expect` besides role names.
    pub enum ExpectKey {
        /// `:next :other`: whose turn it is next.
        Next = "next",
        /// `:winner :you` (or `:tie`, or `nil` for a game still going).
        Winner = "winner",
        /// `:loser :you`: the seat lost (a `:victory` condition with `:loser` held).
        Loser = "loser",
        /// `:must-discard N`: cards the actor must still discard.
        MustDiscard = "must-discard",
        /// `:hand N`: cards in the actor's hand.
        Hand = "hand",
        /// `:statuses {:hero {:power 2}}`: the statuses held, with turns left.
        Statuses = "statuses",
        /// `:gone [:minion]`: entities out of play.
        Gone = "gone",
        /// `:holds [condition …]`: conditions that hold.
        Holds = "holds",
        /// `:queue [[:turn :c1] :reorder [:timed :bomb :c1]]`: the turn queue.
        Queue = "queue",
        /// `:zones {[:hand :you] ["Yeti"] :deck {:count 0}}`: the cards in piles.
        Zones = "zones",
        /// `:intents {:jaw-worm [:chomp :bellow]}`: the moves each scripted enemy was shown to intend, in order, from the start.
        Intents = "intents",
    }
}
