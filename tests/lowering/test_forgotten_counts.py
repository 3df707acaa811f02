"""A counter changed by a number the compiled moves' range search forgets (tgpl.lowering.compiled, issue 34).

tests/data/lowering/counted_local.tgpl is dots and boxes on a graph board cut down to the move that broke:
`closed` counts the drawn line's dot's connections in a loop, then `Boxes += closed`. The counters' relaxation
(`CompiledGame.relax`, part "numbers") drops the local's arithmetic, which reads no counter, and `_forgotten`
gives its value a fresh variable; the sum kept `closed`'s old one, bound by nothing, and clingo refused the rule
as unsafe, its own text the only reason given. The compiled moves now refuse it at the `+=` with what to do, and
an unsafe rule for any other reason is said to be the lowering's own limitation, located at the literal."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.diagnostics import Span
from tgpl.lowering.execute import tables_refused
from tgpl.lowering.horn import HornFunction, Unsupported, _only_model, instantiate, relaxation_refused
from tgpl.lowering.ir import Atom, Const, Rule, Var
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot

GAME = Path(__file__).resolve().parents[2] / "tests" / "data" / "lowering" / "counted_local.tgpl"


def test_a_counter_changed_by_a_forgotten_local_is_refused_at_its_write():
    """Compiled: refused at `Boxes += closed` with the way out, not with clingo's "unsafe variables"."""
    text = GAME.read_text()
    game = load_game(str(GAME))
    with pytest.raises(NotLowerable, match="the compiled moves cannot follow the number this counter is changed "
                                           "by.*--moves spelled") as e:
        lower(game.program, snapshot(game.initial_state(0)), moves="compiled")
    assert "unsafe" not in str(e.value)
    line = text[:text.index("Boxes += closed;")].count("\n") + 1
    assert (e.value.span.line, e.value.span.col) == (line, text.splitlines()[line - 1].index("Boxes") + 1)


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
