"""Shared fixtures of the game tests."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["kernel", "twin"])
def implementation(request, monkeypatch):
    """Run a stacked-deck test once on the kernel and once on the plain-Python twin.

    A module opts in with ``pytestmark = pytest.mark.usefixtures("implementation")`` and
    names its two ``play_dealt`` functions in ``IMPLEMENTATIONS``; the module's global
    ``play_dealt`` is rebound to the one under test.
    """
    monkeypatch.setitem(request.module.__dict__, "play_dealt", request.module.IMPLEMENTATIONS[request.param])
    return request.param
