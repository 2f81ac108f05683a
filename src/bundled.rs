//! The data compiled into the binary, found by the build script (`build.rs`)
//! from the repository's folders: every data file under `rules/`, `cards/` and
//! `effects/` (the bundled games, a project like any other, held in memory),
//! and the template `grimoire new` copies. A game added to `rules/` is bundled
//! without touching Rust.

/// Every bundled data file, as (path relative to the repository with `/`,
/// text), in the order a folder's files are found (sorted, recursively).
pub const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled_files.rs"));

/// The bundled rule-set files, by name: `rules/NAME.edn` is the rule set `NAME`.
pub const RULE_SETS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled_rule_sets.rs"));

/// The files of the game `grimoire new` makes, as (path relative to the new
/// folder with `/`, text); `NAME` in a path or a text is the game's name.
pub const TEMPLATE: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/template_files.rs"));

/// The text of the bundled file at `path` (`rules/NAME.edn`), if there is one.
pub fn file(path: &str) -> Option<&'static str> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
}
