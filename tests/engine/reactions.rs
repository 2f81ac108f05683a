//! Reactions (issue 31 §4): the duel fixture (`tests/data/reactions/`)
//! passing its scenarios and playing to its end with every policy; who
//! decides in a window and what is legal there; the nesting bound; and the
//! greedy player countering a Fireball that hurts it while letting a Coin
//! resolve.

use std::path::{Path, PathBuf};

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::playout::{Computer, Ending, play_out};
use grimoire::engine::{Ability, CardId, Game, Illegal, Log, Phase};
use grimoire::files;
use grimoire::ids::EntityId;

const DUEL: &str = "tests/data/reactions/rules/duel.edn";
const DUEL_CARDS: &str = "tests/data/reactions/cards/duel";
const DUEL_SCENARIOS: &str = "tests/data/reactions/scenarios";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The duel, its rule set's text edited by `edit`.
fn duel_with(edit: impl Fn(String) -> String) -> (RuleSet, Vec<Card>) {
    let text = edit(std::fs::read_to_string(root(DUEL)).expect("rule set"));
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let deck = files::load_deck(&mut rules, &[root(DUEL_CARDS)]).expect("deck");
    (rules, deck.cards)
}

fn duel() -> (RuleSet, Vec<Card>) {
    duel_with(|t| t)
}

fn card(game: &Game<'_>, name: &str) -> CardId {
    let i = game.cards().iter().position(|c| c.name == name);
    CardId::new(i.unwrap_or_else(|| panic!("no card {name}")))
}

fn p(n: usize) -> EntityId {
    EntityId::new(n)
}

/// Gives seat `owner`'s hand exactly `names`, and it `mana` mana.
fn hand(game: &mut Game<'_>, owner: usize, names: &[&str], mana: i64) {
    let set = game.rules().zones.as_ref().expect("zones");
    let z = set.zone("hand").expect("zone");
    let cards: Vec<Option<CardId>> = names.iter().map(|n| Some(card(game, n))).collect();
    game.set_zone_cards(z, p(owner), &cards).expect("given");
    let mana_attr = game.rules().attribute("mana").expect("mana");
    game.set(p(owner), mana_attr, mana);
}

fn health(game: &Game<'_>, seat: usize) -> i64 {
    let attr = game.rules().attribute("health").expect("health");
    game.state().get(p(seat), attr)
}

/// A duel on p1's first turn with these hands and mana.
fn dealt<'r>(
    rules: &'r RuleSet,
    cards: &'r [Card],
    mine: &[&str],
    theirs: &[&str],
    mana: (i64, i64),
) -> Game<'r> {
    let mut game = Game::new(rules, cards, 1, Log::Keep).expect("game");
    hand(&mut game, 0, mine, mana.0);
    hand(&mut game, 1, theirs, mana.1);
    game.recheck();
    game
}

/// Plays the card called `name` of the hand of the seat to act.
fn play(game: &mut Game<'_>, name: &str) {
    let c = card(game, name);
    let at = game.hand().iter().position(|&h| h == c).expect("held");
    let action = game.play(at);
    game.act(action).unwrap_or_else(|e| panic!("{name}: {e}"));
}

#[test]
fn the_duel_s_scenarios_pass() {
    let out = grimoire::cli::test(&[root(DUEL_SCENARIOS)], &[], false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("9 passed, 0 failed"), "{}", out.stdout);
}

#[test]
fn a_window_makes_the_answering_seat_the_one_to_act_with_its_reactions_and_a_pass() {
    let (rules, cards) = duel();
    let mut game = dealt(
        &rules,
        &cards,
        &["Fireball"],
        &["Coin", "Counterspell", "Ward"],
        (4, 2),
    );
    play(&mut game, "Fireball");
    assert_eq!(game.ctx().current, p(1));
    assert_eq!(game.ctx().phase, Phase::React);
    assert_eq!(game.answering(), Some((card(&game, "Fireball"), p(0))));
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let abilities: Vec<Ability> = legal.iter().map(|a| a.ability).collect();
    // The pass, then Counterspell and Ward (hand positions 1 and 2), never the Coin.
    assert_eq!(
        abilities,
        [Ability::Pass, Ability::Card(1), Ability::Card(2)]
    );
    assert!(legal.iter().all(|a| a.actor == p(1)));
    // The other seat's card is not resolved yet: no damage.
    assert_eq!(health(&game, 1), 30);
    let pass = game.pass_action();
    game.act(pass).expect("pass");
    assert_eq!((game.ctx().current, game.ctx().phase), (p(0), Phase::Act));
    assert_eq!(health(&game, 1), 24);
    assert_eq!(game.answering(), None);
}

#[test]
fn a_pass_outside_a_window_and_a_play_of_the_seat_s_turn_while_another_answers_are_refused() {
    let (rules, cards) = duel();
    let mut game = dealt(
        &rules,
        &cards,
        &["Fireball", "Coin"],
        &["Counterspell"],
        (4, 2),
    );
    let pass = game.pass_action();
    assert!(matches!(game.act(pass), Err(Illegal::Refused(_))));
    play(&mut game, "Fireball");
    // p1's Coin is not p1's to play while p2 answers.
    let coin = Game::play(&game, 0);
    let coin = grimoire::engine::Action {
        actor: p(0),
        ..coin
    };
    assert!(matches!(game.act(coin), Err(Illegal::NotYourTurn(_))));
    assert_eq!(game.ctx().current, p(1));
}

/// In a deck where some card aims (here one with a `:playable-when`), plays
/// are tested by the aims' rules; a reaction is no more played on its own
/// turn there than elsewhere (it was: listed as legal and played).
#[test]
fn a_reaction_is_not_played_on_its_own_turn_in_a_deck_whose_cards_aim() {
    let extra = crate::common::scratch_dir("reactions-aimed");
    std::fs::write(
        extra.join("lance.edn"),
        r#"{:card "Lance" :kind :spell :type :mana :cost 0 :copies 1
 :text "1 damage, while you have mana"
 :playable-when {:when [< 0 [:you :mana]] :reason "Lance needs mana left"}
 :effects [{:effected :other :resource :health :amount -1}]}"#,
    )
    .expect("card written");
    let text = std::fs::read_to_string(root(DUEL)).expect("rule set");
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let cards = files::load_deck(&mut rules, &[root(DUEL_CARDS), extra])
        .expect("deck")
        .cards;
    let mut game = dealt(&rules, &cards, &["Counterspell", "Lance"], &[], (4, 2));
    let (counterspell, lance) = (game.play(0), game.play(1));
    let mut legal = Vec::new();
    game.legal(&mut legal);
    assert!(legal.contains(&lance), "{legal:?}");
    assert!(!legal.contains(&counterspell), "{legal:?}");
    assert!(!game.allowed(counterspell));
    assert!(
        matches!(game.act(counterspell), Err(Illegal::Zones(m)) if m.contains("is a reaction")),
        "a reaction played on its own turn"
    );
}

#[test]
fn windows_nest_no_deeper_than_the_trigger_depth() {
    // With a depth of 1, the Counterspell answering a Fireball opens no
    // window of its own: p1's Nullify is never offered.
    let (rules, cards) = duel_with(|t| {
        t.replace(
            ":turns {:limit 200",
            ":budgets {:trigger-depth 1}\n :turns {:limit 200",
        )
    });
    let mut game = dealt(
        &rules,
        &cards,
        &["Fireball", "Nullify"],
        &["Counterspell"],
        (5, 2),
    );
    play(&mut game, "Fireball");
    play(&mut game, "Counterspell");
    assert_eq!((game.ctx().current, game.ctx().phase), (p(0), Phase::Act));
    assert_eq!(health(&game, 1), 30, "the Fireball was cancelled");
    // At the default depth, p1 is asked.
    let (rules, cards) = duel();
    let mut game = dealt(
        &rules,
        &cards,
        &["Fireball", "Nullify"],
        &["Counterspell"],
        (5, 2),
    );
    play(&mut game, "Fireball");
    play(&mut game, "Counterspell");
    assert_eq!((game.ctx().current, game.ctx().phase), (p(0), Phase::React));
    assert_eq!(game.window_depth(), 2);
}

/// What greedy chooses for p2 when p1 plays `name` at it, p2 holding a
/// Counterspell and 2 mana, at `life` health.
fn greedy_answer(name: &str, life: i64) -> Ability {
    answer(name, life, Policy::Greedy)
}

/// What `policy` chooses for p2 when p1 plays `name` at it (see [`greedy_answer`]).
fn answer(name: &str, life: i64, policy: Policy) -> Ability {
    let (rules, cards) = duel();
    let mut game = dealt(&rules, &cards, &[name], &["Counterspell"], (4, 2));
    let attr = rules.attribute("health").expect("health");
    game.set(p(1), attr, life);
    game.recheck();
    play(&mut game, name);
    assert_eq!(game.ctx().current, p(1), "p2 is asked about {name}");
    let mut ai = Ai::new();
    ai.choose(&mut game, policy).expect("a choice").ability
}

#[test]
fn greedy_counters_a_fireball_that_hurts_or_kills_it_and_lets_a_coin_resolve() {
    assert_eq!(greedy_answer("Fireball", 30), Ability::Card(0));
    assert_eq!(greedy_answer("Fireball", 6), Ability::Card(0));
    assert_eq!(greedy_answer("Coin", 30), Ability::Pass);
}

#[test]
fn the_search_counters_a_fireball_and_lets_a_coin_resolve() {
    assert_eq!(answer("Fireball", 30, Policy::Search), Ability::Card(0));
    assert_eq!(answer("Coin", 30, Policy::Search), Ability::Pass);
}

#[test]
fn every_policy_plays_the_duel_to_its_end() {
    let (rules, cards) = duel();
    for policy in [Policy::Random, Policy::Greedy, Policy::Search] {
        for seed in 1..4 {
            let mut game = Game::new(&rules, &cards, seed, Log::Keep).expect("game");
            let mut ai = Ai::new();
            let policies = [policy];
            let ending = play_out(
                &mut game,
                &mut Computer {
                    ai: &mut ai,
                    policies: &policies,
                },
                &mut (),
            );
            assert_eq!(ending, Ending::Over, "{policy:?} seed {seed}");
        }
    }
}

#[test]
fn the_action_space_has_a_pass_index_after_the_end_of_turn_and_the_answering_seat_s_mask_holds_it()
{
    use grimoire::engine::observe::{ActionSpace, Ranks};
    let (rules, cards) = duel();
    let space = ActionSpace::new(&rules, &cards).expect("space");
    let end = space.end_turn_index().expect("a turn of many plays");
    assert_eq!(space.pass_index(), Some(end + 1));
    assert_eq!(
        space.describe(&rules, end + 1).as_deref(),
        Some("pass: let the card answered resolve")
    );
    let mut game = dealt(
        &rules,
        &cards,
        &["Fireball"],
        &["Coin", "Counterspell"],
        (4, 2),
    );
    let ranks = Ranks::new(&rules);
    let (mut legal, mut mask) = (Vec::new(), vec![0u8; space.len()]);
    // p1's own turn: no pass.
    space.mask(&mut game, &ranks, &mut legal, &mut mask);
    assert_eq!(mask[end + 1], 0);
    play(&mut game, "Fireball");
    space.mask(&mut game, &ranks, &mut legal, &mut mask);
    let marked: Vec<usize> = (0..space.len()).filter(|&i| mask[i] == 1).collect();
    assert_eq!(marked, [1, end + 1], "Counterspell's slot and the pass");
    assert_eq!(
        space.action_at(&game, &ranks, end + 1),
        Some(game.pass_action())
    );
    // A deck without reactions keeps the space it had.
    let plain: Vec<Card> = cards
        .iter()
        .filter(|c| c.reaction.is_none())
        .cloned()
        .collect();
    let space = ActionSpace::new(&rules, &plain).expect("space");
    assert_eq!(space.pass_index(), None);
}

#[test]
fn random_answers_with_a_reaction_or_a_pass_alike() {
    let (rules, cards) = duel();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40u64 {
        let mut game = Game::new(&rules, &cards, seed, Log::Skip).expect("game");
        hand(&mut game, 0, &["Fireball"], 4);
        hand(&mut game, 1, &["Counterspell"], 2);
        play(&mut game, "Fireball");
        let mut ai = Ai::new();
        let choice = ai.choose(&mut game, Policy::Random).expect("a choice");
        seen.insert(format!("{:?}", choice.ability));
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["Card(0)", "Pass"],
        "both answers are drawn"
    );
}
