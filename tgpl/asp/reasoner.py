"""A GDL game as a state machine on clingo: ground once, then assign externals.

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
"""

from __future__ import annotations

import itertools
from collections import deque
from pathlib import Path
from typing import Mapping, Sequence

import clingo

from tgpl.frontend.diagnostics import Diagnostic, Severity, Span, render_all
from tgpl.frontend.sources import MAX_GDL_BYTES, UnreadableFile, read_source_or_none
from tgpl.lowering.ir import Const, Func, Program, Term, Var
from tgpl.asp.gdl_to_asp import ClingoNames, lookahead_to_asp, rules_to_asp
from tgpl.asp.kif import KifError, read_kif, read_kif_file, read_term
from tgpl.asp.estimate import MAX_GROUND
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


class GdlGame:
    """A GDL game grounded on clingo; `initial_state()` starts playing it."""

    def __init__(self, program: Program):
        self.program = program
        self.warnings: list[Diagnostic] = []  # the validator's, when loaded from a file
        self.names = ClingoNames()
        self.roles: tuple[Term, ...] = tuple(dict.fromkeys(a.args[0] for a in program.facts("role") if a.args))
        self._role_symbols = tuple(self.names.symbol(r) for r in self.roles)
        ground = GroundProgram([
            rules_to_asp(program, self.names), lookahead_to_asp(program, self.names),
            lp_file("gdl_state.lp"), external_domain(program, self.names),
        ])
        self._ground = ground
        # A state is the set of program literals of its true fluents' externals.
        self._literal = {atom.arguments[0]: lit for atom, lit in ground.externals("true", 1).items()}
        self._fluent = {lit: f for f, lit in self._literal.items()}
        does = {(a.arguments[0], a.arguments[1]): lit for a, lit in ground.externals("does", 2).items()}
        start = ground.externals("gdl_start", 0)
        self._start = frozenset(start.values())
        # What each shown atom means, worked out once so that reading a model decodes no symbol.
        role_index = {r: i for i, r in enumerate(self._role_symbols)}
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
        self._initial: GdlState | None = None

    # ------------------------------------------------------------ loading
    @classmethod
    def load(cls, path: str | Path, max_ground: int | None = MAX_GROUND) -> GdlGame:
        """Read and validate a KIF file; raise GdlLoadError with every diagnostic if it is not valid GDL
        or its rules can have more than `max_ground` ground instances (tgpl.asp.estimate)."""
        program, warnings = read_gdl(path, max_ground)
        game = cls(program)
        game.warnings = warnings
        return game

    @classmethod
    def from_text(cls, text: str, path: str = "<string>", max_ground: int | None = MAX_GROUND) -> GdlGame:
        """The game in a KIF text (tests, generated games); validated like `load`."""
        try:
            program = read_kif(text, path)
        except KifError as e:
            raise GdlLoadError(e.diagnostics, {path: text}) from None
        return cls._checked(program, path, text, max_ground)

    @classmethod
    def _checked(cls, program: Program, path: str, text: str, max_ground: int | None = MAX_GROUND) -> GdlGame:
        diagnostics = validate(program, path, max_ground)
        if any(d.is_error for d in diagnostics):
            raise GdlLoadError(diagnostics, {path: text})
        game = cls(program)
        game.warnings = diagnostics
        return game

    # ------------------------------------------------------------ playing
    def initial_state(self) -> GdlState:
        """The state `init` describes (made once: states are immutable)."""
        if self._initial is None:
            self._initial = self._solve(self._start)
        return self._initial

    def _solve(self, literals: frozenset[int] | set[int]) -> GdlState:
        """The state the externals `literals` lead to, with its legal moves, goals and terminal status."""
        roles = len(self.roles)
        legal: list[list[_Move]] = [[] for _ in range(roles)]
        goals: list[set] = [set() for _ in range(roles)]
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
            else:
                terminal = True
        if outside_base:
            raise GdlError(_not_in_base(self, outside_base))
        return GdlState(self, frozenset(fluents), tuple(tuple(sorted(moves)) for moves in legal),
                        tuple(frozenset(g) for g in goals), terminal)

    def role(self, role: Term | str) -> int:
        """The index of a role, given as a term or as its KIF text."""
        for i, r in enumerate(self.roles):
            if r == role or str(r) == str(role).lower():
                return i
        raise KeyError(f"no role '{role}'; the roles are {', '.join(map(str, self.roles))}")


_FLUENT, _LEGAL, _GOAL, _TERMINAL = range(4)
_Move = tuple  # (rank among legal atoms, move symbol, program literal of its does/2 external or None)


class GdlState:
    """A game state: the set of its true fluents. Immutable; `apply` returns a new one."""

    __slots__ = ("game", "_literals", "_legal", "_goals", "_terminal")

    def __init__(self, game: GdlGame, literals: frozenset[int], legal: tuple[tuple[_Move, ...], ...],
                 goals: tuple[frozenset[clingo.Symbol], ...], terminal: bool):
        # Made only by the game's queries, which answer everything about a state at once.
        self.game = game
        self._literals = literals  # of the true/1 externals of the true fluents
        self._legal = legal  # per role, sorted by the rank of the legal atom: deterministic
        self._goals = goals
        self._terminal = terminal

    @property
    def is_terminal(self) -> bool:
        return self._terminal

    @property
    def goals(self) -> list[int | None]:
        """Each role's goal value in role order; None where the state gives a role none."""
        out: list[int | None] = []
        for role, values in zip(self.game.roles, self._goals):
            if len(values) > 1:
                raise GdlError(f"role {role} has several goal values: {', '.join(sorted(map(str, values)))}")
            value = next(iter(values)) if values else None
            if value is not None and value.type is not clingo.SymbolType.Number:
                raise GdlError(f"goal value '{self.game.names.term(value)}' of role {role} is not an integer")
            out.append(value.number if value is not None else None)
        return out

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
        game = self.game
        literals = set(self._literals)
        for role, (_, sym, lit) in zip(game.roles, joint):
            if lit is None:
                raise GdlError(f"move {game.names.term(sym)} of {role} is not in input (input must list every move)")
            literals.add(lit)
        return game._solve(literals)

    # --------------------------------------------------------------- views
    @property
    def fluents(self) -> frozenset[Term]:
        """The true fluents, as terms."""
        term, fluent = self.game.names.term, self.game._fluent
        return frozenset(term(fluent[lit]) for lit in self._literals)

    def key(self) -> frozenset[int]:
        """Hashable, equal for equal states of one game: its true fluents (as clingo literals)."""
        return self._literals

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GdlState) and other.game is self.game and other._literals == self._literals

    def __hash__(self) -> int:
        return hash(self._literals)

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
    reach = answer_set([rules_to_asp(program, names, drop_negation=True), lp_file("gdl_relaxed_domain.lp")])
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
        for joint in itertools.product(*state._legal):
            nxt = state._next(joint)
            transitions += 1
            k = nxt.key()
            if k not in seen:
                if len(seen) >= limit:
                    return result(False)
                seen.add(k)
                frontier.append(nxt)
    return result(True)


def read_gdl(path: str | Path, max_ground: int | None = MAX_GROUND) -> tuple[Program, list[Diagnostic]]:
    """A valid GDL program from a KIF file, with the validator's warnings.

    Raises GdlLoadError with every diagnostic when the file cannot be read, is
    not KIF, is not valid GDL, or its rules can have more than `max_ground`
    ground instances (tgpl.asp.estimate: every user of the program grounds it).
    For tools that need the rules, not a game to play (`tgpl to-asp`, bounded
    verification).
    """
    name = str(path)
    try:
        program, text = read_kif_file(path)
    except KifError as e:
        raise GdlLoadError(e.diagnostics, _source(path)) from None
    except UnreadableFile as e:
        diagnostic = Diagnostic(Severity.ERROR, Span(name, 1, 1, 1, 1), f"cannot read '{name}': {e.reason}")
        raise GdlLoadError([diagnostic], {}) from None
    diagnostics = validate(program, name, max_ground)
    if any(d.is_error for d in diagnostics):
        raise GdlLoadError(diagnostics, {name: text})
    return program, diagnostics


def _source(path: str | Path) -> dict[str, str]:
    text = read_source_or_none(path, MAX_GDL_BYTES)
    return {} if text is None else {str(path): text}


__all__ = ["read_gdl", "GdlGame", "GdlState", "GdlLoadError", "GdlError", "IllegalMove", "JointMove", "explore"]
