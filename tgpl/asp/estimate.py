"""How large a GDL game can ground, bounded before anything grounds it.

clingo's grounding cannot be interrupted: a 59x59 tic-tac-toe, whose frame rule

    (<= (next (cell ?m ?n b)) (does ?w (mark ?j ?k)) (true (cell ?m ?n b)) (or (distinct ?m ?j) ...))

has 2 * 59^4 = 24 million instances per disjunct, grounds for minutes and
gigabytes with no way to stop it. So every command that grounds a game asks
here first, and refuses a rule whose bound is over the limit, at the rule.

The bound is an abstract interpretation of the game's relaxed grounding (the
one tgpl.asp.declared grounds, and an over-approximation of what the reasoner
and the time-indexed encodings ground in one state): every argument position of
every relation gets a *domain*, a set of ground terms kept as its constants
and, per function symbol, one domain per argument (so `(cell 1 2 x)` and
`(cell 3 4 o)` give `cell` the domains {1, 3}, {2, 4}, {x, o}: the product, an
over-approximation). `true`, `next`, `init` and `base` share one position (the
state), `does`, `legal` and `input` another (the moves). The rules are applied
to the domains until nothing changes: a rule's variable takes the intersection
of the domains of the positive body atoms' positions where it occurs, and its
head adds to its relation's domains. Negative literals and `distinct` are left
out, which can only make the domains larger.

A rule then has at most the product of its variables' domain sizes as ground
instances (summed over the disjuncts `or` expands to): every instance clingo
makes binds each variable to a value of every position it occurs at. For the
rule above that is exactly 2 * 59^4 per disjunct. The analysis takes
milliseconds (it never enumerates a domain), and a game the validator passes
(every term finite, tgpl.asp.finite) always reaches its fixpoint.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from math import prod

from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.lowering.ir import Atom, Const, Func, Program, Rule, Term, Var, expand_or

MAX_GROUND = 10_000_000
"""The default of `--max-ground`: the ground rule instances a game may have (facts aside).

The bundled games and the GDL `tgpl to-gdl` writes for them stay below it by 5x
(Connect Four with `--functions-as-relations`, whose loop relations the bound
over-estimates) to 270x (five in a row) and more (docs/gdl.md, "Ground size");
clingo grounds a few hundred thousand instances a second here, so a game at the
limit grounds in about half a minute, and the 59x59 board's 48 million are refused.
"""

_SAME = {"next": "true", "init": "true", "base": "true", "legal": "does", "input": "does"}
"""The positions that are one: the state and the moves."""

_MAX_FIRINGS = 1000
"""Rule applications per rule before the analysis gives up (no bound: the check is skipped)."""


class Domain:
    """A set of ground terms: constants, and per function symbol/arity one domain per argument."""

    __slots__ = ("consts", "funcs")

    def __init__(self) -> None:
        self.consts: set[str] = set()
        self.funcs: dict[tuple[str, int], list[Domain]] = {}

    def size(self) -> int:
        return len(self.consts) + sum(prod(d.size() for d in args) for args in self.funcs.values())

    def copy(self) -> Domain:
        new = Domain()
        new.consts = set(self.consts)
        new.funcs = {key: [d.copy() for d in args] for key, args in self.funcs.items()}
        return new

    def join(self, other: Domain) -> bool:
        """Add other's terms to self (other must not share nodes with self); whether self grew."""
        grew = not other.consts <= self.consts
        self.consts |= other.consts
        for key, args in other.funcs.items():
            mine = self.funcs.get(key)
            if mine is None:
                self.funcs[key] = [d.copy() for d in args]
                grew = True
            else:
                for d, o in zip(mine, args):
                    grew |= d.join(o)
        return grew

    def meet(self, other: Domain) -> Domain:
        """The terms in both (exact: a function's terms are a product of its arguments' domains)."""
        new = Domain()
        new.consts = self.consts & other.consts
        for key, args in self.funcs.items():
            theirs = other.funcs.get(key)
            if theirs is not None:
                both = [a.meet(b) for a, b in zip(args, theirs)]
                if all(d.consts or d.funcs for d in both):
                    new.funcs[key] = both
        return new

    def add(self, term: Term, binding: dict[str, Domain]) -> bool:
        """Add the instances of term (its variables ranging over binding); whether self grew."""
        if isinstance(term, Const):
            if term.name in self.consts:
                return False
            self.consts.add(term.name)
            return True
        if isinstance(term, Var):
            return self.join(binding[term.name].copy())
        key = (term.name, len(term.args))
        args = self.funcs.get(key)
        grew = args is None
        if args is None:
            args = self.funcs[key] = [Domain() for _ in term.args]
        for d, arg in zip(args, term.args):
            grew |= d.add(arg, binding)
        return grew


@dataclass(frozen=True)
class RuleBound:
    """A rule's bound: at most `instances` ground instances; `variables` the domain size of each variable."""

    rule: Rule
    instances: int
    variables: tuple[tuple[str, int], ...]


class _Positions:
    def __init__(self) -> None:
        self.domains: dict[tuple[str, int], list[Domain]] = {}

    def of(self, relation: str, arity: int) -> list[Domain]:
        key = (_SAME.get(relation, relation), arity)
        found = self.domains.get(key)
        if found is None:
            found = self.domains[key] = [Domain() for _ in range(arity)]
        return found


def _match(term: Term, domain: Domain, seen: dict[str, list[Domain]]) -> bool:
    """Collect the domains each variable of term can take at a position of this domain; False if none can match."""
    if isinstance(term, Var):
        seen.setdefault(term.name, []).append(domain)
        return True
    if isinstance(term, Const):
        return term.name in domain.consts
    args = domain.funcs.get((term.name, len(term.args)))
    return args is not None and all(_match(a, d, seen) for a, d in zip(term.args, args))


def _binding(rule: Rule, positions: _Positions) -> dict[str, Domain] | None:
    """Each variable's domain in this (or-free) rule; None when a positive atom can never hold."""
    seen: dict[str, list[Domain]] = {}
    for lit in rule.body:
        if isinstance(lit, Atom):
            for arg, domain in zip(lit.args, positions.of(lit.relation, lit.arity)):
                if not _match(arg, domain, seen):
                    return None
    binding: dict[str, Domain] = {}
    for name, domains in seen.items():
        first = domains[0]
        for other in domains[1:]:
            if other is not first:
                first = first.meet(other)
        binding[name] = first
    return binding


def rule_bounds(program: Program) -> list[RuleBound] | None:
    """The bound of each rule with a body, in program order; None if the analysis cannot end
    (only for a game the validator refuses: terms growing without bound)."""
    positions = _Positions()
    plain: list[tuple[Rule, list[Rule]]] = []
    readers: dict[tuple[str, int], dict[int, None]] = {}  # the rules reading each relation, in order
    for rule in program.rules:
        if rule.is_fact:  # ground: added once, here
            for domain, arg in zip(positions.of(rule.head.relation, rule.head.arity), rule.head.args):
                domain.add(arg, {})
            continue
        k = len(plain)
        plain.append((rule, expand_or(rule)))
        for atom, positive in rule.body_atoms():
            if positive:
                readers.setdefault((_SAME.get(atom.relation, atom.relation), atom.arity), {})[k] = None
    todo = deque(range(len(plain)))
    queued = set(todo)
    firings = [0] * len(plain)
    while todo:
        k = todo.popleft()
        queued.discard(k)
        firings[k] += 1
        if firings[k] > _MAX_FIRINGS:
            return None
        rule, disjuncts = plain[k]
        head = rule.head
        grew = False
        for each in disjuncts:
            binding = _binding(each, positions)
            if binding is None or any(not (d.consts or d.funcs) for d in binding.values()):
                continue
            for domain, arg in zip(positions.of(head.relation, head.arity), head.args):
                grew |= domain.add(arg, binding)
        if grew:
            for reader in readers.get((_SAME.get(head.relation, head.relation), head.arity), ()):
                if reader not in queued:
                    queued.add(reader)
                    todo.append(reader)
    exact = _exact_relations(program)
    bounds = []
    for rule, disjuncts in plain:
        instances = 0
        sizes: dict[str, int] = {}
        for each in disjuncts:
            binding = _binding(each, positions)
            if binding is None:
                continue
            these = {name: d.size() for name, d in binding.items()}
            instances += _join_bound(each, these, exact)
            for name, n in these.items():
                sizes[name] = max(sizes.get(name, 0), n)
        bounds.append(RuleBound(rule, instances, tuple(sizes.items())))
    return bounds


def _exact_relations(program: Program) -> dict[tuple[str, int], list[tuple[Term, ...]]]:
    """The tuples of each relation given by facts only (`succ`, `index`, `role`): known exactly."""
    derived = {(r.head.relation, r.head.arity) for r in program.rules if not r.is_fact}
    exact: dict[tuple[str, int], list[tuple[Term, ...]]] = {}
    for rule in program.rules:
        key = (rule.head.relation, rule.head.arity)
        if rule.is_fact and key not in derived and rule.head.relation not in _SAME \
                and rule.head.relation not in ("true", "does"):
            exact.setdefault(key, []).append(rule.head.args)
    for key in exact:
        exact[key] = list(dict.fromkeys(exact[key]))  # a fact written twice is one atom
    return exact


def _join_bound(rule: Rule, sizes: dict[str, int], exact: dict) -> int:
    """An upper bound of the rule's ground instances: its positive atoms joined in a greedy order.

    Each atom multiplies the bound by how many ways it can extend the variables bound so far: at most
    the product of the domain sizes of its new variables, and for a relation known exactly (facts
    only), at most the largest number of its tuples that agree on the bound variables (for `succ`
    with its first argument bound: 1). Each factor bounds the extensions of every partial instance,
    so the product bounds the instances, whatever the order; the greedy order keeps it small.
    """
    atoms = [lit for lit in rule.body if isinstance(lit, Atom)]
    bound: set[str] = set()
    total = 1
    degrees: dict[tuple[Atom, frozenset[str]], int] = {}
    while atoms:
        best = None
        for i, atom in enumerate(atoms):
            names = {v.name for v in atom.variables()}
            factor = prod(sizes.get(n, 1) for n in names - bound)
            tuples = exact.get((atom.relation, atom.arity))
            if tuples is not None and factor > 1:
                key = (atom, frozenset(names & bound))
                if key not in degrees:
                    degrees[key] = _degree(atom, key[1], tuples)
                factor = min(factor, degrees[key])
            if best is None or factor < best[0]:
                best = (factor, i)
        factor, i = best
        total *= factor
        if total == 0:
            return 0
        bound |= {v.name for v in atoms.pop(i).variables()}
    return total


def _degree(atom: Atom, bound: frozenset[str], tuples: list[tuple[Term, ...]]) -> int:
    """The most tuples matching the atom that agree on the variables in `bound`."""
    counts: dict[tuple, int] = {}
    order = sorted(bound)
    for values in tuples:
        binding: dict[str, Term] = {}
        if all(_unify(a, v, binding) for a, v in zip(atom.args, values)):
            key = tuple(binding[n] for n in order)
            counts[key] = counts.get(key, 0) + 1
    return max(counts.values(), default=0)


def _unify(pattern: Term, value: Term, binding: dict[str, Term]) -> bool:
    if isinstance(pattern, Var):
        known = binding.setdefault(pattern.name, value)
        return known == value
    if isinstance(pattern, Const):
        return isinstance(value, Const) and value.name == pattern.name
    return (isinstance(value, Func) and value.name == pattern.name and len(value.args) == len(pattern.args)
            and all(_unify(p, v, binding) for p, v in zip(pattern.args, value.args)))


def too_large(program: Program, limit: int, path: str = "<gdl>", per_state: bool = False,
              remedy: str | None = None) -> list[Diagnostic]:
    """An error when the game's rules can have more than `limit` ground instances in all, at the rule
    that can have the most (notes name the next ones); nothing when within it.

    With `per_state`, a warning instead: the game is not refused but played one state at a time
    (tgpl.asp.per_state), each state's grounding bounded on its own. `remedy`: the last note, what to
    do instead (default: a larger --max-ground).
    """
    bounds = rule_bounds(program)
    if bounds is None:
        return []
    total = sum(b.instances for b in bounds)
    if total <= limit:
        return []
    top, *rest = sorted(bounds, key=lambda b: -b.instances)
    ranges = ", ".join(f"?{name} over {n:,}" for name, n in top.variables[:8])
    ranges = f" (its variables range {ranges}{', ...' if len(top.variables) > 8 else ''} values)" if ranges else ""
    rule = "this rule" if top.rule.span is not None else "the rule in the note below"  # a generated rule has no source
    if top.instances > limit:
        message = (f"{rule} can have {top.instances:,} ground instances{ranges}, more than the {limit:,} "
                   "a game may have (--max-ground)")
    else:
        message = (f"the game's rules can have {total:,} ground instances, more than the {limit:,} a game may "
                   f"have (--max-ground); {rule} has the most, {top.instances:,}{ranges}")
    if per_state:
        message += (": too many to ground for every state at once, so it is grounded one state at a time "
                    "(each state's grounding bounded by the same limit)")
    else:
        message += ": clingo's grounding cannot be interrupted, so the game is refused before it starts"
    notes = []
    if top.rule.span is None:
        text = str(top.rule)
        notes.append(f"the rule: {text if len(text) <= 200 else text[:200] + ' ...'}")
    for b in rest[:2]:
        if b.instances * 10 >= total and b.rule.span is not None:
            notes.append(f"{b.instances:,} more from the rule at {b.rule.span}")
    if remedy is None:
        remedy = "a larger --max-ground grounds it whole" if per_state else "a larger --max-ground grounds it anyway"
    notes.append(remedy)
    severity = Severity.WARNING if per_state else Severity.ERROR
    return [Diagnostic(severity, _where(top.rule, path), message, tuple(notes))]


def _where(rule: Rule, path: str) -> Span:
    return rule.span or rule.head.span or Span(path, 1, 1, 1, 1)


__all__ = ["MAX_GROUND", "RuleBound", "rule_bounds", "too_large"]
