"""A temporary bound by `:=` and never read is not bound (`tree_passes.unused_bindings_dropped`): games
play as with every binding made (the plain reference); a binding read again is kept, and a string literal
of the game that looks like a binding is a string, not code."""

from __future__ import annotations

import ast as py
import textwrap

import pytest

from tgpl.runtime import codegen, load_game
from tgpl.runtime.tree_passes import unused_bindings_dropped

from observed import EXAMPLES, outcome, reference


def dropped(src: str) -> str:
    tree = py.parse(src)
    unused_bindings_dropped(tree)
    return py.unparse(tree)


def same(src: str) -> str:
    return py.unparse(py.parse(src))


def test_only_the_bindings_read_nowhere_else_are_dropped():
    src = "x = ((_t1 := a) + (_t10 := b) + _t10 + (_cse2 := c) + (_cse20 := d) + _cse20)\n"
    assert dropped(src) == same("x = ((a) + (_t10 := b) + _t10 + (c) + (_cse20 := d) + _cse20)\n")
    assert dropped("y = (_t3 := f)\nz = _t3\n") == same("y = (_t3 := f)\nz = _t3\n")
    assert dropped("y = (_k3 := f)\n") == same("y = (_k3 := f)\n")  # not a temporary's name
    assert dropped("y = (_t4 := (_t5 := f).x)\n") == same("y = f.x\n")  # one inside another
    assert dropped("y = '(_t6 := f)' + (_t6 := g)\n") == same("y = '(_t6 := f)' + g\n")  # a string is no code


def test_a_temporary_bound_in_several_places_and_read_in_none_is_not_bound(monkeypatch):
    src = "x = (_t1 := a) + (_t1 := b)\ny = (_t2 := c) + (_t2 := d) + _t2\nz = _t3 + (_t3 := e) + (_t3 := f)\n"
    assert dropped(src) == same("x = (a) + (b)\ny = (_t2 := c) + (_t2 := d) + _t2\nz = _t3 + (_t3 := e) + (_t3 := f)\n")


def test_the_bindings_dropped_are_gone_from_the_code(monkeypatch):
    compiled: list[str] = []
    real = compile
    monkeypatch.setattr(codegen, "compile", lambda tree, *a: (compiled.append(
        py.unparse(tree) if isinstance(tree, py.AST) else tree), real(tree, *a))[1], raising=False)
    monkeypatch.setattr(codegen, "COMPILED_CACHE", 0)  # every source compiled, not a code kept from a load before
    load_game(EXAMPLES / "tris.tgpl")
    plan = next(src for src in compiled if "def _all_opt(" in src)
    assert "_cse" not in plan and "D[l0.place]['AssignedTo']" in plan


LITERAL = """
game "t";
players 1;
global class G { string S = "(_cse99998 := "; number N = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return G.N < 2; }
        effect { string s = "(_t99999 := x)"; G.S = G.S + s; G.N += 1; turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


def test_a_game_whose_strings_look_like_a_binding_plays_as_the_reference(tmp_path, monkeypatch):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(LITERAL), encoding="utf-8")
    moves = ["Seat#0.Go()", "Seat#0.Go()"]
    got = outcome(load_game(path), moves, str(path))
    assert got == outcome(reference(path), moves, str(path))
    assert got[0] == "ok" and "(_cse99998 := (_t99999 := x)(_t99999 := x)" in repr(got[3])


@pytest.mark.parametrize("game", ["tris.tgpl", "chess/chess.tgpl", "citadels/citadels.tgpl"])
def test_a_source_compiled_unparsed_is_what_the_passes_leave(monkeypatch, game):
    """`BlockGenerator._compile` compiles a source as it is where the generator gave it no prologue
    of loads or memo tables (`BlockGenerator.prologued`): it binds no temporary that nothing reads,
    so the passes leave each such source's tree as parsed."""
    from tgpl.runtime import tree_passes

    sources: list[str] = []
    trees: list[py.AST] = []
    real = compile
    monkeypatch.setattr(codegen, "compile", lambda tree, *a: ((sources if isinstance(tree, str) else trees)
                                                             .append(tree), real(tree, *a))[1], raising=False)
    monkeypatch.setattr(codegen, "COMPILED_CACHE", 0)
    load_game(EXAMPLES / game)
    assert sources and trees
    for src in sources:
        assert py.dump(tree_passes.optimised(src)) == py.dump(py.parse(src))
