"""How many passes a `while` loop that writes the state can take, found by evaluation: a bound that lets the
compiled moves spell it out as a counted loop.

Quixo as a designer writes it pushes a cube back in at the end of its row: `Slide` walks from the place the cube
was taken to the place it goes in, `while (x != put.X || y != put.Y)`, each pass writing a cube's face with the
next one's. The loop reads what it writes, so its passes cannot be one relation (tgpl.lowering.compiled,
`writing_loop`); spelled out pass by pass, each reading what the passes before it wrote, it lowers as a counted
loop would, `for (k = 0; k < 4; k += 1) { if (C) { ... } }`, which is the rewrite the refusal asks a designer for.
What the loop needs is a bound on its passes, and the loop's condition tells it: it reads the inputs and the board's
static geometry, not the state.

`most_passes` finds that bound by running the code the loop is written in (a function, or an action's effect) on
the evaluator of tgpl.lowering.shapes, for every row of its inputs (each object of an input's class, each player,
`true` and `false`) and every object it can run on, every attribute of the state unknown (a test of it goes both
ways, each followed), counting the passes the loop takes on every way through. Reading the state as unknown
follows more ways than the runtime can take, and a way stops only where the runtime would (a member of null, an
index off the board), so the largest count is at least the runtime's on any play: the bound is sound. An input the
evaluator cannot list (a number), anything it does not model, a call whose argument is unknown, or more passes than
`most` gives None, and the loop is refused as before.
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.types import CallableType
from tgpl.lowering.footprint import ROOT_STEPS, StateUnknown
from tgpl.lowering.shapes import TOP, GiveUp, _Break, _Continue, _Error, _Return, _Spent
from tgpl.lowering.unread import unread_attributes



class _TooMany(Exception):
    """The loop took more passes than the bound asked for on some way."""


class _Finished(Exception):
    """The call that runs the loop returned, and nothing after it on the way can run the loop again: the way ends."""


class _Counted(StateUnknown):
    """The shapes evaluator, writing the state as unknown and counting the passes of one `while` loop."""

    def __init__(self, hc, loop: ast.While | None, most: int, dropped: frozenset[int]):
        super().__init__(hc, ROOT_STEPS)
        self.dropped = dropped  # the writes of attributes nothing reads (tgpl.lowering.unread)
        self.once = None  # the function whose only call the way ends at (`_called_once`), where one is
        self.target = loop
        self.most = most
        self.passes = 0  # the largest count met on any way
        self.reached = False

    def tested(self, s: ast.While, taken: int, env: dict, this) -> bool:
        """The loop's condition after `taken` passes. Where the runtime stops in it, the counted loop must test it
        that many times too: a pass more."""
        try:
            return self.truth(self.expr(s.cond, env, this))
        except _Error:
            self.passes = max(self.passes, taken + 1)
            if taken + 1 > self.most:
                raise _TooMany() from None
            raise

    def assign(self, e: ast.Assign, env: dict, this):
        """A write of an attribute nothing reads is dropped, as the lowering drops it (tgpl.lowering.unread); its
        value is evaluated for the calls in it (Fanorona's `Taken += TakeLine(...)`)."""
        if id(e) in self.dropped:
            return self.expr(e.value, env, this)
        return super().assign(e, env, this)

    def call(self, e: ast.Call, env: dict, this):
        """`player.active()` is any player, each a way of its own (the code runs from an action, whose mover the
        state says); a call of `turn`'s (`turn.pass(...)`) hands control on, which no pass of the loop reads: its
        arguments are evaluated and the way goes on, as the effect does. Every other call as the evaluator makes
        it."""
        c = e.callee
        on = c.obj.name if isinstance(c, ast.Member) and isinstance(c.obj, ast.Name) and c.obj.name not in env \
            else None
        if on == "player" and c.name == "active" and not e.args:
            return float(self.ways.choose(self.u.players))
        if on == "turn":
            for a in e.args:
                if not isinstance(a.value, ast.StringLit):  # a phase's name
                    self.expr(a.value, env, this)
            return None
        if self.once is not None and isinstance(t := self.types.get(id(c)), CallableType) and t.target is self.once:
            self.run(*self.bound_call(e, env, this), value=False)  # on the way's own ways, each way followed
            raise _Finished()
        return super().call(e, env, this)

    def _while(self, s: ast.While, env: dict, this) -> None:
        if s is not self.target:
            return super()._while(s, env, this)
        self.reached = True
        taken = 0
        while self.tested(s, taken, env, this):
            taken += 1
            self.passes = max(self.passes, taken)
            if taken > self.most:
                raise _TooMany()
            try:
                self.block(s.body.body, env, this)
            except _Continue:
                pass
            except _Break:
                return
            self.ways.step()



_Unit = tuple  # (owner class or None, inputs, body, the FunctionInfo where the unit is a function's)


def _units(program) -> list[_Unit]:
    """The code a `while` can be written in and run from: functions' and actions' effects."""
    units = [(info, fi.defn.inputs, fi.defn.effect, fi) for info in program.classes for fi in info.functions.values()]
    units += [(None, fi.defn.inputs, fi.defn.effect, fi) for fi in program.functions]
    units += [(info, a.inputs, a.effect, None) for info in program.classes for a in info.actions.values()]
    return [(owner, inputs, effect.body, fi) for owner, inputs, effect, fi in units if effect is not None]


def _code_of(program, loop: ast.While) -> _Unit | None:
    """The code `loop` is written in: (its owner class or None, its inputs, its body, its FunctionInfo or None), a
    function's or an action's effect; None where it is in neither (a phase, a `default`)."""
    return next((u for u in _units(program) if any(n is loop for n in ast.walk([u[2].body]))), None)


def _calls_of(types: dict, node, fi) -> int:
    """The calls of the function `fi` under `node`, as the checker typed them."""
    return sum(1 for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(t := types.get(id(n.callee)),
                                                                                 CallableType) and t.target is fi)


def _callers(program, fi) -> list[_Unit] | None:
    """The units that call the function `fi`, where every call of it in the game is in one of them and none is in
    `fi` itself (a loop of a function is bounded by what its callers give it: Fanorona's `TakeLine(start, dx, dy)`
    the numbers `to.X - from.X`, Quixo's `Slide(take, put)` the cubes the action's filters allow); None where a
    call is elsewhere (a filter, a phase), the function calls itself, or it overrides another (a call of that
    one may run it)."""
    if fi.defn.override:
        return None
    types = program.types
    callers = [u for u in _units(program) if _calls_of(types, [u[2].body], fi)]
    if not callers or any(u[3] is fi for u in callers) \
            or sum(_calls_of(types, [u[2].body], fi) for u in callers) != _calls_of(types, program.modules, fi):
        return None
    return callers


def _domain(hc, inp) -> list | None:
    """The values an input of the code can take, or None where the evaluator cannot list them (a number)."""
    ref = inp.type
    if ref.args:
        return None
    if ref.name == "player":
        return [float(p) for p in range(hc.u.players)] + [None]
    if ref.name == "bool":
        return [True, False, None]
    info = hc.class_info(ref)
    if info is None:
        return None
    return [o for o in hc.u.objects if o.is_a(info) and not o.fields.get("discarded", False)] + [None]


def most_passes(hc, loop: ast.While, most: int, check=None) -> int | None:
    """The most passes `loop` takes on any play, where the evaluation shows it takes at most `most` (see the
    module's docstring); None where it cannot say so. A loop in a function is also run from the function's
    callers, every one (`_callers`), and the smaller bound kept: the numbers they pass are known there (a number
    input cannot be listed), and the rows of an action's inputs that its filters refuse on every way are left out
    (`_admits`): Fanorona's `to` is a neighbour of `from`, else the line walked from `from` to `to` stays where it
    is. `check()` is called now and then (the command's limits)."""
    unit = _code_of(hc.program, loop)
    if unit is None:
        return None
    dropped = unread_attributes(hc.program).writes
    bounds = [_bound(hc, loop, most, [unit], dropped, check)]
    if unit[3] is not None:  # a function's: bounded from its callers too, with their filters and their numbers
        callers = _callers(hc.program, unit[3])
        once = unit[3] if callers and _called_once(hc.program, callers, unit[3]) else None
        bounds.append(_bound(hc, loop, most, callers, dropped, check, once) if callers else None)
    found = [b for b in bounds if b is not None]
    return min(found) if found else None


def _bound(hc, loop: ast.While, most: int, runs: list[_Unit], dropped: frozenset[int], check,
           once=None) -> int | None:
    """The most passes `loop` takes where it is run from the units `runs`, each on every row of its inputs that
    their filters admit; None where the evaluation cannot say (an input it cannot list, a way it cannot follow,
    more passes than `most`) or the loop is never reached. `once`: the function the loop is in, called once on
    every way (`_called_once`): a way ends where that call returns, what follows it left unfollowed (Quixo's
    `winner player + 1`, arithmetic on players, which the evaluator does not model)."""
    ev = _Counted(hc, loop, most, dropped)
    ev.once = once
    for owner, inputs, body, _ in runs:
        objects = [o for o in hc.u.objects if o.is_a(owner)] if owner is not None else [None]
        rows = [_domain(hc, i) for i in inputs]
        if any(r is None for r in rows):
            return None
        names = [i.name for i in inputs]
        try:
            if not ev.everywhere(body.body, objects, names, rows, (_Finished,), check,
                                 _admits(hc, inputs, names, dropped)):
                return None
        except (GiveUp, _TooMany):
            return None
    return ev.passes if ev.reached else None


def _called_once(program, callers: list[_Unit], fi) -> bool:
    """Whether `fi`'s one call is in an action's effect, in no loop there: an action runs its effect once a move,
    so the loop in `fi` runs at most once a move, and nothing after that call can run it again."""
    if len(callers) != 1 or callers[0][3] is not None:
        return False
    loops = [n for n in ast.walk([callers[0][2].body]) if isinstance(n, (ast.For, ast.While))]
    return _calls_of(program.types, [callers[0][2].body], fi) == 1 and not any(
        _calls_of(program.types, [n], fi) for n in loops)


def _admits(hc, inputs: list, names: list[str], dropped: frozenset[int]):
    """Whether a row of `inputs` can pass their filters: no where some filter returns false on every way through it,
    the state unknown (a filter that stops, or that the evaluator cannot follow, admits the row)."""
    filters = [(f.name or i.name, i.name, f.body.body) for i in inputs for f in getattr(i, "filters", ())]
    if not filters:
        return None

    def admits(obj, args) -> bool:
        env0 = dict(zip(names, args))
        for candidate, name, body in filters:
            ev = _Counted(hc, None, 0, dropped)
            env = {**env0, candidate: env0[name]}
            while True:
                try:
                    ev.block(body, dict(env), obj)
                    said = TOP
                except _Return as r:
                    said = r.value
                except (_Error, GiveUp, _Spent):
                    said = TOP
                if said is not False:
                    break  # this filter admits the row on some way
                if not ev.ways.next_way():
                    return False
        return True
    return admits


def as_counted(loop: ast.While, passes: int) -> ast.For:
    """`while (C) { B }` as the counted loop of `passes` passes that does the same where no play takes more:
    `for (number #pass = 0; #pass < passes; #pass += 1) { if (C) { B } else { break; } }` (the counter's name is
    no TGPL name, so it hides none of the loop's)."""
    span = loop.span
    counter = f"#pass@{loop.span.line}:{loop.span.col}"
    return ast.For(span, ast.VarDecl(span, ast.TypeRef(span, "number"), counter, span, ast.NumberLit(span, 0.0)),
                   ast.Binary(span, "<", ast.Name(span, counter), ast.NumberLit(span, float(passes))),
                   ast.Assign(span, ast.Name(span, counter), "+=", ast.NumberLit(span, 1.0)),
                   ast.Block(span, [ast.If(span, loop.cond, loop.body, ast.Block(span, [ast.Break(span)]))]))
