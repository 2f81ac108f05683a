//! Files: finding data files, reading them safely, checking them together
//! ([`crate::check::project`] does the checking; this layer reads the texts and
//! loads the bundled rule sets and decks it asks for), and loading a game's deck.
//!
//! A file is either a rule set (one map with `:rules`) or a definitions file
//! ([`crate::check::defs`]). A definitions file is checked against the rule set named
//! by `--rules`, or else against the rule set whose name is one of the file's
//! folders (`cards/arcomage/miners.edn` is an Arcomage file).
//!
//! Rule sets are named from a [`Library`]: the project the command runs in
//! ([`project`]), then the bundled games, a project held in memory and loaded
//! by the same code.

pub mod project;

use std::path::{Path, PathBuf};

use crate::check::defs::{DefKind, Definition};
pub use crate::check::project::rules_folder;
use crate::check::rules::RuleSet;
use crate::diag::{Code, Diagnostic, Severity, Source};
use crate::syntax::{Arena, Form, Span, read};
pub use project::{Library, Project, Tree};

/// The file extensions `check` reads when given a folder.
pub const EXTENSIONS: &[&str] = &["edn", "csv", "md"];

/// A path that could not be read: a missing file, a folder without permission.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IoProblem {
    /// The path as given or found.
    pub path: String,
    /// What went wrong, as the system says it.
    pub message: String,
}

impl IoProblem {
    pub(crate) fn new(path: &Path, e: &std::io::Error) -> IoProblem {
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

/// The most bytes grimoire reads from one file or from standard input: 64 MiB,
/// thousands of times a large card file, so that an endless file (a growing
/// log, `/dev/zero` on standard input) stops with an error rather than
/// taking the machine's memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads the file at `path`, the one way every command and the language
/// server read one: only a regular file (through links) is read, so a FIFO,
/// a device (`/dev/zero`) or a socket is refused before it is opened (opening
/// a FIFO would wait for a writer), and at most [`MAX_FILE_BYTES`] of it.
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let kind = std::fs::metadata(path)?.file_type();
    if !kind.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "not a regular file ({}): grimoire reads only regular files",
                file_kind(kind)
            ),
        ));
    }
    read_capped(std::fs::File::open(path)?)
}

/// [`read_file`] as UTF-8 text; bytes that are not UTF-8 are an error of
/// kind `InvalidData`, as [`std::fs::read_to_string`] gives.
pub fn read_file_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_file(path)?).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Everything `input` holds (standard input, a file opened), up to
/// [`MAX_FILE_BYTES`]: one byte more is an error, never a read for ever.
pub fn read_capped(input: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut input.take(MAX_FILE_BYTES + 1), &mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "longer than grimoire's limit of {} MiB for one input",
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// What sort of thing a path that is not a regular file is, for its error.
fn file_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// Reads a file as UTF-8 text; a file that is not text becomes a diagnostic, not a panic.
pub fn load(path: &Path) -> Result<Result<Source, (Source, Diagnostic)>, std::io::Error> {
    let bytes = read_file(path)?;
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
            let d = Diagnostic::new(
                Code::NotUtf8,
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

/// Reads the files under `paths`, each as a source or with why it is not
/// text; `io_errors` gets what could not be read.
fn read_paths(
    paths: &[PathBuf],
    io_errors: &mut Vec<IoProblem>,
) -> Vec<Result<Source, (Source, Diagnostic)>> {
    let files = discover(paths, io_errors);
    let mut out = Vec::with_capacity(files.len());
    for path in &files {
        match load(path) {
            Ok(source) => out.push(source),
            Err(e) => io_errors.push(IoProblem::new(path, &e)),
        }
    }
    out
}

/// Checks every file under `paths` and the texts `extra` (standard input, say)
/// together, as [`check_paths`] checks files.
pub fn check_paths_with(
    paths: &[PathBuf],
    extra: Vec<Result<Source, (Source, Diagnostic)>>,
    rules: Option<&RuleSet>,
) -> Checked {
    let mut io_errors = Vec::new();
    let mut read = extra;
    read.extend(read_paths(paths, &mut io_errors));
    let mut out = gather(read);
    out.io_errors = io_errors;
    check_loaded(out, rules, Library::current())
}

/// Texts read, some with why they are not text, gathered to be checked.
fn gather(read: Vec<Result<Source, (Source, Diagnostic)>>) -> Checked {
    let mut out = Checked::default();
    for source in read {
        match source {
            Ok(source) => out.sources.push(source),
            Err((source, d)) => {
                out.diagnostics.push((out.sources.len(), d));
                out.sources.push(source);
            }
        }
    }
    out
}

/// Checks texts already in memory (the decks compiled into the binary, say) as
/// [`check_paths`] checks files.
pub fn check_sources(sources: Vec<Source>, rules: Option<&RuleSet>) -> Checked {
    check_sources_in(Library::current(), sources, rules)
}

/// [`check_sources`], rule sets named from `library` (a language server's
/// document's project, rather than the working folder's).
pub fn check_sources_in(
    library: &Library,
    sources: Vec<Source>,
    rules: Option<&RuleSet>,
) -> Checked {
    check_loaded(
        Checked {
            sources,
            ..Checked::default()
        },
        rules,
        library,
    )
}

/// Checks the sources in `out` (files already read, with any read problems noted).
fn check_loaded(mut out: Checked, rules: Option<&RuleSet>, library: &Library) -> Checked {
    let read_problems = std::mem::take(&mut out.diagnostics);
    let host = FileLayer { library };
    let project = crate::check::project::check(&out.sources, read_problems, rules, &host);
    out.diagnostics = project.diagnostics;
    out.rule_sets = project.rule_sets;
    out.definitions = project.definitions;
    out.extended = project.extended;
    out
}

/// What checking a project needs from this layer: the rule sets of the
/// library by name with their definitions' statuses, and scenario files
/// checked against their rule set and deck.
struct FileLayer<'l> {
    library: &'l Library,
}

impl crate::check::project::Host for FileLayer<'_> {
    fn rule_set(&self, name: &str) -> Option<RuleSet> {
        self.library.tree_of(name)?;
        self.library.open(name).ok().map(|o| o.rules)
    }

    fn rule_set_names(&self) -> Vec<String> {
        self.library.rule_set_names()
    }

    fn located(&self, path: &str) -> PathBuf {
        absolute(Path::new(path))
    }

    fn rule_set_file_name(&self, path: &str) -> Option<String> {
        project::rule_set_file_name(path)
    }

    fn definition_files(&self, path: &str, name: &str) -> Option<Vec<PathBuf>> {
        let tree = self.library.home(path, name)?;
        let Tree::Folder(_) = tree else {
            return None;
        };
        let mut unread = Vec::new();
        let files = discover(&tree.definition_folders(name), &mut unread);
        Some(files.iter().map(|p| absolute(p)).collect())
    }

    fn scenarios(
        &self,
        path: &str,
        forms: &[Form<'_>],
        rules: Option<&RuleSet>,
    ) -> Vec<Diagnostic> {
        check_scenarios(self.library, Path::new(path), forms, rules)
    }

    fn deck_names(&self, rules: &RuleSet) -> Vec<String> {
        let given = rules.file.as_ref().map_or(rules.name.as_str(), |f| &f.path);
        let Some(tree) = self.library.home(given, &rules.name) else {
            return Vec::new();
        };
        tree.definitions(&rules.name)
            .sources
            .iter()
            .flatten()
            .flat_map(|s| card_names(&s.text))
            .collect()
    }
}

/// Checks the scenarios of the file at `path` against the rule set they name
/// (`:rules`, else the folder they are in, else `rules`) and its deck.
fn check_scenarios(
    library: &Library,
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
    let mut loaded = match scenario_rules_in(library, path, forms) {
        Some(name) => match library.open(&name) {
            Ok(r) => r,
            Err(e) => {
                return vec![Diagnostic::new(
                    Code::RuleSetUnavailable,
                    named,
                    e.to_string(),
                )];
            }
        },
        None => match rules {
            Some(r) => Opened::given(r.clone()),
            None => {
                return vec![
                    Diagnostic::new(Code::WhichRuleSet, whole, "cannot tell which rule set these scenarios use")
                        .with_help("put the file in a folder named after the rule set, add `:rules :NAME`, or give `--rules`"),
                ];
            }
        },
    };
    let deck = match loaded.deck(library, &[], &[]) {
        Ok(deck) => deck.cards,
        Err(e) => return vec![Diagnostic::new(Code::DeckUnavailable, whole, e.to_string())],
    };
    let mut diags = Vec::new();
    crate::scenario::load(forms, &loaded.rules, &deck, &mut diags);
    diags
}

/// The rule set a scenario file uses, as `--rules` takes it: a form's
/// `:rules`, a name (`:rules :mygame`) or a path to an `.edn` file relative
/// to the file's folder (`:rules "../../../rules/mygame.edn"`), else a folder
/// named after a rule set the working folder's library knows.
pub fn scenario_rules(path: &Path, forms: &[crate::syntax::Form<'_>]) -> Option<String> {
    scenario_rules_in(Library::current(), path, forms)
}

/// [`scenario_rules`], names known from `library`.
fn scenario_rules_in(
    library: &Library,
    path: &Path,
    forms: &[crate::syntax::Form<'_>],
) -> Option<String> {
    for f in forms {
        let Some(v) = f.get("rules") else {
            continue;
        };
        if let Some(name) = v.as_keyword() {
            return Some(name.to_string());
        }
        if let crate::syntax::Kind::Str(rel) = &v.kind
            && rel.ends_with(".edn")
        {
            let dir = path.parent().unwrap_or(Path::new(""));
            return Some(dir.join(rel).display().to_string());
        }
    }
    let names = library.rule_set_names();
    let known = |dir: &str| names.iter().any(|n| n == dir);
    // A relative path (`dead.edn` typed in its folder) is told by where it is.
    rules_folder(path, known)
        .map(str::to_string)
        .or_else(|| rules_folder(&absolute(path), known).map(str::to_string))
}

/// `path` from the working folder, with `.` and `..` taken out by their
/// names (links are not followed): where a file is, whatever way it was typed.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = match std::env::current_dir() {
        Ok(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Loads a rule set by name (the working folder's project's, else a bundled
/// one) or from a file path, with the statuses of its definitions;
/// diagnostics come with their source.
pub fn load_rules(name_or_path: &str) -> Result<RuleSet, LoadError> {
    Library::current().open(name_or_path).map(|o| o.rules)
}

/// A rule set loaded, and where it came from: what its deck, a log's header
/// and a recording need.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The rule set, with the statuses its definitions define.
    pub rules: RuleSet,
    /// The tree its definitions are in (`cards/NAME/`, `effects/NAME/`), if any.
    pub home: Option<Tree>,
    /// The file it was read from; `None` for a bundled one.
    pub file: Option<PathBuf>,
    /// Its text, for a recording's digest.
    pub text: String,
    /// Where it came from, when a project's, for a log's header:
    /// "duel of project mygame (rules/duel.edn)".
    pub shown: Option<String>,
}

impl Opened {
    /// A rule set given already loaded: its deck is the one of its name.
    pub fn given(rules: RuleSet) -> Opened {
        Opened {
            rules,
            home: None,
            file: None,
            text: String::new(),
            shown: None,
        }
    }

    /// The deck for a game: the files under `cards` when any are given, else
    /// the rule set's own definitions (its home's `cards/NAME/` and
    /// `effects/NAME/`, or, for a rule set with no home, those of the rule set
    /// of its name in `library`), each of `changes` made first. Statuses the
    /// files define join the rule set's.
    pub fn deck(
        &mut self,
        library: &Library,
        cards: &[PathBuf],
        changes: &[CardChange],
    ) -> Result<Deck, DeckError> {
        let home = self
            .home
            .clone()
            .or_else(|| library.tree_of(&self.rules.name));
        let mut deck = load_deck_in(&mut self.rules, home.as_ref(), cards, changes)?;
        deck.rules_from.clone_from(&self.shown);
        Ok(deck)
    }
}

impl Library {
    /// The rule set `name_or_path` names: the project's of that name, else the
    /// bundled one, else the file at that path; with the statuses of its
    /// definitions, as every command loads it.
    pub fn open(&self, name_or_path: &str) -> Result<Opened, LoadError> {
        let mut opened = match self.tree_of(name_or_path) {
            Some(tree) => self.open_named(tree, name_or_path)?,
            None => self.open_path(name_or_path)?,
        };
        let name = opened.rules.name.clone();
        let home = opened.home.clone().or_else(|| self.tree_of(&name));
        if let Some(Tree::Folder(root)) = &home {
            refuse_broken_manifest(root)?;
        }
        let shown = match &opened.file {
            Some(file) => file.display().to_string(),
            None => format!("<bundled rules/{name}.edn>"),
        };
        // What a budget's error points into when the rule set's effects ran out.
        opened.rules.file = Some(std::sync::Arc::new(Source::new(&shown, &opened.text)));
        if let Some(home) = home {
            opened.rules =
                with_statuses(opened.rules, &shown, &opened.text, &home.definitions(&name))?;
        }
        Ok(opened)
    }

    /// Where the definitions of the rule set `given` names (called `name`)
    /// are: the tree it is found in by name; for a file in a `rules/` folder
    /// beside `cards/NAME/` or `effects/NAME/`, that folder; else the tree of
    /// the rule set called `name`.
    pub fn home(&self, given: &str, name: &str) -> Option<Tree> {
        if let Some(tree) = self.tree_of(given) {
            return Some(tree);
        }
        let beside = Path::new(given)
            .parent()
            .filter(|dir| dir.file_name().is_some_and(|n| n == "rules"))
            .map(|dir| Tree::Folder(dir.parent().unwrap_or(Path::new("")).to_path_buf()))
            .filter(|tree| !tree.definitions(name).folders.is_empty());
        beside.or_else(|| self.tree_of(name))
    }

    /// `rules/NAME.edn` of `tree`.
    fn open_named(&self, tree: Tree, name: &str) -> Result<Opened, LoadError> {
        let rel = format!("rules/{name}.edn");
        let (text, file, shown_path) = match &tree {
            Tree::Bundled => (
                crate::bundled::file(&rel).unwrap_or_default().to_string(),
                None,
                format!("<bundled {name}>"),
            ),
            Tree::Folder(_) => {
                let path = tree.path(&rel);
                let text = read_rules_text(&path)?;
                let shown = path.display().to_string();
                (text, Some(path), shown)
            }
        };
        let rules = RuleSet::parse(&text)
            .map_err(|diags| LoadError::Invalid(Source::new(&shown_path, text.clone()), diags))?;
        // `rules/NAME.edn` is the rule set NAME: one named otherwise is refused
        // as `check` refuses it, not played under a name its cards are not under.
        if rules.name != name {
            let arena = Arena::new();
            let misnamed = read(&arena, &text)
                .forms
                .iter()
                .find_map(|f| crate::check::project::misnamed(f, name));
            if let Some(d) = misnamed {
                return Err(LoadError::Invalid(Source::new(shown_path, text), vec![d]));
            }
        }
        let shown = match (&tree, &self.project) {
            (Tree::Folder(_), Some(project)) => Some(of_project(name, project, &rel)),
            _ => None,
        };
        Ok(Opened {
            rules,
            home: Some(tree),
            file,
            text,
            shown,
        })
    }

    /// A rule-set file given by path. One in a `rules/` folder beside
    /// `cards/NAME/` or `effects/NAME/` has those definitions, as a project's has.
    fn open_path(&self, given: &str) -> Result<Opened, LoadError> {
        let path = Path::new(given);
        let text = match read_rules_text(path) {
            Ok(text) => text,
            Err(LoadError::Missing { name, reason, .. }) => {
                let known = self.rule_set_names();
                // A project's own rule sets are listed apart from the bundled ones.
                let own = self
                    .project
                    .as_ref()
                    .map(|p| (p.name(), p.tree.rule_set_names()));
                let bundled: Vec<&str> = known
                    .iter()
                    .filter(|n| own.as_ref().is_none_or(|(_, own)| !own.contains(n)))
                    .map(String::as_str)
                    .collect();
                return Err(LoadError::Missing {
                    suggestion: crate::diag::nearest(&name, known.iter().map(String::as_str))
                        .map(str::to_string),
                    known: bundled.join(", "),
                    project: own.map(|(p, names)| Box::new((p, names.join(", ")))),
                    name,
                    reason,
                });
            }
            Err(e) => return Err(e),
        };
        let rules = RuleSet::parse(&text)
            .map_err(|diags| LoadError::Invalid(Source::new(given, text.clone()), diags))?;
        let home = self.home(given, &rules.name);
        // A file of a project is said to be its, as when named from inside it.
        let beside = path
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new(""));
        let shown = match &home {
            Some(Tree::Folder(root)) if root == beside => Project::at(root).map(|p| {
                let file = path.file_name().unwrap_or_default().to_string_lossy();
                of_project(&rules.name, &p, &format!("rules/{file}"))
            }),
            _ => None,
        };
        Ok(Opened {
            rules,
            home,
            file: Some(path.to_path_buf()),
            text,
            shown,
        })
    }
}

/// A rule set of a project whose manifest does not check is refused with
/// the manifest's located errors, as a rule set that does not check is: a
/// game must not run under a project with no name.
fn refuse_broken_manifest(root: &Path) -> Result<(), LoadError> {
    match Project::at(root).map(|p| p.manifest) {
        Some(Err((source, diags))) => Err(LoadError::Invalid(source, diags)),
        _ => Ok(()),
    }
}

/// A project's rule set as a log's header names it: "arcomage of project
/// mygame (rules/arcomage.edn), not the bundled one".
fn of_project(name: &str, project: &Project, rel: &str) -> String {
    let shadows = Tree::Bundled.has_rule_set(name);
    format!(
        "{name} of project {} ({rel}){}",
        project.name(),
        if shadows { ", not the bundled one" } else { "" }
    )
}

/// The text of a rule-set file; a file that is not UTF-8 is a located error.
fn read_rules_text(path: &Path) -> Result<String, LoadError> {
    let shown = path.display().to_string();
    match read_file(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let source = Source::new(shown, String::from_utf8_lossy(e.as_bytes()).into_owned());
                let d = Diagnostic::new(
                    Code::NotUtf8,
                    Span::new(at, at + 1),
                    "this file is not UTF-8 text",
                );
                Err(LoadError::Invalid(source, vec![d]))
            }
        },
        Err(e) => Err(LoadError::Missing {
            name: shown,
            reason: e.to_string(),
            suggestion: None,
            known: String::new(),
            project: None,
        }),
    }
}

/// `rules` with the statuses its definitions define, checked together with
/// its file (`shown`, `text`) as `check` of the project would: so a status
/// it declares and no file defines (E0312), or a status definition with an
/// error, stops every command that loads it rather than playing with the
/// status inert. The cards' own errors are left to the deck, which refuses
/// them for a game and warns of them for `eval --card`.
fn with_statuses(
    rules: RuleSet,
    shown: &str,
    text: &str,
    definitions: &project::Definitions,
) -> Result<RuleSet, LoadError> {
    let defines_statuses = |s: &Source| {
        let path = s.path.to_ascii_lowercase();
        s.text.contains(":status") || path.ends_with(".md") || path.ends_with(".md>")
    };
    let mut sources = vec![Source::new(shown, text)];
    sources.extend(
        definitions
            .sources
            .iter()
            .filter_map(|s| s.as_ref().ok())
            .cloned(),
    );
    if sources.len() == 1 {
        return Ok(rules);
    }
    let mut checked = check_sources(sources, None);
    checked.diagnostics.retain(|(i, d)| {
        d.severity == Severity::Error && (*i == 0 || defines_statuses(&checked.sources[*i]))
    });
    if !checked.diagnostics.is_empty() {
        return Err(LoadError::Definitions(Box::new(checked)));
    }
    Ok(checked.extended.pop().unwrap_or(rules))
}

/// `rules` with the statuses the files under `paths` define (`eval --cards`),
/// checked against it: those that check clean are installed even when others
/// do not, and the files' errors are returned.
pub fn with_definitions(rules: &mut RuleSet, paths: &[PathBuf]) -> Result<(), DeckError> {
    let mut checked = check_paths(paths, Some(rules));
    if !checked.io_errors.is_empty() {
        return Err(DeckError::Io(
            checked.io_errors.iter().map(ToString::to_string).collect(),
        ));
    }
    if let Some(extended) = checked.extended.pop() {
        *rules = extended;
    }
    if checked.error_count() > 0 {
        return Err(DeckError::Invalid(Box::new(checked)));
    }
    Ok(())
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
        /// The bundled names (those a project's do not shadow).
        known: String,
        /// Inside a project: its name and its rule sets' names.
        project: Option<Box<(String, String)>>,
    },
    /// Read, but wrong: the diagnostics and the text they point into.
    Invalid(Source, Vec<Diagnostic>),
    /// The rule set checks, but not with its status definitions: a status it
    /// declares that none defines, or a definition with errors (only errors
    /// are kept).
    Definitions(Box<Checked>),
}

impl LoadError {
    /// The errors it holds, each with the text it points into: a rule set's
    /// own, its manifest's or its status definitions'; none when the rule set
    /// was not found at all.
    pub fn located(&self) -> Vec<(&Source, &Diagnostic)> {
        match self {
            LoadError::Invalid(source, diags) => diags.iter().map(|d| (source, d)).collect(),
            LoadError::Definitions(checked) => checked
                .diagnostics
                .iter()
                .map(|(i, d)| (&checked.sources[*i], d))
                .collect(),
            LoadError::Missing { .. } => Vec::new(),
        }
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Missing {
                name,
                reason,
                suggestion,
                known,
                project,
            } => {
                match project.as_deref() {
                    Some((project, own)) => write!(
                        f,
                        "no rule set `{name}`: it is not a rule set of project {project} ({own}) or bundled ({known}), and not a readable file ({reason})"
                    )?,
                    None => write!(
                        f,
                        "no rule set `{name}`: it is not bundled ({known}) and not a readable file ({reason})"
                    )?,
                }
                if let Some(s) = suggestion {
                    write!(f, "; did you mean `{s}`?")?;
                }
                Ok(())
            }
            // A project's rule set refused for its manifest's errors.
            LoadError::Invalid(source, diags)
                if Path::new(&source.path).ends_with(crate::check::manifest::FILE_NAME) =>
            {
                write!(
                    f,
                    "the project's manifest {} has {} error(s)",
                    source.path,
                    diags.len()
                )
            }
            LoadError::Invalid(source, diags) => {
                write!(f, "rule set {} has {} error(s)", source.path, diags.len())
            }
            LoadError::Definitions(checked) => {
                let path = checked.sources.first().map_or("", |s| s.path.as_str());
                write!(
                    f,
                    "rule set {path} does not check with its status definitions: {} error(s)",
                    checked.diagnostics.len()
                )
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
    pub cards: Vec<crate::check::defs::Card>,
    /// Where they came from.
    pub source: DeckSource,
    /// Where the rule set came from, when a project's: said in a log's header.
    pub rules_from: Option<String>,
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
        /// The folders of its own definitions looked for (`cards/NAME/`,
        /// `effects/NAME/`), said when none of them is there.
        looked: Vec<PathBuf>,
    },
    /// The rule set has no bundled deck and no card paths were given.
    NoDeck(String),
    /// Card paths were given for a rule set without card zones.
    NoZones(String),
    /// A change names a card the deck does not hold (in a file it can change).
    NoSuchCard(String),
    /// A change whose key is not one name or whose value is not one form.
    BadChange(String),
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
            DeckError::Empty {
                rules,
                source: DeckSource::Paths(paths),
                looked,
            } if paths.is_empty() && !looked.is_empty() => {
                let shown: Vec<String> = looked
                    .iter()
                    .map(|p| format!("`{}/`", p.display()))
                    .collect();
                write!(
                    f,
                    "no cards for rule set `{rules}`: looked in {}, and there is no such folder",
                    shown.join(" and ")
                )
            }
            DeckError::Empty { rules, source, .. } => {
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
            DeckError::NoSuchCard(message) | DeckError::BadChange(message) => {
                write!(f, "{message}")
            }
        }
    }
}

/// The deck for a game of `rules`: the files under `cards` when any are given,
/// else the definitions of the rule set of its name (the working folder's
/// project's, else the bundled one). Statuses the given files define join
/// the rule set's (replacing its own of the same id).
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
        CardChange::new(card, key, value).map_err(|e| {
            if card.trim().is_empty() || key.trim().is_empty() || value.trim().is_empty() {
                bad()
            } else {
                e
            }
        })
    }

    /// `card`'s `key` (with or without its colon) to become `value`: a key
    /// that is one name and a value that is exactly one form, or why not.
    /// The change is pasted into the card's text, so several forms (`1
    /// :copies 100`) would add keys or whole cards behind the user's back.
    pub fn new(card: &str, key: &str, value: &str) -> Result<CardChange, String> {
        let mut change = CardChange {
            card: card.trim().to_string(),
            key: key.trim().trim_start_matches(':').to_string(),
            value: value.trim().to_string(),
        };
        // The form alone: a comment after it (`1 ; cheaper`) is not pasted.
        change.value = change.value_form()?.to_string();
        Ok(change)
    }

    /// The value's one form, as written, or why the change cannot be made.
    fn value_form(&self) -> Result<&str, String> {
        let arena = Arena::new();
        let key = format!(":{}", self.key);
        let one_keyword = read(&arena, &key).errors.is_empty()
            && matches!(read(&arena, &key).forms.as_slice(),
                [f] if f.as_keyword() == Some(self.key.as_str()));
        if self.card.is_empty() || self.key.is_empty() || !one_keyword {
            return Err(format!(
                "--change {self}: the key must be one name, as `cost` in `Dragon:cost=24`"
            ));
        }
        let value = read(&arena, &self.value);
        match (value.forms.as_slice(), value.errors.is_empty()) {
            ([form], true) => Ok(&self.value[form.span.start as usize..form.span.end as usize]),
            (forms, _) => Err(format!(
                "--change {self}: the value must be exactly one form (a number, a keyword, a string, a vector or a map), not {}",
                match (forms.len(), value.errors.is_empty()) {
                    (0, true) => "nothing".to_string(),
                    (n, true) => format!("{n} forms"),
                    (_, false) => "text that does not read".to_string(),
                }
            )),
        }
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
        // Checked again here: a change may be built without `new` (it is serialised).
        let value = change.value_form().map_err(DeckError::BadChange)?;
        let (range, text) = match at_key {
            Some((_, at)) => (
                at.span.start as usize..at.span.end as usize,
                value.to_string(),
            ),
            None => {
                // Before the map's closing brace.
                let end = (form.span.end as usize).saturating_sub(1);
                (end..end, format!(" :{} {value}", change.key))
            }
        };
        let mut text_now = source.text.clone();
        text_now.replace_range(range, &text);
        drop(read);
        *source = Source::new(source.path.clone(), text_now);
        return Ok(());
    }
    // A half-remembered name ("Ogr") gets the nearest card's.
    let names: Vec<String> = sources
        .iter()
        .flat_map(|source| card_names(&source.text))
        .collect();
    let hint = crate::diag::nearest(&change.card, names.iter().map(String::as_str))
        .map(|n| format!("; did you mean \"{n}\"?"))
        .unwrap_or_default();
    Err(DeckError::NoSuchCard(format!(
        "--change {change}: no card named \"{}\" in the deck's EDN files{hint}",
        change.card
    )))
}

/// The names of the cards (`{:card "Name" …}`) a text defines at its top level.
fn card_names(text: &str) -> Vec<String> {
    use crate::syntax::Kind;
    let arena = Arena::new();
    let read = read(&arena, text);
    read.forms
        .iter()
        .filter_map(|form| match &form.kind {
            Kind::Map(entries) => entries.iter().find_map(|(k, v)| match (&k.kind, &v.kind) {
                (Kind::Keyword("card"), Kind::Str(name)) => Some(name.to_string()),
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

/// [`load_deck`], each of `changes` made to the cards' definitions before
/// they are checked (so a change the language does not allow is a located
/// error in the changed text).
pub fn load_deck_changed(
    rules: &mut RuleSet,
    cards: &[PathBuf],
    changes: &[CardChange],
) -> Result<Deck, DeckError> {
    let home = Library::current().tree_of(&rules.name);
    load_deck_in(rules, home.as_ref(), cards, changes)
}

/// The deck of [`load_deck_changed`], the rule set's own definitions being
/// those of `home` (see [`Library::home`]).
pub fn load_deck_in(
    rules: &mut RuleSet,
    home: Option<&Tree>,
    cards: &[PathBuf],
    changes: &[CardChange],
) -> Result<Deck, DeckError> {
    if rules.cards.is_none() {
        if cards.is_empty() {
            return Ok(Deck {
                cards: Vec::new(),
                source: DeckSource::NoZones,
                rules_from: None,
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
            rules_from: None,
        });
    }
    let mut looked = Vec::new();
    let (checked, source) = match home {
        Some(tree) if cards.is_empty() => {
            looked = ["cards", "effects"]
                .iter()
                .map(|f| tree.path(&format!("{f}/{}", rules.name)))
                .collect();
            let definitions = tree.definitions(&rules.name);
            let mut checked = gather(definitions.sources);
            checked.io_errors = definitions.io_errors;
            let source = match tree {
                Tree::Bundled => DeckSource::Bundled(rules.name.clone()),
                // A project's folders by their place in it, so the header is
                // the same from any folder (and when replayed).
                Tree::Folder(root) if Project::at(root).is_some() => DeckSource::Paths(
                    definitions
                        .folders
                        .iter()
                        .map(|f| f.strip_prefix(root).unwrap_or(f).to_path_buf())
                        .collect(),
                ),
                Tree::Folder(_) => DeckSource::Paths(definitions.folders),
            };
            (
                check_loaded(checked, Some(rules), Library::current()),
                source,
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
    if checked.error_count() > 0 || deck_card_names(rules, &mut checked) > 0 {
        return Err(DeckError::Invalid(Box::new(checked)));
    }
    let cards = crate::check::defs::Card::from_definitions(
        &checked.definitions,
        &checked.sources,
        &rules.name,
    );
    if cards.is_empty() {
        return Err(DeckError::Empty {
            rules: rules.name.clone(),
            source,
            looked,
        });
    }
    if let Some(extended) = checked.extended.pop() {
        *rules = extended;
    }
    Ok(Deck {
        cards,
        source,
        rules_from: None,
    })
}

/// E0407 at each card name the rule set's effects and the deck's use that
/// no card of this deck has: the deck a game deals, which `--cards` may
/// swap for another than the rule set's own. How many there are.
fn deck_card_names(rules: &RuleSet, checked: &mut Checked) -> usize {
    use crate::check::cards::{card_names, rule_set_names, unknown_card};
    if rules.zones.as_ref().is_none_or(|z| z.classic) {
        return 0;
    }
    let mine = |d: &&crate::check::defs::Definition| d.rules == rules.name;
    let known: Vec<String> = checked
        .definitions
        .iter()
        .filter(mine)
        .filter(|d| d.kind == DefKind::Card)
        .map(|d| d.name.clone())
        .collect();
    let unknown = |n: &crate::check::ast::CardName| !known.iter().any(|k| **k == *n.name);
    let mut found = Vec::new();
    for d in checked.definitions.iter().filter(mine) {
        card_names(&d.effects, &mut |n| {
            if unknown(n) {
                found.push((d.source, unknown_card(n, &known)));
            }
        });
    }
    // The rule set's own names are said in its file, shown with the deck's.
    let mut own = Vec::new();
    rule_set_names(rules, &mut |n| {
        if unknown(n) {
            own.push(unknown_card(n, &known));
        }
    });
    if !own.is_empty() {
        // A rule set read from no file (a library's own text) is named, not shown.
        let file = rules.file.as_deref().cloned().unwrap_or_else(|| {
            for d in &mut own {
                d.span = crate::syntax::Span::default();
            }
            Source::new(format!("<rule set {}>", rules.name), String::new())
        });
        checked.sources.push(file);
        let at = checked.sources.len() - 1;
        found.extend(own.into_iter().map(|d| (at, d)));
    }
    let n = found.len();
    checked.diagnostics.extend(found);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_longer_than_the_limit_is_an_error_not_a_read_for_ever() {
        let path = std::env::temp_dir().join(format!("grimoire-long-{}.edn", std::process::id()));
        // Sparse: a file of the limit and one byte more, written in no time.
        let file = std::fs::File::create(&path).expect("create");
        file.set_len(MAX_FILE_BYTES + 1).expect("set_len");
        let err = read_file(&path).expect_err("too long");
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        assert!(err.to_string().contains("limit of 64 MiB"), "{err}");
        file.set_len(MAX_FILE_BYTES).expect("set_len");
        assert_eq!(
            read_file(&path).map(|b| b.len() as u64).ok(),
            Some(MAX_FILE_BYTES)
        );
        let _ = std::fs::remove_file(&path);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_or_a_folder_is_refused_before_it_is_read() {
        let err = read_file(Path::new("/dev/zero")).expect_err("a device");
        assert!(
            err.to_string().starts_with("not a regular file (a device)"),
            "{err}"
        );
        let err = read_file(&std::env::temp_dir()).expect_err("a folder");
        assert!(
            err.to_string().starts_with("not a regular file (a folder)"),
            "{err}"
        );
    }
}
