"""Recursive pure functions as recursive relations (tgpl/lowering/horn.py, `HornCompiler.compile`).

A function that calls itself, directly or through others, is compiled as hand-written GDL walks a line:
its call is a literal of its own result relation, and the call's arguments a rule of its demand, so the
relation is defined by itself on the next square. The rules must stay stratified (no recursion through
`not`) and the relaxation finite (a recursion the board does not bound is refused, located, as a loop is).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import Lowered, bisimulate
from tgpl.asp.recursion import bind_recursion
from tgpl.asp.validate import validate
from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering.horn import HornCompiler, HornFunction, Unsupported
from tgpl.lowering.ir import Atom, Not, Rule, Var
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.game import Game, compile_program, load_game
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore
from tgpl.runtime.snapshot import snapshot

DATA = Path(__file__).resolve().parents[1] / "data"


def recursive_relations(program) -> set[str]:
    """The relations some rule defines by themselves (the head's relation read in its own body)."""
    return {r.head.relation for r in program.rules
            if any(getattr(x, "relation", None) == r.head.relation for x in r.body)}


def test_a_walk_and_a_mutual_recursion_are_relations_and_play_as_the_runtime():
    """walk.tgpl: `Reaches` calls itself on the next cell, `Blocked` and `Past` call each other. All three are
    rules with variables (they were run call by call: "recursive"), and every reachable state is compared."""
    lw = Lowered.of(str(DATA / "lowering" / "walk.tgpl"), relations=True)
    program = lw.lowered.program
    assert [d.message for d in validate(program) if d.is_error] == []
    assert lw.lowered.stats["functions as relations"] == 3  # those the game calls: Reaches, Blocked, Count
    recursive = recursive_relations(program)
    assert any(rel.startswith("reaches") for rel in recursive), recursive
    heads = {r.head.relation for r in program.rules}
    assert {"blocked", "past", "blocked_call", "past_call"} <= heads
    assert bisimulate(lw).states > 50


def test_the_walk_with_its_moves_compiled_is_the_runtimes_game():
    """The same game with its moves compiled once: each recursion read by its caller's instance, and the player
    `turn.pass(player + 1, ...)` names read through the seat's owner, whose table no relaxation read (it was
    written empty: the game stopped after the first move, with or without recursion)."""
    game = load_game(str(DATA / "lowering" / "walk.tgpl"))
    lowered = lower(game.program, snapshot(game.initial_state(0)), moves="compiled", repair=bind_recursion)
    assert lowered.stats["moves compiled"] == "yes"
    assert any(rel.startswith("reaches") for rel in recursive_relations(lowered.program))
    assert [d.message for d in validate(lowered.program) if d.is_error] == []
    lw = Lowered(game, lowered, None)
    runtime = explore(RuntimeMachine(game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states


FOREVER = """
game "forever";
players 2;

setup
{
    for (number p = 0; p < 2; p += 1)
    {
        Seat s = new Seat();
        s.assign(p);
    }
    turn.use("T");
    turn.pass(0, "P");
}

global class Tally
{
    bool Done = false;
}

function Far
{
    function input number n;
    returns bool;
    effect
    {
        if (Tally.Done) { return true; }
        return Far(n: n + 1);
    }
}

class Seat
{
    action Step
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Tally.Done = true;
            if (Far(n: 0)) { winner player; }
            turn.pass();
        }
    }
}

turn T
{
    phase P { }
    default { return player.active() + 1; }
}
"""


def test_a_recursion_the_board_does_not_bound_is_refused_at_the_function():
    """`Far(n)` ends wherever the game calls it (after `Done` is set), but only by the state it reads: with that
    read relaxed to any value, its number grows with every call, and the lowering says so at the function, as
    it does for a loop."""
    program = load_program("forever.tgpl", text=FOREVER)
    assert program.ok
    start = snapshot(Game(program, compile_program(program)).initial_state(0))
    with pytest.raises(NotLowerable) as e:
        lower(program, start, relations=True)
    assert (e.value.span.line, e.value.span.col) == (FOREVER[:FOREVER.index("Far\n")].count("\n") + 1, 10)
    assert "grow past 1000" in e.value.reason
    # with its moves compiled, the same refusal, at the same place (it once named no place: line 1)
    with pytest.raises(NotLowerable) as e:
        lower(program, start, moves="compiled")
    assert (e.value.span.line, e.value.span.col) == (FOREVER[:FOREVER.index("Far\n")].count("\n") + 1, 10)
    assert "grow past 1000" in e.value.reason and "not bounded by the board" in e.value.reason


def test_a_recursion_through_negation_is_refused_where_it_recurses():
    """GDL forbids a relation that depends on itself through `not`: the functions of such a recursion are
    refused together, located at a call that recurses."""
    hc = HornCompiler.__new__(HornCompiler)
    hc._recursive_calls = {"f": "the call"}
    p, r = Var("P"), Var("R")
    f = HornFunction("f", ["p"], rules=[
        Rule(Atom("f|found", (p,)), (Atom("f|call", (p,)), Atom("f|result", (p, r)))),
        Rule(Atom("f|result", (p, r)), (Atom("f|call", (p,)), Not(Atom("f|found", (p,))), Atom("g|result", (p, r)))),
    ])
    with pytest.raises(Unsupported) as e:
        hc._stratified({"f": f})
    assert e.value.span == "the call" and "negation" in str(e.value)
    # without the negation, the same recursion is fine
    f.rules[1] = Rule(f.rules[1].head, tuple(x.literal if isinstance(x, Not) else x for x in f.rules[1].body))
    hc._stratified({"f": f})


def test_amazons_lowers_with_its_queen_lines_a_recursive_relation(tmp_path):
    """tests/data/designers/amazons.tgpl walks a queen's line with `Open`, which calls itself on the next square.
    Compiled as a recursive relation, the moves are compiled once (spelled out, the game was 3,925 rules with
    a body and 3.5 MB), validated by plays comparing at least 1,000 steps, and check-gdl accepts it."""
    out = tmp_path / "amazons.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(DATA / "designers" / "amazons.tgpl"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    validated = text.splitlines()[1]
    steps = int(validated.split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert steps >= 1000, validated
    from tgpl.asp.kif import read_kif
    program = read_kif(text)
    assert sum(1 for x in program.rules if x.body) < 200
    assert any(rel.startswith("open") for rel in recursive_relations(program))
    r = CliRunner().invoke(main, ["check-gdl", "--grounding", "per-state", str(out)])
    assert r.exit_code == 0, r.output
