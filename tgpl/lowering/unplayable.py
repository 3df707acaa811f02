"""Rules that read a move no player can make, dropped (`without_unplayable`, compiled games).

A compiled move reads its inputs as variables, and a write to an object that may be the one read splits the
clause in two: the terms unified, or `distinct` (`SegmentCompiler.read`). Where the two terms are two inputs of
one move, the unified way reads a move that is never legal: Checkers 6x6's `(does ?p (jump ?s ?x80 ?x80))`, a
jump whose landing square is the square it leaves, 107 of its 1,338 rules with a body. The game declares in
`input` every move the relaxation found can be legal, a superset of the moves ever made (GDL requires `legal` to
be within `input`), so a rule whose positive `does` matches no `input` fact never holds: dropped, with the
rules of relations that only dropped rules read. The same game, exactly; a game whose `input` is not facts
alone is left as it is.
"""

from __future__ import annotations

from tgpl.lowering.ir import GDL_RELATIONS, Atom, Const, Func, Program, Rule, Term, Var


def without_unplayable(program: Program) -> Program:
    """`program` without the rules that read a move `input` does not declare, nor the rules of relations only
    those rules read; `program` itself where none is dropped."""
    moves = _declared_moves(program)
    if moves is None:
        return program
    rules = program.rules
    dropped = {i for i, r in enumerate(rules) if any(_unplayable(lit, moves) for lit in r.body)}
    if not dropped:
        return program
    gone = _orphaned(rules, dropped)
    return Program(tuple(r for i, r in enumerate(rules) if i not in gone))


def _declared_moves(program: Program) -> dict[tuple, list[tuple[Term, Term]]] | None:
    """The (role, move) pairs `input` declares, filed by the move's name and arity; None where `input` is not
    given by facts alone (or not at all): nothing then bounds the moves."""
    rows = [r for r in program.rules if r.head.relation == "input"]
    if not rows or any(r.body for r in rows):
        return None
    out: dict[tuple, list[tuple[Term, Term]]] = {}
    for r in rows:
        out.setdefault(_key(r.head.args[1]), []).append(tuple(r.head.args))
    return out


def _key(move: Term) -> tuple:
    """A move's name and arity, or the constant itself (`noop`)."""
    return (move.name, len(move.args)) if isinstance(move, Func) else ("", str(move))


def _unplayable(lit, moves: dict[tuple, list[tuple[Term, Term]]]) -> bool:
    """Is `lit` a positive `does` that no declared move matches? A variable move matches any."""
    if not (isinstance(lit, Atom) and lit.relation == "does" and len(lit.args) == 2):
        return False
    move = lit.args[1]
    if isinstance(move, Var):
        return False
    rows = moves.get(_key(move), ())
    if rows and _open(lit.args):
        return False  # distinct variables match any move of that name
    return not any(_matches(lit.args, row, {}) for row in rows)


def _open(terms) -> bool:
    """Are the terms' leaves distinct variables, the move's name aside?"""
    leaves = [t for t in terms if not isinstance(t, Func)] + [a for t in terms if isinstance(t, Func) for a in t.args]
    return all(isinstance(t, Var) for t in leaves) and len({t.name for t in leaves}) == len(leaves)


def _matches(pattern, ground, bound: dict[str, Term]) -> bool:
    """Does the tuple of terms `pattern` (variables repeated alike) match the ground terms `ground`?"""
    for p, g in zip(pattern, ground):
        if isinstance(p, Var):
            if bound.setdefault(p.name, g) != g:
                return False
        elif isinstance(p, Func):
            if not (isinstance(g, Func) and g.name == p.name and len(g.args) == len(p.args)
                    and _matches(p.args, g.args, bound)):
                return False
        elif not (isinstance(p, Const) and p == g):
            return False
    return True


def _orphaned(rules: tuple[Rule, ...], dropped: set[int]) -> set[int]:
    """`dropped` (indices) and, transitively, the rules of relations (not GDL's own) that dropped rules read and
    that no rule kept reads."""
    gone = set(dropped)
    while True:
        read = {a.relation for i, r in enumerate(rules) if i not in gone for a, _ in r.body_atoms()}
        lost = {a.relation for i in gone for a, _ in rules[i].body_atoms()} - read - GDL_RELATIONS - {"tgpl_query"}
        more = {i for i, r in enumerate(rules) if i not in gone and r.head.relation in lost}
        if not more:
            return gone
        gone |= more
