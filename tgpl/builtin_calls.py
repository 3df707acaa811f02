"""TGPL's built-in functions and methods, each defined once: `BUILTINS`.

An entry says everything the toolchain knows of one built-in: on what it is called, its type
rule (the checker's signature), what it reads and writes, whether it draws on the game's random
numbers, its runtime code, and how the code generator spells it when it spells it inline. The
checker (`tgpl.frontend.bodies`) finds built-ins through the views below (`collection_methods`,
`builtin_methods`, `NAMESPACES`...); every `Signature` they give back carries its entry, so the
runtime's evaluators (`tgpl.runtime.compiler`, `tgpl.runtime.codegen`) and analyses (`purity`,
`readonly`, `defaults`) read the facts off the call's signature, and the machine runs a method
call by its name through `call_method`. The lowering keeps its own tables of what it can
translate (`tgpl.lowering.subset`), reading `CHANCE` from here.

Built-in classes and attributes (`Tile`, `player`, `length`...) are in `tgpl.frontend.builtins`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from tgpl.frontend.builtins import OWNABLE, BuiltinClasses, Param, Signature, deck_item
from tgpl.frontend.symbols import ClassInfo
from tgpl.frontend.types import (
    ANY, BOOL, NUMBER, PLAYER, STRING, VOID, ClassType, Collection, Namespace, Type, list_of,
)
from tgpl.runtime.operators import MISSING
from tgpl.runtime.values import Obj, show, to_player

LISTS = ("List", "Stack")  # receivers whose runtime value is a Python list (a deck's `_items` too)
OBJECTS = ("ownable", "interactable", "deck")  # receivers that are objects, by the kind of their class
NAMESPACE_NAMES = ("player", "turn", "turn.phase", "event")


@dataclass(frozen=True, slots=True)
class Builtin:
    """One built-in function or method.

    `receiver`: a collection kind (`List`, `Table`, `Stack`: a deck's items too), an object
    kind (`ownable`: classes, interactables, stacks and boards; `interactable`; `deck`: a stack
    class), a namespace (`player`, `turn`, `turn.phase`, `event`: `event.throw(e)`, and `e.throw()`
    on an event), or "" for a global function. `name` is what a call names: `shuffle`, `turn.pass`.

    `rule(r)` gives the signature, from the receiver's `Collection` for a collection method and
    from the `BuiltinClasses` otherwise.

    `writes`: "" (nothing: it may run while legal moves are listed), "items" (a list, table or
    stack in place: its receiver's, or the stack `discard` puts an object on), "object" (an
    object's built-in members: its owners, its tile), "control" (whose turn it is, events), "log"
    or "random" (the game's generator). `reads`: "items" (its receiver's), "object" (the object's
    built-in members), "control" (whose turn it is), or ""
    (nothing of the state: `player.all()`, the number of players, is fixed). `shares`: what it
    gives back is something its receiver holds (`peek`): a memoized function may not call it.

    `run`, the runtime code: `run(m, target, a, span)` for a method (`a` its first argument, or
    MISSING), `run(m, args, span)` for a function (each argument, or MISSING where none is given).
    `inline(args, span, target, temp)`: the code generator's spelling of a call from its
    arguments' spellings (a function's: a list, None where absent; a method's: joined) and, for a
    method, its receiver's and `temp()`, a new temporary's name; None: the generated code calls
    the closure (a function) or `Machine.builtin_method` (a method).
    """

    name: str
    receiver: str
    rule: Callable[[Any], Signature]
    run: Callable
    writes: str = ""
    reads: str = "items"
    shares: bool = False
    chance: bool = False
    inline: Callable[[Any, str, str | None, Callable[[], str] | None], str] | None = None

    @property
    def method(self) -> bool:
        """Called on a value (a list, a table, an object), not through a namespace or by its name alone."""
        return self.receiver in ("List", "Table", "Stack") or self.receiver in OBJECTS

    @property
    def pure(self) -> bool:
        """A method that changes nothing and gives back nothing its receiver holds: a memoized
        function (`tgpl.runtime.purity`) and one that reads only (`readonly`) may call it."""
        return self.method and not self.writes and not self.shares


def _sig(name: str, returns: Type, *params: Param) -> Signature:
    return Signature(name, params, returns)


# ------------------------------------------------------------------ runtime code
def _index_of(xs: list, item) -> int:
    for i, x in enumerate(xs):
        if x is item or (not isinstance(x, Obj) and x == item and isinstance(x, bool) == isinstance(item, bool)):
            return i
    return -1


def _add(m, xs, a, span):
    xs.append(a)


def _push(m, xs, a, span):
    if a is not None:
        xs.append(a)


def _push_front(m, xs, a, span):
    if a is not None:
        xs.insert(0, a)


def _append(m, xs, a, span):
    xs.extend(m.not_null(a, span))


def _clear(m, xs, a, span):
    xs.clear()


def _contains(m, xs, a, span):
    return _index_of(xs, a) >= 0


def _position(m, xs, a, span):
    return float(_index_of(xs, a))


def _remove(m, xs, a, span):
    i = _index_of(xs, a)
    if i >= 0:
        del xs[i]


def _remove_at(m, xs, a, span):
    del xs[m._list_index(xs, a, span)]


def _shuffle(m, xs, a, span):
    m.world.random().shuffle(xs)


def _copy(m, xs, a, span):
    return list(xs)


def _pop(m, xs, a, span):
    return xs.pop() if xs else None


def _pop_front(m, xs, a, span):
    return xs.pop(0) if xs else None


def _peek(m, xs, a, span):
    return xs[-1] if xs else None


def _table_copy(m, d, a, span):
    return dict(d)


def _keys(m, d, a, span):
    return list(d.keys())


def _values(m, d, a, span):
    return list(d.values())


def _has_key(m, d, a, span):
    return a in d


def _assign(m, obj, a, span):
    p = to_player(m.not_null(a, span), m.players)
    world = m.world
    owners = world.owners_of(obj)
    if obj.cls.visibility == "group":
        if p not in owners:
            world.set_owners(obj, (*owners, p))
    else:
        world.set_owners(obj, (p,))


def _move_to(m, obj, a, span):
    m.world.own(obj)["tile"] = a


def _discard(m, obj, a, span):
    world = m.world
    fields = world.own(obj)
    fields["discarded"] = True
    fields["tile"] = None
    pile = (world.own(a).get("_items") if a.fixed is None else None) if isinstance(a, Obj) else a
    if pile is None:
        m.error(span, "discard into null")
    pile.append(obj)


def _reshuffle(m, deck, a, span):
    world = m.world
    fields = world.own(deck)
    items = fields["_items"]
    items.extend(fields["discard_stack"])
    for card in fields["discard_stack"]:
        if isinstance(card, Obj):
            world.own(card)["discarded"] = False
    fields["discard_stack"].clear()
    world.random().shuffle(items)


DEALT = frozenset({"pop", "shuffle", "reshuffle"})
"""A dealing deck's methods that `deal` runs (`Seldom.deals`): those a deck dealt at pop() may be changed by."""


def deal(m, deck, name: str):
    """`pop()`, `shuffle()` or `reshuffle()` on a deck that deals at pop() (`tgpl.runtime.dealing`): a shuffle
    draws nothing and keeps the order, a reshuffle takes back the discards in the order they lie, and pop()
    draws the item it takes among those left, each as likely (`below(n)` of the n left), null when none is."""
    world = m.world
    fields = world.own(deck)
    items = fields["_items"]
    if name == "pop":
        if not items:
            return None
        item = items.pop(world.random().below(len(items)))
        if isinstance(item, Obj):
            count = world.seldom.dealt[0] if world.seldom.dealt is not None else 0
            world.seldom.dealt = (count + 1, item.name)
        return item
    if name == "reshuffle":
        items.extend(fields["discard_stack"])
        for card in fields["discard_stack"]:
            if isinstance(card, Obj):
                world.own(card)["discarded"] = False
        fields["discard_stack"].clear()
    return None


def _players(m, args, span):
    return list(range(m.players))


def _active_player(m, args, span):
    return m.world.control.player


def _active_turn(m, args, span):
    return m.world.control.turn


def _active_phase(m, args, span):
    return m.world.control.phase


def _turn_use(m, args, span):
    phase = args[1]
    return m.turn_use(args[0], phase if phase is not MISSING else None, span)


def _turn_pass(m, args, span):
    who, phase = args
    if who is MISSING and phase is MISSING:
        return m.turn_pass_default(span)
    return m.turn_pass(who if who is not MISSING else m.world.control.player,
                       phase if phase is not MISSING else None, span)


def _throw(m, args, span):
    return m.throw(args[0], False, span)


def _throw_sync(m, args, span):
    return m.throw(args[0], True, span)


def _log(m, args, span):
    return m.log(show(args[0]))


def _roll(m, args, span):
    return m.roll(args[0], span)


# ------------------------------------------------------- the code generator's spellings
def _inline_contains(value: str, span: str, target: str, temp: Callable[[], str]) -> str:
    """An object or null in a list: Python's `in` (identity for objects) is `_index_of`'s search
    then; anything else goes to the machine."""
    xs, x = temp(), temp()
    return (f"(({x} in {xs}) if (({xs} := {target}).__class__ is list)"
            f" & ((({x} := {value}).__class__ is _Obj) | ({x} is None))"
            f" else m.builtin_method({xs}, 'contains', [{x}], {span}))")


def _inline_pass(args: list, span: str, target: None, temp: None) -> str:
    who, phase = args
    if who is None and phase is None:
        return f"m.turn_pass_default({span})"
    who = who if who is not None else "m.world.control.player"
    return f"m.turn_pass({who}, {phase if phase is not None else 'None'}, {span})"


# ---------------------------------------------------------------------- the entries
BUILTINS: tuple[Builtin, ...] = (
    # Lists (3.2.3), in the order the checker lists them
    Builtin("add", "List", lambda c: _sig("add", VOID, Param("item", c.elem)), _add, writes="items"),
    Builtin("append", "List", lambda c: _sig("append", VOID, Param("items", c)), _append, writes="items"),
    Builtin("clear", "List", lambda c: _sig("clear", VOID), _clear, writes="items"),
    Builtin("contains", "List", lambda c: _sig("contains", BOOL, Param("item", c.elem)), _contains,
            inline=_inline_contains),
    Builtin("indexOf", "List", lambda c: _sig("indexOf", NUMBER, Param("item", c.elem)), _position),
    Builtin("remove", "List", lambda c: _sig("remove", VOID, Param("item", c.elem)), _remove, writes="items"),
    Builtin("removeAt", "List", lambda c: _sig("removeAt", VOID, Param("index", NUMBER)), _remove_at, writes="items"),
    Builtin("shuffle", "List", lambda c: _sig("shuffle", VOID), _shuffle, writes="items", chance=True),
    Builtin("copy", "List", lambda c: _sig("copy", c), _copy),
    # Tables
    Builtin("clear", "Table", lambda c: _sig("clear", VOID), _clear, writes="items"),
    Builtin("copy", "Table", lambda c: _sig("copy", c), _table_copy),
    Builtin("keys", "Table", lambda c: _sig("keys", list_of(ANY)), _keys),
    Builtin("values", "Table", lambda c: _sig("values", list_of(c.elem)), _values),
    Builtin("contains", "Table", lambda c: _sig("contains", BOOL, Param("key", ANY)), _has_key),
    # Stacks, and the items of decks (3.7)
    Builtin("push", "Stack", lambda c: _sig("push", VOID, Param("item", c.elem)), _push, writes="items"),
    Builtin("push_front", "Stack", lambda c: _sig("push_front", VOID, Param("item", c.elem)), _push_front,
            writes="items"),
    Builtin("pop", "Stack", lambda c: _sig("pop", c.elem), _pop, writes="items", shares=True),
    Builtin("pop_front", "Stack", lambda c: _sig("pop_front", c.elem), _pop_front, writes="items", shares=True),
    Builtin("peek", "Stack", lambda c: _sig("peek", c.elem), _peek, shares=True),
    Builtin("clone", "Stack", lambda c: _sig("clone", Collection("Stack", c.elem)), _copy),
    Builtin("shuffle", "Stack", lambda c: _sig("shuffle", VOID), _shuffle, writes="items", chance=True),
    # Objects (3.6, 3.7, 3.8)
    Builtin("assign", "ownable", lambda b: _sig("assign", VOID, Param("p", PLAYER)), _assign, writes="object",
            reads="object"),
    Builtin("move_to", "interactable", lambda b: _sig("move_to", VOID, Param("t", ClassType(b.tile))), _move_to,
            writes="object", reads="object"),
    Builtin("discard", "interactable",
            lambda b: _sig("discard", VOID, Param("discard_stack", Collection("Stack", ANY))), _discard,
            writes="items", reads="object"),  # and the object's `tile` and `discarded`
    Builtin("reshuffle", "deck", lambda b: _sig("reshuffle", VOID), _reshuffle, writes="items", chance=True),
    # Namespaces (3.8 players, 3.9 turns, 3.4 events)
    Builtin("player.all", "player", lambda b: _sig("player.all", list_of(PLAYER)), _players, reads="",
            inline=lambda args, span, target, temp: "list(range(m.players))"),
    Builtin("player.active", "player", lambda b: _sig("player.active", PLAYER), _active_player, reads="control",
            inline=lambda args, span, target, temp: "m.world.control.player"),
    Builtin("turn.use", "turn",
            lambda b: _sig("turn.use", VOID, Param("turn", STRING), Param("phase", STRING, True)), _turn_use,
            writes="control", reads="control"),
    Builtin("turn.pass", "turn",
            lambda b: _sig("turn.pass", VOID, Param("p", PLAYER, True), Param("phase", STRING, True)), _turn_pass,
            writes="control", reads="control", inline=_inline_pass),
    Builtin("turn.active", "turn", lambda b: _sig("turn.active", STRING), _active_turn, reads="control",
            inline=lambda args, span, target, temp: "m.world.control.turn"),
    Builtin("turn.phase.active", "turn.phase", lambda b: _sig("turn.phase.active", STRING), _active_phase,
            reads="control", inline=lambda args, span, target, temp: "m.world.control.phase"),
    Builtin("event.throw", "event", lambda b: _sig("event.throw", VOID, Param("e", ClassType(b.event))), _throw,
            writes="control", reads="control"),
    Builtin("event.throw_sync", "event",
            lambda b: _sig("event.throw_sync", VOID, Param("e", ClassType(b.event))), _throw_sync,
            writes="control", reads="control"),
    # Global functions
    Builtin("log", "", lambda b: _sig("log", VOID, Param("message", ANY)), _log, writes="log", reads=""),
    # a die thrown: 1..sides (decision 95)
    Builtin("roll", "", lambda b: _sig("roll", NUMBER, Param("sides", NUMBER)), _roll, writes="random", reads="",
            chance=True),
)


def _by(receiver: str) -> tuple[Builtin, ...]:
    return tuple(b for b in BUILTINS if b.receiver == receiver)


def _names(pred) -> frozenset[str]:
    return frozenset(b.name for b in BUILTINS if pred(b))


# Facts by a method's name alone, where a call is known by its name (`Machine.builtin_method`, a
# callee read before its call is typed); the entries of one name agree on them (tests/test_builtin_calls.py)
READS = _names(lambda b: b.method and not b.writes)  # may run while legal moves are listed
PURE = _names(lambda b: b.pure)
CHANGES_ITEMS = _names(lambda b: b.writes == "items")
CHANCE = _names(lambda b: b.chance)  # what draws on the game's random numbers (`after_setup`, the lowering)
THROWS = frozenset(b.name.split(".")[-1] for b in _by("event"))  # what runs listeners, as a callee names it
# The entry the flow analyses and the code generator know apart: a turn passed, with its phase
TURN_PASS = next(b for b in BUILTINS if b.run is _turn_pass)


def bind(sig: Signature, call) -> dict:
    """A checked call's arguments (`ast.Call`) by the parameter each binds: positional ones in
    order, then the named ones (the checker has refused any other)."""
    bound = {}
    for p, a in zip(sig.params, [a for a in call.args if a.name is None]):
        bound[p.name] = a.value
    for a in call.args:
        if a.name is not None:
            bound[a.name] = a.value
    return bound


# ------------------------------------------------------------ the checker's views
def _with_entry(b: Builtin, receiver: Any) -> Signature:
    s = b.rule(receiver)
    return Signature(s.name, s.params, s.returns, b)


def collection_methods(c: Collection) -> dict[str, Signature]:
    return {b.name: _with_entry(b, c) for b in _by(c.kind if c.kind in ("List", "Table") else "Stack")}


def stack_methods(item: Type) -> dict[str, Signature]:
    c = Collection("Stack", item)
    return {b.name: _with_entry(b, c) for b in _by("Stack")}


def builtin_methods(info: ClassInfo, builtins: BuiltinClasses) -> dict[str, Signature]:
    kind = info.kind
    methods: dict[str, Signature] = {}
    if kind in OWNABLE:
        methods.update((b.name, _with_entry(b, builtins)) for b in _by("ownable"))
    if kind == "interactable":
        methods.update((b.name, _with_entry(b, builtins)) for b in _by("interactable"))
    if kind == "stack":
        methods.update(stack_methods(deck_item(info)))
        methods.update((b.name, _with_entry(b, builtins)) for b in _by("deck"))
    return methods


def event_methods(builtins: BuiltinClasses) -> dict[str, Signature]:
    return {b.name.split(".")[-1]: _with_entry(b, builtins) for b in _by("event")}


def _namespaces() -> dict[str, dict[str, Signature | Namespace]]:
    found: dict[str, dict[str, Signature | Namespace]] = {ns: {} for ns in NAMESPACE_NAMES}
    for b in BUILTINS:
        if b.receiver in ("player", "turn", "turn.phase"):
            found[b.receiver][b.name.rsplit(".", 1)[1]] = _with_entry(b, None)
        if b.name == "turn.active":  # `turn.phase`, a namespace in a namespace, after turn.active
            found["turn"]["phase"] = Namespace("turn.phase")
    return found


# The namespaces' functions by namespace (`event`'s are `event_methods`: they take an event)
NAMESPACES: dict[str, dict[str, Signature | Namespace]] = _namespaces()
GLOBAL_FUNCTIONS: dict[str, Signature] = {b.name: _with_entry(b, None) for b in _by("")}


# ---------------------------------------------------------------- the runtime's dispatch
_ON_LISTS = {b.name: b.run for b in BUILTINS if b.receiver in LISTS}
_ON_TABLES = {b.name: b.run for b in _by("Table")}
_ON_OBJECTS = {b.name: b.run for b in BUILTINS if b.receiver in ("ownable", "interactable")}
_ON_DECKS = {b.name: b.run for b in _by("deck")}


def call_method(m, target, name: str, args: list, span):
    """`target.name(args)`, a built-in method, on the machine `m` (`Machine.builtin_method`, which
    first refuses what may not run while moves are listed)."""
    if target is None:
        m.error(span, f"cannot call '{name}' on null")
    cls = target.__class__
    a = args[0] if args else MISSING
    if cls is list:
        run = _ON_LISTS.get(name)
        if run is None:
            m.error(span, f"a list has no method '{name}'")
        return run(m, target, a, span)
    if cls is dict:
        run = _ON_TABLES.get(name)
        if run is None:
            m.error(span, f"a table has no method '{name}'")
        return run(m, target, a, span)
    if cls is Obj:
        return _object_method(m, target, name, a, args, span)
    m.error(span, f"{show(target)} has no method '{name}'")


def _object_method(m, obj: Obj, name: str, a, args: list, span):
    run = _ON_OBJECTS.get(name)
    if run is not None:
        return run(m, obj, a, span)
    world = m.world
    if "_items" in world.fields(obj):  # a deck: its own methods, or its items'
        if world.seldom.deals and name in DEALT and obj.cls.name in world.seldom.deals:
            return deal(m, obj, name)  # validation only (tgpl.runtime.dealing)
        if name in READS:  # a deck's items are only read: no copy of its fields
            return call_method(m, world.fields(obj)["_items"], name, args, span)
        run = _ON_DECKS.get(name)
        if run is not None:
            return run(m, obj, a, span)
        return call_method(m, world.own(obj)["_items"], name, args, span)
    m.error(span, f"{obj.name} has no method '{name}'")


__all__ = [
    "BUILTINS", "Builtin", "CHANCE", "CHANGES_ITEMS", "GLOBAL_FUNCTIONS", "NAMESPACES", "PURE", "READS", "THROWS",
    "TURN_PASS", "bind",
    "builtin_methods", "call_method", "collection_methods", "event_methods", "stack_methods",
]
