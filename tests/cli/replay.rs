//! `play --record` and `replay`: a recorded game plays again byte for byte,
//! a person's included, and a changed deck or rule set is said, not replayed.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::text;

fn grimoire(args: &[&str], stdin: &str) -> Output {
    common::run_in(args, stdin, None)
}

/// `grimoire replay FILE`'s log, after checking it exits 0.
fn replay(file: &Path) -> String {
    let replayed = grimoire(&["replay", file.to_str().unwrap()], "");
    assert_eq!(
        replayed.status.code(),
        Some(0),
        "{}",
        text(&replayed.stderr)
    );
    text(&replayed.stdout)
}

/// The recording `file` holds, as JSON.
fn recording(file: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

/// `play arcomage --seed SEED --record FILE`, which must succeed.
fn record_arcomage(file: &Path, seed: &str) -> std::process::Output {
    let file = file.to_str().expect("a UTF-8 path");
    let played = grimoire(&["play", "arcomage", "--seed", seed, "--record", file], "");
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    played
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("replay/{name}"))
}

#[test]
fn an_ai_game_replays_byte_for_byte() {
    let dir = scratch("ai");
    let file = dir.join("game.json");
    let played = record_arcomage(&file, "7");
    assert_eq!(replay(&file), text(&played.stdout));
    let rec = recording(&file);
    assert_eq!(rec["format"], "grimoire replay 1");
    assert_eq!(rec["seed"], 7);
    assert!(rec["decisions"].as_array().unwrap().len() > 5);
}

#[test]
fn a_human_game_with_piped_input_replays_byte_for_byte() {
    let dir = scratch("human");
    let file = dir.join("game.json");
    // A bad choice, then the first card each turn, then quit.
    let typed = "x\n1\n1\n1\n2\nd 1\n1\nq\n";
    let played = grimoire(
        &[
            "play",
            "arcomage",
            "--seed",
            "3",
            "--human",
            "--record",
            file.to_str().unwrap(),
        ],
        typed,
    );
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    assert_eq!(replay(&file), text(&played.stdout));
    let rec = recording(&file);
    assert_eq!(rec["input"], typed);
    assert_eq!(rec["human"], true);
}

#[test]
fn a_changed_deck_or_a_broken_file_is_said_not_replayed() {
    let dir = scratch("changed");
    let cards = dir.join("arcomage");
    std::fs::create_dir_all(&cards).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/arcomage");
    for entry in std::fs::read_dir(src).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, cards.join(p.file_name().unwrap())).unwrap();
    }
    let file = dir.join("game.json");
    let played = grimoire(
        &[
            "play",
            "arcomage",
            "--seed",
            "2",
            "--cards",
            cards.to_str().unwrap(),
            "--record",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    // Dragon costs 22 now.
    let beasts = cards.join("beasts.edn");
    let t = std::fs::read_to_string(&beasts).unwrap();
    std::fs::write(
        &beasts,
        t.replace(
            "{:card \"Dragon\" :type :beasts :cost 25",
            "{:card \"Dragon\" :type :beasts :cost 22",
        ),
    )
    .unwrap();
    let replayed = grimoire(&["replay", file.to_str().unwrap()], "");
    assert_eq!(replayed.status.code(), Some(1));
    let said = text(&replayed.stderr);
    assert!(said.contains("the deck changed since"), "{said}");
    // The card and the field that changed are named, and --anyway offered.
    assert!(
        said.contains("  card \"Dragon\": :cost 25 → 22\n"),
        "{said}"
    );
    assert!(said.contains("grimoire replay --anyway"), "{said}");
    assert!(replayed.stdout.is_empty());
    // --anyway plays it with the deck as it is now, saying what changed.
    let anyway = grimoire(&["replay", "--anyway", file.to_str().unwrap()], "");
    assert_eq!(anyway.status.code(), Some(0), "{}", text(&anyway.stderr));
    let said = text(&anyway.stderr);
    assert!(
        said.starts_with("warning: the deck changed since")
            && said.contains("card \"Dragon\": :cost 25 → 22"),
        "{said}"
    );
    let header = text(&played.stdout)
        .lines()
        .take(2)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text(&anyway.stdout).starts_with(&header),
        "{}",
        text(&anyway.stdout)
    );
    // A card gone and a text changed are named too.
    std::fs::write(
        &beasts,
        t.replace("{:card \"Dragon\"", "{:card \"Wyrm\"").replace(
            "\"Ogre\" :type :beasts :cost 6",
            "\"Ogre\" :type :beasts :cost 6 :copies 2",
        ),
    )
    .unwrap();
    let said = text(&grimoire(&["replay", file.to_str().unwrap()], "").stderr);
    for line in [
        "card \"Dragon\" is gone",
        "card \"Ogre\": :copies 1 → 2",
        "card \"Wyrm\" is new",
    ] {
        assert!(said.contains(line), "{line} in {said}");
    }
    // Cards that only moved in their file (a shorter name above them) did not change.
    assert_eq!(said.matches("\n  card ").count(), 3, "{said}");

    std::fs::write(&file, "{\"format\": 3").unwrap();
    let broken = grimoire(&["replay", file.to_str().unwrap()], "");
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        text(&broken.stderr).contains("not a grimoire recording"),
        "{}",
        text(&broken.stderr)
    );
}

#[test]
fn a_simulated_game_can_be_recorded_and_replayed() {
    let dir = scratch("simulated");
    let file = dir.join("game-5.json");
    let out = grimoire(
        &[
            "simulate",
            "arcomage",
            "--games",
            "10",
            "--seed",
            "9",
            "--record-game",
            "5",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("game 5 recorded to"));
    assert!(replay(&file).contains("random vs p2 random"));
    let out = grimoire(
        &[
            "simulate",
            "arcomage",
            "--games",
            "10",
            "--record-game",
            "11",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_recorded_game_is_the_one_the_simulation_played() {
    let dir = scratch("same-game");
    let file = dir.join("game.json");
    for seed in ["3", "6"] {
        let out = grimoire(
            &[
                "simulate",
                "arcomage",
                "--games",
                "1",
                "--seed",
                seed,
                "--format",
                "json",
                "--record-game",
                "1",
                file.to_str().unwrap(),
            ],
            "",
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let turns = v["mean_turns"].as_f64().unwrap() as u64;
        let winner = if v["seats"][0]["wins"] == 1 {
            "p1"
        } else {
            "p2"
        };
        let log = text(&grimoire(&["replay", file.to_str().unwrap()], "").stdout);
        assert!(log.contains(&format!("\nturn {turns}: ")), "{log}");
        assert!(!log.contains(&format!("\nturn {}: ", turns + 1)), "{log}");
        assert!(log.contains(&format!("{winner} wins")), "{log}");
    }
}

#[test]
fn a_recording_replays_from_another_folder_and_says_what_it_cannot_read() {
    let dir = scratch("elsewhere");
    let rules = dir.join("my-rules.edn");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/duel.edn"),
        &rules,
    )
    .unwrap();
    let file = dir.join("game.json");
    // Relative paths, from the scratch folder.
    let played = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args([
            "play",
            "my-rules.edn",
            "--seed",
            "4",
            "--record",
            "game.json",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let replayed = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args(["replay", "../game.json"])
        .current_dir(&sub)
        .output()
        .unwrap();
    assert_eq!(
        replayed.status.code(),
        Some(0),
        "{}",
        text(&replayed.stderr)
    );
    assert_eq!(text(&replayed.stdout), text(&played.stdout));
    // An unknown policy is refused by name.
    let t = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, t.replacen("\"greedy\"", "\"bogus\"", 1)).unwrap();
    let out = grimoire(&["replay", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`bogus` is not a player: random, greedy, search, mcts"),
        "{}",
        text(&out.stderr)
    );
    // A rules file gone is an I/O error, not "changed".
    std::fs::write(&file, t).unwrap();
    std::fs::remove_file(&rules).unwrap();
    let out = grimoire(&["replay", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !text(&out.stderr).contains("changed since"),
        "{}",
        text(&out.stderr)
    );
    // A recording that cannot be written is said before the game.
    let out = grimoire(
        &["play", "arcomage", "--record", "/nonexistent-dir/g.json"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn relative_card_paths_are_named_alike_in_the_game_and_its_replay() {
    let dir = scratch("relative-cards");
    let cards = dir.join("deck");
    std::fs::create_dir_all(&cards).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/arcomage");
    for entry in std::fs::read_dir(src).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, cards.join(p.file_name().unwrap())).unwrap();
    }
    let played = common::run_in(
        &[
            "play",
            "arcomage",
            "--seed",
            "5",
            "--cards",
            "deck",
            "--record",
            "game.json",
        ],
        "",
        Some(&dir),
    );
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    assert!(text(&played.stdout).contains("\ndeck: deck, 102 cards\n"));
    // From the folder it was played in, from another, and by an absolute path.
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    for (folder, file) in [(&dir, "game.json"), (&sub, "../game.json")] {
        let replayed = common::run_in(&["replay", file], "", Some(folder));
        assert_eq!(
            replayed.status.code(),
            Some(0),
            "{}",
            text(&replayed.stderr)
        );
        assert_eq!(text(&replayed.stdout), text(&played.stdout));
    }
    assert_eq!(replay(&dir.join("game.json")), text(&played.stdout));
    // Found from anywhere: the recording holds where the cards are as well.
    let rec = recording(&dir.join("game.json"));
    assert_eq!(rec["cards_given"][0], "deck");
    assert!(Path::new(rec["cards"][0].as_str().unwrap()).is_absolute());
}

#[test]
fn a_recording_with_more_policies_than_seats_is_refused() {
    let dir = scratch("policies");
    let file = dir.join("game.json");
    record_arcomage(&file, "2");
    let t = std::fs::read_to_string(&file).unwrap();
    let edited = t.replacen("\"ai\": [", "\"ai\": [\n    \"random\",", 1);
    assert_ne!(edited, t);
    std::fs::write(&file, edited).unwrap();
    let out = grimoire(&["replay", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("3 --ai values for 2 seats"),
        "{}",
        text(&out.stderr)
    );
}
