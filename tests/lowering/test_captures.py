"""Pieces that leave the board: `discard` (captures) and `assign` (ownership) after setup.

tests/data/lowering/captures.tgpl steps pieces along a strip (move_to), captures by
discarding the piece taken into a box (its `tile` becomes null, `discarded` true),
and takes over enemy pieces with assign (the owner is a fluent: it decides which
pieces a player may move, and `player` reads go through it). The lowered game must
be the runtime's, state for state; and a lowering of discard or assign that is
wrong in any of the ways planted below must fail that comparison.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.execute as execute
import tgpl.lowering.segments as segments
from differential import Lowered, bisimulate
from tgpl.cli import main
from tgpl.lowering.symbolic import TRUE
from tgpl.asp.verify import GdlMachine
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "captures.tgpl"


def _lowered(relations: bool = False) -> Lowered:
    return Lowered.of_text(GAME.read_text(encoding="utf-8"), str(GAME), relations=relations)


@pytest.mark.parametrize("relations", [False, True], ids=["calls", "functions-as-relations"])
def test_captures_lower_to_the_runtimes_game(relations):
    lw = _lowered(relations)
    fluents = {(o, a) for (o, a) in lw.lowered.emitter.logic.fluents}
    pieces = [o.name for o in lw.lowered.emitter.logic.universe.objects if o.cls.name == "Piece"]
    assert len(pieces) == 4
    for p in pieces:  # where it stands, whether it was captured, and who owns it: fluents
        assert {(p, "tile"), (p, "discarded"), (p, execute.OWNER)} <= fluents
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and runtime.states > 1000
    assert bisimulate(lw).states == runtime.states


class _Encoded(RuntimeMachine):
    """The runtime's states, noting each one's encoding as GDL fluents."""

    def __init__(self, lw: Lowered):
        super().__init__(lw.game)
        self.lw = lw
        self.encoded: set = set()

    def key(self, state):
        self.encoded.add(self.lw.lowered.state_fluents(snapshot(state)))
        return super().key(state)


def test_the_gdl_states_are_the_runtimes_up_to_the_order_of_the_box():
    """The box's contents are not fluents (no code reads them after setup): runtime states that differ only
    in the order pieces were captured in are one GDL state, and that is the only difference."""
    lw = _lowered()
    machine = _Encoded(lw)
    runtime = explore(machine)
    gdl = explore(GdlMachine(lw.gdl))
    assert runtime.complete and gdl.complete
    assert gdl.states == len(machine.encoded) < runtime.states  # 3,857 and 4,272


def test_the_rules_read_captures_and_owners():
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "--no-validate"])
    assert r.exit_code == 0, r.output
    text = r.output
    assert "(init (player piece_0 player_0))" in text and "(init (player piece_2 player_1))" in text
    assert "(init (discarded piece_0 no))" in text
    assert "(next (discarded " in text and "(next (player " in text


def _planted(monkeypatch, name: str, wrong) -> None:
    """Replace the lowering of the built-in `name` by `wrong(executor, path, target, vals, span)`."""
    original = execute.Executor.method

    def method(self, p, target, called, vals, span):
        if called == name:
            return wrong(self, p, target, vals, span)
        return original(self, p, target, called, vals, span)

    monkeypatch.setattr(execute.Executor, "method", method)


def _forgets_discarded(ex, p, target, vals, span):
    return [(q, None) for q in ex.write(p, target, "tile", None, span)]


def _stays_on_its_tile(ex, p, target, vals, span):
    return [(q, None) for q in ex.write(p, target, "discarded", True, span)]


def _assign_changes_nothing(ex, p, target, vals, span):
    return [(p, None)]


@pytest.mark.parametrize("defect", [
    pytest.param(lambda mp: _planted(mp, "discard", _forgets_discarded), id="discard-forgets-discarded"),
    pytest.param(lambda mp: _planted(mp, "discard", _stays_on_its_tile), id="discard-leaves-the-tile"),
    pytest.param(lambda mp: _planted(mp, "assign", _assign_changes_nothing), id="assign-changes-nothing"),
    pytest.param(lambda mp: mp.setattr(segments.Lowering, "offered", lambda self, c: TRUE),
                 id="discarded-pieces-offered-to-inputs"),
])
def test_a_wrong_lowering_of_captures_fails_validation(monkeypatch, defect):
    """Each planted defect is a plausible mistranslation: the lowering still exits normally, and the
    validation that every to-gdl runs must find the difference."""
    defect(monkeypatch)
    lw = _lowered()
    result = validate_translation(lw.game, lw.lowered, lw.seed)
    assert result.mismatch is not None


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = GAME.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "game.tgpl"
    path.write_text(text.replace(old, new, 1))
    return path


TICK = "        Arena.Moves += 1;\n"
CAPTURE = "            if (there != null) { there.discard(Arena.Box); }\n"
TAKE_OVER = "            other.assign(player);\n"


@pytest.mark.parametrize("old, new, expected", [
    pytest.param(TICK, TICK + "        if (Arena.Box.length == 3) { winner 0; }\n",
                 "131:13: error: not lowerable: 'Box' is read after setup, but discard() fills it after setup: the "
                 "contents of a discard pile are not lowerable", id="the-pile-read"),
    pytest.param("    Stack<Piece> Box = {};", "    Stack<Piece> Other = {};\n    Stack<Piece> Box = {};",
                 None, id="another-pile-of-that-type-unread"),
    pytest.param(CAPTURE, "            Stack<Piece> gone = {};\n" + CAPTURE.replace("Arena.Box", "gone"),
                 "106:34: error: not lowerable: discard() into a pile other than a list attribute or a stack object "
                 "is not lowerable", id="a-local-pile"),
    pytest.param(TAKE_OVER, TAKE_OVER + "            if (other.players.length == 2) { winner 0; }\n",
                 "120:23: error: not lowerable: 'players' of Piece#0, whose owner assign() changes after setup, is "
                 "not lowerable (read 'player')", id="players-of-an-assigned-piece"),
    pytest.param("\ninteractable Piece", "\ngroup interactable Piece",
                 "119:13: error: not lowerable: assign() on Piece#2 is not lowerable: a group object has a set of "
                 "owners", id="assign-on-a-group-object"),
])
def test_what_captures_cannot_lower_is_refused_with_its_location(tmp_path, monkeypatch, old, new, expected):
    path = _edited(tmp_path, old, new)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["to-gdl", "game.tgpl", "--no-validate"])
    if expected is None:
        assert r.exit_code == 0, r.output
        return
    assert r.exit_code == 2, r.output
    assert r.output.splitlines()[0] == f"game.tgpl:{expected}"


PILE = [("    Stack<Piece> Box = {};      // captured pieces: filled after setup, never read", "    Pile Box = null;"),
        ("    Arena.Board = new Strip();", "    Arena.Board = new Strip();\n    Arena.Box = new Pile();"),
        ("\ntile Square", "\nstack Pile { returns Piece; }\n\ntile Square")]


def _with_a_stack_object(extra: list | None = None) -> str:
    text = GAME.read_text(encoding="utf-8")
    for old, new in PILE + (extra or []):
        assert old in text
        text = text.replace(old, new, 1)
    return text


def test_a_stack_object_as_the_pile_lowers_and_its_items_stay_unread(tmp_path, monkeypatch):
    lw = Lowered.of_text(_with_a_stack_object(), str(GAME))
    assert bisimulate(lw).states == explore(RuntimeMachine(lw.game)).states
    (tmp_path / "game.tgpl").write_text(_with_a_stack_object([(TICK, TICK + "        if (Arena.Box.length == 3) "
                                                                        "{ winner 0; }\n")]))
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["to-gdl", "game.tgpl", "--no-validate"])
    assert r.exit_code == 2
    assert r.output.splitlines()[0] == ("game.tgpl:134:23: error: not lowerable: decks are not lowerable after setup "
                                        "('length' of Pile#0): only decks whose items nothing but pop() changes "
                                        "after setup")


def test_an_assign_that_only_setup_runs_makes_no_owner_fluent():
    """examples/draughts.tgpl gives each man to its side in `Draughts.SetUp`, a function that only setup
    calls: the owners never change in play, so they stay static (a fluent per man made every
    `Occupant.player` read a branch on the owner)."""
    from tgpl.runtime.game import load_game

    draughts = load_game(Path(__file__).resolve().parents[2] / "examples" / "draughts.tgpl")
    assert segments.assigned_classes(draughts.program) == []
    captures = load_game(Path(__file__).resolve().parents[1] / "data" / "lowering" / "captures.tgpl")
    assert segments.assigned_classes(captures.program) != []  # its assign() runs during play
