"""`tgpl analyze` throughput and the MCTS agent's strength, on Tris and Connect Four.

    python bench/analyze.py [--strength] [--c4-games 20]

Throughput: games per second with random agents and with MCTS (random,mcts:50), with --jobs 1
and --jobs 2, and the speed-up of 2 processes over 1 measured in the same run (the machine is
shared: absolute rates vary from run to run, the speed-up much less).

--strength: the issue's bar for the agent. mcts:200 against random on Tris over 100 games
(50 on each seat) must never lose; mcts:100 against random on Connect Four must win at least
90% of --c4-games games (half on each seat). Slow: Connect Four playouts run at about 50 a second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

from tgpl.analysis.figures import run_games, summarise  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402

TRIS = str(ROOT / "examples" / "tris.tgpl")
C4 = str(ROOT / "examples" / "connect4.tgpl")


def rate(path: str, specs: list[str], games: int, jobs: int) -> float:
    game = load_game(path)
    start = time.perf_counter()
    run_games(game, specs, range(games), jobs, 10_000)
    return games / (time.perf_counter() - start)


def throughput() -> None:
    print(f"{'game':<14}{'players':<16}{'games':>6}{'jobs 1 games/s':>16}{'jobs 2 games/s':>16}{'speed-up':>10}")
    for path, specs, games in [(TRIS, ["random", "random"], 400), (TRIS, ["random", "mcts:50"], 40),
                               (C4, ["random", "random"], 60), (C4, ["random", "mcts:50"], 4)]:
        one, two = rate(path, specs, games, 1), rate(path, specs, games, 2)
        print(f"{Path(path).name:<14}{','.join(specs):<16}{games:>6}{one:>16.2f}{two:>16.2f}{two / one:>10.2f}")


def strength(c4_games: int) -> None:
    for path, agent, games, bar in [(TRIS, "mcts:200", 100, None), (C4, "mcts:100", c4_games, 0.9)]:
        game = load_game(path)
        wins = losses = 0
        for seat, specs in [(0, [agent, "random"]), (1, ["random", agent])]:
            s = summarise(game, path, specs, 0, run_games(game, specs, range(games // 2), 2, 10_000))
            wins += s["seats"][seat]["wins"]["count"]
            losses += s["seats"][1 - seat]["wins"]["count"]
        ok = losses == 0 if bar is None else wins >= bar * games
        print(f"{Path(path).name}: {agent} vs random, {games} games: {wins} wins, {losses} losses, "
              f"{games - wins - losses} draws: {'ok' if ok else 'BELOW THE BAR'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--strength", action="store_true")
    parser.add_argument("--c4-games", type=int, default=20)
    args = parser.parse_args()
    if args.strength:
        strength(args.c4_games)
    else:
        throughput()
