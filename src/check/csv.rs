//! Card spreadsheets: a `Cards.csv` as seed 004 keeps them, read as card definitions.
//!
//! Columns `name, description, discardable, play-again, type, cost, effects`
//! (any order, named by the header row). Every cell but `name` and
//! `description` is read as the language's own syntax, so `:bricks`, `true`
//! and `[{:effected :you …}]` mean what they mean in an `.edn` file. Each row
//! becomes the same map an `.edn` card is, with every span pointing into the
//! CSV file itself, so a diagnostic names the CSV line and column.

use std::borrow::Cow;

use crate::diag::{Code, Diagnostic};
use crate::syntax::{Arena, Form, Kind, Span, read};

/// The columns a card spreadsheet has, and the card key each becomes.
pub const COLUMNS: &[(&str, &str)] = &[
    ("name", "card"),
    ("description", "text"),
    ("discardable", "discardable"),
    ("play-again", "play-again"),
    ("type", "type"),
    ("cost", "cost"),
    ("effects", "effects"),
];

/// One cell: its text (quotes removed, `""` unescaped) and where it is in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell<'a> {
    /// The text.
    pub text: Cow<'a, str>,
    /// The cell in the file, quotes included.
    pub span: Span,
    /// File offset of each byte of `text`, when unescaping moved them; else `text` starts at `body`.
    map: Option<Vec<u32>>,
    body: u32,
}

impl Cell<'_> {
    /// The file offset of byte `at` of the cell's text.
    pub fn offset(&self, at: u32) -> u32 {
        match &self.map {
            Some(map) => map
                .get(at as usize)
                .copied()
                .unwrap_or_else(|| map.last().map_or(self.body, |&l| l + 1)),
            None => self.body + at,
        }
    }

    fn file_span(&self, s: Span) -> Span {
        Span {
            start: self.offset(s.start),
            end: self.offset(s.end),
        }
    }
}

/// Splits CSV text into rows of cells (RFC 4180: quoted cells may hold commas,
/// `""` and newlines). A row that cannot be read (a quote never closed, text
/// after a closing quote) is reported in `diags` and left out, and reading
/// goes on at the next line, so one bad row costs only itself.
pub fn rows<'t>(text: &'t str, diags: &mut Vec<Diagnostic>) -> Vec<Vec<Cell<'t>>> {
    let bytes = text.as_bytes();
    let mut rows = Vec::new();
    let mut row = Vec::new();
    // Spreadsheets saved as "CSV UTF-8" start with a byte-order mark.
    let mut i = if text.starts_with('\u{feff}') { 3 } else { 0 };
    // Where the row being read starts, to skip it whole when it breaks.
    let mut row_start = i;
    while i < bytes.len() {
        let cell = if bytes.get(i) == Some(&b'"') {
            quoted(text, i, row_start)
        } else {
            let end = bytes[i..]
                .iter()
                .position(|&b| matches!(b, b',' | b'\n' | b'\r'))
                .map_or(bytes.len(), |p| i + p);
            Ok((
                Cell {
                    text: Cow::Borrowed(&text[i..end]),
                    span: Span::new(i, end),
                    map: None,
                    body: i as u32,
                },
                end,
            ))
        };
        let (cell, end) = match cell {
            Ok(c) => c,
            Err(e) => {
                let (d, resume) = *e;
                diags.push(d);
                row.clear();
                i = resume;
                row_start = i;
                continue;
            }
        };
        row.push(cell);
        i = end;
        match bytes.get(i) {
            Some(b',') => i += 1,
            Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => {
                i += 2;
                rows.push(std::mem::take(&mut row));
                row_start = i;
            }
            Some(b'\n' | b'\r') => {
                i += 1;
                rows.push(std::mem::take(&mut row));
                row_start = i;
            }
            _ => break,
        }
    }
    if !row.is_empty() {
        rows.push(row);
    }
    // A trailing newline leaves no empty last row; blank lines are dropped.
    rows.retain(|r| !(r.len() == 1 && r[0].text.trim().is_empty()));
    rows
}

/// The start of the line after the one holding byte `at`, or the end.
fn next_line(bytes: &[u8], at: usize) -> usize {
    bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| at + p + 1)
}

/// The quoted cell opening at `start` (in the row starting at `row_start`)
/// and where it ends; or the error, and where reading resumes.
fn quoted(
    text: &str,
    start: usize,
    row_start: usize,
) -> Result<(Cell<'_>, usize), Box<(Diagnostic, usize)>> {
    let bytes = text.as_bytes();
    let mut owned: Option<(String, Vec<u32>)> = None;
    let mut j = start + 1;
    // A quote left open runs on into the rows below; said at the quote, and
    // reading resumes on the line after it.
    let unclosed = || {
        Diagnostic::new(
            Code::CsvUnclosedQuote,
            Span::new(start, start + 1),
            "this quoted cell is never closed",
        )
        .with_label("opening quote")
        .with_help("close it with `\"`; write a quote inside a cell as `\"\"`")
    };
    loop {
        match bytes.get(j) {
            None => return Err(Box::new((unclosed(), next_line(bytes, start)))),
            Some(b'"') if bytes.get(j + 1) == Some(&b'"') => {
                let (buf, map) = owned.get_or_insert_with(|| {
                    let head = &text[start + 1..j];
                    (head.to_string(), (start as u32 + 1..j as u32).collect())
                });
                buf.push('"');
                map.push(j as u32);
                j += 2;
            }
            Some(b'"') => break,
            Some(_) => {
                let ch = text[j..].chars().next().unwrap_or('\u{fffd}');
                if let Some((buf, map)) = &mut owned {
                    buf.push(ch);
                    map.extend((0..ch.len_utf8() as u32).map(|k| j as u32 + k));
                }
                j += ch.len_utf8();
            }
        }
    }
    let end = j + 1;
    match bytes.get(end) {
        None | Some(b',' | b'\n' | b'\r') => {}
        // Text after the closing quote: if the cell ran over a line end, the
        // quote that opened it was the one never closed.
        Some(_) if text[start..j].contains('\n') => {
            return Err(Box::new((unclosed(), next_line(bytes, start))));
        }
        Some(_) => {
            // The whole character, so the span ends on a character boundary.
            let width = text[end..].chars().next().map_or(1, char::len_utf8);
            let d = Diagnostic::new(
                Code::CsvTextAfterQuote,
                Span::new(end, end + width),
                "unexpected text after a quoted cell",
            )
            .with_help("a quoted cell ends at its closing quote; put a comma after it");
            return Err(Box::new((d, next_line(bytes, end.max(row_start)))));
        }
    }
    let (text_cow, map) = match owned {
        Some((buf, map)) => (Cow::Owned(buf), Some(map)),
        None => (Cow::Borrowed(&text[start + 1..j]), None),
    };
    Ok((
        Cell {
            text: text_cow,
            span: Span::new(start, end),
            map,
            body: start as u32 + 1,
        },
        end,
    ))
}

/// Turns a card spreadsheet into card maps, as if each row had been written `{:card … :effects …}`.
///
/// The cells own their text when it had to be unescaped, so the maps are built
/// from `cells`, which the caller keeps alive.
pub fn cards<'c>(
    arena: &'c Arena,
    cells: &'c [Vec<Cell<'_>>],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Form<'c>> {
    let Some((header, body)) = cells.split_first() else {
        diags.push(Diagnostic::new(
            Code::CsvNoHeader,
            Span::new(0, 0),
            "this spreadsheet is empty: expected a header row",
        ));
        return Vec::new();
    };
    let mut columns: Vec<Option<&'static str>> = Vec::with_capacity(header.len());
    for cell in header {
        let name = cell.text.trim();
        match COLUMNS.iter().find(|(c, _)| c.eq_ignore_ascii_case(name)) {
            Some((_, key)) => columns.push(Some(key)),
            None => {
                diags.push(
                    Diagnostic::new(
                        Code::CsvUnknownColumn,
                        cell.span,
                        format!("unknown column `{name}`"),
                    )
                    .suggest(name, COLUMNS.iter().map(|(c, _)| *c), str::to_string)
                    .with_help_if_none(format!(
                        "the columns are {}",
                        COLUMNS
                            .iter()
                            .map(|(c, _)| *c)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
                columns.push(None);
            }
        }
    }
    for (column, key) in COLUMNS {
        if !columns.contains(&Some(key)) && *key != "text" {
            let span = header.first().map_or(Span::default(), |c| {
                c.span.to(header[header.len() - 1].span)
            });
            diags.push(Diagnostic::new(
                Code::CsvMissingColumn,
                span,
                format!("the header has no `{column}` column"),
            ));
        }
    }
    let mut out = Vec::with_capacity(body.len());
    for row in body {
        let row_span = row
            .first()
            .map_or(Span::default(), |c| c.span.to(row[row.len() - 1].span));
        if row.len() != header.len() {
            diags.push(
                Diagnostic::new(
                    Code::RowLength,
                    row_span,
                    format!(
                        "this row has {} cells; the header has {}",
                        row.len(),
                        header.len()
                    ),
                )
                .with_help("a cell with a comma in it must be quoted: \"+2 Bricks, +2 Gems\""),
            );
            continue;
        }
        let mut pairs = Vec::with_capacity(row.len());
        // A cell that did not read has said so; the row is not checked on
        // without it (no "a card needs `:effects`" after an unclosed `[`).
        let mut broken = false;
        for (cell, key) in row.iter().zip(&columns) {
            let Some(key) = *key else { continue };
            let key_form = Form {
                kind: Kind::Keyword(key),
                span: cell.span,
            };
            let value = match key {
                "card" | "text" => Form {
                    kind: Kind::Str(cell.text.trim()),
                    span: cell.span,
                },
                _ => match value_of(arena, cell, diags) {
                    Some(v) => v,
                    None => {
                        broken = true;
                        continue;
                    }
                },
            };
            pairs.push((key_form, value));
        }
        if broken {
            continue;
        }
        out.push(Form {
            kind: Kind::Map(arena.pairs(&pairs)),
            span: row_span,
        });
    }
    out
}

/// Reads one cell as a form, with spans moved into the file.
fn value_of<'c>(
    arena: &'c Arena,
    cell: &'c Cell<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Form<'c>> {
    let read = read(arena, &cell.text);
    if !read.errors.is_empty() {
        for e in &read.errors {
            let mut d = Diagnostic::from(e);
            d.span = cell.file_span(d.span);
            for (span, _) in &mut d.related {
                *span = cell.file_span(*span);
            }
            diags.push(d);
        }
        return None;
    }
    let mut forms = read.forms;
    match forms.len() {
        1 => Some(remap(arena, forms.pop()?, cell)),
        0 => {
            diags.push(Diagnostic::new(
                Code::CsvEmptyCell,
                cell.span,
                "this cell is empty",
            ));
            None
        }
        _ => {
            diags.push(Diagnostic::new(
                Code::CsvTwoValues,
                cell.file_span(forms[1].span),
                "a cell holds one value; this is a second",
            ));
            None
        }
    }
}

/// `form` with every span moved from the cell's text into the file's.
fn remap<'c>(arena: &'c Arena, form: Form<'c>, cell: &Cell<'_>) -> Form<'c> {
    let kind = match form.kind {
        Kind::Vector(items) => Kind::Vector(remap_all(arena, items, cell)),
        Kind::List(items) => Kind::List(remap_all(arena, items, cell)),
        Kind::Set(items) => Kind::Set(remap_all(arena, items, cell)),
        Kind::Map(pairs) => {
            let pairs: Vec<_> = pairs
                .iter()
                .map(|&(k, v)| (remap(arena, k, cell), remap(arena, v, cell)))
                .collect();
            Kind::Map(arena.pairs(&pairs))
        }
        atom => atom,
    };
    Form {
        kind,
        span: cell.file_span(form.span),
    }
}

fn remap_all<'c>(arena: &'c Arena, items: &[Form<'c>], cell: &Cell<'_>) -> &'c [Form<'c>] {
    let items: Vec<_> = items.iter().map(|&f| remap(arena, f, cell)).collect();
    arena.forms(&items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_handle_quotes_commas_escapes_and_line_ends() {
        let text = "a,\"b, c\",\"say \"\"hi\"\"\"\r\nd,,e\n";
        let rows = rows(text, &mut Vec::new());
        assert_eq!(rows.len(), 2);
        let texts: Vec<&str> = rows[0].iter().map(|c| c.text.as_ref()).collect();
        assert_eq!(texts, ["a", "b, c", "say \"hi\""]);
        // The `h` of `hi` sits after the escaped quote: its file offset skips one byte.
        let cell = &rows[0][2];
        let h = cell.text.find('h').unwrap() as u32;
        assert_eq!(
            &text[cell.offset(h) as usize..cell.offset(h) as usize + 1],
            "h"
        );
        let texts: Vec<&str> = rows[1].iter().map(|c| c.text.as_ref()).collect();
        assert_eq!(texts, ["d", "", "e"]);
    }

    #[test]
    fn an_unclosed_quote_is_an_error() {
        let mut diags = Vec::new();
        rows("a,\"b\n", &mut diags);
        assert_eq!(diags.len(), 1);
    }
}
