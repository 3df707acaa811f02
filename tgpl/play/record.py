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
        """The record in `text`; RecordError names the field (and the move) that is wrong."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise RecordError("not a tgpl game record: JSON nested too deeply") from None
        except ValueError as e:
            raise RecordError(f"not a tgpl game record: not JSON ({e})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or isinstance(data.get("format"), bool):
            raise RecordError(f"not a tgpl game record of format {FORMAT}")
        moves = _field(data, "moves", list, "a list of moves")
        entries = []
        for n, m in enumerate(moves, 1):
            if not isinstance(m, dict):
                raise RecordError(f"move {n}: not an object with 'player' and 'move'")
            player = _field(m, "player", int, "a player number", f"move {n}: ")
            if player < 0:
                raise RecordError(f"move {n}: field 'player': {player} is not a player")
            entries.append({"player": player, "move": _field(m, "move", str, "the move's text", f"move {n}: ")})
        players = _field(data, "players", list, "a list of agent names")
        if not players or not all(isinstance(p, str) for p in players):
            raise RecordError("field 'players': expected a non-empty list of agent names")
        log = data.get("log", [])
        if not isinstance(log, list) or not all(isinstance(x, str) for x in log):
            raise RecordError("field 'log': expected a list of strings")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("field 'result': expected null or an object with 'ranking' and 'goals'")
        seed = _field(data, "seed", int, "a whole number")
        if not -SEED_RANGE <= seed < SEED_RANGE:
            raise RecordError(f"field 'seed': {seed} is outside -2^64..2^64")
        return cls(
            game=_field(data, "game", str, "the game's name"), path=_field(data, "path", str, "the game's path"),
            source_digest=_field(data, "source_digest", str, "a digest"), seed=seed, players=players,
            moves=entries, log=log, result=result,
        )


RECORD_LIMIT = 100_000_000  # bytes of a record file
SEED_RANGE = 2**64


class RecordError(ValueError):
    """A record that is not JSON, not a record, or has a malformed field (named in the message)."""


def _field(data: dict, name: str, kind: type, what: str, where: str = ""):
    """data[name], which must be of `kind` (a bool is no number), or RecordError naming it."""
    if name not in data:
        raise RecordError(f"{where}field '{name}' is missing")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        shown = json.dumps(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise RecordError(f"{where}field '{name}': expected {what}, not {shown}")
    return value
