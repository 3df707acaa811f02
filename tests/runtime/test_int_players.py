"""A player plus or minus a whole number literal is mapped onto the players by Python's `%` inline
(`BlockGenerator.expr_Binary`): the same players as `to_player` gives, below zero and past the last
too, and the same as the plain reference."""

from __future__ import annotations

import textwrap



from observed import compiled_with_sources, reference

GAME = """
game "t";
players 3;
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            player p = player.active();
            player a = p + 1;
            player b = p - 5;
            player c = 1 - p;
            player d = p + 2.5;
            player e = p - 1;
            player f = p + 300;
            player g = -4 + p;
            player h = 7 + p;
            log("" + a + " " + b + " " + c + " " + d + " " + e + " " + f + " " + g + " " + h);
            turn.pass(p + 1, "A");
        }
    }
}
turn T { phase A { } }
setup { for (number i = 0; i < 3; i += 1) { Seat s = new Seat(); s.assign(i); } turn.use("T"); turn.pass(0, "A"); }
"""


def _logs(g) -> list[str]:
    state = g.initial_state(0)
    for _ in range(4):
        state = state.apply(state.legal_moves()[0])
    return state.log


def test_players_by_whole_literals(tmp_path, monkeypatch):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    inline, sources = compiled_with_sources(path, monkeypatch)
    assert any("% m.players if" in src for src in sources)
    called = reference(path)
    logs = _logs(inline)
    assert logs == _logs(called)
    # p = 0, 1, 2, 0: p + 1, p - 5, 1 - p, p + 2.5, p - 1, p + 300, -4 + p, 7 + p, each mod 3
    assert logs == [" ".join(str(int(x) % 3) for x in (p + 1, p - 5, 1 - p, p + 2.5, p - 1, p + 300, -4 + p, 7 + p))
                    for p in (0, 1, 2, 0)]
