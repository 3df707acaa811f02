"""Two Runners, a push-your-luck dice race for two written as a designer writes it from the rule sheet
(tests/data/designers/runners.tgpl): each player's two runners on squares 0 to 8; a turn throws two three-sided dice
(`Throw`, `roll(3)` twice in the action's effect), then the player chooses how they move: the first die for one runner
and the second for the other (`Split`), or both for one runner (`Both`); then throw again or `Stop`. A double is a
bust: the mover's runners go back to where the turn began, and the turn passes. Landing on an opponent's runner on
squares 1 to 7 sends it to 0 for good. Both runners on 8 wins.

The runtime is checked against an independent model: the dice drawn by the model itself with the generator
runtime.md specifies (PCG32, `roll(n)` as `1 + below(n)`, two per throw in the order thrown), the moves chosen by the
test's own chooser, the legal moves, the runners' squares and the end compared at every move.

The lowering as a designer tries it (CPU and peak memory measured once with /usr/bin/time on a shared two-core
machine, not asserted): the dry run says "undecided" (exit 2) while ranging the runners' squares and the dice, the
moves spelled out (2.7 s, 63 MB); `tgpl to-gdl` (auto, 22.6 s, 149 MB; spelled, 24.7 s, 145 MB) lowers and
validates it by playouts to the end, the two dice one move of random's, `(roll2 a b)` (pinned below), and `tgpl
to-asp` writes it (25.2 s, 209 MB); with `--moves compiled` it is refused, "the segments would be 3,435 rules, more
than 3,000", located at the file's first line, with no hint; it now names the strategy that lowers (pinned below).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from click.testing import CliRunner

from differential import checks_clean_and_plays, lowered_and_validated, plays_to_the_models_end
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from test_designer_games_40 import Pcg32

OWNER = (0, 0, 1, 1)  # Runner#k's seat: setup makes seat 0's two, then seat 1's


@dataclass(frozen=True)
class Race:
    """The model's state: each runner's square and its square when its owner's turn began, the dice of a throw not
    used yet (None: the next move throws), whether the mover has moved this turn, and the seat to move."""

    pos: tuple = (0, 0, 0, 0)
    saved: tuple = (0, 0, 0, 0)
    dice: tuple | None = None
    moved: bool = False
    who: int = 0

    def seen(self) -> tuple:
        return self.pos, self.saved, self.dice is not None, self.moved


def mine(who: int) -> list[int]:
    return [k for k in range(4) if OWNER[k] == who]


def moves(s: Race) -> list:
    """With dice to use: split them either way or give both to one runner; else throw, or stop once moved."""
    if s.dice is not None:
        return [("split", k) for k in mine(s.who)] + [("both", k) for k in mine(s.who)]
    return [("throw",)] + ([("stop",)] if s.moved else [])


def advance(pos: list, k: int, steps: int) -> None:
    """Runner k on by `steps`, stopping at 8; an opponent's runner on its square 1 to 7 goes back to 0."""
    pos[k] = min(8, pos[k] + steps)
    if 1 <= pos[k] <= 7:
        for o in range(4):
            if OWNER[o] != OWNER[k] and pos[o] == pos[k]:
                pos[o] = 0


def end_turn(s: Race, pos: tuple) -> Race:
    return Race(pos=pos, saved=pos, who=1 - s.who)


def apply(s: Race, m: tuple, throw=None):
    """The state after `m` and the winner (None while the race goes on). A throw's two faces come from `throw()`."""
    if m[0] == "throw":
        d1, d2 = throw(), throw()
        if d1 == d2:  # bust
            pos = tuple(s.saved[k] if OWNER[k] == s.who else s.pos[k] for k in range(4))
            return end_turn(s, pos), None
        return replace(s, dice=(d1, d2)), None
    if m[0] == "stop":
        return end_turn(s, s.pos), None
    pos, saved = list(s.pos), list(s.saved)
    d1, d2 = s.dice
    if m[0] == "split":
        advance(pos, m[1], d1)
        for k in mine(s.who):
            if k != m[1]:
                advance(pos, k, d2)
    else:
        advance(pos, m[1], d1 + d2)
    for o in range(4):  # a runner sent back stays back: its start of turn is 0 too
        if pos[o] == 0 and s.pos[o] != 0 and OWNER[o] != s.who:
            saved[o] = 0
    after = replace(s, pos=tuple(pos), saved=tuple(saved), dice=None, moved=True)
    return after, (s.who if all(pos[k] == 8 for k in mine(s.who)) else None)


def text(s: Race, m: tuple) -> str:
    if m[0] in ("throw", "stop"):
        return f"Racer#{s.who}.{m[0].capitalize()}()"
    if m[0] == "split":
        return f"Racer#{s.who}.Split(first: Runner#{m[1]})"
    return f"Racer#{s.who}.Both(r: Runner#{m[1]})"


def observed(state) -> tuple:
    """The runtime's runners' squares and starts, whether dice wait to be used, and whether the mover has moved."""
    w = state.world
    runners = [w.fields(w.named(f"Runner#{k}")) for k in range(4)]
    track = w.fields(w.named("Track"))
    return (tuple(int(r["Pos"]) for r in runners), tuple(int(r["Saved"]) for r in runners), track["Thrown"],
            track["Moved"])


def runtime_start(seed: int):
    return load_game(game("runners")).initial_state(seed)


def model_play(seed: int, chooser_seed: int):
    """The runtime's play of `seed` beside the model, the moves chosen by Lcg(chooser_seed): the model's dice drawn
    from its own PCG32 of `seed`, two per throw."""
    dice = Pcg32(seed)

    def paired_apply(p, m):
        s, result = apply(p[1], m, lambda: 1 + dice.below(3))
        return (s.seen(), s), result

    plays_to_the_models_end(runtime_start(seed), (Race().seen(), Race()), Lcg(chooser_seed),
                            lambda p: moves(p[1]), paired_apply, lambda p, m: text(p[1], m), observed)


def test_the_model_splits_hits_and_busts():
    """Seat 0 at 2 and 5, seat 1 at 4 and 7: dice 2 and 3 split with the first on runner 0 takes it to 4 and runner
    1 to 8, hitting seat 1's runner on 4; a bust of seat 1 afterwards keeps that runner at 0."""
    s = Race(pos=(2, 5, 4, 7), saved=(2, 5, 4, 7), dice=(2, 3))
    assert moves(s) == [("split", 0), ("split", 1), ("both", 0), ("both", 1)]
    s, won = apply(s, ("split", 0))
    assert won is None and s.pos == (4, 8, 0, 7) and s.saved == (2, 5, 0, 7) and s.moved
    assert moves(s) == [("throw",), ("stop",)]
    s, _ = apply(s, ("stop",))
    assert s.who == 1 and s.saved == (4, 8, 0, 7)
    s, _ = apply(s, ("throw",), iter([1, 2]).__next__)
    s, _ = apply(s, ("both", 3))  # 7 + 3 stops at 8
    assert s.pos == (4, 8, 0, 8)
    s, _ = apply(s, ("throw",), iter([2, 2]).__next__)  # bust: back to the turn's start
    assert s.pos == (4, 8, 0, 7) and s.who == 0


def test_a_runner_home_twice_wins():
    s = Race(pos=(8, 6, 0, 0), saved=(8, 6, 0, 0), dice=(1, 2))
    assert apply(s, ("both", 1))[1] == 0
    assert apply(s, ("split", 1))[1] is None  # 6 + 1: not home


@pytest.mark.parametrize("seed", range(3))
def test_the_dice_are_the_models(seed):
    """The runtime's first throw is the model's two draws of PCG32 (a double passes the turn at once)."""
    state = runtime_start(seed)
    state = state.apply(state.resolve("Racer#0.Throw()"))
    dice = Pcg32(seed)
    d1, d2 = 1 + dice.below(3), 1 + dice.below(3)
    track = state.world.fields(state.world.named("Track"))
    assert (int(track["Die1"]), int(track["Die2"])) == (d1, d2)
    assert state.active_player == (1 if d1 == d2 else 0)


@pytest.mark.parametrize("seed", range(8))
def test_seeded_plays_end_as_the_model_says(seed):
    model_play(seed, seed + 100)


def test_the_seeded_plays_meet_every_rule():
    """Over the seeded plays above both seats win, and busts, hits, stops and both kinds of move happen."""
    winners, seen = set(), {"bust": 0, "hit": 0, "stop": 0, "split": 0, "both": 0}
    for seed in range(8):
        dice, rng, s, result = Pcg32(seed), Lcg(seed + 100), Race(), None
        while result is None:
            ms = moves(s)
            m = ms[rng.below(len(ms))]
            before = s
            s, result = apply(s, m, lambda: 1 + dice.below(3))
            if m[0] == "throw":
                seen["bust"] += s.who != before.who
            else:
                seen[m[0]] = seen.get(m[0], 0) + 1
                seen["hit"] += any(s.pos[o] == 0 < before.pos[o] for o in range(4) if OWNER[o] != before.who)
        winners.add(result)
    assert winners == {0, 1} and all(n > 0 for n in seen.values()), (winners, seen)


def test_runners_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("runners"))


def test_runners_lowers_and_validates(tmp_path):
    """`tgpl to-gdl` (auto): the moves spelled out, the throw's two dice one move of random's (language decision
    98), validated by playouts to the end of the game."""
    kif, _ = lowered_and_validated(game("runners"), tmp_path / "runners.kif")
    assert ";   (throw racer_0) = Racer#0.Throw()" in kif
    assert "(roll2 3 3)" in kif and "(roll2 3 4)" not in kif and "(roll " not in kif


def test_compiled_moves_are_refused_with_the_strategy_that_lowers(tmp_path):
    """`--moves compiled`: the segments are past their budget, a refusal of the whole game (no construct to rewrite,
    so at the file's first line), which names the moves spelled out, the strategy that lowers it (above)."""
    out = tmp_path / "runners.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("runners"), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    assert "runners.tgpl:1:1: error: not lowerable: the moves cannot be compiled: the segments would be 3,435 " \
           "rules, more than 3,000: their ways multiply where they do not meet; spell the moves out instead: " \
           "--moves auto (the default) or spelled" in r.output, r.output
