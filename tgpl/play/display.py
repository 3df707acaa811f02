"""A text view of a state for the terminal: square and hex groups as grids,
then the players' objects as a table.

A cell shows what sits on the tile: a piece (an interactable whose `tile`
is this tile) as its `Symbol` attribute, or the shortest prefix of its class
name that tells the classes on the board apart, and its owner; else the
tile's first attribute holding an object (its owner's number), a player or
`true` (`x`), where a tile declaring a player or object attribute shows only
those (null in all: `.`); else `.`; a blank tile is a space.

Who may see an attribute or an object's owners (language decision 94) is decided here,
`may_see_field` and `visible_owners`, for this table and for the server's views (tgpl.serve.views).
"""

from __future__ import annotations

import re

from tgpl.runtime.game import Move, State
from tgpl.runtime.values import Obj, World, show

_LABEL_FIELDS = ("Name", "name", "Title", "title")
_OBJECT_NAME = re.compile(r"[A-Za-z_][\w.]*(?:#\d+|(?:\[\d+\])+)")
_LIST_SHOWN = 8


def label(world: World, obj: Obj) -> str | None:
    """A designer's name for an object (its `Name` attribute), if it has one."""
    for field in _LABEL_FIELDS:
        value = world.fields(obj).get(field)
        if isinstance(value, str) and value:
            return value
    return None


def describe_move(state: State, move: Move) -> str:
    """The move's text with objects that have a `Name` labelled: `District#5 (Temple)`."""
    return describe_text(move.text, state.world)


def describe_text(text: str, *worlds: World) -> str:
    """A move's text with each object that has a `Name` labelled, found in the first of `worlds` that has it
    (a transcript labels a played move from the state before it, then the state after, where it was made)."""

    def labelled(m: re.Match) -> str:
        for world in worlds:
            obj = world.named(m.group(0))
            if obj is not None:
                name = label(world, obj)
                return f"{m.group(0)} ({name})" if name else m.group(0)
        return m.group(0)

    return _OBJECT_NAME.sub(labelled, text)


def _brief(world: World, value) -> str:
    if isinstance(value, Obj):
        return label(world, value) or value.name
    if isinstance(value, list):
        if len(value) > _LIST_SHOWN:
            return f"{{{len(value)} items}}"
        return "{" + ", ".join(_brief(world, v) for v in value) + "}"
    if isinstance(value, dict):
        return f"{{{len(value)} entries}}"
    return show(value)


def may_see_field(world: World, obj: Obj, name: str, value, seat: int | None) -> bool:
    """Whether `seat` (None: a spectator) sees the attribute `name` of `obj`: a deck's items and the runtime's
    own fields never, one written `hidden` never, one written `private` when the seat owns the object, any
    other always."""
    if obj.cls.kind == "stack" and name == "_items":
        return False
    if name.startswith("_"):
        return False
    secrecy = obj.cls.secrets.get(name)
    if secrecy is None:
        return True
    return secrecy == "private" and seat is not None and seat in world.owners_of(obj)


def visible_owners(world: World, obj: Obj, seat: int | None) -> tuple[int, ...]:
    """The owners of `obj` as `seat` may see them: all of them, unless its class is written `private class`
    (then only its owners see them) or `hidden class` (nobody does)."""
    owners = world.owners_of(obj)
    secrecy = obj.cls.owner_secrecy
    if secrecy is None or (secrecy == "private" and seat is not None and seat in owners):
        return owners
    return ()


def _table(state: State, seat: int | None = None) -> list[str]:
    """One line per object that players own: its attributes, briefly; with a seat, only what that
    seat may see (language decision 94: another player's hand as its number of items)."""
    out = []
    w = state.world
    may_see = may_see_field if seat is not None else None
    owners_seen = visible_owners if seat is not None else lambda w, o, seat: w.owners_of(o)
    for o in w.objects:
        fields = w.fields(o)
        if not owners_seen(w, o, seat) or o.cls.visibility == "global" or "tile" in fields and fields.get("tile") is not None:
            continue
        parts = [f"{k}={_brief(w, v) if may_see is None or may_see(w, o, k, v, seat) else _hidden(v)}"
                 for k, v in fields.items() if not k.startswith("_") and k not in ("tile", "discarded")]
        if not parts:
            continue
        owners = ", ".join(str(p) for p in owners_seen(w, o, seat))
        out.append(f"  {o.name} [player {owners}]: " + " ".join(parts))
    return out

def _hidden(value) -> str:
    return f"{{{len(value)} hidden}}" if isinstance(value, (list, dict)) else "(hidden)"


_BUILTIN_TILE_FIELDS = {"group", "connections"}


def abbreviations(classes: set[str]) -> dict[str, str]:
    """The shortest prefix that tells each piece class apart: King `Ki`, Knight `Kn`, Pawn `P`."""
    out = {}
    for name in classes:
        n = 1
        while n < len(name) and any(o != name and o[:n] == name[:n] for o in classes):
            n += 1
        out[name] = name[:n]
    return out


_VALUE_TYPES = frozenset({"number", "string", "bool", "List", "Table", "Stack"})


def _holder_attributes(cls) -> frozenset[str]:
    """The attributes a tile class (and its bases) declares as a player or an object: who holds the tile."""
    names = set()
    for c in cls.ancestors():
        defn = c.info.defn if c.info is not None else None
        for attr in (defn.attributes if defn is not None else []):
            if attr.type is not None and attr.type.name not in _VALUE_TYPES:
                names.add(attr.name)
    return frozenset(names)


def _cell(w: World, tile: Obj | None, pieces: dict[int, list[Obj]], short: dict[str, str]) -> str:
    if tile is None or tile.cls.name == "BlankTile":
        return " "
    on = pieces.get(id(tile))
    if on:
        p = on[0]
        symbol = w.fields(p).get("Symbol")
        if isinstance(symbol, str) and symbol:
            return symbol
        owners = w.owners_of(p)
        return short.get(p.cls.name, p.cls.name[:1]) + (str(owners[0]) if owners else "")
    # The first attribute that says who holds the tile: an object, a player, a mark.
    # Numbers and strings are left out: on tiles they are mostly coordinates and names;
    # so is another tile (a cell's `Square Home`): a link between places, not a holder.
    # A tile that declares who can hold it (a player or an object) is empty while none does:
    # its marks (a side it lies on, `bool Left`) do not make it look taken.
    holders = _holder_attributes(tile.cls)
    for name, value in w.fields(tile).items():
        if name in _BUILTIN_TILE_FIELDS or name.startswith("_"):
            continue
        if holders and name not in holders:
            continue
        if isinstance(value, Obj) and value.cls.kind == "tile":
            continue
        if isinstance(value, Obj):
            owners = w.owners_of(value)
            return str(owners[0]) if owners else value.name[:1]
        if value is True:
            return "x"
        if value.__class__ is int:  # players are ints, numbers are floats
            return str(value)
    return "."


def render_state(state: State, seat: int | None = None, log: bool = True) -> str:
    """The board, the players' objects and the last five log lines; with a seat, as that seat may see
    them; without the log lines when `log` is False (`tgpl play` prints each log line once, as its
    move is played)."""
    w = state.world
    c = w.control
    if state.is_terminal:
        out = [f"-- game over (turn {c.turn}, phase {c.phase}) --"]
    else:  # a pending choice may be another player's
        out = [f"-- turn {c.turn}, phase {c.phase}, player {state.active_player} to act --"]
    pieces: dict[int, list[Obj]] = {}
    for o in w.objects:
        tile = w.fields(o).get("tile")
        if isinstance(tile, Obj) and not w.fields(o).get("discarded"):
            pieces.setdefault(id(tile), []).append(o)
    short = abbreviations({p.cls.name for on in pieces.values() for p in on})
    for group in w.objects:
        fields = w.fields(group)
        if group.cls.name != "Group" or fields.get("geometry") == "graph":
            continue
        cells = fields.get("_cells", [])
        row_major = fields.get("geometry") == "hex" and fields.get("orientation") == "row"
        grid = cells if row_major else [list(r) for r in zip(*cells)] if cells else []
        out.append(f"{group.name}:")
        width = max((len(_cell(w, t, pieces, short)) for row in grid for t in row), default=1)
        for r, row in enumerate(grid):
            indent = " " * ((width + 1) // 2) if row_major and r % 2 == 0 else ""
            out.append("  " + indent + " ".join(_cell(w, t, pieces, short).ljust(width) for t in row).rstrip())
    table = _table(state, seat)
    if table:
        out.append("players' objects:")
        out.extend(table)
    for line in w.log[-5:] if log else ():
        out.append(f"log: {line}")
    return "\n".join(out)
