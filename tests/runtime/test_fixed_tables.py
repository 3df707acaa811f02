"""A local table of fixed items built by a counted nest, whose items alone the code after reads,
is built once per setup (`BlockGenerator.fixed_table`, `tgpl.runtime.fixed_tables`). Games play,
pass the step limit and raise as when it is built on every run (the plain reference)."""

from __future__ import annotations


import pytest


from observed import EXAMPLES, compiled_with_sources, ends_with_limits, written_both_ways

TABLES = """
game "t";
players 1;
tile Cell { number N = 0; }
board B
{
    group Grid
    {
        geometry square;
        grid
        {
            Cell, Cell, Cell;
            Cell, Cell, Cell;
        }
    }
}
global class G { B Board = null; number Sum = 0; number Moves = 0; number Base = 5; }
class Seat
{
    action Go
    {
        input Cell at { return true; }
        require { return G.Moves < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect { G.Moves += 1; at.N += G.Moves; turn.pass(0, "Add"); }
    }
}
turn T
{
    phase Idle { }
    phase Add
    {
        // fixed: cells by counters, read item by item
        Table<Table<Cell>> cells = {};
        for (number x = 0; x < 3; x += 1)
        {
            cells[x] = {};
            for (number y = 0; y < 2; y += 1) { cells[x][y] = G.Board.Grid[x][y] as Cell; }
        }
        for (number i = 0; i < 3; i += 1) { G.Sum += cells[i][0].N + cells[i][1].N * 2; }
        // fixed, and one item missing: a null read
        Table<number> start = {};
        for (number k = 0; k < 2; k += 1) { start[k] = G.Base + k; }
        if (start[2] == null) { G.Sum += start[1]; }
        // not fixed: a field moves change
        Table<number> ns = {};
        for (number k = 0; k < 2; k += 1) { ns[k] = (G.Board.Grid[k][0] as Cell).N; }
        G.Sum += ns[0] + ns[1];
        // not fixed: a row read whole, an item stored after
        Table<Table<Cell>> rows = {};
        for (number x = 0; x < 2; x += 1)
        {
            rows[x] = {};
            for (number y = 0; y < 2; y += 1) { rows[x][y] = G.Board.Grid[x][y] as Cell; }
        }
        Table<Cell> row = rows[1];
        G.Sum += row[0].N;
        Table<number> later = {};
        for (number k = 0; k < 2; k += 1) { later[k] = G.Base * k; }
        later[0] = G.Moves;
        G.Sum += later[0] + later[1];
        // not fixed: an item reads a local that is not a counter
        number shift = G.Moves;
        Table<number> shifted = {};
        for (number k = 0; k < 2; k += 1) { shifted[k] = G.Base + shift; }
        G.Sum += shifted[1];
        // fixed, its items erring on the third move
        if (G.Moves == 3)
        {
            Table<Cell> bad = {};
            for (number k = 0; k < 2; k += 1) { bad[k] = G.Board.Grid[k + 2][0] as Cell; }
            G.Sum += bad[0].N;
        }
        turn.pass(0, "Idle");
    }
}
setup { G.Board = new B(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "Idle"); }
"""

MOVES = ["Seat#0.Go(at: Grid[0][0])", "Seat#0.Go(at: Grid[1][1])", "Seat#0.Go(at: Grid[2][0])"]


@pytest.fixture
def two(tmp_path, monkeypatch):
    """TABLES compiled with fixed tables, and with every table built on each run; the sources generated."""
    return written_both_ways(TABLES, tmp_path, monkeypatch)[:3]


def _ends(game, limits) -> list:
    """How the moves end with each step limit: the key after each, or the error as rendered."""
    return ends_with_limits(game, limits, MOVES)


def test_which_tables_are_fixed(two):
    _, _, sources = two
    check = [src for src in sources if "_fx_table(" in src]
    assert check
    # `cells`, `start` and `bad`; not `ns`, `rows`, `later` nor `shifted`
    assert all(src.count("_fx_table(") == 3 for src in check)


def test_moves_steps_and_errors_alike(two):
    fixed, plain, _ = two
    limits = [*range(0, 40), 100_000]
    ends = _ends(fixed, limits)
    assert ends == _ends(plain, limits)
    assert any(e[0] == "error" and "--max-steps" in e[2] for e in ends)
    assert ends[-1][0] == "error" and "--max-steps" not in ends[-1][2]  # `bad` errs, every time


def test_tris_takes_its_table(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    assert any("_fx_table(" in src for src in sources)
