"""Tic-tac-toe in a 3 x 3 x 3 cube, written as a designer writes it from the rule sheet
(tests/data/designers/cube3.tgpl): the cube is three boards of one kind (a level each, held by a global), a spot
found by its three coordinates (`SpotAt`, an `if` per level); a line is checked from the spot just marked along
13 directions listed in three number lists, each a `while` walk each way (`RunFrom`) added up; the middle of
the cube is barred on the first move.

The runtime is checked against an independent model: the move tree (perft) and seeded plays to the end, the marks
compared at every move (a 3 x 3 x 3 cube cannot be filled without a line: every play ends with a win).

The lowering (CPU measured once with /usr/bin/time on a shared two-core machine, not asserted): `tgpl to-gdl`
writes 162 rules with a body in about 4 s, validated by playouts to the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

CELLS = list(product(range(3), repeat=3))  # (x, y, z)
LINES = sorted({tuple(sorted(line)) for a in CELLS for d in product((-1, 0, 1), repeat=3) if any(d)
                for line in [[tuple(a[i] + k * d[i] for i in range(3)) for k in range(3)]]
                if all(0 <= v <= 2 for cell in line for v in cell)})


@dataclass(frozen=True)
class Cube:
    """The model's state: the marks as ((x, y, z), seat), the seat to move."""

    marks: tuple = ()
    who: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.marks))


def moves(s: Cube) -> list:
    taken = {cell for cell, _ in s.marks}
    return [c for c in CELLS if c not in taken and not (not s.marks and c == (1, 1, 1))]


def apply(s: Cube, m: tuple):
    after = Cube(s.marks + ((m, s.who),), 1 - s.who)
    mine = {cell for cell, by in after.marks if by == s.who}
    if any(m in line and set(line) <= mine for line in LINES):
        return after, s.who
    return after, ("draw" if len(after.marks) == 27 else None)


def name(cell: tuple) -> str:
    x, y, z = cell
    return f"Spots[{x}][{y}]" if z == 0 else f"Level#{z}.Spots[{x}][{y}]"


def text(s: Cube, m: tuple) -> str:
    return f"Marker#{s.who}.Mark(s: {name(m)})"


def observed(state) -> tuple:
    w = state.world
    return tuple(sorted((cell, int(f["Mark"])) for cell in CELLS
                        if (f := w.fields(w.named(name(cell))))["Mark"] is not None))


def runtime_start():
    return load_game(game("cube3")).initial_state(0)


def test_the_model_has_the_cubes_49_lines_and_wins_on_one():
    assert len(LINES) == 49
    s = Cube()
    for m in [(0, 0, 0), (2, 0, 0), (1, 1, 1)]:  # the middle is free once a mark is down
        s, result = apply(s, m)
        assert result is None
    s, result = apply(s, (0, 1, 0))
    s, result = apply(s, (2, 2, 2))  # player 0: the long diagonal
    assert result == 0


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 2) == model_perft(moves, apply, Cube(), 2) == 26 * 26


@pytest.mark.parametrize("chooser", range(1, 9))
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Cube(), Lcg(chooser), moves, apply, text, observed)


def test_cube3_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("cube3"))


def test_cube3_lowers_and_validates(tmp_path):
    kif, _ = lowered_and_validated(game("cube3"), tmp_path / "cube3.kif")
    assert 0 < rules_with_a_body(kif) <= 250
