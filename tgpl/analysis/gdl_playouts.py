"""`tgpl analyze GAME.kif`: random playouts of a GDL or GDL-II game on the reasoner (tgpl.asp.gdl2.playouts).

The runtime's analysis (balance, lead changes, branching) reads TGPL objects a GDL game does not have; what a
.kif game gives is its outcomes: each player's mean goal with a 99 % interval, the outcomes' counts, the mean
length. Every role plays uniformly at random (`random` always does); the playouts are seeded, so the same
seed gives the same figures.
"""

from __future__ import annotations

import json
import sys
from typing import Callable, TypeVar

import click

from tgpl.asp.gdl2 import playouts
from tgpl.limits import Limits, outside

T = TypeVar("T")


def analyze_kif(path: str, games: int, players_spec: str | None, seed: int, max_moves: int, as_json: bool,
                refused: dict[str, object], limits: Limits | None = None) -> None:
    """Play `games` random playouts of the .kif game at `path` and print the figures; exit 1 when a playout was
    still going after `max_moves` joint moves, 2 when the game cannot be loaded or an option does not apply.
    Loaded and played under the command's `limits` (LimitReached past them, nothing printed): in a thread of
    their own while they are checked, since clingo's groundings cannot be interrupted (tgpl.limits.outside)."""
    from tgpl.asp.reasoner import GdlError, GdlGame, GdlLoadError

    def bounded(stage: str, work: Callable[[], T]) -> T:
        if limits is None:
            return work()
        with limits.during(stage):
            return outside(work, limits)

    for option, value in refused.items():
        if value:
            raise click.BadParameter("a .kif game is analysed by random playouts on the GDL reasoner only",
                                     param_hint=option)
    try:
        game = bounded("loading the game", lambda: GdlGame.load(path))
    except GdlLoadError as e:
        click.echo(e.render(), err=True)
        sys.exit(2)
    if players_spec is not None and any(p.strip() != "random" for p in players_spec.split(",")):
        raise click.BadParameter("a .kif game's roles play at random only", param_hint="--players")
    try:
        result = bounded(f"playing the games ({games:,} random playouts)",
                         lambda: playouts(game, games, seed, max_moves=max_moves))
    except GdlError as e:
        click.echo(f"{path}: error: {e}", err=True)
        sys.exit(1)
    figures = {
        "game": path, "games": result.count, "finished": result.finished, "seed": seed,
        "chance": str(game.roles[game.chance]) if game.chance is not None else None,
        "mean_moves": result.moves / result.count if result.count else 0.0,
        "roles": {name: {"mean_goal": result.mean(k), "interval_99": list(result.interval(k))}
                  for k, name in enumerate(result.roles)},
        "outcomes": [{"goals": list(goals), "count": n} for goals, n in sorted(result.outcomes.items())],
    }
    if as_json:
        click.echo(json.dumps(figures, indent=1, sort_keys=True))
    else:
        chance = f"; '{figures['chance']}' is chance" if figures["chance"] else ""
        click.echo(f"{path}: {result.count:,} random playouts (seed {seed}{chance}), {result.finished:,} finished, "
                   f"{figures['mean_moves']:.2f} joint moves on average")
        for name, r in figures["roles"].items():
            low, high = r["interval_99"]
            click.echo(f"  {name}: mean goal {r['mean_goal']:.2f} (99 % interval {low:.2f} to {high:.2f})")
        for o in figures["outcomes"]:
            goals = ", ".join(f"{name} {x}" for name, x in zip(result.roles, o["goals"]))
            click.echo(f"  outcome {goals}: {o['count']:,} ({o['count'] / max(result.finished, 1):.1%})")
        if result.finished < result.count:
            click.echo(f"  {result.count - result.finished:,} playouts still going after {max_moves:,} moves")
    sys.exit(0 if result.finished == result.count else 1)
