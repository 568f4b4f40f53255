"""card-analyzer's analyzer: the command line, statistics, tables, charts and reports, and
the Python API (``analyzer.api``)::

    import analyzer as ca
    result = ca.simulate("chase-ace", players=8, hands="1e6")
    result.table()

``simulate``, ``sweep``, ``optimize``, ``compare`` and ``report`` are loaded on first use,
so that importing the package (as the command line does) imports neither pandas,
matplotlib, Numba nor the games.

Three of those names are also submodules (``analyzer.optimize``, ``analyzer.compare``,
``analyzer.report``), and importing a submodule makes it the package's attribute.  So
those submodules are made callable as the API function of their name: ``ca.compare(...)``
calls ``analyzer.api.compare`` whether or not the module was imported first, and ``from
analyzer import compare`` is still the module.
"""

import importlib
import importlib.util
import sys
import types

API = ("simulate", "sweep", "optimize", "compare", "report")
__all__ = list(API)


def _api_function(name: str):
    from analyzer import api

    return getattr(api, name)


class _CallableModule(types.ModuleType):
    """A submodule named like an API function: the module, callable as that function."""

    def __call__(self, *args, **kwargs):
        return _api_function(self.__name__.rpartition(".")[2])(*args, **kwargs)

    @property
    def __signature__(self):
        import inspect

        return inspect.signature(_api_function(self.__name__.rpartition(".")[2]))


class _Package(types.ModuleType):
    """This package: a submodule named like an API function becomes callable when the
    import system sets it as the package's attribute."""

    def __setattr__(self, name: str, value) -> None:
        if name in API and type(value) is types.ModuleType:
            value.__class__ = _CallableModule
        super().__setattr__(name, value)


def __getattr__(name: str):
    if name in API:
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f"{__name__}.{name}")  # callable, see _Package
        return _api_function(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(API))


sys.modules[__name__].__class__ = _Package
