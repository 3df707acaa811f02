"""MCTS on the batched engine (tgpl.batched.mcts): deterministic, legal, and stronger than random play."""

from __future__ import annotations

from tests.batched.conftest import EXAMPLES
from tgpl.batched.mcts import BatchedMctsAgent, batched_engine
from tgpl.runtime import load_game
from tgpl.runtime.agents import RandomAgent


def _play(game, seed: int, agents: list) -> list[int]:
    state = game.initial_state(seed)
    while not state.is_terminal:
        moves = state.legal_moves()
        move = agents[state.active_player].choose(state, moves)
        assert move in moves  # only legal moves
        state = state.apply(move)
    return list(state.goals)


def _score(path: str, games: int, rollouts: int) -> tuple[int, int]:
    """The batched agent's wins and losses against random, seats swapped every other game."""
    game = load_game(path)
    wins = losses = 0
    for k in range(games):
        seat = k % 2
        agents = [None, None]
        agents[seat] = BatchedMctsAgent(k, seat, rollouts)
        agents[1 - seat] = RandomAgent(k, 1 - seat)
        goals = _play(game, k, agents)
        wins += goals[seat] > goals[1 - seat]
        losses += goals[seat] < goals[1 - seat]
    return wins, losses


def test_it_beats_random_at_tris() -> None:
    wins, losses = _score(str(EXAMPLES / "tris.tgpl"), 12, 256)
    assert losses == 0 and wins >= 8, (wins, losses)


def test_it_beats_random_at_connect_four() -> None:
    wins, losses = _score(str(EXAMPLES / "connect4.tgpl"), 8, 256)
    assert losses == 0 and wins >= 7, (wins, losses)


def test_same_seed_same_search() -> None:
    game = load_game(str(EXAMPLES / "connect4.tgpl"))
    assert batched_engine(game) is not None  # the search runs on the batched engine, not the fallback
    state = game.initial_state(0)
    state = state.apply(state.legal_moves()[3])
    moves = state.legal_moves()

    def visits(seed: int) -> list[tuple[str, int]]:
        return [(m.text, v) for m, v in BatchedMctsAgent(seed, 1, 512).visits(state, moves)]

    first = visits(5)
    assert first == visits(5)
    assert sorted(m for m, _ in first) == sorted(m.text for m in moves)
    assert 512 <= sum(v for _, v in first) < 512 + 4 * len(moves)  # the last expansion's K rollouts a move
    assert first != visits(6)
