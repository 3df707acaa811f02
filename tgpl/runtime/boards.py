"""Boards: groups of tiles built from their grid, named and connected.

Index order (3.10.2): square and hex-`col` groups are indexed [column][row],
hex-`row` groups [row][column]; a tile is named `Group[i][j]` in that order.
Neighbouring tiles of square (4 neighbours) and hex (6) groups are linked by
Connection objects, so `tile.connections` is ready to walk; blank tiles have
none and are nobody's neighbour. These connections are fixed by the geometry:
they are not part of the game state (states share them, which keeps copying
cheap) and each finds its destination tile by name in the world at hand. Hex offsets follow
3.10.2: with orientation row the even rows are shifted right, with col the
even columns are shifted down (counting from 0).
"""

from __future__ import annotations

from typing import Callable

from tgpl.runtime.classes import RClass, RGroup
from tgpl.runtime.values import Obj, World


def neighbours(geometry: str, orientation: str | None, row: int, col: int) -> list[tuple[int, int]]:
    """(row, col) of the cells next to (row, col), in a fixed order."""
    if geometry == "square":
        return [(row - 1, col), (row, col + 1), (row + 1, col), (row, col - 1)]
    if orientation == "row":
        shift = 1 if row % 2 == 0 else 0  # even rows sit half a cell to the right
        return [
            (row, col - 1), (row, col + 1),
            (row - 1, col - 1 + shift), (row - 1, col + shift),
            (row + 1, col - 1 + shift), (row + 1, col + shift),
        ]
    shift = 1 if col % 2 == 0 else 0  # even columns sit half a cell lower
    return [
        (row - 1, col), (row + 1, col),
        (row - 1 + shift, col - 1), (row + shift, col - 1),
        (row - 1 + shift, col + 1), (row + shift, col + 1),
    ]


def build_group(world: World, board: Obj, g: RGroup, builtin: Callable[[str], RClass],
                init_tile: Callable[[Obj], None]) -> Obj:
    """The group `g` of `board`, its tiles made in `world` and each given its fields (`init_tile`,
    the machine's); `builtin(name)` is the runtime class of a built-in class. Both are passed in by
    the machine, which imports this module, so that this one needs nothing above it."""
    group_cls, connection_cls, blank_cls = builtin("group"), builtin("connection"), builtin("blank_tile")
    taken = {o.name for o in world.objects}
    name = g.name if g.name not in taken else f"{board.name}.{g.name}"
    group = world.new_object(group_cls, name)
    group_fields = world.own(group)
    group_fields.update(name=g.name, tiles=[], geometry=g.geometry, orientation=g.orientation)
    rows = g.rows
    by_rc: dict[tuple[int, int], Obj] = {}
    row_major = g.geometry == "hex" and g.orientation == "row"
    width = max((len(r) for r in rows), default=0)
    cells = [[None] * (width if row_major else len(rows)) for _ in range(len(rows) if row_major else width)]
    for r, row in enumerate(rows):
        for c, rc in enumerate(row):
            if rc is None:
                continue
            i, j = (r, c) if row_major else (c, r)
            tile = world.new_object(rc, f"{name}[{i}][{j}]")
            world.own(tile)["group"] = group
            init_tile(tile)
            cells[i][j] = tile
            if rc is not blank_cls:
                by_rc[(r, c)] = tile
            group_fields["tiles"].append(tile)
    group_fields["_cells"] = cells
    if g.geometry in ("square", "hex"):
        for (r, c), tile in by_rc.items():
            for nr, nc in neighbours(g.geometry, g.orientation, r, c):
                other = by_rc.get((nr, nc))
                if other is not None:
                    # Fixed by the geometry: not part of the game state, so states share it
                    # (a fixed object), and it finds its destination by name in each world.
                    link = Obj(connection_cls, -1, f"{tile.name}->{other.name}", {"_to": other.name})
                    world.own(tile)["connections"].append(link)
    return group
