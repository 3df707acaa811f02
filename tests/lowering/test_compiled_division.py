"""Division (`/`) and remainder (`%`) in the compiled moves (tgpl.lowering.horn): tables of the exact rows the
relaxation asks for. TGPL numbers are doubles and the compiled rules hold whole numbers, so a quotient that is
not whole, or a division by zero (where the runtime stops with an error), is refused at the operator."""

from __future__ import annotations

import pytest

import tgpl.lowering.horn as horn
from differential import bisimulate
from test_compiled_moves import shifts_variant
from tgpl.lowering.horn import Unsupported, whole_calc
from tgpl.lowering.lower import NotLowerable

ADJACENT = "            return to.X - from.X == 1 || from.X - to.X == 1;"


def _can_go(expression: str) -> tuple[str, str]:
    """The edit of shifts.tgpl that writes CanGo's test of neighbours as `expression`."""
    return ADJACENT, f"            return {expression};"


def test_division_and_remainder_compile_to_the_runtimes_game(tmp_path):
    """Neighbours found through `%` and `/` (exact quotients, a negative remainder among them): the same game as
    shifts.tgpl's `- ==`, 501 states (refused as "the operator %" before the subset had them)."""
    lw = shifts_variant(tmp_path, _can_go(
        "(to.X - from.X) % 2 != 0 && ((2 * to.X - 2 * from.X) / 2 == 1 || (from.X - to.X) * 4 / 4 == 1)"))
    assert bisimulate(lw).states == 501
    assert lw.lowered.stats["moves compiled"] == "yes"


def test_a_quotient_that_is_not_whole_is_refused_at_the_operator(tmp_path):
    """`(from.X - to.X) / 2 * 2 == 1` is true at the runtime for neighbours (0.5 * 2); the compiled rules hold no
    0.5, and a table without the row would make the test neither true nor false: refused, at the `/`."""
    with pytest.raises(NotLowerable) as e:
        shifts_variant(tmp_path, _can_go("to.X - from.X == 1 || (from.X - to.X) / 2 * 2 == 1"))
    text = (tmp_path / "variant.tgpl").read_text(encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "/ 2 * 2" in s)
    col = text.splitlines()[line - 1].index("(from.X - to.X) / 2") + 1
    span = e.value.span
    assert (span.file.endswith("variant.tgpl"), span.line, span.col) == (True, line, col), span
    assert "a quotient that is not whole" in str(e.value), str(e.value)


def test_a_division_by_zero_is_refused(tmp_path):
    with pytest.raises(NotLowerable, match="a division by zero"):
        shifts_variant(tmp_path, _can_go("to.X - from.X == 1 || (from.X - to.X) % (to.X - to.X) == 1"))


def test_whole_numbers_divide_as_the_runtimes_doubles():
    assert [whole_calc("/", a, b) for a, b in ((6, 3), (-6, 3), (6, -3), (0, 5))] == [2, -2, -2, 0]
    assert [whole_calc("%", a, b) for a, b in ((7, 2), (-7, 2), (7, -2), (-7, -2))] == [1, -1, 1, -1]
    for a, b in ((7, 2), (1, 0)):
        with pytest.raises(Unsupported):
            whole_calc("/", a, b)
    assert horn.CALCS["/"] == "#divide"
