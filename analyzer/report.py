"""The only module that writes files: run outputs (CSV, JSON, PNG), sweep outputs and
strategy reports.

A report is built as a list of blocks (headings, paragraphs, tables, figures) from the
game's spec alone, then rendered either as Markdown with PNG charts beside it or as one
self-contained HTML file with the charts inlined.  What it runs, for the game's default
table: the hand-mode and game-mode tables; for each of the spec's strategy fields, every
seat's sweep against the default field and its best response; the equilibrium of the
first strategy field (a matrix game for two seats when the headline is constant-sum,
else iterated best response); best responses for each table size in
``spec.report_players``; and every house-rule switch changed alone against the standard
rules, on the same deals.  The written summary is generated from those numbers.
"""

from __future__ import annotations

import base64
import datetime
import html
import io
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

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
                raise ValueError(f"{flag} {path} has a folder name longer than this file system allows "
                                 f"({len(os.fsencode(name))} bytes, at most {longest_name}).")
    if len(os.fsencode(os.path.abspath(path))) + 256 > os.pathconf(existing if existing.is_dir() else "/",
                                                                   "PC_PATH_MAX"):
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


def png_bytes(figure) -> bytes:
    """A matplotlib figure as PNG bytes."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def write_files(files: dict[Path, bytes | str]) -> list[Path]:
    """Write every file atomically, with signals held until the last one is in place."""
    from analyzer import interrupts

    with interrupts.deferred():
        return [write_atomically(path, content) for path, content in files.items()]


def write_run_outputs(directory: Path, stem: str, summary: dict, headline: str, title: str, ylabel: str) -> list[Path]:
    """Write ``<stem>.csv`` (tidy estimates), ``<stem>.json`` (the --json object) and
    ``<stem>.png`` (the headline outcome per seat with 95% intervals) into ``directory``."""
    from analyzer.charts import seat_outcome_chart
    from analyzer.tables import estimates_frame

    unit = summary["mode"]
    frame = estimates_frame(summary["results"], summary[unit], unit)
    figure = seat_outcome_chart(frame, headline, title, ylabel)
    return write_files({directory / f"{stem}.csv": frame.to_csv(index=False),
                        directory / f"{stem}.json": json.dumps(summary, indent=2) + "\n",
                        directory / f"{stem}.png": png_bytes(figure)})


def write_sweep_outputs(directory: Path, stem: str, records: list[dict], spec: GameSpec, mode: int,
                        seat: int | None, players: int) -> list[Path]:
    """Write ``<stem>.csv`` (one row per value, seat and outcome) and ``<stem>.png`` (the
    chart of :func:`sweep_figure`)."""
    from analyzer.tables import sweep_frame

    figure = sweep_figure(records, spec, mode, seat, players)
    return write_files({directory / f"{stem}.csv": sweep_frame(records).to_csv(index=False),
                        directory / f"{stem}.png": png_bytes(figure)})


def sweep_figure(records: list[dict], spec: GameSpec, mode: int, seat: int | None, players: int):
    """The chart of a sweep's records: each outcome of the swept seat (``seat``), or the
    headline of every seat (``None``), against the value."""
    from analyzer.charts import sweep_chart
    from analyzer.tables import sweep_frame

    frame = sweep_frame(records)
    outcomes = spec.outcomes[mode]
    shown = outcomes.estimated(outcomes.seat)
    field_key = records[0]["field"] if records else ""
    if seat is not None:
        frame = frame[(frame["seat"] == seat) | (frame["seat"] == "table")]
        title = f"{spec.title}, {players} players: seat {seat} sweeps {field_key}"
    else:
        shown = [spec.headline[mode]]
        title = f"{spec.title}, {players} players: every seat sweeps {field_key}"
    field = spec.policy_field(field_key) if field_key else None
    return sweep_chart(frame, shown, title, field_key, labels=outcome_labels(spec, mode),
                       choices=bool(field and field.choices), field_label=field_label(field) if field else None)


def write_compare_outputs(directory: Path, stem: str, summary: dict, figure) -> list[Path]:
    """Write ``<stem>.csv`` (one row per compared rule set, seat and outcome: the paired
    difference and its errors), ``<stem>.json`` (the --json object) and ``<stem>.png``."""
    from analyzer.tables import differences_frame

    frame = differences_frame(summary["differences"])
    return write_files({directory / f"{stem}.csv": frame.to_csv(index=False),
                        directory / f"{stem}.json": json.dumps(summary, indent=2) + "\n",
                        directory / f"{stem}.png": png_bytes(figure)})


def field_label(field) -> str:
    """A policy field as an axis label: its key and what it means."""
    return f"{field.key}: {field.help}"


def outcome_labels(spec: GameSpec, mode: int) -> dict[str, str]:
    """Axis labels with units for every outcome of a mode: its help text, which says what
    the number is and per what (``probability the seat loses a life``, ``expected chips
    won per deal``)."""
    outcomes = spec.outcomes[mode]
    return {name: outcomes.help.get(name, name.replace("_", " ")) for name in outcomes.seat + outcomes.table}


# ------------------------------------------------------------------------------ documents

TOC_MIN_SECTIONS = 4  # a report with this many sections or more opens with a table of contents


@dataclass
class Document:
    """A report as blocks: ("h", level, text), ("p", text), ("list", items),
    ("table", headers, rows), ("figure", name, figure, caption)."""

    blocks: list = field(default_factory=list)

    def heading(self, level: int, text: str) -> None:
        self.blocks.append(("h", level, text))

    def paragraph(self, text: str) -> None:
        self.blocks.append(("p", text))

    def bullets(self, items: list[str]) -> None:
        self.blocks.append(("list", list(items)))

    def table(self, headers: list[str], rows: list[list[str]]) -> None:
        self.blocks.append(("table", headers, rows))

    def figure(self, name: str, figure, caption: str) -> None:
        self.blocks.append(("figure", name, figure, caption))

    def sections(self) -> list[str]:
        """The texts of the level-2 headings, in order."""
        return [block[2] for block in self.blocks if block[0] == "h" and block[1] == 2]


def anchor(text: str, taken: dict[str, int]) -> str:
    """The anchor a heading gets, as GitHub makes it (lower case, punctuation dropped,
    spaces to hyphens, -1, -2 ... for repeats); the HTML output uses the same ids."""
    slug = "".join(c for c in text.lower() if c.isalnum() or c in " -_").replace(" ", "-")
    count = taken.get(slug, 0)
    taken[slug] = count + 1
    return slug if count == 0 else f"{slug}-{count}"


def _with_contents(document: Document) -> Document:
    """The document with a table of contents after its opening paragraphs, when it is long."""
    sections = document.sections()
    if len(sections) < TOC_MIN_SECTIONS:
        return document
    taken: dict[str, int] = {}
    anchors = {}
    for block in document.blocks:
        if block[0] == "h":
            anchors.setdefault((block[1], block[2]), anchor(block[2], taken))
    entries = [f"[{text}](#{anchors[(2, text)]})" for text in sections]
    first = next(i for i, block in enumerate(document.blocks) if block[0] == "h" and block[1] == 2)
    blocks = document.blocks[:first] + [("h", 2, "Contents"), ("list", entries)] + document.blocks[first:]
    return Document(blocks)


def _markdown(document: Document) -> tuple[str, dict[str, bytes]]:
    """The Markdown text and the PNG files it links to (name -> bytes)."""
    lines = []
    images = {}
    for block in document.blocks:
        if block[0] == "h":
            lines += ["#" * block[1] + " " + block[2], ""]
        elif block[0] == "p":
            lines += [block[1], ""]
        elif block[0] == "list":
            lines += [f"- {item}" for item in block[1]] + [""]
        elif block[0] == "table":
            headers, rows = block[1], block[2]
            lines.append("| " + " | ".join(headers) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
            lines.append("")
        else:
            name, figure, caption = block[1], block[2], block[3]
            images[f"{name}.png"] = png_bytes(figure)
            lines += [f"![{caption}]({name}.png)", "", f"*{caption}*", ""]
    return "\n".join(lines), images


_STYLE = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;line-height:1.45}"
          "table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #ccc;padding:2px 6px;"
          "text-align:left}th{background:#f3f3f3}img{max-width:100%}figcaption{font-style:italic;font-size:90%}"
          "li{margin:0.3em 0}")


def _inline(text: str) -> str:
    """Markdown's `code`, **bold** and [links](#anchor) as HTML (the only inline marks
    reports use)."""
    import re

    escaped = html.escape(text, quote=False)
    parts = escaped.split("`")
    escaped = "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))
    parts = escaped.split("**")
    escaped = "".join(f"<b>{part}</b>" if i % 2 else part for i, part in enumerate(parts))
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>',
                  escaped)


def _html(document: Document, title: str) -> str:
    body = []
    taken: dict[str, int] = {}
    for block in document.blocks:
        if block[0] == "h":
            body.append(f'<h{block[1]} id="{anchor(block[2], taken)}">{_inline(block[2])}</h{block[1]}>')
        elif block[0] == "p":
            body.append(f"<p>{_inline(block[1])}</p>")
        elif block[0] == "list":
            body.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in block[1]) + "</ul>")
        elif block[0] == "table":
            head = "".join(f"<th>{_inline(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in block[2])
            body.append(f"<table><tr>{head}</tr>{rows}</table>")
        else:
            data = base64.b64encode(png_bytes(block[2])).decode("ascii")
            body.append(f'<figure><img alt="{html.escape(block[3])}" src="data:image/png;base64,{data}">'
                        f"<figcaption>{html.escape(block[3])}</figcaption></figure>")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


REPORT_FILES = {"md": "README.md", "html": "report.html"}


def write_report(spec: GameSpec, directory: Path, count: int, seed: int, report_format: str = "md",
                 threads: int | None = None, progress=None) -> Path:
    """Build the report of one game and write it into ``directory``: ``README.md`` and
    its PNG charts, or one self-contained ``report.html``.  Nothing is written until the
    whole report is built, and then every file atomically, so an interrupted report
    leaves the previous one as it was."""
    from analyzer import interrupts
    from analyzer.report_content import build_report

    document = _with_contents(build_report(spec, count, seed, threads, progress))
    interrupts.check()  # a Ctrl-C during the last run stops here, before the charts are drawn
    path = directory / REPORT_FILES[report_format]
    if report_format == "html":
        write_files({path: _html(document, f"{spec.title}: strategy report")})
        return path
    text, images = _markdown(document)
    write_files({**{directory / name: data for name, data in images.items()}, path: text})
    for old in directory.glob("*.png"):  # charts of an earlier report that this one no longer has
        if old.name not in images:
            old.unlink()
    return path


def write_index(directory: Path, specs: list[GameSpec], count: int, seed: int, report_format: str = "md") -> Path:
    """The page linking every game's report (``README.md`` or ``index.html``)."""
    document = Document()
    document.heading(1, "Strategy reports")
    document.paragraph(f"One report per game, generated by `analyze report all --hands {count} --seed {seed}` on "
                       f"{today()} with card-analyzer {_version()}.")
    document.bullets([f"[{spec.title}]({spec.name}/{REPORT_FILES[report_format]}) (`{spec.name}`): {spec.summary}"
                      for spec in specs])
    if report_format == "html":
        return write_files({directory / "index.html": _html(document, "Strategy reports")})[0]
    return write_files({directory / "README.md": _markdown(document)[0]})[0]


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("card-analyzer")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def today() -> str:
    return datetime.date.today().isoformat()


def mode_counts(count: int) -> dict[str, int]:
    """How many hands or games each part of a report plays, from ``--hands``."""
    return {"hands": count, "games": max(200, count // 10), "strategy_hands": max(200, count // 5),
            "strategy_games": max(100, count // 50), "rules_hands": max(200, count // 2),
            "rules_games": max(100, count // 20)}

