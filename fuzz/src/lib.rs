//! The fuzz targets' bodies, and what they share: the bundled rule sets and
//! decks, loaded once; the one call into the reader; the checks every
//! diagnostic and every form must pass (spans inside the text, on character
//! boundaries). Each target in `fuzz_targets/` calls one function here; the
//! main crate's `tests/properties/fuzz_regressions.rs` includes this file as a
//! module and runs every fixture in `tests/data/fuzz/TARGET/` through the
//! same function, so a defect a fuzzer found stays found without libFuzzer.
//!
//! Nothing here may use libFuzzer: only grimoire, `arbitrary` and std.

use std::collections::HashSet;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use grimoire::check::ast::EntityId;
use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::diag::{Diagnostic, Source};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::invariants::{Monitor, check_state, play_checked, replay_matches};
use grimoire::engine::{Game, Log};
use grimoire::eval::{CompiledEffects, Event, Program, State, acquire, apply, run_timing};
use grimoire::files;
use grimoire::formatter::{FmtError, format_source};
use grimoire::ids::{AttrId, KindId, StatusId, TimingId};
use grimoire::scenario;
use grimoire::syntax::{Arena, Form, Kind, Read, Span};

/// A bundled rule set with the statuses its data files define, its deck
/// (empty without card zones), and the texts of its bundled data files.
pub struct Bundled {
    /// Its name (`arcomage`).
    pub name: &'static str,
    /// The rule set, extended with its bundled statuses.
    pub rules: RuleSet,
    /// Its bundled cards.
    pub deck: Vec<Card>,
}

/// Every bundled rule set, loaded once per process.
pub fn bundled() -> &'static [Bundled] {
    static ALL: OnceLock<Vec<Bundled>> = OnceLock::new();
    ALL.get_or_init(|| {
        grimoire::check::rules::BUNDLED
            .iter()
            .map(|&(name, _)| {
                let mut rules = files::load_rules(name).expect("a bundled rule set loads");
                let deck = files::load_deck(&mut rules, &[]).expect("a bundled deck loads");
                Bundled {
                    name,
                    rules,
                    deck: deck.cards,
                }
            })
            .collect()
    })
}

/// The bundled rule set that byte `b` picks.
pub fn pick(b: u8) -> &'static Bundled {
    let all = bundled();
    &all[usize::from(b) % all.len()]
}

/// The reader: the one place the fuzz targets call it, so a change to its
/// signature is made here alone.
pub fn read<'a>(arena: &'a Arena, src: &'a str) -> Read<'a> {
    grimoire::syntax::read(arena, src)
}

/// Whether `span` lies inside `text` and starts and ends on character boundaries.
pub fn span_fits(text: &str, span: Span) -> bool {
    let (start, end) = (span.start as usize, span.end as usize);
    start <= end && end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end)
}

/// Asserts that every form's span fits the text and holds its children's.
pub fn assert_spans(text: &str, forms: &[Form<'_>]) {
    fn walk(text: &str, form: &Form<'_>, outer: Option<Span>) {
        assert!(
            span_fits(text, form.span),
            "form span {:?} outside the text",
            form.span
        );
        if let Some(outer) = outer {
            assert!(
                outer.start <= form.span.start && form.span.end <= outer.end,
                "child {:?} outside its parent {:?}",
                form.span,
                outer
            );
        }
        let inner = Some(form.span);
        match &form.kind {
            Kind::Vector(items) | Kind::List(items) | Kind::Set(items) => {
                items.iter().for_each(|f| walk(text, f, inner))
            }
            Kind::Map(pairs) => pairs.iter().for_each(|(k, v)| {
                walk(text, k, inner);
                walk(text, v, inner);
            }),
            _ => {}
        }
    }
    for form in forms {
        walk(text, form, None);
    }
}

/// Renders every diagnostic as people and machines see it, asserting each
/// points inside its source (a caret past the text points at nothing).
pub fn render(source: &Source, diags: &[Diagnostic]) {
    for d in diags {
        assert!(
            span_fits(&source.text, d.span),
            "diagnostic span {:?} outside {} bytes: {}",
            d.span,
            source.text.len(),
            d.message
        );
        for (span, _) in &d.related {
            assert!(
                span_fits(&source.text, *span),
                "related span {span:?}: {}",
                d.message
            );
        }
        let shown = source.render(d, true);
        assert!(!shown.is_empty());
        let located = source.locate(d);
        assert!(located.line >= 1 && located.column >= 1);
    }
}

/// Renders the diagnostics of a check of files, each against its own source.
pub fn render_checked(checked: &files::Checked) {
    for (i, d) in &checked.diagnostics {
        render(&checked.sources[*i], std::slice::from_ref(d));
    }
}

/// A target's body: what it does with one input.
pub type Body = fn(&[u8]);

/// The targets, by name, each with its body: what
/// `tests/properties/fuzz_regressions.rs` runs a fixture of
/// `tests/data/fuzz/TARGET/` through.
pub const TARGETS: &[(&str, Body)] = &[
    ("read", read_target),
    ("check", check_target),
    ("csv", csv_target),
    ("md", md_target),
    ("eval", |data| decoded(data, eval_target)),
    ("game", |data| decoded(data, game_target)),
    ("fmt", fmt_target),
    ("scenario", scenario_target),
];

/// Runs `body` on `data` decoded as libFuzzer's typed targets decode it; data
/// that does not decode is skipped, as there.
pub fn decoded<'a, T: Arbitrary<'a>>(data: &'a [u8], body: fn(T)) {
    if let Ok(input) = T::arbitrary_take_rest(arbitrary::Unstructured::new(data)) {
        body(input);
    }
}

/// The reader on any bytes (lossily decoded, as the file layer decodes them):
/// never a panic or a hang; every form's span inside the text and inside its
/// parent's; every error located inside the text, renderable, and said once.
pub fn read_target(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let arena = Arena::new();
    let out = read(&arena, &text);
    assert_spans(&text, &out.forms);
    for span in &out.damaged {
        assert!(span_fits(&text, *span), "damaged span {span:?}");
    }
    let mut seen = HashSet::new();
    for e in &out.errors {
        assert!(seen.insert(format!("{e:?}")), "said twice: {e:?}");
    }
    let diags: Vec<Diagnostic> = out.errors.iter().map(Diagnostic::from).collect();
    render(&Source::new("fuzz.edn", text.to_string()), &diags);
}

/// The checker: any text checked as a definitions file against a bundled rule
/// set (the first byte picks which; one value past them checks it with no
/// rule set, as a rule-set file); every diagnostic located and renderable,
/// and every definition that checks explained in words.
pub fn check_target(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let all = bundled();
    let rules = all
        .get(usize::from(which) % (all.len() + 1))
        .map(|b| &b.rules);
    let text = String::from_utf8_lossy(rest).into_owned();
    let checked = files::check_sources(vec![Source::new("fuzz.edn", text)], rules);
    render_checked(&checked);
    let rules = checked
        .extended
        .last()
        .or(checked.rule_sets.last())
        .or(rules);
    if let Some(rules) = rules {
        for def in &checked.definitions {
            let words = grimoire::check::explain::explain(rules, &def.effects);
            assert!(words.len() < 1 << 24);
        }
    }
}

/// Card spreadsheets: any text checked as a `.csv` deck against a bundled
/// rule set (the first byte picks it); every cell and diagnostic points into the CSV.
pub fn csv_target(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest).into_owned();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let rows = grimoire::check::csv::rows(&text, &mut diags);
    for cell in rows.iter().flatten() {
        assert!(span_fits(&text, cell.span), "cell span {:?}", cell.span);
    }
    let arena = Arena::new();
    let forms = grimoire::check::csv::cards(&arena, &rows, &mut diags);
    assert_spans(&text, &forms);
    render(&Source::new("fuzz.csv", text.clone()), &diags);
    // And the whole path a designer's `grimoire check Cards.csv` takes.
    let rules = &pick(which).rules;
    let checked = files::check_sources(vec![Source::new("fuzz.csv", text)], Some(rules));
    render_checked(&checked);
}

/// Markdown tables: any text checked as a `.md` file against a bundled rule
/// set (the first byte picks it): tables read with a span on every cell,
/// status rows joined to the rule set's statuses; every diagnostic located.
pub fn md_target(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest).into_owned();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let _tables = grimoire::check::md::tables(&text, &mut diags);
    render(&Source::new("fuzz.md", text.clone()), &diags);
    let rules = &pick(which).rules;
    let checked = files::check_sources(vec![Source::new("fuzz.md", text)], Some(rules));
    render_checked(&checked);
}

/// The formatter: on any text, it refuses what does not read and formats what
/// does; the result reads as the same forms, and formatting it again changes nothing.
pub fn fmt_target(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match format_source(text) {
        Ok(tidy) => {
            let arena = Arena::new();
            let (before, after) = (read(&arena, text), read(&arena, &tidy));
            assert!(
                after.errors.is_empty(),
                "formatted text does not read: {:?}",
                after.errors
            );
            assert_eq!(
                before.forms.len(),
                after.forms.len(),
                "formatting changed the form count"
            );
            for (x, y) in before.forms.iter().zip(&after.forms) {
                assert!(
                    x.same_value(y),
                    "formatting changed a form: {x:?} became {y:?}"
                );
            }
            match format_source(&tidy) {
                Ok(again) => assert_eq!(again, tidy, "formatting is not idempotent"),
                Err(e) => panic!("formatted text cannot be formatted again: {e}"),
            }
        }
        Err(FmtError::Syntax(errors)) => {
            assert!(!errors.is_empty(), "refused for syntax without an error");
            assert!(
                !read(&Arena::new(), text).errors.is_empty(),
                "refused for syntax, but the text reads"
            );
        }
        Err(e @ FmtError::NotSame { .. }) => {
            panic!("the formatter changed what the text says: {e}")
        }
    }
}

/// The scenario runner: any text read as a scenario file for a bundled rule
/// set (the first byte picks it) and its deck; every scenario that checks is
/// run. Never a panic; every diagnostic located.
pub fn scenario_target(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let bundled = pick(which);
    let text = String::from_utf8_lossy(rest).into_owned();
    let arena = Arena::new();
    let out = read(&arena, &text);
    if !out.errors.is_empty() {
        return;
    }
    let mut diags: Vec<Diagnostic> = Vec::new();
    let scenarios = scenario::load(&out.forms, &bundled.rules, &bundled.deck, &mut diags);
    render(&Source::new("fuzz.edn", text.clone()), &diags);
    for s in scenarios.iter().take(64) {
        let _ = scenario::run(s, &bundled.rules, &bundled.deck);
    }
}

/// What the eval target is given.
#[derive(Arbitrary, Debug)]
pub struct EvalInput {
    /// Picks the bundled rule set.
    pub rules: u8,
    /// The state's generator's seed.
    pub seed: u64,
    /// Extra entities of the rule set's kinds, beyond the seats and the setup.
    pub spawn: Vec<u8>,
    /// Values, in entity-major order, each clamped into its attribute's bounds.
    pub values: Vec<i64>,
    /// Statuses to acquire first: holder, source, status, magnitude.
    pub statuses: Vec<(u8, u8, u16, i64)>,
    /// A timing to run after the effects, both ways.
    pub timing: Option<u16>,
    /// Which form of the text holds the effects.
    pub form: u8,
    /// A vector of effect maps, or definitions (a card file) whose `:effects` are taken.
    pub effects: String,
}

/// The evaluator: effects written as text (a vector of effect maps, or a card
/// file whose definitions' `:effects` are taken), checked against a bundled
/// rule set, applied to an arbitrary state (values within bounds, statuses
/// acquired through the normal path), once by the tree walker and once
/// compiled. Both must make the same state and the same events, draw the same
/// numbers, and leave every value within bounds and every status well formed;
/// then the same for a timing run both ways.
pub fn eval_target(input: EvalInput) {
    let bundled = pick(input.rules);
    let rules = &bundled.rules;
    let arena = Arena::new();
    let read = read(&arena, &input.effects);
    if !read.errors.is_empty() || read.forms.is_empty() {
        return;
    }
    let form = &read.forms[usize::from(input.form) % read.forms.len()];
    // A card or named effect gives its effects: card files seed the corpus as they are.
    let form = form.get("effects").unwrap_or(form);
    let Ok(effects) = rules.check_effects(form) else {
        return;
    };
    let mut state = State::new(rules, rules.seats.len().max(rules.roles.len()), input.seed);
    state.add_setup(rules);
    for &k in input.spawn.iter().take(8) {
        if !rules.kinds.is_empty() {
            state.add(rules, KindId::new(usize::from(k) % rules.kinds.len()));
        }
    }
    let width = rules.attributes.len();
    for (i, &v) in input.values.iter().enumerate().take(state.len() * width) {
        let attr = AttrId::new(i % width);
        let (min, max) = rules.bounds[attr];
        state.put(EntityId::new(i / width), attr, v.clamp(min, max));
    }
    let roles: Vec<EntityId> = EntityId::below(rules.roles.len()).collect();
    let mut events: Vec<Event> = Vec::new();
    let n = state.len();
    for &(holder, source, status, magnitude) in input.statuses.iter().take(6) {
        if rules.status_defs.is_empty() || n == 0 {
            break;
        }
        let status = StatusId::new(usize::from(status) % rules.status_defs.len());
        let (holder, source) = (
            EntityId::new(usize::from(holder) % n),
            EntityId::new(usize::from(source) % n),
        );
        acquire(
            rules,
            &mut state,
            &roles,
            holder,
            source,
            status,
            magnitude,
            &mut events,
        );
    }
    check_state(rules, &state).unwrap_or_else(|v| panic!("after acquiring statuses: {v}"));
    let (mut walked, mut compiled) = (state.clone(), state);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    apply(rules, &effects, &mut walked, &roles, &mut a);
    let program = Program::new(rules);
    let code = CompiledEffects::new(rules, &effects);
    program.apply(rules, &code, &mut compiled, &roles, &mut b);
    assert_eq!(
        a, b,
        "the compiled effects' events differ from the tree walker's"
    );
    assert_eq!(walked, compiled, "the compiled effects' state differs");
    check_state(rules, &walked).unwrap_or_else(|v| panic!("after the effects: {v}"));
    if let Some(t) = input.timing
        && !rules.timings.is_empty()
    {
        let t = TimingId::new(usize::from(t) % rules.timings.len());
        a.clear();
        b.clear();
        run_timing(rules, &mut walked, t, &roles, EntityId::FIRST, &mut a);
        program.run_timing(rules, &mut compiled, t, &roles, EntityId::FIRST, &mut b);
        assert_eq!(a, b, "timing {t}: the compiled hooks' events differ");
        assert_eq!(
            walked, compiled,
            "timing {t}: the compiled hooks' state differs"
        );
        check_state(rules, &walked).unwrap_or_else(|v| panic!("after timing {t}: {v}"));
    }
}

/// A change to one bundled card, each field within what its file could say.
#[derive(Arbitrary, Debug)]
pub struct Tweak {
    /// Which card (of those kept).
    pub card: u8,
    /// `:copies`, 0 to 4.
    pub copies: Option<u8>,
    /// `:cost`, small or near `i64::MAX`.
    pub cost: Option<u16>,
    /// Whether the cost is near `i64::MAX`.
    pub huge_cost: bool,
    /// `:draw`, 0 to 10.
    pub draw: Option<u8>,
    /// `:discard`, 0 to 10.
    pub discard: Option<u8>,
    /// `:play-again`.
    pub play_again: Option<bool>,
    /// `:once`.
    pub once: Option<bool>,
    /// `:discardable`.
    pub discardable: Option<bool>,
}

/// What the game target is given.
#[derive(Arbitrary, Debug)]
pub struct GameInput {
    /// Picks the bundled rule set.
    pub rules: u8,
    /// The game's seed.
    pub seed: u64,
    /// Each seat's player (random for a seat not given): random, greedy, or
    /// (rarely: it is slow) search.
    pub players: Vec<u8>,
    /// Which bundled cards are left out, one bit each.
    pub leave_out: u64,
    /// Changes to the cards kept.
    pub tweaks: Vec<Tweak>,
    /// More cards, as a card file would hold them.
    pub extra: String,
}

fn player(b: u8) -> Policy {
    match b % 16 {
        0 => Policy::Search,
        1..=5 => Policy::Greedy,
        _ => Policy::Random,
    }
}

/// The deck `input` makes of `base`, the bundled cards.
fn deck(input: &GameInput, base: &[Card], rules: &RuleSet) -> Vec<Card> {
    let mut cards: Vec<Card> = base
        .iter()
        .enumerate()
        .filter(|(i, _)| input.leave_out & (1 << (i % 64)) == 0)
        .map(|(_, c)| c.clone())
        .collect();
    for t in input.tweaks.iter().take(16) {
        let Some(n) = cards.len().checked_sub(1) else {
            break;
        };
        let play = &mut cards[usize::from(t.card) % (n + 1)].play;
        if let Some(c) = t.copies {
            play.copies = c % 5;
        }
        if let Some(c) = t.cost {
            // A cost is any whole number; the huge ones reach the saturating edges.
            play.cost = if t.huge_cost {
                i64::MAX - i64::from(c)
            } else {
                i64::from(c % 64)
            };
        }
        if let Some(d) = t.draw {
            play.draw = d % 11;
        }
        if let Some(d) = t.discard {
            play.discard = d % 11;
        }
        if let Some(f) = t.play_again {
            play.play_again = f;
        }
        if let Some(f) = t.once {
            play.once = f;
        }
        if let Some(f) = t.discardable {
            play.discardable = f;
        }
    }
    if !input.extra.is_empty() && rules.cards.is_some() {
        let source = Source::new("fuzz.edn", input.extra.clone());
        let checked = files::check_sources(vec![source], Some(rules));
        if checked.error_count() == 0 {
            cards.extend(Card::from_definitions(
                &checked.definitions,
                &checked.sources,
                &rules.name,
            ));
        }
    }
    // Card numbers are 16 bits: a deck is far smaller than that.
    cards.truncate(1000);
    cards
}

/// Whole games: a bundled rule set (the first field picks it) with an
/// arbitrary deck — its bundled cards, each in or out, with arbitrary copies,
/// costs, draws, discards and flags within what a card file may say, and
/// cards written as text that check — an arbitrary seed and computer players.
/// Every invariant holds after every action, the game ends by its rules, and
/// the seed replays it exactly.
pub fn game_target(input: GameInput) {
    let bundled = pick(input.rules);
    let rules = &bundled.rules;
    let cards = deck(&input, &bundled.deck, rules);
    // A player for every seat, so that one given does not stand for the rest.
    let mut players: Vec<Policy> = (0..rules.seats.len())
        .map(|s| input.players.get(s).map_or(Policy::Random, |&b| player(b)))
        .collect();
    // The search player is slow (a game of it takes seconds where actions
    // are many, or where `:draw` cards swell the hands: too slow to fuzz):
    // one seat at most, only in card games, only with the cards as written.
    let mut searching = rules.cards.is_some()
        && rules.actions.is_empty()
        && input.tweaks.is_empty()
        && input.extra.is_empty();
    for p in &mut players {
        if *p == Policy::Search && !std::mem::replace(&mut searching, false) {
            *p = Policy::Greedy;
        }
    }
    let Ok(mut game) = Game::new(rules, &cards, input.seed, Log::Keep) else {
        return;
    };
    let mut checker = Monitor::new();
    if let Err(v) = play_checked(&mut game, &mut Ai::new(), &players, &mut checker) {
        panic!("{} seed {}: {v}", bundled.name, input.seed);
    }
    let log = game.log().unwrap_or(&[]);
    if let Err(v) = replay_matches(rules, &cards, input.seed, &players, log, game.state()) {
        panic!("{} seed {}: {v}", bundled.name, input.seed);
    }
}
