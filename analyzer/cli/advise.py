"""``analyze advise GAME``: every candidate action of one seat's next decision on the same
deals (``analyzer.api.advising``)."""

from __future__ import annotations

from typing import List, Optional

import typer

from analyzer.cli.app import Given, app, guarded, play_and_show, with_options


@app.command("advise")
@with_options(
    but=("games",),
    helps={
        "hands": "deals to accept per action (default 100,000)",
        "target_se": "stop once every difference to the best action has a standard error below this",
        "out": "also write the answer's .csv, .json and .png here, named after the question "
        "(e.g. advice-chase-ace-seat2of6-5h.csv)",
    },
)
def advise_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    position: Optional[str] = typer.Option(
        None, "--position", metavar="S", help="the seat to advise (0 the dealer's left, the dealer the last)"
    ),
    holding: Optional[str] = typer.Option(
        None, "--holding", metavar="CARDS", help='its cards, like "6h" or "Ac 5d 10h"'
    ),
    context: Optional[List[str]] = typer.Option(
        None,
        "--context",
        metavar="KEY=VALUE",
        help="what the seat has seen (repeatable; `analyze rules GAME` lists the keys)",
    ),
    infer: Optional[str] = typer.Option(
        None,
        "--infer",
        metavar="policy|seen",
        help="how the history in --context is read: policy (the deals where the other seats' policies "
        "reproduce it) or seen (the actions played as given); default: policy, switching to seen where "
        "that is impossible or too rare",
    ),
    rank_by: Optional[str] = typer.Option(
        None, "--rank-by", metavar="OUTCOME", help="the outcome to rank the actions by (default: the decision's)"
    ),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """Advice on one seat's next decision: every legal action on the same deals of the unseen cards."""
    out = given.out

    def body():
        from analyzer.api.advising import plan_advice
        from analyzer.cli.parse import parse_assignments, parse_whole

        table, run = given.args()
        plan = plan_advice(
            game,
            parse_whole(position, "--position"),
            holding,
            parse_assignments(context, "--context", once=True),
            infer=infer,
            rank_by=rank_by,
            table=table,
            run=run,
            out=out,
        )
        play_and_show(plan, given.as_json, out)

    guarded(body, lambda stop: interrupted_line(stop.partial, out is not None))


def interrupted_line(found, wrote_out: bool) -> str:
    """What the interrupt line says was finished: the deals accepted of those tried, and
    how many of those were read from the store rather than played."""
    nothing = "; nothing was written to --out" if wrote_out else ""
    if found is None or found.count == 0:
        return "before any deal was accepted" + nothing
    stored = (
        f" ({found.tried - found.from_store:,} played, {found.from_store:,} read from the store)"
        if found.from_store
        else ""
    )
    return (
        f"after {found.count:,} accepted deals of {found.tried:,} tried{stored}; the table above is for "
        "those deals, marked partial" + nothing
    )
