"""Peg solitaire on the 15-hole triangle, for one player, written as a designer writes it from the rule sheet
(tests/data/designers/pegs.tgpl): the holes are the cells (x, y) of a 5 x 5 grid with x <= y; a jump's middle hole
found by a loop over six directions (`Between`); the end found by a search of the board with an early return in
nested loops (`AnyJump`); solved (`winner 0;`) with one peg left (`PegsLeft() == 1`, a count over the triangle),
else lost (`winner {};`, decision 96).

The runtime is checked against an independent model: the move tree (perft, and the number of solved ends over the
whole game tree from a position two jumps in), and seeded plays to the end, the pegs compared at every move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pytest

from differential import model_perft, runtime_perft
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

HOLES = [(x, y) for y in range(5) for x in range(y + 1)]
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]


@dataclass(frozen=True)
class Pegs:
    """The model's state: the holes with a peg."""

    pegs: frozenset = frozenset(HOLES) - {(0, 0)}


def moves(s: Pegs) -> list:
    out = []
    for x, y in HOLES:
        for dx, dy in DIRECTIONS:
            over, land = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
            if (x, y) in s.pegs and over in s.pegs and land in HOLES and land not in s.pegs:
                out.append(((x, y), land))
    return out


def apply(s: Pegs, m: tuple):
    (x, y), (x2, y2) = m
    after = Pegs(s.pegs - {(x, y), ((x + x2) // 2, (y + y2) // 2)} | {(x2, y2)})
    if moves(after):
        return after, None
    return after, ("solved" if len(after.pegs) == 1 else "lost")


def text(m: tuple) -> str:
    (x, y), (x2, y2) = m
    return f"Solver#0.Jump(from: Holes[{x}][{y}], to: Holes[{x2}][{y2}])"


def observed(state) -> frozenset:
    w = state.world
    return frozenset(h for h in HOLES if w.fields(w.named(f"Holes[{h[0]}][{h[1]}]"))["Peg"])


def runtime_start():
    return load_game(game("pegs")).initial_state(0)


def test_the_model_jumps_over_a_peg_into_a_hole():
    s, result = apply(Pegs(), ((0, 2), (0, 0)))
    assert result is None and (0, 1) not in s.pegs and (0, 0) in s.pegs and len(s.pegs) == 13
    assert sorted(moves(Pegs())) == [((0, 2), (0, 0)), ((2, 2), (0, 0))]


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 4) == model_perft(moves, apply, Pegs(), 4)


def test_the_solved_ends_of_a_whole_subtree_are_the_models():
    """Every play from the position after two fixed jumps, to its end: the runtime's solved and lost ends counted
    over the whole tree are the model's (a wrong end test or count shows here, not only in one play)."""
    state, model = runtime_start(), Pegs()
    for m in [((0, 2), (0, 0)), ((2, 3), (0, 1))]:
        state = state.apply(state.resolve(text(m)))
        model, _ = apply(model, m)

    @lru_cache(maxsize=None)
    def model_ends(pegs: frozenset) -> tuple[int, int]:
        s, solved, lost = Pegs(pegs), 0, 0
        for m in moves(s):
            after, result = apply(s, m)
            a, b = (int(result == "solved"), int(result == "lost")) if result else model_ends(after.pegs)
            solved, lost = solved + a, lost + b
        return solved, lost

    def runtime_ends(st) -> tuple[int, int]:
        if st.is_terminal:
            return (1, 0) if st.ranking == [[0]] and st.goals == [100] else (0, 1) if st.goals == [0] else (9, 9)
        solved = lost = 0
        for m in st.legal_moves():
            a, b = runtime_ends(st.apply(m))
            solved, lost = solved + a, lost + b
        return solved, lost

    expected = model_ends(model.pegs)
    assert expected[0] > 0 and expected[1] > 0
    assert runtime_ends(state) == expected


@pytest.mark.parametrize("chooser", range(1, 7))
def test_seeded_plays_end_as_the_model_says(chooser):
    rng, state, model, result = Lcg(chooser), runtime_start(), Pegs(), None
    while result is None:
        ms = moves(model)
        assert sorted(m.text for m in state.legal_moves()) == sorted(text(m) for m in ms)
        m = ms[rng.below(len(ms))]
        state = state.apply(state.resolve(text(m)))
        model, result = apply(model, m)
        assert observed(state) == model.pegs
    assert state.is_terminal
    assert (state.ranking, state.goals) == (([[0]], [100]) if result == "solved" else ([], [0]))
