//! `:tables {:summary {:columns {"BUFF" :status "ATK" [:modifier :attack]}}}`:
//! the markdown tables a rule set reads, and what each column means.
//!
//! Designers keep statuses in markdown tables, each game with its own columns
//! (seed 000: `Name | Trigger | Category | Description`; seed 001: `BUFF | ATK
//! | HP (instant) | HP/round | Special`). A rule set declares the shapes of its
//! tables here, as data; a table of a `.md` file whose header names every
//! column of a shape is read with it (the first such shape), and other tables
//! are skipped. A shape with a `:status` column is a status table: each row
//! names a status and is checked against its definition. A shape without one
//! and with a `:category` column is a category table: each row names a
//! category.

use super::{RuleSet, TimingId, keyword_map, string};
use crate::check::ast::AttrId;
use crate::check::{self, keys::Keys, keys::keys};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

keys! {
    /// The keys of one table shape.
    pub enum ShapeKey {
        /// `:doc "…"`: which tables these are, for people.
        Doc = "doc",
        /// `:columns {"Name" :status …}`: each column's header and meaning.
        Columns = "columns",
        /// `:polarity :heading`: buff or debuff, as the heading above the table says
        /// ("## Debuffs"); or `:buff` / `:debuff` for every row.
        Polarity = "polarity",
    }
}

keys! {
    /// What a column of a table holds.
    pub enum ColumnKey {
        /// `:status`: the status a row is about, by id (`heal1`, or `POWER` for `:power`).
        Status = "status",
        /// `:category`: its category.
        Category = "category",
        /// `:trigger`: the timing it acts at (`-` or empty for none).
        Trigger = "trigger",
        /// `:base`: what its output is computed from, one of the rule set's `:bases` (`-` or empty for none).
        Base = "base",
        /// `:text`: what it does, for players; a described row may define a status.
        Text = "text",
        /// `:note`: read, and not checked.
        Note = "note",
        /// `[:modifier :attack]`: what it adds to an attribute while active.
        Modifier = "modifier",
        /// `[:on-acquire :hp]`: what acquiring it adds to its holder's attribute.
        OnAcquire = "on-acquire",
        /// `[:hook :bleed :hp]`: what its hook at a timing adds to its holder's attribute.
        Hook = "hook",
    }
}

/// What a column of a table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The status's id.
    Status,
    /// Its category.
    Category,
    /// The timing it acts at.
    Trigger,
    /// What its output is computed from.
    Base,
    /// What it does, for players.
    Text,
    /// Read, not checked.
    Note,
    /// The constant it adds to an attribute while active (`—`: none).
    Modifier(AttrId),
    /// What acquiring it adds to its holder's attribute.
    OnAcquire(AttrId),
    /// What its hook at a timing adds to its holder's attribute.
    Hook(TimingId, AttrId),
}

impl Column {
    /// Whether a cell of this column is a figure checked against a definition.
    pub fn is_figure(self) -> bool {
        matches!(
            self,
            Column::Modifier(_) | Column::OnAcquire(_) | Column::Hook(..)
        )
    }
}

/// Where a status table's rows get buff or debuff from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TablePolarity {
    /// The table does not say.
    Unsaid,
    /// The nearest heading above the table ("Buffs", "Debuffs").
    Heading,
    /// Every row is this.
    Fixed(crate::check::ast::Polarity),
}

/// One shape of markdown table the rule set reads.
#[derive(Clone, Debug, PartialEq)]
pub struct TableShape {
    /// Its name in `:tables`.
    pub name: String,
    /// Each column's header and meaning, in the order written.
    pub columns: Vec<(String, Column)>,
    /// Where its rows get buff or debuff from.
    pub polarity: TablePolarity,
}

impl TableShape {
    /// Whether rows of this shape name statuses (else they name categories).
    pub fn is_status_table(&self) -> bool {
        self.columns.iter().any(|(_, c)| *c == Column::Status)
    }
}

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:tables`", diags) {
        if rules.tables.iter().any(|t| t.name == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("table `:{name}` is declared twice"),
            ));
            continue;
        }
        if let Some(shape) = shape(name, span, body, rules, diags) {
            rules.tables.push(shape);
        }
    }
}

fn shape(
    name: &str,
    span: crate::syntax::Span,
    body: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<TableShape> {
    let pairs = check::fields(body, "a table", ShapeKey::ALL, diags)?;
    let mut shape = TableShape {
        name: name.to_string(),
        columns: Vec::new(),
        polarity: TablePolarity::Unsaid,
    };
    let before = diags.len();
    let mut has_columns = false;
    for (key, v) in pairs {
        match key {
            ShapeKey::Doc => {
                let _ = string(v, diags);
            }
            ShapeKey::Polarity => shape.polarity = polarity(v, diags)?,
            ShapeKey::Columns => {
                has_columns = true;
                columns(v, rules, &mut shape.columns, diags);
            }
        }
    }
    if !has_columns {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                body.span,
                format!("table `:{name}` has no `:columns`"),
            )
            .with_help("write `:columns {\"Name\" :status \"Category\" :category}`"),
        );
        return None;
    }
    let count = |c: Column| shape.columns.iter().filter(|(_, k)| *k == c).count();
    for (role, what) in [
        (Column::Status, ":status"),
        (Column::Category, ":category"),
        (Column::Trigger, ":trigger"),
        (Column::Base, ":base"),
        (Column::Text, ":text"),
    ] {
        if count(role) > 1 {
            diags.push(Diagnostic::new(
                Code::TableColumns,
                body.span,
                format!(
                    "table `:{name}` has {} `{what}` columns; a row has one",
                    count(role)
                ),
            ));
        }
    }
    // A shape whose columns were wrong is reported once, for what was wrong.
    if diags.len() == before && count(Column::Status) == 0 {
        if count(Column::Category) == 0 {
            diags.push(
                Diagnostic::new(Code::TableColumns, span, format!("table `:{name}` names no status and no category column"))
                    .with_label("nothing to join its rows by")
                    .with_help("a status table has a `:status` column; a category table has a `:category` column"),
            );
        } else if shape
            .columns
            .iter()
            .any(|(_, c)| c.is_figure() || matches!(c, Column::Text | Column::Base))
            || shape.polarity != TablePolarity::Unsaid
        {
            diags.push(
                Diagnostic::new(
                    Code::TableColumns,
                    span,
                    format!("table `:{name}` has no `:status` column, so its rows are categories"),
                )
                .with_label("figures and texts are about statuses")
                .with_help("add the column naming each row's status: `\"Name\" :status`"),
            );
        }
    }
    (diags.len() == before).then_some(shape)
}

fn polarity(v: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<TablePolarity> {
    match v.as_keyword() {
        Some("heading") => Some(TablePolarity::Heading),
        Some("buff") => Some(TablePolarity::Fixed(crate::check::ast::Polarity::Buff)),
        Some("debuff") => Some(TablePolarity::Fixed(crate::check::ast::Polarity::Debuff)),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::NotOneOf,
                    v.span,
                    format!(
                        "`:polarity` is `:heading`, `:buff` or `:debuff`, found {}",
                        v.describe()
                    ),
                )
                .with_help(
                    "`:heading` reads it from the heading above each table (\"## Debuffs\")",
                ),
            );
            None
        }
    }
}

fn columns(
    v: &Form<'_>,
    rules: &RuleSet,
    out: &mut Vec<(String, Column)>,
    diags: &mut Vec<Diagnostic>,
) {
    let Kind::Map(pairs) = &v.kind else {
        diags.push(
            Diagnostic::new(
                Code::NotAMap,
                v.span,
                format!(
                    "`:columns` is a map from headers to meanings, found {}",
                    v.describe()
                ),
            )
            .with_help("write `:columns {\"Name\" :status \"Category\" :category}`"),
        );
        return;
    };
    for (header, meaning) in pairs.iter() {
        let Kind::Str(text) = &header.kind else {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    header.span,
                    format!(
                        "a column is named by its header as a string, found {}",
                        header.describe()
                    ),
                )
                .with_label("expected a string such as \"Name\""),
            );
            continue;
        };
        let text = text.trim();
        if text.is_empty() {
            diags.push(Diagnostic::new(
                Code::EmptyName,
                header.span,
                "a column's header is not empty",
            ));
            continue;
        }
        if out.iter().any(|(h, _)| h.eq_ignore_ascii_case(text)) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                header.span,
                format!("column \"{text}\" is named twice (headers are compared without case)"),
            ));
            continue;
        }
        if let Some(c) = column(meaning, rules, diags) {
            out.push((text.to_string(), c));
        }
    }
}

/// One column's meaning: a keyword, or a vector headed by one.
fn column(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<Column> {
    let (head, args): (&Form<'_>, &[Form<'_>]) = match &v.kind {
        Kind::Vector(items) if !items.is_empty() => (&items[0], &items[1..]),
        _ => (v, &[]),
    };
    let help = "a column is `:status`, `:category`, `:trigger`, `:base`, `:text`, `:note`, `[:modifier ATTRIBUTE]`, `[:on-acquire ATTRIBUTE]` or `[:hook TIMING ATTRIBUTE]`";
    let message = match head.as_keyword() {
        Some(k) => format!("`:{k}` is not what a column can hold"),
        None => format!("a column's meaning is a keyword, found {}", head.describe()),
    };
    let key: ColumnKey = check::keyword_in(
        head,
        message,
        "not a column's meaning",
        Some(help.to_string()),
        diags,
    )?;
    let arity = match key {
        ColumnKey::Modifier | ColumnKey::OnAcquire => 1,
        ColumnKey::Hook => 2,
        _ => 0,
    };
    if args.len() != arity || (arity > 0 && !matches!(v.kind, Kind::Vector(_))) {
        let shown = match arity {
            0 => format!("`:{}`", key.name()),
            1 => format!("`[:{} ATTRIBUTE]`", key.name()),
            _ => format!("`[:{} TIMING ATTRIBUTE]`", key.name()),
        };
        diags.push(
            Diagnostic::new(
                Code::ColumnShape,
                v.span,
                format!("write this column as {shown}"),
            )
            .with_label("wrong shape"),
        );
        return None;
    }
    let shown = format!("`[:{} …]`", key.name());
    let attribute = |f: &Form<'_>, diags: &mut Vec<Diagnostic>| {
        super::cards::attribute(f, rules, &shown, diags)
    };
    Some(match key {
        ColumnKey::Status => Column::Status,
        ColumnKey::Category => Column::Category,
        ColumnKey::Trigger => Column::Trigger,
        ColumnKey::Base => Column::Base,
        ColumnKey::Text => Column::Text,
        ColumnKey::Note => Column::Note,
        ColumnKey::Modifier => Column::Modifier(attribute(&args[0], diags)?),
        ColumnKey::OnAcquire => Column::OnAcquire(attribute(&args[0], diags)?),
        ColumnKey::Hook => {
            let name = args[0].as_keyword().unwrap_or("");
            let timing = rules.declared_timing(name, &args[0], args[0].span, diags)?;
            Column::Hook(timing, attribute(&args[1], diags)?)
        }
    })
}
