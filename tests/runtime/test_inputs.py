"""Inputs: which moves are legal, how filters and modifiers choose, and mid-move decisions."""

from __future__ import annotations

import pytest

from tgpl.runtime import IllegalMove


def texts(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def two_seats(defs: str, setup_extra: str = "", phase: str = "phase P { }") -> str:
    """A two-player game: one Seat per player, turn T, player 0 to move in phase P."""
    return f"""
        game "t";
        players 2;
        interactable Token {{ number v = 0; }}
        {defs}
        turn T {{ {phase} default {{ return player.active() + 1; }} }}
        setup
        {{
            for (number i = 0; i < 4; i += 1) {{ Token t = new Token(); t.v = i; }}
            Seat s0 = new Seat(); s0.assign(0);
            Seat s1 = new Seat(); s1.assign(1);
            {setup_extra}
            turn.use("T");
            turn.pass(0, "P");
        }}
    """


PICK = """
class Seat
{
    action Pick
    {
        input Token a { return a.v > 0; }
        input Token b
        {
            filter bigger { return bigger.v > a.v; }
            filter { return b.v != 3; }
        }
        trigger PlayerChoiceEvent { return true; }
        effect { log("pick " + a.v + " " + b.v); turn.pass(); }
    }
}
"""


def test_moves_enumerate_filtered_inputs_in_creation_order_and_later_filters_see_earlier_inputs(start):
    state = start(two_seats(PICK))
    # a in {1, 2, 3}; b > a and b != 3: only (1, 2); a = 2 or 3 leave b no candidate
    assert texts(state) == ["Seat#0.Pick(a: Token#1, b: Token#2)"]
    assert state.active_player == 0


def test_a_move_runs_with_its_input_values(start):
    state = start(two_seats(PICK)).apply("Seat#0.Pick(a: Token#1, b: Token#2)")
    assert state.log == ["pick 1 2"]
    assert state.active_player == 1
    assert texts(state) == ["Seat#1.Pick(a: Token#1, b: Token#2)"]


def test_a_move_text_that_is_not_legal_is_rejected(start):
    state = start(two_seats(PICK))
    with pytest.raises(IllegalMove):
        state.apply("Seat#0.Pick(a: Token#2, b: Token#3)")
    with pytest.raises(IllegalMove, match="does not belong to player 0"):
        state.apply("Seat#1.Pick(a: Token#1, b: Token#2)")


def test_optional_bool_and_player_inputs(start):
    state = start(two_seats("""
        class Seat
        {
            action Go
            {
                input bool flag;
                optional input player who;
                trigger PlayerChoiceEvent { return true; }
                effect { log(flag + " " + who); turn.pass(); }
            }
        }
    """))
    assert texts(state) == [
        "Seat#0.Go(flag: false, who: 0)", "Seat#0.Go(flag: false, who: 1)", "Seat#0.Go(flag: false, who: null)",
        "Seat#0.Go(flag: true, who: 0)", "Seat#0.Go(flag: true, who: 1)", "Seat#0.Go(flag: true, who: null)",
    ]
    assert state.apply("Seat#0.Go(flag: true, who: null)").log == ["true null"]


def test_a_non_optional_input_without_candidates_makes_the_action_illegal(start):
    state = start(two_seats("""
        class Seat
        {
            action Never
            {
                input Token t { return t.v > 100; }
                trigger PlayerChoiceEvent { return true; }
                effect { }
            }
            action Maybe
            {
                optional input Token t { return t.v > 100; }
                trigger PlayerChoiceEvent { return true; }
                effect { log("maybe " + t); turn.pass(); }
            }
        }
    """))
    assert texts(state) == ["Seat#0.Maybe(t: null)"]


def test_require_and_trigger_decide_legality(start):
    state = start(two_seats("""
        class Seat
        {
            number Used = 0;
            action Once
            {
                require { return Used == 0; }
                trigger PlayerChoiceEvent { return true; }
                effect { Used += 1; turn.pass(player.active(), "P"); }
            }
            action OnlyForOne
            {
                trigger PlayerChoiceEvent { return event.active == 1; }
                effect { turn.pass(); }
            }
        }
    """))
    assert texts(state) == ["Seat#0.Once()"]
    again = state.apply("Seat#0.Once()")
    assert again.active_player == 0
    assert texts(again) == []
    assert "require block 1" in again.explain("Seat#0.Once()")
    assert "trigger" in again.explain("Seat#0.OnlyForOne()")


def test_discarded_interactables_are_not_candidates(start):
    state = start(two_seats("""
        class Seat
        {
            action Take
            {
                input Token t;
                trigger PlayerChoiceEvent { return true; }
                effect { turn.pass(); }
            }
        }
        global class Pile { Stack<Token> Out = new Stack<Token>(); }
    """, setup_extra="""
        Token gone = new Token();
        gone.v = 9;
        gone.discard(Pile.Out);
    """))
    assert texts(state) == [f"Seat#0.Take(t: Token#{i})" for i in range(4)]


def test_auto_inputs_take_the_first_candidate_or_all_for_a_list(start):
    state = start(two_seats("""
        class Seat
        {
            action Auto
            {
                auto input Token first { return first.v >= 2; }
                auto input List<Token> all { return all.v >= 1; }
                optional auto input Token none { return none.v > 99; }
                trigger PlayerChoiceEvent { return true; }
                effect { log(first + " " + all + " " + none); turn.pass(); }
            }
            action Cancelled
            {
                auto input Token none { return none.v > 99; }
                trigger PlayerChoiceEvent { return true; }
                effect { log("cancelled ran"); }
            }
        }
    """))
    # Cancelled is no move: its non-optional auto input has no candidate, so it could not run
    assert texts(state) == ["Seat#0.Auto()"]
    assert state.apply("Seat#0.Auto()").log == ["Token#2 {Token#1, Token#2, Token#3} null"]


def test_later_filters_and_targets_see_auto_inputs_and_earlier_choices(start):
    state = start(two_seats("""
        class Seat
        {
            action Beat
            {
                auto input Token low { return low.v > 0; }
                input Token high { return high.v > low.v + 1; }
                trigger PlayerChoiceEvent { return true; }
                effect { log(low.v + " < " + high.v); turn.pass(); }
            }
            action Ask
            {
                input player who;
                player [who] input bool ok;
                trigger PlayerChoiceEvent { return true; }
                effect { log("asked " + who + ": " + ok); turn.pass(); }
            }
        }
    """))
    assert texts(state) == ["Seat#0.Beat(high: Token#3)", "Seat#0.Ask(who: 0, ok: false)",
                            "Seat#0.Ask(who: 0, ok: true)", "Seat#0.Ask(who: 1)"]
    assert state.apply("Seat#0.Beat(high: Token#3)").log == ["1 < 3"]
    assert state.apply("Seat#0.Ask(who: 0, ok: true)").log == ["asked 0: true"]
    pending = state.apply("Seat#0.Ask(who: 1)")
    assert (pending.request.name, pending.active_player) == ("ok", 1)
    assert pending.apply("true").log == ["asked 1: true"]


def test_a_player_list_input_offers_every_subset(start):
    state = start(two_seats("""
        class Seat
        {
            action Keep
            {
                input List<Token> kept { return kept.v >= 2; }
                trigger PlayerChoiceEvent { return true; }
                effect { log("kept " + kept.length + ": " + kept); turn.pass(); }
            }
        }
    """))
    assert texts(state) == [
        "Seat#0.Keep(kept: {})",
        "Seat#0.Keep(kept: {Token#2})",
        "Seat#0.Keep(kept: {Token#3})",
        "Seat#0.Keep(kept: {Token#2, Token#3})",
    ]
    assert state.apply("Seat#0.Keep(kept: {Token#2, Token#3})").log == ["kept 2: {Token#2, Token#3}"]


MIDMOVE = """
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            log("start");
            input Token t { return t.v > 1; }
            log("chose " + t.v);
            player [player.active() + 1] input bool agree;
            log("agree " + agree);
            optional input Token u { return u.v > 100; }
            log("u " + u);
            turn.pass();
        }
    }
}
"""

PHASE_Q = """
phase P { }
phase Q
{
    input Token q { return q.v < 2; }
    effect { log("q " + q.v); turn.pass(player.active(), "P"); }
}
"""


def test_input_statements_and_phase_inputs_are_mid_move_decisions(start):
    game_src = two_seats(MIDMOVE, phase=PHASE_Q).replace(
        "default { return player.active() + 1; }", 'default { turn.pass(player.active() + 1, "Q"); }'
    )
    state = start(game_src)
    assert state.request is None

    state = state.apply("Seat#0.Go()")
    assert state.request is not None and state.request.name == "t"
    assert state.active_player == 0
    assert texts(state) == ["Token#2", "Token#3"]
    assert not state.is_terminal

    state = state.apply("Token#3")
    assert (state.request.name, state.active_player) == ("agree", 1)  # player [expr] input
    assert texts(state) == ["false", "true"]

    state = state.apply("true")
    assert (state.request.name, state.active_player) == ("u", 0)
    assert texts(state) == ["null"]  # an optional input with no candidate offers null only

    state = state.apply("null")
    assert (state.request.name, state.active_player) == ("q", 1)  # the inputs of phase Q, entered for player 1
    assert texts(state) == ["Token#0", "Token#1"]

    state = state.apply("Token#1")
    assert state.request is None
    assert state.log == ["start", "chose 3", "agree true", "u null", "q 1"]
    assert (state.world.control.player, state.world.control.phase) == (1, "P")
    assert texts(state) == ["Seat#1.Go()"]


def test_a_pending_state_keeps_earlier_states_valid(start):
    first = start(two_seats(MIDMOVE))
    pending = first.apply("Seat#0.Go()")
    a = pending.apply("Token#2")
    b = pending.apply("Token#3")
    assert a.log[-1] == "chose 2" and b.log[-1] == "chose 3"
    assert first.log == [] and pending.log == ["start"]
    assert a.key() != b.key()


def test_a_wrong_choice_is_rejected_with_the_expected_options(start):
    pending = start(two_seats(MIDMOVE)).apply("Seat#0.Go()")
    with pytest.raises(IllegalMove, match="expected a value for 't' by player 0"):
        pending.apply("Token#0")


def test_player_target_in_a_move_becomes_a_decision_of_that_player(start):
    state = start(two_seats("""
        class Seat
        {
            action Offer
            {
                input bool mine;
                player [player.active() + 1] input bool theirs;
                trigger PlayerChoiceEvent { return true; }
                effect { log("offer " + mine + " " + theirs); turn.pass(); }
            }
        }
    """))
    # only the mover's own input is part of the move
    assert texts(state) == ["Seat#0.Offer(mine: false)", "Seat#0.Offer(mine: true)"]
    pending = state.apply("Seat#0.Offer(mine: true)")
    assert pending.active_player == 1 and pending.request.name == "theirs"
    done = pending.apply("false")
    assert done.log == ["offer true false"]
    assert done.active_player == 1


def test_a_triggered_action_asks_its_owner(start):
    state = start(two_seats("""
        event Asked { }
        class Seat
        {
            action Go
            {
                trigger PlayerChoiceEvent { return true; }
                effect { Asked a = new Asked(); event.throw(a); turn.pass(); }
            }
            action Answer
            {
                input player who { return who != player; }
                trigger Asked { return true; }
                effect { log("seat of " + player + " names " + who); }
            }
        }
    """))
    state = state.apply("Seat#0.Go()")
    assert (state.request.name, state.active_player, texts(state)) == ("who", 0, ["1"])
    state = state.apply("1")
    assert (state.request.name, state.active_player, texts(state)) == ("who", 1, ["0"])
    state = state.apply("0")
    assert state.log == ["seat of 0 names 1", "seat of 1 names 0"]
    assert state.request is None and state.active_player == 1


def test_called_action_inputs_are_prefilled_by_named_arguments_or_asked(start):
    state = start("""
        game "t";
        players 2;
        class Box
        {
            action Put
            {
                input player who;
                input bool open;
                effect { log("put " + who + " " + open); }
            }
        }
        setup
        {
            Box b = new Box();
            b.Put(who: 1, open: true);
            b.Put(who: 0);
            log("setup done");
        }
    """)
    assert state.log == ["put 1 true"]
    assert state.request.name == "open" and state.active_player == 0
    state = state.apply("false")
    assert state.log == ["put 1 true", "put 0 false", "setup done"]


def test_a_group_object_asks_the_active_player_when_they_share_it(start):
    src = """
        game "t";
        players 3;
        event Ask { }
        group class Team
        {
            action Vote
            {
                input bool yes;
                trigger Ask { return true; }
                effect { log("vote " + yes); }
            }
        }
        setup
        {
            Team t = new Team();
            t.assign(1);
            t.assign(2);
            turn.use("T");
            turn.pass(ACTIVE, "P");
            Ask a = new Ask();
            event.throw(a);
        }
        turn T { phase P { } default { return player.active() + 1; } }
    """
    shared = start(src.replace("ACTIVE", "2"))
    assert shared.request.name == "yes" and shared.active_player == 2
    outsider = [start(src.replace("ACTIVE", "0"), seed=s).active_player for s in range(12)]
    assert set(outsider) == {1, 2}  # drawn among the owners by the game's generator
    assert outsider == [start(src.replace("ACTIVE", "0"), seed=s).active_player for s in range(12)]


def test_a_choice_can_name_an_object_created_earlier_in_the_same_move(start):
    state = start(two_seats("""
        class Seat
        {
            action Go
            {
                trigger PlayerChoiceEvent { return true; }
                effect
                {
                    Token fresh = new Token();
                    fresh.v = 9;
                    input Token t { return t.v > 2; }
                    log("chose " + t.v);
                    input bool sure;
                    log("sure " + sure);
                    turn.pass();
                }
            }
        }
    """))
    state = state.apply("Seat#0.Go()")
    assert texts(state) == ["Token#3", "Token#4"]
    assert state.to_json()["waiting_for"] == {"input": "t", "player": 0}
    state = state.apply("Token#4")
    assert state.log == ["chose 9"]
    state = state.apply("false")
    assert state.log == ["chose 9", "sure false"]
    assert [o.name for o in state.world.objects].count("Token#4") == 1


def test_who_may_use_an_object_global_group_and_local(start):
    state = start("""
        game "t";
        players 3;
        global class Bank { action Take { trigger PlayerChoiceEvent { return true; } effect { turn.pass(); } } }
        group class Team { action Plan { trigger PlayerChoiceEvent { return true; } effect { turn.pass(); } } }
        class Hand { action Play { trigger PlayerChoiceEvent { return true; } effect { turn.pass(); } } }
        turn T { phase P { } default { return player.active() + 1; } }
        setup
        {
            Team t = new Team(); t.assign(0); t.assign(2);
            for (number i = 0; i < 3; i += 1) { Hand h = new Hand(); h.assign(i); }
            Hand nobody = new Hand();
            turn.use("T");
            turn.pass(0, "P");
        }
    """)
    assert texts(state) == ["Bank.Take()", "Team#0.Plan()", "Hand#0.Play()"]
    one = state.apply("Bank.Take()")
    assert texts(one) == ["Bank.Take()", "Hand#1.Play()"]
    two = one.apply("Hand#1.Play()")
    assert texts(two) == ["Bank.Take()", "Team#0.Plan()", "Hand#2.Play()"]


TWO_ORDERS = """
game "t";
players 1;
global class Flags { bool A = false; bool B = false; }
class Seat
{
    action SetA
    {
        require { return !Flags.A; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.A = true; if (Flags.B) { turn.pass(0, "Ask"); } else { turn.pass(0, "P"); } }
    }
    action SetB
    {
        require { return !Flags.B; }
        trigger PlayerChoiceEvent { return true; }
        effect { Flags.B = true; if (Flags.A) { turn.pass(0, "Ask"); } else { turn.pass(0, "P"); } }
    }
}
turn T
{
    phase P { }
    phase Ask
    {
        input bool high;
        optional input bool low;
        effect { if (high) { winner 0; } winner {}; }
    }
}
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""


def test_a_choice_reached_by_two_move_orders_has_one_key(start):
    initial = start(TWO_ORDERS)
    ab = initial.apply("Seat#0.SetA()").apply("Seat#0.SetB()")
    ba = initial.apply("Seat#0.SetB()").apply("Seat#0.SetA()")
    assert ab.request.name == ba.request.name == "high"
    assert ab.to_json() == ba.to_json()
    assert ab.key() == ba.key() and hash(ab.key()) == hash(ba.key())
    # the next choice too, and the states keep playing alike
    ab_high, ba_high = ab.apply("true"), ba.apply("true")
    assert ab_high.request.name == "low" and ab_high.key() == ba_high.key()
    assert ab.apply("false").key() != ab_high.key()
    done_ab, done_ba = ab_high.apply("null"), ba_high.apply("null")
    assert done_ab.ranking == done_ba.ranking == [[0]] and done_ab.key() == done_ba.key()


# A filter that does not name the candidate is run once while moves are listed (`Machine.candidates`):
# its loop counts its steps once, not once per candidate (4 tokens: 40 steps would pass the limit).
ONCE = """
class Seat
{
    action Pick
    {
        input Token t
        {
            filter { number n = 0; while (n < 10) { n += 1; } return true; }
            filter { return t.v > 0; }
        }
        trigger PlayerChoiceEvent { return true; }
        effect { turn.pass(); }
    }
}
"""


@pytest.mark.parametrize("reference", [False, True])
def test_a_filter_that_names_no_candidate_runs_once_while_listed(game, reference):
    from tgpl.runtime import RuntimeOptions

    g = game(two_seats(ONCE), options=RuntimeOptions.reference() if reference else RuntimeOptions())
    state = g.initial_state(0)
    g.step_limit = 25
    assert texts(state) == [f"Seat#0.Pick(t: Token#{i})" for i in (1, 2, 3)]
    g.step_limit = 9  # below one run's steps: the limit's error, at the filter's loop
    with pytest.raises(Exception, match="steps"):
        g.initial_state(0).legal_moves()
