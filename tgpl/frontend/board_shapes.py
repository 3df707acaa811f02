"""What the checker knows of a board group's shape, to catch a literal index outside it.

A group's cells are fixed by its `grid` literal (tgpl/runtime/boards.py, `build_group`):
`Group[i][j]` is a column then a row, or, for a hex group of row orientation, a row then a
column. An index written as a number (`Grid[2][6]`) can be checked against that shape here, at
check time, where the runtime would stop with "index 6 out of range 0..5".
"""

from __future__ import annotations

import math

from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.symbols import ClassInfo


@dataclass(frozen=True)
class GroupShape:
    """How many values each index of `Group[i][j]` may take."""

    name: str
    first: int  # the values of i: 0..first-1
    second: int  # the values of j: 0..second-1


def shape_of(group: ast.GroupDef) -> GroupShape | None:
    """The shape `build_group` gives the group, or None without a grid literal."""
    grid = group.grid
    if grid is None or not grid.rows:
        return None
    width = max(len(row) for row in grid.rows)
    geometry, orientation = group.geometry, group.orientation
    row_major = geometry is not None and geometry.name == "hex" and orientation is not None \
        and orientation.name == "row"
    if row_major:
        return GroupShape(group.name, len(grid.rows), width)
    return GroupShape(group.name, width, len(grid.rows))


def group_shape(info: ClassInfo, name: str, classes: list[ClassInfo]) -> GroupShape | None:
    """The shape of group `name` of a board of static class `info`: the largest over the classes the
    object may be (info and the classes deriving from it), so that an index outside it is outside
    every one; None when one of them has no grid literal."""
    defs = []
    for c in [info, *classes]:
        if c is not info and not c.derives_from(info):
            continue
        found = c.find_group(name)
        if found is not None:
            defs.append(found)
    shapes = [shape_of(d) for d in defs]
    if not shapes or any(s is None for s in shapes):
        return None
    return GroupShape(name, max(s.first for s in shapes), max(s.second for s in shapes))


def literal_index(e: ast.Expr) -> int | None:
    """The index a number literal (or a negated one) gives, truncated as the runtime truncates it; None for any
    other expression, and for a literal too large to be a number (read as infinity: the runtime's error)."""
    if isinstance(e, ast.NumberLit) and math.isfinite(e.value):
        return int(e.value)
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.NumberLit) \
            and math.isfinite(e.operand.value):
        return int(-e.operand.value)
    return None
