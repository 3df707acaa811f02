"""Counted loops that may end early (a `break`, an error in the body, calls of functions that count
steps or not): games play, and pass the step limit with the same error at the same step, as the
plain reference, which counts each step one by one."""

from __future__ import annotations

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.errors import TGPLRuntimeError

from observed import EXAMPLES, ends_with_limits, reference, written_both_ways

LOOPS = """
game "t";
players 1;
global class Box { number Sum = 0; number Moves = 0; List<number> Items = {}; }
function Same { function input number a; function input number b; returns bool; effect { if (a == b) { return true; } return false; } }
function Twice { function input number n; returns number; effect { number s = 0; for (number k = 0; k < 2; k += 1) { s += n; } return s; } }
class Seat
{
    action Go
    {
        require { return Box.Moves < 4; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Moves += 1; turn.pass(0, "Check"); }
    }
}
turn T
{
    phase Idle { }
    phase Check
    {
        // ends at the value the move gives (1 to 4), or runs to the end (4: the third)
        number found = -1;
        for (number i = 0; i < 3; i += 1)
        {
            if (Same(a: i, b: Box.Moves - 1)) { found = i; break; }
            Box.Sum += i;
        }
        // a break at the first value, in a nested if
        for (number i = 0; i < 4; i += 1) { if (i >= 0) { if (Box.Moves > 0) { break; } } Box.Sum += 100; }
        // no break at all (a call of a function that counts no steps)
        for (number i = 1; i < 3; i += 1) { if (Same(a: i, b: 2)) { Box.Sum += 1; } }
        // an error in the body, on the fourth move, in its second step
        if (Box.Moves == 4) { for (number i = 0; i < 2; i += 1) { if (i == 1) { Box.Sum += Box.Items[5]; } } }
        // a call of a function that counts steps; six values; a continue
        for (number i = 0; i < 2; i += 1) { Box.Sum += Twice(n: i); if (i == found) { break; } }
        for (number i = 0; i < 6; i += 1) { if (i == 2) { break; } }
        for (number i = 0; i < 3; i += 1) { if (i == 1) { continue; } if (i == found) { break; } }
        // steps after them all, one by one: a limit is passed where the count above says
        number k = 0;
        while (k < found + 2) { k += 1; }
        Box.Sum += found;
        turn.pass(0, "Idle");
    }
}
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "Idle"); }
"""


@pytest.fixture
def two(tmp_path, monkeypatch):
    """LOOPS compiled by default, and the plain way (every step counted one by one); the sources."""
    return written_both_ways(LOOPS, tmp_path, monkeypatch)


def _ends(game, limits, moves: int = 4) -> list:
    """How `moves` moves end with each step limit: the key after each, or the error as rendered."""
    return ends_with_limits(game, limits, ["Seat#0.Go()"] * moves)


def test_limits_are_passed_at_the_same_step(two):
    early, plain, _, _ = two
    limits = range(0, 70)
    ends = _ends(early, limits)
    assert ends == _ends(plain, limits)
    errors = {e[2].splitlines()[0] for e in ends if e[0] == "error"}
    assert any("--max-steps" in e for e in errors) and any("index" in e or "list" in e for e in errors)
    assert ends[-1][0] == "error" and len(ends[-1][1]) == 3  # the fourth move errs in the body


def test_tris_limits_are_passed_at_the_same_step(monkeypatch):
    """Tris's move: the table (12 steps), then the win check's loop (1 to 3 steps)."""
    moves = ["PlayerState#0.Tick(TickTile#4)", "PlayerState#1.Tick(TickTile#0)", "PlayerState#0.Tick(TickTile#5)",
             "PlayerState#1.Tick(TickTile#1)", "PlayerState#0.Tick(TickTile#2)"]
    early = load_game(EXAMPLES / "tris.tgpl")
    plain = reference(EXAMPLES / "tris.tgpl")

    def ends(game):
        out = []
        for limit in range(0, 20):
            game.step_limit = limit
            state = game.initial_state(0)
            seen = []
            try:
                for move in moves:
                    legal = [m.text for m in state.legal_moves()]
                    state = state.apply(move if move in legal else legal[0])
                    seen.append((state.key(), state.ranking if state.is_terminal else None))
                out.append(("ok", seen))
            except TGPLRuntimeError as e:
                out.append(("error", seen, e.render()))
        return out

    got = ends(early)
    assert got == ends(plain)
    assert any(e[0] == "error" for e in got) and any(e[0] == "ok" for e in got)
