//! `grimoire roll EXPR`: a designer's dice check. One roll shows its faces;
//! `--count N` shows the distribution (mean, min, max, a histogram).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::json;

use super::{Format, Output};
use crate::check::rules::RuleSet;
use crate::diag::{Code, Diagnostic, Source};
use crate::eval::{Event, State};
use crate::ids::EntityId;
use crate::syntax::{Arena, Span, read};

/// The most rolls one `--count` may ask for.
pub const MAX_COUNT: u64 = 100_000_000;

/// What `grimoire roll` was asked.
#[derive(Clone, Debug, clap::Args)]
pub struct RollArgs {
    /// The dice expression.
    pub expr: String,
    /// How many times to roll it (1 to 100000000).
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// The generator's seed: the same seed rolls the same faces.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output format; JSON: {"expr","count","mean","min","max","counts":{VALUE:N},"seed"}.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Colour in diagnostics.
    #[arg(skip)]
    pub color: bool,
}

/// The rule set dice are checked against: no entities, no attributes.
const DICE_RULES: &str = r#"{:rules :roll :roles {:you "whoever rolls"}}"#;

/// Where a roll that ran out of its budget ran out: the expression, whole.
fn in_expr(source: &Source) -> (Option<&Source>, Option<Span>, &'static str) {
    let whole = Span::new(0, source.text.len());
    (Some(source), Some(whole), "the expression rolled")
}

/// Runs `grimoire roll`.
pub fn roll(args: &RollArgs) -> Output {
    if args.count == 0 || args.count > MAX_COUNT {
        return Output::usage(format!(
            "`--count {}`: roll 1 to {MAX_COUNT} times",
            args.count
        ));
    }
    let rules = match RuleSet::parse(DICE_RULES) {
        Ok(r) => r,
        Err(_) => return Output::usage("the dice rule set does not check"),
    };
    let source = Source::new("<expr>", args.expr.clone());
    let arena = Arena::new();
    let read = read(&arena, &source.text);
    let mut diags: Vec<Diagnostic> = read.errors.iter().map(Diagnostic::from).collect();
    let expr = match (diags.is_empty(), read.forms.as_slice()) {
        (false, _) => None,
        (true, [form]) => crate::check::integer(form, &rules.scope(), &mut diags),
        (true, []) => {
            diags.push(
                Diagnostic::new(Code::OneForm, Span::new(0, 0), "nothing to roll")
                    .with_help("give dice such as `1d20`, `3d6+2` or `[advantage 1d20]`"),
            );
            None
        }
        (true, [_, second, ..]) => {
            diags.push(
                Diagnostic::new(
                    Code::OneForm,
                    second.span,
                    "roll one expression; this is a second",
                )
                .with_help("add rolls up with `[+ 1d20 1d4]`"),
            );
            None
        }
    };
    let expr = match expr {
        Some(e) if diags.is_empty() => e,
        _ => {
            let located: Vec<_> = diags.iter().map(|d| (&source, d)).collect();
            return Output::diagnostics(&located, args.format, args.color);
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut state = State::new(&rules, 1, seed);
    let shown = args.expr.trim();
    let mut events: Vec<Event> = Vec::new();
    if args.count == 1 {
        let value = crate::eval::value_logged(&expr, &mut state, &[EntityId::FIRST], &mut events);
        if let Some(why) = state.exhausted() {
            return Output::budget(why, in_expr(&source), args.format, args.color);
        }
        let lines = roll_lines(&events);
        let stdout = match args.format {
            Format::Json => {
                let mut out = json!({
                    "expr": shown, "count": 1, "mean": value as f64, "min": value,
                    "max": value, "counts": {value.to_string(): 1}, "seed": seed,
                    "rolls": lines,
                })
                .to_string();
                out.push('\n');
                out
            }
            Format::Human => {
                let mut out = String::new();
                for line in &lines {
                    let _ = writeln!(out, "{line}");
                }
                let _ = writeln!(out, "{shown} = {value}  (seed {seed})");
                out
            }
        };
        return Output {
            stdout,
            ..Output::default()
        };
    }
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    let mut sum: i128 = 0;
    for _ in 0..args.count {
        let v = crate::eval::value(&expr, &mut state, &[EntityId::FIRST]);
        state.forget_rolls();
        // Each roll of the distribution is a step of its own.
        if let Some((why, _)) = state.refuel() {
            return Output::budget(why, in_expr(&source), args.format, args.color);
        }
        sum += i128::from(v);
        *counts.entry(v).or_default() += 1;
    }
    let mean = sum as f64 / args.count as f64;
    let (min, max) = (
        counts.keys().next().copied().unwrap_or(0),
        counts.keys().next_back().copied().unwrap_or(0),
    );
    let stdout = match args.format {
        Format::Json => {
            let counts: serde_json::Map<String, serde_json::Value> = counts
                .iter()
                .map(|(v, n)| (v.to_string(), json!(n)))
                .collect();
            let mut out = json!({
                "expr": shown, "count": args.count, "mean": mean, "min": min,
                "max": max, "counts": counts, "seed": seed,
            })
            .to_string();
            out.push('\n');
            out
        }
        Format::Human => histogram(shown, args.count, mean, min, max, &counts, seed),
    };
    Output {
        stdout,
        ..Output::default()
    }
}

/// Each roll of a single evaluation as a log line: "3d6+2: 12 (3+5+2+2)".
fn roll_lines(events: &[Event]) -> Vec<String> {
    let mut rolls = crate::engine::log::Rolls::default();
    events.iter().filter_map(|e| rolls.event(e)).collect()
}

/// The distribution as text: a line per value with its share and a bar.
fn histogram(
    shown: &str,
    count: u64,
    mean: f64,
    min: i64,
    max: i64,
    counts: &BTreeMap<i64, u64>,
    seed: u64,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{shown} rolled {count} times (seed {seed}): mean {mean:.3}, min {min}, max {max}"
    );
    out.push_str(&bars(count, min, max, counts));
    out
}

/// A distribution's lines: each value (or range of values, when there are
/// many) with its share of `count` and a bar; `eval --seeds` shows its values so.
pub(crate) fn bars(count: u64, min: i64, max: i64, counts: &BTreeMap<i64, u64>) -> String {
    let mut out = String::new();
    // A wide distribution (1d1000) would print a line per value: it is
    // grouped into at most 40 ranges of equal width.
    // In i128: an attribute's values may span the whole of i64.
    let span = (i128::from(max) - i128::from(min) + 1).max(1);
    let step = if counts.len() > 60 {
        (span + 39) / 40
    } else {
        1
    };
    let mut rows: Vec<(String, u64)> = Vec::new();
    for (v, n) in counts {
        let lo = i128::from(min) + (i128::from(*v) - i128::from(min)) / step * step;
        let label = if step == 1 {
            lo.to_string()
        } else {
            format!("{lo}..{}", lo + step - 1)
        };
        match rows.last_mut() {
            Some((l, total)) if *l == label => *total += n,
            _ => rows.push((label, *n)),
        }
    }
    let most = rows.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
    let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(1);
    for (label, n) in &rows {
        let share = *n as f64 * 100.0 / count as f64;
        let bar = "#".repeat(((*n as f64 / most as f64) * 40.0).round() as usize);
        let _ = writeln!(out, "{label:>width$} {share:>6.2}% {bar}");
    }
    out
}
