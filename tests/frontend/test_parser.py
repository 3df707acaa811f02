"""Parser tests: every TGPL construct parses to the AST it should, and syntax
errors come back as diagnostics (never as exceptions).

Expressions are compared through `sexp`, a compact prefix rendering of the AST
(`(- (^ 2 2))`), so precedence and associativity read at a glance.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tgpl.frontend import ast
from tgpl.frontend.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]
FILE = "test.tgpl"


# -------------------------------------------------------------------- helpers


def parse(src: str) -> ast.Module:
    """Parse text that must be valid."""
    result = parse_text(src, FILE)
    assert [d.header() for d in result.diagnostics] == []
    assert result.module is not None
    return result.module


def parse_one(src: str):
    """The single top-level item of `src`."""
    (item,) = parse(src).items
    return item


def stmts(body: str) -> list[ast.Stmt]:
    setup = parse_one(f"setup {{\n{body}\n}}")
    assert isinstance(setup, ast.SetupDef)
    return setup.body.body


def stmt(src: str) -> ast.Stmt:
    (s,) = stmts(src)
    return s


def expr(src: str) -> ast.Expr:
    """`src` as an expression: the value of `x = <src>;`."""
    s = stmt(f"x = {src};")
    assert isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign)
    assert s.expr.op == "=" and s.expr.target == ast.Name(s.expr.target.span, "x")
    return s.expr.value


def class_members(body: str, head: str = "class C") -> list:
    cls = parse_one(f"{head}\n{{\n{body}\n}}")
    assert isinstance(cls, ast.ClassDef)
    return cls.members


def action(body: str) -> ast.ActionDef:
    (act,) = class_members(f"action A {{\n{body}\n}}")
    assert isinstance(act, ast.ActionDef)
    return act


def pos(span) -> tuple[int, int, int, int]:
    return (span.line, span.col, span.end_line, span.end_col)


def diags(src: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each diagnostic; the parser must not raise."""
    result = parse_text(src, FILE)
    return [(d.span.line, d.span.col, d.message) for d in result.diagnostics]


def sexp(e: ast.Expr) -> str:
    """A compact prefix rendering of an expression tree."""
    match e:
        case ast.NumberLit(value=v):
            return str(int(v)) if v == int(v) else repr(v)
        case ast.StringLit(value=v):
            return repr(v)
        case ast.BoolLit(value=v):
            return "true" if v else "false"
        case ast.NullLit():
            return "null"
        case ast.This():
            return "this"
        case ast.Base():
            return "base"
        case ast.Name(name=n):
            return n
        case ast.Member(obj=o, name=n):
            return f"(. {sexp(o)} {n})"
        case ast.Index(obj=o, index=i):
            return f"([] {sexp(o)} {sexp(i)})"
        case ast.Call(callee=c, args=args):
            shown = [sexp(c)] + [(f"{a.name}:" if a.name else "") + sexp(a.value) for a in args]
            return f"(call {' '.join(shown)})"
        case ast.Binary(op=op, left=l, right=r):
            return f"({op} {sexp(l)} {sexp(r)})"
        case ast.Unary(op=op, operand=x):
            return f"({op} {sexp(x)})"
        case ast.TypeTest(expr=x, type=t):
            return f"(is {sexp(x)} {t})"
        case ast.Cast(expr=x, type=t):
            return f"(as {sexp(x)} {t})"
        case ast.InitList(items=items):
            return "{" + ", ".join(sexp(i) for i in items) + "}"
        case ast.New(type=t, init=init):
            return f"(new {t}" + (f" {sexp(init)}" if init is not None else "") + ")"
        case ast.Assign(target=t, op=op, value=v):
            return f"({op} {sexp(t)} {sexp(v)})"
    raise TypeError(f"not an expression: {e!r}")


# ---------------------------------------------------------------- lexical


@pytest.mark.parametrize("name", ["x", "_x", "snake_case_1", "größe", "été_2", "変数"])
def test_identifiers(name):
    e = expr(name)
    assert isinstance(e, ast.Name) and e.name == name


def test_comments_are_ignored():
    body = stmts("// a whole line\nx = 1; // trailing\n// another\ny = 2; // at end of file, no newline")
    assert [sexp(s.expr) for s in body] == ["(= x 1)", "(= y 2)"]


def test_nested_blocks():
    (outer,) = stmts("{ { } }")
    assert isinstance(outer, ast.Block)
    (inner,) = outer.body
    assert isinstance(inner, ast.Block) and inner.body == []


# ---------------------------------------------------------------- literals


@pytest.mark.parametrize(
    "src, value",
    [("42", 42.0), ("007", 7.0), ("3.25", 3.25), ("1.5e3", 1500.0), ("2E-2", 0.02), ("1e+2", 100.0)],
)
def test_number_literals(src, value):
    e = expr(src)
    assert isinstance(e, ast.NumberLit) and e.value == value


@pytest.mark.parametrize(
    "src, value",
    [
        (r'""', ""),
        (r'"plain text"', "plain text"),
        (r'"a\"b"', 'a"b'),
        (r'"back\\slash"', "back\\slash"),
        (r'"tab\tnew\nline"', "tab\tnew\nline"),
        (r'"ünïcödé"', "ünïcödé"),
        (r'"http://not.a/comment"', "http://not.a/comment"),
    ],
)
def test_string_literals_and_escapes(src, value):
    e = expr(src)
    assert isinstance(e, ast.StringLit) and e.value == value


def test_bool_and_null_literals():
    assert [type(expr(s)) for s in ("true", "false", "null")] == [ast.BoolLit, ast.BoolLit, ast.NullLit]
    assert (expr("true").value, expr("false").value) == (True, False)


# ------------------------------------------------------------------- types


def decl_type(type_src: str) -> ast.TypeRef:
    d = stmt(f"{type_src} v;")
    assert isinstance(d, ast.VarDecl) and d.name == "v"
    return d.type


@pytest.mark.parametrize("name", ["number", "string", "bool", "player", "PlayerState", "Alias.Card"])
def test_simple_types(name):
    t = decl_type(name)
    assert (t.name, t.args) == (name, [])


@pytest.mark.parametrize("generic", ["List", "Table", "Stack"])
def test_generic_types(generic):
    t = decl_type(f"{generic}<Alias.Card>")
    assert t.name == generic
    (arg,) = t.args
    assert (arg.name, arg.args) == ("Alias.Card", [])


def test_nested_generic_closed_by_double_angle():
    t = decl_type("List<List<player>>")
    assert t.name == "List"
    (inner,) = t.args
    assert inner.name == "List"
    (leaf,) = inner.args
    assert (leaf.name, leaf.args) == ("player", [])
    assert pos(t.span) == (2, 1, 2, 19)
    assert pos(inner.span) == (2, 6, 2, 18)


def test_nested_table_type_with_initializer():
    d = stmt("Table<Table<TickTile>> tiles = {};")
    assert str(d.type) == "Table<Table<TickTile>>"
    assert d.init == ast.InitList(d.init.span, [])


# ------------------------------------------------------- initializer lists


@pytest.mark.parametrize(
    "src, shown",
    [
        ("{a, b}", "{a, b}"),
        ("{{k, v}, {k2, v2}}", "{{k, v}, {k2, v2}}"),
        ("{}", "{}"),
        ("{1, 2,}", "{1, 2}"),
        ("{ {0, 1} }", "{{0, 1}}"),
    ],
)
def test_init_lists(src, shown):
    e = expr(src)
    assert isinstance(e, ast.InitList)
    assert sexp(e) == shown


def test_init_list_nesting_is_structural():
    e = expr("{{k, v}}")
    (pair,) = e.items
    assert isinstance(pair, ast.InitList)
    assert [i.name for i in pair.items] == ["k", "v"]


def test_init_list_in_declaration():
    d = stmt("List<number> l = {1, 2};")
    assert isinstance(d, ast.VarDecl) and sexp(d.init) == "{1, 2}"


def test_init_list_after_new():
    e = expr("new List<number>() {1, 2}")
    assert isinstance(e, ast.New)
    assert str(e.type) == "List<number>"
    assert isinstance(e.init, ast.InitList) and sexp(e.init) == "{1, 2}"


def test_init_list_as_call_arguments():
    assert sexp(expr("f({1, 2}, key: {{a, b}})")) == "(call f {1, 2} key:{{a, b}})"


def test_init_list_in_return_and_winner():
    ret, win = stmts("return {1, 2};\nwinner {{0, 1}};")
    assert isinstance(ret, ast.Return) and sexp(ret.value) == "{1, 2}"
    assert isinstance(win, ast.Winner) and sexp(win.value) == "{{0, 1}}"


# ------------------------------------------------------------- expressions

BINARY_OPS = ["^", "*", "/", "%", "+", "-", "<", ">", "<=", ">=", "==", "!=", "&", "|", "&&", "||"]


@pytest.mark.parametrize("op", BINARY_OPS)
def test_every_binary_operator(op):
    e = expr(f"a {op} b")
    assert isinstance(e, ast.Binary)
    assert (e.op, e.left.name, e.right.name) == (op, "a", "b")


@pytest.mark.parametrize("op", ["-", "!"])
def test_unary_operators(op):
    e = expr(f"{op}a")
    assert isinstance(e, ast.Unary) and (e.op, e.operand.name) == (op, "a")


@pytest.mark.parametrize(
    "src, tree",
    [
        # `^` binds tighter than unary minus and is right-associative
        ("-2^2", "(- (^ 2 2))"),
        ("(-2)^2", "(^ (- 2) 2)"),
        ("2^3^2", "(^ 2 (^ 3 2))"),
        ("2^-1", "(^ 2 (- 1))"),
        ("!a ^ b", "(! (^ a b))"),
        # unary binds tighter than the binary operators
        ("-a * b", "(* (- a) b)"),
        ("!a && b", "(&& (! a) b)"),
        ("- -a", "(- (- a))"),
        ("!!a", "(! (! a))"),
        ("a - -b", "(- a (- b))"),
        # one level at a time, lowest to highest
        ("a * b ^ c", "(* a (^ b c))"),
        ("a + b * c", "(+ a (* b c))"),
        ("a * b + c", "(+ (* a b) c)"),
        ("a + b < c - d", "(< (+ a b) (- c d))"),
        ("a < b == c >= d", "(== (< a b) (>= c d))"),
        ("a == b & c != d", "(& (== a b) (!= c d))"),
        ("a & b | c & d", "(| (& a b) (& c d))"),
        ("a | b && c | d", "(&& (| a b) (| c d))"),
        ("a && b || c && d", "(|| (&& a b) (&& c d))"),
        ("a || b && c | d & e == f < g + h * i ^ j", "(|| a (&& b (| c (& d (== e (< f (+ g (* h (^ i j)))))))))"),
        # left associativity
        ("a - b - c", "(- (- a b) c)"),
        ("a / b % c", "(% (/ a b) c)"),
        ("a < b > c", "(> (< a b) c)"),
        ("a == b != c", "(!= (== a b) c)"),
        ("a || b || c", "(|| (|| a b) c)"),
        # parentheses override precedence
        ("(a + b) * c", "(* (+ a b) c)"),
        ("a - (b - c)", "(- a (- b c))"),
        ("-(a + b)", "(- (+ a b))"),
        # `is` and `as` sit with the comparisons
        ("a + b is T", "(is (+ a b) T)"),
        ("a < b is T", "(is (< a b) T)"),
        ("x is T && y", "(&& (is x T) y)"),
        ("x as T == null", "(== (as x T) null)"),
        ("(x as T).y", "(. (as x T) y)"),
    ],
)
def test_precedence_and_associativity(src, tree):
    assert sexp(expr(src)) == tree


@pytest.mark.parametrize(
    "src, tree",
    [
        ("a.b.c", "(. (. a b) c)"),
        ("a[1][2]", "([] ([] a 1) 2)"),
        ("a.b(c)[d].e", "(. ([] (call (. a b) c) d) e)"),
        ("f()", "(call f)"),
        ("f(1, x)", "(call f 1 x)"),
        ("f(1, x,)", "(call f 1 x)"),
        ("f(a: 1, b: 2)", "(call f a:1 b:2)"),
        ("f(1, b: x + 1)", "(call f 1 b:(+ x 1))"),
        ("f()(1)", "(call (call f) 1)"),
        ("x.assign(0)", "(call (. x assign) 0)"),
        ("turn.phase.active()", "(call (. (. turn phase) active))"),
        ("player.active()", "(call (. player active))"),
        ("event.throw(e)", "(call (. event throw) e)"),
        ("this.x", "(. this x)"),
        ("base.A()", "(call (. base A))"),
        ("new T()", "(new T)"),
        ("new Alias.Card()", "(new Alias.Card)"),
        ("new T() {1, 2}", "(new T {1, 2})"),
        ("x is T", "(is x T)"),
        ("x is Lib.T", "(is x Lib.T)"),
        ("x as List<T>", "(as x List<T>)"),
        ("GameState.Board.TrisGrid[x][y] as TickTile", "(as ([] ([] (. (. GameState Board) TrisGrid) x) y) TickTile)"),
    ],
)
def test_postfix_and_primary_expressions(src, tree):
    assert sexp(expr(src)) == tree


def test_named_and_positional_arguments():
    call = expr("f(1, b: 2)")
    assert isinstance(call, ast.Call)
    assert [a.name for a in call.args] == [None, "b"]
    assert pos(call.args[1].span) == (2, 10, 2, 14)  # `b: 2`


def test_new_without_initializer():
    e = expr("new TrisBoard()")
    assert isinstance(e, ast.New) and e.init is None and e.type.name == "TrisBoard"


@pytest.mark.parametrize(
    "src, tree",
    [
        ("t.tile", "(. t tile)"),
        ("c.to", "(. c to)"),
        ("g.group", "(. g group)"),
        ("x.player", "(. x player)"),
        ("x.effect", "(. x effect)"),
        ("turn.pass()", "(call (. turn pass))"),
    ],
)
def test_keywords_as_member_names(src, tree):
    assert sexp(expr(src)) == tree


def test_keywords_as_member_names_at_statement_start():
    body = stmts("g.group = t.tile;\nevent.throw(e);\nturn.pass(0, \"TickPhase\");\nwinner winnerState.player;")
    assert [sexp(s.expr) for s in body[:3]] == [
        "(= (. g group) (. t tile))",
        "(call (. event throw) e)",
        "(call (. turn pass) 0 'TickPhase')",
    ]
    assert sexp(body[3].value) == "(. winnerState player)"


def test_identifiers_starting_with_keywords_are_names():
    assert sexp(expr("returnValue + players_n * iffy - whilex")) == "(- (+ returnValue (* players_n iffy)) whilex)"


@pytest.mark.parametrize("op", ["=", "+=", "-=", "*=", "/=", "%="])
def test_assignment_operators(op):
    s = stmt(f"tiles[x] {op} 1;")
    assert isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign)
    assert s.expr.op == op
    assert sexp(s.expr) == f"({op} ([] tiles x) 1)"


def test_assignment_is_right_associative():
    assert sexp(stmt("a = b = c;").expr) == "(= a (= b c))"
    assert sexp(stmt("a += b -= c;").expr) == "(+= a (-= b c))"


def test_assignment_binds_loosest():
    assert sexp(stmt("a = b || c;").expr) == "(= a (|| b c))"


# --------------------------------------------------------------------- spans


def test_expression_spans():
    s = stmt("y = (a + b) * c;")
    assert pos(s.span) == (2, 1, 2, 17)  # the statement includes its `;`
    assert pos(s.expr.span) == (2, 1, 2, 16)
    mul = s.expr.value
    assert pos(mul.span) == (2, 5, 2, 16)  # from the `(`
    assert pos(mul.left.span) == (2, 6, 2, 11)  # `a + b`, without parentheses


def test_member_spans():
    e = expr("turn.phase.active()")
    assert pos(e.span) == (2, 5, 2, 24)
    member = e.callee
    assert pos(member.span) == (2, 5, 2, 22)
    assert pos(member.name_span) == (2, 16, 2, 22)


def test_declaration_spans():
    d = stmt("number größe = -x;")
    assert pos(d.span) == (2, 1, 2, 19)
    assert pos(d.type.span) == (2, 1, 2, 7)
    assert pos(d.name_span) == (2, 8, 2, 13)  # columns count code points
    assert pos(d.init.span) == (2, 16, 2, 18)
    assert d.span.file == FILE


def test_multiline_span():
    setup = parse_one("setup\n{\n    x = 1;\n}\n")
    assert pos(setup.span) == (1, 1, 4, 2)
    assert pos(setup.body.span) == (2, 1, 4, 2)


# ---------------------------------------------------------------- statements


def test_return_with_and_without_value():
    with_value, bare = stmts("return a + 1;\nreturn;")
    assert isinstance(with_value, ast.Return) and sexp(with_value.value) == "(+ a 1)"
    assert isinstance(bare, ast.Return) and bare.value is None


def test_expression_statement():
    s = stmt("f(1);")
    assert isinstance(s, ast.ExprStmt) and sexp(s.expr) == "(call f 1)"


def test_declarations_with_and_without_initializer():
    with_init, without = stmts("PlayerState p = new PlayerState();\nstring s;")
    assert isinstance(with_init, ast.VarDecl)
    assert (with_init.type.name, with_init.name, sexp(with_init.init)) == ("PlayerState", "p", "(new PlayerState)")
    assert isinstance(without, ast.VarDecl)
    assert (without.type.name, without.name, without.init) == ("string", "s", None)


def test_dotted_type_declaration():
    d = stmt("Alias.Card c = null;")
    assert isinstance(d, ast.VarDecl) and (d.type.name, d.name) == ("Alias.Card", "c")


def test_if_else_if_else_chain():
    s = stmt("if (a) { x(); } else if (b) { y(); } else { z(); }")
    assert isinstance(s, ast.If) and sexp(s.cond) == "a"
    assert sexp(s.then.body[0].expr) == "(call x)"
    elif_ = s.orelse
    assert isinstance(elif_, ast.If) and sexp(elif_.cond) == "b"
    assert sexp(elif_.then.body[0].expr) == "(call y)"
    assert isinstance(elif_.orelse, ast.Block)
    assert sexp(elif_.orelse.body[0].expr) == "(call z)"


def test_if_without_else():
    s = stmt("if (a == 1) { }")
    assert isinstance(s, ast.If) and s.orelse is None and s.then.body == []


def test_while():
    s = stmt("while (i < 3) { i += 1; }")
    assert isinstance(s, ast.While) and sexp(s.cond) == "(< i 3)"
    assert sexp(s.body.body[0].expr) == "(+= i 1)"


def test_for_with_declaration_initializer():
    s = stmt("for (number x = 0; x < 3; x += 1) { break; }")
    assert isinstance(s, ast.For)
    assert isinstance(s.init, ast.VarDecl)
    assert (s.init.type.name, s.init.name, sexp(s.init.init)) == ("number", "x", "0")
    assert sexp(s.cond) == "(< x 3)"
    assert sexp(s.post) == "(+= x 1)"
    assert isinstance(s.body.body[0], ast.Break)


def test_for_with_expression_initializer():
    s = stmt("for (i = 0; ; i += 1) { }")
    assert isinstance(s, ast.For)
    assert sexp(s.init) == "(= i 0)" and s.cond is None and sexp(s.post) == "(+= i 1)"


def test_for_with_all_parts_omitted():
    s = stmt("for (;;) { continue; }")
    assert isinstance(s, ast.For)
    assert (s.init, s.cond, s.post) == (None, None, None)
    assert isinstance(s.body.body[0], ast.Continue)


def test_break_and_continue():
    assert [type(s) for s in stmts("break;\ncontinue;")] == [ast.Break, ast.Continue]


def test_winner_with_a_player():
    s = stmt("winner active_player + 1;")
    assert isinstance(s, ast.Winner) and sexp(s.value) == "(+ active_player 1)"


def test_input_statement_default_modifier():
    s = stmt("input TickTile x;")
    assert isinstance(s, ast.InputDecl)
    assert (s.optional, s.modifier, s.modifier_written, s.target) == (False, "player", False, None)
    assert (s.type.name, s.name, s.filters, s.default, s.shorthand) == ("TickTile", "x", [], None, False)


def test_input_statement_optional_auto_with_filter():
    s = stmt("optional auto input T x { return true; }")
    assert isinstance(s, ast.InputDecl)
    assert (s.optional, s.modifier, s.modifier_written) == (True, "auto", True)
    assert s.shorthand is True
    (f,) = s.filters
    assert f.name is None and isinstance(f.body.body[0], ast.Return)


def test_input_statement_with_player_target():
    s = stmt("player [p + 1] input T x;")
    assert isinstance(s, ast.InputDecl)
    assert (s.modifier, s.modifier_written, sexp(s.target)) == ("player", True, "(+ p 1)")
    assert (s.type.name, s.name) == ("T", "x")
    assert pos(s.span) == (2, 1, 2, 26)
    assert pos(s.name_span) == (2, 24, 2, 25)


# ---------------------------------------------------------------- directives


def test_directives():
    game, players, imp, aliased, setup = parse(
        'game "tris";\nplayers 2;\nimport "path.tgpl";\nimport "lib/x.tgpl" as X;\nsetup { }\n'
    ).items
    assert isinstance(game, ast.GameDirective) and game.name == "tris"
    assert isinstance(players, ast.PlayersDirective) and sexp(players.count) == "2"
    assert isinstance(imp, ast.ImportDirective) and (imp.path, imp.alias) == ("path.tgpl", None)
    assert pos(imp.path_span) == (3, 8, 3, 19)  # the string literal, quotes included
    assert isinstance(aliased, ast.ImportDirective) and (aliased.path, aliased.alias) == ("lib/x.tgpl", "X")
    assert isinstance(setup, ast.SetupDef) and setup.body.body == []


def test_module_helpers():
    module = parse('import "a.tgpl";\nclass A { }\nfunction F { }\nturn T { }\nsetup { }\n')
    assert module.path == FILE
    assert [i.path for i in module.imports] == ["a.tgpl"]
    assert [type(d).__name__ for d in module.definitions] == ["ClassDef", "FunctionDef", "TurnDef"]


# ------------------------------------------------------------------ classes


@pytest.mark.parametrize("kind", ast.CLASS_KINDS)
def test_class_kinds(kind):
    cls = parse_one(f"{kind} K {{ }}")
    assert isinstance(cls, ast.ClassDef)
    assert (cls.kind, cls.name, cls.visibility, cls.base, cls.members) == (kind, "K", None, None, [])


@pytest.mark.parametrize("visibility", ["local", "group", "global"])
def test_class_visibility(visibility):
    cls = parse_one(f"{visibility} class K {{ }}")
    assert (cls.kind, cls.visibility) == ("class", visibility)


def test_inheritance():
    plain, dotted = parse("class D : B { }\nclass E : Lib.B { }").items
    assert (plain.name, plain.base) == ("D", "B")
    assert (dotted.name, dotted.base) == ("E", "Lib.B")
    assert pos(dotted.base_span) == (2, 11, 2, 16)
    assert plain.base_span is not None and pos(plain.base_span) == (1, 11, 1, 12)


def test_class_spans():
    cls = parse_one("global class GameState\n{\n    number TickedCount = 0;\n}\n")
    assert pos(cls.span) == (1, 1, 4, 2)
    assert pos(cls.name_span) == (1, 14, 1, 23)
    (attr,) = cls.attributes
    assert pos(attr.span) == (3, 5, 3, 28)
    assert pos(attr.name_span) == (3, 12, 3, 23)


def test_attributes_in_both_syntaxes():
    short, no_init, verbose = class_members("number x = 0;\nplayer active;\nattribute y { returns number; value 0; }")
    assert isinstance(short, ast.Attribute)
    assert (short.name, short.type.name, sexp(short.value), short.verbose) == ("x", "number", "0", False)
    assert isinstance(no_init, ast.Attribute)
    assert (no_init.name, no_init.type.name, no_init.value, no_init.verbose) == ("active", "player", None, False)
    assert isinstance(verbose, ast.Attribute)
    assert (verbose.name, verbose.type.name, sexp(verbose.value), verbose.verbose) == ("y", "number", "0", True)


def test_attribute_with_generic_type_and_init_list():
    (attr,) = class_members("List<List<player>> winners = { {0, 1} };")
    assert str(attr.type) == "List<List<player>>" and sexp(attr.value) == "{{0, 1}}"


def test_stack_with_returns_and_default():
    returns, default = class_members("returns Card;\ndefault { x = 1; }", head="stack Deck")
    assert isinstance(returns, ast.Returns) and returns.type.name == "Card"
    assert isinstance(default, ast.Default) and sexp(default.body.body[0].expr) == "(= x 1)"


def test_class_member_helpers():
    cls = parse_one("board B { number n = 1; function F { } action A { } group G { } }")
    assert [a.name for a in cls.attributes] == ["n"]
    assert [f.name for f in cls.functions] == ["F"]
    assert [a.name for a in cls.actions] == ["A"]
    assert [g.name for g in cls.groups] == ["G"]


# ------------------------------------------------------------------ actions


@pytest.mark.parametrize(
    "src, optional, modifier, written, target",
    [
        ("input T x;", False, "player", False, None),
        ("player input T x;", False, "player", True, None),
        ("player [p] input T x;", False, "player", True, "p"),
        ("player [active + 1] input T x;", False, "player", True, "(+ active 1)"),
        ("auto input T x;", False, "auto", True, None),
        ("function input T x;", False, "function", True, None),
        ("optional input T x;", True, "player", False, None),
        ("optional player [0] input T x;", True, "player", True, "0"),
        # the order of the thesis's 3.15.1
        ("input player T x;", False, "player", True, None),
    ],
)
def test_input_modifiers(src, optional, modifier, written, target):
    (inp,) = action(src).inputs
    assert (inp.optional, inp.modifier, inp.modifier_written) == (optional, modifier, written)
    assert (sexp(inp.target) if inp.target is not None else None) == target
    assert (inp.type.name, inp.name) == ("T", "x")


def test_input_of_type_player():
    (inp,) = action("input player p;").inputs
    assert (inp.modifier, inp.modifier_written, inp.type.name, inp.name) == ("player", False, "player", "p")


def test_named_and_unnamed_filters():
    (inp,) = action("input T x { filter { return true; } filter other { return false; } }").inputs
    assert inp.shorthand is False
    first, second = inp.filters
    assert first.name is None and sexp(first.body.body[0].value) == "true"
    assert second.name == "other" and sexp(second.body.body[0].value) == "false"


def test_filter_block_may_be_followed_by_semicolon():
    first, second = action("input T x { filter { return true; } };\ninput T y;").inputs
    assert (first.name, len(first.filters), second.name) == ("x", 1, "y")


def test_shorthand_filter():
    (inp,) = action("input TickTile chosenTile\n{\n  return chosenTile.AssignedTo == null;\n}").inputs
    assert inp.shorthand is True
    (f,) = inp.filters
    assert f.name is None
    (ret,) = f.body.body
    assert sexp(ret.value) == "(== (. chosenTile AssignedTo) null)"
    assert pos(f.span) == (5, 1, 7, 2)


def test_action_tags_in_source_order():
    act = action(
        "input T x;\n"
        "effect { x.play(); }\n"
        "require { return x != null; }\n"
        "trigger PlayerChoiceEvent { return true; }\n"
        "prio 2;"
    )
    assert (act.name, act.override) == ("A", False)
    assert [type(i).__name__ for i in act.items] == ["InputDecl", "Effect", "Require", "Trigger", "Prio"]
    assert sexp(act.effect.body.body[0].expr) == "(call (. x play))"
    (req,) = act.requires
    assert sexp(req.body.body[0].value) == "(!= x null)"
    (trig,) = act.triggers
    assert trig.event == "PlayerChoiceEvent" and sexp(trig.body.body[0].value) == "true"
    assert pos(trig.event_span) == (7, 9, 7, 26)
    assert sexp(act.prio.value) == "2"


def test_trigger_on_dotted_event():
    (trig,) = action("trigger Lib.CardPlayed { }").triggers
    assert trig.event == "Lib.CardPlayed"


def test_action_spans():
    act = action("effect { }")
    assert pos(act.span) == (3, 1, 5, 2)
    assert pos(act.name_span) == (3, 8, 3, 9)


# ---------------------------------------------------------------- functions


def test_function_with_default_input_and_returns():
    fn = parse_one("function F\n{\n  function input number n = 3;\n  returns number;\n  effect { return n * 2; }\n}")
    assert isinstance(fn, ast.FunctionDef)
    assert (fn.name, fn.override) == ("F", False)
    assert pos(fn.span) == (1, 1, 6, 2) and pos(fn.name_span) == (1, 10, 1, 11)
    (inp,) = fn.inputs
    assert (inp.modifier, inp.type.name, inp.name, sexp(inp.default)) == ("function", "number", "n", "3")
    assert fn.returns.type.name == "number"
    assert sexp(fn.effect.body.body[0].value) == "(* n 2)"


def test_function_with_bare_returns():
    fn = parse_one("function F { returns; effect { return; } }")
    assert fn.returns is not None and fn.returns.type is None
    assert fn.effect.body.body[0].value is None


def test_overrides_calling_base():
    fn, act = class_members("override function F { effect { base.F(); } }\noverride action A { effect { base.A(); } }")
    assert isinstance(fn, ast.FunctionDef) and fn.override is True
    assert sexp(fn.effect.body.body[0].expr) == "(call (. base F))"
    assert isinstance(act, ast.ActionDef) and act.override is True
    assert sexp(act.effect.body.body[0].expr) == "(call (. base A))"


# -------------------------------------------------------------------- turns


def test_turn_with_phases_and_default():
    turn = parse_one(
        "turn GameTurn\n{\n"
        "  phase Pick { input Card c; effect { c.play(); } }\n"
        "  phase Check { x = 1; if (x == 1) { } }\n"
        "  phase Empty { }\n"
        "  default { turn.pass(); }\n"
        "}"
    )
    assert isinstance(turn, ast.TurnDef) and turn.name == "GameTurn"
    pick, check, empty = turn.phases
    assert pick.name == "Pick" and [type(i).__name__ for i in pick.items] == ["InputDecl", "Effect"]
    assert pick.items[0].name == "c"
    assert check.name == "Check" and [type(i).__name__ for i in check.items] == ["ExprStmt", "If"]
    assert (empty.name, empty.items) == ("Empty", [])
    assert sexp(turn.default.body.body[0].expr) == "(call (. turn pass))"
    assert pos(pick.name_span) == (3, 9, 3, 13)


# ------------------------------------------------------------------- boards


def test_board_groups():
    square, hexa, graph = class_members(
        "group Square { geometry square; default { } }\n"
        "group Hex\n{\n  geometry hex;\n  orientation row;\n  grid { T, b, T; b, T, b; }\n}\n"
        "group Net { geometry graph; }",
        head="board B",
    )
    assert (square.name, square.geometry.name, square.orientation, square.grid) == ("Square", "square", None, None)
    assert isinstance(square.default, ast.Default)
    assert (hexa.name, hexa.geometry.name, hexa.orientation.name) == ("Hex", "hex", "row")
    assert [[c.name for c in row] for row in hexa.grid.rows] == [["T", "b", "T"], ["b", "T", "b"]]
    assert pos(hexa.grid.rows[1][0].span) == (8, 19, 8, 20)
    assert [type(i).__name__ for i in hexa.items] == ["GeometryTag", "OrientationTag", "Grid"]
    assert (graph.name, graph.geometry.name, graph.grid) == ("Net", "graph", None)


def test_grid_rows_allow_trailing_comma_and_dotted_cells():
    (group,) = class_members("group G { grid { Lib.T, b,; } }", head="board B")
    assert [[c.name for c in row] for row in group.grid.rows] == [["Lib.T", "b"]]


# ----------------------------------------------------------- whole programs


def test_tris_example_parses_cleanly():
    module = parse((ROOT / "examples" / "tris.tgpl").read_text(encoding="utf-8"))
    names = [getattr(i, "name", None) for i in module.items]
    assert names == ["tris", None, None, "GameState", "WinCheck", "GameTurn", "TickTile", "TrisBoard", "PlayerState"]


# ----------------------------------------------------------- syntax errors


def test_missing_semicolon_is_one_diagnostic_after_previous_token():
    src = "setup {\n  x = 1\n  y = 2;\n}\n"
    assert diags(src) == [(2, 8, "expected ';' before identifier 'y'")]
    module = parse_text(src, FILE).module
    assert module is not None  # the `;` is inserted, both statements survive
    assert [sexp(s.expr) for s in module.items[0].body.body] == ["(= x 1)", "(= y 2)"]


def test_missing_semicolon_before_keyword_and_end_of_file():
    assert diags('game "x"\nplayers 2;') == [(1, 9, "expected ';' before 'players'")]
    assert diags("players 2") == [(1, 10, "expected ';' before end of file")]


def test_all_errors_are_reported_in_one_run():
    src = "class A { number x = 1 }\nclass B { number y = 2 }\n"
    assert diags(src) == [(1, 23, "expected ';' before '}'"), (2, 23, "expected ';' before '}'")]


def test_different_errors_in_one_file():
    src = "setup {\n  x = 1\n  y = 2;\n  z = 3;\n  w = (4;\n}\n"
    assert diags(src) == [(2, 8, "expected ';' before identifier 'y'"), (5, 9, "unexpected ';', expected ')'")]


def test_unexpected_character():
    result = parse_text("setup {\n  x = @1;\n}\n", FILE)
    assert [(d.span.line, d.span.col, d.message) for d in result.diagnostics] == [(2, 7, "unexpected character '@'")]
    assert all(d.is_error for d in result.diagnostics)


def test_unclosed_brace():
    # reported at the `{` (issue 36), no longer as "unexpected end of file" after it
    assert diags("setup {\n  x = 1;\n") == [(1, 7, "this '{' is never closed")]
    assert parse_text("setup {\n  x = 1;\n", FILE).diagnostics[0].notes == (
        "its '}' was expected before the end of the file",)


def test_extra_closing_brace():
    assert diags("setup {\n  x = 1;\n}}\n") == [
        (3, 2, "unexpected '}' at top level: expected a directive or a definition")
    ]


@pytest.mark.parametrize("src", ["", "   \n\n", "// only a comment"])
def test_empty_file(src):
    result = parse_text(src, FILE)
    assert result.diagnostics == []
    assert result.module is not None and result.module.items == []


@pytest.mark.parametrize(
    "src",
    [
        "{{{{",
        "}}}}",
        "@@@ # $",
        '"unterminated',
        "class",
        "setup { x = 1 + ; }\nclass A { }",
        "class A { action B { input } }",
        "board B { group G { grid { , T; } } }",
        "turn T { phase P { effect } }",
        "setup { for (;; }",
        "setup { player [ }",
    ],
)
def test_bad_input_gives_diagnostics_without_raising(src):
    result = parse_text(src, FILE)
    assert result.diagnostics, "an invalid file must give at least one diagnostic"
    assert all(d.span.file == FILE and d.span.line >= 1 and d.span.col >= 1 for d in result.diagnostics)


def test_thesis_listing_diagnostics():
    path = ROOT / "tests" / "data" / "tris_thesis.tgpl"
    result = parse_text(path.read_text(encoding="utf-8"), str(path))
    assert [(d.span.line, d.span.col, d.message) for d in result.diagnostics] == [
        (14, 47, "expected ';' before identifier 'firstState'"),
        (18, 48, "expected ';' before identifier 'firstState'"),
        (39, 24, "expected ';' before 'effect'"),
        (72, 1, "unexpected identifier 'PlayerState' at top level: expected a directive or a definition"),
    ]
    # recovery keeps the definitions around and after the errors
    names = [getattr(i, "name", None) for i in result.module.items]
    assert names[3:] == ["GameState", "WinCheck", "GameTurn", "TickTile", "TrisBoard", "PlayerState"]


TOKENS = [
    "setup", "class", "action", "function", "turn", "phase", "board", "group", "grid", "input",
    "player", "auto", "optional", "filter", "effect", "returns", "default", "if", "else", "for",
    "return", "winner", "new", "is", "as", "List", "<", ">", "x", "T", "1", '"s"', "{", "}", "(",
    ")", "[", "]", ";", ",", ".", ":", "=", "+=", "-", "^", "!", "&&", "@", "\n", "// c\n",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_parser_never_raises_on_token_soup(tokens):
    result = parse_text(" ".join(tokens), FILE)
    assert result.module is not None or result.diagnostics


def test_parser_never_raises_on_truncated_example():
    lines = (ROOT / "examples" / "tris.tgpl").read_text(encoding="utf-8").splitlines(keepends=True)
    for n in range(0, len(lines), 5):
        result = parse_text("".join(lines[:n]) + "x", FILE)  # cut mid-construct
        assert result.diagnostics, f"prefix of {n} lines plus a stray name should be invalid"
