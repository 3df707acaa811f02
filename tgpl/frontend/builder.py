"""Builds the AST from lark's parse tree: one method per grammar rule."""

from __future__ import annotations

from lark import Token, Transformer_NonRecursive, Tree, v_args
from lark.tree import Meta

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Span

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "0": "\0"}


def unescape(literal: str) -> str:
    """The value of a string literal (quotes included in `literal`)."""
    body, out, i = literal[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def dotted(expr: ast.Expr) -> str | None:
    """`a.b.c` as a string when expr is a plain dotted name, else None."""
    if isinstance(expr, ast.Name):
        return expr.name
    if isinstance(expr, ast.Member):
        head = dotted(expr.obj)
        return None if head is None else f"{head}.{expr.name}"
    return None


def _tokens(children, *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type in types]


_BINARY = {
    "or_": "||", "and_": "&&", "bor": "|", "band": "&", "eq": "==", "ne": "!=",
    "lt": "<", "gt": ">", "le": "<=", "ge": ">=", "add": "+", "sub": "-",
    "mul": "*", "div": "/", "mod": "%", "pow": "^",
}


@v_args(meta=True)
class AstBuilder(Transformer_NonRecursive):
    """Iterative (lark's non-recursive transformer): a deep tree never runs out of Python's stack here."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    # ------------------------------------------------------------- helpers
    def span(self, meta: Meta) -> Span:
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, tok: Token) -> Span:
        return Span(self.file, tok.line, tok.column, tok.end_line, tok.end_column)

    def _name(self, children) -> Token:
        return _tokens(children, "NAME")[0]

    # ---------------------------------------------------------- top level
    def start(self, meta, children):
        return [c for c in children if c is not None]

    def game_directive(self, meta, c):
        return ast.GameDirective(self.span(meta), unescape(c[1]))

    def players_directive(self, meta, c):
        return ast.PlayersDirective(self.span(meta), c[1], c[2])

    def import_directive(self, meta, c):
        path_tok = c[1]
        alias = c[3] if len(c) > 3 else None
        return ast.ImportDirective(
            self.span(meta), unescape(path_tok), self.tspan(path_tok), str(alias) if alias else None
        )

    def setup_def(self, meta, c):
        return ast.SetupDef(self.span(meta), c[1])

    def visibility(self, meta, c):
        return str(c[0])

    def class_kind(self, meta, c):
        return str(c[0])

    def class_def(self, meta, c):
        secrecy, visibility, kind, name, base = c[0], c[1], c[2], c[3], c[4]
        base_name = dotted(base) if base is not None else None
        return ast.ClassDef(
            self.span(meta), kind, str(name), self.tspan(name), visibility,
            base_name, base.span if base is not None else None, list(c[5:]), secrecy,
        )

    def secrecy(self, meta, c):
        return ast.Secrecy(self.span(meta), str(c[0]))

    def field_decl(self, meta, c):
        secrecy, type_, name, init = c
        return ast.Attribute(self.span(meta), str(name), self.tspan(name), type_, init, secrecy=secrecy)

    def attribute_def(self, meta, c):
        secrecy, name = c[0], c[2]
        tags = c[3:]
        type_ = next((t[1] for t in tags if t[0] == "returns"), None)
        value = next((t[1] for t in tags if t[0] == "value"), None)
        return ast.Attribute(self.span(meta), str(name), self.tspan(name), type_, value, verbose=True,
                             secrecy=secrecy)

    def attr_returns(self, meta, c):
        return ("returns", c[1])

    def attr_value(self, meta, c):
        return ("value", c[1])

    # ------------------------------------------------- functions and actions
    def function_def(self, meta, c):
        override, _kw, name, *items = c
        return ast.FunctionDef(self.span(meta), str(name), self.tspan(name), override is not None, items)

    def action_def(self, meta, c):
        secrecy, override, _kw, name, *items = c
        return ast.ActionDef(self.span(meta), str(name), self.tspan(name), override is not None, items,
                             secrecy=secrecy)

    def returns_tag(self, meta, c):
        return ast.Returns(self.span(meta), c[1])

    def effect_def(self, meta, c):
        return ast.Effect(self.span(meta), c[1])

    def require_def(self, meta, c):
        return ast.Require(self.span(meta), c[1])

    def trigger_def(self, meta, c):
        event = c[1]
        return ast.Trigger(self.span(meta), dotted(event) or "?", event.span, c[2])

    def prio_def(self, meta, c):
        return ast.Prio(self.span(meta), c[1])

    def default_def(self, meta, c):
        return ast.Default(self.span(meta), c[1])

    # ---------------------------------------------------------------- inputs
    def mod_player(self, meta, c):
        return ("player", c[1] if len(c) > 1 else None)

    def mod_auto(self, meta, c):
        return ("auto", None)

    def mod_function(self, meta, c):
        return ("function", None)

    def input_default(self, meta, c):
        return ("default", c[0])

    def input_filters(self, meta, c):
        return ("filters", list(c), False)

    def filter_shorthand(self, meta, c):
        body = ast.Block(self.span(meta), list(c))
        return ("filters", [ast.Filter(self.span(meta), None, body)], True)

    def filter_def(self, meta, c):
        name = c[1]
        return ast.Filter(self.span(meta), str(name) if name is not None else None, c[2])

    def _input(self, meta, optional, mod, type_, name, rest):
        modifier, target = mod if mod is not None else ("player", None)
        filters, default, shorthand = [], None, False
        for part in rest:
            if isinstance(part, tuple) and part[0] == "default":
                default = part[1]
            elif isinstance(part, tuple) and part[0] == "filters":
                filters, shorthand = part[1], part[2]
        return ast.InputDecl(
            self.span(meta), optional is not None, modifier, mod is not None, target,
            type_, str(name), self.tspan(name), filters, default, shorthand,
        )

    def input_decl(self, meta, c):
        optional, mod, _kw, type_, name, *rest = c
        return self._input(meta, optional, mod, type_, name, rest)

    def input_decl_late_mod(self, meta, c):
        # `input player T x` (3.15.1): the first "type" is the modifier.
        optional, mod, _kw, first, type_, name, *rest = c
        late = ("player", None) if first.name == "player" and not first.args else ("?" + str(first), None)
        return self._input(meta, optional, mod or late, type_, name, rest)

    # ----------------------------------------------------------------- turns
    def turn_def(self, meta, c):
        name = c[1]
        return ast.TurnDef(self.span(meta), str(name), self.tspan(name), list(c[2:]))

    def phase_def(self, meta, c):
        name = c[1]
        return ast.PhaseDef(self.span(meta), str(name), self.tspan(name), list(c[2:]))

    # ---------------------------------------------------------------- boards
    def group_def(self, meta, c):
        name = c[1]
        return ast.GroupDef(self.span(meta), str(name), self.tspan(name), list(c[2:]))

    def geometry_tag(self, meta, c):
        return ast.GeometryTag(self.span(meta), str(c[1]))

    def orientation_tag(self, meta, c):
        return ast.OrientationTag(self.span(meta), str(c[1]))

    def grid_def(self, meta, c):
        return ast.Grid(self.span(meta), list(c[1:]))

    def grid_row(self, meta, c):
        return [ast.GridCell(p.span, dotted(p) or "?") for p in c if p is not None]

    # ------------------------------------------------------------ statements
    def block(self, meta, c):
        return ast.Block(self.span(meta), list(c))

    body = block

    def decl_stmt(self, meta, c):
        type_, name, init = c
        return ast.VarDecl(self.span(meta), type_, str(name), self.tspan(name), init)

    def expr_stmt(self, meta, c):
        return ast.ExprStmt(self.span(meta), c[0])

    def if_stmt(self, meta, c):
        return ast.If(self.span(meta), c[1], c[2], c[4] if len(c) > 4 else None)

    def while_stmt(self, meta, c):
        return ast.While(self.span(meta), c[1], c[2])

    def for_stmt(self, meta, c):
        _kw, init, cond, post, body = c
        return ast.For(self.span(meta), init, cond, post, body)

    def for_decl(self, meta, c):
        type_, name, init = c
        return ast.VarDecl(self.span(meta), type_, str(name), self.tspan(name), init)

    def for_expr(self, meta, c):
        return c[0]

    def return_stmt(self, meta, c):
        return ast.Return(self.span(meta), c[1])

    def break_stmt(self, meta, c):
        return ast.Break(self.span(meta))

    def continue_stmt(self, meta, c):
        return ast.Continue(self.span(meta))

    def winner_stmt(self, meta, c):
        return ast.Winner(self.span(meta), c[1])

    # ----------------------------------------------------------------- types
    def named_type(self, meta, c):
        return ast.TypeRef(self.span(meta), dotted(c[0]) or "?")

    def _generic(self, meta, c, name):
        return ast.TypeRef(self.span(meta), name, [c[1]])

    def list_type(self, meta, c):
        return self._generic(meta, c, "List")

    def table_type(self, meta, c):
        return self._generic(meta, c, "Table")

    def table_type_keyed(self, meta, c):
        """`Table<K, V>` as other languages write a map: kept as Table<V>, with the key type after it, for the
        checker to say that a table takes its values' type alone."""
        return ast.TypeRef(self.span(meta), "Table", [c[2], c[1]])

    def stack_type(self, meta, c):
        return self._generic(meta, c, "Stack")

    def path(self, meta, c):
        expr: ast.Expr = ast.Name(self.tspan(c[0]), str(c[0]))
        for tok in c[1:]:
            expr = ast.Member(expr.span.to(self.tspan(tok)), expr, str(tok), self.tspan(tok))
        return expr

    # ----------------------------------------------------------- expressions
    def init_list(self, meta, c):
        return ast.InitList(self.span(meta), [x for x in c if x is not None])

    def assign(self, meta, c):
        return ast.Assign(self.span(meta), c[0], "=", c[1])

    def compound_assign(self, meta, c):
        return ast.Assign(self.span(meta), c[0], str(c[1]), c[2])

    def neg(self, meta, c):
        return ast.Unary(self.span(meta), "-", c[0])

    def not_(self, meta, c):
        return ast.Unary(self.span(meta), "!", c[0])

    def is_(self, meta, c):
        return ast.TypeTest(self.span(meta), c[0], c[2])

    def as_(self, meta, c):
        return ast.Cast(self.span(meta), c[0], c[2])

    def call(self, meta, c):
        return ast.Call(self.span(meta), c[0], c[1] if c[1] is not None else [])

    def index(self, meta, c):
        return ast.Index(self.span(meta), c[0], c[1])

    def member(self, meta, c):
        return ast.Member(self.span(meta), c[0], str(c[1]), self.tspan(c[1]))

    def number(self, meta, c):
        return ast.NumberLit(self.span(meta), float(c[0]))

    def string(self, meta, c):
        return ast.StringLit(self.span(meta), unescape(c[0]))

    def true(self, meta, c):
        return ast.BoolLit(self.span(meta), True)

    def false(self, meta, c):
        return ast.BoolLit(self.span(meta), False)

    def null(self, meta, c):
        return ast.NullLit(self.span(meta))

    def this(self, meta, c):
        return ast.This(self.span(meta))

    def base(self, meta, c):
        return ast.Base(self.span(meta))

    def paren(self, meta, c):
        return c[0]

    def new(self, meta, c):
        return ast.New(self.span(meta), c[1], c[2])

    def args(self, meta, c):
        return [a for a in c if a is not None]

    def pos_arg(self, meta, c):
        return ast.Arg(self.span(meta), None, c[0])

    def named_arg(self, meta, c):
        return ast.Arg(self.span(meta), str(c[0]), c[1])


def _binary(alias: str):
    op = _BINARY[alias]

    def build(self, meta, c):
        return ast.Binary(self.span(meta), op, c[0], c[1])

    build.__name__ = alias
    return v_args(meta=True)(build)


for _alias in _BINARY:
    setattr(AstBuilder, _alias, _binary(_alias))


def build_module(tree: Tree, file: str) -> ast.Module:
    return ast.Module(file, AstBuilder(file).transform(tree))
