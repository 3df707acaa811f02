"""A compiled move's views held for the objects it changed only (`sparse_views`).

A compiled move's effect takes its writes of an attribute into a chain of views (tgpl.lowering.compiled,
`SegmentCompiler.collapse`): each view is the values written at that point, and the view before it (or
the state) copied for every object none of them changed:

    (<= (piece_view_2 ?o ?v) (piece_view ?o ?v) (not (piece_changed_2 ?o)))

Chess's `Go` makes nine views of a piece's kind and nine of its side, and each copies the 64 squares:
1,400 of the 3,900 atoms a state grounds, a fifth of its grounding, for a move that changes two to four
squares. Here each view keeps only the objects changed so far in its chain, and a read of it says "the
value in the view, or the state's where the chain has not touched the object":

    V(o, x)      ==  S(o, x)  or  (B(o, x) and not T(o))
    not V(o, x)  ==  (T(o) and not S(o, x))  or  (not T(o) and not B(o, x))

where B is the chain's first relation (the state, `(true (piece ?o ?v))`, or a view left whole), S the
view's writes and the previous S copied where the view changed nothing, T the objects its chain changed
(its `changed` relation and the previous T). S keeps the view's name. The equivalence needs every write
of an object to come with its `changed` (true of `_written`'s rules, and checked here: a view whose
writes are not each covered by a `changed` rule with a part of their body is left whole). By induction
along the chain: S_k = W_k or (S_k-1 and not C_k), T_k = C_k or T_k-1, and V_k = W_k or (V_k-1 and not
C_k); with W_k implying C_k, S_k is V_k and T_k, and where T_k is false V_k is B.

A rule that reads n views becomes 2^n rules; a view is left whole where that would pass MOST_SPLITS reads
in one rule. Chess: 3,939 atoms a state become 2,573 and its grounding 5.2-5.8 ms a state 3.7-4.2, its
rules 504 with a body 842.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tgpl.lowering.ir import Atom, Func, Literal, Not, Or, Program, Rule, Term, Var, fresh_name, substitute

MOST_SPLITS = 3
"""The most reads of sparse views one rule may have (it becomes 2^n rules)."""


@dataclass(frozen=True)
class _Chain:
    """A view made sparse: its copy rule's variables, its first relation's atom over them, its `changed`
    relation, the view before it if that one is sparse too, and the name of its touched objects."""

    obj: Var
    val: Var
    base: Atom
    changed: str
    before: str | None
    touched: str


def sparse_views(program: Program) -> Program:
    """The program with its view chains sparse (module docstring); the same program where it has none."""
    by_head: dict[str, list[Rule]] = {}
    for r in program.rules:
        by_head.setdefault(r.head.relation, []).append(r)
    candidates = {name: found for name, rules in by_head.items() if (found := _view(rules, by_head)) is not None}
    if not candidates:
        return program
    readers = [r for r in program.rules if any(a.relation in candidates for a, _ in r.body_atoms())]
    if any(_in_or(r, candidates) for r in readers):
        candidates = {n: c for n, c in candidates.items() if not any(_in_or(r, {n}) for r in readers)}
    names = _names(program)
    chains: dict[str, _Chain] = {}
    for name in _chain_order(candidates):
        copy, base, changed = candidates[name]
        if any(sum(a.relation in chains or a.relation == name for a, _ in r.body_atoms()) > MOST_SPLITS
               for r in readers):
            continue  # left whole: a later view's chain starts from it
        before = base.relation if base.relation in chains else None
        if before is not None:
            base = substitute(chains[before].base, {chains[before].obj.name: copy.head.args[0],
                                                    chains[before].val.name: copy.head.args[1]})
        obj, val = copy.head.args
        chains[name] = _Chain(obj, val, base, changed, before, fresh_name(f"{name}_touched", names))
    if not chains:
        return program
    out: list[Rule] = []
    for r in program.rules:
        chain = chains.get(r.head.relation)
        if chain is None or r is not candidates[r.head.relation][0]:
            out += _spelled(r, chains)  # a write of a sparse view stays under its name, now S
            continue
        # in the copy rule's place: S's copy and T, which read the sparse relations as they are
        o, x = chain.obj, chain.val
        out.append(Rule(Atom(chain.touched, (o,)), (Atom(chain.changed, (o,)),)))
        if chain.before is not None:
            out.append(Rule(Atom(chain.touched, (o,)), (Atom(chains[chain.before].touched, (o,)),)))
            copy = (Atom(chain.before, (o, x)), Not(Atom(chain.changed, (o,))))
            out.append(Rule(Atom(r.head.relation, (o, x)), copy))
    return Program(tuple(dict.fromkeys(out)))


def _spelled(r: Rule, chains: dict[str, _Chain]) -> list[Rule]:
    """The rule with each read of a sparse view spelled as the module docstring says: one rule per way."""
    return [Rule(r.head, tuple(x for part in body for x in part))
            for body in itertools.product(*(_alternatives(x, chains) for x in r.body))]


def _view(rules: list[Rule], by_head: dict[str, list[Rule]]) -> tuple[Rule, Atom, str] | None:
    """(copy rule, first relation's atom, changed relation) when `rules` define a view: one copy rule
    `V(O,X) :- P(O,X), not C(O)` (P a relation or `true(f(O,X))`), every other rule a write of an object
    whose `changed` rule's body is part of the write's."""
    copies = [(r, found) for r in rules if (found := _copy(r)) is not None]
    if len(copies) != 1:
        return None
    copy, (base, changed) = copies[0]
    changes = by_head.get(changed, [])
    for w in rules:
        if w is copy:
            continue
        if w.head.arity != 2:
            return None
        body = set(w.body)
        if not any(c.head.args == (w.head.args[0],) and set(c.body) <= body for c in changes):
            return None
    return copy, base, changed


def _copy(r: Rule) -> tuple[Atom, str] | None:
    head = r.head
    if head.arity != 2 or len(r.body) != 2 or not all(isinstance(a, Var) for a in head.args):
        return None
    o, x = head.args
    if o == x:
        return None
    p, n = r.body
    if not (isinstance(p, Atom) and isinstance(n, Not) and isinstance(n.literal, Atom)):
        return None
    if n.literal.args != (o,) or n.literal.relation == head.relation:
        return None
    if p.args == (o, x) or (p.relation == "true" and p.arity == 1 and isinstance(p.args[0], Func)
                            and p.args[0].args == (o, x)):
        return p, n.literal.relation
    return None


def _chain_order(candidates: dict[str, tuple[Rule, Atom, str]]) -> list[str]:
    """The views, each after the one its copy reads (a chain from its first relation on)."""
    out: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        base = candidates[name][1].relation
        if base in candidates:
            visit(base)
        out.append(name)

    for name in sorted(candidates):
        visit(name)
    return out


def _alternatives(x: Literal, chains: dict[str, _Chain]) -> list[tuple[Literal, ...]]:
    """The ways a body literal holds, a read of a sparse view spelled as the module docstring says."""
    atom = x.literal if isinstance(x, Not) else x
    if not isinstance(atom, Atom) or atom.relation not in chains:
        return [(x,)]
    chain = chains[atom.relation]
    o, v = atom.args
    base = substitute(chain.base, {chain.obj.name: o, chain.val.name: v})
    touched = Atom(chain.touched, (o,))
    if isinstance(x, Not):
        return [(touched, Not(atom)), (Not(touched), Not(base))]
    return [(atom,), (base, Not(touched))]


def _in_or(r: Rule, views) -> bool:
    return any(isinstance(x, Or) and any(a.relation in views for a, _ in x.atoms()) for x in r.body)


def _names(program: Program) -> set[str]:
    """Every relation and function name of the program (GDL gives a name one arity)."""
    names = set(program.relations())

    def terms(t: Term) -> None:
        if isinstance(t, Func):
            names.add(t.name)
            for a in t.args:
                terms(a)

    for r in program.rules:
        for atom, _ in [(r.head, True), *r.body_atoms()]:
            for a in atom.args:
                terms(a)
    return names
