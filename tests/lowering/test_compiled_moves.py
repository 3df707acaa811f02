"""Moves compiled once with their inputs as variables (tgpl.lowering.compiled, `to-gdl --moves`).

The compiled segments must be the runtime's game, like the moves spelled out one by one:
tests/data/lowering/shifts.tgpl writes objects that may be one (`a.Mark = true; b.Mark =
!b.Mark` with a = b), reads the move's writes in a later phase through a search that calls
another function, passes the turn by player arithmetic and ends with `winner mover`, a
player known only when the rules run. Chess is the game it is for: every move of the
4,096 pairs of squares once, not spelled out.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.compiled as compiled
import tgpl.lowering.horn as horn
from differential import Lowered, bisimulate
from test_batched_validation import read_ignoring_aliases
from tgpl.asp.kif import read_kif, to_kif
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.cli import main
from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.lowering.universe import Universe
from tgpl.pipeline import gdl_errors
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import Differential, _without_flow
from tgpl.verify.graph import explore
from to_gdl_runs import variant

ROOT = Path(__file__).resolve().parents[2]
SHIFTS = ROOT / "tests" / "data" / "lowering" / "shifts.tgpl"
LOOPCALL = ROOT / "tests" / "data" / "lowering" / "loopcall.tgpl"
SCANCALLS = ROOT / "tests" / "data" / "lowering" / "scancalls.tgpl"
CHESS = ROOT / "examples" / "chess" / "chess.tgpl"
SAME_SEAT = ROOT / "tests" / "data" / "lowering" / "same_seat.tgpl"
RETIRED = ROOT / "tests" / "data" / "lowering" / "retired.tgpl"


def _compiled(path: Path, grounded_once: bool = True) -> Lowered:
    lw = Lowered.with_options(path, grounded_whole=grounded_once, moves="compiled")
    assert lw.lowered.stats["moves compiled"] == "yes"
    return lw


def test_shifts_compiled_is_the_runtimes_game():
    lw = _compiled(SHIFTS)
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states == 501


def test_a_write_to_an_object_that_may_be_the_one_written_before_is_split(monkeypatch):
    """Planted: reads that never take an earlier write to another object term (`b` after `a.Mark = true`, where
    the mover may pick the same square twice) give another game, which the bisimulation finds."""
    monkeypatch.setattr(compiled.SegmentCompiler, "read", read_ignoring_aliases)
    lw = _compiled(SHIFTS)
    with pytest.raises(AssertionError, match="mark"):
        bisimulate(lw)


def test_an_object_looked_up_again_by_the_same_index_is_the_object_written():
    """`Game.Seats[1 - Index()]` written (`them.Men -= 1`), then looked up again by the turn's end, which ends
    the game on its men: the same lookup of the same keys is the same term, so the check reads the value
    written and bounds the men."""
    lw = _compiled(SAME_SEAT)
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states == 15


def test_the_same_lookup_taken_for_another_object_leaves_the_men_unbounded(monkeypatch):
    """Planted: every lookup a fresh term (`known` finds nothing), the end check may read another seat's men
    before the move, and the men the hit writes fall without bound: refused, as morris.tgpl was (at the first
    bound the relaxation is grounded at, tgpl.lowering.rungs)."""
    monkeypatch.setattr(compiled.SegmentCompiler, "known", staticmethod(lambda c, rel, keys: None))
    game = load_game(str(SAME_SEAT))
    universe = Universe.from_snapshot(snapshot(game.initial_state(0)))
    with pytest.raises(horn.Unsupported, match="'Men' \\(-32\\.\\.2 so far\\) not bounded by the game"):
        compiled.CompiledGame(game.program, universe, None, None, {}).counter_ranges()
    monkeypatch.undo()
    ranges = compiled.CompiledGame(game.program, universe, None, None, {}).counter_ranges()
    assert sorted(int(v.name) for _, v in ranges["num|Men"] + ranges["over|Men"]) == [-1, -1, 0, 0, 1, 1, 2, 2]


def test_shifts_compiled_rules_pass_the_gdl_checks():
    lw = _compiled(SHIFTS)
    assert [d.message for d in validate(lw.lowered.program, "shifts.kif") if d.is_error] == []


def declared(program) -> tuple[set[str], set[tuple[str, str]]]:
    """A program's `base` fluents and `input` (role, move) pairs, as KIF texts (both are facts here)."""
    facts = [r.head for r in program.rules if not r.body]
    return ({str(a.args[0]) for a in facts if a.relation == "base"},
            {(str(a.args[0]), str(a.args[1])) for a in facts if a.relation == "input"})


def plays_within_base_and_input(lw: Lowered, plays: int, moves: int) -> int:
    """Random plays on the runtime: each state's fluents (the runtime's state as the GDL writes it) must be
    `base` facts, and each legal move an `input` fact of its mover's role. The states seen."""
    base, inputs = declared(lw.lowered.program)
    terms = {text: term for term, text in lw.lowered.move_texts.items()}
    seen = 0
    for seed in range(plays):
        rng = random.Random(seed)
        state = lw.game.initial_state(0)
        for _ in range(moves):
            fluents = lw.lowered.state_fluents(snapshot(state))
            if state.is_terminal:  # a check left to the next decision ends the game at the decision after it
                fluents = _without_flow(fluents)  # (tgpl.lowering.deferral): the state's flow is not the GDL's
            assert fluents <= base, f"not in base: {sorted(fluents - base)[:3]}"
            seen += 1
            if state.is_terminal:
                break
            legal = state.legal_moves()
            role = lw.lowered.roles[state.active_player]
            missing = [m.text for m in legal if (role, terms.get(m.text)) not in inputs]
            assert not missing, f"not in input: {missing[:3]}"
            state = state.apply(rng.choice(legal))
    return seen


@pytest.mark.parametrize("path", [LOOPCALL, SHIFTS], ids=lambda p: p.stem)
def test_compiled_moves_declare_base_and_input_that_cover_the_plays(path):
    """Reference GDL validators require `base` and `input`, and a player may take them at their word (a
    propnet built from them): every fluent of a state a play reaches is in base, every legal move in input
    (issue 34: the compiled moves wrote neither). Checked against the runtime's plays, and by check-gdl,
    whose check of them grounds the relaxed game of so small a game (within the bound: grounded once)."""
    lw = _compiled(path)
    base, inputs = declared(lw.lowered.program)
    assert {(role, "noop") for role in lw.lowered.roles} <= inputs
    assert {term for _, term in inputs} - {"noop"} == set(lw.lowered.move_texts)  # every move, once a role
    assert plays_within_base_and_input(lw, 20, 40) >= 100  # loopcall: 5 states a play
    problems = validate(lw.lowered.program, f"{path.stem}.kif")
    assert [d.message for d in problems if d.is_error] == []
    assert not [d for d in problems if "base" in d.message]  # checked, and complete: no warning either


def test_to_gdl_with_compiled_moves_writes_base_and_input_that_check_gdl_accepts(tmp_path):
    out = tmp_path / "loopcall.kif"
    result = CliRunner().invoke(main, ["to-gdl", "--moves", "compiled", "--no-validate", str(LOOPCALL), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "(base " in text and "(input " in text
    assert "tgpl check-gdl --grounding per-state FILE.kif" in text  # plain check-gdl refuses one over the bound
    for args in ([], ["--grounding", "per-state"]):  # within the bound: both check base and input
        checked = CliRunner().invoke(main, ["check-gdl", *args, str(out)])
        assert checked.exit_code == 0 and "warning" not in checked.output, checked.output


def test_calls_in_loops_are_asked_where_the_loop_is_entered(monkeypatch):
    """A call's demand under its loop made a cycle that left the loop's variables unbound (GDL's recursion
    restriction; found by bench/property_games.py, seeds 234, 235 and 237): with constant arguments it is
    asked in every state, with arguments the loop never changes where the loop is entered."""
    lw = _compiled(LOOPCALL)
    assert [d.message for d in validate(lw.lowered.program, "loopcall.kif") if d.is_error] == []
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and bisimulate(lw).states == runtime.states
    monkeypatch.setattr(horn._FunctionCompiler, "demands", lambda self, vals, body: [((*vals,), tuple(body))])
    errors = [d.message for d in validate(_compiled(LOOPCALL).lowered.program, "loopcall.kif") if d.is_error]
    assert errors and "recursion restriction" in errors[0]


def test_a_game_ended_by_the_turns_default_has_its_moves_compiled(tmp_path):
    """The effect of the first move compiled runs the turn's default, whose `winner` ends the game: the
    filters and trigger of the next move were taken for ones that end it, and the game was refused."""
    text = LOOPCALL.read_text()
    path = tmp_path / "ended.tgpl"
    path.write_text(text[:text.index("turn Play")] + """turn Play
{
    phase MovePhase { }
    default
    {
        if (Rules.Moves >= 4) { winner { {0, 1} }; }
        turn.pass(player.active() + 1, "MovePhase");
    }
}
""")
    lw = _compiled(path)
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and bisimulate(lw).states == runtime.states


def test_the_moves_of_a_family_are_one_rule_each():
    """`Shift(from, to)` is legal by one rule with variables, not one rule per pair of squares."""
    lw = _compiled(SHIFTS)
    legal = [r for r in lw.lowered.program.rules if r.head.relation == "legal" and r.body]
    heads = {r.head.args[1].name for r in legal if hasattr(r.head.args[1], "args")}
    assert heads == {"shift", "flip"}
    assert len(legal) <= 4
    assert len(lw.lowered.move_texts) == 44  # every move that can ever be legal, with its runtime text


@pytest.fixture(scope="module")
def chess():
    game = load_game(str(CHESS))
    return game, lower(game.program, snapshot(game.initial_state(0)))


def test_chess_lowers_with_its_moves_compiled(chess):
    game, lowered = chess
    assert lowered.stats["moves compiled"] == "yes"  # auto: 4,096 ways to fill Move's inputs
    assert sum(1 for r in lowered.program.rules if r.body) < 1500
    # the legal moves', the promotions' and the checkmate test's `CanMove` read the state: one instance
    assert [rel for rel in lowered.program.relations() if rel.startswith("canmove_call")] == ["canmove_call"]
    assert len(lowered.move_texts) == 3952
    problems = validate(lowered.program, "chess.kif", grounding="per-state")
    assert [d.message for d in problems if d.is_error] == []  # recursion restriction, safety, one arity each
    # base and input declared: too large a relaxed game to check them by (it does not fit in 6 GB), so they are
    # checked in play (below, and the validation's reasoner stops on a fluent or a legal move they leave out)
    assert any(d.message.startswith("base and input are not checked") for d in problems)
    base, inputs = declared(lowered.program)
    assert len(inputs) == 3952 + 2 and len(base) > 64 * 7
    # check-gdl's default (auto) refuses a game over the bound that declares them, saying how to play it
    (refusal,) = [d for d in validate(lowered.program, "chess.kif") if d.is_error]
    assert "--grounding per-state plays it one state at a time" in refusal.notes[-1]


def test_chess_first_moves_on_the_reasoner_are_the_runtimes(chess):
    game, lowered = chess
    gdl = GdlGame(read_kif(to_kif(lowered.program)), mode="per-state", max_ground=None)
    start = gdl.initial_state()
    moves = start.legal_moves("player_0")
    assert len(moves) == 20
    texts = sorted(lowered.move_texts[str(m)] for m in moves)
    assert texts == sorted(m.text for m in game.initial_state(0).legal_moves())


def test_chess_plays_stay_within_base_and_input(chess):
    game, lowered = chess
    assert plays_within_base_and_input(Lowered(game, lowered, None), 4, 80) > 200


def test_chess_random_play_agrees_with_the_runtime(chess):
    game, lowered = chess
    d = Differential(game, lowered, 0)
    plays = d.playouts([random.Random(seed) for seed in (7, 8, 9, 10)], 60)  # in batches: 4 x 61 states, ~10 s
    assert [p.mismatch for p in plays] == [None] * 4
    assert all(len(p.moves) == 60 or p.ended for p in plays)


def test_pieces_discarded_by_a_move_are_compiled():
    """A capture (`there.discard(Arena.Box)`) and a piece that retires (`discard(Arena.Box)`, its own) are writes of
    the built-in `discarded` and `tile`, compiled (refused before, and the game spelled out): every state of the
    runtime is the compiled rules'."""
    lw = _compiled(RETIRED)
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and runtime.states > 100
    assert bisimulate(lw).states == runtime.states


def test_an_input_that_may_name_a_discarded_piece_is_checked_in_the_state(monkeypatch):
    """Planted: an input's candidates taken whether discarded or not (`CompiledGame.in_play` leaving the clauses
    as they are): Wait may name a captured enemy piece, which the runtime never offers, and the bisimulation finds
    the extra moves."""
    monkeypatch.setattr(compiled.CompiledGame, "in_play", lambda self, clauses, o, objects: clauses)
    lw = _compiled(RETIRED)
    with pytest.raises(AssertionError, match=r"legal moves only in the GDL: Piece#\d+\.Wait\(other: Piece#\d+\)"):
        bisimulate(lw)


def test_a_discard_into_a_list_is_refused_compiled(tmp_path):
    """A list attribute as the pile is a value of the rules, its contents as setup left them: discard() into it is
    refused compiled, at the call, where a stack object's items are never state."""
    text = RETIRED.read_text().replace("    Box Box = null;", "    Stack<Piece> Box = {};")
    path = tmp_path / "listed.tgpl"
    text = text.replace("    Arena.Box = new Box();\n", "")
    path.write_text(text)
    game = load_game(str(path))
    with pytest.raises(NotLowerable, match="the moves cannot be compiled: discard\\(\\) into a pile other than a "
                                           "stack object") as e:
        lower(game.program, snapshot(game.initial_state(0)), moves="compiled")
    assert e.value.span.line == text[:text.index("{ there.discard")].count("\n") + 1


def test_moves_compiled_refuses_a_game_outside_its_subset():
    tris = ROOT / "examples" / "tris.tgpl"
    game = load_game(str(tris))
    with pytest.raises(NotLowerable, match="the moves cannot be compiled"):
        lower(game.program, snapshot(game.initial_state(0)), moves="compiled")
    result = CliRunner().invoke(main, ["to-gdl", "--moves", "compiled", "--no-validate", str(tris)])
    assert result.exit_code == 2
    assert "not lowerable: the moves cannot be compiled" in result.output


def test_auto_spells_out_a_game_with_few_moves():
    tris = ROOT / "examples" / "tris.tgpl"
    game = load_game(str(tris))
    assert "moves compiled" not in lower(game.program, snapshot(game.initial_state(0))).stats


NEAR = (  # each square lists its neighbours, and the search tries those only: a loop up to a fixed list's length
    ("    bool Mark = false;\n}", "    bool Mark = false;\n    List<Sq> Near = {};\n}"),
    ("                Rules.Squares.add(s);\n            }",
     "                Rules.Squares.add(s);\n            }\n"
     "            for (number i = 0; i < 4; i += 1)\n            {\n"
     "                Sq s = Cells[i][0] as Sq;\n"
     "                if (i > 0) { s.Near.add(Cells[i - 1][0] as Sq); }\n"
     "                if (i < 3) { s.Near.add(Cells[i + 1][0] as Sq); }\n            }"),
    ("for (number j = 0; j < 4; j += 1)\n                    {\n"
     "                        if (CanGo(from: from, to: Squares[j])) { return true; }",
     "for (number j = 0; j < from.Near.length; j += 1)\n                    {\n"
     "                        if (CanGo(from: from, to: from.Near[j])) { return true; }"),
)
FREE = (  # CanGo asks a function of its own: called after a Flip, which writes no side, and by the filters
    ("if (from.Side == null || to.Side == from.Side) { return false; }",
     "if (from.Side == null || !Free(to: to, side: from.Side)) { return false; }"),
    ("    function HasMove",
     "    function Free\n    {\n        function input Sq to;\n        function input player side;\n"
     "        returns bool;\n        effect { return to.Side != side; }\n    }\n\n    function HasMove"),
)


def shifts_variant(tmp_path, *edits: tuple[str, str], moves: str = "compiled") -> Lowered:
    """shifts.tgpl with `edits` (old, new) made, written as variant.tgpl (`to_gdl_runs.variant`), lowered with
    `moves` and GDL's rules checked by the lowering."""
    return Lowered.with_options(variant(tmp_path, SHIFTS, *edits, name="variant.tgpl"), moves=moves, check=gdl_errors)


def test_a_search_up_to_a_fixed_lists_length_is_some_pass_of_it(tmp_path):
    """`for (j = 0; j < from.Near.length; ...)` whose passes share nothing is "some pass returns" over the passes
    up to the longest list, each kept below its own list's length: as a recursion, the calls in it waited on
    their own results, which GDL's recursion restriction refused."""
    lw = shifts_variant(tmp_path, *NEAR, *FREE)
    assert not gdl_errors(lw.lowered.program)
    assert bisimulate(lw).states == 501


def test_calls_after_a_move_never_share_the_legal_moves_instances(tmp_path):
    """After a Flip nothing the search reads was written, so its calls read the state as the filters' do; their
    instances stay apart all the same: shared, `legal` depended on `does` through `Free`'s demand."""
    lw = shifts_variant(tmp_path, *FREE)
    assert not gdl_errors(lw.lowered.program)
    assert bisimulate(lw).states == 501


def test_two_searches_whose_demands_wait_on_each_other_are_compiled_as_searches(tmp_path, monkeypatch):
    """Two searches in a row whose calls share an instance: the second's demand waits on the first's result (a
    negation cycle through the rules of the caller and its callee together). `compiled` refused it at 1:1 before
    (and `auto` spelled the moves out); compiled again with the caller as a search (language decision 121), the
    game lowers, and `auto` compiles it too, each the runtime's game on every reachable state."""
    second = ("                if (from.Side == side)\n",
              "                if (from.Side == side && from.X >= 2)\n                {\n"
              "                    for (number j = 0; j < from.Near.length; j += 1)\n                    {\n"
              "                        if (CanGo(from: from, to: from.Near[j])) { return true; }\n"
              "                    }\n                }\n"
              "                if (from.Side == side && from.X < 2)\n")
    lw = shifts_variant(tmp_path, *NEAR, *FREE, second)
    assert lw.lowered.stats.get("moves compiled") and not gdl_errors(lw.lowered.program)
    assert bisimulate(lw).states == 501
    monkeypatch.setattr("tgpl.lowering.lower.SPELLED_MOVES", 0)  # auto would compile this game's moves
    lw = shifts_variant(tmp_path, *NEAR, *FREE, second, moves="auto")
    assert lw.lowered.stats.get("moves compiled")
    assert bisimulate(lw).states == 501


def _call_bodies(program) -> dict[str, list[set[str]]]:
    """The relations each rule of a call's demand (`isopen_call...`) reads, by the demand's relation."""
    out: dict[str, list[set[str]]] = {}
    for r in program.rules:
        if r.head.relation.startswith("isopen_call"):
            out.setdefault(r.head.relation, []).append({x.relation for x in r.body if hasattr(x, "relation")})
    return out


def test_a_counted_loop_that_writes_no_state_asks_its_calls_where_it_is_entered(monkeypatch):
    """A counted loop over a static list whose passes write no state (the filter's count of open squares) is a
    scan for its calls' demands (`scan_demands`): asked from the loop's entry over the counter's range, not
    under the loop's relation, where the demand and the loop waited on each other (against GDL's recursion
    restriction; in Havannah a closure's cycle, issue 34)."""
    lw = _compiled(SCANCALLS)
    assert [d.message for d in validate(lw.lowered.program, "scancalls.kif") if d.is_error] == []
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and bisimulate(lw).states == runtime.states
    bodies = [body for bodies in _call_bodies(lw.lowered.program).values() for body in bodies]
    assert bodies and not any(rel.startswith("loop") for body in bodies for rel in body)
    monkeypatch.setattr(compiled.SegmentCompiler, "scans_calls", lambda self, s: False)
    under = _compiled(SCANCALLS).lowered.program
    assert all(any(rel.startswith("loop") for rel in body) for bodies in _call_bodies(under).values() for body in bodies)
    errors = [d.message for d in validate(under, "scancalls.kif") if d.is_error]
    assert errors and "recursion restriction" in errors[0]


def test_a_counted_loop_that_writes_the_state_asks_its_calls_under_its_relation(tmp_path):
    """The same count in the effect, where each pass writes the state (`Rules.Seen`): a pass's writes could change
    what the calls of the passes after it answer, so the call's demand stays under the loop's relation."""
    path = variant(tmp_path, SCANCALLS, ("    number Moves = 0;\n", "    number Moves = 0;\n    bool Seen = false;\n"),
                   ("            c.Free = false;\n", "            c.Free = false;\n            for (number i = 0; "
                    "i < Rules.Row.length; i += 1) { if (Rules.IsOpen(x: Rules.Row[i])) { Rules.Seen = true; } }\n"),
                   ("if (Rules.Moves >= 4)", "if (Rules.Moves >= 4 || Rules.Seen && Rules.Moves >= 3)"),
                   name="writes.tgpl")
    calls = _call_bodies(_compiled(path).lowered.program)
    assert len(calls) == 2  # the filter's and the effect's
    under_loop = sorted(all(any(rel.startswith("loop") for rel in body) for body in bodies) for bodies in calls.values())
    assert under_loop == [False, True]


def test_auto_spells_the_moves_out_where_the_compiled_ones_break_gdls_rules(tmp_path, monkeypatch):
    """`auto` compiles this game's moves (SPELLED_MOVES 0); where the compiled rules break a rule of GDL that no
    compilation again mends (a gap of the compiled subset: here a check that finds every compiled program
    broken), the moves are spelled out instead, the check never asked of them: valid GDL, the runtime's game."""
    monkeypatch.setattr("tgpl.lowering.lower.SPELLED_MOVES", 0)
    checked = []

    def broken(program) -> list[Diagnostic]:
        checked.append(program)
        return [Diagnostic(Severity.ERROR, Span("variant.tgpl", 1, 1, 1, 1), "an argument of a recursive literal is not ground",
                           code="recursion-restriction")]

    game = variant(tmp_path, SHIFTS, *NEAR, *FREE, name="variant.tgpl")
    lw = Lowered.with_options(game, moves="auto", check=broken)
    assert checked  # compiled first, and refused by the check
    assert "moves compiled" not in lw.lowered.stats
    assert lw.lowered.program not in checked and not gdl_errors(lw.lowered.program)
    assert bisimulate(lw).states == 501
