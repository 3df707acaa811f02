"""GDL-II games explored and analysed: `random` as chance nodes, `sees` as what each player can tell apart.

A GDL-II game (tgpl.asp.validate, docs/gdl.md "GDL-II") has the chance role `random`, which picks uniformly
among its legal moves, and percepts (`sees`): a player knows the initial state, its own moves and its
percepts, nothing more. `GdlIIMachine` is the reasoner as a `tgpl.verify.graph.Machine` whose roles are the
players only: random's move is part of each joint move's text but no role's entry, so the graph's forcing
analyses (`tgpl.verify.graph.Forcing`) read "whatever chance does", and random's lack of a goal is no
problem. Each edge's joint move ends with a `Chance` entry (random's move and every player's percepts),
past the players' entries, which the graph's analyses never read; the functions here do:

- `expected_goals`: each player's expected goal under optimal play **with every role seeing the whole
  state** (expectimax: random's moves averaged, the one player to move maximising its own expectation).
  It is not the game's value where information is hidden, and the report says so.
- `hidden_information`: for each player, a state and two joint moves it cannot tell apart (the same own
  move, the same percepts, different successors), with the moves that reach the state; none for a player
  that always knows the whole state (by induction from the known initial state, this check is exact).
- `one_player_value`: for a game with one player (and chance), the game's value under imperfect
  information: expectimax over the player's information sets (the states it cannot tell apart, weighted by
  their probabilities), exact in fractions. Monty Hall: 2/3 of 100.
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, Sequence

from tgpl.asp.reasoner import GdlError, GdlGame, GdlState, IllegalMove
from tgpl.asp.verify import GdlMachine
from tgpl.verify.expectation import endless
from tgpl.verify.expectation import expected_goals as iterated_goals
from tgpl.verify.graph import Graph, Info


def is_gdl_ii(game: GdlGame) -> bool:
    """Whether the game uses GDL-II: the chance role `random`, or percepts (`sees`)."""
    return game.chance is not None or game.perceives


@dataclass(frozen=True)
class Chance:
    """The last entry of a GDL-II joint move in a graph: random's move (None in a game without random) and each
    player's percepts of the move (sorted texts, in the players' order; empty in a game without `sees`)."""
    move: str | None
    seen: tuple[tuple[str, ...], ...]


class GdlIIMachine(GdlMachine):
    """A GDL-II game's states, its players as the roles (random left out, see the module's docstring)."""

    def __init__(self, game: GdlGame):
        super().__init__(game)
        self.players = [i for i in range(len(game.roles)) if i != game.chance]
        self.roles = [str(game.roles[i]) for i in self.players]
        self.asked = 0  # the states asked about so far: explore numbers states in the order it asks for them
        self.chance_stuck: list[int] = []  # those (by that number) where random has no legal move
        # `tgpl compare`'s: a state where random alone moves and every move of its gives the same state is
        # passed through (a lowered game with secrets throws its die after every move of an action, and where
        # the runtime draws nothing, its face changes nothing: tgpl.lowering.percepts)
        self.skip_idle = False

    def info(self, state: GdlState, successors: bool = True) -> Info:
        players = self.players
        self.asked += 1
        if state.is_terminal:
            try:
                return Info(True, state.goals_of(players), (), (), [])
            except GdlError as e:
                return Info(True, [None] * len(players), (), (), [], str(e))
        per_role = [[str(m) for m in state.legal_moves(r)] for r in self.game.roles]
        movers = tuple(k for k, i in enumerate(players) if per_role[i] != ["noop"])
        stuck = tuple(k for k, i in enumerate(players) if not per_role[i])
        chance = self.game.chance
        if chance is not None and not per_role[chance]:
            self.chance_stuck.append(self.asked - 1)
        out = []
        text = self.game.names.text  # a percept's text made once per symbol
        for joint, after in state.successors() if successors else ():
            texts = tuple(str(m) for m in joint)
            entries = tuple(texts[i] if k in movers else None for k, i in enumerate(players))
            percepts = after._seen
            seen = tuple(tuple(sorted(map(text, percepts[i]))) if percepts else () for i in players)
            extra = Chance(texts[chance] if chance is not None else None, seen)
            if self.skip_idle:
                after = self._past_idle(after)
            out.append((" | ".join(texts), entries + (extra,), after))
        return Info(False, [], movers, stuck, out)


    def _past_idle(self, state: GdlState) -> GdlState:
        """The state after `state` where random alone moves there and all its moves give that one state;
        `state` otherwise (`skip_idle`)."""
        chance = self.game.chance
        if chance is None or state.is_terminal:
            return state
        if any(state.legal_moves(r) and [str(m) for m in state.legal_moves(r)] != ["noop"]
               for i, r in enumerate(self.game.roles) if i != chance):
            return state
        nxt = [after for _, after in state.successors()]
        if len(nxt) < 2 or len({self.key(a) for a in nxt}) != 1:
            return state
        return nxt[0]


# ------------------------------------------------------------ expectations
CYCLE = "a play can go on for ever"  # why `expected_goals` gives none on a graph with a cycle

@dataclass
class Expected:
    """`expected_goals`' answer: per player, an exact expected goal; or why there is none."""
    goals: list[Fraction] | None
    why: str | None = None


def expected_goals(g: Graph) -> Expected:
    """Each player's expected goal at the initial state, every role seeing the whole state: at a state where one
    player chooses, its move maximises its own expectation (the first best, in the order of the moves); random's
    moves count each 1/k of its k legal moves. Needs a complete, acyclic graph with one chooser per state."""
    n = len(g.roles)
    if not g.complete:
        return Expected(None, "the exploration is incomplete")
    value: list[list[Fraction] | None] = [None] * g.states
    done = [False] * g.states
    stack = [(0, False)]
    on_path = [False] * g.states
    while stack:
        v, expanded = stack.pop()
        if done[v]:
            continue
        if expanded:
            on_path[v] = False
            found = _state_value(g, v, value, n)
            if isinstance(found, str):
                return Expected(None, found)
            value[v] = found
            done[v] = True
            continue
        if on_path[v]:
            continue
        on_path[v] = True
        stack.append((v, True))
        for _, _, w in g.edges[v]:
            if on_path[w]:
                return Expected(None, CYCLE)
            if not done[w]:
                stack.append((w, False))
    return Expected(value[0])


def _state_value(g: Graph, v: int, value: list, n: int) -> list[Fraction] | str:
    if g.terminal[v]:
        goals = g.goals[v]
        if any(not isinstance(x, int) or isinstance(x, bool) for x in goals):
            return "a terminal state gives a player no goal"
        return [Fraction(x) for x in goals]
    if not g.edges[v]:
        return "a state has no joint move"
    groups: dict[tuple, list[int]] = {}
    for _, joint, w in g.edges[v]:
        groups.setdefault(joint[:n], []).append(w)
    choosers = {k for k in range(n) if len({key[k] for key in groups}) > 1}
    if len(choosers) > 1:
        return "players move at once (simultaneous moves have no single expectimax value)"
    options = [[sum((value[w][k] for w in ws), Fraction(0)) / len(ws) for k in range(n)] for ws in groups.values()]
    if not choosers:
        return options[0]
    chooser = choosers.pop()
    return max(options, key=lambda o: o[chooser])  # max keeps the first of equals


# ------------------------------------------------------------ hidden information
@dataclass
class Hidden:
    """A player cannot tell two joint moves of a state apart: the moves to the state, and the two moves."""
    player: str
    path: list[str]
    one: str
    other: str

    def to_json(self) -> dict:
        return {"player": self.player, "path": self.path, "one": self.one, "other": self.other}


def hidden_information(g: Graph) -> dict[str, Hidden | None]:
    """Per player, the first state (breadth first) with two joint moves it cannot tell apart, or None where it
    always knows the whole state. A player tells moves apart by its own move and its percepts; knowing the
    initial state, it knows every state iff no state has two such moves leading to different states."""
    n = len(g.roles)
    out: dict[str, Hidden | None] = {}
    for k, name in enumerate(g.roles):
        out[name] = None
        for v in range(g.expanded):
            seen: dict[tuple, tuple[str, int]] = {}
            for text, joint, w in g.edges[v]:
                chance = joint[n] if len(joint) > n else None
                told = (joint[k], chance.seen[k] if isinstance(chance, Chance) and chance.seen else ())
                first = seen.setdefault(told, (text, w))
                if first[1] != w:
                    out[name] = Hidden(name, g.path(v), first[0], text)
                    break
            if out[name] is not None:
                break
    return out


# ------------------------------------------------------------ one player's value
class TooManyBeliefs(Exception):
    """The information sets to evaluate are more than the budget allows."""


def one_player_value(g: Graph, budget: int = 100_000) -> Fraction:
    """The one player's expected goal under optimal play knowing only its own moves and percepts: expectimax
    over its information sets. An information set is the states it cannot tell apart, each with the
    probability of being there; its value is the terminal states' goals weighted so, plus the best move's
    value (a move legal in all of them), which sums the values of the sets each percept leads to. A player
    knows its legal moves (GDL-II's game master refuses illegal ones), so states with other legal moves are
    told apart. Raises TooManyBeliefs past `budget` information sets, ValueError on a graph it cannot use."""
    if len(g.roles) != 1:
        raise ValueError("one_player_value needs a game with one player")
    if not g.complete:
        raise ValueError("the exploration is incomplete")
    memo: dict[frozenset, Fraction] = {}

    def moves(v: int) -> dict[str | None, list[tuple[int, tuple]]]:
        by: dict[str | None, list[tuple[int, tuple]]] = {}
        for _, joint, w in g.edges[v]:
            chance = joint[1] if len(joint) > 1 else None
            seen = chance.seen[0] if isinstance(chance, Chance) and chance.seen else ()
            by.setdefault(joint[0], []).append((w, seen))
        return by

    def belief_value(belief: frozenset) -> Fraction:
        found = memo.get(belief)
        if found is not None:
            return found
        if len(memo) >= budget:
            raise TooManyBeliefs(f"more than {budget:,} information sets")
        total = Fraction(0)
        playing: dict[frozenset, list[tuple[int, Fraction]]] = {}  # the player's legal moves -> the states
        for v, p in belief:
            if g.terminal[v]:
                goal = g.goals[v][0]
                if not isinstance(goal, int):
                    raise ValueError("a terminal state gives the player no goal")
                total += p * goal
            else:
                options = moves(v)
                if not options:
                    raise ValueError("a state has no joint move")
                playing.setdefault(frozenset(options), []).append((v, p))
        for states in playing.values():
            best: Fraction | None = None
            for move in sorted(moves(states[0][0]), key=str):
                after: dict[tuple, dict[int, Fraction]] = {}
                for v, p in states:
                    edges = moves(v)[move]
                    for w, seen in edges:
                        bucket = after.setdefault(seen, {})
                        bucket[w] = bucket.get(w, Fraction(0)) + p / len(edges)
                worth = sum((belief_value(frozenset(b.items())) for b in after.values()), Fraction(0))
                best = worth if best is None or worth > best else best
            total += best or 0
        memo[belief] = total
        return total

    return belief_value(frozenset({(0, Fraction(1))}))


# ------------------------------------------------------------ verify's report
FULL_VIEW = "computed with every role seeing the whole state, not the game's value"
"""How `tgpl verify` labels a value of a game with hidden information (docs/verify.md)."""


def random_nodes(g: Graph) -> dict[int, list[Fraction]] | None:
    """The states where random alone moves (every player `noop`) as chance nodes, each of its k moves 1/k, as
    tgpl.verify.expectation reads them (`Graph.chance`); None where random moves along with a player somewhere
    (there a player's best move and random's outcome are one edge, which that module would let it choose)."""
    nodes: dict[int, list[Fraction]] = {}
    for v in range(g.expanded):
        if g.terminal[v] or not g.edges[v]:
            continue
        if not g.movers[v]:
            nodes[v] = [Fraction(1, len(g.edges[v]))] * len(g.edges[v])
        elif len({j[-1].move if isinstance(j[-1], Chance) else None for _, j, _ in g.edges[v]}) > 1:
            return None
    return nodes


def ends_by_chance(g: Graph) -> bool:
    """Whether every play of a complete graph whose cycles go through random's states ends with probability 1,
    whatever the players do (Pig's two busts in a row come back to a state: random leaves the cycle in time)."""
    nodes = random_nodes(g)
    return g.complete and bool(nodes) and not endless(replace(g, chance=nodes))


def report(g: Graph, game: GdlGame, budget: int = 100_000) -> dict:
    """The GDL-II part of `tgpl verify`'s report (JSON-ready): chance, the hidden information, the expected goals
    with every role seeing the whole state and, for one player, the value knowing only what it sees. A graph with
    cycles through random's states (`random_nodes`) gets its expected goals by value iteration
    (tgpl.verify.expectation), as floats; no exact fractions then."""
    hidden = hidden_information(g)
    expected = expected_goals(g)
    iterated = None
    if expected.goals is None and expected.why == CYCLE and g.complete:
        nodes = random_nodes(g)
        if nodes:
            iterated = iterated_goals(replace(g, chance=nodes))
    out: dict = {
        "chance": str(game.roles[game.chance]) if game.chance is not None else None,
        "percepts": game.perceives,
        "hidden": {k: (h.to_json() if h is not None else None) for k, h in hidden.items()},
        "expected_goals": None if expected.goals is None else
        {name: float(x) for name, x in zip(g.roles, expected.goals)},
        "expected_goals_exact": None if expected.goals is None else
        {name: str(x) for name, x in zip(g.roles, expected.goals)},
        "expected_goals_why": expected.why,
        "full_view": FULL_VIEW,
        "value_seen": None,
        "value_seen_why": None,
    }
    if iterated is not None and iterated.converged:
        out["expected_goals"] = {name: x for name, x in zip(g.roles, iterated.values)}
        out["expected_goals_why"] = None
        out["expected_goals_sweeps"] = iterated.sweeps  # value iteration: its cycles go through random's states
    if all(h is None for h in hidden.values()):
        out["value_seen_why"] = "no information is hidden: the expected goals are the game's"
    elif len(g.roles) != 1:
        out["value_seen_why"] = ("several players with hidden information: the game's value needs a solution concept "
                                 "(equilibria of the imperfect-information game) that tgpl does not compute")
    else:
        try:
            value = one_player_value(g, budget)
            out["value_seen"] = {g.roles[0]: float(value)}
            out["value_seen_exact"] = {g.roles[0]: str(value)}
        except (TooManyBeliefs, ValueError) as e:
            out["value_seen_why"] = str(e)
    return out


def report_lines(rep: dict) -> list[str]:
    """`report` as the lines `tgpl verify` prints under its summary."""
    lines = []
    if rep["chance"] is not None:
        lines.append(f"  chance: GDL-II role '{rep['chance']}' is a chance node (uniform over its legal moves); "
                     "forced wins hold whatever it does")
    for player, h in rep["hidden"].items():
        if h is None:
            lines.append(f"  hidden information: none for {player} (its moves and percepts always tell it the state)")
        else:
            at = " then ".join(h["path"]) if h["path"] else "the initial state"
            lines.append(f"  hidden information: {player} cannot tell '{h['one']}' from '{h['other']}' after {at}")
    hidden = any(h is not None for h in rep["hidden"].values())
    label = f" ({FULL_VIEW})" if hidden else ""
    if rep["expected_goals"] is not None:
        goals = ", ".join(f"{p}: {_number(x)}" for p, x in rep["expected_goals"].items())
        lines.append(f"  expected goals{label}: {goals}")
    else:
        lines.append(f"  expected goals: not computed ({rep['expected_goals_why']})")
    if rep["value_seen"] is not None:
        goals = ", ".join(f"{p}: {_number(x)}" for p, x in rep["value_seen"].items())
        lines.append(f"  value knowing only what it sees (optimal play over its information sets): {goals}")
    elif hidden:
        lines.append(f"  value knowing only what each sees: not computed ({rep['value_seen_why']})")
    return lines


def _number(x: float) -> str:
    return f"{x:.6g}"


# ------------------------------------------------------------ playouts
@dataclass
class Playouts:
    """Random playouts of a GDL(-II) game: how many, the goals' sums and squares per role, the outcomes."""
    roles: list[str]
    count: int
    finished: int
    goal_sum: list[int]
    goal_squares: list[int]
    outcomes: dict[tuple, int]
    moves: int

    def mean(self, k: int) -> float:
        return self.goal_sum[k] / self.finished if self.finished else float("nan")

    def interval(self, k: int, z: float = 2.5758293035489) -> tuple[float, float]:
        """A 99 % (z) normal interval for role k's mean goal."""
        m = self.finished
        if m < 2:
            return (float("nan"), float("nan"))
        mean = self.goal_sum[k] / m
        var = max(0.0, (self.goal_squares[k] - m * mean * mean) / (m - 1))
        half = z * (var / m) ** 0.5
        return (mean - half, mean + half)


KNOWN_TRANSITIONS = 100_000
"""The transitions `playouts` keeps (the reasoner's answers are deterministic): Monty Hall's 100,000 playouts
ask the reasoner 45 times, not 300,000 (docs/gdl.md)."""

Strategy = Callable[[GdlState, int, _random.Random, list], object]
"""Chooses role `k`'s move in a state (one of `moves`, its legal moves, or its KIF text), with a random generator."""


def _index(moves: list, move, role) -> int:
    """The place of a strategy's move (a term, or its KIF text) among a role's legal moves."""
    for i, m in enumerate(moves):
        if m is move:
            return i
    text = str(move).lower()
    for i, m in enumerate(moves):
        if str(m) == text:
            return i
    raise IllegalMove(f"'{move}' is not a legal move for {role}")


def playouts(game: GdlGame, count: int, seed: int = 0, strategies: Sequence[Strategy | None] | None = None,
             max_moves: int = 10_000) -> Playouts:
    """`count` playouts from the initial state, each role playing its strategy (None, or none given: uniform;
    random always plays uniformly), one generator seeded with `seed` for all: the same seed gives the same
    playouts. A playout still going after `max_moves` joint moves is left unfinished (not in the goals)."""
    roles = game.roles
    chosen = [None] * len(roles) if strategies is None else list(strategies)
    if game.chance is not None:
        chosen[game.chance] = None
    rng = _random.Random(seed)
    n = len(roles)
    players = [i for i in range(n) if i != game.chance]
    result = Playouts([str(roles[i]) for i in players], count, 0, [0] * len(players), [0] * len(players), {}, 0)
    start = game.initial_state()
    # the reasoner's answers are deterministic, and playouts of a small game repeat them: each state's legal moves
    # and each (state, joint move as indices into them) -> the state after are kept, up to KNOWN_TRANSITIONS
    legal_of: dict[object, list[list]] = {}
    known: dict[tuple, GdlState] = {}
    for _ in range(count):
        state = start
        steps = 0
        while not state.is_terminal and steps < max_moves:
            key = state.key()
            legal = legal_of.get(key)
            if legal is None:
                legal = [state.legal_moves(r) for r in roles]
                if len(legal_of) < KNOWN_TRANSITIONS:
                    legal_of[key] = legal
            picks = tuple(rng.randrange(len(legal[k])) if chosen[k] is None else
                          _index(legal[k], chosen[k](state, k, rng, legal[k]), roles[k]) for k in range(n))
            after = known.get((key, picks))
            if after is None:
                after = state.apply([legal[k][i] for k, i in enumerate(picks)])
                if len(known) < KNOWN_TRANSITIONS:
                    known[(key, picks)] = after
            state = after
            steps += 1
        result.moves += steps
        if not state.is_terminal:
            continue
        result.finished += 1
        outcome = tuple(state.goals_of(players))
        result.outcomes[outcome] = result.outcomes.get(outcome, 0) + 1
        for k, x in enumerate(outcome):
            x = x or 0
            result.goal_sum[k] += x
            result.goal_squares[k] += x * x
    return result


__all__ = ["report", "report_lines", "FULL_VIEW", "is_gdl_ii", "Chance", "GdlIIMachine", "Expected", "expected_goals", "Hidden",
           "hidden_information", "TooManyBeliefs", "one_player_value", "Playouts", "playouts"]
