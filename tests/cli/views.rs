//! A game as one seat saw it: `play --view SEAT`, and `play --human`, which
//! shows the person only their seat's view (issue 30's acceptance: `play
//! --view p1` of an Arcomage game never names a card of p2's hand before p2
//! plays it).

use crate::common::{self, text};
use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::log::{Sight, render_from};
use grimoire::engine::playout::{Computer, Observer, play_out};
use grimoire::engine::{Game, GameEvent, Log};
use grimoire::ids::{CardId, EntityId};

const P2: EntityId = EntityId::new(1);

fn arcomage() -> (RuleSet, Vec<Card>) {
    let mut rules = grimoire::files::load_rules("arcomage").unwrap();
    let deck = grimoire::files::load_deck(&mut rules, &[]).unwrap().cards;
    (rules, deck)
}

/// p2's hand at every decision, with how long the log was then.
#[derive(Default)]
struct FollowP2 {
    hands: Vec<(usize, Vec<CardId>)>,
}

impl Observer for FollowP2 {
    type Stop = std::convert::Infallible;

    fn deciding(&mut self, game: &Game<'_>) {
        let at = game.log().map_or(0, <[_]>::len);
        self.hands.push((at, game.hand_of(P2).to_vec()));
    }
}

/// The card an event names, and who played or discarded it.
fn named(e: &GameEvent) -> Option<(EntityId, CardId)> {
    match *e {
        GameEvent::Played { seat, card, .. } | GameEvent::Discarded { seat, card, .. } => {
            Some((seat, card))
        }
        _ => None,
    }
}

#[test]
fn arcomage_seen_by_p1_never_names_a_card_of_p2s_hand_before_p2_plays_it() {
    let (rules, deck) = arcomage();
    let mut p2_played = 0;
    for (ais, seeds) in [
        (["greedy", "greedy"], 1..=12u64),
        (["random", "search"], 1..=3),
    ] {
        for seed in seeds {
            let out = common::grimoire(&[
                "play",
                "arcomage",
                "--seed",
                &seed.to_string(),
                "--ai",
                ais[0],
                "--ai",
                ais[1],
                "--view",
                "p1",
            ]);
            // The same game through the library, p2's hand followed decision by decision.
            let mut game = Game::new(&rules, &deck, seed, Log::Keep).unwrap();
            let policies = ais.map(|a| Policy::from_name(a).unwrap());
            let mut follow = FollowP2::default();
            let mut ai = Ai::new();
            let mut players = Computer {
                ai: &mut ai,
                policies: &policies,
            };
            play_out(&mut game, &mut players, &mut follow);
            let log = game.log().unwrap();
            // Every event p1 is shown that names a card p2 held when it
            // happened is p2 playing or discarding that very card.
            let shown = render_from(&rules, &deck, log, 0, Sight::Seat(EntityId::FIRST));
            for (i, e) in log.iter().enumerate() {
                let Some((seat, card)) = named(e) else {
                    continue;
                };
                let held = follow
                    .hands
                    .iter()
                    .rev()
                    .find(|(at, _)| *at <= i)
                    .map(|(_, h)| h.as_slice())
                    .unwrap_or(&[]);
                if held.contains(&card) {
                    assert_eq!(seat, P2, "seed {seed}: {e:?} names a card p2 holds");
                    p2_played += 1;
                }
            }
            // What the command printed is that log, under its header, as p1 saw it.
            assert!(out.contains(&shown), "seed {seed}:\n{out}");
            assert!(
                out.contains("\nseen by p1: the other hands and the draw order unseen"),
                "{out}"
            );
            // And at the end, p2's hand by its count only.
            let n = game.hand_of(P2).len();
            let s = if n == 1 { "" } else { "s" };
            assert!(
                out.contains(&format!("\np2's hand: {n} card{s}\n")),
                "{out}"
            );
            let mine: Vec<&str> = game
                .hand_of(EntityId::FIRST)
                .iter()
                .map(|c| deck[c.index()].name.as_str())
                .collect();
            assert!(
                out.contains(&format!("\np1's hand: {}\n", mine.join(", "))),
                "{out}"
            );
        }
    }
    assert!(p2_played > 100, "p2 played {p2_played} cards it held");
}

#[test]
fn a_view_names_a_seat_of_the_rule_set_and_is_not_for_a_person() {
    let out = common::run_in(&["play", "arcomage", "--view", "p3"], "", None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("--view p3: rule set `arcomage` has no such seat; its seats are p1 and p2"),
        "{}",
        text(&out.stderr)
    );
    let out = common::run_in(&["play", "arcomage", "--view", "p1", "--human"], "", None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// A person at p1 discarding their first card that may be discarded, at
/// each of their decisions: what they type, and at each decision their hand
/// and p2's, from the library, for [`a_person_sees_only_their_seats_view`].
type Hands = Vec<(Vec<CardId>, Vec<CardId>)>;

fn p1_discarding(rules: &RuleSet, deck: &[Card], seed: u64, turns: usize) -> (String, Hands) {
    let mut game = Game::new(rules, deck, seed, Log::Skip).unwrap();
    let mut ai = Ai::new();
    let (mut typed, mut hands) = (String::new(), Vec::new());
    while game.outcome().is_none() && hands.len() < turns {
        let action = if game.ctx().current == EntityId::FIRST {
            let hand = game.hand_of(EntityId::FIRST).to_vec();
            let i = hand
                .iter()
                .position(|c| deck[c.index()].play.discardable)
                .unwrap();
            typed.push_str(&format!("d {}\n", i + 1));
            hands.push((hand, game.hand_of(P2).to_vec()));
            game.discard(i)
        } else {
            ai.choose(&mut game, Policy::Greedy).unwrap()
        };
        game.act(action).unwrap();
    }
    typed.push_str("q\n");
    (typed, hands)
}

#[test]
fn a_person_sees_only_their_seats_view() {
    let (rules, deck) = arcomage();
    let name = |c: &CardId| deck[c.index()].name.as_str();
    let turns = 12;
    for seed in [1u64, 4] {
        let (input, hands) = p1_discarding(&rules, &deck, seed, turns);
        let out = common::run_in(
            &["play", "arcomage", "--human", "--seed", &seed.to_string()],
            &input,
            None,
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let shown = text(&out.stdout);
        let prompts: Vec<&str> = shown.split("quit with q > ").collect();
        // A prompt for each decision, and one for `q` unless the game ended first.
        let quit = usize::from(!shown.contains(" wins: "));
        assert_eq!(prompts.len(), hands.len() + 1 + quit, "{shown}");
        assert!(hands.len() > 5, "seed {seed}: {} decisions", hands.len());
        for (k, (mine, theirs)) in hands.iter().enumerate() {
            let screen = prompts[k];
            // Their own hand by name, in order; p2's by its count.
            let listed: Vec<&str> = screen
                .lines()
                .skip_while(|l| *l != "your hand:")
                .skip(1)
                .filter_map(|l| l.split_once(". ").map(|(_, rest)| rest))
                .map(|rest| rest.split(" (").next().unwrap())
                .collect();
            let want: Vec<&str> = mine.iter().map(name).collect();
            assert_eq!(listed, want, "seed {seed}, decision {k}");
            assert!(
                screen.contains(&format!("\np2's hand: {} cards\n", theirs.len())),
                "{screen}"
            );
            // A card p2 holds is named only where p1 played or discarded it
            // before it was shuffled back and drawn.
            for line in screen.lines() {
                for card in theirs {
                    let c = name(card);
                    if line.contains(&format!(" plays {c}"))
                        || line.contains(&format!("discards {c}"))
                    {
                        assert!(
                            line.starts_with("  p1 "),
                            "seed {seed}: {line:?} while p2 holds {c}"
                        );
                    }
                    assert!(
                        !line.ends_with(&format!(", {c} on top"))
                            || line.starts_with("discard pile")
                    );
                }
            }
        }
    }
}

/// Chibaku Tensei's status is kept from both seats' logs, even from Pain,
/// who cast it: a log line does not say who applied a status.
#[test]
fn an_invisible_status_stays_out_of_every_seats_log() {
    let rules = grimoire::files::load_rules("tbwg").unwrap();
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    let (pain, dio) = (EntityId::FIRST, EntityId::new(1));
    game.end_turn_now().unwrap();
    let cast = rules
        .actions
        .iter()
        .position(|a| a.name == "chibaku-tensei")
        .unwrap();
    game.act(grimoire::engine::Action {
        ability: grimoire::engine::Ability::Action(grimoire::ids::ActionId::new(cast)),
        actor: pain,
        target: Some(dio),
        choice: None,
    })
    .unwrap();
    let log = game.log().unwrap();
    for seat in [pain, dio] {
        let seen = render_from(&rules, &[], log, 0, Sight::Seat(seat));
        assert!(seen.contains("pain: chibaku-tensei dio"), "{seen}");
        assert!(!seen.contains("acquires chibaku-tensei"), "{seen}");
    }
    // What Pain's view holds (he applied it) is another matter: see tests/engine/fairness.rs.
    assert!(
        game.view(pain)
            .statuses
            .iter()
            .any(|s| rules.statuses[s.status] == "chibaku-tensei")
    );
}

/// In a game of zones, a card p1 saw at neither end of a move is "a card"
/// in p1's view, without its number (numbers are dealt in the deck's
/// order): p2's draws never name the card, p1's own do, and the full log
/// names every one.
#[test]
fn in_a_game_of_zones_a_seats_view_names_no_card_drawn_by_the_other() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = "tests/data/zones/rules/skirmish.edn";
    for seed in ["1", "2", "3"] {
        let seen = crate::common::run_in(
            &["play", rules, "--seed", seed, "--view", "p1"],
            "",
            Some(root),
        );
        assert_eq!(
            seen.status.code(),
            Some(0),
            "{}",
            crate::common::text(&seen.stderr)
        );
        let seen = crate::common::text(&seen.stdout);
        let theirs: Vec<&str> = seen
            .lines()
            .filter(|l| l.ends_with("deck -> p2's hand"))
            .collect();
        assert!(!theirs.is_empty(), "{seen}");
        assert!(
            theirs
                .iter()
                .all(|l| l.trim() == "a card: deck -> p2's hand"),
            "{seen}"
        );
        let mine: Vec<&str> = seen
            .lines()
            .filter(|l| l.ends_with("deck -> p1's hand"))
            .collect();
        assert!(mine.iter().all(|l| l.contains('#')), "{seen}");
        let full = crate::common::run_in(&["play", rules, "--seed", seed], "", Some(root));
        let full = crate::common::text(&full.stdout);
        assert!(!full.contains("a card: deck"), "{full}");
    }
}

/// `play --human` in a game of zones: p1 sees its own hand by name, p2's
/// by its count, the deck by its count, the discard pile's top card, each
/// board slot by slot with the values of the minions on it, and the cards
/// out of the game; never the cards being played, nor a card of p2's hand.
#[test]
fn a_person_in_a_game_of_zones_sees_boards_by_slot_and_the_others_hand_by_count() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = "tests/data/zones/rules/skirmish.edn";
    // End two turns, play the third card of the hand (a Raider), end the turn.
    let out = crate::common::run_in(
        &["play", rules, "--human", "--seed", "3"],
        "a1\na1\n3\na1\n",
        Some(root),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let screens: Vec<&str> = shown.split("your hand:\n").collect();
    assert!(screens.len() > 4, "{shown}");
    for screen in &screens[..screens.len() - 1] {
        let theirs = screen.lines().rev().find(|l| l.starts_with("p2's hand: "));
        let theirs = theirs.unwrap_or_else(|| panic!("{screen}"));
        assert!(theirs.ends_with(" cards"), "{theirs}");
        assert!(screen.lines().any(|l| l.starts_with("deck: ")), "{screen}");
        assert!(
            !screen.lines().any(|l| l.starts_with("playing")),
            "{screen}"
        );
    }
    let last = screens[screens.len() - 2];
    assert!(
        last.contains("\np1's board: Raider (health 1, attack 2)\n"),
        "{last}"
    );
    assert!(
        last.contains(
            "\np2's board: Raider (health 1, attack 2) | Wisp (health 1, attack 1) | Wisp (health 1, attack 1)\n"
        ),
        "{last}"
    );
    assert!(
        last.contains("\ndiscard: 10 cards, Scout on top\n"),
        "{last}"
    );
    assert!(last.contains("\nremoved: Relic\n"), "{last}");
}

/// `play --human` in a draft, where every seat picks at once: the person
/// is asked for each pick of theirs, with the pack they hold; what the
/// others pick that turn is not shown before the person has picked, and
/// shows, with the person's, once all have.
#[test]
fn a_person_in_a_draft_picks_from_the_pack_they_hold_before_seeing_any_pick() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = "tests/data/draft/rules/draft.edn";
    let out = crate::common::run_in(
        &["play", rules, "--human", "--seed", "3"],
        "1\n1\n1\n1\n1\n",
        Some(root),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let screens: Vec<&str> = shown.split("your hand:\n").collect();
    assert_eq!(screens.len(), 6, "five picks: {shown}");
    for (turn, screen) in screens[..5].iter().enumerate() {
        let this_turn = screen
            .split(&format!("turn {}: p1\n", turn + 1))
            .nth(1)
            .unwrap_or_else(|| panic!("turn {}: {screen}", turn + 1));
        assert!(
            this_turn.starts_with("  p1, p2 and p3 choose at once, unseen\n"),
            "{this_turn}"
        );
        assert!(!this_turn.contains(" plays "), "{this_turn}");
        let pack: Vec<&str> = screens[turn + 1]
            .lines()
            .take_while(|l| l.starts_with("  "))
            .collect();
        assert_eq!(pack.len(), 5 - turn, "{}", screens[turn + 1]);
    }
    let last = screens[5];
    for seat in ["p1", "p2", "p3"] {
        assert!(last.contains(&format!("  {seat} plays ")), "{last}");
    }
}
