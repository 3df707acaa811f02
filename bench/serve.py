"""`tgpl serve` under load: click to redrawn board in the browser, and many games at once.

    python bench/serve.py [--clicks 40] [--games 50] [--seconds 60] [--only clicks|load]

**Clicks** (Debian's chromium through Playwright, as tests/serve/test_browser.py): Tris, Connect
Four and chess on the host's hot-seat page (every seat human, so no bot time is included); each
click on a highlighted tile is timed in the page, from the click to the end of the redraw it
causes: a move's round trip to the server and back for Tris and Connect Four, and for chess both
clicks of a move (the piece: a redraw in the page; its square: the round trip). The reference,
measured in the same run on the same page, is a `state` request's round trip and redraw (the
server's message and the page's drawing without a move): the ratio says what playing a move adds.
The issue's target: p95 at most 100 ms on loopback.

**Load**: a server process with `--games` games of Connect Four (seats human, human), each played
by two WebSocket clients picking random legal moves for `--seconds` seconds; a finished game's
clients go on with the next game of their slot. Every move is checked: acknowledged (a state
message after it, naming it), and at the end the server's SQLite store holds exactly the moves
acknowledged, in order. Reports moves per second, errors and lost moves (both must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
TIMED_CLICK = """async (name) => {
  const before = window.tgplDraws;
  const start = performance.now();
  document.querySelector(`svg .tile[data-name="${name}"]`).dispatchEvent(new MouseEvent("click", {bubbles: true}));
  while (window.tgplDraws === before) await new Promise(r => requestAnimationFrame(r));
  return performance.now() - start;
}"""
TIMED_STATE = """async () => {
  const before = window.tgplDraws;
  const start = performance.now();
  socket.send(JSON.stringify({type: "state"}));
  while (window.tgplDraws === before) await new Promise(r => requestAnimationFrame(r));
  return performance.now() - start;
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


# ------------------------------------------------------------------ clicks
def clicks(count: int) -> None:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from tgpl.serve.app import Server, create_app

    server = Server(tempfile.mkdtemp(prefix="tgpl-bench-serve-"))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    web = uvicorn.Server(uvicorn.Config(create_app(server), log_level="warning"))
    threading.Thread(target=web.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not web.started:
        time.sleep(0.05)
    rng = random.Random(1)
    print(f"{'game':<10} {'clicks':>6} {'p50 ms':>8} {'p95 ms':>8} {'ref p95':>8} {'ratio':>6}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for path in ("examples/tris.tgpl", "examples/connect4.tgpl", "examples/chess/chess.tgpl"):
            timed, reference = [], []
            page = browser.new_page()
            session = None
            while len(timed) < count:
                if session is None or session.state.is_terminal:
                    session = server.new_game(path, ["human", "human"], len(timed))
                    page.goto(f"{base}/play/{session.stored.id}?token={server.host_token}")
                    page.wait_for_function("window.tgplDraws > 0 && document.querySelector('#moves li') !== null")
                moves = page.evaluate("current.moves")
                move = moves[rng.randrange(len(moves))]
                tiles = [o for o in move["objects"] if "[" in o]  # the squares it names, in order
                timed.append(page.evaluate(TIMED_CLICK, tiles[-2] if len(tiles) > 1 else tiles[0]))
                if len(tiles) > 1 and page.evaluate("selection.length") > 0:  # the piece chosen: its square
                    timed.append(page.evaluate(TIMED_CLICK, tiles[-1]))
                page.wait_for_function("document.querySelector('#moves li') !== null || "
                                       "document.querySelector('#status').dataset.terminal === 'true'")
                if not session.state.is_terminal:
                    reference.append(page.evaluate(TIMED_STATE))
            page.close()
            p95, ref = percentile(timed, 0.95), percentile(reference, 0.95)
            print(f"{Path(path).stem:<10} {len(timed):>6} {statistics.median(timed):>8.1f} {p95:>8.1f} "
                  f"{ref:>8.1f} {p95 / ref:>6.2f}")
        browser.close()
    web.should_exit = True


# ------------------------------------------------------------------ load
SERVER = """
import json, sys, uvicorn
from tgpl.serve.app import Server, create_app
server = Server(sys.argv[1])
slots = []
for slot in range(int(sys.argv[2])):
    games = []
    for k in range(int(sys.argv[3])):
        s = server.new_game("examples/connect4.tgpl", ["human", "human"], slot * 1000 + k)
        games.append([s.stored.id, s.stored.tokens])
    slots.append(games)
print(json.dumps(slots), flush=True)
uvicorn.run(create_app(server), host="127.0.0.1", port=int(sys.argv[4]), log_level="warning")
"""


async def play_slot(port: int, games: list, seconds: float, rng: random.Random, tally: dict) -> None:
    from websockets.asyncio.client import connect

    deadline = time.monotonic() + seconds
    for gid, tokens in games:
        if time.monotonic() >= deadline:
            return
        url = f"ws://127.0.0.1:{port}/ws/{gid}?token="
        async with connect(url + tokens[0]) as p0, connect(url + tokens[1]) as p1:
            sockets = [p0, p1]
            latest = [None, None]

            async def state(k: int, number: int) -> dict:
                while latest[k] is None or latest[k]["number"] < number:
                    m = json.loads(await sockets[k].recv())
                    if m["type"] == "error":
                        tally["errors"].append(m["message"])
                        continue
                    latest[k] = m
                return latest[k]

            n = 0
            while time.monotonic() < deadline:
                seat = n % 2
                m = await state(seat, n)
                if m["view"]["terminal"]:
                    break
                move = rng.choice(m["moves"])["text"]
                await sockets[seat].send(json.dumps({"type": "move", "move": move, "at": n}))
                after = await state(seat, n + 1)
                if after["history"][n]["text"] != move:
                    tally["errors"].append(f"game {gid} move {n + 1}: acknowledged something else")
                tally["acknowledged"].setdefault(gid, []).append(move)
                n += 1


def load(games: int, seconds: float) -> None:
    data = tempfile.mkdtemp(prefix="tgpl-bench-load-")
    port = free_port()
    per_slot = max(4, int(seconds))  # a Connect Four game of random moves takes about a second here
    proc = subprocess.Popen([sys.executable, "-c", SERVER, data, str(games), str(per_slot), str(port)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        slots = json.loads(proc.stdout.readline())
        for _ in range(400):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.05)
        tally = {"errors": [], "acknowledged": {}}
        start = time.monotonic()

        async def run_all():
            await asyncio.gather(*(play_slot(port, slot, seconds, random.Random(i), tally)
                                   for i, slot in enumerate(slots)))

        asyncio.run(run_all())
        took = time.monotonic() - start
    finally:
        proc.terminate()
        proc.wait()
    db = sqlite3.connect(Path(data) / "games.sqlite3")
    lost = 0
    for gid, moves in tally["acknowledged"].items():
        stored = [t for (t,) in db.execute("SELECT text FROM moves WHERE game = ? ORDER BY number", (gid,))]
        lost += sum(1 for a, b in zip(moves, stored) if a != b) + max(0, len(moves) - len(stored))
    total = sum(len(m) for m in tally["acknowledged"].values())
    print(f"load: {games} concurrent games for {took:.0f} s: {total} moves acknowledged ({total / took:.0f}/s) "
          f"over {len(tally['acknowledged'])} games; errors {len(tally['errors'])}, lost moves {lost}")
    for e in tally["errors"][:5]:
        print(f"  error: {e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=40, help="clicks timed per game")
    parser.add_argument("--games", type=int, default=50, help="concurrent games of the load test")
    parser.add_argument("--seconds", type=float, default=60, help="how long the load test plays")
    parser.add_argument("--only", choices=["clicks", "load"])
    args = parser.parse_args()
    if args.only != "load":
        clicks(args.clicks)
    if args.only != "clicks":
        load(args.games, args.seconds)


if __name__ == "__main__":
    main()
