"""The package type-checks: ``mypy -p grimoire`` is clean on its sources,
and what users call is typed (``grimoire.env()`` returns the environment)."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="the typing tests need mypy (pip install \"./python[test]\")")

PACKAGE = Path(__file__).resolve().parents[1]


def mypy(tmp_path, *args: str) -> subprocess.CompletedProcess:
    """mypy run on the sources in python/ (not an installed copy)."""
    command = [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), *args]
    return subprocess.run(command, cwd=PACKAGE, capture_output=True, text=True, timeout=600)


def test_mypy_is_clean_on_the_package(tmp_path):
    done = mypy(tmp_path, "-p", "grimoire")
    assert done.returncode == 0, done.stdout + done.stderr


def test_env_returns_the_typed_environment(tmp_path):
    program = 'import grimoire\nreveal_type(grimoire.env("arcomage", seed=1))\n'
    done = mypy(tmp_path, "-c", program)
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'Revealed type is "grimoire.aec.GrimoireEnv"' in done.stdout, done.stdout
