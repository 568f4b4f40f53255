"""sims.engine.play_jobs: pieces sized by speed give the sums of one call, and a stop
leaves each job with a whole finished prefix."""

from __future__ import annotations

import numpy as np
import pytest

from sims import engine
from sims.engine import Stopped, play_jobs, simulate
from sims.registry import get_game
from sims.spec import Mode

CHASE = get_game("chase-ace")


@pytest.mark.parametrize("threads", [1, 2])
def test_jobs_in_pieces_give_the_sums_of_single_calls(threads, monkeypatch):
    monkeypatch.setattr(engine, "FIRST_PIECE", 7)  # many small, uneven pieces
    rules, policy = CHASE.default_rules(), CHASE.default_policy(5)
    other = CHASE.default_policy(5)
    other[:, 0] = 3
    jobs = [(rules, policy, 0, 3000), (rules, other, 100, 2500), (rules, policy, 40_000, 0), (rules, policy, 7, 1)]
    found = play_jobs(CHASE, jobs, 5, Mode.HANDS, 11, threads, piece_seconds=0.0005)
    for (job_rules, job_policy, first, count), sums in zip(jobs, found):
        assert (
            np.array_equal(sums, simulate(CHASE, job_rules, job_policy, 5, Mode.HANDS, 11, first, count)) or count == 0
        )
    assert not found[2].any()


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stop_leaves_a_finished_prefix_of_each_job(threads, monkeypatch):
    monkeypatch.setattr(engine, "FIRST_PIECE", 50)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 6

    rules, policy = CHASE.default_rules(), CHASE.default_policy(4)
    jobs = [(rules, policy, 0, 10**7), (rules, policy, 10**7, 10**7)]
    with pytest.raises(Stopped) as stopped:
        play_jobs(CHASE, jobs, 4, Mode.GAMES, 2, threads, stop=stop, piece_seconds=0.001)
    played = stopped.value.played
    assert 0 < played[0] < 10**7 and played[1] == 0 and stopped.value.sums[1] is None
    assert np.array_equal(stopped.value.sums[0], simulate(CHASE, rules, policy, 4, Mode.GAMES, 2, 0, played[0]))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stop_already_asked_plays_nothing_on_any_thread_count(threads):
    rules, policy = CHASE.default_rules(), CHASE.default_policy(4)
    with pytest.raises(Stopped) as stopped:
        play_jobs(CHASE, [(rules, policy, 0, 10**6)], 4, Mode.HANDS, 0, threads, stop=lambda: True)
    assert stopped.value.played == [0] and stopped.value.sums == [None]
    # with nothing to play there is nothing to stop
    assert not play_jobs(CHASE, [(rules, policy, 0, 0)], 4, Mode.HANDS, 0, threads, stop=lambda: True)[0].any()
