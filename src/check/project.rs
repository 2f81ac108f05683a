//! A project: the texts of one check (rule sets, definitions, card
//! spreadsheets, markdown tables, scenarios) checked together, in passes:
//! each text classified and read once, each given the rule set it is written
//! for, every status declared before any definition is checked, the
//! definitions checked (a name defined twice, in one file or two, said once),
//! the markdown rows joined to them, and the statuses installed. Nothing here
//! reads a file: the file layer hands over the texts, and a [`Host`] gives
//! what only the layers above can (the rule sets known by name, a project's
//! and the bundled ones, and scenario checks).
//!
//! A definitions file is checked against the rule set given, or else against
//! the rule set whose name is one of the file's folders
//! (`cards/arcomage/miners.edn` is an Arcomage file).

use std::collections::HashMap;
use std::path::Path;

use crate::check::ast::StatusDef;
use crate::check::defs::{DefKind, Definition, definition, name_span};
use crate::check::md::{CategoryRow, StatusRow, Table};
use crate::check::rules::RuleSet;
use crate::diag::{Code, Diagnostic, Source};
use crate::syntax::{Arena, Form, Kind, Read, Span, read};

/// What checking a project needs from the layers above the checker.
pub trait Host {
    /// The rule set called `name` (a project's own, else a bundled one) with
    /// the statuses its definitions define, as `--rules NAME` loads it;
    /// `None` if there is none or it does not load.
    fn rule_set(&self, name: &str) -> Option<RuleSet>;

    /// The name of every rule set [`Host::rule_set`] knows.
    fn rule_set_names(&self) -> Vec<String>;

    /// Where the file shown as `path` is, absolute and normalised: its folders
    /// tell its rule set when the path as typed does not (`check spells.edn`
    /// typed in `cards/mygame/`).
    fn located(&self, path: &str) -> std::path::PathBuf;

    /// The name the rule-set file at `path` must give its rule set: `X` for
    /// `rules/X.edn` of a project (or of the bundled games), where a rule set
    /// is named by its file; `None` for a file anywhere else.
    fn rule_set_file_name(&self, path: &str) -> Option<String>;

    /// Every definitions file of rule set `name`, whose file is shown as
    /// `path`, where that is known (a folder's `cards/NAME/` and
    /// `effects/NAME/`), each as [`Host::located`] gives it; `None` where it is
    /// not (a loose file, the bundled games).
    fn definition_files(&self, path: &str, name: &str) -> Option<Vec<std::path::PathBuf>>;

    /// The diagnostics of a scenario file's `forms`, checked against the rule
    /// set they name (else `rules`) and its deck.
    fn scenarios(&self, path: &str, forms: &[Form<'_>], rules: Option<&RuleSet>)
    -> Vec<Diagnostic>;

    /// The names of the cards of `rules`' own deck (its `cards/NAME/` and
    /// `effects/NAME/`), which card names in effects are checked against
    /// beside the cards checked with it; none where it has no such folders.
    fn deck_names(&self, _rules: &RuleSet) -> Vec<String> {
        Vec::new()
    }
}

/// What checking a project found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Diagnostics, each with the index of its text, in reading order within each text.
    pub diagnostics: Vec<(usize, Diagnostic)>,
    /// Rule sets found among the texts, checked.
    pub rule_sets: Vec<RuleSet>,
    /// Cards and effects that checked clean.
    pub definitions: Vec<Definition>,
    /// Each rule set the definitions were checked against, with the statuses
    /// they define declared and installed: what a game of it plays with.
    pub extended: Vec<RuleSet>,
}

/// Checks `sources` together; with `rules`, every definitions file is checked
/// against it. `read_problems` are the diagnostics of texts that could not be
/// read as text, by index: those texts are not checked further.
pub fn check(
    sources: &[Source],
    read_problems: Vec<(usize, Diagnostic)>,
    rules: Option<&RuleSet>,
    host: &dyn Host,
) -> Checked {
    let mut out = Checked {
        diagnostics: read_problems,
        ..Checked::default()
    };
    let unreadable: Vec<usize> = out.diagnostics.iter().map(|(i, _)| *i).collect();
    // First the rule sets, so definitions can be checked against rule sets given
    // beside them. Each file is read once; its forms serve every pass below.
    let arena = Arena::new();
    let mut parsed: Vec<Option<Parsed<'_>>> = Vec::with_capacity(sources.len());
    let mut files: Vec<RuleSetFile> = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        parsed.push(if unreadable.contains(&i) {
            None
        } else {
            classify(i, source, (rules, host), &arena, &mut files, &mut out)
        });
    }
    let (chosen, mut extended) =
        assign_rule_sets(sources, &parsed, (rules, host), &files, &mut out);
    let md_rows = status_rows(sources, &parsed, &chosen, &extended);
    declare_statuses(&chosen, &parsed, &md_rows, &mut extended);
    let mut statuses: Defined = Vec::new();
    check_definitions(
        sources,
        &parsed,
        &chosen,
        &extended,
        &arena,
        &mut statuses,
        &mut out,
    );
    check_status_rows(
        sources,
        &chosen,
        &md_rows,
        &extended,
        &mut statuses,
        &mut out,
    );
    install_statuses(&mut extended, &statuses, sources);
    warn_self_acquiring(&extended, &mut out);
    unknown_card_names(&files, &extended, host, &mut out);
    // Judged only when every definitions file of the rule set is here, where
    // that is known: `check rules/x.edn cards` leaves out the statuses in
    // effects/ and must not call them undefined.
    let here: Vec<_> = sources.iter().map(|s| host.located(&s.path)).collect();
    let complete: Vec<bool> = files
        .iter()
        .map(|f| {
            host.definition_files(&sources[f.index].path, &f.name)
                .is_none_or(|all| all.iter().all(|p| here.contains(p)))
        })
        .collect();
    undefined_statuses(
        &files, &complete, &chosen, &parsed, &md_rows, &extended, &mut out,
    );
    out.extended = extended;
    // Each file's diagnostics in reading order, whichever pass found them.
    out.diagnostics
        .sort_by_key(|(i, d)| (*i, d.span.start, d.span.end));
    out
}

/// A file read for checking: a spreadsheet (read row by row when checked), or
/// the forms of a definitions file.
enum Parsed<'a> {
    Csv,
    Edn(Read<'a>),
    /// A markdown document's tables.
    Md(Vec<Table<'a>>),
}

/// A rule-set file among the texts: its index, its rule set's name, whether
/// it checked clean, and the statuses its `:statuses` declares, each with the
/// span of its key.
struct RuleSetFile {
    index: usize,
    name: String,
    clean: bool,
    declared: Vec<(String, Span)>,
}

/// A markdown document's status rows and category rows.
type MdRows<'a> = (Vec<StatusRow<'a>>, Vec<CategoryRow<'a>>);

/// The statuses the files define: each with its rule set's name and its id.
/// Statuses defined: rule set, id, definition, and the index of the file it
/// was read from.
type Defined = Vec<(String, String, StatusDef, Option<usize>)>;

/// A text's name without the `<bundled …>` around a bundled file's.
fn file_name(path: &str) -> String {
    path.strip_suffix('>').unwrap_or(path).to_ascii_lowercase()
}

fn is_csv(path: &str) -> bool {
    file_name(path).ends_with(".csv")
}

fn is_md(path: &str) -> bool {
    file_name(path).ends_with(".md")
}

/// The first pass, for file `i`: what it is, read once. A rule set is checked
/// here, and a scenario file, whole; what is left for the later passes is
/// returned.
fn classify<'a>(
    i: usize,
    source: &'a Source,
    (rules, host): (Option<&RuleSet>, &dyn Host),
    arena: &'a Arena,
    files: &mut Vec<RuleSetFile>,
    out: &mut Checked,
) -> Option<Parsed<'a>> {
    if is_csv(&source.path) {
        return Some(Parsed::Csv);
    }
    if is_md(&source.path) {
        let mut diags = Vec::new();
        let tables = crate::check::md::tables(&source.text, &mut diags);
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
        // A document without tables is prose; which of its tables are
        // sources depends on its rule set's `:tables`, known below.
        return (!tables.is_empty()).then_some(Parsed::Md(tables));
    }
    let mut read = read(arena, &source.text);
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
                    e.breaks_form() && e.span().start >= f.span.start && e.span().start < f.span.end
                })
        });
        read.errors = errors;
        if read.forms.is_empty() {
            return None;
        }
    }
    if read.forms.is_empty() {
        out.diagnostics.push((
            i,
            Diagnostic::new(
                Code::EmptyFile,
                Span::new(0, 0),
                "this file holds no forms: expected a rule set or card and effect definitions",
            ),
        ));
        return None;
    }
    // A project's manifest names the project; nothing else is in it.
    let manifest_file = Path::new(&source.path)
        .file_name()
        .is_some_and(|n| n == crate::check::manifest::FILE_NAME);
    if manifest_file || crate::check::manifest::is_manifest(&read.forms) {
        let mut diags = Vec::new();
        crate::check::manifest::check(&read.forms, &mut diags);
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
        return None;
    }
    // A scenario file is checked as scenarios, against its rule set and deck.
    // One form with `:scenario` makes it a scenario file: the others are
    // checked as scenarios too, so a misspelt `:scenaro` gets its hint.
    if read.forms.iter().any(|f| f.has_key("scenario")) {
        let diags = host.scenarios(&source.path, &read.forms, rules);
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
        return None;
    }
    if let [form] = read.forms.as_slice()
        && form.has_key("rules")
    {
        let named = host.rule_set_file_name(&source.path);
        files.extend(check_rule_set(
            i,
            form,
            &read,
            named.as_deref(),
            source,
            out,
        ));
        return None;
    }
    Some(Parsed::Edn(read))
}

/// A rule set's file, `form` read as `read`, which must name its rule set
/// `named` when given: a rule set that checks clean joins those found; a file
/// read with errors gives only the errors that do not follow from them.
/// Returns what later passes need of the file, if it names its rule set.
fn check_rule_set(
    i: usize,
    form: &Form<'_>,
    read: &Read<'_>,
    named: Option<&str>,
    source: &Source,
    out: &mut Checked,
) -> Option<RuleSetFile> {
    let mut diags = Vec::new();
    let rs = RuleSet::from_form(form, &mut diags).map(|mut rs| {
        rs.file = Some(std::sync::Arc::new(source.clone()));
        rs
    });
    diags.extend(named.and_then(|file| misnamed(form, file)));
    let name = match &rs {
        Some(rs) => Some(rs.name.clone()),
        None => form
            .get("rules")
            .and_then(|v| v.as_keyword())
            .map(str::to_string),
    };
    let clean = read.errors.is_empty() && rs.is_some() && diags.is_empty();
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
                d.span.start < b.end.max(b.start + 1) && b.start < d.span.end.max(d.span.start + 1)
            })
        });
        // A dropped section's names are unknown to the rest: "unknown
        // attribute `:hp`" would follow from the break, not be new.
        if !read.damaged.is_empty() {
            diags.retain(|d| !d.message.starts_with("unknown "));
        }
    }
    out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
    // A clean rule set's `:statuses` are keywords: each key, where it is written.
    let declared = match form.get("statuses").map(|v| &v.kind) {
        Some(Kind::Map(pairs)) if clean => pairs
            .iter()
            .filter_map(|(k, _)| k.as_keyword().map(|n| (n.to_string(), k.span)))
            .collect(),
        _ => Vec::new(),
    };
    name.map(|name| RuleSetFile {
        index: i,
        name,
        clean,
        declared,
    })
}

/// The error of a rule set `form` whose `:rules` is not `file`, the name
/// its file gives it (`rules/X.edn` is the rule set `X`), at the `:rules` value.
pub fn misnamed(form: &Form<'_>, file: &str) -> Option<Diagnostic> {
    let value = form.get("rules")?;
    let name = value.as_keyword()?;
    (name != file).then(|| {
        Diagnostic::new(
            Code::RuleSetMisnamed,
            value.span,
            format!("this file is the rule set `{file}`, named by its file, but its `:rules` is `:{name}`"),
        )
        .with_label(format!("expected `:{file}`"))
        .with_help(format!(
            "rename the file to `rules/{name}.edn`, or write `:rules :{file}`: in a project's `rules/` folder a rule set's name is its file's"
        ))
    })
}

/// Which rule set each definitions file is written for: `chosen[i]` is the
/// index of file i's among the rule sets returned, each once, to be extended
/// with the files' statuses. A file whose rule set cannot be told is an
/// error, unless it is a document no rule set reads (prose).
fn assign_rule_sets(
    sources: &[Source],
    parsed: &[Option<Parsed<'_>>],
    (rules, host): (Option<&RuleSet>, &dyn Host),
    files: &[RuleSetFile],
    out: &mut Checked,
) -> (Vec<Option<usize>>, Vec<RuleSet>) {
    let mut bundled: HashMap<String, Option<RuleSet>> = HashMap::new();
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
            None => rule_set_for(&source.path, &out.rule_sets, host, &mut bundled),
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
            && !read_by_any(tables, &out.rule_sets, host, &mut bundled)
        {
            chosen.push(None);
            continue;
        }
        if found.is_none() {
            out.diagnostics
                .push((i, no_rule_set(sources, i, files, &out.rule_sets, host)));
        }
        chosen.push(found);
    }
    (chosen, extended)
}

/// Why file `i` has no rule set to be checked against: the rule set of its
/// folder is among the files but has errors, or none can be told.
fn no_rule_set(
    sources: &[Source],
    i: usize,
    files: &[RuleSetFile],
    found: &[RuleSet],
    host: &dyn Host,
) -> Diagnostic {
    let source = &sources[i];
    let mut names = host.rule_set_names();
    let broken = |name: &str| files.iter().find(|f| !f.clean && f.name == name);
    if let Some(file) =
        folder_rule_set(host, &source.path, |dir| broken(dir).is_some()).and_then(|d| broken(&d))
    {
        return Diagnostic::new(
            Code::RuleSetHasErrors,
            Span::new(0, 0),
            format!(
                "`{}` is not checked: its rule set `{}` has errors",
                source.path, file.name
            ),
        )
        .with_help(format!(
            "fix the errors of `{}` first: this file is checked against it once it checks clean",
            sources[file.index].path
        ));
    }
    // The known rule-set files may be among those checked: each name once.
    for r in found {
        if !names.contains(&r.name) {
            names.push(r.name.clone());
        }
    }
    Diagnostic::new(
        Code::WhichRuleSet,
        Span::new(0, 0),
        format!("cannot tell which rule set `{}` is written for", source.path),
    )
    .with_help(format!(
        "put it in a folder named after its rule set (such as `cards/NAME/`), or pass `--rules NAME`; known rule sets: {}",
        names.join(", ")
    ))
}

/// The status and category rows of each document, by its rule set's table shapes.
fn status_rows<'a>(
    sources: &'a [Source],
    parsed: &[Option<Parsed<'a>>],
    chosen: &[Option<usize>],
    extended: &[RuleSet],
) -> Vec<Option<MdRows<'a>>> {
    (0..sources.len())
        .map(|i| match (chosen[i], &parsed[i]) {
            (Some(k), Some(Parsed::Md(tables))) => Some(crate::check::md::status_tables(
                &sources[i].text,
                tables,
                &extended[k].tables,
            )),
            _ => None,
        })
        .collect()
}

/// Every status of every file declared before any definition is checked, so
/// cards and statuses can name statuses defined in any file, in any order.
fn declare_statuses(
    chosen: &[Option<usize>],
    parsed: &[Option<Parsed<'_>>],
    md_rows: &[Option<MdRows<'_>>],
    extended: &mut [RuleSet],
) {
    for ((k, p), md) in chosen.iter().zip(parsed).zip(md_rows) {
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
}

/// The definitions of the `.edn` and `.csv` files, each checked against its
/// rule set: those that check clean, and the statuses among them, are kept;
/// a name a rule set's files define twice is an error at the second.
fn check_definitions(
    sources: &[Source],
    parsed: &[Option<Parsed<'_>>],
    chosen: &[Option<usize>],
    extended: &[RuleSet],
    arena: &Arena,
    statuses: &mut Defined,
    out: &mut Checked,
) {
    let mut seen: HashMap<(String, String), (usize, Span)> = HashMap::new();
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
                cells = crate::check::csv::rows(&sources[i].text, &mut diags);
                from_csv = crate::check::csv::cards(arena, &cells, &mut diags);
                &from_csv
            }
        };
        for form in forms {
            if let Some(def) = definition(form, rs, i, &mut diags) {
                let key = (rs.name.clone(), def.name.clone());
                if let Some((file, first)) = seen.get(&key) {
                    diags.push(defined_twice(form, &def, rs, i, (*file, *first), sources));
                } else {
                    seen.insert(key, (i, name_span(form).unwrap_or(form.span)));
                    if let Some(status) = &def.status {
                        let defined = (rs.name.clone(), def.name.clone(), status.clone());
                        statuses.push((defined.0, defined.1, defined.2, Some(i)));
                    }
                    out.definitions.push(def);
                }
            }
        }
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
    }
}

/// The error at `form`, defining `def` again in file `i`, pointing to where
/// it was `first` defined: in the same file, or in another.
fn defined_twice(
    form: &Form<'_>,
    def: &Definition,
    rs: &RuleSet,
    i: usize,
    first: (usize, Span),
    sources: &[Source],
) -> Diagnostic {
    let (file, first) = first;
    let d = Diagnostic::new(
        Code::DefinedTwice,
        name_span(form).unwrap_or(form.span),
        format!("`{}` is defined twice in rule set `{}`", def.name, rs.name),
    )
    .with_label("defined again");
    if file == i {
        d.with_related(first, "first defined here")
    } else {
        let other = &sources[file];
        let (line, column) = other.line_column(first.start);
        d.with_elsewhere(crate::diag::Elsewhere {
            path: other.path.clone(),
            line,
            column,
            note: "first defined".into(),
        })
    }
}

/// Markdown rows: each joined to the `.edn` status of its id and checked
/// against it, or a status of its own.
fn check_status_rows(
    sources: &[Source],
    chosen: &[Option<usize>],
    md_rows: &[Option<MdRows<'_>>],
    extended: &[RuleSet],
    statuses: &mut Defined,
    out: &mut Checked,
) {
    let mut rows_seen: HashMap<(String, usize, String), Span> = HashMap::new();
    for (i, k) in chosen.iter().enumerate() {
        let (Some(k), Some((rows, categories))) = (*k, &md_rows[i]) else {
            continue;
        };
        let rs = &extended[k];
        let mut diags = Vec::new();
        crate::check::md::check_categories(categories, rs, &mut diags);
        for row in rows {
            let id = crate::check::md::status_id(&row.name.text, rs);
            // The same status in two tables of different shapes is checked twice;
            // twice in tables of one shape, it is defined twice.
            let key = (rs.name.clone(), row.shape, id.to_string());
            // A row naming nothing is reported by `check_row`, not as a second nothing.
            if let (false, Some(first)) = (id.is_empty(), rows_seen.get(&key)) {
                diags.push(
                    Diagnostic::new(
                        Code::TableRowTwice,
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
            let in_files = out
                .definitions
                .iter()
                .find(|d| d.kind == DefKind::Status && d.rules == rs.name && d.name == id);
            // Its effects are the joined status's, where there is one: so is its file.
            let (joined, file) = match in_files {
                Some(d) => (
                    d.status
                        .as_ref()
                        .map(|s| (s, sources[d.source].path.as_str())),
                    Some(d.source),
                ),
                None => match rs
                    .status(id)
                    .filter(|&s| rs.status_installed.get(s) == Some(&true))
                {
                    Some(s) => (
                        Some((&rs.status_defs[s], "the rule set's bundled data")),
                        None,
                    ),
                    None => (None, Some(i)),
                },
            };
            if let Some(def) = crate::check::md::check_row(row, rs, joined, i, &mut diags) {
                statuses.push((
                    rs.name.clone(),
                    def.name.clone(),
                    def.status.clone().unwrap_or_default(),
                    file,
                ));
                out.definitions.push(def);
            }
        }
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
    }
}

/// A status a rule-set file's `:statuses` declares that no definitions file
/// checked with it defines: an error at the declaration, as the status would
/// never run out and do nothing. A rule set checked with none of its
/// definitions files, or without some of them (`complete`, by file), is not
/// judged: they may be checked another time.
fn undefined_statuses(
    files: &[RuleSetFile],
    complete: &[bool],
    chosen: &[Option<usize>],
    parsed: &[Option<Parsed<'_>>],
    md_rows: &[Option<MdRows<'_>>],
    extended: &[RuleSet],
    out: &mut Checked,
) {
    for (file, _) in files
        .iter()
        .zip(complete)
        .filter(|(f, complete)| **complete && !f.declared.is_empty())
    {
        let Some(k) = extended.iter().position(|r| r.name == file.name) else {
            continue;
        };
        // Every status a file of this rule set defines, checked clean or not
        // (a definition with errors has its own).
        let mut defined: Vec<&str> = Vec::new();
        for (i, p) in parsed.iter().enumerate() {
            if chosen[i] != Some(k) {
                continue;
            }
            match p {
                Some(Parsed::Edn(read)) => defined.extend(
                    read.forms
                        .iter()
                        .filter_map(|f| f.get("status").and_then(|v| v.as_keyword())),
                ),
                Some(Parsed::Md(_)) => defined.extend(
                    md_rows[i]
                        .iter()
                        .flat_map(|(rows, _)| rows)
                        .filter(|r| r.description.is_some())
                        .map(|r| crate::check::md::status_id(&r.name.text, &extended[k])),
                ),
                _ => {}
            }
        }
        let declared = || file.declared.iter().map(|(n, _)| n.as_str());
        for (name, span) in &file.declared {
            if defined.contains(&name.as_str()) {
                continue;
            }
            // A definition under a near name no declaration claims is a likely misspelling.
            let unclaimed = defined
                .iter()
                .copied()
                .filter(|d| !declared().any(|n| n == *d));
            let d = Diagnostic::new(
                Code::StatusNeverDefined,
                *span,
                format!(
                    "status `:{name}` is declared, but no definitions file of `{}` defines it",
                    file.name
                ),
            )
            .with_label("never defined")
            .suggest(name, unclaimed, |s| format!(":{s}"))
            .with_help_if_none(format!(
                "define it in a definitions file checked with the rule set (such as `effects/{}/statuses.edn`): `{{:status :{name} :polarity :debuff …}}`; undefined, it would never run out and would do nothing",
                file.name
            ));
            out.diagnostics.push((file.index, d));
        }
    }
}

/// E0407 at each card name the texts' effects use (a rule set's own, and
/// its definitions') that no card of its deck has: the cards checked here
/// with it, and those of its own deck (see [`Host::deck_names`]). Only rule
/// sets with `:zones` have card names to check.
fn unknown_card_names(
    files: &[RuleSetFile],
    extended: &[RuleSet],
    host: &dyn Host,
    out: &mut Checked,
) {
    use crate::check::cards::{card_names, rule_set_names, unknown_card};
    // The rule sets definitions were checked against, then those of the texts alone.
    let alone = out
        .rule_sets
        .iter()
        .filter(|r| !extended.iter().any(|e| e.name == r.name));
    let all: Vec<&RuleSet> = extended.iter().chain(alone).collect();
    for rs in all {
        if rs.zones.as_ref().is_none_or(|z| z.classic) {
            continue;
        }
        let file = files.iter().find(|f| f.name == rs.name && f.clean);
        let mut known: Vec<String> = out
            .definitions
            .iter()
            .filter(|d| d.kind == DefKind::Card && d.rules == rs.name)
            .map(|d| d.name.clone())
            .collect();
        known.extend(host.deck_names(rs));
        let mut found = Vec::new();
        for d in out.definitions.iter().filter(|d| d.rules == rs.name) {
            let mut check = |n: &crate::check::ast::CardName| {
                if !known.iter().any(|k| **k == *n.name) {
                    found.push((d.source, unknown_card(n, &known)));
                }
            };
            card_names(&d.effects, &mut check);
            for (_, list) in d.status.iter().flat_map(StatusDef::effect_lists) {
                card_names(list, &mut check);
            }
        }
        if let Some(file) = file {
            rule_set_names(rs, &mut |n| {
                if !known.iter().any(|k| **k == *n.name) {
                    found.push((file.index, unknown_card(n, &known)));
                }
            });
        }
        out.diagnostics.extend(found);
    }
}

/// A warning at each status definition checked here that acquires itself
/// again, stacking `:independent`, with the path of the cycle: every run of
/// its effects adds an instance whose effects run too (the evaluator stops it
/// at its status budget; this says so before it runs).
fn warn_self_acquiring(extended: &[RuleSet], out: &mut Checked) {
    let mut found = Vec::new();
    for d in &out.definitions {
        if d.kind != DefKind::Status {
            continue;
        }
        let Some(rs) = extended.iter().find(|r| r.name == d.rules) else {
            continue;
        };
        let Some(id) = rs.status(&d.name) else {
            continue;
        };
        if rs.status_defs[id].stacking != crate::check::ast::Stacking::Independent {
            continue;
        }
        if let Some(path) = cycle_through(rs, id) {
            let source = d.source;
            let path: Vec<String> = path
                .iter()
                .map(|&s| format!(":{}", rs.statuses[s]))
                .collect();
            let d = Diagnostic::new(
                Code::StatusAcquiresItself,
                d.span,
                format!(
                    "status `:{}` acquires itself again ({}), stacking `:independent`: its instances can multiply without end",
                    d.name,
                    path.join(" → ")
                ),
            )
            .with_label("acquires itself")
            .with_help("give it `:stacking :refresh` (acquiring it again refreshes it), `[:stack N]`, or a condition that stops it; a game stops at 10 000 statuses held");
            found.push((source, d));
        }
    }
    out.diagnostics.extend(found);
}

/// The statuses from `start` back to itself through the statuses each one's
/// effects acquire (acquiring, hooks, segments, expiry, removal), if it gets back.
fn cycle_through(rs: &RuleSet, start: crate::ids::StatusId) -> Option<Vec<crate::ids::StatusId>> {
    let acquires = |s: crate::ids::StatusId| {
        let mut out = Vec::new();
        for (_, list) in rs.status_defs[s].effect_lists() {
            crate::check::work::acquired(list, &mut out);
        }
        out
    };
    // Breadth first, each status once: the shortest way back.
    let mut came_from: HashMap<crate::ids::StatusId, crate::ids::StatusId> = HashMap::new();
    let mut next = vec![start];
    while !next.is_empty() {
        let mut later = Vec::new();
        for s in next {
            for t in acquires(s) {
                if t == start {
                    let mut path = vec![s];
                    let mut at = s;
                    while at != start {
                        at = came_from[&at];
                        path.push(at);
                    }
                    path.reverse();
                    path.push(start);
                    return Some(path);
                }
                if t != start && !came_from.contains_key(&t) {
                    came_from.insert(t, s);
                    later.push(t);
                }
            }
        }
        next = later;
    }
    None
}

/// Each rule set extended with the statuses its files define.
/// Each file that defines one is shared by its statuses, read once.
fn install_statuses(extended: &mut [RuleSet], statuses: &Defined, sources: &[Source]) {
    let mut files: HashMap<usize, std::sync::Arc<Source>> = HashMap::new();
    let mut file = |i: &Option<usize>| {
        let i = (*i)?;
        let source = sources.get(i)?;
        Some(
            files
                .entry(i)
                .or_insert_with(|| std::sync::Arc::new(source.clone()))
                .clone(),
        )
    };
    for rs in extended {
        let name = rs.name.clone();
        let defs: Vec<_> = statuses
            .iter()
            .filter(|(r, ..)| *r == name)
            .map(|(_, id, def, i)| (id.as_str(), def.clone(), file(i)))
            .collect();
        rs.install_statuses(defs);
    }
}

/// Whether a rule set given or known reads some table of `tables`: a
/// document whose rule set cannot be told is then a source gone astray, not prose.
fn read_by_any(
    tables: &[Table<'_>],
    given: &[RuleSet],
    host: &dyn Host,
    bundled: &mut HashMap<String, Option<RuleSet>>,
) -> bool {
    given
        .iter()
        .any(|r| crate::check::md::any_of(tables, &r.tables))
        || host.rule_set_names().iter().any(|name| {
            bundled
                .entry(name.clone())
                .or_insert_with(|| host.rule_set(name))
                .as_ref()
                .is_some_and(|r| crate::check::md::any_of(tables, &r.tables))
        })
}

/// The rule set a file belongs to: the nearest folder named after a known rule set.
fn rule_set_for<'r>(
    path: &str,
    found: &'r [RuleSet],
    host: &dyn Host,
    bundled: &'r mut HashMap<String, Option<RuleSet>>,
) -> Option<&'r RuleSet> {
    let known = host.rule_set_names();
    let dir = folder_rule_set(host, path, |dir| {
        found.iter().any(|r| r.name == dir) || known.iter().any(|n| n == dir)
    })?;
    if let Some(rs) = found.iter().find(|r| r.name == dir) {
        return Some(rs);
    }
    bundled
        .entry(dir.clone())
        // With its definitions' statuses, as `--rules` loads it.
        .or_insert_with(|| host.rule_set(&dir))
        .as_ref()
}

/// [`rules_folder`] of the file shown as `path`: from its folders as typed,
/// else from where it is (`spells.edn` typed in `cards/mygame/`), so that a
/// relative path names the same rule set as the absolute one.
fn folder_rule_set(
    host: &dyn Host,
    path: &str,
    is_rule_set: impl Fn(&str) -> bool,
) -> Option<String> {
    if let Some(dir) = rules_folder(Path::new(path), &is_rule_set) {
        return Some(dir.to_string());
    }
    rules_folder(&host.located(path), is_rule_set).map(str::to_string)
}

/// The nearest folder above `path` whose name `is_rule_set` accepts: the rule
/// set a file is written for (`cards/arcomage/bricks.edn` → `arcomage`).
pub fn rules_folder(path: &Path, is_rule_set: impl Fn(&str) -> bool) -> Option<&str> {
    path.ancestors()
        .skip(1)
        .filter_map(|p| p.file_name().and_then(|n| n.to_str()))
        .find(|dir| is_rule_set(dir))
}
