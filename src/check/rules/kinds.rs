//! `:kinds {:player "a seat's player" :rock "a falling rock"}`: the sorts of
//! entity a game has. Every entity has one kind; seats are of the first. All
//! kinds store the same attributes, so an entity's row is as wide whatever its kind.
//!
//! A kind may be a map instead of a doc string, to say when an entity of it
//! leaves play: `:unit {:doc "a piece on the board" :removed-when [<= [:self :hp] 0]}`,
//! and what happens as it does (`:on-removed [{:spawn :tile …}]`).

use super::turn_kinds::{self, TurnKindId};
use super::{Reading, RuleSet, keyword_map, string};
use crate::check::ast::Bool;
use crate::check::keys::{Keys, keys};
use crate::check::{self, SELF, Scope};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

pub use crate::ids::KindId;

keys! {
    /// The keys of a kind written as a map.
    pub enum KindKey {
        /// `:doc "…"`: what it is.
        Doc = "doc",
        /// `:removed-when condition`: an entity of the kind leaves play when it holds, with `:self` bound to it.
        RemovedWhen = "removed-when",
        /// `:on-removed […]`: effects run as an entity of the kind leaves play, with `:self` bound to it.
        OnRemoved = "on-removed",
        /// `:turns [:classic]`: the turns each entity of the kind has in the base queue.
        Turns = "turns",
        /// `:on-turn […]`: what an entity of the kind that is not a seat does on its turn.
        OnTurn = "on-turn",
        /// `:card true`: the kind's entities are cards, kept in `:zones`.
        Card = "card",
        /// `:moves {:chomp {:intent "damage" :amount 11 :effects […]}}`: what an enemy of the kind can do on its turn.
        Moves = "moves",
        /// `:script {:first :chomp :pick […]}`: how an enemy of the kind chooses its next move.
        Script = "script",
    }
}

pub(super) fn read<'f, 'a>(
    value: &'f Form<'a>,
    rules: &mut RuleSet,
    reading: &mut Reading<'f, 'a>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut kinds = Vec::new();
    let mut turns: Vec<Vec<TurnKindId>> = Vec::new();
    let mut cards: Vec<bool> = Vec::new();
    for (name, (span, body)) in keyword_map(value, "`:kinds`", diags) {
        if kinds.iter().any(|k| k == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("kind `:{name}` is declared twice"),
            ));
            continue;
        }
        // Seats are of the first kind: each has one turn of the first turn kind a round.
        turns.push(if kinds.is_empty() {
            vec![TurnKindId::FIRST]
        } else {
            Vec::new()
        });
        cards.push(false);
        if let Kind::Map(_) = body.kind {
            for (key, v) in check::fields(body, "a kind", KindKey::ALL, diags).unwrap_or_default() {
                match key {
                    // The doc is only read to check it is a string.
                    KindKey::Doc => drop(string(v, diags)),
                    KindKey::RemovedWhen => {
                        reading.removals.push((KindId::new(kinds.len()), v));
                    }
                    KindKey::OnRemoved => {
                        reading.on_removed.push((KindId::new(kinds.len()), v));
                    }
                    KindKey::OnTurn => reading.on_turn.push((KindId::new(kinds.len()), v)),
                    KindKey::Card => {
                        let card = check::fields::flag(v, key.name(), diags).unwrap_or(false);
                        if card && kinds.is_empty() {
                            diags.push(
                                Diagnostic::new(
                                    Code::ZoneRules,
                                    v.span,
                                    "the first kind is the seats' kind: it cannot be a kind of card",
                                )
                                .with_help("declare the seats' kind first, then the card kinds"),
                            );
                        }
                        cards[kinds.len()] = card && !kinds.is_empty();
                    }
                    // Read together below, once the kind's map is read.
                    KindKey::Moves | KindKey::Script => {}
                    KindKey::Turns => {
                        if let Some(list) = turn_kinds::turn_list(v, rules, diags) {
                            turns[kinds.len()] = list;
                        }
                    }
                }
            }
            let (moves, script) = (body.get("moves"), body.get("script"));
            if moves.is_some() || script.is_some() {
                reading
                    .moves
                    .push((KindId::new(kinds.len()), moves, script));
                // An enemy with moves takes a turn a round unless it says otherwise.
                if moves.is_some() && !kinds.is_empty() && body.get("turns").is_none() {
                    turns[kinds.len()] = vec![TurnKindId::FIRST];
                }
            }
        } else {
            let _ = string(body, diags);
        }
        kinds.push(name.to_string());
    }
    if kinds.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::EmptyDeclaration,
                value.span,
                "`:kinds` declares no kind",
            )
            .with_help("seats are of the first kind: `:kinds {:player \"a seat's player\"}`"),
        );
    } else if kinds.len() >= KindId::MAX.index() {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            "a rule set may declare at most 65534 kinds",
        ));
    } else {
        rules.kinds = kinds.into();
        rules.kind_turns = turns.into();
        rules.card_kinds = cards.into();
        rules.scripts = vec![None; rules.kinds.len()].into();
    }
}

/// Checks each kind's `:removed-when` and `:on-removed`, once every name is declared.
pub(super) fn removals(
    rules: &mut RuleSet,
    reading: &Reading<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) {
    // Only `:self` is bound: an entity leaves play whoever's turn it is.
    let scope = Scope {
        roles: &[],
        bound: &[SELF],
        ..rules.scope()
    };
    let mut out: Vec<Option<Bool>> = vec![None; rules.kinds.len()];
    for &(kind, form) in &reading.removals {
        if let (Some(cond), Some(slot)) = (
            check::condition(form, &scope, diags),
            out.get_mut(kind.index()),
        ) {
            *slot = Some(cond);
        }
    }
    let mut effects: Vec<Vec<crate::check::ast::Effect>> = vec![Vec::new(); rules.kinds.len()];
    for &(kind, form) in &reading.on_removed {
        if let (Some(list), Some(slot)) = (
            check::effects(form, &scope, diags),
            effects.get_mut(kind.index()),
        ) {
            *slot = list;
        }
    }
    rules.removed_when = out.into();
    rules.on_removed = effects.into();
    // An entity's turn runs with the first seat's roles and `:self` bound to it.
    let scope = Scope {
        bound: &[SELF],
        ..rules.scope()
    };
    let mut on_turn: Vec<Vec<crate::check::ast::Effect>> = vec![Vec::new(); rules.kinds.len()];
    for &(kind, form) in &reading.on_turn {
        if let (Some(list), Some(slot)) = (
            check::effects(form, &scope, diags),
            on_turn.get_mut(kind.index()),
        ) {
            *slot = list;
        }
    }
    rules.on_turn = on_turn.into();
}
