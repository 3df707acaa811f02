"""Functions that read only run optimistically (tgpl.runtime.readonly, their direct spelling
`direct.spell`): their scalar field reads are one lookup with no test, and a read that needs
the machine (a null, a fixed object) starts the call again the general way. Games play exactly
as with the general spelling: the same moves, logs, keys and errors (where, what, the loop-step
limit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import RuntimeOptions, load_game
from tgpl.runtime.errors import TGPLRuntimeError
from observed import reference

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def optimistic(game) -> set[str]:
    c = game.compiled
    fs = list(c.functions.values()) + [rf for rc in c.classes_by_id() for rf in rc.functions.values()]
    return {rf.what for rf in fs if rf.effect is not None and getattr(rf.effect, "direct_call", None) is not None
            and "_general" in rf.effect.direct_call.__globals__}  # the way back of an optimistic spelling


@pytest.fixture
def general(monkeypatch):
    """load(path) -> the game run the plain way (`RuntimeOptions.reference()`: the closures only)."""
    return reference


def test_which_example_functions_run_optimistically(general):
    chess = optimistic(load_game(EXAMPLES / "chess" / "chess.tgpl"))
    assert {"function Chess.CanMove", "function Chess.Reaches", "function Chess.Attacked",
            "function Chess.Slides"} <= chess
    assert "function Chess.Go" not in chess  # it moves the pieces
    assert optimistic(load_game(EXAMPLES / "tris.tgpl")) == {"function WinCheck"}
    # reads `turn.phase.active()`, which only reads whose turn it is
    assert "function Square.Reaches" in optimistic(load_game(EXAMPLES / "draughts.tgpl"))
    assert optimistic(general(EXAMPLES / "chess" / "chess.tgpl")) == set()


GAME = """
game "t";
players 1;
tile Cell { number Value = 0; Cell Next = null; }
board B
{
    group G { geometry square; grid { Cell, Cell, Cell; } }
    // reads only: the value after `c`'s, looping first to count steps
    function NextValue
    {
        function input Cell c;
        function input number loops;
        returns number;
        effect
        {
            number s = 0;
            for (number k = 0; k < loops; k += 1) { s += 1; }
            return c.Next.Value + s;
        }
    }
    // reads only: a field of the move's PlayerChoiceEvent (a fixed object, not in the world's table)
    function Mover
    {
        function input PlayerChoiceEvent e;
        function input number loops;
        returns number;
        effect
        {
            number s = 0;
            for (number k = 0; k < loops; k += 1) { s += 1; }
            return e.active + s;
        }
    }
}
global class GameState { B Board = null; }
class Seat
{
    action First
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number v = GameState.Board.NextValue(c: GameState.Board.G[0][0] as Cell, loops: 30);
            log("value " + v);
            turn.pass();
        }
    }
    action Last
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number v = GameState.Board.NextValue(c: GameState.Board.G[2][0] as Cell, loops: 30);
            log("value " + v);
            turn.pass();
        }
    }
    action Event
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number v = GameState.Board.Mover(e: event as PlayerChoiceEvent, loops: 30);
            v += GameState.Board.Mover(e: event as PlayerChoiceEvent, loops: 30);
            log("mover " + v);
            turn.pass();
        }
    }
}
turn T { phase P { } default { return 0; } }
setup
{
    GameState.Board = new B();
    (GameState.Board.G[0][0] as Cell).Next = GameState.Board.G[1][0] as Cell;
    (GameState.Board.G[1][0] as Cell).Value = 8;
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def _outcome(g, moves: list[str], name: str):
    state = g.initial_state(0)
    try:
        for move in moves:
            state = state.apply(move)
        return ("ok", tuple(state.log), state.key())
    except TGPLRuntimeError as e:
        return ("error", e.render().replace(name, "game.tgpl"))


@pytest.fixture
def both(game, monkeypatch):
    """The test game compiled optimistically and not."""
    fast = game(GAME, name="fast.tgpl")
    slow = game(GAME, name="slow.tgpl", options=RuntimeOptions.reference())
    assert optimistic(fast) == {"function B.NextValue", "function B.Mover"} and optimistic(slow) == set()
    return fast, slow


@pytest.mark.parametrize("moves", [["Seat#0.First()"], ["Seat#0.Last()"], ["Seat#0.Event()", "Seat#0.First()"]])
def test_reads_that_need_the_machine_come_out_the_same(both, moves):
    fast, slow = both
    a, b = _outcome(fast, moves, "fast.tgpl"), _outcome(slow, moves, "slow.tgpl")
    assert a == b
    if moves == ["Seat#0.Last()"]:  # a null's field: the error, where and with its call stack
        assert a[0] == "error" and "cannot read 'Value' of null" in a[1] and "in function B.NextValue" in a[1]
    else:
        assert a[0] == "ok"


@pytest.mark.parametrize("limit", [30, 31, 45, 61, 62, 63, 100])
def test_a_run_given_up_gives_its_loop_steps_back(both, limit):
    # Mover loops 30 steps (31 counted with the test ending the loop, counted per pass), then
    # reads a field of a fixed object, which starts it again: the steps of the first run are
    # given back, so the limit's error comes where the general spelling raises it
    fast, slow = both
    outcomes = []
    for name, g in (("fast.tgpl", fast), ("slow.tgpl", slow)):
        g.step_limit = limit
        outcomes.append(_outcome(g, ["Seat#0.Event()"], name))
    assert outcomes[0] == outcomes[1]
    assert any(o[0] == "ok" for o in outcomes) or limit < 100


# Direct calls (tgpl.runtime.direct): a call of a function that reads only runs the callee's own
# Python function, which adds its entry to the stack of an error passing through it.
CALLS = """
game "t";
players 1;
class Shape
{
    number Size = 1;
    function Area { function input number k; returns number; effect { return Size * k; } }
    function Twice { function input number k; returns number; effect { return Area(k: k) + Area(k: k); } }
}
class Big : Shape
{
    override function Area { function input number k; returns number; effect { return Size * k * 10; } }
}
global class Util
{
    List<number> Xs = {1, 2, 3};
    number Zero = 0;  // written by a move: the functions reading it are not pure (not memoized)
    Shape Small = null;
    Shape Large = null;
    function At { function input number i; returns number; effect { return Xs[i] + Zero; } }
    function Deep
    {
        function input number n;
        returns number;
        effect { if (n <= 0) { return At(i: n + 5); } return Deep(n: n - 1) + 1 + Zero; }
    }
    // pure and memoized (it loops): called by a site that pushes its entry, from direct calls
    function Memo
    {
        function input number i;
        returns number;
        effect { number s = 0; for (number k = 0; k < 2; k += 1) { s += Xs[i]; } return s; }
    }
    function Mixed
    {
        function input number n;
        returns number;
        effect { if (n <= 0) { return Memo(i: n + 7); } return Mixed(n: n - 1) + 1 + Zero; }
    }
    function Forever { function input number n; returns number; effect { return Forever(n: n + 1) + Zero; } }
    function Of { function input Shape s; returns number; effect { return s.Twice(k: 2) + Zero; } }
    function Huge
    {
        function input number n;
        returns number;
        effect
        {
            number x = n + Zero;
            for (number i = 0; i < 40; i += 1) { x = x * 9007199254740992; }
            return Xs[x];
        }
    }
}
function Free { function input number n; returns number; effect { return Util.Deep(n: n); } }
class Seat
{
    action Fine
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            log("" + Util.Mixed(n: -5) + " " + Util.At(i: 1) + " " + Util.Of(s: Util.Small) + " " + Util.Of(s: Util.Large)
                + " " + Util.Deep(n: -3) + " " + Free(n: -4));
            turn.pass();
        }
    }
    action DeepError { trigger PlayerChoiceEvent { return true; } effect { log("" + Free(n: 3)); turn.pass(); } }
    action MixedError { trigger PlayerChoiceEvent { return true; } effect { log("" + Util.Mixed(n: 2)); turn.pass(); } }
    action Reset { trigger PlayerChoiceEvent { return true; } effect { Util.Zero = 0; turn.pass(); } }
    action NullTarget { trigger PlayerChoiceEvent { return true; } effect { log("" + Util.Of(s: null)); turn.pass(); } }
    action TooLarge { trigger PlayerChoiceEvent { return true; } effect { log("" + Util.Huge(n: 1)); turn.pass(); } }
    action Endless { trigger PlayerChoiceEvent { return true; } effect { log("" + Util.Forever(n: 0)); turn.pass(); } }
}
turn T { phase P { } default { return 0; } }
setup
{
    Util.Small = new Shape();
    Util.Large = new Big();
    Util.Large.Size = 3;
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


@pytest.fixture
def calls(game, monkeypatch):
    """The CALLS game compiled with direct calls and without."""
    fast = game(CALLS, name="fast.tgpl")
    slow = game(CALLS, name="slow.tgpl", options=RuntimeOptions.reference())
    return fast, slow


def _direct_functions(game) -> set[str]:
    c = game.compiled
    fs = list(c.functions.values()) + [rf for rc in c.classes_by_id() for rf in rc.functions.values()]
    return {rf.what for rf in fs if rf.effect is not None and getattr(rf.effect, "direct_call", None) is not None}


def test_functions_that_read_only_have_a_direct_spelling(calls):
    fast, slow = calls
    assert _direct_functions(fast) == {
        "function Shape.Area", "function Shape.Twice", "function Big.Area", "function Util.At", "function Util.Deep",
        "function Util.Forever", "function Util.Of", "function Util.Huge", "function Free", "function Util.Mixed",
        "function Util.Memo"}  # spelled so, but called through its memo
    util = fast.compiled.classes["Util"]
    assert util.functions["Memo"].memo is not None
    assert all(util.functions[n].memo is None for n in ("At", "Deep", "Mixed", "Forever", "Of", "Huge"))
    assert _direct_functions(slow) == set()


@pytest.mark.parametrize("move", ["Seat#0.Fine()", "Seat#0.DeepError()", "Seat#0.MixedError()", "Seat#0.NullTarget()",
                                  "Seat#0.TooLarge()"])
def test_direct_calls_give_the_same_values_and_errors(calls, move):
    fast, slow = calls
    for _ in range(2):  # the second time through sites bound by the first
        a, b = _outcome(fast, [move], "fast.tgpl"), _outcome(slow, [move], "slow.tgpl")
        if move == "Seat#0.NullTarget()":  # the closures word a method called on null their own way
            assert "cannot call 'Twice' on null" in a[1] and "null has no members" in b[1]
            b = (b[0], b[1].replace("null has no members", "cannot call 'Twice' on null"))
        assert a == b
    if move == "Seat#0.Fine()":
        assert a[0] == "ok" and a[1] == ("6 2 4 120 3 2",)
    else:
        assert a[0] == "error"
    if move == "Seat#0.DeepError()":  # the index error, under every call of the chain
        assert a[1].count("in function Util.Deep") == 4 and "in function Free" in a[1] and "in function Util.At" in a[1]
    if move == "Seat#0.MixedError()":  # a memoized function's site pushes its entry: in its place
        assert a[1].count("in function Util.Mixed") == 3 and a[1].index("Util.Memo") < a[1].index("Util.Mixed")


def test_a_direct_recursion_too_deep_is_reported_as_a_call_sites(calls):
    fast, slow = calls
    for g, name in ((fast, "fast.tgpl"), (slow, "slow.tgpl")):
        with pytest.raises(TGPLRuntimeError, match="calls nested too deeply") as info:
            g.initial_state(0).apply("Seat#0.Endless()")
        lines = info.value.render().replace(name, "game.tgpl").splitlines()
        # how deep the host's stack lets TGPL calls go depends on how they are spelled
        assert lines[0].endswith("runtime error: calls nested too deeply (in function Util.Forever): is the recursion endless?")
        assert "more calls" in lines[11] and len(lines) == 22
        assert lines[-1].startswith("  in action Seat.Endless")
        assert all(line.startswith("  in function Util.Forever at") for line in lines[1:11] + lines[12:-1])


# A filter that reads only, listed optimistically over its candidates (`filter_all`): a square
# group's connection is a fixed object, so reading its `to` starts the listing again the
# general way, with the loop steps of the calls before it given back.
FILTERS = """
game "t";
players 1;
tile Cell { number Value = 0; Cell Next = null; }
board B { group G { geometry square; grid { Cell, Cell, Cell; } } }
global class Util
{
    number Zero = 0;
    B Board = null;
    function Spin { function input number n; returns number; effect { number s = 0; for (number k = 0; k < n; k += 1) { s += 1; } return s + Zero; } }
}
class Seat
{
    action Pick
    {
        input Cell target { return Util.Spin(n: 10) >= 0 && target.connections[0].to != null && target.Value == 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { target.Value = 1; Util.Zero = 0; turn.pass(); }
    }
    action Broken
    {
        input Cell target { return target.Value == 1 && target.Next.Value == 0; }  // after a Pick: null's Value
        trigger PlayerChoiceEvent { return true; }
        effect { turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup
{
    Util.Board = new B();
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def _listed(g, name: str):
    state = g.initial_state(0)
    seen = []
    try:
        for _ in range(4):
            moves = state.legal_moves()
            seen.append([m.text for m in moves])
            picks = [m for m in moves if ".Pick(" in m.text]
            if not picks:
                break
            state = state.apply(picks[0])
        return ("ok", seen, state.key())
    except TGPLRuntimeError as e:
        return ("error", seen, e.render().replace(name, "game.tgpl"))


@pytest.mark.parametrize("limit", [5, 10, 11, 25, 30, 31, 35, 45, 1000])
def test_filters_that_read_only_list_the_same_optimistically(game, monkeypatch, limit):
    fast = game(FILTERS, name="fast.tgpl")
    slow = game(FILTERS, name="slow.tgpl", options=RuntimeOptions.reference())
    pick = fast.compiled.classes["Seat"].find_action("Pick").inputs[0].filters[0][1]
    assert pick.all.__name__ == "_all_opt" and "_h0" in pick.all.__code__.co_varnames  # hoisted: `Util`, read once
    outcomes = []
    for g, name in ((fast, "fast.tgpl"), (slow, "slow.tgpl")):
        g.step_limit = limit
        outcomes.append(_listed(g, name))
    assert outcomes[0] == outcomes[1]
    if limit >= 35:  # three candidates of ten steps each are listed; then the null's Next: the filter's error
        assert outcomes[0][0] == "error" and outcomes[0][1] == [["Seat#0.Pick(target: G[0][0])",
                                                                 "Seat#0.Pick(target: G[1][0])",
                                                                 "Seat#0.Pick(target: G[2][0])"]]
        assert "cannot read 'Value' of null" in outcomes[0][2]


# Reads of tables held in locals, in a value that calls nothing: a missing key or a null table
# gives what the reference gives.
TABLES = """
game "t";
players 1;
class Seat
{
    action Read
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Table<Table<number>> t = {};
            for (number x = 0; x < 2; x += 1)
            {
                t[x] = {};
                for (number y = 0; y < 2; y += 1) { t[x][y] = x * 10 + y; }
            }
            number hit = t[1][0];
            Table<number> none = t[5];
            bool missing = t[0][7] == null;
            Table<string> names = {};
            names["a"] = "x";
            string found = names["a"];
            string lost = names["b"];
            log("" + hit + " " + (none == null) + " " + missing + " " + found + " " + (lost == null));
            turn.pass();
        }
    }
    action NullTable
    {
        trigger PlayerChoiceEvent { return true; }
        effect { Table<Table<number>> t = {}; number v = t[3][1]; log("" + v); turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


@pytest.mark.parametrize("move", ["Seat#0.Read()", "Seat#0.NullTable()"])
def test_table_reads_come_out_the_same(game, monkeypatch, move):
    fast = game(TABLES, name="fast.tgpl")
    slow = game(TABLES, name="slow.tgpl", options=RuntimeOptions.reference())
    a, b = _outcome(fast, [move], "fast.tgpl"), _outcome(slow, [move], "slow.tgpl")
    assert a == b
    if move == "Seat#0.Read()":
        assert a[0] == "ok" and a[1] == ("10 true true x true",)
    else:
        assert a[0] == "error" and "cannot index null" in a[1]


# A filter's remembered values (fixed expressions, `fixed`) count their loop steps at every
# lookup: the optimistic listing counts them once, at its end, and lists again the general
# way when they pass the limit there.
CHARGES = """
game "t";
players 1;
tile Cell { number Value = 0; }
board B
{
    group G { geometry square; grid { Cell, Cell, Cell, Cell; } }
    // pure and remembered: five loop steps per computation, counted again at each lookup
    function Slow
    {
        function input Cell c;
        returns number;
        effect { number s = 0; for (number k = 0; k < 5; k += 1) { s += 1; } return s; }
    }
}
global class Util { B Board = null; }
class Seat
{
    action Pick
    {
        input Cell target { return Util.Board.Slow(c: target) >= 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { target.Value += 1; turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup { Util.Board = new B(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


@pytest.mark.parametrize("limit", [4, 5, 6, 19, 20, 21, 24, 25, 100])
def test_a_filter_counts_the_steps_of_remembered_values_as_the_general_way(game, monkeypatch, limit):
    fast = game(CHARGES, name="fast.tgpl")
    slow = game(CHARGES, name="slow.tgpl", options=RuntimeOptions.reference())
    code = fast.compiled.classes["Seat"].find_action("Pick").inputs[0].filters[0][1].all
    assert code.__name__ == "_all_opt" and "_acc" in code.__code__.co_varnames
    outcomes = []
    for g, name in ((fast, "fast.tgpl"), (slow, "slow.tgpl")):
        g.step_limit = 1000
        start = g.initial_state(0)
        after = start.apply(start.legal_moves()[0])  # the memo filled by the first listing
        g.step_limit = limit
        try:  # every value remembered: 4 lookups of 5 steps each
            outcomes.append(("ok", [m.text for m in after.legal_moves()]))
        except TGPLRuntimeError as e:
            outcomes.append(("error", e.render().replace(name, "game.tgpl")))
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0][0] == "ok") == (limit >= 20)


def test_a_call_given_in_order_runs_the_direct_spelling(game, monkeypatch):
    """A call site whose named arguments come in the callee's order installs its `_fast_direct` once bound: no
    call of those functions goes back to `_invoke`. (A slip in the site's test of the binder once sent every
    direct call back there: the same values, Tris 1.7x slower, and no other test noticed.)"""
    from tgpl.runtime import direct
    invoked: list[str] = []
    real = direct._invoke
    monkeypatch.setattr(direct, "_invoke", lambda m, f, *rest: invoked.append(f.what) or real(m, f, *rest))
    fast = game(CALLS + "\n// call sites compiled under the counting _invoke\n", name="sites.tgpl")
    for _ in range(3):
        assert _outcome(fast, ["Seat#0.Fine()"], "sites.tgpl")[0] == "ok"
    assert "function Util.At" not in invoked and "function Free" not in invoked, invoked
