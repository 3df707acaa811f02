"""What the checker can see before the game runs (issue 36): a literal index outside a board's
grid, and a `for` step whose value is dropped (`k + 1` for `k += 1`, an endless loop)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.frontend.loader import load_program

SIX_BY_SIX = """\
game "g";
players 2;
tile Cell {{ player Owner = null; }}
board B
{{
    group Grid
    {{
        geometry {geometry};
        {orientation}
        grid
        {{
            Cell, Cell, Cell, Cell, Cell, Cell;
            Cell, Cell, Cell, Cell, Cell, Cell;
            Cell, Cell, Cell, Cell, Cell, Cell;
            Cell, Cell, Cell, Cell, Cell, Cell;
            Cell, Cell, Cell, Cell, Cell, Cell;
            Cell, Cell, Cell, Cell, Cell, Cell;
        }}
    }}
    function Corner
    {{
        returns Cell;
        effect {{ return {inside} as Cell; }}
    }}
}}
global class G {{ B Board = null; }}
setup
{{
    G.Board = new B();
    log({outside});
    winner 0;
}}
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def diagnostics(tmp_path, text: str) -> list[tuple]:
    (tmp_path / "g.tgpl").write_text(text, encoding="utf-8")
    return [(d.span.line, d.span.col, d.severity.value, d.message, d.notes) for d in load_program("g.tgpl").diagnostics]


def test_a_literal_index_outside_a_six_by_six_grid_is_an_error(tmp_path):
    text = SIX_BY_SIX.format(geometry="square", orientation="", inside="Grid[2][6]", outside="G.Board.Grid[-1][0]")
    assert diagnostics(tmp_path, text) == [
        (23, 33, "error", "index 6 is outside group 'Grid': its second index runs 0..5 (a 6 x 6 grid)", ()),
        (30, 22, "error", "index -1 is outside group 'Grid': its first index runs 0..5 (a 6 x 6 grid)", ()),
    ]


def test_indexes_inside_the_grid_or_not_literal_are_left_to_the_runtime(tmp_path):
    text = SIX_BY_SIX.format(geometry="square", orientation="", inside="Grid[5][0]",
                             outside="G.Board.Grid[0][5 + 1]")  # not a literal: the runtime's to find
    assert diagnostics(tmp_path, text) == []


def test_the_grid_shape_follows_the_literal_and_a_hex_row_orientation(tmp_path):
    three_rows = SIX_BY_SIX.replace("            Cell, Cell, Cell, Cell, Cell, Cell;\n", "", 3)
    # Three rows of six: Grid[column][row], 6 columns of 3 rows
    text = three_rows.format(geometry="square", orientation="", inside="Grid[5][2]", outside="G.Board.Grid[0][3]")
    assert [d[3] for d in diagnostics(tmp_path, text)] == [
        "index 3 is outside group 'Grid': its second index runs 0..2 (a 6 x 3 grid)"]
    text = three_rows.format(geometry="hex", orientation="orientation row;", inside="Grid[2][5]",
                             outside="G.Board.Grid[3][0]")  # a row-major hex group: Grid[row][column]
    assert [d[3] for d in diagnostics(tmp_path, text)] == [
        "index 3 is outside group 'Grid': its first index runs 0..2 (a 3 x 6 grid)"]


def test_a_board_subclass_with_a_larger_grid_is_not_flagged(tmp_path):
    text = SIX_BY_SIX.format(geometry="square", orientation="", inside="Grid[0][0]", outside="G.Board.Grid[6][0]")
    text = text.replace("global class G", """board Big : B
{
    group Grid
    {
        geometry square;
        grid
        {
            Cell, Cell, Cell, Cell, Cell, Cell, Cell;
        }
    }
}
global class G""")
    assert [d[3] for d in diagnostics(tmp_path, text)] == []


FOR_STEP = """\
game "f";
players 2;
setup
{
    for (number k = 0; k < 3; k + 1) { }
    number q = 0;
    q + 1;
    winner 0;
}
"""


def test_a_for_step_whose_value_is_dropped_is_an_error(tmp_path):
    assert diagnostics(tmp_path, FOR_STEP) == [
        (5, 31, "error", "the value of this loop step is never used: the step changes nothing",
         ("did you mean 'k += 1'?",)),
        (7, 5, "warning", "the value of this expression is never used", ()),
    ]


def test_a_for_step_that_assigns_or_calls_is_fine(tmp_path):
    text = FOR_STEP.replace("k + 1", "k += 1").replace("    q + 1;\n", "    q += 1;\n    log(q);\n")
    assert diagnostics(tmp_path, text) == []


RESERVED_CLASS = """\
game "t";
players 2;
setup
{
    Table.N = 1;
    winner 0;
}
global class Table
{
    number N = 0;
}
"""


def test_a_reserved_word_as_a_class_name_is_named_first(tmp_path):
    """`Table` used before its class said `unexpected '.', expected '<'` first; the reason came later."""
    found = diagnostics(tmp_path, RESERVED_CLASS)
    assert found[0] == (5, 5, "error", "'Table' is a reserved word and cannot be used as a name "
                                       "(unexpected '.' after it, expected '<')", ())
    assert found[1] == (8, 14, "error", "'Table' is a reserved word and cannot be used as a name",
                        ("rename it, e.g. 'GameTable', here and where it is used",))
    assert len(found) == 2


def test_a_class_named_by_a_reserved_word_is_one_error_with_every_use_in_a_note(tmp_path):
    """A designer's `Table` used four times gave four errors; now the first use lists the others."""
    text = RESERVED_CLASS.replace("    Table.N = 1;\n", "    Table.N = 1;\n    Table.N = 2;\n    Table.N += 3;\n")
    found = [d for d in diagnostics(tmp_path, text) if "reserved word" in d[3]]
    assert [(line, col) for line, col, *_ in found] == [(5, 5), (10, 14)]
    assert found[0][4] == ("'Table' is used as a name at 2 more places (6:5, 7:5); rename it, "
                           "e.g. 'GameTable', everywhere",)


def test_the_note_names_the_uses_inside_expressions_and_skipped_blocks(tmp_path):
    """A designer's Liar's dice (tests/data/designers/liarsdice.tgpl as first written, `global class Table`) was
    told of 2 more places out of 9: the parser meets only a use that starts what it reads after an error, and
    skips the rest of a broken statement or block (`x = Table.N + Table.N;`, a filter's `return Table.N == 0`).
    The note now names every `Table.` of the file."""
    text = RESERVED_CLASS.replace("    Table.N = 1;\n", "    Table.N = 1;\n    number x = Table.N + Table.N;\n"
                                                      "    if (x > 0) { log(Table.N); }\n")
    found = [d for d in diagnostics(tmp_path, text) if "reserved word" in d[3]]
    assert [(line, col) for line, col, *_ in found] == [(5, 5), (10, 14)]
    assert found[0][4] == ("'Table' is used as a name at 3 more places (6:16, 6:26, 7:22); rename it, "
                           "e.g. 'GameTable', everywhere",)


def test_a_keyword_followed_by_the_wrong_token_is_not_called_a_name(tmp_path):
    text = RESERVED_CLASS.replace("    Table.N = 1;\n", "    if G.N == 1 { }\n").replace("Table", "G")
    assert diagnostics(tmp_path, text)[0][3] == "unexpected identifier 'G', expected '('"


REVERSI = Path(__file__).resolve().parents[2] / "examples" / "reversi.tgpl"


def reversi_without(old: str, new: str) -> str:
    text = REVERSI.read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new)


def line_of(text: str, needle: str, nth: int = 1) -> int:
    return [n for n, line in enumerate(text.splitlines(), 1) if needle in line][nth - 1]


def test_a_missing_brace_is_one_error_at_the_brace_that_is_never_closed(tmp_path):
    """The `}` of At's effect forgotten: 12 errors before, the first `unknown type 'Seat'`, none at the brace."""
    text = reversi_without("            return Grid[x][y] as Square;\n        }\n    }\n",
                           "            return Grid[x][y] as Square;\n    }\n")
    opened = line_of(text, "if (x < 0 || y < 0") - 1  # the `{` of At's effect
    closed = line_of(text, "// How many discs of the other colour") - 2  # the `}` that now ends At
    assert diagnostics(tmp_path, text) == [
        (opened, 9, "error", "this '{' is never closed",
         (f"its '}}' was expected at g.tgpl:{closed}:5, where the indentation ends its block",)),
    ]


def test_a_class_left_open_is_found_at_its_brace(tmp_path):
    text = reversi_without("    }\n}\n\nclass Seat\n", "    }\n\nclass Seat\n")
    board = line_of(text, "board ReversiBoard") + 1
    seat = line_of(text, "class Seat")
    assert diagnostics(tmp_path, text) == [
        (board, 1, "error", "this '{' is never closed",
         (f"its '}}' was expected at g.tgpl:{seat}:1, where the indentation ends its block",)),
    ]


def test_a_block_on_one_line_left_open(tmp_path):
    text = reversi_without("if (board.At(x: x, y: y) == target) { tx = x; ty = y; }\n",
                           "if (board.At(x: x, y: y) == target) { tx = x; ty = y;\n")
    found = diagnostics(tmp_path, text)
    row = line_of(text, "ty = y;")
    assert [(d[0], d[1], d[3]) for d in found] == [(row, 57, "this '{' is never closed")]
    assert found[0][4] == (f"its '}}' was expected at g.tgpl:{row + 1}:17, where the indentation ends its block",)


def test_other_syntax_errors_are_not_taken_for_a_missing_brace(tmp_path):
    text = reversi_without("            number tx = 0;\n", "            number tx = 0\n")
    assert [d[3] for d in diagnostics(tmp_path, text)] == ["expected ';' before identifier 'number'"]


NO_PASS = """\
game "np";
players 2;
global class G { number N = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            G.N += 1;
            if (G.N == 2) { winner player; }
        }
    }
}
turn T { phase P { } default { return player.active() + 1; } }
setup
{
    for (number p = 0; p < 2; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_a_game_where_no_move_passes_control_is_warned_of(tmp_path):
    """The forgotten turn.pass(): player 0 moved twice and won, exit 0, no warning before."""
    assert diagnostics(tmp_path, NO_PASS) == [
        (6, 12, "warning", "no move ever passes control: nothing after setup calls turn.pass or turn.use, so the "
                           "player setup gives control to makes every move",
         ("a move that ends a player's turn calls turn.pass() (the turn's default then picks the next player)",)),
    ]
    from click.testing import CliRunner

    from tgpl.cli import main

    played = CliRunner().invoke(main, ["play", "g.tgpl", "--players", "first,first"])
    assert "player 0: Seat#0.Go()" in played.stdout and "player 1:" not in played.stdout  # what it warns of


def test_no_warning_when_a_move_passes_or_every_move_ends_the_game(tmp_path):
    passing = NO_PASS.replace("            if (G.N == 2) { winner player; }\n",
                              "            if (G.N == 2) { winner player; }\n            turn.pass();\n")
    assert diagnostics(tmp_path, passing) == []
    ending = NO_PASS.replace("if (G.N == 2) { winner player; }", "winner player;")
    assert diagnostics(tmp_path, ending) == []
    alone = NO_PASS.replace("players 2;", "players 1;").replace("p < 2", "p < 1")
    assert diagnostics(tmp_path, alone) == []


def test_a_member_of_a_derived_tile_read_on_a_groups_tile_shows_the_cast(tmp_path):
    """`Grid[2][3].Disc`: a group's cell is a Tile (its cells may be of several tile classes); the member
    is Square's, which the note names with the cast to write, in the designer's own words."""
    text = reversi_without('    turn.pass(0, "MovePhase");',
                           '    log(GameState.Board.Grid[2][3].Disc);\n    turn.pass(0, "MovePhase");')
    line = line_of(text, "Grid[2][3].Disc")
    assert diagnostics(tmp_path, text) == [
        (line, 36, "error", "Tile has no member 'Disc'",
         ("'Disc' belongs to Square, derived from Tile: write '(GameState.Board.Grid[2][3] as Square).Disc'",)),
    ]


def test_a_query_shows_the_cast_too(tmp_path):
    from click.testing import CliRunner

    from tgpl.cli import main
    r = CliRunner().invoke(main, ["query", str(REVERSI), "GameState.Board.Grid[2][3].Disc == 1", "--horizon", "1"])
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == ("  note: 'Disc' belongs to Square, derived from Tile: write "
                                         "'(GameState.Board.Grid[2][3] as Square).Disc'")
