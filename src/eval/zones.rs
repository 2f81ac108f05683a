//! Cards kept in zones (a rule set with `:zones`): every card of the deck is
//! an instance, an entity of its card's kind, in exactly one pile: one
//! instance of a zone (the zone itself when `:shared`, else a seat's own).
//!
//! The placement lives in [`CardTable`], behind [`State::cards`], which is
//! `None` for a rule set without `:zones` (Arcomage keeps its cards in the
//! engine's own piles). An instance outside the zones `:in-play` has the kind
//! `ZONED`, so `:each`, `count`, `:removed-when`,
//! victory and the turn queue pass over hands and decks with no test of
//! their own; entering an in-play zone gives it back its kind, and leaving
//! one takes it away again (its statuses end and its values are those of its
//! card once more). In `:removed` it is out of the game.
//!
//! A pile's cards are listed bottom first: the top of an ordered pile is the
//! end of its list. Each pile also lists its cards' definitions, in step,
//! which is what a hand shows ([`CardTable::defs`]).
//!
//! The primitives here (make, move, shuffle, draw) are what the engine's own
//! rules (deal, refill, draws, plays, overflow) and card effects use; each
//! move is an event ([`What::Moved`]), with the seats that saw the card.

use std::sync::Arc;

use rand::RngExt;
use rand::seq::SliceRandom;

use super::{Cause, Event, GONE, State, What, ZONED};
use crate::check::rules::{Layout, Overflow, RuleSet, Visibility, WhenEmpty, ZoneSet};
use crate::ids::{AttrId, CardId, EntityId, KindId, ZoneId};

/// What a card's instances are made from: their name, kind and starting values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardSpec {
    /// The card's name: what `{:create "Wisp"}` and `[named :self "Wisp"]` find.
    pub name: Box<str>,
    /// The kind an instance has while in play.
    pub kind: KindId,
    /// Its values where the rule set's defaults do not say (`:values`).
    pub values: Vec<(AttrId, i64)>,
    /// The statuses of its keywords, held while in play (`:keywords`).
    pub keywords: Vec<crate::ids::StatusId>,
}

/// Where [`move_card`] puts a card in its pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// On top: the end of the list (a board's first empty slot, for `:sites`).
    Top,
    /// At the bottom: the start of the list.
    Bottom,
    /// At a random place, drawn from the state's generator.
    Random,
    /// In this slot: before the card there in a `:row`, or that empty site.
    Slot(u16),
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    /// The card is in the pile asked for.
    Done,
    /// The pile was full and refuses it: it stays where it was.
    Refused,
    /// The pile was full: it went where the pile's `:overflow` says (or out of the game).
    Overflowed,
}

/// The `from` of a [`What::Moved`] for a card just made.
pub const MADE: u16 = u16::MAX;

/// One instance: its card, its kind in play, its pile and who knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    /// Its card; [`NOT_A_CARD`] for an entity that is no card.
    def: CardId,
    /// The kind it has in an in-play zone.
    kind: KindId,
    /// Its pile.
    pile: u16,
    /// The seats that know which card it is: bit `s` for seat `s`.
    known: u64,
}

const NOT_A_CARD: CardId = CardId::MAX;

/// An empty site of a `:sites` board.
const HOLE: EntityId = EntityId::MAX;

/// Where every card instance of a game is.
#[derive(Debug, PartialEq)]
pub struct CardTable {
    /// Each card's kind and values, by [`CardId`]: shared, never changed.
    specs: Arc<[CardSpec]>,
    /// Each entity's card and place, by entity number (non-cards marked).
    placed: Vec<Placed>,
    /// Each pile's instances, bottom first; [`HOLE`] for an empty site.
    piles: Vec<Vec<EntityId>>,
    /// Each pile's cards, in step with `piles` ([`CardId::MAX`] for a hole).
    defs: Vec<Vec<CardId>>,
    /// Each zone's first pile.
    first: Vec<u16>,
    /// Each pile's zone.
    zone: Vec<ZoneId>,
    /// Whether each pile is a board's (its zone has `:slots`).
    boards: Vec<bool>,
    /// How many seats play.
    seats: u16,
    /// The card whose effects run: what `:this-card` means.
    this_card: EntityId,
    /// Cards with keywords come into play since their keywords were last given.
    entered: Vec<EntityId>,
    /// The discards effects left for their seats to choose (`:pick :chosen`),
    /// in order, for the engine to offer once the effects are done.
    requests: Vec<CardRequest>,
    /// The cards reactions' `{:cancel …}` stopped, each with the instance
    /// whose effects did, for the engine to take once those effects are done.
    cancelled: Vec<(EntityId, EntityId)>,
    /// The cards loops and selections go through, each one's above the
    /// last's: a snapshot taken as each begins, so none allocates.
    pub(super) scratch: Vec<EntityId>,
}

impl Clone for CardTable {
    fn clone(&self) -> CardTable {
        let mut copy = CardTable::empty(Arc::clone(&self.specs), self.seats);
        copy.clone_from(self);
        copy
    }

    /// Copies into the buffers already held, each pile into its own: a
    /// search copies the table into a world of its once an iteration.
    fn clone_from(&mut self, source: &CardTable) {
        // Destructured, so a field added and not copied here fails to compile.
        let CardTable {
            specs,
            placed,
            piles,
            defs,
            first,
            zone,
            boards,
            seats,
            this_card,
            entered,
            requests,
            cancelled,
            scratch,
        } = source;
        if !Arc::ptr_eq(&self.specs, specs) {
            self.specs = Arc::clone(specs);
        }
        self.placed.clone_from(placed);
        self.piles.clone_from(piles);
        self.defs.clone_from(defs);
        self.first.clone_from(first);
        self.zone.clone_from(zone);
        self.boards.clone_from(boards);
        self.seats = *seats;
        self.this_card = *this_card;
        self.entered.clone_from(entered);
        self.requests.clone_from(requests);
        self.cancelled.clone_from(cancelled);
        self.scratch.clone_from(scratch);
    }
}

/// A discard an effect left for a seat to choose (`:pick :chosen`): the
/// engine offers it as soon as the effects that asked for it are done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardRequest {
    /// The seat that chooses, from its hand.
    pub seat: EntityId,
    /// How many cards it discards (fewer when it holds fewer it may discard).
    pub count: u16,
}

impl CardTable {
    /// Empty piles for `rules`' zones in a game of `seats` seats (at most 64),
    /// for cards made as `specs` say.
    pub fn new(rules: &RuleSet, seats: usize, specs: Arc<[CardSpec]>) -> CardTable {
        let mut table = CardTable::empty(specs, seats.min(64) as u16);
        table.clear(rules);
        table
    }

    /// No piles, no instances and no buffers yet: [`CardTable::new`] lays
    /// out the rule set's piles in it, a copy fills it from its source.
    fn empty(specs: Arc<[CardSpec]>, seats: u16) -> CardTable {
        CardTable {
            specs,
            placed: Vec::new(),
            piles: Vec::new(),
            defs: Vec::new(),
            first: Vec::new(),
            zone: Vec::new(),
            boards: Vec::new(),
            seats,
            this_card: EntityId::FIRST,
            entered: Vec::new(),
            requests: Vec::new(),
            cancelled: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Empties every pile and forgets every instance, keeping the buffers.
    pub fn clear(&mut self, rules: &RuleSet) {
        self.placed.clear();
        self.first.clear();
        self.zone.clear();
        self.boards.clear();
        self.this_card = EntityId::FIRST;
        self.entered.clear();
        self.requests.clear();
        self.cancelled.clear();
        self.scratch.clear();
        let Some(set) = rules.zones.as_ref() else {
            self.piles.clear();
            self.defs.clear();
            return;
        };
        for i in 0..set.zones.len() {
            self.first.push(self.zone.len() as u16);
            let n = set.instances(ZoneId::new(i), usize::from(self.seats));
            self.zone.extend(std::iter::repeat_n(ZoneId::new(i), n));
        }
        let piles = self.zone.len();
        self.piles.resize_with(piles, Vec::new);
        self.defs.resize_with(piles, Vec::new);
        self.piles.truncate(piles);
        self.defs.truncate(piles);
        self.boards
            .extend(self.zone.iter().map(|z| set.zones[*z].slots > 0));
        for (p, zone) in self.zone.iter().enumerate() {
            let def = &set.zones[*zone];
            let (pile, defs) = (&mut self.piles[p], &mut self.defs[p]);
            pile.clear();
            defs.clear();
            if def.layout == Layout::Sites && def.slots > 0 {
                pile.resize(usize::from(def.slots), HOLE);
                defs.resize(usize::from(def.slots), CardId::MAX);
            }
        }
    }

    /// How many piles there are.
    pub fn piles(&self) -> usize {
        self.piles.len()
    }

    /// The pile of zone `zone` that `owner` owns: the zone's own when shared;
    /// `None` for a zone per seat and an owner that is no seat.
    #[inline]
    pub fn pile(&self, set: &ZoneSet, zone: ZoneId, owner: EntityId) -> Option<usize> {
        let first = usize::from(*self.first.get(zone.index())?);
        if set.zones[zone].shared {
            Some(first)
        } else {
            (owner.index() < usize::from(self.seats)).then(|| first + owner.index())
        }
    }

    /// The pile of zone `zone` that `owner` owns, or the zone's own for
    /// `None` (a shared zone): for effects and queries, whose zone and owner
    /// the checker matched. `None` for an owner that is no seat.
    #[inline]
    pub fn pile_at(&self, zone: ZoneId, owner: Option<EntityId>) -> Option<usize> {
        let first = usize::from(*self.first.get(zone.index())?);
        match owner {
            None => Some(first),
            Some(o) => (o.index() < usize::from(self.seats)).then(|| first + o.index()),
        }
    }

    /// Whether pile `pile` is a board's (its zone has `:slots`).
    pub fn is_board(&self, pile: usize) -> bool {
        self.boards.get(pile).copied().unwrap_or(false)
    }

    /// Where `entity` is in its pile, from the bottom (a board's slot).
    pub fn position(&self, entity: EntityId) -> Option<usize> {
        let pile = self.pile_of(entity)?;
        self.piles[pile].iter().rposition(|&e| e == entity)
    }

    /// The card called `name`, if the game has one.
    pub fn card_named(&self, name: &str) -> Option<CardId> {
        self.specs
            .iter()
            .position(|s| &*s.name == name)
            .map(CardId::new)
    }

    /// Whether `entity` is an instance of the card called `name`.
    pub fn is_named(&self, entity: EntityId, name: &str) -> bool {
        self.card(entity)
            .and_then(|d| self.specs.get(d.index()))
            .is_some_and(|s| &*s.name == name)
    }

    /// How many seats play.
    pub fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    /// The card whose effects run (`:this-card`).
    pub fn this_card(&self) -> EntityId {
        self.this_card
    }

    /// Makes `entity` the card whose effects run (`:this-card`).
    pub fn set_this_card(&mut self, entity: EntityId) {
        self.this_card = entity;
    }

    /// The cards with keywords come into play since this was last asked,
    /// taken (the list is handed back with [`CardTable::give_back_entered`]),
    /// and the specs their keywords are read from.
    pub fn take_entered(&mut self) -> (Vec<EntityId>, Arc<[CardSpec]>) {
        (std::mem::take(&mut self.entered), Arc::clone(&self.specs))
    }

    /// Hands back the list [`CardTable::take_entered`] took, emptied, to be
    /// filled again without allocating (unless more entered meanwhile).
    pub fn give_back_entered(&mut self, mut entered: Vec<EntityId>) {
        if self.entered.is_empty() {
            entered.clear();
            self.entered = entered;
        }
    }

    /// The statuses of the keywords of the card whose instance `entity` is.
    pub fn keywords_of<'s>(
        &self,
        specs: &'s [CardSpec],
        entity: EntityId,
    ) -> &'s [crate::ids::StatusId] {
        self.placed
            .get(entity.index())
            .and_then(|p| specs.get(p.def.index()))
            .map_or(&[], |s| &s.keywords)
    }

    /// Asks the engine to let `seat` choose `count` cards of its hand to discard.
    pub fn request(&mut self, request: CardRequest) {
        self.requests.push(request);
    }

    /// The first discard left to choose, taken.
    pub fn take_request(&mut self) -> Option<CardRequest> {
        (!self.requests.is_empty()).then(|| self.requests.remove(0))
    }

    /// Notes that `card` is cancelled by the card whose effects run now
    /// (`:this-card`): a reaction's `{:cancel :subject}`.
    pub fn cancel(&mut self, card: EntityId) {
        let by = self.this_card;
        self.cancelled.push((card, by));
    }

    /// The cards cancelled since last asked, each with the instance that
    /// cancelled it, in order; taken.
    pub fn take_cancelled(&mut self) -> Vec<(EntityId, EntityId)> {
        std::mem::take(&mut self.cancelled)
    }

    /// Whether discards wait to be chosen.
    pub fn has_requests(&self) -> bool {
        !self.requests.is_empty()
    }

    /// `seats` (bit `s` for seat `s`) see card `entity` and know it until
    /// its place is lost to them.
    pub fn show(&mut self, entity: EntityId, seats: u64) {
        if self.card(entity).is_some() {
            self.placed[entity.index()].known |= seats;
        }
    }

    /// Copies pile `pile`'s cards onto the scratch stack, bottom first (or,
    /// with `beside`, those just left and right of that place): where they
    /// start and end there.
    pub(super) fn snapshot(&mut self, pile: usize, beside: Option<usize>) -> (usize, usize) {
        let start = self.scratch.len();
        let Some(cards) = self.piles.get(pile) else {
            return (start, start);
        };
        match beside {
            None => self.scratch.extend(cards.iter().filter(|&&e| e != HOLE)),
            Some(at) => {
                let left = at.checked_sub(1).and_then(|i| cards.get(i));
                let right = cards.get(at + 1);
                self.scratch
                    .extend(left.into_iter().chain(right).filter(|&&e| e != HOLE));
            }
        }
        (start, self.scratch.len())
    }

    /// Every seat, as a mask.
    pub fn all_seats(&self) -> u64 {
        if self.seats >= 64 {
            u64::MAX
        } else {
            (1u64 << self.seats) - 1
        }
    }

    /// The zone pile `pile` is of.
    pub fn zone_of(&self, pile: usize) -> ZoneId {
        self.zone[pile]
    }

    /// The seat that owns pile `pile`; `None` for a shared zone's.
    pub fn owner_of(&self, set: &ZoneSet, pile: usize) -> Option<EntityId> {
        let zone = self.zone[pile];
        (!set.zones[zone].shared)
            .then(|| EntityId::new(pile - usize::from(self.first[zone.index()])))
    }

    /// Pile `pile`'s instances, bottom first ([`EntityId::MAX`] for an empty site).
    #[inline]
    pub fn contents(&self, pile: usize) -> &[EntityId] {
        self.piles.get(pile).map_or(&[], Vec::as_slice)
    }

    /// Pile `pile`'s cards, in step with [`CardTable::contents`].
    #[inline]
    pub fn defs(&self, pile: usize) -> &[CardId] {
        self.defs.get(pile).map_or(&[], Vec::as_slice)
    }

    /// How many cards pile `pile` holds (a board's empty sites not counted).
    pub fn count(&self, pile: usize) -> usize {
        self.contents(pile).iter().filter(|&&e| e != HOLE).count()
    }

    /// The card `entity` is an instance of, if it is one.
    #[inline]
    pub fn card(&self, entity: EntityId) -> Option<CardId> {
        self.placed
            .get(entity.index())
            .map(|p| p.def)
            .filter(|&d| d != NOT_A_CARD)
    }

    /// The pile instance `entity` is in, if it is a card.
    pub fn pile_of(&self, entity: EntityId) -> Option<usize> {
        self.card(entity)
            .map(|_| usize::from(self.placed[entity.index()].pile))
    }

    /// The seats that know which card `entity` is: bit `s` for seat `s`.
    pub fn known(&self, entity: EntityId) -> u64 {
        self.placed.get(entity.index()).map_or(0, |p| p.known)
    }

    /// The kind instance `entity` has while in play.
    pub fn kind_in_play(&self, entity: EntityId) -> Option<KindId> {
        self.card(entity).map(|_| self.placed[entity.index()].kind)
    }

    /// Every card instance, in the order they were made.
    pub fn instances(&self) -> impl Iterator<Item = EntityId> + '_ {
        (0..self.placed.len())
            .map(EntityId::new)
            .filter(|&e| self.card(e).is_some())
    }

    /// The seats that see the cards of pile `pile`: every seat, its owner, or none.
    pub fn visible_to(&self, set: &ZoneSet, pile: usize) -> u64 {
        let all = self.all_seats();
        match set.zones[self.zone[pile]].visible {
            Visibility::All => all,
            Visibility::Owner => self.owner_of(set, pile).map_or(0, |o| 1u64 << o.index()),
            Visibility::Nobody => 0,
        }
    }

    /// The seats that see which card `entity` is, where it lies now: those
    /// that see its pile, those that see it on top of a `:top-visible` pile.
    fn sight(&self, set: &ZoneSet, pile: usize, entity: EntityId) -> u64 {
        let on_top = set.zones[self.zone[pile]].top_visible
            && self.piles[pile].iter().rev().find(|&&e| e != HOLE) == Some(&entity);
        if on_top {
            self.all_seats()
        } else {
            self.visible_to(set, pile)
        }
    }

    /// Whether `seat` may tell which card `entity` is: it sees its pile, or
    /// it on top of a `:top-visible` pile, or knows it (looked at, shown,
    /// or followed there). False for an entity that is no card.
    pub fn sees(&self, set: &ZoneSet, seat: EntityId, entity: EntityId) -> bool {
        let Some(pile) = self.pile_of(entity) else {
            return false;
        };
        let bit = 1u64 << seat.index().min(63);
        (self.sight(set, pile, entity) | self.known(entity)) & bit != 0
    }

    /// Pile `pile`'s instances, to break behind the engine's back: only for
    /// tests of the invariants, which must be shown broken tables.
    #[doc(hidden)]
    pub fn pile_mut_unchecked(&mut self, pile: usize) -> &mut Vec<EntityId> {
        &mut self.piles[pile]
    }

    /// Sets what seats know of `entity` behind the engine's back: only for
    /// tests of the invariants.
    #[doc(hidden)]
    pub fn set_known_unchecked(&mut self, entity: EntityId, known: u64) {
        if let Some(p) = self.placed.get_mut(entity.index()) {
            p.known = known;
        }
    }

    /// Whether pile `pile` has room for one more card.
    fn has_room(&self, set: &ZoneSet, pile: usize) -> bool {
        let def = &set.zones[self.zone[pile]];
        self.count(pile) < usize::from(def.capacity)
    }

    /// Takes `entity` out of its pile (a `:row` closes the gap, a site is left
    /// empty); where it was.
    fn take(&mut self, set: &ZoneSet, entity: EntityId) -> Option<(usize, usize)> {
        let pile = self.pile_of(entity)?;
        let at = self.piles[pile].iter().rposition(|&e| e == entity)?;
        if set.zones[self.zone[pile]].layout == Layout::Sites
            && set.zones[self.zone[pile]].slots > 0
        {
            self.piles[pile][at] = HOLE;
            self.defs[pile][at] = CardId::MAX;
        } else {
            self.piles[pile].remove(at);
            self.defs[pile].remove(at);
        }
        Some((pile, at))
    }

    /// Puts `entity` (taken out of its pile) into `pile` at `at`, which has
    /// room; where it went. A slot past the end of a row is its end; a site
    /// taken, or past the board, is the first empty one.
    fn put(&mut self, set: &ZoneSet, entity: EntityId, pile: usize, at: usize) -> usize {
        let def = self.placed[entity.index()].def;
        let zone = &set.zones[self.zone[pile]];
        let list = &mut self.piles[pile];
        let at = if zone.layout == Layout::Sites && zone.slots > 0 {
            match list.get(at) {
                Some(&HOLE) => at,
                _ => list.iter().position(|&e| e == HOLE).unwrap_or(0),
            }
        } else {
            at.min(list.len())
        };
        if zone.layout == Layout::Sites && zone.slots > 0 {
            list[at] = entity;
            self.defs[pile][at] = def;
        } else {
            list.insert(at, entity);
            self.defs[pile].insert(at, def);
        }
        self.placed[entity.index()].pile = pile as u16;
        at
    }
}

/// Makes the deck's cards in every `:start` zone (each zone in order, each
/// seat's pile in seat order; `copies[card]` of every card in deck order),
/// and shuffles the ordered ones as each is made, from the state's
/// generator: a fresh table, replacing any the state had.
pub fn setup(
    rules: &RuleSet,
    state: &mut State,
    seats: usize,
    specs: Arc<[CardSpec]>,
    copies: &[u8],
    events: &mut Vec<Event>,
) {
    let Some(set) = rules.zones.as_ref() else {
        return;
    };
    match state.cards.as_deref_mut() {
        Some(table) => {
            table.specs = specs;
            table.seats = seats.min(64) as u16;
            table.clear(rules);
        }
        None => state.cards = Some(Box::new(CardTable::new(rules, seats, specs))),
    }
    for (z, zone) in set.zones.iter().enumerate() {
        if !zone.start {
            continue;
        }
        for owner in 0..set.instances(ZoneId::new(z), seats) {
            let Some(pile) = table(state).pile(set, ZoneId::new(z), EntityId::new(owner)) else {
                continue;
            };
            for (card, &n) in copies.iter().enumerate() {
                for _ in 0..n {
                    let entity = new_instance(rules, state, CardId::new(card));
                    place(rules, state, entity, pile, usize::MAX);
                }
            }
            if zone.ordered {
                shuffle(rules, state, pile, Cause::effect(0), events);
            }
        }
    }
}

/// The table of a state that has one.
fn table(state: &mut State) -> &mut CardTable {
    state
        .cards
        .as_deref_mut()
        .expect("a game with `:zones` keeps a card table")
}

/// A new entity for card `def`, with the rule set's defaults and the card's
/// values, placed nowhere yet.
fn new_instance(rules: &RuleSet, state: &mut State, def: CardId) -> EntityId {
    let spec_kind = state
        .cards
        .as_deref()
        .and_then(|t| t.specs.get(def.index()))
        .map_or(KindId::FIRST, |s| s.kind);
    let entity = state.add(rules, ZONED);
    reset_values(rules, state, entity, def);
    let t = table(state);
    let free = Placed {
        def: NOT_A_CARD,
        kind: KindId::FIRST,
        pile: 0,
        known: 0,
    };
    if t.placed.len() <= entity.index() {
        t.placed.resize(entity.index() + 1, free);
    }
    t.placed[entity.index()] = Placed {
        def,
        kind: spec_kind,
        pile: 0,
        known: 0,
    };
    entity
}

/// Gives `entity` the values an instance of `def` starts with.
fn reset_values(rules: &RuleSet, state: &mut State, entity: EntityId, def: CardId) {
    for (a, attr) in rules.attribute_defs.iter().enumerate() {
        state.put(entity, AttrId::new(a), attr.default);
    }
    // The specs are shared and never change: held by a count, not copied.
    let Some(specs) = state.cards.as_deref().map(|t| Arc::clone(&t.specs)) else {
        return;
    };
    for &(attr, value) in specs.get(def.index()).map_or(&[][..], |s| &s.values) {
        state.put(entity, attr, value);
    }
}

/// Puts `entity`, in no pile, into `pile` at `at`, with the kind the pile's
/// zone gives it and what its seats may see of it; where it went.
fn place(rules: &RuleSet, state: &mut State, entity: EntityId, pile: usize, at: usize) -> usize {
    let Some(set) = rules.zones.as_ref() else {
        return 0;
    };
    let t = table(state);
    let at = t.put(set, entity, pile, at);
    let visible = t.visible_to(set, pile);
    let placed = &mut t.placed[entity.index()];
    placed.known |= visible;
    let (zone, kind) = (&set.zones[t.zone[pile]], placed.kind);
    let kind = if t.zone[pile] == set.removed {
        GONE
    } else if zone.in_play {
        kind
    } else {
        ZONED
    };
    state.kinds[entity.index()] = kind;
    if kind == GONE {
        state.instances.retain(|i| i.holder != entity);
    }
    at
}

/// Makes a new instance of card `def` in `pile` at `at`: a token, a card a
/// scenario gives. `None` when the pile is full (nothing is made).
pub fn create(
    rules: &RuleSet,
    state: &mut State,
    def: CardId,
    (pile, at): (usize, At),
    cause: Cause,
    events: &mut Vec<Event>,
) -> Option<EntityId> {
    let set = rules.zones.as_ref()?;
    let t = state.cards.as_deref()?;
    if pile >= t.piles() || !t.has_room(set, pile) {
        return None;
    }
    let index = match at {
        At::Top => usize::MAX,
        At::Bottom => 0,
        At::Slot(s) => usize::from(s),
        At::Random => state.rng.random_range(0..=t.contents(pile).len()),
    };
    let entity = new_instance(rules, state, def);
    let at = place(rules, state, entity, pile, index);
    let known = table(state).placed[entity.index()].known;
    events.push(Event {
        entity,
        what: What::Moved(MADE, pile as u16),
        before: known as i64,
        after: at as i64,
        cause,
    });
    entered(state, entity);
    Some(entity)
}

/// Notes that card `entity` has just come into play (or been made there),
/// when its card has keywords, for them to be given once the change is done
/// ([`CardTable::take_entered`]).
fn entered(state: &mut State, entity: EntityId) {
    let in_play = state.kind(entity).is_some();
    let t = table(state);
    let keyworded = t
        .card(entity)
        .and_then(|c| t.specs.get(c.index()))
        .is_some_and(|s| !s.keywords.is_empty());
    if in_play && keyworded {
        t.entered.push(entity);
    }
}

/// Moves card `entity` into `pile` at `at`. A full pile refuses it, or sends
/// it where its zone's `:overflow` says (out of the game, or another zone's
/// pile of the same owner, or out of the game if that is full too).
pub fn move_card(
    rules: &RuleSet,
    state: &mut State,
    entity: EntityId,
    pile: usize,
    at: At,
    cause: Cause,
    events: &mut Vec<Event>,
) -> Moved {
    let (Some(set), Some(t)) = (rules.zones.as_ref(), state.cards.as_deref()) else {
        return Moved::Refused;
    };
    if t.card(entity).is_none() || pile >= t.piles() {
        return Moved::Refused;
    }
    if t.has_room(set, pile) {
        relocate(rules, state, entity, pile, at, cause, events);
        return Moved::Done;
    }
    let owner = t.owner_of(set, pile).unwrap_or(EntityId::FIRST);
    let spill = match set.zones[t.zone_of(pile)].overflow {
        Overflow::Refuse => return Moved::Refused,
        Overflow::Destroy => None,
        Overflow::To(zone) => t.pile(set, zone, owner).filter(|&p| t.has_room(set, p)),
    };
    let removed = t.pile(set, set.removed, owner).unwrap_or(0);
    relocate(
        rules,
        state,
        entity,
        spill.unwrap_or(removed),
        At::Top,
        cause,
        events,
    );
    Moved::Overflowed
}

/// Moves `entity` into `pile`, which has room, and logs the move.
fn relocate(
    rules: &RuleSet,
    state: &mut State,
    entity: EntityId,
    pile: usize,
    at: At,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let Some(set) = rules.zones.as_ref() else {
        return;
    };
    let t = table(state);
    // Seen on top of a `:top-visible` pile, it is known to all as it leaves.
    let from_visible = match t.pile_of(entity) {
        Some(from) => t.sight(set, from, entity),
        None => return,
    };
    let Some((from, _)) = t.take(set, entity) else {
        return;
    };
    // A seat that cannot see the pile it leaves cannot tell which card
    // left: what it knew of this one is gone (a card seen in another's
    // hand, then put back in the deck face down, is not known there). One
    // that saw it on a face-up top saw it go, and knows it.
    let on_top = from_visible != t.visible_to(set, from);
    let placed = &mut t.placed[entity.index()];
    placed.known = match on_top {
        true => from_visible,
        false => placed.known & from_visible,
    };
    let before = t.placed[entity.index()].known;
    let was_in_play = set.zones[t.zone[from]].in_play;
    let index = match at {
        At::Top => usize::MAX,
        At::Bottom => 0,
        At::Slot(s) => usize::from(s),
        At::Random => {
            let n = t.contents(pile).len();
            let k = state.rng.random_range(0..=n);
            // Its place is known to nobody who cannot see the pile.
            table(state).placed[entity.index()].known = 0;
            k
        }
    };
    let now_in_play = set.zones[table(state).zone[pile]].in_play;
    if was_in_play && !now_in_play {
        // Out of play it is its card again: no statuses, its printed values.
        state.instances.retain(|i| i.holder != entity);
        let def = table(state).placed[entity.index()].def;
        reset_values(rules, state, entity, def);
    }
    let put = place(rules, state, entity, pile, index);
    let after = table(state).placed[entity.index()].known;
    events.push(Event {
        entity,
        what: What::Moved(from as u16, pile as u16),
        before: (before | after) as i64,
        after: put as i64,
        cause,
    });
    if now_in_play && !was_in_play {
        entered(state, entity);
    }
}

/// Shuffles `pile` with the state's generator (the same draws as shuffling
/// any list of its length): what each seat knew of its cards' places is lost,
/// bar what the pile shows anyway.
pub fn shuffle(
    rules: &RuleSet,
    state: &mut State,
    pile: usize,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    shuffle_logged(rules, state, pile, (MADE, 0), cause, events);
}

/// [`shuffle`], its event saying the `moved` cards of pile `from` came
/// onto it first ([`MADE`] and 0 for a plain shuffle).
fn shuffle_logged(
    rules: &RuleSet,
    state: &mut State,
    pile: usize,
    (from, moved): (u16, usize),
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let Some(set) = rules.zones.as_ref() else {
        return;
    };
    let Some(t) = state.cards.as_deref_mut() else {
        return;
    };
    let Some(list) = t.piles.get_mut(pile) else {
        return;
    };
    list.shuffle(&mut state.rng);
    let visible = t.visible_to(set, pile);
    let (list, defs) = (&t.piles[pile], &mut t.defs[pile]);
    defs.clear();
    for &e in list {
        let placed = &mut t.placed[e.index()];
        placed.known &= visible;
        defs.push(placed.def);
    }
    events.push(Event {
        entity: EntityId::FIRST,
        what: What::Shuffled(pile as u16, from),
        before: moved as i64,
        after: list.len() as i64,
        cause,
    });
}

/// Every seat's pile of zone `zone` (one per seat) moves, whole, in order
/// and all at once, to the next seat's (`next`) or the previous seat's: the
/// cards keep their ids, their places and what they are. The seat that
/// receives a pile sees it as its zone lets its owner (and knows its cards
/// from then on); the seats that knew a card still know it, the one that
/// passed it too. One move event a card, in seat order, bottom first.
pub fn pass(
    rules: &RuleSet,
    state: &mut State,
    zone: ZoneId,
    next: bool,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let (Some(set), Some(t)) = (rules.zones.as_ref(), state.cards.as_deref_mut()) else {
        return;
    };
    let seats = usize::from(t.seats);
    if seats < 2 || set.zones.get(zone).is_none_or(|z| z.shared) {
        return;
    }
    let piles: Vec<usize> = (0..seats)
        .filter_map(|s| t.pile(set, zone, EntityId::new(s)))
        .collect();
    if piles.len() != seats {
        return;
    }
    // The piles are one zone's: the same capacity and layout, so each fits where it goes.
    let lists: Vec<(Vec<EntityId>, Vec<CardId>)> = piles
        .iter()
        .map(|&p| {
            (
                std::mem::take(&mut t.piles[p]),
                std::mem::take(&mut t.defs[p]),
            )
        })
        .collect();
    for (s, (cards, defs)) in lists.into_iter().enumerate() {
        let (from, to) = (
            piles[s],
            piles[if next {
                (s + 1) % seats
            } else {
                (s + seats - 1) % seats
            }],
        );
        let visible = t.visible_to(set, to);
        for (at, &e) in cards.iter().enumerate() {
            if e == HOLE {
                continue;
            }
            let placed = &mut t.placed[e.index()];
            let before = placed.known;
            placed.pile = to as u16;
            placed.known |= visible;
            events.push(Event {
                entity: e,
                what: What::Moved(from as u16, to as u16),
                before: (before | placed.known) as i64,
                after: at as i64,
                cause,
            });
        }
        t.piles[to] = cards;
        t.defs[to] = defs;
    }
}

/// Moves every card of `from` onto `into`, bottom first, keeping their order,
/// then shuffles `into`: one event, not one a card.
fn reshuffle(
    rules: &RuleSet,
    state: &mut State,
    from: usize,
    into: usize,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let Some(set) = rules.zones.as_ref() else {
        return;
    };
    // Through the scratch stack, so a reshuffle in a search allocates nothing.
    let (start, end) = table(state).snapshot(from, None);
    for i in start..end {
        let t = table(state);
        let e = t.scratch[i];
        t.take(set, e);
        place(rules, state, e, into, usize::MAX);
    }
    table(state).scratch.truncate(start);
    let moved = end - start;
    shuffle_logged(rules, state, into, (from as u16, moved), cause, events);
}

/// Seat `seat` draws one card into its pile of zone `into`, from the pile
/// of `into`'s `:draws-from` zone that feeds it. An empty pile does first
/// what its `:when-empty` says: reshuffle another into it, draw from another,
/// or run effects with `roles` (the drawer's: `:you` is the seat) and draw
/// nothing. A full hand does what its `:overflow` says with the card. True
/// if a card reached the hand.
pub fn draw(
    rules: &RuleSet,
    state: &mut State,
    roles: &[EntityId],
    seat: EntityId,
    into: ZoneId,
    cause: Cause,
    events: &mut Vec<Event>,
) -> bool {
    let (Some(set), Some(t)) = (rules.zones.as_ref(), state.cards.as_deref()) else {
        return false;
    };
    let Some(hand) = t.pile(set, into, seat) else {
        return false;
    };
    let Some(from_zone) = set.zones[into].draws_from else {
        return false;
    };
    let Some(source) = t.pile(set, from_zone, seat) else {
        return false;
    };
    draw_between(rules, state, roles, seat, (source, hand), cause, events)
}

/// Seat `seat` draws the top card of pile `source` into pile `hand`; an
/// empty `source` does first what its zone's `:when-empty` says (the piles
/// it names are those of `source`'s owner, or `seat`'s for a shared zone),
/// with `roles` for its effects. True if a card reached the hand.
pub fn draw_between(
    rules: &RuleSet,
    state: &mut State,
    roles: &[EntityId],
    seat: EntityId,
    (mut source, hand): (usize, usize),
    cause: Cause,
    events: &mut Vec<Event>,
) -> bool {
    let (Some(set), Some(t)) = (rules.zones.as_ref(), state.cards.as_deref()) else {
        return false;
    };
    if source >= t.piles() || hand >= t.piles() {
        return false;
    }
    let from_zone = t.zone_of(source);
    let owner = t.owner_of(set, source).unwrap_or(seat);
    if t.count(source) == 0 {
        match &set.zones[from_zone].when_empty {
            WhenEmpty::Nothing => return false,
            WhenEmpty::Reshuffle(zone) => {
                let Some(discards) = t.pile(set, *zone, owner) else {
                    return false;
                };
                reshuffle(rules, state, discards, source, cause, events);
            }
            WhenEmpty::DrawFrom(zone) => match t.pile(set, *zone, owner) {
                Some(other) => source = other,
                None => return false,
            },
            WhenEmpty::Effects(effects) => {
                super::apply(rules, effects, state, roles, events);
                return false;
            }
        }
    }
    let t = table(state);
    let Some(&card) = t.piles[source].iter().rev().find(|&&e| e != HOLE) else {
        return false;
    };
    move_card(rules, state, card, hand, At::Top, cause, events) == Moved::Done
}

/// What [`determinise`] reuses from one world to the next, so that once it
/// has grown dealing one allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct Redeal {
    /// The instances the seat cannot tell, in canonical order (pile, place).
    slots: Vec<(EntityId, u16, u16)>,
    /// Their cards, in step with `slots`.
    defs: Vec<CardId>,
    /// Their values and base values, a row each, in step with `slots`.
    rows: Vec<i64>,
    /// The order they are dealt back in.
    order: Vec<u32>,
}

/// Deals anew every card `seat` cannot tell (in a pile it does not see, not
/// on a `:top-visible` top, not known to it): their cards and values are
/// pooled, the pool sorted (so the true places are not even the shuffle's
/// input), shuffled with `rng` and written back onto the same instances in
/// the same places, so no instance moves and none gives its card away. Two
/// states that differ only in where the cards `seat` cannot tell lie deal
/// the same world from the same `rng`.
pub fn determinise(
    rules: &RuleSet,
    state: &mut State,
    seat: EntityId,
    rng: &mut super::Rng,
    scratch: &mut Redeal,
) {
    let (Some(set), Some(t)) = (rules.zones.as_ref(), state.cards.as_deref()) else {
        return;
    };
    let Redeal {
        slots,
        defs,
        rows,
        order,
    } = scratch;
    slots.clear();
    defs.clear();
    rows.clear();
    order.clear();
    for (p, pile) in t.piles.iter().enumerate() {
        for (at, &e) in pile.iter().enumerate() {
            if e != HOLE && !t.sees(set, seat, e) {
                slots.push((e, p as u16, at as u16));
            }
        }
    }
    if slots.len() < 2 {
        return;
    }
    let width = state.width;
    let row = 2 * width;
    for &(e, _, _) in slots.iter() {
        defs.push(t.placed[e.index()].def);
        let at = e.index() * width;
        rows.extend_from_slice(&state.values[at..at + width]);
        match state.base.get(at..at + width) {
            Some(base) => rows.extend_from_slice(base),
            None => rows.extend_from_slice(&state.values[at..at + width]),
        }
    }
    order.extend(0..slots.len() as u32);
    let key = |i: &u32| {
        let i = *i as usize;
        (defs[i], &rows[i * row..(i + 1) * row])
    };
    order.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
    order.shuffle(rng);
    let Some(t) = state.cards.as_deref_mut() else {
        return;
    };
    for (k, &(e, pile, at)) in slots.iter().enumerate() {
        let i = order[k] as usize;
        let def = defs[i];
        let kind = t.specs.get(def.index()).map_or(ZONED, |s| s.kind);
        let placed = &mut t.placed[e.index()];
        placed.def = def;
        placed.kind = kind;
        t.defs[usize::from(pile)][usize::from(at)] = def;
        let at = e.index() * width;
        state.values[at..at + width].copy_from_slice(&rows[i * row..i * row + width]);
        if let Some(base) = state.base.get_mut(at..at + width) {
            base.copy_from_slice(&rows[i * row + width..(i + 1) * row]);
        }
        // An instance in play has its card's kind; out of play it stays `ZONED`.
        let k = &mut state.kinds[e.index()];
        if *k != ZONED && *k != GONE {
            *k = kind;
        }
    }
}

/// Swaps which cards instances `a` and `b` are (their cards and values),
/// each staying where it lies, behind the engine's back: for the fairness
/// test, which moves what a seat cannot see by a rule of its own. Whether
/// both are cards.
#[doc(hidden)]
pub fn swap_cards_unchecked(state: &mut State, a: EntityId, b: EntityId) -> bool {
    let Some(t) = state.cards.as_deref_mut() else {
        return false;
    };
    let (Some(pa), Some(pb)) = (t.pile_of(a), t.pile_of(b)) else {
        return false;
    };
    let (Some(at_a), Some(at_b)) = (t.position(a), t.position(b)) else {
        return false;
    };
    let (da, db) = (t.placed[a.index()], t.placed[b.index()]);
    for (e, from) in [(a, db), (b, da)] {
        let placed = &mut t.placed[e.index()];
        placed.def = from.def;
        placed.kind = from.kind;
    }
    t.defs[pa][at_a] = db.def;
    t.defs[pb][at_b] = da.def;
    let w = state.width;
    for i in 0..w {
        state.values.swap(a.index() * w + i, b.index() * w + i);
        if !state.base.is_empty() {
            state.base.swap(a.index() * w + i, b.index() * w + i);
        }
    }
    for (e, kind) in [(a, db.kind), (b, da.kind)] {
        let k = &mut state.kinds[e.index()];
        if *k != ZONED && *k != GONE {
            *k = kind;
        }
    }
    true
}

/// Takes card `entity` out of its pile and out of the table, as if it had
/// never been made (its entity stays, out of play, no card): a scenario's
/// given piles replace what the deal put there. Unlogged.
pub fn forget(rules: &RuleSet, state: &mut State, entity: EntityId) {
    let (Some(set), Some(t)) = (rules.zones.as_ref(), state.cards.as_deref_mut()) else {
        return;
    };
    if t.take(set, entity).is_some() {
        t.placed[entity.index()].def = NOT_A_CARD;
        state.remove(entity);
    }
}

/// After `entity` fell (its kind's `:removed-when` held and it left play):
/// a card goes where its zone's `:leaves-to` says, out of play, or out of the
/// game. Nothing for an entity that is no card.
pub fn fell(rules: &RuleSet, state: &mut State, entity: EntityId, events: &mut Vec<Event>) {
    fell_by(rules, state, entity, Cause::effect(0), events);
}

/// Says that card `entity`, in play, falls: a [`What::Fell`] with its place
/// and pile, before it goes (what a trigger waiting for a death reads).
pub fn fallen(state: &State, entity: EntityId, events: &mut Vec<Event>) {
    let Some(t) = state.cards.as_deref() else {
        return;
    };
    let (Some(pile), Some(at)) = (t.pile_of(entity), t.position(entity)) else {
        return;
    };
    events.push(Event {
        entity,
        what: What::Fell(pile as u16),
        before: at as i64,
        after: pile as i64,
        cause: Cause::effect(0),
    });
}

/// [`fell`], the moves made for `cause` (a card's `{:destroy …}`).
pub fn fell_by(
    rules: &RuleSet,
    state: &mut State,
    entity: EntityId,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let (Some(set), Some(t)) = (rules.zones.as_ref(), state.cards.as_deref()) else {
        return;
    };
    let Some(pile) = t.pile_of(entity) else {
        return;
    };
    let owner = t.owner_of(set, pile).unwrap_or(EntityId::FIRST);
    let zone = set.zones[t.zone_of(pile)].leaves_to.unwrap_or(set.removed);
    let to = t.pile(set, zone, owner).unwrap_or(0);
    if move_card(rules, state, entity, to, At::Top, cause, events) == Moved::Refused {
        let removed = table(state).pile(set, set.removed, owner).unwrap_or(0);
        relocate(rules, state, entity, removed, At::Top, cause, events);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Two seats; a deck that reshuffles its discards, hands of 2 that
    /// burn, a discard pile, boards of 2 in play.
    const RULES: &str = r#"{:rules :t
 :roles {:you "p" :other "o"}
 :kinds {:player "a seat" :card {:card true :doc "a card"}}
 :attributes {:hp {:default 1 :min 0}}
 :seats [:p1 :p2]
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck
                :when-empty {:reshuffle :discard}}
         :hand {:visible :owner :capacity 2 :overflow :destroy :plays true}
         :discard {:shared true :ordered true}
         :board {:slots 2 :in-play true :overflow :discard}}}"#;

    fn rules() -> RuleSet {
        RuleSet::parse(RULES).unwrap_or_else(|d| panic!("{d:#?}"))
    }

    /// A state with `copies` of each of two cards made in the deck; card 1
    /// starts with 5 hp.
    fn dealt(rules: &RuleSet, copies: &[u8], seed: u64) -> State {
        let mut state = State::new(rules, 2, seed);
        let kind = rules.card_kind.unwrap();
        let specs: Arc<[CardSpec]> = vec![
            CardSpec {
                name: "a".into(),
                kind,
                values: Vec::new(),
                keywords: Vec::new(),
            },
            CardSpec {
                name: "b".into(),
                kind,
                values: vec![(AttrId::FIRST, 5)],
                keywords: Vec::new(),
            },
        ]
        .into();
        setup(rules, &mut state, 2, specs, copies, &mut Vec::new());
        state
    }

    fn pile(rules: &RuleSet, state: &State, zone: &str, owner: usize) -> usize {
        let set = rules.zones.as_ref().unwrap();
        let t = state.cards.as_deref().unwrap();
        t.pile(set, set.zone(zone).unwrap(), EntityId::new(owner))
            .unwrap()
    }

    #[test]
    fn the_deck_is_made_in_deck_order_and_shuffled_as_any_list_of_its_length() {
        let rules = rules();
        let state = dealt(&rules, &[2, 3], 9);
        let t = state.cards.as_deref().unwrap();
        let deck = pile(&rules, &state, "deck", 0);
        let mut expected: Vec<u16> = vec![0, 0, 1, 1, 1];
        expected.shuffle(&mut crate::eval::Rng::seed_from_u64(9));
        let got: Vec<u16> = t.defs(deck).iter().map(|c| c.index() as u16).collect();
        assert_eq!(got, expected);
        assert_eq!(state.rng, {
            let mut r = crate::eval::Rng::seed_from_u64(9);
            [0u8; 5].shuffle(&mut r);
            r
        });
        // Instances follow the seats, in deck order; out of play, with their values.
        for e in t.contents(deck) {
            assert!(state.is_zoned(*e) && !state.is_live(*e));
            let hp = state.get(*e, AttrId::FIRST);
            assert_eq!(
                hp,
                if t.card(*e) == Some(CardId::new(1)) {
                    5
                } else {
                    1
                }
            );
        }
    }

    #[test]
    fn a_draw_reshuffles_the_discards_in_order_first_and_a_full_hand_burns() {
        let rules = rules();
        let mut state = dealt(&rules, &[1, 2], 3);
        let (deck, hand, discard) = (
            pile(&rules, &state, "deck", 0),
            pile(&rules, &state, "hand", 0),
            pile(&rules, &state, "discard", 0),
        );
        let cards: Vec<EntityId> = state.cards.as_deref().unwrap().contents(deck).to_vec();
        let mut events = Vec::new();
        for &c in &cards {
            move_card(
                &rules,
                &mut state,
                c,
                discard,
                At::Top,
                Cause::effect(0),
                &mut events,
            );
        }
        let mut shuffled = cards.clone();
        let mut rng = state.rng.clone();
        shuffled.shuffle(&mut rng);
        let seat = EntityId::FIRST;
        let zone = rules.zones.as_ref().unwrap().zone("hand").unwrap();
        assert!(draw(
            &rules,
            &mut state,
            &[seat],
            seat,
            zone,
            Cause::effect(0),
            &mut events
        ));
        let t = state.cards.as_deref().unwrap();
        assert_eq!(t.contents(hand), [shuffled[2]], "the reshuffled deck's top");
        assert_eq!(t.contents(deck), &shuffled[..2]);
        assert_eq!(state.rng, rng);
        assert!(
            events
                .iter()
                .any(|e| e.what == What::Shuffled(deck as u16, discard as u16))
        );
        // Two fit in the hand; the third burns, out of the game.
        assert!(draw(
            &rules,
            &mut state,
            &[seat],
            seat,
            zone,
            Cause::effect(0),
            &mut events
        ));
        assert!(!draw(
            &rules,
            &mut state,
            &[seat],
            seat,
            zone,
            Cause::effect(0),
            &mut events
        ));
        let t = state.cards.as_deref().unwrap();
        let removed = pile(&rules, &state, "removed", 0);
        assert_eq!(t.count(hand), 2);
        assert_eq!(t.contents(removed), [shuffled[0]]);
        assert!(!state.is_live(shuffled[0]) && !state.is_zoned(shuffled[0]));
    }

    #[test]
    fn knowledge_is_gained_by_seeing_and_lost_by_a_shuffle() {
        let rules = rules();
        let mut state = dealt(&rules, &[2, 0], 1);
        let (deck, hand) = (
            pile(&rules, &state, "deck", 0),
            pile(&rules, &state, "hand", 1),
        );
        let card = state.cards.as_deref().unwrap().contents(deck)[0];
        let mut events = Vec::new();
        move_card(
            &rules,
            &mut state,
            card,
            hand,
            At::Top,
            Cause::effect(0),
            &mut events,
        );
        assert_eq!(
            state.cards.as_deref().unwrap().known(card),
            0b10,
            "its owner saw it"
        );
        assert_eq!(
            events.last().map(|e| e.before),
            Some(0b10),
            "seen by p2 only"
        );
        move_card(
            &rules,
            &mut state,
            card,
            deck,
            At::Top,
            Cause::effect(0),
            &mut events,
        );
        assert_eq!(
            state.cards.as_deref().unwrap().known(card),
            0b10,
            "tracked onto the deck"
        );
        shuffle(&rules, &mut state, deck, Cause::effect(0), &mut events);
        assert_eq!(
            state.cards.as_deref().unwrap().known(card),
            0,
            "lost in the shuffle"
        );
    }

    #[test]
    fn a_card_in_play_is_live_and_leaving_play_makes_it_its_card_again() {
        let rules = rules();
        let mut state = dealt(&rules, &[0, 3], 1);
        let (deck, board, discard) = (
            pile(&rules, &state, "deck", 0),
            pile(&rules, &state, "board", 0),
            pile(&rules, &state, "discard", 0),
        );
        let cards: Vec<EntityId> = state.cards.as_deref().unwrap().contents(deck).to_vec();
        let mut events = Vec::new();
        let to_board = |state: &mut State, c, events: &mut Vec<Event>| {
            move_card(&rules, state, c, board, At::Top, Cause::effect(0), events)
        };
        assert_eq!(to_board(&mut state, cards[0], &mut events), Moved::Done);
        assert_eq!(to_board(&mut state, cards[1], &mut events), Moved::Done);
        assert!(state.is_live(cards[0]));
        assert_eq!(state.kind(cards[0]), rules.card_kind);
        state.put(cards[0], AttrId::FIRST, 2);
        // A full board sends the third to its overflow, the discards.
        assert_eq!(
            to_board(&mut state, cards[2], &mut events),
            Moved::Overflowed
        );
        assert_eq!(
            state.cards.as_deref().unwrap().contents(discard),
            [cards[2]]
        );
        move_card(
            &rules,
            &mut state,
            cards[0],
            discard,
            At::Bottom,
            Cause::effect(0),
            &mut events,
        );
        assert!(state.is_zoned(cards[0]));
        assert_eq!(
            state.get(cards[0], AttrId::FIRST),
            5,
            "its card's value again"
        );
        assert_eq!(
            state.cards.as_deref().unwrap().contents(discard),
            [cards[0], cards[2]]
        );
    }

    #[test]
    fn a_card_made_needs_room_and_a_card_forgotten_is_no_card() {
        let rules = rules();
        let mut state = dealt(&rules, &[1, 0], 1);
        let hand = pile(&rules, &state, "hand", 0);
        let mut events = Vec::new();
        let make = |state: &mut State, events: &mut Vec<Event>| {
            create(
                &rules,
                state,
                CardId::new(1),
                (hand, At::Top),
                Cause::effect(0),
                events,
            )
        };
        let a = make(&mut state, &mut events).expect("room");
        assert!(make(&mut state, &mut events).is_some());
        assert!(make(&mut state, &mut events).is_none(), "the hand is full");
        assert_eq!(events[0].what, What::Moved(MADE, hand as u16));
        forget(&rules, &mut state, a);
        let t = state.cards.as_deref().unwrap();
        assert_eq!(t.card(a), None);
        assert_eq!(t.count(hand), 1);
        assert!(!t.instances().any(|e| e == a));
    }
}
