"""Static tables joined away where gringo grounds a rule recursively (tgpl/asp/tables.py)."""

from __future__ import annotations

import clingo

from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.kif import read_kif
from tgpl.asp.tables import join_tables, table_relations
from tgpl.asp.validate import validate

# A window rule as the lowering writes it: a table of windows binds four cells the head does not have.
# Relaxed (every `next` fed back as `true`), `line` is recursive, and gringo could start its join from
# any `true` literal with the other cells unbound: the table must be joined away first.
GAME = """
(role red) (role blue)
(cell a) (cell b) (cell c) (cell d) (cell e)
(window w1 a b c d) (window w2 b c d e)
(<= (base (stone ?c ?p)) (cell ?c) (role ?p))
(<= (base (stone ?c none)) (cell ?c))
(base over)
(<= (input ?p (put ?c)) (role ?p) (cell ?c))
(<= (init (stone ?c none)) (cell ?c))
(<= (legal ?p (put ?c)) (role ?p) (true (stone ?c none)))
(<= (next (stone ?c ?p)) (does ?p (put ?c)))
(<= (next (stone ?c ?v)) (true (stone ?c ?v)) (not (put ?c)))
(<= (put ?c) (does ?p (put ?c)))
(<= (line ?w ?p) (window ?w ?c1 ?c2 ?c3 ?c4) (true (stone ?c1 ?p)) (true (stone ?c2 ?p))
    (true (stone ?c3 ?p)) (true (stone ?c4 ?p)) (role ?p))
(<= (next over) (line ?w ?p))
(<= terminal (true over))
(<= (goal ?p 50) (role ?p))
"""


def test_a_table_relating_body_variables_is_joined_row_by_row():
    program = read_kif(GAME)
    tables = table_relations(program)
    assert set(tables) >= {"window", "cell", "role"}
    line = next(r for r in program.rules if r.head.relation == "line")
    joined = join_tables(line, tables)
    assert len(joined) == 2  # one rule per window, its cells constants
    for rule in joined:
        assert all(getattr(lit, "relation", None) != "window" for lit in rule.body)
        assert {v.name for v in rule.variables()} == {"p"}  # the window and its cells are constants


def test_the_relaxed_program_joins_tables_and_derives_the_same():
    program = read_kif(GAME)
    names = ClingoNames()
    relaxed = rules_to_asp(program, names, drop_negation=True)
    assert "window(" not in "".join(line for line in relaxed.splitlines() if ":-" in line)

    def derived(text: str) -> set[str]:
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], text + "true(F) :- next(F). true(F) :- init(F). does(R, M) :- legal(R, M).")
        ctl.ground([("base", [])])
        return {str(a.symbol) for a in ctl.symbolic_atoms if a.symbol.name in ("true", "line")}

    unjoined = rules_to_asp(program, names, drop_negation=True, tables={})
    assert derived(relaxed) == derived(unjoined)
    assert any(s.startswith("line(") for s in derived(relaxed))


def test_the_game_is_valid_gdl():
    assert [d.message for d in validate(read_kif(GAME)) if d.is_error] == []
