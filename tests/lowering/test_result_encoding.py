"""The end of a lowered game in GDL: `(result place_0 ... place_n)`, one arity for any number of players."""

from __future__ import annotations

import re

import pytest

from differential import Lowered
from tgpl.asp.kif import to_kif
from tgpl.asp.validate import validate
from tgpl.lowering.emit import places_of
from tgpl.runtime.snapshot import snapshot

# Three players; each may end the game at once with a ranking of their own, or move on.
THREE = """\
game "three";
players 3;
setup
{
    for (number p = 0; p < 3; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "P");
}
global class G { number N = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { G.N += 1; if (G.N == 3) { winner {{0, 1}}; } turn.pass(); }
    }
    action Win { trigger PlayerChoiceEvent { return true; } effect { winner player; } }
    action Rank { trigger PlayerChoiceEvent { return true; } effect { winner {{1}, {2}, {0}}; } }
    action Nobody { trigger PlayerChoiceEvent { return true; } effect { winner {}; } }
}
turn T { phase P { } default { return player.active() + 1; } }
"""


@pytest.mark.parametrize("ranking, players, places", [
    (((0,),), 2, [1, 2]),
    (((0, 1),), 2, [1, 1]),
    (((1,), (0, 2)), 3, [2, 1, 2]),
    (((1,),), 3, [2, 1, 2]),  # players left out share the last place
    (((1,), (2,), (0,)), 3, [3, 1, 2]),
    (((0, 1), (2,)), 3, [1, 1, 3]),  # a tie skips the next place
    (((), (2,)), 3, [2, 2, 1]),  # an empty group is no place
    ((), 3, [None, None, None]),  # a ranking naming nobody
    (((),), 2, [None, None]),
    (((0,),), 1, [1]),
])
def test_places_of_a_ranking(ranking, players, places):
    assert places_of(ranking, players) == places


def test_three_players_get_one_result_arity_and_the_runtimes_goals(tmp_path):
    path = tmp_path / "three.tgpl"
    path.write_text(THREE, encoding="utf-8")
    lw = Lowered.of(str(path))
    program = lw.lowered.program
    assert validate(program) == []
    text = to_kif(program)
    results = re.findall(r"\(result((?: [^()\s]+)*)\)", text)  # flat: places are constants or variables
    assert len(results) == text.count("(result") and {len(r.split()) for r in results} == {3}
    texts = {text: term for term, text in lw.lowered.move_texts.items()}
    ended: dict[str, list] = {}
    frontier = [(lw.game.initial_state(0), lw.gdl.initial_state())]
    while frontier:  # every play, on the runtime and on the reasoner side by side
        state, g = frontier.pop()
        assert {str(f) for f in g.fluents} == lw.lowered.state_fluents(snapshot(state))
        assert g.is_terminal == state.is_terminal
        if state.is_terminal:
            (result,) = [str(f) for f in g.fluents if str(f).startswith("(result ")]
            # a ranking naming nobody gets no goal in GDL (language.md, decision 72)
            assert g.goals == (state.goals if any(state.ranking) else [None] * 3)
            ended[result] = g.goals
            continue
        mover = state.active_player
        for move in sorted(m.text for m in state.legal_moves()):
            joint = [texts[move] if i == mover else "noop" for i in range(3)]
            frontier.append((state.apply(move), g.apply(joint)))
    assert ended == {
        "(result 1 2 2)": [100, 25, 25],  # player 0 wins, the others share second place
        "(result 2 1 2)": [25, 100, 25],
        "(result 2 2 1)": [25, 25, 100],
        "(result 3 1 2)": [0, 100, 50],
        "(result 1 1 3)": [75, 75, 0],  # players 0 and 1 tie for first
        "(result none none none)": [None, None, None],
    }
