"""Items of a fixed table read by one lookup (`codegen.BlockGenerator.flat_read`).

A fixed table (`tgpl.runtime.fixed_tables`) is built once per setup, and the code after it only
reads whole items of it: Tris's win check reads `tiles[a][b]` 24 times a move, each two lookups
of float keys. Its keys are the nest's counters and number literals, whole numbers from 0 in
Tris, so the table is also laid out once per setup as one tuple (its *flat view*), the item of
keys `(i, j)` at `i * width + j`, and a read whose keys are whole literals or counters of counted
loops over whole numbers (which also count in ints, `BlockGenerator.indexes`) within the view's
widths is one lookup of a tuple by an int.

The view holds what the read gives: the item, or null where the table has no such key (a read
of a missing key is null). When a table the keys pass through is missing or not a table (the
read would raise), the table has no view (`False`), and every read is spelled as before. The view
is remembered with the table (`World.memo`, its entry 1) and made the first time the table is
taken from the memo; a table built on this run (setup, the step limit) has none, and is read as
before.
"""

from __future__ import annotations

from itertools import product

from tgpl.frontend import ast

MAX_ITEMS = 4096  # a larger box of keys gets no view


def widths(nest: ast.For, name: str, counted) -> tuple[int, ...] | None:
    """The width of each level of the table `name` the counted `nest` builds: one more than the
    largest key stored there, when every key is a whole number from 0 (a literal, a counter whose
    values, `counted(loop)`, are); else None."""
    keys: dict[int, set[float]] = {}
    if not _keys(nest, name, counted, {}, keys) or not keys:
        return None
    levels = max(keys) + 1
    if set(keys) != set(range(levels)):
        return None
    out = []
    for level in range(levels):
        values = keys[level]
        if not values or any(v < 0 or v != int(v) for v in values):
            return None
        out.append(int(max(values)) + 1)
    size = 1
    for w in out:
        size *= w
    return tuple(out) if size <= MAX_ITEMS else None


def _keys(loop: ast.For, name: str, counted, counters: dict, keys: dict) -> bool:
    values = counted(loop)
    if values is None:
        return False
    inner = {**counters, loop.init.name: values}
    body = loop.body.body if isinstance(loop.body, ast.Block) else [loop.body]
    for s in body:
        if isinstance(s, ast.For):
            if not _keys(s, name, counted, inner, keys):
                return False
            continue
        chain = []
        e = s.expr.target
        while isinstance(e, ast.Index):
            chain.append(e.index)
            e = e.obj
        for level, k in enumerate(reversed(chain)):
            if isinstance(k, ast.NumberLit):
                keys.setdefault(level, set()).add(float(k.value))
            elif isinstance(k, ast.Name) and k.name in inner:
                keys.setdefault(level, set()).update(inner[k.name])
            else:
                return False
    return True


def flat(mt: dict, table, widths: tuple[int, ...], left: list):
    """The flat view of `table` (a tuple, or False when a read would raise on the way), made and
    remembered in the fixed table's memo `mt` while the memo has entries left (`left`)."""
    view = _view(table, widths)
    if left[0] > 0:
        left[0] -= 1
        mt[1] = view
    return view


def _view(table, widths: tuple[int, ...]):
    out = []
    for keys in product(*(range(w) for w in widths)):
        v = table
        for k in keys:
            if v.__class__ is not dict:
                return False
            v = v.get(float(k))
        out.append(v)
    return tuple(out)


def key(ints: list[str], widths: tuple[int, ...]) -> str:
    """The index in the view of the item at `ints` (each an int literal or an int local): the
    literals' part folded into one number."""
    const = 0
    terms = []
    stride = 1
    for j, w in zip(reversed(ints), reversed(widths)):
        if j.isdigit():
            const += int(j) * stride
        else:
            terms.append(j if stride == 1 else f"{j} * {stride}")
        stride *= w
    if const or not terms:
        terms.append(str(const))
    return " + ".join(reversed(terms))


__all__ = ["flat", "key", "widths"]
