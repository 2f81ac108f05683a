//! Where an actor or a target is, as the seat acting names it (issue 31): an
//! entity of a kind that is no card by its rank ([`Ranks`]), a card instance
//! by its place: a pile the observation shows place by place (a board's
//! slots, the hand the seat plays from), named from the seat acting (its
//! own, then the others in seat order after it), and a position in it. So
//! an index means the same to every seat: "the other's board slot 2".

use super::{KindRanks, Ranks};
use crate::check::ast::{EntityId, Source};
use crate::check::rules::{KindId, RuleSet, Visibility};
use crate::engine::Game;
use crate::ids::ZoneId;

/// A run of consecutive places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Span {
    /// The entities of a kind that is no card, by rank.
    Ranks { kind: KindId, count: usize },
    /// The positions of one pile: its zone, its owner counted from the seat
    /// acting (0 its own, 1 the next in seat order; 0 for a shared zone),
    /// and how many positions are addressed.
    Pile {
        zone: ZoneId,
        from_actor: usize,
        rows: usize,
    },
}

impl Span {
    fn len(self) -> usize {
        match self {
            Span::Ranks { count, .. } => count,
            Span::Pile { rows, .. } => rows,
        }
    }
}

/// A set of places, each numbered: the kinds by rank first (in kind order),
/// then the piles (in zone order, each zone's own pile first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Places {
    /// Each span with its first place.
    spans: Vec<(usize, Span)>,
    len: usize,
}

/// What the places of a rule set are made of: each kind's ranks and each
/// pile as the seat acting sees it.
pub(super) struct PlaceRules<'a> {
    pub rules: &'a RuleSet,
    /// By kind: how many ranks.
    pub caps: &'a [usize],
    /// The hand slots, `H`: the positions of the hand a seat plays from.
    pub hand_slots: usize,
}

impl PlaceRules<'_> {
    /// The piles of `zone` shown place by place to the seat acting, each
    /// with the positions addressed: a board's slots, the seat's own hand;
    /// and another seat's hand by position, though the observation shows
    /// only how many of each card its seat knows there (a card aimed at in
    /// another's hand is one its player knows: the mask says which
    /// positions). Any other pile the observation shows only counted has
    /// none: a card there is not addressed (an action on it is overflowed).
    fn zone(&self, zone: ZoneId, out: &mut Vec<Span>) {
        let Some(set) = self.rules.zones.as_ref().filter(|z| !z.classic) else {
            return;
        };
        let def = &set.zones[zone];
        let hand = set.plays == Some(zone);
        let rows = match def.slots {
            0 if hand => self.hand_slots,
            0 => return,
            n => usize::from(n),
        };
        let piles = if def.shared {
            1
        } else {
            self.rules.seats.len()
        };
        for from_actor in 0..piles {
            // As `ObsLayout` sees it: a pile of `:visible :owner` by its owner alone.
            let seen = hand
                || match def.visible {
                    Visibility::All => true,
                    Visibility::Owner => from_actor == 0 && !def.shared,
                    Visibility::Nobody => false,
                };
            if seen && rows > 0 {
                out.push(Span::Pile {
                    zone,
                    from_actor,
                    rows,
                });
            }
        }
    }

    /// The places of the entities of `kind`: its ranks, or for a kind of
    /// cards the piles of the zones in play (where `:each KIND` finds them).
    fn kind(&self, kind: KindId, out: &mut Vec<Span>) {
        if !self.rules.card_kinds.get(kind).copied().unwrap_or(false) {
            let count = self.caps.get(kind.index()).copied().unwrap_or(0);
            out.push(Span::Ranks { kind, count });
            return;
        }
        self.in_play(out);
    }

    /// The piles of every zone in play.
    fn in_play(&self, out: &mut Vec<Span>) {
        let Some(set) = self.rules.zones.as_ref().filter(|z| !z.classic) else {
            return;
        };
        for (zone, def) in set.zones.iter_ids() {
            if def.in_play {
                self.zone(zone, out);
            }
        }
    }

    /// The places a target's `:from` can name: a kind's, a pile's (every
    /// seat's, the owner named being no place's), a card's neighbours on
    /// any board in play.
    pub fn source(&self, source: &Source, out: &mut Vec<Span>) {
        match source {
            Source::Kind(kind) => self.kind(*kind, out),
            Source::Zone(z) => self.zone(z.zone, out),
            Source::Adjacent(_) => self.in_play(out),
        }
    }

    /// The places of the cards in the zones in play, numbered: where a
    /// card's activated ability is used from.
    pub fn of_play(&self) -> Places {
        let mut spans = Vec::new();
        self.in_play(&mut spans);
        Places::new(spans)
    }

    /// The places of the entities of `kind`, numbered.
    pub fn of_kind(&self, kind: KindId) -> Places {
        let mut spans = Vec::new();
        self.kind(kind, &mut spans);
        Places::new(spans)
    }
}

impl Places {
    /// The places of `spans`, each once, in their order.
    pub fn new(mut spans: Vec<Span>) -> Places {
        spans.sort_unstable();
        spans.dedup();
        let mut len = 0;
        let spans = spans
            .into_iter()
            .map(|s| {
                let start = len;
                len += s.len();
                (start, s)
            })
            .collect();
        Places { spans, len }
    }

    /// How many places.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The span place `p` is in, and `p`'s position within it.
    fn span_of(&self, p: usize) -> Option<(Span, usize)> {
        self.spans
            .iter()
            .find(|&&(start, s)| p >= start && p < start + s.len())
            .map(|&(start, s)| (s, p - start))
    }

    /// The place of `entity` as `seat` names it, if it has one.
    pub fn index_of(
        &self,
        game: &Game<'_>,
        ranks: &Ranks,
        seat: usize,
        entity: EntityId,
    ) -> Option<usize> {
        let table = game.state().cards.as_deref();
        if let (Some(t), Some(set)) = (table, game.rules().zones.as_ref())
            && t.card(entity).is_some()
        {
            let pile = t.pile_of(entity)?;
            let (zone, seats) = (t.zone_of(pile), t.seats().max(1));
            let from_actor = t
                .owner_of(set, pile)
                .map_or(0, |o| (o.index() + seats - seat % seats) % seats);
            let at = t.position(entity)?;
            return self.spans.iter().find_map(|&(start, s)| match s {
                Span::Pile {
                    zone: z,
                    from_actor: k,
                    rows,
                } if z == zone && k == from_actor && at < rows => Some(start + at),
                _ => None,
            });
        }
        let (kind, rank) = ranks.rank(entity)?;
        self.spans.iter().find_map(|&(start, s)| match s {
            Span::Ranks { kind: k, count } if k == kind && rank < count => Some(start + rank),
            _ => None,
        })
    }

    /// The entity at place `p` in `game` now, as `seat` names it: `None`
    /// where no entity has the rank yet, or the position holds no card.
    pub fn entity_at(
        &self,
        game: &Game<'_>,
        ranks: &Ranks,
        seat: usize,
        p: usize,
    ) -> Option<EntityId> {
        match self.span_of(p)? {
            (Span::Ranks { kind, .. }, rank) => ranks.entity(kind, rank),
            (
                Span::Pile {
                    zone, from_actor, ..
                },
                at,
            ) => {
                let t = game.state().cards.as_deref()?;
                let set = game.rules().zones.as_ref()?;
                let owner = (!set.zones[zone].shared)
                    .then(|| EntityId::new((seat + from_actor) % t.seats().max(1)));
                let pile = t.pile_at(zone, owner)?;
                // An empty site of a board holds no card.
                let e = *t.contents(pile).get(at)?;
                t.card(e).is_some().then_some(e)
            }
        }
    }

    /// What place `p` is called in every game: a rank's (`p1`, `minion
    /// rank 3`), or a pile's position from the seat acting (`your board
    /// slot 2`, `the other's board slot 1`, `the discard slot 0`).
    pub fn name(&self, rules: &RuleSet, ranks: &KindRanks, p: usize) -> String {
        match self.span_of(p) {
            Some((Span::Ranks { kind, .. }, rank)) => ranks.name(rules, kind, rank),
            Some((
                Span::Pile {
                    zone, from_actor, ..
                },
                at,
            )) => {
                let zone_name = rules
                    .zones
                    .as_ref()
                    .and_then(|z| z.zones.get(zone))
                    .map_or("?", |d| d.name.as_str());
                let shared = rules
                    .zones
                    .as_ref()
                    .and_then(|z| z.zones.get(zone))
                    .is_some_and(|d| d.shared);
                let whose = match (shared, from_actor, rules.seats.len()) {
                    (true, _, _) => "the".to_string(),
                    (false, 0, _) => "your".to_string(),
                    (false, _, 2) => "the other's".to_string(),
                    (false, k, _) => format!("other{k}'s"),
                };
                format!("{whose} {zone_name} slot {at}")
            }
            None => format!("place {p}"),
        }
    }

    /// The number of places, by span, for a refusal's detail: `2 + 14`.
    pub fn detail(&self) -> String {
        match self.spans.len() {
            0 | 1 => self.len.to_string(),
            _ => self
                .spans
                .iter()
                .map(|(_, s)| s.len().to_string())
                .collect::<Vec<_>>()
                .join(" + "),
        }
    }
}
