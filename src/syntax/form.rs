//! The spanned syntax tree the reader produces, and the arena it lives in.

use std::fmt;

use super::Span;

/// Where a read's collections and unescaped strings are kept: one bump
/// arena, so a tree of a million forms costs a few large allocations and is
/// freed at once, not node by node. Forms borrow it (and the source text)
/// for `'a`, which is why [`read`](super::read) takes one.
///
/// ```
/// use grimoire::syntax::{Arena, read};
/// let arena = Arena::new();
/// let read = read(&arena, "[:you :wall]");
/// assert_eq!(read.forms[0].to_string(), "[:you :wall]");
/// ```
#[derive(Default)]
pub struct Arena(bumpalo::Bump);

impl Arena {
    /// An empty arena.
    pub fn new() -> Self {
        Arena(bumpalo::Bump::new())
    }

    /// `forms` copied into the arena: the items of a new collection.
    pub fn forms<'a>(&'a self, forms: &[Form<'a>]) -> &'a [Form<'a>] {
        self.0.alloc_slice_copy(forms)
    }

    /// `pairs` copied into the arena: the entries of a new map.
    pub fn pairs<'a>(&'a self, pairs: &[(Form<'a>, Form<'a>)]) -> &'a [(Form<'a>, Form<'a>)] {
        self.0.alloc_slice_copy(pairs)
    }

    /// The items of `forms`, taken two at a time, as a map's entries (a last
    /// odd item is left out).
    pub(crate) fn pairs_of<'a>(&'a self, forms: &[Form<'a>]) -> &'a [(Form<'a>, Form<'a>)] {
        self.0
            .alloc_slice_fill_iter(forms.chunks_exact(2).map(|kv| (kv[0], kv[1])))
    }

    /// `text` copied into the arena: a string whose escapes were resolved.
    pub fn str<'a>(&'a self, text: &str) -> &'a str {
        self.0.alloc_str(text)
    }

    /// Bytes the arena holds: what reading cost in memory.
    pub fn allocated_bytes(&self) -> usize {
        self.0.allocated_bytes()
    }
}

impl fmt::Debug for Arena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Arena({} bytes)", self.allocated_bytes())
    }
}

/// One EDN form and the bytes it came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Form<'a> {
    /// What the form is.
    pub kind: Kind<'a>,
    /// Where it is in the source text.
    pub span: Span,
}

/// The kinds of form in grimoire's EDN subset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind<'a> {
    /// `nil`
    Nil,
    /// `true`, `false`
    Bool(bool),
    /// `42`, `-7`
    Int(i64),
    /// `1.5`, `-0.25`, `1e3`
    Dec(f64),
    /// `"text"`, escapes resolved (the source's bytes when it has none,
    /// else a copy in the arena).
    Str(&'a str),
    /// `:wall`, `:ns/name`: the text after the colon.
    Keyword(&'a str),
    /// `<`, `not=`, `effected`
    Symbol(&'a str),
    /// `[a b]`
    Vector(&'a [Form<'a>]),
    /// `(a b)`
    List(&'a [Form<'a>]),
    /// `{k v}`, in source order; the reader rejects duplicate keys.
    Map(&'a [(Form<'a>, Form<'a>)]),
    /// `#{a b}`, in source order; the reader rejects duplicates.
    Set(&'a [Form<'a>]),
}

impl<'a> Form<'a> {
    /// The keyword's name (without the colon), if this is a keyword.
    pub fn as_keyword(&self) -> Option<&'a str> {
        match self.kind {
            Kind::Keyword(k) => Some(k),
            _ => None,
        }
    }

    /// The symbol's name, if this is a symbol.
    pub fn as_symbol(&self) -> Option<&'a str> {
        match self.kind {
            Kind::Symbol(s) => Some(s),
            _ => None,
        }
    }

    /// True if this is a map with the keyword key `:key`.
    pub fn has_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The value of the keyword key `:key`, if this is a map that has it.
    pub fn get(&self, key: &str) -> Option<&'a Form<'a>> {
        match self.kind {
            Kind::Map(pairs) => pairs
                .iter()
                .find(|(k, _)| k.as_keyword() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// A short noun for messages: "a vector", "the keyword `:wall`".
    pub fn describe(&self) -> String {
        self.kind.describe()
    }

    /// True if both forms denote the same EDN value (spans ignored; `1` and `1.0` differ).
    pub fn same_value(&self, other: &Form<'_>) -> bool {
        use Kind::*;
        match (self.kind, other.kind) {
            (Nil, Nil) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) => a == b,
            (Dec(a), Dec(b)) => a.to_bits() == b.to_bits(),
            (Str(a), Str(b)) => a == b,
            (Keyword(a), Keyword(b)) | (Symbol(a), Symbol(b)) => a == b,
            (Vector(a), Vector(b)) | (List(a), List(b)) | (Set(a), Set(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_value(y))
            }
            (Map(a), Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((k1, v1), (k2, v2))| k1.same_value(k2) && v1.same_value(v2))
            }
            _ => false,
        }
    }
}

impl Kind<'_> {
    /// A short noun for messages.
    pub fn describe(&self) -> String {
        match self {
            Kind::Nil => "`nil`".into(),
            Kind::Bool(b) => format!("`{b}`"),
            Kind::Int(n) => format!("the integer {n}"),
            Kind::Dec(d) => format!("the decimal {d}"),
            Kind::Str(_) => "a string".into(),
            Kind::Keyword(k) => format!("the keyword `:{k}`"),
            Kind::Symbol(s) => format!("the symbol `{s}`"),
            Kind::Vector(_) => "a vector".into(),
            Kind::List(_) => "a list".into(),
            Kind::Map(_) => "a map".into(),
            Kind::Set(_) => "a set".into(),
        }
    }
}

/// Prints the form back as EDN (canonical spacing, comments gone).
impl fmt::Display for Form<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn seq(f: &mut fmt::Formatter<'_>, items: &[Form<'_>]) -> fmt::Result {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{item}")?;
            }
            Ok(())
        }
        match &self.kind {
            Kind::Nil => f.write_str("nil"),
            Kind::Bool(b) => write!(f, "{b}"),
            Kind::Int(n) => write!(f, "{n}"),
            Kind::Dec(d) => write!(f, "{d:?}"),
            Kind::Str(s) => {
                // EDN's escapes, so the text reads back as the same string.
                f.write_str("\"")?;
                for c in s.chars() {
                    match c {
                        '"' => f.write_str("\\\"")?,
                        '\\' => f.write_str("\\\\")?,
                        '\n' => f.write_str("\\n")?,
                        '\t' => f.write_str("\\t")?,
                        '\r' => f.write_str("\\r")?,
                        c if c.is_control()
                            || (c as u32 <= 0xffff && c.is_whitespace() && c != ' ')
                            || c == '\u{200b}' =>
                        {
                            write!(f, "\\u{:04x}", c as u32)?
                        }
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
            Kind::Keyword(k) => write!(f, ":{k}"),
            Kind::Symbol(s) => f.write_str(s),
            Kind::Vector(v) => {
                f.write_str("[")?;
                seq(f, v)?;
                f.write_str("]")
            }
            Kind::List(v) => {
                f.write_str("(")?;
                seq(f, v)?;
                f.write_str(")")
            }
            Kind::Set(v) => {
                f.write_str("#{")?;
                seq(f, v)?;
                f.write_str("}")
            }
            Kind::Map(m) => {
                f.write_str("{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{k} {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}
