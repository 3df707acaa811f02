"""Monty Hall in GDL-II (issue 37's done-when): setup's roll(3) places the car as random's first move, the host's
roll(2) (in a function the contestant's Pick calls) is random's move after every Pick, and each role sees what
decision 97 says: the moves of the players and what it may see of the state after each step, never the car.
The switching strategy wins 2 plays in 3 on the runtime and on the GDL-II reasoner alike."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.asp.reasoner import GdlGame
from tgpl.cli import main
from tgpl.runtime.game import load_game
from tgpl.validation import runtime_goals

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PLAYOUTS = 3_000
Z99 = 2.5758  # the two-sided 99 % quantile of the normal law


@pytest.fixture(scope="module")
def kif(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("monty") / "montyhall.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(EXAMPLES / "montyhall.tgpl"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _within_99(wins: int, n: int, p: float = 2 / 3) -> bool:
    return abs(wins / n - p) <= Z99 * math.sqrt(p * (1 - p) / n)


def test_its_gdl_ii_is_validated_and_checked(kif):
    text = kif.read_text()
    assert "; validated: bisimulation, " in text
    r = CliRunner().invoke(main, ["check-gdl", str(kif)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith("ok (GDL-II: the chance role random and percepts (sees))")


def test_each_role_sees_the_players_moves_and_the_state_but_the_car(kif):
    text = kif.read_text()
    # the players' moves, never random's: its first move is where the car is
    assert "(<= (sees ?tgpl_seer (did ?q ?m))\n    (role ?tgpl_seer)\n    (distinct ?tgpl_seer random)\n" \
           "    (distinct ?q random)\n    (does ?q ?m))" in text
    assert "(sees ?tgpl_seer (held " in text and "(sees ?tgpl_seer (open " in text  # public attributes
    assert "(sees ?tgpl_seer (control " in text
    assert "(sees ?tgpl_seer (car " not in text  # hidden: seen by nobody


def test_the_gdl_ii_value_knowing_only_what_one_sees_is_two_thirds(kif):
    """The GDL-II reasoner's information sets (own moves and percepts) give the runtime's 200/3: the percepts tell
    nothing of the car, and random throws after every Pick, so whether the host had a choice is no percept."""
    r = CliRunner().invoke(main, ["verify", str(kif), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert Fraction(rep["gdl_ii"]["value_seen_exact"]["player_0"]) == Fraction(200, 3)
    r = CliRunner().invoke(main, ["verify", str(EXAMPLES / "montyhall.tgpl"), "--json"])
    rep = json.loads(r.output)
    assert rep["hidden"]["value_seen_exact"] == {"player 0": "200/3"}


def test_compare_finds_the_tgpl_and_its_gdl_ii_the_same_game(kif):
    r = CliRunner().invoke(main, ["compare", str(EXAMPLES / "montyhall.tgpl"), str(kif), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["equivalent"] and rep["states"] == [31, 31]


def test_switching_wins_two_thirds_on_the_runtime():
    game = load_game(str(EXAMPLES / "montyhall.tgpl"))
    wins = 0
    for seed in range(PLAYOUTS):  # each seed draws the car and the host's door from the game's generator
        rng = random.Random(seed)
        state = game.initial_state(seed)
        state = state.apply(rng.choice([m.text for m in state.legal_moves()]))
        state = state.apply(next(m.text for m in state.legal_moves() if m.text.endswith(".Switch()")))
        assert state.is_terminal
        wins += runtime_goals(state)[0] == 100
    assert _within_99(wins, PLAYOUTS), wins


def test_switching_wins_two_thirds_on_the_gdl_ii_reasoner(kif):
    game = GdlGame.load(str(kif))
    roles = [str(r) for r in game.roles]
    assert roles == ["player_0", "random"]
    wins = 0
    for seed in range(PLAYOUTS):  # random uniform over its legal moves, as GDL-II says
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_terminal:
            joint = []
            for r in game.roles:
                moves = state.legal_moves(r)
                switch = [m for m in moves if str(m).startswith("(switch ")]
                joint.append(switch[0] if switch else rng.choice(moves))
            state = state.apply(joint)
        wins += state.goals[0] == 100
    assert _within_99(wins, PLAYOUTS), wins
    # staying wins 1 in 3: the test tells the strategies apart
    assert _within_99(PLAYOUTS - wins, PLAYOUTS, 1 / 3)
