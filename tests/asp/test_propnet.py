"""tgpl.asp.propnet: a GDL game's propositional network, counted as GGP propnet reasoners count it."""

from __future__ import annotations

from tgpl.asp.kif import read_kif
from tgpl.asp.propnet import PropnetSize, propnet_size

TINY = """
(role a)
(n 1) (n 2)
(<= (base (p ?x)) (n ?x))
(base q)
(<= (input a (m ?x)) (n ?x))
(init (p 1))
(<= always (n 1))
(<= never (n 3))
(<= (legal a (m ?x)) (true (p ?x)) always)
(<= (next (p ?x)) (does a (m ?x)))
(<= (next q) (true q))
(<= both (true (p 1)) (true (p 2)))
(<= loop1 loop2)
(<= loop2 loop1)
(<= terminal (true (p 2)))
(<= terminal both)
(<= terminal (n 3))
(<= terminal loop1)
(<= (goal a 100) (true (p 2)) (n 2))
(<= (goal a 0) (not (true (p 2))) (not never))
"""


def test_a_tiny_game_counted_by_hand():
    size = propnet_size(read_kif(TINY))
    # bases: true(p(1)), true(p(2)); true(q) only keeps itself up to date (next q), so it goes with next(q)
    # inputs: does(a,m(1)), does(a,m(2)), read by next(p(X)), which feeds a base that legal reads
    # views: legal x2, next(p(X)) x2, both, terminal, goal(a,100), goal(a,0); `always` and `never` are
    # constants, loop1/loop2 can never hold (a positive loop), `(n 3)` is false: their literals go
    # and: both's body (legal's `always` and goal's `(n 2)` went: one-literal bodies are wires)
    # or: terminal (true (p 2) | both); not: (not (true (p 2))); a transition per base
    assert size == PropnetSize(bases=2, inputs=2, views=8, ands=1, ors=1, nots=1, transitions=2)
    assert size.propositions == 12
    assert size.gates == 3
    assert size.components == 17


def test_what_no_player_reads_is_not_counted():
    base = propnet_size(read_kif(TINY))
    unread = TINY + """
(<= (base (r ?x)) (n ?x))
(<= (next (r ?x)) (true (r ?x)) (does a (m ?x)))
(<= shadow (true (r 1)) (true (r 2)))
"""
    assert propnet_size(read_kif(unread)) == base


def test_a_fluent_read_by_legal_keeps_its_next_and_what_that_reads():
    read = TINY.replace("(<= (next q) (true q))", "(<= (next q) (true q) (does a (m 1)))") + \
        "(<= (legal a (m 1)) (true q))\n"
    size = propnet_size(read_kif(read))
    # true(q) and its transition; next(q) and its and gate; legal(a,m(1)) gets a second rule: an or gate
    assert size.bases == 3 and size.transitions == 3
    assert size.views == 9
    assert size.ands == 2
    assert size.ors == 2


def test_a_constant_output_is_one_proposition_tied_to_a_constant():
    base = propnet_size(read_kif(TINY))
    always_legal = TINY.replace("(<= (input a (m ?x)) (n ?x))", "(<= (input a (m ?x)) (n ?x))\n(input a wait)")
    fact = propnet_size(read_kif(always_legal + "(legal a wait)\n"))
    derived = propnet_size(read_kif(always_legal + "(<= (legal a wait) always)\n"))
    assert fact == derived
    assert fact.views == base.views + 1
    assert fact.components == base.components + 1
