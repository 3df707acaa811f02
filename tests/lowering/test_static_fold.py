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
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.lowering.ir import Const, Func, Program, Term
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


def folded(path: str) -> Lowered:
    """The game lowered, then folded (the lowering does not apply the pass yet: docs/lowering.md)."""
    lw = Lowered.of(path, gdl=False)
    program = static_fold(lw.lowered.program)
    lowered = lw.lowered.with_program(program)
    return Lowered(lw.game, lowered, GdlGame(program), lw.seed)


def test_tris_lowered_with_the_fold_is_the_runtime_game():
    lw = folded(str(EXAMPLES / "tris.tgpl"))
    assert any(r.head.relation.startswith("static_table") for r in lw.lowered.program.rules)
    assert validate(lw.lowered.program, "tris") == []
    assert bisimulate(lw).states > 1000


def test_connect4_lowered_with_the_fold_plays_as_the_runtime():
    lw = folded(str(EXAMPLES / "connect4.tgpl"))
    assert validate(lw.lowered.program, "connect4") == []
    rng = random.Random(7)
    for _ in range(20):
        playout(lw, rng)


def test_a_join_past_its_bound_is_given_up(monkeypatch):
    import tgpl.lowering.static_fold as sf
    monkeypatch.setattr(sf, "JOIN_ROWS", 1)  # the scan's tables join more rows than one
    program = read_kif(SCAN)
    folded = static_fold(program)
    assert not any(r.head.relation.startswith("static_table") for r in folded.rules)
    assert "scan_static" in folded.defined()  # split all the same
