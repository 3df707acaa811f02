"""GDL-II out: dice thrown in a phase's code (decision 117, tgpl.lowering.chance.phase_rolls).

tests/data/lowering/phase_dice.tgpl: a race whose turn starts in the phase Roll, which throws a die of three faces and
a coin; a 3 with the coin on 2 is a bust that passes at once to the other player's Roll (two throws, or more, in one
move). Entering Roll hands control to random, whose move `(roll2 d c)` gives both faces; the phase then runs with
them. The lowering is validated against the runtime by playouts that play random's steps one at a time, and a
lowering whose random leaves out a face is caught. The GDL-II, played by the repository's reasoner with random
players, gives the runtime's winning frequencies and a uniform die, within bounds computed from the number of
plays (no time budget)."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering.chance import Throw
from tgpl.runtime.game import load_game
from tgpl.runtime.rng import Pcg32

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
PHASE_DICE = DATA / "phase_dice.tgpl"
PLAYS = 300  # random plays on each side for the frequencies
SIGMAS = 4.5  # a difference past this many standard deviations fails (about 1 in 150,000 by chance)


@pytest.fixture(scope="module")
def kif(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("phase_dice") / "phase_dice.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(PHASE_DICE), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_the_phase_dice_lower_to_gdl_ii_validated_by_playouts(kif):
    text = kif.read_text()
    lines = text.splitlines()
    assert lines[1].startswith("; validated: ") and "playouts" in lines[1]
    assert "phase_dice.tgpl:75:22, " in lines[2] and "phase_dice.tgpl:76:23 are moves of the chance role random" in lines[2]
    assert "; Chance: setup enters phase Roll, whose dice setup seed 0 threw there" in text
    assert "\n(role random)\n" in text
    assert sorted(x for x in text.split("\n") if x.startswith("(input random (roll2")) == [
        f"(input random (roll2 {d} {c}))" for d in (1, 2, 3) for c in (1, 2)]
    r = CliRunner().invoke(main, ["check-gdl", str(kif)])
    assert r.exit_code == 0, r.output


def test_entering_the_phase_is_random_s_move_and_a_bust_is_another(kif):
    from tgpl.asp.reasoner import GdlGame

    game = GdlGame.load(str(kif))
    p0, p1, rnd = game.roles
    state = game.initial_state()

    def play(role, text: str) -> None:
        nonlocal state
        moves = [next(m for m in state.legal_moves(r) if str(m) == text) if r == role else state.legal_moves(r)[0]
                 for r in (p0, p1, rnd)]
        state = state.apply(moves)

    assert [str(m) for m in state.legal_moves(rnd)] == ["noop"]  # setup's throw is the seed's
    first = next(k for k, r in enumerate((p0, p1)) if [str(m) for m in state.legal_moves(r)] != ["noop"])
    me, other = (p0, p1)[first], (p0, p1)[1 - first]
    play(me, f"(walk runner_{first})")  # the other's Roll: random throws both dice, six ways
    assert len(state.legal_moves(rnd)) == 6 and [str(m) for m in state.legal_moves(other)] == ["noop"]
    play(rnd, "(roll2 3 2)")  # a bust: the first player's Roll at once, random again
    assert len(state.legal_moves(rnd)) == 6 and [str(m) for m in state.legal_moves(me)] == ["noop"]
    play(rnd, "(roll2 2 1)")
    assert "(die race 2)" in state.fluent_texts()
    assert sorted(str(m) for m in state.legal_moves(me)) == [f"(run runner_{first})", f"(walk runner_{first})"]
    play(me, f"(run runner_{first})")
    assert f"(pos runner_{first} 3)" in state.fluent_texts()


def _last_die_short(monkeypatch) -> None:
    """A wrong lowering of the dice: random's moves leave out the last face of the last die."""
    real = Throw.faces.fget
    monkeypatch.setattr(Throw, "faces", property(lambda t: [f for f in real(t) if f[-1] < t.sides[-1]]))


def test_a_random_short_of_a_face_fails_the_validation(tmp_path, monkeypatch):
    _last_die_short(monkeypatch)
    out = tmp_path / "bad.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(PHASE_DICE), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "the translation failed its validation against the runtime: nothing written" in r.output
    assert "note: legal moves only in the runtime: (roll2 1 2); (roll2 2 2); (roll2 3 2)" in r.output, r.output
    assert not out.exists()


def _gdl_plays(kif: Path) -> tuple[Counter, Counter]:
    """PLAYS plays of the GDL-II with every role moving uniformly at random (random's moves are GDL-II's chance):
    the winners' roles, and the faces of the die (the first of random's two)."""
    from tgpl.asp.reasoner import GdlGame

    game = GdlGame.load(str(kif))
    winners, faces = Counter(), Counter()
    for k in range(PLAYS):
        rng = random.Random(f"phase dice gdl {k}")
        state = game.initial_state()
        while not state.is_terminal:
            moves = [rng.choice(state.legal_moves(r)) for r in game.roles]
            thrown = str(moves[game.chance])
            if thrown != "noop":
                faces[int(thrown.split()[1])] += 1
            state = state.apply(moves)
        winners[state.goals.index(100)] += 1
    return winners, faces


def _runtime_plays() -> Counter:
    """PLAYS plays of the runtime from the same setup (seed 0), each its moves picked at random and its dice drawn
    by the runtime's own generator seeded anew: the winners' seats."""
    game = load_game(str(PHASE_DICE))
    winners = Counter()
    for k in range(PLAYS):
        rng = random.Random(f"phase dice runtime {k}")
        state = game.initial_state(0)
        for w in {id(w.seldom): w for w in (state.world, state.base) if w is not None}.values():
            w.seldom.rng = Pcg32(k + 1)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_moves()))
        winners[state.goals.index(100)] += 1
    return winners


def test_the_gdl_ii_plays_with_the_runtime_s_frequencies(kif):
    """Player 0's share of the wins, in PLAYS random plays on each side, differs by less than SIGMAS standard
    deviations of the difference of two such shares; each face of the die comes up a third of the time, within
    SIGMAS standard deviations of its count."""
    gdl, faces = _gdl_plays(kif)
    runtime = _runtime_plays()
    assert sum(gdl.values()) == sum(runtime.values()) == PLAYS
    a, b = gdl[0] / PLAYS, runtime[0] / PLAYS
    pooled = (gdl[0] + runtime[0]) / (2 * PLAYS)
    assert abs(a - b) <= SIGMAS * math.sqrt(pooled * (1 - pooled) * 2 / PLAYS), (gdl, runtime)
    throws = sum(faces.values())
    assert set(faces) == {1, 2, 3} and throws > PLAYS
    for face in (1, 2, 3):
        assert abs(faces[face] - throws / 3) <= SIGMAS * math.sqrt(throws * (1 / 3) * (2 / 3)), faces


def test_a_phase_that_throws_on_some_ways_only_is_refused_at_the_die(tmp_path):
    """GDL-II's random moves whenever the flow enters the phase, so every way through it must throw its dice."""
    text = PHASE_DICE.read_text()
    old = "        number coin = roll(2);\n"
    assert text.count(old) == 1
    src = tmp_path / "phase_dice.tgpl"
    src.write_text(text.replace(old, "        number coin = 1;\n        if (die == 3) { coin = roll(2); }\n"))
    assert CliRunner().invoke(main, ["check", str(src)]).exit_code == 0
    out = tmp_path / "x.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    assert "phase_dice.tgpl:77:32: error: not lowerable: a way through phase Roll throws 1 of its 2 dice, not this " \
           "one: random throws the phase's dice as the flow enters it" in r.output, r.output


def test_a_phase_that_throws_in_a_loop_of_unknown_passes_is_refused_at_the_die(tmp_path):
    text = PHASE_DICE.read_text()
    old = "        number coin = roll(2);\n"
    src = tmp_path / "phase_dice.tgpl"
    src.write_text(text.replace(old, "        number coin = 0;\n        while (coin < 2) { coin += roll(2); }\n"))
    assert CliRunner().invoke(main, ["check", str(src)]).exit_code == 0
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(tmp_path / "x.kif")])
    assert r.exit_code == 2, r.output
    assert "phase_dice.tgpl:77:36: error: not lowerable: roll() in a loop (or a function calling itself) is not " \
           "lowerable" in r.output, r.output


def test_compare_says_it_cannot_tell(kif):
    """`tgpl compare` matches a move's draws with one chance node; random's steps at each entry of the phase have
    none: it says it cannot compare (exit 2), never that the games differ or agree."""
    r = CliRunner().invoke(main, ["compare", str(PHASE_DICE), str(kif)])
    assert r.exit_code == 2, r.output
    assert "error: cannot compare a game whose phases throw dice" in r.output, r.output


def test_a_random_with_a_face_too_many_fails_the_validation(tmp_path, monkeypatch):
    """Random's moves past the die's sides are no draw of the runtime's: a difference, not a crash."""
    real = Throw.faces.fget
    monkeypatch.setattr(Throw, "faces", property(lambda t: real(t) + [tuple(s + 1 for s in t.sides)]))
    out = tmp_path / "bad.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(PHASE_DICE), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "the translation failed its validation against the runtime: nothing written" in r.output, r.output
    assert "Traceback" not in r.output and not out.exists()


def test_verify_on_the_gdl_ii_keeps_the_seed_s_throw_in_setup_a_chance_site():
    """Setup enters Roll and throws there on the seed: `verify --engine clingo` names the phase's dice among the
    seed's chance sites, though random throws them at every entry after setup."""
    import json

    r = CliRunner().invoke(main, ["verify", str(PHASE_DICE), "--engine", "clingo", "--json"])
    assert r.exit_code in (0, 1), r.output
    rep = json.loads(r.output)
    assert rep["chance"]["mode"] == "seed" and rep["chance"]["seed"] == 0
    assert [s.rsplit("/", 1)[1] for s in rep["chance"]["sites"]] == ["phase_dice.tgpl:75:22", "phase_dice.tgpl:76:23"]
