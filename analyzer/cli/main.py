"""Runs the ``analyze`` command line: registers every command module's commands on the
app of ``analyzer.cli.app`` and turns the command-line library's usage errors into one
sentence (exit code 2)."""

from __future__ import annotations

import logging

import typer

from analyzer.cli import advise, bench, games, solve, store, strategy  # noqa: F401  (each registers its commands)
from analyzer.cli.app import app, closed_pipe
from analyzer.run import interrupts
from sims.registry import GAMES


def _usage_error_types() -> tuple[type[BaseException], ...]:
    """The command-line library's usage-error classes (Typer vendors Click from 0.2x on)."""
    found: list[type[BaseException]] = []
    try:
        from typer.exceptions import TyperException

        found.append(TyperException)
    except ImportError:  # pragma: no cover - an older Typer on an external Click
        pass
    try:
        from click.exceptions import ClickException

        found.append(ClickException)
    except ImportError:
        pass
    return tuple(found)


def usage_sentence(error) -> str:
    """The command-line library's complaint as one sentence (no usage block); an unknown
    game or command gets the list of both and the nearest names."""
    import difflib

    message = " ".join(str(error.format_message()).split())
    if message.startswith("No such command"):
        name = message.split("'")[1] if "'" in message else ""
        commands = [command.name for command in app.registered_commands if command.name and command.name not in GAMES]
        near = difflib.get_close_matches(name.lower().replace("_", "-"), list(GAMES) + commands, n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        return (
            f"unknown game or command '{name}'{hint}; the games are: {', '.join(GAMES)}; the commands are: "
            f"{', '.join(commands)}."
        )
    message = message[:1].lower() + message[1:]
    return message if message.endswith((".", "?")) else message + "."


class _WarningLine(logging.Handler):
    """The core's warnings (a damaged kernel cache repaired) as one ``warning:`` line."""

    def emit(self, record: logging.LogRecord) -> None:
        typer.echo(f"warning: {record.getMessage()}", err=True)


def run_app(args: list[str]) -> int:
    """Run ``analyze`` with ``args``; the exit code.  Usage errors of the command-line
    library become one sentence and exit code 2 like every other bad input."""
    log = logging.getLogger("card_analyzer")
    if not any(isinstance(handler, _WarningLine) for handler in log.handlers):
        log.addHandler(_WarningLine())
        log.propagate = False
    try:
        code = app(args=list(args) or ["--help"], prog_name="analyze", standalone_mode=False)
    except _usage_error_types() as error:
        if getattr(error, "exit_code", 1) != 2:
            raise
        typer.echo(f"error: {usage_sentence(error)}", err=True)
        return 2
    except BrokenPipeError:  # the reader of stdout went away (| head), outside a command's own handling
        return closed_pipe()
    except typer.Abort:  # the library's answer to end of input
        typer.echo("error: the command was aborted (end of input).", err=True)
        return 1
    except interrupts.Interrupted as stop:  # between commands' own handling (parsing, start-up)
        interrupts.ignore()
        typer.echo(f"interrupted ({stop.signal_name}) before any hand was played", err=True)
        return stop.exit_code
    return code if isinstance(code, int) else 0
