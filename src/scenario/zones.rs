//! Piles in scenarios: `:given {:zones {…}}` read, given to a game, and
//! `:expect {:zones {…}}` read and checked.
//!
//! A pile is a shared zone's keyword (`:deck`) or a zone per seat with its
//! owner (`[:hand :you]`). Its cards are a vector of names, written top first
//! for an ordered zone (the next card drawn first) and in position order for
//! any other (a hand's first card first); a board's, a map of slots to names
//! (`{0 "Yeti" 2 "Wisp"}`); or, expected only, `{:count N}`.

use super::{PileRef, PileWant, Who};
use crate::check::defs::Card;
use crate::check::rules::{RuleSet, ZoneSet};
use crate::diag::{Code, Diagnostic};
use crate::engine::{CardId, Game};
use crate::ids::{EntityId, ZoneId};
use crate::syntax::{Form, Kind};

/// The most slots a board may have ([`crate::check::rules::zones::MAX_SLOTS`]).
const MAX_SLOT: i64 = crate::check::rules::zones::MAX_SLOTS;

/// How a scenario's reader reads whom a form names and which card.
pub(super) struct Names {
    /// A role, a seat or entity by name (`:you`, `:hero`).
    pub(super) who: fn(&Form<'_>, &RuleSet, &mut Vec<Diagnostic>) -> Option<Who>,
    /// A card of the deck by name (`"Yeti"`).
    pub(super) card: fn(&Form<'_>, &[Card], &mut Vec<Diagnostic>) -> Option<CardId>,
}

/// `{[:hand :you] ["Yeti" "Scout"] :deck ["Scout"] [:board :other] {0 "Yeti"}}`:
/// the piles of `:zones`, given (`given`: no `{:count N}`) or expected.
pub(super) fn piles(
    form: &Form<'_>,
    (rules, deck): (&RuleSet, &[Card]),
    names: &Names,
    given: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(PileRef, PileWant)> {
    let Some(set) = rules.zones.as_ref() else {
        diags.push(
            Diagnostic::new(
                Code::UnknownKey,
                form.span,
                format!("rule set `{}` keeps no cards: it has no zones", rules.name),
            )
            .with_help("`:zones` are for rule sets with `:cards` or `:zones`"),
        );
        return Vec::new();
    };
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::new(
            Code::NotAMap,
            form.span,
            "`:zones` is a map of piles to cards, such as `{[:hand :you] [\"Yeti\"] :deck {:count 0}}`",
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in pairs.iter() {
        let Some(pile) = pile_ref(k, set, rules, names, diags) else {
            continue;
        };
        let ordered = set.zones[pile.zone].ordered;
        if let Some(want) = cards(v, deck, names, (ordered, given), diags) {
            out.push((pile, want));
        }
    }
    out
}

/// `:deck` or `[:hand :you]`: a zone of the rule set, with an owner exactly
/// when it is a zone per seat.
fn pile_ref(
    form: &Form<'_>,
    set: &ZoneSet,
    rules: &RuleSet,
    names: &Names,
    diags: &mut Vec<Diagnostic>,
) -> Option<PileRef> {
    let (name, owner) = match &form.kind {
        Kind::Keyword(name) => (*name, None),
        Kind::Vector(items) if items.len() == 2 && items[0].as_keyword().is_some() => {
            (items[0].as_keyword().unwrap_or(""), Some(&items[1]))
        }
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::StepShape,
                    form.span,
                    format!(
                        "expected a pile, `:deck` or `[:hand :you]`, found {}",
                        form.describe()
                    ),
                )
                .with_help(
                    "a shared zone by its name; a zone per seat with its owner: `[:hand :you]`",
                ),
            );
            return None;
        }
    };
    let Some(zone) = set.zone(name) else {
        diags.push(
            Diagnostic::new(
                Code::UnknownKey,
                form.span,
                format!("`:{name}` is not a zone of rule set `{}`", rules.name),
            )
            .suggest(name, set.zones.iter().map(|z| z.name.as_str()), |s| {
                format!(":{s}")
            })
            .with_help_if_none(format!(
                "the zones are {}",
                crate::check::list_and(set.zones.iter().map(|z| format!("`:{}`", z.name)))
            )),
        );
        return None;
    };
    let shared = set.zones[zone].shared;
    let owner = match (owner, shared) {
        (None, true) => None,
        (Some(o), false) => Some((names.who)(o, rules, diags)?),
        (None, false) => {
            diags.push(
                Diagnostic::new(
                    Code::StepShape,
                    form.span,
                    format!("`:{name}` is a zone per seat: say whose, `[:{name} :you]`"),
                )
                .with_label("whose?"),
            );
            return None;
        }
        (Some(_), true) => {
            diags.push(
                Diagnostic::new(
                    Code::StepShape,
                    form.span,
                    format!("`:{name}` is shared: it is written `:{name}`, with no owner"),
                )
                .with_label("shared zone"),
            );
            return None;
        }
    };
    Some(PileRef { zone, owner })
}

/// `["Yeti" "Scout"]` (top first when `ordered`), `{0 "Yeti"}` or `{:count 2}`.
fn cards(
    v: &Form<'_>,
    deck: &[Card],
    names: &Names,
    (ordered, given): (bool, bool),
    diags: &mut Vec<Diagnostic>,
) -> Option<PileWant> {
    let card = names.card;
    match &v.kind {
        Kind::Vector(items) => {
            let mut list: Vec<CardId> = Vec::new();
            let mut ok = true;
            for item in items.iter() {
                match card(item, deck, diags) {
                    Some(c) => list.push(c),
                    None => ok = false,
                }
            }
            if ordered {
                list.reverse();
            }
            ok.then_some(PileWant::Cards(list))
        }
        Kind::Map(pairs)
            if !given && pairs.len() == 1 && pairs[0].0.as_keyword() == Some("count") =>
        {
            match pairs[0].1.kind {
                Kind::Int(n) if n >= 0 => Some(PileWant::Count(n as usize)),
                _ => {
                    diags.push(Diagnostic::new(
                        Code::whole_number(&pairs[0].1),
                        pairs[0].1.span,
                        "`:count` is a whole number of cards, 0 or more",
                    ));
                    None
                }
            }
        }
        Kind::Map(pairs) => {
            let mut slots = Vec::new();
            let mut ok = true;
            for (k, name) in pairs.iter() {
                let slot = match k.kind {
                    Kind::Int(n) if (0..MAX_SLOT).contains(&n) => Some(n as u16),
                    _ => {
                        diags.push(
                            Diagnostic::new(
                                Code::StepShape,
                                k.span,
                                format!(
                                    "a board's slots are numbered from 0, found {}",
                                    k.describe()
                                ),
                            )
                            .with_help(if given {
                                "`{0 \"Yeti\" 1 \"Wisp\"}`"
                            } else {
                                "`{0 \"Yeti\" 1 \"Wisp\"}`, or `{:count 2}` for a count alone"
                            }),
                        );
                        None
                    }
                };
                match (slot, card(name, deck, diags)) {
                    (Some(s), Some(c)) => slots.push((s, c)),
                    _ => ok = false,
                }
            }
            slots.sort_unstable();
            ok.then_some(PileWant::Slots(slots))
        }
        _ => {
            diags.push(Diagnostic::new(
                Code::StepShape,
                v.span,
                format!(
                    "expected the pile's cards, `[\"Yeti\"]`, `{{0 \"Yeti\"}}`{}, found {}",
                    if given { "" } else { " or `{:count 2}`" },
                    v.describe()
                ),
            ));
            None
        }
    }
}

/// What a [`PileWant`] puts in a pile, bottom first (`None`: an empty slot).
fn laid_out(want: &PileWant) -> Vec<Option<CardId>> {
    match want {
        PileWant::Cards(list) => list.iter().map(|&c| Some(c)).collect(),
        PileWant::Slots(slots) => {
            let len = slots
                .iter()
                .map(|&(s, _)| usize::from(s) + 1)
                .max()
                .unwrap_or(0);
            let mut out = vec![None; len];
            for &(s, c) in slots {
                out[usize::from(s)] = Some(c);
            }
            out
        }
        PileWant::Count(_) => Vec::new(),
    }
}

/// Gives `game` the piles a scenario gives; what failed, if any did.
pub(super) fn give(
    game: &mut Game<'_>,
    piles: &[(PileRef, PileWant)],
    owner: impl Fn(Who) -> EntityId,
) -> Vec<String> {
    let mut failures = Vec::new();
    for (pile, want) in piles {
        let whose = pile.owner.map_or(EntityId::FIRST, &owner);
        if let Err(why) = game.set_zone_cards(pile.zone, whose, &laid_out(want)) {
            let name = pile_shown(game, pile.zone, pile.owner.map(&owner));
            failures.push(format!("{name} cannot be given: {why}"));
        }
    }
    failures
}

/// A pile as messages name it: `deck`, `you's hand` (by the scenario's names).
fn pile_shown(game: &Game<'_>, zone: ZoneId, owner: Option<EntityId>) -> String {
    let rules = game.rules();
    let zone = rules
        .zones
        .as_ref()
        .and_then(|s| s.zones.get(zone))
        .map_or("?", |z| z.name.as_str());
    match owner {
        Some(o) => format!("{}'s {zone}", game.entity_name(o)),
        None => zone.to_string(),
    }
}

/// What is wrong with the pile `pile` of `game`, if it does not hold what
/// `want` says; `owner` is the seat a role names, `name` what a seat is called.
pub(super) fn failure(
    game: &Game<'_>,
    pile: &PileRef,
    want: &PileWant,
    owner: Option<EntityId>,
    name: impl Fn(EntityId) -> String,
) -> Option<String> {
    let rules = game.rules();
    let set = rules.zones.as_ref()?;
    let def = &set.zones[pile.zone];
    let shown = match owner {
        Some(o) => format!("{}'s {}", name(o), def.name),
        None => def.name.clone(),
    };
    let Some(got) = game.zone_cards(pile.zone, owner.unwrap_or(EntityId::FIRST)) else {
        return Some(format!("there is no pile {shown}"));
    };
    let cards = game.cards();
    let count = got.iter().flatten().count();
    let list = |cards_in: Vec<CardId>| {
        let mut names: Vec<String> = cards_in
            .iter()
            .map(|c| {
                format!(
                    "{:?}",
                    cards.get(c.index()).map_or("?", |d| d.name.as_str())
                )
            })
            .collect();
        if def.ordered {
            names.reverse();
        }
        format!("[{}]", names.join(" "))
    };
    let slots = |laid: &[Option<CardId>]| {
        let items: Vec<String> = laid
            .iter()
            .enumerate()
            .filter_map(|(s, c)| {
                let c = (*c)?;
                Some(format!(
                    "{s} {:?}",
                    cards.get(c.index()).map_or("?", |d| d.name.as_str())
                ))
            })
            .collect();
        format!("{{{}}}", items.join(" "))
    };
    match want {
        PileWant::Count(n) => {
            (count != *n).then(|| format!("{shown} holds {count} cards, expected {n}"))
        }
        PileWant::Cards(wanted) => {
            let held: Vec<CardId> = got.iter().flatten().copied().collect();
            (held != *wanted).then(|| {
                format!(
                    "{shown} holds {}, expected {}",
                    list(held),
                    list(wanted.clone())
                )
            })
        }
        PileWant::Slots(_) => {
            let mut wanted = laid_out(want);
            let mut held = got;
            let len = wanted.len().max(held.len());
            wanted.resize(len, None);
            held.resize(len, None);
            (held != wanted).then(|| {
                format!(
                    "{shown} holds {}, expected {}",
                    slots(&held),
                    slots(&wanted)
                )
            })
        }
    }
}
