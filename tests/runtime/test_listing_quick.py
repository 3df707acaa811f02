"""The common shape of a move listed without the general walk (tgpl.runtime.listing): no move
event, no Frame, the filter run over the pool. Games list and play exactly as the general way
lists them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import listing, load_game

from observed import reference

from test_memo import playout  # everything observable along a random playout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _quick(game) -> set[str]:
    """The actions listed by a plan (`listing.quick`)."""
    c = game.compiled
    return {ra.what for rc in c.classes_by_id() for ra in rc.choice_actions()
            if listing.quick(c, ra, game.choice_event_cls) is not None}


def test_which_actions_of_the_examples_are_listed_quickly():
    assert _quick(load_game(EXAMPLES / "tris.tgpl")) == {"action PlayerState.Tick"}
    assert _quick(load_game(EXAMPLES / "connect4.tgpl")) == {"action Player.Drop"}
    assert _quick(load_game(EXAMPLES / "chess" / "chess.tgpl")) == set()  # two inputs and more


@pytest.mark.parametrize("name, seeds, limit", [
    ("tris.tgpl", range(4), 400), ("connect4.tgpl", range(2), 400), ("treasure.tgpl", range(2), 200),
    ("cards.tgpl", range(2), 200),
])
def test_examples_list_and_play_the_same_quickly_and_not(name, seeds, limit):
    fast = load_game(EXAMPLES / name)
    slow = reference(EXAMPLES / name)
    assert not _quick(slow)  # the reference lists every action the general way
    for seed in seeds:
        assert playout(fast.initial_state(seed), seed, limit) == playout(slow.initial_state(seed), seed, limit)


DISCARDS = """
game "t";
players 1;
interactable Card { number Value = 0; }
stack Pile { returns Card; }
global class G { Pile P = null; }
class Seat
{
    action Play
    {
        input Card card { return card.Value >= 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { card.discard(G.P.discard_stack); if (card.Value == 2) { winner 0; } turn.pass(); }
    }
}
turn T { phase P { } default { return 0; } }
setup
{
    G.P = new Pile();
    for (number i = 0; i < 3; i += 1) { Card c = new Card(); c.Value = i; }
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_discarded_candidates_are_left_out_quickly(game, monkeypatch):
    fast = game(DISCARDS)
    assert _quick(fast) == {"action Seat.Play"}
    play = fast.compiled.classes["Seat"].find_action("Play")
    assert listing.quick(fast.compiled, play, fast.choice_event_cls).may_discard
    state = fast.initial_state(0)
    seen = []
    while not state.is_terminal:
        moves = state.legal_moves()
        seen.append([m.text for m in moves])
        state = state.apply(moves[0])
    assert seen == [["Seat#0.Play(card: Card#0)", "Seat#0.Play(card: Card#1)", "Seat#0.Play(card: Card#2)"],
                    ["Seat#0.Play(card: Card#1)", "Seat#0.Play(card: Card#2)"],
                    ["Seat#0.Play(card: Card#2)"]]


def test_moves_of_several_inputs_are_made_once_per_action_object_and_values():
    # chess's Seat.Move(from, to): the same Move in every state that lists it, with the text and
    # inputs a move made anew has
    game = load_game(EXAMPLES / "chess" / "chess.tgpl")
    start = game.initial_state(0)
    first = {m.text: m for m in start.legal_moves()}
    again = start.apply("Seat#0.Move(from: Board[6][7], to: Board[5][5])").apply(
        "Seat#1.Move(from: Board[6][0], to: Board[5][2])").apply("Seat#0.Move(from: Board[5][5], to: Board[6][7])").apply(
        "Seat#1.Move(from: Board[5][2], to: Board[6][0])")
    assert [m.text for m in again.legal_moves()] == list(first)
    assert all(m is first[m.text] for m in again.legal_moves())
    fresh = load_game(EXAMPLES / "chess" / "chess.tgpl").initial_state(0).legal_moves()
    assert [(m.text, m.obj, m.action, m.inputs) for m in fresh] == [(m.text, m.obj, m.action, m.inputs) for m in first.values()]
