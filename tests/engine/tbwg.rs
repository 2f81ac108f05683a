//! Seed 002's battle (`rules/tbwg.edn`) from the outside: a seeded game's log,
//! and simulations that end, with either policy.

use crate::common;

use common::{grimoire, seat_wins};
use serde_json::Value;

#[test]
fn a_seeded_battle_prints_the_same_log_with_parts_and_rolls() {
    // Seed 37: DIO opens with a Time Stopping Punch, then Stand Punches, which Pain may dodge.
    let log = grimoire(&["play", "tbwg", "--seed", "37"]);
    assert_eq!(log, grimoire(&["play", "tbwg", "--seed", "37"]));
    // The greedy AI aims its punches: every action with `:choose` names its part.
    assert!(log.contains("time-stopping-punch pain ("), "{log}");
    assert!(log.contains("stand-punch pain ("), "{log}");
    assert!(log.contains(" rolls 1d6+17: "), "{log}");
    insta::assert_snapshot!(log);
}

#[test]
fn every_simulated_battle_ends_with_a_winner_or_a_draw() {
    for ai in ["random", "greedy"] {
        let out = grimoire(&[
            "simulate", "tbwg", "--games", "500", "--seed", "3", "--ai", ai, "--format", "json",
        ]);
        let v: Value = serde_json::from_str(&out).expect("JSON");
        // A quake that kills both at once is a draw; nothing else ends a fight undecided.
        assert_eq!(
            seat_wins(&v) + v["ties"].as_i64().expect("ties"),
            500,
            "{ai}: {v}"
        );
        assert_eq!(v["no_action"], 0, "{ai}: {v}");
    }
}

/// L437 `EFFECT_INVISIBLE`: Chibaku Tensei's status on its target holds the
/// parts still to come, and no player is shown it (D26); a spectator's log
/// marks it. Its first part, Heavy Gravity, shows when it lands.
#[test]
fn chibaku_tenseis_parts_to_come_are_invisible_to_the_players() {
    use grimoire::engine::log::{Sight, render_from};
    use grimoire::engine::{Ability, Action, Game, Log};
    use grimoire::ids::{ActionId, EntityId};
    let rules = common::bundled("tbwg");
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    let (pain, dio) = (EntityId::FIRST, EntityId::new(1));
    // DIO is the faster: his turn passes; then Pain casts.
    game.end_turn_now().unwrap();
    let cast = rules
        .actions
        .iter()
        .position(|a| a.name == "chibaku-tensei")
        .unwrap();
    game.act(Action {
        ability: Ability::Action(ActionId::new(cast)),
        actor: pain,
        target: Some(dio),
        choice: None,
    })
    .unwrap();
    let log = game.log().unwrap();
    let spectator = render_from(&rules, &[], log, 0, Sight::All);
    let player = render_from(&rules, &[], log, 0, Sight::Player);
    assert!(
        spectator.contains("dio acquires chibaku-tensei (3 left) (invisible)"),
        "{spectator}"
    );
    assert!(player.contains("pain: chibaku-tensei dio"), "{player}");
    assert!(!player.contains("acquires chibaku-tensei"), "{player}");
}
