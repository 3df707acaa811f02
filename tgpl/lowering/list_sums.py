"""Sums of an item field over a list that is state, kept as a running total (docs/language.md, decision 113).

`for (number i = 0; i < Cards.length; i += 1) { sum += Cards[i].Value; }` over a list attribute that is state
(`execute.StateList`) was run slot by slot: every length of the list a path, every slot's item a case, and the
sum a number by cases whose every combination with another such sum (two hands' totals compared) built
conditions past the budget of a control state (Treasure's `Hand.Total`, `execute.STATE_WORK`). Hand-written GDL
keeps such a sum in a fluent that each change of the list moves by the item's value. So does the lowering: for
each list attribute and item field such a loop sums, every object holding that list gets a numeric fluent, its
*total* (`Cards.sum.Value`), that setup's items start and that `add`, `remove`, `removeAt` and `clear` change by
the field of the item that comes or goes; the loop reads it, one number of the state. The field must be a number
that no code after setup changes, whole in every object of the list's element class (so that the total lies
on the whole numbers of its range), and the list changed by those four methods alone (an item set by index or an
`append` keeps the loop as it was). The total is left out of the searches of the numbers' ranges: its range is
the list's most items times the field's extremes (0 included), from the length's range once it is known
(`total_domain`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.after_setup import after_setup_nodes
from tgpl.frontend.types import NUMBER, ClassType, Collection

SUM_METHODS = frozenset({"add", "remove", "removeAt", "clear"})
"""The changes of a list whose total moves by the item that comes or goes; any other change (an item set by
index, `append`) leaves its sums to the loop."""


def sum_cell(attr: str, field: str) -> str:
    """The attribute name of the running total of `field` over the list attribute `attr` (`Cards.sum.Value`)."""
    return f"{attr}.sum.{field}"


def nulls_cell(attr: str) -> str:
    """The attribute name of the count of null items of a list attribute whose items a loop sums (`Cards.nulls`):
    `add(null)` is no runtime error, but the loop's read of the null item's field is."""
    return f"{attr}.nulls"


def total_of(attr: str) -> tuple[str, str | None] | None:
    """(list attribute, summed field, or None for the count of null items) of a cell named by `sum_cell` or
    `nulls_cell`; None for any other attribute."""
    if attr.endswith(".nulls"):
        return attr[: -len(".nulls")], None
    base, sep, field = attr.partition(".sum.")
    return (base, field) if sep and base and field else None


def runtime_total(items: list, field: str | None) -> float:
    """The total a list of the runtime's items (objects of the lowering, or None) has: the sum of their `field`,
    or the count of null items (`field` None); how the validation reads a runtime state's totals."""
    if field is None:
        return float(sum(1 for x in items if x is None))
    return float(sum(x.fields[field] for x in items if x is not None))


@dataclass(frozen=True)
class SumLoop:
    """A loop that adds `field` of each item of `items` to the local `acc`, in order, and does nothing else."""

    acc: ast.Name
    items: ast.Expr
    field: str


def path_shape(e: ast.Expr) -> tuple | None:
    """A key equal for two expressions that name the same list the same way (no calls: reading it twice gives
    the same list); None for any other expression."""
    if isinstance(e, ast.Name):
        return ("name", e.name)
    if isinstance(e, ast.This):
        return ("this",)
    if isinstance(e, ast.Member):
        inner = path_shape(e.obj)
        return None if inner is None else ("member", inner, e.name)
    return None


def list_walk(s: ast.For) -> tuple[str, ast.Expr] | None:
    """(i, L) of a loop `for (number i = 0; i < L.length; i += 1)`, L a list named without calls (`path_shape`);
    None for any other loop header."""
    init, cond, post = s.init, s.cond, s.post
    if not (isinstance(init, ast.VarDecl) and isinstance(init.init, ast.NumberLit) and init.init.value == 0):
        return None
    i = init.name
    if not (isinstance(cond, ast.Binary) and cond.op == "<" and isinstance(cond.left, ast.Name)
            and cond.left.name == i and isinstance(cond.right, ast.Member) and cond.right.name == "length"):
        return None
    if path_shape(cond.right.obj) is None:
        return None
    if not (isinstance(post, ast.Assign) and isinstance(post.target, ast.Name) and post.target.name == i
            and post.op == "+=" and isinstance(post.value, ast.NumberLit) and post.value.value == 1):
        return None
    return i, cond.right.obj


def sum_loop(s: ast.For, types: dict) -> SumLoop | None:
    """The loop `for (number i = 0; i < L.length; i += 1) { acc += L[i].F; }` (or `acc = acc + L[i].F`), acc a
    number local other than i; None for any other loop."""
    walk = list_walk(s)
    if walk is None:
        return None
    i, items = walk
    if len(s.body.body) != 1 or not isinstance(s.body.body[0], ast.ExprStmt):
        return None
    step = s.body.body[0].expr
    if not (isinstance(step, ast.Assign) and isinstance(step.target, ast.Name) and step.target.name != i):
        return None
    term = step.value
    if step.op == "=":  # acc = acc + L[i].F
        if not (isinstance(term, ast.Binary) and term.op == "+" and isinstance(term.left, ast.Name)
                and term.left.name == step.target.name):
            return None
        term = term.right
    elif step.op != "+=":
        return None
    if not (isinstance(term, ast.Member) and isinstance(term.obj, ast.Index)
            and isinstance(term.obj.index, ast.Name) and term.obj.index.name == i
            and path_shape(term.obj.obj) == path_shape(items)):
        return None
    t = types.get(id(items))
    if types.get(id(term)) != NUMBER:  # the local's type is the executor's to check (a number, not a string)
        return None
    if not (isinstance(t, Collection) and t.kind == "List" and isinstance(t.elem, ClassType)):
        return None
    return SumLoop(step.target, items, term.name)


def summed_fields(program) -> dict[str, set[str]]:
    """List attribute name -> the item fields some loop after setup sums over it (`sum_loop`), for the lists
    changed by `SUM_METHODS` alone. Whether each list is state, and each field a fixed whole number, is the
    lowering's to check (`Lowering._list_fluents`)."""
    found: dict[str, set[str]] = {}
    others: set[str] = set()
    for n in after_setup_nodes(program):
        if isinstance(n, ast.For):
            loop = sum_loop(n, program.types)
            if loop is not None and isinstance(loop.items, (ast.Name, ast.Member)):
                found.setdefault(loop.items.name, set()).add(loop.field)
        elif isinstance(n, ast.Assign) and isinstance(n.target, ast.Index):
            if isinstance(n.target.obj, (ast.Name, ast.Member)):
                others.add(n.target.obj.name)
        elif isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and n.callee.name == "append":
            if isinstance(n.callee.obj, (ast.Name, ast.Member)):
                others.add(n.callee.obj.name)
    return {name: fields for name, fields in found.items() if name not in others}


def total_domain(values: list[float], most: int, initial: float) -> list[float]:
    """Every whole number a total of at most `most` items can be, each item's field one of `values`, with
    `initial` (setup's total) among them: an over-approximation, items counted with repeats."""
    lo = most * min(0.0, min(values, default=0.0))
    hi = most * max(0.0, max(values, default=0.0))
    lo, hi = min(lo, initial), max(hi, initial)
    return [float(x) for x in range(int(lo), int(hi) + 1)]


def _names_list(e: ast.Expr, name: str) -> bool:
    """Whether `e` is the list `name` itself (`Cards`, `hand.Cards`, `this.Cards`)."""
    return isinstance(e, (ast.Name, ast.Member)) and e.name == name


def _reads_item(e: ast.Expr, name: str, items: set[str]) -> bool:
    """Whether `e` reads an item of the list `name`: `Cards[i]` (or a field of it), or a local that holds one."""
    return any((isinstance(n, ast.Index) and _names_list(n.obj, name))
               or (isinstance(n, ast.Name) and n.name in items) for n in ast.walk(e))


def summed_in(body: ast.Node, name: str) -> bool:
    """Whether `body` adds the items of the list attribute `name` into a number (`total += Cards[i].Value`, `total =
    total - card.Value` with `card` a local read from the list): such a list is read for a sum, which a running
    total the moves keep replaces, where a list whose items are tested (`Left.contains(kind)`) or picked one by one
    wants its items marked instead (tgpl.lowering.rewrites.marked_items_hint)."""
    items: set[str] = set()
    for n in ast.walk(body):
        if isinstance(n, ast.VarDecl) and n.init is not None and _reads_item(n.init, name, items):
            items.add(n.name)
    for n in ast.walk(body):
        if not isinstance(n, ast.Assign):
            continue
        if n.op in ("+=", "-=") and _reads_item(n.value, name, items):
            return True
        if (n.op == "=" and isinstance(n.value, ast.Binary) and n.value.op in ("+", "-")
                and isinstance(n.value.left, ast.Name) and isinstance(n.target, ast.Name)
                and n.value.left.name == n.target.name
                and _reads_item(n.value.right, name, items)):
            return True
    return False
