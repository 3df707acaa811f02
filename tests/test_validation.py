"""Translation validation: `tgpl to-gdl` and `tgpl to-asp` check the lowered game against the runtime before writing.

A correct lowering validates (by bisimulation when the game is small, by random
playouts otherwise); a deliberately broken one (a rule dropped from the lowered
program, or from its ASP encoding) is caught: exit 2, nothing written, and the
reported moves replay on the runtime up to a state where the two sides differ.
Too little coverage (no play to the end of the game) fails the same way. What
is compared is counted, never timed: no test here depends on the machine's speed.
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
STUCK = str(Path(__file__).parent / "data" / "defect_stuck.tgpl")
CONNECT4 = str(EXAMPLES / "connect4.tgpl")
TRIS_SOURCE = Path(TRIS).read_text(encoding="utf-8").splitlines()
PLAYOUTS = re.compile(r"validated: ([\d,]+) playouts? \(([\d,]+) to the end of the game\), ([\d,]+) steps compared, "
                      r"the deepest at move ([\d,]+)")

# Rules to drop, by the start of their head: Tris then goes wrong after player 1's first move,
# or player 1 has no move at all.
# the rule that gives the tile player 1 ticks its new value (`next` of AssignedTo is the board the win
# check reads after the tick: `(<= (next (assignedto ?o ?v)) (assignedto_wincheckphase ?o ?v))`)
NEXT_OF_PLAYER_1 = "(assignedto_wincheckphase ?ticktile playerstate_1)"
LEGAL_OF_PLAYER_1 = "(legal player_1 (tick playerstate_1 ?ticktile))"
# the draw: a full board with no line; the GDL then goes on (no move left, not terminal) after the 9th move,
# the deepest state of the game. Two rules: the draw of each player's last move (its condition unfolded into
# the rule, `generalize.unfold_single_uses`)
DRAW = "(next (result 1 1))"
DRAW_RULES = 2
# Connect Four's landings in the top row (row 0): a disc dropped into a column holding five vanishes, so the
# two sides differ after the 11th move at the soonest
TOP_ROW_LANDING = re.compile(r"\(disc_makesfour_args grid_\d_0 ")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _without(program: Program, head: str | re.Pattern, count: int = 1) -> Program:
    """The program without the rule with the given head (a pattern: the `count` rules whose heads it matches)."""
    def dropped(rule) -> bool:
        return bool(head.match(str(rule.head))) if isinstance(head, re.Pattern) else str(rule.head) == head

    rules = tuple(r for r in program.rules if not dropped(r))
    assert len(rules) == len(program.rules) - count, f"not {count} rules with head {head}"
    return Program(rules)


@pytest.fixture
def broken_lowering(monkeypatch):
    """Make the pipeline's lowering drop the rule with a given head (what the CLI lowers with)."""
    def drop(head: str | re.Pattern, count: int = 1) -> None:
        real = pipeline.lower_game

        def lower_game(*args, **kwargs):
            lowered = real(*args, **kwargs)
            lowered.program = _without(lowered.program, head, count)
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
    r = run("to-gdl", TRIS, "-o", str(validated))
    assert r.exit_code == 0, r.output
    header = validated.read_text().splitlines()[1]
    assert header == "; validated: bisimulation, 5,478 states"
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
        result = validation.validate_translation(game, lowered, 0)
        assert gc.get_freeze_count() == 0
        assert (result.mismatch is None) == ok


@pytest.mark.parametrize("command", [["verify", TRIS, "--max-states", "200"], ["compare", STUCK, STUCK]])
def test_an_exploring_command_leaves_no_object_frozen_once_it_returns(command):
    """verify and compare freeze what is alive at the end of their exploration (cli._collector_off) for the rest
    of the command, and thaw it when the command returns: a process running many commands (the tests) would
    otherwise keep every cycle of garbage among those objects until it exits."""
    import gc

    assert gc.get_freeze_count() == 0
    result = CliRunner().invoke(main, command)
    assert result.exit_code in (0, 1), result.output
    assert gc.get_freeze_count() == 0


def _coverage(line: str) -> tuple[int, int, int, int]:
    """The playouts, those to the end of the game, the steps compared and the deepest of a validation line."""
    found = PLAYOUTS.fullmatch(line)
    assert found, line
    return tuple(int(found[i].replace(",", "")) for i in range(1, 5))


def test_connect_four_falls_back_to_playouts_that_compare_the_steps_asked():
    """Connect Four is too large to bisimulate: playouts to the end of the game compare at least the steps asked
    for (the default, 1,000), and the summary holds no time, so that it is the same on every run."""
    r = run("to-gdl", CONNECT4, "--stats")
    assert r.exit_code == 0, r.output
    last = r.stdout.splitlines()[-1]
    playouts, ended, steps, deepest = _coverage(last)
    assert steps >= 1000
    assert ended == playouts  # Connect Four ends within 42 moves, less than the first cut (100)
    assert 7 <= deepest <= 42
    assert playouts <= steps <= playouts * (deepest + 1)  # every play is compared at each of its states


def test_the_validation_is_the_same_on_every_run(tmp_path, monkeypatch):
    """Seeded plays, counted and not timed: two runs write the same file byte for byte, and compare at least the
    steps asked for."""
    monkeypatch.setattr(validation, "STATE_BOUND", 0)  # straight to the playouts
    outs = [tmp_path / "a.kif", tmp_path / "b.kif"]
    for out in outs:
        r = run("to-gdl", TRIS, "-o", str(out), "--validate-steps", "1500")
        assert r.exit_code == 0, r.output
    assert outs[0].read_bytes() == outs[1].read_bytes()
    playouts, ended, steps, deepest = _coverage(outs[0].read_text().splitlines()[1][2:])
    assert steps >= 1500 and ended == playouts and deepest == 9


def test_too_little_coverage_fails_the_validation(tmp_path, monkeypatch):
    """With a tiny step count the plays are cut before Connect Four can end (cuts of 1, 2 and 4 moves): no play
    reaches the end of the game, so the translation is not validated: exit 2, nothing written, and what was
    covered and what is needed said. Fewer steps than MIN_STEPS are refused as usage."""
    r = run("to-gdl", CONNECT4, "--validate-steps", "999")
    assert r.exit_code == 2 and "fewer than 1,000" in r.output and r.stdout == ""
    monkeypatch.setattr(validation, "MIN_STEPS", 1)
    out = tmp_path / "c4.kif"
    r = run("to-gdl", CONNECT4, "-o", str(out), "--validate-steps", "10")
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and not out.exists()
    assert ("error: the validation against the runtime compared too little: 3 playouts (0 to the end of the "
            "game), 10 steps compared, the deepest at move 4; needed: a play to the end of the game") in r.stderr
    assert r.stderr.rstrip().endswith("nothing written")
    game = load_game(CONNECT4)
    lowered = pipeline.lower_game(game)
    result = validation.validate_translation(game, lowered, 0, 10)
    assert not result.ok and result.mismatch is None and result.shortfall and result.steps == 10
    # with enough steps, the plays go deeper (the cut doubles) until they reach the end of the game
    result = validation.validate_translation(game, lowered, 0, 200)
    assert result.ok and result.ended >= 1 and result.steps >= 200


@pytest.mark.parametrize("name, states", [("quiet", 16), ("shifts", 501)])
def test_a_small_game_is_bisimulated_whatever_its_tree(name, states):
    """Whether a game is small is counted: quiet.tgpl's plays can go on for ever (a flag flipped back and
    forth) and shifts.tgpl's tree is estimated at millions of nodes, but the runtime alone reaches few states,
    so both are bisimulated to the end."""
    game = load_game(str(Path(__file__).parent / "data" / "lowering" / f"{name}.tgpl"))
    result = validation.validate_translation(game, pipeline.lower_game(game), 0)
    assert result.ok and result.complete and result.states == states
    assert result.summary() == f"validated: bisimulation, {states:,} states"


def test_what_too_little_coverage_is():
    """Validation.shortfall: no play to the end of a game that can end, fewer steps than asked, or a time limit
    passed first; a game that cannot end needs only the steps."""
    enough = dict(playouts=3, steps=1000, required=1000, deepest=400)
    assert validation.Validation(**enough, ended=1).shortfall is None
    assert validation.Validation(**enough, ended=0, can_end=False).shortfall is None
    assert validation.Validation(**enough, ended=0).shortfall.startswith("a play to the end of the game")
    short = validation.Validation(playouts=2, steps=600, required=1000, ended=2)
    assert short.shortfall == "1,000 steps compared and a play to the end of the game"
    late = validation.Validation(playouts=2, steps=1200, required=1000, ended=2, time_limit=30.0, timed_out=True)
    assert late.shortfall.endswith("within the time limit (30 s)") and not late.ok
    assert validation.Validation(complete=True, states=10).shortfall is None


def test_a_dropped_next_rule_is_caught_by_the_bisimulation(tmp_path, broken_lowering):
    broken_lowering(NEXT_OF_PLAYER_1)
    out = tmp_path / "tris.kif"
    r = run("to-gdl", TRIS, "-o", str(out))
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
    r = run("to-gdl", TRIS, "-o", str(out))
    moves = _assert_refused_with_replayable_moves(r, out, LEGAL_OF_PLAYER_1, "playouts")
    assert len(moves) == 1
    assert "legal moves only in the runtime: PlayerState#1.Tick(chosenTile: TrisGrid[" in r.stderr


def test_a_fault_at_the_end_of_the_game_is_caught_by_the_playouts(tmp_path, broken_lowering, monkeypatch):
    """A draw the GDL never declares differs only in the deepest states of Tris (after the 9th move): the
    playouts go to the end of the game, so they reach it."""
    monkeypatch.setattr(validation, "STATE_BOUND", 0)
    broken_lowering(DRAW, count=DRAW_RULES)
    out = tmp_path / "tris.kif"
    r = run("to-gdl", TRIS, "-o", str(out))
    moves = _assert_refused_with_replayable_moves(r, out, DRAW, "playouts")
    assert len(moves) == 9
    assert "terminal: yes in the runtime, no in the GDL" in r.stderr


def test_a_fault_deep_in_connect_four_is_caught_by_the_playouts(tmp_path, broken_lowering):
    """The landings in Connect Four's top row dropped: a disc dropped into a column holding five vanishes in
    the GDL, eleven moves in at the soonest. The playouts find it, and replay it on the runtime."""
    broken_lowering(TOP_ROW_LANDING, count=14)  # 7 columns, 2 players
    out = tmp_path / "c4.kif"
    r = run("to-gdl", CONNECT4, "-o", str(out))
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and not out.exists()
    assert "found by playouts" in r.stderr
    moves = _reported_moves(r.stderr)
    assert len(moves) >= 11
    game = load_game(CONNECT4)
    d = Differential(game, pipeline.lower_game(game))
    state, g = d.start()
    for move in moves:
        assert d.compare(state, g) is None
        state, g = d.apply(state, g, move)
    assert d.compare(state, g) is not None


def test_to_asp_validates_the_gdl_and_replays_plays_on_the_asp_program(monkeypatch):
    monkeypatch.setattr(validation, "STATE_BOUND", 0)
    r = run("to-asp", TRIS)
    assert r.exit_code == 0, r.output
    first = r.stdout.splitlines()[0]
    assert first.startswith("% tris: validated: ")
    line, asp = first[len("% tris: "):].split("; ")
    assert _coverage(line)[2] >= 1000
    assert re.fullmatch(r"ASP: 20 plays replayed, [\d,]+ steps compared", asp), first


def test_to_asp_refuses_a_wrong_asp_program(tmp_path, monkeypatch):
    """The GDL is right, its ASP encoding is not: the replay on the ASP program catches it."""
    monkeypatch.setattr(validation, "STATE_BOUND", 0)
    real = asp_emit.encode_asp
    monkeypatch.setattr(asp_emit, "encode_asp", lambda program: real(_without(program, LEGAL_OF_PLAYER_1)))
    out = tmp_path / "tris.lp"
    r = run("to-asp", TRIS, "-o", str(out))
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
    args = [command[0], str(EXAMPLES / "citadels" / "citadels.tgpl")] + (["true"] if command[0] == "query" else []) + command[1:]
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "error: not lowerable: " in r.stderr and r.stdout == ""
