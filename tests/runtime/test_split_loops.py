"""A hoisted filter's loop split by a chain of hoisted tests (tgpl.runtime.hoisting.split): one
loop per way through the chain (chess: one per kind of the moving piece). Games list and play
exactly as with one loop: the same moves, logs, keys and errors."""

from __future__ import annotations

import dis
from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.hoisting import hoist, split
from observed import outcome, reference

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _loops(fn) -> int:
    return sum(1 for i in dis.get_instructions(fn) if i.opname == "FOR_ITER")


@pytest.fixture
def plain(monkeypatch):
    """load(path) -> the game run the plain way (`RuntimeOptions.reference()`: the closures only)."""
    return reference


def test_chess_splits_its_target_filter_by_the_kind_of_piece(plain):
    chess = load_game(EXAMPLES / "chess" / "chess.tgpl")
    every = chess.compiled.classes["Seat"].find_action("Move").inputs[1].filters[0][1].all
    assert every.__name__ == "_all_hoisted" and _loops(every) == 6  # pawn, knight, bishop, rook, queen, king


def test_split_takes_the_longest_chain_of_hoisted_bools():
    found = hoist("(D[c]['A'] if D[a]['K'] is G['X'] else D[c]['B'] if D[a]['K'] is G['Y'] else D[c]['C']) > 0",
                  {"c"})
    assert found.prologue == ["_h0 = D[a]['K'] is G['X']", "_h1 = D[a]['K'] is G['Y']"]
    assert found.bools == {"_h0", "_h1"}
    assert split(found) == [("_h0", "D[c]['A'] > 0"), ("_h1", "D[c]['B'] > 0"), (None, "D[c]['C'] > 0")]
    # a test whose value may be anything but a bool (`==`) is left in the loop, and so is a chain of one
    found = hoist("(D[c]['A'] if D[a]['K'] == 1 else D[c]['B'] if D[a]['K'] is G['Y'] else D[c]['C']) > 0", {"c"})
    assert split(found) is None
    # a chain whose tests depend on the candidate is no chain
    found = hoist("D[c]['A'] if D[c]['K'] is G['X'] else D[c]['B'] if D[c]['K'] is G['Y'] else 0", {"c"})
    assert found is None or split(found) is None


# `Fits` inline in the filter: a chain of tests of the mode, the same for every cell. The green
# mode reads the next cell's value, a null's on the last cell: an error while the moves are listed.
KINDS = """
game "t";
players 1;
class Kind { }
global class Red : Kind { }
global class Green : Kind { }
global class Blue : Kind { }
tile Cell { number Value = 0; Cell Next = null; }
board B { group G { geometry square; grid { Cell, Cell, Cell, Cell; } } }
global class Board { B Grid = null; }
global class Util
{
    Kind Mode = null;
    number Limit = 1;
    function Fits
    {
        function input Cell c;
        returns bool;
        effect
        {
            Kind k = Util.Mode;
            if (k == Red) { return c.Value < Util.Limit; }
            if (k == Green) { return c.Next.Value >= 0; }
            if (k == Blue) { return c.Value == 0; }
            return c.Value < 3;
        }
    }
}
class Seat
{
    action Pick
    {
        input Cell target { return Util.Fits(c: target); }
        trigger PlayerChoiceEvent { return true; }
        effect { target.Value = target.Value + 1; turn.pass(); }
    }
    action MRed { trigger PlayerChoiceEvent { return true; } effect { Util.Mode = Red; turn.pass(); } }
    action MGreen { trigger PlayerChoiceEvent { return true; } effect { Util.Mode = Green; turn.pass(); } }
    action MBlue { trigger PlayerChoiceEvent { return true; } effect { Util.Mode = Blue; turn.pass(); } }
    action MNone { trigger PlayerChoiceEvent { return true; } effect { Util.Mode = null; turn.pass(); } }
}
turn T { phase P { } default { return 0; } }
setup
{
    Board.Grid = new B();
    (Board.Grid.G[0][0] as Cell).Next = Board.Grid.G[1][0] as Cell;
    (Board.Grid.G[1][0] as Cell).Next = Board.Grid.G[2][0] as Cell;
    (Board.Grid.G[2][0] as Cell).Next = Board.Grid.G[3][0] as Cell;
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


@pytest.mark.parametrize("moves", [
    ["Seat#0.MRed()", "Seat#0.Pick(target: G[1][0])"],
    ["Seat#0.MBlue()", "Seat#0.Pick(target: G[1][0])", "Seat#0.Pick(target: G[2][0])"],
    ["Seat#0.Pick(target: G[1][0])", "Seat#0.Pick(target: G[1][0])", "Seat#0.MNone()"],
    ["Seat#0.MGreen()"],  # the last cell's Next is null: the listing fails
])
def test_a_split_filter_lists_as_one_loop(game, monkeypatch, moves):
    fast = game(KINDS, name="fast.tgpl")
    every = fast.compiled.classes["Seat"].find_action("Pick").inputs[0].filters[0][1].all
    assert every.__name__ == "_all_hoisted" and _loops(every) == 4  # red, green, blue, neither
    path = fast.program.main_module.path
    general = reference(path)
    for _ in range(2):
        a = outcome(fast, moves, str(path))
        assert a == outcome(general, moves, str(path))
    if moves == ["Seat#0.MGreen()"]:
        assert a[0] == "error" and "cannot read 'Value' of null" in a[2]
    else:
        assert a[0] == "ok"
