//! The checker: syntax tree + rule-set names → typed AST, or diagnostics.
//!
//! Every name is resolved against the rule set, every operator against the
//! registry in [`ops`], and every expression gets one type. Errors are
//! collected, never thrown, so one run reports all of them.
//!
//! The entry points are here; the work is split by what is checked: the scope
//! (`scope.rs`), maps of closed keys and declared names (`fields.rs`), effect
//! lists and maps (`effects.rs`), the effects that shape what runs
//! (`flow.rs`), status filters (`filters.rs`), operator calls (`calls.rs`),
//! numbers (`numbers.rs`, `rare_ops.rs`), conditions (`conditions.rs`), and
//! names of roles, resources and kinds (`names.rs`).

pub mod ast;
pub mod csv;
pub mod defs;
pub mod explain;
pub mod keys;
pub mod lint;
pub mod manifest;
pub mod md;
pub mod ops;
pub mod project;
pub mod rules;
pub mod status_defs;
pub mod work;

pub mod abilities;
mod calls;
pub mod cards;
mod conditions;
mod effects;
mod fields;
mod filters;
mod flow;
mod names;
mod numbers;
mod rare_ops;
pub mod reactions;
mod scope;
pub mod targets;
pub mod triggers;

pub use crate::diag::{list, list_and};
pub use effects::{DefKey, EffectKey, MAX_EFFECTS, PickName};
pub use fields::{Declared, fields, fields_among, fields_with, keyword_in};
pub use flow::{EachKey, QueueKey, RunKey, SpawnKey, WhenKey};
pub use scope::{
    ACTOR, AMOUNT, ANY, Choosable, HOLDER, MAGNITUDE, RESERVED, RUN, SELF, SOURCE, Scope, TARGET,
    THIS_CARD, TimingShape,
};

use crate::check::ast::{Bool, Dec, Effect, Expr, Filter, Int};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};
use numbers::Num;
use ops::OpKind;

/// Lowers a status filter: `:debuff`, `[:debuff :decrease-power]` or `:any`.
/// Each keyword names a status, a category, a flag, or the polarity `:buff` or
/// `:debuff`; every one must hold.
pub fn filter(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Filter> {
    let items = match &form.kind {
        Kind::Vector(items) => &items[..],
        _ => std::slice::from_ref(form),
    };
    Checker { scope, diags }.filter_of(items, form.span)
}

/// Lowers a vector of effect maps (or one map) to checked effects.
///
/// Returns `None` if anything was wrong; every problem is in `diags`.
pub fn effects(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Effect>> {
    let mut cx = Checker { scope, diags };
    cx.effect_list(form)
}

/// Lowers one expression, a number or a condition, whichever it is.
pub fn expr(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Expr> {
    let mut cx = Checker { scope, diags };
    let condition = match &form.kind {
        Kind::Bool(_) => true,
        Kind::Vector(items) => items
            .first()
            .and_then(Form::as_symbol)
            .and_then(ops::find)
            .is_some_and(|op| {
                matches!(
                    (op.kind, items.len() - 1),
                    (OpKind::Compare(_) | OpKind::And | OpKind::Or, 2)
                        | (
                            OpKind::Not
                                | OpKind::Chance
                                | OpKind::Has
                                | OpKind::Named
                                | OpKind::OfKind
                                | OpKind::In
                                | OpKind::Holds,
                            _
                        )
                )
            }),
        _ => false,
    };
    if condition {
        return cx.boolean(form).map(Expr::Bool);
    }
    Some(match cx.num(form)? {
        Num::Int(i) => Expr::Int(i),
        Num::Dec(d) => Expr::Dec(d),
    })
}

/// Lowers one integer expression (a score, a formula).
pub fn integer(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Int> {
    Checker { scope, diags }.int(form)
}

/// Lowers one number as a decimal (a multiplier, a chance); an integer is widened.
pub fn decimal(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Dec> {
    Checker { scope, diags }.num(form).map(Num::into_dec)
}

/// Lowers one condition (a victory rule, a requirement).
pub fn condition(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Bool> {
    Checker { scope, diags }.boolean(form)
}

/// The checker at work: the scope it resolves names in, and where its
/// diagnostics go. Its methods are spread over this module's files, by what
/// they check.
struct Checker<'s, 'r> {
    scope: &'s Scope<'r>,
    diags: &'s mut Vec<Diagnostic>,
}

impl<'a> Checker<'_, '_> {
    /// Records `d`, an error found.
    fn error(&mut self, d: Diagnostic) -> Option<std::convert::Infallible> {
        self.diags.push(d);
        None
    }

    /// The error of kind `code` for a form of the wrong kind: "expected
    /// {expected}, found {found}".
    fn wrong_kind(&mut self, code: Code, form: &Form<'a>, expected: &str, found: &str) {
        self.error(
            Diagnostic::new(
                code,
                form.span,
                format!("expected {expected}, found {found}"),
            )
            .with_label(format!("expected {expected}")),
        );
    }
}
