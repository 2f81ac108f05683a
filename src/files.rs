//! Files: finding data files, reading them safely, checking each against its
//! rule set, and loading a game's deck.
//!
//! A file is either a rule set (one map with `:rules`) or a definitions file
//! ([`crate::defs`]). A definitions file is checked against the rule set named
//! by `--rules`, or else against the rule set whose name is one of the file's
//! folders (`cards/arcomage/miners.edn` is an Arcomage file).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::defs::{DefKind, Definition, definition, name_span};
use crate::diag::{Diagnostic, Severity, Source};
use crate::rules::{BUNDLED, RuleSet};
use crate::syntax::{Arena, Form, Span, read};

/// The file extensions `check` reads when given a folder.
pub const EXTENSIONS: &[&str] = &["edn", "csv", "md"];

fn is_csv(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".csv")
}

fn is_md(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".md")
}

/// A path that could not be read: a missing file, a folder without permission.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IoProblem {
    /// The path as given or found.
    pub path: String,
    /// What went wrong, as the system says it.
    pub message: String,
}

impl IoProblem {
    fn new(path: &Path, e: &std::io::Error) -> IoProblem {
        IoProblem {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }
}

impl std::fmt::Display for IoProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The result of checking a set of files.
#[derive(Debug, Default)]
pub struct Checked {
    /// Every file read, in the order checked.
    pub sources: Vec<Source>,
    /// Diagnostics, each with the index of its source.
    pub diagnostics: Vec<(usize, Diagnostic)>,
    /// Paths that could not be read at all (missing, unreadable): usage or I/O errors.
    pub io_errors: Vec<IoProblem>,
    /// Rule sets found among the files, checked.
    pub rule_sets: Vec<RuleSet>,
    /// Cards and effects that checked clean.
    pub definitions: Vec<Definition>,
    /// Each rule set the definitions were checked against, with the statuses
    /// they define declared and installed: what a game of it plays with.
    pub extended: Vec<RuleSet>,
}

impl Checked {
    /// How many diagnostics are errors.
    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|(_, d)| d.severity == Severity::Error)
            .count()
    }
}

/// Finds the data files under `paths` (files as given, folders recursively, sorted).
pub fn discover(paths: &[PathBuf], io_errors: &mut Vec<IoProblem>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut out, io_errors),
            Ok(_) => out.push(path.clone()),
            Err(e) => io_errors.push(IoProblem::new(path, &e)),
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, io_errors: &mut Vec<IoProblem>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            io_errors.push(IoProblem::new(dir, &e));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        // A symlinked folder is not followed: `up -> ..` would read everything again.
        let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        // Build output and hidden folders (`.git`) hold no data of the designer's.
        let skipped = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == "target" || n.starts_with('.'));
        if path.is_dir() {
            if !link && !skipped {
                walk(&path, out, io_errors);
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            out.push(path);
        }
    }
}

/// Reads a file as UTF-8 text; a file that is not text becomes a diagnostic, not a panic.
pub fn load(path: &Path) -> Result<Result<Source, (Source, Diagnostic)>, std::io::Error> {
    let bytes = std::fs::read(path)?;
    Ok(source_of(path.display().to_string(), bytes))
}

/// Bytes named `shown` (a file, `<stdin>`) as a source; bytes that are not
/// UTF-8 give the source read lossily and a located diagnostic.
#[allow(clippy::result_large_err)]
pub fn source_of(shown: String, bytes: Vec<u8>) -> Result<Source, (Source, Diagnostic)> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(shown, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let d = Diagnostic::error(
                Span::new(at, at + 1),
                format!("this file is not UTF-8 text (invalid byte at offset {at})"),
            )
            .with_label("not UTF-8")
            .with_help(not_utf8_help(e.as_bytes()));
            Err((Source::new(shown, text), d))
        }
    }
}

/// What to do about a file that is not UTF-8: text with a few bytes from
/// another encoding (a spreadsheet's Latin-1 or Windows-1252 export) is to be
/// saved again as UTF-8; bytes no text holds suggest a binary file.
fn not_utf8_help(bytes: &[u8]) -> &'static str {
    let binary = bytes
        .iter()
        .any(|&b| b == 0 || (b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t')));
    if binary {
        "grimoire reads UTF-8 text files; is this a binary file?"
    } else {
        "the file looks like text in another encoding (a spreadsheet's Latin-1 or Windows-1252 export): save it as UTF-8"
    }
}

/// Checks every file under `paths`. With `rules`, definitions files are checked against it.
pub fn check_paths(paths: &[PathBuf], rules: Option<&RuleSet>) -> Checked {
    check_paths_with(paths, Vec::new(), rules)
}

/// Checks every file under `paths` and the texts `extra` (standard input, say)
/// together, as [`check_paths`] checks files.
pub fn check_paths_with(
    paths: &[PathBuf],
    extra: Vec<Result<Source, (Source, Diagnostic)>>,
    rules: Option<&RuleSet>,
) -> Checked {
    let mut out = Checked::default();
    for source in extra {
        match source {
            Ok(source) => out.sources.push(source),
            Err((source, d)) => {
                out.diagnostics.push((out.sources.len(), d));
                out.sources.push(source);
            }
        }
    }
    let files = discover(paths, &mut out.io_errors);
    for path in &files {
        match load(path) {
            Ok(Ok(source)) => out.sources.push(source),
            Ok(Err((source, d))) => {
                out.diagnostics.push((out.sources.len(), d));
                out.sources.push(source);
            }
            Err(e) => out.io_errors.push(IoProblem::new(path, &e)),
        }
    }
    check_loaded(out, rules)
}

/// Checks texts already in memory (the decks compiled into the binary, say) as
/// [`check_paths`] checks files.
pub fn check_sources(sources: Vec<Source>, rules: Option<&RuleSet>) -> Checked {
    check_loaded(
        Checked {
            sources,
            ..Checked::default()
        },
        rules,
    )
}

/// The definitions files compiled into the binary, by rule set: the cards
/// `play` and `simulate` deal when no `--cards` are given, and the statuses a
/// bundled rule set always has.
pub const BUNDLED_DATA: &[(&str, &[(&str, &str)])] = &[
    (
        "skills",
        &[
            (
                "cards/skills/skills.edn",
                include_str!("../cards/skills/skills.edn"),
            ),
            (
                "cards/skills/talismans.edn",
                include_str!("../cards/skills/talismans.edn"),
            ),
            (
                "effects/skills/buffs.edn",
                include_str!("../effects/skills/buffs.edn"),
            ),
            (
                "effects/skills/debuffs.edn",
                include_str!("../effects/skills/debuffs.edn"),
            ),
        ],
    ),
    (
        "tbwg",
        &[(
            "effects/tbwg/statuses.edn",
            include_str!("../effects/tbwg/statuses.edn"),
        )],
    ),
    (
        "duel",
        &[(
            "effects/duel/statuses.edn",
            include_str!("../effects/duel/statuses.edn"),
        )],
    ),
    (
        "tactics",
        &[(
            "effects/tactics/buffs.edn",
            include_str!("../effects/tactics/buffs.edn"),
        )],
    ),
    (
        "arcomage",
        // In the order `discover` sorts the folder's files, so a seed deals the same game either way.
        &[
            (
                "cards/arcomage/beasts.edn",
                include_str!("../cards/arcomage/beasts.edn"),
            ),
            (
                "cards/arcomage/bricks.edn",
                include_str!("../cards/arcomage/bricks.edn"),
            ),
            (
                "cards/arcomage/gems.edn",
                include_str!("../cards/arcomage/gems.edn"),
            ),
        ],
    ),
];

/// Checks the sources in `out` (files already read, with any read problems noted).
fn check_loaded(mut out: Checked, rules: Option<&RuleSet>) -> Checked {
    let unreadable: Vec<usize> = out.diagnostics.iter().map(|(i, _)| *i).collect();
    // First the rule sets, so definitions can be checked against rule sets given
    // beside them. Each file is read once; its forms serve every pass below.
    let sources = &out.sources;
    let arena = Arena::new();
    let mut parsed: Vec<Option<Parsed<'_>>> = Vec::with_capacity(sources.len());
    for (i, source) in sources.iter().enumerate() {
        if unreadable.contains(&i) {
            parsed.push(None);
            continue;
        }
        if is_csv(&source.path) {
            parsed.push(Some(Parsed::Csv));
            continue;
        }
        if is_md(&source.path) {
            let mut diags = Vec::new();
            let tables = crate::md::tables(&source.text, &mut diags);
            out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
            // A document without tables is prose; which of its tables are
            // sources depends on its rule set's `:tables`, known below.
            parsed.push((!tables.is_empty()).then_some(Parsed::Md(tables)));
            continue;
        }
        let mut read = read(&arena, &source.text);
        if !read.errors.is_empty() {
            out.diagnostics
                .extend(read.errors.iter().map(|e| (i, Diagnostic::from(e))));
            // The forms an error is inside are not checked (their error
            // stands for them, with no follow-on ones); the others are.
            let errors = std::mem::take(&mut read.errors);
            read.forms.retain(|f| {
                // A rule set is checked around its broken sections (below).
                f.has_key("rules")
                    || !errors.iter().any(|e| {
                        e.breaks_form()
                            && e.span().start >= f.span.start
                            && e.span().start < f.span.end
                    })
            });
            read.errors = errors;
            if read.forms.is_empty() {
                parsed.push(None);
                continue;
            }
        }
        if read.forms.is_empty() {
            out.diagnostics.push((
                i,
                Diagnostic::error(
                    Span::new(0, 0),
                    "this file holds no forms: expected a rule set or card and effect definitions",
                ),
            ));
            parsed.push(None);
            continue;
        }
        // A scenario file is checked as scenarios, against its rule set and deck.
        // One form with `:scenario` makes it a scenario file: the others are
        // checked as scenarios too, so a misspelt `:scenaro` gets its hint.
        if read.forms.iter().any(|f| f.has_key("scenario")) {
            let diags = check_scenarios(Path::new(&source.path), &read.forms, rules);
            out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
            parsed.push(None);
            continue;
        }
        if let [form] = read.forms.as_slice()
            && form.has_key("rules")
        {
            let mut diags = Vec::new();
            let rs = RuleSet::from_form(form, &mut diags);
            if read.errors.is_empty() {
                if let Some(rs) = rs
                    && diags.is_empty()
                {
                    out.rule_sets.push(rs);
                }
            } else {
                // Read with errors: not a rule set to play or check against,
                // but its other sections' errors are said. What touches a
                // broken part (or holds one, as "no `:roles`" does) is left
                // out: it would follow from the break.
                let broken: Vec<Span> = read
                    .damaged
                    .iter()
                    .copied()
                    .chain(read.errors.iter().map(|e| e.span()))
                    .collect();
                diags.retain(|d| {
                    !broken.iter().any(|b| {
                        d.span.start < b.end.max(b.start + 1)
                            && b.start < d.span.end.max(d.span.start + 1)
                    })
                });
                // A dropped section's names are unknown to the rest: "unknown
                // attribute `:hp`" would follow from the break, not be new.
                if !read.damaged.is_empty() {
                    diags.retain(|d| !d.message.starts_with("unknown "));
                }
            }
            out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
            parsed.push(None);
            continue;
        }
        parsed.push(Some(Parsed::Edn(read)));
    }
    // Which rule set each definitions file is written for.
    let mut bundled: HashMap<String, Option<RuleSet>> = HashMap::new();
    // Each rule set the definitions are checked against, once, extended with
    // their statuses below; `chosen[i]` is the index of file i's.
    let mut extended: Vec<RuleSet> = Vec::new();
    let mut chosen: Vec<Option<usize>> = Vec::with_capacity(sources.len());
    for (i, kind) in parsed.iter().enumerate() {
        if kind.is_none() {
            chosen.push(None);
            continue;
        }
        let source = &sources[i];
        let found = match rules {
            Some(r) => Some(r),
            None => rule_set_for(Path::new(&source.path), &out.rule_sets, &mut bundled),
        };
        let found = found.map(|rs| match extended.iter().position(|r| r.name == rs.name) {
            Some(k) => k,
            None => {
                extended.push(rs.clone());
                extended.len() - 1
            }
        });
        // A document none of whose tables any known rule set reads is prose.
        if found.is_none()
            && let Some(Parsed::Md(tables)) = kind
            && !read_by_any(tables, &out.rule_sets, &mut bundled)
        {
            chosen.push(None);
            continue;
        }
        if found.is_none() {
            let mut names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
            // The bundled rule-set files may be among those checked: each name once.
            for r in &out.rule_sets {
                if !names.contains(&r.name.as_str()) {
                    names.push(&r.name);
                }
            }
            out.diagnostics.push((
                i,
                Diagnostic::error(
                    Span::new(0, 0),
                    format!("cannot tell which rule set `{}` is written for", source.path),
                )
                .with_help(format!(
                    "put it in a folder named after its rule set (such as `cards/arcomage/`), or pass `--rules NAME`; known rule sets: {}",
                    names.join(", ")
                )),
            ));
        }
        chosen.push(found);
    }
    // The status and category rows of each document, by its rule set's table shapes.
    let md_rows: Vec<Option<MdRows<'_>>> = (0..sources.len())
        .map(|i| match (chosen[i], &parsed[i]) {
            (Some(k), Some(Parsed::Md(tables))) => Some(crate::md::status_tables(
                &sources[i].text,
                tables,
                &extended[k].tables,
            )),
            _ => None,
        })
        .collect();
    // Every status of every file is declared before any definition is checked,
    // so cards and statuses can name statuses defined in any file, in any order.
    for ((k, p), md) in chosen.iter().zip(&parsed).zip(&md_rows) {
        match (*k, p) {
            (Some(k), Some(Parsed::Edn(read))) => {
                let ids = read
                    .forms
                    .iter()
                    .filter_map(|f| f.get("status").and_then(|v| v.as_keyword()));
                extended[k].declare_statuses(ids);
            }
            // A table row with a description is a status, defined there or in an `.edn` file.
            (Some(k), Some(Parsed::Md(_))) => extended[k].declare_statuses(
                md.iter()
                    .flat_map(|(rows, _)| rows)
                    .filter(|r| r.description.is_some())
                    .map(|r| r.name.text.as_ref()),
            ),
            _ => {}
        }
    }
    let mut seen: HashMap<(String, String), (usize, Span)> = HashMap::new();
    let mut statuses: Vec<(String, String, crate::ast::StatusDef)> = Vec::new();
    for (i, k) in chosen.iter().enumerate() {
        let Some(rs) = k.map(|k| &extended[k]) else {
            continue;
        };
        let mut diags = Vec::new();
        let cells;
        let from_csv;
        let forms: &[Form<'_>] = match &parsed[i] {
            Some(Parsed::Edn(read)) => &read.forms,
            // Table rows are joined to the definitions once all are checked, below.
            Some(Parsed::Md(..)) => continue,
            _ => {
                cells = crate::csv::rows(&sources[i].text, &mut diags);
                from_csv = crate::csv::cards(&arena, &cells, &mut diags);
                &from_csv
            }
        };
        for form in forms {
            if let Some(def) = definition(form, rs, i, &mut diags) {
                let key = (rs.name.clone(), def.name.clone());
                if let Some((file, first)) = seen.get(&key) {
                    let mut d = Diagnostic::error(
                        name_span(form).unwrap_or(form.span),
                        format!("`{}` is defined twice in rule set `{}`", def.name, rs.name),
                    )
                    .with_label("defined again");
                    if *file == i {
                        d = d.with_related(*first, "first defined here");
                    } else {
                        let other = &sources[*file];
                        let (line, column) = other.line_column(first.start);
                        d = d.with_elsewhere(crate::diag::Elsewhere {
                            path: other.path.clone(),
                            line,
                            column,
                            note: "first defined".into(),
                        });
                    }
                    diags.push(d);
                } else {
                    seen.insert(key, (i, name_span(form).unwrap_or(form.span)));
                    if let Some(status) = &def.status {
                        statuses.push((rs.name.clone(), def.name.clone(), status.clone()));
                    }
                    out.definitions.push(def);
                }
            }
        }
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
    }
    // Markdown rows: each joined to the `.edn` status of its id and checked
    // against it, or a status of its own.
    let mut rows_seen: HashMap<(String, usize, String), Span> = HashMap::new();
    for (i, k) in chosen.iter().enumerate() {
        let (Some(k), Some((rows, categories))) = (*k, &md_rows[i]) else {
            continue;
        };
        let rs = &extended[k];
        let mut diags = Vec::new();
        crate::md::check_categories(categories, rs, &mut diags);
        for row in rows {
            let id = crate::md::status_id(&row.name.text, rs);
            // The same status in two tables of different shapes is checked twice;
            // twice in tables of one shape, it is defined twice.
            let key = (rs.name.clone(), row.shape, id.to_string());
            // A row naming nothing is reported by `check_row`, not as a second nothing.
            if let (false, Some(first)) = (id.is_empty(), rows_seen.get(&key)) {
                diags.push(
                    Diagnostic::error(
                        row.name.span,
                        format!("`{}` is defined twice in these tables", row.name.text),
                    )
                    .with_label("defined again")
                    .with_related(*first, "first defined here")
                    .with_help("give each row its own name"),
                );
                continue;
            }
            rows_seen.insert(key, row.name.span);
            // The `.edn` status of its id: among the files checked, or the rule set's own.
            let in_files = out.definitions.iter().find(|d| {
                d.kind == crate::defs::DefKind::Status && d.rules == rs.name && d.name == id
            });
            let joined = match in_files {
                Some(d) => d
                    .status
                    .as_ref()
                    .map(|s| (s, sources[d.source].path.as_str())),
                None => rs
                    .status(id)
                    .filter(|&s| rs.status_installed.get(usize::from(s)) == Some(&true))
                    .map(|s| {
                        (
                            &rs.status_defs[usize::from(s)],
                            "the rule set's bundled data",
                        )
                    }),
            };
            if let Some(def) = crate::md::check_row(row, rs, joined, i, &mut diags) {
                statuses.push((
                    rs.name.clone(),
                    def.name.clone(),
                    def.status.clone().unwrap_or_default(),
                ));
                out.definitions.push(def);
            }
        }
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
    }
    for rs in &mut extended {
        let name = rs.name.clone();
        rs.install_statuses(
            statuses
                .iter()
                .filter(|(r, _, _)| *r == name)
                .map(|(_, id, def)| (id.as_str(), def.clone())),
        );
    }
    out.extended = extended;
    // Each file's diagnostics in reading order, whichever pass found them.
    out.diagnostics
        .sort_by_key(|(i, d)| (*i, d.span.start, d.span.end));
    out
}

/// Checks the scenarios of the file at `path` against the rule set they name
/// (`:rules`, else the folder they are in, else `rules`) and its bundled deck.
fn check_scenarios(
    path: &Path,
    forms: &[crate::syntax::Form<'_>],
    rules: Option<&RuleSet>,
) -> Vec<Diagnostic> {
    let whole = forms.first().map_or(Span::default(), |f| {
        Span::new(f.span.start as usize, f.span.start as usize)
    });
    // A rule set that does not load is said at the `:rules` naming it.
    let named = forms
        .iter()
        .find_map(|f| f.get("rules"))
        .map_or(whole, |v| v.span);
    let mut loaded = match scenario_rules(path, forms) {
        Some(name) => match load_rules(&name) {
            Ok(r) => r,
            Err(e) => return vec![Diagnostic::error(named, e.to_string())],
        },
        None => match rules {
            Some(r) => r.clone(),
            None => {
                return vec![
                    Diagnostic::error(whole, "cannot tell which rule set these scenarios use")
                        .with_help("put the file in a folder named after the rule set, add `:rules :NAME`, or give `--rules`"),
                ];
            }
        },
    };
    let deck = match load_deck(&mut loaded, &[]) {
        Ok(deck) => deck.cards,
        Err(e) => return vec![Diagnostic::error(whole, e.to_string())],
    };
    let mut diags = Vec::new();
    crate::scenario::load(forms, &loaded, &deck, &mut diags);
    diags
}

/// The rule set a scenario file uses: a form's `:rules`, else a folder named
/// after a bundled rule set.
pub fn scenario_rules(path: &Path, forms: &[crate::syntax::Form<'_>]) -> Option<String> {
    for f in forms {
        if let Some(name) = f.get("rules").and_then(|v| v.as_keyword()) {
            return Some(name.to_string());
        }
    }
    rules_folder(path, |dir| {
        crate::rules::BUNDLED.iter().any(|(n, _)| *n == dir)
    })
    .map(str::to_string)
}

/// A file read for checking: a spreadsheet (read row by row when checked), or
/// the forms of a definitions file.
enum Parsed<'a> {
    Csv,
    Edn(crate::syntax::Read<'a>),
    /// A markdown document's tables.
    Md(Vec<crate::md::Table<'a>>),
}

/// A markdown document's status rows and category rows.
type MdRows<'a> = (
    Vec<crate::md::StatusRow<'a>>,
    Vec<crate::md::CategoryRow<'a>>,
);

/// Whether a rule set given or bundled reads some table of `tables`: a
/// document whose rule set cannot be told is then a source gone astray, not prose.
fn read_by_any(
    tables: &[crate::md::Table<'_>],
    given: &[RuleSet],
    bundled: &mut HashMap<String, Option<RuleSet>>,
) -> bool {
    given.iter().any(|r| crate::md::any_of(tables, &r.tables))
        || BUNDLED.iter().any(|(name, _)| {
            bundled
                .entry(name.to_string())
                .or_insert_with(|| load_rules(name).ok())
                .as_ref()
                .is_some_and(|r| crate::md::any_of(tables, &r.tables))
        })
}

/// The rule set a file belongs to: the nearest folder named after a known rule set.
fn rule_set_for<'r>(
    path: &Path,
    found: &'r [RuleSet],
    bundled: &'r mut HashMap<String, Option<RuleSet>>,
) -> Option<&'r RuleSet> {
    let is_bundled = |dir: &str| BUNDLED.iter().any(|(n, _)| *n == dir);
    let dir = rules_folder(path, |dir| {
        found.iter().any(|r| r.name == dir) || is_bundled(dir)
    })?;
    if let Some(rs) = found.iter().find(|r| r.name == dir) {
        return Some(rs);
    }
    bundled
        .entry(dir.to_string())
        // With its bundled statuses, as `--rules` loads it.
        .or_insert_with(|| load_rules(dir).ok())
        .as_ref()
}

/// The nearest folder above `path` whose name `is_rule_set` accepts: the rule
/// set a file is written for (`cards/arcomage/bricks.edn` → `arcomage`).
pub fn rules_folder(path: &Path, is_rule_set: impl Fn(&str) -> bool) -> Option<&str> {
    path.ancestors()
        .skip(1)
        .filter_map(|p| p.file_name().and_then(|n| n.to_str()))
        .find(|dir| is_rule_set(dir))
}

/// Loads a rule set by bundled name or from a file path; diagnostics come with their source.
pub fn load_rules(name_or_path: &str) -> Result<RuleSet, LoadError> {
    if let Some(result) = RuleSet::bundled(name_or_path) {
        let rules = result.map_err(|diags| {
            LoadError::Invalid(
                Source::new(
                    format!("<bundled {name_or_path}>"),
                    bundled_text(name_or_path),
                ),
                diags,
            )
        })?;
        return Ok(with_bundled_statuses(rules));
    }
    let text = match std::fs::read(name_or_path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let source = Source::new(
                    name_or_path,
                    String::from_utf8_lossy(e.as_bytes()).into_owned(),
                );
                let d = Diagnostic::error(Span::new(at, at + 1), "this file is not UTF-8 text");
                return Err(LoadError::Invalid(source, vec![d]));
            }
        },
        Err(e) => {
            let known: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
            return Err(LoadError::Missing {
                name: name_or_path.to_string(),
                reason: e.to_string(),
                suggestion: crate::diag::nearest(name_or_path, known.iter().copied())
                    .map(str::to_string),
                known: known.join(", "),
            });
        }
    };
    let source = Source::new(name_or_path, text);
    RuleSet::parse(&source.text).map_err(|diags| LoadError::Invalid(source, diags))
}

/// A bundled rule set with the statuses its bundled definitions define.
fn with_bundled_statuses(rules: RuleSet) -> RuleSet {
    let Some((_, texts)) = BUNDLED_DATA.iter().find(|(name, _)| *name == rules.name) else {
        return rules;
    };
    let sources = texts
        .iter()
        .filter(|(_, text)| text.contains(":status"))
        .map(|(path, text)| Source::new(format!("<bundled {path}>"), *text))
        .collect::<Vec<_>>();
    if sources.is_empty() {
        return rules;
    }
    let mut checked = check_sources(sources, Some(&rules));
    // The bundled data is checked by the test suite; a fault there keeps the
    // rule set as it is rather than failing every command.
    match checked.extended.pop() {
        Some(extended) if checked.error_count() == 0 => extended,
        _ => rules,
    }
}

fn bundled_text(name: &str) -> &'static str {
    BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("", |(_, t)| t)
}

/// Why a rule set could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// Neither a bundled name nor a readable file.
    Missing {
        /// What was asked for.
        name: String,
        /// Why the file could not be read.
        reason: String,
        /// The nearest bundled name.
        suggestion: Option<String>,
        /// All bundled names.
        known: String,
    },
    /// Read, but wrong: the diagnostics and the text they point into.
    Invalid(Source, Vec<Diagnostic>),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Missing {
                name,
                reason,
                suggestion,
                known,
            } => {
                write!(
                    f,
                    "no rule set `{name}`: it is not bundled ({known}) and not a readable file ({reason})"
                )?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean `{s}`?")?;
                }
                Ok(())
            }
            LoadError::Invalid(source, diags) => {
                write!(f, "rule set {} has {} error(s)", source.path, diags.len())
            }
        }
    }
}

/// Where a game's cards come from; said in every game log header and simulation report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckSource {
    /// The deck compiled into the binary for a bundled rule set (`play arcomage`
    /// without `--cards`), whatever folder the command runs in.
    Bundled(String),
    /// Card files and folders named explicitly (`--cards PATH`).
    Paths(Vec<PathBuf>),
    /// The rule set has no card zones: its games deal no cards.
    NoZones,
}

impl std::fmt::Display for DeckSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeckSource::Bundled(name) => write!(f, "the bundled {name} deck"),
            DeckSource::Paths(paths) => {
                let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(f, "{}", shown.join(", "))
            }
            DeckSource::NoZones => write!(f, "none (the rule set has no `:cards`)"),
        }
    }
}

/// A checked deck: the cards a game deals, and where they came from.
#[derive(Clone, Debug)]
pub struct Deck {
    /// The cards, in the order their files were read.
    pub cards: Vec<crate::defs::Card>,
    /// Where they came from.
    pub source: DeckSource,
}

/// Why a deck could not be loaded.
#[derive(Debug)]
pub enum DeckError {
    /// Paths that could not be read at all.
    Io(Vec<String>),
    /// The files were read but have errors; the whole check result, to show them.
    Invalid(Box<Checked>),
    /// The files hold no cards for the rule set.
    Empty {
        /// The rule set.
        rules: String,
        /// Where the deck was looked for.
        source: DeckSource,
    },
    /// The rule set has no bundled deck and no card paths were given.
    NoDeck(String),
    /// Card paths were given for a rule set without card zones.
    NoZones(String),
    /// A change names a card the deck does not hold (in a file it can change).
    NoSuchCard(String),
}

impl std::fmt::Display for DeckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeckError::Io(errors) => write!(f, "{}", errors.join("\n")),
            DeckError::Invalid(checked) => {
                let n = checked.error_count();
                let s = crate::diag::plural(n);
                write!(f, "the deck does not check ({n} error{s}); not starting")
            }
            DeckError::Empty { rules, source } => {
                write!(f, "no cards for rule set `{rules}` in {source}")
            }
            DeckError::NoDeck(rules) => write!(
                f,
                "rule set `{rules}` has no bundled deck: name its card files or folders with --cards"
            ),
            DeckError::NoZones(rules) => write!(
                f,
                "rule set `{rules}` has no card zones (no `:cards` section), so its games deal no cards; leave out --cards"
            ),
            DeckError::NoSuchCard(message) => write!(f, "{message}"),
        }
    }
}

/// The deck for a game of `rules`: the files under `cards` when any are given,
/// else the deck bundled with the rule set. The working directory plays no part,
/// so the same command deals the same cards wherever it runs. Statuses the
/// given files define join the rule set's (replacing bundled ones of the same id).
pub fn load_deck(rules: &mut RuleSet, cards: &[PathBuf]) -> Result<Deck, DeckError> {
    load_deck_changed(rules, cards, &[])
}

/// A change to one card of a deck before it is checked, as a balance sweep
/// makes: `card`'s `key` gets `value` (added if the card has no such key).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CardChange {
    /// The card's name.
    pub card: String,
    /// The key, without its colon (`cost`).
    pub key: String,
    /// The value, as it would be written in the card's file (`24`, `:gems`).
    pub value: String,
}

impl CardChange {
    /// Reads `CARD:KEY=VALUE` (`Dragon:cost=24`).
    pub fn parse(text: &str) -> Result<CardChange, String> {
        let bad = || {
            format!(
                "--change {text}: give CARD:KEY=VALUE, as `Dragon:cost=24` (the key without its colon)"
            )
        };
        // The value may hold colons (`:gems`), a card's name may too; the key holds neither.
        let (card_key, value) = text.split_once('=').ok_or_else(bad)?;
        let (card, key) = card_key.rsplit_once(':').ok_or_else(bad)?;
        let (card, key, value) = (
            card.trim(),
            key.trim().trim_start_matches(':'),
            value.trim(),
        );
        if card.is_empty() || key.is_empty() || value.is_empty() {
            return Err(bad());
        }
        Ok(CardChange {
            card: card.to_string(),
            key: key.to_string(),
            value: value.to_string(),
        })
    }
}

impl std::fmt::Display for CardChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}={}", self.card, self.key, self.value)
    }
}

/// Makes `change` in the text of the first definition of its card among
/// `sources`: the value's text replaced, or the key and value added before
/// the closing brace. Everything else (comments, layout) stays.
fn change_card(sources: &mut [Source], change: &CardChange) -> Result<(), DeckError> {
    let is_card = |form: &Form<'_>| match &form.kind {
        crate::syntax::Kind::Map(entries) => entries.iter().any(|(k, v)| {
            matches!(k.kind, crate::syntax::Kind::Keyword("card"))
                && matches!(&v.kind, crate::syntax::Kind::Str(name) if *name == change.card)
        }),
        _ => false,
    };
    for source in sources.iter_mut() {
        let arena = Arena::new();
        let read = read(&arena, &source.text);
        let Some(form) = read.forms.iter().find(|f| is_card(f)) else {
            continue;
        };
        let crate::syntax::Kind::Map(entries) = &form.kind else {
            continue;
        };
        let at_key = entries.iter().find(
            |(k, _)| matches!(k.kind, crate::syntax::Kind::Keyword(key) if key == change.key),
        );
        let (range, text) = match at_key {
            Some((_, value)) => (
                value.span.start as usize..value.span.end as usize,
                change.value.clone(),
            ),
            None => {
                // Before the map's closing brace.
                let end = (form.span.end as usize).saturating_sub(1);
                (end..end, format!(" :{} {}", change.key, change.value))
            }
        };
        let mut text_now = source.text.clone();
        text_now.replace_range(range, &text);
        drop(read);
        *source = Source::new(source.path.clone(), text_now);
        return Ok(());
    }
    Err(DeckError::NoSuchCard(format!(
        "--change {change}: no card named \"{}\" in the deck's EDN files",
        change.card
    )))
}

/// [`load_deck`], each of `changes` made to the cards' definitions before
/// they are checked (so a change the language does not allow is a located
/// error in the changed text).
pub fn load_deck_changed(
    rules: &mut RuleSet,
    cards: &[PathBuf],
    changes: &[CardChange],
) -> Result<Deck, DeckError> {
    if rules.cards.is_none() {
        if cards.is_empty() {
            return Ok(Deck {
                cards: Vec::new(),
                source: DeckSource::NoZones,
            });
        }
        // Files of statuses only are welcome; cards have nowhere to go.
        let mut checked = check_paths(cards, Some(rules));
        if !checked.io_errors.is_empty() {
            return Err(DeckError::Io(
                checked.io_errors.iter().map(ToString::to_string).collect(),
            ));
        }
        if checked.error_count() > 0 {
            return Err(DeckError::Invalid(Box::new(checked)));
        }
        if checked.definitions.iter().any(|d| d.kind == DefKind::Card) {
            return Err(DeckError::NoZones(rules.name.clone()));
        }
        if let Some(extended) = checked.extended.pop() {
            *rules = extended;
        }
        return Ok(Deck {
            cards: Vec::new(),
            source: DeckSource::NoZones,
        });
    }
    let bundled = BUNDLED_DATA.iter().find(|(name, _)| *name == rules.name);
    let (checked, source) = match bundled {
        Some((name, texts)) if cards.is_empty() => {
            let sources = texts
                .iter()
                .map(|(path, text)| Source::new(format!("<bundled {path}>"), *text))
                .collect();
            (
                check_sources(sources, Some(rules)),
                DeckSource::Bundled(name.to_string()),
            )
        }
        _ if cards.is_empty() => return Err(DeckError::NoDeck(rules.name.clone())),
        _ => (
            check_paths(cards, Some(rules)),
            DeckSource::Paths(cards.to_vec()),
        ),
    };
    if !checked.io_errors.is_empty() {
        return Err(DeckError::Io(
            checked.io_errors.iter().map(ToString::to_string).collect(),
        ));
    }
    let mut checked = if changes.is_empty() {
        checked
    } else {
        let mut sources = checked.sources;
        for change in changes {
            change_card(&mut sources, change)?;
        }
        check_sources(sources, Some(rules))
    };
    if checked.error_count() > 0 {
        return Err(DeckError::Invalid(Box::new(checked)));
    }
    let cards = crate::defs::Card::from_definitions(&checked.definitions, &rules.name);
    if cards.is_empty() {
        return Err(DeckError::Empty {
            rules: rules.name.clone(),
            source,
        });
    }
    if let Some(extended) = checked.extended.pop() {
        *rules = extended;
    }
    Ok(Deck { cards, source })
}
