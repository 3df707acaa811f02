"""A sum asked only whether it is positive (tgpl/lowering/existence.py) and the parts of a body that share no
variable with the rest (tgpl/lowering/independent.py).

Reversi's `Flips` adds `FlipsIn` over the directions and is asked only `Flips(...) > 0`: compiled as "some
direction flanks a disc", no running total. tests/data/lowering/flank.tgpl (4x4, the same rules) is
bisimulated with both in place by test_loop_writes.py; here, what makes the rewrite exact: terms never
negative, a total that starts at 0 and is only added to.
"""

from __future__ import annotations

from pathlib import Path

from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering.existence import nonnegative, positive_form
from tgpl.lowering.independent import independent_parts
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Program, Rule, Var
from tgpl.runtime.game import load_game

from test_loop_writes import FLANK, _lowered

FUNCTIONS = """
game "sums";
players 2;
setup { turn.use("Play"); turn.pass(0, "P"); }
global class GameState
{
    List<number> Ks = {1, 2, 0};
    function Up { function input number k; returns number;
        effect { number n = 0; while (n < k) { n += 1; } return n; } }
    function Down { function input number k; returns number;
        effect { number n = 0; n -= k; return n; } }
    function Sum { function input number k; returns number;
        effect { number t = 0; for (number i = 0; i < 3; i += 1) { t += Up(k: Ks[i] + k); } return t; } }
    function SumDown { function input number k; returns number;
        effect { number t = 0; for (number i = 0; i < 3; i += 1) { t += Down(k: i); } return t; } }
    function StartsAtOne { function input number k; returns number;
        effect { number t = 1; for (number i = 0; i < 3; i += 1) { t += Up(k: i); } return t; } }
    function ReadsTotal { function input number k; returns number;
        effect { number t = 0; for (number i = 0; i < 3 && t < 2; i += 1) { t += Up(k: i); } return t; } }
    function Input { function input number k; returns number;
        effect { number t = 0; t += k; return t; } }
}
turn Play { phase P { } }
"""


def _functions() -> tuple[dict, dict]:
    program = load_program("sums.tgpl", text=FUNCTIONS)
    assert program.ok
    infos = {}
    for scope in program.scopes.values():
        cls = scope.lookup("GameState")
        if cls is not None:
            infos = {n: cls.find_function(n) for n in
                     ("Up", "Down", "Sum", "SumDown", "StartsAtOne", "ReadsTotal", "Input")}
    return infos, program.types


def test_which_numbers_are_never_negative():
    fns, types = _functions()
    assert nonnegative(fns["Up"], types)  # 0, then only += 1
    assert not nonnegative(fns["Down"], types)  # -=
    assert nonnegative(fns["Sum"], types)
    assert not nonnegative(fns["Input"], types)  # an input may be negative


def test_only_a_total_from_zero_of_terms_never_negative_is_rewritten():
    fns, types = _functions()
    form = positive_form(fns["Sum"], types)
    assert form is not None and form.defn.returns.type.name == "bool"
    body = form.defn.effect.body.body
    assert isinstance(body[-1], ast.Return) and body[-1].value.value is False
    assert not any(isinstance(n, ast.Name) and n.name == "t" for n in ast.walk(body))
    # the term kept is the original expression (the checker's types are keyed by node)
    loop = next(n for n in ast.walk(body) if isinstance(n, ast.If))
    original = next(n for n in ast.walk([fns["Sum"].defn.effect]) if isinstance(n, ast.Assign)
                    and n.target.name == "t")
    assert loop.cond.left is original.value
    for name in ("SumDown", "StartsAtOne", "ReadsTotal", "Input"):
        assert positive_form(fns[name], types) is None, name


def test_flank_asks_whether_some_direction_flanks():
    lw = _lowered(FLANK)
    relations = lw.lowered.program.relations()
    assert "flips_positive" in relations and "flips" not in relations
    # the end phase's counts are read again after its join (compiled._read_again), not carried: each comparison
    # of the two counts is a part of its own (independent_parts), no rule compares them beside the control
    assert any(r.head.relation.startswith("tgpl_part") and any(a.relation == "count" for a, _ in r.body_atoms())
               for r in lw.lowered.program.rules)
    for r in lw.lowered.program.rules:
        counts = [a for a, _ in r.body_atoms() if a.relation == "count"]
        if counts:
            assert r.head.relation.startswith("tgpl_part") or r.head.relation.startswith("count"), str(r)
            assert all(not a.relation.startswith("join") for a, _ in r.body_atoms()), str(r)


def _rule(head, *body) -> Rule:
    return Rule(head, tuple(body))


X, Y, Z = Var("x"), Var("y"), Var("z")


def test_a_part_sharing_no_variable_is_a_condition_of_its_own():
    control = Atom("true", (Atom("control", (X,)),))
    compared = [Atom("count", (Const("a"), Y)), Atom("count", (Const("b"), Z)), Atom("greater", (Y, Z))]
    program = Program((
        _rule(Atom("won", (Const("a"),)), control, *compared),
        _rule(Atom("lost", (Const("b"),)), Atom("role", (X,)), *compared),
        _rule(Atom("keeps", (Y,)), control, *compared),  # a variable of the head: stays
    ))
    out = independent_parts(program)
    parts = [r for r in out.rules if r.head.relation.startswith("tgpl_part")]
    assert len(parts) == 1 and list(parts[0].body) == compared  # alike parts share one relation
    won, lost, keeps = out.rules[:3]
    assert won.body == (control, Atom(parts[0].head.relation))
    assert lost.body == (Atom("role", (X,)), Atom(parts[0].head.relation))
    assert keeps == program.rules[2]


def test_a_part_that_reads_the_rules_own_relation_stays():
    loop = _rule(Atom("reach", (X,)), Atom("reach", (Y,)), Atom("edge", (Y, Z)), Atom("start", (X,)))
    assert independent_parts(Program((loop,))).rules == (loop,)


def test_parts_around_the_move_share_only_its_variables_and_say_the_same():
    """Around `does`, the move's variables join no literals: the counter the way steps (every value of it) is a
    part of no arguments, the seat's counter a part over the seat, the cell read a part over the point; a part
    whose move variable only a `distinct` reads stays (its rule would not be safe). The same `bad` holds, in
    every state of a small board, with the parts apart as without (clingo, each state one model)."""
    import clingo

    from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp

    r, s, p, n, m, k, j, q, a = (Var(x) for x in ("r", "s", "p", "n", "m", "k", "j", "q", "a"))
    does = Atom("does", (r, Func("place", (s, p))))
    stones = [Atom("true", (Func("stones", (n,)),)), Atom("plus", (n, Const("1"), m))]
    pairs = [Atom("true", (Func("pairs", (s, k)),)), Atom("plus", (k, Const("1"), j))]
    cell = [Atom("next_to", (p, q)), Atom("true", (Func("stone", (q, Const("null"))),))]
    apart = [Atom("cell", (a,)), Distinct(a, p), Atom("true", (Func("stone", (a, Const("null"))),))]
    bad = _rule(Atom("bad"), does, *stones, *pairs, *cell, *apart)
    out = independent_parts(Program((bad,)), around="does")
    parts = {r.head.relation: r for r in out.rules if r.head.relation.startswith("tgpl_part")}
    assert sorted(str((x.body, x.head.args)) for x in parts.values()) == sorted(
        str((tuple(body), args)) for body, args in ((stones, ()), (pairs, (s,)), (cell, (p,))))
    assert out.rules[0].body == (does, *apart, *(Atom(x.head.relation, x.head.args) for x in parts.values()))
    plain = [x for x in independent_parts(Program((bad,))).rules if x.head.relation.startswith("tgpl_part")]
    assert sorted(len(x.body) for x in plain) == [2, 8] and all(not x.head.args for x in plain)  # the move with its reads

    facts = "".join(f"cell(c{i}). next_to(c{i},c{i + 1}). next_to(c{i + 1},c{i}). " for i in range(3)) + \
        "cell(c3). " + "".join(f"plus({i},1,{i + 1}). " for i in range(3)) + \
        "1 { true(stone(C,null)); true(stone(C,x)) } 1 :- cell(C). 1 { true(stones(0..3)) } 1. " \
        "1 { true(pairs(s0,0..3)) } 1. 1 { does(w,place(s0,C)) : cell(C) } 1. #show bad/0. #show true/1. #show does/2."

    def models(program: Program) -> set:
        ctl = clingo.Control(["0", "--warn=none"])
        ctl.add("base", [], rules_to_asp(program, ClingoNames()) + "\n" + facts)
        ctl.ground([("base", [])])
        found: set = set()
        ctl.solve(on_model=lambda model: found.add(frozenset(map(str, model.symbols(shown=True)))))
        return found
    before = models(Program((bad,)))
    assert any("bad" in x for x in before) and any("bad" not in x for x in before)
    assert models(out) == before
