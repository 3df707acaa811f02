"""A counter the game bounds in a later phase is bounded by the search that follows the control (issue 34).

tests/data/lowering/move_limit.tgpl steps `Game.Moves` where a man lands and ends the game
in the next phase (`Check`) once it reaches 12; the seats' hands (`InHand`) are counters too.
Where the counters together are too many states for `segments.joint_ranges` (Nine Men's
Morris: 200 moves times the hands and the men), each counter was searched with no control
(`segments.counter_ranges`): every step of `Moves` looked possible after the last, and the
game was refused at it ("takes more than 256 values", or, with several counters, "could not
be bounded within 2,000,000 cases" at the counter that grew most). Now each counter is first
searched alone with the control (`segments.alone_ranges`): the other counters' comparisons
unknown, the phase that ends the game at 12 followed. The tests make the joint search give up
at once, as it does on the full game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.segments as segments
from differential import Lowered, bisimulate
from tgpl.lowering.lower import NotLowerable
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "move_limit.tgpl"


@pytest.fixture
def counters_apart(monkeypatch):
    monkeypatch.setattr(segments, "JOINT_LIMIT", 0)


def test_the_move_counter_is_bounded_by_the_phase_that_ends_the_game(counters_apart):
    lw = Lowered.of(str(GAME))
    fluents = lw.lowered.emitter.logic.fluents
    assert fluents[("Game", "Moves")].domain == [float(x) for x in range(13)]
    assert [fluents[(s, "InHand")].domain for s in ("Seat#0", "Seat#1")] == [[0.0, 1.0, 2.0]] * 2
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and bisimulate(lw).states == runtime.states


def uncapped(monkeypatch) -> None:
    """The counters' ranges searched as they are, none capped (tests/lowering/test_capped_counters.py)."""
    monkeypatch.setattr(segments, "capped_counters", lambda *args: {})


def test_without_the_control_the_move_counter_runs_away(counters_apart, monkeypatch):
    monkeypatch.setattr(segments, "alone_ranges", lambda logic, lowering, numeric, **kw: ({}, []))
    uncapped(monkeypatch)
    with pytest.raises(NotLowerable, match="Game.Moves takes more than 256 values"):
        Lowered.of(str(GAME), gdl=False)


def test_a_counter_the_game_lets_grow_is_capped_or_refused_at_its_write(monkeypatch):
    """Without the phase tests, a mover may slide again in the Remove phase, forever, each slide stepping
    Moves with no Check between: Moves really grows without bound. Compared only with 12, it plays alike from
    13 up, and is capped there; not capped, the refusal says so at the write."""
    source = GAME.read_text(encoding="utf-8")
    unphased = source.replace(' && turn.phase.active() == "Act"', "")
    assert unphased != source
    logic = _logic_of_text(unphased)
    assert logic.caps == {"Moves": 13}
    assert logic.fluents[("Game", "Moves")].domain == [float(x) for x in range(14)]
    uncapped(monkeypatch)
    with pytest.raises(NotLowerable) as refused:
        _logic_of_text(unphased)
    e = refused.value
    line = source.splitlines()[e.span.line - 1]
    assert line.strip() == "Game.Moves += 1;"
    assert "Game.Moves takes more than 256 values" in str(e) and "ever larger" in str(e)


def _logic_of_text(text: str):
    from tgpl.frontend.loader import load_program
    from tgpl.lowering.lower import game_logic
    from tgpl.runtime.game import Game, compile_program
    from tgpl.runtime.snapshot import snapshot

    program = load_program(str(GAME), text=text)
    assert program.ok
    game = Game(program, compile_program(program))
    return game_logic(program, snapshot(game.initial_state(0)))
