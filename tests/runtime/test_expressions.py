"""What TGPL expressions evaluate to: arithmetic, strings, players, logic, types, equality."""

from __future__ import annotations

import pytest


def test_arithmetic_and_precedence(setup_log):
    log = setup_log("""
        log(1 + 2 * 3);
        log((1 + 2) * 3);
        log(10 - 4 - 3);
        log(1 / 4);
        log(10 / 4);
        log(2 * 3 + 2 ^ 3);
        log(-3 + 1);
    """)
    assert log == ["7", "9", "3", "0.25", "2.5", "14", "-2"]


@pytest.mark.parametrize(
    "expr, shown",
    [
        ("7 % 3", "1"),
        ("-7 % 3", "-1"),  # C#: the sign of the dividend
        ("7 % -3", "1"),
        ("-7 % -3", "-1"),
        ("5.5 % 2", "1.5"),
        ("-5.5 % 2", "-1.5"),
        ("6 % 3", "0"),
    ],
)
def test_remainder_keeps_the_sign_of_the_dividend(setup_log, expr, shown):
    assert setup_log(f"log({expr});") == [shown]


def test_power_is_right_associative_and_binds_tighter_than_unary_minus(setup_log):
    log = setup_log("""
        log(2 ^ 3);
        log(2 ^ 3 ^ 2);
        log(-2 ^ 2);
        log((-2) ^ 2);
        log(4 ^ 0.5);
        log(2 ^ -1);
    """)
    assert log == ["8", "512", "-4", "4", "2", "0.5"]


def test_caret_on_two_bools_is_xor(setup_log):
    log = setup_log("""
        log(true ^ false);
        log(false ^ true);
        log(true ^ true);
        log(false ^ false);
        number a = 1;
        number b = 2;
        log((a == 1) ^ (b == 1));
    """)
    assert log == ["true", "true", "false", "false", "true"]


def test_compound_assignment(setup_log):
    log = setup_log("""
        number x = 3;
        x += 10;
        log(x);
        x -= 1;
        log(x);
        x *= 2;
        log(x);
        x /= 8;
        log(x);
        x %= 2;
        log(x);
        string s = "a";
        s += 1;
        s += "b";
        log(s);
    """)
    assert log == ["13", "12", "24", "3", "1", "a1b"]


def test_plus_concatenates_when_either_operand_is_a_string(setup_log):
    log = setup_log("""
        log("a" + 1 + 2);
        log(1 + 2 + "a");
        log("x" + true + null);
        log("n=" + 2.5);
        player p = 1;
        log("player " + p);
    """)
    assert log == ["a12", "3a", "xtruenull", "n=2.5", "player 1"]


def test_player_arithmetic_wraps_around(setup_log):
    log = setup_log("""
        log(player.active() - 1);
        log(player.active() + 1);
        log(player.active() + 4);
        log(player.active() - 7);
        player p = 2;
        p += 2;
        log(p);
        p -= 5;
        log(p);
        player q = 0;
        q = 7;
        log(q);
        player r = 5;
        log(r);
    """, players=3)
    assert log == ["2", "1", "1", "2", "1", "2", "1", "2"]


def test_player_values_are_mapped_where_a_player_is_declared(setup_log):
    log = setup_log("""
        log(Next());
        log(Echo(p: 5));
        Box b = new Box();
        b.Set();
        log(b.Who);
        b.Who = 4;
        log(b.Who);
        List<player> ps = {4, 5};
        log(ps);
        Table<player> t = {};
        t["x"] = 8;
        log(t["x"]);
        log(Later());
    """, defs="""
        function Next { returns player; effect { return 4; } }
        function Echo { function input player p; returns player; effect { return p; } }
        class Box
        {
            player Who = 0;
            function Set { returns; effect { Who = 7; Who += 3; } }
            function Get { returns player; effect { return 5; } }
        }
        class Sub : Box { override function Get { effect { return 7; } } }
        function Later { returns number; effect { Box b = new Sub(); return b.Get(); } }
    """, players=3)
    assert log == ["1", "2", "1", "1", "{1, 2}", "2", "1"]


def test_a_player_expression_stored_in_a_number_stays_a_player(setup_log):
    assert setup_log("number n = player.active() + 5; log(n);", players=3) == ["2"]


def test_player_all(setup_log):
    assert setup_log("log(player.all()); log(player.all().length);", players=3) == ["{0, 1, 2}", "3"]


def test_comparisons(setup_log):
    log = setup_log("""
        log(2 < 3);
        log(3 < 2);
        log(2 <= 2);
        log(2 >= 3);
        log(3 > 2.5);
        log("abc" < "abd");
        log("b" > "abc");
        log(1 == 1.0);
        log(1 != 2);
        log("a" == "a");
        log(true == true);
        log(true != false);
        player p = 1;
        log(p == 1);
        log(p < 2);
    """)
    assert log == ["true", "false", "true", "false", "true", "true", "true", "true", "true",
                   "true", "true", "true", "true", "true"]


SIDE = """
function Side
{
    function input string tag;
    function input bool result = true;
    returns bool;
    effect { log("evaluated " + tag); return result; }
}
"""


def test_conditional_and_or_short_circuit(setup_log):
    log = setup_log("""
        log(false && Side(tag: "and-false"));
        log(true || Side(tag: "or-true"));
        log(true && Side(tag: "and-true"));
        log(false || Side(tag: "or-false", result: false));
    """, defs=SIDE)
    assert log == ["false", "true", "evaluated and-true", "true", "evaluated or-false", "false"]


def test_binary_and_or_evaluate_both_sides(setup_log):
    log = setup_log("""
        log(false & Side(tag: "band"));
        log(true | Side(tag: "bor"));
    """, defs=SIDE)
    assert log == ["evaluated band", "false", "evaluated bor", "true"]


def test_short_circuit_guards_a_null_access(setup_log):
    log = setup_log("""
        Box b = null;
        log(b != null && b.v > 0);
        log(b == null || b.v > 0);
    """, defs="class Box { number v = 1; }")
    assert log == ["false", "true"]


def test_not_and_negation(setup_log):
    assert setup_log("log(!true); log(!(1 > 2)); number x = 4; log(-x);") == ["false", "true", "-4"]


INHERITANCE = """
class A { number v = 1; }
class B : A { number w = 2; }
class C : A { }
class D : B { }
"""


def test_is_tests_the_dynamic_type(setup_log):
    log = setup_log("""
        A a = new B();
        log(a is A);
        log(a is B);
        log(a is C);
        log(a is D);
        A plain = new A();
        log(plain is B);
        A nothing = null;
        log(nothing is A);
        A deep = new D();
        log(deep is B);
    """, defs=INHERITANCE)
    assert log == ["true", "true", "false", "false", "false", "false", "true"]


def test_as_downcasts_or_gives_null(setup_log):
    log = setup_log("""
        A a = new B();
        B b = a as B;
        log(b.w);
        log(b == a);
        C c = a as C;
        log(c == null);
        A none = null;
        log((none as B) == null);
        A up = a as A;
        log(up == a);
    """, defs=INHERITANCE)
    assert log == ["2", "true", "true", "true", "true"]


def test_object_equality_is_identity(setup_log):
    log = setup_log("""
        A x = new A();
        A y = new A();
        A z = x;
        log(x == y);
        log(x != y);
        log(x == z);
        log(x == null);
        y.v = x.v;
        log(x == y);
    """, defs=INHERITANCE)
    assert log == ["false", "true", "true", "false", "false"]


def test_collection_equality_is_identity(setup_log):
    log = setup_log("""
        List<number> xs = {1, 2};
        List<number> ys = {1, 2};
        List<number> zs = xs;
        log(xs == ys);
        log(xs == zs);
        log(xs != ys);
    """)
    assert log == ["false", "true", "true"]


def test_null_equality(setup_log):
    log = setup_log("""
        number n = null;
        log(n == null);
        string s;
        log(s == null);
        log(s != null);
    """)
    assert log == ["true", "true", "false"]
