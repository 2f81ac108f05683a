//! `:ai {:score …}`: how the greedy AI weighs a state, for the player whose turn it is.

use super::RuleSet;
use crate::check;
use crate::check::keys::{Keys, keys};
use crate::diag::Diagnostic;
use crate::syntax::Form;

keys! {
    /// The keys of `:ai`.
    pub enum AiKey {
        /// `:score`: an integer expression; higher is better for `:you`.
        Score = "score",
    }
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = check::fields(value, "`:ai`", AiKey::ALL, diags) else {
        return;
    };
    for (key, v) in pairs {
        match key {
            AiKey::Score => rules.ai_score = check::integer(v, &rules.scope(), diags),
        }
    }
}
