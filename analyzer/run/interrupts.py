"""Ctrl-C and SIGTERM: stop any command within about a second, say what was finished.

The command line installs :func:`install` before anything else, so the first SIGINT or
SIGTERM never shows a traceback.  Outside a :func:`deferred` region the signal raises
:class:`Interrupted` at once (Python code such as an exact enumeration, parsing,
compiling or drawing charts stops where it is).  Inside one, a runner is playing hands on
worker threads: the signal only sets a flag, which the runner reads between pieces of
work (each a fraction of a second); it lets the pieces in flight finish, so that what
was played is a whole prefix of hands, and raises :class:`Interrupted` carrying that
partial result, which the command may show marked as partial.  Work that was complete
when the signal came is not thrown away: the flag is acted on where the next piece of
work would start (the next run, the next stage of a report), and a command whose work
is all done simply finishes.

Work that cannot stop between pieces, compiling a kernel, runs in an :class:`abandoning`
region, where the first signal stops it at once and says what was abandoned.

Once an ``Interrupted`` is on its way up, further signals are ignored, so that the
partial table and the closing line are printed whole; but a second signal while the
first is still waiting for the pieces in flight stops the program at once (``forced``).
The same signal again within :data:`SAME_WITHIN_S` of the first is the same interrupt,
not a second one: ``timeout`` sends SIGTERM to the process and then to its group, two
deliveries milliseconds apart.

Exit codes follow the shell's convention: 128 + the signal number, 130 for SIGINT and
143 for SIGTERM.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

SIGNAL_NAMES: dict[int, str] = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}
RESEND_S = 0.02  # a signal that arrived where it could not stop the program is sent again after this
SAME_WITHIN_S = 0.5  # the same signal again within this of the first is the same interrupt (timeout sends two)


class Interrupted(BaseException):
    """The user asked the program to stop.

    A ``BaseException`` (like ``KeyboardInterrupt``) so that no ``except Exception`` on
    the way up swallows it, and not a ``KeyboardInterrupt`` so that the command-line
    library does not turn it into a silent exit.  ``partial`` is whatever honest partial
    result the raising runner had (a ``RunResult`` or ``PairedRun``), else ``None``;
    ``forced`` marks a second signal that did not wait for the work in flight; ``tally``
    is the interrupted run's ``Tally`` (what it played, and during which stage), set as
    the interrupt leaves the run's context.
    """

    def __init__(self, signum: int, partial=None, forced: bool = False, abandoned: str | None = None):
        super().__init__(signum)
        self.signum = signum
        self.partial = partial
        self.forced = forced
        self.abandoned = abandoned  # the work a signal stopped midway (see ``abandoning``), if any
        self.tally: Any = None  # the run's Tally, set as the interrupt leaves the run's context

    @property
    def exit_code(self) -> int:
        return 128 + int(self.signum)

    @property
    def signal_name(self) -> str:
        return SIGNAL_NAMES.get(self.signum, f"signal {int(self.signum)}")


class _State:
    requested: int | None = None  # the first signal received, while it is not yet handled
    requested_at: float = 0.0  # when it came (time.monotonic)
    deferring: int = 0  # depth of nested deferred() regions
    abandoning: str | None = None  # the work of the abandoning() region we are in
    abandoned: bool = False  # a signal stopped such work midway (see ``abandoned_work``)
    installed: bool = False


_state = _State()


def _swallowed_here(frame) -> bool:
    """True where an exception raised by the handler would be printed and dropped instead of
    stopping the program: in a finaliser (``__del__``, anywhere up the stack) or in a ctypes
    callback (llvmlite calls back into Python while LLVM compiles; the top frames).  A
    dropped exception left a compile running for 17 s, or broke it with a traceback."""
    depth = 0
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (depth < 3 and "llvmlite" in code.co_filename):
            return True
        frame, depth = frame.f_back, depth + 1
    return False


def _handler(signum, frame) -> None:
    raising = _state.requested is not None or _state.deferring == 0
    if raising and _swallowed_here(frame):  # the exception would be lost: the signal comes again in a moment
        again = threading.Timer(RESEND_S, os.kill, (os.getpid(), signum))
        again.daemon = True
        again.start()
        return
    if _state.requested == signum and time.monotonic() - _state.requested_at < SAME_WITHIN_S:
        return  # the same interrupt delivered again (to the process, then to its group)
    if _state.requested is not None:  # the second signal: stop at once
        ignore()
        raise Interrupted(_state.requested, forced=True)
    _state.requested, _state.requested_at = signum, time.monotonic()
    if _state.deferring == 0:
        ignore()
        _state.abandoned = _state.abandoning is not None
        raise Interrupted(signum, abandoned=_state.abandoning)


def install() -> None:
    """Handle SIGINT and SIGTERM as described above (main thread only; else a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in SIGNAL_NAMES:
        signal.signal(signum, _handler)
    _state.installed = True


def ignore() -> None:
    """Ignore SIGINT and SIGTERM from now on (the program is on its way out)."""
    if _state.installed and threading.current_thread() is threading.main_thread():
        for signum in SIGNAL_NAMES:
            signal.signal(signum, signal.SIG_IGN)


def abandoned_work() -> bool:
    """True once a signal stopped work that cannot stop between pieces (an
    :class:`abandoning` region).  A compile stopped midway leaves Numba's and LLVM's objects
    half built, and destroying them as the interpreter shuts down can print a traceback or
    crash (seen: a segmentation fault, exit code 1): the command line then ends without
    that shutdown (``os._exit``), once its line is said."""
    return _state.abandoned


def requested() -> bool:
    """True once a signal asked the program to stop."""
    return _state.requested is not None


def stopping(partial=None) -> Interrupted:
    """The exception for the signal received, carrying ``partial``; from here on further
    signals are ignored."""
    ignore()
    return Interrupted(_state.requested if _state.requested is not None else signal.SIGINT, partial)


def check(partial=None) -> None:
    """Raise :class:`Interrupted` (with ``partial``) if a signal asked to stop: called
    where a new piece of work would start."""
    if _state.requested is not None:
        raise stopping(partial)


class deferred:
    """A region where a signal only sets a flag, for code that reads :func:`requested`
    between pieces of work (re-entrant)."""

    def __enter__(self):
        _state.deferring += 1
        return self

    def __exit__(self, *exc) -> None:
        _state.deferring -= 1


class abandoning:
    """A region inside a deferred one whose work cannot stop between pieces (compiling a
    kernel takes seconds): a signal stops it at once, raising :class:`Interrupted` whose
    ``abandoned`` names the work (``what``), instead of waiting for it to finish."""

    def __init__(self, what: str):
        self.what = what

    def __enter__(self):
        self.saved = _state.deferring, _state.abandoning
        if _state.requested is not None:  # asked to stop before it began
            raise stopping()
        _state.deferring, _state.abandoning = 0, self.what
        return self

    def __exit__(self, *exc) -> None:
        _state.deferring, _state.abandoning = self.saved


def reset() -> None:
    """Forget a handled signal (tests, and an API caller that carries on)."""
    _state.requested = None
