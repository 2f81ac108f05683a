//! `:choices {:body-part {:doc "…" :options {:head {:dodge 4 :resist -4} …}}}`:
//! named sets of options a player picks from when using an action with
//! `:choose :body-part`. Each option gives a number to each of the set's
//! fields; the action's conditions and effects, and the operations they
//! apply, read the chosen option's with `[choice :dodge]`.
//!
//! Every option of a set gives the same fields, so a misspelt field is an
//! error rather than a silent 0. Values are whole numbers or params.

use super::{RuleSet, keyword_map, string};
use crate::check::keys::{Keys, keys};
use crate::check::{self, Declared};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind, Span};

pub use crate::ids::{ChoiceSetId, OptionId};

/// The most options a rule set may declare, over all its sets.
pub const MAX_OPTIONS: usize = 1024;

keys! {
    /// The keys of one set of choices.
    pub enum ChoiceKey {
        /// `:doc "…"`: what is chosen, for people.
        Doc = "doc",
        /// `:options {:head {:dodge 4} …}`: the options, each with its numbers.
        Options = "options",
    }
}

/// One set of options (`:body-part`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceSet {
    /// Its name (`body-part`).
    pub name: String,
    /// What is chosen, for people.
    pub doc: String,
    /// Its fields' names, in the order the first option wrote them.
    pub fields: Vec<String>,
    /// The number of its first option in [`RuleSet::options`]; its others follow.
    pub first: OptionId,
    /// How many options it has.
    pub len: u16,
}

impl ChoiceSet {
    /// Where its options sit in [`RuleSet::options`].
    #[must_use]
    pub fn options(&self) -> std::ops::Range<usize> {
        self.first.index()..self.first.index() + usize::from(self.len)
    }
}

/// Reads `:choices`, once params are declared (values may name them).
pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    for (name, (span, body)) in keyword_map(value, "`:choices`", diags) {
        if rules.choices.iter().any(|c| c.name == name) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                span,
                format!("choice `:{name}` is declared twice"),
            ));
            continue;
        }
        set(name, span, body, rules, diags);
    }
    // One column of numbers for each field name, over every option: what
    // `[choice :field]` copies in (0 for options of sets without the field).
    let mut columns: Vec<(String, Box<[i64]>)> = Vec::new();
    for set in &rules.choices {
        for field in &set.fields {
            if !columns.iter().any(|(n, _)| n == field) {
                columns.push((field.clone(), vec![0; rules.options.len()].into()));
            }
        }
    }
    for (column, values) in &mut columns {
        for set in &rules.choices {
            let Some(f) = set.fields.iter().position(|n| n == column) else {
                continue;
            };
            for option in set.options() {
                values[option] = rules.option_values[OptionId::new(option)][f];
            }
        }
    }
    rules.choice_columns = columns;
}

fn set(name: &str, span: Span, body: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = check::fields(body, "a set of choices", ChoiceKey::ALL, diags) else {
        return;
    };
    let mut doc = String::new();
    let mut options: Option<&Form<'_>> = None;
    for (key, v) in pairs {
        match key {
            ChoiceKey::Doc => doc = string(v, diags).unwrap_or_default(),
            ChoiceKey::Options => options = Some(v),
        }
    }
    let Some(options) = options else {
        diags.push(
            Diagnostic::new(Code::MissingKey, span, format!("choice `:{name}` has no `:options`"))
                .with_label("missing `:options`")
                .with_help("write its options, each with its numbers: `:options {:head {:dodge 4} :body {:dodge 0}}`"),
        );
        return;
    };
    let entries = keyword_map(options, "`:options`", diags);
    // Not a map at all is `keyword_map`'s error alone.
    if entries.is_empty() && matches!(options.kind, Kind::Map(_)) {
        diags.push(
            Diagnostic::new(
                Code::EmptyDeclaration,
                options.span,
                format!("choice `:{name}` has no options"),
            )
            .with_label("nothing to choose from"),
        );
        return;
    }
    if entries.is_empty() {
        return;
    }
    if rules.options.len() + entries.len() > MAX_OPTIONS {
        diags.push(Diagnostic::new(
            Code::TooMany,
            options.span,
            format!("a rule set may declare at most {MAX_OPTIONS} options over all its choices"),
        ));
        return;
    }
    let mut fields: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut rows: Vec<Vec<i64>> = Vec::new();
    for (i, (option, (at, numbers))) in entries.iter().enumerate() {
        if names.iter().any(|n| n == option) {
            diags.push(Diagnostic::new(
                Code::Duplicate,
                *at,
                format!("option `:{option}` is declared twice"),
            ));
            continue;
        }
        let written = keyword_map(numbers, &format!("option `:{option}`"), diags);
        if i == 0 {
            fields = written.iter().map(|(f, _)| f.to_string()).collect();
        }
        let mut row = vec![0; fields.len()];
        let mut misspelt = false;
        for (field, (fat, v)) in &written {
            let Some(f) = Declared::new(fields.iter().map(String::as_str), "a field", "fields", Code::OptionFields)
                .labelled(format!("not a field of `:{name}`"))
                .find(
                    field,
                    *fat,
                    format!(
                        "`:{field}` is not a field of `:{name}`: its first option, `:{}`, gives no such number",
                        entries[0].0
                    ),
                    diags,
                )
            else {
                misspelt = true;
                continue;
            };
            if let Some(n) = number(v, rules, diags) {
                row[f] = n;
            }
        }
        // A misspelt field is reported once, not again as the one it misses.
        for field in fields.iter().filter(|_| !misspelt) {
            if !written.iter().any(|(f, _)| f == field) {
                diags.push(
                    Diagnostic::new(Code::OptionFields, *at, format!("option `:{option}` gives no `:{field}`"))
                        .with_label(format!("missing `:{field}`"))
                        .with_help(format!(
                            "every option of `:{name}` gives the same numbers; write `:{field} 0` if it adds nothing"
                        )),
                );
            }
        }
        names.push(option.to_string());
        rows.push(row);
    }
    // A set whose options have errors is still declared (their numbers
    // as far as they check), so actions that choose it add no errors of their own.
    let first = OptionId::new(rules.options.len());
    rules.choices.push(ChoiceSet {
        name: name.to_string(),
        doc,
        fields,
        first,
        len: names.len() as u16,
    });
    rules.options.extend(names);
    rules.option_values.extend(rows);
}

/// A whole number, or a param's.
fn number(v: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    match &v.kind {
        Kind::Int(n) => Some(*n),
        Kind::Keyword(k) => Declared::new(
            rules.params.iter().map(|(n, _)| n.as_str()),
            "a param",
            "params",
            Code::KeywordNotNumber,
        )
        .find(k, v.span, format!("no param `:{k}` is declared"), diags)
        .map(|i| rules.params[i].1),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::NotANumber,
                    v.span,
                    format!(
                        "an option's number is a whole number or a param, found {}",
                        v.describe()
                    ),
                )
                .with_label("expected a number"),
            );
            None
        }
    }
}

/// The set `v` names (`:choose :body-part`), or a located error with the nearest.
pub fn named(rules: &RuleSet, v: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<ChoiceSetId> {
    let name = v.as_keyword().unwrap_or("");
    let message = match v.as_keyword() {
        Some(k) => format!("no choice `:{k}` is declared"),
        None => format!(
            "`:choose` names one of the rule set's `:choices`, found {}",
            v.describe()
        ),
    };
    Declared::new(rules.choices.iter().map(|c| c.name.as_str()), "a choice", "choices", Code::UnknownChoice)
        .when_empty(String::from("declare it in the rule set: `:choices {:body-part {:options {:head {:dodge 4} :body {:dodge 0}}}}`"))
        .find(name, v.span, message, diags)
        .map(ChoiceSetId::new)
}
