"""Constructs outside the lowering's subset, found before any code runs, all at once.

The symbolic execution (tgpl.lowering.execute) refuses what it cannot translate
when it meets it, so a game with several such constructs was refused one at a
time, each after the execution had run up to it: chess ran for minutes before
its first refusal. Built-ins the lowering never translates (`move_to`,
`discard`, `assign`, `shuffle`, objects created with `new`, ...) do not depend
on the state, so they are found here by reading the code that can run after
setup (actions, turns, and the functions they call), every one with its
location, before anything runs.

The scan is conservative in one way only: a refused construct in a branch that
no state ever takes is refused too (decision recorded in docs/lowering.md).
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.after_setup import CHANCE, after_setup_nodes
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.types import CallableType, Collection

# what execute.Executor translates: methods of lists and tables, and the namespaces' calls
METHODS = {"contains", "indexOf", "add", "keys", "values", "length", "move_to"}
LIST_CHANGES = {"remove", "insert", "clear", "pop", "push", "draw"}  # refused on lists (add: on locals only)
NAMESPACE_CALLS = {"player.active", "player.all", "turn.active", "turn.phase.active", "log", "turn.pass"}


def outside_subset(program) -> list[tuple[Span, str]]:
    """(location, reason) of every construct the lowering never translates in code that runs after setup."""
    types = program.types
    found: dict[tuple, tuple[Span, str]] = {}
    for n in after_setup_nodes(program):
        if isinstance(n, ast.New):
            found.setdefault(_key(n.span), (n.span, "objects created after setup are not lowerable"))
        if not isinstance(n, ast.Call):
            continue
        ct = types.get(id(n.callee))
        if not isinstance(ct, CallableType) or ct.kind == "function":
            continue
        if ct.kind == "action":
            found.setdefault(_key(n.span), (n.span, "actions called from code are not lowerable"))
            continue
        qualified = ct.target.name
        if "." in qualified or qualified == "log":
            if qualified not in NAMESPACE_CALLS:
                found.setdefault(_key(n.span), (n.span, f"{qualified}() after setup is not lowerable"))
        elif ct.name in CHANCE:
            found.setdefault(_key(n.span), (n.span, f"{ct.name}() after setup is not lowerable: it is a chance "
                                                    "move, which GDL cannot express (GDL-II would be needed)"))
        elif ct.name in LIST_CHANGES and _is_list(types, n.callee):
            found.setdefault(_key(n.span), (n.span, f"{ct.name}() on a list stored in an attribute is not "
                                                    "lowerable"))
        elif ct.name not in METHODS:
            found.setdefault(_key(n.span), (n.span, f"the built-in {ct.name}() is not lowerable"))
    return [found[k] for k in sorted(found)]


def _is_list(types, callee) -> bool:
    t = types.get(id(callee.obj)) if isinstance(callee, ast.Member) else None
    return isinstance(t, Collection) and t.kind == "List"


def _key(span: Span) -> tuple:
    return (span.file, span.line, span.col)
