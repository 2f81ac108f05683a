//! `:setup {:hero {:kind :unit :values {:team 1}}}`: the entities every game
//! (and every `eval`) starts with after the seats, each with a name, a kind and
//! the values that differ from the defaults. A board's starting pieces.
//!
//! An entry named after a seat gives that seat's values (`:p1 {:values {:team 1}}`).
//! An entry with `:for {:x [0 4] :y [0 4]}` is one entity for every
//! combination of those values, named after them (`cell-0-0` … `cell-4-4`),
//! the first attribute varying slowest: a board's cells in one line.

use super::{RuleSet, keyword_map, kind_named};
use crate::check::ast::AttrId;
use crate::check::keys::{Keys, keys};
use crate::check::{self, Declared};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind, Span};

use super::KindId;

/// The most entities one `:for` entry may make.
pub const MAX_FOR: usize = 10_000;

keys! {
    /// The keys of one entity of `:setup`.
    pub enum SetupKey {
        /// `:kind :unit`: its kind (the first kind without it).
        Kind = "kind",
        /// `:values {:team 1}`: its values that differ from the defaults.
        Values = "values",
        /// `:for {:x [0 4] :y [0 4]}`: one entity for every combination of these ranges.
        For = "for",
    }
}

/// An entity every game starts with.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Its name, for people, `eval --set` and scenarios.
    pub name: String,
    /// Its kind.
    pub kind: KindId,
    /// Values that differ from the attributes' defaults.
    pub values: Vec<(AttrId, i64)>,
    /// Values drawn as each game is set up, from the game's generator
    /// (`:values {:health [42 46]}`): the attribute, lowest and highest.
    pub drawn: Vec<(AttrId, i64, i64)>,
    /// The seat whose values these are, for an entry named after a seat: no new entity.
    pub seat: Option<usize>,
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let mut out = Vec::new();
    read_into(value, "`:setup`", true, rules, &mut out, diags);
    rules.setup = out;
}

keys! {
    /// The keys of one of `:encounters`.
    pub enum EncounterKey {
        /// `:doc "…"`: what it is.
        Doc = "doc",
        /// `:setup {:jaw-worm {:kind :worm :values {:health [42 46]}}}`: the entities it adds, as `:setup` writes them.
        Setup = "setup",
    }
}

/// One of the fights a rule set offers (`:encounters`): the entities a game
/// of it adds after the `:setup` ones.
#[derive(Clone, Debug)]
pub struct Encounter {
    /// Its name (`jaw-worm`).
    pub name: String,
    /// What it is, for people.
    pub doc: String,
    /// Its entities, as `:setup` writes them.
    pub setup: Vec<Setup>,
}

/// `:encounters {:jaw-worm {:doc "…" :setup {…}}}`: each fight's entities.
pub(super) fn encounters(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let mut out: Vec<Encounter> = Vec::new();
    for (name, (span, body)) in keyword_map(value, "`:encounters`", diags) {
        if out.iter().any(|e| e.name == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("encounter `:{name}` is declared twice"),
            ));
            continue;
        }
        let mut encounter = Encounter {
            name: name.to_string(),
            doc: String::new(),
            setup: Vec::new(),
        };
        for (key, v) in
            check::fields(body, "an encounter", EncounterKey::ALL, diags).unwrap_or_default()
        {
            match key {
                EncounterKey::Doc => encounter.doc = super::string(v, diags).unwrap_or_default(),
                EncounterKey::Setup => read_into(
                    v,
                    "an encounter's `:setup`",
                    false,
                    rules,
                    &mut encounter.setup,
                    diags,
                ),
            }
        }
        out.push(encounter);
    }
    if out.is_empty() && matches!(value.kind, Kind::Map(_)) {
        diags.push(
            Diagnostic::new(
                Code::EmptyDeclaration,
                value.span,
                "`:encounters` declares no encounter",
            )
            .with_help("`:encounters {:one-worm {:setup {:worm {:kind :worm}}}}`, or leave it out"),
        );
    }
    rules.encounters = out;
}

/// Reads setup entries into `out`; `seats` says whether an entry may be
/// named after a seat (the rule set's own `:setup`) or not (an encounter's).
fn read_into(
    value: &Form<'_>,
    what: &str,
    seats: bool,
    rules: &RuleSet,
    out: &mut Vec<Setup>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, (span, body)) in keyword_map(value, what, diags) {
        let seat = rules.seats.iter().position(|n| n == name);
        if seat.is_some() && !seats {
            diags.push(
                Diagnostic::new(
                    Code::SeatSetup,
                    span,
                    format!("`:{name}` is a seat: an encounter adds enemies, not seats"),
                )
                .with_help("give a seat's values in the rule set's own `:setup`"),
            );
            continue;
        }
        let taken = rules.roles.iter().any(|n| n == name)
            || rules.setup.iter().chain(out.iter()).any(|s| s.name == name);
        if taken {
            diags.push(
                Diagnostic::new(
                    Code::Duplicate,
                    span,
                    format!("`:{name}` already names a role or entity"),
                )
                .with_label("named again"),
            );
            continue;
        }
        let mut entity = Setup {
            name: name.to_string(),
            kind: KindId::FIRST,
            values: Vec::new(),
            drawn: Vec::new(),
            seat,
        };
        let mut ranges: Vec<(AttrId, Vec<i64>)> = Vec::new();
        for (key, v) in check::fields(body, "an entity", SetupKey::ALL, diags).unwrap_or_default() {
            match key {
                SetupKey::Kind if seat.is_some() => diags.push(
                    Diagnostic::new(
                        Code::SeatSetup,
                        v.span,
                        format!("`:{name}` is a seat: its kind is the first"),
                    )
                    .with_label("a seat's kind cannot change"),
                ),
                SetupKey::Kind => {
                    if let Some(k) = kind_named(rules, v, "kind", diags) {
                        entity.kind = k;
                    }
                }
                SetupKey::Values => {
                    for (a, n) in values(v, rules, diags) {
                        if let Kind::Vector(_) = n.kind {
                            entity.drawn.extend(drawn(rules, a, n, diags));
                            continue;
                        }
                        match whole(rules, a, n, diags) {
                            Some(x) => entity.values.push((a, x)),
                            None => continue,
                        }
                    }
                }
                SetupKey::For if seat.is_some() => diags.push(
                    Diagnostic::new(
                        Code::SeatSetup,
                        v.span,
                        format!("`:{name}` is a seat: it is one entity"),
                    )
                    .with_label("not for a seat"),
                ),
                SetupKey::For => {
                    for (a, n) in values(v, rules, diags) {
                        if let Some(range) = range(rules, a, n, diags) {
                            ranges.push((a, range));
                        }
                    }
                    let count = ranges
                        .iter()
                        .try_fold(1usize, |n, (_, r)| n.checked_mul(r.len()))
                        .unwrap_or(usize::MAX);
                    if count > MAX_FOR {
                        diags.push(
                            Diagnostic::new(
                                Code::TooMany,
                                v.span,
                                format!("`:for` makes {count} entities; at most {MAX_FOR}"),
                            )
                            .with_label("too many"),
                        );
                        ranges.clear();
                    }
                }
            }
        }
        if ranges.is_empty() {
            out.push(entity);
        } else {
            expand(&entity, &ranges, out);
        }
    }
}

/// One entity for each combination of `ranges`, the first varying slowest.
fn expand(entity: &Setup, ranges: &[(AttrId, Vec<i64>)], out: &mut Vec<Setup>) {
    let mut at = vec![0usize; ranges.len()];
    loop {
        let mut one = entity.clone();
        for (&(attr, ref values), &i) in ranges.iter().zip(&at) {
            one.values.retain(|&(a, _)| a != attr);
            one.values.push((attr, values[i]));
            one.name.push_str(&format!("-{}", values[i]));
        }
        out.push(one);
        // The next combination: the last range turns fastest.
        let mut k = ranges.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            at[k] += 1;
            if at[k] < ranges[k].1.len() {
                break;
            }
            at[k] = 0;
        }
    }
}

/// The attribute-to-form pairs of `:values` or `:for`, unknown attributes reported.
fn values<'f, 'a>(
    v: &'f Form<'a>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(AttrId, &'f Form<'a>)> {
    let mut out = Vec::new();
    for (attr, (aspan, n)) in keyword_map(v, "`:values`", diags) {
        let message = format!("unknown attribute `:{attr}`");
        if let Some(a) = Declared::new(
            rules.attributes.iter().map(String::as_str),
            "an attribute",
            "attributes",
            Code::UnknownAttribute,
        )
        .find(attr, aspan, message, diags)
        {
            out.push((AttrId::new(a), n));
        }
    }
    out
}

/// A value of attribute `a` within its bounds.
fn whole(rules: &RuleSet, a: AttrId, n: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    let (min, max) = rules.bounds[a];
    match n.kind {
        Kind::Int(x) if (min..=max).contains(&x) => Some(x),
        _ => {
            out_of_bounds(rules, a, n.span, &n.describe(), diags);
            None
        }
    }
}

fn out_of_bounds(rules: &RuleSet, a: AttrId, span: Span, found: &str, diags: &mut Vec<Diagnostic>) {
    let (min, max) = rules.bounds[a];
    diags.push(Diagnostic::new(
        Code::OutOfBounds,
        span,
        format!(
            "`:{}` is a whole number from {min} to {max}, found {found}",
            rules.attributes[a]
        ),
    ));
}

/// `:values {:health [42 46]}`: a value drawn from `lo` to `hi` as each game
/// is set up, both within the attribute's bounds.
fn drawn(
    rules: &RuleSet,
    a: AttrId,
    n: &Form<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(AttrId, i64, i64)> {
    let Kind::Vector(items) = &n.kind else {
        return None;
    };
    let [lo, hi] = &items[..] else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                n.span,
                "a value drawn at setup is a range of two numbers, `[lo hi]`",
            )
            .with_label("expected `[lo hi]`"),
        );
        return None;
    };
    let (lo, hi) = (whole(rules, a, lo, diags)?, whole(rules, a, hi, diags)?);
    if lo > hi {
        diags.push(
            Diagnostic::new(
                Code::ForRange,
                n.span,
                format!("the range `[{lo} {hi}]` is empty"),
            )
            .with_label(format!("from {lo} to {hi}")),
        );
        return None;
    }
    Some((a, lo, hi))
}

/// `[lo hi]`: every value from `lo` to `hi`, both within the attribute's bounds.
fn range(
    rules: &RuleSet,
    a: AttrId,
    n: &Form<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<i64>> {
    let Kind::Vector(items) = &n.kind else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                n.span,
                format!(
                    "`:for` gives each attribute a range `[lo hi]`, found {}",
                    n.describe()
                ),
            )
            .with_help("write `:for {:x [0 4]}` for x = 0, 1, 2, 3, 4"),
        );
        return None;
    };
    let [lo, hi] = &items[..] else {
        diags.push(
            Diagnostic::new(Code::WrongType, n.span, "a range is two numbers, `[lo hi]`")
                .with_label("expected `[lo hi]`"),
        );
        return None;
    };
    let (lo, hi) = (whole(rules, a, lo, diags)?, whole(rules, a, hi, diags)?);
    if lo > hi || hi.saturating_sub(lo) >= MAX_FOR as i64 {
        diags.push(
            Diagnostic::new(
                Code::ForRange,
                n.span,
                format!("the range `[{lo} {hi}]` is empty or too long"),
            )
            .with_label(format!("from {lo} to {hi}")),
        );
        return None;
    }
    Some((lo..=hi).collect())
}
