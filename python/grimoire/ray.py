"""Simulations spread over a Ray cluster: each shard of a run is one Ray
task, and the shards merge into exactly the figures one process prints for
the whole run (``grimoire simulate`` with the same seed).

On one machine, ``ray.init()`` starts a local Ray and nothing else is
contacted. On a cluster, connect first and call the same functions::

    import ray, grimoire.ray
    ray.init(address="ray://head-node:10001")   # or address="auto" on a node of the cluster
    figures = grimoire.ray.simulate("arcomage", games=10_000_000, seed=1, shards=64)

Every worker needs the ``grimoire`` package installed (``pip install ./python``,
or a ``runtime_env``), and the rule set and card files at the same paths: the
bundled rule sets need nothing more.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

import ray

import grimoire

__all__ = ["simulate", "sweep"]


@ray.remote
def _shard(
    rules: str,
    games: int,
    seed: int,
    ai: List[str],
    cards: List[str],
    shard: Tuple[int, int],
    sort: Optional[str],
    changes: List[Tuple[str, str, Any]],
) -> dict:
    # One core per task: Ray runs as many tasks at once as the cluster has cores.
    return grimoire.simulate(
        rules, games, seed, ai=ai, cards=cards, threads=1, shard=shard, sort=sort, changes=changes
    )


def _policies(ai: Union[str, Sequence[str]]) -> List[str]:
    return [ai] if isinstance(ai, str) else list(ai)


def _paths(cards: Union[grimoire.PathLike, Iterable[grimoire.PathLike], None]) -> List[str]:
    return grimoire._paths(cards)


def simulate(
    rules: str,
    games: int,
    seed: int,
    shards: Optional[int] = None,
    ai: Union[str, Sequence[str]] = "random",
    cards: Union[str, Iterable[str], None] = None,
    sort: Optional[str] = None,
) -> "grimoire.Simulation":
    """``grimoire.simulate(rules, games, seed, …)`` run as ``shards`` Ray
    tasks (default: the cluster's CPUs) and merged: the same figures."""
    shards = _ready(shards)
    return grimoire.merge(_gather(_shards(rules, games, seed, shards, ai, cards, sort, [])))


def _gather(tasks: List["ray.ObjectRef[Any]"]) -> List[Any]:
    """The tasks' results; a GrimoireError raised in a task (a change the card
    may not have, say) is raised here as it was, with its code and located
    diagnostics, rather than wrapped in Ray's task error."""
    try:
        return list(ray.get(tasks))
    except ray.exceptions.RayTaskError as e:
        if isinstance(e.cause, grimoire.GrimoireError):
            raise e.cause from None
        raise


def _ready(shards: Optional[int]) -> int:
    """Starts a local Ray unless one is connected; the shards a run is split
    into (default: the cluster's CPUs)."""
    if not ray.is_initialized():
        ray.init()
    if shards is None:
        shards = max(1, int(ray.cluster_resources().get("CPU", 1)))
    return shards


def _shards(rules, games, seed, shards, ai, cards, sort, changes) -> list:
    """The Ray tasks of one run's shards."""
    if shards < 1:
        raise ValueError(f"shards={shards}: give 1 or more")
    policies, paths = _policies(ai), _paths(cards)
    return [
        _shard.remote(rules, games, seed, policies, paths, (k, shards), sort, list(changes))
        for k in range(1, shards + 1)
    ]


def sweep(
    rules: str,
    changes: Iterable[Tuple[str, str, Any]],
    games: int,
    seed: int,
    shards: Optional[int] = None,
    ai: Union[str, Sequence[str]] = "random",
    cards: Union[str, Iterable[str], None] = None,
    sort: Optional[str] = None,
) -> List[Tuple[Tuple[str, str, Any], "grimoire.Simulation"]]:
    """One run per change, each on the same seeds and each sharded over the
    cluster: a change is ``(card, key, value)``, such as ``("Dragon",
    "cost", 24)``, made to the deck before its games (``simulate
    --change``). Every run's tasks are submitted before any result is
    awaited, so the cluster works on all of them at once. Returns
    ``[(change, figures), …]`` in the order given; each equals
    ``grimoire.simulate(rules, games, seed, changes=[change], …)``. A change
    the card may not have raises GrimoireError with the located diagnostic,
    as ``grimoire.simulate`` does.

    A sweep of Dragon's cost from 22 to 28::

        grimoire.ray.sweep("arcomage", [("Dragon", "cost", c) for c in range(22, 29)], games=100_000, seed=1)
    """
    shards = _ready(shards)
    runs = [
        (tuple(change), _shards(rules, games, seed, shards, ai, cards, sort, [tuple(change)]))
        for change in changes
    ]
    return [(change, grimoire.merge(_gather(tasks))) for change, tasks in runs]
