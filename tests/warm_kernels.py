"""Compile every game's kernels into the on-disk cache, last game first (``python -m
tests.warm_kernels``).

The test session starts this beside itself (tests/conftest.py): on a cold cache (a fresh
clone in CI) compiling the kernels is most of the run and keeps one core busy while the
other idles (a cold run measured 32 CPU-minutes in 35.6 minutes), and the tests reach the
games roughly in registry order, so a second process compiling from the other end lets
the two cores compile at once.  Whichever process compiles a kernel first writes it to
the cache and the other loads it; a warm cache makes this a few seconds of loading.  It
compiles the signatures the engine uses: each mode at the default table (the fixed-rules
kernel where the game has one) and under other rules, and the advice at each decision's
example."""

from __future__ import annotations

from sims import advice, engine
from sims.registry import GAMES


def main() -> None:
    for name in reversed(list(GAMES)):
        spec = GAMES[name]
        for decision in advice.decisions(spec):
            try:
                rules, players, found = advice.example_situation(spec, decision.example)
                advice.simulate_advice(spec, rules, spec.default_policy(players), players, found, 1, 0, 4)
            except Exception:  # the tests compile whatever this could not
                pass
        players = spec.default_players
        for mode in spec.modes:
            engine.simulate(spec, spec.default_rules(), spec.default_policy(players), players, mode, 1, 0, 4)


if __name__ == "__main__":
    main()
