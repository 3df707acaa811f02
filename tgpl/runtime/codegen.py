"""Generates one Python function per TGPL block, the runtime's fast path.

A block's statements become Python statements and its common expressions
Python expressions: locals are `v[slot]`, TGPL loops are Python loops,
`break`, `continue` and `return` are Python's own, and number arithmetic
runs inline with a type check, falling back to the machine (which raises
the runtime errors) only when an operand is not a number. Rarer nodes
(`new`, `is`/`as`, namespace calls, `winner`, input statements...) keep
their closure from `tgpl.runtime.compiler` and are called from the
generated code, so every construct works and the hot ones are fast.

A block's code takes a Frame and returns None or a `Returned`, exactly like
the closures it replaces; a function's effect takes its inputs and returns
its value (`BlockGenerator.function`).
"""

from __future__ import annotations

import ast as pyast
import warnings
from typing import TYPE_CHECKING, NamedTuple

from tgpl.builtin_calls import NAMESPACE_NAMES, TURN_PASS, bind
from tgpl.frontend import ast
from tgpl.frontend.builtins import Signature
from tgpl.frontend.symbols import FunctionInfo
from tgpl.frontend.types import BOOL, NUMBER, PLAYER, STRING, CallableType, ClassType, Collection, Type
from tgpl.runtime import direct as direct_calls, fixed_tables, flat_views, hoisting, inlining, passes
from tgpl.runtime.calls import (
    _NEVER, _REPLAY_HIT, _UNKNOWN, _call_method, _invoke, _key_test, _key_tuple, declare_winner, frame_runner,
)
from tgpl.runtime.errors import (
    BREAK, CONTINUE, TOO_LARGE, Cancelled as _Cancelled, Returned, TGPLRuntimeError, too_deep,
)
from tgpl.runtime.expr_facts import _changed, _float_valued, _is_bool, _is_float_literal, _number_literal
from tgpl.runtime.layout import LocalCode
from tgpl.runtime.operators import _ARITH, _NUMBERS, MISSING, _equal, _index
from tgpl.runtime.purity import scalar
from tgpl.runtime.values import PLAIN, Obj, show, to_player

if TYPE_CHECKING:
    from tgpl.runtime.classes import Code
    from tgpl.runtime.compiler import Compiler
    from tgpl.runtime.layout import Layout

_INLINE_ARITH = {"+", "-", "*"}
_COMPARE = {"<", ">", "<=", ">="}


def _owned_index(m, owner, field, collection, key, span):
    """`owner.field[key]` when the inline read did not take it: an error, or an item that is a
    list or table of an object the world does not own yet (read again once owned)."""
    if owner.__class__ is Obj and (collection.__class__ is list or collection.__class__ is dict):
        item = _index(m, collection, key, span)
        if item.__class__ is not list and item.__class__ is not dict:
            return item
        collection = m.get_member(owner, field, span)  # the world owns the object now
    return _index(m, collection, key, span)


def _reads_scalar(sig: Signature) -> bool:
    """A built-in method that only reads its receiver and gives back a number or a bool: none of its lists or
    tables (`contains`, `indexOf`), so the receiver is read without owning it."""
    entry = sig.entry
    return entry.method and not entry.writes and not entry.shares and sig.returns in (BOOL, NUMBER)


def _bad_bool(m, op, value, span):
    m.error(span, f"'{op}' of {show(value)}")


def _bad_condition(m, value, span):
    m.error(span, f"the condition is {show(value)}, not a bool")



def _as_player(value, players):
    return None if value is None else to_player(value, players)


def _bound_plan(rf, names, span, key_types):
    """How a call site of shape `names` runs `rf`: (stack entry, maps a player, memo table) when
    the call gives every input once in declaration order (the values are then the effect's
    arguments as they are), else False (the site goes through `_invoke`). The memo table is
    `rf.memo` when `rf` is pure and its inputs have the types the site tests its keys for
    (`key_types`), else None."""
    binder = rf.binders.get(names)
    if binder is None:
        binder = rf.binder(names)
    if binder is not True or rf.effect is None:
        return False
    memo = rf.memo if rf.memo is not None and tuple(i.type for i in rf.inputs) == key_types else None
    return (rf.what, span), rf.returns_player, memo, rf.effect


def _site(name: str | None, rf, names: tuple, key_types: tuple, span):
    """A call site in generated code, `x.name(a0, a1...)` (`name`: a method, looked up per class of
    `x`, with its binding, once) or `rf(a0, a1...)` (a global function), as one Python function of
    (machine, [target,] the values): it binds the values, pushes the call on the machine's stack
    and runs the effect (`_run` inline: every call of a function passes here).
    A call of a pure function (`tgpl.runtime.purity`) is first looked up in the world's memo
    (`World.memo`), and its result remembered once run (a call binding its arguments otherwise,
    `_invoke`, runs it)."""
    n = len(names)
    args = "".join(f"a{i}, " for i in range(n))
    method = name is not None
    key = _key_tuple((["t"] if method else []) + [f"a{i}" for i in range(n)])
    test = " and ".join(_key_test(f"a{i}", t) for i, t in enumerate(key_types)) or "True"
    head = "t, " if method else ""
    lines = [f"def call(m, {head}{args}):"]
    if method:
        lines += [
            "    if t.__class__ is not _Obj:",
            f"        return _call_method(m, t, name, names, ({args}), span)",
            "    p = plans.get(t.cls)",
            "    if p is None:",
            "        f = t.cls.function(name)",
            "        p = plans[t.cls] = _bound_plan(f, names, span, key_types) if f is not None else False",
            "    if p is False:",
            f"        return _call_method(m, t, name, names, ({args}), span)",
        ]
        this = "t"
    else:
        lines += [
            "    p = plans.get(0)",
            "    if p is None:",
            "        p = plans[0] = _bound_plan(rf, names, span, key_types)",
            "    if p is False:",
            f"        return _invoke(m, rf, None, names, ({args}), span)",
        ]
        this = "None"
    lines += [
        "    entry, rp, memo, fast = p",
        "    table = None",
        f"    if memo is not None and (mm := m.world.memo) is not None and {test}:",
        "        table = mm[memo]",
        f"        hit = table.get(k := {key})",
        "        if hit is not None:",
        "            steps = hit[1]",
        "            if not steps:",
        "                return hit[0]",
        "            m.steps += steps",
        "            if m.steps <= m.step_limit:",
        "                return hit[0]",
        "            m.steps -= steps",  # past the limit: run it, to raise where the run raises
        "            table = None",
        "        before = m.steps",
        "    stack = m.stack",
        "    stack.append(entry)",
        "    try:",
        f"        r = fast(m, {this}, {args})",
        "        if r is None:",
        "            return None",
        "        if rp:",
        "            r = to_player(r, m.players)",
        "    except _Cancelled:",
        "        return None",
        "    except RecursionError:  # the host's stack ran out: report it as the game's error",
        "        m.error(span, _too_deep(entry[0]))",
        "    except OverflowError:",
        "        m.error(span, TOO_LARGE)",
        "    finally:",
        "        stack.pop()",
        "    if table is not None and r.__class__ in _P and (left := mm[-1])[0] > 0:",
        "        left[0] -= 1",
        "        table[k] = (r, m.steps - before)",
        "    return r",
    ]
    ns = {
        "_Obj": Obj, "_P": PLAIN, "_call_method": _call_method, "_invoke": _invoke,
        "_bound_plan": _bound_plan, "to_player": to_player, "_Cancelled": _Cancelled, "TOO_LARGE": TOO_LARGE,
        "_too_deep": too_deep,
        "plans": {}, "name": name, "rf": rf, "names": names, "key_types": key_types, "span": span,
    }
    exec(compile("\n".join(lines) + "\n", f"<tgpl call site {span}>", "exec"), ns)
    return ns["call"]


# Results a frozen machine remembers for `_listing_site`s, per listing: past it, calls are run
LISTING_BUDGET = 1 << 16


def _listing_site(holder: list, method: bool, shape: tuple, key_types: tuple, serial: int):
    """A call site (`_site`, held in `holder[0]`) whose
    results are remembered while the machine is frozen (`Machine.listing`, while legal moves are
    listed), keyed by the site, the target and the values: a filter calling
    `Draughts.MustJump(side: player)` for each of 36 candidate squares runs it once.

    Nothing can change the world then, so a call with the same target and values gives the same
    value, as a pure function's does (`_site`, the same rules): a call that raises, is
    cancelled or gives null, a list or a table remembers nothing; a remembered value keeps the
    loop steps its run counted, counted again at each lookup, and one that would pass the step
    limit is run instead. Values are keys only of their declared class (1, 1.0 and true are
    equal keys in Python)."""
    n = len(shape)
    args = "".join(f"a{i}, " for i in range(n))
    head = "t, " if method else ""
    test = " and ".join(_key_test(f"a{i}", t) for i, t in enumerate(key_types)) or "True"
    src = (
        f"def call(m, {head}{args}):\n"
        f"    if (mm := m.listing) is None or not ({test}):\n"
        f"        return H[0](m, {head}{args})\n"
        f"    hit = mm.get(k := (SERIAL, {head}{args}))\n"
        + _REPLAY_HIT +
        "    before = m.steps\n"
        f"    r = H[0](m, {head}{args})\n"
        "    if r is not None and r.__class__ in _P and len(mm) < BUDGET:\n"
        "        mm[k] = (r, m.steps - before)\n"
        "    return r\n"
    )
    ns = {"H": holder, "SERIAL": serial, "_Obj": Obj, "_P": PLAIN, "BUDGET": LISTING_BUDGET}
    exec(compile(src, f"<tgpl listing site {serial}>", "exec"), ns)
    return ns["call"]


def _named(code: str) -> bool:
    """Whether the code `code` is a local, `this` or a name: read twice, it is read alike."""
    return isinstance(code, LocalCode) or code.isidentifier()


# Declared types whose values (or null) are all `_SCALARS`: two of them compare with Python's `==`
_EQ_SCALARS = frozenset((NUMBER, PLAYER, STRING))


class Dual(str):
    """Code (the string, its general spelling) that has an optimistic spelling too, `quick`: a read
    that has one (`BlockGenerator.read_quick`) and any code made of such (`BlockGenerator.both`)."""

    quick: str


def _quick(code: str) -> str:
    """The optimistic spelling of `code`: its own where it has one, else the code itself."""
    return code.quick if code.__class__ is Dual else code


class _Line(NamedTuple):
    """A generated line, `depth` levels in. `returns`: TGPL's `return` of `code`, which a Frame's
    spelling gives back as a `Returned` and the plain ones as it is (`BlockGenerator.text`)."""

    depth: int
    code: str
    returns: bool = False

    def spelled(self, frame: bool, deeper: int, quick: bool = False) -> str:
        """The line `deeper` levels further in; `quick`: in its optimistic spelling, if it has one."""
        pad = "    " * (self.depth + deeper)
        code = _quick(self.code) if quick else self.code
        return f"{pad}return {'_Returned' if frame else ''}({code})\n" if self.returns else f"{pad}{code}\n"


# What a block binds on entry, when its code uses it: fields are read through the world's
# table `D`, lists and tables as they are only from objects in `O` (Machine.readable; the
# others go through Machine.get_member), global objects from `G`, owners from `W`.
# The world's tables, by the attribute of the world that holds each:
_WORLD_TABLES = {"D": "data", "G": "globals",
                 # the memo of fixed expressions: None while setup runs, made when it returns, so a
                 # block sees one or the other from start to end (setup's own block: None)
                 "MM": "memo",
                 "W": "owners"}
# The machine's own, by the attribute of the machine that holds each:
_MACHINE_NAMES = {"O": "readable", "SL": "step_limit",
                  # whether the machine is frozen (`Machine.freeze`, only ever before code runs)
                  "FZ": "frozen"}


# The code objects of the functions generated so far, by their source as generated, where it came
# from and the options (`BlockGenerator._compile`): a game loaded again in the same process (the
# tests load Tris hundreds of times, `tgpl play --repeat` and the benches once a run) generates the
# same sources, and compiling them is most of a load. A code object is immutable and names its
# constants only by the namespace it is run in, which each load makes its own: the same functions.
# Bounded by `RuntimeOptions.code_cache`.
_COMPILED: dict[tuple, object] = {}


def _plain_code(code: str) -> bool:
    """Whether generated code is `this` or a literal that a field holds as it is (`values.PLAIN`):
    `this` is an object or null, `expr_NumberLit` writes a float, the others are None, True, False."""
    return code in ("this", "None", "True", "False") or _is_float_literal(code)


def _preamble(bound: set[str] | frozenset[str]) -> str:
    """The bindings a block's code uses (`_WORLD_TABLES`, `_MACHINE_NAMES`), the world read once
    when two or more of its tables are (every call of a function runs this)."""
    world = "_w" if len(bound & _WORLD_TABLES.keys()) >= 2 else "m.world"
    out = "    _w = m.world\n" if world == "_w" else ""
    for name in sorted(bound):
        out += (f"    {name} = {world}.{_WORLD_TABLES[name]}\n" if name in _WORLD_TABLES
                else f"    {name} = m.{_MACHINE_NAMES[name]}\n")
    return out


def _loads(slots: set[int], but: int | None = None) -> str:
    """The lines loading the locals `slots` (but `but`) from the list `v` into Python's own."""
    return "".join(f"    l{s} = v[{s}]\n" for s in sorted(slots - {but}))


# What a field read as one lookup, `D[x.place]['F']`, raises when it misses: a missing field or a
# fixed object (place 0, no fields) a KeyError, a null an AttributeError
MISSES = ("KeyError", "AttributeError")
# What a list item read as one lookup (`BlockGenerator.quick_item`) raises when it misses: an
# index past the end, a null list
INDEX_MISSES = ("IndexError", "TypeError")


def _place(obj: str) -> str:
    """`obj.place`, the index of an object's fields in the world's list `D`."""
    return f"{obj}.place" if _named(obj) else f"({obj}).place"


class _Respell(Exception):
    """A block begun with its locals where its code cannot keep them (`BlockGenerator.spelled`)."""


class _Start:
    """What generating a block changes outside its generator, as it was when the block was begun:
    the scopes of its layout and the compiler's numbering (memo tables, listing sites, calls
    inline, sites), given back to begin it again with its locals in the Frame's list, so that the
    second spelling numbers all alike."""

    def __init__(self, gen: BlockGenerator):
        layout, c = gen.layout, gen.c
        self.scopes, self.size, self.types = [dict(s) for s in layout.scopes], layout.size, dict(layout.types)
        self.numbers = (c.memos, c.listing_sites, c.inlined, c.sites)

    def restore(self, gen: BlockGenerator) -> None:
        layout, c = gen.layout, gen.c
        layout.scopes[:], layout.size, layout.types = self.scopes, self.size, self.types
        c.memos, c.listing_sites, c.inlined, c.sites = self.numbers


def _pool_loop(slot: int, test: str, depth: int, pool: str = "pool") -> str:
    """A filter's loop over a pool, `depth` levels in: each candidate put in `slot` (in the list `v`,
    and as Python's own local, which `test` reads), kept in `out` where `test` holds."""
    pad = "    " * depth
    return (f"{pad}for c in {pool}:\n{pad}    v[{slot}] = l{slot} = c\n"
            f"{pad}    if {test}:\n{pad}        out.append(c)\n")



MAX_INLINE_NESTING = 40
# Python allows 100 levels of indentation and 20 nested loops in one function: statements
# nested deeper run as the compiler's closures.
MAX_INLINE_DEPTH = 40
MAX_INLINE_LOOPS = 8  # a for is two Python loops
MAX_COUNTED = 64  # the values of a counted loop spelled out (`BlockGenerator.counted`)
MAX_TWICE_DEPTH = 30  # a loop spelled twice (`BlockGenerator.fixed_table`) is one level deeper
# What can end a loop early, count other steps or read the count (`BlockGenerator.fixed_steps`)
_UNPAID = (ast.While, ast.For, ast.Break, ast.Continue, ast.Return, ast.Call, ast.New, ast.InputDecl, ast.Winner)

def _fx_store(mm, idx, key, m, before, value):
    """A fixed expression's value (`BlockGenerator.fixed`), remembered under `key` when it was
    looked up (`key` is `_UNKNOWN` when the locals are not keys) in a memo (`mm` is None while
    setup runs)."""
    if key is not _UNKNOWN and mm is not None and value.__class__ in PLAIN:
        left = mm[-1]
        if left[0] > 0:
            left[0] -= 1
            mm[idx][key] = (value, m.steps - before)
    return value


def _fx_table(mm, idx, table):
    """A fixed table (`BlockGenerator.fixed_table`) built for the first time since setup, remembered
    (`mm` is None while setup runs: nothing is)."""
    if mm is not None:
        left = mm[-1]
        if left[0] > 0:
            left[0] -= 1
            mm[idx][0] = table


def _charge(m, steps):
    """Count the loop steps of a remembered value; False (nothing counted) past the step limit: the
    value is computed again, to raise the limit's error where the computation raises it."""
    m.steps += steps
    if m.steps <= m.step_limit:
        return True
    m.steps -= steps
    return False


def _prefiltered(table, pool) -> tuple:
    """The candidates of `pool` whose remembered value in a fixed expression's memo `table` is true,
    and the loop steps of all those values: (pool, table, the candidates or None, the steps), for
    a filter `A && B` whose `A` is a fixed expression of the candidate alone (`BlockGenerator.
    prefiltered`). None where a candidate has no value remembered yet (or will never have one: the
    memo is full, or its computation raised): then the size of the table in place of the steps,
    so that a listing tries again only once the table has grown."""
    passing, steps = [], 0
    get = table.get
    for c in pool:
        found = get(c)
        if found is None:
            return (pool, table, None, len(table))
        if found[0]:
            passing.append(c)
        steps += found[1]
    return (pool, table, passing, steps)


# Values whose equality (`_eq`) is Python's `==`: no bool (1 == True), object or collection.
_SCALARS = frozenset((int, float, str, type(None)))

# The whole floats a list item read as one lookup may be indexed by (`BlockGenerator.quick_item`),
# each to its int: any other float misses
QUICK_INDEXES = 4096
_WHOLE = {float(i): i for i in range(QUICK_INDEXES)}

_HELPERS = {
    "_IX": _WHOLE, "_BIG": 1 << 62,
    "_S": _SCALARS,
    "_fx_store": _fx_store, "_fx_table": _fx_table, "_fx_flat": flat_views.flat, "_charge": _charge, "_winner": declare_winner,
    "_prefiltered": _prefiltered,
    "_index": _index, "_bad_bool": _bad_bool, "_bad_condition": _bad_condition,
    "_as_player": _as_player, "_to_player": to_player, "_owned_index": _owned_index, "_call_method": _call_method, "_invoke": _invoke, "_show": show, "_Returned": Returned,
    "_RuntimeError": TGPLRuntimeError, "_N": _NUMBERS, "_Obj": Obj, "_M": _UNKNOWN, "_NV": _NEVER, "_P": PLAIN, "_NO_FIELDS": {}, "_BREAK": BREAK, "_CONTINUE": CONTINUE,
}


class BlockGenerator:
    """Turns one block (and the blocks nested in it) into one Python function."""

    def __init__(self, compiler: Compiler, layout: Layout, direct: bool = False, optimistic: str | None = None,
                 frame: bool = False):
        self.c = compiler
        self.layout = layout
        self.ns: dict[str, object] = dict(_HELPERS, _eq=_equal)
        self.arith = _ARITH
        self.lines: list[_Line] = []
        self.counter = 0
        self.loops: list[str | None] = []  # per enclosing loop: None (while) or the for's break flag
        self.continues: list[int] = []  # per enclosing loop: the `continue`s (and closures) that may continue it
        self.nesting = 0  # expressions being generated inside one another
        self.direct = direct  # also spell the block as a plain function (a function's effect)
        # The names `_preamble` binds for the code (`uses`): those its general spellings read, and
        # those its optimistic spelling reads; and the slots of the locals it reads (`local`)
        self.bound: set[str] = set()
        self.quick_bound: set[str] = set()
        self.slots: set[int] = set()
        self.numbers_from: tuple[dict[str, int], int] = ({}, 0)  # `_changed` of the block, the statement's index
        self.numeric: set[str] = set()  # locals (`v[i]`) that only ever hold numbers
        # The counters of the counted loops being generated whose values are whole numbers, each
        # with the Python local holding its value as an int (`stmt_For`), for list indexes
        self.indexes: dict[str, str] = {}
        self.index_ranges: dict[str, tuple[int, int]] = {}  # of each of `indexes`, its first and last int
        self.index_reads: set[str] = set()  # the ints of `indexes` the code reads (`stmt_For` gives those)
        self.quick_items = False  # whether the optimistic spelling reads list items as one lookup (`quick_item`)
        self.closures = 0  # compiler closures (and signals to them) the code uses: they need a Frame
        # Where the code keeps its locals: in the Frame's list `v` (`frame`: code with closures,
        # which read and write them there), else as Python's own; `restarts`: the block is begun
        # again the other way where that was not the right one (`spelled`)
        self.frame, self.restarts = frame, False
        self.counts = False  # may count loop steps (loops, calls, charges): `direct.spell` keeps the count
        self.in_fixed = False  # generating a fixed expression (`fixed`): its parts are not remembered apart
        self.memo_tables: list[int] = []  # the memo tables of the fixed expressions in the code
        # For a function that reads only (`tgpl.runtime.readonly`; `optimistic` is its `what`):
        # the reads given an optimistic spelling (`read_quick`); else None.
        self.optimistic: int | None = 0 if optimistic is not None else None
        self.what = optimistic
        self.inlining: list[FunctionInfo] = []  # the functions whose bodies are being generated inline
        self.inlines = 0  # calls inlined in the optimistic spelling (`tgpl.runtime.inlining`)
        # The fixed tables of the blocks being generated that have a flat view (`flat_read`): the
        # local's code -> (the Python local holding the view or False, the view's widths)
        self.flat_views: dict[str, tuple[str, tuple[int, ...]]] = {}
        # Each fixed expression generated (`fixed`), by its spelling: (its memo table, its key, the
        # key's type when it is one local's value); and each `&&` of two bools, by the node's id:
        # its operands' spellings (`short_circuit`). What `prefiltered` recognises a filter by.
        self.fixed_spellings: dict[str, tuple[int, str, Type | None]] = {}
        self.conjuncts: dict[int, tuple[str, str]] = {}
        # The code of `this` (at the top the Python name, `this()`), and of the inputs a body inline
        # reads as the caller's code, by slot (`tgpl.runtime.inlining`)
        self.this_code, self.reads_this = "this", False
        self.inputs: dict[int, str] = {}

    # ------------------------------------------------------------- plumbing
    def uses(self, *names: str, kept: bool = True) -> None:
        """Record that the code just spelled reads the bindings `names` (`_preamble`): in the
        general spellings, unless it is in a body inline, which only the optimistic spelling holds;
        in the optimistic spelling too, unless `kept` is False (a general spelling that has an
        optimistic one, `read_quick`)."""
        if not self.inlining:
            self.bound.update(names)
        if kept:
            self.quick_bound.update(names)

    def preamble(self, quick: bool = False, given: frozenset = frozenset()) -> str:
        """What the code binds on entry: `_preamble` of what it reads (`uses`; `quick`: its
        optimistic spelling), then the memo table of each fixed expression (`fixed`), or an empty
        dict while setup runs (no memo yet: every lookup misses); `given`: what the function gets
        as parameters (`tgpl.runtime.direct`)."""
        bound = (self.quick_bound if quick else self.bound) | ({"MM"} if self.memo_tables else set())
        return _preamble(bound - given) + "".join(
            f"    MT{i} = MM[{i}] if MM is not None else _NO_FIELDS\n" for i in self.memo_tables)

    def local(self, slot: int) -> str:
        """A local's code, a `LocalCode`: `v[slot]` in the Frame's list (`frame`), else Python's
        own `l<slot>` (its slot recorded in `slots`, which a function loads or takes); in a body
        inline the caller's Python local that holds it (`inlining.local_name`) or the caller's
        code of an input read as it is."""
        if slot < inlining.FIRST_SLOT:
            if self.frame:
                return LocalCode(f"v[{slot}]")
            self.slots.add(slot)
            return LocalCode(f"l{slot}")
        return self.inputs.get(slot) or LocalCode(inlining.local_name(slot))

    def closure(self) -> None:
        """Count a closure of the compiler (or a signal to the closure running this code) in the
        code, which then keeps its locals in the Frame's list, where the closures read and write
        them. One met in a block begun with them as Python's own (and `restarts`) begins it
        again (`spelled`), unless it is in a body inline, which then is not inline
        (`inlining._Saved.kept`)."""
        self.closures += 1
        if self.restarts and not self.frame and not self.inlining:
            raise _Respell

    def generated_block(self, block: ast.Block) -> None:
        """Generate the block's statements; begun with its locals in the Frame's list (and
        `restarts`), a block that has no closure after all begins again (`spelled`)."""
        self.block(block, 1)
        if self.restarts and self.frame and not self.closures:
            raise _Respell

    def spelled(self, block: ast.Block, make):
        """`make(generator)`, the code of `block` made by a generator like this one, begun with its
        locals in the Frame's list where the block holds a node always left to a closure
        (`closure_node`), else as Python's own; where that is not the right place (`closure`,
        `generated_block`), begun again the other way, from the same start (`_Start`). A wrong
        guess costs the time of that beginning, never a different code."""
        start = _Start(self)
        gen = self
        if self.closure_node(block):
            gen = BlockGenerator(self.c, self.layout, self.direct, self.what, frame=True)
        gen.restarts = True
        try:
            return make(gen)
        except _Respell:
            start.restore(self)
        return make(BlockGenerator(self.c, self.layout, self.direct, self.what, frame=not gen.frame))

    def closure_node(self, block: ast.Block) -> bool:
        """Whether a statement of the block, at any depth, is one the generator always leaves to a
        closure: an input statement, or one whose expression (a value declared, assigned or
        given back) is a `new`, a call of a built-in by its name (`log`, `roll`) or a call given
        a `new`. Deeper expressions are not looked into: a guess (`spelled`), made in a walk of
        the statements only, which costs less than it saves. None in a function that reads only
        (`tgpl.runtime.readonly`), whose body is not walked."""
        if self.what is not None:
            return False
        stack = list(block.body)
        pop, push, extend = stack.pop, stack.append, stack.extend
        while stack:
            s = pop()
            cls = s.__class__
            if cls is ast.ExprStmt:
                e = s.expr
                if e.__class__ is ast.Assign:
                    e = e.value
            elif cls is ast.VarDecl:
                e = s.init
            elif cls is ast.Return:
                e = s.value
            elif cls is ast.If:
                push(s.then)
                if s.orelse is not None:
                    push(s.orelse)
                continue
            elif cls is ast.Block:
                extend(s.body)
                continue
            elif cls is ast.While or cls is ast.For:
                push(s.body)
                continue
            else:
                if cls is ast.InputDecl:
                    return True
                continue
            if e.__class__ is ast.New:
                return True
            if e.__class__ is ast.Call:
                if e.callee.__class__ is ast.Name and getattr(self.c.types.get(id(e.callee)), "kind", None) == "builtin":
                    return True
                if any(a.value.__class__ is ast.New for a in e.args):
                    return True
        return False

    def this(self) -> str:
        """`this`'s code, where the code reads it: a Frame's spelling binds it on entry (`frame_code`)."""
        self.reads_this = self.reads_this or self.this_code == "this"
        return self.this_code

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def const(self, value, prefix: str = "_k") -> str:
        n = self.name(prefix)
        self.ns[n] = value
        return n

    def emit(self, depth: int, line: str) -> None:
        self.lines.append(_Line(depth, line))

    def text(self, frame: bool, deeper: int = 0, quick: bool = False) -> str:
        """The lines generated, as a Frame's spelling (`frame`) or a plain one writes them, `deeper`
        levels further in (the body of a `try`); `quick`: their optimistic spelling (`both`)."""
        return "".join(line.spelled(frame, deeper, quick) for line in self.lines) + "    " * (deeper + 1) + "return None\n"

    def both(self, spell, *parts: str) -> str:
        """`spell(*parts)`: code made of the code `parts`; where a part has an optimistic spelling
        (a `Dual`), the code has one too, `spell` of the parts' optimistic spellings, made as the
        code is (no text is searched for the reads it holds)."""
        code = spell(*parts)
        for part in parts:
            if part.__class__ is Dual:
                code = Dual(code)
                code.quick = spell(*[_quick(p) for p in parts])
                break
        return code

    def read_quick(self, safe: str, quick: str) -> Dual:
        """A read spelled `safe` in general and `quick` in the optimistic spelling."""
        self.optimistic += 1
        code = Dual(safe)
        code.quick = quick
        return code

    def generate(self, block: ast.Block) -> Code:
        """The block's code, a function of a Frame (with `direct`, also its plain spelling)."""
        return self.spelled(block, lambda gen: gen.generated(block))

    def generated(self, block: ast.Block) -> Code:
        self.generated_block(block)
        preamble = self.preamble()
        block_fn = self.frame_code(preamble, block.span)
        if self.direct and not self.closures:
            # The same code as a plain function of (machine, this, locals) that returns its
            # value itself: an action's or a phase's plain spelling (`RAction.plain`, `RPhase.plain`).
            direct = "def _direct(m, this, v):\n" + _loads(self.slots) + preamble + self.text(False)
            block_fn.direct = self._compile(direct, block.span, "_direct")
        return block_fn

    def frame_code(self, preamble: str, span) -> Code:
        """The generated `body` as a function of a Frame, returning None or a `Returned`. With
        closures, which read and write the frame's locals, it reads them in `v`; else nothing but
        this code reads them: they are Python's own, loaded from the frame on entry (the inputs, a
        filter's candidate; the others are null there). A choice asked below (in a function)
        leaves the frame undescribed (`NeedInput`)."""
        head = "def _block(f):\n    v = f.vars\n    m = f.m\n" + ("    this = f.this\n" if self.reads_this else "")
        body = self.text(True)
        if self.closures:
            return self._compile(head + preamble + body, span, "_block")
        return self._compile(head + _loads(self.slots) + preamble + body, span, "_block")

    def function(self, block: ast.Block, params: tuple[int, ...]):
        """A function's effect, as every call runs it (`RFunction.effect`): `function_effect`'s
        spellings, or, for a body with closures (or inputs whose slots are not 0, 1, ...: one
        with a filter), its code of a Frame run on the inputs by `calls.frame_runner`."""
        return self.spelled(block, lambda gen: gen.function_code(block, params))

    def function_code(self, block: ast.Block, params: tuple[int, ...]):
        self.generated_block(block)
        preamble = self.preamble()
        if not self.closures and params == tuple(range(len(params))):
            return self.function_effect(preamble, params, block.span)
        return frame_runner(self.frame_code(preamble, block.span), self.layout.size, params)

    def function_effect(self, preamble: str, params: tuple[int, ...], span):
        """A function's effect with no closure, in at most two spellings: `_fast(m, this, l0,
        l1...)`, its inputs as parameters and its locals Python's own, which every call runs
        (bound call sites, `_invoke`, `Machine.call_function`), and for a function that reads
        only its optimistic spelling `_fast_direct` (`tgpl.runtime.direct`), whose way back is
        `_fast`, kept on it as `direct_call`."""
        slots = sorted(self.slots - set(params))
        init = ("    " + " = ".join(f"l{s}" for s in slots) + " = None\n") if slots else ""
        args = "".join(f", l{s}" for s in params)
        effect = self._compile(f"def _fast(m, this{args}):\n" + init + preamble + self.text(False),
                               span, "_fast")
        if self.optimistic is not None:
            optimistic = bool(self.optimistic)
            body = self.text(False, 1, quick=True)
            src = direct_calls.spell(body, init,
                                     self.preamble(True, direct_calls.GIVEN), args, self.what,
                                     optimistic, optimistic and self.counts, self.misses())
            self.ns.update(direct_calls.HELPERS, _TOO_LARGE=TOO_LARGE)
            try:
                effect.direct_call = self._compile(src, span, "_fast_direct")
            except SyntaxError:  # too many statically nested blocks with the `try`
                pass
        return effect

    def misses(self, deferred: bool = False) -> str:
        """What an optimistic spelling of this code takes as a miss, to run again the general way:
        a read that missed, with calls inline (`tgpl.runtime.inlining`) or the loop steps of
        remembered values counted at the end (`deferred`, `_all_opt`) also an error, and with list
        items read as one lookup (`quick_item`) an index past the end or a null list."""
        misses = inlining.CATCH if self.inlines else (*MISSES, "_RuntimeError") if deferred else MISSES
        return ", ".join(misses + INDEX_MISSES if self.quick_items else misses)

    def filter_all(self, block: ast.Block, slot: int):
        """For a filter that is one `return` (most are), or whose statements are one expression
        (`inlining.expression`: no loop, only locals, `if`s and `return`s): a plain function of
        (machine, this, locals, pool) giving the candidates of `pool` it passes, in order, each
        put in `slot` in turn as the filter's own spelling does (Machine.candidates): one Python
        call per candidate set instead of one per candidate. None when the filter has another
        shape."""
        body = block.body
        if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
            e = body[0].value
            self.layout.push()
            try:
                value = self.expr(e)
            finally:
                self.layout.pop()
            test = value if _is_bool(e) else self.both(lambda value: f"({value}) is True", value)
        else:
            e = None
            value = inlining.expression(self, body)
            if value is None:
                return None
            test = self.both(lambda value: f"({value}) is True", value)
        if self.closures or self.lines:
            return None
        split = self.prefiltered(e, value, slot)
        loads = _loads(self.slots, slot)
        src = (
            "def _all(m, this, v, pool):\n" + loads + self.preamble()
            + "    out = []\n"
            + _pool_loop(slot, test, 1)
            + "    return out\n"
        )
        every = self._compile(src, block.span, "_all")
        if not self.optimistic:
            return every
        # A filter that reads only (`tgpl.runtime.readonly`), also spelled optimistically, as
        # `direct.spell` spells a function: a miss starts the listing again the general way.
        # The loop steps of the values it remembers (`fixed`) are counted once, at the end: if
        # they pass the limit there, the listing runs again the general way, which raises where
        # it passes it; else no count on the way passed it either (steps only grow). Meanwhile
        # the count is lower than the general way's, so a call may get past a limit that would
        # have stopped it there: an error is also taken again the general way.
        test = _quick(test)
        if split is not None:
            split = (split[0], _quick(split[1]))
        head = loads + self.preamble(True)
        tree = hoisting.parse_expression(test)
        if tree is None:
            return every
        names = hoisting.loaded_names(tree)
        deferred = "_acc" in names  # the steps of remembered values are counted at the end
        hoisted = None if deferred else self.hoisted(tree, slot)
        if hoisted is not None:  # its parts that do not depend on the candidate, made once
            test, names = hoisted.test, hoisted.names
        # the count set back on a miss, unless the test names no machine (then it counts nothing)
        counts = deferred or "m" in names
        loop = _pool_loop(slot, test, 2)
        if split is not None and deferred:
            # `A && B`, `A` remembered for each candidate alone: the candidates it passes, and the
            # steps its values counted, found once per pool and memo (`_prefiltered`); `B` is run on
            # those only, as `and` runs it, and the slot left holding the pool's last, as the loop
            # over the whole pool leaves it. While some candidate has no value remembered, the
            # whole pool (which remembers them).
            idx, right = split
            kept = self.const([(None, None, None, -1)], "_pf")
            loop = (f"        _pf = {kept}[0]\n"
                    + f"        if _pf[0] is not pool or _pf[1] is not MT{idx} or (_pf[2] is None and _pf[3] != len(MT{idx})):\n"
                    + f"            _pf = {kept}[0] = _prefiltered(MT{idx}, pool)\n"
                    + "        if _pf[2] is not None:\n"
                    + "            _acc = _pf[3]\n"
                    + _pool_loop(slot, right, 3, "_pf[2]")
                    + "            if pool:\n"
                    + f"                v[{slot}] = pool[-1]\n"
                    + "        else:\n"
                    + _pool_loop(slot, test, 3))
        src = (
            "def _all_opt(m, this, v, pool):\n" + head
            # a part made once that raises where the test might not have reached it: the general way
            + ("    try:\n" + "".join(f"        {line}\n" for line in hoisted.prologue)
               + "    except Exception:\n        return _all(m, this, v, pool)\n" if hoisted is not None else "")
            + ("    _st0 = m.steps\n" if counts else "")
            + ("    _acc = 0\n" if deferred else "")
            + "    try:\n"
            + "        out = []\n"
            + loop
            + ("        if _acc:\n"
               "            m.steps += _acc\n"
               "            if m.steps > m.step_limit:\n"
               "                raise KeyError\n" if deferred else "")
            + "        return out\n"
            + f"    except ({self.misses(deferred)}):\n"
            + ("        m.steps = _st0\n" if counts else "")
            + "        return _all(m, this, v, pool)\n"
        )
        every = self._compile(src, block.span, "_all_opt")
        if hoisted is None and not deferred and head in (_preamble({"D"}), _preamble({"D", "G"})):
            # the test reads fields and global objects only, through `D` and `G`: listed with no
            # machine (`game._planned_moves`). What it asks of the machine where a value is not
            # the common case (`m.compare` of a null, a count) asks it of None: a miss there
            # too, and the listing runs the filter its own way.
            machine = "    m = None\n" if "m" in names else ""
            every.data = self._compile(
                f"def _all_data(D, G, this, pool):\n{machine}    out = []\n    for l{slot} in pool:\n"
                f"        if {test}:\n            out.append(l{slot})\n    return out\n",
                block.span, "_all_data")
        return every

    def prefiltered(self, e: ast.Expr | None, value: str, slot: int) -> tuple[int, str] | None:
        """For a filter `return A && B;` whose `A` is a fixed expression (`fixed`) of the candidate
        alone, a value of a class (Connect Four's `GameState.Board.ColumnOf(cell: column) >= 0 &&
        column.Disc == null`): the memo table of `A` and the spelling of `B`; else None. `A`'s value
        for each object of the pool is fixed once setup is over, so the candidates it passes are
        too, while the pool (the world's list of the class's objects) and the memo are the same."""
        if not (isinstance(e, ast.Binary) and e.op == "&&" and id(e) in self.conjuncts):
            return None
        left, right = self.conjuncts[id(e)]
        found = self.fixed_spellings.get(left)
        if found is None or value != f"({left} and {right})":
            return None
        idx, key, key_type = found
        if key != self.local(slot) or not isinstance(key_type, ClassType):
            return None
        return idx, right

    def hoisted(self, test: pyast.Expression, slot: int) -> hoisting.Hoisted | None:
        """The parts of `_all_opt`'s test that do not depend on the candidate, computed once before
        the loop (`tgpl.runtime.hoisting`), or None when none is worth it. Those parts are computed
        even where the test would not reach them: one that raises there runs the pool the general
        way (`_all`)."""
        return hoisting.hoist(test, {f"l{slot}", "c", "v"})

    def _compile(self, src: str, span, name: str):
        """The function `name` that `src` defines, compiled from its source (the code object kept
        in `_COMPILED`) and run in the block's namespace."""
        where = f"<tgpl {span}>"
        options = self.c.options
        key = (src, where, options)
        code = _COMPILED.get(key) if options.code_cache else None
        if code is None:
            with warnings.catch_warnings():  # `3 is None` from `3 == null`: correct here, not worth a warning
                warnings.simplefilter("ignore", SyntaxWarning)
                code = compile(src, where, "exec")
            if options.code_cache:
                if len(_COMPILED) >= options.code_cache:
                    _COMPILED.clear()
                _COMPILED[key] = code
        exec(code, self.ns)
        return self.ns[name]

    # ------------------------------------------------------------ statements
    def block(self, block: ast.Block, depth: int) -> None:
        self.layout.push()
        views = self.flat_views
        self.flat_views = dict(views)  # the fixed tables of this block are seen in it only
        start = len(self.lines)
        changed = _changed(block.body, self.c.types)
        skip = False
        for i, s in enumerate(block.body):
            if skip:  # the nest of a fixed table, spelled with its declaration
                skip = False
                continue
            self.numbers_from = (changed, i)  # for a declaration made by `s`
            table = self.fixed_table_at(block.body, i, depth)
            if table is not None:
                self.fixed_table(table, changed, i, depth)
                skip = True
                continue
            self.stmt(s, depth)
        if len(self.lines) == start:
            self.emit(depth, "pass")
        self.flat_views = views
        self.layout.pop()

    def fixed_table_at(self, body: list, i: int, depth: int) -> fixed_tables.FixedTable | None:
        """The table of fixed items declared by `body[i]` and built by the counted nest after it,
        when the code after only reads its items (`tgpl.runtime.fixed_tables`), else None."""
        if not (self.c.purity is not None and not self.in_fixed
                and depth < min(MAX_TWICE_DEPTH, MAX_INLINE_DEPTH) - 1
                and isinstance(body[i], ast.VarDecl)):
            return None
        found = fixed_tables.find(body, i, self.counted, self.fixed_item)
        if found is None or self.fixed_steps(found.nest) is None:
            return None
        return found

    def fixed_item(self, e: ast.Expr, counters: set[str]) -> bool:
        """Whether an item a fixed table stores is fixed once setup is over and reads no local but
        the nest's `counters`, nor `this`: the same on every run of the block (`fixed_table`)."""
        if not scalar(self.c.type_of(e)):
            return False
        for n in ast.walk(e):
            if isinstance(n, (ast.This, ast.Base)):
                return False
            if isinstance(n, ast.Name):
                if id(n) in self.c.implicit_this:
                    return False
                if n.name in counters:
                    continue
                if self.layout.lookup(n.name) is not None:
                    return False
                nt = self.c.types.get(id(n))
                if not (isinstance(nt, ClassType) and nt.info.visibility == "global"):
                    return False
        local_names = {name for scope in self.layout.scopes for name in scope} | counters
        return self.c.purity.fixed(e, local_names)

    def fixed_table(self, table: fixed_tables.FixedTable, changed: dict, i: int, depth: int) -> None:
        """A fixed table (`fixed_table_at`) taken from the memo of this setup, its loop steps counted
        at once, when it was built before and the steps stay within the limit; else built as it was
        (its declaration and nest), and remembered once setup is over. Nothing but this code holds
        it and the code only reads its items, which are scalars: one table serves every run."""
        idx = self.c.memos
        self.c.memos += 1
        self.uses("MM", "SL")
        self.memo_tables.append(idx)
        total = self.fixed_steps(table.nest)
        held = self.name("_ft")
        self.emit(depth, f"if ({held} := MT{idx}.get(0)) is not None and m.steps + {total} <= SL:")
        self.emit(depth + 1, f"m.steps += {total}")
        self.counts = True
        at = len(self.lines)
        self.emit(depth + 1, f"{held} = None")  # the local's assignment, once it is declared
        widths = flat_views.widths(table.nest, table.name, self.counted)
        view = self.name("_fv")
        if widths is not None and len(self.loops) <= 2:
            # its flat view, made once per setup (`flat_read`), found by one subscript: a miss
            # (the view not made yet, or not remembered) makes it (a `try` is one block more)
            self.emit(depth + 1, "try:")
            self.emit(depth + 2, f"{view} = MT{idx}[1]")
            self.emit(depth + 1, "except KeyError:")
            self.emit(depth + 2, f"{view} = _fx_flat(MT{idx}, {held}, {widths!r}, MM[-1])")
        elif widths is not None:  # its flat view, made once per setup (`flat_read`)
            known = self.name("_t")
            self.emit(depth + 1, f"{view} = {known} if ({known} := MT{idx}.get(1)) is not None"
                                 f" else _fx_flat(MT{idx}, {held}, {widths!r}, MM[-1])")
        self.emit(depth, "else:")
        self.numbers_from = (changed, i)
        self.stmt(table.decl, depth + 1)
        self.numbers_from = (changed, i + 1)
        self.stmt(table.nest, depth + 1)
        slot = self.layout.lookup(table.name)
        self.emit(depth + 1, f"_fx_table(MM, {idx}, {self.local(slot)})")
        self.lines[at] = _Line(depth + 1, f"{self.local(slot)} = {held}")
        if widths is not None:
            self.emit(depth + 1, f"{view} = False")  # built on this run: read as it was
            self.flat_views[self.local(slot)] = (view, widths)

    def stmt(self, s: ast.Stmt, depth: int) -> None:
        method = getattr(self, "stmt_" + type(s).__name__, None)
        too_deep = depth >= MAX_INLINE_DEPTH or len(self.loops) >= MAX_INLINE_LOOPS
        if method is None or (too_deep and isinstance(s, (ast.If, ast.While, ast.For, ast.Block))):
            self.stmt_closure(s, depth)  # winner, input statements, deep nesting: their closure
            return
        method(s, depth)

    def stmt_closure(self, s: ast.Stmt, depth: int) -> None:
        """The compiler's closure of s, whose signal (BREAK, CONTINUE, a Returned) this code obeys."""
        self.closure()
        code = self.const(self.c.stmt(s, self.layout), "_s")
        r = self.name("_r")
        self.emit(depth, f"{r} = {code}(f)")
        self.emit(depth, f"if {r} is not None:")
        if self.loops:
            flag = self.loops[-1]
            self.continues[-1] += 1  # the closure may signal CONTINUE
            self.emit(depth + 1, f"if {r} is _BREAK:")
            if flag is not None:
                self.emit(depth + 2, f"{flag} = True")
            self.emit(depth + 2, "break")
            self.emit(depth + 1, f"if {r} is _CONTINUE:")
            self.emit(depth + 2, "break" if flag is not None else "continue")
        self.emit(depth + 1, f"return {r}")

    def stmt_Block(self, s: ast.Block, depth: int) -> None:
        self.block(s, depth)

    def stmt_VarDecl(self, s: ast.VarDecl, depth: int, scope=None) -> None:
        t = self.c._resolve(s.type)
        value = self.value(s.init, t) if s.init is not None else "None"
        slot = self.layout.declare(s.name, t)
        self.emit(depth, self.both(lambda value, self=self, slot=slot: f"{self.local(slot)} = {value}", value))
        if scope is None:  # seen by the statements after it in its block
            changed, i = self.numbers_from
            only_numbers = changed.get(s.name, -1) <= i
        else:
            only_numbers = s.name not in _changed([scope], self.c.types)
        if t == NUMBER and _float_valued(s.init, self.c.types) and only_numbers:
            self.numeric.add(self.local(slot))

    def stmt_ExprStmt(self, s: ast.ExprStmt, depth: int) -> None:
        e = s.expr
        if isinstance(e, ast.Assign):
            self.assign(e, depth)
        else:
            self.c.statements.add(id(e))  # a whole statement: an action called here is a `Site`
            if not self.turn_pass(e, depth):
                self.emit(depth, self.expr(e))  # its optimistic spelling under the same key

    def turn_pass(self, e: ast.Expr, depth: int) -> bool:
        """`turn.pass()` as a statement, spelled inline (`tgpl.runtime.passes`); False for any other
        statement (spelled as an expression)."""
        if not (isinstance(e, ast.Call) and isinstance(e.callee, ast.Member)
                and len(self.loops) < MAX_INLINE_LOOPS):
            return False
        ct = self.c.types.get(id(e.callee))
        if not (isinstance(ct, CallableType) and ct.kind == "builtin" and isinstance(ct.target, Signature)
                and ct.target.entry is TURN_PASS):
            return False
        if e.args or bind(ct.target, e):  # `turn.pass(p)`, `turn.pass(p, "P")`: the machine's call
            return False
        self.uses("FZ")
        known = self.c.passes
        passes.to_default(self.emit, self.name, self.const(e.span, "_p"), depth, self.const(known.seen, "_ts"))
        return True

    def condition(self, e: ast.Expr, depth: int) -> str:
        c = self.name("_c")
        self.emit(depth, self.both(lambda code, c=c: f"{c} = {code}", self.expr(e)))
        return c

    def stmt_If(self, s: ast.If, depth: int) -> None:
        code = self.expr(s.cond)
        if not _is_bool(s.cond):  # the condition made once, held and tested for a bool (`if_tail`)
            c = self.name("_c")
            self.emit(depth, self.both(lambda code, c=c: f"{c} = {code}", code))
            self.if_tail(s, c, depth)
            return
        self.emit(depth, self.both(lambda code: f"if {code}:", code))  # a bool for sure: no test that it is one
        self.block(s.then, depth + 1)
        if s.orelse is not None:
            self.emit(depth, "else:")
            self.stmt(s.orelse, depth + 1)

    def if_tail(self, s: ast.If, c: str, depth: int) -> None:
        """`if` on a condition not surely a bool, made and held in `c`: true, false, or an error."""
        span = self.const(s.cond.span, "_p")
        self.emit(depth, f"if {c} is True:")
        self.block(s.then, depth + 1)
        self.emit(depth, f"elif {c} is not False:")
        self.emit(depth + 1, f"_bad_condition(m, {c}, {span})")
        if s.orelse is not None:
            self.emit(depth, "else:")
            self.stmt(s.orelse, depth + 1)

    def loop_head(self, cond: ast.Expr | None, span_of_loop, depth: int) -> None:
        if cond is not None and _is_bool(cond):
            self.emit(depth, self.both(lambda code: f"if not {code}:", self.expr(cond)))
            self.emit(depth + 1, "break")
        elif cond is not None:
            c = self.condition(cond, depth)
            span = self.const(cond.span, "_p")
            self.emit(depth, f"if {c} is not True:")
            self.emit(depth + 1, f"if {c} is not False:")
            self.emit(depth + 2, f"_bad_condition(m, {c}, {span})")
            self.emit(depth + 1, "break")
        self.count_step(span_of_loop, depth)

    def count_step(self, span_of_loop, depth: int) -> None:
        """Machine.step inline: it counts, and raises once past the limit (read once per block,
        `SL`: a machine's limit never changes), with `m.steps` read once."""
        self.uses("SL")
        self.counts = True
        self.emit(depth, "m.steps = _st = m.steps + 1")
        self.emit(depth, "if _st > SL:")
        self.emit(depth + 1, f"m.step({self.const(span_of_loop, '_p')})")

    def fixed_steps(self, s: ast.For) -> int | None:
        """The loop steps a counted loop always counts, its own and those of the counted loops
        nested in it, when nothing in it can end it early, count other steps or read the count:
        no `while`, no loop but counted ones at the top of a body, no `break`, `continue` or
        `return`, no call (a function, an action, `turn.pass`...), no `new`, no input. Else None."""
        values = self.counted(s)
        if values is None:
            return None
        inner = self._fixed_steps_of(s.body)
        return None if inner is None else len(values) * (1 + inner)

    def _fixed_steps_of(self, stmt: ast.Stmt) -> int | None:
        if isinstance(stmt, ast.For):
            return self.fixed_steps(stmt)
        if isinstance(stmt, ast.Block):
            total = 0
            for inner in stmt.body:
                steps = self._fixed_steps_of(inner)
                if steps is None:
                    return None
                total += steps
            return total
        if any(isinstance(n, _UNPAID) for n in ast.walk(stmt)):
            return None
        return 0

    def stmt_While(self, s: ast.While, depth: int) -> None:
        self.emit(depth, "while True:")
        self.loop_head(s.cond, s.span, depth + 1)
        self.loops.append(None)
        self.continues.append(0)
        self.block(s.body, depth + 1)
        self.loops.pop()
        self.continues.pop()

    def counted(self, s: ast.For) -> tuple | None:
        """The values of the counter of `for (number x = a; x < b; x += c) { ... }` (or `<=`), a, b and
        c number literals, c > 0, and a body that never assigns x: at most MAX_COUNTED of them,
        computed as the loop computes them. Else None."""
        init, cond, post = s.init, s.cond, s.post
        if not (isinstance(init, ast.VarDecl) and init.type.name == "number" and not init.type.args
                and _number_literal(init.init)):
            return None
        x = init.name
        if not (isinstance(cond, ast.Binary) and cond.op in ("<", "<=") and isinstance(cond.left, ast.Name)
                and cond.left.name == x and _number_literal(cond.right)):
            return None
        if not (isinstance(post, ast.Assign) and post.op == "+=" and isinstance(post.target, ast.Name)
                and post.target.name == x and isinstance(post.value, ast.NumberLit) and float(post.value.value) > 0):
            return None
        for n in ast.walk(s.body):
            if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name) and n.target.name == x:
                return None
            if isinstance(n, (ast.VarDecl, ast.InputDecl, ast.Filter)) and n.name == x:
                return None

        def literal(e) -> float:
            return float(e.value) if isinstance(e, ast.NumberLit) else -float(e.operand.value)

        value, bound, step = literal(init.init), literal(cond.right), float(post.value.value)
        values = []
        while (value < bound if cond.op == "<" else value <= bound):
            values.append(value)
            if len(values) > MAX_COUNTED:
                return None
            value = float(value + step)
        return tuple(values)

    def stmt_For(self, s: ast.For, depth: int) -> None:
        values = self.counted(s)
        if values is not None:
            # A counted loop: a Python loop over the counter's values, which the loop would
            # compute one by one; a step counted for each, as the condition holds for each.
            self.layout.push()
            slot = self.layout.declare(s.init.name, NUMBER)
            x = self.local(slot)
            self.numeric.add(x)
            head = len(self.lines)
            self.emit(depth, f"for {x} in {values!r}:")
            if all(value == int(value) for value in values):
                # Whole values: the loop also gives each as an int, the index of a list read or
                # written with the counter (`d` in `at.Step[d]`), instead of `int(d)` there
                self.indexes[x] = self.name("_j")
                if values:
                    self.index_ranges[x] = (int(values[0]), int(values[-1]))
            self.count_step(s.span, depth + 1)
            self.loops.append(None)
            self.continues.append(0)
            try:
                self.block(s.body, depth + 1)
            finally:
                j = self.indexes.pop(x, None)
                self.index_ranges.pop(x, None)
            if j is not None and j in self.index_reads:
                # the body reads the ints: the loop gives them (else it is cheaper without)
                self.lines[head] = _Line(depth, f"for {j}, {x} in {tuple((int(value), value) for value in values)!r}:")
            self.loops.pop()
            self.continues.pop()
            self.layout.pop()
            return
        # The body sits in a one-pass inner loop: `continue` leaves it and still runs
        # the post expression; `break` sets a flag that also ends the outer loop.
        self.layout.push()
        if isinstance(s.init, ast.VarDecl):
            self.stmt_VarDecl(s.init, depth, [s.cond, s.post, s.body])
        elif isinstance(s.init, ast.Assign):
            self.assign(s.init, depth)
        elif s.init is not None:
            self.emit(depth, self.expr(s.init))
        flag = self.name("_brk")
        self.emit(depth, f"{flag} = False")
        self.emit(depth, "while True:")
        self.loop_head(s.cond, s.span, depth + 1)
        self.emit(depth + 1, "for _once in (None,):")
        once = len(self.lines) - 1
        self.loops.append(flag)
        self.continues.append(0)
        self.block(s.body, depth + 2)
        self.loops.pop()
        if not self.continues.pop():
            # Nothing continues this loop: the body runs in the outer loop itself (a `break`
            # there still skips the post expression), one Python loop less per step.
            del self.lines[once]
            self.lines[once:] = [line._replace(depth=line.depth - 1) for line in self.lines[once:]]
        self.emit(depth + 1, f"if {flag}:")
        self.emit(depth + 2, "break")
        if isinstance(s.post, ast.Assign):
            self.assign(s.post, depth + 1)
        elif s.post is not None:
            self.emit(depth + 1, self.expr(s.post))
        self.layout.pop()

    def stmt_Break(self, s: ast.Break, depth: int) -> None:
        if not self.loops:  # a block run as a closure inside a loop: signal the loop
            self.closure()  # a signal to the closure running this block
            self.emit(depth, "return _BREAK")
            return
        flag = self.loops[-1]
        if flag is not None:
            self.emit(depth, f"{flag} = True")
        self.emit(depth, "break")

    def stmt_Continue(self, s: ast.Continue, depth: int) -> None:
        if not self.loops:
            self.closure()
            self.emit(depth, "return _CONTINUE")
            return
        self.continues[-1] += 1
        self.emit(depth, "break" if self.loops[-1] is not None else "continue")

    def stmt_Winner(self, s: ast.Winner, depth: int) -> None:
        value, span = self.expr(s.value), self.const(s.span, "_p")
        self.emit(depth, self.both(lambda value, span=span: f"_winner(m, {value}, {span})", value))

    def stmt_Return(self, s: ast.Return, depth: int) -> None:
        value = self.expr(s.value) if s.value is not None else "None"
        self.lines.append(_Line(depth, value, returns=True))

    # ----------------------------------------------------------- assignment
    def assign(self, e: ast.Assign, depth: int) -> None:
        target = e.target
        slot = self.layout.lookup(target.name) if isinstance(target, ast.Name) else None
        target_t = self.c.type_of(target)
        if slot is not None:
            target_t = self.layout.types.get(slot, target_t)
        value = self.value(e.value, target_t) if e.op == "=" else self.compound(e, target_t)
        if slot is not None:
            self.emit(depth, self.both(lambda value, self=self, slot=slot: f"{self.local(slot)} = {value}", value))
        elif isinstance(target, ast.Index):
            self.store_index(target, value, depth)
        else:  # a field, by its name or of an object: the checker takes no other target
            # a compound assignment's value is a number (`arith_expr`, `Machine.arith`), a player or a string
            plain = e.op != "=" and target_t in (NUMBER, PLAYER, STRING)
            self.store_member(target, value, depth, plain)

    def store_member(self, target: ast.Name | ast.Member, value: str, depth: int, plain: bool = False) -> None:
        """`o.f = x`: object, then value, evaluated as `Machine.set_member` has them; a value that
        is not a list or table given to an object of the world's, the object's dict copied first
        if need be (`World.own_fields`), inline; anything else (a list or table, the errors, a
        frozen machine, lists copied at once) by `Machine.set_member`. `plain`: the value is known
        to be one a field holds as it is (`values.PLAIN`), as is `this` or a literal (`_plain_code`):
        not tested; such a value, made by no code, is not kept in a temporary, nor
        is an object that is a local or `this` (the value's code cannot change it)."""
        if isinstance(target, ast.Name):
            obj, span = self.this(), self.const(target.span, "_p")
        else:
            obj, span = self.expr(target.obj), self.const(target.name_span, "_p")
        known = _plain_code(value)
        if known and (obj == self.this_code or isinstance(obj, LocalCode)):
            a, x = obj, value
        else:
            a, x = self.name("_t"), self.name("_t")
            self.emit(depth, f"{a} = {obj}")
            self.emit(depth, f"{x} = {value}")
        self.uses("FZ")
        test = "" if plain or known else f" & ({x}.__class__ in _P)"
        self.emit(depth, f"if ({a}.__class__ is _Obj){test} and {a}.fixed is None and not FZ and m.lazy_lists:")
        self.emit(depth + 1, f"m.world.own_fields({a})[{target.name!r}] = {x}")
        self.emit(depth, "else:")
        self.emit(depth + 1, f"m.set_member({a}, {target.name!r}, {x}, {span})")

    def store_index(self, target: ast.Index, value: str, depth: int) -> None:
        """`t[k] = x`: object, key, then value evaluated, as in the closures; a table with a key
        and a value, or a list and an index in range, stored inline; anything else (removing a
        table pair, the errors) by Machine.set_index."""
        t = self.c.type_of(target.obj)
        if not (isinstance(t, Collection) and t.kind in ("Table", "List")):
            # object, key, then value evaluated (Python's order of arguments), as in the closures
            obj, key, span = self.expr(target.obj), self.expr(target.index), self.const(target.span, "_p")
            self.emit(depth, f"m.set_index({obj}, {key}, {value}, {span})")
            return
        a, k, x = self.name("_t"), self.name("_t"), self.name("_t")
        self.emit(depth, f"{a} = {self.expr(target.obj)}")
        key = self.expr(target.index)
        self.emit(depth, f"{k} = {key}")
        self.emit(depth, f"{x} = {value}")
        number = key in self.numeric or _is_float_literal(key)  # a float: neither null nor a bool
        self.uses("FZ")
        if t.kind == "Table":
            tests = [f"({a}.__class__ is dict)"]
            if not number:
                tests.append(f"({k} is not None)")
            if not (value in ("{}", "[]") or _is_float_literal(value)):
                tests.append(f"({x} is not None)")
            self.emit(depth, f"if {' & '.join(tests)} and not FZ:")
            self.emit(depth + 1, f"{a}[{k}] = {x}")
        else:
            number_test = "" if number else f" & ({k}.__class__ in _N)"
            self.emit(depth, f"if ({a}.__class__ is list){number_test} and 0 <= {k} < len({a}) and not FZ:")
            self.emit(depth + 1, f"{a}[{self.list_index(k, key)}] = {x}")
        self.emit(depth, "else:")
        self.emit(depth + 1, f"m.set_index({a}, {k}, {x}, {self.const(target.span, '_p')})")

    def compound(self, e: ast.Assign, target_t: Type) -> str:
        current, raw = self.expr(e.target), self.expr(e.value)
        op = e.op[0]
        span = self.const(e.span, "_p")
        if target_t == STRING:
            return self.both(lambda current, raw, span=span: f"m.concat({current}, {raw}, {span})", current, raw)
        fn = self.const(self.arith[op], "_f")
        if target_t == PLAYER:
            return self.both(lambda current, raw, fn=fn, op=op, span=span: f"_as_player(m.arith({fn}, {op!r}, {current}, {raw}, {span}), m.players)",
                             current, raw)
        return self.arith_expr(op, current, raw, span, fn)

    # ----------------------------------------------------------- expressions
    def value(self, e: ast.Expr, want: Type) -> str:
        code = self.expr(e, want)
        if want == PLAYER and self.c.type_of(e) != PLAYER:
            return self.both(lambda code: f"_as_player({code}, m.players)", code)
        return code

    def fallback(self, e: ast.Expr, want: Type | None = None) -> str:
        self.closure()
        self.counts = True
        return f"{self.const(self.c.expr(e, self.layout, want), '_x')}(f)"

    def expr(self, e: ast.Expr, want: Type | None = None) -> str:
        if not self.in_fixed and self.c.purity is not None and self.nesting < MAX_INLINE_NESTING - 2:
            fixed = self.fixed(e)
            if fixed is not None:
                return fixed
        if isinstance(e, ast.InitList):
            t = want if want is not None else self.c.type_of(e)
            if not e.items and isinstance(t, Collection):  # `{}`: a new empty table or list, inline
                return "{}" if t.kind == "Table" else "[]"
            if isinstance(t, Collection) and t.kind in ("List", "Stack") and self.nesting < MAX_INLINE_NESTING - 2:
                # `{1, 0, 1, 1}`: a new list, its items evaluated in order (Compiler.init_list)
                self.nesting += 1
                try:
                    return self.both(lambda *items: "[" + "".join(f"{i}, " for i in items) + "]",
                                     *[self.value(i, t.elem) for i in e.items])
                finally:
                    self.nesting -= 1
            return self.fallback(e, want)
        method = getattr(self, "expr_" + type(e).__name__, None)
        # Python's parser takes at most 200 nested parentheses: deeper expressions become closures.
        if method is None or self.nesting >= MAX_INLINE_NESTING:
            return self.fallback(e, want)
        self.nesting += 1
        try:
            return method(e)
        finally:
            self.nesting -= 1

    def fixed(self, e: ast.Expr) -> str | None:
        """`e` remembered in the world's memo (`World.memo`), keyed by `this` and the locals it reads,
        when it is worth it and its value is fixed once setup is over (`Purity.fixed`: it reads
        only fields no code after setup assigns, group cells, pure functions...): Tris's
        `GameState.Board.TrisGrid[x][y] as TickTile`, Connect Four's `GameState.Board.ColumnOf(cell:
        column) >= 0`. Else None. As for a pure function's memo (`_site`), a value that raised
        is not remembered, and a remembered one counts the loop steps its calls ran."""
        t = self.c.type_of(e)
        if not scalar(t) or isinstance(e, (ast.NumberLit, ast.StringLit, ast.BoolLit, ast.NullLit, ast.This)):
            return None
        cost, calls = 0, False
        keys: dict[int, Type] = {}  # slot -> type of the locals read
        uses_this = False
        for n in ast.walk(e):
            if isinstance(n, ast.Call):
                ct = self.c.types.get(id(n.callee))
                if isinstance(ct, CallableType) and ct.kind == "function":
                    cost += 3
                    calls = True
            elif isinstance(n, ast.Member):
                if isinstance(self.c.type_of(n.obj), ClassType) and not isinstance(self.c.types.get(id(n)), CallableType):
                    cost += 1
            elif isinstance(n, ast.Index):
                if isinstance(self.c.type_of(n.obj), ClassType):
                    cost += 1
            elif isinstance(n, ast.This):
                uses_this = True
            elif isinstance(n, ast.Name):
                if id(n) in self.c.implicit_this:
                    uses_this = True  # a field of `this`, or a method called on it
                    if not isinstance(self.c.types.get(id(n)), CallableType):
                        cost += 1
                    continue
                slot = self.layout.lookup(n.name)
                if slot is not None:
                    st = self.layout.types.get(slot, self.c.type_of(n))
                    if not scalar(st):
                        return None
                    keys[slot] = st
                    continue
                nt = self.c.types.get(id(n))
                if isinstance(nt, CallableType):
                    continue
                if not (isinstance(nt, ClassType) and nt.info.visibility == "global"):
                    return None
        if cost < 3:  # a lookup costs about as much as two field reads
            return None
        local_names = {name for scope in self.layout.scopes for name in scope}
        if not self.c.purity.fixed(e, local_names):
            return None
        idx = self.c.memos
        self.c.memos += 1
        self.in_fixed = True
        try:
            inner = self.expr(e)
        finally:
            self.in_fixed = False
        parts = ([self.this()] if uses_this else []) + [self.local(slot) for slot in sorted(keys)]
        key = _key_tuple(parts) if parts else "0"
        tests = "".join(" and " + _key_test(self.local(slot), keys[slot]) for slot in sorted(keys)
                        if self.local(slot) not in self.numeric)
        k, h = self.name("_mk"), self.name("_mh")
        charge = f" and (not {h}[1] or _charge(m, {h}[1]))" if calls else ""
        self.counts = self.counts or bool(calls)
        if calls and self.optimistic is not None and self.what == "filter":
            # `filter_all`'s optimistic spelling counts a remembered value's loop steps in a
            # local, once for the whole listing
            charge = self.read_quick(charge, f" and (not {h}[1] or ((_acc := _acc + {h}[1]) or True))")
        self.uses("MM")
        self.memo_tables.append(idx)  # its table bound on entry (`preamble`)
        test = f"({k} := _M) is _M{tests} and " if tests else ""  # a value not a key is not looked up
        safe = self.both(lambda charge, inner, h=h, idx=idx, k=k, key=key, test=test: f"({h}[0] if {test}({h} := MT{idx}.get(({k} := {key}))) is not None{charge}"
                         f" else _fx_store(MM, {idx}, {k}, m, m.steps, {inner}))", charge, inner)
        self.fixed_spellings[safe] = (idx, key, keys[next(iter(keys))] if len(keys) == 1 and not uses_this else None)
        return safe

    def expr_NumberLit(self, e: ast.NumberLit) -> str:
        value = float(e.value)
        return repr(value) if _is_float_literal(repr(value)) else self.const(value)

    def expr_StringLit(self, e: ast.StringLit) -> str:
        return repr(e.value)

    def expr_BoolLit(self, e: ast.BoolLit) -> str:
        return "True" if e.value else "False"

    def expr_NullLit(self, e: ast.NullLit) -> str:
        return "None"

    def expr_This(self, e: ast.This) -> str:
        return self.this()

    def expr_Name(self, e: ast.Name) -> str:
        slot = self.layout.lookup(e.name)
        if slot is not None:
            return self.local(slot)
        if id(e) in self.c.implicit_this:
            # a member of `this` by its name alone: code of a class, where `this` is an object
            plain = scalar(self.c.type_of(e))
            return self.member(self.this(), e.name, self.const(e.span, "_p"), known=True, plain=plain)
        if e.name == "event":
            self.closure()  # read only by a Frame's spelling, which a closure makes the one
            return "f.event"
        t = self.c.type_of(e)
        if isinstance(t, ClassType) and t.info.visibility == "global":
            g = self.name("_t")  # Machine.global_object inline; it raises when there is none
            self.uses("G")
            safe = f"({g} if ({g} := G.get({t.info.name!r})) is not None else m.global_object({t.info.name!r}))"
            if self.optimistic is not None:  # none: a KeyError, and the general spelling raises
                return self.read_quick(safe, f"G[{t.info.name!r}]")
            return safe
        return self.fallback(e)

    def class_test(self, e: ast.Expr, ref: ast.TypeRef) -> tuple[str, str] | None:
        """(temporary, test) for `is`/`as` against a class, else None (the closure handles it)."""
        t = self.c._resolve(ref)
        if not isinstance(t, ClassType):
            return None
        rc = self.const(self.c.rclass(t.info), "_rc")
        a = self.name("_t")
        return a, self.both(lambda code, a=a, rc=rc: f"(({a} := {code}).__class__ is _Obj and {rc} in {a}.cls.ancestry)", self.expr(e))

    def expr_TypeTest(self, e: ast.TypeTest) -> str:
        test = self.class_test(e.expr, e.type)
        return test[1] if test is not None else self.fallback(e)

    def expr_Cast(self, e: ast.Cast) -> str:
        test = self.class_test(e.expr, e.type)
        if test is None:
            return self.fallback(e)
        a, cond = test
        return self.both(lambda cond, a=a: f"({a} if {cond} else None)", cond)

    def expr_Member(self, e: ast.Member) -> str:
        obj_t = self.c.type_of(e.obj)
        if not isinstance(obj_t, (ClassType, Collection)):
            return self.fallback(e)
        if isinstance(obj_t, Collection) and e.name == "length":
            # a list's or table's length inline, as Machine.length gives it; anything else there
            obj, t = self.read_only(e.obj)[0], self.name("_t")
            span = self.const(e.name_span, "_p")
            return self.both(lambda obj, span=span, t=t: f"(float(len({t})) if ({t} := {obj}).__class__ is list or {t}.__class__ is dict"
                             f" else m.length({t}, {span}))", obj)
        obj = self.expr(e.obj)
        typed, plain = isinstance(obj_t, ClassType), scalar(self.c.type_of(e))
        return self.member(obj, e.name, self.const(e.name_span, "_p"), typed=typed, plain=plain)

    def read_only(self, e: ast.Expr, owned: bool = False) -> tuple[str, str | None, str | None]:
        """(code, owner, field) for a list or table that the code reads and lets go of (its length,
        an item that is not itself a list or table, `contains`, `indexOf`): a field of an object is
        read without the world owning the object (`World.own`), since nothing can change it through
        this read; `owner` names the object and `field` the field (else None, None). `owned`: the
        caller reads `owner` (an index's), which the optimistic spelling then binds too."""
        if isinstance(e, ast.Member) and isinstance(self.c.type_of(e.obj), ClassType):
            obj = self.expr(e.obj)
            owner = obj if _named(obj) else self.name("_t")
            return (self.member(obj, e.name, self.const(e.name_span, "_p"), peek=owner, typed=True, owned=owned),
                    owner, e.name)
        if isinstance(e, ast.Name) and self.layout.lookup(e.name) is None and id(e) in self.c.implicit_this:
            this = self.this()
            return self.member(this, e.name, self.const(e.span, "_p"), known=True, peek=this), this, e.name
        return self.expr(e), None, None

    def member(self, obj: str, name: str, span: str, known: bool = False, peek: str | None = None,
               typed: bool = False, plain: bool = False, owned: bool = False) -> str:
        """A field of an object inline, as `_member` reads it; anything else goes to the machine.
        `known`: `obj` is an object for sure (no class test). `peek`: the name to bind the object
        to, for a list or table that the code only reads (`read_only`): it is read as it is,
        without the world owning the object first. `typed`: `obj` is declared as a class, so it
        holds an object or null (never a list or table, which cannot be a key of the world's table).
        `plain`: the field is declared with a scalar type (number, bool, string, player, a class),
        so its value is never a list or table that the world would have to own first. `owned`:
        the caller reads `peek`, so the optimistic spelling binds it too."""
        if peek in (None, obj) and _named(obj):  # a local or `this`, read again rather than bound
            a = bind = obj
        else:
            a = peek or self.name("_t")
            bind = self.both(lambda obj, a=a: f"({a} := {obj})", obj)
        b = self.name("_t")
        if name == "player" and peek is None and not self.c.player_fields:
            # No object has a field named `player` (no class declares one): an object's first
            # owner, as Machine.get_member reads it then
            o = self.name("_t")
            self.uses("W")
            return self.both(lambda bind, a=a, o=o, span=span: f"(({o}[0] if ({o} := W.get({a})) else None) if {bind}.__class__ is _Obj"
                             f" else m.get_member({a}, 'player', {span}))", bind)
        self.uses("D")
        if known or typed:
            # `obj` is an object or null (its declared type is a class): a null, a fixed object
            # (not in the world's table) or a missing field read `_M` from the empty dict and go
            # to the machine, which reads them or raises, as the tests below send them there
            if peek is not None or (name != "player" and plain):
                safe = self.both(lambda bind, a=a, b=b, name=name, span=span: f"({b} if ({b} := D[0 if {bind} is None else {a}.place].get({name!r}, _M))"
                                 f" is not _M else m.get_member({a}, {name!r}, {span}))", bind)
                if self.optimistic is not None:  # the list or table as it is, the object still named
                    held = bind if peek is not None and owned else obj
                    return self.read_quick(safe, f"D[{_place(_quick(held))}][{name!r}]")
                return safe
            if name != "player":
                self.uses("O")
                return self.both(lambda bind, a=a, b=b, name=name, span=span: f"({b} if ({b} := D[0 if {bind} is None else {a}.place].get({name!r}, _M))"
                                 f".__class__ in _P or ({b} is not _M and {a} in O) else m.get_member({a}, {name!r}, {span}))",
                                 bind)
        test = self.both(lambda bind, known=known: f"({bind} is not None)" if known else f"{bind}.__class__ is _Obj", bind)
        if peek is not None:
            return self.both(lambda test, a=a, b=b, name=name, span=span: f"({b} if {test} and ({b} := D[{a}.place].get({name!r}, _M)) is not _M"
                             f" else m.get_member({a}, {name!r}, {span}))", test)
        self.uses("O")
        found = self.both(lambda test, a=a, b=b, name=name: f"{test} and (({b} := D[{a}.place].get({name!r}, _M)).__class__ in _P"
                          f" or ({b} is not _M and {a} in O))", test)
        if name == "player":  # an object's first owner, as Machine.get_member reads it
            o = self.name("_t")
            return self.both(lambda found, a=a, b=b, name=name, o=o, span=span: f"({b} if {found} else ({o}[0] if ({o} := m.world.owners.get({a})) else None)"
                             f" if {a}.__class__ is _Obj else m.get_member({a}, {name!r}, {span}))", found)
        return self.both(lambda found, a=a, b=b, name=name, span=span: f"({b} if {found} else m.get_member({a}, {name!r}, {span}))", found)

    def flat_read(self, e: ast.Index) -> tuple[str, str] | None:
        """A whole item of a fixed table with a flat view (`tgpl.runtime.flat_views`), its keys whole
        literals or counters that count in ints, all within the view: (the view, the item's index
        in it); else None."""
        chain = []
        x: ast.Expr = e
        while isinstance(x, ast.Index):
            chain.append(x.index)
            x = x.obj
        slot = self.layout.lookup(x.name) if isinstance(x, ast.Name) else None
        found = self.flat_views.get(self.local(slot)) if slot is not None else None
        if found is None or len(chain) != len(found[1]):
            return None
        view, widths = found
        ints = []
        for k, w in zip(reversed(chain), widths):
            if isinstance(k, ast.NumberLit):
                v = float(k.value)
                if v != int(v) or not 0 <= v < w:
                    return None
                ints.append(str(int(v)))
                continue
            at = self.layout.lookup(k.name) if isinstance(k, ast.Name) else None
            code = self.local(at) if at is not None else None
            if code not in self.indexes or code not in self.index_ranges:
                return None
            lo, hi = self.index_ranges[code]
            if lo < 0 or hi >= w:
                return None
            ints.append(self.indexes[code])
        self.index_reads.update(ints)
        return view, flat_views.key(ints, widths)

    def expr_Index(self, e: ast.Index) -> str:
        flat = self.flat_read(e) if self.flat_views else None
        if flat is not None:  # one lookup while the table has its view, else read as it is
            view, key = flat
            return self.both(lambda read, key=key, view=view: f"({view}[{key}] if {view} else {read})", self.expr_Index_read(e))
        return self.expr_Index_read(e)

    def expr_Index_read(self, e: ast.Index) -> str:
        t = self.c.type_of(e.obj)
        if isinstance(t, Collection) and t.kind in ("Table", "List"):
            # The common case inline (a table and a key, a list and an index in range), as
            # `_index` does it; anything else goes to `_index`, which raises the errors. A list
            # or table read from a field is read as it is; an item that is itself a list or
            # table is read again with the object owned (`_owned_index`), since the code may
            # change it.
            obj, owner, field = self.read_only(e.obj, owned=True)
            key, span = self.expr(e.index), self.const(e.span, "_p")
            a, k, r = self.name("_t"), self.name("_t"), self.name("_t")
            table = t.kind == "Table"
            if key in self.numeric or _is_float_literal(key):
                # a float key (a literal, a numbers-only local): not null, and read as it is
                # after the list or table, as it would be bound then
                k = key
                test = self.both(lambda obj, a=a, k=k, table=table: f"(({a} := {obj}).__class__ is dict)" if table
                                 else f"(({a} := {obj}).__class__ is list) and 0 <= {k} < len({a})", obj)
            elif table:
                test = self.both(lambda obj, key, a=a, k=k: f"(({a} := {obj}).__class__ is dict) & (({k} := {key}) is not None)",
                                 obj, key)
            else:
                test = self.both(lambda obj, number, a=a, k=k: f"(({a} := {obj}).__class__ is list) & {number} and 0 <= {k} < len({a})",
                                 obj, self.number_key(k, key))
            item = f"{a}.get({k})" if table else f"{a}[{self.list_index(k)}]"
            if owner is None:
                safe = self.both(lambda test, a=a, item=item, k=k, span=span: f"({item} if {test} else _index(m, {a}, {k}, {span}))", test)
                return self.quick_item(safe, obj, key, t, self.c.type_of(e.index) == NUMBER) if not table else safe
            safe = self.both(lambda test, a=a, field=field, item=item, k=k, owner=owner, r=r, span=span: f"({r} if {test} and (({r} := {item}).__class__ in _P or {owner} in O)"
                             f" else _owned_index(m, {owner}, {field!r}, {a}, {k}, {span}))", test)
            code = self.quick_item(safe, obj, key, t, self.c.type_of(e.index) == NUMBER) if not table else safe
            self.uses("O", kept=code is safe)  # read by the general spelling only, where it has a quick one
            return code
        obj, key, span = self.expr(e.obj), self.expr(e.index), self.const(e.span, "_p")
        if isinstance(t, ClassType):  # a group's cells, `Grid[c]`, inline as `_index` reads them
            a, k, cells = self.name("_t"), self.name("_t"), self.name("_t")
            test = self.both(lambda obj, number, a=a, cells=cells, k=k: f"(({a} := {obj}).__class__ is _Obj) & {number}"
                             f" and ({cells} := D[{a}.place].get('_cells')) is not None and 0 <= {k} < len({cells})",
                             obj, self.number_key(k, key))
            self.uses("D")
            index = self.list_index(k, key)
            return self.both(lambda test, a=a, cells=cells, index=index, k=k, span=span: f"({cells}[{index}] if {test} else _index(m, {a}, {k}, {span}))", test)
        return self.both(lambda obj, key, span=span: f"_index(m, {obj}, {key}, {span})", obj, key)

    def quick_item(self, safe: str, obj: str, key: str, t: Collection, number: bool) -> str:
        """In the optimistic spelling of a function or filter that reads only (`optimistic`): an
        item of a list of scalars or objects (`safe`, the general spelling) read as `list[i]`,
        one lookup with no test, when the index is surely a whole number and not negative (a
        whole literal, a counter that also counts in ints: `indexes`), or `list[_IX[k]]` for a
        local that holds only floats (`numeric`): `_IX` maps the whole floats up to
        `QUICK_INDEXES` to ints, so a negative, fractional, infinite or larger one misses
        (`KeyError`). Any other index declared a `number` (`number`) is read the same when it
        holds a float, else it is `_BIG`, past any list's end. An index past the end
        (`IndexError`) or a null list (`TypeError`) is a miss too (`misses`): the code runs
        again the general way, which reads or raises as before. Such an item needs no owning:
        it is never a list or table the code could change. `safe`, with it where it has one."""
        if self.optimistic is None or not scalar(t.elem):
            return safe
        if key in self.indexes:
            index = self.indexes[key]
            self.index_reads.add(index)
        elif _is_float_literal(key) and float(key) >= 0 and float(key) == int(float(key)):
            index = repr(int(float(key)))
        elif key in self.numeric:  # a float: `_IX` has the whole ones that can index a list
            index = f"_IX[{key}]"
        elif number:  # a float, else (an int, a null) past any end: the general way reads it
            k = self.name("_t")
            index = self.both(lambda key, k=k: f"(_IX[{k}] if ({k} := {key}).__class__ is float else _BIG)", key)
        else:
            return safe
        self.quick_items = True
        return self.read_quick(safe, f"{_quick(obj)}[{_quick(index)}]")

    def list_index(self, k: str, key: str | None = None) -> str:
        """The Python index of a list for the number `k` (the code of `key`, bound to `k`), once
        `0 <= k < len(list)` holds: `int(k)`, or with no call for a whole literal (`0.0`: `0`) and
        a counter that also counts in ints (`indexes`)."""
        key = k if key is None else key
        if key in self.indexes:
            self.index_reads.add(self.indexes[key])
            return self.indexes[key]
        if _is_float_literal(key) and float(key) == int(float(key)):
            return repr(int(float(key)))
        return f"int({k})"

    def number_key(self, k: str, key: str) -> str:
        """The test that an index is a number, binding it to `k`: a number literal needs none."""
        return f"(({k} := {key}) is not None)" if _is_float_literal(key) else self.number_test(k, key)

    def expr_Unary(self, e: ast.Unary) -> str:
        a = self.name("_t")
        operand = self.expr(e.operand)
        span = self.const(e.span, "_p")
        if e.op == "!" and _is_bool(e.operand):
            return self.both(lambda operand: f"(not {operand})", operand)
        if e.op == "!":
            return self.both(lambda operand, a=a, span=span: f"(not {a} if (({a} := {operand}) is True or {a} is False)"
                             f" else _bad_bool(m, '!', {a}, {span}))", operand)
        if _is_float_literal(operand):  # `-1`: the negated literal itself
            return f"({-float(operand)!r})"
        return self.both(lambda operand, a=a, span=span: f"(-{a} if ({a} := {operand}).__class__ in _N else _bad_bool(m, '-', {a}, {span}))",
                         operand)

    def numbers(self, left: str, right: str, floats: bool = False) -> tuple[str, str, str]:
        """(left, right, test that both are numbers), each operand evaluated once, left first.
        `floats`: test that both are floats instead (an int, a player kept in a number, fails).

        A number literal (`i < 3`, `i += 1`) is used as it is and not tested: it is a float.
        """
        # A local that only ever holds numbers is read as it is (twice if need be): the right one
        # after the left operand, the left one only before a literal or such a local.
        lit_right = _is_float_literal(right) or right in self.numeric
        lit_left = _is_float_literal(left) or left in self.numeric and lit_right
        a = left if lit_left else self.name("_t")
        b = right if lit_right else self.name("_t")
        tests = (([] if lit_left else [self.number_test(a, left, floats)])
                 + ([] if lit_right else [self.number_test(b, right, floats)]))
        return a, b, self.both(lambda *tests: " & ".join(tests) or "True", *tests)

    def number_test(self, name: str, code: str, floats: bool = False) -> str:
        """`code` bound to `name`, and tested to be a number (`floats`: a float) unless it is a
        local that only ever holds numbers (`_changed`), floats all."""
        if code in self.numeric:
            return f"(({name} := {code}) is not None)"
        return self.both(lambda code, floats=floats, name=name: f"(({name} := {code}).__class__ {'is float' if floats else 'in _N'})", code)

    def arith_expr(self, op: str, left: str, right: str, span: str, fn: str) -> str:
        fallback = "m.arith({fn}, {op!r}, {a}, {b}, {span})"
        if _is_float_literal(left) or _is_float_literal(right):  # with a float operand the result is a float
            a, b, test = self.numbers(left, right)
            return self.both(lambda a, b, test, fallback=fallback, fn=fn, op=op, span=span: f"({a} {op} {b} if {test} else {fallback.format(fn=fn, op=op, a=a, b=b, span=span)})",
                             a, b, test)
        # Two floats give a float (numbers-only locals are floats): no float() call in the common
        # case; an int (a player kept in a number) is a number too, made a float as before
        a, b, test = self.numbers(left, right, floats=True)
        return self.both(lambda a, b, test, fallback=fallback, fn=fn, op=op, span=span: f"({a} {op} {b} if {test} else float({a} {op} {b})"
                         f" if ({a}.__class__ in _N) & ({b}.__class__ in _N)"
                         f" else {fallback.format(fn=fn, op=op, a=a, b=b, span=span)})", a, b, test)

    def expr_Binary(self, e: ast.Binary) -> str:
        op = e.op
        result_t = self.c.type_of(e)
        if op in ("&&", "||"):
            return self.short_circuit(e)
        if op in ("==", "!="):
            if isinstance(e.right, ast.NullLit) or isinstance(e.left, ast.NullLit):
                # `_eq(x, null)` is `x is null` for every value: null equals only itself
                other = e.left if isinstance(e.right, ast.NullLit) else e.right
                test = self.both(lambda code: f"({code} is None)", self.expr(other))
            else:
                test = self.equal(self.expr(e.left), self.expr(e.right), self.c.type_of(e.left), self.c.type_of(e.right))
            return test if op == "==" else self.both(lambda test: f"(not {test})", test)
        if op == "+" and result_t == STRING:
            left, right, span = self.expr(e.left), self.expr(e.right), self.const(e.span, "_p")
            return self.both(lambda left, right, span=span: f"m.concat({left}, {right}, {span})", left, right)
        if op in ("&", "|") or (op == "^" and result_t == BOOL):
            return self.fallback(e)  # the non-short-circuit bool operators
        left, right = self.expr(e.left), self.expr(e.right)
        span = self.const(e.span, "_p")
        fn = self.const(self.arith[op], "_f")
        if result_t == PLAYER:
            general = "_as_player(m.arith({fn}, {op!r}, {a}, {b}, {span}), m.players)"
            if op in ("+", "-") and (_is_float_literal(left) or _is_float_literal(right)):
                # `player.active() + 1`: a player (an int) and a number literal give a finite
                # float, as Machine.arith would, mapped onto the players; anything else goes there
                a = left if _is_float_literal(left) else self.name("_t")
                b = right if _is_float_literal(right) else self.name("_t")
                x, code = (a, left) if a != left else (b, right)
                literal = b if x == a else a
                if float(literal) == int(float(literal)):
                    # a whole literal: the int sum itself, mapped by Python's `%` (`to_player`
                    # of a whole number r is r % P, below zero too), with no call
                    whole = repr(int(float(literal)))
                    ia, ib = (a, whole) if x == a else (whole, b)
                    return self.both(lambda code, a=a, b=b, fn=fn, general=general, ia=ia, ib=ib, op=op, span=span, x=x: f"(({ia} {op} {ib}) % m.players if ({x} := {code}).__class__ is int"
                                     f" else {general.format(fn=fn, op=op, a=a, b=b, span=span)})", code)
                return self.both(lambda code, a=a, b=b, fn=fn, general=general, op=op, span=span, x=x: f"(_to_player({a} {op} {b}, m.players) if ({x} := {code}).__class__ is int"
                                 f" else {general.format(fn=fn, op=op, a=a, b=b, span=span)})", code)
            return self.both(lambda left, right, fn=fn, general=general, op=op, span=span: general.format(fn=fn, op=op, a=left, b=right, span=span), left, right)
        if op in _COMPARE:
            a, b, test = self.numbers(left, right)
            return self.both(lambda a, b, test, fn=fn, op=op, span=span: f"({a} {op} {b} if {test} else m.compare({fn}, {op!r}, {a}, {b}, {span}))",
                             a, b, test)
        if op in _INLINE_ARITH:
            return self.arith_expr(op, left, right, span, fn)
        return self.both(lambda left, right, fn=fn, op=op, span=span: f"m.arith({fn}, {op!r}, {left}, {right}, {span})", left, right)

    def equal(self, left: str, right: str, lt: Type | None = None, rt: Type | None = None) -> str:
        """`_eq` inline for its common cases: the same value (objects, null); two numbers, strings
        or nulls (`_SCALARS`: Python's `==` is `_eq` for them); an object against anything else;
        the rest (bools, lists, tables) goes to `_eq`. Operands declared as objects are tested
        for those first."""
        a, b = self.name("_t"), self.name("_t")
        if _is_float_literal(left) or _is_float_literal(right):  # `n == 0`: against a float
            lit, other = (left, right) if _is_float_literal(left) else (right, left)
            if other in self.numeric:
                return f"({other} == {lit})"
            return self.both(lambda other, a=a, lit=lit: f"(({a} == {lit}) if (({a} := {other}).__class__ in _S) else _eq({a}, {lit}))",
                             other)
        if isinstance(lt, ClassType) and isinstance(rt, ClassType):
            # both objects or null: `_eq` is identity for them (an object equals only itself)
            return self.both(lambda left, right: f"({left} is {right})", left, right)
        if lt in _EQ_SCALARS and rt in _EQ_SCALARS:
            # numbers, players (ints, or a float a literal gave) and strings, or null: `_SCALARS`,
            # where Python's `==` is `_eq`
            return self.both(lambda left, right: f"({left} == {right})", left, right)
        if isinstance(lt, ClassType) or isinstance(rt, ClassType):
            return self.both(lambda left, right, a=a, b=b: f"(True if ({a} := {left}) is ({b} := {right})"
                             f" else False if ({a}.__class__ is _Obj) | ({b}.__class__ is _Obj) else _eq({a}, {b}))",
                             left, right)
        return self.both(lambda left, right, a=a, b=b: f"(True if ({a} := {left}) is ({b} := {right})"
                         f" else ({a} == {b}) if ({a}.__class__ in _S) & ({b}.__class__ in _S)"
                         f" else False if ({a}.__class__ is _Obj) | ({b}.__class__ is _Obj) else _eq({a}, {b}))",
                         left, right)

    def short_circuit(self, e: ast.Binary) -> str:
        a, b = self.name("_t"), self.name("_t")
        left = self.expr(e.left)
        right = self.expr(e.right)
        ls, rs = self.const(e.left.span, "_p"), self.const(e.right.span, "_p")
        op = e.op
        if _is_bool(e.left) and _is_bool(e.right):
            if op == "&&":
                self.conjuncts[id(e)] = (left, right)
            return self.both(lambda left, right, op=op: f"({left} {'and' if op == '&&' else 'or'} {right})", left, right)
        right_checked = right if _is_bool(e.right) else self.both(
            lambda right: f"({b} if (({b} := {right}) is True or {b} is False) else _bad_bool(m, {op!r}, {b}, {rs}))", right)
        if op == "&&":
            return self.both(lambda left, right, a=a, ls=ls, op=op: f"({right} if ({a} := {left}) is True"
                             f" else (False if {a} is False else _bad_bool(m, {op!r}, {a}, {ls})))", left, right_checked)
        return self.both(lambda left, right, a=a, ls=ls, op=op: f"(True if ({a} := {left}) is True"
                         f" else ({right} if {a} is False else _bad_bool(m, {op!r}, {a}, {ls})))", left, right_checked)

    def expr_Call(self, e: ast.Call) -> str:
        callee = e.callee
        span = self.const(e.span, "_p")
        callee_t = self.c.types.get(id(callee))
        if not isinstance(callee_t, CallableType) or callee_t.kind != "function":
            if isinstance(callee_t, CallableType) and callee_t.kind == "builtin" and isinstance(callee, ast.Member):
                return self.builtin_call(e, callee, callee_t, span)
            return self.fallback(e)
        fi = callee_t.target
        assert isinstance(fi, FunctionInfo)
        self.counts = True  # the callee may loop
        if isinstance(callee, ast.Member) and isinstance(callee.obj, ast.Base):
            return self.fallback(e)
        params = {i.name: self.c._input_type(i, fi.scope) for i in fi.defn.inputs}
        named = [a for a in e.args if a.name is not None]
        # Names and values apart, values evaluated in the call's order: the machine binds
        # them by a plan cached per call shape (`calls._invoke`).
        codes = [self.value(a.value, params.get(a.name)) for a in named]
        values = self.both(lambda *codes: "".join(f"{code}, " for code in codes), *codes)
        shape = tuple(a.name for a in named)
        key_types = tuple(params.get(n) for n in shape)
        site = self.name("_cs")
        ns = self.ns

        def install(fn, site=site):
            ns[site] = fn

        listing = self.listing_worth(e, fi)
        if not listing and self.c.direct_callee(fi, shape):  # `tgpl.runtime.direct`
            self.uses(*direct_calls.GIVEN)  # handed on to the callee
            if fi.owner is None:
                ns[site] = direct_calls.site(None, self.c.functions[id(fi)], shape, e.span, install, None)
                return self.maybe_inlined(self.both(lambda values, site=site, span=span: f"{site}(m, D, G, None, {span}, {values})", values),
                                          fi, None, codes)
            obj = self.expr(callee.obj) if isinstance(callee, ast.Member) else self.this()
            exact = self.exact_target(callee, fi)
            ns[site] = direct_calls.site(fi.name, None, shape, e.span, install, exact)
            call = self.both(lambda obj, values, site=site, span=span: f"{site}(m, D, G, {obj}, {span}, {values})", obj, values)
            if exact is None or len(self.c.purity.by_name.get(fi.name, [fi])) != 1:
                return call  # the target may be null, or its class choose another function
            return self.maybe_inlined(call, fi, None if obj == self.this_code else obj, codes)
        if fi.owner is None:
            ns[site] = _site(None, self.c.functions[id(fi)], shape, key_types, e.span)
            if listing:  # the site run inside a wrapper that remembers its results while frozen
                ns[site] = _listing_site([ns[site]], False, shape, key_types, self.c.next_listing_site())
            return self.both(lambda values, site=site: f"{site}(m, {values})", values)
        obj = self.expr(callee.obj) if isinstance(callee, ast.Member) else self.this()
        ns[site] = _site(fi.name, None, shape, key_types, e.span)
        if listing:
            ns[site] = _listing_site([ns[site]], True, shape, key_types, self.c.next_listing_site())
        return self.both(lambda obj, values, site=site: f"{site}(m, {obj}, {values})", obj, values)

    def maybe_inlined(self, call: str, fi: FunctionInfo, target: str | None, values: list[str]) -> str:
        """`call`, a direct call of `fi`; in an optimistic spelling (`optimistic`), replaced by
        the callee's body inline when it can be (`tgpl.runtime.inlining`)."""
        if self.optimistic is not None:
            body = inlining.inline_call(self, fi, target, values)
            if body is not None:
                return self.read_quick(call, _quick(body))
        return call

    def exact_target(self, callee: ast.Expr, fi: FunctionInfo):
        """The class a method call's target surely is an object of, subclasses included, when
        it is `this` (named or not) or a global object; else None (it may be null, or anything)."""
        if isinstance(callee, ast.Name):  # a method of `this`: the code is of fi's class or a subclass
            return self.c.by_info.get(id(fi.owner))
        if not isinstance(callee, ast.Member):
            return None
        obj, t = callee.obj, self.c.type_of(callee.obj)
        if not isinstance(t, ClassType):
            return None
        if isinstance(obj, ast.This):
            return self.c.by_info.get(id(t.info))
        if (isinstance(obj, ast.Name) and self.layout.lookup(obj.name) is None and id(obj) not in self.c.implicit_this
                and obj.name != "event" and t.info.visibility == "global"):
            return self.c.by_info.get(id(t.info))  # `expr_Name`'s global object: one of exactly that class
        return None

    def listing_worth(self, e: ast.Call, fi: FunctionInfo) -> bool:
        """Whether call `e` of `fi` is remembered while legal moves are listed (`_listing_site`):
        its target and arguments name no local, input or event (only `this`, its fields, global
        objects and literals: the same for every candidate a filter tries), they call nothing,
        and some function it may run costs more than a lookup (`Purity.worth`) and is not
        remembered already (a pure function's memo outlives the listing)."""
        purity = self.c.purity
        if purity is None:
            return False
        parts = [a.value for a in e.args]
        if isinstance(e.callee, ast.Member):
            parts.append(e.callee.obj)
        for part in parts:
            for n in ast.walk(part):
                if isinstance(n, (ast.Call, ast.Assign, ast.New)):
                    return False
                if isinstance(n, ast.Name) and (n.name == "event" or self.layout.lookup(n.name) is not None):
                    return False
        targets = purity.by_name.get(fi.name, [fi]) if fi.owner is not None else [fi]
        return any(t.defn.effect is not None and id(t.defn) not in purity.memoized
                   and purity.worth(t.defn.effect.body) for t in targets)

    def namespace_call(self, e: ast.Call, sig: Signature, span: str) -> str | None:
        """`player.active()`, `turn.pass(...)`... inline, as their entry spells them
        (`tgpl.builtin_calls`); None for the others (their closure)."""
        bound = bind(sig, e)
        args = [self.value(bound[p.name], p.type) if p.name in bound else None for p in sig.params]
        inline = sig.entry.inline
        return self.both(lambda *args, inline=inline, span=span: inline(list(args), span, None, None), *args) if inline is not None else None

    def builtin_call(self, e: ast.Call, callee: ast.Member, ct: CallableType, span: str) -> str:
        sig = ct.target
        if not isinstance(sig, Signature):
            return self.fallback(e)
        if sig.entry.receiver in NAMESPACE_NAMES:
            code = self.namespace_call(e, sig, span)
            if code is not None:
                return code
        if not sig.entry.method:
            return self.fallback(e)  # namespaces (turn, player, event), log and roll
        obj_t = self.c.type_of(callee.obj)
        if not isinstance(obj_t, (ClassType, Collection)):
            return self.fallback(e)
        bound = bind(sig, e)
        missing = self.const(MISSING, "_k")
        values = self.both(lambda *codes: ", ".join(codes),
                           *[self.value(bound[p.name], p.type) if p.name in bound else missing for p in sig.params])
        target = self.read_only(callee.obj)[0] if _reads_scalar(sig) else self.expr(callee.obj)
        inline = sig.entry.inline
        if inline is not None:
            made: list[str] = []  # the temporaries of the general spelling, the optimistic one's too

            def spell(values: str, target: str) -> str:
                again = iter(list(made))
                return inline(values, span, target, lambda: next(again, None) or made.append(self.name("_t")) or made[-1])
            return self.both(spell, values, target)
        return self.both(lambda target, values, ct=ct, span=span: f"m.builtin_method({target}, {ct.name!r}, [{values}], {span})", target, values)
