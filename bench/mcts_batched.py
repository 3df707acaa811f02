"""An arena: MCTS whose leaves are valued by K playouts on the batched engine against plain MCTS.

    python bench/mcts_batched.py [--only tris,connect4] [--games 20] [--iterations 50] [--seconds 0.3]
                                 [--rollouts 256] [--json FILE]

Two matches a game, each of --games games, half with the batched agent on each seat (game g: seed g):
- equal iterations: mcts:N:batched=K against mcts:N (the batched agent spends more time a move);
- equal time: both agents search for --seconds of wall-clock a move (MctsOptions.seconds), as many
  iterations as fit; the iterations a move each made are reported.
For each match: the batched agent's wins, draws and losses, its score (a win 1, a draw 1/2) and the score's
95 % interval (normal approximation, the games' scores' own variance). Equal time depends on the machine's
load: both agents play in one process, in turns, so the load falls on both alike; the ratios are what to read.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

from tgpl.play.mcts import DEFAULT_ROLLOUTS, MctsAgent, MctsOptions  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402


class Counting(MctsAgent):
    """An MCTS agent that counts its iterations and its time (the arena's per-move figures)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.searched = 0
        self.moves = 0
        self.spent = 0.0

    def _search(self, state, moves, rng):
        started = time.perf_counter()
        found = super()._search(state, moves, rng)
        self.spent += time.perf_counter() - started
        self.searched += sum(visits for _, visits in found)
        self.moves += 1
        return found


def play(game, agents: list[Counting], seed: int) -> list[int]:
    state = game.initial_state(seed)
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(agents[state.active_player].choose(state, moves))
    return state.goals


def match(path: str, games: int, batched: MctsOptions, plain: MctsOptions) -> dict:
    game = load_game(path)
    wins = draws = losses = 0
    scores: list[float] = []
    per_agent = {"batched": [0, 0, 0.0], "plain": [0, 0, 0.0]}  # iterations, moves, seconds
    for g in range(games):
        seat = g % 2  # the batched agent's seat
        agents = [None, None]
        agents[seat] = Counting(g, seat, options=batched)
        agents[1 - seat] = Counting(g, 1 - seat, options=plain)
        agents[seat].prepare(game.initial_state(g))  # lowering and building the network: not a move's time
        goals = play(game, agents, g)
        mine, theirs = goals[seat], goals[1 - seat]
        score = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        wins += score == 1.0
        draws += score == 0.5
        losses += score == 0.0
        scores.append(score)
        for name, agent in (("batched", agents[seat]), ("plain", agents[1 - seat])):
            per_agent[name][0] += agent.searched
            per_agent[name][1] += agent.moves
            per_agent[name][2] += agent.spent
        print(f"  game {g}: batched on seat {seat}, goals {goals}", file=sys.stderr, flush=True)
    mean = sum(scores) / len(scores)
    var = sum((s - mean) ** 2 for s in scores) / max(len(scores) - 1, 1)
    half = 1.96 * math.sqrt(var / len(scores))
    return {"games": games, "wins": wins, "draws": draws, "losses": losses, "score": mean,
            "interval": [max(0.0, mean - half), min(1.0, mean + half)],
            "iterations_a_move": {k: v[0] / max(v[1], 1) for k, v in per_agent.items()},
            "seconds_a_move": {k: v[2] / max(v[1], 1) for k, v in per_agent.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="tris,connect4")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--matches", default="iterations,time")
    parser.add_argument("--json")
    args = parser.parse_args()
    results = {}
    for name in args.only.split(","):
        path = str(ROOT / "examples" / f"{name}.tgpl")
        for kind in args.matches.split(","):
            if kind == "iterations":
                batched = MctsOptions(args.iterations, args.rollouts)
                plain = MctsOptions(args.iterations)
            else:
                batched = MctsOptions(1, args.rollouts, seconds=args.seconds)
                plain = MctsOptions(1, seconds=args.seconds)
            print(f"{name}, equal {kind}: {batched.name} against {plain.name}", file=sys.stderr, flush=True)
            r = match(path, args.games, batched, plain)
            results[f"{name}/{kind}"] = r
            print(f"{name:<10} equal {kind:<10} batched W/D/L {r['wins']}/{r['draws']}/{r['losses']}  score "
                  f"{r['score']:.2f} [{r['interval'][0]:.2f}, {r['interval'][1]:.2f}]  iterations a move "
                  f"{r['iterations_a_move']['batched']:.0f} vs {r['iterations_a_move']['plain']:.0f}, seconds a move "
                  f"{r['seconds_a_move']['batched']:.3f} vs {r['seconds_a_move']['plain']:.3f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "results": results}, indent=1))


if __name__ == "__main__":
    main()
