"""``analyze solve GAME``: a decision's strategy tables solved by iterated best response
over its cells (``analyzer.api.solving``)."""

from __future__ import annotations

from typing import List, Optional

import typer

from analyzer.cli.app import (
    AS_JSON,
    CLUSTER,
    NO_STORE,
    PLAYERS,
    POLICY,
    RULE,
    SEAT,
    SEED,
    STORE,
    STRATEGY,
    TABLE,
    THREADS,
    VARIANT,
    app,
    guarded,
    show,
    store_option,
    table_values,
    tallied,
)
from analyzer.run import interrupts


@app.command("solve")
def solve_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    decision: Optional[str] = typer.Option(
        None, "--decision", metavar="D", help="the decision to solve (default: the game's first with tables)"
    ),
    players: Optional[str] = PLAYERS,
    hands: Optional[str] = typer.Option(
        None, "--hands", help="deals per sweep, and for the final measurement (default 200k)"
    ),
    seed: str = SEED,
    max_sweeps: str = typer.Option("12", "--max-sweeps", metavar="K", help="the most sweeps, 1 to 200"),
    variant: Optional[str] = VARIANT,
    rule: Optional[List[str]] = RULE,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    seat: Optional[List[str]] = SEAT,
    table: Optional[List[str]] = TABLE,
    threads: Optional[str] = THREADS,
    store: Optional[str] = STORE,
    no_store: bool = NO_STORE,
    cluster: Optional[str] = CLUSTER,
    as_json: bool = AS_JSON,
    out: Optional[str] = typer.Option(
        None,
        "--out",
        help="also write the CSV, the JSON, each seat's table file (--table reads it) and grid chart here",
    ),
):
    """Solve a decision's strategy tables: iterated best response over its cells from the
    start profile (the policy and tables given), then each seat's value, the
    exploitability of the solved and the start profile, and each solved table head to head
    against its start policy, on fresh deals."""

    def body():
        from analyzer.api.solving import plan_solve
        from analyzer.cli.parse import parse_count, parse_whole
        from analyzer.run.context import Tally

        kept = store_option(store, no_store)
        deals = None if hands is None else parse_count(hands, "--hands")
        given = table_values(players, seed, threads, rule, policy, seat, table)
        plan = plan_solve(
            game,
            decision,
            given["players"],
            deals,
            given["seed"],
            variant,
            given["rules"],
            strategy,
            given["policy"],
            given["seats"],
            given["tables"],
            parse_whole(max_sweeps, "--max-sweeps", 1, 200),
            given["threads"],
            kept,
            cluster,
            out,
        )
        with tallied(Tally()) as tally:
            try:
                result = plan.run(progress=False if as_json else None, tally=tally)
            except interrupts.Interrupted as stop:
                if stop.partial is not None and not stop.forced:
                    show(stop.partial, as_json)
                raise
            show(result, as_json)
            if out is not None:
                paths = result.write(out)
                if not as_json:
                    typer.echo("wrote " + ", ".join(str(p) for p in paths))

    def interrupted(stop) -> str:
        found = stop.partial
        if found is None or not found.solved.sweeps:
            said = "before the first sweep finished; nothing is shown"
        else:
            said = (
                f"after {found.solved.sweeps} sweep{'s' if found.solved.sweeps != 1 else ''}; the tables above "
                "are the sweeps', marked partial"
            )
        return said + ("; nothing was written to --out" if out is not None else "")

    guarded(body, interrupted)
