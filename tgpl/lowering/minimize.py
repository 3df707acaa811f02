"""Disjunctions of path conditions made small: the prime implicants of a DNF, by iterated consensus.

The executor enumerates the ways through the code exactly, so the condition under
which a function returns a value, or under which paths meet again, is a
disjunction of many long conjunctions. Connect Four's `Run` counts a line cell by
cell, and the condition of "four in a row" comes out as one term per exact pair of
run lengths, each closed by a negated literal (`(not (same c5 c6))`: the run
stops there). GGP agents ground and build propnets from every term, so the
terms are reduced as a logician would: the consensus of `A & x` and `B & !x` is
`A & B`; a term that contains another is absorbed. Iterated to a fixpoint, this
gives the Blake canonical form (all prime implicants), which for a monotone
condition like "some window of four holds the player's discs" is the windows
themselves, without negations.

The literals are treated as independent propositions, so the result is
equivalent to the input in every state (the rules it is written as are too);
nothing is assumed of what the literals mean. The work is bounded: a
disjunction too large to minimize within the budget is returned as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tgpl.lowering.symbolic import FALSE, Conjuncts, Formula, MoveLit, by_id, clash, conj, conjuncts, disj, disjuncts, neg

MAX_TERMS = 2000  # terms of a multiplied-out condition, beyond which it is left as it is
MAX_CONSENSUS = 60  # terms beyond which only adjacent terms are merged (no consensus of any two)
MAX_STEPS = 60_000  # pairs of terms examined for their consensus
MAX_TESTS = 500_000
"""Terms the consensus compares with a candidate (is it covered? `_Family.covers`) before it gives up: a pair of
terms costs a look at every term filed under the candidate's conjuncts, so MAX_STEPS pairs alone bound the work
by pairs times terms (up to MAX_TERMS). Kalah's paths, where many terms share their last conjunct, spent 1 to 3 s
a call on up to 57,000,000 of them before MAX_TERMS gave up, hundreds of times in one emission."""
CHECK_EVERY = 2048  # pairs of terms examined between two calls of `check` (the command's limits)


def _term(f: Formula) -> frozenset:
    return frozenset(conjuncts(f))


def _atom(c: Formula) -> tuple[Formula, bool]:
    """A conjunct as (proposition, positive?)."""
    return (c.parts[0], False) if c.kind == "not" else (c, True)


def _order(t: frozenset) -> tuple:
    return (len(t), sorted(map(by_id, t)))


_DONE: dict[tuple, Formula] = {}  # (f, expand, consensus, distribute) -> minimize's answer, for one lowering


def forget() -> None:
    """Drop the answers kept for the formulas of an earlier lowering (with Formula.fresh_table)."""
    _DONE.clear()
    _OPTIONS.clear()
    _PRIMES.clear()


def minimize(f: Formula, expand: bool = False, consensus: bool = True, distribute: bool = False,
             check: Callable[[], None] | None = None) -> Formula:
    """See `_minimize`; formulas are interned, and a third of the calls ask about one already reduced. `check`
    is called now and then while the consensus runs (tgpl.limits.Limits.check, which raises past a limit)."""
    key = (f, expand, consensus, distribute)
    found = _DONE.get(key)
    if found is None:
        found = _DONE[key] = _minimize(f, expand, consensus, distribute, check)
    return found


def _minimize(f: Formula, expand: bool = False, consensus: bool = True, distribute: bool = False,
              check: Callable[[], None] | None = None) -> Formula:
    """f, a disjunction, as a smaller equivalent disjunction (or f itself when nothing is gained).

    Terms that differ in one literal only (`A & x`, `A & !x`) are merged first, which
    is cheap; when few terms are left, the consensus of any two gives the prime
    implicants. With `expand`, conjunctions of disjunctions (the condition of a merged
    path and a case of what it wrote) are first multiplied out, the contradictory
    products dropped. With `distribute`, a term's nested disjunctions are multiplied out
    where the products left (values of one fluent exclude each other) are no more than
    the term's rule and the relations of its disjunctions: Connect Four's window
    "(same w0 w1) & (same w0 w2) & (same w0 w3)", each "same" a disjunction over the two
    colours, is two products, a window of each colour, and no "same" relation."""
    if f.kind != "or" and not ((expand or distribute) and f.kind == "and"):
        return f
    if distribute:
        f = _minimize(f, expand, consensus, check=check)
        spread = _absorb(_distribute(f, check))
        out = disj(*(conj(*sorted(t, key=by_id)) for t in spread))
        return out if _nested(out) < _nested(f) else f  # fewer relations to ground, if more literals
    terms = _expand(f) if expand else None
    if terms is None:
        if f.kind != "or":
            return f
        terms = [_term(p) for p in f.parts]
    terms = merge_adjacent(terms)
    if consensus and len(terms) <= MAX_CONSENSUS:
        terms = prime_implicants(terms, check) or terms
    elif consensus:
        terms = _by_move(terms, check)
    dropped = _drop_covered_negations(terms)
    if dropped is not terms:
        terms = merge_adjacent(dropped)
    out = disj(*(conj(*sorted(t, key=by_id)) for t in terms))
    gain = _size(f) - _size(out)
    return out if gain > 0 or (expand and gain == 0 and out is not f) else f


def _by_move(terms: list[frozenset], check: Callable[[], None] | None = None) -> list[frozenset]:
    """The prime implicants of each group of terms that make the same moves, where each group is small.

    Too many terms for the consensus of any two are often many moves' alike conditions (Connect Four's
    "a disc was dropped": 14 moves, each landing on one of six rows); the consensus of terms of two
    moves is never useful (it holds both moves), and within one move's terms it is what merges the
    landings into "the column was chosen". Any grouping is exact: each group's implicants are the group."""
    groups: dict[frozenset, list[frozenset]] = {}
    for t in terms:
        groups.setdefault(frozenset(c for c in t if c.kind == "lit" and type(c.key) is MoveLit), []).append(t)
    if len(groups) < 2 or any(len(g) > MAX_CONSENSUS for g in groups.values()):
        return terms
    out: list[frozenset] = []
    for g in groups.values():
        primes = prime_implicants(g, check)
        out.extend(primes if primes is not None and len(primes) < len(g) else g)
    return _absorb(out) if len(out) < len(terms) else terms


def merge_adjacent(terms: list[frozenset]) -> list[frozenset]:
    """Terms `A & x` and `A & !x` replaced by `A`, to a fixpoint (Quine-McCluskey's merging step), absorbed
    duplicates dropped; deterministic order.

    Two terms that merge hold the same atoms (`A`'s and x's), so only terms whose atoms another term shares are
    indexed: the index holds a term less each of its literals, and a loop's conditions built pass by pass (a
    thousand terms of up to a thousand literals, each one a pass longer than the last, none alike) would
    otherwise fill gigabytes with sets no other term can meet."""
    current = _absorb(terms)
    while True:
        index: dict[tuple, frozenset] = {}
        for t in _sharing_atoms(current):
            for c in t:
                a, positive = _atom(c)
                index[(t - {c}, a, positive)] = t
        merged: list[frozenset] = []
        used: set[frozenset] = set()
        for (rest, a, positive), t in index.items():
            if positive and (rest, a, False) in index:
                merged.append(rest)
                used.update((t, index[(rest, a, False)]))
        if not merged:
            return current
        kept = [t for t in current if t not in used] + merged
        current = _absorb(kept)


def _sharing_atoms(terms: list[frozenset]) -> list[frozenset]:
    """The terms (in their order) whose set of atoms, whatever their signs, another term has too."""
    atoms = [frozenset(_atom(c)[0] for c in t) for t in terms]
    seen: dict[frozenset, int] = {}
    for a in atoms:
        seen[a] = seen.get(a, 0) + 1
    return [t for t, a in zip(terms, atoms) if seen[a] > 1]


def _expand(f: Formula) -> list[frozenset] | None:
    """The terms of f in disjunctive normal form, contradictory ones dropped (None past MAX_TERMS).

    Each term's conjuncts are taken in the order of their ids, a disjunction multiplying the products; the
    literals between two disjunctions extend each product at once (`_steps`): one by one, a term of Kalah's, dozens
    of literals and a few disjunctions, copied every product once per literal. A literal never adds a product, so
    MAX_TERMS is passed at the same conjunct as one by one."""
    out: list[frozenset] = []
    for p in disjuncts(f):
        products = [Conjuncts.empty()]
        for options, plain in _steps(sorted(_term(p), key=by_id)):
            products = _products(products, options, plain)
            if len(products) + len(out) > MAX_TERMS:
                return None
        out.extend(t.parts for t in products)
    return out


def _steps(conjuncts: list[Formula]) -> Iterator[tuple[list[frozenset], list[bool]]]:
    """The options (with `_plain` of each) that `_expand` extends the products by, for a term's conjuncts in order:
    a disjunction's terms; the first conjunct alone (the one step where a literal can make MAX_TERMS pass: the
    empty product was not counted); else a run of literals and negations between two disjunctions, as one option.
    A conjunction or FALSE is a step of its own (`_contradictory`'s)."""
    run: list[Formula] = []
    for i, c in enumerate(conjuncts):
        if c.kind == "or":
            if run:
                yield _single(frozenset(run))
                run = []
            yield _options(c)
        elif i == 0 or c.kind == "and" or c is FALSE:
            if run:
                yield _single(frozenset(run))
                run = []
            yield _single(frozenset((c,)))
        else:
            run.append(c)
    if run:
        yield _single(frozenset(run))


def _single(option: frozenset) -> tuple[list[frozenset], list[bool]]:
    return [option], [_plain(option)]


_OPTIONS: dict[Formula, tuple[list[frozenset], list[bool]]] = {}  # disjunction -> `_steps`' options, for one lowering


def _options(c: Formula) -> tuple[list[frozenset], list[bool]]:
    """A disjunction's terms as options, with `_plain` of each: the same disjunctions are conjuncts of many terms."""
    found = _OPTIONS.get(c)
    if found is None:
        options = [_term(q) for q in c.parts]
        found = _OPTIONS[c] = (options, [_plain(b) for b in options])
    return found


def _products(products: list[Conjuncts], options: list[frozenset], plain: list[bool] | None = None
              ) -> list[Conjuncts]:
    """Each product extended by each option, the contradictory ones dropped, in that order. A product is free of
    clashes, so only the option's conjuncts are compared with it (`Conjuncts.extended`); a conjunction or FALSE
    among them is left to `_contradictory`, as is an option that clashes in itself. `plain`: `_plain` of each option,
    where known."""
    if plain is None:
        plain = [_plain(b) for b in options]
    out: list[Conjuncts] = []
    for a in products:
        for b, ok in zip(options, plain):
            if ok and not a.general:
                t = a.extended(b)
                if t is not None:
                    out.append(t)
            elif not _contradictory(u := a.parts | b):
                out.append(Conjuncts(u, {}, frozenset(), general=True))
    return out


def _distribute(f: Formula, check: Callable[[], None] | None = None) -> list[frozenset]:
    """The terms of f, each multiplied out where that leaves at most 1 + its nested disjunctions (`check()`
    called at each nested disjunction)."""
    out: list[frozenset] = []
    for p in disjuncts(f):
        t = _term(p)
        nested = sum(1 for c in t if c.kind == "or")
        products = _spread(t, check) if nested else []
        out.extend([u.parts for u in products] if nested and len(products) <= 1 + nested else [t])
        if len(out) > MAX_TERMS:
            return [_term(p) for p in disjuncts(f)]
    return out


def _spread(t: frozenset, check: Callable[[], None] | None) -> list[Conjuncts]:
    """The products of term t's conjuncts, in the order of their ids, the contradictory ones dropped; cut short
    once a disjunction leaves more than 64 (later conjuncts may still exclude most, but not this many). The
    literals between two disjunctions extend the products as one option: a literal never adds a product, so the
    products and the cut are those of one literal at a time (the conjunct-by-conjunct loop extended each product
    once per literal: Jungle's sample, 5.5 million extensions)."""
    products = [Conjuncts.empty()]
    run: list[Formula] = []
    for c in sorted(t, key=by_id):
        if c.kind != "or":
            run.append(c)
            continue
        if run:
            products = _products(products, [frozenset(run)])
            run = []
        if check is not None:
            check()
        products = _products(products, [_term(q) for q in c.parts])
        if len(products) > 64:
            return products
    return _products(products, [frozenset(run)]) if run else products


def _nested(f: Formula) -> int:
    """The distinct nested disjunctions in f's terms (each a relation of its own)."""
    return len({c for p in disjuncts(f) for c in _term(p) if c.kind == "or"})


def _drop_covered_negations(terms: list[frozenset]) -> list[frozenset]:
    """`G | (!G & B)` is `G | B`: a conjunct `!G` goes from a term when every term of G implies another term.

    That is the condition "no earlier pass of the loop returned" (execute._remainder) met by a later pass
    that returns what the earlier ones returned."""
    if not any(c.kind == "not" and c.parts[0].kind in ("or", "and") for t in terms for c in t):
        return terms
    out = list(terms)
    # every term, indexed by its last-made conjunct (as _Family), so that "some term but the i-th contains
    # only literals of r" looks at few terms: one index for all, kept as the terms change (chess's conditions
    # have thousands of terms, and a family of the others built for each took minutes)
    index: dict[Formula, set[int]] = {}
    empty: set[int] = set()

    def add(j: int) -> None:
        if out[j]:
            index.setdefault(max(out[j], key=by_id), set()).add(j)
        else:
            empty.add(j)

    def remove(j: int) -> None:
        if out[j]:
            index[max(out[j], key=by_id)].discard(j)
        else:
            empty.discard(j)

    def covers(r: frozenset, skip: int) -> bool:
        if empty - {skip}:
            return True
        return any(j != skip and out[j] <= r for c in r for j in index.get(c, ()))

    for j in range(len(out)):
        add(j)
    for i, t in enumerate(out):
        negations = [c for c in sorted(t, key=by_id) if c.kind == "not" and c.parts[0].kind in ("or", "and")]
        for c in negations:
            g = c.parts[0]
            if all(covers(_term(p), i) for p in disjuncts(g)):
                remove(i)
                t = out[i] = t - {c}
                add(i)
    return _absorb(out)


def _size(f: Formula) -> int:
    """The literals f's rules are written with, a nested connective counting as one (it is a relation
    of its own, shared by every rule that uses it)."""
    parts = disjuncts(f)
    return sum(len(_term(p)) + 1 for p in parts)


class _Family:
    """Terms, indexed so that "does some term contain only literals of r" looks at few of them.

    Terms are filed by their last-made conjunct's creation number, not the conjunct: an int's hash is C's, a
    Formula's is a Python call (`Formula.__hash__`), and `covers` looks up every conjunct of every candidate."""

    def __init__(self, tests: int = 0) -> None:
        self.by_last: dict[int, list[frozenset]] = {}  # each term under its last-made conjunct's id
        self.empty = False
        self.tests = tests  # terms compared with a candidate so far (the consensus's budget, MAX_TESTS)

    def add(self, t: frozenset) -> None:
        if not t:
            self.empty = True
        else:
            self.by_last.setdefault(max(map(by_id, t)), []).append(t)

    def covers(self, r: frozenset) -> bool:
        if self.empty:
            return True
        get = self.by_last.get
        contains = r.issuperset  # in C, with the stored hashes of the terms' conjuncts
        for c in map(by_id, r):
            filed = get(c)
            if filed:
                self.tests += len(filed)
                if any(map(contains, filed)):
                    return True
        return False


class _Consensus:
    """Whether the consensus of two clash-free terms clashes, asked of what the second adds to the first.

    The consensus `(t1 - {a}) | (t2 - {!a})` of Kalah's terms, dozens of conjuncts alike, adds one or two
    conjuncts to t1 less a; `clash` of the whole went through every conjunct, for each of up to MAX_STEPS pairs.
    t1's cells (with how many of its literals give each) and negated propositions are kept per term."""

    def __init__(self) -> None:
        self.known: dict[frozenset, tuple[dict, frozenset]] = {}

    def _cells(self, t: frozenset) -> tuple[dict, frozenset]:
        """t's exclusive cells, cell -> [value, literals that give it], and the propositions t negates."""
        got = self.known.get(t)
        if got is None:
            cells: dict = {}
            for p in t:
                excl = p.excl
                if excl is not None:
                    entry = cells.get(excl[0])
                    if entry is None:
                        cells[excl[0]] = [excl[1], 1]
                    else:
                        entry[1] += 1
            got = self.known[t] = (cells, frozenset(p.parts[0] for p in t if p.kind == "not"))
        return got

    def clashes(self, t1: frozenset, a: Formula, r: frozenset) -> bool:
        """clash(r), r the consensus of t1 (which holds the proposition a) and a clash-free term holding !a."""
        cells, negated = self._cells(t1)
        fresh = r - t1
        if not negated.isdisjoint(fresh):
            return True
        a_cell = a.excl[0] if a.excl is not None else None
        for x in fresh:
            if x.kind == "not":
                if x.parts[0] in t1 and x.parts[0] is not a:
                    return True
            else:
                excl = x.excl
                if excl is not None:
                    entry = cells.get(excl[0])
                    if entry is not None and entry[1] - (excl[0] is a_cell) > 0 and entry[0] != excl[1]:
                        return True
        return False


_PRIMES: dict[tuple, list[frozenset] | None] = {}  # terms -> prime_implicants' answer, for one lowering


def prime_implicants(terms: list[frozenset], check: Callable[[], None] | None = None) -> list[frozenset] | None:
    """See `_prime_implicants`. Kalah's emission asks it the same terms again for different formulas (a sixth of
    its 734 calls, most of them giving up after MAX_TESTS comparisons, 3 s of 11), so answers are kept; not for
    terms holding a conjunction or FALSE, where each candidate is judged by `conj`, which makes formulas (and so
    takes creation numbers, which order everything after it)."""
    key = tuple(terms)
    if key in _PRIMES:
        found = _PRIMES[key]
        return None if found is None else list(found)
    primes = _prime_implicants(terms, check)
    if not any(p.kind == "and" or p is FALSE for t in terms for p in t):
        _PRIMES[key] = None if primes is None else list(primes)
    return primes


def _prime_implicants(terms: list[frozenset], check: Callable[[], None] | None = None) -> list[frozenset] | None:
    """The prime implicants of the disjunction of `terms` (sets of conjuncts), in a deterministic order;
    None when the budget runs out (MAX_STEPS pairs, MAX_TESTS terms compared, MAX_TERMS terms). `check()` is
    called every CHECK_EVERY pairs."""
    kept, steps = _strengthened(_absorb(terms), check)
    if kept is None:
        return None
    seen: set[tuple[frozenset, frozenset]] = set()
    tests = 0
    plain = _Consensus() if all(_plain(t) for t in kept) else None  # else each consensus is `_contradictory`'s
    changed = True
    while changed:
        changed = False
        family = _Family(tests)
        for t in kept:
            family.add(t)
        new: list[frozenset] = []
        for a, na, t1, t2 in _opposed(kept):
            pair = (t1, t2)
            if pair in seen:
                continue
            seen.add(pair)
            steps += 1
            if steps > MAX_STEPS:
                return None
            if check is not None and not steps % CHECK_EVERY:
                check()
            r = (t1 - {a}) | (t2 - {na})
            covered = family.covers(r)
            if family.tests > MAX_TESTS:
                return None
            if covered or (plain.clashes(t1, a, r) if plain is not None else _contradictory(r)):
                continue
            family.add(r)
            new.append(r)
        tests = family.tests
        if tests > MAX_TESTS:
            return None
        if new:
            absorbed = _Family(tests)
            kept = _absorb(kept + new, absorbed)
            tests = absorbed.tests
            changed = True
            if len(kept) > MAX_TERMS:
                return None
    return kept


def _opposed(terms: list[frozenset]) -> Iterator[tuple[Formula, Formula, frozenset, frozenset]]:
    """(a, !a, t1, t2) for each proposition a and each pair of terms, t1 holding a and t2 its negation: the pairs a
    consensus or a self-subsuming resolution may be made of, by the propositions' age, then the terms' order."""
    by_atom: dict[int, tuple[Formula, list, list]] = {}  # by the proposition's id: an int's hash is C's
    for t in terms:
        for c in t:
            if c.kind == "not":
                a, side = c.parts[0], 2
            else:
                a, side = c, 1
            found = by_atom.get(a.id)
            if found is None:
                found = by_atom[a.id] = (a, [], [])
            found[side].append(t)
    for i in sorted(by_atom):
        a, pos, negs = by_atom[i]
        if pos and negs:
            na = neg(a)
            for t1 in pos:
                for t2 in negs:
                    yield a, na, t1, t2


def _strengthened(terms: list[frozenset], check: Callable[[], None] | None = None
                  ) -> tuple[list[frozenset] | None, int]:
    """The terms with every literal dropped that self-subsuming resolution drops, to a fixpoint, and the pairs of
    terms examined (None for the terms when they pass MAX_STEPS).

    Where t is `A & x` and u is `B & !x` with A within B, `t | u` is `t | B`: the consensus of t and u absorbs u,
    so u becomes B and no term is added. The consensus of any two (prime_implicants) reaches the same prime
    implicants, but a loop's early returns make a chain, `F1 | (!F1 & F2) | (!F1 & !F2 & F3) | ...` ("the first
    cell where a domino fits", tests/data/designers/domineering.tgpl), whose consensus makes every subset of the
    negations before absorbing them: 16 terms ran out of MAX_STEPS (0.8 s each, 31 times in one lowering) where
    this leaves `F1 | F2 | ...` in 16 rounds of at most 256 pairs."""
    current = {t: t for t in terms}
    steps = 0
    changed = True
    while changed:
        changed = False
        for a, na, k1, k2 in _opposed(list(current)):
            steps += 1
            if steps > MAX_STEPS:
                return None, steps
            if check is not None and not steps % CHECK_EVERY:
                check()
            t1, t2 = current[k1], current[k2]
            if a not in t1 or na not in t2:
                continue  # a literal this round already dropped
            r1, r2 = t1 - {a}, t2 - {na}
            if r1 <= r2:
                current[k2] = r2
                changed = True
            elif r2 <= r1:
                current[k1] = r1
                changed = True
        if changed:
            current = {t: t for t in _absorb(list(current.values()))}
    return list(current), steps


def _contradictory(t: frozenset) -> bool:
    """Whether conj(*t) is FALSE, without building it: the consensus and the products of `_expand` ask this
    of every candidate term, whose conjuncts are literals, negations and disjunctions (else: conj decides)."""
    if any(p.kind == "and" or p is FALSE for p in t):
        return conj(*t) is FALSE  # never in a term of a normal form; the general case, for safety
    return clash(t)


def _plain(t: frozenset) -> bool:
    """Whether t is what `_Consensus` asks about: literals, negations and disjunctions that do not clash."""
    return not any(p.kind == "and" or p is FALSE for p in t) and not clash(t)


def _absorb(terms: list[frozenset], family: _Family | None = None) -> list[frozenset]:
    """The terms no other term is contained in, each once, shortest first (`family`, empty, counts the tests)."""
    out: list[frozenset] = []
    family = _Family() if family is None else family
    for t in sorted(set(terms), key=_order):
        if not family.covers(t):
            out.append(t)
            family.add(t)
    return out


__all__ = ["forget", "minimize", "prime_implicants"]
