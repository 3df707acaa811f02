"""What the tests of tests/asp share: the GDL-II games written here (tests/data/gdl2)."""

from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "data" / "gdl2"
MONTY = str(GAMES / "montyhall.kif")
KRIEG = str(GAMES / "kriegtictactoe.kif")
GUESSING = str(GAMES / "guessing.kif")
