"""Yavalath on a hexagon of side 3, written as a designer writes it from the rule sheet
(tests/data/designers/yavalath.tgpl): players put a stone on an empty cell in turn; a line of four or more of
the mover's stones wins at once, a line of exactly three (without a four made by the same stone) loses at once,
and a full board is a draw. The hexagon is a 5x5 square grid in axial coordinates with its two corners blank,
the lines through a stone measured by a function that recurses along a direction (`Run`), not a loop.

The runtime is checked against an independent model of the rules (a plain-Python set of stones by axial
coordinates): the move tree's first levels, and seeded plays to their end with the legal placements, the
stones and the result compared at every move."""

from __future__ import annotations

import pytest

from differential import ends_as, model_perft, plays_to_the_models_end, runtime_perft
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

CELLS = tuple((q, r) for r in range(5) for q in range(5) if 2 <= q + r <= 6)
AXES = ((1, 0), (0, 1), (1, -1))
START = ((), 0)  # the stones as sorted ((q, r), owner) pairs, and the player to move


def model_moves(state) -> list[tuple[int, int]]:
    taken = {cell for cell, _ in state[0]}
    return [cell for cell in CELLS if cell not in taken]


def line(stones: dict, cell: tuple[int, int], axis: tuple[int, int]) -> int:
    """The length of the run of the owner of `cell`'s stones through it along `axis`."""
    who, n = stones[cell], 1
    for sign in (1, -1):
        q, r = cell
        while True:
            q, r = q + sign * axis[0], r + sign * axis[1]
            if stones.get((q, r)) != who:
                break
            n += 1
    return n


def model_apply(state, cell):
    """The next state, and the result: the winner's seat, "draw", or None while the play goes on."""
    placed, who = state
    stones = dict(placed)
    stones[cell] = who
    nxt = (tuple(sorted(stones.items())), 1 - who)
    lengths = [line(stones, cell, axis) for axis in AXES]
    if max(lengths) >= 4:
        return nxt, who
    if 3 in lengths:
        return nxt, 1 - who
    if len(stones) == len(CELLS):
        return nxt, "draw"
    return nxt, None


def model_text(who: int, cell: tuple[int, int]) -> str:
    return f"Side#{who}.Place(at: Cells[{cell[0]}][{cell[1]}])"


def stones(state) -> tuple:
    w = state.world
    return tuple(sorted((cell, owner) for cell in CELLS
                        if (owner := w.fields(w.named(f"Cells[{cell[0]}][{cell[1]}]"))["Stone"]) is not None))


def test_yavalath_move_tree_is_the_models():
    """19 cells first, then the tree to 4 plies (no line can be made before the 5th), as the model counts it."""
    start = load_game(game("yavalath")).initial_state(0)
    assert stones(start) == ()
    assert model_perft(model_moves, model_apply, START, 1) == 19
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model == [19, 19 * 18, 19 * 18 * 17]
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


@pytest.mark.parametrize("seed", range(16))
def test_yavalath_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("yavalath")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, lambda model, m: model_text(model[1], m), stones)


def test_a_three_that_is_also_a_four_wins():
    """The stone that closes a line of four while making a three on another axis wins (four before three)."""
    # white: (0,2) (1,2) (3,2) on the middle row and (2,1) (2,3) on the q=2 column; black plays far away
    white = [(0, 2), (1, 2), (3, 2), (2, 1)]
    black = [(4, 0), (0, 4), (4, 1), (1, 4)]
    state, model = load_game(game("yavalath")).initial_state(0), START
    for w, b in zip(white, black):
        for who, cell in ((0, w), (1, b)):
            state = state.apply(state.resolve(model_text(who, cell)))
            model, result = model_apply(model, cell)
            assert result is None and not state.is_terminal
    # (2,2) makes the row (0..3, 2) of four and the column (2, 1..2) of two: white wins
    state = state.apply(state.resolve(model_text(0, (2, 2))))
    model, result = model_apply(model, (2, 2))
    assert result == 0
    ends_as(state, 0)


def test_yavalath_lowers_with_its_recursion_keyed(tmp_path):
    """Lowered with its moves compiled, validated against the runtime over whole games; check-gdl accepts it.

    Its `Run` returns `1 + Run(next cell)`. The relaxation that finds the compiled rules' tables kept that
    result keyed by nothing, so its values grew to the bound and the three lines added up in the move
    grounded the bound's cube (stopped after 400 s); keyed by its arguments (`horn._self_reading`), the
    recursion ends where the walk leaves the hexagon."""
    from click.testing import CliRunner
    from tgpl.cli import main

    out = tmp_path / "yavalath.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("yavalath"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    assert lines[1].startswith("; validated: ") and "to the end of the game" in lines[1], lines[1]
    assert "1,0" in lines[1].split("playouts")[1], lines[1]  # at least 1,000 steps compared
    assert "its moves compiled" in lines[2], lines[2]
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output


def test_a_result_read_by_its_own_function_keeps_its_key_in_the_slice():
    """`run(q) = 1 + run(q + 1)` while the cell at q exists: the slice keeps q in both the call and the result,
    where before it kept the value alone (a result keyed by nothing, fed back through `1 +`)."""
    from tgpl.lowering.horn import _numeric_slice
    from tgpl.lowering.ir import Atom, Const, Rule, Var

    q, q1, v0, v, c = Var("Q"), Var("Q1"), Var("V0"), Var("V"), Var("C")
    rules = [
        Rule(Atom("Run|result@0", (q, Const("0"))), (Atom("Run|call@0", (q,)), Atom("#static:cell", (q, Const("null"))))),
        Rule(Atom("Run|call@0", (q1,)), (Atom("Run|call@0", (q,)), Atom("#static:cell", (q, c)),
                                         Atom("#plus", (q, Const("1"), q1)))),
        Rule(Atom("Run|result@0", (q, v)), (Atom("Run|call@0", (q,)), Atom("#static:cell", (q, c)),
                                            Atom("#plus", (q, Const("1"), q1)), Atom("Run|result@0", (q1, v0)),
                                            Atom("#plus", (Const("1"), v0, v)))),
    ]
    sliced = _numeric_slice(rules)
    heads = {r.head.relation: len(r.head.args) for r in sliced}
    assert heads == {"Run|result@0": 2, "Run|call@0": 1}
