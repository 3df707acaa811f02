"""`tgpl analyze` from the command line: options checked, games run with a progress bar, figures out."""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import nullcontext

import click

from tgpl.analysis.figures import Scorer, play_games, replay_prefix, summarise, text_report
from tgpl.analysis.on_ray import RayError, RayMissing, connect, disconnect  # Ray itself only when --ray
from tgpl.frontend.after_setup import chance_site_texts
from tgpl.frontend.loader import load_program
from tgpl.limits import Limits
from tgpl.play.agents import automatic_agent
from tgpl.runtime.game import Game, compile_program


def seat_specs(spec: str | None, allowed: range) -> list[str]:
    """One agent spec per seat: those listed, then `random` up to the game's minimum."""
    names = [n.strip() for n in spec.split(",")] if spec else []
    if len(names) > allowed[-1]:
        counts = f"{allowed.start}" if len(allowed) == 1 else f"{allowed.start} to {allowed[-1]}"
        raise click.BadParameter(f"the game has {counts} players, not {len(names)}", param_hint="--players")
    names += ["random"] * (allowed.start - len(names))
    for name in names:
        try:
            automatic_agent(name, 0, 0)
        except ValueError as e:
            raise click.BadParameter(f"{e}; analyze seats random, first, mcts, mcts:N or mcts:N:batched=K",
                                     param_hint="--players") from None
    return names


def run_analyze(path: str, games: int, players_spec: str | None, seed: int, jobs: int | None, max_moves: int,
                as_json: bool, report_dir: str | None, score: str | None = None, ray_address: str | None = None,
                limits: Limits | None = None) -> None:
    """The run, under the command's `limits` (LimitReached past them, before anything is written: the figures
    of the games played so far would be those of another run)."""
    from tgpl.cli import report

    program = load_program(path)
    if not program.ok:  # unreadable, or a game with errors: the command cannot do its job
        report(program, as_json=False)
        sys.exit(2)
    compiled = compile_program(program)
    specs = seat_specs(players_spec, compiled.players)
    game = Game(program, compiled, len(specs))
    try:
        scorer = Scorer(game, score)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--score") from None
    ray_workers = None
    if ray_address is not None:
        if jobs is not None and ray_address != "local":
            raise click.BadParameter("a Ray cluster's CPUs play the games: --jobs sets the CPUs of a "
                                     "new instance only (--ray local --jobs J)", param_hint="--jobs")
        try:
            ray_workers = connect(ray_address, jobs)
        except RayMissing as e:
            raise click.BadParameter(str(e), param_hint="--ray") from None
        except RayError as e:
            click.echo(f"error: --ray {ray_address}: {e}", err=True)
            sys.exit(2)
    started = time.perf_counter()
    try:
        played, where = _with_progress(game, path, specs, range(seed, seed + games), jobs, max_moves, score,
                                       ray_workers, limits)
    except RayError as e:
        click.echo(f"error: --ray {ray_address}: {e}", err=True)
        sys.exit(2)
    finally:
        if ray_workers is not None:
            disconnect()
    elapsed = time.perf_counter() - started
    summary = summarise(game, path, specs, seed, played, scorer.label, max_moves)
    summary["chance"] = chance_site_texts(program) or None  # where the seeds make the games differ
    frequent = summary["most_frequent_state"]
    state_text = None
    if frequent is not None:
        from tgpl.play.display import render_state

        state_text = render_state(replay_prefix(game, frequent["seed"], frequent["moves"]))
    if report_dir:
        from tgpl.analysis.report import write_report

        try:
            write_report(summary, report_dir, state_text)
        except OSError as e:
            click.echo(f"{report_dir}: error: cannot write the report: {(e.strerror or str(e)).lower()}", err=True)
            sys.exit(2)
    if as_json:
        click.echo(json.dumps(summary, indent=1, sort_keys=True))
    else:
        click.echo(text_report(summary, state_text))
    click.echo(f"{path}: {games} games in {elapsed:.1f} s ({games / elapsed:.1f} games/s, {where})", err=True)
    sys.exit(1 if summary["errors"] or summary["unfinished"] else 0)  # a game that never ends is a problem


def _with_progress(game: Game, path: str, specs: list[str], seeds: range, jobs: int | None, max_moves: int,
                   score: str | None, ray_workers: int | None, limits: Limits | None = None):
    """The games, with a rich progress bar on a terminal (nothing otherwise: output stays the figures). Under
    `limits`, the stage a stop names counts the games played ("playing the games (812 of 2,000 played)")."""
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    console = Console(stderr=True)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(f"analyze {os.path.basename(path)}", total=len(seeds))
        played = 0

        def advance() -> None:
            nonlocal played
            played += 1
            progress.advance(task)
            if limits is not None:
                limits.stage = f"playing the games ({played:,} of {len(seeds):,} played)"

        stage = f"playing the games (0 of {len(seeds):,} played)"
        with limits.during(stage) if limits is not None else nullcontext():
            return play_games(game, specs, seeds, jobs, max_moves, advance, score, ray_workers, limits=limits)
