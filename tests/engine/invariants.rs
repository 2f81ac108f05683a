//! Game invariants: every bundled rule set keeps them over many seeded games,
//! and each invariant fires on a state built to break it.

use crate::common;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::invariants::{Invariant, Monitor, check_state, play_checked, replay_matches};
use grimoire::engine::{Game, GameEvent, Log, Phase};
use grimoire::eval::State;
use grimoire::files;
use grimoire::ids::{CardId, EntityId};
use grimoire::{cli, sim::check_range};

fn load(name: &str) -> (RuleSet, Vec<Card>) {
    let mut rules = common::bundled(name);
    let deck = files::load_deck(&mut rules, &[]).expect("bundled deck");
    (rules, deck.cards)
}

/// The rule sets in `rules/`, by file name: a new one is checked without being listed here.
fn bundled_names() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("rules/")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "edn").then(|| path.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_bundled_rule_set_keeps_the_invariants() {
    let names = bundled_names();
    assert!(names.len() >= 5, "{names:?}");
    for name in &names {
        let (rules, deck) = load(name);
        // Random players over many seeds, a greedy one over fewer: its
        // lookahead copies states and zones, which must leave the game alone.
        for (policies, games, every) in [
            (&[Policy::Random][..], 60, 7),
            (&[Policy::Greedy, Policy::Random][..], 8, 3),
        ] {
            let run =
                check_range(&rules, &deck, 5, 0..games, policies, every).unwrap_or_else(|f| {
                    panic!("{name} {policies:?}: game {}: {}", f.game, f.violation)
                });
            assert_eq!(run.games, games, "{name}");
            assert!(run.actions > games, "{name}: {run:?}");
            assert!(run.replayed >= games / every, "{name}: {run:?}");
        }
    }
}

#[test]
fn the_cli_flag_checks_and_says_so() {
    let out = common::run_in(
        &[
            "simulate",
            "duel",
            "--games",
            "30",
            "--check-invariants",
            "--replay-every",
            "1",
        ],
        "",
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("invariants held: 30 games") && stderr.contains("30 games replayed"),
        "{stderr}"
    );
    // Without the flag, nothing is said about invariants; --replay-every needs it.
    let plain = common::run_in(&["simulate", "duel", "--games", "3"], "", None);
    assert!(!String::from_utf8_lossy(&plain.stderr).contains("invariants"));
    let bad = common::run_in(
        &["simulate", "duel", "--games", "3", "--replay-every", "2"],
        "",
        None,
    );
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_violation_names_the_game_its_seed_and_turn() {
    let f = cli::Failure {
        game: 416,
        seed: 99,
        violation: grimoire::engine::invariants::Violation {
            invariant: Invariant::TurnLimit,
            turn: 12,
            detail: "turn 1001 is past the limit 1000".into(),
        },
    };
    let text = cli::failure_message(&f, "");
    assert_eq!(
        text,
        "game 417 (seed 99; `--record-game 417 FILE` records it), turn 12: invariant `turn-limit` broken: turn 1001 is past the limit 1000"
    );
}

/// The state of `game` through RON with `from` replaced by `to`: a state no
/// engine path builds, to break one invariant.
fn edited(state: &State, from: &str, to: &str) -> State {
    let text = ron::to_string(state).expect("RON");
    assert!(text.contains(from), "{from} in {text}");
    ron::from_str(&text.replacen(from, to, 1)).expect("edited RON")
}

fn fires(result: Result<(), grimoire::engine::invariants::Violation>, which: Invariant) -> String {
    let v = result.expect_err("the invariant should fire");
    assert_eq!(v.invariant, which, "{v}");
    v.to_string()
}

/// A skills game with one debuff on the second seat (4 turns left).
fn skills_with_status() -> (RuleSet, Vec<Card>, State) {
    let (rules, deck) = load("skills");
    let mut game = Game::new(&rules, &deck, 1, Log::Keep).expect("game");
    let status = rules.status("DecreasePower1").expect("status");
    game.give_status(EntityId::new(1), status, 5);
    let state = game.state().clone();
    assert_eq!(check_state(&rules, &state), Ok(()));
    (rules, deck, state)
}

#[test]
fn attribute_bounds_fire_on_a_value_past_its_bounds() {
    let (rules, deck) = load("arcomage");
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).expect("game");
    let wall = rules.attribute("wall").expect("wall");
    let (min, _) = rules.bounds[wall];
    game.set(EntityId::FIRST, wall, min - 1);
    let text = fires(Monitor::new().check(&game), Invariant::AttributeBounds);
    assert!(text.contains("`:p1` `:wall` is -1, outside 0..="), "{text}");
}

#[test]
fn attribute_bounds_fire_on_a_change_the_log_shows_past_its_bounds() {
    let (rules, deck) = load("arcomage");
    let mut game = Game::new(&rules, &deck, 1, Log::Keep).expect("game");
    let wall = rules.attribute("wall").expect("wall");
    let mut checker = Monitor::new();
    assert_eq!(checker.check(&game), Ok(()));
    // A value that left its bounds and came back: the state is fine, the log is not.
    let log = game.log_mut_unchecked().expect("log");
    log.push(GameEvent::Changed {
        change: grimoire::engine::Change {
            entity: EntityId::new(1),
            attr: wall,
            before: 5,
            after: -3,
        },
        by: grimoire::engine::By::Cost(CardId::FIRST),
    });
    let text = fires(checker.check(&game), Invariant::AttributeBounds);
    assert!(text.contains("from 5 to -3"), "{text}");
}

#[test]
fn status_duration_fires_on_an_instance_with_no_turns_left() {
    let (rules, _, state) = skills_with_status();
    let text = fires(
        check_state(&rules, &edited(&state, "left:4", "left:0")),
        Invariant::StatusDuration,
    );
    assert!(text.contains("`:DecreasePower1` on `:"), "{text}");
}

#[test]
fn status_duration_fires_on_a_negative_count_in_the_log() {
    let (rules, deck) = load("skills");
    let mut game = Game::new(&rules, &deck, 1, Log::Keep).expect("game");
    let mut checker = Monitor::new();
    assert_eq!(checker.check(&game), Ok(()));
    game.log_mut_unchecked()
        .expect("log")
        .push(GameEvent::Status {
            entity: EntityId::FIRST,
            status: grimoire::ids::StatusId::new(0),
            change: grimoire::eval::StatusChange::Extended,
            before: 1,
            after: -2,
            by: grimoire::engine::By::Cost(CardId::FIRST),
        });
    fires(checker.check(&game), Invariant::StatusDuration);
}

#[test]
fn status_instance_fires_on_bad_instances() {
    let (rules, _, state) = skills_with_status();
    // Held by an entity that was never added.
    fires(
        check_state(&rules, &edited(&state, "holder:1", "holder:7")),
        Invariant::StatusInstance,
    );
    // No stacks, or more than a status that does not stack may have.
    fires(
        check_state(&rules, &edited(&state, "stacks:1", "stacks:0")),
        Invariant::StatusInstance,
    );
    fires(
        check_state(&rules, &edited(&state, "stacks:1", "stacks:2")),
        Invariant::StatusInstance,
    );
    // A status the rule set does not declare.
    fires(
        check_state(&rules, &edited(&state, "status:44", "status:9999")),
        Invariant::StatusInstance,
    );
}

#[test]
fn status_instance_fires_on_instances_out_of_acquisition_order() {
    let (rules, deck) = load("skills");
    let mut game = Game::new(&rules, &deck, 1, Log::Keep).expect("game");
    for name in ["DecreasePower1", "BlockHealing1"] {
        game.give_status(EntityId::new(1), rules.status(name).expect("status"), 5);
    }
    let state = game.state().clone();
    assert_eq!(state.statuses().len(), 2);
    assert_eq!(check_state(&rules, &state), Ok(()));
    let swapped = edited(&state, "serial:0", "serial:5");
    let text = fires(check_state(&rules, &swapped), Invariant::StatusInstance);
    assert!(text.contains("out of acquisition order"), "{text}");
}

#[test]
fn status_instance_fires_on_a_block_with_no_charges() {
    let (rules, deck) = load("skills");
    let mut game = Game::new(&rules, &deck, 1, Log::Keep).expect("game");
    game.give_status(
        EntityId::FIRST,
        rules.status("blockDebuffs3").expect("status"),
        5,
    );
    let state = game.state().clone();
    assert_eq!(check_state(&rules, &state), Ok(()));
    fires(
        check_state(&rules, &edited(&state, "charges:3", "charges:0")),
        Invariant::StatusInstance,
    );
}

#[test]
fn hand_limit_fires_on_a_hand_past_its_size() {
    let (rules, deck) = load("arcomage");
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).expect("game");
    let mut checker = Monitor::new();
    let action = game.discard(0);
    checker.before(&game, action);
    // Two cards from nowhere after one discard: more than any refill.
    game.give(CardId::FIRST);
    game.give(CardId::new(1));
    let text = fires(checker.check(&game), Invariant::HandLimit);
    assert!(
        text.contains("hand went from 5 cards (hand size 6, 0 to draw) to 8"),
        "{text}"
    );
}

#[test]
fn card_count_fires_on_a_card_gone_missing() {
    let (rules, deck) = load("arcomage");
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).expect("game");
    assert_eq!(Monitor::new().check(&game), Ok(()));
    game.take_back(0).expect("a card");
    let text = fires(Monitor::new().check(&game), Invariant::CardCount);
    assert!(text.contains("0 copies of `"), "{text}");
}

#[test]
fn turn_limit_fires_past_the_limit() {
    let (rules, deck) = load("duel");
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).expect("game");
    let mut ctx = game.ctx();
    ctx.turn = rules.turn_limit + 1;
    game.set_ctx_unchecked(ctx);
    fires(Monitor::new().check(&game), Invariant::TurnLimit);
}

#[test]
fn must_discard_fires_when_the_hand_cannot_discard_that_many() {
    let (rules, deck) = load("arcomage");
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).expect("game");
    let mut ctx = game.ctx();
    ctx.phase = Phase::MustDiscard(9);
    game.set_ctx_unchecked(ctx);
    let text = fires(Monitor::new().check(&game), Invariant::MustDiscard);
    assert!(
        text.contains("must discard 9 cards and may discard only 6"),
        "{text}"
    );
}

#[test]
fn game_ends_fires_on_a_game_nobody_can_go_on_with() {
    let (rules, deck) = load("arcomage");
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).expect("game");
    // Between turns, with no pause to resume from: no action is legal.
    let mut ctx = game.ctx();
    ctx.phase = Phase::BetweenTurns;
    game.set_ctx_unchecked(ctx);
    let result = play_checked(
        &mut game,
        &mut Ai::new(),
        &[Policy::Random],
        &mut Monitor::new(),
    );
    let v = result.expect_err("stuck");
    assert_eq!(v.invariant, Invariant::GameEnds, "{v}");
}

#[test]
fn same_seed_same_log_fires_on_a_log_that_differs() {
    let (rules, deck) = load("arcomage");
    let mut game = Game::new(&rules, &deck, 3, Log::Keep).expect("game");
    play_checked(
        &mut game,
        &mut Ai::new(),
        &[Policy::Random],
        &mut Monitor::new(),
    )
    .expect("invariants");
    let log = game.log().expect("log").to_vec();
    let policies = [Policy::Random];
    assert_eq!(
        replay_matches(&rules, &deck, 3, &policies, &log, game.state()),
        Ok(())
    );
    let short = &log[..log.len() - 1];
    let v = replay_matches(&rules, &deck, 3, &policies, short, game.state()).expect_err("differs");
    assert_eq!(v.invariant, Invariant::SameSeedSameLog);
    let mut changed = log.clone();
    changed[3] = GameEvent::Passed {
        seat: EntityId::new(1),
    };
    let v =
        replay_matches(&rules, &deck, 3, &policies, &changed, game.state()).expect_err("differs");
    assert!(v.detail.contains("part at entry 3"), "{v}");
    let other = Game::new(&rules, &deck, 4, Log::Skip).expect("game");
    let v = replay_matches(&rules, &deck, 3, &policies, &log, other.state()).expect_err("differs");
    assert!(v.detail.contains("final states differ"), "{v}");
}

#[test]
fn every_invariant_has_a_distinct_name() {
    let mut names: Vec<&str> = Invariant::ALL.iter().map(|i| i.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Invariant::ALL.len());
}
