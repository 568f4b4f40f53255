"""Writing files: a folder checked before any hand is played, files written atomically,
a folder replaced whole (:func:`write_folder`, a report's), and the outputs of ``--out``
(CSV, JSON and PNG of a run, a sweep or a comparison)."""

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


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _file_mode(path: Path) -> int:
    """The mode a new file gets here (the umask's), or the mode of the file it replaces."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o666 & ~_umask()


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


PARTIAL = "partial"  # .<name>.partial-<pid>-<random>: a folder being written beside <name>


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``); False
    where the system or the file system cannot, and nothing was changed."""
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_cwd, exchange = -100, 2
    return renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange) == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's live process
        return True
    return True


def _remove_stale(parent: Path, name: str) -> None:
    """Remove the folders a killed writer left beside ``name`` (their process is gone)."""
    import shutil

    for stale in parent.glob(f".{name}.{PARTIAL}-*"):
        pid = stale.name[len(f".{name}.{PARTIAL}-") :].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)


def _carry(old: Path, new: Path, owned) -> None:
    """Carry the entries of ``old`` that the new folder does not replace (``owned(name)``
    false) into ``new``: hard links where the file system allows (instant), else copies."""
    import shutil

    def link(source, target):
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)

    for entry in old.iterdir():
        if owned(entry.name) or os.path.lexists(new / entry.name):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, new / entry.name, symlinks=True, copy_function=link)
        elif entry.is_symlink():
            os.symlink(os.readlink(entry), new / entry.name)
        else:
            link(entry, new / entry.name)


def _write_file(path: Path, content: bytes | str) -> None:
    path.write_bytes(content.encode() if isinstance(content, str) else content)


def write_folder(directory: Path, files: dict[str, bytes | str], owned=lambda name: True) -> list[Path]:
    """Make ``directory`` hold ``files`` (name -> content), swapped in whole: everything is
    written into a temporary folder beside it (``.<name>.partial-<pid>-…``) and renamed
    into place in one step, so the folder is always either the old one or the new one,
    whatever interrupts or kills the writer (a temporary folder a killed writer left is
    removed by the next write).  The entries of the old folder that ``owned(name)`` says
    the new one replaces are dropped with it (a report's README.md, report.html and
    charts); any other file or folder in it (a user's notes) is carried into the new one.
    Returns the paths written."""
    import shutil

    from analyzer.run import interrupts

    directory = Path(directory)
    if directory.is_symlink():  # replace the folder it points to, keep the link
        directory = Path(os.path.realpath(directory))
    parent, name = directory.parent, directory.name
    parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(parent, name)
    temporary = Path(tempfile.mkdtemp(prefix=f".{name}.{PARTIAL}-{os.getpid()}-", dir=parent))
    try:
        for file_name, content in files.items():
            _write_file(temporary / file_name, content)
        existed = directory.is_dir()
        if existed:
            _carry(directory, temporary, owned)
        os.chmod(temporary, directory.stat().st_mode & 0o7777 if existed else 0o777 & ~_umask())  # not mkdtemp's 0o700
        with interrupts.deferred():
            if not existed:
                os.rename(temporary, directory)
            elif not _exchange(temporary, directory):  # two renames: absent for an instant, never mixed
                retired = Path(tempfile.mkdtemp(prefix=f".{name}.{PARTIAL}-{os.getpid()}-old-", dir=parent))
                os.rename(directory, retired / name)
                os.rename(temporary, directory)
                shutil.rmtree(retired, ignore_errors=True)
    finally:
        if temporary.exists():  # the old folder after an exchange, or an unfinished new one
            shutil.rmtree(temporary, ignore_errors=True)
    return [directory / file_name for file_name in files]


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
