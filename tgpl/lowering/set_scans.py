"""Scans of a list kept as a set that stop at the first match (docs/lowering.md, "Lists kept as sets").

`for (number i = 0; i < Cards.length; i += 1) { if (Cards[i].Suit == suit) { return true; } }` reads the list in
order, but what it does cannot depend on the order: its test reads nothing but the item and values fixed before
the loop, changes nothing, and what it runs on a match (`return true;`) reads neither the item nor its place. It
runs its match where some item of the list passes the test, and goes on after the loop where none does, in any
order. A list that code after setup reads only so (besides `contains`, `add` and `remove`) can then still be kept
as the set of its items (tgpl.lowering.subset.set_lists): a bool per object, where its slots in order cost a rule
per item, place and length at every `remove`, which moves the later items down. The executor
(`execute.Executor.stmt_For`) runs such a loop as one test: does some object the list holds pass?
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.types import ClassType, Collection
from tgpl.lowering.list_sums import list_walk, path_shape

PURE_NODES = (ast.Name, ast.This, ast.Member, ast.Binary, ast.Unary, ast.NumberLit, ast.StringLit, ast.BoolLit,
              ast.NullLit)
"""What a scan's test and its match's value may be made of: reads and arithmetic, no call, assignment or `new`,
so that testing the items in another order changes nothing."""


@dataclass(frozen=True)
class SetScan:
    """`for (number i = 0; i < L.length; i += 1) { if (C) { return K; } }`: the list `items`, the loop's index
    `index`, the test `cond` (reading the item as `L[i]`), and `hit`, the block run on a match."""

    items: ast.Expr
    index: str
    cond: ast.Expr
    hit: ast.Block
    reads: tuple[ast.Expr, ...]  # every expression of the list the loop reads (the header's, each `L[i]`'s)


def set_scan(s: ast.For, types: dict) -> SetScan | None:
    """The loop as a scan that stops at the first match whose order nothing observes; None for any other loop."""
    walk = list_walk(s)
    if walk is None:
        return None
    i, items = walk
    shape = path_shape(items)
    t = types.get(id(items))
    if not (isinstance(t, Collection) and t.kind == "List" and isinstance(t.elem, ClassType)):
        return None
    if len(s.body.body) != 1 or not isinstance(s.body.body[0], ast.If) or s.body.body[0].orelse is not None:
        return None
    test = s.body.body[0]
    if len(test.then.body) != 1 or not isinstance(test.then.body[0], ast.Return):
        return None
    value = test.then.body[0].value
    reads = [items]
    if not _pure(test.cond, i, shape, reads) or (value is not None and not _pure(value, i, None, [])):
        return None
    return SetScan(items, i, test.cond, test.then, tuple(reads))


def _pure(e: ast.Expr, index: str, shape: tuple | None, reads: list[ast.Expr]) -> bool:
    """Whether `e` is made of PURE_NODES and reads the index only as `L[i]`, L the scanned list (of `shape`; None:
    not at all), each such L added to `reads`."""
    if isinstance(e, ast.Index):
        if shape is None or not (isinstance(e.index, ast.Name) and e.index.name == index
                                 and path_shape(e.obj) == shape):
            return False
        reads.append(e.obj)
        return True
    if not isinstance(e, PURE_NODES) or (isinstance(e, ast.Name) and e.name == index):
        return False
    if isinstance(e, ast.Member):
        return _pure(e.obj, index, shape, reads)
    if isinstance(e, ast.Binary):
        return _pure(e.left, index, shape, reads) and _pure(e.right, index, shape, reads)
    if isinstance(e, ast.Unary):
        return _pure(e.operand, index, shape, reads)
    return True


__all__ = ["SetScan", "set_scan"]
