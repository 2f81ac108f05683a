"""PettingZoo environments for grimoire's rule sets.

``grimoire.env("arcomage", seed=1)`` is an AEC environment (the interface of
PettingZoo's classic card games): one agent per seat, taking turns as the
rule set's turn machine says.

- **Actions** are indices of the rule set's fixed action space: each index
  means one thing in every game (``env.action_to_string(i)``). First the
  plays, one per hand slot × target × option (one per slot for a deck whose
  cards choose no target and no option), then ``H`` indices discarding the
  card in slot ``i`` (``H`` is the hand size plus the most cards one card
  draws; with ``:zones``, what the ``:plays`` zone holds, and discard indices
  only where a card can leave the hand by its seat's choice); with ``:plays
  :many``, one index that ends the turn; with reactions, one that passes;
  then, for each action of ``:actions`` in declaration order, one index per
  actor × target × option. An entity is named by its rank: its place among
  the entities of its kind in the order they entered play (``hero: move
  cell-2-3``; a spawned kind has 16 ranks beyond the setup's); a card
  instance by its place, counted from the seat acting (``your board slot 0:
  attack the other's board slot 1``). ``env.legal_actions()`` lists the
  legal ones with what each does now (``play Ogre (slot 3)``).
- **Observations** are ``{"observation": …, "action_mask": …}``: a flat
  vector of integers, what the agent's seat may see (its own hand card by
  card, the other hands and the draw piles only counted, invisible statuses
  only when it is their source; with ``:zones``, every pile as its view
  shows it: boards slot by slot, hidden piles counted with the cards it
  knows there), bounded in the space; ``env.fields(obs)``
  cuts it into named arrays (``seat``, ``turn``, ``entities``,
  ``statuses``, ``zone:hand:me``…; ``env.observation_layout()`` says what
  each holds; python/README.md lists them per bundled rule set and for
  the skirmish fixture). The mask
  marks the legal moves of the agent to move (all zeros for the others).
- **Rewards** come at the end: +1 to the winner, −1 to every other seat, 0 to
  all on a tie or at the turn limit; a seat that loses (``:loser``, a solo
  fight lost to a scripted enemy) gets −1 and the others 0. A game the rules end (a win, a tie, no
  seat left) sets every agent's ``terminations``; a game cut off, at the rule
  set's turn limit or with the seat to move left with no legal move, sets
  their ``truncations`` instead (``infos[agent]["outcome"]`` says which:
  ``"turn-limit"`` or ``"stuck"``).
- **Seeds**, as in Gymnasium and PettingZoo: ``reset(seed=s)`` deals game
  ``s`` (the same game for the same seed) and restarts the environment's own
  generator from ``s``; ``reset()`` without a seed deals that generator's
  next game. So successive resets give different games, and the whole
  sequence is fixed by the last seed given. ``grimoire.env(rules, seed=s)``
  gives that seed to the first ``reset()``: it deals game ``s`` as
  ``reset(seed=s)`` would, and the resets after it the same games as after
  ``reset(seed=s)``. Made without a seed, an environment starts from 0.

The built-in policies play a seat with ``env.policy_action("greedy")``;
``env.render()`` (``render_mode="ansi"`` or ``"human"``) shows the view of
the agent to move as ``grimoire play --human`` shows it.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

from . import PathLike, _path, _paths
from ._grimoire import Match



class GrimoireEnv(AECEnv):
    """An AEC environment playing one grimoire rule set (see the module's doc)."""

    metadata: Dict[str, Any] = {"name": "grimoire_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        rules: PathLike,
        seed: Optional[int] = None,
        cards: Union[PathLike, Iterable[PathLike], None] = None,
        render_mode: Optional[str] = None,
        encounter: Optional[str] = None,
        players: Optional[int] = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: the modes are {self.metadata['render_modes']}")
        self.rules = _path(rules)
        self.render_mode = render_mode
        self._cards: List[str] = _paths(cards)
        first = 0 if seed is None else int(seed)
        self._match = Match(self.rules, first, self._cards, encounter, players)
        self._restart(first)
        self.possible_agents = list(self._match.seats)
        # A rule set with neither cards nor actions has nothing to choose:
        # its one index (a Discrete space needs one) is never legal.
        n = self._actions = max(self._match.action_count, 1)
        low, high = self._match.observation_bounds()
        self._layout: List[Dict[str, Any]] = self._match.observation_layout()
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=np.asarray(low, dtype=np.int64), high=np.asarray(high, dtype=np.int64), dtype=np.int64
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _restart(self, seed: int) -> None:
        """The next reset deals game ``seed``; the ones after it, games drawn
        from a generator seeded ``seed``."""
        self._generator = random.Random(seed)
        self._pending: Optional[int] = seed

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Deals a new game: game ``seed`` when one is given (and the
        environment's generator starts again from it), else the generator's
        next game (see the module's doc)."""
        if seed is not None:
            self._restart(int(seed))
        if self._pending is not None:
            game, self._pending = self._pending, None
        else:
            game = self._generator.getrandbits(64)
        self._match.reset(game)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._match.current]
        self._settle()

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self._actions, dtype=np.int8)
        if agent == self.agent_selection and not self._over():
            mask[self._match.legal()] = 1
        return {
            "observation": np.asarray(self._match.observe(seat), dtype=np.int64),
            "action_mask": mask,
        }

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: step() needs a move (None is for an agent whose game is over)")
        self._cumulative_rewards[agent] = 0
        self._match.step(int(action))
        self._settle()
        self._accumulate_rewards()

    def policy_action(self, policy: str = "random") -> Optional[int]:
        """The move grimoire's built-in ``policy`` (random, greedy, search, or
        mcts with its budget: ``"mcts:200"``)
        makes for the agent to move, or None when it has none."""
        return self._match.choose(policy)

    def action_to_string(self, action: int) -> str:
        """What action index ``action`` means in every game of the rule set:
        ``play hand slot 3``, ``hero: move cell-2-3``, ``pain: sharp-hit dio (head)``."""
        return self._match.action_to_string(int(action))

    def legal_actions(self) -> List[Tuple[int, str]]:
        """The legal moves of the agent to move, each with what it does now
        (``play Ogre (slot 3)``), in increasing order of index."""
        if self._over():
            return []
        return self._match.legal_actions()

    def observation_layout(self) -> List[Dict[str, Any]]:
        """The observation's fields, in order: each a dict of ``name``,
        ``offset``, ``shape``, ``low``, ``high`` and ``doc``."""
        return [dict(f) for f in self._layout]

    def fields(self, observation: Union[Dict[str, np.ndarray], np.ndarray, Sequence[int]]) -> Dict[str, np.ndarray]:
        """An observation (the dict :meth:`observe` returns, or its flat
        ``"observation"``) cut into its named fields, each shaped as
        :meth:`observation_layout` says (views, not copies)."""
        flat = observation["observation"] if isinstance(observation, dict) else observation
        flat = np.asarray(flat)
        return {f["name"]: flat[f["offset"] : f["offset"] + int(np.prod(f["shape"]))].reshape(f["shape"]) for f in self._layout}

    def render(self) -> Optional[str]:
        """The view of the agent to move, as ``grimoire play --human`` shows
        it, under a line saying where the game is: returned with
        ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            return None
        outcome = self._match.outcome()
        status = "playing" if outcome is None else f"over: {outcome[0]}"
        seat = self.possible_agents.index(self.agent_selection)
        text = f"{self._match.name} · turn {self._match.turn} · {self.agent_selection} to move · {status}\n"
        text += self._match.render(seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def _over(self) -> bool:
        return any(self.terminations.values()) or any(self.truncations.values())

    def _settle(self) -> None:
        """After a move: who moves next, and at the end the rewards."""
        outcome = self._match.outcome()
        if outcome is not None:
            kind, winner = outcome
            # A step that ran out of a budget: the rule set does unbounded
            # work, which no agent should learn from as a result.
            if kind.startswith("aborted"):
                from . import GrimoireError

                raise GrimoireError(f"the game was {kind}", 1)
            # The turn limit cuts the game short: the rules did not end it.
            ended = self.truncations if kind == "turn-limit" else self.terminations
            for i, a in enumerate(self.possible_agents):
                ended[a] = True
                if kind == "win":
                    self.rewards[a] = 1 if i == winner else -1
                elif kind == "loss":
                    # A seat that lost (to an enemy that is no seat): -1 to it, 0 to the others.
                    self.rewards[a] = -1 if i == winner else 0
            self.infos = {a: {"outcome": kind, "turn": self._match.turn} for a in self.agents}
        elif not self._match.legal():
            # Nothing the seat to move may do: the game cannot go on.
            for a in self.agents:
                self.truncations[a] = True
            self.infos = {a: {"outcome": "stuck", "turn": self._match.turn} for a in self.agents}
        self.agent_selection = self.possible_agents[self._match.current]
