"""What a random playout lets one observe of a game: for tests that compare two ways of running it."""

from __future__ import annotations

from tgpl.runtime.rng import Pcg32


def playout(state, seed: int, limit: int = 400) -> list:
    """Everything observable along a random playout: moves, logs, keys, the ranking."""
    rng = Pcg32(seed)
    seen = []
    for _ in range(limit):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        seen.append(([m.text for m in moves], state.key(), tuple(state.log)))
        if not moves:
            break
        state = state.apply(moves[rng.below(len(moves))])
    seen.append((state.ranking, state.key(), tuple(state.log)))
    return seen
