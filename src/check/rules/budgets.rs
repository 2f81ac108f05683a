//! `:budgets {:work 5000000 :statuses 50000}`: the work one step of a game
//! may do and the statuses a game may hold at once, for a rule set that
//! needs more (or wants less) than the defaults; within hard caps, so that
//! no rule set can ask for unbounded work.

use super::{RuleSet, whole};
use crate::check;
use crate::check::keys::{Keys, keys};
use crate::diag::Diagnostic;
use crate::syntax::Form;

/// The work one step may do unless `:budgets :work` says otherwise.
pub const DEFAULT_WORK: u64 = 1_000_000;
/// The most `:budgets :work` may ask for.
pub const MAX_WORK: i64 = 100_000_000;
/// The statuses a game may hold at once unless `:budgets :statuses` says otherwise.
pub const DEFAULT_STATUSES: usize = 10_000;
/// The most `:budgets :statuses` may ask for.
pub const MAX_STATUSES: i64 = 1_000_000;
/// The trigger runs one chain may make unless `:budgets :trigger-runs` says otherwise.
pub const DEFAULT_TRIGGER_RUNS: u32 = 500;
/// The most `:budgets :trigger-runs` may ask for.
pub const MAX_TRIGGER_RUNS: i64 = 10_000;
/// How deep triggers may set each other off unless `:budgets :trigger-depth` says otherwise.
pub const DEFAULT_TRIGGER_DEPTH: u8 = 16;
/// The most `:budgets :trigger-depth` may ask for.
pub const MAX_TRIGGER_DEPTH: i64 = 64;

keys! {
    /// The keys of `:budgets`.
    pub enum BudgetKey {
        /// `:work N`: units of work one step may do (each entity an `:each`,
        /// `count` or `sum` looks at, each die, each `advantage`, each status acquired).
        Work = "work",
        /// `:statuses N`: statuses held at once, by every entity together.
        Statuses = "statuses",
        /// `:trigger-runs N`: triggers one chain may run (a card's play, a
        /// turn's start, and what they set off) before it is stopped.
        TriggerRuns = "trigger-runs",
        /// `:trigger-depth N`: how deep a trigger's run may set off others.
        TriggerDepth = "trigger-depth",
    }
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = check::fields(value, "`:budgets`", BudgetKey::ALL, diags) else {
        return;
    };
    for (key, v) in pairs {
        match key {
            BudgetKey::Work => {
                if let Some(n) = whole(v, "`:work`", 1, MAX_WORK, diags) {
                    rules.work_budget = n as u64;
                }
            }
            BudgetKey::Statuses => {
                if let Some(n) = whole(v, "`:statuses`", 1, MAX_STATUSES, diags) {
                    rules.status_budget = n as usize;
                }
            }
            BudgetKey::TriggerRuns => {
                if let Some(n) = whole(v, "`:trigger-runs`", 1, MAX_TRIGGER_RUNS, diags) {
                    rules.trigger_runs = n as u32;
                }
            }
            BudgetKey::TriggerDepth => {
                if let Some(n) = whole(v, "`:trigger-depth`", 1, MAX_TRIGGER_DEPTH, diags) {
                    rules.trigger_depth = n as u8;
                }
            }
        }
    }
}
