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

from collections.abc import Callable

from analyzer.run.params import build_rules
from sims import advice, engine, solve
from sims.core.table import with_tables
from sims.registry import GAMES
from sims.spec import HANDS, MODE_NAMES


def any_rules(spec):
    """The rules of the first variant under which every mode plays its any-rules kernel
    (no fixed-rules kernel covers them), or None."""
    for variant in spec.variants:
        rules = build_rules(spec, variant, {})
        if all(spec.kernel_for(mode, spec.rules_array(rules)) is spec.kernels[mode] for mode in spec.modes):
            return rules
    return None


def kernel_steps(spec) -> list[tuple[str, str, Callable[[], object]]]:
    """Every kernel of one game the product calls, as ``(phase, kind, compile)`` in the
    order a user meets them: phase ``modes`` (each mode at the default table, then the
    hand mode's any-rules kernel where a fixed-rules kernel covers the default), phase
    ``tables`` (each mode with every seat playing its policy as tables: the same kernels,
    loaded; then each table decision's solve), phase ``advice`` (each decision's
    example).  ``compile`` plays four hands, compiling or loading the kernel."""
    players = spec.default_players
    rules, policy = spec.default_rules(), spec.default_policy(players)
    steps: list[tuple[str, str, Callable[[], object]]] = []

    def play(mode, rules=rules, policy=policy):
        return lambda: engine.simulate(spec, rules, policy, players, mode, 1, 0, 4)

    for mode in spec.modes:
        steps.append(("modes", MODE_NAMES[mode], play(mode)))
    varied = any_rules(spec) if spec.fixed_kernels else None
    if varied is not None:
        steps.append(("modes", "hands*", play(HANDS, rules=varied)))
    if spec.tables:
        tables: dict[int, dict] = {seat: {} for seat in range(players)}
        for decision in spec.table_decisions():
            for seat, table in solve.policy_tables(spec, rules, policy, players, decision.name, hand_mode=True).items():
                tables[seat][decision.name] = table
        widened = with_tables(policy, len(spec.policy_fields), spec.table_decisions(), tables)
        for mode in spec.modes:
            steps.append(("tables", f"tables {MODE_NAMES[mode]}", play(mode, policy=widened)))
        for decision in spec.table_decisions():
            steps.append(
                (
                    "tables",
                    f"solve {decision.name}",
                    lambda name=decision.name: solve.simulate_solve(spec, rules, widened, players, name, 1, 0, 4),
                )
            )
    for decision in advice.decisions(spec):

        def advise(example=decision.example):
            found_rules, found_players, found = advice.example_situation(spec, example)
            advice.simulate_advice(spec, found_rules, spec.default_policy(found_players), found_players, found, 1, 0, 4)

        steps.append(("advice", f"advise {decision.name}", advise))
    return steps


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
