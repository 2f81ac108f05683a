//! `grimoire play`: a seeded game, AI against AI or a person against an AI.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use super::deck::{deck_line, load_deck};
use super::recording::{self, Tee};
use super::{Output, Table, state_table, status_cell};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::engine::ai::{Ai, Policy};
use crate::engine::log::Sight;
use crate::engine::playout::{Decider, Ending, Observer, play_out};
use crate::engine::view::{Seen, Shape, View, ZoneName};
use crate::engine::{Ability, Action, CardId, Game, Illegal, Log, Phase};
use crate::files::DeckSource;
use crate::ids::EntityId;
use crate::sim::game_seed;

/// What `grimoire play` needs.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayArgs {
    /// Rule set: a name (the project's, else a bundled one such as arcomage) or a rule-set file.
    pub rules: String,
    /// The game's seed: the same seed plays the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// AI policy (default greedy): random, greedy, search, or mcts (the tree search; `mcts:300`
    /// for a budget of 300); once for both seats, or once per seat in seat order.
    // Empty, every seat plays random; the command line's default is filled in by `main`.
    #[arg(long, value_parser = super::policy_parser())]
    pub ai: Vec<Policy>,
    /// Play the first seat yourself: N plays card N, d N discards it, q quits.
    #[arg(long)]
    pub human: bool,
    /// Print the game's log as the seat named SEAT saw it: the other hands
    /// and the draw order unseen, statuses it was not shown left out; then
    /// what it sees at the end.
    #[arg(long, value_name = "SEAT", conflicts_with = "human")]
    pub view: Option<String>,
    /// Card files or folders (default: the rule set's own, its project's or the bundled cards/NAME and effects/NAME).
    #[arg(long)]
    pub cards: Vec<PathBuf>,
    /// The encounter to set the game up as, for a rule set with `:encounters` (default: the first it declares).
    #[arg(long)]
    pub encounter: Option<String>,
    /// The number of players, for a rule set with `:players` (default: its `:default`): the first N seats play.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Write what replays this game (rule set and deck digests, seed, every decision) to FILE.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Colour diagnostics.
    #[arg(skip)]
    pub color: bool,
}

/// `grimoire play`: plays one game and returns its log; with a person, talks
/// through `input`/`output`. With `--record`, writes what replays it.
pub fn play(args: &PlayArgs, input: &mut dyn BufRead, output: &mut dyn Write) -> Output {
    // A recording that could not be written is said before a game is played.
    if let Some(path) = &args.record
        && let Err(e) = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
    {
        return Output::usage(format!("{}: {e}", path.display()));
    }
    let mut tee = Tee::new(input);
    let (mut out, game) = play_game(args, &mut tee, output);
    if let (Some(path), Some(game)) = (&args.record, game) {
        let typed = tee.into_text();
        if let Err(e) = write_recording(path, args, &game, typed) {
            out.stderr
                .push_str(&format!("error: {}: {e}\n", path.display()));
            out.code = super::EXIT_USAGE;
        }
    }
    out
}

/// What a played game leaves for its recording: the deck it was dealt from
/// and each decision, as its place in the legal actions of the moment.
pub(crate) struct Played {
    pub(crate) rules: RuleSet,
    pub(crate) deck: Vec<Card>,
    pub(crate) decisions: Vec<u32>,
}

/// Writes the recording of `game`, played with `args`; `input` is what the person typed.
fn write_recording(
    path: &Path,
    args: &PlayArgs,
    game: &Played,
    input: String,
) -> std::io::Result<()> {
    let seats = game.rules.seats.len();
    recording::write(
        path,
        recording::Game {
            rules: &args.rules,
            cards: &args.cards,
            deck: &game.deck,
            rule_set: &game.rules,
            seed: args.seed,
            ai: (0..seats)
                .map(|s| Policy::for_seat(&args.ai, s).spec())
                .collect(),
            human: args.human,
            input,
            decisions: game.decisions.clone(),
        },
    )
}

/// Records game `n` (from 1) of a simulation run seeded `seed` (`simulate --record-game`),
/// set up as its encounter and count of players.
pub(crate) fn record_simulated_game(
    rules: &str,
    cards: &[PathBuf],
    (encounter, players): (Option<&str>, Option<usize>),
    seed: u64,
    n: u64,
    ai: &[Policy],
    path: &Path,
) -> Result<(), String> {
    let args = PlayArgs {
        rules: rules.to_string(),
        cards: cards.to_vec(),
        encounter: encounter.map(str::to_string),
        players,
        seed: game_seed(seed, n.saturating_sub(1)),
        ai: ai.to_vec(),
        human: false,
        view: None,
        record: None,
        color: false,
    };
    let mut input = std::io::Cursor::new(Vec::new());
    let mut sink: Vec<u8> = Vec::new();
    let (out, game) = play_game(&args, &mut input, &mut sink);
    let Some(game) = game else {
        return Err(out.stderr);
    };
    write_recording(path, &args, &game, String::new())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// One game, as [`play`] describes; also what recording it needs (`None`
/// when it never started).
pub(crate) fn play_game(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> (Output, Option<Played>) {
    play_game_shown(args, None, input, output)
}

/// [`play_game`], the header naming the deck's files as `shown` when given
/// (a replay names them as the recorded game did, not as it finds them).
pub(crate) fn play_game_shown(
    args: &PlayArgs,
    shown: Option<&[PathBuf]>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> (Output, Option<Played>) {
    let (mut rules, mut deck) = match load_deck(&args.rules, &args.cards, args.color) {
        Ok(d) => d,
        Err(out) => return (out, None),
    };
    if let Some(name) = &args.encounter
        && let Err(e) = rules.choose_encounter(name)
    {
        return (Output::usage(e), None);
    }
    if let Some(n) = args.players
        && let Err(e) = rules.choose_players(n)
    {
        return (Output::usage(e), None);
    }
    if let (Some(shown), DeckSource::Paths(_)) = (shown, &deck.source) {
        deck.source = DeckSource::Paths(shown.to_vec());
    }
    if let Err(out) = super::check_policies(&args.ai, &rules) {
        return (out, None);
    }
    let mut decisions = Decisions::default();
    let players = Players {
        ai: Ai::new(),
        policies: &args.ai,
        human: args.human,
        input,
        output,
        shown: 0,
        human_turn: false,
        abandoned: false,
    };
    let header_deck = deck_line(&deck);
    let out = run_game(
        args,
        &rules,
        &deck.cards,
        &header_deck,
        players,
        &mut decisions,
    );
    (
        out,
        Some(Played {
            rules,
            deck: deck.cards,
            decisions: decisions.decisions,
        }),
    )
}

/// Who decides in `grimoire play`: the person at the first seat (shown the
/// log so far, then asked), the computer players at the others.
struct Players<'a, 'io> {
    ai: Ai,
    policies: &'a [Policy],
    human: bool,
    input: &'io mut dyn BufRead,
    output: &'io mut dyn Write,
    /// How much of the log the person has been shown.
    shown: usize,
    /// Whether the last decision was the person's.
    human_turn: bool,
    /// The person quit.
    abandoned: bool,
}

impl Decider for Players<'_, '_> {
    fn decide(&mut self, game: &mut Game<'_>) -> Option<Action> {
        self.human_turn = self.human && game.ctx().current == EntityId::FIRST;
        if !self.human_turn {
            let policy = Policy::for_seat(self.policies, (game.ctx().current).index());
            return self.ai.choose(game, policy);
        }
        let log = game.log().unwrap_or(&[]);
        let shown = crate::engine::log::render_from(
            game.rules(),
            game.cards(),
            log,
            self.shown,
            Sight::Seat(EntityId::FIRST),
        );
        let _ = self.output.write_all(shown.as_bytes());
        self.shown = log.len();
        let action = ask(game, self.input, self.output);
        self.abandoned = action.is_none();
        action
    }

    /// A person is told why and asked again.
    fn retry(&mut self, _game: &Game<'_>, refused: &Illegal) -> bool {
        if self.human_turn {
            let _ = writeln!(self.output, "{refused}");
        }
        self.human_turn
    }
}

/// Each decision as its place among the legal actions, before acting changes them.
#[derive(Default)]
struct Decisions {
    legal: Vec<Action>,
    decisions: Vec<u32>,
}

impl Observer for Decisions {
    type Stop = std::convert::Infallible;

    fn chosen(&mut self, game: &mut Game<'_>, action: Action) {
        if game.allowed(action) {
            game.legal(&mut self.legal);
            let at = self.legal.iter().position(|a| *a == action);
            let at = at.unwrap_or(usize::MAX);
            self.decisions.push(u32::try_from(at).unwrap_or(u32::MAX));
        }
    }
}

/// Plays the game and renders its log and final state.
fn run_game(
    args: &PlayArgs,
    rules: &RuleSet,
    deck: &[Card],
    header_deck: &str,
    mut players: Players<'_, '_>,
    decisions: &mut Decisions,
) -> Output {
    let viewer = match &args.view {
        Some(name) => match rules.seats.iter().position(|s| s == name) {
            Some(s) => Some(EntityId::new(s)),
            None => {
                return Output::usage(format!(
                    "--view {name}: rule set `{}` has no such seat; its seats are {}",
                    rules.name,
                    crate::diag::list_and(rules.seats.iter().cloned())
                ));
            }
        },
        None => None,
    };
    let mut game = match Game::new(rules, deck, args.seed, Log::Keep) {
        Ok(g) => g,
        Err(e) => return Output::usage(e.to_string()),
    };
    let seats = rules.seats.len();
    let mut header = format!("{} · seed {} · ", rules.name, args.seed);
    if let Some(e) = rules.encounters.get(rules.encounter) {
        header = format!(
            "{} · encounter {} · seed {} · ",
            rules.name, e.name, args.seed
        );
    }
    let names: Vec<String> = (0..seats)
        .map(|s| {
            let who = if args.human && s == 0 {
                "you".to_string()
            } else {
                Policy::for_seat(&args.ai, s).spec()
            };
            format!("{} {who}", rules.seats[s])
        })
        .collect();
    header.push_str(&names.join(" vs "));
    header.push('\n');
    header.push_str(header_deck);
    header.push('\n');
    if args.human {
        let _ = players.output.write_all(header.as_bytes());
    }
    match play_out(&mut game, &mut players, decisions) {
        Ending::NoAction if players.abandoned => {
            let _ = writeln!(players.output, "game abandoned");
            return Output::default();
        }
        Ending::Refused(_, e) => {
            return Output::usage(format!(
                "internal error: the AI chose an illegal action: {e}"
            ));
        }
        Ending::Over | Ending::NoAction => {}
        Ending::Stopped(never) => match never {},
    }
    let log = game.log().unwrap_or(&[]);
    // A person at the table sees what their seat may, and so does a log
    // seen by one seat; a log of AIs is a spectator's.
    let seer = if args.human {
        Some(EntityId::FIRST)
    } else {
        viewer
    };
    let mut text = if args.human { String::new() } else { header };
    if let Some(seat) = viewer {
        let _ = writeln!(
            text,
            "seen by {}: the other hands and the draw order unseen, cards named as they are played or discarded",
            rules.seats[seat.index()]
        );
    }
    let sight = seer.map_or(Sight::All, Sight::Seat);
    text.push_str(&crate::engine::log::render_from(
        rules,
        deck,
        log,
        players.shown,
        sight,
    ));
    text.push('\n');
    match seer {
        Some(seat) => {
            let view = game.view(seat);
            let names = rules.game_entity_names();
            text.push_str(&view_screen(rules, deck, &names, &view, viewer.is_some()));
        }
        None => text.push_str(&state_table(
            rules,
            &rules.game_entity_names(),
            game.state(),
            sight,
        )),
    }
    if args.human {
        let _ = players.output.write_all(text.as_bytes());
        return Output::default();
    }
    Output {
        stdout: text,
        ..Output::default()
    }
}

/// Shows the hand and reads a choice: `N` plays card N, `d N` discards it,
/// `q` quits; beside a hand, the rule set's legal actions, `a N` using one.
fn ask(game: &mut Game<'_>, input: &mut dyn BufRead, output: &mut dyn Write) -> Option<Action> {
    let rules = game.rules();
    if game.ctx().phase == Phase::React {
        return ask_react(game, input, output);
    }
    // The next target of the card being played: each candidate listed.
    if game.ctx().phase == Phase::Target {
        return ask_action(game, input, output);
    }
    if game.hand().is_empty() && !rules.actions.is_empty() {
        return ask_action(game, input, output);
    }
    let seat = (game.ctx().current).index();
    // Every legal move is offered: the rule set's actions as well as the cards.
    let mut actions = Vec::new();
    game.legal(&mut actions);
    actions.retain(|a| {
        matches!(
            a.ability,
            Ability::Action(_) | Ability::EndTurn | Ability::Use(_)
        )
    });
    loop {
        let mut prompt = hand_prompt(game);
        if !actions.is_empty() {
            prompt.push_str("your actions:\n");
            for (i, &a) in actions.iter().enumerate() {
                let (who, what) = game.action_words(a);
                let _ = writeln!(prompt, "  a{}. {who}: {what}", i + 1);
            }
        }
        let act = if actions.is_empty() {
            ""
        } else {
            ", act with a N"
        };
        let _ = write!(prompt, "play N, discard with d N{act}, quit with q > ");
        let line = answer(&prompt, input, output)?;
        let line = line.as_str();
        if let Some(number) = line.strip_prefix('a').filter(|_| !actions.is_empty()) {
            let chosen = number.trim().parse::<usize>().ok();
            match chosen
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| actions.get(i))
            {
                Some(&action) => return Some(action),
                None => {
                    let _ = writeln!(
                        output,
                        "type a N, an action number from 1 to {}",
                        actions.len()
                    );
                    continue;
                }
            }
        }
        let (discard, number) = match line.strip_prefix('d') {
            Some(rest) => (true, rest.trim()),
            None => (false, line),
        };
        let Some(i) = number
            .parse::<usize>()
            .ok()
            .filter(|&i| i >= 1 && i <= game.hand().len())
        else {
            let _ = writeln!(
                output,
                "type a card number from 1 to {}, or d N to discard{}",
                game.hand().len(),
                if actions.is_empty() {
                    ""
                } else {
                    ", or a N to act"
                }
            );
            continue;
        };
        let action = if discard {
            game.discard(i - 1)
        } else {
            // A card that aims or chooses an option: which play of it.
            match ask_aim(game, i - 1, input, output) {
                Aim::Chosen(action) => action,
                Aim::Plain => game.play(i - 1),
                Aim::Back => continue,
                Aim::Quit => return None,
            }
        };
        match game.check(action) {
            Ok(()) => return Some(action),
            Err(e) => {
                let _ = writeln!(output, "{e} (seat {})", rules.seats[seat]);
            }
        }
    }
}

/// What [`ask_aim`] read.
enum Aim {
    /// The play chosen, with its target and option.
    Chosen(Action),
    /// The card aims at nothing and chooses nothing (or cannot be played).
    Plain,
    /// Another card, please.
    Back,
    /// The person quit.
    Quit,
}

/// For the card at hand position `i` that aims or chooses an option: its
/// legal plays listed (`1. at Yeti#12 (harm)`), one read.
fn ask_aim(game: &mut Game<'_>, i: usize, input: &mut dyn BufRead, output: &mut dyn Write) -> Aim {
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let plays: Vec<Action> = legal
        .into_iter()
        .filter(|a| {
            a.ability == Ability::Card(i as u16) && (a.target.is_some() || a.choice.is_some())
        })
        .collect();
    if plays.is_empty() {
        return Aim::Plain;
    }
    let rules = game.rules();
    let name = game
        .hand()
        .get(i)
        .map_or("?", |c| game.cards()[c.index()].name.as_str());
    let mut prompt = format!("{name}:\n");
    for (n, a) in plays.iter().enumerate() {
        let at = a
            .target
            .map(|t| format!(" at {}", game.entity_name(t)))
            .unwrap_or_default();
        let option = a
            .choice
            .and_then(|o| rules.options.get(o))
            .map(|o| format!(" ({o})"))
            .unwrap_or_default();
        let _ = writeln!(prompt, "  {}. {name}{at}{option}", n + 1);
    }
    let _ = write!(prompt, "which, 1 to {} (b: another card) > ", plays.len());
    loop {
        let Some(line) = answer(&prompt, input, output) else {
            return Aim::Quit;
        };
        if line.trim() == "b" {
            return Aim::Back;
        }
        match line
            .trim()
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|n| plays.get(n))
        {
            Some(&a) => return Aim::Chosen(a),
            None => {
                let _ = writeln!(output, "type a number from 1 to {}, or b", plays.len());
            }
        }
    }
}

/// Asks the person whether to answer the card another seat is playing:
/// `N` plays the reaction in slot N, `p` passes, `q` quits.
fn ask_react(
    game: &mut Game<'_>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Option<Action> {
    let seat = game.ctx().current;
    let Some((card, player)) = game.answering() else {
        return Some(game.pass_action());
    };
    let c = &game.cards()[card.index()];
    loop {
        let mut prompt = hand_prompt(game);
        let _ = write!(
            prompt,
            "{} may respond to {}'s {}: {}\nplay a reaction with N, or pass with p, quit with q > ",
            game.entity_name(seat),
            game.entity_name(player),
            c.name,
            c.text
        );
        let line = answer(&prompt, input, output)?;
        let action = match line.trim() {
            "p" => game.pass_action(),
            number => match number.parse::<usize>() {
                Ok(i) if i >= 1 && i <= game.hand().len() => game.play(i - 1),
                _ => {
                    let _ = writeln!(
                        output,
                        "type a card number from 1 to {}, or p to pass",
                        game.hand().len()
                    );
                    continue;
                }
            },
        };
        match game.check(action) {
            Ok(()) => return Some(action),
            Err(e) => {
                let _ = writeln!(output, "{e}");
            }
        }
    }
}

/// What the person sees, then their hand, each card with its cost and what stops it.
fn hand_prompt(game: &Game<'_>) -> String {
    screen(game, game.ctx().current, true)
}

/// What `play --human` shows `seat`'s player: the state as a player sees it
/// and, with card zones, its own hand, each card with its cost and what
/// stops it. The Python environments' `render()` shows it too.
pub fn seat_screen(game: &Game<'_>, seat: EntityId) -> String {
    screen(game, seat, game.rules().cards.is_some())
}

/// The state and, if `with_hand`, `seat`'s hand (see [`seat_screen`]).
fn screen(game: &Game<'_>, seat: EntityId, with_hand: bool) -> String {
    let rules = game.rules();
    let view = game.view(seat);
    let mut prompt = String::new();
    let names = rules.game_entity_names();
    let _ = writeln!(
        prompt,
        "\n{}",
        view_screen(rules, game.cards(), &names, &view, false)
    );
    if !with_hand {
        return prompt;
    }
    match game.ctx().phase {
        Phase::MustDiscard(n) if game.ctx().current == seat => {
            let _ = writeln!(
                prompt,
                "you must discard {n} card{}:",
                crate::diag::plural(n)
            );
        }
        _ => prompt.push_str("your hand:\n"),
    }
    let me = view.rows.get(view.seat.index());
    let have = |attr: crate::ids::AttrId| {
        me.and_then(|r| r.values.get(attr.index()))
            .copied()
            .unwrap_or(0)
    };
    // A deck where no card costs anything says no cost at all, not "free".
    let costs = game.cards().iter().any(|c| c.play.pay_with.is_some());
    for (i, card) in own_hand(rules, &view).enumerate() {
        let c = &game.cards()[card.index()];
        // What it costs now: a card in zones may cost less (`:discounts`).
        let now = game.cost_at(i);
        let cost = c
            .play
            .pay_with
            .map(|a| format!("{now} {}", rules.attributes[a]))
            .unwrap_or_else(|| "free".into());
        let mut notes = Vec::new();
        let affordable = c.play.pay_with.is_none_or(|a| now <= 0 || have(a) >= now);
        if !affordable {
            notes.push("cannot afford");
        }
        if !c.play.discardable {
            notes.push("cannot be discarded");
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!("  [{}]", notes.join(", "))
        };
        let cost = if costs {
            format!(" ({cost})")
        } else {
            String::new()
        };
        let _ = writeln!(prompt, "  {}. {}{cost}: {}{notes}", i + 1, c.name, c.text);
    }
    prompt
}

/// The zone a seat plays its cards from: the hand of `:cards`, or the
/// `:plays` zone of `:zones`.
fn hand_zone(rules: &RuleSet) -> Option<ZoneName> {
    match rules.zones.as_ref() {
        Some(set) if !set.classic => set.plays.map(ZoneName::Zone),
        _ => Some(ZoneName::Hand),
    }
}

/// The cards of the seat's own hand in `view`, in order.
fn own_hand<'v>(rules: &RuleSet, view: &'v View) -> impl Iterator<Item = CardId> + 'v {
    hand_zone(rules)
        .and_then(|z| view.zone(z, Some(view.seat)))
        .into_iter()
        .flat_map(|z| &z.cards)
        .filter_map(|c| c.card())
}

/// What a seat sees, as its screen shows it, read from its view alone
/// (`play --human`, `play --view`, Python's `render`): the table of every
/// entity named in `names`, its statuses as a player is shown them (no
/// invisible one); then a line for each zone: a hand by name as far as the
/// seat sees it, else by its count (the seat's own only with `own_hand`:
/// a person's prompt lists it with costs); a pile by its count and, when
/// the seat sees it, its top card.
pub fn view_screen(
    rules: &RuleSet,
    cards: &[Card],
    names: &[String],
    view: &View,
    own_hand: bool,
) -> String {
    let sight = Sight::Seat(view.seat);
    let held = |entity: EntityId| -> Vec<String> {
        view.statuses
            .iter()
            .filter(|i| i.holder == entity && sight.shows(rules, i.status))
            .map(|i| status_cell(rules, i.status, i.left, sight))
            .collect()
    };
    let value = |entity: EntityId, attr: crate::ids::AttrId| {
        view.rows
            .get(entity.index())
            .and_then(|r| r.values.get(attr.index()))
            .copied()
            .unwrap_or(0)
    };
    let live = |entity: EntityId| {
        view.rows
            .get(entity.index())
            .is_some_and(|r| r.kind.is_some())
    };
    let table = Table {
        entities: view.rows.len(),
        value: &value,
        live: &live,
        held: &held,
    };
    let mut out = table.render(rules, names);
    // What each scripted enemy will do, as every seat is shown it.
    for intent in &view.intents {
        let script = view
            .rows
            .get(intent.entity.index())
            .and_then(|r| r.kind)
            .and_then(|k| rules.scripts.get(k)?.as_deref());
        if let Some(script) = script {
            let who = names
                .get(intent.entity.index())
                .cloned()
                .unwrap_or_else(|| format!("#{}", intent.entity.index()));
            let _ = writeln!(out, "{who} intends {}", intent.words(script));
        }
    }
    let name = |c: &CardId| cards.get(c.index()).map_or("?", |c| c.name.as_str());
    let hand = hand_zone(rules);
    let aside = |z: ZoneName| match (z, rules.zones.as_ref()) {
        (ZoneName::Zone(z), Some(set)) => z == set.playing || z == set.removed,
        _ => false,
    };
    for zone in &view.zones {
        let owner = zone
            .owner
            .and_then(|o| rules.seats.get(o.index()))
            .map(|o| format!("{o}'s "))
            .unwrap_or_default();
        let what = zone.zone.word(rules);
        let count = match zone.len() {
            0 => "empty".to_string(),
            n => format!("{n} card{}", crate::diag::plural(n)),
        };
        let mine = zone.owner == Some(view.seat) && Some(zone.zone) == hand;
        // The cards being played, and those out of the game, are no place on the table.
        if (mine && !own_hand) || (aside(zone.zone) && zone.is_empty()) {
            continue;
        }
        let seen: Vec<&str> = zone
            .cards
            .iter()
            .filter_map(|c| c.card().map(|c| name(&c)))
            .collect();
        let hidden = zone.len() - seen.len();
        // A hand is listed by name as far as it is seen; a pile by its count
        // and its top; a board slot by slot.
        let _ = match zone.shape {
            Shape::Listed if hidden == 0 && !seen.is_empty() => {
                writeln!(out, "{owner}{what}: {}", seen.join(", "))
            }
            Shape::Listed if !seen.is_empty() => {
                writeln!(out, "{owner}{what}: {count}, of them {}", seen.join(", "))
            }
            Shape::Board => {
                let slots: Vec<String> = zone
                    .cards
                    .iter()
                    .map(|c| match *c {
                        Seen::Instance(card, e) => on_board(rules, cards, view, card, e),
                        Seen::Card(card) => name(&card).to_string(),
                        Seen::Empty => "-".to_string(),
                        Seen::Hidden => "a card".to_string(),
                    })
                    .collect();
                match zone.is_empty() {
                    true => writeln!(out, "{owner}{what}: empty"),
                    false => writeln!(out, "{owner}{what}: {}", slots.join(" | ")),
                }
            }
            _ => match zone.cards.last().and_then(|c| c.card()) {
                Some(top) => writeln!(out, "{owner}{what}: {count}, {} on top", name(&top)),
                None => writeln!(out, "{owner}{what}: {count}"),
            },
        };
    }
    out
}

/// A card on a board, with the values of its instance that are not its
/// attributes' defaults: `Yeti (attack 4, health 3)`.
fn on_board(rules: &RuleSet, cards: &[Card], view: &View, card: CardId, e: EntityId) -> String {
    let name = cards.get(card.index()).map_or("?", |c| c.name.as_str());
    let values = view.rows.get(e.index()).map_or(&[][..], |r| &r.values);
    let shown: Vec<String> = rules
        .attribute_defs
        .iter()
        .zip(values)
        .enumerate()
        .filter(|(_, (def, v))| **v != def.default)
        .map(|(a, (_, v))| format!("{} {v}", rules.attributes[crate::ids::AttrId::new(a)]))
        .collect();
    match shown.is_empty() {
        true => name.to_string(),
        false => format!("{name} ({})", shown.join(", ")),
    }
}

/// Asks the person for one of the rule set's actions: every legal (action,
/// actor, target), numbered.
fn ask_action(
    game: &mut Game<'_>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Option<Action> {
    let rules = game.rules();
    let names = rules.game_entity_names();
    let mut legal = Vec::new();
    game.legal(&mut legal);
    loop {
        let view = game.view(game.ctx().current);
        let mut prompt = format!(
            "\n{}",
            view_screen(rules, game.cards(), &names, &view, false)
        );
        prompt.push_str("your actions:\n");
        for (i, &a) in legal.iter().enumerate() {
            let (who, what) = game.action_words(a);
            let _ = writeln!(prompt, "  {}. {who}: {what}", i + 1);
        }
        prompt.push_str("act with N, quit with q > ");
        let line = answer(&prompt, input, output)?;
        match line.parse::<usize>().ok().and_then(|i| i.checked_sub(1)) {
            Some(i) if i < legal.len() => return Some(legal[i]),
            _ => {
                let _ = writeln!(output, "type an action number from 1 to {}", legal.len());
            }
        }
    }
}

/// The longest answer read from a person: an input with no line end
/// within it (`/dev/zero`) ends the game as the end of input does.
const MAX_ANSWER_BYTES: u64 = 4096;

/// Shows `prompt` and reads one line, trimmed; `None` at the end of input, on
/// `q`, or for a line longer than [`MAX_ANSWER_BYTES`].
fn answer(prompt: &str, input: &mut dyn BufRead, output: &mut dyn Write) -> Option<String> {
    let _ = output.write_all(prompt.as_bytes());
    let _ = output.flush();
    let mut line = String::new();
    let read = std::io::Read::take(&mut *input, MAX_ANSWER_BYTES)
        .read_line(&mut line)
        .ok()?;
    if read == 0 || (read as u64 == MAX_ANSWER_BYTES && !line.ends_with('\n')) {
        return None;
    }
    let line = line.trim();
    (line != "q").then(|| line.to_string())
}
