//! `:kinds {:player "a seat's player" :rock "a falling rock"}`: the sorts of
//! entity a game has. Every entity has one kind; seats are of the first. All
//! kinds store the same attributes, so an entity's row is as wide whatever its kind.

use super::{RuleSet, keyword_map, string};
use crate::diag::Diagnostic;
use crate::syntax::Form;

/// Index of a kind in [`RuleSet::kinds`].
pub type KindId = u16;

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let mut kinds = Vec::new();
    for (name, (span, doc)) in keyword_map(value, "`:kinds`", diags) {
        if kinds.iter().any(|k| k == name) {
            diags.push(Diagnostic::error(
                span,
                format!("kind `:{name}` is declared twice"),
            ));
            continue;
        }
        // The doc is only read to check it is a string.
        let _ = string(doc, diags);
        kinds.push(name.to_string());
    }
    if kinds.is_empty() {
        diags.push(
            Diagnostic::error(value.span, "`:kinds` declares no kind")
                .with_help("seats are of the first kind: `:kinds {:player \"a seat's player\"}`"),
        );
    } else if kinds.len() >= usize::from(KindId::MAX) {
        diags.push(Diagnostic::error(
            value.span,
            "a rule set may declare at most 65534 kinds",
        ));
    } else {
        rules.kinds = kinds;
    }
}
