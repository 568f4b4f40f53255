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
from dataclasses import dataclass, field
from pathlib import Path

from sims.spec import GameSpec


def write_run_outputs(directory: Path, stem: str, summary: dict, headline: str, title: str) -> list[Path]:
    """Write ``<stem>.csv`` (tidy estimates), ``<stem>.json`` (the --json object) and
    ``<stem>.png`` (the headline outcome per seat with 95% intervals) into ``directory``."""
    from analyzer.charts import seat_outcome_chart
    from analyzer.tables import estimates_frame

    directory.mkdir(parents=True, exist_ok=True)
    unit = summary["mode"]
    frame = estimates_frame(summary["results"], summary[unit], unit)
    paths = [directory / f"{stem}.csv", directory / f"{stem}.json", directory / f"{stem}.png"]
    frame.to_csv(paths[0], index=False)
    paths[1].write_text(json.dumps(summary, indent=2) + "\n")
    figure = seat_outcome_chart(frame, headline, title, headline.replace("_", " "))
    figure.savefig(paths[2])
    return paths


def write_sweep_outputs(directory: Path, stem: str, records: list[dict], spec: GameSpec, mode: int,
                        seat: int | None, players: int) -> list[Path]:
    """Write ``<stem>.csv`` (one row per value, seat and outcome) and ``<stem>.png`` (each
    outcome of the swept seat, or the headline of every seat, against the value)."""
    from analyzer.charts import sweep_chart
    from analyzer.tables import sweep_frame

    directory.mkdir(parents=True, exist_ok=True)
    frame = sweep_frame(records)
    paths = [directory / f"{stem}.csv", directory / f"{stem}.png"]
    frame.to_csv(paths[0], index=False)
    outcomes = spec.outcomes[mode]
    shown = outcomes.estimated(outcomes.seat)
    field_key = records[0]["field"] if records else ""
    if seat is not None:
        frame = frame[(frame["seat"] == seat) | (frame["seat"] == "table")]
        title = f"{spec.title}, {players} players: seat {seat} sweeps {field_key}"
    else:
        shown = [spec.headline[mode]]
        title = f"{spec.title}, {players} players: every seat sweeps {field_key}"
    sweep_chart(frame, shown, title, field_key).savefig(paths[1])
    return paths


# ------------------------------------------------------------------------------ documents


@dataclass
class Document:
    """A report as blocks: ("h", level, text), ("p", text), ("table", headers, rows),
    ("figure", name, figure, caption)."""

    blocks: list = field(default_factory=list)

    def heading(self, level: int, text: str) -> None:
        self.blocks.append(("h", level, text))

    def paragraph(self, text: str) -> None:
        self.blocks.append(("p", text))

    def table(self, headers: list[str], rows: list[list[str]]) -> None:
        self.blocks.append(("table", headers, rows))

    def figure(self, name: str, figure, caption: str) -> None:
        self.blocks.append(("figure", name, figure, caption))


def _markdown(document: Document, directory: Path) -> str:
    lines = []
    for block in document.blocks:
        if block[0] == "h":
            lines += ["#" * block[1] + " " + block[2], ""]
        elif block[0] == "p":
            lines += [block[1], ""]
        elif block[0] == "table":
            headers, rows = block[1], block[2]
            lines.append("| " + " | ".join(headers) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
            lines.append("")
        else:
            name, figure, caption = block[1], block[2], block[3]
            figure.savefig(directory / f"{name}.png")
            lines += [f"![{caption}]({name}.png)", "", f"*{caption}*", ""]
    return "\n".join(lines)


_STYLE = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;line-height:1.45}"
          "table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #ccc;padding:2px 6px;"
          "text-align:left}th{background:#f3f3f3}img{max-width:100%}figcaption{font-style:italic;font-size:90%}")


def _inline(text: str) -> str:
    """Markdown's `code` and *emphasis* as HTML (the only inline marks reports use)."""
    escaped = html.escape(text)
    parts = escaped.split("`")
    escaped = "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))
    parts = escaped.split("**")
    return "".join(f"<b>{part}</b>" if i % 2 else part for i, part in enumerate(parts))


def _html(document: Document, title: str) -> str:
    body = []
    for block in document.blocks:
        if block[0] == "h":
            body.append(f"<h{block[1]}>{_inline(block[2])}</h{block[1]}>")
        elif block[0] == "p":
            body.append(f"<p>{_inline(block[1])}</p>")
        elif block[0] == "table":
            head = "".join(f"<th>{_inline(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in block[2])
            body.append(f"<table><tr>{head}</tr>{rows}</table>")
        else:
            buffer = io.BytesIO()
            block[2].savefig(buffer, format="png")
            data = base64.b64encode(buffer.getvalue()).decode("ascii")
            body.append(f'<figure><img alt="{html.escape(block[3])}" src="data:image/png;base64,{data}">'
                        f"<figcaption>{html.escape(block[3])}</figcaption></figure>")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def write_report(spec: GameSpec, directory: Path, count: int, seed: int, report_format: str = "md",
                 threads: int | None = None, progress=None) -> Path:
    """Build the report of one game and write it into ``directory``: ``README.md`` and
    its PNG charts, or one self-contained ``report.html``."""
    from analyzer.report_content import build_report

    directory.mkdir(parents=True, exist_ok=True)
    document = build_report(spec, count, seed, threads, progress)
    if report_format == "html":
        path = directory / "report.html"
        path.write_text(_html(document, f"{spec.title}: strategy report"))
    else:
        for old in directory.glob("*.png"):
            old.unlink()
        path = directory / "README.md"
        path.write_text(_markdown(document, directory))
    return path


def today() -> str:
    return datetime.date.today().isoformat()


def mode_counts(count: int) -> dict[str, int]:
    """How many hands or games each part of a report plays, from ``--hands``."""
    return {"hands": count, "games": max(200, count // 10), "strategy_hands": max(200, count // 5),
            "strategy_games": max(100, count // 50), "rules_hands": max(200, count // 2),
            "rules_games": max(100, count // 20)}

