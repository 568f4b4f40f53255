"""``analyze solve GAME``: a decision's strategy tables solved by iterated best response
over its cells (``analyzer.api.solving``)."""

from __future__ import annotations

from typing import Optional

import typer

from analyzer.cli.app import Given, app, guarded, show, tallied, with_options
from analyzer.run import interrupts


@app.command("solve")
@with_options(
    but=("games", "target_se"),
    helps={
        "hands": "deals per sweep, and for the final measurement (default 200k)",
        "out": "also write the CSV, the JSON, each seat's table file (--table reads it) and grid chart here",
    },
)
def solve_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    decision: Optional[str] = typer.Option(
        None, "--decision", metavar="D", help="the decision to solve (default: the game's first with tables)"
    ),
    max_sweeps: str = typer.Option("12", "--max-sweeps", metavar="K", help="the most sweeps, 1 to 200"),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """Solve a decision's strategy tables: iterated best response over its cells from the
    start profile (the policy and tables given), then each seat's value, the
    exploitability of the solved and the start profile, and each solved table head to head
    against its start policy, on fresh deals."""
    out, as_json = given.out, given.as_json

    def body():
        from analyzer.api.solving import plan_solve
        from analyzer.cli.parse import parse_whole
        from analyzer.run.context import Tally

        table, run = given.args()
        sweeps = parse_whole(max_sweeps, "--max-sweeps", 1, 200)
        plan = plan_solve(game, decision, sweeps, table=table, run=run, out=out)
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
