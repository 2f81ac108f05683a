//! `:cards {:pay-with [:bricks :gems :beasts] :hand-size 6}`: switches card zones
//! on. A game with card zones deals a shuffled deck, keeps a hand per seat and
//! a discard pile, and lets the player whose turn it is play or discard cards.

use super::{RuleSet, whole};
use crate::ast::AttrId;
use crate::check;
use crate::check::keys::{Keys, keys};
use crate::diag::Diagnostic;
use crate::syntax::{Form, Kind};

keys! {
    /// The keys of `:cards`.
    pub enum CardsKey {
        /// `:pay-with`: the attributes a card's cost may be paid in.
        PayWith = "pay-with",
        /// `:hand-size`: how many cards a hand is filled up to.
        HandSize = "hand-size",
    }
}

/// The most cards a hand may be filled up to.
pub const MAX_HAND_SIZE: i64 = 64;

/// Card zones: what `:cards` switches on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardZones {
    /// The attributes a card's cost may be paid in (`:bricks :gems :beasts`);
    /// empty means any attribute.
    pub pay_with: Vec<AttrId>,
    /// How many cards a hand is filled up to after each action.
    pub hand_size: usize,
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = check::fields(value, "`:cards`", CardsKey::ALL, diags) else {
        return;
    };
    let mut zones = CardZones {
        pay_with: Vec::new(),
        hand_size: 0,
    };
    for (key, v) in pairs {
        match key {
            CardsKey::PayWith => pay_with(v, rules, &mut zones, diags),
            CardsKey::HandSize => {
                zones.hand_size =
                    whole(v, "`:hand-size`", 1, MAX_HAND_SIZE, diags).unwrap_or(1) as usize;
            }
        }
    }
    if !value.has_key(CardsKey::HandSize.name()) {
        diags.push(
            Diagnostic::error(value.span, "`:cards` needs `:hand-size`")
                .with_label("missing `:hand-size`")
                .with_help("say how many cards a hand holds: `:hand-size 6`"),
        );
    }
    rules.cards = Some(zones);
}

fn pay_with(v: &Form<'_>, rules: &RuleSet, zones: &mut CardZones, diags: &mut Vec<Diagnostic>) {
    let Kind::Vector(items) = &v.kind else {
        diags.push(Diagnostic::error(
            v.span,
            "`:pay-with` is a vector of attributes",
        ));
        return;
    };
    for item in items {
        match item.as_keyword().and_then(|a| rules.attribute(a)) {
            Some(a) => zones.pay_with.push(a),
            None => diags.push(
                Diagnostic::error(
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
