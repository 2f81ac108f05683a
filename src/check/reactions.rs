//! Reaction cards: `:reaction {:on :played :where COND}` on a card (with
//! `:zones`) lets its owner play it out of turn, in the window a card of
//! another seat opens once it is paid for and before its effects run. In
//! its `:where` and its effects, `:you` is the reacting seat (its roles as
//! on its own turn), `:subject` the card being answered (its instance) and
//! `:source` that card's player: bound after the rule set's roles, as a
//! trigger's are ([`super::triggers::scope`]). Its effects may
//! `{:cancel :subject}` (E0408 anywhere else).

use super::keys::{Keys, keys};
use super::{Checker, Scope, fields};
use crate::check::ast::Bool;
use crate::check::triggers::On;
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Span};

/// A card's `:reaction`: when it may be played out of turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Reaction {
    /// What it answers: a card played (`:on :played`, the only sort so far).
    pub on: On,
    /// `:where`: whether this card may answer that one, `:subject`,
    /// `:source` and the reacting seat's roles bound.
    pub filter: Option<Bool>,
    /// The reaction's map.
    pub span: Span,
}

keys! {
    /// The keys of a card's `:reaction`.
    pub enum ReactionKey {
        /// `:on :played`: what it answers.
        On = "on",
        /// `:where condition`: whether it may answer this card.
        Where = "where",
    }
}

/// The scope of a reaction card's `:where` and effects: a trigger's (the
/// reacting seat's roles, then `:subject` and `:source`), where `:cancel` may be used.
pub fn scope<'r>(card: &Scope<'r>) -> Scope<'r> {
    Scope {
        in_reaction: true,
        ..super::triggers::scope(card)
    }
}

/// Checks `:reaction {:on :played :where COND}` in `scope` (a card's).
pub fn reaction(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Reaction> {
    let before = diags.len();
    let pairs = fields(form, "a reaction", ReactionKey::ALL, diags)?;
    let inner = self::scope(scope);
    let mut cx = Checker {
        scope: &inner,
        diags,
    };
    let mut out = Reaction {
        on: On::Played,
        filter: None,
        span: form.span,
    };
    let mut said_on = false;
    for (key, value) in &pairs {
        match key {
            ReactionKey::On => {
                said_on = true;
                if value.as_keyword() != Some(On::Played.name()) {
                    cx.error(
                        Diagnostic::new(
                            Code::NotOneOf,
                            value.span,
                            format!(
                                "a reaction answers a card played: `:on :played`, found {}",
                                value.describe()
                            ),
                        )
                        .with_label("expected `:played`"),
                    );
                }
            }
            ReactionKey::Where => out.filter = cx.boolean(value),
        }
    }
    if !said_on {
        cx.error(
            Diagnostic::new(Code::MissingKey, form.span, "this reaction has no `:on`")
                .with_label("missing `:on`")
                .with_help("say what it answers: `{:on :played :where [= :source :other]}`"),
        );
    }
    (cx.diags.len() == before).then_some(out)
}
