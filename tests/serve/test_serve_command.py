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
import urllib.request

from click.testing import CliRunner
from websockets.sync.client import connect

from tgpl.cli import main
from tgpl.frontend.loader import display_path  # what diagnostics show: relative to the working directory

LINK = re.compile(r"player (\d) \(human\): (http://\S+/play/(\d+)\?token=(\S+))")
HOST = re.compile(r"host \(every game, new games, records\): http://\S+/\?host=(\S+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data, port: int) -> tuple[subprocess.Popen, dict[int, str], int, str]:
    """The server as a user starts it; returns it, each seat's token, the game's id and the host's token."""
    proc = subprocess.Popen([sys.executable, "-m", "tgpl", "serve", "examples/tris.tgpl", "--players", "human,human",
                             "--data", str(data), "--port", str(port)], stdout=subprocess.PIPE, text=True,
                            cwd=os.getcwd())
    tokens, gid, host = {}, None, None
    for _ in range(10):
        line = proc.stdout.readline()
        m = LINK.search(line)
        if m:
            tokens[int(m.group(1))] = m.group(4)
            gid = int(m.group(3))
        if m := HOST.search(line):
            host = m.group(1)
            break
    wait_listening(port)
    return proc, tokens, gid, host


def wait_listening(port: int) -> None:
    """Until the server accepts a connection on the port: counted tries, not a time."""
    for _ in range(400):
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return
        except OSError:
            time.sleep(0.05)


def states(ws, number: int) -> dict:
    for _ in range(20):
        m = json.loads(ws.recv(timeout=60))
        assert m["type"] == "state", m
        if m["number"] == number:
            return m
    raise AssertionError(f"no state at move {number}")


def play(port: int, gid: int, tokens: dict[int, str], moves: int, start: int = 0) -> list[str]:
    """`moves` moves of a Tris game by its two seats, each acknowledged (the state after it came back)."""
    played = []
    url = f"ws://127.0.0.1:{port}/ws/{gid}?token="
    with connect(url + tokens[0]) as p0, connect(url + tokens[1]) as p1:
        for n in range(start, start + moves):
            ws = (p0, p1)[n % 2]
            move = states(ws, n)["moves"][-1]["text"]
            ws.send(json.dumps({"type": "move", "move": move, "at": n}))
            states(ws, n + 1)  # acknowledged: the state after it
            played.append(move)
    return played


def test_sigkill_mid_game_loses_no_acknowledged_move(tmp_path):
    """Two games in the middle of play, the server killed with SIGKILL and started again: both resume at
    their last acknowledged move, with the same invite links."""
    port = free_port()
    proc, tokens, gid, host = start(tmp_path, port)
    try:
        played = play(port, gid, tokens, 3)
        base = f"http://127.0.0.1:{port}"
        form = f"host={host}&path={os.path.abspath('examples/tris.tgpl')}&players=human,human&seed=5".encode()
        urllib.request.urlopen(base + "/games", data=form).close()  # the host's second game
        with urllib.request.urlopen(f"{base}/?host={host}") as page:
            lobby = page.read().decode()
        second = max(int(g) for g in re.findall(r"data-game='(\d+)'", lobby))
        seat_tokens = re.findall(rf"player (\d) \(human\): <a href='[^']*/play/{second}\?token=([^']+)'", lobby)
        tokens2 = {int(seat): token for seat, token in seat_tokens}
        assert len(tokens2) == 2
        played2 = play(port, second, tokens2, 2)
        played += play(port, gid, tokens, 1, start=3)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, again, gid2, host2 = start(tmp_path, port)
    try:
        assert again == tokens and gid2 == gid and host2 == host  # the same game, the same invite links
        for g, t, moves in ((gid, tokens, played), (second, tokens2, played2)):
            with connect(f"ws://127.0.0.1:{port}/ws/{g}?token={t[len(moves) % 2]}") as ws:
                resumed = states(ws, len(moves))
                assert [h["text"] for h in resumed["history"]] == moves
                assert len(resumed["moves"]) == 9 - len(moves)
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


def test_another_host_is_warned_of_and_sigterm_stops_cleanly(tmp_path):
    """127.0.0.1 unless --host says otherwise, and then a warning; SIGTERM is a clean stop (exit 0)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tgpl", "serve", "examples/tris.tgpl", "--host", "0.0.0.0",
                             "--port", str(port), "--data", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        warning = proc.stderr.readline()
        assert warning.startswith("warning: listening on 0.0.0.0: anyone who can reach this machine"), warning
        wait_listening(port)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"http://localhost:{port}/play/" in out and "tgpl serve: stopped" in out
    assert "Traceback" not in err and "Aborted" not in out + err
    # the default is loopback, with no warning: a port taken there is what it says it cannot listen on
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "examples/tris.tgpl", "--port", str(busy), "--data", str(tmp_path)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{busy}" in result.output
    assert "warning" not in result.output
