"""`tgpl analyze`: what a designer asks of a prototype before a playtest, measured over many games.

Game k of a run is played with seed S + k by the same agents `tgpl play --seed S+k --players ...`
seats, through `tgpl.runtime.play.play`, so any game of the run replays on its own. Games are
independent, so they spread over processes; each worker returns plain facts (`Played`) and the
figures are computed from them in seed order, so they never depend on scheduling. What each
figure means is in docs/analyze.md.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from tgpl.runtime.agents import automatic_agent
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, Move, State, load_game
from tgpl.runtime.play import StuckError, play

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


@dataclass
class Played:
    """The facts of one game: all the figures are computed from these."""

    seed: int
    moves: list[str] = field(default_factory=list)  # the text of every move chosen
    branching: list[int] = field(default_factory=list)  # the legal moves at each decision
    actions: dict[str, int] = field(default_factory=dict)  # "Class.Action" -> moves that used it
    states: dict[str, list[int]] = field(default_factory=dict)  # state digest -> [visits, first move index]
    ranking: list[list[int]] | None = None  # None: unfinished, or an error
    error: str | None = None


def state_digest(state: State) -> str:
    """A short name for a state's position, equal in every process (no salted str hashes).

    The position is the canonical key without the game's generator: that differs from seed to
    seed even where nothing random happened, and would make every game's states its own.
    """
    objects, control, _rng, result, pending = state.key()
    if pending is not None and pending[0] != "at":  # keyed by its history: the base's generator too
        base, first, choices = pending
        pending = (base[:2] + base[3:] if base is not None else None, first, choices)
    return hashlib.blake2b(repr((objects, control, result, pending)).encode(), digest_size=8).hexdigest()


class _Watched:
    """An agent whose decisions are noted in a `Played` as it makes them."""

    def __init__(self, agent, played: Played):
        self.agent = agent
        self.name = agent.name
        self.played = played

    def choose(self, state: State, moves: list[Move]) -> Move:
        played = self.played
        if played.moves:  # the start is every game's: the states reached by moves are the news
            _see(played, state)
        played.branching.append(len(moves))
        move = self.agent.choose(state, moves)
        played.moves.append(move.text)
        if move.action is not None:
            action = state.world.named(move.obj).cls.find_action(move.action)
            name = f"{action.owner.name}.{action.name}"
            played.actions[name] = played.actions.get(name, 0) + 1
        return move


def _see(played: Played, state: State) -> None:
    seen = played.states.setdefault(state_digest(state), [0, len(played.moves)])
    seen[0] += 1


def play_one(game: Game, specs: list[str], seed: int, max_moves: int) -> Played:
    """One game with seed `seed`, the agents `specs` seated as `tgpl play --players` seats them."""
    played = Played(seed)
    agents = [_Watched(automatic_agent(spec, seed, p), played) for p, spec in enumerate(specs)]
    try:
        outcome = play(game, agents, seed, game.program.main, max_moves=max_moves)
    except TGPLRuntimeError as e:
        played.error = e.render()
        return played
    except StuckError as e:
        played.error = str(e)
        return played
    _see(played, outcome.state)
    played.ranking = outcome.state.ranking
    return played


# One game per worker process, loaded once: games are not sent between processes, only paths.
_worker_game: dict[tuple[str, int], Game] = {}


def _play_in_worker(path: str, players: int, specs: list[str], seeds: list[int], max_moves: int) -> list[Played]:
    game = _worker_game.get((path, players))
    if game is None:
        game = _worker_game[(path, players)] = load_game(path, players)
    return [play_one(game, specs, seed, max_moves) for seed in seeds]


def run_games(game: Game, path: str, specs: list[str], seeds: range, jobs: int, max_moves: int,
              advance: Callable[[], None] = lambda: None) -> list[Played]:
    """Every game of the run, in seed order; `advance` is called as each one ends."""
    if jobs <= 1 or len(seeds) <= 1:
        out = []
        for seed in seeds:
            out.append(play_one(game, specs, seed, max_moves))
            advance()
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    by_seed: dict[int, Played] = {}
    # spawn, not fork: the parent runs a progress thread, and forking a threaded process is unsafe.
    with ProcessPoolExecutor(max_workers=min(jobs, len(seeds)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        # Batches of seeds: a task per game costs more in messages than a short game takes to play.
        size = max(1, min(32, len(seeds) // (8 * jobs)))
        batches = [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]
        futures = [pool.submit(_play_in_worker, path, game.players, specs, batch, max_moves) for batch in batches]
        for future in as_completed(futures):
            for played in future.result():
                by_seed[played.seed] = played
                advance()
    return [by_seed[seed] for seed in seeds]


# ================================================================ figures
def wilson(successes: int, trials: int) -> dict | None:
    """The rate with its Wilson score 95% interval (sound for small counts and rates near 0 or 1)."""
    if trials == 0:
        return None
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return {"count": successes, "of": trials, "rate": _r(p), "low": _r(max(0.0, centre - half)),
            "high": _r(min(1.0, centre + half))}


def _r(x: float) -> float:
    return round(x, 4)


def choice_actions(game: Game) -> list[str]:
    """Every action a player may choose as a move (a PlayerChoiceEvent trigger), as Class.Action."""
    return [f"{a.owner.name}.{a.name}" for a in game.compiled.actions if "PlayerChoiceEvent" in a.triggers]


def summarise(game: Game, path: str, specs: list[str], first_seed: int, games: list[Played]) -> dict:
    """The figures of a run, as JSON-ready data in a fixed order."""
    n = game.players
    finished = [g for g in games if g.ranking is not None]
    sole = [g for g in finished if len(g.ranking[0]) == 1]  # one player alone in first place
    drawn = [g for g in finished if len(g.ranking[0]) == n]  # every player tied first
    seat_wins = [sum(g.ranking[0] == [p] for g in sole) for p in range(n)]
    seat_shared = [sum(p in g.ranking[0] for g in finished if len(g.ranking[0]) > 1) for p in range(n)]
    seats = [{"seat": p, "agent": specs[p], "wins": wilson(seat_wins[p], len(finished)),
              "shared_first": seat_shared[p]} for p in range(n)]
    agents = {}
    for spec in dict.fromkeys(specs):
        mine = [p for p in range(n) if specs[p] == spec]
        agents[spec] = {"seats": mine, "wins": wilson(sum(seat_wins[p] for p in mine), len(finished) * len(mine))}
    rates = [seat_wins[p] / len(finished) for p in range(n)] if finished else []
    lengths = [len(g.moves) for g in finished]
    return {
        "game": path,
        "players": specs,
        "seeds": [first_seed, first_seed + len(games) - 1] if games else [],
        "games": len(games),
        "finished": len(finished),
        "unfinished": sum(g.ranking is None and g.error is None for g in games),
        "seats": seats,
        "agents": agents,
        "first_player_advantage": {"wins_of_decisive": wilson(seat_wins[0], len(sole)), "fair": _r(1 / n)},
        "balance": _r(1 - (max(rates) - min(rates))) if rates else None,
        "drawishness": wilson(len(drawn), len(finished)),
        "decisiveness": wilson(len(sole), len(finished)),
        "length": _length(lengths),
        "branching": _branching(games),
        "actions": _actions(game, games),
        "most_frequent_state": _most_frequent_state(games),
        "errors": [{"seed": g.seed, "after_moves": len(g.moves), "message": g.error} for g in games if g.error],
    }


def _length(lengths: list[int]) -> dict | None:
    if not lengths:
        return None
    return {"mean": _r(statistics.fmean(lengths)), "stdev": _r(statistics.pstdev(lengths)),
            "min": min(lengths), "median": _r(statistics.median(lengths)), "max": max(lengths),
            "histogram": {str(k): v for k, v in sorted(Counter(lengths).items())}}


def _branching(games: list[Played]) -> dict | None:
    every = [b for g in games for b in g.branching]
    if not every:
        return None
    longest = max(len(g.branching) for g in games)
    by_move = []
    for i in range(longest):
        at = [g.branching[i] for g in games if len(g.branching) > i]
        by_move.append({"mean": _r(statistics.fmean(at)), "games": len(at)})
    return {"mean": _r(statistics.fmean(every)), "max": max(every), "decisions": len(every),
            "forced": sum(b == 1 for b in every), "by_move": by_move}


def _actions(game: Game, games: list[Played]) -> dict:
    used: Counter = Counter()
    for g in games:
        used.update(g.actions)
    names = choice_actions(game)
    return {"played": {name: used[name] for name in names if used[name]},
            "never_played": [name for name in names if not used[name]]}


def _most_frequent_state(games: list[Played]) -> dict | None:
    """The state other than the start that the games reached most often, and where to see it first."""
    visits: Counter = Counter()
    in_games: Counter = Counter()
    first: dict[str, tuple[int, int]] = {}
    for g in games:  # in seed order: the first occurrence is the lowest seed's
        for digest, (count, at) in g.states.items():
            visits[digest] += count
            in_games[digest] += 1
            first.setdefault(digest, (g.seed, at))
    if not visits:
        return None
    digest = min(visits, key=lambda d: (-visits[d], first[d]))
    seed, at = first[digest]
    moves = next(g.moves for g in games if g.seed == seed)[:at]
    return {"key": digest, "visits": visits[digest], "games": in_games[digest], "seed": seed, "moves": moves}


def replay_prefix(game: Game, seed: int, moves: list[str]) -> State:
    """The state after the first moves of a game (to show the most frequent state)."""
    state = game.initial_state(seed)
    for text in moves:
        state = state.apply(text)
    return state


# ================================================================ text
def rate_text(w: dict | None) -> str:
    """A rate as percent, its 95% interval in brackets, and the counts."""
    if w is None:
        return "n/a"
    return f"{100 * w['rate']:.1f}% [{100 * w['low']:.1f}, {100 * w['high']:.1f}] ({w['count']}/{w['of']})"


def text_report(summary: dict, state_text: str | None = None) -> str:
    """The figures for a terminal; rates as percent with their 95% intervals in brackets."""
    s = summary
    out = [f"{s['game']}: {s['games']} games, seeds {s['seeds'][0]}..{s['seeds'][-1]}, players "
           f"{','.join(s['players'])}: {s['finished']} finished, {s['unfinished']} unfinished, "
           f"{len(s['errors'])} with errors"]
    out.append("wins (sole first place, of finished games; 95% Wilson interval):")
    for seat in s["seats"]:
        out.append(f"  seat {seat['seat']} ({seat['agent']}): {rate_text(seat['wins'])}, shared first {seat['shared_first']}")
    if len(s["agents"]) > 1:
        for spec, a in s["agents"].items():
            out.append(f"  agent {spec} (seats {', '.join(map(str, a['seats']))}): {rate_text(a['wins'])}")
    fpa = s["first_player_advantage"]
    out.append(f"first-player advantage: seat 0 wins {rate_text(fpa['wins_of_decisive'])} of decisive games "
               f"(fair: {100 * fpa['fair']:.1f}%)")
    out.append(f"balance: {s['balance'] if s['balance'] is not None else 'n/a'} (1: every seat wins as often)")
    out.append(f"drawishness: {rate_text(s['drawishness'])}; decisiveness: {rate_text(s['decisiveness'])}")
    length = s["length"]
    if length:
        out.append(f"length (moves): mean {length['mean']}, sd {length['stdev']}, min {length['min']}, "
                   f"median {length['median']}, max {length['max']}")
        top = max(length["histogram"].values())
        for k, v in length["histogram"].items():
            out.append(f"  {k:>5} | {'#' * max(1, round(40 * v / top))} {v}")
    b = s["branching"]
    if b:
        out.append(f"branching factor: mean {b['mean']} legal moves per decision, max {b['max']}, "
                   f"{b['forced']} of {b['decisions']} decisions forced")
        out.append("  by move: " + " ".join(f"{m['mean']:g}" for m in b["by_move"][:30])
                   + (" ..." if len(b["by_move"]) > 30 else ""))
    never = s["actions"]["never_played"]
    out.append(f"actions never played: {', '.join(never) if never else 'none'}")
    m = s["most_frequent_state"]
    if m:
        out.append(f"most frequent state: {m['key']}, reached {m['visits']} times in {m['games']} games; "
                   f"first in seed {m['seed']} after {len(m['moves'])} moves")
        if state_text:
            out.extend("  " + line for line in state_text.splitlines())
    for e in s["errors"]:
        out.append(f"error in seed {e['seed']} after {e['after_moves']} moves "
                   f"(tgpl play {s['game']} --seed {e['seed']} --players {','.join(s['players'])}):")
        out.extend("  " + line for line in e["message"].splitlines())
    return "\n".join(out)
