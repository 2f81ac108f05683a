//! Byte spans and the line index that turns them into lines and columns.

use serde::Serialize;

/// A half-open byte range `start..end` in one source text.
///
/// Spans are plain offsets so that every syntax node can carry one for free;
/// lines and columns are computed only when a diagnostic is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`; offsets past `u32::MAX` saturate (the reader refuses such files).
    pub fn new(start: usize, end: usize) -> Span {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Span {
            start: clamp(start),
            end: clamp(end),
        }
    }

    /// The smallest span covering `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The same range moved `by` bytes later: for text embedded in a larger file (a CSV cell).
    pub fn shifted(self, by: u32) -> Span {
        Span {
            start: self.start.saturating_add(by),
            end: self.end.saturating_add(by),
        }
    }

    /// Length in bytes.
    pub fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// True for an empty range.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// A 1-based line and column; the column counts characters, not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// The byte offset of every line start in a text.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    /// Indexes `text`'s line starts (after each `\n`).
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX)),
        );
        LineIndex { starts }
    }

    /// The 0-based line holding byte `offset`.
    fn line_of(&self, offset: u32) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Line and column of byte `offset` in `text` (the text this index was built from).
    pub fn location(&self, text: &str, offset: u32) -> Location {
        let offset = offset.min(u32::try_from(text.len()).unwrap_or(u32::MAX));
        let line = self.line_of(offset);
        let start = self.starts[line] as usize;
        let end = floor_char_boundary(text, offset as usize);
        let column = text.get(start..end).map_or(1, |s| s.chars().count() + 1);
        Location {
            line: line + 1,
            column,
        }
    }

    /// The byte offset where 1-based `line` starts.
    pub fn line_start(&self, line: usize) -> Option<u32> {
        self.starts.get(line.checked_sub(1)?).copied()
    }

    /// The text of 1-based `line`, without its line ending.
    pub fn line_text<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = self
            .starts
            .get(line)
            .map_or(text.len(), |&next| next as usize);
        let s = text.get(start as usize..end).unwrap_or("");
        s.trim_end_matches(['\n', '\r'])
    }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_count_lines_and_characters() {
        let text = "ab\nçd\n\nx";
        let idx = LineIndex::new(text);
        assert_eq!(idx.location(text, 0), Location { line: 1, column: 1 });
        assert_eq!(idx.location(text, 3), Location { line: 2, column: 1 });
        // 'ç' is two bytes; 'd' is the second character.
        assert_eq!(idx.location(text, 5), Location { line: 2, column: 2 });
        assert_eq!(idx.location(text, 8), Location { line: 4, column: 1 });
        assert_eq!(idx.line_text(text, 2), "çd");
        assert_eq!(idx.line_text(text, 3), "");
        assert_eq!(idx.line_text(text, 9), "");
    }
}
