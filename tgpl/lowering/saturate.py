"""Counters that only count up to a bound the game tests: their values past it are one value.

A move counter that ends the game at 200 (`Game.Moves += 1` where a man lands, `if (Game.Moves >= 200)` in a
later phase) is bounded in play, but the lowering with its moves compiled bounds a counter on its own, by the
tests on the ways that write it: a check that a later decision runs does not bound it, and its values run past
every bound (Nine Men's Morris, tests/data/lowering/others/morris.tgpl). Yet what the game does with such a
counter depends only on how it compares with the constants it is compared with: every value past the largest
is alike. So a counter that is

- written only by `attr += 1` and by `attr = c` (a number c below the bound),
- read only where it is compared with a number (`attr >= 200`, `attr == 9`, `attr < 3`), and
- at most the bound after setup,

is lowered *saturated* at T, one more than the largest number it is compared with (rounded down): its step is
made only below T (`attr += 1` is `if (attr < T) { attr += 1; }`), so it takes 0..T and T stands for every value
from T up. Every comparison with a constant gives the same answer on the runtime's value and on the saturated
one, so the game lowered is the game played; the runtime's state maps to the lowered one with the counter's
value cut down to T (`CompiledGame.state_fluents`), which the validation compares.

Attributes are matched by name over the whole program (every class): an over-approximation that can only
leave a counter unsaturated, never saturate one the game reads otherwise.
"""

from __future__ import annotations

import math

from tgpl.frontend import ast

COMPARISONS = ("<", ">", "<=", ">=", "==", "!=")


def saturated_counters(program, numeric_attrs: set[str]) -> dict[str, int]:
    """attribute name -> its bound T, for every numeric attribute that may be saturated (see the module)."""
    out: dict[str, int] = {}
    nodes = [n for module in program.modules for n in ast.walk(module.items)]
    for attr in sorted(numeric_attrs):
        bound = _bound(nodes, attr)
        if bound is not None:
            out[attr] = bound
    return out


def _bound(nodes: list, attr: str) -> int | None:
    allowed: set[int] = set()  # the ids of the reads of `attr` that are allowed: compared with a number, written
    constants: list[float] = []
    assigned: list[float] = []
    for n in nodes:
        if isinstance(n, ast.Binary) and n.op in COMPARISONS:
            for mine, other in ((n.left, n.right), (n.right, n.left)):
                if _names(mine, attr):
                    k = _number(other)
                    if k is None:
                        return None  # compared with something else than a number
                    allowed.add(id(mine))
                    constants.append(k)
        elif isinstance(n, ast.Assign) and _names(n.target, attr):
            if n.op == "+=" and _number(n.value) == 1:
                allowed.add(id(n.target))
            elif n.op == "=" and _number(n.value) is not None:
                allowed.add(id(n.target))
                assigned.append(_number(n.value))
            else:
                return None
    if not constants:
        return None
    for n in nodes:
        if _names(n, attr) and id(n) not in allowed:
            return None  # read otherwise: its value matters past the comparisons
    bound = math.floor(max(constants)) + 1
    if any(c != int(c) or not 0 <= c < bound for c in assigned):
        return None
    return bound


def _names(e, attr: str) -> bool:
    """Does e name the attribute `attr` (`x.attr`, or a bare `attr`)?"""
    return isinstance(e, (ast.Member, ast.Name)) and e.name == attr


def _number(e) -> float | None:
    if isinstance(e, ast.NumberLit):
        return float(e.value)
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.NumberLit):
        return -float(e.operand.value)
    return None


def saturated_value(x, bound: int | None):
    """The runtime's value of a counter as the lowering holds it: cut down to its bound, where it has one."""
    if bound is None or not isinstance(x, (int, float)) or isinstance(x, bool):
        return x
    return min(x, bound)
