"""The universe of a lowered game: the objects setup created, fixed from then on.

Built from a runtime snapshot (tgpl.runtime.snapshot, plain data), so the
lowering never imports the runtime. Static lists and tables become tuples and
`StaticTable`s: code after setup may read them but not change them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tgpl.lowering.symbolic import UObj


def length_cell(attr: str) -> str:
    """The attribute name of a list attribute's length, when the list is state (`Cards.length`)."""
    return f"{attr}.length"


def slot_cell(attr: str, k: int) -> str:
    """The attribute name of item k of a list attribute that is state (`Cards[0]`)."""
    return f"{attr}[{k}]"


def list_cell(attr: str) -> tuple[str, int | None] | None:
    """(list attribute, item index, or None for its length) of a cell named by `length_cell`/`slot_cell`;
    None for any other attribute."""
    if attr.endswith(".length"):
        return attr[: -len(".length")], None
    if attr.endswith("]") and "[" in attr:
        base, _, k = attr[:-1].partition("[")
        return base, int(k)
    return None


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

    def of_class(self, info) -> list[UObj]:
        return [o for o in self.objects if o.cls.derives_from(info)]
