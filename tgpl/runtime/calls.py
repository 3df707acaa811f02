"""How generated code calls a TGPL function: the binding of its arguments to its slots, its run on
the machine's stack, and the keys of the memo of pure functions' results (`tgpl.runtime.purity`).

Generated blocks (`tgpl.runtime.codegen`), direct call sites (`tgpl.runtime.direct`) and the machine
call these; they depend on no compiler, so that none of those imports another to reach them.
"""

from __future__ import annotations

from tgpl.frontend.types import BOOL, NUMBER, PLAYER, STRING
from tgpl.runtime.classes import Frame
from tgpl.runtime.errors import TOO_LARGE, Cancelled as _Cancelled, GameOver, Returned, too_deep
from tgpl.runtime.values import Obj, show, to_player


def declare_winner(m, v, span):
    """`winner v;`: the game ends with this ranking (a player, or a list of lists of players)."""
    p = m.players
    if isinstance(v, list):
        ranking = []
        for rank in v:
            if not isinstance(rank, list):
                m.error(span, "a ranking is a list of lists of players")
            ranking.append([to_player(x, p) for x in rank if x is not None])
    elif v is None:
        m.error(span, "the winner is null")
    else:
        ranking = [[to_player(v, p)]]
    raise GameOver(ranking)


def _call_method(m, target, name, names, values, span):
    """`target.name(...)` from generated code: the method looked up on the target's class
    (remembered per class), then called as `_invoke` calls it, inline: method calls
    are the bulk of a game's code (chess's filters call one per square and piece)."""
    if target.__class__ is not Obj:
        if target is None:
            m.error(span, f"cannot call '{name}' on null")
        m.error(span, f"{show(target)} has no function '{name}'")
    rf = target.cls.found_functions.get(name, _UNKNOWN)
    if rf is _UNKNOWN:
        rf = target.cls.function(name)
    if rf is None:
        m.error(span, f"{show(target)} has no function '{name}'")
    return _invoke(m, rf, target, names, values, span)


def _invoke(m, rf, this, names, values, span):
    """A call whose arguments are all named, as generated code makes it. When it gives every input
    once, the values go straight to the effect (the common case, inputs in declaration order, as
    they are); any other call binds through Machine.call_function. The effect and its
    result are handled exactly as there."""
    binder = rf.binders.get(names)
    if binder is None:
        binder = rf.binder(names)
    if binder is False:
        return m.call_function(rf, this, list(zip(names, values)), span)
    if rf.effect is None:
        return None
    if binder is not True:  # every input given, in another order
        ordered = [None] * len(binder)
        for at, value in zip(binder, values):
            ordered[at] = value
        values = ordered
    return _run(m, rf, this, values, span)


_UNKNOWN = object()
# No value is it: `(x := v) is _NV or ...` evaluates v for its effect and goes on (`inlining`)
_NEVER = object()


def frame_runner(block, size: int, params: tuple[int, ...]):
    """A function's body compiled as a block of a Frame (one with closures, which read and write
    the frame's locals, or any under `RuntimeOptions.reference`) in the form every call runs a
    function's effect: a Python function of (machine, this, the inputs in declaration order)
    giving its value, its `Returned` unwrapped."""
    def run(m, this, *inputs):
        frame = Frame(m, this, size)
        for slot, value in zip(params, inputs):
            frame.vars[slot] = value
        r = block(frame)
        return r.value if r.__class__ is Returned else None

    return run


# What an argument of a memoized function must be, by its declared type, for its value to be a
# key: one class per input (a `number` input that got a player's int is run, not looked up), so
# that equal keys (1 == 1.0 == True in Python) never stand for different values.
_KEY_TEST = {NUMBER: "{a}.__class__ is float", BOOL: "{a}.__class__ is bool", STRING: "{a}.__class__ is str",
             PLAYER: "{a}.__class__ is int"}


def _key_test(a: str, t) -> str:
    """The test that the value in `a`, declared of type `t`, may be a memo key (an object: of no other class)."""
    test = _KEY_TEST.get(t)
    return test.format(a=a) if test is not None else f"({a}.__class__ is _Obj or {a} is None)"


def _key_tuple(parts: list[str]) -> str:
    """The expression of a memo key made of `parts` (one part: itself)."""
    return parts[0] if len(parts) == 1 else "(" + "".join(f"{p}, " for p in parts) + ")"


# Generated code: a remembered `(value, loop steps)` found in `hit` counts its steps again and is
# returned, unless that passes the step limit (then the caller runs the call, to raise where it raises).
_REPLAY_HIT = (
    "    if hit is not None:\n"
    "        steps = hit[1]\n"
    "        if not steps:\n"
    "            return hit[0]\n"
    "        m.steps += steps\n"
    "        if m.steps <= m.step_limit:\n"
    "            return hit[0]\n"
    "        m.steps -= steps\n"
)


def new_memo(tables: int, budget: int) -> list:
    """The memo of the states of one setup: a table per pure function and fixed expression, then
    the entries left to remember (`RuntimeOptions.memo_budget`)."""
    return [{} for _ in range(tables)] + [[budget]]


def _run(m, rf, this, args, span):
    """Run a function's effect on its inputs `args`, in declaration order: a player
    result mapped onto the players, a cancelled input or no value giving null, the host's errors
    the game's."""
    stack = m.stack
    stack.append((rf.what, span))
    try:
        r = rf.effect(m, this, *args)
        if r is None:
            return None
        return to_player(r, m.players) if rf.returns_player else r
    except _Cancelled:
        return None
    except RecursionError:  # the host's stack ran out: report it as the game's error
        m.error(span, too_deep(rf.what))
    except OverflowError:
        m.error(span, TOO_LARGE)
    finally:
        stack.pop()
