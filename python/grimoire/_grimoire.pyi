"""The native half of the grimoire package (PyO3). ``check`` and ``eval``
return the exit code, standard output and standard error of the CLI command
of the same name run with ``--format json``; ``simulate`` and ``merge`` return
the exit code and the figures as dictionaries (what the CLI's JSON holds), or,
refused, no figures and what the CLI prints; ``grimoire/__init__.py`` reads
them."""

from typing import Any, Dict, List, Optional, Tuple

Printed = Tuple[int, str, str]
Figures = Tuple[int, Optional[Dict[str, Any]], str, str]

def check(paths: List[str], rules: Optional[str] = None) -> Printed:
    """``grimoire check PATHS --format json``: exit code 0 (clean) or 1 with
    the list of diagnostics on standard output; 2 when a path cannot be read,
    the list then ending with one ``{"path", "severity", "kind": "io",
    "message"}`` per such path (``grimoire.check`` raises GrimoireError with
    that list), or when the rule set cannot be loaded (the reason on
    standard error)."""
    ...
def eval(
    rules: str,
    effects: str,
    sets: List[str] = ...,
    seed: Optional[int] = None,
    statuses: List[str] = ...,
    then: List[str] = ...,
) -> Printed: ...
def simulate(
    rules: str,
    games: int,
    seed: int,
    ai: List[str] = ...,
    cards: List[str] = ...,
    threads: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    sort: Optional[str] = None,
    changes: List[Tuple[str, str, str]] = ...,
    encounter: Optional[str] = None,
    players: Optional[int] = None,
) -> Figures:
    """``grimoire simulate … --format json``: exit code 0 and the figures (with
    what the CLI notes on standard error beside them, such as ``threads``
    past the machine's cores, in the last place); 1
    and the deck's located diagnostics as a JSON list on standard output (a
    change the card may not have, say), with the verdict on standard error;
    2, a usage error on standard error."""
    ...
def merge(shards: List[str]) -> Figures:
    """``grimoire merge --format json`` of the shards' JSON texts: exit code 0
    and the whole run's figures; 1 or 2 and the reason on standard error."""
    ...

class Match:
    """One game an agent plays move by move, in the rule set's fixed action
    space, observing one seat's view."""

    def __init__(
        self,
        rules: str,
        seed: int = 0,
        cards: List[str] = ...,
        encounter: Optional[str] = None,
        players: Optional[int] = None,
    ) -> None: ...
    def reset(self, seed: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def seats(self) -> List[str]: ...
    @property
    def current(self) -> int: ...
    @property
    def action_count(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def overflowed(self) -> int: ...
    def legal(self) -> List[int]: ...
    def legal_actions(self) -> List[Tuple[int, str]]: ...
    def action_to_string(self, action: int) -> str: ...
    def observe(self, seat: int) -> List[int]: ...
    def observation_layout(self) -> List[Dict[str, Any]]: ...
    def observation_bounds(self) -> Tuple[List[int], List[int]]: ...
    def render(self, seat: int) -> str: ...
    def step(self, action: int) -> None: ...
    def choose(self, policy: str) -> Optional[int]: ...
    def _redeal_unseen(self, seat: int, seed: int) -> None: ...
    def outcome(self) -> Optional[Tuple[str, Optional[int]]]: ...
