"""Ctrl-C and SIGTERM: stop any command within about a second, say what was finished.

The command line installs :func:`install` before anything else, so the first SIGINT or
SIGTERM never shows a traceback.  Outside a :func:`deferred` region the signal raises
:class:`Interrupted` at once (Python code such as an exact enumeration, parsing or
compiling stops where it is).  Inside one, the region's runner is in the middle of
playing hands on worker threads: the signal only sets a flag, the runner notices it
between pieces of work (each a fraction of a second), lets the pieces in flight finish
so that what was played is a whole prefix of hands, and raises :class:`Interrupted`
carrying the partial result, which the command may show marked as partial.  A second
signal raises at once wherever the program is.

Exit codes follow the shell's convention: 128 + the signal number, 130 for SIGINT and
143 for SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

SIGNAL_NAMES = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}


class Interrupted(BaseException):
    """The user asked the program to stop.

    A ``BaseException`` (like ``KeyboardInterrupt``) so that no ``except Exception`` on
    the way up swallows it, and not a ``KeyboardInterrupt`` so that the command-line
    library does not turn it into a silent exit.  ``partial`` is whatever honest partial
    result the raising runner had (a ``RunResult`` or ``PairedRun``), else ``None``.
    """

    def __init__(self, signum: int, partial=None):
        super().__init__(signum)
        self.signum = signum
        self.partial = partial

    @property
    def exit_code(self) -> int:
        return 128 + int(self.signum)

    @property
    def signal_name(self) -> str:
        return SIGNAL_NAMES.get(self.signum, f"signal {int(self.signum)}")


class _State:
    requested: int | None = None  # the first signal received, while it is not yet handled
    deferring: int = 0  # depth of nested deferred() regions
    installed: bool = False


_state = _State()


def _handler(signum, frame) -> None:
    if _state.requested is not None or _state.deferring == 0:
        _state.requested = signum
        raise Interrupted(signum)
    _state.requested = signum


def install() -> None:
    """Handle SIGINT and SIGTERM as described above (main thread only; else a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in SIGNAL_NAMES:
        signal.signal(signum, _handler)
    _state.installed = True


def ignore() -> None:
    """Ignore SIGINT and SIGTERM from now on (a finished command on its way out)."""
    if _state.installed and threading.current_thread() is threading.main_thread():
        for signum in SIGNAL_NAMES:
            signal.signal(signum, signal.SIG_IGN)


def requested() -> bool:
    """True once a signal asked the program to stop."""
    return _state.requested is not None


def requested_signal() -> int | None:
    return _state.requested


def check(partial=None) -> None:
    """Raise :class:`Interrupted` (with ``partial``) if a signal asked to stop."""
    if _state.requested is not None:
        raise Interrupted(_state.requested, partial)


@contextmanager
def deferred():
    """A region where a signal only sets a flag, for code that checks :func:`requested`
    between pieces of work.  A flag still pending when the region ends raises there."""
    _state.deferring += 1
    try:
        yield
    finally:
        _state.deferring -= 1
    check()


def reset() -> None:
    """Forget a handled signal (tests, and an API caller that carries on)."""
    _state.requested = None
