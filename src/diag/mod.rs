//! Diagnostics: one type for every layer's errors, rendered for people
//! (`path:line:col`, the source line, a caret) or for machines (JSON).
//! Each kind has a stable code ([`codes`]), explained in [`catalogue`].
//! The wording every message shares ([`list_and`], [`list`], `plural`) is
//! here too, so it is written one way.

pub mod catalogue;
pub mod codes;

use std::fmt::Write as _;

use serde::Serialize;

use crate::syntax::{LineIndex, ReadError, Span};

pub use codes::Code;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file cannot be used.
    Error,
    /// The file can be used, but something is likely wrong.
    Warning,
}

/// A message about a place in a source text.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The kind of problem, which also decides [`Diagnostic::severity`]
    /// (unless a caller shows errors as warnings).
    pub code: Code,
    /// Where the problem is.
    pub span: Span,
    /// What is wrong, in one sentence.
    pub message: String,
    /// A short note printed beside the caret.
    pub label: Option<String>,
    /// How to fix it, when grimoire can tell ("did you mean `:quarry`?").
    pub help: Option<String>,
    /// Other places worth showing, each with a note.
    pub related: Vec<(Span, String)>,
    /// Places in other files worth showing, already located.
    pub elsewhere: Vec<Elsewhere>,
}

/// A place in another file than the diagnostic's: a card defined first in
/// another file of the deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elsewhere {
    /// The other file's path.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// What is there.
    pub note: String,
}

impl Diagnostic {
    /// With a place in another file, already located.
    pub fn with_elsewhere(mut self, at: Elsewhere) -> Diagnostic {
        self.elsewhere.push(at);
        self
    }

    /// A diagnostic of kind `code` at `span`: an error for an `E` code, a
    /// warning for a `W` code.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: if code.is_warning() {
                Severity::Warning
            } else {
                Severity::Error
            },
            code,
            span,
            message: message.into(),
            label: None,
            help: None,
            related: Vec::new(),
            elsewhere: Vec::new(),
        }
    }

    /// Adds the note printed beside the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    /// Adds a hint on how to fix it.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds "did you mean" when `name` is close to one of `candidates`.
    pub fn suggest<'c>(
        mut self,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str>,
        show: impl Fn(&str) -> String,
    ) -> Diagnostic {
        if let Some(best) = nearest(name, candidates) {
            self.help = Some(format!("did you mean `{}`?", show(best)));
        }
        self
    }

    /// Removes an empty hint (so a later `suggest_if_none` can fill it).
    pub fn drop_empty_help(mut self) -> Diagnostic {
        if self.help.as_deref() == Some("") {
            self.help = None;
        }
        self
    }

    /// [`Diagnostic::suggest`], unless a hint is already there.
    pub fn suggest_if_none<'c>(
        self,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str>,
        show: impl Fn(&str) -> String,
    ) -> Diagnostic {
        if self.help.is_some() {
            self
        } else {
            self.suggest(name, candidates, show)
        }
    }

    /// Adds a hint unless one is already there (a "did you mean" beats a list).
    pub fn with_help_if_none(self, help: impl Into<String>) -> Diagnostic {
        if self.help.is_some() {
            self
        } else {
            self.with_help(help)
        }
    }

    /// Adds another place to show.
    pub fn with_related(mut self, span: Span, note: impl Into<String>) -> Diagnostic {
        self.related.push((span, note.into()));
        self
    }

    /// Moves every span `by` bytes later: for text read out of a larger file.
    pub fn shifted(mut self, by: u32) -> Diagnostic {
        self.span = self.span.shifted(by);
        for (span, _) in &mut self.related {
            *span = span.shifted(by);
        }
        self
    }
}

impl From<&ReadError> for Diagnostic {
    fn from(e: &ReadError) -> Diagnostic {
        let mut d = Diagnostic::new(Code::from(e), e.span(), e.to_string());
        if let Some((span, note)) = e.related() {
            d = d.with_related(span, note);
        }
        d
    }
}

// Wording shared by every message: plurals and lists of names, written one
// way everywhere.

/// The plural ending for `n` of something: "1 error", "2 errors"; `n`
/// any unsigned count (`usize`, `u64`, `u8`).
pub(crate) fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}

/// Joins names for a list of what exists: "`a`, `b` and `c`".
pub fn list_and(items: impl IntoIterator<Item = String>) -> String {
    join(items, "and")
}

/// Joins names for a message: "`a`, `b` or `c`".
pub fn list(items: impl IntoIterator<Item = String>) -> String {
    join(items, "or")
}

/// "`a`, `b` {last} `c`".
fn join(items: impl IntoIterator<Item = String>, last: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} {last} {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// The name in `candidates` nearest to `name`, if it is close enough to be a likely typo.
pub fn nearest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let length = name.chars().count();
    let limit = (length / 3).max(1);
    candidates
        .into_iter()
        // The distance is at least the difference in length: a name of
        // megabytes is not compared letter by letter with short ones.
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

/// Levenshtein distance with adjacent transpositions counted as one edit.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Longest source line shown whole; longer lines are cut around the caret.
const MAX_LINE: usize = 120;

/// A named source text that diagnostics point into.
#[derive(Clone)]
pub struct Source {
    /// The path shown in diagnostics (`effects/x.edn`, `<command line>`).
    pub path: String,
    /// The text.
    pub text: String,
    index: LineIndex,
}

/// A diagnostic placed in its file, ready for JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Located {
    /// File path as given.
    pub path: String,
    /// 1-based line of the start.
    pub line: usize,
    /// 1-based column (characters) of the start.
    pub column: usize,
    /// 1-based line of the end.
    pub end_line: usize,
    /// 1-based column of the end (exclusive).
    pub end_column: usize,
    /// `"error"` or `"warning"`.
    pub severity: Severity,
    /// The kind of problem: `"E0204"` (see `grimoire check --explain E0204`).
    pub code: Code,
    /// What is wrong.
    pub message: String,
    /// How to fix it, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The note shown beside the caret, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Other places worth showing ("first used here").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

/// Another place a diagnostic points at, for machines.
#[derive(Clone, Debug, Serialize)]
pub struct Related {
    /// The file, when it is not the diagnostic's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// What is there.
    pub note: String,
}

/// Its path and size: a rule set or card that holds its file prints the
/// file's name, not its whole text.
impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("path", &self.path)
            .field("bytes", &self.text.len())
            .finish()
    }
}

impl Source {
    /// A source named `path` holding `text`.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        Source {
            index: LineIndex::new(&text),
            path: path.into(),
            text,
        }
    }

    /// The byte offset of 1-based `line` and `column` (characters), clamped to the text.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let Some(start) = self.index.line_start(line) else {
            return self.text.len();
        };
        let text = self.index.line_text(&self.text, line);
        let within: usize = text
            .chars()
            .take(column.saturating_sub(1))
            .map(char::len_utf8)
            .sum();
        (start as usize + within).min(self.text.len())
    }

    /// The 1-based line and column of byte `offset`.
    pub fn location(&self, offset: u32) -> crate::syntax::Location {
        self.index.location(&self.text, offset)
    }

    /// The diagnostic with its path, line and column, for machines.
    pub fn locate(&self, d: &Diagnostic) -> Located {
        let start = self.index.location(&self.text, d.span.start);
        let end = self.index.location(&self.text, d.span.end);
        Located {
            path: self.path.clone(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            severity: d.severity,
            code: d.code,
            message: d.message.clone(),
            help: d.help.clone(),
            label: d.label.clone(),
            related: d
                .related
                .iter()
                .map(|(span, note)| {
                    let at = self.index.location(&self.text, span.start);
                    Related {
                        path: None,
                        line: at.line,
                        column: at.column,
                        note: note.clone(),
                    }
                })
                .chain(d.elsewhere.iter().map(|e| Related {
                    path: Some(e.path.clone()),
                    line: e.line,
                    column: e.column,
                    note: e.note.clone(),
                }))
                .collect(),
        }
    }

    /// The line and column of byte `offset`, both 1-based.
    pub fn line_column(&self, offset: u32) -> (usize, usize) {
        let at = self.index.location(&self.text, offset);
        (at.line, at.column)
    }

    /// The diagnostic as people read it: header, location, source line, caret, help.
    pub fn render(&self, d: &Diagnostic, color: bool) -> String {
        let paint = |code: &str, s: &str| {
            if color {
                format!("\x1b[{code}m{s}\x1b[0m")
            } else {
                s.to_string()
            }
        };
        let (word, code) = match d.severity {
            Severity::Error => ("error", "1;31"),
            Severity::Warning => ("warning", "1;33"),
        };
        let mut out = String::new();
        // As rustc: `error[E0204]: unknown attribute …`.
        let header = format!("{word}[{}]", d.code);
        let _ = writeln!(out, "{}: {}", paint(code, &header), paint("1", &d.message));
        self.snippet(&mut out, d.span, d.label.as_deref(), &paint, code);
        for (span, note) in &d.related {
            let _ = writeln!(out, "{}: {note}", paint("1;36", "note"));
            self.snippet(&mut out, *span, None, &paint, "1;36");
        }
        for e in &d.elsewhere {
            let _ = writeln!(
                out,
                "{}: {} at {}:{}:{}",
                paint("1;36", "note"),
                e.note,
                e.path,
                e.line,
                e.column
            );
        }
        if let Some(help) = &d.help {
            let line = self.index.location(&self.text, d.span.start).line;
            let gutter = " ".repeat(line.to_string().len());
            let _ = writeln!(out, "{gutter} = {}: {help}", paint("1", "help"));
        }
        out
    }

    fn snippet(
        &self,
        out: &mut String,
        span: Span,
        label: Option<&str>,
        paint: &dyn Fn(&str, &str) -> String,
        code: &str,
    ) {
        let start = self.index.location(&self.text, span.start);
        let end = self.index.location(&self.text, span.end);
        let gutter = " ".repeat(start.line.to_string().len());
        let _ = writeln!(
            out,
            "{gutter} {} {}:{}:{}",
            paint("1;34", "-->"),
            self.path,
            start.line,
            start.column
        );
        let line = self.index.line_text(&self.text, start.line);
        let mut shown: Vec<char> = line
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let mut column = start.column;
        // A very long line is cut to a window around the caret, so output stays small.
        if shown.len() > MAX_LINE {
            let from = column
                .saturating_sub(MAX_LINE / 2)
                .min(shown.len().saturating_sub(MAX_LINE));
            let to = (from + MAX_LINE).min(shown.len());
            let mut window: Vec<char> = Vec::with_capacity(MAX_LINE + 2);
            if from > 0 {
                window.push('…');
            }
            window.extend_from_slice(&shown[from..to]);
            if to < shown.len() {
                window.push('…');
            }
            column = column - from + usize::from(from > 0);
            shown = window;
        }
        let line_chars = shown.len();
        let shown: String = shown.into_iter().collect();
        let number = start.line.to_string();
        let bar = paint("1;34", "|");
        let _ = writeln!(out, "{gutter} {bar}");
        let _ = writeln!(out, "{} {bar} {shown}", paint("1;34", &number));
        let width = if end.line == start.line {
            end.column.saturating_sub(start.column)
        } else {
            (line_chars + 1).saturating_sub(column)
        }
        .clamp(1, (line_chars + 1).saturating_sub(column).max(1));
        let carets = paint(code, &"^".repeat(width));
        let pad = " ".repeat(column - 1);
        match label {
            Some(label) => {
                let _ = writeln!(out, "{gutter} {bar} {pad}{carets} {}", paint(code, label));
            }
            None => {
                let _ = writeln!(out, "{gutter} {bar} {pad}{carets}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_sets_the_severity_and_read_errors_have_theirs() {
        let w = Diagnostic::new(Code::TextDisagrees, Span::new(0, 1), "w");
        assert_eq!(
            (w.severity, w.code),
            (Severity::Warning, Code::TextDisagrees)
        );
        let arena = crate::syntax::Arena::new();
        let read = crate::syntax::read(&arena, "[1 2");
        let d = Diagnostic::from(&read.errors[0]);
        assert_eq!((d.severity, d.code), (Severity::Error, Code::Unclosed));
    }

    #[test]
    fn lists_and_plurals_read_as_english() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(list_and(names(&[])), "");
        assert_eq!(list_and(names(&["a"])), "a");
        assert_eq!(list_and(names(&["a", "b"])), "a and b");
        assert_eq!(list_and(names(&["a", "b", "c"])), "a, b and c");
        assert_eq!(list(names(&["a", "b", "c"])), "a, b or c");
        assert_eq!((plural(0usize), plural(1u8), plural(2u64)), ("s", "", "s"));
    }

    #[test]
    fn nearest_finds_typos_and_ignores_strangers() {
        let names = ["quarry", "magic", "zoo", "wall", "tower"];
        assert_eq!(nearest("quary", names), Some("quarry"));
        assert_eq!(nearest("walll", names), Some("wall"));
        assert_eq!(nearest("mgaic", names), Some("magic"));
        assert_eq!(nearest("banana", names), None);
    }

    #[test]
    fn render_points_a_caret_under_the_span() {
        let src = Source::new("x.edn", "[:a\n :quary]");
        let d = Diagnostic::new(
            Code::UnknownResource,
            Span::new(5, 11),
            "unknown resource `:quary`",
        )
        .with_label("not a resource")
        .with_help("did you mean `:quarry`?");
        let text = src.render(&d, false);
        assert_eq!(d.severity, Severity::Error);
        assert_eq!(
            text,
            "error[E0205]: unknown resource `:quary`\n  --> x.edn:2:2\n  |\n2 |  :quary]\n  |  ^^^^^^ not a resource\n  = help: did you mean `:quarry`?\n"
        );
    }
}
