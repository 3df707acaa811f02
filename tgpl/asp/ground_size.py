"""How large a GDL game is once grounded: the measure of a compact lowering.

Rule counts say little about what a GGP agent pays: `(<= (line ?p) ...)`
with four variables and one rule per line written out are both one rule.
What clingo-based agents (and the project's reasoner) actually work on is the
ground program, so the lowering is compared with hand-written GDL on that.

The game's rules are grounded as tgpl.asp.reasoner grounds them (without the
reasoner's look-ahead copies of legal/goal/terminal): `true(F)` and `does(R,M)`
are externals over the fluents and moves of `base`/`input` (or the relaxed
game's reach), so no state is assumed. A ground program observer counts what the
grounder emits: rules with a body, facts (rules without one) and externals.
Rules plus facts equal clasp's `problem.lp.rules` statistic after solving.
"""

from __future__ import annotations

from dataclasses import dataclass

import clingo

from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.reasoner import external_domain
from tgpl.asp.solver import SolverError, lp_file
from tgpl.lowering.ir import Program


@dataclass(frozen=True)
class GroundSize:
    rules: int  # ground rules with a non-empty body
    facts: int  # ground rules without a body (facts the grounder derived, domain facts included)
    externals: int  # the open atoms: one per fluent (true/1) and per move (does/2)

    @property
    def total(self) -> int:
        return self.rules + self.facts


class _Counter(clingo.Observer):
    def __init__(self) -> None:
        self.rules = self.facts = self.externals = 0

    def rule(self, choice: bool, head, body) -> None:
        if body:
            self.rules += 1
        else:
            self.facts += 1

    def weight_rule(self, choice: bool, head, lower_bound: int, body) -> None:
        self.rules += 1  # GDL has none; counted should an encoding add one

    def external(self, atom: int, value) -> None:
        self.externals += 1


def ground_size(program: Program) -> GroundSize:
    """The ground size of a valid GDL program (raises SolverError if clingo refuses it)."""
    counter = ground_observed(program, _Counter())
    return GroundSize(counter.rules, counter.facts, counter.externals)


def ground_observed(program: Program, observer: clingo.Observer, names: ClingoNames | None = None
                    ) -> clingo.Observer:
    """The game grounded as a reasoner grounds it once (`true`/`does` externals over base/input or the relaxed
    game's reach), `observer` shown every ground rule; it is returned (raises SolverError if clingo refuses).
    `names`: the GDL <-> clingo names to translate with, for a caller that reads the symbols back as GDL."""
    names = names if names is not None else ClingoNames()
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda code, msg: messages.append(msg.strip()), message_limit=20)
    ctl.register_observer(observer)
    try:
        ctl.add("base", [], rules_to_asp(program, names))
        ctl.add("base", [], lp_file("ground_size.lp"))
        ctl.add("base", [], external_domain(program, names))
        ctl.ground([("base", [])])
    except RuntimeError as e:
        raise SolverError("; ".join(messages) or str(e)) from None
    return observer


__all__ = ["GroundSize", "ground_size"]
