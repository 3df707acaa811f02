"""Listings by plans (`game._planned_moves`), whose filters run on a frozen machine made for the
listing: the same moves, step limits and errors as the plain reference's."""

from __future__ import annotations

import textwrap

from tgpl.runtime import load_game
from tgpl.runtime.errors import TGPLRuntimeError

from observed import reference


GAME = """
game "t";
players 1;
interactable Token { number N = 0; }
global class G { number Moves = 0; }
function Count
{
    function input Token t;
    returns number;
    effect
    {
        number k = 0;
        for (number i = 0; i < 5; i += 1) { k += 1; }
        return k + t.N;
    }
}
class Seat
{
    action Go
    {
        input Token t { return Count(t: t) < 7 && (G.Moves != 5 || t.N < 0 - 1 || Count(t: null) > 0); }
        trigger PlayerChoiceEvent { return true; }
        effect { t.N += 1; G.Moves += 1; turn.pass(0, "A"); }
    }
}
turn T { phase A { } }
setup { for (number i = 0; i < 3; i += 1) { Token t = new Token(); } Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "A"); }
"""


def _listings(g, limits) -> list:
    """The moves listed along a play, each listing with the step limit of its turn in `limits`, or
    the error it raises, as rendered."""
    seen = []
    state = g.initial_state(0)
    for limit in limits:
        g.step_limit = limit
        state.__dict__.pop("_legal_found", None)
        try:
            moves = state.legal_moves()
        except TGPLRuntimeError as e:
            seen.append(("error", e.render()))
            continue
        seen.append([m.text for m in moves])
        if moves:
            state = state.apply(moves[0])
    return seen


def test_listings_alike_with_the_reference(tmp_path):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    # each listing counts 5 loop steps a candidate: 15 of 20 on the third (not 45: counted from 0 again)
    limits = [100, 100, 20, 5, 100, 12, 100, 20, 100]
    reused = _listings(load_game(path), limits)
    made = _listings(reference(path), limits)
    assert reused == made
    errors = [x[1] for x in reused if x[0] == "error"]
    assert any("--max-steps" in e for e in errors) and any("null" in e for e in errors)
    assert [x[0] == "error" for x in reused] == [False, False, False, True, False, True, False, True, True]
    assert "--max-steps" in reused[3][1] and "--max-steps" in reused[5][1] and "null" in reused[7][1]
