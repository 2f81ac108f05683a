"""grimoire.ray on a local Ray instance (ray.init() here: no other address
is contacted): the sharded run equals the single-process figures."""

import pytest

ray = pytest.importorskip("ray")

import grimoire  # noqa: E402
import grimoire.ray  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_sharded_simulation_equals_one_process():
    ours = grimoire.ray.simulate("arcomage", games=2000, seed=5, shards=4)
    assert ours == grimoire.simulate("arcomage", games=2000, seed=5)
    assert ours["games"] == 2000


def test_other_rule_sets_and_policies():
    ours = grimoire.ray.simulate("duel", games=300, seed=2, shards=3, ai=["greedy", "random"])
    assert ours == grimoire.simulate("duel", games=300, seed=2, ai=["greedy", "random"])


def test_a_sweep_equals_each_changed_run():
    changes = [("Dragon", "cost", cost) for cost in (22, 25, 28)]
    results = grimoire.ray.sweep("arcomage", changes=changes, games=400, seed=3, shards=2)
    assert [change for change, _ in results] == changes
    for change, figures in results:
        assert figures == grimoire.simulate("arcomage", games=400, seed=3, changes=[change])
    costs = [figures["cards"] for _, figures in results]
    assert costs[0] != costs[2], "the cost changed nothing?"
