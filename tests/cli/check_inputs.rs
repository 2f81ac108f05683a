//! `grimoire check` on what designers actually hand it: standard input, whole
//! project folders, scenario files, spreadsheet exports, cards split over files.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::text;

fn grimoire(args: &[&str], cwd: &Path) -> Output {
    common::run_in(args, "", Some(cwd))
}

/// A scratch folder for one test, emptied first, with an `arcomage/` in it.
fn scratch(name: &str) -> PathBuf {
    let dir = common::scratch_dir(&format!("check-inputs/{name}"));
    std::fs::create_dir_all(dir.join("arcomage")).expect("create scratch dir");
    dir
}

fn write(dir: &Path, path: &str, text: &[u8]) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    std::fs::write(path, text).expect("write");
}

const GOOD: &str = "{:card \"Wall Up\" :type :bricks :cost 1 :text \"+1 Wall\"\n :effects [{:effected :you :resource :wall :amount 1}]}\n";

#[test]
fn standard_input_is_checked_as_stdin() {
    let out = common::run_in(
        &["check", "--rules", "arcomage", "-"],
        &GOOD.replace(":wall :amount", ":wal :amount"),
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("--> <stdin>:2:38"), "{err}");
    assert!(err.contains("did you mean `:wall`?"), "{err}");
}

#[test]
fn a_walked_folder_skips_target_and_hidden_folders_and_checks_scenarios_as_scenarios() {
    let dir = scratch("walk");
    write(&dir, "arcomage/cards.edn", GOOD.as_bytes());
    // Build output and a hidden folder hold files that would not check.
    write(&dir, "target/arcomage/junk.edn", b"{:card");
    write(&dir, ".git/arcomage/junk.edn", b"{:card");
    // A scenario file is a scenario, not a bad card: its misspelt card is found.
    write(
        &dir,
        "scenarios/arcomage/walls.edn",
        b"{:scenario \"wall\" :play [\"Foundations\"] :expect {:you {:wall 13}}}\n{:scenario \"typo\" :play [\"Foundatoins\"] :expect {:you {:wall 16}}}\n",
    );
    let out = grimoire(&["check", "."], &dir);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("junk.edn"), "{err}");
    assert!(err.contains("no card named \"Foundatoins\""), "{err}");
    assert!(err.contains("did you mean `\"Foundations\"`?"), "{err}");
    assert!(err.contains("scenarios/arcomage/walls.edn:2:"), "{err}");
    assert!(err.contains("checked 2 files: 1 definition"), "{err}");
    assert!(err.contains(", 1 error,"), "{err}");
}

#[test]
fn a_card_defined_again_in_another_file_names_the_first_file_and_line() {
    let dir = scratch("duplicate");
    write(
        &dir,
        "arcomage/a.edn",
        format!(";; first\n\n{GOOD}").as_bytes(),
    );
    write(&dir, "arcomage/b.edn", GOOD.as_bytes());
    let out = grimoire(&["check", "arcomage"], &dir);
    let err = text(&out.stderr);
    assert!(
        err.contains("note: first defined at arcomage/a.edn:3:8"),
        "{err}"
    );
    let out = grimoire(&["check", "--format", "json", "arcomage"], &dir);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let related = &json[0]["related"][0];
    assert_eq!(related["path"], "arcomage/a.edn", "{json}");
    assert_eq!(related["line"], 3, "{json}");
}

#[test]
fn a_missing_path_is_in_the_json_too() {
    let dir = scratch("missing");
    let out = grimoire(&["check", "--format", "json", "nowhere.edn"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json[0]["path"], "nowhere.edn", "{json}");
    assert_eq!(json[0]["kind"], "io", "{json}");
    assert_eq!(json[0]["severity"], "error", "{json}");
}

#[test]
fn a_latin1_export_is_told_to_save_as_utf8_and_a_binary_file_is_called_one() {
    let dir = scratch("encodings");
    write(
        &dir,
        "arcomage/latin1.edn",
        b"{:card \"Caf\xe9\" :type :bricks :cost 1 :text \"+1 Wall\" :effects []}\n",
    );
    write(&dir, "arcomage/binary.edn", b"\x00\x01\x02\xff\xfe");
    let out = grimoire(&["check", "arcomage/latin1.edn"], &dir);
    let err = text(&out.stderr);
    assert!(err.contains("save it as UTF-8"), "{err}");
    assert!(!err.contains("binary"), "{err}");
    let out = grimoire(&["check", "arcomage/binary.edn"], &dir);
    assert!(text(&out.stderr).contains("is this a binary file?"));
}

#[test]
fn a_quoted_cost_is_told_to_drop_the_quotes() {
    let dir = scratch("quoted-cost");
    write(
        &dir,
        "arcomage/cost.edn",
        GOOD.replace(":cost 1", ":cost \"4\"").as_bytes(),
    );
    let out = grimoire(&["check", "arcomage"], &dir);
    let err = text(&out.stderr);
    assert!(
        err.contains("help: numbers are written without quotes: `:cost 4`"),
        "{err}"
    );
}

const SHEET: &str = "name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
Lucky Cache,\"+2 Bricks, +2 Gems, Play again,true,true,:bricks,0,[{:effected :you :resource :bricks :amount 2}]
Friendly Terrain,\"+1 Wall, Play again\",true,true,:bricks,1,[{:effected :you :resource :wall :amount 1}]
Grand Wall,+5 Wall,true,false,:bricks,4,[{:effected :you :resource :wall :amount 5}
";

#[test]
fn a_spreadsheet_row_that_breaks_costs_only_itself() {
    let dir = scratch("sheet");
    write(&dir, "arcomage/cards.csv", SHEET.as_bytes());
    let out = grimoire(&["check", "arcomage"], &dir);
    let err = text(&out.stderr);
    // The quote left open on line 3 is said on line 3, not where it ran to.
    assert!(err.contains("this quoted cell is never closed"), "{err}");
    assert!(err.contains("arcomage/cards.csv:3:13"), "{err}");
    // The unclosed `[` is its own error, with no EDN advice about `:effects []`.
    assert!(err.contains("this `[` is never closed"), "{err}");
    assert!(!err.contains(":effects []"), "{err}");
    assert!(err.contains("checked 1 file: 2 definitions"), "{err}");
    assert!(err.contains(", 2 errors,"), "{err}");
}

#[test]
fn eval_of_one_card_goes_on_past_other_bad_rows_and_suggests_near_names() {
    let dir = scratch("sheet-eval");
    write(&dir, "arcomage/cards.csv", SHEET.as_bytes());
    let eval = |card: &str| {
        grimoire(
            &[
                "eval",
                "--rules",
                "arcomage",
                "--card",
                card,
                "--cards",
                "arcomage/cards.csv",
            ],
            &dir,
        )
    };
    let out = eval("Miners");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("you.quarry           2 -> 3"));
    // The file's errors are shown, as warnings.
    assert!(text(&out.stderr).contains("warning[E0501]: this quoted cell is never closed"));
    let out = eval("Minor");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean \"Miners\"?"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn standard_input_that_is_not_utf8_is_a_located_diagnostic_in_json_too() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args(["check", "--rules", "arcomage", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run grimoire");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"{:card \"Caf\xe9\"}")
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json[0]["path"], "<stdin>", "{json}");
    assert!(
        json[0]["help"]
            .as_str()
            .unwrap_or_default()
            .contains("save it as UTF-8"),
        "{json}"
    );
}
