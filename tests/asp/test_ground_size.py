"""tgpl.asp.ground_size: the ground program a GDL game gives clingo, counted."""

from __future__ import annotations

from pathlib import Path

import clingo

from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.ground_size import ground_size
from tgpl.asp.kif import read_kif
from tgpl.asp.reasoner import external_domain, read_gdl
from tgpl.asp.solver import lp_file

ROOT = Path(__file__).resolve().parents[2]

TINY = """
(role a)
(n 1) (n 2)
(<= (base (p ?x)) (n ?x))
(<= (input a (m ?x)) (n ?x))
(init (p 1))
(<= (legal a (m ?x)) (true (p ?x)))
(<= (next (p ?y)) (does a (m ?x)) (n ?y) (or (distinct ?x ?y) (true (p ?y))))
(<= terminal (true (p 2)))
(<= (goal a 100) terminal)
(<= (goal a 0) (not terminal))
"""


def test_a_tiny_game_counted_by_hand():
    size = ground_size(read_kif(TINY))
    # legal: one per fluent (2); next: the `or` makes two rules, X != Y over 1..2 (2 ground) and
    # true(p(Y)) over X, Y (4 ground); terminal 1; the two goal rules 1 each
    assert size.rules == 2 + 2 + 4 + 1 + 1 + 1
    # role, n x2, base x2, input x2, init, and the domain: gdl_fluent x2, gdl_move x2
    assert size.facts == 12
    # true(p(1)), true(p(2)), does(a, m(1)), does(a, m(2))
    assert size.externals == 4
    assert size.total == 23


def test_no_state_is_assumed():
    # were true/does facts, the grounder would simplify legal and next away
    one = ground_size(read_kif(TINY))
    unreachable = ground_size(read_kif(TINY.replace("(init (p 1))", "(init (p 2))")))
    assert one == unreachable


def test_the_count_is_clasps_rule_statistic():
    program, _ = read_gdl(ROOT / "examples" / "gdl" / "connect4.kif")
    names = ClingoNames()
    ctl = clingo.Control(["--warn=none"])
    for part in (rules_to_asp(program, names), lp_file("ground_size.lp"), external_domain(program, names)):
        ctl.add("base", [], part)
    ctl.ground([("base", [])])
    ctl.solve()
    assert ground_size(program).total == ctl.statistics["problem"]["lp"]["rules"]


def test_the_baselines():
    sizes = {name: ground_size(read_gdl(ROOT / "examples" / "gdl" / f"{name}.kif")[0])
             for name in ("tictactoe", "connect4")}
    # 27 cell and 2 control fluents, 10 moves per role; 126 cells, 2 controls, 8 moves per role
    assert sizes["tictactoe"].externals == 27 + 2 + 2 * 10
    assert sizes["connect4"].externals == 126 + 2 + 2 * 8
    assert sizes["tictactoe"].rules < sizes["connect4"].rules
