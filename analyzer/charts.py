"""DataFrame -> matplotlib Figure (Agg backend, never shown)."""

from __future__ import annotations


def seat_outcome_chart(frame, outcome: str, title: str, ylabel: str):
    """Bar chart of one seat outcome per seat with 95% interval error bars."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows = frame[(frame["outcome"] == outcome) & (frame["seat"] != "table")]
    seats = [int(s) for s in rows["seat"]]
    means = rows["mean"].to_numpy(dtype=float)
    errors = [means - rows["ci_low"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float) - means]
    figure = Figure(figsize=(max(4.0, 0.5 * len(seats) + 2), 3.2), dpi=120)
    axes = figure.subplots()
    axes.bar(seats, means, yerr=errors, capsize=3, color="#4C72B0")
    axes.set_xticks(seats)
    axes.set_xlabel("seat")
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return figure


def _figure(width: float, height: float):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=90)


def sweep_chart(frame, outcomes: list[str], title: str, field: str, seat_label: str = "seat"):
    """One panel per outcome: its mean against the swept value, a line per seat, with 95%
    interval error bars.  ``frame`` is a tidy sweep frame (value, value_text, seat,
    outcome, mean, ci_low, ci_high)."""
    panels = len(outcomes)
    columns = min(panels, 2)
    rows = -(-panels // columns)
    figure = _figure(5.2 * columns, 3.0 * rows + 0.4)
    axes_list = figure.subplots(rows, columns, squeeze=False).ravel()
    seats = [s for s in dict.fromkeys(frame["seat"]) if s != "table"]
    for axes, outcome in zip(axes_list, outcomes):
        chosen = frame[frame["outcome"] == outcome]
        for seat in (seats if (chosen["seat"] != "table").any() else ["table"]):
            line = chosen[chosen["seat"] == seat].sort_values("value")
            means = line["mean"].to_numpy(dtype=float)
            errors = [means - line["ci_low"].to_numpy(dtype=float), line["ci_high"].to_numpy(dtype=float) - means]
            axes.errorbar(line["value"].to_numpy(dtype=float), means, yerr=errors, capsize=2, marker="o", markersize=3,
                          linewidth=1, label=f"{seat_label} {seat}" if seat != "table" else "table")
        ticks = chosen.drop_duplicates("value").sort_values("value")
        if len(ticks) <= 16:
            axes.set_xticks(ticks["value"].to_numpy(dtype=float), ticks["value_text"].tolist(),
                            rotation=30 if ticks["value_text"].str.len().max() > 4 else 0, fontsize=8)
        axes.set_xlabel(field)
        axes.set_ylabel(outcome.replace("_", " "))
        axes.grid(alpha=0.3)
        if len(seats) > 1 and (chosen["seat"] != "table").any():
            axes.legend(fontsize=7, ncol=2 if len(seats) > 5 else 1)
    for axes in axes_list[panels:]:
        axes.set_visible(False)
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    return figure


def effect_chart(labels: list[str], seats: list[int], differences, errors, title: str, ylabel: str):
    """Grouped bars: each house rule's effect (difference from the default) on each seat,
    with 95% error bars from the paired standard errors.  ``differences``/``errors`` are
    ``[rule][seat]``."""
    import numpy as np

    figure = _figure(min(11.0, 3.0 + 0.5 * len(labels) * max(1.0, len(seats) / 4)), 3.8)
    axes = figure.subplots()
    width = 0.8 / max(1, len(seats))
    positions = np.arange(len(labels))
    for k, seat in enumerate(seats):
        axes.bar(positions + (k - (len(seats) - 1) / 2) * width, [row[k] for row in differences], width,
                 yerr=[1.96 * row[k] for row in errors], capsize=1.5, label=f"seat {seat}")
    axes.axhline(0, color="black", linewidth=0.6)
    axes.set_xticks(positions, labels, rotation=40, ha="right", fontsize=7)
    axes.set_ylabel(ylabel, fontsize=8)
    axes.set_title(title, fontsize=10)
    axes.grid(axis="y", alpha=0.3)
    if len(seats) > 1:
        axes.legend(fontsize=6, ncol=min(len(seats), 5))
    figure.tight_layout()
    return figure
