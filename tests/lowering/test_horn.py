"""Functions as relations (tgpl/lowering/horn.py, `--functions-as-relations`).

A function that reads the state is compiled once into rules with variables; its
calls become literals of one relation, and its arithmetic, comparisons and
static lookups tables of the rows a relaxed evaluation finds. The lowered game
must still be the runtime's (differential playouts here, generated games in
test_property_games.py), valid GDL, and far smaller in rules.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from differential import Lowered, bisimulate, playout
from test_bool_conditions import GAME
from tgpl.asp.validate import validate
from tgpl.frontend.loader import load_program
from tgpl.lowering.ir import Var
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.game import Game, compile_program
from tgpl.runtime.snapshot import snapshot

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def rules_with_body(program) -> int:
    return sum(1 for r in program.rules if r.body)


@pytest.fixture(scope="module")
def connect4():
    return Lowered.of(str(EXAMPLES / "connect4.tgpl"), relations=True)


def test_connect4s_functions_are_relations_with_variables(connect4):
    program = connect4.lowered.program
    assert [d.message for d in validate(program) if d.is_error] == []
    assert connect4.lowered.stats["functions as relations"] == 2  # MakesFour and Landing (Run within MakesFour)
    by_head = {}
    for r in program.rules:
        by_head.setdefault(r.head.relation, []).append(r)
    # MakesFour is rules over its parameters, called for every cell; Run is a loop over its count
    makesfour = [r for r in by_head["makesfour"] if r.body]
    assert makesfour and all(any(isinstance(a, Var) for a in r.head.args[:2]) for r in makesfour)
    assert any(any(lit.relation == "run_loop" for lit in r.body if hasattr(lit, "relation")) for r in by_head["run_loop"])
    # its calls, one fact per cell and player, unless the static fold joined them into a table of their own
    # with the static relations a rule reads beside them (tgpl.lowering.static_fold): then nothing reads them
    calls = by_head.get("makesfour_call", [])
    assert (len(calls) == 42 and all(not r.body for r in calls)) or (
        not calls and not any(getattr(lit, "relation", None) == "makesfour_call" for r in program.rules
                              for lit in r.body))
    # At reads no fluent: it is a table of the cells, and null off the board (or joined into the static fold's
    # tables, where it is read beside other static relations only)
    assert all(not r.body for r in by_head.get("at", []))
    # fewer rules than a version per call (the default lowering before its win check is made global)
    per_call = lower(connect4.game.program, snapshot(connect4.game.initial_state(0)))
    assert rules_with_body(program) < rules_with_body(per_call.program)


def test_connect4_as_relations_plays_as_the_runtime(connect4):
    rng = random.Random("connect4 as relations")
    for _ in range(12):
        playout(connect4, rng)


GROWS = GAME.replace("FILTER", "return c.Free;").replace("EFFECT", "c.Free = false; if (Grows(x: c)) { GameState.Bonus = 1; }")
GROWS = GROWS.replace("CHECK", "").replace("""function Open""", """function Grows
{
    function input Cell x;
    returns bool;
    effect
    {
        number n = 0;
        while (x.Free) { n += 1; }
        return n > 3;
    }
}

function Open""")


def test_a_loop_the_board_does_not_bound_is_refused_at_the_function():
    program = load_program("grows.tgpl", text=GROWS)
    assert program.ok
    start = snapshot(Game(program, compile_program(program)).initial_state(0))
    with pytest.raises(NotLowerable) as e:
        lower(program, start, relations=True)
    assert (e.value.span.line, e.value.span.col) == (GROWS[:GROWS.index("Grows\n")].count("\n") + 1, 10)
    assert "grow past 1000" in e.value.reason


def test_tris_is_the_same_game_either_way():
    """Tris's WinCheck reads the board through a view: as a relation, the game keeps its 5,478 states."""
    from tgpl.asp.verify import GdlMachine
    from tgpl.verify.graph import explore

    lw = Lowered.of(str(EXAMPLES / "tris.tgpl"), relations=True)
    assert [d.message for d in validate(lw.lowered.program) if d.is_error] == []
    g = explore(GdlMachine(lw.gdl))
    assert (g.expanded, sum(g.terminal)) == (5478, 958)


def test_a_game_with_a_string_fluent_lowers_with_every_call_run():
    """examples/graph.tgpl has a string attribute among its fluents, which compiled rules cannot name: the option
    then runs every call (it used to stop with a Python error), and the game still plays as the runtime's."""
    lw = Lowered.of(str(EXAMPLES / "graph.tgpl"), relations=True)
    assert validate(lw.lowered.program, "graph") == []
    rng = random.Random("graph as relations")
    for _ in range(10):
        assert playout(lw, rng)  # its joint moves: a play that ended, the same on both sides


DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"


def test_list_fields_of_cells_known_at_run_time_and_sides_given_as_numbers():
    """reach.tgpl's functions take a cell and a side: `x.Near[i]`, `x.Near.length` and `x.Near.contains(Center)`
    read tables of every cell's list, and `side == 0` compares with the player constant (compared with the
    number 0 it never held, the side test was always false: a wrong game). Every reachable state is compared."""
    lw = Lowered.of(str(DATA / "reach.tgpl"), relations=True)
    assert lw.lowered.stats["functions as relations"] == 3  # Claimable, HasClaim, Strong
    program = lw.lowered.program
    assert [d.message for d in validate(program) if d.is_error] == []
    heads = {r.head.relation for r in program.rules}
    assert {"claimable", "claimable_call", "strong", "hasclaim"} <= heads
    # a side compared with 0 and 1 is the role's constant in the rules, never the number
    text = "\n".join(str(r) for r in program.rules if r.head.relation.startswith("claimable"))
    assert "player_0" in text and "player_1" in text
    runtime = bisimulate(lw)
    assert runtime.states > 100


def test_compiled_list_reads_fail_validation_when_mistranslated(monkeypatch):
    """Planted mistakes are different games, and the comparison says so: each cell's list read without its last
    neighbour, and sides compared with plain numbers."""
    from tgpl.lowering import horn

    real = horn._FunctionCompiler.list_fields
    monkeypatch.setattr(horn._FunctionCompiler, "list_fields",
                        lambda self, attr, of=None: [(obj, items[:-1]) for obj, items in real(self, attr, of)])
    with pytest.raises(AssertionError):
        bisimulate(Lowered.of(str(DATA / "reach.tgpl"), relations=True))
    monkeypatch.undo()
    monkeypatch.setattr(horn._FunctionCompiler, "as_player", lambda self, v: v)
    with pytest.raises(AssertionError):
        bisimulate(Lowered.of(str(DATA / "reach.tgpl"), relations=True))


def test_a_call_too_costly_for_the_executor_is_compiled_without_the_option(monkeypatch):
    """Without --functions-as-relations the executor spells out each call; a function whose calls build more
    than CALL_WORK parts of conditions, all together, is compiled instead (chess's move test passes the whole
    budget in minutes otherwise). Here the share is cut so that reach.tgpl's functions pass it: they are compiled, and the game
    is still the runtime's, state by state; with the usual share nothing is."""
    from tgpl.lowering import execute

    plain = Lowered.of(str(DATA / "reach.tgpl"))
    assert "functions as relations" not in plain.lowered.stats
    monkeypatch.setattr(execute, "CALL_WORK", 20)  # its functions, all calls together
    lw = Lowered.of(str(DATA / "reach.tgpl"))
    assert lw.lowered.stats["functions as relations"] >= 1
    assert [d.message for d in validate(lw.lowered.program) if d.is_error] == []
    assert bisimulate(lw).states == bisimulate(plain).states


def test_a_list_of_a_cell_known_at_run_time_kept_in_a_local_across_a_branch():
    """listlocal.tgpl: `List<Cell> near = x.Near;` then an `if`: the join of the branches carries the locals
    that are variables, and the list held the cell as a variable of its own. Such a function is not compiled
    (the executor runs it); it used to be, and the validation found a different game."""
    lw = Lowered.of(str(DATA / "listlocal.tgpl"), relations=True)
    assert lw.lowered.stats["functions as relations"] == 2  # Claimable, HasClaim; Strong is run call by call
    assert bisimulate(lw).states > 100


def test_arithmetic_on_players_is_left_to_the_executor():
    """playerarith.tgpl's FoeHasClaim(side) calls HasClaim(side: side + 1): the next player wraps around, and a
    table of sums holds numbers, not the players' constants; compiled, the call never held and the game ended
    early (the validation found it). The function is run call by call; HasClaim, called from it, is compiled."""
    lw = Lowered.of(str(DATA / "playerarith.tgpl"), relations=True)
    assert lw.lowered.stats["functions as relations"] >= 1
    assert bisimulate(lw).states > 100


def test_locals_declared_in_a_loop_body_are_not_carried_into_the_recursion():
    """pairs.tgpl's MakesPair walks a line with a local declared in the loop's body: carried through the joins
    in the body into the loop's recursion, where the loop's head did not bind it, the rules broke GDL's
    recursion restriction and to-gdl stopped with an internal error (draughts and scores.tgpl too). A name
    declared in the body is declared again by every pass, so no pass reads another's."""
    lw = Lowered.of(str(DATA / "pairs.tgpl"), relations=True)
    assert lw.lowered.stats["functions as relations"] >= 1
    assert [d.message for d in validate(lw.lowered.program) if d.is_error] == []
    assert bisimulate(lw).states > 10


def test_the_owner_of_a_piece_read_through_its_square_is_a_table_of_owners():
    """owners.tgpl reads whose man stands on a square as `s.Man.player`: the owner of an object known only at
    run time. With no assign() after setup each object has one owner, so as rules with variables it is a
    static table from object to owner (once refused: "'player' of an object known at run time", and the two
    functions were run call by call). Every reachable state is compared."""
    lw = Lowered.of(str(DATA / "owners.tgpl"), relations=True)
    assert lw.lowered.stats["functions as relations"] == 2  # Steps and Stuck (At, reading no fluent, is a table)
    program = lw.lowered.program
    assert [d.message for d in validate(program) if d.is_error] == []
    heads = {r.head.relation for r in program.rules}
    assert {"steps", "stuck"} <= heads
    assert bisimulate(lw).states == 21  # every state of the game (ten moves at most)


def test_an_unsafe_relaxed_program_is_refused_naming_the_rule():
    """clingo raises only "too many messages." past 20 errors (or "grounding stopped because of errors"); the
    relaxation's refusal (`CompiledGame.relax`) gives its first message instead: which rule, which variable."""
    from tgpl.lowering.horn import _model

    program = "p(1).\n" + "".join(f"q{i}(X, Y) :- p(X).\n" for i in range(25))
    with pytest.raises(RuntimeError) as e:
        _model(program, {("q0", 2)})
    assert str(e.value).startswith("error: unsafe variables in: q0(X,Y)"), str(e.value)
    assert "'Y' is unsafe" in str(e.value)
