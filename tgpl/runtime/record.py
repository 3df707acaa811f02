"""Game records: JSON files that `tgpl replay` validates move by move.

    {"format": 1, "game": "tris", "path": "examples/tris.tgpl",
     "source_digest": "sha256:...", "seed": 1, "players": ["random", "random"],
     "moves": [{"player": 0, "move": "PlayerState#0.Tick(chosenTile: TrisGrid[0][0])"}, ...],
     "log": [...], "result": {"ranking": [[0]], "goals": [100, 0]}}

The JSON is written with sorted keys and a fixed layout, so the same game
gives the same bytes on every machine.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

FORMAT = 1


def source_digest(sources: dict[str, str]) -> str:
    """A digest of every source file of the game (names and contents)."""
    h = hashlib.sha256()
    for name in sorted(sources):
        h.update(name.replace("\\", "/").encode())
        h.update(b"\0")
        h.update(sources[name].encode())
        h.update(b"\0")
    return "sha256:" + h.hexdigest()


@dataclass
class Record:
    game: str
    path: str
    source_digest: str
    seed: int
    players: list[str]
    moves: list[dict] = field(default_factory=list)  # {"player": p, "move": text}
    log: list[str] = field(default_factory=list)
    result: dict | None = None  # {"ranking": ..., "goals": ...}

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "game": self.game,
            "path": self.path,
            "source_digest": self.source_digest,
            "seed": self.seed,
            "players": self.players,
            "moves": self.moves,
            "log": self.log,
            "result": self.result,
        }
        return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Record:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a tgpl game record of format {FORMAT}")
        try:
            return cls(
                game=str(data["game"]), path=str(data["path"]), source_digest=str(data["source_digest"]),
                seed=int(data["seed"]), players=[str(p) for p in data["players"]],
                moves=[{"player": int(m["player"]), "move": str(m["move"])} for m in data["moves"]],
                log=[str(x) for x in data.get("log", [])], result=data.get("result"),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"malformed record: {e}") from e
