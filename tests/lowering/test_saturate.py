"""Counters saturated at the bound the game tests (tgpl.lowering.saturate, issue 34).

A counter written only by `+= 1` and by constants below its bound, and read only where it is compared with
numbers, is alike past the largest number it is compared with: lowered with its moves compiled, it is stepped only
below that bound plus one, so Nine Men's Morris's `Moves` (200 moves draw, checked in a phase the ways into
`Remove` reach only after another move) takes 0..201 instead of running past every bound. Which counters qualify
is decided on the source, every class's attribute of that name at once; these cases say where it must not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering.saturate import saturated_counters, saturated_value
from tgpl.pipeline import lower_game
from tgpl.runtime.game import load_game
from tgpl.validation import Differential, runtime_goals

GAME = """game "count";
players 2;

setup
{{
    turn.use("Round");
    turn.pass(0, "Play");
}}

global class Game
{{
    number Moves = 0;
    number Other = 0;
}}

class Seat
{{
    action Step
    {{
        trigger PlayerChoiceEvent {{ return true; }}
        effect
        {{
            {effect}
            turn.pass(player + 1, "Play");
        }}
    }}
}}

turn Round
{{
    phase Play
    {{
        {check}
    }}
    default {{ return player.active(); }}
}}
"""


def bounds(effect: str, check: str = "if (Game.Moves >= 20) { winner { {0, 1} }; }") -> dict[str, int]:
    program = load_program("count.tgpl", text=GAME.format(effect=effect, check=check))
    assert program.ok, [d.message for d in program.diagnostics]
    return saturated_counters(program, {"Moves", "Other"})


def test_a_move_counter_compared_with_numbers_is_saturated_one_past_the_largest():
    assert bounds("Game.Moves += 1;") == {"Moves": 21}
    assert bounds("Game.Moves += 1;", "if (Game.Moves == 7 || 3 < Game.Moves && Game.Moves != 30) { winner 0; }") \
        == {"Moves": 31}
    assert bounds("if (Game.Moves > 4) { Game.Moves = 0; } else { Game.Moves += 1; }") == {"Moves": 21}


@pytest.mark.parametrize("effect, check", [
    ("Game.Moves += 2;", None),  # past the bound by 2: the values past it would not be one value
    ("Game.Moves -= 1;", None),  # falls again from past the bound
    ("Game.Moves = Game.Moves + 1;", None),  # read in arithmetic
    ("Game.Moves += 1; Game.Other = Game.Moves;", None),  # its value copied
    ("Game.Moves += 1;", "if (Game.Moves >= Game.Other) { winner 0; }"),  # compared with another number
    ("Game.Moves = 25;", None),  # set past the bound
    ("Game.Moves += 1;", "if (Game.Other >= 3) { winner 0; }"),  # never compared: no bound to saturate at
])
def test_a_counter_read_or_written_otherwise_is_not_saturated(effect, check):
    found = bounds(effect) if check is None else bounds(effect, check)
    assert "Moves" not in found, found


def test_the_runtimes_value_is_cut_down_to_the_bound_for_the_validation():
    assert [saturated_value(x, 21) for x in (0.0, 20.0, 21.0, 22.0, 500.0)] == [0.0, 20.0, 21.0, 21, 21]
    assert saturated_value(500.0, None) == 500.0 and saturated_value(None, 21) is None


SATURATED = Path(__file__).resolve().parents[1] / "data" / "lowering" / "saturated.tgpl"


def test_a_counter_a_later_phase_tests_lowers_saturated_and_plays_as_the_runtime():
    """tests/data/lowering/saturated.tgpl: `Game.Moves += 1` in a phase a mover may stay in forever, tested only by
    `Game.Moves >= 4` in the phase after. Refused before, as Morris was ("numbers grow past 1000 with every fluent
    relaxed: 'Moves' ... not bounded by the game"); lowered saturated at 5, it holds 0..5, and a mover stepping
    eight times runs the runtime's Moves to 8 while the GDL's stays at 5, the same state once cut down; the game
    ends alike when it stops."""
    game = load_game(str(SATURATED))
    lowered = lower_game(game, moves="compiled")
    assert sorted(str(r) for r in lowered.program.rules if str(r).startswith("(base (moves ")) == [
        f"(base (moves game {k}))" for k in range(6)]
    d = Differential(game, lowered)
    state, g = d.start()
    for text in ["Seat#0.Step()"] * 8 + ["Seat#0.Stop()"]:
        state, g = d.apply(state, g, text)
        assert d.compare(state, g) is None, text
    assert state.is_terminal and g.is_terminal and runtime_goals(state) == [100, 0]


def test_it_validates_over_a_thousand_steps(tmp_path):
    out = tmp_path / "saturated.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(SATURATED), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    validated = out.read_text(encoding="utf-8").splitlines()[1]
    assert validated.startswith("; validated: ") and int(validated.split(" steps compared")[0].split()[-1]
                                                        .replace(",", "")) >= 1_000, validated
