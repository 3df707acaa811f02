"""Ground rules that differ only in an object of one class become one rule with a variable.

The lowering writes a rule per object: nine `legal` rules for Tris, one per tile.
When the rules for every object of a class are the same rule with that object
in it, they are one rule over the class, as a person would write it:

    (<= (legal player_0 (tick playerstate_0 ?ticktile))
        (ticktile ?ticktile)
        (true (control player_0 gameturn tickphase))
        (true (assignedto ?ticktile null)))

with `(ticktile trisgrid_0_0)` ... as facts. The rewrite is exact: instantiating
the variable with each member of the class gives back the original rules, and
only then is it done.
"""

from __future__ import annotations

from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Or, Rule, Var

KEPT = {"role", "base", "input", "init", "succ"}  # facts and declarations stay as they are
SMALLEST = 3  # classes with fewer objects are not worth a relation


def generalize(rules: list[Rule], classes: dict[str, list[str]]) -> tuple[list[Rule], list[Rule]]:
    """(rules with variables where exact, the class facts they use). `classes`: relation -> member constants."""
    member_of = {c: cls for cls, members in classes.items() if len(members) >= SMALLEST for c in members}
    groups: dict[tuple, list[tuple[int, str]]] = {}
    for i, rule in enumerate(rules):
        if rule.is_fact or rule.head.relation in KEPT:
            continue
        for c in dict.fromkeys(_constants(rule.head)):
            cls = member_of.get(c)
            if cls is None:
                continue
            var = Var(cls)
            if any(v.name == var.name for v in rule.variables()):
                continue
            groups.setdefault((cls, _substitute_rule(rule, c, var)), []).append((i, c))
    consumed: dict[int, Rule | None] = {}
    used: list[str] = []
    for (cls, general), found in groups.items():
        indices = [i for i, _ in found]
        if sorted(c for _, c in found) != sorted(classes[cls]) or any(i in consumed for i in indices):
            continue
        if len(set(indices)) != len(indices):
            continue
        var = Var(cls)
        rule = Rule(general.head, (Atom(cls, (var,)),) + general.body)
        consumed[indices[0]] = rule
        for i in indices[1:]:
            consumed[i] = None
        if cls not in used:
            used.append(cls)
    out = []
    for i, rule in enumerate(rules):
        if i in consumed:
            if consumed[i] is not None:
                out.append(consumed[i])
        else:
            out.append(rule)
    facts = [Rule(Atom(cls, (Const(c),))) for cls in used for c in classes[cls]]
    return out, facts


def _constants(node) -> list[str]:
    if isinstance(node, Const):
        return [node.name]
    if isinstance(node, (Atom, Func)):
        return [c for a in node.args for c in _constants(a)]
    return []


def _substitute(node, c: str, var: Var):
    if isinstance(node, Const):
        return var if node.name == c else node
    if isinstance(node, Func):
        return Func(node.name, tuple(_substitute(a, c, var) for a in node.args))
    if isinstance(node, Atom):
        return Atom(node.relation, tuple(_substitute(a, c, var) for a in node.args))
    if isinstance(node, Not):
        return Not(_substitute(node.literal, c, var))
    if isinstance(node, Distinct):
        return Distinct(_substitute(node.left, c, var), _substitute(node.right, c, var))
    if isinstance(node, Or):
        return Or(tuple(_substitute(x, c, var) for x in node.literals))
    return node


def _substitute_rule(rule: Rule, c: str, var: Var) -> Rule:
    return Rule(_substitute(rule.head, c, var), tuple(_substitute(b, c, var) for b in rule.body))


__all__ = ["generalize"]
