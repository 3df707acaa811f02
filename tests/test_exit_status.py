"""The README's exit-status table, command by command: each documented status, produced.

0 ok / yes; 1 the thing examined has a problem; 2 the command could not do its job
(usage, unreadable files, a game with errors given to a command that needs a good one,
not lowerable); 3 `play` stopped by --max-moves. Each row is one small, fast run.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main

ROOT = Path(__file__).resolve().parents[1]
TRIS = str(ROOT / "examples" / "tris.tgpl")
CITADELS = str(ROOT / "examples" / "citadels" / "citadels.tgpl")  # not lowerable, said at once
TTT = str(ROOT / "examples" / "gdl" / "tictactoe.kif")
DATA = ROOT / "tests" / "data"
STUCK, LOOP = str(DATA / "defect_stuck.tgpl"), str(DATA / "defect_loop.tgpl")
TICK = "PlayerState#0.Tick(chosenTile: TrisGrid[0][0])"

FILES = {
    "bad.tgpl": 'game "t";\nplayers 2;\nsetup { log(nope); }\n',
    "bad.kif": "(role a)\n(<= (legal a go) (does a go))\n",
    "boom.tgpl": 'game "t";\nplayers 2;\nsetup { number z = 0; log(1 / z); }\n',
    "endless.tgpl": 'game "e";\nplayers 2;\nsetup { PlayerState a = new PlayerState(); a.assign(0); PlayerState b = new PlayerState(); b.assign(1); turn.use("T"); turn.pass(0, "P"); }\nturn T { phase P { } default { turn.pass(player.active() + 1, "P"); } }\nclass PlayerState { action Wait { trigger PlayerChoiceEvent { return true; } effect { turn.pass(); } } }\n',
    "moves.txt": "PlayerState#1.Tick(chosenTile: TrisGrid[0][0])\n",
    # tic-tac-toe on a 59 x 59 board: more ground rule instances than --max-ground allows (refused, not grounded)
    "big.kif": Path(TTT).read_text(encoding="utf-8").replace(
        "(index 3)", "\n".join(f"(index {i})" for i in range(3, 60))),
}

CASES = [
    # command, arguments ({tmp} is the test's folder), exit status
    ("check", [TRIS], 0),
    ("check", ["{tmp}/bad.tgpl"], 1),
    ("check", ["{tmp}/missing.tgpl"], 1),
    ("check", [], 2),
    ("check", ["--lowerable", TRIS], 0),
    ("check", ["--lowerable", CITADELS], 1),
    ("check", ["--lowerable", "{tmp}/bad.tgpl"], 1),
    ("check", ["--lowerable", TRIS, "--max-seconds", "0.001"], 2),
    ("play", [TRIS, "--players", "random,random", "--quiet"], 0),
    ("play", [STUCK, "--players", "first,first", "--quiet"], 1),
    ("play", [TRIS, "--players", "first,first", "--moves", "{tmp}/moves.txt", "--quiet"], 1),
    ("play", ["{tmp}/bad.tgpl", "--players", "first,first"], 2),
    ("play", [TRIS, "--players", "nobody"], 2),
    ("play", [TRIS, "--players", "first,first", "--record", "{tmp}/no/such/r.json"], 2),
    ("play", ["{tmp}/endless.tgpl", "--players", "first,first", "--max-moves", "5", "--quiet"], 3),
    ("replay", ["{tmp}/good.json"], 0),
    ("replay", ["{tmp}/tampered.json"], 1),
    ("replay", ["{tmp}/missing.json"], 2),
    ("check-gdl", [TTT], 0),
    ("check-gdl", ["{tmp}/bad.kif"], 1),
    ("check-gdl", ["{tmp}/big.kif"], 1),
    ("check-gdl", [], 2),
    ("to-gdl", [TRIS, "--no-validate", "--stats"], 0),
    ("to-gdl", ["{tmp}/boom.tgpl"], 1),
    ("to-gdl", [CITADELS, "--no-validate"], 2),
    ("to-gdl", ["{tmp}/bad.tgpl"], 2),
    ("to-gdl", [TRIS, "-o", "{tmp}/no/such/t.kif"], 2),
    # past --max-seconds (here before the first check: loading alone takes longer than a millisecond)
    ("to-gdl", [TRIS, "-o", "{tmp}/late.kif", "--max-seconds", "0.001"], 2),
    ("to-gdl", [TRIS, "--dry-run"], 0),
    ("to-gdl", [CITADELS, "--dry-run", "--json"], 1),
    ("to-gdl", ["{tmp}/boom.tgpl", "--dry-run"], 1),
    ("to-gdl", ["{tmp}/bad.tgpl", "--dry-run"], 2),
    ("to-gdl", [TRIS, "--json"], 2),
    ("to-asp", [TTT, "-o", "{tmp}/t.lp"], 0),
    ("to-asp", ["{tmp}/boom.tgpl"], 1),
    ("to-asp", ["{tmp}/bad.kif"], 2),
    ("to-asp", ["{tmp}/big.kif"], 2),
    ("to-asp", [TRIS, "-o", "{tmp}/late.lp", "--max-seconds", "0.001"], 2),
    ("verify", [STUCK, "--json"], 1),
    ("verify", [TRIS, "--max-states", "20", "--json"], 0),
    ("verify", ["{tmp}/bad.tgpl"], 2),
    ("verify", [TRIS, "--max-states", "0"], 2),
    ("verify", ["{tmp}/big.kif", "--horizon", "2"], 2),
    ("verify", [TRIS, "--engine", "clingo", "--max-seconds", "0.001"], 2),
    ("query", [TRIS, "GameState.TickedCount == 1", "--horizon", "1"], 0),
    ("query", [TRIS, "GameState.TickedCount == 3", "--horizon", "1"], 1),
    ("query", [CITADELS, "true"], 2),
    ("query", [TRIS, "GameState.Nothing == 1"], 2),
    ("query", [TTT, "true"], 2),
    ("query", [TRIS, "true", "--max-ground", "10"], 2),
    ("query", [TRIS, "GameState.TickedCount == 3", "--max-seconds", "0.001"], 2),
    ("analyze", [TRIS, "--games", "2", "--jobs", "1"], 0),
    ("analyze", [STUCK, "--games", "1", "--players", "first,first", "--jobs", "1"], 1),
    ("analyze", ["{tmp}/bad.tgpl", "--jobs", "1"], 2),
    ("analyze", [TRIS, "--games", "1", "--score", "Gold"], 2),
    # stopped by Ctrl-C (`test_exit_status_is_the_documented_one` sends SIGINT once it listens on {port})
    ("serve", [TRIS, "--players", "first,first", "--port", "{port}", "--data", "{tmp}/serve"], 0),
    ("serve", ["{tmp}/bad.tgpl", "--data", "{tmp}/serve"], 2),
    ("serve", [TRIS, "--players", "human,wizard", "--data", "{tmp}/serve"], 2),
    ("compare", [STUCK, STUCK], 0),
    ("compare", [STUCK, LOOP], 1),
    ("compare", [STUCK, "{tmp}/bad.tgpl"], 2),
    ("compare", [STUCK, LOOP, "--max-seconds", "0.001"], 2),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("exit")
    for name, text in FILES.items():
        (tmp / name).write_text(text, encoding="utf-8")
    played = CliRunner().invoke(main, ["play", TRIS, "--players", "random,random", "--seed", "3", "--quiet",
                                       "--record", str(tmp / "good.json")])
    assert played.exit_code == 0, played.output
    record = json.loads((tmp / "good.json").read_text(encoding="utf-8"))
    record["moves"][1]["player"] = 0
    (tmp / "tampered.json").write_text(json.dumps(record), encoding="utf-8")
    return tmp


@pytest.mark.parametrize("command,args,status", CASES, ids=[f"{c}-{s}-{i}" for i, (c, _, s) in enumerate(CASES)])
def test_exit_status_is_the_documented_one(folder, command, args, status):
    port = _free_port()
    done = threading.Event()
    if "{port}" in args:
        threading.Thread(target=_interrupt_once_listening, args=(port, done), daemon=True).start()
    try:
        result = CliRunner().invoke(main, [command, *(a.replace("{tmp}", str(folder)).replace("{port}", str(port))
                                                      for a in args)])
    finally:
        done.set()
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def test_every_command_and_status_of_the_readme_is_covered():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Exit status"):]
    rows = {line.split("|")[1].strip().strip("`").removeprefix("tgpl ") for line in table.splitlines()
            if line.startswith("| `tgpl ")}
    assert rows == set(main.commands)  # one row per command
    assert {c for c, _, _ in CASES} == set(main.commands)
    for command in main.commands:
        documented = {int(s) for s in range(4)
                      if _cell(table, command, s) not in ("", "-")}
        assert documented == {s for c, _, s in CASES if c == command}, command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _interrupt_once_listening(port: int, done: threading.Event) -> None:
    """Ctrl-C for `tgpl serve` running in this process, once it accepts connections (counted
    tries); never once the command has returned (it failed to start): the signal would stop pytest."""
    for _ in range(2000):
        if done.is_set():
            return
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            break
        except OSError:
            time.sleep(0.05)
    if not done.is_set():
        os.kill(os.getpid(), signal.SIGINT)


def _cell(table: str, command: str, status: int) -> str:
    for line in table.splitlines():
        if line.startswith(f"| `tgpl {command}`"):
            return line.split("|")[2 + status].strip()
    raise AssertionError(f"no row for {command}")


# ------------------------------------------------------------ the installed program (`tgpl`, `python -m tgpl`)
# `tgpl.cli.run` ends the process without freeing its objects one by one (a lowering leaves millions):
# what it printed or wrote must be complete, and its status the command's.
def _program(*args: str, cwd: Path) -> "subprocess.CompletedProcess[str]":
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "tgpl", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_the_program_exits_with_the_commands_status_and_all_its_output(tmp_path):
    (tmp_path / "bad.tgpl").write_text(FILES["bad.tgpl"], encoding="utf-8")
    done = _program("check", "bad.tgpl", cwd=tmp_path)
    assert done.returncode == 1
    assert "bad.tgpl:3:" in done.stderr and done.stderr.rstrip().endswith("bad.tgpl: 1 error")
    assert _program("check", TRIS, cwd=tmp_path).returncode == 0
    assert _program("no-such-command", cwd=tmp_path).returncode == 2
    assert _program("--version", cwd=tmp_path).stdout.startswith("tgpl, version")


def test_the_program_writes_the_whole_lowered_game_before_it_exits(tmp_path):
    from click.testing import CliRunner as Runner

    expected = Runner().invoke(main, ["to-gdl", TRIS, "--no-validate"]).output
    printed = _program("to-gdl", TRIS, "--no-validate", cwd=tmp_path)
    assert printed.returncode == 0 and printed.stdout == expected  # to a pipe: flushed in full
    written = _program("to-gdl", TRIS, "--no-validate", "-o", "tris.kif", cwd=tmp_path)
    assert written.returncode == 0 and (tmp_path / "tris.kif").read_text(encoding="utf-8") == expected


def test_running_out_of_memory_is_a_message_and_status_2(monkeypatch, capsys):
    # clingo reports a grounding that outgrows the machine as MemoryError (bad_alloc): chess's compiled moves
    # under `verify --horizon 1 --max-ground 10**18` took 8 GB in two minutes before this message
    import tgpl.cli as cli

    def too_large(**_):
        raise MemoryError("bad_alloc")

    class Exited(Exception):
        pass

    def exit_(code):
        raise Exited(code)

    monkeypatch.setattr(cli.main, "main", too_large)
    monkeypatch.setattr(cli.os, "_exit", exit_)
    with pytest.raises(Exited) as exited:
        cli.run()
    assert exited.value.args == (2,)
    err = capsys.readouterr().err
    assert err.startswith("tgpl: error: out of memory") and "Traceback" not in err
