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

from pathlib import Path
from typing import Callable

import clingo

from tgpl.lowering.symbolic import FALSE, TRUE, Formula, _exclusive_cell, _exclusive_value

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
        todo = [f]
        while todo:
            g = todo[-1]
            if g.id in nodes:
                todo.pop()
                continue
            pending = [p for p in (g.parts or ()) if p.id not in nodes]
            if pending:
                todo.extend(pending)
                continue
            todo.pop()
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


    def models(self, extra: str, most: int) -> list[list] | None:
        """The shown atoms of every answer (projected, each once) with `extra` rules added; None past `most`."""
        ctl = clingo.Control(["--warn=none", "--project", "0"])
        ctl.add("base", [], _PROGRAM + extra + "\n".join(self.facts))
        ctl.ground([("base", [])])
        out: list[list] = []
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                if len(out) >= most:
                    return None
                out.append(model.symbols(shown=True))
        return out


def satisfiable(a: Formula, b: Formula, known: Callable[[object], bool | None]) -> bool:
    """Can `a` and `b` hold together, the literals free but where `known` decides them and one value per cell?"""
    if a is FALSE or b is FALSE:
        return False
    enc = Encoding(known)
    enc.facts.append(f"root({enc.node(a)}).")
    enc.facts.append(f"root({enc.node(b)}).")
    return enc.solvable()


__all__ = ["Encoding", "satisfiable"]
