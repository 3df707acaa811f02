"""clingo behind a small API: ground once, then answer queries by assigning externals.

The reasoner asks thousands of questions of one game ("what is legal here?",
"what is next after these moves?"). Grounding is the expensive step, so a
`GroundProgram` grounds the program once and each `solve` only flips the
external atoms whose value changed since the previous query, then solves.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from pathlib import Path
from typing import Iterable

import clingo

HERE = Path(__file__).resolve().parent


class SolverError(Exception):
    """clingo refused the program, or a query had no single answer."""


def lp_file(name: str) -> str:
    """The text of a fixed ASP part kept next to this module."""
    return (HERE / name).read_text(encoding="utf-8")


class GroundProgram:
    """A clingo program grounded once; queries are assignments of its externals."""

    def __init__(self, parts: Iterable[str]):
        messages: list[str] = []
        self._ctl = clingo.Control(
            ["--warn=none", "--models=1"], logger=lambda code, msg: messages.append(msg.strip()), message_limit=20
        )
        try:
            for part in parts:
                self._ctl.add("base", [], part)
            self._ctl.ground([("base", [])])
        except RuntimeError as e:
            raise SolverError("; ".join(messages) or str(e)) from None
        self._on: set[int] = set()

    def externals(self, name: str, arity: int) -> dict[clingo.Symbol, int]:
        """Each external atom name/arity with its program literal (what `solve` takes)."""
        return {a.symbol: a.literal for a in self._ctl.symbolic_atoms.by_signature(name, arity) if a.is_external}

    def atoms(self, name: str, arity: int) -> list[clingo.Symbol]:
        """Every ground atom name/arity, in clingo's (deterministic) symbol order."""
        return sorted(a.symbol for a in self._ctl.symbolic_atoms.by_signature(name, arity))

    def facts(self, name: str, arity: int) -> list[clingo.Symbol]:
        """The atoms name/arity that grounding already decided true."""
        return sorted(a.symbol for a in self._ctl.symbolic_atoms.by_signature(name, arity) if a.is_fact)

    def solve(self, true_literals: set[int] | frozenset[int]) -> list[clingo.Symbol]:
        """The shown atoms of the answer set with exactly these externals true."""
        assign = self._ctl.assign_external
        for lit in true_literals - self._on:
            assign(lit, True)
        for lit in self._on - true_literals:
            assign(lit, False)
        self._on = set(true_literals)
        found: list[list[clingo.Symbol]] = []
        self._ctl.solve(on_model=lambda m: found.append(m.symbols(shown=True)))
        if len(found) != 1:
            raise SolverError("the program has no answer set for this state (is it stratified?)")
        return found[0]


def release_freed_memory() -> None:
    """Give the system back the memory freed but kept by C's allocator (glibc's `malloc_trim`), where it can.

    A large grounding (a relaxed game: pente 9x9's, 0.9 GB) is freed with its Control, but glibc keeps the
    pages wherever a Python object made meanwhile (the model's symbols) sits above them, and Python's own
    allocator takes new memory of the system rather than those pages: what comes after (narrowing's tuples)
    grew on top of them. Nothing where the C library is not glibc."""
    global _TRIM
    if _TRIM is None:
        try:
            _TRIM = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _TRIM = False
    if _TRIM:
        _TRIM(0)


_TRIM = None
"""glibc's malloc_trim, once looked up (False where there is none)."""


def answer_set(parts: Iterable[str]) -> list[clingo.Symbol]:
    """The shown atoms of the single answer set of a program without externals."""
    return GroundProgram(parts).solve(frozenset())
