"""`satisfy.satisfiable`: whether a path's condition and a value's case can hold together, decided by clingo
with the literals free (at most one value per cell) and the comparisons the numbers decide fixed. The range
search asks it where `compatible`, which evaluates rather than decides, cannot see a contradiction."""

from __future__ import annotations

from tgpl.lowering.satisfy import satisfiable
from tgpl.lowering.symbolic import FALSE, TRUE, CmpLit, FluentLit, MoveLit, Num, compatible, conj, disj, lit, neg

NOTHING_KNOWN = lambda key: None  # noqa: E731


def test_a_contradiction_that_needs_case_analysis_is_found():
    x, y, z = (lit(FluentLit(c, "Piece", "Rook")) for c in ("a1", "b1", "c1"))
    a = conj(disj(x, y), disj(neg(x), z), disj(neg(y), z))  # x or y, and each of them gives z
    assert compatible(a, neg(z), NOTHING_KNOWN)  # evaluated, it cannot tell
    assert not satisfiable(a, neg(z), NOTHING_KNOWN)
    assert satisfiable(a, z, NOTHING_KNOWN)


def test_one_value_per_cell_and_one_move():
    rook, empty = lit(FluentLit("a1", "Piece", "Rook")), lit(FluentLit("a1", "Piece", None))
    assert not satisfiable(rook, empty, NOTHING_KNOWN)
    assert satisfiable(rook, lit(FluentLit("b1", "Piece", None)), NOTHING_KNOWN)
    assert not satisfiable(lit(MoveLit(0)), lit(MoveLit(1)), NOTHING_KNOWN)
    assert satisfiable(disj(lit(MoveLit(0)), lit(MoveLit(1))), lit(MoveLit(1)), NOTHING_KNOWN)
    assert satisfiable(TRUE, TRUE, NOTHING_KNOWN) and not satisfiable(TRUE, FALSE, NOTHING_KNOWN)


def test_a_case_spelled_apart_from_the_condition_is_ruled_out_by_the_numbers():
    """Chess's Quiet: the step's case is "no capture and no pawn", `not (taken or pawn)`; the condition of going
    on restates it with formulas of its own, `not (not taken and not pawn and stepped)`, so `compatible`, which
    finds a case in the condition by its formula, cannot tell. Decided with the count at 99, stepping to 100
    cannot go on; at 50 it can, and a capture (the count reset) goes on at 99."""
    q = Num("fluent", ("Chess", "Quiet"))
    stepped = CmpLit(">=", Num("+", (q, 1.0)), 100.0)
    taken = [lit(FluentLit(c, "Piece", "Rook")) for c in ("a3", "b3")]
    pawn = [lit(FluentLit(c, "Piece", "Pawn")) for c in ("a2", "b2")]
    moves = [lit(MoveLit(0)), lit(MoveLit(1))]
    quiet = disj(*(conj(m, neg(disj(t, p))) for m, t, p in zip(moves, taken, pawn)))
    going_on = disj(*(conj(m, neg(conj(neg(t), neg(p), lit(stepped)))) for m, t, p in zip(moves, taken, pawn)))
    at_99 = lambda key: key == stepped if isinstance(key, CmpLit) else None  # noqa: E731
    at_50 = lambda key: False if isinstance(key, CmpLit) else None  # noqa: E731
    assert compatible(going_on, quiet, at_99)  # evaluated, it cannot tell
    assert not satisfiable(going_on, quiet, at_99)
    assert satisfiable(going_on, quiet, at_50)
    assert satisfiable(going_on, neg(quiet), at_99)
