"""Bounded and faithful (issue 29): long calls release the interpreter and
stop on Ctrl-C; paths are taken as Python gives them; what cannot be meant
(a fractional value, a seat that is not there, a change of several forms, a
forged shard) raises rather than being altered or answered."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from pathlib import Path
from typing import Tuple

import pytest

import grimoire

ROOT = Path(__file__).resolve().parents[2]


def nested_each(levels: int) -> str:
    """Effects that change a wall once per player per level: 2**levels changes."""
    effect = "{:effected :self :resource :wall :amount 1}"
    for _ in range(levels):
        effect = "{:each :player :effects [%s]}" % effect
    return "[%s]" % effect


def test_eval_lets_other_python_threads_run():
    ticks = 0
    done = threading.Event()

    def ticker():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    time.sleep(0.05)
    start, before = time.perf_counter(), ticks
    result = grimoire.eval("arcomage", nested_each(15))
    elapsed, during = time.perf_counter() - start, ticks - before
    done.set()
    thread.join()
    assert len(result["events"]) == 2**15
    # Held, the interpreter lets the ticker run at most once or twice in the call.
    assert during >= max(3, elapsed / 0.01), (during, elapsed)


def interrupted_after(code: str, seconds: float) -> Tuple[str, float]:
    """Runs ``code`` in a fresh interpreter, sends it SIGINT ``seconds``
    after it says it started, and returns its standard error and how long
    it took to end after the signal (killed after 20 s)."""
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "started"
    time.sleep(seconds)
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("still running 20 s after SIGINT")
    return err, time.perf_counter() - sent


@pytest.mark.parametrize(
    "call",
    [
        'grimoire.simulate("arcomage", games=10**8, seed=1)',
        # Evaluations of a fraction of a second each (17 levels: about 500,000
        # units of work, under the 1,000,000 budget; 18 is past it), again
        # and again: the signal lands in one.
        "while True: grimoire.eval('arcomage', %r)" % nested_each(17),
    ],
    ids=["simulate", "eval"],
)
def test_ctrl_c_interrupts_a_long_call(call):
    stderr, elapsed = interrupted_after(
        f"""
        import grimoire
        print("started", flush=True)
        {call}
        """,
        1.0,
    )
    assert "KeyboardInterrupt" in stderr, stderr[-600:]
    assert elapsed < 3, elapsed


def test_paths_may_be_bytes_or_path_like(tmp_path):
    (tmp_path / "arcomage").mkdir()
    card = tmp_path / "arcomage" / "bad.edn"
    card.write_text('{:card "X" :type :bricks :cost 1 :text "x" :effects [{:effected :you :resource :wal :amount 1}]}\n')
    as_str = grimoire.check(str(card))
    assert len(as_str) == 1 and as_str[0]["code"] == "E0205", as_str
    for given in (os.fsencode(card), card, [os.fsencode(card)], [card]):
        assert grimoire.check(given) == as_str, given
    cards = ROOT / "cards" / "arcomage"
    figures = grimoire.simulate(os.fsencode(ROOT / "rules" / "arcomage.edn"), games=5, cards=[os.fsencode(cards)])
    assert figures["games"] == 5


def test_a_state_value_that_is_not_an_integer_raises():
    effects = "[{:effected :you :resource :wall :amount 1}]"
    for value in (1.9, "5", True, None):
        with pytest.raises(ValueError, match="a state's values are integers"):
            grimoire.eval("arcomage", effects, state={"you.wall": value})
    # Integers as Python and numpy give them, and whole floats, are taken.
    assert grimoire.eval("arcomage", effects, state={"you.wall": 4})["state"]["you"]["wall"] == 5
    assert grimoire.eval("arcomage", effects, state={"you.wall": 4.0})["state"]["you"]["wall"] == 5


def test_observing_a_seat_the_game_does_not_have_raises():
    match = grimoire.Match("arcomage", seed=1)
    assert len(match.observe(1)) == match.observation_size
    with pytest.raises(ValueError, match="seat 99: the game has 2 seats, 0 to 1"):
        match.observe(99)
    with pytest.raises(ValueError, match="seat 2"):
        match.observe(2)


def test_a_change_of_several_forms_raises():
    with pytest.raises(ValueError, match="the value must be exactly one form"):
        grimoire.simulate("arcomage", games=5, changes=[("Dragon", "cost", "1 :copies 100")])
    with pytest.raises(ValueError, match="the key must be one name"):
        grimoire.simulate("arcomage", games=5, changes=[("Dragon", "cost :copies", 1)])


def test_a_forged_shard_gives_a_short_error():
    shard = grimoire.simulate("arcomage", games=10, seed=1, shard=(1, 1))
    shard["shard"]["rules"] = "y" * (16 << 20)
    with pytest.raises(grimoire.GrimoireError) as raised:
        grimoire.merge([shard])
    assert len(str(raised.value)) < 2000
    assert "bytes more" in str(raised.value)


def test_threads_past_the_cores_warn_and_give_the_same_figures():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        many = grimoire.simulate("arcomage", games=20, seed=4, threads=10**6)
    assert [str(w.message) for w in caught if "worker thread" in str(w.message)], caught
    assert many == grimoire.simulate("arcomage", games=20, seed=4, threads=1)
