"""The built-in part of TGPL: classes and their members, and the form of a built-in's signature.

What the thesis predefines (3.2.3 collections, 3.4 events, 3.6 interactables, 3.7 decks,
3.8 players, 3.9 turns, 3.10 boards): the classes and attributes here, the functions and methods
in `tgpl.builtin_calls` (one entry each, its signature made by a `Signature` below).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tgpl.frontend.symbols import ClassInfo
from tgpl.frontend.types import (
    ANY, BOOL, NUMBER, PLAYER, STRING, ClassType, Collection, Type, list_of,
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
    entry: object = field(default=None, compare=False, repr=False)  # its `tgpl.builtin_calls.Builtin`

    def describe(self) -> str:
        ps = ", ".join(f"{'optional ' if p.optional else ''}{p.type} {p.name}" for p in self.params)
        return f"{self.name}({ps})"


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
        item = deck_item(info)
        attrs.update(discard_stack=Collection("Stack", item), length=NUMBER)
    return attrs


def deck_item(info: ClassInfo) -> Type:
    for a in info.ancestors():
        if a.deck_item is not None:
            return a.deck_item
    return ANY


def collection_attributes(c: Collection) -> dict[str, Type]:
    return {"length": NUMBER}
