"""Compiling a command's kernels ahead, in processes of their own.

A command that needs many kernels of a game (``report``: every mode, the strategy
tables, each table decision's solve, each decision's advice) compiles them one after
another on a cold kernel cache, in its own process, with the other cores idle: All-Fours'
report spent most of its first run compiling.  :func:`compiling_ahead` starts one
process per core beside the command; they compile the game's kernels
(:func:`kernel_steps`) into the on-disk cache while the command runs, from the last
the command meets back to the first, skipping one that another process is compiling.
The command loads whatever they have cached, waits for one they are compiling (the
kernel's lock, :func:`sims.engine.compiling_alone`), and compiles itself one they have
not reached: each kernel is compiled once, and the numbers are the same, since a kernel is the same machine code
whichever process compiled it.

A game whose kernels were all compiled ahead is marked in the cache
(``<kernel cache>/ahead/<game>``), so later commands start no process for it.  The
cache folder is keyed on the source of ``sims/`` (:func:`sims.configure_kernel_cache`),
so a changed kernel starts from no mark.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from sims.spec import MODE_NAMES, GameSpec, Mode


def any_rules(spec: GameSpec):
    """The rules of the first variant under which every mode plays its any-rules kernel
    (no fixed-rules kernel covers them), or None."""
    for variant in spec.variants.values():
        codes = {field.key: field.default for field in spec.rules}
        codes.update({key: int(code) for key, code in variant.rules.items()})
        rules = spec.rules_type(**codes)
        if all(spec.kernel_for(mode, spec.rules_array(rules)) is spec.kernels[mode] for mode in spec.modes):
            return rules
    return None


def kernel_steps(spec: GameSpec) -> list[tuple[str, str, Callable[[], object]]]:
    """Every kernel of one game the product calls, as ``(phase, kind, compile)`` in the
    order a user meets them: phase ``modes`` (each mode at the default table, then the
    hand mode's any-rules kernel where a fixed-rules kernel covers the default), phase
    ``tables`` (each mode with every seat playing its policy as strategy tables: the same
    kernels, loaded; then each table decision's solve), phase ``advice`` (each decision's
    example).  ``compile`` plays four hands, compiling or loading the kernel with the
    signature the engine calls it with."""
    from sims import advice, engine, situations, solve
    from sims.core.table import with_tables

    players = spec.default_players
    rules, policy = spec.default_rules(), spec.default_policy(players)
    steps: list[tuple[str, str, Callable[[], object]]] = []

    def play(mode, rules=rules, policy=policy):
        return lambda: engine.simulate(spec, rules, policy, players, mode, 1, 0, 4)

    for mode in spec.modes:
        steps.append(("modes", MODE_NAMES[mode], play(mode)))
    varied = any_rules(spec) if spec.fixed_kernels else None
    if varied is not None:
        steps.append(("modes", "hands*", play(Mode.HANDS, rules=varied)))
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
    for decision in spec.decisions():

        def advise(example=decision.example):
            found_rules, found_players, found = situations.example_situation(spec, example)
            advice.simulate_advice(spec, found_rules, spec.default_policy(found_players), found_players, found, 1, 0, 4)

        steps.append(("advice", f"advise {decision.name}", advise))
    return steps


@functools.cache
def _steps_of(game: str) -> dict[str, Callable[[], object]]:
    from sims.registry import GAMES

    return {kind: compile_kernel for _, kind, compile_kernel in kernel_steps(GAMES[game])}


def _mark(game: str, kind: str | None = None) -> Path | None:
    """The file that says every kernel of ``game`` (or its step ``kind``) was compiled
    ahead into this cache, or None without a cache."""
    from sims import kernel_cache_dir

    directory = kernel_cache_dir()
    if directory is None:
        return None
    return directory / "ahead" / (game if kind is None else f"{game}.{kind.replace(' ', '_')}")


def _touch(mark: Path | None) -> None:
    if mark is not None:
        with contextlib.suppress(OSError):
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.touch()


def compiled_ahead(game: str) -> bool:
    """Whether every kernel of ``game`` was compiled ahead into this cache."""
    mark = _mark(game)
    return mark is not None and mark.exists()


def compile_steps(steps: Sequence[tuple[str, str]]) -> bool:
    """Compile (or load) the ``(game, kind)`` steps of :func:`kernel_steps` in this
    process, in order, skipping those compiled ahead already and those another process
    is compiling (:data:`sims.engine.SKIP_BUSY_KERNELS`); whether none failed.  A step
    that fails is left to the command, which meets it and says why."""
    from sims import engine

    engine.SKIP_BUSY_KERNELS = True
    failed = False
    for game, kind in steps:
        mark = _mark(game, kind)
        if mark is not None and mark.exists():
            continue
        try:
            _steps_of(game)[kind]()
        except engine.KernelBusy:  # another process is compiling it, and will mark it
            continue
        except Exception:  # noqa: BLE001 - the command compiles it again and reports the failure
            failed = True
            continue
        _touch(mark)
    return not failed


@dataclasses.dataclass(frozen=True)
class Ahead:
    """The games whose kernels are compiling ahead, and the processes compiling them."""

    games: list[str]
    processes: list[subprocess.Popen]

    def wait(self) -> None:
        """Wait until every kernel is compiled (or skipped as another process's)."""
        for process in self.processes:
            process.wait()


OFF_VARIABLE = "CARD_ANALYZER_COMPILE_AHEAD"  # "0": no process is started (the test session's workers)


@contextlib.contextmanager
def compiling_ahead(specs: Sequence[GameSpec], jobs: int | None = None) -> Iterator[Ahead]:
    """Compile the kernels of ``specs`` in ``jobs`` processes (default: one per core)
    while the ``with`` body runs (module docstring); the body gets an :class:`Ahead`.
    Nothing is started on one core, without a kernel cache, for games already compiled
    ahead, or where ``CARD_ANALYZER_COMPILE_AHEAD=0`` (a machine whose cores are busy
    already).  Leaving the body stops the processes: a kernel they were compiling is
    compiled again by whoever needs it."""
    from sims.engine import available_threads

    jobs = available_threads() if jobs is None else jobs
    games = [spec.name for spec in specs if _mark(spec.name) is not None and not compiled_ahead(spec.name)]
    if jobs < 2 or not games or os.environ.get(OFF_VARIABLE) == "0":
        yield Ahead([], [])
        return
    # from the last kernel the command meets back to the first: the command compiles from
    # the front, these processes from the back, and they meet
    steps = [f"{game}/{kind}" for game in games for kind in _steps_of(game)][::-1]
    processes = _start(steps, min(jobs, len(steps)))
    try:
        yield Ahead(games if processes else [], processes)
        if all(process.poll() == 0 for process in processes):
            for game in games:
                _touch(_mark(game))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()  # its compile is abandoned: a kernel is cached whole or not at all
            process.wait()


def _start(steps: list[str], count: int) -> list[subprocess.Popen]:
    """``count`` processes compiling ``steps``, or none where they cannot be started (the
    command then compiles what it needs itself).  They import this copy of ``sims``: they
    run in the kernel cache's folder, not the command's (a checkout there would be
    imported first), with this copy's folder on their path unless it is a site folder."""
    import site

    from sims import kernel_cache_dir

    root = str(Path(__file__).resolve().parents[1])
    sites = {str(Path(path).resolve()) for path in [*site.getsitepackages(), site.getusersitepackages()]}
    env = dict(os.environ)
    if root not in sites:
        env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])
    folder = kernel_cache_dir()
    started: list[subprocess.Popen] = []
    try:
        for _ in range(count):
            started.append(
                subprocess.Popen(
                    [sys.executable, "-m", "sims.precompile", *steps],
                    cwd=folder,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
    except OSError:  # no interpreter to start, or no memory or processes left for one
        for process in started:
            process.kill()
            process.wait()
        return []
    return started


def main(arguments: Sequence[str]) -> int:
    """``python -m sims.precompile GAME/KIND ...``: what :func:`compiling_ahead` starts.
    Ctrl-C is the command's to handle: it stops this process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return 0 if compile_steps([tuple(step.split("/", 1)) for step in arguments]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
