//! Recorded games: what makes a game reproducible — the rule set and a
//! digest of its text, the cards and a digest of the deck, the seed, the
//! players, what the person typed and every decision — as the JSON file
//! `play --record` and `simulate --record-game` write and `replay` reads.
//!
//! The file is JSON, so a person can read it and a tool can write one.

use std::collections::BTreeMap;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::check::defs::{Card, CardRules};
use crate::check::rules::RuleSet;
use crate::files::{self, Tree};

/// What the first line of a recording says it is.
pub(crate) const FORMAT: &str = "grimoire replay 1";

/// A recorded game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Recording {
    /// What the file says it is: "grimoire replay 1".
    pub format: String,
    /// The rule set: a bundled name, or a path (a project's rule set is recorded by its file).
    pub rules: String,
    /// A digest of the rule set's text.
    pub rules_digest: String,
    /// The card files or folders given (empty: the bundled deck), made
    /// absolute so that the game replays from any folder.
    pub cards: Vec<PathBuf>,
    /// The card files or folders as they were given, which the log's header
    /// names; empty when they were given absolute (or not at all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards_given: Vec<PathBuf>,
    /// A digest of the checked deck.
    pub deck_digest: String,
    /// The encounter the game was set up as, for a rule set with `:encounters`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<String>,
    /// The number of players, for a rule set with `:players`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
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
    /// The deck's cards field by field, so that a replay names the card and
    /// field that changed (recordings made before it have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deck_cards: Vec<RecordedCard>,
}

/// One card of a recorded deck: its name, and each field as the game used it,
/// named as in a card file (`cost`, `copies`, `type`); the text and the
/// effects, long and not worth reading in a recording, as digests.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RecordedCard {
    /// The card's name.
    pub card: String,
    /// Each field's value (or digest), by the field's name.
    #[serde(flatten)]
    pub fields: BTreeMap<String, String>,
}

/// The fields of each card of `deck`, as [`RecordedCard`] records them.
pub(crate) fn recorded_cards(rules: &RuleSet, deck: &[Card]) -> Vec<RecordedCard> {
    deck.iter()
        .map(|card| {
            // Every field named, so that one added to `CardRules` is recorded too.
            let CardRules {
                pay_with,
                cost,
                play_again,
                discardable,
                draw,
                discard,
                copies,
                once,
                kind,
                values,
                to,
                token,
                keywords,
            } = &card.play;
            let pay_with = pay_with.map_or("none".to_string(), |a| rules.attributes[a].clone());
            // The keys of cards in zones, recorded where a card sets them, so
            // a deck without zones records as it did before them.
            let zone_fields = [
                kind.map(|k| ("kind", rules.kinds[k].clone())),
                (!values.is_empty()).then(|| {
                    let shown: Vec<String> = values
                        .iter()
                        .map(|&(a, v)| format!(":{} {v}", rules.attributes[a]))
                        .collect();
                    ("values", format!("{{{}}}", shown.join(" ")))
                }),
                to.and_then(|z| {
                    rules
                        .zones
                        .as_ref()
                        .map(|s| ("to", s.zones[z].name.clone()))
                }),
                token.then(|| ("token", "true".to_string())),
                (!keywords.is_empty()).then(|| {
                    let shown: Vec<String> = keywords
                        .iter()
                        .map(|&s| format!(":{}", rules.statuses[s]))
                        .collect();
                    ("keywords", format!("[{}]", shown.join(" ")))
                }),
                // What its triggers do is what it does too.
                (!card.triggers.is_empty()).then(|| {
                    let text = without_spans(&format!("{:?}", card.triggers));
                    ("triggers", digest(text.as_bytes()))
                }),
            ];
            let fields = [
                ("type", pay_with),
                ("cost", cost.to_string()),
                ("play-again", play_again.to_string()),
                ("discardable", discardable.to_string()),
                ("draw", draw.to_string()),
                ("discard", discard.to_string()),
                ("copies", copies.to_string()),
                ("once", once.to_string()),
                ("text", digest(card.text.as_bytes())),
                (
                    "effects",
                    digest(without_spans(&format!("{:?}", card.effects)).as_bytes()),
                ),
            ];
            RecordedCard {
                card: card.name.clone(),
                fields: fields
                    .into_iter()
                    .chain(zone_fields.into_iter().flatten())
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            }
        })
        .collect()
}

/// A checked tree's debug text without its spans: where a card sits in its
/// file (moved by an edit above it) is no change to what it does.
fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        out.push_str("Span");
        rest = rest[at..].find('}').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
    out
}

/// What changed between the deck `was` (recorded) and the deck `now`, one
/// line a card: `card "Dragon": :cost 25 → 22`, a card gone or new, or the
/// same cards dealt in another order. Empty when neither shows a change.
pub(crate) fn deck_changes(was: &[RecordedCard], now: &[RecordedCard]) -> Vec<String> {
    let mut lines = Vec::new();
    for old in was {
        let Some(new) = now.iter().find(|c| c.card == old.card) else {
            lines.push(format!("card \"{}\" is gone", old.card));
            continue;
        };
        let mut fields = Vec::new();
        for (key, before) in &old.fields {
            match new.fields.get(key) {
                // A digest says only that it changed.
                Some(after) if after != before && matches!(key.as_str(), "text" | "effects") => {
                    fields.push(format!(":{key} changed"));
                }
                Some(after) if after != before => {
                    fields.push(format!(":{key} {before} → {after}"));
                }
                _ => {}
            }
        }
        if !fields.is_empty() {
            lines.push(format!("card \"{}\": {}", old.card, fields.join(", ")));
        }
    }
    for new in now {
        if !was.iter().any(|c| c.card == new.card) {
            lines.push(format!("card \"{}\" is new", new.card));
        }
    }
    if lines.is_empty() && was != now {
        lines.push("the same cards, in another order (the deal changes)".to_string());
    }
    lines
}

/// What a played game leaves for its recording: each decision, as its place
/// in the legal actions of the moment, and what the person typed.
pub(crate) struct Game<'a> {
    /// The rule set: a bundled name, or a path (a project's rule set is recorded by its file).
    pub(crate) rules: &'a str,
    /// The card files or folders given.
    pub(crate) cards: &'a [PathBuf],
    /// The deck as checked.
    pub(crate) deck: &'a [Card],
    /// The rule set the deck was checked against.
    pub(crate) rule_set: &'a RuleSet,
    /// The game's seed.
    pub(crate) seed: u64,
    /// Each seat's policy, by name.
    pub(crate) ai: Vec<String>,
    /// Whether a person played the first seat.
    pub(crate) human: bool,
    /// What the person typed.
    pub(crate) input: String,
    /// Each decision.
    pub(crate) decisions: Vec<u32>,
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

/// The digest of a rule set's text: the one of that name (bundled, or the
/// working folder's project's), or the file's.
pub(crate) fn rules_digest(given: &str) -> std::io::Result<String> {
    let rel = format!("rules/{given}.edn");
    match files::Library::current().tree_of(given) {
        Some(Tree::Bundled) => Ok(digest(
            crate::bundled::file(&rel).unwrap_or_default().as_bytes(),
        )),
        Some(tree) => files::read_file(&tree.path(&rel)).map(|b| digest(&b)),
        None => files::read_file(Path::new(given)).map(|b| digest(&b)),
    }
}

/// The digest of a checked deck: every card as the engine holds it.
pub(crate) fn deck_digest(deck: &[Card]) -> String {
    digest(format!("{deck:?}").as_bytes())
}

/// Writes the recording of `game` to `path`.
pub(crate) fn write(path: &Path, game: Game<'_>) -> std::io::Result<()> {
    // Paths as absolute ones, so the recording replays from any folder.
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    // A bundled name stays a name; a project's rule set is its file, so the
    // recording replays outside the project too.
    let rules = match files::Library::current().tree_of(game.rules) {
        Some(Tree::Bundled) => game.rules.to_string(),
        Some(tree) => absolute(&tree.path(&format!("rules/{}.edn", game.rules)))
            .display()
            .to_string(),
        None => absolute(Path::new(game.rules)).display().to_string(),
    };
    let cards: Vec<PathBuf> = game.cards.iter().map(|p| absolute(p)).collect();
    // The header names the paths as typed: kept, so the replay prints them alike.
    let cards_given = if cards.as_slice() == game.cards {
        Vec::new()
    } else {
        game.cards.to_vec()
    };
    let recording = Recording {
        format: FORMAT.to_string(),
        rules_digest: rules_digest(&rules).unwrap_or_default(),
        rules,
        cards,
        cards_given,
        deck_digest: deck_digest(game.deck),
        encounter: game
            .rule_set
            .encounters
            .get(game.rule_set.encounter)
            .map(|e| e.name.clone()),
        players: game
            .rule_set
            .players
            .as_ref()
            .map(|_| game.rule_set.seats.len()),
        seed: game.seed,
        ai: game.ai,
        human: game.human,
        input: game.input,
        decisions: game.decisions,
        deck_cards: recorded_cards(game.rule_set, game.deck),
    };
    let text = serde_json::to_string_pretty(&recording).map_err(std::io::Error::other)?;
    std::fs::write(path, text + "\n")
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
