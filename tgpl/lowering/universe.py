"""The universe of a lowered game: the objects setup created, fixed from then on.

Built from a runtime snapshot (tgpl.runtime.snapshot, plain data), so the
lowering never imports the runtime. Static lists and tables become tuples and
`StaticTable`s: code after setup may read them but not change them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from tgpl.lowering.symbolic import UObj


def length_cell(attr: str) -> str:
    """The attribute name of a list attribute's length, when the list is state (`Cards.length`)."""
    return f"{attr}.length"


def slot_cell(attr: str, k: int) -> str:
    """The attribute name of item k of a list attribute that is state (`Cards[0]`)."""
    return f"{attr}[{k}]"


def member_cell(attr: str, item: str) -> str:
    """The attribute name of whether object `item` is in a list attribute kept as a set (`Cards{Card#3}`,
    `subset.set_lists`): a bool, the list's only cells."""
    return f"{attr}{{{item}}}"


def member_of(attr: str) -> tuple[str, str] | None:
    """(list attribute, item's name) of a cell named by `member_cell`; None for any other attribute."""
    if attr.endswith("}") and "{" in attr:
        base, _, item = attr[:-1].partition("{")
        return base, item
    return None


def list_cell(attr: str) -> tuple[str, int | None] | None:
    """(list attribute, item index, or None for its length) of a cell named by `length_cell`/`slot_cell`;
    None for any other attribute."""
    if attr.endswith(".length"):
        return attr[: -len(".length")], None
    if attr.endswith("]") and "[" in attr:
        base, _, k = attr[:-1].partition("[")
        return base, int(k)
    return None


MADE = "#made"  # the pool's counter: how many of its objects `new` has taken (GDL `made`)


@dataclass
class Pool:
    """The objects of a class that code after setup may make, as constants fixed before the rules are written.

    The runtime names the k-th object of a class made after setup `Class#(first + k)` (its names count the
    objects of that exact class made so far, and none of them is ever dropped: only events are), so the
    pool's constants are those names, and `new` takes the lowest free one, the one `made` counts to. An
    object not made yet has every attribute null; `made` (a number on `counter`, an object of no class
    that stands for the pool) says which ones exist."""

    cls: object  # the checker's ClassInfo
    first: int  # the number in the name of the first object made after setup
    objects: list[UObj]
    counter: UObj

    def made_by(self, names) -> int:
        """How many objects of the class a state (the names of its objects) holds that were made after setup:
        all of them, counted even past the pool, so that a state the pool cannot hold shows in `made`."""
        return sum(1 for n in names if (k := _number(self.cls.name, n)) is not None and k >= self.first)


def _number(cls: str, name: str) -> int | None:
    """k of an object named `cls#k` (the runtime's name of an object made with `new`), else None."""
    m = re.fullmatch(re.escape(cls) + r"#(\d+)", name)
    return int(m.group(1)) if m else None


class StaticTable(dict):
    """A table stored in an attribute at setup: read-only for the lowering."""

    def __hash__(self) -> int:  # pragma: no cover - tables are compared by contents
        return hash(tuple(self.items()))

    def __deepcopy__(self, memo):
        return self


@dataclass
class Universe:
    players: int
    control: tuple  # (player, turn, phase) after setup
    result: list | None
    objects: list[UObj] = field(default_factory=list)
    by_name: dict[str, UObj] = field(default_factory=dict)
    globals: dict[str, UObj] = field(default_factory=dict)  # global classes' instances by class name
    pools: list[Pool] = field(default_factory=list)  # the objects code after setup may make (`with_pools`)
    # setup's dice (tgpl.lowering.chance.setup_throw): for each way they fall, random's first move, the values of
    # the cells they set ((object name, attribute) -> value); empty when setup throws none
    throws: list[dict] = field(default_factory=list)
    # setup's deals (tgpl.setup_deals, decision 112): for the k-th, random's k-th move, the cells its item goes to
    # ((object name, attribute)) and the lengths it sets ((object name, `L.length`) -> value); the deck's name
    deals: list[tuple[tuple[tuple[str, str], ...], dict]] = field(default_factory=list)
    deal_deck: str | None = None

    @staticmethod
    def from_snapshot(snap: dict) -> Universe:
        u = Universe(snap["players"], tuple(snap["control"]), snap["result"])
        for o in snap["objects"]:
            obj = UObj(o["name"], o["class"], tuple(o["owners"]), o["serial"])
            u.objects.append(obj)
            u.by_name[obj.name] = obj
            if o["class"].visibility == "global":
                u.globals.setdefault(o["class"].name, obj)
        serial = len(u.objects)
        for o in snap["objects"]:
            obj = u.by_name[o["name"]]
            obj.fields = {k: u.value(v) for k, v in o["fields"].items()}
            if o.get("items") is not None:  # a deck: code after setup may pop from it (its length a fluent)
                obj.items = tuple(u.value(v) for v in o["items"])
            if o["cells"] is not None:
                obj.cells = tuple(tuple(u.by_name[t] if t is not None else None for t in col) for col in o["cells"])
            links = []
            for name, cls, to in o["connections"]:
                link = u.by_name.get(name)
                if link is None:  # fixed by the geometry: not part of the state
                    link = UObj(name, cls, (), serial)
                    serial += 1
                    link.fields = {"to": u.by_name.get(to) if to is not None else None}
                links.append(link)
            obj.connections = tuple(links)
        u.throws = [{cell: u.value(v) for cell, v in way.items()} for way in snap.get("throws", ())]
        u.deals = [(tuple(d["cells"]), dict(d["lengths"])) for d in snap.get("deals", ())]
        u.deal_deck = snap.get("deal_deck")
        return u

    def value(self, v):
        if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str):
            tag, x = v
            if tag == "obj":
                return self.by_name[x]
            if tag == "list":
                return tuple(self.value(i) for i in x)
            if tag == "table":
                return StaticTable((self.value(k), self.value(i)) for k, i in x)
        return v

    def with_pools(self, sizes: dict) -> Universe:
        """This universe and, for each class in `sizes` (ClassInfo -> how many), a pool of that many objects
        after the objects setup made (`Pool`), in `pools`; this universe itself when no class has one."""
        if not sizes:
            return self
        objects = list(self.objects)
        pools = []
        for info, size in sizes.items():
            first = 1 + max((k for o in self.objects if o.cls is info
                             for k in [_number(info.name, o.name)] if k is not None), default=-1)
            made = []
            for k in range(size):
                obj = UObj(f"{info.name}#{first + k}", info, (), len(objects))
                objects.append(obj)
                made.append(obj)
            counter = UObj(f"{info.name}#pool", info, (), -1)
            pools.append(Pool(info, first, made, counter))
        return replace(self, objects=objects, by_name={o.name: o for o in objects}, pools=pools)

    def pool_of(self, info) -> Pool | None:
        return next((p for p in self.pools if p.cls is info), None)

    def of_class(self, info) -> list[UObj]:
        return [o for o in self.objects if o.cls.derives_from(info)]
