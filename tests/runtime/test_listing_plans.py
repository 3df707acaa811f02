"""Legal moves listed by the world's plans (`game._plans_of`, kept with the objects by
`World.cached`) when every action a player may choose has the common shape: the same moves in the
same order as listed the general way (the plain reference), as objects are created, discarded and
change hands."""

from __future__ import annotations

import pytest

from tgpl.runtime import RuntimeOptions, game as game_module
from tgpl.runtime import load_game

from observed import EXAMPLES, playout, reference
from test_listing_quick import DISCARDS

# Seats change hands and tokens are made as the game goes: the plans are made again for the new
# objects, and who may move an object is asked at each listing
HANDS = """
game "t";
players 2;
interactable Token { number V = 0; }
global class G { number Made = 0; }
class Seat
{
    action Take
    {
        input Token t { return t.V < 2; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            t.V += 1;
            if (t.V == 1 && G.Made < 3) { Token more = new Token(); G.Made += 1; }
            if (t.V == 2) { this.assign(player.active() + 1); }
            turn.pass(player.active() + 1, "P");
        }
    }
}
turn T { phase P { } }
setup
{
    Token a = new Token();
    Seat s = new Seat(); s.assign(0);
    Seat u = new Seat(); u.assign(1);
    Seat w = new Seat(); w.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def _tree(game, depth: int) -> list:
    """The moves listed in every state within `depth` moves, breadth first."""
    out = []
    frontier = [game.initial_state(0)]
    for _ in range(depth):
        following = []
        for state in frontier:
            moves = state.legal_moves()
            out.append([m.text for m in moves])
            following += [state.apply(m) for m in moves]
        frontier = following
    return out


@pytest.mark.parametrize("src, depth", [(HANDS, 5), (DISCARDS, 3)])
def test_plans_list_as_the_general_way(game, monkeypatch, src, depth):
    planned = _tree(game(src), depth)
    assert planned == _tree(game(src, options=RuntimeOptions.reference()), depth)
    assert len(planned) > depth


def test_which_worlds_are_planned():
    tris = load_game(EXAMPLES / "tris.tgpl").initial_state(0)
    tris.legal_moves()
    assert tris.world.cached(game_module._PLANS, lambda: "unmade") not in (None, "unmade")
    chess = load_game(EXAMPLES / "chess" / "chess.tgpl").initial_state(0)
    chess.legal_moves()
    assert chess.world.cached(game_module._PLANS, lambda: "unmade") is None  # two inputs: the general way


def test_a_planted_stale_plan_is_seen(game, monkeypatch):
    """Plans kept past the creation of an object would miss the moves of the new tokens."""
    g = game(HANDS)
    planned = _tree(g, 5)
    kept: dict = {}
    monkeypatch.setattr(game_module.World, "cached", lambda self, key, make: kept.setdefault(key, make()))
    assert _tree(game(HANDS), 5) != planned


@pytest.mark.parametrize("name, seeds, limit", [
    ("tris.tgpl", range(3), 400), ("connect4.tgpl", range(2), 400), ("treasure.tgpl", range(2), 200),
    ("cards.tgpl", range(2), 200), ("hex.tgpl", range(2), 200),
])
def test_examples_list_alike_the_general_way(monkeypatch, name, seeds, limit):
    planned = load_game(EXAMPLES / name)
    expected = [playout(planned.initial_state(seed), seed, limit) for seed in seeds]
    general = reference(EXAMPLES / name)
    assert [playout(general.initial_state(seed), seed, limit) for seed in seeds] == expected
