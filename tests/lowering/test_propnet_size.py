"""The lowered Tris and Connect Four against hand-written GDL, in propositional-network components.

GGP agents that play by propositional network pay per component (tgpl.asp.propnet counts them as they
do: constants propagated, what no player reads removed). Issue 34 asks the lowered Connect Four to be
within 1.5x of examples/gdl/connect4.kif and Tris within 1.2x of examples/gdl/tictactoe.kif;
`python bench/propnet.py` prints the figures and the playout speeds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.asp.propnet import propnet_size
from tgpl.asp.reasoner import read_gdl
from tgpl.pipeline import lower_game
from tgpl.runtime import load_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def tris():
    return lower_game(load_game(EXAMPLES / "tris.tgpl")).program


@pytest.fixture(scope="module")
def connect4():
    return lower_game(load_game(EXAMPLES / "connect4.tgpl")).program


def test_tris_is_within_a_fifth_of_the_hand_written_network(tris):
    written = propnet_size(read_gdl(EXAMPLES / "gdl" / "tictactoe.kif")[0])
    assert propnet_size(tris).components <= 1.2 * written.components


def test_connect_four_is_within_half_again_the_hand_written_network(connect4):
    written = propnet_size(read_gdl(EXAMPLES / "gdl" / "connect4.kif")[0])
    assert propnet_size(connect4).components <= 1.5 * written.components


def test_a_counter_every_move_steps_has_no_frame_and_no_condition(tris, connect4):
    """Tris's TickedCount and Connect Four's Discs go up by one on every path of every move
    (emit: a write every move makes is written without a condition)."""
    for program, attr in ((tris, "tickedcount"), (connect4, "discs")):
        assert f"changed_{attr}" not in program.relations()
        steps = [r for r in program.rules if r.head.relation == "next" and r.head.args[0].name == attr]
        assert len(steps) == 1
        assert [a.relation for a, _ in steps[0].body_atoms()] == ["true", "succ"]


def test_win_checks_null_is_neither_player_holding_the_line(tris):
    """WinCheck's null case as "none of the other cases" (emit._else_as_negation): its rule reads only a
    relation of the lines the players hold, and no relation of two cells holding the same value is left."""
    nulls = [r for r in tris.rules if r.head.relation == "wincheck" and str(r.head.args[-1]) == "null"]
    assert nulls
    for rule in nulls:
        negated = [a for a, positive in rule.body_atoms() if not positive]
        assert len(negated) == 1
        holds = [r for r in tris.rules if r.head.relation == negated[0].relation]
        assert len(holds) == 2  # one rule per player: the three cells are the player's
