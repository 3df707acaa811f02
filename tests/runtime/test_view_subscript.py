"""A fixed table's flat view taken from the memo by one subscript in a `try`
(`BlockGenerator.fixed_table`)."""

from __future__ import annotations



from observed import EXAMPLES, compiled_with_sources


def test_tris_takes_its_view_by_a_subscript(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    assert any("_fv2 = MT0[1]\n" in src for src in sources)
