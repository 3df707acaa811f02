"""State identity at every kind of decision point (docs/runtime.md, "State identity").

A state waiting for a choice is keyed by its world and by where the suspended code stands
(its site, and the locals, queued events and listeners it still holds), not by the move
orders that led there: two histories that reach the same waiting state share one key, and
two waiting states that would go on differently do not.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import PHASE_ENTRY, _freeze

EIGHTS = Path(__file__).parent.parent / "data" / "eights.tgpl"


def history_key(state) -> tuple:
    """What a waiting state's key held before: the state its segment started from, its first
    move and the choices since. Different for the same state reached by different histories."""
    return (state.base_key(), state.first.text if state.first else None, tuple(_freeze(v) for v in state.choices))


def play(state, moves: list[str]):
    for text in moves:
        state = state.apply(text)
    return state


def reachable(game) -> list:
    """Every state reached from the start, each time it is reached (duplicates included)."""
    start = game.initial_state(0)
    seen = {start.key()}
    frontier = deque([start])
    reached = [start]
    while frontier:
        state = frontier.popleft()
        for move in state.legal_moves():
            nxt = state.apply(move)
            reached.append(nxt)
            if nxt.key() not in seen:
                seen.add(nxt.key())
                frontier.append(nxt)
    return reached


def assert_keys_are_a_congruence(states: list) -> None:
    """States with one key have the same moves, the same end and successors with one key each:
    whatever the key leaves out does not change what happens next."""
    behaviour: dict = {}
    for state in states:
        if state.is_terminal:
            seen = ("end", state.ranking)
        else:
            seen = ("moves", state.active_player, tuple((m.text, state.apply(m).key()) for m in state.legal_moves()))
        assert behaviour.setdefault(state.key(), seen) == seen


# ------------------------------------------------------------------ crazy eights
# Player 0 plays 4 and 6 of hearts, player 1 plays 5 and 9 of hearts, in either order; then
# player 0 plays the 8 of hearts and is asked for a suit, the card before it differing.
HEARTS_FIRST = ["Hand#0.Play(card: Card#1)", "Hand#1.Play(card: Card#5)",
                "Hand#0.Play(card: Card#2)", "Hand#1.Play(card: Card#6)"]
HEARTS_SECOND = ["Hand#0.Play(card: Card#2)", "Hand#1.Play(card: Card#6)",
                 "Hand#0.Play(card: Card#1)", "Hand#1.Play(card: Card#5)"]
EIGHT = "Hand#0.Play(card: Card#3)"


def test_a_suit_asked_after_an_eight_reached_by_two_move_orders_has_one_key():
    game = load_game(EIGHTS)
    before_a = play(game.initial_state(0), HEARTS_FIRST)
    before_b = play(game.initial_state(0), HEARTS_SECOND)
    assert before_a.key() != before_b.key()  # the top card differs: 9 or 5 of hearts
    a, b = before_a.apply(EIGHT), before_b.apply(EIGHT)
    assert a.request.name == b.request.name == "named" and a.active_player == b.active_player == 0
    assert history_key(a) != history_key(b)  # they came by different histories
    assert a.to_json() == b.to_json()
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())
    # and they go on alike: the same suit named gives one state again
    for suit in ("Suit#0", "Suit#1"):
        after_a, after_b = a.apply(suit), b.apply(suit)
        assert after_a.to_json() == after_b.to_json() and after_a.key() == after_b.key()


def test_different_waiting_states_have_different_keys():
    game = load_game(EIGHTS)
    start = game.initial_state(0)
    early = start.apply(EIGHT)  # the eight at once: the other hearts still in hand
    late = play(start, HEARTS_FIRST).apply(EIGHT)
    assert early.request.name == late.request.name == "named"
    assert early.key() != late.key()
    assert early.apply("Suit#0").key() != early.apply("Suit#1").key()
    assert early.key() != early.apply("Suit#0").key()


def test_every_state_of_crazy_eights_has_one_key_per_position():
    game = load_game(EIGHTS)
    states = reachable(game)
    assert_keys_are_a_congruence(states)
    # In this game the position (`to_json`, no log) is all there is: the suspended move holds
    # only the card played, which is the top card. So keys and positions correspond one to one,
    # although some waiting positions are reached by several histories.
    by_key: dict = {}
    by_position: dict = {}
    for state in states:
        position = json.dumps(state.to_json(), sort_keys=True)
        assert by_key.setdefault(state.key(), position) == position
        assert by_position.setdefault(position, state.key()) == state.key()
    waiting = [s for s in states if s.pending]
    assert len({history_key(s) for s in waiting}) > len({s.key() for s in waiting})


# ------------------------------------------------------------ what suspended code holds
# The same world waiting for the same input, but the suspended move holds different things:
# a count read before the move cleared it, the box's own list rather than a new one, events
# queued in another order, listeners still to run, or the branch it waits in.
HELD = """
game "t";
players 1;
interactable Token { }
event Bell { number Tag = 0; }
event Gong { }
global class Box
{
    number Count = 0;
    List<Token> Items = {};
    number Heard = 0;
}
class Seat
{
    action Add
    {
        require { return Box.Count < 2; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Count += 1; }
    }
    action Cash
    {
        require { return Box.Count > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number before = Box.Count;
            Box.Count = 0;
            input Token t;
            if (before == 2) { winner 0; }
            winner {};
        }
    }
    action Stash
    {
        require { return Box.Count > 0 && Box.Items.length == 0; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            List<Token> kept = {};
            if (Box.Count == 1) { kept = Box.Items; }
            Box.Count = 0;
            input Token t;
            kept.add(t);
        }
    }
    action Chime
    {
        require { return Box.Count > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Bell x = new Bell();
            x.Tag = 1;
            Bell y = new Bell();
            y.Tag = 2;
            if (Box.Count == 1) { event.throw(x); event.throw(y); } else { event.throw(y); event.throw(x); }
            Box.Count = 0;
            input Token t;
        }
    }
    action Hear
    {
        trigger Bell { return true; }
        effect { Box.Heard = event.Tag; }
    }
    action Ring
    {
        require { return Box.Count > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { Gong g = new Gong(); event.throw(g); }
    }
    action First
    {
        prio 2;
        trigger Gong { return true; }
        effect { Box.Count = 0; input Token t; }
    }
    action Second
    {
        prio 1;
        require { return Box.Count == 2; }
        trigger Gong { return true; }
        effect { winner 0; }
    }
    action Branch
    {
        require { return Box.Count > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            if (Box.Count == 1) { Box.Count = 0; input Token t; winner 0; }
            else { Box.Count = 0; input Token t; winner {}; }
        }
    }
}
turn T { phase P { } }
setup
{
    Token one = new Token();
    Token two = new Token();
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def after_one_and_two(initial, move: str):
    """`move` after one Add and after two: the world it waits in is the same both ways."""
    once = play(initial, ["Seat#0.Add()", move])
    twice = play(initial, ["Seat#0.Add()", "Seat#0.Add()", move])
    assert once.request.name == twice.request.name == "t"
    assert once.to_json() == twice.to_json()
    return once, twice


def test_a_local_computed_before_the_choice_is_part_of_the_waiting_state(start):
    once, twice = after_one_and_two(start(HELD), "Seat#0.Cash()")
    assert once.key() != twice.key()
    assert once.apply("Token#0").ranking != twice.apply("Token#0").ranking  # they differ, as said


def test_a_local_holding_the_worlds_own_list_differs_from_an_equal_new_one(start):
    mine, new = after_one_and_two(start(HELD), "Seat#0.Stash()")  # Box.Items itself, or a new list
    assert mine.key() != new.key()
    assert mine.apply("Token#1").to_json() != new.apply("Token#1").to_json()  # only one fills the box


def test_events_queued_in_another_order_make_another_waiting_state(start):
    once, twice = after_one_and_two(start(HELD), "Seat#0.Chime()")
    assert once.key() != twice.key()
    assert once.apply("Token#0").to_json() != twice.apply("Token#0").to_json()  # the last bell heard


def test_listeners_still_to_run_are_part_of_the_waiting_state(start):
    once, twice = after_one_and_two(start(HELD), "Seat#0.Ring()")
    assert once.key() != twice.key()
    assert once.apply("Token#0").ranking != twice.apply("Token#0").ranking  # Second runs after two


def test_the_place_the_code_waits_at_is_part_of_the_waiting_state(start):
    once, twice = after_one_and_two(start(HELD), "Seat#0.Branch()")
    assert once.key() != twice.key()
    assert once.apply("Token#0").ranking != twice.apply("Token#0").ranking


def test_keys_of_a_game_whose_choices_hold_locals_are_a_congruence(game, tmp_path):
    assert_keys_are_a_congruence(reachable(game(HELD)))


# ------------------------------------------------------ every kind of decision point
# Moves SetA and SetB in either order, each noting itself as the last; then a move that clears
# the note and waits for a choice in one of the ways a game can ask: so the states before that
# move differ, and the waiting states are the same.
KINDS = """
game "t";
players 2;
interactable Token { }
event Bell { }
global class Flags
{
    bool A = false;
    bool B = false;
    string Last = "";
    Token Prize = null;
}
global class Helper
{
    action Ask
    {
        input Token t;
        effect { input bool sure; if (sure) { winner 0; } winner 1; }
    }
}
class Seat
{
    action SetA
    {
        require { return !Flags.A; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.A = true; Flags.Last = "A"; }
    }
    action SetB
    {
        require { return !Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.B = true; Flags.Last = "B"; }
    }
    action Effect
    {
        require { return Flags.A && Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.Last = ""; input Token t; winner 0; }
    }
    action Ring
    {
        require { return Flags.A && Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.Last = ""; Bell b = new Bell(); event.throw(b); }
    }
    action Answer
    {
        input Token t;
        trigger Bell { return true; }
        effect { winner 0; }
    }
    action Call
    {
        require { return Flags.A && Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.Last = ""; Helper.Ask(); }
    }
    action Enter
    {
        require { return Flags.A && Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.Last = ""; turn.pass(0, "Ask"); }
    }
    action Clear
    {
        require { return Flags.Last != ""; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.Last = ""; }
    }
    action Deal
    {
        player [1] input bool agree;
        input Token t;
        require { return Flags.A && Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { if (agree && t == Flags.Prize) { winner 1; } winner 0; }
    }
    action Offer
    {
        player [1] input bool agree;
        require { return Flags.A && Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { if (agree) { winner 1; } winner 0; }
    }
}
turn T
{
    phase P { }
    phase Ask
    {
        input Token first;
        effect { input Token second; winner 0; }
    }
}
setup
{
    Token one = new Token();
    Token two = new Token();
    Flags.Prize = two;
    Seat s = new Seat(); s.assign(0);
    Seat other = new Seat(); other.assign(1);
    turn.use("T");
    turn.pass(0, "P");
}
"""

AB = ["Seat#0.SetA()", "Seat#0.SetB()"]
BA = ["Seat#0.SetB()", "Seat#0.SetA()"]


def both_orders(initial, moves: list[str]):
    return play(initial, AB + moves), play(initial, BA + moves)


def assert_one_state(a, b, asked: str, player: int = 0) -> None:
    assert a.request.name == b.request.name == asked and a.active_player == b.active_player == player
    assert a.to_json() == b.to_json()
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())


def test_an_input_statement_of_a_move_reached_by_two_orders_has_one_key(start):
    a, b = both_orders(start(KINDS), ["Seat#0.Effect()"])
    assert history_key(a) != history_key(b)
    assert_one_state(a, b, "t")


def test_an_input_of_an_action_fired_by_an_event_reached_by_two_orders_has_one_key(start):
    a, b = both_orders(start(KINDS), ["Seat#0.Ring()"])
    assert history_key(a) != history_key(b)
    assert_one_state(a, b, "t")
    assert a.apply("Token#1").key() == b.apply("Token#1").key()


def test_inputs_of_an_action_called_from_code_reached_by_two_orders_have_one_key(start):
    a, b = both_orders(start(KINDS), ["Seat#0.Call()"])
    assert history_key(a) != history_key(b)
    assert_one_state(a, b, "t")  # the called action's own input
    a, b = a.apply("Token#0"), b.apply("Token#0")
    assert_one_state(a, b, "sure")  # an input statement of its effect
    assert a.key() != play(start(KINDS), AB + ["Seat#0.Call()", "Token#1"]).key()


def test_inputs_of_a_phase_and_of_its_effect_reached_by_two_orders_have_one_key(start):
    a, b = both_orders(start(KINDS), ["Seat#0.Enter()"])
    assert_one_state(a, b, "first")
    a, b = a.apply("Token#0"), b.apply("Token#0")
    assert_one_state(a, b, "second")
    assert a.key() != play(start(KINDS), AB + ["Seat#0.Enter()", "Token#1"]).key()


def test_an_input_asked_of_another_player_reached_by_two_orders_has_one_key(start):
    # asked before the action's effect runs: the move starts from one state both ways
    a, b = both_orders(start(KINDS), ["Seat#0.Clear()", "Seat#0.Offer()"])
    assert_one_state(a, b, "agree", player=1)
    assert a.key() != play(start(KINDS), AB + ["Seat#0.Offer()"]).key()
    # the mover's own inputs, given with the move, are part of the move still running
    one, two = (play(start(KINDS), AB + [f"Seat#0.Deal(t: Token#{i})"]) for i in (0, 1))
    assert one.request.name == two.request.name == "agree" and one.to_json() == two.to_json()
    assert one.key() != two.key()
    assert one.apply("true").ranking != two.apply("true").ranking


def test_keys_of_every_kind_of_decision_point_are_a_congruence(game):
    assert_keys_are_a_congruence(reachable(game(KINDS)))


def test_an_input_of_setup_reached_by_two_orders_has_one_key(start):
    initial = start("""
        game "t";
        players 1;
        interactable Token { bool Marked = false; }
        class Seat { action Wait { trigger PlayerChoiceEvent { return true; } effect { winner 0; } } }
        turn T { phase P { } }
        setup
        {
            Token one = new Token();
            Token two = new Token();
            for (number i = 0; i < 2; i += 1)
            {
                input Token pick { return !pick.Marked; }
                pick.Marked = true;
            }
            input bool done;
            Seat s = new Seat(); s.assign(0);
            turn.use("T");
            turn.pass(0, "P");
        }
    """)
    a, b = play(initial, ["Token#0", "Token#1"]), play(initial, ["Token#1", "Token#0"])
    assert history_key(a) != history_key(b)
    assert_one_state(a, b, "done")


# ------------------------------------------------------------------ history kept
# Where the machine cannot tell what the suspended code holds (a choice asked in a function,
# whose caller is halfway through an expression, in a filter, halfway through the candidates,
# or by a listener of an event thrown with throw_sync), a waiting state is keyed by its
# history, as before: never merged wrongly.
UNDESCRIBED = """
game "t";
players 1;
interactable Token { }
event Ping { }
event Echo { }
global class Box { number Count = 0; number Sum = 0; Token Picked = null; }
class Seat
{
    function Ask { returns number; effect { input Token t; return 1; } }
    action Add
    {
        require { return Box.Count < 2; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Count += 1; }
    }
    action Total
    {
        require { return Box.Count > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { number before = Box.Count; Box.Count = 0; Box.Sum = before + Ask(); }
    }
    action Screen
    {
        require { return Box.Count == 0 && Box.Picked == null; }
        trigger PlayerChoiceEvent { return true; }
        effect { Vet(); }
    }
    action Vet
    {
        input Token pick { input bool ok; return ok; }
        effect { Box.Picked = pick; }
    }
    action Sync
    {
        require { return Box.Count > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { number before = Box.Count; Box.Count = 0; Ping p = new Ping(); event.throw_sync(p); Box.Sum = before; }
    }
    action Pong
    {
        input Token t;
        trigger Ping { return true; }
        effect { }
    }
    function Pick { returns number; effect { Box.Count = 0; input Token t; return 1; } }
    action Hand
    {
        require { return Box.Count > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { Take(a: Box.Count, b: Pick()); }
    }
    action Take
    {
        input number a;
        input number b;
        effect { Box.Sum = a + b; }
    }
    action Both
    {
        trigger PlayerChoiceEvent { return Box.Count > 0; }
        trigger Echo { return true; }
        effect
        {
            if (event is Echo) { input Token t; }
            else { number before = Box.Count; Box.Count = 0; Echo e = new Echo(); event.throw_sync(e); Box.Sum = before; }
        }
    }
}
turn T { phase P { } }
setup
{
    Token one = new Token();
    Token two = new Token();
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_a_choice_asked_in_a_function_is_keyed_by_its_history(start):
    once, twice = after_one_and_two(start(UNDESCRIBED), "Seat#0.Total()")
    assert once.key() != twice.key()
    assert once.apply("Token#0").to_json() != twice.apply("Token#0").to_json()  # the sum differs


def test_a_choice_asked_by_a_listener_of_throw_sync_is_keyed_by_its_history(start):
    once, twice = after_one_and_two(start(UNDESCRIBED), "Seat#0.Sync()")
    assert once.key() != twice.key()
    assert once.apply("Token#0").to_json() != twice.apply("Token#0").to_json()


def test_a_choice_asked_while_the_arguments_of_a_call_are_evaluated_is_keyed_by_its_history(start):
    once, twice = after_one_and_two(start(UNDESCRIBED), "Seat#0.Hand()")  # the first argument read
    assert once.key() != twice.key()
    assert once.apply("Token#0").to_json() != twice.apply("Token#0").to_json()


def test_a_choice_asked_by_the_same_action_run_again_for_an_event_is_keyed_by_its_history(start):
    once, twice = after_one_and_two(start(UNDESCRIBED), "Seat#0.Both()")
    assert once.key() != twice.key()
    assert once.apply("Token#0").to_json() != twice.apply("Token#0").to_json()


def test_a_choice_asked_in_a_filter_is_keyed_by_its_history(start):
    asked = start(UNDESCRIBED).apply("Seat#0.Screen()")  # whether each token may be picked
    yes_no, no_yes = asked.apply("true"), asked.apply("false")
    assert yes_no.to_json() == no_yes.to_json()  # the second token is being asked about
    assert yes_no.key() != no_yes.key()
    assert yes_no.apply("false").legal_moves() != no_yes.apply("true").legal_moves()


def test_keys_of_choices_the_machine_cannot_describe_are_a_congruence(game):
    assert_keys_are_a_congruence(reachable(game(UNDESCRIBED)))


# ------------------------------------------------------------------------ limits
LOOPS = """
game "t";
players 1;
interactable Token { }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            for (number i = 0; i < 60; i += 1) { }
            input Token t;
            for (number i = 0; i < AFTER; i += 1) { }
            winner 0;
        }
    }
}
turn T { phase P { } }
setup { Token t = new Token(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


def test_the_step_limit_counts_loop_steps_from_the_last_decision(game):
    # 60 steps before the choice and 60 after: within a limit of 100 since the last decision;
    # so what follows a choice does not depend on what the move did before asking it
    g = game(LOOPS.replace("AFTER", "60"))
    g.step_limit = 100
    waiting = g.initial_state(0).apply("Seat#0.Go()")
    assert waiting.request.name == "t"
    assert waiting.apply("Token#0").ranking == [[0]]
    g = game(LOOPS.replace("AFTER", "120"), name="longer.tgpl")
    g.step_limit = 100
    with pytest.raises(TGPLRuntimeError, match="a loop ran past 100 steps"):
        g.initial_state(0).apply("Seat#0.Go()").apply("Token#0")


def test_a_segment_resumed_at_a_phase_entry_reports_an_input_without_candidates_as_an_error(start):
    waiting = start("""
        game "t";
        players 1;
        interactable Token { bool Used = false; }
        class Seat { action Go { trigger PlayerChoiceEvent { return true; } effect { turn.pass(0, "Ask"); } } }
        turn T
        {
            phase P { }
            phase Ask
            {
                input Token first;
                effect { input Token second { return second.Used; } winner 0; }
            }
        }
        setup { Token t = new Token(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """).apply("Seat#0.Go()")
    assert waiting.request.name == "first" and waiting.first is PHASE_ENTRY  # it resumes at the entry
    with pytest.raises(TGPLRuntimeError, match="input 'second' has no candidate"):
        waiting.apply("Token#0")


# ----------------------------------------------------------------------- digests
# `tgpl verify` keeps a digest of each key's bytes: equal keys must give equal bytes, however
# their values were made (a number copied from a field or computed anew, a player stored in a
# number, a negated zero, a string built or written out).
SAME_NUMBERS = """
game "t";
players 2;
global class Box { number A = 0; number B = 0; number Z = 0; string S = ""; bool Done = false; }
class Seat
{
    action Copy
    {
        require { return !Box.Done; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.A = 1; Box.B = Box.A; Box.Z = 0; Box.S = "ab"; Box.Done = true; }
    }
    action Compute
    {
        require { return !Box.Done; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.A = player.active() + 1; Box.B = player.active() + 1; Box.Z = -Box.Z; Box.S = "a" + "b"; Box.Done = true; }
    }
    action Player
    {
        require { return !Box.Done; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.A = player.active(); Box.B = player.active(); Box.A += 1; Box.B = 1; Box.S = "ab"; Box.Done = true; }
    }
    action End
    {
        require { return Box.Done; }
        trigger PlayerChoiceEvent { return true; }
        effect { winner 0; }
    }
}
turn T { phase P { } }
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


def test_equal_keys_give_equal_digests_however_their_values_were_made(game):
    from tgpl.verify.runtime_machine import RuntimeMachine
    from tgpl.verify.graph import explore

    g = game(SAME_NUMBERS)
    machine = RuntimeMachine(g)
    start = g.initial_state(0)
    done = [start.apply(f"Seat#0.{name}()") for name in ("Copy", "Compute", "Player")]
    assert len({json.dumps(s.to_json(), sort_keys=True) for s in done}) == 1
    assert len({s.key() for s in done}) == 1
    assert len({machine.key(s) for s in done}) == 1
    graph = explore(RuntimeMachine(g))
    assert graph.complete and graph.states == 3  # the start, the move made, the end
