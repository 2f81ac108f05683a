//! `:timings {:turn-start {:at :turn-start :doc "…"}}` declares the places hooks
//! can run, each attached to a [`Moment`] of the turn machine; `:hooks
//! {:turn-start […]}` gives the effects run there. A hook at a timing the rule
//! set does not declare is an error that suggests the nearest declared one.

use super::{KindId, MAX_LIST_EXPANSION, RuleSet, keyword_map, string};
use crate::check::keys::{Keys, keys};
use crate::check::{self, Declared, SELF, Scope, list_and};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Span};

pub use crate::ids::TimingId;

keys! {
    /// The points the turn machine reaches by itself, where timings are attached.
    /// Roles are bound as on the turn of the seat a hook runs for: at turn
    /// moments the seat whose turn it is; at game and round moments each seat in
    /// turn order, one run each.
    pub enum Moment {
        /// Once, before the first turn.
        GameStart = "game-start",
        /// Before the first turn of each round (a round: every seat's turn once).
        RoundStart = "round-start",
        /// Before the player whose turn it is acts.
        TurnStart = "turn-start",
        /// After the player's last action of the turn.
        TurnEnd = "turn-end",
        /// After the last turn of each round.
        RoundEnd = "round-end",
        /// Never by itself: only when an effect runs it, `{:run :skill-start}`.
        Run = "run",
    }
}

keys! {
    /// The keys of a timing.
    pub enum TimingKey {
        /// `:at`: the moment it is attached to.
        At = "at",
        /// `:doc`: what it is for, for people.
        Doc = "doc",
        /// `:each :unit`: run the hook once for each entity of this kind in play,
        /// in the order they were added, with `:self` bound to it.
        Each = "each",
    }
}

/// A declared timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Its name (`turn-start`).
    pub name: String,
    /// The moment its hooks run at.
    pub at: Moment,
    /// What it is for, for people.
    pub doc: String,
    /// The kind whose every entity the hook runs for (`:each`), with `:self` bound to it.
    pub each: Option<KindId>,
    /// Its name in the rule-set file.
    pub span: Span,
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, def)) in keyword_map(value, "`:timings`", diags) {
        if rules.timing(name).is_some() {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("timing `:{name}` is declared twice"),
            ));
            continue;
        }
        let Some(pairs) = check::fields(def, "a timing", TimingKey::ALL, diags) else {
            continue;
        };
        let (mut at, mut doc, mut each) = (None, String::new(), None);
        for (key, v) in pairs {
            match key {
                TimingKey::At => at = moment(v, diags),
                TimingKey::Doc => doc = string(v, diags).unwrap_or_default(),
                TimingKey::Each => each = kind(v, rules, diags),
            }
        }
        if !def.has_key(TimingKey::At.name()) {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    def.span,
                    format!("timing `:{name}` has no `:at`"),
                )
                .with_label("missing `:at`")
                .with_help(format!("attach it to a moment: {}", moments())),
            );
        }
        // A timing whose `:at` is wrong is still declared (its error said,
        // the rule set failing with it), so its hooks are not "undeclared".
        if let Some(at) = at.or(Some(Moment::TurnStart)) {
            rules.timing_shapes.push(check::TimingShape {
                name: name.to_string(),
                at: at.name(),
                each,
            });
            rules.timings.push(Timing {
                name: name.to_string(),
                at,
                doc,
                each,
                span,
            });
        }
    }
    if rules.timings.len() > usize::from(u16::MAX) {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            "a rule set may declare at most 65535 timings",
        ));
    }
    rules.hooks = vec![Vec::new(); rules.timings.len()].into();
}

fn kind(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<KindId> {
    Declared::new(
        rules.kinds.iter().map(String::as_str),
        "a kind",
        "kinds",
        Code::UnknownKind,
    )
    .find(
        v.as_keyword().unwrap_or(""),
        v.span,
        format!("`:each` names a kind, found {}", v.describe()),
        diags,
    )
    .map(KindId::new)
}

impl RuleSet {
    /// The declared timing `name` (written `shown`), or an error at `span` that
    /// names the nearest, the list, or how to declare one.
    pub fn declared_timing(
        &self,
        name: &str,
        shown: &dyn std::fmt::Display,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<TimingId> {
        Declared::new(
            self.timings.iter().map(|t| t.name.as_str()),
            "a timing",
            "timings",
            Code::UnknownTiming,
        )
        .when_empty(format!(
            "declare it first: `:timings {{:{name} {{:at :turn-start}}}}`; the moments are {}",
            moments()
        ))
        .find(
            name,
            span,
            format!("no timing `{shown}` is declared"),
            diags,
        )
        .map(TimingId::new)
    }
}

fn moments() -> String {
    list_and(Moment::ALL.iter().map(|m| format!("`:{}`", m.name())))
}

fn moment(v: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<Moment> {
    check::keyword_in(
        v,
        format!("`:at` names a moment, found {}", v.describe()),
        "not a moment",
        Some(format!("the moments are {}", moments())),
        diags,
    )
}

/// `:hooks {:turn-start […]}`: effects run at declared timings.
pub(super) fn hooks(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:hooks`", diags) {
        let timing = rules.timing(name);
        // `:self` is the entity the hook runs for: each of an `:each` kind, or
        // the one an effect runs a `:run` timing for.
        let binds_self = timing.is_some_and(|t| {
            let t = &rules.timings[t];
            t.each.is_some() || t.at == Moment::Run
        });
        let scope = Scope {
            bound: if binds_self { &[SELF] } else { &[] },
            ..rules.scope()
        };
        let effects = check::effects(body, &scope, diags).unwrap_or_default();
        let shown = format!(":{name}");
        let Some(timing) = timing.or_else(|| rules.declared_timing(name, &shown, span, diags))
        else {
            continue;
        };
        let n = rules.expansion_of(&effects);
        if n > MAX_LIST_EXPANSION {
            diags.push(
                Diagnostic::new(
                    Code::ExpandsTooFar,
                    span,
                    format!(
                        "the `:{name}` hook can do {n} units of work (changes, dice, `advantage`s, loops over entities); at most {MAX_LIST_EXPANSION}"
                    ),
                )
                .with_label("expands too far"),
            );
        }
        rules.hooks[timing] = effects;
    }
}
