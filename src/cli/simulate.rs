//! `grimoire simulate`: many seeded AI games ([`crate::sim`]), shown as win
//! rates and per-card figures in a table, CSV or JSON.
//!
//! Game `i` is seeded from the run's seed and `i` alone, and every tally is a
//! sum of integers, so the result is the same whatever the thread count.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::compare::Heading;
use super::deck::{changed_line, deck_line, load_changed_deck, load_deck};
use super::table::{csv_cell, name_width, points};
use super::{Format, Output, to_json};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::engine::ai::Policy;
use crate::engine::{Game, Log};
use crate::files::CardChange;
use crate::sim::compare::{Comparison, Side};
use crate::sim::metrics::{CardMetric, Mean};
use crate::sim::report::{DEFAULT_SORT, rate};
use crate::sim::{
    Played, Rate, RunFigures, Shard, Tally, fingerprint, run_all, run_range, sort_columns,
};

/// What `grimoire simulate` needs.
#[derive(Clone, Debug, clap::Args)]
pub struct SimArgs {
    /// Rule set: a name (the project's, else a bundled one such as arcomage) or a rule-set file.
    pub rules: String,
    /// How many games (at most a billion).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The run's seed: the same seed gives the same figures.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// AI policy, once for every seat or once per seat (default: random for every seat): random,
    /// greedy (one move ahead by the rule set's :ai :score), search (two moves ahead, the replies
    /// in 4 deals of the unseen cards; slow), mcts (a tree search of --budget iterations a move,
    /// `mcts:300` for 300; slowest, strongest). Figures from random play can mislead; see
    /// docs/PLAYERS.md for which to balance with.
    #[arg(long, value_parser = super::policy_parser())]
    pub ai: Vec<Policy>,
    /// Worker threads (default: every core; more than the cores runs one per core, with a
    /// note). The figures do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Card files or folders (default: the rule set's own, its project's or the bundled cards/NAME and effects/NAME).
    #[arg(long)]
    pub cards: Vec<PathBuf>,
    /// The encounter to set every game up as, for a rule set with `:encounters` (default: the first it declares).
    #[arg(long)]
    pub encounter: Option<String>,
    /// The number of players, for a rule set with `:players` (default: its `:default`): the first N seats play.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Output format (`main` reads `--format`, which also gives `csv`).
    #[arg(skip)]
    pub format: Format,
    /// CSV instead of `format`: the per-card table's rows and columns.
    #[arg(skip)]
    pub csv: bool,
    /// The per-card column to sort by, highest first (default improvement; `card` by name, `deck` in deck order;
    /// a metric's name, by its improvement when drawn); every format.
    #[arg(long)]
    pub sort: Option<String>,
    /// A second deck (files or folders) to play the same seeds with: report what changed, with intervals.
    #[arg(long = "versus-cards", value_name = "VERSUS_CARDS")]
    pub versus: Vec<PathBuf>,
    /// Also write the figures as one self-contained HTML page (charts inline as SVG, tables
    /// sortable and filterable, no network); with --versus-cards, the comparison's page.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Record game N (from 1) of the run to a file `replay` reads (`--record-game N FILE`, read by `main`).
    #[arg(skip)]
    pub record_game: Option<(u64, PathBuf)>,
    /// Play only this share of the run's games (`--shard K/N`, read by `main`).
    #[arg(skip)]
    pub shard: Option<Shard>,
    /// Changes made to the deck's cards before the run (`--change CARD:KEY=VALUE`, read by `main`).
    #[arg(skip)]
    pub changes: Vec<CardChange>,
    /// Show a progress bar on standard error.
    #[arg(skip)]
    pub progress: bool,
    /// Colour diagnostics.
    #[arg(skip)]
    pub color: bool,
}

impl SimArgs {
    /// The column rows are sorted by.
    fn sort(&self) -> &str {
        self.sort.as_deref().unwrap_or(DEFAULT_SORT)
    }

    /// The games (by number in the run) this process plays: all, or its shard's.
    pub fn games_played(&self) -> Range<u64> {
        self.shard.map_or(0..self.games, |s| s.games(self.games))
    }
}

/// A run ready to play: every check `simulate` makes before a game is
/// played passed, the rule set and decks loaded, the workers started.
pub struct Prepared {
    /// The rule set.
    pub rules: RuleSet,
    /// The deck's cards, changed as asked.
    pub deck: Vec<Card>,
    /// Where the deck came from.
    pub source: String,
    /// Where the rule set came from, when a project's ("arcomage of project
    /// x (rules/arcomage.edn), not the bundled one").
    pub rules_from: Option<String>,
    /// The deck's line in the table's head.
    pub deck_shown: String,
    /// The second deck of a comparison (`--versus-cards`): its line and cards.
    pub versus: Option<(String, Vec<Card>)>,
    /// The worker threads.
    pub pool: rayon::ThreadPool,
    /// Each seat's policy's name.
    pub policies: Vec<String>,
    /// What the run says on standard error before its figures: `--threads`
    /// past the machine's cores, say.
    pub notes: String,
}

impl Prepared {
    /// What the figures are shown with besides their sums.
    fn run(&self) -> Run<'_> {
        Run {
            rules: &self.rules,
            deck: &self.deck,
            source: &self.source,
            rules_from: self.rules_from.as_deref(),
            deck_shown: &self.deck_shown,
            policies: &self.policies,
        }
    }
}

/// The rule set and deck a run plays: the deck changed as asked, games set
/// up as the encounter asked.
pub(super) fn load_run(args: &SimArgs) -> Result<(RuleSet, crate::files::Deck), Output> {
    let (mut rules, deck) = load_changed_deck(
        &args.rules,
        &args.cards,
        &args.changes,
        args.format,
        args.color,
    )?;
    if let Some(name) = &args.encounter {
        rules.choose_encounter(name).map_err(Output::usage)?;
    }
    if let Some(n) = args.players {
        rules.choose_players(n).map_err(Output::usage)?;
    }
    Ok((rules, deck))
}

/// Every check `simulate` makes before a game is played, in the order it
/// makes them, then the rule set and decks loaded and the workers started;
/// a failure is the command's output (what the Python package raises too).
pub fn prepare(args: &SimArgs) -> Result<Prepared, Output> {
    check_args(args)?;
    let (rules, deck) = load_run(args)?;
    check_sort(args.sort(), &rules)?;
    super::check_policies(&args.ai, &rules)?;
    // A shared deck that cannot fill every hand leaves the last seats with
    // few cards or none, passing all game. (A per-seat deck deals each seat
    // its own copy; its hand size is only a cap.)
    if let Some(zones) = rules.cards.as_ref().filter(|z| !z.per_seat) {
        let copies: usize = deck.cards.iter().map(|c| usize::from(c.play.copies)).sum();
        let needed = zones.hand_size * rules.seats.len();
        if copies < needed {
            return Err(Output::usage(format!(
                "the deck holds {copies} cards, but {} hands of {} need {needed}: add cards",
                rules.seats.len(),
                zones.hand_size
            )));
        }
    }
    let source = deck.source.to_string();
    let rules_from = deck.rules_from.clone();
    let deck_shown = changed_line(deck_line(&deck), &args.changes);
    let deck = deck.cards;
    if let Err(e) = Game::new(&rules, &deck, 0, Log::Skip) {
        return Err(Output::usage(e.to_string()));
    }
    let (pool, notes) = worker_pool(args.threads)?;
    // The second deck, played on the same seeds, when comparing.
    let versus = if args.versus.is_empty() {
        None
    } else {
        let (_, d) = load_deck(&args.rules, &args.versus, args.color)?;
        Some((deck_line(&d), d.cards))
    };
    let policies = (0..rules.seats.len())
        .map(|s| Policy::for_seat(&args.ai, s).spec())
        .collect();
    Ok(Prepared {
        rules,
        deck,
        source,
        rules_from,
        deck_shown,
        versus,
        pool,
        policies,
        notes,
    })
}

/// The worker threads for `--threads` (every core when not given), and the
/// note said when more were asked than the machine has cores: each would
/// only wait for a core (ten thousand of them loaded a machine past 2,000),
/// and the figures never depend on how many there are.
pub(crate) fn worker_pool(threads: Option<usize>) -> Result<(rayon::ThreadPool, String), Output> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let (threads, note) = match threads {
        Some(n) if n > cores => (
            cores,
            format!(
                "note: --threads {n}: this machine has {cores} core{}; running {cores} worker thread{} (the figures do not depend on it)\n",
                crate::diag::plural(cores),
                crate::diag::plural(cores)
            ),
        ),
        Some(n) => (n, String::new()),
        None => (0, String::new()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Output::usage(format!("cannot start worker threads: {e}")))?;
    Ok((pool, note))
}

/// `--sort`: a per-card column, or one of the rule set's metrics.
fn check_sort(sort: &str, rules: &RuleSet) -> Result<(), Output> {
    let columns = sort_columns();
    if columns.contains(&sort) || crate::sim::report::metric_sort(rules, sort).is_some() {
        return Ok(());
    }
    let metrics = if rules.metrics.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = rules.metrics.iter().map(|m| m.name.as_str()).collect();
        format!("; the metrics are {}", names.join(", "))
    };
    Err(Output::usage(format!(
        "--sort {sort}: not a column; the columns are {}{metrics}",
        columns.join(", ")
    )))
}

/// The most games one run may ask for: a billion, hours on a few cores and
/// intervals far narrower than any card's effect; past it is a slip of the
/// keyboard (`--games 18446744073709551615` would run for centuries).
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The checks of the arguments alone, before anything is loaded.
fn check_args(args: &SimArgs) -> Result<(), Output> {
    if args.games == 0 {
        return Err(Output::usage(
            "--games 0: nothing to simulate; give 1 or more".to_string(),
        ));
    }
    if args.games > MAX_GAMES {
        return Err(Output::usage(format!(
            "--games {}: at most {MAX_GAMES} games in one run; spread more over runs with other seeds",
            args.games
        )));
    }
    if args.threads == Some(0) {
        return Err(Output::usage(
            "--threads 0: give 1 or more, or leave it out to use every core".to_string(),
        ));
    }
    // A sort that is no column may name a metric: checked once the rule set is loaded.
    // What a comparison does not do, said before any game is played.
    if !args.versus.is_empty() {
        for (given, what) in [
            (args.record_game.is_some(), "--record-game"),
            (args.sort.is_some(), "--sort"),
        ] {
            if given {
                return Err(Output::usage(format!(
                    "{what} is for one deck; with --versus-cards the changes are listed, significant first"
                )));
            }
        }
    }
    if let Some(shard) = args.shard {
        let rerun = "merge the shards' JSON with `grimoire merge`, then run it once";
        for (given, what, instead) in [
            (!args.versus.is_empty(), "--versus-cards", rerun),
            (
                args.report.is_some(),
                "--report",
                "write it as the shards' JSON are merged: `grimoire merge SHARDS… --report FILE.html`",
            ),
            (args.record_game.is_some(), "--record-game", rerun),
        ] {
            if given {
                return Err(Output::usage(format!(
                    "--shard {}/{}: {what} needs the whole run; {instead}",
                    shard.index, shard.of
                )));
            }
        }
    }
    // Files to write, and the game to record, checked before the run.
    if let Some((n, _)) = &args.record_game
        && (*n == 0 || *n > args.games)
    {
        return Err(Output::usage(format!(
            "--record-game {n}: the run's games are 1 to {}",
            args.games
        )));
    }
    for path in args
        .report
        .iter()
        .chain(args.record_game.as_ref().map(|(_, p)| p))
    {
        if let Err(e) = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
        {
            return Err(Output::usage(format!("{}: {e}", path.display())));
        }
    }
    Ok(())
}

/// `grimoire simulate`.
pub fn simulate(args: &SimArgs) -> Output {
    let prepared = match prepare(args) {
        Ok(p) => p,
        Err(out) => return out,
    };
    let Prepared {
        rules, deck, pool, ..
    } = &prepared;
    let done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let versus = prepared.versus.as_ref();
    let games = args.games_played();
    let played = games.end - games.start;
    let total = played * if versus.is_some() { 2 } else { 1 };
    let (tally, versus_tally) = std::thread::scope(|scope| {
        if args.progress {
            scope.spawn(|| progress_bar(&done, &finished, total));
        }
        let tally = pool.install(|| run_range(rules, deck, args.seed, games, &args.ai, &done));
        let other = versus.map(|(_, cards)| {
            pool.install(|| run_all(rules, cards, args.seed, args.games, &args.ai, &done))
        });
        finished.store(true, Ordering::Relaxed);
        (tally, other)
    });
    if let (Some((versus_shown, versus_deck)), Some(versus_tally)) = (versus, &versus_tally) {
        let a = Side {
            deck,
            tally: &tally,
        };
        let b = Side {
            deck: versus_deck,
            tally: versus_tally,
        };
        let heading = Heading {
            games: args.games,
            seed: args.seed,
            policies: &prepared.policies,
            decks: [&prepared.deck_shown, versus_shown],
        };
        let comparison = Comparison::new(rules.seats.len(), &a, &b).with_metrics(rules, &a, &b);
        let mut out = super::compare::report(rules, &heading, &comparison, args.format, args.csv);
        if let Some(path) = &args.report {
            let page = super::compare::page(rules, &heading, [deck, versus_deck], &comparison);
            if let Err(e) = std::fs::write(path, super::report::versus_html(&page)) {
                return Output::usage(format!("{}: {e}", path.display()));
            }
            let _ = writeln!(out.stderr, "report written to {}", path.display());
        }
        out.stderr.insert_str(0, &prepared.notes);
        return out;
    }
    let run = prepared.run();
    let json = SimJson::new(&run, args, &tally);
    let mut notes = String::new();
    if let Some((n, path)) = &args.record_game {
        if let Err(e) = super::play::record_simulated_game(
            &args.rules,
            &args.cards,
            (args.encounter.as_deref(), args.players),
            args.seed,
            *n,
            &args.ai,
            path,
        ) {
            return Output::usage(e);
        }
        let _ = writeln!(notes, "game {n} recorded to {}", path.display());
    }
    if let Some(path) = &args.report {
        if let Err(e) = std::fs::write(
            path,
            super::report::html(&page(&run, args, &json.figures, &tally.lengths)),
        ) {
            return Output::usage(format!("{}: {e}", path.display()));
        }
        let _ = writeln!(notes, "report written to {}", path.display());
    }
    Output {
        stderr: prepared.notes.clone() + &notes,
        stdout: print(run.deck_shown, args, &json),
        ..Output::default()
    }
}

/// The HTML page of a whole run's figures (`--report`, and `merge
/// --report` of its shards: the same page), `lengths` its games by length.
pub(super) fn page<'a>(
    run: &Run<'a>,
    args: &SimArgs,
    figures: &'a RunFigures,
    lengths: &'a [u64],
) -> super::report::Page<'a> {
    let players: Vec<String> = figures
        .seats
        .iter()
        .map(|s| format!("{} {}", s.seat, s.ai))
        .collect();
    super::report::Page {
        title: format!(
            "{}{} · {} games · seed {} · {}",
            run.rules.name,
            figures
                .encounter
                .as_ref()
                .map(|e| format!(" · encounter {e}"))
                .unwrap_or_default(),
            args.games,
            args.seed,
            players.join(" vs ")
        ),
        deck: run.deck_shown,
        rules: run.rules,
        players: figures
            .seats
            .iter()
            .map(|s| (s.seat.clone(), s.ai.clone()))
            .collect(),
        seats: figures
            .seats
            .iter()
            .map(|s| (s.seat.clone(), s.win_rate))
            .collect(),
        losses: figures
            .seats
            .iter()
            .filter_map(|s| Some((s.seat.clone(), rate(s.losses?, figures.games))))
            .collect(),
        lengths,
        cards: figures
            .cards
            .iter()
            .map(|c| (&run.deck[c.index], c.counts, c.figures))
            .collect(),
        metrics: &figures.metrics,
    }
}

/// What a run's figures are shown with besides its sums.
pub(super) struct Run<'a> {
    pub(super) rules: &'a RuleSet,
    pub(super) deck: &'a [Card],
    /// Where the deck came from.
    pub(super) source: &'a str,
    /// Where the rule set came from, when a project's.
    pub(super) rules_from: Option<&'a str>,
    /// The deck's line in the table's head.
    pub(super) deck_shown: &'a str,
    /// Each seat's policy's name.
    pub(super) policies: &'a [String],
}

/// What a shard's JSON says about the run it is a share of, for `merge` to
/// check the other shares against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardOf {
    /// Which share, from 1.
    pub index: u64,
    /// How many shares.
    pub of: u64,
    /// The whole run's games.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// The rule set as given.
    pub rules: String,
    /// The card files or folders as given.
    pub cards: Vec<String>,
    /// The encounter asked for (`--encounter`), if one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<String>,
    /// The number of players asked for (`--players`), if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// Each seat's policy's name.
    pub ai: Vec<String>,
    /// The column asked to sort by.
    pub sort: Option<String>,
    /// The changes made to the deck's cards.
    #[serde(default)]
    pub changes: Vec<CardChange>,
    /// The rule set's and deck's digest ([`fingerprint`]).
    pub fingerprint: String,
}

impl ShardOf {
    /// The same run as `other`, whichever share each is.
    pub(super) fn same_run(&self, other: &ShardOf) -> bool {
        ShardOf {
            index: other.index,
            ..self.clone()
        } == *other
    }
}

/// What `simulate --format json` prints: the figures, and for a shard
/// (`--shard`) what the run is and its sums, which `merge` adds up. The
/// Python package builds its dictionaries from this, as the JSON is printed.
#[derive(Clone, Debug, PartialEq)]
pub struct SimJson {
    /// The figures of the games played here.
    pub figures: RunFigures,
    /// For a shard: the run it is a share of, and the sums of its games.
    pub shard: Option<(ShardOf, Tally)>,
}

impl SimJson {
    /// The figures of `tally`, games played as `args` asked; the rates out of
    /// the games played here (a shard's own).
    pub(super) fn new(run: &Run<'_>, args: &SimArgs, tally: &Tally) -> SimJson {
        let changes: Vec<String> = args.changes.iter().map(ToString::to_string).collect();
        let played = Played {
            rules: run.rules,
            deck: run.deck,
            source: run.source,
            rules_from: run.rules_from,
            changes: &changes,
            policies: run.policies,
            seed: args.seed,
        };
        let shard = args.shard.map(|shard| {
            let of = ShardOf {
                index: shard.index,
                of: shard.of,
                games: args.games,
                seed: args.seed,
                rules: args.rules.clone(),
                cards: args
                    .cards
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect(),
                encounter: args.encounter.clone(),
                players: args.players,
                ai: run.policies.iter().map(ToString::to_string).collect(),
                sort: args.sort.clone(),
                changes: args.changes.clone(),
                fingerprint: fingerprint(run.rules, run.deck),
            };
            (of, tally.clone())
        });
        SimJson {
            figures: RunFigures::new(&played, tally, args.sort()),
            shard,
        }
    }

    /// Of a prepared run (see [`prepare`]) that played `tally`.
    pub fn of(prepared: &Prepared, args: &SimArgs, tally: &Tally) -> SimJson {
        SimJson::new(&prepared.run(), args, tally)
    }

    /// As the JSON prints it: the figures' fields, then `shard` and `raw`
    /// (the sums) for a shard.
    pub fn to_value(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(&self.figures).unwrap_or_default();
        if let Some((shard, raw)) = &self.shard {
            value["shard"] = serde_json::to_value(shard).unwrap_or_default();
            value["raw"] = serde_json::to_value(raw).unwrap_or_default();
        }
        value
    }
}

/// The figures in the format `args` asks for: a whole run's, or (with
/// `args.shard`) one share's, whose JSON also carries the sums and what
/// `grimoire merge` checks the other shares against.
pub(super) fn print(deck_shown: &str, args: &SimArgs, json: &SimJson) -> String {
    match args.format {
        _ if args.csv => report_csv(&json.figures),
        Format::Human => render(deck_shown, args, &json.figures),
        Format::Json => to_json(&json.to_value()),
    }
}

fn render(deck_shown: &str, args: &SimArgs, figures: &RunFigures) -> String {
    let mut out = String::new();
    let players: Vec<String> = figures
        .seats
        .iter()
        .map(|s| format!("{} {}", s.seat, s.ai))
        .collect();
    let _ = writeln!(
        out,
        "{}{} · {} games{} · seed {} · {}",
        figures.rules,
        figures
            .encounter
            .as_ref()
            .map(|e| format!(" · encounter {e}"))
            .unwrap_or_default(),
        figures.games,
        args.shard
            .map(|s| format!(" (shard {}/{})", s.index, s.of))
            .unwrap_or_default(),
        figures.seed,
        players.join(" vs ")
    );
    let _ = writeln!(out, "{deck_shown}");
    let _ = writeln!(out, "\n{:<7} {:>8} {:>7}", "seat", "wins", "rate");
    let losses: Vec<(String, u64)> = figures
        .seats
        .iter()
        .filter_map(|s| Some((format!("{} lost", s.seat), s.losses?)))
        .collect();
    let rows = figures
        .seats
        .iter()
        .map(|s| (s.seat.as_str(), s.wins))
        .chain(losses.iter().map(|(name, n)| (name.as_str(), *n)))
        .chain([
            ("ties", figures.ties),
            ("limit", figures.turn_limits),
            ("stuck", figures.no_action),
            ("refused", figures.refused),
        ]);
    for (name, n) in rows {
        let _ = writeln!(
            out,
            "{name:<7} {n:>8} {:>6.1}%",
            100.0 * rate(n, figures.games)
        );
    }
    // An aborted game is neither a draw nor a loss: its own rows, when there are any.
    for (why, n) in &figures.aborted {
        let _ = writeln!(
            out,
            "aborted {n:>8} {:>6.1}%  ({why} budget ran out: `grimoire check --explain E0801`)",
            100.0 * rate(*n, figures.games)
        );
    }
    let _ = writeln!(out, "\nmean length: {:.1} turns", figures.mean_turns);
    metrics_block(&mut out, figures);
    // A rule set without cards has no card table to show.
    if figures.cards.is_empty() {
        return out;
    }
    let width = name_width(figures.cards.iter().map(|c| c.card.as_str()));
    let _ = writeln!(
        out,
        "\n{:<width$} {:>8} {:>7} {:>9} {:>6}  {:<18}  {:<18}  {:<18}  {:<21} {:>5}",
        "card",
        "in hand",
        "played",
        "discarded",
        "play%",
        "in-hand win rate",
        "played win rate",
        "not-seen win rate",
        "improvement",
        "turn"
    );
    let pct = |r: Rate| {
        format!(
            "{:5.1}% ({:4.1}-{:4.1})",
            100.0 * r.value,
            100.0 * r.low,
            100.0 * r.high
        )
    };
    for c in &figures.cards {
        let (counts, f) = (&c.counts, &c.figures);
        let _ = writeln!(
            out,
            "{:<width$} {:>8} {:>7} {:>9} {:>5.1}%  {:<18}  {:<18}  {:<18}  {:<21} {:>5.1}",
            c.card,
            counts.in_hand,
            counts.plays,
            counts.discards,
            100.0 * f.play_rate.value,
            pct(f.in_hand),
            pct(f.played),
            pct(f.not_seen),
            points(&f.improvement),
            f.mean_turn,
        );
    }
    let _ = writeln!(
        out,
        "\nrates with 95% intervals; improvement = in-hand minus not-seen win rate, * when its interval leaves out 0 (see `grimoire simulate --help`)"
    );
    metric_card_tables(&mut out, figures);
    out
}

/// A mean with its interval, "2.41 (2.21,2.61)"; "-" of no value.
fn mean_cell(m: &Mean) -> String {
    if m.n == 0 {
        "-".to_string()
    } else {
        format!("{:.2} ({:.2},{:.2})", m.value, m.low, m.high)
    }
}

/// A card's improvement on a metric, "+2.31 (+2.01,+2.61)*"; "-" without
/// two games on each side.
fn improvement_cell(c: &CardMetric) -> String {
    super::table::mean_difference(&c.improvement, c.in_hand.n >= 2 && c.not_seen.n >= 2)
}

/// The declared metrics after the win figures: each one's mean over the
/// games and each seat's, with intervals. Nothing for a rule set without.
fn metrics_block(out: &mut String, figures: &RunFigures) {
    if figures.metrics.is_empty() {
        return;
    }
    let width = name_width(figures.metrics.iter().map(|m| m.name.as_str())).max(6);
    let mut rows: Vec<Vec<String>> = vec![
        std::iter::once("all seats".to_string())
            .chain(figures.seats.iter().map(|s| s.seat.clone()))
            .collect(),
    ];
    for m in &figures.metrics {
        rows.push(
            std::iter::once(mean_cell(&m.overall))
                .chain(m.seats.iter().map(|(_, mean)| mean_cell(mean)))
                .collect(),
        );
    }
    let cells = rows[0].len();
    let widths: Vec<usize> = (0..cells)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let names = std::iter::once("metric").chain(figures.metrics.iter().map(|m| m.name.as_str()));
    let _ = writeln!(out);
    for (name, row) in names.zip(&rows) {
        let mut line = format!("{name:<width$}");
        for (cell, w) in row.iter().zip(&widths) {
            let _ = write!(line, "  {cell:<w$}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// One per-card table for each metric, its rows in the card table's order:
/// the holder's mean in games the card was in hand, played, not seen, and
/// the improvement when drawn.
fn metric_card_tables(out: &mut String, figures: &RunFigures) {
    if figures.metrics.is_empty() {
        return;
    }
    for m in &figures.metrics {
        let width = name_width(
            figures
                .cards
                .iter()
                .map(|c| c.card.as_str())
                .chain([m.name.as_str()]),
        );
        let rows: Vec<[String; 4]> = m
            .cards
            .iter()
            .map(|(_, c)| {
                [
                    mean_cell(&c.in_hand),
                    mean_cell(&c.played),
                    mean_cell(&c.not_seen),
                    improvement_cell(c),
                ]
            })
            .collect();
        let head = ["in hand", "played", "not seen", "improvement"];
        let widths: Vec<usize> = (0..4)
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([head[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |name: &str, cells: [&str; 4]| {
            let mut line = format!("{name:<width$}");
            for (cell, w) in cells.iter().zip(&widths) {
                let _ = write!(line, "  {cell:<w$}");
            }
            line.trim_end().to_string()
        };
        let _ = writeln!(out, "\n{}", line(&m.name, head));
        for ((card, _), r) in m.cards.iter().zip(&rows) {
            let _ = writeln!(out, "{}", line(card, [&r[0], &r[1], &r[2], &r[3]]));
        }
    }
    let _ = writeln!(
        out,
        "\nmetrics: the holder's mean with its 95% interval (Student's t below 30 games); improvement = in-hand minus not-seen mean (Welch), * when its interval leaves out 0"
    );
}

/// The per-card table as CSV, the same rows and columns as the human table,
/// each rate with its interval's ends.
fn report_csv(figures: &RunFigures) -> String {
    let mut out = String::from(
        "card,in_hand,played,played_games,not_seen_games,discarded,play_rate,in_hand_wr,in_hand_wr_low,in_hand_wr_high,played_wr,played_wr_low,played_wr_high,not_seen_wr,not_seen_wr_low,not_seen_wr_high,improvement,improvement_low,improvement_high,improvement_significant,mean_turn",
    );
    out.push_str(&metric_csv_head(figures));
    out.push('\n');
    for (row, c) in figures.cards.iter().enumerate() {
        let (counts, f) = (&c.counts, &c.figures);
        // A rate out of nothing is left empty, not written as 0.
        let r = |r: Rate| {
            if r.n == 0 {
                ",,".to_string()
            } else {
                format!("{:.4},{:.4},{:.4}", r.value, r.low, r.high)
            }
        };
        let d = f.improvement;
        let improvement = if f.in_hand.n == 0 || f.not_seen.n == 0 {
            ",,,".to_string()
        } else {
            format!(
                "{:.4},{:.4},{:.4},{}",
                d.value,
                d.low,
                d.high,
                d.significant()
            )
        };
        let play_rate = if f.play_rate.n == 0 {
            String::new()
        } else {
            format!("{:.4}", f.play_rate.value)
        };
        let mean_turn = if counts.plays == 0 {
            String::new()
        } else {
            format!("{:.2}", f.mean_turn)
        };
        let _ = write!(
            out,
            "{},{},{},{},{},{},{play_rate},{},{},{},{improvement},{mean_turn}",
            csv_cell(&c.card),
            counts.in_hand,
            counts.plays,
            counts.played_games,
            f.not_seen.n,
            counts.discards,
            r(f.in_hand),
            r(f.played),
            r(f.not_seen),
        );
        let _ = writeln!(out, "{}", metric_csv_cells(figures, row));
    }
    out
}

/// The per-card CSV's columns for the declared metrics, each starting with
/// a comma: for each metric, `metric:NAME:in_hand`, `:played` and
/// `:not_seen` with their intervals' ends, and `:improvement` with its
/// interval and whether it is significant.
fn metric_csv_head(figures: &RunFigures) -> String {
    let mut head = String::new();
    for m in &figures.metrics {
        let name = format!("metric:{}", m.name);
        for part in ["in_hand", "played", "not_seen", "improvement"] {
            let _ = write!(head, ",{name}:{part},{name}:{part}_low,{name}:{part}_high");
        }
        let _ = write!(head, ",{name}:improvement_significant");
    }
    head
}

/// The metric cells of card row `row` of the CSV, as [`metric_csv_head`]
/// names them; a mean of no game, and a difference without two games on
/// each side, left empty.
fn metric_csv_cells(figures: &RunFigures, row: usize) -> String {
    let mut cells = String::new();
    for m in &figures.metrics {
        let Some((_, c)) = m.cards.get(row) else {
            continue;
        };
        for mean in [c.in_hand, c.played, c.not_seen] {
            if mean.n == 0 {
                cells.push_str(",,,");
            } else {
                let _ = write!(cells, ",{:.4},{:.4},{:.4}", mean.value, mean.low, mean.high);
            }
        }
        let d = c.improvement;
        if c.in_hand.n < 2 || c.not_seen.n < 2 {
            cells.push_str(",,,,");
        } else {
            let _ = write!(
                cells,
                ",{:.4},{:.4},{:.4},{}",
                d.value, d.low, d.high, d.significant
            );
        }
    }
    cells
}

fn progress_bar(done: &AtomicU64, finished: &AtomicBool, total: u64) {
    // Shown only on a terminal (the caller checks); indicatif works out the
    // rate and the time left from the positions it is given.
    let style = indicatif::ProgressStyle::with_template(
        "[{bar:30}] {human_pos}/{human_len} games · {msg} games/s · {eta} left",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
    .progress_chars("#>-");
    let bar = indicatif::ProgressBar::new(total).with_style(style);
    let start = std::time::Instant::now();
    while !finished.load(Ordering::Relaxed) {
        let n = done.load(Ordering::Relaxed).min(total);
        bar.set_position(n);
        let secs = start.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("{:.0}", n as f64 / secs));
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}
