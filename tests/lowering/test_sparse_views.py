"""View chains held for the objects a move changed only (tgpl.lowering.sparse_views): the same game, state for
state, with its reads of a view split in two (the view's writes, or the state where the chain left the object)."""

from __future__ import annotations

from collections import deque

from tgpl.asp.kif import read_kif, to_kif
from tgpl.asp.reasoner import GdlGame
from tgpl.lowering.ir import Program, Var
from tgpl.lowering.sparse_views import MOST_SPLITS, sparse_views

# a board of three cells; a move sets one cell (view v1), then copies cell a onto b when a holds x (view v2,
# read positively by `next` and negatively by a flag), and a count of `o`s is read through v1 twice
GAME = """
(role p)
(obj a) (obj b) (obj c)
(val x) (val o) (val e)
(init (cell a e)) (init (cell b e)) (init (cell c e))
(<= (legal p (set ?c ?v)) (obj ?c) (val ?v) (distinct ?v e) (true (cell ?c e)))
(<= (legal p wipe) (true (cell c x)))

(<= (v1 ?c ?v) (does p (set ?c ?v)))
(<= (c1 ?c) (does p (set ?c ?v)))
(<= (v1 a e) (does p wipe))
(<= (c1 a) (does p wipe))
(<= (v1 ?c ?v) (true (cell ?c ?v)) (not (c1 ?c)))

(<= (v2 b x) (v1 a x))
(<= (c2 b) (v1 a x))
(<= (v2 ?c ?v) (v1 ?c ?v) (not (c2 ?c)))

(<= (next (cell ?c ?v)) (v2 ?c ?v))
(<= (next (flag up)) (not (v2 c x)) (v1 b ?v) (v1 a ?v))
(<= terminal (true (cell c x)) (true (cell b o)))
(<= terminal (true (flag up)) (true (cell a x)) (true (cell b x)))
(<= (goal p 100) terminal)
(<= (goal p 0) (not terminal))
"""


def _program(text: str = GAME) -> Program:
    return read_kif(text)


def _states(program: Program) -> dict[frozenset[str], list[str]]:
    """Every reachable state's fluents (texts) with its legal moves, breadth first."""
    game = GdlGame.from_text(to_kif(program), mode="once")
    start = game.initial_state()
    seen: dict[frozenset[str], list[str]] = {}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        key = frozenset(str(f) for f in s.fluents)
        if key in seen:
            continue
        seen[key] = sorted(str(m) for m in s.legal_moves("p")) + (["terminal"] if s.is_terminal else [])
        if not s.is_terminal:
            todo.extend(nxt for _, nxt in s.successors())
    return seen


def test_a_sparse_game_is_the_same_game_state_for_state():
    program = _program()
    sparse = sparse_views(program)
    assert sparse != program
    heads = {r.head.relation for r in sparse.rules}
    assert {"v1_touched", "v2_touched"} <= heads
    # the copies of the whole board are gone: v2 copies only what v1 holds now, v1 copies nothing
    copies = [r for r in sparse.rules if r.head.relation in ("v1", "v2")
              and all(isinstance(a, Var) for a in r.head.args) and any(a.relation == "true" for a, _ in r.body_atoms())]
    assert copies == []
    want = _states(program)
    assert len(want) > 20
    assert _states(sparse) == want


def test_a_write_without_its_changed_leaves_the_view_whole():
    """The reads' split needs each write to come with its `changed`: a write of `wipe` that does not say `a`
    changed is another view (the old value stays beside the new one), which must be left as it is."""
    text = GAME.replace("(<= (c1 a) (does p wipe))\n", "")
    program = _program(text)
    sparse = sparse_views(program)
    v1 = [r for r in sparse.rules if r.head.relation == "v1"]
    assert v1 == [r for r in program.rules if r.head.relation == "v1"]  # whole, its copy rule and all
    assert "v1_touched" not in {r.head.relation for r in sparse.rules}
    assert _states(sparse) == _states(program)


def test_a_rule_that_reads_too_many_views_keeps_the_later_ones_whole():
    reads = " ".join("(v2 a ?v)" for _ in range(MOST_SPLITS))
    program = _program(GAME + f"(<= (next (flag many)) {reads} (v1 b ?v))\n")
    sparse = sparse_views(program)
    heads = {r.head.relation for r in sparse.rules}
    assert "v1_touched" in heads and "v2_touched" not in heads
    assert max(sum(1 for a, _ in r.body_atoms() if a.relation in ("v1", "v2")) for r in sparse.rules) <= 4
    assert _states(sparse) == _states(program)


def test_a_program_without_views_is_left_as_it_is():
    program = _program("(role p) (init (cell a e)) (<= (legal p noop) (true (cell a e))) "
                       "(<= (next (cell a ?v)) (true (cell a ?v))) (<= terminal (true (cell a x))) (goal p 0)")
    assert sparse_views(program) is program
