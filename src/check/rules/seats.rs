//! `:seats [:p1 :p2]`: the players of a game, in turn order. A rule set without
//! seats is not a game: its effects can be evaluated but not played.

use super::RuleSet;
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    match &value.kind {
        Kind::Vector(items) if items.len() > usize::from(u8::MAX) => diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            format!("a game has at most 255 seats; this lists {}", items.len()),
        )),
        Kind::Vector(items) => {
            for item in items.iter() {
                match item.as_keyword() {
                    Some(name) if rules.seats.iter().any(|s| s == name) => {
                        diags.push(Diagnostic::new(
                            Code::Duplicate,
                            item.span,
                            format!("seat `:{name}` is listed twice"),
                        ))
                    }
                    Some(name) => rules.seats.push(name.to_string()),
                    None => diags.push(Diagnostic::new(
                        Code::WrongType,
                        item.span,
                        format!("a seat is named by a keyword, found {}", item.describe()),
                    )),
                }
            }
        }
        _ => diags.push(Diagnostic::new(
            Code::WrongType,
            value.span,
            format!(
                "`:seats` is a vector of keywords such as `[:p1 :p2]`, found {}",
                value.describe()
            ),
        )),
    }
}

/// Seat roles bind each role to a different seat, so a game needs at least as many seats as roles.
pub(super) fn check_roles(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) {
    if !rules.seats.is_empty() && rules.seats.len() < rules.roles.len() {
        diags.push(Diagnostic::new(
            Code::SeatsAndRoles,
            form.span,
            format!(
                "{} seats cannot bind {} roles: each role names a different seat",
                rules.seats.len(),
                rules.roles.len()
            ),
        ));
    }
}
