"""``analyze bench``: hands per second of every kernel and of its plain-Python twin; with
``--c-reference``, the hand kernels against their C references (``sims.reference``); with
``--against PATH``, this checkout's hand kernels against another checkout's, side by side."""

from __future__ import annotations

import time
from typing import List, Optional

import typer

from analyzer.cli.app import app, guarded
from analyzer.run import interrupts
from sims.registry import GAMES, get_game
from sims.spec import Mode


@app.command("bench")
def bench_command(
    hands: str = typer.Option("4M", "--hands", help="hands per kernel measurement"),
    twin_hands: str = typer.Option("20k", "--twin-hands", help="hands per plain-Python measurement"),
    game: Optional[str] = typer.Option(None, "--game", help="only this game"),
    repeats: str = typer.Option(
        "3", "--repeats", metavar="N", help="timed runs per figure, 1 to 20; the best is shown"
    ),
    advice_deals: str = typer.Option("50k", "--advice-deals", help="deals tried per advice measurement (0: none)"),
    as_tables: bool = typer.Option(
        False,
        "--tables",
        help="also measure every seat playing its policy written as a table, every decision (games with tables)",
    ),
    table: Optional[List[str]] = typer.Option(
        None,
        "--table",
        metavar="FILE",
        help="also measure every seat playing this strategy table (repeatable: one per decision; needs --game)",
    ),
    c_reference: bool = typer.Option(
        False,
        "--c-reference",
        help="instead, time the hand kernels against their C references (chase-ace, ace-chasing; needs gcc), "
        "one thread, in turn, and check that their sums agree",
    ),
    against: Optional[str] = typer.Option(
        None,
        "--against",
        metavar="CHECKOUT",
        help="instead, time the hand kernels (hand mode) against those of another checkout of card-analyzer (say "
        "a git worktree of an older commit): CPU time per hand, one thread, fresh processes in turn, the medians",
    ),
):
    """Hands per second of every kernel on 1 thread and on all threads, and of its
    plain-Python twin, on this machine (the best of --repeats runs each); with --tables or
    --table, beside each row the same kernel playing tables, and its share of the speed."""
    measured: list[str] = []

    def body():
        from analyzer.cli.parse import parse_count, parse_whole
        from sims.engine import available_threads, simulate

        count = parse_count(hands, "--hands")
        twin_count = parse_count(twin_hands, "--twin-hands")
        runs = parse_whole(repeats, "--repeats", 1, 20)
        if table and game is None:
            raise ValueError("--table needs --game: a table file is one game's.")
        specs = [get_game(game)] if game is not None else list(GAMES.values())
        if c_reference and against is not None:
            raise ValueError("give either --c-reference or --against, not both.")
        if (c_reference or against is not None) and (as_tables or table):
            raise ValueError("--c-reference and --against time the policies' hand kernels: leave out --tables/--table.")
        if c_reference:
            _bench_c_reference(specs, count, runs, measured)
            return
        if against is not None:
            _bench_against(specs, count, runs, against, measured)
            return
        files = _table_files(specs[0], table) if table else []
        most = available_threads()
        width = max(len("game"), *(len(spec.name) for spec in specs)) + 2
        typer.echo(
            f"{'game':<{width}}{'players':>8}{'1 thread':>14}{f'{most} threads':>14}{'speed-up':>10}"
            f"{'python twin':>14}{'kernel/twin':>13}"
        )
        for spec in specs:
            for players in spec.bench_players:
                rules = spec.default_rules()
                policy = spec.default_policy(players)
                simulate(spec, rules, policy, players, Mode.HANDS, 0, 0, 1000)  # compile or load
                rates = [_rate(spec, rules, policy, players, count, runs, threads) for threads in (1, most)]
                twin = spec.twin_module()
                interrupts.check()  # a Ctrl-C during the last kernel measurement
                start = time.perf_counter()
                twin.simulate(rules, policy, players, Mode.HANDS, 1, 0, twin_count)
                twin_rate = twin_count / (time.perf_counter() - start)
                typer.echo(
                    f"{spec.name:<{width}}{players:>8}{rates[0] / 1e6:>12.2f}M/s{rates[1] / 1e6:>10.2f}M/s"
                    f"{rates[1] / rates[0]:>9.2f}x{twin_rate / 1e3:>11.1f}k/s{rates[0] / twin_rate:>12.0f}x"
                )
                measured.append(spec.name)
                for label, widened in _table_policies(spec, rules, policy, players, as_tables, files):
                    simulate(spec, rules, widened, players, Mode.HANDS, 0, 0, 1000)
                    table_rates = [_rate(spec, rules, widened, players, count, runs, t) for t in (1, most)]
                    typer.echo(
                        f"{'  ' + label:<{width}}{players:>8}{table_rates[0] / 1e6:>12.2f}M/s"
                        f"{table_rates[1] / 1e6:>10.2f}M/s  {table_rates[0] / rates[0]:.1%} of the policy's speed "
                        "on 1 thread"
                    )
        advice_count = 0 if advice_deals.strip() == "0" else parse_count(advice_deals, "--advice-deals")
        if advice_count:
            _bench_advice(specs, advice_count, runs, most)

    guarded(
        body,
        lambda stop: (
            f"after {len(measured)} table{'s' if len(measured) != 1 else ''} measured (the rows above)"
            if measured
            else "before the first table was measured"
        ),
    )


def _bench_c_reference(specs, count: int, runs: int, measured: list) -> None:
    """Each hand kernel with a C reference against it, at the game's bench tables (each
    measured game's name appended to ``measured``)."""
    from sims import reference

    chosen = [spec for spec in specs if spec.name in reference.GAMES]
    if not chosen:
        raise ValueError(f"{specs[0].title} has no C reference (those are {', '.join(sorted(reference.GAMES))}).")
    typer.echo(f"{'game':<14}{'players':>8}{'kernel':>14}{'C':>14}{'kernel/C':>10}")
    machine = ""
    for spec in chosen:
        for players in spec.bench_players:
            interrupts.check()
            try:
                found = reference.time_against_c(spec.name, players, count, repeats=runs)
            except RuntimeError as problem:
                raise ValueError(str(problem)) from None
            machine = found.machine
            typer.echo(
                f"{spec.name:<14}{players:>8}{found.kernel_rate / 1e6:>12.2f}M/s{found.c_rate / 1e6:>12.2f}M/s"
                f"{found.kernel_rate / found.c_rate:>9.2f}x"
            )
            measured.append(spec.name)
    typer.echo(
        f"{count:,} hands a run, the best of {runs}, one thread, default rules and policy; the sums agree. {machine}"
    )


_AGAINST_CODE = r"""
import sys, time
from sims import engine
from sims.registry import GAMES
from sims.spec import Mode
spec = GAMES[sys.argv[1]]; count = int(sys.argv[2])
n = spec.default_players; rules = spec.default_rules(); policy = spec.default_policy(n)
engine.simulate(spec, rules, policy, n, Mode.HANDS, 1, 0, 200, threads=1, n_blocks=1)
t = time.process_time()
engine.simulate(spec, rules, policy, n, Mode.HANDS, 2, 0, count, threads=1, n_blocks=1)
print(time.process_time() - t)
"""


def _bench_against(specs, count: int, runs: int, other: str, measured: list) -> None:
    """CPU seconds per hand of each game's hand kernel at its default table, here and in
    the checkout ``other``, in fresh processes taken in turn (each warms its kernel
    first), on one thread; the medians and their ratio (each measured game's name
    appended to ``measured``)."""
    import os
    import statistics
    import subprocess
    import sys
    from pathlib import Path

    import sims

    here = str(Path(sims.__file__).resolve().parent.parent)
    there = str(Path(other).expanduser().resolve())
    if not (Path(there) / "sims" / "engine.py").is_file():
        raise ValueError(f"--against {other} is not a checkout of card-analyzer (no sims/engine.py in it).")
    typer.echo(f"{'game':<20}{'this':>12}{'against':>12}{'this/against':>14}")
    for spec in specs:
        times: dict[str, list[float]] = {here: [], there: []}
        for run in range(runs):
            for folder in (here, there) if run % 2 == 0 else (there, here):
                interrupts.check()
                done = subprocess.run(
                    [sys.executable, "-c", _AGAINST_CODE, spec.name, str(count)],
                    cwd=folder,  # python -c puts the working folder first on the path
                    env={**os.environ, "PYTHONPATH": folder},
                    capture_output=True,
                    text=True,
                )
                if done.returncode != 0:
                    last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                    raise ValueError(f"the kernel of {spec.name} in {folder} failed: {last}")
                times[folder].append(float(done.stdout.strip().splitlines()[-1]))
        mine, theirs = statistics.median(times[here]) / count, statistics.median(times[there]) / count
        typer.echo(f"{spec.name:<20}{mine * 1e9:>10.1f}ns{theirs * 1e9:>10.1f}ns{mine / theirs:>13.3f}x")
        measured.append(spec.name)
    typer.echo(
        f"CPU time per hand at each game's default players, rules and policy, the median of {runs} runs of "
        f"{count:,} hands each, one thread; "
        f"this: {here}; against: {there}.  Below 1x, this checkout is faster."
    )


def _rate(spec, rules, policy, players: int, count: int, runs: int, threads: int) -> float:
    """Hands per second of the kernel playing ``policy``: the best of ``runs`` timed runs."""
    from sims.engine import Stopped, play_jobs

    best = float("inf")
    for repeat in range(runs):
        start = time.perf_counter()
        try:  # in pieces of a fifth of a second, so that Ctrl-C stops it at once
            with interrupts.deferred():
                play_jobs(
                    spec, [(rules, policy, 0, count)], players, Mode.HANDS, repeat, threads, stop=interrupts.requested
                )
        except Stopped:
            interrupts.check()
        best = min(best, time.perf_counter() - start)
    return count / best


def _table_files(spec, paths: list[str]):
    from analyzer.api.checks import table_files

    found = table_files(paths, "--table")
    for file in found:
        if file.game != spec.name:
            raise ValueError(f"{file.source} is a table of {file.game}, not of {spec.name}.")
    return found


def _table_policies(spec, rules, policy, players: int, as_tables: bool, files) -> list[tuple[str, object]]:
    """The policies played as tables beside ``policy``: every seat its policy written as a
    table of every decision (``as_tables``), and the table files given."""
    from analyzer.run.params import table_blocks
    from sims.core.table import with_tables
    from sims.solve import policy_tables

    found: list[tuple[str, object]] = []
    decisions = spec.table_decisions()
    n_fields = len(spec.policy_fields)
    if as_tables and decisions:
        chosen: dict = {seat: {} for seat in range(players)}
        for decision in decisions:
            for seat, probabilities in policy_tables(spec, rules, policy, players, decision.name).items():
                chosen[seat][decision.name] = probabilities
        found.append(("as tables", with_tables(policy, n_fields, decisions, chosen)))
    if files:
        chosen, _ = table_blocks(spec, players, files, {})
        found.append((" + ".join(file.source for file in files), with_tables(policy, n_fields, decisions, chosen)))
    return found


def _example_plan(example: str):
    """The plan of a decision's example command line (``analyze advise GAME ...``)."""
    from analyzer.api.advising import plan_advice
    from analyzer.api.plans import RunArgs, TableArgs
    from sims.situations import example_arguments

    found = example_arguments(example)
    players = None if found["players"] is None else int(found["players"])
    return plan_advice(
        found["game"],
        int(found["position"]),
        found["holding"],
        found["context"],
        table=TableArgs(players=players, rules=found["rules"]),
        run=RunArgs(store=False),
    )


def _bench_advice(specs, count: int, runs: int, most: int) -> None:
    """Deals per second of every game's advice, at each decision's example: deals tried,
    and deals accepted times candidates (each a hand played on from the decision)."""
    from sims.advice import simulate_advice

    typer.echo("")
    typer.echo(f"advice, {count:,} deals tried per run: accepted deals per second (each plays every candidate)")
    typer.echo(f"{'game':<20}{'decision':<12}{'candidates':>11}{'accepted':>10}{'1 thread':>14}{f'{most} threads':>14}")
    for spec in specs:
        for decision in spec.decisions():
            plan = _example_plan(decision.example)
            table, found = plan.table, plan.situation
            simulate_advice(spec, table.rules, table.policy, table.players, found, 0, 0, 10)  # compile or load
            rates = []
            accepted = 0
            for threads in (1, most):
                best = float("inf")
                for repeat in range(runs):
                    interrupts.check()
                    start = time.perf_counter()
                    sums = simulate_advice(
                        spec, table.rules, table.policy, table.players, found, repeat, 0, count, threads
                    )
                    best = min(best, time.perf_counter() - start)
                    accepted = sums[1]
                rates.append(accepted / best)
            typer.echo(
                f"{spec.name:<20}{decision.name:<12}{len(found.candidates):>11}{accepted / count:>9.1%}"
                f"{rates[0] / 1e3:>12.1f}k/s{rates[1] / 1e3:>12.1f}k/s"
            )
