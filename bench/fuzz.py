"""Mutation fuzzing of every `tgpl` command, in-process, with a minimal reproducer per distinct crash.

    python bench/fuzz.py --minutes N [--out DIR] [--seed S] [--only check,play]

`serve` sends `tgpl serve` (Starlette's TestClient, one server per worker) HTTP requests and WebSocket
messages made by mutating valid ones: a status of 500 or more, an exception or an unexpected reply
counts as a traceback.

The bundled examples (examples/*.tgpl, examples/gdl/*.kif) and game records
played on them are mutated: tokens and lines deleted, duplicated, swapped;
identifiers, numbers and strings replaced (by the boundary values a user might
type: 1e999, a 400-digit literal, -1, 10000000000); files cut short. Hand-made
inputs (deep nesting, long flat sums, /dev/zero, missing output folders,
out-of-range options, malformed GDL, tampered records) run first. Each case is
run through click's CliRunner in a worker process (killed and restarted when
it overruns its time limit by far), in a fresh copy of the examples folder.

Outcomes are classified as:
- traceback: an exception escaped the command (or a traceback was printed);
- unlocated: an error message about a source without `file:line:col`;
- runaway: the case overran its time limit (per command);
- ok: anything else (exit status 0, 1 or 2 with messages).
A crash's signature is its exception type and innermost tgpl frame (for a
runaway: where it was when stopped); the first case of each signature is
shrunk (lines, then tokens) and saved under --out with its command, files
and traceback. The summary prints runs and problems per command.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

EXAMPLES = ROOT / "examples"
COMMANDS = ("check", "play", "replay", "to-gdl", "to-asp", "verify", "query", "compare", "check-gdl", "serve")
# Seconds a case of each command may take before it counts as a runaway.
LIMITS = {"check": 10, "play": 20, "replay": 20, "to-gdl": 40, "to-asp": 40, "verify": 30, "query": 30,
          "compare": 30, "check-gdl": 10, "serve": 10}
MEMORY_LIMIT = 4 << 30  # bytes of address space a worker may use: past it, MemoryError

TGPL_TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_]\w*|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|//[^\n]*|\S')
KIF_TOKEN = re.compile(r"\?[\w-]+|[\w-]+|;[^\n]*|<=|\S")
IDENT = re.compile(r"[A-Za-z_]\w*")
NUMBER = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
STRING = re.compile(r'"[^"\n]*"')
NUMBERS = ["0", "1", "-1", "2", "7", "1e999", "1" * 400, "10000000000", "1e26", "9223372036854775808",
           "0.5", "-99999", "3.0", "1e-999", "100"]
STRINGS = ['""', '"x"', '"' + "ab" * 200 + '"', '"\\n"', '"é"', '"\\"']
TGPL_WORDS = ["{", "}", "(", ")", "[", "]", ";", ",", ":", ".", "=", "==", "+", "-", "*", "/", "%", "<", ">",
              "!", "&&", "||", "class", "action", "input", "filter", "effect", "trigger", "function", "returns",
              "turn", "phase", "default", "board", "group", "tile", "event", "players", "setup", "winner",
              "return", "break", "continue", "if", "else", "for", "while", "new", "this", "null", "true",
              "player", "List", "Table", "pass", "turn.pass", "in", "as", "@"]
KIF_WORDS = ["(", ")", "<=", "not", "or", "distinct", "true", "does", "next", "legal", "goal", "terminal",
             "role", "init", "base", "input", "?x", "?y", "x", "42", "-1", "100", "101", "#$%^&*", "\0"]


# ------------------------------------------------------------------ mutation
def _tokens(text: str, kif: bool) -> list[tuple[int, int]]:
    return [m.span() for m in (KIF_TOKEN if kif else TGPL_TOKEN).finditer(text)]


def mutate(text: str, rng: random.Random, kif: bool = False, edits: int | None = None) -> str:
    """One to four edits of the kinds the issue lists: tokens and lines deleted, duplicated,
    swapped; identifiers, numbers and strings replaced; a vocabulary word inserted; the file cut."""
    words = KIF_WORDS if kif else TGPL_WORDS
    for _ in range(edits or rng.randint(1, 4)):
        tokens = _tokens(text, kif)
        lines = text.splitlines(keepends=True)
        if not tokens or not lines:
            return text + rng.choice(words)
        kind = rng.randrange(12)
        i, j = sorted((rng.randrange(len(tokens)), rng.randrange(len(tokens))))
        j = min(j, i + rng.randint(0, 6))
        (s1, e1), (s2, e2) = tokens[i], tokens[j]
        if kind == 0:  # delete a token
            text = text[:s1] + text[e1:]
        elif kind == 1:  # delete a run of tokens
            text = text[:s1] + text[e2:]
        elif kind == 2:  # duplicate a run of tokens
            text = text[:e2] + " " + text[s1:e2] + text[e2:]
        elif kind == 3 and s1 != s2:  # swap two tokens
            text = text[:s1] + text[s2:e2] + text[e1:s2] + text[s1:e1] + text[e2:]
        elif kind == 4:  # insert a word
            text = text[:s1] + rng.choice(words) + " " + text[s1:]
        elif kind in (5, 6):  # replace an identifier, a number or a string
            pattern, pool = [(IDENT, None), (NUMBER, NUMBERS), (STRING, STRINGS)][rng.randrange(3)]
            found = list(pattern.finditer(text))
            if found:
                m = rng.choice(found)
                new = rng.choice(pool) if pool else rng.choice([f.group(0) for f in found])
                text = text[:m.start()] + new + text[m.end():]
        elif kind == 7:  # delete a line
            k = rng.randrange(len(lines))
            text = "".join(lines[:k] + lines[k + 1:])
        elif kind == 8:  # duplicate lines
            k = rng.randrange(len(lines))
            n = rng.randint(1, 5)
            text = "".join(lines[:k + n] + lines[k:k + n] + lines[k + n:])
        elif kind == 9:  # swap two lines
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "".join(lines)
        elif kind == 10:  # cut the file short
            text = text[:rng.randrange(len(text) + 1)]
        else:  # a number anywhere a token was
            text = text[:s1] + rng.choice(NUMBERS) + text[e1:]
    return text


# ------------------------------------------------------------------- cases
@dataclass
class Case:
    """One run of `tgpl ARGS` in a fresh copy of examples/ with FILES written over it."""

    command: str
    args: list[str]
    files: dict[str, str] = field(default_factory=dict)  # relative path -> text
    stdin: str | None = None
    origin: str = ""  # how the case was made, for the report

    def to_json(self) -> dict:
        return {"command": self.command, "args": self.args, "files": self.files, "stdin": self.stdin,
                "origin": self.origin}


@dataclass
class Result:
    kind: str  # ok, traceback, unlocated, runaway
    signature: str
    exit_code: int | None
    output: str
    detail: str = ""
    seconds: float = 0.0


LOCATED = re.compile(r"^\S.*?:\d+:\d+: error: ")
# Errors that are rightly about a move, a record, an option or a file as a whole, not a place in a source.
WHOLE = re.compile(r"illegal move|stuck|move \d+|record|cannot read|cannot write|cannot import|"
                   r"more than \d+ states|not a directory|no such|already exists|--\w|the game did not end|"
                   r"the translation failed|internal error|clingo|memory|seconds|too large|not valid UTF-8|"
                   r"the game has \d|players|field '", re.I)


def classify_output(text: str) -> tuple[str, str]:
    """('unlocated', line) for an error line about a source without its location, else ('ok', '')."""
    for line in text.splitlines():
        if "Traceback (most recent call last)" in line:
            return "traceback", line
        if re.match(r"^(None|<[^>]*>):", line):
            return "unlocated", line
        if ": error: " in line and not LOCATED.match(line) and not WHOLE.search(line):
            return "unlocated", line
    return "ok", ""


def _innermost(tb) -> str:
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if "/tgpl/" in f.filename.replace("\\", "/")] or frames
    if not ours:
        return "?"
    f = ours[-1]
    return f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.name}"


class Runaway(BaseException):
    """Raised by the alarm in a case that overran its time limit (not an Exception: nothing catches it)."""


def run_case(case: Case, limit: float | None = None) -> Result:
    """Run one case here, in a fresh copy of the examples (the current directory moves there)."""
    from click.testing import CliRunner
    from tgpl.cli import main

    if case.command == "serve":
        return run_server_case(case)
    limit = LIMITS[case.command] if limit is None else limit
    home = os.getcwd()
    work = Path(tempfile.mkdtemp(prefix="tgpl-fuzz-"))
    try:
        shutil.copytree(EXAMPLES, work / "ex")
        os.chdir(work / "ex")
        for name, text in case.files.items():
            Path(name).parent.mkdir(parents=True, exist_ok=True)
            Path(name).write_bytes(text.encode("utf-8", "surrogateescape"))
        stdin = case.stdin.encode("utf-8", "surrogateescape") if case.stdin is not None else None

        def alarm(signum, frame):
            raise Runaway()

        old = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
        start = time.perf_counter()
        try:
            r = CliRunner().invoke(main, case.args, input=stdin, catch_exceptions=True)
        except Runaway:
            tb = sys.exc_info()[2]
            return Result("runaway", f"runaway {case.command} {_innermost(tb)}", None, "",
                          "".join(traceback.format_tb(tb)[-8:]), time.perf_counter() - start)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        seconds = time.perf_counter() - start
        output = (r.stdout or "") + (r.stderr or "")
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            e = r.exception
            detail = "".join(traceback.format_exception(type(e), e, r.exc_info[2]))
            return Result("traceback", f"{type(e).__name__} {_innermost(r.exc_info[2])}", r.exit_code, output,
                          detail, seconds)
        kind, line = classify_output(output)
        if kind != "ok":
            return Result(kind, f"{kind} {case.command} {_shape(line)}", r.exit_code, output, line, seconds)
        if r.exit_code not in (0, 1, 2, 3):
            return Result("traceback", f"exit {r.exit_code} {case.command}", r.exit_code, output, "", seconds)
        return Result("ok", "", r.exit_code, output, "", seconds)
    finally:
        os.chdir(home)
        shutil.rmtree(work, ignore_errors=True)


def _shape(line: str) -> str:
    """An error line with its variable parts blanked, so one class gives one signature."""
    line = re.sub(r"^\S*?: ", "", line)
    line = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", line)
    return line[:80]


# ------------------------------------------------------------ the case mix
def _read(rel: str) -> str:
    return (EXAMPLES / rel).read_text(encoding="utf-8")


TGPL_GAMES = ["tris.tgpl", "connect4.tgpl", "hex.tgpl", "graph.tgpl", "treasure.tgpl", "cards.tgpl",
              "lib/deck.tgpl", "fiveinarow.tgpl", "chess/rules.tgpl", "chess/chess.tgpl",
              "citadels/characters.tgpl", "citadels/table.tgpl"]
MAIN_OF = {"lib/deck.tgpl": "cards.tgpl", "chess/rules.tgpl": "chess/chess.tgpl",
           "citadels/characters.tgpl": "citadels/citadels.tgpl", "citadels/table.tgpl": "citadels/citadels.tgpl"}
PLAYABLE = ["tris.tgpl", "connect4.tgpl", "hex.tgpl", "graph.tgpl", "treasure.tgpl", "cards.tgpl",
            "lib/deck.tgpl"]
LOWERABLE = ["tris.tgpl", "tris.tgpl", "tris.tgpl", "hex.tgpl", "graph.tgpl", "cards.tgpl", "treasure.tgpl"]
KIF_GAMES = ["gdl/tictactoe.kif", "gdl/connect4.kif"]
QUERIES = ["GameState.Board.At(c: 3, r: 0).Disc != null", "true", "false", "1 == 1", "TrisGrid[0][0].owner != null",
           "GameState.Tris[1][1] == null", "x", "", "(", "1e999 > 0", "this", "TrisGrid[0][0]", "GameTurn"]


def _options(command: str) -> set[str]:
    from tgpl.cli import main

    return {o for p in main.commands[command].params for o in getattr(p, "opts", [])}


class Generator:
    """Cases for each command, drawn from a seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.records = _make_records()
        self.play_opts = _options("play")
        self.verify_opts = _options("verify")
        self.query_opts = _options("query")

    def tgpl(self, choices: list[str]) -> tuple[str, dict[str, str]]:
        rel = self.rng.choice(choices)
        return MAIN_OF.get(rel, rel), {rel: mutate(_read(rel), self.rng)}

    def case(self, command: str) -> Case:
        rng = self.rng
        if command == "check":
            main, files = self.tgpl(TGPL_GAMES)
            return Case("check", ["check", main], files, origin="mutated")
        if command == "play":
            main, files = self.tgpl(PLAYABLE)
            args = ["play", main, "--players", "random", "--seed", str(rng.randrange(100)), "--quiet"]
            if "--max-moves" in self.play_opts:
                args += ["--max-moves", "300"]
            return Case("play", args, files, origin="mutated")
        if command == "replay":
            name, text = rng.choice(self.records)
            tampered, how = tamper(text, rng)
            args = ["replay", "rec.json"]
            if rng.random() < 0.2:
                args += ["--game", json.loads(text)["path"]]
            return Case("replay", args, {"rec.json": tampered}, origin=f"record of {name}, {how}")
        if command in ("to-gdl", "to-asp"):
            if command == "to-asp" and rng.random() < 0.3:
                rel = rng.choice(KIF_GAMES)
                return Case(command, [command, rel], {rel: mutate(_read(rel), rng, kif=True)}, origin="mutated")
            main, files = self.tgpl(LOWERABLE)
            # the validation's playouts: 1,000 steps, the fewest --validate-steps takes; --max-seconds under the
            # case's limit, so that a game that lowers slowly (treasure: minutes) stops located, and a runaway
            # is a limit the lowering does not honour
            args = [command, main, "--max-seconds", str(LIMITS[command] * 3 // 4)]
            if rng.random() < 0.3:
                args.append("--no-validate")
            return Case(command, args, files, origin="mutated")
        if command == "verify":
            if rng.random() < 0.5:
                rel = "gdl/tictactoe.kif"
                args = ["verify", rel, "--max-states", "3000"]
                if rng.random() < 0.4:
                    args = ["verify", rel, "--horizon", "3"]
                return Case("verify", args, {rel: mutate(_read(rel), rng, kif=True)}, origin="mutated")
            main, files = self.tgpl(["tris.tgpl", "graph.tgpl", "cards.tgpl"])
            return Case("verify", ["verify", main, "--max-states", "3000"], files, origin="mutated")
        if command == "query":
            expr = rng.choice(QUERIES)
            if rng.random() < 0.5:
                expr = mutate(expr, rng, edits=1) if expr else expr
            if rng.random() < 0.5:
                main, files = self.tgpl(["tris.tgpl"])
            else:
                main, files = "tris.tgpl", {}
            return Case("query", ["query", main, expr, "--horizon", "3"], files, origin="mutated")
        if command == "serve":
            return serve_case(rng)
        if command == "compare":  # a mutated game against Tris, as a .tgpl or as its hand-written GDL
            main, files = self.tgpl(["tris.tgpl"]) if rng.random() < 0.5 else self.tgpl(LOWERABLE)
            other = "gdl/tictactoe.kif"
            if rng.random() < 0.3:
                files = {**files, other: mutate(_read(other), rng, kif=True)}
            pair = [main, other] if rng.random() < 0.5 else [other, main]
            return Case("compare", ["compare", *pair, "--max-states", "3000", "--max-seconds", "20"], files,
                        origin="mutated")
        rel = rng.choice(KIF_GAMES)
        return Case("check-gdl", ["check-gdl", rel], {rel: mutate(_read(rel), rng, kif=True)}, origin="mutated")


# `tgpl serve`: an HTTP request or a WebSocket message, made from valid ones by mutation. {seat},
# {spectator} and {host} stand for the tokens of the server the worker keeps (`run_server_case`).
SERVE_PATHS = ["/", "/?host={host}", "/play/{game}?token={seat}", "/play/{game}?token={spectator}",
               "/record/{game}?token={host}", "/static/play.js", "/static/../app.py", "/games", "/records?host={host}",
               "/games/{game}/seats", "/games/{game}/fork", "/games/{game}/reload", "/analyze", "/ws/{game}"]
SERVE_BODIES = ["host={host}&path=tris.tgpl&players=human,random&seed=0", "host={host}&seat=1&agent=first",
                "host={host}&at=0", "host={host}&path=tris.tgpl&players=random,random&games=2&seed=0",
                '{"format": 1, "game": "tris", "path": "tris.tgpl", "seed": 0, "players": ["human", "human"], '
                '"moves": [{"player": 0, "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])"}], "log": [], '
                '"result": null, "source_digest": "sha256:0"}']
SERVE_MESSAGES = ['{"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0}',
                  '{"type": "state"}', '{"type": "position", "at": 0}', '{"type": "hint", "iterations": 20}',
                  '{"type": "undo"}']


def serve_case(rng: random.Random) -> Case:
    if rng.random() < 0.5:
        method = rng.choice(["GET", "POST", "POST", "PUT", "DELETE", "HEAD"])
        path = rng.choice(SERVE_PATHS)
        if rng.random() < 0.5:
            path = mutate(path, rng, edits=1)
        body = mutate(rng.choice(SERVE_BODIES), rng) if method == "POST" else ""
        return Case("serve", ["http", method, path, body], origin="mutated request")
    who = rng.choice(["{seat}", "{spectator}", "{host}"])
    return Case("serve", ["ws", who, mutate(rng.choice(SERVE_MESSAGES), rng)], origin="mutated message")


_SERVED = {}  # the worker's server: made once, games kept across cases


def run_server_case(case: Case) -> Result:
    """One request or message to a server kept by this worker (a TestClient, in process): a
    status of 500 or more, an exception, or a message answered with anything but an error or a
    state is a traceback."""
    from starlette.testclient import TestClient
    from tgpl.serve.app import Server, create_app

    if not _SERVED:
        home = Path(tempfile.mkdtemp(prefix="tgpl-fuzz-serve-"))
        shutil.copy(EXAMPLES / "tris.tgpl", home / "tris.tgpl")
        os.chdir(home)
        server = Server(home / "data", watch_every=None)
        session = server.new_game("tris.tgpl", ["human", "human"], 0)
        client = TestClient(create_app(server), raise_server_exceptions=False)
        client.__enter__()
        _SERVED.update(server=server, session=session, client=client, home=home)
    server, session, client = _SERVED["server"], _SERVED["session"], _SERVED["client"]
    os.chdir(_SERVED["home"])
    subst = {"{host}": server.host_token, "{seat}": session.stored.tokens[0],
             "{spectator}": session.stored.spectator_token, "{game}": str(session.stored.id)}

    def fill(text: str) -> str:
        for k, v in subst.items():
            text = text.replace(k, v)
        return text

    start = time.perf_counter()
    try:
        if case.args[0] == "http":
            _, method, path, body = case.args
            r = client.request(method, fill(path), content=fill(body).encode("utf-8", "surrogateescape"),
                               follow_redirects=False)
            if r.status_code >= 500:
                return Result("traceback", f"http {r.status_code} {method} {path.split('?')[0][:30]}", r.status_code,
                              r.text[:2000], "", time.perf_counter() - start)
            return Result("ok", "", 0, "", "", time.perf_counter() - start)
        _, who, message = case.args
        with client.websocket_connect(f"/ws/{session.stored.id}?token={fill(who)}") as ws:
            ws.receive_json()
            ws.send_text(fill(message))
            reply = ws.receive_json()
        if reply.get("type") not in ("error", "state", "position", "hint"):
            return Result("traceback", f"ws reply {reply.get('type')}", None, json.dumps(reply)[:2000], "",
                          time.perf_counter() - start)
        return Result("ok", "", 0, "", "", time.perf_counter() - start)
    except Exception as e:
        tb = sys.exc_info()[2]
        return Result("traceback", f"{type(e).__name__} {_innermost(tb)}", None, "",
                      "".join(traceback.format_exception(type(e), e, tb)), time.perf_counter() - start)


def _make_records() -> list[tuple[str, str]]:
    """Records of a few seeded random games, made once with the library (paths relative to examples/)."""
    from tgpl.runtime import load_game
    from tgpl.play.agents import RandomAgent
    from tgpl.play.play import play

    records = []
    home = os.getcwd()
    os.chdir(EXAMPLES)
    try:
        for rel in ("tris.tgpl", "connect4.tgpl", "cards.tgpl", "treasure.tgpl", "graph.tgpl"):
            game = load_game(rel)
            for seed in (1, 2):
                out = play(game, [RandomAgent(seed, p) for p in range(game.players)], seed, rel, max_moves=200)
                records.append((rel, out.record.to_json()))
    finally:
        os.chdir(home)
    return records


def tamper(text: str, rng: random.Random) -> tuple[str, str]:
    """A record changed the way a hand edit, a bad copy or a malicious file would change it."""
    data = json.loads(text)
    moves = data["moves"]
    kind = rng.randrange(16)
    bad = rng.choice([None, -1, 2, 99, "0", 1e999, [1], {"a": 1}, 10**30, True, ""])
    if kind == 0 and moves:
        rng.choice(moves)["player"] = bad
        how = "a move's player changed"
    elif kind == 1 and moves:
        m = rng.choice(moves)
        m["move"] = mutate(m["move"], rng) if rng.random() < 0.7 else bad
        how = "a move's text changed"
    elif kind == 2 and moves:
        del moves[rng.randrange(len(moves))]
        how = "a move deleted"
    elif kind == 3 and moves:
        k = rng.randrange(len(moves))
        moves.insert(k, dict(moves[k]))
        how = "a move duplicated"
    elif kind == 4:
        data["seed"] = rng.choice([1e999, -1e999, "inf", "x", None, -1, 10**40, 1.5, [1]])
        how = "the seed changed"
    elif kind == 5:
        data["source_digest"] = rng.choice(["sha256:0", "", None, 5])
        how = "the digest changed"
    elif kind == 6:
        data["path"] = rng.choice(["nowhere.tgpl", "/dev/zero", "", None, "gdl/tictactoe.kif", "\0", "tris.tgpl"])
        how = "the path changed"
    elif kind == 7:
        data["players"] = rng.choice([[], ["random"], ["random"] * 9, "random", None, [None, 1], ["x"] * 10**5])
        how = "the players changed"
    elif kind == 8:
        data["format"] = rng.choice([0, 2, "1", None, 1e999])
        how = "the format changed"
    elif kind == 9:
        data.pop(rng.choice(list(data)))
        how = "a field removed"
    elif kind == 10:
        data["result"] = rng.choice([None, {}, {"ranking": [[1]], "goals": [0, 100]}, "win", [1]])
        how = "the result changed"
    elif kind == 11:
        data["moves"] = rng.choice([None, "x", {}, [None], [[]], [{"move": 1}], [{}]])
        how = "the moves replaced"
    elif kind == 12 and moves:
        a, b = rng.randrange(len(moves)), rng.randrange(len(moves))
        moves[a], moves[b] = moves[b], moves[a]
        how = "two moves swapped"
    elif kind == 13:
        data["log"] = rng.choice([None, "x", [1, [2]], {"a": 1}])
        how = "the log changed"
    elif kind == 14:
        text = json.dumps(data, indent=1)
        return text[:rng.randrange(len(text))], "cut short"
    else:
        depth = rng.choice([100, 5000, 100_000])
        data[rng.choice(["moves", "result", "players", "log"])] = json.loads("[" * 100 + "]" * 100) if depth == 100 \
            else None
        text = json.dumps(data)
        return text.replace('"log": ', '"log": ' + "[" * depth + "]" * depth + ", \"x\": ", 1), f"nested {depth}"
    return json.dumps(data, indent=1), how


def hand_made() -> list[Case]:
    """The inputs the issue lists, made by hand: nesting, huge numbers, sizes, options, files, records, GDL."""
    tris = _read("tris.tgpl")
    kif = _read("gdl/tictactoe.kif")
    game = 'game "g";\nplayers 2;\n'
    cases = []

    def tg(name: str, text: str, command: str = "check", *extra: str) -> None:
        args = [command, "g.tgpl", *extra]
        if command == "play":
            args += ["--players", "random", "--quiet"]
        cases.append(Case(command, args, {"g.tgpl": text}, origin=name))

    for cmd in ("check", "play", "to-gdl"):
        tg("1e999", tris.replace("== 9", "== 1e999"), cmd)
        tg("400 digits", tris.replace("== 9", "== " + "9" * 400), cmd)
        tg("players 1e26", tris.replace("players 2;", "players 1e26;"), cmd)
        tg("players 10000000000", tris.replace("players 2;", "players 10000000000;"), cmd)
        tg("players -99999", tris.replace("players 2;", "players -99999;"), cmd)
    tg("482 parentheses", tris.replace("== 9", "== " + "(" * 482 + "9" + ")" * 482))
    tg("3000 parentheses", tris.replace("== 9", "== " + "(" * 3000 + "9" + ")" * 3000))
    tg("flat sum of 5000", tris.replace("== 9", "== " + " + ".join(["1"] * 5000)))
    tg("flat && of 3000", tris.replace("== 9", "== 9" + " && true" * 3000))
    tg("1000 nested if", tris.replace("PlayerState winnerState = null;",
                                      "PlayerState winnerState = null;" + "if (true) {" * 1000 + "}" * 1000))
    tg("500 nested blocks", tris.replace("PlayerState winnerState = null;",
                                         "PlayerState winnerState = null;" + "{" * 500 + "}" * 500))
    tg("long unary", tris.replace("== 9", "== " + "-" * 5000 + "9"))
    tg("long negation", tris.replace("winnerState != null", "!" * 5000 + "true", 1))
    tg("long member chain", tris.replace("== 9", "== 9" + ".x" * 5000))
    tg("import /dev/zero", 'import "/dev/zero";\n' + tris)
    tg("import a folder", 'import "gdl";\n' + tris)
    tg("huge source", tris + "\n// " + "x" * (12 << 20) + "\n")
    tg("string doubled 40 times", tris.replace("PlayerState winnerState = null;",
                                               'PlayerState winnerState = null; string s = "ab";'
                                               ' for (number i = 0; i < 40; i += 1) { s = s + s; }'), "play")
    tg("runaway while", tris.replace("PlayerState winnerState = null;",
                                     "PlayerState winnerState = null; while (true) { }"), "play")
    tg("board 100x100", tris.replace("[3][3]", "[100][100]").replace("< 3", "< 100"), "play")
    cases.append(Case("check", ["check", "/dev/zero"], origin="check /dev/zero"))
    cases.append(Case("check", ["check", "nowhere.tgpl"], origin="missing file"))
    cases.append(Case("check", ["check", "gdl"], origin="a folder"))
    cases.append(Case("check", ["check", "bad.tgpl"], {"bad.tgpl": "\udcff\udcfe game"}, origin="not UTF-8"))
    # options
    for args in (["play", "tris.tgpl", "--players", "random", "--record", "no/such/dir/r.json", "--quiet"],
                 ["play", "tris.tgpl", "--players", "random", "--moves", "m.txt", "--quiet"],
                 ["play", "tris.tgpl", "--players", "random," * 40 + "random", "--quiet"],
                 ["play", "tris.tgpl", "--players", "nobody", "--quiet"],
                 ["play", "tris.tgpl", "--players", "random", "--seed", "-5", "--quiet"],
                 ["play", "tris.tgpl", "--players", "random", "--seed", "9" * 40, "--quiet"],
                 ["to-gdl", "tris.tgpl", "-o", "no/such/dir/t.kif", "--no-validate"],
                 ["to-gdl", "tris.tgpl", "--players", "0", "--no-validate"],
                 ["to-gdl", "tris.tgpl", "--players", "5", "--no-validate"],
                 ["to-gdl", "tris.tgpl", "--players", "-1", "--no-validate"],
                 ["to-asp", "tris.tgpl", "-o", "no/such/dir/t.lp", "--no-validate"],
                 ["to-asp", "gdl/tictactoe.kif", "-o", "gdl"],
                 ["verify", "tris.tgpl", "--max-states", "-5"],
                 ["verify", "tris.tgpl", "--max-states", "0"],
                 ["verify", "gdl/tictactoe.kif", "--witness-dir", "tris.tgpl"],
                 ["query", "tris.tgpl", "true", "--horizon", "-1"],
                 ["query", "gdl/tictactoe.kif", "true"],
                 ["query", "cards.tgpl", "true"],
                 ["query", "tris.tgpl", "1 +"],
                 ["query", "nowhere.tgpl", "true"],
                 ["compare", "tris.tgpl", "tris.tgpl", "--max-states", "-1"]):
        files = {"m.txt": "\udcff\udcfe\n"} if "m.txt" in args else {}
        command = args[0] if args[0] in COMMANDS else "check"
        cases.append(Case(command, args, files, origin="option " + " ".join(args[2:])))
    for text in ("Take3\n", "Tick\n", "PlayerState#0.Tick(\n", "  PlayerState#0 . Tick ( chosenTile : TrisGrid[0][0] )\n",
                 "0\n", "\n\n", "x" * 100000 + "\n"):
        cases.append(Case("play", ["play", "tris.tgpl", "--players", "random", "--moves", "m.txt", "--quiet"],
                          {"m.txt": text}, origin=f"moves {text[:40]!r}"))
    # GDL
    for name, text in (("(role #$%^&*)", kif.replace("(role oplayer)", "(role #$%^&*)")),
                       ("NUL byte", kif.replace("(index 3)", "(index a\0b)")),
                       ("(<= 42 ...)", kif + "\n(<= 42 (role ?x))\n"),
                       ("head a variable", kif + "\n(<= ?x (role ?x))\n"),
                       ("nested 10000", kif + "\n(init (f " + "(g " * 10000 + "a" + ")" * 10000 + "))\n"),
                       ("unbalanced", kif + "\n((((\n"),
                       ("unbounded terms", kif + "\n(succ 0 1)\n(<= (next (count ?y)) (true (count ?x)) (s ?x ?y))\n"
                                                 "(<= (s ?x (f ?x)) (true (count ?x)))\n(init (count 0))\n"),
                       ("59x59", kif.replace("(index 3)", "\n".join(f"(index {i})" for i in range(3, 60))))):
        for cmd, extra in (("check-gdl", []), ("verify", ["--max-states", "2000"]), ("verify", ["--horizon", "2"]),
                           ("to-asp", [])):
            cases.append(Case(cmd, [cmd, "g.kif", *extra], {"g.kif": text}, origin=f"gdl {name}"))
    # records
    rec = json.loads(_make_records()[0][1])
    for name, change in (("seed inf", lambda d: d.update(seed=1e999)), ("digest", lambda d: d.update(source_digest="x")),
                         ("player 7", lambda d: d["moves"][0].update(player=7)),
                         ("move 'x'", lambda d: d["moves"][0].update(move="x")),
                         ("no moves field", lambda d: d.pop("moves")),
                         ("move is a string", lambda d: d.update(moves=["x"])),
                         ("path /dev/zero", lambda d: d.update(path="/dev/zero")),
                         ("path None", lambda d: d.update(path=None))):
        d = json.loads(json.dumps(rec))
        change(d)
        cases.append(Case("replay", ["replay", "rec.json"], {"rec.json": json.dumps(d)}, origin=f"record {name}"))
    cases.append(Case("replay", ["replay", "rec.json"], {"rec.json": "[" * 100_000 + "]" * 100_000},
                      origin="record nested 100k"))
    cases.append(Case("replay", ["replay", "rec.json"], {"rec.json": json.dumps(rec) + "\0"}, origin="record NUL"))
    cases.append(Case("replay", ["replay", "rec.json", "--game", "hex.tgpl"], {"rec.json": json.dumps(rec)},
                      origin="record of another game"))
    # effect inputs with no candidate, endless turn.pass, games that never end
    cases.append(Case("play", ["play", "g.tgpl", "--players", "random", "--quiet"], {"g.tgpl": NO_CANDIDATE},
                      origin="input without candidate"))
    cases.append(Case("play", ["play", "g.tgpl", "--players", "random", "--quiet"], {"g.tgpl": ENDLESS_PASS},
                      origin="endless turn.pass"))
    cases.append(Case("play", ["play", "g.tgpl", "--players", "random", "--quiet"], {"g.tgpl": NEVER_ENDS},
                      origin="never ends"))
    return cases


_TRIS = _read("tris.tgpl")
# An action input whose filter admits nothing, asked from an effect (the action must not run).
NO_CANDIDATE = _TRIS.replace("GameState.TickedCount += 1;", "GameState.TickedCount += 1; this.Other();").replace(
    "    action Tick\n", "    action Other\n    {\n        input TickTile t { return false; }\n"
                        "        effect { t.AssignedTo = this; }\n    }\n\n    action Tick\n")
# The default passes to a phase whose code passes again: control never waits for a player.
ENDLESS_PASS = _TRIS.replace('turn.pass(active_player + 1, "TickPhase");', 'turn.pass(active_player + 1, "WinCheckPhase");')
# Tiles can be ticked again and nobody ever wins: the game never ends.
NEVER_ENDS = _TRIS.replace("return chosenTile.AssignedTo == null;", "return true;").replace(
    "winner winnerState.player;", "").replace("winner winners;", "")


# -------------------------------------------------------------- the workers
class Worker:
    """A forked process that runs cases; killed and restarted when one overruns its limit by far."""

    def __init__(self):
        import multiprocessing as mp

        self.ctx = mp.get_context("fork")
        self.proc = None
        self.conn = None

    def _start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent

    def run(self, case: Case) -> Result:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send(case)
        start = time.perf_counter()
        if self.conn.poll(LIMITS[case.command] * 2 + 10):
            try:
                return self.conn.recv()
            except EOFError:
                pass
            self.stop()
            if time.perf_counter() - start >= LIMITS[case.command]:
                # the time limit's alarm went off inside clingo, which ends the process on an exception raised
                # in its callbacks ("error in SolveEventHandler::on_statistics going to terminate"): the case
                # overran its limit, as the interruptible runaways do
                return Result("runaway", f"runaway {case.command} (in clingo)", None, "",
                              "the worker ended when its time limit interrupted clingo")
            return Result("traceback", f"worker died {case.command}", None, "", "the worker process died")
        self.stop()
        return Result("runaway", f"runaway {case.command} (not interruptible)", None, "", "killed")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.join()
            self.proc = None


def _serve(conn) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    while True:
        case = conn.recv()
        try:
            result = run_case(case)
        except BaseException as e:  # the harness itself
            result = Result("traceback", f"harness {type(e).__name__}", None, "", traceback.format_exc())
        conn.send(result)


# ----------------------------------------------------------- minimisation
def shrink(case: Case, result: Result, worker: Worker, budget: float) -> Case:
    """Delta debugging over the lines, then the tokens, of the case's largest file, keeping the signature."""
    if not case.files:
        return case
    name = max(case.files, key=lambda k: len(case.files[k]))
    deadline = time.perf_counter() + budget
    kif = name.endswith(".kif")

    def same(text: str) -> bool:
        trial = Case(case.command, case.args, {**case.files, name: text}, case.stdin, case.origin)
        r = worker.run(trial)
        return r.signature == result.signature

    for unit in ("line", "token"):
        text = case.files[name]
        if unit == "line":
            pieces = text.splitlines(keepends=True)
        else:
            spans = _tokens(text, kif)
            pieces, last = [], 0
            for s, e in spans:
                pieces.append(text[last:e])
                last = e
            if last < len(text):
                pieces.append(text[last:])
        n = 2
        while len(pieces) >= 2 and time.perf_counter() < deadline:
            chunk = max(1, len(pieces) // n)
            removed = False
            for start in range(0, len(pieces), chunk):
                if time.perf_counter() >= deadline:
                    break
                trial = pieces[:start] + pieces[start + chunk:]
                if trial and same("".join(trial)):
                    pieces, removed = trial, True
                    n = max(n - 1, 2)
                    break
            if not removed:
                if chunk == 1:
                    break
                n = min(len(pieces), n * 2)
        case = Case(case.command, case.args, {**case.files, name: "".join(pieces)}, case.stdin, case.origin)
    return case


def save(out: Path, case: Case, result: Result, count: int) -> Path:
    slug = re.sub(r"[^\w.-]+", "_", result.signature)[:100]
    folder = out / f"{count:03d}-{slug}"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in case.files.items():
        path = folder / "files" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
    (folder / "case.json").write_text(json.dumps(case.to_json(), indent=1, ensure_ascii=True) + "\n")
    (folder / "README.txt").write_text(
        f"signature: {result.signature}\norigin: {case.origin}\n"
        f"run (in a copy of examples/ with files/ written over it): tgpl {' '.join(case.args)}\n"
        f"exit status: {result.exit_code}\n\n{result.detail}\n--- output ---\n{result.output[-4000:]}\n")
    return folder


# ------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="how long to fuzz (the hand-made cases run first)")
    ap.add_argument("--out", default="fuzz-crashes", help="folder for one minimal reproducer per distinct crash")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", help="comma-separated commands (default: all)")
    ap.add_argument("--no-hand-made", action="store_true", help="skip the hand-made inputs")
    ap.add_argument("--shrink-seconds", type=float, default=30.0, help="time to shrink each new crash")
    args = ap.parse_args(argv)
    commands = args.only.split(",") if args.only else list(COMMANDS)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    gen = Generator(args.seed)
    worker = Worker()
    def fresh() -> dict:
        return {"runs": 0, "traceback": 0, "unlocated": 0, "runaway": 0, "seconds": 0.0}

    stats = {c: fresh() for c in commands}
    seen: dict[str, Path] = {}
    deadline = time.perf_counter() + args.minutes * 60
    queue = [] if args.no_hand_made else [c for c in hand_made() if c.command in commands]
    k = 0
    try:
        while time.perf_counter() < deadline:
            if queue:
                case = queue.pop(0)
            else:
                case = gen.case(commands[k % len(commands)])
                k += 1
            result = worker.run(case)
            s = stats.setdefault(case.command, fresh())  # a command's generator may make another's case
            s["runs"] += 1
            s["seconds"] += result.seconds
            if result.kind == "ok":
                continue
            s[result.kind] += 1
            if result.signature not in seen:
                print(f"new {result.kind}: {result.signature}  ({case.origin}: tgpl {' '.join(case.args)[:80]})",
                      flush=True)
                small = (case if result.kind == "runaway" or case.command == "serve"  # a request: nothing to shrink
                         else shrink(case, result, worker, args.shrink_seconds))
                seen[result.signature] = save(out, small, result, len(seen) + 1)
    except KeyboardInterrupt:
        pass
    finally:
        worker.stop()
    print(f"\n{'command':<10} {'runs':>6} {'tracebacks':>10} {'unlocated':>9} {'runaways':>8}")
    for c, s in stats.items():
        print(f"{c:<10} {s['runs']:>6} {s['traceback']:>10} {s['unlocated']:>9} {s['runaway']:>8}")
    print(f"{len(seen)} distinct problems; reproducers in {out}/")
    return 1 if seen else 0


if __name__ == "__main__":
    sys.exit(main())
