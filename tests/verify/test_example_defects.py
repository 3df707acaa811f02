"""Planted defects in the examples (tests/data/defects): found by `tgpl verify`, witnesses replayed by the runtime.

The Tris variants are checked completely, through the runtime; the lowerable ones
also in bounded mode through the lowering (GDL -> ASP, clingo multi-shot), and
the Connect Four and Hex variants, too large for complete exploration, in
bounded mode only. Either way a witness is a list of the runtime's move texts, and replaying it
on the runtime must reach the defect.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.asp.bounded import bounded_verify
from tgpl.pipeline import lower_game
from tgpl.runtime import load_game
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore, verify

DEFECTS = Path(__file__).resolve().parents[1] / "data" / "defects"


def replay(name: str, witness) -> list:
    state = load_game(str(DEFECTS / name)).initial_state(0)
    states = [state]
    for line in witness:
        state = state.apply(line)
        states.append(state)
    return states


def reaches(kind: str, states: list, role: int | None = None) -> None:
    """The last state of a replayed witness shows the defect."""
    end = states[-1]
    if kind == "stuck":
        assert not end.is_terminal and end.legal_moves() == []
    elif kind == "goal":
        assert end.is_terminal and not any(end.ranking)
    elif kind == "cycle":
        keys = [s.key() for s in states]
        assert keys[-1] in keys[:-1]  # back in a state the play went through
    elif kind == "unwinnable":
        assert end.is_terminal and end.goals[role] < 100
    else:
        raise AssertionError(kind)


@pytest.mark.parametrize("name, kind", [
    ("tris_stuck.tgpl", "stuck"), ("tris_unwinnable.tgpl", "unwinnable"),
    ("tris_loop.tgpl", "cycle"), ("tris_no_winner.tgpl", "goal"),
])
def test_complete_verify_finds_the_tris_defects(name, kind):
    report = verify(explore(RuntimeMachine(load_game(str(DEFECTS / name)))))
    assert report["complete"] and not report["well_formed"]
    found = {p["kind"]: p for p in report["problems"]}
    assert set(found) == {kind}
    role = 1 if kind == "unwinnable" else None
    if kind == "unwinnable":
        assert found[kind]["role"] == "player 1"
    reaches(kind, replay(name, found[kind]["witness"]), role)


def _bounded(name: str, horizon: int):
    lowered = lower_game(load_game(str(DEFECTS / name)))
    texts = lowered.move_texts

    def move_text(joint) -> str:
        return next(texts[str(m)] for m in joint if str(m) != "noop")

    return bounded_verify(lowered.program, horizon, move_text=move_text)


@pytest.mark.parametrize("name, horizon, kind", [
    ("tris_unwinnable.tgpl", 9, "unwinnable"),
    ("tris_no_winner.tgpl", 9, "goal"),
    ("connect4_stuck.tgpl", 6, "stuck"),
    ("connect4_loop.tgpl", 2, "cycle"),
    ("connect4_no_winner.tgpl", 6, "goal"),
    ("hex_stuck.tgpl", 5, "stuck"),
    ("hex_loop.tgpl", 2, "cycle"),
    ("hex_no_winner.tgpl", 1, "goal"),
])
def test_bounded_verify_of_the_lowered_game_finds_the_defect(name, horizon, kind):
    report = _bounded(name, horizon)
    found = {p.kind: p for p in report.problems}
    assert kind in found, report.to_json()
    finding = found[kind]
    if kind == "unwinnable":
        assert report.complete and finding.role == "player_1"
        witness = report.best["player_1"][1]
    else:
        witness = finding.witness
    reaches(kind, replay(name, witness.lines), 1 if kind == "unwinnable" else None)


def test_a_stuck_tris_lowers_without_its_unread_tick_count():
    # Without the draw, the tick count of a stuck Tris is bounded only by the board filling up, which the
    # range analysis does not see, and it was refused there; but nothing reads the count now (the draw read
    # it), so it is no state of the lowered game (language decision 109): it lowers, its stuck states too.
    game = load_game(str(DEFECTS / "tris_stuck.tgpl"))
    lowered = lower_game(game)
    assert not any("tickedcount" in str(rule) for rule in lowered.program.rules)
    assert validate_translation(game, lowered).complete
