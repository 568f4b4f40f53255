"""Numbers as text: a mean to the precision its standard error supports, with its interval
or its standard error.  Shared by the command line and the reports."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sims.spec import GameSpec


def number_text(value: float, se: float) -> str:
    """``value`` rounded to two significant digits of its standard error (4 decimals when
    the error is zero or unknown)."""
    if math.isnan(value):
        return "nan"
    if se > 0 and math.isfinite(se):
        digits = min(6, max(0, 1 - math.floor(math.log10(se))))
    else:
        digits = 4
    return f"{value:.{digits}f}"


def estimate_text(estimate) -> str:
    """``mean [low, high]`` of an estimate (an ``Estimate`` or its record dict)."""

    def get(key: str) -> float:
        return float(estimate[key] if isinstance(estimate, dict) else getattr(estimate, key))

    mean, se = get("mean"), get("se")
    if math.isnan(mean):  # a conditional mean over no hand (a contract never bid)
        return "– (none seen)"
    if se == 0:  # a proportion seen never or always: the interval still has a width
        return f"{mean:.4g} [{get('ci_low'):.2g}, {get('ci_high'):.2g}]"
    return f"{number_text(mean, se)} [{number_text(get('ci_low'), se)}, {number_text(get('ci_high'), se)}]"


def with_se(value: float, se: float, signed: bool = False) -> str:
    """``value ± se`` (``+value ± se`` with ``signed``); just the value when the error is
    zero, and ``± nan`` when it is unknown."""
    text = number_text(value, se)
    if signed and not text.startswith("-") and text != "nan":
        text = "+" + text
    if se == 0:
        return text
    return f"{text} ± {se:.2g}"


def mix_text(support: list[tuple[str, float, float]]) -> str:
    """A mixed strategy as words: ``(label, probability, standard error)`` per choice."""
    if len(support) == 1 and not support[0][2] > 0:
        return f"always plays {support[0][0]}"
    return "plays " + ", ".join(f"{label} with probability {with_se(p, se)}" for label, p, se in support)


def target_note(target_se: float | None, largest: float) -> str:
    """The closing note of a run given --target-se whose cap came first (else "")."""
    if target_se is None or largest < target_se:
        return ""
    return (
        f"note: the cap came first: the largest standard error is {largest:.2g}, above --target-se "
        f"{target_se:g}; raise --hands/--games to go further"
    )


def finite(value):
    """``value`` with every infinite or undefined number replaced by None (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    return value


def best_text(values, response) -> str:
    """A best response's value (``values``: its ``FieldRange``), its tie set, or "any" when
    the field makes no measurable difference to the seat."""
    if response.no_effect:
        return "any (no measurable effect)"
    best = " or ".join(values.value_text(response.values[i]) for i in sorted(response.tied))
    return best + (" (tie)" if response.is_tie else "")


def field_label(field) -> str:
    """A policy field as an axis label: its key and what it means."""
    return f"{field.key}: {field.help}"


def outcome_labels(spec: GameSpec, mode: int) -> dict[str, str]:
    """Axis labels with units for every outcome of a mode: its help text, which says what
    the number is and per what (``probability the seat loses a life``, ``expected chips
    won per deal``)."""
    outcomes = spec.outcomes[mode]
    return {name: outcomes.help.get(name, name.replace("_", " ")) for name in outcomes.seat + outcomes.table}


def group_grid(outcomes, prefix: str, lookup) -> tuple[tuple[str, ...], tuple[str, ...], list, list]:
    """A group that ``outcomes.grids`` lays out as a grid (Five Hundred's contracts, level
    by suit): ``(row labels, column labels, cells, apart)``.  ``cells[r][c]`` is the
    estimate of the label row + column (from ``lookup(outcome name)``), ``apart`` the
    ``(label, estimate)`` of every label no cell holds (misere)."""
    rows, columns = outcomes.grids[prefix]
    labels = outcomes.groups[prefix][1]
    cells = [[lookup(f"{prefix}_{row}{column}") for column in columns] for row in rows]
    inside = {row + column for row in rows for column in columns}
    apart = [(label, lookup(f"{prefix}_{label}")) for label in labels if label not in inside]
    return rows, columns, cells, apart


def cell_text(estimate) -> str:
    """An estimate in a grid's cell: ``mean ± se``; a dash where nothing was observed (a
    contract never bid), and the mean alone, marked, where one observation gives no error."""

    def get(key: str) -> float:
        return float(estimate[key] if isinstance(estimate, dict) else getattr(estimate, key))

    mean, se = get("mean"), get("se")
    if math.isnan(mean):
        return "–"
    if math.isnan(se):
        return f"{mean:.3g} (one)"
    if se == 0:
        return f"{mean:.4g}"
    return with_se(mean, se)


def grid_lines(outcomes, prefix: str, lookup) -> list[str]:
    """A grid group as text lines: a header of column labels, one line per row, then the
    labels apart (see :func:`group_grid`)."""
    rows, columns, cells, apart = group_grid(outcomes, prefix, lookup)
    texts = [[cell_text(cell) for cell in row] for row in cells]
    width = max(4, *(len(text) for row in texts for text in row), *(len(c) for c in columns))
    label_width = max(len(row) for row in rows)
    lines = [" " * (label_width + 2) + "  ".join(f"{column:>{width}}" for column in columns)]
    lines += [
        f"  {row:>{label_width}}" + "".join(f"  {text:>{width}}" for text in line) for row, line in zip(rows, texts)
    ]
    if apart:
        lines.append("  " + "; ".join(f"{label}: {cell_text(estimate)}" for label, estimate in apart))
    return lines


def runs_text(positions: list[int], label) -> list[str]:
    """Sorted whole numbers as text, runs of three or more adjacent ones as "a to b"
    (``label(k)`` names position ``k``): [0, 1, 2, 5] -> ["0 to 2", "5"]."""
    parts, start = [], 0
    while start < len(positions):
        end = start
        while end + 1 < len(positions) and positions[end + 1] == positions[end] + 1:
            end += 1
        if end - start >= 2:
            parts.append(f"{label(positions[start])} to {label(positions[end])}")
        else:
            parts += [label(positions[k]) for k in range(start, end + 1)]
        start = end + 1
    return parts
