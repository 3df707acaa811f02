"""A chance game's decision states with every outcome of its draws: what `tgpl verify` explores as chance nodes.

The runtime draws every random number through the world's generator (`World.random`, `Pcg32.below`).
`ChanceMachine` plays a move with a generator whose draws are chosen instead (`ScriptedDraws`) and plays
it again for every sequence of draws the move can make, odometer-wise (the last draw first): a roll of a
die is 6 runs, a shuffle of k items k! (Fisher-Yates draws below(k), below(k - 1), ..., below(2)). Each
sequence has the probability of its draws, 1/n each, and sequences that give the same state are one
outcome, their probabilities summed. A move that drew leads to a *chance node* (`ChanceNode`), whose
successors are its outcomes; setup's draws make the first state a chance node. Every state keeps one
canonical generator (seeded with the seed asked), so states that differ only by the draws that led there
are one: what comes next is decided by the chance nodes, not by the generator's state. With `deals` (the deck
classes the GDL-II lowering deals from at pop(), tgpl.runtime.dealing) the game starts from the seed's setup,
dealt at pop() from there: each pop() is a chance node over the items left, as random's deal is in the GDL.

Beyond `max_outcomes` sequences for one move, `TooManyOutcomes`; a choice asked in the middle of a move
after a draw, resumed at a phase's entry, `ChanceUnsupported` (the draws made before the entry are not
replayed there): `tgpl verify` then explores one seed's game, as for a game too large for this.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from hashlib import blake2b
from marshal import dumps

from tgpl.runtime.dealing import dealing
from tgpl.runtime.game import PHASE_ENTRY, State
from tgpl.runtime.rng import Pcg32
from tgpl.runtime.values import World
from tgpl.verify.graph import Info
from tgpl.verify.runtime_machine import RuntimeMachine


class TooManyOutcomes(Exception):
    """A move (or setup) with more sequences of draws than the machine may enumerate."""


class ChanceUnsupported(Exception):
    """Draws this machine cannot replay faithfully (see the module's docstring)."""


class _Script:
    """The draws of one run: the values to give (a fixed prefix, then 0 for each new draw) and the bound of
    each draw made, in order."""

    __slots__ = ("values", "bounds")

    def __init__(self, prefix: tuple[int, ...] = ()):
        self.values = list(prefix)
        self.bounds: list[int] = []

    def draw(self, n: int) -> int:
        at = len(self.bounds)
        if at == len(self.values):
            self.values.append(0)
        v = self.values[at]
        if v >= n:  # a replayed prefix whose draws went otherwise: the move's code is not what it was
            raise ChanceUnsupported(f"a replayed draw of {v} below {n}")
        self.bounds.append(n)
        return v


class ScriptedDraws(Pcg32):
    """A generator whose every draw comes from a `_Script`; copies share it, so that a world copied while a
    move runs draws from the same script."""

    __slots__ = ("script",)

    def __init__(self, script: _Script):  # no seeding: nothing here is random
        self.script = script
        self.state, self.inc = 0, 1

    def copy(self) -> ScriptedDraws:
        return self

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self.script.draw(n)

    def next_u32(self) -> int:  # every draw of the runtime goes through below(); a raw one would escape the script
        raise ChanceUnsupported("a raw 32-bit draw")


@dataclass
class ChanceNode:
    """A move played (or setup), before its draws are known: its outcomes, each with its probability and the
    draws that first gave it (`(chance: 2/6)`: the draw 2 of 0..5)."""

    key: bytes
    outcomes: list[tuple[Fraction, str, State]] = field(default_factory=list)
    handed: bool = False  # its outcomes were given to explore as successors, which releases them


def _outcome_text(values: list[int], bounds: list[int], start: int) -> str:
    return "(chance: " + ", ".join(f"{v}/{n}" for v, n in zip(values[start:], bounds[start:])) + ")"


class ChanceMachine(RuntimeMachine):
    """`RuntimeMachine` with chance nodes: every outcome of every draw, each with its probability."""

    replay = None  # a frontier state cannot be rebuilt from move texts: outcomes are no moves of `tgpl play`

    def __init__(self, game, seed: int = 0, max_outcomes: int = 100_000, deals: frozenset[str] = frozenset(),
                 idle: frozenset[tuple[str, str]] = frozenset(), setup_deals=None, unread: frozenset[str] = frozenset(),
                 check: Callable[[], None] = lambda: None):
        super().__init__(game, seed, unread=unread)
        # the command's limits (tgpl.limits.Limits.check, raising LimitReached), checked at every run of a move or
        # of setup: a first state over setup's deals is a tree of them, built at once (Treasure's ran a minute past
        # `compare --max-seconds 20`), and one move's draws can be thousands of runs
        self.check = check
        # setup's deals as the GDL-II lowering makes them random's first moves (tgpl.setup_deals.SetupDeals, decision
        # 112): a chance node a deal, over the items left, before the state after setup
        self.setup_deals = setup_deals
        self.max_outcomes = max_outcomes
        self.outcomes = 0
        # the runs played: a move (or setup) is played once for each sequence of its draws, once when it draws
        # nothing. In a bisimulation of the GDL-II lowering each run is a successor its reasoner computes (random's
        # throw of those draws, or the move that draws nothing): what tgpl.validation counts to know whether one fits.
        self.runs = 0
        # the deck classes dealt at pop() (tgpl.runtime.dealing), as the GDL-II lowering deals them: the game
        # starts from the seed's setup, its pops the chance nodes, its shuffles none
        self.deals = deals
        # the actions (class name, action name) after whose every move the GDL-II lowering has random move, its
        # deal in a phase the move may enter (decision 106): a move of one that draws nothing is a chance node of
        # one outcome, as random's one move is there
        self.idle = idle

    # ------------------------------------------------------------ runs
    def _canonical(self, state: State, seldom_before) -> None:
        """The generator of a state made by a scripted run: the seed's, the same for every state (a world that
        drew has its own `Seldom`; one that did not shares its source's, whose generator is put back)."""
        seldom = state.world.seldom
        if seldom is not seldom_before and isinstance(seldom.rng, ScriptedDraws):
            seldom.rng = Pcg32(self.seed)

    def _enumerate(self, run, prefix: tuple[int, ...] = ()) -> list[tuple[Fraction, list[int], list[int], State]]:
        """Every sequence of draws `run(script)` can make after `prefix`, with its probability and the state."""
        out = []
        values: tuple[int, ...] = prefix
        start = len(prefix)
        while True:
            self.check()
            script = _Script(values)
            state = run(script)
            self.runs += 1
            p = Fraction(1)
            for n in script.bounds[start:]:
                p /= n
            out.append((p, script.values, script.bounds, state))
            if len(out) == 1 and 1 / p > self.max_outcomes:  # the first run's draws, as many each time
                raise TooManyOutcomes(f"about {int(1 / p)} outcomes of one move's draws")
            if len(out) > self.max_outcomes:
                raise TooManyOutcomes(f"more than {self.max_outcomes} outcomes of one move's draws")
            vals, bounds = script.values, script.bounds
            i = len(bounds) - 1
            while i >= start and vals[i] == bounds[i] - 1:
                i -= 1
            if i < start:
                return out
            values = tuple(vals[:i]) + (vals[i] + 1,)

    def _settle(self, state: State, values: list[int], bounds: list[int]) -> None:
        """A state from a scripted run: a pending one keeps the draws its segment made, replayed when it resumes."""
        if state.request is not None and bounds:
            if state.first is PHASE_ENTRY:
                raise ChanceUnsupported("a choice after a draw, resumed at a phase's entry")
            state.__dict__["_draws"] = tuple(values[:len(bounds)])

    def _apply_all(self, state: State, move) -> list[tuple[Fraction, list[int], list[int], State]]:
        prefix = state.__dict__.get("_draws", ()) if state.request is not None else ()
        return self._enumerate(lambda script: self._run(state, move, script), prefix)

    def apply_drawn(self, state: State, move, draws: tuple[int, ...]) -> State:
        """`move` played in `state` with its draws `draws` (each below its bound, in the order drawn; draws
        past those the move makes are left unused): the outcome a chance node would hold for them."""
        prefix = state.__dict__.get("_draws", ()) if state.request is not None else ()
        return self._run(state, move, _Script(tuple(prefix) + tuple(draws)))

    def apply_bounded(self, state: State, move, draws: tuple[int, ...]) -> tuple[State, list[int]]:
        """`move` played in `state` with the draws `draws`, then 0 for each draw past them: the outcome, and the
        bound of every draw the move made, in order (more than `draws` where it drew more; the validation of
        phases' throws compares them with random's steps, tgpl.validation.Differential.chained_throws)."""
        script = _Script(tuple(draws))
        return self._run(state, move, script), script.bounds

    def _run(self, state: State, move, script: _Script) -> State:
        """`move` played in `state` with the draws of `script`."""
        worlds = {id(w.seldom): w.seldom for w in (state.world, state.base) if w is not None}
        saved = {k: s.rng for k, s in worlds.items()}
        for s in worlds.values():
            s.rng = ScriptedDraws(script)
        try:
            nxt = state.apply(move)
        finally:
            for k, s in worlds.items():
                s.rng = saved[k]
        for s in worlds.values():
            if nxt.world.seldom is s:
                break
        else:
            self._canonical(nxt, None)
        self._settle(nxt, script.values, script.bounds)
        return nxt

    def _chance_node(self, key: bytes, runs, start: int, idle: bool = False) -> ChanceNode | State:
        """The outcomes of `runs`, states met twice merged; a run that drew nothing is its one state (`idle`: a
        chance node of that one outcome)."""
        if len(runs) == 1 and len(runs[0][2]) == start and not idle:
            return runs[0][3]
        node = ChanceNode(blake2b(b"chance" + key, digest_size=16).digest())
        by_key: dict[bytes, int] = {}
        for p, values, bounds, state in runs:
            k = self.key(state)
            at = by_key.get(k)
            if at is None:
                by_key[k] = len(node.outcomes)
                node.outcomes.append((p, _outcome_text(values, bounds, start), state))
            else:
                q, text, kept = node.outcomes[at]
                node.outcomes[at] = (q + p, text, kept)
                if kept is not state:
                    self.release(state)
        self.outcomes += len(node.outcomes)
        return node

    # ------------------------------------------------------------ the Machine
    def _setup_dealt(self, draws: tuple[int, ...]):
        """Setup's deals after `draws` (`setup_deals.node`): a chance node over the items left, each as likely, or
        the state after setup, dealt at pop() from there."""
        self.check()
        node = self.setup_deals.node(draws)
        if isinstance(node, State):
            state = dealing(node, self.deals)
            state.world.seldom.rng = Pcg32(self.seed)
            self._handed_out(state)
            return state
        out = ChanceNode(blake2b(b"setup deals" + dumps(draws, 2), digest_size=16).digest())
        self.outcomes += len(node)
        if self.outcomes > self.max_outcomes:
            raise TooManyOutcomes(f"more than {self.max_outcomes} outcomes of setup's deals")
        out.outcomes = [(Fraction(1, len(node)), f"(deal: {j})", self._setup_dealt(after)) for j, after in node]
        return out

    def initial(self):
        if self.setup_deals is not None:  # setup's deals, random's first moves
            return self._setup_dealt(())
        if self.deals:  # the seed's setup, dealt at pop() from there: its draws are the pops after it
            state = dealing(self.game.initial_state(self.seed), self.deals)
            state.world.seldom.rng = Pcg32(self.seed)  # as every state after a draw has it (`_canonical`)
            self._handed_out(state)
            return state
        runs = self.setup_runs()
        for *_, state in runs:
            self._handed_out(state)
        return self._chance_node(b"setup", runs, 0)

    def setup_runs(self) -> list[tuple[Fraction, list[int], list[int], State]]:
        """Every way setup's draws can go, in the odometer's order (the last draw first), each with its
        probability, its draws, their bounds and the state after setup: what the lowering makes random's first
        move of (tgpl.lowering.chance.setup_throw). Raises TooManyOutcomes past `max_outcomes`."""
        game = self.game

        def run(script: _Script) -> State:
            world = World(game.players, self.seed)
            world.seldom.rng = ScriptedDraws(script)
            state = State._run(game, world, None, [])
            self._canonical(state, None)
            self._settle(state, script.values, script.bounds)
            return state
        return self._enumerate(run)

    def key(self, state) -> bytes:
        if isinstance(state, ChanceNode):
            return state.key
        found = state.__dict__.get("_chance_key")
        if found is None:
            found = super().key(state)
            draws = state.__dict__.get("_draws")
            if draws:
                found = blake2b(found + dumps(draws, 2), digest_size=16).digest()
            state.__dict__["_chance_key"] = found
        return found

    def release(self, state) -> None:
        if isinstance(state, ChanceNode):
            if not state.handed:
                for _, _, s in state.outcomes:
                    self.release(s)
            state.outcomes = []
            return
        super().release(state)

    def leaf_info(self, state) -> Info:
        if isinstance(state, ChanceNode):
            return Info(False, [], (), (), [])
        return super().leaf_info(state)

    def info(self, state, successors: bool = True) -> Info:
        players = self.game.players
        if isinstance(state, ChanceNode):
            none = (None,) * players
            state.handed = successors
            moves = [(text, none, s) for _, text, s in state.outcomes]
            return Info(False, [], (), (), moves if successors else [], chances=[p for p, _, _ in state.outcomes])
        if state.is_terminal or not successors:
            return super().info(state, successors)
        p = state.active_player
        moves = state.legal_moves()
        joint = [None] * players
        out = []
        parent = self.key(state)
        prefix_len = len(state.__dict__.get("_draws", ())) if state.request is not None else 0
        for m in moves:
            j = list(joint)
            j[p] = m.text
            runs = self._apply_all(state, m)
            for *_, nxt in runs:
                self._handed_out(nxt)
            idle = m.obj is not None and (state.world.named(m.obj).cls.name, m.action) in self.idle
            out.append((m.text, tuple(j), self._chance_node(parent + m.text.encode(), runs, prefix_len, idle)))
        return Info(False, [], (p,), () if moves else (p,), out)
