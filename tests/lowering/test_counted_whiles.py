"""A `while` loop that reads what it writes, in the compiled moves: spelled out as a counted loop where the
evaluation bounds its passes (tgpl.lowering.while_passes).

tests/data/lowering/shove.tgpl pushes a token in at an end of a strip of four cells, its `Shove` walking from the
far end back with `while (x != at.X)`, each pass writing a cell with the mark of the one before it, which the next
pass writes in turn: Quixo's push (tests/data/designers/quixo.tgpl) cut down. The loop's condition reads only the
input and a local, so running `Shove` on every cell and seat bounds its passes (3), and the loop is spelled out pass
by pass as `for (k = 0; k < 3; k += 1) { if (C) { ... } else { break; } }`, each pass reading what the one before
wrote. Refused before ("a loop that reads 'Mark', which it writes, and is not a counted loop"), the moves spelled out
instead."""

from __future__ import annotations

from pathlib import Path

from differential import lowers_to_the_same_game
from to_gdl_runs import to_gdl, variant

SHOVE = Path(__file__).resolve().parents[1] / "data" / "lowering" / "shove.tgpl"


def test_a_while_that_reads_what_it_writes_is_compiled_pass_by_pass_and_is_the_runtimes_game():
    outcome, states = lowers_to_the_same_game(SHOVE.read_text(encoding="utf-8"), str(SHOVE), moves="compiled")
    assert outcome == "moves compiled" and states > 0


def test_a_walk_that_stops_on_the_state_it_writes_is_bounded_by_the_strip():
    """Stopping at the first empty cell too, the walk's condition reads the marks, which the passes write: read as
    unknown, each test goes both ways, and no way takes more than the strip's three passes."""
    text = SHOVE.read_text(encoding="utf-8").replace(
        "while (x != at.X)", "while (x != at.X && (Cells[x - dx][0] as Cell).Mark != null)")
    outcome, states = lowers_to_the_same_game(text, "shove_stops.tgpl", moves="compiled")
    assert outcome == "moves compiled" and states > 0


def test_a_walk_by_a_step_its_caller_gives_is_bounded_from_the_call():
    """A number input has no values the evaluation can list: the loop is run from its only caller, `Push`, which
    passes the step 1, and is bounded there."""
    text = SHOVE.read_text(encoding="utf-8")
    for old, new in (("function input Cell at;", "function input Cell at;\n        function input number step;"),
                     ("Shove(at: at, who: player);", "Shove(at: at, who: player, step: 1);"),
                     ("x -= dx;", "x -= dx * step;")):
        assert text.count(old) == 1
        text = text.replace(old, new)
    outcome, states = lowers_to_the_same_game(text, "shove_steps.tgpl", moves="compiled")
    assert outcome == "moves compiled" and states > 0


def test_a_walk_by_a_step_the_state_holds_has_no_bound_and_is_refused_at_the_loop(tmp_path):
    """The step read from the state is unknown to the evaluation (every value it could hold): the passes are not
    bounded, and the loop is refused with the rewrite."""
    game = variant(tmp_path, SHOVE, ("function input Cell at;", "function input Cell at;\n"
                                     "        function input number step;"),
                   ("Shove(at: at, who: player);", "Shove(at: at, who: player, step: GameState.Step);\n"
                    "            GameState.Step = 1;"),
                   ("number Pushes = 0;", "number Pushes = 0;\n    number Step = 1;"),
                   ("x -= dx;", "x -= dx * step;"), name="shove_steps.tgpl")
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 2 and not r.kif, r.output
    assert ("shove_steps.tgpl:58:13: error: not lowerable: the moves cannot be compiled: a loop that reads 'Mark', "
            "which it writes, and is not a counted loop") in r.output, r.output


LINE = """\
// A strip of five cells; a move puts a token of the mover's on an empty cell
// next to one of the other's, and takes the other's tokens in a line from
// there on, away from the cell played, up to the first cell that is not the
// other's. The walk is a `while` in a global function given the direction as
// a number, as Fanorona's capture is written; the direction comes from the
// action's inputs, and only their filter keeps it one step. After six moves,
// the one with more tokens wins.
game "takeline";
players 2;

setup
{
    for (number x = 0; x < 5; x += 1)
    {
        Spot s = new Spot();
        s.X = x;
        GameState.Spots.add(s);
    }
    GameState.Spots[1].Owner = 1;
    GameState.Spots[3].Owner = 0;
    for (number p = 0; p < 2; p += 1)
    {
        Hand h = new Hand();
        h.assign(p);
    }
    turn.use("Turns");
    turn.pass(0, "Move");
}

global class GameState
{
    List<Spot> Spots = {};
    number Moves = 0;
}

class Spot
{
    number X = 0;
    player Owner = null;
}

function At
{
    function input number x;
    returns Spot;
    effect
    {
        if (x < 0 || x > 4) { return null; }
        return GameState.Spots[x];
    }
}

function IsFoe
{
    function input Spot s;
    function input player who;
    returns bool;
    effect { return s != null && s.Owner != null && s.Owner != who; }
}

function TakeLine
{
    function input Spot start;
    function input number dx;
    function input player who;
    returns number;
    effect
    {
        number taken = 0;
        Spot s = start;
        while (IsFoe(s: s, who: who))
        {
            s.Owner = who;
            taken += 1;
            s = At(x: s.X + dx);
        }
        return taken;
    }
}

function Count
{
    function input player who;
    returns number;
    effect
    {
        number n = 0;
        for (number x = 0; x < 5; x += 1)
        {
            if (GameState.Spots[x].Owner == who) { n += 1; }
        }
        return n;
    }
}

class Hand
{
    number Taken = 0;

    action Put
    {
        input Spot at { return at.Owner == null; }
        input Spot next
        {
            return (next.X == at.X + 1 || next.X == at.X - 1) && IsFoe(s: next, who: player.active());
        }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number dx = next.X - at.X;
            at.Owner = player.active();
            Taken += TakeLine(start: next, dx: dx, who: player.active());
            GameState.Moves += 1;
            turn.pass();
        }
    }

    action Pass
    {
        require { return GameState.Moves < 6; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            GameState.Moves += 1;
            turn.pass();
        }
    }
}

turn Turns
{
    phase Move
    {
        if (GameState.Moves >= 6)
        {
            if (Count(who: 0) > Count(who: 1)) { winner 0; }
            if (Count(who: 1) > Count(who: 0)) { winner 1; }
            winner { {0, 1} };
        }
    }
    default { return player.active() + 1; }
}
"""


def test_a_walk_in_a_global_function_given_its_direction_is_bounded_by_the_actions_filter():
    """Run from `Put` on every pair of spots, the walk from `next` on takes up to four passes; where `next` is no
    neighbour of `at` (`dx` 0 among them, a walk that never moves) the filter says no on every way, and those rows
    are left out. A walk given its direction as a number, bounded by the callers' filters, is Fanorona's capture
    (tests/data/designers/fanorona5.tgpl)."""
    outcome, states = lowers_to_the_same_game(LINE, "takeline.tgpl", moves="compiled")
    assert outcome == "moves compiled" and states > 0
