"""Symbolic values for the lowering: formulas over the state, case maps and opaque numbers.

The lowering executes TGPL code once for all states at the same time. A value
that depends on the state before the move is symbolic:

- a `Formula` is a boolean over *literals*: a fluent having a value, a move
  being made, the control being in a given state, or a comparison of opaque
  numbers. Formulas are hash-consed (one object per structure), so equal
  conditions met on different paths are the same object: they share the
  relation they are emitted as, and `And` sees `x` and `not x` meet;
- a `Choice` is a finite case map `{value: formula}` with mutually exclusive
  formulas: the value of a fluent of an object type before the move, or a value
  that differs between merged paths;
- a `Num` is an opaque number: an expression over numeric fluents. Numeric
  fluents have no range known in advance, so arithmetic on them is kept as
  an expression and their range is found afterwards by a fixpoint over the
  segments (`tgpl.lowering.domains`); only then are expressions expanded.

Concrete values are those of the runtime: None, bool, float, str, `UObj`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Callable, Iterable, Iterator, Union

# ================================================================= formulas


class Formula:
    """A hash-consed boolean formula; build with `lit`, `conj`, `disj`, `neg`."""

    __slots__ = ("kind", "parts", "key", "id", "excl", "__weakref__")
    _table: dict = {}
    _count = itertools.count()

    kind: str  # "true" | "false" | "lit" | "and" | "or" | "not"
    parts: tuple  # children (and/or/not) or ()
    key: object  # the literal's key (lit) or None
    excl: tuple | None  # a literal's (cell, value) as `exclusive` gives them, else None

    def __new__(cls, kind: str, parts: tuple = (), key: object = None):
        k = (kind, parts, key)
        found = cls._table.get(k)
        if found is not None:
            return found
        self = object.__new__(cls)
        self.kind, self.parts, self.key = kind, parts, key
        self.id = next(cls._count)
        self.excl = exclusive(key) if kind == "lit" else None
        cls._table[k] = self
        return self

    def __deepcopy__(self, memo):
        return self

    def __hash__(self) -> int:
        # the creation number, not the address: sets and dicts of formulas then iterate in an order set by
        # the lowering alone, never by what the process allocated before it (the figures and rules of a
        # lowering were otherwise a part or two apart after another game's). Equality stays identity.
        return self.id

    @classmethod
    def fresh_table(cls) -> None:
        """Forget the formulas of earlier lowerings, so that a lowering's output never depends on them.

        Children are ordered by creation, so formulas left over from another game
        (a move literal both games have) would order differently than in a fresh
        process. The creation numbers start again after TRUE and FALSE, so that they (and so the order in
        which sets of formulas iterate) are the same in every lowering of the same game.
        """
        cls._table = {k: f for k, f in cls._table.items() if f.kind in ("true", "false")}
        cls._count = itertools.count(2)
        _CONJ.clear()
        _CELLS.clear()

    def __repr__(self) -> str:
        if self.kind == "lit":
            return f"{self.key}"
        if self.kind in ("true", "false"):
            return self.kind
        return f"({self.kind} {' '.join(map(repr, self.parts))})"


TRUE = Formula("true")
FALSE = Formula("false")


@dataclass(frozen=True, slots=True)
class FluentLit:
    """The fluent `attr` of object `obj` has the concrete value `value`."""

    obj: str
    attr: str
    value: object

    def __repr__(self) -> str:
        return f"{self.obj}.{self.attr}={self.value!r}"


@dataclass(frozen=True, slots=True)
class ViewLit:
    """At checkpoint `view` of a segment, the fluent `attr` of `obj` has `value`.

    A view is the state as the writes made so far in the segment left it (the
    board after the tick, when the win check phase reads it). Reads through a
    view are literals of one relation, as reads of the state before the move
    are, instead of the written values spelled out by cases in every formula
    that reads them; so code that reads after a write stays as small as code
    that reads before it, and the same code run after different moves reads
    the same literals.
    """

    view: int
    obj: str
    attr: str
    value: object

    def __repr__(self) -> str:
        return f"{self.obj}.{self.attr}@{self.view}={self.value!r}"


@dataclass(frozen=True, slots=True)
class MoveLit:
    """The move `move` (an index into the lowering's move table) is being made."""

    move: int

    def __repr__(self) -> str:
        return f"does#{self.move}"


@dataclass(frozen=True, slots=True)
class ControlLit:
    """Control before the move is (player, turn, phase)."""

    control: tuple

    def __repr__(self) -> str:
        return f"control{self.control}"


@dataclass(frozen=True, slots=True)
class CmpLit:
    """`left op right` on numbers, at least one side opaque."""

    op: str
    left: object
    right: object

    def __repr__(self) -> str:
        return f"[{self.left!r} {self.op} {self.right!r}]"


@dataclass(frozen=True, slots=True)
class CallLit:
    """A pure function called with concrete arguments returns `value`: a named relation of the output.

    `cases` holds, for every value the call can return, the formula under which
    it does; all CallLits of one call share it, which makes them exclusive and
    lets equal calls on different paths be one relation.
    """

    function: str
    args: tuple
    value: object
    cases: tuple  # ((value, Formula), ...)
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        # the fields' hash, as a dataclass's, kept: each `lit` of a call looks its key up twice, and its cases
        # hash every formula in them (Jungle: a sixth of its CPU)
        h = self._hash
        if h is None:
            h = hash((self.function, self.args, self.value, self.cases))
            object.__setattr__(self, "_hash", h)
        return h

    @property
    def body(self) -> Formula:
        key = vkey(self.value)
        return next(f for v, f in self.cases if vkey(v) == key)

    def __repr__(self) -> str:
        return f"{self.function}{self.args!r}={self.value!r}"


@dataclass(frozen=True, slots=True)
class HornLit:
    """A compiled function (tgpl.lowering.horn) called with concrete arguments returns `value`.

    `function` is the compiled instance's key, `context` the id of the views its
    reads go through (Executor.horn_contexts); `args` are the compiler's constants.
    """

    function: str
    context: int
    args: tuple
    value: object

    def __repr__(self) -> str:
        return f"{self.function}@{self.context}{self.args!r}={self.value!r}"


class CountSite:
    """A local number counted by tests (`if (x == k) { n += 1; }`) as a relation of its values after one such
    step (tgpl.lowering.counted_ifs): `contributions` are (path condition, ((value, formula), ...)) of each path
    that ran the step, their conditions exclusive, as a view's are. Equal by identity, hashed by its number, so
    that sets of literals iterate in an order the lowering alone sets."""

    __slots__ = ("id", "name", "contributions")

    def __init__(self, number: int, name: str):
        self.id = number
        self.name = name
        self.contributions: list[tuple[Formula, tuple]] = []

    def __hash__(self) -> int:
        return self.id

    def __deepcopy__(self, memo):
        return self

    def __repr__(self) -> str:
        return f"{self.name}#{self.id}"


@dataclass(frozen=True, slots=True)
class CountLit:
    """The counted local of `site` has the value `value` after its step (a row of the chain of its counts)."""

    site: CountSite
    value: object

    def __repr__(self) -> str:
        return f"{self.site!r}={self.value!r}"


@dataclass(frozen=True, slots=True)
class AnyLit:
    """Some call of `function` (reading the views `context`) returns true: `body` is the union of the
    calls' conditions. An anchored check (`MakesFour(c, r)` of the cell just filled) made global, where
    clingo has proven that the two agree on every reachable state (tgpl.lowering.globalize)."""

    function: str
    context: tuple
    body: Formula

    def __repr__(self) -> str:
        return f"any {self.function}"


def lit(key) -> Formula:
    return Formula("lit", (), key)


def neg(f: Formula) -> Formula:
    if f is TRUE:
        return FALSE
    if f is FALSE:
        return TRUE
    if f.kind == "not":
        return f.parts[0]
    return Formula("not", (f,))


_work = [0]  # the parts of every conjunction and disjunction built, in this process


def work_done() -> int:
    """The parts of the conjunctions and disjunctions built so far (the executor's budget of formula work:
    statements alone do not bound it when a loop widens a formula pass after pass)."""
    return _work[0]


by_id = attrgetter("id")  # a formula's creation number: the deterministic order of parts and conjuncts


def _sorted(parts: Iterable[Formula]) -> tuple:
    parts = set(parts)
    _work[0] += len(parts)
    return tuple(sorted(parts, key=by_id))


def _exclusive_cell(key) -> object:
    """What a literal assigns one value at a time (None for literals that exclude nothing):
    a fluent, a fluent seen through a view, the move, the control, a call's result."""
    kind = type(key)
    if kind is FluentLit:
        return (key.obj, key.attr)
    if kind is ViewLit:
        return ("view", key.view, key.obj, key.attr)
    if kind is ControlLit or kind is MoveLit:
        return kind
    if kind is HornLit:
        return ("horn", key.function, key.context, key.args)
    if kind is CallLit:
        return ("call", key.function, key.args, key.cases)
    if kind is CountLit:
        return ("count", key.site.id)
    return None


def _exclusive_value(key) -> object:
    kind = type(key)
    return key if kind is ControlLit or kind is MoveLit else key.value


class Cell:
    """What a literal assigns one value at a time, as one object per cell of a lowering (`exclusive`): its hash and
    equality are the object's own, in C, where a cell's tuple hashed its parts again at every look-up (a call's
    cell holds all its cases' formulas). Only looked up, never iterated, so its address-based hash orders nothing."""

    __slots__ = ("key",)

    def __init__(self, key: object) -> None:
        self.key = key  # `_exclusive_cell`'s key, for reading


_CELLS: dict[object, Cell] = {}  # `_exclusive_cell`'s key -> its Cell, for one lowering (Formula.fresh_table)


def exclusive(key) -> tuple[Cell, object] | None:
    """The cell a literal's key assigns and the value it gives it (None for a literal that excludes nothing): two
    literals clash when they give one cell two values. Kept on each literal formula (`Formula.excl`): `clash`,
    `Conjuncts.extended` and the consensus ask it of every conjunct of millions of terms."""
    cell = _exclusive_cell(key)
    if cell is None:
        return None
    found = _CELLS.get(cell)
    if found is None:
        found = _CELLS[cell] = Cell(cell)
    return found, _exclusive_value(key)


_CONJ: dict[tuple, Formula] = {}  # (a, b) -> conj(a, b): formulas are interned, and paths conjoin alike again and again


def conj(*fs: Formula) -> Formula:
    if len(fs) == 2:
        pair = fs
        found = _CONJ.get(pair)
        if found is None:
            found = _CONJ[pair] = _conj(fs)
        return found
    if len(fs) == 1:
        return _alone(fs[0])
    return _conj(fs)


def _alone(f: Formula) -> Formula:
    """conj(f): f itself, its parts counted as `_conj` counts them when it builds f again (`lift` conjoins the cases
    of one argument, a Choice's, one by one). A conjunction is clash-free, `_conj` the only one to build it."""
    if f.kind == "and":
        _work[0] += len(f.parts)
    return f


def _conj(fs: tuple) -> Formula:
    parts: set[Formula] = set()
    for f in fs:
        if f is FALSE:
            return FALSE
        if f is TRUE:
            continue
        if f.kind == "and":
            parts.update(f.parts)
        else:
            parts.add(f)
    if not parts:
        return TRUE
    if clash(parts):
        return FALSE
    if len(parts) == 1:
        return next(iter(parts))
    return Formula("and", _sorted(parts))


def clash(parts: set | frozenset) -> bool:
    """Whether conjuncts (no TRUE, FALSE or conjunction among them) cannot hold together: one is another's
    negation, or two give one cell two values. What makes `conj` FALSE."""
    values: dict = {}
    for p in parts:
        kind = p.kind
        if kind == "not":
            if p.parts[0] in parts:
                return True
        elif kind == "lit":
            excl = p.excl
            if excl is not None:
                cell, value = excl
                if values.setdefault(cell, value) != value:
                    return True
    return False


@dataclass(slots=True)
class Conjuncts:
    """A clash-free set of conjuncts (no TRUE, FALSE or conjunction among them) with what they assign (cell ->
    value) and negate, so that whether more conjuncts clash with them is asked of those alone: multiplying out a
    condition (minimize._expand) extends terms of dozens of conjuncts by one or two, millions of times, and
    `clash` of the whole union went through every conjunct each time (Kalah's emission, a third of it).
    `extended` is for sets that are not `general`. Never changed once made, but not frozen: a frozen dataclass sets
    each field through object.__setattr__, and `extended` makes millions of them (Jungle's sample, 5.5 million)."""

    parts: frozenset
    cells: dict
    negated: frozenset
    general: bool = False  # parts that `clash` does not judge (a conjunction, FALSE): `_contradictory` does

    @staticmethod
    def empty() -> "Conjuncts":
        return Conjuncts(frozenset(), {}, frozenset())

    def extended(self, more: frozenset) -> "Conjuncts | None":
        """self and `more` (clash-free itself) together, or None where they clash: exactly when
        clash(self.parts | more). Only the conjuncts new to self are looked at, found by set operations on
        the hashes the sets hold (a Formula's own hash is a Python call)."""
        parts, cells = self.parts, self.cells
        fresh = more - parts
        if not fresh:
            return Conjuncts(parts | more, cells, self.negated)
        if not self.negated.isdisjoint(fresh):
            return None
        added: dict = {}
        negated = []
        for p in fresh:
            kind = p.kind
            if kind == "not":
                if p.parts[0] in parts:
                    return None
                negated.append(p.parts[0])
            elif kind == "lit":
                excl = p.excl
                if excl is not None:
                    cell, value = excl
                    if cells.get(cell, value) != value:
                        return None
                    added[cell] = value
        if not added and not negated:
            return Conjuncts(parts | more, cells, self.negated)
        return Conjuncts(parts | more, {**cells, **added} if added else cells,
                         self.negated.union(negated) if negated else self.negated)


def disj(*fs: Formula) -> Formula:
    if len(fs) == 1 and fs[0].kind != "or":  # a case of one path (`choice`): itself, no set built to find it
        return fs[0]
    parts: set[Formula] = set()
    for f in fs:
        if f is TRUE:
            return TRUE
        if f is FALSE:
            continue
        if f.kind == "or":
            parts.update(f.parts)
        else:
            parts.add(f)
    if not parts:
        return FALSE
    for p in parts:
        if p.kind == "not" and p.parts[0] in parts:
            return TRUE
    if len(parts) == 1:
        return next(iter(parts))
    return Formula("or", _sorted(parts))


def disjuncts(f: Formula) -> tuple[Formula, ...]:
    """`f` read as a disjunction: its parts where it is an "or", else `f` alone."""
    return f.parts if f.kind == "or" else (f,)


def conjuncts(f: Formula) -> tuple[Formula, ...]:
    """`f` read as a conjunction: its parts where it is an "and", else `f` alone."""
    return f.parts if f.kind == "and" else (f,)


def literals(f: Formula, into_calls: bool = False) -> Iterable[object]:
    """Every literal key under f, each once; with `into_calls`, under the conditions of the calls it makes too."""
    return literals_of((f,), into_calls)


def literals_of(fs: Iterable[Formula], into_calls: bool = False) -> Iterable[object]:
    """Every literal key under any of fs, each once (their shared parts walked once)."""
    seen: set[int] = set()
    todo = list(fs)
    while todo:
        g = todo.pop()
        if g.id in seen:
            continue
        seen.add(g.id)
        if g.kind == "lit":
            yield g.key
            if into_calls and type(g.key) is CallLit:
                todo.extend(c for _, c in g.key.cases)
        todo.extend(g.parts)


def evaluate3(f: Formula, known: Callable[[object], bool | None], memo: dict | None = None) -> bool | None:
    """Three-valued value of f when `known(key)` tells some literals (None: unknown)."""
    if memo is None:
        memo = {}
    got = memo.get(f.id, 0)
    if got != 0:
        return got
    if f is TRUE:
        r: bool | None = True
    elif f is FALSE:
        r = False
    elif f.kind == "lit":
        r = known(f.key)
    elif f.kind == "not":
        v = evaluate3(f.parts[0], known, memo)
        r = None if v is None else not v
    elif f.kind == "and":
        r = True
        for p in f.parts:
            v = evaluate3(p, known, memo)
            if v is False:
                r = False
                break
            if v is None:
                r = None
    else:
        r = False
        for p in f.parts:
            v = evaluate3(p, known, memo)
            if v is True:
                r = True
                break
            if v is None:
                r = None
    memo[f.id] = r
    return r


def compatible(pc: Formula, f: Formula, known: Callable[[object], bool | None] | None = None) -> bool:
    """Whether pc and f are not seen to contradict each other where `known` decides some literals.

    The literals both are conjunctions of (with what they exclude: one move, one value per cell) are
    assumed, and every other conjunct of either is evaluated three-valued under them and `known`: a
    contradiction hidden in a disjunction or under a negation (`not (or does#0 does#1)` against
    `does#0`), which `conj` does not look for, is found, and so is one that needs f whole: f is true
    wherever it occurs within pc. No formula is built. A disjunction f is compatible where one of its
    parts is."""
    if pc is FALSE or f is FALSE:
        return False
    if f.kind == "or":
        return any(compatible(pc, part, known) for part in f.parts)
    parts = [x for g in (pc, f) if g is not TRUE for x in conjuncts(g)]
    literals = {x for x in parts if x.kind == "lit" or (x.kind == "not" and x.parts[0].kind == "lit")}
    if clash(literals):
        return False
    true: set = set()
    false: set = set()
    cells: dict = {}
    for x in literals:
        if x.kind == "lit":
            true.add(x.key)
            cell = _exclusive_cell(x.key)
            if cell is not None:
                cells[cell] = _exclusive_value(x.key)
        else:
            false.add(x.parts[0].key)

    def assumed(key):
        if key in true:
            return True
        if key in false:
            return False
        cell = _exclusive_cell(key)
        if cell is not None and cell in cells and cells[cell] != _exclusive_value(key):
            return False
        return known(key) if known is not None else None

    # f holds: so does every occurrence of it (and of its conjuncts) within pc, however deep. A counter
    # compared after a write by cases reads the same formula for its case (chess's Quiet, a quiet move)
    memo: dict = {f.id: True}
    for part in f.parts if f.kind == "and" else ():
        memo[part.id] = True
    if f.kind == "not":
        memo[f.parts[0].id] = False
    return all(evaluate3(x, assumed, memo) is not False
               for x in (parts if known is not None else [x for x in parts if x not in literals]))


def settle(f: Formula, known: Callable[[object], bool | None], memo: dict) -> Formula:
    """f with every literal `known` decides replaced by its truth, simplified (memo: formula id -> result)."""
    got = memo.get(f.id)
    if got is not None:
        return got
    if f.kind == "lit":
        v = known(f.key)
        r = f if v is None else TRUE if v else FALSE
    elif f.kind in ("not", "and", "or"):
        r = rebuild(f, [settle(p, known, memo) for p in f.parts])
    else:
        r = f
    memo[f.id] = r
    return r


def parts_first(f: Formula, done: dict) -> Iterator[Formula]:
    """The formulas under f not yet in `done` (keyed by id), each after its parts, iteratively: conditions nest
    thousands deep. The caller enters each one it is given in `done` before asking for the next."""
    todo = [f]
    while todo:
        g = todo[-1]
        if g.id in done:
            todo.pop()
            continue
        pending = [p for p in g.parts if p.id not in done]
        if pending:
            todo.extend(pending)
            continue
        todo.pop()
        yield g


def bottom_up(f: Formula, memo: dict[int, object], node: Callable[[Formula], object]) -> object:
    """`node(g)` of f and of every formula under it, parts first (`parts_first`), kept in memo (formula id ->
    answer), where `node` reads its parts' answers; f's answer."""
    for g in parts_first(f, memo):
        memo[g.id] = node(g)
    return memo[f.id]


def rebuild(f: Formula, parts: list[Formula]) -> Formula:
    """f's connective over new parts; f itself, kept as built, when they are its own parts
    (a path's condition stays one rule, not one per disjunct)."""
    if all(a is b for a, b in zip(parts, f.parts)):
        return f
    if f.kind == "not":
        return neg(parts[0])
    return conj(*parts) if f.kind == "and" else disj(*parts)


# =================================================================== values


class UObj:
    """An object of the universe after setup: its name, class and static fields."""

    __slots__ = ("name", "cls", "owners", "fields", "cells", "connections", "serial", "items")

    def __init__(self, name: str, cls, owners: tuple, serial: int):
        self.name = name
        self.cls = cls  # the checker's ClassInfo
        self.owners = owners
        self.fields: dict[str, object] = {}
        self.cells: tuple | None = None  # a group's tiles by index
        self.connections: tuple = ()  # a tile's neighbours, as connection objects
        self.serial = serial
        self.items: tuple | None = None  # a deck's items after setup, bottom first (its `length` counts them)

    def __deepcopy__(self, memo):
        return self

    def __repr__(self) -> str:
        return self.name

    def is_a(self, info) -> bool:
        return self.cls.derives_from(info)


@dataclass(frozen=True, slots=True)
class Num:
    """An opaque number: a numeric fluent before the move (`op` "fluent"), or arithmetic on one."""

    op: str
    args: tuple  # ("obj", "attr") for a fluent; operands (Num | float) otherwise

    def __deepcopy__(self, memo):
        return self

    def leaves(self) -> set[tuple]:
        if self.op == "fluent":
            return {self.args}
        out: set[tuple] = set()
        for a in self.args:
            if isinstance(a, Num):
                out |= a.leaves()
        return out

    def value(self, env: dict) -> object:
        """The number under an assignment of the numeric fluents (UNDEF where the runtime errs)."""
        if self.op == "fluent":
            return env[self.args]
        vals = [a.value(env) if isinstance(a, Num) else a for a in self.args]
        if any(v is UNDEF for v in vals):
            return UNDEF
        return arith_concrete(self.op, *vals)

    def __repr__(self) -> str:
        if self.op == "fluent":
            return ".".join(self.args)
        if self.op == "player":
            return f"player({self.args[0]!r})"
        return f"({self.args[0]!r} {self.op} {self.args[1]!r})"


class Choice:
    """A value known only by cases: `{value: formula}`, the formulas mutually exclusive."""

    __slots__ = ("cases",)

    def __init__(self, cases: tuple):
        self.cases = cases  # ((value, Formula), ...)

    def __deepcopy__(self, memo):
        return self

    def __eq__(self, other) -> bool:
        return isinstance(other, Choice) and self.cases == other.cases

    def __hash__(self) -> int:
        return hash(self.cases)

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{v!r}: {f!r}" for v, f in self.cases) + "}"


class Partial:
    """A fluent written on some of the merged paths only: `(value, formula)` cases, else unchanged.

    Keeping the "else" implicit lets the frame rule of GDL carry the fluent on the
    paths that did not write it, instead of spelling out its old value by cases.
    """

    __slots__ = ("cases", "_full")

    def __init__(self, cases: tuple):
        self.cases = cases  # ((value, Formula), ...), formulas mutually exclusive
        self._full = None

    def __deepcopy__(self, memo):
        return self

    def __eq__(self, other) -> bool:
        return isinstance(other, Partial) and self.cases == other.cases

    def __hash__(self) -> int:
        return hash(self.cases)

    def when(self) -> Formula:
        """When some case wrote the fluent."""
        return disj(*(f for _, f in self.cases))

    def full(self, before) -> object:
        """The value, given the fluent's value before the move (made once: paths forked later share it)."""
        if self._full is None:
            self._full = choice(list(self.cases) + [(before, neg(self.when()))])
        return self._full

    def __repr__(self) -> str:
        return "partial{" + ", ".join(f"{v!r}: {f!r}" for v, f in self.cases) + "}"


class _Undefined:
    """Where the runtime would stop with an error (null member, bad operands): such cases are dropped."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNDEF"

    def __deepcopy__(self, memo):
        return self


UNDEF = _Undefined()

Value = Union[None, bool, float, str, UObj, Num, Choice, Formula, list, dict, tuple]


def vkey(v) -> object:
    """A hashable key that tells values apart as the runtime's `==` does (1 and true differ)."""
    kind = type(v)
    if kind is float:  # the common values first, by their exact type (`choice` asks it of every case)
        return ("n", v)
    if kind is str or v is None:
        return v
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, (int, float)):
        return ("n", float(v))
    if isinstance(v, UObj):
        return ("o", v.name)
    return v


def choice(pairs: Iterable[tuple[object, Formula]]) -> object:
    """The simplest value for these cases: merges equal values, drops impossible ones."""
    merged: dict[object, list] = {}
    for v, f in pairs:
        if f is FALSE or v is UNDEF:
            continue
        if isinstance(v, Choice):  # flatten
            for w, g in v.cases:
                if w is UNDEF:
                    continue
                key = vkey(w)
                found = merged.get(key)
                if found is None:
                    found = merged[key] = [w, []]
                found[1].append(conj(f, g))
            continue
        if isinstance(v, Formula):
            for w, g in ((True, v), (False, neg(v))):
                merged.setdefault(vkey(w), [w, []])[1].append(conj(f, g))
            continue
        merged.setdefault(vkey(v), [v, []])[1].append(f)
    cases = [(v, disj(*fs)) for v, fs in merged.values()]
    cases = [(v, f) for v, f in cases if f is not FALSE]
    if not cases:
        return UNDEF
    if len(cases) == 1 and cases[0][1] is TRUE:
        return cases[0][0]
    keys = {vkey(v) for v, _ in cases}
    if keys <= {("b", True), ("b", False)}:  # a bool by cases is a formula
        return next((f for v, f in cases if v is True), FALSE)
    cases.sort(key=lambda c: _order(c[0]))
    return Choice(tuple(cases))


def _order(v) -> tuple:
    if v is None:
        return (0, "")
    if isinstance(v, bool):
        return (1, str(v))
    if isinstance(v, (int, float)):
        return (2, "", float(v))
    if isinstance(v, str):
        return (3, v)
    if isinstance(v, UObj):
        return (4, "", v.serial)
    return (5, repr(v))


def scalar_constant(v) -> str | None:
    """The constant that stands for null, true or false in the rules (None for any other value)."""
    if v is None:
        return "null"
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return None


def value_identity(v) -> object:
    """A key under which equal values group: symbolic values by their structure (equal ones made on different
    paths group together), objects by name, constants by type and value (1 and true apart)."""
    if isinstance(v, (Choice, Formula, Num, Partial)):
        return ("sym", v)
    if isinstance(v, UObj):
        return ("o", v.name)
    return ("v", type(v).__name__, v)


def is_bool_table(cases: tuple) -> bool:
    """Are these the cases of a call that returns true or false (and nothing else)?"""
    return {vkey(x) for x, _ in cases} == {vkey(True), vkey(False)}


def literal_value(x):
    """A concrete value as literals and call relations record it: numbers as floats, the rest as they are."""
    if isinstance(x, (bool, str, UObj)) or x is None:
        return x
    return float(x)


def cases_of(v) -> list[tuple[object, Formula]]:
    """Any value as cases (a concrete value is one case, always; a Partial only its written cases)."""
    if isinstance(v, Choice):
        return list(v.cases)
    if isinstance(v, Partial):
        return [(y, conj(f, g)) for x, f in v.cases for y, g in cases_of(x) if conj(f, g) is not FALSE]
    if isinstance(v, Formula):
        if v is TRUE:
            return [(True, TRUE)]
        if v is FALSE:
            return [(False, TRUE)]
        return [(True, v), (False, neg(v))]
    return [(v, TRUE)]


def is_symbolic(v) -> bool:
    return isinstance(v, (Choice, Formula, Num))


def lift(fn: Callable, *args) -> object:
    """fn applied case by case to the cases of its arguments; fn takes concrete values or Nums."""
    if not any(isinstance(a, (Choice, Formula)) for a in args):
        return fn(*args)
    out = []
    if len(args) == 1:  # the product's loop without its tuples: member reads, indexes, one-argument calls
        for v, f in cases_of(args[0]):
            f = _alone(f)
            if f is not FALSE:
                out.append((fn(v), f))
        return choice(out)
    if len(args) == 2:  # comparisons and arithmetic: each pair of cases, in the product's order
        right = cases_of(args[1])
        for v, f in cases_of(args[0]):
            for w, g in right:
                h = conj(f, g)
                if h is not FALSE:
                    out.append((fn(v, w), h))
        return choice(out)
    for combo in itertools.product(*(cases_of(a) for a in args)):
        f = conj(*(c[1] for c in combo))
        if f is FALSE:
            continue
        out.append((fn(*(c[0] for c in combo)), f))
    return choice(out)


# ------------------------------------------------------------- operations
def arith_concrete(op: str, a, b):
    """The runtime's arithmetic on two numbers (UNDEF where the runtime stops with an error)."""
    try:
        if op == "+":
            r = a + b
        elif op == "-":
            r = a - b
        elif op == "*":
            r = a * b
        elif op == "/":
            r = a / b
        elif op == "%":
            if b == 0:
                return UNDEF
            r = math.fmod(a, b)
        elif op == "^":
            r = a ** b
            if isinstance(r, complex):
                return UNDEF
        elif op == "player":  # to_player(a, players=b)
            x = int(a)
            return float(x % b if x >= 0 else (b - (-x) % b) % b)
        elif op in ("<", ">", "<=", ">="):
            return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        else:
            raise ValueError(op)
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return UNDEF
    return float(r)


def equal_concrete(a, b) -> bool:
    """The runtime's `==` (`_equal` in tgpl.runtime.compiler)."""
    if a is b:
        return True
    if isinstance(a, (UObj, list, dict)) or isinstance(b, (UObj, list, dict)):
        return False
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b


def is_number(v) -> bool:
    """A number, concrete or of the state (a `Num`)."""
    return isinstance(v, (int, float, Num)) and not isinstance(v, bool)


def sym_equal(a, b) -> object:
    """`a == b`: a bool, or a formula when either side is symbolic."""
    def eq(x, y):
        if isinstance(x, Num) or isinstance(y, Num):
            if not ((is_number(x) or x is None) and (is_number(y) or y is None)):
                return False
            return lit(CmpLit("==", x, y))  # a numeric fluent may be null: `n == null` depends on the state
        return equal_concrete(x, y)
    return lift(eq, a, b)


def sym_compare(op: str, a, b) -> object:
    def cmp(x, y):
        if not (is_number(x) and is_number(y)) and not (isinstance(x, str) and isinstance(y, str)):
            return UNDEF  # a runtime error: dropped with the path's case
        if isinstance(x, Num) or isinstance(y, Num):
            return lit(CmpLit(op, x, y))
        return arith_concrete(op, x, y)
    return lift(cmp, a, b)


def sym_arith(op: str, a, b) -> object:
    def ar(x, y):
        if not (is_number(x) and is_number(y)):
            return UNDEF
        if isinstance(x, Num) or isinstance(y, Num):
            return Num(op, (x, y))
        return arith_concrete(op, x, y)
    return lift(ar, a, b)


def sym_not(a) -> object:
    if isinstance(a, bool):
        return not a
    if isinstance(a, Formula):
        return neg(a)
    return lift(lambda x: (not x) if isinstance(x, bool) else UNDEF, a)


def truth(v) -> tuple[Formula, Formula] | None:
    """When a value used as a bool is true, and when it is false: the one way symbolic values become conditions.

    A bool fluent read before the move is a Choice over {false, true, null}
    (null is in every attribute's domain), so its cases are not all bools: the
    true and false cases are kept and the others (null, where the runtime stops
    with an error) are neither, like every runtime error (docs/lowering.md).
    None when no case is a bool.
    """
    if v is True:
        return TRUE, FALSE
    if v is False:
        return FALSE, TRUE
    if isinstance(v, Formula):
        return v, neg(v)
    if isinstance(v, Choice):
        yes = [f for x, f in v.cases if x is True]
        no = [f for x, f in v.cases if x is False]
        if yes or no:
            return disj(*yes), disj(*no)
    return None


def as_formula(v) -> Formula | None:
    """A bool value as the formula under which it is true (None when it is never a bool); see `truth`."""
    t = truth(v)
    return None if t is None else t[0]


def restrict(v, pc: Formula) -> object:
    """v without the cases that contradict the path condition."""
    if isinstance(v, Choice):
        kept = [(x, f) for x, f in v.cases if conj(pc, f) is not FALSE]
        if len(kept) == len(v.cases):
            return v
        if len(kept) == 1:
            return kept[0][0]
        return Choice(tuple(kept))
    if isinstance(v, Formula) and v is not TRUE and v is not FALSE:
        if conj(pc, v) is FALSE:
            return False
        if conj(pc, neg(v)) is FALSE:
            return True
    return v
