"""Games kept in SQLite: what is needed to rebuild each one after a restart.

Games are deterministic, so a game is its source path, player count, seed, seats and the
moves played (each marked when the server played it for a seat past `--turn-limit`: the log says
so after a restart too); the server replays the moves to resume it. A move is inserted and committed
before the server acknowledges it (`add_move`), so a crash never loses an acknowledged move.
The database is opened in WAL mode with `synchronous=FULL`: a commit is on disk when it returns.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    spectator_token TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS seats (
    game INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    agent TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game INTEGER NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    timeout INTEGER NOT NULL DEFAULT 0,  -- 1: played by the server for a seat out of time
    PRIMARY KEY (game, number)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def new_token() -> str:
    """An unguessable token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass
class StoredGame:
    id: int
    path: str
    players: int
    seed: int
    spectator_token: str
    agents: list[str]  # by seat
    tokens: list[str]  # by seat
    moves: list[tuple[int, str]]  # (player, text) in order
    timed_out: list[int] = field(default_factory=list)  # the moves (numbered from 1) the turn limit played


class Store:
    """The server's database; one connection, used under a lock (the server's threads share it)."""

    def __init__(self, folder: str | Path):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "games.sqlite3"
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(moves)")}
        if "timeout" not in columns:  # a database made before moves were marked
            self.db.execute("ALTER TABLE moves ADD COLUMN timeout INTEGER NOT NULL DEFAULT 0")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def setting(self, key: str, make) -> str:
        """A value kept across restarts (the host's token), made once."""
        with self.lock:
            row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
            if row:
                return row[0]
            value = make()
            self.db.execute("INSERT INTO settings (key, value) VALUES (?, ?)", (key, value))
            return value

    def create_game(self, path: str, players: int, seed: int, agents: list[str],
                    moves: list[tuple[int, str]] = (), timed_out: list[int] = ()) -> StoredGame:
        """A new game with fresh tokens; `moves` already played (a fork of another game), those numbered
        (from 1) in `timed_out` by the turn limit."""
        tokens = [new_token() for _ in agents]
        spectator = new_token()
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = self.db.execute("INSERT INTO games (path, players, seed, spectator_token) VALUES (?, ?, ?, ?)",
                                      (path, players, seed, spectator))
                game_id = cur.lastrowid
                self.db.executemany("INSERT INTO seats (game, seat, agent, token) VALUES (?, ?, ?, ?)",
                                    [(game_id, s, a, t) for s, (a, t) in enumerate(zip(agents, tokens))])
                late = set(timed_out)
                self.db.executemany("INSERT INTO moves (game, number, player, text, timeout) VALUES (?, ?, ?, ?, ?)",
                                    [(game_id, n, p, t, int(n + 1 in late)) for n, (p, t) in enumerate(moves)])
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return StoredGame(game_id, path, players, seed, spectator, list(agents), tokens, list(moves),
                          sorted(n for n in set(timed_out) if 1 <= n <= len(moves)))

    def add_move(self, game_id: int, number: int, player: int, text: str, timeout: bool = False) -> None:
        """Record move `number` (from 0), `timeout` when the turn limit played it; committed when this
        returns. A second move with the same number (two clients racing) fails on the primary key."""
        with self.lock:
            self.db.execute("INSERT INTO moves (game, number, player, text, timeout) VALUES (?, ?, ?, ?, ?)",
                            (game_id, number, player, text, int(timeout)))

    def truncate(self, game_id: int, number: int) -> None:
        """Forget the moves from `number` (from 0) on: an undo, committed when this returns."""
        with self.lock:
            self.db.execute("DELETE FROM moves WHERE game = ? AND number >= ?", (game_id, number))

    def set_agent(self, game_id: int, seat: int, agent: str) -> None:
        with self.lock:
            self.db.execute("UPDATE seats SET agent = ? WHERE game = ? AND seat = ?", (agent, game_id, seat))

    def games(self) -> list[StoredGame]:
        with self.lock:
            rows = self.db.execute("SELECT id, path, players, seed, spectator_token FROM games ORDER BY id").fetchall()
            out = []
            for gid, path, players, seed, spectator in rows:
                seats = self.db.execute("SELECT agent, token FROM seats WHERE game = ? ORDER BY seat", (gid,)).fetchall()
                moves = self.db.execute("SELECT player, text, timeout FROM moves WHERE game = ? ORDER BY number",
                                        (gid,)).fetchall()
                out.append(StoredGame(gid, path, players, seed, spectator, [a for a, _ in seats],
                                      [t for _, t in seats], [(p, t) for p, t, _ in moves],
                                      [n for n, (_, _, late) in enumerate(moves, 1) if late]))
            return out
