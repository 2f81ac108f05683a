//! `:metrics {:health-left {:doc "…" :value [:you :health]}}`: the figures
//! beyond who won that `simulate` reports for a rule set, each read once per
//! seat for every game.
//!
//! A metric is one of three measures: `:value`, an integer expression read
//! at the game's end with the roles bound as on that seat's turn; `:count`,
//! the events of one sort over the game; `:sum`, an amount added up over
//! them. Events are waited for as a card's trigger waits for them (the same
//! `:on`, `:where` and narrowing keys, read by [`crate::check::triggers`]),
//! with `:subject` and `:source` bound after the seat's roles, so
//! `[= :subject :you]` counts what happened to the seat being measured.
//!
//! A metric only watches: its expressions may not draw chance (E0236), and
//! the engine reads them on a budget of their own, so declaring one never
//! changes how a game plays.

use super::{RuleSet, keyword_map, string};
use crate::check::ast::{Int, Leaf};
use crate::check::keys::{Keys, keys};
use crate::check::triggers::{EVENT_SOURCE, On, SUBJECT, Trigger, TriggerKey};
use crate::check::{self, Checker, Scope};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Span};

/// The most metrics a rule set may declare: each is read for every seat of
/// every game and adds a column to every card's figures.
pub const MAX_METRICS: usize = 64;

keys! {
    /// The keys of a metric: `:doc` and exactly one measure.
    pub enum MetricKey {
        /// `:doc "the player's health at the end"`: what it measures, for people.
        Doc = "doc",
        /// `:value [:you :health]`: an integer read at the game's end, with the
        /// roles bound as on each seat's turn in turn.
        Value = "value",
        /// `:count {:on :played :where …}`: how many events of one sort the game
        /// had, waited for as a trigger waits (`:subject` and `:source` bound).
        Count = "count",
        /// `:sum {:on :damaged :attribute :health :where … :amount …}`: an
        /// amount added up over the game's events of one sort.
        Sum = "sum",
    }
}

keys! {
    /// The keys of the events a metric counts (`:count`) or adds up (`:sum`).
    pub enum MetricEventKey {
        /// `:on :damaged`: the sort of event, as a trigger's `:on`.
        On = "on",
        /// `:where [= :subject :you]`: which of them, `:subject` and `:source`
        /// bound, the roles as on the measured seat's turn.
        Where = "where",
        /// `:attribute :health`: which attribute's changes (`:changed`, `:damaged`, `:healed`).
        Attribute = "attribute",
        /// `:status :poison`: which status (`:status-gained`, `:status-ended`).
        Status = "status",
        /// `:zone :board`: which zone (`:enters`, `:leaves`).
        Zone = "zone",
        /// `:amount [- [event :amount]]`: what each event adds (`:sum` only).
        Amount = "amount",
    }
}

/// One declared metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// Its name (`health-left`), without the colon.
    pub name: String,
    /// What it measures, for people.
    pub doc: String,
    /// How it is measured.
    pub measure: Measure,
    /// Its name's place in the rule-set file.
    pub span: Span,
}

/// How a metric is measured, for each seat of a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    /// Read at the game's end, the roles bound as on the seat's turn.
    Value(Int),
    /// The events the trigger (its effects empty) waits for, counted.
    Count(Trigger),
    /// Each such event's amount, added up.
    Sum(Trigger, Int),
}

impl Metric {
    /// The events it watches, if it counts or adds up events.
    pub fn event(&self) -> Option<&Trigger> {
        match &self.measure {
            Measure::Value(_) => None,
            Measure::Count(t) | Measure::Sum(t, _) => Some(t),
        }
    }
}

/// The sorts of event only cards kept in `:zones` make.
fn card_event(on: On) -> bool {
    matches!(
        on,
        On::Enters | On::Leaves | On::Drawn | On::Discarded | On::Played | On::Targeted
    )
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let entries = keyword_map(value, "`:metrics`", diags);
    if entries.len() > MAX_METRICS {
        diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            format!(
                "{} metrics: a rule set declares at most {MAX_METRICS}",
                entries.len()
            ),
        ));
        return;
    }
    let mut metrics = Vec::with_capacity(entries.len());
    for (name, (span, body)) in entries {
        if let Some(metric) = metric(name, span, body, rules, diags) {
            metrics.push(metric);
        }
    }
    rules.metrics = metrics;
}

/// One metric's map, checked.
fn metric(
    name: &str,
    span: Span,
    body: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Metric> {
    let before = diags.len();
    let pairs = check::fields(body, "a metric", MetricKey::ALL, diags)?;
    let measures: Vec<&(MetricKey, &Form<'_>)> =
        pairs.iter().filter(|(k, _)| *k != MetricKey::Doc).collect();
    if let [_, second, ..] = measures.as_slice() {
        diags.push(
            Diagnostic::new(
                Code::KeyNotHere,
                second.1.span,
                format!(
                    "metric `:{name}` is measured one way; `:{}` is a second",
                    second.0.name()
                ),
            )
            .with_label("a second measure")
            .with_help(
                "keep one of `:value`, `:count` and `:sum`; declare another metric for the other",
            ),
        );
        return None;
    }
    let Some((key, form)) = measures.first() else {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                body.span,
                format!("metric `:{name}` says nothing to measure"),
            )
            .with_label("missing `:value`, `:count` or `:sum`")
            .with_help("`{:value [:you :health]}`, `{:count {:on :played}}` or `{:sum {:on :damaged :attribute :health :amount [event :amount]}}`"),
        );
        return None;
    };
    let mut doc = String::new();
    if let Some((_, d)) = pairs.iter().find(|(k, _)| *k == MetricKey::Doc) {
        doc = string(d, diags).unwrap_or_default();
    }
    let measure = match key {
        MetricKey::Value => {
            let value = check::integer(form, &rules.scope(), diags)?;
            let mut draws = false;
            value.leaves(&mut |leaf| draws |= leaf == Leaf::Draw);
            no_chance(draws, form, diags);
            Measure::Value(value)
        }
        MetricKey::Count => Measure::Count(event(form, false, rules, diags)?.0),
        MetricKey::Sum => {
            let (t, amount) = event(form, true, rules, diags)?;
            Measure::Sum(t, amount?)
        }
        MetricKey::Doc => return None,
    };
    (diags.len() == before).then(|| Metric {
        name: name.to_string(),
        doc,
        measure,
        span,
    })
}

/// An error at `form` when it `draws` from the generator: a metric read
/// mid-game would then change the game's draws.
fn no_chance(draws: bool, form: &Form<'_>, diags: &mut Vec<Diagnostic>) {
    if draws {
        diags.push(
            Diagnostic::new(
                Code::ChanceNotAllowed,
                form.span,
                "a metric cannot draw chance: it only reads the game",
            )
            .with_label("draws from the generator")
            .with_help("measure what the game rolled: keep the roll in an attribute and read that"),
        );
    }
}

/// The map of `:count` (or, with `sum`, of `:sum`): the events, as a
/// trigger's `:on`, `:where` and narrowing keys read them, and the amount
/// each adds (`Some` for `:sum`, its `None` an error already said).
#[allow(clippy::type_complexity)]
fn event(
    form: &Form<'_>,
    sum: bool,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Trigger, Option<Int>)> {
    let what = if sum {
        "a metric's `:sum`"
    } else {
        "a metric's `:count`"
    };
    let allowed: &[MetricEventKey] = if sum {
        MetricEventKey::ALL
    } else {
        &MetricEventKey::ALL[..MetricEventKey::ALL.len() - 1]
    };
    let pairs = check::fields(form, what, allowed, diags)?;
    let scope = Scope {
        bound: &[SUBJECT, EVENT_SOURCE],
        in_trigger: true,
        ..rules.scope()
    };
    let mut cx = Checker {
        scope: &scope,
        diags,
    };
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
    // The keys a trigger shares, read as a trigger reads them.
    let shared: Vec<(TriggerKey, &Form<'_>)> = pairs
        .iter()
        .filter_map(|(k, v)| Some((TriggerKey::find(k.name())?, *v)))
        .collect();
    for (key, value) in &shared {
        cx.event_key(&mut t, *key, value)?;
    }
    let mut amount = None;
    if let Some((_, v)) = pairs.iter().find(|(k, _)| *k == MetricEventKey::Amount) {
        amount = cx.int(v);
        let mut draws = false;
        if let Some(a) = &amount {
            a.leaves(&mut |leaf| draws |= leaf == Leaf::Draw);
        }
        no_chance(draws, v, cx.diags);
    }
    if let Some(filter) = &t.filter
        && let Some((_, v)) = pairs.iter().find(|(k, _)| *k == MetricEventKey::Where)
    {
        let mut draws = false;
        filter.leaves(&mut |leaf| draws |= leaf == Leaf::Draw);
        no_chance(draws, v, cx.diags);
    }
    for (key, missing) in [
        (MetricEventKey::On, "the sort of event it waits for"),
        (MetricEventKey::Amount, "what each event adds"),
    ] {
        if allowed.contains(&key) && !form.has_key(key.name()) {
            cx.diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    format!("{what} has no `:{}`, {missing}", key.name()),
                )
                .with_label(format!("missing `:{}`", key.name())),
            );
        }
    }
    cx.event_fits(form, &shared, &t);
    let zoned = rules.zones.as_ref().is_some_and(|z| !z.classic);
    if card_event(t.on)
        && !zoned
        && let Some((_, on)) = pairs.iter().find(|(k, _)| *k == MetricEventKey::On)
    {
        cx.diags.push(
            Diagnostic::new(
                Code::ZonesNeeded,
                on.span,
                format!(
                    "`:on :{}` is an event of cards kept in `:zones`; this rule set has none",
                    t.on.name()
                ),
            )
            .with_label("never happens here")
            .with_help("count what the cards change instead (`:on :changed :attribute …`), or give the rule set `:zones`"),
        );
    }
    Some((t, amount))
}
