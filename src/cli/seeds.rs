//! `grimoire eval … --seeds FIRST..LAST`: one case run once per seed, and
//! the distribution of each value it changed (min, max, mean, how many runs
//! ended on each value) and how often each status was gained, in one process
//! instead of a thousand.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use super::roll::bars;
use super::{Format, Output, to_json};
use crate::check::rules::RuleSet;
use crate::eval::State;
use crate::ids::{AttrId, EntityId, StatusId};

/// The most runs one `--seeds` may ask for.
pub const MAX_SEEDS: u64 = 10_000_000;

/// The seeds `--seeds FIRST..LAST` names, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedRange {
    /// The first seed.
    pub first: u64,
    /// The last seed, included.
    pub last: u64,
}

impl SeedRange {
    /// Reads `FIRST..LAST` (`0..999`: a thousand seeds); `..=` is read alike.
    pub fn parse(text: &str) -> Result<SeedRange, String> {
        let bad =
            |why: &str| format!("`{text}`: {why}; give FIRST..LAST, both included, as 0..999");
        let (first, last) = text.split_once("..").ok_or_else(|| bad("not a range"))?;
        let last = last.strip_prefix('=').unwrap_or(last);
        let number = |s: &str| {
            s.trim().parse::<u64>().map_err(|_| {
                bad(&format!(
                    "`{}` is not a seed (a whole number 0 or more)",
                    s.trim()
                ))
            })
        };
        let range = SeedRange {
            first: number(first)?,
            last: number(last)?,
        };
        if range.last < range.first {
            return Err(bad("the last seed is before the first"));
        }
        if range.runs() > MAX_SEEDS {
            return Err(bad(&format!("at most {MAX_SEEDS} seeds")));
        }
        Ok(range)
    }

    /// How many seeds it names.
    pub fn runs(self) -> u64 {
        (self.last - self.first).saturating_add(1)
    }
}

/// One value's (an entity's attribute's) distribution over the runs.
#[derive(Default)]
struct Distribution {
    /// How many runs ended on each value.
    counts: BTreeMap<i64, u64>,
    /// The values summed, for the mean.
    sum: i128,
    /// Runs in which the entity was there at the end.
    runs: u64,
    /// Whether any run ended on another value than it started with.
    changed: bool,
}

/// What the runs add up to, by (entity, attribute) and (entity, status).
#[derive(Default)]
struct Runs {
    values: BTreeMap<(EntityId, AttrId), Distribution>,
    /// Runs that ended with the status held, and whether any run changed that.
    statuses: BTreeMap<(EntityId, StatusId), (u64, bool)>,
    /// The entities' names, from the run that ended with the most.
    names: Vec<String>,
}

impl Runs {
    /// Adds one run: the state `before` the case, the state it left and the
    /// names of its entities.
    fn add(&mut self, rules: &RuleSet, before: &State, after: &State, names: Vec<String>) {
        if after.len() > self.names.len() {
            self.names = names;
        }
        for entity in EntityId::below(after.len()) {
            let there_before = entity.index() < before.len();
            for a in 0..rules.attributes.len() {
                let attr = AttrId::new(a);
                let value = after.get(entity, attr);
                let d = self.values.entry((entity, attr)).or_default();
                *d.counts.entry(value).or_default() += 1;
                d.sum += i128::from(value);
                d.runs += 1;
                d.changed |= !there_before || before.get(entity, attr) != value;
            }
            for s in 0..rules.statuses.len() {
                let status = StatusId::new(s);
                let holds = |state: &State| state.statuses_of(entity).any(|i| i.status == status);
                let held = holds(after);
                let was = there_before && holds(before);
                let entry = self.statuses.entry((entity, status)).or_default();
                entry.0 += u64::from(held);
                entry.1 |= held != was;
            }
        }
    }
}

/// Runs the case once per seed of `seeds` (`run` gives the state before it,
/// the state it left and what the output calls each entity of it (those
/// its events saw enter play too), or what was wrong, said at the first seed) and prints what
/// changed, in `args.format`.
pub(crate) fn over_seeds(
    args: &super::EvalArgs,
    rules: &RuleSet,
    seeds: SeedRange,
    mut run: impl FnMut(u64) -> Result<(State, State, Vec<String>), Output>,
) -> Output {
    let mut runs = Runs::default();
    for seed in seeds.first..=seeds.last {
        match run(seed) {
            Ok((before, after, names)) => runs.add(rules, &before, &after, names),
            Err(out) => return out,
        }
    }
    Output {
        stdout: match args.format {
            Format::Human => human(rules, seeds, &runs),
            Format::Json => to_json(&json_value(rules, seeds, &runs)),
        },
        ..Output::default()
    }
}

/// An entity's name in the output.
fn name(runs: &Runs, entity: EntityId) -> String {
    runs.names
        .get(entity.index())
        .cloned()
        .unwrap_or_else(|| format!("#{entity}"))
}

/// The smallest and largest value a distribution holds.
fn bounds(d: &Distribution) -> (i64, i64) {
    let min = d.counts.keys().next().copied().unwrap_or(0);
    let max = d.counts.keys().next_back().copied().unwrap_or(0);
    (min, max)
}

fn mean(d: &Distribution) -> f64 {
    d.sum as f64 / d.runs.max(1) as f64
}

fn human(rules: &RuleSet, seeds: SeedRange, runs: &Runs) -> String {
    let mut out = String::new();
    let changed: Vec<_> = runs.values.iter().filter(|(_, d)| d.changed).collect();
    let gained: Vec<_> = runs.statuses.iter().filter(|(_, s)| s.1).collect();
    let _ = writeln!(
        out,
        "{} run{} (seeds {} to {}): {} value{} changed",
        seeds.runs(),
        crate::diag::plural(seeds.runs() as usize),
        seeds.first,
        seeds.last,
        changed.len(),
        crate::diag::plural(changed.len()),
    );
    for ((entity, attr), d) in changed {
        let (min, max) = bounds(d);
        let _ = writeln!(
            out,
            "\n{}.{}: min {min}, max {max}, mean {:.3} ({} runs)",
            name(runs, *entity),
            rules.attributes[*attr],
            mean(d),
            d.runs
        );
        for line in bars(d.runs, min, max, &d.counts).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    if !gained.is_empty() {
        out.push('\n');
    }
    for ((entity, status), (held, _)) in gained {
        let _ = writeln!(
            out,
            "{} holds {} at the end of {held} of {} runs ({:.2}%)",
            name(runs, *entity),
            rules.statuses[*status],
            seeds.runs(),
            *held as f64 * 100.0 / seeds.runs() as f64
        );
    }
    out
}

fn json_value(rules: &RuleSet, seeds: SeedRange, runs: &Runs) -> Value {
    let values: Vec<Value> = runs
        .values
        .iter()
        .filter(|(_, d)| d.changed)
        .map(|((entity, attr), d)| {
            let (min, max) = bounds(d);
            let counts: serde_json::Map<String, Value> = d
                .counts
                .iter()
                .map(|(v, n)| (v.to_string(), json!(n)))
                .collect();
            json!({
                "entity": name(runs, *entity),
                "attribute": rules.attributes[*attr],
                "runs": d.runs,
                "min": min,
                "max": max,
                "mean": mean(d),
                "counts": counts,
            })
        })
        .collect();
    let statuses: Vec<Value> = runs
        .statuses
        .iter()
        .filter(|(_, s)| s.1)
        .map(|((entity, status), (held, _))| {
            json!({
                "entity": name(runs, *entity),
                "status": rules.statuses[*status],
                "held": held,
            })
        })
        .collect();
    json!({
        "seeds": {"first": seeds.first, "last": seeds.last, "runs": seeds.runs()},
        "values": values,
        "statuses": statuses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_names_both_ends() {
        assert_eq!(SeedRange::parse("0..999").map(SeedRange::runs), Ok(1000));
        assert_eq!(SeedRange::parse("5..=5").map(SeedRange::runs), Ok(1));
        for bad in ["9..3", "x..3", "3", "0..99999999999", "-1..4"] {
            assert!(SeedRange::parse(bad).is_err(), "{bad}");
        }
    }
}
