"""The `tgpl` command line."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

import click

from tgpl import __version__
from tgpl.frontend.diagnostics import Diagnostic, render, to_json
from tgpl.frontend.loader import Program, load_program

# The default of every --max-seconds, where set: a batch of commands (a test suite, a script on a slow machine)
# sets its wall-clock limit once (language decision 110).
MAX_SECONDS_VAR = "TGPL_MAX_SECONDS"


def _styled(text: str, d: Diagnostic, color: bool) -> str:
    if not color:
        return text
    head, _, rest = text.partition("\n")
    fg = "red" if d.is_error else "yellow"
    label = f"{d.severity.value}:"
    head = head.replace(label, click.style(label, fg=fg, bold=True), 1)
    return head + ("\n" + rest if rest else "")


def report(program: Program, as_json: bool) -> None:
    """Print diagnostics: human-readable on stderr, or JSON on stdout."""
    if as_json:
        click.echo(to_json(program.diagnostics))
        return
    color = sys.stderr.isatty()
    for d in program.diagnostics:
        click.echo(_styled(render(d, program.sources), d, color), err=True)
    errors = sum(d.is_error for d in program.diagnostics)
    warnings = len(program.diagnostics) - errors
    if errors or warnings:
        parts = [f"{errors} error{'s' * (errors != 1)}"] if errors else []
        if warnings:
            parts.append(f"{warnings} warning{'s' * (warnings != 1)}")
        click.echo(f"{program.main}: {', '.join(parts)}", err=True)


@click.group()
@click.version_option(__version__, prog_name="tgpl")
def main() -> None:
    """tgpl: check, play and verify games written in TGPL."""


def run() -> None:
    """The `tgpl` program: `main`, then an exit that skips freeing every object one by one.

    A lowering leaves millions of objects behind (interned conditions, answers kept for the run);
    Python frees each at exit, which took 0.45 s after five in a row's to-gdl. As mypy's
    `hard_exit`: the streams are flushed and the exit handlers run (logging, an optional Ray), then
    the process ends. The tests call `main` itself, which exits as click does."""
    import atexit

    from tgpl.limits import LimitReached

    try:
        main.main(prog_name="tgpl", obj=_Program())
        code: object = 0
    except SystemExit as e:
        code = e.code
    except LimitReached as e:  # every command says where it stopped itself; this is the net under them
        click.echo(f"tgpl: error: {e.message}", err=True)
        code = 2
    except MemoryError:  # clingo's grounding of a game too large for the machine (bad_alloc), above all
        click.echo("tgpl: error: out of memory: the game grew too large for this machine; a smaller "
                   "--max-ground (where the command has one) refuses such a game before it starts", err=True)
        code = 2
    if code is not None and not isinstance(code, int):  # sys.exit("message"): printed, status 1
        click.echo(code, err=True)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError, OSError):  # a reader that went away, or a closed stream
            pass
    os._exit(code or 0)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
@click.option("--lowerable", is_flag=True,
              help="Also say, in seconds, what of each game lowers to GDL, how, and what does not and why (the dry "
                   "run of to-gdl); exit 1 if something does not lower.")
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=600.0, show_default=True,
              envvar=MAX_SECONDS_VAR, show_envvar=True,
              help="With --lowerable: after this many seconds of the whole command, stop (exit 2).")
@click.option("--max-memory", type=click.IntRange(min=1), default=None, metavar="MB",
              help="With --lowerable: past this much memory in use, stop (exit 2)  [default: a quarter of the "
                   "machine's]")
def check(files: tuple[str, ...], as_json: bool, lowerable: bool, max_seconds: float, max_memory: int | None) -> None:
    """Parse and check game files; exit 1 if any has an error."""
    if lowerable:
        _check_lowerable(files, as_json, _limits(max_seconds, max_memory))
        return
    failed = False
    collected: list[Diagnostic] = []
    for path in files:
        program = load_program(path)
        failed |= not program.ok
        if as_json:
            collected.extend(program.diagnostics)
        else:
            report(program, as_json=False)
            if program.ok:
                click.echo(f"{program.main}: ok")
    if as_json:
        click.echo(to_json(collected))
    sys.exit(1 if failed else 0)


def _check_lowerable(files: tuple[str, ...], as_json: bool, limits) -> None:
    """`check --lowerable`: each game checked, then its dry run (`_dry_run`); exit 1 if a game has an error or
    something of it does not lower, 2 past the limits."""
    import json

    failed = undecided = False
    answers = []
    for path in files:
        program = load_program(path)
        if not program.ok:
            failed = True
            if as_json:
                answers.append({"file": path, "diagnostics": [d.to_json() for d in program.diagnostics],
                                "lowerable": None})
            else:
                report(program, as_json=False)
            continue
        if not as_json:
            report(program, as_json=False)
        answer = _dry_run(path, 0, None, "auto", False, limits, as_json, program)
        undecided |= answer.undecided
        failed |= bool(answer.refusals)
        if as_json:
            answers.append({"file": path, "diagnostics": [d.to_json() for d in program.diagnostics],
                            "lowerable": answer.to_json()})
    if as_json:
        click.echo(json.dumps(answers, indent=2, ensure_ascii=False))
    sys.exit(1 if failed else 2 if undecided else 0)


# ------------------------------------------------------------------ playing
AGENTS = ("human", "random", "first", "mcts[:N][:batched[=K]]")


def _load_game(path: str, players: int | None = None):
    """The compiled game; a game with errors (or unreadable) is reported and exits 2: the command
    cannot do its job with it (`check` is the command whose job is finding them)."""
    program = load_program(path)
    if not program.ok:
        report(program, as_json=False)
        sys.exit(2)
    return _game_of(program, players)


def _game_of(program, players: int | None = None):
    """The game of a program without errors, for `players` (the game's minimum by default; a count it does not
    allow is a usage error)."""
    from tgpl.runtime.game import Game, compile_program

    compiled = compile_program(program)
    if players is not None and players not in compiled.players:
        counts = compiled.players
        allowed = f"{counts.start}" if len(counts) == 1 else f"{counts.start} to {counts[-1]}"
        raise click.BadParameter(f"the game has {allowed} players, not {players}", param_hint="--players")
    return Game(program, compiled, players)


def _players_option(command):
    """`--players N` of verify, query, compare and to-gdl: the count a game with a player range is examined for."""
    return click.option("--players", "players", type=click.IntRange(min=1), default=None,
                        help="The number of players, for a game that allows several (default: the game's "
                             "minimum); the output says which count was examined.")(command)


def _writable(path: str | None, option: str) -> None:
    """Refuse an output path whose folder is missing or read-only before any work is done,
    so that no run loses its result at the end."""
    import os

    if path is None or path == "-":
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise click.BadParameter(f"'{path}' is a folder", param_hint=option)
    if not os.path.isdir(folder):
        raise click.BadParameter(f"the folder '{os.path.dirname(path) or '.'}' does not exist", param_hint=option)
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"the folder '{os.path.dirname(path) or '.'}' is not writable", param_hint=option)


def _read_option_file(path: str, option: str, limit: int) -> str:
    """A file named by an option ('-': stdin), read whole and decoded, or a usage error."""
    from tgpl.frontend.sources import UnreadableFile, read_source

    if path == "-":
        return sys.stdin.read()
    try:
        return read_source(path, limit)
    except UnreadableFile as e:
        raise click.BadParameter(str(e), param_hint=option) from None


def _player_count(spec: str | None, allowed: range) -> int:
    """How many play: the number of agents `--players` lists (at least the minimum), else the minimum."""
    if not spec:
        return allowed.start
    listed = len(spec.split(","))
    if listed > allowed[-1]:
        counts = f"{allowed.start}" if len(allowed) == 1 else f"{allowed.start} to {allowed[-1]}"
        raise click.BadParameter(f"the game has {counts} players, not {listed}", param_hint="--players")
    return max(listed, allowed.start)


def _agents(spec: str | None, players: int, seed: int, human_io):
    from tgpl.play.agents import HumanAgent, automatic_agent

    names = [n.strip() for n in spec.split(",")] if spec else ["human"] + ["random"] * (players - 1)
    if len(names) > players:
        raise click.BadParameter(f"the game has {players} players, not {len(names)}", param_hint="--players")
    names += ["random"] * (players - len(names))
    agents = []
    for p, name in enumerate(names):
        if name == "human":
            agents.append(HumanAgent(*human_io))
            continue
        try:
            agents.append(automatic_agent(name, seed, p))
        except ValueError as e:
            raise click.BadParameter(f"{e}; expected one of {', '.join(AGENTS)}", param_hint="--players") from None
    return agents


@contextmanager
def _game_errors(where: str, program=None):
    """Errors of a game being played, as one message and exit status 1; a runtime error shown with its
    source line, the expression at fault and the moves that reach it when the game's `program` is given."""
    from tgpl.runtime.errors import TGPLRuntimeError
    from tgpl.runtime.game import IllegalMove
    from tgpl.play.play import StuckError

    try:
        yield
    except MemoryError:
        click.echo(f"{where}: error: out of memory: the game grew too large for this machine", err=True)
        sys.exit(2)
    except IllegalMove as e:
        click.echo(f"{where}: error: illegal move '{e.text}': {e.reason}", err=True)
        sys.exit(1)
    except StuckError as e:
        click.echo(f"{where}: error: {e}", err=True)
        sys.exit(1)
    except TGPLRuntimeError as e:
        if program is None:
            click.echo(e.render(), err=True)
        else:
            from tgpl.play.error_report import render_runtime_error

            click.echo(render_runtime_error(e, program.modules, program.sources, e.moves), err=True)
        sys.exit(1)


def _result_line(state) -> str:
    ranking = state.ranking
    if ranking is None:
        return "the game did not end"
    if not any(ranking):  # `winner {};`: a lone player's loss (decision 96)
        return "no winner" + (": player 0 lost" if state.game.players == 1 else "")
    if len(ranking) == 1 and len(ranking[0]) > 1:
        return "draw between players " + ", ".join(str(p) for p in ranking[0])
    if len(ranking) == 1:
        return f"winner: player {ranking[0][0]}"
    return "ranking: " + "; ".join(
        f"{i + 1}. " + ", ".join(f"player {p}" for p in rank) for i, rank in enumerate(ranking)
    )


MOVES_FILE_LIMIT = 10_000_000  # bytes of a --moves file
# `tgpl play` when the game has not ended after --max-moves moves (README, "Exit status").
EXIT_NOT_ENDED = 3


def _max_steps_option(command):
    from tgpl.runtime.machine import STEP_LIMIT

    return click.option("--max-steps", type=click.IntRange(min=1), default=STEP_LIMIT, show_default=True,
                        help="Loop steps one move may take before it stops with a runtime error.")(command)


@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--players", "players_spec", help="Agents by seat, e.g. human,random (default: human then random).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the game's random generator.")
@click.option("--moves", "moves_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Moves to play first, one per line ('-': stdin).")
@click.option("--record", "record_file", type=click.Path(dir_okay=False), help="Write the game record (JSON) here.")
@click.option("--json", "as_json", is_flag=True, help="Print the final state as JSON.")
@click.option("--quiet", is_flag=True, help="Print only the result.")
@click.option("--max-moves", type=click.IntRange(min=1), default=10_000, show_default=True,
              help=f"Stop after this many moves; a game still going then exits {EXIT_NOT_ENDED}.")
@_max_steps_option
def play(game, players_spec, seed, moves_file, record_file, as_json, quiet, max_moves, max_steps):
    """Play GAME with humans and agents; the same seed and moves give the same game."""
    import functools
    import json
    from tgpl.play.agents import ScriptAgent, read_line
    from tgpl.play.display import describe_move, describe_text, render_state
    from tgpl.play.play import play as run

    _writable(record_file, "--record")
    script = None
    if moves_file is not None:
        script = ScriptAgent(_read_option_file(moves_file, "--moves", MOVES_FILE_LIMIT).splitlines())
    g = _load_game(game)
    count = _player_count(players_spec, g.compiled.players)
    if count != g.players:  # a game for a range of players: as many as `--players` lists
        g = type(g)(g.program, g.compiled, count)
    g.step_limit = max_steps
    say = (lambda text: None) if (quiet or as_json) else click.echo
    # A human sees the state as their seat may (language decision 94: others' hands as counts), and each
    # log line once, after the move that wrote it (on_move): not again with the board.
    board = render_state if (quiet or as_json) else functools.partial(render_state, log=False)
    human_io = (read_line, click.echo, lambda state: board(state, state.active_player), describe_move)
    agents = _agents(players_spec, g.players, seed, human_io)
    shown_log = [0]
    humans = [p for p, a in enumerate(agents) if a.name == "human"]
    # With one human at the terminal, the moves printed are theirs to read: others' hidden cards redacted
    reader = humans[0] if len(humans) == 1 else None
    before: list = [None]  # the state before the move being printed, kept only for a human reader

    def on_move(player, text, state):
        if reader is not None and player != reader:
            from tgpl.serve.views import redact, sight

            text = redact(text, sight(before[0].world, reader), sight(state.world, reader))
        # objects labelled with their `Name`, as a human's list of moves shows them (after the redaction:
        # a hidden card's name is not there to label)
        text = describe_text(text, *(s.world for s in (before[0], state) if s is not None))
        before[0] = state
        say(f"player {player}: {text}")
        for line in state.world.log[shown_log[0]:]:
            say(f"  log: {line}")
        shown_log[0] = len(state.world.log)

    with _game_errors(game, g.program):  # setup's runtime errors too, located
        if reader is not None:
            before[0] = g.initial_state(seed)
        outcome = run(g, agents, seed, game, script, on_move, max_moves=max_moves)
    outcome_state = outcome.state
    if record_file:
        _write_output(outcome.record.to_json(), record_file)
    if as_json:
        click.echo(json.dumps(outcome_state.to_json(), indent=1, sort_keys=True))
    else:
        if not quiet:
            click.echo(board(outcome_state))
        click.echo(_result_line(outcome_state))
    if outcome.input_ended:
        saved = f"; the record is in {record_file}" if record_file else ""
        click.echo(f"{game}: end of input: the game stopped after {len(outcome.record.moves)} moves{saved}",
                   err=True)
        sys.exit(EXIT_NOT_ENDED)
    if not outcome_state.is_terminal:
        click.echo(f"{game}: the game did not end within {max_moves} moves (--max-moves)", err=True)
        sys.exit(EXIT_NOT_ENDED)


@main.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--game", "game_path", type=click.Path(dir_okay=False), help="The game file (default: the record's path).")
@click.option("--ignore-digest", is_flag=True,
              help="Replay even if the game's source differs from the one the record was made with.")
@_max_steps_option
def replay(record, game_path, ignore_digest, max_steps):
    """Replay a game record move by move; exit 1 at the first illegal move, a malformed record,
    a changed game source or a different result."""
    from tgpl.frontend.sources import UnreadableFile, read_source
    from tgpl.play.play import replay as run
    from tgpl.play.record import RECORD_LIMIT, Record, RecordError, source_digest

    try:
        rec = Record.from_json(read_source(record, RECORD_LIMIT, encoding="utf-8"))
    except UnreadableFile as e:
        click.echo(f"{record}: error: {e}", err=True)
        sys.exit(2)
    except RecordError as e:
        click.echo(f"{record}: error: {e}", err=True)
        sys.exit(1)
    g = _load_game(game_path or rec.path)
    g.step_limit = max_steps
    if len(rec.players) != g.players:  # the record's player count
        if len(rec.players) not in g.compiled.players:
            click.echo(f"{record}: error: field 'players': the record has {len(rec.players)} players; "
                       f"{g.name} does not allow that", err=True)
            sys.exit(1)
        g = type(g)(g.program, g.compiled, len(rec.players))
        g.step_limit = max_steps
    if source_digest(g.program.sources) != rec.source_digest and not ignore_digest:
        click.echo(f"{record}: error: field 'source_digest': the game's source changed since the record was made "
                   "(--ignore-digest replays it anyway)", err=True)
        sys.exit(1)
    with _game_errors(record, g.program):
        state = run(g, rec)
    result = {"ranking": state.ranking, "goals": state.goals} if state.is_terminal else None
    if result != rec.result:
        click.echo(f"{record}: error: field 'result': the replay ends with {result}, the record says {rec.result}",
                   err=True)
        sys.exit(1)
    if state.log != rec.log:
        line = next((i for i, (x, y) in enumerate(zip(state.log, rec.log)) if x != y), min(len(state.log), len(rec.log)))
        click.echo(f"{record}: error: field 'log': line {line + 1} differs from the replay's log", err=True)
        sys.exit(1)
    if rec.game != g.name:
        click.echo(f"{record}: error: field 'game': the record names '{rec.game}', the game is '{g.name}'", err=True)
        sys.exit(1)
    click.echo(f"{record}: ok, {len(rec.moves)} moves; {_result_line(state)}")


# ------------------------------------------------------------ serving
def _default_data_dir() -> str:
    """Where `tgpl serve` keeps its games by default: the user's data folder."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "tgpl", "serve")


@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback lets other machines join (a warning says so).")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--players", "players_spec", help="Seats: human (joins by an invite link) or a bot: random, first, "
                                                 "mcts or mcts:N (default: human then random).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the game's random generator.")
@click.option("--data", "data_dir", type=click.Path(file_okay=False),
              help="Folder of the games' database [default: ~/.local/share/tgpl/serve].")
@click.option("--turn-limit", "turn_limit", type=click.FloatRange(min=1), default=None,
              help="Seconds a human seat has for each decision; past them the server plays a random legal move "
                   "for it [default: no limit].")
def serve(game, host, port, players_spec, seed, data_dir, turn_limit):
    """Serve GAME in the browser: each seat joins by its invite link, bots play theirs, games
    survive a restart. Resumes the unfinished game with these seats and seed, else starts one."""
    import signal
    import socket
    import sqlite3

    import uvicorn

    from tgpl.serve.app import Server, create_app
    from tgpl.serve.session import Refused

    g = _load_game(game)  # reports a game with errors, exit 2
    count = _player_count(players_spec, g.compiled.players)
    names = [n.strip() for n in players_spec.split(",")] if players_spec else ["human"] + ["random"] * (count - 1)
    names += ["random"] * (count - len(names))
    try:  # bound here, so that a port in use is a usage error and --port 0 prints the port taken
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except (OSError, OverflowError) as e:
        click.echo(f"tgpl serve: error: cannot listen on {host}:{port}: {e.strerror or e}", err=True)
        sys.exit(2)
    port = listener.getsockname()[1]
    data_dir = data_dir or _default_data_dir()
    try:
        server = Server(data_dir, turn_limit=turn_limit)
    except (OSError, sqlite3.Error) as e:  # an unreadable, read-only or locked database
        click.echo(f"{data_dir}: error: cannot open the games' database: {e}", err=True)
        sys.exit(2)
    try:
        session = server.find(game, names, seed) or server.new_game(game, names, seed)
    except Refused as e:
        raise click.BadParameter(str(e), param_hint="--players") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: anyone who can reach this machine can open the pages; "
                   "seats still need their invite links", err=True)
    shown = "localhost" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{port}"
    click.echo(f"tgpl serve: {game}, game {session.stored.id} ({session.number} moves played), data in {data_dir}")
    for who, url in server.links(session, base):
        click.echo(f"  {who}: {url}")
    click.echo(f"  host (every game, new games, records): {base}/?host={server.host_token}")
    config = uvicorn.Config(create_app(server), log_level="warning", ws_max_size=1 << 20)
    # uvicorn stops on Ctrl-C or SIGTERM, then raises the signal again for the handler it found:
    # a handler that does nothing, so that stopping the server is a clean exit 0, not "Aborted!"
    stops = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.signal(s, lambda *_: None) for s in stops}
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        server.store.close()
    click.echo("tgpl serve: stopped; every game is kept and resumes when it is served again")


# ------------------------------------------------------------ analysis
@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="How many games to play.")
@click.option("--players", "players_spec", help="Agents by seat: random, first, mcts, mcts:N or mcts:N:batched=K "
                                                 "(default: random).")
@click.option("--seed", type=int, default=0, show_default=True, help="The first game's seed; game k has seed S+k.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Processes to play in  [default: this one, and one per core if the run "
                   "looks longer than a few seconds]")
@click.option("--max-moves", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="A game still going after this many moves counts as unfinished (apart from the figures; exit 1).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), help="Write PNG plots and index.html here.")
@click.option("--score", metavar="ATTRIBUTE",
              help="The number attribute of a player's objects that holds their score, for lead changes "
                   "[default: Score or Points, if the game has one; none: no score]")
@click.option("--ray", "ray_address", metavar="ADDRESS",
              help="Play on Ray: local (a new instance here), auto (the one this machine knows, else a new one) "
                   "or a cluster's host:port; needs pip install 'tgpl[ray]'.")
@click.option("--engine", type=click.Choice(["runtime", "batched"]), default="runtime", show_default=True,
              help="batched: random agents only, played by the batched engine on the lowered game "
                   "(docs/batched.md): millions of games, fewer figures.")
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=None, envvar=MAX_SECONDS_VAR,
              show_envvar=True, help="After this many seconds of the whole command (loading, lowering and the "
                                     "worker processes included), stop, writing nothing (exit 2)  [default: none]")
@click.option("--max-memory", type=click.IntRange(min=1), default=None, metavar="MB",
              help="Past this much memory in use (the worker processes' included), stop, writing nothing (exit 2); "
                   "with --engine batched the batches are sized to fit it, or the games are refused (exit 2)  "
                   "[default: a quarter of the machine's]")
@click.option("--backend", type=click.Choice(["numpy", "jax"]), default=None,
              help="With --engine batched: numpy, or jax (a GPU when there is one; pip install 'tgpl[gpu]')  "
                   "[default: numpy]")
def analyze(game, games, players_spec, seed, jobs, max_moves, as_json, report_dir, score, ray_address, engine,
            max_seconds, max_memory, backend):
    """Play GAME many times and report balance, length, branching, lead changes and decisiveness
    (docs/analyze.md); a .kif game (GDL or GDL-II): random playouts, each role's mean goal and the outcomes.

    Exit 0 when every game ran to its end, 1 when a game met a runtime error, got stuck or
    was still going after --max-moves moves (each with the seed that replays it), 2 when the
    command could not run.
    """
    limits = _limits(None if max_seconds == float("inf") else max_seconds, max_memory)
    if engine == "batched":
        from tgpl.batched.command import run_batched_analyze

        run_batched_analyze(game, games, players_spec, seed, jobs, max_moves, as_json, report_dir, score,
                            ray_address, limits.max_memory, backend or "numpy", limits)
        return
    if backend is not None:
        raise click.BadParameter("it chooses the batched engine's arrays (--engine batched)", param_hint="--backend")
    if game.lower().endswith(".kif"):  # random playouts on the GDL reasoner
        from tgpl.analysis.gdl_playouts import analyze_kif

        with _limit_errors(game, ": nothing written"):
            analyze_kif(game, games, players_spec, seed, max_moves, as_json,
                        {"--report": report_dir, "--score": score, "--ray": ray_address, "--jobs": jobs}, limits)
    from tgpl.analysis.command import run_analyze

    with _limit_errors(game, ": nothing written"):
        run_analyze(game, games, players_spec, seed, jobs, max_moves, as_json, report_dir, score, ray_address,
                    limits)


# ------------------------------------------------------------ limits
def _limits(max_seconds: float | None, max_memory: int | None):
    """The limits of this command (tgpl.limits): --max-seconds from now, --max-memory in MB (default: a quarter
    of the machine's). Made once per command, and handed down to every long loop it runs. Run as the `tgpl`
    program (`run`), counted from the process's start: the interpreter's start and the imports are the command's
    time too (a caller of `main`, as the tests, counts from now)."""
    from tgpl.limits import Limits, process_age

    limits = Limits(max_seconds, _max_memory(max_memory))
    context = click.get_current_context(silent=True)
    as_program = context is not None and context.find_object(_Program) is not None
    return limits.backdate(process_age()) if as_program else limits


class _Program:
    """The context object `run` hands the command: this process is the `tgpl` program, so its age is the
    command's time. Carried by click's context, not a module global, so that a test that calls `run` leaves
    the commands later called in the same process (through `main`) counting from their own start."""


def _limit_options(after: str, included: str = "lowering included"):
    """--max-seconds and --max-memory: the limits of the whole command, lowering included (tgpl.limits);
    `after` says what the command does past them, `included` what counts that one might think does not."""
    def add(command):
        command = click.option("--max-memory", type=click.IntRange(min=1), default=None, metavar="MB",
                               help=f"Past this much memory in use, {after}  [default: a quarter of the "
                                    "machine's]")(command)
        return click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=600.0,
                             show_default=True, envvar=MAX_SECONDS_VAR, show_envvar=True, help=f"After this many seconds of the whole command ({included}), "
                                                     f"{after}.")(command)
    return add


PARTIAL = "stop with a partial report (before any: exit 2)"
NOTHING_WRITTEN = "stop, writing nothing (exit 2)"


def _say_limit(path: str, e, lost: str = "") -> None:
    """A stop past the command's limits (tgpl.limits.LimitReached), on stderr: the stage it was at, where in the
    game the lowering was running, when it was, and what that work was done for (its notes)."""
    click.echo(f"{path}: error: {e.message}{lost}", err=True)
    if e.where is not None:
        inside = f" {e.inside}" if e.inside else ""
        click.echo(f"  the lowering was running{inside} at {e.where.file}:{e.where.line}:{e.where.col}", err=True)
    for note in e.notes:
        click.echo(f"  {note}", err=True)


@contextmanager
def _limit_errors(path: str, lost: str = ""):
    """A stop past the command's limits as an error naming the stage, and exit status 2 (the command could not
    do its job within them); `lost` follows the message (": nothing written")."""
    from tgpl.limits import LimitReached

    try:
        yield
    except LimitReached as e:
        _say_limit(path, e, lost)
        sys.exit(2)


@contextmanager
def _collector_off():
    """Python's cyclic collector off for a command that explores (verify, compare), and what is alive at its end
    frozen out of later collections (gc.freeze). An exploration keeps millions of objects (each state's edges,
    key and label: acyclic, freed by reference counting); tgpl.verify.graph.explore pauses the collector while
    it runs, and the first collection after it traversed them all: 1.6 s after compare's deadline on five in a
    row, longer than any stretch between two checks of its limits. They are thawed when the command's click
    context closes, so that a process running several commands (the tests, through click's CliRunner) collects
    the garbage among them again instead of keeping it for good."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        context = click.get_current_context(silent=True)
        if context is not None:
            context.find_root().call_on_close(gc.unfreeze)
        else:
            gc.unfreeze()
        if enabled:
            gc.enable()


class _Status:
    """Progress on stderr while a long command works: one line kept up to date on a terminal (rich's), else a
    plain line at most every PLAIN_EVERY seconds; nothing when `quiet`. Used as a context manager."""

    PLAIN_EVERY = 10.0

    def __init__(self, path: str, quiet: bool = False):
        import time

        from rich.console import Console

        self.path = path
        self.quiet = quiet
        self.console = Console(stderr=True, highlight=False)
        self.tty = self.console.is_terminal
        self.started = self.last = time.monotonic()
        self._status = None

    def __enter__(self):
        if self.tty and not self.quiet:
            self._status = self.console.status(f"{self.path}", spinner="dots")
            self._status.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._status is not None:
            self._status.stop()

    def show(self, text: str) -> None:
        import time

        if self.quiet:
            return
        now = time.monotonic()
        line = f"{self.path}: {text} ({now - self.started:,.1f} s)"
        if self._status is not None:
            self._status.update(line)
        elif now - self.last >= self.PLAIN_EVERY:
            click.echo(line, err=True)
            self.last = now


# ---------------------------------------------------------------------- GDL
def _max_ground_option(command):
    """--max-ground of the commands that ground a game (check-gdl, verify, to-asp, query)."""
    from tgpl.asp.estimate import MAX_GROUND

    return click.option("--max-ground", type=click.IntRange(min=1), default=MAX_GROUND, show_default=True,
                        metavar="N", help="Refuse, before grounding it, a game whose rules can have more than N "
                                          "ground instances (clingo's grounding cannot be interrupted); "
                                          "where such a game can be played one state at a time, each state "
                                          "within N, check-gdl accepts it and verify plays it (--grounding).")(command)


def _grounding_option(command):
    """--grounding of the commands that play or check a GDL game on clingo's reasoner (check-gdl, verify)."""
    return click.option(
        "--grounding", type=click.Choice(["auto", "once", "per-state"]), default="auto", show_default=True,
        help="Ground the GDL game once for every state, or one state at a time (for a game too large to ground "
             "whole); auto grounds once a game within --max-ground (docs/gdl.md, \"Ground per state\").")(command)


PLAYED_PER_STATE = ("the game is played one state at a time (its moves compiled, as chess's): a bounded search "
                    "grounds every state of its horizon at once, and a larger --max-ground runs out of memory "
                    "(chess: 8 GB at horizon 1); without --grounding once, `tgpl verify --horizon` searches it "
                    "state by state")


ESTIMATING = "estimating the grounding"
"""The stage of the bound of a lowered game's ground instances (`tgpl.asp.estimate.too_large`): a rule's join
at a time, checked at each (Checkers 6x6: over a second of CPU)."""


def _refuse_too_large(program, path: str, max_ground: int, sources: dict[str, str], per_state: bool = False,
                      limits=None) -> None:
    """A lowered game whose rules can have more than max_ground ground instances: the error, exit 2.
    `per_state`: the lowering says the game is played one state at a time, which the last note says instead
    of advising a larger --max-ground. `limits`: the command's, checked at each rule's bound."""
    from tgpl.asp.estimate import too_large
    from tgpl.limits import unlimited

    limits = limits if limits is not None else unlimited()
    with limits.during(ESTIMATING):
        problems = too_large(program, max_ground, path, remedy=PLAYED_PER_STATE if per_state else None,
                             check=limits.check)
    if problems:
        for d in problems:
            click.echo(render(d, sources), err=True)
        sys.exit(2)


@main.command("check-gdl")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
@_max_ground_option
@_grounding_option
def check_gdl(file: str, as_json: bool, max_ground: int, grounding: str) -> None:
    """Check that FILE.kif is valid GDL; exit 1 if it is not (or if it can ground to more than --max-ground
    rule instances and cannot be played one state at a time, see --grounding)."""
    from types import SimpleNamespace
    from tgpl.frontend.diagnostics import Severity, Span
    from tgpl.frontend.sources import MAX_GDL_BYTES, UnreadableFile, read_source
    from tgpl.asp.kif import KifError, read_kif
    from tgpl.asp.validate import validate

    sources: dict[str, str] = {}
    dialect = ""
    try:
        text = read_source(file, MAX_GDL_BYTES)
        sources[file] = text
        program = read_kif(text, file)
        diagnostics = validate(program, file, max_ground, grounding)
        dialect = _gdl_ii_dialect(program)
    except KifError as e:
        diagnostics = e.diagnostics
    except UnreadableFile as e:
        diagnostics = [Diagnostic(Severity.ERROR, Span(file, 1, 1, 1, 1), f"cannot read '{file}': {e.reason}")]
    # `report` only reads these three attributes of a Program.
    report(SimpleNamespace(main=file, sources=sources, diagnostics=diagnostics), as_json)
    failed = any(d.is_error for d in diagnostics)
    if not as_json and not failed:
        click.echo(f"{file}: ok{dialect}")
    sys.exit(1 if failed else 0)


def _gdl_ii_dialect(program) -> str:
    """What `check-gdl` adds to "ok" for a GDL-II game (docs/gdl.md, "GDL-II"); nothing for GDL."""
    from tgpl.asp.validate import RANDOM

    chance = any(a.args and a.args[0] == RANDOM for a in program.facts("role"))
    sees = "sees" in program.defined()
    if not chance and not sees:
        return ""
    what = [w for w, used in (("the chance role random", chance), ("percepts (sees)", sees)) if used]
    return f" (GDL-II: {' and '.join(what)})"


# ------------------------------------------------------------ lowering
def _lowered(game_path: str, seed: int, players: int | None, relations: bool = False, moves: str = "auto",
             limits=None):
    """The game lowered to GDL, or its refusal as a located diagnostic and exit 2. Past `limits` (the command's,
    tgpl.limits), LimitReached."""
    game = _load_checked(game_path, players, limits)
    return game, _lower_or_exit(game, game_path, seed, relations=relations, moves=moves, limits=limits)


def _load_checked(game_path: str, players: int | None = None, limits=None):
    """`_load_game`, then the command's limits checked (reading, checking and compiling are not interrupted)."""
    if limits is None:
        return _load_game(game_path, players)
    with limits.during("loading the game"):
        game = _load_game(game_path, players)
        limits.check()
    return game


def _lower_or_exit(game, game_path: str, seed: int, query_function: str | None = None, relations: bool = False,
                   global_checks: bool = True, moves: str = "auto", limits=None):
    from tgpl.lowering.lower import NotLowerable
    from tgpl.pipeline import lower_game, not_lowerable

    with _game_errors(game_path), _progress_line(game_path, "lowering") as show:
        try:
            return lower_game(game, seed, query_function, relations, global_checks,
                              lambda steps, parts: show(f"{steps:,} statements run, {parts:,} parts of conditions"),
                              moves, limits)
        except NotLowerable as e:  # the command cannot do its job
            for d in not_lowerable(e, game.program.main):
                click.echo(render(d, game.program.sources), err=True)
            sys.exit(2)


@contextmanager
def _progress_line(path: str, what: str):
    """A `show(text)` that keeps one line on a terminal's stderr up to date once a run passes a second
    (nothing elsewhere), cleared at the end: a game outside the lowering's subset can take minutes to be
    refused, and should not look stuck."""
    import time

    tty = sys.stderr.isatty()
    started = time.perf_counter()
    shown = [False]
    last = [started]

    def show(text: str) -> None:
        now = time.perf_counter()
        if tty and now - started > 1 and now - last[0] > 0.1:
            click.echo(f"\r{path}: {what}: {text}\033[K", err=True, nl=False)
            shown[0] = True
            last[0] = now

    try:
        yield show
    finally:
        if shown[0]:
            click.echo("\r\033[K", err=True, nl=False)


def _write_output(text: str, output: str | None) -> None:
    """stdout, or the file written whole (a temporary file renamed), never half."""
    if output is None:
        click.echo(text, nl=False)
        return
    import os
    import tempfile

    folder = os.path.dirname(os.path.abspath(output))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tgpl-", suffix=".tmp")
        # mkstemp makes the file 0600; the output is an ordinary file: 0666 less the umask (0644 usually)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, output)
    except OSError as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        click.echo(f"{output}: error: cannot write: {(e.strerror or str(e)).lower()}", err=True)
        sys.exit(2)
    except BaseException:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _relations_option(command):
    """--functions-as-relations, shared by to-gdl, to-asp and query."""
    return click.option("--functions-as-relations", "relations", is_flag=True,
                        help="Write each function that reads the state once, as rules with variables (far fewer "
                             "rules, a larger ground program; docs/lowering.md).")(command)


def _validation_options(command):
    """--no-validate and --validate-steps, shared by to-gdl and to-asp."""
    command = click.option("--validate-steps", type=int, default=1000, show_default=True, metavar="N",
                           callback=_at_least_min_steps,
                           help="States the validation's playouts compare at least (where the game is too large "
                                "to bisimulate); at least 1,000.")(command)
    return click.option("--no-validate", "no_validate", is_flag=True,
                        help="Write without checking the translation against the runtime.")(command)


def _at_least_min_steps(ctx, param, value: int) -> int:
    from tgpl.validation import MIN_STEPS

    if value < MIN_STEPS:
        raise click.BadParameter(f"{value:,} is fewer than {MIN_STEPS:,}, the fewest steps that validate", ctx, param)
    return value


def _validated(path: str, game, lowered, seed: int, no_validate: bool, steps: int, asp=None,
               limits=None) -> str:
    """The lowered game checked against the runtime (tgpl.validation): the line that says what was validated.

    On a mismatch, or when too little was compared (`Validation.shortfall`: no play
    reached the end of the game, or the time left passed first), nothing may be
    written: the diagnostics go to stderr and the command exits 2. The command's
    `limits` (tgpl.limits) stop it too: checked at each line of progress it gives,
    and the time they leave is the validation's; past them, LimitReached.
    """
    from tgpl.limits import unlimited
    from tgpl.validation import NOT_VALIDATED, mismatch_diagnostics, validate_translation

    if no_validate:
        return NOT_VALIDATED
    limits = limits if limits is not None else unlimited()
    with limits.during("validating against the runtime"), _game_errors(path), \
            _progress_line(path, "validating") as show:
        def progress(line: str) -> None:
            limits.check()
            show(line)

        left = limits.remaining()  # the time left is the validation's: past it, too little compared, then the stop
        result = validate_translation(game, lowered, seed, steps, asp=asp, progress=progress,
                                      max_seconds=None if left == float("inf") else max(left, 1e-3),
                                      clock=limits.clock, limits=limits)
        limits.check()
    if result.ok:
        return result.summary()
    if result.mismatch is None:
        click.echo(f"{path}: error: the validation against the runtime compared too little: {result.coverage()}; "
                   f"needed: {result.shortfall}", err=True)
        click.echo(f"{path}: error: the translation was not validated (--validate-steps asks for more steps, "
                   f"--no-validate writes it unvalidated): nothing written", err=True)
        sys.exit(2)
    color = sys.stderr.isatty()
    for d in mismatch_diagnostics(result.mismatch, game, lowered, seed):
        click.echo(_styled(render(d, game.program.sources), d, color), err=True)
    click.echo(f"{path}: error: the translation failed its validation against the runtime: nothing written",
               err=True)
    sys.exit(2)


@main.command("to-gdl")
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["kif", "infix"]), default="kif", show_default=True,
              help="KIF as GGP agents read it, or the thesis's infix notation (head :- a & b).")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed setup runs with (for shuffles).")
@_players_option
@click.option("--stats", is_flag=True, help="Print rule, relation and fluent counts instead of the rules.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@_validation_options
@_relations_option
@click.option("--moves", type=click.Choice(["auto", "compiled", "spelled"]), default="auto", show_default=True,
              help="Compile each action's move once, with its inputs as variables, or spell out every move; auto "
                   "compiles an action (or all together) with more than 2,000 ways to fill its inputs, or more than 64 "
                   "in a game whose play walks with while (docs/lowering.md).")
@click.option("--dry-run", "dry_run", is_flag=True,
              help="Write nothing: say in seconds what lowers, how (the strategy, a cost), and what does not and why, "
                   "each refusal located with a hint; exit 0 if everything lowers, 1 if not (docs/lowering.md).")
@click.option("--json", "as_json", is_flag=True, help="With --dry-run: print the answer as JSON.")
@_limit_options(NOTHING_WRITTEN)
def to_gdl(game, fmt, seed, players, stats, output, no_validate, validate_steps, relations, moves, dry_run, as_json,
           max_seconds, max_memory):
    """Lower GAME.tgpl to GDL: boards, turns and win checks as logic rules.

    Before writing, the GDL is checked against the runtime (a bisimulation when
    the game is small, random playouts otherwise); on a mismatch nothing is
    written and the exit status is 2. Past --max-seconds or --max-memory (the
    whole command) nothing is written either, and the exit status is 2.
    With --dry-run, nothing is lowered whole: what lowers and what does not is
    said in seconds (exit 0: everything lowers, 1: something does not).
    """
    if as_json and not dry_run:
        raise click.UsageError("--json goes with --dry-run (the GDL itself is written as KIF or infix)")
    limits = _limits(max_seconds, max_memory)
    if dry_run:
        import json

        answer = _dry_run(game, seed, players, moves, relations, limits, as_json)
        if as_json:
            click.echo(json.dumps(answer.to_json(), indent=2, ensure_ascii=False))
        sys.exit(_dry_run_status(answer))
    _writable(output, "--output")
    with _limit_errors(game, ": nothing written"):
        text = _gdl_text(game, fmt, seed, players, stats, no_validate, validate_steps, relations, moves, limits)
    _write_output(text, output)


def _dry_run(game_path: str, seed: int, players: int | None, moves: str, relations: bool, limits, as_json: bool,
             program=None):
    """The dry run of to-gdl (tgpl.lowering.lowerable): what lowers, how, and what does not, in seconds. Prints it
    (text on stdout, each refusal located on stderr; or nothing, for JSON: the caller prints it) and returns the
    Assessment. A game with errors exits 2, a runtime error in setup 1, the command's limits passed 2."""
    from tgpl.pipeline import assess_game

    with _limit_errors(game_path):
        if program is None:
            game = _load_checked(game_path, players, limits)
        else:
            game = _game_of(program, players)
        with _game_errors(game_path):
            answer = assess_game(game, seed, moves, relations, limits)
    if not as_json:
        _say_assessment(game_path, game.program, answer)
    return answer


def _dry_run_status(answer) -> int:
    """0: everything lowers; 1: something does not; 2: the dry run could not say within its budget."""
    return 0 if answer.lowers else 2 if answer.undecided else 1


def _say_assessment(path: str, program, answer) -> None:
    """The dry run's answer as text: a verdict line, a line per part (kind, name, strategy, cost), the figures and
    notes on stdout; every refusal as a located error with its hint on stderr."""
    color = sys.stderr.isatty()
    for r in answer.refusals:
        d = r.diagnostic(program.main)
        click.echo(_styled(render(d, program.sources), d, color), err=True)
    how = "its moves compiled once" if answer.moves == "compiled" else "its moves spelled out one by one"
    if answer.lowers:
        verdict = "lowers" + (" (estimated)" if answer.estimated else "")
    elif answer.undecided:
        verdict = "undecided within the dry run's budget"
    else:
        n = len(answer.refusals)
        verdict = f"does not lower: {n} refusal{'s' * (n != 1)}" + (" (estimated)" if answer.estimated else "")
    click.echo(f"{path}: {verdict}; {how} ({answer.why})")
    if answer.parts:
        kw = max(len(p.kind) for p in answer.parts)
        # the made functions' longer names (`lowerable.Part.shown`) do not widen the column
        nw = max((len(p.name) for p in answer.parts if p.origin is None), default=0)
        for p in answer.parts:
            mark = "NO" if not p.lowers else "--" if p.strategy.startswith("not tried") else "ok"
            cost = f"  [{p.cost}]" if p.cost else ""
            click.echo(f"  {mark}  {p.kind:<{kw}}  {p.shown:<{nw}}  {p.strategy}{cost}")
    if answer.figures:
        click.echo("  figures: " + ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}"
                                             for k, v in answer.figures.items()))
    for note in answer.notes:
        click.echo(f"  note: {note}")


def _gdl_text(game, fmt, seed, players, stats, no_validate, validate_steps, relations, moves, limits) -> str:
    """What `to-gdl` writes (LimitReached past `limits`)."""
    from tgpl.asp.kif import to_infix, to_kif
    from tgpl.frontend.after_setup import chance_site_texts
    from tgpl.lowering.unread import unread_attributes
    from tgpl.limits import outside
    from tgpl.pipeline import written_gdl_errors

    runtime_game, lowered = _lowered(game, seed, players, relations, moves, limits)
    # the checks `tgpl check-gdl` makes (tgpl.pipeline.written_gdl_errors), base and input included: what
    # check-gdl would reject is never written
    grounding = lowered.grounding[0] if lowered.grounding else "auto"
    with limits.during("checking the GDL"):  # its grounding of the relaxed game cannot be interrupted: run outside
        problems = outside(lambda: written_gdl_errors(lowered.program, grounding, game), limits)
        limits.check()
    if problems:  # the lowering's own bug, never the user's: say so plainly
        click.echo(f"{game}: internal error: the emitted GDL is not valid: {problems[0].message}", err=True)
        sys.exit(2)
    validated = _validated(game, runtime_game, lowered, seed, no_validate, validate_steps, limits=limits)
    with limits.during("writing the GDL"):
        examined = _examined_players(runtime_game.program, players)
        counted = "" if examined is None else _players_examined_text(examined, "the rules are written")
        if stats:
            width = max(len(k) for k in lowered.stats)
            return ("".join(f"{k:<{width}}  {v}\n" for k, v in lowered.stats.items()) + validated + "\n"
                    + (f"players: {counted}\n" if counted else ""))
        if fmt == "infix":
            text = to_infix(lowered.program)
        else:
            header = [f"{runtime_game.name or game}: generated by tgpl to-gdl from {game} (setup seed {seed}).",
                      validated]
            dice = _dice_sites(runtime_game.program)
            deals, shuffles, reshuffles = _deal_sites(runtime_game.program)
            dealt_first = lowered.setup_deals()  # setup's pops dealt by random's first moves (decision 112)
            if dealt_first:  # the deck's default shuffle no longer fixes what setup deals: it changes nothing
                shuffles = shuffles + [s for s in chance_site_texts(runtime_game.program)
                                       if s not in dice and s not in shuffles and s not in reshuffles]
            if [d for d in dice if d not in deals]:  # GDL-II: each die a move of random (tgpl.lowering.chance)
                header.append(f"GDL-II: the dice thrown at {', '.join(d for d in dice if d not in deals)} are moves "
                              f"of the chance role random, {_random_moves_text(runtime_game.program)}, equally likely.")
            from tgpl.lowering.chance import setup_phase_throws
            entered = setup_phase_throws(runtime_game.program)
            if entered:  # decision 117: setup's entry of a phase that throws is the seed's throw
                header.append(f"Chance: setup enters phase{'s' * (len(entered) > 1)} {', '.join(entered)}, whose "
                              f"dice setup seed {seed} threw there: this GDL starts from that throw, and random throws "
                              "at every entry after setup.")
            if deals:  # GDL-II: random deals from a shuffled deck at each pop()
                header.append(f"GDL-II: the pop() at {', '.join(deals)} deals from a shuffled deck as a move of the "
                              "chance role random, (roll k) for the deck's k-th item while it is left, equally likely; its shuffles at "
                              f"{', '.join(shuffles)} change nothing here (its order is what its pops show).")
            if dealt_first:
                header.append("GDL-II: setup's pop() is random's first move, dealt as in play." if dealt_first == 1 else
                              f"GDL-II: setup's {dealt_first} pops are random's first {dealt_first} moves, dealt as in "
                              "play.")
            if reshuffles:  # decision 105
                header.append(f"GDL-II: the reshuffles at {', '.join(reshuffles)} make the discarded items left "
                              "again, for random to deal.")
            sites = [s for s in chance_site_texts(runtime_game.program)
                     if s not in dice and s not in shuffles and s not in reshuffles]
            if sites:  # the lowering keeps a setup's draws as that seed made them (it refuses any after setup)
                header.append(f"Chance: the game draws on its random numbers at {', '.join(sites)}: this GDL is "
                              f"the game of setup seed {seed}, one outcome of those draws.")
            if counted:
                header.append(f"Players: {counted}.")
            unread = unread_attributes(runtime_game.program).header_line()
            if unread:  # attributes nothing reads are no state (tgpl.lowering.unread, decision 109)
                header.append(unread)
            if "checks made global" in lowered.stats:
                header.append("Checks made global, proven the same game by induction: "
                              f"{lowered.stats['checks made global']}.")
            if grounding == "per-state":  # where it is over the bound, auto refuses it: it declares base and input
                header += ["Played one state at a time (its moves compiled); check it with:",
                           "  tgpl check-gdl --grounding per-state FILE.kif", ""]
            else:
                header += ["Check it with: tgpl check-gdl FILE.kif", ""]
            header += ["Moves, as GDL terms and as tgpl play reads them:"]
            header += [f"  {term} = {text}" for term, text in lowered.move_texts.items()]
            text = to_kif(lowered.program, "\n".join(header))
        limits.check()
    return text


# ------------------------------------------------------------ verification
# Complete exploration of a .tgpl game: bench/verify.py measures both engines on Tris.
DEFAULT_ENGINE = "runtime"


def _as_lowered(machine, program, max_states: int, check=lambda: None):
    """For `compare`: a .tgpl game's states as its lowering has them: the attributes nothing reads left out of
    its keys (decision 109), and a game whose dice lower to GDL-II's random (tgpl.lowering.chance) explored with
    every face of its dice as chance nodes (tgpl.verify.chance_machine), as random's states are in its GDL-II; its
    decks dealt at pop() where the lowering deals them (from the seed's setup, as the lowering starts; with
    setup's dice too, setup's draws are enumerated, its shuffles among them; setup's deals where the lowering
    makes them random's first moves, a chance node each, tgpl.setup_deals); any other machine as it is. `check`
    (the command's limits) is checked at each of the chance machine's runs."""
    from tgpl.lowering.chance import action_rolls, dealt_decks, setup_roll_calls
    from tgpl.lowering.unread import unread_attributes
    from tgpl.verify.chance_machine import ChanceMachine
    from tgpl.verify.runtime_machine import RuntimeMachine
    from tgpl.setup_deals import setup_deals, undealt_snapshot

    if type(machine) is not RuntimeMachine or program is None:
        return machine
    from tgpl.lowering.chance import phase_rolls
    if phase_rolls(program)[0]:  # decision 117: random's steps in a chain, which no chance node of the runtime has
        click.echo(f"{program.main_module.path if program.main_module else 'the game'}: error: cannot compare a game "
                   "whose phases throw dice: its GDL-II gives random a step at each entry of such a phase, which the "
                   "runtime's chance nodes (one a move) do not have (to-gdl validates it by playouts)", err=True)
        sys.exit(2)
    unread = unread_attributes(program).names
    setup_dice = setup_roll_calls(program)
    if action_rolls(program)[0] or setup_dice:
        deals = frozenset() if setup_dice else dealt_decks(program)[0].classes
        thrown = action_rolls(program)[0]
        idle = frozenset((info.name, name) for info in program.classes for name, a in info.actions.items()
                         if id(a) in thrown and thrown[id(a)].entered)  # random moves after each of their moves
        plan = None if setup_dice else setup_deals(machine.game, machine.seed)
        if plan is not None and undealt_snapshot(plan) is None:
            plan = None  # setup's deals stay the seed's in the lowering too
        return ChanceMachine(machine.game, machine.seed, max_outcomes=max_states, deals=deals, idle=idle,
                             setup_deals=plan, unread=unread, check=check)
    return RuntimeMachine(machine.game, machine.seed, unread=unread)


def _dice_sites(program) -> list[str]:
    """Where the dice that lower to GDL-II's random are thrown (tgpl.lowering.chance), as `file:line:col` in
    source order: as `chance_site_texts` names every chance site."""
    from tgpl.lowering.chance import action_rolls, phase_rolls, setup_roll_calls

    throws = [*action_rolls(program)[0].values(), *phase_rolls(program)[0].values()]
    spans = list({id(d.call): d.call.span for t in throws for d in t.dice}.values())
    spans += [c.span for c in setup_roll_calls(program)]
    spans.sort(key=lambda sp: (sp.file, sp.line, sp.col))
    return [f"{sp.file}:{sp.line}:{sp.col}" for sp in spans]


def _deal_sites(program) -> tuple[list[str], list[str], list[str]]:
    """Where random deals from a shuffled deck (its pop() calls), where that deck is shuffled and where it is
    reshuffled (tgpl.lowering.chance.dealt_decks), as `file:line:col`."""
    from tgpl.lowering.chance import dealt_decks

    dealt = dealt_decks(program)[0]
    return tuple([f"{sp.file}:{sp.line}:{sp.col}" for sp in spans]
                 for spans in (*dealt.sites(program), dealt.reshuffles))


def _random_moves_text(program) -> str:
    """The header's words for random's moves (tgpl.lowering.chance): `(roll k)` where one die is thrown at a
    time, `(rollN ...)` where a move throws N."""
    from tgpl.lowering.chance import action_rolls, phase_rolls, setup_roll_calls

    counts = {len(t.dice) for t in [*action_rolls(program)[0].values(), *phase_rolls(program)[0].values()]}
    forms = []
    if setup_roll_calls(program) or 1 in counts:
        forms.append("(roll k) for each face k")
    if any(n > 1 for n in counts):
        forms.append("(rollN f1 ... fN) for the faces of the N dice one move throws (roll2 for two), in the order "
                     "thrown")
    return ", ".join(forms)


def _setup_chance(chance: dict, program) -> dict | None:
    """`_chance` of a game verified on its GDL-II (engine clingo): its dice are random's moves there, explored as
    chance nodes, so only the other sites (setup's draws, which the seed fixes) are left; None when none is."""
    from tgpl.lowering.chance import phase_rolls, setup_phase_throws

    entered = set(setup_phase_throws(program))  # their throw in setup is the seed's (decision 117)
    seeded = {f"{d.call.span.file}:{d.call.span.line}:{d.call.span.col}"
              for (_, phase), t in phase_rolls(program)[0].items() if phase in entered for d in t.dice}
    dice = set(_dice_sites(program)) - seeded
    sites = [s for s in chance["sites"] if s not in dice]
    return {**chance, "sites": sites} if sites else None


def _chance(program, seed: int) -> dict | None:
    """Where a .tgpl game (its checked program; None for GDL) shuffles, with the seed its explored states are
    those of (None: no chance)."""
    from tgpl.frontend.after_setup import chance_site_texts

    sites = chance_site_texts(program) if program is not None else []
    if not sites:
        return None
    return {"seed": seed, "sites": sites}


def _examined_players(program, players: int | None) -> dict | None:
    """For a game that allows a range of player counts: the count examined and the range (JSON); None for
    a .kif game or a game of one count."""
    allowed = getattr(program, "player_range", None)
    if allowed is None or len(allowed) < 2:
        return None
    return {"examined": players if players is not None else allowed.start, "allowed": [allowed.start, allowed[-1]]}


def _players_examined_text(p: dict, what: str = "the claims below hold") -> str:
    """The statement of the player count a command examined (verify, query, compare, to-gdl), for a game that
    allows several: `what` says what holds for that count only."""
    low, high = p["allowed"]
    return (f"examined for {p['examined']} (the game allows {low} to {high}; --players N examines "
            f"another count): {what} for that count only")



def _machine(path: str, engine: str = "runtime", seed: int = 0, max_ground: int | None = None,
             grounding: str = "auto", limits=None, players: int | None = None):
    """A `tgpl.verify.graph.Machine` for a .tgpl or .kif file (exits 2 if it does not load), and the checked
    TGPL program it plays (None for a .kif game).

    A .tgpl game is explored on the runtime, or with engine "clingo" lowered to GDL and
    explored by the clingo reasoner (same states, same move texts and role names). The
    reasoner grounds a game as `grounding` says (tgpl.asp.reasoner.MODES): "auto" grounds
    it once when it can have at most max_ground ground rule instances (default:
    tgpl.asp.estimate.MAX_GROUND), else one state at a time. A game that cannot be played
    so is refused first: "once" over max_ground, or a first state over it. Past `limits` (the command's,
    tgpl.limits) while loading, lowering or grounding, LimitReached.
    """
    import functools

    from tgpl.asp.estimate import MAX_GROUND
    from tgpl.limits import unlimited

    max_ground = MAX_GROUND if max_ground is None else max_ground
    limits = limits if limits is not None else unlimited()
    if path.lower().endswith(".kif"):
        from tgpl.asp.reasoner import GdlGame, GdlLoadError
        from tgpl.asp.verify import GdlMachine

        with limits.during("loading the GDL"):
            try:
                game = GdlGame.load(path, max_ground, grounding)
            except GdlLoadError as e:
                click.echo(e.render(), err=True)
                sys.exit(2)
            limits.check()
            _grounded_first(path, game, lambda: None, limits)
        from tgpl.asp.gdl2 import GdlIIMachine, is_gdl_ii

        if is_gdl_ii(game):  # random is chance, not a role of the report; percepts kept on the edges
            return GdlIIMachine(game), None
        return GdlMachine(game), None
    if engine == "clingo":
        from tgpl.asp.reasoner import GdlGame
        from tgpl.asp.verify import GdlMachine

        game, lowered = _lowered(path, seed, players, limits=limits)
        refuse = functools.partial(_refuse_too_large, lowered.program, path, max_ground, game.program.sources,
                                   limits=limits)
        if grounding == "once":
            refuse()
        with limits.during("grounding the lowered game"):
            gdl = GdlGame(lowered.program, grounding, max_ground)
            _grounded_first(path, gdl, refuse, limits)
        return _lowered_machine(gdl, lowered), game.program
    from tgpl.verify.runtime_machine import RuntimeMachine

    game = _load_checked(path, players, limits=limits)
    return RuntimeMachine(game, seed), game.program


def _lowered_machine(gdl, lowered):
    """The machine verify explores a lowered game's GDL with: its roles named as the runtime's players; a GDL-II
    game's (dice lowered as random's moves, tgpl.lowering.chance) with random as chance nodes, not a role."""
    from tgpl.asp.gdl2 import GdlIIMachine, is_gdl_ii
    from tgpl.asp.verify import GdlMachine

    if is_gdl_ii(gdl):
        machine = GdlIIMachine(gdl)
        machine.roles = [f"player {i}" for i in machine.players]
        return machine
    return GdlMachine(gdl, [f"player {i}" for i in range(len(lowered.roles))], lowered.move_texts)


def _grounded_first(path: str, game, refuse, limits) -> None:
    """`_first_state_or_exit`, and the game's first state grounded, under `limits`: the grounding (of the whole
    game where it is grounded once, within --max-ground but seconds long all the same) cannot be interrupted,
    and is left behind past them (tgpl.asp.interrupt). The first state's errors are left to the exploration."""
    from tgpl.asp.interrupt import interruptible
    from tgpl.asp.reasoner import GdlError

    def first() -> None:
        _first_state_or_exit(path, game, refuse)
        try:
            game.initial_state()
        except GdlError:
            pass
    interruptible(None, first, limits)


def _first_state_or_exit(path: str, game, refuse) -> None:
    """A game played one state at a time whose first state is over --max-ground: `refuse()` (which may say
    why the game as a whole is refused and exit), else the state's own error; exit 2 before grounding.
    The game's other errors are left to the exploration, which reports them as before (exit 1)."""
    from tgpl.asp.reasoner import GdlError, StateTooLarge

    if game.mode != "per-state":
        return
    try:
        game.initial_state()
    except StateTooLarge as e:
        refuse()
        click.echo(f"{path}: error: {e}", err=True)
        sys.exit(2)
    except GdlError:
        pass


def _explore(path: str, machine, max_states: int, quiet: bool = False, max_memory: int | None = None, stop=None,
             max_depth: int | None = None, show=None):
    """The game graph of `machine` (tgpl.verify.graph.explore), with its progress on stderr: on a terminal
    continuously, else a line every 10,000 states or 10 seconds; or told to `show(text)` (a _Status)."""
    import time

    from tgpl.asp.reasoner import GdlError, StateTooLarge
    from tgpl.verify.graph import explore, memory_in_use

    tty = sys.stderr.isatty()
    start = time.monotonic()
    shown = [False]
    last = [start]

    def progress(done: int, seen: int) -> None:
        now = time.monotonic()
        elapsed = now - start
        used = memory_in_use()
        memory = f", {used / 2**20:,.0f} MB" if used is not None else ""
        text = f"{done:,} states explored, {seen:,} seen, {done / max(elapsed, 1e-9):,.0f} states/s{memory}"
        if show is not None:
            show(text)
            return
        if quiet or (tty and elapsed < 1.0) or (not tty and done % 10_000 and now - last[0] < 10):
            return
        last[0] = now
        click.echo(f"\r{path}: {text}", err=True, nl=not tty)
        shown[0] = True

    with _game_errors(path):
        try:
            g = explore(machine, max_states, progress, max_memory, stop=stop, max_depth=max_depth)
        except StateTooLarge as e:  # the game could not be played, which says nothing of it
            click.echo(f"{path}: error: {e}", err=True)
            sys.exit(2)
        except GdlError as e:
            click.echo(f"{path}: error: {e}", err=True)
            sys.exit(1)
    if tty and shown[0]:
        click.echo("", err=True)
    return g


def _max_memory(megabytes: int | None) -> int | None:
    """--max-memory in bytes. By default, a quarter of the machine's memory on top of what the process holds
    as the command begins: for the `tgpl` program that is its imports, but a process that runs several
    commands (the tests, through CliRunner) holds what earlier ones left, which is not this command's."""
    from tgpl.limits import memory_in_use
    from tgpl.verify.graph import default_max_memory

    if megabytes is not None:
        return megabytes * 2**20
    quarter = default_max_memory()
    return None if quarter is None else quarter + (memory_in_use() or 0)


@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--max-states", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Store at most this many states; past it the check is incomplete.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON.")
@click.option("--witness-dir", type=click.Path(file_okay=False), help="Write each witness to a file here.")
@click.option("--horizon", type=click.IntRange(min=0), default=None,
              help="Bounded mode: search the plays of up to N moves with clingo instead.")
@click.option("--engine", type=click.Choice(["runtime", "clingo"]), default=DEFAULT_ENGINE, show_default=True,
              help="Complete mode on a .tgpl game, and bounded mode on one searched state by state: explore it "
                   "on the runtime, or lowered to GDL on clingo.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The seed of a .tgpl game's random numbers: a chance game whose outcomes are too many to "
                   "explore (or with --chance seed) is explored, and its claims hold, for this seed only.")
@click.option("--chance", "chance_mode", type=click.Choice(["outcomes", "seed"]), default="outcomes",
              show_default=True,
              help="A .tgpl chance game on the runtime: explore every outcome of its draws as chance nodes "
                   "(expected goals, wins whatever the draws) while they fit in --max-states, else one seed; "
                   "or one seed's game only.")
@_players_option
@_limit_options(PARTIAL)
@_max_ground_option
@_grounding_option
def verify(game, max_states, as_json, witness_dir, horizon, engine, seed, chance_mode, max_seconds, max_memory,
           max_ground, grounding, players):
    """Explore every reachable state of GAME (.tgpl or .kif) and check that it is well formed.

    With --horizon N, search only the plays of up to N joint moves (bounded
    mode, on the game's ASP encoding; a game too large to ground whole, as
    chess, is searched state by state to depth N instead). Exit 0 when it is
    well formed (within what was checked), 1 when a problem is found.
    """
    import json
    from tgpl.verify.graph import verify as check

    if witness_dir is not None and os.path.exists(witness_dir) and not os.path.isdir(witness_dir):
        raise click.BadParameter(f"'{witness_dir}' is not a folder", param_hint="--witness-dir")
    limits = _limits(max_seconds, max_memory)  # the whole command's: loading and lowering included
    with _limit_errors(game):  # a stop before any state was explored: no report
        if horizon is not None:
            machine, read = _searched_state_by_state(game, engine, seed, max_ground, grounding, limits, players)
            if machine is not None:
                with _collector_off():
                    _verify_bounded_explicit(game, machine, horizon, max_states, as_json, witness_dir,
                                             _max_memory(max_memory), limits.stopper("cap"))
                return
            _verify_bounded(game, horizon, as_json, witness_dir, None, seed, max_ground, read, limits, players)
            return
        machine, program = _machine(game, engine, seed, max_ground, grounding, limits, players)
    chance = _chance(program, seed)
    if chance is not None and type(machine).__name__ == "GdlIIMachine":  # lowered: its dice are random's moves
        chance = _setup_chance(chance, program)
    with _collector_off():
        g = None
        if chance is not None and chance_mode == "outcomes" and engine == "runtime":
            with _limit_errors(game):  # a stop while the chance machine builds the first state: no report
                g, chance["sampled_because"] = _explore_outcomes(game, machine, max_states, as_json, max_memory,
                                                                 limits)
        if g is None:
            with limits.during("exploring"):
                g = _explore(game, machine, max_states, quiet=as_json, max_memory=_max_memory(max_memory),
                             stop=limits.stopper("cap"))
        rep = check(g)
    gdl_ii = _gdl_ii_report(g, machine, rep)
    hidden = _hidden_report(g, machine, program, rep, max_states, limits)
    rep["game"] = game
    rep["players"] = _examined_players(program, players)
    rep["chance"] = chance
    if chance is not None:
        chance["mode"] = "outcomes" if g.chance else "seed"
        if g.chance:
            chance["seed"] = None
        else:
            for problem in rep["problems"]:
                problem["message"] += f" (for seed {seed})"
    _write_witnesses(rep["problems"], witness_dir)
    if as_json:
        click.echo(json.dumps(rep, indent=1, sort_keys=True))
        sys.exit(0 if rep["well_formed"] else 1)
    say = click.echo
    say(f"{game}: {'complete' if rep['complete'] else 'INCOMPLETE'}: {rep['states']} states, "
        f"{rep['terminal']} terminal, {rep['transitions']} transitions")
    if rep["players"] is not None:
        say(f"  players: {_players_examined_text(rep['players'])}")
    seeded = ""
    if rep["chance"] is not None and rep["chance"]["mode"] == "outcomes":
        seeded = " (whatever the chance outcomes)"
        say(f"  chance: the game draws on its random numbers ({', '.join(rep['chance']['sites'])}): every outcome "
            f"of its draws explored, {rep['chance_nodes']} chance node{'s' * (rep['chance_nodes'] != 1)}: the claims below hold whatever the draws, "
            "and the expected goals weigh each outcome by its probability")
    elif rep["chance"] is not None:
        seeded = f" (for seed {seed})"
        why = rep["chance"].get("sampled_because")
        say(f"  chance: the game draws on its random numbers ({', '.join(rep['chance']['sites'])}): these are the "
            f"states of seed {seed}, one sample of its draws, and the claims below hold for that seed only"
            + (f" ({why})" if why else "") + " (`tgpl analyze` gives statistics over seeds)")
    value_seeded = seeded  # the value's own label says it sees the whole state
    if rep["complete"] and (hidden is not None or gdl_ii is not None and any(
            h is not None for h in gdl_ii["hidden"].values())):
        seeded += " (every role seeing the whole state)"  # the value's own label says it in full
    if not rep["complete"]:
        say(f"  stopped at {rep['stopped']}: only the first {rep['states']} states (breadth first) were "
            "checked; weak winnability, forced wins and the value need a complete check")
    say(f"  stuck states: {rep['stuck'] or 'none'}")
    ends = "every play ends" if rep["complete"] else "no cycle among the states checked"
    if rep.get("loops_only_by_chance"):
        ends = ("every play ends with probability 1 (its cycles go through chance outcomes, which leave them "
                "whatever the players do)")
    say(f"  termination: {ends if rep['terminates'] else 'NO, a play can go on for ever'}")
    say(f"  goals: {'every terminal state gives every role one goal in 0..100' if rep['goals_ok'] else 'PROBLEM'}")
    for role, w in rep["weakly_winnable"].items():
        never = "NEVER wins" if rep["complete"] else "no win found yet"
        best = (f"best goal {w['best']}" if w["best"] is not None else
                "no terminal state gives it a goal" if rep["complete"] else "no terminal state reached yet")
        say(f"  {role}: " + ("weakly winnable" if w["winnable"] else f"{never} ({best})")
            + ("" if rep["forced_win"][role] is None else
               ", can force a win" if rep["forced_win"][role] else ", cannot force a win")
            + ("" if not rep["complete"] else f", can secure {rep['guaranteed_goal'][role]}"
               if rep["guaranteed_goal"][role] is not None else ", can secure no goal") + seeded)
    say(f"  value: {rep['value']}" + ("" if rep["chance_nodes"] or gdl_ii is not None else value_seeded))
    if gdl_ii is not None:
        from tgpl.asp.gdl2 import report_lines

        for line in report_lines(gdl_ii):
            say(line)
    if hidden is not None:
        say(f"  hidden information: {'; '.join(hidden['hidden'])}")
    if rep.get("expected_goal") is not None:
        converged = "" if rep["expectation"]["converged"] else " (NOT converged: lower bounds)"
        label = f" ({hidden['full_view']})" if hidden is not None else ""
        say(f"  expected goals under optimal play (expectimax over the chance nodes){label}: "
            + ", ".join(f"{role} {v:.9f}" for role, v in rep["expected_goal"].items()) + converged)
    if hidden is not None and hidden["value_seen"] is not None:
        say("  value knowing only what it sees (optimal play over its information sets): "
            + ", ".join(f"{role} {v:.9f}" for role, v in hidden["value_seen"].items()))
    elif hidden is not None:
        say(f"  value knowing only what each sees: not computed ({hidden['value_seen_why']})")
    _say_problems(say, rep["problems"])
    if rep["well_formed"]:
        say(f"{game}: well formed" + ("" if rep["complete"] else f" within the first {rep['states']} states"))
    sys.exit(0 if rep["well_formed"] else 1)


def _gdl_ii_report(g, machine, rep: dict) -> dict | None:
    """A GDL-II game's part of verify's report (tgpl.asp.gdl2.report), put in `rep` as "gdl_ii"; its forced wins
    and value labelled as seen by every role where a player cannot see the whole state, and random without a
    legal move in a state made a problem. None for any other game."""
    from tgpl.asp.gdl2 import FULL_VIEW, GdlIIMachine, ends_by_chance, report

    if not isinstance(machine, GdlIIMachine):
        return None
    if not rep["terminates"] and ends_by_chance(g):  # its cycles go through random's states, which leave them
        rep["terminates"] = rep["loops_only_by_chance"] = True
        rep["problems"] = [p for p in rep["problems"] if p["kind"] != "cycle"]
        rep["well_formed"] = not rep["problems"]
    out = report(g, machine.game)
    rep["gdl_ii"] = out
    if any(h is not None for h in out["hidden"].values()) and g.complete:
        rep["value"] += f" ({FULL_VIEW})"
    stuck = [v for v in machine.chance_stuck if v < g.expanded]
    if stuck:
        out["chance_stuck"] = len(stuck)
        rep["stuck"] += len(stuck)
        rep["problems"].append({"kind": "stuck", "role": out["chance"],
                                "message": f"{len(stuck)} stuck state(s): {out['chance']} has no legal move",
                                "witness": g.path(stuck[0])})
        rep["well_formed"] = False
    return out


def _hidden_report(g, machine, program, rep: dict, max_states: int, limits) -> dict | None:
    """A .tgpl game that hides something from its seats (tgpl.verify.information): what it hides, put in `rep`
    as "hidden", its value labelled as seen by every role, and for a lone player the value knowing only what
    it sees (within --max-states information sets). None for a game of open information or a .kif game. Past
    the limits that value is not computed, and the report says why, as past --max-states: they are checked
    at each information set and at each run of a move's draws by the chance machine."""
    from tgpl.limits import LimitReached
    from tgpl.verify.chance_machine import ChanceMachine, ChanceUnsupported, TooManyOutcomes
    from tgpl.verify.information import FULL_VIEW, TooManyInformationSets, hidden_information, value_seen

    secrets = hidden_information(program) if program is not None and hasattr(machine, "game") else []
    if not secrets:
        return None
    out: dict = {"hidden": secrets, "full_view": FULL_VIEW, "value_seen": None, "value_seen_exact": None,
                 "value_seen_why": None}
    rep["hidden"] = out
    if rep["complete"]:
        rep["value"] += f" ({FULL_VIEW})"
    from tgpl.runtime.game import Game

    if not isinstance(machine.game, Game):  # --engine clingo: its lowered GDL-II, whose states are no runtime's
        out["value_seen_why"] = "the value knowing only what the player sees is computed with --engine runtime"
    elif machine.game.players != 1:
        out["value_seen_why"] = ("several players with hidden information: the game's value needs a solution "
                                 "concept (equilibria of the imperfect-information game) that tgpl does not compute")
    elif not rep["complete"]:
        out["value_seen_why"] = "the exploration is incomplete"
    else:
        try:
            with limits.during("the value knowing only what the player sees"):
                seen = value_seen(ChanceMachine(machine.game, machine.seed, max_outcomes=max_states,
                                                check=limits.check), max_states, limits.stopper("cap"))
            out["value_seen"] = {g.roles[0]: float(seen)}
            out["value_seen_exact"] = {g.roles[0]: str(seen)}
        except (TooManyInformationSets, TooManyOutcomes, ChanceUnsupported, ValueError) as e:
            out["value_seen_why"] = str(e)
        except LimitReached as e:  # inside a move's draws (`value_seen` itself stops between information sets)
            out["value_seen_why"] = f"stopped by {e.cap}"
    return out


def _explore_outcomes(path: str, machine, max_states: int, quiet: bool, max_memory: int | None, limits):
    """A chance game explored with every outcome of its draws (tgpl.verify.chance_machine): the graph, or
    None and why (too many outcomes, or states, for --max-states; draws it cannot replay), for verify to
    explore one seed's game instead. A time or memory limit gives the partial graph, as for any game: the
    chance machine checks the limits at each run of a move's draws (one move can be thousands of runs), and a
    stop there ends the exploration before the state it was expanding (tgpl.verify.graph.explore); a stop
    while it makes the first state (every way setup's draws go) raises LimitReached: no state was explored."""
    from tgpl.verify.chance_machine import ChanceMachine, ChanceUnsupported, TooManyOutcomes

    outcomes = ChanceMachine(machine.game, machine.seed, max_outcomes=max_states, check=limits.check)
    with limits.during("exploring"):
        try:
            g = _explore(path, outcomes, max_states, quiet=quiet, max_memory=_max_memory(max_memory),
                         stop=limits.stopper("cap"))
        except TooManyOutcomes:
            return None, f"one move has more than {max_states} outcomes (--max-states)"
        except ChanceUnsupported as e:
            return None, f"its draws cannot all be explored as chance nodes: {e}"
    if not g.complete and g.stopped is not None and "--max-states" in g.stopped:
        return None, f"its outcomes make more than {max_states} states (--max-states)"
    return g, None


def _say_problems(say, problems: list[dict]) -> None:
    """Each problem of a verify report with its witness, one move a line."""
    for p in problems:
        say(f"problem ({p['kind']}): {p['message']}")
        if p["witness"] is not None:
            where = f" (written to {p['witness_file']})" if "witness_file" in p else ""
            say(f"  witness, {len(p['witness'])} moves{where}:")
            for line in p["witness"]:
                say(f"    {line}")


def _write_witnesses(problems: list[dict], witness_dir: str | None) -> None:
    """Each problem's witness to DIR/NN-KIND.txt (one move per line); the file goes in the problem as witness_file."""
    from pathlib import Path

    if not witness_dir:
        return
    out = Path(witness_dir)
    out.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(problems):
        if p["witness"] is not None:
            name = out / f"{i + 1:02d}-{p['kind']}.txt"
            name.write_text("".join(line + "\n" for line in p["witness"]), encoding="utf-8")
            p["witness_file"] = str(name)


def _runtime_move_text(lowered):
    """Joint move -> the runtime's text of the mover's move, so witnesses replay with `tgpl play --moves`."""
    texts = lowered.move_texts

    def move_text(joint) -> str:
        moves = [str(m) for m in joint if str(m) != "noop"]
        return " | ".join(texts.get(m, m) for m in moves) if moves else "noop"

    return move_text


def _gdl_program(path: str, seed: int = 0, max_ground: int | None = None, limits=None, players: int | None = None):
    """The valid GDL program of a .kif file, or of a .tgpl game lowered; exits 2 with located diagnostics,
    a game whose rules can have more than max_ground ground instances included (None: the default).

    Returns (program, move_text): move_text maps a joint move to what a user types, which for a
    lowered game is the runtime's text of the mover's move, so witnesses replay with `tgpl play --moves`.
    """
    from tgpl.asp.estimate import MAX_GROUND
    from tgpl.asp.reasoner import GdlLoadError, read_gdl

    from tgpl.limits import unlimited

    max_ground = MAX_GROUND if max_ground is None else max_ground
    limits = limits if limits is not None else unlimited()
    if path.lower().endswith(".tgpl"):
        game, lowered = _lowered(path, seed, players, limits=limits)
        _refuse_too_large(lowered.program, path, max_ground, game.program.sources, per_state=lowered.grounding is not None,
                          limits=limits)
        return lowered.program, _runtime_move_text(lowered)
    with limits.during("reading the GDL"):
        try:
            program, _ = read_gdl(path, max_ground)
        except GdlLoadError as e:
            click.echo(e.render(), err=True)
            sys.exit(2)
        limits.check()
    return program, None


def _searched_state_by_state(path: str, engine: str, seed: int, max_ground: int | None, grounding: str,
                             limits=None, players: int | None = None):
    """The machine `verify --horizon` searches state by state, else None for the solver's search of the
    time-indexed encoding; and for that search the program and its move text (`_gdl_program`'s), where
    read already. A game the encoding cannot ground within --max-ground (the lowered chess) is searched
    state by state unless --grounding once says otherwise (--grounding per-state: always): a .tgpl game on
    the --engine, a .kif game on the GDL reasoner, one state at a time."""
    from tgpl.asp.estimate import MAX_GROUND, too_large

    from tgpl.limits import unlimited

    if grounding == "once":
        return None, None
    max_ground = MAX_GROUND if max_ground is None else max_ground
    limits = limits if limits is not None else unlimited()
    if path.lower().endswith(".kif"):
        from tgpl.asp.reasoner import GdlGame, GdlLoadError, read_gdl
        from tgpl.asp.verify import GdlMachine

        with limits.during("reading the GDL"):
            try:
                program, _ = read_gdl(path, max_ground, grounding)
            except GdlLoadError:
                return None, None  # the solver's search reads the file again and reports its errors
            limits.check()
            gdl = GdlGame(program, grounding, max_ground)
            limits.check()
        if gdl.mode != "per-state":  # within the limit: valid as the solver's search reads it
            return None, (program, None)
        with limits.during("grounding the game's first state"):
            _first_state_or_exit(path, gdl, lambda: None)
        from tgpl.asp.gdl2 import GdlIIMachine, is_gdl_ii

        return (GdlIIMachine(gdl) if is_gdl_ii(gdl) else GdlMachine(gdl)), None
    game, lowered = _lowered(path, seed, players, limits=limits)
    with limits.during(ESTIMATING):
        within = grounding == "auto" and not too_large(lowered.program, max_ground, path, check=limits.check)
    if within:
        return None, (lowered.program, _runtime_move_text(lowered))
    if engine == "clingo":
        from tgpl.asp.reasoner import GdlGame
        from tgpl.asp.verify import GdlMachine

        with limits.during("grounding the game's first state"):
            gdl = GdlGame(lowered.program, "per-state", max_ground)
            _first_state_or_exit(path, gdl, lambda: None)
            limits.check()
        return _lowered_machine(gdl, lowered), None
    from tgpl.verify.runtime_machine import RuntimeMachine

    return RuntimeMachine(game, seed), None


def _verify_bounded_explicit(game: str, machine, horizon: int, max_states: int, as_json: bool,
                             witness_dir: str | None, max_memory: int | None, stop) -> None:
    """`tgpl verify GAME --horizon N` of a game searched state by state (tgpl.verify.bounded), exit 1 on a
    problem."""
    from tgpl.verify.runtime_machine import RuntimeMachine
    from tgpl.verify.bounded import report_of

    g = _explore(game, machine, max_states, quiet=as_json, max_memory=max_memory, stop=stop, max_depth=horizon)
    result = report_of(g)
    engine = "the runtime" if isinstance(machine, RuntimeMachine) else "the GDL reasoner"
    _report_bounded(game, result, as_json, witness_dir,
                    f"{game}: bounded, up to {horizon} moves, searched state by state on {engine} (the game is too "
                    f"large to ground its plays at once): {result.states:,} states examined, {g.stored:,} stored")


def _verify_bounded(game: str, horizon: int, as_json: bool, witness_dir: str | None, stop=None,
                    seed: int = 0, max_ground: int | None = None, read=None, limits=None,
                    players: int | None = None) -> None:
    """`tgpl verify GAME --horizon N`: the report of tgpl.asp.bounded, exit 1 on a problem. `read`: the
    program and its move text, when read already (`_gdl_program`'s). Past `limits` (tgpl.limits), a partial
    report; LimitReached before the first state was searched."""
    import time
    from tgpl.asp.bounded import bounded_verify
    from tgpl.asp.solver import SolverError

    program, move_text = read or _gdl_program(game, seed, max_ground, limits, players)
    tty = sys.stderr.isatty()
    start = last = time.perf_counter()

    def progress(n: int, total: int) -> None:
        nonlocal last
        now = time.perf_counter()
        if not as_json and (tty or now - last >= 5):
            click.echo(f"\r{game}: searched the plays of {n} of up to {total} moves ({now - start:.1f} s)",
                       err=True, nl=not tty)
            last = now

    try:
        result = bounded_verify(program, horizon, move_text=move_text, progress=progress, stop=stop, limits=limits)
    except SolverError as e:
        click.echo(f"{game}: error: clingo: {e}", err=True)
        sys.exit(1)
    if not as_json and tty:
        click.echo("", err=True)
    _report_bounded(game, result, as_json, witness_dir, f"{game}: bounded, up to {horizon} moves: {result.solves} solves")


def _report_bounded(game: str, result, as_json: bool, witness_dir: str | None, head: str) -> None:
    """A bounded report (tgpl.verify.bounded.BoundedReport): its witnesses written, then as JSON or on the
    terminal after its first line's `head`; exit 0, or 1 on a problem."""
    import json

    rep = result.to_json()
    rep["game"] = game
    _write_witnesses(rep["problems"], witness_dir)
    if as_json:
        click.echo(json.dumps(rep, indent=1, sort_keys=True))
        sys.exit(0 if rep["ok"] else 1)
    import re

    say = click.echo
    # A lowered game's roles are player_0, player_1...: on the terminal, `player 0` as the complete
    # check and the runtime name them (the JSON keeps the GDL names)
    named = ((lambda text: re.sub(r"\bplayer_(\d+)\b", r"player \1", text)) if game.lower().endswith(".tgpl")
             else (lambda text: text))
    horizon = result.searched if result.stopped else result.horizon  # what the claims below cover
    say(head + (f", every play ends within {result.searched} moves" if result.complete else ""))
    if result.stopped:
        say(f"  {result.stopped}: only the plays of up to {result.searched} moves were searched")
    say(f"  stuck states: {named(result.stuck.message) if result.stuck else f'none within {horizon} moves'}")
    say("  goals: " + (named(result.bad_goal.message) if result.bad_goal else
                       f"every terminal state within {horizon} moves gives every role one goal in 0..100"))
    if result.cycle:
        termination = f"NO, {named(result.cycle.message)}"
    elif result.complete:
        termination = f"every play ends within {result.searched} moves"
    else:
        termination = f"not shown: a play is still going after {horizon} moves (no state repeats within it)"
    say(f"  termination: {termination}")
    for role in result.roles:
        win, best = result.wins[role], result.best.get(role)
        if win is not None:
            say(f"  {named(role)}: wins after {len(win.witness)} moves")
        else:
            never = "NEVER wins" if result.complete else f"no win within {horizon} moves"
            say(f"  {named(role)}: {never}" + (f" (best goal {best[0]})" if best else ""))
    _say_problems(say, [{**p, "message": named(p["message"])} for p in rep["problems"]])
    if rep["ok"]:
        say(f"{game}: no problem found (bounded, up to {horizon} moves)")
    sys.exit(0 if rep["ok"] else 1)


@main.command("to-asp")
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the program here (default: stdout).")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed setup runs with (.tgpl games).")
@_validation_options
@_relations_option
@_max_ground_option
@_limit_options(NOTHING_WRITTEN)
def to_asp(game: str, output: str | None, seed: int, no_validate: bool, validate_steps: int,
           relations: bool, max_ground: int, max_seconds: float, max_memory: int | None) -> None:
    """Write the time-indexed ASP program of GAME (.tgpl lowered, or .kif) for clingo.

    A lowered game is first checked against the runtime, as by to-gdl, and some of
    the plays are replayed on the ASP program; on a mismatch nothing is written
    and the exit status is 2. Past --max-seconds or --max-memory (the whole
    command) nothing is written either, and the exit status is 2.
    """
    from tgpl.asp.asp_emit import encode_asp
    from tgpl.lowering.unread import unread_attributes

    _writable(output, "--output")
    limits = _limits(max_seconds, max_memory)
    with _limit_errors(game, ": nothing written"):
        if not game.lower().endswith(".tgpl"):
            program = _gdl_program(game, seed, max_ground, limits)[0]
            with limits.during("encoding the ASP program"):
                text = encode_asp(program).text
                limits.check()
        else:
            runtime_game, lowered = _lowered(game, seed, None, relations, limits=limits)
            with limits.during("encoding the ASP program"):
                encoding = encode_asp(lowered.program)
                limits.check()
            validated = _validated(game, runtime_game, lowered, seed, no_validate, validate_steps, asp=encoding,
                                   limits=limits)
            header = [f"% {runtime_game.name or game}: {validated}"]
            unread = unread_attributes(runtime_game.program).header_line()
            if unread:  # attributes nothing reads are no state (tgpl.lowering.unread, decision 109)
                header.append(f"% {unread}")
            text = "\n".join(header) + "\n" + encoding.text
    write_asp(text, output)


def write_asp(text: str, output: str | None) -> None:
    """The ASP program to stdout, or to `output`."""
    if output is None:
        click.echo(text, nl=False)
        return
    _write_output(text, output)


QUERY_FUNCTION = "TgplQuery__"
QUERY_STATES = 20_000  # query's --max-states: plays within the horizon that it searches state by state


@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.argument("expr")
@click.option("--horizon", type=click.IntRange(min=0), default=20, show_default=True,
              help="Search the plays of up to this many moves.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed setup runs with.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--max-states", type=click.IntRange(min=1), default=QUERY_STATES, show_default=True,
              help="Search the runtime's states one by one when the plays within --horizon are estimated at no "
                   "more than this many (storing at most this many states); else lower the game and let clingo "
                   "solve the plays at once.")
@_relations_option
@_players_option
@_limit_options("stop: not reachable within the moves searched (exit 1; stopped before any search: exit 2)")
@_max_ground_option
def query(game, expr, horizon, seed, as_json, max_states, relations, players, max_seconds, max_memory,
          max_ground):
    """Is a state where the TGPL boolean EXPR holds reachable within --horizon moves? (exit 0 yes, 1 no,
    2 when the question cannot be asked: not a .tgpl game, errors in it or in EXPR, not lowerable, stopped
    by --max-seconds or --max-memory while lowering or grounding)"""
    from tgpl.asp.bounded import BoundedSearch
    from tgpl.frontend.sources import UnreadableFile, read_source
    from tgpl.limits import LimitReached
    from tgpl.lowering.lower import QUERY_RELATION

    limits = _limits(max_seconds, max_memory)  # the whole command's: the lowering counts as the search does

    if not game.lower().endswith(".tgpl"):
        click.echo(f"{game}:1:1: error: a query is a TGPL expression: GAME must be a .tgpl game", err=True)
        sys.exit(2)
    try:
        source = read_source(game)
    except UnreadableFile as e:
        click.echo(f"{game}:1:1: error: {e}", err=True)
        sys.exit(2)
    if "\n" in expr or "\r" in expr:
        click.echo("query:1:1: error: the expression must be on one line", err=True)
        sys.exit(2)
    lead = "        return ("
    text = source.rstrip("\n") + (f"\n\n// tgpl query\nfunction {QUERY_FUNCTION}\n{{\n    returns bool;\n"
                                  f"    effect\n    {{\n{lead}{expr});\n    }}\n}}\n")
    expr_line = text.count("\n", 0, text.index(lead + expr)) + 1
    program = load_program(game, text=text)
    if not program.ok:
        for d in program.diagnostics:
            if not d.is_error:
                continue
            if d.span.file == program.main and d.span.line >= expr_line - 5:
                col = max(1, d.span.col - len(lead))
                notes = "".join(f"\n  note: {n}" for n in d.notes)
                click.echo(f"query:1:{col}: error: {d.message}\n 1 | {expr}\n   | {' ' * (col - 1)}^{notes}", err=True)
            else:
                click.echo(render(d, program.sources), err=True)
        sys.exit(2)
    with _limit_errors(game):  # stopped before any state was searched: the question was not answered at all
        with limits.during("loading the game"):
            runtime_game = _game_of(program, players)
            limits.check()
        reach = _query_by_state(runtime_game, game, seed, horizon, max_states, relations, limits, as_json)
    if reach is not None and reach.searched < 0 and limits.reached is not None:
        _say_limit(game, limits.reached)  # stopped before the initial state was asked about
        sys.exit(2)
    if reach is not None:
        _answer_query(game, expr, horizon, as_json, "states", reach.witness, reach.complete, reach.searched,
                      reach.stopped, reach.states if reach.exhausted else None, _examined_players(program, players))
    with _limit_errors(game):
        # no global checks: one bounded search does not pay for their proof (five in a row: 8.8 s, not 10.9)
        lowered = _lower_or_exit(runtime_game, game, seed, QUERY_FUNCTION, relations, global_checks=False,
                                 limits=limits)
        if lowered.grounding is None:  # a game played one state at a time (compiled moves): the bound says nothing
            _refuse_too_large(lowered.program, game, max_ground, program.sources,  # of it; the limits bound it
                              limits=limits)
        with limits.during("grounding the game's first state"):
            search = BoundedSearch(lowered.program, _runtime_move_text(lowered), limits)
    found, complete, stopped = None, False, None
    searched = -1  # the moves whose plays were searched whole
    with _Status(game, quiet=as_json) as status:
        try:
            while True:
                t = search.time
                status.show(f"searching the plays of {t} moves")
                with limits.during(f"searching the plays of {t} moves"):
                    model = search.ask(QUERY_RELATION)
                    if model is not None:
                        found = search.witness(model)
                        break
                    going = search.ask("gdl_going")
                searched = t
                if going is None:
                    complete = True  # every play has ended: no later state exists
                    break
                if t >= horizon:
                    break
                with limits.during(f"grounding the plays of {t + 1} moves"):
                    search.extend()
        except LimitReached as e:
            if searched < 0:  # not even the initial state was asked about
                _say_limit(game, e)
                sys.exit(2)
            stopped = e.message
    _answer_query(game, expr, horizon, as_json, "clingo", list(found.lines) if found is not None else None,
                  complete, search.time if found is not None or complete else searched, stopped,
                  players=_examined_players(program, players))


def _query_by_state(runtime_game, path: str, seed: int, horizon: int, max_states: int, relations: bool, limits,
                    quiet: bool):
    """`query` searched state by state on the runtime (tgpl.verify.reach), when the plays within the horizon are
    estimated at no more than `max_states` and the game lowers (the dry run of the lowering says so: query
    answers for the games it can lower, chance in setup fixed by the seed as the lowering fixes it). None: the
    search is left to the lowering and clingo (too many plays, or a game that does not lower: the lowering says
    why). A runtime error on the way also leaves it to them: they report it where it is."""
    from tgpl.pipeline import assess_game
    from tgpl.runtime.errors import TGPLRuntimeError
    from tgpl.verify.runtime_machine import RuntimeMachine
    from tgpl.verify.reach import estimate_plays, query_predicate, search

    try:
        with limits.during("setting up"):
            start = runtime_game.initial_state(seed)  # once, for the estimate, the dry run and the search
        with limits.during("estimating the plays within the horizon"):
            plays = estimate_plays(start, seed, horizon, max_states, stop=limits.stopper())
        if plays > max_states:
            return None
        with limits.during("the dry run of the lowering"):
            if not assess_game(runtime_game, seed, "auto", relations, limits, start).lowers:
                return None
        with _Status(path, quiet=quiet) as status:
            def progress(depth: int, states: int) -> None:
                status.show(f"searched the plays of {depth} moves state by state ({states:,} states)")

            with limits.during("searching state by state"):
                machine = RuntimeMachine(runtime_game, seed, start)
                return search(machine, query_predicate(runtime_game, QUERY_FUNCTION), horizon, max_states,
                              limits.stopper("message"), progress)
    except TGPLRuntimeError:
        return None


def _answer_query(game: str, expr: str, horizon: int, as_json: bool, method: str, witness: list[str] | None,
                  complete: bool, searched: int, stopped: str | None, every_state: int | None = None,
                  players: dict | None = None) -> None:
    """`query`'s answer, as text or JSON, and its exit: 0 found, 1 not (within the moves searched). `every_state`:
    the number of states the game can reach, when the search examined them all (tgpl.verify.reach); `players`:
    the count examined of a game that allows several (`_examined_players`)."""
    import json

    found = witness is not None
    answer = {"game": game, "query": expr, "found": found, "horizon": horizon,
              "moves": len(witness) if found else None, "witness": witness,
              "complete": complete, "searched": searched, "stopped": stopped, "method": method,
              "reachable_states": every_state, "players": players}
    if as_json:
        click.echo(json.dumps(answer, indent=2))
        sys.exit(0 if found else 1)
    if players is not None:
        click.echo(f"{game}: players: {_players_examined_text(players, 'the answer holds')}")
    if found:
        click.echo(f"{game}: reachable after {len(witness)} moves: {expr}")
        for line in witness:
            click.echo(f"  {line}")
    elif complete:
        click.echo(f"{game}: unreachable: no state of the game satisfies {expr} (every play ends within "
                   f"{searched} moves)")
    elif every_state is not None:
        click.echo(f"{game}: unreachable: no state of the game satisfies {expr} (its {every_state:,} reachable "
                   "states were all examined)")
    elif stopped is not None:
        click.echo(f"{game}: not reachable within {searched} moves, as far as the limits let it search ({stopped}; "
                   f"--horizon was {horizon}): {expr}")
    else:
        click.echo(f"{game}: not reachable within {horizon} moves: {expr}")
    sys.exit(0 if found else 1)


GDL_II_COMPARED = ("GDL-II: random's moves are matched as moves, not by their probabilities, and percepts are not "
                   "compared: the same game as every role would play it seeing the whole state")


@main.command()
@click.argument("a", type=click.Path(dir_okay=False))
@click.argument("b", type=click.Path(dir_okay=False))
@click.option("--max-states", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Explore at most this many states per game.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@_players_option
@_limit_options("stop (exit 2), naming what it was doing", "loading and exploring both games included")
def compare(a, b, max_states, as_json, players, max_seconds, max_memory):
    """Are A and B the same game up to the names of moves and fluents? (bisimulation; exit 1 if not; 2 when it
    cannot tell: a game that cannot be loaded, more than --max-states states, past --max-seconds or
    --max-memory)"""
    import json
    from tgpl.verify.chance_machine import TooManyOutcomes
    from tgpl.verify.graph import compare as bisimilar

    limits = _limits(max_seconds, max_memory)
    graphs = []
    gdl_ii = False  # a GDL-II game: chance moves are matched as moves, percepts are not compared
    examined = {}  # by side: the count examined of a .tgpl game that allows several
    with _collector_off(), _limit_errors("compare"), _Status("compare", quiet=as_json) as status:
        for side, path in (("A", a), ("B", b)):
            status.show(f"loading {side}: {path}")
            machine, program = _machine(path, limits=limits,
                                        players=players if path.lower().endswith(".tgpl") else None)
            gdl_ii = gdl_ii or type(machine).__name__ == "GdlIIMachine"
            if type(machine).__name__ == "GdlIIMachine":
                machine.skip_idle = True  # random's throws that change nothing: no chance node of the runtime's
            machine = _as_lowered(machine, program, max_states, limits.check)
            examined[side] = _examined_players(program, players)
            with limits.during(f"exploring {side} ({path})"):
                # the memory is the limits' to watch (explore's own cap would read as the state cap's stop)
                try:
                    g = _explore(path, machine, max_states, quiet=as_json, stop=limits.stopper(),
                                 show=lambda text, side=side: status.show(f"exploring {side}: {text}"))
                except TooManyOutcomes as e:  # chance nodes past the state cap (verify samples a seed instead)
                    click.echo(f"{path}: error: {e}: cannot explore every chance outcome (raise --max-states)",
                               err=True)
                    sys.exit(2)
                if limits.reached is not None:
                    raise limits.reached
            if not g.complete:
                click.echo(f"error: more than {max_states} states: cannot compare (raise --max-states)", err=True)
                sys.exit(2)
            graphs.append(g)
        ga, gb = graphs
        if len(ga.roles) != len(gb.roles):
            counts = "".join(f" (players of {side}: {_players_examined_text(p, 'this holds')})"
                             for side, p in examined.items() if p is not None)
            click.echo(f"{a} has {len(ga.roles)} roles, {b} has {len(gb.roles)}: not the same game{counts}")
            sys.exit(1)
        with limits.during("comparing (bisimulation)"):
            rep = bisimilar(ga, gb, limits.check,
                            lambda k, blocks: status.show(f"bisimulation: round {k}, {blocks:,} classes of states"))
    rep["roles"] = [f"{x} = {y}" for x, y in zip(ga.roles, gb.roles)]
    if gdl_ii:
        rep["note"] = GDL_II_COMPARED
    rep["players"] = examined
    if as_json:
        click.echo(json.dumps(rep, indent=1, sort_keys=True))
        sys.exit(0 if rep["equivalent"] else 1)
    click.echo(f"A: {a}: {rep['states'][0]} states")
    click.echo(f"B: {b}: {rep['states'][1]} states")
    for side, p in examined.items():
        if p is not None:
            click.echo(f"players of {side}: {_players_examined_text(p, 'the verdict holds')}")
    click.echo("roles: " + ", ".join(rep["roles"]))
    if rep["equivalent"]:
        click.echo("equivalent: the same game up to the names of moves and fluents")
        if gdl_ii:
            click.echo(f"  note: {GDL_II_COMPARED}")
        sys.exit(0)
    click.echo(f"different after {len(rep['witness'])} moves:")
    for i, step in enumerate(rep["witness"], 1):
        click.echo(f"  {i}. A: {step['a'] or '(no move)'}    B: {step['b'] or '(no move)'}")
    click.echo(f"  then {rep['reason']}")
    sys.exit(1)
