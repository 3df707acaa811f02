"""The relaxed game's recursive rules split into joins of two, so that clingo grounds each from the literal that
changed.

A rule compiled from a walk reads its loop's state and, last, the result of the walk one step on:

    (<= (linked_s2_join ?x5 ?x6 ?x7 ?x8 ?x9 ?x10)
        (linked_s2_loop_2 ?x5 ?x6 ?x7 ?x8 ?x9 ?x10) (x_of ?x5 ?x11) (plus ?x11 ?x7 ?x12) ...
        (at ?x12 ?x14 ?x15) (minus ?x9 1 ?x18) (linked_s2 ?x15 ?x6 ?x10 ?x18 no))

Both the loop's relation and the walk's are in the rule's own recursive component. gringo grounds such a rule
semi-naively, once for each new atom of each of them, and orders the rest of the body by the sizes its relations
have when the component starts, which for the component's own relations is next to nothing: from a new
`linked_s2` atom it scans every `linked_s2_loop_2` atom of the same target and seat (the cell `?x5` is bound only
through the arithmetic after it) where the tables would have found the cell's eight neighbours. The scan grows
with the depth of the walk, and so does the number of new atoms: Lines of Action's connectivity (`Linked`, 5
steps on 5 x 5), three copies of it (one per view of the state), took 8.4 s of its relaxed game's 8.8 s, where
the same rules read from a model already made cost 0.1 s each.

`split_recursive_joins` gives such a rule a helper relation holding its body but the last literal of its
component, with the variables the rest needs, `(tgpl_rjoin_0 ?x5 .. ?x10 ?x15 ?x18)`, and the rule becomes the
helper joined with that literal (rules whose helpers would hold the same body, a walk's join and its result,
share one, exporting what either needs). Each of the two is then grounded from the literal that changed by an
index on what it binds: LOA's relaxed game in 1.6 s. The helper is the rule's body, projected, so the rule
derives exactly what it derived: the game's relaxed model (tgpl.asp.relaxed) is the same, less the helpers,
which no one shows. A split that would make the helper a cross product (the last literal alone joining the
rest) is not made, nor one of a join of two whose helper would export every variable of the other literal: it
would be a copy of that literal's atoms, the rule grounded from either literal all the same (pente 9x9's
relaxed game grounded 1.8 M such copies, of its 6.0 M atoms and 0.94 GB: 4.4 M and 0.75 GB without them).
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.asp.dependencies import DependencyGraph
from tgpl.lowering.ir import Atom, Literal, Program, Rule, Var, expand_or

HELPER_PREFIX = "tgpl_rjoin_"


def split_recursive_joins(program: Program) -> Program:
    """`program`, to be grounded as the relaxed game (negative literals ignored, `next` fed back as `true` and
    `legal` as `does`), with each rule that joins two or more literals of its own recursive component split
    into joins of two (the module's docstring says why, and why it derives the same atoms)."""
    graph = DependencyGraph.of(program)
    for fed, source in (("true", "next"), ("true", "init"), ("does", "legal")):
        graph.edges.setdefault(fed, {})[source] = False
        graph.edges.setdefault(source, {})
    components = graph.components()
    names = fresh_names(set(program.relations()))
    rules: list[Rule] = [r for r in program.rules if r.is_fact]
    pending = [plain for r in program.rules if not r.is_fact for plain in expand_or(r)]
    changed = False
    while pending:
        cuts: dict[tuple[int, str], list[_Cut]] = {}  # rules whose helpers would hold the same body share one
        for rule in pending:
            cut = _cut(rule, graph, components)
            if cut is None:
                rules.append(rule)
            else:
                cuts.setdefault((components[rule.head.relation], " ".join(map(str, cut.inside))), []).append(cut)
        pending = []
        for (component, _), group in cuts.items():
            changed = True
            needed = set().union(*(cut.needed for cut in group))
            exported: dict[str, Var] = {}
            for lit in group[0].inside:
                for v in lit.variables():
                    if v.name in needed:
                        exported.setdefault(v.name, v)
            helper = Atom(next(names), tuple(exported.values()))
            inner = Rule(helper, group[0].inside, group[0].rule.span)
            graph.edges[helper.relation] = {a.relation: not p for a, p in inner.body_atoms()}
            components[helper.relation] = component  # in the heads' component: it may still join two of its own
            for cut in group:
                graph.edges[cut.rule.head.relation][helper.relation] = False
                rules.append(Rule(cut.rule.head, (helper, *cut.outside), cut.rule.span))
            pending.append(inner)
    return Program(tuple(rules)) if changed else program


def fresh_names(taken: set[str], prefix: str = HELPER_PREFIX):
    """Helper relation names no relation of the game has: `prefix` and a number (tgpl.asp.cross_products too)."""
    n = 0
    while True:
        name = f"{prefix}{n}"
        n += 1
        if name not in taken:
            yield name


@dataclass(frozen=True)
class _Cut:
    """A rule's body cut in two: what its helper holds, and what stays beside the helper (the last literal of
    the rule's component first); `needed`, the variables of the helper the rest reads."""

    rule: Rule
    inside: tuple[Literal, ...]
    outside: tuple[Literal, ...]
    needed: frozenset[str]


def _cut(rule: Rule, graph: DependencyGraph, components: dict[str, int]) -> _Cut | None:
    """Where the rule is split, or None where it has fewer than two literals of its component or a split would
    leave the helper's atoms unconnected."""
    head = rule.head.relation
    recursive = [i for i, lit in enumerate(rule.body)
                 if isinstance(lit, Atom) and graph.in_cycle(head, lit.relation, components)]
    if len(recursive) < 2:
        return None
    last = recursive[-1]
    rest = rule.body[:last] + rule.body[last + 1:]
    positive = [lit for lit in rest if isinstance(lit, Atom)]
    if not _connected(positive):
        return None
    bound = {v.name for lit in positive for v in lit.variables()}
    inside: list[Literal] = []
    outside: list[Literal] = [rule.body[last]]
    for lit in rest:
        if isinstance(lit, Atom) or {v.name for v in lit.variables()} <= bound:
            inside.append(lit)
        else:  # a `distinct` or a `not` on a variable only the last literal binds
            outside.append(lit)
    needed = {v.name for v in rule.head.variables()} | {v.name for lit in outside for v in lit.variables()}
    if len(inside) == 1 and bound <= needed:  # a join of two already, and its helper would copy the atoms of the
        return None  # other literal: pente 9x9's relaxed game grounded 1.8 M such copies (of 6.0 M atoms)
    return _Cut(rule, tuple(inside), tuple(outside), frozenset(needed))


def _connected(atoms: list[Atom]) -> bool:
    """Whether the atoms with variables are one join: each reached from the first through shared variables."""
    groups = [{v.name for v in a.variables()} for a in atoms]
    groups = [g for g in groups if g]
    if len(groups) <= 1:
        return True
    reached = set(groups[0])
    left = groups[1:]
    grew = True
    while left and grew:
        grew = False
        for g in list(left):
            if g & reached:
                reached |= g
                left.remove(g)
                grew = True
    return not left
