//! Every input boundary is bounded (issue 29): a FIFO, a device, an endless
//! input or a huge request is refused or read up to a limit, never for ever;
//! and nothing is lost or altered behind the user's back. Each command runs
//! under a time limit and a memory limit, so a regression fails the test
//! rather than hanging it or taking the machine's memory.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::text;

/// The memory a command here may take (virtual, in KiB, as `ulimit -v` counts).
const MEMORY_KIB: u64 = 2 << 20;

/// `grimoire ARGS…` in `cwd`, standard input from `stdin` (a path; empty
/// for none), under [`MEMORY_KIB`]; killed after `secs`, which fails the test.
fn bounded(args: &[&str], cwd: &Path, stdin: &str, secs: u64) -> Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_KIB}; exec \"$0\" \"$@\"{}",
            if stdin.is_empty() {
                " < /dev/null".to_string()
            } else {
                format!(" < '{stdin}'")
            }
        ))
        .arg(env!("CARGO_BIN_EXE_grimoire"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("run grimoire");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let readers = (
        std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = out.read_to_end(&mut b);
            b
        }),
        std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = err.read_to_end(&mut b);
            b
        }),
    );
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("grimoire {args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: readers.0.join().unwrap(),
        stderr: readers.1.join().unwrap(),
    }
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("bounds/{name}"))
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success());
}

fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// A card folder with one good card, as `--cards` takes it.
fn card_folder(dir: &Path) -> PathBuf {
    let cards = dir.join("arcomage");
    std::fs::create_dir_all(&cards).unwrap();
    std::fs::write(
        cards.join("walls.edn"),
        "{:card \"Wall Up\" :type :bricks :cost 1 :text \"+1 Wall\"\n :effects [{:effected :you :resource :wall :amount 1}]}\n",
    )
    .unwrap();
    cards
}

#[test]
fn check_of_a_folder_holding_a_fifo_refuses_it_and_checks_the_rest() {
    let dir = scratch("fifo-in-folder");
    card_folder(&dir);
    mkfifo(&dir.join("arcomage/pipe.edn"));
    let out = bounded(&["check", "arcomage"], &dir, "", 10);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("arcomage/pipe.edn: not a regular file (a FIFO)"),
        "{err}"
    );
    assert!(err.contains("checked 1 file: 1 definition"), "{err}");
}

#[test]
fn dev_zero_linked_into_a_card_folder_is_refused() {
    let dir = scratch("zero-in-cards");
    let cards = card_folder(&dir);
    symlink("/dev/zero", &cards.join("zero.edn"));
    for args in [
        &["check", "arcomage"][..],
        &[
            "simulate", "arcomage", "--cards", "arcomage", "--games", "2",
        ],
    ] {
        let out = bounded(args, &dir, "", 10);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("arcomage/zero.edn: not a regular file (a device)"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_recording_whose_cards_became_dev_zero_is_refused() {
    let dir = scratch("zero-in-recording");
    card_folder(&dir);
    let recorded = bounded(
        &[
            "play",
            "arcomage",
            "--cards",
            "arcomage",
            "--seed",
            "3",
            "--record",
            "game.json",
        ],
        &dir,
        "",
        30,
    );
    assert_eq!(
        recorded.status.code(),
        Some(0),
        "{}",
        text(&recorded.stderr)
    );
    std::fs::remove_file(dir.join("arcomage/walls.edn")).unwrap();
    symlink("/dev/zero", &dir.join("arcomage/walls.edn"));
    let out = bounded(&["replay", "game.json"], &dir, "", 10);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a regular file (a device)"), "{err}");
}

#[test]
fn a_scenario_naming_dev_zero_as_its_rule_set_is_a_located_error() {
    let dir = scratch("scenario-zero");
    symlink("/dev/zero", &dir.join("zero.edn"));
    std::fs::write(
        dir.join("s.edn"),
        "{:scenario \"x\" :rules \"zero.edn\" :play []}\n",
    )
    .unwrap();
    let out = bounded(&["check", "s.edn"], &dir, "", 10);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("error[E0703]"), "{err}");
    assert!(err.contains("not a regular file (a device)"), "{err}");
    assert!(err.contains("--> s.edn:1:23"), "{err}");
}

#[test]
fn an_endless_standard_input_stops_at_the_limit() {
    let dir = scratch("stdin-zero");
    for args in [
        &["check", "--rules", "arcomage", "-"][..],
        &["fmt", "-"],
        &["explain", "--rules", "arcomage", "-"],
    ] {
        let out = bounded(args, &dir, "/dev/zero", 20);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("standard input: longer than grimoire's limit of 64 MiB"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_person_typing_from_dev_zero_ends_the_game() {
    let dir = scratch("human-zero");
    let out = bounded(
        &["play", "arcomage", "--human", "--seed", "1"],
        &dir,
        "/dev/zero",
        20,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn fmt_leaves_a_fifo_with_a_writer_a_fifo() {
    let dir = scratch("fmt-fifo");
    let pipe = dir.join("pipe.edn");
    mkfifo(&pipe);
    // A writer waiting for a reader: fmt must not become one, nor replace the FIFO.
    let mut writer = Command::new("sh")
        .arg("-c")
        .arg("printf '{:a 1\\n      :b 2}\\n' > pipe.edn")
        .current_dir(&dir)
        .spawn()
        .expect("writer");
    let out = bounded(&["fmt", "pipe.edn"], &dir, "", 10);
    let _ = writer.kill();
    let _ = writer.wait();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("pipe.edn: not a regular file (a FIFO)"),
        "{err}"
    );
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::symlink_metadata(&pipe).unwrap().file_type();
    assert!(kind.is_fifo(), "{kind:?}");
}

#[test]
fn a_change_takes_exactly_one_value_form() {
    let dir = scratch("change-forms");
    for (change, why) in [
        ("Dragon:cost=1 :copies 100", "not 3 forms"),
        (
            "Dragon:cost=1 :text \"t\" :effects []} {:card \"Injected\" :type :beasts :copies 100 :cost 0",
            "not text that does not read",
        ),
        ("Dragon:cost=#_ 1", "not nothing"),
    ] {
        let out = bounded(
            &["simulate", "arcomage", "--games", "2", "--change", change],
            &dir,
            "",
            30,
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{change}: {err}");
        assert!(
            err.contains(&format!(
                "--change {change}: the value must be exactly one form"
            )) && err.contains(why),
            "{change}: {err}"
        );
    }
    let out = bounded(
        &[
            "simulate",
            "arcomage",
            "--games",
            "2",
            "--change",
            "Dragon:co st=1",
        ],
        &dir,
        "",
        30,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the key must be one name"));
    // One form and a comment: the form alone is pasted, so the card stays one card.
    let out = bounded(
        &[
            "simulate",
            "arcomage",
            "--games",
            "2",
            "--format",
            "json",
            "--change",
            "Dragon:cost=1 ; cheaper",
        ],
        &dir,
        "",
        30,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let figures: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let deck = &figures["deck"];
    assert_eq!(
        deck["changes"],
        serde_json::json!(["Dragon:cost=1"]),
        "{deck}"
    );
    assert_eq!(
        (&deck["cards"], &deck["copies"]),
        (&102.into(), &102.into()),
        "{deck}"
    );
}

#[test]
fn threads_past_the_cores_run_one_per_core_with_a_note() {
    let dir = scratch("threads");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let run = |threads: &str| {
        bounded(
            &[
                "simulate",
                "arcomage",
                "--games",
                "20",
                "--threads",
                threads,
            ],
            &dir,
            "",
            20,
        )
    };
    let many = run("1000000");
    let err = text(&many.stderr);
    assert_eq!(many.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "note: --threads 1000000: this machine has {cores} core"
        )) && err.contains(&format!("running {cores} worker thread")),
        "{err}"
    );
    let one = run("1");
    assert_eq!(text(&one.stdout), text(&many.stdout));
    assert_eq!(text(&one.stderr), "");
}

#[test]
fn games_past_a_billion_are_refused_before_any_is_played() {
    let dir = scratch("games");
    let out = bounded(
        &["simulate", "arcomage", "--games", "18446744073709551615"],
        &dir,
        "",
        10,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--games 18446744073709551615: at most 1000000000 games in one run"),
        "{err}"
    );
}

#[test]
fn a_forged_shard_gets_a_short_error_quickly() {
    let dir = scratch("forged-shard");
    let out = bounded(
        &[
            "simulate", "arcomage", "--games", "10", "--shard", "1/1", "--format", "json",
        ],
        &dir,
        "",
        30,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shard: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    // 16 MB where a rule set's name goes, and where the seed goes.
    let huge = "y".repeat(16 << 20);
    for (field, code) in [("rules", 2), ("seed", 1)] {
        let mut forged = shard.clone();
        forged["shard"][field] = serde_json::Value::String(huge.clone());
        std::fs::write(dir.join("forged.json"), forged.to_string()).unwrap();
        let out = bounded(&["merge", "forged.json"], &dir, "", 20);
        let err = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{field}: {}",
            &err[..err.len().min(300)]
        );
        assert!(err.len() < 2000, "{field}: {} bytes", err.len());
        assert!(err.contains("bytes more)"), "{field}: {err}");
    }
}
