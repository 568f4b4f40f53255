"""Compile every game's kernels into the on-disk cache, last game first (``python -m
tests.warm_kernels``).

The test session starts this beside itself (tests/conftest.py): on a cold cache (a fresh
clone in CI) compiling the kernels is most of the run, and the tests reach the games
roughly in registry order, so a second process compiling from the other end lets the two
cores compile at once.  Whichever process compiles a kernel first writes it to the cache
and the other loads it; a warm cache makes this a few seconds of loading."""

from __future__ import annotations

from sims import engine
from sims.registry import GAMES


def main() -> None:
    for name in reversed(list(GAMES)):
        spec = GAMES[name]
        players = spec.default_players
        for mode in spec.modes:
            engine.simulate(spec, spec.default_rules(), spec.default_policy(players), players, mode, 1, 0, 4)


if __name__ == "__main__":
    main()
