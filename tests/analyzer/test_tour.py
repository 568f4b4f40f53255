"""The tour notebook (``reports/tour.ipynb``) runs from top to bottom in a Jupyter kernel
(nbclient), its charts show inline as images, and its committed outputs are those of a
run (so it cannot rot)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a Jupyter kernel runs the tour

TOUR = Path(__file__).resolve().parents[2] / "reports" / "tour.ipynb"


def _executed():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(TOUR, as_version=4)
    nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(TOUR.parent)}}
    ).execute()
    return notebook


def test_the_tour_runs_and_its_charts_show_inline():
    notebook = _executed()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    errors = [output for cell in code for output in cell.outputs if output.output_type == "error"]
    assert errors == []
    plots = [cell for cell in code if cell.source.strip().endswith(".plot()") or ".plot(outcome" in cell.source]
    assert plots and all(any("image/png" in output.get("data", {}) for output in cell.outputs) for cell in plots)
    tables = [cell for cell in code if "table()" in cell.source]
    assert tables and all(any("text/html" in output.get("data", {}) for output in cell.outputs) for cell in tables)


def test_the_committed_tour_holds_the_outputs_of_a_run():
    nbformat = pytest.importorskip("nbformat")
    committed = nbformat.read(TOUR, as_version=4)
    for cell in committed.cells:
        if cell.cell_type == "code":
            assert cell.outputs, f"a cell without its output: {cell.source[:60]!r}"
            assert all(output.output_type != "error" for output in cell.outputs)
