//! `:lookups {:damage {:ranges [[1 3 3] [4 9 5] [10 nil 10]]}}`: tables that
//! map a number to a number by ranges, read by `[lookup :damage x]`.
//!
//! A table's ranges are written in order, each `[low high value]` with both
//! ends included; `nil` leaves an end open (`[10 nil 10]` is "10 and up").
//! `:values [[:novice 0] [:competent 1]]` writes one-number ranges, `[k v]`.
//! Ends may be params (`:novice`), so a table can be keyed by named levels.
//! Ranges that overlap, or leave a gap between them, are located errors: the
//! seed's "1–3 → 3, 4–9 → 5, 10+ → 10" has neither. A number outside every
//! range gives `:default` (0 if not given).

use super::{RuleSet, keyword_map, string};
use crate::check::ast::Lookup;
use crate::check::{self, keys::Keys, keys::keys};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind, Span};

keys! {
    /// The keys of one lookup table.
    pub enum LookupKey {
        /// `:doc "…"`: what it maps, for people.
        Doc = "doc",
        /// `:ranges [[1 3 3] [4 9 5] [10 nil 10]]`: `[low high value]`, in order.
        Ranges = "ranges",
        /// `:values [[1 0] [2 1]]`: `[key value]`, one-number ranges.
        Values = "values",
        /// `:default 0`: the value outside every range.
        Default = "default",
    }
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:lookups`", diags) {
        if rules.lookups.iter().any(|(n, _)| n == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("lookup table `:{name}` is declared twice"),
            ));
            continue;
        }
        if let Some(table) = table(name, span, body, rules, diags) {
            rules.lookups.push((name.to_string(), table));
        }
    }
}

fn table(
    name: &str,
    span: Span,
    body: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Lookup> {
    let pairs = check::fields(body, "a lookup table", LookupKey::ALL, diags)?;
    let before = diags.len();
    let mut table = Lookup::default();
    // Each range with the form that wrote it, for errors that point at it.
    let mut written: Vec<(i64, i64, i64, Span)> = Vec::new();
    for (key, v) in pairs {
        match key {
            LookupKey::Doc => {
                let _ = string(v, diags);
            }
            LookupKey::Default => table.default = number(v, rules, "`:default`", diags)?,
            LookupKey::Ranges | LookupKey::Values => {
                let ranges = key == LookupKey::Ranges;
                let Kind::Vector(items) = &v.kind else {
                    diags.push(Diagnostic::new(
                        Code::WrongType,
                        v.span,
                        format!(
                            "`:{}` is a vector of {}, found {}",
                            key.name(),
                            if ranges {
                                "`[low high value]`"
                            } else {
                                "`[key value]`"
                            },
                            v.describe()
                        ),
                    ));
                    continue;
                };
                for item in items.iter() {
                    if let Some((lo, hi, value)) = entry(item, ranges, rules, diags) {
                        written.push((lo, hi, value, item.span));
                    }
                }
            }
        }
    }
    if written.is_empty() && diags.len() == before {
        diags.push(
            Diagnostic::new(
                Code::EmptyDeclaration,
                span,
                format!("lookup table `:{name}` has no ranges"),
            )
            .with_help("write `:ranges [[1 3 3] [4 9 5] [10 nil 10]]` or `:values [[1 0] [2 1]]`"),
        );
    }
    if diags.len() != before {
        return None;
    }
    written.sort_by_key(|&(lo, ..)| lo);
    for pair in written.windows(2) {
        let ((_, hi, _, first), (lo, _, _, span)) = (pair[0], pair[1]);
        if lo <= hi {
            diags.push(
                Diagnostic::new(
                    Code::LookupRanges,
                    span,
                    format!("this range overlaps another of `:{name}`: {lo} is in both"),
                )
                .with_label("overlaps")
                .with_related(first, "the other range")
                .with_help("each number may be in one range only"),
            );
        } else if lo > hi.saturating_add(1) {
            diags.push(
                Diagnostic::new(
                    Code::LookupRanges,
                    span,
                    format!(
                        "`:{name}` has a gap before this range: {} has no value",
                        if lo - hi == 2 {
                            (hi + 1).to_string()
                        } else {
                            format!("{}..{}", hi + 1, lo - 1)
                        }
                    ),
                )
                .with_label("gap before")
                .with_related(first, "the range before")
                .with_help(format!(
                    "add `[{} {} VALUE]`, or widen a neighbour",
                    hi + 1,
                    lo - 1
                )),
            );
        }
    }
    table.ranges = written.iter().map(|&(lo, hi, v, _)| (lo, hi, v)).collect();
    (diags.len() == before).then_some(table)
}

/// One `[low high value]` (`ranges`) or `[key value]` entry.
fn entry(
    item: &Form<'_>,
    ranges: bool,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<(i64, i64, i64)> {
    let shape = if ranges {
        "`[low high value]`, such as `[4 9 5]` or `[10 nil 10]`"
    } else {
        "`[key value]`, such as `[:adept 2]`"
    };
    let parts = match &item.kind {
        Kind::Vector(parts) if parts.len() == if ranges { 3 } else { 2 } => parts,
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    item.span,
                    format!("expected {shape}, found {}", item.describe()),
                )
                .with_label("not an entry"),
            );
            return None;
        }
    };
    let end = |f: &Form<'_>, open: i64, diags: &mut Vec<Diagnostic>| match f.kind {
        Kind::Nil if ranges => Some(open),
        _ => number(f, rules, "an end of a range", diags),
    };
    if ranges {
        let lo = end(&parts[0], i64::MIN, diags);
        let hi = end(&parts[1], i64::MAX, diags);
        let value = number(&parts[2], rules, "a value", diags);
        let (lo, hi, value) = (lo?, hi?, value?);
        if lo > hi {
            diags.push(
                Diagnostic::new(
                    Code::LookupRanges,
                    item.span,
                    format!("this range runs backwards: {lo} is above {hi}"),
                )
                .with_help(format!("write `[{hi} {lo} …]`")),
            );
            return None;
        }
        Some((lo, hi, value))
    } else {
        let key = number(&parts[0], rules, "a key", diags);
        let value = number(&parts[1], rules, "a value", diags);
        let key = key?;
        Some((key, key, value?))
    }
}

/// An integer or a param's value.
fn number(f: &Form<'_>, rules: &RuleSet, what: &str, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    match f.kind {
        Kind::Int(n) => Some(n),
        Kind::Keyword(k) => {
            let found = rules.params.iter().find(|(p, _)| p == k).map(|(_, v)| *v);
            if found.is_none() {
                diags.push(
                    Diagnostic::new(
                        Code::KeywordNotNumber,
                        f.span,
                        format!("no param `:{k}` is declared"),
                    )
                    .with_label(format!("{what} is a number or a param"))
                    .suggest(
                        k,
                        rules.params.iter().map(|(p, _)| p.as_str()),
                        |s| format!(":{s}"),
                    ),
                );
            }
            found
        }
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::NotANumber,
                    f.span,
                    format!("{what} is a number or a param, found {}", f.describe()),
                )
                .with_label("expected an integer"),
            );
            None
        }
    }
}
