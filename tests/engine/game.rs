//! Whole games: seeded logs, determinism, simulation, refusing bad decks, a person at the terminal.

use std::path::PathBuf;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::cli::{self, Format, PlayArgs, SimArgs};
use grimoire::engine::ai::Policy;
use grimoire::engine::{Game, Illegal, Log};
use grimoire::files;
use grimoire::ids::CardId;

fn play(seed: u64, ai: &[Policy]) -> cli::Output {
    let mut input: &[u8] = b"";
    let mut output = Vec::new();
    cli::play(
        &PlayArgs {
            encounter: None,
            players: None,
            rules: "arcomage".into(),
            cards: Vec::new(),
            seed,
            ai: ai.to_vec(),
            human: false,
            view: None,
            record: None,
            color: false,
        },
        &mut input,
        &mut output,
    )
}

fn sim(games: u64, threads: Option<usize>, ai: &[Policy]) -> cli::Output {
    cli::simulate(&SimArgs {
        rules: "arcomage".into(),
        cards: Vec::new(),
        encounter: None,
        players: None,
        games,
        seed: 42,
        ai: ai.to_vec(),
        threads,
        format: Format::Json,
        csv: false,
        sort: Some("deck".into()),
        versus: Vec::new(),
        report: None,
        record_game: None,
        shard: None,
        changes: Vec::new(),
        progress: false,
        color: false,
    })
}

#[test]
fn a_seeded_game_log() {
    let out = play(7, &[Policy::Greedy, Policy::Random]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(" wins: ") || out.stdout.contains("draw") || out.stdout.contains("tie")
    );
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn the_same_seed_gives_a_byte_identical_log() {
    for seed in [1, 2, 3] {
        let a = play(seed, &[Policy::Random]);
        let b = play(seed, &[Policy::Random]);
        assert_eq!(a.stdout, b.stdout);
    }
    assert_ne!(
        play(1, &[Policy::Random]).stdout,
        play(2, &[Policy::Random]).stdout
    );
}

#[test]
fn simulate_json_is_the_same_with_one_thread_and_with_all() {
    for ai in [
        [Policy::Random, Policy::Random],
        [Policy::Greedy, Policy::Random],
    ] {
        let one = sim(700, Some(1), &ai);
        let all = sim(700, None, &ai);
        let three = sim(700, Some(3), &ai);
        assert_eq!(one.code, 0, "{}", one.stderr);
        assert_eq!(one.stdout, all.stdout);
        assert_eq!(one.stdout, three.stdout);
        let json: serde_json::Value = serde_json::from_str(&one.stdout).unwrap();
        let wins: u64 = json["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["wins"].as_u64().unwrap())
            .sum();
        let others: u64 = ["ties", "turn_limits", "no_action", "refused"]
            .iter()
            .map(|k| json[k].as_u64().unwrap())
            .sum();
        assert_eq!(wins + others, 700);
        assert_eq!(json["cards"].as_array().unwrap().len(), 102);
    }
}

#[test]
fn greedy_beats_random() {
    let out = sim(512, None, &[Policy::Greedy, Policy::Random]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let greedy = json["seats"][0]["win_rate"].as_f64().unwrap();
    assert!(greedy > 0.6, "greedy won only {greedy}");
}

#[test]
fn play_refuses_a_deck_that_does_not_check() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad-deck");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("cards.edn"),
        "{:card \"Orc\" :type :beasts :cost 3 :effects [{:effected :other :resource :damge :amount 5}]}",
    )
    .unwrap();
    let mut input: &[u8] = b"";
    let out = cli::play(
        &PlayArgs {
            encounter: None,
            players: None,
            rules: "arcomage".into(),
            cards: vec![dir.clone()],
            seed: 1,
            ai: vec![],
            human: false,
            view: None,
            record: None,
            color: false,
        },
        &mut input,
        &mut Vec::new(),
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("did you mean `:damage`?"),
        "{}",
        out.stderr
    );
    // One error, counted in the singular.
    assert!(
        out.stderr
            .contains("the deck does not check (1 error); not starting"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_person_plays_by_number_and_discards_with_d() {
    let mut input: &[u8] = b"hello\n99\nd 1\n1\nq\n";
    let mut output = Vec::new();
    let out = cli::play(
        &PlayArgs {
            encounter: None,
            players: None,
            rules: "arcomage".into(),
            cards: Vec::new(),
            seed: 5,
            ai: vec![Policy::Random],
            human: true,
            view: None,
            record: None,
            color: false,
        },
        &mut input,
        &mut output,
    );
    assert_eq!(out.code, 0);
    let text = String::from_utf8(output).unwrap();
    assert!(text.contains("your hand:"), "{text}");
    assert!(text.contains("type a card number from 1 to 6"), "{text}");
    assert!(text.contains("p1 discards"), "{text}");
    assert!(text.contains("game abandoned"), "{text}");
}

#[test]
fn lodestone_cannot_be_discarded() {
    let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
    let checked = files::check_paths(&[PathBuf::from("cards/arcomage")], Some(&rules));
    let deck = Card::from_definitions(&checked.definitions, &checked.sources, "arcomage");
    let lodestone = CardId::new(deck.iter().position(|c| c.name == "Lodestone").unwrap());
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    game.give(lodestone);
    let at = game.hand().len() - 1;
    assert_eq!(
        game.check(game.discard(at)),
        Err(Illegal::Undiscardable("Lodestone".into()))
    );
    let mut legal = Vec::new();
    game.legal(&mut legal);
    assert!(!legal.contains(&game.discard(at)));
    assert!(game.act(game.discard(at)).is_err());
    assert_eq!(game.hand()[at], lodestone);
}
