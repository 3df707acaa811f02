"""GDL-II playouts on the reasoner: kept transitions against asking the reasoner every move, as a ratio.

    python bench/gdl2_playouts.py [--playouts 5000] [--rounds 2] [GAME.kif]

tgpl.asp.gdl2.playouts keeps each state's legal moves and each transition it has asked the reasoner for (up to
KNOWN_TRANSITIONS), so a small game's playouts ask the reasoner once per transition. This plays the same seeded
uniform playouts of GAME (default: tests/data/gdl2/montyhall.kif) both ways, in alternating turns, and prints
each way's playouts per CPU second (the process's user + system time, not wall time: the machine is shared) and
their ratio; the outcomes of both ways must be equal, or it exits 1.
"""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tgpl.asp import gdl2  # noqa: E402
from tgpl.asp.reasoner import GdlGame  # noqa: E402


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=str(ROOT / "tests" / "data" / "gdl2" / "montyhall.kif"))
    parser.add_argument("--playouts", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    game = GdlGame.load(args.game)
    kept = gdl2.KNOWN_TRANSITIONS
    for k in range(args.rounds):
        rates, outcomes = [], []
        for keep in (0, kept):
            gdl2.KNOWN_TRANSITIONS = keep
            start = cpu()
            result = gdl2.playouts(game, args.playouts, seed=k)
            rates.append(args.playouts / max(cpu() - start, 1e-9))
            outcomes.append(result.outcomes)
        if outcomes[0] != outcomes[1]:
            print("the two ways played different playouts", file=sys.stderr)
            return 1
        print(f"round {k}: reasoner every move {rates[0]:,.0f} playouts/CPU s, transitions kept {rates[1]:,.0f} "
              f"playouts/CPU s, ratio {rates[1] / rates[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
