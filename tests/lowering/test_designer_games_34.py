"""Connect Four on 6 columns x 5 rows, written as a designer writes it (tests/data/designers/fourup.tgpl): the
move picks a column by its top hole, a `while` walks the disc down to the lowest empty hole, and the win is a
global function `LineLength(cell, dx, dy)` walking both ways from the new disc in four directions (not
examples/connect4.tgpl's style: no board functions, the holes carry their own X and Y); a full rack draws.

The runtime is checked against an independent model (the holes as a tuple, every window of four tried) on the
move tree's first levels, set positions and seeded plays to their end. Then the lowering as a designer tries it:
`tgpl check --lowerable` (the dry run) says it lowers with its moves spelled out (at most 30 ways to fill the
input, no loop writing the state), 1.3 s of CPU; `tgpl to-gdl` (auto) spells the moves out and validates by 51
playouts to the end of the game (1,006 steps), 272 rules with a body, 2.5 s of CPU, 67 MB; `--moves compiled`
validates the same way with 47 rules, 1.4 s of CPU, 63 MB."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, lowered_and_validated, model_end, model_perft, model_results,
                          played_beside, plays_to_the_models_end, runtime_perft)
from to_gdl_runs import rules_with_a_body
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

COLS, ROWS = 6, 5
# the model's state: ((each hole's disc, row by row from the top: None, 0 or 1), discs dropped), the seat to move
START = (((None,) * COLS * ROWS, 0), 0)


def disc(holes, x: int, y: int):
    return holes[y * COLS + x] if 0 <= x < COLS and 0 <= y < ROWS else None


def four_somewhere(holes, who: int) -> bool:
    """Whether `who` has four in a row anywhere: every window of four on the rack, in the four directions."""
    return any(all(disc(holes, x + k * dx, y + k * dy) == who for k in range(4))
               for x in range(COLS) for y in range(ROWS) for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)))


def model_moves(state):
    (holes, _), _ = state
    return [x for x in range(COLS) if holes[x] is None]


def model_apply(state, column):
    """The next state and the result: the mover on a four, a draw on a full rack, else None."""
    (holes, dropped), who = state
    y = max(r for r in range(ROWS) if disc(holes, column, r) is None)
    board = list(holes)
    board[y * COLS + column] = who
    holes, dropped = tuple(board), dropped + 1
    nxt = ((holes, dropped), 1 - who)
    if four_somewhere(holes, who):
        return nxt, who
    return nxt, "draw" if dropped == COLS * ROWS else None


def model_text(state, column) -> str:
    return f"Dropper#{state[1]}.Drop(column: Grid[{column}][0])"


def observed(state) -> tuple:
    w = state.world
    holes = tuple(w.fields(w.named(f"Grid[{x}][{y}]"))["Disc"] for y in range(ROWS) for x in range(COLS))
    return holes, int(w.fields(w.named("GameState"))["Discs"])


def test_fourup_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("fourup"))


def test_fourup_move_tree_is_the_models():
    start = load_game(game("fourup")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 5)]
    assert model[:3] == [6, 36, 216]
    assert [runtime_perft(start, d) for d in range(1, 5)] == model


def play(moves):
    """The moves played on the runtime and the model side by side (`played_beside`) from the start."""
    return played_beside(load_game(game("fourup")).initial_state(0), START, moves, model_apply, model_text, observed)


def test_a_disc_falls_onto_the_one_below_and_a_column_fills_up():
    """Five discs in column 2 fill it from the bottom; then column 2 is no longer a move."""
    state, model, result = play([2, 2, 2, 2, 2])
    assert result is None and [disc(model[0][0], 2, y) for y in range(ROWS)] == [0, 1, 0, 1, 0]
    assert "Dropper#1.Drop(column: Grid[2][0])" not in [m.text for m in state.legal_moves()]
    assert len(state.legal_moves()) == 5


def test_a_rising_diagonal_walked_both_ways_wins():
    """Player 0's fourth diagonal disc is dropped in the middle of the line (column 2), so the line is found
    only by walking both ways from it."""
    state, model, result = play([0, 1, 1, 3, 3, 3, 3, 2, 2, 5])
    assert result is None and not state.is_terminal  # (0,4) (1,3) (3,1) of player 0, (2,3) under the gap filled
    assert [disc(model[0][0], x, 4 - x) for x in range(4)] == [0, 0, None, 0]
    state, _, result = play([0, 1, 1, 3, 3, 3, 3, 2, 2, 5, 2])
    assert result == 0 and state.is_terminal and state.goals[0] > state.goals[1]


@pytest.mark.parametrize("seed", range(12))
def test_fourup_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("fourup")).initial_state(0), START, Lcg(seed), model_moves, model_apply,
                            model_text, observed)


def test_the_seeded_plays_end_both_ways():
    assert {0, 1} <= model_results(model_moves, model_apply, START, map(Lcg, range(12)))
    lengths = {model_end(model_moves, model_apply, START, Lcg(seed))[0][0][1] for seed in range(12)}
    assert len(lengths) > 3


def test_fourup_lowers_spelled_out_and_validates(tmp_path):
    """`auto` spells the moves out (6 ways to fill the input): 272 rules with a body measured."""
    text, _ = lowered_and_validated(game("fourup"), tmp_path / "f.kif")
    assert "; Played one state at a time" not in text
    assert 0 < rules_with_a_body(text) <= 320


def test_fourup_lowers_compiled_and_validates(tmp_path):
    out = tmp_path / "f.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("fourup"), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "to the end of the game" in text.splitlines()[1] and "; Played one state at a time (its moves compiled)" \
        in text
    assert 0 < rules_with_a_body(text) <= 60


def test_the_dry_run_says_it_lowers_spelled_out():
    r = CliRunner().invoke(main, ["check", "--lowerable", game("fourup")])
    assert r.exit_code == 0, r.output
    assert "fourup.tgpl: lowers; its moves spelled out one by one" in r.output, r.output
