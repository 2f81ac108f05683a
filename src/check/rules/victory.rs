//! `:victory [{:when … :winner :you :reason "…"}]`: how a game is won (or,
//! with `:loser`, lost), checked
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
        /// `:loser`: the role that loses when it holds (a seat slain by an enemy that is no seat).
        Loser = "loser",
        /// `:reason`: why, for the log.
        Reason = "reason",
    }
}

/// A way to win: when `when` holds, the entity role `winner` names wins.
#[derive(Clone, Debug)]
pub struct Victory {
    /// The condition, checked with `:you` bound to each seat in turn.
    pub when: Bool,
    /// Who wins when it holds, or loses if [`Victory::loses`].
    pub winner: RoleId,
    /// Whether the role loses when it holds (`:loser`): the game ends, that
    /// seat lost and no seat won.
    pub loses: bool,
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
                VictoryKey::Winner | VictoryKey::Loser => {
                    match v.as_keyword().and_then(|w| rules.role(w)) {
                        Some(r) => winner = Some(r),
                        None => diags.push(
                            Diagnostic::new(
                                Code::UnknownRole,
                                v.span,
                                format!("`:{}` is a role, found {}", k.name(), v.describe()),
                            )
                            .with_help(format!(
                                "the roles are {}",
                                list_and(rules.roles.iter().map(|r| format!("`:{r}`")))
                            )),
                        ),
                    }
                }
                VictoryKey::Reason => reason = string(v, diags).unwrap_or_default(),
            }
        }
        let loses = item.has_key(VictoryKey::Loser.name());
        if loses && item.has_key(VictoryKey::Winner.name()) {
            diags.push(
                Diagnostic::new(
                    Code::KeyNotHere,
                    item.span,
                    "a victory condition names a `:winner` or a `:loser`, not both",
                )
                .with_help("write one condition for who wins and another for who loses"),
            );
        }
        if !item.has_key(VictoryKey::When.name()) {
            diags.push(Diagnostic::new(
                Code::MissingKey,
                item.span,
                "this victory condition has no `:when`",
            ));
        }
        if !loses && !item.has_key(VictoryKey::Winner.name()) {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    item.span,
                    "this victory condition has no `:winner`",
                )
                .with_help("`:winner ROLE` wins when it holds; `:loser ROLE` loses"),
            );
        }
        if let (Some(when), Some(winner)) = (when, winner) {
            rules.victory.push(Victory {
                reads: reads(&when),
                when,
                winner,
                loses,
                reason,
            });
        }
    }
}
