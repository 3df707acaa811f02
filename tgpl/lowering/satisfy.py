"""Whether a path's condition and a value's case can hold together, decided exactly (clingo).

The counters' range search (tgpl.lowering.segments.Admission) asks, for a value new to a
counter's range, whether a path that writes it can hold in the case that gives it, with
the comparisons the numbers decide. `symbolic.compatible` answers by evaluating each
formula three-valued under the literals both are conjunctions of, and where the case's own
formula is met inside the condition, as true: fast, but blind to a case spelled with other
formulas than the condition's. Chess's fifty-move count, written `Quiet + 1` or 0 by cases
whose formulas the end phase's comparison restates, went past 100 that way. Here the
question is decided, not evaluated: literals are free propositions (as for `compatible`),
at most one value per cell (`symbolic._exclusive_cell`), the comparisons fixed by the
numbers; satisfiable or not, by clingo, on the formulas as they are (a DAG, each node once).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Callable, Iterator

import clingo

from tgpl.limits import LimitReached, Limits, outside, unlimited
from tgpl.lowering.symbolic import FALSE, TRUE, Formula, _exclusive_cell, _exclusive_value, parts_first

_PROGRAM = (Path(__file__).with_name("satisfy.lp")).read_text(encoding="utf-8")


class Encoding:
    """Formulas as facts of satisfy.lp: each node once (a DAG), literals free but where `known` decides them, at
    most one value per cell. Also used by tgpl.lowering.conserved, which adds facts of its own."""

    def __init__(self, known: Callable[[object], bool | None]):
        self.known = known
        self.facts: list[str] = []
        self.nodes: dict[int, int] = {}
        self.atoms: dict[object, int] = {}
        self.groups: dict[object, int] = {}

    def atom(self, key) -> int:
        found = self.atoms.get(key)
        if found is None:
            found = self.atoms[key] = len(self.atoms)
            self.facts.append(f"atom({found}).")
            v = self.known(key)
            if v is not None:
                self.facts.append(f"fixed({found},{1 if v else 0}).")
            cell = _exclusive_cell(key)
            if cell is not None:
                group = self.groups.setdefault(cell, len(self.groups))
                self.facts.append(f"excl({group},{found}).")
        return found

    def node(self, f: Formula) -> int:  # iterative: conditions nest thousands deep
        nodes, facts = self.nodes, self.facts
        for g in parts_first(f, nodes):
            n = nodes[g.id] = len(nodes)
            if g is TRUE:
                facts.append(f"true({n}).")
            elif g is FALSE:
                pass  # no rule makes it hold
            elif g.kind == "lit":
                facts.append(f"lit({n},{self.atom(g.key)}).")
            elif g.kind == "not":
                facts.append(f"neg({n},{nodes[g.parts[0].id]}).")
            else:
                facts.append(f"{g.kind}({n}).")
                facts.extend(f"part({n},{nodes[p.id]})." for p in g.parts)
        return nodes[f.id]

    def solvable(self, extra: str = "") -> bool:
        """Whether the roots can hold together, with `extra` rules added."""
        # excl/2 keeps the values of one cell apart: literals of one cell with the same value are one atom
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], _PROGRAM + extra + "\n".join(self.facts))
        ctl.ground([("base", [])])
        return bool(ctl.solve().satisfiable)


    def answers(self, extra: str, limits: Limits | None = None) -> Iterator[list]:
        """The shown atoms of every answer (projected, each once) with `extra` rules added, one by one as clingo
        finds them: a caller that has its answer stops asking (a sum changed by one way of many: the proof fails
        there, where Oware's ways listed 20,000 answers each first). Under `limits` (LimitReached past them): the
        parsing and grounding, which nothing interrupts, run `outside`; the search runs in clingo's background
        thread, waited on SOLVE_POLL seconds at a time between two polls and cancelled past them (`_solved`), and
        each answer is checked: Kalah's proof of its seeds' sum lists thousands of answers per move, twenty
        seconds of them, where a command given twenty in all must stop."""
        limits = limits if limits is not None else unlimited()
        ctl = clingo.Control(["--warn=none", "--project", "0"])
        program = _PROGRAM + extra + "\n".join(self.facts)

        def ground() -> None:
            ctl.add("base", [], program)
            ctl.ground([("base", [])])
        outside(ground, limits)
        with ctl.solve(yield_=True, async_=True) as handle:
            for model in _models(handle, limits):
                yield model.symbols(shown=True)
                limits.check()


SOLVE_POLL = 0.05  # seconds between two polls of the limits while clingo searches for the next answer


def _solved(handle: clingo.SolveHandle, limits: Limits) -> None:
    """Wait for the search of `handle` (started with `async_`) to end, polling `limits` every SOLVE_POLL seconds
    and once after it ended (LimitReached, the search cancelled). One question of the range search
    (`segments.Admission`) can search for seconds: a path's condition spans the board, and the solver's program
    holds every condition asked so far (Oware's seeds, asked blocking: stretches of 3 to 10 s between two checks of
    its joint search on a busy machine, and a run stopped 79 s past --max-seconds 240). Polls, not checks: how
    many a wait makes depends on the machine's speed (`Limits.poll`)."""
    while not handle.wait(SOLVE_POLL):
        _checked(handle, limits)
    _checked(handle, limits)


def _models(handle: clingo.SolveHandle, limits: Limits) -> Iterator[clingo.Model]:
    """The models of `handle` (started with `yield_` and `async_`), each waited for as `_solved` waits."""
    while True:
        handle.resume()
        _solved(handle, limits)
        model = handle.model()
        if model is None:
            return
        yield model


def _checked(handle: clingo.SolveHandle, limits: Limits) -> None:
    """`limits.poll()`, the search cancelled before LimitReached leaves it."""
    try:
        limits.poll()
    except LimitReached:
        handle.cancel()
        raise


def satisfiable(a: Formula, b: Formula, known: Callable[[object], bool | None]) -> bool:
    """Can `a` and `b` hold together, the literals free but where `known` decides them and one value per cell?"""
    if a is FALSE or b is FALSE:
        return False
    enc = Encoding(known)
    enc.facts.append(f"root({enc.node(a)}).")
    enc.facts.append(f"root({enc.node(b)}).")
    return enc.solvable()


PROGRAM_SHARE = 10
"""Formula nodes of a Solver's program that count as one unit of a question's work (`Solver.work`)."""


class Solver:
    """`satisfiable` asked many times over one program: each formula node given to clingo once, as rules added
    through its backend (no text parsed, nothing grounded), the literals free, and each question a solve under
    assumptions: the two roots hold, and every literal of their cones that `known` decides has its truth.

    The same answers as `satisfiable`: a literal outside the roots' cones is free, and so changes nothing (the
    cells' exclusions only forbid two of a cell's literals together), and a literal assumed is what a `fixed`
    one is there. Why: the range search (tgpl.lowering.segments.Admission) asks about the same large path
    conditions again and again, each with other comparisons decided; written and grounded for each question, Shut
    the Box's first 1,402 questions took 69 s, 36 ms of each in clingo's parsing and grounding."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits if limits is not None else unlimited()  # checked while clingo searches (`_solved`)
        self.ctl = clingo.Control(["--warn=none", "--enum-mode=record"])
        self.nodes: dict[int, int] = {}  # formula id -> the solver atom that holds where the formula does
        self.atoms: dict[object, int] = {}  # literal key -> its solver atom
        self.groups: dict[object, list[int]] = {}  # exclusive cell -> the atoms of its literals
        self.cones: dict[int, tuple] = {}  # a root's formula id -> the (key, atom) of the literals under it
        self._keep: list[Formula] = []  # the formulas numbered by id stay alive
        self.questions = 0  # solves asked (an enumeration of models is one)
        # the questions' work so far, counted: the literals of their roots' cones walked, and for each a share of the
        # program clingo prepares for it (its formula nodes / PROGRAM_SHARE), as a solve's cost grows with the program
        # (Pente 7x7's captures: its later questions cost many times its first)
        self.work = 0

    def satisfiable(self, a: Formula, b: Formula, known: Callable[[object], bool | None]) -> bool:
        """As `satisfiable(a, b, known)`."""
        if a is FALSE or b is FALSE:
            return False
        with self.ctl.backend() as backend:
            roots = [self._node(backend, a), self._node(backend, b)]
        assumptions = [(root, True) for root in roots]
        for f in (a, b):
            cone = self._cone(f)
            self.work += len(cone)
            for key, atom in cone:
                v = known(key)
                if v is not None:
                    assumptions.append((atom, bool(v)))
        self.questions += 1
        self.work += len(self.nodes) // PROGRAM_SHARE
        with self.ctl.solve(assumptions=[x if truth else -x for x, truth in assumptions], async_=True) as handle:
            _solved(handle, self.limits)
            return bool(handle.get().satisfiable)

    def combinations(self, a: Formula, rows: list[list[Formula]], known: Callable[[object], bool | None],
                     most: int) -> set[tuple[int, ...]] | None:
        """The tuples (j1, j2, ...) of indices into `rows` such that a and rows[0][j1], rows[1][j2], ... can
        hold together (the literals and `known` as for `satisfiable`): one solve, its models enumerated, each
        model giving every combination of the formulas of each row it makes true, and each next model made to
        make true one formula the last did not (a clause for this solve alone). A combination that can hold has
        a model; that model is found or one making a superset of its formulas true is. None past `most`
        models: the caller asks one combination at a time. Why: the range search asked whether each
        combination of two scores' values could hold with a path (`segments.Together`), 484 questions for
        each roll in Shut the Box, where the 22 that can hold are found by 22 models and a last, failed one."""
        if a is FALSE:
            return set()
        with self.ctl.backend() as backend:
            root = self._node(backend, a)
            atoms = [[self._node(backend, f) for f in row] for row in rows]
        assumptions = [root]
        for f in [a] + [f for row in rows for f in row]:
            cone = self._cone(f)
            self.work += len(cone)
            for key, atom in cone:
                v = known(key)
                if v is not None:
                    assumptions.append(atom if v else -atom)
        found: set[tuple[int, ...]] = set()
        models = 0
        self.questions += 1
        self.work += len(self.nodes) // PROGRAM_SHARE
        self.ctl.configuration.solve.models = 0
        try:
            with self.ctl.solve(assumptions=assumptions, yield_=True, async_=True) as handle:
                for model in _models(handle, self.limits):
                    models += 1
                    if models > most:
                        return None
                    true = [[j for j, x in enumerate(row) if model.is_true(x)] for row in atoms]
                    found.update(itertools.product(*true))
                    model.context.add_clause([x for row in atoms for x in row if not model.is_true(x)])
        finally:
            self.ctl.configuration.solve.models = 1
        return found

    def _atom(self, backend, key) -> int:
        found = self.atoms.get(key)
        if found is None:
            found = self.atoms[key] = backend.add_atom()
            backend.add_rule([found], choice=True)
            cell = _exclusive_cell(key)
            if cell is not None:
                group = self.groups.setdefault(cell, [])
                for other in group:  # at most one value per cell: no two of its literals together
                    backend.add_rule([], [found, other])
                group.append(found)
        return found

    def _node(self, backend, f: Formula) -> int:  # iterative: conditions nest thousands deep
        nodes = self.nodes
        for g in parts_first(f, nodes):
            self._keep.append(g)
            if g.kind == "lit":
                nodes[g.id] = self._atom(backend, g.key)
                continue
            n = nodes[g.id] = backend.add_atom()
            if g is TRUE:
                backend.add_rule([n])
            elif g is FALSE:
                pass  # no rule makes it hold
            elif g.kind == "not":
                backend.add_rule([n], [-nodes[g.parts[0].id]])
            elif g.kind == "and":
                backend.add_rule([n], [nodes[p.id] for p in g.parts])
            else:
                for p in g.parts:
                    backend.add_rule([n], [nodes[p.id]])
        return nodes[f.id]

    def _cone(self, f: Formula) -> tuple:
        """The literals under f, each once, as (key, atom); kept for each root asked (not for every node: a chain
        thousands deep would keep each of its nodes' cones)."""
        found = self.cones.get(f.id)
        if found is None:
            literals: dict[object, int] = {}
            seen = {f.id}
            todo = [f]
            while todo:
                g = todo.pop()
                if g.kind == "lit":
                    literals[g.key] = self.atoms[g.key]
                for p in g.parts or ():
                    if p.id not in seen:
                        seen.add(p.id)
                        todo.append(p)
            found = self.cones[f.id] = tuple(literals.items())
        return found


__all__ = ["Encoding", "Solver", "satisfiable"]
