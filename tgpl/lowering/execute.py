"""Symbolic execution of TGPL code over all states at once: the core of the lowering.

The interpreter mirrors the runtime (tgpl.runtime.compiler and machine) on
*paths*. A path is one way through the code: a path condition (a formula over
the state before the move and the move), the fluents written so far, the
control, the call stack with its locals. Reading a fluent that the path has
not written gives its value before the move, a symbolic value; a branch on a
symbolic condition forks the path in two. Loops run until every path has left
them, so a loop whose bound is known after setup unrolls, and one whose bound
depends on the state unrolls as far as the state allows.

At every join (the end of an `if`, of a loop pass, of a call) paths that agree
on everything but the fluents they wrote and the conditions that led there are
merged: their conditions are or-ed and the fluents they disagree on become
`Choice`s. So a function that returns null in three ways returns one path, and
the moves of a control state meet again once their effects are done.

What the runtime would report as an error (reading a member of null, adding a
string to a number) is not a behaviour of the game: such cases are dropped,
on the assumption, stated in docs/lowering.md, that the game does not reach
them. What cannot be lowered at all raises `NotLowerable` with its location.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from tgpl.frontend import ast
from tgpl.frontend.after_setup import after_setup_nodes, reachable
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.types import BOOL, PLAYER, CallableType, ClassType, Collection, Namespace
from tgpl.lowering.counted_ifs import (
    IfStep, SitePcs, countable, if_step, move_of, named, pc_conjuncts, plain, step_cases, worth,
)
from tgpl.lowering.chance import DEALT_ITEMS, PHASE_THROW, PILE, dealt_decks, left_cell, roll_sides, shuffle_refusal
from tgpl.lowering.grown_walks import grown_lists, grown_walk_rewrite
from tgpl.lowering.horn import HornCompiler, Overflow, Unsupported
from tgpl.lowering.list_sums import SumLoop, sum_loop, summed_in
from tgpl.lowering.set_scans import SetScan, set_scan
from tgpl.lowering.minimize import minimize
from tgpl.lowering.rewrites import marked_items_hint
from tgpl.lowering.saturate import capped
from tgpl.lowering.symbolic import (
    FALSE, TRUE, UNDEF, CallLit, Choice, CmpLit, CountSite, HornLit, Formula, Num, Partial, UObj, as_formula,
    cases_of, choice, conj, conjuncts, disj, disjuncts, equal_concrete, is_bool_table, is_number, is_symbolic, lift,
    lit, literal_value, literals, neg, restrict, sym_arith, sym_compare, sym_equal, sym_not, truth, value_identity,
    vkey, work_done,
)
from tgpl.lowering.subset import (STATE_CHANGES, UNREAD_CHANGES, changed_decks, is_attribute, phase_inputs,
                                  phase_move_input, state_lists, unread_lists)
from tgpl.lowering.universe import MADE, Pool, StaticTable, Universe, length_cell, member_cell, slot_cell
from tgpl.lowering.unread import unread_attributes
from tgpl.limits import LimitReached, unlimited

OWNER = "player"  # the fluent of an object's owner, when assign() changes it after setup: read as `player`

PATH_LIMIT = 4096  # live paths at one point of the code
PROGRESS_EVERY = 256
"""Statements between two calls of the executor's `progress`: where `auto`'s budget of parts is read
(tgpl.lowering.lower, `_CompiledPast`), and where the dry run reads it too, to stop where the lowering does."""
STEP_LIMIT = 500_000  # statements run on paths in one lowering: a budget, so that a lowering that cannot finish says so

REWRITE_HINT = ("; a count or a search over the whole board is spelled out for every board it can see: keep the "
                "count in a counter the moves change, or try --moves compiled or --functions-as-relations "
                "(docs/lowering.md, \"Writing games that lower\")")

# Parts of the conditions built in one lowering (symbolic.work_done): statements alone do not bound the work when a
# loop that runs on and on widens its conditions each pass (hex's `for (pass = 0; pass < Size; pass += -1)` built
# 2.7 million a second and ran 224 s, 3.5 GB, to the statement budget). Five in a row, the largest example, builds
# 3.1 million; the budget stops such a loop in about 10 s.
WORK_LIMIT = 30_000_000
# parts of conditions the calls of one pure function may build, all together, before it is compiled to rules with
# variables instead, where it can be (tgpl.lowering.horn): chess's move test, spelled out by cases for each pair of
# squares, passes the whole budget in minutes; five in a row's win check, the largest of the reference games, builds
# about 3 million parts in all
CALL_WORK = 10_000_000
# parts of conditions the legal moves and the moves of one control state may build (`Executor.one_state`): each
# control state is lowered apart, so one that alone builds a tenth of WORK_LIMIT is refused where it passes this,
# seconds in, rather than by WORK_LIMIT a minute later. examples/treasure.tgpl's first Discard (its hands' totals
# compared, the paths split by both hands' lengths) built over 17 million parts in one control state, and the
# game was refused by WORK_LIMIT after 69.8 s of CPU and 2.1 GB; by this budget, after 8.7 s and 232 MB. Of the
# games that lower, the most one control state builds is 0.53 million (five in a row's claim; draughts 0.26
# million); a refused flood (tests/data/designers/loa_flood.tgpl) builds 2.5 million before PATH_LIMIT names its
# growing list, which it still does.
STATE_WORK = 3_000_000
# ways the values of the calls one path made may make together (`Executor.count_ways`): a function that reads a
# list the moves change returns its value by cases, one for each content of the list (a hand's total), each call's
# cases multiply the ways of the calls before it, and the statements after them spell out every way, comparing
# values case by case. Ends (tests/data/designers/ends.tgpl) ranks three hands' totals: its calls make 108,900 ways
# (its move's own call of Total counted), and spelled out, its ranking passed STATE_WORK after 14.4 s of CPU and
# 185 MB; refused at the third call, after 4.9 s and 102 MB (measured in one run). Of the games that lower, none
# counts past 6 (tests/data/lowering/totals.tgpl; treasure 2): their functions over such lists mostly return one
# value (a running total, tgpl.lowering.list_sums), or fork paths that `merge` bounds.
WAY_LIMIT = 4096
LOOP_LIMIT = 1000  # passes of one loop
# passes of a loop whose condition compares a number read from the state (`while (hand > 0)`) run before its
# paths that would go on are cut (`Executor.loop_cut`): doubled while the ranges hold a state that reaches the cut
LOOP_CUT_START = 4
# past a cut that follows one found short, paths that a state in the shorter cut's ranges may meet go on, up to this
# many times the cut (`Executor._past_cut`)
LOOP_CUT_AHEAD = 4
CALL_DEPTH = 64
EVENT_LIMIT = 1000  # events resolved in one segment (the runtime's limit)
FLOW_LIMIT = 100  # phases entered in one segment


THROWN = ("#die", "thrown")
"""A mark in a path's store: the way reached a die of `Executor.dice` (tgpl.lowering.segments takes it out)."""


def thrown_condition(p: Path) -> Formula:
    """When path p reached a die of `Executor.dice`: the true cases of its THROWN mark (a case of the mark where
    the ways that did and did not were merged into p), FALSE where it has none. The mark stays in p's store:
    the executor reads it while the move runs (`Executor._unthrown`), the segments take it out after
    (`segments._thrown_when`)."""
    mark = p.store.get(THROWN)
    if mark is None:
        return FALSE
    return disj(*(f for x, f in cases_of(mark) if x is True))


def dealable(k: int) -> tuple[str, str]:
    """A mark in a probe path's store (`Dice.dealable`): when random may deal a deck's k-th item (from 0) at the
    deal the way reached, the item being left there or, for the first, none being left. The effect may change the
    items left before its deal (a reshuffle), so random's legal deals are read where the deal stands, not from the
    state before the move (tgpl.lowering.segments takes the marks out)."""
    return ("#die", f"dealable {k}")


@dataclass(frozen=True)
class Dice:
    """The dice of the action whose effect is run (tgpl.lowering.chance): `throw` (a chance.Throw) and random's
    moves, each (faces, the move's literal); `moves` None for the probe of the ways that reach a die, on which
    every die reads 1."""
    throw: object
    moves: list[tuple[tuple[int, ...], Formula]] | None
    dealable: bool = False  # on the probe: a deal marks, for each item, when random may deal it there (`DEALABLE`)


class NotLowerable(Exception):
    """The game leaves the subset the lowering translates; `span` says where (`more`: other places, and why).
    `counter`: the number attribute whose range could not be found, where that is why (the lowering may then
    compile the moves, where the counter may count the board: tgpl.lowering.lower.lower)."""

    def __init__(self, span: Span | None, reason: str, more: list[tuple[Span, str]] | None = None,
                 counter: str | None = None):
        super().__init__(reason)
        self.span = span
        self.reason = reason
        self.more = more or []
        self.counter = counter


@contextmanager
def tables_refused() -> Iterator[None]:
    """The tables of functions compiled to rules with variables (horn.instantiate) refused as the game is, at
    their place: numbers that grow past the bound (Overflow), a division no state may ask or a relaxation clingo
    cannot ground (Unsupported, at its literal). Never clingo's raw error, nor a refusal the spelled-out lowering
    does not catch."""
    try:
        yield
    except (Overflow, Unsupported) as e:
        raise NotLowerable(e.span, str(e)) from None


class NotASet(Exception):
    """A list kept as a set (`subset.set_lists`) meets an `add` that may put in an item it already holds, or
    null: as a set it would lose the item's second copy. The game is lowered again from scratch with `attr`
    kept in order (tgpl.lowering.lower.game_lowering), so what this run found is not the game."""

    def __init__(self, attr: str):
        super().__init__(attr)
        self.attr = attr


class StateTooCostly(NotLowerable):
    """Refused for the conditions one control state built past `STATE_WORK`: its moves cost more spelled out than
    the lowering gives them, which `auto` takes as a reason to compile them (tgpl.lowering.lower.lower), as past
    its budget of parts (Nine Men's Morris's searches over the 24 points, tests/data/designers/morris.tgpl)."""


@dataclass
class Frame:
    this: UObj | None
    event: UObj | None
    scopes: list[dict]


@dataclass
class Path:
    pc: Formula
    store: dict  # (object name, attribute) -> value written in this segment
    control: tuple  # (player, turn, phase)
    pending: bool = False  # a phase entry is scheduled (turn.pass)
    stack: list[Frame] = field(default_factory=list)
    status: object = None  # None | "break" | "continue" | ("return", value) | "over"
    result: tuple | None = None  # the ranking of `winner`
    views: dict = field(default_factory=dict)  # attribute -> the view its reads go through (see `checkpoint`)
    dirty: frozenset = frozenset()  # cells written since their attribute's view was taken: read from the store
    visited: frozenset = frozenset()  # views this path has contributed to
    known: frozenset = frozenset()  # cells its caller wrote a value other than null to (`defined_once`)
    records: dict = field(default_factory=dict)  # event objects made in this segment: name -> {attribute: value}
    queue: tuple = ()  # events thrown and not resolved yet (`Executor.resolve_events`)
    # the faces of random's move this way has still to read, one a die (`Executor.dice`); None: no die read yet
    dice: tuple | None = None
    # the ways the values of the calls this path made so far make together, each call of a function that reads a
    # list the moves change counting the cases of what it returned (`Executor.count_ways`, WAY_LIMIT)
    ways: int = 1

    def fork(self, pc: Formula) -> Path:
        return Path(pc, dict(self.store), self.control, self.pending, _copy_stack(self.stack),
                    self.status, self.result, dict(self.views), self.dirty, self.visited, self.known,
                    {k: dict(v) for k, v in self.records.items()} if self.records else {}, self.queue, self.dice,
                    self.ways)

    @property
    def frame(self) -> Frame:
        return self.stack[-1]

    def lookup(self, name: str):
        for scope in reversed(self.frame.scopes):
            if name in scope:
                return scope
        return None


_MISSING = object()


@dataclass(frozen=True)
class SetList:
    """A list attribute kept as the set of its items (`subset.set_lists`), as code holds it: a reference to the
    object's bool per item it may hold (tgpl.lowering.segments); code only tests and changes membership."""

    obj: UObj
    attr: str
    items: tuple[UObj, ...]


@dataclass(frozen=True)
class StateList:
    """A list attribute that is state, as code holds it: a reference to the object's cells (its length and
    `size` slots, tgpl.lowering.segments), so that changes through any name reach the same list."""

    obj: UObj
    attr: str
    size: int


@dataclass(frozen=True)
class LoopAtOnce:
    """A kind of loop `Executor.stmt_For` runs at once rather than pass by pass (a sum of a list's field, a scan
    of a set): one entry of `Executor._loops_at_once`."""

    kept: object
    """What the game keeps for it (running totals, lists kept as sets): empty where it keeps none."""
    recognise: Callable[[ast.For, dict], object | None]
    """The loop's shape (the statement, the checker's types), None for any other loop."""
    run: Callable[[object, Path, Span], list[Path] | None]
    """The paths after the loop recognised, run from a path; None where that path must run it pass by pass."""


class Transient(UObj):
    """An event object created after setup: it lives within one segment (the runtime drops it at the next
    decision, decision 70), so its attributes are values on the path (`Path.records`), never fluents."""


_SHARED = frozenset((float, int, bool, str, type(None), UObj, Formula, Choice, Num, Partial))  # values a copy shares


_LABEL_KINDS = (("action_", "action "), ("phase_", "phase "), ("default_", "the default of turn "),
                ("require_", "a require of action "), ("trigger_", "the trigger of action "),
                ("filter_", "the filter of input "))


def _relation_value(v) -> bool:
    """Whether a function's result can be a value of a named relation shared by its callers: a local list or
    table it builds and returns (Atari Go's `GroupOf`, the points of a group) is no term of a relation, and the
    call runs on its caller's path instead, where the list is the caller's own."""
    return not any(isinstance(x, (list, dict)) for x, _ in cases_of(v))


def readable(label: str) -> str:
    """A block's label (the lowering's key for what it spends there: `action_Slide`, `phase_Judge`) as a
    message names it: `action Slide`, `phase Judge`; a function's label is its name already."""
    for prefix, kind in _LABEL_KINDS:
        if label.startswith(prefix):
            return kind + label[len(prefix):]
    return label


def _copy_stack(stack: list[Frame]) -> list[Frame]:
    """The call stack for a forked path: its frames and scopes, and the local lists and tables in them (which
    code may change), copied once each so that locals sharing one still do; every other value is immutable
    (symbolic values, objects, static tables) and shared. What copy.deepcopy did, without its generic walk."""
    memo: dict[int, object] = {}
    shared = _SHARED
    return [Frame(f.this, f.event, [{k: x if type(x) in shared else _copy_value(x, memo) for k, x in scope.items()}
                                    for scope in f.scopes])
            for f in stack]


def _copy_value(v, memo: dict[int, object]):
    """v copied for `_copy_stack` (memo: id of a list or table copied -> its copy). A function of its own, not
    a closure in `_copy_stack`: a recursive closure is a reference cycle, which only the garbage collector
    frees, and a lowering forks tens of thousands of paths."""
    kind = type(v)
    if kind is list or kind is dict:
        got = memo.get(id(v))
        if got is None:
            if kind is list:
                if all(type(x) in _SHARED for x in v):  # `{1, 0, 1, 1}`: nothing inside to copy
                    got = memo[id(v)] = list(v)
                    return got
                got = memo[id(v)] = []
                got.extend(_copy_value(x, memo) for x in v)
            else:
                got = memo[id(v)] = {}
                got.update((k, _copy_value(x, memo)) for k, x in v.items())
        return got
    if kind is tuple:
        return tuple(_copy_value(x, memo) for x in v)
    return v


def _freeze(v, mask_bools: bool = False):
    """A hashable picture of a local value; with mask_bools, bools and formulas all look alike.

    Paths are compared at every join, so the common types are told by `type` first (the general
    case below is the definition; this is only its fast way for exact types)."""
    kind = type(v)
    if kind is int or kind is float:
        return ("n", float(v))
    if kind is str or v is None:
        return v
    if kind is UObj:
        return ("o", v.name)
    if kind is bool:
        return "B" if mask_bools else ("b", v)
    if kind is Formula:
        return "B" if mask_bools else v
    if kind is list:
        return ("L", tuple([_freeze(x, mask_bools) for x in v]))
    return _freeze_general(v, mask_bools)


def _freeze_general(v, mask_bools: bool):
    if mask_bools and (isinstance(v, (bool, Formula)) or (isinstance(v, Choice) and _boolish(v))):
        return "B"
    if isinstance(v, list):
        return ("L", tuple(_freeze(x, mask_bools) for x in v))
    if isinstance(v, dict) and not isinstance(v, StaticTable):
        return ("T", tuple((vkey(k), _freeze(x, mask_bools)) for k, x in v.items()))
    if isinstance(v, UObj):
        return ("o", v.name)
    if isinstance(v, (bool, int, float)):
        return vkey(v)
    if isinstance(v, StaticTable):
        return ("S", id(v))
    return v


def _never_null(v) -> bool:
    """A written value that is null in no case (a Partial may keep the old value, which may be null)."""
    if isinstance(v, Choice):
        return all(x is not None and x is not UNDEF for x, _ in v.cases)
    return v is not None and v is not UNDEF and not isinstance(v, Partial)


def _boolish(v: Choice) -> bool:
    """A bool by cases: a bool fluent's value before the move, null included (see `truth`)."""
    return all(isinstance(x, bool) or x is None for x, _ in v.cases) and any(isinstance(x, bool) for x, _ in v.cases)


def _shape(p: Path) -> tuple:
    """What two paths must share to be merged: all but their conditions, written fluents and bool locals.

    Bool locals (flags, tables of flags) merge into formulas; other locals (loop
    counters, objects found) must be equal, so that they stay concrete. In two parts:
    the locals (`_stack_shape`) cost the most and are compared only where the rest agrees.
    """
    status = p.status
    if isinstance(status, tuple):
        status = ("return", _freeze(status[1]))
    shape = (status, p.control, p.pending, p.result, tuple(sorted(p.views.items())))
    if p.records or p.queue:
        shape += (tuple(sorted(p.records)), tuple(e.name for e in p.queue))
    if p.dice is not None:  # ways at other dice, or to read other faces, go on apart
        shape += (("dice", p.dice),)
    return shape


def _stack_shape(p: Path) -> tuple:
    return tuple(
        (f.this.name if f.this else None, tuple(tuple((k, _freeze(v, True)) for k, v in s.items()) for s in f.scopes))
        for f in p.stack
    )


def _merge_local(vals: list[tuple[object, Formula]]):
    """One local of merged paths (their shapes agree): bools become formulas, collections merge item by item."""
    first = vals[0][0]
    if all(v is first for v, _ in vals):
        return first
    if isinstance(first, list):
        return [_merge_local([(v[i], r) for v, r in vals]) for i in range(len(first))]
    if isinstance(first, dict) and not isinstance(first, StaticTable):
        return {k: _merge_local([(v[k], r) for v, r in vals]) for k in first}
    if all(_same(v, first) for v, _ in vals):
        return first
    return choice(vals)


@dataclass
class View:
    """The values of one attribute at a site of the code, after the writes made before it in the segment.

    `contributions`: (path condition, {cell: value written}) for every path that
    reached the site; a cell no contribution writes keeps its value before the move.
    """

    id: int
    attr: str
    site: tuple
    label: str  # the block the site is in, for a readable relation name
    contributions: list = field(default_factory=list)


class _Costly(Exception):
    """The calls of a pure function passed their share of the work (CALL_WORK); `budget` is the entry of the call
    under way when they did."""

    def __init__(self, budget):
        self.budget = budget


class Executor:
    """Runs blocks of a checked program on paths; `reader` gives fluents' values before the move,
    `view_reader(view, obj, attr)` their values through a view."""

    def __init__(self, program, universe: Universe, fluents: set[tuple[str, str]], reader,
                 view_reader=None, viewable: set[tuple[str, str]] = frozenset(), horn: HornCompiler | None = None,
                 lists: dict[tuple[str, str], int] | None = None, compile_all: bool = True,
                 sets: dict[tuple[str, str], tuple[UObj, ...]] | None = None):
        self.program = program
        self.types = program.types
        self.implicit_this = program.implicit_this
        self.builtins = program.builtins
        self.u = universe
        self.fluents = fluents
        self.reader = reader  # (obj name, attr) -> symbolic value before the move
        self.view_reader = view_reader
        self.viewable = viewable if view_reader is not None else frozenset()  # cells read through views
        self.views: list[View] = []
        self.counts: list[CountSite] = []  # the counts by tests (tgpl.lowering.counted_ifs), by id
        self.count_ids: dict[tuple, CountSite] = {}  # (the if's place, the visit) -> its site
        self._if_steps: dict[int, object] = {}  # id of an if -> its IfStep or None
        self._plains: dict[int, bool] = {}  # formula id -> whether a count's step may read it
        self._site_pcs: dict[int, SitePcs] = {}  # a count site's id -> its contributions' conditions, by move
        self.view_ids: dict[tuple, int] = {}  # (site, attribute, visit) -> view id
        self.defined: dict[tuple, object] = {}  # pure calls already run once (`defined_once`)
        self._expr_methods: dict[type, object] = {}  # AST class -> its expr_ method (eval runs very often)
        self._stmt_methods: dict[type, object] = {}
        self._calling: dict[int, bool] = {}  # id(expression) -> whether it calls code (`_calls`)
        self._pure: dict[int, bool] = {}  # id(expression) -> `_pure`
        self._probing = 0  # evaluations under way whose path condition stands for many (`_eval_shared`)
        self._readers: dict[int, tuple[bool, bool]] = {}  # id(function definition) -> `_reads`
        self.lists = lists or {}  # (object, list attribute) that is state -> its slots (tgpl.lowering.segments)
        # (object, list attribute) -> (item field, cell) of each running total kept of it (tgpl.lowering.list_sums)
        self.sums: dict[tuple[str, str], list[tuple[str, str]]] = {}
        # (entry of `_loops_at_once`, id(for statement)) -> what its recogniser made of the loop, or None
        self._loops_recognised: dict[tuple[int, int], object] = {}
        self.sets = sets or {}  # (object, list attribute) kept as a set -> the objects it may hold (segments)
        self._fluent_attributes = frozenset(attr for _, attr in fluents) | {attr for _, attr in self.lists} \
            | {attr for _, attr in self.sets}
        self.steps = 0  # statements run on paths, against STEP_LIMIT
        self.progress = None  # (statements, parts of conditions) -> None, told now and then (a long lowering)
        self.progress_every = PROGRESS_EVERY  # statements between two calls of `progress` (the dry run's: 1)
        self.limits = unlimited()  # the command's limits (tgpl.limits), checked at every statement and merge
        self.work_start = work_done()  # formula work so far in this process, against WORK_LIMIT
        self.state_start: int | None = None  # formula work when the control state being lowered began (STATE_WORK)
        self._list_readers: dict[int, bool] = {}  # id(function's code) -> whether it reads a changed list (`count_ways`)
        self.most_ways = 1  # the most ways a path's calls made (`count_ways`): what the tests read
        self._counting = 0  # calls of functions that read a changed list under way (`count_ways`)
        self._loops: dict[int, tuple[list[str], bool]] = {}  # id(loop body) -> (names its condition reads, may leave)
        self.horn = horn  # functions compiled to rules with variables (tgpl.lowering.horn); None: calls run
        # every call that can be compiled is (--functions-as-relations), or only those of functions a call of which
        # passed CALL_WORK (`costly`, by compiled name); `_budgets`: (function, deadline) of the calls under way
        self.compile_all = compile_all
        self.costly: set[str] = set()
        self._budgets: list[tuple[object, int]] = []
        self._spent: dict[str, int] = {}  # compiled name -> parts its calls built while run
        self.horn_contexts: dict[tuple, int] = {}  # ((attribute, view id or None), ...) -> context id
        self.turns = {name: t.defn for name, t in program.turns.items()}
        self.labels: dict[int, str] = {}  # formula id -> the function it comes from, for readable names
        self.where: list[str] = []  # the functions and blocks being run, innermost last
        # `where` as messages name it: a function the lowering made (`HasPathFlood1`) as what the designer wrote
        self.shown: list[str] = []
        self.spans: list[Span] = []
        # the blocks being run (effects, phases, functions, defaults), innermost last, each where `where` names it
        # (`_rewrite_hint`); None for a function without an effect
        self.blocks: list[ast.Block | None] = []
        # the loops being run, outermost first, each with the depth of `spans` (its function or block) it runs in
        self.loops: list[tuple[ast.Block, Span, int]] = []
        # the runtime's declaration order of actions (listeners of an event run in it, after priority)
        self.action_order = {id(a): i for i, a in enumerate(a for info in program.classes for a in info.actions.values())}
        self._listening: dict[int, list] = {}  # id(event class) -> `listening`
        self.unread = unread_lists(program)  # list attributes whose changes are dropped (nothing reads them)
        self.unread_attributes = unread_attributes(program)  # no fluent, their writes dropped (decision 109)
        self.dealt = dealt_decks(program)[0]  # deck classes random deals from at pop() (chance.dealt_decks)
        self.changed_decks = changed_decks(program)  # deck classes whose items change after setup but by pop()
        # paths on which a `new` found its pool used up, ended there: they feed the ranges only (`made`)
        self.overflows: list[Path] = []
        # the dice random throws (tgpl.lowering.chance): set by the Lowering while it runs the effect of a move
        # whose dice random throws
        self.dice: Dice | None = None
        # the phases whose dice random throws as the flow enters them ((turn, phase) -> chance.Throw,
        # tgpl.lowering.chance.phase_rolls): entering one stops the path in random's control state there
        self.phase_throws: dict[tuple[str, str], object] = {}
        # passes after which a loop bounded by a number of the state stops (None: no cut, outside the segments'
        # moves); the paths cut there are overflows too, with the loop's span (`loop_cuts`), judged by the ranges
        # (segments.Lowering.check_loop_cuts)
        self.loop_cut: int | None = None
        self.loop_cuts: list[tuple[Path, Span]] = []
        # past the cut, whether a path that would go on meets a state the ranges of a shorter cut hold (None: no
        # such ranges; segments.Lowering sets it): such a path goes on rather than being cut (`_past_cut`)
        self.reached: Callable[[Formula], bool] | None = None
        # id of a comparison of numbers -> (it, the span of the first comparison in the source that made it), so
        # that a comparison too costly to write as rules is refused where it is (segments.Lowering.check_comparisons)
        self.compared: dict[int, tuple[CmpLit, Span]] = {}
        # counters held cut down to a cap (tgpl.lowering.saturate.capped_counters): attribute -> its cap; every
        # write of one is cut down to it (segments.lowered_logic sets them after a counter's range ran away)
        self.caps: dict[str, int] = {}

    # ============================================================ paths
    def fork_on(self, p: Path, cond) -> list[tuple[Path, bool]]:
        """(path, truth) for each way `cond` can go on p (where it is no bool, the runtime stops: no path)."""
        t = truth(cond)
        if t is None:
            return []
        f, g = t
        if f is TRUE or g is TRUE:
            return [(p, f is TRUE)]
        self.label(f)
        self.label(g)
        out = []
        for when, value in ((f, True), (g, False)):
            pc = conj(p.pc, when)
            if pc is not FALSE:
                out.append((p.fork(pc), value))
        return out

    def split(self, p: Path, v) -> list[tuple[Path, object]]:
        """The concrete values v can take on p, each on its own path."""
        if v is UNDEF:
            return []
        if isinstance(v, Formula):
            return self.fork_on(p, v)
        if not isinstance(v, Choice):
            return [(p, v)]
        out = []
        for x, f in v.cases:
            pc = conj(p.pc, f)
            if pc is not FALSE:
                out.append((p.fork(pc), x))
        return out

    @property
    def here(self) -> str:
        """The block the lowering is running, as a message names it (`action Slide`, `Left`)."""
        return self.shown[-1] if self.shown else "the code"

    def _too_many_ways(self) -> NotLowerable:
        """The refusal of code whose paths pass PATH_LIMIT at a join, located at the outermost loop being run in
        the innermost function or block (whose passes multiplied them), else at that function; a loop that walks a
        list it grows (a worklist search: Lines of Action's flood, `while (i < reached.length) { ... reached.add(t);
        }`) is named as such, with the rewrites that lower."""
        depth = len(self.spans)
        loop = next(((body, span) for body, span, d in self.loops if d == depth), None)
        if loop is None:
            return NotLowerable(self.spans[-1] if self.spans else None,
                                f"more than {PATH_LIMIT} ways through {self.here}: the code branches on the state in "
                                "more ways than can be merged (a search whose extent depends on the state?)")
        grown = grown_lists(loop[0])
        if grown:
            return NotLowerable(loop[1], f"more than {PATH_LIMIT} ways through this loop in {self.here}: it walks the "
                                         f"list '{grown[0]}' while it grows it, {grown_walk_rewrite(grown[0])}")
        return NotLowerable(loop[1], f"more than {PATH_LIMIT} ways through this loop in {self.here}: its passes "
                                     "branch on the state in more ways than can be merged (a search whose extent "
                                     "depends on the state?)")

    def _rewrite_hint(self) -> str:
        """What to rewrite, said with a refusal for too much work: REWRITE_HINT, or, where the innermost loop being
        run reads the items of a list the moves change (Brandubh's pieces, `Men.remove(victim)` when one is taken,
        searched by `On(s)`), that list and the change named, and the rewrite that lowers: every content the list
        can have is a case of its own, where a list that keeps its items and marks the ones taken out has one."""
        depth = len(self.spans)
        walk = next(((span, grown[0]) for b, span, d in self.loops if d == depth for grown in [grown_lists(b)] if grown),
                    None)
        if walk is not None:  # a flood (Quoridor's path check): the work went into the ways its list can grow
            span, name = walk
            return (f"; the loop at {span.line}:{span.col} walks the list '{name}' while it grows it, "
                    f"{grown_walk_rewrite(name)}")
        body = next((b for b, _, d in reversed(self.loops) if d == depth), None)
        walked = changed_lists_read(self.program, body) if body is not None else []
        if not walked:
            called = called_changed_lists(self.program, self.blocks[-1]) if self.blocks and self.blocks[-1] else None
            if called is None:
                return REWRITE_HINT
            fn, name, change = called
            return (f"; {self.here} calls {ast.shown_name(fn)}, which reads the list '{name}' that the moves change "
                    f"(`{change.callee.name}` at {change.span.line}:{change.span.col}): its value is spelled out for "
                    "every content the list can have, a call forks the path once per value it can return, so the "
                    "paths multiply call after call and every statement after them runs on each: "
                    f"{changed_list_rewrite(self.program, name, change, fn)}")
        name, change = walked[0]
        return (f"; the loop reads the list '{name}', which the moves change (`{change.callee.name}` at "
                f"{change.span.line}:{change.span.col}), so it is spelled out for every content the list can have: "
                f"{changed_list_rewrite(self.program, name, change, body)}")

    @contextmanager
    def one_state(self) -> Iterator[None]:
        """The legal moves and the moves of one control state, within STATE_WORK parts of conditions: a control
        state is lowered apart from the others, and one whose work alone passes a tenth of the game's is refused
        there, where the statement passing it stands, rather than by WORK_LIMIT after the minutes the rest take."""
        self.state_start = work_done()
        try:
            yield
        finally:
            self.state_start = None

    def label(self, f: Formula) -> None:
        if self.where and f.id not in self.labels:
            self.labels[f.id] = self.where[-1]

    def merge(self, paths: list[Path], reduce: bool = True) -> list[Path]:
        """Paths alike but for their conditions (`_shape`) as one; with `reduce`, its condition reduced
        (`minimize`), else left a disjunction for the caller to reduce or replace (`loop`)."""
        if len(paths) > PATH_LIMIT:
            raise self._too_many_ways()
        if len(paths) < 2:
            return paths
        self.limits.check()
        shapes = [_shape(p) for p in paths]
        alike: dict[tuple, int] = {}
        for shape in shapes:
            alike[shape] = alike.get(shape, 0) + 1
        if len(alike) == len(paths):
            return paths
        groups: dict[tuple, list[Path]] = {}
        for p, shape in zip(paths, shapes):
            groups.setdefault((shape, _stack_shape(p)) if alike[shape] > 1 else (shape,), []).append(p)
        if len(groups) == len(paths):
            return paths
        out = []
        for group in groups.values():
            if len(group) == 1:
                out.append(group[0])
                continue
            pcs = [q.pc for q in group]
            rel = _relative(pcs)
            merged = group[0].fork(minimize(disj(*pcs), consensus=False) if reduce else disj(*pcs))
            merged.dirty = frozenset().union(*(q.dirty for q in group))
            merged.ways = max(q.ways for q in group)
            merged.visited = frozenset().union(*(q.visited for q in group))
            for i, frame in enumerate(merged.stack):  # equal locals stay as they are; bools become formulas
                for j, scope in enumerate(frame.scopes):
                    for k in scope:
                        scope[k] = _merge_local([(q.stack[i].scopes[j][k], r) for q, r in zip(group, rel)])
            merged.records = {name: {a: _merge_local([(q.records[name][a], r) for q, r in zip(group, rel)])
                                     for a in fields} for name, fields in merged.records.items()}
            cells = {c for q in group for c in q.store}
            merged.store = {}
            for cell in sorted(cells):
                vals = [(q.store.get(cell, _MISSING), r) for q, r in zip(group, rel)]
                if all(v is not _MISSING and _same(v, vals[0][0]) for v, _ in vals):
                    merged.store[cell] = vals[0][0]
                    continue
                cases = []
                for v, r in vals:
                    if isinstance(v, Partial):
                        cases.extend((x, conj(r, f)) for x, f in v.cases)
                    elif v is not _MISSING:
                        cases.append((v, r))
                merged.store[cell] = Partial(tuple((x, f) for x, f in cases if f is not FALSE))
            out.append(merged)
        return out

    # ============================================================ views
    def checkpoint(self, p: Path, site: tuple) -> None:
        """Read the attributes p has written through views from here on.

        A view of an attribute at a site of the code is one relation for every path
        that reaches the site: each path contributes its written values under its
        condition, and a frame keeps the rest (`View`). Paths alive at one time have
        exclusive conditions; a path that comes back to a site it has contributed to
        (a loop) gets the next view of that site, so contributions never overlap.

        On the probe of an action's dice (`Dice.moves` None) the ways that reached a die are no part of the
        player's move: random's move runs the effect again (tgpl.lowering.segments takes them out, their store
        dropped). Such a way contributes nothing, or a view would write, in the player's step, what only
        random's move does (a deal's item gone before random dealt it).
        """
        pc = self._unthrown(p)
        if pc is FALSE:
            return  # the way's writes stay in its store, dropped with it
        attrs = sorted({a for (o, a) in p.store if (o, a) in self.viewable})
        for attr in attrs:
            if attr in p.views and not any(a == attr for (_, a) in p.dirty):
                continue  # nothing written since the view this path reads through
            n = 0
            while (site, attr, n) in self.view_ids and self.view_ids[(site, attr, n)] in p.visited:
                n += 1
            if self._probing:
                raise _Contribution()  # see `_eval_shared`
            vid = self.view_ids.get((site, attr, n))
            if vid is None:
                vid = len(self.views)
                self.view_ids[(site, attr, n)] = vid
                self.views.append(View(vid, attr, site, site[1] if site[0] == "call" else site[2]))
            cells = {c: v for c, v in p.store.items() if c[1] == attr}
            self.views[vid].contributions.append((pc, cells))
            p.views[attr] = vid
            p.dirty = frozenset(c for c in p.dirty if c[1] != attr)
            p.visited = p.visited | {vid}

    def _unthrown(self, p: Path) -> Formula:
        """The part of p's condition on which, on the probe of an action's dice, it reached no die (all of it
        elsewhere): what it may contribute to a view (`checkpoint`)."""
        if p.store.get(THROWN) is None or self.dice is None or self.dice.moves is not None:
            return p.pc
        return conj(p.pc, neg(thrown_condition(p)))

    # ============================================================ fluents
    def read(self, p: Path, obj: UObj, name: str, span: Span):
        if type(obj) is Transient:
            fields = p.records.get(obj.name)
            if fields is None or name not in fields:
                return None if name == "player" else UNDEF  # an event has no owner
            return restrict(fields[name], p.pc)
        cell = (obj.name, name)
        size = self.lists.get(cell)
        if size is not None:
            return StateList(obj, name, size)
        items = self.sets.get(cell)
        if items is not None:
            return SetList(obj, name, items)
        if name in p.views and cell not in p.dirty and cell in self.viewable:
            v = self.view_reader(p.views[name], obj.name, name)
            if cell in p.known and isinstance(v, Choice):  # the caller wrote it: null is not a case
                v = choice((x, f) for x, f in v.cases if x is not None)
            return v
        if cell in p.store:
            v = p.store[cell]
            if isinstance(v, Partial):  # left as it is: paths that share it can still be merged
                v = v.full(self.reader(*cell))
            return restrict(v, p.pc)
        if cell in self.fluents:
            return self.reader(*cell)
        if name in obj.fields:
            return obj.fields[name]
        if name == "player":
            return float(obj.owners[0]) if obj.owners else None
        if name == "players" and (obj.name, OWNER) in self.fluents:
            raise NotLowerable(span, f"'players' of {obj.name}, whose owner assign() changes after setup, is not "
                                     "lowerable (read 'player')")
        if name == "players":
            return tuple(float(x) for x in obj.owners)
        if name == "connections":
            return obj.connections
        if name == "tiles" and obj.cells is not None:
            return tuple(t for col in obj.cells for t in col if t is not None)
        if name == "length" and self.fixed_deck(obj):
            return float(len(obj.items))
        if name == "length" and self.dealt_deck(obj):  # how many items are left, a number of the state
            return self.read(p, obj, length_cell(DEALT_ITEMS), span)
        if obj.cls.kind == "stack" or any(c.kind == "stack" for c in obj.cls.ancestors()):
            raise NotLowerable(span, f"decks are not lowerable after setup ('{name}' of {obj.name}): only decks "
                                     "whose items nothing but pop() changes after setup")
        raise NotLowerable(span, f"'{name}' of {obj.name} is not lowerable")

    def write(self, p: Path, obj, name: str, value, span: Span) -> list[Path]:
        out = []
        if type(value) is Transient or (type(value) is Choice and any(type(x) is Transient for x, _ in value.cases)):
            raise NotLowerable(span, "an event object made after setup cannot be stored in an attribute: it would "
                                     "outlive the move")
        for q, o in self.split(p, obj):
            if not isinstance(o, UObj):
                continue
            if type(o) is Transient:
                if o.name in q.records:
                    q.records[o.name][name] = restrict(value, q.pc)
                    out.append(q)
                continue
            cell = (o.name, name)
            if name in self.unread_attributes.names:
                out.append(q)  # a new object's initial value of an attribute nothing reads (decision 109)
                continue
            if cell not in self.fluents:
                raise NotLowerable(span, f"'{name}' of {o.name} is changed after setup, but it is not an attribute "
                                         "the lowering tracks (a built-in field or a collection)")
            if isinstance(value, (list, dict, tuple, StateList, SetList)):
                raise NotLowerable(span, "attributes holding lists or tables cannot change after setup")
            q.store[cell] = restrict(capped(value, self.caps.get(name)), q.pc)
            if name in q.views:
                q.dirty = q.dirty | {cell}
            out.append(q)
        return out

    # ============================================================ blocks
    def block(self, block: ast.Block, paths: list[Path], scope: dict | None = None, reduce: bool = True) -> list[Path]:
        for p in paths:
            p.frame.scopes.append(dict(scope) if scope else {})
        for s in block.body:
            running = [p for p in paths if p.status is None]
            if not running:
                break
            done = [p for p in paths if p.status is not None]
            paths = done + self.stmt(s, running)
        for p in paths:
            p.frame.scopes.pop()
        return self.merge(paths, reduce)

    def stmt(self, s: ast.Stmt, paths: list[Path]) -> list[Path]:
        kind = type(s)
        method = self._stmt_methods.get(kind)
        if method is None:
            method = self._stmt_methods[kind] = getattr(self, "stmt_" + kind.__name__, None)
            if method is None:
                raise NotLowerable(s.span, f"{kind.__name__} statements are not lowerable")
        out: list[Path] = []
        for p in paths:
            self.steps += 1
            if self.progress is not None and not self.steps % self.progress_every:
                self.progress(self.steps, work_done() - self.work_start)
            try:
                self.limits.check()
            except LimitReached as e:  # where the lowering was, for the message
                if e.where is None:
                    e.where, e.inside = s.span, self.here if self.where else None
                raise
            if self.steps > STEP_LIMIT:
                raise NotLowerable(s.span, f"the lowering ran more than {STEP_LIMIT:,} statements on symbolic paths "
                                           f"(here, in {self.here}) without "
                                           "finishing: the code branches on the state in too many ways" + self._rewrite_hint())
            if self._budgets:
                done = work_done()
                for budget in self._budgets:
                    if done > budget[1]:
                        raise _Costly(budget)
            if self.state_start is not None and work_done() - self.state_start > STATE_WORK:
                raise StateTooCostly(s.span, f"the lowering built conditions of more than {STATE_WORK:,} parts for the "
                                           f"legal moves and the moves of one control state (here, in {self.here}) "
                                           "without finishing them: the code branches on the state in too many ways"
                                           + self._rewrite_hint())
            if work_done() - self.work_start > WORK_LIMIT:
                raise NotLowerable(s.span, f"the lowering built conditions of more than {WORK_LIMIT:,} parts on "
                                           f"symbolic paths (here, in {self.here}) "
                                           "without finishing: a loop that runs on widens them at each pass, or the "
                                           "code branches on the state in too many ways" + self._rewrite_hint())
            try:
                out.extend(method(s, p))
            except RecursionError:  # a value built pass after pass too deep for Python's stack (hashing it)
                raise NotLowerable(s.span, "a value grew too deep to follow on symbolic paths (here, in "
                                           f"{self.here}): a loop whose passes "
                                           "depend on the state (a count read from it) builds a longer expression "
                                           "at each pass" + self._rewrite_hint()) from None
        return out

    def stmt_Block(self, s: ast.Block, p: Path) -> list[Path]:
        return self.block(s, [p])

    def stmt_VarDecl(self, s: ast.VarDecl, p: Path) -> list[Path]:
        if s.init is None:
            p.frame.scopes[-1][s.name] = None
            return [p]
        out = []
        for q, v in self.eval(s.init, p, self._decl_type(s.type)):
            if s.type.name == "player":
                v = self.to_player(v)
            q.frame.scopes[-1][s.name] = restrict(v, q.pc) if v is not None else None
            out.append(q)
        return out

    def stmt_ExprStmt(self, s: ast.ExprStmt, p: Path) -> list[Path]:
        return [q for q, _ in self.eval(s.expr, p)]

    def stmt_If(self, s: ast.If, p: Path) -> list[Path]:
        step = self._if_steps.get(id(s), _MISSING)
        if step is _MISSING:
            step = self._if_steps[id(s)] = if_step(s)
        if step is not None:
            counted = self.counted_if(s, step, p)
            if counted is not None:
                return counted
        out = []
        for q, c in self.eval(s.cond, p):
            for r, value in self.fork_on(q, c):
                if value:
                    out.extend(self.block(s.then, [r]))
                elif isinstance(s.orelse, ast.Block):
                    out.extend(self.block(s.orelse, [r]))
                elif isinstance(s.orelse, ast.If):
                    out.extend(self.stmt_If(s.orelse, r))
                else:
                    out.append(r)
        return self.merge(out)

    def counted_if(self, s: ast.If, step: IfStep, p: Path) -> list[Path] | None:
        """An `if` that only adds to a local number, run without forking p: the local becomes its values by
        cases, a chain of relations where a count by cases goes in (tgpl.lowering.counted_ifs). None where the
        step is no such count (the `if` then runs as any other)."""
        scope = p.lookup(step.name)
        if scope is None or self._probing or not _pure(s.cond) or not self._plain(p.pc):
            return None
        old = scope[step.name]
        if not countable(old, self._plain):
            return None
        added = []
        for e in (step.then, step.orelse):
            if e is None:
                added.append(0.0)
                continue
            got = self.eval(e, p)
            if len(got) != 1 or got[0][0] is not p or not countable(got[0][1], self._plain):
                return None
            added.append(got[0][1])
        got = self.eval(s.cond, p)
        if len(got) != 1 or got[0][0] is not p:
            return None
        t = truth(got[0][1])
        if t is None:
            return []  # no bool: the runtime stops (fork_on)
        f, g = t
        if f is TRUE or g is TRUE or not self._plain(f) or not self._plain(g):
            return None
        self.label(f)
        self.label(g)
        cases = step_cases(old, step.op, [(f, added[0]), (g, added[1])])
        if not worth(old, added):
            scope[step.name] = choice(cases)
            return [p]
        scope[step.name] = named(self.count_site(s, step.name, p), p.pc, cases)
        return [p]

    def _plain(self, f: Formula) -> bool:
        """`counted_ifs.plain`, once per formula."""
        got = self._plains.get(f.id)
        if got is None:
            got = self._plains[f.id] = plain(f)
        return got

    def count_site(self, s: ast.If, name: str, p: Path) -> CountSite:
        """The relation p's step at `s` contributes to: the first of the step's sites whose contributions'
        conditions each exclude p's (`conj` is FALSE only where they do). The paths of the moves of one control
        state share one (they are exclusive, by their moves), so its rules generalise over the moves; a path that
        comes back (a loop, a second call), a legal move's filter and the move's effect (the filter's condition
        is part of the effect's), or a pure call run once for every state (condition true) each get another."""
        key = (s.span.file, s.span.line, s.span.col)
        mine = frozenset(pc_conjuncts(p.pc))
        move = move_of(mine)
        n = 0
        while True:
            site = self.count_ids.get((key, n))
            if site is None:
                site = self.count_ids[(key, n)] = CountSite(len(self.counts), name)
                self.counts.append(site)
                self._site_pcs[site.id] = SitePcs()
                return site
            if self._site_pcs[site.id].exclude(site, mine, move):
                return site
            n += 1

    def stmt_While(self, s: ast.While, p: Path) -> list[Path]:
        return self.loop(s.cond, s.body, None, [p], s.span)

    def stmt_For(self, s: ast.For, p: Path) -> list[Path]:
        if s.reads_before:
            # a scan clearing a flood's group (tgpl.lowering.group_clears, decision 116) reads the state as it
            # found it; run pass after pass it would be another game: only the compiled moves lower it
            raise NotLowerable(s.span, "a scan that clears a flood's group lowers with the moves compiled only")
        for k, kind in enumerate(self._loops_at_once()):
            if not kind.kept:
                continue
            if (k, id(s)) not in self._loops_recognised:
                self._loops_recognised[k, id(s)] = kind.recognise(s, self.types)
            shape = self._loops_recognised[k, id(s)]
            if shape is not None:
                done = kind.run(shape, p, s.span)
                if done is not None:
                    return self.merge(done)
        p.frame.scopes.append({})
        paths = [p]
        if isinstance(s.init, ast.VarDecl):
            paths = self.stmt_VarDecl(s.init, p)
        elif s.init is not None:
            paths = [q for q, _ in self.eval(s.init, p)]
        paths = self.loop(s.cond, s.body, s.post, paths, s.span)
        for q in paths:
            q.frame.scopes.pop()
        return self.merge(paths)

    def _loops_at_once(self) -> tuple[LoopAtOnce, ...]:
        """The kinds of loop `stmt_For` runs at once, tried in this order: a third kind is one more entry. Made
        at each call, so that the recognisers are this module's names as they are now (a test plants a wrong
        one there)."""
        return (LoopAtOnce(self.sums, sum_loop, self._summed), LoopAtOnce(self.sets, set_scan, self._scanned))

    def _summed(self, loop: SumLoop, p: Path, span: Span) -> list[Path] | None:
        """A loop that sums an item field over a list that keeps a running total of it (decision 113): the total
        added to the local at once, no pass run. None where some case of the list keeps no such total: the loop
        then runs pass by pass."""
        found = []  # every case of the list first: a case the loop must run pass by pass leaves p as it was
        for q, v in self.eval(loop.items, p):
            for r, lst in self.split(q, v):
                cells = dict(self.sums.get((lst.obj.name, lst.attr), ())) if isinstance(lst, StateList) else {}
                if loop.field not in cells:
                    return None
                for t, acc in self.eval(loop.acc, r):
                    if not all(is_number(x) for x, _ in cases_of(acc)):
                        return None  # a string the items' numbers are joined to, or null: the runtime's way
                    found.append((t, lst, cells, acc))
        out = []
        for t, lst, cells, acc in found:
            total = self.read(t, lst.obj, cells[loop.field], span)
            none = TRUE if None not in cells else sym_equal(self.read(t, lst.obj, cells[None], span), 0.0)
            for u, ok in self.fork_on(t, none):
                if ok:  # else the runtime stops at a null item's field: dropped, as every runtime error
                    out.extend(w for w, _ in self.assign(loop.acc, u, sym_arith("+", acc, total)))
        return out

    def _scanned(self, scan: SetScan, p: Path, span: Span) -> list[Path] | None:
        """A scan that stops at the first match over a list kept as a set (tgpl.lowering.set_scans): its match run
        where some object the list holds passes the test, the path going on after the loop where none does. None
        where the list is in order (a StateList): the loop then runs pass by pass. Raises NotASet
        (the list lowered again, in order) where the test of a held object may be no bool, a runtime error the
        runtime meets only if no item before it matched, or forks the path."""
        found = []  # every case of the list first: a case the loop must run pass by pass leaves p as it was
        for q, v in self.eval(scan.items, p):
            found += self.split(q, v)
        sets = [lst for _, lst in found if isinstance(lst, SetList)]
        if not found or len(sets) < len(found):
            if sets:  # a set on some paths only (or null elsewhere): in order, as every other case
                raise NotASet(sets[0].attr)
            return None
        out = []
        for r, lst in found:
            hits = []
            for x in lst.items:
                held = as_formula(self.read(r, lst.obj, member_cell(lst.attr, x.name), span)) or FALSE
                if conj(r.pc, held) is FALSE:
                    continue
                r.frame.scopes.append({scan.index: x})
                try:
                    tested = self.eval(scan.cond, r)
                finally:
                    r.frame.scopes.pop()
                value = tested[0][1] if len(tested) == 1 and tested[0][0] is r else None
                t = truth(value)
                if t is None or conj(r.pc, held, _no_bool(value)) is not FALSE:
                    raise NotASet(lst.attr)
                hits.append(conj(held, t[0]))
            for u, matched in self.fork_on(r, disj(*hits)):
                out.extend(self.block(scan.hit, [u]) if matched else [u])
        return out

    def _totals(self, p: Path, lst: StateList, change, span: Span) -> dict[str, object]:
        """The running totals of `lst` (decision 113) after a change: `change(field, total)` gives the new total
        from the one before."""
        return {cell: change(field, self.read(p, lst.obj, cell, span))
                for field, cell in self.sums.get((lst.obj.name, lst.attr), ())}

    def loop(self, cond, body, post, paths: list[Path], span: Span) -> list[Path]:
        self.loops.append((body, span, len(self.spans)))
        try:
            return self._loop(cond, body, post, paths, span)
        finally:
            self.loops.pop()

    def _loop(self, cond, body, post, paths: list[Path], span: Span) -> list[Path]:
        done: list[Path] = []
        names, leaves = self._loop_facts(cond, body)
        before = None  # what the condition read at the previous pass, when it was true and concrete on every path
        for passes in range(LOOP_LIMIT):
            entry = paths[0].pc if len(paths) == 1 else None
            exits = len(done)
            looping = []
            concrete = True
            for p in paths:
                if cond is None:
                    looping.append(p)
                    continue
                for q, c in self.eval(cond, p):
                    concrete = concrete and c is True
                    cut = self.loop_cut is not None and passes >= self.loop_cut and _compares_numbers(c)
                    for r, value in self.fork_on(q, c):
                        if value and cut and self._past_cut(r, passes):
                            self._cut_loop(r, span)
                            continue
                        (looping if value else done).append(r)
            if not looping:
                return self.merge(done)
            if not leaves and concrete and not done:
                now = frozenset(_reads(q, names) for q in looping)
                if now == before:
                    what = ", ".join(f"'{n}'" for n in names) or "nothing"
                    raise NotLowerable(span, f"this loop never ends: its condition stays true, and no pass changes what "
                                             f"it reads ({what}) or breaks out of it (the runtime stops at its step limit)")
                before = now
            # the paths that go on meet with their conditions left as they are: when one path goes on, its
            # condition is replaced by what the pass left of its entry (`_remainder`), never reduced
            after = self.block(body, looping, reduce=False)
            paths = []
            for p in after:
                if p.status is None or p.status == "continue":
                    p.status = None
                    if post is not None:
                        paths.extend(q for q, _ in self.eval(post, p))
                    else:
                        paths.append(p)
                    continue
                p.pc = minimize(p.pc, consensus=False)
                if p.status == "break":
                    p.status = None
                done.append(p)  # broke out, returned, or the game is over
            paths = self.merge(paths, reduce=False)
            if entry is not None and len(paths) == 1 and len(done) > exits:
                paths[0].pc = _remainder(entry, [q.pc for q in done[exits:]], paths[0].pc)
            else:
                for p in paths:
                    p.pc = minimize(p.pc, consensus=False)
        raise NotLowerable(span, f"this loop runs more than {LOOP_LIMIT} times: its bound is not known after setup")

    def _past_cut(self, p: Path, passes: int) -> bool:
        """Whether a path that would go on past the cut is cut. Where a shorter cut was found short, its ranges
        (`reached`) say which paths a state may meet: those go on, the others are cut here, so the cut after one
        too short is as long as those ranges need at once. Kalah's sowing (tests/data/designers/kalah.tgpl) was
        run at 4, 8, 16 and 32 passes, where 26 are needed for 24 seeds: now at 4, then at 8 going on to 26. A
        loop no range bounds goes on at most LOOP_CUT_AHEAD times the cut, so that a refused one costs a few
        times the passes it did. The cut stays exact: every path cut is judged against the ranges the game is
        lowered with (segments.Lowering.check_loop_cuts), and a cut found short is lowered again, longer."""
        return (self.reached is None or passes >= LOOP_CUT_AHEAD * self.loop_cut or passes + 1 >= LOOP_LIMIT
                or not self.reached(p.pc))

    def _cut_loop(self, p: Path, span: Span) -> None:
        """A path still in a loop bounded by a number of the state after `loop_cut` passes: ended there, for the
        ranges alone (as a `new` past its pool's last object, `made`). Its condition says which values of the
        numbers reach the cut; once the ranges are known, a state they hold that meets it means the cut was too
        short (segments.Lowering.check_loop_cuts), and none means the loop never runs that far."""
        p.status = "over"
        self.overflows.append(p)
        self.loop_cuts.append((p, span))

    def _loop_facts(self, cond, body: ast.Block) -> tuple[list[str], bool]:
        """The names a loop's condition reads and whether its body may leave it (read once per loop: a loop in a
        function runs once for every call)."""
        found = self._loops.get(id(body))
        if found is None:
            names = sorted({n.name for n in ast.walk(cond) if isinstance(n, ast.Name)}) if cond is not None else []
            found = self._loops[id(body)] = (names, self._may_leave(body))
        return found

    def _may_leave(self, body: ast.Block) -> bool:
        """Can a pass of a loop with this body end it other than through its condition: a `return`, a
        `winner`, a `break` of this loop (not of a loop inside it), or a call of code that may end the game?"""
        inner: set[int] = set()
        for n in ast.walk(body):
            if isinstance(n, (ast.While, ast.For)):
                inner.update(id(b) for b in ast.walk(n.body) if isinstance(b, ast.Break))
            if isinstance(n, (ast.Return, ast.Winner)):
                return True
            if isinstance(n, ast.Call):
                ct = self.types.get(id(n.callee))
                if not isinstance(ct, CallableType) or ct.kind != "builtin":
                    return True
        return any(isinstance(n, ast.Break) and id(n) not in inner for n in ast.walk(body))

    def stmt_Return(self, s: ast.Return, p: Path) -> list[Path]:
        if s.value is None:
            p.status = ("return", None)
            return [p]
        out = []
        for q, v in self.eval(s.value, p):
            q.status = ("return", restrict(v, q.pc))
            out.append(q)
        return out

    def stmt_Break(self, s, p: Path) -> list[Path]:
        p.status = "break"
        return [p]

    def stmt_Continue(self, s, p: Path) -> list[Path]:
        p.status = "continue"
        return [p]

    def stmt_Winner(self, s: ast.Winner, p: Path) -> list[Path]:
        out = []
        for q, v in self.eval(s.value, p):
            for r, ranking in self.ranking(q, v):
                r.result = ranking
                r.status = "over"
                out.append(r)
        return out

    def ranking(self, p: Path, v) -> list[tuple[Path, tuple]]:
        """A `winner` value as a ranking, one path per concrete ranking."""
        if isinstance(v, (list, tuple)):
            options: list[tuple[Path, list]] = [(p, [])]
            for rank in v:
                if not isinstance(rank, (list, tuple)):
                    return []
                nxt = []
                for q, acc in options:
                    ranks: list[tuple[Path, list]] = [(q, [])]
                    for x in rank:
                        ranks = [(r2, members + ([int(self.to_player(y))] if y is not None else []))
                                 for r, members in ranks for r2, y in self.split(r, x)]
                    nxt.extend((r, acc + [tuple(m)]) for r, m in ranks)
                options = nxt
            return [(q, tuple(r)) for q, r in options]
        out = []
        for q, x in self.split(p, self.to_player(v)):
            if x is None or x is UNDEF:
                continue
            out.append((q, ((int(x),),)))
        return out

    def stmt_InputDecl(self, s, p: Path) -> list[Path]:
        raise NotLowerable(s.span, "input statements inside blocks are not lowerable")

    # ============================================================ expressions
    def eval(self, e: ast.Expr, p: Path, want=None) -> list[tuple[Path, object]]:
        kind = type(e)
        method = self._expr_methods.get(kind)
        if method is None:
            method = self._expr_methods[kind] = getattr(self, "expr_" + kind.__name__, None)
            if method is None:
                raise NotLowerable(e.span, f"{kind.__name__} expressions are not lowerable")
        if kind is ast.InitList:
            return method(e, p, want)
        return method(e, p)

    def eval_all(self, es: list, p: Path) -> list[tuple[Path, list]]:
        out: list[tuple[Path, list]] = [(p, [])]
        for e in es:
            shared = self._eval_shared(e, out) if len(out) > 1 and self._calls(e) else None
            if shared is not None:
                out = shared
                continue
            out = [(q2, vals + [v]) for q, vals in out for q2, v in self.eval(e, q)]
        return out

    def _calls(self, e: ast.Expr) -> bool:
        """Whether e calls code (the evaluations worth sharing)."""
        found = self._calling.get(id(e))
        if found is None:
            found = self._calling[id(e)] = any(isinstance(n, ast.Call) for n in ast.walk(e))
        return found

    def _eval_shared(self, e: ast.Expr, out: list[tuple[Path, list]]) -> list[tuple[Path, list]] | None:
        """e evaluated once for paths that differ in their conditions only, not once per path.

        Connect Four's `1 + Run(...) + Run(...)`: the first call leaves one path per run
        length, alike but for its condition, and the second call would run again on each.
        Run once on a path whose condition is true, its results hold under any condition,
        so each pair of a path and a result is their conjunction. Only where nothing in e
        depends on the condition: a view contribution records its path's condition, so an
        evaluation that would make one is abandoned (None: evaluate per path)."""
        first = out[0][0]
        state = _state(first)
        if any(_state(q) != state or q.dice != first.dice for q, _ in out[1:]):  # dice: faces left to read differ
            return None
        probe = first.fork(TRUE)
        self._probing += 1
        try:
            results = self.eval(e, probe)
        except (_Contribution, NotLowerable):
            return None
        finally:
            self._probing -= 1
        shared = []
        for q, vals in out:
            for r, v in results:
                pc = conj(q.pc, r.pc)
                if pc is not FALSE:
                    shared.append((r.fork(pc), vals + [restrict(v, pc)]))
        return shared

    def expr_NumberLit(self, e, p):
        return [(p, float(e.value))]

    def expr_StringLit(self, e, p):
        return [(p, e.value)]

    def expr_BoolLit(self, e, p):
        return [(p, e.value)]

    def expr_NullLit(self, e, p):
        return [(p, None)]

    def expr_This(self, e, p):
        return [(p, p.frame.this)]

    def expr_Base(self, e, p):
        return [(p, p.frame.this)]

    def expr_InitList(self, e: ast.InitList, p: Path, want=None):
        t = want if want is not None else self.types.get(id(e))
        is_table = isinstance(t, Collection) and t.kind == "Table"
        out = []
        for q, vals in self.eval_all(list(e.items), p):
            if is_table:
                table = {}
                for item in vals:
                    if isinstance(item, list) and len(item) == 2:
                        table[item[0]] = item[1]
                out.append((q, table))
            else:
                out.append((q, list(vals)))
        return out

    def _decl_type(self, ref: ast.TypeRef):
        if ref.args:
            return Collection(ref.name, self._decl_type(ref.args[0]))
        return None

    def expr_Name(self, e: ast.Name, p: Path):
        scope = p.lookup(e.name)
        if scope is not None:
            return [(p, scope[e.name])]
        if id(e) in self.implicit_this:
            return self.member(p, p.frame.this, e.name, e.span)
        if e.name == "event":
            return [(p, p.frame.event)]
        return self.global_object(e, e.name, p)

    def global_object(self, e: ast.Expr, name: str, p: Path):
        """A name (or a namespace's member) that stands for a global class: its single object."""
        t = self.types.get(id(e))
        if isinstance(t, ClassType) and t.info.visibility == "global":
            return [(p, self.u.globals.get(t.info.name, UNDEF))]
        raise NotLowerable(e.span, f"'{name}' is not lowerable as a value here")

    def expr_Member(self, e: ast.Member, p: Path):
        if isinstance(self.types.get(id(e.obj)), Namespace):
            return self.global_object(e, e.name, p)
        out = []
        for q, o in self.eval(e.obj, p):
            out.extend(self.member(q, o, e.name, e.name_span))
        return out

    def member(self, p: Path, o, name: str, span: Span):
        def get(x):
            if isinstance(x, UObj):
                return self.read(p, x, name, span)
            if name == "length" and isinstance(x, StateList):
                return self._length_of(p, x, span)
            if name == "length" and isinstance(x, (list, tuple, dict)):
                return float(len(x))
            return UNDEF
        return [(p, restrict(lift(get, o), p.pc))]

    def expr_Index(self, e: ast.Index, p: Path):
        out = []
        for q, (o, k) in self.eval_all([e.obj, e.index], p):
            if isinstance(o, StateList):
                out.append((q, restrict(lift(lambda i, o=o, q=q: self.item(q, o, i, e.span), k), q.pc)))
            elif isinstance(o, SetList):  # `L[i]` in a scan of a set: the object the scan tests (`_scanned`)
                if not any(k is x for x in o.items):
                    raise NotLowerable(e.span, "an item of a list kept as a set read by index")
                out.append((q, k))
            else:
                out.append((q, restrict(lift(_index, o, k), q.pc)))
        return out

    # ============================================================ lists that are state
    def _length_of(self, p: Path, lst: StateList, span: Span):
        """The list's length by cases of 0..size: a loop up to it then ends within the slots."""
        def cases(n):
            if isinstance(n, Num):
                return choice((float(k), lit(CmpLit("==", n, float(k)))) for k in range(lst.size + 1))
            return n
        return restrict(lift(cases, self.read(p, lst.obj, length_cell(lst.attr), span)), p.pc)

    def _slot(self, p: Path, lst: StateList, k: int, span: Span):
        return self.read(p, lst.obj, slot_cell(lst.attr, k), span) if k < lst.size else None

    def item(self, p: Path, lst: StateList, i, span: Span):
        """`lst[i]`: slot i, in the cases of the length that hold it (past the end the runtime stops: dropped).
        The index is truncated, as the runtime's (`_index_is`)."""
        if isinstance(i, Num):
            return choice((self.item(p, lst, float(k), span), _index_is(i, k)) for k in range(lst.size))
        if not isinstance(i, (int, float)) or isinstance(i, bool) or not 0 <= int(i) < lst.size:
            return UNDEF
        k = int(i)
        slot = self._slot(p, lst, k, span)
        return choice((slot if isinstance(n, float) and k < n else UNDEF, f)
                      for n, f in cases_of(self._length_of(p, lst, span)))

    def set_item(self, p: Path, lst: StateList, index, v, span: Span) -> list[tuple[Path, object]]:
        """`lst[i] = v`: slot i written, in each case of the length that holds it. The index is the runtime's
        (`Machine._list_index`): truncated, and one that is not a number or falls outside the items is a
        runtime error, so those cases leave the path (dropped, as every runtime error is)."""
        out = []
        for q, n in self.split(p, self._length_of(p, lst, span)):
            if not isinstance(n, float) or n > lst.size:  # longer than its slots: as in `list_method`
                continue
            for k in range(int(n)):
                pc = conj(q.pc, _index_is(index, k))
                if pc is FALSE:
                    continue
                r = q if pc is q.pc else q.fork(pc)
                out.extend((w, v) for w in self.write(r, lst.obj, slot_cell(lst.attr, k), v, span))
        return out

    def list_method(self, p: Path, lst: StateList, name: str, vals: list, span: Span):
        """contains, indexOf, add, remove, removeAt, append and clear on a list that is state: one path per
        length it may have, and on each, the items it holds slot by slot, by cases."""
        out = []
        for q, n in self.split(p, self._length_of(p, lst, span)):
            # longer than its slots: an object added twice, which the lengths' ranges refuse if a play can
            # get there (Lowering.check_list_lengths); the case is dropped meanwhile
            if not isinstance(n, float) or n > lst.size:
                continue
            out.extend(self._list_method(q, lst, int(n), name, vals, span))
        return out

    def _list_method(self, p: Path, lst: StateList, n: int, name: str, vals: list, span: Span):
        slots = [self._slot(p, lst, k, span) for k in range(lst.size)]
        if name == "removeAt":
            return self._remove_at(p, lst, n, slots, vals[0], span)
        if name == "append":
            return self._append(p, lst, n, vals[0], span)
        found = [as_formula(sym_equal(slots[k], vals[0])) or FALSE for k in range(n)] if vals else []
        if name == "contains":
            return [(p, restrict(disj(*found), p.pc))]
        if name == "indexOf":
            cases, rest = [], TRUE
            for k, f in enumerate(found):
                cases.append((float(k), conj(rest, f)))
                rest = conj(rest, neg(f))
            cases.append((-1.0, rest))
            return [(p, restrict(choice(cases), p.pc))]
        writes: dict[int, object] = {}
        totals: dict[str, object] = {}
        if name == "add":
            if n < lst.size:  # past its slots the length alone grows, and the ranges refuse the game
                writes[n] = vals[0]
                totals = self._totals(p, lst, lambda f, t: sym_arith("+", t, _field(vals[0], f)), span)
            length = float(n + 1)
        elif name == "remove":  # the first item equal to x leaves; the ones after it move down
            gone = FALSE
            for k in range(n):
                gone = disj(gone, found[k])
                writes[k] = choice([(slots[k + 1] if k + 1 < n else None, gone), (slots[k], neg(gone))])
            length = choice([(float(n - 1), gone), (float(n), neg(gone))]) if n else 0.0
            totals = self._totals(p, lst, lambda f, t: _where(sym_arith("-", t, _field(vals[0], f)), gone), span)
        elif name == "clear":
            writes = {k: None for k in range(n)}
            length = 0.0
            totals = self._totals(p, lst, lambda f, t: 0.0, span)
        else:
            raise NotLowerable(span, f"{name}() on a list stored in an attribute is not lowerable")
        return self._store(p, lst, writes, length, span, totals)

    def set_method(self, p: Path, lst: SetList, name: str, vals: list, span: Span):
        """contains, add and remove on a list kept as a set (`subset.set_lists` allows no other method): a test
        of the item's bool, and a write of it, for each object the argument may be. `add` of an item the list
        may hold already, of null or of an object it cannot hold would make it no set: raises NotASet (lowered
        again, in order)."""
        is_item = [(x, as_formula(sym_equal(vals[0], x)) or FALSE) for x in lst.items]
        held = {x.name: as_formula(self.read(p, lst.obj, member_cell(lst.attr, x.name), span)) or FALSE
                for x, f in is_item if f is not FALSE}
        if name == "contains":
            return [(p, restrict(disj(*(conj(f, held[x.name]) for x, f in is_item if f is not FALSE)), p.pc))]
        if name == "add":  # only where the path shows the item is one of the objects and not held yet
            fresh = disj(*(conj(f, neg(held[x.name])) for x, f in is_item if f is not FALSE))
            if conj(p.pc, neg(fresh)) is not FALSE:
                raise NotASet(lst.attr)
        if name not in ("add", "remove"):
            raise NotLowerable(span, f"{name}() on a list kept as a set is not lowerable")
        paths = [p]
        for x, f in is_item:
            if f is FALSE:
                continue
            now = disj(held[x.name], f) if name == "add" else conj(held[x.name], neg(f))
            paths = [r for q in paths for r in self.write(q, lst.obj, member_cell(lst.attr, x.name), now, span)]
        return [(r, None) for r in paths]

    def _store(self, p: Path, lst: StateList, writes: dict[int, object], length, span: Span,
               totals: dict[str, object] | None = None):
        """The list's new slots (by index), length and running totals written on p, after every read of the
        change."""
        paths = [p]
        for k, v in sorted(writes.items()):
            paths = [r for q in paths for r in self.write(q, lst.obj, slot_cell(lst.attr, k), v, span)]
        for cell, v in sorted((totals or {}).items()):
            if not (isinstance(v, Partial) and not v.cases):  # a remove() that finds nothing changes no total
                paths = [r for q in paths for r in self.write(q, lst.obj, cell, v, span)]
        return [(r, None) for q in paths for r in self.write(q, lst.obj, length_cell(lst.attr), length, span)]

    def _remove_at(self, p: Path, lst: StateList, n: int, slots: list, index, span: Span):
        """`removeAt(i)` on a list of n items: the item at i leaves and the ones after it move down, as
        `remove` does for the first equal item. The index is the runtime's (`Machine._list_index`):
        truncated, and one that is not a number or falls outside 0..n-1 is a runtime error, so those
        cases leave the path (dropped, as every runtime error is)."""
        out = []
        for q, i in self.split(p, index):
            at = [_index_is(i, k) for k in range(n)]
            pc = conj(q.pc, disj(*at))
            if pc is FALSE:
                continue
            r = q if pc is q.pc else q.fork(pc)
            writes, gone = {}, FALSE
            for k in range(n):
                gone = disj(gone, at[k])
                writes[k] = choice([(slots[k + 1] if k + 1 < n else None, gone), (slots[k], neg(gone))])
            totals = self._totals(r, lst, lambda f, t: choice([(sym_arith("-", t, _field(slots[k], f)), at[k])
                                                              for k in range(n)]), span)
            out.extend(self._store(r, lst, writes, float(n - 1), span, totals))
        return out

    def _append(self, p: Path, lst: StateList, n: int, other, span: Span):
        """`append(items)` on a list of n items: the other list's items after them, in order. The other list
        is a list that is state (by cases of its length), a static one or a local; null is a runtime error
        (dropped). Its items are read before anything is written, so a list appended to itself doubles,
        as the runtime's `extend` does."""
        out = []
        for q, xs in self.split(p, other):
            if isinstance(xs, StateList):
                for r, m in self.split(q, self._length_of(q, xs, span)):
                    if isinstance(m, float) and m <= xs.size:  # longer: dropped, as in `list_method`
                        out.extend(self._extend(r, lst, n, [self._slot(r, xs, k, span) for k in range(int(m))],
                                                span))
            elif isinstance(xs, (list, tuple)):
                out.extend(self._extend(q, lst, n, list(xs), span))
        return out

    def _extend(self, p: Path, lst: StateList, n: int, items: list, span: Span):
        """items written after the n a list holds; past its slots the length alone grows (as `add`), and the
        lengths' ranges refuse the game if a play gets there (`Lowering.check_list_lengths`)."""
        writes = {n + j: x for j, x in enumerate(items) if n + j < lst.size}
        return self._store(p, lst, writes, float(n + len(items)), span)

    def expr_Unary(self, e: ast.Unary, p: Path):
        out = []
        for q, v in self.eval(e.operand, p):
            if e.op == "!":
                out.append((q, sym_not(v)))
            else:
                out.append((q, sym_arith("-", 0.0, v)))
        return out

    def expr_Binary(self, e: ast.Binary, p: Path):
        op = e.op
        if op in ("&&", "||"):
            return self.short_circuit(e, p)
        out = []
        result_t = self.types.get(id(e))
        for q, (a, b) in self.eval_all([e.left, e.right], p):
            if op in ("==", "!=", "<", ">", "<=", ">="):
                v = sym_equal(a, b) if op in ("==", "!=") else sym_compare(op, a, b)
                if isinstance(v, Formula) and v.kind == "lit" and isinstance(v.key, CmpLit):
                    self.compared.setdefault(id(v.key), (v.key, e.span))
                if op == "!=":
                    v = sym_not(v)
            elif op in ("&", "|") or (op == "^" and result_t == BOOL):
                fa, fb = as_formula(a), as_formula(b)
                if fa is None or fb is None:
                    continue
                v = conj(fa, fb) if op == "&" else disj(fa, fb) if op == "|" else \
                    disj(conj(fa, neg(fb)), conj(neg(fa), fb))
            elif op == "+" and (isinstance(a, str) or isinstance(b, str)):
                raise NotLowerable(e.span, "string operations are not lowerable")
            else:
                v = sym_arith(op, a, b)
                if result_t == PLAYER:
                    v = self.to_player(v)
            out.append((q, restrict(v, q.pc)))
        return out

    def short_circuit(self, e: ast.Binary, p: Path):
        decided = e.op == "||"
        out = []
        for q, a in self.eval(e.left, p):
            ta = truth(a)
            if ta is None:
                continue
            fa, na = ta
            pure = self._pure.get(id(e.right))
            if pure is None:
                pure = self._pure[id(e.right)] = _pure(e.right)
            if pure:
                for r, b in self.eval(e.right, q):
                    fb = as_formula(restrict(b, conj(r.pc, na if decided else fa)))
                    if fb is None:
                        fb = FALSE  # only where the left side decides alone
                    v = disj(fa, fb) if decided else conj(fa, fb)
                    out.append((r, v))
                continue
            for r, value in self.fork_on(q, a):
                if value == decided:
                    out.append((r, decided))
                else:
                    out.extend(self.eval(e.right, r))
        return out

    def expr_TypeTest(self, e: ast.TypeTest, p: Path):
        test = self._type_test(e.type)
        return [(q, lift(test, v)) for q, v in self.eval(e.expr, p)]

    def expr_Cast(self, e: ast.Cast, p: Path):
        test = self._type_test(e.type)
        return [(q, lift(lambda x: x if test(x) else None, v)) for q, v in self.eval(e.expr, p)]

    def _type_test(self, ref: ast.TypeRef):
        t = self.types.get(id(ref))
        if ref.name == "number" or ref.name == "player":
            return lambda v: isinstance(v, (int, float, Num)) and not isinstance(v, bool)
        if ref.name == "string":
            return lambda v: isinstance(v, str)
        if ref.name == "bool":
            return lambda v: isinstance(v, bool)
        info = t.info if isinstance(t, ClassType) else self.class_named(ref.name)
        if info is None:
            raise NotLowerable(ref.span, f"type tests against {ref.name} are not lowerable")
        return lambda v: isinstance(v, UObj) and v.is_a(info)

    def class_named(self, name: str):
        """The class a type name in the program stands for (a user class of any file, or a built-in)."""
        for scope in self.program.scopes.values():
            sym = scope.lookup(name)
            if sym is not None and hasattr(sym, "derives_from"):
                return sym
        return self.builtins.by_name().get(name)

    def expr_New(self, e: ast.New, p: Path):
        """An event object, made to be thrown within the move: its attributes, initialized base first as
        the runtime does, are values on the path. An object of a class with a pool (tgpl.lowering.universe.Pool):
        the pool's next object (`made`). Objects of any other kind would be new fluents."""
        t = self.types.get(id(e))
        info = t.info if isinstance(t, ClassType) else None
        pool = self.u.pool_of(info) if info is not None else None
        if pool is not None and e.init is None:
            return self.made(e, p, pool)
        if info is None or not info.derives_from(self.builtins.event) or e.init is not None:
            raise NotLowerable(e.span, "this object made after setup is not lowerable (only events and objects of "
                                       "classes with a pool are)")
        if info.derives_from(self.builtins.player_choice) or any(
                isinstance(m, ast.Default) for c in info.ancestors() if c.defn is not None for m in c.defn.members):
            raise NotLowerable(e.span, f"a {info.name} made after setup is not lowerable (a player's choice, or "
                                       "an event with a default block)")
        obj = Transient(f"{info.name}#made{len(p.records)}", info, (), -1)
        obj.fields = {}
        p.records = {**p.records, obj.name: {}}

        def record(q: Path, name: str, v) -> list[Path]:
            q.records[obj.name][name] = None if v is None else restrict(v, q.pc)
            return [q]

        return [(q, obj) for q in self.attributes_initialized([p], obj, info, record)]

    def attributes_initialized(self, paths: list[Path], obj, cls, store) -> list[Path]:
        """The attributes of `obj`, a `cls`, given their first values in the runtime's order: base class
        first, each initializer run with the object as `this` (no initializer: null); `store(path, name,
        value)` keeps a value and gives the paths that follow (an event's record, a pool object's fluent)."""
        for c in reversed(list(cls.ancestors())):
            for name, attr in c.attributes.items():
                if attr.value is None:
                    paths = [r for q in paths for r in store(q, name, None)]
                    continue
                nxt = []
                for q in paths:
                    q.stack = q.stack + [Frame(obj, None, [{}])]
                    for r, v in self.eval(attr.value, q):
                        r.stack = r.stack[:-1]
                        nxt.extend(store(r, name, v))
                paths = nxt
        return paths

    def made(self, e: ast.New, p: Path, pool: Pool):
        """`new` of a class with a pool: the lowest object of the pool not made yet, the one its counter stands
        at (the runtime names objects in the order it makes them, and drops none), one path per object, with
        the counter one more and the object's attributes initialized as the runtime does: `tile` and
        `discarded` of an interactable, then the attributes base first, each initializer run with the object
        as `this`. Where the counter stands at the pool's size, the pool is used up: that path ends there,
        in `overflows`, with the counter one more, so that the ranges tell whether a state makes more objects
        than the pool holds (segments.Lowering.check_pools)."""
        count = self.read(p, pool.counter, MADE, e.span)
        out = []
        for k, obj in enumerate([*pool.objects, None]):
            test = sym_compare("==" if obj is not None else ">=", count, float(k))
            ways = truth(test)
            if ways is None:
                continue
            pc = conj(p.pc, ways[0])
            if pc is FALSE:
                continue
            for q in self.write(p.fork(pc), pool.counter, MADE, sym_arith("+", count, 1.0), e.span):
                if obj is None:  # past the pool: for the ranges alone
                    q.status = "over"
                    self.overflows.append(q)
                    continue
                out.extend((r, obj) for r in self.initialized(q, obj, e.span))
        return out

    def initialized(self, p: Path, obj: UObj, span: Span) -> list[Path]:
        """The fluents of a pool object just made, given their first values in the runtime's order."""
        paths = [p]
        kinds = {c.kind for c in obj.cls.ancestors()}
        if "interactable" in kinds:
            paths = [r for q in paths for r in self.write(q, obj, "tile", None, span)]
            paths = [r for q in paths for r in self.write(q, obj, "discarded", False, span)]
        return self.attributes_initialized(paths, obj, obj.cls, lambda q, name, v: self.write(q, obj, name, v, span))

    def expr_Assign(self, e: ast.Assign, p: Path):
        target = e.target
        if id(e) in self.unread_attributes.writes:
            return self.unread_write(e, p)
        out = []
        want = self.types.get(id(target))
        for q, v in self.eval(e.value, p, want if isinstance(want, Collection) else None):
            if e.op != "=":
                for r, old in self.eval(target, q):
                    nv = sym_arith(e.op[0], old, v)
                    if want == PLAYER:
                        nv = self.to_player(nv)
                    out.extend(self.assign(target, r, nv))
                continue
            if want == PLAYER and v is not None:
                v = self.to_player(v)
            out.extend(self.assign(target, q, v))
        return out

    def unread_write(self, e: ast.Assign, p: Path) -> list[tuple[Path, object]]:
        """A write of an attribute nothing reads (tgpl.lowering.unread): its value and the object written are
        evaluated for what they do (the runtime stops at a write to an attribute of null), the write dropped."""
        out = []
        for q, v in self.eval(e.value, p):
            if not isinstance(e.target, ast.Member):
                out.append((q, v))  # an attribute of `this`
                continue
            for r, obj in self.eval(e.target.obj, q):
                out.extend((t, v) for t, o in self.split(r, obj) if isinstance(o, UObj))
        return out

    def assign(self, target: ast.Expr, p: Path, v) -> list[tuple[Path, object]]:
        if isinstance(target, ast.Name):
            scope = p.lookup(target.name)
            if scope is not None:
                scope[target.name] = restrict(v, p.pc)
                return [(p, v)]
            if id(target) in self.implicit_this:
                return [(q, v) for q in self.write(p, p.frame.this, target.name, v, target.span)]
            raise NotLowerable(target.span, f"assigning '{target.name}' is not lowerable")
        if isinstance(target, ast.Member):
            out = []
            for q, o in self.eval(target.obj, p):
                out.extend((r, v) for r in self.write(q, o, target.name, v, target.span))
            return out
        if isinstance(target, ast.Index):
            out = []
            for q, (o, k) in self.eval_all([target.obj, target.index], p):
                if isinstance(o, StateList):
                    for r, key in self.split(q, k):  # an index by cases (a player held in a local): each
                        out.extend(self.set_item(r, o, key, v, target.span))
                    continue
                for r, key in self.split(q, k):
                    if isinstance(o, list):
                        if not isinstance(key, (int, float)) or not 0 <= int(key) < len(o):
                            continue
                        o[int(key)] = v
                    elif isinstance(o, dict) and not isinstance(o, StaticTable):
                        if key is None:
                            continue
                        if v is None:
                            o.pop(key, None)
                        else:
                            o[key] = v
                    else:
                        raise NotLowerable(target.span, "only local lists and tables can be changed by index")
                    out.append((r, v))
            return out
        raise NotLowerable(target.span, "this assignment is not lowerable")

    # ============================================================ calls
    def expr_Call(self, e: ast.Call, p: Path):
        callee = e.callee
        if isinstance(callee, ast.Member) and callee.name == "length" and not e.args:
            return [(q, self._length_of(q, o, e.span) if isinstance(o, StateList) else lift(_length, o))
                    for q, o in self.eval(callee.obj, p)]
        ct = self.types.get(id(callee))
        if not isinstance(ct, CallableType):
            raise NotLowerable(e.span, "this call is not lowerable")
        if ct.kind == "function":
            return self.call_function(e, callee, ct.target, p)
        if ct.kind == "action":
            raise NotLowerable(e.span, "actions called from code are not lowerable")
        return self.call_builtin(e, callee, ct, p)

    def call_function(self, e: ast.Call, callee, fi, p: Path):
        if len(self.where) > CALL_DEPTH:  # the functions being run (a call run once starts a fresh stack)
            raise NotLowerable(e.span, f"calls nested deeper than {CALL_DEPTH}: recursion is not lowerable")
        named = [a for a in e.args if a.name is not None]
        ways = p.ways  # before the call: the calls it makes in turn give their results ways of their own
        counted = self._reads_changed_list(fi)
        self._counting += counted  # a call inside it counts, the outermost refuses (`count_ways`)
        try:
            out = self._call_targets(e, callee, fi, p, named)
        finally:
            self._counting -= counted
        return self.count_ways(e, fi, ways, out, counted)

    def _call_targets(self, e: ast.Call, callee, fi, p: Path, named: list) -> list[tuple[Path, object]]:
        """The results of a call on every object it may be made on, and with every value of its arguments."""
        out = []
        if fi.owner is None:
            targets = [(p, None, [])]
        elif isinstance(callee, ast.Member):
            targets = [(q, o, []) for q, o in self.eval(callee.obj, p)]
        else:
            targets = [(p, p.frame.this, [])]
        for q, obj, _ in targets:
            for r, this in self.split(q, obj):
                if fi.owner is not None and not isinstance(this, UObj):
                    continue
                target_fi = fi
                if isinstance(this, UObj) and not (isinstance(callee, ast.Member) and isinstance(callee.obj, ast.Base)):
                    target_fi = this.cls.find_function(fi.name) or fi
                for s, vals in self.eval_all([a.value for a in named], r):
                    out.extend(self.invoke(target_fi, this, dict(zip((a.name for a in named), vals)), s, e.span))
        return out

    def count_ways(self, e: ast.Call, fi, ways: int, out: list[tuple[Path, object]],
                   counted: bool) -> list[tuple[Path, object]]:
        """The results of a call made on a path that held `ways` ways, each path given the ways it now holds:
        where the function reads a list the moves change (`called_changed_lists`) and returns a value by cases
        (a Choice: one case for each content of the list), the cases of all its results multiply the ways. Those
        cases are not paths, which `merge` would bound, but every statement after them that compares the values
        spells them out; past WAY_LIMIT the call is refused here, before that work, for the state's budget it
        would pass (a StateTooCostly, which `auto` may compile instead). A call made inside another such function
        counts as well, but the outermost refuses, where the code that goes on with the value stands."""
        cases = [len(v.cases) if isinstance(v, Choice) else 1 for _, v in out]
        if not counted or not out or max(cases) < 2:
            return out
        ways *= sum(cases)
        self.most_ways = max(self.most_ways, ways)
        if ways > WAY_LIMIT and not self._counting:
            raise StateTooCostly(e.span, f"the values the calls on this way return make {ways:,} ways together "
                                         f"(here, in {self.here}), more than the {WAY_LIMIT:,} the lowering spells "
                                         "out: the statements after them would run on every way, past (by this "
                                         f"estimate, made before that work) the budget of {STATE_WORK:,} parts of "
                                         "conditions of one control state"
                                         + self._rewrite_hint())
        for q, _ in out:
            q.ways = ways
        return out

    def _reads_changed_list(self, fi) -> bool:
        """Whether a function, or one it calls, reads a list the moves change (`called_changed_lists`)."""
        found = self._list_readers.get(id(fi.defn))
        if found is None:
            found = self._list_readers[id(fi.defn)] = called_changed_lists(self.program, fi.defn) is not None
        return found

    def invoke(self, fi, this, given: dict, p: Path, span: Span) -> list[tuple[Path, object]]:
        if p.store:
            self.checkpoint(p, ("call", fi.name, span.file, span.line, span.col))
        entry = (p.pc, dict(p.store), p.control, p.pending)
        args = ((this,) if this is not None else ()) + tuple(given[i.name] for i in fi.defn.inputs if i.name in given)
        defined = self.defined_once(fi, this, given, args, p, span)
        if defined is not None:
            return defined
        results = self._invoke(fi, this, given, p, span)
        return self._named(fi, args, entry, results)

    def defined_once(self, fi, this, given: dict, args: tuple, p: Path, span: Span):
        """A pure call with concrete arguments, run once for every state, not once per path that calls it.

        The body runs on a fresh path (condition true, the caller's writes and
        views): what it returns then depends on the state only, so every caller
        shares it. One result comes back as it is; several become a named
        relation, `(wincheck a b c ?who)`, and the caller goes on with one path
        per value. Calls that write, pass the turn or return numbers (which feed
        arithmetic, not conditions) run on the caller's path instead (None).
        """
        if not _concrete(args) or self.dice is not None:  # a die read in the body is the caller's way's
            return None
        plan = self._compiled_plan(fi, this, given, p)  # None: the call cannot be compiled
        if plan is not None and (self.compile_all or plan[0].name in self.costly):
            compiled = self.compiled_call(fi, plan, p)
            if compiled is not None:
                return compiled
        returns = fi.defn.returns
        if returns is not None and returns.type is not None and returns.type.name == "number":
            return None  # numbers are never shared (below): the fresh run would be thrown away
        # What the body returns depends on the control state only if it reads it (player.active(), turn.*):
        # five in a row's MakesFive after either player's claim is one run, not two.
        reads_control, reads_fluents = self._reads(fi.defn)
        control = (p.control, p.pending) if reads_control else None
        known = p.known
        try:
            if reads_fluents:
                store = tuple(sorted(((c, v) for c, v in p.store.items() if c[1] not in p.views or c in p.dirty),
                                     key=lambda cv: cv[0]))
                # Cells the caller wrote and reads through its views hold what it wrote: where that is never
                # null, the body need not consider null there (Connect Four's MakesFour then compares the
                # dropped disc with two colours, not three). Every caller sharing the relation knows the same.
                known = p.known | frozenset(c for c, v in p.store.items() if c[1] in p.views and c not in p.dirty
                                            and c in self.viewable and _never_null(v))
                key = (fi.name, tuple(vkey(a) for a in args), tuple(sorted(p.views.items())), p.dirty, store,
                       control, known)
            else:  # what it returns depends on its arguments alone (Connect Four's At)
                key = (fi.name, tuple(vkey(a) for a in args), control)
            hash(key)
        except TypeError:
            return None
        found = self.defined.get(key, _MISSING)
        if found is _MISSING:
            # the body sees its own frame only: the caller's frames need not be copied and compared with it
            fresh = Path(TRUE, dict(p.store), p.control, p.pending, [], None, p.result, dict(p.views),
                         p.dirty, p.visited, known)
            budget = name = None
            if plan is not None and not self.compile_all:  # a share of the work for the function's calls, all together
                name, start = plan[0].name, work_done()
                if self._spent.get(name, 0) >= CALL_WORK:
                    self.costly.add(name)
                    return self.compiled_call(fi, plan, p)
                budget = (fi, start + CALL_WORK - self._spent.get(name, 0))
                self._budgets.append(budget)
            try:
                results = self._invoke(fi, this, given, fresh, span)
            except _Costly as e:
                if e.budget is not budget:
                    raise
                self.costly.add(name)
                return self.compiled_call(fi, plan, p)
            finally:
                if budget is not None:
                    self._budgets.remove(budget)
                    self._spent[name] = self._spent.get(name, 0) + work_done() - start
            found = None
            if all(q.store == p.store and q.control == p.control and q.pending == p.pending and q.status is None
                   and q.views == p.views and q.dirty == p.dirty and _relation_value(v) for q, v in results):
                cases: dict[object, list] = {}
                for q, v in results:
                    for x, f in cases_of(v):
                        if x is not UNDEF:
                            cases.setdefault(vkey(x), [x, []])[1].append(conj(q.pc, f))
                table = tuple((x, minimize(disj(*fs), distribute=True, check=self.limits.check))
                              for x, fs in cases.values())
                if len(table) == 1 and table[0][1] is TRUE:
                    found = ("value", table[0][0])
                elif len(results) == 1 and results[0][0].pc is TRUE and not isinstance(results[0][1], UObj):
                    found = ("value", results[0][1])  # a symbolic value valid in every state (a formula)
                elif table and not any(is_number(x) for x, _ in table):
                    found = ("named", tuple(literal_value(a) for a in args), table)
            self.defined[key] = found
        if found is None:
            return None
        if found[0] == "value":
            return [(p, restrict(found[1], p.pc))]
        out = []
        for x, _ in found[2]:
            q = p.fork(conj(p.pc, _call_literal(fi.name, found[1], x, found[2])))
            if q.pc is not FALSE:
                out.append((q, x))
        return out

    def _reads(self, defn) -> tuple[bool, bool]:
        """(control, fluents): whether a function, or one it may call (any class's function of a called
        name), reads the control state (the active player, turn or phase, or passes the turn), and
        whether it may read a fluent (an attribute of a name some fluent has, by any spelling)."""
        found = self._readers.get(id(defn))
        if found is None:
            attributes = self._fluent_attributes
            control = fluents = False
            seen: set[int] = set()
            code = [defn]
            while code and not (control and fluents):
                node = code.pop()
                if id(node) in seen:
                    continue
                seen.add(id(node))
                for n in ast.walk(node):
                    if isinstance(n, (ast.Member, ast.Name)):
                        fluents = fluents or n.name in attributes
                        continue
                    if not isinstance(n, ast.Call):
                        continue
                    ct = self.types.get(id(n.callee))
                    if not isinstance(ct, CallableType):
                        control = fluents = True  # a call the checker did not resolve: assume the worst
                    elif ct.kind == "builtin" and ct.target.name.split(".")[0] in ("player", "turn"):
                        control = True
                    elif ct.kind == "function":
                        code.append(ct.target.defn)
                        code.extend(info.functions[ct.name].defn for info in self.program.classes
                                    if ct.name in info.functions)
            found = self._readers[id(defn)] = (control, fluents)
        return found

    def _compiled_plan(self, fi, this, given: dict, p: Path):
        """(compiled function, arguments as constants, context of views) of a call that can be compiled, or None."""
        if self.horn is None:
            return None
        try:
            hf = self.horn.compile(fi, this if isinstance(this, UObj) else None)
        except Unsupported:
            return None
        reads = self.horn.fluent_reads(hf.name)
        if hf.returns not in ("bool", "object", "number") or not reads:
            return None
        if any(i.name not in given for i in fi.defn.inputs):
            return None
        try:  # a closure's step count is no argument of its rules (tgpl.lowering.closures)
            args = tuple(self.horn.const_of(given[i.name], player=i.type.name == "player" and not i.type.args)
                         for i in fi.defn.inputs if i.name not in hf.dropped)
        except Unsupported:
            return None
        context = []
        for attr in sorted(reads):
            cells = [c for c in p.store if c[1] == attr]
            if attr in p.views:
                if any(c in p.dirty or c not in self.viewable for c in cells):
                    return None
                context.append((attr, p.views[attr]))
            elif cells:
                return None
            else:
                context.append((attr, None))
        return hf, args, context

    def compiled_call(self, fi, plan: tuple, p: Path):
        """A call of a function compiled to rules with variables (tgpl.lowering.horn), as `_compiled_plan` made
        it ready: one path per result (None: a number whose values are not known before the ranges are).

        Only for functions that read the state (the others give a concrete value when
        run), and read attributes either before the move or through this path's views
        (not from values it wrote and no view shows).
        """
        hf, args, context = plan
        ctx = self.horn_contexts.setdefault(tuple(context), len(self.horn_contexts))
        with tables_refused():
            if hf.returns == "bool":
                possible = self.horn.possible(hf.name, fi)
                if possible is None or args not in possible:
                    values = [True, False]
                else:  # what no state can make it return is not a path (chess: no piece goes from a1 to b3)
                    values = [v for v in (True, False) if self.horn.const_of(v) in possible[args]]
            elif hf.returns == "number":
                found = self.horn.results(hf.name, args)
                if found is None:
                    return None
                values = [self.horn.value_of(x) for x in found]
            else:
                info = self.horn.class_info(fi.defn.returns.type)
                values = [o for o in self.u.objects if info is not None and o.is_a(info)] + [None]
                possible = self.horn.possible(hf.name, fi)
                if possible is not None and args in possible:  # chess's Passed(from, to): null or one square
                    values = [v for v in values if self.horn.const_of(v) in possible[args]]
        out = []
        for v in values:
            q = p.fork(conj(p.pc, lit(HornLit(hf.name, ctx, args, v))))
            if q.pc is not FALSE:
                out.append((q, v))
        return out

    def _named(self, fi, args: tuple, entry: tuple, results: list[tuple[Path, object]]) -> list[tuple[Path, object]]:
        """A pure call with concrete arguments: one path per value it returns, under a named relation.

        So `WinCheck(a: TrisGrid[0][0], ...)` becomes `(wincheck trisgrid_0_0 ... playerstate_0)`
        in the rules rather than the conditions met inside it, and the caller goes on with
        concrete results.
        """
        pc, store, control, pending = entry
        if len(results) < 2 or not _concrete(args):
            return results
        for q, _ in results:
            if q.store != store or q.control != control or q.pending != pending or q.status is not None:
                return results
        cases: dict[object, list] = {}
        for q, v in results:
            rel = _strip(q.pc, pc)
            for x, f in cases_of(v):
                if x is UNDEF:
                    continue
                if _collection(x):  # a function returning a list (`Seat.Shapes()`): its items, not a name
                    return results
                cases.setdefault(vkey(x), [x, []])[1].append(conj(rel, f))
        if len(cases) < 2 or any(is_number(x) for x, _ in cases.values()):
            # numbers (a count, a row) feed arithmetic rather than conditions: naming them only adds
            # relations clingo must reason through (Connect Four's bounded search took 1.6 times longer);
            # a number of the state (`Seat.InHand + OnBoard(...)`, a `Num` on every path) has no constant
            # to name it by in a relation's row, so it stays inline too
            return results
        table = tuple((x, minimize(disj(*fs), check=self.limits.check)) for x, fs in cases.values())
        base = results[0][0]
        out = []
        for k, (x, _) in cases.items():
            q = base.fork(conj(pc, _call_literal(fi.name, tuple(literal_value(a) for a in args), x, table)))
            if q.pc is not FALSE:
                out.append((q, x))
        return out

    def _invoke(self, fi, this, given: dict, p: Path, span: Span) -> list[tuple[Path, object]]:
        defn = fi.defn
        frame = Frame(this, None, [{}])
        caller = p.stack
        p.stack = caller + [frame]
        paths = [p]
        for inp in defn.inputs:
            nxt = []
            for q in paths:
                if inp.name in given:
                    v = given[inp.name]
                    if inp.type.name == "player" and v is not None:
                        v = self.to_player(v)
                    q.frame.scopes[0][inp.name] = v
                    nxt.append(q)
                elif inp.modifier == "function" or inp.default is not None:
                    if inp.default is None:
                        q.frame.scopes[0][inp.name] = None
                        nxt.append(q)
                    else:
                        for r, v in self.eval(inp.default, q):
                            r.frame.scopes[0][inp.name] = v
                            nxt.append(r)
                else:
                    raise NotLowerable(inp.span, "function inputs asked of players are not lowerable")
            paths = nxt
        returns_player = defn.returns is not None and defn.returns.type is not None and defn.returns.type.name == "player"
        self.where.append(fi.name)
        self.shown.append(ast.shown_name(defn))
        self.spans.append(defn.name_span)
        self.blocks.append(defn.effect.body if defn.effect is not None else None)
        try:
            if defn.effect is not None:
                paths = self.block(defn.effect.body, paths)
        finally:
            self.where.pop()
            self.shown.pop()
            self.spans.pop()
            self.blocks.pop()
        out = []
        for q in paths:
            value = None
            if isinstance(q.status, tuple):
                value = q.status[1]
                q.status = None
            elif q.status in ("break", "continue"):
                q.status = None
            q.stack = q.stack[:-1]
            if returns_player and value is not None:
                value = self.to_player(value)
            if isinstance(value, Formula):
                self.labels.setdefault(value.id, fi.name)
            out.append((q, value))
        return self._merge_results(out)

    def _merge_results(self, pairs: list[tuple[Path, object]]) -> list[tuple[Path, object]]:
        """Merge call results: paths with equal results meet again."""
        if len(pairs) < 2:
            return pairs
        for q, v in pairs:
            q.status = ("return", v) if q.status is None else q.status
        merged = self.merge([q for q, _ in pairs])
        out = []
        for q in merged:
            if isinstance(q.status, tuple) and q.status[0] == "return":
                v = q.status[1]
                q.status = None
                out.append((q, v))
            else:
                out.append((q, None))
        return out

    def call_builtin(self, e: ast.Call, callee, ct: CallableType, p: Path):
        sig = ct.target
        qualified = sig.name
        positional = [a.value for a in e.args if a.name is None]
        bound = dict(zip((prm.name for prm in sig.params), positional))
        bound.update({a.name: a.value for a in e.args if a.name is not None})
        arg_exprs = [bound.get(prm.name) for prm in sig.params]
        out = []
        if qualified == "log":
            return [(p, None)]  # a message for people: no part of the game, so its text is not computed
        if qualified == "roll":
            return self.roll(e, p)
        if "." in qualified:
            for q, vals in self.eval_all([a for a in arg_exprs if a is not None], p):
                args = iter(vals)
                filled = [next(args) if a is not None else _MISSING for a in arg_exprs]
                out.extend(self.namespace_call(qualified, filled, q, e.span))
            return out
        name = ct.name
        if name in UNREAD_CHANGES and isinstance(callee, ast.Member) and self._unread(callee.obj):
            # a change of a list nothing reads after setup (subset.unread_lists): its holder and arguments
            # are evaluated for what they do, the change itself is not part of the game
            holder = [callee.obj.obj] if isinstance(callee.obj, ast.Member) else []
            return [(q, None) for q, _ in self.eval_all(holder + [a for a in arg_exprs if a is not None], p)]
        targets = self.eval(callee.obj, p) if isinstance(callee, ast.Member) else [(p, p.frame.this)]
        for q, obj in targets:
            for r, vals in self.eval_all([a for a in arg_exprs if a is not None], q):
                held = obj
                if r is not q and isinstance(obj, (list, dict)) and isinstance(callee.obj, ast.Name):
                    # arguments that forked the path (`score.add(Total(who: p))`) gave each fork its own copy
                    # of the local collection: the change is made to that copy, not to the one read before
                    held = next((v for _, v in self.eval(callee.obj, r)), obj)
                if name == "discard" and isinstance(held, Choice) and self._discards_by_cases(held):
                    out.extend(self.discard_by_cases(r, held, vals[0], e.span))
                    continue
                for s, target in self.split(r, held):
                    out.extend(self.method(s, target, name, vals, e.span))
        return out

    def _discards_by_cases(self, target: Choice) -> bool:
        """Whether `discard_by_cases` can discard `target`, an item known by cases: each case an object whose
        `discarded` is a fluent (or null, a runtime error)."""
        return all(x is None or (isinstance(x, UObj) and type(x) is not Transient
                                 and (x.name, "discarded") in self.fluents) for x, _ in target.cases)

    def discard_by_cases(self, p: Path, target: Choice, pile, span: Span) -> list[tuple[Path, object]]:
        """`item.discard(pile)` where the item is known by cases (`Market[0]`, a slot of a list): each object it
        may be is discarded and off its tile where it is that object, and left as it was elsewhere, on one path.
        Forking a path per object instead multiplies the paths by the list's items at every pass of a loop that
        empties a list (`while (Market.length > 0) { ... Market.removeAt(0); g.discard(pile); }`: 12 x 11 x 10
        for three of twelve cards). The pile is split as `method` splits it; the null cases leave the path (a
        runtime error, dropped)."""
        objects = [(x, f) for x, f in restrict(target, p.pc).cases if x is not None] \
            if isinstance(restrict(target, p.pc), Choice) else None
        if objects is None:
            return [(q, v) for q, x in self.split(p, target) for q, v in self.method(q, x, "discard", [pile], span)]
        pc = conj(p.pc, disj(*(f for _, f in objects)))
        if pc is FALSE:
            return []
        out = []
        for q, stack in self.split(p if pc is p.pc else p.fork(pc), pile):
            if stack is None or (isinstance(stack, UObj) and not any(c.kind == "stack" for c in stack.cls.ancestors())):
                continue  # a pile that is null or no stack: a runtime error, dropped (as `method`)
            paths = [q]
            for x, f in objects:
                for attr, v in (("discarded", True), ("tile", None)):
                    paths = [r for w in paths for r in self.write(w, x, attr, self._written_where(w, x, attr, v, f, span),
                                                                  span)]
            out.extend((x, None) for w in paths for x in self._on_pile(w, span))
        return out

    def _written_where(self, p: Path, obj: UObj, name: str, v, f: Formula, span: Span):
        """The value of `obj`'s fluent `name` once v is written where f holds: elsewhere what the path holds
        (a write earlier in the move, by cases too; through a view, what `read` gives), or, where it wrote
        nothing, the value before the move, which GDL's frame rule keeps (`_where`)."""
        cell = (obj.name, name)
        if name in p.views and cell in self.viewable:
            return choice([(v, f), (self.read(p, obj, name, span), neg(f))])
        held = p.store.get(cell, _MISSING)
        if held is _MISSING:
            return _where(v, f)
        if isinstance(held, Partial):
            return Partial(((v, f),) + tuple((x, g) for x, h in held.cases if (g := conj(h, neg(f))) is not FALSE))
        return choice([(v, f), (held, neg(f))])

    def roll(self, e: ast.Call, p: Path) -> list[tuple[Path, float]]:
        """A die of `self.dice`: at the first a way reads, a path for each of random's moves, under its literal and
        marked THROWN, reading the move's first face; at the next ones, the next face of its move. Raises
        NotLowerable where a way reads more dice than the action throws, or a die of other sides than the one
        the runtime would draw there."""
        return [(q, 1.0 if face is None else face) for q, face in self.face(e.span, roll_sides(e), p)]

    def face(self, span: Span, sides: int | None, p: Path, what: str = "roll()") -> list[tuple[Path, float | None]]:
        """The face of a die of `sides` sides (a roll(), or a deal of a deck of `sides` slots), on a path for each
        of random's moves that reads it (None on the probe, which marks the way THROWN)."""
        dice = self.dice
        if dice is None:
            raise NotLowerable(span, f"{what} is not lowerable here: a die or a deal is random's move only where "
                                     "an action's effect or a phase's code throws it (tgpl.lowering.chance)")
        if dice.moves is None:  # the probe: where the way reaches a die
            q = p.fork(p.pc)
            q.store[THROWN] = True
            return [(q, None)]
        sides_all = dice.throw.sides
        at = 0 if p.dice is None else len(sides_all) - len(p.dice)
        if at == len(sides_all):
            raise NotLowerable(span, f"a way through the effect throws more than its {len(sides_all)} dice here: "
                                     "random's move gives the faces of the same dice on every way")
        if sides != sides_all[at]:
            raise NotLowerable(span, f"a way through the effect throws this die as its die {at + 1}, which has "
                                     f"{sides_all[at]} sides where it throws all of them: random's move gives the "
                                     "faces of the same dice, in the same order, on every way")
        if p.dice is not None:
            q = p.fork(p.pc)
            q.dice = p.dice[1:]
            return [(q, float(p.dice[0]))]
        out = []
        for faces, move in dice.moves:  # a path for each of random's moves
            pc = conj(p.pc, move)
            if pc is not FALSE:
                q = p.fork(pc)
                q.store[THROWN] = True
                q.dice = faces[1:]
                out.append((q, float(faces[0])))
        return out

    def deal(self, p: Path, deck: UObj, span: Span) -> list[tuple[Path, object]]:
        """`deck.pop()` on a dealt deck (`tgpl.lowering.chance.dealt_decks`): random's move `(roll k)` takes the
        deck's k-th item, numbered in the order the deck holds them when the lowering starts (`deck.items`, its
        roster), legal while that item is still in the deck (`left_cell`, Segments.legal_moves): random's
        uniform pick among the items left is the top of a uniformly shuffled deck. The deck is the set of its
        items left, not their order, so a deal reads one cell and writes two (the item gone, one fewer left);
        null where none is left (random's first move alone is legal then)."""
        roster = deck.items
        out = []
        for q, face in self.face(span, len(roster), p, "pop() of a shuffled deck"):
            probe = face is None  # the probe (the way marked THROWN) deals the first item, wherever it is
            if probe and self.dice.dealable:
                empty = as_formula(lift(lambda n: n == 0, self._deck_length(q, deck, len(roster), span))) or FALSE
                for k in range(len(roster)):
                    left = as_formula(self.read(q, deck, left_cell(k), span)) or FALSE
                    q.store[dealable(k)] = restrict(disj(left, empty) if k == 0 else left, q.pc)
            k = 0 if probe else int(face) - 1
            for r, n in self.split(q, self._deck_length(q, deck, len(roster), span)):
                if not isinstance(n, float):
                    continue
                if n == 0:
                    if k == 0:
                        out.append((r, None))  # the runtime's pop() of an empty deck: null, nothing drawn
                    continue
                cases = [(r, True)] if probe else self.split(r, self.read(r, deck, left_cell(k), span))
                for s, here in cases:
                    if here is not True:
                        continue  # random may not play it: the item was dealt before
                    for t in self.write(s, deck, left_cell(k), False, span):
                        out.extend((w, roster[k]) for w in self.write(t, deck, length_cell(DEALT_ITEMS), n - 1, span))
        return out

    def refill(self, p: Path, deck: UObj, span: Span) -> list[Path]:
        """`deck.reshuffle()` on a dealt deck whose discards come back (`chance.Dealt.refills`, decision 105): every
        discard() after setup puts its item on this deck's pile, so an item of the roster is on the pile exactly
        while its `discarded` is true; the reshuffle makes those items left again (no longer discarded), adds the
        pile's count to the items left and empties the pile. Random then deals any item left. One cell an item, no
        case split: an item left is one that was left or discarded."""
        paths = [p]
        for k, item in enumerate(deck.items):
            if (item.name, "discarded") not in self.fluents:
                continue
            nxt = []
            for q in paths:
                here = disj(as_formula(self.read(q, deck, left_cell(k), span)) or FALSE,
                            as_formula(self.read(q, item, "discarded", span)) or FALSE)
                for r in self.write(q, deck, left_cell(k), restrict(here, q.pc), span):
                    nxt.extend(self.write(r, item, "discarded", False, span))
            paths = nxt
        out = []
        for q in paths:
            total = sym_arith("+", self.read(q, deck, length_cell(DEALT_ITEMS), span),
                              self.read(q, deck, length_cell(PILE), span))
            for r in self.write(q, deck, length_cell(DEALT_ITEMS), total, span):
                out.extend(self.write(r, deck, length_cell(PILE), 0.0, span))
        return out

    def _on_pile(self, p: Path, span: Span) -> list[Path]:
        """A discard() in a game whose dealt deck reshuffles (decision 105): the item is on that deck's pile, whose
        count goes up by one (every discard() after setup goes there: `chance._why_not_refilled`)."""
        decks = [o for o in self.u.objects if o.items is not None and o.cls.name in self.dealt.refills]
        if not decks:
            return [p]
        pile = self.read(p, decks[0], length_cell(PILE), span)
        return self.write(p, decks[0], length_cell(PILE), sym_arith("+", pile, 1.0), span)

    def _deck_length(self, p: Path, deck: UObj, size: int, span: Span):
        """How many items a dealt deck holds, by cases of 0..size."""
        def cases(n):
            if isinstance(n, Num):
                return choice((float(k), lit(CmpLit("==", n, float(k)))) for k in range(size + 1))
            return n
        return restrict(lift(cases, self.read(p, deck, length_cell(DEALT_ITEMS), span)), p.pc)

    def dealt_deck(self, obj) -> bool:
        """A deck random deals from at each pop() (`tgpl.lowering.chance.dealt_decks`)."""
        return isinstance(obj, UObj) and obj.items is not None and obj.cls.name in self.dealt.classes

    def fixed_deck(self, obj: UObj) -> bool:
        """A deck whose items nothing but pop() changes after setup (`subset.changed_decks`)."""
        return obj.items is not None and not any(obj.is_a(c) for c in self.changed_decks)

    def _unread(self, e: ast.Expr) -> bool:
        return is_attribute(self.program, e) and e.name in self.unread

    def method(self, p: Path, target, name: str, vals: list, span: Span):
        if target is None:
            return []  # a method of null, `Hand[0].move_to(t)` on an empty hand: a runtime error, dropped
        if name == "shuffle" and self.dealt_deck(target):
            return [(p, None)]  # random deals at pop(): the order left is no state
        if name == "pop" and self.dealt_deck(target):
            return self.deal(p, target, span)
        if name == "reshuffle" and self.dealt_deck(target) and target.cls.name in self.dealt.refills:
            return [(q, None) for q in self.refill(p, target, span)]
        if name in ("shuffle", "reshuffle"):
            raise NotLowerable(span, shuffle_refusal(name))
        if isinstance(target, StateList):
            return self.list_method(p, target, name, vals, span)
        if isinstance(target, SetList):
            return self.set_method(p, target, name, vals, span)
        if isinstance(target, (list, tuple)):
            if name == "contains":
                return [(p, restrict(disj(*(as_formula(sym_equal(x, vals[0])) or FALSE for x in target)), p.pc))]
            if name == "indexOf":
                cases = []
                rest = TRUE
                for i, x in enumerate(target):
                    f = as_formula(sym_equal(x, vals[0])) or FALSE
                    cases.append((float(i), conj(rest, f)))
                    rest = conj(rest, neg(f))
                cases.append((-1.0, rest))
                return [(p, choice(cases))]
            if name == "add" and isinstance(target, list):
                target.append(restrict(vals[0], p.pc))
                return [(p, None)]
            if name in ("add", "remove", "insert", "clear", "shuffle", "pop", "push", "draw"):
                raise NotLowerable(span, f"{name}() on a list stored in an attribute is not lowerable")
        if isinstance(target, dict) and name in ("keys", "values"):
            return [(p, list(target.keys() if name == "keys" else target.values()))]
        if name in ("pop", "peek") and isinstance(target, UObj) and self.fixed_deck(target):
            return self.take(p, target, name == "pop", span)
        if name == "move_to" and isinstance(target, UObj) and (target.name, "tile") in self.fluents:
            return [(q, None) for q in self.write(p, target, "tile", vals[0], span)]
        if name == "discard" and isinstance(target, UObj) and (target.name, "discarded") in self.fluents:
            # the runtime: discarded, off its tile, appended to the pile (a list, or a stack's items); no code
            # after setup reads the pile (tgpl.lowering.subset), so its contents are not a fluent. A pile that
            # is null or an object other than a stack is a runtime error: those cases are dropped.
            out = []
            for q, pile in self.split(p, vals[0]):
                if isinstance(pile, UObj) and not any(c.kind == "stack" for c in pile.cls.ancestors()):
                    continue
                if pile is None:
                    continue
                for r in self.write(q, target, "discarded", True, span):
                    out.extend((x, None) for x in self._on_pile(r, span) for x in self.write(x, target, "tile", None, span))
            return out
        if name == "assign" and isinstance(target, UObj):
            if target.cls.visibility == "group":
                raise NotLowerable(span, f"assign() on {target.name} is not lowerable: a group object has a set "
                                         "of owners")
            if (target.name, OWNER) not in self.fluents:
                raise NotLowerable(span, f"assign() on {target.name} is not lowerable: its owner is not tracked")
            out = []
            for q, who in self.split(p, self.to_player(vals[0])):
                if who is None or who is UNDEF:
                    continue  # assign(null): a runtime error, dropped
                out.extend((r, None) for r in self.write(q, target, OWNER, who, span))
            return out
        raise NotLowerable(span, f"the built-in {name}() is not lowerable")

    def take(self, p: Path, deck: UObj, pop: bool, span: Span) -> list[tuple[Path, object]]:
        """`deck.pop()` or `deck.peek()`: the item on top, by cases of the deck's length (null when empty,
        decision 56). A deck's items are fixed when setup ends (no push, shuffle or reshuffle after it), so
        what pop() changes is the length alone."""
        n = self.read(p, deck, "length", span)
        top = restrict(lift(lambda k: _item_at(deck.items, k), n), p.pc)
        if not pop:
            return [(p, top)]
        return [(q, top) for q in self.write(p, deck, "length", lift(_one_less, n), span)]

    def namespace_call(self, qualified: str, args: list, p: Path, span: Span):
        player, turn, phase = p.control
        if qualified == "player.active":
            return [(p, float(player))]
        if qualified == "player.all":
            return [(p, [float(i) for i in range(self.u.players)])]
        if qualified == "turn.active":
            return [(p, turn)]
        if qualified == "turn.phase.active":
            return [(p, phase)]
        if qualified == "log":
            return [(p, None)]
        if qualified == "event.throw":
            out = []
            for q, ev in self.split(p, args[0]):
                if not isinstance(ev, UObj) or not ev.cls.derives_from(self.builtins.event):
                    continue  # the runtime stops: not an event
                if ev.cls.derives_from(self.builtins.player_choice):
                    raise NotLowerable(span, "throwing a PlayerChoiceEvent after setup is not lowerable")
                q.queue = q.queue + (ev,)
                out.append((q, None))
            return out
        if qualified == "turn.pass":
            a0 = args[0] if args else _MISSING
            a1 = args[1] if len(args) > 1 else _MISSING
            if a0 is _MISSING and a1 is _MISSING:
                return [(q, None) for q in self.pass_default(p, span)]
            out = []
            for q, who in self.split(p, self.to_player(a0) if a0 is not _MISSING else float(player)):
                for r, ph in self.split(q, a1 if a1 is not _MISSING else None):
                    turn_def = self.turns.get(turn)
                    if who is None or turn_def is None:
                        continue
                    if ph is not None and ph not in {x.name for x in turn_def.phases}:
                        raise NotLowerable(span, f"turn {turn} has no phase {ph}")
                    r.control = (int(who), turn, ph if ph is not None else phase)
                    r.pending = True
                    out.append((r, None))
            return out
        raise NotLowerable(span, f"{qualified}() after setup is not lowerable")

    def pass_default(self, p: Path, span: Span) -> list[Path]:
        turn = self.turns.get(p.control[1])
        if turn is None or turn.default is None:
            return []
        p.pending = False
        caller = p.stack
        p.stack = caller + [Frame(None, None, [{}])]
        self.where.append(f"default_{turn.name}")
        self.shown.append(readable(self.where[-1]))
        self.blocks.append(turn.default.body)
        try:
            paths = self.block(turn.default.body, [p])
        finally:
            self.where.pop()
            self.shown.pop()
            self.blocks.pop()
        out = []
        first = turn.phases[0].name if turn.phases else None
        for q in paths:
            value = q.status[1] if isinstance(q.status, tuple) else None
            if q.status != "over":
                q.status = None
            q.stack = q.stack[:-1]
            if q.status == "over":
                out.append(q)
                continue
            if value is not None:
                for r, who in self.split(q, self.to_player(value)):
                    r.control = (int(who), r.control[1], first)
                    r.pending = True
                    out.append(r)
            elif q.pending:
                out.append(q)
            # else the runtime stops: the default neither returned a player nor passed; the path is dropped
        return self.merge(out)

    def to_player(self, v):
        players = float(self.u.players)
        def conv(x):
            if x is None:
                return None
            if isinstance(x, Num):
                return Num("player", (x, players))
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                return UNDEF
            i = int(x)
            return float(i % self.u.players if i >= 0 else (self.u.players - (-i) % self.u.players) % self.u.players)
        return lift(conv, v)

    # ============================================================ game flow
    def run_block(self, body: ast.Block, p: Path, this, event, what: str, scope: dict | None = None) -> list[Path]:
        """A block in a fresh frame (an effect, a phase, a filter); returns keep their status."""
        caller = p.stack
        p.stack = caller + [Frame(this, event, [dict(scope or {})])]
        self.where.append(what)
        self.shown.append(readable(what))
        self.spans.append(body.span)
        self.blocks.append(body)
        try:
            paths = self.block(body, [p])
        finally:
            self.where.pop()
            self.shown.pop()
            self.spans.pop()
            self.blocks.pop()
        for q in paths:
            q.stack = q.stack[:-1]
        return paths

    # ============================================================ events
    def resolve_events(self, paths: list[Path]) -> list[Path]:
        """The runtime's `resolve_events`: the thrown events, first thrown first, each answered by its
        listeners; events the listeners throw join the end of the queue. A path whose game is over stops."""
        for _ in range(EVENT_LIMIT):
            answering = [p for p in paths if p.queue and p.status != "over"]
            if not answering:
                return paths
            out = [p for p in paths if not p.queue or p.status == "over"]
            for p in answering:
                event, p.queue = p.queue[0], p.queue[1:]
                out.extend(self.answer(p, event))
            paths = self.merge(out)
        raise NotLowerable(self.spans[-1] if self.spans else None,
                           f"more than {EVENT_LIMIT} events resolved in one move: do listeners throw events endlessly?")

    def answer(self, p: Path, event: UObj) -> list[Path]:
        """The listeners of `event` on p: chosen up front (their requires and trigger, on the state before
        the first runs), then run by priority, declaration order and creation order."""
        found = []
        for obj, action, trigger in self.listening(event.cls):
            if any(i for i in action.inputs):
                raise NotLowerable(action.name_span, f"action {action.name} answers {event.cls.name} and has "
                                                     "inputs: listeners with inputs are not lowerable")
            ok = TRUE
            for req in action.requires:
                ok = conj(ok, self.holds(req.body, p, obj, event, f"require_{action.name}"))
            ok = conj(ok, self.holds(trigger.body, p, obj, event, f"trigger_{action.name}"))
            if ok is not FALSE:
                found.append((-self._prio(action), self.action_order[id(action)], obj.serial, obj, action, ok))
        found.sort(key=lambda x: x[:3])
        paths = [p]
        for *_, obj, action, ok in found:
            out = []
            for q in paths:
                if q.status == "over":
                    out.append(q)
                    continue
                for r, runs in self.fork_on(q, ok):
                    if not runs or action.effect is None:
                        out.append(r)
                        continue
                    scope = {i.name: None for i in action.inputs}
                    for x in self.run_block(action.effect.body, r, obj, event, f"action_{action.name}", scope):
                        if x.status != "over":
                            x.status = None
                        out.append(x)
            paths = self.merge(out)
        return paths

    def listening(self, event_cls) -> list[tuple[UObj, ast.ActionDef, ast.Trigger]]:
        """(object, action, its trigger for event_cls or its nearest base) for every action that answers it."""
        found = self._listening.get(id(event_cls))
        if found is None:
            found = []
            classes = list(event_cls.ancestors())
            for obj in self.u.objects:
                effective: dict[str, ast.ActionDef] = {}
                for info in reversed(list(obj.cls.ancestors())):
                    effective.update(info.actions)
                for action in sorted(effective.values(), key=lambda a: self.action_order[id(a)]):
                    by_class = {id(self.class_named(t.event)): t for t in action.triggers}
                    trigger = next((by_class[id(c)] for c in classes if id(c) in by_class), None)
                    if trigger is not None:
                        found.append((obj, action, trigger))
            self._listening[id(event_cls)] = found
        return found

    def holds(self, body: ast.Block, p: Path, obj, event, what: str, scope: dict | None = None) -> Formula:
        """When a read-only block (a require, a trigger, a filter) returns true on p, as a condition; a
        block that would change the game is refused."""
        base = p.fork(p.pc)
        parts = []
        for q in self.run_block(body, base, obj, event, what, scope):
            if q.store != p.store or q.pending != p.pending or q.status == "over" or q.queue != p.queue:
                raise NotLowerable(body.span, f"{readable(what)} cannot change the game: it only reads the state")
            p.visited = p.visited | q.visited  # the views it contributed to are taken for this path too
            v = q.status[1] if isinstance(q.status, tuple) else None
            f = as_formula(v) if v is not None else FALSE
            if f is not None:
                parts.append(conj(q.pc, f))
        return disj(*parts)

    def _prio(self, action: ast.ActionDef) -> float:
        prio = next((i for i in action.items if isinstance(i, ast.Prio)), None)
        if prio is None:
            return 0.0
        value = prio.value
        sign = 1.0
        if isinstance(value, ast.Unary) and value.op == "-":
            sign, value = -1.0, value.operand
        if not isinstance(value, ast.NumberLit):
            raise NotLowerable(prio.span, "a priority other than a number is not lowerable")
        return sign * float(value.value)

    def enter_phases(self, paths: list[Path]) -> list[Path]:
        """The runtime's `settle`: resolve the thrown events and enter scheduled phases until every path
        waits for a player. The event objects made on the way are dropped then: nothing can refer to them."""
        for _ in range(FLOW_LIMIT):
            paths = self.resolve_events(paths)
            for p in paths:
                p.records = {}
            waiting = [p for p in paths if not p.pending or p.status == "over"]
            entering = [p for p in paths if p.pending and p.status != "over"]
            if not entering:
                return self.merge(paths)
            out = list(waiting)
            for p in entering:
                p.pending = False
                player, turn, phase = p.control
                phase_def = ast.phase_named(self.turns.get(turn), phase)
                if phase_def is None:
                    out.append(p)
                    continue
                if (turn, phase) in self.phase_throws:  # random throws the phase's dice first (Lowering._phase_thrown)
                    p.control = (player, turn, phase, PHASE_THROW)
                    out.append(p)
                    continue
                if phase_inputs(phase_def):  # the path waits for the phase's move (Lowering.phase_moves)
                    if phase_move_input(phase_def) is None:
                        raise NotLowerable(phase_def.span, "phases with inputs are not lowerable")
                    out.append(p)
                    continue
                if p.store:
                    self.checkpoint(p, ("phase", turn, phase))
                for q in self.run_block(ast.phase_body(phase_def), p, None, None, f"phase_{phase}"):
                    if q.status != "over":
                        q.status = None
                    out.append(q)
            paths = self.merge(out)
        raise NotLowerable(None, f"control passed {FLOW_LIMIT} times without waiting for a player")


def _call_literal(function: str, args: tuple, value, table: tuple) -> Formula:
    """The condition that a named call returns `value`.

    A call that returns a bool in every state (the lowering assumes states where it
    would stop with an error are never reached, see docs/lowering.md) is one
    relation: false is its negation, so the paths after the call are `x` and
    `not x`, and a write both make is one rule once their conditions meet
    (tgpl.lowering.minimize), not one per outcome of the win check that follows it.
    """
    if value is False and is_bool_table(table):
        return neg(lit(CallLit(function, args, True, table)))
    return lit(CallLit(function, args, value, table))


def _reads(p: Path, names: list[str]) -> tuple:
    """What a loop condition reads on a path: the locals it names and everything the segment wrote."""
    values = []
    for n in names:
        scope = p.lookup(n) if p.stack else None
        values.append(_freeze(scope[n]) if scope is not None else _MISSING)
    return tuple(values), tuple(sorted((c, value_identity(v)) for c, v in p.store.items()))


def _where(v, f: Formula):
    """v written where f holds, the value left as it was elsewhere (GDL's frame rule keeps it, as for merged
    paths): a remove() changes its list's totals only where it finds the item."""
    if f is TRUE:
        return v
    return Partial(tuple((x, g) for x, h in cases_of(v) if (g := conj(h, f)) is not FALSE))


def _field(item, name: str | None):
    """The number `name` of an item (by cases of the item), for a running total (decision 113): 0 for null, which
    the list's count of null items counts instead (`name` None: 1 for null, else 0)."""
    def value(o):
        if name is None:
            return 1.0 if o is None else 0.0
        if not isinstance(o, UObj):
            return 0.0
        x = o.fields.get(name)
        return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else UNDEF
    return lift(value, item)


def _index_is(i, k: int) -> Formula:
    """When index i picks item k, as the runtime truncates an index (`int(i)`): -1 < i < 1 for item 0,
    k <= i < k + 1 past it; never for a value that is not a number (a runtime error)."""
    if not isinstance(i, (int, float, Num)) or isinstance(i, bool):
        return FALSE
    low = sym_compare(">", i, -1.0) if k == 0 else sym_compare(">=", i, float(k))
    return conj(as_formula(low) or FALSE, as_formula(sym_compare("<", i, float(k + 1))) or FALSE)


def _concrete(args: tuple) -> bool:
    """Are these call arguments concrete scalars (what a call run once, or named, is keyed by)?"""
    return not any(is_symbolic(a) or a is UNDEF or _collection(a) for a in args)


def _collection(v: object) -> bool:
    """Is `v` a list, table or stack value: no constant of a relation's row can stand for it."""
    return isinstance(v, (list, dict, tuple, StateList, SetList)) or type(v) is Transient


def _remainder(entry: Formula, exits: list[Formula], merged: Formula) -> Formula:
    """The condition of the one path that goes on after a pass of a loop: what its entry left of the paths
    that left the loop in the pass (`entry & !(left)`), rather than the disjunction of the ways that went on.

    The two are equal wherever the runtime does not stop with an error (the lowering assumes the game
    never gets there, docs/lowering.md). Written as a negation, a later pass that returns what the earlier
    ones returned has its "no earlier pass returned" dropped when the results are or-ed
    (tgpl.lowering.minimize): Connect Four's win is the windows of four of each direction, not each
    direction's windows under the failure of all the directions before it. `merged` is the disjunction of
    the ways that went on as they met, not yet reduced: reduced here only when it is kept.
    """
    if _stripped(merged, entry).kind != "or":
        return merged  # one way went on (`wincheck(...) = null`): a literal, smaller than any negation
    out = conj(entry, neg(minimize(disj(*(_stripped(x, entry) for x in exits)))))
    return minimize(merged, consensus=False) if out is FALSE else out


def _stripped(f: Formula, entry: Formula) -> Formula:
    """f, a path's condition or a disjunction of them, without the conjuncts of `entry` (see `_strip`)."""
    return disj(*(_strip(t, entry) for t in disjuncts(f)))


def _strip(pc: Formula, caller: Formula) -> Formula:
    """pc without the conjuncts of the caller's condition (which the caller's paths keep anyway)."""
    if pc is caller:
        return TRUE
    if pc.kind != "and":
        return pc
    mine = set(conjuncts(caller))
    if not mine <= set(pc.parts):
        return pc
    return conj(*(set(pc.parts) - mine))


def _relative(pcs: list[Formula]) -> list[Formula]:
    """The conditions without the conjuncts they all share (the merged path implies those)."""
    sets = [set(conjuncts(f)) for f in pcs]
    common = set.intersection(*sets)
    if not common:
        return pcs
    return [conj(*(s - common)) for s in sets]


def _same(a, b) -> bool:
    if a is b:
        return True
    if is_symbolic(a) or is_symbolic(b):
        return a == b
    return equal_concrete(a, b) and type(a) is type(b)


class _Contribution(Exception):
    """A view contribution met while evaluating for many path conditions at once (`Executor._eval_shared`)."""


def _state(p: Path) -> tuple:
    """Everything of a path but its condition."""
    status = ("return", _freeze(p.status[1])) if isinstance(p.status, tuple) else p.status
    return (p.store, p.control, p.pending, status, p.result, p.views, p.dirty, p.visited, p.known,
            [(f.this, f.event, [tuple((k, _freeze(v)) for k, v in scope.items()) for scope in f.scopes])
             for f in p.stack])


def _pure(e: ast.Expr) -> bool:
    """No calls of user code and no assignment: safe to evaluate whatever the left side says."""
    if isinstance(e, (ast.Call, ast.Assign, ast.New)):
        return False
    for name in ("left", "right", "operand", "expr", "obj", "index"):
        sub = getattr(e, name, None)
        if isinstance(sub, ast.Expr) and not _pure(sub):
            return False
    return True


def _index(o, k):
    if isinstance(o, UObj) and o.cells is not None:
        o = o.cells
    if isinstance(o, (list, tuple)):
        if isinstance(k, Num):  # a counter's value, known only as a number in its range: every position by cases
            return choice((x, lit(CmpLit("==", k, float(i)))) for i, x in enumerate(o))
        if not isinstance(k, (int, float)) or isinstance(k, bool):
            return UNDEF
        i = int(k)
        if not 0 <= i < len(o):
            return UNDEF
        return o[i]
    if isinstance(o, dict):
        if k is None:
            return UNDEF
        for key, v in o.items():
            if equal_concrete(key, k) or (isinstance(key, float) and isinstance(k, float) and key == k):
                return v
        return None
    return UNDEF


def _item_at(items: tuple, n):
    """The top of a deck of `items` of which n are left (null when none is)."""
    if isinstance(n, Num):
        return choice([(None, lit(CmpLit("==", n, 0.0)))]
                      + [(x, lit(CmpLit("==", n, float(i + 1)))) for i, x in enumerate(items)])
    if not isinstance(n, (int, float)) or isinstance(n, bool):
        return UNDEF
    return items[int(n) - 1] if 1 <= n <= len(items) else None


def _one_less(n):
    """A deck's length after pop(): one less, and 0 stays 0."""
    if isinstance(n, Num):
        empty = lit(CmpLit("==", n, 0.0))
        return choice([(sym_arith("-", n, 1.0), neg(empty)), (0.0, empty)])
    if not isinstance(n, (int, float)) or isinstance(n, bool):
        return UNDEF
    return max(float(n) - 1.0, 0.0)


def _length(o):
    if isinstance(o, (list, tuple, dict)):
        return float(len(o))
    return UNDEF


def _compares_numbers(c) -> bool:
    """Whether a loop condition's value compares a number read from the state (`hand > 0`, hand a count read
    from a pit): such a loop runs as many passes as that number says, bounded by its range, not by the code."""
    return isinstance(c, Formula) and any(isinstance(k, CmpLit) for k in literals(c))


def changed_lists_read(program, body: ast.Block) -> list[tuple[str, ast.Call]]:
    """The list attributes that are state (`subset.state_lists`: the moves add to them or remove from them) whose
    items or length `body` reads, each with the first statement after setup that changes it, by name."""
    lists = state_lists(program)
    read = sorted({n.name for n in ast.walk(body) if isinstance(n, (ast.Member, ast.Name))
                   and getattr(n, "name", None) in lists and is_attribute(program, n)})
    if not read:
        return []
    changes: dict[str, ast.Call] = {}
    for n in after_setup_nodes(program):
        if (isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and n.callee.name in STATE_CHANGES
                and getattr(n.callee.obj, "name", None) in read):
            changes.setdefault(n.callee.obj.name, n)
    return [(name, changes[name]) for name in read if name in changes]


def running_total_hint(name: str) -> str:
    """The rewrite for a value read from the items of a list the moves change: a number kept beside it."""
    return ("keep the value in a number the moves change (a running total, "
            f"`Score += card.Value;` in the move that changes '{name}') and read that number here "
            "(docs/lowering.md, \"Writing games that lower\")")


def changed_list_rewrite(program, name: str, change: ast.Call, reader: ast.Node) -> str:
    """The rewrite for code (`reader`) that reads the list `name` the moves change (by `change`), by how it reads
    it: a list summed into a number (`total += Cards[i].Value`) is a running total the moves keep; a list whose
    items are tested or picked one by one (`Left.contains(kind)`, `Men[i].At == s`) keeps its items where setup put
    them, marked by an attribute (objects made first where the items are values: the kinds a seat has left), as
    taken out where any move takes items out of it, else as held."""
    if summed_in(reader, name):
        return running_total_hint(name)
    held = program.types.get(id(change.callee.obj))
    values = isinstance(held, Collection) and not isinstance(held.elem, ClassType)
    method = "remove" if removed_from(program, name) else change.callee.name
    return f"{marked_items_hint(name, method, values)} (docs/lowering.md, \"Writing games that lower\")"


def removed_from(program, name: str) -> bool:
    """Whether code after setup takes items out of the list attribute `name` (`remove`, `removeAt`, `clear`): a list
    the moves only add to (a hand that fills) has no items to mark as taken out, only ones to mark as held."""
    return any(isinstance(n, ast.Call) and isinstance(n.callee, ast.Member)
               and n.callee.name in ("remove", "removeAt", "clear") and getattr(n.callee.obj, "name", None) == name
               for n in after_setup_nodes(program))


def called_changed_lists(program, body: ast.Block) -> tuple[ast.FunctionDef, str, ast.Call] | None:
    """The first function that `body` calls, directly or not, whose code reads a list the moves change
    (`changed_lists_read`), with that list and its change: Ends' scoring calls `Total` for every hand, which sums
    the hand's `Cards`, so each score is a case split over every content of the hand, and comparing the scores
    multiplies those splits past the budget of a control state. Named in the refusal, with the rewrite."""
    lists = state_lists(program)
    functions = [n for n in reachable(program, [body]) if isinstance(n, ast.FunctionDef)]
    for fn in functions:
        read = sorted({n.name for n in ast.walk(fn) if isinstance(n, (ast.Member, ast.Name))
                       and getattr(n, "name", None) in lists and is_attribute(program, n)})
        if not read:
            continue
        for n in after_setup_nodes(program):
            if (isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and n.callee.name in STATE_CHANGES
                    and getattr(n.callee.obj, "name", None) in read):
                return fn, n.callee.obj.name, n
    return None


def _no_bool(v) -> Formula:
    """When value v, used as a bool, is none (null, a number: the runtime stops with an error)."""
    if v is True or v is False or isinstance(v, Formula):
        return FALSE
    if isinstance(v, Choice):
        return disj(*(f for x, f in v.cases if not isinstance(x, bool)))
    return TRUE
