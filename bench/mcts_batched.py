"""Batched leaf rollouts in MCTS against plain MCTS, per CPU second, in one run.

    python bench/mcts_batched.py [--game examples/connect4.tgpl] [--games 40] [--rollouts 1024] [--leaf 4]
                                 [--selections 16] [--plain M]

Two matches, each `--games` games with the seats swapped every other game (game k has seed k):
1. equal rollout counts: `mcts-batched:N` (K rollouts at once for each new leaf, tgpl.batched.mcts) against
   `mcts:N` (one rollout an iteration, tgpl.runtime.mcts); the CPU seconds each spent choosing are summed;
2. equal CPU time: `mcts:M` with M = N x (batched CPU a move / plain CPU a move) from match 1, so that
   the plain agent gets the time the batched one takes.
Win rates are those of the batched agent (a draw counts a half). The lowering (the batched engine's network,
built once a process) is done before the clock starts. The agent is worth keeping where match 2's win rate
is above one half: stronger per CPU second. `--plain M` plays match 2 alone against `mcts:M` (M from an
earlier run's calibration), the CPU a move of each side printed beside the score.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

from tgpl.batched.mcts import BatchedMctsAgent, batched_engine  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402
from tgpl.runtime.mcts import MctsAgent  # noqa: E402


def play(game, seed: int, agents: list) -> tuple[list[int], list[float], list[int]]:
    """One game: the goals, each seat's CPU seconds spent choosing and its moves with a choice."""
    state = game.initial_state(seed)
    spent = [0.0] * len(agents)
    chosen = [0] * len(agents)
    while not state.is_terminal:
        moves = state.legal_moves()
        p = state.active_player
        started = time.process_time()
        move = agents[p].choose(state, moves)
        spent[p] += time.process_time() - started
        chosen[p] += len(moves) > 1
        assert move in moves
        state = state.apply(move)
    return list(state.goals), spent, chosen


def match(game, games: int, batched_agent, plain_agent) -> tuple[float, float, float]:
    """The batched agent's score (wins + draws / 2) over `games` games, and each side's CPU seconds a move."""
    score, mine, theirs, my_moves, their_moves = 0.0, 0.0, 0.0, 0, 0
    for k in range(games):
        seat = k % 2
        agents = [None, None]
        agents[seat] = batched_agent(k, seat)
        agents[1 - seat] = plain_agent(k, 1 - seat)
        goals, spent, moves = play(game, k, agents)
        score += 1.0 if goals[seat] > goals[1 - seat] else 0.5 if goals[seat] == goals[1 - seat] else 0.0
        mine += spent[seat]
        theirs += spent[1 - seat]
        my_moves += moves[seat]
        their_moves += moves[1 - seat]
    return score, mine / max(my_moves, 1), theirs / max(their_moves, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=str(ROOT / "examples" / "connect4.tgpl"))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=1024)
    parser.add_argument("--leaf", type=int, default=4)
    parser.add_argument("--selections", type=int, default=16)
    parser.add_argument("--plain", type=int, default=None, metavar="M",
                        help="play the equal-CPU match alone, against mcts:M")
    args = parser.parse_args()
    game = load_game(args.game)
    started = time.perf_counter()
    assert batched_engine(game) is not None, "the game does not lower"
    print(f"{args.game}: lowered and network built in {time.perf_counter() - started:.1f} s")
    n, k = args.rollouts, args.leaf

    def batched(seed, seat):
        return BatchedMctsAgent(seed, seat, n, k, args.selections)

    if args.plain is not None:  # the equal-CPU match alone, against mcts:M (M from an earlier calibration)
        m = args.plain
        score2, mine2, theirs2 = match(game, args.games, batched, lambda seed, seat: MctsAgent(seed, seat, m))
        print(f"mcts-batched:{n} (K={k}, L={args.selections}) against mcts:{m}: {score2:g}/{args.games} "
              f"({score2 / args.games:.0%}); CPU a move {mine2 * 1e3:.0f} ms against {theirs2 * 1e3:.0f} ms")
        return
    score, mine, theirs = match(game, args.games, batched, lambda seed, seat: MctsAgent(seed, seat, n))
    print(f"equal counts: mcts-batched:{n} (K={k}, L={args.selections}) against mcts:{n}: {score:g}/{args.games} "
          f"({score / args.games:.0%}); CPU a move {mine * 1e3:.0f} ms against {theirs * 1e3:.0f} ms "
          f"(the batched agent {theirs / mine:.2f}x as fast)")
    m = max(1, round(n * mine / theirs))
    score2, mine2, theirs2 = match(game, args.games, batched, lambda seed, seat: MctsAgent(seed, seat, m))
    print(f"equal CPU: mcts-batched:{n} against mcts:{m}: {score2:g}/{args.games} ({score2 / args.games:.0%}); "
          f"CPU a move {mine2 * 1e3:.0f} ms against {theirs2 * 1e3:.0f} ms")
    print("stronger per CPU second" if score2 > args.games / 2 else "not stronger per CPU second")


if __name__ == "__main__":
    main()
