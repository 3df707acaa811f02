"""A game in which no move ever passes control: the checker's warning.

Control moves only through `turn.pass` and `turn.use` (language decision 47, "no hidden passes"):
after a move that passes nothing, the same player moves again. That is a design when some moves
pass and others do not (draw, then play); when nothing after setup ever passes, the player setup
gives control to makes every move of a game for two or more, which is the forgotten `turn.pass()`
(player 0 moved twice and "won"). Only that case is warned of: it is the one the text proves.
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Diagnostics

PASSES = ("pass", "use")


def _passes_control(node) -> bool:
    """Whether `node` holds a call of turn.pass or turn.use."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and n.callee.name in PASSES \
                and isinstance(n.callee.obj, ast.Name) and n.callee.obj.name == "turn":
            return True
    return False


def _always_ends(action: ast.ActionDef) -> bool:
    """Whether the action's effect ends the game whatever happens (a `winner` among its own
    statements, not inside a branch): such a move leaves nobody to pass to."""
    effect = action.effect
    return effect is not None and any(isinstance(stmt, ast.Winner) for stmt in effect.body.body)


def check_control_passes(modules: list[ast.Module], player_range: range | None, diags: Diagnostics) -> None:
    """Warn at the first move that can leave the game going, in a game for two or more players whose
    setup passes control and in which nothing after setup ever does."""
    if player_range is None or player_range.start < 2:
        return
    setups = [item for m in modules for item in m.items if isinstance(item, ast.SetupDef)]
    if not setups or not any(_passes_control(s) for s in setups):
        return  # a game without turns: nobody is given control to keep
    moves = []
    for module in modules:
        for item in module.items:
            if isinstance(item, ast.SetupDef):
                continue
            if _passes_control(item):
                return
            if isinstance(item, ast.ClassDef):
                moves += [a for a in item.actions if any(t.event == "PlayerChoiceEvent" for t in a.triggers)
                          and not _always_ends(a)]
    if moves:
        first = moves[0]
        diags.warning(first.name_span,
                      "no move ever passes control: nothing after setup calls turn.pass or turn.use, so the "
                      "player setup gives control to makes every move",
                      "a move that ends a player's turn calls turn.pass() (the turn's default then picks the next "
                      "player)")
