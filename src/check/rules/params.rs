//! `:params {:tower-goal 50}`: named integer constants, usable wherever a number is.

use super::{Reading, RuleSet, keyword_map};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

pub(super) fn read(
    value: &Form<'_>,
    rules: &mut RuleSet,
    reading: &mut Reading<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, (span, v)) in keyword_map(value, "`:params`", diags) {
        reading.names.declare(name, span, diags);
        match v.kind {
            Kind::Int(n) => rules.params.push((name.to_string(), n)),
            _ => diags.push(
                Diagnostic::new(
                    Code::NotANumber,
                    v.span,
                    format!("a param is an integer, found {}", v.describe()),
                )
                .with_label("expected an integer"),
            ),
        }
    }
}
