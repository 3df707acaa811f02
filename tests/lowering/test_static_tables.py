"""A compiled function that reads no state is written as a table (its `@s` relations), whose rows the relaxation
finds. The relaxation drops every `not`, so such a table once held rows the function never gives where a rule
of it reads a relation under `not`: `Adjacent(a, b)`, a search over a's connections, answered `no` beside
`yes` for neighbours, and a move testing `!Adjacent(...)` emptied the cell it keeps
(tests/data/lowering/clone_or_jump.tgpl; the validation caught it). Such tables are now worked out exactly
(`CompiledGame.exact_tables`)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "clone_or_jump.tgpl"


def test_a_search_over_connections_read_under_not_lowers_compiled_and_validates(tmp_path):
    out = tmp_path / "g.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert text.splitlines()[1].startswith("; validated: ")
    rows = set(re.findall(r"^\(adjacent (\S+) (\S+) (yes|no)\)$", text, re.M))
    yes = {(a, b) for a, b, v in rows if v == "yes"}
    no = {(a, b) for a, b, v in rows if v == "no"}
    assert ("cells_0_0", "cells_0_1") in yes and not yes & no  # a pair is one or the other, never both
    assert ("cells_0_0", "cells_2_2") in no
