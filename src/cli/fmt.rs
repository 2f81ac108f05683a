//! `grimoire fmt [--check] PATH...`: formats `.edn` files in place, or with
//! `--check` prints what would change.
//!
//! A file is rewritten only when it read without errors and its formatted
//! text reads back the same ([`crate::formatter::format_source`] checks both), and
//! then atomically: the new text goes to a temporary file beside it, which
//! takes the original's permissions and is renamed over it. So an
//! interrupted run leaves each file either as it was or formatted. A file
//! that changed after it was read (another program writing it) and anything
//! that is not a regular file (a FIFO) are refused and left as they are.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use similar::TextDiff;

use super::{EXIT_DIAGNOSTICS, EXIT_OK, EXIT_USAGE, MAX_PER_FILE, Output};
use crate::diag::plural;
use crate::diag::{Diagnostic, Source};
use crate::files;
use crate::formatter::{FmtError, format_source};

/// `grimoire fmt`: formats the `.edn` files under `paths`; with `check`,
/// writes nothing and prints a unified diff of each file that would change.
///
/// Exit code: 0 when every file was (or, with `check`, already is) formatted;
/// 1 when a file has syntax errors (reported as `check` reports them, the file
/// left untouched) or, with `check`, would change; 2 for a usage or I/O error,
/// or a formatted text that would not read back the same (left unwritten).
pub fn fmt(paths: &[PathBuf], check: bool, color: bool) -> Output {
    if paths.iter().any(|p| p.as_os_str() == "-") {
        if paths.len() > 1 {
            return Output::usage(
                "`fmt -` formats standard input to standard output, so it is given alone; format files in another run",
            );
        }
        return match files::read_capped(std::io::stdin()) {
            Ok(bytes) => fmt_text(bytes, check, color),
            Err(e) => Output::usage(format!("standard input: {e}")),
        };
    }
    let mut out = Output::default();
    let mut io_errors = Vec::new();
    let found = edn_files(paths, &mut io_errors, &mut out.stderr);
    let (mut changed, mut same, mut broken) = (0usize, 0usize, 0usize);
    let mut internal = false;
    for path in &found {
        let source = match files::load(path) {
            Ok(Ok(source)) => source,
            Ok(Err((source, d))) => {
                broken += 1;
                report(&mut out.stderr, &source, &[d], color);
                continue;
            }
            Err(e) => {
                io_errors.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let formatted = match format_source(&source.text) {
            Ok(text) => text,
            Err(e) => {
                match e {
                    FmtError::Syntax(_) => broken += 1,
                    FmtError::NotSame { .. } => internal = true,
                }
                report(&mut out.stderr, &source, &e.diagnostics(), color);
                continue;
            }
        };
        if formatted == source.text {
            same += 1;
            continue;
        }
        if check {
            changed += 1;
            let diff = TextDiff::from_lines(source.text.as_str(), formatted.as_str());
            let _ = write!(
                out.stdout,
                "{}",
                diff.unified_diff()
                    .context_radius(3)
                    .header(&source.path, &format!("{} (formatted)", source.path))
            );
        } else {
            match write_atomically(path, &source.text, &formatted) {
                Ok(()) => changed += 1,
                Err(e) => io_errors.push(format!("{}: {e}", path.display())),
            }
        }
    }
    let _ = writeln!(
        out.stderr,
        "{} {changed} file{}, {same} already formatted{}",
        if check { "would format" } else { "formatted" },
        plural(changed),
        if broken > 0 {
            format!(
                ", {broken} with errors left as {}",
                if broken == 1 { "it was" } else { "they were" }
            )
        } else {
            String::new()
        }
    );
    for e in &io_errors {
        let _ = writeln!(out.stderr, "error: {e}");
    }
    if found.is_empty() && io_errors.is_empty() {
        out.stderr.push_str("error: no .edn files found\n");
        out.code = EXIT_USAGE;
        return out;
    }
    out.code = if internal || !io_errors.is_empty() {
        EXIT_USAGE
    } else if broken > 0 || (check && changed > 0) {
        EXIT_DIAGNOSTICS
    } else {
        EXIT_OK
    };
    out
}

/// `grimoire fmt -`: `bytes` (standard input) formatted to standard output,
/// as an editor's filter and `rustfmt` do it; with `check`, the diff instead
/// and exit 1 if it would change. A text with syntax errors prints nothing on
/// standard output (exit 1, the errors on standard error, as `<stdin>`), so
/// that a filter that heeds the exit code keeps what it had.
pub fn fmt_text(bytes: Vec<u8>, check: bool, color: bool) -> Output {
    let mut out = Output::default();
    let source = match files::source_of("<stdin>".to_string(), bytes) {
        Ok(source) => source,
        Err((source, d)) => {
            report(&mut out.stderr, &source, &[d], color);
            out.code = EXIT_DIAGNOSTICS;
            return out;
        }
    };
    match format_source(&source.text) {
        Ok(formatted) if check => {
            if formatted != source.text {
                let diff = TextDiff::from_lines(source.text.as_str(), formatted.as_str());
                let header = format!("{} (formatted)", source.path);
                let unified = diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&source.path, &header)
                    .to_string();
                out.stdout = unified;
                out.code = EXIT_DIAGNOSTICS;
            }
        }
        Ok(formatted) => out.stdout = formatted,
        Err(e) => {
            out.code = match e {
                FmtError::Syntax(_) => EXIT_DIAGNOSTICS,
                FmtError::NotSame { .. } => EXIT_USAGE,
            };
            report(&mut out.stderr, &source, &e.diagnostics(), color);
        }
    }
    out
}

/// Renders a file's diagnostics as `check` does, the first [`MAX_PER_FILE`] of them.
fn report(stderr: &mut String, source: &Source, diags: &[Diagnostic], color: bool) {
    for d in diags.iter().take(MAX_PER_FILE) {
        stderr.push_str(&source.render(d, color));
        stderr.push('\n');
    }
    if diags.len() > MAX_PER_FILE {
        let _ = writeln!(
            stderr,
            "{}: {} more errors are not shown",
            source.path,
            diags.len() - MAX_PER_FILE
        );
    }
}

fn is_edn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("edn"))
}

/// The `.edn` files under `paths`: files as given, folders walked in sorted
/// order. A file given by name that is not `.edn` (a `.csv` or `.md` card
/// table) is skipped with a note, never rewritten.
fn edn_files(paths: &[PathBuf], io_errors: &mut Vec<String>, notes: &mut String) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut out, io_errors),
            Ok(_) if is_edn(path) => out.push(path.clone()),
            Ok(_) => {
                let _ = writeln!(
                    notes,
                    "note: {}: not an .edn file, left as it is",
                    path.display()
                );
            }
            Err(e) => io_errors.push(format!("{}: {e}", path.display())),
        }
    }
    out
}

/// Collects `.edn` files under `dir`, skipping hidden entries and `target/`
/// (build output), and not following symlinked folders (`up -> ..` would loop).
fn walk(dir: &Path, out: &mut Vec<PathBuf>, io_errors: &mut Vec<String>) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            io_errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if name.starts_with('.') {
            continue;
        }
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            if name != "target" {
                walk(&path, out, io_errors);
            }
        } else if is_edn(&path) && (meta.is_file() || path.is_file()) {
            out.push(path);
        }
    }
}

/// Replaces the file at `path`, read as `read`, with `text`: written to a
/// temporary file in the same folder (so the rename stays on one file
/// system), given the original's permissions (and owner, where allowed),
/// then renamed over it if the file still holds `read`.
/// A symlink is followed, so the file it points at is formatted and the link
/// stays a link; a hard link keeps the old text (the name gets a new file);
/// a read-only file, and anything not a regular file, is refused.
fn write_atomically(path: &Path, read: &str, text: &str) -> std::io::Result<()> {
    let target = fs::canonicalize(path)?;
    let meta = fs::metadata(&target)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file; left as it is",
        ));
    }
    let permissions = meta.permissions();
    // A read-only file says its owner wants it left alone: not replaced.
    if permissions.readonly() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is read-only; left as it is",
        ));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A name no other file has: a stale one from a crash is never reused or removed.
    let (tmp, mut file) = {
        let mut n = 0u32;
        loop {
            let tmp = dir.join(format!(".{name}.{}-{n}.fmt-tmp", std::process::id()));
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
            {
                Ok(file) => break (tmp, file),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                Err(e) => return Err(e),
            }
        }
    };
    let result = (|| {
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        drop(file);
        fs::set_permissions(&tmp, permissions)?;
        // The owner and group too, where the system lets us (as root on a
        // file of another user's); otherwise they are ours already.
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ = std::os::unix::fs::chown(&tmp, Some(meta.uid()), Some(meta.gid()));
        }
        // What another program wrote since the file was read (a generator
        // appending cards) would go with the rename: refused instead. Only
        // the moment between this comparison and the rename is unguarded.
        if files::read_file(&target)? != read.as_bytes() {
            return Err(std::io::Error::other(
                "the file changed while fmt was formatting it; left as it is (run fmt again once nothing else writes it)",
            ));
        }
        fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        // Nothing half-written is left behind; the original is untouched.
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grimoire-fmt-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch folder");
        dir
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_left_as_it_is() {
        let dir = scratch("changed");
        let path = dir.join("cards.edn");
        // Read as one card; another program appended a second meanwhile.
        fs::write(&path, "{:a 1}\n{:b 2}\n").expect("write");
        let err = write_atomically(&path, "{:a 1}\n", "{:a 1}\n\n").expect_err("refused");
        assert!(
            err.to_string()
                .contains("the file changed while fmt was formatting it"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).expect("read"), "{:a 1}\n{:b 2}\n");
        // No temporary file left beside it.
        assert_eq!(fs::read_dir(&dir).expect("dir").count(), 1);
        // Unchanged, it is replaced.
        write_atomically(&path, "{:a 1}\n{:b 2}\n", "{:a 1}\n\n{:b 2}\n").expect("written");
        assert_eq!(
            fs::read_to_string(&path).expect("read"),
            "{:a 1}\n\n{:b 2}\n"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
