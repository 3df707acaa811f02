"""Statements: conditionals, loops, scopes, functions and implicit `this`."""

from __future__ import annotations

import pytest

from tgpl.runtime.errors import TGPLRuntimeError

GRADE = """
function Grade
{
    function input number n;
    returns string;
    effect
    {
        if (n > 10) { return "high"; }
        else if (n > 5) { return "mid"; }
        else if (n > 0) { return "low"; }
        else { return "none"; }
    }
}
"""


@pytest.mark.parametrize("n, grade", [(11, "high"), (10, "mid"), (6, "mid"), (5, "low"), (1, "low"), (0, "none"), (-3, "none")])
def test_else_if_chain_takes_the_first_true_branch(setup_log, n, grade):
    assert setup_log(f"log(Grade(n: {n}));", defs=GRADE) == [grade]


def test_if_without_else_skips(setup_log):
    assert setup_log('if (1 > 2) { log("no"); } log("after");') == ["after"]


def test_while_with_break_and_continue(setup_log):
    log = setup_log("""
        number i = 0;
        number total = 0;
        while (true)
        {
            i += 1;
            if (i % 2 == 0) { continue; }
            if (i > 7) { break; }
            total += i;
        }
        log(total);
        log(i);
    """)
    assert log == ["16", "9"]  # 1 + 3 + 5 + 7, stopped at 9


def test_for_break_leaves_only_the_inner_loop(setup_log):
    log = setup_log("""
        string out = "";
        for (number a = 0; a < 3; a += 1)
        {
            for (number b = 0; b < 3; b += 1)
            {
                if (b == a) { break; }
                out += "" + a + b + " ";
            }
        }
        log(out);
    """)
    assert log == ["10 20 21 "]


def test_for_continue_still_runs_the_step(setup_log):
    log = setup_log("""
        string out = "";
        for (number i = 0; i < 5; i += 1)
        {
            if (i == 2) { continue; }
            out += i;
        }
        log(out);
    """)
    assert log == ["0134"]


def test_for_with_every_part_omitted(setup_log):
    log = setup_log("""
        number x = 0;
        for (;;) { x += 1; if (x == 4) { break; } }
        log(x);
        number y = 10;
        for (; y > 7;) { y -= 1; }
        log(y);
    """)
    assert log == ["4", "7"]


def test_a_loop_body_that_never_runs(setup_log):
    assert setup_log('while (false) { log("never"); } for (number i = 0; i < 0; i += 1) { log("never"); } log("done");') == ["done"]


def test_nested_scopes_and_shadowing(setup_log):
    log = setup_log("""
        number x = 1;
        {
            number y = x + 1;
            log(y);
        }
        if (true)
        {
            number x = 5;
            x += 1;
            log(x);
        }
        log(x);
        for (number i = 0; i < 2; i += 1) { number x = 100 + i; log(x); }
        log(x);
    """)
    assert log == ["2", "6", "1", "100", "101", "1"]


def test_a_variable_declared_in_a_loop_is_fresh_each_iteration(setup_log):
    log = setup_log("""
        for (number i = 0; i < 3; i += 1)
        {
            number seen;
            log(seen == null);
            seen = i;
        }
    """)
    assert log == ["true", "true", "true"]


FUNCS = """
function Label
{
    function input number n;
    function input string unit = "pt";
    function input string prefix = "";
    returns string;
    effect { return prefix + n + unit; }
}
function Nothing { returns number; effect { } }
function Early
{
    function input number n;
    returns number;
    effect
    {
        for (number i = 0; i < 10; i += 1) { if (i == n) { return i * 10; } }
        return -1;
    }
}
function Fact
{
    function input number n;
    returns number;
    effect { if (n <= 1) { return 1; } return n * Fact(n: n - 1); }
}
"""


def test_functions_with_named_arguments_and_defaults(setup_log):
    log = setup_log("""
        log(Label(n: 3));
        log(Label(n: 3, unit: "x"));
        log(Label(unit: "y", n: 1, prefix: ">"));
    """, defs=FUNCS)
    assert log == ["3pt", "3x", ">1y"]


def test_return_leaves_loops_and_functions(setup_log):
    log = setup_log("log(Early(n: 4)); log(Early(n: 20)); log(Fact(n: 5)); log(Nothing());", defs=FUNCS)
    assert log == ["40", "-1", "120", "null"]


def test_arguments_are_values_for_numbers_and_references_for_objects(setup_log):
    log = setup_log("""
        number n = 1;
        Box b = new Box();
        Bump(x: n, box: b);
        log(n);
        log(b.v);
    """, defs="""
        class Box { number v = 0; }
        function Bump
        {
            function input number x;
            function input Box box;
            returns;
            effect { x += 1; box.v += 5; }
        }
    """)
    assert log == ["1", "5"]


IMPLICIT = """
class Counter
{
    number Count = 0;
    number Step = 2;
    function Bump { returns; effect { Count += Step; } }
    function Total { returns number; effect { Bump(); Bump(); return Count; } }
    function Shadow { returns number; effect { number Count = 100; return Count + this.Count; } }
}
"""


def test_bare_names_in_a_class_are_members_of_this(setup_log):
    log = setup_log("""
        Counter c = new Counter();
        log(c.Total());
        log(c.Count);
        log(c.Shadow());
        Counter other = new Counter();
        log(other.Count);
    """, defs=IMPLICIT)
    assert log == ["4", "4", "104", "0"]


def test_winner_stops_the_block(run_setup):
    state = run_setup('log("before"); winner 1; log("after");')
    assert state.log == ["before"]
    assert state.is_terminal


def test_winner_stops_the_blocks_and_calls_around_it(run_setup):
    """`winner` in an `if` or in a function called ends the game at once: nothing after it runs, nor a later
    `winner` (language decision 44; Ultimate tic-tac-toe's move checks the line of boards, then the draw)."""
    state = run_setup('if (true) { winner 1; } log("after the if"); End(); winner 0;',
                      defs='function End { returns; effect { winner 0; } }')
    assert state.log == [] and state.is_terminal and state.goals[1] > state.goals[0]
    state = run_setup('End(); log("after the call"); winner 1;', defs='function End { returns; effect { winner 0; } }')
    assert state.log == [] and state.is_terminal and state.goals[0] > state.goals[1]


def test_counted_loops_give_the_counter_the_values_the_loop_computes(setup_log):
    # spelled as Python loops over their counter's values (codegen's counted loops): fractional
    # steps accumulate as the loop adds them, `<=` takes the bound, a loop assigning its counter
    # or past the spelled-out length runs as before
    log = setup_log("""
        string out = "";
        for (number i = 0; i <= 0.3; i += 0.1) { out += i + " "; }
        log(out);
        out = "";
        for (number i = -2; i < 2; i += 1.5) { if (i == 1) { continue; } out += i + " "; }
        log(out);
        out = "";
        for (number i = 0; i < 10; i += 1) { if (i == 3) { i += 4; } out += i + " "; }
        log(out);
        number n = 0;
        for (number i = 0; i < 1000; i += 1) { n += i; if (i == 500) { break; } }
        log(n);
    """)
    x = 0.0
    tenths = []
    while x <= 0.3:
        tenths.append(x)
        x = float(x + 0.1)
    from tgpl.runtime.values import show
    assert log == [" ".join(show(v) for v in tenths) + " ", "-2 -0.5 ", "0 1 2 7 8 9 ", "125250"]


def test_a_field_read_twice_in_an_expression_is_the_same_read_only_where_the_first_runs(setup_log):
    # generated code reads a field of a local once per expression where the first read surely
    # runs before the others: not across the right operand of && and ||
    body = """
        Box b = new Box();
        Box none = null;
        for (number i = 0; i < LAST; i += 1)
        {
            bool early = i < 2;
            b.X = i;
            log("" + ((early && b.X == 1) || b.X == 3) + " " + (b.X + b.X * 10) + " "
                + (early || none.X == 0) + " " + (b.X == b.Y || b.Y == b.X + 1));
            b.Y = i + 2;
        }
    """
    defs = "class Box { number X = 0; number Y = 1; }"
    assert setup_log(body.replace("LAST", "2"), defs=defs) == ["false 0 true true", "true 11 true true"]
    with pytest.raises(TGPLRuntimeError, match="cannot read 'X' of null"):
        setup_log(body.replace("LAST", "3"), defs=defs)
