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
        # Worlds that pending states (waiting for a choice) re-run from, by id: the world
        # (held, so that its id stays its own), how many such states this machine handed
        # out that are not released yet, and whether the world's own state was released.
        self._bases: dict[int, list] = {}

    def initial(self) -> State:
        state = self.game.initial_state(self.seed)
        self._handed_out(state)
        return state

    def _handed_out(self, state: State) -> None:
        if state.base is not None:
            entry = self._bases.setdefault(id(state.base), [state.base, 0, False])
            entry[1] += 1

    def release(self, state: State) -> None:
        """Break the reference cycles of a state's world once explore is done with the state.

        A world's objects refer to each other (a tile to its group, the group to its
        tiles), so a dropped world is freed only by Python's cyclic garbage collector,
        whose full collections then traverse every live and dead world: on tic-tac-toe
        that was a third of the exploration. Every world handed out here belongs to one
        state, except that a pending state re-runs its segment from the world it started
        from (`base`), which a state that may already be released owns; such a world is
        cleared when both its state and the last pending state using it are released.
        """
        if state.base is not None:
            entry = self._bases.get(id(state.base))
            if entry is not None:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._bases[id(state.base)]
                    if entry[2]:
                        entry[0].clear()
        entry = self._bases.get(id(state.world))
        if entry is not None:
            entry[2] = True  # pending states still re-run from it
        else:
            state.world.clear()

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
            nxt = state.apply(m)
            self._handed_out(nxt)
            out.append((m.text, tuple(j), nxt))
        return Info(False, [], (p,), () if moves else (p,), out)
