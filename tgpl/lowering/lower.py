"""Lowering a TGPL game to logic rules: the entry point.

    lowered = lower(program, snapshot)      # program checked, snapshot after setup
    lowered.program                         # the GDL rules (tgpl.lowering.ir)

The caller runs setup on the runtime and hands over its snapshot
(tgpl.runtime.snapshot) as plain data, so this layer never imports the runtime.
"""

from __future__ import annotations

from tgpl.lowering.emit import LoweredGame, emit_gdl
from tgpl.lowering.execute import NotLowerable
from tgpl.lowering.segments import GameLogic, Lowering
from tgpl.lowering.universe import Universe


def game_logic(program, snapshot: dict) -> GameLogic:
    """Moves, segments and ranges of the game (raises NotLowerable)."""
    return Lowering(program, Universe.from_snapshot(snapshot)).run()


def lower(program, snapshot: dict) -> LoweredGame:
    """The game as a GDL program (raises NotLowerable)."""
    return emit_gdl(game_logic(program, snapshot))


__all__ = ["LoweredGame", "NotLowerable", "game_logic", "lower"]
