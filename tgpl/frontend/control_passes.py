"""A game in which no move ever passes control: the checker's warning.

Control moves only through `turn.pass` and `turn.use` (language decision 47, "no hidden passes"):
after a move that passes nothing, the same player moves again. That is a design when some moves
pass and others do not (draw, then play); when nothing after setup ever passes, the player setup
gives control to makes every move of a game for two or more, which is the forgotten `turn.pass()`
(player 0 moved twice and "won"). That case is warned of, and one more the text proves: a move that
never passes control, never ends the game, and whose legality nothing it does can change (its
trigger and `require` read only constants, the active player and the active phase, and its inputs
have no filters): after it the same player may play it again, for ever. A move whose legality
depends on the state (draw while the hand is short, then play) is a design, and is left alone.
"""

from __future__ import annotations

from tgpl.builtin_calls import THROWS  # event.throw and event.throw_sync: what runs listeners
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


# What a static trigger may read: its value stays the same while the same player stays in the same phase.
_STATIC_CALLS = {("turn.phase", "active"), ("player", "active")}


def _static(node) -> bool:
    """Whether the expression reads nothing a move that keeps control could change."""
    if isinstance(node, (ast.NumberLit, ast.StringLit, ast.BoolLit, ast.NullLit)):
        return True
    if isinstance(node, ast.Name):
        return node.name == "player"
    if isinstance(node, ast.Unary):
        return _static(node.operand)
    if isinstance(node, ast.Binary):
        return _static(node.left) and _static(node.right)
    if isinstance(node, ast.Call) and not node.args and isinstance(node.callee, ast.Member):
        return (_dotted(node.callee.obj), node.callee.name) in _STATIC_CALLS
    return False


def _dotted(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Member):
        head = _dotted(node.obj)
        return None if head is None else f"{head}.{node.name}"
    return None


def _static_block(block: ast.Block) -> bool:
    """A trigger or require that is `return E;` with E static."""
    return (len(block.body) == 1 and isinstance(block.body[0], ast.Return)
            and block.body[0].value is not None and _static(block.body[0].value))


def _called_names(node) -> set[str]:
    """The names of the methods and functions `node` calls (receivers ignored: conservative)."""
    names = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if isinstance(n.callee, ast.Member):
                names.add(n.callee.name)
            elif isinstance(n.callee, ast.Name):
                names.add(n.callee.name)
    return names


def _passing_names(modules: list[ast.Module]) -> tuple[set[str], bool]:
    """The names of the actions and functions that can pass control, directly or through what they call;
    and whether a listener (an action triggered by an event other than a choice) can, so that throwing an
    event can pass control too."""
    defs: list = []
    for module in modules:
        for item in module.items:
            if isinstance(item, ast.FunctionDef):
                defs.append(item)
            elif isinstance(item, ast.ClassDef):
                defs += item.functions + item.actions
    calls = {id(d): _called_names(d) for d in defs}
    passing = {d.name for d in defs if _passes_control(d)}
    listeners_pass = False
    changed = True
    while changed:
        changed = False
        for d in defs:
            listener = isinstance(d, ast.ActionDef) and any(t.event != "PlayerChoiceEvent" for t in d.triggers)
            passes = d.name in passing or calls[id(d)] & passing or (listeners_pass and bool(THROWS & calls[id(d)]))
            if passes and d.name not in passing:
                passing.add(d.name)
                changed = True
            if passes and listener and not listeners_pass:
                listeners_pass = True
                changed = True
    return passing, listeners_pass


def check_moves_keep_control(modules: list[ast.Module], player_range: range | None, diags: Diagnostics) -> None:
    """Warn at each move (a choice action) that can be played again and again by the same player: it never
    passes control nor ends the game, and nothing it does can make it illegal (module docstring)."""
    if player_range is None or player_range.start < 2:
        return
    setups = [item for m in modules for item in m.items if isinstance(item, ast.SetupDef)]
    if not setups or not any(_passes_control(s) for s in setups):
        return
    passing, listeners_pass = _passing_names(modules)
    if not passing:
        return  # nothing passes at all: check_control_passes says so, once
    for module in modules:
        for item in module.items:
            if not isinstance(item, ast.ClassDef):
                continue
            for a in item.actions:
                if not any(t.event == "PlayerChoiceEvent" for t in a.triggers) or a.name in passing:
                    continue
                if _always_ends(a) or any(i.filters for i in a.inputs):
                    continue
                if not all(_static_block(t.body) for t in a.triggers) or \
                        not all(_static_block(r.body) for r in a.requires):
                    continue
                diags.warning(a.name_span,
                              f"move '{a.name}' never passes control: it calls no turn.pass or turn.use, does not "
                              "end the game, and nothing it does can make it illegal, so the same player may play "
                              "it again and again",
                              "a move that ends a player's turn calls turn.pass(); one the player may make before "
                              "another needs a trigger or require that it makes false")

