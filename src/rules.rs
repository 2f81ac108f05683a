//! Rule sets: the data that says what a game's effects may name.
//!
//! A rule-set file declares the entities effects can name (`:you`, `:other`),
//! the attributes each entity has (with defaults and bounds), and derived
//! operations such as Arcomage's `:damage`, whose meaning is written in the
//! effect language itself.

use crate::ast::{AttrId, Bool, Effect, Int, Leaf, OpId, RoleId, Target};
use crate::check::{self, AMOUNT, Scope, TARGET};
use crate::diag::{Diagnostic, Source};
use crate::syntax::{Form, Kind, Span, read};

/// Rule sets shipped inside the binary, by name.
pub const BUNDLED: &[(&str, &str)] = &[("arcomage", include_str!("../rules/arcomage.edn"))];

/// A checked rule set.
#[derive(Clone, Debug)]
pub struct RuleSet {
    /// Its name (`arcomage`).
    pub name: String,
    /// What it is, for people.
    pub doc: String,
    /// Entity names, in declaration order; a role's index is its position.
    pub entities: Vec<String>,
    /// What each entity name means.
    pub entity_docs: Vec<String>,
    /// Attribute names, in declaration order.
    pub attributes: Vec<String>,
    /// Defaults and bounds of each attribute.
    pub attribute_defs: Vec<AttrDef>,
    /// Each attribute's `(min, max)`, packed for the evaluator's clamp.
    pub bounds: Vec<(i64, i64)>,
    /// How many attribute changes each operation expands to at most.
    pub op_sizes: Vec<u64>,
    /// Operation names, in declaration order.
    pub operations: Vec<String>,
    /// Each operation's meaning.
    pub operation_defs: Vec<OpDef>,
    /// Named constants (`:tower-goal 50`), usable wherever a number is.
    pub params: Vec<(String, i64)>,
    /// The seats of a game, in turn order (`:p1 :p2`); empty if the rule set is not a game.
    pub seats: Vec<String>,
    /// Effects the engine applies at fixed moments of a turn.
    pub hooks: Hooks,
    /// How a game is won, checked after every action.
    pub victory: Vec<Victory>,
    /// The attributes a card's cost may be paid in (`:bricks :gems :beasts`).
    pub pay_with: Vec<AttrId>,
    /// How the greedy AI scores a state for the player whose turn it is (`:ai {:score …}`).
    pub ai_score: Option<Int>,
}

/// Effects applied by the engine at fixed moments, with `:you` bound to the player whose turn it is.
#[derive(Clone, Debug, Default)]
pub struct Hooks {
    /// At the start of each turn (Arcomage: production).
    pub turn_start: Vec<Effect>,
    /// At the end of each turn.
    pub turn_end: Vec<Effect>,
}

/// The names of the hooks, in the order a turn reaches them.
pub const HOOKS: &[&str] = &["turn-start", "turn-end"];

/// A way to win: when `when` holds, the entity `winner` names wins.
#[derive(Clone, Debug)]
pub struct Victory {
    /// The condition, checked with `:you` bound to each seat in turn.
    pub when: Bool,
    /// Who wins when it holds.
    pub winner: RoleId,
    /// Why, for the log.
    pub reason: String,
    /// The attributes the condition reads, by entity; `None` if it draws chance or
    /// reads through computed entities, and so must be checked every time.
    pub reads: Option<Vec<(RoleId, AttrId)>>,
}

/// The attributes a condition reads, or `None` if that cannot be known before it runs.
pub fn reads(b: &Bool) -> Option<Vec<(RoleId, AttrId)>> {
    let mut out = Vec::new();
    let mut knowable = true;
    b.leaves(&mut |leaf| match leaf {
        Leaf::Attr(Some(r), a) => out.push((r, a)),
        Leaf::Attr(None, _) | Leaf::Draw => knowable = false,
        Leaf::Int(_) | Leaf::Dec(_) | Leaf::Amount => {}
    });
    out.sort_unstable();
    out.dedup();
    knowable.then_some(out)
}

/// An attribute's default and bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrDef {
    /// Value when a state does not give one.
    pub default: i64,
    /// Smallest value; changes below it are clamped.
    pub min: i64,
    /// Largest value; changes above it are clamped.
    pub max: i64,
    /// What it is, for people.
    pub doc: String,
}

/// A derived operation such as `:damage`.
#[derive(Clone, Debug)]
pub struct OpDef {
    /// What it does, for people.
    pub doc: String,
    /// Its body: applied with `:target` bound to the effected entity and `:amount` to the amount.
    pub effects: Vec<Effect>,
}

const RULE_KEYS: &[&str] = &[
    "rules",
    "doc",
    "entities",
    "attributes",
    "operations",
    "params",
    "seats",
    "hooks",
    "victory",
    "cards",
    "ai",
];
const AI_KEYS: &[&str] = &["score"];
const VICTORY_KEYS: &[&str] = &["when", "winner", "reason"];
const CARDS_KEYS: &[&str] = &["pay-with"];
const ATTR_KEYS: &[&str] = &["default", "min", "max", "doc"];
const OP_KEYS: &[&str] = &["doc", "effects"];

impl RuleSet {
    /// The bundled rule set called `name`, checked.
    pub fn bundled(name: &str) -> Option<Result<RuleSet, Vec<Diagnostic>>> {
        BUNDLED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| RuleSet::parse(text))
    }

    /// Reads and checks a rule-set file's text.
    pub fn parse(text: &str) -> Result<RuleSet, Vec<Diagnostic>> {
        let read = read(text);
        let mut diags: Vec<Diagnostic> = read.errors.iter().map(Diagnostic::from).collect();
        if !diags.is_empty() {
            return Err(diags);
        }
        let form = match read.forms.as_slice() {
            [form] => form,
            [] => {
                return Err(vec![Diagnostic::error(
                    Span::new(0, 0),
                    "this rule-set file is empty: expected a map `{:rules :name …}`",
                )]);
            }
            [_, second, ..] => {
                return Err(vec![
                    Diagnostic::error(
                        second.span,
                        "a rule-set file holds one map; this is a second form",
                    )
                    .with_label("unexpected"),
                ]);
            }
        };
        match RuleSet::from_form(form, &mut diags) {
            Some(rules) if diags.is_empty() => Ok(rules),
            _ => Err(diags),
        }
    }

    /// Checks a rule set's map; problems go to `diags`.
    pub fn from_form(form: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<RuleSet> {
        let pairs = check::fields(form, "a rule set", RULE_KEYS, diags)?;
        let mut rules = RuleSet {
            name: String::new(),
            doc: String::new(),
            entities: Vec::new(),
            entity_docs: Vec::new(),
            attributes: Vec::new(),
            attribute_defs: Vec::new(),
            bounds: Vec::new(),
            op_sizes: Vec::new(),
            operations: Vec::new(),
            operation_defs: Vec::new(),
            params: Vec::new(),
            seats: Vec::new(),
            hooks: Hooks::default(),
            victory: Vec::new(),
            pay_with: Vec::new(),
            ai_score: None,
        };
        let mut op_forms = Vec::new();
        let mut later: Vec<(&str, &Form<'_>)> = Vec::new();
        let mut names: Vec<(String, Span)> = Vec::new();
        let mut declare = |name: &str, span: Span, diags: &mut Vec<Diagnostic>| {
            if name == TARGET || name == AMOUNT {
                diags.push(
                    Diagnostic::error(span, format!("`:{name}` is reserved: operations bind it"))
                        .with_label("reserved name"),
                );
            } else if let Some((_, first)) = names.iter().find(|(n, _)| n == name) {
                diags.push(
                    Diagnostic::error(
                        span,
                        format!("`:{name}` is already declared in this rule set"),
                    )
                    .with_label("declared again")
                    .with_related(*first, "first declared here")
                    .with_help("entities, attributes and operations share one set of names"),
                );
            }
            names.push((name.to_string(), span));
        };
        let mut saw_name = false;
        for (key, value) in pairs {
            match key {
                "rules" => match value.as_keyword() {
                    Some(name) => {
                        rules.name = name.to_string();
                        saw_name = true;
                    }
                    None => diags.push(
                        Diagnostic::error(
                            value.span,
                            format!(
                                "`:rules` names the rule set with a keyword, found {}",
                                value.describe()
                            ),
                        )
                        .with_help("write `:rules :my-game`"),
                    ),
                },
                "doc" => rules.doc = string(value, diags).unwrap_or_default(),
                "entities" => {
                    for (name, def) in keyword_map(value, "`:entities`", diags) {
                        declare(name, def.0, diags);
                        rules.entities.push(name.to_string());
                        rules
                            .entity_docs
                            .push(string(def.1, diags).unwrap_or_default());
                    }
                    if rules.entities.len() > usize::from(u8::MAX) {
                        diags.push(Diagnostic::error(
                            value.span,
                            "a rule set may declare at most 255 entities",
                        ));
                    }
                }
                "attributes" => {
                    for (name, def) in keyword_map(value, "`:attributes`", diags) {
                        declare(name, def.0, diags);
                        rules.attributes.push(name.to_string());
                        let def = attr_def(def.1, diags);
                        rules.bounds.push((def.min, def.max));
                        rules.attribute_defs.push(def);
                    }
                }
                "operations" => {
                    for (name, def) in keyword_map(value, "`:operations`", diags) {
                        declare(name, def.0, diags);
                        rules.operations.push(name.to_string());
                        op_forms.push((def.0, def.1));
                    }
                }
                "params" => {
                    for (name, (span, v)) in keyword_map(value, "`:params`", diags) {
                        declare(name, span, diags);
                        match v.kind {
                            Kind::Int(n) => rules.params.push((name.to_string(), n)),
                            _ => diags.push(
                                Diagnostic::error(
                                    v.span,
                                    format!("a param is an integer, found {}", v.describe()),
                                )
                                .with_label("expected an integer"),
                            ),
                        }
                    }
                }
                "seats" => match &value.kind {
                    Kind::Vector(items) if items.len() > usize::from(u8::MAX) => {
                        diags.push(Diagnostic::error(
                            value.span,
                            format!("a game has at most 255 seats; this lists {}", items.len()),
                        ))
                    }
                    Kind::Vector(items) => {
                        for item in items {
                            match item.as_keyword() {
                                Some(name) if rules.seats.iter().any(|s| s == name) => {
                                    diags.push(Diagnostic::error(
                                        item.span,
                                        format!("seat `:{name}` is listed twice"),
                                    ))
                                }
                                Some(name) => rules.seats.push(name.to_string()),
                                None => diags.push(Diagnostic::error(
                                    item.span,
                                    format!(
                                        "a seat is named by a keyword, found {}",
                                        item.describe()
                                    ),
                                )),
                            }
                        }
                    }
                    _ => diags.push(Diagnostic::error(
                        value.span,
                        format!(
                            "`:seats` is a vector of keywords such as `[:p1 :p2]`, found {}",
                            value.describe()
                        ),
                    )),
                },
                _ => later.push((key, value)),
            }
        }
        if !saw_name {
            diags.push(
                Diagnostic::error(form.span, "this rule set has no `:rules` name")
                    .with_label("missing `:rules`")
                    .with_help("start it with `{:rules :my-game …}`"),
            );
        }
        if rules.entities.is_empty() {
            diags.push(
                Diagnostic::error(form.span, "this rule set declares no `:entities`").with_help(
                    "effects need someone to affect: `:entities {:you \"the acting player\"}`",
                ),
            );
        }
        if rules.attributes.len() > usize::from(u16::MAX) || rules.operations.len() > MAX_OPERATIONS
        {
            diags.push(Diagnostic::error(
                form.span,
                format!("too many attributes or operations (at most 65535 attributes and {MAX_OPERATIONS} operations)"),
            ));
            return None;
        }
        let scope = Scope {
            entities: &rules.entities,
            attributes: &rules.attributes,
            operations: &rules.operations,
            params: &rules.params,
            in_operation: true,
        };
        let mut defs = Vec::new();
        for (_, body) in &op_forms {
            let Some(pairs) = check::fields(body, "an operation", OP_KEYS, diags) else {
                defs.push(None);
                continue;
            };
            let mut doc = String::new();
            let mut effects = None;
            for (key, value) in pairs {
                match key {
                    "doc" => doc = string(value, diags).unwrap_or_default(),
                    _ => effects = check::effects(value, &scope, diags),
                }
            }
            if !body.has_key("effects") {
                diags.push(
                    Diagnostic::error(body.span, "this operation has no `:effects`")
                        .with_label("missing `:effects`"),
                );
            }
            defs.push(effects.map(|effects| OpDef { doc, effects }));
        }
        rules.operation_defs = defs.into_iter().collect::<Option<_>>()?;
        for (key, value) in later {
            rules.game_part(key, value, diags);
        }
        if !rules.seats.is_empty() && rules.seats.len() < rules.entities.len() {
            diags.push(Diagnostic::error(
                form.span,
                format!(
                    "{} seats cannot bind {} entities: each entity names a different seat",
                    rules.seats.len(),
                    rules.entities.len()
                ),
            ));
        }
        if let Some(cycle) = find_cycle(&rules.operation_defs) {
            let path: Vec<String> = cycle
                .iter()
                .map(|&o| format!("`:{}`", rules.operations[o as usize]))
                .collect();
            let first = cycle[0] as usize;
            diags.push(
                Diagnostic::error(
                    op_forms[first].0,
                    format!("operations call each other in a loop: {}", path.join(" → ")),
                )
                .with_label("part of a loop")
                .with_help(
                    "an operation may use other operations, but never, through any chain, itself",
                ),
            );
            return None;
        }
        let sizes = expansion(&rules.operation_defs);
        for (op, &(size, depth)) in sizes.iter().enumerate() {
            let problem = if size > MAX_EXPANSION {
                format!(
                    "expands to {size} changes through the operations it uses; at most {MAX_EXPANSION}"
                )
            } else if depth > MAX_OPERATION_DEPTH {
                format!("goes {depth} operations deep; at most {MAX_OPERATION_DEPTH}")
            } else {
                continue;
            };
            diags.push(
                Diagnostic::error(op_forms[op].0, format!("`:{}` {problem}", rules.operations[op]))
                    .with_label("expands too far")
                    .with_help("an operation that applies another several times multiplies its work; flatten the chain"),
            );
            return None;
        }
        rules.op_sizes = sizes.into_iter().map(|(n, _)| n).collect();
        for (name, hook) in [
            ("turn-start", &rules.hooks.turn_start),
            ("turn-end", &rules.hooks.turn_end),
        ] {
            let n = rules.expansion_of(hook);
            if n > MAX_LIST_EXPANSION {
                diags.push(Diagnostic::error(
                    form.span,
                    format!(
                        "the `:{name}` hook expands to {n} changes; at most {MAX_LIST_EXPANSION}"
                    ),
                ));
            }
        }
        Some(rules)
    }

    /// Checks `:hooks`, `:victory` and `:cards`, which need the names declared before.
    fn game_part(&mut self, key: &str, value: &Form<'_>, diags: &mut Vec<Diagnostic>) {
        match key {
            "hooks" => {
                for (name, (span, body)) in keyword_map(value, "`:hooks`", diags) {
                    let effects = check::effects(body, &self.scope(), diags).unwrap_or_default();
                    match name {
                        "turn-start" => self.hooks.turn_start = effects,
                        "turn-end" => self.hooks.turn_end = effects,
                        _ => diags.push(
                            Diagnostic::error(span, format!("unknown hook `:{name}`"))
                                .suggest(name, HOOKS.iter().copied(), |s| format!(":{s}"))
                                .with_help_if_none(format!(
                                    "the hooks are {}",
                                    crate::check::list_and(HOOKS.iter().map(|h| format!("`:{h}`")))
                                )),
                        ),
                    }
                }
            }
            "victory" => {
                let Kind::Vector(items) = &value.kind else {
                    diags.push(Diagnostic::error(
                        value.span,
                        format!(
                            "`:victory` is a vector of `{{:when … :winner …}}` maps, found {}",
                            value.describe()
                        ),
                    ));
                    return;
                };
                for item in items {
                    let Some(pairs) =
                        check::fields(item, "a victory condition", VICTORY_KEYS, diags)
                    else {
                        continue;
                    };
                    let (mut when, mut winner, mut reason) = (None, None, String::new());
                    for (k, v) in pairs {
                        match k {
                            "when" => when = check::condition(v, &self.scope(), diags),
                            "winner" => match v.as_keyword().and_then(|w| self.entity(w)) {
                                Some(r) => winner = Some(r),
                                None => diags.push(
                                    Diagnostic::error(
                                        v.span,
                                        format!("`:winner` is an entity, found {}", v.describe()),
                                    )
                                    .with_help(format!(
                                        "the entities are {}",
                                        self.entities.join(", ")
                                    )),
                                ),
                            },
                            _ => reason = string(v, diags).unwrap_or_default(),
                        }
                    }
                    for (k, missing) in [("when", when.is_none()), ("winner", winner.is_none())] {
                        if missing && !item.has_key(k) {
                            diags.push(Diagnostic::error(
                                item.span,
                                format!("this victory condition has no `:{k}`"),
                            ));
                        }
                    }
                    if let (Some(when), Some(winner)) = (when, winner) {
                        self.victory.push(Victory {
                            reads: reads(&when),
                            when,
                            winner,
                            reason,
                        });
                    }
                }
            }
            "ai" => {
                let Some(pairs) = check::fields(value, "`:ai`", AI_KEYS, diags) else {
                    return;
                };
                for (_, v) in pairs {
                    self.ai_score = check::integer(v, &self.scope(), diags);
                }
            }
            _ => {
                let Some(pairs) = check::fields(value, "`:cards`", CARDS_KEYS, diags) else {
                    return;
                };
                for (_, v) in pairs {
                    let Kind::Vector(items) = &v.kind else {
                        diags.push(Diagnostic::error(
                            v.span,
                            "`:pay-with` is a vector of attributes",
                        ));
                        continue;
                    };
                    for item in items {
                        match item.as_keyword().and_then(|a| self.attribute(a)) {
                            Some(a) => self.pay_with.push(a),
                            None => diags.push(
                                Diagnostic::error(
                                    item.span,
                                    format!("expected an attribute, found {}", item.describe()),
                                )
                                .suggest(
                                    item.as_keyword().unwrap_or(""),
                                    self.attributes.iter().map(String::as_str),
                                    |s| format!(":{s}"),
                                ),
                            ),
                        }
                    }
                }
            }
        }
    }

    /// How many attribute changes applying `effects` can make at most.
    pub fn expansion_of(&self, effects: &[Effect]) -> u64 {
        fn cost(t: &Target, sizes: &[u64]) -> u64 {
            match t {
                Target::Attr(_) => 1,
                Target::Op(o) => sizes.get(*o as usize).copied().unwrap_or(1),
                Target::If(_, a, b) => cost(a, sizes).max(cost(b, sizes)),
            }
        }
        effects
            .iter()
            .map(|e| cost(&e.target, &self.op_sizes))
            .fold(0, u64::saturating_add)
    }

    /// The value of param `name`.
    pub fn param(&self, name: &str) -> Option<i64> {
        self.params.iter().find(|(p, _)| p == name).map(|(_, v)| *v)
    }

    /// The scope effects outside any operation are checked in.
    pub fn scope(&self) -> Scope<'_> {
        Scope {
            entities: &self.entities,
            attributes: &self.attributes,
            operations: &self.operations,
            params: &self.params,
            in_operation: false,
        }
    }

    /// Checks effects written against this rule set.
    pub fn check_effects(&self, form: &Form<'_>) -> Result<Vec<Effect>, Vec<Diagnostic>> {
        let mut diags = Vec::new();
        match check::effects(form, &self.scope(), &mut diags) {
            Some(effects) if diags.is_empty() => Ok(effects),
            _ => Err(diags),
        }
    }

    /// The index of attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<u16> {
        self.attributes
            .iter()
            .position(|a| a == name)
            .map(|i| i as u16)
    }

    /// The index of entity `name`.
    pub fn entity(&self, name: &str) -> Option<u8> {
        self.entities
            .iter()
            .position(|a| a == name)
            .map(|i| i as u8)
    }
}

/// Loads a rule set by bundled name or from a file path; diagnostics come with their source.
pub fn load(name_or_path: &str) -> Result<RuleSet, LoadError> {
    if let Some(result) = RuleSet::bundled(name_or_path) {
        return result.map_err(|diags| {
            LoadError::Invalid(
                Source::new(
                    format!("<bundled {name_or_path}>"),
                    bundled_text(name_or_path),
                ),
                diags,
            )
        });
    }
    let text = match std::fs::read(name_or_path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let source = Source::new(
                    name_or_path,
                    String::from_utf8_lossy(e.as_bytes()).into_owned(),
                );
                let d = Diagnostic::error(Span::new(at, at + 1), "this file is not UTF-8 text");
                return Err(LoadError::Invalid(source, vec![d]));
            }
        },
        Err(e) => {
            let known: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
            return Err(LoadError::Missing {
                name: name_or_path.to_string(),
                reason: e.to_string(),
                suggestion: crate::diag::nearest(name_or_path, known.iter().copied())
                    .map(str::to_string),
                known: known.join(", "),
            });
        }
    };
    let source = Source::new(name_or_path, text);
    RuleSet::parse(&source.text).map_err(|diags| LoadError::Invalid(source, diags))
}

fn bundled_text(name: &str) -> &'static str {
    BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("", |(_, t)| t)
}

/// Why a rule set could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// Neither a bundled name nor a readable file.
    Missing {
        /// What was asked for.
        name: String,
        /// Why the file could not be read.
        reason: String,
        /// The nearest bundled name.
        suggestion: Option<String>,
        /// All bundled names.
        known: String,
    },
    /// Read, but wrong: the diagnostics and the text they point into.
    Invalid(Source, Vec<Diagnostic>),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Missing {
                name,
                reason,
                suggestion,
                known,
            } => {
                write!(
                    f,
                    "no rule set `{name}`: it is not bundled ({known}) and not a readable file ({reason})"
                )?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean `{s}`?")?;
                }
                Ok(())
            }
            LoadError::Invalid(source, diags) => {
                write!(f, "rule set {} has {} error(s)", source.path, diags.len())
            }
        }
    }
}

fn string(form: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<String> {
    match &form.kind {
        Kind::Str(s) => Some(s.to_string()),
        _ => {
            diags.push(Diagnostic::error(
                form.span,
                format!("expected a string, found {}", form.describe()),
            ));
            None
        }
    }
}

/// The entries of a map from keywords to anything, reporting non-keyword keys.
fn keyword_map<'f, 'a>(
    form: &'f Form<'a>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(&'a str, (Span, &'f Form<'a>))> {
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            format!("{what} is a map from keywords, found {}", form.describe()),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in pairs {
        match k.as_keyword() {
            Some(name) => out.push((name, (k.span, v))),
            None => diags.push(
                Diagnostic::error(
                    k.span,
                    format!("names in {what} are keywords, found {}", k.describe()),
                )
                .with_label("expected a keyword"),
            ),
        }
    }
    out
}

fn attr_def(form: &Form<'_>, diags: &mut Vec<Diagnostic>) -> AttrDef {
    let mut def = AttrDef {
        default: 0,
        min: i64::MIN,
        max: i64::MAX,
        doc: String::new(),
    };
    let Some(pairs) = check::fields(form, "an attribute", ATTR_KEYS, diags) else {
        return def;
    };
    for (key, value) in &pairs {
        let int = || match value.kind {
            Kind::Int(n) => Some(n),
            _ => None,
        };
        match *key {
            "doc" => def.doc = string(value, diags).unwrap_or_default(),
            _ => match int() {
                Some(n) if *key == "default" => def.default = n,
                Some(n) if *key == "min" => def.min = n,
                Some(n) => def.max = n,
                None => diags.push(Diagnostic::error(
                    value.span,
                    format!("`:{key}` is an integer, found {}", value.describe()),
                )),
            },
        }
    }
    if def.min > def.max {
        diags.push(Diagnostic::error(
            form.span,
            format!("`:min` {} is above `:max` {}", def.min, def.max),
        ));
    } else if def.default < def.min || def.default > def.max {
        diags.push(Diagnostic::error(
            form.span,
            format!("`:default` {} is outside `:min`..`:max`", def.default),
        ));
    }
    def
}

/// The most operations a rule set may define (it also bounds how deep a chain of them can go).
pub const MAX_OPERATIONS: usize = 1000;

/// The most attribute changes one application of an operation may expand to.
pub const MAX_EXPANSION: u64 = 10_000;

/// The most attribute changes one effect list (a card, a hook) may expand to.
pub const MAX_LIST_EXPANSION: u64 = 100_000;

/// How deep operations may call operations.
pub const MAX_OPERATION_DEPTH: u32 = 32;

/// For each operation, how many attribute changes it expands to at most, and how
/// deep its chain of operations goes (operations are acyclic here).
fn expansion(ops: &[OpDef]) -> Vec<(u64, u32)> {
    fn target_cost(t: &Target, memo: &mut [Option<(u64, u32)>], ops: &[OpDef]) -> (u64, u32) {
        match t {
            Target::Attr(_) => (1, 0),
            Target::Op(o) => op_size(*o as usize, memo, ops),
            Target::If(_, a, b) => {
                let (x, y) = (target_cost(a, memo, ops), target_cost(b, memo, ops));
                (x.0.max(y.0), x.1.max(y.1))
            }
        }
    }
    fn op_size(op: usize, memo: &mut [Option<(u64, u32)>], ops: &[OpDef]) -> (u64, u32) {
        if let Some(n) = memo[op] {
            return n;
        }
        let (size, depth) = ops[op].effects.iter().fold((0u64, 0u32), |(n, d), e| {
            let (en, ed) = target_cost(&e.target, memo, ops);
            (n.saturating_add(en), d.max(ed))
        });
        memo[op] = Some((size, depth + 1));
        (size, depth + 1)
    }
    let mut memo = vec![None; ops.len()];
    (0..ops.len())
        .map(|op| op_size(op, &mut memo, ops))
        .collect()
}

/// A chain of operations that leads back to its start, if the bodies contain one.
fn find_cycle(ops: &[OpDef]) -> Option<Vec<OpId>> {
    fn calls(t: &Target, out: &mut Vec<OpId>) {
        match t {
            Target::Attr(_) => {}
            Target::Op(o) => out.push(*o),
            Target::If(_, a, b) => {
                calls(a, out);
                calls(b, out);
            }
        }
    }
    let edges: Vec<Vec<OpId>> = ops
        .iter()
        .map(|op| {
            let mut out = Vec::new();
            op.effects.iter().for_each(|e| calls(&e.target, &mut out));
            out
        })
        .collect();
    // 0 = unvisited, 1 = on the current path, 2 = done.
    let mut mark = vec![0u8; ops.len()];
    let mut path = Vec::new();
    fn visit(
        n: usize,
        edges: &[Vec<OpId>],
        mark: &mut [u8],
        path: &mut Vec<OpId>,
    ) -> Option<Vec<OpId>> {
        mark[n] = 1;
        path.push(n as OpId);
        for &m in &edges[n] {
            match mark[m as usize] {
                1 => {
                    let start = path.iter().position(|&p| p == m).unwrap_or(0);
                    let mut cycle = path[start..].to_vec();
                    cycle.push(m);
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m as usize, edges, mark, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        mark[n] = 2;
        None
    }
    (0..ops.len()).find_map(|n| {
        if mark[n] == 0 {
            visit(n, &edges, &mut mark, &mut path)
        } else {
            None
        }
    })
}
