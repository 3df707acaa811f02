"""Surakarta on its 6 x 6 board, written as a designer writes it from the rule sheet
(tests/data/designers/surakarta.tgpl): twelve stones a side; a move steps a stone to an empty square next to it, or
captures by travelling along one of the two circuits (lines 1 and 4, lines 2 and 3, joined by corner loops), either
way, over empty points (its own start included), through at least one loop, onto an enemy stone. The circuits are
two lists of coordinates in a global, walked by `for` loops with `break` in a function (`Attacks`) that the capture's
second input filters with; taking every enemy stone wins, a player who cannot move loses (the turn's `default` asks
`CanMove`, steps and captures), and after 50 moves more stones wins.

The runtime is checked against an independent model (the circuits built from the lines they run along, a loop met
where the walk changes line): the move tree and seeded plays to the end, the stones compared at every move. Then
`tgpl to-gdl` on it: it lowers with its moves compiled (2,592 ways to fill the two actions' inputs), `Attacks` and
`CanMove` as relations with variables, and is validated by playouts to the end of the game, played one state at a
time (measured on a shared two-core machine, not asserted: 233 rules, 86 to 91 s CPU, about 40 of them the lowering
and the rest the validation, 750 MB: past issue 34's 30 s).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, model_steps,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

SIZE = 6
SPOTS = [(x, y) for x in range(SIZE) for y in range(SIZE)]
LIMIT = 50


def circuit(k: int) -> list:
    """The circuit on lines k and 5 - k, point by point: row k rightwards, column 5 - k downwards, row 5 - k
    leftwards, column k upwards; the walk changes line (24 points, 6 a line) only through a corner loop."""
    return ([(x, k) for x in range(SIZE)] + [(SIZE - 1 - k, y) for y in range(SIZE)]
            + [(x, SIZE - 1 - k) for x in reversed(range(SIZE))] + [(k, y) for y in reversed(range(SIZE))])


CIRCUITS = [circuit(1), circuit(2)]


@dataclass(frozen=True)
class Surakarta:
    """The model's state: the stones as ((x, y), seat), the seat to move and the moves made."""

    stones: tuple = tuple(sorted([((x, y), 0) for x in range(SIZE) for y in (0, 1)]
                                 + [((x, y), 1) for x in range(SIZE) for y in (4, 5)]))
    who: int = 0
    made: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.stones))


def targets(at: dict, start: tuple, who: int) -> set:
    """The enemy stones the stone of `who` on `start` captures: along a circuit either way, over empty points or its
    own start, the first stone met taken if it is the enemy's and a loop was passed on the way."""
    found = set()
    for points in CIRCUITS:
        for i in (i for i, p in enumerate(points) if p == start):
            for way in (1, -1):
                looped, here = False, i
                for _ in range(len(points)):
                    there = (here + way) % len(points)
                    looped |= here // 6 != there // 6
                    here = there
                    p = points[here]
                    if p != start and p in at:
                        if at[p] != who and looped:
                            found.add(p)
                        break
    return found


def steps(at: dict, start: tuple) -> list:
    x, y = start
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (dx, dy) != (0, 0) and 0 <= x + dx < SIZE and 0 <= y + dy < SIZE and (x + dx, y + dy) not in at]


def legal(at: dict, who: int) -> list:
    mine = sorted(p for p, s in at.items() if s == who)
    return ([("Step", p, q) for p in mine for q in steps(at, p)]
            + [("Capture", p, q) for p in mine for q in sorted(targets(at, p, who))])


def moves(s: Surakarta) -> list:
    return legal(dict(s.stones), s.who)


def apply(s: Surakarta, m: tuple):
    _, start, end = m
    at = dict(s.stones)
    del at[start]
    at[end] = s.who
    after = Surakarta(tuple(sorted(at.items())), 1 - s.who, s.made + 1)
    mine, theirs = sum(v == s.who for v in at.values()), sum(v != s.who for v in at.values())
    if theirs == 0:
        return after, s.who
    if after.made == LIMIT:
        return after, (s.who if mine > theirs else 1 - s.who if theirs > mine else "draw")
    return after, (s.who if not legal(at, 1 - s.who) else None)


def text(s: Surakarta, m: tuple) -> str:
    kind, (x, y), (u, v) = m
    return f"Seat#{s.who}.{kind}(from: Grid[{x}][{y}], to: Grid[{u}][{v}])"


def observed(state) -> tuple:
    w = state.world
    return tuple(sorted(((x, y), int(f["Stone"])) for x, y in SPOTS
                        if (f := w.fields(w.named(f"Grid[{x}][{y}]")))["Stone"] is not None))


def runtime_start():
    return load_game(game("surakarta")).initial_state(0)


def test_the_model_captures_only_through_a_loop():
    assert [len(c) for c in CIRCUITS] == [24, 24] and CIRCUITS[0][5:7] == [(5, 1), (4, 0)]
    # (0, 1) runs left off row 1 round the top-left loop into column 1 and down it to (1, 3)
    at = {(0, 1): 0, (1, 3): 1, (3, 1): 1}
    assert targets(at, (0, 1), 0) == {(1, 3)}  # (3, 1) is on the same line, no loop between
    # passing its own start: (1, 1) sits on both lines of the inner circuit
    at = {(1, 1): 0, (4, 1): 1}
    assert (4, 1) in targets(at, (1, 1), 0)
    # a stone in the way blocks: (1, 2) the way through the top-left loop, (1, 4) the long way round the others
    assert targets({(0, 1): 0, (1, 2): 0, (1, 3): 1}, (0, 1), 0) == {(1, 3)}
    assert targets({(0, 1): 0, (1, 2): 0, (1, 4): 0, (1, 3): 1}, (0, 1), 0) == set()
    # the start has steps only: no loop is reachable with the circuits full of stones
    assert len(moves(Surakarta())) == 4 * 3 + 2 * 2


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 2) == model_perft(moves, apply, Surakarta(), 2) == 16 * 16


@pytest.mark.parametrize("chooser", range(1, 7))
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Surakarta(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_capture_and_reach_both_wins():
    plays = [list(model_steps(moves, apply, Surakarta(), Lcg(c))) for c in range(1, 7)]
    assert all(any(m[0] == "Capture" for m, _, _ in play) for play in plays)
    assert {play[-1][2] for play in plays} == {0, 1}


def test_surakarta_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("surakarta"))


def test_surakarta_lowers_its_moves_compiled_and_validates_to_the_end(tmp_path):
    kif, _ = lowered_and_validated(game("surakarta"), tmp_path / "surakarta.kif")
    assert 0 < rules_with_a_body(kif) <= 2_000
    assert "(its moves compiled)" in kif.splitlines()[2]
