"""A generated function's prologue loads only the locals its code may read before it assigns them
(`tree_passes.loads_dropped`): games play as with every local loaded (the plain reference), and
the analysis keeps a load wherever a read may come first (loops that may run zero times, `try`,
branches, `:=`, nested scopes)."""

from __future__ import annotations

import ast as py
import textwrap

import pytest

from tgpl.runtime import load_game, tree_passes


from observed import EXAMPLES, after_pass, compiled_with_sources, outcome, reference, same


def dropped(src: str) -> str:
    return after_pass(tree_passes.loads_dropped, src)


def fn(body: str, head: str = "def _direct(m, this, v):\n    l0 = v[0]\n    l1 = v[1]\n") -> str:
    return head + textwrap.indent(textwrap.dedent(body), "    ")


def kept(body: str) -> bool:
    """Whether l0's load is kept in a function of `body`."""
    return "l0 = v[0]" in dropped(fn(body))


def test_a_local_assigned_first_is_not_loaded():
    src = fn("l0 = 1\nreturn l0 + l1\n")
    assert dropped(src) == same("def _direct(m, this, v):\n    l1 = v[1]\n    l0 = 1\n    return l0 + l1\n")


@pytest.mark.parametrize("body", [
    "return l0\n",
    "l0 = l0 + 1\n",  # the value is read before the target is set
    "l0 += 1\n",
    "if m:\n    l0 = 1\nreturn l0\n",  # one branch only
    "if m:\n    pass\nelse:\n    l0 = 1\nreturn l0\n",
    "for x in m:\n    l0 = x\nreturn l0\n",  # the loop may run zero times
    "for x in (1, 2):\n    l0 = x\nreturn l0\n",  # even over a constant: not looked at
    "while m.f():\n    l0 = 1\nreturn l0\n",
    "while True:\n    l0 = 1\n    break\nreturn l0\n",
    "try:\n    m.f()\n    l0 = 1\nexcept KeyError:\n    pass\nreturn l0\n",  # a handler from before the body
    "try:\n    l0 = m.f()\nexcept KeyError:\n    m.g(l0)\n",
    "try:\n    l0 = m.f()\nfinally:\n    m.g(l0)\n",
    "x = (l0 := 1)\nreturn l0\n",  # `:=` counts for nothing
    "l0 = (lambda: l0)\n",  # a nested scope naming it
    "l0 = 1\nf = lambda: l0\n",
    "l0 = 1\nx = [l0 for _ in m]\n",
    "l0 = [x for x in m if (l0 := x)]\n",
    "l0 = 1\ndel l0\n",
    "with m:\n    l0 = 1\nreturn l0\n",
    "m.f(l0)\nl0 = 1\n",
    "l0.x = 1\nl0 = 2\n",  # a target's object is read
    "m[l0] = 1\n",
    "for l0.x in m:\n    pass\n",
    "if l0:\n    l0 = 1\n",
    "try:\n    pass\nexcept Exception as l0:\n    pass\nreturn l0\n",
])
def test_a_local_that_may_be_read_first_keeps_its_load(body):
    assert kept(body)
    compile(dropped(fn(body)), "<test>", "exec")


@pytest.mark.parametrize("body", [
    "l0 = None\nfor x in m:\n    l0 = x\nreturn l0\n",
    "if m:\n    l0 = 1\nelse:\n    l0 = 2\nreturn l0\n",
    "for l0 in m:\n    m.f(l0)\n",  # read in the loop, where the target is set
    "for _j, l0 in ((0, 0.0),):\n    m.f(l0)\n",
    "try:\n    l0 = m.f()\nexcept KeyError:\n    l0 = 2\nreturn l0\n",
    "try:\n    l0 = m.f()\nexcept KeyError:\n    raise\nelse:\n    m.g(l0)\n",
    "l0 = 1\ntry:\n    m.f()\nexcept KeyError:\n    m.g(l0)\n",
    "l0 = 1\nwhile m:\n    m.f(l0)\n",
    "l0, x = m\nreturn l0\n",
    "x = l0 = 3\nreturn l0\n",
])
def test_a_local_always_assigned_first_is_not_loaded(body):
    assert not kept(body)
    compile(dropped(fn(body)), "<test>", "exec")


def test_the_nones_of_a_fast_spelling_are_dropped_one_by_one():
    src = "def _fast(m, this, l0):\n    l1 = l2 = None\n    l1 = 3\n    return l0 + l1 + l2\n"
    assert dropped(src) == same("def _fast(m, this, l0):\n    l2 = None\n    l1 = 3\n    return l0 + l1 + l2\n")
    src = "def _fast(m, this):\n    l1 = l2 = None\n    l1 = l2 = 3\n    return l1 + l2\n"
    assert dropped(src) == same("def _fast(m, this):\n    l1 = l2 = 3\n    return l1 + l2\n")


def test_a_later_assignment_of_none_is_no_prologue():
    src = "def _block(f):\n    v = f.vars\n    m = f.m\n    l0 = v[0]\n    m.f()\n    l1 = None\n    return l0\n"
    assert dropped(src) == same(src)


def test_a_read_after_every_way_out_of_a_try_that_assigned_it():
    body = "try:\n    l0 = m.f()\nexcept KeyError:\n    l0 = 2\nfinally:\n    m.g()\nreturn l0\n"
    assert not kept(body)
    body = "try:\n    m.f()\nexcept KeyError:\n    pass\nfinally:\n    l0 = 1\nreturn l0\n"
    assert not kept(body)


def test_the_generated_functions_run_without_the_loads(monkeypatch):
    """Tris's win check declares all its locals: its prologue loads none; the action that ticks
    reads its input, which keeps its load."""
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    compiled = [py.unparse(tree_passes.optimised(src)) + "\n" for src in sources]
    direct = [src for src in compiled if src.startswith("def _direct(") and "_fx_table" in src]
    assert direct and not any(f"    l{i} = v[{i}]\n" in direct[0] for i in range(6))
    tick = [src for src in compiled if src.startswith("def _direct(") and "'AssignedTo', this" in src]
    assert tick and "    l1 = v[1]\n" in tick[0]


INPUTS = """
game "t";
players 1;
global class G { number N = 0; number S = 0; }
function Sum
{
    function input number a;
    function input number b;
    returns number;
    effect
    {
        number t = b;
        if (a > 2) { b = b + a; }
        for (number i = 0; i < a; i += 1) { t = t + i; }
        number u = t;
        if (a > 1) { u = b; }
        return u + b;
    }
}
class Seat
{
    action Go
    {
        input Seat who { return true; }
        trigger PlayerChoiceEvent { return G.N < 4; }
        effect
        {
            // the input read, then assigned: its load is kept
            if (who == null) { G.S = G.S - 100; }
            who = null;
            number k = G.N;
            number before = k;
            for (number i = 0; i < k; i += 1) { before = before + i; }
            G.S = G.S + Sum(a: k, b: before);
            G.N += 1;
            turn.pass();
        }
    }
}
turn T { phase P { } default { return 0; } }
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


def test_inputs_and_locals_assigned_in_loops_that_may_not_run(tmp_path, monkeypatch):
    """Loops that run zero times (k = 0) and more; a function's inputs read first."""
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(INPUTS), encoding="utf-8")
    g = load_game(path)
    moves = [g.initial_state(0).legal_moves()[0].text] * 4
    got = outcome(g, moves, str(path))
    assert got == outcome(reference(path), moves, str(path))
    assert got[0] == "ok" and got[1][-1] == []


@pytest.mark.parametrize("game", ["tris.tgpl", "chess/chess.tgpl", "citadels/citadels.tgpl"])
def test_a_blocks_other_spellings_are_made_from_its_blocks_tree(monkeypatch, game):
    """`tree_passes.as_direct` makes of a `_block`'s tree, as the passes left it, what the passes make
    of its `_direct`'s source, and `as_fast` of that what they make of its `_fast`'s."""
    from tgpl.runtime import codegen

    made: list[list] = []  # per block: its sources and the inputs of its `_fast`
    compile_ = codegen.BlockGenerator._compile

    def seen(self, src, span, name, block=False, prologue=False):
        if name == "_block":
            made.append([src, None, None, None])
        elif name == "_direct" and block:
            made[-1][1] = src
        elif name == "_fast" and block:
            made[-1][2:] = [src, self.params]
        return compile_(self, src, span, name, block, prologue)

    monkeypatch.setattr(codegen.BlockGenerator, "_compile", seen)
    monkeypatch.setattr(codegen, "COMPILED_CACHE", 0)  # every spelling compiled, the later ones from the trees
    load_game(EXAMPLES / game)
    directs = fasts = 0
    for block, direct, fast, params in made:
        if direct is None:
            continue
        tree = tree_passes.optimised(block)
        tree_passes.as_direct(tree)
        assert py.unparse(tree) == py.unparse(tree_passes.optimised(direct))
        directs += 1
        if fast is not None:
            tree_passes.as_fast(tree, params)
            assert py.unparse(tree) == py.unparse(tree_passes.optimised(fast))
            compile(tree, "<test>", "exec")
            fasts += 1
    assert directs and (fasts or game == "tris.tgpl")
