"""Which passes of a counted loop read what an earlier pass wrote: the footprint of each pass, by evaluation.

Reversi's move turns discs over one direction at a time, `for (d = 0; d < 8; d += 1)`: each pass asks
`FlipsIn` how many discs the direction flanks, then writes them. The compiled moves (tgpl.lowering.compiled)
spell such a loop out pass by pass, and a pass reads the state the passes before it left, through the views
their writes made: eight views of the board, and `FlipsIn` compiled once per view, eight copies of the same
walk. Yet no pass reads a square another pass wrote (the eight lines from a square meet only there), so every
pass could read the board as the loop found it: one instance of `FlipsIn`, as hand-written GDL states a
flanking line once.

`passes_independent` decides that by running the action's effect, for every row of its inputs (each object
of an input's class) and every object that has the action (`player` its owner), on the
evaluator of tgpl.lowering.shapes: static fields read as they are, every attribute of the state unknown (a
test of it goes both ways, each followed). Where a way reaches the loop, each pass is run from there on its
own, every way through it, recording the objects and attributes it reads and writes (in the functions it
calls too). The loop's passes are independent when, on every way that reaches it, no pass reads an
object's attribute that an earlier pass wrote, and no way through a pass reads what it wrote itself
(`Independent.once` says, besides, whether no way writes an object's attribute twice: the order of the writes
cannot matter either). Reading values as unknown follows more ways than the runtime can take, and a way
stops only where the runtime would (a member of null, an index out of range, as in shapes), so the footprints
hold every read and write the runtime makes: a yes is sound. Anything the evaluator does not model (a call on an unknown
argument, an unknown object read or written, a built-in), a way past the step budget, or a loop that may be
reached more than once on a way (inside another loop) gives no: the loop is spelled out as before.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.lowering.shapes import TOP, GiveUp, _Break, _Continue, _Error, _Evaluator, _Return, _Spent, _Ways
from tgpl.lowering.symbolic import UObj

ROOT_STEPS = 100_000  # evaluation steps for one row of the code's inputs, over all its ways (past it: no)
ROWS = 4_096  # rows of inputs evaluated at most (Reversi 8x8: 64 squares x 2 seats; Quixo's Slide 25 x 25 x 2)
CHECK_EVERY = 16  # rows between two checks of the command's limits


class _Reached(Exception):
    """The way reached the loop (its passes' footprints recorded): it is followed no further."""


class StateUnknown(_Evaluator):
    """The shapes evaluator over a state it does not know: an attribute of the state reads as unknown (a test of it
    goes both ways), an unknown object's state or a call on an unknown argument gives up (what it reads or does
    is not followed), and a way stops only where the runtime would (a member of null, an index off the board).
    `write(o, name, e, env, this)` takes a write of the state's attribute `name` of `o`; `read(o, name)` is told
    of each read of one. The loop footprints here and the `while` bounds of tgpl.lowering.while_passes build on
    it."""

    def __init__(self, hc, budget: int):
        super().__init__(hc, budget)
        self.fluent_attrs = hc.fluent_attrs

    def everywhere(self, body: list, objects: list, names: list[str], rows: list[list], stops: tuple,
                   check=None, admits=None) -> bool:
        """Run `body` on every object of `objects` and row of its inputs (`names`, their values from `rows`), every
        way through it, a way ended where the runtime stops, the code returns or it raises one of `stops`; False
        where the rows number more than ROWS or a way passes ROOT_STEPS. `admits(obj, args)`, where given, leaves
        out the rows it says no to. `check()` is called now and then (the command's limits)."""
        count = len(objects)
        for r in rows:
            count *= len(r)
        if not count or count > ROWS:
            return False
        for k, (obj, args) in enumerate(itertools.product(objects, itertools.product(*rows))):
            if check is not None and not k % CHECK_EVERY:
                check()
            if admits is not None and not admits(obj, args):
                continue
            self.ways = _Ways(ROOT_STEPS)
            while True:
                try:
                    self.block(body, dict(zip(names, args)), obj)
                except (_Error, _Return, *stops):
                    pass
                except _Spent:
                    return False
                if not self.ways.next_way():
                    break
        return True

    def read(self, o: UObj, name: str) -> None:
        """A read of the state's attribute `name` of `o`."""

    def write(self, o: UObj, name: str, e: ast.Assign, env: dict, this):
        """A write of the state's attribute `name` of `o` by `e`: its value evaluated, the state after it unknown."""
        self.expr(e.value, env, this)
        return TOP

    def unknown_argument(self) -> None:
        raise GiveUp("a call on an unknown argument")  # what it would read or do is unknown

    def call(self, e: ast.Call, env: dict, this):
        try:
            return super().call(e, env, this)
        except _Spent:
            raise GiveUp("the step budget") from None

    def _index(self, e: ast.Index, env: dict, this):
        o = self.expr(e.obj, env, this)
        if isinstance(o, UObj) and o.cells is not None:  # a group: its tiles by index (`Grid[x][y]`)
            o = o.cells
        k = self.expr(e.index, env, this)
        if o is TOP or k is TOP:
            return TOP
        if not isinstance(o, tuple) or not isinstance(k, float) or k != int(k) or not 0 <= k < len(o):
            raise _Error()
        return o[int(k)]

    def member(self, o, name: str):
        if o is TOP:
            if name in self.fluent_attrs:
                raise GiveUp(f"'{name}' of an unknown object")
            return TOP
        if isinstance(o, UObj) and name == "player" and (o.name, name) not in self.fluent_cells:
            return float(o.owners[0]) if len(o.owners) == 1 else TOP  # several: the mover, any of them
        if isinstance(o, UObj) and (o.name, name) in self.fluent_cells:
            self.read(o, name)
        return super().member(o, name)

    def assign(self, e: ast.Assign, env: dict, this):
        t = e.target
        if isinstance(t, ast.Name) and t.name in env:
            return super().assign(e, env, this)
        if isinstance(t, ast.Member):
            o, name = self.expr(t.obj, env, this), t.name
        elif isinstance(t, ast.Name) and id(t) in self.implicit_this and this is not None:
            o, name = this, t.name
        else:
            raise GiveUp("a write")
        if o is TOP:
            raise GiveUp("a write of an unknown object")
        if not isinstance(o, UObj):
            raise _Error()  # an attribute of null: the runtime stops
        if (o.name, name) not in self.fluent_cells:
            raise GiveUp(f"a write of '{name}', not state")
        return self.write(o, name, e, env, this)


class _Footprints(StateUnknown):
    """The shapes evaluator, recording reads and writes of the state and stopping at the loop to examine it."""

    def __init__(self, hc, loop: ast.For, var: str, passes: range):
        super().__init__(hc, ROOT_STEPS)
        self.target = loop
        self.var = var
        self.passes = passes
        self.reads: set | None = None  # the pass under way: (object, attribute) read
        self.writes: set | None = None  # ... and written
        self.way_writes: set | None = None  # written on the way under way through the pass
        self.reached = 0
        self.once = True  # every object's attribute written at most once on every way through the loop
        self.prints: dict[tuple, tuple] = {}  # a call's (id, this, arguments) -> outcomes, error, reads, writes

    # ------------------------------------------------------------ calls: cached with their footprints
    def outcomes(self, fi, this, args: tuple):
        """The call's outcomes (the shapes evaluator's), each call evaluated once: what it reads and writes, over
        all its ways, is kept with them and recorded again wherever the call is made again."""
        key = (id(fi), this, args)
        found = self.prints.get(key)
        if found is None:
            outer = (self.reads, self.writes)
            self.reads, self.writes = set(), set()
            try:
                self._calls.clear()
                values, error = super().outcomes(fi, this, args)
                if self.ways.steps > self.budget:
                    raise GiveUp("the step budget")
                found = self.prints[key] = (values, error, frozenset(self.reads), frozenset(self.writes))
            finally:
                self.reads, self.writes = outer
        values, error, reads, writes = found
        if self.reads is not None:
            if self.way_writes and reads & self.way_writes:
                raise GiveUp("a pass reads what it wrote")
            self.reads |= reads
            self.writes |= writes
            if self.way_writes is not None:
                self.once = self.once and not writes & self.way_writes
                self.way_writes |= writes
        elif writes:
            raise GiveUp("a write outside the loop's passes")  # before the loop: its reads would see it
        return values, error

    # ------------------------------------------------------------ state
    def read(self, o: UObj, name: str) -> None:
        if self.reads is None:
            return
        key = (o.name, name)
        if self.way_writes and key in self.way_writes:
            raise GiveUp("a pass reads what it wrote")
        self.reads.add(key)

    def write(self, o: UObj, name: str, e: ast.Assign, env: dict, this):
        if e.op != "=":
            self.read(o, name)
        self.expr(e.value, env, this)
        if self.reads is None:
            raise GiveUp("a write outside the loop's passes")  # before the loop: its reads would see it
        self.writes.add((o.name, name))
        if self.way_writes is not None:
            self.once = self.once and (o.name, name) not in self.way_writes
            self.way_writes.add((o.name, name))
        return TOP

    # ------------------------------------------------------------ the loop
    def _for(self, s: ast.For, env: dict, this) -> None:
        if s is not self.target:
            return super()._for(s, env, this)
        if self.reads is not None:
            raise GiveUp("the loop inside itself")
        self.reached += 1
        prints = [self.pass_footprint(s, dict(env), this, k) for k in self.passes]
        for i, (_, written) in enumerate(prints):
            for read, also in prints[i + 1:]:
                if written & read:
                    raise GiveUp("a pass reads what an earlier pass wrote")
                self.once = self.once and not written & also
        raise _Reached()

    def pass_footprint(self, s: ast.For, env: dict, this, k: int) -> tuple[set, set]:
        """What pass `k` reads and writes, over every way through it."""
        outer, self.ways = self.ways, _Ways(self.budget)
        self.reads, self.writes = set(), set()
        try:
            while True:
                self.way_writes = set()
                way_env = dict(env)
                way_env[self.var] = float(k)
                try:
                    self.block(s.body.body, way_env, this)
                except (_Error, _Break, _Continue):
                    pass
                except _Spent:
                    raise GiveUp("the step budget") from None
                except _Return:
                    raise GiveUp("a return inside the loop") from None
                if not self.ways.next_way():
                    break
            return self.reads, self.writes
        finally:
            spent, self.ways = self.ways.steps, outer
            self.ways.steps += spent
            self.reads = self.writes = self.way_writes = None


def _inside_loop(root: ast.Block, loop: ast.For) -> bool | None:
    """Whether `loop` is in `root` inside another loop (None: not in `root` at all)."""
    def walk(node, depth: int):
        if node is loop:
            return depth > 0
        if isinstance(node, (ast.While, ast.For)):
            depth += 1
        for child in _children(node):
            found = walk(child, depth)
            if found is not None:
                return found
        return None
    return walk(root, 0)


def _children(node):
    if isinstance(node, list):
        return node
    if not hasattr(node, "__dataclass_fields__"):
        return []
    out = []
    for f in node.__dataclass_fields__:
        v = getattr(node, f)
        if isinstance(v, list):
            out += [x for x in v if hasattr(x, "__dataclass_fields__")]
        elif hasattr(v, "__dataclass_fields__"):
            out.append(v)
    return out


@dataclass(frozen=True)
class Independent:
    """A loop whose passes never read what an earlier pass wrote; `once`: and no way through it writes an object's
    attribute twice (in one pass or two), so the order of its writes cannot matter either."""

    once: bool


def passes_independent(hc, action, objects: list[UObj], loop: ast.For, var: str, passes: range,
                       check=None) -> Independent | None:
    """Whether no pass of `loop` (the counted loop over `var`, its passes `passes`, written in `action`'s effect
    outside any other loop) reads what an earlier pass wrote, on every way the effect reaches it from, for every
    object of `objects` (those with the action), owner and row of inputs (see the module's docstring).
    `check()` is called now and then (the command's limits)."""
    effect = action.effect
    if effect is None or _inside_loop(effect.body, loop) is not False:
        return None
    rows: list[list] = []
    for inp in action.inputs:
        info = hc.class_info(inp.type) if not inp.type.args else None
        if info is None:
            return None
        rows.append([o for o in hc.u.objects if o.is_a(info) and not o.fields.get("discarded", False)])
    ev = _Footprints(hc, loop, var, passes)
    try:  # a way ends where the runtime stops, at the loop (examined) or where the effect returns before it
        if not ev.everywhere(effect.body.body, objects, [i.name for i in action.inputs], rows, (_Reached,), check):
            return None
    except GiveUp:
        return None
    return Independent(ev.once) if ev.reached else None
