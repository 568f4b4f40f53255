"""``analyze store``: what the result store holds, and removing entries.

Registered by ``analyzer.cli.main``; the Typer app is ``analyzer.cli.app``'s.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from analyzer.cli.app import AS_JSON, app, guarded
from sims.registry import GAMES


def _changed_text(spec, entry) -> str:
    """An entry's rules and policy as the values that differ from the game's defaults."""
    if spec is None:
        return ""
    parts = [
        f"{field.key}={field.value_text(code)}"
        for field, code in zip(spec.rules, entry.rules)
        if int(code) != int(field.default)
    ]
    default = spec.default_policy(entry.players)
    seats = []
    for seat, row in enumerate(entry.policy):
        changed = [
            f"{field.key}={field.value_text(value)}"
            for column, (field, value) in enumerate(zip(spec.policy_fields, row))
            if value != default[seat][column]
        ]
        seats.append(" ".join(changed))
    if len(set(seats)) == 1 and seats[0]:
        parts.append(seats[0] + " (every seat)")
    elif len(set(seats)) > 1:
        parts += [f"seat {seat}: {text}" for seat, text in enumerate(seats) if text]
    return " ".join(parts) or "standard rules, default policy"


def _size_text(size: int) -> str:
    """A file size as people read it: 812 bytes, 41.2 kB, 10.8 MB, 1.3 GB."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


@app.command("store")
def store_command(
    store: Optional[Path] = typer.Option(None, "--store", help="the store file (default: the user's data folder)"),
    game: Optional[str] = typer.Option(None, "--game", help="only this game's entries"),
    remove: Optional[List[str]] = typer.Option(
        None, "--remove", metavar="ID", help="remove the entry with this id (repeatable)"
    ),
    prune: bool = typer.Option(False, "--prune", help="remove the entries of older kernels (never read again)"),
    clear: bool = typer.Option(False, "--clear", help="remove every entry (of --game, if given)"),
    as_json: bool = AS_JSON,
):
    """List the result store's entries (game, configuration, hands stored), or remove some."""

    def body():
        from analyzer.cli.parse import parse_whole
        from analyzer.run.store import ResultStore
        from analyzer.run.store_file import StoreUnwritable, default_store_path
        from sims.engine import kernel_hash
        from sims.registry import get_game

        if game is not None:
            get_game(game)
        path = store if store is not None else default_store_path()
        if path is None:
            raise ValueError("the result store is off (CARD_ANALYZER_STORE=off); give --store PATH.")
        if not Path(path).exists():
            if remove or prune or clear:
                raise ValueError(f"there is no result store at {path}.")
            typer.echo(
                json.dumps({"store": str(path), "size_bytes": 0, "entries": []})
                if as_json
                else f"result store {path}: empty (no run has been stored yet)"
            )
            return
        ids = [parse_whole(text, "--remove", 1) for text in remove or []]
        try:
            opened = ResultStore(path)
        except StoreUnwritable as problem:  # a ValueError, said as a sentence of this command
            raise ValueError(f"{problem}.") from None
        try:
            entries = opened.entries(game)

            def current(entry) -> bool:
                return entry.game in GAMES and entry.kernel_hash == kernel_hash(GAMES[entry.game])

            if ids or prune or clear:
                known = {entry.id for entry in entries}
                missing = [str(i) for i in ids if i not in known]
                if missing:
                    raise ValueError(
                        f"the store has no entry {', '.join(missing)}"
                        f"{' of ' + game if game else ''}; 'analyze store' lists them."
                    )
                doomed = set(ids) | {e.id for e in entries if clear or (prune and not current(e))}
                removed = opened.remove(sorted(doomed))
                typer.echo(
                    f"removed {removed} entr{'y' if removed == 1 else 'ies'} from {path} (now "
                    f"{_size_text(opened.size())})"
                )
                return
            size = opened.size()
            if as_json:
                typer.echo(
                    json.dumps(
                        {
                            "store": str(path),
                            "size_bytes": size,
                            "entries": [
                                {
                                    "id": e.id,
                                    "game": e.game,
                                    "mode": e.mode,
                                    "players": e.players,
                                    "seed": e.seed,
                                    e.mode: e.hands,
                                    "blocks": e.blocks,
                                    "current_kernel": current(e),
                                    "rule_codes": list(e.rules),
                                    "policy": [list(row) for row in e.policy],
                                }
                                for e in entries
                            ],
                        }
                    )
                )
                return
            if not entries:
                typer.echo(f"result store {path} ({_size_text(size)}): empty{' for ' + game if game else ''}")
                return
            typer.echo(
                f"result store {path} ({_size_text(size)}): {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
            )
            rows = [
                (
                    str(e.id),
                    e.game,
                    e.mode,
                    str(e.players),
                    str(e.seed),
                    f"{e.hands:,}",
                    str(e.blocks),
                    "current" if current(e) else "old",
                    _changed_text(GAMES.get(e.game), e),
                )
                for e in entries
            ]
            headers = ("id", "game", "mode", "players", "seed", "stored", "blocks", "kernel", "configuration")
            widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
            for row in [headers] + rows:
                typer.echo("  ".join(f"{cell:<{widths[i]}}" for i, cell in enumerate(row)).rstrip())
            if any(not current(e) for e in entries):
                typer.echo("entries of an old kernel are never read; 'analyze store --prune' removes them")
        finally:
            opened.close()

    guarded(body)
