//! Status definitions: buffs, debuffs and their kin, written as data.
//!
//! ```clojure
//! {:status :weakness :polarity :debuff :category :decrease-power
//!  :lasts [2 :round-end] :stacking :refresh
//!  :on-acquire [{:effected :holder :resource :hp :amount -1}]
//!  :modifiers {:attack {:add -2}}}
//! ```
//!
//! This module checks a definition against its rule set: keys, polarity,
//! category, duration and the timing that counts it down, stacking policy,
//! modifiers on declared attributes, flags, and the effect lists run on
//! acquiring, at timings while active, on running out and on being removed,
//! with the roles `:holder` (the entity it is on) and `:source` (the one that
//! applied it) bound. How the engine applies statuses is the subject of
//! `docs/design/status-effects.md`.

use crate::check::ast::{
    AttrId, Block, CategoryId, Effect, FlagId, Modifier, Polarity, Stacking, StatusDef,
};
use crate::check::keys::{Keys, keys};
use crate::check::rules::{BaseId, RuleSet, TimingId};
use crate::check::{self, Declared, HOLDER, SOURCE, Scope};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

/// The roles a status's effects may use beyond the rule set's.
pub const STATUS_ROLES: &[&str] = &[HOLDER, SOURCE];

/// The most a status may last, in counts of its timing.
pub const MAX_LASTS: i64 = 1000;
/// The most stacks `[:stack N]` may allow.
pub const MAX_STACKS: i64 = 255;

keys! {
    /// The keys of a status definition.
    pub enum StatusKey {
        /// `:status :weakness`: its id.
        Status = "status",
        /// `:text`: what players read.
        Text = "text",
        /// `:polarity`: `:buff` or `:debuff`.
        Polarity = "polarity",
        /// `:category`: one of the rule set's `:categories`.
        Category = "category",
        /// `:base :OutgoingDamage`: one of the rule set's `:bases`, what its output is computed from.
        Base = "base",
        /// `:lasts [2 :round-end]`: how many times a timing passes before it runs out.
        Lasts = "lasts",
        /// `:stacking`: what acquiring it again does.
        Stacking = "stacking",
        /// `:on-acquire`: effects run once when it is acquired; they stay after it ends.
        OnAcquire = "on-acquire",
        /// `:modifiers {:attack {:add 3}}`: changes to attributes while active.
        Modifiers = "modifiers",
        /// `:flags [:power]`: flags of the rule set it sets while active.
        Flags = "flags",
        /// `:blocks {:filter :debuff}`: statuses its holder cannot acquire while it is active.
        Blocks = "blocks",
        /// `:hooks {:round-end […]}`: effects run at timings while active.
        Hooks = "hooks",
        /// `:on-expire`: effects run when it runs out.
        OnExpire = "on-expire",
        /// `:on-remove`: effects run when it is dispelled or cleansed.
        OnRemove = "on-remove",
        /// `:segments [[…] […]]`: a different effect list each time its `:lasts` timing passes.
        Segments = "segments",
        /// `:removed-when condition`: it leaves its holder as soon as this holds.
        RemovedWhen = "removed-when",
        /// `:turns [:fast-combat]`: turns its holder has in the base queue while it is active.
        Turns = "turns",
        /// `:invisible true`: left out of what a player is shown (seed 002's `EFFECT_INVISIBLE`).
        Invisible = "invisible",
    }
}

impl Keys for Polarity {
    const ALL: &'static [Polarity] = &[Polarity::Buff, Polarity::Debuff];
    fn name(self) -> &'static str {
        match self {
            Polarity::Buff => "buff",
            Polarity::Debuff => "debuff",
        }
    }
}

keys! {
    /// The stacking policies written as a keyword.
    pub enum StackingName {
        /// Acquiring it again resets its turns left (seed 001's same-type rule).
        Refresh = "refresh",
        /// Every acquisition is an instance of its own.
        Independent = "independent",
        /// `[:stack N]`: up to N stacks on one instance.
        Stack = "stack",
    }
}

keys! {
    /// The keys of one attribute's modifier.
    pub enum ModKey {
        /// `:add N`: added to the attribute's value.
        Add = "add",
        /// `:mul X`: the sum is multiplied by it.
        Mul = "mul",
    }
}

keys! {
    /// The keys of a status's `:blocks`.
    pub enum BlockKey {
        /// `:filter [:debuff]`: which statuses it blocks (a keyword or a vector of them).
        Filter = "filter",
        /// `:chance 0.5`: the chance each is blocked.
        Chance = "chance",
        /// `:charges 3`: how many it blocks before it ends.
        Charges = "charges",
        /// `:reflect true`: a blocked status goes to its source instead.
        Reflect = "reflect",
    }
}

/// Checks the body of a `{:status :id …}` map (the id and text are the caller's).
pub fn check(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<StatusDef> {
    let before = diags.len();
    let pairs = check::fields(form, "a status", StatusKey::ALL, diags)?;
    let scope = Scope {
        bound: STATUS_ROLES,
        in_status: true,
        ..rules.scope()
    };
    let mut def = StatusDef::default();
    let effects = |v: &Form<'_>, diags: &mut Vec<Diagnostic>| {
        check::effects(v, &scope, diags).unwrap_or_default()
    };
    for (key, v) in pairs {
        match key {
            // Read by the caller, which owns names and texts of every definition.
            StatusKey::Status | StatusKey::Text => {}
            StatusKey::Polarity => {
                def.polarity = keyword_of::<Polarity>(
                    v,
                    "`:polarity`",
                    "`:buff` or `:debuff`",
                    "not a polarity",
                    diags,
                )
                .unwrap_or(Polarity::Buff)
            }
            StatusKey::Category => def.category = category(v, rules, diags),
            StatusKey::Base => def.base = base(v, rules, diags),
            StatusKey::Lasts => def.lasts = lasts(v, rules, diags),
            StatusKey::Stacking => def.stacking = stacking(v, diags).unwrap_or(Stacking::Refresh),
            StatusKey::OnAcquire => def.on_acquire = effects(v, diags),
            StatusKey::Modifiers => {
                // Modifiers are worked out whenever a value is, outside any
                // turn: only the holder, the source and the magnitude are bound.
                let scope = Scope {
                    roles: &[],
                    ..scope
                };
                def.modifiers = modifiers(v, rules, &scope, diags)
            }
            StatusKey::RemovedWhen => {
                // Checked after every change, outside any turn, as modifiers are.
                let scope = Scope {
                    roles: &[],
                    ..scope
                };
                def.removed_when = check::condition(v, &scope, diags).filter(|c| {
                    // Checked after every change: chance there would make the
                    // generator's stream depend on how often that is.
                    let mut draws = false;
                    c.leaves(&mut |leaf| draws |= leaf == crate::check::ast::Leaf::Draw);
                    if draws {
                        diags.push(
                            Diagnostic::new(Code::ChanceNotAllowed, v.span, "`:removed-when` cannot draw chance")
                                .with_label("draws from the generator")
                                .with_help("it is checked after every change; roll in an effect and keep the result in an attribute"),
                        );
                    }
                    !draws
                })
            }
            StatusKey::Segments => def.segments = segments(v, &scope, diags),
            StatusKey::Turns => {
                def.turns =
                    crate::check::rules::turn_kinds::turn_list(v, rules, diags).unwrap_or_default()
            }
            StatusKey::Invisible => {
                def.invisible =
                    check::fields::flag(v, StatusKey::Invisible.name(), diags).unwrap_or(false)
            }
            StatusKey::Flags => def.flags = flags(v, rules, diags),
            StatusKey::Blocks => def.blocks = blocks(v, &scope, diags),
            StatusKey::Hooks => def.hooks = hooks(v, rules, &scope, diags),
            StatusKey::OnExpire => def.on_expire = effects(v, diags),
            StatusKey::OnRemove => def.on_remove = effects(v, diags),
        }
    }
    if !form.has_key(StatusKey::Polarity.name()) {
        diags.push(
            Diagnostic::new(Code::MissingKey, form.span, "a status needs `:polarity`")
                .with_label("missing `:polarity`")
                .with_help("write `:polarity :buff` or `:polarity :debuff`"),
        );
    }
    if let Some(v) = form.get(StatusKey::Segments.name()) {
        segments_fit(v, form.has_key(StatusKey::Lasts.name()), &def, rules, diags);
    }
    if let (Some(v), true) = (form.get(StatusKey::Base.name()), diags.len() == before) {
        base_fits(v, &def, rules, diags);
    }
    bounded_work(form, &def, rules, diags);
    (diags.len() == before).then_some(def)
}

/// Each effect list of a status does at most the work a card's may.
fn bounded_work(form: &Form<'_>, def: &StatusDef, rules: &RuleSet, diags: &mut Vec<Diagnostic>) {
    for (key, list) in def.effect_lists() {
        let n = rules.expansion_of(list);
        if n > crate::check::rules::MAX_LIST_EXPANSION {
            let span = form.get(key).map_or(form.span, |v| v.span);
            diags.push(
                Diagnostic::new(
                    Code::ExpandsTooFar,
                    span,
                    format!(
                        "this status's `:{}` can do {n} units of work (changes, dice, `advantage`s, loops over entities); at most {}",
                        key,
                        crate::check::rules::MAX_LIST_EXPANSION
                    ),
                )
                .with_label("does too much"),
            );
        }
    }
}

/// `[[…] […] […]]`: one effect list per segment.
fn segments(v: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Vec<Vec<Effect>> {
    let Kind::Vector(items) = &v.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                v.span,
                format!(
                    "`:segments` is a vector of effect lists, one per segment, found {}",
                    v.describe()
                ),
            )
            .with_label("expected `[[…] […]]`"),
        );
        return Vec::new();
    };
    items
        .iter()
        .map(|item| check::effects(item, scope, diags).unwrap_or_default())
        .collect()
}

/// Segments run at the timing of `:lasts`, one a time: a status needs one,
/// and no more segments than the times it lasts, or the last ones never run.
fn segments_fit(
    v: &Form<'_>,
    form_has_lasts: bool,
    def: &StatusDef,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) {
    let Kind::Vector(items) = &v.kind else {
        return;
    };
    match def.lasts {
        // A `:lasts` written but wrong has its own error.
        None if form_has_lasts => {}
        None => diags.push(
            Diagnostic::new(Code::Segments, v.span, "`:segments` needs `:lasts`")
                .with_label("segments with no timing to run at")
                .with_help(
                    "segment i runs the i-th time the timing of `:lasts` passes: write `:lasts [3 :round-end]`",
                ),
        ),
        Some((n, timing)) if items.len() > n as usize => {
            let timing = rules.timings.get(timing).map_or("?", |t| t.name.as_str());
            diags.push(
                Diagnostic::new(
                    Code::Segments,
                    items[n as usize].span,
                    format!(
                        "{} segments, but the status lasts {n} `:{timing}`: segment {} never runs",
                        items.len(),
                        n + 1
                    ),
                )
                .with_label("never runs")
                .with_help(format!("make it last {} or drop the last segments", items.len())),
            )
        }
        Some(_) => {}
    }
}

/// A keyword naming one of `K`, or a located error: `what` is `shapes`, labelled `label`.
fn keyword_of<K: Keys>(
    v: &Form<'_>,
    what: &str,
    shapes: &str,
    label: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<K> {
    let message = format!("{what} is {shapes}, found {}", v.describe());
    check::keyword_in(v, message, label, None, diags)
}

fn category(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<CategoryId> {
    let name = v.as_keyword().unwrap_or("");
    Declared::new(
        rules.categories.iter().map(String::as_str),
        "a category",
        "categories",
        Code::UnknownCategory,
    )
    .when_empty(format!(
        "declare it in the rule set: `:categories {{:{name} \"…\"}}`"
    ))
    .find(
        name,
        v.span,
        format!(
            "`:category` names one of the rule set's categories, found {}",
            v.describe()
        ),
        diags,
    )
    .map(CategoryId::new)
}

fn base(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<BaseId> {
    let name = v.as_keyword().unwrap_or("");
    Declared::new(
        rules.bases.iter().map(|b| b.name.as_str()),
        "a base",
        "bases",
        Code::UnknownBase,
    )
    .when_empty(format!(
        "declare it in the rule set: `:bases {{:{name} {{:doc \"…\" :attributes [...]}}}}`"
    ))
    .find(
        name,
        v.span,
        format!(
            "`:base` names one of the rule set's bases, found {}",
            v.describe()
        ),
        diags,
    )
    .map(BaseId::new)
}

/// Every attribute a status's effects read or change, its modifiers' and
/// blocks' included: what its output can be computed from.
fn attributes_used(def: &StatusDef) -> Vec<AttrId> {
    use crate::check::ast::{Leaf, Resource};
    fn effect(e: &Effect, out: &mut Vec<AttrId>) {
        e.leaves(&mut |leaf| {
            if let Leaf::Attr(_, a) = leaf {
                out.push(a);
            }
        });
        resource(&e.resource, out);
    }
    fn resource(r: &Resource, out: &mut Vec<AttrId>) {
        match r {
            Resource::Attr(a) => out.push(*a),
            Resource::If(_, a, b) => {
                resource(a, out);
                resource(b, out);
            }
            // `Effect::leaves` walked the nested effects' reads; their changes are here.
            Resource::Each(each) => each.effects.iter().for_each(|e| resource(&e.resource, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (_, list) in def.effect_lists() {
        list.iter().for_each(|e| effect(e, &mut out));
    }
    for m in &def.modifiers {
        out.push(m.attr);
        if let Some(add) = &m.add {
            add.leaves(&mut |leaf| {
                if let Leaf::Attr(_, a) = leaf {
                    out.push(a);
                }
            });
        }
    }
    out
}

/// A status's `:base` against its effects: they read or change one of its
/// base's attributes (where it has any), and no attribute that holds only
/// other bases.
fn base_fits(v: &Form<'_>, def: &StatusDef, rules: &RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(base) = def.base.and_then(|b| rules.bases.get(b)) else {
        return;
    };
    let used = attributes_used(def);
    let name = |a: AttrId| {
        rules
            .attributes
            .get(a)
            .map_or("?".to_string(), |n| format!("`:{n}`"))
    };
    if !base.attributes.is_empty() && !base.attributes.iter().any(|a| used.contains(a)) {
        diags.push(
            Diagnostic::new(
                Code::BaseDisagrees,
                v.span,
                format!(
                    "the status is based on `{}`, but its effects never read or change {}",
                    base.name,
                    check::list(base.attributes.iter().map(|&a| name(a)))
                ),
            )
            .with_label("its output is not computed from this")
            .with_help("compute its output from its base, or name the base it is computed from"),
        );
        return;
    }
    let other = used.iter().find_map(|a| {
        if base.attributes.contains(a) {
            return None;
        }
        rules
            .bases
            .iter()
            .find(|b| b.attributes.contains(a))
            .map(|b| (*a, b))
    });
    if let Some((attr, holder)) = other {
        diags.push(
            Diagnostic::new(
                Code::BaseDisagrees,
                v.span,
                format!(
                    "the status is based on `{}`, but its effects use {}, which holds `{}`",
                    base.name,
                    name(attr),
                    holder.name
                ),
            )
            .with_label("another base")
            .with_help(format!(
                "if its output is computed from `{}`, say `:base :{}`",
                holder.name, holder.name
            )),
        );
    }
}

/// `[2 :round-end]`: a count and the declared timing that counts it down.
fn lasts(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<(u32, TimingId)> {
    let shape = || {
        Diagnostic::new(
            Code::WrongType,
            v.span,
            format!(
                "`:lasts` is a count and a timing, such as `[2 :round-end]`; found {}",
                v.describe()
            ),
        )
        .with_label("expected `[N :timing]`")
    };
    let Kind::Vector(items) = &v.kind else {
        diags.push(shape());
        return None;
    };
    let [count, timing] = &items[..] else {
        diags.push(shape());
        return None;
    };
    let count = match count.kind {
        Kind::Int(n) if (1..=MAX_LASTS).contains(&n) => Some(n as u32),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::whole_number(count),
                    count.span,
                    format!(
                        "a status lasts a whole number of times from 1 to {MAX_LASTS}, found {}",
                        count.describe()
                    ),
                )
                .with_label("out of range"),
            );
            None
        }
    };
    let timing = timing_named(timing, rules, diags);
    Some((count?, timing?))
}

/// A declared timing, or a located error that suggests the nearest.
fn timing_named(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<TimingId> {
    rules.declared_timing(v.as_keyword().unwrap_or(""), v, v.span, diags)
}

/// `:refresh`, `:independent` or `[:stack N]`.
fn stacking(v: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<Stacking> {
    if let Kind::Vector(items) = &v.kind
        && let [head, n] = &items[..]
        && head.as_keyword() == Some(StackingName::Stack.name())
    {
        return match n.kind {
            Kind::Int(k) if (1..=MAX_STACKS).contains(&k) => Some(Stacking::Stack(k as u8)),
            _ => {
                diags.push(
                    Diagnostic::new(
                        Code::whole_number(n),
                        n.span,
                        format!(
                            "a status stacks from 1 to {MAX_STACKS} times, found {}",
                            n.describe()
                        ),
                    )
                    .with_label("out of range"),
                );
                None
            }
        };
    }
    let shapes = "`:refresh`, `:independent` or `[:stack N]`";
    match keyword_of::<StackingName>(v, "`:stacking`", shapes, "not a stacking policy", diags)? {
        StackingName::Refresh => Some(Stacking::Refresh),
        StackingName::Independent => Some(Stacking::Independent),
        StackingName::Stack => {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    v.span,
                    "`:stack` says how many: `[:stack 3]`",
                )
                .with_label("how many?"),
            );
            None
        }
    }
}

/// `{:attack {:add 3} :speed {:mul 0.5}}`.
fn modifiers(
    v: &Form<'_>,
    rules: &RuleSet,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Modifier> {
    let Kind::Map(pairs) = &v.kind else {
        diags.push(
            Diagnostic::new(Code::NotAMap, v.span, format!("`:modifiers` is a map from attributes, such as `{{:attack {{:add 3}}}}`; found {}", v.describe()))
                .with_label("expected a map"),
        );
        return Vec::new();
    };
    let attributes = Declared::new(
        rules.attributes.iter().map(String::as_str),
        "an attribute",
        "attributes",
        Code::UnknownAttribute,
    );
    let mut out = Vec::new();
    for (k, body) in pairs.iter() {
        let name = k.as_keyword().unwrap_or("");
        let message = format!("a modifier changes an attribute, found {}", k.describe());
        let Some(attr) = attributes.find(name, k.span, message, diags) else {
            continue;
        };
        let attr = AttrId::new(attr);
        let Some(parts) = check::fields(body, "a modifier", ModKey::ALL, diags) else {
            continue;
        };
        let mut m = Modifier {
            attr,
            add: None,
            mul: None,
        };
        for (key, value) in parts {
            match key {
                ModKey::Add => m.add = check::integer(value, scope, diags),
                ModKey::Mul => m.mul = check::decimal(value, scope, diags),
            }
        }
        if m.add.is_none()
            && m.mul.is_none()
            && !body.has_key(ModKey::Add.name())
            && !body.has_key(ModKey::Mul.name())
        {
            diags.push(
                Diagnostic::new(
                    Code::EmptyModifier,
                    body.span,
                    "this modifier changes nothing",
                )
                .with_help("write `{:add N}`, `{:mul X}` or both"),
            );
        }
        out.push(m);
    }
    out
}

/// `[:power :no-move-attack]`: flags the rule set declares.
fn flags(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Vec<FlagId> {
    let Kind::Vector(items) = &v.kind else {
        diags.push(Diagnostic::new(
            Code::WrongType,
            v.span,
            format!("`:flags` is a vector of keywords, found {}", v.describe()),
        ));
        return Vec::new();
    };
    let declared = Declared::new(
        rules.flags.iter().map(String::as_str),
        "a flag",
        "flags",
        Code::UnknownFlag,
    )
    .when_empty("declare it in the rule set: `:flags {:my-flag \"…\"}`".to_string());
    items
        .iter()
        .filter_map(|item| {
            let message = format!(
                "a status sets flags the rule set declares, found {}",
                item.describe()
            );
            declared
                .find(item.as_keyword().unwrap_or(""), item.span, message, diags)
                .map(FlagId::new)
        })
        .collect()
}

/// `{:filter :debuff :chance 0.5 :charges 3 :reflect true}`.
fn blocks(v: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Block> {
    let parts = check::fields(v, "a block", BlockKey::ALL, diags)?;
    let mut block = Block {
        filter: Default::default(),
        chance: None,
        charges: None,
        reflect: false,
    };
    for (key, value) in parts {
        match key {
            BlockKey::Filter => block.filter = check::filter(value, scope, diags)?,
            BlockKey::Chance => block.chance = check::decimal(value, scope, diags),
            BlockKey::Charges => match value.kind {
                Kind::Int(n) if (1..=i64::from(u16::MAX)).contains(&n) => {
                    block.charges = Some(n as u16)
                }
                _ => diags.push(
                    Diagnostic::new(
                        Code::whole_number(value),
                        value.span,
                        format!(
                            "`:charges` is a whole number from 1 to {}, found {}",
                            u16::MAX,
                            value.describe()
                        ),
                    )
                    .with_label("out of range"),
                ),
            },
            BlockKey::Reflect => match value.kind {
                Kind::Bool(b) => block.reflect = b,
                _ => diags.push(Diagnostic::new(
                    Code::WrongType,
                    value.span,
                    format!(
                        "`:reflect` is `true` or `false`, found {}",
                        value.describe()
                    ),
                )),
            },
        }
    }
    Some(block)
}

/// `{:round-end […]}`: effects at declared timings.
fn hooks(
    v: &Form<'_>,
    rules: &RuleSet,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(TimingId, Vec<Effect>)> {
    let Kind::Map(pairs) = &v.kind else {
        diags.push(Diagnostic::new(
            Code::NotAMap,
            v.span,
            format!(
                "`:hooks` is a map from timings to effects, found {}",
                v.describe()
            ),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, body) in pairs.iter() {
        let effects = check::effects(body, scope, diags);
        if let (Some(timing), Some(effects)) = (timing_named(k, rules, diags), effects) {
            out.push((timing, effects));
        }
    }
    out
}
