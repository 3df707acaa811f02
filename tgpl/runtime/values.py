"""Runtime values: objects, the world they live in, and how they are copied and named.

Numbers are Python floats (IEEE doubles, as the thesis's `number`), strings
are str, bools are bool, null is None, players are ints in [0, P). Lists and
stacks are Python lists (a stack's top is the end), tables are dicts (which
keep insertion order, so iteration is deterministic). Objects are `Obj`.

A `World` is one complete game state. The runtime never changes a world that
a `State` holds: applying a move works on `World.copy()`, a deep copy that
maps every object to its copy, so old states stay valid for search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tgpl.frontend.outcomes import scalar_text
from tgpl.runtime.rng import Pcg32

if TYPE_CHECKING:
    from tgpl.runtime.classes import RClass


class Obj:
    """An instance of a TGPL class. `fields` holds attributes and built-in state."""

    __slots__ = ("cls", "serial", "name", "ref", "fields", "owners")

    def __init__(self, cls: RClass, serial: int, name: str):
        self.cls = cls
        self.serial = serial  # creation order across the whole world
        self.name = name  # stable readable reference: Type#k, Group[i][j]
        self.ref = ("@", name)  # how state keys refer to the object
        self.fields: dict[str, object] = {}
        self.owners: list[int] = []  # players; one for local objects, several for group ones

    def __repr__(self) -> str:
        return self.name


@dataclass
class Control:
    """Whose turn it is: the active player, turn and phase."""

    player: int = 0
    turn: str | None = None
    phase: str | None = None


class World:
    __slots__ = (
        "objects", "globals", "control", "rng", "log", "result", "counters", "players", "transients",
        "_by_class", "_by_name",
    )

    def __init__(self, players: int, seed: int):
        self.objects: list[Obj] = []
        self.globals: dict[str, Obj] = {}  # global classes' single instances, by class name
        self.control = Control()
        self.rng = Pcg32(seed)
        self.log: list[str] = []
        self.result: list[list[int]] | None = None  # the final ranking once a winner is declared
        self.counters: dict[str, int] = {}  # per type name, for Type#k names
        self.players = players
        self.transients = 0  # live event objects: drop_unreferenced has work only when > 0
        self._by_class: dict[int, list[Obj]] | None = None
        self._by_name: dict[str, int] | None = None  # name -> serial, shared by copies

    def named(self, name: str) -> Obj | None:
        # The index maps names to serials, not objects, so that a copy (same objects at
        # the same serials) shares it instead of building its own; it is replaced, never
        # changed, when objects are created or dropped.
        index = self._by_name
        if index is None:
            index = self._by_name = {o.name: o.serial for o in self.objects}
        serial = index.get(name)
        return self.objects[serial] if serial is not None else None

    def of_class(self, rc: RClass) -> list[Obj]:
        """The objects that are a `rc`, in creation order (cached until an object is created)."""
        index = self._by_class
        if index is None:
            index = self._by_class = {}
        found = index.get(id(rc))
        if found is None:
            found = index[id(rc)] = [o for o in self.objects if o.cls.is_a(rc)]
        return found

    def drop_unreferenced(self, transient) -> None:
        """Forget transient objects (thrown events) that nothing in the game refers to.

        Run between segments, so that equal game states have equal keys however
        many events it took to reach them. Creation order is kept.
        """
        if not self.transients:
            return
        reachable: set[int] = set()
        todo = [v for o in self.objects if not transient(o) for v in o.fields.values()]
        while todo:
            v = todo.pop()
            c = v.__class__
            if c is Obj:
                if id(v) not in reachable:
                    reachable.add(id(v))
                    todo.extend(v.fields.values())
            elif c is list:
                todo.extend(v)
            elif c is dict:
                todo.extend(v.keys())
                todo.extend(v.values())
        kept = [o for o in self.objects if not transient(o) or id(o) in reachable]
        self.transients -= len(self.objects) - len(kept)
        if len(kept) == len(self.objects):
            return
        for i, o in enumerate(kept):
            o.serial = i
        self.objects = kept
        self._by_class = self._by_name = None

    def new_object(self, cls: RClass, name: str | None = None) -> Obj:
        if name is None:
            k = self.counters.get(cls.name, 0)
            self.counters[cls.name] = k + 1
            name = f"{cls.name}#{k}"
        obj = Obj(cls, len(self.objects), name)
        self.objects.append(obj)
        self._by_class = self._by_name = None
        return obj

    def clear(self) -> None:
        """Empty every object of a world that is no longer used, so that it is freed at once.

        Objects refer to each other in cycles; without this the world waits for a full
        run of the cyclic garbage collector. Objects that worlds share (fixed connections,
        detached events, serial < 0) are not in `objects` and are left alone. The world
        and its objects must not be used afterwards.
        """
        for obj in self.objects:
            obj.fields = None
        self.objects = []
        self.globals = {}
        self._by_class = self._by_name = None

    def copy(self) -> World:
        """A deep copy: every object is cloned and references point at the clones.

        Objects are cloned by serial (a world's objects list is indexed by serial),
        and only fields holding objects or collections are rewritten: the copy is
        the hot path of search, simulation and verification, so the common cases
        (an object, a list of scalars and objects) are handled inline rather than
        by a call per value.
        """
        new = World.__new__(World)
        source = self.objects
        new_obj = Obj.__new__
        objects = [new_obj(Obj) for _ in source]  # all clones first: fields refer forward too
        plain = _PLAIN
        for obj, clone in zip(source, objects):
            clone.cls = obj.cls
            clone.serial = obj.serial
            clone.name = obj.name
            clone.ref = obj.ref
            clone.owners = obj.owners[:]
            clone.fields = fields = obj.fields.copy()
            for k, v in fields.items():
                c = v.__class__
                if c in plain:
                    continue
                if c is Obj:
                    if v.serial >= 0:
                        fields[k] = objects[v.serial]
                elif c is list:
                    fields[k] = [
                        (objects[x.serial] if x.serial >= 0 else x) if x.__class__ is Obj
                        else _copy_value(x, objects) if x.__class__ in _COLLECTIONS else x
                        for x in v
                    ]
                elif c is dict:
                    fields[k] = _copy_value(v, objects)
        new.objects = objects
        new.globals = {k: objects[v.serial] for k, v in self.globals.items()}
        c = self.control
        new.control = Control(c.player, c.turn, c.phase)
        new.rng = self.rng.copy()
        new.log = self.log[:]
        new.result = self.result
        new.counters = self.counters.copy()
        new.players = self.players
        new.transients = self.transients
        new._by_class = None
        new._by_name = self._by_name  # names to serials: the same in the copy
        return new


def _copy_value(v, objects: list[Obj]):
    """`v` with every object replaced by its clone in `objects` (collections copied, scalars kept)."""
    c = v.__class__
    if c is Obj:
        return objects[v.serial] if v.serial >= 0 else v  # a detached object (a PlayerChoiceEvent) is shared
    if c is list:
        return [
            (objects[x.serial] if x.serial >= 0 else x) if x.__class__ is Obj
            else _copy_value(x, objects) if x.__class__ in _COLLECTIONS else x
            for x in v
        ]
    if c is dict:
        return {
            (_copy_value(k, objects) if k.__class__ in _DEEP else k): (_copy_value(x, objects) if x.__class__ in _DEEP else x)
            for k, x in v.items()
        }
    return v


_DEEP = frozenset((Obj, list, dict))
_PLAIN = frozenset((float, bool, str, int, type(None)))  # values a copy keeps as they are
_COLLECTIONS = frozenset((list, dict))


def to_player(value, players: int) -> int:
    """Map a number onto a player (3.2.4): r % P, or (P - |r| % P) % P below zero."""
    r = int(value)  # the decimal part is truncated, as for indexes
    if r >= 0:
        return r % players
    return (players - (-r) % players) % players


def show(v) -> str:
    """A value as TGPL text: in logs, move lists and records."""
    text = scalar_text(v)
    if text is not None:
        return text
    if isinstance(v, str):
        return v
    if isinstance(v, Obj):
        return v.name
    if isinstance(v, list):
        return "{" + ", ".join(show(x) for x in v) + "}"
    if isinstance(v, dict):
        return "{" + ", ".join("{" + show(k) + ", " + show(x) + "}" for k, x in v.items()) + "}"
    return str(v)
