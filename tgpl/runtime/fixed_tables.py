"""Tables of fixed values built by a nest of counted loops, found once per block.

Tris's win check begins by collecting its board's tiles in a local 3x3 table:

    Table<Table<TickTile>> tiles = {};
    for (number x = 0; x < 3; x += 1) {
        tiles[x] = {};
        for (number y = 0; y < 3; y += 1) { tiles[x][y] = GameState.Board.TrisGrid[x][y] as TickTile; }
    }

and then only reads `tiles[a][b]`. Once setup is over the table is the same on every run: its
keys are the loops' counters and its items fixed expressions (`Purity.fixed`) of those counters
alone. Building it takes 12 loop steps, 12 stores and nine memo lookups each time.
When the code after it only ever reads whole items of it (`tiles[a][b]`, never `tiles[a]`, never
`tiles` alone, never a store), nothing can change the table or tell one built anew from one
built before, so the code builds it once per setup and then takes the one it built
(`BlockGenerator.fixed_table`): the loop steps are counted all the same, and past the step limit,
or while setup runs, it is built the way it was, to raise where it raised.

This module only recognises the shape (`find`); codegen spells it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from tgpl.frontend import ast


@dataclass(frozen=True)
class FixedTable:
    """A local declared empty (`decl`) and filled by the counted nest after it (`nest`)."""

    name: str  # the local
    decl: ast.VarDecl
    nest: ast.For
    depth: int  # the indexes of an item: `tiles[x][y]` is 2
    values: tuple[ast.Expr, ...]  # the items stored (fixed expressions of the counters)


def find(body: list, i: int, counted: Callable[[ast.For], tuple | None],
         value_ok: Callable[[ast.Expr, set[str]], bool]) -> FixedTable | None:
    """The fixed table declared by `body[i]` and built by `body[i + 1]`, whose items the statements
    after them only read, else None. `counted`: a loop's counter values when it is a counted one
    (`BlockGenerator.counted`); `value_ok(e, counters)`: whether an item stored is fixed once setup
    is over and reads no local but the nest's counters."""
    if i + 1 >= len(body):
        return None
    decl, nest = body[i], body[i + 1]
    if not (isinstance(decl, ast.VarDecl) and _empty(decl.init) and isinstance(nest, ast.For)):
        return None
    name = decl.name
    stores: list[tuple[int, ast.Expr]] = []
    if not _nest(nest, name, counted, set(), stores):
        return None
    depth = max((d for d, v in stores if not _empty(v)), default=0)
    values = tuple(v for d, v in stores if not _empty(v))
    if depth == 0 or any(d >= depth for d, v in stores if _empty(v)) or any(d != depth for d, v in stores
                                                                             if not _empty(v)):
        return None
    if not all(value_ok(v, counters) for v, counters in _valued(nest, name, counted)):
        return None
    if not _only_items_read(body[i + 2:], name, depth):
        return None
    return FixedTable(name, decl, nest, depth, values)


def _empty(e) -> bool:
    return isinstance(e, ast.InitList) and not e.items


def _chain(e: ast.Expr, name: str) -> int | None:
    """How many indexes `e` applies to the local `name` (`t[a][b]`: 2), else None."""
    depth = 0
    while isinstance(e, ast.Index):
        e = e.obj
        depth += 1
    return depth if isinstance(e, ast.Name) and e.name == name and depth else None


def _nest(loop: ast.For, name: str, counted, counters: set[str], stores: list) -> bool:
    """Whether the counted loop holds only counted loops and stores `name[c]...[c] = value`, each
    index a counter of the nest or a number literal (each store appended to `stores`)."""
    if counted(loop) is None:
        return False
    inner = counters | {loop.init.name}
    body = loop.body.body if isinstance(loop.body, ast.Block) else [loop.body]
    for s in body:
        if isinstance(s, ast.For):
            if not _nest(s, name, counted, inner, stores):
                return False
            continue
        if not (isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign) and s.expr.op == "="):
            return False
        target = s.expr.target
        depth = _chain(target, name)
        if depth is None:
            return False
        e = target
        while isinstance(e, ast.Index):
            k = e.index
            if not (isinstance(k, ast.NumberLit) or (isinstance(k, ast.Name) and k.name in inner)):
                return False
            e = e.obj
        if any(isinstance(n, ast.Name) and n.name == name for n in ast.walk(s.expr.value)):
            return False
        stores.append((depth, s.expr.value))
    return True


def _valued(loop: ast.For, name: str, counted, counters: frozenset = frozenset()):
    """Each item stored by the nest, with the counters in scope where it is stored."""
    inner = counters | {loop.init.name}
    body = loop.body.body if isinstance(loop.body, ast.Block) else [loop.body]
    for s in body:
        if isinstance(s, ast.For):
            yield from _valued(s, name, counted, inner)
        elif not _empty(s.expr.value):
            yield s.expr.value, set(inner)


def _only_items_read(rest: list, name: str, depth: int) -> bool:
    """Whether the statements after the nest name the local only in reads of a whole item
    (`depth` indexes), never declare another of that name, and never store into an item."""
    allowed: set[int] = set()
    targets: set[int] = set()
    nodes = [n for s in rest for n in ast.walk(s)]
    for n in nodes:
        if isinstance(n, ast.Index) and _chain(n, name) == depth:
            e = n
            while isinstance(e, ast.Index):
                e = e.obj
            allowed.add(id(e))
        elif isinstance(n, ast.Assign):
            targets.add(id(n.target))
        elif isinstance(n, (ast.VarDecl, ast.InputDecl, ast.Filter)) and getattr(n, "name", None) == name:
            return False
    for n in nodes:
        if isinstance(n, ast.Name) and n.name == name and id(n) not in allowed:
            return False
        if isinstance(n, ast.Index) and id(n) in targets and _chain(n, name) is not None:
            return False
    return True


__all__ = ["FixedTable", "find"]
