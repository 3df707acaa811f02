"""Phases no code can enter: the checker's warning.

A phase is entered only by name (`turn.pass(p, "X")`, `turn.use("T", "X")`) or as its turn's first
phase (a player the turn's `default` returns gets it, decision 48). A phase that is not first and
whose name no code that can run ever gives is dead rules: usually a typo'd or forgotten
`turn.pass(p, "X")`, or the only pass to it sits in another phase that is never entered itself.

What can run: setup, every action, function and turn `default` (whatever calls them), and the body
of each phase found entered so far; the search grows that set until nothing new is entered. It
proves the warning only when every phase a pass names is a string literal: a phase computed at run
time (`turn.pass(p, next)`) could be any, and then nothing is said.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.builtin_calls import NAMESPACES
from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Diagnostics

# The position of the phase among each call's positional arguments, by the turn's function (`pass`, `use`)
PHASE_POSITION = {
    name: [p.name for p in sig.params].index("phase")
    for name, sig in NAMESPACES["turn"].items() if any(p.name == "phase" for p in getattr(sig, "params", ()))
}


@dataclass(frozen=True)
class Named:
    """What one piece of code names: the phases it enters, and whether one is computed."""

    phases: frozenset[str]
    computed: bool


def _phase_arg(call: ast.Call) -> ast.Expr | None:
    """The phase argument of a turn.pass / turn.use call, positional or named."""
    for arg in call.args:
        if arg.name == "phase":
            return arg.value
    positional = [a for a in call.args if a.name is None]
    index = PHASE_POSITION[call.callee.name]
    return positional[index].value if len(positional) > index else None


def _turn_call(node) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.callee, ast.Member)
            and node.callee.name in PHASE_POSITION and isinstance(node.callee.obj, ast.Name)
            and node.callee.obj.name == "turn")


def named_phases(node) -> Named:
    """The phases `node`'s turn.pass and turn.use calls name, and whether one is computed."""
    phases: set[str] = set()
    computed = False
    for n in ast.walk(node):
        if _turn_call(n):
            arg = _phase_arg(n)
            if isinstance(arg, ast.StringLit):
                phases.add(arg.value)
            elif arg is not None:
                computed = True
    return Named(frozenset(phases), computed)


def check_phases_reached(modules: list[ast.Module], diags: Diagnostics) -> None:
    """Warn at each phase that is not its turn's first and that no code that can run enters by name."""
    turns = [item for m in modules for item in m.items if isinstance(item, ast.TurnDef)]
    phases = {p.name: p for t in turns for p in t.phases}
    if not phases:
        return
    always = []  # code that can run whatever phase is entered
    for module in modules:
        for item in module.items:
            if isinstance(item, ast.TurnDef):
                always += [d for d in item.items if isinstance(d, ast.Default)]
            elif not isinstance(item, ast.PhaseDef):
                always.append(item)
    found = named_phases(always)
    if found.computed:
        return
    entered = set(found.phases) | {t.phases[0].name for t in turns if t.phases}
    frontier = list(entered)
    while frontier:
        phase = phases.get(frontier.pop())
        if phase is None:
            continue
        inner = named_phases(phase.items)
        if inner.computed:
            return
        for name in inner.phases - entered:
            entered.add(name)
            frontier.append(name)
    named_by = {}  # a phase never entered: the phases never entered whose code names it
    for p in phases.values():
        if p.name not in entered:
            for name in named_phases(p.items).phases:
                named_by.setdefault(name, []).append(p.name)
    for turn in turns:
        for phase in turn.phases[1:]:
            if phase.name not in entered:
                only = named_by.get(phase.name)
                dead = (f" (only phase{'s' * (len(only) > 1)} {', '.join(repr(n) for n in only)}, never entered "
                        "either, name it)") if only else ""
                diags.warning(phase.name_span,
                              f"phase '{phase.name}' is never entered: no turn.pass or turn.use that can run "
                              f"names it{dead}, and it is not the first phase of turn '{turn.name}'",
                              f"control enters it with turn.pass(player, \"{phase.name}\") (or "
                              f"turn.use(\"{turn.name}\", \"{phase.name}\")); a default's player gets the "
                              "turn's first phase")
