"""A memo table bound in a generated function's prologue and read in one branch only is bound at
the start of that branch (`tree_passes.memo_tables_sunk`): games play as with every table bound on
entry (the plain reference); a table is never moved into a loop, a `try`, or where a read could come
before it."""

from __future__ import annotations

import ast as py
import textwrap

import pytest

from tgpl.runtime import tree_passes

from observed import EXAMPLES, after_pass, compiled_with_sources, same

HEAD = ("def _direct(m, this, v):\n    MM = m.world.memo\n    MT0 = MM[0] if MM is not None else _NO_FIELDS\n"
        "    MT1 = MM[1] if MM is not None else _NO_FIELDS\n")


def memo_tables_sunk(src: str) -> str:
    return after_pass(tree_passes.memo_tables_sunk, src)


def fn(body: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), "    ")


def test_a_table_read_in_one_branch_is_bound_there():
    src = fn("if (x := MT0.get(0)) is not None:\n    y = x\nelse:\n    y = 1\n    if m:\n        z = MT1.get(2)\n"
             "    else:\n        z = MT1.get(3)\nreturn y\n")
    assert memo_tables_sunk(src) == same(
        "def _direct(m, this, v):\n    MM = m.world.memo\n    MT0 = MM[0] if MM is not None else _NO_FIELDS\n"
        "    if (x := MT0.get(0)) is not None:\n        y = x\n    else:\n        y = 1\n"
        "        MT1 = MM[1] if MM is not None else _NO_FIELDS\n"
        "        if m:\n            z = MT1.get(2)\n        else:\n            z = MT1.get(3)\n    return y\n")
    compile(memo_tables_sunk(src), "<test>", "exec")


def test_deeper_in_ifs_of_ifs():
    src = fn("if m:\n    if m.f:\n        z = MT1[0]\nreturn MT0\n")
    assert "\n            MT1 = MM[1] if MM is not None else _NO_FIELDS\n            z = MT1[0]" in memo_tables_sunk(src)


@pytest.mark.parametrize("body", [
    "z = MT1.get(0)\nreturn MT0\n",  # at the top: left as it is
    "for x in m:\n    z = MT1.get(x)\nreturn MT0\n",  # never into a loop
    "while m:\n    z = MT1.get(0)\nreturn MT0\n",
    "if MT1.get(0):\n    z = MT1.get(1)\nreturn MT0\n",  # read by the test
    "if m:\n    z = MT1.get(0)\nelse:\n    z = MT1.get(1)\nreturn MT0\n",  # read by both branches
    "if m:\n    z = MT1.get(0)\nz = MT1\nreturn MT0\n",  # read after the if too
    "try:\n    z = MT1.get(0)\nexcept KeyError:\n    pass\nreturn MT0\n",  # not into a try
    "if m:\n    MT1 = {}\n    z = MT1.get(0)\nreturn MT0\n",  # bound again
    "if m:\n    MM = None\n    z = MT1.get(0)\nreturn MT0\n",
])
def test_a_table_read_elsewhere_is_bound_in_the_prologue(body):
    src = fn(body)
    assert memo_tables_sunk(src) == same(src)


def test_a_table_read_in_an_elif_only_is_bound_in_the_else_before_it():
    src = fn("if m:\n    pass\nelif MT1.get(0):\n    z = 1\nreturn MT0\n")
    assert "    else:\n        MT1 = MM[1] if MM is not None else _NO_FIELDS\n        if MT1.get(0):" in memo_tables_sunk(src)
    src = fn("if m:\n    pass\nelif m.f:\n    z = MT1.get(0)\nreturn MT0\n")
    assert "    elif m.f:\n        MT1 = MM[1] if MM is not None else _NO_FIELDS\n        z = MT1.get(0)" in memo_tables_sunk(src)


def test_a_table_read_nowhere_is_not_bound():
    src = fn("return MT0\n")
    assert "MT1" not in memo_tables_sunk(src) and "MT0 = MM[0]" in memo_tables_sunk(src)


def test_tris_binds_its_table_of_fixed_items_where_it_builds_its_table(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    made = [py.unparse(tree_passes.optimised(src)) for src in sources if "_fx_table(" in src]
    assert made
    for src in made:
        head = src[:src.index("    if (_ft")]
        assert "MT0 = MM[0]" in head and "MT1" not in head and "        MT1 = MM[1]" in src
