//! Reading maps of closed key sets and names a rule set declares, with the
//! errors that say what was meant: the helpers `rules/` and the checker share.

use super::keys::Keys;
use crate::diag::{Code, Diagnostic, list_and};
use crate::syntax::{Form, Kind, Span};

/// Reads a map whose keys must be keywords of `K` (only those in `allowed`);
/// returns the pairs in order.
///
/// Symbol keys (`effected` for `:effected`), unknown keys and non-map forms are
/// reported; the known pairs are still returned when possible.
pub fn fields<'f, 'a, K: Keys>(
    form: &'f Form<'a>,
    what: &str,
    allowed: &[K],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<(K, &'f Form<'a>)>> {
    fields_with(form, what, allowed, &[], diags).map(|(known, _)| known)
}

/// [`fields`] for a map of one shape among several written alike: the keys
/// that make a map another shape (`:each` for an effect map) are not allowed
/// here, but an unknown key's help and "did you mean" name them too, as the
/// designer may have meant one.
pub fn fields_among<'f, 'a, K: Keys>(
    form: &'f Form<'a>,
    what: &str,
    allowed: &[K],
    others: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<(K, &'f Form<'a>)>> {
    read_fields(form, what, (allowed, &[], others), diags).map(|(known, _)| known)
}

/// [`fields`], where the keys named in `extra` (a rule set's own, such as a
/// card's values) are allowed too and returned apart, by name.
#[allow(clippy::type_complexity)]
pub fn fields_with<'f, 'a, K: Keys>(
    form: &'f Form<'a>,
    what: &str,
    allowed: &[K],
    extra: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<(K, &'f Form<'a>)>, Vec<(&'a str, &'f Form<'a>)>)> {
    read_fields(form, what, (allowed, extra, &[]), diags)
}

/// The keys [`read_fields`] knows: those of `K` allowed, a rule set's own
/// allowed too, and others only named in help.
type KeySets<'k, K> = (&'k [K], &'k [&'k str], &'k [&'k str]);

/// What [`fields_with`] and [`fields_among`] share.
#[allow(clippy::type_complexity)]
fn read_fields<'f, 'a, K: Keys>(
    form: &'f Form<'a>,
    what: &str,
    (allowed, extra, others): KeySets<'_, K>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<(K, &'f Form<'a>)>, Vec<(&'a str, &'f Form<'a>)>)> {
    let Kind::Map(pairs) = &form.kind else {
        diags.push(
            Diagnostic::new(
                Code::NotAMap,
                form.span,
                format!("expected {what} (a map), found {}", form.describe()),
            )
            .with_label(format!("expected {what}")),
        );
        return None;
    };
    let names = || {
        allowed
            .iter()
            .map(|k| k.name())
            .chain(extra.iter().copied())
            .chain(others.iter().copied())
    };
    let known = |name: &str| K::find(name).filter(|k| allowed.contains(k));
    let mut out = Vec::with_capacity(pairs.len());
    let mut more = Vec::new();
    for (k, v) in pairs.iter() {
        match &k.kind {
            Kind::Keyword(name) if known(name).is_some() => {
                out.extend(known(name).map(|key| (key, v)));
            }
            Kind::Keyword(name) if extra.contains(name) => more.push((*name, v)),
            Kind::Keyword(name) => {
                let d = Diagnostic::new(
                    Code::UnknownKey,
                    k.span,
                    format!("unknown key `:{name}` in {what}"),
                )
                .with_label("unknown key");
                diags.push(match K::RENAMED.iter().find(|(old, _)| old == name) {
                    // A key under its former name: say the new one.
                    Some((_, help)) => d.with_help(*help),
                    None => d
                        .suggest(name, names(), |s| format!(":{s}"))
                        .with_help_if_none(format!(
                            "the keys of {what} are {}",
                            list_and(names().map(|a| format!("`:{a}`")))
                        )),
                });
            }
            Kind::Symbol(name) if known(name).is_some() => {
                diags.push(
                    Diagnostic::new(
                        Code::SymbolKey,
                        k.span,
                        format!("`{name}` is a symbol, but keys are keywords"),
                    )
                    .with_label("missing `:`")
                    .with_help(format!("write `:{name}`")),
                );
            }
            _ => {
                diags.push(
                    Diagnostic::new(
                        Code::KeyNotKeyword,
                        k.span,
                        format!("keys of {what} are keywords, found {}", k.describe()),
                    )
                    .with_label("expected a keyword")
                    .suggest(k.as_symbol().unwrap_or(""), names(), |s| format!(":{s}")),
                );
            }
        }
    }
    Some((out, more))
}

/// The member of the closed set `K` that the keyword `v` names (a moment, a
/// polarity); otherwise an error at it saying `message`, labelled `label`,
/// with the nearest name, or else `help`.
pub fn keyword_in<K: Keys>(
    v: &Form<'_>,
    message: String,
    label: &str,
    help: Option<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<K> {
    let name = v.as_keyword().unwrap_or("");
    let found = K::find(name);
    if found.is_none() {
        let d = Diagnostic::new(Code::NotOneOf, v.span, message)
            .with_label(label.to_string())
            .suggest(name, K::ALL.iter().map(|k| k.name()), |s| format!(":{s}"));
        diags.push(match help {
            Some(help) => d.with_help_if_none(help),
            None => d,
        });
    }
    found
}

/// Names a rule set declares (kinds, categories, attributes, timings), for
/// finding the one a keyword names, or saying which it could have meant.
pub struct Declared<'n> {
    names: Vec<&'n str>,
    /// "a kind": what one of them is, for the label.
    noun: &'static str,
    /// "kinds": what they are, for the list.
    plural: &'static str,
    /// The help when none is declared at all.
    when_empty: Option<String>,
    /// The error's label, if not the usual.
    label: Option<String>,
    /// The kind of the error when a name is not declared.
    code: Code,
}

impl<'n> Declared<'n> {
    /// `names`, each one `noun`, together `plural`; a name not among them
    /// is an error of kind `code`.
    pub fn new(
        names: impl IntoIterator<Item = &'n str>,
        noun: &'static str,
        plural: &'static str,
        code: Code,
    ) -> Declared<'n> {
        Declared {
            names: names.into_iter().collect(),
            noun,
            plural,
            when_empty: None,
            label: None,
            code,
        }
    }

    /// The help to give when no name is declared.
    pub fn when_empty(mut self, help: String) -> Declared<'n> {
        self.when_empty = Some(help);
        self
    }

    /// The label of the error, where "not {noun} of this rule set" says too
    /// little (a field of one set of choices).
    pub fn labelled(mut self, label: String) -> Declared<'n> {
        self.label = Some(label);
        self
    }

    /// The index of `name`; otherwise an error at `span` saying `message`,
    /// labelled "not {noun} of this rule set", with the nearest name or the list.
    pub fn find(
        &self,
        name: &str,
        span: Span,
        message: String,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<usize> {
        if let Some(i) = self.names.iter().position(|n| *n == name) {
            return Some(i);
        }
        let label = self
            .label
            .clone()
            .unwrap_or_else(|| format!("not {} of this rule set", self.noun));
        let d = Diagnostic::new(self.code, span, message).with_label(label);
        // A form that is not a keyword (`name` empty) is near nothing: list them.
        let candidates = self.names.iter().copied().filter(|_| !name.is_empty());
        diags.push(match &self.when_empty {
            Some(help) if self.names.is_empty() => d.with_help(help.clone()),
            _ if self.names.is_empty() => {
                d.with_help(format!("this rule set declares no {}", self.plural))
            }
            _ => d
                .suggest(name, candidates, |s| format!(":{s}"))
                .with_help_if_none(format!(
                    "the {} are {}",
                    self.plural,
                    list_and(self.names.iter().map(|n| format!("`:{n}`")))
                )),
        });
        None
    }
}

/// The entry of a rule set's named list (`:lookups`, `:formulas`) that
/// `form`, an operator's first operand, names; otherwise an error with the
/// nearest name, or with how to `declare` one when there are none. `what` is
/// one of them ("a formula"), several ("formulas"), and the operator; `code`
/// the error's kind.
pub(super) fn named_entry<'s, T>(
    list: &'s [(String, T)],
    form: &Form<'_>,
    what: (&'static str, &'static str, &str),
    declare: &str,
    code: Code,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'s T> {
    let (noun, plural, op) = what;
    let message = match form.as_keyword() {
        Some(k) => format!("no {} `:{k}` is declared", noun.trim_start_matches("a ")),
        None => format!("`{op}` names {noun}, found {}", form.describe()),
    };
    Declared::new(list.iter().map(|(n, _)| n.as_str()), noun, plural, code)
        .when_empty(format!("declare it in the rule set: {declare}"))
        .find(form.as_keyword().unwrap_or(""), form.span, message, diags)
        .and_then(|i| list.get(i))
        .map(|(_, entry)| entry)
}

/// A `true` or `false` value of `:key`, or a type error.
pub fn flag(value: &Form<'_>, key: &str, diags: &mut Vec<Diagnostic>) -> Option<bool> {
    match value.kind {
        Kind::Bool(b) => Some(b),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    value.span,
                    format!("`:{key}` is `true` or `false`, found {}", value.describe()),
                )
                .with_label("expected `true` or `false`"),
            );
            None
        }
    }
}
