"""The README's "From Python" example, read from README.md and run as a
reader would: each block of Python after the install lines shown before it,
with only what those lines install (the package's optional extras that they
do not name cannot be imported)."""

import importlib.metadata
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]


def section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("\n## From Python\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def blocks() -> List[Tuple[str, str]]:
    """The section's fenced blocks, in order: (language, text)."""
    return re.findall(r"^```(\w+)\n(.*?)^```", section(), flags=re.M | re.S)


def steps() -> List[Tuple[str, Set[str]]]:
    """For each Python block: the code a reader has run by then (the blocks
    so far, in order) and the extras the install lines so far put in."""
    extras: Set[str] = set()
    installed = False
    code = ""
    found = []
    for language, text in blocks():
        if language in ("sh", "bash", "console"):
            for m in re.finditer(r"pip install\s+[\"']?\./python(?:\[([^\]]*)\])?", text):
                installed = True
                extras |= {e.strip() for e in (m.group(1) or "").split(",") if e.strip()}
        elif language == "python":
            assert installed, "a Python block before any `pip install ./python` line"
            code += text
            found.append((code, set(extras)))
    return found


def optional_dependencies() -> Dict[str, List[str]]:
    """pyproject.toml's extras: name → the distributions each adds."""
    text = (ROOT / "python" / "pyproject.toml").read_text(encoding="utf-8")
    table = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return {
        m.group(1): [dist(r) for r in re.findall(r'"([^"]+)"', m.group(2))]
        for m in re.finditer(r"^([\w-]+)\s*=\s*\[(.*?)\]", table, flags=re.M)
    }


def dist(requirement: str) -> str:
    """A requirement's distribution name, as its module is named."""
    match = re.match(r"[A-Za-z0-9_.-]+", requirement.strip())
    assert match, requirement
    return match.group(0).lower().replace("-", "_")


def needed_by(names: Set[str]) -> Set[str]:
    """``names`` and every distribution they need, as far as installed."""
    seen: Set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        todo.extend(dist(r) for r in requires if "extra ==" not in r)
    return seen


STEPS = steps()


def test_the_example_is_three_lines_after_the_plain_install_line():
    code, extras = STEPS[0]
    assert extras == set(), "the first example should need nothing but `pip install ./python`"
    assert len([line for line in code.splitlines() if line.strip()]) == 3, code


@pytest.mark.parametrize("step", range(len(STEPS)), ids=[f"block{i + 1}" for i in range(len(STEPS))])
def test_the_readme_example_runs_after_the_install_lines_it_shows(step, tmp_path):
    code, extras = STEPS[step]
    optional = optional_dependencies()
    unknown = extras - set(optional)
    assert not unknown, f"the README installs extras pyproject.toml lacks: {unknown}"
    allowed = needed_by({d for e in extras for d in optional[e]})
    for name in sorted(allowed & {d for ds in optional.values() for d in ds}):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"the README's example after `pip install \"./python[{','.join(sorted(extras))}]\"` needs {name}, which is not installed here")
    # What the install lines shown would not have installed cannot be imported.
    blocked = {d for ds in optional.values() for d in ds} - allowed
    prelude = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in sorted(blocked))
    done = subprocess.run(
        [sys.executable, "-c", prelude + code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"blocked: {sorted(blocked)}\n{code}\n{done.stderr}"
    assert done.stdout.strip()
