"""Terms that can grow without bound: the validator's finiteness check.

GDL games must be finite, and everything here that grounds a game (the
reasoner, the `base`/`input` check, bounded verification) grounds its relaxed
game, in which every `next` is fed back as `true` and every `legal` as `does`.
A rule such as `(<= (next (count (f ?x))) (true (count ?x)))` makes that
grounding infinite: clingo would run until memory runs out.

The check follows values through argument positions. A position is a
relation and an argument index, with `true`, `next` and `init` one position
(the state) and `does` and `legal` another (the moves). A rule moves the value
of a variable from a positive body atom's argument (where it sits `d` function
symbols deep) to a head argument (`d'` deep): an edge of weight `d' - d`.
Terms can only grow without bound along a cycle of positive weight, so a game
without one grounds finitely; one with one is refused, naming the rule that
nests the variable deeper. (A game whose terminal state stops the growth in
play is refused too: its relaxed game is still infinite.)
"""

from __future__ import annotations

from collections import defaultdict

from tgpl.asp.dependencies import DependencyGraph
from tgpl.frontend.diagnostics import Diagnostics
from tgpl.lowering.ir import Func, Program, Rule, Term, Var

_SAME = {"true": "next", "init": "next", "does": "legal"}

Position = tuple[str, int]


def unbounded_terms(program: Program, diags: Diagnostics) -> None:
    """An error at each rule that nests a value deeper along a cycle of positions (the first few)."""
    edges: dict[tuple[Position, Position], tuple[int, Rule, Term]] = {}
    for rule in program.rules:
        _rule_edges(rule, edges)
    growing = [(u, v) for (u, v), (w, _, _) in edges.items() if w > 0]
    if not growing:
        return
    component = _components({u for u, _ in edges} | {v for _, v in edges}, edges)
    reported = 0
    for u, v in growing:
        if component[u] != component[v] or not _positive_cycle(component, component[u], edges):
            continue
        _, rule, term = edges[(u, v)]
        diags.error(getattr(term, "span", None) or rule.span,
                    f"terms can grow without bound: '{term}' nests a value deeper in each pass through "
                    f"'{rule.head.relation}', which depends on itself through the game's state or moves; "
                    "a GDL game must have finitely many states and moves")
        reported += 1
        if reported == 3:
            return


def _occurrences(term: Term, depth: int = 0):
    """(variable name, how many function symbols enclose it) for each variable in term."""
    if isinstance(term, Var):
        yield term.name, depth
    elif isinstance(term, Func):
        for arg in term.args:
            yield from _occurrences(arg, depth + 1)


def _rule_edges(rule: Rule, edges: dict) -> None:
    head = rule.head
    placed: dict[str, list[tuple[Position, int, Term]]] = defaultdict(list)
    for i, arg in enumerate(head.args):
        for name, depth in _occurrences(arg):
            placed[name].append(((_SAME.get(head.relation, head.relation), i), depth, arg))
    if not placed:
        return
    for atom, positive in rule.body_atoms():
        if not positive:
            continue
        for j, arg in enumerate(atom.args):
            for name, depth in _occurrences(arg):
                for to, head_depth, term in placed.get(name, ()):
                    key = ((_SAME.get(atom.relation, atom.relation), j), to)
                    weight = head_depth - depth
                    if key not in edges or edges[key][0] < weight:
                        edges[key] = (weight, rule, term)


def _components(nodes: set[Position], edges: dict) -> dict[Position, int]:
    """Strongly connected components of the positions, by the dependency graph's algorithm."""
    graph = DependencyGraph()
    for node in nodes:
        graph.edges[_key(node)] = {}
    for u, v in edges:
        graph.edges[_key(u)][_key(v)] = False
    numbers = graph.components()
    return {node: numbers[_key(node)] for node in nodes}


def _key(position: Position) -> str:
    return f"{position[0]}/{position[1]}"


def _positive_cycle(component: dict[Position, int], which: int, edges: dict) -> bool:
    """Whether the component has a cycle of positive total weight (Bellman-Ford, longest paths)."""
    inside = [(u, v, w) for (u, v), (w, _, _) in edges.items() if component[u] == which == component[v]]
    nodes = {u for u, _, _ in inside}
    best = dict.fromkeys(nodes, 0)
    for _ in range(len(nodes)):
        changed = False
        for u, v, w in inside:
            if best[u] + w > best[v]:
                best[v] = best[u] + w
                changed = True
        if not changed:
            return False
    return True


__all__ = ["unbounded_terms"]
