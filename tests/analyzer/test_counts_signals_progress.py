"""Issue 36: one check for counts across the API, the same signal delivered twice is one
interrupt, the progress bar's numbers, and --target-se's key in every command's JSON."""

from __future__ import annotations

import os
import signal
import time

import pytest

import analyzer as ca
from analyzer.api.advising import plan_advice
from analyzer.api.comparing import plan_compare
from analyzer.api.functions import plan_optimize, plan_simulation, plan_sweep
from analyzer.api.plans import RunArgs, TableArgs
from analyzer.api.reports import plan_report
from analyzer.api.solving import plan_solve
from analyzer.run import interrupts, progress
from analyzer.run.context import Tally

# every API function that takes a count of hands (or deals, or games), planned (nothing played)
PLANS = {
    "simulate": lambda count, tmp: plan_simulation("chase-ace", run=RunArgs(hands=count)),
    "sweep": lambda count, tmp: plan_sweep("chase-ace", "threshold", run=RunArgs(hands=count)),
    "compare": lambda count, tmp: plan_compare(
        "chase-ace", table=TableArgs(rules={"lives": 5}), run=RunArgs(hands=count)
    ),
    "optimize": lambda count, tmp: plan_optimize("chase-ace", run=RunArgs(hands=count)),
    "report": lambda count, tmp: plan_report("chase-ace", out=tmp / "r", run=RunArgs(hands=count, store=False)),
    "advise": lambda count, tmp: plan_advice("chase-ace", 3, "6h", run=RunArgs(hands=count, store=False)),
    "solve": lambda count, tmp: plan_solve("chase-ace", run=RunArgs(hands=count, store=False)),
}


@pytest.mark.parametrize("name", PLANS)
def test_every_count_takes_a_whole_float_and_refuses_past_1e13(name, tmp_path):
    plan = PLANS[name](1e3, tmp_path)
    assert plan.count == 1000 and isinstance(plan.count, int)
    with pytest.raises(ca.UserError) as too_large:
        PLANS[name](10**30, tmp_path)
    assert str(too_large.value) == "--hands 1000000000000000000000000000000 is too large (at most 1e13)."
    with pytest.raises(ca.UserError, match="is not a whole number"):
        PLANS[name](1000.5, tmp_path)
    with pytest.raises(ca.UserError, match="too large"):
        PLANS[name](1e14, tmp_path)


def test_the_plans_cover_every_api_function_that_takes_a_count():
    import inspect

    takes = {
        name
        for name in dir(ca)
        if not name.startswith("_")
        and inspect.isfunction(getattr(ca, name))
        and {"hands", "games"} & set(inspect.signature(getattr(ca, name)).parameters)
    }
    assert takes == set(PLANS)


GAME_PLANS = {
    "simulate": lambda count: plan_simulation("chase-ace", run=RunArgs(games=count)),
    "sweep": lambda count: plan_sweep("chase-ace", "threshold", run=RunArgs(games=count)),
    "compare": lambda count: plan_compare("chase-ace", table=TableArgs(rules={"lives": 5}), run=RunArgs(games=count)),
    "optimize": lambda count: plan_optimize("chase-ace", run=RunArgs(games=count)),
}


@pytest.mark.parametrize("name", GAME_PLANS)
def test_every_count_of_games_is_checked_the_same_way(name):
    assert GAME_PLANS[name](1e3).count == 1000
    with pytest.raises(ca.UserError, match="too large"):
        GAME_PLANS[name](10**30)
    with pytest.raises(ca.UserError, match="is not a whole number"):
        GAME_PLANS[name](1000.5)


@pytest.fixture
def handler():
    saved = {signum: signal.getsignal(signum) for signum in interrupts.SIGNAL_NAMES}
    interrupts.install()
    try:
        yield
    finally:
        interrupts.reset()
        for signum, installed in saved.items():
            signal.signal(signum, installed)


def test_the_same_signal_twice_within_half_a_second_is_one_interrupt(handler):
    """``timeout`` sends SIGTERM to the process, then to its group: milliseconds apart."""
    with interrupts.deferred():
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)  # the group's copy
        time.sleep(0.05)
        assert interrupts.requested()  # one interrupt, waiting for the work in flight; nothing forced
        with pytest.raises(interrupts.Interrupted) as stop:
            interrupts.check()
    assert stop.value.signum == signal.SIGTERM and not stop.value.forced


def test_a_second_signal_after_the_window_still_stops_at_once(handler):
    with interrupts.deferred():
        interrupts._handler(signal.SIGINT, None)
        interrupts._state.requested_at -= interrupts.SAME_WITHIN_S  # half a second later
        with pytest.raises(interrupts.Interrupted) as stop:
            interrupts._handler(signal.SIGINT, None)
    assert stop.value.forced


def test_another_signal_within_the_window_is_a_second_interrupt(handler):
    with interrupts.deferred():
        interrupts._handler(signal.SIGINT, None)
        with pytest.raises(interrupts.Interrupted) as stop:
            interrupts._handler(signal.SIGTERM, None)
    assert stop.value.forced


class _Display:
    def __init__(self):
        self.shown = []

    def update(self, task, **fields):
        self.shown.append(fields)

    def refresh(self):
        pass

    def stop(self):
        pass


def test_the_progress_bar_never_shows_more_done_than_asked_nor_odd_rates(monkeypatch):
    display = _Display()
    monkeypatch.setattr(progress, "_rich_progress", lambda total, unit, forced=False: (display, 0))
    monkeypatch.delenv("CARD_ANALYZER_PROGRESS", raising=False)
    bar = progress.ProgressBar(4000, "deals", True, Tally())
    bar.start -= 2.0  # two seconds of playing
    bar.add(4192)
    shown = display.shown[-1]
    assert shown["completed"] == 4000  # not "4,192 of 4,000 deals"
    assert shown["rate"] == "2.1k deals/s" and shown["left"] == "<1 s left"
    assert progress.rate_words(850, "deals") == "850 deals/s" and progress.rate_words(2.5e6, "hands") == "2.50M hands/s"
    assert progress.left_words(-0.3) == "<1 s left" and progress.left_words(12.4) == "12 s left"
    assert progress.left_words(float("inf")) == ""


def test_analyze_game_json_always_says_whether_the_target_was_reached():
    plain = ca.simulate("chase-ace", hands=2000, store=False, threads=1).summary()
    assert plain["target_se"] is None and plain["target_se_reached"] is None
    missed = ca.simulate("chase-ace", hands=2000, target_se=1e-6, store=False, threads=1)
    assert missed.summary()["target_se_reached"] is False
    assert "note: the cap came first" in missed.text()
