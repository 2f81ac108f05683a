//! `grimoire replay FILE`: a recorded game ([`Recording`]) played again,
//! printing the same output byte for byte, or saying clearly what changed
//! since it was recorded.

use std::path::Path;

use super::play::{PlayArgs, play_game};
use super::recording::{FORMAT, Recording, deck_digest, rules_digest};
use super::{EXIT_DIAGNOSTICS, Output};
use crate::engine::ai::Policy;

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
        match Policy::from_name(name) {
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
