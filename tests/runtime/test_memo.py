"""Pure functions memoized (tgpl.runtime.purity, codegen._site): only functions whose result
cannot change once setup is over, and a game plays exactly as without the memo: the same moves,
logs, keys and errors (where, what, and the loop-step limit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import RuntimeOptions, load_game
from tgpl.runtime.errors import TGPLRuntimeError
from observed import playout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def memoized(game) -> set[str]:
    c = game.compiled
    fs = list(c.functions.values()) + [rf for rc in c.classes_by_id() for rf in rc.functions.values()]
    return {rf.what for rf in fs if rf.memo is not None}


def without_memo(game):
    """The game with the memo switched off (no table is made after setup)."""
    game.compiled.memos = 0
    return game


@pytest.mark.parametrize("name, expected", [
    ("connect4.tgpl", {"function Connect4Board.At", "function Connect4Board.ColumnOf"}),
    ("tris.tgpl", set()),  # WinCheck reads AssignedTo, which every move writes
    # Pawn.Last and the base Piece.Reaches are pure too, but cheaper to run than to look up
    ("chess/chess.tgpl", set()),
])
def test_which_example_functions_are_memoized(name, expected):
    assert memoized(load_game(EXAMPLES / name)) == expected


@pytest.mark.parametrize("name, seeds", [("connect4.tgpl", range(6)), ("fiveinarow.tgpl", range(2))])
def test_examples_play_the_same_with_and_without_the_memo(name, seeds):
    fast = load_game(EXAMPLES / name)
    slow = without_memo(load_game(EXAMPLES / name))
    assert fast.compiled.memos
    start_fast, start_slow = fast.initial_state(0), slow.initial_state(0)
    assert start_fast.world.memo is not None and start_slow.world.memo is None
    for seed in seeds:
        assert playout(start_fast, seed) == playout(start_slow, seed)
    assert any(start_fast.world.memo[:-1])  # the states of every playout share one memo


STALE = """
game "t";
players 2;
tile Cell { number Value = 0; number Weight = 0; }
board B
{
    number Size = 0;
    group G { geometry square; grid { Cell, Cell, Cell; } }
    // reads Value, which moves write: must never be memoized
    function Score { function input number i; returns number; effect { return (G[i][0] as Cell).Value * 10 + i; } }
    // reads Weight and Size, written only in setup: memoized
    function Heavy
    {
        function input number i;
        returns number;
        effect
        {
            number total = 0;
            for (number k = 0; k < Size; k += 1) { total += (G[k][0] as Cell).Weight; }
            return total + i;
        }
    }
}
global class GameState { B Board = null; }
class Seat
{
    action Bump
    {
        input number i { return i >= 0 && i < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            (GameState.Board.G[i][0] as Cell).Value += 1;
            number score = GameState.Board.Score(i: i);
            number heavy = GameState.Board.Heavy(i: i);
            log("score " + score + " heavy " + heavy);
            turn.pass();
        }
    }
}
turn T { phase P { } default { return player.active() + 1; } }
setup
{
    GameState.Board = new B();
    GameState.Board.Size = 3;
    for (number k = 0; k < 3; k += 1) { (GameState.Board.G[k][0] as Cell).Weight = k + 1; }
    for (number p = 0; p < 2; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_a_function_reading_a_field_written_after_setup_is_not_memoized(game):
    g = game(STALE.replace("input number i { return i >= 0 && i < 3; }", "input Cell c;")
             .replace("(GameState.Board.G[i][0] as Cell).Value += 1;", "c.Value += 1; number i = 0;"))
    assert memoized(g) == {"function B.Heavy"}
    state = g.initial_state(0)
    for _ in range(3):
        state = state.apply("Seat#0.Bump(c: G[0][0])" if state.active_player == 0 else "Seat#1.Bump(c: G[0][0])")
    # the score follows the writes: a memo of Score would have kept the first value
    assert state.log == ["score 10 heavy 6", "score 20 heavy 6", "score 30 heavy 6"]


def test_memoized_and_plain_runs_agree_on_a_game_whose_functions_read_written_and_fixed_fields(game):
    src = STALE.replace("input number i { return i >= 0 && i < 3; }", "input Cell c;").replace(
        "(GameState.Board.G[i][0] as Cell).Value += 1;", "c.Value += 1; number i = GameState.Board.Score(i: 1) % 3;")
    src = src.replace('players 2;', 'players 2;\n', 1)
    fast = game(src)
    slow = without_memo(game(src, name="slow.tgpl"))
    assert memoized(fast) == {"function B.Heavy"}
    start_fast, start_slow = fast.initial_state(0), slow.initial_state(0)
    for seed in range(3):
        assert playout(start_fast, seed, limit=12) == playout(start_slow, seed, limit=12)
    assert any(start_fast.world.memo[:-1])


ERRORS = """
game "t";
players 1;
tile Cell { Cell Next = null; number Value = 4; }
board B
{
    group G { geometry square; grid { Cell, Cell; } }
    // null.Value for the last cell: a located error every time
    function NextValue { function input Cell c; returns number; effect { return c.Next.Value + c.Value; } }
    // LOOPS steps per call
    function Slow
    {
        function input number n;
        returns number;
        effect { number s = 0; for (number k = 0; k < n; k += 1) { s += k; } return s; }
    }
}
global class GameState { B Board = null; }
class Seat
{
    action First { trigger PlayerChoiceEvent { return true; } effect { Value(which: 0); } }
    action Last { trigger PlayerChoiceEvent { return true; } effect { Value(which: 1); } }
    action Slow
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            for (number k = 0; k < 3; k += 1)
            {
                number s = GameState.Board.Slow(n: 30);
                log("slow " + s);
            }
            turn.pass();
        }
    }
    function Value
    {
        function input number which;
        returns;
        effect
        {
            number v = GameState.Board.NextValue(c: GameState.Board.G[which][0] as Cell);
            log("value " + v);
            turn.pass();
        }
    }
}
turn T { phase P { } default { return 0; } }
setup
{
    GameState.Board = new B();
    (GameState.Board.G[0][0] as Cell).Next = GameState.Board.G[1][0] as Cell;
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def _error(state, move):
    with pytest.raises(TGPLRuntimeError) as info:
        state.apply(move)
    return info.value.render()


def test_an_error_in_a_memoized_function_is_reported_the_same_every_time(game):
    fast = game(ERRORS)
    slow = without_memo(game(ERRORS, name="slow.tgpl"))
    assert memoized(fast) == {"function B.NextValue", "function B.Slow"}
    for g in (fast, slow):
        state = g.initial_state(0).apply("Seat#0.First()")
        assert state.log == ["value 8"]
        assert state.apply("Seat#0.First()").log == ["value 8", "value 8"]
    first = _error(fast.initial_state(0), "Seat#0.Last()")
    again = _error(fast.initial_state(0).apply("Seat#0.First()"), "Seat#0.Last()")
    plain = _error(slow.initial_state(0), "Seat#0.Last()").replace("slow.tgpl", "game.tgpl")
    assert first == again == plain
    assert "cannot read 'Value' of null" in first and "in function B.NextValue" in first


@pytest.mark.parametrize("limit", [60, 90, 95, 100, 1000])
def test_memoized_calls_count_their_loop_steps(game, limit):
    # 31 steps per call of Slow(n: 30) (30 bodies and the test that ends the loop counts
    # none: the step is counted per pass), three calls a move: the limit's error is raised where
    # the plain run raises it, and only there
    outcomes = []
    for name, g in (("fast.tgpl", game(ERRORS, name="fast.tgpl")), ("slow.tgpl", without_memo(game(ERRORS, name="slow.tgpl")))):
        g.step_limit = limit
        try:
            state = g.initial_state(0).apply("Seat#0.Slow()").apply("Seat#0.Slow()")
            outcomes.append(("ok", tuple(state.log)))
        except TGPLRuntimeError as e:
            outcomes.append(("error", e.render().replace(name, "game.tgpl")))
    assert outcomes[0] == outcomes[1]


def test_functions_run_while_objects_are_built_after_setup_are_not_memoized(game):
    g = game("""
        game "t";
        players 1;
        class Box
        {
            number Size = 2;
            number Area = Square(n: 3);   // runs while a Box is built, when moves make one
            function Square
            {
                function input number n;
                returns number;
                effect { number s = 0; for (number k = 0; k < 2; k += 1) { s += n * Size; } return s; }
            }
        }
        class Fixed
        {
            number Size = 2;
            function Twice
            {
                function input number n;
                returns number;
                effect { number s = 0; for (number k = 0; k < 2; k += 1) { s += n * Size; } return s; }
            }
        }
        class Seat
        {
            action Make
            {
                trigger PlayerChoiceEvent { return true; }
                effect { Box b = new Box(); number a = b.Area; log("" + a); winner 0; }
            }
        }
        turn T { phase P { } }
        setup { Fixed f = new Fixed(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """)
    assert memoized(g) == {"function Fixed.Twice"}
    assert g.initial_state(0).apply("Seat#0.Make()").log == ["12"]


def test_a_board_built_after_setup_makes_its_group_defaults_writes_count(game):
    src = """
        game "t";
        players 1;
        tile Cell { number Index = 0; }
        board B
        {
            group G
            {
                geometry square;
                grid { Cell, Cell; }
                default { for (number k = 0; k < 2; k += 1) { (G[k][0] as Cell).Index = k + 1; } }
            }
            function IndexOf { function input Cell c; returns number; effect { return c.Index * 100 + c.Index * 10 + c.Index; } }
        }
        class Seat
        {
            action Make
            {
                trigger PlayerChoiceEvent { return true; }
                effect { MAKE winner 0; }
            }
        }
        turn T { phase P { } }
        setup { B b = new B(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """
    assert memoized(game(src.replace("MAKE", ""))) == {"function B.IndexOf"}  # boards only made in setup
    assert memoized(game(src.replace("MAKE", "B other = new B();"), name="later.tgpl")) == set()


def test_a_function_reading_a_list_field_is_memoized_only_when_no_list_changes_after_setup(game):
    src = """
        game "t";
        players 1;
        global class Data
        {
            List<number> Items = {1, 2, 3};
            List<number> Other = {};
            function Sum
            {
                returns number;
                effect { number s = 0; for (number k = 0; k < Items.length; k += 1) { s += Items[k]; } return s; }
            }
        }
        class Seat
        {
            action Go
            {
                trigger PlayerChoiceEvent { return true; }
                effect { CHANGE number s = Data.Sum(); log("" + s); winner 0; }
            }
        }
        turn T { phase P { } }
        setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """
    assert memoized(game(src.replace("CHANGE", ""))) == {"function Data.Sum"}
    # a list changed in place after setup: any list field may be it (aliases), so none is fixed
    g = game(src.replace("CHANGE", "List<number> xs = Data.Items; xs.add(4);"), name="changed.tgpl")
    assert memoized(g) == set()
    assert g.initial_state(0).apply("Seat#0.Go()").log == ["10"]


FIXED = """
game "t";
players 1;
tile Cell { number Weight = 0; number Mark = 0; }
board B { number Size = 2; group G { geometry square; grid { Cell, Cell; } } }
global class GameState { B Board = null; number Moves = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            for (number k = 0; k < 2; k += 1)
            {
                // fixed: the board, its cells and their weights are only written in setup
                number w = (GameState.Board.G[k][0] as Cell).Weight * GameState.Board.Size;
                // not fixed: Mark is written below
                number seen = (GameState.Board.G[k][0] as Cell).Mark + GameState.Board.Size;
                log("" + w + " " + seen);
                (GameState.Board.G[k][0] as Cell).Mark += 1;
            }
            GameState.Moves += 1;
            if (GameState.Moves == 3) { winner 0; }
        }
    }
}
turn T { phase P { } }
setup
{
    GameState.Board = new B();
    (GameState.Board.G[1][0] as Cell).Weight = 5;
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_expressions_of_fixed_data_are_remembered_and_others_are_not(game):
    fast = game(FIXED)
    slow = without_memo(game(FIXED, name="slow.tgpl"))
    assert memoized(fast) == set() and fast.compiled.memos >= 1  # the expression's table
    logs = []
    for g in (fast, slow):
        state = g.initial_state(0)
        for _ in range(3):
            state = state.apply("Seat#0.Go()")
        logs.append(state.log)
    assert logs[0] == logs[1] == ["0 2", "10 2", "0 3", "10 3", "0 4", "10 4"]
    start = fast.initial_state(0)
    after = start.apply("Seat#0.Go()")
    assert any(after.world.memo[:-1])  # the weights' expression, remembered per cell


def test_tris_remembers_its_grid_lookups():
    g = load_game(EXAMPLES / "tris.tgpl")
    assert memoized(g) == set() and g.compiled.memos >= 1
    fast, slow = g.initial_state(0), without_memo(load_game(EXAMPLES / "tris.tgpl")).initial_state(0)
    for seed in range(5):
        assert playout(fast, seed) == playout(slow, seed)


def test_the_memo_stops_remembering_past_its_budget(game):
    src = STALE.replace("input number i { return i >= 0 && i < 3; }", "input Cell c;").replace(
        "(GameState.Board.G[i][0] as Cell).Value += 1;", "c.Value += 1; number i = GameState.Board.Score(i: 1) % 3;")
    fast = game(src, options=RuntimeOptions(memo_budget=3))
    slow = without_memo(game(src, name="slow.tgpl"))
    start = fast.initial_state(0)
    for seed in range(3):
        assert playout(start, seed, limit=12) == playout(slow.initial_state(0), seed, limit=12)
    assert sum(len(t) for t in start.world.memo[:-1]) == 3 and start.world.memo[-1] == [0]


def test_a_pure_function_calling_a_method_of_this_is_pure(game):
    g = game("""
        game "t";
        players 1;
        global class Data
        {
            number Base = 3;
            function Inner
            {
                function input number n;
                returns number;
                effect { number s = 0; for (number k = 0; k < n; k += 1) { s += Base; } return s; }
            }
            function Outer { function input number n; returns number; effect { return Inner(n: n) + 1; } }
        }
        class Seat
        {
            action Go
            {
                trigger PlayerChoiceEvent { return true; }
                effect { number a = Data.Outer(n: 2); number b = Data.Outer(n: 2); log(a + " " + b); winner 0; }
            }
        }
        turn T { phase P { } }
        setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """)
    assert memoized(g) == {"function Data.Inner", "function Data.Outer"}
    state = g.initial_state(0).apply("Seat#0.Go()")
    assert state.log == ["7 7"]


def test_memoized_player_results_are_mapped_onto_the_players_on_every_path(game):
    # a site binding the arguments in order (`codegen._site`, memoized) and one naming them in
    # another order (`calls._invoke`, run each time): both give the mapped player
    src = """
        game "t";
        players 3;
        global class Data
        {
            number Base = 4;
            function Seat
            {
                function input number a;
                function input number b;
                returns player;
                effect { number s = 0; for (number k = 0; k < a; k += 1) { s += Base; } return s + b; }
            }
        }
        class Seat
        {
            action Go
            {
                trigger PlayerChoiceEvent { return true; }
                effect
                {
                    player x = Data.Seat(a: 1, b: 1);
                    player y = Data.Seat(b: 1, a: 1);
                    player z = Data.Seat(a: 1, b: 1);
                    player w = Data.Seat(b: 2, a: 1);
                    log(x + " " + y + " " + z + " " + w);
                    winner 0;
                }
            }
        }
        turn T { phase P { } }
        setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """
    fast = game(src)
    slow = without_memo(game(src, name="slow.tgpl"))
    assert memoized(fast) == {"function Data.Seat"}
    logs = [g.initial_state(0).apply("Seat#0.Go()").log for g in (fast, slow)]
    assert logs[0] == logs[1] == ["2 2 2 0"]


SETUP_AND_AFTER = """
game "t";
players 1;
tile Cell { number Weight = 0; number Mark = 0; }
board B
{
    number Size = 2;
    number Calls = 0;
    group G { geometry square; grid { Cell, Cell; } }
    // a fixed expression (the weights and the size are written only in setup), run in setup too
    function Weighted
    {
        function input number k;
        returns number;
        effect { Calls += 1; return (G[k][0] as Cell).Weight * Size + Calls; }
    }
}
global class GameState { B Board = null; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            log("after " + GameState.Board.Weighted(k: 1) + " " + GameState.Board.Weighted(k: 0));
            if (GameState.Board.Calls > 6) { winner 0; }
        }
    }
}
turn T { phase P { } }
setup
{
    GameState.Board = new B();
    (GameState.Board.G[1][0] as Cell).Weight = 5;
    log("setup " + GameState.Board.Weighted(k: 1));
    (GameState.Board.G[1][0] as Cell).Weight = 7;
    log("setup " + GameState.Board.Weighted(k: 1));
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_a_fixed_expression_run_in_setup_remembers_nothing_until_setup_is_over(game):
    """A block binds its fixed expressions' memo tables on entry (`BlockGenerator.preamble`): in
    setup there is no memo, every lookup misses and nothing is stored (the weight changes between
    the two calls), after it the values are remembered; logs as without the memo."""
    from tgpl.runtime.codegen import _HELPERS

    logs = []
    for g in (game(SETUP_AND_AFTER), without_memo(game(SETUP_AND_AFTER, name="slow.tgpl"))):
        state = g.initial_state(0)
        for _ in range(2):
            state = state.apply("Seat#0.Go()")
        logs.append(state.log)
    assert logs[0] == logs[1] == ["setup 11", "setup 16", "after 17 4", "after 19 6"]
    assert _HELPERS["_NO_FIELDS"] == {}  # the empty table of setup stayed empty
    assert any(game(SETUP_AND_AFTER, name="again.tgpl").initial_state(0).apply("Seat#0.Go()").world.memo[:-1])
