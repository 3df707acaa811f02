"""Calls between functions that read only, inline (tgpl.runtime.inlining), and what a filter's test
does not take from its candidate, computed once per pool (tgpl.runtime.hoisting). Games play
exactly as without them: the same moves, logs, keys and errors (where, what, the stack of calls,
the loop-step limit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import RuntimeOptions, load_game
from tgpl.runtime.hoisting import hoist
from observed import outcome, reference

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def plain(monkeypatch):
    """load(path) -> the game run the plain way (`RuntimeOptions.reference()`: the closures only)."""
    return reference


def _inlined_locals(code) -> set[str]:
    return {n for n in code.__code__.co_varnames if n.startswith("_i")}


def _hoisted(code) -> bool:
    """Whether a filter's run over its pool reads parts of its test once, before the loop."""
    return code.__name__ == "_all_opt" and "_h0" in code.__code__.co_varnames


def test_chess_inlines_reaches_and_hoists_its_target_filter(plain):
    chess = load_game(EXAMPLES / "chess" / "chess.tgpl")
    rules = chess.compiled.classes["Chess"].functions
    assert _inlined_locals(rules["CanMove"].effect.direct_call)  # Reaches, KingOf, Passed inline
    assert _inlined_locals(rules["Reaches"].effect.direct_call)  # Ahead inline; Slides loops: called
    move = chess.compiled.classes["Seat"].find_action("Move")
    assert _hoisted(move.inputs[1].filters[0][1].all)


# `Step` has no loop: inline in `Outer`, `Twice` and the filter. `Count` loops: called. Each action
# meets another error inside the inlined body or below it.
CALLS = """
game "t";
players 1;
tile Cell { number Value = 0; Cell Next = null; }
board B { group G { geometry square; grid { Cell, Cell, Cell; } } }
global class Util
{
    number Zero = 0;
    number K = 0;
    List<number> Xs = {10, 20, 30};
    function Count { function input number n; returns number; effect { number s = 0; for (number i = 0; i < n; i += 1) { s += 1; } return s; } }
    function Step
    {
        function input Cell c;
        function input number k;
        returns number;
        effect
        {
            number d = k;
            if (k > 1) { d = k - 1; } else { d = d + 0; }
            if (c.Value > 5) { return c.Next.Value + d; }
            if (k < -1) { return Count(n: 0 - k); }
            number huge = k;
            if (k == -1) { huge = 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992 * 9007199254740992; }
            return Xs[huge] + d + Zero;
        }
    }
    function Outer { function input Cell c; function input number k; returns number; effect { return Step(c: c, k: k) + Count(n: 3); } }
    function Twice { function input Cell c; function input number k; returns number; effect { return Outer(c: c, k: k) + Step(c: c, k: k); } }
}
global class Board { B Grid = null; }
class Seat
{
    action Pick
    {
        input Cell target { return Util.Twice(c: target, k: Util.K) >= 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { target.Value = 9; turn.pass(); }
    }
    action Set
    {
        input Cell at { return true; }
        trigger PlayerChoiceEvent { return true; }
        effect { log("" + Util.Twice(c: at, k: Util.K)); turn.pass(); }
    }
""" + "".join(f"""    action K{name} {{ trigger PlayerChoiceEvent {{ return true; }} effect {{ Util.K = {k}; turn.pass(); }} }}
""" for name, k in (("0", "0"), ("1", "1"), ("2", "2"), ("5", "5"), ("M1", "-1"), ("M2", "-2"), ("M3000", "-3000"))) + """}
turn T { phase P { } default { return 0; } }
setup
{
    Board.Grid = new B();
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


@pytest.mark.parametrize("moves", [
    ["Seat#0.Set(at: G[2][0])", "Seat#0.K2()", "Seat#0.Set(at: G[2][0])", "Seat#0.K1()", "Seat#0.Set(at: G[1][0])"],
    ["Seat#0.K5()", "Seat#0.Set(at: G[2][0])"],  # an index out of range in Step, under Twice and Outer
    ["Seat#0.KM1()", "Seat#0.Set(at: G[2][0])"],  # an infinity used as an index in Step
    ["Seat#0.KM2()", "Seat#0.Set(at: G[2][0])"],  # Count, called from the inlined Step
    ["Seat#0.KM3000()", "Seat#0.Set(at: G[2][0])"],  # Count past the loop-step limit
    ["Seat#0.KM3000()"],  # the same while the moves are listed (Pick's filter)
    ["Seat#0.Pick(target: G[0][0])", "Seat#0.Set(at: G[1][0])"],  # listing: a null's Value in Step
    ["Seat#0.K5()"],  # listing: the index out of range
])
def test_errors_in_inlined_bodies_come_out_the_same(game, monkeypatch, moves):
    fast = game(CALLS, name="fast.tgpl")
    assert _inlined_locals(fast.compiled.classes["Util"].functions["Twice"].effect.direct_call)
    general = game(CALLS, name="general.tgpl", options=RuntimeOptions.reference())
    for g in (fast, general):
        g.step_limit = 2500
    for _ in range(2):  # the second time through sites bound by the first
        a = outcome(fast, moves, "fast.tgpl")
        assert a == outcome(general, moves, "general.tgpl")
    if moves[0] == "Seat#0.K5()":
        assert a[0] == "error" and "in function Util.Step" in a[2] and "in function Util.Outer" in a[2]
    if moves[0] == "Seat#0.KM3000()":
        assert a[0] == "error" and "in function Util.Count" in a[2] and "in function Util.Step" in a[2]
    if len(moves) == 5:
        assert a[0] == "ok"


# A filter whose part that does not depend on the candidate raises where the test does not reach
# it (`Util.Other` is null): computed before the loop, it gives up, and the pool runs as before.
HOISTED = """
game "t";
players 1;
tile Cell { number Value = 0; }
board B { group G { geometry square; grid { Cell, Cell, Cell; } } }
global class Util { Cell Other = null; number Goal = 0; }
global class Board { B Grid = null; }
class Seat
{
    action Pick
    {
        input Cell target { return target.Value == Util.Goal || Util.Other.Value == 1; }
        trigger PlayerChoiceEvent { return true; }
        effect { target.Value = 1; turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup
{
    Board.Grid = new B();
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_a_hoisted_part_that_raises_lists_as_before(game, monkeypatch):
    fast = game(HOISTED, name="fast.tgpl")
    assert _hoisted(fast.compiled.classes["Seat"].find_action("Pick").inputs[0].filters[0][1].all)
    slow = game(HOISTED, name="slow.tgpl", options=RuntimeOptions.reference())
    moves = ["Seat#0.Pick(target: G[0][0])", "Seat#0.Pick(target: G[1][0])"]
    a, b = outcome(fast, moves, "fast.tgpl"), outcome(slow, moves, "slow.tgpl")
    assert a == b
    assert a[0] == "error" and "cannot read 'Value' of null" in a[2]  # the first tile ticked


def test_hoisting_keeps_what_depends_on_the_way_through():
    # `x` is bound in two places, which one holds depends on the candidate: it stays in the loop
    found = hoist("((x := D[a]['F']) is _NV if c else (x := D[a]['G']) is _NV) or x == D[a]['H']", {"c"})
    assert found.prologue == ["_h0 = D[a]['F']", "_h1 = D[a]['G']", "_h2 = D[a]['H']"]
    assert "(x := _h0)" in found.test and "(x := _h1)" in found.test
    # a running count depends on the runs before: it stays, what it adds may be hoisted
    found = hoist("(_acc := _acc + D[a]['F']) > c", {"c"})
    assert found.test == "(_acc := (_acc + _h0)) > c" and found.prologue == ["_h0 = D[a]['F']"]
    # a call may count loop steps or raise: it stays, what it is given may be hoisted
    found = hoist("f(D[a]['F'], c) > 0", {"c"})
    assert found.test == "f(_h0, c) > 0" and found.prologue == ["_h0 = D[a]['F']"]


# A filter of several statements (`inlining.expression`): one expression over the pool, whose
# declared local, early `return` and a null's field (after a Pick) come out as candidate by candidate.
STATEMENTS = """
game "t";
players 1;
tile Cell { number Value = 0; Cell Next = null; }
board B { group G { geometry square; grid { Cell, Cell, Cell; } } }
global class Board { B Grid = null; number Limit = 2; }
class Seat
{
    action Pick
    {
        input Cell target
        {
            if (target.Value > Board.Limit) { return false; }
            number twice = target.Value * 2;
            if (twice == 0) { return true; }
            return target.Next.Value == 0;
        }
        trigger PlayerChoiceEvent { return true; }
        effect { target.Value = target.Value + 1; turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup
{
    Board.Grid = new B();
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


@pytest.mark.parametrize("moves", [[], ["Seat#0.Pick(target: G[1][0])"]])
def test_a_filter_of_several_statements_lists_as_candidate_by_candidate(game, monkeypatch, moves):
    fast = game(STATEMENTS, name="fast.tgpl")
    assert _hoisted(fast.compiled.classes["Seat"].find_action("Pick").inputs[0].filters[0][1].all)
    slow = game(STATEMENTS, name="slow.tgpl", options=RuntimeOptions.reference())
    assert getattr(slow.compiled.classes["Seat"].find_action("Pick").inputs[0].filters[0][1], "all", None) is None
    a, b = outcome(fast, moves, "fast.tgpl"), outcome(slow, moves, "slow.tgpl")
    assert a == b
    if moves:
        assert a[0] == "error" and "cannot read 'Value' of null" in a[2]
    else:
        assert a[0] == "ok" and len(a[1][0]) == 3
