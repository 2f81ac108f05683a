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


def test_a_bad_change_raises_grimoire_error_with_the_located_diagnostic():
    with pytest.raises(grimoire.GrimoireError) as e:
        grimoire.ray.sweep("arcomage", changes=[("Dragon", "cost", ":lots")], games=30, seed=2, shards=2)
    # The error the task raised, whole: not Ray's wrapper nor an unserializable one.
    assert type(e.value) is grimoire.GrimoireError
    assert e.value.code == 1
    (d,) = e.value.diagnostics
    assert d["path"].endswith("beasts.edn>") and (d["line"], d["column"]) == (150, 37)
    assert "beasts.edn>:150:37" in str(e.value)
