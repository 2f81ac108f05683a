//! The deduction game from the command line (issue 33): `play --seed 1`
//! plays to the match's end, and a person can play it at the terminal with
//! piped input, asked for a Sentry's target and the rank it names, never
//! shown the other hand.

use crate::common::{run_in, text};

#[test]
fn play_deduction_seed_1_plays_the_match_to_its_end() {
    let out = run_in(&["play", "deduction", "--seed", "1"], "", None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(log.contains(" wins: won the match"), "{log}");
    // Rounds were settled and dealt again, and a Sentry's guess is named.
    assert!(log.contains(".tokens 0 -> 1"), "{log}");
    assert!(log.contains("plays Sentry ("), "{log}");
}

#[test]
fn play_deduction_human_is_playable_with_piped_input() {
    // "1" to every question: the first card, the first target, the first rank.
    let input = "1\n".repeat(400);
    let out = run_in(
        &["play", "deduction", "--human", "--seed", "2"],
        &input,
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    assert!(screen.contains("your hand:"), "{screen}");
    assert!(screen.contains("p2's hand: 1 card"), "{screen}");
    // A Sentry asks which rank, each option a line of its own.
    assert!(screen.contains("Sentry at p2 (confessor)"), "{screen}");
    assert!(screen.contains("won the match"), "{screen}");
}
