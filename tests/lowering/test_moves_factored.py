"""Terms alike but for their move, emitted as one term over "one of these moves" (emit._moves_factored)."""

from __future__ import annotations

import itertools
import random

from tgpl.lowering.emit import FACTORED_MOVES, _moves_factored
from tgpl.lowering.symbolic import CmpLit, ControlLit, MoveLit, conj, disj, evaluate3, lit, neg


def _truth(parts, world) -> bool:
    return bool(evaluate3(disj(*parts), lambda key: world[key]))


def test_factoring_is_exact_on_every_assignment():
    rng = random.Random(3)
    moves = [MoveLit(k) for k in range(6)]
    others = [ControlLit((0, "T", "P")), CmpLit("==", 1, 2), CmpLit("<", 3, 4)]
    for _ in range(40):
        parts = []
        for m in moves:
            rest = [lit(o) if rng.random() < 0.5 else neg(lit(o)) for o in others if rng.random() < 0.7]
            parts.append(conj(lit(m), *rest))
        parts += [conj(lit(moves[0]), lit(moves[1]))]  # two moves: never factored
        factored = _moves_factored(parts)
        keys = moves + others
        for values in itertools.product([False, True], repeat=len(keys)):
            world = dict(zip(keys, values))
            assert _truth(factored, world) == _truth(parts, world)


def test_alike_terms_become_one_over_their_moves():
    moves = [lit(MoveLit(k)) for k in range(FACTORED_MOVES)]
    common = [lit(ControlLit((0, "T", "P"))), lit(CmpLit("==", 1, 2))]
    out = _moves_factored([conj(m, *common) for m in moves])
    assert out == [conj(*common, disj(*moves))]
    fewer = [conj(m, *common) for m in moves[:FACTORED_MOVES - 1]]
    assert _moves_factored(fewer) == fewer


def test_a_disjunction_of_moves_alone_is_left_as_it_is():
    """Its factoring would be itself: emitted as a relation defined by itself, which never holds (a bug
    that made the lowered Tris lose its control writes, caught by to-gdl's validation)."""
    moves = [lit(MoveLit(k)) for k in range(FACTORED_MOVES + 2)]
    assert _moves_factored(moves) == moves
