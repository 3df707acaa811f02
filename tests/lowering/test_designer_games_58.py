"""Quixo on 5 x 5, written as a designer writes it from the rule sheet (tests/data/designers/quixo.tgpl): a move
takes a blank or own cube from the edge (one input) and pushes it back in at an end of its row or column (a second
input, filtered by the first); the cubes between slide one place along, by a `while` loop that walks from one end
to the other writing each cube's face. Five in a row wins, a row of the other's symbol loses even beside one's own,
and 80 pushes without a row are a draw.

The runtime is checked against an independent model: the move tree (perft) and seeded plays to the end, the faces
compared at every move. Then `tgpl to-gdl` on it: it lowers with its moves compiled, `Slide`'s `while` spelled out
pass by pass as a counted loop, its passes bounded by running `Slide` from `Push`, its one caller, on the cubes
`Push`'s filters admit (tgpl.lowering.while_passes: 4 passes; run on every pair of cubes, 5), and the GDL is
validated against the runtime by playouts to the end of the game (measured once on a shared two-core machine, not
asserted: 184 rules, about 11 s CPU under load, 127 MB). Before that bound, the
compiled moves were refused at the `while` ("a loop that reads 'Face', which it writes, and is not a counted loop of
at most 16 passes") and `auto` spelled the 625 ways of the move out, stopped at 300 s of wall time after 33 s of CPU
in `HasRow`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, model_results,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

SIZE = 5
CUBES = [(x, y) for x in range(SIZE) for y in range(SIZE)]
EDGE = [(x, y) for x, y in CUBES if x in (0, SIZE - 1) or y in (0, SIZE - 1)]
LINES = ([[(x, y) for x in range(SIZE)] for y in range(SIZE)] + [[(x, y) for y in range(SIZE)] for x in range(SIZE)]
         + [[(i, i) for i in range(SIZE)], [(i, SIZE - 1 - i) for i in range(SIZE)]])
LIMIT = 80


@dataclass(frozen=True)
class Quixo:
    """The model's state: the faces shown as ((x, y), seat) for every non-blank cube, the seat to move and the
    pushes made."""

    faces: tuple = ()
    who: int = 0
    pushes: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.faces))


def ends_of(take: tuple) -> list:
    """Where a cube taken at `take` may go back in: the ends of its row and its column, not its own place."""
    x, y = take
    ends = {(0, y), (SIZE - 1, y), (x, 0), (x, SIZE - 1)}
    return sorted(ends - {take})


def moves(s: Quixo) -> list:
    face = dict(s.faces)
    return [(take, put) for take in EDGE if face.get(take, s.who) == s.who for put in ends_of(take)]


def slid(face: dict, take: tuple, put: tuple, who: int) -> dict:
    """The faces after the cube at `take` is pushed in at `put`: the line between shifted one place towards take."""
    (x, y), (u, v) = take, put
    dx, dy = (u > x) - (u < x), (v > y) - (v < y)
    line = [(x + k * dx, y + k * dy) for k in range(max(abs(u - x), abs(v - y)) + 1)]
    after = dict(face)
    for here, there in zip(line, line[1:]):
        after.pop(here, None)
        if there in face:
            after[here] = face[there]
    after[put] = who
    return after


def has_row(face: dict, seat: int) -> bool:
    return any(all(face.get(c) == seat for c in line) for line in LINES)


def apply(s: Quixo, m: tuple):
    face = slid(dict(s.faces), m[0], m[1], s.who)
    after = Quixo(tuple(sorted(face.items())), 1 - s.who, s.pushes + 1)
    if has_row(face, 1 - s.who):
        return after, 1 - s.who
    if has_row(face, s.who):
        return after, s.who
    return after, ("draw" if after.pushes == LIMIT else None)


def text(s: Quixo, m: tuple) -> str:
    (x, y), (u, v) = m
    return f"Seat#{s.who}.Push(take: Cubes[{x}][{y}], put: Cubes[{u}][{v}])"


def observed(state) -> tuple:
    w = state.world
    return tuple(sorted(((x, y), int(f["Face"])) for x, y in CUBES
                        if (f := w.fields(w.named(f"Cubes[{x}][{y}]")))["Face"] is not None))


def runtime_start():
    return load_game(game("quixo")).initial_state(0)


def test_the_model_slides_a_row_and_a_row_of_the_other_loses():
    face = slid({(1, 0): 1, (2, 0): 0}, (0, 0), (4, 0), 0)
    assert face == {(0, 0): 1, (1, 0): 0, (4, 0): 0}
    assert len(EDGE) == 16 and sum(len(ends_of(t)) for t in EDGE) == 44
    s = Quixo(tuple(((x, 1), 1) for x in range(4)) + (((4, 0), 1),), who=0)
    # player 0 takes the blank (4, 4) and pushes it in at (4, 0): column 4 slides down, (4, 1) becomes a circle
    after, result = apply(s, ((4, 4), (4, 0)))
    assert dict(after.faces)[(4, 1)] == 1 and result == 1


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 3) == model_perft(moves, apply, Quixo(), 3)


@pytest.mark.parametrize("chooser", range(1, 9))
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Quixo(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_reach_both_wins():
    assert {0, 1} <= model_results(moves, apply, Quixo(), [Lcg(c) for c in range(1, 9)])


def test_quixo_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("quixo"))


def test_quixo_lowers_its_push_as_a_counted_loop_and_validates_to_the_end(tmp_path):
    kif, _ = lowered_and_validated(game("quixo"), tmp_path / "quixo.kif")
    assert 0 < rules_with_a_body(kif) <= 2_000
    assert "(its moves compiled)" in kif.splitlines()[2]
