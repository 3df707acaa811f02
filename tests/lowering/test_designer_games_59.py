"""Connect6 on 7 x 7, written as a designer writes it from the rule sheet (tests/data/designers/connect6.tgpl): black
opens with one stone, then each player puts two stones a turn, kept by a counter of the stones left this turn (the
move passes control back to its own player while one is left); six in a line wins, found from the stone just put by
a `while` walk that counts the same colour outwards in a direction and in the opposite one; a full board is a draw.

The runtime is checked against an independent model (lines found over the whole board, not walked from the stone):
the move tree (perft) and seeded plays to the end, the stones compared at every move. Then `tgpl to-gdl` on it: it
lowers and is validated by playouts to the end of the game (measured once on a shared two-core machine, not
asserted: 214 rules, about 5 s CPU, 84 MB).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, model_results,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

SIZE = 7
POINTS = [(x, y) for x in range(SIZE) for y in range(SIZE)]
SIXES = [[(x + k * dx, y + k * dy) for k in range(6)]
         for x, y in POINTS for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))
         if 0 <= x + 5 * dx < SIZE and 0 <= y + 5 * dy < SIZE]


@dataclass(frozen=True)
class Connect6:
    """The model's state: the stones as ((x, y), seat), the seat to move and the stones it still puts this turn."""

    stones: tuple = ()
    who: int = 0
    left: int = 1

    def seen(self) -> tuple:
        return tuple(sorted(self.stones))


def moves(s: Connect6) -> list:
    taken = {p for p, _ in s.stones}
    return [p for p in POINTS if p not in taken]


def apply(s: Connect6, m: tuple):
    stones = s.stones + ((m, s.who),)
    at = dict(stones)
    if any(all(at.get(p) == s.who for p in six) for six in SIXES):
        return Connect6(stones, s.who, s.left - 1), s.who
    if len(stones) == SIZE * SIZE:
        return Connect6(stones, s.who, s.left - 1), "draw"
    if s.left == 1:
        return Connect6(stones, 1 - s.who, 2), None
    return Connect6(stones, s.who, s.left - 1), None


def text(s: Connect6, m: tuple) -> str:
    return f"Seat#{s.who}.Place(at: Points[{m[0]}][{m[1]}])"


def observed(state) -> tuple:
    w = state.world
    return tuple(sorted(((x, y), int(f["Stone"])) for x, y in POINTS
                        if (f := w.fields(w.named(f"Points[{x}][{y}]")))["Stone"] is not None))


def runtime_start():
    return load_game(game("connect6")).initial_state(0)


def test_the_model_has_the_boards_sixes_and_two_stones_a_turn():
    assert len(SIXES) == 2 * (7 * 2) + 2 * 2 * 2
    s, _ = apply(Connect6(), (3, 3))
    assert (s.who, s.left) == (1, 2)
    s, _ = apply(s, (0, 0))
    assert (s.who, s.left) == (1, 1)
    s, _ = apply(s, (0, 1))
    assert (s.who, s.left) == (0, 2)
    # an overline wins: six and a seventh across the middle row
    s = Connect6(tuple(((x, 3), 0) for x in (0, 1, 2, 4, 5, 6)) + (((0, 0), 1),), who=0, left=2)
    assert apply(s, (3, 3))[1] == 0


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 3) == model_perft(moves, apply, Connect6(), 3) == 49 * 48 * 47


@pytest.mark.parametrize("chooser", range(1, 11))
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Connect6(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_reach_every_result():
    assert model_results(moves, apply, Connect6(), [Lcg(c) for c in range(1, 11)]) == {0, 1, "draw"}


def test_connect6_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("connect6"))


def test_connect6_lowers_and_validates_to_the_end(tmp_path):
    kif, _ = lowered_and_validated(game("connect6"), tmp_path / "connect6.kif")
    assert 0 < rules_with_a_body(kif) <= 2_000
