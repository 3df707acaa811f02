"""tgpl.asp.estimate: an upper bound of a game's ground rule instances, made without grounding."""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from tgpl.asp.estimate import MAX_GROUND, QueryBounds, rule_bounds, too_large
from tgpl.asp.ground_size import ground_size
from tgpl.asp.kif import read_kif
from tgpl.asp.validate import validate
from tgpl.lowering.ir import Program

ROOT = Path(__file__).resolve().parents[2]
KIF = (ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8")
GAMES = sorted((ROOT / "examples" / "gdl").glob("*.kif")) + sorted((ROOT / "tests" / "data").glob("*.kif"))


def board(n: int) -> str:
    """Tic-tac-toe on an n x n board (still three in a row), as bench/fuzz.py makes its 59 x 59 one."""
    return KIF.replace("(index 3)", "\n".join(f"(index {i})" for i in range(3, n + 1)))


def total(program) -> int:
    return sum(b.instances for b in rule_bounds(program))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_the_bound_is_at_least_what_clingo_grounds(path):
    program = read_kif(path.read_text(encoding="utf-8"), str(path))
    assert total(program) >= ground_size(program).rules


@pytest.mark.parametrize("n", [3, 5, 8])
def test_the_bound_holds_and_is_close_on_larger_boards(n):
    program = read_kif(board(n))
    grounded = ground_size(program).rules
    assert grounded <= total(program) <= 2 * grounded


def lowered(name: str, relations: bool):
    from tgpl.cli import _load_game
    from tgpl.pipeline import lower_game

    return lower_game(_load_game(str(ROOT / "examples" / name)), 0, None, relations).program


def test_a_lowered_game_is_bounded_too():
    program = lowered("tris.tgpl", False)
    grounded = ground_size(program).rules
    assert grounded <= total(program) <= 2 * grounded


def test_loops_written_as_relations_are_over_estimated_within_the_default():
    # run_loop's cell is a function of its other arguments, which per-position domains cannot see
    program = lowered("connect4.tgpl", True)
    grounded = ground_size(program).rules
    assert grounded <= total(program) <= MAX_GROUND / 5


def test_the_frame_rule_of_the_big_board_is_its_variables_domains_multiplied():
    # (next (cell ?m ?n b)) from (does ?w (mark ?j ?k)) and (true (cell ?m ?n b)), one rule per disjunct
    # of its (or (distinct ?m ?j) (distinct ?n ?k)): two roles, n values for each of the four others
    for n in (4, 59):
        program = read_kif(board(n))
        (frame,) = [b for b in rule_bounds(program) if str(b.rule.head) == "(next (cell ?m ?n b))"
                    and any(str(a.relation) == "does" for a, _ in b.rule.body_atoms())]
        assert frame.instances == 2 * 2 * n ** 4
        assert dict(frame.variables) == {"w": 2, "j": n, "k": n, "m": n, "n": n}


def test_relations_given_by_facts_bound_a_join_by_their_tuples():
    # three succ steps from a number: 7 chains among 1..10, where the variables' domains alone give 10^4
    facts = "".join(f"(succ {i} {i + 1})\n" for i in range(1, 10))
    program = read_kif(facts + "(<= (three ?a ?d) (succ ?a ?b) (succ ?b ?c) (succ ?c ?d))\n")
    (bound,) = rule_bounds(program)
    assert 7 <= bound.instances <= 9


def test_a_join_starts_from_the_atom_that_binds_most_for_least():
    # a derived relation of 2 x 3 x 3 tuples binds every variable the tables read: joined first, the tables add
    # nothing (18, what clingo grounds); greedy from nothing read the 2-tuple owner table, then a doubling
    # table whole (8) before the relation (3 more), and bounded the rule by 2 * 8 * 3 = 48
    facts = "(owner a x)\n(owner b y)\n" + "".join(f"(small {i})\n" for i in range(3))
    facts += "".join(f"(dbl {i} {2 * i})\n" for i in range(8))
    rules = ("(<= (walk ?s ?i ?k) (owner ?s ?p) (small ?i) (small ?k))\n"
             "(<= (h ?s ?i ?j ?k ?l) (walk ?s ?i ?k) (owner ?s ?p) (dbl ?i ?j) (dbl ?k ?l))\n")
    program = read_kif(facts + rules)
    bounds = {str(b.rule.head.relation): b.instances for b in rule_bounds(program)}
    assert bounds["h"] == 18


def test_an_atom_that_can_never_hold_makes_no_instance():
    program = read_kif("(p 1)\n(p 2)\n(<= (q ?x) (p ?x) (r ?x))\n(<= (s ?x) (p ?x) (p 3))\n")
    assert [b.instances for b in rule_bounds(program)] == [0, 0]


def test_too_large_points_at_the_rule_with_the_most_instances():
    program = read_kif(board(59), "big.kif")
    (error,) = too_large(program, MAX_GROUND, "big.kif")
    line = board(59).splitlines().index("(<= (next (cell ?m ?n b))") + 1
    assert (error.span.file, error.span.line, error.span.col) == ("big.kif", line, 1)
    assert f"{4 * 59 ** 4:,} ground instances" in error.message and "--max-ground" in error.message
    assert "?m over 59" in error.message
    assert too_large(program, 10 ** 9, "big.kif") == []


def test_a_game_over_the_limit_in_all_names_its_largest_rule():
    program = read_kif(board(8))
    largest = max(rule_bounds(program), key=lambda b: b.instances)
    (error,) = too_large(program, largest.instances + 1)
    assert error.message.startswith("the game's rules can have") and error.span == largest.rule.span


def test_the_validator_refuses_a_game_over_the_limit_before_grounding_it(monkeypatch):
    def no_grounding(*args, **kwargs):
        raise AssertionError("grounded")

    monkeypatch.setattr(clingo.Control, "ground", no_grounding)
    diagnostics = validate(read_kif(board(59), "big.kif"), "big.kif")
    assert [d.is_error for d in diagnostics] == [True]
    assert "ground instances" in diagnostics[0].message


def test_the_validator_takes_a_limit_and_none_checks_no_bound():
    program = read_kif(board(6), "g.kif")
    limit = total(program)
    assert not [d for d in validate(program, "g.kif", limit) if d.is_error]
    assert [d for d in validate(program, "g.kif", limit - 1) if d.is_error]
    assert not [d for d in validate(program, "g.kif", None) if d.is_error]


def test_query_bounds_add_varying_facts_to_fixed_rules_as_rule_bounds_would():
    # `state` facts vary from call to call; `cell` is fixed; `seen` reads both, `pair` the table alone
    fixed = read_kif("(cell 1)\n(cell 2)\n(cell 3)\n(next 1 2)\n(next 2 3)\n"
                     "(<= (pair ?a ?b) (cell ?a) (cell ?b) (next ?a ?b))\n"
                     "(<= (seen ?a ?b) (state ?a) (next ?a ?b) (cell ?b))\n"
                     "(<= (twice ?a) (seen ?a ?b) (state ?b))\n").rules
    bounds = QueryBounds(fixed, ["state"])
    for values in [(1,), (1, 2), (2, 3), (1, 2), (3,), (), (1, 2, 3), (2, 3)]:  # (1, 2), (2, 3): same domains
        facts = read_kif("".join(f"(state {v})\n" for v in values)).rules
        assert bounds.total(facts) == total(Program(fixed + facts)), values
    assert len(bounds._known) < 8  # states met again were not settled again


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_query_bounds_of_the_game_with_states_given_are_rule_bounds(path):
    program = read_kif(path.read_text(encoding="utf-8"), str(path))
    rules = tuple(r for r in program.rules if not (r.is_fact and r.head.relation == "init"))
    inits = [r for r in program.rules if r.is_fact and r.head.relation == "init"]
    bounds = QueryBounds(rules, ["init"])
    for facts in (inits, inits[: len(inits) // 2], inits):
        assert bounds.total(facts) == total(Program(rules + tuple(facts)))
