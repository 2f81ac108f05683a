//! `grimoire fmt`, driven through the built binary: `--check` diffs and exit
//! codes, rewriting in place (permissions kept, no temporary file left), files
//! with syntax errors left alone, and a messy card file formatted back to
//! the same definitions.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{self, same_forms, text};

fn grimoire(args: &[&str]) -> Output {
    common::run_in(args, "", None)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 scratch path")
}

/// A scratch folder for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("fmt/{name}"))
}

/// The files of `dir`, by name.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read scratch dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const MESSY: &str = "{:card \"Miners\"   :type :bricks :cost 3   \n\t\t:text \"+1 Quarry\"\n\n\n\n      :effects [ {:effected :you :resource :quarry :amount 1} ]}";
const TIDY: &str = "{:card \"Miners\"   :type :bricks :cost 3\n :text \"+1 Quarry\"\n\n :effects [{:effected :you :resource :quarry :amount 1}]}\n";

#[test]
fn check_exits_1_with_a_diff_on_a_messy_file_and_0_on_a_formatted_one() {
    let dir = scratch("check");
    let messy = dir.join("messy.edn");
    let tidy = dir.join("tidy.edn");
    std::fs::write(&messy, MESSY).expect("write");
    std::fs::write(&tidy, TIDY).expect("write");

    let out = grimoire(&["fmt", "--check", path(&messy)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let diff = text(&out.stdout);
    assert!(diff.starts_with("--- "), "{diff}");
    assert!(diff.contains("messy.edn"), "{diff}");
    assert!(diff.contains("@@ -1,"), "{diff}");
    assert!(
        diff.contains("\n+ :effects [{:effected :you :resource :quarry :amount 1}]}\n"),
        "{diff}"
    );
    assert!(diff.contains("\n-      :effects [ {:effected"), "{diff}");
    assert!(text(&out.stderr).contains("would format 1 file"));
    // --check writes nothing.
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), MESSY);

    let out = grimoire(&["fmt", "--check", path(&tidy)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert!(text(&out.stderr).contains("1 already formatted"));
}

#[test]
fn rewriting_formats_in_place_keeps_permissions_and_leaves_no_temporary_file() {
    let dir = scratch("rewrite");
    let file = dir.join("cards.edn");
    std::fs::write(&file, MESSY).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    }

    let out = grimoire(&["fmt", path(&dir)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("formatted 1 file, 0 already formatted"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), TIDY);
    assert_eq!(names(&dir), ["cards.edn"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    // A second run finds nothing to do and does not touch the file.
    let out = grimoire(&["fmt", path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("formatted 0 files, 1 already formatted"));
}

#[test]
fn a_file_with_a_syntax_error_is_reported_with_its_location_and_left_byte_identical() {
    let dir = scratch("broken");
    let broken = dir.join("broken.edn");
    let messy = "{:card \"Miners\"  \n    :cost 3\n :effects [{:effected :you :amount 1}}\n";
    std::fs::write(&broken, messy).expect("write");
    let good = dir.join("good.edn");
    std::fs::write(&good, MESSY).expect("write");

    for args in [&["fmt"][..], &["fmt", "--check"][..]] {
        let mut args = args.to_vec();
        args.push(path(&dir));
        let out = grimoire(&args);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("error[E0102]: unexpected `}`: expected `]`"),
            "{stderr}"
        );
        assert!(stderr.contains("broken.edn:3:38"), "{stderr}");
        assert!(stderr.contains("1 with errors left as it was"), "{stderr}");
        assert_eq!(std::fs::read(&broken).expect("read"), messy.as_bytes());
    }
    // The good file beside it was still formatted.
    assert_eq!(std::fs::read_to_string(&good).expect("read"), TIDY);
    assert_eq!(names(&dir), ["broken.edn", "good.edn"]);
}

#[test]
fn a_file_that_is_not_utf8_is_reported_and_left_alone() {
    let dir = scratch("latin1");
    let file = dir.join("latin1.edn");
    let bytes = b"{:card \"Caf\xe9\"   :cost 1}   \n".to_vec();
    std::fs::write(&file, &bytes).expect("write");
    let out = grimoire(&["fmt", path(&file)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("latin1.edn:1:12"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&file).expect("read"), bytes);
}

#[test]
fn missing_paths_and_folders_without_edn_files_exit_2() {
    let dir = scratch("empty");
    let out = grimoire(&["fmt", path(&dir.join("nope.edn"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nope.edn"));
    let out = grimoire(&["fmt", path(&dir)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no .edn files found"));
}

#[test]
fn folders_are_walked_for_edn_files_skipping_target_hidden_csv_and_md() {
    let dir = scratch("walk");
    for sub in ["deck", "target", ".hidden"] {
        std::fs::create_dir_all(dir.join(sub)).expect("mkdir");
    }
    let untouched = [
        "target/built.edn",
        ".hidden/draft.edn",
        "deck/cards.csv",
        "deck/table.md",
    ];
    for name in untouched.iter().chain(&["deck/a.edn"]) {
        std::fs::write(dir.join(name), MESSY).expect("write");
    }
    let out = grimoire(&["fmt", path(&dir)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.join("deck/a.edn")).expect("read"),
        TIDY
    );
    for name in untouched {
        assert_eq!(
            std::fs::read_to_string(dir.join(name)).expect("read"),
            MESSY,
            "{name}"
        );
    }
    // A .csv named on the command line is not touched either.
    let out = grimoire(&["fmt", path(&dir.join("deck/cards.csv"))]);
    assert!(text(&out.stderr).contains("not an .edn file"));
    assert_eq!(
        std::fs::read_to_string(dir.join("deck/cards.csv")).expect("read"),
        MESSY
    );
}

/// The text with its whitespace mangled: lines re-indented with spaces and
/// tabs, trailing blanks, extra blank lines, spaces inside brackets. Only for
/// texts without line breaks inside strings.
fn mess(text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start();
        out.push_str(&" ".repeat((i * 7) % 11));
        if i % 3 == 0 {
            out.push('\t');
        }
        out.push_str(&line.replace("[{", "[ {").replace("}]", "} ]"));
        out.push_str(if i % 2 == 0 { "  \t" } else { "" });
        out.push('\n');
        if i % 4 == 0 {
            out.push_str("   \n\n");
        }
    }
    out
}

#[test]
fn a_messy_card_file_formats_to_the_same_definitions_and_a_second_fmt_changes_nothing() {
    let original = std::fs::read_to_string("cards/arcomage/bricks.edn").expect("read bricks");
    let dir = scratch("messy-deck");
    std::fs::create_dir_all(dir.join("arcomage")).expect("mkdir");
    let file = dir.join("arcomage/bricks.edn");
    let messy = mess(&original);
    assert_ne!(messy, original);
    assert!(same_forms(&messy, &original), "the mess changed the forms");
    std::fs::write(&file, &messy).expect("write");

    let out = grimoire(&["fmt", path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let formatted = std::fs::read_to_string(&file).expect("read");
    assert!(same_forms(&formatted, &original));
    // Every comment line of the original is there, as written.
    for comment in original.lines().filter(|l| l.starts_with(';')) {
        assert!(formatted.contains(comment), "lost: {comment}");
    }
    assert!(!formatted.contains(" \n") && !formatted.contains('\t'));
    assert!(!formatted.contains("\n\n\n"));

    // `check` accepts it with the same definitions as the original.
    let summary = |p: &Path| {
        let out = grimoire(&["check", path(p)]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let stderr = text(&out.stderr);
        stderr
            .lines()
            .last()
            .expect("a summary line")
            .replace(path(p), "")
    };
    let copy = dir.join("arcomage/original.edn");
    std::fs::write(&copy, &original).expect("write");
    std::fs::remove_file(&file).expect("rm");
    let want = summary(&copy);
    std::fs::remove_file(&copy).expect("rm");
    std::fs::write(&file, &formatted).expect("write");
    assert_eq!(summary(&file), want);
    assert!(want.contains("34 definitions"), "{want}");

    let out = grimoire(&["fmt", "--check", path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), formatted);
}

#[test]
fn comments_and_discards_survive() {
    let dir = scratch("comments");
    let file = dir.join("notes.edn");
    let src = ";; A deck with notes.   \n  {:card \"Quiet\" ; the name\n     #_ :doc #_ \"gone\"\n   :cost 0,   :type :gems\n      :effects [ #_{:effected :nobody}\n  {:effected :you :resource :quarry :amount 1} ; why\n   ]}\n\n\n#_{:card \"Dropped\"}\n";
    std::fs::write(&file, src).expect("write");
    let out = grimoire(&["fmt", path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let formatted = std::fs::read_to_string(&file).expect("read");
    assert_eq!(
        formatted,
        ";; A deck with notes.\n{:card \"Quiet\" ; the name\n #_ :doc #_ \"gone\"\n :cost 0,   :type :gems\n :effects [#_{:effected :nobody}\n           {:effected :you :resource :quarry :amount 1} ; why\n           ]}\n\n#_{:card \"Dropped\"}\n"
    );
    assert!(same_forms(&formatted, src));
}

#[test]
fn the_formatting_example_of_the_language_reference_is_formatted_and_restored() {
    let doc = std::fs::read_to_string("docs/LANGUAGE.md").expect("read LANGUAGE.md");
    let section = doc
        .split_once("### Formatting")
        .expect("a Formatting section")
        .1;
    let example = section
        .split_once("```clojure\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("an example")
        .0;
    assert_eq!(
        grimoire::formatter::format_source(example).as_deref(),
        Ok(example)
    );
    // Every line pushed to the first column comes back where it was.
    let flat: String = example
        .lines()
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    assert_ne!(flat, example);
    assert_eq!(
        grimoire::formatter::format_source(&flat).as_deref(),
        Ok(example)
    );
}

#[cfg(unix)]
#[test]
fn a_symlinked_file_is_formatted_where_it_points_and_stays_a_link() {
    let dir = scratch("symlink");
    let real = dir.join("real.edn");
    let link = dir.join("link.edn");
    std::fs::write(&real, MESSY).expect("write");
    std::os::unix::fs::symlink("real.edn", &link).expect("symlink");
    let out = grimoire(&["fmt", path(&link)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("stat")
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).expect("read"), TIDY);
    assert_eq!(names(&dir), ["link.edn", "real.edn"]);
}

#[cfg(unix)]
#[test]
fn a_read_only_file_is_left_as_it_is_and_said() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("read-only");
    let file = dir.join("cards.edn");
    std::fs::write(&file, MESSY).expect("write");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let out = grimoire(&["fmt", path(&file)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("the file is read-only; left as it is"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), MESSY);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
}
