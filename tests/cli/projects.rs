//! Projects: `grimoire new`, a folder with `grimoire.edn` found from the
//! working folder up, its rule sets named like the bundled ones, and the
//! bundled games behaving byte for byte as the same files in a project. And
//! a rule set given by path, which gets its definitions' statuses.

use std::path::{Path, PathBuf};

use crate::common::{run_in, scratch_dir, text};

/// Runs `grimoire ARGS…` in `dir`, asserts it exits 0, and returns its standard output.
fn ok_in(dir: &Path, args: &[&str]) -> String {
    let out = run_in(args, "", Some(dir));
    assert_eq!(
        out.status.code(),
        Some(0),
        "grimoire {} in {}:\n{}{}",
        args.join(" "),
        dir.display(),
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The package root, where the bundled games' folders are.
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from)
        .expect("a readable folder")
        .flatten()
    {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("a copy");
        }
    }
}

/// The repository's games copied into `dir` as a project of their own.
fn repo_as_project(dir: &Path) {
    for folder in ["rules", "cards", "effects", "tests/scenarios"] {
        copy_tree(&repo().join(folder), &dir.join(folder));
    }
    std::fs::write(dir.join("grimoire.edn"), "{:project \"copy\"}\n").expect("a manifest");
}

#[test]
fn a_new_game_checks_tests_plays_and_simulates_at_once() {
    let dir = scratch_dir("projects-new");
    let said = ok_in(&dir, &["new", "mygame"]);
    assert!(said.contains("grimoire play mygame --seed 1"), "{said}");
    let game = dir.join("mygame");
    for file in [
        "grimoire.edn",
        "README.md",
        "rules/mygame.edn",
        "cards/mygame/spells.edn",
        "effects/mygame/statuses.edn",
        "tests/scenarios/mygame/cards.edn",
    ] {
        assert!(game.join(file).is_file(), "{file} was not made");
    }
    ok_in(&game, &["check"]);
    let tested = ok_in(&game, &["test"]);
    assert!(tested.contains("2 passed, 0 failed"), "{tested}");
    let log = ok_in(&game, &["play", "mygame", "--seed", "1"]);
    assert!(
        log.contains("rules: mygame of project mygame (rules/mygame.edn)"),
        "{log}"
    );
    ok_in(&game, &["simulate", "mygame", "--games", "1000"]);
    // The other commands take the project's name as they take a bundled one.
    let cards = ok_in(&game, &["cards", "mygame"]);
    assert!(cards.contains("Fire Bolt"), "{cards}");
    let said = ok_in(
        &game,
        &["explain", "--rules", "mygame", "--card", "Fire Bolt"],
    );
    assert!(said.contains("acquires burning"), "{said}");
    let burnt = ok_in(
        &game,
        &[
            "eval",
            "--rules",
            "mygame",
            "--status",
            "you=burning",
            "--then",
            "turn-start",
        ],
    );
    assert!(burnt.contains("you.health          20 -> 19"), "{burnt}");
    // From a folder inside the project too, as cargo finds its package.
    let inner = game.join("cards/mygame");
    ok_in(&inner, &["check"]);
    ok_in(&inner, &["test"]);
    ok_in(&inner, &["play", "mygame", "--seed", "1"]);
}

#[test]
fn new_refuses_a_folder_in_use_and_a_name_that_names_no_game() {
    let dir = scratch_dir("projects-new-refused");
    std::fs::create_dir_all(dir.join("full")).expect("a folder");
    std::fs::write(dir.join("full/notes.txt"), "mine").expect("a file");
    let out = run_in(&["new", "full"], "", Some(&dir));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not empty"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("full/notes.txt"))
            .ok()
            .as_deref(),
        Some("mine")
    );
    let out = run_in(&["new", "My Game"], "", Some(&dir));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot name a game"));
    assert!(!dir.join("My Game").exists());
    // An empty folder is filled.
    std::fs::create_dir_all(dir.join("empty")).expect("a folder");
    ok_in(&dir, &["new", "empty"]);
    assert!(dir.join("empty/rules/empty.edn").is_file());
}

#[test]
fn check_and_test_with_no_path_outside_a_project_say_how_to_name_one() {
    let dir = scratch_dir("projects-none");
    for command in ["check", "test"] {
        let out = run_in(&[command], "", Some(&dir));
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            text(&out.stderr).contains("grimoire.edn"),
            "{command}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_bad_manifest_is_a_located_error_of_check() {
    let dir = scratch_dir("projects-bad-manifest");
    ok_in(&dir, &["new", "game"]);
    let game = dir.join("game");
    std::fs::write(
        game.join("grimoire.edn"),
        "{:project \"game\" :versoin 2}\n",
    )
    .unwrap();
    let out = run_in(&["check"], "", Some(&game));
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(said.contains("grimoire.edn:1:"), "{said}");
    assert!(said.contains("unknown key `:versoin`"), "{said}");
    std::fs::write(game.join("grimoire.edn"), "{:project :game}\n").unwrap();
    let out = run_in(&["check"], "", Some(&game));
    assert!(
        text(&out.stderr).contains("error[E0708]"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_project_rule_set_shadows_a_bundled_one_and_the_header_says_so() {
    let dir = scratch_dir("projects-shadow");
    ok_in(&dir, &["new", "arcomage"]);
    let game = dir.join("arcomage");
    let log = ok_in(&game, &["play", "arcomage", "--seed", "1"]);
    assert!(
        log.contains(
            "rules: arcomage of project arcomage (rules/arcomage.edn), not the bundled one\n"
        ),
        "{log}"
    );
    assert!(
        log.contains("deck: cards/arcomage, effects/arcomage, 14 cards"),
        "{log}"
    );
    let summary = ok_in(&game, &["simulate", "arcomage", "--games", "10"]);
    assert!(summary.contains("not the bundled one"), "{summary}");
    let json = ok_in(
        &game,
        &["simulate", "arcomage", "--games", "10", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        json["rules_from"],
        "arcomage of project arcomage (rules/arcomage.edn), not the bundled one"
    );
    // Outside the project the bundled game is played, as ever.
    let bundled = ok_in(&dir, &["play", "arcomage", "--seed", "1"]);
    assert!(bundled.contains("deck: the bundled arcomage deck, 102 cards"));
    assert!(!bundled.contains("rules: "));
    let json = ok_in(
        &dir,
        &["simulate", "arcomage", "--games", "10", "--format", "json"],
    );
    assert!(!json.contains("rules_from"), "{json}");
}

#[test]
fn a_scenario_names_its_project_rule_set_by_name_or_by_relative_path() {
    let dir = scratch_dir("projects-scenario-rules");
    ok_in(&dir, &["new", "spells"]);
    let game = dir.join("spells");
    let scenarios = game.join("tests/scenarios/elsewhere");
    std::fs::create_dir_all(&scenarios).unwrap();
    std::fs::write(
        scenarios.join("by-path.edn"),
        "{:scenario \"Mend heals\" :rules \"../../../rules/spells.edn\"\n :given {:you {:mana 2 :health 10}}\n :play [\"Mend\"]\n :expect {:you {:health 12}}}\n",
    )
    .unwrap();
    std::fs::write(
        scenarios.join("by-name.edn"),
        "{:scenario \"Spark hurts\" :rules :spells\n :given {:you {:mana 1}}\n :play [\"Spark\"]\n :expect {:other {:health 17}}}\n",
    )
    .unwrap();
    ok_in(&game, &["check"]);
    let tested = ok_in(&game, &["test"]);
    assert!(tested.contains("4 passed, 0 failed"), "{tested}");
}

/// Defect: a rule set given by path lost its statuses. `--rules duel`
/// applied Exhausted's −2; `--rules rules/duel.edn` changed nothing.
#[test]
fn eval_of_a_rule_set_by_path_applies_its_statuses() {
    let by_name = ok_in(
        &repo(),
        &["eval", "--rules", "duel", "--status", "you=exhausted", "[]"],
    );
    assert!(
        by_name.contains("you.roll-bonus       0 -> -2"),
        "{by_name}"
    );
    let by_path = ok_in(
        &repo(),
        &[
            "eval",
            "--rules",
            "rules/duel.edn",
            "--status",
            "you=exhausted",
            "[]",
        ],
    );
    assert_eq!(by_path, by_name);
}

/// Defect: `play rules/tbwg.edn --seed 3` dealt with no statuses (DIO's DEX
/// 11 where `play tbwg --seed 3` has 17).
#[test]
fn play_of_a_rule_set_by_path_is_the_game_by_name() {
    let by_name = ok_in(&repo(), &["play", "tbwg", "--seed", "3"]);
    let by_path = ok_in(&repo(), &["play", "rules/tbwg.edn", "--seed", "3"]);
    assert_eq!(by_path, by_name);
}

/// Defect: `simulate rules/tbwg.edn` gave Pain 14.1 % where `tbwg` gave 0.0 %.
#[test]
fn simulate_of_a_rule_set_by_path_is_the_run_by_name() {
    let run = |rules: &str| {
        let out = ok_in(
            &repo(),
            &["simulate", rules, "--games", "100", "--seed", "2"],
        );
        // The header's first line names the rule set as given.
        out.split_once('\n')
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_default()
    };
    assert_eq!(run("rules/tbwg.edn"), run("tbwg"));
}

/// Defect: `eval` never applied a custom rule set's status definitions,
/// even with `--cards` naming them.
#[test]
fn eval_applies_the_statuses_of_a_custom_rule_set() {
    let dir = scratch_dir("projects-eval-statuses");
    let rules = "{:rules :brew\n :roles {:you \"the drinker\" :other \"the other\"}\n :statuses {:weak \"-2 strength\"}\n :attributes {:strength {:default 5}}}\n";
    let statuses = "{:status :weak :polarity :debuff :modifiers {:strength {:add -2}}}\n";
    // Given by path beside its definitions, as in a project's layout.
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("effects/brew")).unwrap();
    std::fs::write(dir.join("rules/brew.edn"), rules).unwrap();
    std::fs::write(dir.join("effects/brew/statuses.edn"), statuses).unwrap();
    let beside = ok_in(
        &dir,
        &[
            "eval",
            "--rules",
            "rules/brew.edn",
            "--status",
            "you=weak",
            "[]",
        ],
    );
    assert!(
        beside.contains("you.strength") && beside.contains("5 -> 3"),
        "{beside}"
    );
    // A loose rule-set file, its statuses named with --cards.
    std::fs::write(dir.join("brew.edn"), rules).unwrap();
    std::fs::write(dir.join("weak.edn"), statuses).unwrap();
    let given = ok_in(
        &dir,
        &[
            "eval", "--rules", "brew.edn", "--cards", "weak.edn", "--status", "you=weak", "[]",
        ],
    );
    assert_eq!(given, beside);
}

/// The repository's games as a project give the bundled names' output byte
/// for byte, but for the lines that say where the rule set and deck came from.
#[test]
fn the_bundled_games_as_a_project_play_byte_for_byte_as_bundled() {
    let dir = scratch_dir("projects-repo-copy");
    repo_as_project(&dir);
    let outside = scratch_dir("projects-repo-outside");
    let without_origin = |log: String| -> String {
        log.lines()
            .filter(|l| !l.starts_with("rules: ") && !l.starts_with("deck: "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let names: Vec<String> = grimoire::check::rules::BUNDLED
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert!(names.len() >= 5, "{names:?}");
    for name in &names {
        for seed in ["1", "2"] {
            let args = ["play", name.as_str(), "--seed", seed];
            let bundled = ok_in(&outside, &args);
            let project = ok_in(&dir, &args);
            assert!(
                project.contains(&format!("rules: {name} of project copy")),
                "{project}"
            );
            assert_eq!(
                without_origin(project),
                without_origin(bundled),
                "{name} seed {seed}"
            );
        }
        let args = [
            "simulate",
            name.as_str(),
            "--games",
            "40",
            "--format",
            "json",
        ];
        let json = |out: String| {
            let mut v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
            // Where the rule set and deck came from is all that may differ.
            v["deck"]["source"] = serde_json::Value::Null;
            if let Some(fields) = v.as_object_mut() {
                fields.remove("rules_from");
            }
            v
        };
        assert_eq!(
            json(ok_in(&dir, &args)),
            json(ok_in(&outside, &args)),
            "{name}"
        );
    }
    for args in [
        &["eval", "--rules", "duel", "--status", "you=exhausted", "[]"][..],
        &[
            "eval", "--rules", "arcomage", "--card", "Dragon", "--format", "json",
        ][..],
        &[
            "eval",
            "--rules",
            "skills",
            "--card",
            "Fireball",
            "--status",
            "you=increasePower1@23",
        ][..],
        &[
            "eval",
            "--rules",
            "tactics",
            "--status",
            "hero=weakness",
            "--then",
            "round-end",
        ][..],
    ] {
        assert_eq!(ok_in(&dir, args), ok_in(&outside, args), "{args:?}");
    }
    assert_eq!(
        ok_in(&dir, &["test"]),
        ok_in(&repo(), &["test", "tests/scenarios"])
    );
    ok_in(&dir, &["check"]);
}

/// A project's game recorded inside it replays byte for byte from anywhere:
/// the recording names the rule set's file, and the header says the same.
#[test]
fn a_project_game_replays_from_outside_the_project() {
    let dir = scratch_dir("projects-replay");
    ok_in(&dir, &["new", "mygame"]);
    let inner = dir.join("mygame/cards");
    let recording = dir.join("game.json");
    let recording_arg = recording.to_string_lossy().into_owned();
    let played = ok_in(
        &inner,
        &["play", "mygame", "--seed", "4", "--record", &recording_arg],
    );
    assert!(
        played.contains("\nrules: mygame of project mygame (rules/mygame.edn)\ndeck: cards/mygame, effects/mygame, 14 cards\n"),
        "{played}"
    );
    assert_eq!(ok_in(&dir, &["replay", &recording_arg]), played);
}

#[test]
fn a_status_declared_and_not_defined_or_defined_wrong_stops_every_command() {
    let dir = scratch_dir("projects-status-errors");
    ok_in(&dir, &["new", "spells"]);
    let game = dir.join("spells");
    let rules = game.join("rules/spells.edn");
    let statuses = game.join("effects/spells/statuses.edn");
    let (rules_text, statuses_text) = (
        std::fs::read_to_string(&rules).unwrap(),
        std::fs::read_to_string(&statuses).unwrap(),
    );
    // Declared, defined nowhere: it would never run out and do nothing.
    let declared = rules_text.replacen(":statuses {", ":statuses {:frozen \"skips a turn\" ", 1);
    assert_ne!(declared, rules_text);
    std::fs::write(&rules, &declared).unwrap();
    for args in [
        &["play", "spells", "--seed", "1"][..],
        &["simulate", "spells", "--games", "10"],
        &["eval", "--rules", "spells", "[]"],
        &["eval", "--rules", "rules/spells.edn", "[]"],
    ] {
        let out = run_in(args, "", Some(&game));
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let said = text(&out.stderr);
        assert!(said.contains("error[E0312]"), "{args:?}: {said}");
        assert!(said.contains("rules/spells.edn:"), "{args:?}: {said}");
    }
    std::fs::write(&rules, &rules_text).unwrap();
    // A definition with an error: the status is not silently left out.
    let broken = statuses_text.replacen(":polarity :debuff", ":polarity :debuf", 1);
    assert_ne!(broken, statuses_text);
    std::fs::write(&statuses, &broken).unwrap();
    let out = run_in(
        &["eval", "--rules", "spells", "--status", "you=burning", "[]"],
        "",
        Some(&game),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let said = text(&out.stderr);
    assert!(said.contains("error[E0009]"), "{said}");
    assert!(said.contains("statuses.edn:"), "{said}");
}

/// Defect: a relative path inside a data folder lost its rule set
/// (`check spells.edn` typed in `cards/mygame/` was E0702, `check
/// $PWD/spells.edn` checked); diagnostics still show the path as typed.
#[test]
fn a_relative_path_in_a_data_folder_is_told_its_rule_set_by_where_it_is() {
    let dir = scratch_dir("projects-relative");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    let cards = game.join("cards/mygame");
    for path in ["spells.edn", "./spells.edn", "."] {
        ok_in(&cards, &["check", path]);
    }
    std::fs::write(
        cards.join("bad.edn"),
        "{:card \"Dud\" :type :mana :cost 1 :copies 1 :text \"x\"\n :effects [{:effected :you :resource :helth :amount 1}]}\n",
    )
    .unwrap();
    let out = run_in(&["check", "bad.edn"], "", Some(&cards));
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(said.contains("bad.edn:2:"), "{said}");
    assert!(
        !said.contains("E0702") && !said.contains("mygame/bad.edn"),
        "{said}"
    );
    std::fs::remove_file(cards.join("bad.edn")).unwrap();
    // A scenario file with no `:rules`, tested from its own folder.
    let scenarios = game.join("tests/scenarios/mygame");
    std::fs::write(
        scenarios.join("folder.edn"),
        "{:scenario \"Spark hurts\"\n :given {:you {:mana 1}}\n :play [\"Spark\"]\n :expect {:other {:health 17}}}\n",
    )
    .unwrap();
    let tested = ok_in(&scenarios, &["test", "folder.edn"]);
    assert!(
        tested.contains("ok    folder.edn:1: Spark hurts"),
        "{tested}"
    );
    assert!(tested.contains("1 passed, 0 failed"), "{tested}");
    let tested = ok_in(
        &repo().join("tests/scenarios/tactics"),
        &["test", "board.edn"],
    );
    assert!(tested.contains(" passed, 0 failed"), "{tested}");
}

/// Defect: a scenario that did not load (an unknown card) was left out of
/// the summary: E0604, then "2 passed, 0 failed".
#[test]
fn test_counts_a_scenario_that_does_not_load_as_failed() {
    let dir = scratch_dir("projects-scenario-not-run");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    std::fs::write(
        game.join("tests/scenarios/mygame/typo.edn"),
        "{:scenario \"Sprak typo\" :rules :mygame\n :play [\"Sprak\"]\n :expect {:other {:health 17}}}\n",
    )
    .unwrap();
    let out = run_in(&["test"], "", Some(&game));
    let (said, errors) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{said}{errors}");
    assert!(errors.contains("error[E0604]"), "{errors}");
    assert!(
        said.contains("FAIL  tests/scenarios/mygame/typo.edn:1: Sprak typo\n        not run:"),
        "{said}"
    );
    assert!(said.ends_with("2 passed, 1 failed\n"), "{said}");
}

/// Defect: one scenario file's bad `:rules` stopped `test` with an unplaced
/// E0703 (exit 2) and ran nothing.
#[test]
fn test_places_a_bad_rules_and_runs_the_other_files() {
    let dir = scratch_dir("projects-bad-scenarios");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    let scenarios = game.join("tests/scenarios");
    std::fs::create_dir_all(scenarios.join("other")).unwrap();
    std::fs::write(
        scenarios.join("other/name.edn"),
        "{:scenario \"By a wrong name\"\n :rules :mygam\n :play [\"Spark\"]\n :expect {:other {:health 17}}}\n",
    )
    .unwrap();
    std::fs::write(
        scenarios.join("other/path.edn"),
        "{:scenario \"By a wrong path\"\n :rules \"../../../rules/nope.edn\"\n :play [\"Spark\"]\n :expect {:other {:health 17}}}\n",
    )
    .unwrap();
    let out = run_in(&["test"], "", Some(&game));
    let (said, errors) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{said}{errors}");
    // The good file's scenarios still run; every scenario is counted.
    assert!(
        said.contains("ok    tests/scenarios/mygame/cards.edn:4:"),
        "{said}"
    );
    for name in [
        "other/name.edn:1: By a wrong name",
        "other/path.edn:1: By a wrong path",
    ] {
        assert!(
            said.contains(&format!("FAIL  tests/scenarios/{name}")),
            "{said}"
        );
    }
    assert!(said.ends_with("2 passed, 2 failed\n"), "{said}");
    for file in ["name", "path"] {
        assert!(
            errors.contains(&format!("--> tests/scenarios/other/{file}.edn:2:9")),
            "{errors}"
        );
    }
}

/// Defect: `test` in a project with no `tests/scenarios/` was an I/O error
/// ("tests/scenarios: No such file or directory", exit 2); a project made by
/// hand has no scenarios yet, and nothing failed.
#[test]
fn test_in_a_project_with_no_scenarios_yet_says_where_they_go() {
    let dir = scratch_dir("projects-no-scenarios");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    std::fs::remove_dir_all(game.join("tests")).unwrap();
    let out = run_in(&["test"], "", Some(&game));
    let (said, errors) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{said}{errors}");
    assert_eq!(said, "0 passed, 0 failed\n");
    assert!(errors.contains("no scenarios yet"), "{errors}");
    assert!(errors.contains("tests/scenarios/NAME/"), "{errors}");
    assert!(!errors.contains("No such file"), "{errors}");
}

#[test]
fn a_broken_manifest_stops_every_command_of_the_project_with_its_errors() {
    let dir = scratch_dir("projects-broken-manifest");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    let broken: [&[u8]; 4] = [
        b"{:project \"My Game\"}\n",
        b"{:project",
        b"",
        b"\x00\xff\xfe",
    ];
    for manifest in broken {
        std::fs::write(game.join("grimoire.edn"), manifest).expect("a manifest");
        let shown = String::from_utf8_lossy(manifest);
        for args in [
            &["check"][..],
            &["test"],
            &["play", "mygame", "--seed", "1"],
            &["simulate", "mygame", "--games", "2"],
            &["play", "rules/mygame.edn", "--seed", "1"],
        ] {
            let out = run_in(args, "", Some(&game));
            let said = text(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{args:?} with {shown:?}: {said}"
            );
            assert!(
                said.contains("grimoire.edn:1:"),
                "{args:?} with {shown:?}: {said}"
            );
            assert!(text(&out.stdout).lines().all(|l| !l.starts_with("rules: ")));
        }
    }
}

#[test]
fn a_rule_set_with_no_definitions_folder_says_where_its_cards_were_looked_for() {
    let dir = scratch_dir("projects-no-cards");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    let text_of = std::fs::read_to_string(game.join("rules/mygame.edn")).expect("a rule set");
    std::fs::write(
        game.join("rules/duel.edn"),
        text_of.replace(":rules :mygame", ":rules :duel"),
    )
    .expect("a rule set");
    let out = run_in(&["play", "duel", "--seed", "1"], "", Some(&game));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error[E0704]: no cards for rule set `duel`: looked in `cards/duel/` and `effects/duel/`, and there is no such folder\n"
    );
    // From a folder inside the project, the folders as seen from there.
    let out = run_in(
        &["play", "duel", "--seed", "1"],
        "",
        Some(&game.join("rules")),
    );
    assert!(
        text(&out.stderr).contains("looked in `../cards/duel/` and `../effects/duel/`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_project_rule_set_file_must_be_named_after_its_rule_set() {
    let dir = scratch_dir("projects-misnamed");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    let text_of = std::fs::read_to_string(game.join("rules/mygame.edn")).expect("a rule set");
    let wrong = text_of.replace(":rules :mygame", ":rules :wrongname");
    std::fs::write(game.join("rules/second.edn"), &wrong).expect("a rule set");
    let out = run_in(&["check"], "", Some(&game));
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let line = wrong[..wrong.find(":wrongname").expect("renamed")]
        .lines()
        .count();
    assert!(
        said.contains(&format!("error[E0709]: this file is the rule set `second`, named by its file, but its `:rules` is `:wrongname`\n  --> rules/second.edn:{line}:9\n")),
        "{said}"
    );
    assert!(
        said.contains("help: rename the file to `rules/wrongname.edn`, or write `:rules :second`"),
        "{said}"
    );
    // Played by its file's name, it is refused with the same error.
    let out = run_in(&["play", "second", "--seed", "1"], "", Some(&game));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("error[E0709]"),
        "{}",
        text(&out.stderr)
    );
    // A rule-set file outside a project's `rules/` folder may have any name.
    std::fs::remove_file(game.join("rules/second.edn")).expect("removed");
    std::fs::write(dir.join("second.edn"), &wrong).expect("a loose rule set");
    ok_in(&dir, &["check", "second.edn"]);
}

#[test]
fn an_unknown_rule_set_in_a_project_lists_the_project_s_apart_from_the_bundled() {
    let dir = scratch_dir("projects-unknown-rule-set");
    ok_in(&dir, &["new", "mygame"]);
    let out = run_in(
        &["play", "nosuch", "--seed", "1"],
        "",
        Some(&dir.join("mygame")),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(
            "error[E0703]: no rule set `nosuch`: it is not a rule set of project mygame (mygame) or bundled (arcomage, deckbuilder, deduction, duel, minions, skills, tactics, tbwg), and not a readable file ("
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_manifest_name_that_is_a_string_but_no_name_says_what_a_name_is() {
    let dir = scratch_dir("projects-manifest-name");
    ok_in(&dir, &["new", "mygame"]);
    let game = dir.join("mygame");
    std::fs::write(game.join("grimoire.edn"), "{:project \"My Game\"}\n").expect("a manifest");
    let out = run_in(&["check"], "", Some(&game));
    let said = text(&out.stderr);
    assert!(
        said.contains("error[E0708]: \"My Game\" is not a valid project name\n"),
        "{said}"
    );
    assert!(
        said.contains("help: a project's name is a lowercase letter, then lowercase letters, digits, `-` or `_`, such as \"my-game\""),
        "{said}"
    );
    assert!(!said.contains("found a string"), "{said}");
}

#[test]
fn new_with_a_path_that_ends_in_no_folder_name_says_what_was_given() {
    let dir = scratch_dir("projects-new-dotdot");
    let inner = dir.join("inner");
    std::fs::create_dir_all(&inner).expect("a folder");
    let out = run_in(&["new", ".."], "", Some(&inner));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: `..` cannot name a game: it names no new folder (the folder's name is the game's)\nhelp: try `grimoire new my-game`\n"
    );
}

/// A rule set checked with only some of its definitions files is not told
/// its statuses are undefined: they are in the files left out.
#[test]
fn a_check_of_the_rule_set_and_cards_alone_does_not_call_its_statuses_undefined() {
    let dir = scratch_dir("projects-partial-check");
    ok_in(&dir, &["new", "spells"]);
    let game = dir.join("spells");
    // `:burning` is declared in rules/ and defined in effects/, left out here.
    let said = ok_in(&game, &["check", "rules/spells.edn", "cards"]);
    assert!(said.is_empty(), "{said}");
    let out = run_in(&["check", "rules/spells.edn", "cards"], "", Some(&game));
    assert!(
        !text(&out.stderr).contains("E0312"),
        "{}",
        text(&out.stderr)
    );
    // With every file of the rule set, an undefined one is still found.
    let rules = game.join("rules/spells.edn");
    let text_before = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(
        &rules,
        text_before.replacen(":statuses {", ":statuses {:frozen \"skips a turn\" ", 1),
    )
    .unwrap();
    let out = run_in(&["check", "rules", "cards", "effects"], "", Some(&game));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("error[E0312]"),
        "{}",
        text(&out.stderr)
    );
}
