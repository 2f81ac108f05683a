//! What one seat may see of a game ([`Game::view`]), and a world dealt from
//! that alone ([`Game::determinise`]): the only two ways a computer player,
//! a person at the table (`play --human`, `play --view`) or an observation
//! reaches what is hidden.
//!
//! A seat sees every entity's values and kind, the turn context, every
//! status but the `:invisible` ones it did not apply itself, its own hand,
//! the discard piles, and only the number of cards in the other hands and
//! in the draw piles. A world dealt for it keeps all of that and deals the
//! rest anew: the hidden cards are pooled, sorted and shuffled with the
//! generator it is given, and the invisible statuses it did not apply are
//! dropped, so the world depends on nothing the seat cannot see.
//!
//! Classic card storage (`:cards`, [`super::cards::Zones`]) has three zones:
//! draw piles (hidden from everyone), hands (seen by their owner) and
//! discard piles (seen by all). A card in it is never looked at or revealed,
//! so a seat knows no card it cannot see now.

use super::cards::Pool;
use super::{CardId, Game, TurnContext};
use crate::check::rules::RuleSet;
use crate::eval::zones::Redeal;
use crate::eval::{Instance, Rng};
use crate::ids::{EntityId, KindId, StatusId, ZoneId};

/// A zone of a game: one of the three of classic storage (`:cards`), or
/// one a rule set declares in `:zones`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ZoneName {
    /// A draw pile: shared, or one per seat (`:deck :per-seat`); nobody sees its cards.
    Deck,
    /// A seat's hand: its owner sees it, the others see how many cards it holds.
    Hand,
    /// A discard pile, laid out as the draw piles: everyone sees it.
    Discard,
    /// A zone of `:zones` (its own, `:playing` or `:removed`).
    Zone(ZoneId),
}

impl ZoneName {
    /// Its name in words, as screens say it.
    pub fn word(self, rules: &RuleSet) -> &str {
        match self {
            ZoneName::Deck => "deck",
            ZoneName::Hand => "hand",
            ZoneName::Discard => "discard pile",
            ZoneName::Zone(z) => rules
                .zones
                .as_ref()
                .and_then(|set| set.zones.get(z))
                .map_or("zone", |d| d.name.as_str()),
        }
    }
}

/// How a screen lays a zone out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A hand, or a zone in no order: its cards by name, as far as they are seen.
    Listed,
    /// A pile with a top: its count, and its top card when that is seen.
    Pile,
    /// A board: its cards by slot.
    Board,
}

/// One card place as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seen {
    /// A card the seat sees: which card it is.
    Card(CardId),
    /// A card instance the seat sees (`:zones`): which card, and the entity
    /// whose row holds its values.
    Instance(CardId, EntityId),
    /// A board's empty slot.
    Empty,
    /// A card the seat cannot see: neither which it is nor anything that
    /// would tell (an instance's number is dealt in deck order, so it too is
    /// left out).
    Hidden,
}

impl Seen {
    /// The card seen here, if one is.
    pub fn card(self) -> Option<CardId> {
        match self {
            Seen::Card(c) | Seen::Instance(c, _) => Some(c),
            Seen::Empty | Seen::Hidden => None,
        }
    }
}

/// A zone as a seat sees it: its cards in order, the top (the next drawn) last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneView {
    /// Which zone.
    pub zone: ZoneName,
    /// The seat it belongs to; `None` for a zone all seats share.
    pub owner: Option<EntityId>,
    /// How a screen lays it out.
    pub shape: Shape,
    /// Its cards, bottom first (a board's by slot).
    pub cards: Vec<Seen>,
}

impl ZoneView {
    /// How many cards it holds (a board's empty slots not counted).
    pub fn len(&self) -> usize {
        self.cards.iter().filter(|c| **c != Seen::Empty).count()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One entity as a seat sees it: every entity's values are public but a
/// card instance's the seat cannot tell (`:zones`), which would name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Which entity.
    pub entity: EntityId,
    /// Its kind; `None` once it has left play, and for a card instance out of play.
    pub kind: Option<KindId>,
    /// Its values, in the rule set's attribute order (with status modifiers
    /// applied); none for a card instance the seat cannot tell.
    pub values: Vec<i64>,
}

/// A status instance a seat sees. Its serial number is left out: the gaps
/// between the serials of the statuses a seat sees would count the ones it
/// does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenStatus {
    /// Which status.
    pub status: StatusId,
    /// The entity it is on.
    pub holder: EntityId,
    /// The entity that applied it.
    pub source: EntityId,
    /// What it was acquired with.
    pub magnitude: i64,
    /// Turns left; `None` for one that does not run out.
    pub left: Option<u32>,
    /// Its stacks.
    pub stacks: u8,
    /// How many of its `:segments` have run.
    pub segments_run: u16,
}

/// What one seat may see of a game at one moment: the state, the turn and
/// the zones as that seat sees them, and nothing else (not the generator,
/// which would tell the next shuffle). Two games a seat cannot tell apart
/// have equal views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The seat that sees.
    pub seat: EntityId,
    /// Whose turn it is, which turn and round, the phase.
    pub ctx: TurnContext,
    /// Every entity, in order.
    pub rows: Vec<Row>,
    /// The statuses the seat sees, in the order they were acquired.
    pub statuses: Vec<SeenStatus>,
    /// Every zone: the draw piles, then each seat's hand, then the discard
    /// piles (each in seat order); with `:zones`, each zone's piles in the
    /// order declared (`:playing` and `:removed` last); none without cards.
    pub zones: Vec<ZoneView>,
    /// Every scripted enemy's intent (its next move, shown to every seat),
    /// in entity order; none in a rule set without `:moves`.
    pub intents: Vec<super::intent::Intent>,
}

impl View {
    /// The zone `zone` of `owner` (`None` for a shared one).
    pub fn zone(&self, zone: ZoneName, owner: Option<EntityId>) -> Option<&ZoneView> {
        self.zones
            .iter()
            .find(|z| z.zone == zone && z.owner == owner)
    }
}

/// Whether `seat` sees the status instance `inst`: every status but an
/// `:invisible` one applied by another.
pub fn sees_status(rules: &RuleSet, seat: EntityId, inst: &Instance) -> bool {
    inst.source == seat
        || !rules
            .status_defs
            .get(inst.status)
            .is_some_and(|d| d.invisible)
}

/// What [`Game::determinise`] reuses from one world to the next, so that
/// dealing one allocates nothing once it has grown. A computer player keeps one.
#[derive(Clone, Debug, Default)]
pub struct Unseen {
    /// The pooled hidden cards of one draw pile.
    cards: Vec<CardId>,
    /// What dealing the instances of `:zones` anew reuses.
    instances: Redeal,
}

impl Unseen {
    /// An empty one.
    pub fn new() -> Unseen {
        Unseen::default()
    }

    /// What dealing the instances of `:zones` anew reuses.
    pub(super) fn instances(&mut self) -> &mut Redeal {
        &mut self.instances
    }
}

impl Game<'_> {
    /// What `seat` may see now ([`View`]).
    pub fn view(&self, seat: EntityId) -> View {
        let state = &self.state;
        let sees = |entity| match (self.rules.zones.as_ref(), state.cards.as_deref()) {
            (Some(set), Some(t)) if t.card(entity).is_some() => t.sees(set, seat, entity),
            _ => true,
        };
        let rows = EntityId::below(state.len())
            .map(|entity| match sees(entity) {
                true => Row {
                    entity,
                    kind: state.kind(entity),
                    values: state.row(entity).to_vec(),
                },
                false => Row {
                    entity,
                    kind: None,
                    values: Vec::new(),
                },
            })
            .collect();
        let statuses = state
            .statuses()
            .iter()
            .filter(|i| sees_status(self.rules, seat, i))
            .map(|i| SeenStatus {
                status: i.status,
                holder: i.holder,
                source: i.source,
                magnitude: i.magnitude,
                left: i.turns_left(),
                stacks: i.stacks,
                segments_run: i.segments_run,
            })
            .collect();
        View {
            seat,
            ctx: self.ctx(),
            rows,
            statuses,
            zones: match self.zoned() {
                true => self.zoned_views(seat),
                false => self.classic_zone_views(seat),
            },
            intents: self.intents(),
        }
    }

    /// The piles of `:zones` as `seat` sees them, pile by pile.
    fn zoned_views(&self, seat: EntityId) -> Vec<ZoneView> {
        let (Some(set), Some(t)) = (self.rules.zones.as_ref(), self.state.cards.as_deref()) else {
            return Vec::new();
        };
        (0..t.piles())
            .map(|p| {
                let zone = t.zone_of(p);
                let def = &set.zones[zone];
                let shape = if def.slots > 0 {
                    Shape::Board
                } else if def.ordered {
                    Shape::Pile
                } else {
                    Shape::Listed
                };
                let cards = t
                    .contents(p)
                    .iter()
                    .map(|&e| match t.card(e) {
                        None => Seen::Empty,
                        Some(c) if t.sees(set, seat, e) => Seen::Instance(c, e),
                        Some(_) => Seen::Hidden,
                    })
                    .collect();
                ZoneView {
                    zone: ZoneName::Zone(zone),
                    owner: t.owner_of(set, p),
                    shape,
                    cards,
                }
            })
            .collect()
    }

    /// The zones of classic storage as `seat` sees them.
    fn classic_zone_views(&self, seat: EntityId) -> Vec<ZoneView> {
        if self.rules.cards.is_none() {
            return Vec::new();
        }
        let zones = &self.zones;
        let pile_owner = |p: usize| zones.per_seat().then(|| EntityId::new(p));
        let mut out = Vec::with_capacity(2 * zones.piles() + self.seats);
        for p in 0..zones.piles() {
            out.push(ZoneView {
                zone: ZoneName::Deck,
                owner: pile_owner(p),
                shape: Shape::Pile,
                cards: vec![Seen::Hidden; zones.pile_contents(p).0.len()],
            });
        }
        for s in EntityId::below(self.seats) {
            let hand = self.hand_of(s);
            out.push(ZoneView {
                zone: ZoneName::Hand,
                owner: Some(s),
                shape: Shape::Listed,
                cards: if s == seat {
                    hand.iter().map(|&c| Seen::Card(c)).collect()
                } else {
                    vec![Seen::Hidden; hand.len()]
                },
            });
        }
        for p in 0..zones.piles() {
            out.push(ZoneView {
                zone: ZoneName::Discard,
                owner: pile_owner(p),
                shape: Shape::Pile,
                cards: zones
                    .pile_contents(p)
                    .1
                    .iter()
                    .map(|&c| Seen::Card(c))
                    .collect(),
            });
        }
        out
    }

    /// Makes this game a world `seat` cannot tell from the true one, dealt
    /// from its [view](Game::view) and `rng` alone: what the seat cannot see
    /// is dealt anew, from the hidden cards sorted (so their true places are
    /// not even the shuffle's input) and shuffled with `rng`; the
    /// `:invisible` statuses another seat applied are dropped, as if never
    /// acquired (silently: no events, no `:on-remove`; the values the seat
    /// sees stay as they are). What the seat sees is untouched, and so is
    /// the game's own generator. Every computer player that looks ahead
    /// plays in such worlds; `scratch` is reused from one to the next, so
    /// once it has grown this allocates nothing.
    ///
    /// It deals from the cards the seat has not seen: the deck list is
    /// public, so their multiset is too (a game with secret deck lists would
    /// give theirs away).
    pub fn determinise(&mut self, seat: EntityId, rng: &mut Rng, scratch: &mut Unseen) {
        self.determinise_from(seat, rng, scratch, Pool::Sorted);
    }

    /// [`Game::determinise`] with the hidden cards pooled in their true
    /// order before the shuffle (as the search did before issue 30): fair
    /// in distribution only. For the fairness test's negative control.
    #[doc(hidden)]
    pub fn determinise_from_true_order_unchecked(
        &mut self,
        seat: EntityId,
        rng: &mut Rng,
        scratch: &mut Unseen,
    ) {
        self.determinise_from(seat, rng, scratch, Pool::AsHeld);
    }

    fn determinise_from(
        &mut self,
        seat: EntityId,
        rng: &mut Rng,
        scratch: &mut Unseen,
        pool: Pool,
    ) {
        if self.zoned() {
            // Instances are dealt anew in place: there is no true order to keep.
            crate::eval::zones::determinise(
                self.rules,
                &mut self.state,
                seat,
                rng,
                &mut scratch.instances,
            );
            self.changed = true;
            self.dirty = u64::MAX;
        } else if self.rules.cards.is_some() {
            self.zones
                .determinise(seat.index(), rng, &mut scratch.cards, pool);
        }
        // What the others chose in a simultaneous turn is not the seat's to see.
        if self.simul.is_some() {
            self.forget_others_choices(seat);
        }
        let rules = self.rules;
        if crate::eval::forget_statuses(&mut self.state, |i| sees_status(rules, seat, i)) {
            // A victory condition may read statuses: judge the world afresh.
            self.changed = true;
            self.dirty = u64::MAX;
        }
    }

    /// The cards of a zone of classic storage: `index` is the seat for a
    /// hand, the pile for a draw or discard pile. For tests that move hidden
    /// cards behind the engine's back (the fairness test); `None` past the
    /// last, or without `:cards`.
    #[doc(hidden)]
    pub fn zone_unchecked(&self, zone: ZoneName, index: usize) -> Option<&[CardId]> {
        self.rules.cards.as_ref()?;
        let zones = &self.zones;
        match zone {
            ZoneName::Hand => (index < self.seats).then(|| zones.hand(EntityId::new(index))),
            ZoneName::Deck => (index < zones.piles()).then(|| zones.pile_contents(index).0),
            ZoneName::Discard => (index < zones.piles()).then(|| zones.pile_contents(index).1),
            ZoneName::Zone(_) => None,
        }
    }

    /// Overwrites a zone of classic storage ([`Game::zone_unchecked`]) with
    /// `cards`, unchecked: for the fairness test, which permutes what a seat
    /// cannot see with a generator of its own. Whether there was such a zone.
    #[doc(hidden)]
    pub fn set_zone_unchecked(&mut self, zone: ZoneName, index: usize, cards: &[CardId]) -> bool {
        if self.rules.cards.is_none() {
            return false;
        }
        let [draw, hands, discards] = self.zones.piles_mut();
        let zones = match zone {
            ZoneName::Deck => draw,
            ZoneName::Hand => hands,
            ZoneName::Discard => discards,
            ZoneName::Zone(_) => return false,
        };
        match zones.get_mut(index) {
            Some(z) => {
                z.clear();
                z.extend_from_slice(cards);
                true
            }
            None => false,
        }
    }

    /// Swaps which cards the instances `a` and `b` are (`:zones`), each
    /// staying where it lies, unchecked: for the fairness test, which
    /// permutes what a seat cannot see with a generator of its own. Whether
    /// both are cards.
    #[doc(hidden)]
    pub fn swap_cards_unchecked(&mut self, a: EntityId, b: EntityId) -> bool {
        self.changed = true;
        self.dirty = u64::MAX;
        crate::eval::zones::swap_cards_unchecked(&mut self.state, a, b)
    }

    /// Drops every status instance `keep` refuses, silently (no events, no
    /// `:on-remove`, the values left as they are): for the fairness test,
    /// which strips what a seat cannot see by its own rule.
    #[doc(hidden)]
    pub fn forget_statuses_unchecked(&mut self, keep: impl FnMut(&Instance) -> bool) {
        if crate::eval::forget_statuses(&mut self.state, keep) {
            self.changed = true;
            self.dirty = u64::MAX;
        }
    }
}
