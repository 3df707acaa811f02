"""The TGPL runtime as a `tgpl.verify.graph.Machine` (what `tgpl verify` and `tgpl compare` explore)."""

from __future__ import annotations

from tgpl.runtime.game import Game, State
from tgpl.verify.graph import Info


class RuntimeMachine:
    """Decision states of a TGPL game; move texts are exactly what `tgpl play --moves` accepts."""

    def __init__(self, game: Game, seed: int = 0):
        self.game = game
        self.seed = seed
        self.roles = [f"player {p}" for p in range(game.players)]

    def initial(self) -> State:
        return self.game.initial_state(self.seed)

    def key(self, state: State):
        return state.key()

    def info(self, state: State) -> Info:
        if state.is_terminal:
            ranking = state.ranking
            if not any(ranking):  # `winner {}`: the game ended and names nobody
                return Info(True, [None] * self.game.players, (), (), [],
                            "the game ended without a winner (an empty ranking)")
            return Info(True, state.goals, (), (), [])
        p = state.active_player
        moves = state.legal_moves()
        joint = [None] * self.game.players
        out = []
        for m in moves:
            j = list(joint)
            j[p] = m.text
            out.append((m.text, tuple(j), state.apply(m)))
        return Info(False, [], (p,), () if moves else (p,), out)
