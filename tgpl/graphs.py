"""Strongly connected components, for every part of tgpl that reads a dependency graph.

The GDL validator (stratification, the recursion restriction), the batched engine (which gates
settle together) and the lowering's static fold (which searches recurse) all ask the same question of
a graph of relations or atoms; this module answers it once. It imports nothing of tgpl, so that the
lowering, the ASP side and the batched engine may all use it without depending on each other.
"""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, TypeVar

Node = TypeVar("Node", bound=Hashable)


def strongly_connected(nodes: Iterable[Node], successors: Callable[[Node], Iterable[Node]]) -> list[list[Node]]:
    """Tarjan's components of the graph reachable from `nodes`, each after every component it reaches
    (dependencies first, when an edge goes from a reader to what it reads).

    Iterative, since the depth of a recursive walk would follow the game's relations. The order is
    deterministic: roots are visited in the order given, successors in the order `successors` yields them.
    """
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    out: list[list[Node]] = []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(successors(root)))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors(child))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(component)
    return out


class Partition:
    """Items joined into groups, as a union-find (path halving): the literals of a rule that share a variable,
    transitively (the static fold's static conjunctions, tgpl.lowering.independent's parts of a body)."""

    def __init__(self, items: Iterable[Node]):
        self.parent: dict = {i: i for i in items}

    def find(self, item: Node) -> Node:
        """The group's representative."""
        parent = self.parent
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def union(self, a: Node, b: Node) -> None:
        """`a`'s group joined to `b`'s."""
        self.parent[self.find(a)] = self.find(b)
