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


def game_logic(program, snapshot: dict, relations: bool = False) -> GameLogic:
    """Moves, segments and ranges of the game (raises NotLowerable).

    With `relations`, pure functions that read the state are written once as rules
    with variables (tgpl.lowering.horn) rather than once per call.
    """
    return Lowering(program, Universe.from_snapshot(snapshot), relations).run()


def lower(program, snapshot: dict, relations: bool = False) -> LoweredGame:
    """The game as a GDL program (raises NotLowerable)."""
    return emit_gdl(game_logic(program, snapshot, relations))


QUERY_RELATION = "tgpl_query"


def lower_with_query(program, snapshot: dict, function: str, relations: bool = False) -> LoweredGame:
    """The game as GDL plus `tgpl_query`, true in the states where the global bool function `function` returns true.

    `tgpl query` appends the user's expression to the game as such a function, so
    it is checked, typed and lowered like any other code (with the game's
    globals, boards and `player.active()` / `turn.phase.active()` in scope).
    """
    lowering = Lowering(program, Universe.from_snapshot(snapshot), relations)
    logic = lowering.run()
    fi = next(f for f in program.functions if f.name == function)
    controls = dict.fromkeys([*logic.states, *(p.control for st in logic.states.values() for p in st.paths)])
    return emit_gdl(logic, {QUERY_RELATION: lowering.state_condition(fi, controls)})


__all__ = ["LoweredGame", "NotLowerable", "QUERY_RELATION", "game_logic", "lower", "lower_with_query"]
