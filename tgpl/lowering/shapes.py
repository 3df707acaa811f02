"""Where a boolean function of the state can be true at all: a static table that narrows what it is asked.

Chess's `CanMove(from, to)` is asked in every state for every square a player's piece stands on and every
target: 16 x 64 pairs, each grounding `Reaches`, `Slides` and `Attacked`. Yet the board's geometry alone
rules most pairs out once the kind of the piece on `from` is known: a knight on b1 reaches a3, c3 and d2,
never h8. A hand-written chess GDL says so in its move rules; here it is found by evaluating the function.

`shape_table` evaluates a compiled function (tgpl.lowering.horn) for every row of arguments its object
inputs allow and every value of one attribute of its first argument that the state holds (the *split*:
chess's `from.Piece`), with

- static fields read as they are (`at.File`, `at.Step[d]`, `Dir[k]`);
- every other attribute of the state unknown, so a test of it goes both ways, one run per way;
- a call with known arguments evaluated the same way, a call with an unknown one taken as unknown.

A row where no way through returns true and none stops on an error (or runs past the budget) is false
in every state. The table lists the other rows, with the split's value first: `(Knight, b1, a3)`. The
lowering (tgpl.lowering.compiled) then asks the function only where the state's value and the row are
in the table, and answers false elsewhere: chess's 1,024 pairs a state become about 110.

Anything this evaluator does not model (writes, numbers of players, built-ins other than `length` and
`contains`, lists of lists) gives up: no table, the function is asked as before.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.after_setup import reachable
from tgpl.frontend.types import PLAYER, CallableType, ClassType
from tgpl.lowering.symbolic import UObj
from tgpl.lowering.universe import length_cell

ROWS = 50_000  # rows of arguments times split values evaluated at most (chess: 65 x 65 squares or null, x 7)
STEPS = 2_000  # evaluation steps for one row and split value, over all its ways through (past it: kept)
SAMPLE = 6  # objects of the first input tried with each candidate split before the rows are all evaluated
SAMPLE_STEPS = 300  # the steps of a row of the sample: a split that needs more rules out too little anyway
CHECK_EVERY = 16  # rows (each of every split value) evaluated between two checks of the command's limits


class GiveUp(Exception):
    """Something the evaluator does not model: no table."""


class _Unknown:
    """A value of the state the evaluation does not know (any value of its type)."""

    def __repr__(self) -> str:
        return "?"


TOP = _Unknown()


class _Error(Exception):
    """The runtime would stop here (a member of null, an index out of range): the row is kept."""


class _Spent(Exception):
    """The row's step budget ran out: the row is kept."""


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


@dataclass(frozen=True)
class Shape:
    """A function's table: `rows` of (split value, *arguments) where it may be true (split None: rows of
    arguments alone)."""

    split: str | None
    rows: frozenset


class _Ways:
    """The choices of one way through a row's evaluation, replayed to enumerate every way depth first."""

    def __init__(self, budget: int = STEPS):
        self.budget = budget
        self.prefix: list[int] = []
        self.taken: list[tuple[int, int]] = []  # (choice, number of options) of the way under way
        self.steps = 0

    def choose(self, options: int) -> int:
        i = len(self.taken)
        pick = self.prefix[i] if i < len(self.prefix) else 0
        self.taken.append((pick, options))
        return pick

    def next_way(self) -> bool:
        """The next way in depth-first order; False when every way has been taken."""
        while self.taken:
            pick, options = self.taken.pop()
            if pick + 1 < options:
                self.prefix = [p for p, _ in self.taken] + [pick + 1]
                self.taken = []
                return True
        return False

    def step(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise _Spent()


class _Evaluator:
    """Runs the compiled functions' bodies on known and unknown values (see the module's docstring)."""

    def __init__(self, hc, budget: int = STEPS):
        self.budget = budget
        self.types = hc.types
        self.implicit_this = hc.implicit_this
        self.u = hc.u
        self.fluent_cells = hc.fluent_cells
        self.class_info = hc.class_info
        self.assume: tuple[UObj, str, object] | None = None  # the split: (object, attribute, value)
        self.assumed = False  # whether the evaluation under way read the split's attribute of its object
        self.ways = _Ways()
        self._calls: dict[tuple, tuple[frozenset, bool]] = {}
        self._statements = {ast.Block: self._block, ast.VarDecl: self._var, ast.ExprStmt: self._expr_stmt,
                            ast.If: self._if, ast.While: self._while, ast.For: self._for, ast.Return: self._return,
                            ast.Break: self._break, ast.Continue: self._continue}
        self._expressions = {ast.NumberLit: self._number, ast.BoolLit: self._bool, ast.NullLit: self._null,
                             ast.This: self._this, ast.Base: self._this, ast.Name: self._name,
                             ast.Member: self._member, ast.Index: self._index, ast.Unary: self._unary,
                             ast.Binary: self.binary, ast.Assign: self.assign, ast.TypeTest: self._test,
                             ast.Cast: self._test, ast.Call: self.call}

    # ------------------------------------------------------------ rows
    def outcomes(self, fi, this, args: tuple) -> tuple[frozenset, bool]:
        """Every value a call returns over its ways through, and whether some way stops on an error (or is not
        followed to its end)."""
        # a call that does not read the split's cell has the same outcomes under every value of the split
        free = (id(fi), this, args)
        found = self._calls.get(free)
        if found is not None:
            return found
        key = free + (self.assume,)
        found = self._calls.get(key)
        if found is not None:
            self.assumed = True
            return found
        outer, self.ways = self.ways, _Ways(self.budget)
        assumed, self.assumed = self.assumed, False
        values, error = set(), False
        try:
            while True:
                try:
                    values.add(self.run(fi, this, args))
                except _Error:
                    error = True
                if not self.ways.next_way():
                    break
        except _Spent:
            error = True
        finally:
            spent, self.ways = self.ways.steps, outer
        self.ways.steps += spent
        found = (frozenset(values), error)
        self._calls[key if self.assumed else free] = found
        self.assumed = assumed or self.assumed
        return found

    def may_hold(self, fi, this, args: tuple) -> bool:
        """Whether some way through the call returns true (or an unknown value), stops on an error, or is not
        followed to its end: the row stays in the table. Stops at the first such way."""
        self.ways = _Ways(self.budget)
        try:
            while True:
                try:
                    v = self.run(fi, this, args)
                except _Error:
                    return True
                if v is True or v is TOP:
                    return True
                if not self.ways.next_way():
                    return False
        except _Spent:
            return True

    def run(self, fi, this, args: tuple, value: bool = True):
        """`fi`'s body run on `args`: what it returns. `value=False`: run for its effects, where a way that ends
        without `return` is fine (a statement call)."""
        if fi.defn.effect is None:
            raise GiveUp("a function without a body")
        env = dict(zip((i.name for i in fi.defn.inputs), args))
        try:
            self.block(fi.defn.effect.body.body, env, this)
        except _Return as r:
            return r.value
        if value:
            raise GiveUp("a way through that returns nothing")
        return None

    # ------------------------------------------------------------ statements
    def block(self, stmts, env: dict, this) -> None:
        for s in stmts:
            self.stmt(s, env, this)

    def stmt(self, s, env: dict, this) -> None:
        self.ways.step()
        run = self._statements.get(type(s))
        if run is None:
            raise GiveUp(type(s).__name__)
        run(s, env, this)

    def _block(self, s: ast.Block, env: dict, this) -> None:
        self.block(s.body, env, this)

    def _var(self, s: ast.VarDecl, env: dict, this) -> None:
        env[s.name] = self.expr(s.init, env, this) if s.init is not None else None

    def _expr_stmt(self, s: ast.ExprStmt, env: dict, this) -> None:
        self.expr(s.expr, env, this)

    def _if(self, s: ast.If, env: dict, this) -> None:
        if self.truth(self.expr(s.cond, env, this)):
            self.block(s.then.body, env, this)
        elif s.orelse is not None:
            self.stmt(s.orelse, env, this)

    def _while(self, s: ast.While, env: dict, this) -> None:
        self.loop(s.cond, s.body, None, env, this)

    def _for(self, s: ast.For, env: dict, this) -> None:
        if s.init is not None:
            self.stmt(s.init, env, this) if isinstance(s.init, ast.Stmt) else self.expr(s.init, env, this)
        self.loop(s.cond, s.body, s.post, env, this)

    def _return(self, s: ast.Return, env: dict, this) -> None:
        raise _Return(self.expr(s.value, env, this) if s.value is not None else None)

    def _break(self, s, env: dict, this) -> None:
        raise _Break()

    def _continue(self, s, env: dict, this) -> None:
        raise _Continue()

    def loop(self, cond, body: ast.Block, post, env: dict, this) -> None:
        while cond is None or self.truth(self.expr(cond, env, this)):
            try:
                self.block(body.body, env, this)
            except _Break:
                return
            except _Continue:
                pass
            if post is not None:
                self.expr(post, env, this)
            self.ways.step()

    def truth(self, v) -> bool:
        if v is TOP:
            return self.ways.choose(2) == 0
        if v is not True and v is not False:
            raise _Error()  # null as a condition: the runtime stops
        return v

    # ------------------------------------------------------------ expressions
    def expr(self, e, env: dict, this):
        run = self._expressions.get(type(e))
        if run is None:
            raise GiveUp(type(e).__name__)
        return run(e, env, this)

    def _number(self, e: ast.NumberLit, env: dict, this):
        return float(e.value)

    def _bool(self, e: ast.BoolLit, env: dict, this):
        return e.value

    def _null(self, e, env: dict, this):
        return None

    def _this(self, e, env: dict, this):
        if this is None:
            raise GiveUp("this")
        return this

    def _name(self, e: ast.Name, env: dict, this):
        if e.name in env:
            return env[e.name]
        if id(e) in self.implicit_this and this is not None:
            return self.member(this, e.name)
        t = self.types.get(id(e))
        if isinstance(t, ClassType) and t.info.visibility == "global" and t.info.name in self.u.globals:
            return self.u.globals[t.info.name]
        raise GiveUp(f"the name {e.name}")

    def _member(self, e: ast.Member, env: dict, this):
        return self.member(self.expr(e.obj, env, this), e.name)

    def _index(self, e: ast.Index, env: dict, this):
        o, k = self.expr(e.obj, env, this), self.expr(e.index, env, this)
        if o is TOP or k is TOP:
            return TOP
        if not isinstance(o, tuple) or not isinstance(k, float) or k != int(k) or not 0 <= k < len(o):
            raise _Error()
        return o[int(k)]

    def _unary(self, e: ast.Unary, env: dict, this):
        v = self.expr(e.operand, env, this)
        if e.op == "!":
            return TOP if v is TOP else not self.truth(v)
        if v is TOP:
            return TOP
        if not isinstance(v, float):
            raise _Error()
        return -v

    def _test(self, e, env: dict, this):
        v = self.expr(e.expr, env, this)
        info = self.class_info(e.type)
        if info is None or e.type.args:
            raise GiveUp(f"a test of {e.type}")
        if v is TOP:
            return TOP
        fits = isinstance(v, UObj) and v.is_a(info)
        if isinstance(e, ast.TypeTest):
            return fits
        return v if fits else None

    def member(self, o, name: str):
        if o is TOP:
            return TOP
        if not isinstance(o, UObj):
            raise _Error()  # a member of null (or of a number): the runtime stops
        if self.assume is not None and self.assume[0] is o and self.assume[1] == name:
            self.assumed = True
            return self.assume[2]
        if (o.name, name) in self.fluent_cells or (o.name, length_cell(name)) in self.fluent_cells:
            return TOP  # a list that is state (tgpl.lowering.compiled_lists) holds what the moves put in it
        if name not in o.fields:
            raise GiveUp(f"'{name}' of {o.name}")
        v = o.fields[name]
        if isinstance(v, (list, dict)) or isinstance(v, tuple) and any(isinstance(x, tuple) for x in v):
            raise GiveUp(f"the collection '{name}'")
        return v

    def binary(self, e: ast.Binary, env: dict, this):
        if e.op in ("&&", "||"):
            a = self.expr(e.left, env, this)
            if self.truth(a) == (e.op == "||"):
                return e.op == "||"
            return self.truth_value(self.expr(e.right, env, this))
        a, b = self.expr(e.left, env, this), self.expr(e.right, env, this)
        if e.op in ("+", "-", "*", "/", "%") and PLAYER in (self.types.get(id(e.left)), self.types.get(id(e.right))):
            raise GiveUp("arithmetic on players")
        if a is TOP or b is TOP:
            return TOP
        if e.op in ("==", "!="):
            same = _same(a, b)
            return same if e.op == "==" else not same
        if not isinstance(a, float) or not isinstance(b, float):
            if e.op in ("&", "|", "^") and isinstance(a, bool) and isinstance(b, bool):
                return {"&": a and b, "|": a or b, "^": a != b}[e.op]
            raise _Error()
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        if e.op in ("<", "<=", ">", ">="):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op]
        raise GiveUp(f"the operator {e.op}")

    def unknown_argument(self) -> None:
        """A call on an unknown argument: not followed (any value, or a stop; the row is kept where it matters)."""
        raise _Error()

    def truth_value(self, v):
        if v is TOP:
            return TOP
        if not isinstance(v, bool):
            raise _Error()
        return v

    def assign(self, e: ast.Assign, env: dict, this):
        if not isinstance(e.target, ast.Name) or e.target.name not in env:
            raise GiveUp("a write")
        v = self.expr(e.value, env, this)
        if e.op != "=":
            old = env[e.target.name]
            if old is TOP or v is TOP:
                v = TOP
            elif not isinstance(old, float) or not isinstance(v, float) or e.op not in ("+=", "-=", "*="):
                raise GiveUp(f"the assignment {e.op}")
            else:
                v = old + v if e.op == "+=" else old - v if e.op == "-=" else old * v
        env[e.target.name] = v
        return v

    def bound_call(self, e: ast.Call, env: dict, this) -> tuple:
        """The user function a call runs, the object it runs on (None for a global function) and its arguments in
        the order of its inputs, evaluated."""
        ct = self.types.get(id(e.callee))
        callee = e.callee
        if not isinstance(ct, CallableType) or ct.kind != "function" or any(a.name is None for a in e.args):
            raise GiveUp("a call of a built-in or an action")
        fi = ct.target
        if fi.owner is None:
            obj = None
        elif isinstance(callee, ast.Member):
            obj = self.expr(callee.obj, env, this)
        else:
            obj = this
        given = {a.name: a.value for a in e.args}
        if set(given) != {i.name for i in fi.defn.inputs}:
            raise GiveUp("arguments left to their defaults")
        args = tuple(self.expr(given[i.name], env, this) for i in fi.defn.inputs)
        if obj is TOP or TOP in args:
            self.unknown_argument()
        if fi.owner is not None and not isinstance(obj, UObj):
            raise _Error()
        if fi.owner is not None and obj.cls.find_function(fi.name) not in (fi, None):
            raise GiveUp("an overridden method")
        return fi, obj, args

    def call(self, e: ast.Call, env: dict, this):
        ct = self.types.get(id(e.callee))
        callee = e.callee
        if isinstance(ct, CallableType) and ct.kind == "builtin" and isinstance(callee, ast.Member):
            o = self.expr(callee.obj, env, this)
            if callee.name == "length" and not e.args:
                return TOP if o is TOP else float(len(_items(o)))
            if callee.name == "contains" and len(e.args) == 1:
                x = self.expr(e.args[0].value, env, this)
                if o is TOP or x is TOP:
                    return TOP
                return any(_same(x, y) for y in _items(o))
            raise GiveUp(f"the built-in {callee.name}()")
        fi, obj, args = self.bound_call(e, env, this)
        values, error = self.outcomes(fi, obj, args)
        options = sorted(values, key=repr) + (["error"] if error else [])
        if not options:
            raise _Error()
        got = options[self.ways.choose(len(options))] if len(options) > 1 else options[0]
        if isinstance(got, str) and got == "error":
            raise _Error()
        return got


def _same(a, b) -> bool:
    if isinstance(a, UObj) or isinstance(b, UObj):
        return a is b
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b


def _items(o) -> tuple:
    if not isinstance(o, tuple):
        raise _Error()
    return o


def shape_table(hc, fi, this: UObj | None, domains: dict[str, list], check=None) -> Shape | None:
    """The rows where the compiled boolean function `fi` (on `this`) may be true, or None (not modelled, too
    many rows, or no row ruled out). `hc`: the lowering's tgpl.lowering.horn.HornCompiler (types, universe,
    the state's attributes); `domains[attr]`: the values the state's `attr` can hold (the split's candidates
    are the attributes of the state read on the first input). `check()` is called now and then (the command's
    limits, tgpl.limits)."""
    inputs = fi.defn.inputs
    if not inputs:
        return None
    rows = []
    for inp in inputs:
        info = hc.class_info(inp.type) if not inp.type.args else None
        if info is None:
            return None
        rows.append([o for o in hc.u.objects if o.is_a(info)] + [None])
    fluent_cells = hc.fluent_cells
    # the split: an attribute of the state that the first input's objects hold and the body or its callees
    # read, with the most values (chess: the kind of the piece, 7, not its side, 3); among as many, the one
    # that rules out most rows of a sample
    read = _member_names(hc, fi)
    candidates = [a for a in read if a in domains and any((o.name, a) in fluent_cells for o in rows[0] if o)]
    most = max((len(domains[a]) for a in candidates), default=0)
    candidates = sorted(a for a in candidates if len(domains[a]) == most)
    split = candidates[0] if candidates else None
    if len(candidates) > 1:
        step = max(1, len(rows[0]) // SAMPLE)
        sample = [rows[0][::step][:SAMPLE]] + rows[1:]
        kept = {a: _kept(hc, fi, this, sample, a, domains[a]) / len(domains[a]) for a in candidates}
        split = min(candidates, key=lambda a: (kept[a], -len(domains[a]), a))
    values = domains[split] if split is not None else [None]
    size = len(values)
    for r in rows:
        size *= len(r)
    if size > ROWS:
        return None
    try:
        found = _rows(hc, fi, this, rows, split, values, check=check)
    except GiveUp:
        return None
    if len(found) == size:
        return None
    return Shape(split, frozenset(found))


def _rows(hc, fi, this, rows: list[list], split: str | None, values: list, budget: int = STEPS,
          check=None) -> set[tuple]:
    """The rows of arguments, each with a value of the split first, where `fi` may hold (raises GiveUp).
    `check()` is called every CHECK_EVERY rows."""
    ev = _Evaluator(hc, budget)
    found = set()
    for k, args in enumerate(itertools.product(*rows)):
        if check is not None and not k % CHECK_EVERY:
            check()
        for v in values:
            ev.assume = (args[0], split, v) if split is not None and args[0] is not None else None
            if ev.may_hold(fi, this, args):
                found.add(((v,) if split is not None else ()) + args)
    return found


def _kept(hc, fi, this, rows: list[list], split: str, values: list) -> int:
    """How many rows of a sample a split keeps (every row where it gives up)."""
    try:
        return len(_rows(hc, fi, this, rows, split, values, SAMPLE_STEPS))
    except GiveUp:
        n = len(values)
        for r in rows:
            n *= len(r)
        return n


def _member_names(hc, fi) -> set[str]:
    """The attribute names the function's body and the functions it calls read (`x.Name`)."""
    names: set[str] = set()
    for x in reachable(hc.program, [fi.defn]):
        if isinstance(x, ast.Member):
            names.add(x.name)
        elif isinstance(x, ast.Name) and id(x) in hc.implicit_this:
            names.add(x.name)
    return names
