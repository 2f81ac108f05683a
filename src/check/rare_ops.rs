//! The integer operators kept off the checker's recursion path: formulas,
//! lookups, `[choice :field]`, advantage, `abs`, and `count` and `sum` over a kind.

use super::calls::Call;
use super::fields::named_entry;
use super::ops::OpKind;
use super::{Checker, Choosable, Declared, list_and};
use crate::check::ast::{Int, Over, Source};
use crate::diag::{Code, Diagnostic};
use crate::syntax::Form;

impl<'a> Checker<'_, '_> {
    /// The column `[choice :field]` reads, if the field may be read here.
    /// Out of line, as the operators of `rare_int_op`.
    #[cold]
    #[inline(never)]
    fn chosen_field(&mut self, field: &Form<'_>) -> Option<Box<[i64]>> {
        let name = field.as_keyword().unwrap_or("");
        let fields: Vec<&str> = match self.scope.choosable {
            Choosable::Nothing => {
                self.diags.push(
                    Diagnostic::new(Code::NothingChosen, field.span, "nothing is chosen here")
                        .with_label("no option to read")
                        .with_help(
                            "`[choice :field]` reads the option chosen for an action: only an action with `:choose :set` (its conditions and effects) and the operations it applies can read it",
                        ),
                );
                return None;
            }
            Choosable::Set(_, fields) => fields.iter().map(String::as_str).collect(),
            Choosable::Any => self
                .scope
                .choice_columns
                .iter()
                .map(|(n, _)| n.as_str())
                .collect(),
        };
        let message = match (field.as_keyword(), self.scope.choosable) {
            (Some(k), Choosable::Set(set, _)) => format!("`:{set}` has no field `:{k}`"),
            (Some(k), _) => format!("no choice has a field `:{k}`"),
            (None, _) => format!(
                "`choice` names a field of the rule set's `:choices`, found {}",
                field.describe()
            ),
        };
        let label = match self.scope.choosable {
            Choosable::Set(set, _) => format!("not a field of `:{set}`"),
            _ => "not a field of any choice".to_string(),
        };
        Declared::new(fields, "a field", "fields", Code::UnknownField)
            .labelled(label)
            .when_empty(String::from("declare options in the rule set: `:choices {:body-part {:options {:head {:dodge 4} :body {:dodge 0}}}}`"))
            .find(name, field.span, message, self.diags)?;
        self.scope
            .choice_columns
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, column)| column.clone())
    }

    /// `[abs a]`, `[advantage a]`, `[count kind condition]` and `[sum kind
    /// value condition]`. Out of line: the operator match is on the checker's
    /// recursion path, and its frame stays small.
    #[inline(never)]
    pub(super) fn rare_int_op(&mut self, call: &Call<'_, 'a>) -> Option<Int> {
        if call.op.kind == OpKind::Formula {
            let Some((name, args)) = call.args.split_first() else {
                self.arity(call, "a formula's name first: `[formula :stamina x]`");
                return None;
            };
            let found = named_entry(
                self.scope.formulas,
                name,
                ("a formula", "formulas", call.op.name),
                "`:formulas {:stamina {:args [:index] :value [* 10 :index :index]}}`",
                Code::UnknownFormula,
                self.diags,
            );
            let checked: Vec<Option<Int>> = args.iter().map(|a| self.int(a)).collect();
            let def = found?;
            if def.args.len() != args.len() {
                let n = def.args.len();
                self.error(
                    Diagnostic::new(
                        Code::Arity,
                        call.span,
                        format!(
                            "formula `{name}` takes {n} argument{} ({}); found {}",
                            crate::diag::plural(n),
                            list_and(def.args.iter().map(|a| format!("`:{a}`"))),
                            args.len()
                        ),
                    )
                    .with_label("wrong number of arguments"),
                );
                return None;
            }
            let args = checked.into_iter().collect::<Option<Box<[Int]>>>()?;
            return Some(Int::Formula(Box::new(crate::check::ast::Formula {
                def: std::sync::Arc::clone(def),
                args,
            })));
        }
        if call.op.kind == OpKind::Lookup {
            let [table, x] = call.args else {
                self.arity(call, "2 operands: `[lookup :table x]`");
                return None;
            };
            let found = named_entry(
                self.scope.lookups,
                table,
                ("a lookup table", "lookup tables", call.op.name),
                "`:lookups {:damage {:ranges [[1 3 3] [4 9 5] [10 nil 10]]}}`",
                Code::UnknownLookup,
                self.diags,
            );
            let x = self.int(x);
            return Some(Int::Lookup(Box::new((found?.clone(), x?))));
        }
        if call.op.kind == OpKind::Event {
            let [field] = call.args else {
                self.arity(call, "1 operand: `[event :amount]` or `[event :position]`");
                return None;
            };
            return crate::check::triggers::event_field(self, field);
        }
        if call.op.kind == OpKind::Choice {
            let [field] = call.args else {
                self.arity(
                    call,
                    "1 operand: a field of the rule set's `:choices`, such as `[choice :dodge]`",
                );
                return None;
            };
            return self.chosen_field(field).map(Int::Choice);
        }
        if let OpKind::Best(higher) = call.op.kind {
            let [a] = call.args else {
                self.arity(call, "1 operand: the roll, such as `1d20`");
                return None;
            };
            return Some(Int::Best(higher, Box::new(self.int(a)?)));
        }
        if call.op.kind == OpKind::Abs {
            let [a] = call.args else {
                self.arity(call, "1 operand");
                return None;
            };
            return Some(Int::Abs(Box::new(self.int(a)?)));
        }
        let count = call.op.kind == OpKind::Count;
        let shape = if count {
            "`[count kind condition]`"
        } else {
            "`[sum kind value condition]`"
        };
        let (source, rest) = self.over_source(call, shape)?;
        let (value, filter) = match (count, rest) {
            (true, []) => (Some(Int::Lit(1)), None),
            (true, [c]) => (Some(Int::Lit(1)), Some(c)),
            (false, [v]) => (self.with_self(|cx| cx.int(v)), None),
            (false, [v, c]) => (self.with_self(|cx| cx.int(v)), Some(c)),
            (true, _) => {
                self.arity(call, "a kind, then at most a condition");
                return None;
            }
            (false, _) => {
                self.arity(call, "a kind, a value, then at most a condition");
                return None;
            }
        };
        let filter = match filter {
            Some(c) => Some(self.with_self(|cx| cx.boolean(c))?),
            None => None,
        };
        let outer = self.outer()?;
        let over = Box::new(Over {
            source,
            value: value?,
            filter,
            outer,
        });
        Some(if count {
            Int::Count(over)
        } else {
            Int::Sum(over)
        })
    }

    /// What a `[count …]` or `[sum …]` ranges over (a kind, or with `:zones`
    /// a pile), and the arguments after it.
    fn over_source<'f>(
        &mut self,
        call: &'f Call<'f, 'a>,
        shape: &str,
    ) -> Option<(Source, &'f [Form<'a>])> {
        let Some((kind, rest)) = call.args.split_first() else {
            self.arity(call, &format!("a kind first: {shape}"));
            return None;
        };
        Some((self.source(kind, &format!("`{}`", call.op.name))?, rest))
    }
}
