"""Calls that return a number of the state (issue 34).

`Total(who)` in tests/data/lowering/morris_total.tgpl returns a seat's counter plus
another function's count: on each path a number the executor knows only as an
expression of the counter (a `Num`), one path per count. Numbers stay inline where
they are used; such a call was named as a relation instead, whose rows have no
constant for the number, and to-gdl stopped with a TypeError in the emitter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from differential import Lowered, bisimulate
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

ROOT = Path(__file__).resolve().parents[2]
MORRIS = ROOT / "tests" / "data" / "lowering" / "morris_total.tgpl"


@pytest.mark.parametrize("relations", [False, True], ids=["spelled", "functions-as-relations"])
def test_a_counter_plus_a_count_lowers_and_is_the_runtimes_game(relations):
    lw = Lowered.of(str(MORRIS), relations=relations)
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states == 23
