"""Pure functions as Horn rules with variables: one relation per function, not one per call.

The symbolic executor runs a function once per concrete call (`Executor.defined_once`)
and spells out every way through it. For a win check such as Connect Four's
`MakesFour(c, r)`, that is one set of rules per cell, each unrolling the loops
that count discs in a row: the rules grow with the board (five in a row on
15 x 15: fifteen thousand rules). Hand-written GDL says the same thing once,
with variables, and counts with `succ`.

This module compiles a function, once, into rules with variables, as a
compiler to Horn clauses (constrained Horn clauses, without the constraints)
would: each parameter and local is a variable, a straight run of code is one
rule body, a loop is a recursive relation over the variables alive at its head,
an `if` whose branches go on is a relation of the variables after it. A call
with concrete arguments is then one literal `(makesfour connect4board_0 3 ?r yes)`,
and its arguments a row of a table of the calls made (the relation's demand).

Arithmetic and comparisons are tables of the rows the game can need, found by
evaluating the rules once with every fluent read relaxed to every value of its
domain (with clingo, `relax`): an over-approximation of every state, so every
row a real state needs is there, and the relaxation is finite exactly when the
function's loops are bounded by the board rather than by the state. Rules whose
relation reads no fluent (`At(c, r)`: a cell or null) are tables as well.

Only a subset is compiled (`Unsupported` otherwise, and the executor runs the
function as before): functions that write nothing, call only such functions,
and use numbers, bools, objects, players, static lists and groups. A function
returning a number at the top is left to the executor: numbers feed arithmetic.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import ChainMap
from collections.abc import Callable
from dataclasses import dataclass, field

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.types import BOOL, PLAYER, CallableType, ClassType
from tgpl.graphs import Partition
from tgpl.lowering.grown_walks import grown_walk_in, grown_walk_rewrite
from tgpl.lowering.closures import Closure, Reach, closure_of, reached_of
from tgpl.lowering.existence import positive_form
from tgpl.lowering.searches import Search, early_return, returns_found, search_form
from tgpl.lowering import rewrites
from tgpl.lowering.ir import Atom, Const, Distinct, Literal, Not, Rule, Term, Var
from tgpl.lowering.symbolic import UObj, scalar_constant
from tgpl.lowering.universe import length_cell

NULL = Const("null")
BOUND = 1000  # numbers beyond this, met while relaxing, mean a loop the board does not bound
BATCH = 20_000  # rows of arguments a function's possible results are found for at once
EXIT_UNCUT = 3  # ways out of a loop in a function that go on as they are, not joined in an `after` relation


class Unsupported(Exception):
    """The function is outside the compiled subset: the executor runs it call by call, as before. `span`: the
    innermost statement being compiled when it was raised (`_FunctionCompiler.stmt`), for a located refusal,
    unless the construct refused located it (`at`)."""

    span = None

    @classmethod
    def at(cls, span, reason: str) -> "Unsupported":
        """The refusal of a construct inside a statement, located at the construct itself: `dy / 2` in a call's
        argument, not the start of the `if` that holds the call."""
        e = cls(reason)
        e.span = span
        return e


@dataclass(frozen=True)
class Static:
    """A value known when compiling: a local list of constants, a group's cells (nested tuples)."""

    value: object


@dataclass(frozen=True)
class Pending:
    """A grid or list indexed by values known only at run time, not yet down to its items: `Grid[c]`."""

    items: tuple
    keys: tuple


@dataclass(frozen=True)
class ObjList:
    """A list field of an object known only at run time (`at.Step` with `at` a variable): read through tables
    of every object's list, by index (`at.Step[d]`), length and membership (`at.Jumps.contains(to)`); `of`, the
    class the checker gave the object (its ClassInfo; None where unknown), whose objects alone the tables hold."""

    attr: str
    obj: Term
    of: object = None


@dataclass(frozen=True)
class Slots:
    """A list attribute that is state in the compiled moves (tgpl.lowering.compiled_lists): its owner, its name and
    how many slots it has. Only the segment compiler reads it; anywhere else it is refused as any list is."""

    obj: Term
    attr: str
    size: int


Value = Term | Static | Pending | ObjList | Slots
STATIC = (Static, Pending, ObjList, Slots)

# internal relation names: a function's own relations are `<function>|<part>`; builtins start with '#'
CALCS = {"+": "#plus", "-": "#minus", "*": "#times", "/": "#divide", "%": "#remainder"}
STEPS = ("+", "-", "*")  # the operators a counter's compound write (`Score += v`) may step it by
COMPARE = {"<": "#lt", "<=": "#le", ">": "#gt", ">=": "#ge"}
OPPOSITE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def whole_calc(op: str, x: int, y: int, span=None) -> int:
    """`x op y` on whole numbers, as the runtime's doubles give it: `%` keeps the dividend's sign (fmod), and a
    division by zero (the runtime stops with an error) or a quotient that is not whole (the compiled rules hold
    whole numbers only) is refused at the operator."""
    if op in ("/", "%") and y == 0:
        raise Unsupported.at(span, f"a division by zero ({x} {op} {y})")
    if op == "/" and x % y:
        raise Unsupported.at(span, f"a quotient that is not whole ({x} / {y})")
    if op == "/":
        return x // y
    if op == "%":
        return int(math.fmod(x, y))
    return x + y if op == "+" else x - y if op == "-" else x * y


def read_rel(attr: str) -> str:
    """A read of attribute `attr`: `(#read:attr object value)`, a fluent, a view or a static field at emission."""
    return "#read:" + attr


@dataclass
class Clause:
    """A rule under construction: the literals so far and what each name holds."""

    body: list[Literal]
    env: dict[str, Value]

    def copy(self) -> Clause:
        return self.with_body(list(self.body))

    def plus(self, *literals: Literal) -> Clause:
        """A copy with `literals` added to the body."""
        return self.with_body(self.body + list(literals))

    def with_body(self, body: list[Literal]) -> Clause:
        """A copy with this body (and its own env): what a subclass carrying more state overrides."""
        return Clause(body, dict(self.env))

    def bind(self, var: Var, term: Term) -> Clause:
        """The clause with `var` replaced by `term` everywhere (an equality that holds)."""
        def sub(t):
            return term if t == var else t

        def lit(x):
            if isinstance(x, Atom):
                return Atom(x.relation, tuple(sub(a) for a in x.args), x.span)
            if isinstance(x, Not):
                return Not(lit(x.literal))
            if isinstance(x, Distinct):
                return Distinct(sub(x.left), sub(x.right))
            return x
        def value(v):
            if isinstance(v, Pending):
                return Pending(v.items, tuple(sub(k) for k in v.keys))
            if isinstance(v, ObjList):
                return ObjList(v.attr, sub(v.obj), v.of)
            return v if isinstance(v, Static) else sub(v)
        return Clause([lit(x) for x in self.body], {k: value(v) for k, v in self.env.items()})


@dataclass
class HornFunction:
    """A function compiled: its rules (internal names), its parameters, the attributes it reads."""

    name: str  # the function's GDL-ish base name (lower case)
    params: list[str]  # `this` first for a method, then the inputs in declaration order
    rules: list[Rule] = field(default_factory=list)
    reads: set[str] = field(default_factory=set)
    calls: set[str] = field(default_factory=set)  # the compiled functions it calls (their names)
    sites: set[str] = field(default_factory=set)  # the instances it calls (`HornCompiler.instance_name`)
    returns: str = ""  # "bool", "object", "player", "number"
    span: object = None  # the function's name in the source
    source: tuple = ()  # (the checker's FunctionInfo, the object it is called on or None)
    dropped: frozenset[str] = frozenset()  # inputs not compiled: a closure's step count (tgpl.lowering.closures)
    closure: bool = False  # a search compiled as a closure: `|found` its positive answer, `no` is `not` of it
    # the demands its rules define (a call's relation `callee|call`, per instance): what `_waits_on_closure` reads
    demands: dict[str, Demand] = field(default_factory=dict)


@dataclass(frozen=True)
class Demand:
    """A call's demand, as the caller's rules define it: whom it asks, and the relation its answers are read from.
    Recorded where the call is compiled, so that a question about demands needs no relation's name."""

    callee: str  # the called function's key (`HornCompiler.functions`)
    result: str  # the relation the caller reads the callee's results from (its instance's `|result`)


@dataclass
class _Flow:
    """Where the clauses of a block end up."""

    going: list[Clause] = field(default_factory=list)
    returns: list[tuple[Clause, Value]] = field(default_factory=list)
    breaks: list[Clause] = field(default_factory=list)
    continues: list[Clause] = field(default_factory=list)


class HornCompiler:
    """Compiles the pure functions of one lowering (each once, on demand)."""

    def __init__(self, program, universe, fluent_cells: set[tuple[str, str]]):
        self.program = program
        # the checker's types, and those of the calls made here (`positive_call`)
        self._made_types: dict[int, object] = {}
        self.types = ChainMap(self._made_types, program.types)
        self._positive: dict[int, tuple | None] = {}
        self.implicit_this = program.implicit_this
        self.this_class = program.this_class
        self.u = universe
        self._links: dict[str, UObj] | None = None
        self.fluent_attrs = {a for (_, a) in fluent_cells}
        self.fluent_cells = fluent_cells
        self.functions: dict[str, HornFunction] = {}
        self.failed: dict[str, str] = {}
        self.failed_at: dict[str, Span | None] = {}  # key -> the span of the statement that refused it, where known
        self.statics: dict[str, list[tuple]] = {}  # static table name -> rows (constants)
        self._static_ids: dict[object, str] = {}
        # recursion (`compile`): the functions being compiled, outermost first, and what each has so far; per
        # function on the stack, the lowest place on it that its calls led back to; the functions compiled in
        # a recursion not yet closed (its first function still on the stack), to that function's place
        self._stack: list[str] = []
        self._building: dict[str, HornFunction] = {}
        self._low: dict[str, int] = {}
        self._open: dict[str, int] = {}
        self._recursive_calls: dict[str, object] = {}  # function -> a call of it that recurses (its span)
        self._results: dict[tuple, list[Const]] = {}
        self._possible: dict[str, dict | None] = {}
        # attribute -> every (object, value) its fluents can hold, for attributes whose values are known
        # before the segments run (not numbers): what `results` relaxes reads to
        self.relaxed_reads: dict[str, list[tuple[Const, Const]]] | None = None
        # compiled for tgpl.lowering.compiled: `for` loops whose passes share nothing as "some pass returns"
        # (`_FunctionCompiler.exists_loop`), and an instance per call site (`instance_name`)
        self.for_segments = False
        self._sites: dict[int, str] = {}
        # a call's demand asked without what the caller read of other functions' results or under `not`
        # (`loosened`): set by tgpl.lowering.compiled.compile_game where the demands made a negation cycle
        self.loose_demands = False
        # the flood searches compiled as closures (tgpl.lowering.closures): turned off by compile_game where a
        # caller's demand read a closure's answers, and `not found` then made a negation cycle
        self.closures = True
        # the searches compiled with their counts while closures are on: those whose caller's demand waited on
        # their answers in an earlier compilation (compile_game), the others keeping their closures
        self.counted_searches: frozenset[str] = frozenset()
        # the closures (function keys) whose demand, made by a function compiled, waits through that function's
        # relations on the closure's answers (`_waits_on_closure`): the rules will break GDL's stratification,
        # and compile_game need not finish them to compile again with those searches' counts kept
        self.closure_cycle: set[str] = set()
        # a function whose rules with its callees' depend on themselves through `not` (a loop that goes on where
        # a callee's answer is `no`, the callee's demand asked in the loop) compiled again as a search, as one
        # whose own rules do (`_searched`): set by compile_game where the game's rules made such a cycle
        self.searched_callers = False

    def compile(self, fi, this: UObj | None) -> HornFunction:
        """The rules of `fi` called on `this` (methods are compiled per object: `this` is known when compiling).

        A function that calls itself, directly or through others, is a recursive relation, as hand-written GDL
        walks a line (`(open ?from ?to ?dx ?dy)` defined by itself on the next square): a call back into a
        function being compiled reads the relations of that function, which exist by name before its rules
        are done (a call is a literal of its result and a rule of its demand). The functions of one recursion
        are done together, when the first of them is (Tarjan's strongly connected components, over the
        calls): until then they are `_open`, and a failure of one is a failure of all."""
        key = _fkey(fi) + ("@" + this.name if this is not None else "")
        if key in self.failed:
            raise Unsupported(self.failed[key])
        if key in self._building:  # a call back into a function being compiled: a recursion
            self._recur(self._stack.index(key))
            return self._building[key]
        found = self.functions.get(key)
        if found is not None:
            if key in self._open:  # a function of a recursion still being compiled: the caller joins it
                self._recur(self._open[key])
            return found
        depth = len(self._stack)
        self._stack.append(key)
        self._low[key] = depth
        fc = _FunctionCompiler(self, fi, this, key)
        self._building[key] = fc.hf
        try:
            hf = fc.run()
            if self.for_segments and key not in hf.calls and self._low[key] == depth and self._cyclic(hf):
                hf = self._searched(fi, this, key)
            self.closure_cycle |= self._waits_on_closure(hf)
            if self._low[key] == depth:  # the first function of its recursion (or of none): all are done
                members = {k: self.functions[k] for k, r in self._open.items() if r >= depth}
                members[key] = hf
                for k in members:
                    self._open.pop(k, None)
                if len(members) > 1 or key in hf.calls:
                    self._stratified(members)
        except Unsupported as e:
            for k in [k for k, r in self._open.items() if r >= depth]:
                del self._open[k]
                self.functions.pop(k, None)
                self.failed[k] = str(e)
                self.failed_at[k] = e.span
            self.failed[key] = str(e)
            self.failed_at[key] = e.span
            raise
        finally:
            self._stack.pop()
            del self._building[key]
            low = self._low.pop(key)
        if low < depth:  # part of a recursion through a caller still being compiled
            for k, r in self._open.items():
                if r >= depth:
                    self._open[k] = low
            self._open[key] = low
        self.functions[key] = hf
        return hf

    def _searched(self, fi, this: UObj | None, key: str) -> HornFunction:
        """`fi`, whose rules compiled as written depend on themselves through `not` (a loop of independent
        passes goes on where none returned, inside a loop compiled as a relation), compiled again as a search
        (tgpl.lowering.searches); refused, located at a `return` in its loops with a rewrite that compiles,
        where it is not of that form or its rules still have such a cycle."""
        form = search_form(fi.defn)
        if form is not None:
            fc = _FunctionCompiler(self, fi, this, key, form)
            self._building[key] = fc.hf
            hf = fc.run()
            if not self._cyclic(hf):
                return hf
        early = form.early if form is not None else early_return(fi.defn)
        raise Unsupported.at(early.span if early is not None else fi.defn.name_span,
                             "a loop that returns from inside another loop: its rules would depend on themselves "
                             "through `not`, which GDL forbids (hint: return one constant from inside the loops, "
                             "`return true;`, and another only as the function's last statement, `return false;`)")

    def _cyclic(self, hf: HornFunction) -> bool:
        """Do `hf`'s rules depend on themselves through `not`: alone, or, with `searched_callers`, together with
        the rules of the functions it calls (each instance read as the function: a cycle through one instance is
        one through the function's rules)?"""
        if _negation_cycle(hf.rules, hf.name + "|"):
            return True
        if not self.searched_callers:
            return False
        callees = [self.functions[k] for k in sorted(hf.calls) if k in self.functions and k != hf.name]
        rules = hf.rules + [r for f in callees for r in f.rules]
        own = tuple(f.name + "|" for f in [hf, *callees])
        return _negation_cycle(rules, own, _instance_as_function)

    def _waits_on_closure(self, hf: HornFunction) -> set[str]:
        """The closures (tgpl.lowering.closures) a demand of `hf`'s depends on the result of, through `hf`'s own
        relations (Lines of Action's `Connected`, whose scan goes on while each square is reached). The
        closure's `no` is `not found`, and `found` reads its demand: a cycle through negation."""
        waits: set[str] = set()
        if not self.closures:
            return waits
        edges: dict[str, set[str]] = {}
        for r in hf.rules:
            edges.setdefault(r.head.relation, set()).update(
                a.relation for x in r.body for a in (x.literal if isinstance(x, Not) else x,) if isinstance(a, Atom))
        for rel, demand in hf.demands.items():
            f = self.functions.get(demand.callee)
            if f is None or not f.closure or demand.callee == hf.name:
                continue
            todo, seen = list(edges.get(rel, ())), set()
            while todo:
                x = todo.pop()
                if x == demand.result:
                    waits.add(demand.callee)
                    break
                if x not in seen:
                    seen.add(x)
                    todo.extend(edges.get(x, ()))
        return waits

    def _recur(self, at: int) -> None:
        """A call led back to the function at `at` on the stack: every function from there on is in its recursion."""
        for k in self._stack[at:]:
            self._low[k] = min(self._low[k], at)

    def recursing(self, key: str) -> bool:
        """Is `key` a function of a recursion still being compiled (its reads and calls not all known yet)?"""
        return key in self._building or key in self._open

    def _stratified(self, members: dict[str, HornFunction]) -> None:
        """Refuses the functions of a recursion whose rules would depend on themselves through `not`, which
        GDL forbids (a relation is defined before its negation is read); located at a call that recurses."""
        own = tuple(k + "|" for k in members)
        if _negation_cycle([r for hf in members.values() for r in hf.rules], own):
            e = Unsupported("a recursive call whose result is read under a negation: the rules would "
                            "depend on themselves through `not`, which GDL forbids")
            e.span = next((self._recursive_calls[k] for k in members if k in self._recursive_calls), None)
            raise e

    def positive_call(self, e: ast.Binary) -> tuple[ast.Call, bool] | None:
        """A comparison of a call with 0 that asks only whether the sum the function returns is positive
        (`Flips(...) > 0`, `== 0`), as a call of the function's positive form (`existence.positive_form`) and
        whether `e` holds when that is true; None where `e` is not such a comparison. The call made is kept
        (its identity keys its type and its call site)."""
        if id(e) in self._positive:
            return self._positive[id(e)]
        self._positive[id(e)] = None
        zero = (isinstance(e.right, ast.NumberLit) and e.right.value == 0, isinstance(e.left, ast.NumberLit)
                and e.left.value == 0)
        asked = {(">", True): True, ("<", False): True, ("!=", True): True, ("!=", False): True,
                 ("==", True): False, ("==", False): False, ("<=", True): False, (">=", False): False}
        side = True if zero[0] else False if zero[1] else None
        call = e.left if side else e.right
        if side is None or (e.op, side) not in asked or not isinstance(call, ast.Call):
            return None
        ct = self.types.get(id(call.callee))
        if not isinstance(ct, CallableType) or ct.kind != "function":
            return None
        fi = positive_form(ct.target, self.types)
        if fi is None:
            return None
        callee = call.callee
        if isinstance(callee, ast.Member):
            callee = ast.Member(callee.span, callee.obj, fi.name, callee.name_span)
        else:
            callee = ast.Name(callee.span, fi.name)
        made = ast.Call(call.span, callee, call.args)
        self._made_types[id(callee)] = CallableType(fi.name, "function", fi)
        self._positive[id(e)] = (made, asked[(e.op, side)], e)
        return self._positive[id(e)][:2]

    def instance_name(self, hf: HornFunction, e) -> str:
        """The relations a call reads: the function's own, or for segments one instance per call site of a
        function that reads the state. A call's demand then never depends on its own results through another
        function (chess's `CanMove` asks `Attacked` after `Reaches`, which asks it for castling). A call within a
        recursion reads the relations of the caller's own instance (its name as compiled)."""
        if not self.for_segments or self.recursing(hf.name) or not _reads_fluents(self, hf.name, set()):
            return hf.name
        site = self._sites.setdefault(id(e), f"s{len(self._sites)}")
        return f"{hf.name}~{site}"

    def results(self, key: str, args: tuple[Const, ...]) -> list[Const] | None:
        """Every value the compiled function can return for `args` in some state (None: not known before the
        numbers' ranges are: it reads a numeric fluent)."""
        if self.relaxed_reads is None or self.fluent_reads(key) - set(self.relaxed_reads):
            return None
        found = self._results.get((key, args))
        if found is None:
            table = instantiate(self, {(key, 0): {args}}, self.relaxed_reads, results_of=key).tables
            found = sorted({row[-1] for rows in table.values() for row in rows if row[:-1] == args}, key=str)
            self._results[(key, args)] = found
        return found

    def possible(self, key: str, fi) -> dict[tuple, set[Const]] | None:
        """For a compiled function returning a bool or an object: the values it can return in some state, for
        every row of arguments its inputs' types allow (objects of the class or null, players or null), found by
        one relaxation; None where an input is a number or a bool, where the rows would pass BATCH, or where the
        relaxation cannot say.

        The executor calls a filter such as chess's `CanMove(from, to)` for every pair of squares; the pairs it
        can never allow (no piece goes from a1 to b3 and on) are then no moves at all, not moves whose
        legality is a literal that never holds."""
        if key in self._possible:
            return self._possible[key]
        self._possible[key] = None
        if self.relaxed_reads is None or self.fluent_reads(key) - set(self.relaxed_reads):
            return None
        domains = []
        dropped = self.functions[key].dropped if key in self.functions else frozenset()
        for inp in fi.defn.inputs:
            if inp.name in dropped:
                continue
            if inp.type.args:
                return None
            if inp.type.name == "player":
                domains.append([Const(f"#p:{p}") for p in range(self.u.players)] + [Const("null")])
                continue
            info = self.class_info(inp.type)
            if info is None:
                return None
            domains.append([self.const_of(o) for o in self.u.objects if o.is_a(info)] + [Const("null")])
        size = 1
        for d in domains:
            size *= len(d)
        if size > BATCH:
            return None
        rows = set(itertools.product(*domains))
        try:
            table = instantiate(self, {(key, 0): rows}, self.relaxed_reads, results_of=key, sliced=True).tables
        except Overflow:
            return None
        found: dict[tuple, set[Const]] = {row: set() for row in rows}
        for got in table.values():
            for row in got:
                found.setdefault(row[:-1], set()).add(row[-1])
        self._possible[key] = found
        return found

    def value_of(self, c: Const):
        """A constant of the compiled rules as the executor's value."""
        if c.name == "null":
            return None
        if c.name in ("yes", "no"):
            return c.name == "yes"
        if c.name.startswith("#o:"):
            return self.u.by_name[c.name[3:]]
        if c.name.startswith("#p:"):
            return float(c.name[3:])
        return float(c.name)

    def fluent_reads(self, key: str) -> set[str]:
        """The fluent attributes a compiled function reads, itself or through the functions it calls."""
        out: set[str] = set()
        todo, seen = [key], set()
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            hf = self.functions.get(k) or self._building[k]
            out |= hf.reads & self.fluent_attrs
            todo.extend(hf.calls)
        return out

    def const_of(self, v, player: bool = False) -> Const:
        """A concrete value as a constant of the compiled rules (objects and players named as emit names them later);
        `player`: a number that is a player."""
        if player and isinstance(v, (int, float)) and not isinstance(v, bool):
            return Const(f"#p:{int(v)}")
        scalar = scalar_constant(v)
        if scalar is not None:
            return Const(scalar)
        if isinstance(v, UObj):
            return Const("#o:" + v.name)
        if isinstance(v, (int, float)) and float(v) == int(v):
            return Const(str(int(v)))
        raise Unsupported(f"the value {v!r}")

    def kind(self, ref: ast.TypeRef) -> str | None:
        """What a written type is to the compiled rules: bool, number, player, object (None: not compiled)."""
        if ref.args:
            return None
        if ref.name in ("bool", "number", "player"):
            return ref.name
        return "object" if self.class_info(ref) is not None else None

    def class_info(self, ref: ast.TypeRef):
        """The class a written type names (None for a built-in type)."""
        for scope in self.program.scopes.values():
            sym = scope.lookup(ref.name)
            if sym is not None and hasattr(sym, "derives_from"):
                return sym
        return self.program.builtins.by_name().get(ref.name)

    def object_of(self, v: Const) -> UObj | None:
        """The object a constant names: an object of the state, or a link of a board's geometry (a tile's
        `connections[i]`, whose `to` a function may read)."""
        if not v.name.startswith("#o:"):
            return None
        name = v.name[3:]
        return self.u.by_name.get(name) or self.links().get(name)

    def links(self) -> dict[str, UObj]:
        """The links a board's geometry makes, by name: not objects of the state, their fields are static."""
        if self._links is None:
            self._links = {}
            for obj in self.u.objects:
                for link in obj.connections or ():
                    if link.name not in self.u.by_name:
                        self._links.setdefault(link.name, link)
        return self._links

    def all_are(self, static, target) -> bool:
        """Whether every object of class `static` in the game is a `target`: then `x as target` of a `static` x is
        x itself, whatever x is (a graph board's `c.to as Spot` where Spot is its only tile class)."""
        return all(o.is_a(target) for o in self.u.by_name.values() if o.is_a(static))

    def static_table(self, rows: list[tuple]) -> str:
        """The table of these rows (one per distinct content: a table's id never stands for another's rows)."""
        key = tuple(rows)
        name = self._static_ids.get(key)
        if name is None:
            name = f"#static{len(self._static_ids)}"
            self._static_ids[key] = name
            self.statics[name] = rows
        return name


def _instance_as_function(relation: str) -> str:
    """A call site's instance of a function's relation (`occupied~s2|call`, HornCompiler.instance_name) as the
    function's own (`occupied|call`)."""
    head, bar, rest = relation.partition("|")
    return head.split("~")[0] + bar + rest


def _negation_cycle(rules: list[Rule], own: str | tuple[str, ...], name=lambda relation: relation) -> bool:
    """Do `rules` read under `not` a relation of theirs (named from `own`, a prefix or several) that depends on
    the head of the rule reading it (GDL forbids it: a relation is defined before its negation is read)? Each
    relation is read as `name` gives it."""
    edges: dict[str, set[str]] = {}
    negated: list[tuple[str, str]] = []
    for r in rules:
        head = name(r.head.relation)
        for x in r.body:
            atom = x.literal if isinstance(x, Not) else x
            if isinstance(atom, Atom) and name(atom.relation).startswith(own):
                edges.setdefault(head, set()).add(name(atom.relation))
                if isinstance(x, Not):
                    negated.append((head, name(atom.relation)))
    for head, rel in negated:
        seen, todo = set(), [rel]
        while todo:
            x = todo.pop()
            if x == head:
                return True
            if x not in seen:
                seen.add(x)
                todo.extend(edges.get(x, ()))
    return False


def _names(nodes) -> set[str]:
    """Every name written in `nodes` (read or assigned: what the code there may read)."""
    return {n.name for n in ast.walk([x for x in nodes if x is not None]) if isinstance(n, ast.Name)}


def _counted(s: ast.For) -> str | None:
    """The counter of `for (number i = a; i < b; i += 1)` (its name), or None for another loop."""
    init, cond, post = s.init, s.cond, s.post
    name = init.name if isinstance(init, ast.VarDecl) else None
    if name is None or not (isinstance(cond, ast.Binary) and cond.op == "<" and isinstance(cond.left, ast.Name)
                            and cond.left.name == name):
        return None
    if not (isinstance(post, ast.Assign) and isinstance(post.target, ast.Name) and post.target.name == name
            and post.op == "+=" and isinstance(post.value, ast.NumberLit) and post.value.value == 1):
        return None
    return name


def _breaks_out(body: ast.Block) -> bool:
    """Does a `break` in body leave the loop of body (not one nested in it)? A `continue` only ends a pass."""
    def walk(n, depth: int) -> bool:
        if isinstance(n, (ast.Break, ast.Continue)):
            return depth == 0 and isinstance(n, ast.Break)
        if isinstance(n, (ast.While, ast.For)):
            return walk(n.body, depth + 1)
        if isinstance(n, ast.Block):
            return any(walk(x, depth) for x in n.body)
        if isinstance(n, ast.If):
            return walk(n.then, depth) or (n.orelse is not None and walk(n.orelse, depth))
        return False
    return walk(body, 0)


def _fkey(fi) -> str:
    owner = fi.owner.name if getattr(fi, "owner", None) is not None else ""
    return f"{owner}.{fi.name}" if owner else fi.name


def _satisfiable(c: Clause) -> Clause | None:
    """`c`, or None where an equality just bound made one of its `distinct` literals compare a term with itself
    (a loop left by an empty square, then asked whether the square is off the board)."""
    return None if any(isinstance(x, Distinct) and x.left == x.right for x in c.body) else c


class _FunctionCompiler:
    reach: Reach | None = None  # a subclass that compiles no function (a move's segments) keys no search
    search: Search | None = None  # nor compiles a search again (tgpl.lowering.searches)

    def __init__(self, hc: HornCompiler, fi, this: UObj | None, key: str, search: Search | None = None):
        self.hc = hc
        # a search with an early return compiled as "some way reaches it" (tgpl.lowering.searches), where
        # compiled as written its rules depended on themselves through `not` (HornCompiler.compile)
        self.search = search
        self.fi = fi
        self.this = this
        self.defn = fi.defn
        self.name = key
        self.fresh = itertools.count()
        self.points = itertools.count()
        # the loops being compiled, innermost last: (relation, head term per name, entry clauses, names the
        # loop never assigns); a call's demand inside one is asked at its entry (`demands`)
        self.loops: list[tuple[str, dict, list, set]] = []
        self.hf = HornFunction(self.name, [], span=fi.defn.name_span, source=(fi, this))
        # a search compiled without its count, unless the game's demands made that a negation cycle
        self.closure: Closure | None = closure_of(fi.defn) if hc.closures and key not in hc.counted_searches else None
        # a `contains` search compiled as the items reached from its start (tgpl.lowering.closures.reached_of)
        self.reach = reached_of(fi.defn, self.closure)

    def compile_callee(self, fi, this) -> HornFunction:
        """The rules of a function this one calls; where they are refused, the refusal names the callee (`calls
        GroupOf: returns List<Cell>`), since the reason is the callee's, not this function's (a caller returning a
        bool was said to return the callee's list)."""
        try:
            return self.hc.compile(fi, self.object_of(this) if this is not None else None)
        except Unsupported as e:
            raise Unsupported.at(e.span, f"calls {ast.shown_name(fi.defn)}: {e}") from None

    # ------------------------------------------------------------ structure
    def run(self) -> HornFunction:
        d = self.defn
        rt = d.returns.type if d.returns is not None else None
        if rt is None:
            raise Unsupported("returns nothing")
        kind = self.hc.kind(rt)
        if kind is None:
            raise Unsupported(f"returns {rt}")
        self.hf.returns = kind
        params = []
        if (self.fi.owner is not None) != (self.this is not None):
            raise Unsupported("a method without its object")
        if kind == "bool" and self.closure is not None:
            self.hf.dropped = frozenset({self.closure.steps})
            self.hf.closure = True
        for inp in d.inputs:
            if inp.modifier != "function" or inp.default is not None or inp.type.args:
                raise Unsupported("inputs other than plain function inputs")
            if self.hc.kind(inp.type) is None:
                raise Unsupported(f"an input of type {inp.type}")
            if inp.name not in self.hf.dropped:
                params.append(inp.name)
        self.hf.params = params
        entry = [Var(f"P{i}") for i in range(len(params))]
        assigned = {x.target.name for x in ast.walk([d.effect]) if isinstance(x, ast.Assign) and isinstance(x.target, ast.Name)}
        # the arguments as given, kept beside the parameters the body assigns
        env: dict[str, Value] = {f"#{i}": v for i, v in enumerate(entry) if params[i] in assigned}
        env.update({p: v for p, v in zip(params, entry)})
        # a search keyed by its start walks from `|reach` (the goal's place holding the start), not from `|call`
        entered = self.name + ("|reach" if self.hf.closure and self.reach is not None else "|call")
        start = Clause([Atom(entered, tuple(entry))], env)
        if d.effect is None:
            raise Unsupported("no body")
        flow = self.block(d.effect.body.body, [start], set())
        if flow.going or flow.breaks or flow.continues:
            raise Unsupported("a way through the body that returns nothing")
        if self.hf.closure:
            self.closed(flow.returns, params, tuple(entry))
            return self.hf
        if self.search is not None:
            self.searched(flow.returns, params, tuple(entry))
            return self.hf
        for c, v in flow.returns:
            if isinstance(v, STATIC):
                raise Unsupported("returns a list")
            if kind == "player":
                v = self.as_player(v)
            args = tuple(c.env.get(f"#{i}", c.env.get(p)) for i, p in enumerate(params))
            self.hf.rules.append(Rule(Atom(self.name + "|result", args + (v,)), tuple(c.body)))
        return self.hf

    def closed(self, returns: list[tuple[Clause, Value]], params: list[str], entry: tuple) -> None:
        """A closure's rules (tgpl.lowering.closures): each way to `return true` a rule of `|found`, positive,
        recursive through the calls of itself, which read `|found`; the ways to `false` none. Its result is
        `yes` where found, `no` where asked and not found: `not` of a relation the recursion defines
        positively, below it (stratified), as hand-written GDL asks whether a group has a liberty."""
        if self.reach is not None:
            self.reached(returns, entry)
            return
        self.found_rules(returns, params, entry, Const("yes"), Const("no"), "true or false")

    def found_rules(self, returns: list[tuple[Clause, Value]], params: list[str], entry: tuple, found: Const,
                    otherwise: Const, what: str) -> None:
        """Each way to the constant `found` a rule of `|found`, positive; the result `found` where asked and found,
        `otherwise` where asked and `not` found (a closure's yes and no, `closed`; a search's two constants,
        `searched`). Any other value returned is refused (`what` the function may return)."""
        for c, v in returns:
            if v == otherwise:
                continue
            if v != found:
                raise Unsupported(f"a search returning other than {what}")
            args = tuple(c.env.get(f"#{i}", c.env.get(p)) for i, p in enumerate(params))
            self.hf.rules.append(Rule(Atom(self.name + "|found", args), tuple(c.body)))
        result, call, known = self.name + "|result", Atom(self.name + "|call", entry), Atom(self.name + "|found", entry)
        self.hf.rules.append(Rule(Atom(result, entry + (found,)), (call, known)))
        self.hf.rules.append(Rule(Atom(result, entry + (otherwise,)), (call, Not(known))))

    def found_and_on(self, s: ast.If, clauses: list[Clause], flow: _Flow, found: Const) -> _Flow:
        """`if (C) { return found; }` in a search: `found` where C holds, and on whatever C is, as if it had not
        returned (the search's `|found` rules say the rest: `found_rules`)."""
        for c in clauses:
            flow.returns += [(y, found) for y in self.cond(s.cond, c)[0]]
        flow.going = [c.copy() for c in clauses]
        return flow

    def search_value(self, e) -> Const:
        """A search's constant (a literal) as the rules write it."""
        return self.expr(e, Clause([], {}))[0][1]

    def searched(self, returns: list[tuple[Clause, Value]], params: list[str], entry: tuple) -> None:
        """A search's rules (tgpl.lowering.searches): each way to the early constant a rule of `|found`, the
        code after each loop having gone on whatever its passes found (`exists_loop`); its result is that
        constant where found, the one at the end where asked and not found."""
        self.found_rules(returns, params, entry, self.search_value(self.search.found),
                         self.search_value(self.search.otherwise), "its two constants")

    def reached(self, returns: list[tuple[Clause, Value]], entry: tuple) -> None:
        """A `contains` search's rules keyed by its start (tgpl.lowering.closures.reached_of): `|reach(x, s, r)`,
        `x` reached from `s` (in the goal's place) with the other inputs `r`, holds of the start asked about
        and of each item a step from a reached one; each way to `return true` is a step (the goal's test is not
        compiled), its call of the search itself read as the `|reach` of the item it passes, that call's
        `|step` mark. `|found(s, g, r)` is `reach(g, s, r)` where asked; `yes` and `no` as any closure's."""
        k = self.reach.index
        reach, step, found = self.name + "|reach", self.name + "|step", self.name + "|found"
        call = Atom(self.name + "|call", entry)
        for c, v in returns:
            if v == Const("no"):
                continue
            steps = [x for x in c.body if isinstance(x, Atom) and x.relation == step]
            if v != Const("yes") or len(steps) != 1:
                raise Unsupported("a search keyed by its start with a way to true that is not one step")
            self.hf.rules.append(Rule(Atom(reach, steps[0].args), tuple(x for x in c.body if x is not steps[0])))
        at_start = list(entry)
        at_start[k] = entry[0]
        self.hf.rules.append(Rule(Atom(reach, tuple(at_start)), (call,)))
        asked = list(entry)
        asked[0], asked[k] = entry[k], entry[0]
        self.hf.rules.append(Rule(Atom(found, entry), (call, Atom(reach, tuple(asked)))))
        result = self.name + "|result"
        self.hf.rules.append(Rule(Atom(result, entry + (Const("yes"),)), (call, Atom(found, entry))))
        self.hf.rules.append(Rule(Atom(result, entry + (Const("no"),)), (call, Not(Atom(found, entry)))))

    def var(self) -> Var:
        return Var(f"X{next(self.fresh)}")

    def demands(self, vals: list, body: list) -> list[tuple[tuple, tuple]]:
        """The rules of a call's demand, (arguments, body) each. Under its clause's body, a call inside a loop
        (`while (k < 1 && IsOpen(x: c))`) made the loop's relation wait on the callee and the callee's demand
        on the loop: a cycle through which the loop's variables are unbound, against GDL's recursion
        restriction. A call with constant arguments is asked in every state; one whose arguments the loop
        never changes is asked where the loop is entered, with the values they have there (both ask more
        than the calls made: their results are read under the clause's whole body)."""
        if all(isinstance(a, Const) for a in vals):
            return [((*vals,), ())]
        if self.hc.loose_demands:
            body = list(loosened(tuple(vals), tuple(body)))
        relations = {x.relation for x in body if isinstance(x, Atom)}
        for rel, heads, entries, fixed in reversed(self.loops):
            if rel not in relations:
                continue
            by_var = {t: n for n, t in heads.items() if isinstance(t, Var)}
            if any(isinstance(a, Var) and by_var.get(a) not in fixed for a in vals):
                scanned = self.scan_demands(vals, body)
                if scanned is not None:
                    return scanned
                break  # an argument bound or changed in the loop: asked under the loop, as before
            return [(tuple(env[by_var[a]] if isinstance(a, Var) else a for a in vals), tuple(entry_body))
                    for entry_body, env in entries]
        return [((*vals,), tuple(body))]

    def scan_demands(self, vals: list, body: list) -> list[tuple[tuple, tuple]] | None:
        """The demand of a call in a scan that clears a flood's group (tgpl.lowering.group_clears, its loops
        marked `reads_before`), asked where the scan is entered, its counters from their ranges: every pass reads
        the views the scan started with, so a call's answer does not depend on the passes before it, and asked
        under the loop's relation its demand waited on the answers of the calls before it (a negation cycle
        through the search's `not found`). The arguments: values fixed in the loops, the counters, and what
        tables of the board give from them (`Points[gx][gy]`). None where the call is not so."""
        scans = getattr(self, "scan_loops", {})
        first = next((k for k, loop in enumerate(self.loops) if loop[0] in scans), None)
        if first is None:
            return None
        heads = {v: (k, n) for k, (_, hs, _, _) in enumerate(self.loops) for n, v in hs.items() if isinstance(v, Var)}
        kept: list = []
        todo = [a for a in vals if isinstance(a, Var)]
        seen: set = set()
        while todo:
            v = todo.pop()
            if v in seen or v in heads:
                continue
            seen.add(v)
            atom = next((x for x in body if isinstance(x, Atom) and x.relation.startswith("#static")
                         and v in x.args), None)
            if atom is None:
                return None
            kept.append(atom)
            todo += [x for x in atom.args if isinstance(x, Var)]
        needed = [v for v in dict.fromkeys([a for a in vals if isinstance(a, Var)]
                                           + [x for atom in kept for x in atom.args if isinstance(x, Var)])
                  if v in heads]
        sub: dict = {}
        ranges: list = []
        while needed:
            v = needed.pop()
            k, name = heads[v]
            rel, hs, entries, fixed = self.loops[k]
            if k < first:
                return None
            if rel in scans and scans[rel][0] == name and name not in fixed:
                _, lo, hi = scans[rel]
                ranges.append(Atom(self.hc.static_table([(Const(str(i)),) for i in range(lo, hi)]), (v,)))
                continue
            if name not in fixed or (k > first and len(entries) != 1):
                return None
            if k == first:
                continue  # the scan's entry binds it below
            value = entries[0][1].get(name)  # the value it had where the loop inside the scan was entered
            if value is None:
                return None
            sub[v] = value
            if isinstance(value, Var):
                if value not in heads:
                    return None
                needed.append(value)

        def put(t):
            while isinstance(t, Var) and t in sub:
                t = sub[t]
            return t
        rel, hs, entries, fixed = self.loops[first]
        out = []
        for entry_body, env in entries:
            at_entry = {v: env[n] for n, v in hs.items() if isinstance(v, Var) and n in fixed and n in env}

            def final(t):
                t = put(t)
                return at_entry.get(t, t) if isinstance(t, Var) else t
            args = tuple(final(a) for a in vals)
            extra = [Atom(x.relation, tuple(final(y) for y in x.args), x.span) for x in kept + ranges]
            out.append((args, tuple(entry_body) + tuple(extra)))
        return out

    def as_player(self, v: Value) -> Value:
        """A number given where a player is meant (`side == 0`, an argument `mine: 0`) as the player constant."""
        if isinstance(v, Const) and v.name.lstrip("-").isdigit():
            n = int(v.name)
            if not 0 <= n < self.hc.u.players:
                raise Unsupported("a player number out of range")
            return Const(f"#p:{n}")
        return v

    def typed(self, e, v: Value, other=None) -> Value:
        """`v`, the value of `e`, as the player constant where `e` or `other` (the expression it meets) is a player."""
        if self.hc.types.get(id(e)) == PLAYER or other is not None and self.hc.types.get(id(other)) == PLAYER:
            return self.as_player(v)
        return v

    def cut(self, clauses: list[Clause], what: str, live: set[str], always: bool = False) -> list[Clause]:
        """Several clauses going on: one relation of the names in scope that the code after reads (`live`),
        so that code is written once."""
        if len(clauses) == 0 or len(clauses) == 1 and not always:
            return clauses
        for c in clauses:
            for n in [n for n in c.env if n not in live and not n.startswith("#") and n not in self.hf.params]:
                del c.env[n]
        names = sorted(clauses[0].env)
        if any(isinstance(v, Pending) for c in clauses for v in c.env.values()):
            raise Unsupported("a grid row kept in a local")
        if any(isinstance(v, ObjList) for c in clauses for v in c.env.values()):
            raise Unsupported("a list of an object known at run time kept in a local")
        if any(sorted(c.env) != names for c in clauses) or any(
                isinstance(c.env[n], STATIC) and c.env[n] != clauses[0].env[n] for c in clauses for n in names):
            raise Unsupported("locals that differ in kind after a branch")
        dynamic = [n for n in names if not isinstance(clauses[0].env[n], STATIC)]
        rel = f"{self.name}|{what}{next(self.points)}"
        for c in clauses:
            self.hf.rules.append(Rule(Atom(rel, tuple(c.env[n] for n in dynamic)), tuple(c.body)))
        fresh = {n: self.var() for n in dynamic}
        env = {n: fresh.get(n, clauses[0].env[n]) for n in names}
        return [Clause([Atom(rel, tuple(fresh[n] for n in dynamic))], env)]

    def block(self, stmts: list, clauses: list[Clause], live: set[str]) -> _Flow:
        """`live`: the names read after the block (and anywhere in the loops around it)."""
        out = _Flow()
        declared: list[str] = []
        going = clauses
        for i, s in enumerate(stmts):
            if not going:
                break
            if isinstance(s, ast.VarDecl):
                declared.append(s.name)
            flow = self.stmt(s, going, live | _names(stmts[i + 1:]))
            out.returns += flow.returns
            out.breaks += flow.breaks
            out.continues += flow.continues
            going = flow.going
        for c in going + out.breaks + out.continues:
            for n in declared:
                c.env.pop(n, None)
        out.going = going
        return out

    def stmt(self, s, clauses: list[Clause], live: set[str]) -> _Flow:
        try:
            return self._stmt(s, clauses, live)
        except Unsupported as e:
            if e.span is None:
                e.span = getattr(s, "span", None)
            raise

    def _stmt(self, s, clauses: list[Clause], live: set[str]) -> _Flow:
        flow = _Flow()
        if isinstance(s, ast.Block):
            return self.block(s.body, clauses, live)
        if isinstance(s, ast.VarDecl):
            for c in clauses:
                if s.init is None:
                    c.env[s.name] = Const("null") if s.type.name not in ("number",) else Const("0")
                    flow.going.append(c)
                    continue
                for c2, v in self.expr(s.init, c):
                    c2.env[s.name] = self.as_player(v) if s.type.name == "player" and not s.type.args else v
                    flow.going.append(c2)
            return flow
        if isinstance(s, ast.ExprStmt):
            e = s.expr
            if not isinstance(e, ast.Assign) or not isinstance(e.target, ast.Name):
                raise Unsupported("a statement other than an assignment of a local")
            for c in clauses:
                if e.target.name not in c.env:
                    raise Unsupported("an assignment of something other than a local")
                flow.going += self.assign(e, c)
            return flow
        if isinstance(s, ast.If) and self.hf.closure and self.reach is not None and id(s) == self.reach.test:
            flow.going = clauses  # the goal's test: `|found` reads `|reach` of the goal (`reached`)
            return flow
        if isinstance(s, ast.If) and self.hf.closure and id(s) == self.closure.stop:
            flow.going = clauses  # the count is not compiled: no depth ends the search
            return flow
        if isinstance(s, ast.If) and self.hf.closure and id(s) in self.closure.found:
            # `if (C && Self(...)) { return true; }`: true where C holds; on, whatever C is
            return self.found_and_on(s, clauses, flow, Const("yes"))
        if isinstance(s, ast.If) and self.search is not None and self.hc.searched_callers \
                and returns_found(self.search, s):
            # a search's `if (C) { return K; }` (tgpl.lowering.searches), so that a loop around it never waits on
            # C (Kamisado's `CanSlide`, a loop up to a distance known at run time that goes on while no square is
            # `Occupied`). Only where the callers are searched (compile_game's last retry): the games that lowered
            # before keep their rules
            return self.found_and_on(s, clauses, flow, self.search_value(self.search.found))
        if isinstance(s, ast.If):
            for c in clauses:
                yes, no = self.cond(s.cond, c)
                for branch, cs in ((s.then, yes), (s.orelse, no)):
                    if branch is None:
                        flow.going += cs
                        continue
                    sub = self.stmt(branch, cs, live) if isinstance(branch, ast.If) else self.block(branch.body, cs, live)
                    flow.going += sub.going
                    flow.returns += sub.returns
                    flow.breaks += sub.breaks
                    flow.continues += sub.continues
            flow.going = self.cut(flow.going, "join", live)
            return flow
        if isinstance(s, ast.While):
            return self.loop(s.cond, s.body, None, clauses, live)
        if isinstance(s, ast.For):
            if s.reads_before and getattr(self, "frozen", None) is None:
                # a scan clearing a flood's group (tgpl.lowering.group_clears) read pass after pass would be
                # another game: only the compiled moves read it through the views it started with
                raise Unsupported("a scan that clears a flood's group, outside a move's compiled effect")
            pre = clauses
            declared = None
            if isinstance(s.init, ast.VarDecl):
                declared = s.init.name
                pre = self.stmt(s.init, pre, live).going
            elif s.init is not None:
                pre = self.stmt(ast.ExprStmt(s.init.span, s.init), pre, live).going
            exists = self.exists_loop(s, pre, live) if self.hc.for_segments else None
            counted = ast.counted_for(s) if exists is None and (s.reads_before or self.scans_calls(s)) else None
            most = self._static_bound(s.cond.right, pre) if counted is not None else None
            if most is not None:
                # its counter's range, for the demands of the calls in it (`scan_demands`), taken by the loop's
                # relation made next (`loop`): never left for another loop where this one is no relation
                self._scan_next = (counted[0], int(counted[1]), most + counted[2])
            flow = exists if exists is not None else self.loop(s.cond, s.body, s.post, pre, live)
            if declared is not None:
                for c in flow.going:
                    c.env.pop(declared, None)
            return flow
        if isinstance(s, ast.Return):
            if s.value is None:
                raise Unsupported("return without a value")
            for c in clauses:
                flow.returns += self.expr(s.value, c)
            return flow
        if isinstance(s, ast.Break):
            flow.breaks = clauses
            return flow
        if isinstance(s, ast.Continue):
            flow.continues = clauses
            return flow
        raise Unsupported(f"{type(s).__name__} statements")

    def exists_loop(self, s: ast.For, clauses: list[Clause], live: set[str]) -> _Flow | None:
        """`for (i = a; i < b; i += 1)` whose passes share nothing (the body assigns only names it declares) and
        whose every `return` returns one constant: "some pass returns it", one relation over the passes, not
        a recursion through them. Recursion through a loop whose passes call other compiled functions makes
        the calls' demand depend on their own results, which GDL's recursion restriction forbids (chess's
        `HasMove`, a search over the squares); None where the loop is not of that form."""
        var = _counted(s)
        if var is None or not clauses or not all(isinstance(c.env.get(var), Const) for c in clauses):
            return None
        declared = {n.name for n in ast.walk([s.body]) if isinstance(n, ast.VarDecl)}
        assigned = {n.target.name for n in ast.walk([s.body]) if isinstance(n, ast.Assign)
                    and isinstance(n.target, ast.Name)}
        if assigned - declared or _breaks_out(s.body):
            return None
        flow = _Flow()
        for c in clauses:
            start = c.env[var]
            bounds = self.expr(s.cond.right, c)
            if len(bounds) != 1:
                return None
            # the bound may be read through the static tables (`j < from.Near.length`, a fixed list's length):
            # the passes are then those up to its largest value there, each kept below the bound read
            c, bound = bounds[0]
            try:
                first = int(start.name)
                last = int(bound.name) if isinstance(bound, Const) else self._static_most(c, bound)
            except ValueError:
                return None
            if last is None or (not isinstance(bound, Const) and first != 0):
                return None
            # a pass depends on the state and the names in scope: those key "some pass returns" (kept in scope
            # through the joins of the body, which keep only what is read after them)
            keys = [n for n in sorted(c.env) if not isinstance(c.env[n], STATIC) and n != var]
            args = tuple(c.env[n] for n in keys)
            i = self.var()
            entry = c.plus(Atom(self.hc.static_table([(Const(str(k)),) for k in range(first, last)]), (i,)))
            if not isinstance(bound, Const):
                entry = self.compare("<", i, bound, entry)
            entry.env[var] = i
            made = len(self.hf.rules)
            inner = self.block(s.body.body, [entry], live | _names([s.cond, s.post]) | set(keys))
            finding = Const("yes") if self.hf.closure else \
                self.search_value(self.search.found) if self.search is not None else None
            if finding is not None and not inner.breaks and all(v == finding for _, v in inner.returns):
                # a closure's passes that only find: each pass's ways to `true` are rules of `|found` (`closed`;
                # of `|reach`, a search keyed by its start: `reached`) of their own, positive, and the code after
                # the loop goes on whatever they find. Where a pass found, the search is true already, so what
                # the code after finds only adds ways to a `true` (as past a `closure.found` test): no relation
                # of the passes, no `not`, as hand-written GDL writes a step in each direction
                flow.returns += inner.returns
                after = c.copy()
                after.env[var] = Const(str(max(first, last))) if isinstance(bound, Const) else bound
                flow.going.append(after)
                continue
            if self._recurses([c2.body for c2, _ in inner.returns] + [r.body for r in self.hf.rules[made:]]):
                # a pass that calls back into a recursion: "some pass returns" read under `not` after the loop
                # would make the recursion depend on itself through negation; the loop is a recursion instead
                del self.hf.rules[made:]
                return None
            value = {v for _, v in inner.returns}
            if len(value) > 1 or any(not isinstance(v, Const) for v in value) or inner.breaks:
                return None
            if any(n not in c2.env for c2, _ in inner.returns for n in keys):
                return None
            found = f"{self.name}|exists{next(self.points)}"
            for c2, _ in inner.returns:
                self.hf.rules.append(Rule(Atom(found, tuple(c2.env[n] for n in keys)), tuple(c2.body)))
            after = c.copy()
            if inner.returns:
                flow.returns.append((c.plus(Atom(found, args)), next(iter(value))))
                after = c.plus(Not(Atom(found, args)))
            after.env[var] = Const(str(max(first, last))) if isinstance(bound, Const) else bound  # from 0: max(0, b) = b
            flow.going.append(after)
        return flow

    def scans_calls(self, s: ast.For) -> bool:
        """Is the counted loop `s` a scan for the demands of the calls in it (`scan_demands`)? Its passes write no
        state (a pure function writes none), so a call's answer depends on its arguments only, not on the passes
        before it: asked from the loop's entry over the counter's whole range, its demand only adds answers
        nobody reads. Asked under the loop's relation, a pass's demand waited on the answers of the passes before
        it (Havannah's `BridgeOrFork`, `corners += 1` where `group.contains(Edge[i])`): a closure's cycle."""
        return True

    def _static_bound(self, bound, clauses: list[Clause]) -> int | None:
        """The largest value of a loop's bound `bound` where `clauses` enter it: a number, or a static list's
        `length` (`i < Edge.length`) read through the static tables (`_static_most`); None where it is another."""
        if isinstance(bound, ast.NumberLit):
            return int(bound.value)
        if not clauses or not (isinstance(bound, ast.Member) and bound.name == "length"):
            return None
        most = None
        for c in clauses:
            try:
                values = self.expr(bound, c.copy())
            except Unsupported:
                return None  # a local list's length: the loop's relation alone reads it
            for c2, v in values:
                n = int(v.name) if isinstance(v, Const) and v.name.lstrip("-").isdigit() else self._static_most(c2, v)
                if n is None:
                    return None
                most = n if most is None else max(most, n)
        return most

    def _recurses(self, bodies: list) -> bool:
        """Does a literal of `bodies` read the result of a function of a recursion still being compiled (the
        function's own demand and parts are in every body, and are no call; a keyed search's step is one)?"""
        return any(isinstance(x, Atom) and x.relation.endswith(("|result", "|found", "|step"))
                   and self.hc.recursing(x.relation.split("|")[0]) for body in bodies for x in body)

    def _static_most(self, c: Clause, value: Term) -> int | None:
        """The largest whole number a static table in `c`'s body binds `value` to; None if none binds it."""
        most = None
        for lit in c.body:
            rows = self.hc.statics.get(lit.relation) if isinstance(lit, Atom) else None
            if rows is None:
                continue
            for k, arg in enumerate(lit.args):
                if arg != value:
                    continue
                for row in rows:
                    try:
                        n = int(row[k].name)
                    except (ValueError, AttributeError):
                        continue
                    most = n if most is None else max(most, n)
        return most

    def loop(self, cond, body: ast.Block, post, clauses: list[Clause], live: set[str]) -> _Flow:
        """A loop: a relation of the names in scope at its head, entered by `clauses` and by each pass."""
        flow = _Flow()
        if not clauses:
            return flow
        after = live
        # what the next pass reads: a name declared in the body is declared again by it, never read across
        # passes (kept, the joins in the body carried it into the recursion without the loop's head binding
        # it: GDL's recursion restriction refused the rules)
        declared = {n.name for n in ast.walk([body]) if isinstance(n, ast.VarDecl)}
        live = live | _names([cond, post]) | (_names([body]) - declared)
        entries = [(list(c.body), dict(c.env)) for c in clauses]
        head = self.cut(clauses, "loop", live, always=True)[0]  # always a relation: passes come back to it
        rel = head.body[0]
        names = [n for n in sorted(head.env) if not isinstance(head.env[n], STATIC)]
        assigned = {x.target.name for x in ast.walk([cond, body, post]) if isinstance(x, ast.Assign)
                    and isinstance(x.target, ast.Name)} | declared
        self.loops.append((rel.relation, {n: head.env[n] for n in names}, entries, set(names) - assigned))
        scan, self._scan_next = getattr(self, "_scan_next", None), None
        if scan is not None:
            self.scan_loops = {**getattr(self, "scan_loops", {}), rel.relation: scan}
        try:
            yes, no = self.cond(cond, head.copy()) if cond is not None else ([head.copy()], [])
            inner = self.block(body.body, yes, live)
        finally:
            self.loops.pop()
        flow.returns = inner.returns
        back = inner.going + inner.continues
        if post is not None:
            back = [c2 for c in back for c2 in self.stmt(ast.ExprStmt(post.span, post), [c], live).going]
        self.loop_back(rel.relation, names, back)
        flow.going = self.exits(no + inner.breaks, after)
        return flow

    def exits(self, clauses: list[Clause], live: set[str]) -> list[Clause]:
        """The ways out of a loop, for the code after it. A few (EXIT_UNCUT) go on as they are: the code after
        a walk usually asks again what stopped it (Reversi's `FlipsIn`: the square off the board, empty, or
        the mover's own, then `if (s != null && s.Disc == who)`), and each way, as its clause, knows its
        answer, so the `if` keeps one branch of each and the ways that meet again are one `join`. Cut into an
        `after` relation first, each of its rules met every branch: seven rules a step of the walk, not three,
        and a ground game a sixth larger. More ways are cut, so that the code after is written once."""
        if len(clauses) <= EXIT_UNCUT:
            for c in clauses:
                for n in [n for n in c.env if n not in live and not n.startswith("#") and n not in self.hf.params]:
                    del c.env[n]
            return clauses
        return self.cut(clauses, "after", live)

    def loop_back(self, rel: str, names: list[str], back: list[Clause]) -> None:
        """The rules of the passes `back` that come back to the loop's head `rel`, holding `names`."""
        for c in back:
            self.hf.rules.append(Rule(Atom(rel, tuple(c.env[n] for n in names)), tuple(c.body)))

    def assign(self, e: ast.Assign, c: Clause) -> list[Clause]:
        out = []
        for c2, v in self.expr(e.value, c):
            if e.op == "=":
                c2.env[e.target.name] = self.typed(e.target, v)
                out.append(c2)
                continue
            op = e.op[0]
            if op not in CALCS:
                raise Unsupported.at(e.span, f"the operator {e.op}")
            if self.hc.types.get(id(e.target)) == PLAYER:
                raise Unsupported(f"arithmetic on players: {rewrites.player_arithmetic_hint()}")
            old = c2.env[e.target.name]
            c3, r = self.calc(op, old, v, c2, e.span)
            if c3 is not None:
                c3.env[e.target.name] = r
                out.append(c3)
        return out

    # ------------------------------------------------------------ values
    def expr(self, e, c: Clause) -> list[tuple[Clause, Value]]:
        if isinstance(e, ast.NumberLit):
            if float(e.value) != int(e.value):
                raise Unsupported("a number that is not whole")
            return [(c, Const(str(int(e.value))))]
        if isinstance(e, ast.BoolLit):
            return [(c, Const("yes" if e.value else "no"))]
        if isinstance(e, ast.NullLit):
            return [(c, Const("null"))]
        if isinstance(e, (ast.This, ast.Base)):
            if self.this is None:
                raise Unsupported("this outside a method")
            return [(c, self.hc.const_of(self.this))]
        if isinstance(e, ast.Name):
            if e.name in c.env:
                return [(c, c.env[e.name])]
            if id(e) in self.hc.implicit_this and self.this is not None:
                return self.member(c, self.hc.const_of(self.this), e.name, self.hc.types.get(id(e)) == PLAYER,
                                   self.hc.this_class.get(id(e)))
            t = self.hc.types.get(id(e))
            if isinstance(t, ClassType) and t.info.visibility == "global" and t.info.name in self.hc.u.globals:
                return [(c, self.hc.const_of(self.hc.u.globals[t.info.name]))]
            raise Unsupported(f"the name {e.name}")
        if isinstance(e, ast.Member):
            t = self.hc.types.get(id(e.obj))
            if type(t).__name__ == "Namespace":
                raise Unsupported("a namespace member")
            out = []
            of = t.info if isinstance(t, ClassType) else None
            for c2, o in self.expr(e.obj, c):
                out += self.member(c2, o, e.name, self.hc.types.get(id(e)) == PLAYER, of)
            return out
        if isinstance(e, ast.Index):
            by_player = self.hc.types.get(id(e.index)) == PLAYER  # `Seats[me]`: the player's number is the index
            out = []
            for c2, o in self.expr(e.obj, c):
                for c3, k in self.expr(e.index, c2):
                    if by_player:
                        c3, k = self.player_number(c3, k)
                        if c3 is None:
                            continue
                    out += self.index(c3, o, k)
            return out
        if isinstance(e, ast.Unary):
            if e.op == "-":
                out = []
                for c2, v in self.expr(e.operand, c):
                    c3, r = self.calc("-", Const("0"), v, c2)
                    if c3 is not None:
                        out.append((c3, r))
                return out
            return self.boolean(e, c)
        if isinstance(e, ast.Binary):
            if e.op in CALCS and PLAYER in (self.hc.types.get(id(e.left)), self.hc.types.get(id(e.right))):
                # it wraps around the players (not a table of numbers)
                raise Unsupported(f"arithmetic on players: {rewrites.player_arithmetic_hint()}")
            if e.op in CALCS:
                out = []
                for c2, a in self.expr(e.left, c):
                    for c3, b in self.expr(e.right, c2):
                        c4, r = self.calc(e.op, a, b, c3, e.span)
                        if c4 is not None:
                            out.append((c4, r))
                return out
            if e.op in ("&&", "||", "==", "!=", "&", "|") or e.op in COMPARE:
                return self.boolean(e, c)
            if e.op == "^" and self.hc.types.get(id(e)) == BOOL:
                return self.boolean(e, c)
            raise Unsupported.at(e.span, f"the operator {e.op}")
        if isinstance(e, ast.Cast):
            t = self.hc.types.get(id(e.expr))
            info = self.hc.class_info(e.type)
            if info is None:
                raise Unsupported(f"a cast to {e.type}")
            if isinstance(t, ClassType) and (t.info.derives_from(info) or self.hc.all_are(t.info, info)):
                return self.expr(e.expr, c)
            out = []
            for c2, v in self.expr(e.expr, c):
                if isinstance(v, Const):
                    o = self.object_of(v)
                    if o is not None and o.is_a(info) or v.name == "null":
                        out.append((c2, v))
                    elif o is not None:
                        out.append((c2, Const("null")))
                    else:
                        raise Unsupported("a cast")
                elif isinstance(v, Var):
                    got = self.cast_table(c2, v, info)
                    if got is None:
                        raise Unsupported("a cast of a value not known when compiling")
                    out.append((got, v))
                else:
                    raise Unsupported("a cast of a value not known when compiling")
            return out
        if isinstance(e, ast.InitList):
            items = []
            for item in e.items:
                got = self.expr(item, c)
                if len(got) != 1 or got[0][0] is not c or not isinstance(got[0][1], (Const, Static)):
                    raise Unsupported("a list of values not known when compiling" + self._grown_walk_note())
                items.append(got[0][1])
            return [(c, Static(tuple(items)))]
        if isinstance(e, ast.Call):
            return self.call(e, c)
        raise Unsupported(f"{type(e).__name__} expressions")

    def _code_under_way(self):
        """The definition whose code is being compiled (a compiled move's segments say which function they inline)."""
        return self.defn

    def _grown_walk_note(self) -> str:
        """Where the function walks a local list while it grows it (a flood: Quoridor's path check), that walk
        named with the rewrite the compiled moves take (its list read after it only by `contains` or a loop that
        returns a constant, decision 114, which the lowering writes as a recursive function); else ""."""
        code = self._code_under_way()
        walk = grown_walk_in(code) if code is not None else None
        if walk is None:
            return ""
        span, name = walk
        return f"; the loop at {span.line}:{span.col} walks the list '{name}' while it grows it, {grown_walk_rewrite(name)}"

    def cast_table(self, c: Clause, v: Var, info) -> Clause | None:
        """`v as T` where v comes out of a static table: the table with each item cast (null where it is no T)."""
        for i, x in enumerate(c.body):
            if not (isinstance(x, Atom) and x.args and x.args[-1] == v):
                continue
            static = x.relation
            if static.startswith("#read:") and static[6:] not in self.hc.fluent_attrs:
                static = "#field:" + static[6:]  # a static field of an object known at run time (a link's `to`)
            if static in self.hc.statics:
                rows = []
                for row in self.hc.statics[static]:
                    o = self.object_of(row[-1])
                    rows.append(row if o is None and row[-1].name == "null" or o is not None and o.is_a(info)
                                else row[:-1] + (Const("null"),))
                table = self.hc.static_table(rows)
                body = list(c.body)
                body[i] = Atom(table, x.args)
                return c.with_body(body)
        return None

    def boolean(self, e, c: Clause) -> list[tuple[Clause, Value]]:
        yes, no = self.cond(e, c)
        return [(x, Const("yes")) for x in yes] + [(x, Const("no")) for x in no]

    def object_of(self, v: Const) -> UObj | None:
        return self.hc.object_of(v)

    def owner(self, c: Clause, o: Value) -> tuple[Clause, Value]:
        """The owner of an object when assign() changes no owner after setup: a constant, or for an object known
        only at run time a static table from each object to its one owner (null for none or several)."""
        if isinstance(o, Const):
            obj = self.hc.object_of(o)
            return c, Const(f"#p:{int(obj.owners[0])}") if obj is not None and len(obj.owners) == 1 else NULL
        v = self.var()
        rows = [(self.hc.const_of(x), Const(f"#p:{int(x.owners[0])}") if len(x.owners) == 1 else NULL)
                for x in self.hc.u.objects]
        return c.plus(Atom(self.hc.static_table(rows), (o, v))), v

    def member(self, c: Clause, o: Value, name: str, player: bool = False, of=None) -> list[tuple[Clause, Value]]:
        """The attribute `name` of `o`: a fluent's read, or a field fixed after setup as its constant, a number of a
        `player` attribute as the player's (`Camp = 0` in a group's default holds the number 0, which the fluents
        and the players compared with it write `#p:0`). `of`: the class the checker gave `o` (its ClassInfo; None
        where unknown), whose objects alone a list field is read from."""
        if name == "length" and isinstance(o, Static):
            return [(c, Const(str(len(o.value))))]
        if name == "length" and isinstance(o, ObjList):
            v = self.var()
            rows = [(self.hc.const_of(x), Const(str(len(items)))) for x, items in self.list_fields(o.attr, o.of)]
            return [(c.plus(Atom(self.hc.static_table(rows), (o.obj, v))), v)]
        if isinstance(o, STATIC):
            raise Unsupported(f"'{name}' of a list")
        if name == "player" and name not in self.hc.fluent_attrs:
            return [self.owner(c, o)]
        if isinstance(o, Const):
            obj = self.object_of(o)
            if obj is None:
                return []  # a member of null: the runtime stops, the lowering drops the case
            if (obj.name, name) in self.hc.fluent_cells:
                self.hf.reads.add(name)
                return [self.read_once(c, o, name)]
            if name == "connections":  # a tile's links, fixed after setup (as the spelled-out lowering reads them)
                return [(c, Static(obj.connections))]
            if name in obj.fields:
                value = obj.fields[name]
                if isinstance(value, tuple):
                    self.not_state_list(obj, name)
                    return [(c, Static(value))]
                return [(c, self.hc.const_of(value, player))]
            raise Unsupported(f"'{name}' of {obj.name}")
        # an object known only at run time: its attribute from the state, or a static field, by object
        if name == "player" and name in self.hc.fluent_attrs:
            # the owner, a fluent of the objects assign() can change and fixed on the others (not a field)
            raise Unsupported("the owner of an object known at run time, when assign() changes some owners")
        if name not in self.hc.fluent_attrs and self.list_fields(name, of):
            return [(c, ObjList(name, o, of))]
        v = self.var()
        if name in self.hc.fluent_attrs:
            self.hf.reads.add(name)
        rows = []
        for obj in self.hc.u.objects + (list(self.hc.links().values()) if name == "to" else []):
            if (obj.name, name) not in self.hc.fluent_cells and name in obj.fields:
                value = obj.fields[name]
                if isinstance(value, (tuple, list, dict)):
                    continue
                rows.append((self.hc.const_of(obj), self.hc.const_of(value, player)))
        if name not in self.hc.fluent_attrs and not rows:
            raise Unsupported(f"'{name}' of an object known at run time")
        if rows and name in self.hc.fluent_attrs:
            raise Unsupported(f"'{name}' changes on some objects and not on others")
        if rows:
            self.hc.statics.setdefault("#field:" + name, sorted(set(rows), key=str))
            return [(c.plus(Atom(read_rel(name), (o, v))), v)]
        return [self.read_once(c, o, name)]

    def read_once(self, c: Clause, o: Value, name: str) -> tuple[Clause, Value]:
        """The attribute `name` of `o` in the state the function reads: the value a read of it already in the
        clause gives (an object has one value of an attribute, and a function writes none), else a new read.
        `s.Disc != null && s.Disc != who` reads the square once: the relation's rule joins one fluent, not two,
        and a read through a view (tgpl.lowering.sparse_views) splits the rule in two ways, not four."""
        rel = read_rel(name)
        for x in c.body:
            if isinstance(x, Atom) and x.relation == rel and x.args[0] == o:
                return c, x.args[1]
        v = self.var()
        return c.plus(Atom(rel, (o, v))), v

    def list_fields(self, attr: str, of=None) -> list[tuple[UObj, tuple]]:
        """Every object (of the class `of`, a ClassInfo, where given: the only objects a read of the attribute
        through a value of that class can meet) whose static field `attr` is a list of plain items (objects,
        numbers, ...), with it; for `connections`, every tile with links, with them (fixed after setup, as the
        spelled-out lowering reads them). Blokus's `p.DX[k]` of a piece reads no global's list of lists `DX`."""
        if attr == "connections":
            return [(obj, obj.connections) for obj in self.hc.u.objects if obj.connections]
        out = []
        for obj in self.hc.u.objects:
            if of is not None and not obj.is_a(of):
                continue
            value = obj.fields.get(attr)
            if isinstance(value, tuple) and (obj.name, attr) not in self.hc.fluent_cells:
                self.not_state_list(obj, attr)
                if any(isinstance(x, (tuple, list, dict)) for x in value):
                    raise Unsupported(f"a list of lists in '{attr}'")
                out.append((obj, value))
        return out

    def not_state_list(self, obj: UObj, attr: str) -> None:
        """Refuses a read of object `obj`'s list `attr` as the items setup left where the compiled moves change it
        (its cells are state, tgpl.lowering.compiled_lists): a compiled function has no rules for them, and the
        segment compiler reads them itself."""
        if (obj.name, length_cell(attr)) in self.hc.fluent_cells:
            raise Unsupported(f"the list '{attr}', which the moves change, read by a function")

    def contains(self, c: Clause, o: Value, x: Value) -> tuple[list[Clause], list[Clause]]:
        """`o.contains(x)`: the clauses where it holds, and those where it does not (a static table, negated)."""
        if isinstance(x, STATIC):
            raise Unsupported("a list in a list")
        if isinstance(o, Static):
            items = [self.item(y) for y in o.value]
            if isinstance(x, Const):
                return ([c.copy()], []) if x in items else ([], [c.copy()])
            table, args = self.hc.static_table([(y,) for y in items]), (x,)
        elif isinstance(o, ObjList):
            rows = [(self.hc.const_of(obj), self.hc.const_of(y)) for obj, items in self.list_fields(o.attr, o.of)
                    for y in items]
            table, args = self.hc.static_table(sorted(set(rows), key=str)), (o.obj, x)
        else:
            raise Unsupported("contains() of a value not known when compiling")
        yes = c.plus(Atom(table, args))
        no = c.plus(Not(Atom(table, args)))
        return [yes], [no]

    def index(self, c: Clause, o: Value, k: Value) -> list[tuple[Clause, Value]]:
        if isinstance(o, ObjList):
            if isinstance(k, STATIC):
                raise Unsupported("a list as an index")
            rows = [(self.hc.const_of(obj), Const(str(i)), self.hc.const_of(y))
                    for obj, items in self.list_fields(o.attr, o.of) for i, y in enumerate(items)]
            v = self.var()
            return [(c.plus(Atom(self.hc.static_table(rows), (o.obj, k, v))), v)]
        if isinstance(o, Const):
            obj = self.object_of(o)
            if obj is None or obj.cells is None:
                raise Unsupported("indexing a value not known when compiling")
            o = Static(obj.cells)
        if isinstance(o, Pending):
            return self.pending(c, o.items, o.keys + (k,))
        if not isinstance(o, Static):
            raise Unsupported("indexing a value not known when compiling")
        items = o.value
        if isinstance(k, Const):
            try:
                i = int(k.name)
            except ValueError:
                return []
            if not 0 <= i < len(items):
                return []  # out of range: the runtime stops
            return [(c, self.item(items[i]))]
        return self.pending(c, items, (k,))

    def player_number(self, c: Clause, k: Value) -> tuple[Clause | None, Value]:
        """A player as the number the runtime indexes a list by (player k is k): a player is a term of its own
        (`#p:k`), which a table of indexes keyed by numbers never matched (Morris's `Game.Seats[me]` in its end
        check found no seat, and the game went on where the runtime ended it). None: null, where the runtime stops."""
        if isinstance(k, STATIC):
            raise Unsupported("a list as an index")
        if isinstance(k, Const):
            if k.name.startswith("#p:"):
                return c, Const(k.name[3:])
            return (None, k) if k.name == "null" else (c, k)  # a number given where a player is meant: as it is
        v = self.var()
        rows = [(Const(f"#p:{p}"), Const(str(p))) for p in range(self.hc.u.players)]
        return c.plus(Atom(self.hc.static_table(rows), (k, v))), v

    def item(self, x) -> Value:
        if isinstance(x, tuple):
            return Static(x)
        return x if isinstance(x, Const) else self.hc.const_of(x)

    def pending(self, c: Clause, items: tuple, keys: tuple) -> list[tuple[Clause, Value]]:
        """`items[k1][k2]...` with some keys known only at run time: a table of every index path, once deep enough."""
        leaves = items
        for _ in range(len(keys) - 1):
            leaves = next((x for x in leaves if isinstance(x, tuple)), ())
        if any(isinstance(x, tuple) for x in leaves):
            return [(c, Pending(items, keys))]
        rows = []

        def walk(x, path):
            if len(path) == len(keys):
                rows.append(tuple(Const(str(i)) for i in path) + (self.item(x),))
                return
            if isinstance(x, tuple):
                for i, y in enumerate(x):
                    walk(y, path + (i,))
        walk(items, ())
        if any(isinstance(r[-1], Static) for r in rows):
            raise Unsupported("a list of lists indexed at run time")
        table = self.hc.static_table(rows)
        v = self.var()
        return [(c.plus(Atom(table, tuple(keys) + (v,))), v)]

    def calc(self, op: str, a: Value, b: Value, c: Clause, span=None) -> tuple[Clause | None, Term]:
        """`a op b` on `c`: worked out where both are known, else a row of the operator's table (filled by the
        relaxation with the rows asked for). `span`: the operator's, where a division is refused."""
        if isinstance(a, STATIC) or isinstance(b, STATIC):
            raise Unsupported("arithmetic on a list")
        if isinstance(a, Const) and isinstance(b, Const):
            try:
                x, y = int(a.name), int(b.name)
            except ValueError:
                return None, Const("null")  # arithmetic on null or an object: the runtime stops
            return c, Const(str(whole_calc(op, x, y, span)))
        r = self.var()
        return c.plus(Atom(CALCS[op], (a, b, r), span)), r

    # ------------------------------------------------------------ conditions
    def cond(self, e, c: Clause) -> tuple[list[Clause], list[Clause]]:
        """The clauses in which e is true, and those in which it is false (null: neither); each its own copy."""
        yes, no = self._cond(e, c)
        return [x.copy() for x in yes], [x.copy() for x in no]

    def _cond(self, e, c: Clause) -> tuple[list[Clause], list[Clause]]:
        if isinstance(e, ast.Unary) and e.op == "!":
            yes, no = self.cond(e.operand, c)
            return no, yes
        if isinstance(e, ast.Binary) and e.op in ("&&", "||"):
            left_yes, left_no = self.cond(e.left, c)
            if e.op == "&&":
                yes, no = [], list(left_no)
                for x in left_yes:
                    y, n = self.cond(e.right, x)
                    yes += y
                    no += n
                return yes, no
            yes, no = list(left_yes), []
            for x in left_no:
                y, n = self.cond(e.right, x)
                yes += y
                no += n
            return yes, no
        if isinstance(e, ast.Binary) and e.op in ("&", "|", "^"):  # both sides evaluated, bools
            yes, no = [], []
            left_yes, left_no = self.cond(e.left, c)
            for a, lefts in ((True, left_yes), (False, left_no)):
                for x in lefts:
                    right_yes, right_no = self.cond(e.right, x)
                    for b, rights in ((True, right_yes), (False, right_no)):
                        value = a and b if e.op == "&" else a or b if e.op == "|" else a != b
                        (yes if value else no).extend(rights)
            return yes, no
        asked = self.hc.positive_call(e) if isinstance(e, ast.Binary) else None
        if asked is not None:  # a sum asked only whether it is positive
            yes, no = [], []
            for c2, v in self.expr(asked[0], c):
                y = self.unify(c2, v, Const("yes"))
                n = self.unify(c2, v, Const("no"))
                yes += [y] if y is not None else []
                no += [n] if n is not None else []
            return (yes, no) if asked[1] else (no, yes)
        if isinstance(e, ast.Binary) and e.op in ("==", "!="):
            yes, no = [], []
            for c2, a in self.expr(e.left, c):
                for c3, b in self.expr(e.right, c2):
                    if isinstance(a, STATIC) or isinstance(b, STATIC):
                        raise Unsupported("comparing lists")
                    a, b = self.typed(e.left, a, e.right), self.typed(e.right, b, e.left)
                    y = self.unify(c3, a, b)
                    n = self.differ(c3, a, b)
                    yes += [y] if y is not None else []
                    no += [n] if n is not None else []
            return (yes, no) if e.op == "==" else (no, yes)
        if isinstance(e, ast.Binary) and e.op in COMPARE:
            yes, no = [], []
            for c2, a in self.expr(e.left, c):
                for c3, b in self.expr(e.right, c2):
                    if isinstance(a, STATIC) or isinstance(b, STATIC):
                        raise Unsupported("comparing lists")
                    for op, out in ((e.op, yes), (OPPOSITE[e.op], no)):
                        got = self.compare(op, a, b, c3, e.span)
                        if got is not None:
                            out.append(got)
            return yes, no
        yes, no = [], []
        for c2, v in self.expr(e, c):
            if isinstance(v, STATIC):
                raise Unsupported("a list as a condition")
            y = self.unify(c2, v, Const("yes"))
            n = self.unify(c2, v, Const("no"))
            yes += [y] if y is not None else []
            no += [n] if n is not None else []
        return yes, no

    def compare(self, op: str, a: Term, b: Term, c: Clause, span=None) -> Clause | None:
        """`a op b` on `c`: worked out where both are known, else a row of the comparison's table. `span`: the
        comparison's, where a refusal names the test."""
        if isinstance(a, Const) and isinstance(b, Const):
            try:
                x, y = int(a.name), int(b.name)
            except ValueError:
                return None  # a comparison with null: the runtime stops
            holds = {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
            return c if holds else None
        return c.plus(Atom(COMPARE[op], (a, b), span))

    def unify(self, c: Clause, a: Term, b: Term) -> Clause | None:
        if a == b:
            return c
        if isinstance(a, Var):
            return _satisfiable(c.bind(a, b))
        if isinstance(b, Var):
            return _satisfiable(c.bind(b, a))
        return None  # two different constants

    def differ(self, c: Clause, a: Term, b: Term) -> Clause | None:
        if a == b:
            return None
        if isinstance(a, Const) and isinstance(b, Const):
            return c
        return c.plus(Distinct(a, b))

    # ------------------------------------------------------------ calls
    def call(self, e: ast.Call, c: Clause) -> list[tuple[Clause, Value]]:
        ct = self.hc.types.get(id(e.callee))
        callee = e.callee
        if isinstance(ct, CallableType) and ct.kind == "builtin" and isinstance(callee, ast.Member):
            if callee.name == "length" and not e.args:
                return [x for c2, o in self.expr(callee.obj, c) for x in self.member(c2, o, "length")]
            if callee.name == "contains" and len(e.args) == 1:
                out = []
                for c2, o in self.expr(callee.obj, c):
                    for c3, x in self.expr(e.args[0].value, c2):
                        yes, no = self.contains(c3, o, x)
                        out += [(y, Const("yes")) for y in yes] + [(n, Const("no")) for n in no]
                return out
        if not isinstance(ct, CallableType) or ct.kind != "function":
            name = getattr(callee, "name", None) if isinstance(ct, CallableType) and ct.kind == "builtin" else None
            hint = f": {rewrites.list_call_hint(name)}" if name in rewrites.LIST_CALLS else ""
            raise Unsupported(f"a call of a built-in or an action{hint}")
        fi = ct.target
        if fi.owner is None:
            thises = [(c, None)]
        elif isinstance(callee, ast.Member):
            if isinstance(callee.obj, ast.Base):
                raise Unsupported("base calls")
            thises = self.expr(callee.obj, c)
        else:
            thises = [(c, self.hc.const_of(self.this) if self.this is not None else None)]
        if any(a.name is None for a in e.args):
            raise Unsupported("positional arguments")
        given = {a.name: a.value for a in e.args}
        if set(given) != {i.name for i in fi.defn.inputs}:
            raise Unsupported("arguments left to their defaults")
        out = []
        for c2, this in thises:
            if fi.owner is not None:
                if not isinstance(this, Const) or self.object_of(this) is None:
                    raise Unsupported(f"a method of an object known at run time: {rewrites.known_method_hint()}")
                obj = self.object_of(this)
                if obj.cls.find_function(fi.name) is not fi and obj.cls.find_function(fi.name) is not None:
                    raise Unsupported("an overridden method")
            hf = self.compile_callee(fi, this)
            todo = [(c2, [])]
            for inp in fi.defn.inputs:
                if inp.name in hf.dropped:
                    continue
                player = inp.type.name == "player" and not inp.type.args
                todo = [(c4, vals + [self.as_player(v) if player else v])
                        for c3, vals in todo for c4, v in self.expr(given[inp.name], c3)]
            name = self.hc.instance_name(hf, e)
            for c3, vals in todo:
                if any(isinstance(v, STATIC) for v in vals):
                    raise Unsupported("a list as an argument")
                self.hf.calls.add(hf.name)
                if self.hc.recursing(hf.name):
                    self.hc._recursive_calls.setdefault(hf.name, e.span)
                if name != self.name:  # a call of itself reads its own instance's relations
                    self.hf.sites.add(name)
                if hf is self.hf and hf.closure and self.reach is not None:
                    # a step of a search keyed by its start: no demand, the item passed is reached (`reached`)
                    out.append((c3.plus(Atom(name + "|step", tuple(vals))), Const("yes")))
                    continue
                for args, body in self.demands(vals, c3.body):
                    self.hf.rules.append(Rule(Atom(name + "|call", args), body))
                    self.hf.demands[name + "|call"] = Demand(hf.name, name + "|result")
                if hf is self.hf and hf.closure:  # the closure's recursion: positive, through `|found`
                    out.append((c3.plus(Atom(name + "|found", tuple(vals))), Const("yes")))
                    continue
                r = self.var()
                out.append((c3.plus(Atom(name + "|result", tuple(vals) + (r,))), r))
        return out



def loosened(args: tuple, body: tuple) -> tuple:
    """A call's demand (`args` under `body`) asked more widely: without the literals of `body` that read a result
    of a compiled function or sit under `not`, as far as what is left still binds every variable of `args` and of
    itself (a dropped atom that binds one is kept). Allowed's `if (Captures(p, w)) { return true; } return
    Breathes(p, p, w);` demanded `Breathes` where `Captures` is false, while `Captures` reads `Breathes` under
    `not` ("some pass returns"): one instance of `Breathes`, whose demand depended on its own results through
    negation, which GDL forbids. A result is read under the caller's whole body, and a function's answer for a
    row depends on that row alone, so a wider demand only computes answers nobody reads: the same game."""
    drop = [isinstance(x, Not) or isinstance(x, Atom) and x.relation.endswith("|result") for x in body]
    need_args = {v for a in args for v in a.variables()}
    while True:
        kept = [x for x, d in zip(body, drop) if not d]
        # arithmetic and comparisons bind only their result, which the relaxation computes from the operands:
        # those another literal must bind (loa_flood's `CanMove`, loosened without the `LineCount` result
        # that gave a step, `#times(step, dx, d)`, left `step` unbound, and clingo refused the relaxation)
        operands = [x for x in kept if isinstance(x, Atom) and x.relation in BUILTIN_TABLES]
        bound = {v for x in kept if isinstance(x, Atom) and x.relation not in BUILTIN_TABLES for v in x.variables()}
        bound |= {v for x in operands if x.relation in CALCS.values() for v in x.args[2].variables()}
        need = need_args | {v for x in kept if not isinstance(x, Atom) or x in operands for v in x.variables()}
        missing = need - bound
        if not missing:
            return tuple(kept)
        back = next((i for i, x in enumerate(body) if drop[i] and isinstance(x, Atom)
                     and missing & set(x.variables())), None)
        if back is None:
            return body
        drop[back] = False


def relaxed_reads(hc: HornCompiler, fluents) -> dict[str, list[tuple[Const, Const]]]:
    """attribute -> every (object, value) the `fluents` (tgpl.lowering.segments.Fluent) can hold, as constants."""
    out: dict[str, list[tuple[Const, Const]]] = {}
    for fl in fluents:
        for v in fl.domain:
            value = Const(f"#p:{int(v)}") if fl.type == PLAYER and v is not None else hc.const_of(v)
            out.setdefault(fl.attr, []).append((hc.const_of(fl.obj), value))
    return out


# ====================================================================== instances and tables
@dataclass
class Compiled:
    """The rules of the compiled calls of one lowering, in the compiler's names and constants.

    `rules` use the relations `<instance>#<part>` (an instance is a function on
    an object in a context: which views its reads go through), `#read:<attr>@<ctx>`
    for fluent reads, and tables: `tables` maps each table relation used to its
    rows (arithmetic, comparisons, indexing, static fields, and the results of
    functions that read no fluent).
    """

    rules: list[Rule]
    tables: dict[str, list[tuple[Const, ...]]]


class Overflow(Exception):
    """A compiled function's numbers grow past BOUND with every fluent relaxed: its loops are not bounded by the board."""

    def __init__(self, span):
        self.reason = (f"with --functions-as-relations, this function's numbers grow past {BOUND} in some state: "
                       "its loops are not bounded by the board")
        super().__init__(self.reason)
        self.span = span  # the function's name


def instantiate(hc: HornCompiler, demands: dict[tuple[str, int], set[tuple]],
                relaxed_reads: dict[str, list[tuple[Const, Const]]], results_of: str | None = None,
                sliced: bool = False) -> Compiled:
    """The rules for the calls demanded, `{(function key, context id): {argument rows}}`, and their tables.

    `relaxed_reads[attr]` lists every (object, value) a fluent of `attr` can hold
    (its domain), which is what the relaxation reads. Raises Overflow, and Unsupported for a division no state
    may ask (`inexact_division`) or a rule clingo cannot ground (`relaxation_refused`, at its literal). With
    `results_of` (a function key), only the rows of its results are returned, as a table; `sliced`: found
    through the slice of the rules that keeps them (`_numeric_slice`), a superset.
    """
    # the instances: each function demanded, and every function it calls, in the same context
    todo = sorted(demands)
    instances: list[tuple[str, int]] = []
    while todo:
        key, ctx = todo.pop()
        if (key, ctx) in instances:
            continue
        instances.append((key, ctx))
        todo.extend((k, ctx) for k in sorted(hc.functions[key].calls))
    instances.sort()
    static_fn = {key for key, _ in instances if not _reads_fluents(hc, key, set())}

    def rename(x, ctx):
        if isinstance(x, Not):
            return Not(rename(x.literal, ctx))
        if not isinstance(x, Atom):
            return x
        rel = x.relation
        if "|" in rel:  # a function's own relation
            fn, part = rel.split("|", 1)
            rel = f"{fn}|{part}@{ctx}" if fn not in static_fn else f"{fn}|{part}@s"
        elif rel.startswith("#read:"):
            attr = rel[6:]
            rel = f"{rel}@{ctx}" if attr in hc.fluent_attrs else "#field:" + attr
        return Atom(rel, x.args, x.span)

    rules: list[Rule] = []
    for key, ctx in instances:
        c = "s" if key in static_fn else ctx
        for r in hc.functions[key].rules:
            rules.append(Rule(rename(r.head, c), tuple(rename(x, c) for x in r.body)))
    for (key, ctx), rows in sorted(demands.items()):
        c = "s" if key in static_fn else ctx
        rules.extend(Rule(Atom(f"{key}|call@{c}", row)) for row in sorted(rows, key=str))
    rules = list(dict.fromkeys(rules))

    # relax: every fluent read may give any value of its domain; evaluate once with clingo
    facts: dict[str, list[tuple]] = {}
    for r in rules:
        for x in r.body:
            if isinstance(x, Atom) and x.relation.startswith("#read:"):
                attr = x.relation[6:].rsplit("@", 1)[0]
                facts.setdefault(x.relation, relaxed_reads.get(attr, []))
            elif isinstance(x, Atom) and x.relation.startswith("#field:"):
                facts.setdefault(x.relation, hc.statics.get(x.relation, []))
            elif isinstance(x, Atom) and x.relation.startswith("#static"):
                facts.setdefault(x.relation, hc.statics[x.relation])
    wanted = {("overflow", 1), INEXACT}
    if results_of is None:
        # the calls whose arguments never come from the state are a table of every row some state can ask,
        # not the callers' demand: see _static_calls
        calls = _static_calls(rules)
        wanted |= {(_asp_name(rel), arity) for rel, arity in calls.items()}
        # first the rules cut down to what the tables need (small), then, if a number seems to grow, all of them
        model = _sliced_model(rules, frozenset(calls), facts, _tables_wanted(rules) | wanted)
        if model is not None:
            return _compiled(rules, model, calls)
    if results_of is not None:
        rel = f"{results_of}|result@" + ("s" if results_of in static_fn else "0")
        wanted.add((_asp_name(rel), len(hc.functions[results_of].params) + 1))
        if sliced:
            model = _sliced_model(rules, {rel}, facts, wanted)
            if model is not None:
                return Compiled([], {rel: model.get((_asp_name(rel), len(hc.functions[results_of].params) + 1), [])})
    wanted |= _tables_wanted(rules)
    try:
        model = _model(_relaxed_program(rules, facts), wanted)
    except RuntimeError as e:  # an unsafe rule: refused at its literal, not with clingo's text alone
        raise relaxation_refused(rules, set(), str(e), "the relaxation of their tables",
                                 "the functions compiled to rules with variables") from None
    refused = inexact_division(model)
    if refused is not None:
        raise refused
    if model.get(("overflow", 1)):
        key = min(row[0].name for row in model[("overflow", 1)])
        raise Overflow(hc.functions[key].span if key in hc.functions else None)
    if results_of is not None:
        return Compiled([], {rel: model.get((_asp_name(rel), len(hc.functions[results_of].params) + 1), [])})
    return _compiled(rules, model, calls)


def _static_calls(rules: list[Rule]) -> dict[str, int]:
    """The call relations (`fn|call@ctx` -> arity) of the functions whose callers never pass a value read from
    the state or returned by another function (`_precise_functions`), called by other compiled functions.

    Written as the callers' demand, such a call makes the caller's loop and the callee one recursion
    (`flips_loop` asks `flipsin_call`, which feeds `flipsin`, which `flips_loop` reads), and the
    variables the caller carries along its loop are then bound only inside that recursion, against GDL's
    recursion restriction (Reversi's `Flips` summing `FlipsIn` over the eight directions was refused with
    an internal error). As a table of every argument row the relaxation finds, a superset of the rows any
    state asks, the callee is defined for those rows whatever the state, as hand-written GDL defines a
    line of discs for every square and direction: no cycle through the caller, and the same answers for
    the rows a caller reads."""
    precise = _precise_functions(rules)
    called = {}
    for r in rules:
        rel = r.head.relation
        if "|call@" in rel and r.body and rel.split("|", 1)[0] in precise and not rel.endswith("@s"):
            called[rel] = len(r.head.args)
    return called


def _sliced_model(rules: list[Rule], whole, facts: dict, wanted: set) -> dict | None:
    """The relaxation of the slice (`_numeric_slice`), or None where a number seems to grow past the bound or
    clingo does not take the slice (a literal left out that an arithmetic literal's operand needed first)."""
    try:
        model = _model(_relaxed_program(_numeric_slice(rules, whole), facts), wanted)
    except RuntimeError:
        return None
    # a division asked wrongly in the slice is looked at again in the whole rules (the slice asks more rows)
    return None if model.get(("overflow", 1)) or model.get(INEXACT) else model


def _variables(x) -> set[Var]:
    if isinstance(x, Not):
        return _variables(x.literal)
    if isinstance(x, Distinct):
        return {a for a in (x.left, x.right) if isinstance(a, Var)}
    return {a for a in x.args if isinstance(a, Var)}


def _tables_wanted(rules: list[Rule]) -> set[tuple[str, int]]:
    return {(_asp_name(x.relation), len(x.args)) for r in rules for x in r.body
            if isinstance(x, Atom) and _is_table(x.relation)}


def _compiled(rules: list[Rule], model, calls: dict[str, int] | None = None) -> Compiled:
    """The rules that read the state stay rules; the rest become tables of what the relaxation found, and so
    do the `calls` (`_static_calls`)."""
    tables: dict[str, list[tuple]] = {}
    out: list[Rule] = []
    for rel, arity in (calls or {}).items():
        tables[rel] = sorted(model.get((_asp_name(rel), arity), []), key=str)
    for r in rules:
        rel = r.head.relation
        if rel.endswith("@s") or rel in tables:
            continue  # a function that reads no fluent: its results are a table, its demand is not needed
        body = []
        for x in r.body:
            if isinstance(x, Atom) and _is_table(x.relation):
                tables.setdefault(x.relation, sorted(model.get((_asp_name(x.relation), len(x.args)), []), key=str))
            body.append(x)
        out.append(Rule(r.head, tuple(body)))
    return Compiled(out, tables)


def _numeric_slice(rules: list[Rule], whole: set[str] = frozenset(),
                   check: Callable[[], None] = lambda: None) -> list[Rule]:
    """The relaxed rules cut down to what the tables need, an over-approximation that grounds small.

    The relaxation evaluates the compiled rules with every fluent read giving any value
    of its domain, for every call demanded; its only products are the tables: the rows
    of arithmetic and comparisons, and the results of functions that read no fluent.
    Carrying every argument makes it the product of them all: chess's king-safety test,
    with the king on any square, for every move and every square taken en passant,
    needed 9 GB for a sixteenth of the moves. Here each relation of a function keeps
    only the argument positions the tables need: the operands of arithmetic and
    comparisons, what a kept table's key or a kept read's object is made of, and a
    value compared with a constant that no fluent read gives (the square a walk has
    reached, compared with null: what ends a walk off the board). A literal whose
    variables are all bound by those stays as a test (a knight's jumps, sides that
    differ); every other literal goes: reads and tables that give nothing needed, and
    tests of what is forgotten. Dropping literals and forgetting arguments only adds derivations, so
    every row the whole rules derive is derived here; a walk that a dropped test would
    have ended earlier still ends at the edge of the board, and where a number then
    grows past the bound, the caller relaxes the whole rules instead. Relations of
    functions that read no fluent keep every position: their results are tables; so do the relations
    named in `whole` (a function's results, asked for), and then, so that those results keep what the
    arguments decide (chess: no piece goes from a1 to c4), the calls and results of every function called
    only with what its callers were given, never with a value read from the state or returned by another
    function (`Reaches(from, to)` is kept whole; the king-safety test, called with the king's square, is not).
    """
    precise = (_precise_functions(rules) if whole else set()) | _self_reading(rules)
    keep: dict[str, set[int]] = {}
    for r in rules:
        for x in (r.head, *r.body):
            if isinstance(x, Atom) and "|" in x.relation:
                fn, part = x.relation.split("|", 1)
                every = x.relation.endswith("@s") or x.relation in whole or (
                    fn in precise and part.startswith(("call", "result")))
                keep.setdefault(x.relation, set(range(len(x.args))) if every else set())
    changed = True
    while changed:
        check()
        changed = False
        for r in rules:
            changed |= _slice_rule(r, keep)[0]
    out = [_slice_rule(r, keep)[1] for r in rules]
    return list(dict.fromkeys(out))


def _self_reading(rules: list[Rule]) -> set[str]:
    """The functions that step their own result by arithmetic (a recursion: `Run` returning `1 + Run(next cell)`).

    Sliced to the value alone, such a result would be keyed by nothing: every value any call returns, fed
    back through `1 +`, gives every value up to the bound, and a caller adding three of them grounds the
    bound's cube before the overflow is seen (Yavalath's three lines through a stone: 10^9 rows). Keyed by
    its arguments, the recursion ends where the walk leaves the board, as the whole rules do."""
    out = set()
    calcs = set(CALCS.values())
    for r in rules:
        fn = r.head.relation.split("|", 1)[0]
        if "|" not in r.head.relation:
            continue
        own = {x.args[-1] for x in r.body if isinstance(x, Atom) and x.args and x.relation.startswith(fn + "|result")}
        # only a result that arithmetic steps (a value that can grow); a yes/no recursion (chess's attacks) is
        # bounded anyway, and keyed whole its slice would be far larger
        if any(isinstance(x, Atom) and x.relation in calcs and own & set(x.args) for x in r.body):
            out.add(fn)
    return out


def _precise_functions(rules: list[Rule]) -> set[str]:
    """The functions whose calls never pass a value read from the state or another function's result."""
    functions = {x.relation.split("|", 1)[0] for r in rules for x in (r.head, *r.body)
                 if isinstance(x, Atom) and "|" in x.relation}
    fed = set()
    for r in rules:
        if "|call" not in r.head.relation:
            continue
        read = {x.args[-1] for x in r.body if isinstance(x, Atom) and x.args
                and (x.relation.startswith("#read:") or "|result" in x.relation)}
        if any(a in read for a in r.head.args):
            fed.add(r.head.relation.split("|", 1)[0])
    return functions - fed


def _slice_rule(r: Rule, keep: dict[str, set[int]]) -> tuple[bool, Rule]:
    """One rule of the slice, with `keep` grown where a variable it needs has no other binding (changed?)."""
    own = [x for x in r.body if isinstance(x, Atom) and "|" in x.relation]
    builtin = [x for x in r.body if isinstance(x, Atom) and x.relation in BUILTIN_TABLES]
    tables = [x for x in r.body if isinstance(x, Atom) and "|" not in x.relation and x.relation not in BUILTIN_TABLES]
    read_out = {x.args[-1] for x in tables if x.relation.startswith("#read:")}
    tests = [x for x in r.body if isinstance(x, Distinct) and (isinstance(x.left, Const) or isinstance(x.right, Const))
             and not any(a in read_out for a in (x.left, x.right))]
    head = r.head
    needed = [a for i, a in enumerate(head.args) if "|" in head.relation and i in keep[head.relation]]
    needed += [a for x in builtin for a in x.args] + [a for x in tests for a in (x.left, x.right)]
    bound = {a for x in own for i, a in enumerate(x.args) if i in keep[x.relation]}
    bound |= {x.args[2] for x in builtin if x.relation in CALCS.values()}
    changed = False
    chosen: list[Atom] = []
    seen: set = set()
    todo = [a for a in needed if isinstance(a, Var)]
    while todo:
        v = todo.pop(0)
        if v in seen:
            continue
        seen.add(v)
        if v in bound:
            continue
        table = next((x for x in tables if x.args[-1] == v), None)
        if table is not None:  # a table or read gives it: keep it, with what its key is made of
            chosen.append(table)
            bound.add(v)
            todo += [a for a in table.args[:-1] if isinstance(a, Var)]
            continue
        position = next(((x, x.args.index(v)) for x in own if v in x.args), None)
        if position is not None:  # a function's relation gives it: keep that position
            keep[position[0].relation].add(position[1])
            bound.add(v)
            changed = True
            continue
        table = next((x for x in chosen + tables if v in x.args), None)
        if table is not None:  # only the key of a table kept has it: the table gives every key
            chosen.append(table)
            bound |= {a for a in table.args if isinstance(a, Var)}
    if "|" in head.relation:
        head = Atom(head.relation, tuple(a for i, a in enumerate(head.args) if i in keep[head.relation]))
    given = bound | {a for x in builtin for a in x.args}
    lookups = [x for x in tables if not x.relation.startswith("#read:") and not any(x is t for t in chosen)]
    grew = True
    while grew:  # a static lookup whose key the slice has gives one value: kept, it only cuts (ranks that agree)
        grew = False
        for x in lookups:
            if not any(x is t for t in chosen) and all(a in given for a in _variables(Atom("", x.args[:-1]))):
                chosen.append(x)
                given |= _variables(x)
                grew = True
    body = []
    for x in r.body:  # in their order: an arithmetic literal asks for its rows from the literals before it
        if isinstance(x, Atom) and "|" in x.relation:
            body.append(Atom(x.relation, tuple(a for i, a in enumerate(x.args) if i in keep[x.relation])))
        elif x in builtin or x in tests or any(x is t for t in chosen):
            body.append(x)
        elif all(v in given for v in _variables(x)):
            body.append(x)  # a test of what the slice has anyway (a knight's jumps, a side): it only cuts
    return changed, Rule(head, _operands_first(body))


def _operands_first(body: list) -> tuple:
    """`body` in its order, but each arithmetic or comparison literal after the literals that bind its
    operands: the relaxed program asks for a table's rows from the literals before it (`_relaxed_program`), and
    the slice may bind an operand only by a later literal (a loop's index forgotten in the loop's relation,
    given by a table of the cells read further on: `y < 5` then `CellAt(x, y)`), which clingo refuses as
    unsafe. Literals whose operands are bound stay where they were."""
    placed: list = []
    have: set = set()
    waiting: list = []

    def place(x) -> None:
        placed.append(x)
        have.update(_variables(x))

    for x in body:
        if isinstance(x, Atom) and x.relation in BUILTIN_TABLES and not set(_operands(x)) <= have:
            waiting.append(x)
            continue
        place(x)
        ready = True
        while ready:
            ready = next((w for w in waiting if set(_operands(w)) <= have), None)
            if ready is not None:
                waiting.remove(ready)
                place(ready)
    return tuple(placed + waiting)


BUILTIN_TABLES = set(CALCS.values()) | set(COMPARE.values())
# clingo's `/` truncates and its `\\` keeps the dividend's sign, as the runtime's `%` (fmod) does
_ASP_OPS = {"#plus": "+", "#minus": "-", "#times": "*", "#divide": "/", "#remainder": "\\", "#lt": "<", "#le": "<=",
            "#gt": ">", "#ge": ">="}
DIVISIONS = ("#divide", "#remainder")


TABLE_NAMES = {"#plus": "plus", "#minus": "minus", "#times": "times", "#divide": "divide", "#remainder": "remainder",
               "#lt": "less", "#le": "less_or_equal", "#gt": "greater", "#ge": "greater_or_equal"}


def table_name(rel: str) -> str:
    """The GDL name (before it is made unique) of a table of the compiled rules: `plus`, `file_of`, `table`."""
    base = TABLE_NAMES.get(rel)
    if base is None:
        base = rel[7:] + "_of" if rel.startswith("#field:") else "table"
    return base


def _is_table(rel: str) -> bool:
    """Is `rel` a table in the output (arithmetic, a static table or field, a function that reads no fluent)?"""
    return rel.endswith("@s") or rel in BUILTIN_TABLES or rel.startswith(("#static", "#field:"))


def _reads_fluents(hc: HornCompiler, key: str, seen: set[str]) -> bool:
    if key in seen:
        return False
    seen.add(key)
    hf = hc.functions.get(key) or hc._building[key]
    return any(a in hc.fluent_attrs for a in hf.reads) or any(_reads_fluents(hc, k, seen) for k in hf.calls)


def _asp_name(rel: str) -> str:
    """An ASP predicate name for an internal relation name (kept readable, made unique by a hash)."""
    import hashlib

    return "h_" + hashlib.sha1(rel.encode()).hexdigest()[:12]


def _asp_term(t) -> str:
    if isinstance(t, Var):
        return t.name
    name = t.name
    if name.lstrip("-").isdigit():
        return name
    return '"' + name.replace('"', '\\"') + '"'


def _relaxed_program(rules: list[Rule], facts: dict[str, list[tuple]], inline: bool = False,
                     bound: int | None = None) -> str:
    """The compiled rules as one positive ASP program, with arithmetic done by clingo on the rows asked for.

    `bound`: the largest number an arithmetic row may give (default BOUND; tgpl.lowering.rungs grounds the
    counters' relaxation at smaller ones first).

    `inline`: each comparison is tested in its rule's body instead (`A > B`), with no table of its rows: the
    same model but for those tables, without them, which two counters compared with each other make the
    product of their ranges (`overflow_first`).

    Each arithmetic or comparison literal asks for its row (`need`, from the body
    before it) and reads it from a table clingo fills; a result beyond the bound is
    `overflow`, and no row, which keeps the grounding finite.

    A body whose parts meet only in its first literal (`_independent_parts`) is
    grounded part by part, each part's existence a relation of its own (`part_N`,
    of the first literal's variables it reads): the same model, without the product
    of the parts' rows (Pente's `MakesFive`, the run lengths of four lines through a
    point added up line by line, 9^8 rows a point joined whole, minutes of grounding).
    """
    bound = BOUND if bound is None else bound
    lines = []
    for rel, rows in facts.items():
        name = _asp_name(rel)
        for row in rows:
            lines.append(f"{name}({','.join(map(_asp_term, row))}).")
    builtins = set()
    made = itertools.count()  # the relations made here: a part's, a prefix's
    for r in rules:
        # a closure's `no` (`not` found): the relaxation finds `found` of almost every row, so would never give
        # `no`; without the `not`, `no` is possible wherever the search is asked (still an over-approximation)
        if any(isinstance(x, Not) and _is_found(x.literal) for x in r.body):
            r = Rule(r.head, tuple(x for x in r.body if not (isinstance(x, Not) and _is_found(x.literal))), r.span)
        positive = all(isinstance(x, (Atom, Distinct)) for x in r.body)
        parts = _independent_parts(r)
        later = _later_variables(r.head, [x for group, _ in parts for x in group])  # in the parts' order
        body: list[str] = []
        have: set[str] = set()  # the variables the body so far binds
        k = 0
        for group, shared in parts:
            saved = (list(body), set(have))
            owed = {v.name for v in shared or ()}  # what the part holds of
            inner = _later_variables(None, list(group))  # a part's prefixes carry what the part reads, not the head
            for j, x in enumerate(group):
                if inline and isinstance(x, Atom) and x.relation in COMPARE.values():
                    body.append(f"{_asp_term(x.args[0])} {_ASP_OPS[x.relation]} {_asp_term(x.args[1])}")
                    have |= {v.name for v in x.variables()}
                    k += 1
                    continue
                if isinstance(x, Atom) and x.relation in _ASP_OPS:
                    if positive and len(body) > 1:  # the prefix, once, of what the rest reads of it
                        kept = sorted(have & ((later[k] if shared is None else inner[j]) | owed))
                        prefix = f"pre_{next(made)}" + (f"({','.join(kept)})" if kept else "")
                        lines.append(f"{prefix} :- {', '.join(body)}.")
                        body, have = [prefix], set(kept)
                    builtins.add(x.relation)
                    ins = x.args if x.relation in COMPARE.values() else x.args[:2]
                    need = f"need_{_asp_name(x.relation)}({','.join(map(_asp_term, ins))})"
                    lines.append(f"{need} :- {', '.join(body)}." if body else f"{need}.")
                    if x.relation in CALCS.values():  # which function grows past the bound, for the refusal
                        a, b = map(_asp_term, x.args[:2])
                        function = _asp_term(Const(r.head.relation.split("|")[0]))
                        grows = f"|{a}{_ASP_OPS[x.relation]}{b}| > {bound}"
                        lines.append(f"overflow({function}) :- {', '.join(body + [grows])}.")
                    if x.relation in DIVISIONS:
                        lines += _inexact_rules(x, function, body)
                body.append(_asp_literal(x))
                have |= {v.name for v in x.variables()}
                k += 1
            if shared is not None:  # the part, grounded on its own: its rows are only whether it holds
                part = f"part_{next(made)}" + (f"({','.join(v.name for v in shared)})" if shared else "")
                lines.append(f"{part} :- {', '.join(body)}.")
                body, have = saved[0] + [part], saved[1]
        head = _asp_literal(r.head)
        lines.append(f"{head} :- {', '.join(body)}." if body else f"{head}.")
    for rel in sorted(builtins):
        name, op = _asp_name(rel), _ASP_OPS[rel]
        if rel in COMPARE.values():
            lines.append(f"{name}(A,B) :- need_{name}(A,B), A {op} B.")
        elif rel in DIVISIONS:  # only exact rows: the others are refused (`_inexact_rules`)
            lines.append(f"{name}(A,B,A{op}B) :- need_{name}(A,B), B != 0, A\\B = 0." if rel == "#divide" else
                         f"{name}(A,B,A{op}B) :- need_{name}(A,B), B != 0.")
        else:
            lines.append(f"{name}(A,B,A{op}B) :- need_{name}(A,B), -{bound} <= A{op}B, A{op}B <= {bound}.")
    return "\n".join(lines) + "\n"


def _inexact_rules(x: Atom, function: str, body: list[str]) -> list[str]:
    """The relaxation's `inexact(function, at, op, a, b)` rows: a division `x` asked to divide by zero (the
    runtime stops with an error) or, for `/`, to give a quotient that is not whole (the compiled rules hold whole
    numbers only). `at` locates the operator (`span_key`). The rows asked for are all a state can ask (the tables
    are made of them), so where there is none no state divides so; where there is one the lowering refuses."""
    a, b = map(_asp_term, x.args[:2])
    op = "/" if x.relation == "#divide" else "%"
    head = f"inexact({function},{_asp_string(span_key(x.span))},{_asp_string(op)},{a},{b})"
    out = [f"{head} :- {', '.join(body + [b + ' = 0'])}."]
    if op == "/":
        out.append(f"{head} :- {', '.join(body + [b + ' != 0', a + chr(92) + b + ' != 0'])}.")
    return out


def span_key(span: Span | None) -> str:
    """A span as text, for a constant of the relaxation (`inexact`), read back by `span_of_key`."""
    if span is None:
        return ""
    return json.dumps([span.file, span.line, span.col, span.end_line, span.end_col])


def span_of_key(key: str) -> Span | None:
    return Span(*json.loads(key)) if key else None


def _asp_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


INEXACT = ("inexact", 5)


def inexact_division(model: dict) -> Unsupported | None:
    """The refusal, located at the operator, of the first division the relaxation (`model`, with INEXACT) found
    asked to divide by zero or to give a quotient that is not whole; None where none was."""
    rows = sorted(model.get(INEXACT, []), key=lambda row: tuple(t.name for t in row))
    if not rows:
        return None
    _, at, op, a, b = rows[0]
    try:
        whole_calc(op.name, int(a.name), int(b.name), span_of_key(at.name))
    except Unsupported as e:
        e.args = (f"the operator {op.name}: {e.args[0]} where a state can ask it",)
        return e
    return None


def _is_found(x) -> bool:
    """A closure's positive answer (`F|found`, renamed `F|found@ctx` per context)."""
    if not isinstance(x, Atom) or "|" not in x.relation:
        return False
    return x.relation.split("|", 1)[1].split("@", 1)[0] == "found"


def _later_variables(head: Atom | None, body: list) -> list[set[str]]:
    """Per position k of `body`, the names of the variables `head` (if any) and the literals from k on read."""
    out = [{v.name for v in head.variables()} if head is not None else set()]
    for x in reversed(body):
        out.append(out[-1] | {v.name for v in x.variables()})
    return out[::-1]


def _independent_parts(r: Rule) -> list[tuple[tuple, tuple[Var, ...] | None]]:
    """The body of `r` as runs of literals: the first literal, then the runs that share no variable with each
    other but the first literal's, each run's literals in the body's order (a positive body's order does not
    change its model, and a literal's inputs are bound by earlier literals of its own run). A run whose own
    variables the head does not read comes with the first literal's variables it reads (it can be grounded
    alone and kept as whether it holds: no row of it changes the head), any other with None; the runs alone
    come first, so that none is joined with the prefix of a run the head reads. The whole body is one run
    where no run can be grounded alone, or where a literal is negated (the relaxation's rules are positive).
    Morris's `Take` tests the other seat's men between reading its own seat's hand and writing it: runs that
    interleave so were once grounded as one, every value of one counter times every value of the other."""
    whole = [(r.body, None)]
    if len(r.body) < 3 or not all(isinstance(x, (Atom, Distinct)) for x in r.body):
        return whole
    first = r.body[0]
    if not isinstance(first, Atom) or first.relation in _ASP_OPS:
        return whole
    bound = set(first.variables())
    rest = r.body[1:]
    part = Partition(range(len(rest)))  # the literals, joined by the variables not bound by the first
    seen: dict[Var, int] = {}
    for i, x in enumerate(rest):
        for v in set(x.variables()) - bound:
            if v in seen:
                part.union(i, seen[v])
            seen.setdefault(v, i)
    groups: dict[int, list[int]] = {}  # the components, each in the body's order, by its first literal
    for i in range(len(rest)):
        groups.setdefault(part.find(i), []).append(i)
    head = set(r.head.variables())
    out = [((first,), None)]
    for members in groups.values():
        group = tuple(rest[i] for i in members)
        names = {v for x in group for v in x.variables()}
        mine = names - bound
        alone = mine and not (mine & head)
        out.append((group, tuple(sorted(names & bound, key=lambda v: v.name))
                    if alone else None))
    if all(shared is None for _, shared in out):
        return whole
    # the runs grounded alone first, each on the first literal only: after the others, a run would be joined
    # with their prefix, whose rows (every counter the head writes) it would multiply
    return out[:1] + [p for p in out[1:] if p[1] is not None] + [p for p in out[1:] if p[1] is None]


def _asp_literal(x) -> str:
    if isinstance(x, Distinct):
        return f"{_asp_term(x.left)} != {_asp_term(x.right)}"
    if isinstance(x, Not):
        return "not " + _asp_literal(x.literal)
    args = ",".join(map(_asp_term, x.args))
    return f"{_asp_name(x.relation)}({args})" if args else _asp_name(x.relation)


def _only_model(program: str, wanted: set[tuple[str, int]]) -> dict[tuple[str, int], list[tuple[Const, ...]]] | None:
    """The atoms of the `wanted` predicates in the one answer set of a program with negation (stratified over
    facts: the tables of functions that read no state); None where it has none or several. Raises RuntimeError
    with clingo's first error (`_grounded`)."""
    ctl = _grounded(program, ("--models=2",))
    models = []
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            models.append(m.symbols(atoms=True))
    if len(models) != 1:
        return None
    out: dict[tuple[str, int], list[tuple[Const, ...]]] = {key: [] for key in wanted}
    for atom in models[0]:
        key = (atom.name, len(atom.arguments))
        if key in out:
            out[key].append(_row(atom.arguments))
    return out


def _model(program: str, wanted: set[tuple[str, int]]) -> dict[tuple[str, int], list[tuple[Const, ...]]]:
    """The atoms of the `wanted` predicates in the single model of a positive program (grounding decides it).
    Raises RuntimeError with clingo's first error (`_grounded`)."""
    ctl = _grounded(program)
    out: dict[tuple[str, int], list[tuple[Const, ...]]] = {}
    for name, arity in sorted(wanted):
        rows = out.setdefault((name, arity), [])
        for atom in ctl.symbolic_atoms.by_signature(name, arity):
            rows.append(_row(atom.symbol.arguments))
    return out


def _grounded(program: str, options: tuple[str, ...] = ()):
    """A clingo Control (with `options`) that has grounded `program`. Its errors are logged and kept: clingo's
    exception only says that there were some, and a refusal (`relaxation_refused`) names the rule from the
    first (`_first_error`), raised as the RuntimeError's text."""
    import clingo

    messages: list[str] = []
    ctl = clingo.Control(["--warn=none", *options], logger=lambda code, message: messages.append(message))
    try:
        ctl.add("base", [], program)
        ctl.ground([("base", [])])
    except RuntimeError as e:
        raise RuntimeError(_first_error(messages) or str(e)) from None
    return ctl


def _first_error(messages: list[str]) -> str:
    """The first of clingo's error messages, on one line, without the `<block>:L:C` of a program no one sees."""
    for m in messages:
        if "error" in m:
            text = " ".join(m.split())
            return re.sub(r"^<block>:[0-9:-]+: ", "", text)
    return ""


def _unsafe_operand(rule: Rule) -> tuple[Atom, Var] | None:
    """The first arithmetic or comparison literal of `rule` with an operand no other literal binds, and that
    operand, else the head and a variable of it nothing binds: the relaxed program asks for a table's rows with
    its operands known (`_relaxed_program`), so such a rule is one clingo refuses as unsafe. Bound: what a
    relation (not a table) holds, and a calculation's result once its operands are bound."""
    tables = [x for x in rule.body if isinstance(x, Atom) and x.relation in BUILTIN_TABLES]
    bound = {v for x in rule.body if isinstance(x, Atom) and x.relation not in BUILTIN_TABLES
             for v in _variables(x)}
    grew = True
    while grew:
        grew = False
        for x in tables:
            if x.relation in CALCS.values() and set(_operands(x)) <= bound and isinstance(x.args[2], Var) \
                    and x.args[2] not in bound:
                bound.add(x.args[2])
                grew = True
    for x in [*tables, rule.head]:
        loose = [a for a in (_operands(x) if x is not rule.head else _variables(x)) if a not in bound]
        if loose:
            return x, loose[0]
    return None


def _operands(x: Atom) -> list[Var]:
    """The variables a table's row is asked for by: a calculation's two operands, a comparison's both sides."""
    ins = x.args[:2] if x.relation in CALCS.values() else x.args
    return [a for a in ins if isinstance(a, Var)]


def relaxation_refused(rules: list[Rule], numeric: set[int], error: str, what: str = "the counters' range search",
                       whose: str = "the compiled moves") -> Unsupported:
    """Why clingo could not ground a relaxation (`what` it is for), located at the literal that made a rule
    unsafe. A counter changed by a number the relaxation forgot (worked out from a value `compiled._without`
    dropped, which `compiled._forgotten` leaves bound by nothing; a local counted in a loop is followed,
    `compiled._feeding_literals`) is a limit of the compiled moves, refused at the write; spelled out, such a
    game lowers. Anything else unsafe is the lowering's own limitation, said as
    such (`whose` limitation: the compiled moves', or the compiled functions' whose tables `instantiate` finds),
    with clingo's text. Looked for only once clingo has refused: a game that grounds is never refused here."""
    for r in rules:
        found = _unsafe_operand(r)
        if found is None:
            continue
        x, v = found
        span = x.span or r.span
        if id(x) in numeric and x.relation in CALCS.values():
            return Unsupported.at(span, (
                "the compiled moves cannot follow the number this counter is changed by: it is worked out "
                "apart from every counter from values the counters' range search forgets (a compiled "
                "function's result); lower the moves spelled out (--moves spelled, which `auto` "
                "falls back to)"))
        return Unsupported.at(span, (
            f"internal limitation of {whose}: {what} left a value here bound by nothing "
            f"(`{v}` of `{x}`; clingo: {error})"))
    return Unsupported(f"internal limitation of {whose}: {what} could not be grounded (clingo: {error})")


def _row(arguments) -> tuple[Const, ...]:
    """A clingo atom's arguments as the relaxation's terms: a number's digits, a string's text (`_asp_term`)."""
    import clingo

    return tuple(Const(str(a.number)) if a.type == clingo.SymbolType.Number else Const(a.string) for a in arguments)
