//! Solo fights against scripted enemies (issue 32): the solo fixture's
//! scenarios pass; the Jaw Worm's script is followed over many seeds (never a
//! move more often in a row than allowed, each drawn by its weight among the
//! moves allowed); the intent is in the seat's view and observation before it
//! acts; a death is a loss, not a draw, in `simulate`'s JSON; encounters set
//! games up with values drawn from their ranges.

use std::path::{Path, PathBuf};

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::{Game, Log, Outcome};
use grimoire::ids::EntityId;

use crate::common;

const SOLO: &str = "tests/data/solo/rules/solo.edn";
const CARDS: &str = "tests/data/solo/cards/solo";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The solo fixture, its games set up as `encounter`.
fn solo(encounter: &str) -> (RuleSet, Vec<Card>) {
    let text = std::fs::read_to_string(root(SOLO)).expect("rule set");
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    rules.choose_encounter(encounter).expect("encounter");
    let deck = grimoire::files::load_deck(&mut rules, &[root(CARDS)])
        .unwrap_or_else(|_| panic!("the solo deck loads"));
    (rules, deck.cards)
}

#[test]
fn the_fixture_s_scenarios_pass() {
    let out = grimoire::cli::test(&[root("tests/data/solo/scenarios")], &[], false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("16 passed, 0 failed"), "{}", out.stdout);
}

/// The Jaw Worm's moves, in the order its kind writes them.
const CHOMP: usize = 0;
const THRASH: usize = 1;
const BELLOW: usize = 2;

#[test]
fn the_jaw_worm_follows_its_weighted_script_over_many_seeds() {
    let (rules, deck) = solo("jaw-worm");
    let worm = EntityId::new(1);
    // After each move, how often each move was drawn next.
    let mut after: std::collections::HashMap<usize, [u32; 3]> = Default::default();
    let key = |m: &str| match m {
        "chomp" => CHOMP,
        "thrash" => THRASH,
        "bellow" => BELLOW,
        other => panic!("unknown move {other}"),
    };
    for seed in 0..1500 {
        let mut game = Game::new(&rules, &deck, seed, Log::Keep).expect("game");
        // The player does nothing: the worm's moves are all that happen.
        while game.outcome().is_none() {
            game.end_turn_now().expect("the player's turn ends");
        }
        let moves: Vec<usize> = game.intended(worm).into_iter().map(key).collect();
        assert_eq!(
            moves[0], CHOMP,
            "seed {seed}: the Jaw Worm opens with Chomp"
        );
        for w in moves.windows(2) {
            after.entry(w[0]).or_default()[w[1]] += 1;
        }
        // Never Chomp or Bellow twice running, nor Thrash three times.
        for w in moves.windows(2) {
            assert!(
                !(w[0] == w[1] && w[0] != THRASH),
                "seed {seed}: {moves:?} repeats a move it may not"
            );
        }
        for w in moves.windows(3) {
            assert!(
                !(w[0] == THRASH && w[1] == THRASH && w[2] == THRASH),
                "seed {seed}: {moves:?} thrashes three times running"
            );
        }
    }
    // Each move is drawn by its weight among those allowed: after Chomp,
    // Bellow 45 and Thrash 30 (Bellow 60 %); after Bellow, Thrash 30 and
    // Chomp 25 (Thrash 54.5 %).
    let share =
        |counts: [u32; 3], m: usize| f64::from(counts[m]) / f64::from(counts.iter().sum::<u32>());
    let after_chomp = after[&CHOMP];
    assert_eq!(after_chomp[CHOMP], 0);
    assert!(
        (share(after_chomp, BELLOW) - 0.6).abs() < 0.03,
        "{after_chomp:?}"
    );
    let after_bellow = after[&BELLOW];
    assert_eq!(after_bellow[BELLOW], 0);
    assert!(
        (share(after_bellow, THRASH) - 30.0 / 55.0).abs() < 0.03,
        "{after_bellow:?}"
    );
    assert!(after_chomp.iter().sum::<u32>() > 1000, "{after_chomp:?}");
}

#[test]
fn the_intent_is_in_the_seat_s_view_and_observation_before_it_acts() {
    let (rules, deck) = solo("jaw-worm");
    let mut game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    let me = EntityId::FIRST;
    assert_eq!(game.ctx().current, me);
    let view = game.view(me);
    assert_eq!(view.intents.len(), 1, "{:?}", view.intents);
    let intent = &view.intents[0];
    assert_eq!(
        (intent.entity, intent.chosen, intent.amount),
        (EntityId::new(1), 0, Some(11))
    );
    assert_eq!(
        game.intent_words(EntityId::new(1)).as_deref(),
        Some("Chomp: 11 damage")
    );
    // The observation carries it: a one-hot of Chomp, and its 11.
    let space = grimoire::engine::observe::ActionSpace::new(&rules, &deck).expect("a space");
    let layout = grimoire::engine::observe::ObsLayout::new(&rules, &deck, &space);
    let field = layout
        .fields()
        .iter()
        .find(|f| f.name == "intents")
        .expect("an intents field");
    let mut obs = vec![0; layout.len()];
    let mut ranks = grimoire::engine::observe::Ranks::new(&rules);
    ranks.update(&game);
    layout.encode(&game, &ranks, 0, &mut obs).expect("observe");
    let width = field.shape[1];
    // The worm is the first row after the seat's.
    let row = &obs[field.offset + width..field.offset + 2 * width];
    assert_eq!(row, &[1, 0, 0, 11]);
    // After its turn it shows its next move, drawn by its script.
    game.end_turn_now().expect("end turn");
    let next = game.view(me).intents;
    assert_eq!(next.len(), 1);
    assert_ne!(next[0].chosen, 0, "never Chomp twice running");
}

#[test]
fn a_death_is_a_loss_in_simulate_s_json_and_no_loss_is_a_draw() {
    let rules = root(SOLO);
    let cards = root(CARDS);
    let args = [
        "simulate",
        &rules.to_string_lossy(),
        "--cards",
        &cards.to_string_lossy(),
        "--encounter",
        "brute",
        "--games",
        "2000",
        "--format",
        "json",
    ];
    let out = common::run_in(&args, "", None);
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["encounter"], "brute");
    let seat = &json["seats"][0];
    let (wins, losses) = (
        seat["wins"].as_u64().unwrap(),
        seat["losses"].as_u64().unwrap(),
    );
    assert!(
        losses > 0,
        "random play loses some fights to the Brute: {seat}"
    );
    assert_eq!(wins + losses, 2000, "every fight is won or lost: {json}");
    // `--versus-cards` compares the losses too.
    let versus = common::run_in(
        &[
            &args[..6],
            &[
                "--games",
                "300",
                "--versus-cards",
                &root("tests/data/solo/cards/strong").to_string_lossy(),
                "--format",
                "json",
            ],
        ]
        .concat(),
        "",
        None,
    );
    let versus: serde_json::Value = serde_json::from_slice(&versus.stdout).expect("json");
    assert!(versus["seats"][0]["loss_rate"].is_array(), "{versus}");
    assert_eq!(json["ties"], 0);
    // A rule set with no `:loser` has no losses key.
    let arcomage = common::run_in(
        &["simulate", "arcomage", "--games", "10", "--format", "json"],
        "",
        None,
    );
    let json: serde_json::Value = serde_json::from_slice(&arcomage.stdout).expect("json");
    assert!(json["seats"][0].get("losses").is_none(), "{json}");
    assert!(json.get("encounter").is_none(), "{json}");
}

#[test]
fn an_encounter_draws_its_values_from_their_ranges_by_seed() {
    let (rules, deck) = solo("cultist");
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let game = Game::new(&rules, &deck, seed, Log::Skip).expect("game");
        let again = Game::new(&rules, &deck, seed, Log::Skip).expect("game");
        let health = rules.attribute("health").expect("health");
        let h = game.state().get(EntityId::new(1), health);
        assert_eq!(
            h,
            again.state().get(EntityId::new(1), health),
            "same seed, same fight"
        );
        assert!((48..=54).contains(&h), "{h}");
        seen.insert(h);
    }
    assert_eq!(seen.len(), 7, "every value of 48 to 54 is drawn: {seen:?}");
    assert_eq!(rules.game_entity_names(), ["p1", "cultist"]);
    // An encounter the rule set lacks is refused, naming those it has.
    let mut rules = rules;
    let err = rules.choose_encounter("dragon").unwrap_err();
    assert!(err.contains("`jaw-worm`, `cultist` and `brute`"), "{err}");
}

#[test]
fn a_loss_ends_the_game_even_when_the_seat_left_play() {
    let (rules, deck) = solo("jaw-worm");
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).expect("game");
    let health = rules.attribute("health").expect("health");
    game.set(EntityId::FIRST, health, 1);
    game.end_turn_now().expect("end turn");
    assert!(
        matches!(game.outcome(), Some(Outcome::Loss { seat, .. }) if seat == EntityId::FIRST),
        "{:?}",
        game.outcome()
    );
}

#[test]
fn simulate_reports_the_health_left_with_an_interval_and_a_stronger_strike_raises_it() {
    let rules = root(SOLO).to_string_lossy().into_owned();
    let cards = root(CARDS).to_string_lossy().into_owned();
    let strong = root("tests/data/solo/cards/strong");
    let run = |extra: &[&str]| {
        let args = [
            &[
                "simulate", &rules, "--cards", &cards, "--games", "1000", "--ai", "greedy",
            ][..],
            extra,
        ]
        .concat();
        let out = common::run_in(&args, "", None);
        assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
        common::text(&out.stdout)
    };
    // The table: the metric's mean with its interval, overall and per card.
    let human = run(&[]);
    let line = human
        .lines()
        .find(|l| l.starts_with("health-left"))
        .unwrap_or_else(|| panic!("a health-left line: {human}"));
    assert!(line.contains('(') && line.contains('-'), "{line}");
    let json: serde_json::Value = serde_json::from_str(&run(&["--format", "json"])).expect("json");
    let health = &json["metrics"]["health-left"];
    let (mean, low, high) = (
        health["mean"].as_f64().unwrap(),
        health["low"].as_f64().unwrap(),
        health["high"].as_f64().unwrap(),
    );
    assert!(
        low < mean && mean < high && mean > 50.0 && mean <= 80.0,
        "{health}"
    );
    let strike = &health["cards"][0];
    assert_eq!(strike["card"], "Strike");
    assert_eq!(strike["in_hand"]["n"], 1000);
    // The same seeds with a Strike of 9: the player ends with clearly more health.
    let versus: serde_json::Value = serde_json::from_str(&run(&[
        "--versus-cards",
        &strong.to_string_lossy(),
        "--format",
        "json",
    ]))
    .expect("json");
    let change = &versus["metrics"]["health-left"];
    assert_eq!(change["significant"], true, "{change}");
    assert!(change["low"].as_f64().unwrap() > 1.0, "{change}");
    assert_eq!(versus["encounter"], "jaw-worm");
}

/// The codes and messages of a rule set's errors, or none.
fn errors(text: &str) -> Vec<(String, String)> {
    match RuleSet::parse(text) {
        Ok(_) => Vec::new(),
        Err(diags) => diags
            .iter()
            .map(|d| (d.code.as_str().to_string(), d.message.clone()))
            .collect(),
    }
}

/// A one-seat rule set whose enemy kind is written `worm`.
fn fight(worm: &str, rest: &str) -> String {
    format!(
        r#"{{:rules :fight
 :roles {{:you "the player"}}
 :kinds {{:player "the player" :card {{:card true :doc "a card"}} :worm {worm}}}
 :attributes {{:health {{:default 40 :min 0}} :strength {{:default 0}}}}
 :seats [:p1]
 {rest}}}"#
    )
}

#[test]
fn scripts_that_could_never_play_out_are_located_errors() {
    let bite = r#":moves {:bite {:intent "damage" :amount 6 :effects [{:effected :you :resource :health :amount -6}]}}"#;
    let cases: [(String, &str, &str); 6] = [
        (
            fight(&format!("{{:doc \"w\" {bite} :script {{:pick []}}}}"), ""),
            "E0301",
            "`:pick` names no move",
        ),
        (
            fight(&format!("{{:doc \"w\" {bite} :turns []}}"), ""),
            "E0315",
            "takes no turn",
        ),
        (
            fight(
                r#"{:doc "w" :moves {:bite {:intent "hits for {amount}" :effects []}}}"#,
                "",
            ),
            "E0005",
            "shows `{amount}`",
        ),
        (
            fight(&format!("{{:doc \"w\" {bite}}}"), ":encounters {}"),
            "E0301",
            "declares no encounter",
        ),
        (
            fight(&format!("{{:doc \"w\" {bite}}}"), "").replace(
                ":card {:card true :doc \"a card\"}",
                &format!(":card {{:card true :doc \"a card\" {bite}}}"),
            ),
            "E0315",
            "a kind of card",
        ),
        (
            fight(
                &format!(
                    "{{:doc \"w\" {bite} :script {{:pick [{}]}}}}",
                    "{:move :bite} ".repeat(256)
                ),
                "",
            ),
            "E0011",
            "at most 255 entries",
        ),
    ];
    for (text, code, words) in cases {
        let found = errors(&text);
        assert!(
            found.iter().any(|(c, m)| c == code && m.contains(words)),
            "{code} {words:?}: {found:?}"
        );
    }
}

#[test]
fn no_intent_is_chosen_once_the_game_is_over_and_an_amount_never_spends_the_game_s_budget() {
    // A round's start slays the player: the slime that chooses at round
    // start chooses nothing after that.
    let text = fight(
        r#"{:doc "w" :removed-when [<= [:self :health] 0]
            :moves {:a {:name "A" :intent "damage" :amount [+ 1 [:self :strength]] :effects [{:effected :you :resource :health :amount -1}]}}
            :script {:decide-at :round-start}}"#,
        r#":setup {:w1 {:kind :worm}}
 :timings {:rs {:at :round-start}}
 :hooks {:rs [{:effected :you :resource :health :amount -30}]}
 :victory [{:when [<= [:you :health] 0] :loser :you :reason "slain"}]"#,
    );
    let rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let mut game = Game::new(&rules, &[], 1, Log::Keep).expect("game");
    while game.outcome().is_none() {
        game.end_turn_now().expect("end turn");
    }
    let log = game.log().expect("log");
    let ended = log
        .iter()
        .position(|e| matches!(e, grimoire::engine::GameEvent::Ended(_)))
        .expect("the game ended");
    assert!(
        !log[ended..]
            .iter()
            .any(|e| matches!(e, grimoire::engine::GameEvent::Intends { .. })),
        "{log:?}"
    );
    // Twenty enemies whose amount counts them all, on a work budget of 100:
    // reading the amounts again after every change costs the game nothing.
    let worms: String = (0..20).map(|i| format!(":w{i} {{:kind :worm}} ")).collect();
    let text = fight(
        r#"{:doc "w" :removed-when [<= [:self :health] 0]
            :moves {:a {:intent "damage" :amount [count :worm] :effects [{:effected :you :resource :health :amount -1}]}}}"#,
        &format!(
            ":setup {{{worms}}} :budgets {{:work 100}} :turns {{:limit 6}}
 :victory [{{:when [<= [:you :health] 0] :loser :you :reason \"slain\"}}]"
        ),
    );
    let rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let mut game = Game::new(&rules, &[], 1, Log::Skip).expect("game");
    while game.outcome().is_none() {
        game.end_turn_now().expect("end turn");
    }
    assert!(
        !matches!(game.outcome(), Some(Outcome::Aborted(_))),
        "{:?}",
        game.outcome()
    );
}

#[test]
fn a_person_is_shown_the_intent_and_eval_names_the_encounter_s_enemies() {
    let (rules, cards) = (root(SOLO), root(CARDS));
    let out = common::run_in(
        &[
            "play",
            &rules.to_string_lossy(),
            "--cards",
            &cards.to_string_lossy(),
            "--human",
        ],
        "q\n",
        None,
    );
    let shown = common::text(&out.stdout);
    assert!(
        shown.contains("jaw-worm intends Chomp: 11 damage\np1's draw"),
        "the screen under the table: {shown}"
    );
    assert!(
        shown.starts_with("solo · encounter jaw-worm · seed 1"),
        "{shown}"
    );
    let out = common::run_in(
        &[
            "eval",
            "--rules",
            &rules.to_string_lossy(),
            "--cards",
            &cards.to_string_lossy(),
            "--set",
            "jaw-worm.health=3",
            "[]",
        ],
        "",
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
}

/// Moves `:a`, `:b` and `:c` of 1 damage each, opening with `:a`, then the
/// draw `pick`.
fn abc(pick: &str) -> String {
    let hit = r#":effects [{:effected :you :resource :health :amount -1}]"#;
    fight(
        &format!(
            r#"{{:doc "w" :moves {{:a {{:intent "a" {hit}}} :b {{:intent "b" {hit}}} :c {{:intent "c" {hit}}}}}
                :script {{:first :a :pick {pick}}}}}"#
        ),
        r#":setup {:w1 {:kind :worm}} :turns {:limit 40}"#,
    )
}

/// How often each move came right after an `:a`, over `games` seeds.
fn after_a(text: &str, games: u64) -> std::collections::BTreeMap<String, u32> {
    let rules = RuleSet::parse(text).unwrap_or_else(|d| panic!("{d:#?}"));
    let mut after = std::collections::BTreeMap::new();
    for seed in 0..games {
        let mut game = Game::new(&rules, &[], seed, Log::Keep).expect("game");
        while game.outcome().is_none() {
            game.end_turn_now().expect("end turn");
        }
        for w in game.intended(EntityId::new(1)).windows(2) {
            if w[0] == "a" {
                *after.entry(w[1].to_string()).or_default() += 1;
            }
        }
    }
    after
}

#[test]
fn an_entry_not_allowed_draws_its_move_from_its_instead_list() {
    // `:a` may not come twice: drawn (99 in 100) after an `:a`, it becomes
    // `:b`. Without `:instead` its weight would go to `:c`, the only entry
    // left, every time.
    let after = after_a(
        &abc("[{:move :a :weight 99 :max-in-a-row 1 :instead [{:move :b}]} {:move :c}]"),
        40,
    );
    let count = |m: &str| after.get(m).copied().unwrap_or(0);
    let (b, c) = (count("b"), count("c"));
    assert!(!after.contains_key("a"), "{after:?}");
    // 19 draws in 20 at the least (99 in 100 expected): far from none.
    assert!(b * 20 >= (b + c) * 19 && b + c > 100, "{after:?}");
    // The `:instead` entries obey their own rules: with none allowed, the
    // entry is left out of the draw and its weight shared out as before.
    let after = after_a(
        &abc(
            "[{:move :a :weight 99 :max-in-a-row 1 :instead [{:move :b :when [> 0 1]}]} {:move :c}]",
        ),
        40,
    );
    assert_eq!(after.keys().collect::<Vec<_>>(), ["c"], "{after:?}");
}

#[test]
fn an_instead_list_that_cannot_work_is_a_located_error() {
    let cases = [
        (
            "[{:move :a :max-in-a-row 1 :instead [{:move :d}]}]",
            "E0244",
            ":d",
        ),
        ("[{:move :a :max-in-a-row 1 :instead :b}]", "E0006", ":b"),
        ("[{:move :a :max-in-a-row 1 :instead []}]", "E0301", "[]"),
        (
            "[{:move :a :instead [{:move :b}]}]",
            "E0315",
            "[{:move :b}]",
        ),
        (
            "[{:move :a :max-in-a-row 1 :instead [{:move :b :max-in-a-row 1 :instead [{:move :c}]}]}]",
            "E0315",
            "[{:move :c}]",
        ),
    ];
    for (pick, code, at) in cases {
        let text = abc(pick);
        let diags = RuleSet::parse(&text).err().unwrap_or_default();
        let found: Vec<_> = diags
            .iter()
            .map(|d| {
                let span = d.span.start as usize..d.span.end as usize;
                (d.code.as_str(), &text[span], d.message.as_str())
            })
            .collect();
        assert!(
            found.iter().any(|&(c, s, _)| c == code && s == at),
            "{pick}: {found:?}"
        );
    }
    // The model's Jaw Worm, written with `:instead`, checks.
    let worm = abc(
        "[{:move :c :weight 45 :max-in-a-row 1 :instead [{:move :a :weight 416} {:move :b :weight 584}]}
          {:move :b :weight 30 :max-in-a-row 2 :instead [{:move :a :weight 357} {:move :c :weight 643}]}
          {:move :a :weight 25 :max-in-a-row 1 :instead [{:move :c :weight 5625} {:move :b :weight 4375}]}]",
    );
    assert!(errors(&worm).is_empty(), "{:?}", errors(&worm));
}
