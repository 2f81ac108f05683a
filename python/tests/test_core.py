"""check, eval, simulate and merge: the same results as the CLI's JSON."""

import csv
import importlib.util
import io
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import grimoire

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess:
    """The grimoire CLI of this checkout (built by cargo if needed)."""
    binary = os.environ.get("GRIMOIRE_BIN")
    command = [binary] if binary else ["cargo", "run", "--quiet", "--release", "--"]
    return subprocess.run(command + list(args), cwd=ROOT, capture_output=True, text=True)


def cli_json(*args: str):
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_simulate_equals_the_cli():
    ours = grimoire.simulate("arcomage", games=500, seed=3, ai=["greedy", "random"])
    theirs = cli_json("simulate", "arcomage", "--games", "500", "--seed", "3", "--ai", "greedy", "--ai", "random", "--format", "json")
    assert ours == theirs
    assert ours["games"] == 500
    assert isinstance(ours, grimoire.Simulation)


def test_simulate_with_a_count_of_players_equals_the_cli():
    ours = grimoire.simulate("deduction", games=200, seed=3, players=3)
    theirs = cli_json("simulate", "deduction", "--games", "200", "--seed", "3", "--players", "3", "--format", "json")
    assert ours == theirs
    assert [s["seat"] for s in ours["seats"]] == ["p1", "p2", "p3"]


def test_simulate_is_the_same_for_any_thread_count():
    one = grimoire.simulate("duel", games=200, seed=5, threads=1)
    two = grimoire.simulate("duel", games=200, seed=5, threads=2)
    assert one == two


def test_simulate_with_a_change_equals_the_cli():
    ours = grimoire.simulate("arcomage", games=200, seed=2, changes=[("Dragon", "cost", 12)])
    theirs = cli_json("simulate", "arcomage", "--games", "200", "--seed", "2", "--change", "Dragon:cost=12", "--format", "json")
    assert ours == theirs
    assert ours["deck"]["changes"] == ["Dragon:cost=12"]


def test_shards_merge_to_the_whole_run():
    whole = grimoire.simulate("arcomage", games=300, seed=8)
    shards = [grimoire.simulate("arcomage", games=300, seed=8, shard=(k, 3)) for k in (3, 1, 2)]
    assert [s["games"] for s in shards] == [100, 100, 100]
    assert grimoire.merge(shards) == whole
    # As JSON text too, as files or Ray hand them over.
    assert grimoire.merge(json.dumps(s) for s in shards) == whole


def test_shards_merged_by_the_cli_equal_the_python_merge(tmp_path):
    files = []
    for k in (1, 2):
        path = tmp_path / f"{k}.json"
        path.write_text(json.dumps(grimoire.simulate("tbwg", games=40, seed=1, shard=(k, 2))))
        files.append(str(path))
    assert cli_json("merge", *files, "--format", "json") == grimoire.simulate("tbwg", games=40, seed=1)


def test_a_missing_shard_raises():
    shards = [grimoire.simulate("arcomage", games=30, seed=1, shard=(k, 3)) for k in (1, 3)]
    with pytest.raises(grimoire.GrimoireError, match="shard 2/3 missing") as e:
        grimoire.merge(shards)
    assert e.value.code == 1


def test_card_rows_and_pandas():
    figures = grimoire.simulate("arcomage", games=200, seed=1)
    rows = figures.card_rows()
    assert len(rows) == 102
    assert {"card", "in_hand", "improvement", "improvement_low", "play_rate"} <= set(rows[0])
    pandas = pytest.importorskip("pandas")
    frame = figures.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert frame.loc["Dragon", "in_hand"] == next(r["in_hand"] for r in rows if r["card"] == "Dragon")


def test_card_rows_and_pandas_hold_every_csv_column():
    figures = grimoire.simulate("arcomage", games=200, seed=1)
    done = cli("simulate", "arcomage", "--games", "200", "--seed", "1", "--format", "csv")
    assert done.returncode == 0, done.stderr
    table = list(csv.DictReader(io.StringIO(done.stdout)))
    rows = {r["card"]: r for r in figures.card_rows()}
    missing = [column for column in table[0] if column not in rows["Dragon"]]
    assert not missing, missing
    for line in table:
        assert int(line["not_seen_games"]) == rows[line["card"]]["not_seen_games"], line["card"]
    pandas = pytest.importorskip("pandas")
    frame = figures.to_pandas()
    assert frame.loc["Dragon", "not_seen_games"] == rows["Dragon"]["not_seen_games"]


def test_grimoire_ray_is_there_after_import_grimoire_or_says_what_it_needs():
    # In a fresh interpreter: only `import grimoire`, as the README writes it.
    program = "import grimoire\nprint(callable(grimoire.ray.simulate))\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    if importlib.util.find_spec("ray") is not None:
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "True"
    # Without Ray: an ImportError that says how to get it, and nothing else breaks.
    blocked = "import sys\nsys.modules['ray'] = None\n" + program
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
    assert done.returncode == 1
    assert 'ImportError: grimoire.ray needs Ray: pip install "./python[ray]"' in done.stderr, done.stderr
    with pytest.raises(AttributeError):
        grimoire.no_such_thing  # noqa: B018


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="unknown AI"):
        grimoire.simulate("arcomage", games=10, seed=1, ai="clever")
    with pytest.raises(grimoire.GrimoireError) as e:
        grimoire.simulate("no-such-rules", games=10, seed=1)
    assert e.value.code == 2
    with pytest.raises(grimoire.GrimoireError, match="0 or more") as e:
        grimoire.simulate("arcomage", games=10, seed=1, changes=[("Dragon", "cost", ":lots")])
    assert e.value.code == 1


def test_eval_equals_the_cli():
    effects = "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]"
    ours = grimoire.eval("arcomage", effects, state={"you.wall": 0})
    theirs = cli_json("eval", "--rules", "arcomage", "--set", "you.wall=0", effects, "--format", "json")
    assert ours == theirs
    assert ours["state"]["you"]["wall"] == 6


def test_eval_errors_carry_located_diagnostics():
    with pytest.raises(grimoire.GrimoireError) as e:
        grimoire.eval("arcomage", "[{:effected :you :resource :quary :amount 1}]")
    assert e.value.code == 1
    (d,) = e.value.diagnostics
    assert "quarry" in json.dumps(d)
    assert d["line"] == 1 and d["column"] > 1
    assert "quary" in str(e.value)


def test_check_returns_the_cli_diagnostics(tmp_path):
    assert grimoire.check([ROOT / "rules", ROOT / "cards", ROOT / "effects"]) == []
    bad = tmp_path / "arcomage"
    bad.mkdir()
    (bad / "bad.edn").write_text('{:card "Miners" :type :bricks :cost 3\n :effects [{:effected :you :resource :quary :amount 1}]}\n')
    ours = grimoire.check(str(bad), rules="arcomage")
    done = cli("check", "--rules", "arcomage", str(bad), "--format", "json")
    assert done.returncode == 1
    assert ours == json.loads(done.stdout)
    assert len(ours) == 1 and ours[0]["line"] == 2


def test_a_bad_change_raises_with_the_located_diagnostic():
    with pytest.raises(grimoire.GrimoireError) as e:
        grimoire.simulate("arcomage", games=10, seed=1, changes=[("Dragon", "cost", ":lots")])
    assert e.value.code == 1
    (d,) = e.value.diagnostics
    assert d["path"].endswith("beasts.edn>") and (d["line"], d["column"]) == (150, 37)
    assert "0 or more" in d["message"]
    # The message says where, then the verdict.
    assert str(e.value).splitlines() == [
        f"{d['path']}:150:37: error: {d['message']}",
        "error: the deck does not check (1 error); not starting",
    ]


def test_grimoire_error_pickles_whole():
    error = grimoire.GrimoireError("bad", 1, [{"path": "a.edn", "line": 2, "column": 3}])
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is grimoire.GrimoireError
    assert (str(again), again.code, again.diagnostics) == ("bad", 1, [{"path": "a.edn", "line": 2, "column": 3}])
    # One raised by grimoire, too.
    with pytest.raises(grimoire.GrimoireError) as e:
        grimoire.eval("arcomage", "[{:effected :you :resource :quary :amount 1}]")
    again = pickle.loads(pickle.dumps(e.value))
    assert (str(again), again.code, again.diagnostics) == (str(e.value), 1, e.value.diagnostics)


def test_a_path_that_cannot_be_read_raises_with_the_clis_io_diagnostics(tmp_path):
    missing = tmp_path / "nonexistent-dir"
    done = cli("check", str(missing), "--format", "json")
    assert done.returncode == 2
    with pytest.raises(grimoire.GrimoireError) as e:
        grimoire.check(missing)
    assert e.value.code == 2
    assert e.value.diagnostics == json.loads(done.stdout)
    (d,) = e.value.diagnostics
    assert d["kind"] == "io" and d["path"] == str(missing) and "No such file" in d["message"]
    assert str(missing) in str(e.value) and "No such file" in str(e.value)
    # Beside readable files, their diagnostics come in the same list.
    bad = tmp_path / "arcomage"
    bad.mkdir()
    (bad / "bad.edn").write_text('{:card "Miners" :type :bricks :cost 3\n :effects [{:effected :you :resource :quary :amount 1}]}\n')
    with pytest.raises(grimoire.GrimoireError) as e:
        grimoire.check([bad, missing], rules="arcomage")
    done = cli("check", "--rules", "arcomage", str(bad), str(missing), "--format", "json")
    assert done.returncode == 2
    assert e.value.diagnostics == json.loads(done.stdout)
    assert [d.get("kind") for d in e.value.diagnostics][-1] == "io" and len(e.value.diagnostics) == 2


BOUT = str(ROOT / "tests/data/metrics/rules/bout.edn")


def test_simulate_returns_the_declared_metrics_as_the_cli_prints_them():
    ours = grimoire.simulate(BOUT, games=300, seed=4)
    assert ours == cli_json("simulate", BOUT, "--games", "300", "--seed", "4", "--format", "json")
    metrics = ours["metrics"]
    assert list(metrics) == ["health-left", "damage-taken", "turns-taken", "turns", "cards-drawn"]
    turns = metrics["turns"]
    # Every seat counts every turn: the metric is the game's length.
    assert turns["mean"] == pytest.approx(ours["mean_turns"])
    assert turns["low"] < turns["mean"] < turns["high"] and turns["n"] == 300
    assert [s["seat"] for s in turns["seats"]] == ["p1", "p2"]
    haymaker = next(c for c in metrics["health-left"]["cards"] if c["card"] == "Haymaker")
    assert haymaker["improvement"]["significant"] and haymaker["improvement"]["value"] > 0
    # Shards carry the metrics' sums, and merge to the whole run's.
    shards = [grimoire.simulate(BOUT, games=300, seed=4, shard=(k, 2)) for k in (2, 1)]
    assert grimoire.merge(shards) == ours


def test_card_rows_hold_the_metric_columns_of_the_csv():
    figures = grimoire.simulate(BOUT, games=100, seed=2)
    done = cli("simulate", BOUT, "--games", "100", "--seed", "2", "--format", "csv")
    assert done.returncode == 0, done.stderr
    table = list(csv.DictReader(io.StringIO(done.stdout)))
    rows = {r["card"]: r for r in figures.card_rows()}
    columns = [c for c in table[0] if c.startswith("metric:")]
    assert "metric:health-left:improvement_significant" in columns
    for line in table:
        row = rows[line["card"]]
        for column in columns:
            if line[column] in ("", "true", "false"):
                assert line[column] == ("" if row[column] is None else str(row[column]).lower()), column
            else:
                assert float(line[column]) == pytest.approx(row[column], abs=1e-4), column


def test_the_tree_search_is_a_policy_as_on_the_command_line():
    """``ai="mcts:20"`` is ``--ai mcts --budget 20``: the same figures, the
    spec named in them; a budget of nothing is refused, saying so."""
    ours = grimoire.simulate("duel", games=6, seed=2, ai=["mcts:20", "random"])
    theirs = cli_json("simulate", "duel", "--games", "6", "--seed", "2", "--ai", "mcts", "--budget", "20", "--ai", "random", "--format", "json")
    assert ours == theirs
    assert ours["ai"] == ["mcts:20:random:8", "random"]
    with pytest.raises(ValueError, match="budget"):
        grimoire.simulate("duel", games=1, ai="mcts:0")
