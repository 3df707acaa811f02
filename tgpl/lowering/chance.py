"""Dice lowered as moves of GDL-II's chance role `random` (docs/gdl.md, "GDL-II out").

A GDL-II game's `random` role picks uniformly among its legal moves, so a die of n faces is random choosing
among `(roll 1)` ... `(roll n)`. The lowering splits a move whose action rolls into two GDL steps: the
player's move only hands control to random, in a control state that remembers the move (`(control random
turn phase_roll_seat_0)`); random's `(roll k)` then runs the whole effect, the die reading k. Nothing happens
between the two steps (no state of the runtime lies there: the runtime's chance node is "the move played,
its draws not known"), so running the effect's statements before the roll in the second step is the same
game.

What is lowered today: one `roll(n)` per action, n a whole-number literal, as the value of a statement at the
top of the action's effect (`number face = roll(6);`, `x = roll(6);`), with no `winner` or `return` before it
(they would end the effect before the die is thrown, and random would then throw it for nothing). Every other
roll (in a condition, a loop, a function, a phase, a second one in the action, shuffles after setup) is
refused where it stands (`refusals`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.types import CallableType

RANDOM = "random"  # GDL-II's chance role
ROLL = "roll"  # the function of random's moves: (roll k)
DID = "did"  # the percept of a move: every player sees (did role move), as Dresden's GameController writes it


@dataclass(frozen=True)
class Roll:
    """The die an action throws: its call and its number of faces."""
    call: ast.Call
    sides: int


def _is_roll(program, n) -> bool:
    if not isinstance(n, ast.Call):
        return False
    ct = program.types.get(id(n.callee))
    return isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name == "roll" and "." not in ct.target.name


def _top_call(stmt) -> ast.Expr | None:
    """The expression a top-level statement computes as its value: a declaration's initial value, an
    assignment's value, or a call standing alone."""
    if isinstance(stmt, ast.VarDecl):
        return stmt.init
    if isinstance(stmt, ast.ExprStmt):
        e = stmt.expr
        return e.value if isinstance(e, ast.Assign) else e
    return None


def _sides(call: ast.Call) -> int | None:
    args = [a.value for a in call.args]
    if len(args) != 1 or not isinstance(args[0], ast.NumberLit):
        return None
    v = args[0].value
    return int(v) if v == int(v) and v >= 1 else None


def action_rolls(program) -> tuple[dict[int, Roll], list[tuple[object, str]]]:
    """The actions whose effect throws a die the lowering turns into random's move (id(action) -> Roll), and
    the rolls in actions' effects it refuses, each (span, reason)."""
    rolls: dict[int, Roll] = {}
    refused: list[tuple[object, str]] = []
    for info in program.classes:
        for action in info.actions.values():
            if action.effect is None:
                continue
            body = action.effect.body.body
            found = [n for n in ast.walk(action.effect.body) if _is_roll(program, n)]
            if not found:
                continue
            if len(found) > 1:
                refused.append((found[1].span, "a second roll() in one action is not lowerable yet: random's move "
                                               "is one die (roll once, or split the action)"))
                continue
            call = found[0]
            at = next((i for i, s in enumerate(body) if _top_call(s) is call), None)
            if at is None:
                refused.append((call.span, "roll() is lowered only as the value of a statement at the top of the "
                                           "action's effect (`number face = roll(6);`), not inside a condition, a "
                                           "loop or an expression"))
                continue
            sides = _sides(call)
            if sides is None:
                refused.append((call.span, "roll() is lowered only with a whole number of sides written as a "
                                           "literal (`roll(6)`): random's moves are fixed"))
                continue
            early = next((n for n in ast.walk(body[:at]) if isinstance(n, (ast.Winner, ast.Return))), None)
            if early is not None:
                refused.append((early.span, "a winner or return before the action's roll() is not lowerable: the "
                                            "roll would not be thrown on every way through the effect"))
                continue
            if not any(t.event == "PlayerChoiceEvent" for t in action.triggers):
                refused.append((call.span, "roll() is lowered only in actions a player chooses"))
                continue
            rolls[id(action)] = Roll(call, sides)
    return rolls, refused


def effect_roll_calls(program) -> set[int]:
    """id() of every roll() call written in an action's effect (lowered or refused by `action_rolls`)."""
    return {id(n) for info in program.classes for a in info.actions.values() if a.effect is not None
            for n in ast.walk(a.effect.body) if _is_roll(program, n)}


__all__ = ["DID", "RANDOM", "ROLL", "Roll", "action_rolls", "effect_roll_calls"]
