"""Regression: attributes that change during play, used directly as conditions, lower to the runtime's game.

A bool attribute read before the move is known by cases, false, true or null
(null is in every attribute's domain). Conditions once took only the cases of
a value that were all bools, so `return c.Free;` in a filter, `if (GameState.Last)`
and `c.Free && x` were lowered as if the attribute were false: the Tris below
was refused ("no move ever ends the game"), and other games lowered to a wrong
game without a word. The same held for a number attribute that may be null:
`Bonus == null` was always false. Each game here is explored completely on
both sides (tests/lowering/differential.py, `bisimulate`).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from differential import Lowered, bisimulate, playout
from gamegen import SEATS, turn
from tgpl.asp.verify import GdlMachine
from tgpl.frontend.loader import load_program
from tgpl.runtime.game import Game, compile_program
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import compare, explore

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

GAME = """game "flags";
players 2;

setup
{
    GameState.Board = new FlagBoard();
""" + SEATS + """
}

global class GameState
{
    FlagBoard Board = null;
    number Moves = 0;
    bool Last = false;
    number Bonus = null;
}

tile Cell
{
    bool Free = true;
}

board FlagBoard
{
    group Grid
    {
        geometry square;
        grid { Cell, Cell, Cell; }
    }
}

function Open
{
    function input Cell x;
    returns bool;
    effect
    {
        return x.Free;
    }
}

class PlayerState
{
    action Claim
    {
        input Cell c
        {
            FILTER
        }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            EFFECT
            GameState.Moves += 1;
            turn.pass();
        }
    }
}

""" + turn("""        CHECK
        GameState.Last = !GameState.Last;
        if (GameState.Moves == 3) { winner { {0, 1} }; }""") + "\n"

FREE = "c.Free = false;"

# name: (filter, effect, check phase): each reads a bool (or nullable number) attribute the moves change
SHAPES = {
    "filter returns a bool attribute": ("return c.Free;", FREE, ""),
    "if on a bool attribute in a phase": (
        "return c.Free == true;", FREE, "if (GameState.Last) { winner player.active(); }"),
    "&& with a bool attribute": (
        "return c.Free && GameState.Moves < 2 || !GameState.Last && c.Free;", FREE, ""),
    "|| and ! with bool attributes": (
        "return !(!c.Free || GameState.Last && c == GameState.Board.Grid[0][0]);", FREE, ""),
    "while on a bool attribute": (
        "return c.Free != false;", FREE,
        "number k = 0; while (GameState.Last && k < 1) { GameState.Bonus = k; k += 1; } "
        "if (GameState.Bonus == 0 && !GameState.Last) { winner player.active() + 1; }"),
    "a bool function returns a bool attribute": (
        "return Open(x: c);", FREE,
        # Bonus read again, or it would be no state (decision 109) and the function's answer unseen
        "if (Open(x: GameState.Board.Grid[0][0] as Cell)) { GameState.Bonus = 1; } "
        "else { if (GameState.Bonus == 1) { winner player.active(); } }"),
    "a local keeps a bool attribute across its write": (
        "bool free = c.Free; return free;",
        "bool was = c.Free; c.Free = !c.Free; if (was) { GameState.Bonus = 2; } c.Free = false;",
        "bool last = GameState.Last; GameState.Last = last == true; if (last) { GameState.Bonus = null; }"),
    "bools compared and xor-ed": (
        "return c.Free == GameState.Last | c.Free;", FREE,
        "if ((GameState.Last ^ (GameState.Moves == 2)) != false) { winner player.active(); }"),
    "a number attribute tested against null": (
        "return c.Free && GameState.Bonus == null || c.Free && GameState.Bonus != null;",
        "if (GameState.Bonus == null) { GameState.Bonus = 0; } else { GameState.Bonus = GameState.Bonus + 1; } "
        + FREE,
        "if (GameState.Bonus != null && GameState.Bonus == 1) { winner player.active(); }"),
}


def game_text(shape: tuple[str, str, str]) -> str:
    filt, effect, check = shape
    return GAME.replace("FILTER", filt).replace("EFFECT", effect).replace("CHECK", check)


def runtime_game(shape: tuple[str, str, str]) -> Game:
    program = load_program("flags.tgpl", text=game_text(shape))
    assert program.ok
    return Game(program, compile_program(program))


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_lowered_game_is_the_runtimes(name):
    lw = Lowered.of_text(game_text(SHAPES[name]), "flags.tgpl")
    runtime = explore(RuntimeMachine(lw.game))
    gdl = explore(GdlMachine(lw.gdl, move_texts=lw.lowered.move_texts))
    assert runtime.complete and gdl.complete
    assert (gdl.states, sum(gdl.terminal)) == (runtime.states, sum(runtime.terminal))
    assert not any(runtime.stuck) and not any(gdl.stuck)
    assert compare(runtime, gdl)["equivalent"]
    assert bisimulate(lw).states == runtime.states  # moves matched by name, states by their fluents


def test_the_runtime_games_are_not_trivial():
    """The conditions above decide things: the games have several states and endings, not one line of play."""
    g = explore(RuntimeMachine(runtime_game(SHAPES["filter returns a bool attribute"])))
    assert g.states == 1 + 3 + 3 + 1  # the cells claimed so far: three moves claim the three cells
    g = explore(RuntimeMachine(runtime_game(SHAPES["if on a bool attribute in a phase"])))
    assert {g.goals[v] for v in range(g.states) if g.terminal[v]} == {(0, 100)}  # Last is true at the second move


def test_tris_with_a_bool_free_flag_lowers_to_its_5478_states():
    source = (EXAMPLES / "tris.tgpl").read_text(encoding="utf-8")
    source = source.replace("    PlayerState AssignedTo = null;\n", "    PlayerState AssignedTo = null;\n    bool Free = true;\n")
    source = source.replace("return chosenTile.AssignedTo == null;", "return chosenTile.Free;")
    source = source.replace("chosenTile.AssignedTo = this;", "chosenTile.AssignedTo = this;\n            chosenTile.Free = false;")
    assert source.count("Free") == 3
    lw = Lowered.of_text(source, str(EXAMPLES / "tris_free.tgpl"))
    g = explore(GdlMachine(lw.gdl))
    assert g.complete
    assert (g.expanded, sum(g.terminal)) == (5478, 958)
    rng = random.Random("tris with Free")
    for _ in range(30):
        playout(lw, rng)
