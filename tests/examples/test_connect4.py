"""examples/connect4.tgpl: Connect Four on a 7 x 6 grid with gravity."""

from __future__ import annotations

import pytest

from example_harness import (
    SEEDS, apply_all, assert_check_clean, assert_replays, assert_same_seed_same_record, assert_sane_end,
    assert_tamper_rejected, field, load, play_random, texts,
)

NAME = "connect4"


def drop(player: int, column: int) -> str:
    return f"Player#{player}.Drop(column: Grid[{column}][0])"


def drops(*columns: int) -> list[str]:
    """Alternating drops, player 0 first, into the given columns."""
    return [drop(i % 2, c) for i, c in enumerate(columns)]


def disc(state, column: int, row: int):
    return field(state, f"Grid[{column}][{row}]", "Disc")


@pytest.fixture
def start():
    return load(NAME).initial_state(0)


# ------------------------------------------------------------------ generic
def test_check_is_clean():
    assert_check_clean(NAME)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end(seed):
    outcome = play_random(NAME, seed)
    assert_sane_end(outcome.state)
    discs = sum(1 for c in range(7) for r in range(6) if disc(outcome.state, c, r) is not None)
    assert discs == len(outcome.record.moves)
    assert 7 <= discs <= 42
    if len(outcome.state.ranking[0]) == 2:
        assert discs == 42


def test_same_seed_same_record_and_replay(tmp_path):
    text = assert_same_seed_same_record(NAME, 5, tmp_path)
    assert_replays(text, tmp_path)


def test_tampered_record_is_rejected(tmp_path):
    text = play_random(NAME, 2).record.to_json()
    # a drop into a cell that is not at the top of its column
    error = assert_tamper_rejected(text, 0, "Player#0.Drop(column: Grid[3][5])", tmp_path)
    assert "filter 1 of input" in error.reason and "rejects" in error.reason
    # player 1's disc on player 0's turn
    assert_tamper_rejected(text, 2, "Player#1.Drop(column: Grid[3][0])", tmp_path)


# ------------------------------------------------------------------ rules
def test_a_move_picks_one_of_the_seven_columns(start):
    assert start.active_player == 0
    assert texts(start) == [drop(0, c) for c in range(7)]


def test_a_disc_falls_to_the_bottom_and_discs_stack(start):
    state = start.apply(drop(0, 3))
    assert disc(state, 3, 5) == 0
    assert all(disc(state, 3, r) is None for r in range(5))
    state = state.apply(drop(1, 3))
    assert disc(state, 3, 4) == 1
    assert disc(state, 3, 5) == 0
    assert state.active_player == 0


def test_a_full_column_can_no_longer_be_chosen(start):
    state = apply_all(start, drops(0, 0, 0, 0, 0, 0))
    assert [disc(state, 0, r) for r in range(6)] == [1, 0, 1, 0, 1, 0]
    assert texts(state) == [drop(0, c) for c in range(1, 7)]


def test_a_vertical_four_wins_for_player_0(start):
    state = apply_all(start, drops(0, 1, 0, 1, 0, 1))
    assert not state.is_terminal
    state = state.apply(drop(0, 0))
    assert state.ranking == [[0]]
    assert state.goals == [100, 0]


def test_a_vertical_four_wins_for_player_1(start):
    state = apply_all(start, drops(0, 3, 1, 3, 0, 3, 1))
    assert not state.is_terminal
    state = state.apply(drop(1, 3))
    assert state.ranking == [[1]]
    assert state.goals == [0, 100]


def test_a_horizontal_four_wins(start):
    state = apply_all(start, drops(0, 0, 1, 1, 2, 2))
    assert not state.is_terminal
    state = state.apply(drop(0, 3))
    assert state.ranking == [[0]]


def test_three_in_a_row_with_a_gap_does_not_win(start):
    state = apply_all(start, drops(0, 0, 1, 1, 3, 3, 4))
    assert not state.is_terminal


DIAGONAL = [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]  # player 0: (0,5) (1,4) (2,3) (3,2)


def test_a_rising_diagonal_wins(start):
    state = apply_all(start, drops(*DIAGONAL[:-1]))
    assert not state.is_terminal
    state = state.apply(drop(0, DIAGONAL[-1]))
    assert [disc(state, c, 5 - c) for c in range(4)] == [0, 0, 0, 0]
    assert state.ranking == [[0]]


def test_a_falling_diagonal_wins(start):
    mirrored = [6 - c for c in DIAGONAL]
    state = apply_all(start, drops(*mirrored[:-1]))
    assert not state.is_terminal
    state = state.apply(drop(0, mirrored[-1]))
    assert state.ranking == [[0]]


def _drawing_order() -> list[int]:
    """Columns to fill the grid with no four in a row, alternating players.

    Colour of the cell `height` discs up column c: (height + g(c)) % 2 with g = 0 0 1 1 0 0 1;
    no four consecutive columns alternate g, so no line of four forms.
    """
    g = [0, 0, 1, 1, 0, 0, 1]

    def search(heights: list[int], order: list[int]) -> list[int] | None:
        if len(order) == 42:
            return order
        mover = len(order) % 2
        for c in range(7):
            if heights[c] < 6 and (heights[c] + g[c]) % 2 == mover:
                heights[c] += 1
                found = search(heights, order + [c])
                heights[c] -= 1
                if found:
                    return found
        return None

    order = search([0] * 7, [])
    assert order is not None
    return order


def test_a_full_grid_without_four_is_a_draw(start):
    order = _drawing_order()
    state = apply_all(start, drops(*order[:-1]))
    assert not state.is_terminal
    state = state.apply(drop(1, order[-1]))
    assert state.ranking == [[0, 1]]
    assert state.goals == [50, 50]
