"""The only module that writes files: run outputs (CSV, JSON, PNG) and reports."""

from __future__ import annotations

import json
from pathlib import Path


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
