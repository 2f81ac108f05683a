//! `grimoire eval` on a rule set with `:zones`: the state starts as a game
//! sets it up (the deck's cards made in their `:start` zones, shuffled from
//! the seed, the hands dealt: [`Game::dealt`]), a `--state` file may give
//! piles as a scenario's `:given :zones` does (`zones: {"hand.you":
//! ["Yeti"], "deck": ["Scout"]}`), and the output lists every pile after the
//! state table. A rule set without `:zones` never comes here.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Bound, Output};
use crate::check::defs::Card;
use crate::check::rules::{Layout, RuleSet, ZoneSet};
use crate::diag::{Code, Diagnostic, Source};
use crate::engine::{CardId, Game};
use crate::eval::{Event, State, What};
use crate::ids::{EntityId, ZoneId};
use crate::syntax::Span;

/// The most cards a pile's line names before it says how many more there are.
const NAMED_PER_PILE: usize = 10;

/// A pile's cards as a state file writes them: names in a list (top first
/// for an ordered zone, the next card drawn first; in position order for
/// any other), or a board's slots (`{0: "Yeti", 2: "Wisp"}`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum PileText {
    /// Card names, top first for an ordered zone.
    List(Vec<String>),
    /// A board's cards by slot.
    Slots(BTreeMap<u16, String>),
}

/// A pile a state file gives: its zone, its owner (a seat; the first for a
/// shared zone) and its cards bottom first (`None`: an empty site).
struct Given {
    zone: ZoneId,
    owner: EntityId,
    cards: Vec<Option<CardId>>,
    /// The pile's key in the file, for a pile that cannot hold them.
    span: Span,
}

/// What `eval` on a rule set with `:zones` starts from: the deck a game
/// deals, and the piles a state file gives over the deal.
pub(super) struct Zoned {
    /// The deck, by [`CardId`].
    pub(super) deck: Vec<Card>,
    given: Vec<Given>,
    /// The state file the piles were read from, for their errors.
    file: Option<Source>,
    /// How errors are shown: `--format`, and colour.
    shown: (super::Format, bool),
}

/// Whether `rules` keeps its cards in `:zones` (not `:cards` alone).
pub(super) fn zoned(rules: &RuleSet) -> bool {
    rules.zones.as_ref().is_some_and(|z| !z.classic)
}

impl Zoned {
    /// The deck and the names `eval` binds (the roles as a game binds them
    /// for the first seat, then the setup entities), and the piles `zones`
    /// gives (read from `file`), or what is wrong with them.
    pub(super) fn new(
        rules: &RuleSet,
        deck: Vec<Card>,
        names: Vec<String>,
        zones: Option<(BTreeMap<String, PileText>, Source)>,
        args: &super::EvalArgs,
    ) -> Result<(Zoned, Bound), Output> {
        // The roles are bound as a game binds them for the first seat: a
        // game dealt once says which entity each means (and whether it deals).
        let dealt = Game::dealt(rules, &deck, 0).map_err(|e| Output::usage(e.to_string()))?;
        let seats = rules.seats.len();
        let setup = names.len().saturating_sub(rules.roles.len());
        let entities = dealt
            .roles(EntityId::FIRST)
            .iter()
            .copied()
            .chain((seats..seats + setup).map(EntityId::new))
            .collect();
        drop(dealt);
        let bound = Bound { names, entities };
        let (given, file) = match zones {
            None => (Vec::new(), None),
            Some((piles, source)) => {
                let mut diags = Vec::new();
                let given = given_piles(rules, &deck, &bound, &piles, &source, &mut diags);
                // The piles were read in key order: their faults are told in the file's.
                diags.sort_by_key(|d| d.span.start);
                if !diags.is_empty() {
                    let located: Vec<_> = diags.iter().map(|d| (&source, d)).collect();
                    return Err(Output::diagnostics(&located, args.format, args.color));
                }
                (given, Some(source))
            }
        };
        let shown = (args.format, args.color);
        Ok((
            Zoned {
                deck,
                given,
                file,
                shown,
            },
            bound,
        ))
    }

    /// The state `seed` deals, with the piles given, and (for `--card`) an
    /// instance of `card` where a play of it by the first seat puts it,
    /// bound as `:this-card`.
    pub(super) fn start(
        &self,
        rules: &RuleSet,
        seed: u64,
        card: Option<CardId>,
    ) -> Result<State, Output> {
        let mut dealt =
            Game::dealt(rules, &self.deck, seed).map_err(|e| Output::usage(e.to_string()))?;
        for pile in &self.given {
            if let Err(why) = dealt.set_zone_cards(pile.zone, pile.owner, &pile.cards) {
                let d = Diagnostic::new(Code::OutOfRange, pile.span, why)
                    .with_label("too many cards for this pile");
                let source = self.file.clone().unwrap_or_else(|| Source::new("", ""));
                let (format, color) = self.shown;
                return Err(Output::diagnostics(&[(&source, &d)], format, color));
            }
        }
        if let Some(card) = card
            && dealt.make_resolving(card, EntityId::FIRST).is_none()
        {
            let name = self.deck.get(card.index()).map_or("?", |c| c.name.as_str());
            return Err(Output::failure(format!(
                "there is no room for {name} where its play puts it"
            )));
        }
        Ok(dealt.into_state())
    }
}

/// The piles of a state file's `zones:` map, each key `"deck"` (a shared
/// zone) or `"hand.you"` (a zone per seat and its owner, a role or a seat),
/// each value its cards; what is wrong pushed to `diags`, located in `source`.
fn given_piles(
    rules: &RuleSet,
    deck: &[Card],
    bound: &Bound,
    piles: &BTreeMap<String, PileText>,
    source: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Given> {
    let Some(set) = rules.zones.as_ref() else {
        return Vec::new();
    };
    let text = &source.text;
    let zones_at = field_at(text, "zones");
    let mut out = Vec::new();
    for (key, cards) in piles {
        let span = literal_at(text, zones_at, key);
        let Some((zone, owner)) = pile_of(rules, set, bound, key, span, diags) else {
            continue;
        };
        let ordered = set.zones[zone].ordered;
        let slots = usize::from(set.zones[zone].slots);
        let card = |name: &str, diags: &mut Vec<Diagnostic>| {
            card_of(
                deck,
                name,
                literal_at(text, span.start as usize, name),
                diags,
            )
        };
        let laid: Option<Vec<Option<CardId>>> = match cards {
            PileText::List(names) => {
                let found: Vec<Option<CardId>> = names.iter().map(|n| card(n, diags)).collect();
                let mut list: Option<Vec<Option<CardId>>> =
                    found.into_iter().map(|c| c.map(Some)).collect();
                if ordered && let Some(list) = &mut list {
                    list.reverse();
                }
                list
            }
            PileText::Slots(by_slot) => {
                let mut laid = Vec::new();
                let mut ok = true;
                for (&slot, name) in by_slot {
                    let slot = usize::from(slot);
                    if slot >= slots.max(1) || slots == 0 {
                        diags.push(no_such_slot(set, zone, slot, span));
                        ok = false;
                        continue;
                    }
                    match card(name, diags) {
                        Some(c) => {
                            laid.resize(laid.len().max(slot + 1), None);
                            laid[slot] = Some(c);
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(laid)
            }
        };
        if let Some(cards) = laid {
            out.push(Given {
                zone,
                owner,
                cards,
                span,
            });
        }
    }
    out
}

/// The card of `deck` called `name`; `None`, with E0407 at `at` pushed to
/// `diags`, when no card is.
fn card_of(deck: &[Card], name: &str, at: Span, diags: &mut Vec<Diagnostic>) -> Option<CardId> {
    let found = deck.iter().position(|c| c.name == name).map(CardId::new);
    if found.is_none() {
        diags.push(
            Diagnostic::new(
                Code::UnknownCardName,
                at,
                format!("no card of the deck is named \"{name}\""),
            )
            .with_label("not a card of the deck")
            .suggest(name, deck.iter().map(|c| c.name.as_str()), |s| {
                format!("\"{s}\"")
            }),
        );
    }
    found
}

/// E0242: slot `slot` of zone `zone`, which has fewer (or none).
fn no_such_slot(set: &ZoneSet, zone: ZoneId, slot: usize, span: Span) -> Diagnostic {
    let def = &set.zones[zone];
    let message = if def.slots == 0 {
        format!("`:{}` has no slots: give its cards as a list", def.name)
    } else {
        format!(
            "`:{}` has {} slots, numbered 0 to {}: there is no slot {slot}",
            def.name,
            def.slots,
            def.slots - 1
        )
    };
    Diagnostic::new(Code::NoSuchSlot, span, message).with_label("no such slot")
}

/// The zone and owner of key `key`: `"deck"`, or `"hand.you"`; `None`, with
/// what is wrong pushed to `diags`, for a key that names no pile.
fn pile_of(
    rules: &RuleSet,
    set: &ZoneSet,
    bound: &Bound,
    key: &str,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<(ZoneId, EntityId)> {
    let (name, owner) = match key.split_once('.') {
        Some((zone, owner)) => (zone, Some(owner)),
        None => (key, None),
    };
    let Some(zone) = set.zone(name) else {
        diags.push(
            Diagnostic::new(
                Code::UnknownZone,
                span,
                format!("`{name}` is not a zone of rule set `{}`", rules.name),
            )
            .with_label("no such zone")
            .suggest(name, set.zones.iter().map(|z| z.name.as_str()), |s| {
                s.to_string()
            })
            .with_help_if_none(format!(
                "the zones are {}",
                crate::check::list_and(set.zones.iter().map(|z| format!("`{}`", z.name)))
            )),
        );
        return None;
    };
    let shared = set.zones[zone].shared;
    match (owner, shared) {
        (None, true) => Some((zone, EntityId::FIRST)),
        (Some(_), true) => {
            diags.push(
                Diagnostic::new(
                    Code::ZoneOwner,
                    span,
                    format!("`{name}` is shared: it is written `\"{name}\"`, with no owner"),
                )
                .with_label("shared zone"),
            );
            None
        }
        (None, false) => {
            diags.push(
                Diagnostic::new(
                    Code::ZoneOwner,
                    span,
                    format!("`{name}` is a zone per seat: say whose, `\"{name}.you\"`"),
                )
                .with_label("whose?"),
            );
            None
        }
        (Some(owner), false) => {
            let seats = rules.seats.len();
            let by_role = bound
                .names
                .iter()
                .position(|n| n == owner)
                .and_then(|i| bound.entities.get(i).copied());
            let by_seat = rules.seats.iter().position(|s| s == owner);
            match by_role.or(by_seat.map(EntityId::new)) {
                Some(seat) if seat.index() < seats => Some((zone, seat)),
                _ => {
                    let known: Vec<&str> = bound.names[..rules.roles.len().min(bound.names.len())]
                        .iter()
                        .chain(&rules.seats)
                        .map(String::as_str)
                        .collect();
                    diags.push(
                        Diagnostic::new(
                            Code::UnknownEntity,
                            span,
                            format!("`{owner}` is not a seat: `{name}` is a zone per seat"),
                        )
                        .with_label("no such seat")
                        .suggest(owner, known.iter().copied(), |s| format!("{name}.{s}"))
                        .with_help_if_none(format!(
                            "its owner is a role or a seat: {}",
                            crate::check::list_and(known.iter().map(|n| format!("`{n}`")))
                        )),
                    );
                    None
                }
            }
        }
    }
}

/// Where field `name` of a RON struct is written (`zones:`): 0 if nowhere.
/// RON's reader keeps no place of what it read, so the file's errors are
/// found again in its text.
fn field_at(text: &str, name: &str) -> usize {
    text.match_indices(name)
        .find(|&(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].trim_start();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '"')
                && after.starts_with(':')
        })
        .map_or(0, |(at, _)| at)
}

/// The string literal `"value"` at or after byte `from` of `text`, quotes
/// included; where the search began when it is not there (a name written
/// with escapes).
fn literal_at(text: &str, from: usize, value: &str) -> Span {
    let quoted = format!("\"{value}\"");
    let from = from.min(text.len());
    match text.get(from..).and_then(|rest| rest.find(&quoted)) {
        Some(at) => Span::new(from + at, from + at + quoted.len()),
        None => Span::new(from, (from + 1).min(text.len())),
    }
}

/// The name of every entity of `state` in `eval`'s output: the bound names
/// (a seat by the first role that means it, else the seat's name), card
/// instances by card and number (`Yeti#14`), entities `events` saw enter
/// play by kind and number (`tile#7`), any other by number.
pub(super) fn names(
    rules: &RuleSet,
    deck: &[Card],
    bound: &Bound,
    state: &State,
    events: &[Event],
) -> Vec<String> {
    let mut names: Vec<String> = (0..state.len()).map(|e| format!("#{e}")).collect();
    for (name, seat) in names.iter_mut().zip(&rules.seats) {
        name.clone_from(seat);
    }
    for (name, entity) in bound.names.iter().zip(&bound.entities).rev() {
        if let Some(slot) = names.get_mut(entity.index()) {
            slot.clone_from(name);
        }
    }
    if let Some(table) = state.cards.as_deref() {
        for e in table.instances() {
            if let (Some(card), Some(slot)) = (table.card(e), names.get_mut(e.index())) {
                let name = deck.get(card.index()).map_or("?", |c| c.name.as_str());
                *slot = crate::engine::log::card_name(name, e);
            }
        }
    }
    for e in events {
        if let (What::Spawned(kind), Some(name)) = (e.what, names.get_mut(e.entity.index())) {
            *name = crate::engine::log::spawned_name(rules, kind, e.entity);
        }
    }
    names
}

/// The entities the state table and the state JSON show: the seats and
/// setup entities, every entity in play, and those `events` saw enter play
/// (a card in a hand or a deck is listed with its pile, not as a row).
pub(super) fn rows(bound: &Bound, state: &State, events: &[Event]) -> Vec<EntityId> {
    let named = bound
        .entities
        .iter()
        .map(|e| e.index() + 1)
        .max()
        .unwrap_or(0);
    let spawned = |e: EntityId| {
        events
            .iter()
            .any(|ev| ev.entity == e && matches!(ev.what, What::Spawned(_)))
    };
    EntityId::below(state.len())
        .filter(|&e| e.index() < named || state.is_live(e) || spawned(e))
        .collect()
}

/// What a pile is called in `eval`'s JSON and in a state file: its zone,
/// and its owner after a dot for a zone per seat (`"hand.you"`).
pub(super) fn pile_key(rules: &RuleSet, pile: u16, names: &[String]) -> String {
    let place = rules
        .zones
        .as_ref()
        .and_then(|set| Some((set, set.pile_place(usize::from(pile), rules.seats.len())?)));
    match place {
        Some((set, (zone, None))) => set.zones[zone].name.clone(),
        Some((set, (zone, Some(owner)))) => {
            let who = names.get(owner).map_or("?", String::as_str);
            format!("{}.{who}", set.zones[zone].name)
        }
        None => format!("pile {pile}"),
    }
}

/// Each pile's cards as `eval` lists them, with the pile: top first for an
/// ordered zone, in position (a board's slot) order for any other; `None`
/// for a board's empty site.
fn piles(rules: &RuleSet, state: &State, names: &[String]) -> Vec<(u16, Vec<Option<String>>)> {
    let (Some(set), Some(table)) = (rules.zones.as_ref(), state.cards.as_deref()) else {
        return Vec::new();
    };
    (0..table.piles())
        .map(|pile| {
            let zone = &set.zones[table.zone_of(pile)];
            let mut cards: Vec<Option<String>> = table
                .contents(pile)
                .iter()
                .map(|&e| {
                    (table.card(e).is_some()).then(|| {
                        names
                            .get(e.index())
                            .cloned()
                            .unwrap_or_else(|| format!("#{e}"))
                    })
                })
                .collect();
            if zone.ordered {
                cards.reverse();
            }
            // A board of sites lists its empty sites up to its last card.
            if zone.layout == Layout::Sites {
                while cards.last().is_some_and(Option::is_none) {
                    cards.pop();
                }
            }
            (u16::try_from(pile).unwrap_or(u16::MAX), cards)
        })
        .collect()
}

/// Every pile, one a line after the state table: `you's hand, 3 cards:
/// Yeti#1, Coin#25, Scout#20`; an ordered pile top first; the first
/// [`NAMED_PER_PILE`] cards of a bigger pile named, the rest counted.
pub(super) fn zones_text(rules: &RuleSet, state: &State, names: &[String]) -> String {
    let mut out = String::new();
    let set = rules.zones.as_ref();
    let seat = |e: EntityId| -> std::borrow::Cow<'_, str> {
        names
            .get(e.index())
            .map_or_else(|| format!("#{e}").into(), |n| n.as_str().into())
    };
    for (pile, cards) in piles(rules, state, names) {
        let label = crate::engine::log::pile_name(rules, pile, u32::MAX, &seat);
        let count = cards.iter().flatten().count();
        if count == 0 {
            let _ = writeln!(out, "{label}: empty");
            continue;
        }
        let ordered = set
            .and_then(|s| s.pile_place(usize::from(pile), rules.seats.len()))
            .zip(set)
            .is_some_and(|((zone, _), s)| s.zones[zone].ordered);
        let shown: Vec<&str> = cards
            .iter()
            .take(NAMED_PER_PILE)
            .map(|c| c.as_deref().unwrap_or("-"))
            .collect();
        let _ = write!(
            out,
            "{label}, {count} card{}{}: {}",
            crate::diag::plural(count),
            if ordered { ", top first" } else { "" },
            shown.join(", ")
        );
        if cards.len() > NAMED_PER_PILE {
            let _ = write!(out, ", and {} more", cards.len() - NAMED_PER_PILE);
        }
        out.push('\n');
    }
    out
}

/// Every pile by its key (`"deck"`, `"hand.you"`): its cards, top first
/// for an ordered zone, `null` for a board's empty site.
pub(super) fn zones_json(rules: &RuleSet, state: &State, names: &[String]) -> Value {
    let piles: serde_json::Map<String, Value> = piles(rules, state, names)
        .into_iter()
        .map(|(pile, cards)| (pile_key(rules, pile, names), json!(cards)))
        .collect();
    Value::Object(piles)
}
