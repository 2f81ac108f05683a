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

use crate::ast::{CategoryId, StatusDef};
use crate::check::keys::Keys;
use crate::defs::{DefKind, Definition};
use crate::diag::Diagnostic;
use crate::rules::RuleSet;
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

/// A row of a status table, one whose header names `Name`, `Trigger` and
/// `Category` (seed 000's buff and debuff tables): a status, or what a status
/// defined elsewhere must agree with.
#[derive(Clone, Debug)]
pub struct StatusRow<'a> {
    /// Its id (`heal1`).
    pub name: Cell<'a>,
    /// The timing it acts at (`etiOnTurnEnd`); `-` or empty for none.
    pub trigger: Cell<'a>,
    /// Its category.
    pub category: Cell<'a>,
    /// What it does, for players; empty for a row that does not say.
    pub description: Option<Cell<'a>>,
    /// Buff or debuff, from the heading above its table ("Buffs", "Debuffs").
    pub polarity: Option<crate::ast::Polarity>,
    /// The whole row.
    pub span: Span,
}

/// A row of a category table, one whose header names `Category`, `Trigger`
/// and `Calc` (seed 000's scaling table).
#[derive(Clone, Debug)]
pub struct CategoryRow<'a> {
    /// The category it scales.
    pub category: Cell<'a>,
    /// The timing the scale applies at.
    pub trigger: Cell<'a>,
}

/// The status rows and category rows of the tables of `text`; other tables are skipped.
pub fn status_tables<'a>(
    text: &'a str,
    tables: &[Table<'a>],
) -> (Vec<StatusRow<'a>>, Vec<CategoryRow<'a>>) {
    let mut statuses = Vec::new();
    let mut categories = Vec::new();
    for table in tables {
        let (name, trigger, category) = (
            table.column("Name"),
            table.column("Trigger"),
            table.column("Category"),
        );
        if let (Some(n), Some(t), Some(c)) = (name, trigger, category) {
            let polarity = polarity_above(text, table.span.start as usize);
            let description = table.column("Description");
            statuses.extend(table.rows.iter().map(|row| {
                StatusRow {
                    name: row.cells[n].clone(),
                    trigger: row.cells[t].clone(),
                    category: row.cells[c].clone(),
                    description: description
                        .map(|d| row.cells[d].clone())
                        .filter(|d| !d.text.is_empty()),
                    polarity,
                    span: row.span,
                }
            }));
        } else if let (None, Some(t), Some(c), Some(_)) =
            (name, trigger, category, table.column("Calc"))
        {
            categories.extend(table.rows.iter().map(|row| CategoryRow {
                category: row.cells[c].clone(),
                trigger: row.cells[t].clone(),
            }));
        }
    }
    (statuses, categories)
}

/// Buff or debuff, as the nearest heading above byte `at` says ("## Debuffs (Enemy)").
fn polarity_above(text: &str, at: usize) -> Option<crate::ast::Polarity> {
    let heading = text
        .get(..at)?
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('#'))?
        .to_ascii_lowercase();
    if heading.contains("debuff") {
        Some(crate::ast::Polarity::Debuff)
    } else if heading.contains("buff") {
        Some(crate::ast::Polarity::Buff)
    } else {
        None
    }
}

/// Checks a category table's rows: a row naming no category of `rules` but
/// near one is a misspelling (`ecaaBlockDebuffs`); a row near none is about
/// something else (the damage itself) and is skipped. Triggers are timings.
pub fn check_categories(rows: &[CategoryRow<'_>], rules: &RuleSet, diags: &mut Vec<Diagnostic>) {
    for row in rows {
        let name = row.category.text.as_ref();
        let declared = rules.categories.iter().map(String::as_str);
        if rules.categories.iter().all(|c| c != name)
            && let Some(near) = crate::diag::nearest(name, declared)
        {
            diags.push(
                Diagnostic::error(
                    row.category.span,
                    format!("`{name}` is not a category of rule set `{}`", rules.name),
                )
                .with_label("not a category")
                .with_help(format!("did you mean `{near}`?")),
            );
        }
        trigger(&row.trigger, rules, diags);
    }
}

/// The timing a trigger cell names; `-` or empty names none.
fn trigger(cell: &Cell<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<u16> {
    let name = cell.text.as_ref();
    if name.is_empty() || name == "-" {
        return None;
    }
    rules.timing(name).or_else(|| {
        rules.declared_timing(name, &name, cell.span, diags);
        None
    })
}

/// Checks one status row against the `.edn` status of the same id, if there is
/// one (`joined`, with its file's path); a described row with none becomes a
/// status of its own, which only names its polarity and category.
pub fn check_row(
    row: &StatusRow<'_>,
    rules: &RuleSet,
    joined: Option<(&StatusDef, &str)>,
    source: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<Definition> {
    let id = row.name.text.as_ref();
    let category = match row.category.text.as_ref() {
        "" | "-" => None,
        name => match rules.categories.iter().position(|c| c == name) {
            Some(c) => Some(c as CategoryId),
            None => {
                diags.push(
                    Diagnostic::error(
                        row.category.span,
                        format!("`{name}` is not a category of rule set `{}`", rules.name),
                    )
                    .with_label("not a category")
                    .suggest(
                        name,
                        rules.categories.iter().map(String::as_str),
                        |s| s.to_string(),
                    ),
                );
                return None;
            }
        },
    };
    let timing = trigger(&row.trigger, rules, diags);
    let Some((status, path)) = joined else {
        if row.description.is_none() {
            diags.push(
                Diagnostic::warning(
                    row.name.span,
                    format!("`{id}` has no description and no definition: it is undefined"),
                )
                .with_label("undefined")
                .with_help(format!(
                    "describe it, and write what it does as `{{:status :{id} …}}` in an `.edn` file"
                )),
            );
            return None;
        }
        let Some(polarity) = row.polarity else {
            diags.push(
                Diagnostic::error(row.name.span, format!("cannot tell whether `{id}` is a buff or a debuff"))
                    .with_label("no polarity")
                    .with_help("put the table under a heading that says Buffs or Debuffs, or define it in an `.edn` file"),
            );
            return None;
        };
        diags.push(
            Diagnostic::warning(
                row.name.span,
                format!(
                    "`{id}` does nothing: a table row names a status but cannot say what it does"
                ),
            )
            .with_label("no effects")
            .with_help(format!(
                "write what it does as `{{:status :{id} …}}` in an `.edn` file"
            )),
        );
        return Some(Definition {
            kind: DefKind::Status,
            name: id.to_string(),
            text: row.description.as_ref().map(|d| d.text.to_string()),
            effects: Vec::new(),
            play: crate::defs::CardRules::default(),
            status: Some(StatusDef {
                polarity,
                category,
                ..StatusDef::default()
            }),
            rules: rules.name.clone(),
            source,
            span: row.span,
        });
    };
    let name_of = |c: Option<CategoryId>| {
        c.and_then(|c| rules.categories.get(usize::from(c)))
            .map_or("none".to_string(), |c| format!("`{c}`"))
    };
    if category != status.category {
        diags.push(
            Diagnostic::error(
                row.category.span,
                format!(
                    "the table says `{id}` is of category {}; its definition in {path} says {}",
                    name_of(category),
                    name_of(status.category)
                ),
            )
            .with_label("disagrees with the definition"),
        );
    }
    if let Some(p) = row.polarity
        && p != status.polarity
    {
        diags.push(
            Diagnostic::error(
                row.name.span,
                format!(
                    "the table lists `{id}` as a {}; its definition in {path} is a {}",
                    p.name(),
                    status.polarity.name()
                ),
            )
            .with_label("disagrees with the definition"),
        );
    }
    if let Some(t) = timing
        && !status.hooks.is_empty()
        && status.hooks.iter().all(|(h, _)| *h != t)
    {
        let at: Vec<String> = status
            .hooks
            .iter()
            .filter_map(|(h, _)| rules.timings.get(usize::from(*h)))
            .map(|t| format!("`{}`", t.name))
            .collect();
        diags.push(
            Diagnostic::warning(
                row.trigger.span,
                format!(
                    "the table says `{id}` acts at `{}`; its definition in {path} acts at {}",
                    row.trigger.text,
                    crate::check::list_and(at)
                ),
            )
            .with_label("a different timing"),
        );
    }
    None
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
