"""A GDL game as a state machine on clingo: ground once and assign externals, or ground each state.

    game = GdlGame.load("examples/gdl/tictactoe.kif")
    state = game.initial_state()
    while not state.is_terminal:
        state = state.apply(random.choice(state.legal_moves()))   # a joint move
    state.goals                                                  # [100, 0]

The interface has the shape of runtime states (tgpl.runtime.game.State):
`legal_moves()`, `apply(move)`, `is_terminal`, `goals`, `key()`. GDL moves are
simultaneous, so a move of the whole game is a *joint move*: one term per role,
in role order; `legal_moves(role)` gives the moves of one role, and
`legal_moves()` every joint move (the product of the roles' legal moves). Moves
and fluents are IR terms (`tgpl.lowering.ir`), printed as KIF.

Design. The game's rules are translated to clingo rules (tgpl.asp.gdl_to_asp)
and grounded once together with `gdl_state.lp`, which makes `true(F)` external
for every fluent F of the game's `base` and `does(R,M)` external for every move
of its `input` (games without them get both from an over-approximation, see
`gdl_relaxed_domain.lp`). A state is the set of its true fluents, kept as the
program literals of their externals. A query assigns the externals of a state
and a joint move (only those that changed since the previous query) and
solves; the answer set holds the successor's fluents (`gdl_state/1`) and, from
copies of the game's `legal`/`goal`/`terminal` rules that read `gdl_state`
instead of `true`, everything that can be asked of the successor. So each move
costs one solve, and a state knows its legal moves, goals and terminal status
from the moment it exists. The initial state is the same query with the
external `gdl_start` true, which makes `gdl_state` the `init` fluents.
No query grounds anything.

Ground per state. Grounding once grounds each rule for every fluent that could
ever be true, which a large game with rules over fluents (chess's king safety,
a 59x59 tic-tac-toe's frame rule) cannot afford, while one state grounds small.
The second mode (`mode="per-state"`, tgpl.asp.per_state) grounds, for each
query, the rules a successor needs with the state's fluents as `true/1` facts
and the joint move as `does/2` facts, the rules parsed once. Same interface,
same results: a state is keyed by its fluents' clingo symbols (equal iff the
same fluents), legal moves come in the order grounding once gives them (the
order of the `gdl_a_legal(R,M)` atoms, which for one role is that of the
moves' symbols), so seeded playouts pick the same moves; the same errors.

Which mode. `mode="auto"` (the default) grounds once a game whose bound
(tgpl.asp.estimate) is within `max_ground`, and plays any other per state,
bounding each query before it grounds (StateTooLarge); "once" and "per-state"
force one. The per-state mode costs a grounding per move instead of a solve
(bench/reasoner_modes.py: 0.11 to 0.15 of the playouts/s), so it is for the
games grounding once cannot take, not a replacement. docs/gdl.md, "Ground per
state", has the figures.
"""

from __future__ import annotations

import bisect
import itertools
from collections import deque
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import clingo

from tgpl.frontend.diagnostics import Diagnostic, Severity, Span, render_all
from tgpl.frontend.sources import MAX_GDL_BYTES, UnreadableFile, read_source_or_none
from tgpl.limits import Limits
from tgpl.lowering.ir import Const, Func, Program, Term, Var
from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.gdl_to_asp import ClingoNames, lookahead_to_asp, rules_to_asp
from tgpl.asp.relaxed import relaxed_model
from tgpl.asp.kif import KifError, read_kif, read_kif_file, read_term
from tgpl.asp.estimate import MAX_GROUND, rule_bounds
from tgpl.asp.per_state import START, BatchQueries, StateQueries
from tgpl.asp.solver import GroundProgram, answer_set, lp_file
from tgpl.asp.validate import validate

JointMove = tuple[Term, ...]


class GdlLoadError(Exception):
    """The file cannot be read, is not KIF, or is not valid GDL."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str]):
        self.diagnostics = diagnostics
        self.sources = sources
        super().__init__(self.render())

    def render(self) -> str:
        return render_all(self.diagnostics, self.sources)


class GdlError(Exception):
    """The game misbehaves while being played (a fluent outside base, two goal values, ...)."""


class IllegalMove(GdlError):
    pass


MODES = ("auto", "once", "per-state")
"""How a game is grounded: `once` for every state (the default for a game within `max_ground`), `per-state`
one state at a time (tgpl.asp.per_state), `auto` the first when the game's bound is within `max_ground`."""


class StateTooLarge(GdlError):
    """A state's own grounding (per-state mode) can have more ground instances than `max_ground`."""


class GdlGame:
    """A GDL game on clingo; `initial_state()` starts playing it.

    mode: "once", "per-state" or "auto" (MODES); `self.mode` is the one chosen. max_ground: what
    "auto" compares the game's bound with, and the bound of each state's grounding in per-state mode
    (None: no bound).
    """

    def __init__(self, program: Program, mode: str = "auto", max_ground: int | None = MAX_GROUND):
        self.program = program
        self.warnings: list[Diagnostic] = []  # the validator's, when loaded from a file
        self.names = ClingoNames()
        self.roles: tuple[Term, ...] = tuple(dict.fromkeys(a.args[0] for a in program.facts("role") if a.args))
        self._role_symbols = tuple(self.names.symbol(r) for r in self.roles)
        # GDL-II (tgpl.asp.gdl2): the index of the chance role `random`, and whether the game gives percepts
        self.chance: int | None = next((i for i, r in enumerate(self.roles) if r == Const("random")), None)
        self.perceives = "sees" in program.defined()
        self.max_ground = max_ground
        self.mode, whole = grounding_mode(program, mode, max_ground)
        if self.mode == "once":
            self._queries: _GroundOnce | _PerState = _GroundOnce(self)
        else:
            # below max_ground, the whole game's bound bounds every state's: no state needs its own
            check = max_ground is not None and (whole is None or whole > max_ground)
            self._queries = _PerState(self, max_ground if check else None)
        self._initial: GdlState | None = None
        self._symbols: dict[Term, clingo.Symbol] = {}  # the ground terms `states_after` was given

    # ------------------------------------------------------------ loading
    @classmethod
    def load(cls, path: str | Path, max_ground: int | None = MAX_GROUND, mode: str = "auto") -> GdlGame:
        """Read and validate a KIF file; raise GdlLoadError with every diagnostic if it is not valid GDL
        or cannot be grounded within `max_ground` in `mode` (tgpl.asp.validate, tgpl.asp.estimate)."""
        program, warnings = read_gdl(path, max_ground, mode)
        game = cls(program, mode, max_ground)
        game.warnings = warnings
        return game

    @classmethod
    def from_text(cls, text: str, path: str = "<string>", max_ground: int | None = MAX_GROUND,
                  mode: str = "auto") -> GdlGame:
        """The game in a KIF text (tests, generated games); validated like `load`."""
        try:
            program = read_kif(text, path)
        except KifError as e:
            raise GdlLoadError(e.diagnostics, {path: text}) from None
        return cls._checked(program, path, text, max_ground, mode)

    @classmethod
    def _checked(cls, program: Program, path: str, text: str, max_ground: int | None = MAX_GROUND,
                 mode: str = "auto") -> GdlGame:
        diagnostics = validate(program, path, max_ground, mode)
        if any(d.is_error for d in diagnostics):
            raise GdlLoadError(diagnostics, {path: text})
        game = cls(program, mode, max_ground)
        game.warnings = diagnostics
        return game

    # ------------------------------------------------------------ playing
    @property
    def batches(self) -> bool:
        """Whether `states_after` can be asked: the game is played one state at a time."""
        return isinstance(self._queries, _PerState)

    def states_after(self, queries: Sequence[tuple[Iterable[Term], Sequence[Term]] | None]
                     ) -> list[GdlState | GdlError]:
        """For each query, the state a joint move (one move per role, in role order) leads to from the state
        whose true fluents are exactly the given ones; None asks for the initial state. Per-state mode only
        (`batches`): the queries are grounded together, three to four times faster than in turn for chess's
        compiled moves. The moves are not checked against `legal`: this is what the rules say of states given
        from outside (the translation validation poses the runtime's). A query that fails gives its error. A
        term may also be given as its clingo symbol (`names.symbol`), which a caller posing the same fluents
        again and again keeps. Within `parallel` the grounding is under its limits; outside, under none (it
        cannot be interrupted): a command bounds a lone call with `parallel(0, limits)`, no workers."""
        if not self.batches:
            raise ValueError("states_after needs a game played one state at a time")
        assert isinstance(self._queries, _PerState)
        return self._queries.states(self._posed(queries))

    def states_later(self, queries: Sequence[tuple[Iterable[Term], Sequence[Term]] | None]
                     ) -> Callable[[], list[GdlState | GdlError]]:
        """`states_after`'s answers, grounded meanwhile by the workers of `parallel` and handed over when the
        function returned is called (without workers: grounded then)."""
        if not self.batches:
            raise ValueError("states_later needs a game played one state at a time")
        assert isinstance(self._queries, _PerState)
        return self._queries.states_later(self._posed(queries))

    def _posed(self, queries: Sequence[tuple[Iterable[Term], Sequence[Term]] | None]) -> list:
        """The queries as the per-state program takes them: clingo symbols, the moves paired with the roles."""
        symbols = self._symbols

        def symbol(term: Term | clingo.Symbol) -> clingo.Symbol:  # kept: states repeat most fluents, and making
            if isinstance(term, clingo.Symbol):  # one costs 20 µs; a symbol is taken as it is (`names.symbol`)
                return term
            made = symbols.get(term)
            if made is None:
                made = symbols[term] = self.names.symbol(term)
            return made

        return [None if q is None else
                (frozenset(symbol(f) for f in q[0]), tuple(zip(self._role_symbols, map(symbol, q[1]))))
                for q in queries]

    @property
    def workers(self) -> int:
        """The worker processes batches are shared with now (`parallel`); 0 outside it."""
        if not self.batches:
            return 0
        assert isinstance(self._queries, _PerState)
        return self._queries.batch().workers

    @contextmanager
    def parallel(self, workers: int | None = None, limits: Limits | None = None) -> Iterator[None]:
        """Within the block, `states_after` shares each batch between worker processes and this one, and
        `states_later` hands it to the workers (tgpl.asp.per_state.BatchQueries.parallel; default: one worker a
        core), every grounding waited for under `limits` (LimitReached past them, the workers killed). A game
        grounded once, or whose queries are counted against max_ground, is answered here as before."""
        if not self.batches:
            yield
            return
        assert isinstance(self._queries, _PerState)
        with self._queries.batch().parallel(workers, limits):
            yield

    def initial_state(self) -> GdlState:
        """The state `init` describes (made once: states are immutable)."""
        if self._initial is None:
            self._initial = self._queries.initial()
        return self._initial

    def role(self, role: Term | str) -> int:
        """The index of a role, given as a term or as its KIF text."""
        for i, r in enumerate(self.roles):
            if r == role or str(r) == str(role).lower():
                return i
        raise KeyError(f"no role '{role}'; the roles are {', '.join(map(str, self.roles))}")


def grounding_mode(program: Program, mode: str, max_ground: int | None) -> tuple[str, int | None]:
    """The mode to play in ("once" or "per-state") and the game's bound (None: not computed, or the
    analysis cannot end): "auto" grounds once unless the bound is over max_ground."""
    if mode not in MODES:
        raise ValueError(f"no grounding mode '{mode}'; the modes are {', '.join(MODES)}")
    if mode == "once" or (mode == "per-state" and max_ground is None):  # nothing to compare the bound with
        return mode, None
    bounds = rule_bounds(program)
    whole = None if bounds is None else sum(b.instances for b in bounds)
    if mode == "auto":
        over = max_ground is not None and whole is not None and whole > max_ground
        return ("per-state" if over else "once"), whole
    return mode, whole


class GroundLimit:
    """A ground program observer that stops the grounding (by raising) once it has seen `limit` rules: clingo's
    grounding cannot be interrupted otherwise."""

    class Over(Exception):
        pass

    def __init__(self, limit: int):
        self.left = limit

    def rule(self, choice: bool, head, body) -> None:
        self.left -= 1
        if self.left < 0:
            raise GroundLimit.Over()

    def weight_rule(self, choice: bool, head, lower_bound, body) -> None:
        self.rule(choice, head, body)


SUCCESSOR_BATCH = 64  # states a game played one state at a time grounds in one program (GdlState.successors)
_FLUENT, _LEGAL, _GOAL, _TERMINAL, _NEW, _GONE, _SEES = range(7)  # _NEW, _GONE: a batch's changes (gdl_batch.lp)
# _SEES: a GDL-II percept of the joint move that led to the state
_Move = tuple  # (rank among the role's legal moves, move symbol, what a query needs of it or None if not in input)


class _GroundOnce:
    """The game grounded once: a state is the program literals of its fluents' `true/1` externals."""

    def __init__(self, game: GdlGame):
        self.game = game
        names = game.names
        program = game.program
        ground = GroundProgram([
            rules_to_asp(program, names), lookahead_to_asp(program, names),
            lp_file("gdl_state.lp"), external_domain(program, names),
            "#show sees/2.\n" if game.perceives else "",  # GDL-II: the joint move's percepts, with its successor
        ])
        self._ground = ground
        self._literal = {atom.arguments[0]: lit for atom, lit in ground.externals("true", 1).items()}
        self._fluent = {lit: f for f, lit in self._literal.items()}
        does = {(a.arguments[0], a.arguments[1]): lit for a, lit in ground.externals("does", 2).items()}
        self._start = frozenset(ground.externals("gdl_start", 0).values())
        # What each shown atom means, worked out once so that reading a model decodes no symbol.
        role_index = {r: i for i, r in enumerate(game._role_symbols)}
        self._meaning: dict[clingo.Symbol, tuple] = {}
        for atom in ground.atoms("gdl_state", 1):
            self._meaning[atom] = (_FLUENT, self._literal.get(atom.arguments[0]), atom.arguments[0])
        for rank, atom in enumerate(ground.atoms("gdl_a_legal", 2)):
            role, move = atom.arguments
            if role in role_index:
                self._meaning[atom] = (_LEGAL, role_index[role], (rank, move, does.get((role, move))))
        for atom in ground.atoms("gdl_a_goal", 2):
            role, value = atom.arguments
            if role in role_index:
                self._meaning[atom] = (_GOAL, role_index[role], value)
        self._meaning[clingo.Function("gdl_a_terminal")] = (_TERMINAL,)
        for atom in ground.atoms("sees", 2) if game.perceives else ():
            role, percept = atom.arguments
            if role in role_index:
                self._meaning[atom] = (_SEES, role_index[role], percept)

    def initial(self) -> GdlState:
        state = self._solve(self._start)
        state._seen = ()  # no joint move led to it: no percepts (a rule reading no state or move holds here)
        return state

    def successor(self, key: frozenset[int], moves: Sequence) -> GdlState:
        """The state after the joint move whose `does` literals are `moves`."""
        return self._solve(key.union(moves))

    def fluents(self, key: frozenset[int]) -> Iterable[clingo.Symbol]:
        fluent = self._fluent
        return (fluent[lit] for lit in key)

    def _solve(self, literals: frozenset[int]) -> GdlState:
        """The state the externals `literals` lead to, with its legal moves, goals and terminal status."""
        roles = len(self.game.roles)
        legal: list[list[_Move]] = [[] for _ in range(roles)]
        goals: list[set] = [set() for _ in range(roles)]
        seen: list[set] | None = [set() for _ in range(roles)] if self.game.perceives else None
        fluents: list[int] = []
        outside_base: list[clingo.Symbol] = []
        terminal = False
        meaning = self._meaning
        for s in self._ground.solve(literals):
            m = meaning.get(s)
            if m is None:
                continue
            kind = m[0]
            if kind == _FLUENT:
                if m[1] is None:
                    outside_base.append(m[2])
                else:
                    fluents.append(m[1])
            elif kind == _LEGAL:
                legal[m[1]].append(m[2])
            elif kind == _GOAL:
                goals[m[1]].add(m[2])
            elif kind == _SEES:
                seen[m[1]].add(m[2])
            else:
                terminal = True
        if outside_base:
            raise GdlError(_not_in_base(self.game, outside_base))
        return GdlState(self.game, frozenset(fluents), tuple(tuple(sorted(moves)) for moves in legal),
                        tuple(frozenset(g) for g in goals), terminal,
                        () if seen is None else tuple(frozenset(p) for p in seen))


class _PerState:
    """The game grounded one state at a time (tgpl.asp.per_state): a state is the set of its fluents'
    clingo symbols. A query's model is read by name, as no atom is known before its grounding.

    Legal moves are sorted by their symbols, which is the order of the `gdl_a_legal(R,M)` atoms the
    grounded-once mode ranks them by (same predicate, same role: the move decides): seeded playouts
    pick the same moves in both modes.
    """

    def __init__(self, game: GdlGame, max_ground: int | None):
        self.game = game
        self.max_ground = max_ground  # None: the game's bound bounds each state, no state is estimated
        self._alone_queries: StateQueries | None = None  # made when first asked for (`_queries`)
        self._role_index = {r: i for i, r in enumerate(game._role_symbols)}
        self._declared: tuple[frozenset | None, frozenset | None] | None = None
        self._true: dict[clingo.Symbol, clingo.Symbol] = {}
        self._does: dict[tuple[clingo.Symbol, clingo.Symbol], clingo.Symbol] = {}
        self._meaning: dict[clingo.Symbol, tuple] = {}  # shown atom -> (kind, ...), as _GroundOnce's
        self._order: dict[clingo.Symbol, int] = {}  # every legal move seen -> its rank in clingo's order
        self._handles: dict[clingo.Symbol, dict] = {}  # role -> its legal moves seen -> what a query needs of each
        self._known: list[clingo.Symbol] = []  # every legal move seen, in clingo's order (found by bisection:
        # chess meets new moves in most of its first thousand states, and sorting them all each time cost 1.2 ms
        # a state, a fifth of its grounding)
        self._counted = False  # queries are grounded with their rules counted, not bounded first (`_check`)
        self._batch: BatchQueries | None = None  # made when first asked for (`states`)

    @property
    def _queries(self) -> StateQueries:
        """The program of a query posed alone, parsed when first asked for: where no state is bounded before it
        grounds, the initial state is a batch's query, and a caller that poses only batches (the translation
        validation) never parses it (0.2 s for chess)."""
        if self._alone_queries is None:
            self._alone_queries = StateQueries(self.game.program, self.game.names)
        return self._alone_queries

    def initial(self) -> GdlState:
        if self.max_ground is None:
            state = self.states([None])[0]
            if isinstance(state, GdlError):
                raise state
            return state
        limit = self._check(frozenset(), ())
        state = self._read(self._solve([START], limit, ()))
        state._seen = ()  # no joint move led to it: no percepts
        return state

    def states(self, queries: Sequence[tuple[frozenset[clingo.Symbol], Sequence[tuple]] | None]
               ) -> list[GdlState | GdlError]:
        """Each query's state (None: the initial state; else a state's fluents and a joint move, as `successor`
        takes them), grounded together (tgpl.asp.per_state.BatchQueries); a query that fails gives its error.

        The batch's grounding is counted against max_ground, as one query's is (a batch holds what one large
        state may); past that, each query is posed on its own, so that a query over the limit is refused as
        `successor` refuses it and the others are answered."""
        if not queries:
            return []
        if self.max_ground is not None and not self._counted:
            # each query is bounded before it grounds, and grounded uncounted within its bound: counting a batch
            # instead (a Python call per ground rule) made the 59x59 board's verify take 6.4 minutes, not 3.9.
            # Once a bound is over the limit, queries are counted anyway (`_check`): the rest go as a batch
            out = []
            for k, query in enumerate(queries):
                if self._counted:
                    return out + self.states(queries[k:])
                out.append(self._alone(query))
            return out
        counter = None if self.max_ground is None else GroundLimit(self.max_ground)
        try:
            answers = self.batch().solve(queries, counter)
        except GroundLimit.Over:
            return [self._alone(query) for query in queries]
        return [state_or_error(self._read, answer, _given(q)) for answer, q in zip(answers, queries)]

    def states_later(self, queries: Sequence[tuple[frozenset[clingo.Symbol], Sequence[tuple]] | None]
                     ) -> Callable[[], list[GdlState | GdlError]]:
        """`states`, its batch grounded by the workers while this process goes on (BatchQueries.later). Queries
        counted against max_ground are answered as `states` answers them, when asked for."""
        if not queries or self.max_ground is not None:
            return lambda: self.states(queries)
        answers = self.batch().later(queries)
        return lambda: [state_or_error(self._read, answer, _given(q)) for answer, q in zip(answers(), queries)]

    def batch(self) -> BatchQueries:
        """The program of batched queries, parsed when first asked for."""
        if self._batch is None:
            self._batch = BatchQueries(self.game.program, self.game.names)
        return self._batch

    def _alone(self, query: tuple[frozenset[clingo.Symbol], Sequence[tuple]] | None) -> GdlState | GdlError:
        return state_or_error(self.initial) if query is None else state_or_error(self.successor, *query)

    def successor(self, key: frozenset[clingo.Symbol], moves: Sequence[tuple]) -> GdlState:
        """The state after the joint move `moves`, (role symbol, move symbol) per role."""
        limit = self._check(key, moves)
        facts = [self._true_fact(f) for f in key]
        facts += [self._does_fact(move) for move in moves]
        return self._read(self._solve(facts, limit, moves))

    def _solve(self, facts: list, limit: int | None, moves: Sequence[tuple]) -> list[clingo.Symbol]:
        """The query's answer; with `limit`, its grounding counted and stopped past that many ground rules."""
        if limit is None:
            return self._queries.solve(facts)
        counter = GroundLimit(limit)
        try:
            return self._queries.solve(facts, counter)
        except GroundLimit.Over:
            which = "the initial state" if not moves else "the state after this joint move"
            raise StateTooLarge(f"grounding {which} passed {limit:,} ground rules, the most a state may have "
                                "(--max-ground): stopped") from None

    def fluents(self, key: frozenset[clingo.Symbol]) -> Iterable[clingo.Symbol]:
        return key

    def _true_fact(self, fluent: clingo.Symbol) -> clingo.Symbol:
        made = self._true.get(fluent)
        if made is None:
            made = self._true[fluent] = clingo.Function("true", [fluent])
        return made

    def _does_fact(self, move: tuple) -> clingo.Symbol:
        made = self._does.get(move)
        if made is None:
            made = self._does[move] = clingo.Function("does", list(move))
        return made

    def _check(self, key: frozenset[clingo.Symbol], moves: Sequence[tuple]) -> int | None:
        """The limit the query's grounding is counted against, or None where its bound says it is within
        max_ground. The bound is an over-approximation, far too large for rules whose relations are asked only
        for what the state holds (chess's, 10^12 for 16,000 ground rules): such a query is grounded with its
        ground rules counted, and stopped once they pass max_ground (`GroundLimit`)."""
        if self.max_ground is None:
            return None
        if self._counted:  # the bound was over the limit for a state that grounded within it: counting is cheaper
            return self.max_ground
        term = self.game.names.term
        bound = self._queries.bound([term(f) for f in key], [(term(r), term(m)) for r, m in moves])
        if bound is not None and bound <= self.max_ground:
            return None
        self._counted = True
        return self.max_ground

    def _read(self, symbols: list[clingo.Symbol] | list[str], given: frozenset[clingo.Symbol] | None = None
              ) -> GdlState:
        """The state a query's model describes; `given`, the fluents of the state a batch's query gave, of
        which its answer shows what changed (gdl_batch.lp). What each shown atom means is decoded once, when
        first seen, and kept: states repeat most of their predecessors' atoms, and clingo's symbols are slow
        to take apart from Python."""
        roles = len(self.game.roles)
        legal: list[list[clingo.Symbol]] = [[] for _ in range(roles)]
        goals: list[set] = [set() for _ in range(roles)]
        seen: list[set] | None = [set() for _ in range(roles)] if self.game.perceives else None
        fluents: list[clingo.Symbol] = []
        gone: list[clingo.Symbol] = []
        terminal = False
        meaning = self._meaning
        for s in symbols:
            m = meaning.get(s)
            if m is None:  # a batch answers with texts (tgpl.asp.per_state.BatchQueries.solve)
                m = meaning[s] = self._decode(clingo.parse_term(s) if isinstance(s, str) else s)
            kind = m[0]
            if kind == _FLUENT or kind == _NEW:
                fluents.append(m[1])
            elif kind == _LEGAL:
                legal[m[1]].append(m[2])
            elif kind == _GOAL:
                goals[m[1]].add(m[2])
            elif kind == _TERMINAL:
                terminal = True
            elif kind == _GONE:
                gone.append(m[1])
            elif kind == _SEES and seen is not None:
                seen[m[1]].add(m[2])
        state = frozenset(fluents) if given is None else given.difference(gone).union(fluents)
        base, inputs = self.declared()
        if base is not None and not state <= base:
            raise GdlError(_not_in_base(self.game, [f for f in state if f not in base]))
        moves = tuple(self._moves(role, ms, inputs) for role, ms in zip(self.game._role_symbols, legal))
        return GdlState(self.game, state, moves, tuple(frozenset(g) for g in goals), terminal,
                        () if seen is None else tuple(frozenset(p) for p in seen))

    def _decode(self, s: clingo.Symbol) -> tuple:
        name = s.name
        if name == "gdl_state":
            return (_FLUENT, s.arguments[0])
        if name == "gdl_new":
            return (_NEW, s.arguments[0])
        if name == "gdl_gone":
            return (_GONE, s.arguments[0])
        if name in ("gdl_a_legal", "gdl_a_goal"):
            role, value = s.arguments
            i = self._role_index.get(role)
            if i is not None:
                return (_LEGAL, i, value) if name == "gdl_a_legal" else (_GOAL, i, value)
        elif name == "gdl_a_terminal":
            return (_TERMINAL,)
        elif name == "sees":
            role, percept = s.arguments
            i = self._role_index.get(role)
            if i is not None:
                return (_SEES, i, percept)
        return (None,)

    def _moves(self, role: clingo.Symbol, moves: list[clingo.Symbol], inputs: frozenset | None) -> tuple[_Move, ...]:
        """A role's legal moves in clingo's symbol order, each with its rank in it and what a query needs of it."""
        order = self._order
        ranks = [order.get(m) for m in moves]
        if None in ranks:  # rare after the first states: each new move put in its place, the ranks counted again
            known = self._known
            for m in {m for m, rank in zip(moves, ranks) if rank is None}:
                bisect.insort(known, m)
            order.clear()
            order.update((m, i) for i, m in enumerate(known))
            ranks = [order[m] for m in moves]
        handles = self._handles.get(role)
        if handles is None:
            handles = self._handles[role] = {}
        out = []
        for rank, (_, m) in enumerate(sorted(zip(ranks, moves))):  # ranks differ: symbols are never compared
            handle = handles.get(m, _UNSEEN)
            if handle is _UNSEEN:  # looked up in `input` once a move: a pair of symbols hashes and compares in Python
                handle = handles[m] = (role, m) if inputs is None or (role, m) in inputs else None
            out.append((rank, m, handle))
        return tuple(out)

    def declared(self) -> tuple[frozenset | None, frozenset | None]:
        """The game's `base` fluents and `input` (role, move) pairs; None for one the game leaves out.

        What the grounded-once mode makes externals of: a fluent outside base or a legal move outside
        input is the same error here. Static, so solved once, when first needed (after the first
        state's bound: a refused game grounds nothing).
        """
        if self._declared is None:
            program = self.game.program
            defined = program.defined()
            base = inputs = None
            if "base" in defined or "input" in defined:
                needed = DependencyGraph.of(program).needed(("base", "input"))
                rules = Program(tuple(r for r in program.rules if r.head.relation in needed))
                found = answer_set([rules_to_asp(rules, self.game.names), lp_file("gdl_declared_domain.lp")])
                if "base" in defined:
                    base = frozenset(s.arguments[0] for s in found if s.name == "gdl_fluent")
                if "input" in defined:
                    inputs = frozenset((s.arguments[0], s.arguments[1]) for s in found if s.name == "gdl_move")
            self._declared = (base, inputs)
        return self._declared


_UNSEEN = object()
"""What `_PerState._moves` finds of a move it has not seen."""


def _given(query: tuple[frozenset[clingo.Symbol], Sequence[tuple]] | None) -> frozenset[clingo.Symbol] | None:
    """The fluents of the state a batch's query gave (None: the initial state's query)."""
    return None if query is None else query[0]


def state_or_error(make: Callable[..., GdlState], *args) -> GdlState | GdlError:
    """The state `make(*args)` gives, or the GdlError it raises: what a batch answers each query with."""
    try:
        return make(*args)
    except GdlError as e:
        return e


class GdlState:
    """A game state: the set of its true fluents. Immutable; `apply` returns a new one."""

    __slots__ = ("game", "_key", "_legal", "_goals", "_terminal", "_seen")

    def __init__(self, game: GdlGame, key: frozenset, legal: tuple[tuple[_Move, ...], ...],
                 goals: tuple[frozenset[clingo.Symbol], ...], terminal: bool,
                 seen: tuple[frozenset[clingo.Symbol], ...] = ()):
        # Made only by the game's queries, which answer everything about a state at once.
        self.game = game
        self._seen = seen  # GDL-II: per role, the percepts of the joint move that made this state
        self._key = key  # the true fluents: program literals (grounded once) or symbols (per state)
        self._legal = legal  # per role, sorted by the rank of the legal atom: deterministic
        self._goals = goals
        self._terminal = terminal

    @property
    def is_terminal(self) -> bool:
        return self._terminal

    @property
    def goals(self) -> list[int | None]:
        """Each role's goal value in role order; None where the state gives a role none."""
        return self.goals_of(range(len(self.game.roles)))

    def goals_of(self, indices: Iterable[int]) -> list[int | None]:
        """`goals` of the roles at these indices only: a GDL-II game's players, whose goals do not depend on
        what a rule such as `(<= (goal ?r 0) (role ?r) ...)` gives the chance role."""
        out: list[int | None] = []
        for i in indices:
            role, values = self.game.roles[i], self._goals[i]
            if len(values) > 1:
                raise GdlError(f"role {role} has several goal values: {', '.join(sorted(map(str, values)))}")
            value = next(iter(values)) if values else None
            if value is not None and value.type is not clingo.SymbolType.Number:
                raise GdlError(f"goal value '{self.game.names.term(value)}' of role {role} is not an integer")
            out.append(value.number if value is not None else None)
        return out

    @property
    def seen(self) -> tuple[frozenset[Term], ...]:
        """GDL-II: per role in role order, what `sees` gave it for the joint move that led to this state (empty
        sets for the initial state and in a game without `sees`). Not part of the state: `key()` and equality
        ignore it, as the same state reached by two moves may come with different percepts."""
        term = self.game.names.term
        if not self._seen:
            return tuple(frozenset() for _ in self.game.roles)
        return tuple(frozenset(term(p) for p in ps) for ps in self._seen)

    def goal(self, role: Term | str) -> int | None:
        return self.goals[self.game.role(role)]

    def legal_moves(self, role: Term | str | None = None) -> list:
        """The legal moves of `role`, or with no role every legal joint move (in role order).

        Empty in a terminal state, as with runtime states (GDL leaves `legal` there meaningless).
        """
        if self._terminal:
            return []
        term = self.game.names.term
        if role is not None:
            return [term(m[1]) for m in self._legal[self.game.role(role)]]
        return [tuple(term(m[1]) for m in joint) for joint in itertools.product(*self._legal)]

    def joint_moves(self) -> list[JointMove]:
        return self.legal_moves()

    # --------------------------------------------------------------- moves
    def apply(self, move: Sequence[Term | str] | Mapping[Term | str, Term | str]) -> GdlState:
        """The state after a joint move: one move per role in role order, or a role -> move mapping."""
        game = self.game
        count = len(game.roles)
        if isinstance(move, Mapping):
            by_role = {game.role(r): m for r, m in move.items()}
            move = [by_role[i] for i in range(count) if i in by_role]
        if isinstance(move, (str, Const, Func, Var)) or len(move) != count:
            raise IllegalMove(f"a joint move needs a move for each of the {count} roles, in role order")
        if self._terminal:
            raise IllegalMove("the game is over")
        joint = []
        for i, m in enumerate(move):
            term = read_term(m) if isinstance(m, str) else m
            sym = game.names.symbol(term)
            found = next((entry for entry in self._legal[i] if entry[1] == sym), None)
            if found is None:
                raise IllegalMove(f"'{term}' is not a legal move for {game.roles[i]}")
            joint.append(found)
        return self._next(joint)

    def _next(self, joint: Sequence[_Move]) -> GdlState:
        return self.game._queries.successor(self._key, self._handles(joint))

    def _handles(self, joint: Sequence[_Move]) -> list:
        """What a query needs of each role's move (a `does` literal or symbol pair)."""
        game = self.game
        moves = []
        for role, (_, sym, handle) in zip(game.roles, joint):
            if handle is None:
                raise GdlError(f"move {game.names.term(sym)} of {role} is not in input (input must list every move)")
            moves.append(handle)
        return moves

    def successors(self) -> list[tuple[JointMove, GdlState]]:
        """Every legal joint move, in `legal_moves()` order, with the state it leads to (none in a terminal
        state). Raises the first one's error, as `apply` would (StateTooLarge, a move outside `input`)."""
        if self._terminal:
            return []
        joints = list(itertools.product(*self._legal))
        term = self.game.names.term
        return list(zip([tuple(term(m[1]) for m in joint) for joint in joints], self._after(joints)))

    def _after(self, joints: list[Sequence[_Move]]) -> list[GdlState]:
        """The states after these legal joint moves. Played one state at a time, they are grounded
        SUCCESSOR_BATCH at a time in one program (per_state.BatchQueries), not one grounding each: a query's
        grounding costs much the same whatever the state holds, most of it clingo preparing the rules."""
        if not self.game.batches:
            return [self._next(joint) for joint in joints]
        queries = self.game._queries
        assert isinstance(queries, _PerState)
        out = []
        for k in range(0, len(joints), SUCCESSOR_BATCH):
            for state in queries.states([(self._key, self._handles(joint)) for joint in joints[k:k + SUCCESSOR_BATCH]]):
                if isinstance(state, GdlError):
                    raise state
                out.append(state)
        return out

    # --------------------------------------------------------------- views
    @property
    def fluents(self) -> frozenset[Term]:
        """The true fluents, as terms."""
        term = self.game.names.term
        return frozenset(term(f) for f in self.game._queries.fluents(self._key))

    def fluent_texts(self) -> frozenset[str]:
        """The true fluents' KIF texts (`str` of each of `fluents`), each symbol's text made once."""
        text = self.game.names.text
        return frozenset(text(f) for f in self.game._queries.fluents(self._key))

    def key(self) -> frozenset:
        """Hashable, equal for equal states of one game: its true fluents, as the program literals of their
        externals (grounded once) or as clingo symbols (per state)."""
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GdlState) and other.game is self.game and other._key == self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __str__(self) -> str:
        return "\n".join(sorted(f"(true {f})" for f in self.fluents))


def external_domain(program: Program, names: ClingoNames) -> str:
    """What makes the externals: base/input when declared, else the relaxed game's reach.

    The facts `gdl_fluent/1` and `gdl_move/2` that gdl_state.lp makes `true/1` and `does/2`
    externals over (tgpl.asp.ground_size grounds a game the same way).
    """
    defined = program.defined()
    if "base" in defined and "input" in defined:
        return lp_file("gdl_declared_domain.lp")
    # the relaxed game is recursive through true: rules_to_asp joins its tables away (tgpl.asp.tables)
    reach = relaxed_model(program, names)
    lines = []
    if "base" in defined:
        lines.append("gdl_fluent(F) :- base(F).")
    else:
        lines += [f"gdl_fluent({s.arguments[0]})." for s in reach if s.name == "true"]
    if "input" in defined:
        lines.append("gdl_move(R,M) :- input(R,M).")
    else:
        lines += [f"gdl_move({s.arguments[0]},{s.arguments[1]})." for s in reach if s.name == "does"]
    return "\n".join(lines) + "\n"


def _not_in_base(game: GdlGame, fluents) -> str:
    shown = ", ".join(sorted(str(game.names.term(f)) for f in fluents))
    return f"fluents not in base: {shown} (base must list every fluent that can be true)"


def explore(game: GdlGame, limit: int = 1_000_000) -> dict:
    """Every reachable state, breadth first, up to `limit` states.

    `states` counts distinct states (the initial one included), `terminal`
    those that end the game, `transitions` the joint moves tried, `outcomes`
    the terminal states by goal values (a tuple in role order).
    """
    start = game.initial_state()
    seen = {start.key()}
    frontier = deque([start])
    terminal = transitions = 0
    outcomes: dict[tuple, int] = {}

    def result(complete: bool) -> dict:
        return {"states": len(seen), "terminal": terminal, "complete": complete, "transitions": transitions,
                "outcomes": outcomes}

    while frontier:
        state = frontier.popleft()
        if state._terminal:
            terminal += 1
            goals = tuple(state.goals)
            outcomes[goals] = outcomes.get(goals, 0) + 1
            continue
        for nxt in state._after(list(itertools.product(*state._legal))):
            transitions += 1
            k = nxt.key()
            if k not in seen:
                if len(seen) >= limit:
                    return result(False)
                seen.add(k)
                frontier.append(nxt)
    return result(True)


def read_gdl(path: str | Path, max_ground: int | None = MAX_GROUND,
             grounding: str = "once") -> tuple[Program, list[Diagnostic]]:
    """A valid GDL program from a KIF file, with the validator's warnings.

    Raises GdlLoadError with every diagnostic when the file cannot be read, is
    not KIF, is not valid GDL, or cannot be grounded within `max_ground` ground
    instances as `grounding` says (tgpl.asp.validate: "once", the default, for the
    tools that ground the whole game, `tgpl to-asp` and bounded verification; a
    game to play may be "auto" or "per-state").
    """
    name = str(path)
    try:
        program, text = read_kif_file(path)
    except KifError as e:
        raise GdlLoadError(e.diagnostics, _source(path)) from None
    except UnreadableFile as e:
        diagnostic = Diagnostic(Severity.ERROR, Span(name, 1, 1, 1, 1), f"cannot read '{name}': {e.reason}")
        raise GdlLoadError([diagnostic], {}) from None
    diagnostics = validate(program, name, max_ground, grounding)
    if any(d.is_error for d in diagnostics):
        raise GdlLoadError(diagnostics, {name: text})
    return program, diagnostics


def _source(path: str | Path) -> dict[str, str]:
    text = read_source_or_none(path, MAX_GDL_BYTES)
    return {} if text is None else {str(path): text}


__all__ = ["read_gdl", "GdlGame", "GdlState", "GdlLoadError", "GdlError", "IllegalMove", "StateTooLarge", "JointMove",
           "MODES", "grounding_mode", "explore"]
