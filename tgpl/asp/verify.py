"""The GDL reasoner as a `tgpl.verify.graph.Machine` (what `tgpl verify` and `tgpl compare` explore)."""

from __future__ import annotations

from tgpl.asp.reasoner import GdlError, GdlGame, GdlState
from tgpl.verify.graph import Info


class GdlMachine:
    """States of a GDL game. A joint move's text is each role's move in role order, joined by ' | '.

    The movers of a state are the roles whose legal moves are not just one `noop`
    (a role with a single other move, like the last free cell, still moves).
    """

    def __init__(self, game: GdlGame, roles: list[str] | None = None, move_texts: dict[str, str] | None = None):
        """roles and move_texts rename roles and moves in reports: a lowered TGPL game's runtime names."""
        self.game = game
        self.roles = roles or [str(r) for r in game.roles]
        self.move_texts = move_texts
        # a lowered game's moves come in the lowering's order, which is the runtime's listing order,
        # so both engines find the same (first shortest) witnesses
        self._rank = {t: i for i, t in enumerate(move_texts.values())} if move_texts else None

    def initial(self) -> GdlState:
        return self.game.initial_state()

    def key(self, state: GdlState):
        return state.key()

    def leaf_info(self, state: GdlState) -> Info:
        """`info` without the successors (a depth-limited search's last level): one query, not a batch."""
        return self.info(state, successors=False)

    def info(self, state: GdlState, successors: bool = True) -> Info:
        if state.is_terminal:
            try:
                return Info(True, state.goals, (), (), [])
            except GdlError as e:
                return Info(True, [None] * len(self.roles), (), (), [], str(e))
        per_role = [[str(m) for m in state.legal_moves(r)] for r in self.game.roles]
        movers = tuple(i for i, ms in enumerate(per_role) if ms != ["noop"])
        stuck = tuple(i for i, ms in enumerate(per_role) if not ms)
        out = []
        for joint, after in state.successors() if successors else ():  # played per state: grounded in batches
            texts = tuple(str(m) for m in joint)
            j = tuple(t if i in movers else None for i, t in enumerate(texts))
            if self.move_texts is not None:  # a lowered game: the mover's move as the runtime writes it
                j = tuple(self.move_texts.get(t, t) if t is not None else None for t in j)
                text = " | ".join(t for t in j if t is not None)
            else:
                text = " | ".join(texts)
            out.append((text, j, after))
        if self._rank is not None:
            out.sort(key=lambda o: self._rank.get(o[0], len(self._rank)))
        return Info(False, [], movers, stuck, out)
