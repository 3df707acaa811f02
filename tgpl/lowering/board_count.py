"""Counters that count the board: bounded by the number of cells, once induction proves that they do.

Pente keeps `Game.Stones`, the stones on the board: `+= 1` where a stone is placed, `-= 2` where a pair is
captured, and `== 81` ends the game in a draw. With its moves compiled, a counter is bounded on its own, by the
tests before its writes and the checks that end the game on the ways that write it (CompiledGame.relax): the
relaxation reads every capture as possible on every move, and `Stones` falls without end. Yet in play it is
bounded by the board, since it is the number of points that hold a stone.

So a counter the relaxation cannot bound, held by one object, that equals after setup the number of objects
whose non-numeric attribute F is set (not null), and that is written in an action that writes F too, is taken to
be that count: the compiled game is made again with its values read only within 0..N (N the objects that have F
as a fluent), the values it is lowered with. That is a guess, and it is proved on the rules made, before
anything is kept: by one step of induction with clingo (tgpl.asp.induction.invariant_holds, passed in, since
the lowering does not import the layer below it), the invariant "the counter holds exactly the number of set F"
holds in the initial state, and in the successor of every state that keeps it (any value of every cell, far
more states than play reaches) by every joint legal move, terminal successors included. The lowered rules are
exact on the states within the counter's values, and by induction play never leaves them: the game lowered is
the game played. Where the proof fails (a counter that does not count the board, a move that sets F without
counting it), the game is refused as it was before the guess, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Program, Rule, Term, Var

Holds = Callable[[Program, list, list], bool]
"""(program, cells, rules of `tgpl_bad`) -> whether the invariant holds in every reachable state (see the module);
cells as tgpl.asp.induction.same_game takes them."""

BAD = "tgpl_bad"


@dataclass(frozen=True)
class BoardCount:
    """A counter guessed to count the objects whose `field` is set: `counter` of the object `holder`."""

    counter: str
    holder: str  # the counter's object (its name in the universe)
    field: str
    objects: tuple[str, ...]  # the objects that have `field` as a fluent, in the universe's order

    @property
    def bound(self) -> tuple[int, int]:
        """The counter's values: none to every object."""
        return 0, len(self.objects)


def board_counts(program, fluents: dict, counters: set[str]) -> dict[str, BoardCount]:
    """counter -> the count it is guessed to be, for each of `counters` that may be one (see the module).
    `fluents`: CompiledGame.fluents, (object, attribute) -> Fluent."""
    together = _written_together(program)
    out: dict[str, BoardCount] = {}
    for counter in sorted(counters):
        held = [fl for (_, attr), fl in fluents.items() if attr == counter]
        if len(held) != 1 or not held[0].numeric:
            continue
        start = held[0].initial
        if not isinstance(start, (int, float)) or isinstance(start, bool) or not float(start).is_integer():
            continue
        for field_ in sorted(together.get(counter, ())):
            cells = [fl for (_, attr), fl in fluents.items() if attr == field_]
            if not cells or any(fl.numeric for fl in cells):
                continue
            if sum(fl.initial is not None for fl in cells) == start:
                out[counter] = BoardCount(counter, held[0].obj.name, field_, tuple(fl.obj.name for fl in cells))
                break
    return out


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
    exactly the number of set fields (or holds no value), and of its helpers `<bad>_...`: the count is a chain
    along the objects' order, as GDL counts. `names`: the emitted game's (tgpl.lowering.compiled.Emission:
    `fluent`, `term`)."""
    n = len(count.objects)
    cell, succ, counted, held = (f"{bad}_{x}" for x in ("cell", "succ", "count", "held"))
    out = [Rule(Atom(cell, (_num(k), _num(k + 1), names.term(_obj(o))))) for k, o in enumerate(count.objects)]
    out += [Rule(Atom(succ, (_num(k), _num(k + 1)))) for k in range(n)]
    out.append(Rule(Atom(counted, (_num(0), _num(0)))))
    j, k, o, c, d, v = (Var(x) for x in ("j", "k", "o", "c", "d", "v"))
    step = (Atom(counted, (j, c)), Atom(cell, (j, k, o)))
    out.append(Rule(Atom(counted, (k, c)), step + (Atom("true", (names.fluent(count.field, o, NULL),)),)))
    out.append(Rule(Atom(counted, (k, d)), step + (Atom("true", (names.fluent(count.field, o, v),)),
                                                   Distinct(v, NULL), Atom(succ, (c, d)))))
    value = Atom("true", (names.fluent(count.counter, _obj(count.holder), c),))
    out.append(Rule(Atom(held), (value,)))
    out.append(Rule(Atom(bad), (Not(Atom(held)),)))
    out.append(Rule(Atom(bad), (value, Not(Atom(counted, (_num(n), c))))))
    return out


NULL = Const("null")


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
