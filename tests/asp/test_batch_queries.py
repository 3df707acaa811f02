"""Many per-state queries grounded as one program (GdlGame.states_after, tgpl.asp.per_state.BatchQueries).

A batch must answer each query as the query alone would: the state after the joint move, its legal moves,
goals and terminal status, for every game (static `legal` and `goal` facts included), and a query that
fails must give its error without taking the others down.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from test_reasoner_modes import GAMES, step
from tgpl.asp.kif import read_kif
from tgpl.asp import per_state
from tgpl.asp.reasoner import GdlGame, StateTooLarge

ROOT = Path(__file__).resolve().parents[2]

COUNTER = """\
(role p)
(init (count 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(legal p tick)
(<= (next (count ?y)) (true (count ?x)) (does p tick) (succ ?x ?y))
(<= terminal (true (count 3)))
(goal p 100)
"""
"""A game whose `legal` and `goal` are facts: they depend on no state, yet a batch answers them per query."""


def walk(game: GdlGame, seed: int, steps: int) -> list:
    """A random play's (state, joint move) pairs."""
    rng = random.Random(seed)
    state, out = game.initial_state(), []
    while len(out) < steps and not state.is_terminal and state.legal_moves():
        joint = rng.choice(state.legal_moves())
        out.append((state, joint))
        state = state.apply(joint)
    return out


def grounded(game: GdlGame, how: str) -> GdlGame:
    """The game with its batches grounded `how` (per_state.TOGETHER or APART), not settled by their times."""
    game._queries.batch().grounding = how
    return game


@pytest.mark.parametrize("how", [per_state.TOGETHER, per_state.APART])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_a_batch_answers_each_query_as_the_query_alone(path, how):
    game = grounded(GdlGame(read_kif(path.read_text(encoding="utf-8"), str(path)), "per-state"), how)
    assert game.batches
    pairs = walk(game, 1, 40) + walk(game, 2, 40)
    answers = game.states_after([None] + [(state.fluents, joint) for state, joint in pairs])
    alone = [game.initial_state()] + [state.apply(joint) for state, joint in pairs]
    assert len(answers) == len(alone) > 2
    for got, want in zip(answers, alone):
        assert step(got) == step(want)


def test_legal_and_goal_facts_are_answered_per_query():
    game = GdlGame(read_kif(COUNTER, "counter.kif"), "per-state")
    pairs = walk(game, 0, 10)
    assert len(pairs) == 3
    answers = game.states_after([None] + [(state.fluents, joint) for state, joint in pairs])
    assert [str(sorted(map(str, a.fluents))) for a in answers] == [f"['(count {k})']" for k in range(4)]
    assert [a.is_terminal for a in answers] == [False, False, False, True]
    assert [str(a.legal_moves("p")) for a in answers[:3]] == ["[Const(name='tick')]"] * 3
    assert answers[-1].goals == [100]
    assert [step(a) for a in answers] == [step(a) for a in [game.initial_state()] + [s.apply(j) for s, j in pairs]]


FLIP = """\
(role p)
(init (light off))
(legal p flip)
(<= (next (light on)) (not (true (light on))))
(<= (next (light off)) (true (light on)))
(<= (next (flips done)) (role p))
(<= terminal (true (flips done)) (true (light off)))
(<= (goal p 100) (true (light on)))
(<= (goal p 0) (not (true (light on))))
"""
"""`next` rules that read no fluent positively: they hold of any state given, so they must stay out of the
initial state's query, whose successor is `init` alone (gdl_batch.lp reads `next` as the look-ahead's state)."""


def test_the_initial_state_of_a_batch_is_init_alone():
    game = GdlGame(read_kif(FLIP, "flip.kif"), "per-state")
    pairs = walk(game, 0, 5)
    assert len(pairs) == 2
    answers = game.states_after([None] + [(state.fluents, joint) for state, joint in pairs] + [None])
    assert [sorted(map(str, a.fluents)) for a in answers] == [
        ["(light off)"], ["(flips done)", "(light on)"], ["(flips done)", "(light off)"], ["(light off)"]]
    assert [a.is_terminal for a in answers] == [False, False, True, False]
    assert [a.goals for a in answers] == [[0], [100], [0], [0]]
    assert [step(a) for a in answers] == [step(a) for a in
                                          [game.initial_state()] + [s.apply(j) for s, j in pairs] + [game.initial_state()]]


def test_a_query_over_the_limit_is_its_error_and_the_batch_goes_on():
    program = read_kif((ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8"), "ttt.kif")
    pairs = walk(GdlGame(program, "per-state"), 3, 4)
    tiny = GdlGame(program, "per-state", max_ground=1)  # every query grounds more than one rule
    answers = tiny.states_after([(state.fluents, joint) for state, joint in pairs])
    assert len(answers) == 4 and all(isinstance(a, StateTooLarge) for a in answers)


def test_only_a_game_played_one_state_at_a_time_takes_batches():
    game = GdlGame(read_kif(COUNTER, "counter.kif"), "once")
    assert not game.batches
    with pytest.raises(ValueError, match="one state at a time"):
        game.states_after([None])


@pytest.mark.parametrize("mode", ["once", "per-state"])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_successors_are_the_states_apply_gives(path, mode):
    """GdlState.successors, which `verify`, `compare` and `explore` expand states with: played per state, its
    states are grounded in batches."""
    game = GdlGame(read_kif(path.read_text(encoding="utf-8"), str(path)), mode)
    for state, _ in walk(game, 4, 12):
        got = [(joint, step(after)) for joint, after in state.successors()]
        assert got == [(joint, step(state.apply(joint))) for joint in state.legal_moves()]
        assert got


@pytest.mark.parametrize("how", [per_state.TOGETHER, per_state.APART])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_a_batch_shared_with_workers_answers_as_one_process(path, how):
    """GdlGame.parallel: the batch is cut into shares, grounded by forked workers and this process, and put
    back in order; each query's answer is the one a single process gives, grounded together or apart."""
    game = grounded(GdlGame(read_kif(path.read_text(encoding="utf-8"), str(path)), "per-state"), how)
    pairs = [pair for seed in range(5, 13) for pair in walk(game, seed, 60)]
    queries = ([None] + [(state.fluents, joint) for state, joint in pairs]) * 3  # the defects' plays are short
    alone = game.states_after(queries)
    batch = game._queries.batch()
    with game.parallel(workers=2):
        assert batch._workers is not None and batch._workers.count == 2
        shared = game.states_after(queries)
        small = game.states_after(queries[:5])  # under two shares: answered here
    assert batch._workers is None  # the pool is shut down with the block
    assert len(shared) == len(alone) > 3 * per_state.MIN_SHARE
    assert [step(a) for a in shared] == [step(a) for a in alone]
    assert [step(a) for a in small] == [step(a) for a in alone[:5]]


def test_workers_are_used(monkeypatch):
    """The shares past the first go to the workers (a worker that answers wrongly is seen)."""
    program = read_kif((ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8"), "ttt.kif")
    game = GdlGame(program, "per-state")
    pairs = walk(game, 7, 8) * 4
    queries = [(state.fluents, joint) for state, joint in pairs]
    right = [step(a) for a in game.states_after(queries)]
    monkeypatch.setattr(per_state, "_solve_forked", _forgetful)
    with game.parallel(workers=1):
        got = [step(a) for a in game.states_after(queries)]
    share = -(-len(queries) // 2)
    assert got[:share] == right[:share]
    assert all(g != r for g, r in zip(got[share:], right[share:]))


def _forgetful(grounding: str | None, posed, n: int) -> list[list[str]]:
    """A worker that answers every query with the initial state's fluents and no moves (a planted bug)."""
    return [["gdl_state(cell(1,1,b))"] for _ in range(n)]


def test_answers_are_split_per_query_without_their_index():
    import clingo
    shown = [clingo.parse_term(t) for t in ("gdl_state(1,cell(1,2,x))", "gdl_a_terminal(0)",
                                            "gdl_a_legal(1,xplayer,mark(f(1),2))", "gdl_a_goal(0,oplayer,100)")]
    assert per_state._answers(shown, 2) == [["gdl_a_terminal", "gdl_a_goal(oplayer,100)"],
                                             ["gdl_state(cell(1,2,x))", "gdl_a_legal(xplayer,mark(f(1),2))"]]


@pytest.mark.parametrize("how", [None, per_state.TOGETHER, per_state.APART])
@pytest.mark.parametrize("workers", [0, 2])
def test_states_later_are_the_states_after(workers, how):
    """GdlGame.states_later: the batch grounded while the caller goes on, answered when asked for; with no
    workers (`parallel(0)`), grounded then. Unsettled (None), the first batch settles it here and now."""
    path = ROOT / "examples" / "gdl" / "connect4.kif"
    game = GdlGame(read_kif(path.read_text(encoding="utf-8"), str(path)), "per-state")
    want = [step(a) for a in GdlGame(game.program, "per-state").states_after([None] + [
        (state.fluents, joint) for seed in range(3) for state, joint in walk(game, seed, 20)])]
    game._queries.batch().grounding = how
    pairs = [pair for seed in range(3) for pair in walk(game, seed, 20)]
    queries = [None] + [(state.fluents, joint) for state, joint in pairs]
    with game.parallel(workers=workers):
        assert (game._queries.batch()._workers is not None) == (workers > 0)
        first, second = game.states_later(queries), game.states_later(queries[::-1])
        assert [step(a) for a in second()] == want[::-1]
        assert [step(a) for a in first()] == want


def test_a_worker_that_dies_leaves_its_share_to_this_process():
    """A worker killed (out of memory, say) breaks the pool: its share, and every batch after, is grounded in
    this process, with the same answers, and no traceback."""
    import os
    import signal
    program = read_kif((ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8"), "ttt.kif")
    game = GdlGame(program, "per-state")
    pairs = [pair for seed in range(8) for pair in walk(game, seed, 9)]
    queries = [(state.fluents, joint) for state, joint in pairs]
    want = [step(a) for a in game.states_after(queries)]
    batch = game._queries.batch()
    with game.parallel(workers=1):
        assert [step(a) for a in game.states_after(queries)] == want  # the worker started
        for pid in list(batch._workers.pool._processes):
            os.kill(pid, signal.SIGKILL)
        assert [step(a) for a in game.states_later(queries)()] == want
        assert batch._workers is None
        assert [step(a) for a in game.states_after(queries)] == want


def test_a_broken_pool_is_let_go_when_a_batch_is_handed_over(monkeypatch):
    """The pool found broken as a batch is handed to it: the batch is grounded here."""
    from concurrent.futures.process import BrokenProcessPool
    program = read_kif((ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8"), "ttt.kif")
    game = GdlGame(program, "per-state")
    queries = [(state.fluents, joint) for seed in range(8) for state, joint in walk(game, seed, 9)]
    want = [step(a) for a in game.states_after(queries)]
    batch = game._queries.batch()
    with game.parallel(workers=1):
        def broken(*args, **kwargs):
            raise BrokenProcessPool("planted")
        monkeypatch.setattr(batch._workers.pool, "submit", broken)
        assert [step(a) for a in game.states_later(queries)()] == want
        assert batch._workers is None


def _settling(monkeypatch, together: float | None) -> list[float]:
    """`_timed_fork` planted to say the batch grounded together in `together` seconds (None: it was killed);
    the limits it was given are returned as they are asked for."""
    asked: list[float] = []

    def timed(work, most, limits):
        asked.append(most)
        return together
    monkeypatch.setattr(per_state, "_timed_fork", timed)
    return asked


@pytest.mark.parametrize("together, how", [(0.0, per_state.TOGETHER), (None, per_state.APART),
                                           (1e9, per_state.APART)])
def test_the_first_large_batch_settles_how_batches_are_grounded(monkeypatch, together, how):
    """The first batch of PROBE_LEAST queries or more is grounded apart and timed together: the faster way is
    kept for the batches after it, and its answers are the apart ones whichever wins."""
    path = ROOT / "examples" / "gdl" / "connect4.kif"
    game = GdlGame(read_kif(path.read_text(encoding="utf-8"), str(path)), "per-state")
    queries = [None] + [(state.fluents, joint) for state, joint in walk(game, 5, 30)]
    want = [step(a) for a in grounded(GdlGame(game.program, "per-state"), per_state.TOGETHER).states_after(queries)]
    batch = game._queries.batch()
    asked = _settling(monkeypatch, together)
    small = game.states_after(queries[:per_state.PROBE_LEAST - 1])  # too few to tell: apart, unsettled
    assert batch.grounding is None and asked == []
    assert [step(a) for a in small] == want[:per_state.PROBE_LEAST - 1]
    got = game.states_after(queries)
    assert batch.grounding == how and len(asked) == 1 and asked[0] > 0
    assert [step(a) for a in got] == want
    assert [step(a) for a in game.states_after(queries[::-1])] == want[::-1]
    assert len(asked) == 1  # settled once


def test_a_batch_that_grounds_faster_apart_is_grounded_apart(monkeypatch):
    """Once settled apart, a batch is grounded query by query (`_apart_answers`), never as one program."""
    game = GdlGame(read_kif(COUNTER, "counter.kif"), "per-state")
    queries = [None] + [(state.fluents, joint) for state, joint in walk(game, 0, 10)] * 2
    _settling(monkeypatch, None)
    game.states_after(queries)
    assert game._queries.batch().grounding == per_state.APART
    together, apart = [], []
    monkeypatch.setattr(per_state, "_batch_answers", lambda *args: together.append(args) or [])
    real = per_state._apart_answers
    monkeypatch.setattr(per_state, "_apart_answers", lambda statements, posed: apart.append(posed) or real(
        statements, posed))
    assert [a.goals for a in game.states_after(queries)][-1] == [100]
    assert together == [] and [len(posed) for posed in apart] == [len(queries)]


def test_a_timed_fork_gives_its_work_s_time_or_none_and_leaves_no_process():
    """per_state._timed_fork: the work's seconds, or None where it fails or passes its time (killed: the
    process is reaped)."""
    assert per_state._timed_fork(lambda: sum(range(1000)), 600.0, None) >= 0
    assert per_state._timed_fork(lambda: 1 / 0, 600.0, None) is None
    assert per_state._timed_fork(lambda: [None for _ in iter(int, 1)], 0.0, None) is None  # never ends


def _walk(static: int) -> str:
    """A game whose `reach`, a recursion that reads the state, joins `static` literals of static relations."""
    return f"""\
(role p)
(init (at 0))
(ok)
(succ 0 1) (succ 1 2) (succ 2 3)
(legal p go)
(<= (reach ?x) (true (at ?x)))
(<= (reach ?y) (reach ?x) (succ ?x ?y) {' '.join(['(ok)'] * (static - 1))})
(<= (next (at ?y)) (true (at ?x)) (succ ?x ?y))
(<= terminal (true (at 3)))
(<= (goal p 100) (reach 3) (true (at 2)))
(<= (goal p 0) (not (true (at 2))))
"""


@pytest.mark.parametrize("together, how", [(0.0, per_state.TOGETHER), (None, per_state.APART)])
def test_a_recursion_over_the_state_that_joins_many_static_relations_is_settled_by_its_first_batch(
        monkeypatch, together, how):
    """A rule's shape does not tell which way a batch grounds faster: Blokus Duo's recursions over the pieces'
    cells ground slower together, a 9x9 Pente's, with as many static literals, faster. So a game whose
    recursion over the state joins many static literals starts unsettled, its first batch is timed together
    once, and the faster way is kept; the answers are the same either way."""
    program = read_kif(_walk(26), "walk.kif")
    game = GdlGame(program, "per-state")
    assert game._queries.batch().grounding is None
    asked = _settling(monkeypatch, together)
    queries = [None] + [(state.fluents, joint) for state, joint in walk(game, 0, 10)] * 3
    assert len(queries) == 10
    want = [step(a) for a in grounded(GdlGame(program, "per-state"), per_state.TOGETHER).states_after(queries)]
    assert [step(a) for a in game.states_after(queries)] == want
    assert want[-1] == step(game.initial_state().apply(["go"]).apply(["go"]).apply(["go"]))
    assert [step(a) for a in game.states_after(queries[::-1])] == want[::-1]
    assert game._queries.batch().grounding == how and len(asked) == 1
