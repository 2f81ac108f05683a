//! Numbers: literals, names bound to numbers (params, `:amount`, card values),
//! smart values `[:you :wall]`, dice, arithmetic; integer or decimal as written.

use super::calls::Call;
use super::ops::OpKind;
use super::{AMOUNT, Checker, MAGNITUDE, list};
use crate::check::ast::{Arith, Bool, Dec, Int};
use crate::diag::{Code, Diagnostic};
use crate::ids::AttrId;
use crate::syntax::{Form, Kind, Span};

/// A number of either type, before the context decides which it must be.
pub(super) enum Num {
    Int(Int),
    Dec(Dec),
}

impl Num {
    /// The number as a decimal: an integer is widened.
    pub(super) fn into_dec(self) -> Dec {
        match self {
            Num::Int(Int::Lit(n)) => Dec::Lit(n as f64),
            Num::Int(i) => Dec::Int(Box::new(i)),
            Num::Dec(d) => d,
        }
    }
}

impl<'a> Checker<'_, '_> {
    /// A number, integer or decimal, whichever it is written as.
    pub(super) fn num(&mut self, form: &Form<'a>) -> Option<Num> {
        match &form.kind {
            Kind::Int(n) => Some(Num::Int(Int::Lit(*n))),
            Kind::Dec(d) => Some(Num::Dec(Dec::Lit(*d))),
            Kind::Keyword(k) if self.scope.args.iter().any(|a| a == k) => {
                let i = self.scope.args.iter().position(|a| a == k).unwrap_or(0);
                Some(Num::Int(Int::Arg(i as u8)))
            }
            Kind::Keyword(k) if self.scope.params.iter().any(|(p, _)| p == k) => {
                let value = self
                    .scope
                    .params
                    .iter()
                    .find(|(p, _)| p == k)
                    .map_or(0, |(_, v)| *v);
                Some(Num::Int(Int::Lit(value)))
            }
            Kind::Keyword(k) if *k == AMOUNT && self.scope.in_operation => {
                Some(Num::Int(Int::Amount))
            }
            Kind::Keyword(k) if self.scope.card_values.iter().any(|(v, _)| v == k) => {
                Some(card_value(self.scope.card_values, k))
            }
            Kind::Keyword(k) if *k == MAGNITUDE && self.scope.in_status => {
                Some(Num::Int(Int::Magnitude))
            }
            Kind::Keyword(k) => {
                let mut d = Diagnostic::new(
                    Code::KeywordNotNumber,
                    form.span,
                    format!("expected a number, found the keyword `:{k}`"),
                )
                .with_label("expected a number");
                if *k == AMOUNT {
                    d = d.with_help("`:amount` names an operation's amount and is only bound inside an operation");
                } else if *k == MAGNITUDE {
                    d = d.with_help("`:magnitude` names a status's magnitude and is only bound in the status's effects");
                } else if self.scope.attributes.iter().any(|a| a == k) {
                    let whose: Vec<String> = self
                        .scope
                        .roles
                        .iter()
                        .map(|e| format!("`[:{e} :{k}]`"))
                        .collect();
                    d = d.with_help(format!("say whose: {}", list(whose)));
                } else {
                    let names = self.scope.params.iter().map(|(p, _)| p.as_str());
                    let args = self.scope.args.iter().map(String::as_str);
                    d = d.suggest(k, names.chain(args), |s| format!(":{s}"));
                }
                self.error(d);
                None
            }
            Kind::Vector(items)
                if matches!(
                    items.first().map(|f| &f.kind),
                    Some(Kind::Keyword(_) | Kind::Vector(_))
                ) =>
            {
                self.smart_value(form, items).map(Num::Int)
            }
            Kind::Symbol(s) if crate::dice::looks_like(s) => self.dice(form, s).map(Num::Int),
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => {
                let call = self.call(form, items)?;
                if let Some((cond, then, other)) = self.choice_parts(&call)? {
                    let (t, e) = (self.num(then), self.num(other));
                    return Some(match (t?, e?) {
                        (Num::Int(t), Num::Int(e)) => Num::Int(match (cond, t, e) {
                            (Bool::AttrCmp(cmp, r, a, n), Int::Lit(t), Int::Lit(e)) => {
                                Int::Pick(cmp, r, a, n, t, e)
                            }
                            (cond, t, e) => Int::If(Box::new(cond), Box::new(t), Box::new(e)),
                        }),
                        (t, e) => Num::Dec(Dec::If(
                            Box::new(cond),
                            Box::new(t.into_dec()),
                            Box::new(e.into_dec()),
                        )),
                    });
                }
                self.arith(&call)
            }
            _ => {
                self.not_a_number(form);
                None
            }
        }
    }

    /// Reports a form where a number belongs; kept out of `num` so its frame stays small.
    #[cold]
    #[inline(never)]
    fn not_a_number(&mut self, form: &Form<'a>) {
        let help = match &form.kind {
            Kind::List(_) => Some(
                "simple logic is written in square brackets: `[= [:you :wall] 0 6 3]`".to_string(),
            ),
            Kind::Symbol(sym) if format!("0{sym}").parse::<f64>().is_ok() => {
                Some(format!("write `0{sym}`"))
            }
            Kind::Str(text) if text.trim().parse::<f64>().is_ok() => Some(format!(
                "numbers are written without quotes: `{}`",
                text.trim()
            )),
            _ => None,
        };
        let mut d = Diagnostic::new(
            Code::NotANumber,
            form.span,
            format!("expected a number, found {}", form.describe()),
        )
        .with_label("expected a number");
        if let Some(h) = help {
            d = d.with_help(h);
        }
        self.error(d);
    }

    /// An operator call where a number is expected: arithmetic, rounding, `random`, and the rest.
    fn arith(&mut self, call: &Call<'_, 'a>) -> Option<Num> {
        match call.op.kind {
            OpKind::Arith(op) => {
                if call.args.is_empty() {
                    self.arity(call, "at least 1 operand");
                    return None;
                }
                let nums: Vec<Option<Num>> = call.args.iter().map(|a| self.num(a)).collect();
                let nums: Vec<Num> = nums.into_iter().collect::<Option<_>>()?;
                if op == Arith::Sub && nums.len() == 1 {
                    return Some(match nums.into_iter().next()? {
                        Num::Int(i) => Num::Int(Int::Neg(Box::new(i))),
                        Num::Dec(d) => Num::Dec(Dec::Neg(Box::new(d))),
                    });
                }
                if nums.iter().all(|n| matches!(n, Num::Int(_))) {
                    let ints: Vec<Int> = nums
                        .into_iter()
                        .filter_map(|n| match n {
                            Num::Int(i) => Some(i),
                            Num::Dec(_) => None,
                        })
                        .collect();
                    if op == Arith::Add
                        && let Some(roll) = roll_with_modifier(&ints)
                    {
                        return Some(Num::Int(roll));
                    }
                    Some(Num::Int(Int::Fold(op, ints.into())))
                } else {
                    Some(Num::Dec(Dec::Fold(
                        op,
                        nums.into_iter().map(Num::into_dec).collect(),
                    )))
                }
            }
            OpKind::Div => {
                let [a, b] = call.args else {
                    self.arity(call, "2 operands");
                    return None;
                };
                let (a, b) = (self.num(a), self.num(b));
                Some(Num::Dec(Dec::Div(
                    Box::new(a?.into_dec()),
                    Box::new(b?.into_dec()),
                )))
            }
            OpKind::Round(mode) => {
                let [a] = call.args else {
                    self.arity(call, "1 operand");
                    return None;
                };
                Some(Num::Int(match self.num(a)? {
                    Num::Int(i) => i,
                    Num::Dec(d) => Int::Round(mode, Box::new(d)),
                }))
            }
            OpKind::Random => {
                let [lo, hi] = call.args else {
                    self.arity(call, "2 operands: `[random lo hi]`");
                    return None;
                };
                let (lo, hi) = (self.int(lo), self.int(hi));
                Some(Num::Int(Int::Random(Box::new(lo?), Box::new(hi?))))
            }
            OpKind::Compare(_)
            | OpKind::And
            | OpKind::Or
            | OpKind::Statuses
            | OpKind::TurnsLeft
            | OpKind::Not
            | OpKind::Chance
            | OpKind::Has => self.other_num_op(call),
            OpKind::Abs
            | OpKind::Count
            | OpKind::Sum
            | OpKind::Best(_)
            | OpKind::Lookup
            | OpKind::Choice
            | OpKind::Event
            | OpKind::Formula => self.rare_int_op(call).map(Num::Int),
            OpKind::Extreme(_) | OpKind::Edge(_) | OpKind::Slot => {
                self.card_int_op(call).map(Num::Int)
            }
            OpKind::Named | OpKind::OfKind | OpKind::In | OpKind::Holds | OpKind::Adjacent => {
                self.other_num_op(call)
            }
            OpKind::If => None,
        }
    }

    /// The operators that are not arithmetic where a number is expected:
    /// status queries, and conditions written where a number belongs. Out of
    /// line: `arith` is on the checker's recursion path, and in a debug build
    /// every arm's temporaries add to its frame.
    #[inline(never)]
    fn other_num_op(&mut self, call: &Call<'_, 'a>) -> Option<Num> {
        match call.op.kind {
            OpKind::Compare(_) | OpKind::And | OpKind::Or => {
                if call.args.len() == 2 {
                    self.error(
                        Diagnostic::new(
                            Code::ConditionNotNumber,
                            call.span,
                            format!(
                                "`[{} a b]` is a condition, but a number is expected here",
                                call.op.name
                            ),
                        )
                        .with_label("a condition")
                        .with_help(format!(
                            "add the two results: `[{} a b then else]`",
                            call.op.name
                        )),
                    );
                } else {
                    self.arity(
                        call,
                        &format!(
                            "2 operands, or 4 to choose a value: `[{} a b then else]`",
                            call.op.name
                        ),
                    );
                }
                None
            }
            OpKind::Statuses => {
                let (who, f) = self.status_query(call)?;
                Some(Num::Int(Int::Statuses(who, f)))
            }
            OpKind::TurnsLeft => {
                let (who, f) = self.status_query(call)?;
                Some(Num::Int(Int::TurnsLeft(who, f)))
            }
            OpKind::Adjacent => {
                self.error(
                    Diagnostic::new(
                        Code::ConditionNotNumber,
                        call.span,
                        "`[adjacent card]` is the cards beside one, not a number",
                    )
                    .with_label("cards")
                    .with_help("count them: `[count [adjacent :this-card]]`"),
                );
                None
            }
            OpKind::Not
            | OpKind::Chance
            | OpKind::Has
            | OpKind::Named
            | OpKind::OfKind
            | OpKind::In
            | OpKind::Holds => {
                self.error(
                    Diagnostic::new(
                        Code::ConditionNotNumber,
                        call.span,
                        format!(
                            "`{}` gives a condition, but a number is expected here",
                            call.op.name
                        ),
                    )
                    .with_label("a condition")
                    .with_help("choose a number with `[if condition then else]`"),
                );
                None
            }
            _ => None,
        }
    }

    /// A dice token, `3d6+2`: out of line, as `num` recurses.
    #[inline(never)]
    fn dice(&mut self, form: &Form<'a>, token: &str) -> Option<Int> {
        match crate::dice::parse(token) {
            Ok(d) => Some(Int::Dice(d)),
            Err(e) => {
                let start = form.span.start as usize;
                let span = Span::new(start + e.at.start, start + e.at.end);
                self.error(
                    Diagnostic::new(Code::from(e.fault), span, e.message)
                        .with_label("not dice")
                        .with_help(e.help),
                );
                None
            }
        }
    }

    /// A number that must be an integer.
    pub(super) fn int(&mut self, form: &Form<'a>) -> Option<Int> {
        match self.num(form)? {
            Num::Int(i) => Some(i),
            Num::Dec(_) => {
                self.error(
                    Diagnostic::new(
                        Code::DecimalNotInteger,
                        form.span,
                        "expected an integer, found a decimal",
                    )
                    .with_label("a decimal")
                    .with_help("make it whole with `[round …]`, `[floor …]` or `[ceil …]`"),
                );
                None
            }
        }
    }

    /// `[:you :wall]`: an attribute's value for an entity.
    fn smart_value(&mut self, form: &Form<'a>, items: &[Form<'a>]) -> Option<Int> {
        let [who, what] = items else {
            self.error(
                Diagnostic::new(
                    Code::SmartValueShape,
                    form.span,
                    format!(
                        "a smart value has two parts, `[:you :wall]`; this has {}",
                        items.len()
                    ),
                )
                .with_label("expected `[role attribute]`"),
            );
            return None;
        };
        let entity = self.entity(who);
        let attr = match &what.kind {
            Kind::Keyword(k) => match self.scope.attributes.iter().position(|a| a == k) {
                Some(i) => Some(AttrId::new(i)),
                None if self.scope.operations.iter().any(|o| o == k) => {
                    self.error(
                        Diagnostic::new(
                            Code::OperationRead,
                            what.span,
                            format!("`:{k}` is an operation, not a stored value"),
                        )
                        .with_label("cannot be read")
                        .with_help(format!(
                            "smart values read attributes: {}",
                            self.attribute_list()
                        )),
                    );
                    None
                }
                None => {
                    self.error(self.unknown_attribute(what.span, k));
                    None
                }
            },
            _ => {
                self.wrong_kind(
                    Code::WrongType,
                    what,
                    "an attribute keyword such as `:wall`",
                    &what.describe(),
                );
                None
            }
        };
        Some(Int::Attr(entity?, attr?))
    }
}

/// The number card value `name` stands for. Out of line: `num` recurses.
#[inline(never)]
fn card_value(values: &[(String, crate::check::ast::CardValue)], name: &str) -> Num {
    match values.iter().find(|(v, _)| v == name).map(|(_, n)| *n) {
        Some(crate::check::ast::CardValue::Dec(d)) => Num::Dec(Dec::Lit(d)),
        Some(crate::check::ast::CardValue::Int(n)) => Num::Int(Int::Lit(n)),
        None => Num::Int(Int::Lit(0)),
    }
}

/// `[+ 1d20 a …]`, dice first and a rest that draws no chance: one roll whose
/// modifier is the rest, so the log shows it as tabletop players say it
/// (`1d20+3: 15 (12+3)`). `None` for any other sum.
fn roll_with_modifier(ints: &[Int]) -> Option<Int> {
    let [Int::Dice(dice), rest @ ..] = ints else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    let mut draws = false;
    rest.iter()
        .for_each(|i| i.leaves(&mut |leaf| draws |= leaf == crate::check::ast::Leaf::Draw));
    if draws {
        return None;
    }
    let modifier = match rest {
        [one] => one.clone(),
        _ => Int::Fold(Arith::Add, rest.into()),
    };
    Some(Int::Roll(Box::new((*dice, modifier))))
}
