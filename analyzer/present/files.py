"""Writing files: a folder checked before any hand is played, files written atomically,
and the outputs of ``--out`` (CSV, JSON and PNG of a run, a sweep or a comparison)."""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path

from analyzer.present.text import field_label, finite, outcome_labels
from sims.spec import GameSpec


def check_out_dir(path: Path, flag: str = "--out") -> Path:
    """``path`` if it is a folder this process can write into, or can create; else a
    ``ValueError`` with one sentence (checked before any hand is played)."""
    path = Path(path)
    existing = path
    try:
        while not os.path.lexists(existing) and existing != existing.parent:
            existing = existing.parent
    except ValueError as problem:  # a NUL byte
        raise ValueError(f"{flag} {path!r} is not a usable folder name ({problem}).") from None
    where = "is" if existing == path else "is inside"
    if existing != path and existing.is_dir():  # the folders to be made must have names the file system takes
        longest_name = os.pathconf(existing, "PC_NAME_MAX")
        for name in path.relative_to(existing).parts:
            if len(os.fsencode(name)) > longest_name:
                raise ValueError(
                    f"{flag} {path} has a folder name longer than this file system allows "
                    f"({len(os.fsencode(name))} bytes, at most {longest_name})."
                )
    if len(os.fsencode(os.path.abspath(path))) + 256 > os.pathconf(
        existing if existing.is_dir() else "/", "PC_PATH_MAX"
    ):
        raise ValueError(f"{flag} {path} is too long a path for the files written into it.")
    if existing.is_symlink() and not existing.exists():
        raise ValueError(f"{flag} {path} {where} a broken link ({existing} points to nothing).")
    if not existing.is_dir():
        what = f"a file ({existing})" if existing != path else "a file"
        raise ValueError(f"{flag} {path} {where} {what}, not a folder.")
    try:  # access() is not enough: root passes it on read-only file systems
        handle, probe = tempfile.mkstemp(prefix=".card-analyzer-probe-", dir=existing)
        os.close(handle)
        os.unlink(probe)
    except OSError as problem:
        raise ValueError(f"{flag} {path} is not writable ({problem.strerror or problem}).") from None
    return path


def _file_mode(path: Path) -> int:
    """The mode a new file gets here (the umask's), or the mode of the file it replaces."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomically(path: Path, content: bytes | str) -> Path:
    """Write ``content`` to a temporary name beside ``path``, then rename it into place:
    the file is complete or absent, whatever interrupts the write."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode() if isinstance(content, str) else content
    mode = _file_mode(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return path


def png_bytes(figure, dpi: float | None = None) -> bytes:
    """A matplotlib figure as PNG bytes (at its own resolution, or ``dpi``)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def write_files(files: dict[Path, bytes | str]) -> list[Path]:
    """Write every file atomically, with signals held until the last one is in place."""
    from analyzer.run import interrupts

    with interrupts.deferred():
        return [write_atomically(path, content) for path, content in files.items()]


def write_run_outputs(directory: Path, stem: str, summary: dict, headline: str, title: str, ylabel: str) -> list[Path]:
    """Write ``<stem>.csv`` (tidy estimates), ``<stem>.json`` (the --json object) and
    ``<stem>.png`` (the headline outcome per seat with 95% intervals) into ``directory``."""
    from analyzer.present.charts import seat_outcome_chart
    from analyzer.present.tables import estimates_frame

    unit = summary["mode"]
    frame = estimates_frame(summary["results"], summary[unit], unit)
    figure = seat_outcome_chart(frame, headline, title, ylabel)
    return write_files(
        {
            directory / f"{stem}.csv": frame.to_csv(index=False),
            directory / f"{stem}.json": json.dumps(finite(summary), indent=2, allow_nan=False) + "\n",
            directory / f"{stem}.png": png_bytes(figure),
        }
    )


def write_sweep_outputs(
    directory: Path, stem: str, records: list[dict], spec: GameSpec, mode: int, seat: int | None, players: int
) -> list[Path]:
    """Write ``<stem>.csv`` (one row per value, seat and outcome) and ``<stem>.png`` (the
    chart of :func:`sweep_figure`)."""
    from analyzer.present.tables import sweep_frame

    figure = sweep_figure(records, spec, mode, seat, players)
    return write_files(
        {
            directory / f"{stem}.csv": sweep_frame(records).to_csv(index=False),
            directory / f"{stem}.png": png_bytes(figure),
        }
    )


def sweep_figure(
    records: list[dict], spec: GameSpec, mode: int, seat: int | None, players: int, outcome: str | None = None, ax=None
):
    """The chart of a sweep's records: each outcome of the swept seat (``seat``), or the
    headline of every seat (``None``), against the value; ``outcome``: that one only."""
    import pandas as pd

    from analyzer.present.charts import seat_rows, sweep_chart
    from analyzer.present.tables import sweep_frame

    frame = sweep_frame(records)
    outcomes = spec.outcomes[mode]
    shown = outcomes.estimated(outcomes.seat)
    field_key = records[0]["field"] if records else ""
    if seat is not None:
        frame = pd.concat([seat_rows(frame, seat), seat_rows(frame, "table")])
        title = f"{spec.title}, {players} players: seat {seat} sweeps {field_key}"
    else:
        shown = [spec.headline[mode]]
        title = f"{spec.title}, {players} players: every seat sweeps {field_key}"
    if outcome is not None:
        shown = [outcome]
    field = spec.policy_field(field_key) if field_key else None
    return sweep_chart(
        frame,
        shown,
        title,
        field_key,
        labels=outcome_labels(spec, mode),
        choices=bool(field and field.choices),
        field_label=field_label(field) if field else None,
        ax=ax,
    )


def write_compare_outputs(directory: Path, stem: str, summary: dict, figure) -> list[Path]:
    """Write ``<stem>.csv`` (one row per compared rule set, seat and outcome: the paired
    difference and its errors), ``<stem>.json`` (the --json object) and ``<stem>.png``."""
    from analyzer.present.tables import differences_frame

    frame = differences_frame(summary["differences"])
    return write_files(
        {
            directory / f"{stem}.csv": frame.to_csv(index=False),
            directory / f"{stem}.json": json.dumps(finite(summary), indent=2, allow_nan=False) + "\n",
            directory / f"{stem}.png": png_bytes(figure),
        }
    )
