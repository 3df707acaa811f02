"""Reading a play back out of the time-indexed ASP encoding, to test it against the reasoner.

The encoding (tgpl.asp.asp_emit) and the reasoner (tgpl.asp.reasoner) are two
independent translations of GDL to clingo: one unrolls the game over time, the
other asks about one state at a time. Fixing the moves of a play leaves the
encoding exactly one answer set, which holds every step's legal moves, terminal
status and goals; a differential test compares those with what the reasoner
says along the same play.

    trace = AspTrace(encode_asp(program), horizon=9)
    steps = trace.run([(mark(1, 1), noop), (noop, mark(2, 2))])
    steps[0].legal[0]      # xplayer's legal moves at time 0, as IR terms

Ground once, answer many plays. Grounding is the expensive part (a lowered
Connect Four is 17,000 rules over 42 steps), so the encoding is grounded once
for the times 0..horizon together with `asp_trace.lp`, which makes `does(R,M,T)`
an external atom for every move of the game's `input` relation (or, if the game
has no `input`, every move `legal` can give at T) and every T < horizon. A play
then only assigns externals (true for its moves at their times, false for every
other; only those that changed since the previous play are flipped) and solves
once. The state at a time depends only on the moves before it, so the steps
0..len(moves) are exactly those of grounding the play's moves as facts; the
times after the play are solved with nobody moving and not read.

Plays longer than the horizon. The horizon is `horizon` if given (grounded in
the constructor), else the length of the first play (grounded then). A longer
play grounds the encoding again, in a fresh control, up to the larger of its
length and twice the old horizon: doubling bounds the grounding done over all
plays by about twice that of the final horizon, and a caller that knows the
longest play (Connect Four: 42) passes it and grounds exactly once. True
multi-shot extension (grounding only the new steps) is not possible with the
one-shot text this class takes: its timed rules range over `time/1` inside one
`base` part, and clingo never instantiates an already grounded part again for
new `time/1` atoms; it needs the `#program step(t)` parts of
`encode_incremental`, i.e. the game's rules, which an `AspEncoding` does not
keep. Likewise a play with a move outside the externals' domain (a move not in
`input`, which GDL does not allow but this class accepts as the per-play
grounding did) adds that move to the domain and grounds again.
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


class AspTrace:
    """The encoding grounded once up to a horizon; each play assigns its moves as externals and solves.

    horizon: the times 0..horizon to ground now (plays of up to `horizon` joint
    moves need no other grounding); None grounds at the first play. `groundings`
    counts the groundings done so far.
    """

    def __init__(self, encoding: AspEncoding, horizon: int | None = None, limits: Limits | None = None):
        self.encoding = encoding
        # the command's limits: a grounding and a solve's preparation, which clingo cannot interrupt, run where
        # they are checked (tgpl.asp.interrupt); 40 steps of Jungle-lite's encoding grounded in 34 s to 1.8 GB,
        # and its first solve took 41 s to 6.3 GB, where `to-asp --max-memory 3000` had allowed 3 GB
        self.limits = limits if limits is not None else unlimited()
        self._role_index = {encoding.names.symbol(r): i for i, r in enumerate(encoding.roles)}
        self._role_symbols = tuple(encoding.names.symbol(r) for r in encoding.roles)
        self._declared = "input" in encoding.kinds.static
        self._extra: set[tuple[clingo.Symbol, clingo.Symbol]] = set()  # moves a play used outside the domain
        self._ctl: clingo.Control | None = None
        self._does: dict[tuple[clingo.Symbol, clingo.Symbol, int], int] = {}  # external -> program literal
        self._on: set[int] = set()
        self.horizon: int | None = None
        self.groundings = 0
        if horizon is not None:
            if horizon < 0:
                raise ValueError("the horizon must be 0 or more")
            self._ground(horizon)

    def _ground(self, horizon: int) -> None:
        """A fresh control with the encoding grounded for the times 0..horizon."""
        ctl = clingo.Control(["--warn=none", "--models=2", f"--const=horizon={horizon}"])
        parts = [self.encoding.text, lp_file("asp_trace.lp")]
        if self._extra:
            parts.append("".join(f"gdl_trace_move({r},{m}).\n" for r, m in sorted(self._extra)))
        domain = "trace_input" if self._declared else "trace_legal"

        def grounded() -> None:
            for part in parts:
                ctl.add("base", [], part)
            ctl.ground([("base", []), (domain, [])])
        if self.limits.unlimited:
            grounded()
        else:
            self.limits.check()
            interruptible(ctl, grounded, self.limits)
            self.limits.check()
        self.groundings += 1
        self._ctl, self.horizon, self._on = ctl, horizon, set()
        self._does = {}
        for atom in ctl.symbolic_atoms.by_signature("does", 3):
            if atom.is_external:
                r, m, t = atom.symbol.arguments
                self._does[(r, m, t.number)] = atom.literal
        # What each shown atom says, decoded once here so that reading a model decodes no symbol:
        # (time, None) for terminal, (time, (is legal, role index, the move or goal value)) for legal and goal.
        term = self.encoding.names.term
        self._meaning: dict[clingo.Symbol, tuple] = {}
        for atom in ctl.symbolic_atoms.by_signature("terminal", 1):
            self._meaning[atom.symbol] = (atom.symbol.arguments[0].number, None)
        for name in ("legal", "goal"):
            for atom in ctl.symbolic_atoms.by_signature(name, 3):
                r, value, t = atom.symbol.arguments
                role = self._role_index.get(r)
                if role is not None:
                    if name == "legal" or value.type is not clingo.SymbolType.Number:
                        value = term(value)
                    else:
                        value = value.number
                    self._meaning[atom.symbol] = (t.number, (name == "legal", role, value))

    def run(self, moves: Sequence[JointMove]) -> list[Step]:
        """The states at times 0..len(moves) of the play that makes `moves` (one term per role, in role order)."""
        symbol = self.encoding.names.symbol
        length = len(moves)
        play: list[tuple[clingo.Symbol, clingo.Symbol, int]] = []
        for t, joint in enumerate(moves):
            if len(joint) != len(self.encoding.roles):
                raise ValueError(f"joint move {t} has {len(joint)} moves for {len(self.encoding.roles)} roles")
            play.extend((r, symbol(m), t) for r, m in zip(self._role_symbols, joint))
        if self.horizon is None or length > self.horizon:
            self._ground(length if self.horizon is None else max(length, 2 * self.horizon))
        missing = {(r, m) for r, m, t in play if (r, m, t) not in self._does}
        if missing:
            self._extra |= missing
            self._ground(self.horizon)
        on = {self._does[key] for key in play}
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
        legal: list[list[list[Term]]] = [[[] for _ in range(roles)] for _ in range(length + 1)]
        goals: list[list[list]] = [[[] for _ in range(roles)] for _ in range(length + 1)]
        terminal = [False] * (length + 1)
        meaning = self._meaning
        for sym in models[0]:
            found = meaning.get(sym)
            if found is None:
                continue
            t, what = found
            if t > length:  # after the play: nobody moves there
                continue
            if what is None:
                terminal[t] = True
            elif what[0]:
                legal[t][what[1]].append(what[2])
            else:
                goals[t][what[1]].append(what[2])
        return [Step(t, tuple(tuple(sorted(ms, key=str)) for ms in legal[t]), terminal[t],
                     tuple(tuple(sorted(gs, key=str)) for gs in goals[t])) for t in range(length + 1)]
