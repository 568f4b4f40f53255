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

import shlex

from sims import advice, engine
from sims.core.cards import parse_cards
from sims.registry import GAMES


def _example(spec, example: str):
    words = shlex.split(example)[2:]
    options: dict[str, list[str]] = {}
    for flag, value in zip(words[1::2], words[2::2]):
        options.setdefault(flag, []).append(value)
    players = int(options["--players"][0]) if "--players" in options else spec.default_players
    context = dict(item.split("=", 1) for item in options.get("--context", []))
    holding = advice.parse_holding(spec, options["--holding"][0])
    rules = spec.default_rules()
    return rules, players, advice.situation(spec, rules, players, int(options["--position"][0]), holding, context)


def main() -> None:
    for name in reversed(list(GAMES)):
        spec = GAMES[name]
        for decision in advice.decisions(spec):
            try:
                rules, players, found = _example(spec, decision.example)
                advice.simulate_advice(spec, rules, spec.default_policy(players), players, found, 1, 0, 4)
            except Exception:  # an example that needs its --rule options: the tests compile it
                pass
        players = spec.default_players
        for mode in spec.modes:
            engine.simulate(spec, spec.default_rules(), spec.default_policy(players), players, mode, 1, 0, 4)


if __name__ == "__main__":
    parse_cards("Ah")  # the package imports; nothing else at import time
    main()
