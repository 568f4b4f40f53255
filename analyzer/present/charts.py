"""DataFrame -> matplotlib Figure.

A chart is a ``matplotlib.figure.Figure`` made without pyplot, so drawing one never
opens a window nor changes the user's backend: files are written by Agg, and in Jupyter
the figure a result's ``plot()`` returns shows inline (:func:`shown_in_jupyter`).  A
single-panel chart is drawn into the user's axes when ``ax`` is given.

Every chart is drawn at the size it is shown: at most 8 inches wide at 100 dots per inch
(800 pixels, about the width of a Markdown page, so it is not shrunk on the page), with
text of 9 to 11 points (7 to 8 in the cells of a heat map and in a crowded legend), axis
labels that say what the number is and per what (the outcome's help text), titles and
labels wrapped to the width, and 95% intervals or paired errors on every estimate.
"""

from __future__ import annotations

import textwrap
from contextlib import contextmanager

DPI = 100
MAX_WIDTH = 8.0  # inches: wider, a chart would be shrunk on the page, and its fonts with it
COLOUR_FLOOR = 0.25  # the least colour of a measurable change in a heat map (of 1)
STYLE = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "figure.titlesize": 11,
}


@contextmanager
def _style():
    """Fonts are fixed when text is created, so a chart is built inside this context."""
    import matplotlib

    with matplotlib.rc_context(STYLE):
        yield


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(min(width, MAX_WIDTH), height), dpi=DPI)


def _axes(ax, width: float, height: float):
    """(figure, axes): the user's ``ax`` and its figure, or a new figure's one axes."""
    if ax is not None:
        _check_axes(ax)
        return ax.figure, ax
    figure = _figure(width, height)
    return figure, figure.subplots()


def _check_axes(ax) -> None:
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise ValueError(f"ax is a matplotlib Axes to draw into, not {ax!r}.")


def shown_in_jupyter(figure, ax=None):
    """What a result's ``plot()`` returns: ``ax`` when the chart was drawn into the user's
    axes (their figure is theirs to show), else ``figure``, and in Jupyter a PNG display
    of figures made without pyplot (IPython shows them only once an inline backend
    registered one)."""
    if ax is not None:
        return ax
    from analyzer.run.progress import in_jupyter

    if in_jupyter():
        import io

        from IPython import get_ipython
        from matplotlib.figure import Figure

        def png(shown: Figure) -> bytes:
            buffer = io.BytesIO()
            shown.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
            return buffer.getvalue()

        formatter = get_ipython().display_formatter.formatters["image/png"]
        if Figure not in formatter.type_printers:  # an inline backend's own printer stays
            formatter.for_type(Figure, png)
    return figure


def seat_rows(frame, seat=None):
    """The rows of one seat (``seat``), of every seat (None), or the table's (``"table"``)."""
    if seat == "table":
        return frame[frame["scope"] == "table"]
    if seat is None:
        return frame[frame["scope"] == "seat"]
    return frame[frame["seat"].eq(seat).fillna(False).astype(bool)]


def wrapped(label: str, width: int = 34) -> str:
    """A long label over several lines of at most ``width`` characters."""
    return "\n".join(textwrap.wrap(label, width)) or label


def across(figure, fontsize: float, share: float = 0.92) -> int:
    """How many characters of text at ``fontsize`` points fit across ``share`` of the
    figure (a character is about 0.55 of the font size wide)."""
    return max(20, int(share * figure.get_figwidth() * 72 / (0.55 * fontsize)))


def seat_outcome_chart(frame, outcome: str, title: str, ylabel: str, ax=None):
    """Bar chart of one seat outcome per seat with 95% interval error bars; ``ylabel``
    says what the number is (``probability the seat loses a life``)."""
    with _style():
        rows = seat_rows(frame)
        rows = rows[rows["outcome"] == outcome]
        seats = [int(s) for s in rows["seat"]]
        means = rows["mean"].to_numpy(dtype=float)
        errors = [means - rows["ci_low"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float) - means]
        figure, axes = _axes(ax, max(5.0, 0.55 * len(seats) + 2.5), 3.6)
        axes.bar(seats, means, yerr=errors, capsize=3, color="#4C72B0")
        axes.set_xticks(seats)
        axes.set_xlabel("seat")
        axes.set_ylabel(wrapped(ylabel, 30))
        axes.set_title(wrapped(title, across(figure, STYLE["axes.titlesize"])))
        axes.grid(axis="y", alpha=0.3)
        if ax is None:
            figure.tight_layout()
    return figure


def sweep_chart(
    frame,
    outcomes: list[str],
    title: str,
    field: str,
    seat_label: str = "seat",
    labels: dict | None = None,
    choices: bool = False,
    field_label: str | None = None,
    ax=None,
):
    """One panel per outcome: its mean against the swept value, one series per seat, with
    95% interval error bars.  A numeric field is drawn as lines; a choice-valued field
    (``choices``, e.g. a play style) as points, side by side per seat, since there is
    nothing between two choices.  ``frame`` is a tidy sweep frame (value, value_text,
    seat, outcome, mean, ci_low, ci_high); ``labels`` gives each outcome's axis label and
    ``field_label`` the swept field's (its key and what it means).  With ``ax`` (one
    outcome only), the panel is drawn into those axes."""
    labels = labels or {}
    with _style():
        panels = len(outcomes)
        columns = min(panels, 2)
        rows = -(-panels // columns)
        if ax is not None:
            _check_axes(ax)
            if panels != 1:
                raise ValueError("a chart drawn into ax= shows one outcome: give outcome=.")
            figure, axes_list = ax.figure, [ax]
        else:
            figure = _figure(4.0 * columns if columns > 1 else 6.5, 3.3 * rows + 0.5)
            axes_list = figure.subplots(rows, columns, squeeze=False).ravel()
        seats = [int(s) for s in dict.fromkeys(seat_rows(frame)["seat"])]
        for axes, outcome in zip(axes_list, outcomes):
            chosen = frame[frame["outcome"] == outcome]
            series = seats if (chosen["scope"] == "seat").any() else ["table"]
            for k, seat in enumerate(series):
                line = seat_rows(chosen, seat).sort_values("value")
                means = line["mean"].to_numpy(dtype=float)
                errors = [means - line["ci_low"].to_numpy(dtype=float), line["ci_high"].to_numpy(dtype=float) - means]
                x = line["value"].to_numpy(dtype=float)
                if choices:  # dodge the seats so their intervals do not hide each other
                    x = x + (k - (len(series) - 1) / 2) * min(0.6 / max(1, len(series)), 0.15)
                axes.errorbar(
                    x,
                    means,
                    yerr=errors,
                    capsize=2,
                    marker="o",
                    markersize=4,
                    linestyle="none" if choices else "-",
                    linewidth=1,
                    label=f"{seat_label} {seat}" if seat != "table" else "table",
                )
            ticks = chosen.drop_duplicates("value").sort_values("value")
            if len(ticks) <= 16:
                long_names = ticks["value_text"].str.len().max() > 4
                axes.set_xticks(
                    ticks["value"].to_numpy(dtype=float),
                    ticks["value_text"].tolist(),
                    rotation=25 if long_names else 0,
                    ha="right" if long_names else "center",
                )
            axes.set_xlabel(wrapped(field_label or field, across(figure, STYLE["axes.labelsize"], 0.9 / columns)))
            axes.set_ylabel(wrapped(labels.get(outcome, outcome.replace("_", " ")), 30))
            axes.grid(alpha=0.3)
            if len(series) > 1:
                axes.legend(ncol=2 if len(series) > 5 else 1, fontsize=8)
        for axes in axes_list[panels:]:
            axes.set_visible(False)
        if ax is not None:
            ax.set_title(wrapped(title, across(figure, STYLE["axes.titlesize"])))
        else:
            figure.suptitle(wrapped(title, across(figure, STYLE["figure.titlesize"])))
            figure.tight_layout()
    return figure


def difference_heatmap(
    row_labels: list[str],
    seats: list[int],
    differences,
    errors,
    title: str,
    label: str,
    lower_is_better: bool = False,
    ax=None,
):
    """A rules-by-seats heat map of paired differences (``differences``/``errors``:
    ``[row][seat]``).  Each cell shows the difference and its paired standard error; the
    colour says how much better (blue) or worse (red) the change is for that seat, and a
    cell within two standard errors of zero is left grey."""
    import numpy as np

    values = np.asarray(differences, dtype=float)
    ses = np.asarray(errors, dtype=float)
    sign = -1.0 if lower_is_better else 1.0
    measurable = np.abs(values) > 2 * np.nan_to_num(ses, nan=np.inf)
    # colour: the direction for the seat, and the size against the largest change, with a
    # floor so that a small measurable change beside a large one still shows
    limit = float(np.max(np.abs(values[measurable]))) if measurable.any() else 1.0
    strength = COLOUR_FLOOR + (1 - COLOUR_FLOOR) * np.abs(values) / limit
    shown = np.where(measurable, np.sign(sign * values) * strength, np.nan)
    with _style():
        width = max(6.0, 2.4 + 0.75 * len(seats) + 0.06 * max(len(r) for r in row_labels))
        figure, axes = _axes(ax, width, 1.3 + 0.42 * len(row_labels))
        cmap = _diverging_map()
        axes.imshow(shown, cmap=cmap, vmin=-1.0, vmax=1.0, aspect="auto")
        axes.imshow(np.where(measurable, np.nan, 0.0), cmap=_grey_map(), vmin=0, vmax=1, aspect="auto")
        cell_font = 8 if len(seats) <= 8 else 7
        for r in range(values.shape[0]):
            for c in range(values.shape[1]):
                dark = measurable[r, c] and abs(shown[r, c]) > 0.7
                axes.text(
                    c,
                    r,
                    _cell_text(values[r, c], ses[r, c]),
                    ha="center",
                    va="center",
                    fontsize=cell_font,
                    color="white" if dark else "black" if measurable[r, c] else "#777777",
                )
        axes.set_xticks(range(len(seats)), [f"seat {s}" for s in seats])
        axes.set_yticks(range(len(row_labels)), row_labels)
        axes.xaxis.tick_top()
        if ax is not None:
            ax.set_title(wrapped(title, across(figure, STYLE["axes.titlesize"])), pad=24)
        else:
            figure.suptitle(wrapped(title, across(figure, STYLE["figure.titlesize"])))
        axes.set_xlabel(
            wrapped(
                f"{label}, ± paired standard error (blue: better for the seat, red: worse, grey: "
                f"within two standard errors)",
                across(figure, STYLE["axes.labelsize"], 0.7),
            )
        )
        axes.tick_params(length=0)
        if ax is None:
            figure.tight_layout()
    return figure


def _cell_text(value: float, se: float) -> str:
    from analyzer.present.text import number_text

    sign = "+" if value > 0 else ""
    return f"{sign}{number_text(value, se)}\n±{se:.1g}" if se > 0 else f"{sign}{number_text(value, se)}"


def _diverging_map():
    from matplotlib import colormaps

    return colormaps["RdBu"]


def _grey_map():
    from matplotlib.colors import ListedColormap

    return ListedColormap(["#eeeeee"])


def advice_chart(actions, means, errors, best: str, ylabel: str, title: str, ax=None):
    """Bar chart of each candidate action's value with its 95% interval (``errors``, half
    widths), the best action in green.  A few short actions stand as upright bars with
    level labels; many or long ones (Spoil Five's "rob:discard 2c" options) lie as
    horizontal bars, one row per action, so that no two labels overlap."""
    actions = [str(action) for action in actions]
    colours = ["#55A868" if action == best else "#4C72B0" for action in actions]
    lying = len(actions) > 6 or max((len(action) for action in actions), default=0) > 8
    with _style():
        if lying:
            figure, axes = _axes(ax, 7.0, max(3.6, 0.32 * len(actions) + 1.6))
            rows = list(range(len(actions)))[::-1]  # the game's first action on top
            axes.barh(rows, means, xerr=errors, capsize=3, color=colours)
            axes.set_yticks(rows, [wrapped(action, 24) for action in actions])
            axes.set_xlabel(wrapped(ylabel, 60))
            axes.grid(axis="x", alpha=0.3)
        else:
            figure, axes = _axes(ax, max(5.0, 0.9 * len(actions) + 2.5), 3.6)
            axes.bar(range(len(actions)), means, yerr=errors, capsize=3, color=colours)
            axes.set_xticks(range(len(actions)), actions)
            axes.set_ylabel(wrapped(ylabel, 30))
            axes.grid(axis="y", alpha=0.3)
        axes.set_title(wrapped(title, across(figure, STYLE["axes.titlesize"])))
        if ax is None:
            figure.tight_layout()
    return figure


ACTION_COLOURS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C", "#CCB974")


def guide_chart(row_labels, column_labels, best, texts, title: str, row_title: str, column_title: str, ax=None):
    """A decision guide as a grid: each cell coloured by its best action (``best[r][c]``:
    an action's name, "tie", or None for no cell) and labelled with ``texts[r][c]``."""
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    actions = sorted({a for row in best for a in row if a not in (None, "tie")})
    colours = {action: ACTION_COLOURS[k % len(ACTION_COLOURS)] for k, action in enumerate(actions)}
    codes = np.array([[np.nan if a is None else -1 if a == "tie" else actions.index(a) for a in row] for row in best])
    with _style():
        width = max(5.0, 1.8 + 0.62 * len(column_labels) + 0.06 * max(len(r) for r in row_labels))
        figure, axes = _axes(ax, width, 1.6 + 0.5 * len(row_labels))
        if actions:
            axes.imshow(
                np.where(codes >= 0, codes, np.nan),
                cmap=ListedColormap([colours[a] for a in actions]),
                vmin=-0.5,
                vmax=len(actions) - 0.5,
                aspect="auto",
            )
        axes.imshow(np.where(codes == -1, 0.0, np.nan), cmap=_grey_map(), vmin=0, vmax=1, aspect="auto")
        font = 8 if len(column_labels) <= 9 else 7
        for r in range(len(row_labels)):
            for c in range(len(column_labels)):
                if best[r][c] is not None:
                    tie = best[r][c] == "tie"
                    axes.text(
                        c, r, texts[r][c], ha="center", va="center", fontsize=font, color="#555555" if tie else "white"
                    )
        axes.set_xticks(range(len(column_labels)), column_labels)
        axes.set_yticks(range(len(row_labels)), row_labels)
        axes.xaxis.tick_top()
        axes.set_xlabel(column_title)
        axes.set_ylabel(row_title)
        axes.tick_params(length=0)
        handles = [Patch(color=colours[a], label=a) for a in actions] + [Patch(color="#eeeeee", label="tie")]
        axes.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.08 if len(row_labels) > 3 else -0.15),
            ncol=min(6, len(handles)),
            fontsize=8,
            frameon=False,
        )
        axes.set_title(wrapped(title, across(figure, STYLE["axes.titlesize"], 0.7)), pad=22)
        if ax is None:
            figure.tight_layout()
    return figure


def distribution_chart(labels, means, lows, highs, title: str, xlabel: str, count_text: str, ax=None):
    """A histogram of a distribution's bins: each bar the probability of its bin with its
    95% interval, and the number of hands or games behind it."""
    import numpy as np

    means = np.asarray(means, dtype=float)
    errors = np.array([means - np.asarray(lows, dtype=float), np.asarray(highs, dtype=float) - means])
    with _style():
        figure, axes = _axes(ax, max(5.0, 0.7 * len(labels) + 2.5), 3.4)
        axes.bar(range(len(labels)), means, yerr=np.clip(errors, 0, None), capsize=3, color="#4C72B0")
        axes.set_xticks(range(len(labels)), labels)
        axes.set_xlabel(wrapped(xlabel, 60))
        axes.set_ylabel("probability")
        axes.set_title(wrapped(f"{title} ({count_text}, 95% intervals)", across(figure, STYLE["axes.titlesize"])))
        axes.grid(axis="y", alpha=0.3)
        if ax is None:
            figure.tight_layout()
    return figure


def grid_heatmap(row_labels, column_labels, values, texts, title: str, label: str, ax=None):
    """A grid of estimates (Five Hundred's contracts, level by suit) as a heat map: the
    colour the value (``values[r][c]``, NaN left blank), each cell labelled ``texts[r][c]``."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    with _style():
        figure, axes = _axes(ax, max(5.0, 1.6 + 1.25 * len(column_labels)), 1.6 + 0.55 * len(row_labels))
        finite = values[np.isfinite(values)]
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        if low < 0 < high:  # points: red for a loss, blue for a gain, white at zero
            limit = max(-low, high)
            image = axes.imshow(values, cmap=_diverging_map(), vmin=-limit, vmax=limit, aspect="auto")
        else:
            image = axes.imshow(values, cmap="Blues", vmin=min(low, 0.0), vmax=high or 1.0, aspect="auto")
        for r in range(values.shape[0]):
            for c in range(values.shape[1]):
                axes.text(c, r, texts[r][c], ha="center", va="center", fontsize=8)
        axes.set_xticks(range(len(column_labels)), column_labels)
        axes.set_yticks(range(len(row_labels)), row_labels)
        axes.xaxis.tick_top()
        axes.tick_params(length=0)
        colourbar = figure.colorbar(image, ax=axes, fraction=0.05)
        colourbar.set_label(wrapped(label, 40))
        axes.set_title(wrapped(title, across(figure, STYLE["axes.titlesize"])), pad=22)
        if ax is None:
            figure.tight_layout()
    return figure
