"""Fan Tan's fixed-rules hand kernel: chosen for the standard rules only, and the same
sums as the generic kernel."""

from __future__ import annotations

import numpy as np
import pytest

from sims.games import fan_tan as ft
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["fan-tan"]


def test_the_standard_rules_run_on_the_fixed_rules_kernel_and_others_on_the_generic_one():
    standard = SPEC.rules_array(ft.Rules())
    assert SPEC.kernel_for(Mode.HANDS, standard) is not ft.simulate_hands_nb
    # The ante and the fees are no part of the key: they stay run-time values.
    assert SPEC.kernel_for(Mode.HANDS, standard) is SPEC.kernel_for(
        Mode.HANDS, SPEC.rules_array(ft.Rules(ante=5, card_fee=3))
    )
    assert SPEC.kernel_for(Mode.HANDS, SPEC.rules_array(ft.Rules(eight_before_six=True))) is ft.simulate_hands_nb
    assert SPEC.kernel_for(Mode.GAMES, standard) is ft.simulate_games_nb


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules, n",
    [
        (ft.Rules(), 4),
        (ft.Rules(ante=3, pass_fee=2, card_fee=4), 5),
        (
            ft.Rules(
                may_pass_when_able=True,
                eight_before_six=True,
                start=ft.START_HOLDER_7H,
                uneven_ante=ft.FEWER_CARDS_PAY_EXTRA,
            ),
            7,
        ),
    ],
)
def test_a_fixed_rules_kernel_gives_the_generic_kernels_sums(rules, n):
    """Rule values folded at compile time change no sum, for the branch-free policy (every
    seat plays its first card) and for mixed styles with random draws and voluntary passes."""
    rules_array = SPEC.rules_array(rules)
    fixed = ft.fixed_hands_kernel(ft.hand_rule_codes(rules_array))
    mixed = np.array([[style % 5, style % 2] for style in range(1, n + 1)], dtype=np.float64)
    for policy in (np.ascontiguousarray(SPEC.default_policy(n), dtype=np.float64), mixed):
        arguments = (rules_array, policy, np.int64(n), np.uint64(2**63 + 5), np.int64(123_456), np.int64(5_000))
        assert np.array_equal(fixed(*arguments), ft.simulate_hands_nb(*arguments))
