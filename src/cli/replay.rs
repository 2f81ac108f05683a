//! Recorded games: `grimoire play … --record FILE` writes what makes a game
//! reproducible — the rule set and a digest of its text, the cards and a
//! digest of the deck, the seed, the players, what the person typed and every
//! decision — and `grimoire replay FILE` plays it again and prints the same
//! output byte for byte, or says clearly what changed since.
//!
//! The file is JSON, so a person can read it and a tool can write one.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::play::{PlayArgs, Played, play_game};
use super::{EXIT_DIAGNOSTICS, Output};
use crate::engine::ai::Policy;

/// What the first line of a recording says it is.
const FORMAT: &str = "grimoire replay 1";

/// A recorded game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Recording {
    /// [`FORMAT`].
    pub format: String,
    /// The rule set as given: a bundled name or a path.
    pub rules: String,
    /// A digest of the rule set's text.
    pub rules_digest: String,
    /// The card files or folders given (empty: the bundled deck).
    pub cards: Vec<PathBuf>,
    /// A digest of the checked deck.
    pub deck_digest: String,
    /// The game's seed.
    pub seed: u64,
    /// Each seat's policy, by name.
    pub ai: Vec<String>,
    /// Whether a person played the first seat.
    pub human: bool,
    /// What the person typed, exactly.
    pub input: String,
    /// Each decision: its place among the legal actions at that moment.
    pub decisions: Vec<u32>,
}

/// 64-bit FNV-1a, as hex: a digest that is the same on every machine.
fn digest(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The digest of a rule set's text: the bundled one, or the file's.
fn rules_digest(given: &str) -> std::io::Result<String> {
    match crate::rules::BUNDLED.iter().find(|(n, _)| *n == given) {
        Some((_, text)) => Ok(digest(text.as_bytes())),
        None => std::fs::read(given).map(|b| digest(&b)),
    }
}

/// The digest of a checked deck: every card as the engine holds it.
fn deck_digest(deck: &[crate::defs::Card]) -> String {
    digest(format!("{deck:?}").as_bytes())
}

/// Writes the recording of a game played with `args`.
pub(crate) fn write(
    path: &Path,
    args: &PlayArgs,
    game: &Played,
    input: String,
) -> std::io::Result<()> {
    let seats = game.rules.seats.len();
    // Paths as absolute ones, so the recording replays from any folder.
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let rules = if crate::rules::BUNDLED.iter().any(|(n, _)| *n == args.rules) {
        args.rules.clone()
    } else {
        absolute(Path::new(&args.rules)).display().to_string()
    };
    let recording = Recording {
        format: FORMAT.to_string(),
        rules_digest: rules_digest(&rules).unwrap_or_default(),
        rules,
        cards: args.cards.iter().map(|p| absolute(p)).collect(),
        deck_digest: deck_digest(&game.deck),
        seed: args.seed,
        ai: (0..seats)
            .map(|s| super::play::policy(&args.ai, s).name().to_string())
            .collect(),
        human: args.human,
        input,
        decisions: game.decisions.clone(),
    };
    let text = serde_json::to_string_pretty(&recording).map_err(std::io::Error::other)?;
    std::fs::write(path, text + "\n")
}

/// `grimoire replay FILE`.
pub fn replay(path: &Path, color: bool) -> Output {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return Output::usage(format!("{}: {e}", path.display())),
    };
    let rec: Recording = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            return Output::usage(format!(
                "{}:{}:{}: not a grimoire recording: {e}",
                path.display(),
                e.line(),
                e.column()
            ));
        }
    };
    if rec.format != FORMAT {
        return Output::usage(format!(
            "{}: a recording of format \"{}\"; this grimoire reads \"{FORMAT}\"",
            path.display(),
            rec.format
        ));
    }
    let changed = |what: &str| Output {
        stderr: format!(
            "error: {what} changed since {} was recorded: the game would not be the same\n",
            path.display()
        ),
        code: EXIT_DIAGNOSTICS,
        ..Output::default()
    };
    match rules_digest(&rec.rules) {
        Ok(d) if d == rec.rules_digest => {}
        Ok(_) => return changed(&format!("the rule set `{}`", rec.rules)),
        Err(e) => return Output::usage(format!("{}: {e}", rec.rules)),
    }
    let mut ai: Vec<Policy> = Vec::new();
    for name in &rec.ai {
        match [Policy::Random, Policy::Greedy, Policy::Search]
            .into_iter()
            .find(|p| p.name() == name)
        {
            Some(p) => ai.push(p),
            None => {
                return Output::usage(format!(
                    "{}: no policy \"{name}\" (random, greedy or search)",
                    path.display()
                ));
            }
        }
    }
    let args = PlayArgs {
        rules: rec.rules.clone(),
        cards: rec.cards.clone(),
        seed: rec.seed,
        ai,
        human: rec.human,
        record: None,
        color,
    };
    let mut input = std::io::Cursor::new(rec.input.clone().into_bytes());
    let mut shown: Vec<u8> = Vec::new();
    let (out, game) = play_game(&args, &mut input, &mut shown);
    let Some(game) = game else {
        return out;
    };
    if deck_digest(&game.deck) != rec.deck_digest {
        return changed("the deck");
    }
    if let Some(k) = game
        .decisions
        .iter()
        .zip(&rec.decisions)
        .position(|(a, b)| a != b)
        .or((game.decisions.len() != rec.decisions.len())
            .then(|| game.decisions.len().min(rec.decisions.len())))
    {
        return Output {
            stderr: format!(
                "error: the game went another way than recorded at decision {}: the recording does not match its game (edited, or made by another version of grimoire)\n",
                k + 1
            ),
            code: EXIT_DIAGNOSTICS,
            ..Output::default()
        };
    }
    Output {
        stdout: String::from_utf8_lossy(&shown).into_owned() + &out.stdout,
        ..out
    }
}

/// A reader that keeps everything read through it: what the person typed.
pub(crate) struct Tee<'a> {
    inner: &'a mut dyn BufRead,
    kept: Vec<u8>,
}

impl<'a> Tee<'a> {
    pub(crate) fn new(inner: &'a mut dyn BufRead) -> Tee<'a> {
        Tee {
            inner,
            kept: Vec::new(),
        }
    }

    /// What was read, as text.
    pub(crate) fn into_text(self) -> String {
        String::from_utf8_lossy(&self.kept).into_owned()
    }
}

impl Read for Tee<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.kept.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl BufRead for Tee<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let n = amt.min(buf.len());
            self.kept.extend_from_slice(&buf[..n]);
        }
        self.inner.consume(amt);
    }
}

/// Records game `n` (from 1) of a simulation run seeded `seed`.
pub(crate) fn record_simulated_game(
    rules: &str,
    cards: &[PathBuf],
    seed: u64,
    n: u64,
    ai: &[Policy],
    path: &Path,
) -> Result<(), String> {
    let args = PlayArgs {
        rules: rules.to_string(),
        cards: cards.to_vec(),
        seed: super::simulate::game_seed(seed, n.saturating_sub(1)),
        ai: ai.to_vec(),
        human: false,
        record: None,
        color: false,
    };
    let mut input = std::io::Cursor::new(Vec::new());
    let mut sink: Vec<u8> = Vec::new();
    let (out, game) = play_game(&args, &mut input, &mut sink);
    let Some(game) = game else {
        return Err(out.stderr);
    };
    write(path, &args, &game, String::new()).map_err(|e| format!("{}: {e}", path.display()))
}
