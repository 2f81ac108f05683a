//! `grimoire simulate`: many seeded AI games, win rates and per-card figures.
//!
//! Game `i` is seeded from the run's seed and `i` alone, and every tally is a
//! sum of integers, so the result is the same whatever the thread count.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::cardstats::{Counts, Figures, name_width};
use super::play::{deck_line, load_changed_deck, load_deck, policy};
use super::{Format, Output, to_json};
use crate::defs::Card;
use crate::engine::ai::{Ai, Policy};
use crate::engine::{Ability, Game, Outcome};
use crate::files::CardChange;
use crate::rules::RuleSet;

/// What `grimoire simulate` needs.
#[derive(Clone, Debug)]
pub struct SimArgs {
    /// Rule set name or path.
    pub rules: String,
    /// Card files or folders; empty means the deck bundled with the rule set.
    pub cards: Vec<PathBuf>,
    /// How many games.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// The AI of each seat (one value: both seats).
    pub ai: Vec<Policy>,
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Output format.
    pub format: Format,
    /// CSV instead of `format`: the per-card table's rows and columns.
    pub csv: bool,
    /// The per-card column rows are sorted by, highest first (`card`: by
    /// name; `deck`: in deck order); `None`: by improvement.
    pub sort: Option<String>,
    /// A second deck to play the same seeds with and compare (`--versus-cards`).
    pub versus: Vec<PathBuf>,
    /// Write the figures as a self-contained HTML page here (`--report`).
    pub report: Option<PathBuf>,
    /// Record game N (from 1) of the run to a file `replay` reads (`--record-game N FILE`).
    pub record_game: Option<(u64, PathBuf)>,
    /// Play only this share of the run's games (`--shard K/N`).
    pub shard: Option<Shard>,
    /// Changes made to the deck's cards before the run (`--change CARD:KEY=VALUE`).
    pub changes: Vec<CardChange>,
    /// Show a progress bar on standard error.
    pub progress: bool,
    /// Colour diagnostics.
    pub color: bool,
}

/// Games run by one task: fixed, so the split never depends on the thread count.
const CHUNK: u64 = 256;

/// The games numbered `games`, in tasks of [`CHUNK`] for the rayon pool: the
/// same split wherever games are played in parallel.
pub(super) fn chunks(
    games: std::ops::Range<u64>,
) -> impl ParallelIterator<Item = std::ops::Range<u64>> {
    let count = games.end.saturating_sub(games.start).div_ceil(CHUNK);
    (0..count).into_par_iter().map(move |c| {
        let start = games.start.saturating_add(c.saturating_mul(CHUNK));
        start..start.saturating_add(CHUNK).min(games.end)
    })
}

/// One process's share of a run (`--shard K/N`): the `index`th of `of`
/// blocks of consecutive games, numbered as in the whole run, so each game
/// has the seed it has there and the shards' sums add up to the run's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which share, from 1.
    pub index: u64,
    /// How many shares.
    pub of: u64,
}

impl Shard {
    /// Reads `K/N`, 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text}: give K/N, the Kth of N shares, 1 ≤ K ≤ N (as 2/8)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let of: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || of == 0 || index > of {
            return Err(bad());
        }
        Ok(Shard { index, of })
    }

    /// The games (by number in the run, from 0) this share plays of a run of `games`.
    pub fn games(self, games: u64) -> std::ops::Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.of)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

/// Sums over games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Wins per seat.
    pub wins: Vec<u64>,
    /// Games where both seats won at once.
    pub ties: u64,
    /// Games stopped by the turn limit.
    pub turn_limits: u64,
    /// Games stopped because the player to act had no action the AI could take.
    pub no_action: u64,
    /// Games stopped because the engine refused the action the AI chose.
    pub refused: u64,
    /// Turns over all games.
    pub turns: u64,
    /// Squares of each game's turns, summed: the spread of game length.
    pub turns_sq: u128,
    /// Games by length: `lengths[t]` games lasted `t` turns.
    pub lengths: Vec<u64>,
    /// Each card's counts for each seat, at `seat * cards + card`.
    pub cards: Vec<Counts>,
}

/// Why a simulated game stopped before the engine ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The player to act had nothing the AI could do.
    NoAction,
    /// The engine refused the action the AI chose.
    Refused,
}

impl Tally {
    /// Counts one finished or stopped game: its ending and its length. Returns
    /// the winning seat, if any.
    pub fn count(&mut self, game: &Game<'_>, stop: Option<Stop>) -> Option<usize> {
        self.turns += u64::from(game.turn);
        self.turns_sq += u128::from(game.turn) * u128::from(game.turn);
        let t = game.turn as usize;
        if self.lengths.len() <= t {
            self.lengths.resize(t + 1, 0);
        }
        self.lengths[t] += 1;
        self.games += 1;
        let ending = match (game.outcome(), stop) {
            (Some(Outcome::Win { seat, .. }), _) => {
                self.wins[seat as usize] += 1;
                return Some(seat as usize);
            }
            // Every seat out of play at once is a draw, as the log says.
            (Some(Outcome::Tie | Outcome::NobodyLeft), _) => &mut self.ties,
            (Some(Outcome::TurnLimit), _) => &mut self.turn_limits,
            (None, Some(Stop::NoAction) | None) => &mut self.no_action,
            (None, Some(Stop::Refused)) => &mut self.refused,
        };
        *ending += 1;
        None
    }

    /// An empty tally for `seats` seats and `cards` cards.
    pub fn new(seats: usize, cards: usize) -> Tally {
        Tally {
            wins: vec![0; seats],
            cards: vec![Counts::default(); seats * cards],
            ..Tally::default()
        }
    }

    /// The sums of both.
    pub fn merge(mut self, other: Tally) -> Tally {
        let add = |a: &mut Vec<u64>, b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.wins, &other.wins);
        self.cards
            .iter_mut()
            .zip(&other.cards)
            .for_each(|(a, b)| a.add(b));
        self.ties += other.ties;
        self.turn_limits += other.turn_limits;
        self.no_action += other.no_action;
        self.refused += other.refused;
        self.turns += other.turns;
        self.turns_sq += other.turns_sq;
        if self.lengths.len() < other.lengths.len() {
            self.lengths.resize(other.lengths.len(), 0);
        }
        add(&mut self.lengths, &other.lengths);
        self.games += other.games;
        self
    }
}

/// The seed of game `i` of a run seeded `seed` (SplitMix64, so nearby games differ widely).
pub fn game_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays games `range` and sums them.
pub fn run_games(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    range: std::ops::Range<u64>,
    ai_policies: &[Policy],
    done: &AtomicU64,
) -> Tally {
    let seats = rules.seats.len();
    let mut tally = Tally::new(seats, deck.len());
    let Ok(mut game) = Game::new(rules, deck, game_seed(seed, range.start), false) else {
        return tally;
    };
    let mut ai = Ai::new();
    let n = deck.len();
    // This game's marks for each (seat, card), one bit each: in hand at a
    // decision, played. Bits, set without a branch, and read once a game.
    let words = (seats * n).div_ceil(64);
    let mut in_hand: Vec<u64> = vec![0; words];
    let mut played: Vec<u64> = vec![0; words];
    for i in range {
        game.reset(game_seed(seed, i));
        let mut stop = None;
        while game.outcome().is_none() {
            let seat = game.current as usize;
            for &card in game.hand() {
                let k = seat * n + card as usize;
                in_hand[k / 64] |= 1 << (k % 64);
            }
            let Some(action) = ai.choose(&mut game, policy(ai_policies, seat)) else {
                stop = Some(Stop::NoAction);
                break;
            };
            match action.ability {
                Ability::Card(h) => {
                    let k = seat * n + game.hand()[usize::from(h)] as usize;
                    played[k / 64] |= 1 << (k % 64);
                    tally.cards[k].plays += 1;
                    tally.cards[k].play_turns += u64::from(game.turn);
                }
                Ability::Discard(h) => {
                    tally.cards[seat * n + game.hand()[usize::from(h)] as usize].discards += 1;
                }
                Ability::Action(_) => {}
            }
            if game.act(action).is_err() {
                stop = Some(Stop::Refused);
                break;
            }
        }
        let winner = tally.count(&game, stop);
        for (w, (hand_word, played_word)) in in_hand.iter_mut().zip(&mut played).enumerate() {
            // A card played was in hand at that decision: its bit is in both.
            let mut bits = std::mem::take(hand_word);
            let plays = std::mem::take(played_word);
            while bits != 0 {
                let k = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let won = u64::from(winner == Some(k / n));
                let c = &mut tally.cards[k];
                c.in_hand += 1;
                c.in_hand_won += won;
                if plays & (1 << (k % 64)) != 0 {
                    c.played_games += 1;
                    c.played_games_won += won;
                }
            }
        }
        done.fetch_add(1, Ordering::Relaxed);
    }
    // Every card's holder played every game: the not-seen rates need it.
    for (k, c) in tally.cards.iter_mut().enumerate() {
        c.games = tally.games;
        c.wins = tally.wins[k / n.max(1)];
    }
    tally
}

/// Runs `games` games on the current rayon pool.
pub fn run_all(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    games: u64,
    ai: &[Policy],
    done: &AtomicU64,
) -> Tally {
    run_range(rules, deck, seed, 0..games, ai, done)
}

/// Runs the games numbered `games` of a run seeded `seed` on the current
/// rayon pool: a shard's share of a run.
pub fn run_range(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    games: std::ops::Range<u64>,
    ai: &[Policy],
    done: &AtomicU64,
) -> Tally {
    chunks(games)
        .map(|range| run_games(rules, deck, seed, range, ai, done))
        .reduce(|| Tally::new(rules.seats.len(), deck.len()), Tally::merge)
}

/// `grimoire simulate`.
pub fn simulate(args: &SimArgs) -> Output {
    if args.games == 0 {
        return Output::usage("--games 0: nothing to simulate; give 1 or more".to_string());
    }
    if args.threads == Some(0) {
        return Output::usage(
            "--threads 0: give 1 or more, or leave it out to use every core".to_string(),
        );
    }
    let columns = sort_columns();
    let sort = args.sort.as_deref().unwrap_or("improvement");
    if !columns.contains(&sort) {
        return Output::usage(format!(
            "--sort {sort}: not a column; the columns are {}",
            columns.join(", ")
        ));
    }
    // What a comparison does not do, said before any game is played.
    if !args.versus.is_empty() {
        for (given, what) in [
            (args.report.is_some(), "--report"),
            (args.record_game.is_some(), "--record-game"),
            (args.sort.is_some(), "--sort"),
        ] {
            if given {
                return Output::usage(format!(
                    "{what} is for one deck; with --versus-cards the changes are listed, significant first"
                ));
            }
        }
    }
    if let Some(shard) = args.shard {
        for (given, what) in [
            (!args.versus.is_empty(), "--versus-cards"),
            (args.report.is_some(), "--report"),
            (args.record_game.is_some(), "--record-game"),
        ] {
            if given {
                return Output::usage(format!(
                    "--shard {}/{}: {what} needs the whole run; merge the shards' JSON with `grimoire merge`, then run it once",
                    shard.index, shard.of
                ));
            }
        }
    }
    // Files to write, and the game to record, checked before the run.
    if let Some((n, _)) = &args.record_game
        && (*n == 0 || *n > args.games)
    {
        return Output::usage(format!(
            "--record-game {n}: the run's games are 1 to {}",
            args.games
        ));
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
            return Output::usage(format!("{}: {e}", path.display()));
        }
    }
    let (rules, deck) = match load_changed_deck(
        &args.rules,
        &args.cards,
        &args.changes,
        args.format,
        args.color,
    ) {
        Ok(d) => d,
        Err(out) => return out,
    };
    if args.ai.len() > rules.seats.len() {
        return Output::usage(format!(
            "{} --ai values for {} seats: give one for both, or one per seat",
            args.ai.len(),
            rules.seats.len()
        ));
    }
    // A shared deck that cannot fill every hand leaves the last seats with
    // few cards or none, passing all game. (A per-seat deck deals each seat
    // its own copy; its hand size is only a cap.)
    if let Some(zones) = rules.cards.as_ref().filter(|z| !z.per_seat) {
        let copies: usize = deck.cards.iter().map(|c| usize::from(c.play.copies)).sum();
        let needed = zones.hand_size * rules.seats.len();
        if copies < needed {
            return Output::usage(format!(
                "the deck holds {copies} cards, but {} hands of {} need {needed}: add cards",
                rules.seats.len(),
                zones.hand_size
            ));
        }
    }
    let source = deck.source.to_string();
    let deck_shown = changed_line(deck_line(&deck), &args.changes);
    let deck = deck.cards;
    if let Err(e) = Game::new(&rules, &deck, 0, false) {
        return Output::usage(e.to_string());
    }
    let done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return Output::usage(format!("cannot start worker threads: {e}")),
    };
    // The second deck, played on the same seeds, when comparing.
    let versus = if args.versus.is_empty() {
        None
    } else {
        match load_deck(&args.rules, &args.versus, args.color) {
            Ok((_, d)) => Some((deck_line(&d), d.cards)),
            Err(out) => return out,
        }
    };
    let games = args.shard.map_or(0..args.games, |s| s.games(args.games));
    let played = games.end - games.start;
    let total = played * if versus.is_some() { 2 } else { 1 };
    let (tally, versus_tally) = std::thread::scope(|scope| {
        if args.progress {
            scope.spawn(|| progress_bar(&done, &finished, total));
        }
        let tally = pool.install(|| run_range(&rules, &deck, args.seed, games, &args.ai, &done));
        let other = versus.as_ref().map(|(_, cards)| {
            pool.install(|| run_all(&rules, cards, args.seed, args.games, &args.ai, &done))
        });
        finished.store(true, Ordering::Relaxed);
        (tally, other)
    });
    let policies: Vec<&str> = (0..rules.seats.len())
        .map(|s| policy(&args.ai, s).name())
        .collect();
    if let (Some((versus_shown, versus_deck)), Some(versus_tally)) = (&versus, &versus_tally) {
        let a = super::compare::Side {
            shown: &deck_shown,
            deck: &deck,
            tally: &tally,
        };
        let b = super::compare::Side {
            shown: versus_shown,
            deck: versus_deck,
            tally: versus_tally,
        };
        return super::compare::report(&rules, args, &policies, &a, &b);
    }
    let mut notes = String::new();
    if let Some((n, path)) = &args.record_game {
        if let Err(e) = super::replay::record_simulated_game(
            &args.rules,
            &args.cards,
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
        let players: Vec<String> = rules
            .seats
            .iter()
            .zip(&policies)
            .map(|(s, p)| format!("{s} {p}"))
            .collect();
        let page = super::report::Page {
            title: format!(
                "{} · {} games · seed {} · {}",
                rules.name,
                args.games,
                args.seed,
                players.join(" vs ")
            ),
            deck: &deck_shown,
            seats: rules
                .seats
                .iter()
                .enumerate()
                .map(|(s, name)| (name.clone(), rate(tally.wins[s], tally.games)))
                .collect(),
            lengths: &tally.lengths,
            cards: card_rows(&deck, &tally, rules.seats.len(), None, sort)
                .into_iter()
                .map(|(c, counts, f)| (&deck[c], counts, f))
                .collect(),
        };
        if let Err(e) = std::fs::write(path, super::report::html(&page)) {
            return Output::usage(format!("{}: {e}", path.display()));
        }
        let _ = writeln!(notes, "report written to {}", path.display());
    }
    let run = Run {
        rules: &rules,
        deck: &deck,
        source: &source,
        deck_shown: &deck_shown,
        policies: &policies,
    };
    Output {
        stderr: notes,
        stdout: figures(&run, args, &tally),
        ..Output::default()
    }
}

/// What a run's figures are shown with besides its sums.
pub(super) struct Run<'a> {
    pub(super) rules: &'a RuleSet,
    pub(super) deck: &'a [Card],
    /// Where the deck came from.
    pub(super) source: &'a str,
    /// The deck's line in the table's head.
    pub(super) deck_shown: &'a str,
    /// Each seat's policy's name.
    pub(super) policies: &'a [&'a str],
}

/// The figures of `tally` in the format `args` asks for: a whole run's, or
/// (with `args.shard`) one share's, whose JSON also carries the sums and
/// what `grimoire merge` checks the other shares against.
pub(super) fn figures(run: &Run<'_>, args: &SimArgs, tally: &Tally) -> String {
    let seats = run.rules.seats.len();
    let sort = args.sort.as_deref().unwrap_or("improvement");
    // The rates are out of the games played here: a shard's own.
    let played = SimArgs {
        games: tally.games,
        ..args.clone()
    };
    match args.format {
        _ if args.csv => report_csv(run.deck, tally, seats, sort),
        Format::Human => render(run, &played, tally),
        Format::Json => {
            let mut value = report_json(run, &played, tally);
            if let Some(shard) = args.shard {
                value["shard"] = json!({
                    "index": shard.index,
                    "of": shard.of,
                    "games": args.games,
                    "seed": args.seed,
                    "rules": args.rules,
                    "cards": args.cards.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
                    "ai": run.policies,
                    "sort": args.sort,
                    "changes": args.changes,
                    "fingerprint": fingerprint(run.rules, run.deck),
                });
                value["raw"] = serde_json::to_value(tally).unwrap_or_default();
            }
            to_json(&value)
        }
    }
}

/// The deck's line, with the changes made to its cards.
pub(super) fn changed_line(line: String, changes: &[CardChange]) -> String {
    if changes.is_empty() {
        return line;
    }
    let changes: Vec<String> = changes.iter().map(ToString::to_string).collect();
    format!("{line}, changed: {}", changes.join(", "))
}

/// A digest of the rule set's name and seats and every card of the deck as
/// checked, so that shards played with different decks are not merged.
pub(super) fn fingerprint(rules: &RuleSet, deck: &[Card]) -> String {
    let text = format!("{:?} {:?} {deck:?}", rules.name, rules.seats);
    // FNV-1a: stable across builds and platforms, unlike std's hasher.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

fn rate(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn render(run: &Run<'_>, args: &SimArgs, t: &Tally) -> String {
    let (rules, deck, deck_shown, policies) = (run.rules, run.deck, run.deck_shown, run.policies);
    let mut out = String::new();
    let players: Vec<String> = rules
        .seats
        .iter()
        .zip(policies)
        .map(|(s, p)| format!("{s} {p}"))
        .collect();
    let _ = writeln!(
        out,
        "{} · {} games{} · seed {} · {}",
        rules.name,
        args.games,
        args.shard
            .map(|s| format!(" (shard {}/{})", s.index, s.of))
            .unwrap_or_default(),
        args.seed,
        players.join(" vs ")
    );
    let _ = writeln!(out, "{deck_shown}");
    let _ = writeln!(out, "\n{:<7} {:>8} {:>7}", "seat", "wins", "rate");
    let rows = rules
        .seats
        .iter()
        .map(String::as_str)
        .zip(t.wins.iter().copied())
        .chain([
            ("ties", t.ties),
            ("limit", t.turn_limits),
            ("stuck", t.no_action),
            ("refused", t.refused),
        ]);
    for (name, n) in rows {
        let _ = writeln!(
            out,
            "{name:<7} {n:>8} {:>6.1}%",
            100.0 * rate(n, args.games)
        );
    }
    let _ = writeln!(out, "\nmean length: {:.1} turns", rate(t.turns, args.games));
    // A rule set without cards has no card table to show.
    if deck.is_empty() {
        return out;
    }
    let sort = args.sort.as_deref().unwrap_or("improvement");
    let rows = card_rows(deck, t, rules.seats.len(), None, sort);
    let width = name_width(deck.iter().map(|c| c.name.as_str()));
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
    let pct = |r: crate::cli::cardstats::Rate| {
        format!(
            "{:5.1}% ({:4.1}-{:4.1})",
            100.0 * r.value,
            100.0 * r.low,
            100.0 * r.high
        )
    };
    for (c, counts, f) in rows {
        let _ = writeln!(
            out,
            "{:<width$} {:>8} {:>7} {:>9} {:>5.1}%  {:<18}  {:<18}  {:<18}  {:<21} {:>5.1}",
            deck[c].name,
            counts.in_hand,
            counts.plays,
            counts.discards,
            100.0 * f.play_rate.value,
            pct(f.in_hand),
            pct(f.played),
            pct(f.not_seen),
            f.improvement.points(),
            f.mean_turn,
        );
    }
    let _ = writeln!(
        out,
        "\nrates with 95% intervals; improvement = in-hand minus not-seen win rate, * when its interval leaves out 0 (see `grimoire simulate --help`)"
    );
    out
}

/// The columns `--sort` accepts: the per-card ones (explained in `simulate
/// --help`), and `deck` for deck order.
pub fn sort_columns() -> Vec<&'static str> {
    vec![
        "card",
        "in_hand",
        "played",
        "discarded",
        "play_rate",
        "in_hand_wr",
        "played_wr",
        "not_seen_wr",
        "improvement",
        "mean_turn",
        "deck",
    ]
}

/// Each card's counts (for `seat`, or summed over seats) and figures, in the
/// order `sort` asks: highest first, ties in deck order; `card` by name,
/// `deck` as dealt.
fn card_rows(
    deck: &[Card],
    t: &Tally,
    seats: usize,
    seat: Option<usize>,
    sort: &str,
) -> Vec<(usize, Counts, Figures)> {
    let n = deck.len();
    let mut rows: Vec<(usize, Counts, Figures)> = (0..n)
        .map(|c| {
            let mut sum = Counts::default();
            for s in (0..seats).filter(|&s| seat.is_none_or(|x| x == s)) {
                sum.add(&t.cards[s * n + c]);
            }
            (c, sum, sum.figures())
        })
        .collect();
    let key = |(_, c, f): &(usize, Counts, Figures)| -> f64 {
        match sort {
            "in_hand" => c.in_hand as f64,
            "played" => c.plays as f64,
            "discarded" => c.discards as f64,
            "play_rate" => f.play_rate.value,
            "in_hand_wr" => f.in_hand.value,
            "played_wr" => f.played.value,
            "not_seen_wr" => f.not_seen.value,
            "mean_turn" => f.mean_turn,
            _ => f.improvement.value,
        }
    };
    match sort {
        "deck" => {}
        "card" => rows.sort_by(|a, b| deck[a.0].name.cmp(&deck[b.0].name).then(a.0.cmp(&b.0))),
        _ => rows.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.0.cmp(&b.0))),
    }
    rows
}

/// The per-card table as CSV, the same rows and columns as the human table,
/// each rate with its interval's ends.
fn report_csv(deck: &[Card], t: &Tally, seats: usize, sort: &str) -> String {
    let mut out = String::from(
        "card,in_hand,played,played_games,not_seen_games,discarded,play_rate,in_hand_wr,in_hand_wr_low,in_hand_wr_high,played_wr,played_wr_low,played_wr_high,not_seen_wr,not_seen_wr_low,not_seen_wr_high,improvement,improvement_low,improvement_high,improvement_significant,mean_turn\n",
    );
    for (c, counts, f) in card_rows(deck, t, seats, None, sort) {
        let name = &deck[c].name;
        // A name with a comma or quote is quoted, its quotes doubled.
        let name = if name.contains([',', '"', '\n']) {
            format!("\"{}\"", name.replace('"', "\"\""))
        } else {
            name.clone()
        };
        // A rate out of nothing is left empty, not written as 0.
        let r = |r: crate::cli::cardstats::Rate| {
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
        let _ = writeln!(
            out,
            "{name},{},{},{},{},{},{play_rate},{},{},{},{improvement},{mean_turn}",
            counts.in_hand,
            counts.plays,
            counts.played_games,
            f.not_seen.n,
            counts.discards,
            r(f.in_hand),
            r(f.played),
            r(f.not_seen),
        );
    }
    out
}

fn report_json(run: &Run<'_>, args: &SimArgs, t: &Tally) -> serde_json::Value {
    let (rules, deck, source, policies) = (run.rules, run.deck, run.source, run.policies);
    let seats: Vec<_> = rules
        .seats
        .iter()
        .enumerate()
        .map(|(s, name)| json!({"seat": name, "ai": policies[s], "wins": t.wins[s], "win_rate": rate(t.wins[s], args.games)}))
        .collect();
    let rate_json = |r: crate::cli::cardstats::Rate| json!({"rate": r.value, "low": r.low, "high": r.high, "n": r.n});
    let figures_json = |c: &Counts, f: &Figures| {
        json!({
            "in_hand": c.in_hand,
            "played": c.plays,
            "played_games": c.played_games,
            "discarded": c.discards,
            "play_rate": rate_json(f.play_rate),
            "in_hand_wr": rate_json(f.in_hand),
            "played_wr": rate_json(f.played),
            "not_seen_wr": rate_json(f.not_seen),
            "improvement": {"value": f.improvement.value, "low": f.improvement.low,
                            "high": f.improvement.high, "significant": f.improvement.significant()},
            "mean_turn": f.mean_turn,
        })
    };
    let seats_n = rules.seats.len();
    let by_seat: Vec<Vec<(usize, Counts, Figures)>> = (0..seats_n)
        .map(|s| card_rows(deck, t, seats_n, Some(s), "deck"))
        .collect();
    let sort = args.sort.as_deref().unwrap_or("improvement");
    let cards: Vec<_> = card_rows(deck, t, seats_n, None, sort)
        .into_iter()
        .map(|(c, counts, f)| {
            let mut entry = figures_json(&counts, &f);
            entry["card"] = json!(deck[c].name);
            entry["seats"] = rules
                .seats
                .iter()
                .enumerate()
                .map(|(s, name)| {
                    let (_, sc, sf) = &by_seat[s][c];
                    let mut e = figures_json(sc, sf);
                    e["seat"] = json!(name);
                    e
                })
                .collect();
            entry
        })
        .collect();
    let mut deck_json = json!({"source": source, "cards": deck.len(), "copies": deck.iter().map(|c| u64::from(c.play.copies)).sum::<u64>()});
    if !args.changes.is_empty() {
        deck_json["changes"] = json!(
            args.changes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        );
    }
    json!({
        "rules": rules.name,
        "deck": deck_json,
        "games": args.games,
        "seed": args.seed,
        "seats": seats,
        "ties": t.ties,
        "turn_limits": t.turn_limits,
        "no_action": t.no_action,
        "refused": t.refused,
        "mean_turns": rate(t.turns, args.games),
        "cards": cards,
    })
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
