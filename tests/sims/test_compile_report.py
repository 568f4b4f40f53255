"""tests/compile_report.py: every kernel of a game compiled into an empty cache, timed."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_report_times_each_kernel_of_a_game_from_an_empty_cache():
    done = subprocess.run(
        [sys.executable, "-m", "tests.compile_report", "--game", "ace-chasing", "--json", "--jobs", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    rows = {row["kernel"]: row for row in report["rows"]}
    assert set(rows) == {
        "import",
        "hands",
        "games",
        "solve swap",
        "solve matador_right",
        "advise swap",
        "advise matador_right",
    }
    assert not [row for row in rows.values() if "error" in row]
    # An empty cache: the first kernel compiles (seconds), the second decision's solve and
    # advice load what the first compiled (they share one kernel).
    assert rows["hands"]["cpu"] > 1.0 and rows["advise swap"]["cpu"] > 1.0
    assert rows["solve matador_right"]["cpu"] < 1.0 and rows["advise matador_right"]["cpu"] < 1.0
