"""A fixed expression that reads only counters of counted loops (from 1 by 2, from -1, three of them
nested, one alone) is remembered under the counters' values (`BlockGenerator.fixed`): the game plays
as the plain reference does."""

from __future__ import annotations

import re
import textwrap

import pytest


from observed import compiled_with_sources, reference

CELLS = """
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
            Cell, Cell, Cell, Cell;
            Cell, Cell, Cell, Cell;
            Cell, Cell, Cell, Cell;
        }
    }
}
global class G { B Board = null; number Sum = 0; number Moves = 0; List<number> Sums = {}; }
class Seat
{
    action Go
    {
        require { return G.Moves < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect { G.Moves += 1; turn.pass(0, "Add"); }
    }
}
turn T
{
    phase Idle { }
    phase Add
    {
        // counters from 1 by 2, and from -1: (x - 1) * 3 + (y + 1)
        for (number x = 1; x < 4; x += 2)
        {
            for (number y = -1; y < 3; y += 1)
            {
                if (y >= 0) { G.Sum += (G.Board.Grid[x][y] as Cell).N * (x + 1); }
            }
        }
        // three counters
        for (number i = 0; i < 3; i += 1)
        {
            for (number j = 0; j < 3; j += 1)
            {
                for (number k = 0; k < 2; k += 1) { G.Sum += (G.Board.Grid[i + k][j] as Cell).N * (k + 1); }
            }
        }
        // one counter
        for (number c = 0; c < 4; c += 1) { G.Sum += (G.Board.Grid[c][2] as Cell).N * 100; }
        G.Sums.add(G.Sum);
        turn.pass(0, "Idle");
    }
}
setup
{
    G.Board = new B();
    number n = 1;
    for (number x = 0; x < 4; x += 1)
    {
        for (number y = 0; y < 3; y += 1) { (G.Board.Grid[x][y] as Cell).N = n * n; n += 1; }
    }
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "Idle");
}
"""


def _sums(game) -> tuple:
    state = game.initial_state(0)
    for _ in range(3):
        state = state.apply("Seat#0.Go()")
    world = state.world
    return tuple(world.fields(world.globals["G"])["Sums"]), state.key()


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "game.tgpl"
    p.write_text(textwrap.dedent(CELLS), encoding="utf-8")
    return p


def test_fixed_expressions_keyed_by_counters_play_as_the_reference(path, monkeypatch):
    game, sources = compiled_with_sources(path, monkeypatch)
    add = "\n".join(src for src in sources if "G.Sums" in src or "'Sums'" in src)
    assert re.search(r"MT\d+\.get\(\(_mk\d+ := ", add)  # remembered in the memo
    assert _sums(game) == _sums(reference(path))
    sums = _sums(game)[0]
    assert len(sums) == 3 and sums[0] > 0 and sums[1] == 2 * sums[0]
