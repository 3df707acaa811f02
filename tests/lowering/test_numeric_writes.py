"""The joint range search judges a counter's write on its conditions cut down to their comparisons
(`segments.numeric_value`): the values it gives in a state are the same, where only comparisons are known.

Line Up (tests/data/designers/lineup.tgpl) adds a point for each window of three through the new stone: the
point's write is a value by cases over the stones of every window, conditions with no comparison, which the
search walked whole in each of its states (four fifths of the game's lowering)."""

from __future__ import annotations

from tgpl.lowering.segments import _Unknown, cmp_value, numeric_value, values_under
from tgpl.lowering.symbolic import Choice, CmpLit, FluentLit, Num, Partial, conj, disj, lit, literals, neg

POINTS = Num("fluent", ("Scorer#0", "Points"))


def stone(square: str) -> object:
    return lit(FluentLit(square, "Stone", 0.0))


def plus(k: float) -> Num:
    return Num("+", (POINTS, k))


def known(env: dict):
    """What the joint search knows in a state: the comparisons, nothing else."""
    return lambda key: cmp_value(key, env) if isinstance(key, CmpLit) else None


def write() -> Choice:
    """Points by cases: +1 below 3 where a stone lies, +2 where either of two others does, kept at 3 and above
    where the first does not, and a nested Partial +3 where all three do and Points is below 5."""
    low = lit(CmpLit("<", POINTS, 3.0))
    nested = Partial(((plus(3.0), conj(stone("a"), stone("b"), stone("c"), lit(CmpLit("<", POINTS, 5.0)))),))
    return Choice(((plus(1.0), conj(stone("a"), low)),
                   (plus(2.0), conj(neg(stone("a")), disj(stone("b"), stone("c")))),
                   (POINTS, conj(neg(low), neg(stone("a")), neg(stone("b")))),
                   (nested, conj(stone("a"), neg(low)))))


def test_the_cut_down_write_gives_the_same_values_in_every_state():
    v = write()
    cut = numeric_value(v, {}, {})
    for points in range(6):
        env = {("Scorer#0", "Points"): float(points)}
        assert values_under(cut, env, known(env)) == values_under(v, env, known(env))
    env = {("Scorer#0", "Points"): 0.0}
    assert values_under(cut, env, known(env)) == {1.0, 2.0}
    env = {("Scorer#0", "Points"): 4.0}
    assert values_under(cut, env, known(env)) == {2.0 + 4.0, 4.0, 7.0}


def test_the_cut_down_write_keeps_only_comparisons():
    cut = numeric_value(write(), {}, {})
    keys = set()
    todo = [cut]
    while todo:
        v = todo.pop()
        for x, f in v.cases:
            keys |= set(literals(f))
            if isinstance(x, (Choice, Partial)):
                todo.append(x)
    assert keys and all(isinstance(k, (CmpLit, _Unknown)) for k in keys)
    assert any(isinstance(k, CmpLit) for k in keys)


def test_a_value_shared_by_two_writes_is_cut_down_once():
    shared = write()
    memo: dict = {}
    first = numeric_value(Choice(((shared, stone("d")),)), {}, memo)
    second = numeric_value(Partial(((shared, stone("e")),)), {}, memo)
    assert first.cases[0][0] is second.cases[0][0]
    assert numeric_value(plus(1.0), {}, memo) == plus(1.0)
