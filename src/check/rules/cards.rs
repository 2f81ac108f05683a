//! `:cards {:pay-with [:bricks :gems :beasts] :hand-size 6}`: switches card zones
//! on. A game with card zones deals a shuffled deck, keeps a hand per seat and
//! a discard pile, and lets the player whose turn it is play or discard cards.

use super::{RuleSet, whole};
use crate::check;
use crate::check::ast::{AttrId, CardValue};
use crate::check::keys::{Keys, keys};
use crate::diag::{Code, Diagnostic};
use crate::ids::KindId;
use crate::syntax::{Form, Kind};

keys! {
    /// The keys of `:cards`.
    pub enum CardsKey {
        /// `:pay-with`: the attributes a card's cost may be paid in.
        PayWith = "pay-with",
        /// `:hand-size`: how many cards a hand is filled up to.
        HandSize = "hand-size",
        /// `:deck :shared` (one draw pile for all seats) or `:per-seat` (each seat its own copy).
        Deck = "deck",
        /// `:played :skill`: the attribute a play sets to the card's number.
        Played = "played",
        /// `:values {:multi {:default 1 :doc "…"}}`: numbers each card gives, named in its effects.
        Values = "values",
        /// `:discounts {:spell :spell-discount}` (with `:zones`): a card of
        /// that kind costs its player that attribute's value less (never
        /// below 0), so a status's modifier on it makes "your spells cost 1 less".
        Discounts = "discounts",
    }
}

keys! {
    /// How a game's cards are dealt: `:deck`.
    pub enum DeckKind {
        /// One draw pile that every seat draws from (Arcomage).
        Shared = "shared",
        /// Every seat draws from its own copy of the deck.
        PerSeat = "per-seat",
    }
}

keys! {
    /// The keys of one of `:values`.
    pub enum ValueKey {
        /// `:default 1.0`: the value of a card that does not give it.
        Default = "default",
        /// `:doc "…"`: what it means.
        Doc = "doc",
    }
}

/// One of `:cards :values`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueDef {
    /// Its name, a card key and a name in the card's effects (`multi`).
    pub name: String,
    /// What a card that does not give it has.
    pub default: CardValue,
    /// What it means.
    pub doc: String,
}

/// The most cards a hand may be filled up to.
pub const MAX_HAND_SIZE: i64 = 64;

/// Card zones: what `:cards` switches on.
#[derive(Clone, Debug, PartialEq)]
pub struct CardZones {
    /// The attributes a card's cost may be paid in (`:bricks :gems :beasts`);
    /// empty means any attribute.
    pub pay_with: Vec<AttrId>,
    /// How many cards a hand is filled up to after each action.
    pub hand_size: usize,
    /// Every seat draws from its own copy of the deck (`:deck :per-seat`).
    pub per_seat: bool,
    /// The attribute a play sets, on the player, to the card's number (its
    /// place in the deck list, from 1), before the card's effects run.
    pub played: Option<AttrId>,
    /// The numbers each card gives (`:multi 1.5`), named in its own effects.
    pub values: Vec<ValueDef>,
    /// `:discounts`: for a kind of card, the attribute of its player that
    /// its cost is lowered by.
    pub discounts: Vec<(KindId, AttrId)>,
}

impl CardZones {
    /// What cards kept in `:zones` are with no `:cards`: free, giving no values.
    pub fn free() -> CardZones {
        CardZones {
            pay_with: Vec::new(),
            hand_size: 0,
            per_seat: false,
            played: None,
            values: Vec::new(),
            discounts: Vec::new(),
        }
    }
}

/// Reads `:cards`; beside `:zones` (`zoned`), the zones say how cards are
/// dealt and held, so `:hand-size` and `:deck` are errors there (E0313).
pub(super) fn read(
    value: &Form<'_>,
    rules: &mut RuleSet,
    zoned: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(pairs) = check::fields(value, "`:cards`", CardsKey::ALL, diags) else {
        return;
    };
    let mut zones = CardZones {
        pay_with: Vec::new(),
        hand_size: 0,
        per_seat: false,
        played: None,
        values: Vec::new(),
        discounts: Vec::new(),
    };
    for (key, v) in pairs {
        if zoned && matches!(key, CardsKey::HandSize | CardsKey::Deck) {
            diags.push(
                Diagnostic::new(
                    Code::CardsAndZones,
                    v.span,
                    format!(
                        "`:cards :{}` does not go with `:zones`: the zones say how cards are dealt and held",
                        key.name()
                    ),
                )
                .with_label("beside `:zones`")
                .with_help(if key == CardsKey::HandSize {
                    "give the hand `:refill N` (topped up after each action) or `:deal N`, and a `:capacity`"
                } else {
                    "a zone with `:start :deck` and no `:shared true` makes one deck per seat"
                }),
            );
            continue;
        }
        match key {
            CardsKey::PayWith => pay_with(v, rules, &mut zones, diags),
            CardsKey::Deck => {
                zones.per_seat = check::keyword_in::<DeckKind>(
                    v,
                    format!(
                        "`:deck` is `:shared` or `:per-seat`, found {}",
                        v.describe()
                    ),
                    "not a way to deal",
                    None,
                    diags,
                ) == Some(DeckKind::PerSeat);
            }
            CardsKey::Played => {
                zones.played = attribute(v, rules, "`:played`", diags);
            }
            CardsKey::Values => zones.values = values(v, rules, diags),
            CardsKey::Discounts if !zoned => diags.push(
                Diagnostic::new(
                    Code::KeyNotHere,
                    v.span,
                    "`:cards :discounts` goes with `:zones`: a kind of card is a `:zones` kind",
                )
                .with_label("without `:zones`"),
            ),
            CardsKey::Discounts => zones.discounts = discounts(v, rules, diags),
            CardsKey::HandSize => {
                zones.hand_size =
                    whole(v, "`:hand-size`", 1, MAX_HAND_SIZE, diags).unwrap_or(1) as usize;
            }
        }
    }
    if !zoned && !value.has_key(CardsKey::HandSize.name()) {
        diags.push(
            Diagnostic::new(Code::MissingKey, value.span, "`:cards` needs `:hand-size`")
                .with_label("missing `:hand-size`")
                .with_help("say how many cards a hand holds: `:hand-size 6`"),
        );
    }
    rules.cards = Some(zones);
}

/// `{:spell :spell-discount}`: each a kind of card and an attribute of
/// its player.
fn discounts(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Vec<(KindId, AttrId)> {
    let mut out = Vec::new();
    for (name, (span, attr)) in super::keyword_map(v, "`:discounts`", diags) {
        let kind = rules.kinds.iter().position(|k| k == name).map(KindId::new);
        let Some(kind) = kind.filter(|&k| rules.card_kinds.get(k) == Some(&true)) else {
            diags.push(
                Diagnostic::new(
                    Code::UnknownKind,
                    span,
                    format!("`:discounts` names kinds of card, found `:{name}`"),
                )
                .with_label("not a kind marked `:card true`"),
            );
            continue;
        };
        if let Some(a) = attribute(attr, rules, "a discount", diags) {
            out.push((kind, a));
        }
    }
    out
}

/// The numbers cards give: `{:multi {:default 1.0 :doc "…"}}`. Their names
/// become card keys and names in each card's effects, so they may not be a
/// card's own keys or a name the rule set already uses.
fn values(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Vec<ValueDef> {
    let mut out: Vec<ValueDef> = Vec::new();
    for (name, (span, def)) in super::keyword_map(v, "`:values`", diags) {
        let taken = crate::check::DefKey::find(name).is_some()
            || rules.roles.iter().any(|r| r == name)
            || rules.attributes.iter().any(|a| a == name)
            || rules.operations.iter().any(|o| o == name)
            || rules.params.iter().any(|(p, _)| p == name)
            || check::RESERVED.contains(&name);
        if taken || out.iter().any(|d| d.name == name) {
            diags.push(
                Diagnostic::new(Code::Duplicate, span, format!("`:{name}` is already a name here"))
                    .with_label("taken")
                    .with_help("a card value is a card key and a name in the card's effects: choose a name nothing else has"),
            );
            continue;
        }
        let Some(pairs) = check::fields(def, "a card value", ValueKey::ALL, diags) else {
            continue;
        };
        let mut value = ValueDef {
            name: name.to_string(),
            default: CardValue::Int(0),
            doc: String::new(),
        };
        for (key, v) in pairs {
            match key {
                ValueKey::Doc => value.doc = super::string(v, diags).unwrap_or_default(),
                ValueKey::Default => match number(v, diags) {
                    Some(n) => value.default = n,
                    None => continue,
                },
            }
        }
        out.push(value);
    }
    out
}

/// A card value written in a file: an integer or a decimal.
pub fn number(v: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<CardValue> {
    match v.kind {
        Kind::Int(n) => Some(CardValue::Int(n)),
        Kind::Dec(d) if d.is_finite() => Some(CardValue::Dec(d)),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::NotANumber,
                    v.span,
                    format!("expected a number, found {}", v.describe()),
                )
                .with_label("expected a number such as `1.5`"),
            );
            None
        }
    }
}

/// The attribute keyword `v` names, or an error naming `key` with the nearest.
pub fn attribute(
    v: &Form<'_>,
    rules: &RuleSet,
    key: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<AttrId> {
    check::Declared::new(
        rules.attributes.iter().map(String::as_str),
        "an attribute",
        "attributes",
        Code::UnknownAttribute,
    )
    .find(
        v.as_keyword().unwrap_or(""),
        v.span,
        format!("{key} names an attribute, found {}", v.describe()),
        diags,
    )
    .map(AttrId::new)
}

fn pay_with(v: &Form<'_>, rules: &RuleSet, zones: &mut CardZones, diags: &mut Vec<Diagnostic>) {
    let Kind::Vector(items) = &v.kind else {
        diags.push(Diagnostic::new(
            Code::WrongType,
            v.span,
            "`:pay-with` is a vector of attributes",
        ));
        return;
    };
    for item in items.iter() {
        match item.as_keyword().and_then(|a| rules.attribute(a)) {
            Some(a) => zones.pay_with.push(a),
            None => diags.push(
                Diagnostic::new(
                    Code::UnknownAttribute,
                    item.span,
                    format!("expected an attribute, found {}", item.describe()),
                )
                .suggest(
                    item.as_keyword().unwrap_or(""),
                    rules.attributes.iter().map(String::as_str),
                    |s| format!(":{s}"),
                ),
            ),
        }
    }
}
