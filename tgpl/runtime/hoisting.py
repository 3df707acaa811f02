"""Reads that do not depend on a filter's candidate, made once per pool instead of once per candidate.

A filter that reads only runs over its whole pool in one Python function
(`codegen.BlockGenerator.filter_all`, `_all_opt`), its test once per candidate. Much of the test
does not depend on the candidate: chess's `to` filter asks `Chess.CanMove(from, to)` for each of
the 64 squares, and with `CanMove` and `Reaches` inline (`tgpl.runtime.inlining`) every read of
`from`'s piece, side, file and rank, every comparison of the piece with `Pawn`, `Knight`... is the
same for the 64. `hoist` finds, on the test's Python syntax tree, the largest subexpressions that
load no name the loop changes (the candidate, and names bound in the test by a part that does),
call nothing and read something (a subscript), and gives them names computed once before the loop.

Nothing about it can be seen. The world does not change while the filter runs over its pool (the
filter reads only), so each such subexpression has the same value for every candidate; it changes
nothing but names of its own, bound the same for every candidate. It is computed even where the
test would not have reached it, so it may raise where the test would not: then the pool runs
through the filter the general way (`_all`).
"""

from __future__ import annotations

import ast as py
from dataclasses import dataclass

# Calls that compute a value and change nothing: a subexpression may call them and still be hoisted
_PURE_CALLS = frozenset(("len", "int", "float"))
# The world's tables (`codegen._WORLD_TABLES`), whose `get` only reads: fields, owners, global objects
_TABLES = frozenset(("D", "W", "G"))


@dataclass
class Hoisted:
    """The test with its invariant parts named (`test`) and the assignments naming them, in the
    order the test evaluates them (`prologue`, one Python statement each)."""

    test: str
    prologue: list[str]
    names: set[str]  # the names `test` loads


def hoist(test: str | py.Expression, varying: set[str], prefix: str = "_h") -> Hoisted | None:
    """`test`, a Python expression run once per candidate (its source or its tree, which this
    changes), with its parts that do not depend on the names in `varying` (the candidate)
    computed once before the loop; None when nothing is worth it."""
    tree = parse_expression(test) if isinstance(test, str) else test
    if tree is None:
        return None
    changing = _changing(tree, set(varying))
    prologue: list[str] = []

    class Hoister(py.NodeTransformer):
        def generic_visit(self, node):
            if isinstance(node, py.expr) and not isinstance(node, (py.Name, py.Constant)) \
                    and _invariant(node, changing) and _reads(node):
                name = f"{prefix}{len(prologue)}"
                prologue.append(f"{name} = {py.unparse(node)}")
                return py.Name(name, py.Load())
            if isinstance(node, py.IfExp):  # the order Python evaluates it in: the test first
                node.test = self.visit(node.test)
                node.body = self.visit(node.body)
                node.orelse = self.visit(node.orelse)
                return node
            if isinstance(node, py.Call):  # its arguments, not the function (a call's own, rare way)
                node.args = [self.visit(a) for a in node.args]
                return node
            return super().generic_visit(node)

    new = Hoister().visit(tree)
    if not prologue:
        return None
    return Hoisted(py.unparse(new), prologue, loaded_names(new))


def parse_expression(code: str) -> py.Expression | None:
    """`code`'s tree as one Python expression, or None when it nests deeper than Python's parser
    takes (then compiling it would fail too)."""
    try:
        return py.parse(code, mode="eval")
    except (SyntaxError, RecursionError):
        return None


def loaded_names(tree: py.AST) -> set[str]:
    """The names `tree` reads (a name only bound by `:=` is not), a name in a string never."""
    return {n.id for n in py.walk(tree) if isinstance(n, py.Name) and isinstance(n.ctx, py.Load)}


def _changing(tree: py.AST, varying: set[str]) -> set[str]:
    """The names that may differ from one run of the test to the next: `varying`, those bound in
    it (`:=`) in more than one place (which binding holds depends on the way through) or from
    themselves (a running count, `k += 3`), and those bound by a value that loads one of them or
    calls something."""
    bindings = [n for n in py.walk(tree) if isinstance(n, py.NamedExpr)]
    seen: set[str] = set()
    for b in bindings:
        if b.target.id in seen or b.target.id in loaded_names(b.value):
            varying.add(b.target.id)
        seen.add(b.target.id)
    changed = True
    while changed:
        changed = False
        for b in bindings:
            if b.target.id not in varying and not _invariant(b.value, varying):
                varying.add(b.target.id)
                changed = True
    return varying


def _invariant(node: py.AST, changing: set[str]) -> bool:
    """Loads no changing name and calls nothing but `_PURE_CALLS` and the tables' `get`."""
    for n in py.walk(node):
        if isinstance(n, py.Name) and n.id in changing:
            return False
        if isinstance(n, py.Call) and not (isinstance(n.func, py.Name) and n.func.id in _PURE_CALLS
                                           or isinstance(n.func, py.Attribute) and n.func.attr == "get"
                                           and isinstance(n.func.value, py.Name) and n.func.value.id in _TABLES):
            return False
        if isinstance(n, (py.Lambda, py.comprehension, py.Await, py.Yield, py.YieldFrom)):
            return False
    return True


def _reads(node: py.AST) -> bool:
    """Whether computing `node` once saves a lookup (it holds a subscript or an attribute), or it
    binds a name (`:=`) that a part computed once may read."""
    return any(isinstance(n, (py.Subscript, py.Attribute, py.NamedExpr)) for n in py.walk(node))


__all__ = ["Hoisted", "hoist", "loaded_names", "parse_expression"]
