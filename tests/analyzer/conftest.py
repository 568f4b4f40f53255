"""Helpers shared by the command-line tests."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass

import pytest


@dataclass
class Ran:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def run_cli(*args: str) -> Ran:
    """``analyze ARGS`` as the console entry runs it (usage errors included), in process."""
    from analyzer.cli.main import run_app

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run_app(list(args))
    return Ran(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli():
    return run_cli
