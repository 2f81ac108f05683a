//! The checker: syntax tree + rule-set names → typed AST, or diagnostics.
//!
//! Every name is resolved against the rule set, every operator against the
//! registry in [`ops`], and every expression gets one type. Errors are
//! collected, never thrown, so one run reports all of them.

pub mod keys;
pub mod ops;

use crate::ast::{
    Arith, Bool, Dec, Effect, Entity, Expr, Filter, Int, MAX_AT_ONCE, Over, Pick, Polarity,
    Resource, StatusOp,
};
use crate::diag::Diagnostic;
use crate::syntax::{Form, Kind, Span};
use keys::{Keys, keys};
use ops::{OpKind, Operator};

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
    pub lookups: &'r [(String, crate::ast::Lookup)],
    /// Named formulas (`stamina`), copied into the expressions that apply them.
    pub formulas: &'r [(String, crate::ast::FormulaDef)],
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
    pub card_values: &'r [(String, crate::ast::CardValue)],
    /// True inside an operation's body, where `:target` and `:amount` are bound.
    pub in_operation: bool,
    /// True in a status's effects, where `:magnitude` is bound.
    pub in_status: bool,
    /// Roles the engine binds in this scope beyond the declared ones (`:self` in
    /// a hook run for each entity of a kind); role `roles.len() + i` is `bound[i]`.
    pub bound: &'r [&'r str],
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
    pub each: Option<u16>,
}

/// Names the engine binds, which a rule set cannot declare.
pub const RESERVED: &[&str] = &[TARGET, AMOUNT, SELF, HOLDER, SOURCE, ACTOR, MAGNITUDE];

/// The most effects one list may hold.
pub const MAX_EFFECTS: usize = 10_000;

keys! {
    /// The keys of an effect map.
    pub enum EffectKey {
        /// `:effected`: who the effect touches.
        Effected = "effected",
        /// `:resource`: the attribute or operation it changes.
        Resource = "resource",
        /// `:amount`: by how much, or to what with `:set`.
        Amount = "amount",
        /// `:set true`: replace instead of add.
        Set = "set",
        /// `:acquire :weakness`: the entity acquires a status; the amount is its magnitude.
        Acquire = "acquire",
        /// `:dispel :debuff`: removes matching statuses; the amount says how many (1 without).
        Dispel = "dispel",
        /// `:extend :buff`: adds the amount to the turns left of matching statuses.
        Extend = "extend",
        /// `:pick :oldest`: which matching statuses a dispel removes first.
        Pick = "pick",
        /// `:lasts 4`: how long an acquired status lasts, instead of its definition's.
        Lasts = "lasts",
    }
}

keys! {
    /// The keys of a `{:spawn …}` effect.
    pub enum SpawnKey {
        /// `:spawn :tile`: the kind of the new entity.
        Spawn = "spawn",
        /// `:values {:x [:self :x]}`: its values that differ from the defaults.
        Values = "values",
    }
}

keys! {
    /// The keys of a card or named-effect definition.
    pub enum DefKey {
        /// `:card "Name"`: a card.
        Card = "card",
        /// `:effect "Name"`: a named effect.
        Effect = "effect",
        /// `:text`: what players read.
        Text = "text",
        /// `:effects`: what it does.
        Effects = "effects",
        /// `:type`: the attribute a card's cost is paid in.
        Type = "type",
        /// `:cost`: what a card costs.
        Cost = "cost",
        /// `:play-again`: the same player acts again after it.
        PlayAgain = "play-again",
        /// `:discardable`: whether it may be discarded.
        Discardable = "discardable",
        /// `:draw`: cards drawn after it is played.
        Draw = "draw",
        /// `:discard`: cards the player must then discard.
        Discard = "discard",
        /// `:copies`: how many of it a deck holds.
        Copies = "copies",
        /// `:once`: played once, it leaves the game.
        Once = "once",
    }
}

keys! {
    /// The keys of a `{:run …}` effect.
    pub enum RunKey {
        /// `:run :skill-start`: the timing (at the moment `:run`) whose hooks run now.
        Run = "run",
        /// `:effected :target`: the entity it runs for (`:you` without), unless the timing has `:each`.
        Effected = "effected",
    }
}

keys! {
    /// The keys of a `{:queue …}` effect.
    pub enum QueueKey {
        /// `:queue :turns` (extra turns at the front) or `:queue :timed` (an entry after reorders).
        Queue = "queue",
        /// `:effected :you`: whose turns are added (`:turns`).
        Effected = "effected",
        /// `:count 3`: how many turns (`:turns`).
        Count = "count",
        /// `:kind :classic`: the turn kind of the added turns (the first, without).
        Kind = "kind",
        /// `:after 3`: how many reorders come before the timed entry (`:timed`).
        After = "after",
        /// `:run :bomb`: the timing (at the moment `:run`) the timed entry runs,
        /// for the effected entity, with the roles of where it was queued.
        Run = "run",
    }
}

keys! {
    /// The keys of an `{:each …}` effect.
    pub enum EachKey {
        /// `:each :tile`: the kind whose entities it runs for.
        Each = "each",
        /// `:where condition`: only the entities for which it holds (`:self` bound).
        Where = "where",
        /// `:effects […]`: what it runs for each, with `:self` bound.
        Effects = "effects",
    }
}

keys! {
    /// The keys of a `{:when …}` effect.
    pub enum WhenKey {
        /// `:when condition`: whether its effects run.
        When = "when",
        /// `:effects […]`: what runs when the condition holds.
        Effects = "effects",
    }
}

keys! {
    /// Which matching statuses a dispel removes first.
    pub enum PickName {
        /// Chosen by the state's generator.
        Random = "random",
        /// The first acquired.
        Oldest = "oldest",
        /// The last acquired.
        Newest = "newest",
        /// The most turns left.
        MostLeft = "most-left",
        /// The fewest turns left.
        LeastLeft = "least-left",
        /// Every one.
        All = "all",
    }
}

/// Lowers a status filter: `:debuff`, `[:debuff :decrease-power]` or `:any`.
/// Each keyword names a status, a category, a flag, or the polarity `:buff` or
/// `:debuff`; every one must hold.
pub fn filter(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Filter> {
    let items = match &form.kind {
        Kind::Vector(items) => &items[..],
        _ => std::slice::from_ref(form),
    };
    Checker { scope, diags }.filter_of(items, form.span)
}

/// Lowers a vector of effect maps (or one map) to checked effects.
///
/// Returns `None` if anything was wrong; every problem is in `diags`.
pub fn effects(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Effect>> {
    let mut cx = Checker { scope, diags };
    cx.effect_list(form)
}

/// Lowers one expression, a number or a condition, whichever it is.
pub fn expr(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Expr> {
    let mut cx = Checker { scope, diags };
    let condition = match &form.kind {
        Kind::Bool(_) => true,
        Kind::Vector(items) => items
            .first()
            .and_then(Form::as_symbol)
            .and_then(ops::find)
            .is_some_and(|op| {
                matches!(
                    (op.kind, items.len() - 1),
                    (OpKind::Compare(_) | OpKind::And | OpKind::Or, 2)
                        | (OpKind::Not | OpKind::Chance | OpKind::Has, _)
                )
            }),
        _ => false,
    };
    if condition {
        return cx.boolean(form).map(Expr::Bool);
    }
    Some(match cx.num(form)? {
        Num::Int(i) => Expr::Int(i),
        Num::Dec(d) => Expr::Dec(d),
    })
}

/// Lowers one integer expression (a score, a formula).
pub fn integer(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Int> {
    Checker { scope, diags }.int(form)
}

/// Lowers one number as a decimal (a multiplier, a chance); an integer is widened.
pub fn decimal(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Dec> {
    Checker { scope, diags }.num(form).map(Num::into_dec)
}

/// Lowers one condition (a victory rule, a requirement).
pub fn condition(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Bool> {
    Checker { scope, diags }.boolean(form)
}

/// Reads a map whose keys must be keywords of `K` (only those in `allowed`);
/// returns the pairs in order.
///
/// Symbol keys (`effected` for `:effected`), unknown keys and non-map forms are
/// reported; the known pairs are still returned when possible.
pub fn fields<'f, 'a, K: Keys>(
    form: &'f Form<'a>,
    what: &str,
    allowed: &[K],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<(K, &'f Form<'a>)>> {
    fields_with(form, what, allowed, &[], diags).map(|(known, _)| known)
}

/// [`fields`], where the keys named in `extra` (a rule set's own, such as a
/// card's values) are allowed too and returned apart, by name.
#[allow(clippy::type_complexity)]
pub fn fields_with<'f, 'a, K: Keys>(
    form: &'f Form<'a>,
    what: &str,
    allowed: &[K],
    extra: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<(K, &'f Form<'a>)>, Vec<(&'a str, &'f Form<'a>)>)> {
    let Kind::Map(pairs) = &form.kind else {
        diags.push(
            Diagnostic::error(
                form.span,
                format!("expected {what} (a map), found {}", form.describe()),
            )
            .with_label(format!("expected {what}")),
        );
        return None;
    };
    let names = || {
        allowed
            .iter()
            .map(|k| k.name())
            .chain(extra.iter().copied())
    };
    let known = |name: &str| K::find(name).filter(|k| allowed.contains(k));
    let mut out = Vec::with_capacity(pairs.len());
    let mut more = Vec::new();
    for (k, v) in pairs.iter() {
        match &k.kind {
            Kind::Keyword(name) if known(name).is_some() => {
                out.extend(known(name).map(|key| (key, v)));
            }
            Kind::Keyword(name) if extra.contains(name) => more.push((*name, v)),
            Kind::Keyword(name) => {
                let d = Diagnostic::error(k.span, format!("unknown key `:{name}` in {what}"))
                    .with_label("unknown key");
                diags.push(match K::RENAMED.iter().find(|(old, _)| old == name) {
                    // A key under its former name: say the new one.
                    Some((_, help)) => d.with_help(*help),
                    None => d
                        .suggest(name, names(), |s| format!(":{s}"))
                        .with_help_if_none(format!(
                            "the keys of {what} are {}",
                            list_and(names().map(|a| format!("`:{a}`")))
                        )),
                });
            }
            Kind::Symbol(name) if known(name).is_some() => {
                diags.push(
                    Diagnostic::error(
                        k.span,
                        format!("`{name}` is a symbol, but keys are keywords"),
                    )
                    .with_label("missing `:`")
                    .with_help(format!("write `:{name}`")),
                );
            }
            _ => {
                diags.push(
                    Diagnostic::error(
                        k.span,
                        format!("keys of {what} are keywords, found {}", k.describe()),
                    )
                    .with_label("expected a keyword")
                    .suggest(k.as_symbol().unwrap_or(""), names(), |s| format!(":{s}")),
                );
            }
        }
    }
    Some((out, more))
}

/// An operator's forms for a message: "`[< a b]` or `[< a b then else]`".
fn shapes(op: &Operator) -> String {
    let forms: Vec<String> = op
        .forms
        .split("] [")
        .map(|f| format!("`[{}]`", f.trim_start_matches('[').trim_end_matches(']')))
        .collect();
    list(forms)
}

/// The member of the closed set `K` that the keyword `v` names (a moment, a
/// polarity); otherwise an error at it saying `message`, labelled `label`,
/// with the nearest name, or else `help`.
pub fn keyword_in<K: Keys>(
    v: &Form<'_>,
    message: String,
    label: &str,
    help: Option<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<K> {
    let name = v.as_keyword().unwrap_or("");
    let found = K::find(name);
    if found.is_none() {
        let d = Diagnostic::error(v.span, message)
            .with_label(label.to_string())
            .suggest(name, K::ALL.iter().map(|k| k.name()), |s| format!(":{s}"));
        diags.push(match help {
            Some(help) => d.with_help_if_none(help),
            None => d,
        });
    }
    found
}

/// Names a rule set declares (kinds, categories, attributes, timings), for
/// finding the one a keyword names, or saying which it could have meant.
pub struct Declared<'n> {
    names: Vec<&'n str>,
    /// "a kind": what one of them is, for the label.
    noun: &'static str,
    /// "kinds": what they are, for the list.
    plural: &'static str,
    /// The help when none is declared at all.
    when_empty: Option<String>,
    /// The error's label, if not the usual.
    label: Option<String>,
}

impl<'n> Declared<'n> {
    /// `names`, each one `noun`, together `plural`.
    pub fn new(
        names: impl IntoIterator<Item = &'n str>,
        noun: &'static str,
        plural: &'static str,
    ) -> Declared<'n> {
        Declared {
            names: names.into_iter().collect(),
            noun,
            plural,
            when_empty: None,
            label: None,
        }
    }

    /// The help to give when no name is declared.
    pub fn when_empty(mut self, help: String) -> Declared<'n> {
        self.when_empty = Some(help);
        self
    }

    /// The label of the error, where "not {noun} of this rule set" says too
    /// little (a field of one set of choices).
    pub fn labelled(mut self, label: String) -> Declared<'n> {
        self.label = Some(label);
        self
    }

    /// The index of `name`; otherwise an error at `span` saying `message`,
    /// labelled "not {noun} of this rule set", with the nearest name or the list.
    pub fn find(
        &self,
        name: &str,
        span: Span,
        message: String,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<usize> {
        if let Some(i) = self.names.iter().position(|n| *n == name) {
            return Some(i);
        }
        let label = self
            .label
            .clone()
            .unwrap_or_else(|| format!("not {} of this rule set", self.noun));
        let d = Diagnostic::error(span, message).with_label(label);
        // A form that is not a keyword (`name` empty) is near nothing: list them.
        let candidates = self.names.iter().copied().filter(|_| !name.is_empty());
        diags.push(match &self.when_empty {
            Some(help) if self.names.is_empty() => d.with_help(help.clone()),
            _ if self.names.is_empty() => {
                d.with_help(format!("this rule set declares no {}", self.plural))
            }
            _ => d
                .suggest(name, candidates, |s| format!(":{s}"))
                .with_help_if_none(format!(
                    "the {} are {}",
                    self.plural,
                    list_and(self.names.iter().map(|n| format!("`:{n}`")))
                )),
        });
        None
    }
}

/// The entry of a rule set's named list (`:lookups`, `:formulas`) that
/// `form`, an operator's first operand, names; otherwise an error with the
/// nearest name, or with how to `declare` one when there are none. `what` is
/// one of them ("a formula"), several ("formulas"), and the operator.
fn named_entry<'s, T>(
    list: &'s [(String, T)],
    form: &Form<'_>,
    what: (&'static str, &'static str, &str),
    declare: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'s T> {
    let (noun, plural, op) = what;
    let message = match form.as_keyword() {
        Some(k) => format!("no {} `:{k}` is declared", noun.trim_start_matches("a ")),
        None => format!("`{op}` names {noun}, found {}", form.describe()),
    };
    Declared::new(list.iter().map(|(n, _)| n.as_str()), noun, plural)
        .when_empty(format!("declare it in the rule set: {declare}"))
        .find(form.as_keyword().unwrap_or(""), form.span, message, diags)
        .and_then(|i| list.get(i))
        .map(|(_, entry)| entry)
}

/// Joins names for a list of what exists: "`a`, `b` and `c`".
pub fn list_and(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Joins names for a message: "`a`, `b` or `c`".
pub fn list(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// A number of either type, before the context decides which it must be.
enum Num {
    Int(Int),
    Dec(Dec),
}

impl Num {
    fn into_dec(self) -> Dec {
        match self {
            Num::Int(Int::Lit(n)) => Dec::Lit(n as f64),
            Num::Int(i) => Dec::Int(Box::new(i)),
            Num::Dec(d) => d,
        }
    }
}

struct Checker<'s, 'r> {
    scope: &'s Scope<'r>,
    diags: &'s mut Vec<Diagnostic>,
}

/// The operator a vector starts with, and its operands.
struct Call<'f, 'a> {
    op: &'static Operator,
    head: &'f Form<'a>,
    args: &'f [Form<'a>],
    span: Span,
}

impl<'a> Checker<'_, '_> {
    fn error(&mut self, d: Diagnostic) -> Option<std::convert::Infallible> {
        self.diags.push(d);
        None
    }

    fn effect_list(&mut self, form: &Form<'a>) -> Option<Vec<Effect>> {
        match &form.kind {
            Kind::Vector(items) if items.len() > MAX_EFFECTS => {
                self.error(
                    Diagnostic::error(
                        form.span,
                        format!(
                            "an effect list holds at most {MAX_EFFECTS} effects; this has {}",
                            items.len()
                        ),
                    )
                    .with_label("too many effects"),
                );
                None
            }
            Kind::Vector(items) => {
                let mut out = Vec::with_capacity(items.len());
                let mut ok = true;
                for item in items.iter() {
                    if let Some(group) = at_once_group(item) {
                        ok &= self.at_once(item, group, &mut out);
                        continue;
                    }
                    match self.effect(item) {
                        Some(e) => out.push(e),
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
            Kind::Map(_) => self.effect(form).map(|e| vec![e]),
            _ => {
                self.error(
                    Diagnostic::error(
                        form.span,
                        format!(
                            "expected a vector of effect maps, found {}",
                            form.describe()
                        ),
                    )
                    .with_help("write effects as `[{:effected :you :resource :wall :amount 3}]`"),
                );
                None
            }
        }
    }

    /// `{:at-once [e1 e2 ...]}`: effects computed from one state, then applied in order.
    fn at_once(&mut self, form: &Form<'a>, group: &Form<'a>, out: &mut Vec<Effect>) -> bool {
        if let Kind::Map(pairs) = &form.kind
            && pairs.len() > 1
        {
            self.error(
                Diagnostic::error(form.span, "an `:at-once` map holds only `:at-once`")
                    .with_help("put the effects inside: `{:at-once [{…} {…}]}`"),
            );
            return false;
        }
        let Kind::Vector(items) = &group.kind else {
            self.wrong_kind(group, "a vector of effect maps", &group.describe());
            return false;
        };
        if items.is_empty() || items.len() > MAX_AT_ONCE {
            self.error(
                Diagnostic::error(
                    group.span,
                    format!(
                        "`:at-once` groups 1 to {MAX_AT_ONCE} effects; this has {}",
                        items.len()
                    ),
                )
                .with_label("wrong size"),
            );
            return false;
        }
        let start = out.len();
        let mut ok = true;
        for item in items.iter() {
            if at_once_group(item).is_some() {
                self.error(Diagnostic::error(
                    item.span,
                    "`:at-once` groups cannot nest",
                ));
                ok = false;
                continue;
            }
            match self.effect(item) {
                Some(e) => out.push(e),
                None => ok = false,
            }
        }
        if ok {
            out[start].at_once = items.len() as u8;
        }
        ok
    }

    fn effect(&mut self, form: &Form<'a>) -> Option<Effect> {
        if form.has_key(EachKey::Each.name()) {
            return self.each(form);
        }
        if form.has_key(SpawnKey::Spawn.name()) {
            return self.spawn(form);
        }
        if form.has_key(WhenKey::When.name()) {
            return self.when(form);
        }
        // Before `:run`, which a timed `:queue` entry names.
        if form.has_key(QueueKey::Queue.name()) {
            return self.queue(form);
        }
        if form.has_key(RunKey::Run.name()) {
            return self.run(form);
        }
        let before = self.diags.len();
        let pairs = fields(form, "an effect map", EffectKey::ALL, self.diags)?;
        let (mut entity, mut target, mut amount, mut set) = (None, None, None, Some(false));
        let mut target_form = None;
        let mut set_form = None;
        let mut pick = None;
        let mut lasts = None;
        // The key that says what changes: `:resource`, `:acquire`, `:dispel` or `:extend`.
        let mut what: Option<(EffectKey, &Form<'a>)> = None;
        for (key, value) in pairs {
            match key {
                EffectKey::Effected => entity = self.entity(value),
                EffectKey::Resource
                | EffectKey::Acquire
                | EffectKey::Dispel
                | EffectKey::Extend => {
                    if let Some((first, first_form)) = what {
                        self.error(
                            Diagnostic::error(
                                value.span,
                                format!(
                                    "an effect changes one thing: it has `:{}` already",
                                    first.name()
                                ),
                            )
                            .with_label("a second change")
                            .with_related(first_form.span, "the first"),
                        );
                        continue;
                    }
                    what = Some((key, value));
                    target_form = Some(value);
                    target = match key {
                        EffectKey::Resource => self.resource(value),
                        _ => None,
                    };
                }
                EffectKey::Amount => amount = self.int(value),
                EffectKey::Pick => {
                    pick = keyword_in::<PickName>(
                        value,
                        format!("`:pick` is {}, found {}", pick_list(), value.describe()),
                        "not a pick",
                        None,
                        self.diags,
                    )
                }
                EffectKey::Lasts => lasts = self.int(value),
                EffectKey::Set => {
                    set_form = Some(value);
                    set = match value.kind {
                        Kind::Bool(b) => Some(b),
                        Kind::Nil => Some(false),
                        _ => {
                            self.error(
                                Diagnostic::error(
                                    value.span,
                                    format!(
                                        "`:set` is `true` or `false`, found {}",
                                        value.describe()
                                    ),
                                )
                                .with_label("expected `true` or `false`"),
                            );
                            None
                        }
                    };
                }
            }
        }
        let changes_status = matches!(what, Some((k, _)) if k != EffectKey::Resource);
        if let Some((key, value)) = what
            && changes_status
        {
            target = self.status_change(key, value, form, pick, lasts.take());
        } else {
            for (key, present) in [
                (EffectKey::Pick, form.has_key("pick")),
                (EffectKey::Lasts, form.has_key("lasts")),
            ] {
                if present {
                    self.error(
                        Diagnostic::error(
                            form.span,
                            format!(
                                "`:{}` belongs to an effect on statuses (`:acquire`, `:dispel`)",
                                key.name()
                            ),
                        )
                        .with_label("not used here"),
                    );
                }
            }
        }
        // A status change's amount has a default: the magnitude 0, one status dispelled.
        if amount.is_none() && changes_status && !form.has_key("amount") {
            amount = match what {
                Some((EffectKey::Dispel, _)) => Some(Int::Lit(1)),
                Some((EffectKey::Acquire, _)) => Some(Int::Lit(0)),
                _ => None,
            };
        }
        // A misspelled key (`:ammount`) is reported once, as unknown, not again as missing.
        for (key, missing) in [
            (
                "effected",
                !has_key(form, "effected") && !has_near_key(form, "effected"),
            ),
            (
                "resource",
                what.is_none() && !has_near_key(form, "resource"),
            ),
            (
                "amount",
                amount.is_none() && !has_key(form, "amount") && !has_near_key(form, "amount"),
            ),
        ] {
            if missing {
                let mut d = Diagnostic::error(form.span, format!("this effect has no `:{key}`"))
                    .with_label(format!("missing `:{key}`"));
                if key == "resource" {
                    d = d.with_help(
                        "say what it changes: `:resource`, or `:acquire`, `:dispel` or `:extend` for statuses",
                    );
                }
                self.error(d);
            }
        }
        if set == Some(true)
            && changes_status
            && let Some(sf) = set_form
        {
            self.error(
                Diagnostic::error(sf.span, "a change to statuses cannot be `:set`")
                    .with_label("not here"),
            );
            return None;
        }
        if set == Some(true)
            && let (Some(t), Some(tf)) = (&target, target_form)
            && let Some(op) = first_op(t)
        {
            let name = &self.scope.operations[op as usize];
            let mut d = Diagnostic::error(
                tf.span,
                format!("`:{name}` is an operation: it can be applied, not set"),
            )
            .with_label("an operation");
            if let Some(sf) = set_form {
                d = d.with_related(sf.span, "`:set true` is here");
            }
            self.error(d.with_help("remove `:set true`, or choose a stored attribute"));
            return None;
        }
        if self.diags.len() > before {
            return None;
        }
        Some(Effect {
            entity: entity?,
            resource: target?,
            amount: amount?,
            set: set?,
            at_once: 1,
            span: form.span,
        })
    }

    /// `{:spawn :tile :values {…}}`: a new entity.
    fn spawn(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "a `:spawn` effect", SpawnKey::ALL, self.diags)?;
        let (mut kind, mut values) = (None, Vec::new());
        for (key, value) in pairs {
            match key {
                SpawnKey::Spawn => kind = self.kind_named(value, "`:spawn`"),
                SpawnKey::Values => {
                    let Kind::Map(entries) = &value.kind else {
                        self.wrong_kind(value, "a map of attributes to numbers", &value.describe());
                        continue;
                    };
                    for (k, v) in entries.iter() {
                        let name = k.as_keyword().unwrap_or("");
                        let attr = self.scope.attributes.iter().position(|a| a == name);
                        if attr.is_none() {
                            self.error(self.unknown_attribute(k.span, name));
                        }
                        if let (Some(attr), Some(v)) = (attr, self.int(v)) {
                            values.push((attr as u16, v));
                        }
                    }
                }
            }
        }
        if self.diags.len() > before {
            return None;
        }
        Some(Effect {
            // Unused: the new entity is whom it touches.
            entity: Entity::Target,
            resource: Resource::Spawn(Box::new(crate::ast::Spawn {
                kind: kind?,
                values,
            })),
            amount: Int::Lit(0),
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// A kind the rule set declares, named by `value` under `key`.
    fn kind_named(&mut self, value: &Form<'a>, key: &str) -> Option<u16> {
        let message = format!(
            "{key} names one of the rule set's kinds, found {}",
            value.describe()
        );
        Declared::new(
            self.scope.kinds.iter().map(String::as_str),
            "a kind",
            "kinds",
        )
        .find(
            value.as_keyword().unwrap_or(""),
            value.span,
            message,
            self.diags,
        )
        .map(|k| k as u16)
    }

    /// `{:each :tile :where c :effects […]}`: effects for every entity of a kind.
    fn each(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "an `:each` effect", EachKey::ALL, self.diags)?;
        let outer = self.scope.roles.len() + self.scope.bound.len();
        let (mut kind, mut filter, mut effects) = (None, None, None);
        for (key, value) in pairs {
            match key {
                EachKey::Each => kind = self.kind_named(value, "`:each`"),
                EachKey::Where => filter = self.with_self(|cx| cx.boolean(value)),
                EachKey::Effects => effects = self.with_self(|cx| cx.effect_list(value)),
            }
        }
        if !form.has_key(EachKey::Effects.name()) {
            self.error(
                Diagnostic::error(form.span, "this `:each` has no `:effects`")
                    .with_label("missing `:effects`"),
            );
        }
        if outer >= usize::from(u8::MAX) || self.diags.len() > before {
            return None;
        }
        Some(Effect {
            // Unused: the nested effects say whom they touch.
            entity: Entity::Target,
            resource: Resource::Each(Box::new(crate::ast::Each {
                kind: Some(kind?),
                filter,
                effects: effects?,
                outer: outer as u8,
            })),
            amount: Int::Lit(0),
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// `{:queue :turns :effected :you :count 3 :kind :classic}` or
    /// `{:queue :timed :after 3 :run :bomb :effected :target}`: a change to the turn queue.
    #[inline(never)]
    fn queue(&mut self, form: &Form<'a>) -> Option<Effect> {
        use crate::ast::QueueOp;
        let before = self.diags.len();
        let pairs = fields(form, "a `:queue` effect", QueueKey::ALL, self.diags)?;
        let find = |key: QueueKey| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        let what = find(QueueKey::Queue)?;
        let (allowed, missing): (&[QueueKey], &[QueueKey]) = match what.as_keyword() {
            Some("turns") => (
                &[
                    QueueKey::Queue,
                    QueueKey::Effected,
                    QueueKey::Count,
                    QueueKey::Kind,
                ],
                &[QueueKey::Count],
            ),
            Some("timed") => (
                &[
                    QueueKey::Queue,
                    QueueKey::Effected,
                    QueueKey::After,
                    QueueKey::Run,
                ],
                &[QueueKey::After, QueueKey::Run],
            ),
            _ => {
                self.error(
                    Diagnostic::error(
                        what.span,
                        format!("`:queue` is `:turns` or `:timed`, found {}", what.describe()),
                    )
                    .with_help("`{:queue :turns :effected :you :count 3}` adds turns at the front; `{:queue :timed :after 3 :run :bomb :effected :target}` runs timing `:bomb` after 3 reorders"),
                );
                return None;
            }
        };
        for (key, v) in &pairs {
            if !allowed.contains(key) {
                self.error(
                    Diagnostic::error(
                        v.span,
                        format!("`:queue {what}` takes no `:{}`", key.name()),
                    )
                    .with_label("remove this"),
                );
            }
        }
        for key in missing {
            if find(*key).is_none() {
                self.error(
                    Diagnostic::error(
                        form.span,
                        format!("this `:queue {what}` has no `:{}`", key.name()),
                    )
                    .with_label(format!("missing `:{}`", key.name())),
                );
            }
        }
        if self.diags.len() > before {
            return None;
        }
        let timed = what.as_keyword() == Some("timed");
        let amount = self.int(find(if timed {
            QueueKey::After
        } else {
            QueueKey::Count
        })?);
        let entity = match find(QueueKey::Effected) {
            Some(v) => self.entity(v),
            None => Some(Entity::Role(0)),
        };
        let op = if timed {
            QueueOp::Timed(self.run_timing(find(QueueKey::Run)?)?)
        } else {
            let kind = match find(QueueKey::Kind) {
                Some(v) => self.turn_kind(v),
                None => Some(0),
            };
            QueueOp::Turns(kind?)
        };
        if self.diags.len() > before {
            return None;
        }
        Some(Effect {
            entity: entity?,
            resource: Resource::Queue(Box::new(op)),
            amount: amount?,
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// A turn kind the rule set declares, named by `value`.
    fn turn_kind(&mut self, value: &Form<'a>) -> Option<u8> {
        let message = format!(
            "`:kind` names one of the rule set's turn kinds, found {}",
            value.describe()
        );
        Declared::new(
            self.scope.turn_kinds.iter().map(String::as_str),
            "a turn kind",
            "turn kinds",
        )
        .find(
            value.as_keyword().unwrap_or(""),
            value.span,
            message,
            self.diags,
        )
        .map(|k| k as u8)
    }

    /// `{:run :skill-start :effected :target}`: a timing's hooks run now.
    /// Out of line, as the rarer effect forms are, to keep `effect`'s frame small.
    #[inline(never)]
    fn run(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "a `:run` effect", RunKey::ALL, self.diags)?;
        let (mut timing, mut entity) = (None, None);
        for (key, value) in pairs {
            match key {
                RunKey::Run => timing = self.run_timing(value),
                RunKey::Effected => entity = self.entity(value).map(|e| (e, value.span)),
            }
        }
        if let (Some(t), Some((_, span))) = (timing, &entity)
            && self.scope.timings[t as usize].each.is_some()
        {
            let each = self.scope.timings[t as usize].each.unwrap_or(0);
            self.error(
                Diagnostic::error(
                    *span,
                    format!(
                        "`:{}` runs for each `:{}` in play, so it takes no `:effected`",
                        self.scope.timings[t as usize].name,
                        self.scope
                            .kinds
                            .get(usize::from(each))
                            .map_or("", String::as_str)
                    ),
                )
                .with_label("remove this"),
            );
        }
        if self.diags.len() > before {
            return None;
        }
        Some(Effect {
            entity: entity.map_or(Entity::Role(0), |(e, _)| e),
            resource: Resource::Run(timing?),
            amount: Int::Lit(0),
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// The timing a `{:run …}` names: declared, and at the moment `:run`.
    fn run_timing(&mut self, value: &Form<'a>) -> Option<u16> {
        let message = format!("`:run` names a timing, found {}", value.describe());
        let t = Declared::new(
            self.scope.timings.iter().map(|t| t.name.as_str()),
            "a timing",
            "timings",
        )
        .find(
            value.as_keyword().unwrap_or(""),
            value.span,
            message,
            self.diags,
        )?;
        let timing = &self.scope.timings[t];
        if timing.at != RUN {
            self.error(
                Diagnostic::error(
                    value.span,
                    format!(
                        "`:{}` runs at `:{}` by itself; an effect can run only timings at `:run`",
                        timing.name, timing.at
                    ),
                )
                .with_label("not a `:run` timing")
                .with_help("declare a timing for effects to run: `{:at :run}`"),
            );
            return None;
        }
        Some(t as u16)
    }

    /// `{:when c :effects […]}`: effects that run only when a condition holds.
    fn when(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "a `:when` effect", WhenKey::ALL, self.diags)?;
        let (mut filter, mut effects) = (None, None);
        for (key, value) in pairs {
            match key {
                WhenKey::When => filter = self.boolean(value),
                WhenKey::Effects => effects = self::effects(value, self.scope, self.diags),
            }
        }
        if !form.has_key(WhenKey::Effects.name()) {
            self.error(
                Diagnostic::error(form.span, "this `:when` has no `:effects`")
                    .with_label("missing `:effects`"),
            );
        }
        if self.diags.len() > before {
            return None;
        }
        Some(Effect {
            // Unused: the nested effects say whom they touch.
            entity: Entity::Target,
            resource: Resource::Each(Box::new(crate::ast::Each {
                kind: None,
                filter: Some(filter?),
                effects: effects?,
                outer: 0,
            })),
            amount: Int::Lit(0),
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// `:acquire :weakness`, `:dispel FILTER` or `:extend FILTER` as a resource.
    fn status_change(
        &mut self,
        key: EffectKey,
        value: &Form<'a>,
        form: &Form<'a>,
        pick: Option<PickName>,
        lasts: Option<Int>,
    ) -> Option<Resource> {
        if key != EffectKey::Dispel && form.has_key("pick") {
            self.error(
                Diagnostic::error(form.span, "`:pick` belongs to `:dispel`")
                    .with_label("not used here"),
            );
        }
        if key != EffectKey::Acquire && form.has_key("lasts") {
            self.error(
                Diagnostic::error(form.span, "`:lasts` belongs to `:acquire`")
                    .with_label("not used here"),
            );
        }
        let op = match key {
            EffectKey::Acquire => StatusOp::Acquire {
                status: self.status_name(value)?,
                lasts,
            },
            EffectKey::Dispel => StatusOp::Dispel {
                filter: filter(value, self.scope, self.diags)?,
                pick: match pick.unwrap_or(PickName::Random) {
                    PickName::Random => Pick::Random,
                    PickName::Oldest => Pick::Oldest,
                    PickName::Newest => Pick::Newest,
                    PickName::MostLeft => Pick::MostLeft,
                    PickName::LeastLeft => Pick::LeastLeft,
                    PickName::All => Pick::All,
                },
            },
            _ => StatusOp::Extend {
                filter: filter(value, self.scope, self.diags)?,
            },
        };
        Some(Resource::Status(Box::new(op)))
    }

    /// A status named by a keyword.
    fn status_name(&mut self, value: &Form<'a>) -> Option<u16> {
        let statuses = self.scope.statuses;
        Declared::new(statuses.iter().map(String::as_str), "a status", "statuses")
            .when_empty(
                "no statuses are defined for this rule set: write `{:status :id …}` in its definitions files"
                    .to_string(),
            )
            .find(
                value.as_keyword().unwrap_or(""),
                value.span,
                format!("`:acquire` names a status, found {}", value.describe()),
                self.diags,
            )
            .map(|i| i as u16)
    }

    /// The keywords of a filter, every one to hold.
    fn filter_of(&mut self, items: &[Form<'a>], span: Span) -> Option<Filter> {
        let mut f = Filter::default();
        let mut ok = true;
        for item in items {
            if let Kind::Set(members) = &item.kind {
                // `#{:heal :block-healing}`: any one of these categories.
                if f.categories != 0 {
                    self.error(
                        Diagnostic::error(
                            item.span,
                            "a filter names one category, or one set of them, at most",
                        )
                        .with_label("a second of its sort"),
                    );
                }
                let declared = Declared::new(
                    self.scope.categories.iter().map(String::as_str),
                    "a category",
                    "categories",
                )
                .when_empty("declare categories first: `:categories {:fire \"…\"}`".to_string());
                for member in members.iter() {
                    let message = format!(
                        "a set in a filter holds categories, found {}",
                        member.describe()
                    );
                    let name = member.as_keyword().unwrap_or("");
                    match declared.find(name, member.span, message, self.diags) {
                        Some(i) => f.categories |= crate::ast::category_bit(i as u16),
                        None => ok = false,
                    }
                }
                if members.is_empty() {
                    self.error(
                        Diagnostic::error(item.span, "an empty set of categories matches nothing")
                            .with_label("empty"),
                    );
                    ok = false;
                }
                continue;
            }
            let Some(name) = item.as_keyword() else {
                self.wrong_kind(
                    item,
                    "a status, category, flag, `:buff` or `:debuff`",
                    &item.describe(),
                );
                ok = false;
                continue;
            };
            let pos = |names: &[String]| names.iter().position(|n| n == name).map(|i| i as u16);
            let twice = |slot: bool, cx: &mut Self| {
                if slot {
                    cx.error(
                        Diagnostic::error(
                            item.span,
                            "a filter names one status, one category, one flag and one polarity at most",
                        )
                        .with_label("a second of its sort"),
                    );
                }
            };
            if name == ANY && items.len() == 1 {
                continue;
            } else if let Some(p) = Polarity::find(name) {
                twice(f.polarity.is_some(), self);
                f.polarity = Some(p);
            } else if let Some(i) = pos(self.scope.statuses) {
                twice(f.status.is_some(), self);
                f.status = Some(i);
            } else if let Some(i) = pos(self.scope.categories) {
                twice(f.categories != 0, self);
                f.categories = crate::ast::category_bit(i);
            } else if let Some(i) = pos(self.scope.flags) {
                twice(f.flag.is_some(), self);
                f.flag = Some(i);
            } else {
                let names = self
                    .scope
                    .statuses
                    .iter()
                    .chain(self.scope.categories)
                    .chain(self.scope.flags)
                    .map(String::as_str)
                    .chain(["buff", "debuff", ANY]);
                self.error(
                    Diagnostic::error(
                        item.span,
                        format!("`:{name}` is not a status, category, flag or polarity"),
                    )
                    .with_label("matches nothing")
                    .suggest(name, names, |s| format!(":{s}"))
                    .with_help_if_none(
                        "a filter keyword names a status, a category (`:categories`), a flag (`:flags`), `:buff`, `:debuff` or `:any`",
                    ),
                );
                ok = false;
            }
        }
        if items.is_empty() {
            self.error(
                Diagnostic::error(span, "an empty filter: write `:any` to match every status")
                    .with_label("empty"),
            );
            ok = false;
        }
        ok.then_some(f)
    }

    /// `[statuses who filter…]`, `[turns-left …]`, `[has …]`: who, and the filter.
    fn status_query(&mut self, call: &Call<'_, 'a>) -> Option<(Box<Entity>, Filter)> {
        let Some((who, rest)) = call.args.split_first() else {
            self.arity(call, "a role first, then filter keywords");
            return None;
        };
        let who = self.entity(who);
        let f = if rest.is_empty() {
            Some(Filter::default())
        } else {
            self.filter_of(rest, call.span)
        };
        Some((Box::new(who?), f?))
    }

    /// Reads `[op args...]`, or reports why the vector is not a call.
    fn call<'f>(&mut self, form: &'f Form<'a>, items: &'f [Form<'a>]) -> Option<Call<'f, 'a>> {
        let head = items.first()?;
        let name = head.as_symbol()?;
        match ops::find(name) {
            Some(op) => Some(Call {
                op,
                head,
                args: &items[1..],
                span: form.span,
            }),
            None => {
                let alias = ops::alias(name).map(|a| format!("did you mean `{a}`?"));
                self.error(
                    Diagnostic::error(head.span, format!("unknown operator `{name}`"))
                        .with_label("not an operator")
                        .with_help(alias.unwrap_or_default())
                        .drop_empty_help()
                        .suggest_if_none(name, ops::names(), str::to_string)
                        .with_help_if_none(format!(
                            "the operators are {}",
                            ops::names().collect::<Vec<_>>().join(" ")
                        )),
                );
                None
            }
        }
    }

    /// `[op p1 p2 then else]` and `[if c then else]`: the condition and both branches' forms.
    fn choice_parts<'f>(
        &mut self,
        call: &Call<'f, 'a>,
    ) -> Option<Option<(Bool, &'f Form<'a>, &'f Form<'a>)>> {
        match (call.op.kind, call.args) {
            (OpKind::Compare(_) | OpKind::And | OpKind::Or, [a, b, then, other]) => {
                let cond = self.predicate(call, a, b)?;
                Some(Some((cond, then, other)))
            }
            (OpKind::If, [c, then, other]) => {
                let cond = self.boolean(c)?;
                Some(Some((cond, then, other)))
            }
            (OpKind::If, _) => {
                self.arity(call, "3 operands: `[if condition then else]`");
                None
            }
            _ => Some(None),
        }
    }

    fn predicate(&mut self, call: &Call<'_, 'a>, a: &Form<'a>, b: &Form<'a>) -> Option<Bool> {
        match call.op.kind {
            OpKind::Compare(cmp @ (crate::ast::Cmp::Eq | crate::ast::Cmp::Ne))
                if self.names_entity(a) && self.names_entity(b) =>
            {
                self.same_entities(cmp == crate::ast::Cmp::Eq, a, b)
            }
            OpKind::Compare(cmp) => {
                let (x, y) = (self.num(a), self.num(b));
                match (x?, y?) {
                    (Num::Int(x), Num::Int(y)) => Some(match (x, y) {
                        (Int::Attr(Entity::Role(r), a), Int::Lit(n)) => Bool::AttrCmp(cmp, r, a, n),
                        (x, y) => Bool::CmpInt(cmp, Box::new(x), Box::new(y)),
                    }),
                    (x, y) => Some(Bool::CmpDec(
                        cmp,
                        Box::new(x.into_dec()),
                        Box::new(y.into_dec()),
                    )),
                }
            }
            OpKind::And | OpKind::Or => {
                let (x, y) = (self.boolean(a), self.boolean(b));
                let (x, y) = (Box::new(x?), Box::new(y?));
                Some(if call.op.kind == OpKind::And {
                    Bool::And(x, y)
                } else {
                    Bool::Or(x, y)
                })
            }
            _ => None,
        }
    }

    /// `[= :holder :you]` (or `not=` when `!equal`): out of line, as `predicate` recurses.
    #[inline(never)]
    fn same_entities(&mut self, equal: bool, a: &Form<'a>, b: &Form<'a>) -> Option<Bool> {
        let same = Bool::Same(Box::new(self.entity(a)?), Box::new(self.entity(b)?));
        Some(if equal {
            same
        } else {
            Bool::Not(Box::new(same))
        })
    }

    /// Whether `form` is a bare name bound to an entity here (a role, `:self`,
    /// `:holder`, `:target` in an operation): `[= :holder :you]` compares entities.
    fn names_entity(&self, form: &Form<'a>) -> bool {
        form.as_keyword().is_some_and(|k| {
            self.scope.roles.iter().any(|r| r == k)
                || self.scope.bound.contains(&k)
                || (k == TARGET && self.scope.in_operation)
        })
    }

    fn arity(&mut self, call: &Call<'_, 'a>, wants: &str) {
        self.error(
            Diagnostic::error(
                call.span,
                format!(
                    "`{}` takes {wants}; found {} operand{}",
                    call.op.name,
                    call.args.len(),
                    if call.args.len() == 1 { "" } else { "s" }
                ),
            )
            .with_label(format!("wrong number of operands for `{}`", call.op.name))
            .with_help(format!("write {}", shapes(call.op))),
        );
    }

    /// Simple logic where only a choice makes sense (roles, resources): the
    /// condition, and both branches lowered by `lower`.
    fn choice<T>(
        &mut self,
        form: &Form<'a>,
        items: &[Form<'a>],
        what: &str,
        lower: fn(&mut Self, &Form<'a>) -> Option<T>,
        make: fn(Box<Bool>, Box<T>, Box<T>) -> T,
    ) -> Option<T> {
        let call = self.call(form, items)?;
        match self.choice_parts(&call)? {
            Some((cond, then, other)) => {
                let (t, e) = (lower(self, then), lower(self, other));
                Some(make(Box::new(cond), Box::new(t?), Box::new(e?)))
            }
            None => {
                self.wrong_kind(form, what, &format!("a `{}` expression", call.op.name));
                None
            }
        }
    }

    fn wrong_kind(&mut self, form: &Form<'a>, expected: &str, found: &str) {
        self.error(
            Diagnostic::error(form.span, format!("expected {expected}, found {found}"))
                .with_label(format!("expected {expected}")),
        );
    }

    fn num(&mut self, form: &Form<'a>) -> Option<Num> {
        match &form.kind {
            Kind::Int(n) => Some(Num::Int(Int::Lit(*n))),
            Kind::Dec(d) => Some(Num::Dec(Dec::Lit(*d))),
            Kind::Keyword(k) if self.scope.args.iter().any(|a| a == k) => {
                let i = self.scope.args.iter().position(|a| a == k).unwrap_or(0);
                Some(Num::Int(Int::Arg(i as u8)))
            }
            Kind::Keyword(k) if self.scope.params.iter().any(|(p, _)| p == k) => {
                let value = self
                    .scope
                    .params
                    .iter()
                    .find(|(p, _)| p == k)
                    .map_or(0, |(_, v)| *v);
                Some(Num::Int(Int::Lit(value)))
            }
            Kind::Keyword(k) if *k == AMOUNT && self.scope.in_operation => {
                Some(Num::Int(Int::Amount))
            }
            Kind::Keyword(k) if self.scope.card_values.iter().any(|(v, _)| v == k) => {
                Some(card_value(self.scope.card_values, k))
            }
            Kind::Keyword(k) if *k == MAGNITUDE && self.scope.in_status => {
                Some(Num::Int(Int::Magnitude))
            }
            Kind::Keyword(k) => {
                let mut d = Diagnostic::error(
                    form.span,
                    format!("expected a number, found the keyword `:{k}`"),
                )
                .with_label("expected a number");
                if *k == AMOUNT {
                    d = d.with_help("`:amount` names an operation's amount and is only bound inside an operation");
                } else if *k == MAGNITUDE {
                    d = d.with_help("`:magnitude` names a status's magnitude and is only bound in the status's effects");
                } else if self.scope.attributes.iter().any(|a| a == k) {
                    let whose: Vec<String> = self
                        .scope
                        .roles
                        .iter()
                        .map(|e| format!("`[:{e} :{k}]`"))
                        .collect();
                    d = d.with_help(format!("say whose: {}", list(whose)));
                } else {
                    let names = self.scope.params.iter().map(|(p, _)| p.as_str());
                    let args = self.scope.args.iter().map(String::as_str);
                    d = d.suggest(k, names.chain(args), |s| format!(":{s}"));
                }
                self.error(d);
                None
            }
            Kind::Vector(items)
                if matches!(
                    items.first().map(|f| &f.kind),
                    Some(Kind::Keyword(_) | Kind::Vector(_))
                ) =>
            {
                self.smart_value(form, items).map(Num::Int)
            }
            Kind::Symbol(s) if crate::dice::looks_like(s) => self.dice(form, s).map(Num::Int),
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => {
                let call = self.call(form, items)?;
                if let Some((cond, then, other)) = self.choice_parts(&call)? {
                    let (t, e) = (self.num(then), self.num(other));
                    return Some(match (t?, e?) {
                        (Num::Int(t), Num::Int(e)) => Num::Int(match (cond, t, e) {
                            (Bool::AttrCmp(cmp, r, a, n), Int::Lit(t), Int::Lit(e)) => {
                                Int::Pick(cmp, r, a, n, t, e)
                            }
                            (cond, t, e) => Int::If(Box::new(cond), Box::new(t), Box::new(e)),
                        }),
                        (t, e) => Num::Dec(Dec::If(
                            Box::new(cond),
                            Box::new(t.into_dec()),
                            Box::new(e.into_dec()),
                        )),
                    });
                }
                self.arith(&call)
            }
            _ => {
                self.not_a_number(form);
                None
            }
        }
    }

    /// Reports a form where a number belongs; kept out of `num` so its frame stays small.
    #[cold]
    #[inline(never)]
    fn not_a_number(&mut self, form: &Form<'a>) {
        let help = match &form.kind {
            Kind::List(_) => Some(
                "simple logic is written in square brackets: `[= [:you :wall] 0 6 3]`".to_string(),
            ),
            Kind::Symbol(sym) if format!("0{sym}").parse::<f64>().is_ok() => {
                Some(format!("write `0{sym}`"))
            }
            Kind::Str(text) if text.trim().parse::<f64>().is_ok() => Some(format!(
                "numbers are written without quotes: `{}`",
                text.trim()
            )),
            _ => None,
        };
        let mut d = Diagnostic::error(
            form.span,
            format!("expected a number, found {}", form.describe()),
        )
        .with_label("expected a number");
        if let Some(h) = help {
            d = d.with_help(h);
        }
        self.error(d);
    }

    fn arith(&mut self, call: &Call<'_, 'a>) -> Option<Num> {
        match call.op.kind {
            OpKind::Arith(op) => {
                if call.args.is_empty() {
                    self.arity(call, "at least 1 operand");
                    return None;
                }
                let nums: Vec<Option<Num>> = call.args.iter().map(|a| self.num(a)).collect();
                let nums: Vec<Num> = nums.into_iter().collect::<Option<_>>()?;
                if op == Arith::Sub && nums.len() == 1 {
                    return Some(match nums.into_iter().next()? {
                        Num::Int(i) => Num::Int(Int::Neg(Box::new(i))),
                        Num::Dec(d) => Num::Dec(Dec::Neg(Box::new(d))),
                    });
                }
                if nums.iter().all(|n| matches!(n, Num::Int(_))) {
                    let ints: Vec<Int> = nums
                        .into_iter()
                        .filter_map(|n| match n {
                            Num::Int(i) => Some(i),
                            Num::Dec(_) => None,
                        })
                        .collect();
                    if op == Arith::Add
                        && let Some(roll) = roll_with_modifier(&ints)
                    {
                        return Some(Num::Int(roll));
                    }
                    Some(Num::Int(Int::Fold(op, ints.into())))
                } else {
                    Some(Num::Dec(Dec::Fold(
                        op,
                        nums.into_iter().map(Num::into_dec).collect(),
                    )))
                }
            }
            OpKind::Div => {
                let [a, b] = call.args else {
                    self.arity(call, "2 operands");
                    return None;
                };
                let (a, b) = (self.num(a), self.num(b));
                Some(Num::Dec(Dec::Div(
                    Box::new(a?.into_dec()),
                    Box::new(b?.into_dec()),
                )))
            }
            OpKind::Round(mode) => {
                let [a] = call.args else {
                    self.arity(call, "1 operand");
                    return None;
                };
                Some(Num::Int(match self.num(a)? {
                    Num::Int(i) => i,
                    Num::Dec(d) => Int::Round(mode, Box::new(d)),
                }))
            }
            OpKind::Random => {
                let [lo, hi] = call.args else {
                    self.arity(call, "2 operands: `[random lo hi]`");
                    return None;
                };
                let (lo, hi) = (self.int(lo), self.int(hi));
                Some(Num::Int(Int::Random(Box::new(lo?), Box::new(hi?))))
            }
            OpKind::Compare(_)
            | OpKind::And
            | OpKind::Or
            | OpKind::Statuses
            | OpKind::TurnsLeft
            | OpKind::Not
            | OpKind::Chance
            | OpKind::Has => self.other_num_op(call),
            OpKind::Abs
            | OpKind::Count
            | OpKind::Sum
            | OpKind::Best(_)
            | OpKind::Lookup
            | OpKind::Choice
            | OpKind::Formula => self.rare_int_op(call).map(Num::Int),
            OpKind::If => None,
        }
    }

    /// The operators that are not arithmetic where a number is expected:
    /// status queries, and conditions written where a number belongs. Out of
    /// line: `arith` is on the checker's recursion path, and in a debug build
    /// every arm's temporaries add to its frame.
    #[inline(never)]
    fn other_num_op(&mut self, call: &Call<'_, 'a>) -> Option<Num> {
        match call.op.kind {
            OpKind::Compare(_) | OpKind::And | OpKind::Or => {
                if call.args.len() == 2 {
                    self.error(
                        Diagnostic::error(
                            call.span,
                            format!(
                                "`[{} a b]` is a condition, but a number is expected here",
                                call.op.name
                            ),
                        )
                        .with_label("a condition")
                        .with_help(format!(
                            "add the two results: `[{} a b then else]`",
                            call.op.name
                        )),
                    );
                } else {
                    self.arity(
                        call,
                        &format!(
                            "2 operands, or 4 to choose a value: `[{} a b then else]`",
                            call.op.name
                        ),
                    );
                }
                None
            }
            OpKind::Statuses => {
                let (who, f) = self.status_query(call)?;
                Some(Num::Int(Int::Statuses(who, f)))
            }
            OpKind::TurnsLeft => {
                let (who, f) = self.status_query(call)?;
                Some(Num::Int(Int::TurnsLeft(who, f)))
            }
            OpKind::Not | OpKind::Chance | OpKind::Has => {
                self.error(
                    Diagnostic::error(
                        call.span,
                        format!(
                            "`{}` gives a condition, but a number is expected here",
                            call.op.name
                        ),
                    )
                    .with_label("a condition")
                    .with_help("choose a number with `[if condition then else]`"),
                );
                None
            }
            _ => None,
        }
    }

    /// A dice token, `3d6+2`: out of line, as `num` recurses.
    #[inline(never)]
    fn dice(&mut self, form: &Form<'a>, token: &str) -> Option<Int> {
        match crate::dice::parse(token) {
            Ok(d) => Some(Int::Dice(d)),
            Err(e) => {
                let start = form.span.start as usize;
                let span = Span::new(start + e.at.start, start + e.at.end);
                self.error(
                    Diagnostic::error(span, e.message)
                        .with_label("not dice")
                        .with_help(e.help),
                );
                None
            }
        }
    }

    /// The column `[choice :field]` reads, if the field may be read here.
    /// Out of line, as the operators of `rare_int_op`.
    #[cold]
    #[inline(never)]
    fn chosen_field(&mut self, field: &Form<'_>) -> Option<Box<[i64]>> {
        let name = field.as_keyword().unwrap_or("");
        let fields: Vec<&str> = match self.scope.choosable {
            Choosable::Nothing => {
                self.diags.push(
                    Diagnostic::error(field.span, "nothing is chosen here")
                        .with_label("no option to read")
                        .with_help(
                            "`[choice :field]` reads the option chosen for an action: only an action with `:choose :set` (its conditions and effects) and the operations it applies can read it",
                        ),
                );
                return None;
            }
            Choosable::Set(_, fields) => fields.iter().map(String::as_str).collect(),
            Choosable::Any => self
                .scope
                .choice_columns
                .iter()
                .map(|(n, _)| n.as_str())
                .collect(),
        };
        let message = match (field.as_keyword(), self.scope.choosable) {
            (Some(k), Choosable::Set(set, _)) => format!("`:{set}` has no field `:{k}`"),
            (Some(k), _) => format!("no choice has a field `:{k}`"),
            (None, _) => format!(
                "`choice` names a field of the rule set's `:choices`, found {}",
                field.describe()
            ),
        };
        let label = match self.scope.choosable {
            Choosable::Set(set, _) => format!("not a field of `:{set}`"),
            _ => "not a field of any choice".to_string(),
        };
        Declared::new(fields, "a field", "fields")
            .labelled(label)
            .when_empty(String::from("declare options in the rule set: `:choices {:body-part {:options {:head {:dodge 4} :body {:dodge 0}}}}`"))
            .find(name, field.span, message, self.diags)?;
        self.scope
            .choice_columns
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, column)| column.clone())
    }

    /// `[abs a]`, `[advantage a]`, `[count kind condition]` and `[sum kind
    /// value condition]`. Out of line: the operator match is on the checker's
    /// recursion path, and its frame stays small.
    #[inline(never)]
    fn rare_int_op(&mut self, call: &Call<'_, 'a>) -> Option<Int> {
        if call.op.kind == OpKind::Formula {
            let Some((name, args)) = call.args.split_first() else {
                self.arity(call, "a formula's name first: `[formula :stamina x]`");
                return None;
            };
            let found = named_entry(
                self.scope.formulas,
                name,
                ("a formula", "formulas", call.op.name),
                "`:formulas {:stamina {:args [:index] :value [* 10 :index :index]}}`",
                self.diags,
            );
            let checked: Vec<Option<Int>> = args.iter().map(|a| self.int(a)).collect();
            let def = found?;
            if def.args.len() != args.len() {
                let n = def.args.len();
                self.error(
                    Diagnostic::error(
                        call.span,
                        format!(
                            "formula `{name}` takes {n} argument{} ({}); found {}",
                            if n == 1 { "" } else { "s" },
                            list_and(def.args.iter().map(|a| format!("`:{a}`"))),
                            args.len()
                        ),
                    )
                    .with_label("wrong number of arguments"),
                );
                return None;
            }
            let args = checked.into_iter().collect::<Option<Box<[Int]>>>()?;
            return Some(Int::Formula(Box::new(crate::ast::Formula {
                body: def.body.clone(),
                args,
            })));
        }
        if call.op.kind == OpKind::Lookup {
            let [table, x] = call.args else {
                self.arity(call, "2 operands: `[lookup :table x]`");
                return None;
            };
            let found = named_entry(
                self.scope.lookups,
                table,
                ("a lookup table", "lookup tables", call.op.name),
                "`:lookups {:damage {:ranges [[1 3 3] [4 9 5] [10 nil 10]]}}`",
                self.diags,
            );
            let x = self.int(x);
            return Some(Int::Lookup(Box::new((found?.clone(), x?))));
        }
        if call.op.kind == OpKind::Choice {
            let [field] = call.args else {
                self.arity(
                    call,
                    "1 operand: a field of the rule set's `:choices`, such as `[choice :dodge]`",
                );
                return None;
            };
            return self.chosen_field(field).map(Int::Choice);
        }
        if let OpKind::Best(higher) = call.op.kind {
            let [a] = call.args else {
                self.arity(call, "1 operand: the roll, such as `1d20`");
                return None;
            };
            return Some(Int::Best(higher, Box::new(self.int(a)?)));
        }
        if call.op.kind == OpKind::Abs {
            let [a] = call.args else {
                self.arity(call, "1 operand");
                return None;
            };
            return Some(Int::Abs(Box::new(self.int(a)?)));
        }
        let count = call.op.kind == OpKind::Count;
        let shape = if count {
            "`[count kind condition]`"
        } else {
            "`[sum kind value condition]`"
        };
        let (kind, rest) = self.over_kind(call, shape)?;
        let (value, filter) = match (count, rest) {
            (true, []) => (Some(Int::Lit(1)), None),
            (true, [c]) => (Some(Int::Lit(1)), Some(c)),
            (false, [v]) => (self.with_self(|cx| cx.int(v)), None),
            (false, [v, c]) => (self.with_self(|cx| cx.int(v)), Some(c)),
            (true, _) => {
                self.arity(call, "a kind, then at most a condition");
                return None;
            }
            (false, _) => {
                self.arity(call, "a kind, a value, then at most a condition");
                return None;
            }
        };
        let filter = match filter {
            Some(c) => Some(self.with_self(|cx| cx.boolean(c))?),
            None => None,
        };
        let outer = self.outer()?;
        let over = Box::new(Over {
            kind,
            value: value?,
            filter,
            outer,
        });
        Some(if count {
            Int::Count(over)
        } else {
            Int::Sum(over)
        })
    }

    /// The kind a `[count …]` or `[sum …]` ranges over, and the arguments after it.
    fn over_kind<'f>(
        &mut self,
        call: &'f Call<'f, 'a>,
        shape: &str,
    ) -> Option<(u16, &'f [Form<'a>])> {
        let Some((kind, rest)) = call.args.split_first() else {
            self.arity(call, &format!("a kind first: {shape}"));
            return None;
        };
        Some((self.kind_named(kind, &format!("`{}`", call.op.name))?, rest))
    }

    /// How many roles are bound here: a `:self` bound inside comes next.
    fn outer(&mut self) -> Option<u8> {
        let outer = self.scope.roles.len() + self.scope.bound.len();
        u8::try_from(outer).ok().filter(|&o| o < u8::MAX)
    }

    /// Runs `f` in this scope with `:self` bound after every role around it.
    fn with_self<R>(&mut self, f: impl FnOnce(&mut Checker<'_, '_>) -> R) -> R {
        let bound: Vec<&str> = self.scope.bound.iter().copied().chain([SELF]).collect();
        let inner = Scope {
            bound: &bound,
            ..*self.scope
        };
        f(&mut Checker {
            scope: &inner,
            diags: self.diags,
        })
    }

    fn int(&mut self, form: &Form<'a>) -> Option<Int> {
        match self.num(form)? {
            Num::Int(i) => Some(i),
            Num::Dec(_) => {
                self.error(
                    Diagnostic::error(form.span, "expected an integer, found a decimal")
                        .with_label("a decimal")
                        .with_help("make it whole with `[round …]`, `[floor …]` or `[ceil …]`"),
                );
                None
            }
        }
    }

    fn smart_value(&mut self, form: &Form<'a>, items: &[Form<'a>]) -> Option<Int> {
        let [who, what] = items else {
            self.error(
                Diagnostic::error(
                    form.span,
                    format!(
                        "a smart value has two parts, `[:you :wall]`; this has {}",
                        items.len()
                    ),
                )
                .with_label("expected `[role attribute]`"),
            );
            return None;
        };
        let entity = self.entity(who);
        let attr = match &what.kind {
            Kind::Keyword(k) => match self.scope.attributes.iter().position(|a| a == k) {
                Some(i) => Some(i as u16),
                None if self.scope.operations.iter().any(|o| o == k) => {
                    self.error(
                        Diagnostic::error(
                            what.span,
                            format!("`:{k}` is an operation, not a stored value"),
                        )
                        .with_label("cannot be read")
                        .with_help(format!(
                            "smart values read attributes: {}",
                            self.attribute_list()
                        )),
                    );
                    None
                }
                None => {
                    self.error(self.unknown_attribute(what.span, k));
                    None
                }
            },
            _ => {
                self.wrong_kind(
                    what,
                    "an attribute keyword such as `:wall`",
                    &what.describe(),
                );
                None
            }
        };
        Some(Int::Attr(entity?, attr?))
    }

    fn attribute_list(&self) -> String {
        list_and(self.scope.attributes.iter().map(|a| format!("`:{a}`")))
    }

    fn unknown_attribute(&self, span: Span, name: &str) -> Diagnostic {
        Diagnostic::error(span, format!("unknown attribute `:{name}`"))
            .with_label("not an attribute of this rule set")
            .suggest(
                name,
                self.scope.attributes.iter().map(String::as_str),
                |s| format!(":{s}"),
            )
            .with_help_if_none(if self.scope.attributes.is_empty() {
                "this rule set declares no attributes".to_string()
            } else {
                format!("the attributes are {}", self.attribute_list())
            })
    }

    fn boolean(&mut self, form: &Form<'a>) -> Option<Bool> {
        match &form.kind {
            Kind::Bool(b) => Some(Bool::Lit(*b)),
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => {
                let call = self.call(form, items)?;
                if let Some((cond, then, other)) = self.choice_parts(&call)? {
                    let (t, e) = (self.boolean(then), self.boolean(other));
                    return Some(Bool::If(Box::new(cond), Box::new(t?), Box::new(e?)));
                }
                match (call.op.kind, call.args) {
                    (OpKind::Compare(_) | OpKind::And | OpKind::Or, [a, b]) => {
                        self.predicate(&call, a, b)
                    }
                    (OpKind::Compare(_) | OpKind::And | OpKind::Or, _) => {
                        self.arity(
                            &call,
                            &format!(
                                "2 operands, or 4 to choose a value: `[{} a b then else]`",
                                call.op.name
                            ),
                        );
                        None
                    }
                    (OpKind::Not, [a]) => Some(Bool::Not(Box::new(self.boolean(a)?))),
                    (OpKind::Not, _) => {
                        self.arity(&call, "1 operand");
                        None
                    }
                    (OpKind::Chance, [p]) => Some(Bool::Chance(Box::new(self.num(p)?.into_dec()))),
                    (OpKind::Chance, _) => {
                        self.arity(&call, "1 operand: `[chance 0.5]`");
                        None
                    }
                    (OpKind::Has, _) => {
                        let (who, f) = self.status_query(&call)?;
                        Some(Bool::Has(Box::new((*who, f))))
                    }
                    _ => {
                        self.error(
                            Diagnostic::error(
                                call.head.span,
                                format!(
                                    "`{}` gives a number, but a condition is expected here",
                                    call.op.name
                                ),
                            )
                            .with_label("a number")
                            .with_help("compare it: `[> … 0]`"),
                        );
                        None
                    }
                }
            }
            _ => {
                self.wrong_kind(form, "a condition such as `[< a b]`", &form.describe());
                None
            }
        }
    }

    fn entity(&mut self, form: &Form<'a>) -> Option<Entity> {
        match &form.kind {
            Kind::Keyword(k) if *k == TARGET && self.scope.in_operation => Some(Entity::Target),
            Kind::Keyword(k) if *k == TARGET && !self.scope.bound.contains(&TARGET) => {
                self.error(
                    Diagnostic::error(
                        form.span,
                        "`:target` is only bound inside an operation's `:effects`",
                    )
                    .with_label("not bound here")
                    .with_help(format!(
                        "outside an operation, name a role: {}",
                        list(self.scope.roles.iter().map(|e| format!("`:{e}`")))
                    )),
                );
                None
            }
            // The innermost binding of a bound name wins (`:self` of a nested `:each`).
            Kind::Keyword(k) => match self
                .scope
                .bound
                .iter()
                .rposition(|e| e == k)
                .map(|i| self.scope.roles.len() + i)
                .or_else(|| self.scope.roles.iter().position(|e| e == k))
            {
                Some(i) => Some(Entity::Role(i as u8)),
                None => {
                    let mut candidates: Vec<&str> = self
                        .scope
                        .roles
                        .iter()
                        .map(String::as_str)
                        .chain(self.scope.bound.iter().copied())
                        .collect();
                    if self.scope.in_operation {
                        candidates.push(TARGET);
                    }
                    let names = list_and(candidates.iter().map(|e| format!("`:{e}`")));
                    self.error(
                        Diagnostic::error(form.span, format!("unknown role `:{k}`"))
                            .with_label("not a role of this rule set")
                            .suggest(k, candidates.iter().copied(), |s| format!(":{s}"))
                            .with_help_if_none(format!("the roles are {names}")),
                    );
                    None
                }
            },
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => self
                .choice(
                    form,
                    items,
                    "a role such as `:you`",
                    Self::entity,
                    Entity::If,
                ),
            _ => {
                self.wrong_kind(form, "a role such as `:you`", &form.describe());
                None
            }
        }
    }

    fn resource(&mut self, form: &Form<'a>) -> Option<Resource> {
        match &form.kind {
            Kind::Keyword(k) => {
                if let Some(i) = self.scope.attributes.iter().position(|a| a == k) {
                    Some(Resource::Attr(i as u16))
                } else if let Some(i) = self.scope.operations.iter().position(|o| o == k) {
                    Some(Resource::Op(i as u16))
                } else {
                    let names = self
                        .scope
                        .attributes
                        .iter()
                        .chain(self.scope.operations)
                        .map(String::as_str);
                    let d = Diagnostic::error(form.span, format!("unknown resource `:{k}`"))
                        .with_label("not a resource of this rule set")
                        .suggest(k, names, |s| format!(":{s}"))
                        .with_help_if_none(format!(
                            "the resources are {}",
                            list_and(
                                self.scope
                                    .attributes
                                    .iter()
                                    .chain(self.scope.operations)
                                    .map(|a| format!("`:{a}`"))
                            )
                        ));
                    self.error(d);
                    None
                }
            }
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => self
                .choice(
                    form,
                    items,
                    "a resource such as `:wall`",
                    Self::resource,
                    Resource::If,
                ),
            _ => {
                self.wrong_kind(form, "a resource such as `:wall`", &form.describe());
                None
            }
        }
    }
}

/// The picks, for a message.
fn pick_list() -> String {
    list(PickName::ALL.iter().map(|p| format!("`:{}`", p.name())))
}

/// The group of an `{:at-once [...]}` map.
fn at_once_group<'f, 'a>(form: &'f Form<'a>) -> Option<&'f Form<'a>> {
    form.get("at-once")
}

/// True if the map has an unknown keyword key that is a likely typo of `key`.
fn has_near_key(form: &Form<'_>, key: &str) -> bool {
    match &form.kind {
        Kind::Map(pairs) => pairs.iter().any(|(k, _)| {
            k.as_keyword().is_some_and(|name| {
                EffectKey::find(name).is_none()
                    && crate::diag::nearest(name, EffectKey::ALL.iter().map(|k| k.name()))
                        == Some(key)
            })
        }),
        _ => false,
    }
}

fn has_key(form: &Form<'_>, key: &str) -> bool {
    match &form.kind {
        Kind::Map(pairs) => pairs
            .iter()
            .any(|(k, _)| k.as_keyword() == Some(key) || k.as_symbol() == Some(key)),
        _ => false,
    }
}

/// The number card value `name` stands for. Out of line: `num` recurses.
#[inline(never)]
fn card_value(values: &[(String, crate::ast::CardValue)], name: &str) -> Num {
    match values.iter().find(|(v, _)| v == name).map(|(_, n)| *n) {
        Some(crate::ast::CardValue::Dec(d)) => Num::Dec(Dec::Lit(d)),
        Some(crate::ast::CardValue::Int(n)) => Num::Int(Int::Lit(n)),
        None => Num::Int(Int::Lit(0)),
    }
}

/// The first operation a target can choose, if any branch is one.
fn first_op(t: &Resource) -> Option<u16> {
    match t {
        Resource::Attr(_)
        | Resource::Status(_)
        | Resource::Each(_)
        | Resource::Spawn(_)
        | Resource::Run(_)
        | Resource::Queue(_) => None,
        Resource::Op(o) => Some(*o),
        Resource::If(_, a, b) => first_op(a).or_else(|| first_op(b)),
    }
}

/// `[+ 1d20 a …]`, dice first and a rest that draws no chance: one roll whose
/// modifier is the rest, so the log shows it as tabletop players say it
/// (`1d20+3: 15 (12+3)`). `None` for any other sum.
fn roll_with_modifier(ints: &[Int]) -> Option<Int> {
    let [Int::Dice(dice), rest @ ..] = ints else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    let mut draws = false;
    rest.iter()
        .for_each(|i| i.leaves(&mut |leaf| draws |= leaf == crate::ast::Leaf::Draw));
    if draws {
        return None;
    }
    let modifier = match rest {
        [one] => one.clone(),
        _ => Int::Fold(Arith::Add, rest.into()),
    };
    Some(Int::Roll(Box::new((*dice, modifier))))
}
