//! The indices of the decisions a card makes beside its play (issue 31): a
//! later chosen target of the card being played ([`Ability::Target`]), one
//! index per place its deck's later chosen targets can name; and the use
//! of a card's activated ability ([`Ability::Use`]): the acting card's
//! place × ability × target × option, as a play is slot × target × option.

use super::places::{PlaceRules, Places};
use super::{KindRanks, Ranks};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::engine::{Ability, Action, Game};
use crate::ids::EntityId;

/// The indices of a later chosen target: one per place.
#[derive(Clone, Debug)]
pub(super) struct Later {
    pub start: usize,
    places: Places,
}

impl Later {
    /// The places the deck's later chosen targets (a card's second chosen
    /// target on) can name; `None` when no card chooses more than one.
    pub fn new(cards: &[Card], at: &PlaceRules<'_>, start: usize) -> Option<Later> {
        let mut spans = Vec::new();
        let mut any = false;
        for card in cards {
            for t in card.aims.targets.iter().skip(1).filter(|t| !t.random) {
                any = true;
                t.from.iter().for_each(|s| at.source(s, &mut spans));
            }
        }
        any.then(|| Later {
            start,
            places: Places::new(spans),
        })
    }

    pub fn len(&self) -> usize {
        self.places.len()
    }

    pub fn index_of(&self, game: &Game<'_>, ranks: &Ranks, action: Action) -> Option<usize> {
        let seat = game.ctx().current.index();
        let p = self.places.index_of(game, ranks, seat, action.target?)?;
        Some(self.start + p)
    }

    pub fn action_at(&self, game: &Game<'_>, ranks: &Ranks, i: usize) -> Option<Action> {
        let seat = game.ctx().current.index();
        let p = i.checked_sub(self.start).filter(|&p| p < self.len())?;
        let t = self.places.entity_at(game, ranks, seat, p)?;
        Some(game.target_action(t))
    }

    pub fn describe(&self, rules: &RuleSet, ranks: &KindRanks, i: usize) -> Option<String> {
        let p = i.checked_sub(self.start).filter(|&p| p < self.len())?;
        Some(format!("aim at {}", self.places.name(rules, ranks, p)))
    }

    /// What index `i` does in `game` now: `aim at Yeti#31 (the other's
    /// board slot 1)`.
    pub fn describe_in(
        &self,
        game: &Game<'_>,
        ranks: &Ranks,
        kinds: &KindRanks,
        i: usize,
    ) -> Option<String> {
        let p = i.checked_sub(self.start).filter(|&p| p < self.len())?;
        let seat = game.ctx().current.index();
        let place = self.places.name(game.rules(), kinds, p);
        Some(match self.places.entity_at(game, ranks, seat, p) {
            Some(e) => format!("aim at {}", super::entity_words(game, e, Some(place))),
            None => format!("aim at {place} (empty)"),
        })
    }
}

/// The indices of the uses of activated abilities: acting card place ×
/// ability × target index × option, the option varying fastest.
#[derive(Clone, Debug)]
pub(super) struct Uses {
    pub start: usize,
    actors: Places,
    /// The most abilities a card of the deck has.
    abilities: usize,
    /// Where their chosen targets can be; index 0 is a use with none.
    targets: Option<Places>,
    /// The most options an ability's `:choose` has, 1 when none has one.
    options: usize,
}

impl Uses {
    /// The uses of the deck's abilities; `None` when no card has one.
    pub fn new(rules: &RuleSet, cards: &[Card], at: &PlaceRules<'_>, start: usize) -> Option<Uses> {
        let abilities = cards.iter().map(|c| c.abilities.len()).max().unwrap_or(0);
        if abilities == 0 {
            return None;
        }
        let all = || cards.iter().flat_map(|c| &c.abilities);
        let mut spans = Vec::new();
        let mut aimed = false;
        for t in all().filter_map(|a| a.chosen()) {
            aimed = true;
            t.from.iter().for_each(|s| at.source(s, &mut spans));
        }
        let options = all()
            .filter_map(|a| rules.choices.get(a.choose?))
            .map(|s| usize::from(s.len))
            .max()
            .unwrap_or(1)
            .max(1);
        Some(Uses {
            start,
            actors: at.of_play(),
            abilities,
            targets: aimed.then(|| Places::new(spans)),
            options,
        })
    }

    /// `T`: 1 (no target), then a place each.
    fn targets(&self) -> usize {
        self.targets.as_ref().map_or(1, |p| 1 + p.len())
    }

    pub fn len(&self) -> usize {
        self.actors.len() * self.abilities * self.targets() * self.options
    }

    pub fn index_of(&self, game: &Game<'_>, ranks: &Ranks, action: Action) -> Option<usize> {
        let Ability::Use(k) = action.ability else {
            return None;
        };
        let seat = game.ctx().current.index();
        let actor = self.actors.index_of(game, ranks, seat, action.actor)?;
        let k = usize::from(k);
        let target = super::target_index(self.targets.as_ref(), game, ranks, seat, action.target)?;
        let set = game.ability_options(action.actor, k as u8)?;
        let option = super::option_index(set, action.choice)?;
        (k < self.abilities).then_some(())?;
        Some(
            self.start
                + ((actor * self.abilities + k) * self.targets() + target) * self.options
                + option,
        )
    }

    /// What index `i` stands for: the actor place, the ability, the target
    /// index (0 for none, else 1 + its place) and the option.
    fn decompose(&self, i: usize) -> Option<(usize, usize, usize, usize)> {
        let within = i.checked_sub(self.start).filter(|&w| w < self.len())?;
        let option = within % self.options;
        let rest = within / self.options;
        let target = rest % self.targets();
        let rest = rest / self.targets();
        Some((rest / self.abilities, rest % self.abilities, target, option))
    }

    pub fn action_at(&self, game: &Game<'_>, ranks: &Ranks, i: usize) -> Option<Action> {
        let (actor, k, target, option) = self.decompose(i)?;
        let seat = game.ctx().current.index();
        let actor = self.actors.entity_at(game, ranks, seat, actor)?;
        let k = u8::try_from(k).ok()?;
        let target = super::target_at(self.targets.as_ref(), game, ranks, seat, target)?;
        let mut choice = super::option_at(game.ability_options(actor, k)?, option)?;
        // An ability that aims, used on nothing (an `:optional` target),
        // names no option: its one index is option 0's.
        if target.is_none() && option == 0 && game.ability_aims(actor, k) {
            choice = None;
        }
        Some(Action {
            ability: Ability::Use(k),
            actor,
            target,
            choice,
        })
    }

    pub fn describe(&self, rules: &RuleSet, ranks: &KindRanks, i: usize) -> Option<String> {
        let (actor, k, target, option) = self.decompose(i)?;
        let mut text = format!("{}: use ability {k}", self.actors.name(rules, ranks, actor));
        if let (Some(places), Some(t)) = (&self.targets, target.checked_sub(1)) {
            text.push_str(" at ");
            text.push_str(&places.name(rules, ranks, t));
        }
        if self.options > 1 {
            text.push_str(&format!(" (option {option})"));
        }
        Some(text)
    }

    /// The places `e` may be named at, for words.
    pub fn place_of(
        &self,
        game: &Game<'_>,
        ranks: &Ranks,
        kinds: &KindRanks,
        e: EntityId,
    ) -> Option<String> {
        let seat = game.ctx().current.index();
        std::iter::once(&self.actors)
            .chain(&self.targets)
            .find_map(|p| Some(p.name(game.rules(), kinds, p.index_of(game, ranks, seat, e)?)))
    }
}
