"""Searches compiled as a positive closure, without their step count (language decision 115).

A flood the lowering rewrote as a recursive search (tgpl.lowering.floods) carries a step count:

    function GroupOfFlood1(at, <free>, steps)
    {
        if (Q(at)) { return true; }
        if (steps == 0) { return false; }
        ... if (P(n) && GroupOfFlood1(at: n, <free>: <free>, steps: steps - 1)) { return true; } ...
        return false;
    }

Compiled as written (tgpl.lowering.horn), every depth is a row of its own: Atari Go 5 x 5's liberty search ground
its 24 steps at every depth. Hand-written GDL says "the group has a liberty" as a positive closure, with no count:
`found(X) :- Q(X)`, `found(X) :- step(X, Y), P(Y), found(Y)`, and "no" as `not found`. Dropping the count is
sound when:

- the count only stops the search: `steps` is read in `if (steps == 0) { return false; }` and passed on as
  `steps - 1` to the search itself, nowhere else;
- the search is monotone: every `return` returns `true` or `false`, and each call of itself is a conjunct of the
  condition of an `if (C) { return true; }` with no `else` (never under `!` or `||`, never kept in a local), so
  a deeper `true` never turns an answer `false`;
- the search goes on with the same other arguments (`v: v`), and writes nothing (the compiled subset is pure), so
  an answer for an item depends on that item alone;
- the bound cuts no answer: the start is at least the longest chain of distinct items less one, which the
  rewrite proved (the objects of the item's class less one, or tgpl.lowering.held_counts's bound) and marked on
  the function (`FunctionDef.stops`).

Then the counted search with `k` steps is true exactly when some chain of at most `k` calls reaches a `return
true`; a shortest such chain repeats no item, so has at most the bound's length: the least fixpoint of the
rules without the count, the closure, gives the same answers. A function that is not so (a hand-written
recursion, as Lines of Action's `Linked`; a call of itself under `!`) keeps its count.

A `contains` search asked of many goals for few starts (tgpl.lowering.group_clears's scan) is compiled keyed by
its start instead (`reached_of`): the items reached from the start, and the goal looked up among them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend import ast


@dataclass(frozen=True)
class Closure:
    """How to compile a search as a closure: the input dropped, the statement that tested it (skipped), and the
    `if (C) { return true; }` statements whose `C` calls the search itself (compiled as "C gives true"; the code
    after them goes on whatever C is, which only adds ways to a `true` already found)."""

    steps: str
    stop: int  # id of `if (steps == 0) { return false; }`
    found: frozenset[int]  # ids of the `if`s whose condition calls the search


def _is_name(e, name: str) -> bool:
    return isinstance(e, ast.Name) and e.name == name


def _returns_true(s) -> bool:
    """`if (C) { return true; }` with no `else`."""
    return (isinstance(s, ast.If) and s.orelse is None and len(s.then.body) == 1
            and isinstance(s.then.body[0], ast.Return) and isinstance(s.then.body[0].value, ast.BoolLit)
            and s.then.body[0].value.value is True)


def _conjuncts(e) -> list:
    if isinstance(e, ast.Binary) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _is_stop(s, steps: str) -> bool:
    """`if (steps == 0) { return false; }`."""
    c = s.cond if isinstance(s, ast.If) else None
    return (isinstance(c, ast.Binary) and c.op == "==" and _is_name(c.left, steps)
            and isinstance(c.right, ast.NumberLit) and c.right.value == 0 and s.orelse is None
            and len(s.then.body) == 1 and isinstance(s.then.body[0], ast.Return)
            and isinstance(s.then.body[0].value, ast.BoolLit) and s.then.body[0].value.value is False)


def _self_call(e, fn: ast.FunctionDef) -> bool:
    return isinstance(e, ast.Call) and _is_name(e.callee, fn.name)


def _passes_on(call: ast.Call, fn: ast.FunctionDef, steps: str) -> bool:
    """The call names every input; each but the first is passed as itself, `steps` as `steps - 1`."""
    given = {a.name: a.value for a in call.args}
    inputs = [d.name for d in fn.inputs]
    if len(call.args) != len(given) or set(given) != set(inputs):
        return False
    for name in inputs[1:]:
        v = given[name]
        if name == steps:
            if not (isinstance(v, ast.Binary) and v.op == "-" and _is_name(v.left, steps)
                    and isinstance(v.right, ast.NumberLit) and v.right.value == 1):
                return False
        elif not _is_name(v, name):
            return False
    return inputs[0] != steps


def closure_of(fn: ast.FunctionDef) -> Closure | None:
    """How to compile `fn` as a closure (see the module's docstring), or None where the proof fails: the count
    is then kept."""
    steps = getattr(fn, "stops", None)
    body = fn.effect.body.body if fn.effect is not None else None
    if steps is None or body is None or not body or steps not in {d.name for d in fn.inputs}:
        return None
    if any(d.name == steps and d.type.name != "number" for d in fn.inputs):
        return None
    stops = [s for s in body if _is_stop(s, steps)]
    if len(stops) != 1:
        return None
    if not (isinstance(body[-1], ast.Return) and isinstance(body[-1].value, ast.BoolLit)):
        return None
    nodes = list(ast.walk(body))
    if any(isinstance(n, ast.Return) and not isinstance(n.value, ast.BoolLit) for n in nodes):
        return None
    # every call of itself a conjunct of an `if (C) { return true; }`, passing the others on and steps - 1
    allowed: set[int] = set()
    found: set[int] = set()
    for n in nodes:
        if not _returns_true(n):
            continue
        calls = [c for c in _conjuncts(n.cond) if _self_call(c, fn)]
        if calls:
            found.add(id(n))
            allowed |= {id(c) for c in calls}
    calls = [n for n in nodes if _self_call(n, fn)]
    if not calls or any(id(c) not in allowed or not _passes_on(c, fn, steps) for c in calls):
        return None
    # `steps` read nowhere else than the stop and the calls' `steps - 1`
    seen = sum(1 for n in nodes if _is_name(n, steps))
    if seen != 1 + len(calls):
        return None
    if any(isinstance(n, ast.Assign) and _is_name(n.target, steps) for n in nodes):
        return None
    return Closure(steps, id(stops[0]), frozenset(found))


@dataclass(frozen=True)
class Reach:
    """How to compile a `contains` search as the set of items reached from its start (`reached_of`): the goal
    input, its index among the inputs compiled, and the statement that tested it (skipped)."""

    goal: str
    index: int
    test: int  # id of `if (at == goal) { return true; }`


def _is_goal_test(s, first: str, goal: str) -> bool:
    """`if (first == goal) { return true; }` (either way round), with no `else`."""
    c = s.cond if _returns_true(s) else None
    return (isinstance(c, ast.Binary) and c.op == "=="
            and {getattr(c.left, "name", None), getattr(c.right, "name", None)} == {first, goal}
            and isinstance(c.left, ast.Name) and isinstance(c.right, ast.Name))


def reached_of(fn: ast.FunctionDef, closure: Closure | None) -> Reach | None:
    """How to compile the closure `fn` keyed by its start rather than by the item asked about, or None.

    A `contains` search (`tgpl.lowering.floods`: `if (at == goal) { return true; } ... if (P(n) && F(at: n, goal:
    goal, ...)) { return true; }`) compiled as a closure carries `goal` through its recursion: asked for every
    point of the board (`tgpl.lowering.group_clears`'s scan), its rows are every point reached times every point
    asked about. Where `goal` is read only by that first test and passed on as itself, `F(s, g)` holds exactly
    where `g` is reached from `s` by the steps `P(n) && F(n, ...)` (a chain of them ends at `g`, the test's
    only `true`; the test comes first, so nothing else stops the search at the start): so `F|reach(x, s, ...)` (`x` in the goal's place: `s` sits where `goal` was, the other inputs
    passed on) is the closure of the steps from `(s, s, ...)`, and `F(s, g)` is `reach(g, s, ...)`. Required
    besides the closure's proof: `fn` marked (`FunctionDef.reaches`, the choice of `group_clears`, whose
    scan asks every goal of few starts; both forms give the same answers), `goal` an input other than the first
    and the count, that test the body's first statement, and every other `return true` the `then` of an `if`
    whose condition calls `fn` exactly once, as
    its last conjunct (a step)."""
    goal = getattr(fn, "reaches", None)
    if closure is None or goal is None or fn.effect is None:
        return None
    names = [d.name for d in fn.inputs]
    if goal not in names or goal in (names[0], closure.steps):
        return None
    body = fn.effect.body.body
    tests = body[:1]  # first: no condition comes before it (the steps after it only add to what is reached)
    if not tests or not _is_goal_test(tests[0], names[0], goal):
        return None
    nodes = list(ast.walk(body))
    calls = [n for n in nodes if _self_call(n, fn)]
    # `goal` read only by the test and passed on as itself (closure_of checked the calls pass it so)
    if sum(1 for n in nodes if _is_name(n, goal)) != 1 + len(calls):
        return None
    steps = [n for n in nodes if _returns_true(n) and id(n) in closure.found]
    # one call of itself, the last conjunct: nothing after it is compiled under the step's mark
    if any(sum(1 for c in _conjuncts(s.cond) if _self_call(c, fn)) != 1 or not _self_call(_conjuncts(s.cond)[-1], fn)
           for s in steps):
        return None
    allowed = {id(s.then.body[0]) for s in steps + tests}
    if any(isinstance(n, ast.Return) and isinstance(n.value, ast.BoolLit) and n.value.value is True
           and id(n) not in allowed for n in nodes):
        return None
    return Reach(goal, [n for n in names if n != closure.steps].index(goal), id(tests[0]))
