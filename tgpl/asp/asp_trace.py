"""Reading a play back out of the time-indexed ASP encoding, to test it against the reasoner.

The encoding (tgpl.asp.asp_emit) and the reasoner (tgpl.asp.reasoner) are two
independent translations of GDL to clingo: one unrolls the game over time, the
other asks about one state at a time. Fixing the moves of a play leaves the
encoding exactly one answer set, which holds every step's legal moves, terminal
status and goals; a differential test compares those with what the reasoner
says along the same play.

    trace = AspTrace(encode_asp(program))
    steps = trace.run([(mark(1, 1), noop), (noop, mark(2, 2))])
    steps[0].legal[0]      # xplayer's legal moves at time 0, as IR terms

Ground once, one step at a time. The encoding is grounded once, with
`asp_trace.lp`, for three times only: 0 (the initial state), 2 (a state whose
fluents and joint move are external atoms: every fluent of the game's `base`
and every move of its `input`, or, without `input`, every move `legal` can give)
and 3 (the state they lead to). A step of a play assigns its state and joint
move to the externals (only those that changed since the last step are flipped)
and solves once; time 3 gives the next state, which the next step assigns in
turn. Every timed rule of the encoding reads one time and writes that time or
the next (tgpl.asp.asp_emit), so chaining the steps gives exactly the answer set
of the encoding unrolled over the play with its moves as facts: the same legal
moves, terminal status and goals, and a step with other than one answer set is
an error, as a play with other than one would be.

Why not a horizon: grounding the encoding for the times 0..n with every move an
external at every time grounds every state the game's rules cannot rule out at
each time, n times over; 40 steps of a 5x7 Jungle grounded to 1.8 GB and its
first solve needed 6.3 GB more. One step of it is 1/40th of that, whatever the
length of the plays, and a play costs one solve per move.

A fluent or a move outside the externals' domain (a game without `base`, a move
not in `input`, which GDL does not allow but this class accepts, as grounding a
play with its moves as facts does) is added to the domain and the encoding
grounded again; the initial state's fluents are in the domain from the start.
`groundings` counts the groundings done.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import clingo

from tgpl.asp.asp_emit import AspEncoding
from tgpl.asp.interrupt import interruptible, solve
from tgpl.asp.solver import SolverError, lp_file
from tgpl.limits import Limits, unlimited
from tgpl.lowering.ir import Term

JointMove = tuple[Term, ...]

INITIAL, STATE, NEXT = 0, 2, 3
"""The times of asp_trace.lp: the initial state, a state of a play (externals), the state after its joint move."""


@dataclass(frozen=True)
class Step:
    """What the encoding says of the state at one time of a play.

    legal: per role (in role order), its legal moves sorted by their KIF text;
    goals: per role, its goal values, sorted (GDL wants exactly one in a terminal state).
    """

    time: int
    legal: tuple[tuple[Term, ...], ...]
    terminal: bool
    goals: tuple[tuple[int | Term, ...], ...]


@dataclass(frozen=True)
class GroundSize:
    """The size of a grounding, as clingo counts the program it hands its solver (statistics' problem.lp)."""

    atoms: int
    rules: int


@dataclass(frozen=True)
class _Answer:
    """One solve's answer, read at one time: the Step's parts (unsorted) and the fluents that hold."""

    legal: tuple[tuple[Term, ...], ...]
    terminal: bool
    goals: tuple[tuple[int | Term, ...], ...]
    fluents: frozenset[clingo.Symbol]


class AspTrace:
    """The encoding grounded once for one step; each step of a play assigns its state and moves as externals.

    The grounding happens at the first play (or in `ground`); `groundings` counts them, `size` is the last one's.
    """

    def __init__(self, encoding: AspEncoding, limits: Limits | None = None):
        self.encoding = encoding
        # the command's limits: a grounding and a solve's preparation, which clingo cannot interrupt, run where
        # they are checked (tgpl.asp.interrupt)
        self.limits = limits if limits is not None else unlimited()
        self._role_index = {encoding.names.symbol(r): i for i, r in enumerate(encoding.roles)}
        self._role_symbols = tuple(encoding.names.symbol(r) for r in encoding.roles)
        self._declared = "input" in encoding.kinds.static
        self._based = "base" in encoding.kinds.static
        self._extra_moves: set[tuple[clingo.Symbol, clingo.Symbol]] = set()  # moves a play used outside the domain
        self._extra_fluents: set[clingo.Symbol] = set()  # fluents a play reached outside the domain
        self._ctl: clingo.Control | None = None
        self._does: dict[tuple[clingo.Symbol, clingo.Symbol], int] = {}  # (role, move) -> external's literal
        self._holds: dict[clingo.Symbol, int] = {}  # fluent -> external's literal
        self._on: set[int] = set()
        self._initial: _Answer | None = None
        self.groundings = 0
        self.size: GroundSize | None = None

    def ground(self) -> None:
        """A fresh control with the encoding grounded for the times of asp_trace.lp, and its initial state read."""
        ctl = clingo.Control(["--warn=none", "--models=2"])
        parts = [self.encoding.text, lp_file("asp_trace.lp")]
        if self._extra_moves:
            parts.append("".join(f"gdl_trace_move({r},{m}).\n" for r, m in sorted(self._extra_moves)))
        if self._extra_fluents:
            parts.append("".join(f"gdl_trace_fluent({f}).\n" for f in sorted(self._extra_fluents)))
        domains = [("base", []), ("trace_input" if self._declared else "trace_legal", [])]
        if self._based:
            domains.append(("trace_base", []))

        def grounded() -> None:
            for part in parts:
                ctl.add("base", [], part)
            ctl.ground(domains)
        if self.limits.unlimited:
            grounded()
        else:
            self.limits.check()
            interruptible(ctl, grounded, self.limits)
            self.limits.check()
        self.groundings += 1
        self._ctl, self._on = ctl, set()
        self._does, self._holds = {}, {}
        for atom in ctl.symbolic_atoms.by_signature("does", 3):
            if atom.is_external:
                r, m, _ = atom.symbol.arguments
                self._does[(r, m)] = atom.literal
        for atom in ctl.symbolic_atoms.by_signature("holds", 2):
            if atom.is_external:
                self._holds[atom.symbol.arguments[0]] = atom.literal
        # What each shown atom says, decoded once here so that reading a model decodes no symbol:
        # (time, None) for terminal, (time, (0 legal / 1 goal, role index, the move or goal value)), and
        # (time, (2, None, fluent)) for holds.
        term = self.encoding.names.term
        self._meaning: dict[clingo.Symbol, tuple] = {}
        for atom in ctl.symbolic_atoms.by_signature("terminal", 1):
            self._meaning[atom.symbol] = (atom.symbol.arguments[0].number, None)
        for atom in ctl.symbolic_atoms.by_signature("holds", 2):
            f, t = atom.symbol.arguments
            self._meaning[atom.symbol] = (t.number, (2, None, f))
        for kind, name in enumerate(("legal", "goal")):
            for atom in ctl.symbolic_atoms.by_signature(name, 3):
                r, value, t = atom.symbol.arguments
                role = self._role_index.get(r)
                if role is not None:
                    if name == "legal" or value.type is not clingo.SymbolType.Number:
                        value = term(value)
                    else:
                        value = value.number
                    self._meaning[atom.symbol] = (t.number, (kind, role, value))
        answers = self._solve(set())
        self.size = GroundSize(int(ctl.statistics["problem"]["lp"]["atoms"]),
                               int(ctl.statistics["problem"]["lp"]["rules"]))
        self._initial = answers[INITIAL]
        missing = self._initial.fluents - self._holds.keys()
        if missing:  # the initial state outside `base` (or no `base`): in the domain from the start
            self._extra_fluents |= missing
            self.ground()

    def run(self, moves: Sequence[JointMove]) -> list[Step]:
        """The states at times 0..len(moves) of the play that makes `moves` (one term per role, in role order)."""
        symbol = self.encoding.names.symbol
        roles = len(self.encoding.roles)
        joints: list[list[tuple[clingo.Symbol, clingo.Symbol]]] = []
        for t, joint in enumerate(moves):
            if len(joint) != roles:
                raise ValueError(f"joint move {t} has {len(joint)} moves for {roles} roles")
            joints.append([(r, symbol(m)) for r, m in zip(self._role_symbols, joint)])
        if self._initial is None:  # not grounded yet (or the last grounding's initial state had no one answer set)
            self.ground()
        missing = {rm for joint in joints for rm in joint} - self._does.keys()
        if missing:
            self._extra_moves |= missing
            self.ground()
        answer = self._initial
        steps = [_step(0, answer)]
        for t, joint in enumerate(joints):
            outside = answer.fluents - self._holds.keys()
            if outside:  # a fluent no external stands for: added, and grounded again
                self._extra_fluents |= outside
                self.ground()
            on = {self._holds[f] for f in answer.fluents}
            on.update(self._does[rm] for rm in joint)
            answer = self._solve(on)[NEXT]
            steps.append(_step(t + 1, answer))
        return steps

    def _solve(self, on: set[int]) -> dict[int, _Answer]:
        """The answer set with the externals `on` true and every other false, read at the times it shows."""
        ctl = self._ctl
        for lit in on - self._on:
            ctl.assign_external(lit, True)
        for lit in self._on - on:
            ctl.assign_external(lit, False)
        self._on = on
        models: list[list[clingo.Symbol]] = []
        solve(ctl, self.limits, on_model=lambda m: models.append(m.symbols(shown=True)))
        if len(models) != 1:
            raise SolverError(f"the encoding has {len(models)} answer sets for this play, not one")
        roles = len(self.encoding.roles)
        read = {t: ([[] for _ in range(roles)], [[] for _ in range(roles)], [False], set()) for t in (INITIAL, NEXT)}
        meaning = self._meaning
        for sym in models[0]:
            found = meaning.get(sym)
            if found is None:
                continue
            t, what = found
            at = read.get(t)
            if at is None:  # time 2: the state assigned
                continue
            if what is None:
                at[2][0] = True
            elif what[0] == 2:
                at[3].add(what[2])
            else:
                at[what[0]][what[1]].append(what[2])
        return {t: _Answer(tuple(map(tuple, legal)), terminal[0], tuple(map(tuple, goals)), frozenset(fluents))
                for t, (legal, goals, terminal, fluents) in read.items()}


def _step(time: int, answer: _Answer) -> Step:
    return Step(time, tuple(tuple(sorted(ms, key=str)) for ms in answer.legal), answer.terminal,
                tuple(tuple(sorted(gs, key=str)) for gs in answer.goals))
