"""Every example that lowers: bounded `tgpl verify --horizon 6` works on it, and its GDL plays as the runtime.

The small examples have their own differential tests (test_lower_examples.py,
test_draughts_lowered.py); five in a row, the largest, is played here against
the runtime to the end of a few random plays. Which examples lower is itself
checked: a new example that lowers should join the list, and one that stops
lowering fails here.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import Lowered, declares_base_and_input, playout
from tgpl.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOWERABLE = ["cards", "connect4", "draughts", "fiveinarow", "graph", "hex", "tris"]
# the others, with the first reason each is refused for (every reason is listed, each located)
# lowered with its moves compiled (tgpl.lowering.compiled), but too large for the time-indexed encoding of
# `verify --horizon`: its rules are grounded one state at a time, so the bounded verify searches it state by state
SEARCHED_STATE_BY_STATE = ["chess/chess"]
# lowered with its moves compiled, checked by tests/lowering/test_loop_writes.py (its 4x4 midgame bisimulated)
COMPILED_ELSEWHERE = ["reversi"]
# lowered to GDL-II, their dice random's moves: checked by tests/lowering/test_chance_out.py
GDL_II = ["montyhall", "pig", "race"]
# lowered to GDL-II and validated by playouts in about 230 s of CPU, too long for a test: setup's deals random's
# first moves (decision 112), its hands' totals running totals (decision 113); its numbers' ranges, the costly
# part, are checked by tests/lowering/test_list_sums.py (docs/lowering.md, "Sums over a list that is state")
LOWERED_SLOWLY = ["treasure"]
REFUSED = {
    "citadels/citadels": "remove() on a local list is not lowerable",
}


def test_every_example_is_either_lowered_or_refused_here():
    games = {p.stem for p in EXAMPLES.glob("*.tgpl")}
    games |= {f"{d.name}/{d.name}" for d in EXAMPLES.iterdir() if (d / f"{d.name}.tgpl").exists()}
    assert games == (set(LOWERABLE) | set(REFUSED) | set(SEARCHED_STATE_BY_STATE) | set(COMPILED_ELSEWHERE)
                     | set(GDL_II) | set(LOWERED_SLOWLY))


@pytest.mark.parametrize("name", SEARCHED_STATE_BY_STATE)
def test_a_game_lowered_with_its_moves_compiled_is_verified_state_by_state(name, tmp_path, shared_lowering):
    """Each command below lowers the game, the same way: lowered once for the three (`shared_lowering`)."""
    out = tmp_path / "game.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(EXAMPLES / f"{name}.tgpl"), "--no-validate", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "(legal " in text
    assert "\n(base " in text and "\n(input " in text  # declared, as for every lowered game (test_base_and_input.py)
    r = CliRunner().invoke(main, ["verify", str(EXAMPLES / f"{name}.tgpl"), "--horizon", "6", "--max-states", "500"])
    assert r.exit_code == 0, r.output
    assert "searched state by state" in r.output and "--max-states" in r.output
    # made to ground its plays at once, it is refused, saying why and what to do instead
    r = CliRunner().invoke(main, ["verify", str(EXAMPLES / f"{name}.tgpl"), "--horizon", "6", "--grounding", "once"])
    assert r.exit_code == 2
    assert "ground instances" in r.output and "played one state at a time" in r.output
    assert "a larger --max-ground grounds it" not in r.output  # it would run out of memory instead
    assert "`tgpl verify --horizon` searches it state by state" in r.output


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_other_examples_are_refused_with_located_reasons(name):
    r = CliRunner().invoke(main, ["to-gdl", str(EXAMPLES / f"{name}.tgpl"), "--no-validate"])
    assert r.exit_code == 2
    first = r.output.splitlines()[0]
    assert re.match(r"\S+\.tgpl:\d+:\d+: error: not lowerable: ", first), first
    assert REFUSED[name] in first


@pytest.mark.parametrize("name", LOWERABLE)
def test_bounded_verify_to_horizon_6_works(name):
    r = CliRunner().invoke(main, ["verify", str(EXAMPLES / f"{name}.tgpl"), "--horizon", "6"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith("no problem found (bounded, up to 6 moves)")
    assert "stuck states: none within 6 moves" in r.output


def test_five_in_a_row_plays_as_the_runtime_to_the_end():
    lw = Lowered.of(str(EXAMPLES / "fiveinarow.tgpl"))
    assert declares_base_and_input(lw.lowered.program)
    rng = random.Random("five in a row lowered")
    for _ in range(2):
        record: list = []
        playout(lw, rng, max_steps=225, record=record)
        assert record[-1].terminal
