"""Checks statements and expressions: names, types, control flow.

One `BodyChecker` per program; each block is checked in an `Env` that says
what the block is (an action effect, a filter, a function body, ...), which
class `this` is, what a `return` must give, and which locals are in scope.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from tgpl.frontend import ast
from tgpl.builtin_calls import (
    GLOBAL_FUNCTIONS, NAMESPACES, THROWS, builtin_methods, collection_methods, event_methods,
)
from tgpl.frontend.builtins import READ_ONLY, Signature, builtin_attributes, collection_attributes
from tgpl.frontend.board_shapes import group_shape, literal_index
from tgpl.frontend.diagnostics import Diagnostics, Span
from tgpl.frontend.symbols import ClassInfo, FunctionInfo, Scope, TurnInfo
from tgpl.frontend.types import (
    ANY, BOOL, NULL, NUMBER, PLAYER, PRIMITIVES, STRING, VOID, CallableType, ClassRef, ClassType,
    Collection, Namespace, Type, assignable, castable, comparable, is_any, is_numeric, list_of,
)

if TYPE_CHECKING:
    from tgpl.frontend.checker import Checker

RANKING = list_of(list_of(PLAYER))
_READ_ONLY_HINT = {"tile": "; use move_to(tile)", "player": "; use assign(player)"}
# Keywords that can begin an expression or a statement: a name spelled like one
# would be read as the keyword there (the others are only reserved in their tag).
RESERVED = frozenset(
    "this base true false null new if else while for return break continue winner input optional "
    "auto function List Table Stack is as player".split()
)
# The largest number literal (decision 75): every whole number up to it is exact as a double.
MAX_LITERAL = 2.0**53
# A C#-style `foreach (T x in xs)`, which the thesis's language does not have: the fix, said once
NO_FOREACH = ("loop with an index: for (number i = 0; i < xs.length; i += 1) { T x = xs[i]; ... }; "
              "the errors that follow on this loop come from reading it as a call")
_MISSPELLINGS = {"none": "null", "nil": "null", "None": "null", "True": "true", "False": "false", "self": "this"}


class Flow(Enum):
    """How a statement ends: falls through, returns, or jumps (break/continue/winner)."""

    NORMAL = 0
    RETURNS = 1
    JUMPS = 2


@dataclass
class Var:
    name: str
    type: Type
    span: Span
    kind: str  # local | input | candidate | event
    used: bool = False


@dataclass
class Env:
    """Where a block is being checked."""

    context: str  # effect | function | filter | require | trigger | setup | default | turn-default | attribute
    scope: Scope
    this: ClassInfo | None = None
    returns: Type = VOID  # what `return` must give; VOID: no value allowed
    frames: list[dict[str, Var]] = field(default_factory=lambda: [{}])
    loops: int = 0
    turn: TurnInfo | None = None
    # names a designer may expect here that the block cannot see, with why: an action's inputs in its require
    # and trigger, which decide whether the action may run before its inputs are chosen
    unseen: dict[str, str] = field(default_factory=dict)

    def lookup(self, name: str) -> Var | None:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None


def suggest(name: str, candidates) -> str | None:
    if name in _MISSPELLINGS:
        return _MISSPELLINGS[name]
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.75)
    return close[0] if close else None


def _did_you_mean(name: str, candidates) -> str:
    s = suggest(name, candidates)
    return f"; did you mean '{s}'?" if s else ""


class BodyChecker:
    def __init__(self, checker: Checker):
        self.c = checker
        self.diags: Diagnostics = checker.diags
        self.builtins = checker.builtins
        # Expressions that name a board's group (`Grid`, `board.Grid`), by id: the static class and
        # the group's name, for a literal index outside the group's grid (board_shapes).
        self.group_names: dict[int, tuple[ClassInfo, str]] = {}

    # ============================================================ blocks
    def check_block(self, block: ast.Block, env: Env, new_frame: bool = True) -> Flow:
        if new_frame:
            env.frames.append({})
        flow = Flow.NORMAL
        warned = False
        for stmt in block.body:
            if flow is not Flow.NORMAL and not warned:
                self.diags.warning(stmt.span, "unreachable code")
                warned = True
            f = self.check_stmt(stmt, env)
            if flow is Flow.NORMAL:
                flow = f
        if new_frame:
            self._close_frame(env)
        return flow

    def _close_frame(self, env: Env) -> None:
        for var in env.frames.pop().values():
            if var.kind == "local" and not var.used:
                self.diags.warning(var.span, f"variable '{var.name}' is never used")

    def declare(self, env: Env, name: str, type_: Type, span: Span, kind: str = "local") -> None:
        self.check_name(name, span)
        frame = env.frames[-1]
        if name in frame:
            self.diags.error(span, f"'{name}' is already declared in this block", f"first declared at {frame[name].span}")
            return
        frame[name] = Var(name, type_, span, kind)

    def check_name(self, name: str, span: Span) -> None:
        """3.1.1: an identifier must differ from the language's keywords."""
        if name in RESERVED:
            self.diags.error(span, f"'{name}' is a reserved word and cannot be used as a name")

    def check_class_name(self, name: str, span: Span) -> None:
        """A class, function or turn named by a reserved word: the error says what to do."""
        if name in RESERVED:
            self.diags.error(span, f"'{name}' is a reserved word and cannot be used as a name",
                             f"rename it, e.g. 'Game{name}', here and where it is used")

    # ======================================================== statements
    def check_stmt(self, stmt: ast.Stmt, env: Env) -> Flow:
        method = getattr(self, "stmt_" + type(stmt).__name__)
        return method(stmt, env)

    def stmt_Block(self, s: ast.Block, env: Env) -> Flow:
        return self.check_block(s, env)

    def stmt_VarDecl(self, s: ast.VarDecl, env: Env) -> Flow:
        t = self.c.resolve_type(s.type, env.scope)
        if s.init is not None:
            self.expect(s.init, t, env, f"cannot initialize '{s.name}' of type {t} with")
        self.declare(env, s.name, t, s.name_span)
        return Flow.NORMAL

    def stmt_ExprStmt(self, s: ast.ExprStmt, env: Env) -> Flow:
        self.expr(s.expr, env)
        if not isinstance(s.expr, (ast.Call, ast.Assign, ast.New)):
            self.diags.warning(s.span, "the value of this expression is never used")
        return Flow.NORMAL

    def stmt_If(self, s: ast.If, env: Env) -> Flow:
        self.condition(s.cond, env, "if")
        then = self.check_block(s.then, env)
        if s.orelse is None:
            return Flow.NORMAL
        other = self.check_stmt(s.orelse, env)
        if then is Flow.RETURNS and other is Flow.RETURNS:
            return Flow.RETURNS
        if then is not Flow.NORMAL and other is not Flow.NORMAL:
            return Flow.JUMPS
        return Flow.NORMAL

    def stmt_While(self, s: ast.While, env: Env) -> Flow:
        self.condition(s.cond, env, "while")
        env.loops += 1
        self.check_block(s.body, env)
        env.loops -= 1
        return _loop_flow(s.cond, s.body)

    def stmt_For(self, s: ast.For, env: Env) -> Flow:
        env.frames.append({})
        if isinstance(s.init, ast.VarDecl):
            self.stmt_VarDecl(s.init, env)
        elif s.init is not None:
            self.expr(s.init, env)
        if s.cond is not None:
            self.condition(s.cond, env, "for")
        if s.post is not None:
            self.expr(s.post, env)
            self._check_step(s.post)
        env.loops += 1
        self.check_block(s.body, env)
        env.loops -= 1
        self._close_frame(env)
        return _loop_flow(s.cond, s.body)

    def _check_step(self, post: ast.Expr) -> None:
        """A `for` step whose value is dropped (`k + 1` for `k += 1`) changes nothing: the loop runs
        on until the runtime's step limit, unless its body moves the variable. An error, where a bare
        `q + 1;` statement is a warning: a step exists only to change something."""
        if isinstance(post, (ast.Call, ast.Assign, ast.New)):
            return
        notes = []
        if isinstance(post, ast.Binary) and post.op in ("+", "-", "*", "/", "%") and isinstance(post.left, ast.Name):
            right = f"{post.right.value:g}" if isinstance(post.right, ast.NumberLit) else "..."
            notes.append(f"did you mean '{post.left.name} {post.op}= {right}'?")
        self.diags.error(post.span, "the value of this loop step is never used: the step changes nothing", *notes)

    def stmt_Return(self, s: ast.Return, env: Env) -> Flow:
        if s.value is None:
            if env.context in ("filter", "require", "trigger"):
                self.diags.error(s.span, f"a {env.context} block must return a bool")
            elif env.returns not in (VOID, NULL) and env.context == "function":
                self.diags.error(s.span, f"missing return value: the function returns {env.returns}")
            return Flow.RETURNS
        if env.context == "turn-default":
            self.expect(s.value, PLAYER, env, "the turn's default must return a player, not")
            return Flow.RETURNS
        if env.returns == VOID:
            where = {
                "effect": "an effect", "setup": "setup", "default": "a default block",
                "attribute": "an attribute", "function": "a function that returns nothing",
            }.get(env.context, "this block")
            self.diags.error(s.span, f"{where} cannot return a value")
            self.expr(s.value, env, ANY)
            return Flow.RETURNS
        self.expect(s.value, env.returns, env, f"must return {env.returns}, not")
        return Flow.RETURNS

    def stmt_Break(self, s: ast.Break, env: Env) -> Flow:
        if env.loops == 0:
            self.diags.error(s.span, "'break' outside a loop")
            return Flow.NORMAL  # it jumps nowhere: the code after it is not unreachable
        return Flow.JUMPS

    def stmt_Continue(self, s: ast.Continue, env: Env) -> Flow:
        if env.loops == 0:
            self.diags.error(s.span, "'continue' outside a loop")
            return Flow.NORMAL  # it jumps nowhere: the code after it is not unreachable
        return Flow.JUMPS

    def stmt_Winner(self, s: ast.Winner, env: Env) -> Flow:
        if self._flat_ranking(s.value, env):
            return Flow.JUMPS
        if isinstance(s.value, ast.InitList):
            self.expect(s.value, RANKING, env, "winner takes a player or a ranking List<List<player>>, not")
        else:
            t = self.expr(s.value, env)
            if not (assignable(t, PLAYER) or assignable(t, RANKING)) or t == NULL:
                self.diags.error(s.value.span, f"winner takes a player or a ranking List<List<player>>, not {t}")
        return Flow.JUMPS

    def _cast_hint(self, info, e: ast.Member, env: Env) -> tuple[str, ...]:
        """A note where classes derived from `info` have the member: a group's tile is a `Tile` (its cells
        may be of several tile classes), so `Grid[2][3].Disc` needs `(Grid[2][3] as Square).Disc`."""
        # the classes that declare it (not those that inherit it): its base, at most `info`, lacks it
        owners = sorted({c.name for c in env.scope.names.values() if isinstance(c, ClassInfo) and c is not info
                         and c.derives_from(info) and e.name in c.member_names()
                         and e.name not in c.base.member_names()})
        if not owners:
            return ()
        text = self._text_of(e.obj.span) or "…"
        casts = " or ".join(f"'({text} as {name}).{e.name}'" for name in owners)
        return (f"'{e.name}' belongs to {', '.join(owners)}, derived from {info.name}: write {casts}",)

    def _flat_ranking(self, value: ast.Expr, env: Env) -> bool:
        """`winner {0, 1};` (players where places are wanted): one error that shows both readings.

        A designer writes it for a tie, or for 0 first and 1 second; the ranking's type alone
        would say 'holds List<player>, not number' once per player, which does not say the fix.
        """
        if not isinstance(value, ast.InitList) or not value.items:
            return False
        if any(isinstance(item, ast.InitList) for item in value.items):
            return False
        if not all(assignable(self.expr(item, env), PLAYER) for item in value.items):
            return False
        names = [self._text_of(item.span) or "p" for item in value.items]
        self.diags.error(value.span, "a ranking lists places, each a list of players",
                         f"for a tie write 'winner {{{{{', '.join(names)}}}}};', "
                         f"for places in this order 'winner {{{', '.join('{' + n + '}' for n in names)}}};'")
        return True

    def _text_of(self, span: Span) -> str | None:
        """The source text of a one-line span, or None."""
        text = self.c.program.sources.get(span.file)
        if text is None or span.line != span.end_line:
            return None
        lines = text.split("\n")
        if not 1 <= span.line <= len(lines):
            return None
        return lines[span.line - 1][span.col - 1 : span.end_col - 1] or None

    def stmt_InputDecl(self, s: ast.InputDecl, env: Env) -> Flow:
        if s.modifier == "function":
            self.diags.error(s.span, "the 'function' modifier is only for function inputs, not the input statement")
        self.check_input(s, env)
        return Flow.NORMAL

    # ============================================================ inputs
    def check_input(self, s: ast.InputDecl, env: Env) -> Type:
        """Check an input's modifier, filters and default; declare it in env."""
        t = self.c.resolve_type(s.type, env.scope)
        if s.modifier.startswith("?"):
            self.diags.error(self._modifier_span(s), f"unknown input modifier '{s.modifier[1:]}'; expected 'player'")
        if s.target is not None:
            self.expect(s.target, PLAYER, env, "the target of a player input must be a player, not")
        if s.modifier == "function":
            if s.filters:
                self.diags.error(s.filters[0].span, "a 'function' input cannot have filters")
            if s.default is not None:
                self.expect(s.default, t, env, f"the default of '{s.name}' must be {t}, not")
        elif s.default is not None:
            self.diags.error(s.default.span, "only 'function' inputs can have a default value")
        candidate = t.elem if isinstance(t, Collection) and t.kind == "List" else t
        for flt in s.filters:
            self.check_filter(flt, s, candidate, env)
        self.declare(env, s.name, t, s.name_span, "input")
        return t

    def _modifier_span(self, s: ast.InputDecl) -> Span:
        """Where the unknown modifier of `input foo T x` is written: the AST keeps no
        span for it, so look for it in the text just before the type."""
        word, t = s.modifier[1:], s.type.span
        text = self.c.program.sources.get(t.file)
        if text is not None:
            lines = text.split("\n")
            if 1 <= t.line <= len(lines):
                start = s.span.col - 1 if s.span.line == t.line else 0
                col = lines[t.line - 1].rfind(word, start, t.col - 1)
                if col >= 0:
                    return Span(t.file, t.line, col + 1, t.line, col + 1 + len(word))
        return s.span.to(t)

    def check_filter(self, flt: ast.Filter, inp: ast.InputDecl, candidate: Type, env: Env) -> None:
        fenv = Env("filter", env.scope, env.this, BOOL, [*env.frames, {}], 0, env.turn)
        name = flt.name or inp.name
        fenv.frames[-1][name] = Var(name, candidate, flt.span, "candidate")
        self.check_must_return(flt.body, fenv, flt.span, "filter")

    def check_must_return(self, block: ast.Block, env: Env, span: Span, what: str) -> None:
        if self.check_block(block, env) is not Flow.RETURNS:
            self.diags.error(self._end_of(block, span), f"this {what} can end without returning a bool")

    @staticmethod
    def _end_of(block: ast.Block, fallback: Span) -> Span:
        s = block.span or fallback
        return Span(s.file, s.end_line, max(s.end_col - 1, 1), s.end_line, max(s.end_col, 2))

    # ======================================================= expressions
    def condition(self, e: ast.Expr, env: Env, what: str) -> None:
        t = self.expr(e, env)
        if not assignable(t, BOOL) or t == NULL:
            self.diags.error(e.span, f"the condition of '{what}' must be a bool, not {t}")

    def expect(self, e: ast.Expr, want: Type, env: Env, message: str) -> Type:
        """Type e against an expected type; report `message <actual>` on a mismatch."""
        if isinstance(e, ast.InitList):
            self.init_list(e, want, env)
            self.c.program.types[id(e)] = want
            return want
        got = self.value(e, env) if is_any(want) else self.expr(e, env, want)  # `log(C)`: C is no value
        if not assignable(got, want):
            self.diags.error(e.span, f"{message} {got}")
        return got

    def expr(self, e: ast.Expr, env: Env, expected: Type | None = None) -> Type:
        method = getattr(self, "expr_" + type(e).__name__)
        t = method(e, env, expected) if isinstance(e, ast.InitList) else method(e, env)
        self.c.program.types[id(e)] = t  # the static type, for the runtime and the lowering
        return t

    def value(self, e: ast.Expr, env: Env) -> Type:
        """Type e where a value is needed: classes and namespaces are not values."""
        t = self.expr(e, env)
        if isinstance(t, (ClassRef, Namespace)):
            if isinstance(t, ClassRef):  # `Lib.Card` names a class through an import: no `name` of its own
                what = f"class '{t.info.name}' is not a value"
            else:
                what = f"'{e.name if isinstance(e, ast.Name) else t.name.removeprefix('import:')}' is not a value"
            hint = " (only global classes are)" if isinstance(t, ClassRef) else ""
            self.diags.error(e.span, what + hint)
            return ANY
        if isinstance(t, CallableType):
            self.diags.error(e.span, f"{t} must be called: write {t.name}(...)")
            return ANY
        return t

    def expr_NumberLit(self, e, env):
        if not abs(e.value) <= MAX_LITERAL:  # also an infinity: 1e999, a 400-digit literal
            self.diags.error(e.span, f"number out of range: a number literal is at most {MAX_LITERAL:.0f} (2^53, "
                                     "the largest whole number a double holds exactly)")
        return NUMBER

    def expr_StringLit(self, e, env):
        return STRING

    def expr_BoolLit(self, e, env):
        return BOOL

    def expr_NullLit(self, e, env):
        return NULL

    def expr_This(self, e, env):
        if env.this is None:
            self.diags.error(e.span, "'this' outside a class")
            return ANY
        return ClassType(env.this)

    def expr_Base(self, e, env):
        if env.this is None or env.this.defn is None or env.this.defn.base is None:
            self.diags.error(e.span, "'base' outside a derived class")
            return ANY
        if env.this.base is None:
            return ANY
        return ClassType(env.this.base)

    def expr_InitList(self, e: ast.InitList, env: Env, expected: Type | None = None) -> Type:
        if expected is None:
            self.diags.error(e.span, "an initializer list needs a declared type here")
            for item in e.items:
                if not isinstance(item, ast.InitList):
                    self.expr(item, env)
            return ANY
        self.init_list(e, expected, env)
        return expected

    def init_list(self, e: ast.InitList, want: Type, env: Env) -> None:
        if is_any(want):
            for item in e.items:
                self.expr(item, env, ANY)
            return
        if isinstance(want, ClassType) and want.info.kind == "stack":
            item_t = self._deck_item(want.info)
            for item in e.items:
                self.expect(item, item_t, env, f"a {want.info.name} holds {item_t}, not")
            return
        if not isinstance(want, Collection):
            self.diags.error(e.span, f"an initializer list cannot make a {want}")
            return
        if want.kind == "Table":
            for item in e.items:
                if not isinstance(item, ast.InitList) or len(item.items) != 2:
                    self.diags.error(item.span, "a table entry is written {key, value}")
                    continue
                key, val = item.items
                kt = self.value(key, env) if not isinstance(key, ast.InitList) else ANY
                if kt == NULL:
                    self.diags.error(key.span, "a table key cannot be null")
                self._table_key(key, kt)
                self.expect(val, want.elem, env, f"a {want} holds {want.elem}, not")
            return
        for item in e.items:
            self.expect(item, want.elem, env, f"a {want} holds {want.elem}, not")

    def _deck_item(self, info: ClassInfo) -> Type:
        for a in info.ancestors():
            if a.deck_item is not None:
                return a.deck_item
        return ANY

    # ------------------------------------------------------------ names
    def expr_Name(self, e: ast.Name, env: Env) -> Type:
        var = env.lookup(e.name)
        if var is not None:
            var.used = True
            return var.type
        if env.this is not None:
            t = self.member_of_class(env.this, e.name)
            if t is not None:
                self.c.program.implicit_this.add(id(e))
                self.c.program.this_class[id(e)] = env.this
                if env.this.find_group(e.name) is not None and env.this.find_attribute(e.name) is None:
                    self.group_names[id(e)] = (env.this, e.name)
                return t
        sym = env.scope.names.get(e.name)
        if sym is not None:
            return self.symbol_type(sym, e)
        builtin = self.builtins.by_name().get(e.name)
        if builtin is not None:
            return ClassRef(builtin)
        if e.name in NAMESPACES:
            return Namespace(e.name)
        if e.name in GLOBAL_FUNCTIONS:
            return CallableType(e.name, "builtin", GLOBAL_FUNCTIONS[e.name])
        if e.name in PRIMITIVES:
            self.diags.error(e.span, f"'{e.name}' is a type, not a value")
            return ANY
        candidates = [n for f in env.frames for n in f] + list(env.scope.names) + list(NAMESPACES)
        if env.this is not None:
            candidates += list(env.this.member_names())
        if e.name.lower() in ("foreach", "for_each"):
            self.diags.error(e.span, f"TGPL has no '{e.name}' loop", NO_FOREACH)
            return ANY
        if e.name in env.unseen:
            self.diags.error(e.span, f"undefined name '{e.name}' here", env.unseen[e.name])
            return ANY
        self.diags.error(e.span, f"undefined name '{e.name}'{_did_you_mean(e.name, candidates)}")
        return ANY

    def symbol_type(self, sym: object, e: ast.Expr) -> Type:
        if isinstance(sym, ClassInfo):
            return ClassType(sym) if sym.visibility == "global" else ClassRef(sym)
        if isinstance(sym, FunctionInfo):
            return CallableType(sym.name, "function", sym)
        if isinstance(sym, Scope):
            return Namespace(f"import:{sym.file}")
        if isinstance(sym, TurnInfo):
            self.diags.error(e.span, f"turn '{sym.defn.name}' is not a value; select it with turn.use(\"{sym.defn.name}\")")
            return ANY
        return ANY

    def member_of_class(self, info: ClassInfo, name: str) -> Type | None:
        found = info.find_attribute(name)
        if found is not None:
            return found[1]
        fn = info.find_function(name)
        if fn is not None:
            return CallableType(name, "function", fn)
        act = info.find_action(name)
        if act is not None:
            return CallableType(name, "action", act[1])
        group = info.find_group(name)
        if group is not None:
            return ClassType(self.builtins.group)
        attrs = builtin_attributes(info, self.builtins)
        if name in attrs:
            return attrs[name]
        methods = builtin_methods(info, self.builtins)
        if name in methods:
            return CallableType(name, "builtin", methods[name])
        return None

    def expr_Member(self, e: ast.Member, env: Env) -> Type:
        obj = e.obj
        if (
            isinstance(obj, ast.Name) and env.lookup(obj.name) is None
            and e.name in NAMESPACES.get(obj.name, {})
        ):  # `player.active()` inside a class, where a bare `player` is this.player
            return self.namespace_member(Namespace(obj.name), e, env)
        obj_t = self.expr(e.obj, env)
        if is_any(obj_t):
            return ANY
        if isinstance(obj_t, Namespace):
            return self.namespace_member(obj_t, e, env)
        if isinstance(obj_t, ClassType):
            t = self.member_of_class(obj_t.info, e.name)
            if t is None and obj_t.info.derives_from(self.builtins.event) and e.name in THROWS:
                return CallableType(e.name, "builtin", event_methods(self.builtins)[e.name])
            if t is None:
                names = obj_t.info.member_names() | builtin_attributes(obj_t.info, self.builtins).keys()
                self.diags.error(
                    e.name_span, f"{obj_t.info.name} has no member '{e.name}'{_did_you_mean(e.name, names)}",
                    *self._cast_hint(obj_t.info, e, env),
                )
                return ANY
            if isinstance(t, ClassType) and t.info is self.builtins.group and obj_t.info.find_group(e.name) is not None:
                self.group_names[id(e)] = (obj_t.info, e.name)
            return t
        if isinstance(obj_t, ClassRef):
            self.diags.error(
                e.obj.span, f"class '{obj_t.info.name}' is not a value (only global classes are); use an instance"
            )
            return ANY
        if isinstance(obj_t, Collection):
            attrs = collection_attributes(obj_t)
            if e.name in attrs:
                return attrs[e.name]
            methods = collection_methods(obj_t)
            if e.name in methods:
                return CallableType(e.name, "builtin", methods[e.name])
            self.diags.error(
                e.name_span,
                f"{obj_t.kind} has no member '{e.name}'{_did_you_mean(e.name, list(attrs) + list(methods))}",
            )
            return ANY
        if obj_t == NULL:
            self.diags.error(e.obj.span, "member access on null")
            return ANY
        self.diags.error(e.name_span, f"{obj_t} has no member '{e.name}'")
        return ANY

    def namespace_member(self, ns: Namespace, e: ast.Member, env: Env) -> Type:
        if ns.name.startswith("import:"):
            # The alias's own scope: the path string alone may name another file.
            scope = self._alias_scope(e.obj, env) or self.c.program.scopes.get(ns.name[7:])
            target = scope.names.get(e.name) if scope is not None else None
            if target is None:
                self.diags.error(e.name_span, f"'{ns.name[7:]}' defines no '{e.name}'")
                return ANY
            return self.symbol_type(target, e)
        if ns.name == "event":
            methods = event_methods(self.builtins)
            if e.name in methods:
                return CallableType(e.name, "builtin", methods[e.name])
            self.diags.error(e.name_span, f"'event' has no function '{e.name}'; expected throw or throw_sync")
            return ANY
        members = NAMESPACES.get(ns.name, {})
        found = members.get(e.name)
        if found is None:
            self.diags.error(
                e.name_span, f"'{ns.name}' has no member '{e.name}'{_did_you_mean(e.name, members)}"
            )
            return ANY
        if isinstance(found, Namespace):
            return found
        return CallableType(found.name, "builtin", found)

    def _alias_scope(self, e: ast.Expr, env: Env) -> Scope | None:
        if isinstance(e, ast.Name):
            s = env.scope.names.get(e.name)
            return s if isinstance(s, Scope) else None
        return None

    def expr_Index(self, e: ast.Index, env: Env) -> Type:
        obj_t = self.value(e.obj, env)
        key_t = self.value(e.index, env)
        if is_any(obj_t):
            return ANY
        if isinstance(obj_t, Collection):
            if obj_t.kind == "List" and not is_numeric(key_t):
                self.diags.error(e.index.span, f"a list index must be a number, not {key_t}")
            if obj_t.kind == "Stack":
                self.diags.error(e.span, "a Stack cannot be indexed; use pop() or pop_front()")
            if obj_t.kind == "Table":
                self._table_key(e.index, key_t)
            if isinstance(e.obj, ast.Index):  # `Grid[i][j]`: j against the group's grid
                self._check_group_index(e, e.obj.obj, 1)
            return obj_t.elem
        if isinstance(obj_t, ClassType) and obj_t.info is self.builtins.group:
            if not is_numeric(key_t):
                self.diags.error(e.index.span, f"a group index must be a number, not {key_t}")
            self._check_group_index(e, e.obj, 0)
            return list_of(ClassType(self.builtins.tile))
        self.diags.error(e.obj.span, f"{obj_t} cannot be indexed")
        return ANY

    def _table_key(self, key: ast.Expr, key_t: Type) -> None:
        """A table's key is a value or an object (docs/language.md, "Types"): a list, table or stack is a
        reference whose contents change, so it cannot name an entry (the runtime could not look it up)."""
        if isinstance(key_t, Collection):
            self.diags.error(key.span, f"a table key is a number, string, bool, player or object, not {key_t}")

    def _check_group_index(self, e: ast.Index, group: ast.Expr, position: int) -> None:
        """An error for a number literal as the `position`-th index (0: i, 1: j) of `Group[i][j]`
        outside the group's grid, where the checker knows the group (board_shapes)."""
        named = self.group_names.get(id(group))
        value = literal_index(e.index)
        if named is None or value is None:
            return
        shape = group_shape(named[0], named[1], self.c.program.classes)
        if shape is None:
            return
        size = (shape.first, shape.second)[position]
        if not 0 <= value < size:
            which = ("first", "second")[position]
            self.diags.error(e.index.span, f"index {value} is outside group '{shape.name}': its {which} index runs "
                                           f"0..{size - 1} (a {shape.first} x {shape.second} grid)")

    # ------------------------------------------------------------ calls
    def expr_Call(self, e: ast.Call, env: Env) -> Type:
        if isinstance(e.callee, ast.Member) and e.callee.name == "length" and not e.args:
            obj_t = self.expr(e.callee.obj, env)
            if isinstance(obj_t, Collection) or (isinstance(obj_t, ClassType) and obj_t.info.kind == "stack"):
                return NUMBER  # `length()` and `length` both work (3.2.3 uses both)
            callee_t = self._member_after(e.callee, obj_t, env)
        else:
            callee_t = self.expr(e.callee, env)
        if is_any(callee_t):
            for a in e.args:
                self.expr(a.value, env, ANY)
            return ANY
        if not isinstance(callee_t, CallableType):
            self.diags.error(e.callee.span, f"{callee_t} cannot be called")
            for a in e.args:
                self.expr(a.value, env, ANY)
            return ANY
        if callee_t.kind == "builtin":
            return self.call_builtin(e, callee_t.target, env)
        if callee_t.kind == "function":
            return self.call_function(e, callee_t.target, env)
        return self.call_action(e, callee_t.target, env)

    def _member_after(self, member: ast.Member, obj_t: Type, env: Env) -> Type:
        """expr_Member for an object whose type is already known."""
        saved = member.obj
        try:
            member.obj = _Typed(member.obj.span, obj_t)
            return self.expr_Member(member, env)
        finally:
            member.obj = saved

    def expr__Typed(self, e, env):
        return e.type

    def call_builtin(self, e: ast.Call, sig: Signature, env: Env) -> Type:
        bound: dict[str, ast.Arg] = {}
        positional = [a for a in e.args if a.name is None]
        if len(positional) > len(sig.params):
            self.diags.error(e.span, f"{sig.name} takes {len(sig.params)} argument(s), not {len(e.args)}")
        for param, arg in zip(sig.params, positional):
            bound[param.name] = arg
        names = {p.name: p for p in sig.params}
        for arg in e.args:
            if arg.name is None:
                continue
            if arg.name not in names:
                self.diags.error(arg.span, f"{sig.name} has no parameter '{arg.name}'{_did_you_mean(arg.name, names)}")
            elif arg.name in bound:
                self.diags.error(arg.span, f"argument '{arg.name}' given twice")
            else:
                bound[arg.name] = arg
        for param in sig.params:
            arg = bound.get(param.name)
            if arg is None:
                if not param.optional:
                    self.diags.error(e.span, f"missing argument '{param.name}' of {sig.describe()}")
                continue
            got = self.expect(arg.value, param.type, env, f"argument '{param.name}' of {sig.name} must be {param.type}, not")
            if sig.name == "contains" and param.name == "key":
                self._table_key(arg.value, got)
        for arg in e.args:
            if arg.name is not None and arg.name not in names:
                self.expr(arg.value, env, ANY)
        self._check_turn_names(e, sig, bound)
        return sig.returns

    def _check_turn_names(self, e: ast.Call, sig: Signature, bound: dict[str, ast.Arg]) -> None:
        """Turn and phase names in string literals must exist (turn.use / turn.pass)."""
        turns = self.c.program.turns
        if sig.name == "turn.use":
            t = bound.get("turn")
            turn = None
            if t is not None and isinstance(t.value, ast.StringLit):
                turn = turns.get(t.value.value)
                if turn is None:
                    self.diags.error(t.value.span, f"no turn named '{t.value.value}'{_did_you_mean(t.value.value, turns)}")
            p = bound.get("phase")
            if turn is not None and p is not None and isinstance(p.value, ast.StringLit):
                if p.value.value not in turn.phases:
                    self.diags.error(
                        p.value.span,
                        f"turn '{turn.defn.name}' has no phase '{p.value.value}'{_did_you_mean(p.value.value, turn.phases)}",
                    )
        elif sig.name == "turn.pass":
            p = bound.get("phase")
            if p is not None and isinstance(p.value, ast.StringLit):
                phases = {name for t in turns.values() for name in t.phases}
                if p.value.value not in phases:
                    self.diags.error(p.value.span, f"no turn has a phase '{p.value.value}'{_did_you_mean(p.value.value, phases)}")

    def call_function(self, e: ast.Call, fn: FunctionInfo, env: Env) -> Type:
        inputs = {i.name: i for i in fn.defn.inputs}
        given: dict[str, ast.Arg] = {}
        for arg in e.args:
            if arg.name is None:
                self.diags.error(arg.span, f"arguments of function '{fn.name}' must be named, e.g. {fn.name}(name: value)")
                self.expr(arg.value, env, ANY)
                continue
            inp = inputs.get(arg.name)
            if inp is None:
                self.diags.error(arg.span, f"function '{fn.name}' has no input '{arg.name}'{_did_you_mean(arg.name, inputs)}")
                self.expr(arg.value, env, ANY)
                continue
            if arg.name in given:
                self.diags.error(arg.span, f"input '{arg.name}' given twice")
            given[arg.name] = arg
            want = self.c.resolve_type(inp.type, fn.scope, report=False)
            self.expect(arg.value, want, env, f"input '{arg.name}' of {fn.name} must be {want}, not")
        for inp in fn.defn.inputs:
            if inp.modifier == "function" and inp.default is None and inp.name not in given:
                self.diags.error(e.span, f"missing argument '{inp.name}' of function '{fn.name}'")
        return self.c.function_return_type(fn)

    def call_action(self, e: ast.Call, action: ast.ActionDef, env: Env) -> Type:
        inputs = {i.name: i for i in action.inputs}
        seen: set[str] = set()
        for arg in e.args:
            if arg.name is None or arg.name not in inputs:
                what = "must be named after its inputs" if arg.name is None else f"has no input '{arg.name}'"
                self.diags.error(arg.span, f"action '{action.name}' {what}")
                self.expr(arg.value, env, ANY)
                continue
            if arg.name in seen:
                self.diags.error(arg.span, f"input '{arg.name}' given twice")
            seen.add(arg.name)
            owner = self.c.action_owner(action)
            if owner is None or owner.scope is None:
                self.expr(arg.value, env, ANY)
                continue
            want = self.c.resolve_type(inputs[arg.name].type, owner.scope, report=False)
            self.expect(arg.value, want, env, f"input '{arg.name}' of {action.name} must be {want}, not")
        return VOID

    # ------------------------------------------------------- operators
    def expr_Unary(self, e: ast.Unary, env: Env) -> Type:
        t = self.value(e.operand, env)
        if e.op == "-":
            if not is_numeric(t):
                self.diags.error(e.span, f"unary '-' needs a number, not {t}")
                return ANY
            return NUMBER
        if not assignable(t, BOOL) or t == NULL:
            self.diags.error(e.span, f"'!' needs a bool, not {t}")
        return BOOL

    def expr_Binary(self, e: ast.Binary, env: Env) -> Type:
        lt = self.value(e.left, env)
        rt = self.value(e.right, env)
        op = e.op
        if is_any(lt) or is_any(rt):
            return {"&&": BOOL, "||": BOOL, "==": BOOL, "!=": BOOL, "<": BOOL, ">": BOOL, "<=": BOOL, ">=": BOOL,
                    "&": BOOL, "|": BOOL}.get(op, ANY)
        if op in ("&&", "||", "&", "|"):
            for side, t in ((e.left, lt), (e.right, rt)):
                if t != BOOL:
                    self.diags.error(side.span, f"'{op}' needs bool operands, not {t}")
            return BOOL
        if op in ("==", "!="):
            if not comparable(lt, rt):
                self.diags.error(e.span, f"cannot compare {lt} with {rt}")
            return BOOL
        if op in ("<", ">", "<=", ">="):
            if not ((is_numeric(lt) and is_numeric(rt)) or (lt == STRING and rt == STRING)):
                self.diags.error(e.span, f"'{op}' needs two numbers or two strings, not {lt} and {rt}")
            return BOOL
        if op == "^":
            if lt == BOOL and rt == BOOL:
                return BOOL  # xor (3.2.4)
            if is_numeric(lt) and is_numeric(rt):
                return NUMBER
            self.diags.error(e.span, f"'^' needs two numbers (power) or two bools (xor), not {lt} and {rt}")
            return ANY
        if op == "+" and (lt == STRING or rt == STRING):
            return STRING
        if not (is_numeric(lt) and is_numeric(rt)):
            self.diags.error(e.span, f"'{op}' needs numbers, not {lt} and {rt}")
            return ANY
        if op in ("+", "-") and lt == PLAYER:
            return PLAYER  # a player expression: active + 1 is the next player
        return NUMBER

    def expr_TypeTest(self, e: ast.TypeTest, env: Env) -> Type:
        t = self.value(e.expr, env)
        target = self.c.resolve_type(e.type, env.scope)
        if not castable(t, target) and not is_any(t):
            self.diags.warning(e.span, f"a {t} is never a {target}: this test is always false")
        return BOOL

    def expr_Cast(self, e: ast.Cast, env: Env) -> Type:
        t = self.value(e.expr, env)
        target = self.c.resolve_type(e.type, env.scope)
        if not castable(t, target) and not is_any(t):
            self.diags.error(e.span, f"cannot convert {t} to {target}")
        return target

    def expr_New(self, e: ast.New, env: Env) -> Type:
        t = self.c.resolve_type(e.type, env.scope)
        if isinstance(t, ClassType):
            if t.info.visibility == "global":
                self.diags.error(e.span, f"global class '{t.info.name}' has a single instance: use {t.info.name} directly")
            if t.info.builtin and t.info.kind in ("group",):
                self.diags.error(e.span, "groups are defined inside a board, not created with new")
        elif t in PRIMITIVES.values():
            self.diags.error(e.span, f"'new' makes objects, not {t} values")
        if e.init is not None:
            self.init_list(e.init, t, env)
            self.c.program.types[id(e.init)] = t
        return t

    def expr_Assign(self, e: ast.Assign, env: Env) -> Type:
        target_t = self.assign_target(e.target, env)
        if env.context in ("filter", "require", "trigger") and (
                isinstance(e.target, ast.Member) or isinstance(e.target, ast.Name) and env.lookup(e.target.name) is None):
            # the runtime refuses it when the moves are listed (docs/runtime.md); the text proves it here
            self.diags.error(e.span, f"a {env.context} block cannot change an attribute: it only decides whether a "
                                     "move is legal", "copy what it needs into a local variable, or change the "
                                     "attribute in the action's effect")
        if e.op == "=":
            self.expect(e.value, target_t, env, f"cannot assign to {target_t} a")
            return VOID
        vt = self.value(e.value, env)
        if is_any(target_t) or is_any(vt):
            return VOID
        if e.op == "+=" and target_t == STRING:
            return VOID
        if not (is_numeric(target_t) and is_numeric(vt)):
            self.diags.error(e.span, f"'{e.op}' needs numbers, not {target_t} and {vt}")
        return VOID

    def _read_only(self, owner: Type | None, name: str) -> bool:
        """Is `name` a built-in attribute of owner (not one the designer declared)?"""
        if name not in READ_ONLY:
            return False
        if isinstance(owner, ClassType):
            found = owner.info.find_attribute(name)
            if found is not None:
                return found[0].builtin  # Tile.group, Group.name, ...
            return name in builtin_attributes(owner.info, self.builtins)  # player, tile, length, ...
        return isinstance(owner, Collection)  # length

    def assign_target(self, target: ast.Expr, env: Env) -> Type:
        if isinstance(target, ast.Name):
            var = env.lookup(target.name)
            if var is not None:
                if var.kind == "candidate":
                    self.diags.error(target.span, f"cannot assign to the filter candidate '{target.name}'")
                return var.type
            t = self.expr(target, env)
            if isinstance(t, (ClassRef, Namespace, CallableType)) or (
                isinstance(t, ClassType) and env.scope.names.get(target.name) is t.info
            ):
                self.diags.error(target.span, f"cannot assign to '{target.name}'")
                return ANY
            if env.this is not None and self._read_only(ClassType(env.this), target.name):
                self.diags.error(target.span, f"'{target.name}' is read-only{_READ_ONLY_HINT.get(target.name, '')}")
            return t
        if isinstance(target, ast.Member):
            t = self.expr(target, env)
            if isinstance(t, (CallableType, Namespace, ClassRef)):
                self.diags.error(target.span, f"cannot assign to {t}")
                return ANY
            if self._read_only(self.c.program.types.get(id(target.obj)), target.name):
                self.diags.error(target.name_span, f"'{target.name}' is read-only{_READ_ONLY_HINT.get(target.name, '')}")
            return t
        if isinstance(target, ast.Index):
            return self.expr(target, env)
        self.diags.error(target.span, "cannot assign to this expression")
        self.expr(target, env)
        return ANY


def _loop_flow(cond: ast.Expr | None, body: ast.Block) -> Flow:
    """`while (true)` and `for (;;)` without a `break` of their own never end normally."""
    forever = cond is None or (isinstance(cond, ast.BoolLit) and cond.value)
    return Flow.RETURNS if forever and not _breaks(body) else Flow.NORMAL


def _breaks(stmt: ast.Stmt) -> bool:
    """Does stmt contain a `break` of the enclosing loop (not of a nested one)?"""
    if isinstance(stmt, ast.Break):
        return True
    if isinstance(stmt, ast.Block):
        return any(_breaks(s) for s in stmt.body)
    if isinstance(stmt, ast.If):
        return _breaks(stmt.then) or (stmt.orelse is not None and _breaks(stmt.orelse))
    return False


@dataclass(slots=True)
class _Typed(ast.Expr):
    """An already-typed expression, used to re-enter member lookup."""

    type: Type = ANY
