"""Where the layers meet: a TGPL game run to its setup, then lowered to logic.

The lowering may not import the runtime (frontend -> runtime and frontend ->
lowering -> asp are separate lines), yet it starts from the objects setup
creates. This module, like the CLI above it, composes the two: it runs setup
on the runtime, takes a plain-data snapshot and hands it to the lowering.
"""

from __future__ import annotations

from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.asp.induction import invariant_holds, never_holds, same_game
from tgpl.asp.recursion import bind_recursion
from tgpl.asp.static_loops import static_loops
from tgpl.asp.estimate import MAX_GROUND
from tgpl.asp.validate import negation_cycles, validate
from tgpl.lowering.board_count import Holds
from tgpl.lowering.floods import with_floods
from tgpl.lowering.chance import SETUP_OUTCOMES, SetupRefused, setup_deal_calls, setup_roll_calls, setup_throw
from tgpl.lowering.ir import Program
from tgpl.lowering.percepts import with_percepts
from tgpl.lowering.repair import StagedRepair
from tgpl.limits import Limits, outside, unlimited
from tgpl.lowering.lower import LoweredGame, NotLowerable, fewer_collections, lower, lower_with_query
from tgpl.lowering.lowerable import Assessment, assess
from tgpl.verify.chance_machine import ChanceMachine, ChanceUnsupported, TooManyOutcomes
from tgpl.runtime.game import Game, State
from tgpl.runtime.snapshot import fields_snapshot, snapshot
from tgpl.setup_deals import setup_deals, undealt_snapshot


def lower_game(game: Game, seed: int = 0, query_function: str | None = None, relations: bool = False,
               global_checks: bool = True, progress=None, moves: str = "auto",
               limits: Limits | None = None) -> LoweredGame:
    """The game after setup (with `seed`, for setups that shuffle) as GDL; raises NotLowerable.

    With `query_function`, the name of a global bool function of the game without
    inputs, the GDL also holds `tgpl_query` in the states where it returns true.
    With `relations`, functions that read the state become rules with variables (tgpl.lowering.horn).
    With `global_checks`, checks anchored at what a move wrote are made global where clingo proves that
    it is the same game (tgpl.lowering.lower.globalize). `progress(statements, parts)` is told now
    and then how far the lowering has got. `limits` (the command's, tgpl.limits) is checked all along: past
    it, LimitReached says at which stage the lowering was.
    """
    limits = limits if limits is not None else unlimited()
    prove = same_game if global_checks else None

    # the loops that read nothing of the state once entered made tables (tgpl.asp.static_loops), then bind_recursion,
    # whose relaxation clingo cannot interrupt (Reversi 8x8's: 3.9 s), under `limits`; a game whose bound is past
    # --max-ground's default narrowed by it (tgpl.asp.narrow), so that check-gdl takes it. The relaxation is left
    # out of a compilation of the moves that is compiled again (tgpl.lowering.repair).
    repair = StagedRepair(lambda program: staged(limits, "lowering (static loops)", lambda: static_loops(program)),
                          lambda program: staged(limits, "lowering (recursion bounds)",
                                                 lambda: bind_recursion(program, narrowing=MAX_GROUND)),
                          negation_cycles)
    with limits.during("setting up"):
        start = start_snapshot(game, seed)
        limits.check()
    program, start = with_floods(game.program, start)  # floods over a local list as recursions (decision 114)
    if query_function is None:
        lowered = lower(program, start, relations, prove, progress, moves, gdl_errors, repair, limits,
                        Holds(invariant_holds, never_holds))
    else:
        lowered = lower_with_query(program, start, query_function, relations, prove, progress, repair, limits,
                                   moves, gdl_errors, Holds(invariant_holds, never_holds))
    return with_percepts(lowered, program)  # GDL-II: what each role sees, where the game has secrets


def encoded_state(lowered: LoweredGame, state: State, fields: dict[str, list[str]] | None) -> frozenset[str]:
    """A runtime state's GDL fluents as KIF texts (LoweredGame.state_fluents), from a snapshot of only the fields
    they read, `fields` = lowered.state_fields() (None: the whole snapshot). The one encoding of runtime states:
    the translation validation compares states through it, MCTS's batched leaf rollouts start from it."""
    return lowered.state_fluents(snapshot(state) if fields is None else fields_snapshot(state, fields))


def staged(limits: Limits, stage: str, work):
    """`work()` run `outside` under `limits` at `stage`: a stop while it runs, or at its first check (where the
    lowering before it passed the deadline), names the repair (it said "stopped while starting", the stage of no
    `during`: tests/data/designers/checkers6.tgpl under `--max-seconds 240` on a loaded machine)."""
    with limits.during(stage):
        return outside(work, limits)


def assess_game(game: Game, seed: int = 0, moves: str = "auto", relations: bool = False,
                limits: Limits | None = None, start: State | None = None) -> Assessment:
    """The dry run of `lower_game` (tgpl.lowering.lowerable): what lowers, how, and what does not, in seconds.
    Setup runs on the runtime as for the lowering (a runtime error in it is raised), unless `start`, the state
    after setup with `seed`, is given."""
    limits = limits if limits is not None else unlimited()
    with limits.during("setting up"):
        if start is None or setup_roll_calls(game.program) or setup_deal_calls(game.program):
            initial = start_snapshot(game, seed)
        else:
            initial = snapshot(start)
        limits.check()
    program, initial = with_floods(game.program, initial)
    return assess(program, initial, moves, relations, limits)


def start_snapshot(game: Game, seed: int = 0) -> dict:
    """The snapshot the lowering starts from: the state after setup with `seed`; where setup rolls dice, every
    way they fall, random's first move (tgpl.lowering.chance.setup_throw; raises NotLowerable at the first
    roll when they cannot be); where setup deals from a deck random deals from, the state before its deals and
    where each goes, random's first moves (tgpl.setup_deals, decision 112)."""
    calls = setup_roll_calls(game.program)
    if not calls:
        plan = setup_deals(game, seed)  # setup's deals as random's first moves (decision 112), where they fit
        undealt = undealt_snapshot(plan) if plan is not None else None
        return undealt if undealt is not None else snapshot(game.initial_state(seed))
    machine = ChanceMachine(game, seed, SETUP_OUTCOMES)
    try:
        runs = machine.setup_runs()
        return setup_throw([snapshot(state) for *_, state in runs], [tuple(b) for _, _, b, _ in runs],
                           calls[0].span)
    except TooManyOutcomes:
        raise NotLowerable(calls[0].span, f"setup's draws fall in more than {SETUP_OUTCOMES} ways (a shuffle in "
                                          "setup besides its dice?): too many for random's first move") from None
    except ChanceUnsupported as e:
        raise NotLowerable(calls[0].span, f"setup's dice are not lowerable: {e}") from None
    except SetupRefused as e:
        raise NotLowerable(e.span, e.reason) from None


def gdl_errors(program: Program) -> list[Diagnostic]:
    """What keeps a game with its moves compiled from being valid GDL (its structure: no bound on its size is
    checked). Played one state at a time, its base and input are checked in play, not by grounding its
    relaxed game (chess's does not fit in gigabytes)."""
    return [d for d in validate(program, max_ground=None, grounding="per-state") if d.is_error]


def written_gdl_errors(program: Program, grounding: str, path: str = "<gdl>") -> list[Diagnostic]:
    """What `tgpl to-gdl` checks before it writes a lowered game (an error is the lowering's own: exit 2, nothing
    written): every check `tgpl check-gdl --grounding G` makes with its defaults, so that what to-gdl writes
    check-gdl accepts. A game played one state at a time (compiled moves) has base and input checked as check-gdl
    checks them: by grounding its relaxed game where the game's bound is within check-gdl's --max-ground, else
    left to play (a warning: chess's relaxed game does not fit in gigabytes). A game grounded whole has them
    checked whatever its size, more than check-gdl does past its bound."""
    max_ground = MAX_GROUND if grounding == "per-state" else None
    with fewer_collections():  # the relaxed game's rules, built and split in Python (shut the box's: 70,000)
        return [d for d in validate(program, path, max_ground=max_ground, grounding=grounding) if d.is_error]


def not_lowerable(e: NotLowerable, main: str) -> list[Diagnostic]:
    """The diagnostics of a refusal: at each construct's location, or at the game file's start (a refusal added
    to another, `NotLowerable.more`, may have no location either)."""
    start = Span(main, 1, 1, 1, 1)
    return [Diagnostic(Severity.ERROR, s if s is not None else start, f"not lowerable: {reason}")
            for s, reason in [(e.span, e.reason), *e.more]]
