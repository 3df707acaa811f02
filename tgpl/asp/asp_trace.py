"""Reading a play back out of the time-indexed ASP encoding, to test it against the reasoner.

The encoding (tgpl.asp.asp_emit) and the reasoner (tgpl.asp.reasoner) are two
independent translations of GDL to clingo: one unrolls the game over time, the
other asks about one state at a time. Fixing the moves of a play as `does/3`
facts leaves the encoding exactly one answer set, which holds every step's
legal moves, terminal status and goals; a differential test compares those
with what the reasoner says along the same play.

    trace = AspTrace(encode_asp(program))
    steps = trace.run([(mark(1, 1), noop), (noop, mark(2, 2))])
    steps[0].legal[0]      # xplayer's legal moves at time 0, as IR terms
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import clingo

from tgpl.asp.asp_emit import AspEncoding
from tgpl.asp.solver import SolverError
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
    """Solves the encoding once per play, with the play's joint moves as facts."""

    def __init__(self, encoding: AspEncoding):
        self.encoding = encoding
        self._role_index = {encoding.names.symbol(r): i for i, r in enumerate(encoding.roles)}

    def run(self, moves: Sequence[JointMove]) -> list[Step]:
        """The states at times 0..len(moves) of the play that makes `moves` (one term per role, in role order)."""
        names = self.encoding.names
        horizon = len(moves)
        facts = [f"time(0..{horizon})."]
        for t, joint in enumerate(moves):
            if len(joint) != len(self.encoding.roles):
                raise ValueError(f"joint move {t} has {len(joint)} moves for {len(self.encoding.roles)} roles")
            for role, move in zip(self.encoding.roles, joint):
                facts.append(f"does({names.symbol(role)},{names.symbol(move)},{t}).")
        ctl = clingo.Control(["--warn=none", "--models=2"])
        ctl.add("base", [], self.encoding.text)
        ctl.add("base", [], "\n".join(facts) + "\n#show legal/3. #show terminal/1. #show goal/3.\n")
        ctl.ground([("base", [])])
        models: list[list[clingo.Symbol]] = []
        ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
        if len(models) != 1:
            raise SolverError(f"the encoding has {len(models)} answer sets for this play, not one")
        roles = len(self.encoding.roles)
        legal: list[list[list[Term]]] = [[[] for _ in range(roles)] for _ in range(horizon + 1)]
        goals: list[list[list]] = [[[] for _ in range(roles)] for _ in range(horizon + 1)]
        terminal = [False] * (horizon + 1)
        for sym in models[0]:
            t = sym.arguments[-1].number
            if sym.name == "terminal":
                terminal[t] = True
                continue
            role = self._role_index.get(sym.arguments[0])
            if role is None:
                continue
            value = sym.arguments[1]
            if sym.name == "legal":
                legal[t][role].append(names.term(value))
            else:
                goals[t][role].append(value.number if value.type is clingo.SymbolType.Number else names.term(value))
        return [Step(t, tuple(tuple(sorted(ms, key=str)) for ms in legal[t]), terminal[t],
                     tuple(tuple(sorted(gs, key=str)) for gs in goals[t])) for t in range(horizon + 1)]
