"""Whether one relation's rows are another's in every state under every legal joint move: a proof, by clingo.

The lowering asks it of a move's calls to a function (tgpl.lowering.compiled, `CompiledGame.moving_twins`): a
move is one of the legal moves, so where its calls to `FlipsIn` are among the calls the legal moves' `Flips`
demanded in the same state, the move can read those answers instead of a walk of its own (Reversi: about
11,800 ground rules fewer, a third of the rules of the move's flips).

The question is asked of every state, not only the reachable ones: `true` is open over `base`, each role does
one of its `input` moves, and every move done must be legal. A counterexample is a model with a probe's row
that its relation lacks; none (the program unsatisfiable) proves the inclusion for the reachable states too.
A state the game cannot reach may be a counterexample, and then the answer is no although play would never
miss a row: the question errs only towards keeping the move's own calls.

Only the rules the probes, the relations and `legal` depend on are grounded, at most `max_ground` rules: past
that the answer is no.
"""

from __future__ import annotations

import clingo

from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.reasoner import GroundLimit
from tgpl.asp.solver import lp_file
from tgpl.lowering.ir import Program, Rule

MAX_GROUND = 2_000_000
"""The most ground rules a question may take: past them it is not asked (the answer is no)."""


def covers(program: Program, probes: list[Rule], pairs: dict[str, str], max_ground: int = MAX_GROUND) -> bool:
    """Whether in every state, under every joint move whose moves are all legal, each row of each probe relation
    (`pairs`' keys, defined by `probes` or by `program`) is a row of its relation in `program`
    (`pairs`' values, of the same arity). `program` declares `base` and `input`."""
    rules = _needed([*program.rules, *probes], {"legal", "base", "input", *pairs, *pairs.values()})
    arity = {r.head.relation: len(r.head.args) for r in rules}
    names = ClingoNames()
    lines = [rules_to_asp(Program(tuple(rules)), names), lp_file("gdl_declared_domain.lp"),
             "{ true(F) : gdl_fluent(F) }.", "gdl_role(R) :- gdl_move(R, _).",
             "1 { does(R, M) : gdl_move(R, M) } 1 :- gdl_role(R).", ":- does(R, M), not legal(R, M)."]
    for probe, target in sorted(pairs.items()):
        xs = ", ".join(f"X{i}" for i in range(arity[probe]))
        row = f"({xs})" if xs else ""
        lines.append(f"gdl_missed :- {names.functor(probe)}{row}, not {names.functor(target)}{row}.")
    lines.append(":- not gdl_missed.")
    ctl = clingo.Control(["--warn=none"])
    ctl.register_observer(GroundLimit(max_ground))
    try:
        ctl.add("base", [], "\n".join(lines) + "\n")
        ctl.ground([("base", [])])
    except (GroundLimit.Over, RuntimeError):
        return False
    return bool(ctl.solve().unsatisfiable)


def _needed(rules: list[Rule], wanted: set[str]) -> list[Rule]:
    """The rules whose heads `wanted` depend on, through any body (`true` and `does` are given)."""
    reads: dict[str, set[str]] = {}
    for r in rules:
        reads.setdefault(r.head.relation, set()).update(a.relation for a, _ in r.body_atoms())
    todo, seen = list(wanted), set(wanted)
    while todo:
        for rel in reads.get(todo.pop(), ()):
            if rel not in seen:
                seen.add(rel)
                todo.append(rel)
    return [r for r in rules if r.head.relation in seen]


__all__ = ["covers", "MAX_GROUND"]
