"""The built-in methods of collections and objects (see tgpl.frontend.builtins)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tgpl.frontend.diagnostics import Span
from tgpl.runtime.operators import MISSING
from tgpl.runtime.values import Obj, show, to_player

if TYPE_CHECKING:
    from tgpl.runtime.machine import Machine


def _index_of(xs: list, item) -> int:
    for i, x in enumerate(xs):
        if x is item or (not isinstance(x, Obj) and x == item and isinstance(x, bool) == isinstance(item, bool)):
            return i
    return -1


def list_op(m: Machine, xs: list, name: str, args: list, span: Span):
    a = args[0] if args else MISSING
    if name in ("add", "push"):
        if a is not None or name == "add":
            xs.append(a)
        return None
    if name == "push_front":
        if a is not None:
            xs.insert(0, a)
        return None
    if name == "append":
        xs.extend(m.not_null(a, span))
        return None
    if name == "clear":
        xs.clear()
        return None
    if name == "contains":
        return _index_of(xs, a) >= 0
    if name == "indexOf":
        return float(_index_of(xs, a))
    if name == "remove":
        i = _index_of(xs, a)
        if i >= 0:
            del xs[i]
        return None
    if name == "removeAt":
        del xs[m._list_index(xs, a, span)]
        return None
    if name == "shuffle":
        m.world.random().shuffle(xs)
        return None
    if name in ("copy", "clone"):
        return list(xs)
    if name == "pop":
        return xs.pop() if xs else None
    if name == "pop_front":
        return xs.pop(0) if xs else None
    if name == "peek":
        return xs[-1] if xs else None
    m.error(span, f"a list has no method '{name}'")


def table_op(m: Machine, d: dict, name: str, args: list, span: Span):
    if name == "clear":
        d.clear()
        return None
    if name == "copy":
        return dict(d)
    if name == "keys":
        return list(d.keys())
    if name == "values":
        return list(d.values())
    if name == "contains":
        return args[0] in d
    m.error(span, f"a table has no method '{name}'")


_READING = frozenset(("contains", "indexOf", "peek", "copy", "clone", "keys", "values", "length"))


def object_op(m: Machine, obj: Obj, name: str, args: list, span: Span):
    a = args[0] if args else MISSING
    world = m.world
    if name == "assign":
        p = to_player(m.not_null(a, span), m.players)
        owners = world.owners_of(obj)
        if obj.cls.visibility == "group":
            if p not in owners:
                world.set_owners(obj, (*owners, p))
        else:
            world.set_owners(obj, (p,))
        return None
    if name == "move_to":
        world.own(obj)["tile"] = a
        return None
    if name == "discard":
        fields = world.own(obj)
        fields["discarded"] = True
        fields["tile"] = None
        pile = (world.own(a).get("_items") if a.fixed is None else None) if isinstance(a, Obj) else a
        if pile is None:
            m.error(span, "discard into null")
        pile.append(obj)
        return None
    if "_items" in world.fields(obj):
        if name in _READING:  # a deck's items are only read: no copy of its fields
            return list_op(m, world.fields(obj)["_items"], name, args, span)
        fields = world.own(obj)
        items = fields["_items"]
        if name == "reshuffle":
            items.extend(fields["discard_stack"])
            for card in fields["discard_stack"]:
                if isinstance(card, Obj):
                    world.own(card)["discarded"] = False
            fields["discard_stack"].clear()
            world.random().shuffle(items)
            return None
        return list_op(m, items, name, args, span)
    m.error(span, f"{obj.name} has no method '{name}'")


def call_builtin(m: Machine, target, name: str, args: list, span: Span):
    if target is None:
        m.error(span, f"cannot call '{name}' on null")
    cls = target.__class__
    if cls is list:
        return list_op(m, target, name, args, span)
    if cls is dict:
        return table_op(m, target, name, args, span)
    if cls is Obj:
        return object_op(m, target, name, args, span)
    m.error(span, f"{show(target)} has no method '{name}'")
