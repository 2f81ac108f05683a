//! `:turn-kinds {:classic "any action" :fast-magic {:doc "…" :allows [:fast-magic]}}`:
//! the kinds of turn a turn queue holds. A turn of a kind with `:allows` lets
//! its entity use only the actions whose `:type` is one of those kinds; a
//! kind without `:allows` lets it use any action, and play cards. Without the
//! section there is one kind, `:turn`, which allows everything. A kind with
//! `:simultaneous true` is taken by every seat at once (cards kept in
//! `:zones` only): each chooses unseen, then the choices resolve together.

use super::{RuleSet, keyword_map, string};
use crate::check::keys::{Keys, keys};
use crate::check::{self, Declared};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

pub use crate::ids::TurnKindId;

/// The most turn kinds a rule set may declare: `:allows` is a mask of them.
pub const MAX_TURN_KINDS: usize = 64;

/// The most turns one entity may have in a round's base queue.
pub const MAX_TURNS_PER_ROUND: usize = 16;

/// The one turn kind of a rule set without `:turn-kinds`.
pub const DEFAULT_TURN_KIND: &str = "turn";

keys! {
    /// The keys of a turn kind written as a map.
    pub enum TurnKindKey {
        /// `:doc "…"`: what its turns are for.
        Doc = "doc",
        /// `:allows [:fast-magic]`: the action types its turns allow (all, without).
        Allows = "allows",
        /// `:simultaneous true`: every seat takes the turn at once, choosing unseen.
        Simultaneous = "simultaneous",
    }
}

/// A kind of turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnKind {
    /// Its name (`fast-magic`).
    pub name: String,
    /// What it is for.
    pub doc: String,
    /// The action types (turn kinds, by bit) its turns allow; every bit set when any.
    pub allows: u64,
    /// Whether a turn of it is taken by every seat at once: each chooses in
    /// seat order, its choice held unseen, and all resolve together.
    pub simultaneous: bool,
}

impl TurnKind {
    /// Whether a turn of this kind lets its entity use an action of `type_`.
    #[inline]
    pub fn allows(&self, type_: TurnKindId) -> bool {
        self.allows & (1 << type_.index()) != 0
    }

    /// Whether it allows everything (and so card plays).
    pub fn allows_all(&self) -> bool {
        self.allows == u64::MAX
    }
}

/// The turn kinds of a rule set that declares none.
pub fn default_kinds() -> Vec<TurnKind> {
    vec![TurnKind {
        name: DEFAULT_TURN_KIND.to_string(),
        doc: "a turn".to_string(),
        allows: u64::MAX,
        simultaneous: false,
    }]
}

/// Reads `:turn-kinds`; `zoned`: whether the rule set keeps its cards in
/// `:zones`, which a simultaneous kind needs.
pub(super) fn read(
    value: &Form<'_>,
    rules: &mut RuleSet,
    zoned: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let entries = keyword_map(value, "`:turn-kinds`", diags);
    let mut kinds: Vec<TurnKind> = Vec::new();
    let mut allows_forms = Vec::new();
    for (name, (span, body)) in &entries {
        if kinds.iter().any(|k| k.name == *name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                *span,
                format!("turn kind `:{name}` is declared twice"),
            ));
            continue;
        }
        let mut kind = TurnKind {
            name: name.to_string(),
            doc: String::new(),
            allows: u64::MAX,
            simultaneous: false,
        };
        if let Kind::Map(_) = body.kind {
            let pairs = check::fields(body, "a turn kind", TurnKindKey::ALL, diags);
            for (key, v) in pairs.unwrap_or_default() {
                match key {
                    TurnKindKey::Doc => kind.doc = string(v, diags).unwrap_or_default(),
                    TurnKindKey::Allows => allows_forms.push((kinds.len(), v)),
                    TurnKindKey::Simultaneous => {
                        kind.simultaneous =
                            check::fields::flag(v, "simultaneous", diags).unwrap_or(false);
                        if kind.simultaneous && !zoned {
                            diags.push(simultaneous_needs_zones(v.span));
                        }
                    }
                }
            }
        } else {
            kind.doc = string(body, diags).unwrap_or_default();
        }
        kinds.push(kind);
    }
    if kinds.is_empty() {
        diags.push(
            Diagnostic::new(Code::EmptyDeclaration, value.span, "`:turn-kinds` declares no turn kind").with_help(
                "for example `:turn-kinds {:classic \"any action\" :fast-magic {:allows [:fast-magic]}}`",
            ),
        );
        return;
    }
    if kinds.len() > MAX_TURN_KINDS {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            format!("a rule set may declare at most {MAX_TURN_KINDS} turn kinds"),
        ));
        return;
    }
    // `:allows` may name kinds declared after it: read once every name is known.
    for (i, form) in allows_forms {
        let Kind::Vector(items) = &form.kind else {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    form.span,
                    format!(
                        "`:allows` is a vector of turn kinds, found {}",
                        form.describe()
                    ),
                )
                .with_help("for example `:allows [:fast-magic]`"),
            );
            continue;
        };
        let mut mask = 0u64;
        for item in items.iter() {
            if let Some(k) = named(&kinds, item, "`:allows`", diags) {
                mask |= 1 << k.index();
            }
        }
        kinds[i].allows = mask;
    }
    rules.turn_kind_names = kinds.iter().map(|k| k.name.clone()).collect();
    rules.turn_kinds = kinds.into();
}

/// E0314: a simultaneous turn kind in a rule set whose cards are not kept in `:zones`.
fn simultaneous_needs_zones(span: crate::syntax::Span) -> Diagnostic {
    Diagnostic::new(
        Code::ZoneRules,
        span,
        "`:simultaneous true` needs cards kept in `:zones`: the seats' choices are held in the zones' turn machinery",
    )
    .with_label("no `:zones`")
    .with_help("declare the game's `:zones` (a hand with `:plays true`), or take the turns one seat after another")
}

/// The turn kind `form` names, or a located error with the nearest name.
pub(super) fn named(
    kinds: &[TurnKind],
    form: &Form<'_>,
    key: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<TurnKindId> {
    let message = format!(
        "{key} names one of the rule set's turn kinds, found {}",
        form.describe()
    );
    Declared::new(
        kinds.iter().map(|k| k.name.as_str()),
        "a turn kind",
        "turn kinds",
        Code::UnknownTurnKind,
    )
    .find(form.as_keyword().unwrap_or(""), form.span, message, diags)
    .map(TurnKindId::new)
}

/// `[:classic :fast-combat]`: turns in the base queue (a kind's, a status's `:turns`).
pub fn turn_list(
    value: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<TurnKindId>> {
    let Kind::Vector(items) = &value.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                value.span,
                format!(
                    "`:turns` is a vector of turn kinds, found {}",
                    value.describe()
                ),
            )
            .with_help("for example `:turns [:classic]` (`[]`: the kind takes no turns)"),
        );
        return None;
    };
    if items.len() > MAX_TURNS_PER_ROUND {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            format!("an entity may have at most {MAX_TURNS_PER_ROUND} turns a round"),
        ));
        return None;
    }
    let before = diags.len();
    let list: Vec<TurnKindId> = items
        .iter()
        .filter_map(|item| named(&rules.turn_kinds, item, "`:turns`", diags))
        .collect();
    (diags.len() == before).then_some(list)
}
