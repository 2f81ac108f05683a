//! `grimoire._grimoire`: the native half of the Python package.
//!
//! `check` and `eval` run the library's own implementation of the CLI
//! command of the same name and hand back its exit code and output, so that
//! what Python sees is, byte for byte, what `grimoire … --format json`
//! prints. `simulate` and `merge` play and add up games with the library's
//! simulation core (`grimoire::sim`) and hand back the figures as
//! dictionaries, built from the same structs (`grimoire::cli::SimJson`) the
//! CLI prints its JSON from; a failure comes back as the CLI would print it.
//! The Python half (`grimoire/__init__.py`) raises on errors. A [`Match`] is
//! one game an agent plays move by move (the PettingZoo environments).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::cli::{self, EvalArgs, Format, Output, SimArgs, SimJson};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::{Ability, Action, Game, Log, Outcome};
use grimoire::files::{CardChange, load_deck, load_rules};
use grimoire::sim::{self, Shard};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// What a command printed: exit code, standard output, standard error.
type Printed = (i32, String, String);

fn printed(out: Output) -> Printed {
    (out.code, out.stdout, out.stderr)
}

/// A run's figures: exit code 0, the figures as dictionaries and the notes
/// the CLI says on standard error beside them (`--threads` past the cores);
/// or the exit code, standard output and standard error of the CLI's
/// refusal (no figures).
type Figures = (i32, Option<Py<PyAny>>, String, String);

/// The figures as Python objects with their notes, or the refusal as printed.
fn figures(py: Python<'_>, result: Result<(SimJson, String), Output>) -> PyResult<Figures> {
    match result {
        Ok((json, notes)) => Ok((
            0,
            Some(to_python(py, &json.to_value())?),
            String::new(),
            notes,
        )),
        Err(out) => Ok((out.code, None, out.stdout, out.stderr)),
    }
}

/// A JSON value as the Python object `json.loads` reads from its text:
/// dictionaries in the same key order, integers as `int`, others as `float`.
fn to_python(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any().unbind(),
            (None, None) => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(entries) => {
            let dict = PyDict::new(py);
            for (key, item) in entries {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

fn paths(list: Vec<String>) -> Vec<PathBuf> {
    list.into_iter().map(PathBuf::from).collect()
}

fn policies(names: &[String]) -> PyResult<Vec<Policy>> {
    names
        .iter()
        .map(|n| {
            Policy::from_name(n).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown AI `{n}`: the policies are random, greedy and search"
                ))
            })
        })
        .collect()
}

/// `grimoire check PATHS --format json`.
#[pyfunction]
#[pyo3(signature = (paths, rules=None))]
fn check(py: Python<'_>, paths: Vec<String>, rules: Option<String>) -> Printed {
    let paths = self::paths(paths);
    py.detach(|| printed(cli::check(&paths, rules.as_deref(), Format::Json, false)))
}

/// How often a long call looks for a signal (Ctrl-C) while it runs.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Waits for `receiver`'s one message with the interpreter released,
/// looking for a signal every [`SIGNAL_CHECK`]: a signal's exception (Ctrl-C's
/// `KeyboardInterrupt`) is returned at once, `stop` set first.
fn wait_for<T: Send>(py: Python<'_>, receiver: Receiver<T>, stop: &AtomicBool) -> PyResult<T> {
    let mut receiver = receiver;
    loop {
        let (got, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_CHECK), receiver));
        receiver = back;
        match got {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "grimoire stopped with an internal error",
                ));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
    }
}

/// `grimoire eval --rules RULES EFFECTS --format json`, with `--set` for
/// each of `sets`, `--status` for each of `statuses` and `--then` for each
/// of `then`: run on a thread of its own with the interpreter released, so
/// other Python threads go on and Ctrl-C raises `KeyboardInterrupt` at once
/// (the evaluation, which cannot be stopped from outside, ends on that
/// thread, within the evaluator's own limits, and its result is dropped).
#[pyfunction]
#[pyo3(signature = (rules, effects, sets=Vec::new(), seed=None, statuses=Vec::new(), then=Vec::new()))]
fn eval(
    py: Python<'_>,
    rules: String,
    effects: String,
    sets: Vec<String>,
    seed: Option<u64>,
    statuses: Vec<String>,
    then: Vec<String>,
) -> PyResult<Printed> {
    let args = EvalArgs {
        rules,
        effects,
        file: None,
        card: None,
        cards: Vec::new(),
        sets,
        state: None,
        seed,
        seeds: None,
        statuses,
        then,
        format: Format::Json,
        color: false,
    };
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("grimoire eval".to_string())
        // The main thread's stack, as the CLI evaluates on.
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = sender.send(printed(cli::eval(&args)));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the evaluation: {e}")))?;
    wait_for(py, receiver, &AtomicBool::new(false))
}

/// The figures of `grimoire simulate RULES --games GAMES --seed SEED --format
/// json`, the interpreter released while the games run.
#[pyfunction]
#[pyo3(signature = (rules, games, seed, ai=Vec::new(), cards=Vec::new(), threads=None, shard=None, sort=None, changes=Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    rules: String,
    games: u64,
    seed: u64,
    ai: Vec<String>,
    cards: Vec<String>,
    threads: Option<usize>,
    shard: Option<(u64, u64)>,
    sort: Option<String>,
    changes: Vec<(String, String, String)>,
) -> PyResult<Figures> {
    let ai = policies(&ai)?;
    let changes = changes
        .iter()
        .map(|(card, key, value)| CardChange::new(card, key, value))
        .collect::<Result<_, _>>()
        .map_err(PyValueError::new_err)?;
    let shard = match shard {
        Some((index, of)) => {
            Some(Shard::parse(&format!("{index}/{of}")).map_err(PyValueError::new_err)?)
        }
        None => None,
    };
    let args = SimArgs {
        rules,
        cards: paths(cards),
        games,
        seed,
        ai,
        threads,
        format: Format::Json,
        csv: false,
        sort,
        versus: Vec::new(),
        report: None,
        record_game: None,
        shard,
        changes,
        progress: false,
        color: false,
    };
    // The CLI's checks and loading, so that a refusal is word for word its own.
    let prepared = match py.detach(|| cli::prepare_simulation(&args)) {
        Ok(prepared) => prepared,
        Err(out) => return figures(py, Err(out)),
    };
    // The games on a thread of their own, so that Ctrl-C stops them: the
    // games under way end and no other starts.
    let stop = AtomicBool::new(false);
    let tally = std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::channel();
        let (prepared, args, stop_flag) = (&prepared, &args, &stop);
        let worker = scope.spawn(move || {
            let done = AtomicU64::new(0);
            let tally = prepared.pool.install(|| {
                sim::run_range_until(
                    &prepared.rules,
                    &prepared.deck,
                    args.seed,
                    args.games_played(),
                    &args.ai,
                    &done,
                    stop_flag,
                )
            });
            let _ = sender.send(tally);
        });
        let tally = wait_for(py, receiver, &stop);
        // Stopped, the games under way finish before the error is raised.
        let _ = py.detach(move || worker.join());
        tally
    })?;
    figures(
        py,
        Ok((
            SimJson::of(&prepared, &args, &tally),
            prepared.notes.clone(),
        )),
    )
}

/// The figures of `grimoire merge --format json` of shards given as JSON text.
#[pyfunction]
fn merge(py: Python<'_>, shards: Vec<String>) -> PyResult<Figures> {
    let named: Vec<(String, String)> = shards
        .into_iter()
        .enumerate()
        .map(|(i, text)| (format!("shard #{}", i + 1), text))
        .collect();
    let merged = py.detach(|| cli::merge_figures(&named, false).map(|json| (json, String::new())));
    figures(py, merged)
}

/// A rule set and its deck, loaded once, which a match's game borrows.
struct Loaded {
    rules: RuleSet,
    deck: Vec<Card>,
}

self_cell::self_cell!(
    struct Playing {
        owner: Loaded,
        #[not_covariant]
        dependent: Game,
    }
);

/// The most actions a rule set with `:actions` offers as numbers: past it,
/// the rest of a long list of legal actions are not offered.
const MAX_LISTED: usize = 512;

/// One game an agent plays move by move: the seats take turns; each move is
/// a number from 0 to `action_count` − 1 (see [`Match::legal`]).
#[pyclass(module = "grimoire._grimoire")]
struct Match {
    playing: Playing,
    /// Each seat's opponent policy when `play_ai` moves for it.
    ai: Ai,
    legal: Vec<Action>,
    /// Hand positions numbered for cards (play `i`, discard `slots + i`), or 0:
    /// the rule set has `:actions`, numbered by their place in the legal list.
    slots: usize,
    /// Entities shown in an observation.
    shown: usize,
}

impl Match {
    fn encode(&self, action: &Action, index: usize) -> Option<usize> {
        if self.slots == 0 {
            return (index < MAX_LISTED).then_some(index);
        }
        match action.ability {
            Ability::Card(i) if usize::from(i) < self.slots => Some(usize::from(i)),
            Ability::Discard(i) if usize::from(i) < self.slots => Some(self.slots + usize::from(i)),
            _ => None,
        }
    }

    fn refresh(&mut self) {
        let legal = &mut self.legal;
        self.playing.with_dependent_mut(|_, game| {
            legal.clear();
            if game.outcome().is_none() {
                game.legal(legal);
            }
        });
    }
}

#[pymethods]
impl Match {
    /// A new game of `rules` (a bundled name or a rule-set file) with the
    /// bundled deck or `cards`, seeded `seed`.
    #[new]
    #[pyo3(signature = (rules, seed=0, cards=Vec::new()))]
    fn new(rules: &str, seed: u64, cards: Vec<String>) -> PyResult<Match> {
        let mut ruleset = load_rules(rules).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let deck = load_deck(&mut ruleset, &paths(cards))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let loaded = Loaded {
            rules: ruleset,
            deck: deck.cards,
        };
        let slots = if loaded.rules.actions.is_empty() {
            loaded
                .rules
                .cards
                .as_ref()
                .map_or(0, |z| z.hand_size * 2)
                .clamp(1, 64)
        } else {
            0
        };
        let playing = Playing::try_new(loaded, |l| Game::new(&l.rules, &l.deck, seed, Log::Skip))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let shown = playing
            .with_dependent(|_, game| game.state().len() * 2)
            .clamp(1, 64);
        let mut m = Match {
            playing,
            ai: Ai::new(),
            legal: Vec::new(),
            slots,
            shown,
        };
        m.refresh();
        Ok(m)
    }

    /// Starts over with a new seed, as a new match would.
    fn reset(&mut self, seed: u64) {
        self.playing.with_dependent_mut(|_, game| game.reset(seed));
        self.refresh();
    }

    /// The seats' names, in seat order.
    #[getter]
    fn seats(&self) -> Vec<String> {
        self.playing.borrow_owner().rules.seats.clone()
    }

    /// The seat to move.
    #[getter]
    fn current(&self) -> usize {
        self.playing
            .with_dependent(|_, game| game.ctx().current.index())
    }

    /// How many numbers a move can be (the size of the action space).
    #[getter]
    fn action_count(&self) -> usize {
        if self.slots == 0 {
            MAX_LISTED
        } else {
            self.slots * 2
        }
    }

    /// How many numbers an observation holds.
    #[getter]
    fn observation_size(&self) -> usize {
        let o = self.playing.borrow_owner();
        self.shown * o.rules.attributes.len() + o.deck.len() + o.rules.seats.len()
    }

    /// The moves the seat to move may make, as numbers, in the engine's order.
    fn legal(&self) -> Vec<usize> {
        self.legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| self.encode(a, i))
            .collect()
    }

    /// What `seat` sees: every value of the first entities (zero past the
    /// last), how many of each card of the deck are in its own hand, and
    /// which seat it is (one 1 among zeros). A seat the game does not have
    /// is a `ValueError`.
    fn observe(&self, seat: usize) -> PyResult<Vec<i64>> {
        let o = self.playing.borrow_owner();
        let seats = o.rules.seats.len();
        if seat >= seats {
            return Err(PyValueError::new_err(format!(
                "seat {seat}: the game has {seats} seats, 0 to {}",
                seats.saturating_sub(1)
            )));
        }
        let width = o.rules.attributes.len();
        let mut out = vec![0i64; self.observation_size()];
        self.playing.with_dependent(|_, game| {
            let state = game.state();
            for e in 0..state.len().min(self.shown) {
                for a in 0..width {
                    out[e * width + a] = state.get(
                        grimoire::ids::EntityId::new(e),
                        grimoire::ids::AttrId::new(a),
                    );
                }
            }
            let hand_at = self.shown * width;
            if seat < game.seats() {
                for &card in game.hand_of(grimoire::ids::EntityId::new(seat)) {
                    if let Some(n) = out.get_mut(hand_at + card.index()) {
                        *n += 1;
                    }
                }
            }
            if let Some(flag) = out.get_mut(hand_at + o.deck.len() + seat) {
                *flag = 1;
            }
        });
        Ok(out)
    }

    /// Makes move `action` (one of [`Match::legal`]) for the seat to move.
    fn step(&mut self, action: usize) -> PyResult<()> {
        let chosen = self
            .legal
            .iter()
            .enumerate()
            .find(|(i, a)| self.encode(a, *i) == Some(action))
            .map(|(_, a)| *a)
            .ok_or_else(|| {
                PyValueError::new_err(format!("move {action} is not legal now (see legal())"))
            })?;
        let result = self
            .playing
            .with_dependent_mut(|_, game| game.act(chosen).map_err(|e| e.to_string()));
        self.refresh();
        result.map_err(PyRuntimeError::new_err)
    }

    /// The move the built-in `policy` (random, greedy or search) would make
    /// for the seat to move, as a number; `None` when it has none.
    fn choose(&mut self, py: Python<'_>, policy: &str) -> PyResult<Option<usize>> {
        let policy = policies(&[policy.to_string()])?[0];
        let (ai, playing) = (&mut self.ai, &mut self.playing);
        // The searching player takes seconds: other Python threads go on meanwhile.
        let chosen =
            py.detach(move || playing.with_dependent_mut(|_, game| ai.choose(game, policy)));
        Ok(chosen.and_then(|a| {
            let i = self.legal.iter().position(|l| *l == a)?;
            self.encode(&a, i)
        }))
    }

    /// `None` while the game goes on; else `"win"`, `"tie"`, `"turn-limit"`,
    /// `"nobody-left"` or `"aborted: …"` (a budget ran out: why), and the
    /// winning seat for a win.
    fn outcome(&self) -> Option<(String, Option<usize>)> {
        self.playing.with_dependent(|_, game| {
            game.outcome().map(|o| match o {
                Outcome::Win { seat, .. } => ("win".to_string(), Some(seat.index())),
                Outcome::Tie => ("tie".to_string(), None),
                Outcome::TurnLimit => ("turn-limit".to_string(), None),
                Outcome::NobodyLeft => ("nobody-left".to_string(), None),
                Outcome::Aborted(why) => {
                    let at = game.stopped_at().unwrap_or_default();
                    (format!("aborted at {at}: {why}"), None)
                }
            })
        })
    }

    /// The turn number, from 1.
    #[getter]
    fn turn(&self) -> u32 {
        self.playing.with_dependent(|_, game| game.ctx().turn)
    }
}

/// The native half of the `grimoire` package.
#[pymodule]
fn _grimoire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_class::<Match>()?;
    Ok(())
}
