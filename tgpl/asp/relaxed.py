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

from tgpl.asp.cross_products import split_cross_products
from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.recursive_joins import split_recursive_joins
from tgpl.asp.solver import answer_set, lp_file, release_freed_memory
from tgpl.asp.tables import table_relations, tables_joined
from tgpl.lowering.ir import Atom, Program


def relaxed_model(program: Program, names: ClingoNames, extra: Iterable[str] = (),
                  tables: dict[str, list[Atom]] | None = None) -> list[clingo.Symbol]:
    """The shown atoms of the relaxed game's answer set, with the clingo text `extra` added (#show lines,
    rules reading it). `tables`: rules_to_asp's static tables to join away (None: `joined_tables`; {}: none,
    which a program whose rules hold several arithmetic tables needs, as their join is their product). The
    tables are joined before the recursive joins are split (tgpl.asp.recursive_joins), so that no helper holds a
    table apart from the literals whose variables it relates."""
    tables = joined_tables(program) if tables is None else tables
    joined = split_cross_products(tables_joined(program, tables))
    rules = rules_to_asp(split_recursive_joins(joined), names, drop_negation=True, tables={})
    model = answer_set([rules, lp_file("gdl_relaxed_domain.lp"), *extra])
    release_freed_memory()  # the grounding's, a large one: narrowing's tuples are made next
    return model


JOINED_ROWS = 1000
"""The most rows of a table the relaxed game joins away. Why: Reversi's comparison tables (`greater`,
`less_or_equal` over 0..64, 2,080 and 2,145 rows) joined into its compiled loops' rules made its relaxed game
(the base/input check's) ground in 9.7 s of CPU, 1.7 s with them kept; five in a row's board tables, which
its relaxed game needs joined (tgpl/asp/tables.py), have at most 572 rows."""


def joined_tables(program: Program) -> dict[str, list[Atom]]:
    """The static tables the relaxed game joins away: those of at most JOINED_ROWS rows."""
    return {name: rows for name, rows in table_relations(program).items() if len(rows) <= JOINED_ROWS}
