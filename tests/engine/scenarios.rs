//! Runs every scenario under tests/scenarios, as `grimoire test` does, and keeps their logs as snapshots.

use std::fmt::Write as _;
use std::path::PathBuf;

use grimoire::cli;

#[test]
fn every_scenario_passes() {
    let outcomes = cli::run_scenarios(&[PathBuf::from("tests/scenarios")], &[], false)
        .unwrap_or_else(|out| panic!("{}", out.stderr));
    assert!(outcomes.len() >= 190, "only {} scenarios", outcomes.len());
    let failures: Vec<String> = outcomes
        .iter()
        .filter_map(|o| {
            o.result
                .as_ref()
                .err()
                .map(|why| format!("{}\n  {}", o.name, why.join("\n  ")))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn scenario_logs() {
    insta::glob!("..", "scenarios/arcomage/*.edn", |path| {
        insta::assert_snapshot!(logs_of(path))
    });
}

#[test]
fn tactics_scenario_logs() {
    insta::glob!("..", "scenarios/tactics/*.edn", |path| {
        insta::assert_snapshot!(logs_of(path))
    });
}

#[test]
fn duel_scenario_logs() {
    insta::glob!("..", "scenarios/duel/*.edn", |path| {
        insta::assert_snapshot!(logs_of(path))
    });
}

#[test]
fn tbwg_scenario_logs() {
    insta::glob!("..", "scenarios/tbwg/*.edn", |path| {
        insta::assert_snapshot!(logs_of(path))
    });
}

/// The logs of the scenarios of one file, each under its name.
fn logs_of(path: &std::path::Path) -> String {
    let rel = std::path::Path::new("tests").join(
        path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .strip_prefix("tests")
            .unwrap_or(path),
    );
    let outcomes =
        cli::run_scenarios(&[rel], &[], false).unwrap_or_else(|out| panic!("{}", out.stderr));
    let mut text = String::new();
    for o in &outcomes {
        let _ = writeln!(
            text,
            "== {}",
            o.name.split(": ").skip(1).collect::<Vec<_>>().join(": ")
        );
        match &o.result {
            Ok(log) => text.push_str(log),
            Err(why) => text.push_str(&format!("FAILED: {}\n", why.join("; "))),
        }
    }
    text
}

#[test]
fn a_wrong_expectation_fails_with_the_difference() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios/arcomage");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.edn");
    std::fs::write(
        &file,
        "{:scenario \"Miners gives two\" :given {:you {:bricks 5}} :play [\"Miners\"] :expect {:you {:quarry 4}}}\n\
         {:scenario \"Lodestone discarded\" :play [[:discard \"Lodestone\"]] :expect {:next :other}}\n\
         {:scenario \"Miners refused\" :given {:you {:bricks 5}} :play [[:refused \"Miners\"]] :expect {:next :other}}",
    )
    .unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains("you.quarry is 3, expected 4"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Lodestone cannot be discarded"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("expected playing Miners to be refused"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("0 passed, 3 failed\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn next_turn_ends_a_turn_that_could_go_on_or_fails_saying_why() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios-next-turn/arcomage");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("next.edn");
    // Faerie says "play again": `:next-turn` ends the turn anyway, so the
    // second Faerie is the other seat's. Prism makes its player discard first.
    std::fs::write(
        &file,
        "{:scenario \"ends a turn\" :play [\"Faerie\" :next-turn \"Faerie\"] :expect {:you {:wall 8} :other {:wall 8} :next :other}}\n\
         {:scenario \"must discard\" :given {:you {:gems 5}} :play [\"Prism\" :next-turn] :expect {:next :other}}",
    )
    .unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with("ok") && l.ends_with("ends a turn")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("step 2: `:next-turn` cannot end the turn: you must discard a card first"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("1 passed, 1 failed\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_spawned_entity_is_named_by_kind_and_number_and_only_once_it_has_entered_play() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios-spawned/tactics");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("spawned.edn");
    // The foe-minion's death leaves a tile: entity 33, after 2 seats, 4 units, 2 rocks, 25 cells.
    let kill =
        ":given {:hero {:x 3 :y 3} :foe-minion {:hp 2}} :play [[:act :hero :attack :foe-minion]]";
    std::fs::write(
        &file,
        format!(
            "{{:scenario \"names its tile\" {kill} :expect {{:tile#33 {{:ttl 2}} :gone [:foe-minion]}}}}\n\
             {{:scenario \"too early\" :play [[:act :hero :attack :unit#33]] :expect {{:hero {{:y 0}}}}}}\n\
             {{:scenario \"another kind\" {kill} :expect {{:unit#33 {{:hp 1}}}}}}"
        ),
    )
    .unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1, "{}", out.stdout);
    for want in [
        "step 1: unit#33 has not entered play",
        "there is no unit#33: entity 33 entered play as tile#33",
        "1 passed, 2 failed",
    ] {
        assert!(out.stdout.contains(want), "{want}: {}", out.stdout);
    }
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with("ok") && l.ends_with("names its tile")),
        "{}",
        out.stdout
    );
}

#[test]
fn a_spawned_name_that_cannot_be_one_is_an_error_at_its_place() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios-spawned-bad/tactics");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.edn");
    std::fs::write(
        &file,
        "{:scenario \"bad\" :play [[:act :#7 :attack :p2] [:act :unit#3 :wait] [:act :unti#40 :wait]] :expect {:hero {:y 0}}}\n",
    )
    .unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1);
    for want in [
        "expected a role or entity, found :#7",
        "an entity that enters play is named by its kind and number, as logs name it: `:tile#33`",
        "entity 3 does not enter play: the game starts with it, as `:minion`",
        "did you mean `:unit#40`?",
        "bad.edn:1:31",
    ] {
        assert!(out.stderr.contains(want), "{want}: {}", out.stderr);
    }
}

#[test]
fn an_empty_scenario_file_says_it_holds_none() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios-empty/tactics");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("empty.edn");
    std::fs::write(&file, "").unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("error: no scenarios in "),
        "{}",
        out.stderr
    );
}

#[test]
fn a_misspelt_action_or_status_in_a_scenario_is_named_with_the_nearest() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios-typos/tactics");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("typos.edn");
    std::fs::write(
        &file,
        "{:scenario \"typos\" :play [[:act :hero :mvoe :cell-2-1] [:status :hero :powr]] :expect {:hero {:y 1}}}\n",
    )
    .unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1);
    for want in [
        "unknown action `:mvoe`",
        "did you mean `:move`?",
        "unknown status `:powr`",
        "did you mean `:power`?",
        "typos.edn:1:39",
    ] {
        assert!(out.stderr.contains(want), "{want}: {}", out.stderr);
    }
}

#[test]
fn an_action_step_without_its_option_or_with_a_misspelt_one_is_located() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios-options/tbwg");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("options.edn");
    std::fs::write(
        &file,
        "{:scenario \"options\" :start {}\n :play [[:act :dio :stand-punch :pain] [:act :dio :stand-punch :pain :haed] [:act :pain :rest :body]]\n :expect {:pain {:hp 1}}}\n",
    )
    .unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1);
    for want in [
        "`:stand-punch` is used with one `:body-part`",
        "end the step with one of `:head`, `:body`, `:arms` or `:legs`",
        "options.edn:2:9",
        "`:body-part` has no option `:haed`",
        "did you mean `:head`?",
        "an action step is `[:act ACTOR ACTION TARGET OPTION]`",
    ] {
        assert!(out.stderr.contains(want), "{want}: {}", out.stderr);
    }
}

#[test]
fn turns_left_given_to_a_status_are_one_or_more() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenarios-turns-left/tactics");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("left.edn");
    std::fs::write(
        &file,
        "{:scenario \"left\" :statuses {:hero {:power 0 :slow \"2\"} :minion {:power 4294967296}} :expect {:hero {:y 0}}}\n",
    )
    .unwrap();
    let out = cli::test(&[file], &[], false);
    assert_eq!(out.code, 1);
    for want in [
        "error[E0007]: turns left are a whole number from 1 to 4294967294, found the integer 0",
        "left.edn:1:44",
        "error[E0006]: turns left are a whole number from 1 to 4294967294, found a string",
        // The bound is said, not only the floor.
        "error[E0007]: turns left are a whole number from 1 to 4294967294, found the integer 4294967296",
    ] {
        assert!(out.stderr.contains(want), "{want}: {}", out.stderr);
    }
}
