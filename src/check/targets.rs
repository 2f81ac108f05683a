//! What a card aims at and when it may be played: `:targets` (each a name
//! its effects use, chosen by its player or drawn at random from what a
//! place holds), `:playable-when` (conditions, each with the sentence a
//! refusal says) and `:forced-when` (a card that must be played, or
//! discarded, while a condition holds).

use super::keys::{Keys, keys};
use super::{Checker, Scope, fields};
use crate::check::ast::{Bool, Source};
use crate::diag::{Code, Diagnostic};
use crate::ids::RoleId;
use crate::syntax::{Form, Kind, Span};

/// One target of a card: a name its effects use for one entity.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The name, without the colon: a role in the card's effects.
    pub name: String,
    /// Where it may be found: kinds in play, piles.
    pub from: Vec<Source>,
    /// `:where`, with `:self` the candidate and the earlier targets bound.
    pub filter: Option<Bool>,
    /// The role slot `:self` is bound to in `filter`.
    pub outer: RoleId,
    /// `:pick :random`: drawn by the engine as the card resolves, not chosen.
    pub random: bool,
    /// `:optional true`: with no candidate, the card is still played, and
    /// does nothing (every opponent protected: "no effect").
    pub optional: bool,
    /// Its map.
    pub span: Span,
}

/// A condition a card is played under, and what a refusal says.
#[derive(Clone, Debug, PartialEq)]
pub struct Playable {
    /// `:when`: it must hold.
    pub when: Bool,
    /// `:reason`: the sentence a refusal says.
    pub reason: String,
}

/// `:forced-when`: while `when` holds for a card in the hand, its player may
/// only play (or discard) such a card.
#[derive(Clone, Debug, PartialEq)]
pub struct Forced {
    /// `:when`.
    pub when: Bool,
    /// `:do :discard`: it must be discarded, not played.
    pub discard: bool,
    /// `:reason`: what a refusal of anything else says.
    pub reason: String,
}

keys! {
    /// The keys of one target.
    pub enum TargetKey {
        /// `:from [:board :other]`: a kind in play, a pile, or a vector of them.
        From = "from",
        /// `:where condition`: which of them (`:self` the candidate).
        Where = "where",
        /// `:pick :chosen` (the default) or `:random`.
        Pick = "pick",
        /// `:optional true`: with nothing to aim at, the card may still be
        /// played, and does nothing.
        Optional = "optional",
    }
}

keys! {
    /// The keys of a `:playable-when` or `:forced-when` case.
    pub enum CaseKey {
        /// `:when condition`.
        When = "when",
        /// `:reason "…"`: what a refusal says.
        Reason = "reason",
        /// `:do :play` (the default) or `:discard` (`:forced-when` only).
        Do = "do",
    }
}

/// `:targets {:victim {…} …}`: a card's targets, in order, checked in
/// `scope` (a card's). `None` with diagnostics.
pub fn targets(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Target>> {
    let Kind::Map(pairs) = &form.kind else {
        diags.push(
            Diagnostic::new(
                Code::NotAMap,
                form.span,
                format!(
                    "`:targets` is a map of names to targets, found {}",
                    form.describe()
                ),
            )
            .with_label("expected `{:victim {:from [:board :other]}}`"),
        );
        return None;
    };
    let before = diags.len();
    let mut names: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (key, value) in pairs.iter() {
        let bound: Vec<&str> = scope
            .bound
            .iter()
            .copied()
            .chain(names.iter().copied())
            .collect();
        let inner = Scope {
            bound: &bound,
            ..*scope
        };
        let mut cx = Checker {
            scope: &inner,
            diags,
        };
        let Some(name) = cx.bound_name(key) else {
            continue;
        };
        if let Some(t) = target(name, value, &mut cx) {
            out.push(t);
        }
        names.push(name);
    }
    // The chosen targets first: they are asked in order as the card is
    // played, the random ones drawn as it resolves.
    if out.windows(2).any(|w| w[0].random && !w[1].random) {
        diags.push(
            Diagnostic::new(
                Code::NotOneOf,
                form.span,
                "the chosen targets come first: the random ones are drawn as the card resolves",
            )
            .with_label("a chosen target after a random one")
            .with_help("put the chosen targets first, then the `:pick :random` ones"),
        );
    }
    (diags.len() == before).then_some(out)
}

fn target(name: &str, form: &Form<'_>, cx: &mut Checker<'_, '_>) -> Option<Target> {
    let before = cx.diags.len();
    let pairs = fields(form, "a target", TargetKey::ALL, cx.diags)?;
    let outer = cx.outer()?;
    let (mut from, mut filter, mut random, mut optional) = (Vec::new(), None, false, false);
    for (key, value) in &pairs {
        match key {
            TargetKey::From => from = places(value, cx),
            TargetKey::Where => filter = cx.with_self(|cx| cx.boolean(value)),
            TargetKey::Optional => {
                optional = super::fields::flag(value, "optional", cx.diags).unwrap_or(false);
            }
            TargetKey::Pick => match value.as_keyword() {
                Some("chosen") => random = false,
                Some("random") => random = true,
                _ => cx.diags.push(
                    Diagnostic::new(
                        Code::NotOneOf,
                        value.span,
                        format!(
                            "`:pick` is `:chosen` or `:random`, found {}",
                            value.describe()
                        ),
                    )
                    .with_label("not a way to pick"),
                ),
            },
        }
    }
    if !form.has_key(TargetKey::From.name()) {
        cx.error(
            Diagnostic::new(
                Code::MissingKey,
                form.span,
                format!("target `:{name}` has no `:from`"),
            )
            .with_label("missing `:from`")
            .with_help("`{:from [:board :other]}`: where it may be found"),
        );
    }
    if cx.diags.len() > before {
        return None;
    }
    Some(Target {
        name: name.to_string(),
        from,
        filter,
        outer,
        random,
        optional,
        span: form.span,
    })
}

/// `:from`: a kind, a pile, or a vector of them (`[:hero :minion]`).
fn places(form: &Form<'_>, cx: &mut Checker<'_, '_>) -> Vec<Source> {
    let is_pile = |f: &Form<'_>| match &f.kind {
        Kind::Vector(items) => items
            .first()
            .and_then(|z| z.as_keyword())
            .is_some_and(|z| cx.scope.zones.is_some_and(|set| set.zone(z).is_some())),
        _ => false,
    };
    match &form.kind {
        Kind::Vector(items) if !is_pile(form) => items
            .iter()
            .filter_map(|item| cx.source(item, "`:from`"))
            .collect(),
        _ => cx.source(form, "`:from`").into_iter().collect(),
    }
}

/// `:playable-when {:when c :reason "…"}` (a card's; an ability's `:usable-when`, named `key`), or a vector of them.
pub fn playable(
    form: &Form<'_>,
    key: &str,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Playable> {
    cases(form, scope, diags, (false, key))
        .into_iter()
        .map(|(when, reason, _)| Playable { when, reason })
        .collect()
}

/// `:forced-when {:when c :do :discard :reason "…"}`.
pub fn forced(form: &Form<'_>, scope: &Scope<'_>, diags: &mut Vec<Diagnostic>) -> Option<Forced> {
    let mut found = cases(form, scope, diags, (true, "forced-when"));
    if found.len() > 1 {
        diags.push(Diagnostic::new(
            Code::TooMany,
            form.span,
            "`:forced-when` is one case: join conditions with `or`",
        ));
    }
    let (when, reason, discard) = found.drain(..).next()?;
    Some(Forced {
        when,
        discard,
        reason,
    })
}

/// The cases of a `:playable-when` or `:forced-when`: a map or a vector of maps.
fn cases(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
    (forced, key): (bool, &str),
) -> Vec<(Bool, String, bool)> {
    let maps: Vec<&Form<'_>> = match &form.kind {
        Kind::Vector(items) => items.iter().collect(),
        _ => vec![form],
    };
    let what = format!("`:{key}`");
    let what = what.as_str();
    let mut out = Vec::new();
    for map in maps {
        let Some(pairs) = fields(map, what, CaseKey::ALL, diags) else {
            continue;
        };
        let mut cx = Checker { scope, diags };
        let (mut when, mut reason, mut discard) = (None, None, false);
        for (key, value) in &pairs {
            match key {
                CaseKey::When => when = cx.boolean(value),
                CaseKey::Reason => match value.kind {
                    Kind::Str(s) => reason = Some(s.to_string()),
                    _ => cx.diags.push(Diagnostic::new(
                        Code::WrongType,
                        value.span,
                        format!(
                            "`:reason` is a sentence, a string; found {}",
                            value.describe()
                        ),
                    )),
                },
                CaseKey::Do if forced => match value.as_keyword() {
                    Some("play") => discard = false,
                    Some("discard") => discard = true,
                    _ => cx.diags.push(Diagnostic::new(
                        Code::NotOneOf,
                        value.span,
                        format!("`:do` is `:play` or `:discard`, found {}", value.describe()),
                    )),
                },
                CaseKey::Do => cx.diags.push(
                    Diagnostic::new(
                        Code::KeyNotHere,
                        value.span,
                        "`:do` belongs to `:forced-when`",
                    )
                    .with_label("not here"),
                ),
            }
        }
        for key in [CaseKey::When, CaseKey::Reason] {
            if !map.has_key(key.name()) {
                cx.error(
                    Diagnostic::new(
                        Code::MissingKey,
                        map.span,
                        format!("this case has no `:{}`", key.name()),
                    )
                    .with_label(format!("missing `:{}`", key.name())),
                );
            }
        }
        if let (Some(when), Some(reason)) = (when, reason) {
            out.push((when, reason, discard));
        }
    }
    out
}
