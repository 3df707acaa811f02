"""Graph boards drawn by a force-directed layout (tgpl/serve/layout.py): connected tiles near, none on
top of another, edges that need not cross do not, the same drawing on every run."""

from __future__ import annotations

import math

from tgpl.runtime import load_game
from tgpl.serve.layout import EDGE, graph_layout
from tgpl.serve.views import view


def _crossings(pos, edges) -> int:
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    count = 0
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1:]:
            if len({a, b, c, d}) == 4 and side(pos[a], pos[b], pos[c]) * side(pos[a], pos[b], pos[d]) < 0 \
                    and side(pos[c], pos[d], pos[a]) * side(pos[c], pos[d], pos[b]) < 0:
                count += 1
    return count


def _circle(n):
    return [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]


# a 3 x 4 grid of roads whose tiles were created in a scrambled order (as a designer's Add calls may be)
ORDER = [5, 0, 11, 3, 8, 1, 10, 6, 2, 9, 4, 7]
GRID = [(ORDER.index(r * 4 + c), ORDER.index(r * 4 + c + 1)) for r in range(3) for c in range(3)] + \
       [(ORDER.index(r * 4 + c), ORDER.index((r + 1) * 4 + c)) for r in range(2) for c in range(4)]


def test_a_planar_grid_is_drawn_without_crossings_where_a_circle_crosses():
    laid = graph_layout(12, GRID)
    assert _crossings(laid, GRID) == 0
    assert _crossings(_circle(12), GRID) > 5


def test_connected_tiles_lie_near_and_no_tile_covers_another():
    laid = graph_layout(12, GRID)
    linked = {tuple(sorted(e)) for e in GRID}
    near = [math.dist(laid[a], laid[b]) for a, b in linked]
    apart = [math.dist(laid[a], laid[b]) for a in range(12) for b in range(a + 1, 12) if (a, b) not in linked]
    assert max(near) < 2 * EDGE and sum(near) / len(near) < sum(apart) / len(apart) / 1.5
    assert min(near + apart) > EDGE / 2  # a tile is drawn 44 px wide, a cell unit 70 px
    assert abs(sum(x for x, _ in laid)) < 1e-2 and abs(sum(y for _, y in laid)) < 1e-2  # centred


def test_the_layout_is_the_same_on_every_run_and_for_edges_in_any_order():
    first = graph_layout(12, GRID)
    from tgpl.serve import layout

    layout._cache.clear()
    assert graph_layout(12, list(reversed([(b, a) for a, b in GRID]))) == first
    assert graph_layout(0, []) == [] and graph_layout(1, []) == [(0.0, 0.0)]
    two = graph_layout(2, [(0, 1)])
    assert abs(math.dist(*two) - EDGE) < 0.2


def test_the_graph_example_is_laid_out_without_crossings():
    group = view(load_game("examples/graph.tgpl").initial_state(0), 0)["groups"][0]
    pos = {t["name"]: (t["x"], t["y"]) for t in group["tiles"]}
    edges = sorted({tuple(sorted((e["from"], e["to"]))) for e in group["edges"]})
    assert len(pos) == 8 and len(edges) == 11
    assert _crossings(pos, edges) == 0
