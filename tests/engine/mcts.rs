//! The information-set tree search (`--ai mcts`, issue 34): it plays every
//! bundled rule set to the end, replays from its seed, is stronger than
//! random and greedy where the seed says a player can be, and reads its
//! parameters as the command line writes them. Its fairness is checked
//! with the other players' in `fairness.rs`; that it allocates nothing per
//! iteration, in `tests/no_alloc.rs`.

use grimoire::check::rules::BUNDLED;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::mcts::{MctsParams, Rollout};
use grimoire::engine::playout::{Computer, Ending, play_out};
use grimoire::engine::{Game, Log, Outcome};

fn mcts(budget: u32) -> Policy {
    Policy::Mcts(MctsParams {
        budget,
        ..MctsParams::DEFAULT
    })
}

fn load(
    name: &str,
) -> (
    grimoire::check::rules::RuleSet,
    Vec<grimoire::check::defs::Card>,
) {
    let mut rules = grimoire::files::load_rules(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let deck = grimoire::files::load_deck(&mut rules, &[])
        .expect("its deck")
        .cards;
    (rules, deck)
}

/// One game of `policies` from `seed`, with its log.
fn game_log(name: &str, seed: u64, policies: &[Policy]) -> (Option<Outcome>, String) {
    let (rules, deck) = load(name);
    let mut game = Game::new(&rules, &deck, seed, Log::Keep).expect("a game");
    let mut ai = Ai::new();
    let ending = play_out(
        &mut game,
        &mut Computer {
            ai: &mut ai,
            policies,
        },
        &mut (),
    );
    assert_eq!(
        ending,
        Ending::Over,
        "{name}, seed {seed}: the game stopped short"
    );
    (game.outcome(), format!("{:?}", game.log()))
}

/// Every bundled rule set is played to its end by the tree search, at a
/// small budget (a debug build), in every seat.
#[test]
fn the_tree_search_plays_every_bundled_rule_set_to_the_end() {
    for (name, _) in BUNDLED {
        let (outcome, _) = game_log(name, 1, &[mcts(8)]);
        assert!(
            !matches!(outcome, Some(Outcome::Aborted(_)) | None),
            "{name}: {outcome:?}"
        );
    }
}

/// Same seed, same budget: the same game, event for event; another seed,
/// another game. In a game of classic cards and one of cards in zones.
#[test]
fn a_tree_search_game_replays_from_its_seed() {
    for name in ["arcomage", "minions"] {
        let players = [mcts(24), mcts(24)];
        let (_, first) = game_log(name, 5, &players);
        let (_, again) = game_log(name, 5, &players);
        assert!(first == again, "{name}: seed 5 played twice differs");
        let (_, other) = game_log(name, 6, &players);
        assert!(first != other, "{name}: seeds 5 and 6 played the same game");
    }
}

/// A's share of `games` games against B, half of them from each seat
/// (ties and turn limits count a half).
fn share(name: &str, a: Policy, b: Policy, games: u64) -> f64 {
    let (rules, deck) = load(name);
    let mut ai = Ai::new();
    let mut points = 0.0;
    for seed in 1..=games {
        let a_first = seed % 2 == 1;
        let policies = if a_first { [a, b] } else { [b, a] };
        let mut game = Game::new(&rules, &deck, seed, Log::Skip).expect("a game");
        play_out(
            &mut game,
            &mut Computer {
                ai: &mut ai,
                policies: &policies,
            },
            &mut (),
        );
        let a_seat = if a_first { 0 } else { 1 };
        points += match game.outcome() {
            Some(Outcome::Win { seat, .. }) if seat.index() == a_seat => 1.0,
            Some(Outcome::Win { .. }) => 0.0,
            _ => 0.5,
        };
    }
    points / games as f64
}

/// In Arcomage the tree search beats the random player from both seats:
/// at a small budget, for a debug build (67 % over 200 games in a release
/// run; the tables at full budget, against every player, are in
/// docs/PLAYERS.md). Arcomage is a game of luck: even the two-ply search
/// beats random only 74 % of the time.
#[test]
fn the_tree_search_beats_random_in_arcomage() {
    let games = 120;
    let p = share("arcomage", mcts(200), Policy::Random, games);
    let low = crate::common::wilson_low(p, games as f64);
    assert!(
        low > 0.5,
        "mcts:200 against random: {p:.3} of {games} games, lower bound {low:.3}"
    );
}

/// More iterations make a stronger player: budget 200 against budget 10.
#[test]
fn a_larger_budget_plays_better() {
    let games = 60;
    let p = share("arcomage", mcts(200), mcts(10), games);
    let low = crate::common::wilson_low(p, games as f64);
    assert!(
        low > 0.5,
        "mcts:200 against mcts:10: {p:.3}, lower bound {low:.3}"
    );
}

/// The command line's spec: what is left out is the default's, the name
/// alone is the default, and a refusal says what is wrong.
#[test]
fn mcts_specs_read_as_written() {
    let parsed = |s: &str| Policy::parse(s);
    assert_eq!(parsed("mcts"), Ok(Policy::Mcts(MctsParams::DEFAULT)));
    assert_eq!(parsed("mcts:300"), Ok(mcts(300)));
    let greedy = MctsParams {
        budget: 50,
        rollout: Rollout::Greedy,
        plies: 2,
    };
    assert_eq!(parsed("mcts:50:greedy:2"), Ok(Policy::Mcts(greedy)));
    assert_eq!(Policy::Mcts(greedy).spec(), "mcts:50:greedy:2");
    assert_eq!(
        Policy::Mcts(MctsParams::DEFAULT).spec(),
        "mcts:1000:random:8"
    );
    assert_eq!(Policy::Greedy.spec(), "greedy");
    for (bad, says) in [
        ("mcts:0", "the budget `0`"),
        ("mcts:ten", "the budget `ten`"),
        ("mcts:10:wild", "the rollout `wild`"),
        ("mcts:10:random:-1", "the rollout plies `-1`"),
        ("mcts:10:random:4:9", "at most three values"),
        ("monte", "not a player"),
    ] {
        let err = parsed(bad).expect_err(bad);
        assert!(err.contains(says), "{bad}: {err}");
    }
}

/// A decision stops once no iteration left could change its choice
/// (the most visited move leads by more than the iterations left): the
/// same moves as the whole budget, in fewer iterations. Whole games of
/// four rule sets, every seat the tree search, compared move for move.
#[test]
fn stopping_a_settled_decision_changes_no_move() {
    for (name, budget, games) in [
        ("arcomage", 120, 3),
        ("deduction", 120, 1),
        ("duel", 120, 2),
        ("minions", 40, 1),
    ] {
        let (rules, deck) = load(name);
        let players = [mcts(budget)];
        let mut counts = [0u64; 2];
        for seed in 1..=games {
            let mut logs = Vec::new();
            for (i, whole) in [false, true].into_iter().enumerate() {
                let mut ai = Ai::new();
                if whole {
                    ai.tree().run_whole_budget_unchecked();
                }
                let mut game = Game::new(&rules, &deck, seed, Log::Keep).expect("a game");
                play_out(
                    &mut game,
                    &mut Computer {
                        ai: &mut ai,
                        policies: &players,
                    },
                    &mut (),
                );
                counts[i] += ai.tree().iterations();
                logs.push(format!("{:?}", game.log()));
            }
            assert!(
                logs[0] == logs[1],
                "{name}, seed {seed}: a settled stop changed the game"
            );
        }
        assert!(
            counts[0] < counts[1],
            "{name}: no decision settled early ({} iterations against {})",
            counts[0],
            counts[1]
        );
    }
}
