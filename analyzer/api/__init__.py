"""The Python API: typed functions (``analyzer.api.functions`` and, for ``compare``,
``analyzer.api.comparing``) that check their arguments once (``analyzer.api.checks``) and
return result objects (``analyzer.api.results``); ``games()`` and ``rules(game)`` list what
can be asked (``analyzer.api.catalog``).  ``import analyzer as ca`` gives the same names; ``ca.Table.load(path)`` reads a strategy
table file (``sims.table_files.Table``) that ``seats={0: table}`` or ``tables=[...]`` play,
and ``ca.solve`` solves a decision's tables (``analyzer.api.solving``)."""

from analyzer.api.advising import AdviceResult, advise
from analyzer.api.catalog import games, rules
from analyzer.api.checks import UserError
from analyzer.api.comparing import ComparisonResult, compare
from analyzer.api.functions import optimize, simulate, sweep
from analyzer.api.reports import report
from analyzer.api.results import OptimizeResult, ReportResult, SimulationResult, SweepResult
from analyzer.api.solving import SolveResult, solve
from sims.table_files import Table  # a strategy table file: ca.Table.load(path)

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
