"""The GDL reasoner as a `tgpl.verify.graph.Machine` (what `tgpl verify` and `tgpl compare` explore)."""

from __future__ import annotations

from tgpl.asp.reasoner import GdlError, GdlGame, GdlState
from tgpl.verify.graph import Info


class GdlMachine:
    """States of a GDL game. A joint move's text is each role's move in role order, joined by ' | '.

    The movers of a state are the roles whose legal moves are not just one `noop`
    (a role with a single other move, like the last free cell, still moves).
    """

    def __init__(self, game: GdlGame):
        self.game = game
        self.roles = [str(r) for r in game.roles]

    def initial(self) -> GdlState:
        return self.game.initial_state()

    def key(self, state: GdlState):
        return state.key()

    def info(self, state: GdlState) -> Info:
        if state.is_terminal:
            try:
                return Info(True, state.goals, (), (), [])
            except GdlError as e:
                return Info(True, [None] * len(self.roles), (), (), [], str(e))
        per_role = [[str(m) for m in state.legal_moves(r)] for r in self.game.roles]
        movers = tuple(i for i, ms in enumerate(per_role) if ms != ["noop"])
        stuck = tuple(i for i, ms in enumerate(per_role) if not ms)
        out = []
        for joint in state.legal_moves():
            texts = tuple(str(m) for m in joint)
            j = tuple(t if i in movers else None for i, t in enumerate(texts))
            out.append((" | ".join(texts), j, state.apply(joint)))
        return Info(False, [], movers, stuck, out)
