"""Breakthrough on a 5 x 5 board, written as a designer writes it (tests/data/designers/breakthrough.tgpl): the
pawns are interactables standing on the squares (`move_to`), a capture puts the taken pawn in a box
(`discard` into a stack), and every question about the board is a search: the pawn on a square is a loop over
the list of every pawn (`PawnOn`), a square's column and row a scan of the grid (`ColOf`, `RowOf`), a player's
having a move a loop over pawns and squares (`HasMove`). The first pawn on the far row wins; a player left
without a move (no pawns, or all blocked) loses.

The runtime is checked against an independent model (each pawn's square, steps from coordinates): the move
tree's first levels and seeded plays to their end. Spelled out, the move's filter asks every search of every
square for every pawn and passes its budget at once; `auto` then compiles the moves, the capture's `discard` a
write of the pawn's `discarded` and `tile` (tgpl.lowering.compiled, `SegmentCompiler.discard`): it lowers and
validates by playouts to the end of the game, 102 rules with a body, 18 to 21 s of CPU (3.2 s of it lowering, the
rest the validation) and 195 MB (refused after 13.7 to 15.0 s before, `discard` outside the compiled subset)."""

from __future__ import annotations

import re

import pytest

from differential import lowered_and_validated, model_perft, plays_to_the_models_end, runtime_perft
from to_gdl_runs import rules_with_a_body
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE = 5


def start_pawns() -> tuple:
    """Pawn#i's square, in the order setup makes them: rows 0, 1 (White), then 3, 4 (Black), column by column."""
    return tuple((c, r) for r in (0, 1, 3, 4) for c in range(SIZE))


def owner(i: int) -> int:
    return 0 if i < 2 * SIZE else 1


# the model's state: ((each pawn's square, None once captured), the player to move)
START = ((start_pawns(),), 0)


def steps(pawns, who):
    """Every (pawn, column, row) `who` may move to: straight ahead onto an empty square, diagonally ahead onto a
    square that is empty or holds an enemy."""
    at = {sq: i for i, sq in enumerate(pawns) if sq is not None}
    ahead = 1 if who == 0 else -1
    out = []
    for i, sq in enumerate(pawns):
        if sq is None or owner(i) != who:
            continue
        c, r = sq[0], sq[1] + ahead
        for dc in (-1, 0, 1):
            t = (c + dc, r)
            if not (0 <= t[0] < SIZE and 0 <= r < SIZE):
                continue
            there = at.get(t)
            if there is None or (dc != 0 and owner(there) != who):
                out.append((i, t[0], r))
    return out


def model_moves(state):
    (pawns,), who = state
    return steps(pawns, who)


def model_apply(state, move):
    """The next state, and the winner (None while the play goes on)."""
    (pawns,), who = state
    i, c, r = move
    pawns = [None if sq == (c, r) else sq for sq in pawns]
    pawns[i] = (c, r)
    pawns = tuple(pawns)
    won = r == (SIZE - 1 if who == 0 else 0) or not steps(pawns, 1 - who)
    return ((pawns,), 1 - who), (who if won else None)


def model_text(state, move) -> str:
    i, c, r = move
    return f"Pawn#{i}.Advance(dest: Squares[{c}][{r}])"


def positions(state) -> tuple:
    w = state.world
    out = []
    for i in range(4 * SIZE):
        f = w.fields(w.named(f"Pawn#{i}"))
        if f["discarded"]:
            assert f["tile"] is None
            out.append(None)
        else:
            c, r = re.fullmatch(r"Squares\[(\d)\]\[(\d)\]", str(f["tile"])).groups()
            out.append((int(c), int(r)))
    return (tuple(out),)


def test_the_model_steps_and_captures_only_diagonally():
    pawns = [None] * 20
    pawns[0], pawns[10], pawns[11] = (1, 1), (1, 2), (2, 2)   # White at b2, Black straight ahead and beside it
    got = sorted(steps(tuple(pawns), 0))
    assert got == [(0, 0, 2), (0, 2, 2)]  # not straight onto Black, the diagonal capture and the empty diagonal
    (after,), _ = model_apply(((tuple(pawns),), 0), (0, 2, 2))[0]
    assert after[11] is None and after[0] == (2, 2)


def test_breakthrough_move_tree_is_the_models():
    start = load_game(game("breakthrough")).initial_state(0)
    assert positions(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model[0] == 13  # the five pawns of row 1: three steps each, two at the edges
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


def test_a_capture_boxes_the_pawn_and_reaching_the_far_row_wins():
    start = load_game(game("breakthrough")).initial_state(0)
    model = START
    # White's column-1 pawn runs up, taking on the way; Black shuffles on the other wing
    for m in [(6, 1, 2), (14, 4, 2), (6, 0, 3), (13, 3, 2), (6, 1, 4)]:
        assert sorted(x.text for x in start.legal_moves()) == sorted(model_text(model, y) for y in model_moves(model))
        start = start.apply(start.resolve(model_text(model, m)))
        model, result = model_apply(model, m)
        assert positions(start) == model[0]
    assert model[0][0][10] is None and model[0][0][16] is None  # two Black pawns in the box
    assert result == 0 and start.is_terminal and start.goals[0] > start.goals[1]


@pytest.mark.parametrize("seed", range(12))
def test_breakthrough_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("breakthrough")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, positions)


def test_breakthrough_lowers_with_its_moves_compiled(tmp_path):
    """Spelled out, the filter's `CanStep` asks `PawnOn`, `ColOf` and `RowOf` of every square for every pawn, each a
    search over the pawns' squares, past what the moves are worth; compiled, a capture's `discard` takes the pawn
    off the board: the GDL plays as the runtime to the end of the game, in issue 34's 500 rules."""
    text, _ = lowered_and_validated(game("breakthrough"), tmp_path / "b.kif")
    assert "its moves compiled" in text
    rules = rules_with_a_body(text)
    assert 0 < rules <= 500
