"""What a run shows while it plays: a progress bar (hands done, rate, time left) and a
line with a spinner while kernels load or compile.

Both show on a terminal (Rich's display on stderr, which Typer brings) and in Jupyter (a
text line updated in place under the cell), only after a moment (short runs show
nothing) and never where the caller turns them off (``--json``, a report's inner runs).
``CARD_ANALYZER_PROGRESS=1`` shows them always (on a pipe too), ``=0`` never.  Rich and
IPython are imported only when something is first shown.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from typing import Any

SHOW_AFTER_S = 1.0  # a bar shows once a run has played this long
SPIN_AFTER_S = 0.5  # a loading line shows once loading has taken this long
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def in_jupyter() -> bool:
    """Whether this process is a Jupyter kernel (where stderr is not a terminal, yet a
    display can be updated in place)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        found = shell.get_ipython()
    except Exception:  # noqa: BLE001 - an IPython that cannot say: not Jupyter
        return False
    return found is not None and type(found).__name__ == "ZMQInteractiveShell"


def shown(asked: bool | None) -> tuple[bool, bool]:
    """(show, forced): whether a display shows (``asked`` True: always, False: never, None:
    on a terminal or in Jupyter; ``CARD_ANALYZER_PROGRESS`` overrides), and whether it was
    forced on (it then draws on a pipe as on a terminal)."""
    setting = os.environ.get("CARD_ANALYZER_PROGRESS")
    if setting in ("0", "1"):
        return setting == "1", setting == "1"
    if asked is not None:
        return asked, asked
    return sys.stderr.isatty() or in_jupyter(), False


class _JupyterLine:
    """One line of text under a Jupyter cell, updated in place."""

    def __init__(self, text: str):
        from IPython.display import display

        self.handle = display({"text/plain": text}, raw=True, display_id=True)

    def update(self, text: str) -> None:
        self.handle.update({"text/plain": text}, raw=True)


def _bar_text(done: int, total: int, unit: str, rate: str, left: str, width: int = 30) -> str:
    filled = int(width * done / total) if total else width
    return (
        f"{'█' * filled}{'░' * (width - filled)} {100 * done / max(total, 1):3.0f}%  {done:,} of {total:,} "
        f"{unit}  {rate}  {left}"
    ).rstrip()


def rate_words(rate: float, unit: str) -> str:
    """A rate with a unit that shows its digits: ``2.31M hands/s``, ``45.2k deals/s``, ``850 deals/s``."""
    if rate >= 1e6:
        return f"{rate / 1e6:.2f}M {unit}/s"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f}k {unit}/s"
    return f"{max(rate, 0.0):.0f} {unit}/s"


def left_words(left_s: float) -> str:
    """The time left: ``12 s left``, ``<1 s left`` near the end, nothing when unknown."""
    if not left_s < 1e7:
        return ""
    if left_s < 1:
        return "<1 s left"
    return f"{left_s:.0f} s left"


class ProgressBar:
    """A run's progress display: hands (or games) done of the total, the rate and the time
    left, shown once the run has played about a second (kernel loading is not playing).
    ``tally`` (a ``Tally``) counts what is played and the loading time."""

    def __init__(self, total: int, unit: str, enabled: bool | None, tally):
        self.total = total
        self.unit = unit
        self.enabled, self.forced = shown(enabled)
        self.tally = tally
        self.start = time.perf_counter()
        self.loaded = tally.load_seconds
        self.display: Any = None  # (rich Progress, its task) or a _JupyterLine, once shown
        self.done = 0
        self.stored = 0  # of ``done``, taken from the result store

    def add(self, items: int) -> None:
        """``items`` more hands (or games) finished."""
        self.tally.played += items
        self.tally.unit = self.unit
        self.update(self.done + items)

    def add_stored(self, items: int) -> None:
        """``items`` taken from the result store: done, but not played, so they count
        neither in the rate nor in the time left."""
        self.stored += items
        self.update(self.done + items)

    def update(self, done: int) -> None:
        self.done = done
        playing = time.perf_counter() - self.start - (self.tally.load_seconds - self.loaded)
        if not self.enabled or playing < SHOW_AFTER_S:
            return
        rate = (done - self.stored) / playing
        done = min(done, self.total)  # never more done than asked
        left_s = max(0.0, (self.total - done) / rate) if rate > 0 else float("inf")
        rate_text, left = rate_words(rate, self.unit), left_words(left_s)
        if self.display is None:
            self.display = _JupyterLine("") if in_jupyter() else _rich_progress(self.total, self.unit, self.forced)
        if isinstance(self.display, _JupyterLine):
            self.display.update(_bar_text(done, self.total, self.unit, rate_text, left))
            return
        progress, task = self.display
        progress.update(task, completed=done, rate=rate_text, left=left)
        progress.refresh()

    def close(self) -> None:
        if isinstance(self.display, _JupyterLine):
            self.display.update("")
        elif self.display is not None:
            self.display[0].stop()
        self.display = None


def _rich_progress(total: int, unit: str, forced: bool = False):
    """A started Rich progress display of one task of ``total`` items on stderr, cleared
    when it stops; its caller refreshes it and gives the rate and time left (hands taken
    from the store are done but not played, which Rich's own speed would not know)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

    progress = Progress(
        TextColumn("{task.completed:,.0f} of {task.total:,.0f} " + unit),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("{task.fields[left]}"),
        console=Console(stderr=True, force_terminal=True if forced else None),
        transient=True,
        auto_refresh=False,
    )
    task = progress.add_task("", total=total, rate="", left="")
    progress.start()
    return progress, task


class Spinner:
    """A line with a spinner while something slow and silent runs (a kernel compile),
    shown only once it has taken :data:`SPIN_AFTER_S` and cleared at the end."""

    def __init__(self, text: str, enabled: bool | None):
        self.text = text
        self.enabled, self.forced = shown(enabled)
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> Spinner:
        if self.enabled:
            self.thread = threading.Thread(target=self._spin, name="card-analyzer-spinner", daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()

    def _spin(self) -> None:
        if self.done.wait(SPIN_AFTER_S):
            return
        start = time.perf_counter()
        line = _JupyterLine("") if in_jupyter() else None
        width = shutil.get_terminal_size().columns - 1  # a wrapped line could not be redrawn in place
        frame = 0
        while True:
            text = f"{SPINNER[frame % len(SPINNER)]} {time.perf_counter() - start + SPIN_AFTER_S:3.0f} s  {self.text}"
            if line is not None:
                line.update(text)
            else:
                text = text[:width]
                sys.stderr.write("\r" + text)
                sys.stderr.flush()
            frame += 1
            if self.done.wait(0.1):
                break
        if line is not None:
            line.update("")
        else:
            sys.stderr.write("\r" + " " * len(text) + "\r")
            sys.stderr.flush()
