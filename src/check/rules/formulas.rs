//! `:formulas {:stamina {:args [:index] :value [* 10 :index :index]}}`: named
//! expressions with arguments, applied by `[formula :stamina x]`.
//!
//! A formula's body is checked once, here, with its arguments as names (the
//! rule set's roles, attributes, params, lookups and earlier formulas are in
//! scope too); each use copies the body in, and evaluates each argument once,
//! so an argument that rolls dice rolls them once.

use super::{RuleSet, keyword_map, string};
use crate::check::ast::FormulaDef;
use crate::check::{self, keys::Keys, keys::keys};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

/// The most arguments a formula may take.
pub const MAX_ARGS: usize = 8;

keys! {
    /// The keys of one formula.
    pub enum FormulaKey {
        /// `:doc "…"`: what it computes, for people.
        Doc = "doc",
        /// `:args [:index]`: its arguments' names, in order.
        Args = "args",
        /// `:value [* 10 :index :index]`: what it computes.
        Value = "value",
    }
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:formulas`", diags) {
        if rules.formulas.iter().any(|(n, _)| n == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("formula `:{name}` is declared twice"),
            ));
            continue;
        }
        let Some(pairs) = check::fields(body, "a formula", FormulaKey::ALL, diags) else {
            continue;
        };
        let mut args: Vec<String> = Vec::new();
        let mut value = None;
        for (key, v) in pairs {
            match key {
                FormulaKey::Doc => {
                    let _ = string(v, diags);
                }
                FormulaKey::Args => {
                    let Kind::Vector(items) = &v.kind else {
                        diags.push(Diagnostic::new(
                            Code::WrongType,
                            v.span,
                            format!("`:args` is a vector of keywords, found {}", v.describe()),
                        ));
                        continue;
                    };
                    for item in items.iter() {
                        match item.as_keyword() {
                            Some(a) if args.iter().any(|x| x == a) => diags.push(Diagnostic::new(
                                Code::Duplicate,
                                item.span,
                                format!("argument `:{a}` is named twice"),
                            )),
                            Some(a) => args.push(a.to_string()),
                            None => diags.push(Diagnostic::new(
                                Code::WrongType,
                                item.span,
                                format!(
                                    "an argument is named by a keyword, found {}",
                                    item.describe()
                                ),
                            )),
                        }
                    }
                    if args.len() > MAX_ARGS {
                        diags.push(Diagnostic::new(
                            Code::TooMany,
                            v.span,
                            format!("a formula takes at most {MAX_ARGS} arguments"),
                        ));
                    }
                }
                FormulaKey::Value => value = Some(v),
            }
        }
        let Some(v) = value else {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    span,
                    format!("formula `:{name}` has no `:value`"),
                )
                .with_help("write what it computes: `:value [* 10 :index :index]`"),
            );
            continue;
        };
        let scope = check::Scope {
            args: &args,
            ..rules.scope()
        };
        if let Some(body) = check::integer(v, &scope, diags) {
            let work = check::work::int(&body);
            let def = FormulaDef::new(args, body, calls_formula(v), work);
            rules
                .formulas
                .push((name.to_string(), std::sync::Arc::new(def)));
        }
    }
}

/// Whether `form` has a `[formula …]` call anywhere in it.
fn calls_formula(form: &Form<'_>) -> bool {
    match form.kind {
        Kind::Vector(items) | Kind::List(items) | Kind::Set(items) => {
            matches!(items.first().map(|f| f.kind), Some(Kind::Symbol("formula")))
                || items.iter().any(calls_formula)
        }
        Kind::Map(pairs) => pairs
            .iter()
            .any(|(k, v)| calls_formula(k) || calls_formula(v)),
        _ => false,
    }
}
