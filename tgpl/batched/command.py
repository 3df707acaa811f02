"""`tgpl analyze --engine batched` from the command line: options checked, the game loaded, figures out."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from typing import TypeVar

import click

from tgpl.limits import Limits

T = TypeVar("T")


def run_batched_analyze(path: str, games: int, players_spec: str | None, seed: int, jobs: int | None,
                        max_moves: int, as_json: bool, report_dir: str | None, score: str | None,
                        ray_address: str | None, max_memory: int | None = None, backend: str = "numpy",
                        limits: Limits | None = None) -> None:
    """Exit 0 when every game ended, 1 when one got stuck or was cut at --max-moves, 2 when the command could
    not run (a usage error, a game the batched engine refuses, games that do not fit `max_memory` bytes, a stop
    past the command's `limits`: default, `max_memory` alone, counted from now)."""
    if players_spec is not None and any(n.strip() != "random" for n in players_spec.split(",")):
        raise click.BadParameter("the batched engine plays random agents only (--engine runtime plays the others)",
                                 param_hint="--players")
    for value, option in ((report_dir, "--report"), (score, "--score"), (ray_address, "--ray")):
        if value is not None:
            raise click.BadParameter(f"{option} needs the runtime's games (--engine runtime)", param_hint=option)
    if backend == "jax" and jobs is not None and jobs > 1:
        raise click.BadParameter("the jax backend plays in one process (XLA spreads its work over the cores)",
                                 param_hint="--jobs")
    import tgpl.batched as batched
    from tgpl.analysis.figures import text_report
    from tgpl.batched.analysis import batched_summary
    from tgpl.batched.memory import BatchMemoryError, batch_memory, chunk_size
    from tgpl.batched.source import _source_of
    from tgpl.frontend.diagnostics import Diagnostic, Severity, Span, render_all
    from tgpl.limits import LimitReached, memory_in_use

    if limits is None:
        limits = Limits(None, max_memory)
    started = time.perf_counter()
    try:
        env = batched.load(path, limits=limits, backend=backend)
    except batched.BatchedLoadError as e:
        click.echo(str(e), err=True)
        sys.exit(2)
    except LimitReached as e:
        click.echo(f"{path}: error: {e.message}: nothing written", err=True)
        sys.exit(2)
    players = len(env.roles)
    if players_spec is not None and len([n for n in players_spec.split(",")]) > players:
        raise click.BadParameter(f"the game has {players} players", param_hint="--players")
    built = time.perf_counter() - started
    memory = batch_memory(env)
    try:
        chunk = chunk_size(memory, games, jobs or 1, max_memory, memory_in_use() or 0)
    except BatchMemoryError as e:
        diagnostic = Diagnostic(Severity.ERROR, Span(path, 1, 1, 1, 1), str(e))
        click.echo(render_all([diagnostic], _source_of(path)), err=True)
        sys.exit(2)
    if backend == "jax":
        from tgpl.batched.jax_playouts import default_columns

        chunk = min(chunk, default_columns())  # the columns, within what fits the memory
    try:
        with limits.during(f"playing the games (batched engine, {games:,} games)"):
            summary = _with_progress(path, games, lambda advance: batched_summary(
                env, path, games, seed, max_moves, jobs or 1, chunk, limits, advance))
    except LimitReached as e:
        click.echo(f"{path}: error: {e.message}: nothing written", err=True)
        sys.exit(2)
    summary["memory"] = {**memory.to_json(), "batch": chunk, "max_memory_bytes": max_memory}
    elapsed = time.perf_counter() - started
    click.echo(json.dumps(summary, indent=1, sort_keys=True) if as_json else text_report(summary))
    click.echo(f"{path}: {games} games in {elapsed:.1f} s ({built:.1f} s building the network; "
               f"{games / max(elapsed - built, 1e-9):,.0f} games/s, batched engine ({backend}), batches of {chunk:,} games, "
               f"{memory.per_game:,} bytes a game)", err=True)
    sys.exit(1 if summary["errors"] or summary["unfinished"] else 0)


def _with_progress(path: str, games: int, play: Callable[[Callable[[int], None]], T]) -> T:
    """`play(advance)` with a rich progress bar of the games on a terminal (nothing otherwise: output stays the
    figures), advanced as each batch ends. Refreshed by `advance` alone, without rich's refresh thread: the
    workers are forked, and forking a process while another of its threads holds a lock is unsafe."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True, auto_refresh=False,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task(f"analyze {os.path.basename(path)}", total=games)
        progress.refresh()

        def advance(n: int) -> None:
            progress.advance(task, n)
            progress.refresh()

        return play(advance)
