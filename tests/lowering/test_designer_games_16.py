"""Pop Out on a 4 x 4 grid, three in a row, written as a designer writes it (tests/data/designers/popout.tgpl):
a turn drops a disc into a column, picked by any of its holes (four moves of the same effect, as the designer
left them), or pops the mover's own disc out of the bottom of a column, the discs above falling one hole by a
loop that copies each hole from the one above; the win is a scan of the whole board for three in a row of a
player (nested loops over holes and four directions), asked for the mover and then for the opponent, whom a
pop can give a line; a draw after 24 moves.

The runtime is checked against an independent model (the board as 16 values, lines from coordinates): the move
tree's first levels and seeded plays to their end. The lowering compiles the moves, validates by playouts to
the end of the game and stays well inside issue 34's budget of rules."""

from __future__ import annotations

import pytest

from differential import (lowered_and_validated, model_perft, mover_first_result, plays_to_the_models_end,
                          runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE, DRAW_AFTER = 4, 24
DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]

# the model's state: ((board as board[c * SIZE + r], row 0 the bottom), the player to move, moves made)
START = (((None,) * SIZE * SIZE,), 0, 0)


def line(board, who) -> bool:
    """Three discs of `who` in a row, anywhere."""
    def at(c, r):
        return board[c * SIZE + r] if 0 <= c < SIZE and 0 <= r < SIZE else None
    return any(at(c, r) == who and at(c + dc, r + dr) == who and at(c + 2 * dc, r + 2 * dr) == who
               for c in range(SIZE) for r in range(SIZE) for dc, dr in DIRECTIONS)


def model_moves(state):
    (board,), who, _ = state
    drops = [("drop", c, r) for r in range(SIZE) for c in range(SIZE) if board[c * SIZE + SIZE - 1] is None]
    pops = [("pop", c) for c in range(SIZE) if board[c * SIZE] == who]
    return drops + pops


def model_apply(state, move):
    """The next state, and the result: the winner, "draw", or None while the play goes on."""
    (board,), who, made = state
    board = list(board)
    c = move[1]
    column = board[c * SIZE:(c + 1) * SIZE]
    if move[0] == "drop":
        column[column.index(None)] = who
    else:
        column = column[1:] + [None]
    board[c * SIZE:(c + 1) * SIZE] = column
    made += 1
    return ((tuple(board),), 1 - who, made), mover_first_result(lambda p: line(board, p), who, made, DRAW_AFTER)


def model_text(state, move) -> str:
    who = state[1]
    if move[0] == "drop":
        return f"Seat#{who}.Drop(pick: Holes[{move[1]}][{move[2]}])"
    return f"Seat#{who}.Pop(bottom: Holes[{move[1]}][0])"


def positions(state) -> tuple:
    w = state.world
    owner = {None: None, 0: 0, 1: 1}
    return (tuple(owner[w.fields(w.named(f"Holes[{c}][{r}]"))["Disc"]] for c in range(SIZE) for r in range(SIZE)),)


def test_the_models_lines_are_three_in_a_row():
    board = [None] * 16
    for c, r in [(0, 0), (1, 1), (2, 2)]:
        board[c * SIZE + r] = 1
    assert line(board, 1) and not line(board, 0)
    board[2 * SIZE + 2] = None
    board[3 * SIZE + 3] = 1
    assert not line(board, 1)


def test_popout_move_tree_is_the_models():
    start = load_game(game("popout")).initial_state(0)
    assert positions(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model[:2] == [16, 16 * 16]  # four holes a column; no pop before the mover has a disc at the bottom
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


def test_a_pop_that_makes_the_opponents_line_loses():
    """Player 0 pops column 0 and lets player 1's discs fall into a row: player 1 wins on player 0's move."""
    start = load_game(game("popout")).initial_state(0)
    model = START
    for m in [("drop", 0, 0), ("drop", 0, 0), ("drop", 3, 0), ("drop", 1, 0), ("drop", 3, 0), ("drop", 2, 0)]:
        start = start.apply(start.resolve(model_text(model, m)))
        model, result = model_apply(model, m)
        assert result is None
    assert positions(start) == model[0]
    popped, result = model_apply(model, ("pop", 0))
    assert result == 1  # column 0 held 0 under 1: 1 falls beside 1 (column 1) and 1 (column 2)
    after = start.apply(start.resolve(model_text(model, ("pop", 0))))
    assert positions(after) == popped[0]
    assert after.is_terminal and after.goals[1] > after.goals[0]


@pytest.mark.parametrize("seed", range(12))
def test_popout_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("popout")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, positions)


def test_popout_lowers_compiled_and_validates(tmp_path):
    text, _ = lowered_and_validated(game("popout"), tmp_path / "popout.kif")
    assert "Played one state at a time (its moves compiled)" in text
    assert "(role player_0)" in text and text.count("\n(<=") <= 400
