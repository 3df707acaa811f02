"""What one seat may see of a state: the board, the objects' panels and the move log, with
other players' secrets left out (language decision 94, docs/language.md).

`view(state, seat)` is the only way the server describes a state to a client, so a secret
that is not in the view cannot reach a page. The rule, in short, from what the game says:

- an attribute written `private` (`private List<District> Hand = {};`) is seen only by the
  owners of its object (by nobody, for an object no player owns); one written `hidden` by
  nobody. Others see a collection's number of items, a single value as hidden; everything
  else is public;
- a deck's items are never shown, to anyone: only their number;
- an interactable (a card, a piece) is *visible* to a seat when it sits on a tile or is held by
  an attribute that seat may see; only visible interactables are named: a hidden card's name
  (`District#12`) could tell which card it is, since names follow creation order;
- a move in the log names an interactable only for seats that see it before or after the move;
  for others its name becomes `(hidden)`; a move of an action written `private` shows its inputs
  to its mover only (`Citizen#0.Choose(role: (hidden))`).

`seat` is a player's number, or None for a spectator (who sees what no player owns privately).
Values are encoded for JSON: numbers, strings, bools and null as themselves; a player as
`{"player": p}`; an object as `{"ref": name, "label": its Name}` (an interactable adds
`"card": true` and its scalar attributes as `"attrs"`); a list as `{"list": [...]}`; a table as
`{"table": [[key, value], ...]}`; what the seat may not see as `{"hidden": n}` (n items) or
`{"hidden": null}` (one value).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tgpl.play.display import _BUILTIN_TILE_FIELDS, _OBJECT_NAME, abbreviations, label, may_see_field, visible_owners
from tgpl.runtime.game import Move, State
from tgpl.runtime.values import Obj, World
from tgpl.serve.layout import graph_layout

HIDDEN_TEXT = "(hidden)"


def _is_interactable(obj: Obj) -> bool:
    return obj.cls.kind == "interactable"


_COLOUR = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20}")


def colour_hint(world: World, obj: Obj) -> str | None:
    """A presentation hint: the object's `Colour` (or `Color`) attribute, when it is a CSS colour
    name or #rgb / #rrggbb, fills its piece, tile or card (Citadels' districts by their colour)."""
    fields = world.fields(obj)
    for name in ("Colour", "Color"):
        value = fields.get(name)
        if isinstance(value, str) and _COLOUR.fullmatch(value):
            return value.lower()
    return None


@dataclass(frozen=True)
class Sight:
    """What one seat sees of one world: the interactables it may name."""

    world: World
    seat: int | None
    visible: frozenset  # ids of the interactables the seat sees

    def sees(self, obj: Obj) -> bool:
        return not _is_interactable(obj) or id(obj) in self.visible


def sight(world: World, seat: int | None) -> Sight:
    """The interactables `seat` sees: those on a tile or held by an attribute it may see."""
    visible: set[int] = set()

    def collect(value) -> None:
        if isinstance(value, Obj):
            if _is_interactable(value):
                visible.add(id(value))
        elif isinstance(value, list):
            for v in value:
                collect(v)
        elif isinstance(value, dict):
            for k, v in value.items():
                collect(k)
                collect(v)

    for obj in world.objects:
        fields = world.fields(obj)
        if _is_interactable(obj) and fields.get("tile") is not None and not fields.get("discarded"):
            visible.add(id(obj))
        if _is_interactable(obj) and id(obj) not in visible:
            continue  # a hidden card's own attributes reveal nothing more
        for name, value in fields.items():
            if may_see_field(world, obj, name, value, seat):
                collect(value)
    # A card held by a visible card (a card's attribute naming another) is visible too: one more pass.
    for obj in world.objects:
        if id(obj) in visible:
            for name, value in world.fields(obj).items():
                if may_see_field(world, obj, name, value, seat):
                    collect(value)
    return Sight(world, seat, frozenset(visible))


def _scalar(v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if v.__class__ is int:  # players are ints, numbers are floats
        return {"player": v}
    if isinstance(v, float):
        if math.isfinite(v) and v.is_integer() and abs(v) < 1e15:
            return int(v)
        return v if math.isfinite(v) else str(v)
    return str(v)


def encode(s: Sight, value, depth: int = 0):
    """A value as the seat may see it (module docstring)."""
    w = s.world
    if isinstance(value, Obj):
        if not s.sees(value):
            return {"hidden": None}
        out = {"ref": value.name, "label": label(w, value)}
        if _is_interactable(value) and depth < 2:
            out["card"] = True
            out["attrs"] = {k: _scalar(v) for k, v in w.fields(value).items()
                            if not k.startswith("_") and k not in ("tile", "discarded")
                            and not isinstance(v, (Obj, list, dict))}
            owners = visible_owners(w, value, s.seat)
            out["owner"] = owners[0] if owners else None
            out["colour"] = colour_hint(w, value)
        return out
    if isinstance(value, list):
        return {"list": [encode(s, v, depth + 1) for v in value]}
    if isinstance(value, dict):
        return {"table": [[encode(s, k, depth + 1), encode(s, v, depth + 1)] for k, v in value.items()]}
    return _scalar(value)


def _field_view(s: Sight, obj: Obj, name: str, value):
    if may_see_field(s.world, obj, name, value, s.seat):
        return encode(s, value)
    if isinstance(value, (list, dict)):
        return {"hidden": len(value)}
    return {"hidden": None}


# ------------------------------------------------------------------ the board
def _tile_mark(s: Sight, tile: Obj, short: dict[str, str]) -> dict | None:
    """What marks a tile without a piece, from its attributes: the first one holding an object
    gives the text (its `Symbol`, else its owner's number, else its `Name` or class, shortened
    as `tgpl play` does), the first one holding a player the colour (Chess: `Piece` = Rook,
    `Side` = 1); a player alone marks the tile with its number. Booleans are flags (`_flags`)."""
    w = s.world
    text = owner = None
    for name, value in w.fields(tile).items():
        if name in _BUILTIN_TILE_FIELDS or name.startswith("_"):
            continue
        if isinstance(value, Obj) and text is None:
            symbol = w.fields(value).get("Symbol")
            owners = visible_owners(w, value, s.seat)
            if isinstance(symbol, str) and symbol:
                text = symbol
            elif owners:
                text = str(owners[0])
            else:
                text = short.get(value.cls.name) or label(w, value) or value.name[:2]
            if owners and owner is None:
                owner = owners[0]
        elif value.__class__ is int and owner is None:  # players are ints, numbers are floats
            owner = value
    if text is None and owner is None:
        return None
    return {"text": text if text is not None else str(owner), "owner": owner}


def _flags(w: World, tile: Obj) -> list[str]:
    """The tile's attributes that are `true` (Dark, Harbor): drawn as a shade, named in its title."""
    return [k for k, v in w.fields(tile).items() if v is True and not k.startswith("_")]


def _position(geometry: str, orientation: str | None, i: int, j: int) -> tuple[float, float, int, int]:
    """The tile's centre in cell units and its (column, row) on the drawing."""
    if geometry == "hex" and orientation == "row":
        row, col = i, j
        return col + (0.5 if row % 2 == 0 else 0.0), row * 0.866, col, row
    col, row = i, j
    if geometry == "hex":
        return col * 0.866, row + (0.5 if col % 2 == 0 else 0.0), col, row
    return float(col), float(row), col, row


def _groups(s: Sight, pieces: dict[int, list[Obj]]) -> tuple[list[dict], set[int]]:
    w = s.world
    marked = set()  # the classes of objects tiles hold and pieces: shortened together
    for o in w.objects:
        if o.cls.name == "Group":
            for t in w.fields(o).get("tiles", []):
                marked.update(v.cls.name for v in w.fields(t).values() if isinstance(v, Obj) and v.cls.name != "Group")
    marked.update(p.cls.name for on in pieces.values() for p in on)
    short = abbreviations(marked)
    out = []
    tiles_seen: set[int] = set()
    for group in w.objects:
        if group.cls.name != "Group":
            continue
        fields = w.fields(group)
        geometry = fields.get("geometry")
        orientation = fields.get("orientation")
        tiles = [t for t in fields.get("tiles", []) if isinstance(t, Obj)]
        drawn = []
        edges = []
        if geometry in ("square", "hex"):
            for i, column in enumerate(fields.get("_cells", [])):
                for j, tile in enumerate(column):
                    if tile is None:
                        continue
                    x, y, col, row = _position(geometry, orientation, i, j)
                    drawn.append(_tile(s, tile, pieces, short, {"i": i, "j": j, "col": col, "row": row, "x": x, "y": y}))
        else:  # a graph: its tiles where their X and Y say (a hint), else laid out by its connections
            index = {id(t): k for k, t in enumerate(tiles)}
            placed = all(isinstance(w.fields(t).get("X"), float) and isinstance(w.fields(t).get("Y"), float)
                         and math.isfinite(w.fields(t)["X"]) and math.isfinite(w.fields(t)["Y"]) for t in tiles)
            if not placed:
                links = [(index[id(t)], index[id(to)]) for t in tiles for link in w.fields(t).get("connections", []) or []
                         if isinstance(link, Obj) and isinstance(to := w.fields(link).get("to"), Obj) and id(to) in index]
                laid = graph_layout(len(tiles), links)
            for k, tile in enumerate(tiles):
                x, y = (w.fields(tile)["X"], w.fields(tile)["Y"]) if placed else laid[k]
                drawn.append(_tile(s, tile, pieces, short, {"i": k, "x": x, "y": y}))
                for link in w.fields(tile).get("connections", []) or []:
                    if not isinstance(link, Obj) or link.fixed is not None:
                        continue
                    to = w.fields(link).get("to")
                    if isinstance(to, Obj) and id(to) in index:
                        tiles_seen.add(id(link))
                        edges.append({"from": tile.name, "to": to.name, "class": link.cls.name, "name": link.name})
        tiles_seen.update(id(t) for t in tiles)
        out.append({"name": group.name, "geometry": geometry, "orientation": orientation,
                    "tiles": drawn, "edges": edges})
    return out, tiles_seen


def _tile(s: Sight, tile: Obj, pieces: dict[int, list[Obj]], short: dict[str, str], where: dict) -> dict:
    w = s.world
    blank = tile.cls.name == "BlankTile"
    on = [] if blank else [
        {"name": p.name, "class": p.cls.name, "symbol": w.fields(p).get("Symbol") if isinstance(w.fields(p).get("Symbol"), str) else short[p.cls.name],
         "owner": (visible_owners(w, p, s.seat) or (None,))[0], "label": label(w, p), "colour": colour_hint(w, p)}
        for p in pieces.get(id(tile), [])
    ]
    # plain attributes only (a tile's lists of neighbours would be most of the message): the tooltip's
    attrs = {k: _field_view(s, tile, k, v) for k, v in w.fields(tile).items()
             if k not in _BUILTIN_TILE_FIELDS and not k.startswith("_") and not isinstance(v, (Obj, list, dict))}
    return {"name": tile.name, "class": tile.cls.name, "blank": blank, "label": None if blank else label(w, tile),
            "pieces": on, "mark": None if blank or on else _tile_mark(s, tile, short),
            "flags": [] if blank else _flags(w, tile), "colour": None if blank else colour_hint(w, tile),
            "attrs": attrs, **where}


# ------------------------------------------------------------------ the view
def _scope(w: World, obj: Obj, seat: int | None) -> str:
    if obj.cls.visibility == "global":
        return "global"
    return "player" if visible_owners(w, obj, seat) else "other"


def view(state: State, seat: int | None, seen: Sight | None = None) -> dict:
    """The state as `seat` may see it (module docstring): JSON-ready. `seen`: the seat's sight of this
    state, when the caller has it already (the session keeps one per position for the log)."""
    w = state.world
    s = seen if seen is not None else sight(w, seat)
    c = w.control
    pieces: dict[int, list[Obj]] = {}
    for o in w.objects:
        if not _is_interactable(o):
            continue
        tile = w.fields(o).get("tile")
        if isinstance(tile, Obj) and not w.fields(o).get("discarded"):
            pieces.setdefault(id(tile), []).append(o)
    groups, drawn = _groups(s, pieces)
    groups_of_boards = {id(g) for g in w.objects if g.cls.name == "Group"}
    panels = []
    for o in w.objects:
        if id(o) in drawn or id(o) in groups_of_boards or _is_interactable(o) or state.game.is_event(o):
            continue
        fields = []
        for k, v in w.fields(o).items():
            if o.cls.kind == "stack" and k == "_items":
                fields.append(["cards", {"hidden": len(v)}])
            elif not k.startswith("_") and not (o.cls.kind == "board" and k == "groups"):
                fields.append([k, _field_view(s, o, k, v)])
        if o.cls.kind == "board" and all(isinstance(v, dict) and "ref" in v and v["ref"] in {g["name"] for g in groups}
                                         for _, v in fields):
            continue  # a board that only holds its groups: they are drawn
        if not fields:
            continue
        owners = list(visible_owners(w, o, seat))
        panels.append({"name": o.name, "class": o.cls.name, "label": label(w, o), "owners": owners,
                       "scope": _scope(w, o, seat), "kind": o.cls.kind, "fields": fields})
    return {
        "seat": seat,
        "players": w.players,
        "turn": c.turn,
        "phase": c.phase,
        "active": state.active_player,
        "terminal": state.is_terminal,
        "ranking": w.result,
        "goals": state.goals if state.is_terminal else None,
        "waiting": {"input": state.request.name, "player": state.request.player} if state.request else None,
        "groups": groups,
        "panels": panels,
        "log": list(w.log),
    }


# ------------------------------------------------------------------ moves
def move_objects(move: Move) -> list[str]:
    """The names of the objects a move involves: its acting object and its object inputs (or
    the object chosen), the things a click on the board can select it by."""
    names: list[str] = []

    def add(v) -> None:
        if isinstance(v, tuple) and len(v) == 2 and v[0] == "obj":
            names.append(v[1])
        elif isinstance(v, tuple) and len(v) == 2 and v[0] == "list":
            for x in v[1]:
                add(x)

    if move.obj is not None:
        names.append(move.obj)
    for _, v in move.inputs:
        add(v)
    add(move.value)
    return names


_MOVE = re.compile(r"(?P<obj>[A-Za-z_][\w.]*(?:#\d+|(?:\[\d+\])+)?)\.(?P<action>\w+)\((?P<args>.*)\)\Z", re.S)


def _top_level_args(args: str) -> list[str]:
    """A move's arguments split at the commas outside brackets, braces, parentheses and strings."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(args):
        if quoted:
            quoted = ch != '"' or args[i - 1] == "\\"
        elif ch == '"':
            quoted = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(args[start:i])
            start = i + 1
    parts.append(args[start:])
    return [p.strip() for p in parts if p.strip()]


def _private_move(text: str, world: World) -> str | None:
    """The text of a move of a `private` action with its inputs hidden (`Citizen#0.Choose(role: (hidden))`),
    or None when the move is not one."""
    m = _MOVE.match(text)
    if m is None:
        return None
    obj = world.named(m["obj"]) or world.globals.get(m["obj"])
    if obj is None or not obj.cls.private_action(m["action"]):
        return None
    args = [f"{a.split(':', 1)[0]}: {HIDDEN_TEXT}" if ":" in a else HIDDEN_TEXT for a in _top_level_args(m["args"])]
    return f"{m['obj']}.{m['action']}({', '.join(args)})"


def redact(text: str, before: Sight, after: Sight) -> str:
    """A move's text as a seat other than its mover may read it: a `private` action's inputs hidden, and
    each interactable it names that the seat sees neither before nor after the move `(hidden)`."""
    private = _private_move(text, before.world)
    if private is not None:
        return private

    def hide(m: re.Match) -> str:
        name = m.group(0)
        for s in (before, after):
            obj = s.world.named(name)
            if obj is not None and s.sees(obj):
                return name
        if before.world.named(name) is None and after.world.named(name) is None:
            return name  # not an object's name (a string's text)
        return HIDDEN_TEXT

    return _OBJECT_NAME.sub(hide, text)
