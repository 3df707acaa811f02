"""Order and Chaos on 6 x 6, written as a designer writes it from the rule sheet
(tests/data/designers/orderchaos.tgpl): both players put either mark, X or O, on an empty square (two actions of
one class); Order (player 0) wins when five equal marks stand in a row anywhere, Chaos when the board fills
without one. The row is found by a scan of the whole board after every move, each square's run counted by a
function that calls itself one square further on (`Run`), not by a loop.

The runtime is checked against an independent model: the move tree (perft) and seeded plays to the end, the marks
compared at every move. The lowering writes `Run` as a recursive relation (hand-written GDL's form), not a walk
unrolled per square (measured once on a shared two-core machine, not asserted: 74 rules, about 6 s CPU).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, model_results,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

SIZE = 6
SQUARES = [(x, y) for y in range(SIZE) for x in range(SIZE)]
ROWS = [[(x + k * dx, y + k * dy) for k in range(5)]
        for x, y in SQUARES for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))
        if 0 <= x + 4 * dx < SIZE and 0 <= y + 4 * dy < SIZE]
ORDER, CHAOS = 0, 1


@dataclass(frozen=True)
class Board:
    """The model's state: the marks as ((x, y), mark) with 1 an X and 2 an O, and the seat to move."""

    marks: tuple = ()
    who: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.marks))


def moves(s: Board) -> list:
    taken = {sq for sq, _ in s.marks}
    return [(sq, mark) for mark in (1, 2) for sq in SQUARES if sq not in taken]


def apply(s: Board, m: tuple):
    after = Board(s.marks + (m,), 1 - s.who)
    at = dict(after.marks)
    if any(at.get(row[0]) is not None and all(at.get(sq) == at[row[0]] for sq in row) for row in ROWS):
        return after, ORDER
    return after, (CHAOS if len(at) == SIZE * SIZE else None)


def text(s: Board, m: tuple) -> str:
    (x, y), mark = m
    return f"Hand#{s.who}.Put{'X' if mark == 1 else 'O'}(at: Squares[{x}][{y}])"


def observed(state) -> tuple:
    w = state.world
    return tuple(sorted(((x, y), int(f["Mark"])) for x, y in SQUARES
                        if (f := w.fields(w.named(f"Squares[{x}][{y}]")))["Mark"] != 0))


def runtime_start():
    return load_game(game("orderchaos")).initial_state(0)


def test_the_model_has_the_boards_32_rows_and_order_wins_on_five():
    assert len(ROWS) == 32
    s, result = Board(), None
    for x in range(4):  # X X X X across the bottom, O moves elsewhere between
        s, result = apply(s, ((x, 0), 1))
        assert result is None
        s, result = apply(s, ((x, 3), 2))
        assert result is None
    s, result = apply(s, ((4, 0), 1))
    assert result == ORDER


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 2) == model_perft(moves, apply, Board(), 2) == 72 * 70


@pytest.mark.parametrize("chooser", range(1, 7))
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Board(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_reach_both_results():
    assert model_results(moves, apply, Board(), [Lcg(c) for c in range(1, 7)]) == {ORDER, CHAOS}


def test_orderchaos_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("orderchaos"))


def test_orderchaos_lowers_its_run_as_a_recursive_relation(tmp_path):
    kif, _ = lowered_and_validated(game("orderchaos"), tmp_path / "orderchaos.kif")
    assert 0 < rules_with_a_body(kif) <= 120
    runs = [rule for rule in kif.split("\n\n") if rule.startswith("(<= (run ")]
    assert runs, "Run is not a relation of its own"
    assert any("(run " in rule[len("(<= (run "):] for rule in runs), "Run is not recursive"
