"""card-analyzer's analyzer: the Python API, and over it the command line, tables, charts
and reports::

    import analyzer as ca
    result = ca.simulate("chase-ace", players=8, hands=1_000_000)
    result.table()

The API's functions and result classes (``analyzer.api``) are loaded on first use, so
importing the package (as the command line does) imports neither pandas, matplotlib,
Numba nor the games.

The subpackages, by job: ``api`` (the typed functions and their results), ``run``
(playing hands: runner, execution, store, interrupts, progress), ``strategy`` (sweeps,
best responses, equilibria, comparisons), ``present`` (text, tables, charts),
``reporting`` (strategy reports) and ``cli`` (the ``analyze`` command line).
"""

from __future__ import annotations

__all__ = [
    "simulate",
    "advise",
    "AdviceResult",
    "sweep",
    "optimize",
    "compare",
    "report",
    "games",
    "rules",
    "UserError",
    "SimulationResult",
    "SweepResult",
    "OptimizeResult",
    "ComparisonResult",
    "ReportResult",
    "Table",
    "solve",
    "SolveResult",
]


def __getattr__(name: str):
    if name in __all__:
        from analyzer import api

        value = getattr(api, name)
        globals()[name] = value  # found once
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
