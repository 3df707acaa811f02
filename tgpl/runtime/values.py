"""Runtime values: objects, the world they live in, and how worlds are copied and named.

Numbers are Python floats (IEEE doubles, as the thesis's `number`), strings
are str, bools are bool, null is None, players are ints in [0, P). Lists and
stacks are Python lists (a stack's top is the end), tables are dicts (which
keep insertion order, so iteration is deterministic). Objects are `Obj`.

An `Obj` is a handle: its class, name and place, never its state. A `World`
(one complete game state) holds each of its objects' fields as a dict, in a
list (`data`) at the object's place (`Obj.place`, fixed when the object is
made: the list's length then), and maps each object to its owners
(`owners`). Place 0 holds no object: an empty read-only dict, the fields
that fixed objects (which hold their own) have in the world, so that a
field read there misses as for a field the object lacks. Worlds are copied
on write: a copy is a slice of the list, sharing every fields dict with the
world it was copied from, and takes its own copy of an object's dict (`own`)
the first time it changes the object, or reads a list or table from it that
the game could then change in place. Handles never change, so a copy needs
no remapping of references, and the runtime never changes a world that a
`State` holds: old states stay valid for search.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from tgpl.frontend.outcomes import scalar_text
from tgpl.runtime.rng import Pcg32

if TYPE_CHECKING:
    from tgpl.runtime.classes import RClass


class Obj:
    """An instance of a TGPL class: a handle shared by every world that has the object.

    Its fields live in the world (`World.data[place]`), except for objects outside every world's
    state (`fixed`: the connections of square and hex groups, a move's PlayerChoiceEvent),
    which hold their own fields and never change (their place is 0, where a world holds none).
    """

    __slots__ = ("cls", "serial", "name", "ref", "fixed", "place")

    def __init__(self, cls: RClass, serial: int, name: str, fixed: dict | None = None, place: int = 0):
        self.cls = cls
        self.serial = serial  # creation order across the world's history; -1 for fixed objects
        self.name = name  # stable readable reference: Type#k, Group[i][j]
        self.ref = ("@", name)  # how state keys refer to the object
        self.fixed = fixed
        self.place = place  # the index of its fields in `World.data`

    def __repr__(self) -> str:
        return self.name


@dataclass(slots=True)
class Control:
    """Whose turn it is: the active player, turn and phase (slotted: every move copies one)."""

    player: int = 0
    turn: str | None = None
    phase: str | None = None


# A world's copy makes its control by setting its three slots, not through `Control.__init__`
_new_control = object.__new__

_NO_OWNERS: tuple = ()
# `World.data[0]`: the fields a world has for a fixed object, none (read-only: shared by every world)
NO_PLACE = MappingProxyType({})
# What a cleared world holds (`World.clear`): empty, and read-only, since it must not be used again
_CLEARED = MappingProxyType({})
_CLEARED_LIST: tuple = ()
_CLEARED_SET: frozenset = frozenset()
_UNMADE = object()  # `World.cached`: not made yet
_new_world = object.__new__  # `World.__new__`, one attribute read less a copy


class Seldom:
    """What of a world only creating objects, drawing random numbers and logging change, together: the
    generator, the log, the name counters (per type name, for Type#k names) and the next object's
    serial. Shared by a world and its copies as one (`World.copy` carries one reference, not four)
    until either changes it (`World.unshare`, which copies it)."""

    __slots__ = ("rng", "log", "counters", "serials", "deals", "dealt")

    def __init__(self, rng: Pcg32, log: list[str], counters: dict[str, int], serials: int,
                 deals: frozenset[str] = frozenset(), dealt: tuple[int, str] | None = None):
        self.rng = rng
        self.log = log
        self.counters = counters
        self.serials = serials
        # The deck classes whose pop() draws the item it takes, their shuffles drawing nothing: empty but in
        # the validation of a lowering that deals at pop() (`tgpl.runtime.dealing`)
        self.deals = deals
        # (how many such pops, the name of the item the last took): what random's deal is matched with, where
        # the item may have been discarded and reshuffled back in the same move (`tgpl.runtime.dealing.dealt_face`)
        self.dealt = dealt

    def copy(self) -> Seldom:
        return Seldom(self.rng.copy(), self.log[:], self.counters.copy(), self.serials, self.deals, self.dealt)


class World:
    __slots__ = (
        "objects", "data", "owners", "owned", "written", "frozen", "globals", "control", "result",
        "players", "transients", "_by_class", "_by_name", "_everyone", "memo", "shared",
        "digests", "inherited", "seldom",
    )

    def __init__(self, players: int, seed: int):
        self.objects: list[Obj] = []  # in creation order
        self.data: list = [NO_PLACE]  # each object's fields at its place, shared with copies until owned
        self.owners: dict[Obj, tuple[int, ...]] = {}  # players; one for local objects, several for group ones
        self.owned: set[Obj] = set()  # objects whose fields dict this world may change, and what it holds
        # Objects whose fields dict this world may change, but whose lists and tables it still
        # shares (`own_fields`): copied when the object is owned (`own`)
        self.written: set[Obj] = set()
        # Each object's part of the state key, until it changes, and that part marshalled once
        # verify's digest needed it (`game._frozen_object`, `RuntimeMachine.key`)
        self.frozen: dict[Obj, list] = {}
        self.globals: dict[str, Obj] = {}  # global classes' single instances, by class name
        self.control = Control()
        # the generator, the log, the name counters and the next object's serial (`Seldom`)
        self.seldom = Seldom(Pcg32(seed), [], {}, 0)
        self.result: list[list[int]] | None = None  # the final ranking once a winner is declared
        self.players = players
        self.transients = 0  # live event objects: drop_unreferenced has work only when > 0
        # Indexes over the objects, shared by copies (the same handles), replaced (never
        # changed) when objects are created or dropped.
        self._by_class: dict[int, list[Obj]] | None = None
        self._by_name: dict[str, Obj] | None = None
        self._everyone: frozenset | None = None
        # The results of pure functions (`tgpl.runtime.purity`), one table per function, made
        # when setup is over and shared by every world copied from then on: what they read
        # no longer changes, then the entries left to fill (`codegen.new_memo`). None during setup.
        self.memo: list[dict] | None = None
        # Whether the tables a move seldom changes (the objects' list, owners, globals, the
        # generator, the log, the name counters) are shared with a world copied from this one
        # or that this one was copied from: the first change copies them all (`unshare`).
        self.shared = False
        # Verify's digests of the objects' parts of the key, by place, once its digest of this
        # world's state was made: (the objects' list they are of, the digests, b"" where no object
        # is); and those of the world this one was copied from, when they were made before the
        # copy and this world has changed no object since but those it owns or wrote
        # (`RuntimeMachine.key`).
        self.digests: tuple[list, list] | None = None
        self.inherited: tuple[list, list] | None = None

    # ------------------------------------------------------------ reading
    # What a world keeps in its `Seldom`, read by name as before (to change: `random`, `new_object`, `unshare`)
    @property
    def rng(self) -> Pcg32:
        return self.seldom.rng

    @property
    def log(self) -> list[str]:
        return self.seldom.log

    @property
    def counters(self) -> dict[str, int]:
        return self.seldom.counters

    @property
    def serials(self) -> int:
        return self.seldom.serials

    def fields(self, obj: Obj) -> dict:
        """The object's fields, to read (`own` before changing them or what they hold)."""
        found = obj.fixed
        return found if found is not None else self.data[obj.place]

    def owners_of(self, obj: Obj) -> tuple[int, ...]:
        return self.owners.get(obj, _NO_OWNERS)

    def everyone(self) -> frozenset:
        """Every object of the world: read-only code treats them all as owned (nothing changes)."""
        found = self._everyone
        if found is None:
            found = self._everyone = frozenset(self.objects)
        return found

    def named(self, name: str) -> Obj | None:
        return self.name_index().get(name)

    def name_index(self) -> dict[str, Obj]:
        """The objects by name (cached until an object is created or dropped)."""
        index = self._by_name
        if index is None:
            index = self._by_name = {o.name: o for o in self.objects}
        return index

    def of_class(self, rc: RClass) -> list[Obj]:
        """The objects that are a `rc`, in creation order (cached until an object is created)."""
        index = self._by_class
        if index is None:
            index = self._by_class = {}
        found = index.get(id(rc))
        if found is None:
            found = index[id(rc)] = [o for o in self.objects if rc in o.cls.ancestry]
        return found

    def actors(self) -> list[Obj]:
        """The objects whose class has actions a player may choose as a move, in creation order
        (cached with `of_class`'s index, until an object is created or dropped)."""
        index = self._by_class
        if index is None:
            index = self._by_class = {}
        found = index.get("actors")
        if found is None:
            found = index["actors"] = [o for o in self.objects if o.cls.choice_actions()]
        return found

    def cached(self, key: tuple, make):
        """`make()`, a value that depends only on which objects the world has (in creation
        order) and their classes, kept with the index of `of_class` until an object is created
        or dropped, and shared by the copies that share that index (`key`: a tuple)."""
        index = self._by_class
        if index is None:
            index = self._by_class = {}
        found = index.get(key, _UNMADE)
        if found is _UNMADE:
            found = index[key] = make()
        return found

    # ------------------------------------------------------------ changing
    def own(self, obj: Obj) -> dict:
        """The object's fields, this world's own copy: free to change, with what they hold."""
        if obj in self.owned:
            return self.data[obj.place]
        if obj in self.written:  # the dict is this world's already: its lists and tables now
            fields = self.data[obj.place]
            for k, v in fields.items():
                c = v.__class__
                if c is list or c is dict:
                    fields[k] = _copy_value(v)
            self.written.discard(obj)
        else:
            fields = self.data[obj.place] = _copy_fields(self.data[obj.place])
        self.owned.add(obj)
        self.frozen.pop(obj, None)
        return fields

    def own_fields(self, obj: Obj) -> dict:
        """The object's fields dict, this world's own copy, to give a field a value that is not a
        list or table: the lists and tables in it stay shared with the worlds it was copied from
        until the object is owned (`own`), which copies them. A Tris tile, a chess square, a Connect
        Four cell hold lists of their neighbours that no move changes: a move that sets the
        tile's owner copies its dict only. Code reads lists and tables as they are only from
        owned objects (`Machine.readable`); from the others it owns the object first."""
        if obj in self.owned or obj in self.written:
            return self.data[obj.place]
        fields = self.data[obj.place] = self.data[obj.place].copy()
        self.written.add(obj)
        self.frozen.pop(obj, None)
        return fields

    def unshare(self) -> None:
        """This world's own copies of the tables it shares with the worlds copied from it or
        that it was copied from (`copy`), before it changes one: the objects' list, owners,
        globals, the generator, the log and the name counters. A move seldom changes any (a
        Tris tick, a chess move: none), so a copy shares them, and copies them all at once, six
        small copies, only when it creates an object, draws a random number, logs..."""
        if self.shared:
            self.objects = self.objects[:]
            self.owners = self.owners.copy()
            self.globals = self.globals.copy()
            self.seldom = self.seldom.copy()  # the generator, the log, the name counters
            self.shared = False

    def random(self) -> Pcg32:
        """The generator, this world's own, to draw from."""
        if self.shared:
            self.unshare()
        return self.seldom.rng

    def set_owners(self, obj: Obj, owners: tuple[int, ...]) -> None:
        if self.shared:
            self.unshare()
        self.owners[obj] = owners
        self.inherited = None  # an object changed that is neither owned nor written
        self.frozen.pop(obj, None)

    def drop_unreferenced(self, transient) -> None:
        """Forget transient objects (thrown events) that nothing in the game refers to.

        Run between segments, so that equal game states have equal keys however
        many events it took to reach them. Creation order is kept.
        """
        if not self.transients:
            return
        data = self.data
        reachable: set[Obj] = set()
        todo = [v for o in self.objects if not transient(o) for v in data[o.place].values()]
        while todo:
            v = todo.pop()
            c = v.__class__
            if c is Obj:
                if v not in reachable and v.fixed is None:
                    reachable.add(v)
                    todo.extend(data[v.place].values())
            elif c is list:
                todo.extend(v)
            elif c is dict:
                todo.extend(v.keys())
                todo.extend(v.values())
        kept = [o for o in self.objects if not transient(o) or o in reachable]
        self.transients -= len(self.objects) - len(kept)
        if len(kept) == len(self.objects):
            return
        if self.shared:
            self.unshare()
        for o in self.objects:
            if transient(o) and o not in reachable:
                data[o.place] = None
                self.owners.pop(o, None)
                self.owned.discard(o)
                self.written.discard(o)
                self.frozen.pop(o, None)
        while data[-1] is None:  # the places at the end free again: the next objects made take them
            data.pop()
        self.objects = kept
        self._by_class = self._by_name = self._everyone = None

    def new_object(self, cls: RClass, name: str | None = None) -> Obj:
        if self.shared:
            self.unshare()
        seldom = self.seldom
        if name is None:
            counters = seldom.counters
            k = counters.get(cls.name, 0)
            counters[cls.name] = k + 1
            name = f"{cls.name}#{k}"
        data = self.data
        obj = Obj(cls, seldom.serials, name, None, len(data))
        seldom.serials += 1
        self.objects.append(obj)
        data.append({})
        self.owned.add(obj)
        self._by_class = self._by_name = self._everyone = None
        return obj

    def clear(self) -> None:
        """Let go of a world that is no longer used (it must not be used afterwards).

        Handles refer to no world, so a world holds no reference cycle and is freed as
        soon as it is dropped; this only drops its tables early.
        """
        # read-only empties, shared by every world cleared: verify clears one per state explored
        self.objects = _CLEARED_LIST
        self.data = _CLEARED_LIST
        self.owners = self.frozen = self.globals = _CLEARED
        self.owned = self.written = _CLEARED_SET
        self.shared = False
        self.digests = self.inherited = None

    def copy(self) -> World:
        """A copy sharing every object's fields with this world until either changes them.

        Both worlds give up their ownership: from now on each copies a dict before it
        changes it (`own`), and the tables a move seldom changes before it changes one
        (`unshare`). The copy is the hot path of search, simulation and verification: a slice
        of the fields' list (a pointer per place) and a dict copy (`frozen`).
        """
        if self.owned:  # empty already when the world was copied before (verify copies a state's once a move)
            self.owned = set()
        if self.written:
            self.written = set()
        self.shared = True
        # the objects this world changed so far are no longer told by `owned` and `written`
        self.inherited = None
        new = _new_world(World)
        new.shared = True
        new.digests = None
        new.inherited = self.digests
        new.objects = self.objects
        new.data = self.data[:]
        new.owners = self.owners
        new.owned = set()
        new.written = set()
        new.frozen = self.frozen.copy()
        new.globals = self.globals
        c = self.control
        nc = new.control = _new_control(Control)  # the dataclass's __init__ not called
        nc.player = c.player
        nc.turn = c.turn
        nc.phase = c.phase
        new.seldom = self.seldom  # the generator, the log, the name counters and the next serial: one reference
        new.result = self.result
        new.players = self.players
        new.transients = self.transients
        new._by_class = self._by_class  # the same handles: the indexes hold for the copy
        new._by_name = self._by_name
        new._everyone = self._everyone
        new.memo = self.memo
        return new


def _copy_fields(fields: dict) -> dict:
    """A fields dict with every list and table in it copied (objects are handles: kept)."""
    out = fields.copy()
    for k, v in out.items():
        c = v.__class__
        if c is list or c is dict:
            out[k] = _copy_value(v)
    return out


def _copy_value(v):
    """`v` with its lists and tables copied, deeply (scalars and objects kept)."""
    c = v.__class__
    if c is list:
        return [_copy_value(x) if x.__class__ in _COLLECTIONS else x for x in v]
    if c is dict:
        return {
            (_copy_value(k) if k.__class__ in _COLLECTIONS else k): (_copy_value(x) if x.__class__ in _COLLECTIONS else x)
            for k, x in v.items()
        }
    return v


_COLLECTIONS = frozenset((list, dict))
# Field values a read hands out as they are: nothing the game could change in place.
PLAIN = frozenset((float, bool, str, int, type(None), Obj))


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
