"""`base` and `input` against what the game can make: the validator's completeness check.

A GGP player may take a game's `base` and `input` at their word: a propnet
built from them has no proposition for a fluent `base` leaves out, and the
reasoner makes externals only for what they list. So, where a game declares
them, every fluent `init` or `next` can produce must be in `base` and every
move `legal` can produce must be in `input`.

What the game can produce is taken from its relaxed reachability, the same
over-approximation the reasoner uses for games without `base`/`input`
(`gdl_relaxed_domain.lp`): the rules without their negative literals, with
every `next` fed back as `true` and every `legal` as `does`, grounded by
clingo. It reaches a superset of what any play makes, so a fluent that only a
rule whose body can never hold produces must be listed too; listing more than
a play reaches is harmless. `base` and `input` themselves are computed exactly
(with their negations), since they depend on static relations only.

Only a game that is otherwise valid is grounded (an unsafe rule would stop
clingo). A gap is rare, so the rule that makes each missing fluent or move is
looked for only then, by a second grounding in which each `init`, `next` and
`legal` rule also records its number; the first such rule in the file is named,
passing over frame rules (`(next F)` from `(true F)`), which only keep what
another rule made.

Both groundings join the lowering's tables away first (rules_to_asp does, for a relaxed game):
the relaxed game is recursive through `true`, and gringo's semi-naive evaluation
would otherwise join fluents before the table that relates them.
"""

from __future__ import annotations

from dataclasses import dataclass

import clingo

from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.lowering.ir import Atom, Const, Func, Program, Rule
from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.relaxed import joined_tables, relaxed_model
from tgpl.asp.solver import SolverError, answer_set

SHOWN = 5
"""Missing fluents (and moves) reported one by one; a note counts the rest."""

_MAKERS = ("init", "next", "legal")
"""The relations whose rules make the fluents and moves `base` and `input` must list."""

_MADE_BY = "made by"
"""The relation of the second grounding; not a KIF word, so no valid game has a relation of that name."""


@dataclass(frozen=True)
class _Gap:
    kind: str  # "fluent" or "move"
    item: clingo.Symbol  # the fluent F, or the move as legal(R,M): as the second grounding records them


def undeclared(program: Program, path: str = "<gdl>") -> list[Diagnostic]:
    """An error per fluent or move the game can make that its `base`/`input` does not list (the first few)."""
    defined = program.defined()
    check_base, check_input = "base" in defined, "input" in defined
    if not (check_base or check_input):
        return []
    names = ClingoNames()
    graph = DependencyGraph.of(program)
    relaxed = _rules_of(program, graph.needed(_MAKERS, positive=True))
    try:
        declared = answer_set([rules_to_asp(_rules_of(program, graph.needed(("base", "input"))), names),
                               "#show base/1. #show input/2."])
        reach = relaxed_model(relaxed, names)
        base = {s.arguments[0] for s in declared if s.name == "base"}
        inputs = {(s.arguments[0], s.arguments[1]) for s in declared if s.name == "input"}
        gaps: list[_Gap] = []
        for s in reach:
            if check_base and s.name == "true" and s.arguments[0] not in base:
                gaps.append(_Gap("fluent", s.arguments[0]))
            elif check_input and s.name == "does" and (s.arguments[0], s.arguments[1]) not in inputs:
                gaps.append(_Gap("move", clingo.Function("legal", s.arguments)))
        return _report(program, relaxed, names, gaps, path) if gaps else []
    except SolverError as e:
        return [Diagnostic(Severity.WARNING, Span(path, 1, 1, 1, 1), f"base and input could not be checked: {e}")]


def _rules_of(program: Program, relations: set[str]) -> Program:
    """The rules of `relations`: the groundings ground only what they read.

    The relaxed game takes the relations `init`, `next` and `legal` read positively, through any chain
    (`DependencyGraph.needed(..., positive=True)`): it drops the negative literals, so a relation read only
    under `not`, a check's helper, derives nothing it reads. Shut the box: 20,814 rules of its 24,802,
    against 24,588 through every read."""
    return Program(tuple(rule for rule in program.rules if rule.head.relation in relations))


def _report(program: Program, relaxed: Program, names: ClingoNames, gaps: list[_Gap],
            path: str) -> list[Diagnostic]:
    """The first few gaps of each kind, each at the first rule that makes it (in source order).

    `relaxed` is the rules the relaxed game needs, as `undeclared` grounded them."""
    makers = [(k, rule) for k, rule in enumerate(program.rules) if rule.head.relation in _MAKERS]
    labelled = Program(tuple(
        Rule(Atom(_MADE_BY, (Const(str(k)), Func(rule.head.relation, rule.head.args))), rule.body, rule.span)
        for k, rule in makers))
    label = names.functor(_MADE_BY)
    tables = joined_tables(program)
    made = relaxed_model(relaxed, names,
                         [rules_to_asp(labelled, names, drop_negation=True, tables=tables), f"#show {label}/2."])
    copies = {k for k, rule in makers if _copies(rule)}
    first: dict[clingo.Symbol, int] = {}
    for s in made:
        if s.name != label:
            continue
        k, what = s.arguments
        if what.name in ("init", "next"):
            what = what.arguments[0]
        known = first.get(what)
        if known is None or (k.number in copies, k.number) < (known in copies, known):
            first[what] = k.number
    out: list[Diagnostic] = []
    for kind, listed in (("fluent", "base"), ("move", "input")):
        mine = sorted((g for g in gaps if g.kind == kind), key=lambda g: (first[g.item], str(names.term(g.item))))
        for i, gap in enumerate(mine[:SHOWN]):
            rule = program.rules[first[gap.item]]
            if kind == "fluent":
                message = f"fluent '{names.term(gap.item)}' is not in base, but this rule can make it true"
            else:
                role, move = (names.term(a) for a in gap.item.arguments)
                message = f"move '{move}' of role '{role}' is not in input, but this rule can make it legal"
            rest = len(mine) - SHOWN
            notes = (f"{rest} more {kind}{'s' * (rest != 1)} not in {listed}",) if i == SHOWN - 1 and rest > 0 else ()
            out.append(Diagnostic(Severity.ERROR, _where(rule, path), message, notes))
    return out


def _copies(rule: Rule) -> bool:
    """A frame rule, `(next F)` from `(true F)`: it keeps a fluent, so another rule made it first."""
    return rule.head.relation == "next" and any(
        positive and atom.relation == "true" and atom.args == rule.head.args for atom, positive in rule.body_atoms())


def _where(rule: Rule, path: str) -> Span:
    return rule.head.span or rule.span or Span(path, 1, 1, 1, 1)


__all__ = ["undeclared", "SHOWN"]
