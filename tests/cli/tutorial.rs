//! docs/TUTORIAL.md run as a designer runs it: every command of its ```sh
//! blocks, in order, in one temporary folder, with the files its ```edn
//! blocks write, and the output it shows checked against what the built
//! binary prints.
//!
//! The format, kept small so that what the page shows is what runs:
//!
//! - In a ```sh block, a line `$ grimoire ARGS…` runs the binary (words
//!   split at spaces; no quoting, no absolute or `..` paths), `$ cd DIR`
//!   changes the working folder (inside the temporary one), and any other
//!   command is refused. A
//!   trailing `# exit N` says the exit code it must have (0 without);
//!   another `# comment` is for readers only.
//! - The lines under a command, up to the next command or the block's end,
//!   are its expected output: each must be a line of what it printed
//!   (standard output, then standard error; trailing spaces aside), in that
//!   order; a line `...` stands for lines left out, and blank lines are skipped.
//! - A block opened with ```` ```edn file=PATH ```` writes (or replaces)
//!   PATH with its text before the next command; ```` ```edn append=PATH ````
//!   adds its text to the end of PATH after a blank line. PATH is relative
//!   to the working folder and stays inside the temporary one.
//! - Every other block is shown, not run.

use std::path::{Component, Path, PathBuf};

use crate::common::{run_in, scratch_dir, text};

const TUTORIAL: &str = include_str!("../../docs/TUTORIAL.md");

/// One thing the tutorial does, with the line of the page it is written on.
#[derive(Debug)]
enum Step {
    /// `$ grimoire ARGS…`, the exit code it must have and the lines it must print.
    Run {
        line: usize,
        args: Vec<String>,
        exit: i32,
        expect: Vec<String>,
    },
    /// `$ cd DIR`.
    Cd { line: usize, dir: String },
    /// An ```edn block with `file=` (replace) or `append=`.
    Write {
        line: usize,
        path: String,
        text: String,
        append: bool,
    },
}

/// What a fence's info string makes of the block it opens.
enum Block {
    Shell,
    Write { path: String, append: bool },
    Shown,
}

fn block_kind(info: &str) -> Block {
    let mut words = info.split_whitespace();
    match (words.next(), words.next()) {
        (Some("sh"), None) => Block::Shell,
        (Some("edn"), Some(target)) => {
            if let Some(path) = target.strip_prefix("file=") {
                Block::Write {
                    path: path.to_string(),
                    append: false,
                }
            } else if let Some(path) = target.strip_prefix("append=") {
                Block::Write {
                    path: path.to_string(),
                    append: true,
                }
            } else {
                Block::Shown
            }
        }
        _ => Block::Shown,
    }
}

/// A `$ …` line: the command's words and the exit code its comment names.
fn command(line: usize, body: &str) -> Result<Step, String> {
    let (words, comment) = match body.split_once(" #") {
        Some((words, comment)) => (words, comment.trim()),
        None => (body, ""),
    };
    let exit = match comment.strip_prefix("exit ") {
        Some(code) => code
            .trim()
            .parse()
            .map_err(|_| format!("line {line}: `# exit N` needs a number: {body}"))?,
        None => 0,
    };
    if words.contains(['"', '\'', '|', '>', '<', '&', ';']) {
        return Err(format!(
            "line {line}: no quoting, pipes or redirections in a run command: {body}"
        ));
    }
    let words: Vec<String> = words.split_whitespace().map(str::to_string).collect();
    // Whatever a command writes (a report, a recording) stays in the tutorial's folder.
    if words
        .iter()
        .any(|w| w.starts_with(['/', '~']) || w.split('/').any(|part| part == ".."))
    {
        return Err(format!(
            "line {line}: paths in a run command stay below the tutorial's folder: {body}"
        ));
    }
    match words.first().map(String::as_str) {
        Some("grimoire") => Ok(Step::Run {
            line,
            args: words[1..].to_vec(),
            exit,
            expect: Vec::new(),
        }),
        Some("cd") if words.len() == 2 => Ok(Step::Cd {
            line,
            dir: words[1].clone(),
        }),
        _ => Err(format!(
            "line {line}: only `$ grimoire …` and `$ cd DIR` are run: {body}"
        )),
    }
}

/// The steps of a page, in order, or the first line it cannot read.
fn steps(doc: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let mut block: Option<(usize, Block, String)> = None;
    for (index, line) in doc.lines().enumerate() {
        let number = index + 1;
        let fence = line.trim_start().strip_prefix("```");
        match (&mut block, fence) {
            (None, Some(info)) => block = Some((number, block_kind(info), String::new())),
            (Some(_), Some("")) => {
                if let Some((opened, Block::Write { path, append }, text)) = block.take() {
                    steps.push(Step::Write {
                        line: opened,
                        path,
                        text,
                        append,
                    });
                }
            }
            (Some((_, Block::Shell, _)), None) => {
                if let Some(body) = line.strip_prefix("$ ") {
                    steps.push(command(number, body)?);
                } else if !(line.trim().is_empty() || line.trim() == "...") {
                    match steps.last_mut() {
                        Some(Step::Run { expect, .. }) => expect.push(line.trim_end().to_string()),
                        _ => {
                            return Err(format!(
                                "line {number}: output under no `$ grimoire` line"
                            ));
                        }
                    }
                }
            }
            (Some((_, Block::Write { .. }, text)), None) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    match block {
        Some((opened, ..)) => Err(format!("line {opened}: a block that is never closed")),
        None => Ok(steps),
    }
}

/// `base` joined with the relative `path`, refused if it would leave `root`.
fn inside(root: &Path, base: &Path, path: &str, line: usize) -> Result<PathBuf, String> {
    let mut out = base.to_path_buf();
    for part in Path::new(path).components() {
        match part {
            Component::Normal(name) => out.push(name),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            _ => return Err(format!("line {line}: `{path}` must be a relative path")),
        }
    }
    if out.starts_with(root) {
        Ok(out)
    } else {
        Err(format!(
            "line {line}: `{path}` leaves the tutorial's folder"
        ))
    }
}

/// The expected lines missing from `printed`, which must hold them in order.
fn missing(expect: &[String], printed: &str) -> Option<String> {
    let mut lines = printed.lines().map(str::trim_end);
    expect
        .iter()
        .find(|wanted| !lines.any(|l| l == wanted.as_str()))
        .cloned()
}

/// Does every step of `doc` in `root`: the first failure, or the arguments
/// of every command run.
fn run(doc: &str, root: &Path) -> Result<Vec<Vec<String>>, String> {
    let mut cwd = root.to_path_buf();
    let mut ran = Vec::new();
    for step in steps(doc)? {
        match step {
            Step::Cd { line, dir } => {
                cwd = inside(root, &cwd, &dir, line)?;
                if !cwd.is_dir() {
                    return Err(format!("line {line}: `cd {dir}`: no such folder"));
                }
            }
            Step::Write {
                line,
                path,
                text,
                append,
            } => {
                let file = inside(root, &cwd, &path, line)?;
                let text = if append {
                    let before = std::fs::read_to_string(&file)
                        .map_err(|e| format!("line {line}: append to `{path}`: {e}"))?;
                    format!("{before}\n{text}")
                } else {
                    text
                };
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| format!("line {line}: {e}"))?;
                }
                std::fs::write(&file, text).map_err(|e| format!("line {line}: {e}"))?;
            }
            Step::Run {
                line,
                args,
                exit,
                expect,
            } => {
                let words: Vec<&str> = args.iter().map(String::as_str).collect();
                let out = run_in(&words, "", Some(&cwd));
                let printed = text(&out.stdout) + &text(&out.stderr);
                let said = |what: String| {
                    format!(
                        "line {line}: `grimoire {}` {what}; it printed:\n{printed}",
                        args.join(" ")
                    )
                };
                if out.status.code() != Some(exit) {
                    return Err(said(format!("exited {:?}, not {exit}", out.status.code())));
                }
                if let Some(wanted) = missing(&expect, &printed) {
                    return Err(said(format!(
                        "did not print, in order, the line `{wanted}`"
                    )));
                }
                ran.push(args);
            }
        }
    }
    Ok(ran)
}

#[test]
fn the_tutorial_runs_as_written() {
    let root = scratch_dir("tutorial");
    let ran = run(TUTORIAL, &root).unwrap_or_else(|e| panic!("docs/TUTORIAL.md, {e}"));
    // What the tutorial promises to walk through is run, not only shown.
    for wanted in [
        "new",
        "check",
        "check --explain",
        "test",
        "test --log",
        "play",
        "simulate",
        "eval",
    ] {
        let wanted: Vec<&str> = wanted.split(' ').collect();
        assert!(
            ran.iter().any(|args| args
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .starts_with(&wanted)),
            "docs/TUTORIAL.md runs no `grimoire {}`",
            wanted.join(" ")
        );
    }
    // The game of zones is watched as one seat sees it.
    assert!(
        ran.iter()
            .any(|args| args.first().is_some_and(|a| a == "play")
                && args.iter().any(|a| a == "--view")),
        "docs/TUTORIAL.md runs no `grimoire play … --view SEAT`"
    );
    let report = ran
        .iter()
        .find_map(|args| {
            let at = args.iter().position(|a| a == "--report")?;
            args.get(at + 1).cloned()
        })
        .expect("docs/TUTORIAL.md writes a report");
    let written = walk(&root)
        .into_iter()
        .find(|p| p.ends_with(&report))
        .expect("the report, in the tutorial's folder");
    let html = std::fs::read_to_string(written).expect("the report");
    assert!(html.contains("<h2>Seat win rates</h2>"), "{html}");
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// A page of the tutorial's format, in a folder of its own.
fn run_page(name: &str, page: &str) -> Result<Vec<Vec<String>>, String> {
    run(page, &scratch_dir(name))
}

#[test]
fn a_command_that_fails_fails_the_tutorial() {
    let page = "```sh\n$ grimoire new g\n$ cd g\n$ grimoire test no-such-file.edn\n```\n";
    let err = run_page("tutorial-fails", page).expect_err("a failing command");
    assert!(
        err.starts_with("line 4: `grimoire test no-such-file.edn` exited Some(2), not 0"),
        "{err}"
    );
    // Said to fail, it passes.
    let page = page.replace(".edn\n", ".edn  # exit 2\n");
    run_page("tutorial-fails", &page).expect("an expected exit code");
}

#[test]
fn an_output_line_not_printed_fails_the_tutorial() {
    let page = "```sh\n$ grimoire new g\n$ cd g\n$ grimoire test\n...\n2 passed, 0 failed\n```\n";
    run_page("tutorial-output", page).expect("the line is printed");
    let wrong = page.replace("2 passed", "3 passed");
    let err = run_page("tutorial-output", &wrong).expect_err("a line not printed");
    assert!(
        err.contains("did not print, in order, the line `3 passed, 0 failed`"),
        "{err}"
    );
    // Lines are matched in the order shown.
    let swapped = "```sh\n$ grimoire new g\n$ cd g\n$ grimoire test\n2 passed, 0 failed\nok    tests/scenarios/g/cards.edn:4: Spark deals 3 damage\n```\n";
    run_page("tutorial-output", swapped).expect_err("lines out of order");
}

#[test]
fn files_are_written_inside_the_folder_and_only_grimoire_runs() {
    let page = "```sh\n$ grimoire new g\n$ cd g\n```\n\
                ```edn file=tests/scenarios/g/more.edn\n\
                {:scenario \"Mend heals 2\" :given {:you {:mana 2}} :play [\"Mend\"] :expect {:you {:health 22}}}\n```\n\
                ```sh\n$ grimoire test\n3 passed, 0 failed\n```\n";
    let ran = run_page("tutorial-files", page).expect("a scenario added");
    assert_eq!(ran.len(), 2);
    // Refused before anything runs: each says why.
    for (bad, why) in [
        (
            "```edn file=../outside.edn\n{}\n```\n",
            "leaves the tutorial's folder",
        ),
        (
            "```edn file=/tmp/outside.edn\n{}\n```\n",
            "must be a relative path",
        ),
        (
            "```sh\n$ rm -rf g\n```\n",
            "only `$ grimoire …` and `$ cd DIR` are run",
        ),
        (
            "```sh\n$ grimoire simulate g --report /tmp/r.html\n```\n",
            "stay below",
        ),
        (
            "```sh\n$ grimoire simulate g --report ../r.html\n```\n",
            "stay below",
        ),
        ("```sh\n$ grimoire new \"g h\"\n```\n", "no quoting"),
        ("```sh\n$ grimoire new g\n", "never closed"),
    ] {
        let err = run_page("tutorial-files", bad).expect_err(bad);
        assert!(err.contains(why), "{bad}: {err}");
    }
}
