//! `grimoire test`: runs scenario files and reports each scenario.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use super::deck::load_deck;
use super::{EXIT_DIAGNOSTICS, Output};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::diag::{Code, Diagnostic, Source};
use crate::files;
use crate::scenario::{self, Scenario};
use crate::syntax::{Arena, Form, Kind, Span, read};

/// One scenario's result.
#[derive(Clone, Debug)]
pub struct ScenarioOutcome {
    /// `path:line: name`.
    pub name: String,
    /// The log it produced, or what failed.
    pub result: Result<String, Vec<String>>,
    /// The log it produced, passing or failing (none when its game could not start).
    pub log: Option<String>,
}

/// Loads every scenario under `paths` and runs it; problems in the files are diagnostics.
pub fn run_paths(
    paths: &[PathBuf],
    cards: &[PathBuf],
    color: bool,
) -> Result<Vec<ScenarioOutcome>, Output> {
    let (outcomes, problems) = collect(paths, cards, color)?;
    if !problems.is_empty() {
        let located: Vec<_> = problems.iter().map(|(s, d)| (s, d)).collect();
        return Err(Output::diagnostics(&located, super::Format::Human, color));
    }
    Ok(outcomes)
}

/// Every scenario's outcome, and the problems of the files that could not be read
/// (those files' scenarios are skipped; the others still run).
#[allow(clippy::type_complexity)]
fn collect(
    paths: &[PathBuf],
    cards: &[PathBuf],
    color: bool,
) -> Result<(Vec<ScenarioOutcome>, Vec<(Source, Diagnostic)>), Output> {
    let mut io_errors = Vec::new();
    let files = files::discover(paths, &mut io_errors);
    if !io_errors.is_empty() {
        let lines: Vec<String> = io_errors.iter().map(ToString::to_string).collect();
        return Err(Output::usage(lines.join("\n")));
    }
    let mut decks: HashMap<String, (RuleSet, Vec<Card>)> = HashMap::new();
    let mut outcomes = Vec::new();
    let mut problems: Vec<(Source, Diagnostic)> = Vec::new();
    // Rule sets that did not load, their own errors shown once.
    let mut unloadable: Vec<String> = Vec::new();
    for path in &files {
        let source = match files::load(path) {
            Ok(Ok(source)) => source,
            Ok(Err((source, d))) => {
                problems.push((source, d));
                continue;
            }
            Err(e) => return Err(Output::usage(format!("{}: {e}", path.display()))),
        };
        let arena = Arena::new();
        let read = read(&arena, &source.text);
        if !read.errors.is_empty() {
            problems.extend(
                read.errors
                    .iter()
                    .map(|e| (source.clone(), Diagnostic::from(e))),
            );
            continue;
        }
        let Some(name) = files::scenario_rules(path, &read.forms) else {
            let d = Diagnostic::new(
                Code::WhichRuleSet,
                Span::new(0, 0),
                "cannot tell which rule set these scenarios use",
            )
            .with_help("put the file in a folder named after the rule set, or add `:rules :NAME`");
            problems.push((source, d));
            continue;
        };
        if !decks.contains_key(&name) {
            // A `:rules` that names no rule set is this file's error, as `check`
            // says it; the other files' scenarios still run.
            if let Err(e) = files::Library::current().open(&name) {
                let at = read
                    .forms
                    .iter()
                    .find_map(|f| f.get("rules"))
                    .map_or(Span::new(0, 0), |v| v.span);
                let d = Diagnostic::new(Code::RuleSetUnavailable, at, e.to_string());
                outcomes.extend(read.forms.iter().map(|f| not_run(&source, f)));
                problems.push((source, d));
                if !unloadable.contains(&name) {
                    unloadable.push(name.clone());
                    problems.extend(e.located().into_iter().map(|(s, d)| (s.clone(), d.clone())));
                }
                continue;
            }
            let (rules, deck) = load_deck(&name, cards, color)?;
            decks.insert(name.clone(), (rules, deck.cards));
        }
        let (rules, deck) = &decks[&name];
        let mut diags = Vec::new();
        let scenarios: Vec<Scenario> = scenario::load(&read.forms, rules, deck, &mut diags);
        let index = crate::syntax::LineIndex::new(&source.text);
        // In the file's order, a scenario that did not load among those run.
        for form in &read.forms {
            let Some(s) = scenarios.iter().find(|s| s.span == form.span) else {
                outcomes.push(not_run(&source, form));
                continue;
            };
            let line = index.location(&source.text, s.span.start).line;
            let (log, failures) = scenario::run_logged(s, rules, deck);
            let result = match &log {
                Some(log) if failures.is_empty() => Ok(log.clone()),
                _ => Err(failures),
            };
            outcomes.push(ScenarioOutcome {
                name: format!("{}:{line}: {}", source.path, s.name),
                result,
                log,
            });
        }
        problems.extend(diags.into_iter().map(|d| (source.clone(), d)));
    }
    Ok((outcomes, problems))
}

/// A scenario of `source` that could not run (its errors are shown with the
/// diagnostics): a failure, so that the summary counts every scenario written.
fn not_run(source: &Source, form: &Form<'_>) -> ScenarioOutcome {
    let line = crate::syntax::LineIndex::new(&source.text)
        .location(&source.text, form.span.start)
        .line;
    let name = match form.get("scenario").map(|v| &v.kind) {
        Some(Kind::Str(name)) => name.to_string(),
        _ => "(no name)".to_string(),
    };
    ScenarioOutcome {
        name: format!("{}:{line}: {name}", source.path),
        result: Err(vec![
            "not run: it does not load (see its errors)".to_string(),
        ]),
        log: None,
    }
}

/// `grimoire test PATH...`; with no path, the scenarios of the project the
/// command runs in.
pub fn test(paths: &[PathBuf], cards: &[PathBuf], color: bool) -> Output {
    test_logs(paths, cards, false, color)
}

/// `grimoire test PATH...`, with `--log` (`logs`) each scenario's log shown
/// under its result, passing or failing.
pub fn test_logs(paths: &[PathBuf], cards: &[PathBuf], logs: bool, color: bool) -> Output {
    let project_paths;
    let paths = match (paths, &files::Library::current().project) {
        // A project made by hand may have no scenarios yet: nothing failed.
        ([], Some(project)) if !project.scenarios().is_dir() => {
            return Output {
                stdout: "0 passed, 0 failed\n".to_string(),
                stderr: "note: this project has no scenarios yet\nhelp: put scenario files in `tests/scenarios/NAME/` (NAME: the rule set they test); `grimoire new` makes one to start from\n".to_string(),
                ..Output::default()
            };
        }
        ([], Some(project)) => {
            project_paths = vec![project.scenarios()];
            &project_paths
        }
        ([], None) => return Output::usage(super::NOT_IN_A_PROJECT),
        _ => paths,
    };
    let (outcomes, problems) = match collect(paths, cards, color) {
        Ok(o) => o,
        Err(out) => return out,
    };
    let mut out = Output::default();
    if !problems.is_empty() {
        let located: Vec<_> = problems.iter().map(|(s, d)| (s, d)).collect();
        out.stderr = Output::diagnostics(&located, super::Format::Human, color).stderr;
    }
    let (mut passed, mut failed) = (0, 0);
    for o in &outcomes {
        match &o.result {
            Ok(_) => {
                passed += 1;
                let _ = writeln!(out.stdout, "ok    {}", o.name);
            }
            Err(why) => {
                failed += 1;
                let _ = writeln!(out.stdout, "FAIL  {}", o.name);
                for line in why {
                    for l in line.lines() {
                        let _ = writeln!(out.stdout, "        {l}");
                    }
                }
            }
        }
        if logs {
            show_log(&mut out.stdout, o);
        }
    }
    if outcomes.is_empty() && problems.is_empty() {
        let where_ = paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            out.stderr,
            "error: no scenarios in {where_}\nhelp: a scenario is a map such as `{{:scenario \"…\" :play […] :expect {{…}}}}`"
        );
    }
    let _ = writeln!(out.stdout, "{passed} passed, {failed} failed");
    if failed > 0 || outcomes.is_empty() || !problems.is_empty() {
        out.code = EXIT_DIAGNOSTICS;
    }
    out
}

/// A scenario's log under its result (`test --log`), unless a failure
/// already shows all of it ("the log differs; it was: …").
fn show_log(stdout: &mut String, o: &ScenarioOutcome) {
    let Some(log) = &o.log else {
        return;
    };
    if let Err(why) = &o.result
        && why.iter().any(|w| w.ends_with(log.as_str()))
    {
        return;
    }
    if log.trim().is_empty() {
        let _ = writeln!(stdout, "        log: (empty: nothing happened)");
        return;
    }
    let _ = writeln!(stdout, "        log:");
    for l in log.lines() {
        let _ = writeln!(stdout, "          {l}");
    }
}
