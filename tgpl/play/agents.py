"""Agents pick moves: a human at the terminal, a seeded random player, MCTS, a script."""

from __future__ import annotations

from typing import Callable, Protocol

from tgpl.play.mcts import MctsAgent, MctsOptions
from tgpl.play.typed_moves import read_typed_move
from tgpl.runtime.game import IllegalMove, Move, State
from tgpl.runtime.rng import Pcg32


class Agent(Protocol):
    name: str

    def choose(self, state: State, moves: list[Move]) -> Move: ...


class RandomAgent:
    """Uniform over the legal moves; its own PCG32 stream, so it never disturbs the game's."""

    name = "random"

    def __init__(self, seed: int, player: int):
        self.rng = Pcg32(seed, stream=1000 + player)

    def choose(self, state: State, moves: list[Move]) -> Move:
        return moves[self.rng.below(len(moves))]


class FirstAgent:
    """Always the first legal move: a deterministic baseline for tests."""

    name = "first"

    def choose(self, state: State, moves: list[Move]) -> Move:
        return moves[0]


def automatic_agent(spec: str, seed: int, player: int) -> Agent:
    """The agent a spec names (`random`, `first`, `mcts` or `mcts:N`, N iterations per move, with `:batched` or
    `:batched=K` for leaves valued by K playouts on the batched engine, tgpl.play.batched_leaf), for a seat.

    Built from text so that worker processes (tgpl analyze --jobs) seat the same agents as
    `tgpl play --players`; raises ValueError on a spec naming no automatic agent.
    """
    kind, colon, _ = spec.strip().partition(":")
    if kind == "random" and not colon:
        return RandomAgent(seed, player)
    if kind == "first" and not colon:
        return FirstAgent()
    if kind == "mcts":
        return MctsAgent(seed, player, options=MctsOptions.parse(spec))
    raise ValueError(f"unknown agent '{spec}'")


class EndOfInput(Exception):
    """The person at the terminal closed the input (Ctrl-D, or the end of piped answers): the game
    stops there, as a game not ended (`tgpl play` saves the record and exits 3)."""


def read_line(prompt: str) -> str:
    """A line typed at the terminal (with the terminal's editing), EndOfInput at the end of the input."""
    try:
        return input(prompt)
    except EOFError:
        raise EndOfInput() from None


class HumanAgent:
    """Shows the board and the numbered moves; reads a number or a move's text."""

    name = "human"

    def __init__(self, read: Callable[[str], str], write: Callable[[str], None], show_state: Callable[[State], str],
                 describe: Callable[[State, Move], str] = lambda state, move: move.text):
        self.read = read
        self.write = write
        self.show_state = show_state
        self.describe = describe

    def choose(self, state: State, moves: list[Move]) -> Move:
        self.write(self.show_state(state))
        who = state.active_player
        if state.request is not None:
            self.write(f"player {who}, choose '{state.request.name}':")
        else:
            self.write(f"player {who}, your move:")
        if len(moves) == 1:  # nothing to decide: played, and said so
            self.write(f"  the only legal move, played: {self.describe(state, moves[0])}")
            return moves[0]
        for i, move in enumerate(moves, 1):
            self.write(f"  {i:>3}. {self.describe(state, move)}")
        while True:
            answer = self.read("> ").strip()
            try:
                return read_typed_move(state, moves, answer)
            except IllegalMove as e:
                self.write(f"'{answer}' is not a legal move ({e.reason}): type its number (1-{len(moves)}), "
                           "its text or the start of it, or the object it takes")


class ScriptAgent:
    """Replays moves given as text, one per line (the format of records and move lists)."""

    name = "script"

    def __init__(self, lines: list[str]):
        self.lines = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
        self.position = 0

    @property
    def exhausted(self) -> bool:
        return self.position >= len(self.lines)

    def next_text(self) -> str:
        text = self.lines[self.position]
        self.position += 1
        return text
