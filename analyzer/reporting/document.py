"""A strategy report as a document: a list of blocks (headings, paragraphs, tables,
figures) built from the game's spec alone (``analyzer.reporting.content``), rendered either
as Markdown with PNG charts beside it or as one self-contained HTML file with the charts
inlined (``analyzer.reporting.write`` writes them).  What a report runs, for the game's
default table: the hand-mode and game-mode tables; for each of the spec's strategy
fields, every seat's sweep against the default field and its best response; the
equilibrium of the first strategy field (a matrix game for two seats when the headline
is constant-sum, else iterated best response); best responses for each table size in
``spec.report_players``; and every house-rule switch changed alone against the standard
rules, on the same deals.  The written summary is generated from those numbers.
"""

from __future__ import annotations

import base64
import datetime
import html
from dataclasses import dataclass, field

from analyzer.present.files import png_bytes

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


def with_contents(document: Document) -> Document:
    """The document with a table of contents after its opening paragraphs, when it is long."""
    sections = document.sections()
    if len(sections) < TOC_MIN_SECTIONS:
        return document
    taken: dict[str, int] = {}
    anchors: dict[tuple[int, str], str] = {}
    for block in document.blocks:
        if block[0] == "h":
            anchors.setdefault((block[1], block[2]), anchor(block[2], taken))
    entries = [f"[{text}](#{anchors[(2, text)]})" for text in sections]
    first = next(i for i, block in enumerate(document.blocks) if block[0] == "h" and block[1] == 2)
    blocks = document.blocks[:first] + [("h", 2, "Contents"), ("list", entries)] + document.blocks[first:]
    return Document(blocks)


def render_markdown(document: Document) -> tuple[str, dict[str, bytes]]:
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


_STYLE = (
    "body{margin:0;font-family:sans-serif;line-height:1.45;color:#222}"
    "nav{position:fixed;top:0;left:0;bottom:0;width:16em;overflow-y:auto;box-sizing:border-box;"
    "padding:1em;background:#f6f7f9;border-right:1px solid #dde;font-size:88%}"
    "nav a{color:#245;text-decoration:none}nav a:hover{text-decoration:underline}"
    "nav ul{list-style:none;padding-left:0;margin:0}nav ul ul{padding-left:1em}nav li{margin:0.25em 0}"
    "main{margin-left:16em;padding:1em 2.5em 3em;max-width:64em;box-sizing:border-box}"
    ".wide{overflow-x:auto;max-width:100%}"
    "table{border-collapse:collapse;margin:1em 0;font-size:85%}td,th{border:1px solid #ccc;"
    "padding:2px 6px;text-align:left;vertical-align:top}th{background:#f3f3f3}"
    "figure{margin:1em 0}img{width:100%;height:auto;display:block}"
    "figcaption{font-style:italic;font-size:90%}li{margin:0.3em 0}"
    "@media (max-width:60em){nav{position:static;width:auto;border-right:none;border-bottom:1px solid #dde}"
    "main{margin-left:0;padding:1em}}"
)
HTML_DPI = 150  # charts are drawn at 100 dots per inch; the HTML page shows them full width, so sharper


def _inline(text: str) -> str:
    """Markdown's `code`, **bold** and [links](#anchor) as HTML (the only inline marks
    reports use)."""
    import re

    escaped = html.escape(text, quote=False)
    parts = escaped.split("`")
    escaped = "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))
    parts = escaped.split("**")
    escaped = "".join(f"<b>{part}</b>" if i % 2 else part for i, part in enumerate(parts))
    return re.sub(
        r"\[([^\]]+)\]\(([^)\s]+)\)", lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>', escaped
    )


def render_html(document: Document, title: str) -> str:
    """One self-contained page: a side navigation of the sections (level 2 and 3 headings),
    the report in a column beside it with charts at the column's full width (inlined as
    PNG) and wide tables scrolling inside their own box."""
    body = []
    nav: list[tuple[int, str, str]] = []
    taken: dict[str, int] = {}
    skip_list = False
    for block in document.blocks:
        if block[0] == "h":
            ident = anchor(block[2], taken)
            if block[1] == 2 and block[2] == "Contents":  # the side navigation replaces it
                skip_list = True
                continue
            if block[1] in (2, 3):
                nav.append((block[1], ident, block[2]))
            body.append(f'<h{block[1]} id="{ident}">{_inline(block[2])}</h{block[1]}>')
        elif block[0] == "p":
            body.append(f"<p>{_inline(block[1])}</p>")
        elif block[0] == "list":
            if skip_list:
                skip_list = False
                continue
            body.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in block[1]) + "</ul>")
        elif block[0] == "table":
            head = "".join(f"<th>{_inline(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in block[2])
            body.append(f'<div class="wide"><table><tr>{head}</tr>{rows}</table></div>')
        else:
            data = base64.b64encode(png_bytes(block[2], HTML_DPI)).decode("ascii")
            body.append(
                f'<figure><img alt="{html.escape(block[3])}" src="data:image/png;base64,{data}">'
                f"<figcaption>{html.escape(block[3])}</figcaption></figure>"
            )
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body>\n<nav>{_navigation(nav)}</nav>\n<main>\n"
        + "\n".join(body)
        + "\n</main>\n</body></html>\n"
    )


def _navigation(entries: list[tuple[int, str, str]]) -> str:
    """Nested lists of links: each level-2 heading with its level-3 headings under it."""
    sections: list[tuple[str, str, list[tuple[str, str]]]] = []
    for level, ident, text in entries:
        if level == 2 or not sections:
            sections.append((ident, text, []))
        else:
            sections[-1][2].append((ident, text))

    def link(ident: str, text: str) -> str:
        return f'<a href="#{ident}">{_inline(text)}</a>'

    items = []
    for ident, text, subsections in sections:
        inner = "".join(f"<li>{link(i, t)}</li>" for i, t in subsections)
        items.append(f"<li>{link(ident, text)}" + (f"<ul>{inner}</ul>" if inner else "") + "</li>")
    return "<ul>" + "".join(items) + "</ul>"


def version_text() -> str:
    from importlib import metadata

    try:
        return metadata.version("card-analyzer")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def today() -> str:
    return datetime.date.today().isoformat()


def mode_counts(count: int) -> dict[str, int]:
    """How many hands or games each part of a report plays, from ``--hands``."""
    return {
        "hands": count,
        "games": max(200, count // 10),
        "strategy_hands": max(200, count // 5),
        "strategy_games": max(100, count // 50),
        "rules_hands": max(200, count // 2),
        "rules_games": max(100, count // 20),
    }
