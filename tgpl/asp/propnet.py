"""A GDL game's propositional network, built from clingo's grounding and counted.

GGP agents that play by propositional network (propnet) turn the ground game
into a circuit: a proposition per ground atom, an AND gate per ground rule
body, an OR gate where several rules derive one atom, a NOT gate per negated
atom, and a transition from each `next` to its `true`. The size of that circuit
is what such an agent pays per state, so it is how the lowering is compared with
hand-written GDL (bench/propnet.py); ground rule counts (tgpl.asp.ground_size)
also count what an agent optimises away.

Building it. The game's rules are grounded as tgpl.asp.ground_size grounds
them: `true(F)` and `does(R,M)` are externals over the game's fluents and moves
(base/input, or the relaxed game's reach), so no state is assumed. A ground
program observer receives every ground rule (head atom, body literals) and the
atom each symbol became. Then, as reference propnet factories do:

1. Constants are propagated. Static relations are facts after grounding, and
   an atom is also constant when its rules say so whatever the state and
   moves: true once a rule has a body of true literals only, false once every
   rule has a false literal (or it has none and is not an external). Constant
   literals leave the bodies; rules with a false one go.
2. Propositions that do not matter are removed. What matters is what a player
   reads: `legal`, `goal` and `terminal`, everything their rules read, and for
   each `true(F)` that matters, `next(F)` (what the transition feeds it). A
   fluent nobody reads, with the rules that keep it up to date, goes; so do
   moves that no rule reads.

Counting (`PropnetSize`): propositions are the named atoms that remain (bases
`true/1`, inputs `does/2`, and views: every other relation, `next`, `legal`,
`goal` and `terminal` included; a constant `legal`/`goal`/`terminal` is one
proposition tied to a constant); gates are an AND per remaining rule whose body
has two literals or more (a one-literal body is a wire), an OR per atom with two
remaining rules or more, a NOT per atom read negatively; transitions one per
base. Components are propositions + gates + transitions, the figure GGP propnet
reasoners print (they also count their two constants, left out here).
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass

import clingo

from tgpl.asp.gdl_to_asp import ClingoNames
from tgpl.asp.ground_size import ground_observed
from tgpl.asp.solver import SolverError
from tgpl.lowering.ir import Program

OUTPUTS = (("legal", 2), ("goal", 2), ("terminal", 0))


@dataclass(frozen=True)
class PropnetSize:
    """The components of a game's propositional network, by kind."""

    bases: int  # true(F) propositions
    inputs: int  # does(R,M) propositions
    views: int  # every other proposition: next, legal, goal, terminal and the game's own relations
    ands: int
    ors: int
    nots: int
    transitions: int  # one per base: next(F) feeds true(F)

    @property
    def propositions(self) -> int:
        return self.bases + self.inputs + self.views

    @property
    def gates(self) -> int:
        return self.ands + self.ors + self.nots

    @property
    def components(self) -> int:
        return self.propositions + self.gates + self.transitions


class _Rules(clingo.Observer):
    """The ground program as the grounder emits it."""

    def __init__(self) -> None:
        self.rules: list[tuple[int, tuple[int, ...]]] = []
        self.facts: set[int] = set()
        self.externals: set[int] = set()
        self.symbols: dict[int, clingo.Symbol] = {}
        self.fact_symbols: list[clingo.Symbol] = []  # atoms the grounder decided true

    def rule(self, choice: bool, head, body) -> None:
        if choice or len(head) != 1:
            raise SolverError("a GDL game grounds to normal rules only")
        if body:
            self.rules.append((head[0], tuple(body)))
        else:
            self.facts.add(head[0])

    def weight_rule(self, choice: bool, head, lower_bound: int, body) -> None:
        raise SolverError("a GDL game grounds to normal rules only")

    def external(self, atom: int, value) -> None:
        self.externals.add(atom)

    def output_atom(self, symbol: clingo.Symbol, atom: int) -> None:
        if atom == 0:
            self.fact_symbols.append(symbol)  # a constant, not a proposition (unless a player reads it)
        else:
            self.symbols[atom] = symbol


def ground_rules(program: Program, names: ClingoNames | None = None) -> _Rules:
    """The game's ground rules, `true`/`does` left open (as tgpl.asp.ground_size grounds them), translated with
    `names` (a fresh ClingoNames by default)."""
    return ground_observed(program, _Rules(), names)


def _constants(ground: _Rules) -> tuple[set[int], set[int]]:
    """The atoms true whatever the state and moves, and those that can never be true.

    `possible`: the least set closed under rules whose positive atoms are possible and whose negated atoms
    are not certainly true; `certain`: closed under rules whose positive atoms are certain and whose negated
    atoms are impossible. Externals are possible and never certain. Both are recomputed until neither moves
    (a stratified program settles)."""
    atoms = set(ground.symbols) | ground.facts | ground.externals
    for head, body in ground.rules:
        atoms.add(head)
        atoms.update(abs(lit) for lit in body)
    certain: set[int] = set(ground.facts)
    possible: set[int] = set()
    while True:
        new_possible = _closure(ground, ground.externals | ground.facts, lambda a: a not in certain)
        new_certain = _closure(ground, ground.facts, lambda a: a not in new_possible)
        if new_possible == possible and new_certain == certain:
            return certain, atoms - possible
        possible, certain = new_possible, new_certain


def _closure(ground: _Rules, start: set[int], negative_passes) -> set[int]:
    """The least set holding `start` and the head of every rule whose positive atoms are in it and whose
    negated atoms pass `negative_passes` (a test fixed for the whole closure)."""
    reached = set(start)
    by_atom: dict[int, list[int]] = defaultdict(list)
    missing: list[int] = []
    queue: deque[int] = deque()
    for index, (head, body) in enumerate(ground.rules):
        if any(lit < 0 and not negative_passes(-lit) for lit in body):
            missing.append(-1)  # blocked for this closure
            continue
        needs = {lit for lit in body if lit > 0 and lit not in reached}
        missing.append(len(needs))
        for atom in needs:
            by_atom[atom].append(index)
        if not needs and head not in reached:
            reached.add(head)
            queue.append(head)
    while queue:
        atom = queue.popleft()
        for index in by_atom.get(atom, ()):
            missing[index] -= 1
            if missing[index] == 0:
                head = ground.rules[index][0]
                if head not in reached:
                    reached.add(head)
                    queue.append(head)
    return reached


@dataclass
class LiveNetwork:
    """The ground game once constants are propagated and what nothing reads is removed: what a propnet is built
    from (propnet_size counts it; tgpl.batched evaluates it)."""

    ground: _Rules
    certain: set[int]  # atoms true whatever the state and moves
    impossible: set[int]  # atoms that can never be true
    live: dict[int, list[tuple[int, ...]]]  # each non-constant atom's rules: bodies without constant literals
    matters: set[int]  # the atoms kept: outputs, what they read, the `next` of each base kept, transitively
    constant_outputs: int  # legal/goal/terminal propositions tied to a constant


def live_network(program: Program, keep_fluents: bool = False, names: ClingoNames | None = None) -> LiveNetwork:
    """The propositional network of a valid GDL program, constants propagated and what no player reads removed
    (raises SolverError if clingo refuses the program). With `keep_fluents`, every fluent's `next` matters too,
    read or not: a simulator whose observation is the whole state keeps them all. `names`: as ground_rules."""
    ground = ground_rules(program, names)
    certain, impossible = _constants(ground)
    constant = certain | impossible
    live: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for head, body in ground.rules:
        if head in constant or any((lit > 0 and lit in impossible) or (lit < 0 and -lit in certain) for lit in body):
            continue
        live[head].append(tuple(lit for lit in body if abs(lit) not in constant))

    by_name: dict[tuple[str, int], list[int]] = defaultdict(list)
    next_of: dict[clingo.Symbol, int] = {}
    for atom, symbol in ground.symbols.items():
        by_name[symbol.name, len(symbol.arguments)].append(atom)
        if symbol.name == "next" and len(symbol.arguments) == 1:
            next_of[symbol.arguments[0]] = atom

    outputs = [a for signature in OUTPUTS for a in by_name.get(signature, ())]
    if keep_fluents:
        outputs += by_name.get(("true", 1), [])
    constant_outputs = sum(1 for a in outputs if a in certain) + sum(
        1 for symbol in ground.fact_symbols if (symbol.name, len(symbol.arguments)) in OUTPUTS)
    matters: set[int] = set()
    queue = deque(a for a in outputs if a not in constant)
    while queue:
        atom = queue.popleft()
        if atom in matters:
            continue
        matters.add(atom)
        symbol = ground.symbols.get(atom)
        if symbol is not None and symbol.name == "true" and len(symbol.arguments) == 1:
            fed = next_of.get(symbol.arguments[0])
            if fed is not None and fed not in constant:
                queue.append(fed)
        for body in live.get(atom, ()):
            queue.extend(abs(lit) for lit in body)
    return LiveNetwork(ground, certain, impossible, live, matters, constant_outputs)


def propnet_size(program: Program) -> PropnetSize:
    """The propositional network of a valid GDL program, constants propagated and what no player reads
    removed, counted as the module docstring says (raises SolverError if clingo refuses the program)."""
    net = live_network(program)
    return _count(net.ground, net.live, net.matters, net.constant_outputs)


def _count(ground: _Rules, live: dict[int, list[tuple[int, ...]]], matters: set[int],
           constant_outputs: int) -> PropnetSize:
    bases = inputs = views = ands = ors = 0
    negated: set[int] = set()
    for atom in matters:
        symbol = ground.symbols.get(atom)
        if symbol is not None:
            kind = (symbol.name, len(symbol.arguments))
            if kind == ("true", 1):
                bases += 1
            elif kind == ("does", 2):
                inputs += 1
            else:
                views += 1
        bodies = live.get(atom, ())
        ors += len(bodies) >= 2
        for body in bodies:
            ands += len(body) >= 2
            negated.update(-lit for lit in body if lit < 0)
    return PropnetSize(bases, inputs, views + constant_outputs, ands, ors, len(negated), bases)


__all__ = ["LiveNetwork", "PropnetSize", "live_network", "propnet_size", "ground_rules"]
