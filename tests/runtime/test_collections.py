"""Lists, tables and stacks: their members and reference semantics."""

from __future__ import annotations

import pytest

from tgpl.runtime.errors import TGPLRuntimeError


def test_list_members(setup_log):
    log = setup_log("""
        List<number> xs = {3, 1, 2};
        xs.add(5);
        log(xs);
        xs.append({7, 8});
        log(xs.length);
        log(xs.length());
        log(xs.contains(7));
        log(xs.contains(4));
        log(xs.indexOf(2));
        log(xs.indexOf(9));
        xs.remove(1);
        log(xs);
        xs.remove(42);
        xs.removeAt(0);
        log(xs);
        log(xs[1.9]);
        xs[0] = 20;
        log(xs[0]);
        xs.clear();
        log(xs.length);
    """)
    assert log == ["{3, 1, 2, 5}", "6", "6", "true", "false", "2", "-1", "{3, 2, 5, 7, 8}", "{2, 5, 7, 8}", "5", "20", "0"]


def test_lists_are_references_and_copy_is_shallow(setup_log):
    log = setup_log("""
        List<Box> xs = {};
        Box b = new Box();
        xs.add(b);
        List<Box> alias = xs;
        alias.add(new Box());
        log(xs.length);
        List<Box> copied = xs.copy();
        copied.add(new Box());
        log(xs.length + " " + copied.length);
        copied[0].v = 7;
        log(b.v);
        log(xs.contains(b));
        log(xs.indexOf(copied[1]));
    """, defs="class Box { number v = 0; }")
    assert log == ["2", "2 3", "7", "true", "1"]


def test_list_remove_takes_the_first_equal_item(setup_log):
    assert setup_log("List<number> xs = {1, 2, 1, 2}; xs.remove(2); log(xs);") == ["{1, 1, 2}"]


def test_nested_lists(setup_log):
    log = setup_log("""
        List<List<number>> grid = { {1, 2}, {3} };
        log(grid[0][1] + grid[1][0]);
        grid[1].add(4);
        log(grid);
    """)
    assert log == ["5", "{{1, 2}, {3, 4}}"]


def test_table_members(setup_log):
    log = setup_log("""
        Table<string> t = { {1, "one"}, {"k", "kay"} };
        t[2] = "two";
        log(t[1] + t["k"] + t[2]);
        log(t[3] == null);
        log(t.keys());
        log(t.values());
        log(t.length);
        t[1] = null;
        log(t.length);
        log(t.contains(1));
        log(t.contains("k"));
        t["k"] = "KAY";
        log(t.keys());
        log(t["k"]);
        Table<string> c = t.copy();
        c["new"] = "x";
        log(t.length + " " + c.length);
        t.clear();
        log(t.length);
    """)
    assert log == ["onekaytwo", "true", "{1, k, 2}", "{one, kay, two}", "3", "2",
                   "false", "true", "{k, 2}", "KAY", "2 3", "0"]


def test_tables_keyed_by_objects_and_players(setup_log):
    log = setup_log("""
        Box a = new Box();
        Box b = new Box();
        Table<number> score = {};
        score[a] = 1;
        score[b] = 2;
        score[a] += 10;
        log(score[a] + score[b]);
        Table<string> names = { {0, "Ann"}, {1, "Bob"} };
        player p = 3;
        log(names[p]);
    """, defs="class Box { }", players=2)
    assert log == ["13", "Bob"]


def test_a_null_table_key_is_a_runtime_error(run_setup):
    with pytest.raises(TGPLRuntimeError, match="a table key is null"):
        run_setup("Table<number> t = {}; string k = null; t[k] = 1;")


def test_stack_members(setup_log):
    log = setup_log("""
        Box a = new Box();
        Box b = new Box();
        Stack<Box> pile = new Stack<Box>() { a, b };
        log(pile.peek() == b);
        log(pile.length);
        pile.push_front(a);
        log(pile.length());
        log(pile.pop() == b);
        log(pile.pop_front() == a);
        log(pile.length);
        Stack<Box> other = pile.clone();
        other.push(b);
        log(pile.length + " " + other.length);
        pile.push(null);
        log(pile.length);
    """, defs="class Box { }")
    assert log == ["true", "2", "3", "true", "true", "1", "1 2", "1"]


def test_an_empty_stack_gives_null(setup_log):
    log = setup_log("""
        Stack<number> s = new Stack<number>();
        log(s.pop());
        log(s.pop_front());
        log(s.peek());
        log(s.length);
    """)
    assert log == ["null", "null", "null", "0"]


@pytest.mark.parametrize("body, message", [
    ("List<number> xs = {1}; log(xs[3]);", "index 3 out of range 0..0"),
    ("List<number> xs = {}; log(xs[0]);", "index 0 of an empty list"),
    ("List<number> xs = {1}; log(xs[-1]);", "index -1 out of range"),
    ("List<number> xs = null; log(xs.length);", "null"),
])
def test_bad_list_access_is_a_runtime_error(run_setup, body, message):
    with pytest.raises(TGPLRuntimeError, match=message):
        run_setup(body)


def test_collections_in_attributes_are_per_object_and_survive_moves(start):
    state = start("""
        game "t";
        players 2;
        class Hand
        {
            List<number> Cards = {};
            action Draw
            {
                trigger PlayerChoiceEvent { return true; }
                effect { Cards.add(Cards.length); turn.pass(); }
            }
        }
        turn T { phase P { } default { return player.active() + 1; } }
        setup
        {
            Hand h0 = new Hand(); h0.assign(0);
            Hand h1 = new Hand(); h1.assign(1);
            turn.use("T");
            turn.pass(0, "P");
        }
    """)
    s1 = state.apply("Hand#0.Draw()")
    s2 = s1.apply("Hand#1.Draw()")
    s3 = s2.apply("Hand#0.Draw()")
    cards = lambda s: [o["fields"]["Cards"] for o in s.to_json()["objects"]]  # noqa: E731
    assert cards(state) == [[], []]
    assert cards(s1) == [[0], []]
    assert cards(s3) == [[0, 1], [0]]
    assert cards(s1) == [[0], []]  # earlier states are not changed by later moves


def test_list_shuffle_is_seeded(setup_log):
    body = "List<number> xs = {0, 1, 2, 3, 4, 5, 6, 7}; xs.shuffle(); log(xs);"
    runs = [setup_log(body, seed=s)[0] for s in (1, 1, 2)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    assert sorted(runs[2].strip("{}").split(", ")) == [str(i) for i in range(8)]
