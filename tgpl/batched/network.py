"""A ground GDL game as a circuit laid out for array evaluation: nodes, levels of gates, and the outputs.

The circuit is tgpl.asp.propnet's live network (clingo's grounding, constants propagated, what nothing reads
removed; every fluent kept, since the observation is the whole state). Each node is a row of bits, one bit a
game. Nodes 0 and 1 are the constants false and true, then come the inputs: one node per fluent (`true(F)`)
and one per move some rule reads (`does(R,M)`), then the views (every other atom), each the OR of its rules'
bodies, each body the AND of its literals (a negated literal read through XOR with all ones).

Evaluation order. A view's level is one more than its highest-level input, so every node of a level can be
computed at once from the rows of lower levels: gather the literals' rows, XOR the negated ones, AND them
body by body, OR the bodies atom by atom, write (tgpl.batched.kernel; a body several atoms share, once). Views
that read no move (legal, goal, terminal and what they read; GDL forbids them to read `does`) form the *state
schedule*, evaluated once a state exists; the rest, the *move schedule*, once the joint move is known. Positive
recursion (a path relation) makes strongly connected components; each is one step of the schedule, evaluated
from all-false until it stops changing (its least fixpoint: stratified negation never reads inside one).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import clingo
import numpy as np

from tgpl.asp.gdl_to_asp import ClingoNames
from tgpl.asp.propnet import live_network
from tgpl.graphs import strongly_connected
from tgpl.lowering.ir import Program, Term

FALSE, TRUE = 0, 1


@dataclass(frozen=True)
class AndGroup:
    """Bodies of one length k: `literals[j]` holds the j-th literal's node of each body (k x bodies),
    `negated[j]` whether it is read negated. Evaluated as k gathers and k-1 ANDs of whole blocks."""

    literals: np.ndarray
    negated: np.ndarray


@dataclass(frozen=True)
class OrGroup:
    """Atoms of one rule count d: `bodies[j]` the index of each atom's j-th body in the level's bodies
    (d x atoms), `atoms` the nodes written."""

    atoms: np.ndarray
    bodies: np.ndarray


@dataclass(frozen=True)
class Level:
    """Atoms evaluated together: each the OR of its bodies, each body the AND of its literals.

    Bodies are grouped by length and atoms by rule count, so each group is a few NumPy calls on whole blocks
    (reduceat over ragged segments costs several times as much). The level's bodies are the AND groups'
    in order. `cyclic`: a strongly connected component, iterated to its least fixpoint."""

    atoms: np.ndarray
    and_groups: tuple[AndGroup, ...]
    or_groups: tuple[OrGroup, ...]
    cyclic: bool = False
    literal_count: int = 0
    direct: bool = False  # one rule per atom, bodies in the atoms' order: the bodies are the atoms' rows


@dataclass
class Network:
    """A game's circuit and what its outputs mean (roles, moves, fluents as GDL terms)."""

    nodes: int
    roles: tuple[Term, ...]
    moves: tuple[tuple[Term, ...], ...]  # per role, the moves some state can make legal, in symbol order
    fluents: tuple[Term, ...]  # in symbol order; fluent i is node 2 + i
    initial: np.ndarray  # bool per fluent
    does: list[list[int]]  # per role and move: its `does` node, or -1 when no rule reads it
    legal: list[list[int]]  # per role and move: its `legal` node (FALSE/TRUE for constants)
    terminal: int
    goals: list[list[tuple[int, int]]]  # per role: (value, node) for each goal value some state can give
    next: np.ndarray  # per fluent: the node its `next` is (FALSE/TRUE for constants)
    state_levels: list[Level] = field(default_factory=list)
    move_levels: list[Level] = field(default_factory=list)
    components: int = 0  # nodes + gates (AND per body of two literals or more, OR per atom of two bodies or more)

    @property
    def first_fluent(self) -> int:
        return 2


def build_network(program: Program) -> Network:
    """The circuit of a valid GDL program (raises tgpl.asp.solver.SolverError if clingo refuses it)."""
    names = ClingoNames()
    net = live_network(program, keep_fluents=True, names=names)
    ground = net.ground
    symbol_of = ground.symbols
    constant = net.certain | net.impossible

    def const_node(atom: int) -> int:
        return TRUE if atom in net.certain else FALSE

    roles = tuple(dict.fromkeys(a.args[0] for a in program.facts("role") if a.args))
    role_symbols = [names.symbol(r) for r in roles]
    role_index = {s: i for i, s in enumerate(role_symbols)}

    fluent_atoms = {s.arguments[0]: a for a, s in symbol_of.items() if s.name == "true" and len(s.arguments) == 1}
    fluent_symbols = sorted(fluent_atoms)
    fluent_index = {f: i for i, f in enumerate(fluent_symbols)}
    node_of: dict[int, int] = {fluent_atoms[f]: 2 + i for i, f in enumerate(fluent_symbols)}
    count = 2 + len(fluent_symbols)

    # Outputs: each (relation, arity) gives atom -> symbol; a fact the grounder decided has atom 0 (constant).
    # An output that is not constant is kept as -atom - 10 until its atom has a node (`resolve` below);
    # constants are the nodes FALSE (0) and TRUE (1).
    legal_atoms: dict[tuple[int, clingo.Symbol], int] = {}  # (role, move) -> node
    goal_atoms: dict[int, dict[int, int]] = defaultdict(dict)
    terminal = FALSE
    next_node = np.zeros(len(fluent_symbols), dtype=np.int64)
    initial = np.zeros(len(fluent_symbols), dtype=bool)
    does_atoms: dict[tuple[int, clingo.Symbol], int] = {}

    facts = [(0, s) for s in ground.fact_symbols] + [(a, s) for a, s in symbol_of.items()]
    for atom, s in facts:
        arity = len(s.arguments)
        fixed = TRUE if atom == 0 else (const_node(atom) if atom in constant else None)
        if s.name == "init" and arity == 1 and (atom == 0 or atom in net.certain):
            if s.arguments[0] in fluent_index:
                initial[fluent_index[s.arguments[0]]] = True
        elif s.name == "does" and arity == 2 and s.arguments[0] in role_index:
            does_atoms[role_index[s.arguments[0]], s.arguments[1]] = atom
        elif fixed == FALSE:
            continue
        elif s.name == "legal" and arity == 2 and s.arguments[0] in role_index:
            legal_atoms[role_index[s.arguments[0]], s.arguments[1]] = -atom - 10 if fixed is None else fixed
        elif s.name == "goal" and arity == 2 and s.arguments[0] in role_index:
            value = s.arguments[1]
            if value.type is clingo.SymbolType.Number:
                goal_atoms[role_index[s.arguments[0]]][value.number] = -atom - 10 if fixed is None else fixed
        elif s.name == "terminal" and arity == 0:
            terminal = -atom - 10 if fixed is None else fixed
        elif s.name == "next" and arity == 1 and s.arguments[0] in fluent_index:
            next_node[fluent_index[s.arguments[0]]] = -atom - 10 if fixed is None else fixed

    # Moves: per role, those some state can make legal, in symbol order; their does nodes if read.
    moves_by_role: list[list[clingo.Symbol]] = [[] for _ in roles]
    for r, m in legal_atoms:
        moves_by_role[r].append(m)
    for ms in moves_by_role:
        ms.sort()
    does: list[list[int]] = []
    for r, ms in enumerate(moves_by_role):
        row = []
        for m in ms:
            atom = does_atoms.get((r, m))
            if atom is not None and atom in net.matters:
                node_of[atom] = count
                row.append(count)
                count += 1
            else:
                row.append(-1)
        does.append(row)
    for atom in does_atoms.values():  # read by a rule, yet never legal: a node never set, false
        if atom in net.matters and atom not in node_of:
            node_of[atom] = count
            count += 1

    # Views: every atom kept with rules, ordered by levels over the condensation of the dependency graph.
    kept = sorted(a for a in net.matters if a in net.live and a not in node_of)
    alias = _aliases(kept, net.live)
    views = [a for a in kept if a not in alias]
    live = {a: [tuple(_through(lit, alias) for lit in body) for body in net.live[a]] for a in views}
    for a in views:
        node_of[a] = count
        count += 1
    for a in alias:
        node_of[a] = node_of[alias[a]]
    reads_move = _reads_move(views, live, {a for a in does_atoms.values()})
    state_views = [a for a in views if not reads_move[a]]
    move_views = [a for a in views if reads_move[a]]
    state_levels = _schedule(state_views, live, node_of)
    move_levels = _schedule(move_views, live, node_of)

    def resolve(value: int) -> int:
        return node_of[-value - 10] if value <= -10 else value

    components = count + sum(len(b) >= 2 for a in views for b in live[a]) + sum(len(live[a]) >= 2 for a in views)
    return Network(
        nodes=count, roles=roles,
        moves=tuple(tuple(names.term(m) for m in ms) for ms in moves_by_role),
        fluents=tuple(names.term(f) for f in fluent_symbols), initial=initial, does=does,
        legal=[[resolve(legal_atoms[r, m]) for m in ms] for r, ms in enumerate(moves_by_role)],
        terminal=resolve(terminal),
        goals=[sorted((v, resolve(n)) for v, n in goal_atoms[r].items()) for r in range(len(roles))],
        next=np.array([resolve(int(v)) for v in next_node], dtype=np.int64),
        state_levels=state_levels, move_levels=move_levels, components=components)


def _aliases(kept: list[int], live: dict[int, list[tuple[int, ...]]]) -> dict[int, int]:
    """The views that are wires: one rule whose body is one positive atom, followed to the atom that is not a
    wire (a cycle of wires, possible only in a positive loop, is left as views). They get no node of their own."""
    def wire(a: int) -> int | None:
        bodies = live.get(a)
        if bodies is not None and len(bodies) == 1 and len(bodies[0]) == 1 and bodies[0][0] > 0:
            return bodies[0][0]
        return None

    out: dict[int, int] = {}
    for a in kept:
        seen = {a}
        b = wire(a)
        target = None
        while b is not None:
            if b in seen:
                target = None
                break
            seen.add(b)
            target = b
            b = wire(b)
        if target is not None:
            out[a] = target
    return out


def _through(lit: int, alias: dict[int, int]) -> int:
    target = alias.get(abs(lit))
    return lit if target is None else (target if lit > 0 else -target)


def _reads_move(views: list[int], live: dict[int, list[tuple[int, ...]]], does_atoms: set[int]) -> dict[int, bool]:
    """Whether each view depends, through any chain of rules, on a `does` atom (a fixpoint: small networks)."""
    reads = set()
    changed = True
    while changed:
        changed = False
        for a in views:
            if a not in reads and any(abs(lit) in does_atoms or abs(lit) in reads
                                      for body in live[a] for lit in body):
                reads.add(a)
                changed = True
    return {a: a in reads for a in views}


def _schedule(views: list[int], live: dict[int, list[tuple[int, ...]]], node_of: dict[int, int]) -> list[Level]:
    """The views in levels: acyclic atoms of one level together, each cyclic component a level of its own."""
    inside = set(views)
    deps = {a: sorted({abs(lit) for body in live[a] for lit in body if abs(lit) in inside}) for a in views}
    components = strongly_connected(views, deps.__getitem__)
    component_of = {a: i for i, comp in enumerate(components) for a in comp}
    level_of: dict[int, int] = {}
    for i, comp in enumerate(components):  # Tarjan gives components dependencies first
        outside = [level_of[component_of[d]] for a in comp for d in deps[a] if component_of[d] != i]
        level_of[i] = 1 + max(outside, default=0)
    by_level: dict[int, list[list[int]]] = defaultdict(list)
    for i, comp in enumerate(components):
        by_level[level_of[i]].append(comp)
    levels: list[Level] = []
    for level in sorted(by_level):
        plain: list[int] = []
        for comp in by_level[level]:
            if len(comp) > 1 or comp[0] in deps[comp[0]]:
                levels.append(_level(sorted(comp), live, node_of, cyclic=True))
            else:
                plain.extend(comp)
        if plain:
            levels.append(_level(sorted(plain), live, node_of, cyclic=False))
    return levels


def _level(atoms: list[int], live: dict[int, list[tuple[int, ...]]], node_of: dict[int, int], cyclic: bool) -> Level:
    by_length: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    where: dict[tuple[int, int], tuple[int, int]] = {}  # (atom, rule) -> (length, place in its group)
    seen: dict[tuple[int, ...], tuple[int, int]] = {}  # a body shared by several atoms is evaluated once
    for a in atoms:
        for i, body in enumerate(live[a]):
            key = tuple(sorted(set(body)))
            if key not in seen:
                seen[key] = (len(body), len(by_length[len(body)]))
                by_length[len(body)].append(body)
            where[a, i] = seen[key]
    lengths = sorted(by_length)
    offset: dict[int, int] = {}
    total = 0
    and_groups = []
    for k in lengths:
        offset[k] = total
        total += len(by_length[k])
        bodies = by_length[k]
        and_groups.append(AndGroup(
            np.array([[node_of[abs(body[j])] for body in bodies] for j in range(k)], dtype=np.int64),
            np.array([[body[j] < 0 for body in bodies] for j in range(k)], dtype=bool)))
    by_count: dict[int, list[int]] = defaultdict(list)
    for a in atoms:
        by_count[len(live[a])].append(a)
    or_groups = []
    for d in sorted(by_count):
        group = by_count[d]
        ids = [[offset[where[a, j][0]] + where[a, j][1] for a in group] for j in range(d)]
        or_groups.append(OrGroup(np.array([node_of[a] for a in group], dtype=np.int64),
                                 np.array(ids, dtype=np.int64)))
    direct = len(or_groups) == 1 and len(or_groups[0].bodies) == 1 and bool(
        np.array_equal(or_groups[0].bodies[0], np.arange(total)))
    return Level(np.array([node_of[a] for a in atoms], dtype=np.int64), tuple(and_groups), tuple(or_groups),
                 cyclic, sum(len(b) for a in atoms for b in live[a]), direct)


__all__ = ["FALSE", "TRUE", "AndGroup", "Level", "OrGroup", "Network", "build_network"]
