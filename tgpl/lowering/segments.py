"""From a checked program and its universe to the game's logic: moves, segments, domains.

For every control state (player, turn, phase) that a decision can happen in,
this module lists the moves the player may make, each with the formula that
makes it legal (requires, trigger and filters, read-only), and runs every
move's segment on symbolic paths (tgpl.lowering.execute): the effect, then
the phases entered, up to the next decision. The final paths, with their
conditions, the fluents they write, their control and their result, are the
game's transition relation. Control states are found as the segments reach
them, starting from the control after setup.

Numeric fluents are opaque while the code runs; their ranges are found last
(`number_domains`): the values a segment can write, from the ranges so far,
until nothing new appears. Paths that end the game do not feed the ranges
back, since no move is made after them: that is what bounds a counter that
ends the game when it reaches a value.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.after_setup import after_setup_nodes
from tgpl.frontend.outcomes import scalar_text, string_literal
from tgpl.frontend.types import BOOL, NUMBER, PLAYER, STRING, CallableType, ClassType, Collection
from tgpl.lowering import execute
from tgpl.lowering.execute import OWNER, THROWN, Dice, Executor, NotLowerable, Path, dealable, thrown_condition
from tgpl.lowering.implied import forget as forget_implied
from tgpl.lowering.minimize import forget as forget_minimized, minimize
from tgpl.lowering.symbolic import (
    FALSE, TRUE, UNDEF, Choice, CmpLit, ControlLit, FluentLit, ViewLit, Formula, MoveLit, Num, Partial, UObj,
    as_formula, bottom_up, cases_of, choice, compatible, conj, disj, evaluate3, lift, lit, literal_value, literals,
    literals_of, neg, rebuild, value_identity, vkey,
)
from tgpl.lowering.horn import HornCompiler, Unsupported, relaxed_reads
from tgpl.lowering.satisfy import Solver
from tgpl.lowering.conserved import conserved_families
from tgpl.lowering.number_chains import Line
from tgpl.lowering.list_sums import nulls_cell, sum_cell, summed_fields, total_domain
from tgpl.lowering.chance import (DEALT_ITEMS, PHASE_THROW, PILE, RANDOM, SETUP, action_rolls, dealt_decks, left_cell,
                                  phase_rolls, roll_name,
                                  setup_deal_calls, setup_deal_control, setup_deal_refusal, setup_deal_step)
from tgpl.lowering.percepts import has_secrets
from tgpl.lowering.subset import (changed_decks, outside_subset, phase_body_after_inputs, phase_inputs,
                                  phase_move_input, pool_classes, set_lists, state_lists)
from tgpl.lowering.runaway import first_write, growing_write
from tgpl.lowering.saturate import capped_counters
from tgpl.lowering.universe import MADE, Pool, Universe, length_cell, list_cell, member_cell, member_of, slot_cell
from tgpl.lowering.unread import unread_attributes
from tgpl.limits import LimitReached, Limits, unlimited

RANGE_LIMIT = 256  # values of one numeric fluent
FIXPOINT_LIMIT = 10_000
# assignments of the counters tried while finding their ranges: counters that grow apart (two scores
# bounded only by the moves left) make that search cubic, so it is refused past this, not run for hours
RANGE_WORK_LIMIT = 2_000_000
QUESTION_LIMIT = 20_000
"""Questions to clingo (`Admission.can_hold`) one search of the ranges may ask: the joint search then gives up as
past its states (the searches apart follow), and the search by counter refuses the game, located at a counter.
Shut the Box asked thousands per dice value (a write of the two scores by cases over every box, judged with each
roll's comparisons) before its combinations were enumerated (`Together._enumerated`), now 181; the most another
game in tests/ asks is Harvest's 2,149 (tests/data/designers/harvest.tgpl; it asked 9,462 one at a time)."""
RANGE_WORK = 20_000_000
"""The work all of one search of the numbers' ranges may do (`RangeWork`, the default of `Lowering.range_work`), past
which the game is refused. Treasure (examples/treasure.tgpl), the costliest of the games that lower, does 14,446,885
(7.7 million cases in 2,978 states, 639 questions); Ends and Scores 4,449,595, Stockpile 2,025,517, Shut the Box
spelled out 1,594,416. Pente 7x7's captures (tests/data/designers/pente7.tgpl) walk 107,786 cases in the search's
first state and ask a question for each case of a capture, Oware's sowing (tests/data/designers/oware.tgpl) 3,623
cases in each of its states: each was searched on for minutes, every search that gave up followed by another."""
QUESTION_WORK = 1_000
"""What one question to clingo counts in a range search's work (`RangeWork.asked`), in cases walked, on top of the
literals its formulas assume and a share of clingo's program (`satisfy.Solver.work`): a question takes some 5 ms
(Pente's 2 to 13, more as the program grows), a case walked 5 to 10 µs (Line Up's, Treasure's)."""


class RangeBudget(Exception):
    """The search of the numbers' ranges passed its budget of work (`RangeWork`)."""


@dataclass
class RangeWork:
    """The work of one search of the numbers' ranges (`_number_domains`: the joint search, the searches alone
    that follow it and the search by counter, together), counted, never timed: the cases of the moves' writes
    walked (`_case_count`, per state), the assignments the searches by counter try, and each question to clingo
    as QUESTION_WORK plus the literals it assumes. Past `budget` the game is refused (`budget_refusal`): each
    search had a budget of its own, and a game whose searches all gave up late (Pente 7x7's captures, Oware's
    sowing) ran for minutes before a refusal nobody waited for."""

    budget: int
    spent: int = 0
    questions: int = 0
    # the values each counter of the search underway (the joint search's, or the search by counter's) was found to
    # take so far, kept as it grows: what a search cut short had reached (`search_underway`)
    found: dict[tuple, set] = field(default_factory=dict)

    def spend(self, n: int) -> None:
        """Count n units of work; RangeBudget past the budget."""
        self.spent += n
        if self.spent > self.budget:
            raise RangeBudget()

    def asked(self, solver_work: int) -> None:
        """Count one question to clingo, of `solver_work` (`satisfy.Solver.work`) besides QUESTION_WORK."""
        self.questions += 1
        self.spend(QUESTION_WORK + solver_work)


def unbudgeted(work: RangeWork | None = None) -> RangeWork:
    """`work` where a caller gave one (the range search's, `_number_domains`); else the work of a search run
    outside it (a list's lengths checked again): counted, with no budget."""
    return work if work is not None else RangeWork(budget=10 ** 18)



@dataclass
class MoveInfo:
    index: int
    player: int
    obj: UObj
    action: ast.ActionDef
    inputs: tuple  # ((input name, concrete value), ...) as the mover picks them
    text: str  # the runtime's move text
    # a phase's own input (`phase_move_input`): (turn, phase), `obj` None and `action` the phase read as an action
    # of no object (`phase_action`), its text the value picked, as the runtime's decision
    phase: tuple[str, ast.PhaseDef] | None = None


@dataclass
class Fluent:
    obj: UObj
    attr: str
    type: object  # the attribute's checker type
    initial: object
    domain: list = field(default_factory=list)  # concrete values (numbers once ranges are known)

    @property
    def numeric(self) -> bool:
        return self.type == NUMBER


@dataclass
class ControlState:
    control: tuple
    legal: list[tuple[MoveInfo, Formula]] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)  # final paths of all its moves


@dataclass
class GameLogic:
    universe: Universe
    fluents: dict[tuple[str, str], Fluent]
    moves: list[MoveInfo]
    states: dict[tuple, ControlState]
    labels: dict[int, str]
    results: list[tuple]  # every ranking a segment can end with
    start: tuple  # the control of the initial state: after setup's, or random's where setup throws dice
    views: list = field(default_factory=list)  # tgpl.lowering.execute.View, by id
    horn: object = None  # tgpl.lowering.horn.HornCompiler: the functions compiled to rules with variables
    horn_contexts: dict = field(default_factory=dict)  # their contexts (Executor.horn_contexts)
    # a call's (function, args, cases) -> the views it reads: kept here, for every emission of this game
    # (emit.Emitter._views_read; the check made global is emitted twice, and its calls are many)
    views_read: dict = field(default_factory=dict)
    # attribute -> the total of its family proved conserved (tgpl.lowering.conserved): in every state a play
    # reaches, distinct members sum to at most it (the number line of tgpl.lowering.number_chains)
    totals: dict[str, int] = field(default_factory=dict)
    # counters held cut down to a cap (tgpl.lowering.saturate.capped_counters): attribute -> its cap; the runtime's
    # values are cut down to it where its states are read as the GDL's (emit.Emitter.state_fluents)
    caps: dict[str, int] = field(default_factory=dict)

    def number_line(self) -> Line:
        """The ranges sums of counters chain through (tgpl.lowering.number_chains)."""
        return Line({k: fl.domain for k, fl in self.fluents.items() if fl.numeric and fl.domain}, self.totals)


def builtin_writes(program, call: ast.Call) -> set[str]:
    """The built-in attributes a call of a built-in method writes: a piece's `tile`, which move_to() sets, and
    discard()'s `tile` and `discarded`; a deck's `length`, which pop() lowers (its items are fixed after setup:
    what is left is its length). Empty for any other call."""
    ct = program.types.get(id(call.callee))
    if not (isinstance(ct, CallableType) and ct.kind == "builtin" and "." not in ct.target.name):
        return set()
    if ct.name == "move_to":
        return {"tile"}
    if ct.name == "discard":
        return {"tile", "discarded"}
    if ct.name == "pop" and isinstance(program.types.get(id(getattr(call.callee, "obj", None))), ClassType):
        return {"length"}
    return set()


def builtin_attribute_type(cls, name: str, builtins):
    """The type of an interactable's built-in attribute that moves change (`tile`: where a piece stands, set by
    move_to() and discard(); `discarded`, set by discard()), None for any other name or class."""
    if cls.kind != "interactable":
        return None
    return ClassType(builtins.tile) if name == "tile" else BOOL if name == "discarded" else None


def written_attributes(program) -> set[str]:
    """Attribute names that code running after setup assigns (by name: a sound over-approximation)."""
    code = [fi.defn for info in program.classes for fi in info.functions.values()]
    code += [action for info in program.classes for action in info.actions.values()]
    code += [fi.defn for fi in program.functions] + [turn.defn for turn in program.turns.values()]
    names: set[str] = set()
    for node in ast.walk(code):
        if isinstance(node, ast.Assign):
            t = node.target
            if isinstance(t, ast.Member):
                names.add(t.name)
            elif isinstance(t, ast.Name) and id(t) in program.implicit_this:
                names.add(t.name)
        elif isinstance(node, ast.Call):
            names |= builtin_writes(program, node)
    return names


def written_after_setup(program) -> set[str]:
    """Attribute names that code which can run after setup assigns (by name), the functions only setup calls left
    out (tgpl.frontend.after_setup): a board marked by a function of its own in setup keeps those marks."""
    from tgpl.frontend.after_setup import after_setup_nodes

    names: set[str] = set()
    for node in after_setup_nodes(program):
        if isinstance(node, ast.Assign):
            t = node.target
            if isinstance(t, ast.Member) or isinstance(t, ast.Name) and id(t) in program.implicit_this:
                names.add(t.name)
        elif isinstance(node, ast.Call):
            names |= builtin_writes(program, node)
    return names


def assigned_classes(program) -> list:
    """The classes whose objects code running after setup may assign() to a player: the static type of
    the receiver, or the class whose code calls `assign(p)` on itself (its subclasses included)."""
    out = []
    during_play = {id(n) for n in after_setup_nodes(program)}  # an assign() in setup alone changes no owner
    owners = [(info, fi.defn) for info in program.classes for fi in info.functions.values()]
    owners += [(info, a) for info in program.classes for a in info.actions.values()]
    owners += [(None, fi.defn) for fi in program.functions] + [(None, t.defn) for t in program.turns.values()]
    for info, code in owners:
        for node in ast.walk(code):
            if not isinstance(node, ast.Call) or id(node) not in during_play:
                continue
            ct = program.types.get(id(node.callee))
            if not (isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name == "assign"
                    and "." not in ct.target.name):
                continue
            t = program.types.get(id(node.callee.obj)) if isinstance(node.callee, ast.Member) else None
            if isinstance(t, ClassType):
                out.append(t.info)
            elif info is not None and not isinstance(node.callee, ast.Member):
                out.append(info)
            else:
                out.append(None)  # unknown: every object
    return out


def refused_up_front(program, universe: Universe) -> list[tuple[Span, str]]:
    """What the lowering refuses before it runs any code, in source order: the constructs it never translates
    (`subset.outside_subset`), and a reshuffle of a deck whose setup deals stay the seed's
    (`chance.setup_deal_refusal`)."""
    found = outside_subset(program)
    more = setup_deal_refusal(program, universe)
    return sorted(found + more, key=lambda sr: (sr[0].file, sr[0].line, sr[0].col)) if more else found


class Lowering:
    """Builds the GameLogic of a program from its universe."""

    def __init__(self, program, universe: Universe, relations: bool = False, progress=None,
                 value_slots: dict[tuple[str, str], int] | None = None, limits: Limits | None = None,
                 ordered: frozenset[str] = frozenset(), range_work: int | None = None):
        Formula.fresh_table()
        self.limits = limits if limits is not None else unlimited()  # the command's (tgpl.limits)
        # the budget of work of the search of the numbers' ranges (`RangeWork`), and the last search's account
        self.range_work = RANGE_WORK if range_work is None else range_work
        self.range_spent: RangeWork | None = None
        forget_minimized()
        forget_implied()
        self.program = program
        self.u = universe
        self.builtins = program.builtins
        self.lists: dict[tuple[str, str], int] = {}  # (object, list attribute) that is state -> its slots
        # (object, list attribute) kept as the set of its items (`subset.set_lists`) -> the objects it may hold;
        # `ordered` names those a run found may hold an item twice (`NotASet`): kept in order
        self.ordered = ordered
        self.sets: dict[tuple[str, str], tuple[UObj, ...]] = {}
        # the slots of each list of values that is state, as a run that found them too few asked (`MoreSlots`)
        self.value_slots = dict(value_slots or {})
        self.unread = unread_attributes(program)  # written, never read: no fluent, writes dropped (decision 109)
        # the running totals of item fields over lists that are state (tgpl.lowering.list_sums, decision 113):
        # (object, total's cell) -> (list attribute, field, the field's values over the element class)
        self.summed = summed_fields(program)
        self.sums: dict[tuple[str, str], tuple[str, str, list[float]]] = {}
        self.fluents = self._find_fluents()
        self._read_cache: dict[tuple, object] = {}
        viewable = {k for k, fl in self.fluents.items() if not fl.numeric}
        horn = None
        if not self.lists and not self.sets:  # what the compiled functions' reads can give, before the numbers' ranges are known
            # (a list that is state is read through its cells, which the compiled rules do not). Without
            # --functions-as-relations, only functions a call of which costs the executor too much are compiled
            horn = HornCompiler(program, universe, set(self.fluents))
            # no closures (tgpl.lowering.closures) spelled out: nothing here checks the rules for the negation
            # cycle a caller's demand waiting on a closure's answers makes (compile_game does, and compiles again)
            horn.closures = False
            try:
                horn.relaxed_reads = relaxed_reads(horn, [fl for fl in self.fluents.values() if not fl.numeric])
            except Unsupported:
                horn = None  # a fluent holds values the compiled rules cannot name (strings): every call is run
        self.ex = Executor(program, universe, set(self.fluents), self.read_before, self.read_view, viewable, horn,
                           self.lists, compile_all=relations, sets=self.sets)
        for (obj, cell), (attr, field, _) in sorted(self.sums.items()):
            self.ex.sums.setdefault((obj, attr), []).append((field, cell))
        self.ex.progress = progress  # (statements, parts of conditions): for a display of a long lowering
        self.ex.limits = self.limits  # checked at every statement run
        self.moves: list[MoveInfo] = []
        self._move_ids: dict[tuple, MoveInfo] = {}
        # the paths the moves' effects of the control state under way have ended in so far, those PATH_LIMIT
        # bounds (`_segment`): the dry run reads how many each move adds (tgpl.lowering.lowerable)
        self.effect_paths: list[Path] = []
        # the actions whose die random throws (tgpl.lowering.chance): a move of one hands control to random, in
        # a control state (player, turn, phase, the move's index) whose moves are random's (roll k)
        self.rolls = action_rolls(program)[0]
        # the decks random deals from at pop() (tgpl.lowering.chance.dealt_decks): a deal is a die whose faces are
        # the deck's items, random's face k legal while its k-th item is left (`legal_moves`)
        self.deal_decks = self._deal_decks()
        slots = {name: len(o.items) for name, o in self.deal_decks.items()}
        self.refills = dealt_decks(program)[0].refills  # of those, the classes a reshuffle refills (decision 105)
        self.rolls = {k: t.sized(slots) if t.deals else t for k, t in self.rolls.items()}
        # the phases whose dice random throws as the flow enters them (tgpl.lowering.chance.phase_rolls): the flow
        # stops there in random's control state (player, turn, phase, PHASE_THROW), whose moves run the phase
        self.ex.phase_throws = phase_rolls(program)[0]
        # passes before a loop bounded by a number of the state is cut (Executor.loop_cut; `lowered_logic` sets it)
        self.loop_cut: int | None = None
        # the ranges a lowering at a shorter cut (same pools) found: where they already show this cut short, the
        # ranges are not searched again (`early_loop_cuts`; `lowered_logic` sets it)
        self.cut_ranges: dict[tuple, list] | None = None
        # where setup throws dice, the game starts with random to move, in a control state (the control after
        # setup, SETUP) whose move (roll k) sets what the k-th way they fall set (`_setup_thrown`)
        self.start = self.u.control + (SETUP,) if self.u.throws else self.u.control
        if self.u.deals:  # setup's deals: random's first moves, one a pop() (decision 112, `_setup_dealt`)
            self.start = self.u.control + (setup_deal_control(0),)
            self._check_setup_deals()
        # in a game with secrets, whether a die is thrown may be one (Monty Hall's host throws only when the
        # contestant holds the car): random then throws after every move of an action that may throw, and
        # where the runtime draws nothing its face changes nothing (tgpl.lowering.percepts, decision 97)
        self.secret_throws = has_secrets(program)

    def cappable(self) -> dict[str, int]:
        """The counters that may be held cut down to a cap (tgpl.lowering.saturate.capped_counters), each with its
        cap, judged on the source and the values after setup: of the numeric attributes the source declares, those
        no built-in writes (a deck's `length`, which pop() lowers, out of the source's sight)."""
        nodes = [n for module in self.program.modules for n in ast.walk(module.items)]
        declared = {n.name for n in nodes if isinstance(n, ast.Attribute)}
        declared -= {name for n in nodes if isinstance(n, ast.Call) for name in builtin_writes(self.program, n)}
        numeric = {fl.attr for fl in self.fluents.values() if fl.numeric and fl.attr in declared}
        initial: dict[str, list] = {}
        for fl in self.fluents.values():
            if fl.numeric:
                initial.setdefault(fl.attr, []).append(fl.initial)
        return capped_counters(self.program, numeric, initial)

    def _check_setup_deals(self) -> None:
        """Raises NotLowerable, at setup's first pop(), where a cell a setup deal fills is no state."""
        for cells, lengths in self.u.deals:
            for obj, attr in (*cells, *lengths):
                if (obj, attr) not in self.fluents:
                    raise NotLowerable(setup_deal_calls(self.program)[0].span,
                                       f"setup deals into {obj}.{attr}, which is no state: random deals setup's "
                                       "pops where code after setup changes what they fill (decision 112)")

    def _setup_dealt(self, cs: tuple, k: int, ctrl: Formula, legal: list[tuple[MoveInfo, Formula]]) -> list[Path]:
        """The paths of random's (k+1)-th move at the start, setup's (k+1)-th deal (tgpl.setup_deals): `(roll j)`
        takes the deck's j-th item (no longer left, one fewer left) into the cells that deal fills, with the
        lengths it makes; then the next deal, or the control after setup."""
        deck = self.u.by_name[self.u.deal_deck]
        cells, lengths = self.u.deals[k]
        nxt = cs[:3] + (setup_deal_control(k + 1),) if k + 1 < len(self.u.deals) else cs[:3]
        out = []
        for m, _ in legal:
            j = int(m.inputs[0][1])
            store = {(deck.name, left_cell(j - 1)): False,
                     (deck.name, length_cell(DEALT_ITEMS)): float(len(deck.items) - k - 1),
                     **{cell: deck.items[j - 1] for cell in cells}, **lengths}
            store.update(self._dealt_totals(cells, deck.items[j - 1]))
            out.append(Path(conj(ctrl, lit(MoveLit(m.index))), store, nxt))
        return out

    def _dealt_totals(self, cells, item: UObj) -> dict[tuple[str, str], object]:
        """The running totals (decision 113) a setup deal of `item` into these cells moves: each list slot filled
        adds the item's field to its list's totals."""
        out: dict[tuple[str, str], object] = {}
        for obj, attr in cells:
            found = list_cell(attr)
            if found is None or found[1] is None:
                continue
            for field, cell in self.ex.sums.get((obj, found[0]), ()):
                if field is None:
                    continue  # a deal's item is no null
                before = out.get((obj, cell), Num("fluent", (obj, cell)))
                out[(obj, cell)] = Num("+", (before, float(item.fields[field])))
        return out

    def _deal_decks(self) -> dict[str, UObj]:
        """The deck random deals from for each dealt deck class a move pops (tgpl.lowering.chance.dealt_decks):
        one object of it, the set of whose items left is state (chance.left_cell). Raises NotLowerable for a
        class of several decks (random's move would have to say which)."""
        out = {}
        for t in self.rolls.values():
            for d in t.dice:
                if d.deal is None or d.deal in out:
                    continue
                info = next(c for c in self.program.classes if c.name == d.deal)
                decks = [o for o in self.u.objects if o.items is not None and o.is_a(info)]
                if len(decks) != 1:
                    raise NotLowerable(d.call.span, f"pop() of a shuffled {d.deal} is lowered as random's deal when "
                                                    f"the game has one {d.deal}, not {len(decks)}")
                out[d.deal] = decks[0]
        return out

    # ------------------------------------------------------------ fluents
    def _find_fluents(self) -> dict[tuple[str, str], Fluent]:
        written = written_attributes(self.program) - self.unread.names
        lists = state_lists(self.program)
        written |= lists
        thrown = set(self.u.throws[0]) if self.u.throws else set()  # cells setup's dice set: random's first move
        written |= {name for _, name in thrown}
        sets = self._set_names(lists)
        out: dict[tuple[str, str], Fluent] = {}
        for o in self.u.objects:
            for name in o.fields:
                if name not in written:
                    continue
                found = o.cls.find_attribute(name)
                t = found[1] if found is not None else builtin_attribute_type(o.cls, name, self.builtins)
                if t is None:
                    continue
                initial = o.fields[name]
                if isinstance(initial, tuple) and name in sets and isinstance(t, Collection):
                    out.update(self._set_fluents(o, name, t, initial))
                    continue
                if isinstance(initial, tuple) and name in lists and isinstance(t, Collection):
                    out.update(self._list_fluents(o, name, t, initial))
                    continue
                if isinstance(initial, (tuple, dict)):
                    continue  # other collections: writes to them are refused when met
                out[(o.name, name)] = Fluent(o, name, t, initial)
        dealt = dealt_decks(self.program)[0]
        for o in self.u.objects:  # a deck random deals from: the set of its items left, and their number
            if o.items is not None and o.cls.name in dealt.classes:
                out[(o.name, length_cell(DEALT_ITEMS))] = Fluent(o, length_cell(DEALT_ITEMS), NUMBER, float(len(o.items)))
                out.update({(o.name, left_cell(k)): Fluent(o, left_cell(k), BOOL, True) for k in range(len(o.items))})
                if o.cls.name in dealt.refills:  # its discards come back: the pile's count (decision 105)
                    out[(o.name, length_cell(PILE))] = Fluent(o, length_cell(PILE), NUMBER, self._pile(o, dealt))
        if "length" in written:  # how many of a deck's items pop() has not taken yet
            changed = changed_decks(self.program)
            for o in self.u.objects:
                if o.items is not None and not any(o.is_a(c) for c in changed):
                    out[(o.name, "length")] = Fluent(o, "length", NUMBER, float(len(o.items)))
        for pool in self.u.pools:
            out.update(self._pool_fluents(pool))
        assigned = assigned_classes(self.program)
        for o in self.u.objects:  # the owner, when assign() can change it: one player or none
            if o.cls.kind not in ("class", "interactable", "stack", "board") or o.cls.visibility == "group":
                continue  # group objects have a set of owners: assign() on them is refused when met
            if any(info is None or o.is_a(info) for info in assigned):
                out[(o.name, OWNER)] = Fluent(o, OWNER, PLAYER, float(o.owners[0]) if o.owners else None)
        for cell in sorted(thrown):
            fl = out.get(cell)
            if fl is None:
                raise NotLowerable(None, f"setup's dice set {cell[0]}.{cell[1]}, which is no attribute the lowering "
                                         "can make state")
            if isinstance(fl.type, ClassType):  # before the dice, no object: the car is behind no door yet
                fl.initial = None
        for fl in out.values():
            fl.domain = self._static_domain(fl)
            if fl.obj.cls.name in dealt.classes and list_cell(fl.attr) is not None and fl.type == BOOL:
                fl.domain = [False, True]  # an item of a dealt deck is in it or not, never null
            if member_of(fl.attr) is not None:
                fl.domain = [False, True]  # an object is in a list kept as a set or not, never null
        return out

    def _pile(self, deck: UObj, dealt) -> float:
        """The count of a reshuffled dealt deck's pile when play begins: 0, where every item discard() may put on it
        after setup is one of the deck's roster (the items it holds then), so that a reshuffle's items are named by
        random's deals. Raises NotLowerable, at the reshuffle, for an item outside it (dealt in setup) or a pile
        setup left with items."""
        site = next(n.span for n in after_setup_nodes(self.program) if isinstance(n, ast.Call)
                    and isinstance(n.callee, ast.Member) and n.callee.name == "reshuffle")
        if deck.fields.get(PILE):
            raise NotLowerable(site, f"reshuffle() of {deck.name} is not lowerable: setup leaves items on its "
                                     f"{PILE}, which random's deals do not name")
        if setup_deal_refusal(self.program, self.u):
            return 0.0  # refused up front (`run`), with the constructs the lowering never translates
        roster = set(deck.items)
        kinds = [t.info for n in after_setup_nodes(self.program) if isinstance(n, ast.Call)
                 and isinstance(n.callee, ast.Member) and n.callee.name == "discard"
                 and isinstance(t := self.program.types.get(id(n.callee.obj)), ClassType)]
        outside = [o.name for o in self.u.objects if any(o.is_a(c) for c in kinds) and o not in roster]
        if outside:
            raise NotLowerable(site, f"reshuffle() of {deck.name} is lowered where every item discard() may put on "
                                     f"its pile is in the deck when play begins, and {outside[0]} is not (dealt in "
                                     "setup?): random's deals name the items the deck holds then")
        return 0.0

    def _pool_fluents(self, pool: Pool) -> dict[tuple[str, str], Fluent]:
        """A pool's counter (how many of its objects `new` took, 0 after setup), and every attribute of each of
        its objects, null until `new` takes it: the attributes of a plain class, base first, and an
        interactable's built-in `tile` and `discarded` (its owner is a fluent when assign() can change it,
        as for any object). Every attribute is a fluent, not only those code assigns: an object made after
        setup has no value to read before it exists, and its initial values are written when it is made."""
        out = {(pool.counter.name, MADE): Fluent(pool.counter, MADE, NUMBER, 0.0)}
        for o in pool.objects:
            for name, t in pool_attributes(o.cls, self.builtins):
                if name not in self.unread.names:
                    out[(o.name, name)] = Fluent(o, name, t, None)
        return out

    def _set_names(self, lists: frozenset[str]) -> frozenset[str]:
        """The lists that are state kept as sets (`subset.set_lists`): not those a run found may hold an item
        twice (`ordered`), that setup left holding an item twice or a null (not a set of objects), or that
        random's setup deals fill slot by slot (decision 112)."""
        names = set_lists(self.program) & lists - self.ordered
        dealt = {found[0] for cells, _ in self.u.deals for _, attr in cells if (found := list_cell(attr))}
        for o in self.u.objects:
            for name in names & set(o.fields):
                items = o.fields[name]
                if isinstance(items, tuple) and (any(not isinstance(x, UObj) for x in items)
                                                 or len({x.name for x in items}) < len(items)):
                    dealt.add(name)
        return frozenset(names - dealt)

    def _set_fluents(self, o: UObj, name: str, t: Collection, initial: tuple) -> dict[tuple[str, str], Fluent]:
        """A list kept as a set: whether each object of its element class is in it, a bool."""
        items = tuple(self.u.of_class(t.elem.info))
        self.sets[(o.name, name)] = items
        held = {x.name for x in initial}
        return {(o.name, cell): Fluent(o, cell, BOOL, x.name in held)
                for x in items for cell in [member_cell(name, x.name)]}

    def _list_fluents(self, o: UObj, name: str, t: Collection, initial: tuple) -> dict[tuple[str, str], Fluent]:
        """A list attribute that is state: its length, a number, and a slot per item it can hold, each
        an item or null. A list of objects can hold as many items as its element class has objects (more
        would repeat one: the ranges then refuse it, `check_list_lengths`). A list of values has as many
        slots as its length's range needs: a first guess, grown when the ranges pass it (`MoreSlots`).
        Slots past the length are null."""
        if isinstance(t.elem, ClassType):
            size = max(len(self.u.of_class(t.elem.info)), len(initial))
        else:
            size = self.value_slots.setdefault((o.name, name), len(initial) + FIRST_VALUE_SLOTS)
        self.lists[(o.name, name)] = size
        out = {(o.name, length_cell(name)): Fluent(o, length_cell(name), NUMBER, float(len(initial)))}
        for field in sorted(self.summed.get(name, ())) if isinstance(t.elem, ClassType) else ():
            values = self._summed_values(t.elem.info, field, initial)
            if values is not None:
                cell = sum_cell(name, field)
                start = sum(x.fields[field] for x in initial)
                out[(o.name, cell)] = Fluent(o, cell, NUMBER, float(start))
                self.sums[(o.name, cell)] = (name, field, values)
                # how many of its items are null (add(null)): the loop is a runtime error unless none is
                nulls = nulls_cell(name)
                out[(o.name, nulls)] = Fluent(o, nulls, NUMBER, 0.0)
                self.sums[(o.name, nulls)] = (name, None, [1.0])
        for k in range(size):
            cell = slot_cell(name, k)
            out[(o.name, cell)] = Fluent(o, cell, t.elem, initial[k] if k < len(initial) else None)
        return out

    def _summed_values(self, info, field: str, initial: tuple) -> list[float] | None:
        """The values of `field` over the objects of class `info`, where a list of them can keep a running total
        of it (decision 113): a whole number in every one, that no code after setup writes, and setup's items
        all objects. None otherwise: the loop that sums it runs slot by slot."""
        if field in written_attributes(self.program) or any(not isinstance(x, UObj) for x in initial):
            return None
        values = []
        for o in self.u.of_class(info):
            v = o.fields.get(field)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or float(v) != int(v):
                return None
            values.append(float(v))
        return values

    def _static_domain(self, fl: Fluent) -> list:
        t = fl.type
        if t == NUMBER:
            return []
        if t == PLAYER:
            values = [None] + [float(i) for i in range(self.u.players)]
        elif t == BOOL:
            values = [False, True, None]
        elif isinstance(t, ClassType):
            values = [None] + self.u.of_class(t.info)
        elif t == STRING:
            values = [None] + sorted(self._string_literals())
        else:
            raise NotLowerable(self._attr_span(fl), f"'{fl.attr}' has a type the lowering cannot enumerate")
        if not any(vkey(v) == vkey(fl.initial) for v in values):
            values.append(fl.initial)
        return values

    def _string_literals(self) -> set[str]:
        return {n.value for m in self.program.modules for n in ast.walk(m.items) if isinstance(n, ast.StringLit)}

    def _attr_span(self, fl: Fluent):
        if fl.attr == MADE:  # a pool's counter: at the class's first `new`
            news = pool_classes(self.program).get(fl.obj.cls)
            return news[0].span if news else None
        for info in fl.obj.cls.ancestors():
            if fl.attr in info.attributes:
                return info.attributes[fl.attr].span
        return None

    def read_before(self, obj: str, attr: str):
        """A fluent's value before the move: opaque for numbers, by cases otherwise."""
        key = (obj, attr)
        v = self._read_cache.get(key)
        if v is None:
            fl = self.fluents[key]
            if fl.numeric:
                v = Num("fluent", key)
            else:
                v = choice((x, lit(FluentLit(obj, attr, literal_value(x)))) for x in fl.domain)
            self._read_cache[key] = v
        return v

    def read_view(self, view: int, obj: str, attr: str):
        """A fluent's value through a view, by cases."""
        key = (view, obj, attr)
        v = self._read_cache.get(key)
        if v is None:
            fl = self.fluents[(obj, attr)]
            v = choice((x, lit(ViewLit(view, obj, attr, literal_value(x)))) for x in fl.domain)
            self._read_cache[key] = v
        return v

    # ------------------------------------------------------------ moves
    def choice_event(self, player: int) -> UObj:
        ev = UObj("PlayerChoiceEvent", self.builtins.player_choice, (), -1)
        ev.fields = {"active": float(player)}
        return ev

    def legal_moves(self, cs: tuple) -> list[tuple[MoveInfo, Formula]]:
        if len(cs) == 4 and cs[3] == SETUP:  # random throws setup's dice: a move for each way they fall
            return [(self.random_move((k,)), TRUE) for k in range(1, len(self.u.throws) + 1)]
        if setup_deal_step(cs) is not None:  # setup's deal: the deck's j-th item, while it is left
            deck = self.u.by_name[self.u.deal_deck]
            at = Path(TRUE, {}, cs[:3])
            return [(self.random_move((j,)), as_formula(self.ex.read(at, deck, left_cell(j - 1), None)) or FALSE)
                    for j in range(1, len(deck.items) + 1)]
        if len(cs) == 4 and cs[3] == PHASE_THROW:  # random throws the dice of the phase entered
            return [(self.random_move(faces), TRUE) for faces in self.ex.phase_throws[cs[1:3]].faces]
        if len(cs) == 4:  # random throws the dice of the move made: each way they fall is legal
            throw = self.rolls[id(self.moves[cs[3]].action)]
            if throw.deals and (throw.entered or throw.dice[0].deal in self.refills):
                return self._deals_where_they_stand(cs, throw)
            if throw.deals:  # a deal: the deck's k-th item, while it is left (the first, null, from an empty deck)
                deck = self.deal_decks[throw.dice[0].deal]
                at = Path(TRUE, {}, cs[:3])
                empty = as_formula(lift(lambda n: n == 0, self.ex._deck_length(at, deck, len(deck.items), None)))
                return [(self.random_move((k,)), disj(as_formula(self.ex.read(at, deck, left_cell(k - 1), None))
                                                      or FALSE, empty if k == 1 else FALSE) or FALSE)
                        for (k,) in throw.faces]
            return [(self.random_move(faces), TRUE) for faces in throw.faces]
        player = cs[0]
        ctrl = lit(ControlLit(cs))
        phase_def = ast.phase_named(self.ex.turns.get(cs[1]), cs[2])
        if phase_def is not None and phase_move_input(phase_def) is not None:
            return self.phase_moves(cs, phase_def)
        event = self.choice_event(player)
        choice_names = {c.name for c in self.builtins.player_choice.ancestors()}
        out = []
        for obj in self.u.objects:
            mine = TRUE  # the player owns obj: static, or the owner fluent when assign() can change it
            if obj.cls.visibility != "global":
                if (obj.name, OWNER) in self.fluents:
                    mine = lit(FluentLit(obj.name, OWNER, literal_value(float(player))))
                elif player not in obj.owners:
                    continue
            for action in actions_of(obj):
                triggers = [t for t in action.triggers if t.event in choice_names]
                if not triggers:
                    continue
                base = Path(ctrl, {}, cs)
                ok = mine
                for req in action.requires:
                    ok = conj(ok, self.block_truth(req.body, base, obj, event, {}, f"require_{action.name}"))
                ok = conj(ok, self.block_truth(triggers[0].body, base, obj, event, {}, f"trigger_{action.name}"))
                if ok is FALSE:
                    continue
                for combo, f in self.combos(list(action.inputs), base, obj, event, {}):
                    legal = conj(ok, f)
                    if legal is FALSE:
                        continue
                    out.append((self.move(player, obj, action, combo), legal))
        return out

    def phase_moves(self, cs: tuple, phase_def: ast.PhaseDef) -> list[tuple[MoveInfo, Formula]]:
        """The moves of a control state whose phase asks an input when entered: only its candidates, as the
        runtime offers nothing else while the input waits (a path entering it waits there, `enter_phases`)."""
        action = phase_action(phase_def)
        base = Path(lit(ControlLit(cs)), {}, cs)
        out = []
        for combo, f in self.combos(list(action.inputs), base, None, None, {}):
            if f is not FALSE:
                out.append((self.move(cs[0], None, action, combo, (cs[1], phase_def)), f))
        return out

    def combos(self, inputs, base: Path, obj, event, bound: dict):
        """(input values, filter formula) for each way the mover can fill the inputs."""
        if not inputs:
            yield (), TRUE
            return
        inp, rest = inputs[0], inputs[1:]
        modifier = inp.modifier if not inp.modifier.startswith("?") else "player"
        if modifier != "player" or inp.target is not None:
            raise NotLowerable(inp.span, f"{modifier} inputs of actions are not lowerable (only inputs the mover picks)")
        candidates = self.candidates(inp)
        if inp.optional:
            candidates = candidates + [None]
        for c in candidates:
            scope = dict(bound)
            scope[inp.name] = c
            f = self.offered(c)
            for flt in inp.filters:
                fscope = dict(scope)
                fscope[flt.name or inp.name] = c
                f = conj(f, self.block_truth(flt.body, base, obj, event, fscope, f"filter_{inp.name}"))
                if f is FALSE:
                    break
            if f is FALSE:
                continue
            for tail, g in self.combos(rest, base, obj, event, scope):
                yield ((inp.name, c),) + tail, conj(f, g)

    def candidates(self, inp: ast.InputDecl) -> list:
        ref = inp.type
        if ref.args:
            raise NotLowerable(inp.span, "list inputs are not lowerable")
        if ref.name == "player":
            return [float(i) for i in range(self.u.players)]
        if ref.name == "bool":
            return [False, True]
        info = self.ex.class_named(ref.name)
        if info is None:
            raise NotLowerable(inp.span, f"inputs of type {ref.name} are not lowerable")
        return [o for o in self.u.of_class(info) if (o.name, "discarded") in self.fluents
                or not o.fields.get("discarded", False)]

    def offered(self, c) -> Formula:
        """When the runtime offers candidate c to an input: an object that discard() can take out of play only
        while it is not discarded, an object of a pool (made after setup) only once it is made."""
        f = TRUE
        if isinstance(c, UObj) and (c.name, "discarded") in self.fluents:
            f = neg(lit(FluentLit(c.name, "discarded", literal_value(True))))
        made = self.made(c) if isinstance(c, UObj) else TRUE
        return conj(made, f)

    def made(self, obj: UObj) -> Formula:
        """When obj exists: always for an object setup made; for the k-th of a pool, once its counter passed k."""
        pool = self.u.pool_of(obj.cls)
        if pool is None or obj not in pool.objects:
            return TRUE
        count = self.read_before(pool.counter.name, MADE)
        return lit(CmpLit(">", count, float(pool.objects.index(obj))))

    def block_truth(self, body: ast.Block, base: Path, obj, event, scope: dict, what: str) -> Formula:
        """The formula under which a read-only block returns true, in every state of the control."""
        return self.ex.holds(body, base.fork(TRUE), obj, event, what, scope)

    def state_condition(self, fi, controls) -> Formula:
        """When a bool function with no inputs holds, as a formula over the state (one case per control)."""
        if fi.defn.effect is None:
            return FALSE
        parts = []
        for cs in controls:
            f = self.block_truth(fi.defn.effect.body, Path(lit(ControlLit(cs)), {}, cs), None, None, {}, "the query")
            parts.append(conj(lit(ControlLit(cs)), f))
        return disj(*parts)

    def move(self, player: int, obj: UObj | None, action, combo: tuple, phase: tuple | None = None) -> MoveInfo:
        owner = obj.name if obj is not None else ("phase", phase[0], phase[1].name)
        key = (player, owner, action.name, tuple((n, vkey(v)) for n, v in combo))
        m = self._move_ids.get(key)
        if m is None:
            if phase is not None:  # the runtime's decision: the value picked
                text = " ".join(value_text(v) for _, v in combo)
            else:
                args = ", ".join(f"{n}: {value_text(v)}" for n, v in combo)
                text = f"{obj.name}.{action.name}({args})"
            m = MoveInfo(len(self.moves), player, obj, action, combo, text, phase)
            self.moves.append(m)
            self._move_ids[key] = m
        return m

    def random_move(self, faces: tuple[int, ...]) -> MoveInfo:
        """Random's move `(roll f)`, `(roll2 f1 f2)`, ..., the faces of the dice it throws: its player is the role
        after the players (emit: `random`)."""
        key = (RANDOM, faces)
        m = self._move_ids.get(key)
        if m is None:
            m = MoveInfo(len(self.moves), self.u.players, None, None, tuple(("face", float(f)) for f in faces),
                         " ".join([roll_name(len(faces)), *map(str, faces)]))
            self.moves.append(m)
            self._move_ids[key] = m
        return m

    # ------------------------------------------------------------ segments
    def segment(self, cs: tuple, legal: list[tuple[MoveInfo, Formula]]) -> list[Path]:
        """The final paths of the moves of control state cs, and after them the paths on which a `new` found
        its pool used up (`Executor.overflows`: ended there, for the ranges alone, `Lowering.run`)."""
        before = len(self.ex.overflows)
        self.ex.loop_cut = self.loop_cut  # only the moves' effects: a require's loop has no path to end
        if self.cut_ranges is not None:  # past the cut, a path goes on where a shorter cut's ranges reach it
            ranges = self.cut_ranges
            self.ex.reached = lambda pc: _cut_reached(pc, ranges, self.limits.check) is True
        self.effect_paths = []
        try:
            paths = self._segment(cs, legal)
        finally:
            self.ex.loop_cut = None
            self.ex.reached = None
        return paths + self.ex.overflows[before:]

    def _segment(self, cs: tuple, legal: list[tuple[MoveInfo, Formula]]) -> list[Path]:
        ctrl = lit(ControlLit(cs))
        if len(cs) == 4 and cs[3] == SETUP:
            return [Path(conj(ctrl, lit(MoveLit(m.index))), dict(self.u.throws[k]), cs[:3])
                    for k, (m, _) in enumerate(legal)]
        if setup_deal_step(cs) is not None:
            return self._setup_dealt(cs, setup_deal_step(cs), ctrl, legal)
        if len(cs) == 4 and cs[3] == PHASE_THROW:
            return self._phase_thrown(cs, ctrl, legal)
        if len(cs) == 4:
            return self._thrown(cs, ctrl, legal)
        paths: list[Path] = []
        self.effect_paths = paths
        ways: dict[int, tuple] = {}  # id(action) -> (action, paths its effects ended in)
        for m, _ in legal:
            self.limits.check()
            action = m.action
            p = Path(conj(ctrl, lit(MoveLit(m.index))), {}, cs)
            if action.effect is None:
                paths.append(p)
                continue
            scope = {n: v for n, v in m.inputs}
            if m.phase is not None:
                paths.extend(self.phase_effect(cs, m, p, scope))
                continue
            for inp in action.inputs:
                scope.setdefault(inp.name, None)
            throw = self.rolls.get(id(action))
            if throw is not None and (self.secret_throws or throw.entered):  # random throws after every move of
                # the action (decision 106: a deal in a phase the move may enter, found only where the move is run)
                paths.append(Path(p.pc, {}, cs + (m.index,)))
                continue
            # where the action throws dice, the effect is run once with a probe for them (face 1, the way marked
            # THROWN): the ways that reach one hand control to random, whose move runs the effect (_thrown); the
            # others are the move's whole effect, as where no die is thrown (the runtime draws nothing there)
            self.ex.dice = Dice(throw, None) if throw is not None else None
            try:
                ran = list(self.ex.run_block(action.effect.body, p, m.obj, self.choice_event(cs[0]),
                                             f"action_{action.name}", scope))
            finally:
                self.ex.dice = None
            for q in ran:
                thrown = _thrown_when(q)
                if thrown is not FALSE:
                    paths.append(Path(conj(q.pc, thrown), {}, cs + (m.index,)))
                    if thrown is TRUE:
                        continue
                    q = q.fork(conj(q.pc, neg(thrown)))
                if q.status != "over":
                    q.status = None
                paths.append(q)
                ways[id(action)] = (action, ways.get(id(action), (action, 0))[1] + 1)
            if len(paths) > execute.PATH_LIMIT:  # at the action most of them come from, as soon as they are too many
                action, n = max(ways.values(), key=lambda an: an[1])
                raise NotLowerable(action.name_span, f"more than {execute.PATH_LIMIT:,} ways through the moves' "
                                   f"effects in one control state ({n:,} through {action.name}, with {len(legal):,} "
                                   "moves to lower): the moves are lowered one by one, and these are too many, or "
                                   "their effects branch on the state in too many ways")
        paths = self.ex.merge(paths)
        return self.ex.enter_phases(paths)

    def phase_effect(self, cs: tuple, m: MoveInfo, p: Path, scope: dict) -> list[Path]:
        """The ways through a phase's effect after its input was given (move m). A way that does not pass the
        turn would leave the game in the phase's control waiting for actions, which the control alone could not
        tell from waiting for the input: refused."""
        phase_def = m.phase[1]
        out = []
        for q in self.ex.run_block(phase_body_after_inputs(phase_def), p, None, None, f"phase_{phase_def.name}",
                                   scope):
            if q.status != "over":
                if not q.pending:
                    raise NotLowerable(phase_def.name_span, f"a way through phase {phase_def.name} after its input "
                                       "does not pass the turn: the game would wait in the phase for actions, not "
                                       "for its input, which the lowering does not tell apart (end the phase with "
                                       "turn.pass)")
                q.status = None
            out.append(q)
        return out

    def _deals_where_they_stand(self, cs: tuple, throw) -> list[tuple[MoveInfo, Formula]]:
        """Random's legal deals after move cs[3] of an action that deals from a deck whose discards a reshuffle
        takes back (decision 105), or whose deal stands in a phase the move enters (decision 106): the move may
        reshuffle before its deal, so the items random may deal are those left where the deal stands, found by
        running the move with a probe (`execute.dealable`) from the state before it, which random's step still
        holds."""
        # no views: a view's relation holds the contributions of every move that reaches its site, the players'
        # too, and a legal move of random's may not depend on a player's move (GDL's `does`)
        self.ex.dice, viewable, self.ex.viewable = Dice(throw, None, dealable=True), self.ex.viewable, frozenset()
        try:
            ran = list(self._run_effect(cs, lit(ControlLit(cs))))
        finally:
            self.ex.dice, self.ex.viewable = None, viewable
        legal = []
        dealt = disj(*(conj(q.pc, _thrown_when(q)) for q in ran))  # the ways that deal (the mark taken out)
        for (k,) in throw.faces:
            ways = [conj(q.pc, disj(*(f for x, f in cases_of(q.store.get(dealable(k - 1), FALSE)) if x is True)))
                    for q in ran]
            if k == 1:  # a way that deals nothing: random's first move alone, its face read by nothing
                ways.append(conj(lit(ControlLit(cs)), neg(dealt)))
            legal.append((self.random_move((k,)), minimize(disj(*ways))))
        return legal

    def _run_effect(self, cs: tuple, ctrl: Formula) -> Iterable[Path]:
        """The effect of move cs[3] run from the player's control `ctrl`, then the phases it enters where its deal
        stands in one (decision 106): what random's moves after it deal or throw in."""
        m = self.moves[cs[3]]
        action = m.action
        scope = {n: v for n, v in m.inputs}
        for inp in action.inputs:
            scope.setdefault(inp.name, None)
        ran = self.ex.run_block(action.effect.body, Path(ctrl, {}, cs[:3]), m.obj, self.choice_event(cs[0]),
                                f"action_{action.name}", scope)
        if self.rolls[id(action)].entered:
            return self.ex.enter_phases(list(ran))
        return ran

    def _thrown(self, cs: tuple, ctrl: Formula, legal: list[tuple[MoveInfo, Formula]]) -> list[Path]:
        """The paths of random's moves in control state `cs` (player, turn, phase, the move made): the move's
        whole effect, from the player's control, its dice reading the faces random's move throws. Raises
        NotLowerable where a way throws some of the action's dice only (at the first it does not throw)."""
        action = self.moves[cs[3]].action
        throw = self.rolls[id(action)]

        def run() -> Iterable[Path]:
            return self._run_effect(cs, ctrl)

        def short(thrown: int) -> str | None:
            if not thrown:
                return None  # a way that reached no die: `keep` says whether it is one of random's
            return (f"a way through the effect throws {thrown} of the action's {len(throw.dice)} dice, not this "
                    "one: random's move gives the faces of the same dice on every way that throws one")

        def keep(q: Path, thrown: Formula) -> bool:
            if self.secret_throws or throw.entered:
                return True  # every way: random threw after every move, its face changing nothing where not read
            if thrown is FALSE:
                return False  # a way the player's move took whole (`_segment`): random never throws there
            q.pc = conj(q.pc, thrown)
            return True
        return self._run_thrown(f"the dice of action {action.name}", throw, legal, run, short, keep)

    def _phase_thrown(self, cs: tuple, ctrl: Formula, legal: list[tuple[MoveInfo, Formula]]) -> list[Path]:
        """The paths of random's moves in control state `cs` (player, turn, phase, PHASE_THROW): the phase's code
        run from the state the flow entered it in, its dice reading the faces random's move throws, then the flow
        on (tgpl.lowering.chance.phase_rolls). Raises NotLowerable where a way throws some of the phase's dice
        only: GDL-II's random always moves, so the runtime must draw them all on every way."""
        _, turn, phase = cs[:3]
        throw = self.ex.phase_throws[(turn, phase)]
        phase_def = ast.phase_named(self.ex.turns.get(turn), phase)

        def run() -> Iterable[Path]:
            return self.ex.run_block(ast.phase_body(phase_def), Path(ctrl, {}, cs[:3]), None, None, f"phase_{phase}")

        def short(thrown: int) -> str:
            return (f"a way through phase {phase} throws {thrown} of its {len(throw.dice)} dice, not this one: "
                    "random throws the phase's dice as the flow enters it, so every way through the phase must "
                    "throw all of them (throw it on every way, before the condition, and read it only where "
                    "needed)")
        return self._run_thrown(f"roll() in phase {phase}", throw, legal, run, short, lambda q, thrown: True)

    def _run_thrown(self, thrower: str, throw, legal: list[tuple[MoveInfo, Formula]],
                    run: Callable[[], Iterable[Path]], short: Callable[[int], str | None],
                    keep: Callable[[Path, Formula], bool]) -> list[Path]:
        """Random's moves (`legal`) run: the code the throw stands in (`run`, an action's effect or a phase's,
        `thrower` saying which), its dice reading the faces of each move, then the flow on, as far as the
        next control state. Whether a way that threw only `thrown` of the dice stands is `short`'s to say (the
        refusal, at the first die the way did not throw, or None); which ways are random's is `keep`'s (given
        when each reached a die, it may narrow the way's condition to that). Refuses what the validation cannot
        replay (`_refuse_input_after_throw`)."""
        moves = [(tuple(int(f) for _, f in rm.inputs), lit(MoveLit(rm.index))) for rm, _ in legal]
        self.ex.dice = Dice(throw, moves)
        try:
            paths = []
            for q in run():
                thrown = len(throw.dice) - len(q.dice) if q.dice is not None else 0
                if thrown < len(throw.dice):
                    reason = short(thrown)
                    if reason is not None:
                        raise NotLowerable(throw.dice[thrown].call.span, reason)
                q.dice = None
                if not keep(q, _thrown_when(q)):
                    continue
                if q.status != "over":
                    q.status = None
                paths.append(q)
        finally:
            self.ex.dice = None
        out = self.ex.enter_phases(self.ex.merge(paths))
        self._refuse_input_after_throw(thrower, throw, out)
        return out

    def _refuse_input_after_throw(self, thrower: str, throw, paths: list[Path]) -> None:
        """Refuses a throw (random's move after an action, or as the flow enters a phase, `thrower` saying which)
        whose flow passes, in the same move, to a phase that asks an input: the runtime
        then waits for the choice in the middle of the move, to resume it at that phase's entry after the draws,
        which the validation against the runtime does not replay (tgpl.verify.chance_machine): the translation
        could not be checked, so it is not written (decision 117)."""
        for q in paths:
            if q.status == "over" or len(q.control) != 3:
                continue
            _, turn, phase = q.control
            asked = ast.phase_named(self.ex.turns.get(turn), phase)
            if asked is not None and phase_inputs(asked):
                raise NotLowerable(throw.dice[0].call.span,
                                   f"{thrower}, whose flow passes in the same move to phase {phase}, which asks an "
                                   f"input, is not lowerable: the runtime waits for the input in the "
                                   f"middle of the move, after the draws, which the validation against the runtime "
                                   f"does not replay (make the choice an action of phase {phase}, required in it "
                                   f"with turn.phase.active())")

    def run(self) -> GameLogic:
        outside = refused_up_front(self.program, self.u)
        if outside:  # every construct the lowering never translates, at once, before any code runs
            (span, reason), *more = outside
            raise NotLowerable(span, reason, more)
        states: dict[tuple, ControlState] = {}
        todo = [self.start]
        with self.limits.during("lowering (symbolic execution)"):
            while todo:
                cs = todo.pop(0)
                if cs in states:
                    continue
                self.limits.check()
                st = ControlState(cs)
                states[cs] = st
                with self.ex.one_state():
                    st.legal = self.legal_moves(cs)
                    st.paths = self.segment(cs, st.legal)
                for p in st.paths:
                    if p.status != "over" and p.control not in states:
                        todo.append(p.control)
        overflows = {id(p) for p in self.ex.overflows}
        results = sorted({p.result for st in states.values() for p in st.paths
                          if p.result is not None and id(p) not in overflows})
        if not results and self.u.result is None:
            main = self.program.main_module
            span = next((i.span for i in main.items if isinstance(i, ast.GameDirective)), None) if main else None
            raise NotLowerable(span, "no move ever ends the game with a winner: GDL needs terminal states and goals")
        if self.u.result is not None:
            results = sorted(set(results) | {tuple(tuple(r) for r in self.u.result)})
        logic = GameLogic(self.u, self.fluents, self.moves, states, self.ex.labels, results, self.start, self.ex.views,
                          self.ex.horn, self.ex.horn_contexts)
        logic.caps = dict(self.ex.caps)
        with self.limits.during("lowering (ranges)"):
            self.early_loop_cuts()
            number_domains(logic, self)
            for st in states.values():  # they fed the ranges (as paths that end the game): no rule is written for them
                st.paths = [p for p in st.paths if id(p) not in overflows]
            self.check_comparisons(logic)
            self.check_pools(logic)
            self.check_loop_cuts(logic)
            self.check_list_lengths(logic)
        return logic

    def check_comparisons(self, logic: GameLogic) -> None:
        """GDL has no arithmetic: a comparison of numbers of the state is written one rule per combination of
        their values in range that makes it true, each combination tried (`Emitter.compare_rules`, `_constant`),
        or, for a sum of several counters where that is smaller, as chains over the number line
        (tgpl.lowering.number_chains: Kalah's stores compared after the sweep, nine holes' seeds, 25^9
        combinations). Past COMPARED_COMBOS combinations, a comparison that is not chained cannot be written:
        refused here, at once, where the comparison is in the source, rather than by an emission that would not
        end. The comparisons looked at are those of the moves' legality, the paths' conditions and the cases of
        what they write (a call's relation is looked at as it is written)."""
        worst: tuple[float, CmpLit] | None = None
        done: set[int] = set()
        sizes = {k: len(fl.domain) for k, fl in logic.fluents.items() if fl.numeric and fl.domain}
        line = logic.number_line()

        def walk(f: Formula) -> None:
            nonlocal worst
            todo = [f]
            while todo:
                g = todo.pop()
                if g.id in done:
                    continue
                done.add(g.id)
                todo.extend(g.parts)
                if g.kind == "lit" and isinstance(g.key, CmpLit):
                    if line.chained(g.key.left, g.key.op, g.key.right) is not None:
                        continue  # written as chains over the number line (tgpl.lowering.number_chains)
                    combos = 1.0
                    for leaf in num_leaves(g.key.left) | num_leaves(g.key.right):
                        combos *= sizes.get(leaf, 1)
                    if combos > COMPARED_COMBOS and (worst is None or combos > worst[0]):
                        worst = (combos, g.key)

        for st in logic.states.values():
            self.limits.check()
            for _, f in st.legal:
                walk(f)
            for p in st.paths:
                walk(p.pc)
                for v in p.store.values():
                    if isinstance(v, (Choice, Partial)):
                        for _, f in v.cases:
                            walk(f)
        for site in self.ex.counts:  # the tests of counts (tgpl.lowering.counted_ifs), in their relations' rules
            for pc, cases in site.contributions:
                walk(pc)
                for _, f in cases:
                    walk(f)
        if worst is None:
            return
        combos, key = worst
        leaves = sorted(num_leaves(key.left) | num_leaves(key.right))
        found = self.ex.compared.get(id(key))
        span = found[1] if found is not None and found[0] is key else self._attr_span(logic.fluents[leaves[0]])
        names = ", ".join(f"{obj}.{attr}" for obj, attr in leaves[:4]) + (", ..." if len(leaves) > 4 else "")
        raise NotLowerable(span, f"this comparison reads {len(leaves)} numbers of the state at once ({names}), with "
                                 f"{combos:,.0f} combinations of their values in range: GDL has no arithmetic, so "
                                 "a comparison of numbers is written one rule per combination of their values, "
                                 f"and past {COMPARED_COMBOS:,} that is not done; compare fewer numbers at once: "
                                 "keep the total compared in an attribute of its own, updated where its parts "
                                 "change (a score beside the pieces it counts), or compare each number with a "
                                 "constant")

    def early_loop_cuts(self) -> None:
        """Raises LoopCutShort before the ranges are searched where the ranges a shorter cut found (`cut_ranges`)
        already hold a state that meets the condition of a path cut here. The values a play reaches with more passes
        are, as a rule, those it reached with fewer and more (Kalah's seeds: 0..24 at every cut), so the search
        would most likely find the cut short too; where it would not, the cut is only longer than it need be, and
        the cut kept is still checked against its own ranges (`check_loop_cuts`): never shorter. Kalah
        (tests/data/designers/kalah.tgpl): its cuts at 8 and 16 passes were each lowered whole (2.3 and 7.7 s of
        33), the ten seeds' conservation proved again, to find what the cut at 4 had shown: a pit may hold 24.
        Where it cannot tell (a number the shorter cut did not range, too many combinations), it says nothing."""
        if self.cut_ranges is None:
            return
        for p, span in self.ex.loop_cuts:
            if _cut_reached(p.pc, self.cut_ranges, self.limits.check) is True:
                raise LoopCutShort(span, self.cut_ranges)

    def check_loop_cuts(self, logic: GameLogic) -> None:
        """A loop bounded by a number of the state (`while (hand > 0)`) was cut after `loop_cut` passes
        (`Executor._cut_loop`); the cut is exact when no state the ranges hold meets the condition of a path cut
        there: every number its comparisons read taken anywhere in its range, the rest of the condition left
        unknown (an over-approximation: a cut judged reachable is only tried longer). Raises LoopCutShort."""
        ranges = {k: list(fl.domain) for k, fl in logic.fluents.items()}
        for p, span in self.ex.loop_cuts:
            if _cut_reached(p.pc, ranges, self.limits.check) is not False:
                raise LoopCutShort(span, ranges)

    def check_pools(self, logic: GameLogic) -> None:
        """A pool is large enough when no state the ranges hold makes more objects than it has: a `new` past
        its last object ends the path (`Executor.made`) with its counter one more, so that the ranges show it
        (the search treats it as a path that ends the game: nothing follows it)."""
        short = [pool for pool in self.u.pools
                 if any(x is not None and x > len(pool.objects) for x in logic.fluents[(pool.counter.name, MADE)].domain)]
        if short:
            raise PoolTooSmall(short)

    def pool_sizes(self, logic: GameLogic) -> dict:
        """How many objects of each pool's class a play can make, by its counter's range."""
        return {pool.cls: int(max((x for x in logic.fluents[(pool.counter.name, MADE)].domain if x is not None),
                                  default=0)) for pool in self.u.pools}

    def _overflowing(self) -> list[tuple[str, str, int, float]]:
        out = []
        for (obj, name), size in sorted(self.lists.items()):
            longest = max((x for x in self.fluents[(obj, length_cell(name))].domain if x is not None), default=0.0)
            if longest > size:
                out.append((obj, name, size, longest))
        return out

    def check_list_lengths(self, logic: GameLogic) -> None:
        """A list that is state may not outgrow its slots, by the lengths' ranges: judged counter by counter,
        a hand that one player's moves fill and the other's empty grows without end, so the counters are
        then searched together (`joint_ranges`) first. A list of objects that outgrows them holds an object
        twice: the game is refused. A list of values is given twice the slots (`MoreSlots`), up to
        VALUE_SLOTS; past them, it is taken to grow without bound, and the game is refused."""
        if self._overflowing():
            apart = self.value_slot_cells()
            joint_ranges(logic, {k: fl for k, fl in logic.fluents.items() if fl.numeric and k not in apart},
                         frozenset(apart), self.limits)
        overflowing = self._overflowing()
        for obj, name, size, longest in overflowing:
            if (obj, name) not in self.value_slots:
                raise self._list_refused(obj, name, f"{obj}.{name} may hold {longest:g} items, more than the "
                                         f"{size} objects it can hold once each: a list that may hold an object "
                                         "twice is not lowerable")
        for obj, name, size, longest in overflowing:
            if size >= VALUE_SLOTS:
                raise self._list_refused(obj, name, f"{obj}.{name} may hold more than {VALUE_SLOTS} items (its "
                                         "length's range passes every slot it was given): a list of values whose "
                                         "length the lowering cannot bound is not lowerable")
        if overflowing:
            more = dict(self.value_slots)
            for obj, name, size, _ in overflowing:
                more[(obj, name)] = min(2 * size, VALUE_SLOTS)
            raise MoreSlots(more)

    def value_slot_cells(self) -> set[tuple[str, str]]:
        """The numeric slots of the lists of values that are state (their ranges: `slot_ranges`)."""
        return {(obj, slot_cell(name, k)) for (obj, name) in self.value_slots
                for k in range(self.lists[(obj, name)]) if self.fluents[(obj, slot_cell(name, k))].numeric}

    def _list_refused(self, obj: str, name: str, reason: str) -> NotLowerable:
        """A list attribute refused at its declaration."""
        fl = self.fluents[(obj, length_cell(name))]
        return NotLowerable(self._attr_span(Fluent(fl.obj, name, None, None)), reason)


def _thrown_when(p: Path) -> Formula:
    """When path p reached the die of its action (`execute.thrown_condition`), the mark taken out of p's store."""
    thrown = thrown_condition(p)
    p.store.pop(THROWN, None)
    return thrown


FIRST_VALUE_SLOTS = 2  # slots of a list of values that is state past the items setup left in it, at first
VALUE_SLOTS = 16  # the most slots a list of values is given


class MoreSlots(Exception):
    """The lists of values that are state need more slots than this lowering gave them: lower again with
    `slots` (tgpl.lowering.lower.game_lowering). The run that found it dropped the cases past the slots,
    so what it found of the game is not the game."""

    def __init__(self, slots: dict[tuple[str, str], int]):
        super().__init__(slots)
        self.slots = slots


class LoopCutShort(Exception):
    """The ranges hold a state in which a loop bounded by a number of the state runs past its cut
    (`Lowering.check_loop_cuts`); `ranges`, the numbers' ranges that showed it (numeric fluent -> values)."""

    def __init__(self, span: Span, ranges: dict[tuple, list]):
        super().__init__("a loop cut too short")
        self.span = span
        self.ranges = ranges


def _cut_reached(pc: Formula, ranges: dict[tuple, list], check) -> bool | None:
    """Whether a state the ranges hold meets a cut path's condition: every number its comparisons read taken
    anywhere in its range, the rest of the condition left unknown (True: some assignment may meet it; False:
    none does). None where it cannot tell: a number not ranged, or past LOOP_CUT_WORK assignments."""
    pc = numeric_part(pc, {})
    leaves = sorted(formula_leaves(pc), key=str)
    domains = [ranges.get(leaf) for leaf in leaves]
    if any(not d for d in domains):
        return None
    for k, combo in enumerate(itertools.product(*domains)):
        if k >= LOOP_CUT_WORK:
            return None
        check()
        env = dict(zip(leaves, combo))

        def known(key, env=env):
            return cmp_value(key, env) if isinstance(key, CmpLit) else None
        if evaluate3(pc, known, {}) is not False:
            return True
    return False


COMPARED_COMBOS = 1_000_000
"""Combinations of the values in range of the numbers one comparison reads, past which it is refused
(`Lowering.check_comparisons`): each is a rule, or a question, of the emission."""

LOOP_CUT_WORK = 100_000  # assignments of the numbers one cut path's condition reads, tried against the ranges


class PoolTooSmall(Exception):
    """The ranges show a state that makes more objects of these pools than they hold (`Lowering.check_pools`)."""

    def __init__(self, pools: list[Pool]):
        super().__init__(", ".join(p.cls.name for p in pools))
        self.pools = pools


POOL_START = 1  # objects in a pool at first: doubled while the ranges show a state that makes more
POOL_LIMIT = 32  # objects of one class made after setup


def lowered_logic(program, universe: Universe, make) -> tuple[Lowering, GameLogic]:
    """The game's logic with a pool for each class code after setup makes objects of (`pool_classes`), and the
    Lowering that made it. `make(universe)` gives a Lowering of a universe.

    How many objects a pool needs is found as the counters' ranges are: each pool's counter is a number like
    any other, so the game is lowered with pools of POOL_START objects, and again with pools twice as large
    while the ranges show a state that makes more (`PoolTooSmall`); once they are large enough, the pools
    are cut to what the ranges say a play can make, and lowered once more if that is less. A pool that
    would pass POOL_LIMIT is refused at its class's first `new`: the ranges cannot bound it (no counter the
    game limits bounds how many are made), or it is too large."""
    classes = pool_classes(program)
    sizes = {info: POOL_START for info in classes}
    fitted = False
    cut = execute.LOOP_CUT_START
    ranges = None  # what the last cut too short found, for these pools (Lowering.early_loop_cuts)
    caps: dict[str, int] = {}  # the counters capped (Executor.caps): none until a counter's range runs away
    while True:
        lowering = make(universe.with_pools(sizes))
        lowering.loop_cut = cut
        lowering.cut_ranges = ranges
        lowering.ex.caps = caps
        try:
            logic = lowering.run()
        except NotLowerable as e:
            if caps or e.counter is None or e.counter not in (cappable := lowering.cappable()):
                raise
            caps, ranges = cappable, None  # lowered again from the start, its counters capped
            continue
        except LoopCutShort as e:
            ranges = e.ranges
            cut *= 2
            if cut > execute.LOOP_LIMIT:
                raise NotLowerable(e.span, f"this loop runs more than {cut // 2} passes in states the ranges of the "
                                           "game's numbers hold: its condition compares a number read from the "
                                           "state whose values let it run that long; bound it by a constant known "
                                           "after setup or by the board, or count down a smaller number") from None
            continue
        except PoolTooSmall as e:
            ranges = None
            for pool in e.pools:
                sizes[pool.cls] = len(pool.objects) * 2 if pool.objects else 1
                if sizes[pool.cls] > POOL_LIMIT:
                    new = classes[pool.cls][0]
                    raise NotLowerable(new.span, f"the {pool.cls.name} objects made after setup cannot be "
                                                 f"bounded: more than {POOL_LIMIT} may be made, by the ranges of "
                                                 "the game's numbers (a counter the game limits must bound how "
                                                 "many `new` makes)") from None
            continue
        needed = lowering.pool_sizes(logic)
        if fitted or needed == sizes:
            return lowering, logic
        sizes, fitted, ranges = needed, True, None


def pool_attributes(cls, builtins) -> list[tuple[str, object]]:
    """(name, type) of the attributes an object of cls made after setup has as fluents, in the runtime's order
    of initialization: an interactable's `tile` and `discarded`, then the attributes, base first."""
    out: list[tuple[str, object]] = []
    if any(c.kind == "interactable" for c in cls.ancestors()):
        out += [("tile", ClassType(builtins.tile)), ("discarded", BOOL)]
    for c in reversed(list(cls.ancestors())):
        out += list(c.attribute_types.items())
    return out


def phase_action(phase_def: ast.PhaseDef) -> ast.ActionDef:
    """A phase with an input read as an action of no object: its input (`phase_move_input`), what it runs after
    (`phase_body_after_inputs`), so a move's inputs, text and GDL term are made as an action's are."""
    body = phase_body_after_inputs(phase_def)
    return ast.ActionDef(phase_def.span, phase_def.name, phase_def.name_span, False,
                         [phase_move_input(phase_def), ast.Effect(body.span, body)])


def actions_of(obj: UObj) -> list[ast.ActionDef]:
    """Every action of obj's class, base actions first, overridden ones replaced."""
    found: dict[str, ast.ActionDef] = {}
    for info in reversed(list(obj.cls.ancestors())):
        for name, a in info.actions.items():
            found.pop(name, None)
            found[name] = a
    return list(found.values())


def value_text(v) -> str:
    """The runtime's text for an input value (`_value_text` in tgpl.runtime.game)."""
    text = scalar_text(v)
    if text is not None:
        return text
    return string_literal(v) if isinstance(v, str) else v.name


# ================================================================ numbers
def values_under(v, env: dict, known, memo: dict | None = None) -> set:
    """The concrete values v may take when the numeric fluents are as in env (memo: evaluate3's, for env)."""
    if isinstance(v, Num):
        x = v.value(env)
        return set() if x is UNDEF else {x}
    if isinstance(v, (Choice, Partial)):
        out: set = set()
        for x, f in v.cases:
            if evaluate3(f, known, memo) is not False:
                out |= values_under(x, env, known, memo)
        return out
    if isinstance(v, Formula):
        return {True, False}
    return set() if v is UNDEF else {v}


def num_leaves(v) -> set:
    if isinstance(v, Num):
        return v.leaves()
    if isinstance(v, (Choice, Partial)):
        out: set = set()
        for x, f in v.cases:
            out |= num_leaves(x) | formula_leaves(f)
        return out
    return set()


def formula_leaves(f: Formula) -> set:
    out: set = set()
    for key in literals(f):
        if isinstance(key, CmpLit):
            out |= num_leaves(key.left) | num_leaves(key.right)
    return out


def numeric_part(f: Formula, memo: dict) -> Formula:
    """f with each largest part that holds no comparison replaced by one unknown literal.

    The numbers decide only comparisons, so `evaluate3` gives the same truth for the
    result as for f, on a formula the size of its comparisons. A condition with no
    comparison at all is TRUE here: it is never false by the numbers (and nothing
    negates a whole path condition).
    """
    r = _numeric_part(f, memo)
    return TRUE if r.kind == "lit" and isinstance(r.key, _Unknown) else r


@dataclass(frozen=True)
class _Unknown:
    """A part of a condition without comparisons, which the numbers cannot decide (`_numeric_part`)."""

    formula: int


def _numeric_part(f: Formula, memo: dict) -> Formula:
    """One unknown literal stands for every part without comparisons: `evaluate3` gives them all the same
    "unknown", so the parts alike but for what they leave unknown are one part (five in a row's counter
    is written under a condition with a term per move, which then is one term). No part is ever the
    negation of the unknown literal (a negated unknown part is unknown as a whole), so nothing built
    from it simplifies to false or true by contradiction."""
    found = memo.get(f.id)
    if found is not None:
        return found
    if f.kind == "lit":
        r = f if isinstance(f.key, CmpLit) else lit(_Unknown(0))
    elif f.kind in ("not", "and", "or"):
        parts = [_numeric_part(p, memo) for p in f.parts]
        if all(p.kind == "lit" and isinstance(p.key, _Unknown) for p in parts):
            r = lit(_Unknown(0))
        else:
            r = rebuild(f, parts)
    else:
        r = f
    memo[f.id] = r
    return r


def numeric_value(v, parts: dict, memo: dict):
    """v with each case's condition cut down to its comparisons (`numeric_part`, its memo `parts`), its values
    alike: where `known` decides only comparisons, `values_under` gives the same values for it, and walks a
    condition the size of its comparisons in each state instead of the whole one. Line Up's point is written by
    cases over the stones of every window through the new stone, conditions with no comparison: walked whole
    in each state of the joint search, they were four fifths of its lowering (99 million steps). `memo`: by
    the value's id, the value kept with its cut-down form so that its id is not reused."""
    if not isinstance(v, (Choice, Partial)):
        return v
    found = memo.get(id(v))
    if found is None:
        cases = tuple((numeric_value(x, parts, memo), numeric_part(f, parts)) for x, f in v.cases)
        found = memo[id(v)] = (v, type(v)(cases))
    return found[1]


def cmp_value(key: CmpLit, env: dict):
    from tgpl.lowering.symbolic import arith_concrete, equal_concrete

    a = key.left.value(env) if isinstance(key.left, Num) else key.left
    b = key.right.value(env) if isinstance(key.right, Num) else key.right
    if a is UNDEF or b is UNDEF:
        return False
    if key.op == "==":
        return equal_concrete(a, b)
    r = arith_concrete(key.op, a, b)
    return r if isinstance(r, bool) else False


def number_domains(logic: GameLogic, lowering: Lowering) -> None:
    """Every numeric fluent's range (`_number_domains`); the running totals of lists (decision 113) are left out
    of the searches, their comparisons unknown there, and ranged from their lists' lengths once those are known
    (`list_sums.total_domain`)."""
    totals = frozenset(k for k in lowering.sums if k in logic.fluents)
    _number_domains(logic, lowering, totals)
    for k in sorted(totals):
        attr, _, values = lowering.sums[k]
        length = logic.fluents[(k[0], length_cell(attr))]
        most = max((x for x in length.domain if x is not None), default=0.0)
        most = min(int(most), lowering.lists[(k[0], attr)])
        fl = logic.fluents[k]
        fl.domain = total_domain(values, most, float(fl.initial))
        if len(fl.domain) > RANGE_LIMIT:
            what = f"the total of the items' {lowering.sums[k][1]}" if lowering.sums[k][1] else "the count of null items"
            raise NotLowerable(lowering._attr_span(Fluent(fl.obj, attr, None, None)),
                               f"{what} of {k[0]}.{attr} may take {len(fl.domain):,} values, more than {RANGE_LIMIT}: "
                               "it is not lowerable (a loop sums it, decision 113)")


def _number_domains(logic: GameLogic, lowering: Lowering, totals: frozenset) -> None:
    """Every numeric fluent's range (`_searched_domains`), within one budget of work for all its searches
    (`Lowering.range_work`, counted by `RangeWork`): past it, the game is refused at once (`budget_refusal`)."""
    work = RangeWork(lowering.range_work)
    lowering.range_spent = work
    try:
        _searched_domains(logic, lowering, totals, work)
    except RangeBudget:
        raise budget_refusal(logic, lowering, work) from None
    except LimitReached as stop:  # the command's time or memory: the numbers it was ranging, as the dry run names them
        underway = search_underway(lowering)
        if underway:
            stop.notes.append(f"the search of the numbers' ranges was ranging {underway}; where one of these grows "
                              "without end, test it before it changes or end the game at a bound; bounded numbers "
                              "with many values together are slow to search: fewer of them (a count read from the "
                              "board instead of kept) or a larger --max-seconds")
        raise


def _searched_domains(logic: GameLogic, lowering: Lowering, totals: frozenset, work: RangeWork) -> None:
    """Find every numeric fluent's range: the counters together (`joint_ranges`), and where that does not end,
    each with the counters its writes read (`alone_ranges`), then each on its own (`counter_ranges`). Members of a
    conserved family (tgpl.lowering.conserved) are ranged 0..their total where the joint search does not end
    within CONSERVED_JOINT_LIMIT states, and so are copies of one another (`copy_ranges`) where there are at least
    COPIES_APART of them; both are left out of the searches of the others."""
    numeric = {k: fl for k, fl in logic.fluents.items() if fl.numeric and k not in totals}
    if not numeric:
        return
    apart = lowering.value_slot_cells()
    known: dict[tuple, list] = {}
    if totals:  # their comparisons are unknown to every search, which a total's static range then settles
        fixed = {}
        for k in totals:
            attr, _, values = lowering.sums[k]
            fixed[k] = total_domain(values, lowering.lists[(k[0], attr)], float(logic.fluents[k].initial))
        numeric_all = {**numeric, **{k: logic.fluents[k] for k in totals}}
        counters = {k: fl for k, fl in numeric.items() if k not in apart}
        if joint_ranges(logic, counters, totals | apart, lowering.limits, work=work) and (
                not apart or _slots_ranged(logic, lowering, apart, numeric, work)):
            return
        found, runaways = alone_ranges(logic, lowering, counters, totals, work=work)
        counter_ranges(logic, lowering, numeric_all, {**found, **fixed}, runaways, work=work)
        return
    if not apart:
        cut = {id(p) for p in lowering.ex.overflows}
        known = conserved_families({k: fl.initial for k, fl in numeric.items() if k[1] != MADE},
                                   (p for st in logic.states.values() for p in st.paths if id(p) not in cut),
                                   lowering.limits)
        logic.totals = {k[1]: len(dom) - 1 for k, dom in known.items()}
        if known and joint_ranges(logic, numeric, limits=lowering.limits, most=CONSERVED_JOINT_LIMIT, work=work):
            return  # few states: the ranges a play reaches, fewer values than the totals (fewer rules)
        copies = copy_ranges(logic, numeric) if not known else {}
        known = known or (copies if len(copies) >= COPIES_APART else {})
    if known:
        for k, domain in known.items():
            numeric[k].domain = domain
        rest = {k: fl for k, fl in numeric.items() if k not in known}
        if not rest or joint_ranges(logic, rest, frozenset(known), lowering.limits, work=work):
            return
        fixed, runaways = alone_ranges(logic, lowering, rest, frozenset(known), work=work)
        counter_ranges(logic, lowering, numeric, {**fixed, **known}, runaways, work=work)
        return
    if apart:
        counters = {k: fl for k, fl in numeric.items() if k not in apart}
        if joint_ranges(logic, counters, frozenset(apart), lowering.limits, work=work):
            try:
                slot_ranges(logic, lowering, {k: numeric[k] for k in sorted(apart)}, counters, work)
            except NotLowerable:
                # the slots ran away with the tests aside: searched with the counters, where they are few states
                # together, the tests bound them (a count by player kept in a list, `Taken[taker] += 1`, the game
                # won at 2 by the same index)
                if not joint_ranges(logic, numeric, limits=lowering.limits, most=SLOTS_JOINT_LIMIT, work=work):
                    raise
            return
    else:
        why: list[str] = []
        if joint_ranges(logic, numeric, limits=lowering.limits, why=why, work=work):
            return
        if why == ["range"]:
            raise _joint_runaway(lowering, numeric, work)
    fixed, runaways = alone_ranges(logic, lowering, {k: fl for k, fl in numeric.items() if k not in apart}, work=work)
    counter_ranges(logic, lowering, numeric, fixed, runaways, work=work)


def _joint_runaway(lowering: Lowering, numeric: dict, work: RangeWork) -> NotLowerable:
    """The refusal of a counter that passed RANGE_LIMIT values in the joint search of every counter, nothing left
    apart: the searches that would follow (`alone_ranges`, `counter_ranges`) each over-approximate what it finds
    (fewer numbers known, or none of the control), so the counter passes RANGE_LIMIT in them too, and the game
    would be refused after them, at a counter or at the end of their work. Refused now, at the first such
    counter: Ultimate's counts of filled cells, bounded only by the board, ran the search by counter for minutes."""
    k = next(k for k, xs in sorted(work.found.items()) if len(xs) > RANGE_LIMIT)
    return runaway_refusal(lowering, numeric[k], work.found[k])


def _slots_ranged(logic: GameLogic, lowering: Lowering, apart: frozenset, numeric: dict, work: RangeWork) -> bool:
    """The slots of lists of values ranged apart from the counters (`slot_ranges`), once the counters are."""
    counters = {k: fl for k, fl in numeric.items() if k not in apart}
    try:
        slot_ranges(logic, lowering, {k: numeric[k] for k in sorted(apart)}, counters, work)
    except NotLowerable:
        return False
    return True


CONSERVED_JOINT_LIMIT = 64
"""States the joint search may visit, before a conserved family's proved range (0..total) is used instead: the
small Kalah's 24 states give each pit the few values a play reaches (0..3 where the total is 8), and its rules
stay few (with 0..8 everywhere, its generalisation ran past 600 s); Kalah 2x4x3's millions give up at once."""

COPIES_APART = 8
"""Counters written only constants and each other's values (`copy_ranges`) from which on they are ranged by their
closure and left out of the searches: Mini Pentago's sixteen `Marble`s, copied round a block by its twist, made the
joint search every board (3^16 states, a clingo question each), and each one's search alone all of them again."""


def copy_ranges(logic: GameLogic, numeric: dict) -> dict[tuple, list]:
    """The counters every write of which is a constant or another such counter's value before the move (a
    `Choice` or `Partial` of those: `a.Marble = vd`, vd read from another cell), each with its range: the closure
    of the initial values and constants over the copies. An over-approximation of every reachable value."""
    sources: dict[tuple, tuple[set, set]] = {k: ({fl.initial if fl.initial is None else float(fl.initial)}, set())
                                            for k, fl in numeric.items()}
    bad: set[tuple] = set()

    def atoms(v, consts: set, copied: set) -> bool:
        if v is None or isinstance(v, (int, float)) and not isinstance(v, bool):
            consts.add(v if v is None else float(v))
            return True
        if isinstance(v, Num):
            if v.op == "fluent" and v.args in numeric:
                copied.add(v.args)
                return True
            return False
        if isinstance(v, (Choice, Partial)):
            return all(atoms(x, consts, copied) for x, _ in v.cases)
        return False

    for st in logic.states.values():
        for p in st.paths:
            for k, v in p.store.items():
                if k in numeric and k not in bad and not atoms(v, *sources[k]):
                    bad.add(k)
    good = set(numeric) - bad
    changed = True
    while changed:  # a counter copying one that is not a copy counter is not one either
        changed = False
        for k in sorted(good):
            if sources[k][1] - good:
                good.discard(k)
                changed = True
    domains = {k: set(sources[k][0]) for k in good}
    changed = True
    while changed:
        changed = False
        for k in sorted(good):
            for j in sources[k][1]:
                if not domains[j] <= domains[k]:
                    domains[k] |= domains[j]
                    changed = True
    return {k: sorted(domains[k], key=_num_order) for k in sorted(good)}


def alone_ranges(logic: GameLogic, lowering: Lowering, numeric: dict,
                 apart: frozenset = frozenset(), work: RangeWork | None = None) -> tuple[dict, list]:
    """Each counter's range from the states of the game cut down to its control and that counter alone
    (`joint_ranges` with the other counters `apart`: their comparisons unknown), for when the counters
    together are too many states. A move counter stepped in one phase and ending the game in another
    (`Moves += 1` where a man lands, `if (Moves >= 200)` in a later phase) is bounded so; judged without
    its control, as `counter_ranges` does, every step looked possible after the last, and its values
    multiplied with the other counters' ran out of work ("could not be bounded within 2,000,000 cases").
    Returns the ranges found (set on the fluents), and the counters that passed RANGE_LIMIT values though
    nothing else was unknown about their writes: they grow without bound, the real cause of a refusal."""
    fixed: dict[tuple, list] = {}
    runaways: list[tuple] = []
    keys = sorted(numeric)
    for k in keys:
        if k[1] == MADE:
            continue
        lowering.limits.check()
        why: list[str] = []
        group = _read_by_writes(logic, k, numeric)
        if joint_ranges(logic, {x: numeric[x] for x in sorted(group)},
                        frozenset(x for x in keys if x not in group) | lowering.value_slot_cells() | apart,
                        lowering.limits, why, ALONE_LIMIT, work):
            fixed[k] = numeric[k].domain
        elif why == ["range"]:
            runaways.append(k)
    return fixed, runaways


def _read_by_writes(logic: GameLogic, k: tuple, numeric: dict) -> set:
    """k and the counters its writes' values are computed from (`t.Walked = t.Walked + Ludo.Die`): searched
    alone, k left them unknown and gave up at once ("apart"), a die's token falling to the search by counter,
    where every capture's condition multiplied every token's values past its budget."""
    group = {k}
    for st in logic.states.values():
        for p in st.paths:
            v = p.store.get(k)
            if v is not None:
                group |= {x for x in _value_leaves(v) if x in numeric}
    return group


def slot_ranges(logic: GameLogic, lowering: Lowering, slots: dict, counters: dict,
                work: RangeWork | None = None) -> None:
    """The ranges of the numeric slots of lists of values that are state, once the counters' are known:
    every value a write of a slot can give with its numbers anywhere in their ranges, conditions aside (a
    fixpoint, as slots are written from other slots when items move down; the cases a value is written in
    taken as possible, every one, which over-approximates and costs nothing). Searched with the counters,
    each slot one more number, the states multiplied past the joint search's limit (a tally of scores
    per player); the values an item takes do not bound a list's length, which is what the search is for. Where
    this runs past RANGE_LIMIT values, the slots are searched with the counters (`number_domains`)."""
    live: dict[tuple, set] = {k: {fl.initial} for k, fl in slots.items()}
    writes: dict[tuple, tuple] = {}
    memo: dict = {}  # the cases are judged with nothing known: their truth is the same under every assignment
    work = unbudgeted(work)
    for st in logic.states.values():
        for p in st.paths:
            for cell, v in p.store.items():
                if cell in slots:
                    writes.setdefault((cell, id(v)), (cell, v))
    for _ in range(FIXPOINT_LIMIT):
        changed = False
        for cell, v in writes.values():
            lowering.limits.check()
            leaves = sorted(_value_leaves(v))  # the cases' conditions are not evaluated: every case can hold
            domains = [sorted(counters[k].domain if k in counters else live[k], key=_num_order) for k in leaves]
            for combo in _polled(itertools.product(*domains), lowering.limits):
                work.spend(1)
                for x in values_under(v, dict(zip(leaves, combo)), _unknown, memo) - live[cell]:
                    live[cell].add(x)
                    changed = True
                    if len(live[cell]) > RANGE_LIMIT:
                        fl = slots[cell]
                        raise NotLowerable(lowering._attr_span(Fluent(fl.obj, list_cell(fl.attr)[0], None, None)),
                                           f"{fl.obj.name}.{fl.attr} takes more than {RANGE_LIMIT} values: "
                                           "numbers need a finite range to be lowered, and a number in a list "
                                           "is bounded by the game's tests only while the game's numbers fit in "
                                           f"{SLOTS_JOINT_LIMIT:,} states together, else by its writes alone, "
                                           "every test aside: keep it in a number attribute (one per player) "
                                           "that the game tests, or bound it by a constant before it is written")
        if not changed:
            break
    for k, fl in slots.items():
        fl.domain = sorted(live[k], key=_num_order)


JOINT_LIMIT = 20_000  # (control, counters' values) states the joint search may visit
JOINT_WORK_LIMIT = 10_000_000
"""Cases of the moves' writes one search of the ranges may judge (`_case_count`, summed over the moves it takes in
every state it visits), past which it gives up as past its states. States alone do not bound its work: Treasure
judges some 2,600 cases a state (a draw writes a hand's length in 225), 10 to 30 ms, and where its Discard's filter
was not carried to random's step (`made_legal`), its hands' lengths reached 10 and its 20,000 states were past
600 s. With it, Treasure judges 7,698,815 cases in 2,978 states (79 s of CPU), the most of the games that lower
here; Shut the Box 783,282 in its 1,104 states; Kalah's seeds, a conserved family, stop at 64 states (46,898)."""
ALONE_LIMIT = 200_000  # (control, one counter's value) states the search of one counter may visit
# (control, numbers' values) states the search of the counters with the slots of lists of numbers may visit, where
# the slots searched apart (`slot_ranges`) run away: a tally of scores per player passes it at once
SLOTS_JOINT_LIMIT = 20_000


T = TypeVar("T")
POLL_EVERY = 4_096
"""Items of a product of the counters' values (`_polled`) between two polls of the limits."""


def _polled(items: Iterable[T], limits: Limits) -> Iterator[T]:
    """`items`, the limits polled every POLL_EVERY of them (`Limits.poll`: LimitReached past them). For the products
    of the counters' values inside one step of a range search (a move of Oware's sowing writes eight pits, each with
    its values: their combinations multiply), which its own checks do not see: polled, not checked, so that a step
    counts as one check in the dry run's budget (tgpl.lowering.lowerable.RANGE_STEPS) however many it walks."""
    for n, item in enumerate(items):
        if n and not n % POLL_EVERY:
            limits.poll()
        yield item


def joint_ranges(logic: GameLogic, numeric: dict, apart: frozenset = frozenset(),
                 limits: Limits | None = None, why: list | None = None, most: int | None = None,
                 work: RangeWork | None = None) -> bool:
    """The counters' ranges from the values they take together: the states of the game cut down to its
    control and its counters, reached from setup's (other fluents unknown, so every path a state's
    comparisons allow is taken). Two scores bounded only by the moves left grow apart when each is
    judged alone; together with the move counter, each move raises one of them and the counter, and
    the game ends at its last move. False when the states exceed JOINT_LIMIT or a counter RANGE_LIMIT
    values: the game is then refused for the search by counter's reason. Comparisons of the numeric
    fluents `apart` (the slots of lists of values, `slot_ranges`) are left unknown, and a counter written
    from one of them gives up the search. `limits` is checked at every state and control state. `why`, when
    given, is told why the search gave up: "apart" (a counter written from one apart), "states" (past
    JOINT_LIMIT, or `most` where given), "range" (a counter past RANGE_LIMIT values) or "questions" (past
    QUESTION_LIMIT questions to clingo, `Admission`). `work` counts its work towards the whole range search's
    budget (`RangeWork`: RangeBudget past it, which ends every search)."""
    why = why if why is not None else []
    try:
        return _joint_search(logic, numeric, apart, limits, why, most, work)
    except TooManyQuestions:
        why.append("questions")
        return False


def _joint_search(logic: GameLogic, numeric: dict, apart: frozenset, limits: Limits | None, why: list,
                  most: int | None, budget: RangeWork | None = None) -> bool:
    """`joint_ranges`' search (TooManyQuestions and RangeBudget pass through it)."""
    limits = limits if limits is not None else unlimited()
    budget = unbudgeted(budget)
    most = JOINT_LIMIT if most is None else most
    keys = sorted(numeric)
    index = {k: i for i, k in enumerate(keys)}
    parts: dict[int, Formula] = {}
    cut: dict[int, tuple] = {}  # `numeric_value`'s memo
    moves: dict[tuple, list] = {}
    for cs, st in logic.states.items():
        # paths alike in what the search sees (the comparisons of their condition, their counters' writes, the
        # control they reach, whether they end the game) are one move of it, asked once per state: chess's
        # thousands of paths per control state are a few dozen such moves
        alike: dict[tuple, tuple] = {}
        limits.check()
        legal = Legality(st, logic.states)
        for p in st.paths:
            pc = legal(p.pc)
            npc = numeric_part(pc, parts)
            writes = [(index[c], v) for c, v in p.store.items() if c in numeric]
            if apart and any(_value_leaves(v) & apart for _, v in writes):
                why.append("apart")
                return False
            move = (npc, [pc], writes, p.control, p.status == "over", 1 + sum(_case_count(v) for _, v in writes),
                    [(i, numeric_value(v, parts, cut)) for i, v in writes])
            key = None  # several writes: each path's admitted values must combine on their own, not in a union
            if len(writes) <= 1:
                try:
                    key = (npc.id, tuple((i, value_identity(v)) for i, v in writes), p.control, move[4])
                    hash(key)
                except TypeError:
                    key = None
            found = alike.get(key) if key is not None else None
            if found is not None:
                found[1].append(pc)
                continue
            alike[key if key is not None else (id(move),)] = move
        moves[cs] = list(alike.values())
    start = (logic.start, tuple(float(numeric[k].initial) if numeric[k].initial is not None else None
                                           for k in keys))
    seen = {start}
    todo = [start]
    found: list[set] = [set() for _ in keys]
    budget.found = dict(zip(keys, found))
    admit = Admission(limits, work=budget)
    together = Together(admit)
    reads_apart: dict[int, tuple[CmpLit, bool]] = {}  # `_reads_apart`'s memo
    work = 0  # cases of the moves' writes judged so far (JOINT_WORK_LIMIT)
    while todo:
        limits.check()
        cs, values = todo.pop()
        for i, x in enumerate(values):
            found[i].add(x)
        env = dict(zip(keys, values))
        truths: dict[int, tuple] = {}  # id of a comparison -> (it, its truth here); by id, as hashing it walks it

        def known(key, env=env, truths=truths):
            # asked of the same comparisons again and again in a state (each move's condition, each admission,
            # each case of a write): a Ludo with four tokens compares them all in every condition
            entry = truths.get(id(key))
            if entry is not None and entry[0] is key:
                return entry[1]
            if not isinstance(key, CmpLit) or apart and _reads_apart(key, apart, reads_apart):
                truth = None
            else:
                truth = cmp_value(key, env)
            truths[id(key)] = (key, truth)
            return truth

        memo: dict = {}
        for numeric_pc, pcs, writes, control, over, cases, numeric_writes in moves.get(cs, ()):
            if evaluate3(numeric_pc, known, memo) is False:
                continue
            work += cases
            budget.spend(cases)
            if work > JOINT_WORK_LIMIT:
                why.append("work")
                return False
            written = {i: values_under(v, env, known, memo) for i, v in numeric_writes}
            # written in some cases only (a Partial): in the others it keeps its value, admitted as it is
            kept = {i: {values[i]} if isinstance(v, Partial) else set() for i, v in writes}
            candidates = [written[i] | kept[i] if i in written else [x] for i, x in enumerate(values)]
            if over and all(x in found[i] for i, _ in writes for x in candidates[i]) or not over and all(
                    (control, combo) in seen for combo in _polled(itertools.product(*candidates), limits)):
                continue  # nothing it could give is new: the admission (the costly part) would change nothing
            options = [[x] for x in values]
            for i, v in writes:
                xs = {x for x in written[i] if admit(pcs, v, x, env, known)} | kept[i]
                options[i] = sorted(xs, key=_num_order)
            combos: Iterable = _polled(itertools.product(*options), limits)
            if len(writes) > 1 and (any(keys[i][1] == MADE for i, _ in writes)
                                    or sum(isinstance(v, (Choice, Partial)) for _, v in writes) > 1):
                combos = together.combos(pcs, writes, options, values, env, known)
            for combo in combos:
                if over:
                    for i, _ in writes:
                        found[i].add(combo[i])
                    continue
                state = (control, combo)
                if state not in seen:
                    seen.add(state)
                    todo.append(state)
            if len(seen) > most or any(len(xs) > RANGE_LIMIT for xs in found):
                why.append("states" if len(seen) > most else "range")
                return False
    for k, xs in zip(keys, found):
        numeric[k].domain = sorted(xs, key=_num_order)
    return True


def _unknown(key) -> None:
    return None


def _case_count(v, memo: dict | None = None) -> int:
    """The leaves of a write's cases (1 for a value written as it is): what a state's judgement of the write walks
    (`values_under`, `Admission`), each shared part counted each time it is met, as it is walked."""
    memo = {} if memo is None else memo
    if not isinstance(v, (Choice, Partial)):
        return 1
    found = memo.get(id(v))
    if found is None:
        found = memo[id(v)] = sum(_case_count(y, memo) for y, _ in v.cases) + isinstance(v, Partial)
    return found


def _value_leaves(v) -> set:
    """The numeric fluents v's values are computed from (not those its cases compare)."""
    if isinstance(v, Num):
        return v.leaves()
    if isinstance(v, (Choice, Partial)):
        return set().union(*(_value_leaves(x) for x, _ in v.cases))
    return set()


def _reads_apart(key: CmpLit, apart: frozenset, memo: dict[int, tuple[CmpLit, bool]]) -> bool:
    """Whether a comparison reads a numeric fluent `apart`, kept by the comparison's id (with it, so that the id
    is not reused): a comparison's hash walks the trees of its numbers, and the joint search asks this of every
    comparison in every state (Oware's searches with the other counters apart: an eighth of their CPU)."""
    entry = memo.get(id(key))
    if entry is None or entry[0] is not key:
        entry = memo[id(key)] = (key, bool(_cmp_leaves(key, {}) & apart))
    return entry[1]


def _cmp_leaves(key: CmpLit, memo: dict) -> set:
    """The numeric fluents a comparison reads."""
    found = memo.get(key)
    if found is None:
        found = memo[key] = set().union(*(x.leaves() for x in (key.left, key.right) if isinstance(x, Num)))
    return found


# assignments of the numbers whose comparisons' truths counter_ranges keeps at once: a cache, forgotten whole when
# full. Kalah's end check reads the seeds of eight pits, and a truth kept for each of the millions of assignments it
# tries held gigabytes
MEMO_ASSIGNMENTS = 20_000


def counter_ranges(logic: GameLogic, lowering: Lowering, numeric: dict, fixed: dict | None = None,
                   runaways: list | None = None, work: RangeWork | None = None) -> None:
    """Every numeric fluent's range on its own: a fixpoint over the segments' writes. The counters `fixed`
    keeps have their ranges already (`alone_ranges`): their writes are not searched again. `runaways` are
    the counters known to grow without bound, named first where the search runs out of work."""
    fixed = fixed or {}
    live: dict[tuple, set] = {k: {float(fl.initial)} if fl.initial is not None else {None} for k, fl in numeric.items()}
    for k, domain in fixed.items():
        live[k] = set(domain)
    if work is not None:
        work.found = {k: xs for k, xs in live.items() if k not in fixed}
    writes = []  # (the numeric part of the path condition, cell, value, ends the game)
    conditions: list[list[Formula]] = []  # by write: the whole conditions of the paths it stands for
    seen: dict = {}
    parts: dict[int, Formula] = {}
    for st in logic.states.values():
        legal = Legality(st, logic.states)
        for p in st.paths:
            whole = None
            for cell, v in p.store.items():
                if cell in numeric and cell not in fixed:
                    if whole is None:
                        whole = legal(p.pc)
                    # only the comparisons of a condition can rule a value out: the writes that differ in
                    # other literals only (the same counter step after every move) are one write
                    pc = numeric_part(whole, parts)
                    try:
                        key = (cell, v, pc.id, p.status == "over")
                        w = seen.get(key)
                        if w is not None:
                            conditions[w].append(whole)
                            continue
                        seen[key] = len(writes)
                    except TypeError:  # a value that cannot be hashed: kept as it is
                        pass
                    writes.append((pc, cell, v, p.status == "over"))
                    conditions.append([whole])
    ended: dict[tuple, set] = {k: set() for k in numeric}
    leaves_of = [sorted(num_leaves(v) | formula_leaves(pc)) for pc, _, v, _ in writes]
    admit = Admission(lowering.limits, work=work)
    try:
        _counter_fixpoint(writes, leaves_of, conditions, live, ended, numeric, lowering, admit, runaways, fixed)
    except TooManyQuestions:
        _refuse_ranges(numeric, live, lowering, runaways or [], questions=True, fixed=fixed)
    for k, fl in numeric.items():
        fl.domain = sorted(live[k] | ended[k], key=_num_order)


def _counter_fixpoint(writes: list, leaves_of: list, conditions: list, live: dict, ended: dict, numeric: dict,
                      lowering: Lowering, admit: Admission, runaways: list | None, fixed: dict) -> None:
    """`counter_ranges`'s fixpoint: the values each write gives from the ranges so far, added to `live` (or
    `ended`, for a write that ends the game) until none is new; `fixed`: the counters ranged already."""
    memos: dict[tuple, dict] = {}  # per assignment of the numeric fluents: formula id -> truth (MEMO_ASSIGNMENTS)
    done: set[tuple] = set()  # (write, its leaves' values) pairs already evaluated
    work = 0
    for _ in range(FIXPOINT_LIMIT):
        changed = False
        for w, ((pc, cell, v, over), leaves) in enumerate(zip(writes, leaves_of)):
            lowering.limits.check()
            for combo in itertools.product(*(sorted(live[leaf], key=_num_order) for leaf in leaves)):
                work += 1
                admit.work.spend(1)
                if not work % 64:
                    lowering.limits.check()
                if work > RANGE_WORK_LIMIT:
                    _refuse_ranges(numeric, live, lowering, runaways or [], fixed=fixed)
                if (w, combo) in done:
                    continue
                done.add((w, combo))
                env = dict(zip(leaves, combo))

                def known(key, env=env):
                    return cmp_value(key, env) if isinstance(key, CmpLit) else None

                if len(memos) >= MEMO_ASSIGNMENTS:
                    memos.clear()
                memo = memos.setdefault(tuple(zip(leaves, combo)), {})
                if evaluate3(pc, known, memo) is False:
                    continue
                for x in values_under(v, env, known, memo):
                    target = ended[cell] if over else live[cell]
                    if x not in target and admit(conditions[w], v, x, env, known):
                        target.add(x)
                        changed = changed or not over
                        if len(target) > RANGE_LIMIT:
                            raise runaway_refusal(lowering, numeric[cell], target)
        if not changed:
            break


class Legality:
    """A path's condition for the range search: with the move it was made by legal, `Legality(st)(p.pc)`.

    A segment's path starts from the control and its move (`Lowering._segment`), not from the move's
    legality: the requires and filters were judged apart (`legal_moves`), and `legal` says them once.
    But they hold wherever the move is made, and they bound the counters as an `if` in the effect does:
    `require { return InHand > 0; }` before `InHand -= 1` keeps InHand at 0 and above. So the range search
    reads each path's condition and "the move is one of its moves, and that move is legal": the moves are
    the ones its condition names (a path is made by one of the moves it started from, and every one is
    named in it; moves exclude each other), each with its legality; at random's control state after a player's
    move, with `states` given, that move's legality too (`made_legal`). The rules written are not changed.
    """

    def __init__(self, st: ControlState, states: dict | None = None):
        self._legal = {MoveLit(m.index): f for m, f in st.legal if f is not TRUE}
        self._before = made_legal(st.control, states) if states is not None else TRUE
        self._memo: dict[int, Formula] = {}

    def __call__(self, pc: Formula) -> Formula:
        if not self._legal and self._before is TRUE:
            return pc
        found = self._memo.get(pc.id)
        if found is None:
            moves = sorted((k for k in literals(pc) if type(k) is MoveLit), key=lambda k: k.move)
            if not any(k in self._legal for k in moves):
                found = pc
            else:
                found = conj(pc, disj(*(conj(lit(k), self._legal.get(k, TRUE)) for k in moves)))
            found = conj(found, self._before)
            self._memo[pc.id] = found
        return found


def made_legal(cs: tuple, states: dict) -> Formula:
    """Where `cs` is random's control state after a player's move (player, turn, phase, the move: its dice or
    deal, tgpl.lowering.chance), that move's legality in the player's control state; else TRUE. Random's step
    holds the state the move was made in (the player's step writes nothing, `Lowering._segment`), so the move's
    requires and filters still hold there, where its effect runs: Treasure's Discard, whose effect runs after
    random deals the next card, removes a card its filter says the hand holds, and its hand's length goes down;
    without it, the range search let the card be missed and the hands' lengths reach 10 (5 at most in play).
    Only a legality of the state's fluents and comparisons is carried (one that names a control, a move or a
    view would not mean the same at random's control); the rules written are not changed."""
    if len(cs) != 4 or not isinstance(cs[3], int) or isinstance(cs[3], bool):
        return TRUE
    before = states.get(cs[:3])
    if before is None:
        return TRUE
    f = next((f for m, f in before.legal if m.index == cs[3]), None)
    if f is None or f is TRUE or any(type(k) not in (FluentLit, CmpLit) for k in literals(f)):
        return TRUE
    return f


COMBINATION_MODELS = 256
"""Models one enumeration of a path's combinations of values may find (`Together._enumerated`) before its
combinations are asked one at a time."""


class TooManyQuestions(Exception):
    """A range search asked clingo QUESTION_LIMIT questions (`Admission.can_hold`)."""


class Admission:
    """Whether one of the paths a write stands for can write x: its whole condition and the case of x,
    judged together with the comparisons decided by the numbers in env (`symbolic.compatible`).

    The numeric parts alone lose how a value's case and the path's condition share literals: a counter
    that steps only when a piece is a king, and ends the game at 40 (`Quiet` in examples/draughts.tgpl),
    goes on at 39 only when the piece is not a king, where the step is not made; judged on comparisons
    alone, it would run past every bound. Asked only for a value new to a range, and only of a value
    by cases: a value written as it is has no case to correlate.

    Remembered: a path's answer depends on the numbers only through the comparisons its condition and
    the value's cases hold, and through which of the cases can give the value. Chess's thousands of move
    paths each step `Quiet` by cases, and are asked again for each of its hundred values.

    What clingo is asked is remembered too, by the two formulas with the comparisons replaced by their
    truth (`_residual`): states whose numbers differ only where the formulas do not care ask the same
    question.
    """

    def __init__(self, limits: Limits | None = None, most: int | None = None, work: RangeWork | None = None):
        self.limits = limits if limits is not None else unlimited()  # polled before each question to clingo
        self.most = QUESTION_LIMIT if most is None else most  # questions past which TooManyQuestions is raised
        self.work = unbudgeted(work)  # the whole range search's, each question counted
        self._leaves: dict[int, list] = {}
        self._cmps: dict[tuple, tuple] = {}
        self._formula_cmps: dict[int, frozenset] = {}  # formula id -> the comparisons it holds
        self._value_cmps: dict[int, frozenset] = {}  # write id -> the comparisons of its cases
        self._answers: dict[tuple, bool] = {}
        self._keep: list = []  # the values remembered by id stay alive
        self._nodes: dict[tuple, int] = {}  # a residual formula's node -> its number (0 false, 1 true)
        self._decided: dict[tuple[int, int], bool] = {}  # (residual condition, residual case) -> satisfiable
        self.solver = Solver(self.limits)  # one clingo program for every question (`satisfy.Solver`)
        # the residuals under the last `known` asked with (formula id -> node number): the joint search asks
        # with one `known` per state, and a condition's residual was computed again for each of the state's
        # questions (Shut the Box: 11,204 walks of its conditions, half of the search's time)
        self._known = None
        self._memo: dict[int, int] = {}
        # a formula's residual by its id and the truths of its comparisons: what decides it, so that a state
        # whose numbers decide them alike does not walk the formula again (Dobutsu's conditions, in each state)
        self._residuals: dict[tuple, int] = {}
        self._ordered: dict[int, tuple] = {}
        # the values of the writes' leaves under the last env asked with (`leaf_values`), by the write's id
        self._env: dict | None = None
        self._env_values: dict[int, list] = {}

    def __call__(self, pcs: list[Formula], v, x, env: dict, known) -> bool:
        if not isinstance(v, (Choice, Partial)):
            return True
        leaves = self.leaves(v)
        cases = tuple(j for j, (xs, _) in enumerate(self.leaf_values(v, env)) if x in xs)
        if not cases:
            return False
        for pc in pcs:
            cmps = self._cmps.get((pc.id, id(v)))
            if cmps is None:
                found = self._comparisons(pc) | self._write_comparisons(v)
                cmps = self._cmps[(pc.id, id(v))] = tuple(sorted(found, key=repr))
            key = (pc.id, id(v), cases, tuple(known(k) for k in cmps))
            answer = self._answers.get(key)
            if answer is None:
                # compatible: quick, and sure when it says no; satisfiable decides what it lets through
                answer = self._answers[key] = any(self.can_hold(pc, leaves[j][1], known) for j in cases)
            if answer:
                return True
        return False

    def leaves(self, v) -> list[tuple]:
        """(value, condition) of every leaf of the write v's cases (`_leaf_cases`), kept by v's id."""
        leaves = self._leaves.get(id(v))
        if leaves is None:
            leaves = self._leaves[id(v)] = list(_leaf_cases(v, TRUE))
            self._keep.append(v)
        return leaves

    def leaf_values(self, v, env: dict) -> list[tuple[set, Formula]]:
        """The values each leaf of v's cases takes under env, with its condition, kept while the same env is
        asked with: a state of the joint search asks of each value of each write which leaves give it, and
        walked each leaf's number again for each value (Dobutsu's captures, the three hands written by cases:
        half of its joint search's time)."""
        if self._env is not env:
            self._env, self._env_values = env, {}
        found = self._env_values.get(id(v))
        if found is None:
            found = self._env_values[id(v)] = [(values_under(y, env, None), f) for y, f in self.leaves(v)]
        return found

    def _comparisons(self, f: Formula) -> frozenset:
        found = self._formula_cmps.get(f.id)
        if found is None:
            found = self._formula_cmps[f.id] = frozenset(k for k in literals(f, True) if isinstance(k, CmpLit))
            self._keep.append(f)
        return found

    def _write_comparisons(self, v) -> frozenset:
        """The comparisons of every case formula of the write v, each formula walked once: walking each leaf's
        case (the conjunction of the cases above it) walked the shared formulas once per leaf (Treasure's
        draws, 225 leaves a write: 43 s of 80 in its range search)."""
        found = self._value_cmps.get(id(v))
        if found is None:
            forms: dict[int, Formula] = {}
            todo, seen = [v], set()
            while todo:
                w = todo.pop()
                if isinstance(w, (Choice, Partial)) and id(w) not in seen:
                    seen.add(id(w))
                    for y, f in w.cases:
                        forms[f.id] = f
                        todo.append(y)
            found = self._value_cmps[id(v)] = frozenset(
                k for k in literals_of(forms.values(), True) if isinstance(k, CmpLit))
            self._keep.append(v)
        return found

    def can_hold(self, pc: Formula, case: Formula, known) -> bool:
        """Whether pc and case can hold together, decided once per pair of residual formulas: first
        evaluated (`symbolic.compatible`: quick, and sure when it says no), and what that lets through
        decided by clingo (`satisfiable`)."""
        key = (self.residual(pc, known), self.residual(case, known))
        if 0 in key:
            return False
        found = self._decided.get(key)
        if found is None:
            # polled, not checked: a question is counted in the search's work (`RangeWork`), and the dry run's
            # steps (tgpl.lowering.lowerable.RANGE_STEPS) count the states the searches visit
            self.limits.poll()
            found = compatible(pc, case, known)
            if found:
                if self.solver.questions >= self.most:
                    raise TooManyQuestions
                before = self.solver.work
                found = self.solver.satisfiable(pc, case, known)
                self.work.asked(self.solver.work - before)
            self._decided[key] = found
        return found

    def residual(self, f: Formula, known) -> int:
        """`_residual` under `known`, the residuals kept while the same `known` is asked with (one state's
        numbers: the residuals of its many questions are shared)."""
        if self._known is not known:
            self._known, self._memo = known, {}
        found = self._memo.get(f.id)
        if found is not None:
            return found
        cmps = self._ordered_comparisons(f)
        key = (f.id, tuple(known(k) for k in cmps))
        found = self._residuals.get(key)
        if found is None:
            found = self._residuals[key] = self._residual(f, known, self._memo)
        return found

    def _ordered_comparisons(self, f: Formula) -> tuple:
        """The comparisons f holds (`_comparisons`), in one order kept for f."""
        found = self._ordered.get(f.id)
        if found is None:
            found = self._ordered[f.id] = tuple(self._comparisons(f))
        return found

    def _residual(self, f: Formula, known, memo: dict[int, int]) -> int:
        """f with every comparison `known` decides replaced by its truth, as a number that equal residual
        formulas share (up to the order and repetition of parts): 0 is false, 1 true. Comparisons exclude
        nothing (`symbolic._exclusive_cell`), so two formulas with one residual are satisfiable alike.
        Numbered here, not built as formulas: building them would change the interned formulas' order,
        and with it the rules written."""
        return bottom_up(f, memo, lambda g: self._node(g, [memo[p.id] for p in g.parts], known))

    def _node(self, g: Formula, parts: list[int], known) -> int:
        if g is TRUE or g is FALSE:
            return int(g is TRUE)
        if g.kind == "lit":
            v = known(g.key)
            return self._number(("lit", g.id)) if v is None else int(bool(v))
        if g.kind == "not":
            return 1 - parts[0] if parts[0] < 2 else self._number(("not", parts[0]))
        absorbing, neutral = (0, 1) if g.kind == "and" else (1, 0)
        if absorbing in parts:
            return absorbing
        kept = tuple(sorted({x for x in parts if x != neutral}))
        if len(kept) < 2:
            return kept[0] if kept else neutral
        return self._number((g.kind, kept))

    def _number(self, node: tuple) -> int:
        return self._nodes.setdefault(node, len(self._nodes) + 2)


class Together:
    """Whether one of the paths a move stands for writes its counters' values `combo` all at once: the cases
    that give each value (the case that keeps it, for a value written in some cases only), judged together
    with the path's condition, the comparisons decided by the numbers (clingo, as `Admission` does for one).

    Each counter's values are admitted on their own, so a move that writes two counters in the same cases
    (a pool's counter and the game's count of what it made, both one more where a pawn is promoted, kept
    elsewhere) gives every combination of them, and the pool's counter is then bounded only by what bounds
    the moves. Asked for the moves that write a pool's counter and another counter (`joint_ranges`), so
    that the other games' ranges are as before. What clingo is asked is the admission's question, and
    remembered with its answers (`Admission.can_hold`)."""

    def __init__(self, admit: Admission):
        self.admit = admit
        self._cmps: dict[int, frozenset] = {}  # formula id -> the comparisons it holds
        self._sorted: dict[tuple[int, int], tuple] = {}  # (condition, case) ids -> their comparisons, in order
        self._answers: dict[tuple, bool] = {}
        self._keep: list = []  # the formulas remembered by id stay alive
        self._enumerations: dict[tuple, set] = {}  # residual condition and rows -> the combinations that hold

    def combos(self, pcs: list[Formula], writes: list, options: list[list], values: tuple, env: dict,
               known) -> list[tuple]:
        """The combinations of `options` (one list of values per counter) that one of the paths writes all at
        once, in the order of `itertools.product`: each whole combination judged as `__call__` judges it, and a
        first part of one given up where its writes by cases cannot hold together, since no combination that
        extends it can (a conjunction is unsatisfiable whenever part of it is). Kalah's capture and sweep
        write the seeds of many holes by cases (tests/data/designers/kalah.tgpl): on the first 1,000 states of
        its search, the questions asked fall by half, and so does the search's time."""
        whole = self._enumerated(pcs, writes, options, values, env, known)
        if whole is not None:
            return whole
        cased = sorted(i for i, v in writes if isinstance(v, (Choice, Partial)))
        prune = set(cased[:-1])  # at the last, the first part's judgement would be the whole combination's
        out: list[tuple] = []
        todo: list[tuple] = [()]  # first parts, depth first, the next to extend last
        for _ in _polled(itertools.count(), self.admit.limits):
            if not todo:
                break
            prefix = todo.pop()
            k = len(prefix)
            if k == len(options):
                if self(pcs, writes, prefix, values, env, known):
                    out.append(prefix)
                continue
            longer = [prefix + (x,) for x in options[k]]
            if k in prune:
                first = [(i, v) for i, v in writes if i <= k]
                longer = [c for c in longer if self(pcs, first, c, values, env, known)]
            todo.extend(reversed(longer))
        return out

    def _enumerated(self, pcs: list[Formula], writes: list, options: list[list], values: tuple, env: dict,
                    known) -> list[tuple] | None:
        """`combos`, each path's combinations found by one enumeration of clingo's models
        (`satisfy.Solver.combinations`): the same combinations, as each is one that can hold with a path. None
        where a path's models pass COMBINATION_MODELS: `combos` then asks one combination at a time."""
        rows = [[self._giving(v, x, values[i], env) for x in options[i]] for i, v in writes]
        admit = self.admit
        held: set[tuple] = set()
        residual_rows = tuple(tuple(admit.residual(f, known) for f in row) for row in rows)
        for pc in pcs:
            # remembered by the residual formulas (`Admission.residual`), which decide what can hold: Ludo's
            # moves ask the same enumeration in state after state
            key = (admit.residual(pc, known), residual_rows)
            found = self._enumerations.get(key)
            if found is None:
                if admit.solver.questions >= admit.most:
                    raise TooManyQuestions
                admit.limits.poll()  # counted in the work, not in the dry run's steps (`Admission.can_hold`)
                before = admit.solver.work
                found = admit.solver.combinations(pc, rows, known, COMBINATION_MODELS) if key[0] else set()
                if key[0]:
                    admit.work.asked(admit.solver.work - before)
                if found is None:
                    return None
                self._enumerations[key] = found
            held |= found
        at = [i for i, _ in writes]
        return [combo for combo in _polled(itertools.product(*options), admit.limits)
                if tuple(options[i].index(combo[i]) for i in at) in held]

    def __call__(self, pcs: list[Formula], writes: list, combo: tuple, values: tuple, env: dict, known) -> bool:
        cond = conj(*(self._giving(v, combo[i], values[i], env) for i, v in writes))
        if cond is FALSE:
            return False
        for pc in pcs:
            # remembered by what the numbers decide of the two formulas: a Pente move's captures ask the same
            # question for each of the counters' states, and its condition spans the board
            cmps = self._sorted.get((pc.id, cond.id))
            if cmps is None:
                cmps = self._sorted[(pc.id, cond.id)] = tuple(
                    sorted(self._comparisons(pc) | self._comparisons(cond), key=repr))
            key = (pc.id, cond.id, tuple(known(k) for k in cmps))
            answer = self._answers.get(key)
            if answer is None:
                answer = self._answers[key] = self.admit.can_hold(pc, cond, known)
            if answer:
                return True
        return False

    def _comparisons(self, f: Formula) -> frozenset:
        found = self._cmps.get(f.id)
        if found is None:
            found = self._cmps[f.id] = frozenset(k for k in literals(f, True) if isinstance(k, CmpLit))
            self._keep.append(f)
        return found

    def _giving(self, v, x, before, env: dict) -> Formula:
        """When the write v gives x (`before`: the counter's value before the move, which a Partial keeps in
        the cases it does not cover)."""
        if not isinstance(v, (Choice, Partial)):
            return TRUE
        parts = [f for xs, f in self.admit.leaf_values(v, env) if x in xs]
        if isinstance(v, Partial) and x == before:
            parts.append(neg(disj(*(f for _, f in v.cases))))
        return disj(*parts)


def _leaf_cases(v, cond: Formula):
    """(value, the condition it is taken under) of every leaf of v's cases."""
    if isinstance(v, (Choice, Partial)):
        for y, f in v.cases:
            yield from _leaf_cases(y, conj(cond, f))
    else:
        yield v, cond


def _refuse_ranges(numeric: dict, live: dict, lowering: Lowering, runaways: list, questions: bool = False,
                   fixed: dict | None = None) -> None:
    """Refuse the game when the search for the ranges ran out of work (`questions`: of its QUESTION_LIMIT
    questions to clingo): at a counter known to grow without bound (`alone_ranges`) where there is one, at its
    write; else at the counter whose range grew most, of those it searched: a counter `fixed` ranges already
    (a running total's range from its list's length, decision 113, wider than any counter's) is not the one
    that ran out, and a total is no attribute of the source to locate it at."""
    searched = [k for k in numeric if k not in (fixed or {})] or list(numeric)
    if questions:
        widest = max(searched, key=lambda k: (k[1] != MADE, len(live[k]), k))
        fl = numeric[widest]
        raise NotLowerable(lowering._attr_span(fl),
                           f"the range of {fl.obj.name}.{fl.attr} could not be bounded within {QUESTION_LIMIT:,} "
                           "questions to clingo (whether a path's condition can hold with the case of a value it "
                           "writes): numbers need a finite range to be lowered, found from their values after setup "
                           "and the moves' writes; the writes of the game's numbers by cases (a sum over the board, "
                           "say) judged with each state's comparisons asked too many",
                           counter=fl.attr if fl.attr != MADE else None)
    if runaways:
        k = runaways[0]
        raise runaway_refusal(lowering, numeric[k], live[k], work=True)
    widest = max(searched, key=lambda k: (k[1] != MADE, len(live[k]), k))  # a pool's counter last: it is no attribute
    fl = numeric[widest]
    raise NotLowerable(lowering._attr_span(fl),
                       f"the range of {fl.obj.name}.{fl.attr} could not be bounded within "
                       f"{RANGE_WORK_LIMIT:,} cases of the counters' values: numbers need a finite range to be "
                       "lowered, found from their values after setup and the moves' writes",
                       counter=fl.attr if fl.attr != MADE else None)


def budget_refusal(logic: GameLogic, lowering: Lowering, work: RangeWork) -> NotLowerable:
    """The refusal of a game whose range search passed its budget of work: located at the write of a counter by
    the most cases in one move (`_costliest_write`), what each state of the search walks again and asks clingo
    about, with how to write it in fewer."""
    k, leaves = _costliest_write(logic)
    fl = logic.fluents[k]
    write = None
    if k[1] != MADE:
        write = growing_write(lowering.program, k[1], 1) or growing_write(lowering.program, k[1], -1)
    span = write.span if write is not None else lowering._attr_span(fl)
    return NotLowerable(span, f"the search of the numbers' ranges passed its budget of work ({work.budget:,}: the "
                              f"cases of the moves' writes walked state by state, and {work.questions:,} questions "
                              f"to clingo): {fl.obj.name}.{fl.attr} is written by cases, {leaves:,} in one move, each "
                              "walked and asked about in every state of the counters' values: numbers need a finite "
                              "range to be lowered; write it in fewer cases (a count made once, after the branches "
                              "that decide it, not added to in each of them), or bound it by a test the moves make",
                        counter=fl.attr if fl.attr != MADE else None)


def search_underway(lowering: Lowering, most: int = 3) -> str:
    """The counters of the range search underway (`RangeWork.found`) that had taken the most values when a budget
    cut it short, by attribute, up to `most` attributes and `most` objects named of each, with the values found
    and where the moves write it (`runaway.first_write`): `Token#0.Pos, Token#1.Pos (0 to 10 found so far, written
    at game.tgpl:146:13)`; "" when no search had started. A budget outside the lowering's (the dry run's steps)
    stops the search with nothing refused, and these are the numbers it was still ranging."""
    work = lowering.range_spent
    if work is None or not work.found:
        return ""
    by_attr: dict[str, tuple[list, set]] = {}
    for (obj, attr), xs in sorted(work.found.items()):
        objs, values = by_attr.setdefault(attr, ([], set()))
        objs.append(obj)
        values |= xs
    ranked = sorted(by_attr.items(), key=lambda kv: (-len(kv[1][1]), kv[0] == MADE, kv[0]))[:most]
    return ", ".join(_counters_text(lowering, attr, objs, values, most) for attr, (objs, values) in ranked)


def _counters_text(lowering: Lowering, attr: str, objs: list, values: set, most: int) -> str:
    """`A.X, B.X and 2 more (0 to 10 found so far, written at game.tgpl:146:13)`: one attribute of the search."""
    names = ", ".join(f"{obj}.{attr}" for obj in objs[:most])
    if len(objs) > most:
        names += f" and {len(objs) - most} more"
    found = sorted((x for x in values if isinstance(x, (int, float))), key=float)
    seen = f"{_number_text(found[0])} to {_number_text(found[-1])} found so far" if found else "no value found yet"
    write = first_write(lowering.program, attr) if attr != MADE else None
    where = f", written at {write.span}" if write is not None else ""
    return f"{names} ({seen}{where})"


def _costliest_write(logic: GameLogic) -> tuple[tuple, int]:
    """The numeric fluent written by the most cases in one path (`_case_count`), and that count; the first met where
    several tie."""
    memo: dict = {}
    best: tuple[tuple, int] | None = None
    for st in logic.states.values():
        for p in st.paths:
            for k, v in p.store.items():
                fl = logic.fluents.get(k)
                if fl is None or not fl.numeric:
                    continue
                n = _case_count(v, memo)
                if best is None or n > best[1]:
                    best = (k, n)
    if best is None:  # no write at all: the first number, with none
        return min(k for k, fl in logic.fluents.items() if fl.numeric), 0
    return best


def runaway_refusal(lowering: Lowering, fl: Fluent, values: set, work: bool = False) -> NotLowerable:
    """The refusal of a counter whose range could not be found: past RANGE_LIMIT values, or (`work`) at the
    end of the search's budget of cases for a counter that its search alone (`alone_ranges`) saw grow past
    them. Located at the write that moves it the way its values ran (`runaway.growing_write`), with how to
    bound it. What bounds it only through other counters (two scores bounded by a move count) is seen only
    as far as the counters could be searched together, which the message says."""
    found = sorted((x for x in values if isinstance(x, (int, float))), key=float)
    initial = float(fl.initial) if isinstance(fl.initial, (int, float)) else 0.0
    falls = bool(found) and initial - found[0] > found[-1] - initial
    write = growing_write(lowering.program, fl.attr, -1 if falls else 1) if fl.attr != MADE else None
    name = f"{fl.obj.name}.{fl.attr}"
    span = write.span if write is not None else lowering._attr_span(fl)
    seen = f" ({_number_text(found[0])} to {_number_text(found[-1])} found)" if found else ""
    what = (f"the range of {name} could not be bounded within {RANGE_WORK_LIMIT:,} cases of the counters' values{seen}"
            if work else f"{name} takes more than {RANGE_LIMIT} values{seen}")
    cap = lowering.ex.caps.get(fl.attr)
    if cap is not None and not falls:  # capped (tgpl.lowering.saturate), yet with too many values below its cap
        return NotLowerable(span, f"{what}: it is held within its cap, {cap}, one more than the largest number it is "
                                  "compared with or than the cap of a counter it is added into (every value from "
                                  f"there up plays alike), but that is still more than {RANGE_LIMIT} values: compare "
                                  "it with smaller numbers, or end the game when it reaches a smaller bound",
                            counter=fl.attr)
    return NotLowerable(span, f"{what}: numbers need a finite range to be lowered, and the lowering sees nothing "
                              f"that stops {'this write' if write else 'its writes'} from making it ever "
                              f"{'smaller' if falls else 'larger'} (it follows the turns, and other counters only "
                              f"as far as it can search them together): test it before it changes (an `if` or a "
                              f"`require`), or end the game when it reaches a bound",
                        counter=fl.attr if fl.attr != MADE else None)


def _number_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _num_order(x):
    return (0, 0.0) if x is None else (1, float(x))
