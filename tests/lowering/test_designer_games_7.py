"""Kalah (mancala) with 4 pits a side and 3 seeds a pit, written as a designer writes it from the rule sheet
(tests/data/designers/kalah.tgpl), in a style the tool was not tuned to: the pits and stores are tiles of a
square grid with a `Seeds` attribute, a move sows with `while (hand > 0)`, walking the ring by coordinates and
skipping the opponent's store with `continue`; an extra turn is a move that does not pass; a capture reads the
pit opposite; the end sweeps each side into its store and compares the stores.

Its state space is bounded: 24 seeds in 10 holes, and every play ends (a move either puts a seed into a store,
where it stays, or moves the seeds of the mover's side on towards the mover's store without leaving it), with
5,193,482 states that are not over, by the model below. The runtime is checked against an independent Python
model (perft, seeded plays to the end); then its lowering. The ten `Seeds` are a conserved family
(tgpl/lowering/conserved.py, tests/lowering/test_conserved.py): each within 0..24, no range search needed (the joint
search's states are millions, and counter by counter the end check reads eight of them at once). Spelled out, its
comparison of the stores after the sweep, which reads nine holes' seeds (25^9 combinations of values), is a chain
of sums over the number line (tgpl/lowering/number_chains.py); compiled, it is refused at the sowing loop. What is
pinned here is the joint search's pruning (the family taken as not proved), the chains, and the refusal."""

from __future__ import annotations

import pytest

from differential import model_perft, plays_to_the_models_end, runtime_perft
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

# The model's ring: 0..3 player 0's pits (left to right), 4 player 0's store, 5..8 player 1's pits (right to
# left), 9 player 1's store; sowing goes up the ring. Pit i's opposite is 8 - i.
STORES = (4, 9)
START = ((3, 3, 3, 3, 0, 3, 3, 3, 3, 0), 0)


def hole_of(i: int) -> tuple[int, int]:
    """The grid cell (column, row) of the ring's hole i."""
    return (i + 1, 1) if i <= 4 else (9 - i, 0)


def pits(p: int) -> range:
    return range(0, 4) if p == 0 else range(5, 9)


def model_moves(state) -> list[int]:
    board, p = state
    return [i for i in pits(p) if board[i] > 0]


def model_apply(state, i: int):
    """The next state, and the result: None while the game goes on, the winner, or "draw"."""
    b, p = list(state[0]), state[1]
    hand, b[i], j = b[i], 0, i
    while hand:
        j = (j + 1) % 10
        if j == STORES[1 - p]:
            continue
        b[j] += 1
        hand -= 1
    if j in pits(p) and b[j] == 1 and b[8 - j] > 0:
        b[STORES[p]] += b[8 - j] + 1
        b[8 - j] = b[j] = 0
    if not any(b[k] for k in pits(0)) or not any(b[k] for k in pits(1)):
        for q in (0, 1):
            b[STORES[q]] += sum(b[k] for k in pits(q))
            for k in pits(q):
                b[k] = 0
        won = 0 if b[4] > b[9] else 1 if b[9] > b[4] else "draw"
        return (tuple(b), p), won
    return (tuple(b), p if j == STORES[p] else 1 - p), None


def model_text(p: int, i: int) -> str:
    x, y = hole_of(i)
    return f"Side#{p}.Sow(pit: Holes[{x}][{y}])"


def seeds(state) -> tuple[int, ...]:
    w = state.world
    return tuple(int(w.fields(w.named("Holes[{}][{}]".format(*hole_of(i))))["Seeds"]) for i in range(10))


def test_kalah_move_tree_is_the_models():
    """4 first moves, then the tree to 5 plies, extra turns included, as the model counts it."""
    start = load_game(game("kalah")).initial_state(0)
    assert seeds(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 6)]
    assert [runtime_perft(start, d) for d in range(1, 6)] == model
    assert model_perft(model_moves, model_apply, START, 1) == 4


def test_an_extra_turn_and_a_capture():
    """Player 0 sows its second pit's 3 seeds, the last into its store, and moves again; its third pit's 4 seeds
    pass its store into player 1's pits; player 1 sows its first pit round into player 0's side; then player 0's
    lone seed of its second pit lands in its emptied third pit, opposite player 1's 4: 5 seeds to its store."""
    state = load_game(game("kalah")).initial_state(0)
    played = [((0, 1), (3, 0, 4, 4, 1, 3, 3, 3, 3, 0), 0), ((0, 2), (3, 0, 0, 5, 2, 4, 4, 3, 3, 0), 1),
              ((1, 8), (4, 1, 0, 5, 2, 4, 4, 3, 0, 1), 0), ((0, 1), (4, 0, 0, 5, 7, 4, 0, 3, 0, 1), 1)]
    for (p, i), board, mover in played:
        state = state.apply(state.resolve(model_text(p, i)))
        assert seeds(state) == board
        assert sorted(m.text for m in state.legal_moves()) == sorted(
            model_text(mover, k) for k in pits(mover) if board[k])


@pytest.mark.parametrize("seed", range(8))
def test_kalah_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("kalah")).initial_state(0), START, Lcg(seed), model_moves, model_apply,
                            lambda model, m: model_text(model[1], m), seeds)


# --- its lowering ---------------------------------------------------------------------------------------------
class _Searched(Exception):
    """The joint search of the counters' ranges is over: the test needs nothing after it."""


def test_the_joint_search_gives_up_combinations_early(monkeypatch):
    """A sowing that captures or ends the game writes the `Seeds` of many holes by cases, so a state of the
    counters' joint search (segments.joint_ranges) has combinations of their values that no way through the move
    writes together. `Together.combos` gives the same combinations as the whole product filtered by `Together`,
    in its order, and asks fewer questions: enumerated by clingo (`Together._enumerated`), or, past its models,
    a first part that cannot hold is not extended (before the enumeration, on the first 150 states, 1,585
    questions instead of 2,846)."""
    from itertools import product

    from tgpl.lowering import segments
    from tgpl.lowering.universe import Universe
    from tgpl.runtime.snapshot import snapshot

    asked = [0]
    judge = segments.Together.__call__

    def counted(self, *args):
        asked[0] += 1
        return judge(self, *args)

    combos = segments.Together.combos
    totals = {"pruned": 0, "whole": 0, "calls": 0}

    def compared(self, pcs, writes, options, values, env, known):
        before = asked[0]
        found = combos(self, pcs, writes, options, values, env, known)
        totals["pruned"] += asked[0] - before
        before = asked[0]
        assert found == [c for c in product(*options) if self(pcs, writes, c, values, env, known)]
        totals["whole"] += asked[0] - before
        totals["calls"] += 1
        return found

    def stop(*args, **kwargs):
        raise _Searched

    monkeypatch.setattr(segments, "conserved_families", lambda *args: {})  # the joint search as if not proved
    monkeypatch.setattr(segments.Together, "__call__", counted)
    monkeypatch.setattr(segments.Together, "combos", compared)
    monkeypatch.setattr(segments, "JOINT_LIMIT", 150)
    monkeypatch.setattr(segments, "alone_ranges", stop)
    g = load_game(game("kalah"))
    with pytest.raises(_Searched):
        segments.lowered_logic(g.program, Universe.from_snapshot(snapshot(g.initial_state(0))),
                               lambda u: segments.Lowering(g.program, u))
    assert totals["calls"] > 100
    assert totals["pruned"] * 3 < totals["whole"] * 2, totals


def test_its_moves_compiled_are_refused_at_the_sowing_loop(tmp_path):
    """`--moves compiled` cannot take a loop that reads what it writes and runs as long as a number of the state
    says: refused at once, at the `while`, nothing written."""
    from click.testing import CliRunner

    from tgpl.cli import main

    out = tmp_path / "kalah.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("kalah"), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 2, r.output
    where, _, message = r.output.splitlines()[0].partition(":120:13: ")
    assert where.endswith("kalah.tgpl") and message.startswith(
        "error: not lowerable: the moves cannot be compiled: a loop that reads 'Seeds', which it writes"), r.output
    assert "while (hand > 0)" in r.output and "Traceback" not in r.output
    assert not out.exists()


def test_spelled_out_its_sums_of_seeds_are_chains_not_combinations(monkeypatch):
    """The seeds' ranges come from their conservation: the joint search is tried only within
    CONSERVED_JOINT_LIMIT states (too few for Kalah's millions), and no other search runs (one would fail the
    test). The comparisons of sums of seeds (`first > second` after the sweep reads up to nine holes, 25^9
    combinations of values; a side empty, four) and the sums written (a store after the sweep, five holes) are
    chains over the number line (tgpl.lowering.number_chains), each a few thousand ground rows at most, with the
    family's total 24 as the table's end: nothing is refused at them. Before, the end check was refused at 164:21."""
    from tgpl.lowering import segments
    from tgpl.lowering.symbolic import CmpLit, Num, cases_of, literals
    from tgpl.lowering.universe import Universe
    from tgpl.runtime.snapshot import snapshot

    def searched(*args, **kwargs):
        raise AssertionError("the range of a conserved family was searched")

    joint = segments.joint_ranges
    tried: list[int | None] = []

    def bounded(*args, **kwargs):
        tried.append(kwargs.get("most"))
        return joint(*args, **kwargs)

    got = {}

    def after_comparisons(self, logic):  # the first cut of the sowing loop is enough for the end check
        got["logic"] = logic
        raise _Searched

    monkeypatch.setattr(segments, "joint_ranges", bounded)
    for name in ("alone_ranges", "counter_ranges"):
        monkeypatch.setattr(segments, name, searched)
    monkeypatch.setattr(segments.Lowering, "check_pools", after_comparisons)
    g = load_game(game("kalah"))
    with pytest.raises(_Searched):
        segments.lowered_logic(g.program, Universe.from_snapshot(snapshot(g.initial_state(0))),
                               lambda u: segments.Lowering(g.program, u))
    assert tried and set(tried) == {segments.CONSERVED_JOINT_LIMIT}
    logic = got["logic"]
    assert logic.totals == {"Seeds": 24}
    line = logic.number_line()
    compared = {k for st in logic.states.values() for p in st.paths for k in literals(p.pc) if isinstance(k, CmpLit)}
    written = {x for st in logic.states.values() for p in st.paths for v in p.store.values()
               for x, _ in cases_of(v) if isinstance(x, Num) and len(x.leaves()) > 2}
    nine = [k for k in compared if len(segments.num_leaves(k.left) | segments.num_leaves(k.right)) == 9]
    assert nine and written
    for k in nine:
        plan = line.plan(k.left, k.op, k.right)
        assert plan.worth and plan.combinations >= 25.0 ** 7 and plan.rows < 6_000, (k, plan)
    for x in written:
        plan = line.plan(x)
        assert plan.worth and plan.rows < 3_000, (x, plan)
