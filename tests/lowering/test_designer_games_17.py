"""Gobblers, tic-tac-toe whose bigger pieces cover smaller ones, written as a designer writes it
(tests/data/designers/gobblers.tgpl): twelve `Piece` objects in a global list, each holding the cell it stands
on (`Cell At`, null in hand), no state on the cells at all; a cell's top piece found by a scan of the list for
the biggest piece there (`Top`), the lines of three written out by index, asked for the mover and then for the
opponent (lifting a piece can uncover their line); a draw after 30 turns.

The runtime is checked against an independent model (a piece's cell as an index, stacks from sizes): the
move tree's first levels and seeded plays to their end. The lowering compiles the moves, the scan of the
pieces becoming rules with variables (131 rules with a body), and validates by playouts to the end of the game."""

from __future__ import annotations

import pytest

from differential import (lowered_and_validated, model_perft, mover_first_result, plays_to_the_models_end,
                          runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

DRAW_AFTER = 30
PIECES = 12
CELLS = [(x, y) for y in range(3) for x in range(3)]  # the order the runtime lists a move's cells in
LINES = ([[(i, 0), (i, 1), (i, 2)] for i in range(3)] + [[(0, i), (1, i), (2, i)] for i in range(3)]
         + [[(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)]])

# the model's state: ((each piece's cell, None in hand),), the player to move, turns played
START = (((None,) * PIECES,), 0, 0)


def owner(piece: int) -> int:
    return piece // 6


def size(piece: int) -> int:
    return piece % 6 // 2 + 1


def top(at, cell):
    """The biggest piece on `cell`, or None (the first of the list among equals: two pieces of one size never
    share a cell)."""
    here = [p for p in range(PIECES) if at[p] == cell]
    return max(here, key=size) if here else None


def three(at, who) -> bool:
    return any(all(top(at, c) is not None and owner(top(at, c)) == who for c in line) for line in LINES)


def model_moves(state):
    (at,), who, _ = state
    out = []
    for p in range(PIECES):
        if owner(p) != who or not (at[p] is None or top(at, at[p]) == p):
            continue
        for c in CELLS:
            t = top(at, c)
            if c != at[p] and (0 if t is None else size(t)) < size(p):
                out.append((p, c))
    return out


def model_apply(state, move):
    """The next state, and the result: the winner, "draw", or None while the play goes on."""
    (at,), who, turns = state
    at = list(at)
    at[move[0]] = move[1]
    turns += 1
    return ((tuple(at),), 1 - who, turns), mover_first_result(lambda p: three(at, p), who, turns, DRAW_AFTER)


def model_text(state, move) -> str:
    p, (x, y) = move
    return f"Seat#{state[1]}.Play(piece: Piece#{p}, to: Cells[{x}][{y}])"


def positions(state) -> tuple:
    w = state.world
    cells = {}
    for x, y in CELLS:
        cells[w.named(f"Cells[{x}][{y}]")] = (x, y)
    return (tuple(cells[a] if (a := w.fields(w.named(f"Piece#{p}"))["At"]) is not None else None
                  for p in range(PIECES)),)


def test_popping_a_piece_uncovers_what_it_covered():
    at = [None] * PIECES
    at[0], at[11] = (1, 1), (1, 1)  # a small of player 0 under a large of player 1
    assert top(at, (1, 1)) == 11
    at[11] = (0, 0)
    assert top(at, (1, 1)) == 0


def test_gobblers_move_tree_is_the_models():
    start = load_game(game("gobblers")).initial_state(0)
    assert positions(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model[0] == 6 * 9  # six pieces in hand, nine empty cells
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


@pytest.mark.parametrize("seed", range(12))
def test_gobblers_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("gobblers")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, positions)


def test_gobblers_lowers_compiled_and_validates(tmp_path):
    text, _ = lowered_and_validated(game("gobblers"), tmp_path / "gobblers.kif")
    assert "(play_2 seat_0 piece_0 cells_0_0) = Seat#0.Play(piece: Piece#0, to: Cells[0][0])" in text
    assert text.count("\n(<=") <= 400
