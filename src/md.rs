//! Markdown tables as a data source: designers keep buff and debuff tables in
//! markdown documents (seeds 000 and 001 do), so grimoire reads the tables of a
//! `.md` file and skips its other text, as it reads the rows of a `Cards.csv`.
//!
//! Tables are GitHub-flavoured: a header row, a delimiter row (`|---|:--:|`),
//! then body rows until a blank line or a line without `|`. Leading and
//! trailing pipes are optional, `\|` is a pipe inside a cell, and pipes inside
//! backtick code spans do not split cells. Fenced code blocks are skipped.
//! Every cell keeps its byte span in the document, so a diagnostic about a
//! cell points at its line and column. Markdown would pad or cut a row whose
//! cell count differs from the header's; a data source must not lose or invent
//! cells, so such a row is reported.

use std::borrow::Cow;

use crate::diag::Diagnostic;
use crate::syntax::Span;

/// One cell: its text, trimmed and unescaped, and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell<'a> {
    /// The text, without surrounding spaces; `\|` read as `|`.
    pub text: Cow<'a, str>,
    /// The trimmed text's bytes in the document (an empty cell: where it would be).
    pub span: Span,
}

/// One body row of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// Its cells, as many as the header has.
    pub cells: Vec<Cell<'a>>,
    /// The whole line, without its line break.
    pub span: Span,
}

/// A table: its header and its body rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table<'a> {
    /// The header's cells.
    pub header: Vec<Cell<'a>>,
    /// The body rows whose cell count matches the header's.
    pub rows: Vec<Row<'a>>,
    /// From the header line to the end of the last row.
    pub span: Span,
}

impl Table<'_> {
    /// The header's names, in order.
    pub fn columns(&self) -> impl Iterator<Item = &str> {
        self.header.iter().map(|c| c.text.as_ref())
    }

    /// The index of the column called `name`, compared without regard to case.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header
            .iter()
            .position(|c| c.text.eq_ignore_ascii_case(name))
    }
}

/// The lines of `text`: each line's start and its content without `\n` or `\r\n`.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    text.split_inclusive('\n').map(move |raw| {
        let at = start;
        start += raw.len();
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        (at, line.strip_suffix('\r').unwrap_or(line))
    })
}

/// The cells of one table line starting at byte `at`, or `None` if it has no pipe.
fn cells(line: &str, at: usize) -> Option<Vec<Cell<'_>>> {
    if !line.contains('|') {
        return None;
    }
    // Cut at pipes outside code spans and not escaped; keep each piece's offset.
    let bytes = line.as_bytes();
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let (mut from, mut i, mut code) = (0, 0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if i + 1 < bytes.len() && bytes[i + 1] == b'|' => i += 1,
            b'`' => code = !code,
            b'|' if !code => {
                pieces.push((from, i));
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    pieces.push((from, bytes.len()));
    // A leading or trailing pipe opens or closes the row; it makes no empty cell.
    if line.trim_start().starts_with('|') {
        pieces.remove(0);
    }
    if line.trim_end().ends_with('|') && !line.trim_end().ends_with("\\|") && !pieces.is_empty() {
        pieces.pop();
    }
    Some(
        pieces
            .into_iter()
            .map(|(s, e)| {
                let raw = &line[s..e];
                let lead = raw.len() - raw.trim_start().len();
                let trimmed = raw.trim();
                let start = at + s + lead;
                let text = if trimmed.contains("\\|") {
                    Cow::Owned(trimmed.replace("\\|", "|"))
                } else {
                    Cow::Borrowed(trimmed)
                };
                Cell {
                    text,
                    span: Span::new(start, start + trimmed.len()),
                }
            })
            .collect(),
    )
}

/// Whether `cells` form a delimiter row: each `---`, `:--`, `--:` or `:-:`.
fn is_delimiter(cells: &[Cell<'_>]) -> bool {
    !cells.is_empty()
        && cells.iter().all(|c| {
            let t = c.text.trim_start_matches(':').trim_end_matches(':');
            !t.is_empty() && t.bytes().all(|b| b == b'-')
        })
}

/// Whether a line opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// Every table of a markdown document; rows whose cell count differs from their
/// header's are reported in `diags` and left out.
pub fn tables<'a>(text: &'a str, diags: &mut Vec<Diagnostic>) -> Vec<Table<'a>> {
    let all: Vec<(usize, &str)> = lines(text).collect();
    let mut out = Vec::new();
    let mut fenced = false;
    let mut n = 0;
    while n < all.len() {
        let (at, line) = all[n];
        if is_fence(line) {
            fenced = !fenced;
            n += 1;
            continue;
        }
        let header = (!fenced).then(|| cells(line, at)).flatten();
        let delimiter = all
            .get(n + 1)
            .and_then(|&(dat, dline)| cells(dline, dat))
            .filter(|d| is_delimiter(d));
        let (Some(header), Some(delimiter)) = (header, delimiter) else {
            n += 1;
            continue;
        };
        if delimiter.len() != header.len() {
            // Not a table to markdown either: the delimiter must match the header.
            diags.push(
                Diagnostic::error(
                    Span::new(all[n + 1].0, all[n + 1].0 + all[n + 1].1.len()),
                    format!(
                        "this table's delimiter row has {} cells; its header has {}",
                        delimiter.len(),
                        header.len()
                    ),
                )
                .with_label("delimiter row")
                .with_help("give the delimiter row one `---` per column"),
            );
            n += 2;
            continue;
        }
        let mut table = Table {
            span: Span::new(at, at + line.len()),
            header,
            rows: Vec::new(),
        };
        n += 2;
        while let Some(&(rat, rline)) = all.get(n) {
            if rline.trim().is_empty() || is_fence(rline) {
                break;
            }
            let Some(row) = cells(rline, rat) else {
                break;
            };
            let span = Span::new(rat, rat + rline.len());
            table.span = Span::new(table.span.start as usize, span.end as usize);
            if row.len() == table.header.len() {
                table.rows.push(Row { cells: row, span });
            } else {
                diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "this row has {} cells; its table's header has {}",
                            row.len(),
                            table.header.len()
                        ),
                    )
                    .with_label("row")
                    .with_related(table.header_span(), "the header")
                    .with_help("a cell that holds a `|` writes it `\\|`"),
                );
            }
            n += 1;
        }
        out.push(table);
    }
    out
}

impl Table<'_> {
    /// The header row's span.
    fn header_span(&self) -> Span {
        match (self.header.first(), self.header.last()) {
            (Some(a), Some(b)) => Span::new(a.span.start as usize, b.span.end as usize),
            _ => self.span,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(cells: &'a [Cell<'a>]) -> Vec<&'a str> {
        cells.iter().map(|c| c.text.as_ref()).collect()
    }

    #[test]
    fn tables_are_read_with_spans_and_other_text_is_skipped() {
        let doc = "# Title\n\nSome | text that is not a table.\n\n| Name | Value |\n|------|:-----:|\n| heal1 | 16 |\n|  a `x|y` b | c \\| d |\n\nafter\n";
        let mut diags = Vec::new();
        let t = tables(doc, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].columns().collect::<Vec<_>>(), ["Name", "Value"]);
        assert_eq!(texts(&t[0].rows[0].cells), ["heal1", "16"]);
        assert_eq!(texts(&t[0].rows[1].cells), ["a `x|y` b", "c | d"]);
        let heal = &t[0].rows[0].cells[0];
        assert_eq!(
            &doc[heal.span.start as usize..heal.span.end as usize],
            "heal1"
        );
        assert_eq!(t[0].column("value"), Some(1));
    }

    #[test]
    fn pipes_without_outer_bars_fenced_code_and_crlf() {
        let doc = "```\n| not | a |\n|---|---|\n```\nA | B\n--- | ---\n1 | 2\r\n";
        let mut diags = Vec::new();
        let t = tables(doc, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].columns().collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(texts(&t[0].rows[0].cells), ["1", "2"]);
    }

    #[test]
    fn a_row_with_the_wrong_number_of_cells_is_reported_not_padded() {
        let doc = "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 | 5 |\n";
        let mut diags = Vec::new();
        let t = tables(doc, &mut diags);
        assert_eq!(t[0].rows.len(), 1);
        assert_eq!(diags.len(), 1);
        assert!(diags[0].message.contains("this row has 3 cells"));
        assert_eq!(diags[0].span.start, 20);
    }

    #[test]
    fn empty_cells_are_cells() {
        let doc = "| a | b | c |\n|---|---|---|\n| x |   | |\n";
        let mut diags = Vec::new();
        let t = tables(doc, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(texts(&t[0].rows[0].cells), ["x", "", ""]);
    }
}
