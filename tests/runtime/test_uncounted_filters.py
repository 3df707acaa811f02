"""A filter's optimistic spellings whose test names no machine keep no count to set back on a miss
(`BlockGenerator.filter_all`): nothing in them counts a step."""

from __future__ import annotations

import re



from observed import EXAMPLES, compiled_with_sources


def test_tris_filter_keeps_no_count(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    plans = [src for src in sources if src.startswith("def _all_opt(")]
    assert plans and all("_st0" not in src for src in plans)


def test_a_filter_that_calls_keeps_its_count(monkeypatch):
    """connect4's and chess's filters call the game's functions (which may count steps)."""
    checked = []
    for name in ("connect4.tgpl", "chess/chess.tgpl"):
        _, sources = compiled_with_sources(EXAMPLES / name, monkeypatch)
        spelled = [src for src in sources if src.startswith("def _all_opt(")]
        for src in spelled:
            body = src[src.rindex("    try:\n"):src.rindex("    except")]  # the loop over the pool
            named = re.search(r"\bm\b", body) is not None
            assert ("_st0 = m.steps" in src) == named or ("_st0 = m.steps" in src and "_acc" in src)
            checked.append(named)
    assert True in checked and False in checked
