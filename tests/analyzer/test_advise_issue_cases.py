"""The cases issue 36 quoted, asked end to end as a user asks them (``ca.advise``): each
answers as the issue says it should."""

from __future__ import annotations

import math

import pytest

import analyzer as ca


def _row(result, action):
    return next(option for option in result.options if option.action == action)


@pytest.mark.slow
def test_five_hundred_contested_auction_reads_as_seen_and_keeps_the_calls_apart():
    found = ca.advise(
        "five-hundred",
        position=3,
        holding="Jo Js As Ks Qs 10s Ah 7c 5d 4h",
        context={"auction": "6H pass 7C"},
        hands=2000,
        store=False,
    )
    summary = found.summary()
    assert summary["infer"] == "seen" and summary["infer_switched"] is True
    assert summary["deals"] == 2000
    assert _row(found, "MIS").outcomes["net"] != _row(found, "8S").outcomes["net"]
    assert _row(found, "7H").outcomes["net"] != _row(found, "7NT").outcomes["net"]
    # 7NT beats 7H in net by far more than the error of the difference
    assert _row(found, "7NT").outcomes["net"][0] - _row(found, "7H").outcomes["net"][0] > 100


def test_a_huge_fight_for_the_lead_pot_gives_real_errors():
    found = ca.advise(
        "fight-for-the-lead",
        players=4,
        position=0,
        holding="Ac Kc 2d 7h",
        context={"pot": "20000000"},
        hands=3000,
        store=False,
    )
    for option in found.options:
        mean, se = option.outcomes[found.headline]
        assert math.isfinite(se) and se > 0
        if option.action != found.best:
            assert option.diff_se > 0
    assert found.situation.largest >= 20_000_000


def test_ace_chasing_kept_card_the_policy_would_swap_is_answered_as_seen():
    found = ca.advise(
        "ace-chasing", players=6, position=4, holding="4c", context={"earlier": "kskk"}, hands=2000, store=False
    )
    summary = found.summary()
    assert summary["infer_switched"] is True and summary["deals"] == 2000
    assert found.best == "swap"
    with pytest.raises(ca.UserError, match="impossible, or too rare"):
        ca.advise(
            "ace-chasing",
            players=6,
            position=4,
            holding="4c",
            context={"earlier": "kskk"},
            hands=20,
            store=False,
            infer="policy",
        )


@pytest.mark.slow
def test_spoil_five_rare_trick_gives_no_verdict_under_the_policy_and_an_answer_as_seen():
    args = dict(
        players=5,
        position=4,
        holding="Ah Kh Qh Jh 10h",
        context={"turnup": "9d", "trick1": "2c 3c 4c 5c"},
        hands=200,
        store=False,
    )
    try:
        rare = ca.advise("spoil-five", infer="policy", **args)
    except ca.UserError as refused:  # no deal at all: refused in one sentence
        assert "impossible, or too rare" in str(refused)
    else:
        assert rare.too_few and rare.summary()["best"] is None
        assert any("cap on deals tried came first" in note for note in rare.notes())
    seen = ca.advise("spoil-five", **args)
    assert seen.summary()["infer_switched"] is True and seen.accepted == 200 and not seen.too_few
