//! Activated abilities: `:abilities {:ping {…}}` on a card (with `:zones`)
//! are what its controller may do with it on their turn while it is in a
//! zone of play (`:in-play true`): a cost paid in the card's `:type`,
//! targets and an option as a card's (`:targets`, `:choose`), conditions
//! with reasons (`:usable-when`), at most once a turn if it says so.
//! Its effects run with `:this-card` the card, `:you` its controller, and
//! its targets bound after the rule set's roles.

use super::keys::{Keys, keys};
use super::{Checker, Choosable, Scope, fields};
use crate::check::ast::{AttrId, Effect};
use crate::check::rules::RuleSet;
use crate::check::rules::choices::ChoiceSetId;
use crate::check::targets::{Playable, Target};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind, Span};

/// One activated ability of a card.
#[derive(Clone, Debug, PartialEq)]
pub struct Activated {
    /// Its name, without the colon (`ping`): what logs, scenarios and
    /// `explain` call it.
    pub name: String,
    /// `:text`: what it does, for players.
    pub text: Option<String>,
    /// `:cost N`: paid in `pay_with` when it is used.
    pub cost: i64,
    /// What the cost is paid in: `:type`, else its card's `:type`.
    pub pay_with: Option<AttrId>,
    /// `:targets`: as a card's; role `rules.roles.len() + i` is `targets[i]`.
    pub targets: Vec<Target>,
    /// `:choose :mode`: the set it is used with one option of.
    pub choose: Option<ChoiceSetId>,
    /// `:usable-when`: conditions, each with what a refusal says.
    pub usable: Vec<Playable>,
    /// `:once-per-turn true`: at most once in each of its controller's turns.
    pub once_per_turn: bool,
    /// What it does.
    pub effects: Vec<Effect>,
    /// Its map.
    pub span: Span,
}

impl Activated {
    /// The target its user chooses, if it has one (at most one does).
    pub fn chosen(&self) -> Option<&Target> {
        self.targets.iter().find(|t| !t.random)
    }
}

keys! {
    /// The keys of one activated ability.
    pub enum AbilityKey {
        /// `:text "…"`: what it does, for players.
        Text = "text",
        /// `:cost 2`: what using it costs, in the card's `:type` (or its own).
        Cost = "cost",
        /// `:type :mana`: what the cost is paid in, where not the card's.
        Type = "type",
        /// `:targets {:victim {…}}`: as a card's.
        Targets = "targets",
        /// `:choose :mode`: an option of a set of `:choices`, as a card's.
        Choose = "choose",
        /// `:usable-when [{:when C :reason "…"}]`: when it may be used.
        UsableWhen = "usable-when",
        /// `:once-per-turn true`: at most once a turn.
        OncePerTurn = "once-per-turn",
        /// `:effects […]`: what it does.
        Effects = "effects",
    }
}

/// `:abilities {:ping {…} …}`: a card's activated abilities, in order,
/// checked in `scope` (a card's, `:this-card` bound); `pay_with` is the
/// card's `:type`. `None` with diagnostics.
pub fn abilities(
    form: &Form<'_>,
    rules: &RuleSet,
    pay_with: Option<AttrId>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Activated>> {
    let Kind::Map(pairs) = &form.kind else {
        diags.push(
            Diagnostic::new(
                Code::NotAMap,
                form.span,
                format!(
                    "`:abilities` is a map of names to abilities, found {}",
                    form.describe()
                ),
            )
            .with_label("expected `{:ping {:cost 1 :effects […]}}`"),
        );
        return None;
    };
    let before = diags.len();
    let mut out: Vec<Activated> = Vec::new();
    for (key, value) in pairs.iter() {
        let Some(name) = key.as_keyword() else {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    key.span,
                    format!("an ability's name is a keyword, found {}", key.describe()),
                )
                .with_label("expected a name such as `:ping`"),
            );
            continue;
        };
        if let Some(a) = ability(name, value, rules, pay_with, scope, diags) {
            out.push(a);
        }
    }
    (diags.len() == before).then_some(out)
}

fn ability(
    name: &str,
    form: &Form<'_>,
    rules: &RuleSet,
    pay_with: Option<AttrId>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Activated> {
    let before = diags.len();
    let pairs = fields(form, "an ability", AbilityKey::ALL, diags)?;
    let mut a = Activated {
        name: name.to_string(),
        text: None,
        cost: 0,
        pay_with,
        targets: Vec::new(),
        choose: None,
        usable: Vec::new(),
        once_per_turn: false,
        effects: Vec::new(),
        span: form.span,
    };
    let own = Scope {
        this_card: true,
        ..*scope
    };
    // Its targets and option first: its effects name them, wherever the keys are written.
    for (key, value) in &pairs {
        match key {
            AbilityKey::Targets => {
                a.targets = super::targets::targets(value, &own, diags).unwrap_or_default()
            }
            AbilityKey::Choose => a.choose = super::rules::choices::named(rules, value, diags),
            _ => {}
        }
    }
    let names: Vec<&str> = a.targets.iter().map(|t| t.name.as_str()).collect();
    let choosable = match a.choose.and_then(|c| rules.choices.get(c)) {
        Some(set) => Choosable::Set(&set.name, &set.fields),
        None if form.has_key(AbilityKey::Choose.name()) => Choosable::Any,
        None => Choosable::Nothing,
    };
    let aimed = Scope {
        bound: &names,
        choosable,
        ..own
    };
    for (key, value) in &pairs {
        match key {
            AbilityKey::Text => match value.kind {
                Kind::Str(s) => a.text = Some(s.to_string()),
                _ => diags.push(Diagnostic::new(
                    Code::WrongType,
                    value.span,
                    format!("`:text` is a string, found {}", value.describe()),
                )),
            },
            AbilityKey::Cost => a.cost = cost(value, diags).unwrap_or(0),
            AbilityKey::Type => a.pay_with = paid_in(value, rules, diags).or(a.pay_with),
            AbilityKey::UsableWhen => {
                a.usable = super::targets::playable(value, "usable-when", &own, diags)
            }
            AbilityKey::OncePerTurn => {
                a.once_per_turn =
                    super::fields::flag(value, "once-per-turn", diags).unwrap_or(false)
            }
            AbilityKey::Effects => {
                let mut cx = Checker {
                    scope: &aimed,
                    diags,
                };
                a.effects = cx.effect_list(value).unwrap_or_default();
            }
            AbilityKey::Targets | AbilityKey::Choose => {}
        }
    }
    if let (Some(text), Some(at)) = (&a.text, form.get(AbilityKey::Text.name())) {
        let targets: Vec<&str> = a.targets.iter().map(|t| t.name.as_str()).collect();
        for (code, message) in super::lint::text_vs_card(rules, text, &a.effects, false, &targets) {
            diags.push(
                Diagnostic::new(code, at.span, message)
                    .with_label("the ability's text")
                    .with_help("make the text and the data agree"),
            );
        }
    }
    if !form.has_key(AbilityKey::Effects.name()) {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                form.span,
                format!("the ability `:{name}` has no `:effects`"),
            )
            .with_label("missing `:effects`"),
        );
    }
    if a.cost > 0 && a.pay_with.is_none() {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                form.span,
                format!(
                    "the ability `:{name}` costs {} but says nothing to pay it in",
                    a.cost
                ),
            )
            .with_label("a cost with no `:type`")
            .with_help("give the card a `:type`, or the ability its own `:type :mana`"),
        );
    }
    (diags.len() == before).then_some(a)
}

/// `:cost N`: a whole number, not negative.
fn cost(value: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    match value.kind {
        Kind::Int(n) if n >= 0 => Some(n),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    value.span,
                    format!(
                        "`:cost` is a whole number, 0 or more, found {}",
                        value.describe()
                    ),
                )
                .with_label("expected a cost such as 2"),
            );
            None
        }
    }
}

/// `:type :mana`: an attribute of the rule set.
fn paid_in(value: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<AttrId> {
    let found = value.as_keyword().and_then(|k| rules.attribute(k));
    if found.is_none() {
        diags.push(
            Diagnostic::new(
                Code::UnknownCardType,
                value.span,
                format!(
                    "`:type` names the attribute the cost is paid in, found {}",
                    value.describe()
                ),
            )
            .with_label("not an attribute of this rule set")
            .suggest(
                value.as_keyword().unwrap_or(""),
                rules.attributes.iter().map(String::as_str),
                |s| format!(":{s}"),
            ),
        );
    }
    found
}
