"""Items of a fixed table read by one lookup of its flat view (`tgpl.runtime.flat_views`): games
play, pass the step limit and raise as when every item is read from the table
(the plain reference)."""

from __future__ import annotations

import re

import pytest


from observed import EXAMPLES, compiled_with_sources, ends_with_limits, written_both_ways

VIEWS = """
game "t";
players 1;
tile Cell { number N = 0; Cell Mark = null; }
tile Wall { number N = 0; }
board B
{
    group Grid
    {
        geometry square;
        grid
        {
            Cell, Wall, Cell;
            Cell, Cell, Wall;
            Cell, Cell, Cell;
        }
    }
}
global class G { B Board = null; number Sum = 0; number Moves = 0; }
// called with items of a view
function Both
{
    function input Cell a;
    function input Cell b;
    returns Cell;
    effect
    {
        if (a.Mark != null && a.Mark == b.Mark) { return a.Mark; }
        return null;
    }
}
class Seat
{
    action Go
    {
        input Cell at { return true; }
        require { return G.Moves < 4; }
        trigger PlayerChoiceEvent { return true; }
        effect { G.Moves += 1; at.N += G.Moves; at.Mark = at; (G.Board.Grid[2][2] as Cell).Mark = at; turn.pass(0, "Add"); }
    }
}
turn T
{
    phase Idle { }
    phase Add
    {
        // a view: the walls are missing items, read as null
        Table<Table<Cell>> cells = {};
        for (number x = 0; x < 3; x += 1)
        {
            cells[x] = {};
            for (number y = 0; y < 3; y += 1) { cells[x][y] = G.Board.Grid[x][y] as Cell; }
        }
        for (number i = 0; i < 3; i += 1)
        {
            for (number j = 0; j < 3; j += 1)
            {
                if (cells[i][j] != null) { G.Sum += cells[i][j].N * (i + 1); } else { G.Sum += 100; }
            }
            if (cells[2][i] != null) { G.Sum += cells[2][i].N; }
        }
        if (cells[1][1] != null && cells[0][2] != null) { G.Sum += cells[1][1].N + cells[0][2].N; }
        Cell same = null;
        for (number i = 0; i < 3; i += 1)
        {
            same = Both(a: cells[i][2], b: cells[0][i]);
            if (same != null) { G.Sum += 7; }
        }
        same = Both(a: cells[1][1], b: cells[2][2]);
        if (same != null) { G.Sum += 70; }
        if (G.Moves == 3 && cells[2][2].N == 3) { same = Both(a: cells[1][0], b: cells[1][1]); }  // a wall, null: an error in Both
        // read the way it was: past the view, a key that is not whole, a counter past the view
        if (cells[1][5] == null && cells[0][0.5] == null) { G.Sum += 1; }
        for (number k = 0; k < 4; k += 1) { if (cells[2][k] == null) { G.Sum += 1000; } }
        // no view: a row is missing (rows 0 and 2 only); reading row 1 raises on the fourth move
        Table<Table<Cell>> gaps = {};
        for (number x = 0; x < 3; x += 2)
        {
            gaps[x] = {};
            for (number y = 0; y < 3; y += 1) { gaps[x][y] = G.Board.Grid[x][y] as Cell; }
        }
        if (gaps[2][0] != null) { G.Sum += gaps[2][0].N; }
        if (G.Moves == 4 && gaps[1][0] == null) { G.Sum += 1; }
        turn.pass(0, "Idle");
    }
}
setup { G.Board = new B(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "Idle"); }
"""

MOVES = ["Seat#0.Go(at: Grid[0][0])", "Seat#0.Go(at: Grid[1][1])", "Seat#0.Go(at: Grid[2][2])",
         "Seat#0.Go(at: Grid[2][0])"]


@pytest.fixture
def two(tmp_path, monkeypatch):
    """VIEWS compiled with flat views, and without; the sources generated with them."""
    return written_both_ways(VIEWS, tmp_path, monkeypatch)[:3]


def _ends(game, limits, moves=MOVES) -> list:
    """How the moves end with each step limit: the key and sum after each, or the error as rendered."""
    return ends_with_limits(game, limits, moves,
                            lambda state: (state.key(), state.world.data[state.world.globals["G"].place]["Sum"]))


def test_reads_take_the_view(two):
    _, _, sources = two
    add = [src for src in sources if "_fx_flat(" in src]
    assert add
    for src in add:
        assert src.count("_fx_flat(") == 2  # `cells` and `gaps` (whose view is False once made)
        keys: dict[str, set] = {}
        for view, key in re.findall(r"\((_fv\d+)\[([^\]]*)\] if", src):
            # a counter (its int, `_j3 * 3 + 1`), or a literal
            keys.setdefault(view, set()).add(re.sub(r"_j\d+|(?<=\* 3 \+ )\d+$", "j", key))
        # `cells[i][j]`, `cells[2][i]`, `cells[1][1]`, `cells[0][2]`, the arguments of `Both`; `gaps[2][0]`,
        # `gaps[1][0]`; not `cells[1][5]`, `cells[0][0.5]` nor `cells[2][k]` (past the view, not whole, a
        # counter past it)
        assert sorted(map(sorted, keys.values())) == [["2", "2 + j * 3", "3", "4", "6 + j", "8", "j", "j * 3 + j"],
                                                      ["3", "6"]]


def test_moves_steps_and_errors_alike(two):
    viewed, plain, _ = two
    limits = [*range(0, 60, 3), 100_000]
    ends = _ends(viewed, limits)
    assert ends == _ends(plain, limits)
    assert any(e[0] == "error" and "--max-steps" in e[2] for e in ends)
    last = ends[-1]
    assert last[0] == "error" and "in function Both" in last[2] and len(last[1]) == 2
    assert any(e[0] == "error" and "cannot index null" in e[2] for e in _ends(viewed, [100_000], MOVES[:2] + MOVES[3:] * 2))
    sums = [s for _, s in last[1]]
    assert sums == sorted(sums) and sums[0] > 1000


def test_tris_reads_its_view(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    assert any("_fx_flat(" in src and "_fv" in src for src in sources)
