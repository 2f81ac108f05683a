//! Computer players: a random policy and a greedy one-move lookahead.
//!
//! The random policy draws its choice from the game state's generator, so an
//! AI game replays exactly from its seed. The greedy policy scores states with
//! the rule set's `:ai {:score …}` expression, so what "good" means is data too.
//! Its lookahead never sees the game's dice: a trial play draws from a
//! generator of the AI's own (seeded from the game's, so it replays too), and a
//! card whose effects draw chance is tried several times and scored by the mean.

use rand::{RngExt, SeedableRng};

use super::{Ability, Action, Game, Phase, cards};
use crate::ast::EntityId;
use crate::eval::{Event, Rng, State, apply, holds, value};

/// How a computer player chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// A random affordable card, else a random discard.
    Random,
    /// The play whose result scores best by the rule set's `:ai :score`; a discard if none helps.
    Greedy,
    /// Monte Carlo search: each legal move tried in [`SEARCH_PLAYOUTS`]
    /// random games played out from it, the move that wins most kept.
    /// Slower, and stronger than greedy. The playouts see the real draw
    /// order and the opponent's hand (a copy of the whole game): it plays
    /// with perfect information, which a fair search would deal anew.
    Search,
}

/// Random games played out from each move by [`Policy::Search`].
pub const SEARCH_PLAYOUTS: u32 = 8;

/// Turns a playout may last past the move before it counts as a draw.
const PLAYOUT_TURNS: u32 = 200;

impl Policy {
    /// The policy's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
            Policy::Search => "search",
        }
    }
}

/// Buffers a computer player reuses between decisions, so choosing allocates nothing.
#[derive(Debug, Default)]
pub struct Ai {
    legal: Vec<Action>,
    scratch: Option<State>,
    events: Vec<Event>,
    removed: Vec<EntityId>,
}

/// The score given to a move that wins outright.
const WIN: i64 = i64::MAX / 2;

/// How many trial plays a card that draws chance gets; its score is their mean.
pub const CHANCE_SAMPLES: u32 = 16;

/// Mixed into the lookahead generator's seed, so its draws are not the game's.
const LOOKAHEAD: u64 = 0x6C6F_6F6B_6168_6561;

impl Ai {
    /// A new player.
    pub fn new() -> Ai {
        Ai::default()
    }

    /// The action `policy` chooses for the entity whose turn it is, if any is legal.
    pub fn choose(&mut self, game: &mut Game<'_>, policy: Policy) -> Option<Action> {
        match policy {
            Policy::Random if !game.rules().actions.is_empty() => {
                // Any legal action, cards and the rule set's actions alike.
                game.legal(&mut self.legal);
                if self.legal.is_empty() {
                    return None;
                }
                Some(pick_move(&self.legal, &mut game.state.rng))
            }
            Policy::Random => {
                // Any affordable card; only when there is none, any discardable one.
                self.legal.clear();
                let hand = game.hand();
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
                        if cards[card as usize].play.discardable {
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
                Some(self.greedy(game))
            }
            Policy::Search => {
                game.legal(&mut self.legal);
                if self.legal.is_empty() {
                    return None;
                }
                Some(self.search(game))
            }
        }
    }

    /// [`Policy::Search`]: the legal move whose playouts the mover wins most
    /// (a draw half a win); ties keep the first. Each playout reseeds its
    /// copy's generator (from one draw of the game's, made once a decision),
    /// so the playouts' chance differs; the draw pile was shuffled at the
    /// deal, so its order is the real one.
    fn search(&mut self, game: &mut Game<'_>) -> Action {
        let seat = game.current;
        let moves = std::mem::take(&mut self.legal);
        let base: u64 = game.state.rng.random();
        let mut best = (i64::MIN, moves[0]);
        let mut playout_ai = Ai::new();
        for (m, &action) in moves.iter().enumerate() {
            let mut score = 0i64;
            for k in 0..SEARCH_PLAYOUTS {
                let mut sim = game.clone();
                sim.log = None;
                sim.state.rng = crate::eval::Rng::seed_from_u64(
                    base ^ ((m as u64) << 32 | u64::from(k)).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                if sim.act(action).is_err() {
                    score = i64::MIN;
                    break;
                }
                let limit = sim.turn.saturating_add(PLAYOUT_TURNS);
                while sim.outcome().is_none() && sim.turn < limit {
                    let Some(a) = playout_ai.choose(&mut sim, Policy::Random) else {
                        break;
                    };
                    if sim.act(a).is_err() {
                        break;
                    }
                }
                score += match sim.outcome() {
                    Some(crate::engine::Outcome::Win { seat: w, .. }) if w == seat => 2,
                    Some(crate::engine::Outcome::Win { .. }) => 0,
                    _ => 1,
                };
            }
            if score > best.0 {
                best = (score, action);
            }
        }
        self.legal = moves;
        best.1
    }

    fn greedy(&mut self, game: &Game<'_>) -> Action {
        let rules = game.rules();
        let cards = game.cards();
        let roles = game.roles(game.current);
        // Only when a trial can draw chance does it need a generator of its own:
        // the game's, cloned so the game's own draws are untouched, seeds one
        // whose draws are unrelated to the ones the game will make.
        let dice = game.score_draws()
            || self.legal.iter().any(|a| match a.ability {
                Ability::Card(i) => game.chancy(game.hand()[usize::from(i)]),
                Ability::Discard(_) => false,
                Ability::Action(id) => rules.actions[usize::from(id)].draws,
            });
        let mut lookahead =
            dice.then(|| Rng::seed_from_u64(game.state.rng.clone().random::<u64>() ^ LOOKAHEAD));
        let scratch = self.scratch.get_or_insert_with(|| game.state.clone());
        scratch.clone_from(&game.state);
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
                        (samples, cards[id as usize].play.play_again)
                    }
                    Ability::Action(id) => {
                        let draws = rules.actions[usize::from(id)].draws;
                        (if draws { CHANCE_SAMPLES } else { 1 }, false)
                    }
                    Ability::Discard(_) => continue,
                };
                let mut trial = |scratch: &mut State| {
                    scratch.clone_from(&game.state);
                    swap(scratch, &mut lookahead);
                    self.events.clear();
                    match action.ability {
                        Ability::Card(i) => {
                            let card = &cards[game.hand()[usize::from(i)] as usize];
                            cards::pay(rules, scratch, game.current, card, &mut self.events);
                            apply(rules, &card.effects, scratch, roles, &mut self.events);
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
        match best {
            Some((s, action)) if s >= base => action,
            // A rule set's actions have no discard to fall back on: the best of them.
            Some((_, action)) if matches!(action.ability, Ability::Action(_)) => action,
            _ => self.worst_card(game),
        }
    }

    /// The discard a greedy player makes: the card furthest from affordable.
    fn worst_card(&self, game: &Game<'_>) -> Action {
        let seat = game.current;
        let mut worst: Option<(i64, Action)> = None;
        for &action in &self.legal {
            let Ability::Discard(i) = action.ability else {
                continue;
            };
            let card = &game.cards()[game.hand()[usize::from(i)] as usize];
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

/// A state's worth to the entity `roles[0]` names: a win or loss outweighs any score.
fn score(game: &Game<'_>, state: &mut State, roles: &[EntityId]) -> i64 {
    let rules = game.rules();
    let me = roles[0];
    for seat in 0..game.seats() as EntityId {
        let seat_roles = game.roles(seat);
        for v in &rules.victory {
            if holds(&v.when, state, seat_roles) {
                return if seat_roles[v.winner as usize] == me {
                    WIN
                } else {
                    -WIN
                };
            }
        }
    }
    rules
        .ai_score
        .as_ref()
        .map_or(0, |e| value(e, state, roles))
}

/// A uniform choice among the distinct moves of `legal` (non-empty), then
/// among the options of the one chosen: an action with four options is no
/// likelier than one with none. The options of a move are next to each
/// other in the legal list; a move without options draws once, as before.
fn pick_move(legal: &[Action], rng: &mut crate::eval::Rng) -> Action {
    let same = |a: &Action, b: &Action| {
        a.ability == b.ability && a.actor == b.actor && a.target == b.target
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
