//! Files: finding data files, reading them safely, and checking each against its rule set.
//!
//! A file is either a rule set (one map with `:rules`) or a definitions file:
//! top-level maps, each a `{:card "Name" …}` or an `{:effect "Name" …}`. A
//! definitions file is checked against the rule set named by `--rules`, or else
//! against the rule set whose name is one of the file's folders
//! (`cards/arcomage/miners.edn` is an Arcomage file).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ast::{AttrId, Effect};
use crate::check::{self, EFFECT_KEYS};
use crate::diag::{Diagnostic, Severity, Source};
use crate::rules::{BUNDLED, RuleSet};
use crate::syntax::{Form, Kind, Span, read};

/// The file extensions `check` reads when given a folder.
pub const EXTENSIONS: &[&str] = &["edn", "csv"];

fn is_csv(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".csv")
}

/// What a definition defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    /// `{:card "Miners" …}`
    Card,
    /// `{:effect "Foundations" …}`
    Effect,
}

/// A checked card or named effect.
#[derive(Clone, Debug)]
pub struct Definition {
    /// Card or effect.
    pub kind: DefKind,
    /// Its name.
    pub name: String,
    /// Its text for players (`:text`), if any.
    pub text: Option<String>,
    /// Its checked effects.
    pub effects: Vec<Effect>,
    /// How a card is played: cost, flags; defaults for named effects.
    pub play: CardRules,
    /// The rule set it was checked against.
    pub rules: String,
    /// Index of its file in [`Checked::sources`].
    pub source: usize,
    /// The definition's map.
    pub span: Span,
}

/// How a card is played, beyond its effects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardRules {
    /// The attribute the cost is paid in (`:type :bricks`), if it costs anything.
    pub pay_with: Option<AttrId>,
    /// The cost (`:cost 3`).
    pub cost: i64,
    /// `:play-again true`: the same player acts again after it.
    pub play_again: bool,
    /// `:discardable false`: it can never be discarded.
    pub discardable: bool,
    /// `:draw N`: cards drawn after it is played.
    pub draw: u8,
    /// `:discard N`: cards the player must then discard.
    pub discard: u8,
    /// `:copies N`: how many of it a deck holds.
    pub copies: u8,
}

impl Default for CardRules {
    fn default() -> CardRules {
        CardRules {
            pay_with: None,
            cost: 0,
            play_again: false,
            discardable: true,
            draw: 0,
            discard: 0,
            copies: 1,
        }
    }
}

/// The result of checking a set of files.
#[derive(Debug, Default)]
pub struct Checked {
    /// Every file read, in the order checked.
    pub sources: Vec<Source>,
    /// Diagnostics, each with the index of its source.
    pub diagnostics: Vec<(usize, Diagnostic)>,
    /// Paths that could not be read at all (missing, unreadable): usage or I/O errors.
    pub io_errors: Vec<String>,
    /// Rule sets found among the files, checked.
    pub rule_sets: Vec<RuleSet>,
    /// Cards and effects that checked clean.
    pub definitions: Vec<Definition>,
}

impl Checked {
    /// How many diagnostics are errors.
    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|(_, d)| d.severity == Severity::Error)
            .count()
    }
}

const CARD_KEYS: &[&str] = &[
    "card",
    "text",
    "effects",
    "type",
    "cost",
    "play-again",
    "discardable",
    "draw",
    "discard",
    "copies",
];
const NAMED_EFFECT_KEYS: &[&str] = &["effect", "text", "effects"];

/// Finds the data files under `paths` (files as given, folders recursively, sorted).
pub fn discover(paths: &[PathBuf], io_errors: &mut Vec<String>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut out, io_errors),
            Ok(_) => out.push(path.clone()),
            Err(e) => io_errors.push(format!("{}: {e}", path.display())),
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, io_errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            io_errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        // A symlinked folder is not followed: `up -> ..` would read everything again.
        let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        if path.is_dir() {
            if !link {
                walk(&path, out, io_errors);
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            out.push(path);
        }
    }
}

/// Reads a file as UTF-8 text; a file that is not text becomes a diagnostic, not a panic.
pub fn load(path: &Path) -> Result<Result<Source, (Source, Diagnostic)>, std::io::Error> {
    let bytes = std::fs::read(path)?;
    let shown = path.display().to_string();
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(shown, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let d = Diagnostic::error(
                Span::new(at, at + 1),
                format!("this file is not UTF-8 text (invalid byte at offset {at})"),
            )
            .with_label("not UTF-8")
            .with_help("grimoire reads UTF-8 text files; is this a binary file?");
            Err((Source::new(shown, text), d))
        }
    })
}

/// Checks every file under `paths`. With `rules`, definitions files are checked against it.
pub fn check_paths(paths: &[PathBuf], rules: Option<&RuleSet>) -> Checked {
    let mut out = Checked::default();
    let files = discover(paths, &mut out.io_errors);
    for path in &files {
        match load(path) {
            Ok(Ok(source)) => out.sources.push(source),
            Ok(Err((source, d))) => {
                out.diagnostics.push((out.sources.len(), d));
                out.sources.push(source);
            }
            Err(e) => out.io_errors.push(format!("{}: {e}", path.display())),
        }
    }
    check_loaded(out, rules)
}

/// Checks texts already in memory (the decks compiled into the binary, say) as
/// [`check_paths`] checks files.
pub fn check_sources(sources: Vec<Source>, rules: Option<&RuleSet>) -> Checked {
    check_loaded(
        Checked {
            sources,
            ..Checked::default()
        },
        rules,
    )
}

/// The decks compiled into the binary, by rule set: what `play` and `simulate`
/// use when there is no `cards/RULES` folder and no `--cards`.
pub const BUNDLED_DECKS: &[(&str, &[(&str, &str)])] = &[(
    "arcomage",
    // In the order `discover` sorts the folder's files, so a seed deals the same game either way.
    &[
        (
            "cards/arcomage/beasts.edn",
            include_str!("../cards/arcomage/beasts.edn"),
        ),
        (
            "cards/arcomage/bricks.edn",
            include_str!("../cards/arcomage/bricks.edn"),
        ),
        (
            "cards/arcomage/gems.edn",
            include_str!("../cards/arcomage/gems.edn"),
        ),
    ],
)];

/// Checks the sources in `out` (files already read, with any read problems noted).
fn check_loaded(mut out: Checked, rules: Option<&RuleSet>) -> Checked {
    let unreadable: Vec<usize> = out.diagnostics.iter().map(|(i, _)| *i).collect();
    // First the rule sets, so definitions can be checked against rule sets given beside them.
    let mut kinds = Vec::with_capacity(out.sources.len());
    for (i, source) in out.sources.iter().enumerate() {
        if unreadable.contains(&i) {
            kinds.push(None);
            continue;
        }
        if is_csv(&source.path) {
            kinds.push(Some(()));
            continue;
        }
        let read = read(&source.text);
        if !read.errors.is_empty() {
            out.diagnostics
                .extend(read.errors.iter().map(|e| (i, Diagnostic::from(e))));
            kinds.push(None);
            continue;
        }
        if read.forms.is_empty() {
            out.diagnostics.push((
                i,
                Diagnostic::error(
                    Span::new(0, 0),
                    "this file holds no forms: expected a rule set or card and effect definitions",
                ),
            ));
            kinds.push(None);
            continue;
        }
        if let [form] = read.forms.as_slice()
            && form.has_key("rules")
        {
            let mut diags = Vec::new();
            if let Some(rs) = RuleSet::from_form(form, &mut diags)
                && diags.is_empty()
            {
                out.rule_sets.push(rs);
            }
            out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
            kinds.push(None);
            continue;
        }
        kinds.push(Some(()));
    }
    let mut bundled: HashMap<String, Option<RuleSet>> = HashMap::new();
    let mut seen: HashMap<(String, String), (usize, Span)> = HashMap::new();
    for (i, kind) in kinds.iter().enumerate() {
        if kind.is_none() {
            continue;
        }
        let source = &out.sources[i];
        let chosen = match rules {
            Some(r) => Some(r),
            None => {
                let found = rule_set_for(Path::new(&source.path), &out.rule_sets, &mut bundled);
                found.or_else(|| {
                    let names: Vec<&str> = BUNDLED
                        .iter()
                        .map(|(n, _)| *n)
                        .chain(out.rule_sets.iter().map(|r| r.name.as_str()))
                        .collect();
                    out.diagnostics.push((
                        i,
                        Diagnostic::error(
                            Span::new(0, 0),
                            format!("cannot tell which rule set `{}` is written for", source.path),
                        )
                        .with_help(format!(
                            "put it in a folder named after its rule set (such as `cards/arcomage/`), or pass `--rules NAME`; known rule sets: {}",
                            names.join(", ")
                        )),
                    ));
                    None
                })
            }
        };
        let Some(rs) = chosen else { continue };
        let mut diags = Vec::new();
        let cells;
        let read_result;
        let forms = if is_csv(&source.path) {
            match crate::csv::rows(&source.text) {
                Ok(rows) => {
                    cells = rows;
                    crate::csv::cards(&cells, &mut diags)
                }
                Err(d) => {
                    diags.push(d);
                    Vec::new()
                }
            }
        } else {
            read_result = read(&source.text);
            read_result.forms
        };
        for form in &forms {
            if let Some(def) = definition(form, rs, i, &mut diags) {
                let key = (rs.name.clone(), def.name.clone());
                if let Some((file, first)) = seen.get(&key) {
                    let mut d = Diagnostic::error(
                        name_span(form).unwrap_or(form.span),
                        format!("`{}` is defined twice in rule set `{}`", def.name, rs.name),
                    )
                    .with_label("defined again");
                    if *file == i {
                        d = d.with_related(*first, "first defined here");
                    } else {
                        d = d.with_help(format!(
                            "it is first defined in {}",
                            out.sources[*file].path
                        ));
                    }
                    diags.push(d);
                } else {
                    seen.insert(key, (i, name_span(form).unwrap_or(form.span)));
                    out.definitions.push(def);
                }
            }
        }
        out.diagnostics.extend(diags.into_iter().map(|d| (i, d)));
    }
    out
}

/// The rule set a file belongs to: the nearest folder named after a known rule set.
fn rule_set_for<'r>(
    path: &Path,
    found: &'r [RuleSet],
    bundled: &'r mut HashMap<String, Option<RuleSet>>,
) -> Option<&'r RuleSet> {
    let is_bundled = |dir: &str| BUNDLED.iter().any(|(n, _)| *n == dir);
    let dir = rules_folder(path, |dir| {
        found.iter().any(|r| r.name == dir) || is_bundled(dir)
    })?;
    if let Some(rs) = found.iter().find(|r| r.name == dir) {
        return Some(rs);
    }
    bundled
        .entry(dir.to_string())
        .or_insert_with(|| RuleSet::bundled(dir).and_then(Result::ok))
        .as_ref()
}

/// The nearest folder above `path` whose name `is_rule_set` accepts: the rule
/// set a file is written for (`cards/arcomage/bricks.edn` → `arcomage`).
pub fn rules_folder(path: &Path, is_rule_set: impl Fn(&str) -> bool) -> Option<&str> {
    path.ancestors()
        .skip(1)
        .filter_map(|p| p.file_name().and_then(|n| n.to_str()))
        .find(|dir| is_rule_set(dir))
}

fn name_span(form: &Form<'_>) -> Option<Span> {
    let Kind::Map(pairs) = &form.kind else {
        return None;
    };
    pairs
        .iter()
        .find(|(k, _)| matches!(k.as_keyword(), Some("card" | "effect")))
        .map(|(_, v)| v.span)
}

/// Checks one `{:card …}` or `{:effect …}` map.
pub fn definition(
    form: &Form<'_>,
    rules: &RuleSet,
    source: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<Definition> {
    let before = diags.len();
    let kind = if form.has_key("card") {
        DefKind::Card
    } else if form.has_key("effect") {
        DefKind::Effect
    } else {
        let mut d = Diagnostic::error(
            form.span,
            format!(
                "expected a definition, `{{:card \"Name\" …}}` or `{{:effect \"Name\" …}}`, found {}",
                form.describe()
            ),
        );
        if let Kind::Map(pairs) = &form.kind
            && pairs
                .iter()
                .any(|(k, _)| k.as_keyword().is_some_and(|k| EFFECT_KEYS.contains(&k)))
        {
            d = d.with_help(
                "this looks like an effect map: put it in a definition's `:effects` vector",
            );
        } else if matches!(form.kind, Kind::Vector(_)) {
            d = d.with_help("a bare effect list needs a name: `{:effect \"Name\" :effects [...]}`");
        }
        diags.push(d);
        return None;
    };
    let (keys, what) = match kind {
        DefKind::Card => (CARD_KEYS, "a card"),
        DefKind::Effect => (NAMED_EFFECT_KEYS, "an effect definition"),
    };
    let pairs = check::fields(form, what, keys, diags)?;
    let mut name = None;
    let mut text = None;
    let mut effects = None;
    let mut play = CardRules::default();
    for (key, value) in pairs {
        match key {
            "type" => match value.as_keyword().and_then(|k| rules.attribute(k)) {
                Some(a) if rules.pay_with.is_empty() || rules.pay_with.contains(&a) => {
                    play.pay_with = Some(a)
                }
                _ => {
                    let allowed: Vec<&str> = if rules.pay_with.is_empty() {
                        rules.attributes.iter().map(String::as_str).collect()
                    } else {
                        rules
                            .pay_with
                            .iter()
                            .map(|&a| rules.attributes[a as usize].as_str())
                            .collect()
                    };
                    diags.push(
                        Diagnostic::error(
                            value.span,
                            format!(
                                "`:type` names what the card is paid in, found {}",
                                value.describe()
                            ),
                        )
                        .with_label("not a card type of this rule set")
                        .suggest(
                            value.as_keyword().unwrap_or(""),
                            allowed.iter().copied(),
                            |s| format!(":{s}"),
                        )
                        .with_help_if_none(format!(
                            "the card types are {}",
                            check::list_and(allowed.iter().map(|a| format!("`:{a}`")))
                        )),
                    );
                }
            },
            "cost" => play.cost = count(value, key, i64::MAX, diags).unwrap_or(0),
            "draw" => play.draw = count(value, key, 10, diags).unwrap_or(0) as u8,
            "discard" => play.discard = count(value, key, 10, diags).unwrap_or(0) as u8,
            "copies" => play.copies = count(value, key, 100, diags).unwrap_or(1) as u8,
            "play-again" => play.play_again = flag(value, key, diags).unwrap_or(false),
            "discardable" => play.discardable = flag(value, key, diags).unwrap_or(true),
            "card" | "effect" => match &value.kind {
                Kind::Str(s) if !s.trim().is_empty() => name = Some(s.to_string()),
                Kind::Str(_) => diags.push(
                    Diagnostic::error(value.span, "a name cannot be empty")
                        .with_label("expected a name such as \"Miners\""),
                ),
                _ => diags.push(
                    Diagnostic::error(
                        value.span,
                        format!("a name is a string, found {}", value.describe()),
                    )
                    .with_label("expected a name such as \"Miners\""),
                ),
            },
            "text" => match &value.kind {
                Kind::Str(s) => text = Some(s.to_string()),
                _ => diags.push(Diagnostic::error(
                    value.span,
                    format!("`:text` is a string, found {}", value.describe()),
                )),
            },
            _ => effects = check::effects(value, &rules.scope(), diags),
        }
    }
    if kind == DefKind::Card && !rules.pay_with.is_empty() {
        for key in ["type", "cost"] {
            if !form.has_key(key) {
                diags.push(
                    Diagnostic::error(
                        form.span,
                        format!("a card of rule set `{}` needs `:{key}`", rules.name),
                    )
                    .with_label(format!("missing `:{key}`"))
                    .with_help(if key == "cost" {
                        "write `:cost 0` for a free card".to_string()
                    } else {
                        format!(
                            "write what it is paid in: {}",
                            check::list(
                                rules
                                    .pay_with
                                    .iter()
                                    .map(|&a| format!("`:type :{}`", rules.attributes[a as usize]))
                            )
                        )
                    }),
                );
            }
        }
    }
    if !form.has_key("effects") {
        diags.push(
            Diagnostic::error(form.span, format!("{what} needs `:effects`"))
                .with_label("missing `:effects`")
                .with_help("write `:effects []` for one that does nothing"),
        );
    }
    if let Some(list) = &effects
        && rules.expansion_of(list) > crate::rules::MAX_LIST_EXPANSION
    {
        diags.push(Diagnostic::error(
            value_span(form, "effects").unwrap_or(form.span),
            format!(
                "these effects expand to {} changes through operations; at most {}",
                rules.expansion_of(list),
                crate::rules::MAX_LIST_EXPANSION
            ),
        ));
    }
    if play.pay_with.is_none() && play.cost > 0 && !form.has_key("type") {
        diags.push(
            Diagnostic::warning(
                value_span(form, "cost").unwrap_or(form.span),
                "this card has a `:cost` but no `:type` to pay it in, so it is free",
            )
            .with_help("add `:type`, naming the attribute the cost is paid in"),
        );
    }
    if diags
        .iter()
        .skip(before)
        .any(|d| d.severity == crate::diag::Severity::Error)
    {
        return None;
    }
    let def = Definition {
        kind,
        name: name?,
        text,
        effects: effects?,
        play,
        rules: rules.name.clone(),
        source,
        span: form.span,
    };
    if kind == DefKind::Card
        && let Some(text) = &def.text
    {
        let at = value_span(form, "text").unwrap_or(form.span);
        for message in crate::lint::text_vs_card(rules, text, &def.effects, &def.play) {
            diags.push(
                Diagnostic::warning(at, message)
                    .with_label("the card's text")
                    .with_help("make the text and the data agree"),
            );
        }
    }
    Some(def)
}

fn value_span(form: &Form<'_>, key: &str) -> Option<Span> {
    match &form.kind {
        Kind::Map(pairs) => pairs
            .iter()
            .find(|(k, _)| k.as_keyword() == Some(key))
            .map(|(_, v)| v.span),
        _ => None,
    }
}

/// A whole number from 0 to `max`.
fn count(value: &Form<'_>, key: &str, max: i64, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    let range = if max == i64::MAX {
        "0 or more".to_string()
    } else {
        format!("from 0 to {max}")
    };
    match value.kind {
        Kind::Int(n) if (0..=max).contains(&n) => Some(n),
        _ => {
            let label = if matches!(value.kind, Kind::Int(_)) {
                "out of range"
            } else {
                "expected a whole number"
            };
            diags.push(
                Diagnostic::error(
                    value.span,
                    format!(
                        "`:{key}` is a whole number {range}, found {}",
                        value.describe()
                    ),
                )
                .with_label(label),
            );
            None
        }
    }
}

fn flag(value: &Form<'_>, key: &str, diags: &mut Vec<Diagnostic>) -> Option<bool> {
    match value.kind {
        Kind::Bool(b) => Some(b),
        _ => {
            diags.push(
                Diagnostic::error(
                    value.span,
                    format!("`:{key}` is `true` or `false`, found {}", value.describe()),
                )
                .with_label("expected `true` or `false`"),
            );
            None
        }
    }
}
