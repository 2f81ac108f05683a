//! Status filters (`:debuff`, `[:debuff :fire]`, `#{:fire :ice}`, `:any`) and the
//! status queries that take one: `[statuses …]`, `[turns-left …]`, `[has …]`.

use super::calls::Call;
use super::keys::Keys;
use super::{ANY, Checker, Declared};
use crate::check::ast::{Entity, Filter, Polarity};
use crate::diag::{Code, Diagnostic};
use crate::ids::{CategoryId, FlagId, StatusId};
use crate::syntax::{Form, Kind, Span};

impl<'a> Checker<'_, '_> {
    /// The keywords of a filter, every one to hold.
    pub(super) fn filter_of(&mut self, items: &[Form<'a>], span: Span) -> Option<Filter> {
        let mut f = Filter::default();
        let mut ok = true;
        for item in items {
            if let Kind::Set(members) = &item.kind {
                // `#{:heal :block-healing}`: any one of these categories.
                if f.categories != 0 {
                    self.error(
                        Diagnostic::new(
                            Code::FilterShape,
                            item.span,
                            "a filter names one category, or one set of them, at most",
                        )
                        .with_label("a second of its sort"),
                    );
                }
                let declared = Declared::new(
                    self.scope.categories.iter().map(String::as_str),
                    "a category",
                    "categories",
                    Code::UnknownCategory,
                )
                .when_empty("declare categories first: `:categories {:fire \"…\"}`".to_string());
                for member in members.iter() {
                    let message = format!(
                        "a set in a filter holds categories, found {}",
                        member.describe()
                    );
                    let name = member.as_keyword().unwrap_or("");
                    match declared.find(name, member.span, message, self.diags) {
                        Some(i) => {
                            f.categories |= crate::check::ast::category_bit(CategoryId::new(i))
                        }
                        None => ok = false,
                    }
                }
                if members.is_empty() {
                    self.error(
                        Diagnostic::new(
                            Code::FilterShape,
                            item.span,
                            "an empty set of categories matches nothing",
                        )
                        .with_label("empty"),
                    );
                    ok = false;
                }
                continue;
            }
            let Some(name) = item.as_keyword() else {
                self.wrong_kind(
                    Code::WrongType,
                    item,
                    "a status, category, flag, `:buff` or `:debuff`",
                    &item.describe(),
                );
                ok = false;
                continue;
            };
            let pos = |names: &[String]| names.iter().position(|n| n == name);
            let twice = |slot: bool, cx: &mut Self| {
                if slot {
                    cx.error(
                        Diagnostic::new(
                            Code::FilterShape,
                            item.span,
                            "a filter names one status, one category, one flag and one polarity at most",
                        )
                        .with_label("a second of its sort"),
                    );
                }
            };
            if name == ANY && items.len() == 1 {
                continue;
            } else if let Some(p) = Polarity::find(name) {
                twice(f.polarity.is_some(), self);
                f.polarity = Some(p);
            } else if let Some(i) = pos(self.scope.statuses) {
                twice(f.status.is_some(), self);
                f.status = Some(StatusId::new(i));
            } else if let Some(i) = pos(self.scope.categories) {
                twice(f.categories != 0, self);
                f.categories = crate::check::ast::category_bit(CategoryId::new(i));
            } else if let Some(i) = pos(self.scope.flags) {
                twice(f.flag.is_some(), self);
                f.flag = Some(FlagId::new(i));
            } else {
                let names = self
                    .scope
                    .statuses
                    .iter()
                    .chain(self.scope.categories)
                    .chain(self.scope.flags)
                    .map(String::as_str)
                    .chain(["buff", "debuff", ANY]);
                self.error(
                    Diagnostic::new(
                        Code::FilterNoMatch,
                        item.span,
                        format!("`:{name}` is not a status, category, flag or polarity"),
                    )
                    .with_label("matches nothing")
                    .suggest(name, names, |s| format!(":{s}"))
                    .with_help_if_none(
                        "a filter keyword names a status, a category (`:categories`), a flag (`:flags`), `:buff`, `:debuff` or `:any`",
                    ),
                );
                ok = false;
            }
        }
        if items.is_empty() {
            self.error(
                Diagnostic::new(
                    Code::FilterShape,
                    span,
                    "an empty filter: write `:any` to match every status",
                )
                .with_label("empty"),
            );
            ok = false;
        }
        ok.then_some(f)
    }

    /// `[statuses who filter…]`, `[turns-left …]`, `[has …]`: who, and the filter.
    pub(super) fn status_query(&mut self, call: &Call<'_, 'a>) -> Option<(Box<Entity>, Filter)> {
        let Some((who, rest)) = call.args.split_first() else {
            self.arity(call, "a role first, then filter keywords");
            return None;
        };
        let who = self.entity(who);
        let f = if rest.is_empty() {
            Some(Filter::default())
        } else {
            self.filter_of(rest, call.span)
        };
        Some((Box::new(who?), f?))
    }
}
