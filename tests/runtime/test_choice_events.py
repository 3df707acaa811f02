"""Each move of an action with a PlayerChoiceEvent trigger gets a new event (`game._play`): an
action that keeps its event and compares it with the next move's never finds them the same."""

from __future__ import annotations

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


def _same(game, moves: list[str]) -> float:
    state = game.initial_state(0)
    for move in moves:
        state = state.apply(move)
    box = state.world.globals["Box"]
    assert state.world.fields(box)["Moves"] == len(moves)
    return state.world.fields(box)["Same"]


def test_each_move_gets_a_new_event(game):
    g = game(KEEPS)
    assert _same(g, ["Seat#0.Keep()", "Seat#0.Skip()", "Seat#0.Keep()"]) == 0
    assert _same(g, ["Seat#0.Keep()", "Seat#0.Keep()", "Seat#0.Keep()"]) == 0
