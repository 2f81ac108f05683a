//! `:actions {:attack {…}}`: what entities can do on their seat's turn,
//! besides playing cards. An action is used by an *actor* (an entity of a
//! kind), usually on a *target* (an entity of a kind: a unit, a cell), and is
//! allowed when its `:when` holds with `:actor` and `:target` bound:
//!
//! ```clojure
//! :actions {:attack {:doc "strike a foe next to you"
//!                    :actor :unit :target :unit
//!                    :when [and [= [:actor :team] [:you :team]] [not= [:target :team] [:you :team]]]
//!                    :refused-when [{:when [has :actor :power] :reason "Cannot attack after moving with Power buff"}]
//!                    :effects [{:effected :target :resource :hp :amount [- [:actor :attack]]}]}}
//! ```
//!
//! `:refused-when` names the cases a player may try and be told no, with the
//! designer's sentence; `:pay` runs when the action is chosen, `:effects`
//! when it resolves: at once, or, when `:delayed-when` holds, when the next
//! round ends (the actor is "preparing" until then, and may use only the
//! actions marked `:while-preparing`; one marked `:while-preparing :forces`
//! makes the prepared action resolve at once). A prepared action is
//! cancelled if the actor or the target leaves play first. Conditions cannot
//! draw chance: whether an action is allowed never depends on dice.

use super::{RuleSet, keyword_map, kind_named, string};
use crate::check::ast::{Bool, Effect, Leaf};
use crate::check::keys::{Keys, keys};
use crate::check::{self, ACTOR, Choosable, Scope, TARGET};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

use super::KindId;

pub use crate::ids::ActionId;
use crate::ids::TurnKindId;

keys! {
    /// The keys of one action.
    pub enum ActionKey {
        /// `:doc "…"`: what it does, for people.
        Doc = "doc",
        /// `:actor :unit`: the kind of entity that uses it.
        Actor = "actor",
        /// `:target :cell`: the kind of entity it is aimed at (none: it takes no target).
        Target = "target",
        /// `:when condition`: when an actor may use it on a target.
        When = "when",
        /// `:refused-when [{:when c :reason "…"}]`: cases refused with a reason.
        RefusedWhen = "refused-when",
        /// `:delayed-when condition`: the effects wait for the next round's end.
        DelayedWhen = "delayed-when",
        /// `:while-preparing :allowed` (or `:forces`): whether an actor that
        /// is preparing may use it (and whether it forces the prepared action).
        WhilePreparing = "while-preparing",
        /// `:pay […]`: effects run when the action is chosen.
        Pay = "pay",
        /// `:effects […]`: effects run when it resolves.
        Effects = "effects",
        /// `:type :fast-combat`: the turn kind it counts as; turns whose kind
        /// `:allows` other types refuse it.
        Type = "type",
        /// `:choose :body-part`: it is used with one option of that set of
        /// `:choices`, which its conditions and effects read with `[choice :field]`.
        Choose = "choose",
    }
}

keys! {
    /// The keys of one `:refused-when` case.
    pub enum RefusalKey {
        /// `:when condition`: when the action is refused.
        When = "when",
        /// `:reason "…"`: what the player is told.
        Reason = "reason",
    }
}

keys! {
    /// What an action is to an actor that is preparing (`:while-preparing`);
    /// an action without the key may not be used by one.
    pub enum WhilePreparing {
        /// `:allowed`: an actor that is preparing may use it, as any other may (a wait).
        Allowed = "allowed",
        /// `:forces`: only an actor that is preparing may use it, and using
        /// it makes the actor's prepared actions resolve at once.
        Forces = "forces",
    }
}

/// One action of a rule set.
#[derive(Clone, Debug)]
pub struct ActionDef {
    /// Its name (`attack`).
    pub name: String,
    /// What it does, for people.
    pub doc: String,
    /// The kind of entity that uses it.
    pub actor: KindId,
    /// The kind of entity it is aimed at; `None` if it takes no target.
    pub target: Option<KindId>,
    /// When it is allowed (always, without).
    pub when: Option<Bool>,
    /// Cases in which it is refused, each with the reason the player is told.
    pub refused: Vec<(Bool, String)>,
    /// When its effects wait for the end of the next round (its actor "preparing").
    pub delayed_when: Option<Bool>,
    /// Whether an actor that is preparing may use it (`None`: it may not).
    pub while_preparing: Option<WhilePreparing>,
    /// Effects run when it is chosen.
    pub pay: Vec<Effect>,
    /// Effects run when it resolves.
    pub effects: Vec<Effect>,
    /// Whether its `:pay` or `:effects` can draw from the generator.
    pub draws: bool,
    /// The turn kind it counts as (`:type`), by index; the first without.
    pub type_: super::turn_kinds::TurnKindId,
    /// The set of `:choices` it is used with one option of (`:choose`).
    pub choose: Option<super::choices::ChoiceSetId>,
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:actions`", diags) {
        if rules.actions.iter().any(|a| a.name == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("action `:{name}` is declared twice"),
            ));
            continue;
        }
        let Some(pairs) = check::fields(body, "an action", ActionKey::ALL, diags) else {
            continue;
        };
        let kind = |key: ActionKey, diags: &mut Vec<Diagnostic>| {
            let v = pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)?;
            kind_named(rules, v, key.name(), diags)
        };
        let before = diags.len();
        let actor = kind(ActionKey::Actor, diags);
        let target = kind(ActionKey::Target, diags);
        if !body.has_key(ActionKey::Actor.name()) {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    body.span,
                    format!("action `:{name}` has no `:actor`"),
                )
                .with_label("missing `:actor`")
                .with_help("say which kind of entity uses it: `:actor :unit`"),
            );
        }
        let bound: &[&str] = if body.has_key(ActionKey::Target.name()) {
            &[ACTOR, TARGET]
        } else {
            &[ACTOR]
        };
        let choose = pairs
            .iter()
            .find(|(k, _)| *k == ActionKey::Choose)
            .and_then(|(_, v)| super::choices::named(rules, v, diags));
        let choosable = match choose.and_then(|c| rules.choices.get(c)) {
            Some(set) => Choosable::Set(&set.name, &set.fields),
            // A `:choose` that names no set is its own error: no follow-on ones.
            None if body.has_key(ActionKey::Choose.name()) => Choosable::Any,
            None => Choosable::Nothing,
        };
        let scope = Scope {
            bound,
            choosable,
            ..rules.scope()
        };
        let mut action = ActionDef {
            name: name.to_string(),
            doc: String::new(),
            actor: KindId::FIRST,
            target,
            when: None,
            refused: Vec::new(),
            delayed_when: None,
            while_preparing: None,
            pay: Vec::new(),
            effects: Vec::new(),
            draws: false,
            type_: TurnKindId::FIRST,
            choose,
        };
        for &(key, v) in &pairs {
            match key {
                ActionKey::Doc => action.doc = string(v, diags).unwrap_or_default(),
                ActionKey::Actor | ActionKey::Target | ActionKey::Choose => {}
                ActionKey::Type => {
                    if let Some(t) =
                        super::turn_kinds::named(&rules.turn_kinds, v, "`:type`", diags)
                    {
                        action.type_ = t;
                    }
                }
                ActionKey::When => action.when = steady(v, &scope, diags),
                ActionKey::DelayedWhen => action.delayed_when = steady(v, &scope, diags),
                ActionKey::WhilePreparing => {
                    action.while_preparing = check::keyword_in::<WhilePreparing>(
                        v,
                        format!(
                            "`:while-preparing` is `:allowed` or `:forces`, found {}",
                            v.describe()
                        ),
                        "not a way to act while preparing",
                        None,
                        diags,
                    )
                }
                ActionKey::RefusedWhen => action.refused = refusals(v, &scope, diags),
                ActionKey::Pay => action.pay = check::effects(v, &scope, diags).unwrap_or_default(),
                ActionKey::Effects => {
                    action.effects = check::effects(v, &scope, diags).unwrap_or_default()
                }
            }
        }
        if diags.len() > before {
            continue;
        }
        action.draws = rules.draws(&action.pay) || rules.draws(&action.effects);
        if let Some(actor) = actor {
            action.actor = actor;
            rules.actions.push(action);
        }
    }
    if rules.actions.len() > ActionId::MAX.index() {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            "a rule set may declare at most 65535 actions",
        ));
    }
}

/// A condition that cannot draw chance: an action's legality never depends on dice.
fn steady(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Bool> {
    let cond = check::condition(form, scope, diags)?;
    without_chance(
        cond,
        form,
        "an action's conditions cannot draw chance",
        "whether an action is allowed must not depend on dice; roll in its `:effects`",
        diags,
    )
}

/// `cond` (read from `form`), unless it draws chance: then an error saying
/// `message`, with `help`, and `None`.
pub(super) fn without_chance(
    cond: Bool,
    form: &Form<'_>,
    message: &str,
    help: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Bool> {
    let mut draws = false;
    cond.leaves(&mut |leaf| draws |= leaf == Leaf::Draw);
    if draws {
        diags.push(
            Diagnostic::new(Code::ChanceNotAllowed, form.span, message)
                .with_label("draws from the generator")
                .with_help(help),
        );
        return None;
    }
    Some(cond)
}

/// `[{:when c :reason "…"} …]`
fn refusals(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Bool, String)> {
    let Kind::Vector(items) = &form.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                form.span,
                format!(
                    "`:refused-when` is a vector of `{{:when … :reason \"…\"}}` maps, found {}",
                    form.describe()
                ),
            )
            .with_label("expected a vector"),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items.iter() {
        let Some(pairs) = check::fields(item, "a refusal", RefusalKey::ALL, diags) else {
            continue;
        };
        let (mut when, mut reason) = (None, None);
        for (k, v) in pairs {
            match k {
                RefusalKey::When => when = steady(v, scope, diags),
                RefusalKey::Reason => reason = string(v, diags),
            }
        }
        for key in RefusalKey::ALL {
            if !item.has_key(key.name()) {
                diags.push(
                    Diagnostic::new(
                        Code::MissingKey,
                        item.span,
                        format!("this refusal has no `:{}`", key.name()),
                    )
                    .with_label(format!("missing `:{}`", key.name())),
                );
            }
        }
        if let (Some(when), Some(reason)) = (when, reason) {
            out.push((when, reason));
        }
    }
    out
}
