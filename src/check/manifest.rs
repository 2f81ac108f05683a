//! A project's manifest, `grimoire.edn` at the project's root: one map,
//! `{:project "mygame"}`, that makes its folder a project (explicit, as
//! `Cargo.toml` is, so a folder that happens to hold `rules/` never becomes
//! one). It is checked as any other file is, with located errors.

use crate::check::keys::{Keys, keys};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Arena, Form, Kind, Span, read};

/// The manifest's file name, at a project's root.
pub const FILE_NAME: &str = "grimoire.edn";

keys! {
    /// The keys of a manifest.
    pub enum ManifestKey {
        /// `:project "mygame"`: the project's name.
        Project = "project",
        /// `:doc "…"`: what the project is, for people.
        Doc = "doc",
    }
}

/// A checked manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The project's name.
    pub name: String,
    /// What it is, for people.
    pub doc: String,
}

/// Whether `name` can name a project or a rule set: a lowercase letter, then
/// lowercase letters, digits, `-` or `_` (a keyword a file name can carry).
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// Whether the forms of a file are a manifest: a form with `:project`.
pub fn is_manifest(forms: &[Form<'_>]) -> bool {
    forms.iter().any(|f| f.has_key(ManifestKey::Project.name()))
}

/// Checks a manifest's forms; problems go to `diags`.
pub fn check(forms: &[Form<'_>], diags: &mut Vec<Diagnostic>) -> Option<Manifest> {
    let form = match forms {
        [form] => form,
        [] => {
            diags.push(bad(
                Span::new(0, 0),
                "this manifest is empty: expected `{:project \"NAME\"}`",
            ));
            return None;
        }
        [_, second, ..] => {
            diags.push(bad(
                second.span,
                "a manifest holds one map; this is a second form",
            ));
            return None;
        }
    };
    let pairs = crate::check::fields(form, "a project manifest", ManifestKey::ALL, diags)?;
    let mut manifest = Manifest {
        name: String::new(),
        doc: String::new(),
    };
    let mut named = false;
    for (key, v) in pairs {
        let text = match &v.kind {
            Kind::Str(s) => Some(s.to_string()),
            _ => None,
        };
        match (key, text) {
            (ManifestKey::Project, Some(name)) if valid_name(&name) => {
                manifest.name = name;
                named = true;
            }
            (ManifestKey::Project, Some(name)) => {
                diags.push(
                    bad(v.span, format!("\"{name}\" is not a valid project name"))
                        .with_help("a project's name is a lowercase letter, then lowercase letters, digits, `-` or `_`, such as \"my-game\""),
                );
                named = true;
            }
            (ManifestKey::Project, None) => {
                diags.push(
                    bad(v.span, format!("`:project` is the project's name, a string such as \"mygame\"; found {}", v.describe()))
                        .with_help("a name is a lowercase letter, then lowercase letters, digits, `-` or `_`"),
                );
                named = true;
            }
            (ManifestKey::Doc, Some(doc)) => manifest.doc = doc,
            (ManifestKey::Doc, None) => diags.push(bad(
                v.span,
                format!(
                    "`:doc` is what the project is, a string; found {}",
                    v.describe()
                ),
            )),
        }
    }
    if !named {
        diags.push(
            bad(
                form.span,
                "a manifest names its project: `:project` is missing",
            )
            .with_help("write `{:project \"mygame\"}`"),
        );
        return None;
    }
    (!manifest.name.is_empty()).then_some(manifest)
}

/// Reads and checks a manifest's text.
pub fn parse(text: &str) -> Result<Manifest, Vec<Diagnostic>> {
    let arena = Arena::new();
    let read = read(&arena, text);
    let mut diags: Vec<Diagnostic> = read.errors.iter().map(Diagnostic::from).collect();
    if !diags.is_empty() {
        return Err(diags);
    }
    match check(&read.forms, &mut diags) {
        Some(m) if diags.is_empty() => Ok(m),
        _ => Err(diags),
    }
}

fn bad(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::BadManifest, span, message)
}
