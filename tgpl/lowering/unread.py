"""State the game never reads: attributes that code writes but no expression reads (language decision 109).

Designers keep statistics (dominoes placed, moves made) that nothing in the rules looks at. Such an
attribute changes no legal move, no next value of another attribute, no end and no score, so the game
without it is the same game on everything GDL observes; as a fluent it only costs the lowering a range
search (a counter of placements "takes more than 256 values") and the GDL a relation. The lowering leaves
it out of the state (no fluent) and drops its writes, their values and the object written still
evaluated for what they do (a write to an attribute of null stops the runtime); validation compares the
runtime's states on the fluents that are lowered, so on everything but it.

"Never read" is decided by name over every line of the game, setup included, as the lowering decides
what is written (`segments.written_attributes`): an attribute is left out when each of its occurrences is
the target of a write of its own statement (`X = e;`, `X += e;`, `X -= e;`, a `for`'s step), or its own
read in `X = X + e` / `X = X - e` / `X = e + X` on the same object, these steps only of a number declared with a
value other than null (a step of null stops the runtime). Any other occurrence of the name (a
condition, a filter, a function, `winner`, another attribute's write, `X *= 2`, a write used as a value)
keeps every attribute of that name. Only attributes the lowering would make state
(`segments.written_attributes`), of the game's own classes, whose values are numbers, bools, players,
strings or objects are candidates (collections and built-in attributes never). A game with secrets keeps
all of them: there a player sees the attributes it may see after every step (tgpl.lowering.percepts), so an
attribute nothing reads may still tell a player something. So does a game whose setup throws dice: what they
set is random's first move (tgpl.lowering.chance.setup_throw), made of the cells that differ.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.types import NUMBER, Collection

UPDATES = ("=", "+=", "-=")  # the writes that read nothing of the attribute but, for += and -=, itself


@dataclass(frozen=True)
class Unread:
    names: frozenset[str]  # attribute names never read: not state
    writes: frozenset[int]  # id() of the ast.Assign nodes that write them: dropped by the lowering
    labels: tuple[str, ...]  # `Class.attr` of each, for the .kif header and the dry run, in declaration order

    def header_line(self) -> str | None:
        """The .kif header's line naming them, None where there are none."""
        if not self.labels:
            return None
        return f"Not lowered: {', '.join(self.labels)} (written, never read)."

    def note(self) -> str | None:
        """The same for the dry run's notes (`tgpl to-gdl --dry-run`, `check --lowerable`)."""
        if not self.labels:
            return None
        return f"not lowered: {', '.join(self.labels)} (written, never read: no state, their writes dropped)"


NONE = Unread(frozenset(), frozenset(), ())


def unread_attributes(program) -> Unread:
    """The attributes of `program` that are written and never read (see the module's docstring)."""
    # imported here: both import the executor, which reads this module
    from tgpl.lowering.chance import setup_roll_calls
    from tgpl.lowering.percepts import has_secrets
    from tgpl.lowering.segments import written_attributes
    if has_secrets(program) or setup_roll_calls(program):
        return NONE  # setup's dice set state that random's first move sets: kept whole (chance.setup_throw)
    declared: dict[str, list[str]] = {}  # candidate name -> `Class.name` of each class declaring it
    refused: set[str] = set()  # names that are not candidates: a collection, or a built-in attribute somewhere
    counters: set[str] = set()  # numbers never null after setup, by their declarations: `+=` on them cannot fail
    for info in program.classes:
        for name, t in info.attribute_types.items():
            if info.builtin or isinstance(t, Collection):
                refused.add(name)
            else:
                declared.setdefault(name, []).append(f"{info.name}.{name}")
                decl = info.attributes.get(name)
                if t == NUMBER and decl is not None and decl.value is not None \
                        and not isinstance(decl.value, ast.NullLit):
                    counters.add(name)
    counters -= {name for info in program.classes for name, t in info.attribute_types.items() if t != NUMBER}
    candidates = (set(declared) - refused) & written_attributes(program)  # else no fluent to leave out
    code = list(program.modules)
    statements: set[int] = set()  # Assign nodes that are a statement of their own (their value unused)
    for n in ast.walk(code):
        if isinstance(n, ast.ExprStmt) and isinstance(n.expr, ast.Assign):
            statements.add(id(n.expr))
        elif isinstance(n, ast.For):
            statements |= {id(x) for x in (n.init, n.post) if isinstance(x, ast.Assign)}
    writes: dict[int, str] = {}  # id(Assign) -> the attribute it writes
    unread_uses: set[int] = set()  # the targets and own reads of those writes
    for n in ast.walk(code):
        if not (isinstance(n, ast.Assign) and _names_attribute(program, n.target)
                and n.target.name in candidates and id(n) in statements and n.op in UPDATES):
            continue
        own = _own_read(n)
        if (n.op != "=" or own is not None) and n.target.name not in counters:
            continue  # a step of what may be null or no number (`+=` on a player): the runtime may stop there
        writes[id(n)] = n.target.name
        unread_uses.add(id(n.target))
        if own is not None:
            unread_uses.add(id(own))
    read: set[str] = set()
    for n in ast.walk(code):
        if _names_attribute(program, n) and n.name in candidates and id(n) not in unread_uses:
            read.add(n.name)
    names = frozenset(candidates - read)
    if not names:
        return NONE
    labels = tuple(label for name in declared if name in names for label in declared[name])
    return Unread(names, frozenset(i for i, name in writes.items() if name in names), labels)


def _names_attribute(program, n) -> bool:
    """Whether `n` names an attribute: `x.Name`, or `Name` inside its class."""
    return isinstance(n, ast.Member) or (isinstance(n, ast.Name) and id(n) in program.implicit_this)


def _own_read(n: ast.Assign):
    """In `X = X + e`, `X = X - e` or `X = e + X`, the read of X on the same object as the write; else None."""
    v = n.value
    if n.op != "=" or not isinstance(v, ast.Binary) or v.op not in ("+", "-"):
        return None
    if _same_place(v.left, n.target):
        return v.left
    if v.op == "+" and _same_place(v.right, n.target):
        return v.right
    return None


def _same_place(a, b) -> bool:
    """Whether two accesses name the same attribute of the same object, written alike: `Name`, or `o.Name` where
    `o` is a name (a local, an input, a global class) or such an access itself."""
    if isinstance(a, ast.Name) and isinstance(b, ast.Name):
        return a.name == b.name
    if isinstance(a, ast.Member) and isinstance(b, ast.Member):
        return a.name == b.name and _same_place(a.obj, b.obj)
    return isinstance(a, ast.This) and isinstance(b, ast.This)
