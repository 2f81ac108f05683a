//! Projects: a designer's game in a folder, found the way cargo finds a
//! package. A project is a folder with a manifest, `grimoire.edn`, at its
//! root, and the layout the bundled games use: `rules/NAME.edn` (rule sets),
//! `cards/NAME/` and `effects/NAME/` (the definitions of rule set `NAME`),
//! `tests/scenarios/NAME/` (its scenarios).
//!
//! The bundled games are a project too, held in memory ([`crate::bundled`]):
//! [`Tree::Bundled`] and [`Tree::Folder`] answer the same questions (which
//! rule sets, a rule set's text, its definitions files in order), so that a
//! bundled game and a folder's are loaded by the same code.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::check::manifest::{FILE_NAME, Manifest};
use crate::diag::{Diagnostic, Source};

/// Where a project's files are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    /// The games compiled into the binary.
    Bundled,
    /// A folder on disk: its root, relative to the working folder when found
    /// from it (empty for the working folder itself), so paths are shown short.
    Folder(PathBuf),
}

impl Tree {
    /// The path of `rel` (`rules/duel.edn`) in this folder; `rel` itself in
    /// the bundled tree, and in a folder that is the working folder.
    pub fn path(&self, rel: &str) -> PathBuf {
        match self {
            Tree::Folder(root) if !root.as_os_str().is_empty() => root.join(rel),
            _ => PathBuf::from(rel),
        }
    }

    /// The names of the rule sets under `rules/`, sorted.
    pub fn rule_set_names(&self) -> Vec<String> {
        match self {
            Tree::Bundled => crate::bundled::RULE_SETS
                .iter()
                .map(|(n, _)| n.to_string())
                .collect(),
            Tree::Folder(_) => {
                let Ok(entries) = std::fs::read_dir(self.path("rules")) else {
                    return Vec::new();
                };
                let mut names: Vec<String> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "edn") && p.is_file())
                    .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
                    .collect();
                names.sort();
                names
            }
        }
    }

    /// Whether `rules/NAME.edn` is here.
    pub fn has_rule_set(&self, name: &str) -> bool {
        // A name is one file's stem: `../x` or `a/b` names no rule set.
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return false;
        }
        match self {
            Tree::Bundled => crate::bundled::RULE_SETS.iter().any(|(n, _)| *n == name),
            Tree::Folder(_) => self.path(&format!("rules/{name}.edn")).is_file(),
        }
    }

    /// The folders of rule set `name`'s definitions in a folder tree, those
    /// there are: `cards/NAME/`, then `effects/NAME/`.
    pub fn definition_folders(&self, name: &str) -> Vec<PathBuf> {
        ["cards", "effects"]
            .iter()
            .map(|f| self.path(&format!("{f}/{name}")))
            .filter(|p| p.is_dir())
            .collect()
    }

    /// The definitions files of rule set `name` (those under `cards/NAME/`,
    /// then `effects/NAME/`, each folder's sorted as `discover` sorts them), and
    /// how each is shown: what a game of it deals and the statuses it has.
    pub fn definitions(&self, name: &str) -> Definitions {
        let mut out = Definitions::default();
        match self {
            Tree::Bundled => {
                for folder in ["cards", "effects"] {
                    let prefix = format!("{folder}/{name}/");
                    let mut any = false;
                    for (path, text) in crate::bundled::FILES {
                        if path.starts_with(&prefix) {
                            out.sources
                                .push(Ok(Source::new(format!("<bundled {path}>"), *text)));
                            any = true;
                        }
                    }
                    if any {
                        out.folders.push(PathBuf::from(format!("{folder}/{name}")));
                    }
                }
            }
            Tree::Folder(_) => {
                out.folders = self.definition_folders(name);
                for path in super::discover(&out.folders, &mut out.io_errors) {
                    match super::load(&path) {
                        Ok(source) => out.sources.push(source),
                        Err(e) => out.io_errors.push(super::IoProblem::new(&path, &e)),
                    }
                }
            }
        }
        out
    }
}

/// A rule set's definitions files, read.
#[derive(Debug, Default)]
pub struct Definitions {
    /// The folders they are in (`cards/NAME`, `effects/NAME`), those there are.
    pub folders: Vec<PathBuf>,
    /// Each file's text, or its text read lossily with why it is not UTF-8.
    pub sources: Vec<Result<Source, (Source, Diagnostic)>>,
    /// Files that could not be read.
    pub io_errors: Vec<super::IoProblem>,
}

/// The name the rule-set file at `path` (as a checked text's path is shown)
/// must give its rule set: `X` for `rules/X.edn` of a project or of the
/// bundled games; `None` for a loose file, which may name its rule set freely.
pub fn rule_set_file_name(path: &str) -> Option<String> {
    if let Some(rel) = path.strip_prefix("<bundled ") {
        let stem = rel.strip_prefix("rules/")?.strip_suffix(".edn>")?;
        return Some(stem.to_string());
    }
    let path = Path::new(path);
    let folder = path.parent()?;
    if path.extension()? != "edn" || folder.file_name()? != "rules" {
        return None;
    }
    Project::at(folder.parent()?)?;
    path.file_stem()?.to_str().map(str::to_string)
}

/// A project found on disk.
#[derive(Clone, Debug)]
pub struct Project {
    /// Its files.
    pub tree: Tree,
    /// Its manifest, checked; its errors (with the manifest's text) when it
    /// does not check: the folder is still the project, and `check` says why.
    pub manifest: Result<Manifest, (Source, Vec<Diagnostic>)>,
}

impl Project {
    /// The project `dir` is in: the nearest folder from `dir` up with a
    /// manifest, its root given relative to `dir` (`..` for a parent) when
    /// `relative`, else as found.
    pub fn find(dir: &Path, relative: bool) -> Option<Project> {
        let (depth, folder) = dir
            .ancestors()
            .enumerate()
            .find(|(_, folder)| folder.join(FILE_NAME).is_file())?;
        if relative {
            Project::at(&std::iter::repeat_n("..", depth).collect::<PathBuf>())
        } else {
            Project::at(folder)
        }
    }

    /// The project whose root is `root`, if its manifest is there.
    pub fn at(root: &Path) -> Option<Project> {
        let tree = Tree::Folder(root.to_path_buf());
        let path = tree.path(FILE_NAME);
        if !path.is_file() {
            return None;
        }
        let manifest = match super::load(&path) {
            Ok(Ok(source)) => {
                crate::check::manifest::parse(&source.text).map_err(|diags| (source, diags))
            }
            Ok(Err((source, d))) => Err((source, vec![d])),
            Err(e) => Err((
                Source::new(path.display().to_string(), String::new()),
                vec![Diagnostic::new(
                    crate::diag::Code::BadManifest,
                    crate::syntax::Span::new(0, 0),
                    format!("the manifest cannot be read: {e}"),
                )],
            )),
        };
        Some(Project { tree, manifest })
    }

    /// The project's name: its manifest's, else its folder's.
    pub fn name(&self) -> String {
        match (&self.manifest, &self.tree) {
            (Ok(m), _) => m.name.clone(),
            (Err(_), Tree::Folder(root)) => std::path::absolute(root)
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default(),
            (Err(_), Tree::Bundled) => String::new(),
        }
    }

    /// The folders `check` and `test` read when given no path: the project's
    /// data folders that exist, and its manifest.
    pub fn data_paths(&self) -> Vec<PathBuf> {
        let mut out = vec![self.tree.path(FILE_NAME)];
        out.extend(
            ["rules", "cards", "effects", "tests/scenarios"]
                .iter()
                .map(|f| self.tree.path(f))
                .filter(|p| p.is_dir()),
        );
        out
    }

    /// The folder of its scenarios, `tests/scenarios`.
    pub fn scenarios(&self) -> PathBuf {
        self.tree.path("tests/scenarios")
    }
}

/// The rule sets a command can name: the project it runs in (if any), then
/// the bundled ones. A project's rule set shadows a bundled one of its name.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// The project, if the command runs inside one.
    pub project: Option<Project>,
}

impl Library {
    /// The library of the working folder: its project, found from it or a
    /// parent, once per process.
    pub fn current() -> &'static Library {
        static CURRENT: OnceLock<Library> = OnceLock::new();
        CURRENT.get_or_init(|| Library {
            project: std::env::current_dir()
                .ok()
                .and_then(|dir| Project::find(&dir, true)),
        })
    }

    /// The library of a file or folder at `path`: the project it is in, its
    /// root as found (for a server whose working folder plays no part).
    pub fn of(path: &Path) -> Library {
        Library {
            project: Project::find(path, false),
        }
    }

    /// Where the rule set called `name` is: the project's, else the bundled one.
    pub fn tree_of(&self, name: &str) -> Option<Tree> {
        let project = self.project.as_ref().map(|p| &p.tree);
        project
            .filter(|t| t.has_rule_set(name))
            .or(Some(&Tree::Bundled).filter(|t| t.has_rule_set(name)))
            .cloned()
    }

    /// Every rule-set name known: the project's, then the bundled ones it does not shadow.
    pub fn rule_set_names(&self) -> Vec<String> {
        let mut names = self
            .project
            .as_ref()
            .map(|p| p.tree.rule_set_names())
            .unwrap_or_default();
        for name in Tree::Bundled.rule_set_names() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }
}
