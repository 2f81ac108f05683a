//! `:victory [{:when … :winner :you :reason "…"}]`: how a game is won, checked
//! after each action (once all its effects have run), each hook and each
//! moment, with `:you` bound to each seat in turn.

use super::{RuleSet, string};
use crate::check::ast::{AttrId, Bool, Leaf, RoleId};
use crate::check::keys::{Keys, keys};
use crate::check::{self, list_and};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

keys! {
    /// The keys of a victory condition.
    pub enum VictoryKey {
        /// `:when`: the condition.
        When = "when",
        /// `:winner`: the role that wins when it holds.
        Winner = "winner",
        /// `:reason`: why, for the log.
        Reason = "reason",
    }
}

/// A way to win: when `when` holds, the entity role `winner` names wins.
#[derive(Clone, Debug)]
pub struct Victory {
    /// The condition, checked with `:you` bound to each seat in turn.
    pub when: Bool,
    /// Who wins when it holds.
    pub winner: RoleId,
    /// Why, for the log.
    pub reason: String,
    /// The attributes the condition reads, by role; `None` if it draws chance or
    /// reads through computed entities, and so must be checked every time.
    pub reads: Option<Vec<(RoleId, AttrId)>>,
}

/// The attributes a condition reads, or `None` if that cannot be known before it runs.
pub fn reads(b: &Bool) -> Option<Vec<(RoleId, AttrId)>> {
    let mut out = Vec::new();
    let mut knowable = true;
    b.leaves(&mut |leaf| match leaf {
        Leaf::Attr(Some(r), a) => out.push((r, a)),
        Leaf::Attr(None, _) | Leaf::Draw | Leaf::Status | Leaf::Entities => knowable = false,
        Leaf::Int(_) | Leaf::Dec(_) | Leaf::Amount => {}
    });
    out.sort_unstable();
    out.dedup();
    knowable.then_some(out)
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Kind::Vector(items) = &value.kind else {
        diags.push(Diagnostic::new(
            Code::WrongType,
            value.span,
            format!(
                "`:victory` is a vector of `{{:when … :winner …}}` maps, found {}",
                value.describe()
            ),
        ));
        return;
    };
    for item in items.iter() {
        let Some(pairs) = check::fields(item, "a victory condition", VictoryKey::ALL, diags) else {
            continue;
        };
        let (mut when, mut winner, mut reason) = (None, None, String::new());
        for (k, v) in pairs {
            match k {
                VictoryKey::When => when = check::condition(v, &rules.scope(), diags),
                VictoryKey::Winner => match v.as_keyword().and_then(|w| rules.role(w)) {
                    Some(r) => winner = Some(r),
                    None => diags.push(
                        Diagnostic::new(
                            Code::UnknownRole,
                            v.span,
                            format!("`:winner` is a role, found {}", v.describe()),
                        )
                        .with_help(format!(
                            "the roles are {}",
                            list_and(rules.roles.iter().map(|r| format!("`:{r}`")))
                        )),
                    ),
                },
                VictoryKey::Reason => reason = string(v, diags).unwrap_or_default(),
            }
        }
        for (k, missing) in [
            (VictoryKey::When, when.is_none()),
            (VictoryKey::Winner, winner.is_none()),
        ] {
            if missing && !item.has_key(k.name()) {
                diags.push(Diagnostic::new(
                    Code::MissingKey,
                    item.span,
                    format!("this victory condition has no `:{}`", k.name()),
                ));
            }
        }
        if let (Some(when), Some(winner)) = (when, winner) {
            rules.victory.push(Victory {
                reads: reads(&when),
                when,
                winner,
                reason,
            });
        }
    }
}
