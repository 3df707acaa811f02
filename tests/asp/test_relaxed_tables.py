"""The relaxed game is grounded with its tables joined away (rules_to_asp with drop_negation).

The base/input check and the reasoner's domain of a game without base/input ground the
relaxed game, which is recursive through `true`. A rule joining fluents through a table
of body-only variables (the lowering's folded windows: five in a row's `makesfive_args_2`)
then made gringo's semi-naive evaluation build the fluents' cross product before the
table: the lowered five in a row's `tgpl to-gdl` and `check-gdl` did not end in 30 minutes.
"""

from __future__ import annotations

import pytest

import tgpl.asp.declared as declared
import tgpl.asp.relaxed as relaxed
from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.kif import read_kif
from tgpl.asp.reasoner import external_domain
from tgpl.asp.solver import answer_set, lp_file
from tgpl.asp.validate import validate

# Three in a row on a line of six cells, the windows a table; lines 1-15.
GAME = """\
(role a)
(cell 1) (cell 2) (cell 3) (cell 4) (cell 5) (cell 6)
(win 1 2 3) (win 2 3 4) (win 3 4 5) (win 4 5 6)
(<= (base (stone ?c a)) (cell ?c))
(<= (base (stone ?c none)) (cell ?c))
(base won)
(<= (input a (put ?c)) (cell ?c))
(<= (init (stone ?c none)) (cell ?c))
(<= (legal a (put ?c)) (true (stone ?c none)))
(<= (next (stone ?c a)) (does a (put ?c)))
(<= (next (stone ?c ?v)) (true (stone ?c ?v)) (not (does a (put ?c))))
(<= (next won) (win ?x ?y ?z) (true (stone ?x ?p)) (true (stone ?y ?p)) (true (stone ?z ?p)) (distinct ?p none))
(<= terminal (true won))
(<= (goal a 100) (true won))
(<= (goal a 0) (not (true won)))
"""
WON = 12  # the line of the rule that makes `won` through the table


def table_rules(texts: list[str]) -> list[str]:
    """The rules (not facts) that read the table."""
    return [line for text in texts for line in text.splitlines() if ":-" in line and "win(" in line]


@pytest.fixture
def grounded(monkeypatch):
    """The programs the base/input check gives clingo."""
    texts: list[str] = []

    def spy(parts):
        parts = list(parts)
        texts.append("".join(parts))
        return answer_set(parts)

    monkeypatch.setattr(declared, "answer_set", spy)
    monkeypatch.setattr(relaxed, "answer_set", spy)  # the relaxed game's groundings (tgpl.asp.relaxed)
    return texts


def test_the_base_input_check_grounds_no_table_of_body_only_variables(grounded):
    assert validate(read_kif(GAME, "g.kif"), "g.kif") == []
    assert grounded and not table_rules(grounded)


def test_a_fluent_missing_from_base_is_still_found_at_the_table_rule(grounded):
    text = GAME.replace("(base won)", "(base nothing)")
    (d,) = [d for d in validate(read_kif(text, "g.kif"), "g.kif") if d.is_error]
    assert d.message == "fluent 'won' is not in base, but this rule can make it true"
    assert d.span.line == WON
    assert len(grounded) == 3 and not table_rules(grounded)


def test_joining_the_tables_keeps_the_relaxed_reach():
    # no base: the reasoner's externals are the relaxed game's fluents, with the tables joined or not
    program = read_kif("".join(line + "\n" for line in GAME.splitlines() if "(base" not in line))
    plain = answer_set([rules_to_asp(program, ClingoNames(), drop_negation=True, tables={}),  # nothing joined
                        lp_file("gdl_relaxed_domain.lp")])
    fluents = {f"gdl_fluent({s.arguments[0]})." for s in plain if s.name == "true"}
    assert "gdl_fluent(won)." in fluents and len(fluents) == 13
    assert {line for line in external_domain(program, ClingoNames()).splitlines() if "gdl_fluent" in line} == fluents


def test_a_table_past_the_joined_rows_is_kept_and_the_reach_is_the_same(grounded, monkeypatch):
    """A table of more than JOINED_ROWS rows stays a table (Reversi's comparison tables: joined into its compiled
    loops, its base/input check took 9.7 s of CPU, 1.7 s kept); the relaxed game reaches the same fluents."""
    program = read_kif("".join(line + "\n" for line in GAME.splitlines() if "(base" not in line))
    joined = {str(s) for s in relaxed.relaxed_model(program, ClingoNames())}
    assert not table_rules(grounded)  # 4 rows: joined away
    monkeypatch.setattr(relaxed, "JOINED_ROWS", 3)
    assert set(relaxed.joined_tables(program)) == {"role"}  # win's 4 rows, cell's 6: kept
    kept = {str(s) for s in relaxed.relaxed_model(program, ClingoNames())}
    assert table_rules(grounded[-1:]) and kept == joined and "true(won)" in kept
