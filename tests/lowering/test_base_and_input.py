"""Every lowered game declares `base` and `input`, complete: reference GGP validators require them, and
propnet reasoners build their base and input propositions from them (tgpl.asp.propnet).

The small examples are lowered here; the large ones are checked where their own tests lower them
(draughts: test_draughts_lowered.py, five in a row and chess: test_every_lowered_example.py, reversi:
test_loop_writes.py), with differential.declares_base_and_input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from differential import declares_base_and_input
from tgpl.asp.validate import validate
from tgpl.lowering.ir import Program
from tgpl.pipeline import lower_game
from tgpl.runtime import load_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMALL = ["cards", "connect4", "graph", "hex", "tris"]


@pytest.mark.parametrize("name", SMALL)
def test_a_lowered_example_declares_every_fluent_and_move(name):
    program = lower_game(load_game(EXAMPLES / f"{name}.tgpl")).program
    assert declares_base_and_input(program)
    # grounded whole, the validator checks that base holds every fluent the game can make true and input
    # every move it can make legal (its relaxed game), and warns when either is missing
    diagnostics = validate(program, f"{name}.kif", max_ground=None, grounding="once")
    assert not [d for d in diagnostics if d.is_error]
    assert not [d.message for d in diagnostics if "base" in d.message or "input" in d.message]


def test_a_game_without_them_is_found_out():
    program = lower_game(load_game(EXAMPLES / "tris.tgpl")).program
    without = Program(tuple(r for r in program.rules if r.head.relation != "input"))
    assert not declares_base_and_input(without)
    diagnostics = validate(without, "tris.kif", max_ground=None, grounding="once")
    assert any("input" in d.message for d in diagnostics)
