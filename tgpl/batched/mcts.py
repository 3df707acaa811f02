"""MCTS on the batched engine, K rollouts for each new node, the nodes of L selections at once: measured
weaker per CPU second than the runtime's `mcts:N`, so no agent name seats it (docs/batched.md).

The search starts from the runtime's state encoded as the lowered game's fluents (LoweredGame.state_fluents,
what tgpl.validation compares the runtime and the GDL on), and runs on the engine's states from there. A
round selects up to L leaves by UCT (as tgpl.runtime.mcts: the mover's mean goal plus the exploration
bonus), counting each selection's visits at once (virtual visits, so that the next selection looks
elsewhere) and ending at the first node already expanded in the round; the selected nodes' moves are all
expanded by one step of the engine (one column a child), and K random rollouts from each new node are played
together (tgpl.batched.playouts, one counter-based stream a game); the rewards are then added up the paths.
N counts rollouts, as `mcts:N` counts its one rollout an iteration.

bench/mcts_batched.py measures it against `mcts:N` on Connect Four: a move costs it a quarter of the CPU at
equal rollouts, but the tree it grows for those rollouts is poorer (a node per K rollouts, L at a time), and
at equal CPU time it won 31 % to 38 % of its games in every setting tried (docs/batched.md).

Deterministic: a decision's generator is seeded from the game seed, the seat and the decisions taken, as
`mcts:N`'s; the rollouts' seed is drawn from it. A game that does not lower (or a state or move the network
has no place for) is searched by tgpl.runtime.mcts, as `mcts:N` searches it.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tgpl.runtime.game import Game, Move, State
from tgpl.runtime.mcts import EXPLORATION, PLAYOUT_LIMIT, MctsAgent
from tgpl.runtime.rng import Pcg32

DEFAULT_ROLLOUTS = 1024
LEAF_ROLLOUTS = 4
"""K: rollouts each new node gets (bench/mcts_batched.py measures it; docs/batched.md)."""
SELECTIONS = 16
"""L: selections a round, their nodes expanded by one step of the engine and rolled out together."""


@dataclass(eq=False)
class _Batched:
    """A game's batched engine and what maps a runtime state onto it."""

    env: object  # tgpl.batched.BatchedEnv
    lowered: object  # tgpl.lowering.emit.LoweredGame
    fields: object  # LoweredGame.state_fields(): what the encoding reads, or None
    index: dict[str, int]  # a fluent's text -> its place in env.fluents

    @cached_property
    def noop(self) -> np.ndarray:
        """Per role, the index of its `noop` (0 where it has none): what the roles not on turn play."""
        return np.array([ms.index("noop") if "noop" in ms else 0 for ms in self.env.moves], dtype=np.int64)

    @cached_property
    def kif_of(self) -> dict[str, str]:
        """The runtime's text of a move -> its KIF text."""
        return {text: kif for kif, text in self.lowered.move_texts.items()}

    def move_indices(self, player: int, moves: list[Move]) -> list[int] | None:
        """The runtime's moves as the mover's move indices; None where one has no place on the engine."""
        out = []
        for move in moves:
            kif = self.kif_of.get(move.text)
            i = self.env._index[player].get(kif) if kif is not None else None
            if i is None:
                return None
            out.append(i)
        return out

    def node(self, fluents: np.ndarray, ended: bool, legal: np.ndarray, goals: np.ndarray, players: int) -> _Node:
        """A search node from the engine's reading of a state: the mover is the role with a move other than
        `noop` (the lowered game's roles take turns), or the first with a legal move."""
        if ended:
            return _Node(fluents, 0, [], [max(int(g), 0) / 100 for g in goals[:players]], players)
        counts = legal.sum(axis=1)
        movers = [r for r in range(len(counts)) if counts[r] > 1 or (counts[r] == 1 and not legal[r, self.noop[r]])]
        mover = movers[0] if movers else int(np.argmax(counts))
        moves = [int(m) for m in np.flatnonzero(legal[mover])]
        if not moves:  # stuck: no move in a state that is not terminal: a tie for everyone, as the runtime's
            return _Node(fluents, mover, [], [0.5] * players, players)
        return _Node(fluents, mover, moves, None, players)

    def fluents(self, state: State) -> np.ndarray | None:
        """The state's fluents as a boolean row over env.fluents; None where one has no place (the state is
        outside what the network was built for: searched by the runtime's MCTS instead)."""
        from tgpl.runtime.snapshot import fields_snapshot, snapshot

        texts = self.lowered.state_fluents(snapshot(state) if self.fields is None
                                           else fields_snapshot(state, self.fields))
        row = np.zeros(len(self.index), dtype=bool)
        for text in texts:
            i = self.index.get(text)
            if i is None:
                return None
            row[i] = True
        return row


_ENGINES: weakref.WeakKeyDictionary[Game, _Batched | None] = weakref.WeakKeyDictionary()
"""Per game: its batched engine (None: the game does not lower). Lowering Connect Four takes seconds, so the
agents of one process (`tgpl analyze` seats one a game, each with its game's seed) share it."""


def batched_engine(game: Game) -> _Batched | None:
    """The game's batched engine, lowered (setup seed 0) on first use; None where it does not lower. The
    search starts from the runtime's state encoded as fluents, so the setup's seed matters only through the
    rules; a state the network has no fluent for is searched by the runtime (`fluents` gives None)."""
    if game not in _ENGINES:
        _ENGINES[game] = _build(game, 0)
    return _ENGINES[game]


def _build(game: Game, seed: int) -> _Batched | None:
    import tgpl.batched as batched
    from tgpl.lowering.lower import NotLowerable
    from tgpl.pipeline import lower_game

    try:
        lowered = lower_game(game, seed)
        env = batched.from_program(lowered.program)
    except (NotLowerable, batched.BatchedLoadError):
        return None
    return _Batched(env, lowered, lowered.state_fields(), {f: i for i, f in enumerate(env.fluents)})


class _Node:
    """A state of the search, on the batched engine: its fluents, who moves, its moves (indices into the
    mover's moves), and the summed rewards of the rollouts through it."""

    __slots__ = ("fluents", "mover", "untried", "children", "visits", "totals", "goals")

    def __init__(self, fluents: np.ndarray, mover: int, moves: list[int], goals: list[float] | None, players: int):
        self.fluents = fluents
        self.mover = mover
        self.untried = moves
        self.children: list[tuple[int, _Node]] = []
        self.visits = 0
        self.totals = [0.0] * players
        self.goals = goals  # a terminal state's rewards (goals in 0..1); None while the game goes on

    def best_child(self) -> _Node:
        """UCT: the mover's mean reward plus the exploration bonus; the first of equals."""
        log_n = math.log(self.visits)
        p = self.mover
        best, best_value = None, -math.inf
        for _, child in self.children:
            value = child.totals[p] / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best


class BatchedMctsAgent:
    """UCT on the batched engine; `rollouts` rollouts a decision, `leaf` for each new node, the nodes of
    `selections` selections expanded and rolled out together."""

    def __init__(self, seed: int, player: int, rollouts: int = DEFAULT_ROLLOUTS, leaf: int = LEAF_ROLLOUTS,
                 selections: int = SELECTIONS):
        if rollouts < 1 or leaf < 1 or selections < 1:
            raise ValueError("batched MCTS needs at least one rollout a move, one a leaf and one selection")
        self.seed = seed
        self.player = player
        self.rollouts = rollouts
        self.leaf = leaf
        self.selections = selections
        self.name = f"mcts-batched:{rollouts}"
        self.decisions = 0

    def _rng(self) -> Pcg32:
        rng = Pcg32((self.seed << 20) + self.decisions, stream=3000 + self.player)
        self.decisions += 1
        return rng

    def choose(self, state: State, moves: list[Move]) -> Move:
        rng = self._rng()
        if len(moves) == 1:
            return moves[0]
        best_move, best_visits = moves[0], -1
        for move, visits in self._search(state, moves, rng):  # the most visited; the first of equals
            if visits > best_visits:
                best_move, best_visits = move, visits
        return best_move

    def visits(self, state: State, moves: list[Move]) -> list[tuple[Move, int]]:
        """How often the search this agent would run now tried each move (as MctsAgent.visits)."""
        return self._search(state, moves, self._rng())

    def _search(self, state: State, moves: list[Move], rng: Pcg32) -> list[tuple[Move, int]]:
        engine = batched_engine(state.game)
        root_fluents = engine.fluents(state) if engine is not None else None
        indices = engine.move_indices(state.active_player, moves) if root_fluents is not None else None
        if indices is None:  # not on the batched engine: the runtime's search, as mcts:N
            return MctsAgent(self.seed, self.player, self.rollouts)._search(state, moves, rng)
        players = state.world.players
        root = _Node(root_fluents, state.active_player, list(indices), None, players)
        done = 0
        while done < self.rollouts:
            pending: list[tuple[list[_Node], _Node]] = []  # (path, the node whose moves are expanded)
            for _ in range(self.selections):
                node, path = root, [root]
                while not node.untried and node.children:  # selection
                    if node.children[0][1] is None:  # expanded in this round, its children not made yet
                        break
                    node = node.best_child()
                    path.append(node)
                if node.children and node.children[0][1] is None:
                    break  # the round ends here: its nodes are expanded and rolled out below
                leaves = len(node.untried) if node.untried else 1
                k = self.leaf
                for visited in path:  # virtual visits: counted now, their rewards added once rolled out
                    visited.visits += k * leaves
                pending.append((path, node))
                done += k * leaves
                if node.untried:
                    order = []
                    while node.untried:  # expansion: every move, in an order drawn at random
                        order.append(node.untried.pop(rng.below(len(node.untried))))
                    node.children = [(m, None) for m in order]  # made below, all nodes' at once
                if done >= self.rollouts:
                    break
            self._expand_and_roll(engine, pending, players, rng)
        by_index = {m: child.visits for m, child in root.children}
        return [(move, by_index[i]) for move, i in zip(moves, indices) if i in by_index]

    def _expand_and_roll(self, engine: _Batched, pending: list[tuple[list[_Node], _Node]], players: int,
                         rng: Pcg32) -> None:
        """The children of the expanded nodes, made by one step of the batched engine, and k rollouts from each
        new node (or a terminal node selected again), played together; the rewards backed up their paths."""
        env = engine.env
        k = self.leaf
        parents = [(path, node) for path, node in pending if node.children and node.children[0][1] is None]
        if parents:
            rows = np.stack([node.fluents for _, node in parents for _ in node.children], axis=1)
            moves = np.zeros((rows.shape[1], len(env.roles)), dtype=np.int64)
            column = 0
            for _, node in parents:
                for m, _ in node.children:
                    moves[column] = engine.noop
                    moves[column, node.mover] = m
                    column += 1
            after = env.step(env.state_of(rows), moves)
            fluents, ended, legal, goals = after.observation, after.terminated, after.legal_mask, after.goals
            column = 0
            for _, node in parents:
                children = []
                for m, _ in node.children:
                    children.append((m, engine.node(fluents[column], ended[column], legal[column], goals[column],
                                                    players)))
                    column += 1
                node.children = children
        leaves: list[tuple[list[_Node], list[_Node]]] = []
        for path, node in pending:
            new = [child for _, child in node.children] if node.children else [node]  # expanded, or terminal
            leaves.append((path, new))
        rolled = [leaf for _, new in leaves for leaf in new if leaf.goals is None]
        sums: dict[int, np.ndarray] = {}
        if rolled:
            start = np.repeat(np.stack([leaf.fluents for leaf in rolled], axis=1), k, axis=1)
            played = env.random_playouts(rng.below(1 << 30), start.shape[1], PLAYOUT_LIMIT, chunk=start.shape[1],
                                         start=start)
            rewards = np.where(played.finished[:, None], np.maximum(played.goals, 0) / 100, 0.5)
            per_leaf = rewards.reshape(len(rolled), k, -1).sum(axis=1)
            sums = {id(leaf): per_leaf[i, :players] for i, leaf in enumerate(rolled)}
        for path, new in leaves:
            total = np.zeros(players)
            for leaf in new:
                got = sums[id(leaf)] if leaf.goals is None else k * np.array(leaf.goals)
                if leaf is not path[-1]:
                    leaf.visits += k
                    leaf.totals = [t + float(v) for t, v in zip(leaf.totals, got)]
                total += got
            for visited in path:
                visited.totals = [t + float(v) for t, v in zip(visited.totals, total)]


__all__ = ["DEFAULT_ROLLOUTS", "LEAF_ROLLOUTS", "BatchedMctsAgent", "batched_engine"]
