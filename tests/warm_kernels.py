"""Compile every game's kernels into the on-disk cache (``python -m tests.warm_kernels``).

The test session starts this beside itself (tests/conftest.py): on a cold cache (a fresh
clone in CI) compiling the kernels is much of the run and would keep one core busy while
the other idles, so a second process compiles in the opposite order to the tests that
first need each kernel.  The first tests to play are the advice examples
(tests/analyzer/test_advise.py, games in registry order) and then one run of each mode
(tests/analyzer/test_api.py, games in name order): this process compiles the modes first,
games in reverse name order (each with its any-rules hands kernel), then the advice, games in reverse registry order, so the two
processes meet rather than compile the same kernel at once.  Whichever compiles a kernel
first writes it to the cache and the other loads it; a warm cache makes this a few seconds
of loading.  It compiles the signatures the engine uses: each mode at the default table
(the fixed-rules kernel where the game has one), the hand mode's any-rules kernel under
a variant that no fixed-rules kernel covers (the tour notebook plays those;
compiled by the tour alone they took 187 s), every mode with every seat playing its
policy as strategy tables and each table decision's solve kernel, and the advice at each
decision's example."""

from __future__ import annotations

from sims.precompile import kernel_steps
from sims.registry import GAMES


def main() -> None:
    orders = {"modes": sorted(GAMES, reverse=True), "tables": list(reversed(GAMES)), "advice": list(reversed(GAMES))}
    steps = {name: kernel_steps(GAMES[name]) for name in GAMES}
    for phase, names in orders.items():
        for name in names:
            for step_phase, _, compile_kernel in steps[name]:
                if step_phase == phase:
                    try:
                        compile_kernel()
                    except Exception:  # noqa: BLE001 - the tests compile whatever this could not
                        pass


if __name__ == "__main__":
    main()
