"""The `tgpl` command line."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from tgpl import __version__
from tgpl.frontend.diagnostics import Diagnostic, render, to_json
from tgpl.frontend.loader import Program, load_program


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


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
def check(files: tuple[str, ...], as_json: bool) -> None:
    """Parse and check game files; exit 1 if any has an error."""
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


# ------------------------------------------------------------------ playing
AGENTS = ("human", "random", "first")


def _load_game(path: str, players: int | None = None):
    from tgpl.runtime.game import Game
    from tgpl.runtime.compiler import compile_program

    program = load_program(path)
    if not program.ok:
        report(program, as_json=False)
        sys.exit(1)
    return Game(program, compile_program(program), players)


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
    from tgpl.runtime.agents import FirstAgent, HumanAgent, RandomAgent

    names = [n.strip() for n in spec.split(",")] if spec else ["human"] + ["random"] * (players - 1)
    if len(names) > players:
        raise click.BadParameter(f"the game has {players} players, not {len(names)}", param_hint="--players")
    names += ["random"] * (players - len(names))
    agents = []
    for p, name in enumerate(names):
        if name == "random":
            agents.append(RandomAgent(seed, p))
        elif name == "first":
            agents.append(FirstAgent())
        elif name == "human":
            agents.append(HumanAgent(*human_io))
        else:
            raise click.BadParameter(f"unknown agent '{name}'; expected one of {', '.join(AGENTS)}", param_hint="--players")
    return agents


@contextmanager
def _game_errors(where: str):
    """Errors of a game being played, as one message and exit status 1."""
    from tgpl.runtime.errors import TGPLRuntimeError
    from tgpl.runtime.game import IllegalMove
    from tgpl.runtime.play import StuckError

    try:
        yield
    except IllegalMove as e:
        click.echo(f"{where}: error: illegal move '{e.text}': {e.reason}", err=True)
        sys.exit(1)
    except StuckError as e:
        click.echo(f"{where}: error: {e}", err=True)
        sys.exit(1)
    except TGPLRuntimeError as e:
        click.echo(e.render(), err=True)
        sys.exit(1)


def _result_line(state) -> str:
    ranking = state.ranking
    if ranking is None:
        return "the game did not end"
    if len(ranking) == 1 and len(ranking[0]) > 1:
        return "draw between players " + ", ".join(str(p) for p in ranking[0])
    if len(ranking) == 1:
        return f"winner: player {ranking[0][0]}"
    return "ranking: " + "; ".join(
        f"{i + 1}. " + ", ".join(f"player {p}" for p in rank) for i, rank in enumerate(ranking)
    )


@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--players", "players_spec", help="Agents by seat, e.g. human,random (default: human then random).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the game's random generator.")
@click.option("--moves", "moves_file", type=click.File("r"), help="Moves to play first, one per line ('-': stdin).")
@click.option("--record", "record_file", type=click.Path(dir_okay=False), help="Write the game record (JSON) here.")
@click.option("--json", "as_json", is_flag=True, help="Print the final state as JSON.")
@click.option("--quiet", is_flag=True, help="Print only the result.")
def play(game, players_spec, seed, moves_file, record_file, as_json, quiet):
    """Play GAME with humans and agents; the same seed and moves give the same game."""
    import json
    from tgpl.runtime.agents import ScriptAgent
    from tgpl.runtime.display import describe_move, render_state
    from tgpl.runtime.play import play as run

    g = _load_game(game)
    count = _player_count(players_spec, g.compiled.players)
    if count != g.players:  # a game for a range of players: as many as `--players` lists
        g = type(g)(g.program, g.compiled, count)
    say = (lambda text: None) if (quiet or as_json) else click.echo
    human_io = (lambda prompt: click.prompt(prompt.strip(), prompt_suffix=" ", default="", show_default=False),
                click.echo, render_state, describe_move)
    agents = _agents(players_spec, g.players, seed, human_io)
    script = ScriptAgent.from_file(moves_file) if moves_file is not None else None
    shown_log = [0]

    def on_move(player, text, state):
        say(f"player {player}: {text}")
        for line in state.world.log[shown_log[0]:]:
            say(f"  log: {line}")
        shown_log[0] = len(state.world.log)

    with _game_errors(game):
        outcome = run(g, agents, seed, game, script, on_move)
    outcome_state = outcome.state
    if record_file:
        with open(record_file, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(outcome.record.to_json())
    if as_json:
        click.echo(json.dumps(outcome_state.to_json(), indent=1, sort_keys=True))
    else:
        if not quiet:
            click.echo(render_state(outcome_state))
        click.echo(_result_line(outcome_state))


@main.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", "game_path", type=click.Path(dir_okay=False), help="The game file (default: the record's path).")
def replay(record, game_path):
    """Replay a game record move by move; exit 1 at the first illegal move or a different result."""
    from pathlib import Path
    from tgpl.runtime.play import replay as run
    from tgpl.runtime.record import Record, source_digest

    try:
        rec = Record.from_json(Path(record).read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        click.echo(f"{record}: error: {e}", err=True)
        sys.exit(1)
    g = _load_game(game_path or rec.path)
    if rec.players and len(rec.players) != g.players:  # the record's player count
        if len(rec.players) not in g.compiled.players:
            click.echo(f"{record}: error: the record has {len(rec.players)} players; {g.name} does not allow that", err=True)
            sys.exit(1)
        g = type(g)(g.program, g.compiled, len(rec.players))
    if source_digest(g.program.sources) != rec.source_digest:
        click.echo(f"{record}: warning: the game's source changed since the record was made", err=True)
    with _game_errors(record):
        state = run(g, rec)
    result = {"ranking": state.ranking, "goals": state.goals} if state.is_terminal else None
    if result != rec.result:
        click.echo(f"{record}: error: the replay ends with {result}, the record says {rec.result}", err=True)
        sys.exit(1)
    click.echo(f"{record}: ok, {len(rec.moves)} moves; {_result_line(state)}")


# ---------------------------------------------------------------------- GDL
@main.command("check-gdl")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
def check_gdl(file: str, as_json: bool) -> None:
    """Check that FILE.kif is valid GDL; exit 1 if it is not."""
    from pathlib import Path
    from types import SimpleNamespace
    from tgpl.frontend.diagnostics import Severity, Span
    from tgpl.asp.kif import KifError, read_kif
    from tgpl.asp.validate import validate

    sources: dict[str, str] = {}
    try:
        text = Path(file).read_text(encoding="utf-8")
        sources[file] = text
        diagnostics = validate(read_kif(text, file), file)
    except KifError as e:
        diagnostics = e.diagnostics
    except (OSError, ValueError) as e:  # ValueError: not UTF-8, or a NUL byte in the path
        reason = "not valid UTF-8" if isinstance(e, UnicodeDecodeError) else (
            (e.strerror or str(e)).lower() if isinstance(e, OSError) else "invalid path")
        diagnostics = [Diagnostic(Severity.ERROR, Span(file, 1, 1, 1, 1), f"cannot read '{file}': {reason}")]
    # `report` only reads these three attributes of a Program.
    report(SimpleNamespace(main=file, sources=sources, diagnostics=diagnostics), as_json)
    failed = any(d.is_error for d in diagnostics)
    if not as_json and not failed:
        click.echo(f"{file}: ok")
    sys.exit(1 if failed else 0)
