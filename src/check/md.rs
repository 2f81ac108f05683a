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

use crate::check::ast::{CategoryId, StatusDef};
use crate::check::defs::{DefKind, Definition};
use crate::check::keys::Keys;
use crate::check::rules::{Column, RuleSet, TablePolarity, TableShape};
use crate::diag::{Code, Diagnostic};
use crate::ids::{BaseId, TimingId};
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
                Diagnostic::new(
                    Code::RowLength,
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
                    Diagnostic::new(
                        Code::RowLength,
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

/// A row of a status table (a table of a shape of the rule set's `:tables`
/// with a `:status` column): a status, or what a status defined elsewhere
/// must agree with.
#[derive(Clone, Debug)]
pub struct StatusRow<'a> {
    /// The shape its table was read with, by index in the rule set's `:tables`.
    pub shape: usize,
    /// The status it names (`heal1`, `POWER`).
    pub name: Cell<'a>,
    /// The timing it acts at (`etiOnTurnEnd`); `-` or empty for none.
    pub trigger: Option<Cell<'a>>,
    /// Its category.
    pub category: Option<Cell<'a>>,
    /// What its output is computed from (`OutgoingDamage`); `-` or empty for none.
    pub base: Option<Cell<'a>>,
    /// What it does, for players; empty for a row that does not say.
    pub description: Option<Cell<'a>>,
    /// Its figures: what a column says it adds, to be checked against its definition.
    pub figures: Vec<(Column, Cell<'a>)>,
    /// Buff or debuff, where the table says.
    pub polarity: Option<crate::check::ast::Polarity>,
    /// The whole row.
    pub span: Span,
}

/// A row of a category table (a shape with a `:category` column and no
/// `:status` column, such as seed 000's scaling table).
#[derive(Clone, Debug)]
pub struct CategoryRow<'a> {
    /// The category it is about.
    pub category: Cell<'a>,
    /// The timing it applies at.
    pub trigger: Option<Cell<'a>>,
}

/// The shape of `shapes` a table is read with: the first whose columns its
/// header all names, with each column's index in the table.
fn shape_of(table: &Table<'_>, shapes: &[TableShape]) -> Option<(usize, Vec<(usize, Column)>)> {
    shapes.iter().enumerate().find_map(|(k, shape)| {
        let at: Option<Vec<(usize, Column)>> = shape
            .columns
            .iter()
            .map(|(header, c)| table.column(header).map(|i| (i, *c)))
            .collect();
        at.map(|at| (k, at))
    })
}

/// Whether any table of `tables` is of one of `shapes`.
pub fn any_of(tables: &[Table<'_>], shapes: &[TableShape]) -> bool {
    tables.iter().any(|t| shape_of(t, shapes).is_some())
}

/// The status rows and category rows of the tables of `text` that have one of
/// the `shapes` a rule set declares; other tables are skipped.
pub fn status_tables<'a>(
    text: &'a str,
    tables: &[Table<'a>],
    shapes: &[TableShape],
) -> (Vec<StatusRow<'a>>, Vec<CategoryRow<'a>>) {
    let mut statuses = Vec::new();
    let mut categories = Vec::new();
    for table in tables {
        let Some((k, at)) = shape_of(table, shapes) else {
            continue;
        };
        let find = |c: Column| at.iter().find(|(_, col)| *col == c).map(|(i, _)| *i);
        let (trigger, category, text_at, base) = (
            find(Column::Trigger),
            find(Column::Category),
            find(Column::Text),
            find(Column::Base),
        );
        let Some(name) = find(Column::Status) else {
            if let Some(c) = category {
                categories.extend(table.rows.iter().map(|row| CategoryRow {
                    category: row.cells[c].clone(),
                    trigger: trigger.map(|t| row.cells[t].clone()),
                }));
            }
            continue;
        };
        let polarity = match shapes[k].polarity {
            TablePolarity::Unsaid => None,
            TablePolarity::Fixed(p) => Some(p),
            TablePolarity::Heading => polarity_above(text, table.span.start as usize),
        };
        statuses.extend(table.rows.iter().map(|row| {
            StatusRow {
                shape: k,
                name: row.cells[name].clone(),
                trigger: trigger.map(|t| row.cells[t].clone()),
                category: category.map(|c| row.cells[c].clone()),
                base: base.map(|b| row.cells[b].clone()),
                description: text_at
                    .map(|d| row.cells[d].clone())
                    .filter(|d| !d.text.is_empty()),
                figures: at
                    .iter()
                    .filter(|(_, c)| c.is_figure())
                    .map(|(i, c)| (*c, row.cells[*i].clone()))
                    .collect(),
                polarity,
                span: row.span,
            }
        }));
    }
    (statuses, categories)
}

/// Buff or debuff, as the nearest heading above byte `at` says ("## Debuffs (Enemy)").
fn polarity_above(text: &str, at: usize) -> Option<crate::check::ast::Polarity> {
    let heading = text
        .get(..at)?
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('#'))?
        .to_ascii_lowercase();
    if heading.contains("debuff") {
        Some(crate::check::ast::Polarity::Debuff)
    } else if heading.contains("buff") {
        Some(crate::check::ast::Polarity::Buff)
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
                Diagnostic::new(
                    Code::TableUnknownCategory,
                    row.category.span,
                    format!("`{name}` is not a category of rule set `{}`", rules.name),
                )
                .with_label("not a category")
                .with_help(format!("did you mean `{near}`?")),
            );
        }
        if let Some(t) = &row.trigger {
            trigger(t, rules, diags);
        }
    }
}

/// The timing a trigger cell names; `-` or empty names none.
fn trigger(cell: &Cell<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<TimingId> {
    let name = cell.text.as_ref();
    if name.is_empty() || name == "-" {
        return None;
    }
    rules.timing(name).or_else(|| {
        rules.declared_timing(name, &name, cell.span, diags);
        None
    })
}

/// The id of the status a row names: `name` itself, or the one status whose
/// id differs from it only in case (`POWER` names `:power`).
pub fn status_id<'r>(name: &'r str, rules: &'r RuleSet) -> &'r str {
    if rules.statuses.iter().any(|s| s == name) {
        return name;
    }
    let mut same = rules
        .statuses
        .iter()
        .filter(|s| s.eq_ignore_ascii_case(name));
    match (same.next(), same.next()) {
        (Some(only), None) => only,
        _ => name,
    }
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
    let shown = row.name.text.as_ref();
    if shown.is_empty() || shown == "-" {
        unnamed_row(row, rules, diags);
        return None;
    }
    let id = status_id(shown, rules);
    let category = row_category(row, rules, diags)?;
    let base = row_base(row, rules, diags)?;
    let timing = row.trigger.as_ref().and_then(|t| trigger(t, rules, diags));
    let figures: Vec<(Column, &Cell<'_>, i64)> = row
        .figures
        .iter()
        .filter_map(|(c, cell)| figure(cell, diags).map(|n| (*c, cell, n)))
        .collect();
    let Some((status, path)) = joined else {
        return row_without_definition(row, rules, id, (category, base), source, diags);
    };
    let name_of = |c: Option<CategoryId>| {
        c.and_then(|c| rules.categories.get(c))
            .map_or("none".to_string(), |c| format!("`{c}`"))
    };
    if let Some(cell) = &row.category
        && category != status.category
    {
        diags.push(
            Diagnostic::new(
                Code::TableDisagrees,
                cell.span,
                format!(
                    "the table says `{shown}` is of category {}; its definition in {path} says {}",
                    name_of(category),
                    name_of(status.category)
                ),
            )
            .with_label("disagrees with the definition"),
        );
    }
    if let Some(cell) = &row.base
        && base != status.base
    {
        let name_of = |b: Option<BaseId>| {
            b.and_then(|b| rules.bases.get(b))
                .map_or("nothing".to_string(), |b| format!("`{}`", b.name))
        };
        diags.push(
            Diagnostic::new(
                Code::TableDisagrees,
                cell.span,
                format!(
                    "the table says `{shown}` is based on {}; its definition in {path} on {}",
                    name_of(base),
                    name_of(status.base)
                ),
            )
            .with_label("disagrees with the definition"),
        );
    }
    if let Some(p) = row.polarity
        && p != status.polarity
    {
        diags.push(
            Diagnostic::new(
                Code::TableDisagrees,
                row.name.span,
                format!(
                    "the table lists `{shown}` as a {}; its definition in {path} is a {}",
                    p.name(),
                    status.polarity.name()
                ),
            )
            .with_label("disagrees with the definition"),
        );
    }
    if let (Some(t), Some(cell)) = (timing, &row.trigger)
        && !status.hooks.is_empty()
        && status.hooks.iter().all(|(h, _)| *h != t)
    {
        let at: Vec<String> = status
            .hooks
            .iter()
            .filter_map(|(h, _)| rules.timings.get(*h))
            .map(|t| format!("`{}`", t.name))
            .collect();
        diags.push(
            Diagnostic::new(
                Code::TriggerDisagrees,
                cell.span,
                format!(
                    "the table says `{shown}` acts at `{}`; its definition in {path} acts at {}",
                    cell.text,
                    crate::check::list_and(at)
                ),
            )
            .with_label("a different timing"),
        );
    }
    figures_vs_definition(rules, status, path, shown, figures, diags);
    None
}

/// Reports a status row whose name cell is empty.
fn unnamed_row(row: &StatusRow<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) {
    let column = rules
        .tables
        .get(row.shape)
        .and_then(|t| t.columns.iter().find(|(_, c)| *c == Column::Status))
        .map_or("status", |(h, _)| h.as_str());
    diags.push(
        Diagnostic::new(
            Code::TableRowUnnamed,
            row.name.span,
            "this row names no status",
        )
        .with_label("empty")
        .with_help(format!("write the status's name in the `{column}` column")),
    );
}

/// The category a status row names: `Some(None)` for none, `None` for one the
/// rule set lacks (reported).
fn row_category(
    row: &StatusRow<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<CategoryId>> {
    let category = match row.category.as_ref().map(|c| (c, c.text.as_ref())) {
        None | Some((_, "" | "-")) => None,
        Some((cell, name)) => match rules.categories.iter().position(|c| c == name) {
            Some(c) => Some(CategoryId::new(c)),
            None => {
                diags.push(
                    Diagnostic::new(
                        Code::TableUnknownCategory,
                        cell.span,
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
    Some(category)
}

/// The base a status row names: `Some(None)` for none, `None` for one the
/// rule set lacks (reported).
fn row_base(
    row: &StatusRow<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<BaseId>> {
    let Some((cell, name)) = row.base.as_ref().map(|c| (c, c.text.as_ref())) else {
        return Some(None);
    };
    if matches!(name, "" | "-") {
        return Some(None);
    }
    match rules.bases.iter().position(|b| b.name == name) {
        Some(b) => Some(Some(BaseId::new(b))),
        None => {
            diags.push(
                Diagnostic::new(
                    Code::UnknownBase,
                    cell.span,
                    format!("`{name}` is not a base of rule set `{}`", rules.name),
                )
                .with_label("not a base")
                .suggest(name, rules.bases.iter().map(|b| b.name.as_str()), |s| {
                    s.to_string()
                })
                .with_help_if_none(format!(
                    "declare it in the rule set's `:bases`: `{{:{name} {{:doc \"…\"}}}}`"
                )),
            );
            None
        }
    }
}

/// A status row with no `.edn` definition: reported, and where the table
/// describes it, a status of its own that only names its polarity and category.
fn row_without_definition(
    row: &StatusRow<'_>,
    rules: &RuleSet,
    id: &str,
    (category, base): (Option<CategoryId>, Option<BaseId>),
    source: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<Definition> {
    let shown = row.name.text.as_ref();
    // Where a table can describe statuses, a row it does not describe is
    // one the designer has yet to write (`DecreaseHealing2` beside
    // `DecreaseHealing1`); where it cannot, the row names a status to check
    // and must name one.
    let describes = rules
        .tables
        .get(row.shape)
        .is_some_and(|t| t.columns.iter().any(|(_, c)| *c == Column::Text));
    if !describes {
        let lower = shown.to_ascii_lowercase();
        diags.push(
            Diagnostic::new(
                Code::TableUnknownStatus,
                row.name.span,
                format!("`{shown}` names no status of rule set `{}`", rules.name),
            )
            .with_label("not a status")
            .suggest(&lower, rules.statuses.iter().map(String::as_str), |s| {
                s.to_string()
            })
            .with_help_if_none(format!(
                "define it as `{{:status :{lower} …}}` in an `.edn` file"
            )),
        );
        return None;
    }
    if row.description.is_none() {
        diags.push(
            Diagnostic::new(
                Code::RowUndefined,
                row.name.span,
                format!("`{shown}` has no description and no definition: it is undefined"),
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
            Diagnostic::new(Code::TablePolarity, row.name.span, format!("cannot tell whether `{shown}` is a buff or a debuff"))
                .with_label("no polarity")
                .with_help("put the table under a heading that says Buffs or Debuffs, or define it in an `.edn` file"),
        );
        return None;
    };
    diags.push(
        Diagnostic::new(
            Code::RowDoesNothing,
            row.name.span,
            format!(
                "`{shown}` does nothing: a table row names a status but cannot say what it does"
            ),
        )
        .with_label("no effects")
        .with_help(format!(
            "write what it does as `{{:status :{id} …}}` in an `.edn` file"
        )),
    );
    Some(Definition {
        kind: DefKind::Status,
        name: id.to_string(),
        text: row.description.as_ref().map(|d| d.text.to_string()),
        effects: Vec::new(),
        triggers: Vec::new(),
        auras: Vec::new(),
        aims: crate::check::defs::Aims::default(),
        reaction: None,
        abilities: Vec::new(),
        play: crate::check::defs::CardRules::default(),
        status: Some(StatusDef {
            polarity,
            category,
            base,
            ..StatusDef::default()
        }),
        rules: rules.name.clone(),
        source,
        span: row.span,
    })
}

/// Reports each figure of a row that its status's definition contradicts.
fn figures_vs_definition(
    rules: &RuleSet,
    status: &StatusDef,
    path: &str,
    shown: &str,
    figures: Vec<(Column, &Cell<'_>, i64)>,
    diags: &mut Vec<Diagnostic>,
) {
    for (column, cell, said) in figures {
        // A figure the definition computes (a condition, a scale) cannot be compared.
        let Some(has) = defined_figure(status, column, rules) else {
            continue;
        };
        if has != said {
            let (what, attr) = match column {
                Column::Modifier(a) => ("while active".to_string(), a),
                Column::OnAcquire(a) => ("on acquiring it".to_string(), a),
                Column::Hook(t, a) => (
                    format!(
                        "at `{}`",
                        rules.timings.get(t).map_or("?", |t| t.name.as_str())
                    ),
                    a,
                ),
                _ => continue,
            };
            let attr = rules.attributes.get(attr).map_or("?", String::as_str);
            diags.push(
                Diagnostic::new(
                    Code::TableDisagrees,
                    cell.span,
                    format!(
                        "the table says `{shown}` changes {attr} by {} {what}; its definition in {path} changes it by {}",
                        signed(said),
                        signed(has)
                    ),
                )
                .with_label("disagrees with the definition"),
            );
        }
    }
}

/// `+3`, `-1`, `0`.
fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The number a figure cell says: a leading signed number (`+3`, `-1 per
/// round`, `−2`), or 0 for a cell that says none (`—`, `-`, empty, `None`).
/// Anything else is reported.
fn figure(cell: &Cell<'_>, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    let text = cell.text.trim();
    if matches!(text, "" | "-" | "—" | "–" | "n/a") || text.eq_ignore_ascii_case("none") {
        return Some(0);
    }
    let (negative, rest) = match text.chars().next() {
        Some('+') => (false, &text[1..]),
        Some('-') => (true, &text[1..]),
        Some(c @ ('−' | '–')) => (true, &text[c.len_utf8()..]),
        _ => (false, text),
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match rest[..digits].parse::<i64>() {
        Ok(n) if !rest[digits..].starts_with(['.', ',']) => Some(if negative { -n } else { n }),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::TableFigure,
                    cell.span,
                    format!(
                        "expected a whole number such as `+3`, or `—` for none, found `{text}`"
                    ),
                )
                .with_label("not a figure"),
            );
            None
        }
    }
}

/// What a status's definition adds for a figure column, where it is a
/// constant: the sum of its `:add`s to the attribute, or of the constant
/// changes its effects make to its holder's attribute. `None` where some part
/// is computed.
fn defined_figure(status: &StatusDef, column: Column, rules: &RuleSet) -> Option<i64> {
    use crate::check::ast::{Entity, Int, Resource};
    let holder = Entity::Role(crate::check::ast::RoleId::new(rules.roles.len()));
    // Only plain changes are summed; an operation, a choice or a nested list
    // could change the attribute in ways a figure cannot show.
    let effects_sum = |effects: &[crate::check::ast::Effect], attr| {
        effects
            .iter()
            .try_fold(0i64, |sum, e| match (&e.resource, &e.entity) {
                (Resource::Status(_), _) => Some(sum),
                (Resource::Attr(a), Entity::Role(_)) if *a != attr || e.entity != holder => {
                    Some(sum)
                }
                (Resource::Attr(_), Entity::Role(_)) => match e.amount {
                    Int::Lit(n) if !e.set => sum.checked_add(n),
                    _ => None,
                },
                _ => None,
            })
    };
    match column {
        Column::Modifier(attr) => {
            status
                .modifiers
                .iter()
                .filter(|m| m.attr == attr)
                .try_fold(0i64, |sum, m| match &m.add {
                    None => Some(sum),
                    Some(Int::Lit(n)) => sum.checked_add(*n),
                    Some(_) => None,
                })
        }
        Column::OnAcquire(attr) => effects_sum(&status.on_acquire, attr),
        Column::Hook(timing, attr) => status
            .hooks
            .iter()
            .filter(|(t, _)| *t == timing)
            .try_fold(0i64, |sum, (_, effects)| {
                sum.checked_add(effects_sum(effects, attr)?)
            }),
        _ => None,
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
    fn figures_read_a_leading_signed_number_and_none_as_zero() {
        let read = |text: &'static str| {
            let cell = Cell {
                text: Cow::Borrowed(text),
                span: Span::new(0, text.len()),
            };
            let mut diags = Vec::new();
            (figure(&cell, &mut diags), diags.len())
        };
        assert_eq!(read("+3"), (Some(3), 0));
        assert_eq!(read("-1 per round"), (Some(-1), 0));
        assert_eq!(read("+1 (on acquire)"), (Some(1), 0));
        assert_eq!(read("−2"), (Some(-2), 0));
        assert_eq!(read("3 HP"), (Some(3), 0));
        for none in ["—", "–", "-", "", "None", "n/a"] {
            assert_eq!(read(none), (Some(0), 0), "{none}");
        }
        for bad in ["1.5", "2,5", "Double action", "+", "99999999999999999999"] {
            assert_eq!(read(bad), (None, 1), "{bad}");
        }
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
