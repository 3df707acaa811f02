"""A counter changed by a number worked out apart from every counter, in the compiled moves' range search
(tgpl.lowering.compiled, issue 34).

tests/data/lowering/counted_local.tgpl is dots and boxes on a graph board cut down to the move that broke:
`closed` counts the drawn line's dot's connections in a loop, then `Boxes += closed`. The counters' relaxation
(`CompiledGame.relax`, part "numbers") dropped the local's arithmetic, which reads no counter, and the sum had
an operand bound by nothing. It now keeps the arithmetic that feeds a counter and the tests of the rules that
carry it (`_feeding_literals`: the loop's `i < n`), so `closed` is at most the dot's connections; `Boxes` is then
a counter nothing bounds (the game ends on `Lines`), refused at its write in seconds, where the relaxation used to
ground the two seats' `Boxes` compared pair by pair up to the bound (`CompiledGame.overflow_first`). Bounded by
a test before the write, the game lowers compiled and validates. An unsafe rule for any other reason is said to
be the lowering's own limitation, located at the literal."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.diagnostics import Span
from tgpl.lowering import horn
from tgpl.lowering.compiled import _feeding_literals
from tgpl.lowering.execute import tables_refused
from tgpl.lowering.horn import HornFunction, Unsupported, _only_model, instantiate, relaxation_refused
from tgpl.lowering.ir import Atom, Const, Rule, Var
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot

GAME = Path(__file__).resolve().parents[2] / "tests" / "data" / "lowering" / "counted_local.tgpl"


def test_a_counter_changed_by_a_counted_local_is_refused_as_unbounded_at_its_write():
    """Compiled: `closed` is followed (no "cannot follow", no clingo "unsafe"), and `Boxes`, which only the
    game's end on `Lines` bounds, is refused at `Boxes += closed` with what to add."""
    text = GAME.read_text()
    game = load_game(str(GAME))
    with pytest.raises(NotLowerable, match="numbers grow past 1000.*'Boxes' \\(2\\.\\.32 so far\\) not bounded "
                                           "by the game.*test it before the write") as e:
        lower(game.program, snapshot(game.initial_state(0)), moves="compiled")
    assert "unsafe" not in str(e.value) and "cannot follow" not in str(e.value)
    line = text[:text.index("Boxes += closed;")].count("\n") + 1
    assert (e.value.span.line, e.value.span.col) == (line, text.splitlines()[line - 1].index("Boxes") + 1)


def test_bounded_before_its_write_the_count_lowers_compiled(tmp_path):
    """`Boxes` tested before the write (true in every play: 12 moves of at most 4 connections) is bounded, and
    `closed` is followed from the loop's bound: the moves compile, and the translation passes its validation."""
    source = tmp_path / "counted_bounded.tgpl"
    source.write_text(GAME.read_text().replace("Boxes += closed;", "if (Boxes <= 48) { Boxes += closed; }"))
    out = tmp_path / "counted_bounded.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(source), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    assert "; validated:" in kif and "its moves compiled" in kif


def test_the_local_and_its_loop_test_are_kept_not_what_else_the_loop_computes():
    """A loop `seg|loop(closed, i)`: `closed + 1` feeds `Boxes + closed`, so it is kept with the loop's test
    `i < n` and `i + 1`; a number of the loop that feeds no counter (`k * 2`) is still dropped."""
    c, i, n, c1, i1, k, k2, b, b1 = (Var(x) for x in ("C", "I", "N", "C1", "I1", "K", "K2", "B", "B1"))
    test = Atom("#lt", (i, n))
    inc, step, other = Atom("#plus", (c, Const("1"), c1)), Atom("#plus", (i, Const("1"), i1)), \
        Atom("#times", (k, Const("2"), k2))
    add = Atom("#plus", (b, c, b1))
    rules = [Rule(Atom("seg|loop", (c1, i1, k2)), (Atom("seg|loop", (c, i, k)), Atom("#static", (n,)), test,
                                                    inc, step, other)),
             Rule(Atom("num|Boxes", (Const("o"), b1)), (Atom("seg|loop", (c, i, k)), Atom("#read:Boxes", (Const("o"), b)),
                                                      add))]
    kept = _feeding_literals(rules, {id(add)}, {"Boxes"})
    assert kept == {id(test), id(inc), id(step)}


def test_the_overflow_is_found_without_the_tables_of_compared_pairs():
    """`inline`: a comparison of two values is tested in its rule, with no table of every pair asked."""
    x, y = Var("X"), Var("Y")
    rules = [Rule(Atom("result|", ()), (Atom("seg|a", (x,)), Atom("seg|b", (y,)), Atom("#gt", (x, y))))]
    facts = {"seg|a": [(Const(str(v)),) for v in range(3)], "seg|b": [(Const(str(v)),) for v in range(3)]}
    inline = horn._relaxed_program(rules, facts, inline=True)
    assert "X > Y" in inline and "need_" not in inline
    tables = horn._relaxed_program(rules, facts)
    assert "need_" in tables
    wanted = {(horn._asp_name("result|"), 0)}
    assert horn._model(inline, wanted) == horn._model(tables, wanted) == {(horn._asp_name("result|"), 0): [()]}


def test_the_way_out_the_refusal_gives_lowers_the_game(tmp_path):
    """`auto` spells the moves out after the compiled refusal, and the translation passes its validation."""
    out = tmp_path / "counted_local.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "; validated:" in out.read_text()


def test_any_other_unsafe_rule_is_an_internal_limitation_located_at_its_literal():
    """A comparison whose operand nothing binds (not a counter's step): the lowering's limitation, said so,
    at the literal, with clingo's text kept."""
    at = Span("g.tgpl", 7, 5, 7, 12)
    x, y = Var("X"), Var("Y")
    rule = Rule(Atom("seg|a", (x,)), (Atom("seg|b", (x,)), Atom("#lt", (x, y), at)))
    e = relaxation_refused([Rule(Atom("seg|b", (Const("1"),)))] + [rule], set(), "error: unsafe variables")
    assert str(e).startswith("internal limitation of the compiled moves: the counters' range search left"), str(e)
    assert "clingo: error: unsafe variables" in str(e)
    assert e.span == at


def _unsafe_function() -> tuple[SimpleNamespace, Span]:
    """A compiler holding one function, `f`, whose sum reads an operand nothing binds (`W`): its relaxation is a
    rule clingo refuses as unsafe. The compiler's functions are safe as built (none of the games lowered reaches
    this), so the function is made by hand: what the lowering says must still be a located refusal."""
    at = Span("g.tgpl", 4, 9, 4, 14)
    x, v, w, y = Var("X"), Var("V"), Var("W"), Var("Y")
    rule = Rule(Atom("f|result", (x, y)), (Atom("f|call", (x,)), Atom("#read:Stone", (x, v)),
                                           Atom("#plus", (v, w, y), at)))
    f = HornFunction("f", ["a"], [rule], reads={"Stone"}, returns="number", span=at)
    return SimpleNamespace(functions={"f": f}, fluent_attrs={"Stone"}, statics={}, _building={}), at


def test_a_function_table_clingo_cannot_ground_is_refused_at_its_literal():
    """horn.instantiate (the tables of functions compiled while the moves are spelled out) let clingo's
    RuntimeError out: it is now refused at the literal, as the compiled moves' relaxation is, and the
    spelled-out lowering's callers (`tables_refused`) make that the game's located refusal."""
    hc, at = _unsafe_function()
    reads = {"Stone": [(Const("a"), Const("1"))]}
    with pytest.raises(Unsupported) as e:
        instantiate(hc, {("f", 0): {(Const("a"),)}}, reads, results_of="f")
    assert str(e.value).startswith("internal limitation of the functions compiled to rules with variables"), \
        str(e.value)
    assert "clingo: " in str(e.value) and "unsafe" in str(e.value)
    assert e.value.span == at
    with pytest.raises(NotLowerable) as refused, tables_refused():
        instantiate(hc, {("f", 0): {(Const("a"),)}}, reads)
    assert refused.value.span == at and refused.value.reason == str(e.value)


def test_the_one_model_keeps_clingo_s_error():
    """horn._only_model (the exact tables of functions that read no state) logged nothing, so its RuntimeError
    said only that grounding stopped: it now carries clingo's first error, the text the refusal quotes."""
    with pytest.raises(RuntimeError, match="unsafe variables"):
        _only_model("q(1). p(X) :- not q(X).", {("p", 1)})
