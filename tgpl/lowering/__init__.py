"""Lowering TGPL to logic: the IR every logic emitter shares.

`tgpl.lowering.ir` holds the IR (terms, atoms, literals, rules, programs); the
emitters and the GDL tools that read or write it live in `tgpl.asp`.
"""

from tgpl.lowering.ir import (
    Atom, Const, Distinct, Func, Literal, Not, Or, Program, Rule, Term, Var, expand_or, is_ground,
)

__all__ = [
    "Atom", "Const", "Distinct", "Func", "Literal", "Not", "Or", "Program", "Rule", "Term", "Var",
    "expand_or", "is_ground",
]
