"""Worlds copied on write: states share what they did not change, and never see each other's changes."""

from __future__ import annotations

from tgpl.runtime.errors import TGPLRuntimeError

SHARED = """
    game "t";
    players 2;
    interactable Card { number v = 0; }
    global class Bank
    {
        List<number> Items = {};
        Table<number> Marks = {};
        List<List<number>> Rows = { {7}, {8} };
        Stack<Card> Deck = new Stack<Card>();
        number Count = 0;
    }
    class Seat
    {
        action Add
        {
            input Card c { return !c.discarded; }
            trigger PlayerChoiceEvent { return true; }
            effect
            {
                Bank.Rows[0].add(c.v);             // a list in a list, reached by an index, first
                List<number> xs = Bank.Items;      // a list read into a local, changed in place
                xs.add(c.v);
                Bank.Marks[c.v] = Bank.Count;      // a table changed in place
                log(Bank.Items.length + " " + Bank.Items.contains(c.v) + " " + Bank.Rows[1][0]);
                c.discard(Bank.Deck);              // a stack and the card change
                Bank.Count += 1;
                turn.pass();
            }
        }
    }
    turn T { phase P { } default { return player.active() + 1; } }
    setup
    {
        for (number i = 0; i < 3; i += 1) { Card c = new Card(); c.v = i; }
        Seat s0 = new Seat(); s0.assign(0);
        Seat s1 = new Seat(); s1.assign(1);
        turn.use("T");
        turn.pass(0, "P");
    }
"""


def test_moves_from_one_state_leave_it_and_each_other_unchanged(start):
    state = start(SHARED)
    before, key = state.to_json(), state.key()
    a = state.apply("Seat#0.Add(c: Card#0)")
    b = state.apply("Seat#0.Add(c: Card#2)")
    assert state.to_json() == before and state.key() == key
    fields = {o["name"]: o["fields"] for o in a.to_json()["objects"]}
    assert fields["Bank"]["Items"] == [0] and fields["Bank"]["Marks"] == [[0, 0]] and fields["Card#0"]["discarded"]
    assert fields["Bank"]["Rows"] == [[7, 0], [8]] and a.log == ["1 true 8"]
    fields = {o["name"]: o["fields"] for o in b.to_json()["objects"]}
    assert fields["Bank"]["Items"] == [2] and not fields["Card#0"]["discarded"] and fields["Card#2"]["discarded"]
    assert fields["Bank"]["Rows"] == [[7, 2], [8]]
    # a second move from each child changes only that child's line
    aa = a.apply("Seat#1.Add(c: Card#1)")
    assert {o["name"]: o["fields"] for o in aa.to_json()["objects"]}["Bank"]["Items"] == [0, 1]
    assert {o["name"]: o["fields"] for o in a.to_json()["objects"]}["Bank"]["Items"] == [0]
    assert a.key() != b.key() != state.key() and aa.key() != a.key()


def test_keys_follow_changes_made_in_place_and_agree_with_a_fresh_replay(start):
    state = start(SHARED)
    state.key()  # remembered per object, shared by the states that follow until they change it
    one = state.apply("Seat#0.Add(c: Card#1)").apply("Seat#1.Add(c: Card#0)")
    other = state.apply("Seat#0.Add(c: Card#0)").apply("Seat#1.Add(c: Card#1)")
    # the same cards, added in another order: different lists and tables, different keys
    assert one.key() != other.key()
    replayed = start(SHARED).apply("Seat#0.Add(c: Card#1)").apply("Seat#1.Add(c: Card#0)")
    assert replayed.key() == one.key() and replayed.to_json() == one.to_json()


FILTER = """
    game "t";
    players 1;
    interactable Card {{ number v = 0; }}
    global class Bank {{ List<number> Items = {{}}; Table<number> Marks = {{}}; }}
    class Seat
    {{
        action Pick
        {{
            input Card c {{ {filter} }}
            trigger PlayerChoiceEvent {{ return true; }}
            effect {{ turn.pass(); }}
        }}
    }}
    turn T {{ phase P {{ }} default {{ return 0; }} }}
    setup
    {{
        Card c = new Card();
        Seat s = new Seat(); s.assign(0);
        turn.use("T");
        turn.pass(0, "P");
    }}
"""


def test_a_filter_may_change_its_own_lists_but_not_the_games(start):
    local = start(FILTER.format(filter="List<number> xs = {}; xs.add(c.v); Table<number> t = {}; t[1] = 2; "
                                       "return xs.length == 1;"))
    assert [m.text for m in local.legal_moves()] == ["Seat#0.Pick(c: Card#0)"]
    for change in ("Bank.Items.add(c.v);", "Bank.Marks[1] = 2;", "List<number> xs = Bank.Items; xs.clear();"):
        state = start(FILTER.format(filter=change + " return true;"))
        try:
            state.legal_moves()
        except TGPLRuntimeError as e:
            assert "cannot change a list or table that the game holds" in e.message
        else:
            raise AssertionError(f"{change} changed the state while moves were listed")
        assert state.world.fields(state.world.named("Bank")) == {"Items": [], "Marks": {}}
