"""``analyze`` and ``python -m analyzer``: install the signal handlers before the heavy
imports (Numba, the kernels), so that an interrupt at any moment ends with one line and
exit code 130 (143 for SIGTERM), never a traceback.  A reader that closes the pipe early
(``analyze store | head -2``) ends the command quietly with exit code 141, as SIGPIPE
would."""

from __future__ import annotations

import os
import sys

from analyzer.run import interrupts


def main() -> None:
    interrupts.install()
    try:
        from analyzer.cli.main import run_app
    except interrupts.Interrupted as stop:
        sys.stderr.write(f"interrupted ({stop.signal_name}) while starting\n")
        sys.exit(stop.exit_code)
    try:
        code = run_app(sys.argv[1:])
        sys.stdout.flush()
    except interrupts.Interrupted as stop:  # a signal in the last instants, after the command's own handling
        sys.stderr.write(f"interrupted ({stop.signal_name})\n")
        code = stop.exit_code
    except BrokenPipeError:
        from analyzer.cli.app import closed_pipe

        code = closed_pipe()
    interrupts.ignore()  # the command is over: a late signal must not change its exit code
    if interrupts.abandoned_work():  # skip the shutdown that would destroy a half-built compile
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    main()
