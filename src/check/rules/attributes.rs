//! `:attributes {:wall {:default 10 :min 0 :doc "…"}}`: the integers every entity stores.

use super::{Reading, RuleSet, keyword_map, string};
use crate::check;
use crate::check::keys::{Keys, keys};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

keys! {
    /// The keys of an attribute's definition.
    pub enum AttrKey {
        /// `:default`: its value when a state does not give one.
        Default = "default",
        /// `:min`: the smallest value; changes below it are clamped.
        Min = "min",
        /// `:max`: the largest value; changes above it are clamped.
        Max = "max",
        /// `:doc`: what it is, for people.
        Doc = "doc",
        /// `:scratch true`: a working value of a calculation; game logs leave its changes out.
        Scratch = "scratch",
        /// `:table false`: left out of the state tables people read (a card's
        /// value, or a working value of the rules, on every seat's row).
        Table = "table",
    }
}

/// An attribute's default and bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrDef {
    /// Value when a state does not give one.
    pub default: i64,
    /// Smallest value; changes below it are clamped.
    pub min: i64,
    /// Largest value; changes above it are clamped.
    pub max: i64,
    /// What it is, for people.
    pub doc: String,
    /// A working value of a calculation (a damage pipeline's step): game logs
    /// leave its changes out, as they would drown the ones people read.
    pub scratch: bool,
    /// A column of the state tables `play` prints and its screens show
    /// (`:table false` leaves it out; the view and observations keep it).
    pub in_table: bool,
}

pub(super) fn read(
    value: &Form<'_>,
    rules: &mut RuleSet,
    reading: &mut Reading<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, (span, def)) in keyword_map(value, "`:attributes`", diags) {
        reading.names.declare(name, span, diags);
        rules.attributes.push(name.to_string());
        let def = attr_def(def, diags);
        rules.bounds.push((def.min, def.max));
        rules.attribute_defs.push(def);
    }
    if rules.attributes.len() > usize::from(u16::MAX) {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            "a rule set may declare at most 65535 attributes",
        ));
    }
}

fn attr_def(form: &Form<'_>, diags: &mut Vec<Diagnostic>) -> AttrDef {
    let mut def = AttrDef {
        default: 0,
        min: i64::MIN,
        max: i64::MAX,
        doc: String::new(),
        scratch: false,
        in_table: true,
    };
    let Some(pairs) = check::fields(form, "an attribute", AttrKey::ALL, diags) else {
        return def;
    };
    for (key, value) in &pairs {
        let int = match value.kind {
            Kind::Int(n) => Some(n),
            _ => None,
        };
        let slot = match key {
            AttrKey::Doc => {
                def.doc = string(value, diags).unwrap_or_default();
                continue;
            }
            AttrKey::Scratch | AttrKey::Table => {
                match (value.kind, key) {
                    (Kind::Bool(b), AttrKey::Scratch) => def.scratch = b,
                    (Kind::Bool(b), _) => def.in_table = b,
                    _ => diags.push(
                        Diagnostic::new(
                            Code::WrongType,
                            value.span,
                            format!(
                                "`:{}` is `true` or `false`, found {}",
                                key.name(),
                                value.describe()
                            ),
                        )
                        .with_label("expected `true` or `false`"),
                    ),
                }
                continue;
            }
            AttrKey::Default => &mut def.default,
            AttrKey::Min => &mut def.min,
            AttrKey::Max => &mut def.max,
        };
        match int {
            Some(n) => *slot = n,
            None => diags.push(Diagnostic::new(
                Code::NotANumber,
                value.span,
                format!(
                    "`:{}` is an integer, found {}",
                    key.name(),
                    value.describe()
                ),
            )),
        }
    }
    if def.min > def.max {
        diags.push(Diagnostic::new(
            Code::AttributeBounds,
            form.span,
            format!("`:min` {} is above `:max` {}", def.min, def.max),
        ));
    } else if def.default < def.min || def.default > def.max {
        diags.push(Diagnostic::new(
            Code::AttributeBounds,
            form.span,
            format!("`:default` {} is outside `:min`..`:max`", def.default),
        ));
    }
    def
}
