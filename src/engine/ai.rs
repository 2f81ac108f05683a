//! Computer players: a random policy, a greedy one-move lookahead and a
//! two-ply search.
//!
//! The random policy draws its choice from the game state's generator, so an
//! AI game replays exactly from its seed. The greedy and search policies score
//! states with the rule set's `:ai {:score …}` expression, so what "good"
//! means is data too. Neither sees the game's dice: a trial play draws from a
//! generator of the AI's own (seeded from the game's, so it replays too), and
//! a move whose effects draw chance is tried several times and scored by the
//! mean.
//!
//! Every policy decides from what its seat may see ([`Game::view`]), and
//! `tests/engine/fairness.rs` proves it: whatever the seat cannot see,
//! shuffled, leaves every decision as it was. Random reads its own hand, the
//! values every seat sees and the generator; greedy tries its own cards and
//! actions on a copy of the state, which holds no card, less the invisible
//! statuses another seat applied; search plays in
//! worlds dealt by [`Game::determinise`] from the view and a generator of
//! its own. The rule that keeps the generator fair: a policy may *draw* from
//! the game's generator (as a die roll would, advancing it), or read one
//! value of a copy of it to seed a generator of its own, but never *clone it
//! to simulate*: a copy plays out the game's real next shuffle and dice.

use rand::{RngExt, SeedableRng};

use super::mcts::{MctsParams, Playout, Rollout, Tree};
use super::view::{Unseen, sees_status};
use super::{Ability, Action, Game, Phase, cards};
use crate::check::ast::EntityId;
use crate::eval::{Event, Rng, State, forget_statuses, zones};

/// How a computer player chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// A random affordable card, else a random discard.
    Random,
    /// The play whose result scores best by the rule set's `:ai :score`; a discard if none helps.
    Greedy,
    /// Two plies deep: each legal move and every reply to it, scored by
    /// `:ai :score`, in [`SEARCH_WORLDS`] deals of the cards the mover
    /// cannot see. Slower, and stronger than greedy; it never sees the
    /// opponent's hand, the draw order or the game's dice.
    Search,
    /// Information-set Monte Carlo tree search ([`mcts`](super::mcts)):
    /// a budget of iterations a decision, each in a world dealt from the
    /// seat's view. The strongest, and the dearest.
    Mcts(MctsParams),
}

/// Deals of the hidden cards [`Policy::Search`] plays every move in.
pub const SEARCH_WORLDS: u32 = 4;

/// Rolls [`Policy::Search`] tries a reply that draws chance with.
pub const SEARCH_CHANCE: u32 = 4;

/// Moves [`Policy::Search`] looks ahead: its own and the replies after.
pub const SEARCH_PLIES: u32 = 2;

impl Policy {
    /// Every policy, weakest first (the tree search at its default budget).
    pub const ALL: [Policy; 4] = [
        Policy::Random,
        Policy::Greedy,
        Policy::Search,
        Policy::Mcts(MctsParams::DEFAULT),
    ];

    /// The policy's name on the command line (`mcts` whatever its budget).
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
            Policy::Search => "search",
            Policy::Mcts(_) => "mcts",
        }
    }

    /// The policy as `--ai` takes it and runs record it: its name, and
    /// for the tree search its parameters (`mcts:1000:random:8`), so a
    /// recorded game or a shard replays with the same budget.
    pub fn spec(self) -> String {
        match self {
            Policy::Mcts(params) => params.spec(),
            other => other.name().to_string(),
        }
    }

    /// The policy named `name` on the command line: a name, or an mcts
    /// spec (`mcts:300`, `mcts:300:greedy:8`).
    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::parse(name).ok()
    }

    /// [`Policy::from_name`], saying what is wrong with a name it refuses.
    pub fn parse(name: &str) -> Result<Policy, String> {
        if let Some(p) = Policy::ALL[..3].iter().find(|p| p.name() == name) {
            return Ok(*p);
        }
        if name == "mcts" || name.starts_with("mcts:") {
            return MctsParams::parse(name).map(Policy::Mcts);
        }
        Err(format!(
            "`{name}` is not a player: random, greedy, search, mcts or mcts:BUDGET[:ROLLOUT[:PLIES]]"
        ))
    }

    /// The policy of `seat` among `policies` given one per seat: its own,
    /// else the last given (one value serves every seat), else random.
    #[inline]
    pub fn for_seat(policies: &[Policy], seat: usize) -> Policy {
        policies
            .get(seat)
            .or(policies.last())
            .copied()
            .unwrap_or(Policy::Random)
    }
}

/// Buffers a computer player reuses between decisions, so choosing allocates nothing.
#[derive(Debug, Default)]
pub struct Ai {
    legal: Vec<Action>,
    scratch: Option<State>,
    events: Vec<Event>,
    removed: Vec<EntityId>,
    /// Per legal move, the search's total over its worlds.
    totals: Vec<i128>,
    /// The replies the search tries after a move, one list per ply.
    replies: Vec<Vec<Action>>,
    /// What dealing the search's worlds reuses.
    unseen: Unseen,
    /// Greedy's world, with cards in zones: the state with what the mover
    /// cannot see dealt anew, once a decision; each trial starts from it.
    world: Option<State>,
    /// The search deals its worlds from the hidden cards in their true order
    /// (the fairness test's negative control).
    true_order: bool,
    /// The tree search's buffers, kept from one decision to the next.
    tree: Tree,
    /// The player the tree search rolls out with, and its buffers.
    rollout: Option<Box<Ai>>,
}

/// The score given to a move that wins outright.
const WIN: i64 = i64::MAX / 2;

/// How many trial plays a card that draws chance gets; its score is their mean.
pub const CHANCE_SAMPLES: u32 = 16;

/// Mixed into the lookahead generator's seed, so its draws are not the game's.
const LOOKAHEAD: u64 = 0x6C6F_6F6B_6168_6561;

/// Mixed into the seed of the generator greedy deals its world with.
const WORLD: u64 = 0x776F_726C_6473_6565;

impl Ai {
    /// A new player.
    pub fn new() -> Ai {
        Ai::default()
    }

    /// Makes the search deal its worlds from the hidden cards in their true
    /// order, as it did before issue 30: fair in distribution, not
    /// pointwise. Only for the fairness test's negative control.
    #[doc(hidden)]
    pub fn deal_from_true_order_unchecked(&mut self) {
        self.true_order = true;
    }

    /// The tree search's buffers and counts ([`Policy::Mcts`]).
    pub fn tree(&mut self) -> &mut Tree {
        &mut self.tree
    }

    /// The action `policy` chooses for the entity whose turn it is, if any is legal.
    #[inline]
    pub fn choose(&mut self, game: &mut Game<'_>, policy: Policy) -> Option<Action> {
        // The commonest choice of all, a random card that can be paid for, is
        // made inline: returned from a call, the action went through memory
        // and its caller's load of it stalled (measured).
        if policy == Policy::Random && game.rules().actions.is_empty() && game.phase == Phase::Act {
            let mut positions = [0u8; 32];
            let found =
                game.zones()
                    .affordable_positions(&game.state, game.current, &mut positions);
            if let Some(n @ 1..) = found {
                let pick = game.state.rng.random_range(0..n);
                return Some(game.play(usize::from(positions[pick])));
            }
        }
        self.choose_slow(game, policy)
    }

    #[inline(never)]
    fn choose_slow(&mut self, game: &mut Game<'_>, policy: Policy) -> Option<Action> {
        match policy {
            Policy::Random if !game.rules().actions.is_empty() || game.has_abilities() => {
                // Any legal action, cards and the rule set's actions alike.
                game.legal(&mut self.legal);
                if self.legal.is_empty() {
                    return None;
                }
                Some(pick_move(&self.legal, &mut game.state.rng))
            }
            Policy::Random if game.zoned() => self.random_zoned(game),
            Policy::Random => {
                // Any affordable card; only when there is none, any discardable one.
                self.legal.clear();
                let hand = game.hand();
                // `choose` has already picked among affordable cards where
                // any were and the hand was short enough to scan inline.
                if game.phase == Phase::Act {
                    let zones = game.zones();
                    for (i, &card) in hand.iter().enumerate() {
                        if zones.affordable(&game.state, game.current, card) {
                            self.legal.push(game.play(i));
                        }
                    }
                }
                if self.legal.is_empty() {
                    let cards = game.cards();
                    for (i, &card) in hand.iter().enumerate() {
                        if cards[card.index()].play.discardable {
                            self.legal.push(game.discard(i));
                        }
                    }
                }
                if self.legal.is_empty() {
                    return None;
                }
                let pick = game.state.rng.random_range(0..self.legal.len());
                Some(self.legal[pick])
            }
            Policy::Greedy => {
                game.legal(&mut self.legal);
                if self.legal.is_empty() {
                    return None;
                }
                if game.phase == Phase::React {
                    return Some(self.greedy_react(game));
                }
                if game.cards_act() || game.phase == Phase::Target {
                    return Some(self.greedy_whole(game));
                }
                Some(self.greedy(game))
            }
            Policy::Search => {
                game.legal(&mut self.legal);
                if self.legal.is_empty() {
                    return None;
                }
                Some(self.search(game))
            }
            Policy::Mcts(params) => {
                let policy = match params.rollout {
                    Rollout::Random => Policy::Random,
                    Rollout::Greedy => Policy::Greedy,
                };
                let ai = self.rollout.get_or_insert_with(Box::default);
                self.tree
                    .decide(game, params, &mut RolloutPlayer { ai, policy })
            }
        }
    }

    /// [`Policy::Random`] with cards in zones: a random card that can be
    /// played now (paid for, with room where it goes); else ending the turn,
    /// where a turn is many plays; else a random discard. The same draws as
    /// the random policy of `:cards` alone makes over the same hand.
    fn random_zoned(&mut self, game: &mut Game<'_>) -> Option<Action> {
        game.legal(&mut self.legal);
        // Answering a card: any reaction, or the pass, alike; a card's later target: any.
        if matches!(game.phase, Phase::React | Phase::Target) && !self.legal.is_empty() {
            return Some(self.legal[game.state.rng.random_range(0..self.legal.len())]);
        }
        let count = |f: fn(Ability) -> bool| self.legal.iter().filter(|a| f(a.ability)).count();
        // Plays come first in the legal list, then discards, then ending the turn.
        let plays = count(|a| matches!(a, Ability::Card(_)));
        if plays > 0 {
            // A card first, then its target and option: a card with five
            // targets is no likelier than one with none (a card's plays are
            // together in the list). One play a card: one draw, as ever.
            // Counted in place, not collected: the draws are those of the
            // lists this once built (distinct slots in a row, then the plays
            // of the slot drawn), without allocating for each decision.
            let plays_of = &self.legal[..plays];
            let slot_of = |a: &Action| a.hand_position();
            let starts = |i: usize| i == 0 || slot_of(&plays_of[i - 1]) != slot_of(&plays_of[i]);
            let slots = (0..plays).filter(|&i| starts(i)).count();
            if slots == plays {
                return Some(self.legal[game.state.rng.random_range(0..plays)]);
            }
            let k = game.state.rng.random_range(0..slots);
            let first = (0..plays).filter(|&i| starts(i)).nth(k).unwrap_or(0);
            let slot = slot_of(&plays_of[first]);
            let of_slot = || plays_of.iter().filter(|a| slot_of(a) == slot);
            let pick = match of_slot().count() {
                1 => 0,
                n => game.state.rng.random_range(0..n),
            };
            return of_slot().nth(pick).copied();
        }
        if let Some(&end) = self.legal.iter().find(|a| a.ability == Ability::EndTurn) {
            return Some(end);
        }
        let discards = count(|a| matches!(a, Ability::Discard(_)));
        (discards > 0).then(|| self.legal[game.state.rng.random_range(0..discards)])
    }

    /// [`Policy::Search`]: determinized two-ply search. In each of
    /// [`SEARCH_WORLDS`] worlds the hidden cards are dealt anew (other hands,
    /// draw order) by [`Game::determinise`], from the seat's view and a
    /// generator seeded by one draw from the game's, and the chance
    /// reseeded; there every legal move is played, then every reply of
    /// whoever moves next, and the position scored by `:ai :score` for the
    /// mover. An opponent's reply is the one worst for the mover; a move of
    /// the mover's own (a card that plays again) the best. The move with the
    /// best total over the worlds is kept; ties keep the first. Every move
    /// meets the same worlds, so their totals compare.
    fn search(&mut self, game: &mut Game<'_>) -> Action {
        let seat = game.current;
        let moves = std::mem::take(&mut self.legal);
        let base: u64 = game.state.rng.random();
        self.totals.clear();
        self.totals.resize(moves.len(), 0);
        let mut replies = std::mem::take(&mut self.replies);
        replies.resize_with(SEARCH_PLIES as usize, Vec::new);
        for w in 0..SEARCH_WORLDS {
            let mut world = game.clone();
            world.log = None;
            // The world's own generator deals it, then plays in it: the
            // game's is never copied, so no world knows the next reshuffle.
            let mut rng = Rng::seed_from_u64(base ^ mix(u64::from(w)));
            if self.true_order {
                world.determinise_from_true_order_unchecked(seat, &mut rng, &mut self.unseen);
            } else {
                world.determinise(seat, &mut rng, &mut self.unseen);
            }
            world.state.rng = rng;
            // Its choice in a simultaneous turn resolves at once: the others' it cannot know.
            world.choose_alone(seat);
            let node: u64 = world.state.rng.random();
            for (m, &action) in moves.iter().enumerate() {
                let value =
                    self.move_value(&world, action, node, seat, SEARCH_PLIES - 1, &mut replies);
                self.totals[m] += i128::from(value.unwrap_or(-WIN));
            }
        }
        self.replies = replies;
        let mut best = 0;
        for m in 1..moves.len() {
            if self.totals[m] > self.totals[best] {
                best = m;
            }
        }
        let action = moves[best];
        self.legal = moves;
        action
    }

    /// `game`'s worth to `seat` looking `plies` moves further: the best move
    /// when it is `seat`'s, the worst for `seat` when another's.
    /// `buffers` holds a legal-move list for each ply below.
    fn value(
        &mut self,
        game: &mut Game<'_>,
        seat: EntityId,
        plies: u32,
        buffers: &mut [Vec<Action>],
    ) -> i64 {
        if let Some(v) = self.settled(game, seat) {
            return v;
        }
        let Some((legal, deeper)) = buffers.split_first_mut().filter(|_| plies > 0) else {
            return self.worth(game, seat);
        };
        game.legal(legal);
        let own = game.current == seat;
        let node: u64 = game.state.rng.random();
        let mut pick: Option<i64> = None;
        for &reply in legal.iter() {
            let Some(v) = self.move_value(game, reply, node, seat, plies - 1, deeper) else {
                continue;
            };
            pick = Some(match pick {
                None => v,
                Some(p) if own => p.max(v),
                Some(p) => p.min(v),
            });
        }
        pick.unwrap_or_else(|| self.worth(game, seat))
    }

    /// What doing `action` in `game` is worth to `seat`, looking `plies`
    /// moves past it; `None` if it is refused. A move that draws chance is
    /// worth the mean of [`SEARCH_CHANCE`] rolls, each from a generator seeded
    /// by `node` and the roll's number, so every move at a node meets the
    /// same rolls: a move chosen on one roll would be a move that knew the dice.
    fn move_value(
        &mut self,
        game: &Game<'_>,
        action: Action,
        node: u64,
        seat: EntityId,
        plies: u32,
        buffers: &mut [Vec<Action>],
    ) -> Option<i64> {
        let samples = if game.draws(action) { SEARCH_CHANCE } else { 1 };
        let mut total = 0i128;
        for j in 0..samples {
            let mut next = game.clone();
            if samples > 1 {
                next.state.rng = Rng::seed_from_u64(node ^ mix(u64::from(j)));
            }
            next.act(action).ok()?;
            total += i128::from(self.value(&mut next, seat, plies, buffers));
        }
        Some((total / i128::from(samples)) as i64)
    }

    /// A finished game's worth to `seat`: a win, a loss, or an even draw.
    fn settled(&self, game: &Game<'_>, seat: EntityId) -> Option<i64> {
        game.outcome().map(|o| match o {
            crate::engine::Outcome::Win { seat: w, .. } if w == seat => WIN,
            crate::engine::Outcome::Win { .. } => -WIN,
            crate::engine::Outcome::Loss { seat: l, .. } if l == seat => -WIN,
            _ => 0,
        })
    }

    /// An unfinished game's worth to `seat` by the rule set's `:ai :score`.
    /// `game` is the search's own copy, used up here: its state is scored in
    /// place (lent to the scratch slot, not copied; a score may roll dice).
    fn worth(&mut self, game: &mut Game<'_>, seat: EntityId) -> i64 {
        let scratch = self.scratch.get_or_insert_with(|| game.state.clone());
        std::mem::swap(scratch, &mut game.state);
        let worth = score(game, scratch, game.roles(seat));
        std::mem::swap(scratch, &mut game.state);
        worth
    }

    fn greedy(&mut self, game: &Game<'_>) -> Action {
        let rules = game.rules();
        let cards = game.cards();
        let roles = game.roles(game.current);
        // Only when a trial can draw chance does it need a generator of its own:
        // the game's, cloned so the game's own draws are untouched, seeds one
        // whose draws are unrelated to the ones the game will make.
        let dice = game.score_draws() || self.legal.iter().any(|&a| game.draws(a));
        let mut lookahead =
            dice.then(|| Rng::seed_from_u64(game.state.rng.clone().random::<u64>() ^ LOOKAHEAD));
        // The invisible statuses another seat applied are not the mover's to
        // see: its trials play without them, as the search's worlds do.
        let seat = game.current;
        let unseen = game
            .state
            .statuses()
            .iter()
            .any(|i| !sees_status(rules, seat, i));
        // With cards in zones, the trials play in one world dealt from the
        // mover's view: a card that draws must not draw the true next card.
        let world = match game.zoned() {
            true => {
                let world = self.world.get_or_insert_with(|| game.state.clone());
                world.clone_from(&game.state);
                let deal: u64 = game.state.rng.clone().random();
                let mut rng = Rng::seed_from_u64(deal ^ WORLD);
                zones::determinise(rules, world, seat, &mut rng, self.unseen.instances());
                Some(&*world)
            }
            false => None,
        };
        let copy = |scratch: &mut State| {
            scratch.clone_from(world.unwrap_or(&game.state));
            if unseen {
                forget_statuses(scratch, |i| sees_status(rules, seat, i));
            }
        };
        let scratch = self.scratch.get_or_insert_with(|| game.state.clone());
        copy(scratch);
        let swap = |scratch: &mut State, lookahead: &mut Option<Rng>| {
            if let Some(l) = lookahead {
                std::mem::swap(&mut scratch.rng, l);
            }
        };
        // Even the score of doing nothing draws from the lookahead, never the game.
        swap(scratch, &mut lookahead);
        let base = score(game, scratch, roles);
        swap(scratch, &mut lookahead);
        let mut best: Option<(i64, Action)> = None;
        if game.phase == Phase::Act {
            for &action in &self.legal {
                let (samples, play_again) = match action.ability {
                    Ability::Card(i) => {
                        let id = game.hand()[usize::from(i)];
                        let samples = if game.chancy(id) { CHANCE_SAMPLES } else { 1 };
                        (samples, cards[id.index()].play.play_again)
                    }
                    Ability::Action(id) => {
                        let draws = rules.actions[id].draws;
                        (if draws { CHANCE_SAMPLES } else { 1 }, false)
                    }
                    Ability::Use(_) => (1, false),
                    Ability::Discard(_) | Ability::EndTurn | Ability::Pass | Ability::Target => {
                        continue;
                    }
                };
                let mut trial = |scratch: &mut State| {
                    copy(scratch);
                    swap(scratch, &mut lookahead);
                    self.events.clear();
                    match action.ability {
                        Ability::Card(_) if world.is_some() => {
                            game.try_card_zoned(scratch, action, roles, &mut self.events);
                        }
                        Ability::Card(i) => {
                            let id = (game.hand()[usize::from(i)]).index();
                            cards::pay(rules, scratch, game.current, &cards[id], &mut self.events);
                            let (program, code) = (&game.code.program, &game.code.cards[id]);
                            program.apply_inline(rules, code, scratch, roles, &mut self.events);
                        }
                        _ => {
                            self.removed.clear();
                            game.try_action(scratch, action, &mut self.events, &mut self.removed);
                        }
                    }
                    let s = score(game, scratch, roles);
                    swap(scratch, &mut lookahead);
                    s
                };
                let mut s = if samples == 1 {
                    trial(scratch)
                } else {
                    // The mean of the trials, summed wide so no sum of scores overflows.
                    let total: i128 = (0..samples).map(|_| i128::from(trial(scratch))).sum();
                    (total / i128::from(samples)) as i64
                };
                if play_again {
                    // Another action follows: worth a little more than the same change without one.
                    s = s.saturating_add(1);
                }
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, action));
                }
            }
        }
        self.greedy_pick(game, best, base)
    }

    /// Greedy's choice given its best trial `best` and the worth `base` of
    /// doing nothing: the best move if no worse than nothing; else the best
    /// action of `:actions`; else ending a turn of many plays; else a discard.
    fn greedy_pick(&self, game: &Game<'_>, best: Option<(i64, Action)>, base: i64) -> Action {
        match best {
            Some((s, action)) if s >= base => action,
            // A rule set's actions have no discard to fall back on: the best of them.
            Some((_, action)) if matches!(action.ability, Ability::Action(_)) => action,
            // A turn of many plays ends rather than throw a card away.
            _ if game.rules().plays_many => {
                match self.legal.iter().find(|a| a.ability == Ability::EndTurn) {
                    Some(&end) => end,
                    None => self.worst_card(game),
                }
            }
            _ => self.worst_card(game),
        }
    }

    /// A copy of `game`, unlogged, with what the seat to act cannot see
    /// dealt anew from its view and a generator of its own (seeded by a
    /// draw the game's generator would make, without making it): the one
    /// world a greedy player's trials are played in.
    fn world_from_view<'r>(&mut self, game: &Game<'r>) -> Game<'r> {
        let deal: u64 = game.state.rng.clone().random();
        let mut world = game.clone();
        world.log = None;
        let mut rng = Rng::seed_from_u64(deal ^ WORLD);
        world.determinise(game.current, &mut rng, &mut self.unseen);
        world.state.rng = rng;
        world
    }

    /// [`Policy::Greedy`] where cards act beyond their own effects
    /// (triggers, auras, reactions, abilities: [`Game::cards_act`]): each
    /// move is played whole in a copy of one world dealt from the seat's
    /// view, what it sets off included (a deathrattle, a death counted, a
    /// window of answers played out with every seat passing), and the copy
    /// scored for the seat. The choice among the trials is greedy's own
    /// ([`Ai::greedy_pick`]).
    fn greedy_whole(&mut self, game: &Game<'_>) -> Action {
        let seat = game.current;
        let world = self.world_from_view(game);
        let depth = world.window_depth() + 1;
        let base = self.worth(&mut world.clone(), seat);
        let mut best: Option<(i64, Action)> = None;
        let legal = std::mem::take(&mut self.legal);
        for &action in &legal {
            let play_again = match action.ability {
                Ability::Card(i) => game
                    .hand()
                    .get(usize::from(i))
                    .is_some_and(|c| game.cards()[c.index()].play.play_again),
                Ability::Action(_) | Ability::Use(_) | Ability::Target => false,
                Ability::Discard(_) | Ability::EndTurn | Ability::Pass => continue,
            };
            let mut trial = world.clone();
            if trial.act(action).is_err() {
                continue;
            }
            trial.settle_play(depth);
            let mut s = self
                .settled(&trial, seat)
                .unwrap_or_else(|| self.worth(&mut trial, seat));
            if play_again {
                // Another action follows: worth a little more than the same change without one.
                s = s.saturating_add(1);
            }
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, action));
            }
        }
        self.legal = legal;
        self.greedy_pick(game, best, base)
    }

    /// [`Policy::Greedy`] answering a card ([`Phase::React`]): the pass and
    /// each reaction are played in one world dealt from the seat's view,
    /// the window played out (every later answer a pass) until the card
    /// answered has resolved, and scored for the seat. A reaction is
    /// chosen only when it scores better than letting the card resolve:
    /// no counter is spent on a card that does the seat no harm.
    fn greedy_react(&mut self, game: &Game<'_>) -> Action {
        let seat = game.current;
        let depth = game.window_depth();
        let world = self.world_from_view(game);
        let mut best: Option<(i64, Action)> = None;
        // The pass is first in the legal list: a tie keeps it.
        let legal = std::mem::take(&mut self.legal);
        for &action in &legal {
            let mut trial = world.clone();
            if trial.act(action).is_err() {
                continue;
            }
            trial.play_window_out(depth);
            let s = self
                .settled(&trial, seat)
                .unwrap_or_else(|| self.worth(&mut trial, seat));
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, action));
            }
        }
        self.legal = legal;
        best.map_or(game.pass_action(), |(_, a)| a)
    }

    /// The discard a greedy player makes: the card furthest from affordable.
    fn worst_card(&self, game: &Game<'_>) -> Action {
        let seat = game.current;
        let mut worst: Option<(i64, Action)> = None;
        for &action in &self.legal {
            let Ability::Discard(i) = action.ability else {
                continue;
            };
            let card = &game.cards()[(game.hand()[usize::from(i)]).index()];
            let have = card.play.pay_with.map_or(0, |a| game.state.get(seat, a));
            let shortfall = card.play.cost.saturating_sub(have);
            if worst.is_none_or(|(w, _)| shortfall > w) {
                worst = Some((shortfall, action));
            }
        }
        // A player who may not discard anything plays the first legal card.
        worst.map_or(self.legal[0], |(_, a)| a)
    }
}

/// The tree search's rollouts: a computer player of its own buffers.
struct RolloutPlayer<'a> {
    ai: &'a mut Ai,
    policy: Policy,
}

impl Playout for RolloutPlayer<'_> {
    fn step(&mut self, game: &mut Game<'_>) -> Option<Action> {
        self.ai.choose(game, self.policy)
    }

    fn score(&mut self, game: &mut Game<'_>, seat: EntityId) -> i64 {
        self.ai.worth(game, seat)
    }
}

/// A state's worth to the entity `roles[0]` names: a win or loss outweighs any score.
fn score(game: &Game<'_>, state: &mut State, roles: &[EntityId]) -> i64 {
    let rules = game.rules();
    let code = game.code();
    let me = roles[0];
    for seat in EntityId::below(game.seats()) {
        let seat_roles = game.roles(seat);
        for (v, when) in rules.victory.iter().zip(&code.victory) {
            if when.holds(state, seat_roles) {
                return if seat_roles[v.winner.index()] == me {
                    WIN
                } else {
                    -WIN
                };
            }
        }
    }
    code.score.as_ref().map_or(0, |e| e.value(state, roles))
}

/// Spreads a small counter over a seed's bits, so neighbouring counters
/// seed unrelated generators.
fn mix(k: u64) -> u64 {
    k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A uniform choice among the distinct moves of `legal` (non-empty), then
/// among the options of the one chosen: an action with four options is no
/// likelier than one with none. The options of a move are next to each
/// other in the legal list; a move without options draws once, as before.
fn pick_move(legal: &[Action], rng: &mut crate::eval::Rng) -> Action {
    // A card's targets are its options: one move, however many it may aim at.
    let same = |a: &Action, b: &Action| {
        a.ability == b.ability
            && a.actor == b.actor
            && (a.target == b.target || matches!(a.ability, Ability::Card(_) | Ability::Use(_)))
    };
    let starts = |i: usize| i == 0 || !same(&legal[i - 1], &legal[i]);
    let moves = (0..legal.len()).filter(|&i| starts(i)).count();
    let k = rng.random_range(0..moves);
    let Some(first) = (0..legal.len()).filter(|&i| starts(i)).nth(k) else {
        return legal[0];
    };
    let options = legal[first..]
        .iter()
        .take_while(|a| same(a, &legal[first]))
        .count();
    if options > 1 {
        legal[first + rng.random_range(0..options)]
    } else {
        legal[first]
    }
}
