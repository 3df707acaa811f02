"""The static fold (tgpl.lowering.static_fold): the same game, with static searches evaluated at lowering time.

Hand-made programs are compared before and after the pass state by state (the models of legal, goal,
terminal and, for every legal joint move, next, by clingo); the bundled examples are lowered with the pass
(it runs inside every lowering) and played against the runtime.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import clingo

from tgpl.frontend.diagnostics import Severity

from differential import Lowered, bisimulate, playout
from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.kif import read_kif
from tgpl.asp.validate import validate
from tgpl.lowering.ir import Const, Func, Program, Term
from tgpl.limits import LimitReached, Limits
from tgpl.lowering.lower import FOLD_GROWTH, fold_pays
from tgpl.lowering.static_eval import static_facts, Work
from tgpl.lowering.static_fold import split_passengers, static_fold, static_relations

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# A scan over a static row of cells for the first cell holding the target mark, run for the player in control
# (a passenger: bound from the state, unchanged through the recursion), as a compiled game's legal filter is.
SCAN = """
(role a) (role b)
(init (control a)) (init (free 0)) (init (free 1)) (init (free 2)) (init (free 3))
(cell 0 x) (cell 1 o) (cell 2 x) (cell 3 o)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(target x) (target o)
(other a b) (other b a)
(<= (scan ?r ?t 0) (true (control ?r)) (target ?t))
(<= (scan ?r ?t ?j) (scan ?r ?t ?i) (cell ?i ?v) (distinct ?v ?t) (succ ?i ?j))
(<= (legal ?r (hit ?i)) (scan ?r ?t ?i) (cell ?i ?t) (true (free ?i)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (legal ?r noop) (true (control ?r)) (stuck ?r))
(<= (stuck ?r) (true (control ?r)) (not (anyhit ?r)))
(<= (anyhit ?r) (scan ?r ?t ?i) (cell ?i ?t) (true (free ?i)))
(<= (missing ?r ?t) (true (control ?r)) (target ?t) (not (scan ?r ?t 2)))
(<= (next (control ?s)) (true (control ?r)) (other ?r ?s))
(<= (next (free ?i)) (true (free ?i)) (not (does a (hit ?i))) (not (does b (hit ?i))))
(<= terminal (true (control ?r)) (stuck ?r))
(<= (goal ?r 100) (role ?r) (missing ?r o))
(<= (goal ?r 0) (role ?r) (not (missing ?r o)))
"""


def models(program: Program, state: list[Func], moves: list[tuple[str, Term]]) -> frozenset[str]:
    """The legal, goal, terminal and next atoms of `program` in `state` with `moves` done."""
    names = ClingoNames()
    facts = "".join(f"true({names.symbol(f)}).\n" for f in state)
    facts += "".join(f"does({names.symbol(Const(r))},{names.symbol(m)}).\n" for r, m in moves)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], rules_to_asp(program, names) + facts)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        model = next(iter(handle))
        return frozenset(names.text(s) for s in model.symbols(atoms=True)
                         if s.name in ("legal", "goal", "terminal", "next"))


def errors(program: Program) -> list:
    """What breaks GDL's rules in `program` (its warnings left out: the game declares no base or input)."""
    return [d for d in validate(program, "scan") if d.severity is Severity.ERROR]


def states() -> list[list[Func]]:
    """Every combination of the player in control and the free cells."""
    found = []
    for control in ("a", "b"):
        for free in itertools.product((False, True), repeat=4):
            found.append([Func("control", (Const(control),))]
                         + [Func("free", (Const(str(i)),)) for i in range(4) if free[i]])
    return found


def test_static_relations_exclude_everything_reading_the_state():
    program = read_kif(SCAN)
    static = static_relations(program)
    assert {"cell", "succ", "target", "other"} <= static
    assert not static & {"scan", "legal", "stuck", "anyhit", "missing", "next", "goal", "terminal", "role"}


def test_the_scan_is_split_into_an_entry_and_a_static_search():
    program = read_kif(SCAN)
    split = split_passengers(program)
    relations = split.relations()
    assert relations["scan_entry"] == {2}  # entry id, the player in control
    assert relations["scan_static"] == {3}  # entry id, target, index
    assert "scan_static" in static_relations(split)
    assert "scan" in split.defined()  # the negative use in `missing` reads a bridge
    assert not any(a.relation == "scan" for r in split.rules for a, pos in r.body_atoms() if pos)


def test_the_folded_program_is_the_same_game_in_every_state():
    before = read_kif(SCAN)
    after = static_fold(before)
    assert any(r.head.relation.startswith("static_table") for r in after.rules)
    assert errors(before) == [] and errors(after) == []
    compared = 0
    for state in states():
        plain = models(before, state, [])
        assert models(after, state, []) == plain
        legal = {r: sorted(t for t in plain if t.startswith(f"(legal {r} ")) for r in ("a", "b")}
        for ma, mb in itertools.product(legal["a"], legal["b"]):
            moves = [(r, read_kif(text).rules[0].head.args[1]) for r, text in (("a", ma), ("b", mb))]
            assert models(after, state, moves) == models(before, state, moves)
            compared += 1
    assert compared >= 32


def test_a_passenger_read_elsewhere_leaves_the_component_whole():
    # the player is read again in the recursive rule's body: not a passenger, so there is nothing to split
    text = SCAN.replace("(<= (scan ?r ?t ?j) (scan ?r ?t ?i)", "(<= (scan ?r ?t ?j) (scan ?r ?t ?i) (role ?r)")
    program = read_kif(text)
    assert split_passengers(program) == program


def test_a_table_past_the_row_bound_is_not_made(monkeypatch):
    import tgpl.lowering.static_fold as sf
    monkeypatch.setattr(sf, "MAX_ROWS", 0)
    program = read_kif(SCAN)
    assert not any(r.head.relation.startswith("static_table") for r in static_fold(program).rules)


def test_tris_lowered_with_the_fold_is_the_runtime_game():
    lw = Lowered.of(str(EXAMPLES / "tris.tgpl"))  # the lowering folds it (its tables make the game smaller)
    assert any(r.head.relation.startswith("static_table") for r in lw.lowered.program.rules)
    assert validate(lw.lowered.program, "tris") == []
    assert bisimulate(lw).states > 1000


def test_connect4_lowered_with_the_fold_plays_as_the_runtime():
    lw = Lowered.of(str(EXAMPLES / "connect4.tgpl"))
    assert validate(lw.lowered.program, "connect4") == []
    rng = random.Random(7)
    for _ in range(20):
        playout(lw, rng)


def test_a_fold_that_grows_the_game_within_its_bound_is_kept_and_one_past_it_is_not(monkeypatch):
    # the graph example's tables are larger than what they replace (790 rules and facts to 931): kept, as the
    # reasoner no longer pays for tables in every state (tgpl.asp.estimate.QueryBounds)
    lw = Lowered.of(str(EXAMPLES / "graph.tgpl"))
    program = lw.lowered.program
    assert any(r.head.relation.startswith("static_table") for r in program.rules)
    import tgpl.lowering.lower as lower

    with monkeypatch.context() as patch:
        patch.setattr(lower, "fold_pays", lambda before, after: False)
        unfolded = Lowered.of(str(EXAMPLES / "graph.tgpl"), gdl=False).lowered.program
    assert not any(r.head.relation.startswith("static_table") for r in unfolded.rules)
    assert len(program.rules) > len(unfolded.rules)
    assert fold_pays(unfolded, program)
    # a table read by the game that makes it more than FOLD_GROWTH times as large is not kept
    table = read_kif("".join(f"(static_table_big {i})\n" for i in range(int(FOLD_GROWTH * len(unfolded.rules)))))
    reader = read_kif("(<= terminal (static_table_big 0))\n")
    grown = Program(program.rules + table.rules + reader.rules)
    assert not fold_pays(unfolded, grown)


def test_a_join_past_its_bound_is_given_up(monkeypatch):
    import tgpl.lowering.static_fold as sf
    monkeypatch.setattr(sf, "JOIN_ROWS", 1)  # the scan's tables join more rows than one
    program = read_kif(SCAN)
    folded = static_fold(program)
    assert not any(r.head.relation.startswith("static_table") for r in folded.rules)
    assert "scan_static" in folded.defined()  # split all the same


def clingo_model(program: Program) -> dict[str, set[str]]:
    """The rows (as KIF text) of every relation of a stratified program without state, by clingo."""
    names = ClingoNames()
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], rules_to_asp(program, names))
    ctl.ground([("base", [])])
    found: dict[str, set[str]] = {}
    for atom in ctl.symbolic_atoms:
        term = names.term(atom.symbol)
        name = term.name
        found.setdefault(name, set()).add(" ".join(map(str, getattr(term, "args", ()))))
    return found


# recursion, negation of a lower stratum, distinct, a disjunction and compound terms: what static rules use
STRATA = """
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(blocked 3)
(<= (reach 0 0) (succ 0 ?x))
(<= (reach ?n ?y) (reach ?n ?x) (succ ?x ?y) (not (blocked ?y)))
(<= (reach ?y ?y) (succ ?x ?y) (not (blocked ?y)))
(<= (unreached ?x) (succ ?x ?y) (not (reach 0 ?x)))
(<= (pair (p ?x ?y)) (reach ?x ?y) (distinct ?x ?y))
(<= (either ?x) (succ ?x ?y) (or (blocked ?y) (reach ?y ?y)))
(<= open (not (blocked 2)))
(<= shut (not (blocked 3)))
"""


def test_the_static_relations_are_evaluated_as_clingo_grounds_them(monkeypatch):
    program = read_kif(STRATA)
    expected = clingo_model(program)
    monkeypatch.setattr(clingo.Control, "ground", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ground")))
    static = static_relations(program)
    facts = static_facts(program, static, set(static), Work(Limits()))
    assert facts is not None
    for name in sorted(static):
        assert {" ".join(map(str, row)) for row in facts.of(name)} == expected.get(name, set()), name
    reach = {" ".join(map(str, row)) for row in facts.of("reach")}
    assert {"0 1", "0 2", "4 5"} <= reach and "0 3" not in reach  # recursion stopped at the blocked cell
    assert facts.of("unreached") and facts.of("pair") and facts.of("either")
    assert facts.of("open") == {()} and facts.of("shut") == set()  # a body of ground literals only


def test_the_fold_never_grounds_with_clingo(monkeypatch):
    monkeypatch.setattr(clingo.Control, "ground", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ground")))
    assert any(r.head.relation.startswith("static_table") for r in static_fold(read_kif(SCAN)).rules)


def test_past_its_facts_bound_the_fold_gives_up_and_leaves_the_program(monkeypatch):
    import tgpl.lowering.static_eval as se
    monkeypatch.setattr(se, "MAX_FACTS", 5)  # the scan's static relations hold more
    program = read_kif(SCAN)
    assert static_fold(program) is program


def test_a_static_relation_that_reads_itself_under_not_is_given_up():
    program = read_kif("(a 1) (<= (b ?x) (a ?x) (not (c ?x))) (<= (c ?x) (a ?x) (not (b ?x)))")
    static = static_relations(program)
    assert static_facts(program, static, {"b"}, Work(Limits())) is None


def test_the_evaluation_checks_the_limits_and_stops_past_them(monkeypatch):
    import tgpl.lowering.static_eval as se
    monkeypatch.setattr(se, "CHECK_EVERY", 1)

    def limits(seconds: int) -> Limits:
        ticks = itertools.count()
        return Limits(max_seconds=seconds, clock=lambda: float(next(ticks)))  # one second a reading

    whole = limits(1000)
    static_fold(read_kif(SCAN), whole)
    assert whole.checks >= 6  # checked as the evaluation runs, not only before and after
    stopped = limits(whole.checks // 2)
    try:
        static_fold(read_kif(SCAN), stopped)
    except LimitReached:
        pass
    else:
        raise AssertionError("the fold ran past the limits")
