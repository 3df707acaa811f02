"""The generated Python functions and the closures they stand in for play identical games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import RuntimeOptions
from tgpl.frontend.loader import load_program
from tgpl.play.agents import RandomAgent
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, compile_program
from tgpl.play.play import play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ["tris.tgpl", "connect4.tgpl", "hex.tgpl", "treasure.tgpl", "graph.tgpl", "cards.tgpl"]


def record_of(name: str, seed: int, generate: bool, monkeypatch) -> str:
    program = load_program(EXAMPLES / name)
    game = Game(program, compile_program(program, RuntimeOptions(generate=generate)))
    agents = [RandomAgent(seed, p) for p in range(game.players)]
    return play(game, agents, seed, name).record.to_json()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_code_and_closures_agree(name, seed, monkeypatch):
    generated = record_of(name, seed, True, monkeypatch)
    closures = record_of(name, seed, False, monkeypatch)
    assert generated == closures
    assert '"result": {' in generated  # the game really ended


def test_generated_for_loop_runs_post_after_continue(tmp_path):
    src = (
        'game "t"; players 1;\n'
        "setup { number s = 0;\n"
        "  for (number i = 0; i < 5; i += 1) { if (i == 1) { continue; } if (i == 3) { break; } s += i; }\n"
        "  number w = 0; while (w < 3) { w += 1; if (w == 2) { continue; } }\n"
        '  log("s=" + s + " w=" + w); winner 0; }\n'
    )
    path = tmp_path / "g.tgpl"
    path.write_text(src, encoding="utf-8")
    from tgpl.runtime import load_game

    state = load_game(path).initial_state(0)
    assert state.log == ["s=2 w=3"]  # i = 0 and 2 are added; 1 is skipped; 3 breaks


def outcome(tmp_path, src: str, generate: bool, monkeypatch) -> tuple[list[str], str | None]:
    """The log of a one-player game's setup, and the runtime error's message if it stops on one."""
    from tgpl.runtime.errors import TGPLRuntimeError

    path = tmp_path / f"g{int(generate)}.tgpl"
    path.write_text('game "t"; players 1;\n' + src, encoding="utf-8")
    program = load_program(path)
    assert program.ok, program.diagnostics
    game = Game(program, compile_program(program, RuntimeOptions(generate=generate)))
    try:
        state = game.initial_state(0)
    except TGPLRuntimeError as e:
        return [], e.message + " | " + " < ".join(f.what for f in e.stack)
    return state.log, None


CALLS = """
function Sum { function input number a; function input number b = 10; function input number c = a + 1;
               returns number; effect { return a * 100 + b * 10 + c; } }
function Fact { function input number n; returns number;
                effect { if (n <= 1) { return 1; } return n * Fact(n: n - 1); } }
function Who { function input number k; returns player; effect { return k; } }
class Box
{
    number offset = 5;
    function Add { function input number x; function input number y; returns number; effect { return offset + x - y; } }
}
setup
{
    Box b = new Box();
    log(Sum(a: 1, b: 2, c: 3) + " " + Sum(c: 3, a: 1, b: 2) + " " + Sum(a: 1) + " " + Sum(b: 2, a: 4));
    log(Fact(n: 5) + " " + b.Add(y: 1, x: 3) + " " + b.Add(x: 3, y: 1) + " " + Who(k: 3));
    winner 0;
}
"""


GUESSED = """
class Box { number v = 3; }
function Count { function input Box b; returns number; effect { return b.v; } }
function Deep
{
    function input number k; returns number;
    effect { number s = 0; for (number i = 0; i < k; i += 1) { s += i * Count(b: new Box()); } return s; }
}
function Plain { function input number k; returns number; effect { number s = k * 2; return s + 1; } }
setup { number t = 1 + Count(b: new Box()) * 2; number p = Plain(k: t); log(Deep(k: 4) + " " + t + " " + p); winner 0; }
"""


def test_a_closure_the_spelling_guess_misses_begins_the_block_again(tmp_path, monkeypatch):
    """`Deep`'s `new` lies in an expression the guess does not look into (`BlockGenerator.closure_node`):
    begun with Python's own locals, the function is begun again with the Frame's list, from the
    same layout, and computes what the closures compute; `Plain` has no closure, the setup a
    `log` statement the guess sees."""
    generated = outcome(tmp_path, GUESSED, True, monkeypatch)
    assert generated == outcome(tmp_path, GUESSED, False, monkeypatch)
    assert generated == (["18 7 15"], None)


def test_generated_calls_bind_named_inputs_like_the_closures(tmp_path, monkeypatch):
    generated = outcome(tmp_path, CALLS, True, monkeypatch)
    assert generated == outcome(tmp_path, CALLS, False, monkeypatch)
    # in any order; omitted inputs take their defaults, which see the inputs before them
    assert generated == (["123 123 202 425", "120 7 7 0"], None)


@pytest.mark.parametrize("body, expected", [
    ('Table<number> t = {}; t["a"] = 1; log(t["a"] + " " + t["b"]);', (["1 null"], None)),
    ("List<number> xs = {4, 5, 6}; log(xs[0] + \" \" + xs[1.9] + \" \" + xs[2]);", (["4 5 6"], None)),
    ("List<number> xs = {4, 5, 6}; log(xs[3]);", ([], "index 3 out of range 0..2 | setup")),
    ("List<number> xs = {4, 5, 6}; log(xs[-1]);", ([], "index -1 out of range 0..2 | setup")),
    ("List<number> xs = null; log(xs[0]);", ([], "cannot index null | setup")),
    ("Table<number> t = {}; string k = null; log(t[k]);", ([], "a table key is null | setup")),
    ("Table<number> t = null; log(t[\"a\"]);", ([], "cannot index null | setup")),
])
def test_generated_indexing_reads_and_fails_like_the_closures(tmp_path, monkeypatch, body, expected):
    src = "setup { " + body + " winner 0; }\n"
    generated = outcome(tmp_path, src, True, monkeypatch)
    assert generated == outcome(tmp_path, src, False, monkeypatch)
    assert generated == expected


def test_generated_member_reads_fail_like_the_closures(tmp_path, monkeypatch):
    src = "class Box { number v = 2; }\nsetup { Box b = new Box(); log(\"\" + b.v); b = null; log(\"\" + b.v); winner 0; }\n"
    generated = outcome(tmp_path, src, True, monkeypatch)
    assert generated == outcome(tmp_path, src, False, monkeypatch)
    assert generated == ([], "cannot read 'v' of null | setup")


@pytest.mark.parametrize("body, expected", [
    ('Table<number> t = {}; t["a"] = 1; t["b"] = 2; t["a"] = null; log(t["a"] + " " + t["b"] + " " + t.length);',
     (["null 2 1"], None)),
    ("List<number> xs = {4, 5, 6}; xs[0] = 7; xs[2.5] = 8; xs[-0.5] = 9; log(\"\" + xs);", (["{9, 5, 8}"], None)),
    ("List<number> xs = {4, 5, 6}; xs[3] = 1;", ([], "index 3 out of range 0..2 | setup")),
    ("List<number> xs = {4, 5, 6}; xs[1] += 10; log(\"\" + xs);", (["{4, 15, 6}"], None)),
    ("Table<number> t = {}; string k = null; t[k] = 1;", ([], "a table key is null | setup")),
    ("List<number> xs = null; xs[0] = 1;", ([], "cannot index null | setup")),
])
def test_generated_index_stores_work_and_fail_like_the_closures(tmp_path, monkeypatch, body, expected):
    src = "setup { " + body + " winner 0; }\n"
    generated = outcome(tmp_path, src, True, monkeypatch)
    assert generated == outcome(tmp_path, src, False, monkeypatch)
    assert generated == expected


NULLS_AND_CASTS = """
global class Counter { number n = 0; }
class Animal { }
class Dog : Animal { }
setup
{
    Animal a = new Dog();
    Animal b = new Animal();
    number zero = 0;
    bool no = false;
    string empty = "";
    Animal none = null;
    log((zero == null) + " " + (no == null) + " " + (empty == null) + " " + (none == null) + " " + (null == a)
        + " " + (a != null) + " " + (null != none));
    log((a is Dog) + " " + (b is Dog) + " " + (a is Animal) + " " + ((a as Dog) == a) + " " + ((b as Dog) == null));
    Counter.n += 2;
    for (number i = 0; i < 3; i += 1) { Counter.n += i; }
    log("" + Counter.n);
    winner 0;
}
"""


def test_generated_null_tests_casts_and_globals_agree_with_the_closures(tmp_path, monkeypatch):
    generated = outcome(tmp_path, NULLS_AND_CASTS, True, monkeypatch)
    assert generated == outcome(tmp_path, NULLS_AND_CASTS, False, monkeypatch)
    assert generated == (["false false false true false true false", "true false true true true", "5"], None)


@pytest.mark.parametrize("body, expected", [
    ("number x = 2; log((x + 1) + \" \" + (1 - x) + \" \" + (x * 2.5) + \" \" + (x < 3) + \" \" + (3 <= x));",
     (["3 -1 5 true false"], None)),
    ("number n = null; log(\"\" + (n < 3));", ([], "'<' of null and 3 | setup")),
    ("number n = null; log(\"\" + (1 - n));", ([], "'-' of 1 and null | setup")),
    ("number n = null; n += 1;", ([], "'+' of null and 1 | setup")),
])
def test_generated_arithmetic_with_a_literal_checks_the_other_operand(tmp_path, monkeypatch, body, expected):
    src = "setup { " + body + " winner 0; }\n"
    generated = outcome(tmp_path, src, True, monkeypatch)
    assert generated == outcome(tmp_path, src, False, monkeypatch)
    assert generated == expected


def test_inline_equality_agrees_with_the_machines_for_every_kind_of_value():
    import itertools

    from tgpl.frontend.symbols import ClassInfo
    from tgpl.frontend.types import NUMBER, PLAYER, STRING, ClassType
    from tgpl.runtime.codegen import _HELPERS, BlockGenerator
    from tgpl.runtime.compiler import _equal
    from tgpl.runtime.values import Obj

    a, b = Obj(None, 0, "A#0"), Obj(None, 1, "A#1")
    values = [None, 0, 1, 2, 0.0, 1.0, -0.0, 2.5, True, False, "", "1", "x", a, b, [], [1.0], {}, {1.0: 2.0}]
    a_type = ClassType(ClassInfo("A", "class"))
    # What a value of each declared type can be: numbers and players are floats, ints (a player)
    # or null, strings strings or null, objects objects or null (the generated code relies on it)
    players, objects = [None, 0, 1, 2, 0.0, 1.0, -0.0, 2.5], [None, a, b]
    for types in [(None, None), (NUMBER, NUMBER), (PLAYER, PLAYER), (STRING, STRING), (PLAYER, NUMBER),
                  (a_type, None), (a_type, a_type)]:
        g = BlockGenerator.__new__(BlockGenerator)
        g.counter = 0
        g.numeric = set()
        code = g.equal("x", "y", *types)
        ns = dict(_HELPERS, _eq=_equal)
        domain = (objects if types == (a_type, a_type)
                  else [None, "", "1", "x"] if types == (STRING, STRING)
                  else players if types in ((PLAYER, PLAYER), (NUMBER, NUMBER), (PLAYER, NUMBER)) else values)
        for x, y in itertools.product(domain, domain):
            assert eval(code, ns, {"x": x, "y": y}) is _equal(x, y), (code, x, y)
        for literal in (0.0, 1.0, 2.5, -1.0):  # against a number literal, on either side
            for code in (g.equal("x", repr(literal), *types), g.equal(repr(literal), "x", *types)):
                for x in values:
                    assert eval(code, ns, {"x": x}) is _equal(x, literal), (code, x)


@pytest.mark.parametrize("body, expected", [
    ("for (number i = 0; i < 3; i += 1) { player p = i; player q = p + 1; player r = p - 2; player s = 1 + p;"
     " player t = -1 + p; player u = p + 0.5; player w = p - 7; log(\"\" + q + r + s + t + u + w); }",
     (["111202", "222010", "000121"], None)),
    ("player p = null; player q = p + 1;", ([], "'+' of null and 1 | setup")),
])
def test_generated_player_arithmetic_with_a_literal_agrees_with_the_machines(tmp_path, monkeypatch, body, expected):
    src = "setup { " + body + " winner 0; }\n"
    results = []
    for generate in (True, False):
        path = tmp_path / f"p{int(generate)}.tgpl"
        path.write_text('game "t"; players 3;\n' + src, encoding="utf-8")
        program = load_program(path)
        assert program.ok, program.diagnostics
        game = Game(program, compile_program(program, RuntimeOptions(generate=generate)))
        from tgpl.runtime.errors import TGPLRuntimeError

        try:
            results.append((game.initial_state(0).log, None))
        except TGPLRuntimeError as e:
            results.append(([], e.message + " | " + " < ".join(f.what for f in e.stack)))
    assert results[0] == results[1] == expected


INLINED = """
tile Cell { Seat Owner = null; }
class Seat { }
board B { group G { geometry square; grid { Cell, Cell, Cell; } } }
global class GameState { B Board = null; }
function Same
{
    function input Cell a;
    function input Cell b;
    returns Seat;
    effect { if (a.Owner != null && a.Owner == b.Owner) { return a.Owner; } return null; }
}
function Either { function input Cell a; function input Cell b; returns bool; effect { return a.Owner != null || !(b.Owner == null); } }
setup
{
    GameState.Board = new B();
    Seat s = new Seat();
    Cell c0 = GameState.Board.G[0][0] as Cell;
    Cell c1 = GameState.Board.G[1][0] as Cell;
    Seat got = null;
    bool any = false;
    got = Same(a: c0, b: c1);
    any = Either(a: c0, b: c1);
    log("" + (got == null) + " " + any);
    c0.Owner = s;
    got = Same(a: c0, b: c1);
    any = Either(a: c1, b: c0);
    log("" + (got == null) + " " + any);
    c1.Owner = s;
    got = Same(a: c0, b: c1);
    log("" + (got == s));
    LAST
    winner 0;
}
"""


@pytest.mark.parametrize("last, expected", [
    ("", (["true false", "true true", "true"], None)),
    # a null argument: the call raises, inside the function
    ("got = Same(a: c0, b: null);", ([], "cannot read 'Owner' of null | setup < function Same")),
    ("got = Same(a: null, b: c1);", ([], "cannot read 'Owner' of null | setup < function Same")),
])
def test_a_function_comparing_fields_agrees_with_the_reference(tmp_path, monkeypatch, last, expected):
    src = INLINED.replace("LAST", last)
    generated = outcome(tmp_path, src, True, monkeypatch)
    assert generated == outcome(tmp_path, src, False, monkeypatch)
    assert generated == expected


CHAINS = """
tile Cell { Seat Owner = null; }
class Seat { }
board B { group G { geometry square; grid { Cell, Cell, Cell; } } }
global class GameState { B Board = null; }
// assigns Owner after setup: `Line` and `Open` are not pure (else memoized)
function Clear { function input Cell a; returns; effect { a.Owner = null; } }
function Line
{
    function input Cell a;
    function input Cell b;
    function input Cell c;
    returns Seat;
    effect { if (a.Owner != null && a.Owner == b.Owner && b.Owner == c.Owner) { return a.Owner; } return null; }
}
function Open
{
    function input Cell a;
    function input Cell b;
    function input Cell c;
    returns bool;
    effect { return (a.Owner == null || b.Owner == null) && b.Owner == c.Owner || a.Owner == c.Owner; }
}
setup
{
    GameState.Board = new B();
    Seat s = new Seat();
    Seat t = new Seat();
    Cell c0 = GameState.Board.G[0][0] as Cell;
    Cell c1 = GameState.Board.G[1][0] as Cell;
    Cell c2 = GameState.Board.G[2][0] as Cell;
    Seat got = null;
    bool open = false;
    for (number i = 0; i < 27; i += 1)
    {
        c0.Owner = null;
        c1.Owner = null;
        c2.Owner = null;
        if (i % 3 == 1) { c0.Owner = s; }
        if (i % 3 == 2) { c0.Owner = t; }
        if ((i - i % 3) / 3 % 3 == 1) { c1.Owner = s; }
        if ((i - i % 3) / 3 % 3 == 2) { c1.Owner = t; }
        if (i >= 9 && i < 18) { c2.Owner = s; }
        if (i >= 18) { c2.Owner = t; }
        got = Line(a: c0, b: c1, c: c2);
        open = Open(a: c0, b: c1, c: c2);
        log("" + i + " " + (got == null) + " " + (got == s) + " " + open);
    }
    LAST
    winner 0;
}
"""


@pytest.mark.parametrize("last", [
    "",
    # a null argument read only past a short-circuit
    "c0.Owner = s; c1.Owner = s; got = Line(a: c0, b: c1, c: null);",
    "c0.Owner = null; got = Line(a: c0, b: c1, c: null); open = Open(a: c0, b: c1, c: null);",
    "c0.Owner = s; c1.Owner = t; open = Open(a: c0, b: c1, c: null);",
])
def test_chains_over_fields_agree_with_the_reference(tmp_path, monkeypatch, last):
    """Chains of `&&` and `||` over the fields of three cells, in generated code: every ownership
    of the cells, and null arguments met only past a short-circuit, give what the reference gives."""
    src = CHAINS.replace("LAST", last)
    generated = outcome(tmp_path, src, True, monkeypatch)
    assert generated == outcome(tmp_path, src, False, monkeypatch)
    assert len(generated[0]) == 27 or generated[1] is not None


@pytest.mark.parametrize("body, expected", [
    ("List<number> xs = {1, 2, 3}; number n = xs.length; log(\"\" + n);", "3"),
    ("Table<number> t = {}; t[4] = 1; t[5] = 2; number n = t.length; log(\"\" + n);", "2"),
    ("List<number> xs = null; number n = xs.length; log(\"\" + n);", "error: null has no length"),
])
def test_a_length_inline_is_the_machine_s(tmp_path, body, expected):
    # a list's or table's length is read inline; null goes to Machine.length, which raises (the
    # closures say "null has no members" there: generated code has said "no length" before)
    src = f'game "t"; players 1;\nsetup {{ {body} }}\n'
    path = tmp_path / "t.tgpl"
    path.write_text(src, encoding="utf-8")
    program = load_program(path)
    game = Game(program, compile_program(program))
    try:
        outcome = game.initial_state(0).log[-1]
    except TGPLRuntimeError as e:
        outcome = "error: " + e.message
    assert outcome == expected
