//! Information-set Monte Carlo tree search: the `mcts` computer player.
//!
//! Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). One tree
//! is grown over the deciding seat's information set: every iteration deals
//! a world the seat cannot tell from the true one ([`Game::determinise`],
//! from its view and a generator of the search's own), walks the tree in
//! that world by UCB1 among the moves legal *there* (each child counts how
//! often it was available, so a move seldom legal is not starved), adds one
//! node, plays on with a cheap rollout player for a few plies, and backs the
//! result up: a win 1, a loss 0, an unfinished position the rule set's
//! `:ai :score` squashed between the two. The move played is the root's
//! most visited.
//!
//! An edge names what a move *is*, not where it sits: a card by its
//! definition, not its hand position, since another seat's hand is dealt
//! anew each iteration and its third card is not the same card twice.
//!
//! Chance is sampled, not branched on: each iteration's world gets a
//! generator seeded from one draw of the game's and the iteration's number,
//! so the dice differ between iterations and the whole decision replays
//! from the game's seed. Nothing here reads what the seat cannot see: the
//! true game is only ever copied and then dealt anew.
//!
//! Buffers (the node arena, the legal-move list, the world) are kept from
//! one decision to the next; within a decision an iteration copies the game
//! into the world's buffers ([`Game::copy_unlogged_from`]), so once they
//! have grown an iteration allocates nothing in a game of classic cards.

use rand::{RngExt, SeedableRng};

use super::view::Unseen;
use super::{Ability, Action, CardId, Game, Outcome};
use crate::check::ast::EntityId;
use crate::eval::Rng;

/// How the tree search is run: `mcts:BUDGET:ROLLOUT:PLIES` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MctsParams {
    /// Iterations per decision.
    pub budget: u32,
    /// The player that finishes each iteration's game past the tree.
    pub rollout: Rollout,
    /// Moves the rollout plays before the position is scored by `:ai :score`
    /// (a game that ends sooner is scored by its result).
    pub plies: u32,
}

/// The player a rollout plays both sides with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rollout {
    /// Any legal move at random: fast.
    Random,
    /// Greedy's one-move lookahead: slower, better informed.
    Greedy,
}

impl Rollout {
    /// The rollout's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Greedy => "greedy",
        }
    }

    /// The rollout named `name`.
    pub fn from_name(name: &str) -> Option<Rollout> {
        [Rollout::Random, Rollout::Greedy]
            .into_iter()
            .find(|r| r.name() == name)
    }
}

impl MctsParams {
    /// The default: 1,000 iterations, random rollouts of 8 moves (in
    /// Arcomage 8 beat the search 58.5 % of 600 games, 4 57.7 %).
    pub const DEFAULT: MctsParams = MctsParams {
        budget: 1000,
        rollout: Rollout::Random,
        plies: 8,
    };

    /// The most iterations a decision may be given: a node an iteration,
    /// about 80 bytes each, kept by every worker thread (a typo of a few
    /// more zeros would otherwise run for hours and hold gigabytes).
    pub const MAX_BUDGET: u32 = 1_000_000;

    /// The parameters as `--ai` takes them: `mcts:1000:random:8`.
    pub fn spec(&self) -> String {
        format!(
            "mcts:{}:{}:{}",
            self.budget,
            self.rollout.name(),
            self.plies
        )
    }

    /// Reads `mcts`, `mcts:BUDGET`, `mcts:BUDGET:ROLLOUT` or
    /// `mcts:BUDGET:ROLLOUT:PLIES`; what is left out is the default's.
    pub fn parse(spec: &str) -> Result<MctsParams, String> {
        let mut parts = spec.split(':');
        if parts.next() != Some("mcts") {
            return Err(format!("`{spec}` is not an mcts player"));
        }
        let mut params = MctsParams::DEFAULT;
        if let Some(budget) = parts.next() {
            params.budget = budget
                .parse()
                .ok()
                .filter(|b| (1..=Self::MAX_BUDGET).contains(b))
                .ok_or_else(|| {
                    format!(
                        "`{spec}`: the budget `{budget}` is not a number of iterations from 1 to {}",
                        Self::MAX_BUDGET
                    )
                })?;
        }
        if let Some(rollout) = parts.next() {
            params.rollout = Rollout::from_name(rollout).ok_or_else(|| {
                format!("`{spec}`: the rollout `{rollout}` is neither `random` nor `greedy`")
            })?;
        }
        if let Some(plies) = parts.next() {
            params.plies = plies.parse().ok().filter(|&p| p <= 10_000).ok_or_else(|| {
                format!("`{spec}`: the rollout plies `{plies}` are not a number from 0 to 10000")
            })?;
        }
        match parts.next() {
            Some(_) => Err(format!(
                "`{spec}`: an mcts player is `mcts:BUDGET:ROLLOUT:PLIES`, with at most three values"
            )),
            None => Ok(params),
        }
    }
}

/// What the search asks of the player it rolls out with.
pub trait Playout {
    /// The move the rollout player makes in `game`, if any is legal.
    fn step(&mut self, game: &mut Game<'_>) -> Option<Action>;

    /// `game`'s worth to `seat` by the rule set's `:ai :score` (it may roll
    /// dice, from `game`'s generator).
    fn score(&mut self, game: &mut Game<'_>, seat: EntityId) -> i64;
}

/// The exploration constant of UCB1 with rewards between 0 and 1: lower
/// than the textbook 0.7, since an unfinished position's reward is squashed
/// into 0.1–0.9 and its spread is narrow. Tuned in Arcomage against the
/// search player (600 games each, budget 1,000: 0.25 gave 57.7 %, 0.5 gave 54.9 %).
const EXPLORATION: f64 = 0.3;

/// Mixed into the seed of each iteration's world, so its draws are not the game's.
const ITERATION: u64 = 0x6973_6D63_7473_2121;

/// How often (in iterations) the search checks whether its choice is settled.
const SETTLED_EVERY: u32 = 16;

/// No node: the end of a list of children, or the root's parent.
const NONE: u32 = u32::MAX;

/// What an edge of the tree is: a move named so that it means the same
/// move in every world dealt from one view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    /// Who moves: whether a window of answers opens, or who answers it,
    /// may differ between worlds at one node.
    mover: EntityId,
    what: What,
    actor: EntityId,
    target: Option<EntityId>,
    choice: Option<crate::ids::OptionId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    /// A card played, by its definition.
    Play(Option<CardId>),
    /// A card discarded, by its definition.
    Discard(Option<CardId>),
    /// Anything else, as the action names it.
    Other(Ability),
}

impl Key {
    fn of(game: &Game<'_>, action: Action) -> Key {
        let card = |i: u16| game.hand().get(usize::from(i)).copied();
        let what = match action.ability {
            Ability::Card(i) => What::Play(card(i)),
            Ability::Discard(i) => What::Discard(card(i)),
            other => What::Other(other),
        };
        Key {
            mover: game.current,
            what,
            actor: action.actor,
            target: action.target,
            choice: action.choice,
        }
    }
}

/// A node of the tree: the move that led to it and what came of it.
#[derive(Clone, Copy, Debug)]
struct Node {
    key: Key,
    /// The seat that made the move: rewards are counted for it.
    mover: EntityId,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// Iterations through this node.
    visits: u32,
    /// Iterations in which its move was legal at its parent.
    available: u32,
    /// The last iteration its move was legal in, and where in that
    /// iteration's legal list.
    seen: u32,
    seen_at: u32,
    /// The movers' rewards summed over the visits.
    reward: f64,
}

/// Running mean and variance of one seat's scores within a decision.
#[derive(Clone, Copy, Debug, Default)]
struct Spread {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Spread {
    /// Adds `x` and says how far it lies from the mean, squashed into (0, 1).
    fn squash(&mut self, x: f64) -> f64 {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
        let sd = (self.m2 / self.n).sqrt();
        let z = if sd > 0.0 { (x - self.mean) / sd } else { 0.0 };
        1.0 / (1.0 + (-z).exp())
    }
}

/// What one decision's search reuses from the last: the node arena, the
/// legal-move list, the dealing scratch, the scores' spreads.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    legal: Vec<Action>,
    /// The key of each move of `legal`.
    keys: Vec<Key>,
    /// The key of each move legal in the true game, at the root.
    root_keys: Vec<Key>,
    /// Iterations run, over every decision.
    iterations: u64,
    /// Every decision runs its whole budget, settled or not (for tests and
    /// the iterations-per-second bench).
    whole_budget: bool,
    unseen: Unseen,
    spreads: Vec<Spread>,
    rewards: Vec<f64>,
}

/// A score this far from 0 is a win or a loss: the greedy player's
/// score of a won position is `i64::MAX / 2`.
const DECISIVE: i64 = i64::MAX / 4;

/// An unfinished position is worth between these two: a win (1) or a loss
/// (0) found by a rollout outweighs any score.
const UNFINISHED: (f64, f64) = (0.1, 0.9);

impl Tree {
    /// A new, empty tree.
    pub fn new() -> Tree {
        Tree::default()
    }

    /// Iterations run, over every decision since the tree was made.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Makes every decision run its whole budget, even once no iteration
    /// left could change its choice: the same choices, more slowly. For the
    /// test that says so, and to time iterations.
    #[doc(hidden)]
    pub fn run_whole_budget_unchecked(&mut self) {
        self.whole_budget = true;
    }

    /// The move the seat whose turn it is makes after `params.budget`
    /// iterations; `None` if it has none. Draws once from the game's
    /// generator (to seed the iterations' worlds), and reads nothing the
    /// seat cannot see.
    pub fn decide<P: Playout>(
        &mut self,
        game: &mut Game<'_>,
        params: MctsParams,
        playout: &mut P,
    ) -> Option<Action> {
        game.legal(&mut self.legal);
        match self.legal.len() {
            0 => return None,
            1 => return Some(self.legal[0]),
            _ => {}
        }
        let seat = game.current;
        let base: u64 = game.state.rng.random();
        self.nodes.clear();
        self.nodes.push(Node {
            key: Key::of(game, self.legal[0]),
            mover: seat,
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            seen: 0,
            seen_at: 0,
            reward: 0.0,
        });
        self.spreads.clear();
        self.spreads.resize(game.seats(), Spread::default());
        self.rewards.clear();
        self.rewards.resize(game.seats(), 0.0);
        // One world a decision, copied into every iteration (the log left
        // out: a game played with one would copy it whole each decision).
        let log = game.log.take();
        let mut world = game.clone();
        game.log = log;
        self.root_keys.clear();
        self.root_keys
            .extend(self.legal.iter().map(|&a| Key::of(game, a)));
        let budget = params.budget.min(MctsParams::MAX_BUDGET);
        for iteration in 1..=budget {
            // Stopped once no other move can catch the most visited up in
            // the iterations left: the move played is the one the whole
            // budget would play, sooner.
            if !self.whole_budget
                && iteration % SETTLED_EVERY == 0
                && self.settled(budget - iteration + 1)
            {
                break;
            }
            self.iterations += 1;
            world.copy_unlogged_from(game);
            let mut rng = Rng::seed_from_u64(base ^ mix(u64::from(iteration)) ^ ITERATION);
            world.determinise(seat, &mut rng, &mut self.unseen);
            world.state.rng = rng;
            // Its choice in a simultaneous turn resolves at once: the others' it cannot know.
            world.choose_alone(seat);
            let (leaf, played) = self.descend(&mut world, iteration);
            // A move refused in the tree (legal a moment before) is not
            // rolled out from: the position it left is scored as it stands.
            let mut plies = if played { 0 } else { params.plies };
            while plies < params.plies && world.outcome().is_none() {
                let Some(action) = playout.step(&mut world) else {
                    break;
                };
                if world.act(action).is_err() {
                    break;
                }
                plies += 1;
            }
            self.reward(&mut world, playout);
            self.back_up(leaf);
        }
        // The most visited of the moves legal in the true game (the seat's
        // own: the same in every world); ties keep the first.
        game.legal(&mut self.legal);
        let mut best: Option<(u32, Action)> = None;
        for &action in &self.legal {
            let key = Key::of(game, action);
            let visits = self
                .child(0, key)
                .map_or(0, |c| self.nodes[c as usize].visits);
            if best.is_none_or(|(v, _)| visits > v) {
                best = Some((visits, action));
            }
        }
        best.map(|(_, a)| a)
    }

    /// Whether the root's most visited move (of those legal in the true
    /// game) leads every other by more than `left` visits, so that no
    /// iteration left can change which it is (a tie would keep the first).
    fn settled(&self, left: u32) -> bool {
        let (mut best, mut second) = (0u32, 0u32);
        for (i, &key) in self.root_keys.iter().enumerate() {
            if self.root_keys[..i].contains(&key) {
                continue;
            }
            let visits = self
                .child(0, key)
                .map_or(0, |c| self.nodes[c as usize].visits);
            if visits > best {
                second = best;
                best = visits;
            } else if visits > second {
                second = visits;
            }
        }
        best - second > left
    }

    /// The child of `node` reached by `key`.
    fn child(&self, node: u32, key: Key) -> Option<u32> {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            if self.nodes[c as usize].key == key {
                return Some(c);
            }
            c = self.nodes[c as usize].next_sibling;
        }
        None
    }

    /// Walks the tree from the root in `world`: UCB1 among the children
    /// whose moves are legal here, until a move never tried here is found
    /// (added as a node, and played) or the game ends. The node reached,
    /// and whether every move on the way was played (the engine may refuse one).
    fn descend(&mut self, world: &mut Game<'_>, iteration: u32) -> (u32, bool) {
        let mut node = 0u32;
        loop {
            if world.outcome().is_some() {
                return (node, true);
            }
            world.legal(&mut self.legal);
            if self.legal.is_empty() {
                return (node, true);
            }
            let mover = world.current;
            self.keys.clear();
            self.keys
                .extend(self.legal.iter().map(|&a| Key::of(world, a)));
            // Mark the children available here; count the moves not yet tried.
            let mut untried = 0u32;
            let mut pick: Option<usize> = None;
            for j in 0..self.legal.len() {
                let key = self.keys[j];
                match self.child(node, key) {
                    Some(c) => {
                        let n = &mut self.nodes[c as usize];
                        if n.seen != iteration {
                            n.seen = iteration;
                            n.seen_at = j as u32;
                            n.available += 1;
                        }
                    }
                    // Two copies of one card are one move.
                    None if self.keys[..j].contains(&key) => {}
                    None => {
                        // A uniform pick among the untried, in one pass.
                        untried += 1;
                        if world.state.rng.random_range(0..untried) == 0 {
                            pick = Some(j);
                        }
                    }
                }
            }
            if let Some(j) = pick {
                let child = self.add(node, self.keys[j], mover);
                return (child, world.act(self.legal[j]).is_ok());
            }
            let Some((child, at)) = self.select(node, iteration) else {
                return (node, true);
            };
            if world.act(self.legal[at]).is_err() {
                return (child, false);
            }
            node = child;
        }
    }

    /// The child of `node` legal in this iteration with the best UCB1 score
    /// (availability counted in place of the parent's visits), and its
    /// place in the legal list.
    fn select(&self, node: u32, iteration: u32) -> Option<(u32, usize)> {
        let mut best: Option<(f64, u32)> = None;
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.seen == iteration {
                let visits = f64::from(n.visits.max(1));
                let ucb =
                    n.reward / visits + EXPLORATION * (f64::from(n.available).ln() / visits).sqrt();
                if best.is_none_or(|(b, _)| ucb > b) {
                    best = Some((ucb, c));
                }
            }
            c = n.next_sibling;
        }
        best.map(|(_, c)| (c, self.nodes[c as usize].seen_at as usize))
    }

    /// Adds a child of `node` for the move `key` made by `mover`.
    fn add(&mut self, node: u32, key: Key, mover: EntityId) -> u32 {
        let id = self.nodes.len() as u32;
        let first = self.nodes[node as usize].first_child;
        self.nodes.push(Node {
            key,
            mover,
            parent: node,
            first_child: NONE,
            next_sibling: first,
            visits: 0,
            available: 1,
            seen: 0,
            seen_at: 0,
            reward: 0.0,
        });
        self.nodes[node as usize].first_child = id;
        id
    }

    /// Each seat's reward for where `world` stands: its result if over,
    /// else its `:ai :score` against the scores seen so far this decision.
    fn reward<P: Playout>(&mut self, world: &mut Game<'_>, playout: &mut P) {
        let finished = world.outcome();
        for (s, reward) in self.rewards.iter_mut().enumerate() {
            let seat = EntityId::new(s);
            *reward = match finished {
                Some(Outcome::Win { seat: w, .. }) => f64::from(u8::from(w == seat)),
                Some(Outcome::Loss { seat: l, .. }) => f64::from(u8::from(l != seat)),
                // A tie, the turn limit, nobody left, a game aborted: even,
                // for every seat (with three or more, those outside a tie too).
                Some(_) => 0.5,
                // A score of a win or a loss (a victory condition the score
                // reads, or a rule set's own huge number) counts as one, and
                // is kept out of the spread it would flatten for the rest of
                // the decision.
                None => match playout.score(world, seat) {
                    score if score >= DECISIVE => 1.0,
                    score if score <= -DECISIVE => 0.0,
                    score => {
                        let (low, high) = UNFINISHED;
                        low + (high - low) * self.spreads[s].squash(score as f64)
                    }
                },
            };
        }
    }

    /// Adds the rewards of the iteration just played to every node from `leaf` up.
    fn back_up(&mut self, leaf: u32) {
        let mut node = leaf;
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.reward += self.rewards.get(n.mover.index()).copied().unwrap_or(0.5);
            node = n.parent;
        }
    }
}

/// Spreads a counter over a seed's bits, so neighbouring counters seed unrelated generators.
fn mix(k: u64) -> u64 {
    k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
