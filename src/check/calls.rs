//! Operator calls, `[op operands…]`: the operator found, the operand count
//! checked, and the choice forms `[op a b then else]` and `[if c then else]`.

use super::Checker;
use super::list;
use super::ops::{self, OpKind, Operator};
use crate::check::ast::Bool;
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Span};

/// The operator a vector starts with, and its operands.
pub(super) struct Call<'f, 'a> {
    pub(super) op: &'static Operator,
    pub(super) head: &'f Form<'a>,
    pub(super) args: &'f [Form<'a>],
    pub(super) span: Span,
}

impl<'a> Checker<'_, '_> {
    /// Reads `[op args...]`, or reports why the vector is not a call.
    pub(super) fn call<'f>(
        &mut self,
        form: &'f Form<'a>,
        items: &'f [Form<'a>],
    ) -> Option<Call<'f, 'a>> {
        let head = items.first()?;
        let name = head.as_symbol()?;
        match ops::find(name) {
            Some(op) => Some(Call {
                op,
                head,
                args: &items[1..],
                span: form.span,
            }),
            None => {
                let alias = ops::alias(name).map(|a| format!("did you mean `{a}`?"));
                self.error(
                    Diagnostic::new(
                        Code::UnknownOperator,
                        head.span,
                        format!("unknown operator `{name}`"),
                    )
                    .with_label("not an operator")
                    .with_help(alias.unwrap_or_default())
                    .drop_empty_help()
                    .suggest_if_none(name, ops::names(), str::to_string)
                    .with_help_if_none(format!(
                        "the operators are {}",
                        ops::names().collect::<Vec<_>>().join(" ")
                    )),
                );
                None
            }
        }
    }

    /// `[op p1 p2 then else]` and `[if c then else]`: the condition and both branches' forms.
    pub(super) fn choice_parts<'f>(
        &mut self,
        call: &Call<'f, 'a>,
    ) -> Option<Option<(Bool, &'f Form<'a>, &'f Form<'a>)>> {
        match (call.op.kind, call.args) {
            (OpKind::Compare(_) | OpKind::And | OpKind::Or, [a, b, then, other]) => {
                let cond = self.predicate(call, a, b)?;
                Some(Some((cond, then, other)))
            }
            (OpKind::If, [c, then, other]) => {
                let cond = self.boolean(c)?;
                Some(Some((cond, then, other)))
            }
            (OpKind::If, _) => {
                self.arity(call, "3 operands: `[if condition then else]`");
                None
            }
            _ => Some(None),
        }
    }

    /// The error for a call with the wrong number of operands; `wants` says the right one.
    pub(super) fn arity(&mut self, call: &Call<'_, 'a>, wants: &str) {
        self.error(
            Diagnostic::new(
                Code::Arity,
                call.span,
                format!(
                    "`{}` takes {wants}; found {} operand{}",
                    call.op.name,
                    call.args.len(),
                    crate::diag::plural(call.args.len())
                ),
            )
            .with_label(format!("wrong number of operands for `{}`", call.op.name))
            .with_help(format!("write {}", shapes(call.op))),
        );
    }

    /// Simple logic where only a choice makes sense (roles, resources): the
    /// condition, and both branches lowered by `lower`.
    pub(super) fn choice<T>(
        &mut self,
        form: &Form<'a>,
        items: &[Form<'a>],
        what: &str,
        lower: fn(&mut Self, &Form<'a>) -> Option<T>,
        make: fn(Box<Bool>, Box<T>, Box<T>) -> T,
    ) -> Option<T> {
        let call = self.call(form, items)?;
        match self.choice_parts(&call)? {
            Some((cond, then, other)) => {
                let (t, e) = (lower(self, then), lower(self, other));
                Some(make(Box::new(cond), Box::new(t?), Box::new(e?)))
            }
            None => {
                self.wrong_kind(
                    Code::WrongType,
                    form,
                    what,
                    &format!("a `{}` expression", call.op.name),
                );
                None
            }
        }
    }
}

/// An operator's forms for a message: "`[< a b]` or `[< a b then else]`".
fn shapes(op: &Operator) -> String {
    let forms: Vec<String> = op
        .forms
        .split("] [")
        .map(|f| format!("`[{}]`", f.trim_start_matches('[').trim_end_matches(']')))
        .collect();
    list(forms)
}
