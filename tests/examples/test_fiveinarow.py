"""examples/fiveinarow.tgpl: five in a row on a 15 x 15 board, overlines included."""

from __future__ import annotations

import pytest

from example_harness import (
    apply_all, assert_check_clean, assert_replays, assert_same_seed_same_record, assert_sane_end,
    assert_tamper_rejected, load, play_random, texts,
)

NAME = "fiveinarow"
SIZE = 15
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

# Player 1's claims while player 0 builds a line: scattered along the top row, never five in a row.
FILLER = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 0), (12, 0)]


def claim(player: int, column: int, row: int) -> str:
    return f"Player#{player}.Claim(cell: Grid[{column}][{row}])"


def race(line: list[tuple[int, int]], other: list[tuple[int, int]], first: int = 0) -> list[str]:
    """Alternating claims from player 0 on: `first` claims the cells of `line` in order, the other player
    those of `other`, until the last cell of `line` is claimed."""
    cells = {first: list(line), 1 - first: list(other)}
    moves: list[str] = []
    while cells[first]:
        player = len(moves) % 2
        moves.append(claim(player, *cells[player].pop(0)))
    return moves


def board(state) -> dict[tuple[int, int], int | None]:
    """The grid as (column, row) -> the claiming player or None."""
    grid = {}
    for o in state.world.objects:
        if o.name.startswith("Grid["):
            column, row = (int(x) for x in o.name[5:-1].split("]["))
            grid[column, row] = state.world.fields(o)["Stone"]
    assert len(grid) == SIZE * SIZE
    return grid


def fives(grid: dict[tuple[int, int], int | None]) -> set[int]:
    """The players with five cells in a row somewhere, by a plain scan of every line of five."""
    found = set()
    for (c, r), who in grid.items():
        if who is None:
            continue
        for dc, dr in DIRECTIONS:
            if all(grid.get((c + k * dc, r + k * dr)) == who for k in range(5)):
                found.add(who)
    return found


@pytest.fixture
def start():
    return load(NAME).initial_state(0)


# ------------------------------------------------------------------ generic
def test_check_is_clean():
    assert_check_clean(NAME)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_games_end_with_the_right_goals(seed):
    outcome = play_random(NAME, seed)
    state = outcome.state
    assert_sane_end(state)
    grid = board(state)
    claimed = sum(1 for who in grid.values() if who is not None)
    assert claimed == len(outcome.record.moves)
    winners = fives(grid)
    if winners:
        # the game stops at the first five: only the last mover has one
        last = (claimed - 1) % 2
        assert winners == {last}
        assert state.ranking == [[last]]
    else:
        assert claimed == SIZE * SIZE
        assert state.goals == [50, 50]


def test_same_seed_same_record_and_replay(tmp_path):
    text = assert_same_seed_same_record(NAME, 6, tmp_path)  # a short game: 50 claims
    assert_replays(text, tmp_path)


def test_tampered_record_is_rejected(tmp_path):
    outcome = play_random(NAME, 6)
    text = outcome.record.to_json()
    taken = outcome.record.moves[0]["move"].split("cell: ")[1].rstrip(")")
    # player 1 claims the cell player 0 has just claimed
    error = assert_tamper_rejected(text, 1, f"Player#1.Claim(cell: {taken})", tmp_path)
    assert "filter 1 of input" in error.reason and "rejects" in error.reason


# ------------------------------------------------------------------ rules
def test_every_empty_cell_can_be_claimed(start):
    assert texts(start) == [claim(0, c, r) for r in range(SIZE) for c in range(SIZE)]  # creation order
    state = start.apply(claim(0, 7, 7))
    assert state.active_player == 1
    assert claim(1, 7, 7) not in texts(state)
    assert len(texts(state)) == SIZE * SIZE - 1


LINES = {
    "across": [(3, 7), (4, 7), (6, 7), (7, 7), (5, 7)],
    "down": [(7, 3), (7, 4), (7, 6), (7, 7), (7, 5)],
    "diagonal": [(3, 3), (4, 4), (6, 6), (7, 7), (5, 5)],
    "anti-diagonal": [(3, 11), (4, 10), (6, 8), (7, 7), (5, 9)],
    "across the last row": [(14, 14), (13, 14), (12, 14), (11, 14), (10, 14)],
    "down the last column": [(14, 10), (14, 11), (14, 12), (14, 13), (14, 14)],
    "corner anti-diagonal": [(0, 14), (1, 13), (2, 12), (3, 11), (4, 10)],
}


@pytest.mark.parametrize("direction", sorted(LINES))
@pytest.mark.parametrize("player", [0, 1])
def test_five_in_a_row_wins(start, direction, player):
    moves = race(LINES[direction], FILLER, first=player)
    state = apply_all(start, moves[:-1])
    assert not state.is_terminal
    state = state.apply(moves[-1])
    assert state.ranking == [[player]]
    assert state.goals == ([100, 0] if player == 0 else [0, 100])
    assert fives(board(state)) == {player}


@pytest.mark.parametrize("line, last", [
    ([(1, 7), (2, 7), (3, 7), (5, 7), (6, 7), (7, 7)], (4, 7)),      # seven across
    ([(0, 0), (1, 1), (2, 2), (3, 3), (5, 5)], (4, 4)),               # six along the diagonal from the corner
])
def test_an_overline_wins(start, line, last):
    state = apply_all(start, race(line + [last], [(c, 12) for c, _ in FILLER]))
    assert state.ranking == [[0]]


def test_a_blocked_line_does_not_win(start):
    # player 0: (3,7) (4,7) _ (6,7) (7,7) (8,7) with player 1 on (5,7)
    moves = race([(3, 7), (4, 7), (6, 7), (7, 7), (8, 7)], [(5, 7), (0, 0), (2, 0), (4, 0)])
    state = apply_all(start, moves)
    assert not state.is_terminal
    assert state.active_player == 1


def test_four_at_the_edge_and_a_row_that_wraps_do_not_win(start):
    # four against the right edge, then (12,3) (13,3) (14,3) going on at (0,4) (1,4) of the next row
    moves = race([(11, 3), (12, 3), (13, 3), (14, 3), (0, 4), (1, 4)], [(10, 3), *FILLER])
    state = apply_all(start, moves)
    assert not state.is_terminal
    assert fives(board(state)) == set()


def test_a_full_board_without_five_is_a_draw(start):
    # stripes two cells wide, shifted by one cell each row: no five in any direction
    cells = {0: [], 1: []}
    for c in range(SIZE):
        for r in range(SIZE):
            cells[(c + 2 * r) // 2 % 2].append((c, r))
    assert (len(cells[0]), len(cells[1])) == (113, 112)
    moves = [claim(i % 2, *cells[i % 2][i // 2]) for i in range(SIZE * SIZE)]
    state = apply_all(start, moves[:-1])
    assert not state.is_terminal
    state = state.apply(moves[-1])
    assert state.ranking == [[0, 1]]
    assert state.goals == [50, 50]
    assert fives(board(state)) == set()
