"""Rules that read a move `input` does not declare are dropped, with what only they read (tgpl.lowering.unplayable)."""

from __future__ import annotations

from tgpl.asp.kif import read_kif, to_kif
from tgpl.lowering.ir import Program
from tgpl.lowering.unplayable import without_unplayable

DECLARED = """
    (input p (jump a b c)) (input p (jump b c d)) (input p noop)
"""


def test_a_way_whose_move_lands_where_it_leaves_goes_with_the_relation_only_it_reads():
    program = read_kif(DECLARED + """
        (<= (next (v ?x no)) (does ?p (jump ?s ?x ?x)) (helper ?x))
        (<= (helper ?x) (true (v ?x yes)))
        (<= (next (v ?x yes)) (does ?p (jump ?s ?f ?x)))
        (<= (next (v ?s no)) (does p (jump ?s b ?x)))
        (<= (next (v ?s no)) (does p (jump ?s d ?x)))
        (<= (next (w ?s)) (does p noop) (true (w ?s)))
    """)
    text = to_kif(without_unplayable(program))
    assert "(jump ?s ?x ?x)" not in text and "helper" not in text  # no declared jump lands where it leaves
    assert "(jump ?s ?f ?x)" in text and "(jump ?s b ?x)" in text and "(does p noop)" in text
    assert "(jump ?s d ?x)" not in text  # no declared jump leaves d
    assert text.count("(input ") == 3


def test_a_game_without_input_facts_is_left_as_it_is():
    rules = """
        (<= (next (v ?x no)) (does ?p (jump ?s ?x ?x)))
    """
    bare = read_kif(rules)
    assert without_unplayable(bare) is bare
    derived = read_kif(rules + "(<= (input p (jump ?a ?b ?c)) (cell ?a) (cell ?b) (cell ?c))")
    assert without_unplayable(derived) is derived
    playable = read_kif(DECLARED + "(<= (next (v ?x no)) (does ?p (jump ?s ?f ?x)))")
    assert without_unplayable(playable) is playable
