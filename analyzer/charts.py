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
