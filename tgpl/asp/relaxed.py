"""The relaxed game: every rule without its negative literals, every fluent it can make fed back as true and
every move it can make legal done (`gdl_relaxed_domain.lp`).

Its one answer set over-approximates every state and move of the game, which is what the checks of `base`
and `input` (tgpl.asp.declared), the repair of GDL's recursion restriction (tgpl.asp.recursion) and the
reasoner's externals for a game without `base`/`input` (tgpl.asp.reasoner) read. One place makes it, so
that the three read the same relaxation.
"""

from __future__ import annotations

from typing import Iterable

import clingo

from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.solver import answer_set, lp_file
from tgpl.lowering.ir import Atom, Program


def relaxed_model(program: Program, names: ClingoNames, extra: Iterable[str] = (),
                  tables: dict[str, list[Atom]] | None = None) -> list[clingo.Symbol]:
    """The shown atoms of the relaxed game's answer set, with the clingo text `extra` added (#show lines,
    rules reading it). `tables`: rules_to_asp's static tables to join away (None: found there; {}: none,
    which a program whose rules hold several arithmetic tables needs, as their join is their product)."""
    rules = rules_to_asp(program, names, drop_negation=True) if tables is None else \
        rules_to_asp(program, names, drop_negation=True, tables=tables)
    return answer_set([rules, lp_file("gdl_relaxed_domain.lp"), *extra])
