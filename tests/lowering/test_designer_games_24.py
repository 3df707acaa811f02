"""Teeko on the 5 x 5 board, written as a designer writes it (tests/data/designers/teeko.tgpl): a game in two
phases, each player dropping four markers on empty spaces (phase `Drop`) and then moving one marker a king's step
to an empty space (phase `Move`), the phase chosen by `turn.pass(p, "Drop")` or `turn.pass(p, "Move")` from a
count of markers placed and each action's trigger reading `turn.phase.active()`; four in a line (across, down,
diagonal: lists of offsets) or on the corners of a 2 x 2 square win; after 30 turns, a draw.

The runtime is checked against an independent model (the board as 25 values): the move tree's first levels, a
square made by a step, and seeded plays to their end. The lowering spells its moves out and validates."""

from __future__ import annotations

from pathlib import Path

import pytest

from differential import lowered_and_validated, model_perft, plays_to_the_models_end, runtime_perft
from tgpl.lowering.compiled import board_count_passes
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE, MARKERS, DRAW_AFTER = 5, 4, 30

# the model's state: ((the board, board[x * SIZE + y]), the player to move, markers placed, turns played)
START = (((None,) * SIZE * SIZE,), 0, 0, 0)


def wins(board, who) -> bool:
    """Four of `who` in a straight line or on the corners of a 2 x 2 square."""
    def at(x, y):
        return board[x * SIZE + y] if 0 <= x < SIZE and 0 <= y < SIZE else None
    cells = [(x, y) for x in range(SIZE) for y in range(SIZE)]
    shapes = [[(k, 0) for k in range(4)], [(0, k) for k in range(4)], [(k, k) for k in range(4)],
              [(k, -k) for k in range(4)], [(0, 0), (1, 0), (0, 1), (1, 1)]]
    return any(all(at(x + dx, y + dy) == who for dx, dy in shape) for x, y in cells for shape in shapes)


def model_moves(state):
    (board,), who, placed, _ = state
    empty = [(x, y) for x in range(SIZE) for y in range(SIZE) if board[x * SIZE + y] is None]
    if placed < 2 * MARKERS:
        return [("drop", x, y) for x, y in empty]
    return [("shift", fx, fy, tx, ty) for fx in range(SIZE) for fy in range(SIZE) if board[fx * SIZE + fy] == who
            for tx, ty in empty if max(abs(tx - fx), abs(ty - fy)) == 1]


def model_apply(state, move):
    """The next state, and the result: the winner, "draw", or None while the play goes on."""
    (board,), who, placed, turns = state
    board = list(board)
    if move[0] == "drop":
        board[move[1] * SIZE + move[2]] = who
        placed += 1
    else:
        board[move[1] * SIZE + move[2]] = None
        board[move[3] * SIZE + move[4]] = who
    turns += 1
    result = who if wins(board, who) else ("draw" if turns >= DRAW_AFTER else None)
    return ((tuple(board),), 1 - who, placed, turns), result


def model_text(state, move) -> str:
    who = state[1]
    if move[0] == "drop":
        return f"Player#{who}.Place(where: Spaces[{move[1]}][{move[2]}])"
    return f"Player#{who}.Shift(from: Spaces[{move[1]}][{move[2]}], to: Spaces[{move[3]}][{move[4]}])"


def positions(state) -> tuple:
    w = state.world
    board = []
    for x in range(SIZE):
        for y in range(SIZE):
            v = w.fields(w.named(f"Spaces[{x}][{y}]"))["Marker"]
            board.append(None if v is None else int(v))
    return (tuple(board),)


def test_the_models_shapes():
    board = [None] * 25
    for x, y in [(1, 1), (2, 1), (1, 2), (2, 2)]:
        board[x * SIZE + y] = 0
    assert wins(board, 0) and not wins(board, 1)
    board[2 * SIZE + 2] = None
    for k in range(4):
        board[(1 + k) * SIZE + (4 - k)] = 1   # the anti-diagonal from (1, 4) to (4, 1)
    assert wins(board, 1) and not wins(board, 0)


def test_teeko_move_tree_is_the_models():
    start = load_game(game("teeko")).initial_state(0)
    assert positions(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 3)]
    assert model == [25, 25 * 24]
    assert [runtime_perft(start, d) for d in range(1, 3)] == model


def test_after_the_drops_a_step_makes_the_square():
    """Eight drops, then only steps; Red steps its fourth marker into the corner of a square and wins."""
    state = load_game(game("teeko")).initial_state(0)
    model = START
    drops = [(0, 0), (4, 4), (0, 1), (4, 3), (1, 0), (3, 4), (3, 2), (2, 2)]
    steps = [(1, 0, 2, 0), (2, 2, 3, 3)]
    for i, move in enumerate([("drop",) + d for d in drops] + [("shift",) + s for s in steps]):
        moves = sorted(model_text(model, m) for m in model_moves(model))
        assert sorted(m.text for m in state.legal_moves()) == moves
        assert all(".Place(" in m for m in moves) == (i < 8)
        state = state.apply(state.resolve(model_text(model, move)))
        model, result = model_apply(model, move)
        assert positions(state) == model[0]
        assert result is None or i == len(drops) + len(steps) - 1
    assert result == 1 and state.is_terminal and state.goals[1] > state.goals[0]


@pytest.mark.parametrize("seed", range(12))
def test_teeko_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("teeko")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, positions)


def test_a_count_declared_in_the_loops_counts_over_the_loops_inside_it():
    """`Wins` declares `count` in the loop over directions and steps it in the loop over a line's four cells: a
    count over 4 passes, not the 400 of every loop around it (which made `auto` compile the moves); Nine Men's
    Morris's count, declared before its loop over the 24 points, keeps its 24."""
    assert board_count_passes(load_game(game("teeko")).program) == 4
    morris = Path(game("teeko")).parents[1] / "lowering" / "others" / "morris.tgpl"
    assert board_count_passes(load_game(str(morris)).program) == 24


def test_teeko_lowers_spelled_out_and_validates(tmp_path):
    """Its moves spelled out and validated by playouts to the end of the game: 538 rules with a body, 21 to 22 s
    of CPU and 81 MB, within issue 34's budgets. Compiled, as `auto` chose while it took `Wins`'s count for one
    over 400 passes, 1,127 rules, 50 s and 774 MB: the validation grounded the count's loop relation state by
    state."""
    text, _ = lowered_and_validated(game("teeko"), tmp_path / "teeko.kif")
    assert "Played one state at a time" not in text
    assert "(role player_0)" in text and text.count("\n(<=") <= 600
