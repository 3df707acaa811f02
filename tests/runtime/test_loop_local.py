"""A plan's filter loops over the pool with the candidate's local itself (`codegen._candidate_looped`):
a plan naming `c` anywhere else is kept as it is."""

from __future__ import annotations

from tgpl.runtime import codegen, load_game

from observed import EXAMPLES

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


def test_a_plan_naming_the_candidate_elsewhere_is_kept():
    other = PLAN.replace("if D[l2]['A'] is None:", "if D[c]['A'] is None:")
    assert codegen._candidate_looped(other, 2) == other


def test_tris_lists_through_the_looped_plan(monkeypatch):
    compiled: list[str] = []
    real = compile
    monkeypatch.setattr(codegen, "compile", lambda src, *a: (compiled.append(src), real(src, *a))[1], raising=False)
    monkeypatch.setattr(codegen, "COMPILED_CACHE", 0)  # every source compiled, not a code kept from a load before
    load_game(EXAMPLES / "tris.tgpl")
    plan = next(src for src in compiled if "def _all_plan(" in src)
    assert "for l0 in pool:" in plan and "out.append(l0)" in plan
