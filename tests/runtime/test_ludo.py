"""A small Ludo written by a designer (tests/data/designers/ludo.tgpl): a die thrown into a global, tokens as
interactables with a number -1..10, captures that send a token home, a pass when nothing can move. It plays
to a winner under random players, the same game byte for byte for a seed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

LUDO = Path(__file__).resolve().parents[1] / "data" / "designers" / "ludo.tgpl"


def _play(tmp_path: Path, seed: int, name: str) -> dict:
    record = tmp_path / name
    r = CliRunner().invoke(main, ["play", str(LUDO), "--players", "random,random", "--seed", str(seed),
                                  "--record", str(record), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "winner: player" in r.output
    return json.loads(record.read_text(encoding="utf-8"))


def test_ludo_plays_to_a_winner_the_same_for_a_seed(tmp_path):
    kinds: set[str] = set()
    for seed in range(4):
        data = _play(tmp_path, seed, f"ludo{seed}.json")
        moves = [m["move"] for m in data["moves"]]
        ranking = data["result"]["ranking"]
        assert len(ranking[0]) == 1 and sorted(data["result"]["goals"]) == [0, 100]
        # a throw opens every turn, and the mover's seat alternates with each throw
        throws = [m for m in data["moves"] if ".Throw(" in m["move"]]
        assert moves[0].endswith(".Throw(go: true)")
        assert [m["player"] for m in throws] == [i % 2 for i in range(len(throws))]
        # at least four token moves: each of the winner's two tokens enters and walks past ten squares
        assert sum(".Move(" in m and m.startswith(f"Seat#{ranking[0][0]}.") for m in moves) >= 4
        kinds |= {m.split("(")[0].split(".")[1] for m in moves}
        again = _play(tmp_path, seed, f"again{seed}.json")
        assert again["moves"] == data["moves"] and again["log"] == data["log"]
    assert kinds <= {"Throw", "Move", "Pass"} and {"Throw", "Move"} <= kinds
