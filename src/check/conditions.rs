//! Conditions: comparisons, `and`, `or`, `not`, `chance`, `has`, and the
//! comparison of two entities (`[= :holder :you]`).

use super::calls::Call;
use super::numbers::Num;
use super::ops::OpKind;
use super::{Checker, TARGET};
use crate::check::ast::{Bool, Entity, Int};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

impl<'a> Checker<'_, '_> {
    /// A condition: `true`, a comparison, `and`, `or`, `not`, `chance`, `has`, or a choice of two.
    pub(super) fn boolean(&mut self, form: &Form<'a>) -> Option<Bool> {
        match &form.kind {
            Kind::Bool(b) => Some(Bool::Lit(*b)),
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => {
                let call = self.call(form, items)?;
                if let Some((cond, then, other)) = self.choice_parts(&call)? {
                    let (t, e) = (self.boolean(then), self.boolean(other));
                    return Some(Bool::If(Box::new(cond), Box::new(t?), Box::new(e?)));
                }
                match (call.op.kind, call.args) {
                    (OpKind::Compare(_) | OpKind::And | OpKind::Or, [a, b]) => {
                        self.predicate(&call, a, b)
                    }
                    (OpKind::Compare(_) | OpKind::And | OpKind::Or, _) => {
                        self.arity(
                            &call,
                            &format!(
                                "2 operands, or 4 to choose a value: `[{} a b then else]`",
                                call.op.name
                            ),
                        );
                        None
                    }
                    (OpKind::Not, [a]) => Some(Bool::Not(Box::new(self.boolean(a)?))),
                    (OpKind::Not, _) => {
                        self.arity(&call, "1 operand");
                        None
                    }
                    (OpKind::Chance, [p]) => Some(Bool::Chance(Box::new(self.num(p)?.into_dec()))),
                    (OpKind::Chance, _) => {
                        self.arity(&call, "1 operand: `[chance 0.5]`");
                        None
                    }
                    (OpKind::Has, _) => {
                        let (who, f) = self.status_query(&call)?;
                        Some(Bool::Has(Box::new((*who, f))))
                    }
                    (OpKind::Named | OpKind::OfKind | OpKind::In | OpKind::Holds, _) => {
                        self.card_bool_op(&call)
                    }
                    _ => {
                        self.error(
                            Diagnostic::new(
                                Code::NumberNotCondition,
                                call.head.span,
                                format!(
                                    "`{}` gives a number, but a condition is expected here",
                                    call.op.name
                                ),
                            )
                            .with_label("a number")
                            .with_help("compare it: `[> … 0]`"),
                        );
                        None
                    }
                }
            }
            _ => {
                self.wrong_kind(
                    Code::NumberNotCondition,
                    form,
                    "a condition such as `[< a b]`",
                    &form.describe(),
                );
                None
            }
        }
    }

    /// The condition of a two-operand comparison, `and` or `or`.
    pub(super) fn predicate(
        &mut self,
        call: &Call<'_, 'a>,
        a: &Form<'a>,
        b: &Form<'a>,
    ) -> Option<Bool> {
        match call.op.kind {
            OpKind::Compare(cmp @ (crate::check::ast::Cmp::Eq | crate::check::ast::Cmp::Ne))
                if self.names_entity(a) && self.names_entity(b) =>
            {
                self.same_entities(cmp == crate::check::ast::Cmp::Eq, a, b)
            }
            OpKind::Compare(cmp) => {
                let (x, y) = (self.num(a), self.num(b));
                match (x?, y?) {
                    (Num::Int(x), Num::Int(y)) => Some(match (x, y) {
                        (Int::Attr(Entity::Role(r), a), Int::Lit(n)) => Bool::AttrCmp(cmp, r, a, n),
                        (x, y) => Bool::CmpInt(cmp, Box::new(x), Box::new(y)),
                    }),
                    (x, y) => Some(Bool::CmpDec(
                        cmp,
                        Box::new(x.into_dec()),
                        Box::new(y.into_dec()),
                    )),
                }
            }
            OpKind::And | OpKind::Or => {
                let (x, y) = (self.boolean(a), self.boolean(b));
                let (x, y) = (Box::new(x?), Box::new(y?));
                Some(if call.op.kind == OpKind::And {
                    Bool::And(x, y)
                } else {
                    Bool::Or(x, y)
                })
            }
            _ => None,
        }
    }

    /// `[= :holder :you]` (or `not=` when `!equal`): out of line, as `predicate` recurses.
    #[inline(never)]
    fn same_entities(&mut self, equal: bool, a: &Form<'a>, b: &Form<'a>) -> Option<Bool> {
        let same = Bool::Same(Box::new(self.entity(a)?), Box::new(self.entity(b)?));
        Some(if equal {
            same
        } else {
            Bool::Not(Box::new(same))
        })
    }

    /// Whether `form` is a bare name bound to an entity here (a role, `:self`,
    /// `:holder`, `:target` in an operation): `[= :holder :you]` compares entities.
    fn names_entity(&self, form: &Form<'a>) -> bool {
        form.as_keyword().is_some_and(|k| {
            self.scope.roles.iter().any(|r| r == k)
                || self.scope.bound.contains(&k)
                || (k == TARGET && self.scope.in_operation)
                || (k == super::THIS_CARD && self.scope.this_card)
        })
    }
}
