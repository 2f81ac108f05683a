"""The PettingZoo environments: PettingZoo's own API test on every rule set,
seeded determinism, and many random games."""

import importlib
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402
# The module, whose name its package's api_test function hides.
pettingzoo_checks = importlib.import_module("pettingzoo.test.api_test")

import grimoire  # noqa: E402

RULE_SETS = ["arcomage", "duel", "skills", "tactics", "tbwg", "minions", "deckbuilder", "deduction"]
ROOT = Path(__file__).resolve().parents[2]
# The fixture of cards in zones (issue 30): hidden hands, a shared deck, a
# discard pile, boards of 7 slots, turns of many plays. Given by its path:
# its deck is the cards/skirmish/ beside its rules/ folder.
SKIRMISH = str(ROOT / "tests" / "data" / "zones" / "rules" / "skirmish.edn")
# The fixture of cards that aim and trigger (issue 31): spells that choose an
# enemy minion, a card that chooses an option, minions that attack minions.
BRAWL = str(ROOT / "tests" / "data" / "triggers" / "rules" / "brawl.edn")
# The fixture of solo fights (issue 32): one seat against a scripted enemy
# that shows its intent, three encounters, a loss when the seat is slain.
SOLO = str(ROOT / "tests" / "data" / "solo" / "rules" / "solo.edn")
# Every rule set the generic tests play: the bundled ones and the fixtures.
ALL_RULE_SETS = RULE_SETS + [SKIRMISH, BRAWL]
# The fixture of simultaneous turns (issue 31): three seats each pick a gem
# from the pack they hold, all at once and unseen, then the packs go round.
DRAFT = str(ROOT / "tests" / "data" / "draft" / "rules" / "draft.edn")


def short(rules):
    """A rule set's name in a test's id: the fixture's without its path."""
    return Path(rules).stem


# The warnings PettingZoo 1.27's api_test gives every environment shaped as
# PettingZoo's own card games are, unless it is one of them by name: the
# observation space is a Dict (it holds the action mask), each observation
# is one ("not a NumPy array", said of the dict before its "observation" is
# checked), and the agents are named as the rule set names its seats (p1,
# not player_0). Any other warning fails the test.
EXPECTED_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
    'We recommend agents to be named in the format <descriptor>_<number>, like "player_0"',
)


def api_test_warnings(env, num_cycles):
    """Runs api_test on ``env``; the warnings it gave, each once."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=num_cycles, verbose_progress=False)
    return {str(w.message) for w in caught}


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
def test_pettingzoo_api_test_passes_with_no_observation_warning(rules):
    said = api_test_warnings(grimoire.env(rules, seed=1), num_cycles=200)
    assert said <= set(EXPECTED_WARNINGS), said - set(EXPECTED_WARNINGS)


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
def test_the_flat_observation_and_the_mask_pass_pettingzoos_checks_silently(rules):
    """What api_test checks of the dict's "observation" and "action_mask",
    over whole games: no warning at all (not all zeros, bounded, one
    dimension, a mask of 0s and 1s with a legal move)."""
    env = grimoire.env(rules, seed=2)
    rng = np.random.default_rng(3)
    first = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for seed in range(5):
            env.reset(seed=seed)
            for agent in env.agent_iter(max_iter=2000):
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                first = observation["observation"] if first is None else first
                assert env.observation_space(agent).contains(observation)
                pettingzoo_checks.test_observation(observation["observation"], first, str(env.unwrapped))
                pettingzoo_checks.test_action_mask(observation["action_mask"], str(env.unwrapped))
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert not caught, {str(w.message) for w in caught}


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


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
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


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
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


def test_an_illegal_move_says_the_engines_reason_not_a_cost():
    # Deduction's first seat holds a Sentry and a Confessor: a Sentry with
    # no target says so, and a Confessor's index with a rank names no move.
    match = grimoire.Match("deduction", seed=1)
    legal = set(match.legal())
    reasons = []
    for i in range(match.action_count):
        if i not in legal:
            with pytest.raises(ValueError, match="not legal") as refused:
                match.step(i)
            reasons.append(str(refused.value))
    assert any("Sentry needs a target: choose its `:victim`" in r for r in reasons), reasons
    assert any("an option the card there does not take" in r for r in reasons), reasons
    assert not any("costs" in r for r in reasons), reasons
    assert set(match.legal()) == legal


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
    said = api_test_warnings(env, num_cycles=50)
    assert said <= set(EXPECTED_WARNINGS), said
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


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
def test_the_layout_names_every_number_of_the_observation(rules):
    env = grimoire.env(rules, seed=1)
    env.reset()
    layout = env.observation_layout()
    space = env.observation_space(env.possible_agents[0])["observation"]
    sizes = [int(np.prod(f["shape"])) for f in layout]
    assert [f["offset"] for f in layout] == list(np.cumsum([0] + sizes[:-1]))
    assert sum(sizes) == space.shape[0]
    assert [f["name"] for f in layout][:2] == ["seat", "turn"]
    observation = env.observe(env.agent_selection)
    fields = env.fields(observation)
    assert list(fields) == [f["name"] for f in layout]
    for f in layout:
        assert fields[f["name"]].shape == tuple(f["shape"])
        assert f["low"] == space.low[f["offset"] : f["offset"] + int(np.prod(f["shape"]))].min()
        assert f["doc"]
    assert fields["seat"][env.possible_agents.index(env.agent_selection)] == 1
    np.testing.assert_array_equal(np.concatenate([a.ravel() for a in fields.values()]), observation["observation"])


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
def test_every_index_keeps_its_meaning_across_resets_and_games(rules):
    env = grimoire.env(rules, seed=1)
    n = env.action_space(env.possible_agents[0]).n
    meanings = [env.action_to_string(i) for i in range(n)]
    assert len(set(meanings)) == n
    rng = np.random.default_rng(4)
    for seed in (1, 2):
        play(env, seed, random_pick(rng))
        assert [env.action_to_string(i) for i in range(n)] == meanings
    assert [grimoire.env(rules, seed=9).action_to_string(i) for i in range(n)] == meanings
    with pytest.raises(ValueError, match="action space"):
        env.action_to_string(n)


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
def test_legal_actions_are_the_mask_with_what_each_does_now(rules):
    env = grimoire.env(rules, seed=1)
    rng = np.random.default_rng(5)
    env.reset(seed=3)
    for agent in env.agent_iter(max_iter=300):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert env.legal_actions() == []
            env.step(None)
            continue
        legal = env.legal_actions()
        assert [i for i, _ in legal] == list(np.flatnonzero(observation["action_mask"]))
        for i, now in legal:
            fixed = env.action_to_string(i)
            if fixed.startswith(("play hand slot", "discard hand slot")):
                # The card's slot, then (a card that aims) its target and option.
                slot = fixed.split(" ")[3]
                assert re.match(rf"^\w+ .+ \(slot {slot}\)( |$)", now), (now, fixed)
            elif fixed == "end the turn":
                assert now == fixed
            elif fixed.startswith("aim at "):
                # A card's later target: the place, then what is there now.
                assert now.startswith("aim at "), (now, fixed)
            else:
                # An action's actor, action and option read the same.
                assert now.split(":")[1].split(" ")[1] == fixed.split(":")[1].split(" ")[1], (now, fixed)
        env.step(int(rng.choice([i for i, _ in legal])))


def test_arcomage_actions_play_and_discard_hand_slots():
    env = grimoire.env("arcomage", seed=1, render_mode="ansi")
    env.reset()
    n = env.action_space("p1").n
    h = n // 2
    assert n == 2 * h
    assert env.action_to_string(0) == "play hand slot 0"
    assert env.action_to_string(h + 5) == "discard hand slot 5"
    fields = env.fields(env.observe(env.agent_selection))
    # Six cards, one a row, in the first six slots; the other hand counted.
    assert [int(row[:-2].sum()) for row in fields["zone:hand:me"]] == [1] * 6 + [0] * (h - 6)
    assert fields["zone:hand:other"].tolist() == [6]
    # Index i plays the card on line i + 1 of what `play --human` shows.
    screen = env.render()
    assert screen is not None
    listed = {int(line.split(".")[0]) - 1: line.split(". ", 1)[1].split(" (")[0] for line in screen.splitlines() if line.startswith("  ") and ". " in line}
    assert sorted(listed) == list(range(6))
    for i, now in env.legal_actions():
        slot = i if i < h else i - h
        verb = "play" if i < h else "discard"
        assert now == f"{verb} {listed[slot]} (slot {slot})"


@pytest.mark.parametrize("rules", ["arcomage", "skills", SKIRMISH], ids=short)
def test_what_a_seat_cannot_see_never_changes_its_observation(rules):
    """The other hands and the draw order dealt anew (a generator of the
    test's own): the seat's observation is the same; the other seat's,
    whose hand changed, is not."""
    rng = np.random.default_rng(6)
    match = grimoire.Match(rules, seed=4)
    for _ in range(15):
        match.step(int(rng.choice(match.legal())))
    changed = 0
    for seat in (0, 1):
        for seed in range(10):
            before = (match.observe(seat), match.observe(1 - seat))
            match._redeal_unseen(seat, seed)
            assert match.observe(seat) == before[0]
            changed += match.observe(1 - seat) != before[1]
    assert changed >= 15, changed


def test_render_shows_the_seat_to_move_its_own_hand():
    env = grimoire.env("arcomage", seed=1, render_mode="ansi")
    env.reset()
    shown = env.render()
    assert shown is not None
    assert shown.startswith("arcomage · turn 1 · p1 to move · playing\n")
    assert "your hand:" in shown
    names = [text.split("play ", 1)[1].rsplit(" (slot", 1)[0] for i, text in env.legal_actions() if i < 7]
    assert all(f". {name} (" in shown for name in names)
    tactics = grimoire.env("tactics", seed=1, render_mode="ansi")
    tactics.reset()
    screen = tactics.render()
    assert screen is not None and "hero" in screen and "your hand" not in screen


def readme() -> str:
    return (ROOT / "python" / "README.md").read_text(encoding="utf-8")


def test_the_python_readme_example_runs_as_its_comments_say(capsys):
    code = re.search(r"^```python\n(.*?)^```", readme(), flags=re.M | re.S).group(1)
    exec(compile(code, "python/README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    # Each comment that starts with a value says what its line prints.
    checked = 0
    for line, shown in zip([l for l in code.splitlines() if l.startswith("print(")], printed):
        said = line.split("# ", 1)[1].split(": ", 1)[0]
        if said.startswith("("):
            assert shown == said, (shown, said)
            checked += 1
        elif said.startswith("'"):
            assert f"'{shown}'" == said, (shown, said)
            checked += 1
    assert checked == 3
    screen = "\n".join(printed[3:])
    assert "cell-4-4" in screen and "your hand" not in screen


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=short)
def test_the_python_readme_lists_each_rule_sets_actions_and_fields(rules):
    text = readme()
    start = text.index(f"\n### {short(rules)}\n")
    section = text[start : text.find("\n### ", start + 1) if text.find("\n### ", start + 1) != -1 else text.index("\n## ", start)]
    env = grimoire.env(rules, seed=1)
    n = env.action_space(env.possible_agents[0]).n
    size = env.observation_space(env.possible_agents[0])["observation"].shape[0]
    assert f"{n} actions; observations of {size} numbers." in section
    blocks = re.findall(r"^\| (\d+)–(\d+) \| `([^`]*)` \| `([^`]*)` \|$", section, flags=re.M)
    assert blocks and int(blocks[-1][1]) == n - 1
    for first, last, said_first, said_last in blocks:
        assert env.action_to_string(int(first)) == said_first
        assert env.action_to_string(int(last)) == said_last

    def number(text: str) -> int:
        return {"2³¹": 2**31, "−2³¹": -(2**31)}.get(text, None) or int(text.replace("−", "-"))

    rows = re.findall(r"^\| `([^`]*)` \| ([\d × ]+) \| (\S+) \| (\S+) \|$", section, flags=re.M)
    assert [(name, tuple(int(x) for x in shape.split(" × ")), number(low), number(high)) for name, shape, low, high in rows] == [
        (f["name"], tuple(f["shape"]), f["low"], f["high"]) for f in env.observation_layout()
    ]


def test_a_rule_set_file_plays_the_deck_beside_its_rules_folder():
    """The fixture given by its path (a str or a Path), with no cards: the
    deck is its cards/skirmish/, as `grimoire play PATH` finds it."""
    for given in (SKIRMISH, Path(SKIRMISH)):
        env = grimoire.env(given, seed=1, render_mode="ansi")
        env.reset()
        screen = env.render()
        assert screen is not None and screen.startswith("skirmish · turn 1 · p1 to move · playing\n"), screen


def hand_on_screen(screen):
    """The cards of "your hand:" (or "you must discard n cards:") on a
    seat's screen, by slot."""
    lines = re.split(r"^(?:your hand|you must discard \d+ cards?):\n", screen, maxsplit=1, flags=re.M)[1].splitlines()
    return [line.split(". ", 1)[1].split(" (")[0] for line in lines if re.match(r"^  \d+\. ", line)]


def test_skirmish_actions_play_cards_by_slot_and_end_the_turn():
    env = grimoire.env(SKIRMISH, seed=1, render_mode="ansi")
    env.reset()
    # Ten hand slots (the hand zone's :capacity), ten discards (Insight and
    # Toll make a seat discard), then the end of the turn.
    assert env.action_space("p1").n == 21
    assert [env.action_to_string(i) for i in (0, 9, 10, 19, 20)] == [
        "play hand slot 0",
        "play hand slot 9",
        "discard hand slot 0",
        "discard hand slot 9",
        "end the turn",
    ]
    rng = np.random.default_rng(8)
    named = 0
    for agent in env.agent_iter(max_iter=400):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        screen = env.render()
        hand = hand_on_screen(screen)
        legal = env.legal_actions()
        for i, now in legal:
            if i < 10:
                assert now == f"play {hand[i]} (slot {i})", (now, screen)
                named += 1
            elif i < 20:
                assert now == f"discard {hand[i - 10]} (slot {i - 10})", (now, screen)
            else:
                assert now == "end the turn"
        # The other hand: its cards named as far as the seat knows them (a
        # Peek), on the screen as in the observation.
        other = env.possible_agents[1 - env.possible_agents.index(agent)]
        shown = re.search(rf"^{other}'s hand: (.*)$", screen, flags=re.M).group(1)
        fields = env.fields(observation)
        held, known = int(fields["zone:hand:other"][0]), int(fields["zone:hand:other:known"].sum())
        if shown == "empty" or re.fullmatch(r"\d+ cards?", shown):
            assert known == 0 and shown.split(" ")[0] in ("empty", str(held)), (shown, held, known)
        elif ", of them " in shown:
            count, names = shown.split(", of them ")
            assert (count.split(" ")[0], len(names.split(", "))) == (str(held), known), (shown, held, known)
        else:
            assert len(shown.split(", ")) == held == known, (shown, held, known)
        env.step(int(rng.choice([i for i, _ in legal])))
    assert named > 50, named


def test_skirmish_render_shows_the_zone_piles():
    env = grimoire.env(SKIRMISH, seed=2, render_mode="ansi")
    env.reset()
    screen = env.render()
    assert screen is not None
    for pile in ("deck: 41 cards", "p2's hand: 3 cards", "discard: empty", "p1's board: empty", "p2's board: empty"):
        assert f"\n{pile}\n" in screen, (pile, screen)
    assert len(hand_on_screen(screen)) == 4
    # Played on, minions stand on the boards slot by slot, with their values.
    rng = np.random.default_rng(2)
    for _ in env.agent_iter(max_iter=200):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        plays = [i for i in np.flatnonzero(observation["action_mask"]) if i < 10]
        env.step(int(rng.choice(plays)) if plays else 20)
        screen = env.render()
        if "'s board: empty" not in screen:
            break
    assert re.search(r"^p\d's board:", screen, flags=re.M), screen
    assert "Yeti" in screen or "Raider" in screen or "Banner" in screen or "Wisp" in screen, screen


def test_skirmish_fields_hold_what_the_seat_sees():
    env = grimoire.env(SKIRMISH, seed=3, render_mode="ansi")
    env.reset()
    layout = {f["name"]: f for f in env.observation_layout()}
    assert list(layout) == [
        "seat",
        "turn",
        "entities",
        "zone:deck",
        "zone:deck:known",
        "zone:hand:me",
        "zone:hand:other",
        "zone:hand:other:known",
        "zone:discard",
        "zone:board:me",
        "zone:board:other",
        "zone:aside",
        "zone:aside:known",
        "zone:playing",
        "zone:removed",
    ]
    fields = env.fields(env.observe(env.agent_selection))
    hand = fields["zone:hand:me"]
    d = layout["zone:deck:known"]["shape"][0]
    # A row per slot of the hand: the card one-hot, health and attack, cost, affordable.
    assert hand.shape == (10, d + 4)
    cards = hand[:, :d].sum(axis=1)
    assert cards.tolist() == [1] * 4 + [0] * 6
    assert len(hand_on_screen(env.render())) == 4
    assert fields["zone:hand:other"].tolist() == [3]
    assert fields["zone:hand:other:known"].sum() == 0
    assert fields["zone:deck"].tolist() == [41]
    assert fields["zone:board:me"].shape == (7, d + 2)
    assert fields["zone:board:me"].sum() == 0 and fields["zone:discard"].sum() == 0
    # The mana p1 starts its first turn with pays for the cards marked affordable.
    mana = fields["entities"][0][3]
    assert mana == 1
    for row in hand[:4]:
        assert row[d + 3] == int(row[d + 2] <= mana)


def test_no_legal_skirmish_move_is_left_without_an_index():
    match = grimoire.Match(SKIRMISH, seed=0)
    rng = np.random.default_rng(9)
    moves = 0
    for seed in range(50):
        match.reset(seed)
        while match.outcome() is None:
            assert match.overflowed == 0
            legal = match.legal()
            assert legal
            match.step(int(rng.choice(legal)))
            moves += 1
    assert moves > 1000


def test_the_python_readmes_skirmish_example_runs_as_its_comments_say(capsys, monkeypatch):
    code = re.findall(r"^```python\n(.*?)^```", readme(), flags=re.M | re.S)[1]
    assert "skirmish.edn" in code
    monkeypatch.chdir(ROOT)
    exec(compile(code, "python/README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    said = [l.split("# ", 1)[1].split(": ", 1)[0] for l in code.splitlines() if l.startswith("print(")]
    assert printed == said


def test_the_draft_passes_api_test_with_the_agent_selected_the_seat_picking():
    """Each simultaneous turn asks p1, p2 and p3 in turn (the engine's seat
    to act, as PettingZoo's AEC model asks one agent at a time); each agent
    picks from the pack it holds; PettingZoo's api_test passes."""
    said = api_test_warnings(grimoire.env(DRAFT, seed=1), num_cycles=200)
    assert said <= set(EXPECTED_WARNINGS), said - set(EXPECTED_WARNINGS)
    env = grimoire.env(DRAFT, seed=2)
    rng = np.random.default_rng(7)
    moves, _, outcome = play(env, 3, random_pick(rng))
    assert [agent for agent, _ in moves] == ["p1", "p2", "p3"] * 5
    assert outcome in ("win", "tie")


def test_in_the_draft_a_later_seat_observes_the_same_whatever_an_earlier_one_picked():
    """p1's pick is held, unseen, until p3 has picked: p2's observation,
    action mask and the built-in policies' choices for it are the same
    whatever p1 picked."""
    seen = set()
    for pick in range(5):
        env = grimoire.env(DRAFT, seed=5)
        env.reset(seed=5)
        assert env.agent_selection == "p1"
        legal = np.flatnonzero(env.observe("p1")["action_mask"])
        env.step(int(legal[pick]))
        assert env.agent_selection == "p2"
        observation = env.observe("p2")
        seen.add(
            (
                tuple(observation["observation"]),
                tuple(observation["action_mask"]),
                env.policy_action("greedy"),
                env.policy_action("search"),
            )
        )
    assert len(seen) == 1, seen


# The fixture of reactions (issue 31): spells played out of turn, in answer
# to a spell of the other seat's (Counterspell, Ward, Nullify).
DUEL = str(ROOT / "tests" / "data" / "reactions" / "rules" / "duel.edn")


def test_the_duel_passes_api_test_and_a_seat_answering_is_the_agent_selected():
    """When p1 plays a card p2 may answer, p2 is the agent selected, out of
    turn: its mask holds its reactions' slots and the pass index, which
    lets the card resolve; PettingZoo's api_test passes."""
    said = api_test_warnings(grimoire.env(DUEL, seed=1), num_cycles=300)
    assert said <= set(EXPECTED_WARNINGS), said - set(EXPECTED_WARNINGS)
    env = grimoire.env(DUEL, seed=1)
    space = range(env.action_space("p1").n)
    passes = [i for i in space if env.action_to_string(i).startswith("pass")]
    assert len(passes) == 1
    answered = 0
    for seed in range(1, 6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        last = None
        for agent in env.agent_iter(max_iter=2_000):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            mask = observation["action_mask"]
            if mask[passes[0]]:
                # Out of turn: the agent before it was the other seat.
                assert last is not None and last != agent
                answered += 1
            last = agent
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert answered > 0


def test_brawl_random_agents_play_only_legal_indices_and_every_move_has_one():
    """Minions attack minions and spells choose their targets: every legal
    move has an index (none overflowed), random agents play only legal
    ones, the built-in players' moves are legal indices too, and every game
    ends."""
    env = grimoire.env(BRAWL, seed=1)
    rng = np.random.default_rng(11)
    kinds = {"attack": 0, "strike": 0, "aimed": 0}
    asked = 0
    for seed in range(30):
        env.reset(seed=seed)
        outcome = None
        for agent in env.agent_iter(max_iter=20_000):
            observation, _, termination, truncation, info = env.last()
            if termination or truncation:
                outcome = info["outcome"]
                env.step(None)
                continue
            assert env.unwrapped._match.overflowed == 0
            legal = env.legal_actions()
            assert [i for i, _ in legal] == list(np.flatnonzero(observation["action_mask"]))
            if asked < 200 and rng.random() < 0.1:
                for policy in ("random", "greedy"):
                    move = env.policy_action(policy)
                    assert move is not None and observation["action_mask"][move] == 1, (policy, move)
                asked += 1
            i, now = legal[int(rng.integers(len(legal)))]
            fixed = env.action_to_string(i)
            kinds["attack"] += ": attack " in fixed
            kinds["strike"] += ": strike " in fixed
            kinds["aimed"] += fixed.startswith("play hand slot") and " at " in fixed
            env.step(i)
        assert outcome is not None, seed
    assert all(n > 20 for n in kinds.values()) and asked > 100, (kinds, asked)


def test_an_agent_chooses_which_minion_a_brawl_spell_hits():
    """Firebolt (3 damage to an enemy minion) is one index per minion it
    may hit: playing the index of the last of them (not the first, which
    the space played before it named targets) hits the minion that index
    names, by its place on the other's board, and no other."""
    env = grimoire.env(BRAWL, seed=1)
    d = env.observation_layout()[[f["name"] for f in env.observation_layout()].index("zone:deck:known")]["shape"][0]
    aimed = re.compile(r"^play Firebolt \(slot \d+\) at (\w+)#\d+ \(the other's board slot (\d+)\)$")
    rng = np.random.default_rng(12)
    hits = 0
    for seed in range(40):
        env.reset(seed=seed)
        for agent in env.agent_iter(max_iter=20_000):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = env.legal_actions()
            bolts = [(i, aimed.match(now)) for i, now in legal if aimed.match(now)]
            if len(bolts) >= 2:
                i, named = bolts[-1]
                slot = int(named.group(2))
                assert env.action_to_string(i).startswith("play hand slot ")
                assert env.action_to_string(i).endswith(f" at the other's board slot {slot} (harm or no option)")
                board = env.fields(observation)["zone:board:other"].copy()
                # A minion that survives 3 damage as it is, with no shield and no
                # gain for being aimed at: its health drops by 3, nothing else moves.
                if named.group(1) not in ("Knight", "Mirror") and board[slot, d] > 3:
                    env.step(i)
                    after = env.fields(env.observe(agent))["zone:board:other"]
                    expected = board.copy()
                    expected[slot, d] -= 3
                    np.testing.assert_array_equal(after, expected)
                    hits += 1
                    continue
            env.step(int(rng.choice([i for i, _ in legal])))
    assert hits >= 5, hits


def test_a_solo_fight_passes_the_api_test_shows_the_intent_and_a_loss_costs_the_seat():
    """One seat against the Jaw Worm: PettingZoo's API test passes; the
    observation's ``intents`` holds the worm's Chomp (a one-hot, then its 11
    damage) before the seat acts; a seat that only ends its turns is slain,
    and that is a loss: reward -1, outcome "loss", a termination."""
    env = grimoire.env(SOLO, seed=1)
    assert api_test_warnings(env, num_cycles=200) <= set(EXPECTED_WARNINGS)
    env = grimoire.env(SOLO, seed=1)
    env.reset(seed=1)
    observation, _, _, _, _ = env.last()
    fields = env.fields(observation["observation"])
    assert list(fields["intents"][1]) == [1, 0, 0, 11]
    ends = [i for i, text in env.legal_actions() if text.startswith("end")]
    assert ends, env.legal_actions()
    for agent in env.agent_iter(max_iter=2_000):
        _, reward, termination, truncation, info = env.last()
        if termination or truncation:
            assert termination and info["outcome"] == "loss", info
            assert env._cumulative_rewards[agent] == -1 or reward == -1
            env.step(None)
            continue
        env.step(ends[0])
    # Another encounter: the Brute, whose opening Roar shows as its first move.
    brute = grimoire.env(SOLO, seed=1, encounter="brute")
    brute.reset(seed=1)
    observation, _, _, _, _ = brute.last()
    assert list(brute.fields(observation["observation"])["intents"][1]) == [1, 0, 0, 0]


def test_simulate_returns_a_solo_fight_s_losses_metrics_and_encounter():
    """``grimoire.simulate`` of the solo fixture against the Brute: the
    encounter named, every game won or lost, and the health left with its
    interval, overall and per card."""
    sim = grimoire.simulate(SOLO, games=400, seed=2, encounter="brute")
    assert sim["encounter"] == "brute"
    seat = sim["seats"][0]
    assert seat["wins"] + seat["losses"] == 400
    health = sim["metrics"]["health-left"]
    assert health["low"] < health["mean"] < health["high"]
    assert [c["card"] for c in health["cards"]] == [c["card"] for c in sim["cards"]]


def test_the_deckbuilder_shows_the_gnashers_intent_a_loss_costs_the_seat_and_simulate_measures_it():
    """The bundled deckbuilder (issue 33): before the first turn the
    Gnasher's row of ``intents`` is its opening Gnash for 11; a seat that
    only ends its turns is slain, a loss; ``simulate`` of either encounter
    returns the health left and the turns with their intervals."""
    env = grimoire.env("deckbuilder", seed=1)
    env.reset(seed=1)
    observation, _, _, _, _ = env.last()
    assert list(env.fields(observation["observation"])["intents"][1]) == [1, 0, 0, 11]
    end = [i for i, text in env.legal_actions() if text == "end the turn"]
    assert end, env.legal_actions()
    for agent in env.agent_iter(max_iter=2_000):
        _, reward, termination, truncation, info = env.last()
        if termination or truncation:
            assert termination and info["outcome"] == "loss", info
            env.step(None)
            continue
        env.step(end[0])
    for encounter in ["gnasher", "pair"]:
        sim = grimoire.simulate("deckbuilder", games=200, seed=1, encounter=encounter)
        assert sim["encounter"] == encounter
        seat = sim["seats"][0]
        assert seat["wins"] + seat["losses"] == 200
        for metric in ["health-left", "turns"]:
            m = sim["metrics"][metric]
            assert m["low"] <= m["mean"] <= m["high"], (metric, m)


@pytest.mark.parametrize("players", [3, 4])
def test_deduction_by_three_and_four_passes_api_test_and_its_spaces_follow_the_count(players):
    env = grimoire.env("deduction", seed=1, players=players)
    said = api_test_warnings(env, num_cycles=200)
    assert said <= set(EXPECTED_WARNINGS), said - set(EXPECTED_WARNINGS)
    env.reset(seed=2)
    assert env.possible_agents == [f"p{n}" for n in range(1, players + 1)]
    two = grimoire.env("deduction", seed=1)
    two.reset(seed=2)
    assert two.possible_agents == ["p1", "p2"]
    # More seats to see and to aim at: both spaces grow with the count.
    grown = env.observation_space("p1")["observation"].shape[0]
    assert grown > two.observation_space("p1")["observation"].shape[0]
    assert env.action_space("p1").n > two.action_space("p1").n
    # Played to the end by random agents, every move legal.
    rng = np.random.default_rng(players)
    for agent in env.agent_iter(max_iter=5000):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert not env.agents


def test_a_count_of_players_out_of_the_range_raises_saying_it():
    with pytest.raises(ValueError, match="played by 2 to 4 players, not 5"):
        grimoire.env("deduction", players=5)
    with pytest.raises(ValueError, match="played by 2 to 4 players, not 1"):
        grimoire.Match("deduction", players=1)


def test_a_sentry_played_on_nothing_with_a_rank_is_refused_for_that_reason():
    # A Sentry whose only opponent is protected plays on nothing, with no
    # rank: the index of the same play with a rank says why it is refused.
    rng = np.random.default_rng(7)
    for seed in range(1, 200):
        match = grimoire.Match("deduction", seed=seed)
        for _ in range(400):
            if match.outcome() is not None:
                break
            legal = match.legal_actions()
            on_nothing = [i for i, words in legal if words.startswith("play Sentry") and " at " not in words]
            if on_nothing:
                with pytest.raises(ValueError) as refused:
                    match.step(on_nothing[0] + 1)
                said = str(refused.value)
                assert "Sentry is played on nothing: it names no option" in said, said
                assert "costs" not in said, said
                return
            match.step(int(rng.choice([i for i, _ in legal])))
    pytest.fail("no Sentry was ever played on nothing")


def test_the_tree_search_moves_for_the_agent():
    """``policy_action("mcts:30")``: a legal move, the same from the same seed."""
    moves = []
    for _ in range(2):
        env = grimoire.env("arcomage", seed=3)
        env.reset(seed=3)
        observation = env.observe(env.agent_selection)
        move = env.policy_action("mcts:30")
        assert move is not None and observation["action_mask"][move] == 1
        moves.append(move)
    assert moves[0] == moves[1]
