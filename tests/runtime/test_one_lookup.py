"""A tabulated default's outcome looked up once, by turn, player, phase and players together
(`Passes.seen`): games play, and fail, as the plain reference does; what `seen` holds is what the
turns' own tables hold."""

from __future__ import annotations

import pytest

from tgpl.runtime import load_game, passes

from observed import EXAMPLES, outcome, reference
from test_default_tables import GAME, PLAYS, RETURNS, RETURNS_PLAYS, _game


def _loaded(monkeypatch, path):
    """The game and its compiler's `Passes` (kept by the compiler only)."""
    made = []
    real = passes.Passes.fill
    with monkeypatch.context() as mp:
        mp.setattr(passes.Passes, "fill", lambda self, turns: made.append(self) or real(self, turns))
        g = load_game(path)
    return g, made[-1]


def _seen_is_the_tables(g, seen) -> None:
    tables = {(name, *key): out for name, t in g.compiled.turns.items() if t.outcomes for key, out in t.outcomes.items()}
    assert seen == tables


@pytest.mark.parametrize("src, moves", [(GAME, m) for m in PLAYS] + [(RETURNS, m) for m in RETURNS_PLAYS])
def test_defaults_play_and_fail_as_in_the_reference(tmp_path, monkeypatch, src, moves):
    path = _game(tmp_path, src)
    once, known = _loaded(monkeypatch, path)
    plain = reference(path)
    first = outcome(once, moves, str(path))
    again = outcome(once, moves, str(path))  # now from `seen`
    assert first == again == outcome(plain, moves, str(path)) == outcome(plain, moves, str(path))
    assert known.seen
    _seen_is_the_tables(once, known.seen)


def test_tris_sees_its_four_outcomes(monkeypatch):
    g, known = _loaded(monkeypatch, EXAMPLES / "tris.tgpl")
    state = g.initial_state(0)
    for _ in range(3):
        state = state.apply(state.legal_moves()[0])
    assert set(known.seen) == {("GameTurn", p, phase, 2) for p in (0, 1) for phase in ("TickPhase", "WinCheckPhase")}
    _seen_is_the_tables(g, known.seen)


FROZEN = """
game "t";
players 2;
interactable Token { number V = 0; }
global class G { number N = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { G.N += 1; turn.pass(); }
    }
    action Bad
    {
        input Token t { if (G.N >= 2) { turn.pass(); } return true; }
        trigger PlayerChoiceEvent { return true; }
        effect { turn.pass(); }
    }
}
turn T { phase P { } default { turn.pass(player.active() + 1, "P"); } }
setup { Token k = new Token(); Seat a = new Seat(); a.assign(0); Seat b = new Seat(); b.assign(1); turn.use("T"); turn.pass(0, "P"); }
"""


def test_a_pass_while_moves_are_listed_is_the_error_though_seen(tmp_path, monkeypatch):
    """A filter's `turn.pass()` while the legal moves are listed is the machine's error, even when
    the outcome for that turn, player and phase was seen before."""
    path = _game(tmp_path, FROZEN)
    g, known = _loaded(monkeypatch, path)
    got = outcome(g, ["Seat#0.Go()", "Seat#1.Go()"], str(path))
    assert got[0] == "error" and "require, trigger or filter" in got[2]
    assert ("T", 0, "P", 2) in known.seen
