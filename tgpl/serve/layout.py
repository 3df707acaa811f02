"""Where a graph group's tiles are drawn: a force-directed layout (Fruchterman and Reingold, 1991).

A graph board says which tiles connect, not where they lie; a circle (what the page drew first) crosses
its edges wherever the connections do not follow the circle's order. Here connected tiles pull each other
to about `EDGE` cell units apart and every pair pushes apart, for a fixed number of rounds of a cooling
step: counted, never timed, and with no random start (the tiles start on the circle, each nudged by its
index), so the same graph is drawn the same way on every run and machine. A game that places its tiles
itself (number attributes `X` and `Y` on every tile, a presentation hint) is drawn where it says.

The layout depends only on the tiles and their connections, which a game sets up once: it is computed
once per graph and remembered (`_cache`, a few graphs at most), so a message costs a look-up.
"""

from __future__ import annotations

import math
from collections import OrderedDict

EDGE = 1.6  # the length an edge settles at, in cell units (the page draws a graph's cell as 70 px)
ROUNDS = 300  # rounds of the layout for a graph of up to BIG tiles; fewer above (its cost is n^2 a round)
BIG = 60
_CACHE_SIZE = 16
_cache: OrderedDict = OrderedDict()


def graph_layout(n: int, edges: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """The centres of `n` tiles (in cell units, centred on 0, rounded to 3 decimals) whose connections
    are `edges` (pairs of indexes; direction and repeats do not matter)."""
    links = sorted({(min(a, b), max(a, b)) for a, b in edges if a != b and 0 <= a < n and 0 <= b < n})
    key = (n, tuple(links))
    found = _cache.get(key)
    if found is not None:
        _cache.move_to_end(key)
        return found
    placed = _layout(n, links)
    _cache[key] = placed
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return placed


def _layout(n: int, links: list[tuple[int, int]]) -> list[tuple[float, float]]:
    if n == 0:
        return []
    if n == 1:
        return [(0.0, 0.0)]
    radius = max(EDGE, n * EDGE / (2 * math.pi))
    xs = [radius * math.cos(2 * math.pi * i / n - math.pi / 2) + 0.01 * (i % 3) for i in range(n)]
    ys = [radius * math.sin(2 * math.pi * i / n - math.pi / 2) + 0.01 * (i % 5) for i in range(n)]
    k2 = EDGE * EDGE
    rounds = ROUNDS if n <= BIG else max(50, ROUNDS * BIG // n)
    start = radius / 2
    for r in range(rounds):
        temperature = start * (1 - r / rounds) + 0.01
        dx = [0.0] * n
        dy = [0.0] * n
        for i in range(n):
            xi, yi = xs[i], ys[i]
            for j in range(i + 1, n):
                ex, ey = xi - xs[j], yi - ys[j]
                d2 = ex * ex + ey * ey or 1e-4
                f = k2 / d2  # repulsion k^2 / d, along the unit vector (e / d)
                dx[i] += ex * f
                dy[i] += ey * f
                dx[j] -= ex * f
                dy[j] -= ey * f
        for a, b in links:
            ex, ey = xs[a] - xs[b], ys[a] - ys[b]
            d = math.hypot(ex, ey) or 1e-2
            f = d / EDGE  # attraction d^2 / k, along the unit vector
            dx[a] -= ex * f
            dy[a] -= ey * f
            dx[b] += ex * f
            dy[b] += ey * f
        for i in range(n):  # a light pull to the centre keeps apart pieces of the graph on the page
            dx[i] -= 0.05 * xs[i]
            dy[i] -= 0.05 * ys[i]
            length = math.hypot(dx[i], dy[i])
            if length > 0:
                step = min(length, temperature) / length
                xs[i] += dx[i] * step
                ys[i] += dy[i] * step
    cx, cy = sum(xs) / n, sum(ys) / n
    return [(round(x - cx, 3), round(y - cy, 3)) for x, y in zip(xs, ys)]
