"""Tables of where a function of the state can hold (tgpl.lowering.shapes) and the guards made of them.

A compiled boolean function that calls functions of the state is asked, in the GDL, only for the
rows its table keeps: chess's `CanMove(from, to)` for the targets the kind of piece on `from`
can ever reach. A table that misses a row would make moves disappear from the GDL; the
bisimulation of a small game with both kinds of guard, a planted wrong table, and chess's legal
moves along random plays check that none is missed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import tgpl.lowering.compiled as compiled
from differential import Lowered, bisimulate
from tgpl.asp.kif import to_kif
from tgpl.lowering.compiled import CompiledGame
from tgpl.lowering.shapes import Shape, shape_table
from tgpl.lowering.universe import Universe
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ROOT / "tests" / "data" / "lowering" / "shapes.tgpl"
CHESS = ROOT / "examples" / "chess" / "chess.tgpl"


def compiled_game(path: Path) -> Lowered:
    lw = Lowered.with_options(path, grounded_whole=True, moves="compiled")
    assert lw.lowered.stats["moves compiled"] == "yes"
    return lw


def test_both_guards_keep_the_runtimes_game():
    lw = compiled_game(SHAPES)
    kif = to_kif(lw.lowered.program)
    assert "(true (kind ?x2 ?guard))" in kif  # the Shift filter's demand reads the kind and the table
    assert "(<= (cango_go ?p0 ?p1)" in kif  # Flip's `!CanGo` instance answers false outside it
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states


def test_a_table_missing_a_row_is_another_game(monkeypatch):
    """Planted: the Jumpers' rows left out of the table; the bisimulation finds the moves gone."""
    def without_jumpers(*args, **kwargs):
        shape = shape_table(*args, **kwargs)
        return shape if shape is None else Shape(shape.split, frozenset(
            r for r in shape.rows if getattr(r[0], "name", None) != "Jumper"))
    monkeypatch.setattr(compiled, "shape_table", without_jumpers)
    lw = compiled_game(SHAPES)
    with pytest.raises(AssertionError):
        bisimulate(lw)


@pytest.fixture(scope="module")
def chess_table():
    game = load_game(str(CHESS))
    u = Universe.from_snapshot(snapshot(game.initial_state(0)))
    cg = CompiledGame(game.program, u)
    domains = {fl.attr: cg.domain(fl) for fl in cg.fluents.values() if not fl.numeric}
    chess = u.globals["Chess"]
    return game, shape_table(cg.hc, chess.cls.find_function("CanMove"), chess, domains)


def test_chess_can_move_is_split_by_the_kind_of_piece(chess_table):
    _, shape = chess_table
    assert shape.split == "Piece"
    knight_b1 = {r[2].name for r in shape.rows if getattr(r[0], "name", None) == "Knight" and r[1]
                 and r[1].name == "Board[1][7]" and r[2] is not None}
    assert knight_b1 == {"Board[0][5]", "Board[2][5]", "Board[3][6]"}  # a3, c3, d2
    kept = sum(1 for r in shape.rows if r[1] is not None and r[2] is not None and r[0] is not None)
    assert kept < 5000  # of 6 kinds x 64 x 64 = 24,576


def test_every_legal_chess_move_of_random_plays_is_in_the_table(chess_table):
    game, shape = chess_table
    rows = {(getattr(k, "name", None), a.name, b.name) for k, a, b in shape.rows if a is not None and b is not None}
    rng = random.Random(11)
    checked = 0
    for _ in range(3):
        state = game.initial_state(0)
        for _ in range(80):
            if state.is_terminal:
                break
            pieces = {o["name"]: o["fields"].get("Piece") for o in snapshot(state)["objects"]
                      if "Piece" in o.get("fields", {})}
            moves = state.legal_moves()
            for m in moves:
                inputs = dict(m.inputs)
                piece = pieces[inputs["from"][1]]
                assert (piece[1] if piece else None, inputs["from"][1], inputs["to"][1]) in rows, m.text
                checked += 1
            state = state.apply(rng.choice(moves))
    assert checked > 3000
