"""The values and operators that the closures (`tgpl.runtime.compiler`), generated code
(`tgpl.runtime.codegen`) and the built-ins (`tgpl.builtin_calls`) share: equality of TGPL
values, the arithmetic and comparison operators, and the marker of an argument not given."""

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


MISSING = _MISSING
