//! The reader: EDN text to a spanned syntax tree.
//!
//! Hand-written recursive descent; nom recognises the atoms. Nesting is
//! bounded by [`MAX_DEPTH`], so no input can overflow the stack. Errors that
//! leave the structure intact (a duplicate key, an overflowing integer) are
//! collected and reading goes on; errors that break it (an unclosed `[`) end it.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use nom::IResult;
use nom::bytes::complete::take_while1;
use thiserror::Error;

use super::{Arena, Form, Kind, Span};

/// How deeply collections may nest before the reader refuses the text.
pub const MAX_DEPTH: usize = 200;

/// What the reader could not accept. Each variant shows an input that produces it.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ReadError {
    /// `[1 2` — a collection is never closed; points at the opener.
    #[error("this `{open}` is never closed")]
    Unclosed {
        /// The opening bracket.
        span: Span,
        /// The opening text: `[`, `(`, `{` or `#{`.
        open: &'static str,
    },
    /// `[1 2)` or `]` alone — a closer that does not match the open collection.
    #[error("unexpected `{found}`{}", expected_closer(*.expected))]
    UnexpectedCloser {
        /// The stray closer.
        span: Span,
        /// The closer found.
        found: char,
        /// The closer the open collection needs, if any is open.
        expected: Option<char>,
        /// The opener of the collection still open, if any.
        open: Option<Span>,
    },
    /// `// note` — EDN comments start with `;`.
    #[error("`//` does not start a comment here: comments start with `;`")]
    SlashComment {
        /// The `//`.
        span: Span,
    },
    /// `{:a 1 :b}` — a map needs an even number of forms.
    #[error("this map has an odd number of forms: every key needs a value")]
    OddMap {
        /// The whole map.
        span: Span,
    },
    /// `{:a 1 :a 2}` — points at the second occurrence.
    #[error("duplicate key `{key}` in this map")]
    DuplicateKey {
        /// The repeated key.
        span: Span,
        /// The key as written.
        key: String,
        /// Where the key first appears.
        first: Span,
    },
    /// `#{1 1}` — a set holds each value once.
    #[error("duplicate element `{element}` in this set")]
    DuplicateElement {
        /// The repeated element.
        span: Span,
        /// The element as written.
        element: String,
        /// Where it first appears.
        first: Span,
    },
    /// `99999999999999999999` — integers are 64-bit and never wrap.
    #[error(
        "integer `{text}` does not fit in 64 bits (from -9223372036854775808 to 9223372036854775807)"
    )]
    IntOverflow {
        /// The number.
        span: Span,
        /// The number as written.
        text: String,
    },
    /// `1.2.3`, `12ab`, `1e999` — not a number grimoire can read.
    #[error("`{text}` is not a number")]
    BadNumber {
        /// The token.
        span: Span,
        /// The token as written.
        text: String,
    },
    /// `"abc` — a string is never closed; points at the opening quote.
    #[error("this string is never closed")]
    UnclosedString {
        /// The opening quote.
        span: Span,
    },
    /// `"\q"` — an escape the reader does not know.
    #[error("unknown escape `{text}` in a string (use \\\" \\\\ \\n \\t \\r \\b \\f or \\uXXXX)")]
    BadEscape {
        /// The escape.
        span: Span,
        /// The escape as written.
        text: String,
    },
    /// `"\u00"`, `"\uD800"` — `\u` takes four hex digits naming a character.
    #[error("`\\u` needs four hex digits naming a character, such as `\\u00e9`")]
    BadUnicodeEscape {
        /// The escape.
        span: Span,
    },
    /// `1e999` — a decimal too large to hold.
    #[error("decimal `{text}` is out of range")]
    DecimalOutOfRange {
        /// The number.
        span: Span,
        /// The number as written.
        text: String,
    },
    /// `::quarry` — auto-resolved keywords belong to Clojure, not to this language.
    #[error("`::` keywords are not supported; write `:{name}`")]
    DoubleColon {
        /// The keyword.
        span: Span,
        /// The name after the colons.
        name: String,
    },
    /// `:` alone — a keyword needs a name.
    #[error("a keyword needs a name after `:`, such as `:wall`")]
    BadKeyword {
        /// The keyword token.
        span: Span,
    },
    /// `#inst "…"` — tagged literals and other `#` forms are not part of the language.
    #[error("`#{tag}` is not supported: only `#{{…}}` sets and `#_` discards start with `#`")]
    UnsupportedDispatch {
        /// The `#` and its tag.
        span: Span,
        /// The text after `#`.
        tag: String,
    },
    /// `[#_]` — `#_` discards the next form, and there is none.
    #[error("`#_` must be followed by a form to discard")]
    NothingToDiscard {
        /// The `#_`.
        span: Span,
    },
    /// `\a`, `@x`, `^m` — a character that starts no form.
    #[error("unexpected {what}")]
    UnexpectedChar {
        /// The character.
        span: Span,
        /// A description of it.
        what: String,
    },
    /// `[[[[…` more than [`MAX_DEPTH`] deep.
    #[error("collections nest more than {MAX_DEPTH} deep here")]
    TooDeep {
        /// The opener that went too deep.
        span: Span,
    },
    /// A text longer than 4 GiB.
    #[error("the text is too large ({0} bytes; at most 4 GiB)")]
    TooLarge(usize),
}

fn expected_closer(expected: Option<char>) -> String {
    match expected {
        Some(c) => format!(": expected `{c}`"),
        None => ": nothing is open here".into(),
    }
}

impl ReadError {
    /// Where the error is.
    pub fn span(&self) -> Span {
        match self {
            ReadError::Unclosed { span, .. }
            | ReadError::UnexpectedCloser { span, .. }
            | ReadError::OddMap { span }
            | ReadError::SlashComment { span }
            | ReadError::DuplicateKey { span, .. }
            | ReadError::DuplicateElement { span, .. }
            | ReadError::IntOverflow { span, .. }
            | ReadError::BadNumber { span, .. }
            | ReadError::UnclosedString { span }
            | ReadError::BadEscape { span, .. }
            | ReadError::BadKeyword { span }
            | ReadError::BadUnicodeEscape { span }
            | ReadError::DecimalOutOfRange { span, .. }
            | ReadError::DoubleColon { span, .. }
            | ReadError::UnsupportedDispatch { span, .. }
            | ReadError::NothingToDiscard { span }
            | ReadError::UnexpectedChar { span, .. }
            | ReadError::TooDeep { span } => *span,
            ReadError::TooLarge(_) => Span::default(),
        }
    }

    /// Whether the form it is in may be wrong for it: every error but a
    /// `//` comment, which is skipped whole and leaves the form as written.
    pub fn breaks_form(&self) -> bool {
        !matches!(self, ReadError::SlashComment { .. })
    }

    /// A second place worth showing, with a note.
    pub fn related(&self) -> Option<(Span, &'static str)> {
        match self {
            ReadError::DuplicateKey { first, .. } => Some((*first, "first used here")),
            ReadError::DuplicateElement { first, .. } => Some((*first, "first here")),
            ReadError::UnexpectedCloser {
                open: Some(open), ..
            } => Some((*open, "the collection opened here is still open")),
            _ => None,
        }
    }
}

/// The forms of a text and the errors found while reading it.
#[derive(Debug, Default)]
pub struct Read<'a> {
    /// Top-level forms, in order.
    pub forms: Vec<Form<'a>>,
    /// Errors, in order of position. When not empty, `forms` holds the forms
    /// that read around them; a form that an error broke is left out.
    pub errors: Vec<ReadError>,
    /// Parts of a rule set's map dropped because an error broke them: from a
    /// section's key to where the next section starts. The map holds the
    /// other sections, so their own errors can still be found.
    pub damaged: Vec<Span>,
}

/// Reads every top-level form of `src`, its collections kept in `arena`.
///
/// ```
/// let arena = grimoire::syntax::Arena::new();
/// let read = grimoire::syntax::read(&arena, "[{:effected :you :resource :quarry :amount 1}]");
/// assert!(read.errors.is_empty());
/// assert_eq!(read.forms.len(), 1);
/// ```
pub fn read<'a>(arena: &'a Arena, src: &'a str) -> Read<'a> {
    if u32::try_from(src.len()).is_err() {
        return Read {
            forms: Vec::new(),
            errors: vec![ReadError::TooLarge(src.len())],
            damaged: Vec::new(),
        };
    }
    let mut reader = Reader {
        arena,
        src,
        pos: src.strip_prefix('\u{feff}').map_or(0, |_| 3),
        errors: Vec::new(),
        swallowed: None,
        multiline: None,
        in_rule_set: false,
        section: None,
        damaged: Vec::new(),
        buffers: Vec::new(),
    };
    let mut forms = Vec::new();
    reader.top_level(&mut forms);
    reader.errors.sort_by_key(|e| e.span().start);
    // Recovery reads some text twice, and an error that points back (an
    // unclosed string names an earlier quote) is found each time: said once.
    let mut errors: Vec<ReadError> = Vec::with_capacity(reader.errors.len());
    for e in reader.errors {
        let start = e.span().start;
        let mut same_place = errors.iter().rev().take_while(|k| k.span().start == start);
        if !same_place.any(|k| *k == e) {
            errors.push(e);
        }
    }
    Read {
        forms,
        errors,
        damaged: reader.damaged,
    }
}

/// The start of the first line after byte `from` that starts like a rule
/// set's section (` :kinds`, one space in), if any.
fn next_section(src: &str, from: usize) -> Option<usize> {
    let from = from.min(src.len());
    src[from..]
        .match_indices("\n :")
        .next()
        .map(|(i, _)| from + i + 2)
}

/// The keys a definition map starts with (`{:card …`, `{:status …`), which
/// a line starting in its first column is taken as the next definition by.
const DEFINITION_KEYS: &[&str] = &[":card", ":effect", ":status", ":rules", ":scenario"];

/// Whether `text` (at a `{`) opens a definition: `{:card "…"`, `{:rules :x`.
fn starts_definition(text: &str) -> bool {
    let rest = text[1..].trim_start_matches([' ', '\t']);
    DEFINITION_KEYS.iter().any(|k| {
        rest.strip_prefix(k)
            .is_some_and(|after| after.starts_with([' ', '\t', '\n', '"', ':']))
    })
}

/// Reads exactly one form, for the command line and tests: anything else is an error.
pub fn read_one<'a>(arena: &'a Arena, src: &'a str) -> Result<Form<'a>, Vec<ReadError>> {
    let mut read = read(arena, src);
    if !read.errors.is_empty() {
        return Err(read.errors);
    }
    match read.forms.len() {
        1 => Ok(read.forms.pop().expect("one form")),
        0 => Err(vec![ReadError::UnexpectedChar {
            span: Span::new(src.len(), src.len()),
            what: "end of input: expected a form".into(),
        }]),
        _ => Err(vec![ReadError::UnexpectedChar {
            span: read.forms[1].span,
            what: "second form: expected exactly one".into(),
        }]),
    }
}

struct Reader<'a> {
    arena: &'a Arena,
    src: &'a str,
    pos: usize,
    errors: Vec<ReadError>,
    /// In the top-level form being read, the first collection opened in the
    /// first column of a line inside another, with the one it landed in:
    /// where a form that never closed swallowed the next definition.
    swallowed: Option<(usize, (Span, &'static str))>,
    /// In the top-level form being read, the first string that ran over a
    /// line end: the likeliest quote left open when a later one is.
    multiline: Option<usize>,
    /// Whether the top-level form being read is a rule set (`{:rules …`).
    in_rule_set: bool,
    /// In a rule set's section, the first line that starts like the next
    /// section (` :kinds`, one space in), with the collection it landed in.
    section: Option<(usize, (Span, &'static str))>,
    /// Sections dropped by errors (see [`Read::damaged`]).
    damaged: Vec<Span>,
    /// Item buffers, one per open collection, kept between collections: a
    /// collection is read into one and copied into the arena at its exact
    /// size, so none grows by doubling.
    buffers: Vec<Vec<Form<'a>>>,
}

fn is_symbol_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(
            c,
            '.' | '*'
                | '+'
                | '!'
                | '-'
                | '_'
                | '?'
                | '$'
                | '%'
                | '&'
                | '='
                | '<'
                | '>'
                | '/'
                | '\''
                | '#'
                | ':'
        )
}

fn token(input: &str) -> IResult<&str, &str> {
    take_while1(is_symbol_char)(input)
}

impl<'a> Reader<'a> {
    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn skip_trivia(&mut self) {
        let bytes = self.src.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b',' => self.pos += 1,
                b';' => {
                    self.pos = memchr_newline(bytes, self.pos);
                }
                _ => break,
            }
        }
    }

    /// Reads the top-level forms into `out`. An error that breaks a form (an
    /// unclosed `[`, a closer that does not match) drops that form, and
    /// reading goes on at the next line that starts with an opener in its
    /// first column: the way definition files are written, that is the next
    /// definition. A stray closer between forms is skipped. So one file
    /// reports every independent error, and the forms around them still read.
    fn top_level(&mut self, out: &mut Vec<Form<'a>>) {
        let mut discards: Vec<Span> = Vec::new();
        loop {
            self.skip_trivia();
            let Some(b) = self.peek() else {
                if let Some(&span) = discards.last() {
                    self.errors.push(ReadError::NothingToDiscard { span });
                }
                return;
            };
            match b {
                b']' | b')' | b'}' => {
                    // A `#_` before it has nothing to discard: said, so it
                    // does not drop the definition after.
                    if let Some(span) = discards.pop() {
                        self.errors.push(ReadError::NothingToDiscard { span });
                        discards.clear();
                    }
                    self.errors.push(ReadError::UnexpectedCloser {
                        span: Span::new(self.pos, self.pos + 1),
                        found: b as char,
                        expected: None,
                        open: None,
                    });
                    self.pos += 1;
                }
                b'#' if self.rest().starts_with("#_") => {
                    discards.push(Span::new(self.pos, self.pos + 2));
                    self.pos += 2;
                }
                b'/' if self.rest().starts_with("//") => self.slash_comment(),
                _ => {
                    let start = self.pos;
                    let errors_before = self.errors.len();
                    self.swallowed = None;
                    self.multiline = None;
                    self.in_rule_set = b == b'{' && self.src[self.pos + 1..].starts_with(":rules");
                    match self.form(0) {
                        Ok(form) => {
                            if discards.pop().is_none() {
                                out.push(form);
                            }
                        }
                        // The form ran on into a line that starts a new
                        // definition: the collection open there was never
                        // closed, whatever went wrong further on. Say that,
                        // and read that definition again on its own.
                        Err(_) if self.swallowed.is_some() => {
                            let Some((at, (span, open))) = self.swallowed.take() else {
                                continue;
                            };
                            // Errors found past `at` belong to the definition
                            // read again from there: it finds them again.
                            let all = std::mem::take(&mut self.errors);
                            self.errors = all
                                .into_iter()
                                .enumerate()
                                .filter(|(k, e)| {
                                    *k < errors_before || (e.span().start as usize) < at
                                })
                                .map(|(_, e)| e)
                                .collect();
                            // An error already said in this form (a wrong closer) is why
                            // it ran on: no second one for it.
                            if self.errors.len() == errors_before {
                                self.errors.push(ReadError::Unclosed { span, open });
                            }
                            discards.clear();
                            self.pos = at;
                        }
                        Err(fatal) => {
                            // Left open at the end after a wrong closer in the
                            // same form: that closer was the slip, said already.
                            let follows = matches!(fatal, ReadError::Unclosed { .. })
                                && self.errors[errors_before..]
                                    .iter()
                                    .any(|e| matches!(e, ReadError::UnexpectedCloser { .. }));
                            if !follows {
                                self.errors.push(fatal);
                            }
                            discards.clear();
                            self.pos = self.next_top_level(start);
                        }
                    }
                }
            }
        }
    }

    /// One entry of a rule set's map: read; a section that breaks is
    /// dropped with its key, said, and reading goes on at the next section.
    /// Out of line: `items` is on the reader's recursion path.
    #[inline(never)]
    fn rule_set_entry(
        &mut self,
        out: &mut Vec<Form<'a>>,
        discards: &mut Vec<Span>,
    ) -> Result<(), ReadError> {
        let depth = 1;
        self.section = None;
        let start = self.pos;
        let errors_before = self.errors.len();
        match self.form(depth) {
            Ok(form) => {
                if discards.pop().is_none() {
                    out.push(form);
                }
            }
            // A section broke and ran on into the next: say
            // where it was left open, drop it, read on there.
            Err(_) if self.section.is_some() => {
                let Some((at, (span, open))) = self.section.take() else {
                    return Ok(());
                };
                let all = std::mem::take(&mut self.errors);
                self.errors = all
                    .into_iter()
                    .enumerate()
                    .filter(|(k, e)| *k < errors_before || (e.span().start as usize) < at)
                    .map(|(_, e)| e)
                    .collect();
                // An error already said in this form (a wrong closer) is why
                // it ran on: no second one for it.
                if self.errors.len() == errors_before {
                    self.errors.push(ReadError::Unclosed { span, open });
                }
                self.drop_section(out, discards, start, at);
            }
            // Broken where it stands (a closer that does not
            // match): said, and read on at the next section.
            Err(e) => {
                // Past the entry's start whatever the error points at (an
                // unclosed string names an earlier quote): reading on from
                // before it would read the same entry again, for ever.
                let from = (e.span().end as usize).max(start + 1);
                let Some(at) = next_section(self.src, from) else {
                    return Err(e);
                };
                self.errors.push(e);
                self.drop_section(out, discards, start, at);
            }
        }
        Ok(())
    }

    /// Drops the broken section that began at `start` (its key with it, if
    /// read), marks it damaged up to `at`, and reads on there.
    fn drop_section(
        &mut self,
        out: &mut Vec<Form<'a>>,
        discards: &mut Vec<Span>,
        start: usize,
        at: usize,
    ) {
        let from = if out.len() % 2 == 1 {
            out.pop().map_or(start, |k| k.span.start as usize)
        } else {
            start
        };
        self.damaged.push(Span::new(from, at));
        discards.clear();
        self.pos = at;
    }

    /// At the end of a rule set left open: if its last section ran on into
    /// lines that start like sections, that section was never closed. Said,
    /// dropped with its key, and reading starts again at the next section.
    #[cold]
    #[inline(never)]
    fn reopen_last_section(&mut self, out: &mut Vec<Form<'a>>) -> bool {
        if out.len() < 2 {
            return false;
        }
        let Some((at, (span, text))) = self.section.take() else {
            return false;
        };
        let value = out.pop();
        let key = out.pop();
        let from = key.or(value).map_or(at, |f| f.span.start as usize);
        self.errors.retain(|e| (e.span().start as usize) < at);
        self.errors.push(ReadError::Unclosed { span, open: text });
        self.damaged.push(Span::new(from, at));
        self.pos = at;
        true
    }

    /// Where reading starts again after a broken form that began at `start`:
    /// the first later line whose first character opens a collection, or the end.
    fn next_top_level(&self, start: usize) -> usize {
        let bytes = self.src.as_bytes();
        // A definition (`{:card …`) is the surest place to start again; any
        // opener in the first column only when no definition follows.
        let mut any = None;
        let mut at = start;
        while let Some(nl) = bytes[at..].iter().position(|&b| b == b'\n') {
            at += nl + 1;
            if bytes.get(at) == Some(&b'{') && starts_definition(&self.src[at..]) {
                return at;
            }
            if any.is_none()
                && (matches!(bytes.get(at), Some(b'{' | b'[' | b'('))
                    || self.src[at..].starts_with("#{"))
            {
                any = Some(at);
            }
        }
        any.unwrap_or(self.src.len())
    }

    /// `// …`: a comment in other languages. Said once, and skipped to the
    /// end of the line, so the words after it are not read as forms.
    fn slash_comment(&mut self) {
        let end = memchr_newline(self.src.as_bytes(), self.pos);
        self.errors.push(ReadError::SlashComment {
            span: Span::new(self.pos, self.pos + 2),
        });
        self.pos = end;
    }

    /// Reads forms into `out` until `close` (or the end of text when `close` is `None`).
    ///
    /// `#_` discards are counted rather than recursed into, so a million of them
    /// in a row cannot overflow the stack: `#_ #_ a b` drops both `a` and `b`.
    fn items(
        &mut self,
        open: Option<(Span, &'static str, u8)>,
        depth: usize,
        out: &mut Vec<Form<'a>>,
    ) -> Result<(), ReadError> {
        let mut discards: Vec<Span> = Vec::new();
        loop {
            self.skip_trivia();
            let Some(b) = self.peek() else {
                if let Some(&span) = discards.last() {
                    return Err(ReadError::NothingToDiscard { span });
                }
                // A rule set left open at the end whose last section ran on
                // into lines that start like sections: that section was
                // never closed. Said, dropped, and the rest read again.
                if depth == 1 && self.in_rule_set && self.reopen_last_section(out) {
                    continue;
                }
                return match open {
                    Some((span, open, _)) => Err(ReadError::Unclosed { span, open }),
                    None => Ok(()),
                };
            };
            match b {
                b']' | b')' | b'}' => {
                    if let Some(&span) = discards.last() {
                        return Err(ReadError::NothingToDiscard { span });
                    }
                    let span = Span::new(self.pos, self.pos + 1);
                    // The wrong closer (`]` for `}`) is most often a slip of
                    // the hand: said, and taken as closing what is open, so
                    // the rest of the text reads as its author meant.
                    if let Some((_, _, close)) = open
                        && close != b
                    {
                        self.errors.push(ReadError::UnexpectedCloser {
                            span,
                            found: b as char,
                            expected: open.map(|(_, _, c)| c as char),
                            open: open.map(|(s, _, _)| s),
                        });
                    }
                    self.pos += 1;
                    return Ok(());
                }
                b'#' if self.rest().starts_with("#_") => {
                    discards.push(Span::new(self.pos, self.pos + 2));
                    self.pos += 2;
                }
                b'/' if self.rest().starts_with("//") => self.slash_comment(),
                _ if depth == 1 && self.in_rule_set => self.rule_set_entry(out, &mut discards)?,
                _ => {
                    // A line starting like a rule set's next section inside
                    // one of its sections: noted, in case the section breaks.
                    if self.in_rule_set
                        && b == b':'
                        && depth >= 2
                        && self.section.is_none()
                        && self.src.as_bytes().get(self.pos.wrapping_sub(2)..self.pos)
                            == Some(b"\n ")
                        && let Some((span, text, _)) = open
                    {
                        self.section = Some((self.pos, (span, text)));
                    }
                    // A collection opened in a line's first column inside
                    // another is likely the next definition, swallowed by
                    // one never closed: noted, in case the form breaks.
                    if b == b'{'
                        && self.swallowed.is_none()
                        && self.src.as_bytes().get(self.pos.wrapping_sub(1)) == Some(&b'\n')
                        && starts_definition(&self.src[self.pos..])
                        && let Some((span, text, _)) = open
                    {
                        self.swallowed = Some((self.pos, (span, text)));
                    }
                    let form = self.form(depth)?;
                    if discards.pop().is_none() {
                        out.push(form);
                    }
                }
            }
        }
    }

    fn form(&mut self, depth: usize) -> Result<Form<'a>, ReadError> {
        let start = self.pos;
        let b = self.peek().unwrap_or(b' ');
        match b {
            b'[' | b'(' | b'{' => self.collection(start, depth, 1, b),
            b'#' if self.rest().starts_with("#{") => self.collection(start, depth, 2, b'#'),
            b'#' => {
                let tag = self.rest()[1..]
                    .split(|c: char| c.is_whitespace() || "[](){}\"".contains(c))
                    .next()
                    .unwrap_or("");
                let end = start + 1 + tag.len();
                Err(ReadError::UnsupportedDispatch {
                    span: Span::new(start, end),
                    tag: tag.to_string(),
                })
            }
            b'"' => self.string(start),
            b':' => self.keyword(start),
            b'0'..=b'9' => self.number(start),
            b'+' | b'-'
                if self
                    .src
                    .as_bytes()
                    .get(start + 1)
                    .is_some_and(u8::is_ascii_digit) =>
            {
                self.number(start)
            }
            _ => self.symbol(start),
        }
    }

    fn collection(
        &mut self,
        start: usize,
        depth: usize,
        open_len: usize,
        open: u8,
    ) -> Result<Form<'a>, ReadError> {
        let open_span = Span::new(start, start + open_len);
        if depth >= MAX_DEPTH {
            return Err(ReadError::TooDeep { span: open_span });
        }
        let (open_text, close) = match open {
            b'[' => ("[", b']'),
            b'(' => ("(", b')'),
            b'{' => ("{", b'}'),
            _ => ("#{", b'}'),
        };
        self.pos += open_len;
        let mut buffer = self.buffers.pop().unwrap_or_default();
        let read = self.items(Some((open_span, open_text, close)), depth + 1, &mut buffer);
        let arena = self.arena;
        let kind = read.map(|()| {
            let span = Span::new(start, self.pos);
            match open {
                b'[' => Kind::Vector(arena.forms(&buffer)),
                b'(' => Kind::List(arena.forms(&buffer)),
                b'{' => {
                    if buffer.len() % 2 == 1 {
                        self.errors.push(ReadError::OddMap { span });
                    }
                    let pairs = arena.pairs_of(&buffer);
                    self.check_unique(pairs, |(k, _)| k, true);
                    Kind::Map(pairs)
                }
                _ => {
                    let items = arena.forms(&buffer);
                    self.check_unique(items, |k| k, false);
                    Kind::Set(items)
                }
            }
        });
        // Whatever an error left in the buffer goes with it; the buffer stays.
        buffer.clear();
        self.buffers.push(buffer);
        Ok(Form {
            kind: kind?,
            span: Span::new(start, self.pos),
        })
    }

    /// Reports the duplicates among the keys `key` finds in `items`.
    fn check_unique<T>(&mut self, items: &[T], key: impl Fn(&T) -> &Form<'a>, map: bool) {
        let mut report = |first: &Form<'_>, dup: &Form<'_>| {
            let text = dup.to_string();
            self.errors.push(if map {
                ReadError::DuplicateKey {
                    span: dup.span,
                    key: text,
                    first: first.span,
                }
            } else {
                ReadError::DuplicateElement {
                    span: dup.span,
                    element: text,
                    first: first.span,
                }
            });
        };
        if items.len() <= 16 {
            for (i, k) in items.iter().enumerate() {
                let k = key(k);
                if let Some(first) = items[..i].iter().map(&key).find(|f| f.same_value(k)) {
                    report(first, k);
                }
            }
            return;
        }
        // Large maps: bucket by a structural hash so a huge map stays linear.
        let mut seen: HashMap<u64, Vec<&Form<'a>>> = HashMap::with_capacity(items.len());
        for k in items.iter().map(key) {
            let mut h = DefaultHasher::new();
            hash_value(k, &mut h);
            let bucket = seen.entry(h.finish()).or_default();
            if let Some(first) = bucket.iter().find(|f| f.same_value(k)) {
                report(first, k);
            } else {
                bucket.push(k);
            }
        }
    }

    fn string(&mut self, start: usize) -> Result<Form<'a>, ReadError> {
        let body_start = start + 1;
        let bytes = self.src.as_bytes();
        let mut i = body_start;
        // Built only when the text has an escape; then copied into the arena.
        let mut owned: Option<String> = None;
        let mut run_start = body_start;
        loop {
            let Some(&b) = bytes.get(i) else {
                return Err(ReadError::UnclosedString {
                    span: Span::new(start, start + 1),
                });
            };
            match b {
                b'"' => break,
                // A line in a string that starts like a definition: the
                // string was left open, and that definition comes next.
                b'\n' => {
                    if bytes.get(i + 1) == Some(&b'{') && starts_definition(&self.src[i + 1..]) {
                        // An earlier string over a line end closed on this
                        // one's opening quote: that earlier quote is the open one.
                        let at = self.multiline.unwrap_or(start);
                        return Err(ReadError::UnclosedString {
                            span: Span::new(at, at + 1),
                        });
                    }
                    if self.multiline.is_none() {
                        self.multiline = Some(start);
                    }
                    i += 1;
                }
                b'\\' => {
                    let buf = owned.get_or_insert_with(String::new);
                    buf.push_str(&self.src[run_start..i]);
                    let (ch, len) = self.escape(i)?;
                    buf.push(ch);
                    i += len;
                    run_start = i;
                }
                _ => i += 1,
            }
        }
        let text = match owned {
            Some(mut buf) => {
                buf.push_str(&self.src[run_start..i]);
                self.arena.str(&buf)
            }
            None => &self.src[body_start..i],
        };
        self.pos = i + 1;
        Ok(Form {
            kind: Kind::Str(text),
            span: Span::new(start, self.pos),
        })
    }

    /// Decodes the escape at `at` (a backslash): the character and the escape's length.
    fn escape(&mut self, at: usize) -> Result<(char, usize), ReadError> {
        let rest = &self.src[at + 1..];
        let simple = match rest.chars().next() {
            Some('"') => Some('"'),
            Some('\\') => Some('\\'),
            Some('n') => Some('\n'),
            Some('t') => Some('\t'),
            Some('r') => Some('\r'),
            Some('b') => Some('\u{8}'),
            Some('f') => Some('\u{c}'),
            _ => None,
        };
        if let Some(c) = simple {
            return Ok((c, 2));
        }
        if let Some(after) = rest.strip_prefix('u') {
            let hex = after
                .get(..4)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
            if let Some(c) = hex
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
            {
                return Ok((c, 6));
            }
            let len = 2 + after
                .bytes()
                .take(4)
                .take_while(u8::is_ascii_hexdigit)
                .count();
            self.errors.push(ReadError::BadUnicodeEscape {
                span: Span::new(at, at + len),
            });
            return Ok(('\u{fffd}', len));
        }
        let len = 1 + rest.chars().next().map_or(0, char::len_utf8);
        if rest.is_empty() {
            return Err(ReadError::UnclosedString {
                span: Span::new(at, at + 1),
            });
        }
        let text = self.src[at..at + len].to_string();
        self.errors.push(ReadError::BadEscape {
            span: Span::new(at, at + len),
            text,
        });
        Ok(('\u{fffd}', len))
    }

    fn keyword(&mut self, start: usize) -> Result<Form<'a>, ReadError> {
        let after = &self.src[start + 1..];
        let name = token(after).map(|(_, t)| t).unwrap_or("");
        let end = start + 1 + name.len();
        self.pos = end;
        let span = Span::new(start, end);
        if let Some(rest) = name.strip_prefix(':') {
            self.errors.push(ReadError::DoubleColon {
                span,
                name: rest.trim_start_matches(':').to_string(),
            });
        } else if name.is_empty() || name.ends_with('/') || name.starts_with('/') {
            self.errors.push(ReadError::BadKeyword { span });
        }
        Ok(Form {
            kind: Kind::Keyword(name),
            span,
        })
    }

    fn number(&mut self, start: usize) -> Result<Form<'a>, ReadError> {
        let (_, text) = token(self.rest()).unwrap_or(("", ""));
        self.pos = start + text.len();
        let span = Span::new(start, self.pos);
        let digits = text.trim_start_matches(['+', '-']);
        // Dice (`3d6+2`) are a symbol to the reader; the checker reads them,
        // and says what is wrong with a misspelt one in terms of dice.
        if crate::dice::looks_like(text) {
            return Ok(Form {
                kind: Kind::Symbol(text),
                span,
            });
        }
        let kind = if digits.bytes().all(|b| b.is_ascii_digit()) {
            match text.trim_start_matches('+').parse::<i64>() {
                Ok(n) => Kind::Int(n),
                Err(_) => {
                    self.errors.push(ReadError::IntOverflow {
                        span,
                        text: text.into(),
                    });
                    Kind::Int(0)
                }
            }
        } else if is_decimal(digits) {
            match text.parse::<f64>() {
                Ok(d) if d.is_finite() => Kind::Dec(d),
                Ok(_) => {
                    self.errors.push(ReadError::DecimalOutOfRange {
                        span,
                        text: text.into(),
                    });
                    Kind::Dec(0.0)
                }
                _ => {
                    self.errors.push(ReadError::BadNumber {
                        span,
                        text: text.into(),
                    });
                    Kind::Dec(0.0)
                }
            }
        } else {
            self.errors.push(ReadError::BadNumber {
                span,
                text: text.into(),
            });
            Kind::Int(0)
        };
        Ok(Form { kind, span })
    }

    fn symbol(&mut self, start: usize) -> Result<Form<'a>, ReadError> {
        let Ok((_, text)) = token(self.rest()) else {
            let c = self.rest().chars().next().unwrap_or(' ');
            let what = match c {
                '\\' => "`\\`: character literals are not supported; use a string".into(),
                '"' => "quote".into(),
                c if c.is_control() => format!("control character U+{:04X}", c as u32),
                c => format!("character `{c}`"),
            };
            return Err(ReadError::UnexpectedChar {
                span: Span::new(start, start + c.len_utf8()),
                what,
            });
        };
        self.pos = start + text.len();
        let kind = match text {
            "nil" => Kind::Nil,
            "true" => Kind::Bool(true),
            "false" => Kind::Bool(false),
            s => Kind::Symbol(s),
        };
        Ok(Form {
            kind,
            span: Span::new(start, self.pos),
        })
    }
}

fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| from + i)
}

/// `1.5`, `2e3`, `1.5e-3`: digits, an optional fraction, an optional exponent.
fn is_decimal(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(int)
        && frac.is_none_or(digits)
        && exponent.is_none_or(|e| digits(e.trim_start_matches(['+', '-'])))
        && (frac.is_some() || exponent.is_some())
}

fn hash_value(form: &Form<'_>, h: &mut DefaultHasher) {
    std::mem::discriminant(&form.kind).hash(h);
    match &form.kind {
        Kind::Nil => {}
        Kind::Bool(b) => b.hash(h),
        Kind::Int(n) => n.hash(h),
        Kind::Dec(d) => d.to_bits().hash(h),
        Kind::Str(s) => s.hash(h),
        Kind::Keyword(s) | Kind::Symbol(s) => s.hash(h),
        Kind::Vector(v) | Kind::List(v) | Kind::Set(v) => v.iter().for_each(|f| hash_value(f, h)),
        Kind::Map(m) => m.iter().for_each(|(k, v)| {
            hash_value(k, h);
            hash_value(v, h);
        }),
    }
}
