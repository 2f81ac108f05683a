//! The minions game (`rules/minions.edn`, issue 33) from the outside: a
//! seeded game played to its end, the same twice; simulations that end; and
//! the greedy player beating the random one clearly, from either seat.

use crate::common;

use common::{grimoire, seat_wins, wilson_low};
use serde_json::Value;

#[test]
fn a_seeded_game_plays_to_its_end_and_again_the_same() {
    let log = grimoire(&["play", "minions", "--seed", "1"]);
    assert_eq!(log, grimoire(&["play", "minions", "--seed", "1"]));
    assert!(log.contains(" wins: destroyed the enemy hero"), "{log}");
    // The second seat's Coin, shown to both; a Battlecry's target; a fight.
    assert!(log.contains("Lucky Coin#"), "{log}");
    assert!(log.contains(" aims at "), "{log}");
    assert!(log.contains(": attack "), "{log}");
}

/// How many of `games` the first seat wins as `first` against `second`.
fn first_seat_wins(first: &str, second: &str, games: u32) -> (i64, Value) {
    let out = grimoire(&[
        "simulate",
        "minions",
        "--games",
        &games.to_string(),
        "--seed",
        "5",
        "--ai",
        first,
        "--ai",
        second,
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let wins = v["seats"][0]["wins"].as_i64().expect("wins");
    (wins, v)
}

/// Issue 33's acceptance: greedy beats random clearly. Over 200 games from
/// each seat, the greedy player's win rate has a 95 % interval above 80 %.
#[test]
fn greedy_beats_random_clearly_from_either_seat() {
    const GAMES: u32 = 200;
    let (as_first, v) = first_seat_wins("greedy", "random", GAMES);
    assert!(
        wilson_low(as_first as f64 / f64::from(GAMES), f64::from(GAMES)) > 0.8,
        "greedy first: {v}"
    );
    let (random_first, v) = first_seat_wins("random", "greedy", GAMES);
    let as_second = i64::from(GAMES) - random_first - v["ties"].as_i64().expect("ties");
    assert!(
        wilson_low(as_second as f64 / f64::from(GAMES), f64::from(GAMES)) > 0.8,
        "greedy second: {v}"
    );
}

#[test]
fn every_simulated_game_ends_with_a_winner_or_a_draw() {
    for ai in ["random", "greedy"] {
        let out = grimoire(&[
            "simulate", "minions", "--games", "200", "--seed", "3", "--ai", ai, "--format", "json",
        ]);
        let v: Value = serde_json::from_str(&out).expect("JSON");
        // Both heroes falling at once is a draw; nothing else ends a game undecided.
        assert_eq!(
            seat_wins(&v) + v["ties"].as_i64().expect("ties"),
            200,
            "{ai}: {v}"
        );
        assert_eq!(v["no_action"], 0, "{ai}: {v}");
        assert_eq!(v["turn_limits"], 0, "{ai}: {v}");
    }
}

#[test]
fn a_checked_run_holds_every_invariant() {
    let out = common::command(&[
        "simulate",
        "minions",
        "--games",
        "300",
        "--seed",
        "2",
        "--ai",
        "greedy",
        "--ai",
        "random",
        "--check-invariants",
    ])
    .output()
    .expect("run grimoire");
    let said = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("invariants held: 300 games"), "{said}");
}

/// The Coin is played by the greedy player too: its one-move score counts
/// the cards in hand, and a Coin counted there would never be worth playing
/// (played in 0 of 60 games before the score left it out).
#[test]
fn greedy_plays_the_coin() {
    let out = grimoire(&[
        "simulate", "minions", "--games", "60", "--seed", "1", "--ai", "greedy", "--format", "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let coin = v["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .find(|c| c["card"] == "Lucky Coin")
        .unwrap_or_else(|| panic!("no Lucky Coin: {v}"));
    assert!(coin["played"].as_i64().expect("played") >= 55, "{coin}");
}
