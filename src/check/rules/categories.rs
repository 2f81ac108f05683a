//! `:categories {:decrease-power "lowers its holder's power"}`: the categories
//! statuses belong to, named by blocks and dispels ("block debuffs that reduce
//! power"). A status's `:category` must be one of them.
//!
//! `:flags {:no-move-attack "cannot attack after moving"}`: the flags statuses
//! set while active, which actions and effects test (`[has :you :no-move-attack]`).
//! Both are declared in the rule set so that its own operations and hooks can
//! name them, and a misspelt one is caught.

use super::{keyword_map, string};
use crate::diag::{Code, Diagnostic};
use crate::ids::{Id, IdVec};
use crate::syntax::Form;

/// Reads a section of names with docs (`:categories`, `:flags`) into `names`;
/// `noun` is what one of them is called in messages; at most `max` of them.
pub(super) fn read<I: Id>(
    value: &Form<'_>,
    section: &str,
    noun: &str,
    max: usize,
    names: &mut IdVec<I, String>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, (span, doc)) in keyword_map(value, section, diags) {
        if names.iter().any(|c| c == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("{noun} `:{name}` is declared twice"),
            ));
            continue;
        }
        // The doc is only read to check it is a string.
        let _ = string(doc, diags);
        names.push(name.to_string());
    }
    if names.len() > max {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            format!("a rule set may declare at most {max} {section}"),
        ));
    }
}
