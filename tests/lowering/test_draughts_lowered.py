"""examples/draughts.tgpl lowered to GDL: the runtime's game, node for node to depth 4, and along random plays.

Draughts exercises what the placement games do not: a move from one square to
another chosen by two inputs (the second filtered by the first), captures that
empty a third square, compulsory capture (a filter that asks about the whole
board), chains of jumps as moves of a second phase by the same player, kings,
a counter that ends the game (forty quiet moves) and a loss by having no move,
decided on the state after the move. The perft tree is compared at every node
(state, terminal status, legal moves by their runtime texts), and its counts
are checked against the independent model of tests/examples/test_draughts.py.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from differential import Lowered, declares_base_and_input, playout

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "examples"))
from test_draughts import legal, make  # noqa: E402  (the independent model)

DEPTH = 4


@pytest.fixture(scope="module")
def lw() -> Lowered:
    return Lowered.of(str(ROOT / "examples" / "draughts.tgpl"))


def _model_perft(pos: dict, side: int, chain, depth: int) -> list[int]:
    """Nodes at each depth 0..depth of the model's game tree (the game cannot end this early)."""
    counts = [0] * (depth + 1)

    def walk(pos, side, chain, d):
        counts[d] += 1
        if d == depth:
            return
        for frm, to in sorted(legal(pos, side, chain)):
            after, again, _ = make(pos, frm, to)
            walk(after, side if again is not None else 1 - side, again, d + 1)

    walk(pos, side, chain, 0)
    return counts


def _start_position() -> dict:
    pos = {}
    for rank in range(6):
        for file in range(6):
            if (file + rank) % 2 == 0 and rank != 2 and rank != 3:
                pos[(file, rank)] = (0 if rank < 2 else 1, False)
    return pos


def test_perft_to_depth_4_is_the_runtimes_at_every_node(lw):
    d = lw.differential
    counts = [0] * (DEPTH + 1)

    def walk(state, g, depth):
        counts[depth] += 1
        diff = d.compare(state, g)
        assert diff is None, "; ".join(diff.lines("the GDL"))
        if depth == DEPTH or state.is_terminal:
            return
        for text in sorted(m.text for m in state.legal_moves()):
            walk(*d.apply(state, g, text), depth + 1)

    walk(*d.start(), 0)
    assert counts == _model_perft(_start_position(), 0, None, DEPTH)
    assert counts[-1] > 300  # 1, 5, 25, 106, 369


def test_random_plays_agree_with_the_runtime_to_the_end(lw):
    """Whole plays, compared at every step: jump chains, crowning and the end by no move or forty quiet
    moves happen in some of them."""
    rng = random.Random("draughts lowered")
    ends = set()
    for _ in range(12):
        record: list = []
        playout(lw, rng, max_steps=400, record=record)
        assert record[-1].terminal
        ends.add(tuple(record[-1].goals))
    assert len(ends) >= 2  # both players win in some play, or one wins and one is drawn


def test_the_rules_keep_the_board_as_sides_and_kings(lw):
    fluents = set(lw.lowered.emitter.logic.fluents)
    dark = [o.name for o in lw.lowered.emitter.logic.universe.objects
            if o.cls.name in ("__", "wM", "bM") and o.fields.get("Dark")]
    assert len(dark) == 18
    for sq in dark:
        assert {(sq, "Side"), (sq, "King")} <= fluents
    assert any(a == "Quiet" for _, a in fluents) and any(a == "Chain" for _, a in fluents)


def test_every_relation_the_rules_define_is_read(lw):
    """Relations named while emitting whose readers all went (folded away, or a disjunction named only to test
    it) are dropped: draughts had 80 of them, 177 rules an agent grounds for nothing."""
    from tgpl.lowering.lower import ROOTS

    rules = lw.lowered.program.rules
    read = {a.relation for r in rules for a, _ in r.body_atoms()}
    defined = {r.head.relation for r in rules}
    assert defined - read <= ROOTS


def test_base_and_input_are_declared(lw):
    assert declares_base_and_input(lw.lowered.program)
