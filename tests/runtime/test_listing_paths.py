"""Shortcuts of listing legal moves: a trigger that is `return true;` is not run
(compiler._returns_true, Machine.trigger_holds), and an input's candidates are read from the
world's own list of a class's objects, copied only when handed out (Machine.candidates). Games
list and play exactly as with the trigger run and the list copied."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import compiler, load_game
from tgpl.runtime.values import World

from test_memo import playout  # everything observable along a random playout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TRIGGERS = """
game "t";
players 2;
class Seat
{
    number Count = 0;
    action Plain { trigger PlayerChoiceEvent { return true; } effect { Count += 1; turn.pass(player + 1); } }
    // not `return true;`: these run, and what they do shows
    action Logged { trigger PlayerChoiceEvent { log("asked"); return true; } effect { turn.pass(player + 1); } }
    action Never { trigger PlayerChoiceEvent { return false; } effect { turn.pass(player + 1); } }
    action Counted
    {
        trigger PlayerChoiceEvent { return Count < 2; }
        effect { Count += 1; if (Count > 3) { winner player; } turn.pass(player + 1); }
    }
}
setup
{
    Seat a = new Seat();
    a.assign(0);
    Seat b = new Seat();
    b.assign(1);
    turn.use("T");
    turn.pass(0, "P");
}
turn T { phase P { } }
"""


def _always(game) -> dict[str, bool]:
    """Per action name, whether its PlayerChoiceEvent trigger is marked as `return true;`."""
    return {ra.name: getattr(ra.triggers["PlayerChoiceEvent"], "always", False)
            for rc in game.compiled.classes.values() for ra in rc.all_actions() if "PlayerChoiceEvent" in ra.triggers}


def test_only_a_trigger_that_is_return_true_is_not_run(tmp_path):
    path = tmp_path / "t.tgpl"
    path.write_text(TRIGGERS, encoding="utf-8")
    game = load_game(path)
    assert _always(game) == {"Plain": True, "Logged": False, "Never": False, "Counted": False}
    state = game.initial_state(0)
    moves = [m.text for m in state.legal_moves()]
    assert moves == ["Seat#0.Plain()", "Seat#0.Logged()", "Seat#0.Counted()"]
    after = state.apply("Seat#0.Plain()")
    assert after.log == []  # the listing logs nothing: it is not playing


@pytest.mark.parametrize("name", ["tris.tgpl", "connect4.tgpl", "draughts.tgpl", "chess/chess.tgpl"])
def test_games_play_the_same_with_triggers_run_and_pools_copied(name, monkeypatch):
    fast = [playout(load_game(EXAMPLES / name).initial_state(0), seed, 60) for seed in (1, 2)]
    monkeypatch.setattr(compiler, "_returns_true", lambda block: False)
    real = World.of_class
    # the pool a copy of the world's list, as before: a filter could only change a copy
    monkeypatch.setattr(World, "of_class", lambda self, rc: list(real(self, rc)))
    slow_game = load_game(EXAMPLES / name)
    assert not any(_always(slow_game).values())
    assert fast == [playout(slow_game.initial_state(0), seed, 60) for seed in (1, 2)]


def test_a_state_lists_its_moves_once(monkeypatch):
    """`State._legal` keeps what it listed (as `cached_property` did, without its lock): asked
    again, by `legal_moves`, `move_by_text` or `apply`, a state does not list again, and each
    `legal_moves()` is a list of its own."""
    from tgpl.runtime import game as game_module

    listed = []
    real = game_module._planned_moves  # every listing of Tris (by `_legal_moves`, or `legal_moves` itself)

    def counting(game, world, plans):
        listed.append(world)
        return real(game, world, plans)

    monkeypatch.setattr(game_module, "_planned_moves", counting)
    state = load_game(EXAMPLES / "tris.tgpl").initial_state(0)
    first = state.legal_moves()
    first.pop()
    second = state.legal_moves()
    assert len(second) == len(first) + 1 and len(listed) == 1
    after = state.apply(second[0].text)
    assert len(listed) == 1 and after.legal_moves() and len(listed) == 2
    over = after
    while not over.is_terminal:
        over = over.apply(over.legal_moves()[0])
    assert over.legal_moves() == [] and listed[-1] is not over.world  # a finished game lists nothing
