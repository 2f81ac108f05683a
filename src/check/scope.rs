//! What is in scope where an effect is checked: the names the rule set
//! declares, the roles the engine binds (`:self`, `:holder`, `:target`), and
//! where `[choice :field]` may be read.

use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::ids::RoleId;
use crate::syntax::Form;

/// The names an effect may use: what the rule set declares, plus what is in scope.
#[derive(Clone, Copy, Debug)]
pub struct Scope<'r> {
    /// Role names (`you`, `other`), without colons.
    pub roles: &'r [String],
    /// Attribute names (`wall`, `tower`).
    pub attributes: &'r [String],
    /// Operation names (`damage`).
    pub operations: &'r [String],
    /// Named constants (`tower-goal`), replaced by their values when checked.
    pub params: &'r [(String, i64)],
    /// Lookup tables (`damage`), copied into the expressions that read them.
    pub lookups: &'r [(String, crate::check::ast::Lookup)],
    /// Named formulas (`stamina`), copied into the expressions that apply them.
    pub formulas: &'r [(String, std::sync::Arc<crate::check::ast::FormulaDef>)],
    /// The arguments of the formula whose body is being checked (`:index`).
    pub args: &'r [String],
    /// Status names (`weakness`), by id: those of the definitions checked with the rule set.
    pub statuses: &'r [String],
    /// Category names, by id.
    pub categories: &'r [String],
    /// Flag names, by id.
    pub flags: &'r [String],
    /// Kind names, by id: what `{:each :kind …}` may name.
    pub kinds: &'r [String],
    /// The declared timings: what `{:run :timing}` may name.
    pub timings: &'r [TimingShape],
    /// Turn kind names: what `{:queue :turns :kind …}` may name.
    pub turn_kinds: &'r [String],
    /// For each field of the rule set's `:choices`, its number for every option.
    pub choice_columns: &'r [(String, Box<[i64]>)],
    /// Which fields `[choice :field]` may read here.
    pub choosable: Choosable<'r>,
    /// The numbers of the card being checked (`:multi 1.5`), each a name for its number.
    pub card_values: &'r [(String, crate::check::ast::CardValue)],
    /// True inside an operation's body, where `:target` and `:amount` are bound.
    pub in_operation: bool,
    /// True in a status's effects, where `:magnitude` is bound.
    pub in_status: bool,
    /// Roles the engine binds in this scope beyond the declared ones (`:self` in
    /// a hook run for each entity of a kind); role `roles.len() + i` is `bound[i]`.
    pub bound: &'r [&'r str],
    /// The zones cards are kept in, for a rule set with `:zones` (not the
    /// three `:cards` alone stands for): what card effects and queries name.
    pub zones: Option<&'r crate::check::rules::ZoneSet>,
    /// The kinds cards are of (`:card true`), by kind.
    pub card_kinds: &'r [bool],
    /// True in a card's effects, where `:this-card` is bound (with `:zones`).
    pub this_card: bool,
    /// True in a trigger, where `[event :amount]` reads the event it runs for.
    pub in_trigger: bool,
    /// True in a reaction card's effects, where `{:cancel :subject}` may stop
    /// the card it answers.
    pub in_reaction: bool,
}

/// Where `[choice :field]` may be read, and which fields.
#[derive(Clone, Copy, Debug)]
pub enum Choosable<'r> {
    /// Nowhere: nothing is chosen here (cards, hooks, statuses, actions without `:choose`).
    Nothing,
    /// The fields of the set an action `:choose`s, named for errors.
    Set(&'r str, &'r [String]),
    /// Any field: an operation's body, which an action with `:choose` may apply.
    Any,
}

/// The role bound to the entity a hook runs for, in hooks of timings with `:each`.
pub const SELF: &str = "self";
/// The role bound to the entity that uses an action, in the action's conditions and effects.
pub const ACTOR: &str = "actor";
/// The role bound to the entity a status is on, in the status's effects.
pub const HOLDER: &str = "holder";
/// The role bound to the entity that applied a status, in the status's effects.
pub const SOURCE: &str = "source";

/// The magnitude a status was acquired with, in the status's effects.
pub const MAGNITUDE: &str = "magnitude";
/// The filter keyword that matches every status.
pub const ANY: &str = "any";

/// Names only an operation body can use.
pub const TARGET: &str = "target";
/// The amount an operation was applied with.
pub const AMOUNT: &str = "amount";

/// The moment of timings that only `{:run …}` effects run.
pub const RUN: &str = "run";

/// What the checker sees of a declared timing: enough to check `{:run …}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimingShape {
    /// Its name.
    pub name: String,
    /// The name of the moment it is attached to (`turn-start`, [`RUN`]).
    pub at: &'static str,
    /// The kind it runs for each entity of, if any.
    pub each: Option<crate::ids::KindId>,
}

/// The card whose effects run, in a card's effects (a rule set with `:zones`).
pub const THIS_CARD: &str = "this-card";

/// Names the engine binds, which a rule set cannot declare.
pub const RESERVED: &[&str] = &[
    TARGET, AMOUNT, SELF, HOLDER, SOURCE, ACTOR, MAGNITUDE, THIS_CARD,
];

impl Checker<'_, '_> {
    /// A name a construct binds an entity to (`:each … :as :victim`): a
    /// keyword that is neither a declared role, nor a name bound around it,
    /// nor one the engine binds itself; `None`, with the diagnostic, otherwise.
    pub(super) fn bound_name<'f>(&mut self, form: &Form<'f>) -> Option<&'f str> {
        let Some(name) = form.as_keyword() else {
            self.error(
                Diagnostic::new(
                    Code::WrongType,
                    form.span,
                    format!(
                        "a name to bind is a keyword such as `:victim`, found {}",
                        form.describe()
                    ),
                )
                .with_label("expected a keyword"),
            );
            return None;
        };
        if RESERVED.contains(&name) && name != SELF {
            self.error(
                Diagnostic::new(
                    Code::Reserved,
                    form.span,
                    format!("`:{name}` is a name the engine binds itself"),
                )
                .with_label("choose another name"),
            );
            return None;
        }
        if self.scope.roles.iter().any(|r| r == name)
            || self.scope.bound.contains(&name) && name != SELF
        {
            self.error(
                Diagnostic::new(
                    Code::Duplicate,
                    form.span,
                    format!("`:{name}` is already a role here"),
                )
                .with_label("this would hide it")
                .with_help("choose a name not bound around this effect"),
            );
            return None;
        }
        Some(name)
    }

    /// How many roles are bound here: a `:self` bound inside comes next.
    pub(super) fn outer(&mut self) -> Option<RoleId> {
        let outer = self.scope.roles.len() + self.scope.bound.len();
        RoleId::try_from(outer).ok().filter(|&o| o < RoleId::MAX)
    }

    /// Runs `f` in this scope with `:self` bound after every role around it.
    pub(super) fn with_self<R>(&mut self, f: impl FnOnce(&mut Checker<'_, '_>) -> R) -> R {
        self.with_bound(SELF, f)
    }

    /// Runs `f` in this scope with `name` bound after every role around it
    /// (`:self`, or the name an `:each` binds with `:as`).
    pub(super) fn with_bound<R>(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut Checker<'_, '_>) -> R,
    ) -> R {
        let bound: Vec<&str> = self.scope.bound.iter().copied().chain([name]).collect();
        let inner = Scope {
            bound: &bound,
            ..*self.scope
        };
        f(&mut Checker {
            scope: &inner,
            diags: self.diags,
        })
    }
}
