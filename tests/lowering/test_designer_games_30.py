"""Four in a row on 6 x 6, a small Gomoku written as a designer writes it (tests/data/designers/gomoku6.tgpl): a
stone is a tile's `player` attribute, each point knows its own coordinates (set in the group's `default` block),
and the line through the stone just played is counted the way one counts on a real board: a `while` loop walks
each way along each of four directions while the stones are the mover's (`Run`), and four or more wins at once;
a full board without a line is a draw.

The runtime is checked against an independent model (the stones as a tuple, every window of four scanned after each
move) on the move tree's first levels and seeded plays to their end; `test_gomoku6_lowers_and_validates` holds
the lowering's result: the walks as one relation (`makesfour`), validated by playouts to the end
of the game, 30 rules with a body, 1.7 s of CPU and 62 MB."""

from __future__ import annotations

import pytest

from differential import lowered_and_validated, model_perft, model_results, plays_to_the_models_end, runtime_perft
from to_gdl_runs import rules_with_a_body
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE = 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

# the model's state: ((each point's stone, row by row: None, 0 or 1),), the seat to move
START = (((None,) * SIZE * SIZE,), 0)


def windows():
    """Every line of four points on the board, as lists of (x, y)."""
    for x in range(SIZE):
        for y in range(SIZE):
            for dx, dy in DIRECTIONS:
                line = [(x + k * dx, y + k * dy) for k in range(4)]
                if all(0 <= a < SIZE and 0 <= b < SIZE for a, b in line):
                    yield line


WINDOWS = tuple(windows())


def model_moves(state):
    (stones,), _ = state
    return [(x, y) for y in range(SIZE) for x in range(SIZE) if stones[y * SIZE + x] is None]


def has_four(stones, who) -> bool:
    return any(all(stones[b * SIZE + a] == who for a, b in line) for line in WINDOWS)


def model_apply(state, move):
    """The next state, and the result: the mover with four in a row, a draw on a full board, else None."""
    (stones,), who = state
    x, y = move
    stones = stones[:y * SIZE + x] + (who,) + stones[y * SIZE + x + 1:]
    nxt = ((stones,), 1 - who)
    if has_four(stones, who):
        return nxt, who
    return nxt, "draw" if None not in stones else None


def model_text(state, move) -> str:
    _, who = state
    return f"Bowl#{who}.Place(at: Points[{move[0]}][{move[1]}])"


def observed(state) -> tuple:
    w = state.world
    return (tuple(w.fields(w.named(f"Points[{x}][{y}]"))["Stone"] for y in range(SIZE) for x in range(SIZE)),)


def test_the_model_has_every_window_of_four():
    assert len(WINDOWS) == 3 * 6 * 2 + 3 * 3 * 2  # rows and columns, then both diagonals


def test_gomoku6_move_tree_is_the_models():
    start = load_game(game("gomoku6")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 3)]
    assert model == [36, 36 * 35]
    assert [runtime_perft(start, d) for d in range(1, 3)] == model


def test_a_line_of_four_wins_and_a_gap_does_not():
    """Black lays (0,0), (1,1), (3,3): no line (a gap at (2,2)); filling it joins four on the diagonal."""
    state, model = load_game(game("gomoku6")).initial_state(0), START
    for m in [(0, 0), (5, 0), (1, 1), (5, 1), (3, 3), (5, 3), (2, 2)]:
        state = state.apply(state.resolve(model_text(model, m)))
        model, result = model_apply(model, m)
        assert observed(state) == model[0]
    assert result == 0 and state.is_terminal and state.goals[0] > state.goals[1]


@pytest.mark.parametrize("seed", range(12))
def test_gomoku6_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("gomoku6")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_seeded_plays_end_both_ways():
    """Both seats win among the plays above (a draw is rare on a 6 x 6 board in random play)."""
    assert {0, 1} <= model_results(model_moves, model_apply, START, map(Lcg, range(12)))


def test_gomoku6_lowers_and_validates(tmp_path):
    """`MakesFour`'s `while` walks lower to one relation of the point and the mover (`makesfour`), read by the
    move's effect: the GDL plays as the runtime to the end of the game, well inside issue 34's 2,000 rules (30
    measured)."""
    text, _ = lowered_and_validated(game("gomoku6"), tmp_path / "g.kif")
    assert "(makesfour " in text
    rules = rules_with_a_body(text)
    assert 0 < rules <= 60
