"""grimoire from Python: check card files, evaluate effects, simulate seeded
games, play them as PettingZoo environments, and spread simulations over Ray.

Every function runs the engine's own implementation of the CLI command of
the same name (``simulate`` and ``merge`` its simulation core, their figures
built from the structs the CLI prints its JSON from), so its results are
exactly what ``grimoire … --format json`` prints::

    import grimoire
    figures = grimoire.simulate("arcomage", games=1000, seed=1)
    print(figures["seats"][0]["win_rate"])
"""

from __future__ import annotations

import json
import operator
import os
import warnings
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _grimoire
from ._grimoire import Match

if TYPE_CHECKING:
    # Only for the annotations: neither is needed to import grimoire.
    import pandas  # type: ignore[import-untyped, import-not-found, unused-ignore]

    from .aec import GrimoireEnv

__all__ = [
    "GrimoireError",
    "Simulation",
    "Match",
    "check",
    "eval",
    "simulate",
    "merge",
    "env",
]

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class GrimoireError(Exception):
    """A command grimoire refused: bad input (exit code 1, with located
    ``diagnostics`` where the input had any) or a usage error (exit code 2).

    ``diagnostics`` holds the same dictionaries ``check --format json``
    prints: file, line, column, severity, message and the rest.

    It pickles with all three (message, ``code``, ``diagnostics``), so an
    error raised in a Ray task or another process arrives whole.
    """

    def __init__(self, message: str, code: int, diagnostics: Optional[List[Dict[str, Any]]] = None):
        super().__init__(message)
        self.code = code
        self.diagnostics: List[Dict[str, Any]] = list(diagnostics or [])

    def __reduce__(self) -> Tuple[Any, Tuple[str, int, List[Dict[str, Any]]]]:
        # Exception pickles only ``args`` (the message) by default, which
        # ``__init__`` cannot be called with.
        return (type(self), (str(self), self.code, self.diagnostics))


def _run(printed: Tuple[int, str, str]) -> Any:
    """The JSON a command printed, or GrimoireError when it failed."""
    code, stdout, stderr = printed
    if code == 0:
        return json.loads(stdout)
    diagnostics: List[Dict[str, Any]] = []
    if stdout.strip():
        try:
            found = json.loads(stdout)
            if isinstance(found, list):
                diagnostics = found
        except ValueError:
            pass
    # Where and what, one line per diagnostic, then what the command said.
    lines = [_describe(d) for d in diagnostics]
    if stderr.strip():
        lines.append(stderr.strip())
    raise GrimoireError("\n".join(lines) or f"grimoire failed (exit code {code})", code, diagnostics)


def _figures(result: Tuple[int, Optional[Dict[str, Any]], str, str]) -> Dict[str, Any]:
    """The figures a run gave (what the CLI notes beside them, such as
    ``threads`` past the machine's cores, as a warning), or GrimoireError
    when it was refused."""
    code, figures, stdout, stderr = result
    if code == 0 and figures is not None:
        for note in stderr.splitlines():
            warnings.warn(note.removeprefix("note: "), stacklevel=3)
        return figures
    return _run((code or 2, stdout, stderr))  # raises


def _describe(d: Mapping[str, Any]) -> str:
    where = ":".join(str(d[k]) for k in ("path", "line", "column") if k in d)
    return f"{where}: {d.get('severity', 'error')}: {d.get('message', '')}"


def _path(path: PathLike) -> str:
    """A path as the engine takes it: ``str``, ``bytes`` (decoded as the
    file system names files) or any ``os.PathLike``; never ``str(b"…")``."""
    return os.fsdecode(path)


def _paths(paths: Union[PathLike, Iterable[PathLike], None]) -> List[str]:
    if paths is None:
        return []
    if isinstance(paths, (str, bytes, os.PathLike)):
        return [_path(paths)]
    return [_path(p) for p in paths]


def _integer(name: str, value: Any) -> int:
    """A state's value as given, refused when it is not an integer (1.9
    would have been set as 1): ints and int-likes (numpy's), and floats with
    no fraction."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
        if isinstance(value, float) and value.is_integer():
            return int(value)
    raise ValueError(f"state[{name!r}] = {value!r}: a state's values are integers")


def check(paths: Union[PathLike, Iterable[PathLike]], rules: Optional[PathLike] = None) -> List[Dict[str, Any]]:
    """Checks rule-set, card and effect files (and folders of them) and
    returns every diagnostic, as ``grimoire check PATHS --format json``.

    Errors in the files are returned, not raised: an empty list means clean.
    ``rules`` names the rule set cards are checked against (a bundled name
    such as ``"arcomage"``, or a rule-set file).

    A path that cannot be read (missing, unreadable) is not a verdict on the
    files, so, as the CLI exits 2 for it, it raises GrimoireError with
    ``code`` 2 and ``diagnostics`` the whole list the CLI prints: one
    ``{"path": …, "severity": "error", "kind": "io", "message": …}`` (no
    line) per such path, after the diagnostics of the files that could be
    read. A rule set that cannot be loaded raises too.
    """
    code, stdout, stderr = _grimoire.check(_paths(paths), None if rules is None else _path(rules))
    if code in (0, 1):
        return json.loads(stdout) if stdout.strip() else []
    return _run((code, stdout, stderr))  # raises: exit code 2


def eval(
    rules: PathLike,
    effects: str,
    state: Optional[Mapping[str, int]] = None,
    seed: int = 0,
    statuses: Sequence[str] = (),
    then: Sequence[str] = (),
) -> Dict[str, Any]:
    """Applies ``effects`` (in grimoire's language) to a state of ``rules``
    and returns ``{"state": …, "events": […]}``, as ``grimoire eval --format json``.

    ``state`` sets values before the effects run, as ``--set``:
    ``{"you.wall": 0, "other.tower": 5}``; a value that is not an integer
    (``1.9``) raises ValueError. ``seed`` seeds the generator
    (chance, dice). ``statuses`` (``"hero=weakness"``) are acquired first,
    ``then`` names timings run after. Raises GrimoireError, with the located
    diagnostics, when the effects do not check.
    """
    sets = [f"{k}={_integer(k, v)}" for k, v in (state or {}).items()]
    return _run(_grimoire.eval(_path(rules), effects, sets, seed, list(statuses), list(then)))


class Simulation(dict):
    """The figures of ``grimoire simulate --format json``, as a dict, with
    helpers for tables. A rule set's declared metrics are under
    ``"metrics"``, by name: ``figures["metrics"]["health-left"]["mean"]``,
    its ``low``/``high``/``n``, ``seats`` and ``cards``."""

    def card_rows(self) -> List[Dict[str, Any]]:
        """One flat row per card (both seats together): every column of
        ``simulate --format csv``, each rate's interval in ``_low``/``_high``."""
        rows = []
        for card in self.get("cards", []):
            row: Dict[str, Any] = {"card": card["card"]}
            for key in ("in_hand", "played", "played_games"):
                row[key] = card[key]
            # The n of not_seen_wr, as the CSV's column of that name.
            row["not_seen_games"] = card["not_seen_wr"]["n"]
            for key in ("discarded", "mean_turn"):
                row[key] = card[key]
            for key in ("play_rate", "in_hand_wr", "played_wr", "not_seen_wr"):
                row[key] = card[key]["rate"]
                row[key + "_low"] = card[key]["low"]
                row[key + "_high"] = card[key]["high"]
            improvement = card["improvement"]
            row["improvement"] = improvement["value"]
            row["improvement_low"] = improvement["low"]
            row["improvement_high"] = improvement["high"]
            row["improvement_significant"] = improvement["significant"]
            rows.append(row)
        self._metric_columns(rows)
        return rows

    def _metric_columns(self, rows: List[Dict[str, Any]]) -> None:
        """Adds each declared metric's columns to ``rows`` (in card order),
        named as the CSV names them: ``metric:NAME:in_hand`` and its
        ``_low``/``_high``, the same for ``played`` and ``not_seen``, and
        ``metric:NAME:improvement`` with its interval and significance; a
        mean of no game, or a difference without two games a side, is None."""
        for name, metric in self.get("metrics", {}).items():
            for row, card in zip(rows, metric["cards"]):
                prefix = f"metric:{name}:"
                for part in ("in_hand", "played", "not_seen"):
                    mean = card[part]
                    empty = mean["n"] == 0
                    row[prefix + part] = None if empty else mean["mean"]
                    row[prefix + part + "_low"] = None if empty else mean["low"]
                    row[prefix + part + "_high"] = None if empty else mean["high"]
                known = card["in_hand"]["n"] >= 2 and card["not_seen"]["n"] >= 2
                improvement = card["improvement"]
                for key, field in (("", "value"), ("_low", "low"), ("_high", "high"), ("_significant", "significant")):
                    row[prefix + "improvement" + key] = improvement[field] if known else None

    def to_pandas(self) -> "pandas.DataFrame":
        """The per-card table as a pandas DataFrame indexed by card (needs
        pandas: ``pip install "./python[pandas]"``)."""
        try:
            import pandas  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("to_pandas() needs pandas: pip install pandas") from e
        return pandas.DataFrame(self.card_rows()).set_index("card")


def simulate(
    rules: PathLike,
    games: int = 1000,
    seed: int = 1,
    ai: Union[str, Sequence[str]] = "random",
    cards: Union[PathLike, Iterable[PathLike], None] = None,
    threads: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    sort: Optional[str] = None,
    changes: Iterable[Tuple[str, str, Any]] = (),
    encounter: Optional[str] = None,
    players: Optional[int] = None,
) -> Simulation:
    """Plays ``games`` seeded games of ``rules`` and returns their figures,
    exactly as ``grimoire simulate RULES --games GAMES --seed SEED --format json``.

    ``ai`` is one policy for every seat or one per seat (``"random"``,
    ``"greedy"``, ``"search"``, ``"mcts"``; the tree search with its budget
    as ``--ai`` takes it, ``"mcts:300"`` or ``"mcts:300:greedy:4"``);
    ``cards`` replaces the bundled deck;
    ``threads`` caps the worker threads (the figures never depend on it;
    more than the machine's cores runs one per core, with a warning);
    ``shard=(k, n)`` plays only the kth of n shares of the run, whose result
    :func:`merge` adds up with the others; ``changes`` are made to the
    deck's cards first, each ``(card, key, value)`` as ``--change
    CARD:KEY=VALUE`` (``("Dragon", "cost", 24)``; a value is written as in a
    card file, so a keyword is ``":gems"``); ``encounter`` sets every game
    up as that one of the rule set's ``:encounters`` (``--encounter``);
    ``players`` plays a rule set with ``:players`` by that many of its
    seats (``--players``).
    """
    policies = [ai] if isinstance(ai, str) else list(ai)
    changed = [_change(c) for c in changes]
    return Simulation(
        _figures(
            _grimoire.simulate(
                _path(rules), games, seed, policies, _paths(cards), threads, shard, sort, changed, encounter, players
            )
        )
    )


def _change(change: Tuple[str, str, Any]) -> Tuple[str, str, str]:
    card, key, value = change
    if isinstance(value, bool):
        text = "true" if value else "false"
    else:
        text = str(value)
    return (str(card), str(key), text)


def merge(shards: Iterable[Union[str, Mapping[str, Any]]]) -> Simulation:
    """Adds up the shards of one run (each the result of ``simulate(...,
    shard=(k, n))``, or its JSON text) into the whole run's figures, exactly
    as ``grimoire merge --format json``."""
    texts = [s if isinstance(s, str) else json.dumps(s) for s in shards]
    return Simulation(_figures(_grimoire.merge(texts)))


def __getattr__(name: str) -> Any:
    """``grimoire.ray`` on first use, so that ``import grimoire`` alone is
    enough for ``grimoire.ray.simulate(…)`` and yet never needs Ray."""
    if name == "ray":
        import importlib

        try:
            return importlib.import_module(".ray", __name__)
        except ModuleNotFoundError as e:
            if e.name != "ray":
                raise
            raise ImportError('grimoire.ray needs Ray: pip install "./python[ray]"') from e
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def env(
    rules: PathLike,
    seed: Optional[int] = None,
    cards: Union[PathLike, Iterable[PathLike], None] = None,
    **kwargs: Any,
) -> "GrimoireEnv":
    """A PettingZoo AEC environment playing ``rules``: a rule set of the
    project, a bundled one, or a rule-set file (whose deck is the
    ``cards/NAME/`` beside its ``rules/`` folder, or ``cards``), see
    :mod:`grimoire.aec`; ``encounter="brute"`` sets its games up as that
    one of the rule set's ``:encounters``; ``players=3`` plays a rule set
    with ``:players`` by that many seats (its agents, observation and
    action spaces follow); needs ``pip install "./python[env]"``."""
    from .aec import GrimoireEnv

    return GrimoireEnv(rules, seed=seed, cards=cards, **kwargs)
