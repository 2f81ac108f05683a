//! `:categories {:decrease-power "lowers its holder's power"}`: the categories
//! statuses belong to, named by blocks and dispels ("block debuffs that reduce
//! power"). A status's `:category` must be one of them.

use super::{RuleSet, keyword_map, string};
use crate::diag::Diagnostic;
use crate::syntax::Form;

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, doc)) in keyword_map(value, "`:categories`", diags) {
        if rules.categories.iter().any(|c| c == name) {
            diags.push(Diagnostic::error(
                span,
                format!("category `:{name}` is declared twice"),
            ));
            continue;
        }
        // The doc is only read to check it is a string.
        let _ = string(doc, diags);
        rules.categories.push(name.to_string());
    }
    if rules.categories.len() > usize::from(u16::MAX) {
        diags.push(Diagnostic::error(
            value.span,
            "a rule set may declare at most 65535 categories",
        ));
    }
}
