//! Names resolved against the scope: roles (`:you`, `:target`), resources
//! (attributes and operations), attributes, and kinds.

use super::{Checker, Declared, TARGET, THIS_CARD, list, list_and};
use crate::check::ast::{Entity, Resource};
use crate::diag::{Code, Diagnostic};
use crate::ids::{AttrId, KindId, OpId, RoleId};
use crate::syntax::{Form, Kind, Span};

impl<'a> Checker<'_, '_> {
    /// A role (`:you`), a name bound here (`:self`, `:target`), or a choice of two.
    pub(super) fn entity(&mut self, form: &Form<'a>) -> Option<Entity> {
        match &form.kind {
            Kind::Keyword(k) if *k == TARGET && self.scope.in_operation => Some(Entity::Target),
            Kind::Keyword(k) if *k == TARGET && !self.scope.bound.contains(&TARGET) => {
                self.error(
                    Diagnostic::new(
                        Code::UnboundTarget,
                        form.span,
                        "`:target` is bound only in an operation's `:effects` and in an action with a `:target`",
                    )
                    .with_label("not bound here")
                    .with_help(format!(
                        "here, name a role: {}",
                        // The names the engine binds here too (`:holder` in a status).
                        list(
                            self.scope
                                .roles
                                .iter()
                                .map(String::as_str)
                                .chain(self.scope.bound.iter().copied())
                                .map(|e| format!("`:{e}`"))
                        )
                    )),
                );
                None
            }
            Kind::Keyword(k) if *k == THIS_CARD => self.this_card(form),
            // The innermost binding of a bound name wins (`:self` of a nested `:each`).
            Kind::Keyword(k) => match self
                .scope
                .bound
                .iter()
                .rposition(|e| e == k)
                .map(|i| self.scope.roles.len() + i)
                .or_else(|| self.scope.roles.iter().position(|e| e == k))
            {
                Some(i) => Some(Entity::Role(RoleId::new(i))),
                None => {
                    // Each name once: a nested `:each` binds `:self` again.
                    let mut candidates: Vec<&str> = Vec::new();
                    let names = self.scope.roles.iter().map(String::as_str);
                    for name in names.chain(self.scope.bound.iter().copied()) {
                        if !candidates.contains(&name) {
                            candidates.push(name);
                        }
                    }
                    if self.scope.in_operation && !candidates.contains(&TARGET) {
                        candidates.push(TARGET);
                    }
                    let names = list_and(candidates.iter().map(|e| format!("`:{e}`")));
                    let help = match candidates.as_slice() {
                        [] => "no role is bound here".to_string(),
                        [one] => format!("the only role here is `:{one}`"),
                        _ => format!("the roles are {names}"),
                    };
                    // Where no seat's turn is bound (a removal), `:you` is a
                    // role of the rule set, only not one here.
                    let label = if self.scope.roles.is_empty() {
                        "not bound here"
                    } else {
                        "not a role of this rule set"
                    };
                    self.error(
                        Diagnostic::new(
                            Code::UnknownRole,
                            form.span,
                            format!("unknown role `:{k}`"),
                        )
                        .with_label(label)
                        .suggest(k, candidates.iter().copied(), |s| format!(":{s}"))
                        .with_help_if_none(help),
                    );
                    None
                }
            },
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => self
                .choice(
                    form,
                    items,
                    "a role such as `:you`",
                    Self::entity,
                    Entity::If,
                ),
            _ => {
                self.wrong_kind(
                    Code::WrongType,
                    form,
                    "a role such as `:you`",
                    &form.describe(),
                );
                None
            }
        }
    }

    /// An attribute or an operation (`:wall`, `:damage`), or a choice of two.
    pub(super) fn resource(&mut self, form: &Form<'a>) -> Option<Resource> {
        match &form.kind {
            Kind::Keyword(k) => {
                if let Some(i) = self.scope.attributes.iter().position(|a| a == k) {
                    Some(Resource::Attr(AttrId::new(i)))
                } else if let Some(i) = self.scope.operations.iter().position(|o| o == k) {
                    Some(Resource::Op(OpId::new(i)))
                } else {
                    let names = self
                        .scope
                        .attributes
                        .iter()
                        .chain(self.scope.operations)
                        .map(String::as_str);
                    let d = Diagnostic::new(
                        Code::UnknownResource,
                        form.span,
                        format!("unknown resource `:{k}`"),
                    )
                    .with_label("not a resource of this rule set")
                    .suggest(k, names, |s| format!(":{s}"))
                    .with_help_if_none(format!(
                        "the resources are {}",
                        list_and(
                            self.scope
                                .attributes
                                .iter()
                                .chain(self.scope.operations)
                                .map(|a| format!("`:{a}`"))
                        )
                    ));
                    self.error(d);
                    None
                }
            }
            Kind::Vector(items) if !items.is_empty() && items[0].as_symbol().is_some() => self
                .choice(
                    form,
                    items,
                    "a resource such as `:wall`",
                    Self::resource,
                    Resource::If,
                ),
            _ => {
                self.wrong_kind(
                    Code::WrongType,
                    form,
                    "a resource such as `:wall`",
                    &form.describe(),
                );
                None
            }
        }
    }

    /// A kind the rule set declares, named by `value` under `key`.
    pub(super) fn kind_named(&mut self, value: &Form<'a>, key: &str) -> Option<KindId> {
        let message = format!(
            "{key} names one of the rule set's kinds, found {}",
            value.describe()
        );
        Declared::new(
            self.scope.kinds.iter().map(String::as_str),
            "a kind",
            "kinds",
            Code::UnknownKind,
        )
        .find(
            value.as_keyword().unwrap_or(""),
            value.span,
            message,
            self.diags,
        )
        .map(KindId::new)
    }

    /// The attributes, for a message: "`:a`, `:b` and `:c`".
    pub(super) fn attribute_list(&self) -> String {
        list_and(self.scope.attributes.iter().map(|a| format!("`:{a}`")))
    }

    /// The error for an attribute the rule set does not declare, with the nearest.
    pub(super) fn unknown_attribute(&self, span: Span, name: &str) -> Diagnostic {
        Diagnostic::new(
            Code::UnknownAttribute,
            span,
            format!("unknown attribute `:{name}`"),
        )
        .with_label("not an attribute of this rule set")
        .suggest(
            name,
            self.scope.attributes.iter().map(String::as_str),
            |s| format!(":{s}"),
        )
        .with_help_if_none(if self.scope.attributes.is_empty() {
            "this rule set declares no attributes".to_string()
        } else {
            format!("the attributes are {}", self.attribute_list())
        })
    }
}
