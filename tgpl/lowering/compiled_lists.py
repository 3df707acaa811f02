"""Lists of objects that are state, in the compiled moves (issue 34): a market row the moves take cards from, a
hand played out, the men of a tafl game removed when taken.

Such a list is laid out as the spelled-out moves lay it out (tgpl.lowering.segments, `_list_fluents`): a number,
its length (`Row.length`), and one slot per object of its item class (`Row[0]`, `Row[1]`, ...), each an item or
null, the slots past the length null. The compiled moves read and write those cells as any other attribute of the
list's owner, so a move's ways say exactly what the runtime's list holds after it:

- `L.length` reads the length, `L[k]` the slot k (a way for each slot where k is known only at run time);
- `L.contains(x)` holds on one way per slot, the first that holds x, and fails on the way where every slot differs;
- `L.add(x)` writes x into the slot the length names (a way per length) and the length plus one;
- `L.remove(x)` takes out the first slot that holds x, moving every later slot one down and emptying the last
  (a way per slot), the length one less (a way per length: its
  values stay the constants the relaxation bounds); where no slot holds x the list is left as it was, as the runtime's
  `remove` leaves it (`tgpl.builtin_calls._remove`).

The owner must be known when compiling, or one of the few objects that have the list (`OBJECTS_SPLIT`, a way
each). Other changes (`removeAt`, `clear`, `append`, a slot set by index) stay refused where they stand.
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.after_setup import after_setup_nodes
from tgpl.frontend.types import NUMBER, CallableType, ClassType, Collection
from tgpl.lowering.horn import NULL, Slots, Unsupported
from tgpl.lowering.ir import Const, Term, Var
from tgpl.lowering.subset import state_lists
from tgpl.lowering.universe import length_cell, list_cell, slot_cell

COMPILED_CHANGES = ("add", "remove")  # the changes of a list that is state the compiled moves compile
SPLIT = 4  # a list of an object known only at run time: a way for each object that has it, up to this many


def changed_lists(program) -> frozenset[str]:
    """The list attributes of objects that are state (`subset.state_lists`) and that some move changes with a
    compiled change (`COMPILED_CHANGES`): the compiled moves keep their cells. A list changed otherwise only keeps
    the refusal at its change."""
    found = {changed_list(n, program.types) for n in after_setup_nodes(program)}
    return frozenset(found & state_lists(program))


def changed_list(n, types: dict) -> str | None:
    """The name of the list of objects that node `n` changes with a compiled change (`L.add(x)`, `L.remove(x)`,
    `COMPILED_CHANGES`); None where `n` is no such change. A loop that makes one writes the state, as an
    assignment does (`loop_code.LoopCode`)."""
    if not (isinstance(n, ast.Call) and isinstance(n.callee, ast.Member)):
        return None
    ct = types.get(id(n.callee))
    t = types.get(id(n.callee.obj))
    if (isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name in COMPILED_CHANGES
            and isinstance(t, Collection) and t.kind == "List" and isinstance(t.elem, ClassType)):
        return getattr(n.callee.obj, "name", None)
    return None


def list_cells(o, name: str, t: Collection, initial: tuple, universe) -> list[tuple[str, object, object]]:
    """The cells of object `o`'s list `name` (attribute, type, value after setup): its length and a slot for each
    object of its item class (more would hold one twice), as the spelled-out lowering's."""
    size = max(len(universe.of_class(t.elem.info)), len(initial))
    cells = [(length_cell(name), NUMBER, float(len(initial)))]
    cells += [(slot_cell(name, k), t.elem, initial[k] if k < len(initial) else None) for k in range(size)]
    return cells


def snapshot_value(fields: dict, attr: str):
    """The runtime's value of cell `attr` of an object whose fields are `fields` (a snapshot's): a list cell's
    length or item (null past the length); any other attribute's value."""
    found = list_cell(attr)
    if found is None or found[0] not in fields:
        return fields[attr]
    items = fields[found[0]][1]
    k = found[1]
    if k is None:
        return float(len(items))
    return items[k] if k < len(items) else None


def size_of(fluents: dict, obj_name: str, name: str) -> int | None:
    """How many slots object `obj_name`'s list `name` has in the compiled state; None where it is not state."""
    if (obj_name, length_cell(name)) not in fluents:
        return None
    k = 0
    while (obj_name, slot_cell(name, k)) in fluents:
        k += 1
    return k


class ListWays:
    """The reads and changes of lists that are state, on the ways of a segment compiler (`compiled.SegmentCompiler`:
    its `read`, `write`, `unify`, `differ`, `calc` and clauses)."""

    def __init__(self, sc):
        self.sc = sc

    def owners(self, c, o: Term, name: str) -> list[tuple[object, Slots]]:
        """`o.name` as the list that is state on each object `o` may be: a way each."""
        sc = self.sc
        fluents = sc.g.fluents
        if isinstance(o, Const):
            obj = sc.hc.object_of(o)
            size = size_of(fluents, obj.name, name) if obj is not None else None
            if size is None:
                raise Unsupported(f"the list '{name}' of {o.name}, which is not state")
            return [(c, Slots(o, name, size))]
        having = [x for x in sc.hc.u.objects if size_of(fluents, x.name, name) is not None]
        if not having or len(having) > SPLIT:
            raise Unsupported(f"the list '{name}' that the moves change, of an object known only at run time")
        out = []
        for x in having:
            k = sc.hc.const_of(x)
            c2 = sc.unify(c, o, k)
            if c2 is not None:
                out.append((c2, Slots(k, name, size_of(fluents, x.name, name))))
        return out

    def length(self, c, s: Slots) -> list[tuple[object, Term]]:
        return self.sc.read(c, s.obj, length_cell(s.attr))

    def slot(self, c, s: Slots, k: int) -> list[tuple[object, Term]]:
        return self.sc.read(c, s.obj, slot_cell(s.attr, k))

    def index(self, c, s: Slots, k: Term) -> list[tuple[object, Term]]:
        """`L[k]`: the slot k; where k is known only at run time, a way for each slot it may name."""
        if isinstance(k, Const):
            try:
                i = int(k.name)
            except ValueError:
                return []
            return self.slot(c, s, i) if 0 <= i < s.size else []  # out of range: the runtime stops
        out = []
        for i in range(s.size):
            c2 = self.sc.unify(c, k, Const(str(i)))
            if c2 is not None:
                out += self.slot(c2, s, i)
        return out

    def found(self, c, s: Slots, x: Term) -> tuple[list[tuple[object, int]], list]:
        """The ways where x is in the list, each with the first slot holding it, and the ways where it is not."""
        if x == NULL:
            raise Unsupported(f"null sought in the list '{s.attr}'")
        sc = self.sc
        here = [c]
        hits: list[tuple[object, int]] = []
        for k in range(s.size):
            later = []
            for c1 in here:
                for c2, v in self.slot(c1, s, k):
                    same = sc.unify(c2, v, x)
                    if same is not None and isinstance(x, Var):
                        same = sc.differ(same, x, NULL)
                    if same is not None:
                        hits.append((same, k))
                    other = sc.differ(c2, v, x)
                    if other is not None:
                        later.append(other)
            here = later
        return hits, here

    def contains(self, c, s: Slots, x: Term) -> tuple[list, list]:
        hits, missing = self.found(c, s, x)
        return [h for h, _ in hits], missing

    def add(self, c, s: Slots, x: Term) -> list:
        """`L.add(x)`: x in the slot the length names, the length one more (no way where every slot is full)."""
        sc = self.sc
        out = []
        for c2, n in self.length(c, s):
            for k in range(s.size):
                c3 = sc.unify(c2, n, Const(str(k)))
                if c3 is None:
                    continue
                for c4 in sc.write(c3, s.obj, slot_cell(s.attr, k), x):
                    out += sc.write(c4, s.obj, length_cell(s.attr), Const(str(k + 1)))
        return out

    def remove(self, c, s: Slots, x: Term) -> list:
        """`L.remove(x)`: the first slot holding x taken out, the later ones moved down, the length one less; the
        list as it was where no slot holds it."""
        sc = self.sc
        hits, missing = self.found(c, s, x)
        out = list(missing)
        for c2, k in hits:
            ways = [c2]
            for j in range(k, s.size - 1):
                ways = [c5 for c3 in ways for c4, v in self.slot(c3, s, j + 1)
                        for c5 in sc.write(c4, s.obj, slot_cell(s.attr, j), v)]
            ways = [c4 for c3 in ways for c4 in sc.write(c3, s.obj, slot_cell(s.attr, s.size - 1), NULL)]
            for c3 in ways:
                for c4, n in self.length(c3, s):
                    for size in range(k + 1, s.size + 1):  # a way per length, so that the length stays a constant
                        c5 = sc.unify(c4, n, Const(str(size)))
                        if c5 is not None:
                            out += sc.write(c5, s.obj, length_cell(s.attr), Const(str(size - 1)))
        return out


__all__ = ["COMPILED_CHANGES", "ListWays", "changed_list", "changed_lists", "list_cells", "size_of", "snapshot_value"]
