//! `:turns {:limit 1000}`: the turn machine's settings. The turn order is the
//! seats' order; a game still going after `:limit` turns is a draw.

use super::{RuleSet, whole};
use crate::check;
use crate::check::keys::{Keys, keys};
use crate::diag::Diagnostic;
use crate::syntax::Form;

/// The longest game a rule set may ask for: a game where nobody can act plays
/// every turn to the limit, and its log must fit in memory.
pub const MAX_TURN_LIMIT: i64 = 1_000_000;

keys! {
    /// The keys of `:turns`.
    pub enum TurnsKey {
        /// `:limit`: the last turn a game may reach; then it is a draw.
        Limit = "limit",
    }
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = check::fields(value, "`:turns`", TurnsKey::ALL, diags) else {
        return;
    };
    for (key, v) in pairs {
        match key {
            TurnsKey::Limit => {
                if let Some(n) = whole(v, "`:limit`", 1, MAX_TURN_LIMIT, diags) {
                    rules.turn_limit = n as u32;
                }
            }
        }
    }
}
