"""`tgpl serve` as a command: its options, and a server killed with SIGKILL mid-game that
resumes every game at its last acknowledged move when started again."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

from click.testing import CliRunner
from websockets.sync.client import connect

from tgpl.cli import main
from tgpl.frontend.loader import display_path  # what diagnostics show: relative to the working directory

LINK = re.compile(r"player (\d) \(human\): (http://\S+/play/(\d+)\?token=(\S+))")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data, port: int) -> tuple[subprocess.Popen, dict[int, str], int]:
    """The server as a user starts it; returns it, each seat's token and the game's id."""
    proc = subprocess.Popen([sys.executable, "-m", "tgpl", "serve", "examples/tris.tgpl", "--players", "human,human",
                             "--data", str(data), "--port", str(port)], stdout=subprocess.PIPE, text=True,
                            cwd=os.getcwd())
    tokens, gid = {}, None
    for _ in range(10):
        line = proc.stdout.readline()
        m = LINK.search(line)
        if m:
            tokens[int(m.group(1))] = m.group(4)
            gid = int(m.group(3))
        if len(tokens) == 2:
            break
    for _ in range(400):  # until it listens: counted tries
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, tokens, gid


def states(ws, number: int) -> dict:
    for _ in range(20):
        m = json.loads(ws.recv(timeout=60))
        assert m["type"] == "state", m
        if m["number"] == number:
            return m
    raise AssertionError(f"no state at move {number}")


def test_sigkill_mid_game_loses_no_acknowledged_move(tmp_path):
    port = free_port()
    proc, tokens, gid = start(tmp_path, port)
    played = []
    try:
        url = f"ws://127.0.0.1:{port}/ws/{gid}?token="
        with connect(url + tokens[0]) as p0, connect(url + tokens[1]) as p1:
            for n in range(3):
                ws = (p0, p1)[n % 2]
                move = states(ws, n)["moves"][-1]["text"]
                ws.send(json.dumps({"type": "move", "move": move, "at": n}))
                states(ws, n + 1)  # acknowledged: the state after it
                played.append(move)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, again, gid2 = start(tmp_path, port)
    try:
        assert again == tokens and gid2 == gid  # the same game, the same invite links
        with connect(f"ws://127.0.0.1:{port}/ws/{gid}?token={tokens[1]}") as p1:
            resumed = states(p1, 3)
            assert [h["text"] for h in resumed["history"]] == played
            assert len(resumed["moves"]) == 6
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_a_game_with_errors_is_reported_and_exits_2(tmp_path):
    bad = tmp_path / "bad.tgpl"
    bad.write_text('game "bad";\nplayers 2;\nsetup { x = ; }\n')
    result = CliRunner().invoke(main, ["serve", str(bad), "--data", str(tmp_path / "d")])
    assert result.exit_code == 2
    assert f"{display_path(bad)}:3:" in result.output


def test_unknown_seats_are_a_usage_error(tmp_path):
    result = CliRunner().invoke(main, ["serve", "examples/tris.tgpl", "--players", "human,wizard",
                                       "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown agent 'wizard'" in result.output
    result = CliRunner().invoke(main, ["serve", "examples/tris.tgpl", "--players", "human,human,human",
                                       "--data", str(tmp_path)])
    assert result.exit_code == 2 and "the game has 2 players, not 3" in result.output
