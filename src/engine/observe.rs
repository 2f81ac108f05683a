//! What a learning agent acts in and what it sees (issue 30, part 3): a fixed
//! action space ([`ActionSpace`]) and a flat observation of one seat's view
//! ([`ObsLayout`]), both laid out once per rule set and deck.
//!
//! # Actions
//! Every index means one thing for the whole game, and in every game of the
//! rule set, so a policy can learn what an index does:
//! 1. `[0, H × T × O)`: play the card in hand slot `i` at target index `t`
//!    with option `o`, index `(i × T + t) × O + o` (`H` is
//!    [`ActionSpace::hand_slots`]: with `:cards`, the hand size plus the most
//!    cards one card draws, or the deck if smaller; with `:zones`, the cards
//!    the `:plays` zone holds (its `:capacity`), or the cards the deal makes
//!    if fewer). `T` is 1 when no card of the deck chooses a target; else
//!    target index 0 plays a card without one, and `1 + p` plays it at
//!    **place** `p` (below) among those the deck's chosen targets can name
//!    (their `:from`; a random target is not chosen). `O` is the most
//!    options a card's `:choose` has (1 when none has one); a card without
//!    one is played at option 0 (`play hand slot 0 (harm or no option)`).
//!    So a deck that aims at nothing keeps one index per slot;
//! 2. then `H` indices discarding the card in slot `i`; with `:zones`, only
//!    where a card ever leaves the hand by its seat's choice (the hand
//!    `:may-discard`, a card's `:discard`, a discard an effect leaves its
//!    seat to choose), else none ([`ActionSpace::discard_slots`]);
//! 3. then, with `:turns {:plays :many}`, one index that ends the turn
//!    ([`ActionSpace::end_turn_index`]);
//! 4. then, with `:zones` and a deck holding a `:reaction` card, one index
//!    that passes in a reaction window, letting the card answered resolve
//!    ([`ActionSpace::pass_index`]); a reaction itself is played by its hand slot;
//! 5. then, where a card of the deck chooses more than one target, one
//!    index per place its later chosen targets can name: the next target
//!    of the card being played ([`Ability::Target`], in `Phase::Target`);
//! 6. then, where a card of the deck has `:abilities`, one block of uses:
//!    the acting card's place (the piles of the zones in play) × ability
//!    (its place in the card's `:abilities`) × target index (0 for none,
//!    else 1 + a place its abilities' chosen targets can name) × option;
//! 7. then one block per action of `:actions`, in declaration order:
//!    actor place × target place × option, the option varying fastest.
//!
//! A **place** names an actor or a target. An entity of a kind that is no
//! card is named by its **rank**: its place among the entities of its kind
//! in the order they entered play, those gone since counted too
//! ([`Ranks`]). A setup entity has the same rank in every game; a spawned
//! one keeps its rank for the rest of its game. A kind has as many ranks as
//! the setup makes of it, plus [`SPAWN_RANKS`] when an effect of the rule
//! set or deck spawns it. A card instance (`:zones`) takes no rank: it is
//! named by where it is, a pile the observation shows place by place (a
//! board's slots; the hand the seat acting plays from) and its position
//! there, the pile counted from the seat acting (its own, then the others
//! in seat order after it): "the other's board slot 1" means the same to
//! every seat. An action whose actor or target is of a kind of cards names
//! them among the piles of the zones in play; a card's chosen target among
//! the piles and kinds its `:from` names (a pile of another seat's zone
//! too: the owner it names is no place's). A legal action past those places
//! has no index: it is left out of the mask and counted
//! ([`Mask::overflowed`]).
//!
//! # What a seat sees (the view rules)
//! What a seat may see is the engine's to say ([`Game::view`], in
//! `engine/view.rs`); the observation holds that and nothing else:
//! - every attribute of every entity but a card instance it cannot tell: no
//!   attribute is secret;
//! - the statuses every entity holds, but not an `:invisible` one unless the
//!   seat's own entity is its source ("Pain sees his own focus"; the rule is
//!   [`super::view::sees_status`]);
//! - with `:cards` (classic storage): its own hand, card by card, in slot
//!   order, with each card's cost and whether it can pay for it now; of every
//!   other hand and every draw pile only how many cards it holds; the discard
//!   piles, which are public, as how many of each card they hold (their
//!   order is public too, but a discard pile is only ever shuffled back
//!   whole, so it says nothing a count does not). These are read from the
//!   game's own piles, which hold exactly what its view shows;
//! - with `:zones`, every pile read from the seat's view alone: a pile it
//!   sees and whose places matter (a board's slots; the hand it plays from,
//!   whose slots the play indices name) place by place, each card with its
//!   instance's values (the attributes some card's `:values` sets) and, in a
//!   hand, its cost and whether the pile's owner can pay for it now, on a
//!   board, the statuses it holds that the seat may see (as above); any
//!   other pile it sees (a discard pile, `:playing`, `:removed`) as how many
//!   of each card it holds (no `top` of a public pile is observed: no
//!   bundled or fixture rule reads it); a pile it does not see (the deck,
//!   the other hands) as its count and how many of each card the seat can
//!   tell there (looked at, shown to it, a `:top-visible` top).
//!
//! Not observed: the turn queue (extra and timed turns to come) and the
//! actions prepared and waiting (`:delayed-when`); the mask shows what they
//! allow.

use rand::SeedableRng;

mod places;
mod uses;

use places::{PlaceRules, Places};

use super::view::{Seen, ZoneName, sees_status};
use super::{Ability, Action, Game, Phase};
use crate::check::ast::{CardOp, CardPick, CardVerb, Cards, Effect, EntityId, Resource};
use crate::check::defs::Card;
use crate::check::rules::{ActionId, KindId, RuleSet, Visibility, ZoneSet};
use crate::eval::{Instance, Rng};
use crate::ids::{AttrId, OptionId};

/// The most indices an action space may have: past it a rule set is refused
/// ([`SpaceError::TooLarge`]).
pub const MAX_ACTIONS: usize = 4096;

/// The ranks kept for entities of a kind that effects spawn, beyond those
/// the setup makes.
pub const SPAWN_RANKS: usize = 16;

/// The largest magnitude an observed number takes: values are clamped to
/// `±2^31`, so a float32 network reads every one exactly.
pub const BOUND: i64 = 1 << 31;

/// Why a rule set has no action space.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpaceError {
    /// More indices than [`MAX_ACTIONS`].
    #[error(
        "rule set `{rules}` needs an action space of {size} indices, more than the {MAX_ACTIONS} \
         an agent is given: {detail}"
    )]
    TooLarge {
        /// The rule set.
        rules: String,
        /// How many indices it would need.
        size: usize,
        /// Where they come from, block by block.
        detail: String,
    },
}

/// Why an observation could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObserveError {
    /// The game has no such seat.
    #[error("seat {seat}: the game has {seats} seats, 0 to {}", seats.saturating_sub(1))]
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// How many the game has.
        seats: usize,
    },
    /// The buffer is not [`ObsLayout::len`] long.
    #[error("an observation is {want} numbers; the buffer holds {got}")]
    WrongLength {
        /// The buffer's length.
        got: usize,
        /// The layout's.
        want: usize,
    },
}

/// The kind of each entity the setup makes, by number: the seats (of the
/// first kind), then the `:setup` entities that are not seats.
fn setup_kinds(rules: &RuleSet) -> Vec<KindId> {
    std::iter::repeat_n(KindId::FIRST, rules.seats.len())
        .chain(
            rules
                .setup_entities()
                .filter(|s| s.seat.is_none())
                .map(|s| s.kind),
        )
        .collect()
}

/// Calls `f` on every effect list of the rule set and of `cards`.
fn each_effect_list(rules: &RuleSet, cards: &[Card], mut f: impl FnMut(&[Effect])) {
    rules.hooks.as_slice().iter().for_each(|e| f(e));
    rules.on_removed.as_slice().iter().for_each(|e| f(e));
    rules.on_turn.as_slice().iter().for_each(|e| f(e));
    for op in rules.operation_defs.as_slice() {
        f(&op.effects);
    }
    for def in rules.status_defs.as_slice() {
        def.effect_lists().for_each(|(_, e)| f(e));
    }
    for action in rules.actions.as_slice() {
        f(&action.pay);
        f(&action.effects);
    }
    cards.iter().for_each(|c| f(&c.effects));
}

/// Calls `f` on every resource of `effects`, those of both branches of a
/// condition and those run in a loop too.
fn each_resource(effects: &[Effect], f: &mut dyn FnMut(&Resource)) {
    fn resource(r: &Resource, f: &mut dyn FnMut(&Resource)) {
        f(r);
        match r {
            Resource::If(_, a, b) => {
                resource(a, f);
                resource(b, f);
            }
            Resource::Each(each) => each_resource(&each.effects, f),
            Resource::Attr(_)
            | Resource::Op(_)
            | Resource::Status(_)
            | Resource::Spawn(_)
            | Resource::Run(_)
            | Resource::Queue(_)
            | Resource::Cards(_) => {}
        }
    }
    for e in effects {
        resource(&e.resource, f);
    }
}

/// Whether some effect of the rule set or of `cards` spawns each kind.
/// Cards made by effects (`{:create …}`) are not spawned: they are
/// observed in the zones they are in, never ranked.
fn spawned_kinds(rules: &RuleSet, cards: &[Card]) -> Vec<bool> {
    let mut spawned = vec![false; rules.kinds.len()];
    each_effect_list(rules, cards, |effects| {
        each_resource(effects, &mut |r| {
            if let Resource::Spawn(s) = r
                && let Some(k) = spawned.get_mut(s.kind.index())
            {
                *k = true;
            }
        });
    });
    spawned
}

/// Whether some effect of the rule set or of `cards` matches `test`.
fn any_card_op(rules: &RuleSet, cards: &[Card], test: impl Fn(&CardOp) -> bool) -> bool {
    let mut found = false;
    each_effect_list(rules, cards, |effects| {
        each_resource(effects, &mut |r| {
            found |= matches!(r, Resource::Cards(op) if test(op));
        });
    });
    found
}

/// How many card instances the deal makes: every copy of the deck in each
/// `:start` pile (one for a shared zone, one per seat for a zone per seat).
fn dealt(set: &ZoneSet, seats: usize, cards: &[Card]) -> usize {
    let copies: usize = cards.iter().map(|c| usize::from(c.play.copies)).sum();
    let piles: usize = set
        .zones
        .iter()
        .filter(|z| z.start)
        .map(|z| if z.shared { 1 } else { seats })
        .sum();
    copies * piles
}

/// The hand slots `H` and the discard indices of a rule set of `:zones`:
/// a slot for each card its `:plays` zone holds, or each the deal makes if
/// fewer; discard indices (`H` of them) only when a card ever leaves the
/// hand by its seat's choice: the hand `:may-discard`, a card's `:discard`,
/// or a discard an effect leaves its seat to choose (`:pick :chosen`).
fn zoned_hand(rules: &RuleSet, set: &ZoneSet, cards: &[Card]) -> (usize, usize) {
    let Some(plays) = set.plays else {
        return (0, 0);
    };
    let hand = usize::from(set.zones[plays].capacity).min(dealt(set, rules.seats.len(), cards));
    let chosen = |op: &CardOp| {
        op.verb == CardVerb::Discard
            && matches!(&op.cards, Some(Cards::Pick(sel)) if sel.pick == CardPick::Chosen)
    };
    let discards = set.zones[plays].may_discard
        || cards.iter().any(|c| c.play.discard > 0)
        || any_card_op(rules, cards, chosen);
    (hand, if discards { hand } else { 0 })
}

/// Each entity's kind and rank in one game: its place among the entities of
/// its kind in the order they entered play. Setup entities have theirs from
/// the rule set; a spawned entity gets the next rank of its kind when
/// [`Ranks::update`] first sees it, and keeps it when it leaves play. Call
/// `update` after every action (and after [`Game::reset`], after
/// [`Ranks::reset`]): an entity that entered and left play between two
/// calls is never seen and takes no rank.
#[derive(Clone, Debug)]
pub struct Ranks {
    /// By entity number: its kind and rank, `None` for one never seen in play.
    of: Vec<Option<(KindId, usize)>>,
    /// Each kind's entities, by rank.
    by_kind: Vec<Vec<EntityId>>,
    /// How many entities the setup makes.
    setup: usize,
}

impl Ranks {
    /// The ranks of the setup's entities, which every game of `rules` starts with.
    pub fn new(rules: &RuleSet) -> Ranks {
        let mut ranks = Ranks {
            of: Vec::new(),
            by_kind: vec![Vec::new(); rules.kinds.len()],
            setup: 0,
        };
        for (i, kind) in setup_kinds(rules).into_iter().enumerate() {
            ranks.enter(EntityId::new(i), Some(kind));
        }
        ranks.setup = ranks.of.len();
        ranks
    }

    fn enter(&mut self, entity: EntityId, kind: Option<KindId>) {
        let ranked = kind.and_then(|k| {
            let list = self.by_kind.get_mut(k.index())?;
            list.push(entity);
            Some((k, list.len() - 1))
        });
        self.of.push(ranked);
    }

    /// Forgets the spawned entities: a new game starts from the setup.
    pub fn reset(&mut self) {
        for e in self.of.drain(self.setup..).flatten() {
            self.by_kind[e.0.index()].pop();
        }
    }

    /// Ranks the entities that entered play since the last call. A card
    /// instance (`:zones`) takes no rank: it is observed in the zone it is
    /// in, and those dealt at setup are out of play when first seen, so
    /// ranking only the ones made in play would rank some minions and not
    /// others.
    pub fn update(&mut self, game: &Game<'_>) {
        let state = game.state();
        let table = state.cards.as_deref();
        for e in self.of.len()..state.len() {
            let e = EntityId::new(e);
            let card = table.is_some_and(|t| t.card(e).is_some());
            self.enter(e, if card { None } else { state.kind(e) });
        }
    }

    /// `entity`'s kind and rank, once ranked.
    pub fn rank(&self, entity: EntityId) -> Option<(KindId, usize)> {
        self.of.get(entity.index()).copied().flatten()
    }

    /// The entity of `kind` with rank `rank`, once one has it.
    pub fn entity(&self, kind: KindId, rank: usize) -> Option<EntityId> {
        self.by_kind.get(kind.index())?.get(rank).copied()
    }
}

/// The ranks each kind is given, and the names a rank has in every game.
#[derive(Clone, Debug)]
struct KindRanks {
    /// By kind: how many ranks.
    caps: Vec<usize>,
    /// By kind: the names of the setup's entities of that kind, by rank.
    names: Vec<Vec<String>>,
}

impl KindRanks {
    fn new(rules: &RuleSet, cards: &[Card]) -> KindRanks {
        let spawned = spawned_kinds(rules, cards);
        let mut names = vec![Vec::new(); rules.kinds.len()];
        for (kind, name) in setup_kinds(rules)
            .into_iter()
            .zip(rules.game_entity_names())
        {
            names[kind.index()].push(name);
        }
        let caps = names
            .iter()
            .zip(&spawned)
            .map(|(n, &s)| n.len() + if s { SPAWN_RANKS } else { 0 })
            .collect();
        KindRanks { caps, names }
    }

    /// What rank `rank` of `kind` is called in every game: a setup entity's
    /// name (`hero`), or `tile rank 3`.
    fn name(&self, rules: &RuleSet, kind: KindId, rank: usize) -> String {
        match self.names[kind.index()].get(rank) {
            Some(name) => name.clone(),
            None => format!(
                "{} rank {rank}",
                rules.kinds.get(kind).map_or("?", String::as_str)
            ),
        }
    }
}

/// The indices of one action of `:actions`: actor place × target place ×
/// option.
#[derive(Clone, Debug)]
struct Block {
    id: ActionId,
    start: usize,
    actors: Places,
    /// `None` for an action without a target (one index, no place).
    targets: Option<Places>,
    /// The first option of its `:choose`, if it has one.
    first_option: Option<OptionId>,
    options: usize,
}

impl Block {
    fn targets(&self) -> usize {
        self.targets.as_ref().map_or(1, Places::len)
    }

    fn len(&self) -> usize {
        self.actors.len() * self.targets() * self.options
    }
}

/// The indices of the card plays: hand slot × target place × option.
#[derive(Clone, Debug, Default)]
struct Plays {
    /// Where the deck's cards aim, place 0 of a slot being a play with no
    /// target; `None` when no card of the deck chooses a target.
    targets: Option<Places>,
    /// The most options a card's `:choose` has, 1 when none has one.
    options: usize,
    /// The `:choose` sets of the deck's cards, for naming an option: each
    /// one's first option and how many.
    sets: Vec<(usize, usize)>,
    /// Whether a card of the deck has no `:choose` (it is played at option 0).
    plain: bool,
}

impl Plays {
    fn new(rules: &RuleSet, cards: &[Card], at: &PlaceRules<'_>) -> Plays {
        let mut spans = Vec::new();
        let mut aimed = false;
        for card in cards {
            if let Some((_, target)) = card.aims.chosen() {
                aimed = true;
                target.from.iter().for_each(|s| at.source(s, &mut spans));
            }
        }
        let mut sets: Vec<(usize, usize)> = cards
            .iter()
            .filter_map(|c| rules.choices.get(c.aims.choose?))
            .map(|s| (s.first.index(), usize::from(s.len)))
            .collect();
        sets.sort_unstable();
        sets.dedup();
        Plays {
            targets: aimed.then(|| Places::new(spans)),
            options: sets.iter().map(|s| s.1).max().unwrap_or(1).max(1),
            sets,
            plain: cards.iter().any(|c| c.aims.choose.is_none()),
        }
    }

    /// `T`: the target indices of a slot, 1 (no target) and then a place each.
    fn targets(&self) -> usize {
        self.targets.as_ref().map_or(1, |p| 1 + p.len())
    }

    /// The indices of one hand slot.
    fn per_slot(&self) -> usize {
        self.targets() * self.options
    }
}

/// The legal actions of a moment as a mask over an [`ActionSpace`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mask {
    /// How many indices are legal.
    pub legal: usize,
    /// How many legal actions have no index (an actor or target past its
    /// kind's ranks, or a card in a pile not shown place by place or past
    /// its places; a card past the hand's slots).
    pub overflowed: usize,
}

/// A rule set's fixed action space (see the module's doc).
#[derive(Clone, Debug)]
pub struct ActionSpace {
    rules_name: String,
    /// Hand slots addressed, `H`; 0 without cards.
    hand: usize,
    /// Each slot's targets and options: `T × O` indices a slot.
    plays: Plays,
    /// Discard indices after the plays: `H`, or 0 for a rule set of
    /// `:zones` whose cards are never discarded from the hand.
    discards: usize,
    /// Whether the index after the discards ends the turn (`:turns {:plays :many}`).
    end_turn: bool,
    /// Whether the index after it passes in a reaction window (a deck with reactions).
    pass: bool,
    /// After it, a card's later chosen target, one index a place (a deck
    /// where a card chooses more than one).
    later: Option<uses::Later>,
    /// Then the uses of cards' activated abilities (a deck with `:abilities`).
    uses: Option<uses::Uses>,
    blocks: Vec<Block>,
    len: usize,
    ranks: KindRanks,
    /// For descriptions: each action's name and the option names.
    action_names: Vec<String>,
    option_names: Vec<String>,
    kind_count: usize,
}

impl ActionSpace {
    /// The action space of `rules` played with `cards`; refused past
    /// [`MAX_ACTIONS`] indices.
    pub fn new(rules: &RuleSet, cards: &[Card]) -> Result<ActionSpace, SpaceError> {
        let ranks = KindRanks::new(rules, cards);
        let (hand, discards) = match rules.zones.as_ref().filter(|z| !z.classic) {
            Some(set) => zoned_hand(rules, set, cards),
            None => {
                // A hand never holds more than the pile it draws from deals.
                let deck: usize = cards.iter().map(|c| usize::from(c.play.copies)).sum();
                let hand = rules.cards.as_ref().map_or(0, |z| {
                    let most_drawn = cards.iter().map(|c| usize::from(c.play.draw)).max();
                    (z.hand_size + most_drawn.unwrap_or(0)).min(deck)
                });
                (hand, hand)
            }
        };
        let end_turn = rules.plays_many;
        let zoned = rules.zones.as_ref().is_some_and(|z| !z.classic);
        let pass = zoned && cards.iter().any(|c| c.reaction.is_some());
        let at = PlaceRules {
            rules,
            caps: &ranks.caps,
            hand_slots: hand,
        };
        let plays = Plays::new(rules, cards, &at);
        let mut start =
            hand * plays.per_slot() + discards + usize::from(end_turn) + usize::from(pass);
        let later = uses::Later::new(cards, &at, start);
        start += later.as_ref().map_or(0, uses::Later::len);
        let uses = uses::Uses::new(rules, cards, &at, start);
        start += uses.as_ref().map_or(0, uses::Uses::len);
        let mut blocks = Vec::with_capacity(rules.actions.len());
        for (id, def) in rules.actions.iter_ids() {
            let set = def.choose.and_then(|c| rules.choices.get(c));
            let block = Block {
                id,
                start,
                actors: at.of_kind(def.actor),
                targets: def.target.map(|t| at.of_kind(t)),
                first_option: set.map(|s| s.first),
                options: set.map_or(1, |s| usize::from(s.len).max(1)),
            };
            start += block.len();
            blocks.push(block);
        }
        if start > MAX_ACTIONS {
            let mut detail = match (discards, plays.per_slot()) {
                (0, 1) => format!("{hand} hand slots"),
                (_, 1) => format!("{hand} hand slots × 2"),
                (d, _) => format!(
                    "{hand} hand slots × {} targets × {} options, {d} discards",
                    plays.targets(),
                    plays.options
                ),
            };
            for b in &blocks {
                let targets = b.targets.as_ref().map_or("1".to_string(), Places::detail);
                detail.push_str(&format!(
                    ", {} {} × {targets} × {}",
                    rules.actions[b.id].name,
                    b.actors.detail(),
                    b.options
                ));
            }
            return Err(SpaceError::TooLarge {
                rules: rules.name.clone(),
                size: start,
                detail,
            });
        }
        Ok(ActionSpace {
            rules_name: rules.name.clone(),
            hand,
            plays,
            discards,
            end_turn,
            pass,
            later,
            uses,
            blocks,
            len: start,
            ranks,
            action_names: rules.actions.iter().map(|a| a.name.clone()).collect(),
            option_names: rules.options.iter().cloned().collect(),
            kind_count: rules.kinds.len(),
        })
    }

    /// How many indices there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none (a rule set with no cards and no actions).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The hand slots addressed, `H`: plays are `[0, H × T × O)`, discards
    /// the `H` indices after (when the rule set has discards:
    /// [`ActionSpace::discard_slots`]).
    pub fn hand_slots(&self) -> usize {
        self.hand
    }

    /// The indices of one hand slot's plays, `T × O`: 1 for a deck whose
    /// cards choose no target and no option.
    pub fn plays_per_slot(&self) -> usize {
        self.plays.per_slot()
    }

    /// Where the plays end: `H × T × O`.
    fn plays_end(&self) -> usize {
        self.hand * self.plays.per_slot()
    }

    /// The discard indices after the plays: `H`, or 0 for a rule set of
    /// `:zones` whose hand is never discarded from (no `:may-discard`, no
    /// card's `:discard`, no discard an effect leaves its seat to choose).
    pub fn discard_slots(&self) -> usize {
        self.discards
    }

    /// The index that ends the turn (`:turns {:plays :many}`), if there is one.
    pub fn end_turn_index(&self) -> Option<usize> {
        self.end_turn.then_some(self.plays_end() + self.discards)
    }

    /// The index that passes in a reaction window, letting the card
    /// answered resolve (a deck with `:reaction` cards), if there is one.
    pub fn pass_index(&self) -> Option<usize> {
        self.pass
            .then_some(self.plays_end() + self.discards + usize::from(self.end_turn))
    }

    /// How many ranks each kind has, by kind.
    pub fn rank_caps(&self) -> &[usize] {
        &self.ranks.caps
    }

    /// The index of `action` in `game` now (its card instances are named
    /// by their places from the seat to move), if it has one.
    pub fn index_of(&self, game: &Game<'_>, ranks: &Ranks, action: Action) -> Option<usize> {
        let seat = game.ctx().current.index();
        match action.ability {
            Ability::Card(i) => self.play_index(game, ranks, seat, usize::from(i), action),
            Ability::Discard(i) => {
                (usize::from(i) < self.discards).then(|| self.plays_end() + usize::from(i))
            }
            Ability::EndTurn => self.end_turn_index(),
            Ability::Pass => self.pass_index(),
            Ability::Target => self.later.as_ref()?.index_of(game, ranks, action),
            Ability::Use(_) => self.uses.as_ref()?.index_of(game, ranks, action),
            Ability::Action(id) => {
                let b = self.blocks.get(id.index())?;
                let actor = b.actors.index_of(game, ranks, seat, action.actor)?;
                let target = match (&b.targets, action.target) {
                    (None, None) => 0,
                    (Some(places), Some(t)) => places.index_of(game, ranks, seat, t)?,
                    _ => return None,
                };
                let option = match (b.first_option, action.choice) {
                    (None, None) => 0,
                    (Some(first), Some(o)) => o
                        .index()
                        .checked_sub(first.index())
                        .filter(|&o| o < b.options)?,
                    _ => return None,
                };
                Some(b.start + (actor * b.targets() + target) * b.options + option)
            }
        }
    }

    /// The index of playing the card in hand slot `slot` as `action` says.
    fn play_index(
        &self,
        game: &Game<'_>,
        ranks: &Ranks,
        seat: usize,
        slot: usize,
        action: Action,
    ) -> Option<usize> {
        if slot >= self.hand {
            return None;
        }
        let p = &self.plays;
        let target = target_index(p.targets.as_ref(), game, ranks, seat, action.target)?;
        let option = option_index(card_set(game, slot), action.choice)?;
        Some((slot * p.targets() + target) * p.options + option)
    }

    /// What play index `i` stands for: the hand slot, the target index (0
    /// for none, else 1 + its place) and the option; `None` past the plays.
    fn decompose_play(&self, i: usize) -> Option<(usize, usize, usize)> {
        if i >= self.plays_end() {
            return None;
        }
        let p = &self.plays;
        Some((
            i / p.per_slot(),
            (i / p.options) % p.targets(),
            i % p.options,
        ))
    }

    /// What index `i` stands for, decomposed: the block, actor place,
    /// target place and option; `None` for a card index or one past the end.
    fn decompose(&self, i: usize) -> Option<(&Block, usize, usize, usize)> {
        let b = self
            .blocks
            .iter()
            .find(|b| i >= b.start && i < b.start + b.len())?;
        let within = i - b.start;
        let option = within % b.options;
        let target = (within / b.options) % b.targets();
        let actor = within / b.options / b.targets();
        Some((b, actor, target, option))
    }

    /// The action index `i` stands for in `game` now, for the entity whose
    /// turn it is (a card) or for the entities at its places (an action);
    /// `None` when a place has no entity, a card no such option, or `i` is
    /// past the end. Whether it is legal is [`Game::check`]'s to say.
    pub fn action_at(&self, game: &Game<'_>, ranks: &Ranks, i: usize) -> Option<Action> {
        let seat = game.ctx().current.index();
        if let Some((slot, target, option)) = self.decompose_play(i) {
            let play = game.play(slot);
            let target = target_at(self.plays.targets.as_ref(), game, ranks, seat, target)?;
            let mut choice = option_at(card_set(game, slot), option)?;
            // A card that aims, played on nothing (an `:optional` target),
            // names no option: its one index is option 0's.
            if target.is_none() && option == 0 && aims_at_something(game, slot) {
                choice = None;
            }
            return Some(Action {
                target,
                choice,
                ..play
            });
        }
        let plays = self.plays_end();
        if i < plays + self.discards {
            return Some(game.discard(i - plays));
        }
        if self.end_turn_index() == Some(i) {
            return Some(game.end_turn_action());
        }
        if self.pass_index() == Some(i) {
            return Some(game.pass_action());
        }
        if let Some(a) = self
            .later
            .as_ref()
            .and_then(|l| l.action_at(game, ranks, i))
        {
            return Some(a);
        }
        if let Some(u) = self
            .uses
            .as_ref()
            .filter(|u| i >= u.start && i < u.start + u.len())
        {
            return u.action_at(game, ranks, i);
        }
        let (b, actor, target, option) = self.decompose(i)?;
        let actor = b.actors.entity_at(game, ranks, seat, actor)?;
        let target = match &b.targets {
            Some(places) => Some(places.entity_at(game, ranks, seat, target)?),
            None => None,
        };
        Some(Action {
            ability: Ability::Action(b.id),
            actor,
            target,
            choice: b.first_option.map(|f| OptionId::new(f.index() + option)),
        })
    }

    /// What option `o` of a card play is called: its name in each `:choose`
    /// set of the deck that has it, and for option 0 "no option" when a
    /// card of the deck has none (it is played at option 0).
    fn option_label(&self, o: usize) -> String {
        let mut names: Vec<&str> = self
            .plays
            .sets
            .iter()
            .filter(|&&(_, len)| o < len)
            .filter_map(|&(first, _)| self.option_names.get(first + o).map(String::as_str))
            .collect();
        names.dedup();
        if o == 0 && self.plays.plain {
            names.push("no option");
        }
        names.join(" or ")
    }

    /// What index `i` means in every game: `play hand slot 3`, `play hand
    /// slot 2 at the other's board slot 1 (harm)`, `hero: move cell-2-3`,
    /// `pain: sharp-hit dio (head)`, `your board slot 0: attack the other's
    /// board slot 1`, `p1: no-tile tile rank 0`.
    pub fn describe(&self, rules: &RuleSet, i: usize) -> Option<String> {
        if let Some((slot, target, option)) = self.decompose_play(i) {
            let mut text = format!("play hand slot {slot}");
            if let (Some(places), Some(t)) = (&self.plays.targets, target.checked_sub(1)) {
                text.push_str(" at ");
                text.push_str(&places.name(rules, &self.ranks, t));
            }
            if self.plays.options > 1 {
                text.push_str(&format!(" ({})", self.option_label(option)));
            }
            return Some(text);
        }
        let plays = self.plays_end();
        if i < plays + self.discards {
            return Some(format!("discard hand slot {}", i - plays));
        }
        if self.end_turn_index() == Some(i) {
            return Some("end the turn".to_string());
        }
        if self.pass_index() == Some(i) {
            return Some("pass: let the card answered resolve".to_string());
        }
        if let Some(text) = self
            .later
            .as_ref()
            .and_then(|l| l.describe(rules, &self.ranks, i))
        {
            return Some(text);
        }
        if let Some(text) = self
            .uses
            .as_ref()
            .and_then(|u| u.describe(rules, &self.ranks, i))
        {
            return Some(text);
        }
        let (b, actor, target, option) = self.decompose(i)?;
        let mut text = format!(
            "{}: {}",
            b.actors.name(rules, &self.ranks, actor),
            self.action_names[b.id.index()]
        );
        if let Some(places) = &b.targets {
            text.push(' ');
            text.push_str(&places.name(rules, &self.ranks, target));
        }
        if let Some(first) = b.first_option {
            text.push_str(&format!(" ({})", self.option_names[first.index() + option]));
        }
        Some(text)
    }

    /// What index `i` does in `game` now: `play Ogre (slot 3)`, `play
    /// Firebolt (slot 2) at Yeti#31 (the other's board slot 1)`, `hero: move
    /// cell-2-3`, `Ogre#30 (your board slot 0): attack Yeti#31 (the other's
    /// board slot 1)`; the fixed meaning ([`ActionSpace::describe`]) where
    /// a slot is empty or a place has no entity yet.
    pub fn describe_in(&self, game: &Game<'_>, ranks: &Ranks, i: usize) -> Option<String> {
        let fixed = self.describe(game.rules(), i)?;
        if let Some((slot, target, option)) = self.decompose_play(i) {
            return Some(self.describe_play(game, ranks, (slot, target, option), fixed));
        }
        let plays = self.plays_end();
        if i < plays + self.discards {
            let slot = i - plays;
            return Some(match game.hand().get(slot) {
                Some(card) => format!("discard {} (slot {slot})", game.cards()[card.index()].name),
                None => format!("{fixed} (empty)"),
            });
        }
        if self.end_turn_index() == Some(i) || self.pass_index() == Some(i) {
            return Some(fixed);
        }
        if let Some(text) = self
            .later
            .as_ref()
            .and_then(|l| l.describe_in(game, ranks, &self.ranks, i))
        {
            return Some(text);
        }
        let Some(action) = self.action_at(game, ranks, i) else {
            return Some(format!("{fixed} (not in play)"));
        };
        if let (Ability::Use(_), Some(u)) = (action.ability, &self.uses) {
            let (who, what) = game.action_words(action);
            let who = match u.place_of(game, ranks, &self.ranks, action.actor) {
                Some(p) => format!("{who} ({p})"),
                None => who,
            };
            return Some(format!("{who}: use {what}"));
        }
        let b = self.decompose(i)?.0;
        let seat = game.ctx().current.index();
        let name = |e: EntityId| {
            let place = std::iter::once(&b.actors).chain(&b.targets).find_map(|p| {
                Some(p.name(game.rules(), &self.ranks, p.index_of(game, ranks, seat, e)?))
            });
            entity_words(game, e, place)
        };
        let (who, what) = super::log::action_words(game.rules(), action, name);
        Some(format!("{who}: {what}"))
    }

    /// [`ActionSpace::describe_in`] of a play: the card, its target with its
    /// place, the option it is played with.
    fn describe_play(
        &self,
        game: &Game<'_>,
        ranks: &Ranks,
        (slot, target, option): (usize, usize, usize),
        fixed: String,
    ) -> String {
        let Some(&card) = game.hand().get(slot) else {
            return format!("{fixed} (empty)");
        };
        let mut text = format!("play {} (slot {slot})", game.cards()[card.index()].name);
        if let (Some(places), Some(t)) = (&self.plays.targets, target.checked_sub(1)) {
            let place = places.name(game.rules(), &self.ranks, t);
            let seat = game.ctx().current.index();
            text.push_str(" at ");
            text.push_str(&match places.entity_at(game, ranks, seat, t) {
                Some(e) => entity_words(game, e, Some(place)),
                None => format!("{place} (empty)"),
            });
        }
        match card_set(game, slot) {
            Some((first, len)) if option < len => {
                text.push_str(&format!(" ({})", self.option_names[first + option]));
            }
            None if option == 0 => {}
            _ => text.push_str(" (no such option)"),
        }
        text
    }

    /// Marks in `out` (one byte per index, [`ActionSpace::len`] long) the
    /// indices of the actions legal in `game` now, found with `legal` as
    /// scratch (left holding them).
    pub fn mask(
        &self,
        game: &mut Game<'_>,
        ranks: &Ranks,
        legal: &mut Vec<Action>,
        out: &mut [u8],
    ) -> Mask {
        out.fill(0);
        legal.clear();
        if game.outcome().is_none() {
            game.legal(legal);
        }
        let mut mask = Mask::default();
        for &action in legal.iter() {
            match self
                .index_of(game, ranks, action)
                .and_then(|i| out.get_mut(i))
            {
                Some(slot) => {
                    mask.legal += usize::from(*slot == 0);
                    *slot = 1;
                }
                None => mask.overflowed += 1,
            }
        }
        mask
    }

    /// The rule set this space was laid out for.
    pub fn rules_name(&self) -> &str {
        &self.rules_name
    }

    fn kinds(&self) -> usize {
        self.kind_count
    }
}

/// The `:choose` set of the card in hand slot `slot` of the seat to move:
/// its first option and how many.
/// A target's index among `places`: 0 for none, else 1 + its place;
/// `None` when it has no place there.
fn target_index(
    places: Option<&Places>,
    game: &Game<'_>,
    ranks: &Ranks,
    seat: usize,
    target: Option<EntityId>,
) -> Option<usize> {
    match (places, target) {
        (_, None) => Some(0),
        (Some(places), Some(t)) => Some(1 + places.index_of(game, ranks, seat, t)?),
        (None, Some(_)) => None,
    }
}

/// The target at index `t` among `places` (see [`target_index`]): `Some(None)`
/// for none; `None` when the place holds no entity.
fn target_at(
    places: Option<&Places>,
    game: &Game<'_>,
    ranks: &Ranks,
    seat: usize,
    t: usize,
) -> Option<Option<EntityId>> {
    match (t, places) {
        (0, _) => Some(None),
        (t, Some(places)) => Some(Some(places.entity_at(game, ranks, seat, t - 1)?)),
        (_, None) => None,
    }
}

/// An option's index within `set` (its first option and how many), 0 for
/// none; `None` when it is not one of the set's.
fn option_index(set: Option<(usize, usize)>, choice: Option<OptionId>) -> Option<usize> {
    match choice {
        None => Some(0),
        Some(o) => {
            let (first, len) = set?;
            o.index().checked_sub(first).filter(|&o| o < len)
        }
    }
}

/// Option `o` of `set` (see [`option_index`]): `Some(None)` for option 0
/// of no set; `None` past the set.
fn option_at(set: Option<(usize, usize)>, o: usize) -> Option<Option<OptionId>> {
    match set {
        Some((first, len)) => Some(Some(OptionId::new(first + (o < len).then_some(o)?))),
        None if o == 0 => Some(None),
        None => None,
    }
}

/// Whether the card in hand slot `slot` chooses a target.
fn aims_at_something(game: &Game<'_>, slot: usize) -> bool {
    game.hand()
        .get(slot)
        .is_some_and(|card| game.cards()[card.index()].aims.chosen().is_some())
}

fn card_set(game: &Game<'_>, slot: usize) -> Option<(usize, usize)> {
    let card = game.hand().get(slot)?;
    let set = game.cards()[card.index()].aims.choose?;
    let set = game.rules().choices.get(set)?;
    Some((set.first.index(), usize::from(set.len)))
}

/// An entity in words: its name, and for a card instance the place it is at
/// (`Yeti#31 (the other's board slot 1)`).
fn entity_words(game: &Game<'_>, e: EntityId, place: Option<String>) -> String {
    let card = game
        .state()
        .cards
        .as_deref()
        .is_some_and(|t| t.card(e).is_some());
    match place {
        Some(place) if card => format!("{} ({place})", game.entity_name(e)),
        _ => game.entity_name(e),
    }
}

/// One named field of an observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name: `seat`, `entities`, `zone:hand:me`.
    pub name: String,
    /// Where it starts in the flat observation.
    pub offset: usize,
    /// Its shape, rows first; its length is the product.
    pub shape: Vec<usize>,
    /// The least value any of its numbers may take.
    pub low: i64,
    /// The greatest.
    pub high: i64,
    /// What it holds, for people.
    pub doc: String,
}

impl Field {
    /// How many numbers it holds.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the card zones of classic storage (`:cards`) are observed.
#[derive(Clone, Debug)]
struct CardFields {
    /// `zone:hand:me`: `[H, D + 2]`.
    hand: usize,
    /// `zone:hand:other…`: one count per other seat, in seat order after the observer.
    other_hands: usize,
    /// `zone:deck…`: one count per draw pile.
    decks: usize,
    /// `zone:discard…`: a bag of `D` per discard pile.
    discards: usize,
    /// Draw piles (and discard piles): 1, or one per seat.
    piles: usize,
    slots: usize,
    defs: usize,
    /// Each card's cost, 0 for a free card.
    costs: Vec<i64>,
}

/// How one pile of `:zones` is observed, as the seat observing sees it.
#[derive(Clone, Copy, Debug)]
enum PileShape {
    /// Seen place by place (a board's slots, a hand's): `[rows, D + V + …]`,
    /// each row the card as a one-hot and its values; a hand's rows add the
    /// card's cost and whether the pile's owner can pay for it now, a
    /// board's the statuses its card holds (`S × 3`, as `statuses`).
    Slots { at: usize, rows: usize, hand: bool },
    /// Seen, in no order that is observed: `[D]`, how many of each card.
    Bag { at: usize },
    /// Not seen: `[1]`, how many cards; and `[D]`, how many of each card it
    /// holds that the observer can tell (looked at, shown, a face-up top).
    Hidden { count: usize, known: usize },
}

/// How the piles of `:zones` are observed.
#[derive(Clone, Debug)]
struct ZoneFields {
    /// Every pile, zone by zone in declaration order (`:playing` and
    /// `:removed` last); a zone per seat's the observer's first, then the
    /// others in seat order after it.
    piles: Vec<PileShape>,
    /// By zone, its first pile in `piles`.
    first: Vec<usize>,
    /// `D`: the deck's cards, tokens too.
    defs: usize,
    /// `V`: the attributes a card instance is observed with, those some
    /// card's `:values` sets, in declaration order.
    values: Vec<AttrId>,
    /// By card: what its cost is paid in, and the cost; `None` for a free card.
    costs: Vec<Option<(AttrId, i64)>>,
    /// `S`: the rule set's statuses, observed on a board's cards (a card in
    /// a hand holds none).
    statuses: usize,
}

impl ZoneFields {
    /// A row's width in a pile seen place by place.
    fn width(&self, hand: bool) -> usize {
        self.defs
            + self.values.len()
            + if hand {
                2
            } else {
                self.statuses * STATUS_COLUMNS
            }
    }
}

/// A rule set's observation: named fields over one flat vector of integers
/// (see the module's doc for what a seat sees).
#[derive(Clone, Debug)]
pub struct ObsLayout {
    fields: Vec<Field>,
    low: Vec<i64>,
    high: Vec<i64>,
    seats: usize,
    /// Offsets of the fields every rule set has.
    seat_at: usize,
    turn_at: usize,
    turn_kind_at: Option<usize>,
    entities_at: usize,
    statuses_at: Option<usize>,
    /// Where `intents` starts and how many moves its rows one-hot, for a
    /// rule set with scripted enemies.
    intents_at: Option<(usize, usize)>,
    /// Each kind's first row in `entities` and `statuses`.
    kind_rows: Vec<usize>,
    caps: Vec<usize>,
    attrs: usize,
    kinds: usize,
    statuses: usize,
    cards: Option<CardFields>,
    zones: Option<ZoneFields>,
}

/// The numbers `statuses` holds per row and status: stacks, turns left, magnitude.
const STATUS_COLUMNS: usize = 3;

/// The bounds of those numbers.
const STATUS_BOUNDS: [(i64, i64); STATUS_COLUMNS] = [(0, BOUND), (-1, BOUND), (-BOUND, BOUND)];

/// A field being laid out: its bounds, element by element.
struct Builder {
    fields: Vec<Field>,
    low: Vec<i64>,
    high: Vec<i64>,
}

impl Builder {
    /// Adds a field whose element `i` is bounded by `bounds(i)`; its offset.
    fn add(
        &mut self,
        name: &str,
        shape: &[usize],
        doc: &str,
        bounds: impl Fn(usize) -> (i64, i64),
    ) -> usize {
        let offset = self.low.len();
        let len: usize = shape.iter().product();
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for i in 0..len {
            let (l, h) = bounds(i);
            let l = l.clamp(-BOUND, BOUND);
            // A number that can take one value only is still given two, so
            // no bound is degenerate (PettingZoo's API test warns of equal bounds).
            let h = h.clamp(-BOUND, BOUND).max(l + 1);
            self.low.push(l);
            self.high.push(h);
            lo = lo.min(l);
            hi = hi.max(h);
        }
        self.fields.push(Field {
            name: name.to_string(),
            offset,
            shape: shape.to_vec(),
            low: if len == 0 { 0 } else { lo },
            high: if len == 0 { 1 } else { hi },
            doc: doc.to_string(),
        });
        offset
    }
}

/// The names of the other seats' fields, in seat order after the observer:
/// `other` with two seats, `other1`, `other2`… with more.
fn others(seats: usize) -> Vec<String> {
    match seats {
        0 | 1 => Vec::new(),
        2 => vec!["other".to_string()],
        n => (1..n).map(|k| format!("other{k}")).collect(),
    }
}

impl ObsLayout {
    /// The observation of `rules` played with `cards`, its entities ranked as
    /// `space` ranks them.
    pub fn new(rules: &RuleSet, cards: &[Card], space: &ActionSpace) -> ObsLayout {
        let seats = rules.seats.len();
        let zoned = rules.zones.as_ref().filter(|z| !z.classic);
        let caps = space.rank_caps().to_vec();
        let mut kind_rows = Vec::with_capacity(caps.len());
        let mut rows = 0;
        for &cap in &caps {
            kind_rows.push(rows);
            rows += cap;
        }
        let (attrs, kinds, statuses) =
            (rules.attributes.len(), space.kinds(), rules.statuses.len());
        let mut b = Builder {
            fields: Vec::new(),
            low: Vec::new(),
            high: Vec::new(),
        };
        let seat_at = b.add("seat", &[seats], "which seat observes: a one-hot", |_| {
            (0, 1)
        });
        // A deck with reactions has one more phase, -2: answering a card;
        // one whose cards choose more than one target another, -3.
        let reacts = space.pass_index().is_some();
        let aims_later = space.later.is_some();
        let doc = match (reacts, aims_later) {
            (false, false) => {
                "the turn and the round (from 1); the phase (0 to act, n while n cards must be \
                 discarded, -1 between turns or once the game is over); the actions taken this \
                 turn; 1 when the observer is to move"
            }
            (true, false) => {
                "the turn and the round (from 1); the phase (0 to act, n while n cards must be \
                 discarded, -1 between turns or once the game is over, -2 while answering \
                 another seat's card); the actions taken this turn; 1 when the observer is to move"
            }
            (_, true) => {
                "the turn and the round (from 1); the phase (0 to act, n while n cards must be \
                 discarded, -1 between turns or once the game is over, -2 while answering \
                 another seat's card, -3 while choosing a later target of the card being \
                 played); the actions taken this turn; 1 when the observer is to move"
            }
        };
        let turn_at = b.add("turn", &[5], doc, |i| {
            let low = match (reacts, aims_later) {
                (_, true) => -3,
                (true, false) => -2,
                (false, false) => -1,
            };
            [(0, BOUND), (0, BOUND), (low, 255), (0, BOUND), (0, 1)][i]
        });
        let turn_kind_at = (rules.turn_kinds.len() > 1).then(|| {
            b.add(
                "turn-kind",
                &[rules.turn_kinds.len()],
                "the kind of the turn being taken: a one-hot over `:turn-kinds`",
                |_| (0, 1),
            )
        });
        let width = attrs + kinds + 1;
        let mut entities_doc = "a row per rank of each kind, kinds in declaration order (of \
             the seats' kind, the observer's seat first, then the others in seat order): each \
             attribute's value, the kind as a one-hot, 1 while in play (a row no entity has \
             yet, or whose entity left play, holds zeros but for its kind)"
            .to_string();
        if zoned.is_some() {
            entities_doc.push_str("; cards are no rows: they are observed in their zones");
        }
        let entities_at = b.add("entities", &[rows, width], &entities_doc, |i| {
            match i % width {
                a if a < attrs => rules.bounds.as_slice()[a],
                _ => (0, 1),
            }
        });
        let statuses_at = (statuses > 0).then(|| {
            b.add(
                "statuses",
                &[rows, statuses, STATUS_COLUMNS],
                "for each row of `entities` and each status it may see: the stacks held, \
                 the turns left (-1 for one that does not run out; the most among its \
                 instances), and the sum of the instances' magnitudes",
                |i| STATUS_BOUNDS[i % STATUS_COLUMNS],
            )
        });
        // The most moves a kind has: each row's one-hot, then the amount shown.
        let moves = rules.scripts.iter().flatten().map(|s| s.moves.len()).max();
        let intents_at = moves.map(|m| {
            let at = b.add(
                "intents",
                &[rows, m + 1],
                "for each row of `entities` that is a scripted enemy, the move it intends \
                 (shown to every seat before they act) as a one-hot over its kind's \
                 `:moves` in the order written, then the amount shown with it (0 for none)",
                |i| {
                    if i % (m + 1) == m {
                        (-BOUND, BOUND)
                    } else {
                        (0, 1)
                    }
                },
            );
            (at, m)
        });
        let (zones, cards) = match zoned {
            Some(set) => (
                Some(Self::zone_fields(
                    &mut b,
                    rules,
                    set,
                    cards,
                    space.hand_slots(),
                )),
                None,
            ),
            None => (
                None,
                rules.cards.as_ref().map(|zones| {
                    Self::card_fields(&mut b, zones, cards, seats, space.hand_slots())
                }),
            ),
        };
        ObsLayout {
            fields: b.fields,
            low: b.low,
            high: b.high,
            seats,
            seat_at,
            turn_at,
            turn_kind_at,
            entities_at,
            statuses_at,
            intents_at,
            kind_rows,
            caps,
            attrs,
            kinds,
            statuses,
            cards,
            zones,
        }
    }

    /// The fields of the piles of `:zones` (see [`PileShape`]), laid out
    /// once for every seat: `zone:NAME` for a shared zone, `zone:NAME:me`
    /// and `zone:NAME:other` (`other1`, `other2`… past two seats) for a
    /// zone per seat; a pile the observer does not see has its count under
    /// that name and its known cards under `…:known`.
    fn zone_fields(
        b: &mut Builder,
        rules: &RuleSet,
        set: &ZoneSet,
        cards: &[Card],
        hand_slots: usize,
    ) -> ZoneFields {
        let seats = rules.seats.len();
        let mut values: Vec<AttrId> = cards
            .iter()
            .flat_map(|c| c.play.values.iter().map(|&(a, _)| a))
            .collect();
        values.sort_unstable();
        values.dedup();
        let mut f = ZoneFields {
            piles: Vec::new(),
            first: Vec::with_capacity(set.zones.len()),
            defs: cards.len(),
            values,
            costs: cards
                .iter()
                .map(|c| c.play.pay_with.map(|a| (a, c.play.cost)))
                .collect(),
            statuses: rules.statuses.len(),
        };
        let cost = |c: &Card| c.play.pay_with.map_or(0, |_| c.play.cost);
        let costs = (
            cards.iter().map(cost).min().unwrap_or(0).min(0),
            cards.iter().map(cost).max().unwrap_or(0).max(0),
        );
        // Cards made by effects can fill a pile to its capacity; without
        // them no pile holds more than the deal made.
        let creates = any_card_op(rules, cards, |op| matches!(op.verb, CardVerb::Create(_)));
        let made = dealt(set, seats, cards);
        let owners: Vec<String> = std::iter::once("me".to_string())
            .chain(others(seats))
            .collect();
        for (zone, def) in set.zones.iter_ids() {
            f.first.push(f.piles.len());
            let room = match def.slots {
                0 => usize::from(def.capacity),
                n => usize::from(def.capacity.min(n)),
            };
            let most = if creates { room } else { room.min(made) } as i64;
            let hand = set.plays == Some(zone);
            let piles: &[String] = if def.shared { &[] } else { &owners };
            for k in 0..piles.len().max(1) {
                let (name, whose) = match piles.get(k) {
                    None => (format!("zone:{}", def.name), "the".to_string()),
                    Some(o) if k == 0 => (
                        format!("zone:{}:{o}", def.name),
                        "the observer's".to_string(),
                    ),
                    Some(o) => (
                        format!("zone:{}:{o}", def.name),
                        format!("the `{o}` seat's"),
                    ),
                };
                let seen = match def.visible {
                    Visibility::All => true,
                    Visibility::Owner => k == 0 && !def.shared,
                    Visibility::Nobody => false,
                };
                let shape = if seen && (def.slots > 0 || hand) {
                    let rows = if def.slots > 0 {
                        usize::from(def.slots)
                    } else {
                        hand_slots
                    };
                    Self::slots_field(b, rules, &f, &name, &whose, &def.name, rows, hand, costs)
                } else if seen {
                    let at = b.add(
                        &name,
                        &[f.defs],
                        &format!(
                            "how many of each of the deck's cards {whose} `{}` holds (seen)",
                            def.name
                        ),
                        |_| (0, most),
                    );
                    PileShape::Bag { at }
                } else {
                    let count = b.add(
                        &name,
                        &[1],
                        &format!("how many cards {whose} `{}` holds (hidden)", def.name),
                        |_| (0, most),
                    );
                    let known = b.add(
                        &format!("{name}:known"),
                        &[f.defs],
                        &format!(
                            "how many of each of the deck's cards {whose} `{}` holds that \
                             the observer can tell (looked at, shown to it, a face-up top)",
                            def.name
                        ),
                        |_| (0, most),
                    );
                    PileShape::Hidden { count, known }
                };
                f.piles.push(shape);
            }
        }
        f
    }

    /// The field of a pile of `:zones` seen place by place.
    #[allow(clippy::too_many_arguments)]
    fn slots_field(
        b: &mut Builder,
        rules: &RuleSet,
        f: &ZoneFields,
        name: &str,
        whose: &str,
        zone: &str,
        rows: usize,
        hand: bool,
        (least, most): (i64, i64),
    ) -> PileShape {
        let width = f.width(hand);
        let values: Vec<&str> = f
            .values
            .iter()
            .map(|&a| rules.attributes[a].as_str())
            .collect();
        let mut doc = format!(
            "{whose} `{zone}`, a row per {}: the card as a one-hot over the deck's cards",
            if hand {
                "slot (the slot its play and discard indices name)"
            } else {
                "slot"
            }
        );
        if !values.is_empty() {
            doc.push_str(&format!(", its {}", values.join(" and ")));
        }
        if hand {
            doc.push_str(", its cost, 1 when its owner can pay for it now");
        } else if f.statuses > 0 {
            doc.push_str(
                ", and for each status it may see the card's stacks, turns left and \
                 magnitude (as `statuses`)",
            );
        }
        doc.push_str("; zeros where no card is");
        let (defs, fixed) = (f.defs, f.defs + f.values.len());
        let at = b.add(name, &[rows, width], &doc, |i| match i % width {
            d if d < defs => (0, 1),
            d if d < fixed => rules.bounds[f.values[d - defs]],
            d if !hand => STATUS_BOUNDS[(d - fixed) % STATUS_COLUMNS],
            d if d == fixed => (least, most),
            _ => (0, 1),
        });
        PileShape::Slots { at, rows, hand }
    }

    /// The fields of classic card zones: the observer's hand, the other
    /// hands' counts, the draw piles' counts, the discard piles' bags.
    fn card_fields(
        b: &mut Builder,
        zones: &crate::check::rules::CardZones,
        cards: &[Card],
        seats: usize,
        slots: usize,
    ) -> CardFields {
        let defs = cards.len();
        let costs: Vec<i64> = cards
            .iter()
            .map(|c| c.play.pay_with.map_or(0, |_| c.play.cost))
            .collect();
        let copies: Vec<i64> = cards.iter().map(|c| i64::from(c.play.copies)).collect();
        let deck: i64 = copies.iter().sum();
        let (least, most) = (
            costs.iter().copied().min().unwrap_or(0).min(0),
            costs.iter().copied().max().unwrap_or(0).max(0),
        );
        let width = defs + 2;
        let hand = b.add(
            "zone:hand:me",
            &[slots, width],
            "the observer's hand, a row per slot (the slot its play and discard indices \
             name): the card as a one-hot over the deck's cards, its cost, 1 when the \
             observer can pay for it now; zeros past the last card",
            |i| match i % width {
                d if d < defs => (0, 1),
                d if d == defs => (least, most),
                _ => (0, 1),
            },
        );
        let mut other_hands = None;
        for name in others(seats) {
            let at = b.add(
                &format!("zone:hand:{name}"),
                &[1],
                "how many cards that seat holds (hidden)",
                |_| (0, deck),
            );
            other_hands.get_or_insert(at);
        }
        let piles = if zones.per_seat { seats } else { 1 };
        let owners: Vec<String> = if zones.per_seat {
            std::iter::once("me".to_string())
                .chain(others(seats))
                .collect()
        } else {
            vec![String::new()]
        };
        let suffix = |o: &String| {
            if o.is_empty() {
                String::new()
            } else {
                format!(":{o}")
            }
        };
        let mut decks = None;
        for o in &owners {
            let at = b.add(
                &format!("zone:deck{}", suffix(o)),
                &[1],
                "how many cards are left to draw (hidden)",
                |_| (0, deck),
            );
            decks.get_or_insert(at);
        }
        let mut discards = None;
        for o in &owners {
            let at = b.add(
                &format!("zone:discard{}", suffix(o)),
                &[defs],
                "how many of each of the deck's cards the discard pile holds (public)",
                |i| (0, copies[i]),
            );
            discards.get_or_insert(at);
        }
        CardFields {
            hand,
            other_hands: other_hands.unwrap_or(0),
            decks: decks.unwrap_or(0),
            discards: discards.unwrap_or(0),
            piles,
            slots,
            defs,
            costs,
        }
    }

    /// The fields, in the order they lie in the observation.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// How many numbers an observation holds.
    pub fn len(&self) -> usize {
        self.low.len()
    }

    /// Whether it holds none (never: every game has a seat).
    pub fn is_empty(&self) -> bool {
        self.low.is_empty()
    }

    /// Each number's least value.
    pub fn low(&self) -> &[i64] {
        &self.low
    }

    /// Each number's greatest value.
    pub fn high(&self) -> &[i64] {
        &self.high
    }

    /// The row of `entities` of the entity of `kind` with rank `rank`, as
    /// `seat` observes: its own seat first among the seats.
    fn row(&self, kind: KindId, rank: usize, seat: usize) -> Option<usize> {
        let k = kind.index();
        if rank >= *self.caps.get(k)? {
            return None;
        }
        let rank = if k == 0 && rank < self.seats {
            (rank + self.seats - seat) % self.seats
        } else {
            rank
        };
        Some(self.kind_rows[k] + rank)
    }

    /// Writes into `out` what `seat` sees of `game` (see the module's doc),
    /// its entities ranked by `ranks`.
    pub fn encode(
        &self,
        game: &Game<'_>,
        ranks: &Ranks,
        seat: usize,
        out: &mut [i64],
    ) -> Result<(), ObserveError> {
        if seat >= self.seats {
            return Err(ObserveError::NoSuchSeat {
                seat,
                seats: self.seats,
            });
        }
        if out.len() != self.len() {
            return Err(ObserveError::WrongLength {
                got: out.len(),
                want: self.len(),
            });
        }
        out.fill(0);
        out[self.seat_at + seat] = 1;
        self.encode_turn(game, seat, out);
        self.encode_entities(game, ranks, seat, out);
        self.encode_statuses(game, ranks, seat, out);
        if let Some((base, moves)) = self.intents_at {
            for intent in game.intents() {
                let Some(row) = ranks
                    .rank(intent.entity)
                    .and_then(|(kind, rank)| self.row(kind, rank, seat))
                else {
                    continue;
                };
                let at = base + row * (moves + 1);
                if usize::from(intent.chosen) < moves {
                    out[at + usize::from(intent.chosen)] = 1;
                }
                out[at + moves] = intent.amount.unwrap_or(0);
            }
        }
        if let Some(cards) = &self.cards {
            encode_cards(cards, game, seat, out);
        }
        if let Some(zones) = &self.zones {
            encode_zones(zones, game, seat, out);
        }
        for ((v, &lo), &hi) in out.iter_mut().zip(&self.low).zip(&self.high) {
            *v = (*v).clamp(lo, hi);
        }
        Ok(())
    }

    fn encode_turn(&self, game: &Game<'_>, seat: usize, out: &mut [i64]) {
        let ctx = game.ctx();
        let phase = match ctx.phase {
            Phase::Act => 0,
            Phase::MustDiscard(n) => i64::from(n),
            Phase::BetweenTurns | Phase::Over(_) => -1,
            // Answering another seat's card, out of turn.
            Phase::React => -2,
            Phase::Target => -3,
        };
        let to_move = ctx.current.index() == seat
            && matches!(
                ctx.phase,
                Phase::Act | Phase::MustDiscard(_) | Phase::React | Phase::Target
            );
        let turn = [
            i64::from(ctx.turn),
            i64::from(ctx.round),
            phase,
            i64::from(game.actions_this_turn),
            i64::from(to_move),
        ];
        out[self.turn_at..self.turn_at + 5].copy_from_slice(&turn);
        if let Some(at) = self.turn_kind_at {
            out[at + ctx.turn_kind.index()] = 1;
        }
    }

    fn encode_entities(&self, game: &Game<'_>, ranks: &Ranks, seat: usize, out: &mut [i64]) {
        let state = game.state();
        let width = self.attrs + self.kinds + 1;
        for e in EntityId::below(state.len()) {
            let Some((kind, rank)) = ranks.rank(e) else {
                continue;
            };
            let Some(row) = self.row(kind, rank, seat) else {
                continue;
            };
            let at = self.entities_at + row * width;
            out[at + self.attrs + kind.index()] = 1;
            if state.is_live(e) {
                for a in 0..self.attrs {
                    out[at + a] = state.get(e, AttrId::new(a));
                }
                out[at + width - 1] = 1;
            }
        }
    }

    fn encode_statuses(&self, game: &Game<'_>, ranks: &Ranks, seat: usize, out: &mut [i64]) {
        let Some(base) = self.statuses_at else {
            return;
        };
        let me = EntityId::new(seat);
        for inst in game.state().statuses() {
            if !sees_status(game.rules(), me, inst) {
                continue;
            }
            let Some(row) = ranks
                .rank(inst.holder)
                .and_then(|(kind, rank)| self.row(kind, rank, seat))
            else {
                continue;
            };
            let at = base + (row * self.statuses + inst.status.index()) * STATUS_COLUMNS;
            add_status(&mut out[at..at + STATUS_COLUMNS], inst);
        }
    }
}

/// Adds one status instance to its `STATUS_COLUMNS` numbers: the stacks,
/// the turns left (the most among the instances; -1 once one does not run
/// out) and the magnitudes.
fn add_status(out: &mut [i64], inst: &Instance) {
    out[0] = out[0].saturating_add(i64::from(inst.stacks));
    let left = inst.turns_left().map_or(-1, i64::from);
    out[1] = match (out[1], left) {
        (_, -1) | (-1, _) => -1,
        (was, now) => was.max(now),
    };
    out[2] = out[2].saturating_add(inst.magnitude);
}

/// Writes the classic card zones `seat` sees into `out`.
fn encode_cards(f: &CardFields, game: &Game<'_>, seat: usize, out: &mut [i64]) {
    let seats = game.seats();
    let zones = game.zones();
    let me = EntityId::new(seat);
    let width = f.defs + 2;
    for (slot, &card) in game.hand_of(me).iter().enumerate().take(f.slots) {
        let at = f.hand + slot * width;
        if let Some(one) = out
            .get_mut(at + card.index())
            .filter(|_| card.index() < f.defs)
        {
            *one = 1;
        }
        out[at + f.defs] = f.costs.get(card.index()).copied().unwrap_or(0);
        out[at + f.defs + 1] = i64::from(zones.affordable(game.state(), me, card));
    }
    for k in 1..seats {
        let other = EntityId::new((seat + k) % seats);
        out[f.other_hands + k - 1] = game.hand_of(other).len() as i64;
    }
    for k in 0..f.piles.min(zones.piles()) {
        // Per seat, the observer's pile first.
        let pile = if f.piles == 1 { 0 } else { (seat + k) % seats };
        let (draw, discard) = zones.pile_contents(pile);
        out[f.decks + k] = draw.len() as i64;
        let bag = f.discards + k * f.defs;
        for &card in discard {
            if card.index() < f.defs {
                out[bag + card.index()] += 1;
            }
        }
    }
}

/// Writes the piles of `:zones` `seat` sees into `out`, from its view alone
/// ([`Game::view`]): a card it cannot tell is only counted.
fn encode_zones(f: &ZoneFields, game: &Game<'_>, seat: usize, out: &mut [i64]) {
    let seats = game.seats();
    let view = game.view(EntityId::new(seat));
    let value = |e: EntityId, a: AttrId| {
        view.rows
            .get(e.index())
            .and_then(|r| r.values.get(a.index()))
            .copied()
            .unwrap_or(0)
    };
    for z in &view.zones {
        let ZoneName::Zone(zone) = z.zone else {
            continue;
        };
        let k = z.owner.map_or(0, |o| (o.index() + seats - seat) % seats);
        let Some(&shape) = f.first.get(zone.index()).and_then(|&p| f.piles.get(p + k)) else {
            continue;
        };
        let cards = z
            .cards
            .iter()
            .filter_map(|s| s.card())
            .filter(|c| c.index() < f.defs);
        match shape {
            PileShape::Slots { at, rows, hand } => {
                let width = f.width(hand);
                let payer = z.owner.unwrap_or(EntityId::new(seat));
                for (i, seen) in z.cards.iter().enumerate().take(rows) {
                    let Seen::Instance(card, e) = *seen else {
                        continue;
                    };
                    let row = at + i * width;
                    if card.index() < f.defs {
                        out[row + card.index()] = 1;
                    }
                    for (j, &a) in f.values.iter().enumerate() {
                        out[row + f.defs + j] = value(e, a);
                    }
                    let at = row + f.defs + f.values.len();
                    if hand {
                        let cost = f.costs.get(card.index()).copied().flatten();
                        out[at] = cost.map_or(0, |(_, c)| c);
                        out[at + 1] =
                            i64::from(cost.is_none_or(|(a, c)| c <= 0 || value(payer, a) >= c));
                    } else if f.statuses > 0 {
                        let me = EntityId::new(seat);
                        for inst in game.state().statuses() {
                            if inst.holder == e && sees_status(game.rules(), me, inst) {
                                let s = at + inst.status.index() * STATUS_COLUMNS;
                                add_status(&mut out[s..s + STATUS_COLUMNS], inst);
                            }
                        }
                    }
                }
            }
            PileShape::Bag { at } => cards.for_each(|c| out[at + c.index()] += 1),
            PileShape::Hidden { count, known } => {
                out[count] = z.len() as i64;
                cards.for_each(|c| out[known + c.index()] += 1);
            }
        }
    }
}

/// Deals anew, with a generator of its own seeded `seed` (never the game's),
/// everything `seat` cannot see ([`Game::determinise`]): the other hands
/// and the order of the draw piles; with `:zones`, the cards of every
/// instance it cannot tell, each staying where it lies. What `seat`
/// observes must not change: tests perturb a game so.
#[doc(hidden)]
pub fn redeal_unseen(game: &mut Game<'_>, seat: usize, seed: u64) {
    let mut rng = Rng::seed_from_u64(seed);
    let mut scratch = super::view::Unseen::new();
    game.determinise(EntityId::new(seat), &mut rng, &mut scratch);
}
