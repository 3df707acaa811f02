"""Differential playouts: the runtime and the GDL reasoner on the lowered game, step by step.

At every step of a random playout the two must agree on: the whole state (the
runtime's state encoded as GDL fluents equals the reasoner's true fluents),
terminal status, goals at the end, and the legal moves (the mover's moves
mapped by name; every other role may only `noop`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tgpl.asp.reasoner import GdlGame
from tgpl.lowering.lower import lower
from tgpl.runtime.game import Game, load_game
from tgpl.runtime.snapshot import snapshot


@dataclass
class Lowered:
    game: Game
    lowered: object
    gdl: GdlGame

    @staticmethod
    def of(path: str, seed: int = 0) -> "Lowered":
        game = load_game(path)
        lowered = lower(game.program, snapshot(game.initial_state(seed)))
        return Lowered(game, lowered, GdlGame(lowered.program))


def playout(lw: Lowered, rng: random.Random, seed: int = 0, max_steps: int = 500, state_check: bool = True) -> int:
    """One random playout checked at every step; returns its length."""
    state = lw.game.initial_state(seed)
    g = lw.gdl.initial_state()
    texts = lw.lowered.move_texts
    roles = lw.gdl.roles
    for step in range(max_steps + 1):
        where = f"after {step} moves"
        if state_check:
            assert {str(f) for f in g.fluents} == lw.lowered.state_fluents(snapshot(state)), where
        assert g.is_terminal == state.is_terminal, where
        if state.is_terminal:
            assert g.goals == state.goals, where
            return step
        mover = state.active_player
        runtime_moves = sorted(m.text for m in state.legal_moves())
        gdl_moves = sorted(texts[str(m)] for m in g.legal_moves(roles[mover]))
        assert gdl_moves == runtime_moves, where
        for i, r in enumerate(roles):
            if i != mover:
                assert [str(m) for m in g.legal_moves(r)] == ["noop"], where
        if not runtime_moves:
            return step
        move = rng.choice(runtime_moves)
        term = next(t for t, text in texts.items() if text == move)
        joint = [term if i == mover else "noop" for i in range(len(roles))]
        state = state.apply(move)
        g = g.apply(joint)
    raise AssertionError(f"no end after {max_steps} moves")
