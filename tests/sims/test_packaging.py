"""The numeric core stays free of presentation libraries, and its kernel cache is keyed
by the sources so it is never stale."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import sims


def test_sims_imports_without_pandas_or_matplotlib():
    code = (
        "import sys, sims.registry, sims.engine, sims.games.chase_ace.twin, sims.games.chase_ace.exact; "
        "bad = [m for m in ('pandas', 'matplotlib', 'typer') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_kernel_cache_directory_is_keyed_by_source_hash():
    assert sims.KERNEL_CACHE_DIR is not None
    assert sims.KERNEL_CACHE_DIR.name == f"numba-{sims.source_hash()}"
    assert os.environ["NUMBA_CACHE_DIR"] == str(sims.KERNEL_CACHE_DIR)


def test_cache_falls_back_when_the_preferred_folders_cannot_be_written(tmp_path):
    """Both preferred roots lie under a plain file, which nobody (root included) can make
    a folder in: the cache falls back to the temporary folder."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = dict(os.environ, CARD_ANALYZER_CACHE=str(blocker / "cache"), XDG_CACHE_HOME=str(blocker / "xdg"))
    code = "import sims; print(sims.KERNEL_CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    found = Path(out.strip())
    assert found.parent == Path(tempfile.gettempdir()) / f"card-analyzer-{os.getuid()}"
    assert found.name == f"numba-{sims.source_hash()}"


def test_source_hash_changes_with_any_sims_source(tmp_path, monkeypatch):
    before = sims.source_hash()
    extra = sims._PACKAGE_DIR / "core" / "_hash_probe_tmp.py"
    extra.write_text("# probe\n")
    try:
        assert sims.source_hash() != before
    finally:
        extra.unlink()
    assert sims.source_hash() == before
