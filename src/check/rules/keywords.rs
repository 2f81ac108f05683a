//! `:keywords {:taunt "Enemies must attack it first"}`: named abilities a
//! card is given by name (`:keywords [:taunt]`). Each is a status of the
//! same name, held by a card's instance while it is in play, so that the
//! rules that give it meaning read it with `has` where they act: Taunt in
//! the attack action's `:when`, Divine Shield in the `:damage` operation.
//! A definitions file may define the status (`{:status :taunt …}`) to give
//! the keyword effects, hooks or modifiers of its own; without one it is a
//! plain mark. A keyword written as a map may carry triggers, which every
//! card holding it has: `{:poisonous {:doc "…" :triggers [{:on :damaged …}]}}`.

use super::{Reading, RuleSet, keyword_map, string};
use crate::check::Declared;
use crate::check::keys::{Keys, keys};
use crate::check::triggers::Trigger;
use crate::diag::{Code, Diagnostic};
use crate::ids::StatusId;
use crate::syntax::{Form, Kind};

/// A keyword the rule set declares.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyword {
    /// Its name, without the colon: also its status's.
    pub name: String,
    /// What it does, for people (`:keywords {:taunt "…"}`).
    pub doc: String,
    /// Its status.
    pub status: StatusId,
    /// What every card holding it does when something happens.
    pub triggers: Vec<Trigger>,
}

keys! {
    /// The keys of a keyword written as a map.
    pub enum KeywordKey {
        /// `:doc "…"`: what it does, for people.
        Doc = "doc",
        /// `:triggers [...]`: what every card holding it does when something happens.
        Triggers = "triggers",
    }
}

pub(super) fn read<'f, 'a>(
    value: &'f Form<'a>,
    rules: &mut RuleSet,
    reading: &mut Reading<'f, 'a>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, (span, body)) in keyword_map(value, "`:keywords`", diags) {
        if rules.keywords.iter().any(|k| k.name == name) || rules.statuses.iter().any(|s| s == name)
        {
            diags.push(
                Diagnostic::new(
                    Code::Duplicate,
                    span,
                    format!("`:{name}` is declared twice (a keyword is a status of its name)"),
                )
                .with_label("declared again"),
            );
            continue;
        }
        let doc = match &body.kind {
            Kind::Map(_) => {
                let Some(pairs) = crate::check::fields(body, "a keyword", KeywordKey::ALL, diags)
                else {
                    continue;
                };
                let mut doc = String::new();
                for (key, v) in pairs {
                    match key {
                        KeywordKey::Doc => doc = string(v, diags).unwrap_or_default(),
                        KeywordKey::Triggers => {
                            reading.keyword_triggers.push((rules.keywords.len(), v))
                        }
                    }
                }
                doc
            }
            _ => string(body, diags).unwrap_or_default(),
        };
        rules.declare_statuses([name]);
        let Some(status) = rules.status(name) else {
            continue;
        };
        // A plain mark until a definition says more: nothing to define.
        rules.status_installed[status] = true;
        rules.keywords.push(Keyword {
            name: name.to_string(),
            doc,
            status,
            triggers: Vec::new(),
        });
    }
}

/// Each keyword's `:triggers`, checked once every name is known, as a
/// card's are (`:this-card` the card holding it).
pub(super) fn triggers(
    rules: &mut RuleSet,
    reading: &Reading<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) {
    for &(k, form) in &reading.keyword_triggers {
        let scope = crate::check::Scope {
            this_card: rules.zones.as_ref().is_some_and(|z| !z.classic),
            ..rules.scope()
        };
        let checked = crate::check::triggers::triggers(form, &scope, diags).unwrap_or_default();
        for t in &checked {
            crate::check::triggers::self_triggering(
                t,
                &format!(":{}", rules.keywords[k].name),
                diags,
            );
        }
        rules.keywords[k].triggers = checked;
    }
}

/// `:keywords [:taunt :charge]` on a card: keywords of the rule set, each once.
pub fn given(value: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Vec<StatusId> {
    let Kind::Vector(items) = &value.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                value.span,
                format!(
                    "`:keywords` is a vector of the rule set's keywords, found {}",
                    value.describe()
                ),
            )
            .with_label("expected `[:taunt]`"),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items.iter() {
        let message = format!(
            "`:keywords` names the rule set's keywords, found {}",
            item.describe()
        );
        let found = Declared::new(
            rules.keywords.iter().map(|k| k.name.as_str()),
            "a keyword",
            "keywords",
            Code::NotOneOf,
        )
        .when_empty("the rule set declares no `:keywords`".to_string())
        .find(item.as_keyword().unwrap_or(""), item.span, message, diags);
        if let Some(i) = found {
            let status = rules.keywords[i].status;
            if out.contains(&status) {
                diags.push(Diagnostic::new(
                    Code::Duplicate,
                    item.span,
                    format!("`:{}` is given twice", rules.keywords[i].name),
                ));
            } else {
                out.push(status);
            }
        }
    }
    out
}
