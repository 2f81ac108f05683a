//! `grimoire merge`: the figures of a run played in shards (`simulate
//! --shard K/N --format json`), exactly as one process would have printed them.
//!
//! Every figure is worked out from integer sums, and a shard's games are the
//! run's own games with their own seeds, so adding the shards' sums gives the
//! run's sums, whatever machine played which share.

use std::path::PathBuf;

use serde::Deserialize;

use super::deck::{changed_line, deck_line, load_changed_deck};
use super::report;
use super::simulate::{Run, ShardOf, SimArgs, SimJson, page as run_page, print};
use super::{Format, Output};
use crate::engine::ai::Policy;
use crate::sim::{Tally, fingerprint};

/// What `grimoire merge` needs.
#[derive(Clone, Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards' JSON files, every share of one run, in any order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output format (`main` reads `--format`, as `simulate`'s).
    #[arg(skip)]
    pub format: Format,
    /// CSV instead of `format`.
    #[arg(skip)]
    pub csv: bool,
    /// Also write the whole run's figures as one self-contained HTML page: the page
    /// `simulate --report` writes for the same games played in one process.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Colour diagnostics.
    #[arg(skip)]
    pub color: bool,
}

#[derive(Deserialize)]
struct ShardFile {
    shard: ShardOf,
    raw: Tally,
}

/// `grimoire merge`.
pub fn merge(args: &MergeArgs) -> Output {
    if args.files.is_empty() {
        return Output::usage(
            "give the shards' JSON files (from `simulate --shard K/N --format json`)",
        );
    }
    // The page's file is checked before the shards are read, as `simulate`
    // checks it before any game is played.
    if let Some(path) = &args.report
        && let Err(e) = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
    {
        return Output::usage(format!("{}: {e}", path.display()));
    }
    let mut texts = Vec::with_capacity(args.files.len());
    for path in &args.files {
        match crate::files::read_file_text(path) {
            Ok(t) => texts.push((path.display().to_string(), t)),
            Err(e) => return Output::usage(format!("{}: {e}", path.display())),
        }
    }
    let Some(path) = &args.report else {
        return merge_texts(&texts, args.format, args.csv, args.color);
    };
    let m = match merged(&texts, args.format, args.csv, args.color, true) {
        Ok(m) => m,
        Err(out) => return out,
    };
    if let Err(e) = std::fs::write(path, m.page.unwrap_or_default()) {
        return Output::usage(format!("{}: {e}", path.display()));
    }
    Output {
        stdout: print(&m.deck_shown, &m.args, &m.json),
        stderr: format!("report written to {}\n", path.display()),
        ..Output::default()
    }
}

/// [`merge`] of shards given as text, each with the name errors call it by
/// (for callers that hold the JSON, not files: the Python package's Ray tasks).
pub fn merge_texts(texts: &[(String, String)], format: Format, csv: bool, color: bool) -> Output {
    match merged(texts, format, csv, color, false) {
        Ok(m) => Output {
            stdout: print(&m.deck_shown, &m.args, &m.json),
            ..Output::default()
        },
        Err(out) => out,
    }
}

/// The figures of the whole run the shards given as text add up to, as
/// `merge --format json` prints them (the Python package's `merge`); a
/// failure is the command's output.
pub fn merge_figures(texts: &[(String, String)], color: bool) -> Result<SimJson, Output> {
    merged(texts, Format::Json, false, color, false).map(|m| m.json)
}

/// The longest line of a refusal: a shard is anyone's text, and what it
/// holds is quoted back (a forged 16 MB rule-set name made a 16 MB error).
const MAX_ERROR_LINE: usize = 1000;

/// `line` cut to [`MAX_ERROR_LINE`] bytes (on a character boundary), saying
/// how much was left out.
fn clip(line: &str) -> String {
    if line.len() <= MAX_ERROR_LINE {
        return line.to_string();
    }
    let mut end = MAX_ERROR_LINE;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes more)", &line[..end], line.len() - end)
}

/// A merged run: its figures, and what they are shown with.
struct Merged {
    /// The deck's line in the table's head.
    deck_shown: String,
    /// The run's arguments, as the shards give them.
    args: SimArgs,
    json: SimJson,
    /// The run's HTML page, when asked for.
    page: Option<String>,
}

/// The shards given as text, checked to be every share of one run and added
/// up; with `page`, the run's HTML page made too.
fn merged(
    texts: &[(String, String)],
    format: Format,
    csv: bool,
    color: bool,
    page: bool,
) -> Result<Merged, Output> {
    merged_unclipped(texts, format, csv, color, page).map_err(|mut out| {
        out.stderr = out.stderr.lines().map(|l| clip(l) + "\n").collect();
        out
    })
}

/// [`merged`], its refusal's lines as long as what they quote.
fn merged_unclipped(
    texts: &[(String, String)],
    format: Format,
    csv: bool,
    color: bool,
    page: bool,
) -> Result<Merged, Output> {
    let mut shards: Vec<(&str, ShardFile)> = Vec::with_capacity(texts.len());
    for (name, text) in texts {
        match serde_json::from_str::<ShardFile>(text) {
            Ok(shard) => shards.push((name, shard)),
            Err(e) => {
                return Err(Output::failure(format!(
                    "{name}:{}:{}: not a shard of a run ({e}); write one with `grimoire simulate … --shard K/N --format json`",
                    e.line(),
                    e.column()
                )));
            }
        }
    }
    let Some((first_path, first)) = shards.first() else {
        return Err(Output::usage("no shards to merge"));
    };
    let run = first.shard.clone();
    for (path, shard) in &shards[1..] {
        if !shard.shard.same_run(&run) {
            return Err(Output::failure(format!(
                "{path}: a share of another run than {first_path} (rule set, cards, seed, games, AI, sort, shard count and deck must all agree)"
            )));
        }
    }
    // A run is split into at most a million shares (the list below holds one slot each).
    const MAX_SHARDS: u64 = 1 << 20;
    if run.of > MAX_SHARDS {
        return Err(Output::failure(format!(
            "{first_path}: {} shards; a run merges from at most {MAX_SHARDS}",
            run.of
        )));
    }
    let mut seen = vec![None::<&str>; run.of as usize];
    for (path, shard) in &shards {
        let k = shard.shard.index;
        let slot = k
            .checked_sub(1)
            .and_then(|i| seen.get_mut(usize::try_from(i).ok()?));
        match slot {
            Some(Some(other)) => {
                return Err(Output::failure(format!(
                    "{path}: shard {k}/{} again (also {other})",
                    run.of
                )));
            }
            Some(slot) => *slot = Some(*path),
            None => {
                return Err(Output::failure(format!(
                    "{path}: shard {k}/{}: no such share",
                    run.of
                )));
            }
        }
    }
    let missing: Vec<String> = (1..=run.of)
        .zip(&seen)
        .filter(|(_, s)| s.is_none())
        .map(|(k, _)| format!("{k}/{}", run.of))
        .collect();
    if !missing.is_empty() {
        return Err(Output::failure(format!(
            "shard{} {} missing: a merge needs every share of the run",
            crate::diag::plural(missing.len()),
            missing.join(", ")
        )));
    }
    // Every shard sums the same metrics over the same seats and cards: a
    // forged one could otherwise lend the others' shape its missing sums.
    let shape = |t: &Tally| -> Vec<(usize, usize)> {
        t.metrics
            .iter()
            .map(|m| (m.seats.len(), m.cards.len()))
            .collect()
    };
    let first_shape = shape(&first.raw);
    if let Some((path, _)) = shards.iter().find(|(_, s)| shape(&s.raw) != first_shape) {
        return Err(Output::failure(format!(
            "{path}: its sums do not fit the metrics of {first_path}: play the shards again"
        )));
    }
    let mut shards = shards.into_iter().map(|(_, s)| s.raw);
    let Some(first) = shards.next() else {
        return Err(Output::usage("no shards to merge"));
    };
    let tally = shards.fold(first, Tally::merge);
    if tally.games != run.games {
        return Err(Output::failure(format!(
            "the shards hold {} games, but the run had {}",
            tally.games, run.games
        )));
    }
    let cards: Vec<PathBuf> = run.cards.iter().map(PathBuf::from).collect();
    let (mut rules, deck) = load_changed_deck(&run.rules, &cards, &run.changes, format, color)?;
    if let Some(name) = &run.encounter {
        rules.choose_encounter(name).map_err(Output::failure)?;
    }
    if let Some(n) = run.players {
        rules.choose_players(n).map_err(Output::failure)?;
    }
    if fingerprint(&rules, &deck.cards) != run.fingerprint {
        return Err(Output::failure(format!(
            "the rule set or deck ({}) changed since the shards were played: play them again",
            run.rules
        )));
    }
    if !metric_sums_fit(
        &tally,
        rules.metrics.len(),
        rules.seats.len(),
        deck.cards.len(),
    ) {
        return Err(Output::failure(format!(
            "the shards' sums do not fit the metrics of {} ({} declared): play them again",
            run.rules,
            rules.metrics.len()
        )));
    }
    let policies: Vec<String> = run.ai.clone();
    let ai: Option<Vec<Policy>> = policies.iter().map(|p| Policy::from_name(p)).collect();
    let Some(ai) = ai else {
        return Err(Output::failure(format!(
            "unknown AI among {}",
            run.ai.join(", ")
        )));
    };
    let source = deck.source.to_string();
    let deck_shown = changed_line(deck_line(&deck), &run.changes);
    let sim = SimArgs {
        rules: run.rules.clone(),
        cards,
        encounter: run.encounter.clone(),
        players: run.players,
        games: run.games,
        seed: run.seed,
        ai,
        threads: None,
        format,
        csv,
        sort: run.sort.clone(),
        versus: Vec::new(),
        report: None,
        record_game: None,
        shard: None,
        changes: run.changes.clone(),
        progress: false,
        color,
    };
    let shown = Run {
        rules: &rules,
        deck: &deck.cards,
        source: &source,
        rules_from: deck.rules_from.as_deref(),
        deck_shown: &deck_shown,
        policies: &policies,
    };
    let json = SimJson::new(&shown, &sim, &tally);
    let page = page.then(|| report::html(&run_page(&shown, &sim, &json.figures, &tally.lengths)));
    Ok(Merged {
        deck_shown,
        args: sim,
        json,
        page,
    })
}

/// Whether `tally` holds sums of `metrics` metrics for `seats` seats and
/// `cards` cards: a shard is anyone's text, and the figures index them.
fn metric_sums_fit(tally: &Tally, metrics: usize, seats: usize, cards: usize) -> bool {
    tally.metrics.len() == metrics
        && tally
            .metrics
            .iter()
            .all(|m| m.seats.len() == seats && m.cards.len() == seats * cards)
}
