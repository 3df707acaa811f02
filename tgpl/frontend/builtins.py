"""The built-in part of TGPL: classes, members, namespaces and their signatures.

These tables are the single source of truth for what the thesis predefines
(3.2.3 collections, 3.4 events, 3.6 interactables, 3.7 decks, 3.8 players,
3.9 turns, 3.10 boards); the runtime implements exactly these members.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend.symbols import ClassInfo
from tgpl.frontend.types import (
    ANY, BOOL, NUMBER, PLAYER, STRING, VOID, ClassType, Collection, Namespace, Type, list_of,
)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: Type
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Signature:
    name: str
    params: tuple[Param, ...]
    returns: Type

    def describe(self) -> str:
        ps = ", ".join(f"{'optional ' if p.optional else ''}{p.type} {p.name}" for p in self.params)
        return f"{self.name}({ps})"


def sig(name: str, returns: Type, *params: Param) -> Signature:
    return Signature(name, params, returns)


@dataclass
class BuiltinClasses:
    """The predefined classes; user tiles, connections and events derive from them."""

    tile: ClassInfo
    blank_tile: ClassInfo
    connection: ClassInfo
    group: ClassInfo
    event: ClassInfo
    player_choice: ClassInfo

    @classmethod
    def create(cls) -> BuiltinClasses:
        tile = ClassInfo("Tile", "tile")
        blank = ClassInfo("BlankTile", "tile", base=tile)
        connection = ClassInfo("Connection", "connection")
        group = ClassInfo("Group", "group")
        event = ClassInfo("Event", "event")
        choice = ClassInfo("PlayerChoiceEvent", "event", base=event)
        tile.attribute_types.update(group=ClassType(group), connections=list_of(ClassType(connection)))
        connection.attribute_types.update(to=ClassType(tile))
        group.attribute_types.update(tiles=list_of(ClassType(tile)), name=STRING)
        choice.attribute_types.update(active=PLAYER)
        return cls(tile, blank, connection, group, event, choice)

    def by_name(self) -> dict[str, ClassInfo]:
        infos = (self.tile, self.blank_tile, self.connection, self.group, self.event, self.player_choice)
        return {i.name: i for i in infos}

    def default_base(self, kind: str) -> ClassInfo | None:
        return {"tile": self.tile, "connection": self.connection, "event": self.event}.get(kind)


OWNABLE = ("class", "interactable", "stack", "board")

# Built-in members that designers read but do not assign directly.
READ_ONLY = {"player", "players", "tile", "discarded", "group", "groups", "discard_stack", "length", "name"}


def builtin_attributes(info: ClassInfo, builtins: BuiltinClasses) -> dict[str, Type]:
    """Attributes every instance of info's kind has, besides its declared ones."""
    kind = info.kind
    attrs: dict[str, Type] = {}
    if kind in OWNABLE:
        attrs.update(player=PLAYER, players=list_of(PLAYER))
    if kind == "interactable":
        attrs.update(tile=ClassType(builtins.tile), discarded=BOOL)
    if kind == "board":
        attrs["groups"] = Collection("Table", ClassType(builtins.group))
    if kind == "stack":
        item = _deck_item(info)
        attrs.update(discard_stack=Collection("Stack", item), length=NUMBER)
    return attrs


def builtin_methods(info: ClassInfo, builtins: BuiltinClasses) -> dict[str, Signature]:
    kind = info.kind
    methods: dict[str, Signature] = {}
    if kind in OWNABLE:
        methods["assign"] = sig("assign", VOID, Param("p", PLAYER))
    if kind == "interactable":
        methods["move_to"] = sig("move_to", VOID, Param("t", ClassType(builtins.tile)))
        methods["discard"] = sig("discard", VOID, Param("discard_stack", Collection("Stack", ANY)))
    if kind == "stack":
        item = _deck_item(info)
        methods.update(stack_methods(item))
        methods["reshuffle"] = sig("reshuffle", VOID)
    return methods


def _deck_item(info: ClassInfo) -> Type:
    for a in info.ancestors():
        if a.deck_item is not None:
            return a.deck_item
    return ANY


def stack_methods(item: Type) -> dict[str, Signature]:
    return {
        "push": sig("push", VOID, Param("item", item)),
        "push_front": sig("push_front", VOID, Param("item", item)),
        "pop": sig("pop", item),
        "pop_front": sig("pop_front", item),
        "peek": sig("peek", item),
        "clone": sig("clone", Collection("Stack", item)),
        "shuffle": sig("shuffle", VOID),
    }


def collection_attributes(c: Collection) -> dict[str, Type]:
    return {"length": NUMBER}


def collection_methods(c: Collection) -> dict[str, Signature]:
    e = c.elem
    if c.kind == "List":
        return {
            "add": sig("add", VOID, Param("item", e)),
            "append": sig("append", VOID, Param("items", c)),
            "clear": sig("clear", VOID),
            "contains": sig("contains", BOOL, Param("item", e)),
            "indexOf": sig("indexOf", NUMBER, Param("item", e)),
            "remove": sig("remove", VOID, Param("item", e)),
            "removeAt": sig("removeAt", VOID, Param("index", NUMBER)),
            "shuffle": sig("shuffle", VOID),
            "copy": sig("copy", c),
        }
    if c.kind == "Table":
        return {
            "clear": sig("clear", VOID),
            "copy": sig("copy", c),
            "keys": sig("keys", list_of(ANY)),
            "values": sig("values", list_of(e)),
            "contains": sig("contains", BOOL, Param("key", ANY)),
        }
    return stack_methods(e)


NAMESPACES: dict[str, dict[str, Signature | Namespace]] = {
    "player": {
        "all": sig("player.all", list_of(PLAYER)),
        "active": sig("player.active", PLAYER),
    },
    "turn": {
        "use": sig("turn.use", VOID, Param("turn", STRING), Param("phase", STRING, True)),
        "pass": sig("turn.pass", VOID, Param("p", PLAYER, True), Param("phase", STRING, True)),
        "active": sig("turn.active", STRING),
        "phase": Namespace("turn.phase"),
    },
    "turn.phase": {
        "active": sig("turn.phase.active", STRING),
    },
    "event": {},  # throw / throw_sync take an event: see event_methods
}


def event_methods(builtins: BuiltinClasses) -> dict[str, Signature]:
    e = ClassType(builtins.event)
    return {
        "throw": sig("event.throw", VOID, Param("e", e)),
        "throw_sync": sig("event.throw_sync", VOID, Param("e", e)),
    }


GLOBAL_FUNCTIONS: dict[str, Signature] = {
    "log": sig("log", VOID, Param("message", ANY)),
    "roll": sig("roll", NUMBER, Param("sides", NUMBER)),  # a die thrown: 1..sides (decision 95)
}
