//! `:roles {:you "the player whose turn it is" :other "the opponent"}`: the names
//! effects use for entities, bound each time effects run.

use super::{Names, Reading, RuleSet, keyword_map, string};
use crate::diag::{Code, Diagnostic};
use crate::syntax::Form;

pub(super) fn read(
    value: &Form<'_>,
    rules: &mut RuleSet,
    reading: &mut Reading<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) {
    declare(value, rules, &mut reading.names, diags);
}

fn declare(value: &Form<'_>, rules: &mut RuleSet, names: &mut Names, diags: &mut Vec<Diagnostic>) {
    for (name, (span, doc)) in keyword_map(value, "`:roles`", diags) {
        names.declare(name, span, diags);
        rules.roles.push(name.to_string());
        rules.role_docs.push(string(doc, diags).unwrap_or_default());
    }
    if rules.roles.len() > usize::from(u8::MAX) {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            "a rule set may declare at most 255 roles",
        ));
    }
}
