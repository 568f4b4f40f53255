"""Settings for the whole test suite.

The result store is off unless a test gives one (``--store PATH``, ``store=...``): a store
shared by the suite would answer later tests from earlier ones, and a test of interrupts,
progress or kernel loading must play its hands.  Set in the environment, so that the
commands tests start as subprocesses see it too.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ["CARD_ANALYZER_STORE"] = "off"
WARMER = pytest.StashKey[subprocess.Popen]()


def pytest_collection_finish(session):
    """Compile the kernels in a second process while a long run's tests start
    (tests/warm_kernels.py): on a cold cache the two cores compile at once."""
    if len(session.items) < 500:  # a few tests compile only what they use
        return
    session.config.stash[WARMER] = subprocess.Popen(
        [sys.executable, "-m", "tests.warm_kernels"],
        cwd=Path(__file__).resolve().parents[1],
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
