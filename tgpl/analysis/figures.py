"""`tgpl analyze`: what a designer asks of a prototype before a playtest, measured over many games.

Game k of a run is played with seed S + k by the same agents `tgpl play --seed S+k --players ...`
seats, through `tgpl.play.play.play`, so any game of the run replays on its own. Games are
independent, so they spread over processes; each worker returns plain facts (`Played`) and the
figures are computed from them in seed order, so they never depend on scheduling. What each
figure means is in docs/analyze.md.

TGPL has no score statement: a game's end is a ranking (`winner`), and goals exist only then. What
designers write instead is a number attribute on each player's object (`Hand.Points`); lead changes
read that (`Scorer`), and are left out for a game without one.
"""

from __future__ import annotations

import hashlib
import math
import os
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from tgpl.frontend.types import NUMBER
from tgpl.limits import Limits, outside
from tgpl.play.agents import automatic_agent
from tgpl.play.error_report import render_runtime_error
from tgpl.play.play import StuckError, play
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, Move, State
from tgpl.workers import worker_pool

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
    lead_changes: int | None = None  # None: no player's object held a score in this game
    scores: list[list[float]] = field(default_factory=list)  # each player's score at each decision, then at the end


# ================================================================ scores
# The attribute names a designer gives a player's score, in order of preference (any case).
SCORE_NAMES = ("score", "points")


class Scorer:
    """Each player's score in a state: the sum of the score attribute over the objects they alone own.

    Summing over owned objects makes both usual spellings a score: one `PlayerState` with a
    `Score`, or cards assigned to a player each worth its `Points`. Objects owned by several
    players or by none are nobody's points.
    """

    def __init__(self, game: Game, attribute: str | None):
        """`attribute`: the name `--score` gave; None: the conventional names; "none": no score.

        Raises ValueError when a named attribute is no class's number attribute: a typo must
        not pass as a game without a score.
        """
        declared = [(rc, name) for rc in game.compiled.classes_by_id() if not rc.info.builtin
                    for name, t in rc.info.attribute_types.items() if t == NUMBER]
        if attribute == "none":
            chosen = []
        elif attribute is not None:
            chosen = [(rc, name) for rc, name in declared if name == attribute]
            if not chosen:
                numbers = sorted({name for _, name in declared})
                raise ValueError(f"no class of the game has a number attribute '{attribute}'"
                                 + (f" (number attributes: {', '.join(numbers)})" if numbers else ""))
        else:
            chosen = next(([(rc, name) for rc, name in declared if name.lower() == wanted]
                           for wanted in SCORE_NAMES if any(name.lower() == wanted for _, name in declared)), [])
        self.fields = chosen
        self.label = ", ".join(f"{rc.name}.{name}" for rc, name in chosen) or None

    def scores(self, state: State) -> list[float] | None:
        """Every player's score, or None when no object of a single player holds the attribute."""
        world = state.world
        totals = [0.0] * world.players
        seen: set = set()
        for rc, name in self.fields:
            for obj in world.of_class(rc):
                owners = world.owners_of(obj)
                if len(owners) != 1 or (obj, name) in seen:
                    continue
                seen.add((obj, name))
                value = world.fields(obj).get(name)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    totals[owners[0]] += value
        return totals if seen else None


class _Lead:
    """The sole leader seen so far and how often it changed: a tie leads nobody and changes nothing.

    So A, tie, A is no change and A, tie, B is one; the first leader is not a change.
    """

    def __init__(self, scorer: Scorer):
        self.scorer = scorer
        self.leader: int | None = None
        self.changes = 0
        self.scored = False
        self.history: list[list[float]] = []  # the scores at each state seen, for the score-over-time figure

    def see(self, state: State) -> None:
        scores = self.scorer.scores(state)
        if scores is None:
            return
        self.scored = True
        self.history.append([float(x) for x in scores])
        top = max(scores)
        leaders = [p for p, x in enumerate(scores) if x == top]
        if len(leaders) != 1:
            return
        if self.leader is not None and leaders[0] != self.leader:
            self.changes += 1
        self.leader = leaders[0]


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

    def __init__(self, agent, played: Played, lead: _Lead | None):
        self.agent = agent
        self.name = agent.name
        self.played = played
        self.lead = lead

    def choose(self, state: State, moves: list[Move]) -> Move:
        played = self.played
        if played.moves:  # the start is every game's: the states reached by moves are the news
            _see(played, state)
        if self.lead is not None:
            self.lead.see(state)
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


def play_one(game: Game, specs: list[str], seed: int, max_moves: int, scorer: Scorer | None = None,
             check: Callable[[], None] | None = None) -> Played:
    """One game with seed `seed`, the agents `specs` seated as `tgpl play --players` seats them; `check` is
    called after each move (the command's limits: an MCTS game takes seconds)."""
    played = Played(seed)
    lead = _Lead(scorer) if scorer is not None and scorer.fields else None
    agents = [_Watched(automatic_agent(spec, seed, p), played, lead) for p, spec in enumerate(specs)]
    try:
        outcome = play(game, agents, seed, game.program.main, max_moves=max_moves,
                       on_move=None if check is None else lambda *_: check())
    except TGPLRuntimeError as e:  # shown with its source line; the seed and the agents replay it
        played.error = render_runtime_error(e, game.program.modules, game.program.sources)
        return played
    except StuckError as e:
        played.error = str(e)
        return played
    _see(played, outcome.state)
    played.ranking = outcome.state.ranking
    if lead is not None:
        lead.see(outcome.state)
        played.lead_changes = lead.changes if lead.scored else None
        played.scores = lead.history if lead.scored else []
    return played


@dataclass(frozen=True)
class Shipped:
    """The game as a worker loads it: its texts under the names they have here, not paths to read.

    A worker may run in another working directory or on a machine without the files (a Ray
    cluster); the texts, keyed by resolved path, with names relative to this `base`, load the same
    program with the same file names, so a game's error message is the same bytes wherever it ran.
    """

    base: str
    main: str  # the game file's resolved path
    files: tuple[tuple[str, str], ...]  # (resolved path, text) of the game file and every import
    players: int
    score: str | None  # the `--score` text: each worker picks the same attributes from it


def ship(game: Game, score: str | None = None) -> Shipped:
    base = os.getcwd()
    program = game.program
    files = tuple((os.path.normpath(os.path.join(base, name)), text) for name, text in program.sources.items())
    return Shipped(base, os.path.normpath(os.path.join(base, program.main)), files, game.players, score)


# The game of each shipped run a worker process has played, loaded once per process.
_worker_game: dict[Shipped, tuple[Game, Scorer]] = {}


def play_batch(shipped: Shipped, specs: list[str], seeds: list[int], max_moves: int) -> list[Played]:
    """A worker's part of a run (a process of the pool or a Ray task): the games of `seeds`."""
    loaded = _worker_game.get(shipped)
    if loaded is None:
        from tgpl.frontend.loader import load_program
        from tgpl.runtime.game import compile_program

        program = load_program(shipped.main, files=dict(shipped.files), base=shipped.base)
        if not program.ok:  # the texts checked where they were shipped from: only a different tgpl fails
            from tgpl.runtime.game import GameLoadError

            raise GameLoadError(program)
        game = Game(program, compile_program(program), shipped.players)
        loaded = _worker_game[shipped] = (game, Scorer(game, shipped.score))
    game, scorer = loaded
    return [play_one(game, specs, seed, max_moves, scorer) for seed in seeds]


def batches(seeds: range, workers: int) -> list[list[int]]:
    """Seeds in runs of up to 32, about 8 per worker: a task per game costs more in messages than
    a short game takes to play, and a few tasks per worker even out games of unequal length."""
    size = max(1, min(32, len(seeds) // (8 * workers)))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]


# --jobs by default: a run plays here for this long before it may start processes ...
FIRST_SECONDS = 1.0
# ... and starts them only if the rest would take longer than this here: a spawned worker costs
# about half a second to start and load the game, and on 2 cores the rest then takes half as long.
POOL_PAYS_AFTER = 3.0


def pool_pays(elapsed: float, played: int, left: int, cores: int) -> bool:
    """Whether the games `left` are worth processes, at the rate of the `played` ones so far."""
    return cores > 1 and left > 1 and played > 0 and elapsed / played * left > POOL_PAYS_AFTER


def run_games(game: Game, specs: list[str], seeds: range, jobs: int | None, max_moves: int,
              advance: Callable[[], None] = lambda: None, score: str | None = None,
              ray_workers: int | None = None, limits: Limits | None = None) -> list[Played]:
    """Every game of the run, in seed order; `advance` is called as each one ends."""
    return play_games(game, specs, seeds, jobs, max_moves, advance, score, ray_workers, limits=limits)[0]


def play_games(game: Game, specs: list[str], seeds: range, jobs: int | None, max_moves: int,
               advance: Callable[[], None] = lambda: None, score: str | None = None,
               ray_workers: int | None = None, clock: Callable[[], float] = time.perf_counter,
               limits: Limits | None = None) -> tuple[list[Played], str]:
    """Every game of the run, in seed order, and where they were played (for the timing line).

    `jobs` None (no `--jobs`): games are played here for FIRST_SECONDS, and the rest go to a
    process per core only if `pool_pays`; a short run never pays the workers' start-up. Which
    games run where changes no figure: each game is fixed by its seed. `ray_workers`: the CPUs of
    the Ray cluster `ray.init` joined (tgpl/analysis/on_ray.py), which plays the batches instead.

    `limits` (the command's): the games played here are played in a thread of their own while they are
    checked (tgpl.limits.outside: an agent's move is not interrupted, and an MCTS move in chess takes tens of
    seconds), and checked after each move too, which ends that thread's work at the next move after a stop;
    the workers are waited for under them, their memory counted, and killed past them (tgpl.workers); Ray's
    tasks are waited for under them too, and cancelled past them. Past them, LimitReached.
    """
    check = limits.check if limits is not None else None
    by_seed: dict[int, Played] = {}

    def take(batch: list[Played]) -> None:
        for played in batch:
            by_seed[played.seed] = played
            advance()

    def here(work: Callable[[], int]) -> int:
        """`work` (games played here; it gives how many) under the limits."""
        return work() if limits is None else outside(work, limits)

    if ray_workers is not None:
        from tgpl.analysis.on_ray import play_on_ray

        poll = limits.poll if limits is not None else (lambda: None)
        for batch in play_on_ray(ship(game, score), specs, batches(seeds, ray_workers), max_moves, poll):
            take(batch)
        return [by_seed[seed] for seed in seeds], f"on Ray, {ray_workers} CPUs"
    first = 0  # the first games, played in this process
    if jobs is None:
        cores = os.cpu_count() or 1
        scorer = Scorer(game, score)
        started = clock()

        def first_games() -> int:
            n = 0
            while n < len(seeds) and (n == 0 or clock() - started < FIRST_SECONDS):
                take([play_one(game, specs, seeds[n], max_moves, scorer, check)])
                n += 1
            return n

        first = here(first_games)
        jobs = cores if pool_pays(clock() - started, first, len(seeds) - first, cores) else 1
    rest = seeds[first:]
    if jobs <= 1 or len(rest) <= 1:
        scorer = Scorer(game, score)

        def rest_games() -> int:
            for seed in rest:
                take([play_one(game, specs, seed, max_moves, scorer, check)])
            return len(rest)

        here(rest_games)
        return [by_seed[seed] for seed in seeds], "1 process"
    shipped = ship(game, score)
    count = min(jobs, len(rest))
    # spawn, not fork: the parent runs a progress thread, and forking a threaded process is unsafe.
    with worker_pool(count, limits, "spawn") as workers:
        futures = [workers.pool.submit(play_batch, shipped, specs, batch, max_moves) for batch in batches(rest, jobs)]
        for future in workers.completed(futures):
            take(future.result())
    where = f"{count} processes"
    if first:
        where += f" after {first} game{'s' * (first != 1)} here"
    return [by_seed[seed] for seed in seeds], where


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


def summarise(game: Game, path: str, specs: list[str], first_seed: int, games: list[Played],
              score_label: str | None = None, max_moves: int | None = None) -> dict:
    """The figures of a run, as JSON-ready data in a fixed order.

    Every figure but the actions played is over the finished games: a game that never ends (a
    forgotten draw) would otherwise drag them, its forced passes the branching factor most. The
    unfinished ones are counted apart, with their seeds (`max_moves` is the bound they reached)."""
    n = game.players
    finished = [g for g in games if g.ranking is not None]
    unfinished = [g for g in games if g.ranking is None and g.error is None]
    first = {id(g): g.ranking[0] if g.ranking else [] for g in finished}  # `winner {};`: nobody (decision 96)
    sole = [g for g in finished if len(first[id(g)]) == 1]  # one player alone in first place
    drawn = [g for g in finished if n > 1 and len(first[id(g)]) == n]  # every player tied first
    seat_wins = [sum(first[id(g)] == [p] for g in sole) for p in range(n)]
    seat_shared = [sum(p in first[id(g)] for g in finished if len(first[id(g)]) > 1) for p in range(n)]
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
        "unfinished": len(unfinished),
        "max_moves": max_moves,
        "seats": seats,
        "agents": agents,
        "first_player_advantage": {"wins_of_decisive": wilson(seat_wins[0], len(sole)), "fair": _r(1 / n)},
        "balance": _r(1 - (max(rates) - min(rates))) if rates else None,
        "drawishness": wilson(len(drawn), len(finished)),
        "decisiveness": wilson(len(sole), len(finished)),
        "length": _length(lengths),
        "branching": _branching(finished),
        "lead_changes": _lead_changes(score_label, finished),
        "score_by_move": _score_by_move(score_label, finished, n),
        "actions": _actions(game, games),
        "most_frequent_state": _most_frequent_state(finished),
        "unfinished_games": {"seeds": [g.seed for g in unfinished], "branching": _branching(unfinished)},
        "errors": [{"seed": g.seed, "after_moves": len(g.moves), "message": g.error} for g in games if g.error],
    }


def _length(lengths: list[int]) -> dict | None:
    if not lengths:
        return None
    return {"mean": _r(statistics.fmean(lengths)), "stdev": _r(statistics.pstdev(lengths)),
            "min": min(lengths), "median": _r(statistics.median(lengths)), "max": max(lengths),
            "histogram": {str(k): v for k, v in sorted(Counter(lengths).items())}}


def _lead_changes(score_label: str | None, finished: list[Played]) -> dict | None:
    """Lead changes per finished game: the mean with a 95% interval (normal approximation,
    clamped at 0), or None for a game without a score."""
    counts = [g.lead_changes for g in finished if g.lead_changes is not None]
    if score_label is None or not counts:
        return None
    mean = statistics.fmean(counts)
    low = high = None
    stdev = 0.0
    if len(counts) > 1:
        stdev = statistics.stdev(counts)
        half = Z95 * stdev / math.sqrt(len(counts))
        low, high = _r(max(0.0, mean - half)), _r(mean + half)
    return {"score": score_label, "games": len(counts), "mean": _r(mean), "low": low, "high": high,
            "stdev": _r(stdev), "min": min(counts), "max": max(counts),
            "histogram": {str(k): v for k, v in sorted(Counter(counts).items())}}


def _score_by_move(score_label: str | None, finished: list[Played], players: int) -> dict | None:
    """Each seat's mean score before the i-th decision of the finished games that reached it (the
    last entry of a game: its end), for the score-over-time plot; None without a score."""
    scored = [g.scores for g in finished if g.scores]
    if score_label is None or not scored:
        return None
    longest = max(len(s) for s in scored)
    by_move = []
    for i in range(longest):
        at = [s[i] for s in scored if len(s) > i]
        by_move.append({"means": [_r(statistics.fmean(x[p] for x in at)) for p in range(players)], "games": len(at)})
    return {"score": score_label, "by_move": by_move}


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


def fpa_text(fpa: dict) -> str:
    """Seat 0's share of the decisive games beside the fair share."""
    if fpa["wins_of_decisive"] is None:
        return f"n/a: no decisive game (fair: {100 * fpa['fair']:.1f}%)"
    return f"{rate_text(fpa['wins_of_decisive'])} of decisive games (fair: {100 * fpa['fair']:.1f}%)"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def frequent_text(m: dict) -> str:
    """Where the most frequent state was met, in words."""
    return (f"reached {_count(m['visits'], 'time')} in {_count(m['games'], 'game')}; "
            f"first in seed {m['seed']} after {_count(len(m['moves']), 'move')}")


def lead_text(lead: dict) -> str:
    """Lead changes per game: the mean, its 95% interval in brackets, the spread."""
    def short(x: float) -> str:  # a count's mean: two decimals say all the interval allows
        return f"{round(x, 2):g}"

    interval = f" [{short(lead['low'])}, {short(lead['high'])}]" if lead["low"] is not None else ""
    return (f"mean {short(lead['mean'])}{interval} per game over {_count(lead['games'], 'finished game')}, "
            f"sd {short(lead['stdev'])}, min {lead['min']}, max {lead['max']}")


def unfinished_text(s: dict) -> list[str]:
    """The games still going after --max-moves, with their seeds, apart from the figures."""
    u = s.get("unfinished_games")
    if u and not u["seeds"] and u.get("count"):  # the batched engine's games have no seeds of their own
        return [f"unfinished: {_count(u['count'], 'game')} still going after {s['max_moves']} moves "
                "(--max-moves), left out of the figures above (does the game miss an end, a draw?)"]
    if not u or not u["seeds"]:
        return []
    bound = f" after {s['max_moves']} moves (--max-moves)" if s.get("max_moves") else ""
    seeds = u["seeds"]
    shown = ", ".join(map(str, seeds[:20])) + (f", ... ({len(seeds) - 20} more)" if len(seeds) > 20 else "")
    limit = f" --max-moves {s['max_moves']}" if s.get("max_moves") else ""
    out = [f"unfinished: {_count(len(seeds), 'game')} still going{bound}, left out of the figures above "
           f"(does the game miss an end, a draw?): seeds {shown} "
           f"(tgpl play {s['game']} --seed {seeds[0]} --players {','.join(s['players'])}{limit} plays the first)"]
    b = u["branching"]
    if b:
        out.append(f"  their branching factor: mean {b['mean']} legal moves per decision, max {b['max']}, "
                   f"{b['forced']} of {b['decisions']} decisions forced")
    return out


def text_report(summary: dict, state_text: str | None = None) -> str:
    """The figures for a terminal; rates as percent with their 95% intervals in brackets."""
    s = summary
    seeds = (f"seed {s['seeds'][0]}, batched engine" if s.get("engine") == "batched"
             else f"seeds {s['seeds'][0]}..{s['seeds'][-1]}")
    out = [f"{s['game']}: {s['games']} games, {seeds}, players "
           f"{','.join(s['players'])}: {s['finished']} finished, {s['unfinished']} unfinished, "
           f"{len(s['errors'])} with errors"]
    if s.get("chance"):
        out.append(f"chance: the game draws on its random numbers at {', '.join(s['chance'])}: the figures are "
                   f"over the seeds {s['seeds'][0]}..{s['seeds'][-1]}, each game one outcome of its draws")
    out.append("wins (sole first place, of finished games; 95% Wilson interval):")
    for seat in s["seats"]:
        out.append(f"  seat {seat['seat']} ({seat['agent']}): {rate_text(seat['wins'])}, shared first {seat['shared_first']}")
    if len(s["agents"]) > 1:
        for spec, a in s["agents"].items():
            out.append(f"  agent {spec} (seats {', '.join(map(str, a['seats']))}): {rate_text(a['wins'])}")
    fpa = s["first_player_advantage"]
    out.append(f"first-player advantage: seat 0 wins {fpa_text(fpa)}")
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
    lead = s.get("lead_changes")
    if lead:
        out.append(f"lead changes (score {lead['score']}): {lead_text(lead)}")
    if s["actions"] is not None:  # None: the batched engine, which plays the GDL, not the game's actions
        never = s["actions"]["never_played"]
        out.append(f"actions never played: {', '.join(never) if never else 'none'}")
    m = s["most_frequent_state"]
    if m:
        out.append(f"most frequent state: {m['key']}, {frequent_text(m)}")
        if state_text:
            out.extend("  " + line for line in state_text.splitlines())
    out.extend(unfinished_text(s))
    for e in s["errors"]:
        out.append(f"error in seed {e['seed']} after {e['after_moves']} moves "
                   f"(tgpl play {s['game']} --seed {e['seed']} --players {','.join(s['players'])}):")
        out.extend("  " + line for line in e["message"].splitlines())
    return "\n".join(out)
