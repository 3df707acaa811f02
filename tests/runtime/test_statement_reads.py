"""A statement's reads of fields and global objects (an `if`'s condition, a field's new value and
its object), nulls and missing objects among them: games play, and fail with the same errors, as
the plain reference does."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game

from observed import outcome, reference

READS = """
game "t";
players 1;
interactable Token { number V = 0; Token Next = null; string S = "a"; }
global class G { Token T = null; number N = 0; bool B = false; }
class Seat
{
    number Count = 0;
    action Up
    {
        trigger PlayerChoiceEvent { return G.N < 9; }
        effect
        {
            Count += 1;
            if (G.T.V == 0) { G.T.V = G.N + 1; }
            if (G.B) { G.T.Next.V = G.T.Next.V + 1; }
            if (G.T.Next.V >= 1) { G.N = G.N + G.T.Next.V; }
            turn.pass();
        }
    }
    action Link
    {
        trigger PlayerChoiceEvent { return G.B == false; }
        effect { G.T.Next = G.T; G.B = true; G.T.S = G.T.S + "b"; turn.pass(); }
    }
    action Text
    {
        trigger PlayerChoiceEvent { return G.N == 0; }
        effect { G.T = null; turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup { G.T = new Token(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""

PLAYS = [
    ["Seat#0.Up()"],  # a null's field in a condition: the general spelling's error
    ["Seat#0.Link()", "Seat#0.Up()", "Seat#0.Up()", "Seat#0.Up()"],
    ["Seat#0.Text()", "Seat#0.Up()"],  # a field of a null global field read in a condition
    ["Seat#0.Link()", "Seat#0.Text()", "Seat#0.Up()"],  # and in a trigger
]


def _load(tmp_path):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(READS), encoding="utf-8")
    return path


@pytest.mark.parametrize("moves", PLAYS)
def test_reads_play_and_fail_as_spelled_the_general_way(tmp_path, monkeypatch, moves):
    path = _load(tmp_path)
    quick = load_game(path)
    general = reference(path)
    assert outcome(quick, moves, str(path)) == outcome(general, moves, str(path))


def test_a_null_read_in_a_condition_is_the_general_error(tmp_path):
    path = _load(tmp_path)
    kind, _, text = outcome(load_game(path), PLAYS[0], str(path))
    assert kind == "error" and "null" in text
