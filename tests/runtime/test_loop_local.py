"""A plan's filter loops over the pool with the candidate's local itself (`codegen._candidate_looped`):
games list and play as with the candidate copied into its local each time (`listing.LOOP_LOCAL` off)."""

from __future__ import annotations

import pytest

from tgpl.runtime import codegen, listing, load_game

from observed import EXAMPLE_PLAYS, EXAMPLES, assert_examples_play_alike, switched

PLAN = """def _all_plan(m, this, v, pool):
    D = m.world.data
    try:
        out = []
        for c in pool:
            l2 = c
            if D[l2]['A'] is None:
                out.append(c)
        return out
    except KeyError:
        return _all(m, this, v, pool)
"""


def test_the_loop_takes_the_local():
    looped = codegen._candidate_looped(PLAN, 2)
    assert "        for l2 in pool:\n            if D[l2]['A'] is None:\n                out.append(l2)\n" in looped
    assert "l2 = c" not in looped and " c " not in looped


def test_a_plan_naming_the_candidate_elsewhere_is_kept(monkeypatch):
    other = PLAN.replace("if D[l2]['A'] is None:", "if D[c]['A'] is None:")
    assert codegen._candidate_looped(other, 2) == other
    monkeypatch.setattr(listing, "LOOP_LOCAL", False)
    assert codegen._candidate_looped(PLAN, 2) == PLAN


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS + [("fiveinarow.tgpl", range(1), 60),
                                                              ("connect4.tgpl", range(2, 4), 400)])
def test_examples_play_alike_with_the_candidate_copied(monkeypatch, name, seeds, limit):
    assert_examples_play_alike(switched(monkeypatch, (listing, "LOOP_LOCAL", False)), name, seeds, limit)


def test_tris_lists_through_the_looped_plan(monkeypatch):
    compiled: list[str] = []
    real = compile
    monkeypatch.setattr(codegen, "compile", lambda src, *a: (compiled.append(src), real(src, *a))[1], raising=False)
    monkeypatch.setattr(codegen, "COMPILED_CACHE", 0)  # every source compiled, not a code kept from a load before
    load_game(EXAMPLES / "tris.tgpl")
    plan = next(src for src in compiled if "def _all_plan(" in src)
    assert "for l0 in pool:" in plan and "out.append(l0)" in plan
