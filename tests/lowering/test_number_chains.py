"""Sums of several counters and comparisons of such sums as chains over a static number line
(tgpl.lowering.number_chains), checked exact against the combination form they replace: for every combination of
the counters' values in range, a chained comparison holds exactly where the comparison is true
(segments.cmp_value, what the combination form writes a rule for), and a chained sum derives exactly the
number's value (none outside the written fluent's range). Then a game that needs them: tests/data/lowering/rows.tgpl."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import clingo
import pytest
from click.testing import CliRunner

from tgpl.asp.gdl_to_asp import ClingoNames, rule_text
from tgpl.cli import main
from tgpl.lowering.emit import Names
from tgpl.lowering.ir import Atom, Const, Rule, Var
from tgpl.lowering.number_chains import Chains, Line, decided
from tgpl.lowering.segments import cmp_value
from tgpl.lowering.symbolic import CmpLit, Num

ROWS = str(Path(__file__).resolve().parents[1] / "data" / "lowering" / "rows.tgpl")
OPS = ("<", "<=", ">", ">=", "==", "!=")


class Writer:
    """What Chains writes through: an emitter's names, terms, rules and number facts (tgpl.lowering.emit)."""

    def __init__(self, domains: dict[tuple, list[float]]):
        self.logic = SimpleNamespace(fluents={k: SimpleNamespace(obj=k[0], attr=k[1]) for k in domains})
        self.props = Names()
        self.rules: list[Rule] = []
        self.numbers: list[Rule] = []

    def attr(self, name: str) -> str:
        return name.lower()

    def obj(self, name: str) -> Const:
        return Const(name.lower())

    def value(self, x: float) -> Const:
        return Const(str(int(x)))


def fluent(obj: str, attr: str = "Seeds") -> Num:
    return Num("fluent", (obj, attr))


def add(*xs) -> Num | float:
    out = xs[0]
    for x in xs[1:]:
        out = Num("+", (out, x))
    return out


A, B, C, D = (fluent(o) for o in "abcd")
E = fluent("e", "Count")
FORMS = [  # (left, right) of the comparisons tried with every operator
    (add(A, B, C), add(D, 1.0)),
    (add(A, B, C, D), 3.0),
    (add(A, Num("*", (2.0, B))), add(C, D, E)),
    (Num("-", (add(A, C), B)), 1.0),
    (add(A, B, 2.0), add(C, D, 1.0)),
]


def models(rules: list[Rule], domains: dict[tuple, list[float]]) -> list[tuple[dict, set[str]]]:
    """Every combination of the counters' values, as `true` facts, and the atoms the rules derive in it."""
    names = ClingoNames()
    text = [rule_text(r, names) for r in rules]
    for (obj, attr), dom in domains.items():
        values = "; ".join(f"true({attr.lower()}({obj}, {int(v)}))" for v in dom)
        text.append(f"1 {{ {values} }} 1.")
    ctl = clingo.Control(["0", "--warn=none"])
    ctl.add("base", [], "\n".join(text))
    ctl.ground([("base", [])])
    out = []
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            atoms = {str(s) for s in m.symbols(atoms=True)}
            env = {k: float(v) for k, dom in domains.items() for v in dom
                   if f"true({k[1].lower()}({k[0]},{int(v)}))" in atoms}
            out.append((env, atoms))
    return out


def truth(key: CmpLit, env: dict) -> bool:
    """The comparison's truth, as the combination form decides it (`!=` is `not ==` in the executor)."""
    if key.op == "!=":
        return not cmp_value(CmpLit("==", key.left, key.right), env)
    return bool(cmp_value(key, env))


@pytest.mark.parametrize("totals", [{}, {"Seeds": 5}])
def test_every_chained_comparison_holds_where_the_combinations_do(totals):
    """Five forms (sums both sides, a constant, a coefficient 2, a difference, constants both sides) with each
    of the six operators, over four counters in 0..3 and one in 0..2: the head holds in exactly the combinations
    that make the comparison true. With a family's total (at most 5 seeds in all), in every combination within
    it, and the tables stop at the total."""
    domains = {("a", "Seeds"): [0.0, 1.0, 2.0, 3.0], ("b", "Seeds"): [0.0, 1.0, 2.0, 3.0],
               ("c", "Seeds"): [0.0, 1.0, 2.0, 3.0], ("d", "Seeds"): [0.0, 1.0, 2.0, 3.0],
               ("e", "Count"): [0.0, 1.0, 2.0]}
    line = Line(domains, totals)
    w = Writer(domains)
    chains = Chains(w, line)
    keys = {}
    for i, (left, right) in enumerate(FORMS):
        for op in OPS:
            plan = line.plan(left, op, right)
            assert plan is not None and len(plan.sides) == 2
            head = f"h{i}_{'lt le gt ge eq ne'.split()[OPS.index(op)]}"
            chains.compare(Atom(head), plan)
            keys[head] = CmpLit(op, left, right)
    written = add(A, B, C, 2.0)
    term, body = chains.written(line.plan(written), [float(x) for x in range(15)])
    w.rules.append(Rule(Atom("val", (term,)), tuple(body)))
    term, body = chains.written(line.plan(written), [float(x) for x in range(6)])  # a fluent in 0..5
    w.rules.append(Rule(Atom("kept", (term,)), tuple(body)))
    found = models(w.rules + w.numbers, domains)
    assert len(found) == 4 ** 4 * 3
    checked = 0
    for env, atoms in found:
        if totals and sum(v for k, v in env.items() if k[1] == "Seeds") > totals["Seeds"]:
            continue  # a state no play reaches: the family's sum is past its total
        checked += 1
        for head, key in keys.items():
            assert (head in atoms) == truth(key, env), (head, key, env)
        assert {a for a in atoms if a.startswith("val(")} == {f"val({int(written.value(env))})"}, env
        x = int(written.value(env))
        assert {a for a in atoms if a.startswith("kept(")} == ({f"kept({x})"} if x <= 5 else set()), env
    assert checked == (4 ** 4 if not totals else sum(1 for c in itertools.product(range(4), repeat=4)
                                                     if sum(c) <= 5)) * 3
    plus = [r for r in w.numbers if r.head.relation == "plus"]
    # the largest sum: a + b + c + d (12); with the total, a + b is at most 5, and a + 2b adds b once more (8)
    assert max(int(r.head.args[2].name) for r in plus) == (8 if totals else 12)


def test_a_comparison_every_value_decides_alike_is_decided_by_its_interval():
    domains = {("a", "Seeds"): [0.0, 1.0, 2.0], ("b", "Seeds"): [0.0, 1.0, 2.0]}
    line = Line(domains, {})
    assert decided(line.plan(add(A, B), ">=", 0.0), line) is True
    assert decided(line.plan(add(A, B), ">", 4.0), line) is False
    assert decided(line.plan(add(A, B), "==", 2.0), line) is None


def test_small_comparisons_keep_their_combinations_and_others_are_not_chained():
    """Chains are taken only where they ground smaller than the combinations: `a > b` over 0..3 stays as written;
    a product of two counters, or a counter that may be negative, is no chain."""
    domains = {("a", "Seeds"): [0.0, 1.0, 2.0, 3.0], ("b", "Seeds"): [-1.0, 0.0, 1.0], ("c", "Seeds"): [0.0, 1.0]}
    line = Line(domains, {})
    assert not line.plan(A, ">", fluent("c")).worth
    assert line.plan(Num("*", (A, fluent("c"))), ">", 1.0) is None
    assert line.plan(add(A, B), ">", 1.0) is None


def test_rows_lowers_with_its_end_check_chained(tmp_path):
    """Two rows of three counters compared after six moves: written one rule per combination of the six counters'
    values (on main: 30,369 lines, 12 s), it is now a chain of sums and a `less`, bisimulated against the
    runtime."""
    out = tmp_path / "rows.kif"
    r = CliRunner().invoke(main, ["to-gdl", ROWS, "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "; validated: bisimulation, 70 states" in text
    assert "(less ?b ?a)" in text and "(plus ?u ?w ?v)" in text
    assert text.count("\n") < 1500
