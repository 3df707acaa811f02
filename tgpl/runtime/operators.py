"""The values and operators that the closures (`tgpl.runtime.compiler`), generated code
(`tgpl.runtime.codegen`) and the built-ins (`tgpl.builtin_calls`) share: equality of TGPL
values, the arithmetic and comparison operators, an item read by index and the marker of an
argument not given."""

from __future__ import annotations

import math
from typing import Any

from tgpl.runtime.values import Obj


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()


def _equal(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, (Obj, list, dict)) or isinstance(b, (Obj, list, dict)):
        return False  # objects and collections are references: equal only to themselves
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b


def _fmod(a, b):
    if b == 0:
        raise ZeroDivisionError  # reported as division by zero, like `/`
    return math.fmod(a, b)


_ARITH: dict[str, Any] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "%": _fmod,
    "^": lambda a, b: a ** b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}


_NUMBERS = frozenset((int, float))


def _index(m, o, k, span):
    """`o[k]`: a table's item, a list's or a group's cell by a whole number; the machine's
    `get_index` for anything else and its errors."""
    c = o.__class__
    if c is dict:
        if k is not None:
            return o.get(k)
    elif k.__class__ in _NUMBERS and k >= 0:
        if c is list:
            if k < len(o):
                return o[int(k)]
        elif c is Obj:
            cells = m.world.fields(o).get("_cells")
            if cells is not None and k < len(cells):
                return cells[int(k)]
    return m.get_index(o, k, span)  # the errors


MISSING = _MISSING
