"""Counters that count the board: bounded by the number of cells, once induction proves that they do.

Pente keeps `Game.Stones`, the stones on the board: `+= 1` where a stone is placed, `-= 2` where a pair is
captured, and `== 81` ends the game in a draw. With its moves compiled, a counter is bounded on its own, by the
tests before its writes and the checks that end the game on the ways that write it (CompiledGame.relax): the
relaxation reads every capture as possible on every move, and `Stones` falls without end. Yet in play it is
bounded by the board, since it is the number of points that hold a stone. Kayles keeps `Game.Standing`, the pins
whose bool `Down` is false: `-= 1` where one is knocked down, `-= 2` where two are, the same kind of count of
a value, not of an occupied cell.

So a counter the relaxation cannot bound, held by one object, that equals after setup the number of objects
whose non-numeric attribute F holds the value counted (a bool's true or false; for any attribute, set: not
null), and that is written in an action that writes F too, is taken to be that count: the compiled game is made
again with its values read only within 0..N (N the objects that have F as a fluent), the values it is lowered
with. That is a guess, and it is proved on the rules made, before anything is kept: by one step of induction
with clingo (tgpl.asp.induction.invariant_holds, passed in, since the lowering does not import the layer below
it), the invariant "the counter holds exactly the number of F that hold the value counted" holds in the initial
state, and in the successor of every state that keeps it (any value of every cell, far more states than play
reaches) by every joint legal move, terminal successors included, the successor's count read as the counter
before moved by the cells the move changed (`step_rules`). The lowered rules are exact on the states within the
counter's values, and by induction play never leaves them: the game lowered is the game played. A proof whose
step grounds past STEP_ATOMS atoms is not tried (ProofTooLarge): the game is refused saying so.
Where the proof fails (a counter that does not count the board, a move that sets F without counting it), the
game is refused as it was before the guess, with the reason.

Compiling the moves and proving the guess costs seconds to minutes; `written_in_step` says in milliseconds,
from the source alone, whether a counter is written as such a count is (each step of k beside k writes of F
that move the count that way): with the moves spelled out, a counter whose range runs away is tried compiled
only where it is (tgpl.lowering.lower.lower).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.after_setup import after_setup_nodes
from tgpl.frontend.types import BOOL
from tgpl.lowering.independent import independent_parts
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Or, Program, Rule, Term, Var, is_ground, substitute

Invariant = Callable[[Program, list, list, list], bool]
"""(program, cells, rules of `tgpl_bad`, its rules on a successor) -> whether the invariant holds in every reachable
state (see the module; tgpl.asp.induction.invariant_holds); cells as tgpl.asp.induction.same_game takes them."""
Never = Callable[[list, list, dict], bool]
"""(rules, cells, free relations) -> whether `tgpl_bad` holds in no state, whatever the free relations hold
(tgpl.asp.induction.never_holds): the writes' check (`flip_rules`)."""


@dataclass(frozen=True)
class Holds:
    """The provers the lowering is given (it does not import the layer below it): the induction, and the check
    of every write of a counted field on its own (`flip_rules`), which needs no induction where it passes."""

    invariant: Invariant
    never: Never

BAD = "tgpl_bad"
# The most atoms a part of an invariant's proof may ground to (tgpl.asp.induction.invariant_holds): past it the
# proof is not tried. The solver's search grows with every value of the counters a move carries, for every move
# and every pattern of the cells it reads: 4x4 Pente's count (tests/data/lowering/board_count.tgpl) grounds its
# step to 1,952 atoms and is proved in 3,943 conflicts (0.1 s); 5x5 Pente's grounds to 50,478 and is not proved
# in five minutes; 9x9's to 654,460 (13 s, 1 GB). Counted in atoms, so that every machine refuses alike, once
# the grounding is done.
STEP_ATOMS = 20_000
# The most atoms the writes' check (tgpl.asp.induction.never_holds) may ground to: its rules are the ways' bodies
# and the functions they call, read on every argument, with no counter carried from one way to the next, and
# the solver finds a model or none in a few seconds where the induction would not in minutes.
WRITES_ATOMS = 2_000_000


class ProofTooLarge(Exception):
    """The proof (`Holds`) is not tried: a part of it grounds to more atoms than its solver is given."""

    def __init__(self, part: str, atoms: int, most: int) -> None:
        super().__init__(f"its {part} grounds to {atoms:,} atoms, past the {most:,} the proof is given")
        self.part, self.atoms, self.most = part, atoms, most


@dataclass(frozen=True)
class BoardCount:
    """A counter guessed to count the objects whose `field` holds `value`: `counter` of the object `holder`."""

    counter: str
    holder: str  # the counter's object (its name in the universe)
    field: str
    objects: tuple[str, ...]  # the objects that have `field` as a fluent, in the universe's order
    value: bool | None = None  # the value counted: a bool's true or false; None, any value but null (set)

    @property
    def bound(self) -> tuple[int, int]:
        """The counter's values: none to every object."""
        return 0, len(self.objects)

    @property
    def counts(self) -> str:
        """What is counted, in words: `Stone set`, `Down false`."""
        return f"{self.field} {'set' if self.value is None else str(self.value).lower()}"

    def counted(self, value) -> bool:
        """Does an object whose `field` holds `value` (a runtime value) count?"""
        return value is not None if self.value is None else value is self.value

    def written(self, value: ast.Expr) -> int:
        """How a write of `value` to `field` moves the count, where the source says it: +1 where the object then
        counts, -1 where it then does not; 0 where only play knows (`x.Stone = me` to a bool, `x.Down = d`)."""
        if self.value is None:
            return -1 if isinstance(value, ast.NullLit) else 1
        if isinstance(value, ast.BoolLit):
            return 1 if value.value is self.value else -1
        return -1 if isinstance(value, ast.NullLit) else 0


def board_counts(program, fluents: dict, counters: set[str]) -> dict[str, BoardCount]:
    """counter -> the count it is guessed to be, for each of `counters` that may be one (see the module).
    `fluents`: compiled.changing_fields, (object, attribute) -> Fluent. Of the counts that match after setup (a
    bool never set to null is as many set as there are objects, and as many false where none is true), the first
    the counter is written in step with (`written_in_step`), else the first: the proof decides."""
    together = _written_together(program)
    out: dict[str, BoardCount] = {}
    for counter in sorted(counters):
        held = [fl for (_, attr), fl in fluents.items() if attr == counter]
        if len(held) != 1 or not held[0].numeric:
            continue
        start = held[0].initial
        if not isinstance(start, (int, float)) or isinstance(start, bool) or not float(start).is_integer():
            continue
        matches = []
        for field_ in sorted(together.get(counter, ())):
            cells = [fl for (_, attr), fl in fluents.items() if attr == field_]
            if not cells or any(fl.numeric for fl in cells):
                continue
            values = (False, True, None) if all(fl.type == BOOL for fl in cells) else (None,)
            for value in values:
                count = BoardCount(counter, held[0].obj.name, field_, tuple(fl.obj.name for fl in cells), value)
                if sum(count.counted(fl.initial) for fl in cells) == start:
                    matches.append(count)
        if matches:
            out[counter] = next((c for c in matches if written_in_step(program, c)), matches[0])
    return out


def written_in_step(program, count: BoardCount) -> bool:
    """Is the counter written as the count is kept, in the code that runs after setup: every write of it a
    statement `counter += k` or `-= k` (k a number) in a block that holds, as statements of its own, exactly k
    writes `field = v` that each move the count that way (`BoardCount.written`), and every write of the field
    such a statement of a block that steps the counter? Read from the source in milliseconds: what decides,
    before moves are compiled to prove it (seconds to minutes), that a counter whose range runs away may be a
    count of the board (Kayles's `Standing`), where a score stepped apart from the board's writes is not."""
    implicit = program.implicit_this
    nodes = list(after_setup_nodes(program))

    def writes(node, name: str) -> bool:  # `o.name ...= v`, or `name ...= v` of `this`
        if not isinstance(node, ast.Assign) or getattr(node.target, "name", None) != name:
            return False
        return isinstance(node.target, ast.Member) or isinstance(node.target, ast.Name) and id(node.target) in implicit

    counter_writes = {id(n) for n in nodes if writes(n, count.counter)}
    field_writes = {id(n) for n in nodes if writes(n, count.field)}
    if not counter_writes:
        return False
    kept: set[int] = set()
    for block in (n for n in nodes if isinstance(n, ast.Block)):
        own = [s.expr for s in block.body if isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign)]
        steps = [a for a in own if id(a) in counter_writes]
        if not steps:
            continue
        if len(steps) != 1 or steps[0].op not in ("+=", "-=") or not isinstance(steps[0].value, ast.NumberLit):
            return False
        k = steps[0].value.value * (1 if steps[0].op == "+=" else -1)
        cells = [a for a in own if id(a) in field_writes]
        if any(a.op != "=" for a in cells) or sum(count.written(a.value) for a in cells) != k \
                or len(cells) != abs(k):
            return False
        kept.update(id(a) for a in steps + cells)
    return counter_writes | field_writes <= kept


def _written_together(program) -> dict[str, set[str]]:
    """attribute -> the attributes written beside it: in the same action, phase or function body."""
    out: dict[str, set[str]] = {}
    for module in program.modules:
        for node in ast.walk(module.items):
            if not isinstance(node, (ast.ActionDef, ast.FunctionDef, ast.PhaseDef)):
                continue
            names = {n.target.name for n in ast.walk(node.items)
                     if isinstance(n, ast.Assign) and isinstance(n.target, (ast.Member, ast.Name))}
            for n in names:
                out.setdefault(n, set()).update(names - {n})
    return out


def invariant_rules(count: BoardCount, names, bad: str = BAD) -> list[Rule]:
    """Rules of the 0-ary `bad` (a name that starts `tgpl_bad`), true in a state where the counter does not hold
    exactly the number of fields that hold the value counted (or holds no value), and of its helpers `<bad>_...`:
    the count is a chain along the objects' order, as GDL counts. `names`: the emitted game's
    (tgpl.lowering.compiled.Emission: `fluent`, `term`)."""
    n = len(count.objects)
    cell, succ, counted, held = (f"{bad}_{x}" for x in ("cell", "succ", "count", "held"))
    out = [Rule(Atom(cell, (_num(k), _num(k + 1), names.term(_obj(o))))) for k, o in enumerate(count.objects)]
    out += [Rule(Atom(succ, (_num(k), _num(k + 1)))) for k in range(n)]
    out.append(Rule(Atom(counted, (_num(0), _num(0)))))
    j, k, o, c, d, v = (Var(x) for x in ("j", "k", "o", "c", "d", "v"))
    step = (Atom(counted, (j, c)), Atom(cell, (j, k, o)))
    if count.value is None:  # set: null is not counted, any other value is
        out.append(Rule(Atom(counted, (k, c)), step + (Atom("true", (names.fluent(count.field, o, NULL),)),)))
        out.append(Rule(Atom(counted, (k, d)), step + (Atom("true", (names.fluent(count.field, o, v),)),
                                                       Distinct(v, NULL), Atom(succ, (c, d)))))
    else:  # a bool's value: it is counted, any other value (the other one, null) is not
        value = Const("yes" if count.value else "no")  # as the compiled rules name it (horn.const_of)
        out.append(Rule(Atom(counted, (k, d)), step + (Atom("true", (names.fluent(count.field, o, value),)),
                                                       Atom(succ, (c, d)))))
        out.append(Rule(Atom(counted, (k, c)), step + (Atom("true", (names.fluent(count.field, o, v),)),
                                                       Distinct(v, value))))
    value = Atom("true", (names.fluent(count.counter, _obj(count.holder), c),))
    out.append(Rule(Atom(held), (value,)))
    out.append(Rule(Atom(bad), (Not(Atom(held)),)))
    out.append(Rule(Atom(bad), (value, Not(Atom(counted, (_num(n), c))))))
    return out


def step_rules(count: BoardCount, names, bad: str = BAD) -> list[Rule]:
    """Rules of `bad` on a successor, as tgpl.asp.induction.invariant_holds takes them (`after`): over the
    successor (`true`) and the state before it (`tgpl_before`), which keeps the invariant. The successor's
    count is the count before (the counter's value before) moved by the cells whose count the move changed,
    added along the objects' order: `bad` holds where the counter after is not that, or holds no value, or a
    cell holds none, which, the state before keeping the invariant, is where `invariant_rules` hold `bad` on the
    successor. The solver then never counts a board: the cells the move leaves as they were add nothing, where
    counting both boards took it 117,000 conflicts on 4x4 (and ten minutes did not do on Pente's 9x9)."""
    n = len(count.objects)
    cell, shift, total, delta, now, was, valued, expected, held = (
        f"{bad}_{x}" for x in ("cell", "shift", "sum", "delta", "now", "was", "valued", "expected", "held"))
    out = [Rule(Atom(cell, (_num(k), _num(k + 1), names.term(_obj(o))))) for k, o in enumerate(count.objects)]
    out += [Rule(Atom(shift, (_num(d), _num(d + 1)))) for d in range(-n, n)]
    out += [Rule(Atom(total, (_num(c), _num(e - c), _num(e)))) for c in range(n + 1) for e in range(n + 1)]
    j, k, o, c, d, e, v = (Var(x) for x in ("j", "k", "o", "c", "d", "e", "v"))
    for name, state in ((now, "true"), (was, "tgpl_before")):
        if count.value is None:  # set: any value but null is counted
            out.append(Rule(Atom(name, (o,)), (Atom(state, (names.fluent(count.field, o, v),)), Distinct(v, NULL))))
        else:
            value = Const("yes" if count.value else "no")  # as the compiled rules name it (horn.const_of)
            out.append(Rule(Atom(name, (o,)), (Atom(state, (names.fluent(count.field, o, value),)),)))
    out.append(Rule(Atom(valued, (o,)), (Atom("true", (names.fluent(count.field, o, v),)),)))
    out.append(Rule(Atom(delta, (_num(0), _num(0)))))
    step = (Atom(delta, (j, d)), Atom(cell, (j, k, o)))
    out.append(Rule(Atom(delta, (k, d)), step + (Atom(now, (o,)), Atom(was, (o,)))))
    out.append(Rule(Atom(delta, (k, d)), step + (Not(Atom(now, (o,))), Not(Atom(was, (o,))))))
    out.append(Rule(Atom(delta, (k, e)), step + (Atom(now, (o,)), Not(Atom(was, (o,))), Atom(shift, (d, e)))))
    out.append(Rule(Atom(delta, (k, e)), step + (Not(Atom(now, (o,))), Atom(was, (o,)), Atom(shift, (e, d)))))
    holder = _obj(count.holder)
    out.append(Rule(Atom(expected, (e,)), (Atom("tgpl_before", (names.fluent(count.counter, holder, c),)),
                                           Atom(delta, (_num(n), d)), Atom(total, (c, d, e)))))
    value = Atom("true", (names.fluent(count.counter, holder, c),))
    out.append(Rule(Atom(held), (value,)))
    out.append(Rule(Atom(bad), (Not(Atom(held)),)))
    out.append(Rule(Atom(bad), (value, Not(Atom(expected, (c,))))))
    out.append(Rule(Atom(bad), (Atom(cell, (j, k, o)), Not(Atom(valued, (o,))))))
    return out


NULL = Const("null")


# ====================================================================== each write on its own
@dataclass(frozen=True)
class Flip:
    """A write of a counted field in the compiled moves (tgpl.lowering.compiled.SegmentCompiler.write), as
    `flip_bodies` asks of it: internal literals and terms, before they are emitted."""

    field: str
    body: tuple  # the way's literals where it writes
    obj: Term
    value: Term
    source: object  # the value the statement `o.F = v` writes (an ast.Expr); None: no such statement wrote it
    view: str  # the relation a read of the field goes through there (the latest view, or the state)
    earlier: tuple  # ((object, value), ...): the way's own writes of the field before this one, in order
    plain: bool  # in a move's effect, outside a loop whose passes read the view the loop began with


def steps_whole(program, count: BoardCount) -> bool:
    """Does every block that steps the counter (`written_in_step`) run its writes of the counter and of the
    field together: no return, break, continue or winner in the statements before its last such write?"""
    implicit = program.implicit_this
    names = (count.counter, count.field)
    for block in (n for n in after_setup_nodes(program) if isinstance(n, ast.Block)):
        own = [k for k, s in enumerate(block.body) if isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign)
               and getattr(s.expr.target, "name", None) in names
               and (isinstance(s.expr.target, ast.Member) or id(s.expr.target) in implicit)]
        if own and any(isinstance(n, (ast.Return, ast.Break, ast.Continue, ast.Winner))
                       for n in ast.walk(block.body[:own[-1]])):
            return False
    return True


def flip_bodies(flips: list[Flip], count: BoardCount) -> list[tuple] | None:
    """Bodies (internal literals), each true where a write of the field fails to move the count as its statement
    says (`BoardCount.written`: +1 a cell that then counts and did not before, -1 the other way): the value
    written has the wrong status, or the cell's value just before the write (the way's own last write to that
    cell, else its read view) has the status the write gives. None where a write cannot be so asked (not in a
    move's effect, read through a view of a loop's start, a value whose effect only play knows).

    Where no body can hold, every write of the field moves the count by one, as its statement says, so a block
    that steps the counter by k beside k such writes (`written_in_step`, run whole: `steps_whole`) keeps the
    counter equal to the count: with the count right after setup, every move keeps it, with no induction over
    the whole board and every value of the other counters."""
    out: list[tuple] = []
    try:
        for f in flips:
            if f.field != count.field:
                continue
            sign = count.written(f.source) if f.plain and f.source is not None else 0
            if sign == 0:
                return None
            for binding, extra in _wrong(f.value, sign > 0, count):
                out.append(tuple(substitute(x, binding) for x in (*f.body, *extra)))
            for j in range(len(f.earlier), -1, -1):  # the last earlier write to the same cell, or none: the view
                apart = tuple(Distinct(f.obj, w) for w, _ in f.earlier[j:] if not _other_consts(f.obj, w))
                if any(d.left == d.right and is_ground(d.left) for d in apart):
                    continue
                if j == 0:
                    binding, value = {}, Var("tgpl_now")
                    read: tuple = (Atom(f.view, (f.obj, value)),)
                else:
                    binding, value, read = _same(f.obj, f.earlier[j - 1][0]), f.earlier[j - 1][1], ()
                    if binding is None:
                        continue
                for b2, extra in _wrong(substitute(value, binding), sign < 0, count):
                    out.append(tuple(substitute(substitute(x, binding), b2) for x in (*f.body, *apart, *read, *extra)))
    except _CannotAsk:
        return None
    return out


def _other_consts(a: Term, b: Term) -> bool:
    return isinstance(a, Const) and isinstance(b, Const) and a != b


class _CannotAsk(Exception):
    """Two terms whose equality no binding of one variable says (`_same`)."""


def _same(a: Term, b: Term) -> dict | None:
    """The binding that makes `a` and `b` one term ({} where they are); None where they are distinct ground
    terms (raises _CannotAsk where neither is a variable and they are not both ground)."""
    if a == b:
        return {}
    if isinstance(a, Var):
        return {a.name: b}
    if isinstance(b, Var):
        return {b.name: a}
    if is_ground(a) and is_ground(b):
        return None
    raise _CannotAsk


def _wrong(t: Term, counted: bool, count: BoardCount) -> list[tuple[dict, tuple]]:
    """The ways (a binding, literals) for the value `t` to count where `counted` is False, or not to where it is
    True."""
    mark = NULL if count.value is None else Const("yes" if count.value else "no")
    # set: counts unless null; a bool: counts where it is the value counted
    equal_wrong = counted if count.value is None else not counted
    if equal_wrong:  # wrong where t is `mark`
        same = _same(t, mark)
        return [] if same is None else [(same, ())]
    if isinstance(t, Const):
        return [] if t == mark else [({}, ())]
    return [({}, (Distinct(t, mark),))]


def flip_program(bodies: list[tuple], program: Program, views: set[str], joins: set[str]
                 ) -> tuple[list[Rule], set[str]] | None:
    """The rules of `tgpl_bad`, true where one of `bodies` (emitted literals) holds, with the rules of the game
    they read (and `legal`, `role`: never.lp chooses the move made among the legal ones), and the relations
    left free. `true` is any state. The ways' `joins`, which carry every counter from one pass to the next, are
    left out where read positively, which only makes more bodies hold (a call's demand then asks more; a
    variable only a join bound, any value its place in the join may hold, `_join_domains`, else any term); of
    `views` (the views of the state a move wrote, and its sites), those that read joins are free: any one value
    an object. None where that cannot be so (left out under `not`, or within an `or`)."""
    by_head: dict[str, list[Rule]] = {}
    for r in program.rules:
        by_head.setdefault(r.head.relation, []).append(r)

    def reaching(start: set[str]) -> set[str]:  # the relations that read `start`, through any rules
        found = set(start)
        while True:
            more = {h for h, rs in by_head.items() if h not in found
                    and any(a.relation in found for r in rs for a, _ in r.body_atoms())}
            if not more:
                return found
            found |= more

    moving = joins
    free = views & reaching(moving)
    domains = _join_domains(program, by_head, joins)
    kept: list[Rule] = []
    widened: set[str] = set()  # relations some of whose rules lost a literal
    seen: set[str] = set()
    todo: list[str] = []

    def cut(body: tuple, head: str | None, head_vars: set | None = None) -> tuple | None:
        out, loose, typed = [], [], []
        for x in body:
            if isinstance(x, Or):
                if any(a.relation in moving for a, _ in Rule(Atom("x"), (x,)).body_atoms()):
                    return None
                todo.extend(a.relation for a, _ in Rule(Atom("x"), (x,)).body_atoms())
                out.append(x)
                continue
            atom = x.literal if isinstance(x, Not) else x
            if isinstance(atom, Atom) and atom.relation in moving:
                if isinstance(x, Not):
                    return None
                if head is not None:
                    widened.add(head)
                for k, a in enumerate(atom.args):
                    if isinstance(a, Var) and (atom.relation, k) in domains:
                        typed.append(Atom(DOMAIN, (Const(atom.relation), Const(str(k)), a)))
                    else:
                        loose.extend(a.variables())
                continue
            if isinstance(atom, Atom):
                todo.append(atom.relation)
            out.append(x)
        # a variable only the literals left out bound is any term (`TERM`), and the literals of the game that read
        # it are left out too (a join's counter stepped: `(minus ?x50 2 ?x64)`): more bodies hold, and the
        # solver is not given a rule for every value of every counter
        typed_vars = {t.args[2] for t in typed}
        loose_vars = {v for v in loose if v not in typed_vars}
        while True:
            bound = {v for x in out if isinstance(x, Atom) for v in x.variables()} | typed_vars
            loose_vars |= {v for v in loose if v not in bound}
            drop = [x for x in out if isinstance(x, Atom) and set(x.variables()) & loose_vars]
            if not drop:
                break
            if head is not None:
                widened.add(head)
            loose.extend(v for x in drop for v in x.variables())
            out = [x for x in out if not any(x is d for d in drop)]
        needed = {v for x in out for v in _variables(x)} | (head_vars or set())
        return tuple(out) + tuple(dict.fromkeys(typed)) + tuple(
            Atom(TERM, (v,)) for v in dict.fromkeys(loose) if v not in bound and v in needed)

    for body in bodies:
        b = cut(body, None)
        if b is None:
            return None
        kept.append(Rule(Atom(BAD), b))
    todo += ["legal", "role"]
    while todo:
        rel = todo.pop()
        if rel in seen or rel in free or rel in ("true", "does"):
            continue
        seen.add(rel)
        for r in by_head.get(rel, []):
            b = cut(r.body, rel, set(r.head.variables()))
            if b is None:
                return None
            kept.append(Rule(r.head, b, r.span))
    while True:  # a relation read positively from one widened is wider too
        more = {r.head.relation for r in kept if r.head.relation not in widened
                and any(a.relation in widened and positive for a, positive in r.body_atoms())}
        if not more:
            break
        widened |= more
    if any(a.relation in widened and not positive for r in kept for a, positive in r.body_atoms()):
        return None
    if any(r.head.relation == TERM or any(a.relation == TERM for a, _ in r.body_atoms()) for r in kept):
        terms = {c for r in program.rules if not r.body for c in _constants(r.head)}
        kept += [Rule(Atom(TERM, (c,))) for c in sorted(terms, key=str)]
    if any(a.relation == DOMAIN for r in kept for a, _ in r.body_atoms()):
        kept += [Rule(Atom(DOMAIN, (Const(j), Const(str(k)), v))) for (j, k), values in sorted(domains.items())
                 for v in sorted(values, key=str)]
    # a body asks the move, the counters it steps and the cells it reads at once: each part on its own, the
    # move's variables shared, lest every value of every counter multiply the ways the solver must refute
    return list(independent_parts(Program(tuple(kept)), around="does").rules), free


DOMAIN = BAD + "_dom"  # (join, place, value): the values a place of a join may hold (`_join_domains`)


def _join_domains(program: Program, by_head: dict[str, list[Rule]], joins: set[str]) -> dict[tuple, set]:
    """(join, place) -> the values that place may hold, where each rule of the join binds it from a constant, a
    cell of the state (`base`), a role or a move's argument (`input`), or a place of a join whose values are
    known: more than it holds, never less. A place some rule binds otherwise is left out."""
    cells: dict[tuple, set] = {}
    moves: dict[tuple, set] = {}
    roles = {r.head.args[0] for r in program.rules if r.head.relation == "role" and not r.body}
    for r in program.rules:
        if r.body or not r.head.args or not isinstance(r.head.args[-1], Func):
            continue
        f = r.head.args[-1]
        table = cells if r.head.relation == "base" else moves if r.head.relation == "input" else None
        if table is not None:
            for k, a in enumerate(f.args):
                table.setdefault((f.name, k), set()).add(a)
    unknown: set[tuple] = set()
    out: dict[tuple, set] = {}
    for _ in range(len(joins) + 1):  # each join read from those before it
        found: dict[tuple, set] = {}
        for j in sorted(joins):
            for r in by_head.get(j, []):
                for k, h in enumerate(r.head.args):
                    values = _values(h, r.body, cells, moves, roles, out, joins, unknown)
                    if values is None:
                        unknown.add((j, k))
                    else:
                        found.setdefault((j, k), set()).update(values)
        found = {key: v for key, v in found.items() if key not in unknown}
        if found == out:
            break
        out = found
    return {key: v for key, v in out.items() if key not in unknown}


def _values(h: Term, body: tuple, cells: dict, moves: dict, roles: set, known: dict, joins: set,
            unknown: set) -> set | None:
    """The values a head's argument `h` may take under `body` (`_join_domains`, with the values of the joins'
    places found so far); None where it cannot say."""
    if isinstance(h, Const):
        return {h}
    for x in body:
        if not isinstance(x, Atom):
            continue
        if x.relation == "true" and isinstance(x.args[0], Func) and h in x.args[0].args:
            return cells.get((x.args[0].name, x.args[0].args.index(h)))
        if x.relation == "does" and x.args[0] == h:
            return set(roles)
        if x.relation == "does" and isinstance(x.args[1], Func) and h in x.args[1].args:
            return moves.get((x.args[1].name, x.args[1].args.index(h)))
        if x.relation in joins and h in x.args:
            key = (x.relation, x.args.index(h))
            return None if key in unknown else known.get(key, set())
    return None


TERM = BAD + "_term"  # every constant of the game's facts (`flip_program`)


def _variables(x) -> set:
    """The variables of a literal (`not`, `distinct`, `or` included)."""
    if isinstance(x, Not):
        return _variables(x.literal)
    if isinstance(x, Distinct):
        return set(x.left.variables()) | set(x.right.variables())
    if isinstance(x, Or):
        return {v for lit in x.literals for v in _variables(lit)}
    return set(x.variables())


def _constants(x) -> set[Const]:
    if isinstance(x, Const):
        return {x}
    if isinstance(x, (Atom, Func)):
        return {c for a in x.args for c in _constants(a)}
    return set()


def _num(k: int) -> Const:
    return Const(str(k))


def _obj(name: str) -> Const:
    return Const("#o:" + name)


def state_cells(program: Program, values: dict[tuple, list[Term]]) -> list[tuple[list[Term], bool]]:
    """The state as cells (tgpl.asp.induction.same_game), from the game's `base`: one per fluent relation and
    object (its values), the control, the result (optional: none before the end). Every cell but the result holds
    one value in every state the compiled rules reach (each fluent's `next` is its last view). `values`: for a
    cell (its relation and object), the only values a state that is not over may hold, where `base` lists more
    (a counter's values on the ways that end the game: the compiled rules are exact on the others alone)."""
    cells: dict[tuple, list[Term]] = {}
    for r in program.rules:
        if r.head.relation != "base" or r.body or not isinstance(r.head.args[0], Func):
            continue
        f = r.head.args[0]
        key = (f.name,) if f.name in ("control", "result") or len(f.args) < 2 else (f.name, *f.args[:-1])
        cells.setdefault(key, []).append(f)
    return [(values.get(key, terms), key[0] == "result") for key, terms in cells.items()]
