"""Translation validation: `tgpl to-gdl` and `tgpl to-asp` check the lowered game against the runtime before writing.

A correct lowering validates (by bisimulation when the game is small, by random
playouts otherwise); a deliberately broken one (a rule dropped from the lowered
program, or from its ASP encoding) is caught: exit 2, nothing written, and the
reported moves replay on the runtime up to a state where the two sides differ.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.asp.asp_emit as asp_emit
import tgpl.pipeline as pipeline
import tgpl.validation as validation
from tgpl.cli import main
from tgpl.lowering.ir import Program
from tgpl.runtime.game import load_game
from tgpl.validation import Differential

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TRIS = str(EXAMPLES / "tris.tgpl")
TRIS_SOURCE = Path(TRIS).read_text(encoding="utf-8").splitlines()
# A budget that a loaded machine still meets: the bisimulation of Tris takes a few seconds.
GENEROUS = "600"

# Rules to drop, by the start of their head: Tris then goes wrong after player 1's first move,
# or player 1 has no move at all.
# the rule that gives the tile player 1 ticks its new value (`next` of AssignedTo is the board the win
# check reads after the tick: `(<= (next (assignedto ?o ?v)) (assignedto_wincheckphase ?o ?v))`)
NEXT_OF_PLAYER_1 = "(assignedto_wincheckphase ?ticktile playerstate_1)"
LEGAL_OF_PLAYER_1 = "(legal player_1 (tick playerstate_1 ?ticktile))"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _without(program: Program, head: str) -> Program:
    rules = tuple(r for r in program.rules if str(r.head) != head)
    assert len(rules) == len(program.rules) - 1, f"no single rule with head {head}"
    return Program(rules)


@pytest.fixture
def broken_lowering(monkeypatch):
    """Make the pipeline's lowering drop the rule with a given head (what the CLI lowers with)."""
    def drop(head: str) -> None:
        real = pipeline.lower_game

        def lower_game(*args, **kwargs):
            lowered = real(*args, **kwargs)
            lowered.program = _without(lowered.program, head)
            return lowered

        monkeypatch.setattr(pipeline, "lower_game", lower_game)
    return drop


def _line_of(text: str) -> int:
    return next(i for i, line in enumerate(TRIS_SOURCE, 1) if text in line)


def _reported_moves(stderr: str) -> list[str]:
    lines = stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if "as `tgpl play --moves` reads them:" in line) + 1
    moves = []
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        moves.append(line.strip())
    return moves


def _assert_refused_with_replayable_moves(r, out: Path | None, head: str, found_by: str) -> list[str]:
    """Exit 2, nothing written, located diagnostics, and moves after which runtime and broken GDL differ."""
    assert r.exit_code == 2, r.output
    assert r.stdout == ""  # no rules on stdout either
    if out is not None:
        assert not out.exists()
    assert f"found by {found_by}" in r.stderr
    assert r.stderr.rstrip().endswith("the translation failed its validation against the runtime: nothing written")
    moves = _reported_moves(r.stderr)
    assert moves
    # The last move's action is located, with a caret under its name.
    tick = _line_of("action Tick")
    assert re.search(rf"tris\.tgpl:{tick}:\d+: error: the GDL differs from the runtime after {len(moves)} move",
                     r.stderr), r.stderr
    assert f" {tick} |     action Tick\n" in r.stderr and "^^^^" in r.stderr
    # The moves replay on the runtime; the broken GDL agrees before the last one and not after it.
    game = load_game(TRIS)
    lowered = pipeline.lower_game(game)  # still the broken one
    d = Differential(game, lowered)
    state, g = d.start()
    for move in moves:
        assert d.compare(state, g) is None
        state, g = d.apply(state, g, move)
    assert d.compare(state, g) is not None
    return moves


def test_tris_validates_by_bisimulation_and_no_validate_writes_the_same_rules(tmp_path):
    validated, unvalidated = tmp_path / "v.kif", tmp_path / "n.kif"
    r = run("to-gdl", TRIS, "-o", str(validated), "--validate-seconds", GENEROUS)
    assert r.exit_code == 0, r.output
    header = validated.read_text().splitlines()[1]
    assert re.fullmatch(r"; validated: bisimulation, 5,478 states; \d+\.\d s", header), header
    r = run("to-gdl", TRIS, "-o", str(unvalidated), "--no-validate")
    assert r.exit_code == 0, r.output
    plain = unvalidated.read_text().splitlines()
    assert plain[1] == "; not validated (--no-validate)"
    assert validated.read_text().splitlines()[2:] == plain[2:]  # only the header line differs


def test_the_validation_leaves_no_object_frozen(broken_lowering):
    """validate_translation freezes what is alive when it starts out of the collector's passes (gc.freeze) and
    thaws it when it ends, whether the lowering is right or wrong: the objects the caller drops are then
    collected again."""
    import gc

    game = load_game(TRIS)
    right = pipeline.lower_game(game)
    broken_lowering(NEXT_OF_PLAYER_1)
    for lowered, ok in ((right, True), (pipeline.lower_game(game), False)):
        assert gc.get_freeze_count() == 0
        result = validation.validate_translation(game, lowered, 0, float(GENEROUS))
        assert gc.get_freeze_count() == 0
        assert (result.mismatch is None) == ok


def test_connect_four_falls_back_to_playouts():
    r = run("to-gdl", str(EXAMPLES / "connect4.tgpl"), "--stats", "--validate-seconds", "1")
    assert r.exit_code == 0, r.output
    last = r.stdout.splitlines()[-1]
    found = re.fullmatch(r"validated: (\d+) playouts, ([\d,]+) steps compared \(depth cut (\d+)\)"
                         r"(, after [\d,]+ states explored breadth first)?; \d+\.\d s", last)
    assert found, last
    playouts, steps, depth = int(found[1]), int(found[2].replace(",", "")), int(found[3])
    assert playouts >= 1 and depth >= 1
    assert playouts <= steps <= playouts * (depth + 1)  # every play is compared at each of its states


def test_a_dropped_next_rule_is_caught_by_the_bisimulation(tmp_path, broken_lowering):
    broken_lowering(NEXT_OF_PLAYER_1)
    out = tmp_path / "tris.kif"
    r = run("to-gdl", TRIS, "-o", str(out), "--validate-seconds", GENEROUS)
    moves = _assert_refused_with_replayable_moves(r, out, NEXT_OF_PLAYER_1, "bisimulation")
    assert len(moves) == 2  # breadth first: the shortest, player 0 then player 1
    assert "fluents only in the runtime: (assignedto " in r.stderr
    # The attribute whose fluent differs is located at its declaration.
    decl = _line_of("PlayerState AssignedTo = null;")
    assert re.search(rf"tris\.tgpl:{decl}:\d+: error: attribute 'AssignedTo' of TrisGrid\[\d\]\[\d\] differs: "
                     r"PlayerState#1 in the runtime, no value in the GDL", r.stderr), r.stderr
    assert list(tmp_path.iterdir()) == []  # no temporary file left either


def test_a_dropped_legal_rule_is_caught_by_the_playouts(tmp_path, broken_lowering, monkeypatch):
    monkeypatch.setattr(validation, "STATE_BOUND", 0)  # no bisimulation: straight to the playouts
    broken_lowering(LEGAL_OF_PLAYER_1)
    out = tmp_path / "tris.kif"
    r = run("to-gdl", TRIS, "-o", str(out), "--validate-seconds", "2")
    moves = _assert_refused_with_replayable_moves(r, out, LEGAL_OF_PLAYER_1, "playouts")
    assert len(moves) == 1
    assert "legal moves only in the runtime: PlayerState#1.Tick(chosenTile: TrisGrid[" in r.stderr


def test_to_asp_validates_the_gdl_and_replays_plays_on_the_asp_program(monkeypatch):
    monkeypatch.setattr(validation, "STATE_BOUND", 0)
    r = run("to-asp", TRIS, "--validate-seconds", "1")
    assert r.exit_code == 0, r.output
    first = r.stdout.splitlines()[0]
    assert re.fullmatch(r"% tris: validated: \d+ playouts, [\d,]+ steps compared \(depth cut \d+\); "
                        r"ASP: 20 plays replayed, [\d,]+ steps compared; \d+\.\d s", first), first


def test_to_asp_refuses_a_wrong_asp_program(tmp_path, monkeypatch):
    """The GDL is right, its ASP encoding is not: the replay on the ASP program catches it."""
    monkeypatch.setattr(validation, "STATE_BOUND", 0)
    real = asp_emit.encode_asp
    monkeypatch.setattr(asp_emit, "encode_asp", lambda program: real(_without(program, LEGAL_OF_PLAYER_1)))
    out = tmp_path / "tris.lp"
    r = run("to-asp", TRIS, "-o", str(out), "--validate-seconds", "1")
    assert r.exit_code == 2, r.output
    assert not out.exists() and r.stdout == ""
    assert "the ASP program differs from the runtime after 1 move" in r.stderr
    assert "legal moves only in the runtime: PlayerState#1.Tick(chosenTile: TrisGrid[" in r.stderr
    assert "found by ASP replay" in r.stderr
    state = load_game(TRIS).initial_state(0)
    for move in _reported_moves(r.stderr):
        state = state.apply(move)
    assert state.active_player == 1


@pytest.mark.parametrize("command", [["to-gdl"], ["to-asp"], ["query", "--horizon", "1"]])
def test_not_lowerable_exits_2(command):
    args = [command[0], str(EXAMPLES / "treasure.tgpl")] + (["true"] if command[0] == "query" else []) + command[1:]
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "error: not lowerable: " in r.stderr and r.stdout == ""
