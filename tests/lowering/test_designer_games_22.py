"""Hexxagon on a 4 x 4 hex rhombus, written as a designer writes it (tests/data/designers/hexxagon.tgpl): a move
clones a stone to a neighbouring cell or jumps it two cells away, `Adjacent` and `TwoAway` searches over the
tiles' `connections`, and the stones around the cell reached turn the mover's by a loop over its connections;
a player who cannot move passes (`CanMove`, a search of every pair of cells), the game ends after 20 moves or
on a full board, more stones winning.

It was refused after 24 s: spelled out, the stone counts split every move; compiled, the capture loop (bounded
by the cell's `connections.length`, which the compiler did not bound) was refused, and `!Adjacent(...)` read
a table that answered `no` beside `yes` for neighbours. Now the loop is spelled out pass by pass up to the
board's largest number of connections (`SegmentCompiler.static_bound`), and the tables of functions that read
no state are worked out with their negations (`CompiledGame.exact_tables`): it lowers compiled in seconds."""

from __future__ import annotations

from differential import lowered_and_validated
from tgpl.runtime.game import load_game

from test_designer_games_3 import game


def stones(state) -> dict[str, int]:
    w = state.world
    out = {}
    for r in range(4):
        for c in range(4):
            v = w.fields(w.named(f"Cells[{r}][{c}]"))["Stone"]
            if v is not None:
                out[f"{r}{c}"] = int(v)
    return out


def test_a_clone_keeps_its_stone_a_jump_leaves_and_landing_captures_around():
    state = load_game(game("hexxagon")).initial_state(0)
    assert stones(state) == {"00": 0, "33": 0, "03": 1, "30": 1}
    state = state.apply(state.resolve("Seat#0.Move(from: Cells[0][0], to: Cells[0][1])"))  # a neighbour: a clone
    assert stones(state) == {"00": 0, "01": 0, "33": 0, "03": 1, "30": 1}
    state = state.apply(state.resolve("Seat#1.Move(from: Cells[0][3], to: Cells[0][2])"))  # takes 01 beside it
    assert stones(state) == {"00": 0, "01": 1, "02": 1, "03": 1, "33": 0, "30": 1}
    state = state.apply(state.resolve("Seat#0.Move(from: Cells[3][3], to: Cells[1][3])"))  # two away: a jump
    assert stones(state) == {"00": 0, "01": 1, "02": 0, "03": 0, "13": 0, "30": 1}


def test_hexxagon_lowers_compiled_and_validates(tmp_path):
    text, _ = lowered_and_validated(game("hexxagon"), tmp_path / "hexxagon.kif")
    assert text.count("\n(<=") <= 400
