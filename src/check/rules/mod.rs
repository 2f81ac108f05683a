//! Rule sets: the data that says what a game's effects may name and how it runs.
//!
//! A rule-set file is one map. Each of its sections ([`Section`]) is read by its
//! own file in this folder, in the order the enum lists them, so that a section
//! can use the names declared before it: roles, attributes, operations and
//! params first; then operation bodies, timings and hooks, victory, card zones,
//! turns and the AI's score. A new section is a new variant and a new file; the
//! dispatcher matches every section that is present with no catch-all arm, so
//! a new one cannot be forgotten (only an absent section falls through, keeping
//! its default; `:params` alone also acts when absent, to check operation bodies).

mod actions;
mod ai;
mod attributes;
pub mod bases;
pub mod budgets;
mod cards;
mod categories;
pub mod choices;
mod formulas;
pub mod keywords;
mod kinds;
mod lookups;
pub mod metrics;
pub mod moves;
mod operations;
mod params;
mod roles;
mod seats;
mod setup;
mod tables;
mod timings;
pub mod turn_kinds;
mod turns;
mod victory;
pub mod zones;

pub use crate::check::ast::CardValue;
use crate::ids::{CategoryId, ChoiceSetId, FlagId, IdVec, OpId, OptionId, TurnKindId};
pub use actions::{ActionDef, ActionId, WhilePreparing};
pub use attributes::AttrDef;
pub use bases::{Base, BaseId};
pub use cards::{CardZones, ValueDef, attribute as cards_attribute, number as cards_number};
pub use kinds::KindId;
pub use operations::{MAX_EXPANSION, MAX_OPERATION_DEPTH, MAX_OPERATIONS, OpDef};
pub use seats::Players;
pub use setup::{Encounter, Setup};
pub use tables::{Column, TablePolarity, TableShape};
pub use timings::{Moment, Timing, TimingId};
pub use victory::{Victory, reads};
pub use zones::{Layout, MAX_CAPACITY, Overflow, Visibility, WhenEmpty, ZoneDef, ZoneSet};

/// Every section's closed key sets, by name: for tools that list the
/// language's words (the fuzzers' dictionary).
pub mod keys {
    pub use super::Section;
    pub use super::actions::{ActionKey, RefusalKey, WhilePreparing};
    pub use super::ai::AiKey;
    pub use super::attributes::AttrKey;
    pub use super::bases::BaseKey;
    pub use super::cards::{CardsKey, DeckKind, ValueKey};
    pub use super::choices::ChoiceKey;
    pub use super::formulas::FormulaKey;
    pub use super::kinds::KindKey;
    pub use super::lookups::LookupKey;
    pub use super::metrics::{MetricEventKey, MetricKey};
    pub use super::moves::{DecideAt, MoveKey, PickKey, ScriptKey};
    pub use super::operations::OpKey;
    pub use super::setup::{EncounterKey, SetupKey};
    pub use super::tables::{ColumnKey, ShapeKey};
    pub use super::timings::TimingKey;
    pub use super::turn_kinds::TurnKindKey;
    pub use super::turns::TurnsKey;
    pub use super::victory::VictoryKey;
    pub use super::zones::{Layout, OverflowKind, StartKind, Visibility, WhenEmptyKey, ZoneKey};
}

use crate::check::ast::{AttrId, Effect, Int, RoleId, StatusDef, StatusId};
use crate::check::keys::{Keys, keys};
use crate::check::{self, Choosable, Scope};
use crate::diag::{Code, Diagnostic, Source};
use crate::syntax::{Arena, Form, Kind, Span, read};
use std::sync::Arc;

/// Rule sets shipped inside the binary, by name: the build script's table of
/// the repository's `rules/NAME.edn` files (see [`crate::bundled`]).
pub const BUNDLED: &[(&str, &str)] = crate::bundled::RULE_SETS;

/// The most attribute changes one effect list (a card, a hook) may expand to.
pub const MAX_LIST_EXPANSION: u64 = 100_000;

/// The turn limit of a game whose rule set does not set `:turns {:limit N}`.
pub const DEFAULT_TURN_LIMIT: u32 = 1000;

keys! {
    /// The sections of a rule-set file, in the order they are read.
    pub enum Section {
        /// `:rules :name`: the rule set's name.
        Rules = "rules",
        /// `:doc "…"`: what it is, for people.
        Doc = "doc",
        /// `:roles {:you "…"}`: the names effects use for entities.
        Roles = "roles",
        /// `:turn-kinds {:classic "…" :fast-magic {:allows [:fast-magic]}}`:
        /// the kinds of turn, read before the kinds whose `:turns` name them.
        TurnKinds = "turn-kinds",
        /// `:kinds {:player "…" :rock "…"}`: what sorts of entity there are.
        Kinds = "kinds",
        /// `:categories {:heal "…"}`: the categories statuses belong to.
        Categories = "categories",
        /// `:flags {:no-move-attack "…"}`: the flags statuses set while active.
        Flags = "flags",
        /// `:statuses {:power "…"}`: statuses the rule set's own effects name,
        /// each defined in a definitions file (`{:status :power …}`).
        Statuses = "statuses",
        /// `:keywords {:taunt "…"}`: named abilities cards are given by name,
        /// each a status of its name held while the card is in play.
        Keywords = "keywords",
        /// `:attributes {:wall {…}}`: what every entity stores.
        Attributes = "attributes",
        /// `:bases {:OutgoingDamage {:attributes [:dealt]}}`: what statuses'
        /// outputs are computed from, read after the attributes that hold them.
        Bases = "bases",
        /// `:timings {:turn-start {:at :turn-start}}`: where hooks can run.
        Timings = "timings",
        /// `:operations {:damage {…}}`: named changes written in the language.
        Operations = "operations",
        /// `:params {:tower-goal 50}`: named constants.
        Params = "params",
        /// `:lookups {:damage {:ranges [[1 3 3] [4 9 5] [10 nil 10]]}}`: tables
        /// from numbers to numbers, read with the params (before operation bodies).
        Lookups = "lookups",
        /// `:formulas {:stamina {:args [:index] :value [* 10 :index :index]}}`:
        /// named expressions with arguments, read after the lookups.
        Formulas = "formulas",
        /// `:choices {:body-part {:options {:head {:dodge 4} …}}}`: options an
        /// action with `:choose` is used with, read with the params.
        Choices = "choices",
        /// `:seats [:p1 :p2]`: the players of a game, in turn order.
        Seats = "seats",
        /// `:players {:min 2 :default 2}`: a game played by the first N seats,
        /// N from `:min` to every seat, `:default` unless asked.
        Players = "players",
        /// `:setup {:hero {:kind :unit :values {…}}}`: entities every game starts with.
        Setup = "setup",
        /// `:encounters {:jaw-worm {:doc "…" :setup {…}}}`: the fights a game
        /// may be set up as, each adding its entities after `:setup`'s (the first unless chosen).
        Encounters = "encounters",
        /// `:hooks {:turn-start […]}`: effects run at a timing.
        Hooks = "hooks",
        /// `:actions {:attack {…}}`: what entities can do on their seat's turn.
        Actions = "actions",
        /// `:victory […]`: how a game is won.
        Victory = "victory",
        /// `:cards {:pay-with […] :hand-size 6}`: card zones, switched on.
        Cards = "cards",
        /// `:zones {:deck {…} :hand {…}}`: where the cards are, read after
        /// `:cards` (what cards are paid with) and the kinds (which are cards).
        Zones = "zones",
        /// `:turns {:limit 1000}`: the turn machine's settings.
        Turns = "turns",
        /// `:ai {:score …}`: how the greedy AI weighs a state.
        Ai = "ai",
        /// `:budgets {:work 5000000 :statuses 50000}`: the work a step may do
        /// and the statuses a game may hold, within hard caps.
        Budgets = "budgets",
        /// `:tables {:summary {:columns {"BUFF" :status …}}}`: the markdown
        /// tables it reads as status definitions, and what their columns mean.
        Tables = "tables",
        /// `:metrics {:health-left {:doc "…" :value [:you :health]}}`: the
        /// figures `simulate` reports besides who won, read last, once every
        /// name, zone and status is known.
        Metrics = "metrics",
    }
    renamed {
        "entities" => "`:entities` is now `:roles`: the names effects use for entities",
    }
}

/// A checked rule set.
#[derive(Clone, Debug)]
pub struct RuleSet {
    /// Its name (`arcomage`).
    pub name: String,
    /// What it is, for people.
    pub doc: String,
    /// Role names, in declaration order; a role's index is its [`RoleId`].
    pub roles: IdVec<RoleId, String>,
    /// What each role means.
    pub role_docs: IdVec<RoleId, String>,
    /// Kinds of entity, in declaration order; a kind's index is its [`KindId`].
    /// Seats are of the first; without `:kinds` there is one, `player`.
    pub kinds: IdVec<KindId, String>,
    /// For each kind, the condition under which an entity of it leaves play
    /// (`:removed-when`, with `:self` bound to it).
    pub removed_when: IdVec<KindId, Option<crate::check::ast::Bool>>,
    /// For each kind, the effects run as an entity of it leaves play (`:on-removed`,
    /// with `:self` bound to it).
    pub on_removed: IdVec<KindId, Vec<Effect>>,
    /// The kinds of turn (`:turn-kinds`); one, `:turn`, allowing everything, if
    /// the rule set declares none.
    pub turn_kinds: IdVec<TurnKindId, turn_kinds::TurnKind>,
    /// Their names, for the checker.
    pub turn_kind_names: IdVec<TurnKindId, String>,
    /// For each kind, the turns each entity of it has in the base queue
    /// (`:turns [:classic]`); the first kind's default is one of the first turn kind.
    pub kind_turns: IdVec<KindId, Vec<turn_kinds::TurnKindId>>,
    /// For each kind, what an entity of it that is not a seat does on its turn
    /// (`:on-turn`, with `:self` bound to it): an entity turn, with no choice.
    pub on_turn: IdVec<KindId, Vec<Effect>>,
    /// For each kind, its `:moves` and `:script`, if it has moves: an enemy
    /// whose next move is chosen, and shown, before the seats act.
    pub scripts: IdVec<KindId, Option<Box<moves::Script>>>,
    /// Entities every game starts with after the seats, by name (`:setup`).
    pub setup: Vec<Setup>,
    /// The fights a game may be set up as (`:encounters`), each adding its
    /// entities after the setup's.
    pub encounters: Vec<setup::Encounter>,
    /// Which of [`RuleSet::encounters`] games are set up as: the first
    /// unless a command chose another ([`RuleSet::choose_encounter`]).
    pub encounter: usize,
    /// The categories statuses may belong to, in declaration order.
    pub categories: IdVec<CategoryId, String>,
    /// What statuses' outputs may be computed from (`:bases`), in declaration order.
    pub bases: IdVec<BaseId, Base>,
    /// The flags statuses may set, in declaration order; a flag's index is its [`crate::check::ast::FlagId`].
    pub flags: IdVec<FlagId, String>,
    /// Status names, by [`StatusId`]: every status of the definitions checked
    /// with the rule set, declared before any is checked so they can name each other.
    pub statuses: IdVec<StatusId, String>,
    /// What the checker sees of each timing, by [`TimingId`]: for `{:run …}`.
    pub timing_shapes: Vec<check::TimingShape>,
    /// Each status's definition, by [`StatusId`] (a default one until installed).
    pub status_defs: IdVec<StatusId, StatusDef>,
    /// For each status, whether a definition was installed (not only its name declared).
    pub status_installed: IdVec<StatusId, bool>,
    /// `:keywords`: named abilities, each a status, cards are given by name.
    pub keywords: Vec<keywords::Keyword>,
    /// For each status, the file its definition was read from, when known:
    /// what a budget's error points into when the status's effects ran out.
    pub status_files: IdVec<StatusId, Option<Arc<Source>>>,
    /// The file the rule set was read from, when known: what its effects'
    /// spans point into.
    pub file: Option<Arc<Source>>,
    /// For each attribute, whether some status modifies it: only those keep a
    /// base value beside the one effects see.
    pub modified: IdVec<AttrId, bool>,
    /// Whether some status has `:removed-when`: only then are statuses
    /// checked for it after every change.
    pub conditional_statuses: bool,
    /// Whether some status has `:turns`: only then do statuses add to the base queue.
    pub status_turns: bool,
    /// Attribute names, in declaration order.
    pub attributes: IdVec<AttrId, String>,
    /// Defaults and bounds of each attribute.
    pub attribute_defs: IdVec<AttrId, AttrDef>,
    /// Each attribute's `(min, max)`, packed for the evaluator's clamp.
    pub bounds: IdVec<AttrId, (i64, i64)>,
    /// Operation names, in declaration order.
    pub operations: IdVec<OpId, String>,
    /// Each operation's meaning.
    pub operation_defs: IdVec<OpId, OpDef>,
    /// How many attribute changes each operation expands to at most.
    pub op_sizes: IdVec<OpId, u64>,
    /// Whether applying each operation can draw from the generator.
    pub op_draws: IdVec<OpId, bool>,
    /// Named constants (`:tower-goal 50`), usable wherever a number is.
    pub params: Vec<(String, i64)>,
    /// Lookup tables (`:lookups`), by name, for `[lookup :name x]`.
    pub lookups: Vec<(String, crate::check::ast::Lookup)>,
    /// Named formulas (`:formulas`), by name, for `[formula :name …]`.
    pub formulas: Vec<(String, std::sync::Arc<crate::check::ast::FormulaDef>)>,
    /// Sets of options actions choose from (`:choices`).
    pub choices: IdVec<ChoiceSetId, choices::ChoiceSet>,
    /// Every option's name, set after set: what an action's `choice` counts (from 1).
    pub options: IdVec<OptionId, String>,
    /// Every option's numbers, in its set's field order.
    pub option_values: IdVec<OptionId, Vec<i64>>,
    /// For each field name, its number for every option (0 where its set has
    /// no such field): what `[choice :field]` copies in.
    pub choice_columns: Vec<(String, Box<[i64]>)>,
    /// The seats of a game, in turn order (`:p1 :p2`); empty if the rule set is not a game.
    /// With `:players`, the first N of those `:seats` lists (see [`RuleSet::choose_players`]).
    pub seats: Vec<String>,
    /// `:players`: the counts of players a game may have, and every seat.
    pub players: Option<seats::Players>,
    /// The timings hooks can run at, in declaration order; a timing's index is its [`TimingId`].
    pub timings: IdVec<TimingId, Timing>,
    /// The hook of each timing (empty where none is written), by [`TimingId`].
    pub hooks: IdVec<TimingId, Vec<Effect>>,
    /// For each moment (by `Moment as usize`), its timings whose hooks do
    /// something, in declaration order, each with its `:each` kind: what the
    /// turn machine runs there.
    pub at_moment: Vec<Vec<(TimingId, Option<KindId>)>>,
    /// What entities can do on their seat's turn besides playing cards, by [`ActionId`].
    pub actions: IdVec<ActionId, ActionDef>,
    /// How a game is won, checked after every change.
    pub victory: Vec<Victory>,
    /// Card zones (deck, hands, discards, costs), if the rule set switches them on.
    pub cards: Option<CardZones>,
    /// Where the cards are: the `:zones` section, or the three zones `:cards`
    /// stands for ([`ZoneSet::classic`]); `None` without cards.
    pub zones: Option<ZoneSet>,
    /// For each kind, whether it is a kind of card (`:card true`).
    pub card_kinds: IdVec<KindId, bool>,
    /// The kind a card is of unless it says another (`:kind`): the first marked `:card`.
    pub card_kind: Option<KindId>,
    /// `:turns {:plays :many}`: a seat plays cards until it ends its turn.
    pub plays_many: bool,
    /// The turn after which a game that has not ended is a draw.
    pub turn_limit: u32,
    /// The work one step of a game may do (`:budgets :work`).
    pub work_budget: u64,
    /// The statuses a game may hold at once (`:budgets :statuses`).
    pub status_budget: usize,
    /// Trigger runs one chain may make (`:budgets :trigger-runs`).
    pub trigger_runs: u32,
    /// How deep triggers may set each other off (`:budgets :trigger-depth`).
    pub trigger_depth: u8,
    /// `:turns {:order […]}`: keys of `:self` each round's turns are sorted by,
    /// highest first; empty for seat order.
    pub turn_order: Vec<Int>,
    /// `:turns {:skip-when …}`: a condition of `:self`, the seat whose turn
    /// comes next; while it holds, that turn is passed over whole.
    pub turn_skip: Option<crate::check::ast::Bool>,
    /// How the greedy AI scores a state for the player whose turn it is (`:ai {:score …}`).
    pub ai_score: Option<Int>,
    /// The shapes of markdown table it reads (`:tables`), in declaration order.
    pub tables: Vec<TableShape>,
    /// What `simulate` measures besides who won (`:metrics`), in declaration order.
    pub metrics: Vec<metrics::Metric>,
}

/// Every key of every map nested in a rule set (attributes, operations,
/// timings, victory conditions, `:cards`, `:turns`, `:ai`): for tools and the
/// test that keeps the language reference complete.
pub fn nested_keys() -> Vec<&'static str> {
    fn names<K: Keys>() -> impl Iterator<Item = &'static str> {
        K::ALL.iter().map(|k| k.name())
    }
    names::<attributes::AttrKey>()
        .chain(names::<kinds::KindKey>())
        .chain(names::<setup::SetupKey>())
        .chain(names::<setup::EncounterKey>())
        .chain(names::<moves::MoveKey>())
        .chain(names::<moves::ScriptKey>())
        .chain(names::<moves::PickKey>())
        .chain(names::<moves::DecideAt>())
        .chain(names::<operations::OpKey>())
        .chain(names::<timings::TimingKey>())
        .chain(names::<actions::ActionKey>())
        .chain(names::<actions::RefusalKey>())
        .chain(names::<actions::WhilePreparing>())
        .chain(names::<victory::VictoryKey>())
        .chain(names::<zones::ZoneKey>())
        .chain(names::<zones::Visibility>())
        .chain(names::<zones::Layout>())
        .chain(names::<zones::OverflowKind>())
        .chain(names::<zones::WhenEmptyKey>())
        .chain(names::<zones::StartKind>())
        .chain(names::<turns::PlaysKind>())
        .chain(names::<cards::CardsKey>())
        .chain(names::<cards::DeckKind>())
        .chain(names::<cards::ValueKey>())
        .chain(names::<turns::TurnsKey>())
        .chain(names::<seats::PlayersKey>())
        .chain(names::<turn_kinds::TurnKindKey>())
        .chain(names::<ai::AiKey>())
        .chain(names::<budgets::BudgetKey>())
        .chain(names::<lookups::LookupKey>())
        .chain(names::<formulas::FormulaKey>())
        .chain(names::<tables::ShapeKey>())
        .chain(names::<tables::ColumnKey>())
        .chain(names::<metrics::MetricKey>())
        .chain(names::<metrics::MetricEventKey>())
        .collect()
}

/// Names declared so far: roles, attributes, operations and params share one set.
#[derive(Default)]
struct Names(Vec<(String, Span)>);

impl Names {
    fn declare(&mut self, name: &str, span: Span, diags: &mut Vec<Diagnostic>) {
        if crate::check::RESERVED.contains(&name) {
            diags.push(
                Diagnostic::new(
                    Code::Reserved,
                    span,
                    format!("`:{name}` is reserved: the engine binds it"),
                )
                .with_label("reserved name"),
            );
        } else if let Some((_, first)) = self.0.iter().find(|(n, _)| n == name) {
            diags.push(
                Diagnostic::new(
                    Code::Duplicate,
                    span,
                    format!("`:{name}` is already declared in this rule set"),
                )
                .with_label("declared again")
                .with_related(*first, "first declared here")
                .with_help("roles, attributes, operations and params share one set of names"),
            );
        }
        self.0.push((name.to_string(), span));
    }
}

/// What reading one rule set carries from section to section.
struct Reading<'f, 'a> {
    names: Names,
    /// Each kind's `:removed-when`, checked once every name is known.
    removals: Vec<(KindId, &'f Form<'a>)>,
    /// Each kind's `:on-removed`, checked once every name is known.
    on_removed: Vec<(KindId, &'f Form<'a>)>,
    /// Each operation's name span and body, checked once every name is known.
    op_forms: Vec<(Span, &'f Form<'a>)>,
    /// Each kind's `:on-turn`, checked once every name is known.
    on_turn: Vec<(KindId, &'f Form<'a>)>,
    /// Each keyword's `:triggers`, checked once every name is known.
    keyword_triggers: Vec<(usize, &'f Form<'a>)>,
    /// Each kind's `:moves` and `:script`, checked once every name is known.
    moves: Vec<(KindId, Option<&'f Form<'a>>, Option<&'f Form<'a>>)>,
}

impl RuleSet {
    /// The bundled rule set called `name`, checked.
    pub fn bundled(name: &str) -> Option<Result<RuleSet, Vec<Diagnostic>>> {
        BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, text)| {
            let mut rules = RuleSet::parse(text)?;
            let shown = format!("<bundled rules/{name}.edn>");
            rules.file = Some(Arc::new(Source::new(shown, *text)));
            Ok(rules)
        })
    }

    /// Reads and checks a rule-set file's text.
    pub fn parse(text: &str) -> Result<RuleSet, Vec<Diagnostic>> {
        let arena = Arena::new();
        let read = read(&arena, text);
        let mut diags: Vec<Diagnostic> = read.errors.iter().map(Diagnostic::from).collect();
        if !diags.is_empty() {
            return Err(diags);
        }
        let form = match read.forms.as_slice() {
            [form] => form,
            [] => {
                return Err(vec![Diagnostic::new(
                    Code::EmptyFile,
                    Span::new(0, 0),
                    "this rule-set file is empty: expected a map `{:rules :name …}`",
                )]);
            }
            [_, second, ..] => {
                return Err(vec![
                    Diagnostic::new(
                        Code::OneForm,
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
    // Long on purpose: the empty rule set names every field once, then one match
    // has an arm of a line or two per section, so the reading order is visible.
    pub fn from_form(form: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<RuleSet> {
        let pairs = check::fields(form, "a rule set", Section::ALL, diags)?;
        let mut rules = RuleSet {
            name: String::new(),
            doc: String::new(),
            roles: IdVec::new(),
            role_docs: IdVec::new(),
            kinds: vec!["player".to_string()].into(),
            removed_when: vec![None].into(),
            on_removed: vec![Vec::new()].into(),
            turn_kinds: turn_kinds::default_kinds().into(),
            turn_kind_names: vec![turn_kinds::DEFAULT_TURN_KIND.to_string()].into(),
            kind_turns: vec![vec![TurnKindId::FIRST]].into(),
            on_turn: vec![Vec::new()].into(),
            scripts: vec![None].into(),
            setup: Vec::new(),
            encounters: Vec::new(),
            encounter: 0,
            categories: IdVec::new(),
            bases: IdVec::new(),
            flags: IdVec::new(),
            statuses: IdVec::new(),
            status_defs: IdVec::new(),
            status_installed: IdVec::new(),
            keywords: Vec::new(),
            status_files: IdVec::new(),
            file: None,
            conditional_statuses: false,
            status_turns: false,
            modified: IdVec::new(),
            attributes: IdVec::new(),
            attribute_defs: IdVec::new(),
            bounds: IdVec::new(),
            operations: IdVec::new(),
            operation_defs: IdVec::new(),
            op_sizes: IdVec::new(),
            op_draws: IdVec::new(),
            params: Vec::new(),
            lookups: Vec::new(),
            formulas: Vec::new(),
            choices: IdVec::new(),
            options: IdVec::new(),
            option_values: IdVec::new(),
            choice_columns: Vec::new(),
            seats: Vec::new(),
            players: None,
            timings: IdVec::new(),
            timing_shapes: Vec::new(),
            hooks: IdVec::new(),
            at_moment: Vec::new(),
            actions: IdVec::new(),
            victory: Vec::new(),
            cards: None,
            zones: None,
            card_kinds: vec![false].into(),
            card_kind: None,
            plays_many: false,
            turn_limit: DEFAULT_TURN_LIMIT,
            work_budget: budgets::DEFAULT_WORK,
            status_budget: budgets::DEFAULT_STATUSES,
            trigger_runs: budgets::DEFAULT_TRIGGER_RUNS,
            trigger_depth: budgets::DEFAULT_TRIGGER_DEPTH,
            turn_order: Vec::new(),
            turn_skip: None,
            ai_score: None,
            tables: Vec::new(),
            metrics: Vec::new(),
        };
        let mut reading = Reading {
            names: Names::default(),
            op_forms: Vec::new(),
            removals: Vec::new(),
            on_removed: Vec::new(),
            on_turn: Vec::new(),
            keyword_triggers: Vec::new(),
            moves: Vec::new(),
        };
        // Sections are read in `Section::ALL` order, whatever order the file writes them in.
        for &section in Section::ALL {
            let value = pairs.iter().find(|(k, _)| *k == section).map(|(_, v)| *v);
            match (section, value) {
                (Section::Params, value) => {
                    if let Some(value) = value {
                        params::read(value, &mut rules, &mut reading, diags);
                    }
                    // Lookup tables may be keyed by params and read by operations: between the two.
                    if let Some((_, lookups)) = pairs.iter().find(|(k, _)| *k == Section::Lookups) {
                        lookups::read(lookups, &mut rules, diags);
                    }
                    if let Some((_, formulas)) = pairs.iter().find(|(k, _)| *k == Section::Formulas)
                    {
                        formulas::read(formulas, &mut rules, diags);
                    }
                    if let Some((_, choices)) = pairs.iter().find(|(k, _)| *k == Section::Choices) {
                        choices::read(choices, &mut rules, diags);
                    }
                    // Every name is declared now: the zones, which card effects and
                    // queries name wherever effects are written, then operation bodies.
                    if let Some((_, zones)) = pairs.iter().find(|(k, _)| *k == Section::Zones) {
                        // Cards kept in zones cost nothing unless `:cards` says what pays.
                        rules.cards.get_or_insert_with(CardZones::free);
                        zones::read(zones, &mut rules, diags);
                    }
                    operations::bodies(&mut rules, &reading, diags)?;
                    keywords::triggers(&mut rules, &reading, diags);
                    kinds::removals(&mut rules, &reading, diags);
                    moves::check(&mut rules, &reading, diags);
                }
                // An absent section keeps its default.
                (_, None) => {}
                (Section::Rules, Some(value)) => match value.as_keyword() {
                    Some(name) => rules.name = name.to_string(),
                    None => diags.push(
                        Diagnostic::new(
                            Code::WrongType,
                            value.span,
                            format!(
                                "`:rules` names the rule set with a keyword, found {}",
                                value.describe()
                            ),
                        )
                        .with_help("write `:rules :my-game`"),
                    ),
                },
                (Section::Doc, Some(value)) => rules.doc = string(value, diags).unwrap_or_default(),
                (Section::Roles, Some(value)) => {
                    roles::read(value, &mut rules, &mut reading, diags)
                }
                (Section::TurnKinds, Some(value)) => {
                    // Read before the zones: whether there are any, from the file.
                    let zoned = pairs.iter().any(|(k, _)| *k == Section::Zones);
                    turn_kinds::read(value, &mut rules, zoned, diags);
                }
                (Section::Kinds, Some(value)) => {
                    kinds::read(value, &mut rules, &mut reading, diags)
                }
                (Section::Categories, Some(value)) => categories::read(
                    value,
                    "`:categories`",
                    "category",
                    // Filters hold categories and flags as bits of one word.
                    crate::check::ast::MAX_CATEGORIES,
                    &mut rules.categories,
                    diags,
                ),
                (Section::Flags, Some(value)) => {
                    categories::read(value, "`:flags`", "flag", 64, &mut rules.flags, diags)
                }
                (Section::Statuses, Some(value)) => {
                    let mut names: IdVec<StatusId, String> = IdVec::new();
                    let max = usize::from(u16::MAX);
                    categories::read(value, "`:statuses`", "status", max, &mut names, diags);
                    rules.declare_statuses(names.iter().map(String::as_str));
                }
                (Section::Keywords, Some(value)) => {
                    keywords::read(value, &mut rules, &mut reading, diags)
                }
                (Section::Attributes, Some(value)) => {
                    attributes::read(value, &mut rules, &mut reading, diags)
                }
                (Section::Bases, Some(value)) => bases::read(value, &mut rules, diags),
                (Section::Operations, Some(value)) => {
                    operations::names(value, &mut rules, &mut reading, diags)
                }
                // Read with `:params`, above.
                (Section::Lookups | Section::Formulas | Section::Choices, Some(_)) => {}
                (Section::Seats, Some(value)) => seats::read(value, &mut rules, diags),
                (Section::Players, Some(value)) => seats::players(value, &mut rules, diags),
                (Section::Setup, Some(value)) => setup::read(value, &mut rules, diags),
                (Section::Encounters, Some(value)) => setup::encounters(value, &mut rules, diags),
                (Section::Timings, Some(value)) => timings::read(value, &mut rules, diags),
                (Section::Hooks, Some(value)) => timings::hooks(value, &mut rules, diags),
                (Section::Actions, Some(value)) => actions::read(value, &mut rules, diags),
                (Section::Victory, Some(value)) => victory::read(value, &mut rules, diags),
                (Section::Cards, Some(value)) => {
                    let zoned = pairs.iter().any(|(k, _)| *k == Section::Zones);
                    cards::read(value, &mut rules, zoned, diags)
                }
                // Read with `:params`, above, before any effect is checked.
                (Section::Zones, Some(_)) => {}
                (Section::Turns, Some(value)) => turns::read(value, &mut rules, diags),
                (Section::Ai, Some(value)) => ai::read(value, &mut rules, diags),
                (Section::Budgets, Some(value)) => budgets::read(value, &mut rules, diags),
                (Section::Tables, Some(value)) => tables::read(value, &mut rules, diags),
                (Section::Metrics, Some(value)) => metrics::read(value, &mut rules, diags),
            }
        }
        if !form.has_key(Section::Rules.name()) {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    "this rule set has no `:rules` name",
                )
                .with_label("missing `:rules`")
                .with_help("start it with `{:rules :my-game …}`"),
            );
        }
        if rules.roles.is_empty() {
            diags.push(
                Diagnostic::new(
                    Code::EmptyDeclaration,
                    form.span,
                    "this rule set declares no `:roles`",
                )
                .with_help("effects need someone to affect: `:roles {:you \"the acting player\"}`"),
            );
        }
        seats::check_roles(form, &rules, diags);
        // A game of a range of counts is set up for its default unless asked.
        if let Some(n) = rules.players.as_ref().map(|p| p.default) {
            let _ = rules.choose_players(n);
        }
        // `:cards` alone stands for the three zones of a classic card game.
        if rules.zones.is_none()
            && let Some(cards) = &rules.cards
        {
            rules.zones = Some(ZoneSet::classic(cards));
        }
        rules.modified = vec![false; rules.attributes.len()].into();
        rules.plan_moments();
        Some(rules)
    }

    /// Works out what the turn machine runs at each moment: the timings whose
    /// hooks do something, or at which some status runs a hook or counts down.
    fn plan_moments(&mut self) {
        let mut busy: Vec<bool> = self.hooks.iter().map(|h| !h.is_empty()).collect();
        for def in &self.status_defs {
            let timings = def
                .hooks
                .iter()
                .map(|(t, _)| *t)
                .chain(def.lasts.map(|l| l.1));
            for t in timings {
                if let Some(b) = busy.get_mut(t.index()) {
                    *b = true;
                }
            }
        }
        self.at_moment = Moment::ALL
            .iter()
            .map(|&m| {
                self.timings_at(m)
                    .filter(|&t| busy[t.index()])
                    .map(|t| (t, self.timings[t].each))
                    .collect()
            })
            .collect();
    }

    /// Declares the statuses called `names` (in this order, after any already
    /// declared; a name already declared keeps its id), so that definitions
    /// checked next can name them. Their definitions come with
    /// [`RuleSet::install_statuses`].
    pub fn declare_statuses<'n>(&mut self, names: impl IntoIterator<Item = &'n str>) {
        for name in names {
            if !self.statuses.iter().any(|s| s == name) {
                self.statuses.push(name.to_string());
                self.status_defs.push(StatusDef::default());
                self.status_installed.push(false);
                self.status_files.push(None);
            }
        }
    }

    /// Installs checked status definitions by name (each declared before),
    /// each with the file it was read from when known (else the file it had
    /// stays), and works out which attributes statuses modify and where their
    /// hooks run.
    pub fn install_statuses<'d>(
        &mut self,
        defs: impl IntoIterator<Item = (&'d str, StatusDef, Option<Arc<Source>>)>,
    ) {
        for (name, def, file) in defs {
            self.declare_statuses([name]);
            if let Some(i) = self.statuses.iter().position(|s| s == name) {
                let id = StatusId::new(i);
                self.status_defs[id] = def;
                self.status_installed[id] = true;
                if file.is_some() {
                    self.status_files[id] = file;
                }
            }
        }
        self.modified = vec![false; self.attributes.len()].into();
        self.conditional_statuses = self.status_defs.iter().any(|d| d.removed_when.is_some());
        self.status_turns = self.status_defs.iter().any(|d| !d.turns.is_empty());
        for def in &self.status_defs {
            for m in &def.modifiers {
                self.modified[m.attr] = true;
            }
        }
        self.plan_moments();
    }

    /// The names of a game's first entities: its seats, then its `:setup` entities.
    pub fn game_entity_names(&self) -> Vec<String> {
        self.seats
            .iter()
            .chain(
                self.setup_entities()
                    .filter(|s| s.seat.is_none())
                    .map(|s| &s.name),
            )
            .cloned()
            .collect()
    }

    /// Every setup entry a game starts with: the rule set's `:setup`, then
    /// the chosen encounter's.
    pub fn setup_entities(&self) -> impl Iterator<Item = &Setup> + Clone {
        let encounter = self.encounters.get(self.encounter);
        self.setup
            .iter()
            .chain(encounter.into_iter().flat_map(|e| e.setup.iter()))
    }

    /// Sets games up as the encounter called `name`; an error naming the
    /// encounters there are when none is called that.
    pub fn choose_encounter(&mut self, name: &str) -> Result<(), String> {
        match self.encounters.iter().position(|e| e.name == name) {
            Some(i) => {
                self.encounter = i;
                Ok(())
            }
            None if self.encounters.is_empty() => Err(format!(
                "rule set `{}` declares no `:encounters`",
                self.name
            )),
            None => Err(format!(
                "rule set `{}` has no encounter `{name}`; it has {}",
                self.name,
                check::list_and(self.encounters.iter().map(|e| format!("`{}`", e.name)))
            )),
        }
    }

    /// The id of status `name`.
    pub fn status(&self, name: &str) -> Option<StatusId> {
        index_of(&self.statuses, name)
    }

    /// The work applying `effects` once can do, as [`crate::check::work`]
    /// estimates it: changes (through operations too), dice, `advantage`s,
    /// loops over entities; nothing expanded.
    pub fn expansion_of(&self, effects: &[Effect]) -> u64 {
        crate::check::work::effects(effects, &|o| self.op_sizes.get(o).copied().unwrap_or(1))
    }

    /// Whether applying `effects` can draw from the generator (`random`,
    /// `chance`), in the operations they apply too.
    pub fn draws(&self, effects: &[Effect]) -> bool {
        operations::effects_draw(effects, |o| self.op_draws.get(o).copied().unwrap_or(true))
    }

    /// The value of param `name`.
    pub fn param(&self, name: &str) -> Option<i64> {
        self.params.iter().find(|(p, _)| p == name).map(|(_, v)| *v)
    }

    /// The scope effects outside any operation are checked in.
    pub fn scope(&self) -> Scope<'_> {
        Scope {
            roles: &self.roles,
            attributes: &self.attributes,
            operations: &self.operations,
            params: &self.params,
            lookups: &self.lookups,
            formulas: &self.formulas,
            args: &[],
            statuses: &self.statuses,
            categories: &self.categories,
            flags: &self.flags,
            kinds: &self.kinds,
            timings: &self.timing_shapes,
            turn_kinds: &self.turn_kind_names,
            choice_columns: &self.choice_columns,
            choosable: Choosable::Nothing,
            card_values: &[],
            in_operation: false,
            in_status: false,
            bound: &[],
            zones: self.zones.as_ref().filter(|z| !z.classic),
            card_kinds: self.card_kinds.as_slice(),
            this_card: false,
            in_trigger: false,
            in_reaction: false,
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
    pub fn attribute(&self, name: &str) -> Option<AttrId> {
        index_of(&self.attributes, name)
    }

    /// The index of role `name`.
    pub fn role(&self, name: &str) -> Option<RoleId> {
        index_of(&self.roles, name)
    }

    /// The index of kind `name`.
    pub fn kind(&self, name: &str) -> Option<KindId> {
        index_of(&self.kinds, name)
    }

    /// The index of category `name`.
    pub fn category(&self, name: &str) -> Option<CategoryId> {
        index_of(&self.categories, name)
    }

    /// The index of timing `name`.
    pub fn timing(&self, name: &str) -> Option<TimingId> {
        self.timings
            .iter()
            .position(|t| t.name == name)
            .map(TimingId::new)
    }

    /// The timings attached to `moment` whose hooks do something, in declaration order.
    #[inline]
    pub fn hooks_at(&self, moment: Moment) -> &[(TimingId, Option<KindId>)] {
        self.at_moment
            .get(moment as usize)
            .map_or(&[], Vec::as_slice)
    }

    /// The timings attached to `moment`, in declaration order.
    pub fn timings_at(&self, moment: Moment) -> impl Iterator<Item = TimingId> + '_ {
        self.timings
            .iter()
            .enumerate()
            .filter(move |(_, t)| t.at == moment)
            .map(|(i, _)| TimingId::new(i))
    }
}

/// Where `name` stands among `names`, as the index type of what they name
/// (the checker bounds every list to fit its index type).
fn index_of<I: TryFrom<usize>>(names: &[String], name: &str) -> Option<I> {
    names
        .iter()
        .position(|n| n == name)
        .and_then(|i| I::try_from(i).ok())
}

fn string(form: &Form<'_>, diags: &mut Vec<Diagnostic>) -> Option<String> {
    match &form.kind {
        Kind::Str(s) => Some(s.to_string()),
        _ => {
            diags.push(Diagnostic::new(
                Code::WrongType,
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
        diags.push(Diagnostic::new(
            Code::NotAMap,
            form.span,
            format!("{what} is a map from keywords, found {}", form.describe()),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in pairs.iter() {
        match k.as_keyword() {
            Some(name) => out.push((name, (k.span, v))),
            None => diags.push(
                Diagnostic::new(
                    Code::KeyNotKeyword,
                    k.span,
                    format!("names in {what} are keywords, found {}", k.describe()),
                )
                .with_label("expected a keyword"),
            ),
        }
    }
    out
}

/// The kind keyword `v` names, or a diagnostic that `key` (`:kind`, `:actor`)
/// names one of the rule set's kinds, with the nearest.
fn kind_named(
    rules: &RuleSet,
    v: &Form<'_>,
    key: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<KindId> {
    let message = format!(
        "`:{key}` names one of the rule set's kinds, found {}",
        v.describe()
    );
    check::Declared::new(
        rules.kinds.iter().map(String::as_str),
        "a kind",
        "kinds",
        Code::UnknownKind,
    )
    .find(v.as_keyword().unwrap_or(""), v.span, message, diags)
    .map(KindId::new)
}

/// A whole number from `min` to `max`, or a diagnostic naming `what`.
fn whole(
    form: &Form<'_>,
    what: &str,
    min: i64,
    max: i64,
    diags: &mut Vec<Diagnostic>,
) -> Option<i64> {
    match form.kind {
        Kind::Int(n) if (min..=max).contains(&n) => Some(n),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::whole_number(form),
                    form.span,
                    format!(
                        "{what} is a whole number from {min} to {max}, found {}",
                        form.describe()
                    ),
                )
                .with_label("out of range"),
            );
            None
        }
    }
}
