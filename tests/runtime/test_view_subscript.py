"""A fixed table's flat view taken from the memo by one subscript in a `try`
(`codegen.VIEW_BY_SUBSCRIPT`): games play as when it is taken by `get` and a test, with the view
remembered, made on every run (no memo left) or made once and the memo full after."""

from __future__ import annotations

import pytest

from tgpl.runtime import calls, codegen

from observed import EXAMPLE_PLAYS, EXAMPLES, assert_examples_play_alike, compiled_with_sources, switched


def test_tris_takes_its_view_by_a_subscript(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    assert any("_fv2 = MT0[1]\n" in src for src in sources)


@pytest.mark.parametrize("budget", [0, 1, 2, 3])
def test_tris_plays_alike_whatever_the_memo_holds(monkeypatch, budget):
    """Budget 0: nothing remembered (the table built on every run); 1: the table, never its view
    (made on every run); 2 and more: both."""
    monkeypatch.setattr(calls, "MEMO_BUDGET", budget)
    assert_examples_play_alike(switched(monkeypatch, (codegen, "VIEW_BY_SUBSCRIPT", False)), "tris.tgpl", range(2), 400)


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS)
def test_examples_play_alike_with_the_view_taken_by_get(monkeypatch, name, seeds, limit):
    assert_examples_play_alike(switched(monkeypatch, (codegen, "VIEW_BY_SUBSCRIPT", False)), name, seeds, limit)
