"""A small logic IR shared by the lowering, the GDL reader and every emitter.

One IR, several emitters: the lowering of TGPL and the KIF reader both build
it; the KIF, infix and ASP emitters, the GDL validator and the reasoner read it.
It is just Datalog with negation, `distinct` and `or`, which is what GDL is:

    Program(rules)   Rule(head: Atom, body: (Literal, ...))
    Literal = Atom | Not(Literal) | Distinct(Term, Term) | Or((Literal, ...))
    Term    = Const(name) | Var(name) | Func(name, (Term, ...))

Every node is frozen and hashable, so rules can be compared, deduplicated and
used as keys. A node may carry the `Span` it was read from; spans never take
part in equality, so a program read from two differently laid-out files is the
same program (the KIF round trip relies on it).

Names are kept as given: the KIF reader folds case before building nodes (see
tgpl.asp.kif), the IR itself is case-sensitive. Variable names have no `?`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

from tgpl.frontend.diagnostics import Span


GDL_RELATIONS = frozenset({"role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input",
                           "distinct", "sees"})
"""The relations GDL (and GDL-II's `sees`) gives their meaning and arity: a pass that renames, splits or narrows
the game's own relations leaves these alone."""


def _span() -> Span | None:
    return field(default=None, compare=False, hash=False, repr=False)


# ------------------------------------------------------------------ terms
@dataclass(frozen=True, slots=True)
class Const:
    """An object constant; integers (goal values, counters) are constants too."""

    name: str
    span: Span | None = _span()

    @property
    def is_int(self) -> bool:
        return _is_int(self.name)

    def variables(self) -> Iterator[Var]:
        return iter(())

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Var:
    """A variable, named without the KIF `?` (`?x` is Var("x"))."""

    name: str
    span: Span | None = _span()

    def variables(self) -> Iterator[Var]:
        yield self

    def __str__(self) -> str:
        return "?" + self.name


@dataclass(frozen=True, slots=True)
class Func:
    """A compound term such as `(cell 1 2 x)` inside a fluent or a move."""

    name: str
    args: tuple[Term, ...]
    span: Span | None = _span()

    def variables(self) -> Iterator[Var]:
        for a in self.args:
            yield from a.variables()

    def __str__(self) -> str:
        return f"({self.name} {' '.join(map(str, self.args))})"


Term = Union[Const, Var, Func]


def is_ground(term: Term) -> bool:
    return next(term.variables(), None) is None


def fresh_name(base: str, taken: set[str]) -> str:
    """`base`, or where `taken` holds it `base_2`, `base_3`, ...: the first name not taken, which is taken now (a
    relation a pass adds beside the game's own)."""
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


def occurrences(x, v: Var) -> int:
    """How many times variable `v` occurs in `x`, a term, a literal or a rule (its head and body): a variable
    that occurs once is free to rename or drop, one that occurs twice joins."""
    if isinstance(x, Rule):
        return occurrences(x.head, v) + sum(occurrences(lit, v) for lit in x.body)
    return sum(1 for w in x.variables() if w == v)


# --------------------------------------------------------------- literals
@dataclass(frozen=True, slots=True)
class Atom:
    """A relation applied to terms; `terminal` is Atom("terminal", ())."""

    relation: str
    args: tuple[Term, ...] = ()
    span: Span | None = _span()

    @property
    def arity(self) -> int:
        return len(self.args)

    def variables(self) -> Iterator[Var]:
        for a in self.args:
            yield from a.variables()

    def atoms(self) -> Iterator[tuple[Atom, bool]]:
        yield self, True

    def __str__(self) -> str:
        if not self.args:
            return self.relation
        return f"({self.relation} {' '.join(map(str, self.args))})"


@dataclass(frozen=True, slots=True)
class Not:
    """Negation as failure; GDL requires it to be stratified."""

    literal: Literal
    span: Span | None = _span()

    def variables(self) -> Iterator[Var]:
        return self.literal.variables()

    def atoms(self) -> Iterator[tuple[Atom, bool]]:
        for atom, positive in self.literal.atoms():
            yield atom, not positive

    def __str__(self) -> str:
        return f"(not {self.literal})"


@dataclass(frozen=True, slots=True)
class Distinct:
    """Syntactic inequality of two terms; binds no variable."""

    left: Term
    right: Term
    span: Span | None = _span()

    def variables(self) -> Iterator[Var]:
        yield from self.left.variables()
        yield from self.right.variables()

    def atoms(self) -> Iterator[tuple[Atom, bool]]:
        return iter(())

    def __str__(self) -> str:
        return f"(distinct {self.left} {self.right})"


@dataclass(frozen=True, slots=True)
class Or:
    """A disjunction inside a body; `expand_or` turns it into several rules."""

    literals: tuple[Literal, ...]
    span: Span | None = _span()

    def variables(self) -> Iterator[Var]:
        for lit in self.literals:
            yield from lit.variables()

    def atoms(self) -> Iterator[tuple[Atom, bool]]:
        for lit in self.literals:
            yield from lit.atoms()

    def __str__(self) -> str:
        return f"(or {' '.join(map(str, self.literals))})"


Literal = Union[Atom, Not, Distinct, Or]


# ------------------------------------------------------------------ rules
@dataclass(frozen=True, slots=True)
class Rule:
    """`head :- body`; a fact when the body is empty."""

    head: Atom
    body: tuple[Literal, ...] = ()
    span: Span | None = _span()

    @property
    def is_fact(self) -> bool:
        return not self.body

    def variables(self) -> list[Var]:
        """Each variable once, in order of first occurrence (head first)."""
        seen: dict[str, Var] = {}
        for v in self.head.variables():
            seen.setdefault(v.name, v)
        for lit in self.body:
            for v in lit.variables():
                seen.setdefault(v.name, v)
        return list(seen.values())

    def body_atoms(self) -> Iterator[tuple[Atom, bool]]:
        """Every atom of the body with its polarity (False under an odd number of `not`)."""
        for lit in self.body:
            yield from lit.atoms()

    def __str__(self) -> str:
        if not self.body:
            return str(self.head)
        return f"(<= {self.head} {' '.join(map(str, self.body))})"


@dataclass(frozen=True, slots=True)
class Program:
    """A list of rules, in source order (role order is the order of `role` facts)."""

    rules: tuple[Rule, ...] = ()

    def relations(self) -> dict[str, set[int]]:
        """Every relation, in heads and bodies, with the arities it is used with."""
        found: dict[str, set[int]] = {}
        for rule in self.rules:
            found.setdefault(rule.head.relation, set()).add(rule.head.arity)
            for atom, _ in rule.body_atoms():
                found.setdefault(atom.relation, set()).add(atom.arity)
        return found

    def defined(self) -> set[str]:
        """Relations with at least one rule or fact."""
        return {rule.head.relation for rule in self.rules}

    def facts(self, relation: str | None = None) -> list[Atom]:
        """Heads of the body-less rules, optionally of one relation."""
        return [r.head for r in self.rules if r.is_fact and relation in (None, r.head.relation)]

    def rules_for(self, relation: str) -> list[Rule]:
        return [r for r in self.rules if r.head.relation == relation]

    def __str__(self) -> str:
        return "\n".join(map(str, self.rules))


# -------------------------------------------------------------- substituting
def substitute(node, binding: dict[str, Term]):
    """The term, literal or rule with each variable named in `binding` replaced by its value."""
    if isinstance(node, Var):
        return binding.get(node.name, node)
    if isinstance(node, Const):
        return node
    if isinstance(node, Func):
        return Func(node.name, tuple(substitute(a, binding) for a in node.args))
    if isinstance(node, Atom):
        return Atom(node.relation, tuple(substitute(a, binding) for a in node.args), node.span)
    if isinstance(node, Not):
        return Not(substitute(node.literal, binding))
    if isinstance(node, Distinct):
        return Distinct(substitute(node.left, binding), substitute(node.right, binding))
    if isinstance(node, Or):
        return Or(tuple(substitute(lit, binding) for lit in node.literals))
    if isinstance(node, Rule):
        return Rule(substitute(node.head, binding), tuple(substitute(lit, binding) for lit in node.body))
    raise TypeError(f"cannot substitute in {node!r}")


def renamed(node, names: dict[str, str]):
    """The literal or rule with each relation named in `names` under its new name (spans kept)."""
    if isinstance(node, Atom):
        name = names.get(node.relation)
        return node if name is None else Atom(name, node.args, node.span)
    if isinstance(node, Not):
        return Not(renamed(node.literal, names), node.span)
    if isinstance(node, Or):
        return Or(tuple(renamed(lit, names) for lit in node.literals), node.span)
    if isinstance(node, Distinct):
        return node
    if isinstance(node, Rule):
        return Rule(renamed(node.head, names), tuple(renamed(lit, names) for lit in node.body), node.span)
    raise TypeError(f"cannot rename relations in {node!r}")


# -------------------------------------------------------------- normalising
def expand_or(rule: Rule) -> list[Rule]:
    """The rule as several `or`-free rules (disjunctive normal form of its body).

    Used by the translation to ASP and by anything that wants plain Datalog. A
    `not (or a b)` becomes `not a, not b` (De Morgan), so no `or` survives.
    """
    bodies: list[tuple[Literal, ...]] = [()]
    for lit in rule.body:
        options = _alternatives(lit)
        bodies = [b + opt for b in bodies for opt in options]
    return [Rule(rule.head, body, rule.span) for body in bodies]


def _alternatives(lit: Literal) -> list[tuple[Literal, ...]]:
    """The conjunctions whose disjunction `lit` is."""
    if isinstance(lit, Or):
        return [alt for sub in lit.literals for alt in _alternatives(sub)]
    if isinstance(lit, Not):
        inner = lit.literal
        if isinstance(inner, Or):
            result: list[tuple[Literal, ...]] = [()]
            for sub in inner.literals:
                negated = _alternatives(Not(sub, lit.span))
                result = [r + n for r in result for n in negated]
            return result
        if isinstance(inner, Not):
            return _alternatives(inner.literal)
    return [(lit,)]


def _is_int(text: str) -> bool:
    """Canonical decimal integers only: `100`, `-3`, not `007` or `+1`."""
    body = text[1:] if text.startswith("-") else text
    return body.isascii() and body.isdigit() and (body == "0" or not body.startswith("0")) and text != "-0"
