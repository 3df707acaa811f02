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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Iterable
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

    def key(self) -> tuple:
        """The terms as a hashable value, equal for equal domains."""
        return (frozenset(self.consts),
                frozenset((key, tuple(d.key() for d in args)) for key, args in self.funcs.items()))

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


class Degrees:
    """What `rule_bounds` learns of the relations known by their facts (`succ`, a folded game's tables), kept
    between the bounds of programs that share those facts: the reasoner bounds every state's query of a game it
    plays one state at a time (tgpl.asp.per_state), the same rules and static tables with other `true` facts,
    and `_degree` scanned each table for each rule reading it, in every state: 0.87 of Reversi 6x6's time a step
    with its searches folded into tables.

    A relation's degrees are kept with the tuples they were counted over, and counted again when a program gives
    the relation other tuples (the state's fluents, from one query to the next): its tuples are compared, which
    for a table read from the same facts is a comparison of the same objects."""

    def __init__(self) -> None:
        self._tables: dict[tuple[str, int], tuple[list[tuple[Term, ...]], dict]] = {}

    def of(self, key: tuple[str, int], tuples: list[tuple[Term, ...]]) -> dict[tuple, tuple[Atom, int] | int]:
        """The degrees known of the relation `key` whose tuples are `tuples` (filled in by `_factor`): by an
        atom's id and its bound variables, and by the atom's `_shape`."""
        kept = self._tables.get(key)
        if kept is None or (kept[0] is not tuples and kept[0] != tuples):
            kept = self._tables[key] = (tuples, {})
        return kept[1]


def rule_bounds(program: Program, degrees: Degrees | None = None,
                check: Callable[[], None] = lambda: None,
                which: Callable[[Rule], bool] | None = None) -> list[RuleBound] | None:
    """The bound of each rule with a body, in program order; None if the analysis cannot end
    (only for a game the validator refuses: terms growing without bound). `degrees`: what is known of the
    program's tables from bounds of programs with the same tables (kept there for the next). `check` is called
    before each rule's bound (a command's limits: a rule's join can take a tenth of a second). `which`: the
    rules with a body to bound (default every one), the others left out of the list: the domains still settle
    over the whole program, so each bound is the one the whole list gives, and a caller that compares a few
    rules does not pay for the joins of the rest (tgpl.lowering.unfold compares the rules it unfolds: half its
    bounds' time went to the others, a compiled walk's rule of forty atoms up to half a second)."""
    positions = _Positions()
    _add_facts(program.rules, positions)
    plain, readers = _with_bodies(program.rules)
    if not _settle(plain, readers, positions):
        return None
    exact = _exact_relations(program.rules, {(r.head.relation, r.head.arity) for r, _ in plain})
    degrees = degrees if degrees is not None else Degrees()
    bounds = []
    for rule, disjuncts in plain:
        if which is not None and not which(rule):
            continue
        check()
        bounds.append(_bound(rule, disjuncts, positions, exact, degrees))
    return bounds


def position_sizes(program: Program) -> dict[tuple[str, int], list[int]] | None:
    """The size of each argument position's domain once the analysis has settled, by (relation, arity) (the
    state's and the moves' positions under `true` and `does`); None if the analysis cannot end."""
    positions = _Positions()
    _add_facts(program.rules, positions)
    plain, readers = _with_bodies(program.rules)
    if not _settle(plain, readers, positions):
        return None
    return {key: [d.size() for d in domains] for key, domains in positions.domains.items()}


class QueryBounds:
    """The bound of one program's rules with facts added that differ from one call to the next (a state's
    fluents, a joint move): `total(facts)` is `rule_bounds` of the rules and the facts summed, what does not
    depend on the facts worked out once.

    Why: the reasoner bounds every state's query of a game it plays one state at a time (tgpl.asp.per_state),
    and redoing the whole analysis took Reversi 6x6's reasoner 3.6 times as long as grounding the states. The
    positions the added facts reach (`varying`, the relations they may have, and every position a rule reading
    one of those writes, with `_SAME`'s shared positions) are *varying*; the others, and the rules that write
    them, are worked out here: their domains, their rules' bounds, the tables' degrees (`Degrees`). A call
    starts from copies of the varying positions' domains as the fixed facts left them, adds its facts, settles
    the rules writing varying positions and bounds those, reading the fixed positions' domains as they are (no
    such rule writes one). The domains reached are the same least fixpoint whatever the order rules are applied
    in, so the total is `rule_bounds`'s."""

    def __init__(self, rules: tuple[Rule, ...], varying: Iterable[str]):
        plain, readers = _with_bodies(rules)
        moving = {_SAME.get(name, name) for name in varying}
        grew = True
        while grew:  # the positions the varying facts reach
            grew = False
            for rule, _ in plain:
                head = _SAME.get(rule.head.relation, rule.head.relation)
                if head not in moving and any(_SAME.get(a.relation, a.relation) in moving
                                              for a, positive in rule.body_atoms() if positive):
                    moving.add(head)
                    grew = True
        self._moving = moving
        positions = _Positions()
        _add_facts(rules, positions)
        fixed = [k for k, (rule, _) in enumerate(plain) if _SAME.get(rule.head.relation, rule.head.relation)
                 not in moving]
        settled = set(fixed)
        self._derived = {(r.head.relation, r.head.arity) for r, _ in plain}
        self._exact = _exact_relations(rules, self._derived)
        self._degrees = Degrees()
        self._ends = _settle(plain, readers, positions, fixed)
        self._fixed_total = 0
        if self._ends:
            self._fixed_total = sum(_bound(*plain[k], positions, self._exact, self._degrees).instances
                                    for k in fixed)
        self._positions = positions
        self._plain = [plain[k] for k in range(len(plain)) if k not in settled]
        _, self._readers = _with_bodies(tuple(rule for rule, _ in self._plain))
        varying = set(varying)
        self._reads_varying = [any(a.relation in varying and _is_table((a.relation, a.arity), self._derived)
                                   for a, positive in rule.body_atoms() if positive) for rule, _ in self._plain]
        # the varying positions' domains a call started from -> what they settled into (`_settled`)
        self._known: dict[frozenset, tuple[int, list[tuple[Rule, dict[str, int], tuple]]] | None] = {}
        self._atoms = {id(each): _join_atoms(each) for (_, disjuncts), reads in zip(self._plain, self._reads_varying)
                       if reads for each in disjuncts}  # the disjuncts live as long as self._plain

    def total(self, facts: Iterable[Rule]) -> int | None:
        """The most ground instances the rules can have with these ground facts added (whose relations are
        among the `varying` given); None when the analysis cannot end."""
        if not self._ends:
            return None
        positions = _Positions()
        for key, domains in self._positions.domains.items():  # the fixed positions shared, never written
            positions.domains[key] = [d.copy() for d in domains] if key[0] in self._moving else domains
        facts = list(facts)
        _add_facts(facts, positions)
        added: dict[tuple[str, int], list[tuple[Term, ...]]] = {}
        for rule in facts:
            added.setdefault((rule.head.relation, rule.head.arity), []).append(rule.head.args)
        exact = self._exact
        if any(_is_table(key, self._derived) for key in added):
            exact = dict(exact)
            for key, tuples in added.items():
                if _is_table(key, self._derived):
                    exact[key] = list(dict.fromkeys(exact.get(key, []) + tuples))
        start = frozenset((key, tuple(d.key() for d in domains)) for key, domains in positions.domains.items()
                          if key[0] in self._moving)
        known = self._known.get(start, _UNKNOWN)
        if known is _UNKNOWN:
            known = self._settled(positions, exact)
            if len(self._known) >= MAX_KNOWN:
                self._known.clear()
            self._known[start] = known
        if known is None:
            return None
        plain_total, tabled = known
        return plain_total + sum(_join_bound(each, sizes, exact, self._degrees, atoms) for each, sizes, atoms in tabled)

    def _settled(self, positions: _Positions, exact: dict) -> tuple[int, list[tuple[Rule, dict[str, int], tuple]]] | None:
        """What the domains the varying facts start from give: the total of the fixed rules and of the varying
        rules that read no varying table, and each disjunct of the others with its variables' domain sizes (its
        bound also counts the table's tuples, which the domains do not show); None: the analysis cannot end."""
        if not _settle(self._plain, self._readers, positions):
            return None
        total = self._fixed_total
        tabled: list[tuple[Rule, dict[str, int], tuple]] = []
        for (rule, disjuncts), reads in zip(self._plain, self._reads_varying):
            if not reads:
                total += _bound(rule, disjuncts, positions, exact, self._degrees).instances
                continue
            for each in disjuncts:
                binding = _binding(each, positions)
                if binding is not None:
                    tabled.append((each, {name: d.size() for name, d in binding.items()}, self._atoms[id(each)]))
        return total, tabled


MAX_KNOWN = 512
"""The starts `QueryBounds` keeps the settled figures of, forgotten all at once past it: Reversi 6x6's random
playouts meet about 70, each kept in under 60 KiB (its 43 disjuncts that read the state, with their variables'
domain sizes), so at most about 30 MB."""
_UNKNOWN = object()


def _add_facts(rules: Iterable[Rule], positions: _Positions) -> None:
    """The facts among `rules` (ground) added to their positions' domains."""
    for rule in rules:
        if rule.is_fact:
            for domain, arg in zip(positions.of(rule.head.relation, rule.head.arity), rule.head.args):
                domain.add(arg, {})


def _with_bodies(rules: Iterable[Rule]) -> tuple[list[tuple[Rule, list[Rule]]], dict[tuple[str, int], dict[int, None]]]:
    """The rules with a body, each with its or-free disjuncts, and the rules reading each position, in order."""
    plain: list[tuple[Rule, list[Rule]]] = []
    readers: dict[tuple[str, int], dict[int, None]] = {}
    for rule in rules:
        if rule.is_fact:
            continue
        k = len(plain)
        plain.append((rule, expand_or(rule)))
        for atom, positive in rule.body_atoms():
            if positive:
                readers.setdefault((_SAME.get(atom.relation, atom.relation), atom.arity), {})[k] = None
    return plain, readers


def _settle(plain: list[tuple[Rule, list[Rule]]], readers: dict[tuple[str, int], dict[int, None]],
            positions: _Positions, which: Iterable[int] | None = None) -> bool:
    """Apply the rules (those at the indices `which`, and those reading what they add to; default all) to the
    domains until nothing changes; False when a rule fires more than _MAX_FIRINGS times (cannot end)."""
    todo = deque(range(len(plain)) if which is None else which)
    queued = set(todo)
    firings = [0] * len(plain)
    while todo:
        k = todo.popleft()
        queued.discard(k)
        firings[k] += 1
        if firings[k] > _MAX_FIRINGS:
            return False
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
    return True


def _bound(rule: Rule, disjuncts: list[Rule], positions: _Positions, exact: dict, degrees: Degrees) -> RuleBound:
    """The rule's bound once the domains have settled."""
    instances = 0
    sizes: dict[str, int] = {}
    for each in disjuncts:
        binding = _binding(each, positions)
        if binding is None:
            continue
        these = {name: d.size() for name, d in binding.items()}
        instances += _join_bound(each, these, exact, degrees)
        for name, n in these.items():
            sizes[name] = max(sizes.get(name, 0), n)
    return RuleBound(rule, instances, tuple(sizes.items()))


def _is_table(key: tuple[str, int], derived: set[tuple[str, int]]) -> bool:
    """Whether a relation given facts is known exactly by them: no rule derives it, and it is no state or move."""
    return key not in derived and key[0] not in _SAME and key[0] not in ("true", "does")


def _exact_relations(rules: Iterable[Rule], derived: set[tuple[str, int]]) -> dict[tuple[str, int], list[tuple[Term, ...]]]:
    """The tuples of each relation given by facts only (`succ`, `index`, `role`): known exactly. `derived`: the
    relations some rule with a body defines."""
    exact: dict[tuple[str, int], list[tuple[Term, ...]]] = {}
    for rule in rules:
        key = (rule.head.relation, rule.head.arity)
        if rule.is_fact and _is_table(key, derived):
            exact.setdefault(key, []).append(rule.head.args)
    for key in exact:
        exact[key] = list(dict.fromkeys(exact[key]))  # a fact written twice is one atom
    return exact


def _join_bound(rule: Rule, sizes: dict[str, int], exact: dict, degrees: Degrees,
                atoms: tuple[tuple[Atom, frozenset[str], tuple[str, int]], ...] | None = None) -> int:
    """An upper bound of the rule's ground instances: its positive atoms joined in a greedy order.

    Each atom multiplies the bound by how many ways it can extend the variables bound so far: at most
    the product of the domain sizes of its new variables, and for a relation known exactly (facts
    only), at most the largest number of its tuples that agree on the bound variables (for `succ`
    with its first argument bound: 1). Each factor bounds the extensions of every partial instance,
    so the product bounds the instances, whatever the order; the least of the greedy orders started
    from each atom is kept (greedy from nothing bound is one of them). Why: greedy from nothing bound read
    a small table first (a seat's player, 2 tuples), then joined `times`/`plus` on their own, and the loop
    relation that binds all their variables last (lowered Reversi's flipping loops: two orders of magnitude
    over joining the loop's atom first). `atoms`: the rule's `_join_atoms`, when the caller keeps them.
    """
    join = _Join(tuple(atoms if atoms is not None else _join_atoms(rule)), sizes, exact, degrees)
    n = len(join.atoms)
    every = (1 << n) - 1
    if n <= 1:
        return join.greedy(every, 0, 1)
    alone = [join.factor(j, 0) for j in range(n)]
    best = None
    for i in range(n):
        first = alone[i]
        if best is not None and first >= best:
            continue  # every factor is at least 1 once nonzero: this start cannot do better
        total = join.greedy(every & ~(1 << i), join.masks[i], first, best)
        if best is None or total < best:
            best = total
        if best == 0:
            break
    return best


class _Join:
    """One rule's atoms joined greedily from each start (`_join_bound`), what the starts share worked out once.

    Each atom's variables are a bit mask. The variables bound once some atoms are joined are those atoms'
    variables, whatever the order they were joined in, so the greedy order from there, and the product of its
    factors (`rests`), depend only on the atoms left: the greedy orders from different starts meet once they
    have joined the same atoms, and an atom's factor depends only on which of its own variables are bound
    (`factors`). A compiled walk's rule of forty atoms was joined from each of its atoms in full, each step
    asking `_factor` again (a million calls for the unfolding's bounds of Fanorona 5x5 with counted passes)."""

    def __init__(self, atoms: tuple[tuple[Atom, frozenset[str], tuple[str, int]], ...], sizes: dict[str, int],
                 exact: dict, degrees: Degrees) -> None:
        self.atoms = atoms
        bits: dict[str, int] = {}
        for _, names, _ in atoms:
            for name in sorted(names):
                bits.setdefault(name, len(bits))
        self.names = list(bits)
        self.masks = [sum(1 << bits[name] for name in names) for _, names, _ in atoms]
        self.sizes, self.exact, self.degrees = sizes, exact, degrees
        self.factors: dict[tuple[int, int], int] = {}  # (atom, its variables bound) -> its factor
        self.rests: dict[int, int] = {}  # the atoms left -> the product of their greedy factors (never 0)

    def factor(self, j: int, bound: int) -> int:
        """`_factor` of atom j after the variables `bound` (a mask)."""
        key = (j, bound & self.masks[j])
        found = self.factors.get(key)
        if found is None:
            names = frozenset(self.names[b] for b in range(len(self.names)) if key[1] >> b & 1)
            found = self.factors[key] = _factor(self.atoms[j], names, self.sizes, self.exact, self.degrees)
        return found

    def greedy(self, left: int, bound: int, total: int = 1, cap: int | None = None) -> int:
        """`total` times the factors of the atoms `left` (a mask) joined greedily (the smallest factor first, the
        first atom of the least) after the variables `bound` (those of the atoms not left); stops early once
        past `cap` (an order already found does better), with a total past it."""
        path: list[tuple[int, int]] = []  # (the atoms left, the factor of the one joined next)
        order = [j for j in range(len(self.atoms)) if left >> j & 1]
        factors = [self.factor(j, bound) for j in order]
        rest = 1
        while order:
            known = self.rests.get(left)
            if known is not None:
                rest = known
                total *= known
                break
            if total == 0 or cap is not None and total >= cap:
                return total
            k = min(range(len(factors)), key=factors.__getitem__)
            least = factors.pop(k)
            pick = order.pop(k)
            path.append((left, least))
            total *= least
            left &= ~(1 << pick)
            new = self.masks[pick] & ~bound
            if new:  # only the atoms reading a variable just bound have another factor
                bound |= new
                for i, j in enumerate(order):
                    if self.masks[j] & new:
                        factors[i] = self.factor(j, bound)
        for left, f in reversed(path):  # a rest with a factor 0 is not kept: a total past `cap` stops before it
            rest *= f
            if rest == 0:
                break
            self.rests[left] = rest
        return total


def _factor(entry: tuple[Atom, frozenset[str], tuple[str, int]], bound: frozenset[str], sizes: dict[str, int],
            exact: dict, degrees: Degrees) -> int:
    """How many ways the atom can extend an instance of the variables `bound`."""
    atom, names, relation = entry
    factor = prod(sizes.get(n, 1) for n in names - bound)
    tuples = exact.get(relation)
    if tuples is not None and factor > 1:
        known = degrees.of(relation, tuples)
        key = (id(atom), names & bound)
        found = known.get(key)
        if found is None or found[0] is not atom:  # an id is an atom's while the atom lives
            shape = _shape(atom, key[1])
            degree = known.get(shape)
            if degree is None:
                degree = known[shape] = _degree(atom, key[1], tuples)
            found = known[key] = (atom, degree)
        factor = min(factor, found[1])
    return factor


def _join_atoms(rule: Rule) -> tuple[tuple[Atom, frozenset[str], tuple[str, int]], ...]:
    """The rule's positive atoms, each with its variables' names and its relation: what `_join_bound` reads."""
    return tuple((lit, frozenset(v.name for v in lit.variables()), (lit.relation, lit.arity))
                 for lit in rule.body if isinstance(lit, Atom))


def _shape(atom: Atom, bound: frozenset[str]) -> tuple:
    """The atom's arguments up to its variables' names, each variable its first occurrence's number and whether
    it is bound: what `_degree` depends on besides the tuples. Compiled games repeat an atom under other names
    in rule after rule (`(plus ?x7 -1 ?x8)`, its first variable bound: pente 9x9's `_degree` scanned `plus`
    8,630 times for one bound of its rules), and one scan serves every atom of a shape."""
    numbers: dict[str, int] = {}

    def walk(term: Term) -> tuple:
        kind = type(term)
        if kind is Var:
            return (0, numbers.setdefault(term.name, len(numbers)), term.name in bound)
        if kind is Const:
            return (1, term.name)
        return (2, term.name, tuple(walk(a) for a in term.args))
    return ("shape", tuple(walk(a) for a in atom.args))


def _degree(atom: Atom, bound: frozenset[str], tuples: list[tuple[Term, ...]]) -> int:
    """The most tuples matching the atom that agree on the variables in `bound`."""
    counts: dict[tuple, int] = {}
    order = sorted(bound)
    patterns = atom.args
    for values in tuples:
        binding: dict[str, Term] = {}
        if len(values) == len(patterns) and _unify_all(patterns, values, binding):
            key = tuple(binding[n] for n in order)
            counts[key] = counts.get(key, 0) + 1
    return max(counts.values(), default=0)


def _unify_all(patterns: tuple[Term, ...], values: tuple[Term, ...], binding: dict[str, Term]) -> bool:
    """Whether the ground values match the patterns, extending `binding`. Written out, type by type: a state's
    `true` tuples are matched again in every state's bound (QueryBounds), a fifth of Reversi 6x6's."""
    for pattern, value in zip(patterns, values):
        kind = type(pattern)
        if kind is Var:
            known = binding.get(pattern.name)
            if known is None:
                binding[pattern.name] = value
            elif known is not value and known != value:
                return False
        elif kind is Const:
            if type(value) is not Const or value.name != pattern.name:
                return False
        elif (type(value) is not Func or value.name != pattern.name or len(value.args) != len(pattern.args)
              or not _unify_all(pattern.args, value.args, binding)):
            return False
    return True


def too_large(program: Program, limit: int, path: str = "<gdl>", per_state: bool = False,
              remedy: str | None = None, check: Callable[[], None] = lambda: None) -> list[Diagnostic]:
    """An error when the game's rules can have more than `limit` ground instances in all, at the rule
    that can have the most (notes name the next ones); nothing when within it.

    With `per_state`, a warning instead: the game is not refused but played one state at a time
    (tgpl.asp.per_state), each state's grounding bounded on its own. `remedy`: the last note, what to
    do instead (default: a larger --max-ground). `check`: a command's limits, checked at each rule's bound.
    """
    bounds = rule_bounds(program, check=check)
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


__all__ = ["MAX_GROUND", "Degrees", "QueryBounds", "RuleBound", "position_sizes", "rule_bounds", "too_large"]
