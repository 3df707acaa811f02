"""tgpl.graphs.strongly_connected against reachability computed the slow way, on seeded random graphs."""

import random

from tgpl.graphs import strongly_connected


def _reach(graph: dict[int, list[int]], start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_components_are_mutual_reachability_and_come_dependencies_first():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 12)
        graph = {v: sorted(rng.sample(range(n), rng.randint(0, min(3, n)))) for v in range(n)}
        found = strongly_connected(range(n), graph.__getitem__)
        assert sorted(v for comp in found for v in comp) == list(range(n))
        reach = {v: _reach(graph, v) for v in graph}
        position = {v: i for i, comp in enumerate(found) for v in comp}
        for v in graph:
            for w in graph:
                together = w in reach[v] and v in reach[w]
                assert (position[v] == position[w]) == together
                if w in reach[v] and not together:  # v reads w: w's component comes first
                    assert position[w] < position[v]


def test_a_long_chain_does_not_recurse():
    n = 50_000
    found = strongly_connected(range(n), lambda v: [v + 1] if v + 1 < n else [])
    assert found[0] == [n - 1] and len(found) == n
