"""A decision state as plain data: what the lowering needs of the world after setup.

The lowering (tgpl.lowering) may not import the runtime, yet it starts from
the objects that setup created. This module describes a state with nothing
but Python built-ins and the checker's `ClassInfo`s, so any layer can read it:

    {"players": 2, "control": (player, turn, phase), "result": None | ranking,
     "objects": [{"name", "class": ClassInfo, "serial", "owners": (..),
                  "fields": {name: value}, "cells": [[name | None, ..], ..] | None,
                  "connections": [(connection name, ClassInfo, destination name), ..]}]}

Values: None, bool, float, str, ("obj", name), ("list", [values]),
("table", [(key, value), ..]). Fields that start with `_` are the runtime's own
(a group's cell matrix, a deck's items) and appear in their own keys.

`fields_snapshot(state, wanted)` is the same description cut down to some fields of
some objects (each object only its "name" and "fields"), for an encoder that reads no
more: the translation validation encodes a state per step, and chess's full snapshot
(64 squares, each with six fixed lists) took 3.4 ms of it.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from tgpl.runtime.game import State
from tgpl.runtime.values import Obj


def _plain(v):
    c = v.__class__
    if c is Obj:
        return ("obj", v.name)
    if c is list:
        return ("list", [_plain(x) for x in v])
    if c is dict:
        return ("table", [(_plain(k), _plain(x)) for k, x in v.items()])
    if c is int:
        return float(v)
    return v


def _connection(w, link: Obj) -> tuple:
    to = w.fields(link).get("_to")
    if to is None:
        target = w.fields(link).get("to")
        to = target.name if isinstance(target, Obj) else None
    return (link.name, link.cls.info, to)


def snapshot(state: State) -> dict:
    """The state's world as plain data (see the module's docstring)."""
    w = state.world
    objects = []
    for serial, o in enumerate(w.objects):  # serials count the live objects in creation order
        own = w.fields(o)
        fields = {k: _plain(v) for k, v in own.items() if not k.startswith("_") and k != "connections"}
        cells = own.get("_cells")
        objects.append({
            "name": o.name,
            "class": o.cls.info,
            "serial": serial,
            "owners": w.owners_of(o),
            "fields": fields,
            "items": [_plain(x) for x in own["_items"]] if "_items" in own else None,
            "cells": [[t.name if t is not None else None for t in col] for col in cells] if cells is not None else None,
            "connections": [_connection(w, c) for c in own.get("connections", ())],
        })
    return _described(w, objects)


def fields_snapshot(state: State, wanted: Mapping[str, Iterable[str]]) -> dict:
    """`snapshot` with only the `wanted` fields (object name -> field names) of the objects named there."""
    w = state.world
    objects = []
    for name, names in wanted.items():
        o = w.named(name)
        own = w.fields(o)
        objects.append({"name": name, "fields": {k: _plain(own[k]) for k in names}})
    return _described(w, objects)


def _described(w, objects: list[dict]) -> dict:
    c = w.control
    return {
        "players": w.players,
        "control": (c.player, c.turn, c.phase),
        "result": [list(r) for r in w.result] if w.result is not None else None,
        "objects": objects,
    }
