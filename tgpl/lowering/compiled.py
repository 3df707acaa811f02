"""A game's segments compiled once, with the moves' inputs as variables (`to-gdl --moves compiled`).

The executor (tgpl.lowering.execute) runs every move of a control state on its own, each with its
inputs' values: chess's 3,952 moves, each spelled out through its effect and the end of the turn,
then folded back into rules with variables by the generalization. That costs minutes and leaves
thousands of rules. Hand-written GDL says a move once: `(<= (next (cell ?x ?y ?p)) (does ?p (mark
?x ?y)))`. Here an action's effect and everything its move sets off up to the next decision (the
segment: the phases entered, the turn's default, the end-of-game checks) are compiled once, as a
compiler to Horn clauses would, extending the function compiler of tgpl.lowering.horn:

- the mover, the acting object and the inputs are variables, bound by `does`;
- a clause (a way through the segment) keeps the fluents it wrote in order (its *store*); a read of
  an attribute goes through the store: the same object term gives the value written, an object that
  may be the same gives two clauses, one where it is (`?s = ?to`, unified) and one where it is not
  (`distinct`), and past every write the value before the move, `(true (piece ?s ?k))`;
- where clauses meet (the end of an `if`) their writes are collapsed into *views*, one relation per
  attribute (`SegmentCompiler.collapse`), and clauses of the same shape are joined into one relation
  of what they hold, so the branches of an effect do not multiply the rules;
- a function that writes is inlined; a pure one is compiled (tgpl.lowering.horn), one instance per
  call site, and reads the state of its context through those views;
- `turn.pass`, the phases entered, the turn's default and `winner` set the clause's control and
  result, as the runtime's flow does (tgpl.lowering.execute.Executor.enter_phases).

Arithmetic, comparisons, the moves that can ever be legal and the counters' ranges (chess's `Quiet`)
come from relaxing the rules with clingo (`CompiledGame.relax`), the counters apart from the rest. The
output declares no `base` and `input`: optional in GDL, and their check grounds the relaxed game, far
past any bound for these rules, which are meant to be grounded one state at a time.

Outside the subset (loops that write the state, lists in the state, decks, `discard`, `assign`, events,
methods of objects known only at run time) `Unsupported` says why, and the caller (tgpl.lowering.lower)
refuses the game or spells its moves out. docs/lowering.md, "Moves compiled once", has the details.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import clingo

from tgpl.asp.covers import covers
from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Diagnostic
from tgpl.frontend.after_setup import after_setup_nodes, reachable
from tgpl.frontend.outcomes import goals_of
from tgpl.frontend.types import BOOL, NUMBER, PLAYER, CallableType, ClassType, Collection, Prim
from tgpl.lowering import footprint, horn, rewrites, rungs, runaway, while_passes
from tgpl.lowering.deferral import MOVER, Deferral, Undefer
from tgpl.lowering.deferral import no_checks as _no_checks
from tgpl.lowering.emit import LoweredGame, Names, places_of
from tgpl.lowering.horn import (CALCS, NULL, STATIC, STEPS, Slots, Static, Clause, HornCompiler, HornFunction, Unsupported,
                                Value, _FunctionCompiler, _fkey, read_rel)
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Literal, Not, Program, Rule, Term, Var, renamed, substitute
from tgpl.lowering.compiled_events import EventPlan, Record
from tgpl.lowering.counted_results import unfollowed_result
from tgpl.lowering.compiled_lists import COMPILED_CHANGES, ListWays, changed_list, changed_lists, list_cells, snapshot_value
from tgpl.lowering.chance import DID, RANDOM, action_rolls, roll_name, roll_sides
from tgpl.lowering.board_count import (BoardCount, Flip, Holds, ProofTooLarge, board_counts, flip_bodies,
                                      flip_program, invariant_rules, state_cells, step_rules, steps_whole,
                                      written_in_step)
from tgpl.lowering.saturate import saturated_counters, saturated_value
from tgpl.lowering.segments import actions_of, builtin_attribute_type, builtin_writes, value_text
from tgpl.lowering.shapes import shape_table
from tgpl.lowering.subset import STATE_CHANGES, phase_inputs
from tgpl.lowering.keyed_walks import key_walks
from tgpl.lowering.loop_code import LoopCode, loop_code
from tgpl.lowering.repair import Repair, StagedRepair
from tgpl.lowering.unfold import unfold_single_readers
from tgpl.lowering.generalize import fold_program
from tgpl.lowering.unplayable import without_unplayable
from tgpl.lowering.unread import unread_attributes
from tgpl.lowering.universe import list_cell
from tgpl.lowering.symbolic import UObj
from tgpl.limits import Limits, outside, unlimited

FLOW_LIMIT = 64  # phases entered in one segment before the flow is taken for a cycle
# rules the segments may make (their joins, views and calls; chess: about 200). Past it the ways through them
# multiply faster than joins meet them (branches inside an expression's inlined calls): the moves are spelled out
SEGMENT_RULES = 3_000
YES = Const("yes")


# ====================================================================== clauses
_SITE = "#site"  # in a context's key: a call site after the clause's own writes (`SegmentCompiler.context`)
_MOVING = "#move"  # in a context's key: a call in a move's effect (`SegmentCompiler.moving`)
FINISHED = "#finished"  # the state holds a result: a check left to the next decision is not asked there


class TooManySegments(Unsupported):
    """The compiled moves refused as a whole, past SEGMENT_RULES rules: no construct is to blame (the ways of the
    segments multiply where they do not meet), so the refusal has no place in the text, and what lowers the game is
    the moves spelled out, which `--moves compiled` says."""

    def __init__(self, made: int):
        super().__init__(f"the segments would be {made:,} rules, more than {SEGMENT_RULES:,}: their ways multiply "
                         "where they do not meet")


@dataclass
class SegClause(Clause):
    """A way through a segment under construction: the body and locals of a clause, and what the move did."""

    store: tuple = ()  # ((attr, object term, value term), ...), in the order written
    control: tuple = ()  # (player term, turn, phase)
    pending: bool = False  # control passed: the phase is entered before the segment waits again
    over: tuple | None = None  # the roles' places (terms) once `winner` ran
    frames: tuple = ()  # the locals of the callers of the inlined calls under way
    # how often the clause met each call that reads its writes (id of the call -> times): the n-th meeting of
    # a call is one site, whose clauses are forks of one another, never two moments of the same way
    visits: tuple = ()
    # the variables bound since the clause's last join, with their terms: a term held while more of an expression
    # is evaluated may be a variable that a read bound meanwhile (`resolve`)
    bound: tuple = ()
    # the end-of-game checks left to the next decision (`Deferral`): ((id of the call, the mover's term), ...)
    checks: tuple = ()
    # the dice random threw and the effect has still to read, in the order drawn: ((face variable, sides), ...)
    # (`CompiledGame.thrown`); each roll() reads the first
    thrown: tuple = ()

    def with_body(self, body: list[Literal]) -> SegClause:
        return SegClause(body, dict(self.env), self.store, self.control, self.pending, self.over, self.frames,
                         self.visits, self.bound, self.checks, self.thrown)

    def resolve(self, t):
        """`t` with the clause's bindings applied (a variable bound since it was read is its term now)."""
        if not isinstance(t, Var):
            return t
        for var, term in self.bound:
            if var == t:
                return self.resolve(term)
        return t

    def bind(self, var: Var, term: Term) -> SegClause:
        base = Clause.bind(Clause(self.body, self.env), var, term)

        def sub(t):
            return term if t == var else t

        def env(e: dict) -> dict:
            bound = Clause.bind(Clause([], e), var, term).env
            return {k: v.substituted(sub) if isinstance(v, Record) else v for k, v in bound.items()}
        return SegClause(base.body, env(self.env), tuple((a, sub(o), sub(v)) for a, o, v in self.store),
                         tuple(sub(x) if isinstance(x, (Var, Const)) else x for x in self.control), self.pending,
                         tuple(sub(x) for x in self.over) if self.over is not None else None,
                         tuple(env(f) for f in self.frames), self.visits,
                         tuple((v, sub(t)) for v, t in self.bound) + ((var, term),),
                         tuple((k, sub(m)) for k, m in self.checks), tuple((sub(f), n) for f, n in self.thrown))


OBJECTS_SPLIT = 4  # a method of an object known at run time: one clause per object of its class, up to this many


@dataclass
class Site:
    """A call of a pure function after the move wrote what it reads: its context, and the clauses that reach it
    (each with its body and store there), whose writes the function reads through the context's views."""

    ctx: int
    clauses: list[SegClause] = field(default_factory=list)
    base: dict = field(default_factory=dict)  # attribute -> the view the site's writes go over


# ====================================================================== the segment compiler
UNROLLED = 16  # a counted loop that writes the state and reads what it writes: spelled out up to this many passes


def _changed_list(types, callee, method: str) -> str | None:
    """Why a change of a list (`Row.remove(card)`) is outside the compiled moves, naming the list and the rewrite
    they follow; None where the call changes no list. Compiled rules keep no list that changes after setup: a
    list's slots and length are the spelled-out moves' (`execute.StateList`)."""
    if method not in STATE_CHANGES or not isinstance(callee, ast.Member):
        return None
    held = types.get(id(callee.obj))
    if not isinstance(held, Collection) or held.kind != "List":
        return None
    return rewrites.changed_list_hint(getattr(callee.obj, "name", "the list"), method, isinstance(held.elem, Prim))


class SegmentCompiler(_FunctionCompiler):
    """Compiles the segments of one game: the legal moves and the ways through each move's segment."""

    def __init__(self, hc: HornCompiler, game: CompiledGame):
        self.hc = hc
        self.g = game
        self.fi = None
        self.this = None
        self.defn = None
        self.name = "seg"
        self.fresh = itertools.count()
        self.points = itertools.count()
        self.loops: list[tuple[str, dict, list, set]] = []  # as the function compiler's (`demands`)
        self.walking = 0  # inside loops that write the state and are not counted (`writing_loop`)
        self.scanning = False  # inside a scan at once (`scanned`)
        self.hf = HornFunction("seg", [])
        self.ended: list[SegClause] = []  # clauses whose game is over
        self.sites: dict[tuple, Site] = {}
        self.statement_calls: set[int] = set()  # calls that are statements of their own (not in an expression)
        self.nested = 0  # inlined calls under way inside an expression (`inline`)
        self.latest: dict[str, int] = {}  # attribute -> the view that last took writes of it
        self.view_ids = itertools.count(1)
        self.view_rules: list[Rule] = []
        self.contexts: dict[tuple, int] = {(): 0}  # the views a compiled call reads (attr -> relation) -> its id
        # compiling a move's effect (not a filter, require or trigger, `CompiledGame.holds`): its calls' demand
        # depends on `does`, so they never share an instance with the legal moves' calls, even where they read
        # the same views (nothing written yet): `legal` would depend on `does`, which GDL forbids
        self.moving = True
        self.acting = None  # the move whose effect is under way (its action and objects): `independent`
        # within a counted loop whose passes never read what an earlier pass wrote (`independent`): the views
        # reads go through, those the loop started with (attribute -> view; absent: the state)
        self.frozen: dict[str, int] | None = None
        # within such a loop whose writes are each made once: the passes' writes of loops in it, taken into one
        # view where the loop ends rather than one view a pass (attribute -> the ways that wrote it)
        self.deferred: dict[str, list[SegClause]] | None = None
        # the counters of `this` that are locals of the loops being compiled (`loop_stmt`), with the bound each
        # is saturated at (None: not saturated)
        self.counting: dict[str, int | None] = {}
        # the outermost blocks under way (the move's effect, a phase's, the listeners' run at a throw), innermost
        # last: an event is answered where it is thrown only if the rest of its block cannot tell (`throw`)
        self.outer: list[ast.Block] = []
        self.head_names: dict[str, list[str]] = {}  # a loop's relation -> the names it holds, taken apart (`cut`)
        # listeners run at a throw under way, functions called as statements: their callers' frames ride through loops
        self.outer_frames = 0
        self.lists = ListWays(self)  # the lists that are state (tgpl.lowering.compiled_lists)
        # the numbers ways wrote before they were taken into views mid-segment (`taken_numbers`): the relaxation's
        # probes of their values, as `CompiledGame.probes` makes them of the ways' ends
        self.probed: list[Rule] = []

    # ------------------------------------------------------------ views
    def view_of(self, attr: str) -> str:
        m = self.latest.get(attr)
        return read_rel(attr) if m is None else f"view|{attr}@{m}"

    def read_view(self, attr: str) -> str:
        """The view a read of `attr` goes through: the latest, or in a loop of independent passes the one the loop
        started with (the writes of the passes go on into views of their own, which no pass needs to read)."""
        if self.frozen is None:
            return self.view_of(attr)
        m = self.frozen.get(attr)
        return read_rel(attr) if m is None else f"view|{attr}@{m}"

    def collapse(self, clauses: list[SegClause], numeric: bool = False,
                 only: set[str] | None = None) -> list[SegClause]:
        """The writes of `clauses` (ways alive at one point: exclusive) taken into views, one per attribute: the
        values they wrote under their bodies, and the previous view (or the state) where none wrote. Afterwards
        the clauses read through those views and carry no writes: branches of an effect do not multiply the
        rules that spell out what each of them wrote. Numbers stay in the clauses (`numeric`: them too), so that
        the ranges are found along each way (`CompiledGame.relax`); `only`: just these attributes."""
        attrs = list(dict.fromkeys(a for c in clauses for a, _, _ in c.store
                                   if (numeric or a not in self.g.numeric_attrs) and (only is None or a in only)))
        for a in attrs:
            m = next(self.view_ids)
            self.view_rules += _written(clauses, a, f"view|{a}@{m}", f"changed|{a}@{m}", self.view_of(a))
            self.latest[a] = m
        out = []
        for c in clauses:
            c2 = c.copy()
            c2.store = tuple(w for w in c.store if w[0] not in attrs)
            out.append(c2)
        return out

    def context(self, reads: set[str], c: SegClause, e) -> int:
        """The context of a compiled call that reads `reads`: the views it reads them through. A call after the
        clause's own writes of what it reads is a site of its own (its views: those writes over the latest)."""
        base = tuple(sorted((a, self.read_view(a)) for a in reads if self.read_view(a) != read_rel(a)))
        written = [a for a, _, _ in c.store if a in reads]
        if not written:
            return self.contexts.setdefault(base + ((_MOVING, ""),) if self.moving else base, len(self.contexts))
        visits = dict(c.visits)
        visits[id(e)] = visits.get(id(e), 0) + 1
        c.visits = tuple(sorted(visits.items()))
        key = (id(e), visits[id(e)], base)
        site = self.sites.get(key)
        if site is None:
            ctx = len(self.contexts)
            mapping = dict(base)
            for a in dict.fromkeys(written):
                mapping[a] = f"site|{a}@{ctx}"
            self.contexts[tuple(sorted(mapping.items())) + ((_SITE, str(ctx)),)] = ctx
            site = self.sites[key] = Site(ctx)
            site.base = dict(base)
        site.clauses.append(c)
        return site.ctx

    def site_rules(self) -> list[Rule]:
        """The views of the sites: each clause's writes there, over the views the site was made on."""
        out = []
        for site in self.sites.values():
            for a in dict.fromkeys(a for c in site.clauses for a, _, _ in c.store):
                out += _written(site.clauses, a, f"site|{a}@{site.ctx}", f"sitechanged|{a}@{site.ctx}",
                                site.base.get(a, read_rel(a)))
        return out

    # ------------------------------------------------------------ statements
    def _stmt(self, s, clauses: list[Clause], live: set[str]) -> horn._Flow:
        flow = horn._Flow()
        value = s.init if isinstance(s, ast.VarDecl) else getattr(s, "expr", None)
        value = value.value if isinstance(value, ast.Assign) else value
        if value is not None and not isinstance(value, ast.New) and self.is_event(value):
            raise Unsupported("an event held by a second name (a record of values has no identity)")
        if isinstance(s, ast.ExprStmt):
            e = s.expr
            for c in clauses:
                if isinstance(e, ast.Assign) and isinstance(e.target, ast.Name) and e.target.name in c.env:
                    bound = self.counting.get(e.target.name) if e.op != "=" else None
                    flow.going += self.assign(e, c) if bound is None else self.saturating(e, c, bound)
                elif isinstance(e, ast.Assign):
                    flow.going += self.assign_member(e, c)
                elif isinstance(e, ast.Call) and self.moved_piece(e) is not None:
                    flow.going += self.move_to(e, c)
                elif isinstance(e, ast.Call) and self.moved_piece(e, "discard") is not None:
                    flow.going += self.discard(e, c)
                elif isinstance(e, ast.Call) and self.moving and self.g.deferral.deferrable(e, c):
                    c2 = c.copy()
                    if c2.checks:  # one check a way: their order would matter
                        raise Undefer(c2.checks[0][0])
                    c2.checks = ((id(e), c2.control[0]),)
                    flow.going.append(c2)
                elif isinstance(e, ast.Call):
                    self.statement_calls.add(id(e))
                    flow.going += [c2 for c2, _ in self.expr(e, c)]
                else:
                    raise Unsupported("a statement other than an assignment or a call")
            return self.settle(flow)
        if isinstance(s, ast.Winner):
            _no_checks(clauses)  # the check left to the next decision would come first
            for c in clauses:
                for c2, places in self.ranking(s.value, c):
                    c2.over = places
                    self.ended.append(c2)
            return flow
        if isinstance(s, ast.Return) and s.value is None:
            flow.returns = [(c, NULL) for c in clauses]
            return flow
        deferral = self.g.deferral
        if (isinstance(s, ast.If) or id(s) in deferral.group_keys) and self.moving and deferral.deferrable_if(s, clauses):
            for c in clauses:
                c2 = c.copy()
                if c2.checks:  # one check a way: their order would matter
                    raise Undefer(c2.checks[0][0])
                c2.checks = ((deferral.key(s), c2.control[0]),)
                flow.going.append(c2)
            return self.settle(flow)
        if isinstance(s, (ast.While, ast.For)):
            return self.settle(self.loop_stmt(s, clauses, live))
        return self.settle(super()._stmt(s, clauses, live))

    def _code_under_way(self):
        """The definition of the function being inlined (whose refusals name its loops), None outside one."""
        return self.g.inlined[-1][2] if self.g.inlined else None

    def _inlined_why(self) -> str:
        """In a pure function run where it is called because rules with variables refused it (Lines of Action's
        flood over a local list: `reached.add`), that function and their reason, which is what to rewrite."""
        name, why, _ = self.g.inlined[-1] if self.g.inlined else ("", "", None)
        return f", in {name}, run where it is called since rules with variables refused it ({why})" if why else ""

    def loop_stmt(self, s, clauses: list[SegClause], live: set[str]) -> horn._Flow:
        """A loop in compiled code. One that writes the state is spelled out pass by pass where it can be
        (`unrolled`; a `while` that reads what it writes, as the counted loop its bounded passes make:
        `counted_while`), else a relation (`writing_loop`); the counters of `this` it steps by their names
        (`Captured += 1`) are locals while it runs (`counters_in`). Before the loop, the move's writes are taken
        into views, which the loop reads; the numbers it wrote ride through the loop (`carrying`)."""
        writes = self.g.loop(s).writes_state
        before = getattr(s, "reads_before", False)  # tgpl.lowering.group_clears: read as the loop found it
        if self.unknown_writes_read(s, clauses):
            clauses = self.taken_numbers(clauses)
        if writes and isinstance(s, ast.For) and not before:
            scanned = self.scanned(s, clauses, live)
            if scanned is not None:
                return scanned
            unrolled = self.unrolled(s, clauses, live)
            if unrolled is not None:
                return unrolled
        if writes and isinstance(s, ast.While) and self.clashing(s, frozenset(self.counters_in(s, clauses))):
            counted = self.counted_while(s)
            unrolled = self.unrolled(counted, clauses, live) if counted is not None else None
            if unrolled is not None:
                return unrolled
        counters = self.counters_in(s, clauses) if writes else []
        if counters:
            clauses = [c3 for c in clauses for c3 in self.promoted(c, counters)]
            live = live | set(counters)
        if any(c.store for c in clauses):
            clauses = self.collapse(clauses)  # the loop reads the move's writes through views
        counting, frozen = self.counting, self.frozen
        self.counting = counting | {n: self.g.saturated.get(n) for n in counters}
        if before and self.frozen is None:
            # a scan that clears a flood's group: every pass reads the views the loop started with, as the list
            # it stands for was read before the first write (a loop inside such a scan: already frozen)
            self.frozen = dict(self.latest)
        try:
            if any(c.store for c in clauses):  # numbers, which collapse leaves in the clauses
                if before:
                    raise Unsupported("a scan that clears a flood's group after the move wrote numbers")
                flow = self.carrying(s, clauses, live, writes, frozenset(counters))
            elif writes:
                flow = self.writing_loop(s, clauses, live, frozenset(counters))
            else:
                flow = super()._stmt(s, clauses, live)
        finally:
            self.counting, self.frozen = counting, frozen
        if counters:  # the counters' last values, written where the loop ends
            going = []
            for c in self.settle(flow).going:
                this = c.env["#this"]
                todo = [c]
                for name in counters:
                    todo = [c3 for c2 in todo for c3 in self.write(c2, this, name, c2.env.pop(name))]
                going += todo
            flow.going = going
        return flow

    def counters_in(self, s, clauses: list[SegClause]) -> list[str]:
        """The numbers of `this` the loop `s` assigns by their names (`Captured += 1`) and reads only so: no
        `o.Captured` in it, none read by the functions it calls. They can be locals of the loop, carried through
        its relation from one pass to the next, as the runtime's passes step them (saturated at their bound as
        the writes are, `saturating`)."""
        if any(c.env.get("#this") is None for c in clauses):
            return []
        names = sorted({n.target.name for n in ast.walk([s]) if isinstance(n, ast.Assign)
                        and isinstance(n.target, ast.Name) and id(n.target) in self.hc.implicit_this
                        and n.target.name in self.g.numeric_attrs})
        members = {n.name for n in ast.walk([s]) if isinstance(n, ast.Member)}
        called = self.g.loop(s).called_reads
        return [n for n in names if n not in members and n not in called]

    def saturating(self, e: ast.Assign, c: SegClause, bound: int) -> list[SegClause]:
        """`Taken += v` of a counter that is a local of the loop (`loop_stmt`), saturated at `bound` as its write
        would be (`assign_member`): at the bound it keeps its value."""
        out = []
        name = e.target.name
        op = e.op[0]
        if op not in STEPS:
            raise Unsupported.at(e.span, f"the operator {e.op}")
        for c2, v in self.expr(e.value, c):
            for c3, r in self.stepped(op, c2.env[name], v, c2, bound, e.span):
                c3.env[name] = r
                out.append(c3)
        return out

    def stepped(self, op: str, old: Term, v: Term, c: SegClause, bound: int | None, span=None
                ) -> list[tuple[SegClause, Term]]:
        """`old op v` on `c`, for a counter saturated at `bound` (None: not saturated): at or past the bound it
        keeps `old` (the relaxation then asks for that comparison), below it steps. `span`: the write's, which
        the step's literal carries (a refusal of the relaxation is located there)."""
        out = []
        if bound is not None:
            at = self.compare(">=", old, Const(str(bound)), c.copy())
            if at is not None:
                out.append((at, old))
            c = self.compare("<", old, Const(str(bound)), c)
            if c is None:
                return out
        c2, r = self.calc(op, old, v, c, span)
        if c2 is not None:
            out.append((c2, r))
        return out

    def promoted(self, c: SegClause, counters: list[str]) -> list[SegClause]:
        """`c` with each counter of `this` read into a local of its name, its write (if any) out of the store."""
        todo = [c]
        for name in counters:
            out = []
            for c2 in todo:
                this = c2.env["#this"]
                for c3, v in self.read(c2, this, name):
                    c3 = c3.copy()
                    c3.env[name] = v
                    c3.store = tuple(w for w in c3.store
                                     if w[0] != name or c3.resolve(w[1]) != c3.resolve(this))
                    out.append(c3)
            todo = out
        return todo

    def carrying(self, s, clauses: list[SegClause], live: set[str], writes: bool,
                 counters: frozenset[str]) -> horn._Flow:
        """A loop after the move wrote numbers (they stay in the clauses, so that their ranges are found along
        each way): the writes ride through the loop's relation as names (`#kept...`) and are given back to the
        ways out. The loop must not read them (it would read the state before the move). A way that wrote
        fewer of them than another (hasami's second direction, after a capture on some ways only) writes the
        value it reads, so that every way carries the same writes (`padded`)."""
        if writes:
            self._no_clash(s, counters)  # the loop's own refusal first: it says more
        clauses = self.padded(clauses)
        if self.uncarried(s, clauses):
            clauses = self.padded(self.taken_numbers(clauses))
            if self.uncarried(s, clauses):  # numbers of objects known when compiling too
                clauses = self.taken_numbers(clauses, every=True)
            if not any(c.store for c in clauses):
                return self.writing_loop(s, clauses, live, counters) if writes else super()._stmt(s, clauses, live)
        shapes = {tuple(a for a, _, _ in c.store) for c in clauses}
        attrs = next(iter(shapes))
        # the object of each write: `this` or one object on every way is not carried (a relation's arguments do
        # not say that two of them are the same, and `padded` asks it of the writes after the next loop)
        objects = []
        for j in range(len(attrs)):
            kinds = {"this" if c.resolve(c.store[j][1]) == c.resolve(c.env.get("#this")) else
                     c.store[j][1] if isinstance(c.store[j][1], Const) else None for c in clauses}
            objects.append(next(iter(kinds)) if len(kinds) == 1 and None not in kinds else None)
        for c in clauses:
            for j, (_, o, v) in enumerate(c.store):
                if objects[j] is None:
                    c.env[f"#kept{j}o"] = o
                c.env[f"#kept{j}v"] = v
            c.store = ()
        flow = self.writing_loop(s, clauses, live, counters) if writes else super()._stmt(s, clauses, live)
        for c in flow.going + [c for c, _ in flow.returns]:
            c.store = tuple((a, c.env.pop(f"#kept{j}o") if objects[j] is None else
                             c.env["#this"] if objects[j] == "this" else objects[j], c.env.pop(f"#kept{j}v"))
                            for j, a in enumerate(attrs))
        return flow

    def uncarried(self, s, clauses: list[SegClause]) -> bool:
        """Whether the numbers `clauses` wrote cannot ride through the loop `s` as names (`carrying`): the ways
        wrote different ones, or the loop reads them."""
        shapes = {tuple(a for a, _, _ in c.store) for c in clauses}
        return len(shapes) != 1 or bool(set(next(iter(shapes))) & self.g.loop(s).reads)

    def unknown_numbers(self, c: SegClause) -> set[str]:
        """The numeric attributes `c` wrote of objects known only at run time (not `this`, which `counters_in`
        and `promoted` carry by name). Attributes are numeric by name: a write of a value that is no number
        (boxes' `line.Drawn = true` beside its `Paper.Drawn += 1`) is not one."""
        this = c.resolve(c.env.get("#this"))
        return {a for a, o, v in c.store if a in self.g.numeric_attrs and isinstance(c.resolve(o), Var)
                and c.resolve(o) != this and _maybe_number(c.resolve(v))}

    def unknown_writes_read(self, s, clauses: list[SegClause]) -> bool:
        """Whether the loop `s` reads numbers the ways into it wrote of objects known only at run time: read
        through the ways' stores, each read of the loop would split every way on whether it is each object
        written (Oware's sweep of its eight pits after a capture of up to four: 23,414 segment rules), where a
        view answers it once."""
        written = set().union(*(self.unknown_numbers(c) for c in clauses))
        return bool(written & self.g.loop(s).reads)

    def uneven_unknown(self, clauses: list[SegClause]) -> bool:
        """Whether ways that meet wrote numbers of different shapes, some of objects known only at run time: they
        cannot be one relation, and each would run the rest of the segment on its own (Oware's ways that
        captured one to four pits, each to the end of the move)."""
        return len({tuple(a for a, _, _ in c.store) for c in clauses}) > 1 and any(
            self.unknown_numbers(c) for c in clauses)

    def taken_numbers(self, clauses: list[SegClause], every: bool = False) -> list[SegClause]:
        """`clauses` with the numbers they wrote of objects known only at run time (`every`: all their numbers)
        taken into views too, for a loop that reads them or after ways that wrote them of different such objects
        (Oware's capture after its sowing, a pit a seed): they cannot ride through the loop's relation as names.
        The values each way wrote are kept for the relaxation (`probed`), under the way's body, as
        `CompiledGame.probes` reads them off the ways' ends. Such a probe misses the checks later on the way (an
        end of the game on the value, boxes' `Paper.Drawn == 12`), so the other numbers stay in the ways, their
        ranges found at the ways' ends."""
        taken = set().union(*(self.unknown_numbers(c) for c in clauses)) if not every else self.g.numeric_attrs
        for c in clauses:
            for a, o, v in c.store:
                if a in taken:
                    self.probed.append(Rule(Atom("num|" + a, (o, v)), tuple(c.body)))
        return self.collapse(clauses, numeric=True, only=set(taken))

    def padded(self, clauses: list[SegClause]) -> list[SegClause]:
        """`clauses` with the writes each lacks of an attribute others wrote, of the same object (`this`, or one
        named when compiling), as the value it has: no change to the state, and one shape of writes for all."""
        attrs = list(dict.fromkeys(a for c in clauses for a, _, _ in c.store))
        out = []
        for c in clauses:
            todo = [c]
            for a in attrs:
                if any(w[0] == a for w in c.store):
                    continue
                kinds = {"this" if other.resolve(o) == other.resolve(other.env.get("#this")) else
                         o if isinstance(o, Const) else None
                         for other in clauses for a2, o, _ in other.store if a2 == a}
                if len(kinds) != 1 or None in kinds or (kinds == {"this"} and c.env.get("#this") is None):
                    return clauses  # written of objects known at run time: the shapes differ, refused
                kind = next(iter(kinds))
                todo = [c3 for c2 in todo for c3 in self._rewritten(c2, c2.env["#this"] if kind == "this" else kind, a)]
            for c2 in todo:
                c2.store = tuple(sorted(c2.store, key=lambda w: attrs.index(w[0])))  # other attributes' writes commute
            out += todo
        return out

    def _rewritten(self, c: SegClause, o: Term, name: str) -> list[SegClause]:
        """`c` writing `name` of `o` the value it reads there."""
        out = []
        for c2, v in self.read(c, o, name):
            c2 = c2.copy()
            c2.store = c2.store + ((name, o, v),)
            out.append(c2)
        return out

    # ------------------------------------------------------------ loops that write the state
    def unrolled(self, s: ast.For, clauses: list[SegClause], live: set[str]) -> horn._Flow | None:
        """`for (number i = a; i < b; i += 1)` with a and b known when compiling and at most UNROLLED passes,
        spelled out pass by pass: each pass reads what the passes before it wrote (Reversi's eight directions,
        each flipping what the one before left), through the views its writes make. None for another loop."""
        counted = ast.counted_for(s)
        around = None  # a loop around a place (`x = to.X - 1; x <= to.X + 1`): its base and first offset
        guard = None  # a bound read from a static table (`lamp.connections.length`): its name in each clause's env
        if counted is None:
            around = _around_for(s)
            if around is None:
                return None
            var, base, first, count = around
            last = first + count
        else:
            if any(isinstance(n, ast.Call) for n in ast.walk([s.cond.right])):
                return None  # (a bound that calls code would leave its demand behind where the loop is not spelled out)
            var, first, inclusive = counted
            bounds = set()
            for c in clauses:  # one value, known when compiling: no literal added to the way
                found = self.expr(s.cond.right, c)
                if len(found) != 1 or found[0][0].body != c.body:
                    bounds = None
                    break
                bounds.add(found[0][1])
            if bounds is None:  # else a bound the board fixes for each object: as many passes as its largest
                guard = f"#bound:{id(s)}"
                found = self.static_bound(s.cond.right, clauses, guard)
                if found is None:
                    return None
                clauses, most = found
                last = most + inclusive
            elif len(bounds) != 1:
                return None
            else:
                bound = next(iter(bounds))
                try:
                    last = int(bound.name) + inclusive
                except (AttributeError, ValueError):
                    return None
        if first != int(first) or not 0 <= last - int(first) <= UNROLLED:
            return None
        flow = horn._Flow()
        going = [c.copy() for c in clauses]
        # what a pass's joins keep: what the passes after it read (a name the body declares is declared again)
        declared = {n.name for n in ast.walk([s.body]) if isinstance(n, ast.VarDecl)}
        body_live = live | (horn._names([s.body]) - declared)
        if around is not None:  # each pass reads the base again
            body_live |= horn._names([around[1]])
        passes = range(int(first), max(int(first), last))
        frozen, deferred = self.frozen, self.deferred
        independent = self.independent(s, var, passes, clauses) if (
            frozen is None and around is None and guard is None) else None
        left: list[SegClause] = []  # the ways that leave a loop of a static bound before its last pass
        if independent:
            self.frozen = dict(self.latest)
            if independent.once:
                self.deferred = {}
        try:
            for k in passes:
                self.g.limits.check()  # a pass's ways can multiply: --max-seconds holds inside a segment's compile
                if around is None:
                    for c in going:
                        c.env[var] = Const(str(k))
                else:  # the base plus this pass's offset, for each way (a read of the base's place joined in)
                    at, ways = _plus(around[1], k), []
                    for c in going:
                        for c2, v in self.expr(at, c):
                            c2.env[var] = v
                            ways.append(c2)
                    going = ways
                if guard is not None:  # the pass runs where k is within the way's bound; the others leave here
                    going, out = self.within_bound(going, k, guard, inclusive)
                    left += out
                inner = self.block(s.body.body, going, body_live if k != passes[-1] else live)
                flow.returns += inner.returns
                flow.going += inner.breaks
                going = inner.going + inner.continues
                if guard is not None and len(going) > 1:  # the pass's ways met again: a bound's passes do not multiply
                    going = self.cut(going, "join", body_live | {guard})
            if independent and independent.once:
                for a, ways in self.deferred.items():  # one view of every pass's loop writes
                    m = next(self.view_ids)
                    self.view_rules += _written(ways, a, f"view|{a}@{m}", f"changed|{a}@{m}", self.view_of(a))
                    self.latest[a] = m
        finally:
            self.frozen, self.deferred = frozen, deferred
        for c in going:
            c.env[var] = Const(str(max(int(first), last))) if around is None else NULL
        flow.going += going + left
        for c in flow.going:
            c.env.pop(var, None)
            c.env.pop(guard, None)
        flow.going = self.cut(flow.going, "join", live)
        return flow

    def clashing(self, s, counters: frozenset[str]) -> list[str]:
        """The attributes the loop `s` that writes the state reads and writes (but the counters that are its locals,
        `loop_stmt`, and what nothing reads: no state, decision 109), which `_no_clash` refuses."""
        if getattr(s, "reads_before", False):  # a scan clearing a flood's group reads through the views it
            return []  # started with (`loop_stmt`): no clash
        code = self.g.loop(s)
        return sorted((set(code.values) - counters - self.g.unread.names) & code.reads)

    def counted_while(self, s: ast.While) -> ast.For | None:
        """A `while` loop that reads what it writes (`clashing`, which `_no_clash` would refuse) as the counted loop
        of as many passes as it takes on any play, where the evaluation bounds them by UNROLLED
        (tgpl.lowering.while_passes): Quixo's push walking a row from the cube taken to the end it goes in at.
        None where no bound is found. One loop made per `while`, kept for every attempt at the game (the compile
        keys its tables by the loop)."""
        key = ("counted while", id(s))
        if key not in self.g._shapes:
            passes = while_passes.most_passes(self.hc, s, UNROLLED, self.g.limits.check)
            self.g._shapes[key] = (s, while_passes.as_counted(s, passes)) if passes else None
        found = self.g._shapes[key]
        return found[1] if found is not None else None

    def constant_passes(self, s: ast.For, clauses: list[SegClause]) -> tuple[str, range] | None:
        """The counter and passes of `for (number i = a; i < b; i += 1)` (or `<=`) whose bound is one value known
        when compiling on every way in, read without adding a literal to any (a number, a board's `Rows`); None
        for another loop. The names the reads made are given back: a loop spelled out after all reads its bound
        again, and its rules are those it had without this look."""
        counted = ast.counted_for(s)
        if counted is None or any(isinstance(n, ast.Call) for n in ast.walk([s.cond.right])):
            return None
        var, first, inclusive = counted
        bounds = set()
        fresh = next(self.fresh)
        try:
            for c in clauses:
                found = self.expr(s.cond.right, c)
                if len(found) != 1 or found[0][0].body != c.body:
                    return None
                bounds.add(found[0][1])
        finally:
            self.fresh = itertools.count(fresh)
        if len(bounds) != 1 or first != int(first):
            return None
        try:
            last = int(next(iter(bounds)).name) + inclusive
        except (AttributeError, ValueError):
            return None
        return var, range(int(first), max(int(first), last))

    def scanned(self, s: ast.For, clauses: list[SegClause], live: set[str]) -> horn._Flow | None:
        """A scan at once: a counted loop of known bounds (and the loops in it) whose passes write each object at
        most once and never read what a pass wrote (`independent`, once): every pass reads the views the loop
        started with, so the order of the passes cannot matter, and the loop is one relation over its counters
        (`loop`), its passes' writes one view (Chomp's bite that walks the whole bar and eats each square above
        and right of the picked one). None for another loop, which is spelled out or refused as before."""
        if self.scanning:  # a loop inside a scan: its passes are some of the scan's, independent as they are
            return self._scan(s, clauses, live)
        inside = [n for n in ast.walk([s.body]) if isinstance(n, (ast.Call, ast.While, ast.For, ast.Return,
                                                                   ast.Winner))]
        if self.frozen is not None or any(not isinstance(n, ast.For) for n in inside):
            # in a loop of independent passes already, or a call, a loop of another kind, a return or a winner in
            # it: spelled out, or refused, as before
            return None
        if any(a in self.g.numeric_attrs for c in clauses for a, _, _ in c.store) or self.counters_in(s, clauses):
            return None
        found = self.constant_passes(s, clauses)
        if found is None:
            return None
        var, passes = found
        independent = self.independent(s, var, passes, clauses)
        if independent is None or not independent.once:
            return None
        if any(c.store for c in clauses):
            clauses = self.collapse(clauses)  # the scan reads the move's writes through views
        frozen, deferred, self.frozen, self.deferred = self.frozen, self.deferred, dict(self.latest), {}
        self.scanning = True
        try:
            flow = self._scan(s, clauses, live)
            for a, ways in self.deferred.items():  # one view of every pass's writes
                m = next(self.view_ids)
                self.view_rules += _written(ways, a, f"view|{a}@{m}", f"changed|{a}@{m}", self.view_of(a))
                self.latest[a] = m
        finally:
            self.frozen, self.deferred, self.scanning = frozen, deferred, False
        return flow

    def _scan(self, s: ast.For, clauses: list[SegClause], live: set[str]) -> horn._Flow:
        """The scan's loop `s` as horn's relation over its counter, every pass reading the frozen views; a loop in
        it that is not counted walks, as `writing_loop`'s do (its writes stop at null)."""
        if any(c.store for c in clauses):
            clauses = self.collapse(clauses, numeric=True)
        walk = ast.counted_for(s) is None
        self.walking += walk
        try:
            return super()._stmt(s, clauses, live)
        finally:
            self.walking -= walk

    def static_bound(self, e, clauses: list[SegClause], key: str) -> tuple[list[SegClause], int] | None:
        """A loop's bound `e` read from one static table for each way (a tile's `connections.length`): the ways
        with the bound's value kept in their env under `key`, and the largest value the table holds. None for
        another bound (a read of the state, a computed value)."""
        out, most = [], None
        for c in clauses:
            for c2, v in self.expr(e, c):
                added = c2.body[len(c.body):]
                if c2.body[:len(c.body)] != c.body or len(added) != 1 or not isinstance(v, Var):
                    return None
                rows = self.hc.statics.get(added[0].relation) if isinstance(added[0], Atom) else None
                if not rows or added[0].args[-1] != v:
                    return None
                try:
                    values = [int(row[-1].name) for row in rows]
                except (AttributeError, ValueError):
                    return None
                most = max([most, *values] if most is not None else values)
                c2.env[key] = v
                out.append(c2)
        return (out, most) if most is not None else None

    def within_bound(self, clauses: list[SegClause], k: int, key: str, inclusive: bool
                     ) -> tuple[list[SegClause], list[SegClause]]:
        """The ways whose bound (`static_bound`) lets pass `k` run, and those that leave the loop before it."""
        runs, leaves = [], []
        for c in clauses:
            bound = c.env[key]
            yes = self.compare("<=" if inclusive else "<", Const(str(k)), bound, c.copy())
            no = self.compare(">" if inclusive else ">=", Const(str(k)), bound, c.copy())
            runs += [yes] if yes is not None else []
            leaves += [no] if no is not None else []
        return runs, leaves

    def independent(self, s: ast.For, var: str, passes: range, clauses: list[SegClause]
                    ) -> footprint.Independent | None:
        """Whether no pass of the counted loop `s` reads what an earlier pass wrote (tgpl.lowering.footprint): its
        passes may then all read the state as the loop found it. Only for a loop of the effect itself (not of a
        function it inlines), outside any other loop."""
        m = self.acting
        if m is None or not self.moving or any(c.frames for c in clauses):
            return None
        key = ("footprint", id(s))  # the same for every attempt at the game: kept with its shape tables
        if key not in self.g._shapes:
            self.g._shapes[key] = footprint.passes_independent(self.hc, m.action, m.objects, s, var, passes,
                                                               self.g.limits.check)
        return self.g._shapes[key]

    def _no_clash(self, s, counters: frozenset[str]) -> dict[str, list]:
        """Raises Unsupported where a loop that writes the state reads what it writes (but the counters that are
        its locals, `loop_stmt`); else the value expressions of each attribute it writes."""
        clash = self.clashing(s, counters)
        if clash:
            raise Unsupported(f"a loop that reads '{clash[0]}', which it writes, and is not a counted loop of at "
                              f"most {UNROLLED} passes: write it as one, its condition tested in each pass "
                              f"(`for (number k = 0; k < {UNROLLED}; k += 1) {{ if (C) {{ ... }} }}`, C the loop's "
                              "condition, where no play needs more passes)")
        local = counters | self.g.unread.names
        return {a: v for a, v in self.g.loop(s).values.items() if a not in local}

    def writing_loop(self, s, clauses: list[SegClause], live: set[str],
                     counters: frozenset[str] = frozenset()) -> horn._Flow:
        """A loop that writes the state, as a relation (`loop`), when the order of its passes cannot matter:
        it reads nothing it writes (itself or in the functions it calls), and every write of an attribute in it
        gives one value that no pass changes (`player`). Its passes' writes are then one more view, taken
        where the loop ends (`_written`): Reversi's `for (i = 1; i <= k; i += 1) At(...).Disc = player`."""
        values = self._no_clash(s, counters)
        assigned = self.g.loop(s).names
        for attr, exprs in values.items():
            texts = {_text(e) for e in exprs}
            if len(texts) > 1 or horn._names(exprs) & assigned or any(
                    isinstance(n, (ast.Call, ast.Member)) for n in ast.walk(exprs)):
                raise Unsupported(f"a loop whose passes write '{attr}' with values that may differ")
        if any(isinstance(n, (ast.Return, ast.Winner)) for n in ast.walk([s])):
            raise Unsupported("a return or winner inside a loop that writes the state")
        walk = not (isinstance(s, ast.For) and ast.counted_for(s) is not None)
        self.walking += walk
        try:
            return super()._stmt(s, clauses, live)
        finally:
            self.walking -= walk

    def scans_calls(self, s: ast.For) -> bool:
        """horn's scan for the demands of the calls in a counted loop, only where the loop (and the functions it
        calls) writes no state: a pass's writes would change what the calls of the passes after it answer."""
        return not self.g.loop(s).writes_state

    def exists_loop(self, s: ast.For, clauses: list[Clause], live: set[str]) -> horn._Flow | None:
        """horn's "some pass returns it", never for a loop that writes the state (its passes' writes would be lost)."""
        return None if self.g.loop(s).writes_state else super().exists_loop(s, clauses, live)

    def loop_back(self, rel: str, names: list[str], back: list[Clause]) -> None:
        """horn's rules of the passes that come back to a loop's head; the writes they carry (a loop that writes the
        state, `writing_loop`: its passes' order does not matter) become one more view, before the ways that leave
        the loop go on (a pass that breaks out carries its own writes, taken after these)."""
        if any(c.pending or c.over is not None or c.checks or c.frames for c in back if c.store):
            raise Unsupported("a loop that writes the state and passes the turn or ends the game")
        if rel in self.head_names:  # a head that carries events or callers' frames (`cut`)
            names = self.head_names[rel]
            back = [_flat(c, names) for c in back]
        super().loop_back(rel, names, back)
        if self.deferred is not None:  # in a loop of independent passes that write each object once: one view
            for c in back:
                for a in dict.fromkeys(a for a, _, _ in c.store):
                    self.deferred.setdefault(a, []).append(c.copy())
                c.store = ()
            return
        for a in list(dict.fromkeys(a for c in back for a, _, _ in c.store)):
            m = next(self.view_ids)
            self.view_rules += _written(back, a, f"view|{a}@{m}", f"changed|{a}@{m}", self.view_of(a))
            self.latest[a] = m
        for c in back:
            c.store = ()

    def settle(self, flow: horn._Flow) -> horn._Flow:
        """Clauses whose game ended leave the flow (they are in `ended`)."""
        flow.going = [c for c in flow.going if c.over is None]
        flow.returns = [(c, v) for c, v in flow.returns if c.over is None]
        return flow

    def block(self, stmts: list, clauses: list[Clause], live: set[str]) -> horn._Flow:
        if self.moving:  # a check written in several statements, one block (tgpl.lowering.deferral)
            stmts = self.g.deferral.grouped(stmts, live)
        return self.settle(super().block(stmts, [c for c in clauses if c.over is None], live))

    def assign_member(self, e: ast.Assign, c: SegClause) -> list[SegClause]:
        """`o.attr = v`, `attr += v` (an attribute of `this`): a write to the clause's store."""
        t = e.target
        if isinstance(t, ast.Member) and isinstance(t.obj, ast.Name) and isinstance(c.env.get(t.obj.name), Record):
            return self.set_field(e, c)
        if isinstance(t, ast.Name) and id(t) in self.hc.implicit_this:
            objs = [(c, c.env.get("#this"))]
            name = t.name
        elif isinstance(t, ast.Member):
            objs = self.expr(t.obj, c)
            name = t.name
        else:
            raise Unsupported("an assignment of something other than a local or an attribute")
        if id(e) in self.g.unread.writes:
            # an attribute nothing reads (tgpl.lowering.unread): its value evaluated for what it does, the write
            # dropped, but where the object written is null (the runtime stops there)
            return [c3 for c2, o in objs if c2.resolve(o) != NULL for c3, _ in self.expr(e.value, c2)]
        out = []
        for c2, o in objs:
            c2 = c2.copy()
            c2.env["#target"] = o  # kept where the value's reads bind it (an object that may be one written)
            for c3, v in self.expr(e.value, c2):
                o = c3.env.pop("#target")
                if e.op != "=":
                    op = e.op[0]
                    if op not in STEPS:
                        raise Unsupported.at(e.span, f"the operator {e.op}")
                    bound = self.g.saturated.get(name)
                    for c4, old in self.read(c3, o, name):
                        for c5, r in self.stepped(op, old, v, c4, bound, e.span):
                            out += self.write(c5, o, name, r)
                    continue
                out += self.write(c3, o, name, self.typed(e.target, v), e.value)
        return out

    def set_field(self, e: ast.Assign, c: SegClause) -> list[SegClause]:
        """`e.f = v` of an event made by the move, not thrown yet: the local holds the record with the new value."""
        if e.op != "=":
            raise Unsupported(f"the operator {e.op} on an event's attribute")
        name = e.target.obj.name
        out = []
        for c2, v in self.expr(e.value, c):
            if isinstance(v, (Record, *STATIC)):
                raise Unsupported("a list or an event in an event's attribute")
            c3 = c2.copy()
            c3.env[name] = c3.env[name].with_field(e.target.name, self.typed(e.target, v))
            out.append(c3)
        return out

    def is_event(self, e) -> bool:
        """Whether the expression's static type is an event class (not a player's choice)."""
        info = getattr(self.hc.types.get(id(e)), "info", None)
        builtins = self.g.program.builtins
        return info is not None and info.derives_from(builtins.event) and not info.derives_from(builtins.player_choice)

    def new_event(self, e: ast.New, c: SegClause) -> list[tuple[SegClause, Value]]:
        """`new E()` of an event class: a record of its attributes' first values (null, or a literal)."""
        info = self.g.events.event_class(e)
        fields = []
        for cls in reversed(list(info.ancestors())):
            for name, attr in cls.attributes.items():
                if attr.value is None:
                    fields.append((name, NULL))
                    continue
                if not isinstance(attr.value, (ast.NumberLit, ast.BoolLit, ast.NullLit, ast.StringLit)):
                    raise Unsupported("an event attribute whose initializer is not a literal")
                got = self.expr(attr.value, c)
                fields.append((name, got[0][1]))
        return [(c, Record(info, tuple(fields)))]

    def throw(self, e: ast.Call, c: SegClause) -> list[SegClause]:
        """`event.throw(x)`: the listeners of the event answer it here (tgpl.lowering.compiled_events), where the
        rest of the block cannot tell, each way on which the runtime would run them."""
        if not self.moving or not self.outer or len(e.args) != 1:
            raise Unsupported("an event thrown outside a move's, a phase's or a listener's code")
        arg = e.args[0].value
        out = []
        for c2, rec in self.expr(arg, c):
            if not isinstance(rec, Record):
                raise Unsupported("a throw of an event not made by the move")
            self.g.events.answerable(e, self.outer[-1], rec.cls)
            rec = Record(rec.cls, rec.fields, True)
            if isinstance(arg, ast.Name) and arg.name in c2.env:
                c2 = c2.copy()
                c2.env[arg.name] = rec
            out += self.answer(c2, rec)
        return out

    def answer(self, c: SegClause, rec: Record) -> list[SegClause]:
        """The listeners of the event `rec` on the way `c`: chosen up front (their requires and trigger, on the state
        now), then run in the runtime's order."""
        listeners = self.g.events.listening(rec.cls)
        ways: list[tuple[SegClause, tuple]] = [(c, ())]
        for ls in listeners:
            ways = [(y, chosen + (runs,)) for w, chosen in ways for y, runs in self.chosen(w, ls, rec)]
        out = []
        for w, chosen in ways:
            todo = [w]
            for ls, runs in zip(listeners, chosen):
                if not runs or ls.action.effect is None:
                    continue
                self.outer.append(ls.action.effect.body)
                self.outer_frames += 1
                try:
                    this = self.hc.const_of(ls.obj)  # the event as the way bound its terms since the throw
                    todo = [y for x in todo for y, _ in
                            self.framed(x, {"#this": this, "event": rec.substituted(x.resolve)},
                                        ls.action.effect.body, NULL)]
                finally:
                    self.outer.pop()
                    self.outer_frames -= 1
            out += todo
        return out

    def chosen(self, c: SegClause, ls, rec: Record) -> list[tuple[SegClause, bool]]:
        """The ways on which the listener's requires and trigger all return true (True), and the others (False).
        They only read: a block that changes the game is refused."""
        going, out = [c], []
        ended = len(self.ended)
        for body in [r.body for r in ls.action.requires] + [ls.trigger.body]:
            nxt = []
            for w in going:
                env = {"#this": self.hc.const_of(ls.obj), "event": rec.substituted(w.resolve)}
                for y, v in self.framed(w, env, body, NULL):
                    if y.store != w.store or y.control != w.control or y.pending != w.pending:
                        raise Unsupported("a listener's require or trigger that changes the game")
                    yes = self.unify(y, v, YES)
                    if yes is not None:
                        nxt.append(yes)
                    no = self.differ(y, v, YES)
                    if no is not None:
                        out.append((no, False))
            going = nxt
        if len(self.ended) > ended:
            raise Unsupported("a listener's require or trigger that ends the game")
        return [(w, True) for w in going] + out

    def moved_piece(self, e: ast.Call, method: str = "move_to"):
        """In `move_to(t)` or `p.move_to(t)` (an interactable's built-in; `method`: also "discard"), what names the
        piece: the callee Name itself where it is `this`'s own method, else the expression `p`; None where `e` is no
        such call."""
        ct = self.hc.types.get(id(e.callee))
        if not (isinstance(ct, CallableType) and ct.kind == "builtin" and len(e.args) == 1):
            return None
        if isinstance(e.callee, ast.Name) and e.callee.name == method and id(e.callee) in self.hc.implicit_this:
            return e.callee
        if isinstance(e.callee, ast.Member) and e.callee.name == method:
            return e.callee.obj
        return None

    def pieces(self, e: ast.Call, c: SegClause, method: str) -> list[tuple[SegClause, Value]]:
        """The piece that `e`, a call of the piece's built-in `method`, acts on, a way for each value."""
        piece = self.moved_piece(e, method)
        return [(c, c.env.get("#this"))] if piece is e.callee else self.expr(piece, c)

    def move_to(self, e: ast.Call, c: SegClause) -> list[SegClause]:
        """`piece.move_to(t)`: a write of the piece's built-in `tile`, as the runtime's move_to sets it."""
        return [c3 for c2, o in self.pieces(e, c, "move_to") for c2b, v in self.expr(e.args[0].value, c2)
                for c3 in self.write(c2b, o, "tile", v)]

    def discard(self, e: ast.Call, c: SegClause) -> list[SegClause]:
        """`piece.discard(pile)`: writes of the piece's built-in `discarded` (true) and `tile` (null), as the
        runtime's discard sets them (a capture: the piece off the board, out of the moves' candidates, `in_play`).
        The pile's items are not state: only a stack object is taken, whose items the compiled rules never read
        (its `length`, pop() and the like are refused where they are met); a pile that is null is the runtime's
        error, the way dropped. A list as the pile, or a discard in a loop compiled as a relation (whose ways keep
        no writes), is refused."""
        if self.loops or self.walking:
            raise Unsupported("discard() inside a loop that is not unrolled")
        out = []
        for c2, o in self.pieces(e, c, "discard"):
            for c3, pile in self.expr(e.args[0].value, c2):
                pile = c3.resolve(pile)
                if pile == NULL:
                    continue
                obj = self.hc.object_of(pile) if isinstance(pile, Const) else None
                if obj is None or not any(k.kind == "stack" for k in obj.cls.ancestors()):
                    raise Unsupported("discard() into a pile other than a stack object known when compiling")
                out += [c5 for c4 in self.write(c3, o, "discarded", YES) for c5 in self.write(c4, o, "tile", NULL)]
        return out

    def write(self, c: SegClause, o: Value, name: str, v: Value, source=None) -> list[SegClause]:
        """`o.name = v` on the way `c` (`source`: the value expression of the statement `o.name = v` that writes it,
        where one does), a way for each outcome."""
        _no_checks([c])  # a check left to the next decision would read the state before this write
        o, v = c.resolve(o), c.resolve(v)
        if isinstance(o, Record) or isinstance(v, Record):
            raise Unsupported("an event kept in the state")
        if isinstance(o, STATIC) or isinstance(v, STATIC):
            raise Unsupported(f"a list in the state: {rewrites.collection_hint()}")
        if o == NULL:
            return []  # the runtime stops: an attribute of null
        if isinstance(o, Const):
            obj = self.hc.object_of(o)
            if obj is None or (obj.name, name) not in self.hc.fluent_cells:
                raise Unsupported(f"a write of '{name}' of {o.name}, which is not state")
        elif name not in self.hc.fluent_attrs:
            raise Unsupported(f"a write of '{name}', which is not state")
        elif self.walking:
            # the runtime stops at a write to null: a walk that writes what it passes over (Konane's jump,
            # `while (r != to.R || c != to.C) { At(r + dr, c + dc).Stone = 0; ... }`) ends at the board's
            # edge, which the relaxation must see too, or the walk's numbers run past every bound. Only in
            # walks: elsewhere the test would keep every written object in the relaxation's numeric slice.
            c = self.differ(c, o, NULL)
            if c is None:
                return []
        elif isinstance(o, Var) and self.may_be_null(c, o):
            # the object a function returned, which can be null where the state is not one the game reaches
            # (Isolation's `KnightOf` after a search of the board finding no knight): the runtime would stop
            # there, and without the test the rule could write an attribute of null, a fluent no `base` lists
            c = self.differ(c, o, NULL)
            if c is None:
                return []
        if any(count.field == name for count in self.g.counted.values()):  # asked on its own (`proved`)
            self.g.flips.append(Flip(name, tuple(c.body), o, v, source, self.read_view(name),
                                     tuple((w, x) for a, w, x in c.store if a == name),
                                     self.moving and self.frozen is None and not self.loops))
        c2 = c.copy()
        # an earlier write to the very same object is gone: reads from now on find this one first anyway
        c2.store = tuple(w for w in c.store if w[:2] != (name, o)) + ((name, o, v),)
        return [c2]

    def may_be_null(self, c: SegClause, o: Var) -> bool:
        """Whether `o` is bound on the way `c` by the result of a compiled function with a rule returning null."""
        keys = {prefix(x.relation).split("~")[0] for x in c.body
                if isinstance(x, Atom) and "|result" in x.relation and x.args and x.args[-1] == o}
        return any(r.head.args and r.head.args[-1] == NULL and "|result" in r.head.relation
                   for k in keys if k in self.hc.functions for r in self.hc.functions[k].rules)

    def ranking(self, e, c: SegClause) -> list[tuple[SegClause, tuple]]:
        """`winner p` or `winner {{a, b}, {c}}` as the places of the roles, terms (a table when players are variables)."""
        groups: list[list] = []  # each place's players: expressions, or constants of a list known when compiling
        if isinstance(e, ast.InitList):
            for g in e.items:
                if not isinstance(g, ast.InitList):
                    raise Unsupported("a ranking other than a list of lists of players")
                groups.append(list(g.items))
        else:
            got = self.expr(e, c) if isinstance(e, ast.Name) else []
            if len(got) == 1 and isinstance(got[0][1], Static):  # a local list of lists (`winner draw;`)
                c = got[0][0]
                for g in got[0][1].value:
                    if not isinstance(g, Static) or not all(isinstance(x, Const) for x in g.value):
                        raise Unsupported("a ranking other than a list of lists of players")
                    groups.append(list(g.value))
            else:
                groups = [[e]]
        todo: list[tuple[SegClause, list]] = [(c, [])]
        for g in groups:
            nxt = []
            for c2, acc in todo:
                members: list[tuple[SegClause, list]] = [(c2, [])]
                for x in g:
                    members = [(c4, m + [self.as_player(v)]) for c3, m in members
                               for c4, v in ([(c3, x)] if isinstance(x, Const) else self.expr(x, c3))]
                nxt += [(c3, acc + [m]) for c3, m in members]
            todo = nxt
        out = []
        n = self.hc.u.players
        for c2, ranking in todo:
            terms = [t for g in ranking for t in g]
            variables = list(dict.fromkeys(t for t in terms if isinstance(t, Var)))
            rows = []
            for combo in itertools.product(range(n), repeat=len(variables)):
                val = dict(zip(variables, combo))
                concrete = tuple(tuple(val[t] if isinstance(t, Var) else _player(t) for t in g) for g in ranking)
                if any(p is None for g in concrete for p in g):
                    continue
                places = tuple(Const("none" if p is None else str(p)) for p in places_of(concrete, n))
                rows.append(tuple(Const(f"#p:{val[v]}") for v in variables) + places)
            if not variables:
                if rows:
                    out.append((c2, rows[0]))
                continue
            places = tuple(self.var() for _ in range(n))
            table = self.hc.static_table(rows)
            out.append((c2.plus(Atom(table, tuple(variables) + places)), places))
        return out

    # ------------------------------------------------------------ values
    def expr(self, e, c: Clause) -> list[tuple[Clause, Value]]:
        if isinstance(e, ast.StringLit):
            return [(c, Const("#s:" + e.value))]
        if isinstance(e, ast.New):
            return self.new_event(e, c)
        if isinstance(e, ast.This):
            return [(c, c.env["#this"])]
        if isinstance(e, ast.Name) and e.name not in c.env and id(e) in self.hc.implicit_this:
            return self.member(c, c.env["#this"], e.name, of=self.hc.this_class.get(id(e)))
        if isinstance(e, ast.Binary) and e.op in CALCS and PLAYER in (self.hc.types.get(id(e.left)),
                                                                        self.hc.types.get(id(e.right))):
            return self.player_arith(e, c)
        return super().expr(e, c)

    def player_arith(self, e: ast.Binary, c: Clause) -> list[tuple[Clause, Value]]:
        """`mover + 1`: players wrap around, by a table of each player and the player that many after it."""
        if e.op not in ("+", "-") or self.hc.types.get(id(e.right)) == PLAYER:
            raise Unsupported("arithmetic on players other than a player plus or minus a number")
        out = []
        n = self.hc.u.players
        for c2, a in self.expr(e.left, c):
            for c3, k in self.expr(e.right, c2):
                if not (isinstance(k, Const) and k.name.lstrip("-").isdigit()):
                    raise Unsupported("a player plus a number not known when compiling")
                step = int(k.name) * (1 if e.op == "+" else -1)
                a = self.as_player(a)
                if isinstance(a, Const):
                    p = _player(a)
                    out.append((c3, Const(f"#p:{(p + step) % n}") if p is not None else NULL))
                    continue
                r = self.var()
                table = self.hc.static_table([(Const(f"#p:{p}"), Const(f"#p:{(p + step) % n}")) for p in range(n)])
                out.append((c3.plus(Atom(table, (a, r))), r))
        return out

    def member(self, c: Clause, o: Value, name: str, player: bool = False, of=None) -> list[tuple[Clause, Value]]:
        o = c.resolve(o)
        if isinstance(o, Record):
            return [(c, c.resolve(o.get(name)))]
        if isinstance(o, Slots) and name == "length":
            return self.lists.length(c, o)
        if name in self.g.lists and isinstance(o, (Var, Const)):
            return self.lists.owners(c, o, name)
        if isinstance(o, STATIC):
            return super().member(c, o, name, player, of)
        if name in self.hc.fluent_attrs:
            if isinstance(o, Const):
                obj = self.hc.object_of(o)
                if obj is None:
                    return []
                if (obj.name, name) not in self.hc.fluent_cells:
                    return super().member(c, o, name, player, of)
            else:
                self.g.uniform(name)
            return self.read(c, o, name)
        return super().member(c, o, name, player, of)

    def read(self, c: SegClause, o: Term, name: str) -> list[tuple[SegClause, Term]]:
        """The value of `name` of `o` now: the last write to the same object, or the value before the move,
        with a clause for each write to an object that may be this one."""
        out: list[tuple[SegClause, Term]] = []
        todo = [(c, len(c.store))]
        while todo:
            c2, i = todo.pop()
            for j in range(i - 1, -1, -1):
                attr, w, v = c2.store[j]
                if attr != name or isinstance(w, Const) and isinstance(o, Const) and w != o:
                    continue
                if w == o:
                    out.append((c2, v))
                    break
                same = self.unify(c2, o, w)
                if same is not None:
                    out.append((same, same.store[j][2]))
                differ = self.differ(c2, o, w)
                if differ is not None:
                    todo.append((differ, j))
                break
            else:
                out.append(self.read_before(c2, o, name))
        return out

    def read_before(self, c: SegClause, o: Term, name: str) -> tuple[SegClause, Term]:
        """The value before the clause's own writes: in the view that last took writes of `name` (views made since
        the clause's own last join were made by other ways, whose writes do not hold on this one), else the
        state before the move."""
        rel = self.read_view(name)
        for x in c.body:
            if isinstance(x, Atom) and x.relation == rel and x.args[0] == o:
                return c, x.args[1]
        v = self.var()
        self.hf.reads.add(name)
        return c.plus(Atom(rel, (o, v))), v

    # ------------------------------------------------------------ calls
    def call(self, e: ast.Call, c: Clause) -> list[tuple[Clause, Value]]:
        ct = self.hc.types.get(id(e.callee))
        if isinstance(ct, CallableType) and ct.kind == "builtin":
            qualified = ct.target.name if "." in ct.target.name else None
            if qualified is not None:
                return self.namespace_call(qualified, e, c)
            if ct.name == "roll":
                return [self.roll(e, c)]
            if ct.name == "log":  # a message for people, as the spelled-out executor: no part of the game
                return [(c, NULL)]
            if ct.name in COMPILED_CHANGES and getattr(e.callee, "obj", None) is not None \
                    and getattr(e.callee.obj, "name", None) in self.g.lists:
                return self.list_change(e, ct.name, c)
            changed = _changed_list(self.hc.types, e.callee, ct.name)
            if changed is not None:
                raise Unsupported(changed)
            return super().call(e, c)
        if not isinstance(ct, CallableType) or ct.kind != "function":
            raise Unsupported("a call of an action")
        fi = ct.target
        callee = e.callee
        if fi.owner is None:
            thises = [(c, None)]
        elif isinstance(callee, ast.Member):
            thises = self.expr(callee.obj, c)
        else:
            thises = [(c, c.env.get("#this"))]
        given = {a.name: a.value for a in e.args}
        if any(a.name is None for a in e.args) or set(given) != {i.name for i in fi.defn.inputs}:
            raise Unsupported("positional arguments or arguments left to their defaults")
        if fi.owner is not None:
            thises = [w for c2, this in thises for w in self.objects_for(c2, this, fi.owner)]
        out = []
        for c2, this in thises:
            obj = self.hc.object_of(this) if isinstance(this, Const) else None
            if fi.owner is not None and obj is None:
                raise Unsupported(f"a method of an object known at run time: {rewrites.known_method_hint()}")
            try:
                hf = self.hc.compile(fi, obj)
            except Unsupported:
                hf = None
            todo = [(c2, [])]
            for inp in fi.defn.inputs:
                player = inp.type.name == "player" and not inp.type.args
                todo = [(c4, vals + [self.as_player(v) if player else v])
                        for c3, vals in todo for c4, v in self.expr(given[inp.name], c3)]
            for c3, vals in todo:
                vals = [c3.resolve(v) for v in vals]
                this = c3.resolve(this)
                if isinstance(this, Record) or any(isinstance(v, Record) for v in vals):
                    raise Unsupported("an event given to a function or a function of an event")
                if hf is None:
                    out += self.inline(fi, this, vals, c3, id(e) not in self.statement_calls)
                else:  # a closure's step count is no argument of its rules (tgpl.lowering.closures)
                    kept = [v for inp, v in zip(fi.defn.inputs, vals) if inp.name not in hf.dropped]
                    out += self.pure_call(e, hf, kept, c3)
        return out

    def list_change(self, e: ast.Call, method: str, c: SegClause) -> list[tuple[Clause, Value]]:
        """`L.add(x)` or `L.remove(x)` of a list that is state (tgpl.lowering.compiled_lists), a way for each
        outcome; a statement of its own, as the lists that are state are changed (`subset.state_lists`)."""
        if id(e) not in self.statement_calls or len(e.args) != 1:
            raise Unsupported(f"{method}() of a list inside an expression")
        change = self.lists.add if method == "add" else self.lists.remove
        out = []
        for c2, s in self.expr(e.callee.obj, c):
            if not isinstance(s, Slots):
                raise Unsupported(f"{method}() of a list that is not state")
            for c3, x in self.expr(e.args[0].value, c2):
                x = c3.resolve(x)
                if not isinstance(x, (Var, Const)):
                    raise Unsupported(f"{method}() of a value that is no object")
                out += change(c3, s, x)
        if len(out) > 1:  # the ways meet again: one relation of what they hold, not a rule each afterwards
            out = self.joined(out, "listed", {n for c2 in out for n in c2.env})
        return [(c2, NULL) for c2 in out]

    def roll(self, e: ast.Call, c: SegClause) -> tuple[SegClause, Value]:
        """A die of random's move (`CompiledGame.thrown`): the face it gave this die, the next of the clause's
        `thrown`. A way that reads more dice than random threw, or a die of other sides than the one random threw
        in its place, is outside the compiled subset (the spelled-out lowering refuses it alike)."""
        if not c.thrown:
            raise Unsupported("a roll() where random threw no die (a die read by a way its move does not reach)")
        (face, sides), rest = c.thrown[0], c.thrown[1:]
        if roll_sides(e) != sides:
            raise Unsupported("dice of other sides on another way through the effect")
        c2 = c.copy()
        c2.thrown = rest
        return c2, face

    def objects_for(self, c: SegClause, this: Value, owner) -> list[tuple[SegClause, Value]]:
        """`this` as each object of the method's class it may be, a clause each: a board read from a field
        (`GameState.Board.At(...)`) is the one board setup made, whatever the field's table says."""
        this = c.resolve(this)
        if not isinstance(this, Var):
            return [(c, this)]
        objects = self.hc.u.of_class(owner)
        if not objects or len(objects) > OBJECTS_SPLIT:
            return [(c, this)]
        return [(c.bind(this, self.hc.const_of(o)), self.hc.const_of(o)) for o in objects]

    def pure_call(self, e: ast.Call, hf: HornFunction, vals: list, c: SegClause) -> list[tuple[Clause, Value]]:
        """A compiled function: one literal of its result, in the context of the state it reads here."""
        if any(isinstance(v, STATIC) for v in vals):
            raise Unsupported("a list as an argument")
        reads = self.hc.fluent_reads(hf.name)
        name = self.hc.instance_name(hf, e)
        if not reads:  # a table: the same arguments give the result the clause already has
            same = self.known(c, f"{name}|result@s", tuple(vals))
            if same is not None:
                return [(c, same)]
        c = c.copy()
        ctx = self.context(reads, c, e) if reads else "s"  # a function that reads no fluent: a table
        self.g.demand.add((name, ctx if reads else 0))
        for args, body in self.demands(vals, c.body):
            self.hf.rules.append(Rule(Atom(f"{name}|call@{ctx}", args), body))
        r = self.var()
        return [(c.plus(Atom(f"{name}|result@{ctx}", tuple(vals) + (r,))), r)]

    def inline(self, fi, this, vals: list, c: SegClause, nested: bool) -> list[tuple[Clause, Value]]:
        """A function that changes the game, run where it is called: its body with the arguments, in a frame.

        `nested`: called inside an expression, whose operands evaluated so far are terms of the clause that no
        name holds; its joins would lose them, so the function's ways are not joined (`cut`)."""
        d = fi.defn
        if d.effect is None:
            return [(c, NULL)]
        key = _fkey(fi)
        # inlined because the compiled functions refused it (`HornCompiler.compile`), whether or not it changes the
        # game: why, for the refusals met inside it
        obj = self.hc.object_of(this) if isinstance(this, Const) else None
        known = key + ("@" + obj.name if obj is not None else "")
        why, at = self.hc.failed.get(known, ""), self.hc.failed_at.get(known)
        if why and at is not None:
            why += f" at {at.line}:{at.col}"
        if key in self.g.inlining:
            raise Unsupported("a recursive function, which only rules with variables can say, and they refused it"
                              + (f" ({why})" if why else ""))
        env = {"#this": this}
        env.update({i.name: v for i, v in zip(d.inputs, vals)})
        self.g.inlining.add(key)
        self.g.inlined.append((ast.shown_name(d), why, d))
        self.nested += nested
        self.outer_frames += not nested  # called as a statement: its loops carry the callers' names, as a listener's
        try:
            return self.framed(c, env, d.effect.body, NULL)
        finally:
            self.g.inlining.discard(key)
            self.g.inlined.pop()
            self.nested -= nested
            self.outer_frames -= not nested

    def framed(self, c: SegClause, env: dict, body: ast.Block, fallen) -> list[tuple[SegClause, Value]]:
        """`body` run in a frame of its own (`env`), the caller's names kept aside and given back after: each way
        out with what it returned (`fallen` where it ran to the end)."""
        callee = c.copy()
        callee.frames = c.frames + (c.env,)
        callee.env = env
        flow = self.block(body.body, [callee], set())
        if flow.breaks or flow.continues:
            raise Unsupported("break or continue outside a loop")
        out = []
        for c2, v in flow.returns + [(x, fallen) for x in flow.going]:
            c3 = c2.copy()
            c3.env, c3.frames = dict(c2.frames[-1]), c2.frames[:-1]
            out.append((c3, v))
        return out

    def namespace_call(self, qualified: str, e: ast.Call, c: SegClause) -> list[tuple[Clause, Value]]:
        player, turn, phase = c.control
        if qualified == "player.active":
            return [(c, player)]
        if qualified == "turn.active":
            return [(c, Const("#s:" + turn))]
        if qualified == "turn.phase.active":
            return [(c, Const("#s:" + phase))]
        if qualified == "log":
            return [(c, NULL)]
        if qualified == "event.throw":
            return [(x, NULL) for x in self.throw(e, c)]
        if qualified != "turn.pass":
            raise Unsupported(f"{qualified}()")
        args = [a.value for a in e.args]
        if not args:
            return [(x, NULL) for x in self.pass_default(c)]
        out = []
        for c2, who in self.expr(args[0], c):
            who = self.as_player(who)
            if who == NULL:
                continue
            nxt = phase
            if len(args) > 1:
                if not isinstance(args[1], ast.StringLit):
                    raise Unsupported("a phase named by an expression")
                nxt = args[1].value
                turn_def = self.g.turns.get(turn)
                if turn_def is None or nxt not in {x.name for x in turn_def.phases}:
                    raise Unsupported(f"turn {turn} has no phase {nxt}")
            c3 = c2.copy()
            c3.control, c3.pending = (who, turn, nxt), True
            out.append((c3, NULL))
        return out

    def pass_default(self, c: SegClause) -> list[SegClause]:
        """`turn.pass()`: the turn's default runs (in a frame of its own); a player it returns gets the turn's
        first phase, a pass it makes stands, and without either the runtime stops (the clause is dropped)."""
        turn = self.g.turns.get(c.control[1])
        if turn is None or turn.default is None:
            return []
        first = turn.phases[0].name if turn.phases else None
        waiting = c.copy()
        waiting.pending = False
        out = []
        for c3, v in self.framed(waiting, {"#this": None}, turn.default.body, None):
            if v is not None and v != NULL:
                c3.control, c3.pending = (self.as_player(v), c3.control[1], first), True
            elif not c3.pending:
                continue
            out.append(c3)
        return out

    # ------------------------------------------------------------ terms held across an evaluation
    def unify(self, c, a, b):
        return super().unify(c, *_no_records(c.resolve(a), c.resolve(b)))

    def differ(self, c, a, b):
        return super().differ(c, *_no_records(c.resolve(a), c.resolve(b)))

    def compare(self, op, a, b, c, span=None):
        return super().compare(op, c.resolve(a), c.resolve(b), c, span)

    def calc(self, op, a, b, c, span=None):
        a, b = c.resolve(a), c.resolve(b)
        if isinstance(a, (Var, Const)) and isinstance(b, (Var, Const)) and not (isinstance(a, Const)
                                                                                 and isinstance(b, Const)):
            same = self.known(c, CALCS[op], (a, b))
            if same is not None:
                return c, same
        return super().calc(op, a, b, c, span)

    def contains(self, c, o, x):
        o, x = c.resolve(o), c.resolve(x)
        if isinstance(o, Slots) and isinstance(x, (Var, Const)):
            return self.lists.contains(c, o, x)
        return super().contains(c, o, x)

    def index(self, c, o, k):
        o, k = c.resolve(o), c.resolve(k)
        if isinstance(o, Slots) and isinstance(k, (Var, Const)):
            return self.lists.index(c, o, k)
        out = super().index(c, o, k)
        if len(out) == 1:  # a lookup in a static table: the same keys give the item the clause already has
            c2, v = out[0]
            last = c2.body[-1] if len(c2.body) == len(c.body) + 1 else None
            if isinstance(v, Var) and isinstance(last, Atom) and last.args[-1] == v:
                same = self.known(c, last.relation, last.args[:-1])
                if same is not None:
                    return [(c, same)]
        return out

    @staticmethod
    def known(c: Clause, rel: str, keys: tuple) -> Term | None:
        """What the clause already holds for `keys` in `rel`, a relation with one value for its keys (an
        arithmetic, a list's static table, a function that reads no fluent): the same value is the same term.
        Morris's `Game.Seats[1 - Index()]`, read again after `them.Men -= 1`, is then the seat written, not maybe
        another one that a check of the men left would read before the write."""
        for x in c.body:
            if isinstance(x, Atom) and x.relation == rel and x.args[:-1] == keys:
                return x.args[-1]
        return None

    # ------------------------------------------------------------ joins
    def exits(self, clauses: list[Clause], live: set[str]) -> list[Clause]:
        """A loop's ways out in code that changes the game: one relation even alone (`cut`)."""
        return self.cut(clauses, "after", live)

    def cut(self, clauses: list[Clause], what: str, live: set[str], always: bool = False) -> list[Clause]:
        """`joined` with the events the clauses hold (`Record`s) taken apart into names of their own for the join,
        and put together again after it."""
        for c in clauses:
            _taken_apart(c, live)
        depth = {len(c.frames) for c in clauses}
        if always and depth != {0} and self.outer_frames and len(depth) == 1:
            # a loop in a listener run at its throw, or in a function called as a statement (hackenbush's `Prune`):
            # the callers' names ride through the loop's relation as names
            for c in clauses:
                for k, f in enumerate(c.frames):
                    c.env.update({f"#frame{k}:{n}": v for n, v in f.items()})
                c.frames = ()
        fixed = _same_consts(clauses) if always and self.outer_frames else {}
        first = clauses[0] if clauses else None
        out = self.joined(clauses, what, live, always)
        if always and first is not None and any(n.startswith(("#rec:", "#frame")) for n in first.env):
            # the head's names as horn's cut left them in the clause it joined, in its order: the passes back
            # come to the head with their events and frames taken apart alike (`loop_back`)
            self.head_names[out[0].body[0].relation] = [n for n in sorted(first.env)
                                                         if not isinstance(first.env[n], STATIC)]
        for i, c in enumerate(out):
            for n, k in fixed.items():  # a constant on every way in stays one (`this` of a listener)
                if isinstance(c.env.get(n), Var):
                    c = out[i] = c.bind(c.env[n], k)
            if always and depth != {0} and self.outer_frames and len(depth) == 1:
                frames = [{} for _ in range(next(iter(depth)))]
                for n in [n for n in c.env if n.startswith("#frame")]:
                    k, name = n[6:].split(":", 1)
                    frames[int(k)][name] = c.env.pop(n)
                c.frames = tuple(frames)
            self.put_together(c)
        return out

    def put_together(self, c: SegClause) -> None:
        """The events `_taken_apart` took apart in `c`'s names (and its frames'), records again."""
        for env in (c.env, *c.frames):
            for n, v in list(env.items()):
                if isinstance(v, Static) and isinstance(v.value, tuple) and v.value[:1] == ("#record",):
                    _, cls, names, thrown = v.value
                    cls = next(info for info in self.g.program.classes if info.name == cls)
                    env[n] = Record(cls, tuple((f, env.pop(f"#rec:{n}:{f}")) for f in names), thrown)

    def joined(self, clauses: list[Clause], what: str, live: set[str], always: bool = False) -> list[Clause]:
        """Clauses of the same shape (the same cells written, the same control, the same kinds of locals) as
        one relation of the terms they hold; clauses of other shapes go on apart. The way out of a loop is such
        a relation even alone: read as the loop's relation, it held every name the loop carried, and each rule
        of the code after the loop joined them all (Reversi's end phase read the flipping loop's eleven)."""
        if self.nested:
            if always:
                why = self._inlined_why()  # a pure function the rules with variables refused: what to rewrite
                raise Unsupported("a loop" + why if why else
                                  "a loop in a function that changes the game, called inside an expression")
            return clauses
        if always:  # a loop's head: horn's relation over the names in scope, which its passes come back to
            _no_checks(clauses)
            if any(c.store or c.frames or c.pending for c in clauses):
                raise Unsupported("a loop in code that changes the game")
            if len({c.control[1:] for c in clauses}) > 1:
                raise Unsupported("a loop entered in several phases")
            for c in clauses:
                c.env["#player"] = c.control[0]  # the mover, carried through the passes like a name in scope
                if "#this" in c.env and c.env["#this"] is None:
                    del c.env["#this"]  # phase code has no `this`: nothing to carry (read as None where absent)
            control = clauses[0].control[1:]
            return [SegClause(c.body, c.env, (), (c.env["#player"],) + control)
                    for c in super().cut(clauses, what, live, always)]
        for c in clauses:
            for n in [n for n in c.env if n not in live and not n.startswith("#")]:
                del c.env[n]
        if len(clauses) > 1:
            clauses = self.collapse(clauses)
            if self.uneven_unknown(clauses):
                clauses = self.taken_numbers(clauses)
        groups: dict[tuple, list[SegClause]] = {}
        for c in clauses:
            groups.setdefault(_shape(c), []).append(c)
        out = []
        for shape, cs in groups.items():
            if len(cs) == 1 and (what != "after" or not any(isinstance(x, Atom) and "|loop" in x.relation
                                                            for x in cs[0].body)):
                out.append(cs[0])
                continue
            passed = _passed_on(cs)
            terms = [_terms(c, passed) for c in cs]
            width = len(terms[0])
            keep = [k for k in range(width) if len({t[k] for t in terms}) > 1 or isinstance(terms[0][k], Var)]
            reread = {k: lit for k in keep if (lit := _read_again(cs, terms, k)) is not None}
            keep = [k for k in keep if k not in reread]
            # the object of a write that is `this` on every way is `this` after the join: one argument, so that
            # `promoted` and `padded` still find a write of `this` (hasami's count, after a direction's ways met)
            mine = _this_objects(cs[0], terms)
            same = {k: j for k, j in mine.items() if k in keep and j in keep}
            keep = [k for k in keep if k not in same]
            rel = f"{self.name}|{what}{next(self.points)}"
            for c, ts in zip(cs, terms):
                self.hf.rules.append(Rule(Atom(rel, tuple(ts[k] for k in keep)), tuple(c.body)))
            fresh = {k: self.var() for k in keep + list(reread)}
            fresh |= {k: fresh[j] for k, j in same.items()}
            new = [fresh.get(k, terms[0][k]) for k in range(width)]
            again = [Atom(lit.relation, lit.args[:-1] + (fresh[k],)) for k, lit in reread.items()]
            joined = _rebuilt(cs[0], new, [Atom(rel, tuple(fresh[k] for k in keep))] + again, passed)
            visits: dict = {}
            for c in cs:
                for k, n in c.visits:
                    visits[k] = max(n, visits.get(k, 0))
            joined.visits = tuple(sorted(visits.items()))
            out.append(joined)
        return out


def _shared_instances(segments: list[Rule], functions: list[Rule],
                      check: Callable[[], None] = lambda: None) -> tuple[list[Rule], list[Rule]]:
    """The rules with the instances of a function that read the same views (one context) and have the same rules
    made one, asked by all their call sites: chess's `CanMove` was three instances in a state's legal moves
    and checkmate test, 230 of the 2,600 atoms a state grounds. Each call site has its own instance so that
    a call's demand never depends on its own results (`HornCompiler.instance_name`): instances are made one
    only where the shared demand reads none of the shared instance's relations. Sound as an instance answers
    each row it is asked for whatever else is asked (one call site asks for many rows)."""
    rename = _shared_renaming(segments, functions, check)
    if not rename:
        return segments, functions
    return (list(dict.fromkeys(renamed(r, rename) for r in segments)),
            list(dict.fromkeys(renamed(r, rename) for r in functions)))


def _shared_renaming(segments: list[Rule], functions: list[Rule],
                     check: Callable[[], None] = lambda: None) -> dict[str, str]:
    """`_shared_instances`'s renaming of relations: what else reads the instances (the relaxation's probes)
    must read them under the same names."""
    own: dict[tuple[str, str], dict[str, list[Rule]]] = {}  # (function, context) -> site -> its rules
    for r in functions:
        parts = _instance_part(r.head.relation)
        if parts is not None and parts[2] != "call":
            fn, site, _, ctx = parts
            own.setdefault((fn, ctx), {}).setdefault(site, []).append(r)
    rename: dict[str, str] = {}
    rules = segments + functions
    for (fn, ctx), sites in sorted(own.items()):
        check()
        # each site's rules with its relations under one name: the same set where the instances are alike
        alike = {site: {renamed(r, _site_names(rs, fn, ctx, site, "")) for r in rs} for site, rs in sites.items()}
        order = sorted(sites, key=lambda site: (len(site), site))
        first = order[0]
        for site in order[1:]:
            if alike[site] != alike[first]:
                continue
            check()
            trial = dict(rename)
            trial.update(_site_names(rules, fn, ctx, site, first))
            if not _demand_reads_results(rules, trial, f"{fn}~{first}", ctx):
                rename = trial
    return rename


def _context_renaming(rules: list[Rule], twins: dict[str, str]) -> dict[str, str]:
    """Every instance relation of `rules` in a context of `twins`, to its name in the twin context."""
    out = {}
    for r in rules:
        for x in (r.head, *(a for a, _ in r.body_atoms())):
            parts = _instance_part(x.relation)
            if parts is not None and parts[3] in twins:
                fn, site, part, ctx = parts
                out[x.relation] = f"{fn}~{site}|{part}@{twins[ctx]}"
    return out


def _instance_part(rel: str) -> tuple[str, str, str, str] | None:
    """(function, site, part, context) of an instance's relation `function~site|part@context`."""
    if "~" not in rel or "|" not in rel or "@" not in rel:
        return None
    head, rest = rel.split("|", 1)
    fn, site = head.rsplit("~", 1)
    part, ctx = rest.rsplit("@", 1)
    return fn, site, part, ctx


def _site_names(rules: list[Rule], fn: str, ctx: str, site: str, to: str) -> dict[str, str]:
    """Every relation of instance `fn~site` in `ctx`, to its name in instance `fn~to`."""
    out = {}
    for r in rules:
        for x in (r.head, *(a for a, _ in r.body_atoms())):
            parts = _instance_part(x.relation)
            if parts is not None and parts[0] == fn and parts[1] == site and parts[3] == ctx:
                out[x.relation] = f"{fn}~{to}|{parts[2]}@{ctx}"
    return out


def _demand_reads_results(rules: list[Rule], rename: dict[str, str], instance: str, ctx: str) -> bool:
    """Whether, with `rename` applied, the demand of `instance` (its `call` relation) depends on a relation of
    the instance itself: one shared relation would then make a call's demand depend on its results. A function
    that reads no fluent (`@s`) is a table of every row the relaxation finds, which depends on nothing."""
    deps: dict[str, set[str]] = {}
    for r in rules:
        head = rename.get(r.head.relation, r.head.relation)
        if head.endswith("@s"):
            continue
        deps.setdefault(head, set()).update(rename.get(a.relation, a.relation) for a, _ in r.body_atoms())
    call = f"{instance}|call@{ctx}"
    mine = f"{instance}|"
    seen, todo = set(), [call]
    while todo:
        rel = todo.pop()
        for dep in deps.get(rel, ()):
            if dep.startswith(mine) and dep.endswith(f"@{ctx}") and dep != call:
                return True
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return False


def _written(clauses: list[SegClause], attr: str, head: str, changed: str, before: str) -> list[Rule]:
    """The rules of a view of `attr`: the values `clauses` (exclusive ways) wrote under their bodies, a later
    write to an object term that may be the same one winning (`distinct`), and the relation `before` (the
    previous view, or the state) on every object none of them changed."""
    out = []
    for c in clauses:
        entries = [(o, v) for a, o, v in c.store if a == attr]
        for k, (o, v) in enumerate(entries):
            later = [o2 for o2, _ in entries[k + 1:]]
            if o in later:
                continue
            guards = [Distinct(o, o2) for o2 in later if not (isinstance(o, Const) and isinstance(o2, Const))]
            out.append(Rule(Atom(head, (o, v)), tuple(c.body) + tuple(guards)))
        for o in dict.fromkeys(o for o, _ in entries):
            out.append(Rule(Atom(changed, (o,)), tuple(c.body)))
    o, v = Var("O"), Var("V")
    out.append(Rule(Atom(head, (o, v)), (Atom(before, (o, v)), Not(Atom(changed, (o,))))))
    return out


def _flat(c: SegClause, names: list[str]) -> SegClause:
    """`c` with its names as a loop's head `names` holds them: its events taken apart, its frames flattened where
    the head carries them (`SegmentCompiler.cut`)."""
    if not any(n.startswith("#rec:") or n.startswith("#frame") for n in names):
        return c
    c2 = c.copy()
    c2.frames = tuple(dict(f) for f in c.frames)
    _taken_apart(c2, set(names) | {n.split(":")[1] for n in names if n.startswith("#rec:")})
    if any(n.startswith("#frame") for n in names):
        for k, f in enumerate(c2.frames):
            c2.env.update({f"#frame{k}:{n}": v for n, v in f.items()})
        c2.frames = ()
    return c2


def _same_consts(clauses: list[SegClause]) -> dict[str, Const]:
    """The names no loop assigns (`this`, the callers' names) that hold one constant on every clause: a loop's
    relation would carry them as variables."""
    out = {}
    for n, v in clauses[0].env.items():
        if n.startswith(("#this", "#frame")) and isinstance(v, Const) and all(c.env.get(n) == v for c in clauses):
            out[n] = v
    return out


def _taken_apart(c: SegClause, live: set[str]) -> None:
    """The events in `c`'s names (and its frames'), each a Static of its class and attributes' names, its terms in
    names of their own (`#rec:name:attribute`), which joins carry as they carry any local (`put_together`). An event
    no code after reads is dropped."""
    for k, env in enumerate((c.env, *c.frames)):
        for n, v in list(env.items()):
            if not isinstance(v, Record):
                continue
            if k == 0 and n not in live and not n.startswith("#"):
                del env[n]
                continue
            env[n] = Static(("#record", v.cls.name, tuple(f for f, _ in v.fields), v.thrown))
            for f, t in v.fields:
                env[f"#rec:{n}:{f}"] = t


def _no_records(*terms):
    """`terms`, none of them an event (a record of values has no identity to compare)."""
    if any(isinstance(t, Record) for t in terms):
        raise Unsupported("an event compared")
    return terms


def _player(t: Term) -> int | None:
    if isinstance(t, Const) and t.name.startswith("#p:"):
        return int(t.name[3:])
    return None


def _shape(c: SegClause) -> tuple:
    def kind(v):
        return ("static", v) if isinstance(v, STATIC) else "term"
    return (tuple((n, kind(v)) for n, v in sorted(c.env.items(), key=lambda kv: kv[0])),
            tuple(tuple((n, kind(v)) for n, v in sorted(f.items())) for f in c.frames),
            tuple((a, o if isinstance(o, Const) else None) for a, o, _ in c.store),
            c.control[1:], c.pending, c.over is not None, tuple(k for k, _ in c.checks))


def _read_again(cs: list[SegClause], terms: list[list[Term]], k: int) -> Atom | None:
    """The literal that gives the `k`th term of every clause of a join, where it is the result of one call of a
    compiled function with constant arguments, the same in every clause (`(count player_0 ?b)`): read again after
    the join rather than carried by it (a function has one result a state). Reversi's end phase carried both disc
    counts through its join, every pair of them; read again, the comparisons of the counts share no variable
    with the rest of their rules (tgpl.lowering.independent). None where the term is not such a result."""
    found = None
    for c, ts in zip(cs, terms):
        v = ts[k]
        if not isinstance(v, Var) or sum(1 for t in ts if t == v) != 1:
            return None
        gives = [x for x in c.body if isinstance(x, Atom) and x.args and x.args[-1] == v
                 and "|result" in x.relation and all(isinstance(a, Const) for a in x.args[:-1])]
        if len(gives) != 1 or (found is not None and (gives[0].relation, gives[0].args[:-1])
                               != (found.relation, found.args[:-1])):
            return None
        found = gives[0]
    return found


def _passed_on(cs: list[SegClause]) -> bool:
    """Has a way of a join passed the turn to another player than the mover carried as a name since a loop
    (`#player`)? Then the join holds the player to move, as where no loop ran: else every way got the mover's
    (dots and boxes' `turn.pass()` after its count of boxes kept the turn where no box was closed)."""
    return any(c.control and "#player" in c.env and c.control[0] != c.env["#player"] for c in cs)


def _terms(c: SegClause, passed: bool = False) -> list[Term]:
    """The terms of a clause in the order of its shape (what a join relation holds); `passed`: the player to
    move too, where a loop carries the mover (`_passed_on`)."""
    if any(isinstance(v, Record) for e in (c.env, *c.frames) for v in e.values()):
        raise Unsupported("an event kept by ways that meet (a listener's event, or one not thrown yet, at a join)")
    out = [v for _, v in sorted(c.env.items(), key=lambda kv: kv[0]) if not isinstance(v, STATIC)]
    for f in c.frames:
        out += [v for _, v in sorted(f.items()) if not isinstance(v, STATIC)]
    for _, o, v in c.store:
        out += [o, v]
    if "#player" not in c.env or passed:  # in a loop the mover is a name in scope already (`SegmentCompiler.cut`)
        out.append(c.control[0] if c.control else NULL)
    out += [m for _, m in c.checks]
    return out


def _this_objects(c: SegClause, terms: list[list[Term]]) -> dict[int, int]:
    """The places in a join's terms (`_terms`) of the objects of writes that are `this` in every clause joined
    (`terms`, each clause's), each with the place of `this`."""
    names = [n for n, v in sorted(c.env.items(), key=lambda kv: kv[0]) if not isinstance(v, STATIC)]
    if "#this" not in names:
        return {}
    this = names.index("#this")
    first = len(names) + sum(1 for f in c.frames for v in f.values() if not isinstance(v, STATIC))
    objects = (first + 2 * k for k in range(len(c.store)))
    return {k: this for k in objects if all(ts[k] == ts[this] for ts in terms)}


def _rebuilt(c: SegClause, terms: list[Term], body: list[Literal], passed: bool = False) -> SegClause:
    if c.thrown:  # a face not read yet is a variable of random's move, which the join would rename away
        raise Unsupported("ways through an effect that meet before they read every die random threw")
    it = iter(terms)
    env = {n: (v if isinstance(v, STATIC) else next(it)) for n, v in sorted(c.env.items(), key=lambda kv: kv[0])}
    frames = tuple({n: (v if isinstance(v, STATIC) else next(it)) for n, v in sorted(f.items())} for f in c.frames)
    store = []
    for a, _, _ in c.store:
        o = next(it)
        store.append((a, o, next(it)))
    player = env["#player"] if "#player" in env and not passed else next(it)
    control = (player,) + tuple(c.control[1:]) if c.control else ()
    checks = tuple((k, next(it)) for k, _ in c.checks)
    return SegClause(body, env, tuple(store), control, c.pending, c.over, frames, checks=checks)




# ====================================================================== the game
def most_moves(program, universe) -> int:
    """The most ways one action offers to fill its inputs (the product of its inputs' candidates): what spelling
    out the moves one by one costs."""
    return max((action_ways(action, universe) for info in program.classes for action in info.actions.values()),
               default=0)


def all_moves(program, universe) -> int:
    """The ways all the actions together offer to fill their inputs: the moves spelling out runs one by one, each
    action's on its own (Checkers 6x6's `Step` and `Jump`, 1,296 each: 2,592 moves, 26,013 rules spelled out)."""
    return sum(action_ways(action, universe) for info in program.classes for action in info.actions.values())


def action_ways(action, universe) -> int:
    """The ways one object offers to fill the action's inputs: the product of its inputs' candidates."""
    ways = 1
    for inp in action.inputs:
        if inp.type.name == "player":
            ways *= universe.players
        elif inp.type.name == "bool":
            ways *= 2
        else:
            ways *= sum(1 for o in universe.objects if o.cls.name == inp.type.name
                        or any(a.name == inp.type.name for a in o.cls.ancestors()))
    return ways


def writes_in_loops(program) -> bool:
    """Does code that runs during play (actions, phases, turn defaults, and the functions they call) hold a loop
    that writes the state? Spelled out move by move, such a loop is run for every move, and each pass's writes
    are cases of the next pass's reads (Reversi 6x6: 37,000 rules in four minutes); compiled once, it is a few
    rules (`SegmentCompiler.writing_loop`, `unrolled`): what `auto` weighs besides the number of moves. An event's
    attribute set in a loop (`s.who = player` before `event.throw(s)`) is a value of the move, no state."""
    event = program.builtins.event

    def state(t: ast.Member) -> bool:
        info = getattr(program.types.get(id(t.obj)), "info", None)
        return info is None or not info.derives_from(event)
    return any(isinstance(n, (ast.For, ast.While)) and any(
        isinstance(m, ast.Assign) and isinstance(m.target, ast.Member) and state(m.target) for m in ast.walk([n.body]))
        for n in play_code(program))


def play_code(program):
    """Every node of the code that runs during play: the actions, the turns' phases and defaults, and the
    functions they call (overrides too; tgpl.frontend.after_setup.reachable)."""
    roots: list = [a for info in program.classes for a in info.actions.values()]
    roots += [t.defn for t in program.turns.values()]
    return reachable(program, roots)


def board_count_passes(program) -> int:
    """The most passes of a count in the code that runs during play: the product of the counted loops
    (`for (number i = 0; i < 24; i += 1)`, number literals for bounds) around a conditional step of a local number
    (`if (...) { n += 1; }`) and inside the local's declaration: Morris's men on the board, 24. Spelled out, such a
    count splits every move into a case for every way the cells it counts can be filled; compiled, it is a chain
    of rules. A count declared afresh inside loops counts only over the loops inside it: Teeko's four markers of a
    line (`number count = 0;` in the loop over directions, the step in the loop over the line's four cells, in
    loops over the 25 squares) counts over 4 passes, not 400 (tests/data/designers/teeko.tgpl: spelled out, 21 s
    of CPU and 538 rules; compiled for a count of 400, 50 s and 1,127 rules, most of it grounding the count's
    loop relation state by state in the validation)."""
    most = 0

    def visit(node, passes: int, declared: dict[str, int]) -> None:
        nonlocal most
        if isinstance(node, ast.For):
            counted = ast.counted_for(node)
            if counted is not None and isinstance(node.cond.right, ast.NumberLit):
                passes *= max(1, int(node.cond.right.value - counted[1]) + counted[2])
            elif _counted_from_an_expression(node):  # `y = x` to 5: at most the bound's passes, from 0
                passes *= max(1, int(node.cond.right.value) + (node.cond.op == "<="))
        elif isinstance(node, ast.VarDecl):
            declared[node.name] = passes
        elif isinstance(node, ast.If) and passes > 1:
            for name in _stepped_locals(node.then):
                most = max(most, passes // declared.get(name, 1))
        for child in ast.children(node):
            for c in child if isinstance(child, list) else [child]:
                if isinstance(c, ast.Node):
                    visit(c, passes, declared)

    for node in play_code(program):
        if isinstance(node, (ast.FunctionDef, ast.ActionDef, ast.PhaseDef, ast.TurnDef)):
            visit(node, 1, {})
    return most


def _counted_from_an_expression(s: ast.For) -> bool:
    """`for (number y = x; y < 5; y += 1)`: a counted loop to a number literal from a start that is not one (a
    triangle of cells, pairs `j = i + 1`), which `board_count_passes` counts as from 0."""
    init, cond, post = s.init, s.cond, s.post
    return (isinstance(init, ast.VarDecl) and init.init is not None and isinstance(cond, ast.Binary)
            and cond.op in ("<", "<=") and isinstance(cond.left, ast.Name) and cond.left.name == init.name
            and isinstance(cond.right, ast.NumberLit) and isinstance(post, ast.Assign) and post.op == "+="
            and isinstance(post.target, ast.Name) and post.target.name == init.name
            and isinstance(post.value, ast.NumberLit) and post.value.value == 1)


def _stepped_locals(block) -> set[str]:
    """The names `block` steps (`n += 1`), not as a loop's own step (`i += 1` after each pass)."""
    posts = {id(n.post) for n in ast.walk(block) if isinstance(n, ast.For)}
    return {n.target.name for n in ast.walk(block) if isinstance(n, ast.Assign) and n.op in ("+=", "-=")
            and isinstance(n.target, ast.Name) and id(n) not in posts}


@dataclass
class Fluent:
    obj: UObj
    attr: str
    type: object
    initial: object
    domain: list = field(default_factory=list)  # constants of the compiled rules

    @property
    def numeric(self) -> bool:
        return self.type == NUMBER


@dataclass
class Move:
    """A family of moves: one action of one or more objects, its inputs variables."""

    key: str  # internal: `does|<key>` and `legal|<key>`
    action: ast.ActionDef
    objects: list[UObj]


def changing_fields(program, universe, unread: frozenset[str]) -> dict[tuple[str, str], Fluent]:
    """(object, attribute) -> its Fluent, for every attribute of an object that code after setup writes (by name):
    the compiled game's state (raises Unsupported where one is a collection assigned whole or a built-in attribute),
    and the cells of each list of objects that the moves `add` to or `remove` from (tgpl.lowering.compiled_lists).
    The attributes named `unread`, which nothing reads, are not state (tgpl.lowering.unread, decision 109)."""
    written: set[str] = set()
    for n in after_setup_nodes(program):
        if isinstance(n, ast.Assign):
            t = n.target
            if (isinstance(t, ast.Member) or isinstance(t, ast.Name) and id(t) in program.implicit_this) \
                    and t.name not in unread:
                written.add(t.name)
        elif isinstance(n, ast.Call):
            # move_to()'s `tile` (`SegmentCompiler.move_to`), discard()'s `tile` and `discarded` (`discard`); pop() is
            # refused where a move meets it
            written |= builtin_writes(program, n) & {"tile", "discarded"}
    out = {}
    lists = changed_lists(program) - unread - written  # a list assigned whole stays refused below
    for o in universe.objects:
        for name in o.fields:
            if name in lists:
                out.update(_list_fluents(o, name, universe))
                continue
            if name not in written:
                continue
            found = o.cls.find_attribute(name)
            t = found[1] if found is not None else builtin_attribute_type(o.cls, name, program.builtins)
            if t is None:
                raise Unsupported(f"a built-in attribute '{name}' that changes")
            initial = o.fields[name]
            if isinstance(initial, (tuple, dict)) or isinstance(t, Collection):
                refused = Unsupported(f"a collection in the state ('{name}'): {rewrites.collection_hint()}")
                decl = found[0].attributes.get(name) if found is not None else None
                refused.span = decl.span if decl is not None else None  # where the designer declared it
                raise refused
            out[(o.name, name)] = Fluent(o, name, t, initial)
    return out


def _list_fluents(o: UObj, name: str, universe) -> dict[tuple[str, str], Fluent]:
    """The cells of object `o`'s list `name` that is state (tgpl.lowering.compiled_lists), as fluents."""
    found = o.cls.find_attribute(name)
    t = found[1] if found is not None else None
    if not isinstance(t, Collection) or not isinstance(o.fields[name], tuple):
        raise Unsupported(f"the list '{name}' of {o.name}, which the moves change")
    return {(o.name, attr): Fluent(o, attr, kind, initial)
            for attr, kind, initial in list_cells(o, name, t, o.fields[name], universe)}


class CompiledGame:
    """The segments of a game compiled once (see the module's docstring); `lowered()` gives its GDL."""

    def __init__(self, program, universe, kept: frozenset[int] | None = frozenset(), ranges: dict | None = None,
                 shapes: dict | None = None, limits: Limits | None = None):
        self.limits = limits if limits is not None else unlimited()  # the command's (tgpl.limits)
        self.program = program
        self.u = universe
        # the counters' values (`num|attr`, `over|attr` rows) as the same game with its checks where they run
        # has them: a check left to the next decision (the fifty-move rule) no longer bounds them in the segments
        self.ranges = ranges
        self.found: dict = {}  # the relaxation's last answer (`relax`)
        self.turns = {name: t.defn for name, t in program.turns.items()}
        self.unread = unread_attributes(program)  # written, never read: no state, writes dropped (decision 109)
        self.fluents = changing_fields(program, universe, self.unread.names)
        # the lists that are state, as their cells (tgpl.lowering.compiled_lists)
        self.lists = frozenset(found[0] for _, a in self.fluents if (found := list_cell(a)) is not None)
        self.numeric_attrs = {fl.attr for fl in self.fluents.values() if fl.numeric}
        # counters that count up to a bound the game tests, their steps made only below it (tgpl.lowering.saturate):
        # none at first, `saturable()` where the counters run past horn.BOUND (compile_game)
        self.saturated: dict[str, int] = {}
        self.guarded: set[int] = set()  # checks not asked where a way ended the game (`check_targets`)
        self.overflowing: set[str] = set()  # the counters the last relaxation saw run farthest past horn.BOUND
        self.bounds: list[int] = []  # the bounds the relaxations were grounded at, in order (`grounded`)
        # counters guessed to count the board (tgpl.lowering.board_count): read within their bound, the guess
        # proved on the rules made (compile_game)
        self.counted: dict[str, BoardCount] = {}
        self.flips: list[Flip] = []  # the writes of their fields, each asked on its own (`proved`)
        self.hc = HornCompiler(program, universe, set(self.fluents))
        self.hc.for_segments = True
        self.demand: set[tuple[str, int]] = set()
        self.moved: list[tuple[Rule, str]] = []  # a move's calls read from the legal moves' instances (`relaxed`)
        self.inlining: set[str] = set()
        # the functions inlined under way, innermost last: (name, why, definition)
        self.inlined: list[tuple[str, str, ast.FunctionDef]] = []
        self.choice = {c.name for c in program.builtins.player_choice.ancestors()}  # the events a move answers
        self.moves: dict[str, Move] = {m.key: m for m in self.move_families()}
        # the dice each move family throws as random's move (GDL-II, tgpl.lowering.chance): key -> sides, in the
        # order drawn. The move is two GDL steps, as spelled out: the player's move remembers itself (`pend|key`)
        # and hands control to random in the same phase; random's `(rollN f1 ... fN)` runs the effect (`segment`)
        # chance the compiled moves do not make is refused by `compile`, where every caller expects a refusal
        self.throws: dict[str, tuple[int, ...]] = {}
        self._dice_refused: Unsupported | None = None
        try:
            self.throws = self.dice()
        except Unsupported as e:
            self._dice_refused = e
        self.legal: list[Rule] = []  # internal names
        self.final: list[SegClause] = []  # the ways through every segment, waiting again or over
        self.phases: list[tuple[str, str]] = []  # (turn, phase) where a player chooses
        self.events = EventPlan(program, universe)  # events answered where they are thrown (`SegmentCompiler.throw`)
        self.sc = SegmentCompiler(self.hc, self)
        self.deferral = Deferral(self.hc, kept)  # `kept`: the checks compiled where they run (None: all of them)
        # a function's shape table (`guard`), and a loop's independence, ("footprint", its id) (`independent`)
        self._shapes: dict = {} if shapes is None else shapes
        self._loops: dict[int, LoopCode] = {}  # each loop's reads and writes, by its id (`loop`)

    def loop(self, s) -> LoopCode:
        """What loop `s` and the functions it calls read and write (tgpl.lowering.loop_code): asked by every way
        through it, of every segment that inlines it, walked once."""
        found = self._loops.get(id(s))
        if found is None:
            found = self._loops[id(s)] = loop_code(s, self.program, self.hc.types)
        return found

    # ------------------------------------------------------------ the state
    def saturable(self) -> dict[str, int]:
        """The counters that may be saturated (tgpl.lowering.saturate), each at most its bound after setup."""
        return {a: bound for a, bound in saturated_counters(self.program, self.numeric_attrs).items()
                if all(isinstance(fl.initial, (int, float)) and float(fl.initial).is_integer()
                       and fl.initial <= bound for fl in self.fluents.values() if fl.attr == a)}

    def countable(self, counters: set[str]) -> dict[str, BoardCount]:
        """The counters of `counters` that may count the board (tgpl.lowering.board_count)."""
        return board_counts(self.program, self.fluents, counters)

    def within(self, attr: str, rows: list[tuple]) -> list[tuple]:
        """A counter's (object, value) rows, those past its bound left out where it counts the board."""
        count = self.counted.get(attr)
        if count is None:
            return rows
        lo, hi = count.bound
        return [r for r in rows if r[1].name == "null" or lo <= float(r[1].name) <= hi]

    def uniform(self, attr: str) -> None:
        """An attribute read or written on an object known only at run time: a fluent of every object that has it."""
        for o in self.u.objects:
            if attr in o.fields and (o.name, attr) not in self.fluents:
                raise Unsupported(f"'{attr}' changes on some objects and not on others")

    def domain(self, fl: Fluent) -> list:
        t = fl.type
        if t == PLAYER:
            values = [None] + [float(i) for i in range(self.u.players)]
        elif t == BOOL:
            values = [False, True, None]
        elif isinstance(t, ClassType):
            values = [None] + [o for o in self.u.objects if o.is_a(t.info)]
        else:
            raise Unsupported(f"'{fl.attr}' of type {t}")
        if fl.initial not in values:
            values.append(fl.initial)
        return values

    def const(self, v, t=None) -> Const:
        return self.hc.const_of(v, player=t == PLAYER)

    # ------------------------------------------------------------ compiling
    def compile(self) -> None:
        if self._dice_refused is not None:
            raise self._dice_refused
        todo = [self.u.control[1:]]
        while todo:
            tp = todo.pop(0)
            if tp in self.phases:
                continue
            self.phases.append(tp)
            for c in self.segment(*tp):
                self.final.append(c)
                if c.over is None and c.control[1:] not in self.phases:
                    todo.append(c.control[1:])

    def move_families(self) -> list[Move]:
        """The actions a player may choose (triggered by PlayerChoiceEvent), each with the objects that have it."""
        groups: dict[int, Move] = {}
        for obj in self.u.objects:
            for action in actions_of(obj):
                if not any(t.event in self.choice for t in action.triggers):
                    continue
                m = groups.get(id(action))
                if m is None:
                    m = groups[id(action)] = Move(f"{action.name}{len(groups)}", action, [])
                m.objects.append(obj)
        return list(groups.values())

    def dice(self) -> dict[str, tuple[int, ...]]:
        """The sides of the dice each move family throws (`throws`); Unsupported for chance the compiled moves do
        not make: setup's dice or deals, deals from a deck, a die refused where it stands."""
        throws, refused = action_rolls(self.program)
        if refused:
            raise Unsupported(f"a roll() refused: {refused[0][1]}")
        if self.u.throws or self.u.deals:
            raise Unsupported("setup's dice or deals (random's first moves)")
        from tgpl.lowering.chance import phase_rolls
        in_phases = phase_rolls(self.program)[0]
        if in_phases:
            raise Unsupported.at(next(iter(in_phases.values())).dice[0].call.span,
                                 "dice thrown in a phase (random's move as the flow enters it) are lowered with the "
                                 "moves spelled out only (--moves spelled)")
        from tgpl.lowering.percepts import first_secret
        secret = first_secret(self.program)
        if secret is not None:  # tgpl.lowering.percepts writes them for spelled-out moves
            raise Unsupported.at(secret.span, "a game with secrets (its GDL-II percepts are written for spelled-out "
                                              "moves: `--moves spelled` or `auto` writes them)")
        out = {}
        for key, m in self.moves.items():
            t = throws.get(id(m.action))
            if t is None:
                continue
            if t.deals or t.entered:
                raise Unsupported("a deal from a deck (random's move over the deck's items)")
            out[key] = t.sides
        return out

    def face_table(self, sides: int) -> str:
        """The static table of a die's faces, 1 to `sides`: random's legal moves and what the effect reads."""
        return self.hc.static_table([(Const(str(k)),) for k in range(1, sides + 1)])

    def thrown(self, m: Move, turn: str, phase: str, inputs: list[Var]) -> SegClause:
        """Random's step after a move of `m` that throws dice: random to move in the move's phase, the move
        remembered (`pend|key`: the mover, the object, the inputs), random's move `roll|N` giving each die its
        face (a table of 1..sides). The clause carries the player's control, so that the effect runs as the
        mover's, and the faces it reads in order (`SegmentCompiler.roll`)."""
        sc = self.sc
        p, this = sc.var(), sc.var()
        sides = self.throws[m.key]
        faces = [sc.var() for _ in sides]
        body: list[Literal] = [Atom("#control", (Const("#" + RANDOM), Const(turn), Const(phase))),
                               Atom(f"pend|{m.key}", (p, this, *inputs)),
                               Atom(f"roll|{len(sides)}", (Const("#" + RANDOM), *faces))]
        env = {"#this": this}
        env.update({i.name: x for i, x in zip(m.action.inputs, inputs)})
        return SegClause(body, env, (), (p, turn, phase), thrown=tuple(zip(faces, sides)))

    def start(self, m: Move, turn: str, phase: str) -> SegClause:
        """A clause for the moves of `m` in (turn, phase): the mover, the object, bound by control and ownership."""
        sc = self.sc
        p = sc.var()
        body: list[Literal] = [Atom("#control", (p, Const(turn), Const(phase)))]
        if len(m.objects) == 1:
            this: Term = self.const(m.objects[0])
        else:
            this = sc.var()
        rows = []
        for o in m.objects:
            if o.cls.visibility == "global":
                rows += [(self.const(o), Const(f"#p:{i}")) for i in range(self.u.players)]
            else:
                rows += [(self.const(o), Const(f"#p:{int(x)}")) for x in o.owners]
        body.append(Atom(self.hc.static_table(rows), (this, p)))
        return SegClause(body, {"#this": this}, (), (p, turn, phase))

    def segment(self, turn: str, phase: str) -> list[SegClause]:
        sc = self.sc
        # the counters as the decision finds them: reads of the state, which `_with_legality` joins with the
        # move's require (Morris's `InHand > 0` before `InHand -= 1`), not of the views an earlier segment took
        # its numbers into (`taken_numbers`), which hold the state here anyway (their rules are that segment's)
        sc.latest = {a: m for a, m in sc.latest.items() if a not in self.numeric_attrs}
        clauses: list[SegClause] = []
        for m in self.moves.values():
            a = m.action
            c = self.start(m, turn, phase)
            p, this = c.control[0], c.env["#this"]
            inputs = []
            names = {i.name for i in a.inputs}
            legal = [c]  # a discarded object's actions are offered, as the runtime does: their requires say no
            for inp in a.inputs:
                modifier = inp.modifier if not inp.modifier.startswith("?") else "player"
                if modifier != "player" or inp.target is not None or inp.optional or inp.type.args:
                    raise Unsupported("inputs other than a value the mover picks")
                x = sc.var()
                inputs.append(x)
                legal = self.in_play([c2.plus(Atom(self.candidates(inp), (x,))) for c2 in legal], x, self.offered(inp))
                for c2 in legal:
                    c2.env[inp.name] = x
                for flt in inp.filters:
                    legal = self.holds(flt.body, legal, {flt.name or inp.name: x}, names)
            for req in a.requires:
                legal = self.holds(req.body, legal, {}, names)
            triggers = [t for t in a.triggers if t.event in self.choice]
            legal = self.holds(triggers[0].body, legal, {}, names)
            for c2 in legal:  # the mover, the object and the inputs as the clause holds them after its joins
                head = Atom(f"legal|{m.key}", (c2.control[0], c2.env["#this"], *(c2.env[i.name] for i in a.inputs)))
                self.legal.append(Rule(head, tuple(c2.body)))
            # the effect
            env = {"#this": this}
            env.update({i.name: x for i, x in zip(a.inputs, inputs)})
            go = SegClause([Atom("#control", (p, Const(turn), Const(phase))), Atom(f"does|{m.key}", (p, this, *inputs))],
                           env, (), (p, turn, phase))
            if a.effect is None:
                clauses.append(go)
                continue
            if m.key in self.throws:
                if not legal:  # never legal in this phase: no step of random's here
                    continue
                # the player's move hands control to random, the move remembered (`Emission`: `pend|key`'s next)
                clauses.append(SegClause(go.body, {"#this": None}, (), (Const("#" + RANDOM), turn, phase)))
                go = self.thrown(m, turn, phase, [sc.var() for _ in inputs])
            sc.acting = m
            sc.outer.append(a.effect.body)
            try:
                flow = sc.block(a.effect.body.body, [go], set())
            finally:
                sc.acting = None
                sc.outer.pop()
            ways = flow.going + [x for x, _ in flow.returns]
            if any(c.thrown for c in ways):
                raise Unsupported("a way through the effect that reads fewer dice than random threw")
            clauses += ways
        out = self.enter_phases(clauses)
        if any(c.thrown for c in out):
            raise Unsupported("a way through the effect that reads fewer dice than random threw")
        return out

    def in_play(self, clauses: list[SegClause], o: Term, objects: list[UObj]) -> list[SegClause]:
        """`clauses` where `o` (an input, one of `objects`) is not discarded before the move: the runtime offers an
        input no discarded object, and discard() (`SegmentCompiler.discard`) makes `discarded` state.
        Where none of `objects` can be discarded, the clauses as they are (the candidates' tables leave out what
        setup discarded)."""
        if not any((obj.name, "discarded") in self.hc.fluent_cells for obj in objects):
            return clauses
        latest, self.sc.latest = self.sc.latest, {}  # the state before the move, whatever effects came before
        try:
            read = [x for c in clauses for x in self.sc.member(c, o, "discarded")]
        finally:
            self.sc.latest = latest
        return [c2 for c, v in read for c2 in [self.sc.differ(c, v, YES)] if c2 is not None]

    def offered(self, inp: ast.InputDecl) -> list[UObj]:
        """The objects an input of a class may be (none for a player or a bool)."""
        info = self.hc.class_info(inp.type) if inp.type.name not in ("player", "bool") else None
        return [o for o in self.u.objects if o.is_a(info)] if info is not None else []

    def candidates(self, inp: ast.InputDecl) -> str:
        ref = inp.type
        if ref.name == "player":
            rows = [(Const(f"#p:{i}"),) for i in range(self.u.players)]
        elif ref.name == "bool":
            rows = [(Const("no"),), (Const("yes"),)]
        else:
            info = self.hc.class_info(ref)
            if info is None:
                raise Unsupported(f"inputs of type {ref.name}")
            rows = [(self.const(o),) for o in self.u.objects if o.is_a(info) and not o.fields.get("discarded", False)]
        return self.hc.static_table(rows)

    def holds(self, body: ast.Block, clauses: list[SegClause], scope: dict, keep: set[str]) -> list[SegClause]:
        """The clauses in which a read-only block (a filter, a require, a trigger) returns true; the names in
        `keep` (the inputs) stay in scope through its joins."""
        for c in clauses:
            c.env.update(scope)
        ended = len(self.sc.ended)  # the effects of the moves compiled before may have ended the game already
        latest, self.sc.latest = self.sc.latest, {}  # the state before the move, whatever effects came before
        self.sc.moving = False
        try:
            flow = self.sc.block(body.body, [c.copy() for c in clauses], set(keep))
        finally:
            self.sc.latest = latest
            self.sc.moving = True
        out = []
        for c, v in flow.returns:
            if c.store or c.pending or c.control[1:] != clauses[0].control[1:]:
                raise Unsupported("a filter, require or trigger that changes the game")
            yes = self.sc.unify(c, v, YES)
            if yes is not None:
                out.append(yes)
        if len(self.sc.ended) > ended:
            raise Unsupported("a filter, require or trigger that ends the game")
        return out

    def enter_phases(self, clauses: list[SegClause]) -> list[SegClause]:
        """The runtime's flow after a move: each clause that passed control enters its phase, until all wait."""
        sc = self.sc
        for _ in range(FLOW_LIMIT):
            entering = [c for c in clauses if c.pending]
            if not entering:
                ended, sc.ended = sc.ended, []
                return clauses + ended
            out = [c for c in clauses if not c.pending]
            by_phase: dict[tuple, list[SegClause]] = {}
            for c in entering:
                by_phase.setdefault(c.control[1:], []).append(c)
            for (turn, phase), cs in by_phase.items():
                phase_def = ast.phase_named(self.turns.get(turn), phase)
                for c in cs:
                    c.pending = False
                    c.env, c.frames = {"#this": None}, ()
                if phase_def is None:
                    out += cs
                    continue
                if any(isinstance(i, ast.InputDecl) for i in phase_def.items):
                    raise Unsupported("phases with inputs")
                body = ast.phase_body(phase_def)
                sc.outer.append(body)
                try:
                    flow = sc.block(body.body, cs, set())
                finally:
                    sc.outer.pop()
                out += flow.going + [x for x, _ in flow.returns]
            clauses = out
        raise Unsupported(f"control passed {FLOW_LIMIT} times without waiting for a player")

    # ------------------------------------------------------------ the rules, relaxed
    def instances(self) -> list[Rule]:
        """The rules of every compiled function demanded, once per context (the views its reads go through) and
        call site (`HornCompiler.instance_name`)."""
        hc = self.hc
        todo = sorted(self.demand, key=str)
        seen: list[tuple[str, int]] = []
        while todo:
            name, ctx = todo.pop()
            if (name, ctx) in seen:
                continue
            seen.append((name, ctx))
            todo.extend((k, ctx) for k in sorted(hc.functions[name.split("~")[0]].sites))
        mappings = self.mappings()
        out = []
        for name, ctx in sorted(seen, key=str):
            key = name.split("~")[0]
            c = "s" if not horn._reads_fluents(hc, key, set()) else ctx
            mapping = mappings.get(ctx, {})

            def rename(x):
                if isinstance(x, Not):
                    return Not(rename(x.literal))
                if not isinstance(x, Atom):
                    return x
                rel = x.relation
                if "|" in rel:
                    fn, part = rel.split("|", 1)
                    if "@" not in part:
                        static_fn = not horn._reads_fluents(hc, fn.split("~")[0], set())
                        rel = f"{name if fn == key else fn}|{part}@{'s' if static_fn else c}"
                elif rel.startswith("#read:"):
                    rel = mapping.get(rel[6:], rel)
                return Atom(rel, x.args, x.span)
            for r in hc.functions[key].rules:
                out.append(Rule(rename(r.head), tuple(rename(x) for x in r.body)))
        return list(dict.fromkeys(out))

    def mappings(self) -> dict[int, dict[str, str]]:
        """Per context: attribute -> the relation its reads go through (a view; else the state, `#read:attr`)."""
        return {ctx: dict(m for m in mapping if m[0] not in (_SITE, _MOVING))
                for mapping, ctx in self.sc.contexts.items()}

    def guard(self, segments: list[Rule], functions: list[Rule]) -> tuple[list[Rule], list[Rule]]:
        """The compiled functions asked only where they can hold (tgpl.lowering.shapes): chess's `CanMove`.

        A boolean function the segments call, which calls functions of the state in turn, gets the table of
        where it can be true. Where every caller of an instance only asks for true (`(canmove ?f ?t yes)`, or
        its negation), the instance is asked only inside the table: its demand reads the split's value and
        the table. Else its rules run only inside the table, and outside it the instance answers false at once.
        """
        hc = self.hc
        # per attribute of the state: each value its fluents can hold, by its constant (one attribute holds one
        # type of value, so the constants tell values apart as the runtime does)
        consts: dict[str, dict] = {}
        for fl in self.fluents.values():
            if not fl.numeric:
                consts.setdefault(fl.attr, {}).update((self.const(v, fl.type), v) for v in self.domain(fl))
        domains = {attr: list(values.values()) for attr, values in consts.items()}
        called = {prefix(r.head.relation) for r in segments if r.head.relation.split("|")[1].startswith("call@")}
        tables: dict[str, tuple[str, str] | None] = {}
        for inst in sorted(called):
            key = inst.split("~")[0]
            hf = hc.functions.get(key)
            if key in tables or hf is None or hf.returns != "bool" or not hf.source:
                continue
            tables[key] = None
            if not any(horn._reads_fluents(hc, k, set()) for k in hf.calls):
                continue  # nothing the table would spare
            if key not in self._shapes:
                self._shapes[key] = shape_table(hc, *hf.source, domains, self.limits.check)
            shape = self._shapes[key]
            if shape is None or shape.split is None:
                continue
            const = {v: c for c, v in consts[shape.split].items()}  # the split's values as constants
            rows = sorted(((const[row[0]], *map(hc.const_of, row[1:])) for row in shape.rows), key=str)
            tables[key] = (shape.split, hc.static_table(rows))
        if not any(tables.values()):
            return segments, functions
        mappings = self.mappings()
        rules = segments + functions
        instances = {(prefix(rel), rel.rsplit("@", 1)[1]) for r in functions
                     for rel in [r.head.relation] if "|" in rel and "@" in rel}
        # what the callers of each instance ask of its result: the last arguments of its positive literals
        asked: dict[str, set] = {}
        for r in rules:
            for x in r.body:
                if isinstance(x, Atom) and "|result@" in x.relation:
                    asked.setdefault(x.relation, set()).add(x.args[-1])
        extra: list[Rule] = []
        renamed: dict[str, str] = {}  # the demand a function-level guard puts its own rules under
        restricted: dict[str, tuple[str, str]] = {}  # demand relation -> (read relation, table) at call sites
        for inst, ctx in sorted(instances):
            found = tables.get(inst.split("~")[0])
            if not found:
                continue
            split, table = found
            read = mappings.get(int(ctx), {}).get(split, read_rel(split)) if ctx.isdigit() else read_rel(split)
            call, result = f"{inst}|call@{ctx}", f"{inst}|result@{ctx}"
            n = len(hc.functions[inst.split("~")[0]].params)
            args = tuple(Var(f"P{i}") for i in range(n))
            k = Var("Guard")
            if asked.get(result, set()) <= {YES}:
                restricted[call] = (read, table)
                continue
            go = f"{inst}|go@{ctx}"
            renamed[call] = go
            extra.append(Rule(Atom(go, args), (Atom(call, args), Atom(read, (args[0], k)), Atom(table, (k,) + args))))
            extra.append(Rule(Atom(result, args + (Const("no"),)),
                              (Atom(call, args), Atom(read, (args[0], k)), Not(Atom(table, (k,) + args)))))

        def guarded(r: Rule) -> Rule:
            # an instance's demand is in the bodies of its own rules only (those of its callers' demands too)
            body = tuple(Atom(renamed[x.relation], x.args) if isinstance(x, Atom) and x.relation in renamed else x
                         for x in r.body) if renamed else r.body
            site = restricted.get(r.head.relation)
            if site is not None:
                read, table = site
                k = Var("Guard")
                body = body + (Atom(read, (r.head.args[0], k)), Atom(table, (k,) + r.head.args))
            return r if body == r.body else Rule(r.head, body)
        return [guarded(r) for r in segments], [guarded(r) for r in functions] + extra

    def internal(self, x):
        """A literal of the segments' rules with static fields named as the tables they are."""
        if isinstance(x, Not):
            return Not(self.internal(x.literal))
        if isinstance(x, Atom) and x.relation.startswith("#read:") and x.relation[6:] not in self.hc.fluent_attrs:
            return Atom("#field:" + x.relation[6:], x.args)
        return x

    def relax(self, rules: list[Rule], functions: list[Rule], parts: tuple[str, ...] = ("numbers", "rest")) -> dict:
        """One relaxation of every rule (tgpl.lowering.horn): every fluent read any value of its domain, the moves
        any the relaxed filters allow, a counter every value the ways that do not end the game write. Gives the
        tables (arithmetic, comparisons, static functions), the moves that can ever be legal, the counters'
        ranges and the results the segments can reach. `functions`: the compiled functions' rules
        (the others are the segments'); `parts`: the counters' relaxation ("numbers"), the other ("rest")."""
        facts: dict[str, list[tuple]] = {}
        for (obj, attr), fl in self.fluents.items():
            rel = read_rel(attr)
            if fl.numeric:
                facts.setdefault(rel, []).append((self.const(fl.obj), self.const(fl.initial)))
            else:
                facts.setdefault(rel, []).extend((self.const(fl.obj), self.const(v, fl.type)) for v in self.domain(fl))
        facts["#control"] = [(Const(f"#p:{i}"), Const(t), Const(ph)) for i in range(self.u.players)
                             for t, ph in self.phases]
        if self.throws:  # random to move after a move that throws dice, in the move's phase
            facts["#control"] += [(Const("#" + RANDOM), Const(t), Const(ph)) for t, ph in self.phases]
        for attr, count in self.counted.items():  # what `probes` reads a counting counter back within
            facts["#bound:" + attr] = [(Const(str(k)),) for k in range(count.bound[0], count.bound[1] + 1)]
        rx = self.relaxation(rules, functions)
        relaxed, numeric = rx.relaxed, rx.numeric
        self._static_facts(facts, relaxed)
        found: dict[str, list[tuple]] = {}
        for (obj, attr), fl in self.fluents.items():
            if fl.numeric:
                facts.setdefault(f"#objects:{attr}", []).append((self.const(fl.obj),))
        for part in parts:
            if part == "numbers" and not self.numeric_attrs:
                continue
            if part == "numbers" and self.ranges is not None:
                # the counters read the values the same game with its checks where they run finds them to take,
                # which nothing here would bound (the check that does is asked at the next decision)
                for (obj, attr), fl in self.fluents.items():
                    if fl.numeric:
                        values = {r for rel in ("num|" + attr, "over|" + attr) for r in self.ranges.get(rel, [])
                                  if r[0] == self.const(fl.obj)} | {(self.const(fl.obj), self.const(fl.initial))}
                        facts[read_rel(attr)] = [r for r in facts.get(read_rel(attr), []) if r[0] != self.const(fl.obj)]
                        facts[read_rel(attr)] += self.within(attr, sorted(values, key=str))
            if part == "rest":  # the counters read every value the first relaxation found them to take
                for (obj, attr), fl in self.fluents.items():
                    if fl.numeric:
                        values = {r for rel in ("num|" + attr, "over|" + attr) for r in found.get(rel, [])
                                  if r[0] == self.const(fl.obj)} | {(self.const(fl.obj), self.const(fl.initial))}
                        facts[read_rel(attr)] = [r for r in facts.get(read_rel(attr), []) if r[0] != self.const(fl.obj)]
                        facts[read_rel(attr)] += self.within(attr, sorted(values, key=str))
            kinds = ("num", "over") if part == "numbers" else ("legal", "result", "check")
            rules = self.part_rules(rx, part)
            defined = {r.head.relation for r in rules}
            rules = [r for r in rules if all(x.relation in defined for x in r.body
                                             if isinstance(x, Atom) and "|" in x.relation)]  # else never true
            whole = {r.head.relation for r in rules if prefix(r.head.relation) in kinds}
            wanted = {("overflow", 1), horn.INEXACT} | horn._tables_wanted(rules)
            wanted |= {(horn._asp_name(r.head.relation), len(r.head.args)) for r in rules if r.head.relation in whole}
            sliced = horn._numeric_slice(rules, whole, self.limits.check)
            model = self.laddered(sliced, facts, wanted, numeric, whole,
                                  part == "numbers" and _compares_values(sliced))
            for rel, n in ({(r.head.relation, len(r.head.args)) for r in rules if r.head.relation in whole}
                           | {(x.relation, len(x.args)) for r in rules for x in r.body
                              if isinstance(x, Atom) and horn._is_table(x.relation)}):
                rows = found.setdefault(rel, [])
                rows.extend(model.get((horn._asp_name(rel), n), []))
        found.update(self.exact_tables(functions, facts, found))
        self.found = {rel: list(dict.fromkeys(rows)) for rel, rows in found.items()}
        return self.found

    def follows_results(self, probes: list[Rule], ranging: bool = False) -> None:
        """Raises Unsupported, located, where the counters' part of the relaxation would be left with a test of a
        compiled function's result that reads counters (tgpl.lowering.counted_results): what `lowered` refuses
        before grounding, asked of the same rules without grounding them, by the dry run, which runs no
        relaxation. `probes`: as `lowered` takes them, before the segments are collapsed (which is done). The
        rules are those `lowered` relaxes first (`relaxed_input`, moving), or, where `ranging`, those
        `counter_ranges` relaxes: the same options, so that the two never answer apart."""
        if not self.numeric_attrs:
            return
        probes = list(probes)
        for c in self.final:
            for k, mover in c.checks:
                probes.append(Rule(Atom(f"check|{k}", (c.control[0], mover)), tuple(c.body)))
        parts = ("numbers",) if ranging else ("numbers", "rest")
        segments, functions, probes, _ = self.relaxed_input(probes, parts=parts, moving=not ranging)
        self.part_rules(self.relaxation(segments + probes, functions), "numbers")

    def relaxation(self, rules: list[Rule], functions: list[Rule]) -> Relaxation:
        """The rules of the relaxation (`relax`): the segments' `rules` and the compiled `functions`' relaxed,
        the moves made of the legal ones, random's throws; and what its two parts tell apart."""
        def relaxed_rules(rs: list[Rule]) -> list[Rule]:
            # a view, relaxed, holds what the state can: every value of the attribute's domain (no rules); and
            # no negation, as GDL's base/input check relaxes a game (tgpl.asp.declared): the moves and values
            # found here must include every one it can find
            return [Rule(_relaxed(self.internal(r.head)),
                         tuple(_relaxed(self.internal(x)) for x in r.body if not isinstance(x, Not)))
                    for r in rs if prefix(r.head.relation) not in VIEWS]
        inside = set(relaxed_rules(functions))  # the compiled functions' rules, relaxed
        fixed = {x.relation[6:] for r in rules for x in r.body if isinstance(x, Atom)
                 and x.relation.startswith("#read:") and x.relation[6:] not in self.hc.fluent_attrs}
        rules = _with_legality(rules, self.numeric_attrs, fixed)  # the static fields' reads as they are
        relaxed = list(dict.fromkeys(relaxed_rules(rules) + relaxed_rules(functions)))
        for m in self.moves.values():
            n = len(m.action.inputs) + 2
            xs = tuple(Var(f"A{i}") for i in range(n))
            relaxed.append(Rule(Atom(f"does|{m.key}", xs), (Atom(f"legal|{m.key}", xs),)))
            if m.key in self.throws:  # the move random throws after: remembered as it was legal
                relaxed.append(Rule(Atom(f"pend|{m.key}", xs), (Atom(f"legal|{m.key}", xs),)))
        if self.throws:  # random's moves: any faces of the largest die
            table = self.face_table(max(max(sides) for sides in self.throws.values()))
        for n in sorted({len(sides) for sides in self.throws.values()}):
            faces = tuple(Var(f"F{i}") for i in range(n))
            relaxed.append(Rule(Atom(f"roll|{n}", (Const("#" + RANDOM), *faces)),
                                tuple(Atom(table, (f,)) for f in faces)))
        # two relaxations: the counters' values apart from everything else. Carried together through the
        # relations of a segment, a counter's every value would multiply every move (chess: 9 million rows)
        numeric = _numeric_literals(relaxed, self.numeric_attrs)
        fed_back = {read_rel(a) for a in self.numeric_attrs}  # the probes reading back what the ways write
        results = {r.head.relation for r in inside}  # what the segments read of the compiled functions
        counting = _counting_functions(relaxed, inside, numeric)
        # a counter written where nothing left in the slice says which object's: every object's (`_without`)
        domains = {(f"{kind}|{attr}", 0): f"#objects:{attr}" for kind in ("num", "over") for attr in self.numeric_attrs}
        return Relaxation(relaxed, inside, numeric, fed_back, results, counting, domains)

    def part_rules(self, rx: Relaxation, part: str) -> list[Rule]:
        """The rules of one part of the relaxation (`relax`): the counters' ("numbers") or the other ("rest"),
        each without what that part does not follow (`_without`). Raises Unsupported, located, where the counters'
        part is left with a test of a compiled function's result it takes as anything (`unfollowed_result`)."""
        kinds = ("num", "over") if part == "numbers" else ("legal", "result", "check")
        relaxed, inside, numeric, counting, results = rx.relaxed, rx.inside, rx.numeric, rx.counting, rx.results
        rules = []
        for r in relaxed:
            kind = prefix(r.head.relation)
            if kind in ("num", "over", "result", "check") and kind not in kinds and not (
                    part == "numbers" and kind == "result"):  # a way that ends the game compares counters too
                continue
            if self.ranges is not None and r.head.relation in rx.fed_back:
                continue  # the counters' reads are the given values
            if part == "numbers" and (r in inside or "|call@" in r.head.relation) \
                    and prefix(r.head.relation) not in counting:
                continue  # the compiled functions and their demand: their results are taken as anything
            rules.append(r)

        feeding = _feeding_literals(rules, numeric, self.numeric_attrs) if part == "numbers" else set()

        def dropped(x, r, part=part):
            if isinstance(x, Atom) and x.relation in horn.BUILTIN_TABLES:
                if part == "numbers":  # a counting function's own arithmetic too: its rows whole
                    return id(x) not in numeric | feeding and prefix(r.head.relation) not in counting \
                        and not _fixed_test(x, r)
                # a compiled function's comparisons of a counter are worked out here, with its whole range
                return id(x) in numeric and r not in inside
            return part == "numbers" and isinstance(x, Atom) and x.relation in results \
                and prefix(x.relation) not in counting
        kept = _without(rules, dropped, rx.domains, self.limits.check)
        if part == "numbers":
            unfollowed = unfollowed_result(rules, kept, dropped, list(inside), set(self.numeric_attrs))
            if unfollowed is not None:
                raise unfollowed
        return kept

    def laddered(self, sliced: list[Rule], facts: dict[str, list[tuple]], wanted: set[tuple[str, int]],
                 numeric: set[int], whole: set[str], compares: bool) -> dict:
        """The model of the relaxation of the rules `sliced`, grounded at each bound of `rungs.rungs()` in turn
        until it closes without overflow (then it is the model at horn.BOUND: tgpl.lowering.rungs), or is
        refused (`grounded`): a counter that nothing bounds is refused at the first bound it passes where
        it is proven to pass every bound, not after a grounding up to horn.BOUND. `compares`: its counters are
        compared with each other (`overflow_first`, asked first at each bound)."""
        for bound in rungs.rungs():
            self.before_rung(bound)
            if compares and self.overflow_first(sliced, facts, numeric, whole, bound) is None:
                continue
            model = self.grounded(sliced, facts, wanted, numeric, whole, bound)
            if model is not None:
                return model
        raise AssertionError("at horn.BOUND, `grounded` gives the model or refuses")

    def before_rung(self, bound: int) -> None:
        """Called before the relaxation is grounded at `bound` (`laddered`): the dry run stops past its own bound
        (tgpl.lowering.dry_ranges)."""

    def grounded(self, sliced: list[Rule], facts: dict[str, list[tuple]], wanted: set[tuple[str, int]],
                 numeric: set[int], whole: set[str], bound: int, inline: bool = False) -> dict | None:
        """The model of the relaxation of the rules `sliced` on `facts`, its numbers within `bound`
        (`horn._relaxed_program`, `inline` there), refused where a rule is unsafe, a division inexact, or a
        number grows past horn.BOUND (`unbounded` says which counter and where). Below horn.BOUND, where a
        number grows past `bound`, None (the next bound is to be tried), unless some counter `unbounded` names
        is proven to grow past every bound (`runaways`) and no division was found inexact (the model at
        horn.BOUND may find another first): refused then as at horn.BOUND, naming the proven counters (one a
        test bounds may reach this bound too: Oware's `Moves`, ending at 40), with the values reached so far."""
        self.bounds.append(bound)
        program = horn._relaxed_program(sliced, facts, inline=inline, bound=bound)
        try:  # clingo's grounding cannot be interrupted: left behind past the limits (tgpl.limits.outside)
            model = outside(lambda: horn._model(program, wanted), self.limits)
        except RuntimeError as e:  # a rule the slice left unsafe: refused (spelled out by `auto`), not guessed
            raise horn.relaxation_refused(sliced, numeric, str(e)) from None
        overflow = bool(model.get(("overflow", 1)))
        proven = None  # the counters named, where the refusal comes below horn.BOUND
        if overflow and bound < horn.BOUND:
            if model.get(horn.INEXACT):
                return None
            self.unbounded(model, whole)  # the counters it would name (`overflowing`)
            proven = self.overflowing & self.runaways(sliced, facts, bound, inline) if self.overflowing else set()
            if not proven:
                return None
        refused = horn.inexact_division(model)
        if refused is not None:
            raise refused
        if overflow:
            why, span = self.unbounded(model, whole, proven)
            e = Unsupported(f"numbers grow past {horn.BOUND} with every fluent relaxed: " + why)
            e.span = span
            e.overflow = self.overflowing  # compile_game tries again with these saturated, where they can be
            raise e
        return model

    def runaways(self, sliced: list[Rule], facts: dict[str, list[tuple]], bound: int, inline: bool) -> set[str]:
        """The counters the relaxation of `sliced` is proven to carry past every bound (tgpl.lowering.rungs),
        found by grounding it again at `bound` with the rules that follow their values (`rungs.shadows`)."""
        attrs = set(self.numeric_attrs)
        shadows = rungs.shadows(sliced, attrs)
        wanted = {(horn._asp_name(rungs.proof_relation(a)), 0) for a in attrs}
        program = horn._relaxed_program(sliced + shadows, facts, inline=inline, bound=bound)
        try:
            model = outside(lambda: horn._model(program, wanted), self.limits)
        except RuntimeError:  # a shadow the grounding does not take: nothing proven
            return set()
        return {a for a in attrs if model.get((horn._asp_name(rungs.proof_relation(a)), 0))}

    def overflow_first(self, sliced: list[Rule], facts: dict[str, list[tuple]], numeric: set[int],
                       whole: set[str], bound: int) -> dict | None:
        """Refuses a counters' relaxation that grows past horn.BOUND before grounding its comparisons' tables:
        where two counters are compared with each other (`mine > theirs` where the game ends), the tables hold
        every pair of their values, a million rows a comparison at the bound (a counter that nothing bounds,
        dots and boxes' `Boxes`: 2.6 GB of grounding before the overflow was seen). The comparisons tested in
        the rules instead give the same model but for those tables (`horn._relaxed_program`, `inline`), and the
        ways that end the game are left out, which no rule reads (their `over` values and results, where the
        pairs are still a million rules' instances): what is left holds the same rows, so a number it finds
        past the bound, the whole relaxation finds too. Where it finds none, the whole relaxation is made.
        At `bound` (`laddered`): None where its numbers pass it, and it is not refused (`grounded`)."""
        read = {x.relation for r in sliced for x in r.body if isinstance(x, Atom)}
        going = [r for r in sliced if prefix(r.head.relation) not in ("over", "result") or r.head.relation in read]
        wanted = {("overflow", 1), horn.INEXACT}
        wanted |= {(horn._asp_name(r.head.relation), len(r.head.args)) for r in going if r.head.relation in whole}
        return self.grounded(going, facts, wanted, numeric, whole, bound, inline=True)

    def exact_tables(self, functions: list[Rule], facts: dict[str, list[tuple]], found: dict[str, list[tuple]]
                     ) -> dict[str, list[tuple]]:
        """The rows of the compiled functions that read no state (their `@s` relations, written as tables),
        where a rule of theirs reads one under `not`: the relaxation drops every `not`, which for these would
        make a table hold a row the function never gives (a search over a tile's connections answering `no`
        where it also answers `yes`). They are worked out again, exactly: their rules with their negations,
        on the static facts and the calls the relaxation found (a superset: a row of a call never made is a
        true row). Stratified negation over facts has one model; anything else is refused."""
        static = [Rule(self.internal(r.head), tuple(self.internal(x) for x in r.body))
                  for r in functions if r.head.relation.endswith("@s")]
        if not any(isinstance(x, Not) for r in static for x in r.body):
            return {}
        calls = {r.head.relation for r in static if "|call@" in r.head.relation}
        calls |= {x.relation for r in static for x in r.body if isinstance(x, Atom) and "|call@" in x.relation}
        given = dict(facts)
        for rel in calls:
            given[rel] = list(found.get(rel, []))
        rules = [r for r in static if r.head.relation not in calls]
        wanted = {(horn._asp_name(r.head.relation), len(r.head.args)) for r in rules}
        program = horn._relaxed_program(rules, given)
        self.limits.check()
        try:
            model = outside(lambda: horn._only_model(program, wanted), self.limits)
        except RuntimeError as e:
            raise horn.relaxation_refused(rules, set(), str(e), "the tables of the functions that read no state") \
                from None
        if model is None:
            raise Unsupported("the functions that read no state depend on themselves through `not`")
        return {r.head.relation: model.get((horn._asp_name(r.head.relation), len(r.head.args)), [])
                for r in rules}

    def unbounded(self, model: dict, whole: set[str], among: set[str] | None = None) -> tuple[str, object]:
        """What a relaxation past horn.BOUND says of its cause, and where: the counters whose values it found
        reaching farthest (of those `among`, where given: those proven to run away below horn.BOUND, where a
        counter a test bounds may still reach as far), located at the write that moves the first of them that
        way (tgpl.lowering.runaway).
        The relaxation bounds a counter on its own: by the `require` and `if` tests before its writes and the
        checks that end the game on its values on the ways that write it; never by another counter or the
        board (Pente's `Stones -= 2` beside `Pairs += 1`), nor by a check a later decision runs (Morris's
        `Moves >= 200`, checked in a phase the ways into `Remove` reach only after the next move)."""
        reach: dict[str, tuple[int, int]] = {}
        for rel in whole:
            kind, _, attr = rel.partition("|")
            if kind not in ("num", "over") or attr not in self.numeric_attrs or among is not None and attr not in among:
                continue
            for row in model.get((horn._asp_name(rel), 2), []):
                try:
                    v = int(row[1].name)
                except ValueError:
                    continue
                lo, hi = reach.get(attr, (v, v))
                reach[attr] = (min(lo, v), max(hi, v))
        self.overflowing = set(reach)
        if not reach:
            # no counter grows: a compiled function's numbers do (the function its overflow rows name)
            grown = sorted(row[0].name.split("~")[0] for row in model.get(("overflow", 1), []))
            hf = next((self.hc.functions[k] for k in grown if k in self.hc.functions), None)
            if hf is not None:
                return ("this function's numbers grow with every call or pass: its recursion or loops are not "
                        "bounded by the board", hf.span)
            return "a counter the game's end does not bound", None
        far = max(max(-lo, hi) for lo, hi in reach.values())
        named = sorted(a for a, (lo, hi) in reach.items() if max(-lo, hi) == far)
        self.overflowing = set(named)
        said = ", ".join(f"'{a}' ({reach[a][0]}..{reach[a][1]} so far)" for a in named)
        attr = named[0]
        rising = reach[attr][1] == far
        write = runaway.growing_write(self.program, attr, 1 if rising else -1)
        way = "rises" if rising else "falls"
        if write is None:
            return (f"{said} not bounded: no `require` or `if` test before its writes and no check that ends the "
                    "game on its values bounds it (a counter is bounded on its own, never by another counter or "
                    "the board)"), None
        target = runaway.written_text(write.target)
        step = runaway._literal(write.value) if write.op in ("+=", "-=") else None
        with_ = runaway.moved_with(self.program, write)
        check = runaway.ending_check(self.program, attr)
        if with_:
            cause = (f"it {way} here as {', '.join(repr(w) for w in with_)} "
                     f"{'changes' if len(with_) == 1 else 'change'}: in play another counter or the board bounds it, "
                     "and a counter is bounded on its own (by the `require` and `if` tests before its writes and "
                     "the checks that end the game on it where it is written), never by another counter")
        elif check is not None:
            cause = (f"it {way} here, and the check that ends the game on it (line {check.span.line}) is not on "
                     "every way from this write: some wait for another move first, and a counter is bounded by "
                     "the checks on the ways that write it, not by those a later decision runs")
        else:
            cause = f"it {way} here, and nothing that ends the game or guards the write tests it"
        if not rising and step is not None:
            hint = (f"test it before the write where play keeps it so (`{target} >= {step:g}` before "
                    f"`{target} -= {step:g}`), or end the game on its values where it is written")
        else:
            hint = ("end the game on its values where it is written (the check of line "
                    f"{check.span.line} there), or test it before the write" if check is not None else
                    "end the game on its values where it is written, or test it before the write")
        return f"{said} not bounded by the game: {cause}; {hint}", write.span

    # ------------------------------------------------------------ the game's rules
    def lowered(self, foresee: Foresee | None = None) -> LoweredGame:
        """The GDL program (raises Unsupported). `foresee` (compile_game's) says how a compilation whose program
        is the one given is compiled again (None: it may be kept): where it says the same of both programs the
        proof that chooses between them (`emitted`) would choose, that proof is spared."""
        self.compile()
        sc = self.sc
        if not any(c.over is not None or c.checks for c in self.final) and self.u.result is None:
            raise Unsupported("no move ever ends the game with a winner")
        probes = self.probes()
        targets = self.check_targets()
        if targets and self.numeric_attrs and self.ranges is None:
            raise NeedRanges()  # a check left to the next decision may be what bounded a counter
        for c in self.final:
            for k, mover in c.checks:  # the mover of the check, found from the player to move after it
                probes.append(Rule(Atom(f"check|{k}", (c.control[0], mover)), tuple(c.body)))
        final = sc.collapse(self.final, numeric=True)
        made = len(sc.hf.rules) + len(sc.view_rules) + len(self.legal)
        if made > SEGMENT_RULES:
            raise TooManySegments(made)
        return self.emitted(probes, targets, final, moving=True, foresee=foresee) \
            or self.emitted(probes, targets, final, moving=False)

    def emitted(self, probes: list[Rule], targets: dict[int, tuple[str, str]], final: list[SegClause],
                moving: bool, foresee: Foresee | None = None) -> LoweredGame | None:
        """The GDL program, the move's calls read from the legal moves' instances where `moving` (`moving_twins`);
        None where they are, and the legal moves' demand is not proved to cover the move's calls. Where `foresee`
        says that the program would be compiled again, the program without the move's calls read so may be
        given instead (`unproved`)."""
        segments, functions, found, rename = self.relaxed(probes, moving=moving)
        if targets:  # asked of the state once the relaxation has found each check's movers
            outcomes = self.outcomes(targets, found)
            probes = probes + [Rule(Atom("result|", r.head.args), r.body) for r in outcomes]
            segments, functions, found, rename = self.relaxed(probes, outcomes, moving=moving)
            if self.u.control[1:] in targets.values():
                self.ends_initially(segments + functions, targets)
        if rename:  # the ways' `next` rules read the instances as the segments do: two calls made one instance
            final = [c.with_body([renamed(x, rename) for x in c.body]) for c in final]
        emission = Emission(self, segments + functions, final, found)
        lowered = emission.lowered()
        if not self.moved:
            return lowered
        moved = self.moved
        again = foresee(lowered) if foresee is not None else None
        if again is not None:
            return self.unproved(probes, targets, final, foresee, again,
                                 lambda: emission.covered(lowered.program, moved), lowered)
        return lowered if emission.covered(lowered.program, moved) else None

    def unproved(self, probes: list[Rule], targets: dict[int, tuple[str, str]], final: list[SegClause],
                 foresee: Foresee, again: object, proof: Callable[[], bool], moving: LoweredGame) -> LoweredGame:
        """What `lowered` gives where the program that reads the move's calls from the legal moves' instances,
        `moving`, would be compiled again (`again`, as `foresee` says): the program without, made as `lowered`
        makes it where `proof` fails, given without the proof where `foresee` says the same of it. Why: the
        proof grounds every state under every legal move (tgpl.asp.covers: Atari Go's first compilation's, 6 of
        the 7.5 s of CPU of its two), and here it would choose between two programs neither of which is kept.
        Where the two are compiled again differently, or the one without cannot be made, the proof chooses as
        ever; both programs are then made in the order `lowered` makes them where the proof fails."""
        try:
            plain = self.emitted(probes, targets, final, moving=False)
        except (Undefer, Unsupported) as e:  # raised as `lowered` raises it where the proof fails
            if proof():
                return moving
            raise e
        assert plain is not None  # nothing is read from the legal moves' instances: nothing to prove
        if foresee(plain) == again or not proof():
            return plain
        return moving

    def probes(self) -> list[Rule]:
        """What the relaxation reads off the ways through the segments, before their writes are taken into views:
        the counters' values (`num|`, `over|` where the way ends the game) and the results."""
        probes: list[Rule] = list(self.sc.probed)
        for c in self.final:
            for a, o, v in c.store:
                if a in self.numeric_attrs:
                    probes.append(Rule(Atom(("over|" if c.over is not None else "num|") + a, (o, v)), tuple(c.body)))
            if c.over is not None:
                probes.append(Rule(Atom("result|", c.over), tuple(c.body)))
            elif not any(a in self.numeric_attrs for a, _, _ in c.store) and any(
                    isinstance(x, Atom) and x.relation in horn.BUILTIN_TABLES for x in c.body):
                # a way that tests numbers but writes no counter and goes on (a throw that overshoots the last
                # square, and stays): its tests' rows, which no other probe reads, found as well
                probes.append(Rule(Atom("way|", ()), tuple(c.body)))
        for a in sorted(self.numeric_attrs):
            o, v = Var("O"), Var("V")
            within = (Atom("#bound:" + a, (v,)),) if a in self.counted else ()
            probes.append(Rule(Atom(read_rel(a), (o, v)), (Atom("num|" + a, (o, v)),) + within))
        return probes

    def counter_ranges(self) -> dict[str, list[tuple]]:
        """The values the counters take (`num|attr`, `over|attr` rows), found by the counters' relaxation alone:
        what a game with checks left to the next decision reads them from (NeedRanges), compiled with its checks
        where they run."""
        self.compile()
        probes = self.probes()
        self.sc.collapse(self.final, numeric=True)  # as `lowered` does before it relaxes: the views' rules
        found = self.relaxed(probes, parts=("numbers",))[2]
        return {rel: rows for rel, rows in found.items() if prefix(rel) in ("num", "over")}

    def relaxed(self, probes: list[Rule], outcomes: list[Rule] = (), parts: tuple[str, ...] = ("numbers", "rest"),
                moving: bool = False) -> tuple[list[Rule], list[Rule], dict, dict[str, str]]:
        """The segments' rules (with `outcomes`), the compiled functions' demanded, each guarded, what their
        relaxation (`parts` of it) finds, and the renaming of the function instances made one
        (`_shared_renaming`), which whatever else reads the instances must apply too (`relaxed_input`)."""
        segments, functions, probes, rename = self.relaxed_input(probes, outcomes, parts, moving)
        return segments, functions, self.relax(segments + probes, functions, parts), rename

    def relaxed_input(self, probes: list[Rule], outcomes: list[Rule] = (),
                      parts: tuple[str, ...] = ("numbers", "rest"),
                      moving: bool = False) -> tuple[list[Rule], list[Rule], list[Rule], dict[str, str]]:
        """What `relaxed` relaxes: the segments' rules (with `outcomes`), the compiled functions' demanded, each
        guarded, and the `probes`, with the function instances made one (`_shared_renaming`: the renaming is
        given too). Where `moving`, a move's calls in a context with a twin (`moving_twins`) whose instances walk
        (a loop: Reversi's `FlipsIn`; chess's `Passed` is a few rules per call, less than the proof costs) are
        dropped and its instances read the twin's: what they asked is kept in `self.moved`, each with the call
        relation it must be a row of (`Emission.covered`)."""
        sc = self.sc
        self.limits.check()
        functions = self.instances()
        segments = self.legal + sc.hf.rules + sc.view_rules + sc.site_rules() + list(outcomes)
        self.limits.check()
        segments, functions = self.guard(segments, functions)
        self.limits.check()
        walks = {p[3] for r in functions if (p := _instance_part(r.head.relation)) is not None and p[2][:4] == "loop"}
        twins = {ctx: twin for ctx, twin in self.moving_twins().items() if ctx in walks} if (
            moving and "rest" in parts) else {}  # where a walk's instance is saved, not a few rules per call
        calls = {r.head.relation for r in segments
                 if (p := _instance_part(r.head.relation)) is not None and p[2] == "call" and p[3] in twins}
        moved = [r for r in segments if r.head.relation in calls]
        rename: dict[str, str] = {}
        if moved:
            segments = [r for r in segments if r.head.relation not in calls]
            rename = _context_renaming(segments + functions + probes + moved + [
                Rule(Atom("#", ()), tuple(c.body)) for c in self.final], twins)
            segments, functions, probes = ([*dict.fromkeys(renamed(r, rename) for r in rules)]
                                           for rules in (segments, functions, probes))
        shared = _shared_renaming(segments, functions, self.limits.check)
        if shared:  # the probes read the instances too (a check's calls: its outcomes are probes)
            segments, functions, probes = ([*dict.fromkeys(renamed(r, shared) for r in rules)]
                                           for rules in (segments, functions, probes))
            rename = {**{rel: shared.get(to, to) for rel, to in rename.items()}, **shared}
        probe_of = {rel: f"tgpl_moved_call_{k}|" for k, rel in enumerate(sorted(calls))}
        self.moved = [(Rule(Atom(probe_of[r.head.relation], r.head.args), tuple(renamed(x, rename) for x in r.body)),
                       rename.get(r.head.relation, r.head.relation)) for r in moved]
        self.limits.check()
        return segments, functions, probes, rename

    def moving_twins(self) -> dict[str, str]:
        """The contexts of a move's effect's calls (`_MOVING`) that read the same views as a context of the other
        calls (the legal moves', the end phase's), each to that twin, where every function called in it is also
        called in the twin: Reversi's `FlipsIn`, in its move's effect and in its legal moves' `Flips`.

        A move's calls are demanded under `does`, which is why their context is their own: an instance shared
        with `legal`'s calls would make `legal` depend on `does`, which GDL forbids. But a move is one of the
        legal moves: where what it asks was asked by the legal moves in the same state (`Emission.covered`
        proves it of every state), it can read their answers, and asks nothing itself. Its instances are
        renamed into the twin context and, alike the twin's, made one with them (`_shared_renaming`)."""
        functions: dict[int, set[str]] = {}  # context -> the functions its instances are of, callees too
        todo = list(self.demand)
        while todo:
            name, ctx = todo.pop()
            key = name.split("~")[0]
            if key not in functions.setdefault(ctx, set()):
                functions[ctx].add(key)
                todo.extend((k, ctx) for k in self.hc.functions[key].sites)
        twins: dict[str, str] = {}
        for key, ctx in self.sc.contexts.items():
            if (_MOVING, "") not in key:
                continue
            twin = self.sc.contexts.get(tuple(m for m in key if m != (_MOVING, "")))
            if twin is not None and functions.get(ctx) and functions[ctx] <= functions.get(twin, set()):
                twins[str(ctx)] = str(twin)
        return twins

    # ------------------------------------------------------------ checks left to the next decision
    def check_targets(self) -> dict[int, tuple[str, str]]:
        """Per check left to the next decision (tgpl.lowering.deferral), the (turn, phase) its ways wait at.
        Raises Undefer where the ways that wait there do not all carry it, or wait at several."""
        targets: dict[int, set] = {}
        for c in self.final:
            for k, _ in c.checks:
                targets.setdefault(k, set()).add(c.control[1:])
        for k, where in targets.items():
            if len(where) != 1:
                raise Undefer(k)
            for c in self.final:
                if c.over is None and c.control[1:] in where and [j for j, _ in c.checks] != [k]:
                    raise Undefer(k)  # a way waits there unchecked: the state there would be checked anyway
        # a way that ended the game where it ran (`winner me;` before the check's `if`) may rest at a control
        # where a check is asked: the check must not end the game again there (`outcomes`, FINISHED)
        self.guarded = {k for k, where in targets.items()
                        if any(c.over is not None and c.control[1:] in where for c in self.final)}
        return {k: next(iter(where)) for k, where in targets.items()}

    def outcomes(self, targets: dict[int, tuple[str, str]], found: dict) -> list[Rule]:
        """`ended|(places)` where a check would have ended the game, asked of the state at the control its ways
        wait at: the call compiled as the segment would have run it, reading the state (`true`), with the
        mover found from the player to move (the relaxation's `check|k` rows, one mover a player)."""
        sc = self.sc
        out: list[Rule] = []
        for k, (turn, phase) in sorted(targets.items(), key=lambda kv: (kv[1], kv[0])):
            rows = list(dict.fromkeys(found.get(f"check|{k}", [])))
            players = [f for f, _ in rows]
            if not rows or len(set(players)) != len(players):
                raise Undefer(k)  # no row, or a player to move after two movers
            check = self.deferral.met[k]
            table = self.hc.static_table(rows)
            player, mover = sc.var(), sc.var()
            body = [Atom("#control", (player, Const(turn), Const(phase))), Atom(table, (player, mover))]
            if k in self.guarded:
                body.append(Not(Atom(FINISHED, ())))
            start = SegClause(body, {"#this": None}, (), (mover, check.turn, check.phase))
            ended = len(sc.ended)
            latest, sc.latest = sc.latest, {}
            sc.moving = False  # the calls read the state, and share their instances with `legal`'s
            try:
                if isinstance(check.call, ast.Call):
                    sc.statement_calls.add(id(check.call))
                    sc.expr(check.call, start)
                else:  # an `if` statement (or a run of them with declarations), with the locals it reads
                    start.env.update({k: mover if v == MOVER else v for k, v in check.env.items()})
                    sc.stmt(check.call, [start], set())
            finally:
                sc.latest, sc.moving = latest, True
            for c in sc.ended[ended:]:
                out.append(Rule(Atom("ended|", c.over), tuple(c.body)))
            del sc.ended[ended:]
        return out

    def _static_facts(self, facts: dict[str, list[tuple]], rules: list[Rule]) -> None:
        """The static tables and fields as facts, beside `facts`: every static field the rules read, given its
        rows (none where it has none, so that clingo knows the relation)."""
        for rel, rows in self.hc.statics.items():
            facts.setdefault(rel, rows)
        for x in [x for r in rules for x in r.body if isinstance(x, Atom)]:
            if x.relation.startswith("#field:"):
                facts.setdefault(x.relation, self.hc.statics.get(x.relation, []))

    def ends_initially(self, rules: list[Rule], targets: dict[int, tuple[str, str]]) -> None:
        """Raises Undefer, for a check asked at the initial state's control, where the checks asked of the initial
        state would end the game: the runtime never ran them there. The rules (the outcomes, the demands of their
        calls, the functions') are evaluated with clingo on the initial state's values, outside this thread
        (tgpl.limits.outside): nothing interrupts clingo's parsing and grounding, and Fanorona's rules took 6 s
        of CPU there (33 s of a loaded machine's wall time past --max-seconds 60)."""
        facts: dict[str, list[tuple]] = {}
        for (obj, attr), fl in self.fluents.items():
            facts.setdefault(read_rel(attr), []).append((self.const(fl.obj), self.const(fl.initial, fl.type)))
        facts["#control"] = [(Const(f"#p:{self.u.control[0]}"), Const(self.u.control[1]), Const(self.u.control[2]))]
        rules = [Rule(self.internal(r.head), tuple(self.internal(x) for x in r.body)) for r in rules]
        self._static_facts(facts, rules)
        self.limits.check()

        def ended() -> bool:
            ctl = clingo.Control(["--warn=none"], logger=lambda code, message: None)
            ctl.add("base", [], horn._relaxed_program(rules, facts))
            ctl.ground([("base", [])])
            name = horn._asp_name("ended|")
            with ctl.solve(yield_=True) as models:
                return any(any(atom.name == name for atom in model.symbols(atoms=True)) for model in models)
        if outside(ended, self.limits):
            raise Undefer(next(k for k, where in targets.items() if where == self.u.control[1:]))


VIEWS = ("view", "changed", "site", "sitechanged")


def _with_legality(rules: list[Rule], numeric: set[str], fixed: set[str] = frozenset()) -> list[Rule]:
    """The rules, each probe of a counter (`num|`, `over|`) that reads a move (`does|key`) joined with the rules
    of that move's legality (`legal|key`), their reads of the state before the move made one with the probe's:
    a `require { return InHand > 0; }` then bounds the `InHand -= 1` after it, as an `if` in the effect does
    (Morris's hand). The probe becomes one rule per legality rule, each with what that legality rule says of the
    counters (`_counter_tests`): a firing of the move is legal by one of them, in the state its effect starts
    from, where an object has one value of an attribute (reads through a view, after a write, have other
    relations and are left apart). Sound only where every legality rule of the move is joined: a move with a
    legality rule that says nothing of the counters (Harvest's `Tend`, whose growing case tests `Crop + Delta
    <= 3` and whose taking case `Crop > 0`, both read) keeps its probes as they are, for a firing legal by that
    rule satisfies none of the others' tests; so does a probe that a legality rule's tests, joined, leave in no
    order the relaxation can ground. A legality rule whose reads of one object differ (two constants) never
    fires with the probe, and is left out. `fixed`: the attributes no move writes (static fields), whose reads
    bind values the tests may compare as the counters' (Harvest's `work.Delta > 0`)."""
    legality: dict[str, list[Rule]] = {}
    bare: set[str] = set()  # the moves with a legality rule that tests no counter
    for r in rules:
        if r.head.relation.startswith("legal|"):
            key = r.head.relation[6:]
            tests = _counter_tests(r.body, numeric, fixed)
            if tests:
                legality.setdefault(key, []).append(Rule(r.head, tests, r.span))
            else:
                bare.add(key)
    if not set(legality) - bare:
        return rules
    out: list[Rule] = []
    for r in rules:
        does = [x for x in r.body if isinstance(x, Atom) and x.relation.startswith("does|")]
        reads = any(isinstance(x, Atom) and x.relation.startswith("#read:") and x.relation[6:] in numeric
                    for x in r.body)
        if prefix(r.head.relation) not in ("num", "over") and not (
                r.head.relation.startswith("seg|") and reads) or len(does) != 1 or does[0].relation[5:] in bare:
            out.append(r)
            continue
        joined: list[Rule] | None = []
        for k, legal in enumerate(legality.get(does[0].relation[5:], [])):
            apart = substitute(legal, {v.name: Var(f"L{k}_{v.name}") for v in legal.variables()})
            binding = _unify(apart.head.args, does[0].args)
            if binding is None:
                continue  # never the move the probe reads
            rule = _one_read_each(substitute(Rule(r.head, r.body + apart.body), binding))
            if rule is None:
                continue  # two values of one object's attribute: never true
            body = _safe_order(rule.body)
            if body is None:
                joined = None  # this legality rule cannot be joined: the probe as it is
                break
            joined.append(Rule(rule.head, body, rule.span))
        out.extend(joined if joined else [r])
    return out


def _counter_tests(body: tuple, numeric: set[str], fixed: set[str] = frozenset()) -> tuple:
    """What a legality rule says of the counters (`numeric`): the comparisons and operations over their values
    and those of the attributes no move writes (`fixed`) alone (`InHand > 0`, `Crop + Delta <= 3`), with the
    reads that bind them; the rest of the rule (the move's tables, the functions it calls) the probe it is
    joined with has already, or need not bound its counter. Nothing where no test reads a counter."""
    reads = [x for x in body if isinstance(x, Atom) and x.relation.startswith("#read:")
             and x.relation[6:] in numeric | fixed and len(x.args) == 2]
    values = {v.name for x in reads for v in x.args[1].variables()}
    counted = {v.name for x in reads if x.relation[6:] in numeric for v in x.args[1].variables()}
    tests = []
    for x in body:
        if isinstance(x, Atom) and x.relation in (*horn.COMPARE.values(), *horn.CALCS.values()):
            ins = x.args if x.relation in horn.COMPARE.values() else x.args[:2]
            names = {v.name for a in ins for v in a.variables()}
            if names <= values and any(isinstance(a, Var) for a in ins):
                tests.append(x)
                values |= {v.name for v in x.variables()}
                if names & counted:
                    counted |= {v.name for v in x.variables()}
    if not any({v.name for v in x.variables()} & counted for x in tests):
        return ()
    used = {v.name for x in tests for v in x.variables()}
    return tuple([x for x in reads if {v.name for v in x.args[1].variables()} & used] + tests)


def _fixed_test(x: Atom, rule: Rule) -> bool:
    """Whether `x` compares only values of static fields that `rule` reads (`#field:`) with constants (Harvest's
    `work.Delta > 0`, joined from the move's legality by `_with_legality`): a filter the counters' part keeps,
    for it binds nothing and tells the cases of a move apart (growing a plot, bounded by `Crop + Delta <= 3`,
    from raiding one, by `Crop > 0`); without it, each case's bound holds for the other's writes too."""
    if x.relation not in horn.COMPARE.values():
        return False
    fields = {y.args[1] for y in rule.body if isinstance(y, Atom) and y.relation.startswith("#field:")
              and len(y.args) == 2}
    names = [a for a in x.args if not isinstance(a, Const)]
    return bool(names) and all(a in fields for a in names)


def _safe_order(body: tuple) -> tuple | None:
    """The body in an order the relaxation can ground (horn._relaxed_program asks each operation's row from the
    literals before it): each literal taken as soon as what it needs is bound, the first such in the given order
    (so a body already in such an order stays as it is); None where no order binds them all."""
    def needs(x) -> set[str]:
        if isinstance(x, Atom) and x.relation in horn.COMPARE.values():
            return {v.name for v in x.variables()}
        if isinstance(x, Atom) and x.relation in horn.CALCS.values():
            return {v.name for a in x.args[:2] for v in a.variables()}
        if isinstance(x, (Distinct, Not)):
            return {v.name for v in x.variables()}
        return set()
    bound: set[str] = set()
    pending, out = list(body), []
    while pending:
        for i, x in enumerate(pending):
            if needs(x) <= bound:
                out.append(pending.pop(i))
                bound |= {v.name for v in x.variables()} if not isinstance(x, (Distinct, Not)) else set()
                break
        else:
            return None
    return tuple(out)


def _unify(left: tuple, right: tuple) -> dict | None:
    """A binding of variables (of either side) under which the two argument tuples are equal, or None."""
    binding: dict[str, Term] = {}

    def walk(t):
        while isinstance(t, Var) and t.name in binding:
            t = binding[t.name]
        return t
    for a, b in zip(left, right):
        a, b = walk(a), walk(b)
        if a == b:
            continue
        if isinstance(a, Var):
            binding[a.name] = b
        elif isinstance(b, Var):
            binding[b.name] = a
        else:
            return None
    return {name: walk(t) for name, t in binding.items()} if len(left) == len(right) else None


def _one_read_each(rule: Rule) -> Rule | None:
    """The rule with its reads of one attribute of one object term made one (their values unified), or None
    where two of them read different constants (never true)."""
    while True:
        seen: dict[tuple, Term] = {}
        binding: dict[str, Term] | None = None
        for x in rule.body:
            if isinstance(x, Atom) and x.relation.startswith("#read:") and len(x.args) == 2:
                key = (x.relation, x.args[0])
                v = seen.setdefault(key, x.args[1])
                if v != x.args[1]:  # the later read takes the earlier's value: what reads it later stays bound
                    binding = _unify((x.args[1],), (v,))
                    if binding is None:
                        return None
                    break
        if binding is None:
            return Rule(rule.head, tuple(dict.fromkeys(rule.body)), rule.span)
        rule = substitute(rule, binding)


def _without(rules: list[Rule], dropped, domains: dict[tuple[str, int], str] | None = None,
             check: Callable[[], None] = lambda: None) -> list[Rule]:
    """The rules without the literals `dropped` says, and without what only those literals bound: a test, a
    lookup or an operation on such a value, in this rule and, through the positions of relations that hold
    one, where they are read (an over-approximation: dropping literals only adds rows).

    `domains`: positions that are not forgotten when nothing binds them but range over every value of a
    relation of one argument (a counter's object: every object that has the counter). `check` is called at each
    pass of either fixpoint (the command's limits)."""
    domains = domains or {}
    orphan: set[tuple[str, int]] = set()
    kept_of: dict[int, list] = {}
    while True:
        check()
        grew = False
        for r in rules:
            kept = [x for x in r.body if not (isinstance(x, Atom) and dropped(x, r))]
            loose = {v for x in r.body if isinstance(x, Atom) and dropped(x, r) for v in horn._variables(x)}
            while True:
                bound: set = set()
                for x in kept:
                    if isinstance(x, Atom):
                        for k, a in enumerate(x.args):
                            if isinstance(a, Var):
                                if "|" in x.relation and (x.relation, k) in orphan:
                                    loose.add(a)
                                else:
                                    bound.add(a)
                gone = loose - bound
                # anything else that reads a value gone goes too (its own relations keep the atom, the
                # position is forgotten where it is held)
                left = [x for x in kept if not (horn._variables(x) & gone) or isinstance(x, Atom) and "|" in x.relation]
                if len(left) == len(kept):
                    break
                loose |= {v for x in kept if x not in left for v in horn._variables(x)}
                kept = left
            kept_of[id(r)] = kept
            unbound = {a for a in r.head.args if isinstance(a, Var)} - bound
            for k, a in enumerate(r.head.args):
                if ((a in gone or a in unbound) and "|" in r.head.relation and (r.head.relation, k) not in orphan
                        and (r.head.relation, k) not in domains):
                    orphan.add((r.head.relation, k))
                    grew = True
        if not grew:
            break
    kept = [Rule(r.head, tuple(kept_of[id(r)]), r.span) for r in rules]
    forgetting: set[tuple[str, int]] = set()
    while True:  # a read forgotten may leave another head's value bound by nothing
        check()
        made = [_forgotten(r, forgetting, domains) for r in kept]
        more = {(r.head.relation, k) for r in made for k in _unbound_positions(r) if (r.head.relation, k) in orphan}
        if more <= forgetting:
            return made
        forgetting |= more


def _unbound_positions(rule: Rule) -> list[int]:
    """The positions of `rule`'s head whose variable no atom of its body binds (an unsafe rule)."""
    bound = {v for x in rule.body if isinstance(x, Atom) for v in horn._variables(x)}
    return [k for k, a in enumerate(rule.head.args) if isinstance(a, Var) and a not in bound]


FORGOTTEN = Const("#forgotten")  # what a rule writes at a position whose value only dropped literals bound


def _forgotten(rule: Rule, forgetting: set[tuple[str, int]], domains: dict[tuple[str, int], str]) -> Rule:
    """`rule` made safe where `_without` left a head's value bound by nothing: at a position with a domain,
    the head takes each value of the domain; at a forgotten position, it writes FORGOTTEN, and every read
    of such a position joins nothing (a fresh variable: any row matches).

    Konane's jump removes the stone it jumps over, `At(r + dr, c + dc).Stone = 0`: with the arithmetic
    dropped, nothing binds the hole, and the rule `Stone(hole, 0)` was unsafe; it now writes 0 to every hole,
    and the relations that carried the hole to the write carry FORGOTTEN. Both only add rows: an
    over-approximation still. Rules that were safe are unchanged (`forgetting` is empty for them)."""
    fresh = itertools.count()
    body = tuple(replace(x, args=tuple(Var(f"XF{next(fresh)}") if (x.relation, k) in forgetting else a
                                       for k, a in enumerate(x.args)))
                 if isinstance(x, Atom) and any((x.relation, k) in forgetting for k in range(len(x.args))) else x
                 for x in rule.body)
    head = rule.head
    loose = set(_unbound_positions(replace(rule, body=body)))
    body += tuple(Atom(domains[head.relation, k], (head.args[k],)) for k in sorted(loose)
                  if (head.relation, k) in domains)
    head = replace(head, args=tuple(FORGOTTEN if k in loose and (head.relation, k) in forgetting else a
                                    for k, a in enumerate(head.args)))
    return replace(rule, head=head, body=body)


@dataclass
class Relaxation:
    """The rules of the relaxation and what tells its two parts apart (`CompiledGame.relaxation`): the compiled
    functions' rules (`inside`), the literals that work on a counter's value (`numeric`, by id), the counters' reads
    (`fed_back`), the functions' results, those the counters' part evaluates (`counting`), and the positions that
    range over every object of a counter (`domains`, for `_without`)."""

    relaxed: list[Rule]
    inside: set[Rule]
    numeric: set[int]
    fed_back: set[str]
    results: set[str]
    counting: set[str]
    domains: dict[tuple[str, int], str]


def prefix(rel: str) -> str:
    """What a compiled relation is (`num`, `legal`, a function's name, ...): its name before the first `|`."""
    return rel.split("|")[0]


def _counting_functions(rules: list[Rule], inside: set[Rule], numeric: set[int]) -> set[str]:
    """The compiled functions (their relations' prefix) the counters' relaxation evaluates, where it takes every
    other's results as anything: those whose result a counter is written with, or a counter's arithmetic or test
    reads (Shut the Box's `Score = Box.Board.OpenTotal()`: taken as anything, the score was unbounded; Dobutsu
    Shogi's drop filter `Held(kind: kind) > 0`, a hand's counter), and whose rules call no other function. A
    function that reads counters reads them as the counters' relaxation finds them (`num|` fed back through
    their reads): its rows grow with the counters' values, to the same fixpoint, so its results cover every
    value the counters can take."""
    own: dict[str, list[Rule]] = {}
    for r in inside:
        own.setdefault(prefix(r.head.relation), []).append(r)
    wanted: set[str] = set()
    for r in rules:
        if r in inside:
            continue
        for x in r.body:
            if not (isinstance(x, Atom) and "|" in x.relation and prefix(x.relation) in own) or not x.args:
                continue
            v = x.args[-1]
            if not isinstance(v, Var):
                continue
            if prefix(r.head.relation) in ("num", "over") and v in r.head.args or any(
                    isinstance(y, Atom) and id(y) in numeric and v in y.args for y in r.body):
                wanted.add(prefix(x.relation))
    return {fn for fn in wanted
            if all(not (isinstance(x, Atom) and "|" in x.relation and prefix(x.relation) != fn
                        and not x.relation.startswith("#"))
                   for r in own[fn] for x in r.body)}


def _numeric_literals(rules: list[Rule], attrs: set[str]) -> set[int]:
    """The arithmetic and comparison literals (by id) that work on a counter's value: an operand read from a
    numeric fluent or a die's face (random's move, `roll|n`), computed from one, or held by a position of a
    relation that holds one."""
    marked, _ = _counter_values(rules, attrs)
    return {id(x) for r in rules for x in r.body if isinstance(x, Atom) and x.relation in horn.BUILTIN_TABLES
            and marked[id(r)] & set(x.args)}


def _counter_values(rules: list[Rule], attrs: set[str]) -> tuple[dict[int, set], set[tuple[str, int]]]:
    """The variables of each rule (by id) that hold a counter's value (`_numeric_literals`), and the positions
    of the relations that hold one."""
    reads = {read_rel(a) for a in attrs}
    tainted_positions: set[tuple[str, int]] = set()
    while True:
        grew = False
        marked: dict[int, set] = {}
        for r in rules:
            bad: set = set()
            changed = True
            while changed:
                changed = False
                for x in r.body:
                    if not isinstance(x, Atom):
                        continue
                    new = set()
                    if x.relation in reads:
                        new = {x.args[-1]}
                    elif x.relation.startswith("roll|"):  # random's faces: numbers the dice add to counters
                        new = set(x.args[1:])
                    elif x.relation in horn.CALCS.values() and bad & set(x.args[:2]):
                        new = {x.args[2]}
                    else:
                        new = {a for k, a in enumerate(x.args) if (x.relation, k) in tainted_positions}
                    new = {a for a in new if isinstance(a, Var)} - bad
                    if new:
                        bad |= new
                        changed = True
            marked[id(r)] = bad
            for k, a in enumerate(r.head.args):
                if a in bad and (r.head.relation, k) not in tainted_positions and "|" in r.head.relation:
                    tainted_positions.add((r.head.relation, k))
                    grew = True
        if not grew:
            break
    return marked, tainted_positions


def _compares_values(rules: list[Rule]) -> bool:
    """Does a rule compare two values it reads (neither a constant): a table of every pair of them?"""
    return any(isinstance(x, Atom) and x.relation in horn.COMPARE.values() and all(isinstance(a, Var) for a in x.args)
               for r in rules for x in r.body)


def _feeding_literals(rules: list[Rule], numeric: set[int], attrs: set[str]) -> set[int]:
    """The arithmetic and comparison literals (by id) outside `numeric` that the counters' relaxation keeps all
    the same: those that work out a number, held by no counter, that a counter's arithmetic or test reads (a
    local counted in a loop over a tile's connections, `closed += 1`, then `Boxes += closed`), followed back
    through the positions of the relations that carry it; and every test of a rule that carries such a number
    (the loops' `i < n`, whose index is followed back too), which bounds it: without them the local would count
    without end. Dropped, the number was bound by nothing, and the counter written with it had no range."""
    marked, held = _counter_values(rules, attrs)
    wanted: set[tuple[str, int]] = set()  # the positions of relations that carry a number fed to a counter
    kept: set[int] = set()
    grew = True
    while grew:
        grew = False
        for r in rules:
            own = marked[id(r)]  # a counter's values: the counters' relaxation follows them already
            demanded = {a for k, a in enumerate(r.head.args) if isinstance(a, Var) and (r.head.relation, k) in wanted}
            carries = bool(demanded)
            changed = True
            while changed:
                changed = False
                for x in r.body:
                    if not (isinstance(x, Atom) and x.relation in horn.BUILTIN_TABLES):
                        continue
                    mine = id(x) in numeric or id(x) in kept
                    feeds = x.relation in horn.CALCS.values() and x.args[2] in demanded
                    if not (mine or feeds or carries and x.relation in horn.COMPARE.values()):
                        continue
                    if not mine:
                        kept.add(id(x))
                        changed = True
                    ins = set(horn._operands(x)) - own - demanded
                    if ins:
                        demanded |= ins
                        changed = True
            for x in r.body:
                if isinstance(x, Atom) and "|" in x.relation:
                    for k, a in enumerate(x.args):
                        if a in demanded and (x.relation, k) not in wanted | held:
                            wanted.add((x.relation, k))
                            grew = True
    return kept


def _relaxed(x):
    """A literal of the relaxation: every view read as the state (both hold any value of the domain), and every
    context of a compiled function as one (their rules differ only in the views they read): one instance each."""
    if isinstance(x, Not):
        return Not(_relaxed(x.literal))
    if not isinstance(x, Atom) or "|" not in x.relation:
        return x
    head, part = x.relation.split("|", 1)
    if head in VIEWS:
        return Atom(read_rel(part.rsplit("@", 1)[0]), x.args)
    if "@" in part and not part.endswith("@s"):
        return Atom(f"{head}|{part.rsplit('@', 1)[0]}@r", x.args)
    return x


def _maybe_number(v: Term) -> bool:
    """Whether the value written may be a number: any term but a constant that is none (`yes`, an object)."""
    if not isinstance(v, Const) or v.name == "null":
        return True
    try:
        float(v.name)
    except ValueError:
        return False
    return True


def _number_order(c: Const) -> tuple:
    """A counter's values in order, null (a number not set) first."""
    return (0, 0.0) if c.name == "null" else (1, float(c.name))


def _goals(places: tuple[Const, ...], players: int) -> list[int] | None:
    """The goals of a result (the roles' places), as the runtime ranks; None when the ranking names nobody
    among several players (tgpl.frontend.outcomes.unscored)."""
    if any(p.name == "none" for p in places):
        return None if players > 1 else goals_of([], players)
    order = sorted({int(p.name) for p in places})
    ranking = [[i for i, p in enumerate(places) if int(p.name) == k] for k in order]
    return goals_of(ranking, players)


class Emission:
    """The compiled game's rules in GDL's names: relations, constants, moves, control, results."""

    def __init__(self, game: CompiledGame, rules: list[Rule], final: list[SegClause], found: dict):
        self.g = game
        self.u = game.u
        self.rules = rules
        self.final = final
        self.found = found
        self._fluent_texts: dict[tuple, str] = {}
        self.names = Names()
        self.rels = Names(share=self.names)
        # the GDL relations named for the compiled functions' demands (`fn|call`) and the closures' positive
        # answers (`fn|found`, tgpl.lowering.closures): compile_game's retries ask a negation cycle about them
        self.demands: set[str] = set()
        self.closure_answers: set[str] = set()
        self.roles = [f"player_{i}" for i in range(self.u.players)]
        for r in self.roles:
            self.names.name(("role", r), r)
        for a in sorted({fl.attr for fl in game.fluents.values()}):
            self.rels.name(("attr", a), a)

    # ------------------------------------------------------------ names
    def term(self, t: Term) -> Term:
        if isinstance(t, Var):
            return Var(t.name.lower())
        name = t.name
        if name.startswith("#o:"):
            return Const(self.names.name(("obj", name[3:]), name[3:]))
        if name.startswith("#p:"):
            return Const(self.roles[int(name[3:])])
        if name.startswith("#s:"):
            return Const(self.names.name(("str", name[3:]), "s_" + name[3:]))
        if name == "#" + RANDOM:
            return Const(RANDOM)
        return t

    def pending(self, key: str, args: tuple) -> Func:
        """The fluent that remembers a move of `key` while random throws its dice: `(rolltwo_thrown ?p ?seat)`."""
        m = self.g.moves[key]
        name = self.rels.name(("pend", key), f"{m.action.name.lower()}_thrown")
        return Func(name, tuple(self.term(a) for a in args))

    def roll(self, args: tuple) -> Func:
        """Random's move throwing len(args) dice: `(roll f)`, `(roll2 f1 f2)`, ... (tgpl.lowering.chance)."""
        return Func(self.names.name(("chance", len(args)), roll_name(len(args))), tuple(self.term(a) for a in args))

    def fluent(self, attr: str, o: Term, v: Term) -> Func:
        return Func(self.rels.name(("attr", attr), attr), (self.term(o), self.term(v)))

    def attribute_named(self, gdl: str) -> str | None:
        """The attribute a GDL fluent relation stands for (None: no attribute's), as the spelled-out
        emitter's (tgpl.lowering.emit.Emitter.attribute_named) for the validation's diagnostics."""
        key = self.rels.taken.get(gdl)
        return key[1] if isinstance(key, tuple) and key[0] == "attr" else None

    def _counter_values(self, attr: str) -> str:
        """The static relation of the values a counter's base lists, per object: what its next value is one of."""
        return self.rels.name(("values", attr), f"{attr}_values")

    def control(self, p: Term, turn, phase) -> Func:
        turn = turn.name if isinstance(turn, Const) else turn
        phase = phase.name if isinstance(phase, Const) else phase
        return Func("control", (self.term(p), Const(self.names.name(("turn", turn), turn)),
                                Const(self.names.name(("phase", turn, phase), phase))))

    def move(self, key: str, args: tuple) -> Func:
        m = self.g.moves[key]
        name = self.names.name(("action", m.action.name, len(m.action.inputs)), m.action.name)
        return Func(name, tuple(self.term(a) for a in args))

    def relation(self, rel: str) -> str:
        if rel.startswith("#"):
            return self.rels.name(("rel", rel), horn.table_name(rel))
        head, part = rel.split("|", 1)
        if head in ("view", "site", "changed", "sitechanged"):
            attr = part.rsplit("@", 1)[0]
            return self.rels.name(("rel", rel), f"{attr}_{head}")
        if head == "seg":
            return self.rels.name(("rel", rel), part.rstrip("0123456789"))
        part = part.rsplit("@", 1)[0]
        name = head.split("@")[0].split(".")[-1]
        given = self.rels.name(("rel", rel), name if part == "result" else f"{name}_{part.rstrip('0123456789')}")
        function = self.g.hc.functions.get(head.split("~")[0])  # an instance is `key~site`
        if function is not None and part == "call":
            self.demands.add(given)
        elif function is not None and function.closure and part == "found":
            self.closure_answers.add(given)
        return given

    def literal(self, x: Literal) -> Literal:
        if isinstance(x, Not):
            return Not(self.literal(x.literal))
        if isinstance(x, Distinct):
            return Distinct(self.term(x.left), self.term(x.right))
        x = self.g.internal(x)
        rel = x.relation
        if rel == "#control":
            return Atom("true", (self.control(*x.args),))
        if rel.startswith("#read:"):
            return Atom("true", (self.fluent(rel[6:], *x.args),))
        if rel.startswith("pend|"):
            return Atom("true", (self.pending(rel[5:], x.args),))
        if rel.startswith("roll|"):
            return Atom("does", (self.term(x.args[0]), self.roll(x.args[1:])))
        if rel.startswith("does|"):
            return Atom("does", (self.term(x.args[0]), self.move(rel[5:], x.args[1:])))
        if rel.startswith("legal|"):
            return Atom("legal", (self.term(x.args[0]), self.move(rel[6:], x.args[1:])))
        if rel == FINISHED:  # the game has ended (a way ended it where it ran): its result is in the state
            return Atom(self.rels.name(("rel", rel), "finished"), ())
        if rel == "ended|":  # a check left to the next decision ends the game here (tgpl.lowering.deferral)
            return Atom(self.rels.name(("rel", rel), "ended"), tuple(self.term(a) for a in x.args))
        if rel.startswith("tgpl_") and rel.endswith("|"):  # the lowering's own (tgpl.lowering.compiled_query)
            return Atom(rel[:-1], tuple(self.term(a) for a in x.args))
        return Atom(self.relation(rel), tuple(self.term(a) for a in x.args))

    def rule(self, r: Rule) -> Rule:
        return Rule(self.literal(r.head), tuple(self.literal(x) for x in r.body))

    def covered(self, program: Program, moved: list[tuple[Rule, str]]) -> bool:
        """Whether in every state, under every legal move, what a move asks (`CompiledGame.relaxed`'s `moved`:
        each call rule under a probe's name, with the call relation that answers it) is asked of the
        instance it reads by the legal moves (tgpl.asp.covers)."""
        return covers(program, [self.rule(r) for r, _ in moved],
                      {self.literal(r.head).relation: self.relation(to) for r, to in moved})

    # ------------------------------------------------------------ the program
    def lowered(self) -> LoweredGame:
        g, u, found = self.g, self.u, self.found
        out: list[Rule] = [Rule(Atom("role", (Const(r),))) for r in self.roles]
        chance: list[Rule] = self.chance_rules(out) if g.throws else []
        # base: every value of each fluent's domain (a counter's: the values the relaxation found it to take,
        # in play and where the game ends), the control in every phase a way waits or ends in, the results
        counted: dict[str, list[Rule]] = {}  # a counter's attribute -> its values, per object (`_counter_values`)
        for (obj, attr), fl in g.fluents.items():
            if fl.numeric:
                o = g.const(fl.obj)
                values = {r[1] for rel in ("num|" + attr, "over|" + attr)
                          for r in g.within(attr, found.get(rel, [])) if r[0] == o} | {g.const(fl.initial)}
                values = sorted(values, key=_number_order)
                counted.setdefault(attr, []).extend(
                    Rule(Atom(self._counter_values(attr), (self.term(g.const(fl.obj)), self.term(v)))) for v in values)
            else:
                values = [g.const(v, fl.type) for v in g.domain(fl)]
            out.extend(Rule(Atom("base", (self.fluent(attr, g.const(fl.obj), v),))) for v in values)
        counted = {a: rows for a, rows in counted.items()
                   if all(fl.numeric for (_, attr), fl in g.fluents.items() if attr == a)}
        phases = dict.fromkeys([*g.phases, *(c.control[1:] for c in self.final)])
        for turn, phase in phases:
            out.extend(Rule(Atom("base", (self.control(Const(f"#p:{i}"), turn, phase),)))
                       for i in range(u.players))
        results = sorted(set(found.get("result|", [])), key=str)
        for places in results:
            out.append(Rule(Atom("base", (Func("result", tuple(self.term(x) for x in places)),))))
        # the moves: input, every move the relaxation found can be legal, with its runtime text
        move_texts: dict[str, str] = {}
        for key, m in g.moves.items():
            for row in sorted(found.get(f"legal|{key}", []), key=str):
                term = self.move(key, row[1:])
                obj = g.hc.object_of(row[1])
                args = ", ".join(f"{i.name}: {value_text(self.value(x))}" for i, x in zip(m.action.inputs, row[2:]))
                move_texts[str(term)] = f"{obj.name}.{m.action.name}({args})"
                out.append(Rule(Atom("input", (self.term(row[0]), term))))
        out.extend(Rule(Atom("input", (Const(r), Const("noop")))) for r in self.roles)
        # init
        for (obj, attr), fl in g.fluents.items():
            out.append(Rule(Atom("init", (self.fluent(attr, g.const(fl.obj), g.const(fl.initial, fl.type)),))))
        out.append(Rule(Atom("init", (self.control(Const(f"#p:{u.control[0]}"), u.control[1], u.control[2]),))))
        # legal, the segments' relations, the views, the compiled functions
        body_rules = [self.rule(r) for r in self.rules if not r.head.relation.endswith("@s")]
        p, q = Var("p"), Var("q")
        t, ph = Var("t"), Var("ph")
        body_rules.append(Rule(Atom("legal", (q, Const("noop"))),
                               (Atom("role", (q,)), Atom("true", (Func("control", (p, t, ph)),)), Distinct(q, p))))
        # next: the fluents through the last views, control and result from each way
        # a counter's next value is one of those base lists: the ranges bound it in play (the checks that end the
        # game where they run), which GDL's relaxed game, reading every value at once and no `not`, does not
        # know; without this a move counter's `plus` would climb through the numbers a count over the board
        # reaches, past base (tgpl check-gdl's base check, tgpl.asp.declared)
        for a in sorted({fl.attr for fl in g.fluents.values()}):
            src = Atom(self.g.sc.view_of(a), (Var("O"), Var("V")))
            guard = (Atom(self._counter_values(a), (self.term(Var("O")), self.term(Var("V")))),) if a in counted else ()
            body_rules.append(Rule(Atom("next", (self.fluent(a, Var("O"), Var("V")),)), (self.literal(src),) + guard))
        for a in sorted(counted):
            out.extend(counted[a])
        body_rules += chance
        for c in self.final:
            body = tuple(self.literal(x) for x in c.body)
            body_rules.append(Rule(Atom("next", (self.control(*c.control),)), body))
            if c.over is not None:
                body_rules.append(Rule(Atom("next", (Func("result", tuple(self.term(x) for x in c.over)),)), body))
        # terminal and goals
        places = tuple(Var(f"place{i}") for i in range(u.players))
        body_rules.append(Rule(Atom("terminal"), (Atom("true", (Func("result", places),)),)))
        deferred = any(r.head.relation == "ended|" for r in self.rules)
        if deferred:
            body_rules.append(Rule(Atom("terminal"), (self.literal(Atom("ended|", places)),)))
        if any(isinstance(x, Not) and getattr(x.literal, "relation", None) == FINISHED for r in self.rules for x in r.body):
            body_rules.append(Rule(self.literal(Atom(FINISHED, ())), (Atom("true", (Func("result", places),)),)))
        for r in results:
            goals = _goals(r, u.players)
            if goals is None:
                continue
            for i, gv in enumerate(goals):
                body_rules.append(Rule(Atom("goal", (Const(self.roles[i]), Const(str(gv)))),
                                       (Atom("true", (Func("result", tuple(self.term(x) for x in r)),)),)))
                if deferred:
                    body_rules.append(Rule(Atom("goal", (Const(self.roles[i]), Const(str(gv)))),
                                           (self.literal(Atom("ended|", r)),)))
        # the tables the rules read; a static table that no relaxation read (read only by a view or a way's
        # control: the player `turn.pass(player + 1)` names, read through the seat's owner) has the rows it was
        # made with (it had none: the game stopped after the first move)
        read = {x.relation for body in [r.body for r in self.rules] + [c.body for c in self.final] for x in body
                if isinstance(x, Atom)}
        read |= {g.face_table(k) for sides in g.throws.values() for k in sides}  # random's legal moves (chance_rules)
        found = dict(found) | {rel: rows for rel, rows in g.hc.statics.items() if rel in read and rel not in found
                               and rel.startswith("#static")}
        tables: list[Rule] = []
        for rel, rows in sorted(found.items()):
            if horn._is_table(rel):
                name = self.relation(rel)
                tables.extend(Rule(Atom(name, tuple(self.term(a) for a in row))) for row in sorted(rows, key=str))
        program = Program(tuple(dict.fromkeys(out + tables + body_rules)))
        stats = {"rules": len(program.rules), "relations": len(program.relations()),
                 "moves": len(move_texts), "moves compiled": "yes", "ways through the segments": len(self.final)}
        # its relations are asked for what the state holds: a state grounds about as much as the runtime runs to
        # play it, while a bound over every state's terms (tgpl.asp.estimate) is far too large to say anything
        return LoweredGame(program, self.roles, move_texts, stats, self, grounding=("per-state", None),
                           demands=frozenset(self.demands), closure_answers=frozenset(self.closure_answers))

    def chance_rules(self, out: list[Rule]) -> list[Rule]:
        """GDL-II's random where moves throw dice (`CompiledGame.throws`), as the spelled-out emitter writes it
        (tgpl.lowering.emit): its role after the players, its control in each phase a throwing move hands it,
        each move that throws remembered (`pending`) from the player's move to random's, random's legal moves
        every face of each die, every player seeing every move. The facts go to `out`; gives the rules."""
        g, found = self.g, self.found
        out.append(Rule(Atom("role", (Const(RANDOM),))))
        out.append(Rule(Atom("input", (Const(RANDOM), Const("noop")))))
        rules: list[Rule] = []
        r, q, mv = Var("r"), Var("q"), Var("m")
        rules.append(Rule(Atom("sees", (r, Func(DID, (q, mv)))),
                          (Atom("role", (r,)), Distinct(r, Const(RANDOM)), Atom("does", (q, mv)))))
        controls = dict.fromkeys(c.control for c in self.final if c.control[0] == Const("#" + RANDOM))
        out.extend(Rule(Atom("base", (self.control(*cs),))) for cs in controls)
        throws = {f for sides in g.throws.values()
                  for f in itertools.product(*(g.hc.statics[g.face_table(k)] for k in sides))}
        for faces in sorted(throws, key=lambda f: (len(f), [int(x[0].name) for x in f])):
            out.append(Rule(Atom("input", (Const(RANDOM), self.roll(tuple(x[0] for x in faces))))))
        for key, sides in g.throws.items():
            m = g.moves[key]
            for row in sorted(found.get(f"legal|{key}", []), key=str):
                out.append(Rule(Atom("base", (self.pending(key, row),))))
            xs = tuple(Var(f"a{i}") for i in range(len(m.action.inputs) + 2))
            rules.append(Rule(Atom("next", (self.pending(key, xs),)), (self.literal(Atom(f"does|{key}", xs)),)))
            faces = tuple(Var(f"f{i}") for i in range(len(sides)))
            tables = tuple(Atom(self.relation(g.face_table(n)), (f,)) for f, n in zip(faces, sides))
            rules.append(Rule(Atom("legal", (Const(RANDOM), self.roll(faces))),
                              (Atom("true", (self.pending(key, xs),)),) + tables))
        return rules

    def playing_values(self) -> dict[tuple, list[Func]]:
        """Per counter (its relation and object, as `board_count.state_cells` keys them), its fluents with the
        values a state that is not over may hold: its initial one and those the ways that go on write (`num|`),
        within its bound where it counts the board."""
        g, out = self.g, {}
        for (obj, attr), fl in g.fluents.items():
            if fl.numeric:
                o = g.const(fl.obj)
                values = {r[1] for r in g.within(attr, self.found.get("num|" + attr, [])) if r[0] == o}
                values = sorted(values | {g.const(fl.initial)}, key=_number_order)
                terms = [self.fluent(attr, o, v) for v in values]
                out[(terms[0].name, terms[0].args[0])] = terms
        return out

    def value(self, c: Const):
        if c.name.startswith("#s:"):
            return c.name[3:]
        return self.g.hc.value_of(c)

    def state_fields(self) -> dict[str, list[str]]:
        """The fields `state_fluents` reads, per object (a snapshot cut down to them will do)."""
        out: dict[str, list[str]] = {}
        for obj, attr in self.g.fluents:
            found = list_cell(attr)
            field = found[0] if found is not None else attr
            if field not in out.setdefault(obj, []):
                out[obj].append(field)
        return out

    def state_fluents(self, snap: dict) -> frozenset[str]:
        """The GDL fluents of a runtime state (a snapshot): for the differential tests and the validation."""
        g = self.g
        by_name = {o["name"]: o for o in snap["objects"]}
        out = set()
        texts = self._fluent_texts  # (object, attribute, value) -> the fluent's text: states repeat most of them
        for (obj, attr), fl in g.fluents.items():
            plain = snapshot_value(by_name[obj]["fields"], attr)
            text = texts.get((obj, attr, plain))
            if text is None:
                raw = saturated_value(g.u.value(plain), g.saturated.get(attr))
                text = texts[(obj, attr, plain)] = str(self.fluent(attr, g.const(fl.obj), g.const(raw, fl.type)))
            out.add(text)
        player, turn, phase = snap["control"]
        out.add(str(self.control(Const(f"#p:{int(player)}"), turn, phase)))
        if snap["result"] is not None:
            ranking = tuple(tuple(r) for r in snap["result"])
            out.add(str(Func("result", tuple(Const("none" if x is None else str(x))
                                              for x in places_of(ranking, self.u.players)))))
        return frozenset(out)


Foresee = Callable[[LoweredGame], object]
"""How a compilation whose program is the one given is compiled again (compile_game's `_Again`, equal where it is the
same); None where it may be kept, or the program alone cannot say."""


class NeedRanges(Exception):
    """Checks are left to the next decision in a game with counters: their values must come from the same game
    with its checks where they run (`CompiledGame.ranges`), as nothing in the segments may bound them now."""


def compile_game(program, universe, check=None, tidy=None, repair: Repair | None = None,
                 limits: Limits | None = None, make: Callable[..., CompiledGame] | None = None,
                 holds: Holds | None = None) -> LoweredGame:
    """The game's GDL with its moves compiled (raises Unsupported): its end-of-game checks left to the next
    decision where they can be (tgpl.lowering.deferral), the others compiled where they run. `tidy(lowered)`
    finishes the program; `repair` (tgpl.lowering.repair) mends what it can of GDL's restrictions, its costly
    stage only on a compilation that is kept; `check(program)` says what breaks GDL's rules in it: the checks are
    then compiled where they run, and if the rules still break GDL's, the game is refused. `make` makes the
    CompiledGame (its arguments: CompiledGame's): a subclass compiles more (the query, tgpl.lowering.compiled_query).
    `holds` (board_count.Holds) proves invariants of the rules (tgpl.asp.induction): counters
    that the relaxation cannot bound but that may count the board are bounded by the board where it proves that
    they do (tgpl.lowering.board_count); without it, or unproved, the game is refused as the relaxation said."""
    for turn in program.turns.values():  # a phase's own input is a move the spelled-out lowering makes alone
        for phase_def in turn.defn.phases:
            inputs = phase_inputs(phase_def)
            if inputs:
                e = Unsupported(f"phase {phase_def.name} asks an input (its moves are spelled out only)")
                e.span = inputs[0].span
                raise e
    make = make if make is not None else CompiledGame
    staged = StagedRepair.of(repair) if repair is not None else None
    kept: set[int] | None = set()  # None: every check where it runs
    ranges = None
    shapes: dict = {}  # the shape tables, the same for every attempt
    game: CompiledGame | None = None
    limits = limits if limits is not None else unlimited()
    saturating = False  # the counters saturated at the bounds the game tests (tgpl.lowering.saturate)
    counted: dict[str, BoardCount] = {}  # the counters guessed to count the board (tgpl.lowering.board_count)
    guessed: Unsupported | None = None  # the refusal that made the guesses: raised if they are not proved

    loose = False  # the calls' demands loosened (horn.loosened) after their rules made a negation cycle
    closures = True  # the searches compiled as closures (tgpl.lowering.closures) until that made such a cycle
    plain: frozenset[str] = frozenset()  # the searches with their counts kept, their callers' demands in a cycle
    searched = False  # the callers whose rules with their callees' made a negation cycle compiled as searches

    def made(kept, ranges) -> CompiledGame:
        g = make(program, universe, kept, ranges, shapes, limits)
        g.hc.loose_demands = loose
        g.hc.closures = closures
        g.hc.counted_searches = plain
        g.hc.searched_callers = searched
        if saturating:
            g.saturated = g.saturable()
        g.counted = dict(counted)
        return g

    def saturate(e: Unsupported) -> bool:
        """Counters past every bound (`e`): where some only count up to a bound the game tests, the game is
        compiled once more, from scratch, with them saturated (what was compiled stepped them past it); where
        the others may count the board and `holds` can prove it, with them bounded by the board."""
        nonlocal saturating, game, ranges, guessed
        over = getattr(e, "overflow", None)
        if not over:
            return False
        fresh = made(None, None)
        saturable = set(fresh.saturable())
        if not saturating and over <= saturable:
            saturating, game, ranges = True, None, None
            return True
        counts = fresh.countable(over - saturable - set(counted)) if holds is not None else {}
        if not counts or not over <= saturable | set(counted) | set(counts):
            return False
        counted.update(counts)
        saturating = saturating or bool(over & saturable)
        guessed, game, ranges = guessed or e, None, None
        return True

    looks: list[_Look] = []  # the programs of the compilation under way looked at (`foresee`)

    def settings() -> _Settings:
        """How the compilation under way is made (`_Settings`)."""
        assert game is not None
        return _Settings(kept is not None and game.deferral.met, closures, loose, plain, searched)

    def through_closures() -> _Again | None:
        """Compiled again, from scratch, with the counts kept by the searches a demand waits on through a
        closure's `not found` (horn._waits_on_closure), whatever its program: the other searches keep their
        closures (Havannah: `Escapes` need not pay for another search's cycle)."""
        assert game is not None
        cycled = frozenset(game.hc.closure_cycle) - plain
        return _Again(True, loose, plain=plain | cycled, searched=searched) if closures and cycled else None

    def foresee(candidate: LoweredGame) -> _Again | None:
        """How the compilation under way is compiled again where `candidate` is its program, as the loop below
        decides it (None: it is mended whole and checked): what its closures or the negation cycles the cheap
        stage leaves say. The look is kept for the loop, should the candidate be the program given."""
        again = through_closures()
        if again is not None:
            return again
        look = _looked(candidate, tidy, staged, settings(), limits)
        looks.append(look)
        return look.again

    while True:
        limits.check()
        if game is None:
            game = made(None if kept is None else frozenset(kept), ranges)
        looks.clear()
        try:
            lowered = game.lowered(foresee if staged is not None and staged.spares else None)
        except Undefer as e:
            assert kept is not None
            kept.add(e.call)
            game = None
            continue
        except NeedRanges:
            try:
                ranges = made(None, None).counter_ranges()
            except Unsupported as e:
                if not saturate(e):
                    raise
                continue
            # the segments compiled so far hold (compiling again adds nothing): only what follows wants the ranges
            game.ranges = ranges
            continue
        except Unsupported as e:
            if not saturate(e):
                raise
            continue
        again = through_closures()
        if again is None:
            made_with = settings()
            look = next((k for k in looks if k.made is lowered and k.settings == made_with), None) \
                or _looked(lowered, tidy, staged, made_with, limits)
            lowered, as_made, again = look.mended, look.as_made, look.again
        if again is None:
            lowered = _finished(lowered, staged, limits)
            limits.check()
            broken = check(lowered.program) if check is not None else []
            limits.check()
            if not broken:
                return proved(lowered, counted, holds, guessed, limits, as_made)
            again = _again(broken, lowered, made_with)
            if again is None:
                raise Unsupported(f"their rules break GDL's rules ({broken[0].message})")
        if again.fresh:
            kept, ranges = set(), None
        else:  # the checks where they run, as before they could be left
            kept = None
        closures, loose, plain, searched, game = again.closures, again.loose, again.plain, again.searched, None


@dataclass(frozen=True)
class _Settings:
    """How a compilation was made, as far as compiling it again goes: whether its checks were left to the next
    decision where they could be (`deferred`), its searches compiled as closures (but the `plain` ones, with their
    counts), its demands loosened."""

    deferred: bool
    closures: bool
    loose: bool
    plain: frozenset[str] = frozenset()
    searched: bool = False


@dataclass(frozen=True)
class _Again:
    """How a compilation whose rules break GDL's is compiled again: its searches as closures or not, its demands
    loosened or not; `fresh`, from scratch (the checks left to the next decision again, the counters' ranges found
    again), else with every check where it runs; `plain`, the searches with their counts while closures are on."""

    closures: bool
    loose: bool
    fresh: bool = True
    plain: frozenset[str] = frozenset()
    # the functions whose rules with their callees' depend on themselves through `not` compiled as searches
    # (horn.HornCompiler.searched_callers): the last way tried, so that what lowered before lowers as it did
    searched: bool = False


@dataclass(frozen=True)
class _Look:
    """A compilation's program (`made`, as CompiledGame.lowered gives it) tidied and mended by the cheap stage of
    the repair (`mended`), what the writes' check reads (`as_made`, before tidying: `proved`), and how the
    compilation is compiled again (`again`), where the negation cycles that stage leaves already say so."""

    made: LoweredGame
    settings: _Settings
    mended: LoweredGame
    as_made: Program
    again: _Again | None


def _looked(lowered: LoweredGame, tidy: Callable[[LoweredGame], LoweredGame] | None, staged: StagedRepair | None,
            made: _Settings, limits: Limits) -> _Look:
    """`lowered` tidied and mended by the cheap stage (`staged`, tgpl.lowering.repair), and how it is compiled
    again (`made` its settings) where the negation cycles that stage leaves say so: then the costly stage, whose
    relaxation clingo grounds, and the passes after it (`_finished`) would be thrown away with the compilation.
    The costly stage adds literals of tables and drops arguments, never a relation nor a read of one, so the
    cycles it would leave are those seen; a compilation kept is checked whole, after every pass, as before."""
    given, as_made = lowered, lowered.program
    if tidy is not None:
        limits.check()
        lowered = tidy(lowered)
    again = None
    if staged is not None:  # what can be mended of GDL's restrictions, the same game (tgpl.lowering.lower.lower)
        lowered = lowered.with_program(staged.cheap(lowered.program))
        if staged.spares:
            limits.check()
            cycles = staged.cycles(lowered.program)
            again = _again(cycles, lowered, made) if cycles else None
    return _Look(given, made, lowered, as_made, again)


def _finished(lowered: LoweredGame, staged: StagedRepair | None, limits: Limits) -> LoweredGame:
    """`lowered`, mended by the cheap stage (`_looked`), mended by the costly one and finished by the passes that
    read the mended rules, under the command's `limits` (checked between the passes, and inside the bounds of
    the unfolding and the fold: Checkers's took 3 s of CPU in the unfolding's bounds)."""
    if staged is not None:
        lowered = lowered.with_program(staged.finished(lowered.program))
    limits.check()
    # once the loops are tables (tgpl.asp.static_loops folds a loop whose relations are as compiled)
    lowered = lowered.with_program(unfold_single_readers(lowered.program, limits.check))
    limits.check()
    # a walk asked only whether its result is positive, asked backwards from where it stands
    lowered = lowered.with_program(key_walks(lowered.program, limits.check))
    limits.check()
    # the ways that read a move no player can make (two inputs unified) go
    lowered = lowered.with_program(without_unplayable(lowered.program))
    # rules alike but for an object (a loop's writes unrolled) one rule over a table
    return lowered.with_program(fold_program(lowered.program, limits))


def _again(broken: list[Diagnostic], lowered: LoweredGame, made: _Settings) -> _Again | None:
    """How a compilation made with `made` whose rules break GDL's (`broken`, not empty) is compiled again; None
    where nothing is left to try (the game is refused)."""
    if made.deferred:  # the checks where they run, as before they could be left
        return _Again(made.closures, made.loose, fresh=False, plain=made.plain, searched=made.searched)
    if made.closures and any(_through_closures_only(b, lowered.closure_answers) for b in broken):
        # a caller's demand that waits on a closure's answers, `no` being `not found` (Lines of Action's
        # scan, going on while the search finds each square): compiled again with the counts kept
        return _Again(False, made.loose, searched=made.searched)
    if not made.loose and any(_through(b, lowered.demands) for b in broken):
        # a demand that waits on results read under `not` (horn.loosened): compiled again, from scratch,
        # with the demands asked more widely; only games refused so far take this way
        return _Again(made.closures, True, plain=made.plain, searched=made.searched)
    if made.closures and any(_through(b, lowered.closure_answers) for b in broken):
        return _Again(False, False, searched=made.searched)  # as before closures
    if not made.searched and any(_through(b, lowered.demands) for b in broken):
        # a caller's loop that goes on where a callee's answer is `not` found, the callee's demand asked in that
        # loop (Kamisado's `CanSlide`, `if (Occupied(sq: on)) { return false; }` in a loop up to a distance
        # known at run time): the caller compiled as "some way reaches the early return" (language decision
        # 120), its loop no longer waiting on the answers; from scratch, as the first compilation was made
        return _Again(made.closures, False, plain=made.plain, searched=True)
    return None


def _through(broken: Diagnostic, relations: frozenset[str]) -> bool:
    """A negation cycle through one of `relations` (the emitter's demands or closures' answers: LoweredGame)."""
    return broken.code == "negation-cycle" and any(hop.removeprefix("not ") in relations for hop in broken.about)


def _through_closures_only(broken: Diagnostic, answers: frozenset[str]) -> bool:
    """A negation cycle whose every `not` is of a closure's `found` (tgpl.lowering.closures; `answers`, as the
    emitter named them): the closure made it, where the loosened demands (horn.loosened) mend a cycle through
    another negation (Atari Go's `Captures`)."""
    if broken.code != "negation-cycle":
        return False
    negated = [hop.removeprefix("not ") for hop in broken.about if hop.startswith("not ")]
    return bool(negated) and all(n in answers for n in negated)


def proved(lowered: LoweredGame, counted: dict[str, BoardCount], holds: Holds | None, guessed: Unsupported | None,
           limits: Limits, made: Program | None = None) -> LoweredGame:
    """`lowered`, once `holds` proves that each counter of `counted` counts the board as guessed (one proof of
    them all, by induction on the rules: tgpl.lowering.board_count); else the refusal that made the guesses,
    saying so. Clingo's proof cannot be interrupted: it is left behind past `limits` (tgpl.limits.outside)."""
    if not counted:
        return lowered
    emission = lowered.emitter
    bad = [r for k, (_, c) in enumerate(sorted(counted.items())) for r in invariant_rules(c, emission, f"tgpl_bad_{k}")]
    bad += [Rule(Atom("tgpl_bad"), (Atom(f"tgpl_bad_{k}"),)) for k in range(len(counted))]
    after = [r for k, (_, c) in enumerate(sorted(counted.items())) for r in step_rules(c, emission, f"tgpl_bad_{k}")]
    after += [Rule(Atom("tgpl_bad"), (Atom(f"tgpl_bad_{k}"),)) for k in range(len(counted))]
    cells = state_cells(lowered.program, emission.playing_values())
    proving = ", ".join(f"{c.holder}.{c.counter}" for _, c in sorted(counted.items()))
    why = "is not kept by every move (no proof by induction on the compiled rules)"
    with limits.during(f"proving {proving} counts the board (each write of the field on its own)"):
        try:
            if holds is not None and made is not None and outside(
                    lambda: written_as_counted(made, emission, counted, holds), limits):
                lowered.stats["counters bounded by the board"] = ", ".join(
                    f"{c.counter} ({c.counts}, 0..{c.bound[1]})" for _, c in sorted(counted.items()))
                return lowered
        except ProofTooLarge:
            pass  # the induction decides
    with limits.during(f"proving {proving} counts the board (induction on the compiled rules)"):
        try:
            if holds is not None and outside(lambda: holds.invariant(lowered.program, cells, bad, after), limits):
                lowered.stats["counters bounded by the board"] = ", ".join(
                    f"{c.counter} ({c.counts}, 0..{c.bound[1]})" for _, c in sorted(counted.items()))
                return lowered
        except ProofTooLarge as large:
            why = ("is not proved kept by every move: the proof by induction on the compiled rules, too large, is "
                   f"not tried ({large})")
    said = ", ".join(f"'{c.counter}' as the number of '{c.field}' {c.counts.split()[-1]}"
                     for _, c in sorted(counted.items()))
    e = Unsupported(f"{guessed}; nor is it bounded by the board: {said} {why}")
    e.span = getattr(guessed, "span", None)
    raise e


def written_as_counted(program: Program, emission: Emission, counted: dict[str, BoardCount], holds: Holds) -> bool:
    """Whether every counter of `counted` is kept equal to its count by each write on its own, in the rules as
    made (before tidying, which joins and renames them): each counter stepped in blocks that run whole beside
    the writes of the field that step its count so (board_count.written_in_step, steps_whole), and no write of
    the field, compiled, that fails to move the count as its statement says (board_count.flip_bodies, asked of
    any state and any view of it by `holds.never`). The count is right after setup (board_count.board_counts),
    so every move keeps it: what the induction proves, where it is too large to try (Pente on 9x9 points)."""
    game = emission.g
    bodies: list[tuple] = []
    for _, count in sorted(counted.items()):
        if not written_in_step(game.program, count) or not steps_whole(game.program, count):
            return False
        asked = flip_bodies(game.flips, count)
        if asked is None:
            return False
        bodies += [tuple(emission.literal(x) for x in body) for body in asked]
    internal = {r.head.relation for r in emission.rules}
    views = {emission.relation(r) for r in internal if r.startswith(("view|", "site|"))}
    joins = {emission.relation(r) for r in internal if r.startswith("seg|")}
    made = flip_program(bodies, program, views, joins)
    if made is None:
        return False
    rules, free_views = made
    cells = state_cells(program, emission.playing_values())
    free: dict[str, list] = {}
    for internal_name in sorted(internal):
        name = emission.relation(internal_name) if internal_name.startswith(("view|", "site|")) else None
        if name not in free_views:
            continue
        fluent = emission.fluent(internal_name.split("|", 1)[1].rsplit("@", 1)[0], Var("O"), Var("V")).name
        free[name] = [(terms[0].args[0], [t.args[-1] for t in terms]) for terms, _ in cells
                      if terms[0].name == fluent and len(terms[0].args) == 2]
    return holds.never(rules, cells, free)


def _around_for(s: ast.For) -> tuple[str, ast.Expr, int, int] | None:
    """`for (number i = E + a; i <= E + b; i += 1)` (or `<`, `E - a`, plain `E`), the same E on both sides, with
    neither i nor a name E reads assigned in the body and no call in E: a loop over the places around E (Ataxx's
    neighbours `x = to.X - 1; x <= to.X + 1`). The counter's name, E, a and the passes; None for another loop."""
    init, cond, post = s.init, s.cond, s.post
    if not (isinstance(init, ast.VarDecl) and init.init is not None and isinstance(cond, ast.Binary)
            and cond.op in ("<", "<=") and isinstance(cond.left, ast.Name) and cond.left.name == init.name
            and isinstance(post, ast.Assign) and isinstance(post.target, ast.Name) and post.target.name == init.name
            and post.op == "+=" and isinstance(post.value, ast.NumberLit) and post.value.value == 1):
        return None

    def split(e) -> tuple[ast.Expr, float]:
        if isinstance(e, ast.Binary) and e.op in ("+", "-") and isinstance(e.right, ast.NumberLit):
            return e.left, e.right.value if e.op == "+" else -e.right.value
        return e, 0

    (base, a), (other, b) = split(init.init), split(cond.right)
    if _text(base) != _text(other) or isinstance(base, ast.NumberLit) or a != int(a) or b != int(b):
        return None
    if any(isinstance(n, ast.Call) for n in ast.walk([base])):
        return None
    assigned = {n.target.name for n in ast.walk([s.body]) if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name)}
    if init.name in assigned or horn._names([base]) & assigned:
        return None
    return init.name, base, int(a), max(0, int(b) - int(a) + (cond.op == "<="))


def _plus(base: ast.Expr, k: int) -> ast.Expr:
    """`base + k` as an expression (base itself for 0)."""
    if k == 0:
        return base
    op, n = ("+", k) if k > 0 else ("-", -k)
    return ast.Binary(base.span, op, base, ast.NumberLit(base.span, float(n)))


def _text(e) -> str:
    """An expression's structure without its place in the source: two writes of the same value compare equal."""
    if isinstance(e, list):
        return "[" + ",".join(_text(x) for x in e) + "]"
    if not hasattr(e, "__dataclass_fields__"):
        return repr(e)
    return type(e).__name__ + "(" + ",".join(f"{k}={_text(getattr(e, k))}" for k in e.__dataclass_fields__
                                             if k not in ("span", "name_span")) + ")"
