"""A filter's `_all_opt` made its plan's `_all_plan` (`tree_passes.as_plan`): the candidate kept in its
Python local only, and the loop over the pool taking that local itself; a plan naming `c` anywhere else
keeps its loop over `c`."""

from __future__ import annotations

import ast as py

from tgpl.runtime import codegen, load_game, tree_passes

from observed import EXAMPLES

OPT = """def _all_opt(m, this, v, pool):
    D = m.world.data
    try:
        out = []
        for c in pool:
            v[2] = l2 = c
            if D[l2]['A'] is None:
                out.append(c)
        return out
    except KeyError:
        return _all(m, this, v, pool)
"""


def plan(src: str) -> str:
    tree = py.parse(src)
    tree_passes.as_plan(tree.body[0], 2)
    return py.unparse(tree) + "\n"


def test_the_loop_takes_the_local():
    looped = plan(OPT)
    assert looped.startswith("def _all_plan(m, this, v, pool):\n")
    assert "        for l2 in pool:\n            if D[l2]['A'] is None:\n                out.append(l2)\n" in looped
    assert "l2 = c" not in looped and " c " not in looped and "v[2]" not in looped
    compile(looped, "<test>", "exec")


def test_a_plan_naming_the_candidate_elsewhere_is_kept():
    other = plan(OPT.replace("if D[l2]['A'] is None:", "if D[c]['A'] is None:"))
    assert "        for c in pool:\n            l2 = c\n            if D[c]['A'] is None:\n                out.append(c)\n" in other
    assert other.startswith("def _all_plan(") and "v[2]" not in other


def test_tris_lists_through_the_looped_plan(monkeypatch):
    compiled: list[str] = []
    real = compile
    monkeypatch.setattr(codegen, "compile", lambda tree, *a: (compiled.append(
        py.unparse(tree) if isinstance(tree, py.AST) else tree), real(tree, *a))[1], raising=False)
    monkeypatch.setattr(codegen, "COMPILED_CACHE", 0)  # every source compiled, not a code kept from a load before
    load_game(EXAMPLES / "tris.tgpl")
    made = next(src for src in compiled if "def _all_plan(" in src)
    assert "for l0 in pool:" in made and "out.append(l0)" in made
