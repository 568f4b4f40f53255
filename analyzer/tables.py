"""The only place DataFrames are built: tidy, labelled tables of a run's estimates."""

from __future__ import annotations


def estimates_frame(records: list[dict], n: int, unit: str):
    """A tidy DataFrame: one row per (seat, outcome) with mean, se and the 95% interval."""
    import pandas as pd

    frame = pd.DataFrame.from_records(records, columns=["seat", "outcome", "mean", "se", "ci_low", "ci_high"])
    frame[unit] = n
    return frame


def sweep_frame(records: list[dict]):
    """A tidy DataFrame of a sweep: one row per (value, seat, outcome)."""
    import pandas as pd

    return pd.DataFrame.from_records(records, columns=["field", "value", "value_text", "seat", "outcome", "mean", "se",
                                                       "ci_low", "ci_high"])
