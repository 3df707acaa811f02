"""Translation validation: a lowered game checked against the runtime before `tgpl to-gdl`/`to-asp` write it.

A wrong translation that exits 0 is the worst defect a compiler can have, so the
commands that write a lowered game first play it against the runtime, which is
the definition of what a TGPL game does. A GDL state is exactly a runtime
decision state (docs/lowering.md), so the two are compared state by state: the
runtime's state encoded as GDL fluents must be the reasoner's state, the
mover's legal moves must be the same (GDL moves mapped to the runtime's text,
every other role only `noop`), and so must terminal status and goals. The
state encoded is what the lowering keeps (its fluents, control and result):
runtime state that no code after setup can read, such as a discard pile's
contents (tgpl.lowering.subset refuses every read of one), has no fluent and is
not compared; every runtime state is still compared on its moves, terminal
status and goals.

    result = validate_translation(game, lowered, seed=0, steps=1000)
    result.ok, result.summary()       # "validated: bisimulation, 5,478 states"
    mismatch_diagnostics(result.mismatch, game, lowered, seed)   # located, for the CLI
    result.shortfall                  # too little coverage: what was needed, else None

What is compared is counted, never timed, so that the same game gives the same
plays and the same summary on every machine, however loaded. Two modes, in this
order:

- **bisimulation**, when the game is small: its game tree estimated at most
  TREE_BOUND nodes from SIZE_PLAYS seeded runtime plays (Knuth's estimator), or
  else, a tree up to RUNTIME_TREE_BOUND or plays that come back to a state, the
  runtime alone reaching at most RUNTIME_BOUND states breadth first (for a GDL played one state at a time,
  at most PER_STATE_BOUND states, whatever its tree; in a game where random moves, only where its runtime with
  chance nodes reaches at most CHANCE_STATE_BOUND states playing at most CHANCE_RUN_BOUND runs, each run a GDL
  successor). Both sides are explored together breadth first, a state of the product being a
  runtime state with the GDL state reached by the same moves, each compared as
  above. It is complete when the product has at most STATE_BOUND states; past
  that it gives up, and the states it did explore stay validated.
- **playouts**, otherwise: seeded random plays compared at every step, until at
  least `steps` states were compared. Each play goes to the end of the game or
  to its cut; the first cut is a tenth of `steps`, and it doubles after each
  play that reached it without the game ending, so that the plays come to cover
  the whole length of the game. Too little coverage is a failed validation
  (`shortfall`): no play reaching the end of a game that can end, or a time
  limit (`max_seconds`, an outer safety limit only) passed before the count.

With an ASP encoding (`tgpl to-asp`), up to ASP_REPLAYS of the plays are also
replayed on it (tgpl.asp.asp_trace, grounded once for one step, a solve per
move): legal moves, terminal status and goals at every step.

This module composes the runtime with the lowering and the ASP layer, which may
not import each other; it sits beside tgpl/pipeline.py for that reason. The
tests' differential playouts (tests/lowering/differential.py) use the same
comparison (`Differential`).
"""

from __future__ import annotations

import gc
import itertools
import random
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Iterator

from tgpl.frontend.outcomes import unscored
from tgpl.asp.asp_emit import AspEncoding
from tgpl.asp.asp_trace import AspTrace
from tgpl.asp.asp_trace import Step as AspStep
from tgpl.asp.kif import KifError, read_term
from tgpl.asp.reasoner import GdlError, GdlGame, GdlState, state_or_error
from tgpl.asp.solver import SolverError
from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.limits import Limits
from tgpl.lowering.chance import RANDOM, ROLL, action_rolls, dealt_decks, phase_rolls, roll_name
from tgpl.lowering.emit import LoweredGame
from tgpl.lowering.percepts import has_secrets
from tgpl.lowering.unread import unread_attributes
from tgpl.lowering.ir import Const, Func, Term
from tgpl.verify.chance_machine import ChanceMachine, ChanceUnsupported, TooManyOutcomes
from tgpl.setup_deals import setup_deals
from tgpl.runtime.dealing import dealing, dealt_draw, dealt_face, rosters
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, IllegalMove, State
from tgpl.pipeline import encoded_state
from tgpl.runtime.values import show
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import Info, explore

MIN_STEPS = 1000  # the fewest steps (states compared along the playouts) a validation may ask for, and the default
TREE_BOUND = 2_000_000  # a game tree estimated at most this large is bisimulated (Tris's: 549,946 nodes)
# ... and, in a game where random moves, whose runtime with chance nodes (every outcome of its draws, its dealt
# decks dealt at pop()) reaches at most this many states breadth first: the tree counts the players' moves only, and
# each chance node costs a GDL successor an outcome (tests/data/lowering/deal.tgpl: 29,130 states, bisimulated;
# examples/cards.tgpl dealt: more than 35,000, whose bisimulation took 130 s for 21,353 product states)
CHANCE_STATE_BOUND = 30_000
# ... and whose runtime plays at most this many runs doing so (ChanceMachine.runs: a move played once for each way its
# draws fall), each a GDL successor the bisimulation asks for: the states do not say what a chance node costs, a
# roll of two dice being 36 successors (tests/data/lowering/deal.tgpl: 24,226 runs, bisimulated in 23 s of CPU;
# tests/data/designers/shutbox.tgpl: 27,401 states but 182,027 runs, at 7 ms a successor of its GDL)
CHANCE_RUN_BOUND = 40_000
SIZE_PLAYS = 20  # the runtime plays the estimate of the game tree averages (Knuth's estimator)
CHAINED_THROWS = 1000  # random's steps in a row after one move past which a play is a difference: a chain of
# phases' throws that long is taken for one that never ends
SIZE_DEPTH = 1000  # a play longer than this makes the game too large to bisimulate
RUNTIME_BOUND = 1000  # ... else a game whose runtime alone reaches at most this many states is bisimulated
RUNTIME_TREE_BOUND = 10**12  # ... explored for that only when its game tree is estimated at most this large
PER_STATE_BOUND = 50  # ... at most this many, for a GDL played one state at a time (a grounding a state explored)
STATE_BOUND = 100_000  # the most product states the bisimulation explores
FIRST_CUT_SHARE = 10  # the first play is cut at this fraction of the steps asked for (then the cut doubles)
SHRINK_STEPS = 500  # after a mismatch in a playout, the most steps compared looking for a shorter one
ASP_REPLAYS = 20  # plays replayed on the ASP encoding
ASP_MAX_DEPTH = 100  # their first moves at most: one solve each
NOOP = Const("noop")
FIRST_BATCH = 8  # states the first batch of a batched playout asks the GDL for, to set the workers going at once
BATCH = 256  # ... then at most this many a worker (chess's validation: 2,500-2,700 steps in 10 s, 2,200-2,400 at 128)


# --------------------------------------------------------------- one state
@dataclass
class Difference:
    """How the runtime and the other side (the GDL reasoner, or the ASP encoding) differ in one state.

    fluents and legal: (only in the runtime, only on the other side), sorted;
    others: roles other than the mover whose moves are not just `noop`;
    terminal and goals: (runtime, other side) when they differ;
    error: the other side failed (a GDL error) or the runtime stopped with `runtime_error`.
    """

    fluents: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    legal: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    others: list[str] = field(default_factory=list)
    terminal: tuple[bool, bool] | None = None
    goals: tuple[list, list] | None = None
    error: str | None = None
    runtime_error: TGPLRuntimeError | None = None

    @property
    def empty(self) -> bool:
        return not (any(self.fluents) or any(self.legal) or self.others or self.terminal or self.goals
                    or self.error or self.runtime_error)

    def lines(self, other: str) -> list[str]:
        """What differs, one line each, naming the other side `other`."""
        out = []
        for side, items in (("the runtime", self.fluents[0]), (other, self.fluents[1])):
            if items:
                out.append(f"fluents only in {side}: {' '.join(items)}")
        for side, items in (("the runtime", self.legal[0]), (other, self.legal[1])):
            if items:
                out.append(f"legal moves only in {side}: {'; '.join(items)}")
        out += [f"{other}: {o}" for o in self.others]
        if self.terminal:
            out.append(f"terminal: {_yes(self.terminal[0])} in the runtime, {_yes(self.terminal[1])} in {other}")
        if self.goals:
            out.append(f"goals: {_goals(self.goals[0])} in the runtime, {_goals(self.goals[1])} in {other}")
        if self.runtime_error is not None:
            out.append(f"the runtime stops with an error: {self.runtime_error.render()}")
        if self.error:
            out.append(f"{other}: {self.error}")
        return out


def _yes(b: bool) -> str:
    return "yes" if b else "no"


def _goals(goals: list) -> str:
    return "[" + ", ".join("none" if g is None else str(g) for g in goals) + "]"


def runtime_goals(state: State) -> list[int | None]:
    """The runtime's goals as GDL has them: none at all for a ranking that names nobody (`winner {}`) among
    several players (tgpl.frontend.outcomes.unscored)."""
    if unscored(state.ranking, state.game.players):
        return [None] * state.game.players
    return state.goals


@dataclass
class Step:
    """What the runtime says of one state of a play: what a replay on the ASP encoding must match."""

    legal: list[str]  # the mover's legal moves, runtime texts, sorted
    mover: int | None
    terminal: bool
    goals: list | None


@dataclass
class Play:
    """One random play compared step by step.

    moves: the runtime's texts of the moves played; joints: the same as GDL joint
    moves; steps: what the runtime said of each state (one more than moves);
    mismatch: how the state after all `moves` differs, when it does.
    """

    moves: list[str] = field(default_factory=list)
    joints: list[tuple[Term, ...]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    ended: bool = False  # the play reached the end of the game (a terminal state)
    mismatch: Difference | None = None
    timed_out: bool = False  # a time limit stopped it before its cut or the end of the game


def reasoner_for(lowered: LoweredGame) -> GdlGame:
    """The GDL reasoner for a lowered game, grounding it as the lowering says (chess's compiled moves: one state
    at a time), else by its defaults."""
    return GdlGame(lowered.program, *lowered.grounding) if lowered.grounding else GdlGame(lowered.program)


class Differential:
    """A runtime game and its lowered GDL, played side by side and compared state by state."""

    def __init__(self, game: Game, lowered: LoweredGame, seed: int = 0, gdl: GdlGame | None = None):
        self.game = game
        self.lowered = lowered
        self.seed = seed
        self.gdl = gdl if gdl is not None else reasoner_for(lowered)
        self.roles = self.gdl.roles
        self.texts = lowered.move_texts  # KIF text of a move -> the runtime's text
        self._kifs = {text: kif for kif, text in self.texts.items()}  # the runtime's text of a move -> its KIF
        self._terms: dict[str, Term] = {}  # read when first played (`joint`): chess has 3,952 moves, 0.15 s to read
        self._symbols: dict[str, object] = {}  # a fluent's text -> its clingo symbol (fluent_symbols)
        self._fields = lowered.state_fields()  # what the encoding of a state reads (encoded)
        # attributes the lowering leaves out (tgpl.lowering.unread): runtime states that differ only in them are
        # one state here (`key`, and the machines' `unread`)
        self.unread = unread_attributes(game.program).names
        self.clock: Callable[[], float] = time.perf_counter  # what `until` readings are read on
        # GDL-II: the lowering's dice are moves of the chance role `random` (tgpl.lowering.chance)
        names = [str(r) for r in self.roles]
        self.chance = names.index(RANDOM) if RANDOM in names else None
        # its dice thrown after every move that may throw (idle_throws): in a game with secrets, and after a move
        # that may enter a phase that deals (decision 106)
        self.secrets = has_secrets(game.program) or any(t.entered for t in action_rolls(game.program)[0].values())
        self._chances: ChanceMachine | None = None
        # phases whose dice random throws as the flow enters them (tgpl.lowering.chance.phase_rolls): a move may be
        # followed by several of random's steps (a throw of 0 passing to the next throw), played one at a time
        # (`chained_throws`), the runtime then playing the move with the draws they gave
        self.phase_throws = bool(phase_rolls(game.program)[0])
        # the decks the lowering deals from at pop(), random's move, whose shuffles change nothing: the runtime
        # compared deals them too (a game that only shuffles such a deck after setup, and never pops it, as well)
        self.deals = dealt_decks(game.program)[0].classes
        # setup's deals, random's first moves where the lowering deals them (tgpl.setup_deals, decision 112)
        self.setup_plan = setup_deals(game, seed) if lowered.setup_deals() else None

    @cached_property
    def initial(self) -> State:
        """The runtime's initial state, made once: states are immutable, and chess's setup takes 30 ms."""
        return self.dealt(self.game.initial_state(self.seed))

    def dealt(self, state: State) -> State:
        """`state`, its decks dealt at pop() where the lowering deals from them (tgpl.runtime.dealing)."""
        return dealing(state, self.deals) if self.deals else state

    def start(self) -> tuple[State, GdlState]:
        return self.initial, self.gdl.initial_state()

    @cached_property
    def setup_outcomes(self) -> list[tuple[Term, State]] | None:
        """Where the GDL starts with random to move (setup's dice, tgpl.lowering.chance.setup_throw): the
        runtime's state after setup for each way its draws fall, with random's move `(roll k)` for the k-th
        (in tgpl.verify.chance_machine's order, as the lowering numbers them); None where it does not, and where
        random's first moves are setup's deals (`setup_plan`, decision 112), played before: Treasure's fourteen
        cards, shuffled, were enumerated here as 14! runs of setup, and passed TooManyOutcomes (a traceback)."""
        if self.chance is None or self.setup_plan is not None:
            return None
        try:
            g = self.gdl.initial_state()
        except GdlError:
            return None  # compared, and reported, as the initial state
        if not self.random_moves(g):
            return None
        runs = ChanceMachine(self.game, self.seed).setup_runs()
        return [(Func(ROLL, (Const(str(k)),)), state) for k, (*_, state) in enumerate(runs, 1)]


    def compare(self, state: State, g: GdlState, fluents: bool = True, mine: frozenset[str] | None = None
                ) -> Difference | None:
        """How the runtime's `state` and the GDL state `g` differ; None when they agree. `mine`: the state's
        fluents, when already encoded."""
        d = Difference()
        if fluents:
            if mine is None:
                mine = self.encoded(state)
            theirs = g.fluent_texts()
            if state.is_terminal and g.is_terminal:
                # once over, who was to move and the result are the goals, compared below: a check left to the
                # next decision (tgpl.lowering.deferral) ends the game in `terminal`, from the state it reads
                mine, theirs = _without_flow(mine), _without_flow(theirs)
            d.fluents = (sorted(mine - theirs), sorted(theirs - mine))
        if state.is_terminal != g.is_terminal:
            d.terminal = (state.is_terminal, g.is_terminal)
        elif state.is_terminal:
            want = runtime_goals(state)
            try:
                got = g.goals
            except GdlError as e:
                d.error = str(e)
            else:
                if self.chance is not None:  # random has no goal: chance, not a player
                    got = got[:self.chance] + got[self.chance + 1:]
                if got != want:
                    d.goals = (want, got)
        else:
            try:
                mine = [m.text for m in state.legal_moves()]
            except TGPLRuntimeError as e:  # a require or a filter stops the runtime
                d.runtime_error = e
            else:
                self._compare_moves(d, state.active_player, mine, [g.legal_moves(r) for r in self.roles])
        return None if d.empty else d

    def _compare_moves(self, d: Difference, mover: int, mine: list[str], theirs: list[list[Term]]) -> None:
        """The mover's moves on both sides (the other side's, per role, mapped to runtime texts); the others noop."""
        texts = [[str(m) for m in ms] for ms in theirs]
        mapped = {self.texts.get(m, m if mover == self.chance else f"{m} (a move with no runtime text)")
                  for m in texts[mover]}  # random's (roll k) are no moves of the runtime's
        d.legal = (sorted(set(mine) - mapped), sorted(mapped - set(mine)))
        d.others = [f"{self.roles[i]} may play {', '.join(ms) or 'nothing'}, not only noop"
                    for i, ms in enumerate(texts) if i != mover and ms != ["noop"]]

    def outcomes(self, state: State, move: str) -> list[tuple[Term | None, State]]:
        """The runtime's states after `move` for every outcome of its draws, each with random's move that throws
        those dice, `(roll f)`, `(roll2 f1 f2)`, ..., the faces in the order drawn (tgpl.verify.chance_machine's scripted
        draws); [(None, state)] when it draws nothing. Raises TGPLRuntimeError, or _Drawn when its ways draw
        different numbers of times (the lowering's random throws the same dice on every way that throws one) or
        its draws cannot be replayed (tgpl.verify.chance_machine.ChanceUnsupported)."""
        if self._chances is None:
            self._chances = ChanceMachine(self.game, self.seed)
        try:
            runs = self._chances._apply_all(state, move)
        except ChanceUnsupported as e:  # a flow the lowering should have refused: reported, not a traceback
            raise _Drawn(f"the runtime's draws in the move {move} cannot be replayed to compare them ({e})") from None
        if len(runs) == 1 and not runs[0][2]:
            return [(None, runs[0][3])]
        counts = sorted({len(bounds) for _, _, bounds, _ in runs})
        if len(counts) > 1:
            raise _Drawn(f"the runtime draws {' or '.join(map(str, counts))} random numbers in the move {move}, "
                         "where the GDL's random throws the same dice on every way")
        return [(Func(roll_name(len(values)), (Const(str(self.face(state, values, nxt))),) if len(values) == 1
                      else tuple(Const(str(v + 1)) for v in values)), nxt)
                for _, values, _, nxt in runs]

    def face(self, state: State, values: list[int], nxt: State) -> int:
        """Random's face for the one draw `values` of a move from `state` to `nxt`: a die's face, the draw + 1; a
        deal's, the place of the item dealt in its deck as the lowering starts (tgpl.runtime.dealing.rosters)."""
        found = dealt_face(self.rosters, state, nxt) if self.deals else None
        return values[0] + 1 if found is None else found

    @cached_property
    def rosters(self) -> dict[str, tuple[str, ...]]:
        """The dealt decks' items as the lowering numbers them for random's deals (tgpl.runtime.dealing.rosters):
        where setup deals, the deck's before it does."""
        if self.setup_plan is not None:
            return {self.setup_plan.deck: self.setup_plan.roster}
        return rosters(self.initial, self.deals)

    def compare_throw(self, g: GdlState, outcomes: list[tuple[Term | None, State]]) -> Difference | None:
        """How the GDL state `g`, after a move whose die the runtime throws, differs from what it must be: random
        to move with one `(roll k)` for each face of the runtime's die, every player `noop`, not terminal."""
        d = Difference()
        if g.is_terminal:
            d.terminal = (False, True)
            return d
        theirs = [[str(m) for m in g.legal_moves(r)] for r in self.roles]
        mine = {str(roll) for roll, _ in outcomes}
        d.legal = (sorted(mine - set(theirs[self.chance])), sorted(set(theirs[self.chance]) - mine))
        d.others = [f"{self.roles[i]} may play {', '.join(ms) or 'nothing'}, not only noop while random throws a die"
                    for i, ms in enumerate(theirs) if i != self.chance and ms != ["noop"]]
        return None if d.empty else d

    def random_moves(self, g: GdlState) -> list[Term]:
        """Random's moves in `g`, none where it is not random's to move."""
        if self.chance is None or g.is_terminal:
            return []
        moves = g.legal_moves(self.roles[self.chance])
        return [] if [str(m) for m in moves] == ["noop"] else moves

    def chained_throws(self, state: State, move: str, g: GdlState, play: Play, rng: random.Random
                       ) -> tuple[State, GdlState, Difference | None]:
        """Where phases throw dice (`phase_throws`): after the player's `move`, random's steps in the GDL `g` while
        it is random's to move, each move picked by `rng` among its legal ones and recorded in `play`; then the
        runtime plays `move` with the draws they gave (a face f is the draw f - 1, in the order thrown). Each step's
        legal moves must be every way the runtime's next dice fall, by their bounds as it drew them, and the
        runtime must draw exactly the dice random threw. The states after, and the difference found (None)."""
        steps: list[tuple[GdlState, list[Term], int]] = []  # random's state, its legal moves, the dice it threw
        draws: list[int] = []
        while moves := self.random_moves(g):
            roll = rng.choice(moves)
            faces = [int(str(a)) for a in roll.args] if isinstance(roll, Func) else []
            steps.append((g, moves, len(faces)))
            play.steps.append(Step(sorted(str(r) for r in moves), self.chance, False, None))
            play.moves.append(str(roll))
            play.joints.append(self.throw(roll))
            g = g.apply(play.joints[-1])
            draws += [f - 1 for f in faces]
            if len(steps) > CHAINED_THROWS:
                return state, g, Difference(error=f"random moves {len(steps)} times in a row after {move}")
        if self._chances is None:
            self._chances = ChanceMachine(self.game, self.seed)
        try:
            nxt, drawn = self._chances.apply_bounded(state, move, tuple(draws))
        except ChanceUnsupported as e:  # a face past its die's sides: no draw of the runtime's gives it
            moves_made = " ".join(play.moves[len(play.moves) - len(steps):])
            return state, g, Difference(error=f"random's moves {moves_made} after {move} throw a face the "
                                              f"runtime's dice do not have ({e})")
        at = 0
        for before, moves, dice in steps:
            bounds = drawn[at:at + dice]
            at += dice
            if len(bounds) < dice:
                break
            rolls = [Func(roll_name(dice), tuple(Const(str(f)) for f in faces))
                     for faces in itertools.product(*(range(1, b + 1) for b in bounds))]
            diff = self.compare_throw(before, [(r, None) for r in rolls])
            if diff is not None:
                return nxt, g, diff
        if len(drawn) != len(draws):
            return nxt, g, Difference(error=f"the runtime draws {len(drawn)} random numbers in the move "
                                            f"{move}, where the GDL's random threw {len(draws)} dice after it")
        return nxt, g, None

    def idle_throws(self, g: GdlState) -> list[Term]:
        """After a move whose runtime draws nothing, random's moves in `g`: in a game with secrets random throws
        after every move of an action that may throw (tgpl.lowering.percepts), and each of its moves must then
        give the runtime's state; in a game without, none (random to move there is a difference)."""
        return self.random_moves(g) if self.secrets else []

    def throw(self, roll: Term) -> tuple[Term, ...]:
        """The GDL joint move of random's `roll`, every player `noop`."""
        return tuple(roll if i == self.chance else NOOP for i in range(len(self.roles)))

    def lowered_move(self, text: str) -> bool:
        """Whether the lowering gave the runtime's move `text` a term (LoweredGame.move_texts): one it did not
        has no joint move (`joint`), and is a difference in every state where the runtime may play it."""
        return text in self._kifs

    def joint(self, state: State, text: str) -> tuple[Term, ...]:
        """The GDL joint move of the runtime's move `text` in `state`: the mover's term, `noop` for the others.
        `text` must have a term (`lowered_move`): the comparison of `state`'s legal moves, made before, says
        where it has none."""
        mover = state.active_player
        term = self._terms.get(text)
        if term is None:
            term = self._terms[text] = read_term(self._kifs[text])
        return tuple(term if i == mover else NOOP for i in range(len(self.roles)))

    def apply(self, state: State, g: GdlState, text: str) -> tuple[State, GdlState]:
        """Both sides after the runtime's move `text` (raises the runtime's or the reasoner's errors)."""
        return state.apply(text), g.apply(self.joint(state, text))

    def step(self, state: State) -> Step:
        if state.is_terminal:
            return Step([], None, True, runtime_goals(state))
        return Step(sorted(m.text for m in state.legal_moves()), state.active_player, False, None)

    def playout(self, rng: random.Random, max_steps: int, fluents: bool = True, until: float | None = None) -> Play:
        """A random play of up to `max_steps` moves, compared at every step; stops at the first difference.

        With `until` (a reading of the Differential's clock), the play also stops once that
        time has passed, after one move at least (`timed_out`). A runtime error is a
        difference (the lowering assumes the game never reaches one); its exception is
        kept in the difference's `runtime_error`.
        """
        if self.gdl.batches and fluents and self.chance is None:
            return self.playouts([rng], max_steps, until)[0]
        play = Play()
        state, g = self.start()
        if self.setup_plan is not None:  # random deals setup's pops: the GDL's first steps
            draws: tuple[int, ...] = ()
            while not isinstance(node := self.setup_plan.node(draws), State):
                outcomes = [(Func(ROLL, (Const(str(j)),)), after) for j, after in node]
                diff = self.compare_throw(g, outcomes)
                if diff is not None:
                    play.mismatch = diff
                    return play
                roll, draws = rng.choice(outcomes)
                play.steps.append(Step(sorted(str(r) for r, _ in outcomes), self.chance, False, None))
                play.moves.append(str(roll))
                play.joints.append(self.throw(roll))
                g = g.apply(play.joints[-1])
            state = self.dealt(node)
        if self.setup_outcomes is not None:  # random throws setup's dice: the GDL's first step
            diff = self.compare_throw(g, self.setup_outcomes)
            if diff is not None:
                play.mismatch = diff
                return play
            roll, state = rng.choice(self.setup_outcomes)
            play.steps.append(Step(sorted(str(r) for r, _ in self.setup_outcomes), self.chance, False, None))
            play.moves.append(str(roll))
            play.joints.append(self.throw(roll))
            g = g.apply(play.joints[-1])
        while True:
            diff = self.compare(state, g, fluents)
            if diff is not None:
                play.mismatch = diff
                return play
            play.steps.append(self.step(state))
            if state.is_terminal or len(play.moves) >= max_steps or not play.steps[-1].legal:
                play.ended = state.is_terminal
                return play
            if until is not None and play.moves and self.clock() >= until:
                play.timed_out = True
                return play
            move = rng.choice(play.steps[-1].legal)
            joint = self.joint(state, move)
            play.moves.append(move)
            play.joints.append(joint)
            try:
                if self.chance is None:
                    state, g = state.apply(move), g.apply(joint)
                elif self.phase_throws:  # random's steps one at a time, then the runtime with their draws
                    g = g.apply(joint)
                    state, g, diff = self.chained_throws(state, move, g, play, rng)
                    if diff is not None:
                        play.mismatch = diff
                        return play
                else:  # a die the runtime throws is random's move in the GDL: an outcome drawn by the play's rng
                    outcomes = self.outcomes(state, move)
                    g = g.apply(joint)
                    idle = self.idle_throws(g) if outcomes[0][0] is None else []
                    if outcomes[0][0] is None and not idle:
                        state = outcomes[0][1]
                    elif idle:  # the runtime drew nothing: random's face changes nothing, whichever it is
                        state = outcomes[0][1]
                        roll = rng.choice(idle)
                        play.steps.append(Step(sorted(str(r) for r in idle), self.chance, False, None))
                        play.moves.append(str(roll))
                        play.joints.append(self.throw(roll))
                        g = g.apply(play.joints[-1])
                    else:
                        diff = self.compare_throw(g, outcomes)
                        if diff is not None:
                            play.mismatch = diff
                            return play
                        roll, state = rng.choice(outcomes)
                        # random's state, a step of its own (the ASP replay compares it as the GDL's)
                        play.steps.append(Step(sorted(str(r) for r, _ in outcomes), self.chance, False, None))
                        play.moves.append(str(roll))
                        play.joints.append(self.throw(roll))
                        g = g.apply(play.joints[-1])
            except TGPLRuntimeError as e:
                play.mismatch = Difference(runtime_error=e)
                return play
            except GdlError as e:
                play.mismatch = Difference(error=str(e))
                return play
            except _Drawn as e:
                play.mismatch = Difference(error=str(e))
                return play

    def playouts(self, rngs: list[random.Random], max_steps: int, until: float | None = None) -> list[Play]:
        """A `playout` for each of `rngs`, the same plays and comparisons. For a GDL played one state at a
        time (GdlGame.batches) they are played together (`stream`), but for a GDL-II game's (one by one)."""
        if not self.gdl.batches or self.chance is not None:
            return [self.playout(rng, max_steps, until=until) for rng in rngs]
        out: list[Play] = [Play() for _ in rngs]
        for k, play in self.stream(Plays(rngs, max_steps), until):
            out[k] = play
        return out

    def stream(self, plays: Plays, until: float | None = None) -> Iterator[tuple[int, Play]]:
        """For a GDL played one state at a time (GdlGame.batches): a `playout` for each play `plays` starts
        (`Plays.start`: its random choices and its cut), yielded as (its index, the play) once it is done. The
        runtime plays the plays one after the other, and tells `plays` how each ended (`Plays.played`) before
        the next one starts, so that what is played depends on the game alone, never on the batches or on
        time. `until` (a reading of the Differential's clock) is a safety limit: once it has passed no more states are
        played, and the plays still going are yielded cut short (`timed_out`).

        The runtime goes first: it plays ahead, play after play, until a batch of states is ready, and the GDL
        states after those moves are asked for in one grounding, each from the runtime's state before the
        move (GdlGame.states_after). Up to a play's first mismatch the runtime's states are the GDL's, so that
        mismatch is the one `playout` finds. While the GDL's workers ground a batch (GdlGame.parallel), the
        runtime plays the next one, and that one is handed to the workers before this one's answers are
        compared: the workers never wait for the comparison. A new play starts as soon as the runtime has
        played the one before, so that every batch but the last is full.

        Why: a per-state query costs three to four times more alone than in a batch (chess's compiled
        moves: 80 ms against 25). The first batch is small (FIRST_BATCH) so that the workers start at once."""
        ahead: deque[_BatchedRun] = deque()  # the runs the runtime may still play on
        live: dict[int, _BatchedRun] = {}  # the runs not yielded yet, by index
        pending: deque[tuple[list[tuple[_BatchedRun, _Ahead]], Callable[[], list]]] = deque()
        batch: list[tuple[_BatchedRun, _Ahead]] = []  # states played and not handed out yet
        stopping = False  # no more states: every play is played, or `until` has passed
        size = FIRST_BATCH
        started = 0
        while True:
            while not stopping and len(batch) < size:
                if until is not None and self.clock() >= until:
                    stopping, batch = True, []  # never handed out: those plays end before these states
                    break
                if not ahead:
                    nxt = plays.start()
                    if nxt is None:
                        stopping = True  # every play is played out
                        break
                    live[started] = run = _BatchedRun(self, *nxt)
                    started += 1
                    ahead.append(run)
                step = ahead[0].advance()
                if step is None:
                    run = ahead.popleft()
                    plays.played(run.moves, run.last is not None and run.last.is_terminal)
                else:
                    batch.append((ahead[0], step))
            handed = bool(batch)
            if handed:
                pending.append((batch, self.gdl.states_later([step.query for _, step in batch])))
                batch, size = [], self.most_batch()
            if not pending:
                break
            if len(pending) > 1 or not handed:
                asked, answers = pending.popleft()
                got = answers()
                for (run, step), g in zip(asked, got):
                    run.compare(step, g)
                done = [k for k, run in live.items() if run.done(stopping)]
                for k in done:
                    yield k, live.pop(k).finish()
        for k in sorted(live):
            yield k, live.pop(k).finish()

    def most_batch(self) -> int:
        """The most states a batch asks for: BATCH a worker, with workers (GdlGame.parallel)."""
        return BATCH * max(1, self.gdl.workers)

    def key(self, state: State):
        """The runtime state's key, the attributes the lowering leaves out left out."""
        return state.key_without(self.unread) if self.unread else state.key()

    def runtime(self) -> RuntimeMachine:
        """A machine of the runtime's states, keyed as `key` keys them."""
        return RuntimeMachine(self.game, self.seed, unread=self.unread)

    def encoded(self, state: State) -> frozenset[str]:
        """The runtime state's GDL fluents (LoweredGame.state_fluents), from a snapshot of only what they read
        where the lowering says what that is."""
        return encoded_state(self.lowered, state, self._fields)

    def fluent_symbols(self, texts: frozenset[str]) -> list:
        """Fluents' texts (LoweredGame.state_fluents) as the reasoner's symbols (GdlGame.names), each text read
        once: a query takes them as they are, where a term would be hashed to find its symbol."""
        symbols = self._symbols
        out = []
        for text in texts:
            symbol = symbols.get(text)
            if symbol is None:
                symbol = symbols[text] = self.gdl.names.symbol(read_term(text))
            out.append(symbol)
        return out

    def asp_compare(self, want: Step, got: AspStep) -> Difference | None:
        """How the ASP encoding's state `got` differs from the runtime's `want` (no fluents: it does not show them)."""
        d = Difference()
        if got.terminal != want.terminal:
            d.terminal = (want.terminal, got.terminal)
        elif want.terminal:
            goals = [g[0] if len(g) == 1 else None if not g else g for g in got.goals]
            if self.chance is not None:  # random has no goal
                goals = goals[:self.chance] + goals[self.chance + 1:]
            if goals != want.goals:
                d.goals = (want.goals, goals)
        else:
            self._compare_moves(d, want.mover, want.legal, [list(ms) for ms in got.legal])
        return None if d.empty else d


@dataclass
class _Ahead:
    """A runtime state a batched playout reached, before the GDL's is compared with it: the move that led
    there (None: the initial state) and the GDL query for it (None: the initial state's)."""

    state: State
    fluents: frozenset[str]  # the state's, encoded (LoweredGame.state_fluents)
    move: str | None
    joint: tuple[Term, ...] | None
    query: tuple[list[Term], tuple[Term, ...]] | None


class _BatchedRun:
    """One play of Differential.playouts: the runtime plays ahead (`advance`), the GDL's answers are compared
    in the order of the play (`compare`)."""

    def __init__(self, d: Differential, rng: random.Random, max_steps: int):
        self.d = d
        self.rng = rng
        self.max_steps = max_steps
        self.play = Play()
        self.last: State | None = None  # the runtime's last state, None before the initial one
        self.fluents: frozenset[str] = frozenset()  # its fluents, encoded
        self.moves = 0  # the runtime's moves, compared or not
        self.over = False  # the runtime played to the end of the play
        self.failed: tuple[str, tuple[Term, ...], TGPLRuntimeError] | None = None  # a move the runtime cannot apply
        self.unlowered: str | None = None  # a move of the runtime's the lowering gave no term, played from `last`
        self.waiting = 0  # states handed out for the GDL and not compared yet
        self.compared: State | None = None  # the last state compared

    def advance(self) -> _Ahead | None:
        """The runtime's next state of the play, or None once the play needs no more."""
        if self.over or self.play.mismatch is not None:
            return None
        d = self.d
        if self.last is None:
            self.last = d.initial
            self.waiting += 1
            self.fluents = d.encoded(self.last)
            return _Ahead(self.last, self.fluents, None, None, None)
        last = self.last
        legal: list[str] = []
        if not last.is_terminal and self.moves < self.max_steps:
            try:
                legal = d.step(last).legal
            except TGPLRuntimeError:  # the comparison of `last` reports it
                pass
        if not legal:
            self.over = True
            return None
        move = self.rng.choice(legal)
        if not d.lowered_move(move):
            # no GDL move to ask the state after: the play ends here, and the comparison of `last` (handed out
            # already) finds the move among the runtime's legal moves only (a KeyError in `joint` before)
            self.unlowered, self.over = move, True
            return None
        joint = d.joint(last, move)
        try:
            after = last.apply(move)
        except TGPLRuntimeError as e:
            self.failed, self.over = (move, joint, e), True
            return None
        query = (d.fluent_symbols(self.fluents), joint)
        self.last, self.fluents = after, d.encoded(after)
        self.moves += 1
        self.waiting += 1
        return _Ahead(after, self.fluents, move, joint, query)

    def compare(self, ahead: _Ahead, g: GdlState | GdlError) -> None:
        self.waiting -= 1
        play = self.play
        if play.mismatch is not None:
            return
        if ahead.move is not None:
            play.moves.append(ahead.move)
            play.joints.append(ahead.joint)
        diff = Difference(error=str(g)) if isinstance(g, GdlError) else self.d.compare(ahead.state, g,
                                                                                         mine=ahead.fluents)
        if diff is not None:
            play.mismatch = diff
            return
        play.steps.append(self.d.step(ahead.state))
        self.compared = ahead.state

    def done(self, stopping: bool) -> bool:
        """Whether the play is over and compared: the runtime plays no more of it (it ended, differs, or
        `stopping`: no more batches) and every state handed out was compared."""
        return (self.over or stopping or self.play.mismatch is not None) and self.waiting == 0

    def finish(self) -> Play:
        """The play, cut where the comparisons stopped; a move the runtime could not apply is its mismatch
        if every state before it was compared."""
        play = self.play
        if play.mismatch is None and self.failed is not None and self.waiting == 0:
            move, joint, error = self.failed
            play.moves.append(move)
            play.joints.append(joint)
            play.mismatch = Difference(runtime_error=error)
        elif play.mismatch is None and self.unlowered is not None and self.waiting == 0 \
                and self.compared is self.last:
            # every state compared, `last` agreed: still, the runtime may play there a move the GDL has not
            play.mismatch = Difference(legal=([self.unlowered], []))
        elif play.mismatch is None:
            if self.compared is not None:
                play.ended = self.compared.is_terminal
            play.timed_out = not self.over or self.waiting > 0  # the stream stopped before the play's end
        return play


class Plays:
    """The plays of a stream (Differential.stream): `start` gives the next one's random choices and cut, or
    None when there are no more; `played` hears how the runtime's side of each went, before the next starts.
    This one: a play for each of `rngs`, each cut at `cut` moves."""

    def __init__(self, rngs: Iterable[random.Random], cut: int):
        self._rngs = iter(rngs)
        self.cut = cut

    def start(self) -> tuple[random.Random, int] | None:
        rng = next(self._rngs, None)
        return None if rng is None else (rng, self.cut)

    def played(self, moves: int, ended: bool) -> None:
        """The runtime played `moves` moves of the last play started; `ended`: to the end of the game."""


class _Plan(Plays):
    """The validation's playouts: seeded plays (`_rng`) until at least `steps` states are played; each goes to
    the end of the game or to its cut, which starts at a FIRST_CUT_SHARE-th of `steps` (at least `min_depth`)
    and doubles after each play that reached it without the game ending. It hears only of the plays' moves,
    so the plays and their cuts depend on the game and the seed alone."""

    def __init__(self, d: Differential, steps: int, min_depth: int):
        self.d = d
        self.steps = steps
        self.cut = max(min_depth, steps // FIRST_CUT_SHARE, 1)
        self.started = 0
        self.planned = 0  # states the runtime played in the plays it finished
        self.exhausted = False  # start said there are no more plays

    def start(self) -> tuple[random.Random, int] | None:
        if self.planned >= self.steps:
            self.exhausted = True
            return None
        self.started += 1
        return _rng(self.d, self.started - 1), self.cut

    def played(self, moves: int, ended: bool) -> None:
        self.planned += moves + 1
        if moves >= self.cut and not ended:
            self.cut *= 2


# --------------------------------------------------------------- the result
@dataclass
class Mismatch:
    """The shortest move sequence found after which the runtime and `other` differ, and how."""

    other: str  # "the GDL" or "the ASP program"
    moves: list[str]  # runtime texts, as `tgpl play --moves` reads them
    difference: Difference
    found_by: str  # bisimulation, playouts, ASP replay


@dataclass
class Validation:
    """What was validated, and the mismatch found if any. What was compared is counted, the same on every
    machine; only `seconds` (how long it took) is not, and no summary shows it."""

    seconds: float = 0.0
    states: int = 0  # product states compared by the (possibly incomplete) bisimulation
    complete: bool = False  # the bisimulation covered every reachable state
    playouts: int = 0
    steps: int = 0  # states compared along the playouts
    deepest: int = 0  # the most moves into a play of a state compared
    ended: int = 0  # playouts that reached the end of the game (or a state where no move is left)
    required: int = 0  # the steps asked for
    can_end: bool = True  # the game has an end (the lowered game a `terminal` rule)
    time_limit: float | None = None  # the safety limit, in seconds (validate_translation's max_seconds)
    timed_out: bool = False  # it passed before the coverage asked for
    asp_replays: int = 0
    asp_steps: int = 0
    mismatch: Mismatch | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None and self.shortfall is None

    @property
    def shortfall(self) -> str | None:
        """What a validation that found no mismatch still needed to cover, when it covered too little: the
        steps asked for (a time limit passed first), or a play that reached the end of a game that can end."""
        if self.mismatch is not None or self.complete:
            return None
        end = " and a play to the end of the game" if self.can_end else ""
        if self.timed_out or self.steps < self.required:
            limit = f" within the time limit ({self.time_limit:g} s)" if self.timed_out else ""
            return f"{self.required:,} steps compared{end}{limit}"
        if self.can_end and not self.ended:
            return "a play to the end of the game (more steps let the plays go deeper)"
        return None

    def coverage(self) -> str:
        """What was compared: the bisimulation's states, or the playouts'."""
        if self.complete:
            return f"bisimulation, {self.states:,} states"
        text = (f"{self.playouts:,} playout{'s' * (self.playouts != 1)} ({self.ended:,} to the end of the game), "
                f"{self.steps:,} steps compared, the deepest at move {self.deepest:,}")
        if self.states:
            text += f", after {self.states:,} states explored breadth first"
        return text

    def summary(self) -> str:
        """One line for the output's header and `--stats`: the same on every run."""
        text = f"validated: {self.coverage()}"
        if self.asp_replays:
            text += f"; ASP: {self.asp_replays} plays replayed, {self.asp_steps:,} steps compared"
        return text


NOT_VALIDATED = "not validated (--no-validate)"

Progress = Callable[[str], None]


def validate_translation(game: Game, lowered: LoweredGame, seed: int = 0, steps: int = MIN_STEPS,
                         asp: AspEncoding | None = None, progress: Progress | None = None,
                         state_bound: int | None = None, max_seconds: float | None = None,
                         clock: Callable[[], float] = time.perf_counter, limits: Limits | None = None
                         ) -> Validation:
    """Compare `lowered` (the game after setup with `seed`) with the runtime's `game`: by bisimulation when the
    game is small, else by playouts that compare at least `steps` states.

    With `asp`, the ASP encoding of the same lowered program is checked too.
    `progress` receives a line now and then (for a terminal). With `state_bound`,
    the bisimulation is tried whatever the game's size, and explores at most that
    many product states (default: STATE_BOUND, when the game is small). With
    `max_seconds`, a safety limit: once that time has passed on `clock` (the command's, tgpl.limits) it stops,
    and the coverage asked for was not reached (`Validation.shortfall`). With `limits` (the command's), the GDL's
    groundings, which cannot be interrupted, are waited for under them (GdlGame.parallel): past them,
    LimitReached, the workers killed.
    """
    start = clock()
    gdl = reasoner_for(lowered)
    # What is alive now (the game, its lowering, the parsed rules: chess's 200,000 objects) lives until the
    # validation ends: kept out of the collector's passes (a full one cost 0.1 s), and out of the pages the
    # forked workers would copy when a pass of theirs touches it (what gc.freeze is made for). Garbage among it
    # waits for the end, when it is unfrozen: it is already there, so memory grows no more.
    gc.freeze()
    try:
        with gdl.parallel(limits=limits):  # batches of states shared with worker processes (GdlGame.parallel)
            d = Differential(game, lowered, seed, gdl)
            d.clock = clock
            result = _validated(d, steps, asp, progress or (lambda line: None), state_bound, start, max_seconds,
                                limits)
    finally:
        gc.unfreeze()
    result.seconds = clock() - start
    return result


def _validated(d: Differential, steps: int, asp: AspEncoding | None, say: Progress, state_bound: int | None,
               start: float, max_seconds: float | None, limits: Limits | None = None) -> Validation:
    until = None if max_seconds is None else start + max_seconds
    result = Validation(required=steps, can_end=_can_end(d.lowered), time_limit=max_seconds)
    bound = state_bound
    if bound is None and not d.phase_throws and _small(d, until):
        bound = STATE_BOUND
    min_depth = 0
    if d.phase_throws:  # a chain of phases' throws has no bound (a throw of 0 passing to the next throw):
        bound = None  # compared by playouts alone (Differential.chained_throws)
    if bound is not None:
        bfs = _Bisimulation(d, until, bound, say)
        result.mismatch = bfs.run()
        result.states, result.complete, result.timed_out = bfs.compared, bfs.complete, bfs.timed_out
        min_depth = bfs.depth + 1  # every state before it was compared: no shorter mismatch is looked for
    plays: list[Play] = []
    if result.mismatch is None and not result.complete and not result.timed_out:
        gc.collect()  # what the exploration left, now rather than during the plays
        plan = _Plan(d, steps, min_depth)
        plays, result.mismatch = _playouts(d, plan, until, say)
        result.playouts, result.steps = len(plays), sum(len(p.steps) for p in plays)
        result.deepest = max((len(p.steps) - 1 for p in plays), default=0)
        result.ended = sum(_to_the_end(p) for p in plays)
        if result.mismatch is None:
            result.timed_out = not plan.exhausted or any(p.timed_out for p in plays)  # the time limit came first
        else:
            result.mismatch = _shrunk(d, plan.started, result.mismatch, min_depth, until)
    if asp is not None and result.ok:
        if not plays:  # the bisimulation left no plays to replay: make a few (cheap, the game is small)
            plays = [d.playout(_rng(d, k), ASP_MAX_DEPTH) for k in range(ASP_REPLAYS)]
        say("replaying plays on the ASP program")
        result.mismatch, result.asp_replays, result.asp_steps = _asp_replay(d, asp, plays[:ASP_REPLAYS], limits)
    return result


def _to_the_end(play: Play) -> bool:
    """Whether the play went on until no move was left: the end of the game (or a state where the game is
    stuck, which the runtime and the GDL agreed on), not its cut or a time limit."""
    return bool(play.steps) and not play.steps[-1].legal and not play.timed_out


def _can_end(lowered: LoweredGame) -> bool:
    """Whether the lowered game can end: it has a `terminal` rule (tgpl.lowering.emit writes one when the game
    has a result)."""
    return any(str(rule.head) == "terminal" for rule in lowered.program.rules)


def _small(d: Differential, until: float | None) -> bool:
    """Whether the game is small enough to be bisimulated: its game tree estimated at most TREE_BOUND nodes
    (`_tree_size`: Tris's has 549,946; in a game where random moves, only where its runtime with chance nodes
    reaches at most CHANCE_STATE_BOUND states playing at most CHANCE_RUN_BOUND runs, `chance_space_fits`), or else the runtime alone reaching at most RUNTIME_BOUND states breadth
    first, where the tree is estimated at most RUNTIME_TREE_BOUND nodes (a game whose plays meet again:
    shifts.tgpl has 501 states, and a tree estimated at 25 million nodes) or a play came back to a state it
    had been in (a tree without end: quiet.tgpl has 16 states). A GDL played one state at a time costs a grounding a state explored (shifts.tgpl: 0.1 s, where
    its playouts compare a thousand steps in two seconds), so there the runtime alone must reach at most
    PER_STATE_BOUND states. All counted, never timed, and cheap where the game is large: the estimate stops
    once it is surely past its bound (Connect Four, Hex, five in a row: after ten moves or so), the runtime's
    exploration once it is past its own (Hex's would take five seconds: its tree is too large for it to be
    tried)."""
    if d.gdl.batches:
        bound = PER_STATE_BOUND
    else:
        tree, cyclic = _tree_size(d, RUNTIME_TREE_BOUND)
        if tree <= TREE_BOUND:
            return d.chance is None or _chance_states_fit(d, until)
        if tree > RUNTIME_TREE_BOUND and not cyclic:
            return False
        bound = RUNTIME_BOUND
    stop = None if until is None else (lambda: "time" if d.clock() >= until else None)
    try:
        graph = explore(d.runtime(), bound, stop=stop)
    except TGPLRuntimeError:
        return True  # the bisimulation meets the error too, and reports it with the moves that lead there
    # one setup's runtime is small, but the bisimulation explores every outcome of the draws (memory.tgpl: 90
    # shuffles, 57,871 states with chance nodes where its seed 0 alone has 643)
    return graph.complete and (d.chance is None or _chance_states_fit(d, until))


def _chance_states_fit(d: Differential, until: float | None) -> bool:
    """`chance_space_fits` for the Differential's game, the decks the lowering deals from dealt at pop()."""
    stop = None if until is None else (lambda: "time" if d.clock() >= until else None)
    return chance_space_fits(d.game, d.seed, d.deals, d.unread, stop)[0]


def chance_space_fits(game: Game, seed: int, deals: frozenset[str] = frozenset(), unread: frozenset[str] = frozenset(),
                      stop: Callable[[], str | None] | None = None) -> tuple[bool, int]:
    """Whether the runtime with chance nodes (tgpl.verify.chance_machine, the decks `deals` dealt at pop(), the
    attributes `unread` left out) reaches at most CHANCE_STATE_BOUND states, playing at most CHANCE_RUN_BOUND
    runs to reach them: the states the bisimulation of a game where random moves explores, and the GDL successors
    it asks for, one a way the draws of a move fall; with the runs played. Counted, never timed: the exploration
    stops as soon as either is past its bound (Shut the Box's 182,027 runs took 10 s of CPU to play, where the
    bisimulation's successors would take 20 minutes), or when `stop` says so (a time limit: it does not fit)."""
    machine = None

    def stopped() -> str | None:
        if stop is not None and (reason := stop()) is not None:
            return reason
        return "runs" if machine.runs > CHANCE_RUN_BOUND else None
    try:
        machine = ChanceMachine(game, seed, deals=deals, unread=unread)
        graph = explore(machine, CHANCE_STATE_BOUND, stop=stopped)
    except (TGPLRuntimeError, ChanceUnsupported, TooManyOutcomes):
        return True, 0 if machine is None else machine.runs  # the bisimulation meets it too, and reports it
    return graph.complete, machine.runs


def _tree_size(d: Differential, bound: float) -> tuple[float, bool]:
    """Knuth's estimate of the nodes of the game tree: the mean, over SIZE_PLAYS seeded runtime plays, of
    1 + b1 + b1 b2 + ..., b_i the moves there were at the i-th state of the play; infinite as soon as it is
    surely past `bound` (the sum so far past SIZE_PLAYS times that), or when a play goes on past SIZE_DEPTH
    moves. And whether a play came back to a state it had been in (the tree has no end)."""
    limit = bound * SIZE_PLAYS
    total = SIZE_PLAYS  # each play's initial state
    cyclic = False
    for k in range(SIZE_PLAYS):
        rng = random.Random(f"tgpl size {d.seed} {k}")
        state, width = d.initial, 1
        seen = {d.key(state)}
        try:
            for depth in itertools.count():
                if state.is_terminal:
                    break
                moves = state.legal_moves()
                if not moves:
                    break
                if depth >= SIZE_DEPTH:
                    return float("inf"), cyclic
                width *= len(moves)
                total += width
                if total > limit:
                    return float("inf"), cyclic
                state = state.apply(rng.choice(moves))
                key = d.key(state)
                cyclic = cyclic or key in seen
                seen.add(key)
        except TGPLRuntimeError:
            pass  # the validation reports it
    return total / SIZE_PLAYS, cyclic


def _without_flow(fluents) -> set[str]:
    """The fluents but `control` and `result` (tgpl.lowering.emit's names for the flow and the ranking)."""
    return {f for f in fluents if not f.startswith(("(control ", "(result "))}


class _OutOfTime(Exception):
    pass


class _Found(Exception):
    def __init__(self, mismatch: Mismatch):
        self.mismatch = mismatch


class _Drawn(Exception):
    """The runtime draws in a move otherwise than the GDL's random throws its die."""


@dataclass(eq=False)
class _Pair:
    """A state of the product: the runtime's state and the GDL's after the same moves (`path`, linked)."""

    state: State | None
    g: GdlState | None
    path: tuple | None  # (previous path, move text), None at the start
    depth: int
    error: Difference | None = None  # the move that leads here failed on one side
    handed_out: bool = True  # by the runtime machine, which releases it then (see RuntimeMachine.release)
    expanded: bool = False
    draws: tuple[int, ...] | None = None  # random's state dealing setup's pops: the draws dealt so far


def _moves(path: tuple | None) -> list[str]:
    out = []
    while path is not None:
        path, text = path
        out.append(text)
    return out[::-1]


class _Bisimulation:
    """Both sides explored together breadth first (tgpl.verify.graph.explore on their product).

    A product state is keyed by both states' keys, so a GDL transition that goes
    astray reaches a new product state, which is then compared. Breadth first, the
    first mismatch is after a shortest move sequence: a move that fails on one side
    becomes a product state of its own, reported when its turn comes.

    It gives up (playouts take over) once it cannot finish: more states seen than
    the bound (counted, so that it gives up at the same state on every machine), or
    `until` (a reading of the Differential's clock, a safety limit) passed: `timed_out`.
    """

    def __init__(self, d: Differential, until: float | None, bound: int, say: Progress):
        self.d = d
        self.until = until
        self.timed_out = False
        self.bound = bound
        self.say = say
        self.runtime = d.runtime()
        self.roles = [f"player {p}" for p in range(d.game.players)]
        self.compared = 0
        self.seen = 1
        self.depth = -1  # every state up to this depth was compared
        self.complete = False

    def run(self) -> Mismatch | None:
        try:
            g = explore(self, self.bound, self._progress)
        except _Found as found:
            return found.mismatch
        except _OutOfTime:
            return None
        self.complete = g.complete
        return None

    def _progress(self, done: int, seen: int) -> None:
        self.say(f"bisimulation: {done:,} states compared, {seen:,} seen")

    def _give_up(self) -> bool:
        if self.until is not None and self.d.clock() > self.until:
            self.timed_out = True
            return True
        return self.seen > self.bound

    # the Machine protocol of tgpl.verify.graph
    def initial(self) -> _Pair:
        state = self.d.dealt(self.runtime.initial())
        try:
            g = self.d.gdl.initial_state()
        except GdlError as e:  # e.g. an init fluent outside base
            return _Pair(state, None, None, 0, Difference(error=str(e)))
        if self.d.setup_plan is not None:  # random deals setup's pops first: no runtime state is there
            return _Pair(None, g, None, 0, handed_out=False, draws=())
        if self.d.setup_outcomes is not None:  # random throws setup's dice first: no runtime state is there
            return _Pair(None, g, None, 0, handed_out=False)
        return _Pair(state, g, None, 0)

    def key(self, pair: _Pair):
        if pair.error is not None:
            return pair  # never merged with another
        if pair.state is None:  # random's first states, setup's dice to throw or its pops to deal
            return pair.draws, pair.g.key()
        return self.d.key(pair.state), pair.g.key()

    def _setup_info(self, pair: _Pair) -> Info:
        """The successors of random's first state: each way setup's dice fall, the runtime's state after setup
        with them against the GDL's after random's move for it."""
        d = self.d
        if pair.draws is not None:
            return self._setup_deal_info(pair)
        diff = d.compare_throw(pair.g, d.setup_outcomes)
        if diff is not None:
            raise _Found(Mismatch("the GDL", [], diff, "bisimulation"))
        self.compared += 1
        out = []
        for roll, nxt in d.setup_outcomes:
            path = (None, str(roll))
            after = state_or_error(pair.g.apply, d.throw(roll))
            if isinstance(after, GdlError):
                out.append((str(roll), (), _Pair(None, None, path, 1, Difference(error=str(after)), False)))
                continue
            out.append((str(roll), (), _Pair(nxt, after, path, 1, handed_out=False)))
        self.seen += len(out)
        return Info(False, [], (), (), out)

    def _setup_deal_info(self, pair: _Pair) -> Info:
        """The successors of random's state dealing setup's pops (tgpl.setup_deals): each item left, the next
        such state or, after the last deal, the runtime's state after setup with those deals."""
        d = self.d
        outcomes = [(Func(ROLL, (Const(str(j)),)), draws) for j, draws in d.setup_plan.node(pair.draws)]
        diff = d.compare_throw(pair.g, outcomes)
        if diff is not None:
            raise _Found(Mismatch("the GDL", _moves(pair.path), diff, "bisimulation"))
        self.compared += 1
        out = []
        for roll, draws in outcomes:
            path = (pair.path, str(roll))
            after = state_or_error(pair.g.apply, d.throw(roll))
            if isinstance(after, GdlError):
                out.append((str(roll), (), _Pair(None, None, path, pair.depth + 1, Difference(error=str(after)),
                                                 False)))
                continue
            node = d.setup_plan.node(draws)
            if isinstance(node, State):
                out.append((str(roll), (), _Pair(d.dealt(node), after, path, pair.depth + 1, handed_out=False)))
            else:
                out.append((str(roll), (), _Pair(None, after, path, pair.depth + 1, handed_out=False, draws=draws)))
        self.seen += len(out)
        return Info(False, [], (), (), out)

    def release(self, pair: _Pair) -> None:
        if not pair.expanded:  # a state already seen
            self.seen -= 1
        if pair.handed_out and pair.state is not None:
            self.runtime.release(pair.state)
            pair.state = None

    def info(self, pair: _Pair) -> Info:
        if self._give_up():
            raise _OutOfTime
        pair.expanded = True
        self.depth = max(self.depth, pair.depth - 1)  # breadth first: every shallower state was compared
        if pair.state is None and pair.error is None:
            return self._setup_info(pair)
        diff = pair.error or self.d.compare(pair.state, pair.g)
        if diff is not None:
            raise _Found(Mismatch("the GDL", _moves(pair.path), diff, "bisimulation"))
        self.compared += 1
        state = pair.state
        if state.is_terminal:
            return Info(True, [], (), (), [])
        if self.d.chance is not None:
            return self._chance_info(pair)
        out = []
        try:
            successors = [(text, nxt, True) for text, _, nxt in self.runtime.info(state).moves]
        except TGPLRuntimeError:  # some move stops the runtime: apply them one by one to say which
            successors = []
            for m in state.legal_moves():
                try:
                    successors.append((m.text, state.apply(m), False))
                except TGPLRuntimeError as e:
                    successors.append((m.text, Difference(runtime_error=e), False))
        after = iter(self._after(pair.g, [self.d.joint(state, text) for text, nxt, _ in successors
                                          if not isinstance(nxt, Difference)]))
        for text, nxt, handed_out in successors:
            path = (pair.path, text)
            if isinstance(nxt, Difference):
                out.append((text, (), _Pair(None, None, path, pair.depth + 1, nxt, False)))
                continue
            g = next(after)
            if isinstance(g, GdlError):
                out.append((text, (), _Pair(None, None, path, pair.depth + 1, Difference(error=str(g)), False)))
                if handed_out:
                    self.runtime.release(nxt)
                continue
            out.append((text, (), _Pair(nxt, g, path, pair.depth + 1, None, handed_out)))
        self.seen += len(out)
        return Info(False, [], (), (), out)

    def _chance_info(self, pair: _Pair) -> Info:
        """The successors of a GDL-II game's pair: a move whose die the runtime throws leads, on the GDL's side,
        to random's state (compared with `Differential.compare_throw`), and from there each face to the runtime's
        outcome of that face (the path names random's move after the player's)."""
        d, state = self.d, pair.state
        out = []

        def failed(path, diff: Difference) -> None:
            out.append((path[1], (), _Pair(None, None, path, pair.depth + 1, diff, False)))
        for m in state.legal_moves():
            path = (pair.path, m.text)
            try:
                outcomes = d.outcomes(state, m.text)
            except TGPLRuntimeError as e:
                failed(path, Difference(runtime_error=e))
                continue
            except _Drawn as e:
                failed(path, Difference(error=str(e)))
                continue
            for _, nxt in outcomes:
                self.runtime._handed_out(nxt)
            g = state_or_error(pair.g.apply, d.joint(state, m.text))
            if isinstance(g, GdlError):
                failed(path, Difference(error=str(g)))
                continue
            idle = d.idle_throws(g) if outcomes[0][0] is None else []
            if outcomes[0][0] is None and not idle:
                out.append((m.text, (), _Pair(outcomes[0][1], g, path, pair.depth + 1)))
                continue
            def thrown(roll, nxt: State, handed_out: bool = True, g=g, text=m.text, path=path) -> tuple:
                """The product's state after random's `roll` in the GDL, `nxt` in the runtime."""
                after = state_or_error(g.apply, d.throw(roll))
                where = (path, str(roll))
                if isinstance(after, GdlError):
                    return f"{text} {roll}", (), _Pair(None, None, where, pair.depth + 1, Difference(error=str(after)),
                                                      False)
                return f"{text} {roll}", (), _Pair(nxt, after, where, pair.depth + 1, handed_out=handed_out)

            # the runtime drew nothing: each of random's faces must give its state
            out.extend(thrown(roll, outcomes[0][1], handed_out=False) for roll in idle)
            if idle:
                continue
            diff = d.compare_throw(g, outcomes)
            if diff is not None:
                failed(path, diff)
                continue
            out.extend(thrown(roll, nxt) for roll, nxt in outcomes)
        self.seen += len(out)
        return Info(False, [], (), (), out)

    def _after(self, g: GdlState, joints: list[tuple[Term, ...]]) -> list[GdlState | GdlError]:
        """The GDL states after each joint move from `g`, all in one grounding for a game played one state at a
        time (GdlGame.states_after: chess's 20 first moves in 0.6 s, not 1.6 s). The moves are legal in `g`:
        its legal moves were compared with the runtime's before it was expanded."""
        if self.d.gdl.batches:
            return self.d.gdl.states_after([(g.fluents, joint) for joint in joints])
        return [state_or_error(g.apply, joint) for joint in joints]


def _playouts(d: Differential, plan: _Plan, until: float | None, say: Progress) -> tuple[list[Play], Mismatch | None]:
    """The plays of `plan`, compared at every step; the plays and the first mismatch (that of the first play
    that has one). A GDL played one state at a time plays them as one stream of batches (Differential.stream),
    the same plays. `until` (a reading of the Differential's clock): a safety limit, after which no play starts and
    the one going stops (`Play.timed_out`)."""
    plays: list[Play] = []
    found = None

    def report() -> None:
        if len(plays) % 10 == 0:
            say(f"playouts: {len(plays):,} played, {sum(len(p.steps) for p in plays):,} steps compared "
                f"of {plan.steps:,}")

    if d.gdl.batches and d.chance is None:  # a GDL-II game's dice are played one by one (Differential.playout)
        streamed: list[tuple[int, Play]] = []
        for k, play in d.stream(plan, until):
            streamed.append((k, play))
            plays.append(play)
            found = _mismatch(play)
            if found is not None:  # the plays before it were all compared (the runtime plays them in order)
                break
            report()
        plays = [play for _, play in sorted(streamed, key=lambda kp: kp[0])]
        return plays, found
    while found is None and not (until is not None and d.clock() >= until):
        nxt = plan.start()
        if nxt is None:
            break
        rng, cut = nxt
        play = d.playout(rng, cut, until=until)
        plan.played(len(play.moves), play.ended)
        plays.append(play)
        found = _mismatch(play)
        report()
    return plays, found


def _shrunk(d: Differential, first: int, found: Mismatch, min_depth: int, until: float | None) -> Mismatch:
    """After a mismatch in a playout, a shorter one looked for: plays from the `first`-th seed on, each cut
    short of the shortest mismatch so far, SHRINK_STEPS compared steps at most (counted, so that the same
    mismatch is reported on every machine). It stops when a round of plays finds no shorter one, or where the
    bisimulation compared every state (`min_depth`) and none is shorter."""
    budget = SHRINK_STEPS
    while len(found.moves) > max(min_depth, 1) and budget > 0:
        cut = len(found.moves) - 1
        count = max(1, budget // (cut + 1))
        plays = d.playouts([_rng(d, first + i) for i in range(count)], cut, until)
        first += count
        budget -= sum(len(p.steps) for p in plays)
        shorter = [m for m in map(_mismatch, plays) if m is not None]
        if not shorter:
            break
        found = min(shorter, key=lambda m: len(m.moves))
    return found


def _rng(d: Differential, k: int) -> random.Random:
    """The random choices of play k: its own seed, so that the k-th play is the same on every run."""
    return random.Random(f"tgpl validate {d.seed} {k}")


def _mismatch(play: Play) -> Mismatch | None:
    if play.mismatch is None:
        return None
    return Mismatch("the GDL", list(play.moves), play.mismatch, "playouts")


def _asp_replay(d: Differential, encoding: AspEncoding, plays: list[Play], limits: Limits | None = None
                ) -> tuple[Mismatch | None, int, int]:
    """The plays' first ASP_MAX_DEPTH moves on the ASP encoding, grounded once for one step (tgpl.asp.asp_trace),
    under the command's `limits` (LimitReached past them: the grounding and the solves are the command's work)."""
    plays = [p for p in plays if p.steps]
    if not plays:
        return None, 0, 0
    trace = AspTrace(encoding, limits=limits)
    steps = 0
    for play in plays:
        joints = play.joints[:ASP_MAX_DEPTH]
        try:
            states = trace.run(joints)
        except SolverError as e:  # not one answer set: the encoding is broken for this play
            return Mismatch("the ASP program", play.moves[:len(joints)], Difference(error=f"clingo: {e}"),
                            "ASP replay"), 0, steps
        for t, (want, got) in enumerate(zip(play.steps, states)):
            diff = d.asp_compare(want, got)
            steps += 1
            if diff is not None:
                return Mismatch("the ASP program", play.moves[:t], diff, "ASP replay"), 0, steps
    return None, len(plays), steps


# --------------------------------------------------------------- locations
def mismatch_diagnostics(mismatch: Mismatch, game: Game, lowered: LoweredGame, seed: int = 0) -> list[Diagnostic]:
    """The mismatch as located diagnostics: at the action of the last move, then at each differing attribute.

    The first holds the move sequence (one per line, as `tgpl play --moves` reads
    them) and what differs; the others point at the declarations of the
    attributes whose fluents differ. Without a move (the initial states differ),
    the first points at the game file's start.
    """
    main = game.program.main
    last = len(mismatch.moves) - 1
    while last >= 0 and _random_faces(mismatch.moves[last]) is not None:
        last -= 1  # random's move: the draws of the move before it, whose action is located
    before = _replay(game, seed, mismatch.moves[:last]) if last >= 0 else None
    count = len(mismatch.moves)
    what = f"{mismatch.other} differs from the runtime after {count} move{'s' * (count != 1)}"
    notes = []
    if mismatch.moves:
        notes.append("the moves, as `tgpl play --moves` reads them:\n" + "".join(f"    {m}\n" for m in mismatch.moves)
                     .rstrip("\n"))
    notes += mismatch.difference.lines(mismatch.other)
    notes.append(f"found by {mismatch.found_by}: a bug of the lowering, please report it")
    span = None
    if before is not None:
        span, action = _action_span(before, mismatch.moves[last])
        thrown = _phase_throws_of(game.program, _random_faces(mismatch.moves[-1])) if last < count - 1 else []
        if action and thrown:  # random's throw as the flow entered a phase (decision 117): at the phase's die
            phases = " or ".join(f"phase {phase}" for phase, _ in thrown)
            what += f"; the last move is random's, throwing the dice of {phases} as the flow enters it after {action}"
            notes.insert(0, f"the move that entered the phase: {action}" + (f", declared at {span}" if span else ""))
            span = thrown[0][1]
        elif action and last < count - 1:
            what += f"; the last move is random's, drawing for {action}"
        elif action:
            what += f"; the last move is {action}"
    out = [Diagnostic(Severity.ERROR, span or Span(main, 1, 1, 1, 1), what, tuple(notes))]
    after = _replay(game, seed, mismatch.moves)
    out += _attribute_diagnostics(mismatch, lowered, after or before)
    return out


def _replay(game: Game, seed: int, moves: list[str]) -> State | None:
    """The runtime's state after `moves`, or None when they do not replay (a runtime error), played as the
    validation plays it: random's `(roll k ...)` after a move are that move's draws (face k the draw k - 1),
    random's first move setup's k-th way, and the decks the lowering deals from dealt at pop()
    (tgpl.runtime.dealing)."""
    deals = dealt_decks(game.program)[0].classes
    chances = ChanceMachine(game, seed)
    numbers = rosters(dealing(game.initial_state(seed), deals), deals) if deals else {}
    plan = setup_deals(game, seed)
    try:
        first = _random_faces(moves[0]) if moves else None
        if plan is not None and first is not None:  # setup's deals, random's first moves (tgpl.setup_deals)
            faces = [_random_faces(m) for m in moves[:plan.count]]
            state = plan.run(plan.draws([f[0] for f in faces if f is not None]))[0]
            numbers = {plan.deck: plan.roster}
            moves = moves[plan.count:]
        elif first is not None:  # setup's dice: random's first move (tgpl.lowering.chance.setup_throw)
            state = chances.setup_runs()[first[0] - 1][3]
            moves = moves[1:]
        else:
            state = game.initial_state(seed)
        if deals:
            state = dealing(state, deals)
        for i, m in enumerate(moves):
            if _random_faces(m) is not None:
                continue  # played with the move before it
            faces = _random_faces(moves[i + 1]) if i + 1 < len(moves) else None
            if faces is None:
                state = state.apply(m)
                continue
            draws = tuple(f - 1 for f in faces)
            if len(faces) == 1 and numbers:  # a deal's face, or a die's: whichever gives the item it names
                dealt = chances.apply_drawn(state, m, (0,))
                if dealt_face(numbers, state, dealt) is not None:
                    found = dealt_draw(numbers, state, faces[0])
                    if found is None:
                        return None  # no deck holds the item: random could not deal it
                    draws = (found,)
            state = chances.apply_drawn(state, m, draws)
    except (TGPLRuntimeError, IllegalMove, ChanceUnsupported, IndexError, ValueError):
        return None
    return state


def _random_faces(text: str) -> tuple[int, ...] | None:
    """The faces of random's move `(roll 3)`, `(roll2 1 4)`, as a mismatch's moves write it; None for another."""
    parts = text.strip("()").split()
    if not (text.startswith("(") and parts and parts[0] == roll_name(len(parts) - 1) and len(parts) > 1
            and all(p.isdigit() for p in parts[1:])):
        return None
    return tuple(int(p) for p in parts[1:])


def _phase_throws_of(program, faces: tuple[int, ...] | None) -> list[tuple[str, Span]]:
    """The phases whose dice random's move of `faces` may throw as the flow enters them (`phase_rolls`: as many
    dice, no face past its die's sides), each with its first die; none where an action's own dice may be it."""
    if not faces:
        return []
    fits = lambda t: len(t.dice) == len(faces) and all(f <= d.sides for f, d in zip(faces, t.dice))
    if any(fits(t) for t in action_rolls(program)[0].values()):
        return []
    return [(phase, t.dice[0].call.span) for (_, phase), t in phase_rolls(program)[0].items() if fits(t)]


def _action_span(state: State, text: str) -> tuple[Span | None, str | None]:
    """Where the action of the move `text` in `state` is declared, and what to call it."""
    move = state.move_by_text(text)
    if move is None:
        return None, None
    if move.obj is None:  # a choice: of the input the game asked for, in the action that began the segment
        request = state.request
        where = f"the choice '{text}' for input '{request.name}'" if request is not None else f"the choice '{text}'"
        return (request.span if request is not None else None), where
    obj = state.world.named(move.obj)
    action = obj.cls.find_action(move.action) if obj is not None else None
    if action is None:
        return None, None
    return action.defn.name_span, f"action '{move.action}' of {move.obj}"


def _attribute_diagnostics(mismatch: Mismatch, lowered: LoweredGame, state: State | None) -> list[Diagnostic]:
    """One diagnostic per attribute whose fluent differs, at its declaration, with both sides' values."""
    if state is None:
        return []
    runtime_only, other_only = mismatch.difference.fluents
    theirs: dict[tuple[str, str], list[str]] = {}
    for text in runtime_only + other_only:
        origin = _fluent_origin(lowered, text)
        if origin is not None:
            values = theirs.setdefault(origin[:2], [])
            if text in other_only:
                values.append(origin[2])
    out = []
    for (obj_name, attr), values in theirs.items():
        obj = state.world.named(obj_name)
        found = obj.cls.info.find_attribute(attr) if obj is not None else None
        decl = found[0].attributes.get(attr) if found is not None else None
        if decl is None:
            continue
        fields = state.world.fields(obj) if obj is not None else {}
        mine = show(fields[attr]) if attr in fields else "no value"
        out.append(Diagnostic(
            Severity.ERROR, decl.name_span,
            f"attribute '{attr}' of {obj_name} differs: {mine} in the runtime, "
            f"{' and '.join(values) or 'no value'} in {mismatch.other}"))
    return out


def _fluent_origin(lowered: LoweredGame, text: str) -> tuple[str, str, str] | None:
    """The object and attribute a fluent stands for, and its value (an object's name, else GDL text).

    None for the control and result fluents. Reads the emitter's name tables (GDL
    name -> what it names), the inverse of how it names attributes and objects.
    """
    try:
        term = read_term(text)
    except KifError:
        return None
    if not isinstance(term, Func) or len(term.args) != 2:
        return None
    names = lowered.emitter.names.taken
    attr = lowered.emitter.attribute_named(term.name)
    obj = names.get(str(term.args[0]))
    if attr is None or not (isinstance(obj, tuple) and obj[0] == "obj"):
        return None
    value = names.get(str(term.args[1]))
    return obj[1], attr, value[1] if isinstance(value, tuple) and value[0] == "obj" else str(term.args[1])


__all__ = ["Difference", "Differential", "Mismatch", "NOT_VALIDATED", "Play", "STATE_BOUND", "Step", "Validation",
           "mismatch_diagnostics", "runtime_goals", "validate_translation"]
