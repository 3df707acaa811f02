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
from tgpl.lowering.footprint import ROOT_STEPS, StateUnknown
from tgpl.lowering.shapes import GiveUp, _Break, _Continue, _Error



class _TooMany(Exception):
    """The loop took more passes than the bound asked for on some way."""


class _Counted(StateUnknown):
    """The shapes evaluator, writing the state as unknown and counting the passes of one `while` loop."""

    def __init__(self, hc, loop: ast.While, most: int):
        super().__init__(hc, ROOT_STEPS)
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



def _code_of(program, loop: ast.While) -> tuple[object, list, object] | None:
    """The code `loop` is written in: (its owner class or None, its inputs, its body), a function's or an action's
    effect; None where it is in neither (a phase, a `default`)."""
    units = [(info, fi.defn.inputs, fi.defn.effect) for info in program.classes for fi in info.functions.values()]
    units += [(None, fi.defn.inputs, fi.defn.effect) for fi in program.functions]
    units += [(info, a.inputs, a.effect) for info in program.classes for a in info.actions.values()]
    for owner, inputs, effect in units:
        if effect is not None and any(n is loop for n in ast.walk([effect.body])):
            return owner, inputs, effect.body
    return None


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
    module's docstring); None where it cannot say so. `check()` is called now and then (the command's limits)."""
    found = _code_of(hc.program, loop)
    if found is None:
        return None
    owner, inputs, body = found
    objects = [o for o in hc.u.objects if o.is_a(owner)] if owner is not None else [None]
    rows = [_domain(hc, i) for i in inputs]
    if any(r is None for r in rows):
        return None
    ev = _Counted(hc, loop, most)
    try:
        if not ev.everywhere(body.body, objects, [i.name for i in inputs], rows, (), check):
            return None
    except (GiveUp, _TooMany):
        return None
    return ev.passes if ev.reached else None


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
