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

    result = validate_translation(game, lowered, seed=0, seconds=10)
    result.ok, result.summary()       # "validated: bisimulation, 5,478 states; 4.8 s"
    mismatch_diagnostics(result.mismatch, game, lowered, seed)   # located, for the CLI

Two modes, in this order:

- **bisimulation**: both sides explored together breadth first, a state of the
  product being a runtime state with the GDL state reached by the same moves,
  each compared as above. It is complete when the product has at most
  STATE_BOUND states and is explored within EXPLORE_SHARE of the time budget;
  it stops as soon as it passes either, so a huge game is not explored first to
  find out that it is huge. The states it did explore stay validated.
- **playouts**: seeded random plays, compared at every step, for the rest of the
  budget; each is cut at a depth chosen from the cost of the first ones, so that
  the budget covers about TARGET_PLAYOUTS of them.

With an ASP encoding (`tgpl to-asp`), up to ASP_REPLAYS of the plays are also
replayed on it (tgpl.asp.asp_trace, grounded once): legal moves, terminal
status and goals at every step.

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
from typing import Callable, Iterator

from tgpl.asp.asp_emit import AspEncoding
from tgpl.asp.asp_trace import AspTrace
from tgpl.asp.asp_trace import Step as AspStep
from tgpl.asp.kif import KifError, read_term
from tgpl.asp.reasoner import GdlError, GdlGame, GdlState, state_or_error
from tgpl.asp.solver import SolverError
from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.lowering.emit import LoweredGame
from tgpl.lowering.ir import Const, Func, Term
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, IllegalMove, State
from tgpl.runtime.snapshot import fields_snapshot, snapshot
from tgpl.runtime.values import show
from tgpl.runtime.verify import RuntimeMachine
from tgpl.verify.graph import Info, explore

STATE_BOUND = 100_000  # the most product states the bisimulation explores
EXPLORE_SHARE = 0.9  # of the time budget, the most the bisimulation may take before playouts take over
TARGET_PLAYOUTS = 25  # the depth cut is chosen so that the budget covers about this many playouts
PROBES = 3  # plays whose cost per step chooses the depth cut
MAX_DEPTH = 1000  # no playout goes deeper
GIVE_UP_SHARE = 0.05  # of the time budget, the exploration before its rate is trusted to say it cannot finish
SHRINK_SECONDS = 2.0  # after a mismatch in a playout, the most time spent looking for a shorter one
ASP_REPLAYS = 20  # plays replayed on the ASP encoding
ASP_MAX_DEPTH = 100  # their first moves at most: the encoding is grounded for that many steps
NOOP = Const("noop")
FIRST_BATCH = 8  # states a batched playout asks the GDL for at once, until it knows what one costs
BATCH = 256  # ... then at most this many a worker (chess's validation: 2,500-2,700 steps, 2,200-2,400 at 128)


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
    """The runtime's goals as GDL has them: none at all for a ranking that names nobody (`winner {}`)."""
    if not any(state.ranking):
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
    ended: bool = False
    mismatch: Difference | None = None


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
        self._query_seconds: float | None = None  # what a batched GDL query has cost, the last batch
        self._answered: float | None = None  # when the last batch's answers came back
        self._paced_by = 0  # the states of that batch

    @cached_property
    def initial(self) -> State:
        """The runtime's initial state, made once: states are immutable, and chess's setup takes 30 ms."""
        return self.game.initial_state(self.seed)

    def start(self) -> tuple[State, GdlState]:
        return self.initial, self.gdl.initial_state()

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
        mapped = {self.texts.get(m, f"{m} (a move with no runtime text)") for m in texts[mover]}
        d.legal = (sorted(set(mine) - mapped), sorted(mapped - set(mine)))
        d.others = [f"{self.roles[i]} may play {', '.join(ms) or 'nothing'}, not only noop"
                    for i, ms in enumerate(texts) if i != mover and ms != ["noop"]]

    def joint(self, state: State, text: str) -> tuple[Term, ...]:
        """The GDL joint move of the runtime's move `text` in `state`: the mover's term, `noop` for the others."""
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

        With `until` (a time.perf_counter() reading), the play also stops once that
        time has passed, after one move at least. A runtime error is a difference (the
        lowering assumes the game never reaches one); its exception is kept in the
        difference's `runtime_error`.
        """
        if self.gdl.batches and fluents:
            return self.playouts([rng], max_steps, until)[0]
        play = Play()
        state, g = self.start()
        while True:
            diff = self.compare(state, g, fluents)
            if diff is not None:
                play.mismatch = diff
                return play
            play.steps.append(self.step(state))
            if state.is_terminal or len(play.moves) >= max_steps or not play.steps[-1].legal or (
                    until is not None and play.moves and time.perf_counter() >= until):
                play.ended = state.is_terminal
                return play
            move = rng.choice(play.steps[-1].legal)
            joint = self.joint(state, move)
            play.moves.append(move)
            play.joints.append(joint)
            try:
                state, g = state.apply(move), g.apply(joint)
            except TGPLRuntimeError as e:
                play.mismatch = Difference(runtime_error=e)
                return play
            except GdlError as e:
                play.mismatch = Difference(error=str(e))
                return play

    def playouts(self, rngs: list[random.Random], max_steps: int, until: float | None = None) -> list[Play]:
        """A `playout` for each of `rngs`, the same plays and comparisons. For a GDL played one state at a
        time (GdlGame.batches) they are played together (`stream`)."""
        if not self.gdl.batches:
            return [self.playout(rng, max_steps, until=until) for rng in rngs]
        out: list[Play] = [Play() for _ in rngs]
        for k, play in self.stream(iter(rngs), max_steps, until):
            out[k] = play
        return out

    def stream(self, rngs: Iterator[random.Random], max_steps: int | Callable[[int], int],
               until: float | None = None) -> Iterator[tuple[int, Play]]:
        """For a GDL played one state at a time (GdlGame.batches): a `playout` for each of `rngs`, yielded as
        (its index, the play) once it is done; a new play starts as soon as the runtime has played the moves
        of the plays before, so that every batch is full until `until` (or until `rngs` runs out). `max_steps`
        may be a function of a play's index, asked when the play starts.

        The runtime goes first: it plays ahead, play after play, until a batch of states is ready, and the GDL
        states after those moves are asked for in one grounding, each from the runtime's state before the
        move (GdlGame.states_after). Up to a play's first mismatch the runtime's states are the GDL's, so that
        mismatch is the one `playout` finds. While the GDL's workers ground a batch (GdlGame.parallel), the
        runtime plays the next one, and that one is handed to the workers before this one's answers are
        compared: the workers never wait for the comparison.

        Why: a per-state query costs three to four times more alone than in a batch (chess's compiled
        moves: 80 ms against 25). A batch is sized from the cost of the queries so far, so that `until` is
        overshot by little more than one query."""
        source = enumerate(rngs)
        ahead: deque[_BatchedRun] = deque()  # the runs the runtime may still play on
        live: dict[int, _BatchedRun] = {}  # the runs not yielded yet, by index
        pending: deque[tuple[list[tuple[_BatchedRun, _Ahead]], Callable[[], list], float]] = deque()
        batch: list[tuple[_BatchedRun, _Ahead]] = []  # states played and not handed out yet
        busy_until = time.perf_counter()  # when the batches handed out should be answered (`_query_seconds`)
        stopping = False  # no more batches: `until` has come (or not one more state fits), or every play is played

        def hand_out() -> bool:
            """The states played (`batch`) handed to the workers, or the part of them that fits before `until`;
            False where they wait for a batch handed out before to come back and be sized again then."""
            nonlocal batch, busy_until, stopping
            now = time.perf_counter()
            q = self._query_seconds
            start = max(busy_until, now) if pending else now  # nothing handed out: the workers are idle
            fit = len(batch) if until is None or not q else int((until - start) / q)
            # a batch that would end past `until` waits for the one before to come back, and is sized again
            # then; with none before, the part that fits is handed out and the rest waits for it: a pace
            # measured on a busy machine must not end the plays before `until`
            if fit < len(batch) and pending:
                return False
            if fit < 1:
                stopping, batch = True, []  # not one state more fits
                return False
            out, batch = batch[:fit], batch[fit:]
            busy_until = start + len(out) * (q or 0.0)
            pending.append((out, self.gdl.states_later([step.query for _, step in out]), now))
            return True

        while True:
            if not stopping and not (self._query_seconds is None and pending):
                now = time.perf_counter()
                size = self._batch_size(until, max(busy_until, now) if pending else now)
                while len(batch) < size and not (until is not None and time.perf_counter() >= until):
                    if not ahead:
                        nxt = next(source, None)
                        if nxt is None:
                            break
                        cut = max_steps(nxt[0]) if callable(max_steps) else max_steps
                        live[nxt[0]] = run = _BatchedRun(self, nxt[1], cut)
                        ahead.append(run)
                    step = ahead[0].advance()
                    if step is None:
                        ahead.popleft()
                    else:
                        batch.append((ahead[0], step))
                if until is not None and time.perf_counter() >= until:
                    stopping, batch = True, []  # never handed out: those plays end before these states
                elif not batch:
                    stopping = True  # every play is played out
            handed = bool(batch) and hand_out()
            if not pending:
                break
            if len(pending) > 1 or not handed or self._query_seconds is None:
                asked, answers, submitted = pending.popleft()
                got = answers()
                now = time.perf_counter()
                # the workers' pace: from when this batch was handed out, or when the one before it came back
                self._query_seconds = (now - max(submitted, self._answered or submitted)) / len(asked)
                self._answered, self._paced_by = now, len(asked)
                if batch and not stopping:  # a batch that waited for this one goes before the comparison
                    hand_out()
                for (run, step), g in zip(asked, got):
                    run.compare(step, g)
                done = [k for k, run in live.items() if run.done(stopping)]
                for k in done:
                    yield k, live.pop(k).finish()
        for k in sorted(live):
            yield k, live.pop(k).finish()

    def _batch_size(self, until: float | None, start: float) -> int:
        """How many states the next stretch of a batched playout asks for: FIRST_BATCH until a query's cost is
        known, then BATCH a worker (GdlGame.parallel: a grounding has a fixed cost, chess's rules and 8,400
        static facts 70 ms, 1.1 ms a state in shares of 64, 0.27 in shares of 256), fewer where `until`
        comes first (the workers start on it at `start`)."""
        if self._query_seconds is None:
            return FIRST_BATCH
        most = self.most_batch()
        if until is None or self._paced_by < most // 2:
            return most  # a small batch's pace overstates a full one's (its grounding's fixed cost): not sized by it
        return max(2, min(most, int((until - start) / self._query_seconds) + 1))

    def pace(self) -> float | None:
        """Seconds a state of a batched playout costs: the last batch's pace (from when it was handed out, or
        when the one before it came back, to its answers); None before a batch came back."""
        return self._query_seconds

    def most_batch(self) -> int:
        """The most states a batch asks for: BATCH a worker, with workers (GdlGame.parallel)."""
        return BATCH * max(1, self.gdl.workers)

    def encoded(self, state: State) -> frozenset[str]:
        """The runtime state's GDL fluents (LoweredGame.state_fluents), from a snapshot of only what they read
        where the lowering says what that is."""
        fields = self._fields
        return self.lowered.state_fluents(snapshot(state) if fields is None else fields_snapshot(state, fields))

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
        elif play.mismatch is None and self.compared is not None:
            play.ended = self.compared.is_terminal
        return play


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
    """What was validated, and the mismatch found if any."""

    seconds: float = 0.0
    states: int = 0  # product states compared by the (possibly incomplete) bisimulation
    complete: bool = False  # the bisimulation covered every reachable state
    playouts: int = 0
    steps: int = 0  # states compared along the playouts
    depth_cut: int = 0
    asp_replays: int = 0
    asp_steps: int = 0
    mismatch: Mismatch | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def summary(self) -> str:
        """One line for the output's header and `--stats`."""
        if self.complete:
            text = f"validated: bisimulation, {self.states:,} states"
        else:
            text = f"validated: {self.playouts:,} playouts, {self.steps:,} steps compared (depth cut {self.depth_cut})"
            if self.states:
                text += f", after {self.states:,} states explored breadth first"
        if self.asp_replays:
            text += f"; ASP: {self.asp_replays} plays replayed, {self.asp_steps:,} steps compared"
        return f"{text}; {self.seconds:.1f} s"


NOT_VALIDATED = "not validated (--no-validate)"

Progress = Callable[[str], None]


def validate_translation(game: Game, lowered: LoweredGame, seed: int = 0, seconds: float = 10.0,
                         asp: AspEncoding | None = None, progress: Progress | None = None,
                         state_bound: int | None = None) -> Validation:
    """Compare `lowered` (the game after setup with `seed`) with the runtime's `game` within about `seconds`.

    With `asp`, the ASP encoding of the same lowered program is checked too.
    `progress` receives a line now and then (for a terminal). The bisimulation
    explores at most `state_bound` product states (default STATE_BOUND).
    """
    start = time.perf_counter()
    gdl = reasoner_for(lowered)
    # What is alive now (the game, its lowering, the parsed rules: chess's 200,000 objects) lives until the
    # validation ends: kept out of the collector's passes (a full one cost 0.1 s, in the budget), and out of
    # the pages the forked workers would copy when a pass of theirs touches it (what gc.freeze is made for).
    # Garbage among it waits for the end, when it is unfrozen: it is already there, so memory grows no more.
    gc.freeze()
    try:
        with gdl.parallel():  # batches of states shared with worker processes (GdlGame.parallel)
            return _validated(Differential(game, lowered, seed, gdl), start, seconds, asp, progress, state_bound)
    finally:
        gc.unfreeze()


def _validated(d: Differential, start: float, seconds: float, asp: AspEncoding | None, progress: Progress | None,
               state_bound: int | None) -> Validation:
    deadline = start + seconds
    say = progress or (lambda line: None)
    result = Validation()
    bound = STATE_BOUND if state_bound is None else state_bound
    bfs = _Bisimulation(d, start + seconds * EXPLORE_SHARE, bound, say, seconds * GIVE_UP_SHARE)
    result.mismatch = bfs.run()
    result.states, result.complete = bfs.compared, bfs.complete
    plays: list[Play] = []
    if result.mismatch is None and not result.complete:
        gc.collect()  # what the exploration left, now rather than during the play that sets the depth cut
        plays, result.mismatch, result.depth_cut = _playouts(d, deadline, bfs.depth + 1, say)
        result.playouts, result.steps = len(plays), sum(len(p.steps) for p in plays)
    if asp is not None and result.mismatch is None:
        if not plays:  # the bisimulation left no plays to replay: make a few (cheap, the game is small)
            plays = [d.playout(_rng(d, k), ASP_MAX_DEPTH) for k in range(ASP_REPLAYS)]
        say("replaying plays on the ASP program")
        result.mismatch, result.asp_replays, result.asp_steps = _asp_replay(d, asp, plays[:ASP_REPLAYS])
    result.seconds = time.perf_counter() - start
    return result


def _without_flow(fluents) -> set[str]:
    """The fluents but `control` and `result` (tgpl.lowering.emit's names for the flow and the ranking)."""
    return {f for f in fluents if not f.startswith(("(control ", "(result "))}


class _OutOfTime(Exception):
    pass


class _Found(Exception):
    def __init__(self, mismatch: Mismatch):
        self.mismatch = mismatch


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
    the bound, or more seen and not yet compared than the rate so far would compare
    before the deadline. A huge game is given up on after GIVE_UP_SHARE of the budget
    (half a second of the default ten).
    """

    def __init__(self, d: Differential, deadline: float, bound: int, say: Progress, trusted: float):
        self.d = d
        self.start = time.perf_counter()
        self.deadline = deadline
        self.trusted = trusted  # seconds of exploration before its rate is trusted (GIVE_UP_SHARE)
        self.bound = bound
        self.say = say
        self.runtime = RuntimeMachine(d.game, d.seed)
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
        now = time.perf_counter()
        if now > self.deadline or self.seen > self.bound:
            return True
        elapsed = now - self.start
        return elapsed > self.trusted and self.seen - self.compared > self.compared / elapsed * (self.deadline - now)

    # the Machine protocol of tgpl.verify.graph
    def initial(self) -> _Pair:
        state = self.runtime.initial()
        try:
            return _Pair(state, self.d.gdl.initial_state(), None, 0)
        except GdlError as e:  # e.g. an init fluent outside base
            return _Pair(state, None, None, 0, Difference(error=str(e)))

    def key(self, pair: _Pair):
        if pair.error is not None:
            return pair  # never merged with another
        return pair.state.key(), pair.g.key()

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
        diff = pair.error or self.d.compare(pair.state, pair.g)
        if diff is not None:
            raise _Found(Mismatch("the GDL", _moves(pair.path), diff, "bisimulation"))
        self.compared += 1
        state = pair.state
        if state.is_terminal:
            return Info(True, [], (), (), [])
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

    def _after(self, g: GdlState, joints: list[tuple[Term, ...]]) -> list[GdlState | GdlError]:
        """The GDL states after each joint move from `g`, all in one grounding for a game played one state at a
        time (GdlGame.states_after: chess's 20 first moves in 0.6 s, not 1.6 s). The moves are legal in `g`:
        its legal moves were compared with the runtime's before it was expanded."""
        if self.d.gdl.batches:
            return self.d.gdl.states_after([(g.fluents, joint) for joint in joints])
        return [state_or_error(g.apply, joint) for joint in joints]


def _playouts(d: Differential, deadline: float, min_depth: int,
              say: Progress) -> tuple[list[Play], Mismatch | None, int]:
    """Seeded random plays until `deadline`; the plays, the shortest mismatch found and the depth cut.

    The first PROBES plays go as deep as a TARGET_PLAYOUTS-th of the remaining time
    allows each (at most MAX_DEPTH moves); their cost per step fixes the depth cut of
    the others, at least `min_depth`: the bisimulation compared every state before
    it, so no shorter mismatch is looked for either. A probe's cost is the median of
    theirs (a shared machine has its moments). A GDL played one state at a time has
    no probes: its plays are one stream of batches, each play's cut chosen from the
    batches' pace when it starts (`_streamed`).
    """
    slice_ = max(deadline - time.perf_counter(), 0.0) / TARGET_PLAYOUTS
    if d.gdl.batches:
        return _streamed(d, deadline, min_depth, slice_, say)
    plays: list[Play] = []
    costs = []
    found = None
    while found is None and len(plays) < PROBES:
        start = time.perf_counter()
        play = d.playout(_rng(d, len(plays)), MAX_DEPTH, until=start + slice_)
        costs.append((time.perf_counter() - start) / max(len(play.steps), 1))
        plays.append(play)
        found = _mismatch(play)
    per_step = sorted(costs)[len(costs) // 2]
    depth = max(min_depth, max(len(p.moves) for p in plays), _affordable(slice_, per_step))
    while found is None and time.perf_counter() < deadline:
        plays.append(d.playout(_rng(d, len(plays)), depth))
        found = _mismatch(plays[-1])
        if len(plays) % 10 == 0:
            say(f"playouts: {len(plays):,} played, {sum(len(p.steps) for p in plays):,} steps compared")
    return plays, _shrunk(d, plays, found, min_depth, deadline), depth


def _streamed(d: Differential, deadline: float, min_depth: int, slice_: float,
              say: Progress) -> tuple[list[Play], Mismatch | None, int]:
    """`_playouts` of a GDL played one state at a time: one stream of batches (Differential.stream) until
    `deadline`, with no probes. The first play fills the first batch (FIRST_BATCH states), which measures the
    workers' pace; each later play's cut is chosen when it starts, from the pace then (Differential.pace), so
    the first plays are short and the later ones as deep as a slice of the budget each allows. Why: probes
    played apart went in batches of a few dozen states, each a grounding's fixed cost, and chess's stream
    started a second later; the depth cut is the last play's."""
    depth = max(min_depth, 1, FIRST_BATCH - 1)

    def cut(k: int) -> int:
        nonlocal depth
        per_step = d.pace()
        if per_step is not None:
            depth = max(min_depth, 1, _affordable(slice_, per_step))
        return depth

    plays: list[tuple[int, Play]] = []
    found = None
    for k, play in d.stream((_rng(d, k) for k in itertools.count()), cut, deadline):
        plays.append((k, play))
        found = _mismatch(play)
        if found is not None:
            break
        if len(plays) % 10 == 0:
            say(f"playouts: {len(plays):,} played, {sum(len(p.steps) for _, p in plays):,} steps compared")
    ordered = [play for _, play in sorted(plays, key=lambda kp: kp[0])]
    return ordered, _shrunk(d, ordered, found, min_depth, deadline), depth


def _affordable(slice_: float, per_step: float) -> int:
    """The moves a play can take in `slice_` seconds at `per_step` seconds a step, at most MAX_DEPTH."""
    return min(MAX_DEPTH, int(slice_ / per_step) if per_step > 0 else MAX_DEPTH)


def _shrunk(d: Differential, plays: list[Play], found: Mismatch | None, min_depth: int, deadline: float
            ) -> Mismatch | None:
    """After a mismatch in a playout, a shorter one looked for a little longer (more plays, each cut short
    of it), where one may be."""
    if found is not None:
        until = min(deadline, time.perf_counter() + SHRINK_SECONDS)
        while len(found.moves) > max(min_depth, 1) and time.perf_counter() < until:
            play = d.playout(_rng(d, len(plays)), len(found.moves) - 1)
            plays.append(play)
            found = _mismatch(play) or found
    return found


def _rng(d: Differential, k: int) -> random.Random:
    """The random choices of play k: its own seed, so that the k-th play is the same on every run
    (only where it is cut depends on the machine's speed)."""
    return random.Random(f"tgpl validate {d.seed} {k}")


def _mismatch(play: Play) -> Mismatch | None:
    if play.mismatch is None:
        return None
    return Mismatch("the GDL", list(play.moves), play.mismatch, "playouts")


def _asp_replay(d: Differential, encoding: AspEncoding, plays: list[Play]) -> tuple[Mismatch | None, int, int]:
    """The plays' first ASP_MAX_DEPTH moves on the ASP encoding, grounded once for the longest."""
    plays = [p for p in plays if p.steps]
    if not plays:
        return None, 0, 0
    horizon = max(min(len(p.joints), ASP_MAX_DEPTH) for p in plays)
    trace = AspTrace(encoding, horizon=horizon)
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
    before = _replay(game, seed, mismatch.moves[:-1])
    count = len(mismatch.moves)
    what = f"{mismatch.other} differs from the runtime after {count} move{'s' * (count != 1)}"
    notes = []
    if mismatch.moves:
        notes.append("the moves, as `tgpl play --moves` reads them:\n" + "".join(f"    {m}\n" for m in mismatch.moves)
                     .rstrip("\n"))
    notes += mismatch.difference.lines(mismatch.other)
    notes.append(f"found by {mismatch.found_by}: a bug of the lowering, please report it")
    span = None
    if before is not None and mismatch.moves:
        span, action = _action_span(before, mismatch.moves[-1])
        if action:
            what += f"; the last move is {action}"
    out = [Diagnostic(Severity.ERROR, span or Span(main, 1, 1, 1, 1), what, tuple(notes))]
    after = _replay(game, seed, mismatch.moves)
    out += _attribute_diagnostics(mismatch, lowered, after or before)
    return out


def _replay(game: Game, seed: int, moves: list[str]) -> State | None:
    """The runtime's state after `moves`, or None when they do not replay (a runtime error)."""
    state = game.initial_state(seed)
    try:
        for m in moves:
            state = state.apply(m)
    except (TGPLRuntimeError, IllegalMove):
        return None
    return state


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
    attr = lowered.emitter.attr_names.taken.get(term.name)
    obj = names.get(str(term.args[0]))
    if attr is None or not (isinstance(obj, tuple) and obj[0] == "obj"):
        return None
    value = names.get(str(term.args[1]))
    return obj[1], attr, value[1] if isinstance(value, tuple) and value[0] == "obj" else str(term.args[1])


__all__ = ["Difference", "Differential", "Mismatch", "NOT_VALIDATED", "Play", "STATE_BOUND", "Step", "Validation",
           "mismatch_diagnostics", "runtime_goals", "validate_translation"]
