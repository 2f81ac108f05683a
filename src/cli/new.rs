//! `grimoire new DIR`: a folder with a small playable game named after it,
//! copied from the template compiled into the binary (`templates/new/`).

use std::fmt::Write as _;
use std::path::Path;

use super::Output;
use crate::check::manifest::valid_name;

/// `grimoire new DIR`: creates DIR (or fills it when empty) with the
/// template's files, `NAME` in their paths and texts replaced by DIR's name.
pub fn new(dir: &Path) -> Output {
    let name = std::path::absolute(dir)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    // `..`, `/` or `.` end in no folder name: the game would have no name.
    if name.is_empty() || dir.ends_with("..") {
        return Output::usage(format!(
            "`{}` cannot name a game: it names no new folder (the folder's name is the game's)\n\
             help: try `grimoire new my-game`",
            dir.display()
        ));
    }
    if !valid_name(&name) {
        return Output::usage(format!(
            "`{name}` cannot name a game: the folder's name is the game's (its rule set's \
             and project's), a lowercase letter, then lowercase letters, digits, `-` or `_`\n\
             help: try `grimoire new my-game`"
        ));
    }
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Output::usage(format!(
                    "{} already exists and is not empty: grimoire new makes a new folder (or fills an empty one)",
                    dir.display()
                ));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Output::usage(format!("{}: {e}", dir.display())),
    }
    for (rel, text) in crate::bundled::TEMPLATE {
        let path = dir.join(rel.replace("NAME", &name));
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, text.replace("NAME", &name)));
        if let Err(e) = written {
            return Output::usage(format!("{}: {e}", path.display()));
        }
    }
    let mut out = Output::default();
    let shown = dir.display();
    let _ = writeln!(
        out.stdout,
        "created {shown}: the game `{name}` (a rule set, three cards, a status and two scenarios); its README.md says what each file is\n\nnext:\n  cd {shown}\n  grimoire check\n  grimoire test\n  grimoire play {name} --seed 1\n  grimoire simulate {name} --games 1000"
    );
    out
}
