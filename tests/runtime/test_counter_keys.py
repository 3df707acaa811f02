"""A fixed expression that reads only counters of counted loops over whole numbers is remembered
under one int made of their ints (`BlockGenerator.counters_key`). Games play as when it is
remembered under the counters' values (the plain reference)."""

from __future__ import annotations

import re
import textwrap

import pytest

from tgpl.runtime import codegen

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


def test_counters_key_their_fixed_expressions(path, monkeypatch):
    game, sources = compiled_with_sources(path, monkeypatch)
    add = "\n".join(src for src in sources if "G.Sums" in src or "'Sums'" in src)
    keys = set(re.findall(r"MT\d+\.get\(\(_mk\d+ := (.*?)\)\)\) is not None", add))
    shapes = {re.sub(r"_j\d+", "J", k) for k in keys}
    # (x - 1) * 4 + (y + 1): x in 1, 3 and y in -1..2; i * 6 + k * 3 + j... in mixed radix; c alone
    assert shapes == {"((J - 1) * 4 + (J - -1))", "(J * 6 + J * 2 + J)", "J"}, keys
    plain = reference(path)
    assert _sums(game) == _sums(plain)
    sums = _sums(game)[0]
    assert len(sums) == 3 and sums[0] > 0 and sums[1] == 2 * sums[0]


def test_a_planted_collision_is_seen(path, monkeypatch):
    """Keys that forget all counters but the last: cells of different columns share a value."""
    plain = reference(path)
    monkeypatch.setattr(codegen.BlockGenerator, "counters_key", lambda self, counters: self.indexes[counters[-1]])
    wrong, _ = compiled_with_sources(path, monkeypatch)
    assert _sums(wrong) != _sums(plain)
