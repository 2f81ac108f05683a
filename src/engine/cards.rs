//! Card zones: a shuffled draw pile, a hand per seat and a discard pile, and what
//! a card costs. A rule set switches them on with `:cards`; the turn machine
//! ([`super::Game`]) asks them what the player whose turn it is may do.

use rand::seq::SliceRandom;

use crate::check::ast::{AttrId, EntityId};
use crate::check::defs::Card;
use crate::check::rules::{CardZones, RuleSet};
use crate::eval::{Cause, Event, Rng, State};

pub use crate::ids::CardId;

/// What [`Zones::determinise`] shuffles the hidden cards from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// The hidden cards sorted: the deal depends only on what the seat sees
    /// and the generator (what every computer player uses).
    Sorted,
    /// The hidden cards in their true order, as the search pooled them before
    /// issue 30: fair only in distribution (each deal is a shuffle of the
    /// truth, so a different truth gives a different deal from the same
    /// generator). Kept for the fairness test's negative control.
    AsHeld,
}

/// The zones of one game.
#[derive(Debug)]
pub struct Zones {
    /// Each seat's hand, in the order drawn.
    pub(super) hands: Vec<Vec<CardId>>,
    /// One draw pile for all seats, or one per seat (`:deck :per-seat`).
    draw_piles: Vec<Vec<CardId>>,
    /// Laid out as `draw_piles`.
    discard_piles: Vec<Vec<CardId>>,
    per_seat: bool,
    hand_size: usize,
    /// Each card's cost, packed for the affordability test: (attribute, cost; 0 if free).
    costs: Vec<(AttrId, i64)>,
    /// Whether each card's effects draw from the generator (`random`, `chance`).
    chancy: Vec<bool>,
}

impl Clone for Zones {
    fn clone(&self) -> Zones {
        Zones {
            hands: self.hands.clone(),
            draw_piles: self.draw_piles.clone(),
            discard_piles: self.discard_piles.clone(),
            per_seat: self.per_seat,
            hand_size: self.hand_size,
            costs: self.costs.clone(),
            chancy: self.chancy.clone(),
        }
    }

    /// Copies into the piles already held: a tree search copies a game once
    /// an iteration, and allocates nothing doing it.
    fn clone_from(&mut self, source: &Zones) {
        self.hands.clone_from(&source.hands);
        self.draw_piles.clone_from(&source.draw_piles);
        self.discard_piles.clone_from(&source.discard_piles);
        self.per_seat = source.per_seat;
        self.hand_size = source.hand_size;
        self.costs.clone_from(&source.costs);
        self.chancy.clone_from(&source.chancy);
    }
}

impl Zones {
    /// Empty zones for `seats` seats; with no `zones` (the rule set has no
    /// `:cards`), zones that stay empty: no hands to fill, nothing to deal.
    pub fn new(rules: &RuleSet, zones: Option<&CardZones>, cards: &[Card], seats: usize) -> Zones {
        let Some(zones) = zones else {
            return Zones {
                hands: vec![Vec::new(); seats],
                draw_piles: vec![Vec::new()],
                discard_piles: vec![Vec::new()],
                per_seat: false,
                hand_size: 0,
                costs: Vec::new(),
                chancy: Vec::new(),
            };
        };
        let piles = if zones.per_seat { seats.max(1) } else { 1 };
        Zones {
            hands: vec![Vec::with_capacity(zones.hand_size + 4); seats],
            draw_piles: vec![Vec::new(); piles],
            discard_piles: vec![Vec::new(); piles],
            per_seat: zones.per_seat,
            hand_size: zones.hand_size,
            costs: cards
                .iter()
                .map(|c| {
                    c.play
                        .pay_with
                        .map_or((AttrId::FIRST, 0), |a| (a, c.play.cost))
                })
                .collect(),
            chancy: cards.iter().map(|c| rules.draws(&c.effects)).collect(),
        }
    }

    /// Shuffles every copy of every card into the draw pile (each seat's own,
    /// with `:deck :per-seat`, in seat order) and fills each hand.
    pub fn deal(&mut self, cards: &[Card], rng: &mut Rng) {
        for hand in &mut self.hands {
            hand.clear();
        }
        for (draw, discard) in self.draw_piles.iter_mut().zip(&mut self.discard_piles) {
            discard.clear();
            draw.clear();
            for (id, card) in cards.iter().enumerate() {
                for _ in 0..card.play.copies {
                    draw.push(CardId::new(id));
                }
            }
            draw.shuffle(rng);
        }
        for seat in 0..self.hands.len() {
            self.refill(seat, rng);
        }
    }

    /// The hand of `seat`.
    #[inline]
    pub fn hand(&self, seat: EntityId) -> &[CardId] {
        self.hands.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    /// Which pile `seat` draws from and discards to.
    #[inline]
    fn pile(&self, seat: usize) -> usize {
        if self.per_seat {
            seat.min(self.draw_piles.len() - 1)
        } else {
            0
        }
    }

    /// Cards left to draw for `seat`.
    pub fn draw_pile_len(&self, seat: EntityId) -> usize {
        self.draw_piles[self.pile(seat.index())].len()
    }

    #[inline]
    /// Draws one card into `seat`'s hand; an empty draw pile is first refilled
    /// from the discards, reshuffled.
    pub fn draw(&mut self, seat: usize, rng: &mut Rng) {
        let p = self.pile(seat);
        if self.draw_piles[p].is_empty() {
            std::mem::swap(&mut self.draw_piles[p], &mut self.discard_piles[p]);
            self.draw_piles[p].shuffle(rng);
        }
        if let Some(card) = self.draw_piles[p].pop() {
            self.hands[seat].push(card);
        }
    }

    /// Fills `seat`'s hand up to the hand size, as far as there are cards.
    // Inline: `act` calls it after every card; apart from it the split cost Arcomage 0.5 % of instructions.
    #[inline(always)]
    pub fn refill(&mut self, seat: usize, rng: &mut Rng) {
        while self.hands[seat].len() < self.hand_size {
            let before = self.hands[seat].len();
            self.draw(seat, rng);
            if self.hands[seat].len() == before {
                break;
            }
        }
    }

    /// Deals anew what `seat` cannot see: every other hand and the order of
    /// every draw pile. For each draw pile, the cards of the pile and of the
    /// other hands it fed are pooled (pile first, then the hands in seat
    /// order), sorted when `pool` says so, and shuffled with `rng`; each hand
    /// keeps its size and takes its cards from the pool's end, seat by seat,
    /// and the pile keeps the rest. A search that plays on from the result
    /// knows only what the player knows: its own hand, the discards and the
    /// counts. Sorted, the result depends only on those and `rng`: the true
    /// order of the hidden cards is not even the shuffle's input. `scratch`
    /// holds the pool, so once it has grown this allocates nothing; the
    /// generator makes the same draws either way (one shuffle a pile, of the
    /// same length).
    pub fn determinise(
        &mut self,
        seat: usize,
        rng: &mut Rng,
        scratch: &mut Vec<CardId>,
        pool: Pool,
    ) {
        for p in 0..self.draw_piles.len() {
            let fed = |s: usize| s != seat && self.pile(s) == p;
            scratch.clear();
            scratch.extend_from_slice(&self.draw_piles[p]);
            for s in (0..self.hands.len()).filter(|&s| fed(s)) {
                scratch.extend_from_slice(&self.hands[s]);
            }
            if pool == Pool::Sorted {
                scratch.sort_unstable();
            }
            scratch.shuffle(rng);
            let mut end = scratch.len();
            for s in 0..self.hands.len() {
                if s == seat || self.pile(s) != p {
                    continue;
                }
                let n = self.hands[s].len();
                self.hands[s].copy_from_slice(&scratch[end - n..end]);
                end -= n;
            }
            self.draw_piles[p].copy_from_slice(&scratch[..end]);
        }
    }

    /// The pile of classic zone `zone` (0 the deck, 1 the hand, 2 the
    /// discards, as [`crate::check::rules::ZoneSet::classic`] numbers them)
    /// that `seat` draws from, holds or discards to.
    pub(super) fn classic_pile(&self, zone: usize, seat: usize) -> Option<&[CardId]> {
        if seat >= self.hands.len() {
            return None;
        }
        let p = self.pile(seat);
        match zone {
            0 => self.draw_piles.get(p),
            1 => self.hands.get(seat),
            2 => self.discard_piles.get(p),
            _ => None,
        }
        .map(Vec::as_slice)
    }

    /// [`Zones::classic_pile`], to set: a scenario's given zones.
    pub(super) fn classic_pile_mut(
        &mut self,
        zone: usize,
        seat: usize,
    ) -> Option<&mut Vec<CardId>> {
        if seat >= self.hands.len() {
            return None;
        }
        let p = self.pile(seat);
        match zone {
            0 => self.draw_piles.get_mut(p),
            1 => self.hands.get_mut(seat),
            2 => self.discard_piles.get_mut(p),
            _ => None,
        }
    }

    /// Whether each seat has a draw pile and a discard pile of its own (`:deck :per-seat`).
    pub(super) fn per_seat(&self) -> bool {
        self.per_seat
    }

    /// The draw piles, the hands and the discard piles, to be overwritten
    /// by tests (`Game::set_zone_unchecked`).
    pub(super) fn piles_mut(&mut self) -> [&mut Vec<Vec<CardId>>; 3] {
        [
            &mut self.draw_piles,
            &mut self.hands,
            &mut self.discard_piles,
        ]
    }

    /// How many draw piles there are (and discard piles): one, or one per seat.
    pub(super) fn piles(&self) -> usize {
        self.draw_piles.len()
    }

    /// Draw pile `pile` and its discard pile, for the invariant checks.
    pub(super) fn pile_contents(&self, pile: usize) -> (&[CardId], &[CardId]) {
        (&self.draw_piles[pile], &self.discard_piles[pile])
    }

    /// Puts a card `seat` held on the discard pile. Inline: `act` calls it
    /// after every card (out of line, +0.8 % on Arcomage).
    #[inline(always)]
    pub fn discard(&mut self, seat: usize, card: CardId) {
        let p = self.pile(seat);
        self.discard_piles[p].push(card);
    }

    /// Can `seat` pay for `card` in `state`?
    #[inline]
    pub fn affordable(&self, state: &State, seat: EntityId, card: CardId) -> bool {
        // A card these zones do not hold (zones switched off) is never affordable.
        let Some(&(attr, cost)) = self.costs.get(card.index()) else {
            return false;
        };
        cost <= 0 || state.get(seat, attr) >= cost
    }

    /// The hand positions of `seat`'s cards it can pay for, written to the
    /// front of `out`, in hand order; how many. Without a branch per card:
    /// whether a random card is affordable is a coin the predictor cannot
    /// learn, and the mispredictions were most of the random policy's time
    /// (measured). A hand longer than `out` gives `None`.
    #[inline]
    pub fn affordable_positions(
        &self,
        state: &State,
        seat: EntityId,
        out: &mut [u8],
    ) -> Option<usize> {
        let hand = self.hand(seat);
        if hand.len() > out.len() || hand.len() > usize::from(u8::MAX) {
            return None;
        }
        let row = state.row(seat);
        let mut n = 0;
        for (i, &card) in hand.iter().enumerate() {
            // A card these zones do not hold is never affordable.
            let known = card.index() < self.costs.len();
            let (attr, cost) = self
                .costs
                .get(card.index())
                .copied()
                .unwrap_or((AttrId::FIRST, 0));
            let have = row.get(attr.index()).copied().unwrap_or(0);
            out[n] = i as u8;
            n += usize::from(known & ((cost <= 0) | (have >= cost)));
        }
        Some(n)
    }

    /// Whether `card`'s effects draw from the generator.
    pub fn chancy(&self, card: CardId) -> bool {
        self.chancy.get(card.index()).copied().unwrap_or(false)
    }
}

/// Pays `card`'s cost from `seat`'s attribute, within the attribute's bounds,
/// as an effect would change it; the change, if any, goes to `events`.
pub fn pay(
    rules: &RuleSet,
    state: &mut State,
    seat: EntityId,
    card: &Card,
    events: &mut Vec<Event>,
) {
    pay_cost(rules, state, seat, card, card.play.cost, events);
}

/// [`pay`], the cost `cost` (a card's, less its player's discount).
pub fn pay_cost(
    rules: &RuleSet,
    state: &mut State,
    seat: EntityId,
    card: &Card,
    cost: i64,
    events: &mut Vec<Event>,
) {
    if let Some(attr) = card.play.pay_with {
        let cost = cost.saturating_neg();
        crate::eval::add_to(rules, state, seat, attr, cost, Cause::effect(0), events);
    }
}

/// Sets `seat`'s `attr` to `card`'s number (its place in the deck list, from
/// 1), as an effect would: what `:cards :played` asks of every play.
pub fn record_play(
    rules: &RuleSet,
    state: &mut State,
    seat: EntityId,
    attr: AttrId,
    card: CardId,
    events: &mut Vec<Event>,
) {
    let number = card.index() as i64 + 1;
    let by = number.saturating_sub(state.get(seat, attr));
    crate::eval::add_to(rules, state, seat, attr, by, Cause::effect(0), events);
}
