"""The numeric core of card-analyzer: numpy and Numba only.

Importing this package points Numba's on-disk kernel cache at a directory keyed by a
hash of every source file under ``sims/`` (but the decision guides' ``guide.py``, which
hold declarations no kernel reads) plus the Numba and Python versions.  Numba's own
``cache=True`` keys a cached kernel on the source of the module that defines it only, so
an edit to a jitted helper in another module would otherwise leave a stale kernel in the
cache.  The directory lives in the user's cache folder (``$CARD_ANALYZER_CACHE``, else
``$XDG_CACHE_HOME/card-analyzer``, else ``~/.cache/card-analyzer``) and falls back to the
system temporary folder when that is not writable, so a read-only install still caches.

A cache file damaged on disk (truncated by a full disk or a killed process, overwritten,
an empty index) would make Numba fail with an unpickling error on every later run;
:func:`repair_kernel_cache` finds such files and removes them, so that the kernels
compile again (``sims.engine`` calls it when loading a kernel fails).  A sound cache file
holding the wrong kernel (one kernel's file copied over another's) loads, but gives
sums of the wrong shape or a signature other than its index says: :func:`discard_compiled`
then drops the game's compiled code, in memory and in the cache, so that it compiles
again.
"""

from __future__ import annotations

import hashlib
import os
import pickletools
import sys
import tempfile
from pathlib import Path

import numpy as np

_PACKAGE_DIR = Path(__file__).resolve().parent


NOT_KERNEL_SOURCES = frozenset({"guide.py"})  # declarations no kernel reads (sims.core.guide)


def source_hash() -> str:
    """A short hash of every ``sims`` source file (but the decision guides, which no kernel
    reads), the Numba version and the Python version."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE_DIR.rglob("*.py")):
        if path.name in NOT_KERNEL_SOURCES:
            continue
        digest.update(path.relative_to(_PACKAGE_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    try:
        from importlib.metadata import version

        numba_version = version("numba")
    except Exception:  # pragma: no cover - numba always installed with the package
        numba_version = "unknown"
    digest.update(numba_version.encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()[:16]


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def _cache_root_candidates() -> list[Path]:
    candidates = []
    if os.environ.get("CARD_ANALYZER_CACHE"):
        candidates.append(Path(os.environ["CARD_ANALYZER_CACHE"]))
    xdg = os.environ.get("XDG_CACHE_HOME")
    candidates.append(Path(xdg) / "card-analyzer" if xdg else Path.home() / ".cache" / "card-analyzer")
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    candidates.append(Path(tempfile.gettempdir()) / f"card-analyzer-{uid}")
    return candidates


def configure_kernel_cache() -> Path | None:
    """Point Numba's cache at ``<cache root>/numba-<source hash>``; return the directory."""
    key = f"numba-{source_hash()}"
    for root in _cache_root_candidates():
        directory = root / key
        if _writable(directory):
            os.environ["NUMBA_CACHE_DIR"] = str(directory)
            if "numba" in sys.modules:  # already imported: its config was read, set it too
                sys.modules["numba"].config.CACHE_DIR = str(directory)
            return directory
    return None


def _readable(path: Path) -> bool:
    """Whether a Numba cache file holds whole pickles as Numba writes them: an index is a
    pickled version followed by a pickled (stamp, overloads), a data file one pickle.
    The opcodes are only walked, never run, so nothing is imported or built: truncated
    or garbage bytes fail, a sound entry of another program's module does not."""
    try:
        with open(path, "rb") as stream:
            for _ in range(2 if path.suffix == ".nbi" else 1):
                for _ in pickletools.genops(stream):
                    pass
        return True
    except Exception:  # noqa: BLE001 - any failure to parse means the file is damaged
        return False


def kernel_cache_dir() -> Path | None:
    """The folder Numba caches kernels in now (``NUMBA_CACHE_DIR``, which a caller may have
    pointed elsewhere since import), else the one chosen on import, or None."""
    found = os.environ.get("NUMBA_CACHE_DIR") or KERNEL_CACHE_DIR
    return Path(found) if found else None


def repair_kernel_cache(directory: Path | None = None) -> list[Path]:
    """Remove the damaged index (``.nbi``) and data (``.nbc``) files of the kernel cache
    (with a damaged index go the data files it lists); return the damaged ones."""
    directory = directory or kernel_cache_dir()
    if directory is None or not Path(directory).is_dir():  # no cache configured: nothing to repair
        return []
    directory = Path(directory)
    damaged = [path for path in sorted(directory.rglob("*.nb[ci]")) if not _readable(path)]
    for path in damaged:
        doomed = [path]
        if path.suffix == ".nbi":  # name.pyXY.nbi indexes name.pyXY.<n>.nbc
            doomed += list(path.parent.glob(path.name[: -len(".nbi")] + ".*.nbc"))
        for file in doomed:
            try:
                file.unlink()
            except FileNotFoundError:
                pass
    return damaged


def _dispatchers(kernel) -> list:
    """The compiled functions a kernel may be made of: the kernel (or the compiled parts
    of a kernel assembled in Python) and every compiled function of its game's package
    and of ``sims.core``."""
    from numba.core.dispatcher import Dispatcher

    found = [part for part in (kernel, *getattr(kernel, "parts", ())) if isinstance(part, Dispatcher)]
    packages = tuple({".".join(part.py_func.__module__.split(".")[:3]) for part in found})  # sims.games.<game>
    for loaded, value in list(sys.modules.items()):
        if value is not None and (loaded in packages or loaded.startswith(("sims.core", *(p + "." for p in packages)))):
            found += [item for item in vars(value).values() if isinstance(item, Dispatcher)]
    return list({id(item): item for item in found}.values())


def loaded_wrong(kernel, raw, shape: tuple[int, int]) -> str | None:
    """Why a kernel just loaded from the cache is not the one asked for (its sums of
    another shape or type, or a compiled signature other than the one it is filed
    under), or None."""
    if not isinstance(raw, np.ndarray) or raw.dtype != np.int64 or raw.shape != shape:
        found = f"{getattr(raw, 'shape', '?')} {getattr(raw, 'dtype', type(raw).__name__)}"
        return f"gave sums of shape {found}, not {shape} int64"
    for part in (kernel, *getattr(kernel, "parts", ())):
        for signature, compiled in getattr(part, "overloads", {}).items():
            if tuple(compiled.signature.args) != tuple(signature):
                return f"was filed under the signature {signature} but compiled for {compiled.signature.args}"
    return None


def discard_compiled(kernel) -> None:
    """Drop the compiled code of a kernel and of everything it may be made of, in this
    process and in the cache, so that the next call compiles it afresh."""
    for dispatcher in _dispatchers(kernel):
        dispatcher._reset_overloads()  # Numba's own Dispatcher.recompile() starts the same way
        dispatcher._cache.flush()


KERNEL_CACHE_DIR = configure_kernel_cache()
