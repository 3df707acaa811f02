"""Quoridor on a 5 x 5 board, written as a designer writes it from the rule sheet
(tests/data/designers/quoridor5.tgpl): each player's pawn steps up, down, left or right (or jumps straight over the
other pawn), or the player puts one of their three two-square walls at one of the 4 x 4 posts, flat or upright; walls
may not overlap nor cross, and may never take away a pawn's every way to its goal row, which the wall's filter checks
with a flood over a list of the squares reached (`HasPath`). First pawn on its goal row wins; 40 moves, a draw.

The runtime is checked against an independent model (walls as sets of blocked edges, the path check a breadth-first
search of its own) on the move tree's first levels, a set position where a wall would shut a pawn in, and seeded
plays to their end.

The lowering as a designer tries it (CPU and peak memory measured once with /usr/bin/time on a shared two-core
machine, not asserted): the dry run of quoridor5.tgpl refuses `HasPath` at its `reached.add(n)` (172:21), "the
lowering built conditions of more than 3,000,000 parts ... (here, in HasPath)" (17.8 s, 133 MB); its hint (keep a
count in a counter, or try --moves compiled or --functions-as-relations) fitted nothing: `to-gdl` (auto, 11.6 s, 128
MB) refuses it so, and compiled at the list, 162:9, "a list of values not known when compiling", with no hint. The
flood lowers where the walk has no return in it and its list is read after it only by `contains` or a loop that
returns a constant (language decision 114, whose text says so among many conditions); both refusals now name the
walk (163:9) and that rewrite (pinned below). quoridor5_flood.tgpl follows it: the dry run says it lowers, its moves
compiled (16.1 s, 94 MB); `tgpl to-gdl` (auto and compiled give the same file, 20 s, 231 MB) lowers and validates it
by playouts to the end (28 playouts, 1,007 steps), the flood a closure; spelled out it is refused past 3,000,000 parts
"in HasPath, its flood of the list 'reached' at line 166" (13 s, 105 MB), the search the rewrite made, whose hint
"try --moves compiled" works; `tgpl
to-asp` writes it (29.8 s, 586 MB).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

import pytest
from click.testing import CliRunner

from differential import (SeenModel, checks_clean_and_plays, lowered_and_validated, played_beside,
                          plays_to_the_models_end)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

GOALS = (4, 0)
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class Quor:
    """The model's state: each pawn's square, the squares with a wall below them (`south`: between (x, y) and (x, y +
    1)) and on their right (`east`: between (x, y) and (x + 1, y)), the posts taken, the walls left by seat, the moves
    made and the seat to move."""

    pawns: tuple = ((2, 0), (2, 4))
    south: frozenset = frozenset()
    east: frozenset = frozenset()
    posts: frozenset = frozenset()
    left: tuple = (3, 3)
    made: int = 0
    who: int = 0

    def seen(self) -> tuple:
        return self.pawns, self.south, self.east, self.posts, self.left, self.made


def on_board(c) -> bool:
    return 0 <= c[0] < 5 and 0 <= c[1] < 5


def blocked(south, east, a, b) -> bool:
    """Whether a wall lies between neighbouring squares a and b."""
    (ax, ay), (bx, by) = a, b
    if ax == bx:
        return (ax, min(ay, by)) in south
    return (min(ax, bx), ay) in east


def with_wall(s: Quor, post, flat: bool) -> tuple[frozenset, frozenset]:
    """The walls once a wall is put at `post`: flat blocks the two squares left and right of the post from those
    below them; upright blocks the two squares above and below it from those on their right."""
    x, y = post
    if flat:
        return s.south | {(x, y), (x + 1, y)}, s.east
    return s.south, s.east | {(x, y), (x, y + 1)}


def path(south, east, start, goal_y) -> bool:
    """Breadth-first search: can a pawn at `start` reach row `goal_y` (pawns do not block)."""
    todo, seen = deque([start]), {start}
    while todo:
        c = todo.popleft()
        if c[1] == goal_y:
            return True
        for dx, dy in DIRS:
            n = (c[0] + dx, c[1] + dy)
            if on_board(n) and n not in seen and not blocked(south, east, c, n):
                seen.add(n)
                todo.append(n)
    return False


def fits(s: Quor, post, flat: bool) -> bool:
    x, y = post
    if (x, y, True) in s.posts or (x, y, False) in s.posts:
        return False
    edges = ((x, y), (x + 1, y)) if flat else ((x, y), (x, y + 1))
    if any(e in (s.south if flat else s.east) for e in edges):
        return False
    south, east = with_wall(s, post, flat)
    return all(path(south, east, s.pawns[p], GOALS[p]) for p in (0, 1))


def moves(s: Quor) -> list:
    """Steps (a neighbour with no wall between, not the other pawn; or straight over the other pawn), then walls."""
    me, other = s.pawns[s.who], s.pawns[1 - s.who]
    out = []
    for dx, dy in DIRS:
        n = (me[0] + dx, me[1] + dy)
        if not on_board(n) or blocked(s.south, s.east, me, n):
            continue
        if n != other:
            out.append(("step", n))
            continue
        j = (n[0] + dx, n[1] + dy)
        if on_board(j) and not blocked(s.south, s.east, n, j):
            out.append(("step", j))
    if s.left[s.who] > 0:
        out += [("wall", (x, y), flat) for x in range(4) for y in range(4) for flat in (True, False)
                if fits(s, (x, y), flat)]
    return out


def apply(s: Quor, m: tuple):
    """The state after `m` and the result: the mover on their goal row wins, a draw after the 40th move."""
    if m[0] == "step":
        pawns = tuple(m[1] if p == s.who else s.pawns[p] for p in (0, 1))
        after = replace(s, pawns=pawns)
        if m[1][1] == GOALS[s.who]:
            return after, s.who
    else:
        south, east = with_wall(s, m[1], m[2])
        left = tuple(n - 1 if p == s.who else n for p, n in enumerate(s.left))
        after = replace(s, south=south, east=east, posts=s.posts | {(*m[1], m[2])}, left=left)
    after = replace(after, made=s.made + 1)
    if after.made >= 40:
        return after, "draw"
    return replace(after, who=1 - s.who), None


def text(s: Quor, m: tuple) -> str:
    if m[0] == "step":
        return f"Seat#{s.who}.Step(to: Cells[{m[1][0]}][{m[1][1]}])"
    return f"Seat#{s.who}.{'Flat' if m[2] else 'Upright'}(at: Posts[{m[1][0]}][{m[1][1]}])"


def observed(state) -> tuple:
    """The runtime's pawns, walls, posts taken, walls left and moves made, in the model's terms."""
    w = state.world
    seats = [w.fields(w.named(f"Seat#{p}")) for p in (0, 1)]

    def xy(ref) -> tuple:
        f = w.fields(ref)
        return int(f["X"]), int(f["Y"])

    cells = {(x, y): w.fields(w.named(f"Cells[{x}][{y}]")) for x in range(5) for y in range(5)}
    posts = {(x, y): w.fields(w.named(f"Posts[{x}][{y}]")) for x in range(4) for y in range(4)}
    return (tuple(xy(s["At"]) for s in seats),
            frozenset(c for c, f in cells.items() if f["WallS"]),
            frozenset(c for c, f in cells.items() if f["WallE"]),
            frozenset((x, y, flat) for (x, y), f in posts.items() for flat in (True, False)
                      if f["Flat" if flat else "Upright"]),
            tuple(int(s["WallsLeft"]) for s in seats),
            int(w.fields(w.named("Match"))["Moves"]))


SEEN = SeenModel(moves, apply, text)
paired, paired_moves, paired_apply, paired_text = SEEN.pair, SEEN.pair_moves, SEEN.pair_apply, SEEN.pair_text


# the game as first written (the goal row looked for inside the flood) and as rewritten for the lowering (the flood
# finished, then searched)
GAMES = ["quoridor5", "quoridor5_flood"]
# random plays of 5 x 5 Quoridor mostly reach the 40th move; these seeds include wins of each seat
SEEDS = [0, 1, 5, 7, 10, 13]


def runtime_start(name: str):
    return load_game(game(name)).initial_state(0)


def test_the_model_refuses_a_wall_that_shuts_a_pawn_in():
    """Seat 0 in the corner (0, 1) behind an upright wall at post (0, 0): a flat wall at post (0, 1) would shut it in
    the two squares (0, 0) and (0, 1); at post (0, 2) it leaves the way down the column."""
    s = Quor(pawns=((0, 1), (2, 3)), east=frozenset({(0, 0), (0, 1)}), posts=frozenset({(0, 0, False)}),
             left=(3, 2), made=5, who=1)
    assert not path(*with_wall(s, (0, 1), True), (0, 1), 4)
    assert ("wall", (0, 1), True) not in moves(s) and ("wall", (0, 2), True) in moves(s)


def test_the_model_jumps_straight_over_the_other_pawn():
    s = Quor(pawns=((2, 2), (2, 3)))
    assert sorted(m[1] for m in moves(s) if m[0] == "step") == [(1, 2), (2, 1), (2, 4), (3, 2)]
    walled = replace(s, south=frozenset({(2, 3)}))  # a wall behind the other pawn: no jump
    assert sorted(m[1] for m in moves(walled) if m[0] == "step") == [(1, 2), (2, 1), (3, 2)]


# seat 0 walks to the corner, seat 1 stands a wall at post (0, 0) beside it: a flat wall at post (0, 1) is then not
# among seat 1's moves (it would shut seat 0's pawn in)
SHUT_IN = [("step", (1, 0)), ("step", (2, 3)), ("step", (0, 0)), ("wall", (0, 0), False), ("step", (0, 1))]


@pytest.mark.parametrize("name", GAMES)
def test_a_wall_may_not_shut_a_pawn_in(name):
    state, model, result = played_beside(runtime_start(name), paired(Quor()), SHUT_IN, paired_apply, paired_text,
                                         observed)
    s = model[1]
    assert result is None and s.pawns[0] == (0, 1) and s.who == 1
    texts = sorted(m.text for m in state.legal_moves())
    assert texts == sorted(text(s, m) for m in moves(s))
    assert "Seat#1.Flat(at: Posts[0][1])" not in texts and "Seat#1.Flat(at: Posts[0][2])" in texts


def model_perft(s: Quor, depth: int) -> int:
    if depth == 0:
        return 1
    n = 0
    for m in moves(s):
        nxt, result = apply(s, m)
        n += 1 if result is not None else model_perft(nxt, depth - 1)
    return n


def runtime_perft(state, depth: int) -> int:
    if depth == 0 or state.is_terminal:
        return 1
    return sum(runtime_perft(state.apply(m), depth - 1) for m in state.legal_moves())


@pytest.mark.parametrize("name", GAMES)
def test_the_move_tree_is_the_models(name):
    """Two plies: 3 steps and 32 walls open the game; a wall leaves the other seat fewer."""
    assert len(moves(Quor())) == 35
    assert runtime_perft(runtime_start(name), 2) == model_perft(Quor(), 2) == 1109


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_plays_end_as_the_model_says(name, seed):
    plays_to_the_models_end(runtime_start(name), paired(Quor()), Lcg(seed), paired_moves, paired_apply,
                            paired_text, observed)


def test_the_seeded_plays_meet_every_rule():
    """Over the seeded plays above both seats win and some play is drawn, pawns jump, and some wall is refused
    only because it would cut a pawn's every path."""
    results, jumps, cut = set(), 0, 0
    for seed in SEEDS:
        s, rng, result = Quor(), Lcg(seed), None
        while result is None:
            ms = moves(s)
            if s.left[s.who] > 0:
                cut += sum(1 for x in range(4) for y in range(4) for flat in (True, False)
                           if ("wall", (x, y), flat) not in ms and (x, y, True) not in s.posts
                           and (x, y, False) not in s.posts
                           and not any(e in (s.south if flat else s.east)
                                       for e in (((x, y), (x + 1, y)) if flat else ((x, y), (x, y + 1)))))
            m = ms[rng.below(len(ms))]
            me = s.pawns[s.who]
            jumps += m[0] == "step" and abs(m[1][0] - me[0]) + abs(m[1][1] - me[1]) == 2
            s, result = apply(s, m)
        results.add(result)
    assert results == {0, 1, "draw"} and jumps > 0 and cut > 0, (results, jumps, cut)


@pytest.mark.parametrize("name", GAMES)
def test_each_checks_clean_and_plays_to_its_end(name):
    checks_clean_and_plays(game(name))


def test_the_dry_run_names_the_flood_to_rewrite():
    """quoridor5.tgpl's `HasPath` returns from inside its flood: the dry run refuses it at the add that grows the
    list, and names the walk and the rewrite that lowers (the walk with no return in it, the list then searched),
    rather than a counter or other strategies, which do not fit a path search."""
    r = CliRunner().invoke(main, ["to-gdl", game("quoridor5"), "--dry-run"])
    assert r.exit_code == 1, r.output
    first = r.output.splitlines()[0]
    assert "quoridor5.tgpl:172:21: error: not lowerable: the lowering built conditions of more than 3,000,000 parts " \
           "for the legal moves and the moves of one control state (here, in HasPath)" in first, first
    assert "the loop at 163:9 walks the list 'reached' while it grows it" in first, first
    assert "keep the walk, with no return in it, and read 'reached' after it only by 'reached.contains(x)' or in a " \
           "loop over it that returns true or false (language decision 114)" in first, first
    assert "keep the count in a counter" not in first, first


def test_spelled_out_the_refusal_names_the_flood_as_written(tmp_path):
    """Spelled out, quoridor5_flood.tgpl is refused in the search the flood rewrite made of `HasPath`'s list
    (`HasPathFlood1`, a name the designer never wrote, issue 34): the refusal names `HasPath` and its flood of
    `reached`, at the flood's loop, and the hint that works (--moves compiled); nothing is written."""
    out = tmp_path / "quoridor5_flood.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("quoridor5_flood"), "--moves", "spelled", "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    said = r.output.splitlines()
    assert ("quoridor5_flood.tgpl:166:9: error: not lowerable: the lowering built conditions of "
                            "more than 3,000,000 parts for the legal moves and the moves of one control state "
                            "(here, in HasPath, its flood of the list 'reached' at line 166) without finishing "
                            "them") in said[0], said[0]
    assert "try --moves compiled" in said[0], said[0]
    assert said[1].split("|", 1)[1].strip() == "for (number i = 0; i < reached.length; i += 1)", said
    assert "Flood1" not in r.output, r.output


def test_the_rewrite_lowers_and_validates(tmp_path):
    """quoridor5_flood.tgpl, the rewrite the hint asks for: `tgpl to-gdl` (auto) compiles its moves, the flood a
    recursive relation, and validates it by playouts to the end of the game."""
    text, _ = lowered_and_validated(game("quoridor5_flood"), tmp_path / "quoridor5_flood.kif")
    assert "; Played one state at a time (its moves compiled); check it with:" in text.splitlines()[:4]
    assert "(<= (haspathflood1_s3_found " in text  # the flood's search, a closure (language decision 115)


def test_compiled_moves_name_the_flood_to_rewrite(tmp_path):
    """`--moves compiled` refuses quoridor5.tgpl at the list `HasPath` grows (a list that changes), and names the
    walk and the rewrite that compiles, as the spelled-out refusal does (quoridor5_flood.tgpl compiles, above)."""
    out = tmp_path / "quoridor5.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("quoridor5"), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    assert "quoridor5.tgpl:162:9: error: not lowerable: the moves cannot be compiled: a list of values not " \
           "known when compiling; the loop at 163:9 walks the list 'reached' while it grows it" in r.output, r.output
    assert "keep the walk, with no return in it, and read 'reached' after it only by" in r.output, r.output
