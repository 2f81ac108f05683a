//! `grimoire merge`: the figures of a run played in shards (`simulate
//! --shard K/N --format json`), exactly as one process would have printed them.
//!
//! Every figure is worked out from integer sums, and a shard's games are the
//! run's own games with their own seeds, so adding the shards' sums gives the
//! run's sums, whatever machine played which share.

use std::path::PathBuf;

use serde::Deserialize;

use super::play::{deck_line, load_changed_deck};
use super::simulate::{Run, SimArgs, Tally, changed_line, figures, fingerprint};
use super::{Format, Output};
use crate::engine::ai::Policy;
use crate::files::CardChange;

/// What `grimoire merge` needs.
#[derive(Clone, Debug)]
pub struct MergeArgs {
    /// The shards' JSON files.
    pub files: Vec<PathBuf>,
    /// Output format.
    pub format: Format,
    /// CSV instead of `format`.
    pub csv: bool,
    /// Colour diagnostics.
    pub color: bool,
}

/// What a shard's JSON says about the run it is a share of.
#[derive(Clone, Debug, Deserialize, PartialEq)]
struct ShardOf {
    index: u64,
    of: u64,
    games: u64,
    seed: u64,
    rules: String,
    cards: Vec<String>,
    ai: Vec<String>,
    sort: Option<String>,
    #[serde(default)]
    changes: Vec<CardChange>,
    fingerprint: String,
}

impl ShardOf {
    /// The same run as `other`, whichever share each is.
    fn same_run(&self, other: &ShardOf) -> bool {
        ShardOf {
            index: other.index,
            ..self.clone()
        } == *other
    }
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
    let mut texts = Vec::with_capacity(args.files.len());
    for path in &args.files {
        match std::fs::read_to_string(path) {
            Ok(t) => texts.push((path.display().to_string(), t)),
            Err(e) => return Output::usage(format!("{}: {e}", path.display())),
        }
    }
    merge_texts(&texts, args.format, args.csv, args.color)
}

/// [`merge`] of shards given as text, each with the name errors call it by
/// (for callers that hold the JSON, not files: the Python package's Ray tasks).
pub fn merge_texts(texts: &[(String, String)], format: Format, csv: bool, color: bool) -> Output {
    let mut shards: Vec<(&str, ShardFile)> = Vec::with_capacity(texts.len());
    for (name, text) in texts {
        match serde_json::from_str::<ShardFile>(text) {
            Ok(shard) => shards.push((name, shard)),
            Err(e) => {
                return Output::failure(format!(
                    "{name}:{}:{}: not a shard of a run ({e}); write one with `grimoire simulate … --shard K/N --format json`",
                    e.line(),
                    e.column()
                ));
            }
        }
    }
    let Some((first_path, first)) = shards.first() else {
        return Output::usage("no shards to merge");
    };
    let run = first.shard.clone();
    for (path, shard) in &shards[1..] {
        if !shard.shard.same_run(&run) {
            return Output::failure(format!(
                "{path}: a share of another run than {first_path} (rule set, cards, seed, games, AI, sort, shard count and deck must all agree)"
            ));
        }
    }
    // A run is split into at most a million shares (the list below holds one slot each).
    const MAX_SHARDS: u64 = 1 << 20;
    if run.of > MAX_SHARDS {
        return Output::failure(format!(
            "{first_path}: {} shards; a run merges from at most {MAX_SHARDS}",
            run.of
        ));
    }
    let mut seen = vec![None::<&str>; run.of as usize];
    for (path, shard) in &shards {
        let k = shard.shard.index;
        let slot = k
            .checked_sub(1)
            .and_then(|i| seen.get_mut(usize::try_from(i).ok()?));
        match slot {
            Some(Some(other)) => {
                return Output::failure(format!(
                    "{path}: shard {k}/{} again (also {other})",
                    run.of
                ));
            }
            Some(slot) => *slot = Some(*path),
            None => {
                return Output::failure(format!("{path}: shard {k}/{}: no such share", run.of));
            }
        }
    }
    let missing: Vec<String> = (1..=run.of)
        .zip(&seen)
        .filter(|(_, s)| s.is_none())
        .map(|(k, _)| format!("{k}/{}", run.of))
        .collect();
    if !missing.is_empty() {
        return Output::failure(format!(
            "shard{} {} missing: a merge needs every share of the run",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        ));
    }
    let mut shards = shards.into_iter().map(|(_, s)| s.raw);
    let Some(first) = shards.next() else {
        return Output::usage("no shards to merge");
    };
    let tally = shards.fold(first, Tally::merge);
    if tally.games != run.games {
        return Output::failure(format!(
            "the shards hold {} games, but the run had {}",
            tally.games, run.games
        ));
    }
    let cards: Vec<PathBuf> = run.cards.iter().map(PathBuf::from).collect();
    let (rules, deck) = match load_changed_deck(&run.rules, &cards, &run.changes, format, color) {
        Ok(d) => d,
        Err(out) => return out,
    };
    if fingerprint(&rules, &deck.cards) != run.fingerprint {
        return Output::failure(format!(
            "the rule set or deck ({}) changed since the shards were played: play them again",
            run.rules
        ));
    }
    let policies: Vec<&str> = run.ai.iter().map(String::as_str).collect();
    let ai: Option<Vec<Policy>> = policies.iter().map(|p| Policy::from_name(p)).collect();
    let Some(ai) = ai else {
        return Output::failure(format!("unknown AI among {}", run.ai.join(", ")));
    };
    let source = deck.source.to_string();
    let deck_shown = changed_line(deck_line(&deck), &run.changes);
    let sim = SimArgs {
        rules: run.rules.clone(),
        cards,
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
        deck_shown: &deck_shown,
        policies: &policies,
    };
    Output {
        stdout: figures(&shown, &sim, &tally),
        ..Output::default()
    }
}
