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
        # Worlds that pending states (waiting for a choice) re-run from: id -> how many
        # such states this machine handed out and explore has not released yet.
        self._base_users: dict[int, int] = {}
        # Worlds whose own state was released while pending states still use them.
        self._orphans: set[int] = set()

    def initial(self) -> State:
        state = self.game.initial_state(self.seed)
        self._handed_out(state)
        return state

    def _handed_out(self, state: State) -> None:
        if state.base is not None:
            self._base_users[id(state.base)] = self._base_users.get(id(state.base), 0) + 1

    def release(self, state: State) -> None:
        """Break the reference cycles of a state's world once explore is done with the state.

        A world's objects refer to each other (a tile to its group, the group to its
        tiles), so a dropped world is freed only by Python's cyclic garbage collector,
        whose full collections then traverse every live and dead world: on tic-tac-toe
        that was a third of the exploration. Every world handed out here belongs to one
        state, except that a pending state re-runs its segment from the world it started
        from (`base`), which a state that may already be released owns; such a world is
        cleared when the last pending state using it is released.
        """
        base = state.base
        if base is not None:
            users = self._base_users.get(id(base), 0) - 1
            if users > 0:
                self._base_users[id(base)] = users
            else:
                self._base_users.pop(id(base), None)
                if id(base) in self._orphans:
                    self._orphans.discard(id(base))
                    base.clear()
        world = state.world
        if id(world) in self._base_users:
            self._orphans.add(id(world))
        else:
            world.clear()

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
