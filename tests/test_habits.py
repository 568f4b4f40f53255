"""The project's habits, checked by the test run: ruff's lint and format, and mypy on the
analyzer and the engine's typed core (the settings are in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(
    "command", [("ruff", "check", "."), ("ruff", "format", "--check", ".")], ids=["lint", "format"]
)
def test_ruff_is_clean(command):
    pytest.importorskip("ruff")
    done = _run(*command)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean():
    pytest.importorskip("mypy")
    done = _run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
