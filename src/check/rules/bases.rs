//! `:bases {:OutgoingDamage {:doc "…" :attributes [:dealt]} :effectMulti "…"}`:
//! what statuses' outputs are computed from (seed 000's `outputBase` column:
//! "Gain 50% of your Damage in Health" is based on the damage dealt).
//!
//! A status says its base with `:base :OutgoingDamage`, and the checker holds
//! the two together: a status based on a base with `:attributes` reads or
//! changes one of them in its effects, and reads or changes no attribute that
//! holds another base only. A base without attributes (the status's own
//! multi) asks for nothing but that. Markdown tables read the base of each
//! row with a `:base` column and check it against the definition.

use super::{RuleSet, keyword_map, string};
use crate::check::ast::AttrId;
use crate::check::keys::{Keys, keys};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

pub use crate::ids::BaseId;

/// The most bases a rule set may declare.
pub const MAX_BASES: usize = 255;

keys! {
    /// The keys of a base written as a map.
    pub enum BaseKey {
        /// `:doc "…"`: what it is.
        Doc = "doc",
        /// `:attributes [:dealt]`: the attributes that hold it.
        Attributes = "attributes",
    }
}

/// A quantity a status's output may be computed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    /// Its name (`OutgoingDamage`).
    pub name: String,
    /// What it is.
    pub doc: String,
    /// The attributes that hold it; none for a base no attribute holds (a
    /// status's own multi).
    pub attributes: Vec<AttrId>,
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:bases`", diags) {
        if rules.bases.iter().any(|b| b.name == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("base `:{name}` is declared twice"),
            ));
            continue;
        }
        let mut base = Base {
            name: name.to_string(),
            doc: String::new(),
            attributes: Vec::new(),
        };
        if let Kind::Map(_) = body.kind {
            let pairs = crate::check::fields(body, "a base", BaseKey::ALL, diags);
            for (key, v) in pairs.unwrap_or_default() {
                match key {
                    BaseKey::Doc => base.doc = string(v, diags).unwrap_or_default(),
                    BaseKey::Attributes => base.attributes = attributes(v, rules, diags),
                }
            }
        } else {
            base.doc = string(body, diags).unwrap_or_default();
        }
        rules.bases.push(base);
    }
    if rules.bases.len() > MAX_BASES {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            format!("a rule set may declare at most {MAX_BASES} bases"),
        ));
    }
}

/// `[:dealt]`: declared attributes.
fn attributes(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Vec<AttrId> {
    let Kind::Vector(items) = &v.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                v.span,
                format!(
                    "a base's `:attributes` is a vector of attributes, found {}",
                    v.describe()
                ),
            )
            .with_label("expected `[:dealt]`"),
        );
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| super::cards::attribute(item, rules, "a base's `:attributes`", diags))
        .collect()
}
