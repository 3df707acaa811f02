"""Playing a whole game: agents take turns until the game ends or gets stuck."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from tgpl.play.agents import Agent, EndOfInput, ScriptAgent
from tgpl.play.record import Record, source_digest
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, IllegalMove, State


class StuckError(Exception):
    """A non-terminal decision point where the player to move has no legal move."""

    def __init__(self, state: State):
        c = state.world.control
        super().__init__(
            f"stuck: player {state.active_player} has no legal move (turn {c.turn}, phase {c.phase})"
        )
        self.state = state


@dataclass
class Outcome:
    state: State
    record: Record
    moves: list[str] = field(default_factory=list)
    input_ended: bool = False  # a human's input ended before the game did (EndOfInput)


def play(game: Game, agents: list[Agent], seed: int, path: str, script: ScriptAgent | None = None,
         on_move: Callable[[int, str, State], None] | None = None, max_moves: int = 100_000) -> Outcome:
    """Play from the initial state; raises StuckError, IllegalMove or TGPLRuntimeError (carrying the
    moves that reach it, the failing one last)."""
    record = Record(game.name, path, source_digest(game.program.sources), seed, [a.name for a in agents])
    try:
        return _play(game, agents, seed, script, on_move, max_moves, record)
    except TGPLRuntimeError as e:
        if e.moves is None:  # an error while listing the moves: those played reach it
            e.moves = [m["move"] for m in record.moves]
        raise


def _play(game: Game, agents: list[Agent], seed: int, script: ScriptAgent | None,
          on_move: Callable[[int, str, State], None] | None, max_moves: int, record: Record) -> Outcome:
    state = game.initial_state(seed)
    for _ in range(max_moves):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        player = state.active_player
        if not moves:
            raise StuckError(state)
        if script is not None and not script.exhausted:
            move = state.resolve(script.next_text())
        else:
            try:
                move = agents[player].choose(state, moves)
            except EndOfInput:
                record.log = state.log
                return Outcome(state, record, input_ended=True)
        try:
            state = state.apply(move)
        except TGPLRuntimeError as e:
            e.moves = [m["move"] for m in record.moves] + [move.text]
            raise
        record.moves.append({"player": player, "move": move.text})
        if on_move is not None:
            on_move(player, move.text, state)
    record.log = state.log
    if state.is_terminal:
        record.result = {"ranking": state.ranking, "goals": state.goals}
    return Outcome(state, record)


def replay(game: Game, record: Record) -> State:
    """Re-play a record; raise IllegalMove (with the move number) at the first illegal move."""
    state = game.initial_state(record.seed)
    for n, entry in enumerate(record.moves, 1):
        text = entry["move"]
        if state.is_terminal:
            raise IllegalMove(text, f"move {n}: the game was already over")
        if state.active_player != entry["player"]:
            raise IllegalMove(text, f"move {n}: field 'player': it is player {state.active_player}'s decision, "
                                    f"not player {entry['player']}'s")
        move = state.move_by_text(text)  # a record holds exact texts: no typing shortcuts here
        if move is None:
            raise IllegalMove(text, f"move {n}: field 'move': {state.explain(text)}")
        try:
            state = state.apply(move)
        except TGPLRuntimeError as e:
            e.moves = [m["move"] for m in record.moves[:n]]
            raise
    return state


__all__ = ["Outcome", "StuckError", "TGPLRuntimeError", "play", "replay"]
