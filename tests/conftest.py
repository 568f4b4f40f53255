"""Settings for the whole test suite.

The result store is off unless a test gives one (``--store PATH``, ``store=...``): a store
shared by the suite would answer later tests from earlier ones, and a test of interrupts,
progress or kernel loading must play its hands.  Set in the environment, so that the
commands tests start as subprocesses see it too.

Subprocesses (the command line, the tour notebook's kernel, the kernel warmer) import the
checkout's code, the code under test, through ``PYTHONPATH``: with an installed copy
beside it (``pip install '.[test]'`` without ``-e``, as CI installs) they imported that
copy, and Numba keys its cache files by the source file's folder, so every kernel they
used compiled a second time (on a fresh clone, minutes of the run).

The tests run on every core (pytest-xdist, ``-n auto --dist loadfile`` in pyproject.toml:
each file's tests in one worker, in order); ``-n 0`` runs them in this process (for
``--pdb``).  On a cold kernel cache, workers that first need the same kernel at once
compile it once (:func:`sims.engine.compiling_alone`).  So a report a test writes starts
no processes to compile ahead (``CARD_ANALYZER_COMPILE_AHEAD=0``, :mod:`sims.precompile`):
the cores have their workers; tests/sims/test_precompile.py turns it on.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ["CARD_ANALYZER_STORE"] = "off"
os.environ["CARD_ANALYZER_COMPILE_AHEAD"] = "0"
ROOT = Path(__file__).resolve().parents[1]
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
WARMER = pytest.StashKey[subprocess.Popen]()


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml's addopts): one worker per core, at most eight (each
    compiles what its tests need on a cold cache, and more would mostly wait on the
    kernel locks, sims.engine.compiling_alone)."""
    return max(1, min(8, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def pytest_collection_finish(session):
    """A run in one process (``-n 0``) compiles the kernels in a second process while a
    long run's tests start (tests/warm_kernels.py): on a cold cache the two cores compile
    at once.  Workers of ``-n`` (the default) are already one per core."""
    if len(session.items) < 500 or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    session.config.stash[WARMER] = subprocess.Popen(
        [sys.executable, "-m", "tests.warm_kernels"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def pytest_collection_modifyitems(session, config, items):
    """The tour notebook runs last: it plays every game in a Jupyter kernel of its own,
    and by then the kernels it loads are in the cache (run early on a cold cache it took
    110 s, mostly compiling; 6 s on a warm one)."""
    items.sort(key=lambda item: item.nodeid.startswith("tests/analyzer/test_tour.py"))


def pytest_sessionfinish(session):
    warmer = session.config.stash.get(WARMER, None)
    if warmer is not None and warmer.poll() is None:
        warmer.kill()
        warmer.wait()
