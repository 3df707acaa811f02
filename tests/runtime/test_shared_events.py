"""The moves of an action that never names `event` share one PlayerChoiceEvent per player
(`game._play`, `game._names_event`): games play, key and log as when every move makes its own,
and an action that names its event still gets a new one each move."""

from __future__ import annotations

from tgpl.runtime import game as game_module
from tgpl.runtime import load_game

from observed import EXAMPLES

# Same counts the moves whose event is the one the move before kept: never, each move its own
KEEPS = """
game "t";
players 1;
global class Box { PlayerChoiceEvent Last = null; number Same = 0; number Moves = 0; }
class Seat
{
    action Keep
    {
        require { return Box.Moves < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            if (Box.Last == event) { Box.Same += 1; }
            Box.Last = event;
            Box.Moves += 1;
            turn.pass();
        }
    }
    action Skip
    {
        require { return Box.Moves < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Moves += 1; turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


def _same(game) -> float:
    state = game.initial_state(0)
    for move in ["Seat#0.Keep()", "Seat#0.Skip()", "Seat#0.Keep()", ]:
        state = state.apply(move)
    box = state.world.globals["Box"]
    return state.world.fields(box)["Same"]


def test_an_action_that_names_its_event_gets_a_new_one_each_move(game):
    g = game(KEEPS)
    assert _same(g) == 0
    shared = {ra.name: s for (_, _), (ra, s) in g.actions.items()}
    assert shared == {"Keep": False, "Skip": True}


def test_a_planted_share_is_seen(game, monkeypatch):
    """Were the event shared although the action names it, the game would see it."""
    monkeypatch.setattr(game_module, "_names_event", lambda ra: False)
    assert _same(game(KEEPS)) == 1


def test_which_actions_of_tris_share():
    tris = load_game(EXAMPLES / "tris.tgpl")
    state = tris.initial_state(0)
    state.apply(state.legal_moves()[0])
    assert [s for (ra, s) in tris.actions.values()] == [True]
