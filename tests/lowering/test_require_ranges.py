"""A move's legality bounds the counters' ranges as an `if` in its effect does (issue 34).

tests/data/lowering/require_ranges.tgpl spends a stone from the hand (`InHand -= 1`) only
in a move that `require`s one (`InHand > 0`): the hand stays 0..3. The range search
(`segments.joint_ranges`, and `counter_ranges` where the counters together are too many)
took the move's paths as possible whatever the counter, since a segment's path starts from
the move and not from its legality: the hand went down to -2, one value per move a seat
makes. The same test in an input's filter, and as an `if` in the effect, give 0..3 too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.segments as segments
from differential import Lowered, bisimulate
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "tests" / "data" / "lowering" / "require_ranges.tgpl"
REQUIRE = "        require { return InHand > 0; }\n"
SPEND = "            InHand -= 1;\n"


def variant(form: str) -> str:
    source = GAME.read_text(encoding="utf-8")
    assert REQUIRE in source and SPEND in source
    if form == "filter":  # the test in the filter of an input the effect ignores
        source = source.replace(REQUIRE, "        input player to { return InHand > 0; }\n")
    elif form == "if":  # the move is legal with an empty hand, and spends nothing then
        source = source.replace(REQUIRE, "").replace(SPEND, "            if (InHand > 0) { InHand -= 1; }\n")
    return source


def hand_ranges(lw: Lowered) -> list[list[float]]:
    fluents = lw.lowered.emitter.logic.fluents
    return [fluents[(seat, "InHand")].domain for seat in ("Seat#0", "Seat#1")]


@pytest.mark.parametrize("search", ["together", "by counter"])
@pytest.mark.parametrize("form", ["require", "filter", "if"])
def test_the_hand_stays_within_what_the_move_allows(form, search, monkeypatch):
    if search == "by counter":  # the counters together give up at once: each counter is searched on its own
        monkeypatch.setattr(segments, "JOINT_LIMIT", 0)
    lw = Lowered.of_text(variant(form), path=str(GAME))
    assert hand_ranges(lw) == [[0.0, 1.0, 2.0, 3.0]] * 2
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and bisimulate(lw).states == runtime.states


@pytest.mark.parametrize("form", ["require", "filter", "if"])
def test_the_compiled_moves_bound_the_hand_by_the_moves_legality(form, tmp_path):
    """With the moves compiled, the counters' relaxation joins each way that writes a counter with the rules of
    its move's legality, their reads of the state before the move made one (compiled._with_legality): the
    `require` bounds `InHand -= 1` as the `if` does, and base lists the hand 0..3 (it used to be refused: "numbers
    grow past 1000"). The GDL is validated against the runtime by to-gdl itself."""
    from click.testing import CliRunner
    from tgpl.cli import main

    path, out = tmp_path / "hand.tgpl", tmp_path / "hand.kif"
    path.write_text(variant(form), encoding="utf-8")
    r = CliRunner().invoke(main, ["to-gdl", str(path), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "its moves compiled" in text
    for seat in ("seat_0", "seat_1"):
        hand = sorted(int(line.split()[-1].rstrip("))")) for line in text.splitlines()
                      if line.startswith(f"(base (inhand {seat} "))
        assert hand == [0, 1, 2, 3], (seat, hand)
