//! Helpers shared by the integration tests that drive the binary or check
//! small rule sets: the one helper module of every test binary, each of
//! which uses some of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use grimoire::check::rules::RuleSet;
use grimoire::diag::Source;
use grimoire::files::check_sources;
use grimoire::ids::EntityId;
use grimoire::syntax::{Arena, read};
use serde_json::Value;

/// The lower end of the 95 % Wilson interval of a share `p` of `games`
/// games (a win 1, a draw a half): what a test of a player's strength
/// asserts is above a bar.
pub fn wilson_low(p: f64, games: f64) -> f64 {
    let z: f64 = 1.96;
    let d = 1.0 + z * z / games;
    let centre = (p + z * z / (2.0 * games)) / d;
    centre - z * (p * (1.0 - p) / games + z * z / (4.0 * games * games)).sqrt() / d
}

/// The two seats' entities, as `apply` binds them to `:you` and `:other`.
pub const TWO_SEATS: [EntityId; 2] = [EntityId::FIRST, EntityId::new(1)];

/// `grimoire ARGS…` as a command, not yet run: the built binary, as it is.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grimoire"));
    command.args(args);
    command
}

/// Runs `grimoire ARGS…`, asserts it exits 0, and returns its standard output.
pub fn grimoire(args: &[&str]) -> String {
    let out = command(args).output().expect("run grimoire");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs `grimoire eval --rules RULES --format json ARGS…` and parses the output.
pub fn eval_json(rules: &str, args: &[&str]) -> Value {
    let mut all = vec!["eval", "--rules", rules, "--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_str(&grimoire(&all)).expect("JSON")
}

/// An attribute's value in `eval --format json` output.
pub fn value(v: &Value, entity: &str, attr: &str) -> i64 {
    v["state"][entity][attr]
        .as_i64()
        .unwrap_or_else(|| panic!("{entity}.{attr} in {v}"))
}

/// Diagnostics as "message | help" lines, for assertions on what a check said.
pub fn messages(diags: &[grimoire::diag::Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("{} | {}", d.message, d.help.clone().unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The wins of every seat in `simulate --format json` output, summed.
pub fn seat_wins(v: &Value) -> i64 {
    v["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["wins"].as_i64().expect("wins"))
        .sum()
}

/// Runs `grimoire ARGS…` with `stdin` on its standard input, in `cwd` if
/// given, without colour; whatever it exits with.
pub fn run_in(args: &[&str], stdin: &str, cwd: Option<&Path>) -> Output {
    let mut command = command(args);
    command
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    let mut child = command.spawn().expect("run grimoire");
    // A command that exits before reading its input closes the pipe: not a failure here.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("wait for grimoire")
}

/// Bytes as text, for assertions and messages.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch folder under the test target folder, emptied first.
pub fn scratch_dir(path: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(path);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// A rule set from its text, which must check clean.
pub fn rules(text: &str) -> RuleSet {
    RuleSet::parse(text).unwrap_or_else(|d| panic!("{d:#?}"))
}

/// `rules` with the statuses of `statuses` (checked as the file `name`),
/// which must check clean.
pub fn rules_with_statuses(rules: &RuleSet, name: &str, statuses: &str) -> RuleSet {
    let mut checked = check_sources(vec![Source::new(name, statuses)], Some(rules));
    assert_eq!(checked.error_count(), 0, "{:#?}", checked.diagnostics);
    checked
        .extended
        .pop()
        .expect("the rule set, with its statuses")
}

/// A bundled rule set with its bundled statuses, as the commands load it.
pub fn bundled(name: &str) -> RuleSet {
    grimoire::files::load_rules(name).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// True when both texts read without errors to the same forms.
pub fn same_forms(a: &str, b: &str) -> bool {
    let arena = Arena::new();
    let (a, b) = (read(&arena, a), read(&arena, b));
    a.errors.is_empty()
        && b.errors.is_empty()
        && a.forms.len() == b.forms.len()
        && a.forms.iter().zip(&b.forms).all(|(x, y)| x.same_value(y))
}

/// Issue 29's `status-doubling-hang`: a rule set whose seats acquire `:seed`
/// at the game's start, and (`GROW_SEED`) a `:seed` that acquires itself anew
/// at every turn start, stacking `:independent`: it doubles every turn.
pub const GROW_RULES: &str = "{:rules :grow
 :roles {:you \"the seat\" :other \"the other\"}
 :attributes {:gold {:default 5}}
 :statuses {:seed \"acquires itself anew at every turn start\"}
 :seats [:p1 :p2]
 :turns {:limit 1000}
 :timings {:begin {:at :game-start} :ts {:at :turn-start}}
 :hooks {:begin [{:effected :you :acquire :seed}]}}";

/// The definition of `GROW_RULES`'s `:seed`.
pub const GROW_SEED: &str = "{:status :seed :polarity :buff :stacking :independent
          :hooks {:ts [{:effected :holder :acquire :seed}]}}";
