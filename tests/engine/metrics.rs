//! Declared metrics (issue 32) measured in games: the bout fixture's
//! metrics on a game read by hand, a turn count that is the game's length,
//! each seat's value read with its own roles, sums of changes that add up
//! with what the game's end shows (in a rule set without `:zones` too), and
//! games played alike with metrics or without.

use std::path::{Path, PathBuf};

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::playout::{Computer, play_out};
use grimoire::engine::{Game, Log};
use grimoire::ids::EntityId;

use crate::common;

const BOUT: &str = "tests/data/metrics/rules/bout.edn";
const BOUT_CARDS: &str = "tests/data/metrics/cards/bout";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The bout fixture's rule set and deck.
fn bout() -> (RuleSet, Vec<Card>) {
    let path = root(BOUT);
    let mut rules = grimoire::files::load_rules(&path.to_string_lossy()).expect("bout loads");
    let deck = grimoire::files::load_deck(&mut rules, &[root(BOUT_CARDS)]).expect("deck");
    (rules, deck.cards)
}

/// `rules`' text with its `:metrics` section taken out (it is the last).
fn without_metrics(text: &str) -> String {
    let at = text.find(" :metrics").expect(":metrics");
    let end = text[at..].find(" :ai ").map_or(text.len() - 2, |i| at + i);
    format!("{}{}", &text[..at], &text[end..])
}

/// Game `seed` of `rules` played to its end by `policy` on both seats.
fn played<'r>(rules: &'r RuleSet, deck: &'r [Card], seed: u64, policy: Policy) -> Game<'r> {
    let mut game = Game::new(rules, deck, seed, Log::Keep).expect("game");
    let mut ai = Ai::new();
    let policies = [policy];
    let mut players = Computer {
        ai: &mut ai,
        policies: &policies,
    };
    play_out(&mut game, &mut players, &mut ());
    game
}

/// Metric `name`'s value for each seat at `game`'s end.
fn values(game: &mut Game<'_>, rules: &RuleSet, name: &str) -> Vec<i64> {
    let m = rules
        .metrics
        .iter()
        .position(|m| m.name == name)
        .expect("metric");
    let mut out = Vec::new();
    game.metric_values(&mut out);
    out[m * rules.seats.len()..][..rules.seats.len()].to_vec()
}

#[test]
fn a_game_read_by_hand_gives_each_seats_metrics() {
    // Game 1 of `simulate bout --seed 6 --ai greedy`, as `--record-game 1`
    // and `replay` show it: p1 plays Strike (p2 10 -> 8), p2 Haymaker (p1
    // 10 -> 4), p1 Strike (p2 8 -> 6), p2 Haymaker (p1 4 -> 0): p2 wins in 4
    // turns. Each seat was dealt 3; p1 refilled after turns 1 and 3, p2
    // after turn 2 (the game ended on turn 4, before a refill).
    let out = common::grimoire(&[
        "simulate",
        &root(BOUT).to_string_lossy(),
        "--cards",
        &root(BOUT_CARDS).to_string_lossy(),
        "--games",
        "1",
        "--seed",
        "6",
        "--ai",
        "greedy",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    let seats = |name: &str| -> Vec<f64> {
        json["metrics"][name]["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["mean"].as_f64().expect("mean"))
            .collect()
    };
    assert_eq!(json["mean_turns"], 4.0);
    assert_eq!(seats("health-left"), [0.0, 6.0]);
    assert_eq!(seats("damage-taken"), [10.0, 4.0]);
    assert_eq!(seats("turns-taken"), [2.0, 2.0]);
    assert_eq!(seats("turns"), [4.0, 4.0]);
    assert_eq!(seats("cards-drawn"), [5.0, 4.0]);
    // The overall figure is the mean of the game's seats.
    assert_eq!(json["metrics"]["health-left"]["mean"], 3.0);
    assert_eq!(json["metrics"]["damage-taken"]["n"], 1);
}

#[test]
fn a_count_of_every_turn_start_is_the_games_length() {
    let (rules, deck) = bout();
    for policy in [Policy::Random, Policy::Greedy] {
        for seed in 1..=40 {
            let mut game = played(&rules, &deck, seed, policy);
            let turn = i64::from(game.ctx().turn);
            assert_eq!(values(&mut game, &rules, "turns"), [turn, turn], "{seed}");
            // And each seat's own turns add up to it.
            let own: i64 = values(&mut game, &rules, "turns-taken").iter().sum();
            assert_eq!(own, turn, "{seed}");
        }
    }
    // Over a run, the metric's mean is the mean length `simulate` prints.
    let done = std::sync::atomic::AtomicU64::new(0);
    let tally = grimoire::sim::run_all(&rules, &deck, 1, 500, &[Policy::Random], &done);
    let m = rules
        .metrics
        .iter()
        .position(|m| m.name == "turns")
        .unwrap();
    assert_eq!(tally.metrics[m].overall.sum, 2 * i128::from(tally.turns));
}

#[test]
fn each_seat_is_measured_with_its_own_roles() {
    let (rules, deck) = bout();
    let health = rules.attribute("health").unwrap();
    let mut differed = false;
    for seed in 1..=30 {
        let mut game = played(&rules, &deck, seed, Policy::Random);
        let left = values(&mut game, &rules, "health-left");
        let seats: Vec<i64> = EntityId::below(2)
            .map(|s| game.state().get(s, health))
            .collect();
        assert_eq!(left, seats, "{seed}");
        differed |= left[0] != left[1];
    }
    assert!(differed, "some game ends with the seats' health apart");
}

#[test]
fn counts_and_sums_agree_with_the_games_log() {
    let (rules, deck) = bout();
    for seed in 1..=40 {
        let mut game = played(&rules, &deck, seed, Policy::Random);
        let log = grimoire::engine::log::render(&rules, &deck, game.log().expect("kept"));
        // `p1.health 10 -> 8` lines, and `Jab#3: deck -> p1's hand`.
        let mut lost = [0i64; 2];
        let mut drawn = [0i64; 2];
        for line in log.lines().map(str::trim) {
            for (s, seat) in ["p1", "p2"].iter().enumerate() {
                if let Some(change) = line.strip_prefix(&format!("{seat}.health ")) {
                    let (before, after) = change.split_once(" -> ").expect("a change");
                    let after = after.split_whitespace().next().unwrap();
                    let (b, a): (i64, i64) = (before.parse().unwrap(), after.parse().unwrap());
                    lost[s] += (b - a).max(0);
                }
                if line.ends_with(&format!("deck -> {seat}'s hand")) {
                    drawn[s] += 1;
                }
            }
        }
        assert_eq!(
            values(&mut game, &rules, "damage-taken"),
            lost,
            "{seed}\n{log}"
        );
        assert_eq!(
            values(&mut game, &rules, "cards-drawn"),
            drawn,
            "{seed}\n{log}"
        );
    }
}

#[test]
fn declaring_metrics_never_changes_a_game() {
    let (rules, deck) = bout();
    let text = std::fs::read_to_string(root(BOUT)).unwrap();
    let plain = common::rules(&without_metrics(&text));
    assert!(plain.metrics.is_empty());
    for policy in [Policy::Random, Policy::Greedy] {
        for seed in 1..=25 {
            let a = played(&rules, &deck, seed, policy);
            let b = played(&plain, &deck, seed, policy);
            assert_eq!(a.log(), b.log(), "{seed} {policy:?}");
        }
    }
}

#[test]
fn a_metric_reads_its_budget_apart_from_the_game() {
    // A metric whose condition counts entities spends work as it is read
    // (2 units for the 2 fighters). Bout's own steps spend none, so with a
    // work budget of 1 unit a step, work the metric spent in the step would
    // abort games that play to their end without the metric.
    let (_, deck) = bout();
    let text = std::fs::read_to_string(root(BOUT)).unwrap();
    let tight = text.replace(
        " :turns {:limit 200}",
        " :turns {:limit 200} :budgets {:work 1}",
    );
    let costly = tight.replace(
        ":metrics {",
        ":metrics {:busy {:count {:on :changed :where [> [count :fighter [> [:self :health] 0]] 0]}}\n           ",
    );
    let (plain, costly) = (
        common::rules(&without_metrics(&tight)),
        common::rules(&costly),
    );
    for seed in 1..=20 {
        let a = played(&plain, &deck, seed, Policy::Random);
        let b = played(&costly, &deck, seed, Policy::Random);
        assert_eq!(a.log(), b.log(), "{seed}");
        assert!(matches!(
            b.outcome(),
            Some(grimoire::engine::Outcome::Win { .. })
        ));
    }
}

#[test]
fn a_rule_set_without_zones_sums_its_changes() {
    // Arcomage keeps its cards in the engine's own piles: no `:zones`, no
    // card table. Its towers' losses and gains, summed by `[event :amount]`,
    // add up with the tower each seat ends with.
    let text = grimoire::check::rules::BUNDLED
        .iter()
        .find(|(n, _)| *n == "arcomage")
        .unwrap()
        .1;
    let end = text.rfind('}').unwrap();
    let metered = format!(
        "{} :metrics {{:tower-left {{:value [:you :tower]}}
                 :tower-lost {{:sum {{:on :damaged :attribute :tower :where [= :subject :you] :amount [- [event :amount]]}}}}
                 :tower-gained {{:sum {{:on :healed :attribute :tower :where [= :subject :you] :amount [event :amount]}}}}}}}}",
        &text[..end]
    );
    let mut rules = common::rules(&metered);
    let deck = grimoire::files::load_deck(&mut rules, &[]).expect("arcomage deck");
    let tower = rules.attribute("tower").unwrap();
    let start = rules.attribute_defs[tower].default;
    let mut lost_any = false;
    for seed in 1..=30 {
        let mut game = played(&rules, &deck.cards, seed, Policy::Random);
        let left = values(&mut game, &rules, "tower-left");
        let lost = values(&mut game, &rules, "tower-lost");
        let gained = values(&mut game, &rules, "tower-gained");
        for s in 0..2 {
            assert_eq!(left[s], start - lost[s] + gained[s], "{seed}, seat {s}");
        }
        lost_any |= lost.iter().any(|&l| l > 0);
    }
    assert!(lost_any, "some tower was hit");
}
