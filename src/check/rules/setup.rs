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
    /// The seat whose values these are, for an entry named after a seat: no new entity.
    pub seat: Option<usize>,
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:setup`", diags) {
        let seat = rules.seats.iter().position(|n| n == name);
        let taken =
            rules.roles.iter().any(|n| n == name) || rules.setup.iter().any(|s| s.name == name);
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
            rules.setup.push(entity);
        } else {
            expand(&entity, &ranges, rules);
        }
    }
}

/// One entity for each combination of `ranges`, the first varying slowest.
fn expand(entity: &Setup, ranges: &[(AttrId, Vec<i64>)], rules: &mut RuleSet) {
    let mut at = vec![0usize; ranges.len()];
    loop {
        let mut one = entity.clone();
        for (&(attr, ref values), &i) in ranges.iter().zip(&at) {
            one.values.retain(|&(a, _)| a != attr);
            one.values.push((attr, values[i]));
            one.name.push_str(&format!("-{}", values[i]));
        }
        rules.setup.push(one);
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
