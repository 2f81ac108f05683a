"""The PettingZoo environments: PettingZoo's own API test on every rule set,
seeded determinism, and many random games."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import grimoire  # noqa: E402

RULE_SETS = ["arcomage", "duel", "skills", "tactics", "tbwg"]


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
