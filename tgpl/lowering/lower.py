"""Lowering a TGPL game to logic rules: the entry point.

    lowered = lower(program, snapshot)      # program checked, snapshot after setup
    lowered.program                         # the GDL rules (tgpl.lowering.ir)

The caller runs setup on the runtime and hands over its snapshot
(tgpl.runtime.snapshot) as plain data, so this layer never imports the runtime.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Diagnostic
from tgpl.lowering.chance import action_rolls, phase_rolls, setup_deal_calls, setup_roll_calls
from tgpl.lowering.board_count import Holds, board_counts, written_in_step
from tgpl.lowering.compiled import (all_moves, board_count_passes, changing_fields, compile_game, most_moves,
                                    play_code, writes_in_loops, TooManySegments)
from tgpl.lowering.compiled_query import queried_game
from tgpl.lowering.complements import merged_complements
from tgpl.lowering.unread import unread_attributes
from tgpl.lowering.independent import independent_parts
from tgpl.lowering.one_value import one_value
from tgpl.lowering.sparse_views import sparse_views
from tgpl.lowering.static_fold import static_fold
from tgpl.lowering.emit import LoweredGame, emit_gdl
from tgpl.lowering.horn import Unsupported
from tgpl.lowering.ir import Program
from tgpl.lowering.repair import Repair
from tgpl.lowering.execute import NotLowerable, StateTooCostly
from tgpl.lowering.layout import ListLayout
from tgpl.lowering.segments import GameLogic, Lowering, lowered_logic
from tgpl.lowering.subset import phase_inputs
from tgpl.lowering.universe import Universe
from tgpl.limits import LimitReached, Limits, unlimited

# (original, rewritten, state cells, rules of `tgpl_bad`) -> whether the rewritten program is the same game
# (tgpl.asp.induction.same_game; passed in, since the lowering does not import the layer below it)
Prover = Callable[[Program, Program, list, list], bool]
# (statements run, parts of conditions built) so far: for a display of a long lowering
Progress = Callable[[int, int], None]
Check = Callable[[Program], list[Diagnostic]]  # the errors that keep a program from being valid GDL


# Python's collector looks for cycles every 700 new container objects by default. The lowering makes
# millions of them that reference counting frees (paths, stacks, conditions), and keeps many more for
# the whole lowering (interned formulas, answers kept): each look walks them, and took a tenth of five in
# a row's lowering. Looking every 100,000 keeps the cycles it leaves as few (a few MB more at most).
COLLECT_EVERY = 100_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The garbage collector's first threshold raised to COLLECT_EVERY for the lowering, then restored."""
    before = gc.get_threshold()
    gc.set_threshold(max(COLLECT_EVERY, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def game_logic(program, snapshot: dict, relations: bool = False, progress: Progress | None = None,
               limits: Limits | None = None, range_work: int | None = None) -> GameLogic:
    """Moves, segments and ranges of the game (raises NotLowerable, and LimitReached past `limits`).

    With `relations`, pure functions that read the state are written once as rules
    with variables (tgpl.lowering.horn) rather than once per call. `range_work`: the range search's budget of
    work (segments.RangeWork; None: segments.RANGE_WORK).
    """
    return game_lowering(program, snapshot, relations, progress, limits, range_work)[1]


def game_lowering(program, snapshot: dict, relations: bool = False, progress: Progress | None = None,
                  limits: Limits | None = None, range_work: int | None = None) -> tuple[Lowering, GameLogic]:
    """The Lowering that found the game's logic, and that logic. Each class that code after setup makes
    objects of has a pool (`segments.lowered_logic`, which sizes it), and a list of values that is state has
    as many slots as a first run guessed; where its length's range passes them, the game is lowered again
    with more (`segments.MoreSlots`), from scratch, so the result depends on the program and setup alone; so
    is a list kept as a set that an `add` may give an item twice, kept in order (`execute.NotASet`): both
    `layout.ListLayout.fitted`."""
    return ListLayout().fitted(lambda layout: lowered_logic(
        program, Universe.from_snapshot(snapshot),
        lambda u: Lowering(program, u, relations, progress, layout.slots, limits, layout.ordered, range_work)))


MOVES = ("auto", "compiled", "spelled")
SPELLED_MOVES = 2_000
"""Ways to fill one action's inputs (the product of their candidates), or all the actions' together, past which
`auto` compiles the segments (tgpl.lowering.compiled) rather than spelling out every move: chess's Move has 4,096,
Promote 24,576; Checkers 6x6's Step and Jump 1,296 each, 2,592 together (spelled out, 3.3 million parts of
conditions, 2,571 a move, as five in a row's 2,376, but 26,013 rules and 108 s of CPU; compiled, 1,338 rules and
12 s; tests/data/designers/checkers6.tgpl)."""
WALKED_MOVES = 64
"""Ways to fill one action's inputs past which `auto` compiles the segments of a game whose play runs a `while`
loop or a recursive function (`walks_in_play`): spelled out, every move runs its walks from its own cell (a 15x15
five in a row that counts a line through the stone with two walks a direction, 225 moves: not done in 600 s;
compiled, 8 s and 97 rules). Connect Four's 42 drops with walks stay spelled, as before."""

COUNTED_CELLS = 16
"""Passes of a count in play (`compiled.board_count_passes`) from which `auto` compiles the segments of a game with
more than WALKED_MOVES ways to fill an action's inputs: spelled out, each move splits on every way the cells counted
can be filled (Nine Men's Morris counts a player's men over 24 points in a check run after every move, 576 slides:
not done in 600 s; compiled, 363 rules in seconds). The examples count over at most 12 passes, or are compiled."""


def lower(program, snapshot: dict, relations: bool = False, prove: Prover | None = None,
          progress: Progress | None = None, moves: str = "auto", check: Check | None = None,
          repair: Repair | None = None, limits: Limits | None = None, holds: Holds | None = None,
          range_work: int | None = None) -> LoweredGame:
    """The game as a GDL program (raises NotLowerable; LimitReached past `limits`, tgpl.limits).

    `moves`: "spelled", each move run on its own by the executor (tgpl.lowering.execute); "compiled", each
    action's segment compiled once with its inputs as variables (tgpl.lowering.compiled); "auto", compiled
    where an action, or all the actions together, have more than SPELLED_MOVES ways to fill their inputs and the
    game is within the compiled subset (`moves_strategy`), spelled otherwise; spelled out, compiled after all where they pass their budget
    (`spelled_budget`), or where a counter's range runs away and it may count the board (`counts_the_board`,
    with `holds`: compiled, the board bounds it once proved), the spelled-out refusal standing if compiling fails.

    With `prove`, checks anchored at what a move wrote are made global where `prove` shows the result
    is the same game (`globalize`). `progress(statements, parts)` is told now and then how far the
    symbolic execution has got (for a display: a game outside the subset may take minutes to refuse).
    `check(program)` says what breaks GDL's rules in the compiled moves (tgpl.asp.validate, which this layer may
    not import): the compiled subset's known gaps (a function's instances shared by calls whose demand waits on
    each other's results) give rules GDL forbids, and such a game is then spelled out (`auto`) or refused.
    `repair(program)` gives the program with what it can mend of GDL's restrictions mended, the same game
    (tgpl.asp.recursion: the recursion restriction), before it is checked; a StagedRepair (tgpl.lowering.repair)
    spares a compilation of the moves that is compiled again its costly stage. `holds` (board_count.Holds) proves
    that a counter counts the board in the compiled rules, each write of it on its own or by induction
    (tgpl.asp.induction): it is then bounded by the board (tgpl.lowering.board_count). `range_work`: the spelled-out
    range search's budget of work (segments.RangeWork; None: segments.RANGE_WORK).
    """
    limits = limits if limits is not None else unlimited()
    universe = Universe.from_snapshot(snapshot)

    def compiled_moves() -> LoweredGame:
        """The game with its moves compiled (raises Unsupported)."""
        return _compiled_moves(program, universe, check, repair, limits, holds)
    compiled = compiles(program, universe, moves)
    refused: Unsupported | None = None  # why the compiled moves were refused, where `auto` then spells them out
    if compiled:
        try:
            return compiled_moves()
        except Unsupported as e:
            refused = _compiled_refused(e, moves)
            _forecast_refusal(program, snapshot, relations, limits, e)
    budget = spelled_budget(program, universe) if moves == "auto" and not compiled else None
    if budget is not None:  # spelled out while it costs what its moves are worth; past that, compiled if it can
        attempt = _CompiledPast(budget, compiled_moves, progress)
        try:
            with fewer_collections(), _spelled_after(lambda: attempt.refused):
                logic = game_logic(program, snapshot, relations, attempt.told, limits, range_work)
                return repaired(tidy(globalize(emit_gdl(logic, limits=limits), prove, limits=limits), limits),
                                repair)
        except _Compiled as done:
            return done.lowered
        except NotLowerable as e:  # a refusal compiled moves may avoid: compiled, unless the budget tried it
            if attempt.tried or not _compiling_may_help(e, program, universe, holds):
                raise  # the refusal stands (with the compiled one, `_spelled_after`)
            try:
                return compiled_moves()
            except Unsupported as u:
                raise (_with_compiled_refusal(e, u) if isinstance(e, StateTooCostly) else e) from None
    with fewer_collections(), _spelled_after(lambda: refused):
        logic = game_logic(program, snapshot, relations, progress, limits, range_work)
        return repaired(tidy(globalize(emit_gdl(logic, limits=limits), prove, limits=limits), limits), repair)


def _compiled_moves(program, universe: Universe, check: Check | None, repair: Repair | None, limits: Limits,
                    holds: Holds | None, make: Callable | None = None) -> LoweredGame:
    """The game with its moves compiled (raises Unsupported; `make`: compile_game's, the query's), collected as
    seldom as spelled out (`fewer_collections`): its relaxations' atoms are decoded by the hundred thousand (Atari
    Go's bind_recursion: 620,000), and each young collection walks them (0.97x its lowering's CPU)."""
    with limits.during("lowering (compiled moves)"), fewer_collections():
        return compile_game(program, universe, check, lambda lw: compiled_tidy(lw, limits), repair, limits, make,
                            holds)


def _compiled_refused(e: Unsupported, moves: str) -> Unsupported:
    """`e`, why the compiled moves were refused, kept where `auto` then spells them out; under `--moves compiled`,
    the game refused (NotLowerable) at the construct."""
    if moves == "compiled":
        other = "; spell the moves out instead: --moves auto (the default) or spelled" \
            if isinstance(e, TooManySegments) else ""
        raise NotLowerable(e.span, f"the moves cannot be compiled: {e}{other}") from None
    return e


def _compiling_may_help(e: NotLowerable, program, universe: Universe, holds: Holds | None) -> bool:
    """Whether the moves compiled may lower a game their spelled-out run refused with `e`: past one control
    state's budget (StateTooCostly, met before the parts' budget, which progress checks only now and then), where
    the moves may be compiled at all; a counter whose range runs away, where it may count the board, which the
    compiled moves can prove with `holds`. Compiled and refused, the first keeps the compiled refusal as a second
    error (it says to try what was tried); the second's refusal stands alone."""
    if isinstance(e, StateTooCostly):
        return may_compile(program, universe)
    return holds is not None and counts_the_board(program, universe, e.counter)


def _forecast_refusal(program, snapshot: dict, relations: bool, limits: Limits, refused: Unsupported) -> None:
    """Raises NotLowerable where `auto`'s compiled moves were `refused` and the dry run's estimate of them spelled
    out (tgpl.lowering.lowerable.spelled_forecast, seconds of a sampled run) predicts that the lowering would refuse
    them too, after minutes (Halma on 5 x 5: 25 s of CPU to one control state's budget of parts): the compiled
    refusal, located with its rewrite, first, as `--moves compiled` says it, and the spelled-out estimate after it.
    Where the estimate predicts no refusal, or is undecided, the moves are spelled out as before (Kalah lowers so
    in 77 s of CPU). A stop past the limits while estimating says why the moves were not compiled, as one while
    spelling them out does (`_spelled_after`). Imported here: the dry run asks this module how `lower` chooses."""
    from tgpl.lowering.lowerable import spelled_forecast
    with _spelled_after(lambda: refused):
        predicted = spelled_forecast(program, snapshot, relations, limits)
    if predicted is None:
        return
    raise NotLowerable(refused.span, f"the moves cannot be compiled: {refused}",
                       [(predicted.span, f"{predicted.reason} (estimated from a sampled run; hint: {predicted.hint})")])


@contextmanager
def _spelled_after(why: Callable[[], Unsupported | None]) -> Iterator[None]:
    """The moves spelled out after their compiled lowering was `refused`: a stop past the limits there says why
    they were not compiled, the cause a designer can act on, where the stop names only the stage the time ran out
    in (Pente 9x9: its count of the stones, whose proof is too large compiled, refused in 23 s; spelled out, the
    default 600 s pass before the ranges are found). A refusal there gets the compiled refusal as a second error,
    located, as one after the spelled-out budget does: the spelled-out one alone says "try --moves compiled",
    which was tried (Hackenbush's flood seeded by `add`, tests/data/designers/hackenbush.tgpl). `why()` is the
    refusal, asked once the spelled-out moves stop (None: the moves were not compiled, or not yet)."""
    try:
        yield
    except NotLowerable as e:
        refused = why()
        if refused is not None:
            _with_compiled_refusal(e, refused)
        raise
    except LimitReached as stop:
        refused = why()
        if refused is not None:
            span = getattr(refused, "span", None)
            at = f" at {span.file}:{span.line}:{span.col}" if span is not None else ""
            stop.notes.append(f"the moves were being spelled out: compiled, they were refused{at}: {refused}")
        raise


def _with_compiled_refusal(e: NotLowerable, refused: Unsupported) -> NotLowerable:
    """`e`, a spelled-out refusal, with why the moves were not compiled as a second error: at the construct the
    compiled moves refused, or where it has no place, at the game's start (`pipeline.not_lowerable`), never at
    `e`'s own place, which is about something else."""
    e.more.append((refused.span, f"with the moves compiled instead: {refused}"))
    return e


PARTS_PER_WAY = 8_000
"""Parts of conditions the symbolic execution may build per way to fill an action's inputs (the most an action
has) before `auto` takes the moves for costlier spelled out than compiled (`spelled_budget`). What a spelled-out
move costs is the conditions on the state its code splits into cases: a count over the board in an end check
splits on every board (boardgen's 3x3 and 4x3 games: over 10,000 a way, 39 s to over 60 s spelled, 2 to 6 s and
380 to 450 rules compiled), where walks and captures split on a few cells (measured whole: five in a row 534,562
parts, 2,376 a way, spelled out in 10 s to 31 rules; Connect Four 58,736, 1,400 a way; Hex 41,473, 1,700 a way;
draughts about 500,000, 380 a way), which spelled out are smaller than compiled (five in a row: 31 rules
against 64)."""
SPELLED_PARTS = 100_000
"""The least budget of `spelled_budget`: a game this cheap is spelled out whatever its moves."""


def spelled_budget(program, universe: Universe) -> int:
    """The parts of conditions past which `auto` stops spelling out the moves and compiles them: the cost of
    spelling them out, measured as it runs, passing what compiling them is estimated to cost (PARTS_PER_WAY a
    way to fill the inputs of the action that has most). Where they cannot be compiled, they are spelled out
    from the start, unbudgeted."""
    return max(SPELLED_PARTS, PARTS_PER_WAY * max(1, most_moves(program, universe)))


class _Compiled(Exception):
    """The moves compiled once the spelled-out ones passed their budget (`_CompiledPast`): the game lowered."""

    def __init__(self, lowered: LoweredGame):
        super().__init__()
        self.lowered = lowered


@dataclass
class _CompiledPast:
    """The budgeted spelled-out moves' `progress` (`told`): past `budget` parts of conditions, the moves are compiled
    where the spelled-out run stands (`compile_moves`, raising Unsupported). Compiled, the game stops the run
    (`_Compiled`); refused (`refused`), the run goes on, unbudgeted, from where it is: the same run as one from the
    start (the symbolic execution depends on the game alone), without spelling out again what was spelled out."""

    budget: int
    compile_moves: Callable[[], LoweredGame]
    progress: Progress | None = None
    tried: bool = False
    refused: Unsupported | None = None

    def told(self, statements: int, parts: int) -> None:
        """`progress`, told as before; the compiled attempt, once, past the budget."""
        if self.progress is not None:
            self.progress(statements, parts)
        if parts <= self.budget or self.tried:
            return
        self.tried = True
        try:
            lowered = self.compile_moves()
        except Unsupported as e:
            self.refused = e
            return
        raise _Compiled(lowered)


def counts_the_board(program, universe: Universe, counter: str | None) -> bool:
    """Whether `counter`, an attribute whose range the spelled-out moves could not find, may be a count of the
    board (tgpl.lowering.board_count): its value after setup is the number of objects whose attribute holds the
    value counted, and every write of it is in step with writes of that attribute (`board_count.written_in_step`).
    Read from the source and the objects in milliseconds: `auto` then compiles the moves, which can bound it by
    the board once proved, where a counter that grows apart from the board (a score: tests/data/lowering/scores.tgpl)
    is refused at once, not after minutes of compiling."""
    if counter is None:
        return False
    try:
        fields = changing_fields(program, universe, unread_attributes(program).names)
    except Unsupported:
        return False
    count = board_counts(program, fields, {counter}).get(counter)
    return count is not None and written_in_step(program, count)


def moves_strategy(program, universe: Universe, moves: str = "auto") -> tuple[str, str]:
    """How `lower` lowers the moves, "compiled" or "spelled" (before a compiled attempt that fails falls back to
    spelling them out, under `auto`), and why: shared with the dry run (tgpl.lowering.lowerable), so that the two
    always choose alike."""
    if moves not in MOVES:
        raise ValueError(f"no way '{moves}' to lower moves; the ways are {', '.join(MOVES)}")
    throws = action_rolls(program)[0].values()
    rolls = [t.dice[0].call.span for t in throws]
    # an action's dice, no deal, no setup's dice: random's moves the compiled segments make too
    dice_only = not universe.throws and not universe.deals and not any(t.deals or t.entered for t in throws)
    if universe.throws:
        rolls.insert(0, setup_roll_calls(program)[0].span)
    if universe.deals:  # setup's deals, random's first moves (decision 112)
        rolls.insert(0, setup_deal_calls(program)[0].span)
    if rolls and moves != "spelled" and not dice_only:
        # random's deals and setup's dice are made by the spelled-out segments alone; an action's dice by the
        # compiled segments too (tgpl.lowering.compiled, `CompiledGame.throws`), chosen as any other move
        if moves == "compiled":
            raise NotLowerable(rolls[0], "a game whose deal or setup's die is random's move (GDL-II) "
                               "is lowered with its moves spelled out, not compiled (--moves spelled or auto)")
        return "spelled", "a deal or setup's die: GDL-II's random moves, spelled out"
    in_phases = phase_rolls(program)[0]
    if in_phases and moves != "spelled":  # random's move as the flow enters a phase: spelled-out segments alone
        if moves == "compiled":
            raise NotLowerable(next(iter(in_phases.values())).dice[0].call.span, "a game whose phase throws dice "
                               "(random's move as the flow enters it, GDL-II) is lowered with its moves spelled "
                               "out, not compiled (--moves spelled or auto)")
        return "spelled", "dice thrown in a phase: GDL-II's random moves as the flow enters it, spelled out"
    asked = [i[0].span for turn in program.turns.values() for i in map(phase_inputs, turn.defn.phases) if i]
    if asked and moves != "spelled":  # a phase's own input is a move the spelled-out segments alone make
        if moves == "compiled":
            raise NotLowerable(asked[0], "a game whose phase asks an input is lowered with its moves spelled out, "
                               "not compiled (--moves spelled or auto)")
        return "spelled", "a phase asks an input: its moves spelled out"
    if moves == "compiled":
        return "compiled", "--moves compiled"
    if moves == "spelled":
        return "spelled", "--moves spelled"
    most = most_moves(program, universe)
    if most > SPELLED_MOVES:
        return "compiled", f"an action has {most:,} ways to fill its inputs, more than {SPELLED_MOVES:,}"
    together = all_moves(program, universe)
    if together > SPELLED_MOVES:
        return "compiled", (f"the actions have {together:,} ways to fill their inputs together, more than "
                            f"{SPELLED_MOVES:,}")
    if writes_in_loops(program):
        return "compiled", "a loop writes the state"
    if most > WALKED_MOVES and walks_in_play(program):
        return "compiled", (f"an action has {most:,} ways to fill its inputs, more than {WALKED_MOVES:,}, and play "
                            "walks the board with while or recursion")
    counted = board_count_passes(program)
    if most > WALKED_MOVES and counted >= COUNTED_CELLS:
        return "compiled", (f"an action has {most:,} ways to fill its inputs, more than {WALKED_MOVES:,}, and play "
                            f"counts over {counted:,} passes")
    ways = f"{most:,} way{'s' * (most != 1)}"
    return "spelled", f"at most {ways} to fill an action's inputs, and no loop writes the state"


def may_compile(program, universe: Universe) -> bool:
    """Whether the moves may be compiled at all: not where random's moves (dice, deals) or a phase's input are
    moves that only the spelled-out segments make (`moves_strategy` refuses `--moves compiled` for those)."""
    try:
        moves_strategy(program, universe, "compiled")
    except NotLowerable:
        return False
    return True


def compiles(program, universe: Universe, moves: str) -> bool:
    """Whether `moves` ("auto", "compiled", "spelled") has the moves compiled for this game (see `lower`)."""
    return moves_strategy(program, universe, moves)[0] == "compiled"


def walks_in_play(program) -> bool:
    """Does code that runs during play (actions, phases, turn defaults, and the functions they call) hold a
    `while` loop or a recursive function: a walk whose steps depend on the state, which spelled out is run again
    for every move? A recursion is the same walk written as calls (Lines of Action's `Linked`, a chain of touching
    pieces, tests/data/designers/loa.tgpl: 625 moves spelled out, 55 s of CPU and 24,578 rules; compiled, 18 s and
    259 rules)."""
    code = list(play_code(program))
    return any(isinstance(n, ast.While) for n in code) or _recursion_in(program, code)


def _recursion_in(program, code: list) -> bool:
    """Does a function of `code` call itself, directly or through other functions (a cycle of the calls)?"""
    calls: dict[int, set[int]] = {}
    for defn in code:
        if isinstance(defn, ast.FunctionDef):
            calls[id(defn)] = {id(f) for f in _functions_called(program, defn)}
    state: dict[int, int] = {}  # 1 on the walk's stack, 2 done

    def cycles(f: int) -> bool:
        state[f] = 1
        for g in calls.get(f, ()):
            if state.get(g) == 1 or (g not in state and cycles(g)):
                return True
        state[f] = 2
        return False

    return any(f not in state and cycles(f) for f in calls)


def _functions_called(program, defn: ast.FunctionDef) -> Iterator[ast.FunctionDef]:
    """The functions `defn`'s body calls by name (as `reachable` finds them; overrides are not followed)."""
    for n in ast.walk(defn):
        if isinstance(n, ast.Call):
            ct = program.types.get(id(n.callee))
            if getattr(ct, "kind", None) == "function":
                yield ct.target.defn


def repaired(lowered: LoweredGame, repair: Repair | None) -> LoweredGame:
    """`lowered` with its program mended by `repair` (see `lower`), its figures brought up to date."""
    return lowered if repair is None else lowered.with_program(repair(lowered.program))


def compiled_tidy(lowered: LoweredGame, limits: Limits | None = None) -> LoweredGame:
    """A game with its moves compiled, finished: its views held for the objects a move changed only
    (tgpl.lowering.sparse_views: a fifth of a chess state's grounding was copying the board), the parts of a body
    that share no variable with the rest conditions of their own (tgpl.lowering.independent: Reversi's end phase
    compared every pair of disc counts once per control state), a cell read as "any value but these" said as "not
    these values" (tgpl.lowering.one_value: one instance, not one per other value), then `tidy`."""
    return tidy(lowered.with_program(independent_parts(one_value(sparse_views(lowered.program)))), limits)


def tidy(lowered: LoweredGame, limits: Limits | None = None) -> LoweredGame:
    """A lowered game finished: its static searches folded (tgpl.lowering.static_fold: the board scans a compiled
    game derives again in every state become tables computed here, under `limits`), then `without_unused`, which
    drops what the fold left unread, the rules that differ in one literal's sign made one first
    (tgpl.lowering.complements). Done once the proof that made checks global (which reads the emitter's
    relations) is over, before the repair of GDL's recursion restriction and the check of the rules, so the
    program validated and written is the folded one."""
    limits = limits if limits is not None else unlimited()
    with limits.during("lowering (static fold)"):
        folded = static_fold(lowered.program, limits)
    if folded is not lowered.program and fold_pays(lowered.program, folded):
        lowered = lowered.with_program(folded)
    merged = merged_complements(lowered.program)
    if merged is not lowered.program:
        lowered = lowered.with_program(merged)
    return without_unused(lowered)


FOLD_GROWTH = 2.5
"""How much larger (rules and facts, once what nothing reads is dropped) the folded game may be: `fold_pays`."""


def fold_pays(before: Program, after: Program) -> bool:
    """Whether the static fold pays: the game it leaves is at most FOLD_GROWTH times as large as before, rules
    and facts counted once what nothing reads is dropped. Its tables are facts an agent grounding a state
    grounds in every state. The project's reasoner bounds each state's grounding once it plays a game one state
    at a time, and that bound once scanned the tables in every state (Reversi 6x6 folded: 7.3 times slower a
    step); it now works them out once (tgpl.asp.estimate.QueryBounds), and every fold measured within the bound
    plays as fast or faster (docs/lowering.md, "Where it pays": the 4x4 flanking game of the tests, 2.15 times
    the size, the same speed). Past it, nothing was measured: the guard stays against tables much larger than
    the rules they replace."""
    return len(_live(after)) <= FOLD_GROWTH * len(_live(before))


ROOTS = frozenset({"legal", "next", "goal", "terminal", "role", "base", "input", "init", "sees"})


def without_unused(lowered: LoweredGame) -> LoweredGame:
    """The game without the rules of relations that nothing the game is made of reads: a condition named while
    emitting whose users all went (folded, merged, or a disjunction named only to test it), draughts' 80 such
    relations. They change nothing an agent derives, but it grounds them. Done last, once the proof that made
    checks global (which reads the emitter's relations) is over; `tgpl_` relations (the query) stay."""
    rules = _live(lowered.program)
    if len(rules) == len(lowered.program.rules):
        return lowered
    return lowered.with_program(Program(rules))


def _live(program: Program) -> tuple:
    """The rules of the relations that what the game is made of (ROOTS, `tgpl_`) reads, transitively."""
    uses: dict[str, set[str]] = {}
    for r in program.rules:
        uses.setdefault(r.head.relation, set()).update(a.relation for a, _ in r.body_atoms())
    todo = [name for name in uses if name in ROOTS or name.startswith("tgpl_")]
    live: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in live:
            live.add(name)
            todo.extend(uses.get(name, ()))
    if len(live) == len(uses):
        return program.rules
    return tuple(r for r in program.rules if r.head.relation in live)


def globalize(lowered: LoweredGame, prove: Prover | None, conditions: dict | None = None,
              limits: Limits | None = None) -> LoweredGame:
    """The game with its anchored checks made global, where `prove` shows that this is the same game.

    Connect Four's `MakesFour(c, r)` asks about the cell just filled: lowered as it is, a rule for every
    pair of a cell and a window of four through it (552 ground rules). Hand-written GDL asks whether
    any window is full (138), which is the same only because no window is full before a move, an
    invariant of the reachable states. Each candidate (emit.Emitter.global_candidates) is tried alone,
    with its invariant "no call holds before the move", and kept when clingo proves by induction that
    the rewritten program plays as the original one. Each proof is clingo's, which `limits` cannot interrupt:
    they are checked between the proofs.
    """
    if prove is None:
        return lowered
    limits = limits if limits is not None else unlimited()
    original = lowered.emitter
    cells = original.state_cells()
    chosen: frozenset[str] = frozenset()
    for fn in sorted(original.global_candidates()):
        with limits.during("lowering (global checks)"):
            rewritten = emit_gdl(original.logic, conditions, original.global_checks(chosen | {fn}), limits)
            limits.check()
            proven = prove(lowered.program, rewritten.program, cells, rewritten.emitter.invariant_rules(INVARIANT))
            limits.check()
        if proven:
            lowered, chosen = rewritten, chosen | {fn}
    if chosen:
        lowered.stats["checks made global"] = ", ".join(sorted(chosen))
    return lowered


INVARIANT = "tgpl_bad"


QUERY_RELATION = "tgpl_query"


def lower_with_query(program, snapshot: dict, function: str, relations: bool = False,
                     prove: Prover | None = None, progress: Progress | None = None,
                     repair: Repair | None = None, limits: Limits | None = None, moves: str = "auto",
                     check: Check | None = None, holds: Holds | None = None) -> LoweredGame:
    """The game as GDL plus `tgpl_query`, true in the states where the global bool function `function` returns true.

    `tgpl query` appends the user's expression to the game as such a function, so
    it is checked, typed and lowered like any other code (with the game's
    globals, boards and `player.active()` / `turn.phase.active()` in scope).
    The moves are compiled or spelled out as `lower` does them (`moves`, `check`): compiled, the query is one
    more relation of the compiled rules (tgpl.lowering.compiled_query); spelled, a formula over the state.
    """
    limits = limits if limits is not None else unlimited()
    universe = Universe.from_snapshot(snapshot)
    if compiles(program, universe, moves):
        try:
            return _compiled_moves(program, universe, check, repair, limits, holds, queried_game(program, function))
        except Unsupported as e:
            _compiled_refused(e, moves)
    with fewer_collections():
        lowering, logic = game_lowering(program, snapshot, relations, progress, limits)
        fi = next(f for f in program.functions if f.name == function)
        controls = dict.fromkeys([*logic.states, *(p.control for st in logic.states.values() for p in st.paths)])
        with limits.during("lowering (symbolic execution of the query)"):
            conditions = {QUERY_RELATION: lowering.state_condition(fi, controls)}
        return repaired(tidy(globalize(emit_gdl(logic, conditions, limits=limits), prove, conditions, limits), limits),
                        repair)


__all__ = ["LoweredGame", "NotLowerable", "QUERY_RELATION", "game_logic", "game_lowering", "lower", "lower_with_query",
           "moves_strategy"]
