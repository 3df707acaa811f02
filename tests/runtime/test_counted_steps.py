"""Nests of counted loops, as Python loops, and a fixed
table taken whole (`fixed_table`): games play, and pass the step limit with the same error at the
same step, as when every step is counted one by one (the plain reference)."""

from __future__ import annotations


import pytest

from observed import EXAMPLES, compiled_with_sources, ends_with_limits, written_both_ways

NESTS = """
game "t";
players 1;
global class Box { number Sum = 0; number Moves = 0; }
function Twice { function input number n; returns number; effect { number s = 0; for (number k = 0; k < 2; k += 1) { s += n; } return s; } }
class Seat
{
    action Go
    {
        require { return Box.Moves < 2; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Moves += 1; turn.pass(0, "Check"); }
    }
}
turn T
{
    phase Idle { }
    phase Check
    {
        // 3 + 3 * 4 steps
        Table<Table<number>> t = {};
        for (number x = 0; x < 3; x += 1)
        {
            t[x] = {};
            for (number y = 0; y < 4; y += 1) { t[x][y] = x * 10 + y; Box.Sum += t[x][y]; }
        }
        // 2 steps
        for (number i = 0; i < 2; i += 1) { if (Box.Sum > 1000) { Box.Sum -= 1; } else { Box.Sum += i; } }
        // a break, a call, a loop under an if
        for (number i = 0; i < 5; i += 1) { if (i == 3) { break; } Box.Sum += 1; }
        for (number i = 0; i < 2; i += 1) { Box.Sum += Twice(n: i); }
        for (number i = 0; i < 2; i += 1) { if (i == 1) { for (number j = 0; j < 2; j += 1) { Box.Sum += j; } } }
        // an error in its first step, on the second move
        List<number> none = {};
        if (Box.Moves == 2) { for (number i = 0; i < 3; i += 1) { Box.Sum += none[i]; } }
        turn.pass(0, "Idle");
    }
}
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "Idle"); }
"""


@pytest.fixture
def two(tmp_path, monkeypatch):
    """NESTS compiled by default, and with every step counted one by one; the sources generated."""
    return written_both_ways(NESTS, tmp_path, monkeypatch)[:3]


def _ends(game, limits) -> list:
    """How two moves end with each step limit: the key after each, or the error as rendered."""
    return ends_with_limits(game, limits, ["Seat#0.Go()"] * 2)


def test_limits_are_passed_at_the_same_step(two):
    compiled, plain, _ = two
    limits = range(0, 60)
    ends = _ends(compiled, limits)
    assert ends == _ends(plain, limits)
    errors = {e[2].splitlines()[0] for e in ends if e[0] == "error"}
    assert any("--max-steps" in e for e in errors) and any("empty list" in e for e in errors)


def test_tris_counts_its_table_at_once(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    assert any("m.steps + 12 <= SL" in src for src in sources)
