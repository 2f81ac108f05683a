//! `:setup {:hero {:kind :unit :values {:team 1}}}`: the entities every game
//! (and every `eval`) starts with after the seats, each with a name, a kind and
//! the values that differ from the defaults. A board's starting pieces.

use super::{RuleSet, keyword_map};
use crate::ast::AttrId;
use crate::check::keys::{Keys, keys};
use crate::check::{self, Declared};
use crate::diag::Diagnostic;
use crate::syntax::{Form, Kind};

use super::KindId;

keys! {
    /// The keys of one entity of `:setup`.
    pub enum SetupKey {
        /// `:kind :unit`: its kind (the first kind without it).
        Kind = "kind",
        /// `:values {:team 1}`: its values that differ from the defaults.
        Values = "values",
    }
}

/// An entity every game starts with.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Its name, for people, `eval --set` and scenarios.
    pub name: String,
    /// Its kind.
    pub kind: KindId,
    /// Values that differ from the attributes' defaults.
    pub values: Vec<(AttrId, i64)>,
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:setup`", diags) {
        let taken = rules.seats.iter().chain(&rules.roles).any(|n| n == name)
            || rules.setup.iter().any(|s| s.name == name);
        if taken {
            diags.push(
                Diagnostic::error(
                    span,
                    format!("`:{name}` already names a seat, role or entity"),
                )
                .with_label("named again"),
            );
            continue;
        }
        let mut entity = Setup {
            name: name.to_string(),
            kind: 0,
            values: Vec::new(),
        };
        for (key, v) in check::fields(body, "an entity", SetupKey::ALL, diags).unwrap_or_default() {
            match key {
                SetupKey::Kind => {
                    let message = format!(
                        "`:kind` names one of the rule set's kinds, found {}",
                        v.describe()
                    );
                    if let Some(k) =
                        Declared::new(rules.kinds.iter().map(String::as_str), "a kind", "kinds")
                            .find(v.as_keyword().unwrap_or(""), v.span, message, diags)
                    {
                        entity.kind = k as KindId;
                    }
                }
                SetupKey::Values => {
                    for (attr, (aspan, n)) in keyword_map(v, "`:values`", diags) {
                        let message = format!("unknown attribute `:{attr}`");
                        let Some(a) = Declared::new(
                            rules.attributes.iter().map(String::as_str),
                            "an attribute",
                            "attributes",
                        )
                        .find(attr, aspan, message, diags) else {
                            continue;
                        };
                        let (min, max) = rules.bounds[a];
                        match n.kind {
                            Kind::Int(x) if (min..=max).contains(&x) => {
                                entity.values.push((a as AttrId, x))
                            }
                            _ => diags.push(Diagnostic::error(
                                n.span,
                                format!(
                                    "`:{attr}` is a whole number from {min} to {max}, found {}",
                                    n.describe()
                                ),
                            )),
                        }
                    }
                }
            }
        }
        rules.setup.push(entity);
    }
}
