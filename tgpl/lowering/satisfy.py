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


def satisfiable(a: Formula, b: Formula, known: Callable[[object], bool | None]) -> bool:
    """Can `a` and `b` hold together, the literals free but where `known` decides them and one value per cell?"""
    if a is FALSE or b is FALSE:
        return False
    facts: list[str] = []
    nodes: dict[int, int] = {}
    atoms: dict[object, int] = {}
    groups: dict[object, int] = {}

    def atom(key) -> int:
        found = atoms.get(key)
        if found is None:
            found = atoms[key] = len(atoms)
            facts.append(f"atom({found}).")
            v = known(key)
            if v is not None:
                facts.append(f"fixed({found},{1 if v else 0}).")
            cell = _exclusive_cell(key)
            if cell is not None:
                group = groups.setdefault(cell, len(groups))
                facts.append(f"excl({group},{found}).")
        return found

    def node(f: Formula) -> int:  # iterative: conditions nest thousands deep
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
                facts.append(f"lit({n},{atom(g.key)}).")
            elif g.kind == "not":
                facts.append(f"neg({n},{nodes[g.parts[0].id]}).")
            else:
                facts.append(f"{g.kind}({n}).")
                facts.extend(f"part({n},{nodes[p.id]})." for p in g.parts)
        return nodes[f.id]

    facts.append(f"root({node(a)}).")
    facts.append(f"root({node(b)}).")
    # excl/2 keeps the values of one cell apart: literals of one cell with the same value are one atom
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], _PROGRAM + "\n".join(facts))
    ctl.ground([("base", [])])
    return bool(ctl.solve().satisfiable)


__all__ = ["satisfiable"]
