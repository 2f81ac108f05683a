//! The effects that shape what runs rather than change a value: `{:each …}`,
//! `{:when …}`, `{:run …}` and `{:queue …}`, and `{:spawn …}`, which adds an entity.

use super::keys::{Keys, keys};
use super::{Checker, Declared, RUN, fields};
use crate::check::ast::{Effect, Entity, Int, Resource};
use crate::diag::{Code, Diagnostic};
use crate::ids::{AttrId, KindId, RoleId, TimingId, TurnKindId};
use crate::syntax::{Form, Kind};

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
        /// `:as :victim`: the name each entity is bound to, instead of `:self`,
        /// so that effects inside another loop still reach the outer one's.
        As = "as",
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

impl<'a> Checker<'_, '_> {
    /// `{:spawn :tile :values {…}}`: a new entity.
    pub(super) fn spawn(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "a `:spawn` effect", SpawnKey::ALL, self.diags)?;
        let (mut kind, mut values) = (None, Vec::new());
        for (key, value) in pairs {
            match key {
                SpawnKey::Spawn => kind = self.kind_named(value, "`:spawn`"),
                SpawnKey::Values => {
                    let Kind::Map(entries) = &value.kind else {
                        self.wrong_kind(
                            Code::NotAMap,
                            value,
                            "a map of attributes to numbers",
                            &value.describe(),
                        );
                        continue;
                    };
                    for (k, v) in entries.iter() {
                        let name = k.as_keyword().unwrap_or("");
                        let attr = self.scope.attributes.iter().position(|a| a == name);
                        if attr.is_none() {
                            self.error(self.unknown_attribute(k.span, name));
                        }
                        if let (Some(attr), Some(v)) = (attr, self.int(v)) {
                            values.push((AttrId::new(attr), v));
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
            resource: Resource::Spawn(Box::new(crate::check::ast::Spawn {
                kind: kind?,
                values,
            })),
            amount: Int::Lit(0),
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// `{:each :tile :where c :effects […]}`: effects for every entity of a kind.
    pub(super) fn each(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "an `:each` effect", EachKey::ALL, self.diags)?;
        let outer = self.scope.roles.len() + self.scope.bound.len();
        let name = match pairs.iter().find(|(k, _)| *k == EachKey::As) {
            Some((_, value)) => self.bound_name(value)?,
            None => super::SELF,
        };
        let (mut source, mut filter, mut effects) = (None, None, None);
        for (key, value) in pairs {
            match key {
                EachKey::Each => source = self.source(value, "`:each`"),
                EachKey::Where => filter = self.with_bound(name, |cx| cx.boolean(value)),
                EachKey::Effects => effects = self.with_bound(name, |cx| cx.effect_list(value)),
                EachKey::As => {}
            }
        }
        if !form.has_key(EachKey::Effects.name()) {
            self.error(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    "this `:each` has no `:effects`",
                )
                .with_label("missing `:effects`"),
            );
        }
        if outer >= usize::from(u8::MAX) || self.diags.len() > before {
            return None;
        }
        Some(Effect {
            // Unused: the nested effects say whom they touch.
            entity: Entity::Target,
            resource: Resource::Each(Box::new(crate::check::ast::Each {
                source: Some(source?),
                filter,
                effects: effects?,
                outer: RoleId::new(outer),
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
    pub(super) fn queue(&mut self, form: &Form<'a>) -> Option<Effect> {
        use crate::check::ast::QueueOp;
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
                    Diagnostic::new(
                        Code::NotOneOf,
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
                    Diagnostic::new(
                        Code::KeyNotHere,
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
                    Diagnostic::new(
                        Code::MissingKey,
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
            None => Some(Entity::Role(RoleId::FIRST)),
        };
        let op = if timed {
            QueueOp::Timed(self.run_timing(find(QueueKey::Run)?)?)
        } else {
            let kind = match find(QueueKey::Kind) {
                Some(v) => self.turn_kind(v),
                None => Some(TurnKindId::FIRST),
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
    fn turn_kind(&mut self, value: &Form<'a>) -> Option<TurnKindId> {
        let message = format!(
            "`:kind` names one of the rule set's turn kinds, found {}",
            value.describe()
        );
        Declared::new(
            self.scope.turn_kinds.iter().map(String::as_str),
            "a turn kind",
            "turn kinds",
            Code::UnknownTurnKind,
        )
        .find(
            value.as_keyword().unwrap_or(""),
            value.span,
            message,
            self.diags,
        )
        .map(TurnKindId::new)
    }

    /// `{:run :skill-start :effected :target}`: a timing's hooks run now.
    /// Out of line, as the rarer effect forms are, to keep `effect`'s frame small.
    #[inline(never)]
    pub(super) fn run(&mut self, form: &Form<'a>) -> Option<Effect> {
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
            && self.scope.timings[t.index()].each.is_some()
        {
            let each = self.scope.timings[t.index()].each.unwrap_or(KindId::FIRST);
            self.error(
                Diagnostic::new(
                    Code::KeyNotHere,
                    *span,
                    format!(
                        "`:{}` runs for each `:{}` in play, so it takes no `:effected`",
                        self.scope.timings[t.index()].name,
                        self.scope
                            .kinds
                            .get(each.index())
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
            entity: entity.map_or(Entity::Role(RoleId::FIRST), |(e, _)| e),
            resource: Resource::Run(timing?),
            amount: Int::Lit(0),
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// The timing a `{:run …}` names: declared, and at the moment `:run`.
    fn run_timing(&mut self, value: &Form<'a>) -> Option<TimingId> {
        let message = format!("`:run` names a timing, found {}", value.describe());
        let t = Declared::new(
            self.scope.timings.iter().map(|t| t.name.as_str()),
            "a timing",
            "timings",
            Code::UnknownTiming,
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
                Diagnostic::new(
                    Code::NotRunTiming,
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
        Some(TimingId::new(t))
    }

    /// `{:when c :effects […]}`: effects that run only when a condition holds.
    pub(super) fn when(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "a `:when` effect", WhenKey::ALL, self.diags)?;
        let (mut filter, mut effects) = (None, None);
        for (key, value) in pairs {
            match key {
                WhenKey::When => filter = self.boolean(value),
                WhenKey::Effects => effects = super::effects(value, self.scope, self.diags),
            }
        }
        if !form.has_key(WhenKey::Effects.name()) {
            self.error(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    "this `:when` has no `:effects`",
                )
                .with_label("missing `:effects`"),
            );
        }
        if self.diags.len() > before {
            return None;
        }
        Some(Effect {
            // Unused: the nested effects say whom they touch.
            entity: Entity::Target,
            resource: Resource::Each(Box::new(crate::check::ast::Each {
                source: None,
                filter: Some(filter?),
                effects: effects?,
                outer: RoleId::FIRST,
            })),
            amount: Int::Lit(0),
            set: false,
            at_once: 1,
            span: form.span,
        })
    }
}
