"""The only place DataFrames are built: tidy, labelled tables of a run's estimates.

Every table with seats has a numeric ``seat`` column (pandas' nullable ``Int64``) and a
``scope`` column: ``"seat"`` for an outcome of one seat, ``"table"`` for an outcome of the
whole table (its ``seat`` is missing), so ``frame[frame.scope == "seat"]`` are the seats'.
"""

from __future__ import annotations


def _seats_apart(frame):
    """``seat`` as numbers, with the table-wide outcomes marked in ``scope``."""
    import pandas as pd

    table_wide = frame["seat"].astype(str) == "table"
    frame.insert(list(frame.columns).index("seat"), "scope", ["table" if wide else "seat" for wide in table_wide])
    frame["seat"] = pd.array(
        [None if wide else int(seat) for seat, wide in zip(frame["seat"], table_wide)], dtype="Int64"
    )
    return frame


def estimates_frame(records: list[dict], n: int, unit: str):
    """A tidy DataFrame: one row per (seat, outcome) with mean, se and the 95% interval."""
    import pandas as pd

    frame = pd.DataFrame.from_records(records, columns=["seat", "outcome", "mean", "se", "ci_low", "ci_high"])
    frame[unit] = n
    return _seats_apart(frame)


SWEEP_COLUMNS = [
    "field",
    "value",
    "value_text",
    "seat",
    "outcome",
    "mean",
    "se",
    "ci_low",
    "ci_high",
    "diff",
    "diff_se",
]


def sweep_frame(records: list[dict]):
    """A tidy DataFrame of a sweep: one row per (value, seat, outcome), with the paired
    difference to the reference value (``diff``, ``diff_se``) where the records have it."""
    import pandas as pd

    return _seats_apart(pd.DataFrame.from_records(records, columns=SWEEP_COLUMNS))


def differences_frame(differences: dict[str, list[dict]]):
    """A tidy DataFrame of a comparison: one row per (compared rule set, seat, outcome)
    with both values, the paired difference and its errors."""
    import pandas as pd

    columns = [
        "seat",
        "outcome",
        "base",
        "base_se",
        "other",
        "other_se",
        "difference",
        "se",
        "se_independent",
        "variance_reduction",
    ]
    rows = [
        {"compared": label, **{key: record[key] for key in columns}}
        for label, records in differences.items()
        for record in records
    ]
    return _seats_apart(pd.DataFrame.from_records(rows, columns=["compared"] + columns))


BEST_RESPONSE_COLUMNS = [
    "field",
    "seat",
    "best",
    "tied",
    "tie",
    "no_effect",
    "value",
    "se",
    "current",
    "current_value",
    "gain",
    "gain_se",
    "confirmed_gain",
    "confirmed_gain_se",
    "confirmed_on",
    "runner_up",
    "margin",
    "margin_se",
    "equilibrium",
    "equilibrium_value",
    "equilibrium_value_se",
    "equilibrium_change",
    "equilibrium_change_se",
    "mix",
]


def best_responses_frame(rows: list[dict]):
    """A DataFrame of ``optimize``: one row per seat, its best response to the starting
    policy and where the equilibrium search left it (``BEST_RESPONSE_COLUMNS``)."""
    import pandas as pd

    return pd.DataFrame.from_records(rows, columns=BEST_RESPONSE_COLUMNS)


def paths_frame(paths: list[tuple[str, object]]):
    """A DataFrame of the files a report wrote: one row per (game, path)."""
    import pandas as pd

    return pd.DataFrame.from_records([(game, str(path)) for game, path in paths], columns=["game", "path"])
