"""The PettingZoo environments: PettingZoo's own API test on every rule set,
seeded determinism, and many random games."""

from pathlib import Path

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import grimoire  # noqa: E402

RULE_SETS = ["arcomage", "duel", "skills", "tactics", "tbwg"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_api_test_passes(rules):
    api_test(grimoire.env(rules, seed=1), num_cycles=200, verbose_progress=False)


def play(env, seed, pick):
    """One game with `pick(env, mask)` choosing each move; the moves made, the
    final rewards and how it ended."""
    env.reset(seed=seed)
    moves = []
    rewards = {a: 0 for a in env.possible_agents}
    outcome = None
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, info = env.last()
        rewards[agent] += reward
        if termination or truncation:
            outcome = info["outcome"]
            env.step(None)
            continue
        move = pick(env, observation["action_mask"])
        moves.append((agent, move))
        env.step(move)
    return moves, rewards, outcome


def random_pick(rng):
    return lambda env, mask: int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_seed_replays_the_same_game(rules):
    env = grimoire.env(rules)
    first = play(env, 7, random_pick(np.random.default_rng(1)))
    again = play(env, 7, random_pick(np.random.default_rng(1)))
    assert first == again
    assert len(first[0]) > 0


def test_rewards_go_to_the_winner():
    env = grimoire.env("arcomage", seed=3)
    _, rewards, outcome = play(env, 3, random_pick(np.random.default_rng(2)))
    assert outcome in ("win", "tie", "turn-limit")
    assert sorted(rewards.values()) == ([-1, 1] if outcome == "win" else [0, 0])


def test_built_in_policies_play_a_seat():
    env = grimoire.env("arcomage", seed=4)
    rng = np.random.default_rng(4)

    def greedy_first_seat(env, mask):
        if env.agent_selection == env.possible_agents[0]:
            move = env.policy_action("greedy")
            assert mask[move] == 1
            return move
        return random_pick(rng)(env, mask)

    wins = 0
    for seed in range(30):
        _, rewards, _ = play(env, seed, greedy_first_seat)
        wins += rewards[env.possible_agents[0]] == 1
    # Greedy beats random most of the time.
    assert wins >= 18, wins


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_thousand_random_games_run(rules):
    env = grimoire.env(rules)
    rng = np.random.default_rng(0)
    endings = {}
    for seed in range(1000):
        _, _, outcome = play(env, seed, random_pick(rng))
        endings[outcome] = endings.get(outcome, 0) + 1
    # Every game ended, and most by the rules (a win), not stuck.
    assert None not in endings, endings
    assert endings.get("win", 0) > 500, endings


def test_an_illegal_move_is_refused():
    env = grimoire.env("arcomage", seed=1)
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def deal(env, seed=None):
    """What every agent sees after ``env.reset(seed=seed)``."""
    env.reset(seed=seed)
    return tuple(tuple(env.observe(a)["observation"].tolist()) for a in env.possible_agents)


def test_resets_without_a_seed_continue_the_environments_generator():
    a, b = grimoire.env("arcomage", seed=1), grimoire.env("arcomage", seed=1)
    games = [deal(a) for _ in range(5)]
    # The same seed made with, the same sequence of games; each reset a new one.
    assert [deal(b) for _ in range(5)] == games
    assert len(set(games)) == 5
    assert deal(grimoire.env("arcomage", seed=2)) not in games
    # The first reset deals game 1, as reset(seed=1) does, and the rest follow
    # from it as they follow from reset(seed=1).
    c = grimoire.env("arcomage")
    assert [deal(c, seed=1)] + [deal(c) for _ in range(4)] == games
    # A seed given starts the sequence again from it: reset() after
    # reset(seed=7) deals a new game, not game 7 again.
    after = [deal(a, seed=7), deal(a), deal(a)]
    assert len(set(after)) == 3
    assert after == [deal(b, seed=7), deal(b), deal(b)]
    d = grimoire.env("arcomage", seed=7)
    assert [deal(d) for _ in range(3)] == after


def test_whole_games_without_a_seed_replay_from_the_first_seed():
    def games(env):
        # The same picks each game: only the deal can make them differ.
        return [play(env, None, random_pick(np.random.default_rng(5))) for _ in range(4)]

    first = games(grimoire.env("arcomage", seed=3))
    assert games(grimoire.env("arcomage", seed=3)) == first
    assert len({tuple(moves) for moves, _, _ in first}) == 4


def endings(env, pick):
    """Plays the game ``env`` was reset to; per agent, how it ended:
    (termination, truncation, outcome, reward)."""
    seen = {}
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            seen[agent] = (termination, truncation, info["outcome"], reward)
            env.step(None)
            continue
        env.step(pick(env, observation["action_mask"]))
    return seen


def test_the_turn_limit_truncates_and_a_win_terminates(tmp_path):
    rules = tmp_path / "arcomage.edn"
    text = (ROOT / "rules" / "arcomage.edn").read_text(encoding="utf-8")
    assert ":turns {:limit 1000}" in text
    rules.write_text(text.replace(":turns {:limit 1000}", ":turns {:limit 4}"), encoding="utf-8")
    env = grimoire.env(str(rules), seed=1, cards=ROOT / "cards" / "arcomage")
    env.reset()
    # Cut off at the limit: no one's game ended by the rules.
    assert endings(env, random_pick(np.random.default_rng(1))) == {
        a: (False, True, "turn-limit", 0) for a in env.possible_agents
    }
    api_test(env, num_cycles=50, verbose_progress=False)
    # A game the rules end, by a win, terminates.
    env = grimoire.env("arcomage", seed=3)
    env.reset()
    ends = endings(env, random_pick(np.random.default_rng(2)))
    assert sorted(ends.values()) == [(True, False, "win", -1), (True, False, "win", 1)]


def test_a_move_is_needed_while_the_game_goes_on():
    env = grimoire.env("arcomage", seed=1)
    env.reset()
    with pytest.raises(ValueError, match="needs a move"):
        env.step(None)


def test_a_duel_defender_chooses_between_defending_and_dodging():
    """Seed 003: an attack gives the defender a turn of their own, whose legal
    moves are the defence and the dodge (rules/duel.edn); the agent chooses."""
    env = grimoire.env("duel", seed=1)
    env.reset(seed=1)
    attacker = env.agent_selection
    observation, *_ = env.last()
    assert observation["action_mask"].sum() == 3  # quick, focused, powerful
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    defender = env.agent_selection
    assert defender != attacker
    observation, *_ = env.last()
    assert observation["action_mask"].sum() == 2  # defend, dodge
    env.step(int(np.flatnonzero(observation["action_mask"])[1]))
    # The defence resolved the exchange; the defender's own turn comes next.
    assert env.agent_selection == defender
    observation, *_ = env.last()
    assert observation["action_mask"].sum() == 3


GROW_RULES = """{:rules :grow
 :roles {:you "the seat" :other "the other"}
 :attributes {:gold {:default 5}}
 :statuses {:seed "acquires itself anew at every turn start"}
 :seats [:p1 :p2]
 :turns {:limit 1000}
 :timings {:begin {:at :game-start} :ts {:at :turn-start}}
 :hooks {:begin [{:effected :you :acquire :seed}]}}"""

GROW_SEED = """{:status :seed :polarity :buff :stacking :independent
          :hooks {:ts [{:effected :holder :acquire :seed}]}}"""


def test_a_game_aborted_by_a_budget_raises_with_the_place_in_the_data(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "grow.edn").write_text(GROW_RULES, encoding="utf-8")
    (tmp_path / "effects" / "grow").mkdir(parents=True)
    (tmp_path / "effects" / "grow" / "seed.edn").write_text(GROW_SEED, encoding="utf-8")
    with pytest.raises(grimoire.GrimoireError) as raised:
        env = grimoire.env(str(tmp_path / "rules" / "grow.edn"), seed=1)
        env.reset()
        for _ in env.agent_iter(max_iter=1000):
            env.step(None)
    message = str(raised.value)
    assert "the game was aborted at " in message, message
    assert "seed.edn:2:24, in status `seed`: the status budget ran out" in message, message
