"""A report's families of outcomes (``Outcomes.groups``): a grid (Five Hundred's contracts,
level by suit, ``Outcomes.grids``) as a table and a heat map per family, a distribution
(``Outcomes.distributions``: a game's length) as a histogram with its table, any other
family as a small table.  A bin's label reads in words ("1 to 16", "23 or more")."""

from __future__ import annotations

from analyzer.present.text import estimate_text
from analyzer.reporting.words import bin_text
from sims.spec import MODE_NAMES


def families_section(spec, mode, found, count, document) -> None:
    """Each family of outcomes: a grid (Five Hundred's contracts, level by suit) as a
    table and a heat map per family; a distribution as a histogram and its table; any
    other family as a small table."""
    from analyzer.present.charts import distribution_chart, grid_heatmap
    from analyzer.present.text import cell_text, group_grid

    outcomes = spec.outcomes[mode]
    unit = MODE_NAMES[mode]
    for prefix, (title, labels) in outcomes.groups.items():
        if prefix in outcomes.grids:
            rows, columns, cells, apart = group_grid(outcomes, prefix, lambda name: found[("table", name)])
            document.heading(3, title[0].upper() + title[1:])
            texts = [[cell_text(cell) for cell in row] for row in cells]
            document.table([""] + list(columns), [[row] + line for row, line in zip(rows, texts)])
            if apart:
                document.paragraph(
                    "Apart from the grid: " + "; ".join(f"{label}: {cell_text(e)}" for label, e in apart) + "."
                )
            document.figure(
                f"{unit}-{prefix}-grid",
                grid_heatmap(
                    rows,
                    columns,
                    [[cell.mean for cell in row] for row in cells],
                    [[cell_text(cell).replace(" ± ", "\n±") for cell in row] for row in cells],
                    f"{spec.title}: {title} ({count:,} {unit})",
                    title,
                ),
                f"{title}, level by suit ({count:,} {unit}; each cell its mean ± standard error, blank and "
                f"a dash where never seen)",
            )
            continue
        estimates = [found[("table", f"{prefix}_{label}")] for label in labels]
        document.heading(3, title[0].upper() + title[1:])
        document.table(
            [title, "mean [95% CI]"], [[bin_text(label), estimate_text(e)] for label, e in zip(labels, estimates)]
        )
        if prefix in outcomes.distributions:
            document.figure(
                f"{unit}-{prefix}-distribution",
                distribution_chart(
                    [bin_text(label) for label in labels],
                    [e.mean for e in estimates],
                    [e.ci_low for e in estimates],
                    [e.ci_high for e in estimates],
                    f"{spec.title}: {title}",
                    title,
                    f"{count:,} {unit}",
                ),
                f"{title}: the probability of each bin with its 95% interval ({count:,} {unit})",
            )
