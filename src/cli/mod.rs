//! The commands behind the `grimoire` binary, as functions that return their output.
//!
//! `main.rs` parses arguments with clap into the argument structs here (each
//! derives `clap::Args`) and prints what these return, so every command can be
//! tested without spawning a process. The commands read files and render
//! results; what they work out lives below them (simulations in [`crate::sim`]).

mod charts;
mod compare;
mod deck;
mod eval_zones;
pub mod explain;
pub mod fmt;
mod invariants;
mod jsonrpc;
pub mod lsp;
mod lsp_keys;
mod merge;
mod new;
mod play;
mod recording;
mod replay;
mod report;
mod roll;
mod seeds;
mod simulate;
mod table;
mod test;

/// The failure `failure_message` words (a game's violation of an invariant).
pub use crate::sim::Failure;
pub use invariants::{REPLAY_EVERY, failure_message, simulate_checked};
pub use merge::{MergeArgs, merge, merge_figures, merge_texts};
pub use new::new;
pub use play::{PlayArgs, play, seat_screen};
pub use recording::Recording;
pub use replay::replay;
pub use roll::{MAX_COUNT as MAX_ROLLS, RollArgs, roll};
pub use seeds::{MAX_SEEDS, SeedRange};
pub use simulate::{Prepared, ShardOf, SimArgs, SimJson, prepare as prepare_simulation, simulate};
pub use test::{ScenarioOutcome, run_paths as run_scenarios, test, test_logs};

use crate::ids::{AttrId, StatusId};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::check::ast::{Effect, EntityId};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::diag::{Code, Diagnostic, Source, plural};
use crate::engine::CardId;
use crate::engine::ai::Policy;
use crate::engine::log::{self, Sight};
use crate::eval::{Event, State, What, apply};
use crate::files;
use crate::files::LoadError;
use crate::syntax::Span;

/// What `check` and `test` say when given no path outside a project.
pub(crate) const NOT_IN_A_PROJECT: &str = "no files or folders given, and this folder is not in a project\nhelp: name them (`grimoire check rules cards`), or run inside a project: a folder with a `grimoire.edn` manifest, as `grimoire new NAME` makes";

/// The most diagnostics `check` shows for one file.
pub const MAX_PER_FILE: usize = 200;

/// Exit code: everything checked clean.
pub const EXIT_OK: i32 = 0;
/// Exit code: diagnostics were found.
pub const EXIT_DIAGNOSTICS: i32 = 1;
/// Exit code: a usage or I/O error.
pub const EXIT_USAGE: i32 = 2;

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// For people.
    #[default]
    Human,
    /// For machines.
    Json,
}

/// `--format human|json`: the values named alone, with no help of their own.
impl clap::ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &[Format::Human, Format::Json]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(match self {
            Format::Human => "human",
            Format::Json => "json",
        }))
    }
}

/// Reads an `--ai` value: a policy by its name, or an mcts spec
/// (`mcts:300:greedy:8`); a name refused says which there are.
pub fn policy_parser() -> impl clap::builder::TypedValueParser<Value = Policy> {
    Policy::parse
}

/// The tree search's flags (`play` and `simulate`): each sets what every
/// `--ai mcts` seat runs with, over what its `--ai` value says.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct MctsArgs {
    /// With --ai mcts: iterations per decision (default 1000; also `--ai mcts:N`). More is
    /// stronger and slower, in proportion.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::engine::mcts::MctsParams::MAX_BUDGET)))]
    pub budget: Option<u32>,
    /// With --ai mcts: the player that plays each iteration on past the tree, random (default)
    /// or greedy (slower a move, better informed).
    #[arg(long, value_name = "PLAYER", value_parser = ["random", "greedy"])]
    pub rollout: Option<String>,
    /// With --ai mcts: moves a rollout plays before the position is scored by the rule set's
    /// :ai :score (default 8; a game that ends sooner counts its result).
    #[arg(long = "rollout-plies", value_name = "N", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub rollout_plies: Option<u32>,
}

impl MctsArgs {
    /// Sets every tree-search seat of `ai` by the flags given; a flag given
    /// with no such seat is a mistake, said.
    pub fn apply(&self, ai: &mut [Policy]) -> Result<(), String> {
        if self.budget.is_none() && self.rollout.is_none() && self.rollout_plies.is_none() {
            return Ok(());
        }
        let mut any = false;
        for policy in ai.iter_mut() {
            if let Policy::Mcts(params) = policy {
                any = true;
                if let Some(b) = self.budget {
                    params.budget = b;
                }
                if let Some(r) = self
                    .rollout
                    .as_deref()
                    .and_then(crate::engine::mcts::Rollout::from_name)
                {
                    params.rollout = r;
                }
                if let Some(p) = self.rollout_plies {
                    params.plies = p;
                }
            }
        }
        if any {
            Ok(())
        } else {
            Err("--budget, --rollout and --rollout-plies are for a tree-search player: give --ai mcts".to_string())
        }
    }
}

/// Refuses more `--ai` values than `rules` has seats (a usage error): a
/// value past the last seat would play no one, and ignoring it silently
/// hides a mistaken rule set or a stray flag.
pub(crate) fn check_policies(ai: &[Policy], rules: &RuleSet) -> Result<(), Output> {
    let seats = rules.seats.len();
    if ai.len() <= seats {
        return Ok(());
    }
    Err(Output::usage(format!(
        "{} --ai values for {seats} seat{}: rule set `{}` has {seats} ({}); give one --ai for every seat, or one per seat in seat order",
        ai.len(),
        plural(seats),
        rules.name,
        rules.seats.join(", ")
    )))
}

/// What a command printed and how it exits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// Text for standard output.
    pub stdout: String,
    /// Text for standard error.
    pub stderr: String,
    /// The process exit code.
    pub code: i32,
}

impl Output {
    /// An input that is read but wrong (exit 1), as a diagnostic would be.
    pub(crate) fn failure(message: impl Into<String>) -> Output {
        Output {
            stderr: format!("error: {}\n", message.into()),
            code: EXIT_DIAGNOSTICS,
            ..Output::default()
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Output {
        Output {
            stderr: format!("error: {}\n", message.into()),
            code: EXIT_USAGE,
            ..Output::default()
        }
    }

    /// An evaluation stopped by a budget, pointed at the effect that was
    /// running in `file` (a card's, a status's, the rule set's, the effects
    /// given), what wrote it said in the label: the data is at fault, as
    /// with a diagnostic, so the exit code is 1.
    pub(crate) fn budget(
        why: crate::eval::Exhausted,
        (file, span, what): (Option<&Source>, Option<Span>, &str),
        format: Format,
        color: bool,
    ) -> Output {
        let mut out = match (file, span) {
            (Some(source), Some(span)) => {
                let d = Diagnostic::new(Code::BudgetExhausted, span, why.to_string())
                    .with_label(format!("running here, in {what}"));
                Output::diagnostics(&[(source, &d)], format, color)
            }
            _ => Output {
                stderr: format!(
                    "error[{}]: {why}\n  in {what}{}\n",
                    Code::BudgetExhausted,
                    file.map(|f| format!(" ({})", f.path)).unwrap_or_default()
                ),
                ..Output::default()
            },
        };
        out.code = 1;
        out
    }

    /// A usage error that is a kind of diagnostic with no place in a file (a
    /// rule set or deck that cannot be loaded, an argument of the wrong
    /// shape): `error[E0703]: …`, exit 2.
    pub(crate) fn coded(code: Code, message: impl Into<String>) -> Output {
        Output {
            stderr: format!("error[{code}]: {}\n", message.into()),
            code: EXIT_USAGE,
            ..Output::default()
        }
    }

    pub(crate) fn diagnostics(
        located: &[(&Source, &Diagnostic)],
        format: Format,
        color: bool,
    ) -> Output {
        // Warnings alone do not fail: only errors exit 1.
        let errors = located
            .iter()
            .any(|(_, d)| d.severity == crate::diag::Severity::Error);
        let mut out = Output {
            code: if errors { EXIT_DIAGNOSTICS } else { EXIT_OK },
            ..Output::default()
        };
        match format {
            Format::Human => {
                for (source, d) in located {
                    out.stderr.push_str(&source.render(d, color));
                    out.stderr.push('\n');
                }
            }
            Format::Json => {
                let list: Vec<_> = located.iter().map(|(s, d)| s.locate(d)).collect();
                out.stdout = to_json(&list);
            }
        }
        out
    }
}

pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("\"{e}\""));
    s.push('\n');
    s
}

/// Loads `--rules`, turning failures into output.
pub(crate) fn load_rules(name: &str, format: Format, color: bool) -> Result<RuleSet, Output> {
    open_rules(name, format, color).map(|o| o.rules)
}

/// [`load_rules`], with where the rule set came from (for its deck and a log's header).
pub(crate) fn open_rules(name: &str, format: Format, color: bool) -> Result<files::Opened, Output> {
    files::Library::current().open(name).map_err(|e| match e {
        missing @ LoadError::Missing { .. } => {
            Output::coded(Code::RuleSetUnavailable, missing.to_string())
        }
        e => Output::diagnostics(&e.located(), format, color),
    })
}

/// `grimoire check --explain CODE`: what the diagnostic code means, why it
/// happens, and an example failing and fixed; an unknown code is a usage error.
pub fn explain_code(code: &str) -> Output {
    match Code::parse(code) {
        Some(code) => Output {
            stdout: crate::diag::catalogue::render(code),
            ..Output::default()
        },
        None => Output::usage(format!(
            "`{}` is not a diagnostic code: codes are written `E0204` or `W0401`, as in `error[E0204]: …`",
            code.trim()
        )),
    }
}

/// `grimoire check PATH...`: checks files and folders, reporting every problem.
pub fn check(paths: &[PathBuf], rules: Option<&str>, format: Format, color: bool) -> Output {
    // No path: the project the command runs in, whole.
    let project_paths;
    let paths = match (paths, &files::Library::current().project) {
        ([], Some(project)) => {
            project_paths = project.data_paths();
            &project_paths
        }
        ([], None) => return Output::usage(NOT_IN_A_PROJECT),
        _ => paths,
    };
    let rules = match rules.map(|r| load_rules(r, format, color)).transpose() {
        Ok(r) => r,
        Err(out) => return out,
    };
    // `-` is standard input, checked beside the files as `<stdin>`.
    let (stdin, files): (Vec<&PathBuf>, Vec<&PathBuf>) =
        paths.iter().partition(|p| p.as_os_str() == "-");
    let mut extra = Vec::new();
    if !stdin.is_empty() {
        let bytes = match files::read_capped(std::io::stdin()) {
            Ok(bytes) => bytes,
            Err(e) => return Output::usage(format!("standard input: {e}")),
        };
        extra.push(files::source_of("<stdin>".to_string(), bytes));
    }
    let files: Vec<PathBuf> = files.into_iter().cloned().collect();
    let checked = files::check_paths_with(&files, extra, rules.as_ref());
    // A file with thousands of errors shows its first ones and a count of the rest.
    let mut shown = vec![0usize; checked.sources.len()];
    let mut hidden = vec![0usize; checked.sources.len()];
    let mut located: Vec<_> = Vec::new();
    for (i, d) in &checked.diagnostics {
        if shown[*i] < MAX_PER_FILE {
            shown[*i] += 1;
            located.push((&checked.sources[*i], d));
        } else {
            hidden[*i] += 1;
        }
    }
    let notes: Vec<(usize, Diagnostic)> = hidden
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &n)| {
            let end = Span::new(checked.sources[i].text.len(), checked.sources[i].text.len());
            (
                i,
                Diagnostic::new(
                    Code::MoreNotShown,
                    end,
                    format!("{n} more diagnostics in this file are not shown"),
                ),
            )
        })
        .collect();
    located.extend(notes.iter().map(|(i, d)| (&checked.sources[*i], d)));
    let mut out = if located.is_empty() {
        Output {
            stdout: if format == Format::Json {
                "[]\n".into()
            } else {
                String::new()
            },
            ..Output::default()
        }
    } else {
        Output::diagnostics(&located, format, color)
    };
    match format {
        Format::Human => {
            for e in &checked.io_errors {
                let _ = writeln!(out.stderr, "error: {e}");
            }
        }
        // Machines get the paths that could not be read in the same list,
        // with no line: `{"path": …, "severity": "error", "kind": "io", "message": …}`.
        Format::Json if !checked.io_errors.is_empty() => {
            let mut list: Vec<serde_json::Value> = located
                .iter()
                .filter_map(|(s, d)| serde_json::to_value(s.locate(d)).ok())
                .collect();
            list.extend(checked.io_errors.iter().map(|e| {
                serde_json::json!({
                    "path": e.path,
                    "severity": "error",
                    "kind": "io",
                    "message": e.message,
                })
            }));
            out.stdout = to_json(&list);
        }
        Format::Json => {}
    }
    if !checked.io_errors.is_empty() {
        out.code = EXIT_USAGE;
    }
    if format == Format::Human {
        let errors = checked.error_count();
        let warnings = checked.diagnostics.len() - errors;
        let _ = writeln!(
            out.stderr,
            "checked {} file{}: {} definition{}, {} rule set{}, {} error{}, {} warning{}",
            checked.sources.len(),
            plural(checked.sources.len()),
            checked.definitions.len(),
            plural(checked.definitions.len()),
            checked.rule_sets.len(),
            plural(checked.rule_sets.len()),
            errors,
            plural(errors),
            warnings,
            plural(warnings),
        );
    }
    if checked.sources.is_empty() && checked.io_errors.is_empty() {
        out.stderr
            .push_str("error: no data files found (looked for .edn, .csv and .md files)\n");
        out.code = EXIT_USAGE;
    }
    out
}

/// What `grimoire eval` needs.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct EvalArgs {
    /// The effects: a vector of effect maps; `-` reads them from standard input.
    // Ignored with `card`; empty when not given (never shown as a default).
    #[arg(
        required = false,
        required_unless_present_any = ["card", "statuses", "then", "file"],
        default_value = "",
        hide_default_value = true
    )]
    pub effects: String,
    /// Read the effects from this file.
    #[arg(long, conflicts_with_all = ["effects", "card"])]
    pub file: Option<PathBuf>,
    /// Apply this card's effects instead (from the bundled deck, or --cards).
    #[arg(long, conflicts_with = "effects")]
    pub card: Option<String>,
    /// Card and status files or folders: the deck of --card, and statuses they define join the rule set's (default: the rule set's own, its project's or the bundled cards/NAME and effects/NAME).
    #[arg(long)]
    pub cards: Vec<PathBuf>,
    /// Rule set: a name (the project's, else a bundled one such as arcomage) or a rule-set file.
    #[arg(long)]
    pub rules: String,
    /// Set a value before applying: ROLE.ATTRIBUTE=INTEGER (repeatable), such as you.wall=0.
    #[arg(long = "set", value_name = "ROLE.ATTRIBUTE=N")]
    pub sets: Vec<String>,
    /// Start from a RON state file: (seed: 7, entities: {"you": {"wall": 0}}); with `:zones`, piles too: zones: {"hand.you": ["Yeti"], "deck": ["Scout"]} (top first).
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Seed for chance (default: the state file's, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run the case once for each seed FIRST..LAST (both included: 0..999 is a thousand runs)
    /// and print, for every value it changed, its distribution over them: min, max, mean and
    /// how many runs ended on each value (and how often each status was gained).
    #[arg(long, value_name = "FIRST..LAST", value_parser = SeedRange::parse, conflicts_with = "seed")]
    pub seeds: Option<SeedRange>,
    /// Before the effects, ENTITY acquires status ID through the normal path (repeatable), such as hero=weakness; ID@N gives it magnitude N (you=heal4@23).
    #[arg(long = "status", value_name = "ENTITY=ID")]
    pub statuses: Vec<String>,
    /// After the effects, run this timing, or every timing of this moment (repeatable, in order), such as round-end.
    #[arg(long = "then", value_name = "TIMING")]
    pub then: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Colour diagnostics.
    #[arg(skip)]
    pub color: bool,
}

/// The names of an `eval` state's entities: the roles (bound to the first
/// entities), then the rule set's `:setup` entities and its first
/// encounter's, as a game is set up.
fn entity_names(rules: &RuleSet) -> Vec<String> {
    rules
        .roles
        .iter()
        .cloned()
        .chain(
            rules
                .setup_entities()
                .filter(|s| s.seat.is_none())
                .map(|s| s.name.clone()),
        )
        .collect()
}

/// [`entity_names`] for every entity of `state`: those `events` saw enter
/// play by kind and number, as logs name them (`tile#7`).
fn all_names(rules: &RuleSet, state: &State, events: &[Event]) -> Vec<String> {
    let mut names = entity_names(rules);
    names.extend((names.len()..state.len()).map(|e| format!("#{e}")));
    for e in events {
        if let (What::Spawned(kind), Some(name)) = (e.what, names.get_mut(e.entity.index())) {
            *name = crate::engine::log::spawned_name(rules, kind, e.entity);
        }
    }
    names
}

/// A state as written in a RON file: entity → attribute → value, a seed,
/// and, for a rule set with `:zones`, piles → cards.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    entities: BTreeMap<String, BTreeMap<String, i64>>,
    #[serde(default)]
    zones: BTreeMap<String, eval_zones::PileText>,
}

/// The entities `eval`'s names mean: `names[i]` (a role, then a setup
/// entity, as effects, `--set` and `--status` name them) is `entities[i]`.
pub(crate) struct Bound {
    names: Vec<String>,
    entities: Vec<EntityId>,
}

/// `grimoire eval`: applies effects to a state and prints the events and the new state.
pub fn eval(args: &EvalArgs) -> Output {
    let mut rules = match load_rules(&args.rules, args.format, args.color) {
        Ok(r) => r,
        Err(out) => return out,
    };
    // The statuses `--cards` files define join the rule set's, as they do a
    // game's; with `--card`, their errors are the deck's warnings (below).
    if !args.cards.is_empty()
        && let Err(e) = files::with_definitions(&mut rules, &args.cards)
        && (args.card.is_none() || !matches!(e, files::DeckError::Invalid(_)))
    {
        return deck::deck_error(e, args.format, args.color);
    }
    let (seed, assignments, piles) = match state_given(args, &rules) {
        Ok(given) => given,
        Err(out) => return out,
    };
    // A rule set with `:zones` starts from its deck dealt: its bad rows are
    // warned of first, as `--card`'s are.
    let (zoned, bound, warnings) = if eval_zones::zoned(&rules) {
        let (deck, warnings) =
            match deck::lenient_deck(&args.rules, &rules, &args.cards, args.color) {
                Ok(found) => found,
                Err(out) => return out,
            };
        match eval_zones::Zoned::new(&rules, deck, entity_names(&rules), piles, args) {
            Ok((zoned, bound)) => (Some(zoned), bound, warnings),
            Err(mut out) => {
                out.stderr.insert_str(0, &warnings);
                return out;
            }
        }
    } else {
        let names = entity_names(&rules);
        let entities = EntityId::below(names.len()).collect();
        (None, Bound { names, entities }, String::new())
    };
    // The state before the effects, for any seed (`--seeds` starts one a seed).
    let start = |seed: u64, card: Option<CardId>| -> Result<State, Output> {
        let mut state = match &zoned {
            Some(zoned) => zoned.start(&rules, seed, card)?,
            None => {
                let mut state = State::new(&rules, rules.roles.len(), seed);
                state.add_setup(&rules);
                state
            }
        };
        for (entity, attr, value, shown) in &assignments {
            if let Err((code, message)) = assign(&rules, &bound, &mut state, entity, attr, *value) {
                return Err(Output::coded(code, format!("{shown}: {message}")));
            }
        }
        Ok(state)
    };
    // Without zones, what is wrong with the state is said before the effects are read.
    let state = match &zoned {
        Some(_) => None,
        None => match start(seed, None) {
            Ok(state) => Some(state),
            Err(out) => return out,
        },
    };
    let deck = zoned.as_ref().map(|z| z.deck.as_slice());
    let (case, case_warnings) = match case_effects(args, &rules, deck) {
        Ok(found) => found,
        Err(mut out) => {
            out.stderr.insert_str(0, &warnings);
            return out;
        }
    };
    let names_of = |state: &State, events: &[Event]| match &zoned {
        Some(z) => eval_zones::names(&rules, &z.deck, &bound, state, events),
        None => all_names(&rules, state, events),
    };
    let mut out = match &args.seeds {
        None => {
            let state = match state.map_or_else(|| start(seed, case.card), Ok) {
                Ok(state) => state,
                Err(mut out) => {
                    out.stderr.insert_str(0, &warnings);
                    return out;
                }
            };
            match apply_case(args, &rules, &bound, &case, state) {
                Ok(Applied {
                    state,
                    events,
                    fell,
                }) => {
                    let names = names_of(&state, &events);
                    let rows = zoned
                        .as_ref()
                        .map(|_| eval_zones::rows(&bound, &state, &events));
                    let shown = Shown {
                        rules: &rules,
                        state: &state,
                        events: &events,
                        fell: &fell,
                        names: &names,
                        rows: rows.as_deref(),
                    };
                    Output {
                        stdout: match args.format {
                            Format::Human => render_eval(&shown),
                            Format::Json => to_json(&eval_json(&shown)),
                        },
                        ..Output::default()
                    }
                }
                Err(out) => out,
            }
        }
        Some(seeds) => seeds::over_seeds(args, &rules, *seeds, |seed| {
            let before = start(seed, case.card)?;
            let applied = apply_case(args, &rules, &bound, &case, before.clone())?;
            let names = names_of(&applied.state, &applied.events);
            Ok((before, applied.state, names))
        }),
    };
    // A deck's bad rows (`--card`, or the deck a rule set with zones deals) are warned of first.
    out.stderr.insert_str(0, &case_warnings);
    out.stderr.insert_str(0, &warnings);
    out
}

/// What a `--state` file and `--set` give: the seed, the values (entity,
/// attribute, value, and where each was given), and the piles with the
/// file they are read from.
type GivenState = (
    u64,
    Vec<(String, String, i64, String)>,
    Option<(BTreeMap<String, eval_zones::PileText>, Source)>,
);

/// The `--state` file and the `--set` values, read.
fn state_given(args: &EvalArgs, rules: &RuleSet) -> Result<GivenState, Output> {
    let mut seed = 0;
    let mut assignments: Vec<(String, String, i64, String)> = Vec::new();
    let mut piles = None;
    if let Some(path) = &args.state {
        let (file, source) = read_state_file(path, eval_zones::zoned(rules)).map_err(|out| *out)?;
        seed = file.seed;
        for (entity, attrs) in file.entities {
            for (attr, value) in attrs {
                let shown = format!("{}: {entity}.{attr}", path.display());
                assignments.push((entity.clone(), attr, value, shown));
            }
        }
        if !file.zones.is_empty() {
            if !eval_zones::zoned(rules) {
                return Err(no_zones_here(rules, &source));
            }
            piles = Some((file.zones, source));
        }
    }
    for set in &args.sets {
        match parse_set(set) {
            Some((entity, attr, value)) => {
                assignments.push((entity, attr, value, format!("--set {set}")))
            }
            None => {
                return Err(Output::coded(
                    Code::BadEvalArgument,
                    format!(
                        "`--set {set}` is not `ROLE.ATTRIBUTE=INTEGER` (for example `--set you.wall=0`)"
                    ),
                ));
            }
        }
    }
    Ok((args.seed.unwrap_or(seed), assignments, piles))
}

/// A state file's `zones:` for a rule set that keeps no cards in zones: a
/// bad state file (E0705), at the field.
fn no_zones_here(rules: &RuleSet, source: &Source) -> Output {
    let at = source.text.find("zones").unwrap_or(0);
    let why = if rules.zones.is_some() {
        "keeps its cards in the engine's own piles (`:cards`), which `eval` does not deal"
    } else {
        "has no zones"
    };
    let d = Diagnostic::new(
        Code::BadStateFile,
        Span::new(at, (at + "zones".len()).min(source.text.len())),
        format!(
            "bad state file: `zones` are for a rule set with `:zones`; rule set `{}` {why}",
            rules.name
        ),
    )
    .with_label("no zones to give");
    let mut out = Output::diagnostics(&[(source, &d)], Format::Human, false);
    out.code = EXIT_USAGE;
    out
}

/// What `eval` applies: the effects, the file they were read from, and what
/// a budget's error calls them when it ran out in them.
struct Case {
    effects: Vec<Effect>,
    /// `--card`'s card in the deck a rule set with `:zones` deals: an
    /// instance of it is made to be `:this-card`.
    card: Option<CardId>,
    file: Option<std::sync::Arc<Source>>,
    what: String,
}

/// The effects `eval` applies: `--card`'s (with the warnings of its deck's
/// bad rows), or those given (`--file`, `-`, the argument) checked. `dealt`:
/// the deck a rule set with `:zones` deals (its bad rows already warned
/// of), which `--card` is found in and the cards effects name must be of.
fn case_effects(
    args: &EvalArgs,
    rules: &RuleSet,
    dealt: Option<&[Card]>,
) -> Result<(Case, String), Output> {
    if let Some(name) = &args.card {
        // A deck with a bad row still evaluates its good cards: the file's errors
        // are shown as warnings first, and only the named card must check.
        let (deck, warnings) = match dealt {
            Some(deck) => (deck.to_vec(), String::new()),
            None => deck::lenient_deck(&args.rules, rules, &args.cards, args.color)?,
        };
        return match deck::find_card(&deck, name, &rules.name) {
            Ok(card) => Ok((
                Case {
                    effects: card.effects.clone(),
                    card: dealt
                        .and_then(|d| d.iter().position(|c| c.name == card.name))
                        .map(CardId::new),
                    file: card.file.clone(),
                    what: format!("card `{}`", card.name),
                },
                warnings,
            )),
            Err(mut out) => {
                out.stderr.insert_str(0, &warnings);
                Err(out)
            }
        };
    }
    let text = if args.file.is_none()
        && args.effects.trim().is_empty()
        && (!args.statuses.is_empty() || !args.then.is_empty())
    {
        "[]".to_string()
    } else {
        args.effects.clone()
    };
    // `--file PATH` or `-` (standard input); diagnostics name where the text came from.
    let source = explain::effects_source(&text, args.file.as_deref())?;
    // Effects name the setup entities as `--set` and `--status` do.
    let setup = entity_names(rules);
    let bound: Vec<&str> = setup[rules.roles.len()..]
        .iter()
        .map(String::as_str)
        .collect();
    let checked = explain::check_effects(rules, &source, &bound).and_then(|effects| {
        let unknown = dealt.map(|deck| unknown_cards(&effects, deck));
        match unknown {
            Some(diags) if !diags.is_empty() => Err(diags),
            _ => Ok(effects),
        }
    });
    match checked {
        Ok(effects) => Ok((
            Case {
                effects,
                card: None,
                file: Some(std::sync::Arc::new(source)),
                what: "the effects given".to_string(),
            },
            String::new(),
        )),
        Err(diags) => {
            let located: Vec<_> = diags.iter().map(|d| (&source, d)).collect();
            Err(Output::diagnostics(&located, args.format, args.color))
        }
    }
}

/// What a case left: the state, every event, and the events made as what
/// fell left play (a card's move to its zone's `:leaves-to`), by range.
struct Applied {
    state: State,
    events: Vec<Event>,
    fell: Vec<std::ops::Range<usize>>,
}

/// E0407 at each card name `effects` use that no card of `deck` has.
fn unknown_cards(effects: &[Effect], deck: &[Card]) -> Vec<Diagnostic> {
    let known: Vec<String> = deck.iter().map(|c| c.name.clone()).collect();
    let mut found = Vec::new();
    crate::check::cards::card_names(effects, &mut |n| {
        if !known.iter().any(|k| **k == *n.name) {
            found.push(crate::check::cards::unknown_card(n, &known));
        }
    });
    found
}

/// Applies effects with each name of `bound` bound to its entity: `--status`
/// acquisitions first, `--then` timings after. The state they leave and
/// every event, or what was wrong with a `--status` or `--then`.
fn apply_case(
    args: &EvalArgs,
    rules: &RuleSet,
    bound: &Bound,
    case: &Case,
    mut state: State,
) -> Result<Applied, Output> {
    let roles = &bound.entities[..rules.roles.len().min(bound.entities.len())];
    let names = &bound.names;
    let mut events = Vec::new();
    let mut removed = Vec::new();
    let mut fell = Vec::new();
    for given in &args.statuses {
        let Some((who, id)) = given.split_once('=') else {
            return Err(Output::coded(
                Code::BadEvalArgument,
                format!(
                    "`--status {given}` is not `ENTITY=STATUS` (for example `--status hero=weakness`)"
                ),
            ));
        };
        // `heal4@23`: with magnitude 23.
        let (id, magnitude) = match id.split_once('@') {
            Some((id, m)) => match m.trim().parse::<i64>() {
                Ok(m) => (id, m),
                Err(_) => {
                    return Err(Output::coded(
                        Code::BadEvalArgument,
                        format!(
                            "--status {given}: the magnitude after `@` is a whole number, found `{m}`"
                        ),
                    ));
                }
            },
            None => (id, 0),
        };
        let (who, id) = (
            who.trim().trim_start_matches(':'),
            id.trim().trim_start_matches(':'),
        );
        let Some(holder) = names
            .iter()
            .position(|n| n == who)
            .and_then(|i| bound.entities.get(i))
        else {
            return Err(Output::coded(
                Code::UnknownEntity,
                format!(
                    "--status {given}: unknown entity `{who}`{}",
                    did_you_mean(who, names)
                ),
            ));
        };
        let Some(status) = rules.status(id) else {
            let hint = if rules.statuses.is_empty() {
                format!("; rule set `{}` defines no statuses", rules.name)
            } else {
                did_you_mean(id, &rules.statuses)
            };
            return Err(Output::coded(
                Code::UnknownStatus,
                format!("--status {given}: unknown status `{id}`{hint}"),
            ));
        };
        let source = roles.first().copied().unwrap_or_default();
        crate::eval::acquire(
            rules,
            &mut state,
            roles,
            *holder,
            source,
            status,
            magnitude,
            &mut events,
        );
        state.claim(crate::eval::Owner::Status(status));
        let from = events.len();
        state.remove_fallen(rules, roles, &mut removed, &mut events);
        fell.push(from..events.len());
    }
    // The setup entities follow the roles, bound as the checker bound their names.
    apply(
        rules,
        &case.effects,
        &mut state,
        &bound.entities,
        &mut events,
    );
    let from = events.len();
    state.remove_fallen(rules, roles, &mut removed, &mut events);
    fell.push(from..events.len());
    for name in &args.then {
        let name = name.trim().trim_start_matches(':');
        use crate::check::keys::Keys;
        if let Some(t) = rules.timing(name) {
            crate::engine::run_timing(rules, &mut state, t, EntityId::FIRST, &mut events);
            let from = events.len();
            state.remove_fallen(rules, roles, &mut removed, &mut events);
            fell.push(from..events.len());
        } else if let Some(m) = crate::check::rules::Moment::find(name) {
            crate::engine::run_moment(rules, &mut state, m, &mut events, &mut removed);
        } else {
            let moments = crate::check::rules::Moment::ALL
                .iter()
                .map(|m| m.name().to_string());
            let known: Vec<String> = rules
                .timings
                .iter()
                .map(|t| t.name.clone())
                .chain(moments)
                .collect();
            return Err(Output::coded(
                Code::UnknownTiming,
                format!(
                    "--then {name}: rule set `{}` has no timing or moment `{name}`{}",
                    rules.name,
                    did_you_mean(name, &known)
                ),
            ));
        }
    }
    if let Some(why) = state.exhausted() {
        let at = state.stopped_at();
        let (file, what) = match at.owner {
            None => (case.file.as_deref(), case.what.clone()),
            Some(_) => crate::engine::log::place_of(rules, &[], at),
        };
        let place = (file, at.span, what.as_str());
        return Err(Output::budget(why, place, args.format, args.color));
    }
    Ok(Applied {
        state,
        events,
        fell,
    })
}

/// The state file at `path`, with its text (where its piles' errors are
/// shown); `zoned`: the rule set has `:zones`, which its help shows.
fn read_state_file(path: &Path, zoned: bool) -> Result<(StateFile, Source), Box<Output>> {
    let text = files::read_file_text(path)
        .map_err(|e| Box::new(Output::usage(format!("{}: {e}", path.display()))))?;
    let source = Source::new(path.display().to_string(), text);
    match ron::from_str::<StateFile>(&source.text) {
        Ok(file) => Ok((file, source)),
        Err(e) => {
            let start = source.offset(e.span.start.line, e.span.start.col);
            let help = if zoned {
                "a state file looks like `(seed: 7, entities: {\"you\": {\"health\": 20}}, zones: {\"deck\": [\"Yeti\"], \"hand.you\": [\"Scout\"]})`: piles are lists of card names (top first for an ordered zone), or a board's slots, `{0: \"Yeti\"}`"
            } else {
                "a state file looks like `(seed: 7, entities: {\"you\": {\"wall\": 0}})`"
            };
            let d = Diagnostic::new(
                Code::BadStateFile,
                Span::new(start, start + 1),
                format!("bad state file: {}", e.code),
            )
            .with_help(help);
            let mut out = Output::diagnostics(&[(&source, &d)], Format::Human, false);
            out.code = EXIT_USAGE;
            Err(Box::new(out))
        }
    }
}

/// `you.wall=0` → ("you", "wall", 0).
fn parse_set(text: &str) -> Option<(String, String, i64)> {
    let (path, value) = text.split_once('=')?;
    let (entity, attr) = path.trim().split_once('.')?;
    let entity = entity.trim().trim_start_matches(':');
    let attr = attr.trim().trim_start_matches(':');
    let value = value.trim().parse().ok()?;
    Some((entity.to_string(), attr.to_string(), value))
}

/// "; did you mean `x`?", or the list of names.
fn did_you_mean(name: &str, names: &[String]) -> String {
    crate::diag::nearest(name, names.iter().map(String::as_str))
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_else(|| format!("; the names are {}", names.join(", ")))
}

fn assign(
    rules: &RuleSet,
    bound: &Bound,
    state: &mut State,
    entity: &str,
    attr: &str,
    value: i64,
) -> Result<(), (Code, String)> {
    let suggest = did_you_mean;
    let names = &bound.names;
    let role = names
        .iter()
        .position(|n| n == entity)
        .and_then(|i| bound.entities.get(i).copied())
        .ok_or_else(|| {
            let message = format!("unknown entity `{entity}`{}", suggest(entity, names));
            (Code::UnknownEntity, message)
        })?;
    let a = rules.attribute(attr).ok_or_else(|| {
        let message = format!(
            "unknown attribute `{attr}`{}",
            suggest(attr, &rules.attributes)
        );
        (Code::UnknownAttribute, message)
    })?;
    let def = &rules.attribute_defs[a];
    if value < def.min || value > def.max {
        let message = format!(
            "{value} is outside the bounds of `{attr}` ({}..={})",
            def.min, def.max
        );
        return Err((Code::OutOfBounds, message));
    }
    state.put(role, a, value);
    Ok(())
}

/// What `eval` shows of the state its effects left.
struct Shown<'a> {
    rules: &'a RuleSet,
    state: &'a State,
    events: &'a [Event],
    /// The events made as what fell left play, by range.
    fell: &'a [std::ops::Range<usize>],
    /// Every entity's name, by number.
    names: &'a [String],
    /// With `:zones`, the entities the table shows (not the cards in hands
    /// and decks, which are listed with their piles); `None`: every one.
    rows: Option<&'a [EntityId]>,
}

fn render_eval(shown: &Shown<'_>) -> String {
    let Shown {
        rules,
        state,
        events,
        fell,
        names,
        rows,
    } = *shown;
    let mut out = String::new();
    if events.is_empty() {
        out.push_str("no changes\n");
    }
    let seat = |e: EntityId| -> std::borrow::Cow<'_, str> { name_of(names, e).into() };
    let mut rolls = crate::engine::log::Rolls::default();
    for (i, e) in events.iter().enumerate() {
        let who = name_of(names, e.entity);
        let mut via = e
            .cause
            .via()
            .map(|o| format!(" via :{}", rules.operations[o]))
            .unwrap_or_default();
        if let Some(s) = e.cause.status() {
            let _ = write!(via, " by :{}", rules.statuses[s]);
        }
        let effect = u32::from(e.cause.effect) + 1;
        let _ = match e.what {
            What::Attr(attr) => writeln!(
                out,
                "{:<16} {:>5} -> {:<5} (effect {effect}{via})",
                format!("{who}.{}", rules.attributes[attr]),
                e.before,
                e.after,
            ),
            // Its name says its kind: `tile#7`.
            What::Spawned(_) => writeln!(out, "{who} enters play (effect {effect}{via})"),
            What::Status(status, change) => writeln!(
                out,
                "{who} {} (effect {effect}{via})",
                crate::engine::log::status_line(rules, status, change, e.before, e.after)
            ),
            // As a play's log says them, with what made them: a card that
            // fell from play moves by the rules, not by an effect.
            What::Moved(from, to) => {
                let at = u32::try_from(e.after).unwrap_or(u32::MAX);
                let words = log::moved_words(rules, &who, (from, to, at), &seat);
                if fell.iter().any(|r| r.contains(&i)) {
                    writeln!(out, "{words} (it fell)")
                } else {
                    writeln!(out, "{words} (effect {effect}{via})")
                }
            }
            What::Shuffled(pile, from) => {
                let from = (from != crate::eval::zones::MADE).then_some(from);
                let counts = (
                    u32::try_from(e.before).unwrap_or(0),
                    u32::try_from(e.after).unwrap_or(0),
                );
                let words = log::shuffled_words(rules, (pile, from), counts, &seat);
                writeln!(out, "{words} (effect {effect}{via})")
            }
            What::Shown(pile) => {
                let words = log::shown_words(rules, &who, (pile, e.before as u64), &seat);
                writeln!(out, "{words} (effect {effect}{via})")
            }
            What::Fell(_) => writeln!(out, "{who} falls (effect {effect}{via})"),
            What::Die(_) | What::Rolled(..) | What::Kept(_) => {
                let verb = if matches!(e.what, What::Rolled(..)) {
                    "rolls "
                } else {
                    ""
                };
                match rolls.event(e) {
                    Some(line) => writeln!(out, "{who} {verb}{line} (effect {effect}{via})"),
                    None => Ok(()),
                }
            }
        };
    }
    out.push('\n');
    match rows {
        None => out.push_str(&state_table(rules, names, state, Sight::All)),
        Some(rows) => {
            out.push_str(&rows_table(rules, names, state, rows));
            out.push('\n');
            out.push_str(&eval_zones::zones_text(rules, state, names));
        }
    }
    out
}

/// [`state_table`] of the entities `rows` alone, as `eval` shows a state
/// with cards in zones.
fn rows_table(rules: &RuleSet, names: &[String], state: &State, rows: &[EntityId]) -> String {
    let entity = |i: EntityId| rows.get(i.index()).copied().unwrap_or(EntityId::MAX);
    let held = |i: EntityId| -> Vec<String> {
        state
            .statuses_of(entity(i))
            .map(|s| status_cell(rules, s.status, s.turns_left(), Sight::All))
            .collect()
    };
    let table = Table {
        entities: rows.len(),
        value: &|i, attr| state.get(entity(i), attr),
        live: &|i| state.is_live(entity(i)),
        held: &held,
    };
    let shown: Vec<String> = rows.iter().map(|&e| name_of(names, e)).collect();
    table.render(rules, &shown)
}

/// An entity's name in `eval` output; entities added in play by number.
fn name_of(names: &[String], entity: EntityId) -> String {
    names
        .get(entity.index())
        .cloned()
        .unwrap_or_else(|| format!("#{entity}"))
}

/// Equal names next to each other said once with their count (`seed ×4096`)
/// when there are more than eight: a status that multiplied stays one line.
fn runs(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < names.len() {
        let n = names[i..].iter().take_while(|x| **x == names[i]).count();
        if n > 8 {
            out.push(format!("{} ×{n}", names[i]));
        } else {
            out.extend(names[i..i + n].iter().cloned());
        }
        i += n;
    }
    out
}

/// The state as a table: one row per entity, one column per attribute, and
/// the statuses each holds as `sight` may see them.
pub fn state_table(rules: &RuleSet, rows: &[String], state: &State, sight: Sight) -> String {
    let held = |entity: EntityId| -> Vec<String> {
        state
            .statuses_of(entity)
            .filter(|i| sight.shows(rules, i.status))
            .map(|i| status_cell(rules, i.status, i.turns_left(), sight))
            .collect()
    };
    let table = Table {
        entities: state.len(),
        value: &|entity, attr| state.get(entity, attr),
        live: &|entity| state.is_live(entity),
        held: &held,
    };
    table.render(rules, rows)
}

/// A status as a table's cell lists it: `weakness (2)`, and the spectator's mark.
pub(crate) fn status_cell(
    rules: &RuleSet,
    status: StatusId,
    left: Option<u32>,
    sight: Sight,
) -> String {
    let name = &rules.statuses[status];
    let mark = sight.mark(rules, status);
    match left {
        Some(n) => format!("{name} ({n}){mark}"),
        None => format!("{name}{mark}"),
    }
}

/// What a state table shows, read from a state or from one seat's view.
pub(crate) struct Table<'a> {
    /// How many entities there are.
    pub(crate) entities: usize,
    /// An entity's value of an attribute.
    pub(crate) value: &'a dyn Fn(EntityId, AttrId) -> i64,
    /// Whether an entity is still in play.
    pub(crate) live: &'a dyn Fn(EntityId) -> bool,
    /// The statuses an entity is shown holding, each as its cell says it.
    pub(crate) held: &'a dyn Fn(EntityId) -> Vec<String>,
}

impl Table<'_> {
    /// The table: one row per name of `rows`, one column per attribute.
    pub(crate) fn render(&self, rules: &RuleSet, rows: &[String]) -> String {
        let name_width = rows.iter().map(String::len).max().unwrap_or(0);
        // Each column shown: an attribute without `:table false`, and its width.
        let columns: Vec<(usize, usize)> = rules
            .attributes
            .iter()
            .enumerate()
            .filter(|&(i, _)| {
                rules
                    .attribute_defs
                    .get(AttrId::new(i))
                    .is_none_or(|d| d.in_table)
            })
            .map(|(i, a)| {
                let w = EntityId::below(self.entities)
                    .map(|s| (self.value)(s, AttrId::new(i)).to_string().len())
                    .chain([a.len()])
                    .max()
                    .unwrap_or(0);
                (i, w)
            })
            .collect();
        let mut out = " ".repeat(name_width);
        for &(i, w) in &columns {
            let _ = write!(out, "  {:>w$}", rules.attributes[AttrId::new(i)]);
        }
        out.push('\n');
        for (entity, who) in EntityId::below(usize::MAX).zip(rows) {
            let _ = write!(out, "{who:<name_width$}");
            for &(i, w) in &columns {
                let _ = write!(out, "  {:>w$}", (self.value)(entity, AttrId::new(i)));
            }
            if entity.index() < self.entities && !(self.live)(entity) {
                out.push_str("  (out of play)");
            }
            let held = (self.held)(entity);
            if !held.is_empty() {
                let _ = write!(out, "  [{}]", runs(&held).join(", "));
            }
            out.push('\n');
        }
        out
    }
}

fn eval_json(shown: &Shown<'_>) -> Value {
    let Shown {
        rules,
        state,
        events,
        fell,
        names,
        rows,
    } = *shown;
    let mut entities = serde_json::Map::new();
    let listed: Vec<(EntityId, &String)> = match rows {
        None => EntityId::below(usize::MAX).zip(names).collect(),
        Some(rows) => rows
            .iter()
            .filter_map(|&e| Some((e, names.get(e.index())?)))
            .collect(),
    };
    for (entity, who) in listed {
        let mut attrs: serde_json::Map<String, Value> = rules
            .attributes
            .iter()
            .enumerate()
            .map(|(i, a)| (a.clone(), json!(state.get(entity, AttrId::new(i)))))
            .collect();
        // Keys only a rule set with statuses or removals shows, so others' JSON keeps its shape.
        if !rules.statuses.is_empty() {
            let held: Vec<Value> = state
                .statuses_of(entity)
                .map(|i| {
                    json!({
                        "id": rules.statuses[i.status],
                        "left": i.turns_left(),
                        "stacks": i.stacks,
                        "magnitude": i.magnitude,
                    })
                })
                .collect();
            attrs.insert("statuses".into(), Value::Array(held));
        }
        if rules.removed_when.iter().any(Option::is_some) {
            attrs.insert("alive".into(), json!(state.is_live(entity)));
        }
        entities.insert(who.clone(), Value::Object(attrs));
    }
    let pile_key = |pile: u16| {
        (pile != crate::eval::zones::MADE).then(|| eval_zones::pile_key(rules, pile, names))
    };
    let events: Vec<Value> = events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut event = serde_json::Map::new();
            event.insert("entity".into(), json!(name_of(names, e.entity)));
            match e.what {
                What::Attr(attr) => {
                    event.insert("attribute".into(), json!(rules.attributes[attr]));
                }
                What::Spawned(kind) => {
                    event.insert("spawned".into(), json!(rules.kinds[kind]));
                }
                What::Status(status, change) => {
                    event.insert("status".into(), json!(rules.statuses[status]));
                    event.insert("change".into(), json!(change));
                }
                // A die: `after` its face, `before` 1 if it counted.
                What::Die(sides) => {
                    event.insert("die".into(), json!(sides));
                }
                // A roll's total: `after` the total, `before` the modifier.
                What::Rolled(sides, keep) => {
                    event.insert("roll".into(), json!(sides));
                    event.insert("keep".into(), json!(keep));
                }
                What::Kept(higher) => {
                    event.insert(
                        "kept".into(),
                        json!(if higher { "higher" } else { "lower" }),
                    );
                }
                // Piles by the keys of the `zones` object; a card just made from none.
                What::Shown(pile) => {
                    event.insert("shown".into(), json!(pile_key(pile)));
                }
                What::Fell(pile) => {
                    event.insert("fell".into(), json!(pile_key(pile)));
                }
                What::Moved(from, to) => {
                    event.insert("moved".into(), json!([pile_key(from), pile_key(to)]));
                }
                What::Shuffled(pile, from) => {
                    event.insert("shuffled".into(), json!([pile_key(pile), pile_key(from)]));
                }
            }
            event.insert("before".into(), json!(e.before));
            event.insert("after".into(), json!(e.after));
            event.insert("effect".into(), json!(u32::from(e.cause.effect) + 1));
            if matches!(e.what, What::Moved(..)) && fell.iter().any(|r| r.contains(&i)) {
                event.insert("fell".into(), json!(true));
            }
            let via = e.cause.via().map(|o| rules.operations[o].clone());
            event.insert("via".into(), json!(via));
            if let Some(s) = e.cause.status() {
                event.insert("by".into(), json!(rules.statuses[s]));
            }
            Value::Object(event)
        })
        .collect();
    match rows {
        None => json!({ "state": entities, "events": events }),
        Some(_) => json!({
            "state": entities,
            "events": events,
            "zones": eval_zones::zones_json(rules, state, names),
        }),
    }
}
