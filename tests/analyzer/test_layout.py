"""The analyzer's layout: subpackages by job, no import cycle (in ``sims`` either), no module
too long to read."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "analyzer"
SIMS = PACKAGE.parent / "sims"
LONGEST = 510  # lines: a module longer than this wants splitting by what its parts do


def _modules(*packages: Path) -> dict[str, Path]:
    found = {}
    for package in packages or (PACKAGE,):
        for path in package.rglob("*.py"):
            parts = path.relative_to(package.parent).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The analyzer modules ``name`` imports anywhere in it (inside functions too): for
    ``from a.b import c``, ``a.b.c`` when that is a module, else ``a.b``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    found.add(f"{base}.{alias.name}")
                elif base in modules:
                    found.add(base)
    found.discard(name)
    return found


def test_no_module_imports_itself_through_others():
    """Neither in the analyzer nor in the kernels' package (``sims``): an import inside a
    function counts, since it is a dependency all the same."""
    modules = _modules(PACKAGE, SIMS)
    assert "sims.engine" in modules and "analyzer.cli.main" in modules
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    cycles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append(" -> ".join(path[path.index(target) :] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_analyzer_is_in_subpackages_by_job_and_no_module_is_too_long():
    top = sorted(path.name for path in PACKAGE.iterdir() if path.suffix == ".py")
    assert top == ["__init__.py", "__main__.py"]
    assert sorted(path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()) == [
        "api",
        "cli",
        "present",
        "reporting",
        "run",
        "strategy",
    ]
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert long == {}


def test_importing_the_package_loads_no_heavy_library():
    import subprocess
    import sys

    probe = (
        "import sys, analyzer, analyzer.cli.main as m; "
        "print(sorted(n for n in ('pandas', 'matplotlib', 'numba', 'sims.games') if n in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=PACKAGE.parent
    )
    assert found.stdout.strip() == "[]"


LAYERS = ["cli", "api", "reporting", "present", "strategy", "run"]  # each imports only those after it


def test_each_subpackage_imports_only_the_layers_below_it():
    modules = _modules()
    upward = []
    for name, path in modules.items():
        if name.count(".") < 1 or name.split(".")[1] not in LAYERS:
            continue
        layer = LAYERS.index(name.split(".")[1])
        for target in _imports(name, path, modules):
            if target.count(".") >= 1 and target.split(".")[1] in LAYERS and LAYERS.index(target.split(".")[1]) < layer:
                upward.append(f"{name} imports {target}")
    assert upward == []
