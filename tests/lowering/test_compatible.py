"""`symbolic.compatible`: whether a path's condition and the case of a value it wrote can hold together, where
the numbers decide some comparisons. It is what bounds a counter that a move steps by cases and that ends the
game when it reaches its limit (the ranges, `segments.Admission`)."""

from __future__ import annotations

from tgpl.lowering.symbolic import CmpLit, FluentLit, MoveLit, Num, compatible, conj, disj, lit, neg


def test_a_case_is_true_wherever_the_same_formula_occurs_in_the_condition():
    """Chess's Quiet: the move steps it (the move is quiet: a disjunction over moves, not a literal) or resets
    it; the game goes on only if the stepped value is below 100. At 99, going on and stepping cannot hold
    together, although the case is no conjunction of literals the condition could be checked against."""
    q = Num("fluent", ("Chess", "Quiet"))
    stepped = CmpLit(">=", Num("+", (q, 1.0)), 100.0)
    # a quiet move: no pawn moves and nothing is taken, for whichever move is made (a conjunction of disjunctions)
    quiet = conj(disj(lit(FluentLit("a2", "Piece", "Rook")), lit(FluentLit("b2", "Piece", "Rook"))),
                 disj(lit(FluentLit("a3", "Piece", None)), lit(FluentLit("b3", "Piece", None))))
    going_on = conj(disj(lit(MoveLit(0)), lit(MoveLit(1))), neg(conj(quiet, lit(stepped))))
    at_99 = lambda key: key == stepped if isinstance(key, CmpLit) else None  # noqa: E731
    at_50 = lambda key: False if isinstance(key, CmpLit) else None  # noqa: E731
    assert not compatible(going_on, quiet, at_99)
    assert compatible(going_on, quiet, at_50)
    assert compatible(going_on, neg(quiet), at_99)  # the reset case goes on at 99
