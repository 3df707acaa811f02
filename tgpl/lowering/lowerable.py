"""What will lower, and how, said in seconds: `tgpl check --lowerable` and `tgpl to-gdl --dry-run`.

A full lowering can take minutes before it refuses a game (Reversi written plainly: 3 min 39 s to pass the
executor's 500,000 statements), and longer still to validate one it accepts. The dry run asks the same
questions as the lowering (tgpl.lowering.lower.lower), in the same order, but stops each before it costs much:

1. the constructs the lowering never translates (`subset.outside_subset`): a static scan, every one at once;
2. the strategy for the moves, chosen as `lower` chooses it (`lower.moves_strategy`): compiled once with the
   inputs as variables, or spelled out move by move;
3. compiled moves: the segments are compiled (`compiled.CompiledGame.compile`, under a second for chess), which
   says what the compiled subset cannot take (`Unsupported`, at its statement), and their rules are counted
   against the lowering's cap; then the counters' ranges are searched as the lowering searches them, up to a
   smaller bound (tgpl.lowering.dry_ranges: a refusal there is the lowering's, past the bound "undecided"); the
   rest of the relaxation by clingo (the moves that can be legal) is not run: it is what takes a compiled
   lowering its time;
4. moves spelled out: the symbolic execution is run with a budget of statements (`STEPS`) and of parts of
   conditions (`PARTS`), a few seconds' work. Within it, the execution and the search for the numbers'
   ranges run whole and their verdict is the lowering's own; past it, what was run is extrapolated (the
   statements a move took, times the moves of its control state; the ways each control state's moves end in,
   those a move ended in times the moves) and compared with the executor's own budgets (`execute.STEP_LIMIT`,
   `execute.WORK_LIMIT`, `execute.PATH_LIMIT`): a game whose estimate passes them is refused, at
   the code that ran most, as the lowering would refuse it after minutes; one within them is said to lower
   (estimated), the ranges not searched, but for a game whose lists keep running totals (decision 113), whose
   ranges decide (examples/treasure.tgpl): "undecided".

Each part of the game (an action a player chooses or one answering an event, a phase, a function code after
setup calls) gets its strategy, a cost where it is cheaply known, and the refusals located inside it, each
with a hint on how to rewrite it (docs/lowering.md, "Writing games that lower"). What the dry run never
does: emit the rules, generalise them, prove checks global, validate; so a game it passes may still be
refused by those stages (a compiled function whose numbers pass their bound), which it says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from tgpl.frontend import ast
from tgpl.frontend.after_setup import reachable
from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.frontend.types import CallableType
from tgpl.limits import Limits, unlimited
from tgpl.lowering import execute, horn
from tgpl.lowering.board_count import STEP_ATOMS
from tgpl.lowering.chance import ROLL, Throw, phase_rolls, roll_name
from tgpl.lowering.compiled import SEGMENT_RULES, CompiledGame, TooManySegments, action_ways
from tgpl.lowering.counted_results import UnfollowedResult
from tgpl.lowering.deferral import Undefer
from tgpl.lowering.dry_ranges import RangesPastBound, compiled_ranges
from tgpl.lowering.execute import NotLowerable, StateTooCostly
from tgpl.lowering.horn import Unsupported
from tgpl.lowering.lower import (PARTS_PER_WAY, SPELLED_PARTS, counts_the_board, fewer_collections, may_compile,
                                 moves_strategy, spelled_budget)
from tgpl.lowering.layout import ListLayout
from tgpl.lowering.segments import POOL_START, Lowering, lowered_logic, phase_action, refused_up_front, search_underway
from tgpl.lowering.subset import phase_move_input, pool_classes
from tgpl.lowering.universe import Universe
from tgpl.lowering.unread import unread_attributes

STEPS = 10_000
"""Statements the dry run lets the symbolic execution run (the lowering's own budget: 500,000), and then its sampled
run. Tris takes 340, Hex 5,900, Connect Four 7,900, draughts 111,000, five in a row 64,000: a few seconds' worth."""
ESTIMATE_ERROR = 3
"""How far a sampled run's estimate may be from the statements the whole run takes (measured: five in a row's
1.6 times them, Teeko's 3.3: tests/data/designers/teeko.tgpl, whose later moves of a control state share the
calls its first ones made, 400 statements a move where the sample's took 2,249). Only past this many times the
lowering's budgets is a refusal predicted; an estimate between the budget and this is undecided."""
STATE_ERROR = 2
"""How far a sampled run's estimate of one control state's parts of conditions (its legal moves' estimate, its moves'
effects and the phases they enter: `_estimate`'s `busiest_state`) may be from what the lowering builds there: past
this many times the lowering's budget of one state (`execute.STATE_WORK`) a refusal is predicted, between that
budget and this "undecided". Narrower than ESTIMATE_ERROR, which covers the statements of the whole game, whose
later moves share the calls the first ones made. Measured by the sampled run of every game in examples/,
tests/data/lowering and tests/data/designers: the games that lower build at most about 0.53 million parts in one
state (five in a row), a sixth of the budget, and the highest one-state estimate of a game that lowers spelled out
is Amazons' (about 1.5 million, half the budget), four times under this factor; Jungle's
(tests/data/designers/jungle.tgpl), about 8.8 million, 2.9 times the budget, is refused on the estimate, where it
ran on to the lowering's own refusal at 3 million after its sample had made its first state."""
STOPPED_ERROR = 3
"""How much more a control state's estimate may err where its sample stopped inside a move (`_stopped_state_parts`):
that move counted as whole, its cost taken for every move of the state, where the first moves of a state pay for
calls that the later ones share (Teeko's first moves: 5.6 times its later ones'). Halma on 5 x 5
(tests/data/designers/halma5.tgpl) stops in its second move: about 15.5 million parts for its first state, under
this factor, so its refusal is predicted by the ways its moves end in instead (`_State.ways`)."""
SAMPLE = 2
"""Moves of each action the sampled run takes through each control state's segment (the first ones found)."""
SAMPLE_MORE = 1
"""A control state's sampled moves go on past SAMPLE of each action while their effects have taken fewer than
this many times the dry run's budget of statements (the sampled run's budget grows by as much for each state it
meets). The first moves of a state pay for calls that later ones share (Amazons: the first nine of its 1,456
opening moves take 386 statements each, most of the others 6), so the sample runs on, in order, while it is
cheap, and the estimate takes the cost of its later half as the cost of a move not run."""
PARTS = 3_000_000
"""Parts of conditions the dry run lets the symbolic execution build (the lowering's own budget: 30,000,000); a
control state under way when they pass runs on to the lowering's budget of one state (`execute.STATE_WORK`, as
many again), where the lowering refuses a game such as examples/treasure.tgpl in seconds: the dry run then says
so, located, rather than "undecided"."""
RANGE_STEPS = 5_000
"""Steps the dry run lets the search of the numbers' ranges take: the states and control states it visits (each a
`Limits.check` in the stage "lowering (ranges)"); its questions to clingo count in its own budget of work
(segments.RANGE_WORK), which the dry run keeps, so that Pente 7x7's thousands of questions in one state end in the
lowering's refusal, not in "undecided" after 5,000 solves. The examples take 0 to 1,410, nim 4,030; a
memory game whose six cards each show one of four numbers takes millions (minutes): past the budget the dry run
says "undecided" instead of searching on, and `tgpl to-gdl` searches them in full."""
RANGE_CHEAP_STEPS = 25_000
"""Steps the dry run's range search goes on to past RANGE_STEPS while its work (segments.RangeWork: cases walked,
questions to clingo) stays within RANGE_CHEAP_WORK: cheap steps, whose full search ends in seconds. Line Up
(tests/data/designers/lineup.tgpl) takes 16,011 steps and 197,105 units of work, the rewritten Royal Game of Ur
(rosette_throw.tgpl) 21,279 and 366,931: both said "undecided" at 5,000 steps and now lower, as `tgpl to-gdl`
lowers them. A search that costly per step (Ultimate tic-tac-toe: 781,624 at 5,000 steps; Dobutsu 3,981,837)
still stops at RANGE_STEPS, so no dry run that answered before takes longer."""
RANGE_CHEAP_WORK = 500_000
"""The work (segments.RangeWork) within which the dry run's range search counts as cheap (RANGE_CHEAP_STEPS)."""

TOWARD_COMPILED = 8
"""How many times its budget of statements (STEPS) the dry run's whole run may go on to where `auto` would compile
the moves once their parts of conditions pass its budget (`lower.spelled_budget`), while the parts at their rate so
far would pass it within that many statements: the dry run then stops where the lowering stops spelling them out,
and dry-runs the compiled moves, as the lowering compiles them. Knight Isolation on 5 x 5
(tests/data/designers/isolation.tgpl, 25 ways, a budget of 200,000 parts) passes it at 40,448 statements; five in
a row (225 ways, 1.8 million parts, about 8 a statement) would need hundreds of thousands, and is left to the
sampled run at STEPS."""

DOCS = 'docs/lowering.md, "Writing games that lower"'


# ---------------------------------------------------------------------- the report
@dataclass
class Refusal:
    """Something the lowering refuses (or, `predicted`, would refuse after its own budgets): where, why, and how
    to write it so that it lowers."""

    span: Span | None
    reason: str
    hint: str
    predicted: bool = False

    def diagnostic(self, main: str) -> Diagnostic:
        span = self.span if self.span is not None else Span(main, 1, 1, 1, 1)
        return Diagnostic(Severity.ERROR, span, f"not lowerable: {self.reason}", (f"hint: {self.hint}",))

    def to_json(self) -> dict:
        s = self.span
        return {"file": s.file if s else None, "line": s.line if s else None, "column": s.col if s else None,
                "reason": self.reason, "hint": self.hint, "predicted": self.predicted}


@dataclass
class Part:
    """An action, a phase or a function of the game, and how it lowers."""

    kind: str  # "action" | "phase" | "function"
    name: str  # "Desk.Place", "Round.PlayPhase", "Board.FlipsIn"
    span: Span  # its name
    body: Span  # its whole definition: refusals inside it are its own
    strategy: str = ""
    cost: str = ""
    statements: int = 0  # statements the dry run's symbolic execution ran in it (spelled moves), callees included
    refusals: list[Refusal] = field(default_factory=list)
    source: object = field(default=None, repr=False)  # a function's FunctionInfo, a phase's PhaseDef

    @property
    def lowers(self) -> bool:
        return not self.refusals

    @property
    def origin(self) -> ast.Origin | None:
        """For a function the lowering made (a flood's search), what the designer wrote that it stands for."""
        defn = getattr(self.source, "defn", None)
        return defn.origin if isinstance(defn, ast.FunctionDef) else None

    @property
    def written(self) -> str:
        """The part's name as the designer wrote it: for a function the lowering made, the function it was made
        from (`HasPath`, never `HasPathFlood1`)."""
        origin = self.origin
        owner, dot, _ = self.name.rpartition(".")
        return self.name if origin is None else f"{owner}{dot}{origin.function}"

    @property
    def shown(self) -> str:
        """The part as the dry run's lines and messages name it: a function the lowering made as what it was made
        from (`HasPath, its flood of the list 'reached' at line 166`), which the designer can find in the file."""
        origin = self.origin
        owner, dot, _ = self.name.rpartition(".")
        return self.name if origin is None else f"{owner}{dot}{origin}"

    def to_json(self) -> dict:
        made = {"made": self.origin.what} if self.origin is not None else {}
        return {"kind": self.kind, "name": self.written, **made, "file": self.span.file, "line": self.span.line,
                "column": self.span.col, "lowers": self.lowers, "strategy": self.strategy, "cost": self.cost,
                "refusals": [r.to_json() for r in self.refusals]}


@dataclass
class Assessment:
    """The dry run's answer for one game: the strategy for the moves, every part, every refusal."""

    moves: str = ""  # "compiled" | "spelled": how the moves are lowered
    why: str = ""  # why that strategy
    parts: list[Part] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)  # all of them, in the order found
    notes: list[str] = field(default_factory=list)  # what the dry run tried and left, what it did not check
    figures: dict[str, object] = field(default_factory=dict)
    estimated: bool = False  # the verdict extrapolates a symbolic execution stopped at the dry run's budget
    # the estimate is only a lower bound, and within the lowering's budgets: the dry run cannot say
    undecided: bool = False
    # refused spelled out for one control state's work (execute.StateTooCostly): `auto` then tries them compiled
    costly: bool = False

    @property
    def lowers(self) -> bool:
        return not self.refusals and not self.undecided

    @property
    def verdict(self) -> str:
        """"lowers", "refused" or "undecided"."""
        return "refused" if self.refusals else "undecided" if self.undecided else "lowers"

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "lowers": self.lowers, "estimated": self.estimated, "moves": self.moves,
                "why": self.why,
                "figures": self.figures, "notes": self.notes, "parts": [p.to_json() for p in self.parts],
                "refusals": [r.to_json() for r in self.refusals]}


# ---------------------------------------------------------------------- hints
HINTS: list[tuple[tuple[str, ...], str]] = [
    (("not compiled (--moves spelled or auto)",), "lower the game with its moves spelled out: --moves spelled, or "
                                                  "auto, the default"),
    (("as the flow enters", "roll() in a phase is lowered only"),
     "dice thrown in a phase lower as random's move at each entry of the phase (language decision 117): every way "
     "through the phase throws all its dice, a fixed number of them with literal sides (at most 1,000 ways), the "
     "phase asks no input, and the game has no private attributes and deals from its decks in setup only"),
    (("whose flow passes in the same move to phase",),
     "make the choice an action of the phase the throw passes to, required in it with turn.phase.active(), rather "
     "than that phase's input: the move that throws then ends in that phase, which waits for the action, the "
     "player's next move (language decision 117)"),
    (("reshuffle() of the discards",), "deal from the deck in play only (setup dealing nothing from it), make one "
                                       "such deck, and discard onto its discard_stack only: random then deals the "
                                       "discards a reshuffle takes back"),
    (("chance move", "shuffle"), "shuffle and deal in setup only, or shuffle a deck made shuffled (its default "
                                 "block ends with shuffle()) and after setup only pop it: the lowering writes dice "
                                 "(roll()) and such deals as GDL-II's random, not a shuffle of anything else during "
                                 "play"),
    (("discard pile",), "do not read a pile that discard() fills after setup; count what is in it with a number "
                        "attribute instead"),
    (("on a local list",),
     "a local list changes by add() only: read it by index rather than taking items out (`T x = held[k];`), or "
     "keep it in a list attribute of objects; a search's stack or queue (`todo`) lowers where the walk has one "
     "start (`seen.add(s); todo.add(s);`, a call per start), pushes a neighbour only when first seen (`if (C && "
     "!seen.contains(n)) { seen.add(n); todo.add(n); }`) and sets a flag for what it finds instead of returning "
     "from the walk"),
    (("on a list stored in an attribute", "collections made with", "holds a collection",
      "lists or tables cannot change"),
     "keep lists fixed after setup: a list attribute of objects changed by add/remove, or a number or an object "
     "attribute per slot, lowers"),
    (("may hold more than",), "bound how long the list grows by the game: let the moves that add to it be "
                              "counted by a number the game's end bounds, or remove as many as they add"),
    (("could not be bounded", "numbers grow past", "range of", "finite range"),
     "bound the number by the game: end the game where it steps (`if (Moves >= 200) { winner ...; }`), and guard a "
     "decrement with a `require` or an `if` that makes it safe"),
    (("made after setup",), "make the objects in setup, or make objects of a plain class of local visibility, with "
                            "attributes of plain values"),
    (("while it grows it",),
     "write the search as a recursive function over the board, with a bound on its length (is there a chain of "
     "neighbours from one to the other? Lines of Action's `Linked`), or as a fixed number of passes over the cells; "
     "see \"Search a chain recursively\"; or keep the walk, with no return in it, and read its list after it only "
     "by `L.contains(x)` or in a loop over it that returns true or false (language decision 114)"),
    (("statements on symbolic paths", "parts on symbolic paths", "ways through", "the lowering would run",
      "the lowering would build"),
     "keep functions that walk or count the board pure (no writes, no turn.pass): they become rules with "
     "variables; compute what to change first (`k = FlipsIn(...)`), then write it in a loop of its own; "
     "--functions-as-relations and --moves compiled are the other strategies to try"),
    (("loop that reads", "passes write", "loop in code that changes", "loop after the move", "loop that writes"),
     "a loop that writes must not read what it writes (or be a counted loop of at most 16 passes, or a `while` "
     "that its inputs and the board bound to as many), and must write "
     "one value to every object it touches: compute first, then write in a loop of its own"),
    (("never ends the game", "winner"), "end the game with `winner` in an action or a phase: GDL needs terminal "
                                        "states and goals"),
    (("actions called from code",), "call a function that holds the action's effect instead of the action"),
    (("inputs of phase",), "move the phase's inputs and effect into an action of a class each player owns, "
                           "its filter testing the phase"),
    (("inputs",), "give actions inputs the mover picks, of a class, player or bool type"),
    (("runs more than", "never ends"), "bound the loop by the board or a constant known after setup"),
    (("cannot be compiled",), "write the construct as the compiled subset takes it (docs/lowering.md, \"Moves "
                              "compiled once\"), or let --moves auto spell the moves out"),
]


def hint_for(reason: str) -> str:
    """How to rewrite what `reason` refuses, with the section of the docs that says more."""
    low = reason.lower()
    for keys, hint in HINTS:
        if any(k in low for k in keys):
            return f"{hint} ({DOCS})"
    return f"see {DOCS}"


# ---------------------------------------------------------------------- the parts of a game
def game_parts(program, universe: Universe) -> list[Part]:
    """Every action (those a player chooses and those answering events), phase and turn default of the game,
    and every function the code after setup calls, in source order within each kind."""
    choice = {c.name for c in program.builtins.player_choice.ancestors()}
    parts: list[Part] = []
    seen: set[int] = set()
    for info in program.classes:
        for a in info.actions.values():
            if id(a) in seen or info.builtin:
                continue
            seen.add(id(a))
            chosen = any(t.event in choice for t in a.triggers)
            part = Part("action", f"{info.name}.{a.name}", a.name_span, a.span)
            part.strategy = "" if chosen else "run where its event is thrown"
            ways, holders = action_ways(a, universe), _holders(info, universe)
            part.cost = (f"{ways:,} way{'s' * (ways != 1)} to fill its inputs, {holders} "
                         f"object{'s' * (holders != 1)}") if chosen else ""
            parts.append(part)
    for name, t in program.turns.items():
        for ph in t.defn.phases:
            part = Part("phase", f"{name}.{ph.name}", ph.name_span, ph.span, source=ph)
            if phase_move_input(ph) is not None:
                part.cost = f"{action_ways(phase_action(ph), universe):,} ways to fill its input"
            parts.append(part)
        if t.defn.default is not None:
            parts.append(Part("phase", f"{name}.default", t.defn.name_span, t.defn.default.span))
    code: list = [a for info in program.classes for a in info.actions.values()]
    code += [t.defn for t in program.turns.values()]
    called: dict[int, object] = {}
    for n in reachable(program, code):
        if isinstance(n, ast.Call):
            ct = program.types.get(id(n.callee))
            if isinstance(ct, CallableType) and ct.kind == "function":
                called.setdefault(id(ct.target.defn), ct.target)
    for fi in sorted(called.values(), key=lambda f: (f.defn.span.file, f.defn.span.line, f.defn.span.col)):
        name = f"{fi.owner.name}.{fi.name}" if fi.owner is not None else fi.name
        parts.append(Part("function", name, fi.defn.name_span, fi.defn.span, source=fi))
    return parts


def _holders(info, universe: Universe) -> int:
    return sum(1 for o in universe.objects if o.is_a(info))


def _size(s: Span) -> tuple:
    return (s.end_line - s.line, s.end_col - s.col)


def owner_of(span: Span | None, parts: list[Part]) -> Part | None:
    """The innermost part whose definition holds `span`."""
    if span is None:
        return None
    holding = [p for p in parts if p.body.holds(span)]
    return min(holding, key=lambda p: _size(p.body)) if holding else None


# ---------------------------------------------------------------------- the dry run
class _Budget(Exception):
    """The dry run's budget of statements or parts of conditions is spent (`_DryLowering.progress`)."""


@dataclass
class _PastSpelledBudget(Exception):
    """The whole run's parts of conditions passed `auto`'s budget for spelling the moves out (`lower.spelled_budget`)
    where the lowering reads it (every execute.PROGRESS_EVERY statements): there it compiles the moves."""

    steps: int
    parts: int
    budget: int


class _RangesBudget(Exception):
    """The dry run's budget of steps of the range search is spent (`_ranges_counted`); args[0], the steps it
    allowed."""


@contextmanager
def _ranges_counted(limits: Limits, work: Callable[[], int]) -> Iterator[None]:
    """Count the range search's steps (the checks it makes in the stage "lowering (ranges)") and raise
    _RangesBudget past RANGE_STEPS, or past RANGE_CHEAP_STEPS where the search's `work()` so far passed
    RANGE_CHEAP_WORK; whatever else is told of the checks (a test's hook) still is."""
    before = limits.on_check
    spent = 0

    def count(lim: Limits) -> None:
        nonlocal spent
        if before is not None:
            before(lim)
        if lim.stage == "lowering (ranges)":
            spent += 1
            if spent > RANGE_STEPS and (spent > RANGE_CHEAP_STEPS or work() > RANGE_CHEAP_WORK):
                raise _RangesBudget(spent - 1)
    limits.on_check = count
    try:
        yield
    finally:
        limits.on_check = before


class _Offered(list):
    """An input's candidates that record, while `Lowering.combos` walks them, which one it has reached: (index,
    how many) per input under way, outermost first, in `offers` (the dry run's measure of how far the legal
    moves are); once `stop()` says so, the walk ends early (the sampled run's legal moves are a first part)."""

    def __init__(self, items, offers: list, stop):
        super().__init__(items)
        self.offers = offers
        self.stop = stop

    def __add__(self, other):
        return _Offered(list(self) + list(other), self.offers, self.stop)

    def __iter__(self):
        level = len(self.offers)
        self.offers.append((0, len(self)))
        try:
            for i, c in enumerate(list.__iter__(self)):
                if self.stop():
                    return
                del self.offers[level + 1:]
                self.offers[level] = (i, len(self))
                yield c
        finally:
            del self.offers[level:]


@dataclass
class _State:
    """What the dry run saw of one control state: the statements and parts its legal moves and its moves took,
    how far the legal moves got (1: all of them), the legal moves found, and those whose effects ran."""

    start: int
    start_parts: int
    legal_steps: int = 0  # estimated for all the legal moves, from what each pair's walk got through
    legal_parts: int = 0
    legal_moves: float = 0.0  # estimated
    legal: int | None = None  # legal moves found (in the sampled run, a first part of each pair's)
    run: int = 0
    steps: int | None = None  # statements of its moves' effects and phases, once they are over
    parts: int | None = None
    effect_steps: int = 0  # of those, in the moves' own effects (the rest, the phases entered, is shared)
    effect_parts: int = 0
    costs: list[tuple[int, int]] = field(default_factory=list)  # statements and parts of each move's effect run
    # action -> the paths each of its sampled moves' effects ended in (`Lowering.effect_paths`), moves run whole only
    ends: dict[str, list[int]] = field(default_factory=dict)
    actions: dict[str, object] = field(default_factory=dict)  # action -> its definition (ast.ActionDef), where run
    action_moves: dict[str, float] = field(default_factory=dict)  # action -> its legal moves, estimated
    begun_parts: int = 0  # the parts of the moves' effects (`_DryLowering.effect_parts`) when its segment began

    def effects(self, moves: float) -> tuple[float, float]:
        """The statements and parts of the effects of `moves` moves: those run, and for each move not run the mean
        cost of the later half of those run (the earlier ones paid for what the later share)."""
        if not self.run or moves <= self.run:
            scale = moves / self.run if self.run else 0.0
            return self.effect_steps * scale, self.effect_parts * scale
        later = self.costs[len(self.costs) // 2:] or [(self.effect_steps / self.run, self.effect_parts / self.run)]
        steps = sum(s for s, _ in later) / len(later)
        parts = sum(p for _, p in later) / len(later)
        return self.effect_steps + (moves - self.run) * steps, self.effect_parts + (moves - self.run) * parts

    def ways(self) -> _Ways | None:
        """The paths all the moves' effects of the state would end in, which the lowering bounds by
        execute.PATH_LIMIT before it merges them (`Lowering._segment`): for each action with a sampled move run
        whole, the mean of its sampled moves' paths times its legal moves. A move's paths are its effect's
        branches on the state, which no earlier move's calls make cheaper (unlike its statements and parts), so
        the mean of the first moves is read as every move's. None where no move was run whole."""
        through = {name: sum(ends) / len(ends) * max(self.action_moves.get(name, 0.0), len(ends))
                   for name, ends in self.ends.items() if ends}
        if not through:
            return None
        name = max(through, key=lambda n: through[n])
        ends = self.ends[name]
        return _Ways(sum(through.values()), name, through[name], sum(ends) / len(ends),
                     max(self.action_moves.get(name, 0.0), len(ends)), self.actions.get(name))


@dataclass
class _Ways:
    """A control state's forecast of the paths its moves' effects end in (`_State.ways`): in all, and through
    the action most of them go through, a move of it on average, its moves, and its definition (None: random's)."""

    total: float
    action: str
    through: float
    per_move: float
    moves: float
    defn: object


class _DryLowering(Lowering):
    """The lowering's symbolic execution, watched: statements per part of the code (the executor reports each
    statement: `Executor.progress_every`), per control state and per move, and stopped at the dry run's budget.

    With `sample` (the sampled run), each control state's legal moves are found up to `legal_budget`
    statements (the rest extrapolated from how far the walk of the candidates got), and only the first `sample`
    moves of each action are run through the segment."""

    def __init__(self, program, universe, relations, slots, limits, steps: int, parts: int,
                 sample: int | None = None, legal_budget: int = 0, ordered: frozenset[str] = frozenset(),
                 compile_at: int | None = None):
        super().__init__(program, universe, relations, self.progress, slots, limits, ordered)
        self.compile_at = compile_at  # `auto`'s budget of parts for spelling the moves out (None: not spelled so)
        self.ex.progress_every = 1  # every statement counted where it runs
        self.budget_steps, self.budget_parts = steps, parts
        self.sample, self.legal_budget = sample, legal_budget
        self.sample_steps = SAMPLE_MORE * steps if sample is not None else 0  # the budget grows so for each state
        self.spent: dict[str, int] = {}  # name in the executor's `where` -> statements run in it
        self.effect_steps = self.effect_parts = 0  # statements and parts run in the moves' effects
        self.steps = self.parts = 0
        self.states: list[_State] = []
        self.last = 0
        self.offers: list[tuple[int, int]] = []  # (candidate reached, candidates) per input being walked
        # the (object, action) pairs whose legal moves the current state has begun: [action, statements and parts
        # at its start, how far its walk of the candidates got (1: whole)]
        self.pairs: list[list] = []
        self.truncated = False  # the sampled run stopped the current pair's walk at `legal_budget` statements

    def progress(self, steps: int, parts: int) -> None:
        where = set(self.ex.where)
        for name in where:  # inclusive: a function's callees count as its own
            self.spent[name] = self.spent.get(name, 0) + steps - self.last
        if any(name.startswith("action_") for name in where):
            self.effect_steps += steps - self.last
            self.effect_parts += parts - self.parts
        self.last = steps
        self.steps, self.parts = steps, parts
        st = self.states[-1] if self.states else None
        walking = st is not None and st.legal is None and self.pairs
        if (self.sample is not None and walking and not self.truncated and self.found >= self.sample
                and steps - self.pairs[-1][1] > self.legal_budget):
            self.pairs[-1][3], self.truncated = self.walked(), True
        # a control state under way runs on past the budget of parts to the lowering's own budget of one state
        # (execute.STATE_WORK), which then refuses it as the lowering would; the next state does not begin
        # (`legal_moves`)
        if self.compile_at is not None and parts > self.compile_at and not steps % execute.PROGRESS_EVERY:
            raise _PastSpelledBudget(steps, parts, self.compile_at)
        over_parts = parts > self.budget_parts and self.ex.state_start is None
        over_steps = steps > self.budget_steps + self.sample_steps * len(self.states) and not self.toward(steps, parts)
        if over_steps or over_parts:
            if walking and not self.truncated:
                self.pairs[-1][3] = self.walked()  # read now: unwinding the walk of the candidates forgets it
            raise _Budget()

    def toward(self, steps: int, parts: int) -> bool:
        """Whether the run goes on past its budget of statements toward `auto`'s budget of parts (`compile_at`):
        within TOWARD_COMPILED times its budget, while the parts at their rate so far would pass it within them. The
        rate only chooses how long to run: that the lowering compiles the moves is said where the parts pass."""
        most = TOWARD_COMPILED * self.budget_steps
        return self.compile_at is not None and steps <= most and parts * most > self.compile_at * steps

    def legal_moves(self, cs: tuple):
        if self.parts > self.budget_parts:  # the state before passed it (`progress`)
            raise _Budget()
        st = _State(self.ex.steps, self.parts)
        self.states.append(st)
        self.offers.clear()
        self.pairs, self.truncated = [], False
        legal = super().legal_moves(cs)
        st.legal = len(legal)
        self.legal_estimate(st, legal)
        return legal

    def legal_estimate(self, st: _State, legal: list) -> None:
        """The statements, parts and moves of the state's legal moves, each pair's scaled by how far its walk got."""
        found: dict[str, int] = {}
        for m, _ in legal or ():
            name = _action_name(m)  # random's (roll k): tgpl.lowering.chance
            found[name] = found.get(name, 0) + 1
        ends = [p[1:3] for p in self.pairs[1:]] + [[self.ex.steps, self.parts]]
        st.legal_steps = st.legal_parts = 0
        st.legal_moves = 0.0
        st.action_moves = {name: float(n) for name, n in found.items()}
        counted: set[str] = set()
        for (action, steps, parts, done), (end, end_parts) in zip(self.pairs, ends):
            done = max(done, 1e-6)
            st.legal_steps += (end - steps) / done
            st.legal_parts += (end_parts - parts) / done
            if action not in counted:
                counted.add(action)
                st.legal_moves += found.get(action, 0) / done
                st.action_moves[action] = found.get(action, 0) / done

    def segment(self, cs: tuple, legal):
        st = self.states[-1]
        if self.sample is not None:
            legal = _Sampled(legal, self, st)
        else:
            st.run = len(legal)
        begin, begin_parts = self.ex.steps, self.parts
        effects, effect_parts = self.effect_steps, self.effect_parts
        st.begun_parts = effect_parts
        paths = super().segment(cs, legal)
        st.steps, st.parts = self.ex.steps - begin, self.parts - begin_parts
        st.effect_steps, st.effect_parts = self.effect_steps - effects, self.effect_parts - effect_parts
        return paths

    def candidates(self, inp):
        return _Offered(super().candidates(inp), self.offers, lambda: self.truncated)

    def block_truth(self, body, base, obj, event, scope: dict, what: str):
        st = self.states[-1] if self.states else None
        if st is not None and st.legal is None and what.startswith(("require_", "trigger_")):
            action = what.split("_", 1)[1]  # a pair begins with its first require, or its trigger
            if not self.pairs or what.startswith("require_") or self.pairs[-1][0] != action or self._triggered:
                self.pairs.append([action, self.ex.steps, self.parts, 1.0])
                self.truncated, self.found = False, 0
            self._triggered = what.startswith("trigger_")
        return super().block_truth(body, base, obj, event, scope, what)

    _triggered = False  # the current pair's trigger was asked: the next require or trigger begins another pair
    found = 0  # legal moves the current pair's walk found: it is cut only once it has found `sample` of them

    def move(self, player, obj, action, combo, phase=None):
        self.found += 1
        return super().move(player, obj, action, combo, phase)

    def walked(self) -> float:
        """How far the walk of the current pair's candidates is, read in mixed radix from the candidate each input
        has reached; the way under way counted as done, so that a first candidate whose filter alone passes the
        budget (the first call of a function that later calls share) does not make the rest seem endless."""
        within, scale = 0.0, 1.0
        for index, size in self.offers:
            scale /= max(size, 1)
            within += index * scale
        return min(within + scale, 1.0) if self.offers else 1.0

    def sampled_run(self) -> None:
        """The control states reached by the sampled moves, each lowered as `Lowering.run` does it (the subset was
        checked before), without the ranges: a sample says nothing of them."""
        seen: set[tuple] = set()
        todo = [self.start]
        while todo:
            cs = todo.pop(0)
            if cs in seen:
                continue
            seen.add(cs)
            self.limits.check()
            with self.ex.one_state():  # the lowering's budget of one control state (execute.STATE_WORK)
                paths = self.segment(cs, self.legal_moves(cs))
            for p in paths:
                if p.status != "over" and p.control not in seen:
                    todo.append(p.control)


def assess(program, snapshot: dict, moves: str = "auto", relations: bool = False, limits: Limits | None = None,
           steps: int = STEPS, parts: int = PARTS) -> Assessment:
    """What lowers of the game after setup (`snapshot`), how, and what does not, with the lowering's `moves` and
    `relations` options, within `steps` statements and `parts` parts of conditions of symbolic execution.
    Raises LimitReached past `limits` (the command's)."""
    out = _assessed(program, snapshot, moves, relations, limits, steps, parts)
    unread = unread_attributes(program).note()
    if unread:  # no state, whatever the verdict (tgpl.lowering.unread, decision 109)
        out.notes.insert(0, unread)
    return out


def _assessed(program, snapshot: dict, moves: str, relations: bool, limits: Limits | None, steps: int,
              parts: int) -> Assessment:
    limits = limits if limits is not None else unlimited()
    universe = Universe.from_snapshot(snapshot)
    out = Assessment()
    out.parts = game_parts(program, universe)
    with limits.during("finding what cannot lower (the subset)"):
        outside = refused_up_front(program, universe)
        limits.check()
    try:
        strategy, why = moves_strategy(program, universe, moves)
    except NotLowerable as e:  # the strategy asked for does not apply (a die in a game whose moves are compiled)
        _refuse(out, e.span, e.reason)
        out.moves, out.why = moves, e.reason
        for p in out.parts:
            p.strategy = "refused" if p.refusals else "not tried (refused first)"
        return out
    out.moves, out.why = strategy, why
    if outside:  # the lowering refuses these before it runs any code
        for span, reason in outside:
            _refuse(out, span, reason)
        _describe(out, program, strategy, None)
        for p in out.parts:  # nothing else is tried: the lowering refuses these before it runs any code
            if p.lowers:
                p.strategy = "not tried (refused first)" + (f"; would be {p.strategy}" if p.kind == "action" else "")
        return out
    if strategy == "compiled":
        with limits.during("compiling the moves (dry run)"):
            if _compiled(out, program, universe, limits, moves):
                return out
        out.moves = "spelled"
    # as `lower`: spelled out first under `auto` (not after a compiled refusal), the moves are compiled once their
    # parts pass its budget
    spelled_first = moves == "auto" and strategy == "spelled" and may_compile(program, universe)
    compile_at = spelled_budget(program, universe) if spelled_first else None
    try:
        with limits.during("running the moves symbolically (dry run)"), fewer_collections():
            runaway = _spelled(out, program, snapshot, relations, limits, steps, parts, compile_at=compile_at)
    except _PastSpelledBudget as past:
        trial = Assessment(moves="compiled", parts=game_parts(program, universe),
                           why=f"spelled out, the moves built {past.parts:,} parts of conditions in "
                               f"{past.steps:,} statements, {_over_spelled_budget(past.budget)}: compiled there, "
                               "as `auto` does")
        with limits.during("compiling the moves (dry run)"):
            if _compiled(trial, program, universe, limits, moves):
                return trial
        out.why += f"; compiled once their parts passed {past.budget:,}, refused"
        out.notes.extend(trial.notes)  # why they could not be compiled
        # the lowering spells them out on, unbudgeted, and compiles them no more (`lower._CompiledPast.tried`): the
        # dry run's run again, without the budget, is that run (the symbolic execution depends on the game alone)
        with limits.during("running the moves symbolically (dry run)"), fewer_collections():
            _spelled(out, program, snapshot, relations, limits, steps, parts)
        return out
    if moves == "auto" and strategy == "spelled" and counts_the_board(program, universe, runaway):
        trial = Assessment(moves="compiled", parts=game_parts(program, universe),
                           why=f"spelled out, the range of '{runaway}' is not found, and it may count the board "
                               "(written in step with it): compiled, it is bounded by the board once proved")
        with limits.during("compiling the moves (dry run)"):
            if _compiled(trial, program, universe, limits, moves):
                trial.notes.append(f"not run by the dry run: the proof by induction that '{runaway}' counts the "
                                   "board; unproved, the game is refused as spelled out")
                return trial
    if moves == "auto" and strategy == "spelled":  # as `lower`: past its budget of parts, compiled if it can be
        built = max(out.figures.get(k, 0) for k in ("parts", "parts estimated", "parts run"))
        budget = spelled_budget(program, universe)
        costly = out.costly and may_compile(program, universe)
        if costly or isinstance(built, int) and built > budget:
            why = (f"spelled out, one control state built more than {execute.STATE_WORK:,} parts of conditions, "
                   "its budget" if costly else
                   f"spelled out, the moves would build {'at least ' * out.estimated}{built:,} parts "
                   f"of conditions, {_over_spelled_budget(budget)}")
            trial = Assessment(moves="compiled", parts=game_parts(program, universe), why=why)
            with limits.during("compiling the moves (dry run)"):
                if _compiled(trial, program, universe, limits, moves):
                    if costly:  # no estimate says the compiled moves are cheaper: only their relaxation can
                        trial.undecided = True
                        at = out.refusals[0].span if out.refusals else None
                        trial.notes.append(f"undecided: spelled out, refused for one control state's work (at {at});"
                                           " compiled, the counters' ranges are the relaxation's to find, "
                                           "which the dry run does not run: `tgpl to-gdl` decides")
                    return trial
    return out


def spelled_forecast(program, snapshot: dict, relations: bool = False,
                     limits: Limits | None = None) -> Refusal | None:
    """The refusal the dry run predicts for the moves spelled out (`_spelled`, within its budgets of statements
    and parts: seconds), or None where it predicts none (it lowers, or the estimate is undecided). `lower`'s
    `auto` asks it once the compiled moves are refused, before spelling them out unbudgeted: a predicted refusal
    is one past ESTIMATE_ERROR times the lowering's own budgets (STATE_ERROR times one state's), counted, so the
    answer is the machine's speed's no more than the lowering's."""
    limits = limits if limits is not None else unlimited()
    with limits.during("estimating the moves spelled out"), fewer_collections():
        # the sampled run first, from a fresh layout of the lists: where it predicts no refusal, the whole run
        # the dry run makes before it (which decides only whether the sample is asked at all, and may fit the
        # layout it starts from) is not run. Where the whole run fits another layout the two samples may differ:
        # the forecast then misses a refusal the lowering makes itself, later, and never makes one it would not
        ahead = _sampled(program, snapshot, relations, limits, STEPS, PARTS, ListLayout())
        first = Assessment(parts=game_parts(program, Universe.from_snapshot(snapshot)))
        _sample_estimate(first, program, ahead, 0, 0)
        predicted = next((r for r in first.refusals if r.predicted), None)
        if predicted is None or ahead.lw.ex.steps > STEPS:
            # the whole run runs every move the sample ran, and more: past STEPS within them, it stops at its budget
            # and takes this very sample's estimate, or meets a refusal first, which the lowering meets too: either
            # way the game is refused (Jungle's whole run: 1.9 million parts more, for the same estimate)
            return predicted
        out = Assessment(parts=game_parts(program, Universe.from_snapshot(snapshot)))
        _spelled(out, program, snapshot, relations, limits, STEPS, PARTS, ahead)
    return next((r for r in out.refusals if r.predicted), None)


def _refuse(out: Assessment, span: Span | None, reason: str, predicted: bool = False) -> None:
    r = Refusal(span, reason, hint_for(reason), predicted)
    out.refusals.append(r)
    part = owner_of(span, out.parts)
    if part is not None:
        part.refusals.append(r)


def _compiled(out: Assessment, program, universe: Universe, limits: Limits, moves: str) -> bool:
    """The segments compiled once (what `compiled.CompiledGame.lowered` does before its relaxation), then the
    counters' ranges searched as the lowering searches them, up to the dry run's bound (`dry_ranges`). True when
    the answer is final: they compile, or `--moves compiled` refuses what they cannot take; False when `auto`
    falls back to spelling the moves out."""
    game = CompiledGame(program, universe, frozenset(), None, {}, limits)
    try:
        game.compile()
        limits.check()
        if not any(c.over is not None or c.checks for c in game.final) and universe.result is None:
            raise Unsupported("no move ever ends the game with a winner")
        probes = game.probes()
        game.sc.collapse(game.final, numeric=True)
        made = len(game.sc.hf.rules) + len(game.sc.view_rules) + len(game.legal)
        if made > SEGMENT_RULES:
            raise TooManySegments(made)
        _follows_results(game, probes, set(), program, universe, limits)
    except Undefer as e:
        made = None  # a check left to the next decision that must run where it is: compile_game tries again
        refused = _undeferred_follows(e.call, program, universe, limits)
        if refused is not None:
            return _compiled_refused(out, program, game, moves, refused)
    except Unsupported as e:
        return _compiled_refused(out, program, game, moves, e)
    ranged = None  # no number changes: no range to search, nothing there to refuse
    try:
        if game.numeric_attrs:
            ranged = compiled_ranges(program, universe, limits)
    except Unsupported as e:  # the lowering refuses the counters' ranges (as `Undefer`: none escapes compile_game)
        return _compiled_refused(out, program, game, moves, e)
    except RangesPastBound as e:
        ranged = None
        out.undecided = True
        out.notes.append(f"undecided: the counters' ranges were searched up to {e.bound} (the lowering searches them "
                         f"up to {horn.BOUND}): some pass it, none proven to grow without end; `tgpl to-gdl` decides")
    out.figures.update({"control states": len(game.phases), "ways through the segments": len(game.final)})
    if made is not None:
        out.figures["segment rules"] = made
    if ranged is not None:
        out.figures["counters' ranges searched up to"] = ranged.bound
    out.notes.append("not run by the dry run: the relaxation by clingo that finds the moves that can be legal, and "
                     "the check of the rules against GDL's restrictions")
    if ranged is not None and ranged.counted:  # the lowering proves these on its rules; unproved, it refuses
        out.undecided = True
        said = ", ".join(f"{c.holder}.{c.counter}" for _, c in sorted(ranged.counted.items()))
        out.notes.append(f"undecided: the counters {said} are bounded only where they count the board, which the "
                         "lowering proves by induction on the compiled rules and the dry run does not; `tgpl to-gdl` "
                         "decides")
    counts = game.countable(set(game.numeric_attrs) - set(game.saturable())) if ranged is None else {}
    if counts:  # the lowering proves them only where the relaxation finds them unbounded: unknown here
        said = ", ".join(f"{c.holder}.{c.counter} ({len(c.objects)} '{c.field}')" for _, c in sorted(counts.items()))
        out.notes.append(f"may count the board: {said}; where the relaxation cannot bound it, the lowering proves "
                         "it on the compiled rules, each write first, then by induction, a proof the dry run does "
                         f"not run (the induction tried only where its step grounds to at most {STEP_ATOMS:,} atoms)")
    _describe(out, program, "compiled", game)
    return True


def _compiled_refused(out: Assessment, program, game: CompiledGame, moves: str, e: Unsupported) -> bool:
    """The compiled moves refused (`e`): said so where they were asked for (True: the answer is final), else
    noted, and `auto` falls back to spelling the moves out (False)."""
    if moves == "compiled":
        _refuse(out, e.span, f"the moves cannot be compiled: {e}")
        _describe(out, program, "compiled", game)
        return True
    where = f" at {e.span}" if e.span is not None else ""
    out.notes.append(f"the moves cannot be compiled ({e}{where}): they are spelled out instead")
    out.why += f"; compiled, refused: {e}"
    return False


def _undeferred_follows(call: int, program, universe: Universe, limits: Limits) -> UnfollowedResult | None:
    """`_follows_results`'s refusal of the games `compile_game` makes after the first, whose compilation left
    check `call` to the next decision where it must run (Undefer); None where it has none, or where those games
    are refused otherwise (their compilation is `tgpl to-gdl`'s to run)."""
    try:
        _follows_results(None, [], {call}, program, universe, limits)
    except UnfollowedResult as e:
        return e
    except (Undefer, Unsupported):
        pass
    return None


def _follows_results(game: CompiledGame | None, probes: list, kept: set[int] | None, program, universe: Universe,
                     limits: Limits) -> None:
    """Raises Unsupported, located, where the lowering's counters' relaxation would be left with a test of a
    compiled function's result that reads counters (tgpl.lowering.counted_results), asked of the rules it would
    ground, in the games `compile_game` makes: `game` (its segments collapsed, `probes` taken before; None: to be
    made with the checks `kept` where they run), made again with each check that cannot be left to the next
    decision where it runs (Undefer), and, where checks are left to the next decision in a game with counters,
    the same game with every check where it runs (`kept` None), whose relaxation finds the counters' ranges
    (NeedRanges)."""
    while True:
        try:
            if game is None:
                game = CompiledGame(program, universe, None if kept is None else frozenset(kept), None, {}, limits)
                game.compile()
                probes = game.probes()
                game.sc.collapse(game.final, numeric=True)
            game.follows_results(probes, ranging=kept is None)  # as `counter_ranges` relaxes it
            if kept is None or not (game.numeric_attrs and game.check_targets()):
                return
            kept = None
        except Undefer as e:
            if kept is None:  # every check where it runs: none is left to the next decision
                raise
            kept.add(e.call)
        game = None


def _over_spelled_budget(budget: int) -> str:
    """How the dry run says the moves spelled out passed `auto`'s budget of parts (`lower.spelled_budget`)."""
    return f"more than {budget:,} ({PARTS_PER_WAY:,} a way to fill an action's inputs, at least {SPELLED_PARTS:,})"


def _range_work(lw: _DryLowering) -> int:
    """The work of `lw`'s range search so far (0 before it starts)."""
    return lw.range_spent.spent if lw.range_spent is not None else 0


def _ranges_undecided(lw: _DryLowering, steps: int) -> str:
    """The note of a dry run whose range search passed its budget of steps: the counters the search was ranging
    then, with the values found and where they are written (`segments.search_underway`), so that a designer can
    tell a number that grows without end (bound it) from one with many values to search (`tgpl to-gdl` does)."""
    note = (f"undecided: the symbolic execution ends within the budget, but the search of the numbers' ranges "
            f"passed the dry run's budget ({steps:,} steps)")
    underway = search_underway(lw)
    if underway:
        note += (f" while ranging {underway}; where one of these grows without end, test it before it changes or end "
                 "the game at a bound")
    return note + "; `tgpl to-gdl` searches them in full"


def _spelled(out: Assessment, program, snapshot: dict, relations: bool, limits: Limits, steps: int,
             parts: int, ahead: _Sample | None = None, compile_at: int | None = None) -> str | None:
    """The symbolic execution within the budget: its verdict; past the budget, a sampled run and its estimate.
    Returns the counter whose range was not found, where that refused the game (execute.NotLowerable.counter).
    `ahead`: a sampled run made already from a fresh layout (`spelled_forecast`), taken as this one's where the
    whole run leaves the layout fresh (the same run: each lowering starts a fresh table of formulas).
    `compile_at`: `auto`'s budget of parts, past which the run stops as the lowering's does (_PastSpelledBudget,
    raised: the caller dry-runs the compiled moves there)."""
    watched: list[_DryLowering] = []
    layout = ListLayout()  # as `lower.game_lowering`: run again with more slots or a list kept in order

    def make(u):
        lw = _DryLowering(program, u, relations, layout.slots, limits, steps, parts, ordered=layout.ordered,
                          compile_at=compile_at)
        watched.append(lw)
        return lw
    try:
        with _ranges_counted(limits, lambda: _range_work(watched[-1])):
            _, logic = layout.fitted(lambda _: lowered_logic(program, Universe.from_snapshot(snapshot), make))
    except _RangesBudget as stop:
        lw = watched[-1]
        out.undecided = True
        out.figures.update({"statements": lw.ex.steps, "parts": lw.parts})
        out.notes.append(_ranges_undecided(lw, stop.args[0]))
        _describe(out, program, "spelled", None, lw)
        return
    except NotLowerable as e:
        _refused_run(out, program, e, watched[-1] if watched else None)
        return e.counter
    except _Budget:
        fresh = ahead is not None and ahead.start == (layout.slots, layout.ordered)
        sample = ahead if fresh else _sampled(program, snapshot, relations, limits, steps, parts, layout)
        _sample_estimate(out, program, sample, watched[-1].ex.steps, watched[-1].parts)
        return
    lw = watched[-1]
    out.figures.update({"control states": len(logic.states), "moves": len(logic.moves),
                        "statements": lw.ex.steps, "parts": lw.parts,
                        "paths": sum(len(st.paths) for st in logic.states.values())})
    out.notes.append("not run by the dry run: writing the rules, making checks global and validating")
    _describe(out, program, "spelled", None, lw)


@dataclass
class _Sample:
    """A sampled run (`_sampled`): the run, whether it passed its own budget, the refusal it met (None: none), and
    the layout of the lists it started from (slots and lists kept in order: `ListLayout`)."""

    lw: _DryLowering
    stopped: bool
    refused: NotLowerable | None
    start: tuple[dict, frozenset]


def _sampled(program, snapshot: dict, relations: bool, limits: Limits, steps: int, parts: int,
             layout: ListLayout) -> _Sample:
    """The sampled run (SAMPLE moves of each action through each control state), from `layout`, which it fits."""
    start = (dict(layout.slots), layout.ordered)
    universe = Universe.from_snapshot(snapshot).with_pools({info: POOL_START for info in pool_classes(program)})
    sampled: list[_DryLowering] = []

    def sample(fit: ListLayout) -> None:
        lw = _DryLowering(program, universe, relations, fit.slots, limits, steps, parts, SAMPLE, steps // 8,
                          fit.ordered)
        lw.loop_cut = execute.LOOP_CUT_START  # as `lowered_logic` first cuts a loop the state bounds (Kalah)
        sampled.append(lw)
        lw.sampled_run()
    try:
        layout.fitted(sample)
        return _Sample(sampled[-1], False, None, start)
    except _Budget:
        return _Sample(sampled[-1], True, None, start)
    except NotLowerable as e:  # met by a sampled move: the whole run would meet it too
        return _Sample(sampled[-1], False, e, start)


def _sample_estimate(out: Assessment, program, sample: _Sample, first_steps: int, first_parts: int) -> None:
    """The sampled run's answer in the report: its refusal, or its estimate (`_estimate`), after a whole run that
    took `first_steps` statements and `first_parts` parts before its budget stopped it."""
    if sample.refused is not None:
        _refused_run(out, program, sample.refused, sample.lw)
        return
    _estimate(out, sample.lw, sample.stopped, first_steps)
    out.figures["parts run"] = first_parts + sample.lw.parts
    _describe(out, program, "spelled", None, sample.lw)


def _refused_run(out: Assessment, program, e: NotLowerable, lw: _DryLowering | None) -> None:
    """The symbolic execution's refusal `e` (its second errors too), met by the run `lw`, in the report: a
    refusal for one control state's work marked `costly`, which `auto` then tries compiled."""
    for span, reason in [(e.span, e.reason), *e.more]:
        _refuse(out, span, reason)
    out.costly = isinstance(e, StateTooCostly)
    _describe(out, program, "spelled", None, lw)


class _Sampled:
    """The legal moves of a control state as the sampled run takes them, in order: the first `lw.sample` of each
    action, and any other while the state's effects have taken fewer than `lw.sample_steps` statements (the
    sampled run's budget grows by as much for each control state it meets); as each is
    taken, what the one before took (`_State.costs`) and the moves taken (`_State.run`)."""

    def __init__(self, legal: list, lw: _DryLowering, st: _State):
        self.legal, self.lw, self.st = legal, lw, st

    def __len__(self) -> int:
        return len(self.legal)

    def __iter__(self):
        lw, st = self.lw, self.st
        taken: dict[int, int] = {}
        begin = lw.effect_steps
        last = None
        for m, f in self.legal:
            if taken.get(id(m.action), 0) >= lw.sample and lw.effect_steps - begin >= lw.sample_steps:
                continue
            if last is not None:
                self._ran(last)
            taken[id(m.action)] = taken.get(id(m.action), 0) + 1
            st.run += 1
            last = self._taken(m)
            yield m, f
        if last is not None:
            self._ran(last)

    def _ran(self, last: tuple) -> None:
        """What the move taken at `last` (statements, parts, paths so far, its action) took, now it is over."""
        lw, st = self.lw, self.st
        steps, parts, paths, action = last
        st.costs.append((lw.effect_steps - steps, lw.effect_parts - parts))
        st.ends.setdefault(action, []).append(len(lw.effect_paths) - paths)

    def _taken(self, m) -> tuple:
        """Where a move taken now begins: statements, parts and paths so far, its action (whose definition the
        state keeps, for the refusal's place)."""
        lw, name = self.lw, _action_name(m)
        if m.action is not None:
            self.st.actions.setdefault(name, m.action)
        return lw.effect_steps, lw.effect_parts, len(lw.effect_paths), name


def _action_name(m) -> str:
    """The name a move's action goes by in the dry run's counts (random's moves: ROLL)."""
    return m.action.name if m.action is not None else ROLL


def _refuse_state(out: Assessment, parts: float, busiest, name: str | None) -> None:
    """The predicted refusal of one control state estimated at `parts` parts of conditions, located at `busiest`
    (where most of its statements ran, called `name`), or at the game where none is known."""
    where = f" (most of its statements in {name})" if name is not None else ""
    _refuse(out, busiest.span if busiest is not None else None,
            f"spelled out move by move, the lowering would build about {int(parts):,} parts of conditions in one "
            f"control state{where}, more than the {execute.STATE_WORK:,} it allows one state: it would be refused "
            "after minutes", predicted=True)


def _estimate(out: Assessment, lw: _DryLowering, stopped: bool, first: int) -> None:
    """The statements and parts the whole symbolic execution would take, from the sampled run: for each control
    state, its legal moves' cost over the part of them found, and its sampled moves' cost times the moves it
    would have; past the lowering's budgets, a refusal at the code that ran most. `stopped`: the sampled run
    itself passed the budget (the estimate is then a lower bound); `first`: what the whole run ran first."""
    out.estimated = True
    total_steps = total_parts = 0.0
    exact = not stopped
    legal_total = 0.0
    busiest_state = 0.0  # the most parts of conditions one control state is estimated to build (execute.STATE_WORK)
    for st in lw.states:
        if st.legal is None:  # stopped while walking its legal moves: those so far, extrapolated
            lw.legal_estimate(st, [])
            exact = False
        total_steps += st.legal_steps
        total_parts += st.legal_parts
        if st.legal is None:
            continue
        moves = st.legal_moves
        legal_total += moves
        state_parts = st.legal_parts
        if st.steps is not None and st.run:  # the effects once a move; the phases after them once, where they meet
            effect_steps, effect_parts = st.effects(moves)
            total_steps += effect_steps + st.steps - st.effect_steps
            total_parts += effect_parts + st.parts - st.effect_parts
            state_parts += effect_parts + st.parts - st.effect_parts
        elif st.run:
            exact = False
        busiest_state = max(busiest_state, state_parts)
    total_steps = max(total_steps, first)
    state_parts = _stopped_state_parts(lw)
    forecasts = [w for st in lw.states if st.legal is not None for w in [st.ways()] if w is not None]
    most = max(forecasts, key=lambda w: w.total, default=None)  # the state whose moves end in the most paths
    if lw.ex.loop_cuts:  # the passes past the cut, which the lowering runs once it knows the ranges, are not counted
        exact = False
    out.figures.update({"control states met": len(lw.states), "statements run": first + lw.ex.steps,
                        "statements estimated": int(total_steps), "parts estimated": int(total_parts),
                        "moves estimated": int(legal_total)})
    if most is not None:  # the paths the moves' effects end in, in the state with the most (execute.PATH_LIMIT)
        out.figures["ways through one state's moves estimated"] = int(most.total)
    busiest = _busiest(lw, out.parts)
    over_steps = total_steps > ESTIMATE_ERROR * execute.STEP_LIMIT
    over_parts = total_parts > ESTIMATE_ERROR * execute.WORK_LIMIT
    near = not (over_steps or over_parts) and (total_steps > execute.STEP_LIMIT or total_parts > execute.WORK_LIMIT)
    about = "about " if exact else "at least "
    if over_steps or over_parts:
        span = busiest.span if busiest is not None else None
        where = f" (most of them in {busiest.shown})" if busiest is not None else ""
        what = (f"{about}{int(total_steps):,} statements" if over_steps else f"{about}{int(total_parts):,} parts of "
                                                                              "conditions")
        limit = f"{execute.STEP_LIMIT:,} statements" if over_steps else f"{execute.WORK_LIMIT:,} parts"
        why = _growing_why(out.parts, busiest)
        _refuse(out, span, f"spelled out move by move, the lowering would run {what}{where}, more than the "
                           f"{limit} it allows: it would be refused after minutes{why}", predicted=True)
    elif state_parts > ESTIMATE_ERROR * STOPPED_ERROR * execute.STATE_WORK:
        _refuse_state(out, state_parts, busiest, busiest.shown if busiest is not None else None)
    elif busiest_state > STATE_ERROR * execute.STATE_WORK:
        _refuse_state(out, busiest_state, busiest, busiest.name if busiest is not None else None)
    elif most is not None and most.total > ESTIMATE_ERROR * execute.PATH_LIMIT:
        span = most.defn.name_span if most.defn is not None else None
        _refuse(out, span, f"spelled out move by move, the moves' effects in one control state would end in about "
                           f"{int(most.total):,} ways ({int(most.through):,} through {most.action}: about "
                           f"{most.per_move:,.0f} a move of it, {int(most.moves):,} moves), more than the "
                           f"{execute.PATH_LIMIT:,} ways through the moves' effects the lowering allows one state: "
                           "it would be refused once it had run them", predicted=True)
    elif busiest_state > execute.STATE_WORK:
        # the game's budgets may hold while one state's does not: the lowering refuses such a state where it
        # passes STATE_WORK (past STATE_ERROR times it, refused above: jungle.tgpl's second state, 8.8 million)
        out.undecided = True
        out.notes.append(f"undecided: one control state's estimate, about {int(busiest_state):,} parts of conditions, "
                         f"passes the {execute.STATE_WORK:,} the lowering allows one state by less than "
                         f"{STATE_ERROR} times, the error a sample can make; `tgpl to-gdl --no-validate` gives "
                         "the lowering's own answer")
    elif most is not None and most.total > execute.PATH_LIMIT:
        out.undecided = True
        out.notes.append(f"undecided: one control state's moves' effects would end in about {int(most.total):,} "
                         f"ways ({int(most.through):,} through {most.action}), past the {execute.PATH_LIMIT:,} the "
                         f"lowering allows one state by less than {ESTIMATE_ERROR} times, the error a sample can make "
                         "(its moves may branch more or less than the others); `tgpl to-gdl --no-validate` gives "
                         "the lowering's own answer")
    elif near:
        out.undecided = True
        out.notes.append(f"undecided: the estimate passes the lowering's budgets by less than {ESTIMATE_ERROR} times, "
                         "the error a sample can make (moves after those sampled share the calls the first ones "
                         "made); `tgpl to-gdl --no-validate` gives the lowering's own answer")
    elif not exact:
        out.undecided = True
    elif lw.sums:
        # the totals' lists change length with the moves, and their lengths are counters the estimate does not
        # range: Treasure's search of them ran past 600 s where the dry run said "lowers" (now 79 s, 7.7 million
        # cases, segments.JOINT_WORK_LIMIT), more than the dry run's seconds
        out.undecided = True
        totals = ", ".join(sorted({f"{obj}.{lst}" for (obj, _), (lst, _, _) in lw.sums.items()}))
        out.notes.append(f"undecided: the lists {totals} keep running totals (decision 113), and with them the "
                         "search of the numbers' ranges, which the dry run does not run on an estimate, is what "
                         "decides whether the game lowers; `tgpl to-gdl --no-validate` gives the lowering's own "
                         "answer")
    out.notes.append(f"estimated: the symbolic execution passed the dry run's budget ({first:,} statements); a "
                     f"sampled run ({sum(st.run for st in lw.states):,} moves in {len(lw.states)} control state(s): "
                     f"at least {SAMPLE} of each action, more while cheap) gives {about}{int(total_steps):,} statements and {int(total_parts):,} parts of "
                     f"conditions in all, where the lowering allows {execute.STEP_LIMIT:,} and "
                     f"{execute.WORK_LIMIT:,}" + ("" if over_steps or over_parts else
                                                 "; the ranges of the numbers were not searched"))
    if out.undecided and not exact:
        where = f" (most of its statements in {busiest.shown})" if busiest is not None else ""
        why = _growing_why(out.parts, busiest)
        if why:
            why += " (docs/lowering.md, \"Search a chain recursively\")"
        out.notes.append(f"undecided: the sampled run passed the budget too{where}, before it had run a move of "
                         f"every control state it met{why}; `tgpl to-gdl --no-validate` gives the lowering's own "
                         "answer")


def _growing_why(parts: list[Part], busiest: Part | None) -> str:
    """Where the statements went, when a search that grows a list is why (`_growing_search`): the clause a
    refusal or an undecided verdict adds, naming the loop to rewrite (Havannah's `GroupOf`, reached from
    `BridgeOrFork`, where the sampled statements went); "" where there is none."""
    search = _growing_search(parts, busiest) if busiest is not None else None
    if search is None:
        return ""
    loop, name, function = search
    return (f"; {function} walks the list '{name}' while it grows it (at {loop.line}:{loop.col}), a search whose "
            "extent depends on the state, and each way the list can grow is a path of its own")


def _stopped_state_parts(lw: _DryLowering) -> float:
    """The parts of conditions of the control state whose moves the sampled run was running when its budget
    stopped it (0 where none was): its legal moves' estimate, and the effects run so far, the move under way
    counted as done, for each of its moves. Only a lower bound for the moves run, but the first moves pay for
    calls the later ones share: compared with STATE_WORK only past STOPPED_ERROR times ESTIMATE_ERROR of it."""
    st = lw.states[-1] if lw.states else None
    if st is None or st.legal is None or st.steps is not None or not st.run:
        return 0.0
    return st.legal_parts + (lw.effect_parts - st.begun_parts) * max(st.legal_moves, st.run) / st.run


def _growing_search(parts: list[Part], start: Part) -> tuple[Span, str, str] | None:
    """A loop that walks a local list while it grows it (a flood: Atari Go's group grown point by point), in
    `start` or a function it calls (by name, nearest first): the loop, the list and the function. Such a search
    is why the statements of a function outgrow the lowering's budget, and what to rewrite (`_too_many_ways`
    names it so where the lowering itself runs into it)."""
    functions = {p.name.rsplit(".", 1)[-1]: p for p in parts if p.kind == "function" and p.source is not None}
    seen, todo = set(), [start]
    while todo:
        part = todo.pop(0)
        if part.name in seen or part.source is None:
            continue
        seen.add(part.name)
        code = getattr(part.source, "defn", part.source)
        for n in ast.walk(code):
            if isinstance(n, (ast.While, ast.For)):
                grown = execute.grown_lists(n.body)
                if grown:
                    return n.span, grown[0], part.shown
            elif isinstance(n, ast.Call) and isinstance(n.callee, (ast.Name, ast.Member)):
                callee = functions.get(n.callee.name)
                if callee is not None:
                    todo.append(callee)
    return None


def _busiest(lw: _DryLowering, parts: list[Part]) -> Part | None:
    """The function (else the action or phase) where the sampled statements went most."""
    best: Part | None = None
    for p in parts:
        p.statements = _spent_in(lw, p)
    for kind in ("function", "action", "phase"):
        ranked = [p for p in parts if p.kind == kind and p.statements]
        if ranked:
            best = max(ranked, key=lambda p: p.statements)
            break
    return best


def _spent_in(lw: _DryLowering, p: Part) -> int:
    short = p.name.rsplit(".", 1)[-1]
    if p.kind == "function":
        return lw.spent.get(short, 0)
    if p.kind == "action":
        return sum(lw.spent.get(f"{k}_{short}", 0) for k in ("action", "require", "trigger"))
    return lw.spent.get(f"phase_{short}", 0)


def _describe(out: Assessment, program, strategy: str, game: CompiledGame | None,
              lw: _DryLowering | None = None) -> None:
    """Each part's strategy and cost, as far as the dry run got."""
    compiled_fns = set(game.hc.functions) if game is not None else set()
    failed = dict(game.hc.failed) if game is not None else {}
    costly = set(lw.ex.costly) if lw is not None else set()
    throws = {f"{turn}.{phase}": t for (turn, phase), t in phase_rolls(program)[0].items()}
    for p in out.parts:
        if lw is not None:
            p.statements = _spent_in(lw, p)
        if p.kind == "action":
            if p.cost and strategy == "compiled":
                p.strategy = "compiled once, its inputs as variables"
            elif p.cost:
                p.strategy = "spelled out, one move per way"
        elif p.kind == "phase" and isinstance(p.source, ast.PhaseDef) and phase_move_input(p.source) is not None:
            p.strategy = "its input a move of its own, spelled out, its effect run after it"
        elif p.kind == "phase" and p.name in throws:
            p.strategy = _thrown_on_entry(throws[p.name])
        elif p.kind == "phase":
            p.strategy = ("compiled into the segments of the moves that enter it" if strategy == "compiled"
                          else "run after every move that enters it")
        else:
            keys = [k for k in compiled_fns | set(failed) | costly if k.split("@")[0] == p.name]
            if strategy == "compiled":
                if any(k in compiled_fns for k in keys):
                    p.strategy = "rules with variables (compiled function)"
                elif any(k in failed for k in keys):
                    k = next(k for k in keys if k in failed)
                    p.strategy = f"inlined where called ({failed[k]})"
                else:
                    p.strategy = "inlined where called"
            elif any(k in costly for k in keys) or (lw is not None and lw.ex.compile_all):
                p.strategy = "rules with variables where its calls can be compiled, else run per call"
            else:
                p.strategy = "run once per call and state"
                if lw is not None and lw.ex.horn is not None:
                    p.strategy += f"; as rules with variables: {_as_rules(lw, p)}"
        if p.statements and strategy == "spelled":
            p.cost = (p.cost + "; " if p.cost else "") + f"{p.statements:,} statements run"
        if p.refusals:
            p.strategy = "refused"


def _thrown_on_entry(throw: Throw) -> str:
    """How a phase that throws dice lowers (decision 117): not run after the move that enters it, but a step of
    random's of its own at each entry, whose move gives all its dice, then its code with those faces."""
    n, ways = len(throw.dice), len(throw.faces)
    dice = "its die" if n == 1 else f"its {n} dice"
    return (f"random's move as the flow enters it, ({roll_name(n)} ...) throwing {dice} ({ways:,} way"
            f"{'s' * (ways != 1)}), then run with them, each entry a step of its own")


def _as_rules(lw: _DryLowering, p: Part) -> str:
    """Whether the function compiles to rules with variables (tgpl.lowering.horn, what `--functions-as-relations`
    and a costly function's calls get), or why not and where: the other strategy, and what it would take."""
    fi = p.source
    this = None
    if fi.owner is not None:
        this = next((o for o in lw.u.objects if o.is_a(fi.owner)), None)
        if this is None:
            return "no object to call it on"
    try:
        lw.ex.horn.compile(fi, this)
    except Unsupported as e:
        where = f" at {e.span.line}:{e.span.col}" if e.span is not None else ""
        return f"no ({e}{where})"
    return "yes"


__all__ = ["Assessment", "Part", "Refusal", "assess", "game_parts", "hint_for", "spelled_forecast", "STEPS", "PARTS"]
