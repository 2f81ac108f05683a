//! `grimoire replay FILE`: a recorded game ([`Recording`]) played again,
//! printing the same output byte for byte, or saying clearly what changed
//! since it was recorded.

use std::path::Path;

use super::play::{PlayArgs, play_game_shown};
use super::recording::{
    FORMAT, Recording, deck_changes, deck_digest, recorded_cards, rules_digest,
};
use super::{EXIT_DIAGNOSTICS, Output};
use crate::engine::ai::Policy;

/// `grimoire replay FILE`; with `anyway`, a game whose rule set or deck
/// changed since is played all the same (what changed said as a warning).
pub fn replay(path: &Path, anyway: bool, color: bool) -> Output {
    let rec = match read(path) {
        Ok(rec) => rec,
        Err(out) => return *out,
    };
    let mut warnings = String::new();
    let mut changed = |what: &str, details: &[String]| {
        let mut said = format!(
            "{what} changed since {} was recorded: the game would not be the same\n",
            path.display()
        );
        for line in details {
            said.push_str(&format!("  {line}\n"));
        }
        if anyway {
            warnings.push_str(&format!("warning: {said}"));
            return None;
        }
        Some(Output {
            stderr: format!(
                "error: {said}help: `grimoire replay --anyway {}` plays it with them as they are now\n",
                path.display()
            ),
            code: EXIT_DIAGNOSTICS,
            ..Output::default()
        })
    };
    match rules_digest(&rec.rules) {
        Ok(d) if d == rec.rules_digest => {}
        Ok(_) => {
            if let Some(out) = changed(&format!("the rule set `{}`", rec.rules), &[]) {
                return out;
            }
        }
        Err(e) => return Output::usage(format!("{}: {e}", rec.rules)),
    }
    let mut ai: Vec<Policy> = Vec::new();
    for name in &rec.ai {
        match Policy::parse(name) {
            Ok(p) => ai.push(p),
            Err(e) => return Output::usage(format!("{}: {e}", path.display())),
        }
    }
    let args = PlayArgs {
        rules: rec.rules.clone(),
        cards: rec.cards.clone(),
        encounter: rec.encounter.clone(),
        players: rec.players,
        seed: rec.seed,
        ai,
        human: rec.human,
        view: None,
        record: None,
        color,
    };
    let mut input = std::io::Cursor::new(rec.input.clone().into_bytes());
    let mut shown: Vec<u8> = Vec::new();
    let given = (!rec.cards_given.is_empty()).then_some(rec.cards_given.as_slice());
    let (out, game) = play_game_shown(&args, given, &mut input, &mut shown);
    let Some(game) = game else {
        return out;
    };
    if deck_digest(&game.deck) != rec.deck_digest {
        // A recording made before cards were recorded field by field says no more.
        let details = if rec.deck_cards.is_empty() {
            Vec::new()
        } else {
            deck_changes(&rec.deck_cards, &recorded_cards(&game.rules, &game.deck))
        };
        if let Some(out) = changed("the deck", &details) {
            return out;
        }
    }
    let went_another_way = game
        .decisions
        .iter()
        .zip(&rec.decisions)
        .position(|(a, b)| a != b)
        .or((game.decisions.len() != rec.decisions.len())
            .then(|| game.decisions.len().min(rec.decisions.len())));
    if let Some(k) = went_another_way {
        // Played anyway with changed data, another way is what was asked to see.
        if !warnings.is_empty() {
            warnings.push_str(&format!(
                "note: the game went another way than recorded from decision {}\n",
                k + 1
            ));
        } else {
            return Output {
                stderr: format!(
                    "error: the game went another way than recorded at decision {}: the recording does not match its game (edited, or made by another version of grimoire)\n",
                    k + 1
                ),
                code: EXIT_DIAGNOSTICS,
                ..Output::default()
            };
        }
    }
    Output {
        stdout: String::from_utf8_lossy(&shown).into_owned() + &out.stdout,
        stderr: warnings + &out.stderr,
        ..out
    }
}

/// The recording at `path`, or why it cannot be replayed.
fn read(path: &Path) -> Result<Recording, Box<Output>> {
    let text = crate::files::read_file_text(path)
        .map_err(|e| Box::new(Output::usage(format!("{}: {e}", path.display()))))?;
    let rec: Recording = serde_json::from_str(&text).map_err(|e| {
        Box::new(Output::usage(format!(
            "{}:{}:{}: not a grimoire recording: {e}",
            path.display(),
            e.line(),
            e.column()
        )))
    })?;
    if rec.format != FORMAT {
        return Err(Box::new(Output::usage(format!(
            "{}: a recording of format \"{}\"; this grimoire reads \"{FORMAT}\"",
            path.display(),
            rec.format
        ))));
    }
    Ok(rec)
}
