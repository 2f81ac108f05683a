//! Effect lists and effect maps: `{:at-once […]}` groups, and the effects that
//! change an attribute, apply an operation, or acquire, dispel or extend statuses.

use super::keys::{Keys, keys};
use super::{
    Checker, Declared, EachKey, QueueKey, RunKey, SpawnKey, WhenKey, fields_among, filter,
    keyword_in, list,
};
use crate::check::ast::{Effect, Entity, Int, MAX_AT_ONCE, Pick, Resource, StatusOp};
use crate::diag::{Code, Diagnostic};
use crate::ids::{OpId, StatusId};
use crate::syntax::{Form, Kind};

/// The key of an `{:at-once […]}` group.
const AT_ONCE: &str = "at-once";

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
        /// `:kind :minion`: the kind of card it is (with `:zones`).
        Kind = "kind",
        /// `:values {:attack 4}`: its attributes' starting values (with `:zones`).
        Values = "values",
        /// `:to :board`: the zone it is played into, where it stays (with `:zones`).
        To = "to",
        /// `:token true`: never in the deck, only ever made by an effect (with `:zones`).
        Token = "token",
        /// `:triggers [{:on :dies …}]`: what it does when something happens,
        /// while it is in play (with `:zones`).
        Triggers = "triggers",
        /// `:on-draw […]`: effects run when it is drawn (with `:zones`).
        OnDraw = "on-draw",
        /// `:on-discard […]`: effects run when it is discarded (with `:zones`).
        OnDiscard = "on-discard",
        /// `:on-leave […]`: effects run when it leaves play (with `:zones`).
        OnLeave = "on-leave",
        /// `:keywords [:taunt]`: the rule set's keywords it has while in play (with `:zones`).
        Keywords = "keywords",
        /// `:auras [{:each [:board :you] :status :rallied}]`: statuses it gives
        /// while in play (with `:zones`).
        Auras = "auras",
        /// `:targets {:victim {:from [:board :other]}}`: what its effects aim at (with `:zones`).
        Targets = "targets",
        /// `:playable-when {:when c :reason "…"}`: when it may be played (with `:zones`).
        PlayableWhen = "playable-when",
        /// `:forced-when {:when c :do :play :reason "…"}`: when it must be played or discarded (with `:zones`).
        ForcedWhen = "forced-when",
        /// `:choose :mode`: it is played with one option of that set of `:choices` (with `:zones`).
        Choose = "choose",
        /// `:reaction {:on :played :where …}`: it is played out of turn, in
        /// the window another seat's card opens (with `:zones`).
        Reaction = "reaction",
        /// `:abilities {:ping {:cost 1 :effects […]}}`: what its controller
        /// may do with it on their turn while it is in play (with `:zones`).
        Abilities = "abilities",
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

impl<'a> Checker<'_, '_> {
    /// A vector of effect maps and `:at-once` groups, or one map.
    pub(super) fn effect_list(&mut self, form: &Form<'a>) -> Option<Vec<Effect>> {
        match &form.kind {
            Kind::Vector(items) if items.len() > MAX_EFFECTS => {
                self.error(
                    Diagnostic::new(
                        Code::TooMany,
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
            // One `{:at-once […]}` group alone is a list of its effects.
            Kind::Map(_) => match at_once_group(form) {
                Some(group) => {
                    let mut out = Vec::new();
                    self.at_once(form, group, &mut out).then_some(out)
                }
                None => self.effect(form).map(|e| vec![e]),
            },
            _ => {
                self.error(
                    Diagnostic::new(
                        Code::EffectsNotVector,
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
                Diagnostic::new(
                    Code::AtOnce,
                    form.span,
                    "an `:at-once` map holds only `:at-once`",
                )
                .with_help("put the effects inside: `{:at-once [{…} {…}]}`"),
            );
            return false;
        }
        let Kind::Vector(items) = &group.kind else {
            self.wrong_kind(
                Code::EffectsNotVector,
                group,
                "a vector of effect maps",
                &group.describe(),
            );
            return false;
        };
        if items.is_empty() || items.len() > MAX_AT_ONCE {
            self.error(
                Diagnostic::new(
                    Code::AtOnce,
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
                self.error(Diagnostic::new(
                    Code::AtOnce,
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

    /// One effect map: an effect of another shape, told by the key that names
    /// it, or else a change to a resource or to statuses.
    fn effect(&mut self, form: &Form<'a>) -> Option<Effect> {
        if super::cards::is_card_effect(form) {
            return self.card_effect(form);
        }
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
        self.change(form)
    }

    /// `{:effected :you :resource :wall :amount 3}`, or with `:acquire`,
    /// `:dispel` or `:extend` for `:resource`: a change to a resource or to
    /// statuses. Out of line, as the other effect forms are, to keep
    /// `effect`'s frame small.
    #[inline(never)]
    fn change(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        // The keys that make an effect map another shape, which `effect` has
        // sent elsewhere: named when a key is unknown, as one may be meant.
        let others = [
            EachKey::Each.name(),
            WhenKey::When.name(),
            SpawnKey::Spawn.name(),
            RunKey::Run.name(),
            QueueKey::Queue.name(),
            AT_ONCE,
        ];
        let pairs = fields_among(form, "an effect map", EffectKey::ALL, &others, self.diags)?;
        let Change {
            entity,
            mut target,
            mut amount,
            set,
            target_form,
            set_form,
            pick,
            mut lasts,
            what,
        } = self.change_fields(pairs);
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
                        Diagnostic::new(
                            Code::KeyNotHere,
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
        self.missing_keys(form, what.is_none(), amount.is_none());
        if set == Some(true)
            && changes_status
            && let Some(sf) = set_form
        {
            self.error(
                Diagnostic::new(
                    Code::StatusChangeSet,
                    sf.span,
                    "a change to statuses cannot be `:set`",
                )
                .with_label("not here"),
            );
            return None;
        }
        if set == Some(true)
            && let (Some(t), Some(tf)) = (&target, target_form)
            && let Some(op) = first_op(t)
        {
            let name = &self.scope.operations[op.index()];
            let mut d = Diagnostic::new(
                Code::OperationSet,
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

    /// The fields of an effect map, each checked by itself; a second key
    /// saying what changes is an error at it.
    fn change_fields<'f>(&mut self, pairs: Vec<(EffectKey, &'f Form<'a>)>) -> Change<'f, 'a> {
        let (mut entity, mut target, mut amount, mut set) = (None, None, None, Some(false));
        let mut target_form = None;
        let mut set_form = None;
        let mut pick = None;
        let mut lasts = None;
        // The key that says what changes: `:resource`, `:acquire`, `:dispel` or `:extend`.
        let mut what: Option<(EffectKey, &'f Form<'a>)> = None;
        for (key, value) in pairs {
            match key {
                EffectKey::Effected => entity = self.entity(value),
                EffectKey::Resource
                | EffectKey::Acquire
                | EffectKey::Dispel
                | EffectKey::Extend => {
                    if let Some((first, first_form)) = what {
                        self.error(
                            Diagnostic::new(
                                Code::TwoChanges,
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
                                Diagnostic::new(
                                    Code::WrongType,
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
        Change {
            entity,
            target,
            amount,
            set,
            target_form,
            set_form,
            pick,
            lasts,
            what,
        }
    }

    /// Says which of `:effected`, `:resource` and `:amount` an effect map
    /// lacks. A misspelled key (`:ammount`) is reported once, as unknown, not
    /// again as missing.
    fn missing_keys(&mut self, form: &Form<'a>, no_what: bool, no_amount: bool) {
        for (key, missing) in [
            (
                "effected",
                !has_key(form, "effected") && !has_near_key(form, "effected"),
            ),
            ("resource", no_what && !has_near_key(form, "resource")),
            (
                "amount",
                no_amount && !has_key(form, "amount") && !has_near_key(form, "amount"),
            ),
        ] {
            if missing {
                let mut d = Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    format!("this effect has no `:{key}`"),
                )
                .with_label(format!("missing `:{key}`"));
                if key == "resource" {
                    d = d.with_help(
                        "say what it changes: `:resource`, or `:acquire`, `:dispel` or `:extend` for statuses",
                    );
                }
                self.error(d);
            }
        }
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
                Diagnostic::new(Code::KeyNotHere, form.span, "`:pick` belongs to `:dispel`")
                    .with_label("not used here"),
            );
        }
        if key != EffectKey::Acquire && form.has_key("lasts") {
            self.error(
                Diagnostic::new(
                    Code::KeyNotHere,
                    form.span,
                    "`:lasts` belongs to `:acquire`",
                )
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
    fn status_name(&mut self, value: &Form<'a>) -> Option<StatusId> {
        let statuses = self.scope.statuses;
        Declared::new(statuses.iter().map(String::as_str), "a status", "statuses", Code::UnknownStatus)
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
            .map(StatusId::new)
    }
}

/// The fields of an effect map that changes a resource or statuses, each
/// read by itself, before they are checked together.
struct Change<'f, 'a> {
    entity: Option<Entity>,
    target: Option<Resource>,
    amount: Option<Int>,
    set: Option<bool>,
    target_form: Option<&'f Form<'a>>,
    set_form: Option<&'f Form<'a>>,
    pick: Option<PickName>,
    lasts: Option<Int>,
    /// The key that says what changes: `:resource`, `:acquire`, `:dispel` or `:extend`.
    what: Option<(EffectKey, &'f Form<'a>)>,
}

/// The picks, for a message.
fn pick_list() -> String {
    list(PickName::ALL.iter().map(|p| format!("`:{}`", p.name())))
}

/// The group of an `{:at-once [...]}` map.
fn at_once_group<'f, 'a>(form: &'f Form<'a>) -> Option<&'f Form<'a>> {
    form.get(AT_ONCE)
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

/// The first operation a target can choose, if any branch is one.
fn first_op(t: &Resource) -> Option<OpId> {
    match t {
        Resource::Attr(_)
        | Resource::Status(_)
        | Resource::Each(_)
        | Resource::Spawn(_)
        | Resource::Run(_)
        | Resource::Queue(_)
        | Resource::Cards(_) => None,
        Resource::Op(o) => Some(*o),
        Resource::If(_, a, b) => first_op(a).or_else(|| first_op(b)),
    }
}
