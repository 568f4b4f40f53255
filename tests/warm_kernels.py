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

from analyzer.run.params import build_rules
from sims import advice, engine, solve
from sims.core.table import with_tables
from sims.registry import GAMES
from sims.spec import HANDS


def any_rules(spec):
    """The rules of the first variant under which every mode plays its any-rules kernel
    (no fixed-rules kernel covers them), or None."""
    for variant in spec.variants:
        rules = build_rules(spec, variant, {})
        if all(spec.kernel_for(mode, spec.rules_array(rules)) is spec.kernels[mode] for mode in spec.modes):
            return rules
    return None


def main() -> None:
    for name in sorted(GAMES, reverse=True):
        spec = GAMES[name]
        players = spec.default_players
        for mode in spec.modes:
            engine.simulate(spec, spec.default_rules(), spec.default_policy(players), players, mode, 1, 0, 4)
        rules = any_rules(spec)
        if rules is not None:
            try:
                engine.simulate(spec, rules, spec.default_policy(players), players, HANDS, 1, 0, 4)
            except ValueError:  # a variant for another table size: the tests compile it
                pass
    for name in reversed(list(GAMES)):  # the strategy tables' kernels: a table played, and each solve
        spec = GAMES[name]
        players = spec.default_players
        rules, policy = spec.default_rules(), spec.default_policy(players)
        tables = {seat: {} for seat in range(players)}
        for decision in spec.table_decisions():
            for seat, table in solve.policy_tables(spec, rules, policy, players, decision.name, hand_mode=True).items():
                tables[seat][decision.name] = table
        if spec.tables:
            widened = with_tables(policy, len(spec.policy_fields), spec.table_decisions(), tables)
            for mode in spec.modes:
                engine.simulate(spec, rules, widened, players, mode, 1, 0, 4)
            for decision in spec.table_decisions():
                solve.simulate_solve(spec, rules, widened, players, decision.name, 1, 0, 4)
    for name in reversed(list(GAMES)):
        spec = GAMES[name]
        for decision in advice.decisions(spec):
            try:
                rules, players, found = advice.example_situation(spec, decision.example)
                advice.simulate_advice(spec, rules, spec.default_policy(players), players, found, 1, 0, 4)
            except Exception:  # the tests compile whatever this could not
                pass


if __name__ == "__main__":
    main()
