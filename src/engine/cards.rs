//! Card zones: a shuffled draw pile, a hand per seat and a discard pile, and what
//! a card costs. A rule set switches them on with `:cards`; the turn machine
//! ([`super::Game`]) asks them what the player whose turn it is may do.

use rand::seq::SliceRandom;

use crate::ast::{AttrId, EntityId};
use crate::defs::Card;
use crate::eval::{Cause, Event, Rng, State};
use crate::rules::{CardZones, RuleSet};

/// Index of a card in the game's card list.
pub type CardId = u16;

/// The zones of one game.
#[derive(Clone, Debug)]
pub struct Zones {
    /// Each seat's hand, in the order drawn.
    pub(super) hands: Vec<Vec<CardId>>,
    draw_pile: Vec<CardId>,
    discard_pile: Vec<CardId>,
    hand_size: usize,
    /// Each card's cost, packed for the affordability test: (attribute, cost; 0 if free).
    costs: Vec<(AttrId, i64)>,
    /// Whether each card's effects draw from the generator (`random`, `chance`).
    chancy: Vec<bool>,
}

impl Zones {
    /// Empty zones for `seats` seats; with no `zones` (the rule set has no
    /// `:cards`), zones that stay empty: no hands to fill, nothing to deal.
    pub fn new(rules: &RuleSet, zones: Option<&CardZones>, cards: &[Card], seats: usize) -> Zones {
        let Some(zones) = zones else {
            return Zones {
                hands: vec![Vec::new(); seats],
                draw_pile: Vec::new(),
                discard_pile: Vec::new(),
                hand_size: 0,
                costs: Vec::new(),
                chancy: Vec::new(),
            };
        };
        Zones {
            hands: vec![Vec::with_capacity(zones.hand_size + 4); seats],
            draw_pile: Vec::new(),
            discard_pile: Vec::new(),
            hand_size: zones.hand_size,
            costs: cards
                .iter()
                .map(|c| c.play.pay_with.map_or((0, 0), |a| (a, c.play.cost)))
                .collect(),
            chancy: cards.iter().map(|c| rules.draws(&c.effects)).collect(),
        }
    }

    /// Shuffles every copy of every card into the draw pile and fills each hand.
    pub fn deal(&mut self, cards: &[Card], rng: &mut Rng) {
        for hand in &mut self.hands {
            hand.clear();
        }
        self.discard_pile.clear();
        self.draw_pile.clear();
        for (id, card) in cards.iter().enumerate() {
            for _ in 0..card.play.copies {
                self.draw_pile.push(id as CardId);
            }
        }
        self.draw_pile.shuffle(rng);
        for seat in 0..self.hands.len() {
            self.refill(seat, rng);
        }
    }

    /// The hand of `seat`.
    #[inline]
    pub fn hand(&self, seat: EntityId) -> &[CardId] {
        self.hands.get(seat as usize).map_or(&[], Vec::as_slice)
    }

    /// Cards left to draw.
    pub fn draw_pile_len(&self) -> usize {
        self.draw_pile.len()
    }

    #[inline]
    /// Draws one card into `seat`'s hand; an empty draw pile is first refilled
    /// from the discards, reshuffled.
    pub fn draw(&mut self, seat: usize, rng: &mut Rng) {
        if self.draw_pile.is_empty() {
            std::mem::swap(&mut self.draw_pile, &mut self.discard_pile);
            self.draw_pile.shuffle(rng);
        }
        if let Some(card) = self.draw_pile.pop() {
            self.hands[seat].push(card);
        }
    }

    /// Fills `seat`'s hand up to the hand size, as far as there are cards.
    pub fn refill(&mut self, seat: usize, rng: &mut Rng) {
        while self.hands[seat].len() < self.hand_size {
            let before = self.hands[seat].len();
            self.draw(seat, rng);
            if self.hands[seat].len() == before {
                break;
            }
        }
    }

    /// Puts a card on the discard pile.
    pub fn discard(&mut self, card: CardId) {
        self.discard_pile.push(card);
    }

    /// Can `seat` pay for `card` in `state`?
    #[inline]
    pub fn affordable(&self, state: &State, seat: EntityId, card: CardId) -> bool {
        // A card these zones do not hold (zones switched off) is never affordable.
        let Some(&(attr, cost)) = self.costs.get(card as usize) else {
            return false;
        };
        cost <= 0 || state.get(seat, attr) >= cost
    }

    /// Whether `card`'s effects draw from the generator.
    pub fn chancy(&self, card: CardId) -> bool {
        self.chancy.get(card as usize).copied().unwrap_or(false)
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
    if let Some(attr) = card.play.pay_with {
        let cost = card.play.cost.saturating_neg();
        crate::eval::add_to(rules, state, seat, attr, cost, Cause::effect(0), events);
    }
}
