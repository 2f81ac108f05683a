"""PettingZoo environments for grimoire's rule sets.

``grimoire.env("arcomage", seed=1)`` is an AEC environment (the interface of
PettingZoo's classic card games): one agent per seat, taking turns as the
rule set's turn machine says.

- **Actions** are numbers. In a rule set played with cards alone, ``i``
  plays the card at hand position ``i`` and ``H + i`` discards it (``H`` is
  twice the hand size, so hands that grow past it still fit). In a rule set
  with ``:actions`` (tactics), a move is its place in the engine's list of
  legal moves (at most 512).
- **Observations** are ``{"observation": …, "action_mask": …}``: every value
  of the game's first entities (zero past the last), how many of each card
  of the deck are in the agent's own hand, and which seat it is (one 1);
  the mask marks the legal moves.
- **Rewards** come at the end: +1 to the winner, −1 to every other seat, 0 to
  all on a tie or at the turn limit. A game the rules end (a win, a tie, no
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

The built-in policies play a seat with ``env.policy_action("greedy")``.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Iterable, List, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

from . import PathLike, _paths
from ._grimoire import Match

_LOW = np.iinfo(np.int64).min
_HIGH = np.iinfo(np.int64).max


class GrimoireEnv(AECEnv):
    """An AEC environment playing one grimoire rule set (see the module's doc)."""

    metadata: Dict[str, Any] = {"name": "grimoire_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        rules: str,
        seed: Optional[int] = None,
        cards: Union[PathLike, Iterable[PathLike], None] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: the modes are {self.metadata['render_modes']}")
        self.rules = rules
        self.render_mode = render_mode
        self._cards: List[str] = _paths(cards)
        first = 0 if seed is None else int(seed)
        self._match = Match(rules, first, self._cards)
        self._restart(first)
        self.possible_agents = list(self._match.seats)
        n = self._match.action_count
        size = self._match.observation_size
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=_LOW, high=_HIGH, shape=(size,), dtype=np.int64),
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
        mask = np.zeros(self._match.action_count, dtype=np.int8)
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
        """The move grimoire's built-in ``policy`` (random, greedy or search)
        makes for the agent to move, or None when it has none."""
        return self._match.choose(policy)

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        outcome = self._match.outcome()
        status = "playing" if outcome is None else f"over: {outcome[0]}"
        return f"{self.rules} · turn {self._match.turn} · {self.agent_selection} to move · {status}"

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
            self.infos = {a: {"outcome": kind, "turn": self._match.turn} for a in self.agents}
        elif not self._match.legal():
            # Nothing the seat to move may do: the game cannot go on.
            for a in self.agents:
                self.truncations[a] = True
            self.infos = {a: {"outcome": "stuck", "turn": self._match.turn} for a in self.agents}
        self.agent_selection = self.possible_agents[self._match.current]
