"""--target-se stops at hand counts fixed by the cap, the target and the data, never by
timing: the same command gives the same count and numbers on 1 and 2 threads."""

from __future__ import annotations

import json
import math

from analyzer.run.runner import checkpoints
from sims.spec import Mode


def test_checkpoints_are_fixed_steps_of_at_most_a_third():
    points = checkpoints(5_000_000, Mode.HANDS)
    assert points[:10] == [10_000, 12_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 60_000, 80_000]
    assert points[-2:] == [4_000_000, 5_000_000]
    assert all(b / a <= 4 / 3 for a, b in zip(points, points[1:]))
    assert checkpoints(3_000, Mode.GAMES) == [1_000, 1_200, 1_500, 2_000, 2_500, 3_000]
    assert checkpoints(500, Mode.GAMES) == [500] and checkpoints(12_345, Mode.HANDS) == [10_000, 12_000, 12_345]


def _json(cli, *args) -> dict:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_run_stops_at_the_same_checkpoint_with_the_same_numbers_on_any_thread_count(cli):
    runs = [
        _json(cli, "chase-ace", "--hands", "5M", "--target-se", "0.001", "--threads", str(threads))
        for threads in (1, 2)
    ]
    assert runs[0]["hands"] == runs[1]["hands"]
    assert runs[0]["results"] == runs[1]["results"]
    assert runs[0]["hands"] in checkpoints(5_000_000, Mode.HANDS) and runs[0]["hands"] < 5_000_000
    assert runs[0]["target_se_reached"] is True and runs[0]["partial"] is False  # stopped early, not interrupted
    largest = max(r["se"] for r in runs[0]["results"] if r["se"] is not None and not r["outcome"].endswith("_odds"))
    assert largest < 0.001
    # the checkpoint before it had not reached the target
    before = checkpoints(5_000_000, Mode.HANDS)[checkpoints(5_000_000, Mode.HANDS).index(runs[0]["hands"]) - 1]
    earlier = _json(cli, "chase-ace", "--hands", str(before), "--threads", "1")
    assert max(r["se"] for r in earlier["results"] if r["se"] is not None) >= 0.001


def test_a_game_mode_run_stops_at_the_same_count_on_any_thread_count(cli):
    runs = [
        _json(cli, "fan-tan", "--games", "1e5", "--target-se", "0.4", "--threads", str(threads)) for threads in (1, 2)
    ]
    assert runs[0]["games"] == runs[1]["games"] < 100_000
    assert runs[0]["results"] == runs[1]["results"]


def test_a_sweep_and_a_comparison_stop_at_the_same_count_on_any_thread_count(cli):
    sweeps = [
        _json(
            cli,
            "sweep",
            "chase-ace",
            "--players",
            "4",
            "--param",
            "threshold=4:6",
            "--seat",
            "0",
            "--hands",
            "2M",
            "--target-se",
            "0.003",
            "--threads",
            str(threads),
        )
        for threads in (1, 2)
    ]
    assert sweeps[0]["hands"] == sweeps[1]["hands"] < 2_000_000
    assert sweeps[0]["results"] == sweeps[1]["results"] and sweeps[0]["partial"] is False
    compares = [
        _json(
            cli,
            "compare",
            "fan-tan",
            "--variant",
            "pot-only",
            "--hands",
            "2M",
            "--target-se",
            "0.05",
            "--threads",
            str(threads),
        )
        for threads in (1, 2)
    ]
    assert compares[0]["hands"] == compares[1]["hands"] < 2_000_000
    assert compares[0]["differences"] == compares[1]["differences"]
    assert all(math.isfinite(d["se"]) for d in compares[0]["differences"]["pot-only"])
