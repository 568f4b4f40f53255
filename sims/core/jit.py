"""``njit`` for every kernel module, with Numba's inliner made linear.

The kernels' per-card helpers are ``@njit(inline="always")``: Numba inlines them into
its own IR before typing, so constants (a fixed-rules kernel's rule codes, the
``tables_on`` and ``solve`` switches) fold away and each hand runs 1.1 to 1.9 times as
fast as with the helpers compiled apart and left to LLVM (measured per game, 2026-11).
Numba's inliner (``numba.core.inline_closurecall.InlineWorker``, read in Numba 0.68.1)
pays for that twice over at every call site:

1. it runs the callee's whole untyped pipeline again, its own inlining included, so
   a helper inlined three levels down is rebuilt once per path to it;
2. it copies the callee's IR one block at a time, each ``deepcopy`` copying the
   callee's whole variable scope again (every variable refers to it): the copy is
   quadratic in the callee's size, and it makes a second copy that no caller reads.

Compiling every kernel took 1,511 CPU seconds, three quarters of it in those copies
(cProfile: 147 of 198 s of All-Fours' game kernel in ``copy.deepcopy``).
:func:`make_inlining_linear` changes the two, once per process, on the first import of
this module (before any kernel compiles):

1. ``inline_function`` keeps each callee's untyped IR, built once per process; every
   call site still inlines a fresh copy of it (``inline_ir`` copies before it mutates);
2. ``inline_ir`` copies the callee's blocks in one ``deepcopy``, so they share one copy
   of the scope, as the callee's own blocks share one scope, and drops the unread copy.

The inlined IR is the same, so the machine code and every sum are the same (the golden
digests); only compiling is faster.  Each change is applied only where Numba's source is
the text it was written against (:data:`PATCHED` says which were), so another Numba
version compiles as slowly as before, never differently.
"""

from __future__ import annotations

import inspect
import textwrap

from numba import njit
from numba.core import inline_closurecall

__all__ = ["PATCHED", "make_inlining_linear", "njit"]

_BLOCK_BY_BLOCK = """\
            for block_label, block in the_ir.blocks.items():
                new_block = copy.deepcopy(the_ir.blocks[block_label])
                kernel_copy.blocks[block_label] = new_block
"""
_ONE_COPY = """\
            kernel_copy.blocks = copy.deepcopy(the_ir.blocks)
"""
_UNREAD_COPY = "        callee_ir_original = copy_ir(callee_ir)\n"
_NO_COPY = "        callee_ir_original = None  # no caller reads it (card-analyzer: sims/core/jit.py)\n"

PATCHED: set[str] = set()  # "copy" and/or "reuse" once applied


def _linear_inline_ir(original):
    """``InlineWorker.inline_ir`` with the two copies changed, or None when its source is
    not the text this was written against."""
    try:
        source = inspect.getsource(original)
    except (OSError, TypeError):  # pragma: no cover - an install without sources
        return None
    if _BLOCK_BY_BLOCK not in source or _UNREAD_COPY not in source:
        return None
    source = textwrap.dedent(source.replace(_BLOCK_BY_BLOCK, _ONE_COPY).replace(_UNREAD_COPY, _NO_COPY))
    namespace: dict = {}
    exec(compile(source, inline_closurecall.__file__, "exec"), vars(inline_closurecall), namespace)  # noqa: S102
    return namespace["inline_ir"]


def make_inlining_linear() -> None:
    """Apply both changes to Numba's inliner (see the module docstring); idempotent."""
    worker = inline_closurecall.InlineWorker
    if "copy" not in PATCHED:
        linear = _linear_inline_ir(worker.inline_ir)
        if linear is not None:
            worker.inline_ir = linear
            PATCHED.add("copy")
    if "reuse" not in PATCHED and worker.inline_function.__code__.co_names[:2] == ("run_untyped_passes", "__code__"):
        untyped: dict = {}

        def inline_function(self, caller_ir, block, i, function, arg_typs=None):
            """Numba's ``InlineWorker.inline_function``, building the callee's untyped IR
            once per process (``inline_ir`` copies it before changing anything)."""
            key = (function, self._compiler_pipeline)
            callee_ir = untyped.get(key)
            if callee_ir is None:
                callee_ir = untyped[key] = self.run_untyped_passes(function)
            return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)

        worker.inline_function = inline_function
        PATCHED.add("reuse")


make_inlining_linear()
