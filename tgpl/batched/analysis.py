"""`tgpl analyze --engine batched`: the analysis of random play, from the batched engine's playouts.

The figures are those of the runtime's analysis (tgpl.analysis.figures.summarise) that random playouts of the
lowered game determine: wins per seat, first-player advantage, balance, drawishness, decisiveness (from the
goals: a sole winner is the one role with the highest goal, a draw every role tied), length and branching
factor (legal joint moves at each step; in a game whose roles take turns, the mover's legal moves). What the
GDL does not keep is left out (null in JSON): the actions played, the most frequent state, lead changes and
the score (they read the runtime's objects). Games are numbered, not seeded: game k of the batch is not the
game `tgpl play --seed S+k` plays.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tgpl.analysis.figures import _r, wilson
from tgpl.batched.env import BatchedEnv
from tgpl.batched.playouts import Playouts
from tgpl.limits import Limits


def batched_summary(env: BatchedEnv, path: str, games: int, seed: int, max_moves: int, jobs: int = 1,
                    chunk: int | None = None, limits: Limits | None = None,
                    advance: Callable[[int], None] = lambda games: None) -> dict:
    """The figures of `games` random playouts (seed `seed`, in batches of `chunk` games, under the command's
    `limits`, `advance(n)` told of each batch's n games), in the layout of the runtime's summary. The batch
    changes no figure: each game draws its moves from its own stream."""
    played = env.random_playouts(seed, games, max_moves, jobs=jobs, tally=True, chunk=chunk, limits=limits,
                                 advance=advance)
    return summary_of(played, path, len(env.roles), seed, max_moves)


def summary_of(played: Playouts, path: str, n: int, seed: int, max_moves: int) -> dict:
    specs = ["random"] * n
    goals = played.goals[played.finished]
    finished = len(goals)
    top = goals.max(axis=1, initial=-1) if n else np.zeros(0)
    first = goals == top[:, None]  # games x roles: in first place
    tied = first.sum(axis=1)
    sole = tied == 1
    drawn = tied == n
    seat_wins = [int((sole & first[:, p]).sum()) for p in range(n)]
    seat_shared = [int((~sole & first[:, p]).sum()) for p in range(n)]
    seats = [{"seat": p, "agent": "random", "wins": wilson(seat_wins[p], finished), "shared_first": seat_shared[p]}
             for p in range(n)]
    rates = [w / finished for w in seat_wins] if finished else []
    unfinished = int((~played.finished & ~played.stuck).sum())
    return {
        "game": path,
        "engine": "batched",
        "players": specs,
        "seeds": [seed, seed],  # one seed for the whole batch (tgpl.batched.playouts)
        "games": played.games,
        "finished": finished,
        "unfinished": unfinished,
        "max_moves": max_moves,
        "seats": seats,
        "agents": {"random": {"seats": list(range(n)), "wins": wilson(sum(seat_wins), finished * n)}},
        "first_player_advantage": {"wins_of_decisive": wilson(seat_wins[0], int(sole.sum())), "fair": _r(1 / n)},
        "balance": _r(1 - (max(rates) - min(rates))) if rates else None,
        "drawishness": wilson(int(drawn.sum()), finished),
        "decisiveness": wilson(int(sole.sum()), finished),
        "length": _length(played.lengths[played.finished]),
        "branching": _branching(played),
        "lead_changes": None,
        "score_by_move": None,
        "actions": None,
        "most_frequent_state": None,
        "unfinished_games": {"count": unfinished, "seeds": [], "branching": None},
        "errors": ([{"seed": seed, "after_moves": 0, "message": f"{int(played.stuck.sum())} games reached a state "
                     "where a role has no legal move (the GDL is not valid there)"}] if played.stuck.any() else []),
    }


def _length(lengths: np.ndarray) -> dict | None:
    if len(lengths) == 0:
        return None
    values, counts = np.unique(lengths, return_counts=True)
    return {"mean": _r(float(lengths.mean())), "stdev": _r(float(lengths.std())), "min": int(lengths.min()),
            "median": _r(float(np.median(lengths))), "max": int(lengths.max()),
            "histogram": {str(int(k)): int(v) for k, v in zip(values, counts)}}


def _branching(played: Playouts) -> dict | None:
    b = played.branching
    if b is None or b.decisions == 0:
        return None
    by_move = [{"mean": _r(float(s) / g), "games": int(g)} for s, g in zip(b.by_step_sum, b.by_step_games) if g]
    return {"mean": _r(float(b.by_step_sum.sum()) / b.decisions), "max": b.most, "decisions": b.decisions,
            "forced": b.forced, "by_move": by_move}


__all__ = ["batched_summary", "summary_of"]
