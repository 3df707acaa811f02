"""The dependency graph of a logic program: which relation's rules use which.

GDL's restrictions (stratified negation, the recursion restriction, what may
depend on `true` and `does`) are all questions about this graph, so the
validator asks them here. An edge p -> q means a rule for p has q in its body;
it is negative when q occurs under `not` in some such rule; one read both ways
is negative in `edges` and also listed in `also_positive`, for the walks that
follow positive reads only (a relaxed program drops the negative literals).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from tgpl.graphs import strongly_connected
from tgpl.lowering.ir import Program


@dataclass
class DependencyGraph:
    edges: dict[str, dict[str, bool]] = field(default_factory=dict)
    """head relation -> {body relation: True if some use of it is negative}"""
    also_positive: set[tuple[str, str]] = field(default_factory=set)
    """The negative edges (head, body) that some rule also reads positively: `edges` alone cannot say so."""

    @classmethod
    def of(cls, program: Program) -> DependencyGraph:
        graph = cls()
        read_positively: set[tuple[str, str]] = set()
        for rule in program.rules:
            head = rule.head.relation
            out = graph.edges.setdefault(head, {})
            for atom, positive in rule.body_atoms():
                out[atom.relation] = out.get(atom.relation, False) or not positive
                graph.edges.setdefault(atom.relation, {})
                if positive:
                    read_positively.add((head, atom.relation))
        graph.also_positive = {(p, q) for p, q in read_positively if graph.edges[p][q]}
        return graph

    def reads_positively(self, p: str, q: str) -> bool:
        """Whether some rule for p has q in its body outside `not` (an edge p -> q must exist)."""
        return not self.edges[p][q] or (p, q) in self.also_positive

    def components(self) -> dict[str, int]:
        """Strongly connected component of each relation, numbered dependencies first."""
        found = strongly_connected(sorted(self.edges), lambda node: sorted(self.edges[node]))
        return {member: number for number, component in enumerate(found) for member in component}

    def in_cycle(self, p: str, q: str, comp: dict[str, int]) -> bool:
        """Whether q is in a cycle with p: same component, and a real cycle if p is q."""
        if comp.get(p) != comp.get(q):
            return False
        return p != q or p in self.edges.get(p, {})

    def needed(self, roots, positive: bool = False) -> set[str]:
        """The relations among `roots` and every relation they depend on, through any chain.

        With `positive`, through positive reads only: all a relaxed program needs (it drops the
        negative literals, so a relation read only under `not` derives nothing for it).
        """
        seen: set[str] = set()
        todo = [r for r in roots if r in self.edges]
        while todo:
            r = todo.pop()
            if r not in seen:
                seen.add(r)
                todo.extend(q for q in self.edges[r] if not positive or self.reads_positively(r, q))
        return seen

    def reading(self, roots) -> set[str]:
        """`roots` and every relation whose rules read one of them, through any chain: `needed` the other way."""
        readers: dict[str, list[str]] = {}
        for head, body in self.edges.items():
            for q in body:
                readers.setdefault(q, []).append(head)
        seen = set(roots)
        todo = list(seen)
        while todo:
            for head in readers.get(todo.pop(), ()):
                if head not in seen:
                    seen.add(head)
                    todo.append(head)
        return seen

    def path(self, start: str, goal: str) -> list[str] | None:
        """A shortest chain start -> ... -> goal of at least one edge, or None.

        With start == goal it is a cycle through start.
        """
        previous: dict[str, str] = {}
        seen = {start}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for child in sorted(self.edges.get(node, {})):
                if child == goal:
                    chain = [goal, node]
                    while chain[-1] != start:
                        chain.append(previous[chain[-1]])
                    return chain[::-1]
                if child not in seen:
                    seen.add(child)
                    previous[child] = node
                    queue.append(child)
        return None
