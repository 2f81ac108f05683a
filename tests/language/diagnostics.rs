//! Diagnostic snapshots, rust-analyzer style: adding a case is adding a file.
//!
//! - `tests/data/err/*.edn`: each file is one kind of bad input, named for it,
//!   whose first line (a `;` comment) says what is wrong. Checking it against
//!   the bundled `arcomage` rule set must exit 1 with at least one diagnostic
//!   (0 when all are warnings: a card's text that disagrees with its data);
//!   the human rendering is snapshotted in `tests/language/snapshots/`.
//! - `tests/data/ok/*.edn`: valid files that must check clean.
//!
//! Write new snapshots with `INSTA_UPDATE=always cargo test --test language diagnostics`
//! (or `cargo insta test`), then read every new `.snap` by eye: the message, the
//! caret's place and the help must all be right. A snapshot of a wrong answer is
//! a wrong test.
//!
//! Paths are given relative to the package root (cargo runs integration tests
//! there), so the paths in the snapshots are the same on every machine.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use grimoire::check::rules::RuleSet;
use grimoire::cli::{self, EXIT_DIAGNOSTICS, EXIT_OK, Format};
use grimoire::files;

/// `path` relative to the package root, with `/` separators: `tests/data/err/x.edn`.
fn relative(path: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = path.strip_prefix(root).unwrap_or(path);
    PathBuf::from(rel.to_string_lossy().replace('\\', "/"))
}

fn arcomage() -> RuleSet {
    RuleSet::bundled("arcomage")
        .expect("arcomage is bundled")
        .expect("arcomage checks clean")
}

/// The fixture's first line, if it is a `;` comment: what the file gets wrong.
fn what_is_wrong(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    match text.lines().next() {
        Some(line) if line.starts_with(';') => line.trim_start_matches(';').trim().to_string(),
        _ => format!(
            "{} (no comment line)",
            path.file_name().unwrap_or_default().to_string_lossy()
        ),
    }
}

/// The human output of `grimoire check --rules arcomage PATH`, with the exit code.
fn human(rel: &Path) -> String {
    let out = cli::check(&[rel.to_path_buf()], Some("arcomage"), Format::Human, false);
    assert_eq!(out.stdout, "", "human output goes to stderr");
    format!("exit code: {}\n\n{}", out.code, out.stderr)
}

#[test]
fn err_files_report_diagnostics() {
    let rules = arcomage();
    insta::glob!("..", "data/err/*.edn", |path| {
        let rel = relative(path);
        let first_line = std::fs::read(path).unwrap_or_default();
        let first_line = String::from_utf8_lossy(&first_line);
        let first_line = first_line.lines().next().unwrap_or("");
        let name = rel
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        assert!(
            first_line.starts_with(';') || matches!(name.as_str(), "binary.edn" | "empty-file.edn"),
            "{}: start the fixture with a `;` comment saying what is wrong",
            rel.display()
        );

        // Through the library: at least one diagnostic, all of them in this file.
        let checked = files::check_paths(std::slice::from_ref(&rel), Some(&rules));
        assert!(checked.io_errors.is_empty(), "{:?}", checked.io_errors);
        assert!(
            !checked.diagnostics.is_empty(),
            "{}: expected at least one diagnostic",
            rel.display()
        );
        assert!(checked.diagnostics.iter().all(|(i, _)| *i == 0));
        for (_, d) in &checked.diagnostics {
            assert!(
                !d.message.is_empty(),
                "{}: a diagnostic without a message",
                rel.display()
            );
            let len = checked.sources[0].text.len() as u32;
            assert!(
                d.span.start <= d.span.end && d.span.end <= len.max(1),
                "{}: span {:?} is outside the text ({len} bytes)",
                rel.display(),
                d.span
            );
        }

        // Through the command: exit 1 and the rendering, snapshotted. A file
        // whose only problems are warnings (the lint's: text against data)
        // exits 0, as warnings alone do.
        let shown = human(&rel);
        let errors = checked
            .diagnostics
            .iter()
            .any(|(_, d)| d.severity == grimoire::diag::Severity::Error);
        let code = if errors { EXIT_DIAGNOSTICS } else { EXIT_OK };
        assert!(
            shown.starts_with(&format!("exit code: {code}\n")),
            "{shown}"
        );
        assert!(
            shown.contains(&format!("--> {}:", rel.display())),
            "{shown}"
        );
        insta::with_settings!({
            description => what_is_wrong(path),
            omit_expression => true,
        }, {
            insta::assert_snapshot!("human", shown);
        });
    });
}

#[test]
fn err_files_as_json() {
    // A few kinds, one of each layer: reading, checking, files.
    insta::glob!(
        "..",
        "data/err/{unknown-resource-quary,unclosed-vector,duplicate-key,symbol-key-effected,set-on-operation,binary,empty-file,duplicate-card}.edn",
        |path| {
            let rel = relative(path);
            let out = cli::check(
                std::slice::from_ref(&rel),
                Some("arcomage"),
                Format::Json,
                false,
            );
            assert_eq!(out.code, EXIT_DIAGNOSTICS, "{}", out.stderr);
            let list: serde_json::Value =
                serde_json::from_str(&out.stdout).expect("the JSON output parses");
            let list = list.as_array().expect("a JSON array of diagnostics");
            assert!(!list.is_empty());
            for d in list {
                assert_eq!(d["path"], rel.to_string_lossy().as_ref());
                assert_eq!(d["severity"], "error");
            }
            insta::with_settings!({
                description => what_is_wrong(path),
                omit_expression => true,
            }, {
                insta::assert_snapshot!("json", out.stdout);
            });
        }
    );
}

#[test]
fn ok_files_check_clean() {
    let rules = arcomage();
    let mut seen = 0;
    insta::glob!("..", "data/ok/*.edn", |path| {
        seen += 1;
        let rel = relative(path);
        let checked = files::check_paths(std::slice::from_ref(&rel), Some(&rules));
        assert!(checked.io_errors.is_empty(), "{:?}", checked.io_errors);
        let rendered: Vec<String> = checked
            .diagnostics
            .iter()
            .map(|(i, d)| checked.sources[*i].render(d, false))
            .collect();
        assert!(
            rendered.is_empty(),
            "{}:\n{}",
            rel.display(),
            rendered.join("\n")
        );
        assert!(
            !checked.definitions.is_empty() || !checked.rule_sets.is_empty(),
            "{}: no definitions and no rule set",
            rel.display()
        );

        let out = cli::check(
            std::slice::from_ref(&rel),
            Some("arcomage"),
            Format::Human,
            false,
        );
        assert_eq!(out.code, EXIT_OK, "{}", out.stderr);
        assert!(out.stderr.contains(" 0 errors"), "{}", out.stderr);
        let out = cli::check(
            std::slice::from_ref(&rel),
            Some("arcomage"),
            Format::Json,
            false,
        );
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (EXIT_OK, "[]\n"),
            "{}",
            out.stderr
        );
    });
    assert!(seen >= 10, "only {seen} ok fixtures found");
}

/// Every `.edn` file directly in `dir`, relative to the package root, sorted.
fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the fixture folder exists (tests run from the package root)")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "edn"))
        .map(|p| PathBuf::from(p.to_string_lossy().replace('\\', "/")))
        .collect();
    out.sort();
    out
}

#[test]
fn checking_the_whole_err_folder_reports_every_file() {
    let expected = fixtures("tests/data/err");
    assert!(expected.len() >= 25, "only {} err fixtures", expected.len());

    // The library: one run, a diagnostic for every file (not only the first).
    let rules = arcomage();
    let checked = files::check_paths(&[PathBuf::from("tests/data/err")], Some(&rules));
    assert!(checked.io_errors.is_empty(), "{:?}", checked.io_errors);
    assert_eq!(checked.sources.len(), expected.len());
    let with_diags: BTreeSet<&str> = checked
        .diagnostics
        .iter()
        .map(|(i, _)| checked.sources[*i].path.as_str())
        .collect();
    let silent: Vec<&str> = checked
        .sources
        .iter()
        .map(|s| s.path.as_str())
        .filter(|p| !with_diags.contains(p))
        .collect();
    assert!(silent.is_empty(), "no diagnostic for: {silent:?}");

    // The command: exit 1, every file named in a location, the count in the summary.
    let out = cli::check(
        &[PathBuf::from("tests/data/err")],
        Some("arcomage"),
        Format::Human,
        false,
    );
    assert_eq!(out.code, EXIT_DIAGNOSTICS);
    for path in &expected {
        assert!(
            out.stderr.contains(&format!("--> {}:", path.display())),
            "{} is not reported in:\n{}",
            path.display(),
            out.stderr
        );
    }
    let errors = checked.error_count();
    assert!(errors >= expected.len());
    assert!(
        out.stderr
            .contains(&format!("checked {} files:", expected.len())),
        "{}",
        out.stderr.lines().last().unwrap_or("")
    );
    assert!(
        out.stderr.contains(&format!(", {errors} errors,")),
        "{}",
        out.stderr.lines().last().unwrap_or("")
    );

    // The same run as JSON: as many entries as diagnostics.
    let out = cli::check(
        &[PathBuf::from("tests/data/err")],
        Some("arcomage"),
        Format::Json,
        false,
    );
    let list: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(
        list.as_array().map(Vec::len),
        Some(checked.diagnostics.len())
    );
}

#[test]
fn several_errors_in_one_file_are_all_reported() {
    let rules = arcomage();
    let checked = files::check_paths(
        &[PathBuf::from("tests/data/err/several-errors.edn")],
        Some(&rules),
    );
    let messages: Vec<&str> = checked
        .diagnostics
        .iter()
        .map(|(_, d)| d.message.as_str())
        .collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(messages[0].contains(":quary"), "{messages:#?}");
    assert!(messages[1].contains(":them"), "{messages:#?}");
    assert!(messages[2].contains("decimal"), "{messages:#?}");
    // The one good card of the file is still checked and kept.
    let names: Vec<&str> = checked
        .definitions
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(names, ["Fine"]);
}

#[test]
fn checking_the_whole_ok_folder_is_clean() {
    let rules = arcomage();
    let checked = files::check_paths(&[PathBuf::from("tests/data/ok")], Some(&rules));
    let rendered: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|(i, d)| checked.sources[*i].render(d, false))
        .collect();
    assert!(rendered.is_empty(), "{}", rendered.join("\n"));
    assert_eq!(checked.sources.len(), fixtures("tests/data/ok").len());
}
