"""examples/hex.tgpl: Hex on a 5 x 5 rhombus, won by a connected chain."""

from __future__ import annotations

import pytest

from example_harness import (
    SEEDS, apply_all, assert_check_clean, assert_replays, assert_same_seed_same_record, assert_sane_end,
    assert_tamper_rejected, field, load, obj, play_random, texts,
)

NAME = "hex"


def cell(row: int, rank: int) -> str:
    """The name of the cell `rank` steps from the left edge of `row` (rows shift by ceil(row / 2))."""
    return f"Cells[{row}][{rank + (row + 1) // 2}]"


def claim(player: int, row: int, rank: int) -> str:
    return f"Player#{player}.Claim(cell: {cell(row, rank)})"


def claims(*cells: tuple[int, int]) -> list[str]:
    return [claim(i % 2, r, q) for i, (r, q) in enumerate(cells)]


@pytest.fixture
def start():
    return load(NAME).initial_state(0)


# ------------------------------------------------------------------ generic
def test_check_is_clean():
    assert_check_clean(NAME)


@pytest.mark.parametrize("seed", SEEDS + [8, 9, 10, 11])
def test_random_games_end_with_a_winner(seed):
    outcome = play_random(NAME, seed)
    assert_sane_end(outcome.state)
    assert len(outcome.state.ranking) == 1 and len(outcome.state.ranking[0]) == 1  # no draws in Hex
    assert len(outcome.record.moves) <= 25


def test_same_seed_same_record_and_replay(tmp_path):
    text = assert_same_seed_same_record(NAME, 4, tmp_path)
    assert_replays(text, tmp_path)


def test_tampered_record_is_rejected(tmp_path):
    outcome = play_random(NAME, 1)
    text = outcome.record.to_json()
    first = outcome.record.moves[0]["move"]
    taken = first.split("cell: ")[1].rstrip(")")
    # player 1 claims the cell player 0 has just claimed
    error = assert_tamper_rejected(text, 1, f"Player#1.Claim(cell: {taken})", tmp_path)
    assert "filter 1 of input" in error.reason and "rejects" in error.reason
    # a blank padding cell is not a cell of the board
    assert_tamper_rejected(text, 0, "Player#0.Claim(cell: Cells[0][6])", tmp_path)


# ------------------------------------------------------------------ the board
def test_the_padded_grid_is_a_rhombus_of_25_cells(start):
    cells = [o for o in start.world.objects if o.cls.name == "HexCell"]
    assert len(cells) == 25
    assert sorted(o.name for o in cells) == sorted(cell(r, q) for r in range(5) for q in range(5))
    assert obj(start, "Cells[0][6]").cls.name == "BlankTile"
    assert len(texts(start)) == 25


def test_neighbours_follow_the_hex_rhombus(start):
    """Two acute corners with 2 neighbours, two obtuse ones with 3, edges 4, inside 6."""
    degree = {o.name: len(start.world.fields(o)["connections"]) for o in start.world.objects if o.cls.name == "HexCell"}
    assert degree[cell(0, 0)] == 2 and degree[cell(4, 4)] == 2
    assert degree[cell(0, 4)] == 3 and degree[cell(4, 0)] == 3
    assert sorted(degree.values()) == [2, 2, 3, 3] + [4] * 12 + [6] * 9
    # axial neighbours of (row 2, rank 2): same row +-1, above rank 2 and 3, below rank 1 and 2
    around = {start.world.fields(c)["_to"] for c in start.world.fields(obj(start, cell(2, 2)))["connections"]}
    assert around == {cell(2, 1), cell(2, 3), cell(1, 2), cell(1, 3), cell(3, 1), cell(3, 2)}


def test_the_sides_of_each_player(start):
    board = obj(start, "HexBoard#0")
    assert [c.name for c in start.world.fields(board)["Top"]] == [cell(0, q) for q in range(5)]
    assert [c.name for c in start.world.fields(board)["Bottom"]] == [cell(4, q) for q in range(5)]
    assert [c.name for c in start.world.fields(board)["Left"]] == [cell(r, 0) for r in range(5)]
    assert [c.name for c in start.world.fields(board)["Right"]] == [cell(r, 4) for r in range(5)]


# ------------------------------------------------------------------ rules
def test_a_claimed_cell_cannot_be_claimed_again(start):
    state = start.apply(claim(0, 2, 2))
    assert field(state, cell(2, 2), "Owner") == 0
    assert state.active_player == 1
    assert claim(1, 2, 2) not in texts(state)
    assert len(texts(state)) == 24


def test_a_straight_chain_from_top_to_bottom_wins_for_player_0(start):
    moves = claims((0, 0), (0, 4), (1, 0), (1, 4), (2, 0), (2, 4), (3, 0), (3, 4), (4, 0))
    state = apply_all(start, moves[:-1])
    assert not state.is_terminal  # player 1's right edge runs top to bottom: not their goal
    state = state.apply(moves[-1])
    assert state.ranking == [[0]]
    assert state.goals == [100, 0]


def test_a_winding_chain_wins(start):
    # ranks 2, 1, 1, 0, 0 down the rows: each step is a hex neighbour, not a grid neighbour only
    moves = claims((0, 2), (4, 4), (1, 1), (3, 4), (2, 1), (2, 4), (3, 0), (1, 4), (4, 0))
    state = apply_all(start, moves[:-1])
    assert not state.is_terminal
    state = state.apply(moves[-1])
    assert field(state, cell(4, 0), "Owner") == 0
    assert state.ranking == [[0]]


def test_a_row_from_left_to_right_wins_for_player_1(start):
    moves = claims((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2), (0, 3), (2, 3), (0, 4), (2, 4))
    state = apply_all(start, moves[:-1])
    assert not state.is_terminal  # player 0 holds the whole top row: not their goal
    state = state.apply(moves[-1])
    assert state.ranking == [[1]]
    assert state.goals == [0, 100]


def test_a_broken_chain_does_not_win(start):
    # player 0 holds ranks 0 of rows 0, 1, 3, 4 and rank 2 of row 2: no path through row 2
    moves = claims((0, 0), (2, 0), (1, 0), (2, 1), (3, 0), (4, 4), (4, 0), (3, 4), (2, 2))
    state = apply_all(start, moves)
    assert not state.is_terminal
    state = state.apply(claim(1, 0, 4))
    assert not state.is_terminal


def _bfs_connects(owners: dict[str, int | None], player: int) -> bool:
    """The reference: a breadth-first search over the hex neighbours of the player's cells."""
    from tgpl.runtime.boards import neighbours

    cells = {(r, q) for r in range(5) for q in range(5)}
    name = {(r, q): cell(r, q) for r, q in cells}
    by_rc = {}  # (row, column in the padded grid) -> (row, rank)
    for r, q in cells:
        by_rc[(r, q + (r + 1) // 2)] = (r, q)
    mine = {c for c in cells if owners[name[c]] == player}
    start = {c for c in mine if (c[0] == 0 if player == 0 else c[1] == 0)}
    seen, todo = set(start), list(start)
    while todo:
        r, q = todo.pop()
        for nr, nc in neighbours("hex", "row", r, q + (r + 1) // 2):
            other = by_rc.get((nr, nc))
            if other in mine and other not in seen:
                seen.add(other)
                todo.append(other)
    return any((c[0] == 4 if player == 0 else c[1] == 4) for c in seen)


@pytest.mark.parametrize("seed", range(40))
def test_the_flood_finds_what_a_search_finds(seed):
    # The win check is a fixed number of sweeps (so that it lowers to GDL): after every claim it must
    # agree with a breadth-first search of the claimer's cells.
    import random

    rng = random.Random(seed)
    state = load(NAME).initial_state(0)
    while not state.is_terminal:
        mover = state.active_player
        state = state.apply(rng.choice(state.legal_moves()))
        owners = {o["name"]: o["fields"]["Owner"] for o in state.to_json()["objects"] if "Owner" in o["fields"]}
        assert state.is_terminal == _bfs_connects(owners, mover)
    assert state.ranking == [[mover]]
