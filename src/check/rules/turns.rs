//! `:turns {:limit 1000 :order [[:self :initiative] [:self :speed]]}`: the turn
//! machine's settings. A game still going after `:limit` turns is a draw. The
//! turn order is the seats' order, unless `:order` gives keys to sort by.

use super::{RuleSet, whole};
use crate::check::ast::{Bool, Int, Leaf};
use crate::check::keys::{Keys, keys};
use crate::check::{self, SELF, Scope};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

/// The longest game a rule set may ask for: a game where nobody can act plays
/// every turn to the limit, and its log must fit in memory.
pub const MAX_TURN_LIMIT: i64 = 1_000_000;

/// The most sort keys `:order` may give.
pub const MAX_ORDER_KEYS: usize = 8;

keys! {
    /// The keys of `:turns`.
    pub enum TurnsKey {
        /// `:limit`: the last turn a game may reach; then it is a draw.
        Limit = "limit",
        /// `:order [key …]`: integer expressions of `:self`; each round's turns
        /// go highest first, ties broken by the next key, then by seat order.
        Order = "order",
        /// `:plays :one` (a turn is one card or action) or `:many` (cards until the seat ends its turn).
        Plays = "plays",
        /// `:skip-when COND`: a condition of `:self`, a seat whose turn comes
        /// next; while it holds, the seat's turn is passed over whole.
        SkipWhen = "skip-when",
    }
}

keys! {
    /// How many cards a turn plays: `:plays`.
    pub enum PlaysKind {
        /// One: the turn ends after it (unless the card says `:play-again`).
        One = "one",
        /// Any number: the seat plays until it ends its turn.
        Many = "many",
    }
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = check::fields(value, "`:turns`", TurnsKey::ALL, diags) else {
        return;
    };
    for (key, v) in pairs {
        match key {
            TurnsKey::Limit => {
                if let Some(n) = whole(v, "`:limit`", 1, MAX_TURN_LIMIT, diags) {
                    rules.turn_limit = n as u32;
                }
            }
            TurnsKey::Order => rules.turn_order = order(v, rules, diags),
            TurnsKey::Plays => plays(v, rules, diags),
            TurnsKey::SkipWhen => rules.turn_skip = skip_when(v, rules, diags),
        }
    }
}

/// `:plays :one` or `:many`; many plays need cards kept in `:zones`, whose
/// turns end when the seat says so.
fn plays(v: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let message = format!("`:plays` is `:one` or `:many`, found {}", v.describe());
    let Some(kind) =
        check::keyword_in::<PlaysKind>(v, message, "not a number of plays", None, diags)
    else {
        return;
    };
    rules.plays_many = kind == PlaysKind::Many;
    let zoned = rules.zones.as_ref().is_some_and(|z| !z.classic);
    if rules.plays_many && !zoned {
        diags.push(
            Diagnostic::new(
                Code::ZoneRules,
                v.span,
                "`:plays :many` needs cards kept in `:zones`: a turn of many plays ends when its seat ends it",
            )
            .with_label("no `:zones`")
            .with_help("declare the game's `:zones` (a hand with `:plays true`), or play one card a turn"),
        );
    }
}

/// `[[:self :initiative] [:self :speed]]`: sort keys, read with only `:self` bound.
fn order(value: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Vec<Int> {
    let items = match &value.kind {
        Kind::Vector(items) if !items.is_empty() && items.len() <= MAX_ORDER_KEYS => items,
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    value.span,
                    format!(
                        "`:order` is a vector of 1 to {MAX_ORDER_KEYS} sort keys, found {}",
                        value.describe()
                    ),
                )
                .with_help("highest first: `:order [[:self :initiative] [:self :speed]]`"),
            );
            return Vec::new();
        }
    };
    // The order is worked out between rounds, whoever's turn it was: only `:self` is bound.
    let scope = Scope {
        roles: &[],
        bound: &[SELF],
        ..rules.scope()
    };
    let mut keys = Vec::with_capacity(items.len());
    for item in items.iter() {
        let Some(key) = check::integer(item, &scope, diags) else {
            continue;
        };
        let mut draws = false;
        key.leaves(&mut |leaf| draws |= leaf == Leaf::Draw);
        if draws {
            diags.push(
                Diagnostic::new(Code::ChanceNotAllowed, item.span, "a turn-order key cannot draw chance")
                    .with_label("draws from the generator")
                    .with_help(
                        "roll it into an attribute in a `:game-start` hook and sort by that: `[:self :initiative]`",
                    ),
            );
            continue;
        }
        keys.push(key);
    }
    keys
}

/// `:skip-when COND`: read with only `:self` (the seat whose turn comes) bound.
fn skip_when(value: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<Bool> {
    let scope = Scope {
        roles: &[],
        bound: &[SELF],
        ..rules.scope()
    };
    let cond = check::condition(value, &scope, diags)?;
    super::actions::without_chance(
        cond,
        value,
        "`:skip-when` cannot draw chance",
        "roll it into an attribute in a hook and test that: `[= 1 [:self :out]]`",
        diags,
    )
}
