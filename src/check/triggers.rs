//! Triggered abilities: `:triggers [{:on :dies :where … :effects […]}]` on a
//! card, and the `:on-draw`, `:on-discard` and `:on-leave` shorthands. A
//! trigger names the sort of event it waits for, a condition on the event's
//! participants, and effects run with them bound by name: `:this-card` (the
//! card that has it), `:subject` (what the event is about) and `:source`
//! (whose effects made it), the rule set's roles as on its controller's turn.

use super::keys::{Keys, keys};
use super::{Checker, Scope, fields};
pub use crate::check::ast::EventField;
use crate::check::ast::{Bool, Effect, Entity, Int, Resource};
use crate::diag::{Code, Diagnostic};
use crate::ids::{AttrId, RoleId, StatusId, ZoneId};
use crate::syntax::{Form, Kind, Span};

/// The role bound to what an event is about, in a trigger.
pub const SUBJECT: &str = "subject";
/// The role bound to the entity whose effects made the event, in a trigger
/// (the status's applier is `:source` in a status's effects: the same idea).
pub const EVENT_SOURCE: &str = super::SOURCE;

/// The sorts of event a trigger waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum On {
    /// An attribute changed (`:attribute` says which, else any).
    Changed,
    /// An attribute went down (`:attribute` required): damage.
    Damaged,
    /// An attribute went up (`:attribute` required): healing.
    Healed,
    /// A status was acquired (`:status` says which, else any).
    StatusGained,
    /// A status ended.
    StatusEnded,
    /// A card entered a zone (`:zone` says which, else any).
    Enters,
    /// A card left a zone.
    Leaves,
    /// A card was drawn: it moved into the hand from the pile the hand draws from.
    Drawn,
    /// A card was discarded from the hand (by choice, by an effect, or as it overflowed).
    Discarded,
    /// A card was played, paid for, before its effects.
    Played,
    /// An entity in play fell (its kind's `:removed-when`) or was destroyed.
    Dies,
    /// An entity entered play: made by `:spawn`, or a card entering an in-play zone.
    Summoned,
    /// A card being played aims at an entity (one of its `:targets`),
    /// before its effects; the entity is the subject, the card the source.
    Targeted,
    /// A seat's turn starts; the seat is the subject.
    TurnStart,
    /// A seat's turn ends.
    TurnEnd,
}

impl On {
    /// Every sort, by its keyword, in the order the reference lists them.
    pub const ALL: &'static [(On, &'static str)] = &[
        (On::Changed, "changed"),
        (On::Damaged, "damaged"),
        (On::Healed, "healed"),
        (On::StatusGained, "status-gained"),
        (On::StatusEnded, "status-ended"),
        (On::Enters, "enters"),
        (On::Leaves, "leaves"),
        (On::Drawn, "drawn"),
        (On::Discarded, "discarded"),
        (On::Played, "played"),
        (On::Dies, "dies"),
        (On::Summoned, "summoned"),
        (On::Targeted, "targeted"),
        (On::TurnStart, "turn-start"),
        (On::TurnEnd, "turn-end"),
    ];

    /// When an event of this sort happens, and what its subject is, for people.
    pub fn doc(self) -> &'static str {
        match self {
            On::Changed => {
                "an attribute changed (`:attribute` narrows it); the subject: the entity"
            }
            On::Damaged => {
                "an attribute went down (`:attribute` says which); the subject: the entity"
            }
            On::Healed => "an attribute went up (`:attribute` says which); the subject: the entity",
            On::StatusGained => {
                "a status was acquired (`:status` narrows it); the subject: its holder"
            }
            On::StatusEnded => "a status ran out or was removed; the subject: its holder",
            On::Enters => "a card moved into a zone (`:zone` narrows it); the subject: the card",
            On::Leaves => "a card moved out of a zone (`:zone` narrows it); the subject: the card",
            On::Drawn => "a card was drawn into the hand; the subject: the card",
            On::Discarded => "a card was discarded from the hand; the subject: the card",
            On::Played => {
                "a card was played and paid for, before its effects; the subject: the card"
            }
            On::Dies => "an entity in play fell or was destroyed; the subject: it",
            On::Summoned => "an entity entered play; the subject: it",
            On::Targeted => {
                "a card being played aims at an entity; the subject: it, the source: the card"
            }
            On::TurnStart => "a seat's turn started; the subject: the seat",
            On::TurnEnd => "a seat's turn ended; the subject: the seat",
        }
    }

    /// Its keyword, without the colon.
    pub fn name(self) -> &'static str {
        On::ALL
            .iter()
            .find(|(on, _)| *on == self)
            .map_or("", |(_, name)| name)
    }
}

/// A checked trigger.
#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    /// What it waits for.
    pub on: On,
    /// `:attribute`: only changes of this attribute.
    pub attribute: Option<AttrId>,
    /// `:status`: only this status.
    pub status: Option<StatusId>,
    /// `:zone`: only cards entering or leaving this zone.
    pub zone: Option<ZoneId>,
    /// `:where`: a condition on the participants, checked as the event happens.
    pub filter: Option<Bool>,
    /// What it does.
    pub effects: Vec<Effect>,
    /// True when it waits for an event about its own card (its `:where` says
    /// `[= :subject :this-card]`, or it is an `:on-…` shorthand): it runs
    /// though its card has left play by then (a deathrattle), and it is
    /// waited for in every zone, not only in play.
    pub own: bool,
    /// `:once-per-turn true`: it runs at most once in each turn.
    pub once_per_turn: bool,
    /// `:text`: how it reads on the card ("Whenever a minion dies, +1 Attack").
    pub text: Option<String>,
    /// The trigger's map.
    pub span: Span,
}

keys! {
    /// The keys of a trigger.
    pub enum TriggerKey {
        /// `:on :dies`: the sort of event.
        On = "on",
        /// `:where condition`: on the participants, `:subject` and `:source` bound.
        Where = "where",
        /// `:effects […]`: what it does.
        Effects = "effects",
        /// `:text "…"`: how it reads.
        Text = "text",
        /// `:attribute :health`: which attribute's changes (`:changed`, `:damaged`, `:healed`).
        Attribute = "attribute",
        /// `:status :frozen`: which status (`:status-gained`, `:status-ended`).
        Status = "status",
        /// `:zone :board`: which zone (`:enters`, `:leaves`).
        Zone = "zone",
        /// `:once-per-turn true`: at most once in each turn.
        OncePerTurn = "once-per-turn",
    }
}

/// The scope of a trigger's `:where` and `:effects`: a card's scope with
/// `:subject` and `:source` bound after the rule set's roles, and `[event …]` readable.
pub fn scope<'r>(card: &Scope<'r>) -> Scope<'r> {
    Scope {
        bound: &[SUBJECT, EVENT_SOURCE],
        this_card: true,
        in_trigger: true,
        ..*card
    }
}

/// `:triggers [...]`: each trigger of a card checked in `scope` (a card's).
pub fn triggers(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Trigger>> {
    let Kind::Vector(items) = &form.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                form.span,
                format!(
                    "`:triggers` is a vector of trigger maps, found {}",
                    form.describe()
                ),
            )
            .with_label("expected `[{:on :dies :effects […]}]`"),
        );
        return None;
    };
    let inner = self::scope(scope);
    let before = diags.len();
    let out: Vec<Trigger> = items
        .iter()
        .filter_map(|t| trigger(t, &inner, diags))
        .collect();
    (diags.len() == before).then_some(out)
}

/// `:on-draw […]` and the like: effects run on the card's own event, in
/// whichever zone the card is.
pub fn shorthand(
    on: On,
    zone: Option<ZoneId>,
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Trigger> {
    let inner = self::scope(scope);
    let effects = super::effects(form, &inner, diags)?;
    let subject = RoleId::new(scope.roles.len());
    Some(Trigger {
        on,
        attribute: None,
        status: None,
        zone,
        filter: Some(Bool::Same(
            Box::new(Entity::Role(subject)),
            Box::new(Entity::ThisCard),
        )),
        effects,
        own: true,
        once_per_turn: false,
        text: Some(
            match on {
                On::Drawn => "When drawn",
                On::Discarded => "When discarded",
                _ => "When it leaves play",
            }
            .to_string(),
        ),
        span: form.span,
    })
}

fn trigger(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Trigger> {
    let before = diags.len();
    let pairs = fields(form, "a trigger", TriggerKey::ALL, diags)?;
    let mut cx = Checker { scope, diags };
    let mut t = Trigger {
        on: On::Changed,
        attribute: None,
        status: None,
        zone: None,
        filter: None,
        effects: Vec::new(),
        own: false,
        once_per_turn: false,
        text: None,
        span: form.span,
    };
    for (key, value) in &pairs {
        match key {
            TriggerKey::Effects => t.effects = cx.effect_list(value).unwrap_or_default(),
            TriggerKey::Text => t.text = text(value, cx.diags),
            TriggerKey::OncePerTurn => {
                t.once_per_turn =
                    super::fields::flag(value, "once-per-turn", cx.diags).unwrap_or(false)
            }
            TriggerKey::On
            | TriggerKey::Where
            | TriggerKey::Attribute
            | TriggerKey::Status
            | TriggerKey::Zone => cx.event_key(&mut t, *key, value)?,
        }
    }
    for (missing, what) in [
        (TriggerKey::On, "`:on`, the event it waits for"),
        (TriggerKey::Effects, "`:effects`"),
    ] {
        if !form.has_key(missing.name()) {
            cx.error(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    format!("this trigger has no {what}"),
                )
                .with_label(format!("missing `:{}`", missing.name())),
            );
        }
    }
    cx.event_fits(form, &pairs, &t);
    t.own = t
        .filter
        .as_ref()
        .is_some_and(|f| names_own(f, scope.roles.len()));
    (diags.len() == before).then_some(t)
}

impl Checker<'_, '_> {
    /// One of the keys that say which events a trigger (or a metric, which
    /// counts events as a trigger waits for them) is about, read into `t`:
    /// `:on`, `:where`, `:attribute`, `:status`, `:zone`. `None` when `:on`
    /// names no sort of event: nothing else about the map can be judged.
    pub(super) fn event_key(
        &mut self,
        t: &mut Trigger,
        key: TriggerKey,
        value: &Form<'_>,
    ) -> Option<()> {
        match key {
            TriggerKey::On => t.on = on(value, self.diags)?,
            TriggerKey::Where => t.filter = self.boolean(value),
            TriggerKey::Attribute => t.attribute = self.attribute_name(value),
            TriggerKey::Status => t.status = self.trigger_status(value),
            TriggerKey::Zone => t.zone = self.zone_name(value),
            TriggerKey::Effects | TriggerKey::Text | TriggerKey::OncePerTurn => {}
        }
        Some(())
    }

    /// The errors of an event's narrowing keys in `form` (its `pairs`), once
    /// read into `t`: a key that does not narrow its sort of event, and
    /// `:damaged`/`:healed` without the `:attribute` that goes down or up.
    pub(super) fn event_fits(
        &mut self,
        form: &Form<'_>,
        pairs: &[(TriggerKey, &Form<'_>)],
        t: &Trigger,
    ) {
        let cx = self;
        // Each filter key belongs to the sorts of event that have one.
        let fits = |key: TriggerKey| match key {
            TriggerKey::Attribute => matches!(t.on, On::Changed | On::Damaged | On::Healed),
            TriggerKey::Status => matches!(t.on, On::StatusGained | On::StatusEnded),
            TriggerKey::Zone => matches!(t.on, On::Enters | On::Leaves),
            _ => true,
        };
        for (key, value) in pairs {
            if !fits(*key) {
                cx.error(
                    Diagnostic::new(
                        Code::KeyNotHere,
                        value.span,
                        format!("`:{}` does not narrow `:on :{}`", key.name(), t.on.name()),
                    )
                    .with_label("not for this event"),
                );
            }
        }
        if matches!(t.on, On::Damaged | On::Healed)
            && t.attribute.is_none()
            && form.has_key(TriggerKey::On.name())
        {
            cx.error(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    format!(
                        "`:on :{}` needs the `:attribute` that goes down or up",
                        t.on.name()
                    ),
                )
                .with_label("missing `:attribute`")
                .with_help("`{:on :damaged :attribute :health …}`"),
            );
        }
    }
}

/// `:on :dies`: one of [`On::ALL`].
fn on(value: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<On> {
    let message = format!("`:on` names a sort of event, found {}", value.describe());
    super::Declared::new(
        On::ALL.iter().map(|(_, n)| *n),
        "a sort of event",
        "sorts of event",
        Code::NotOneOf,
    )
    .find(value.as_keyword().unwrap_or(""), value.span, message, diags)
    .map(|i| On::ALL[i].0)
}

/// Whether condition `c` requires the subject to be the trigger's own card:
/// `[= :subject :this-card]` on its own or as a side of an `and`.
fn names_own(c: &Bool, roles: usize) -> bool {
    let subject = Entity::Role(RoleId::new(roles));
    match c {
        Bool::Same(a, b) => {
            (**a == subject && **b == Entity::ThisCard)
                || (**b == subject && **a == Entity::ThisCard)
        }
        Bool::And(a, b) => names_own(a, roles) || names_own(b, roles),
        _ => false,
    }
}

/// A warning for each trigger that provably runs itself again: it has no
/// `:where` and no `:once-per-turn`, and one of its effects, run whatever
/// happens, makes an event of the sort it waits for. A bounded loop may be
/// the design, so it is a warning; the engine ends such a loop by its budget.
pub fn self_triggering(t: &Trigger, name: &str, diags: &mut Vec<Diagnostic>) {
    if t.filter.is_some() || t.once_per_turn {
        return;
    }
    if let Some(effect) = t.effects.iter().find(|e| makes(e, t)) {
        diags.push(
            Diagnostic::new(
                Code::TriggerLoops,
                t.span,
                format!("this trigger of \"{name}\" runs itself again: its own effect makes an event it waits for"),
            )
            .with_label(format!("whenever `:{}` …", t.on.name()))
            .with_related(effect.span, "this makes another such event, every time")
            .with_help("narrow it with `:where` (`[not= :subject :this-card]`), or `:once-per-turn true`; the engine stops a loop at `:budgets :trigger-runs`"),
        );
    }
}

/// Whether effect `e`, run unconditionally, always makes an event `t` waits for.
fn makes(e: &Effect, t: &Trigger) -> bool {
    let nonzero = matches!(e.amount, Int::Lit(n) if n != 0) && !e.set;
    let sign = match e.amount {
        Int::Lit(n) => n.signum(),
        _ => 0,
    };
    match (&e.resource, t.on) {
        (Resource::Attr(a), On::Changed) => nonzero && t.attribute.is_none_or(|b| b == *a),
        (Resource::Attr(a), On::Damaged) => sign < 0 && t.attribute == Some(*a),
        (Resource::Attr(a), On::Healed) => sign > 0 && t.attribute == Some(*a),
        _ => false,
    }
}

impl Checker<'_, '_> {
    /// `:attribute :health`: an attribute of the rule set.
    fn attribute_name(&mut self, form: &Form<'_>) -> Option<AttrId> {
        match self.resource(form)? {
            Resource::Attr(a) => Some(a),
            _ => {
                self.error(Diagnostic::new(
                    Code::UnknownAttribute,
                    form.span,
                    format!("`:attribute` names an attribute, found {}", form.describe()),
                ));
                None
            }
        }
    }

    /// `:status :frozen`: a status checked with the rule set.
    pub(super) fn trigger_status(&mut self, form: &Form<'_>) -> Option<StatusId> {
        let message = format!("`:status` names a status, found {}", form.describe());
        super::Declared::new(
            self.scope.statuses.iter().map(String::as_str),
            "a status",
            "statuses",
            Code::UnknownStatus,
        )
        .find(
            form.as_keyword().unwrap_or(""),
            form.span,
            message,
            self.diags,
        )
        .map(StatusId::new)
    }

    /// `:zone :board`: a zone of the rule set's `:zones`.
    fn zone_name(&mut self, form: &Form<'_>) -> Option<ZoneId> {
        let set = self.scope.zones?;
        let message = format!(
            "`:zone` names one of the rule set's zones, found {}",
            form.describe()
        );
        super::Declared::new(
            set.zones.iter().map(|z| z.name.as_str()),
            "a zone",
            "zones",
            Code::UnknownZone,
        )
        .find(
            form.as_keyword().unwrap_or(""),
            form.span,
            message,
            self.diags,
        )
        .map(ZoneId::new)
    }
}

/// A static ability: while its card is in play, every entity of `source`
/// for which `filter` holds has `status` (from the card): "your other
/// minions have +1 Attack" is an aura on `[:board :you]` whose status
/// modifies `:attack`.
#[derive(Clone, Debug, PartialEq)]
pub struct Aura {
    /// Whom it may reach: a kind in play, a pile, the cards beside one.
    pub source: crate::check::ast::Source,
    /// `:where`, with `:self` the entity and `:this-card` the card.
    pub filter: Option<Bool>,
    /// The role slot `:self` is bound to in `filter`.
    pub outer: RoleId,
    /// The status it gives.
    pub status: StatusId,
    /// `:text`: how it reads.
    pub text: Option<String>,
    /// The aura's map.
    pub span: Span,
}

keys! {
    /// The keys of an aura.
    pub enum AuraKey {
        /// `:each [:board :you]`: whom it may reach.
        Each = "each",
        /// `:where condition`: which of them (`:self` bound).
        Where = "where",
        /// `:status :rallied`: what they have while it lasts.
        Status = "status",
        /// `:text "…"`: how it reads.
        Text = "text",
    }
}

/// `:auras [...]`: a card's static abilities, checked in `scope` (a card's).
pub fn auras(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Vec<Aura>> {
    let Kind::Vector(items) = &form.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                form.span,
                format!(
                    "`:auras` is a vector of aura maps, found {}",
                    form.describe()
                ),
            )
            .with_label("expected `[{:each [:board :you] :status :rallied}]`"),
        );
        return None;
    };
    let inner = Scope {
        this_card: true,
        ..*scope
    };
    let before = diags.len();
    let out: Vec<Aura> = items
        .iter()
        .filter_map(|a| aura(a, &inner, diags))
        .collect();
    (diags.len() == before).then_some(out)
}

fn aura(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Aura> {
    let before = diags.len();
    let pairs = fields(form, "an aura", AuraKey::ALL, diags)?;
    let mut cx = Checker { scope, diags };
    let outer = cx.outer()?;
    let (mut source, mut filter, mut status, mut text) = (None, None, None, None);
    for (key, value) in &pairs {
        match key {
            AuraKey::Each => source = cx.source(value, "`:each`"),
            AuraKey::Where => filter = cx.with_self(|cx| cx.boolean(value)),
            AuraKey::Status => status = cx.trigger_status(value),
            AuraKey::Text => text = self::text(value, cx.diags),
        }
    }
    for key in [AuraKey::Each, AuraKey::Status] {
        if !form.has_key(key.name()) {
            cx.error(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    format!("this aura has no `:{}`", key.name()),
                )
                .with_label(format!("missing `:{}`", key.name())),
            );
        }
    }
    if diags.len() > before {
        return None;
    }
    Some(Aura {
        source: source?,
        filter,
        outer,
        status: status?,
        text,
        span: form.span,
    })
}

/// `:text "…"`: how an ability reads; an error for anything but a string.
fn text(value: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<String> {
    match value.kind {
        Kind::Str(s) => Some(s.to_string()),
        _ => {
            diags.push(Diagnostic::new(
                Code::WrongType,
                value.span,
                format!("`:text` is a string, found {}", value.describe()),
            ));
            None
        }
    }
}

/// `[event :amount]`: a number of the event a trigger runs for.
pub(super) fn event_field(cx: &mut Checker<'_, '_>, form: &Form<'_>) -> Option<Int> {
    if !cx.scope.in_trigger {
        cx.error(
            Diagnostic::new(
                Code::NothingChosen,
                form.span,
                "`[event …]` is read only in a trigger",
            )
            .with_label("no event here"),
        );
        return None;
    }
    match form.as_keyword() {
        Some("amount") => Some(Int::Event(EventField::Amount)),
        Some("position") => Some(Int::Event(EventField::Position)),
        _ => {
            cx.error(
                Diagnostic::new(
                    Code::UnknownField,
                    form.span,
                    format!(
                        "an event's numbers are `:amount` and `:position`, found {}",
                        form.describe()
                    ),
                )
                .with_label("not a number of an event"),
            );
            None
        }
    }
}

/// The name a trigger is known by in messages: its card's and its place.
pub fn described(card: &str, index: usize) -> String {
    format!("{card}'s trigger {}", index + 1)
}
