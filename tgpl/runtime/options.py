"""How the runtime runs a game, as one value: nothing here changes what a game does (its moves,
logs, records and errors), only how fast it gets there.

The options are given when a game is compiled (`load_game(path, options=...)`,
`compile_program(program, options)`) and kept by the compiled game (`CompiledGame.options`); the
runtime reads them there, never from a module's globals, and the generated code's cache
(`codegen._COMPILED`) is keyed by them. `RuntimeOptions()` is the default, every fast path on;
`RuntimeOptions.reference()` runs every block through the compiler's closures, the plain reference
that tests compare the default with.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuntimeOptions:
    # Blocks as generated Python functions (`tgpl.runtime.codegen`), with the fast paths those make
    # possible (plain spellings of effects, listings by plans, fused moves); False: the closures of
    # `tgpl.runtime.compiler` only.
    generate: bool = True
    # Entries in all the memo tables of one setup's states (`World.memo`, whose last item counts what
    # is left): past it, nothing more is remembered (the memo only saves time, and a game calling a
    # pure function with ever new arguments would fill the machine's memory).
    memo_budget: int = 1 << 18
    # Code objects of generated functions kept for the process (`codegen._COMPILED`), by source,
    # place and options: a game loaded again compiles nothing anew. Past this many, all are dropped
    # at once; 0: none kept, each function compiled anew (what tests compare the cache with).
    code_cache: int = 4096

    @staticmethod
    def reference() -> RuntimeOptions:
        """The plain way: every block run by the compiler's closures."""
        return RuntimeOptions(generate=False)


DEFAULT = RuntimeOptions()

__all__ = ["DEFAULT", "RuntimeOptions"]
