"""Checker tests: every kind of diagnostic, with its exact message and location.

Each test writes a small game to a temporary directory, loads it with
`load_program` (which must never raise) and compares the full list of
diagnostics as (line, column, severity, message), so a missing diagnostic, an
extra one (a false positive) and a wrong location all fail. Locations are
given by `at(src, needle)`: the line and column where `needle` starts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.frontend.diagnostics import Diagnostic
from tgpl.frontend.loader import load_program

ROOT = Path(__file__).resolve().parents[2]
PRELUDE = 'game "t"; players 2; setup { }\n'


# -------------------------------------------------------------------- helpers


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Diagnostics name files relative to the working directory: keep them short."""
    monkeypatch.chdir(tmp_path)


def check(tmp_path: Path, source: str, extra_files: dict[str, str] | None = None, name: str = "main.tgpl") -> list[Diagnostic]:
    """Write source (and extra files) under tmp_path, load it, return its diagnostics."""
    for rel, text in (extra_files or {}).items():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return load_program(path).diagnostics


def found(tmp_path: Path, source: str, extra_files: dict[str, str] | None = None) -> list[tuple]:
    return [(d.span.line, d.span.col, d.severity.value, d.message) for d in check(tmp_path, source, extra_files)]


def at(src: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """(line, column) of the nth occurrence of needle in src, both 1-based."""
    index = -1
    for _ in range(nth):
        index = src.index(needle, index + 1)
    line = src.count("\n", 0, index) + 1
    col = index - (src.rfind("\n", 0, index) + 1) + 1
    return line, col


def E(src: str, needle: str, message: str, nth: int = 1) -> tuple:
    return (*at(src, needle, nth), "error", message)


def W(src: str, needle: str, message: str, nth: int = 1) -> tuple:
    return (*at(src, needle, nth), "warning", message)


def in_setup(body: str, rest: str = "") -> str:
    """A game whose setup block holds body; rest follows the setup."""
    return f'game "t";\nplayers 2;\nsetup\n{{\n{body}\n}}\n{rest}'


def test_helpers_locate_needles():
    src = "ab\ncd cd\n"
    assert at(src, "cd") == (2, 1)
    assert at(src, "cd", 2) == (2, 4)
    assert in_setup("x;").splitlines()[4] == "x;"


# ------------------------------------------------------------- valid programs


def test_tris_example_has_no_diagnostics():
    program = load_program(ROOT / "examples" / "tris.tgpl")
    assert program.diagnostics == []
    assert program.ok


@pytest.mark.parametrize("example", sorted(p.name for p in (ROOT / "examples").glob("*.tgpl")))
def test_every_example_has_no_diagnostics(example):
    program = load_program(ROOT / "examples" / example)
    assert [d.header() for d in program.diagnostics] == []


def test_cards_example_with_its_import_has_no_diagnostics():
    program = load_program(ROOT / "examples" / "cards.tgpl")
    assert program.diagnostics == []
    assert len(program.modules) == 2


KITCHEN_SINK = """\
game "big";
players 2 + 1;
setup
{
    Deck d = new Deck() { new Card(), new Card() };
    d.shuffle();
    Card top = d.pop();
    top.assign(0);
    top.assign(p: 1);
    top.discard(d.discard_stack);
    d.reshuffle();
    number n = d.length + d.length();
    List<player> ps = player.all();
    ps.add(player.active() + 1);
    Table<string> names = {{0, "a"}, {1, "b"}};
    List<number> keys = names.keys();
    log(n + keys.length + ps.indexOf(0));
    Counter.Value += 1;
    Counter.Name += "x" + 1;
    turn.use("Main", "Draw");
    turn.pass(0, "Play");
    event.throw(new Scored());
    event.throw_sync(new Scored());
    Board1 b = new Board1();
    Tile t = b.Hexes[0][1];
    top.move_to(t);
    for (number i = 0; i < t.connections.length; i += 1)
    {
        Connection c = t.connections[i];
        if (c.to is Space) { continue; }
        Space s = c.to as Space;
        log(s.group.name);
    }
    for (;;) { break; }
    while (false) { break; }
    Table1 t1 = null;
    log(t1 == null);
    log(!(1 > 2) && ("a" < "b") || (true ^ false));
    log(-2 ^ 3 % 2 * 4 / 1);
    List<List<player>> ranking = { {1}, {0, 2} };
    winner ranking;
}

global class Counter { number Value = 0; string Name = ""; }
event Scored { player who; number points = 1; }
event BigScore : Scored { }
interactable Card
{
    number Power = 1;
    attribute Label { returns string; value "card"; }
    function Strength { returns number; effect { return this.Power * 2; } }
    action Play
    {
        optional input Space where
        {
            filter { return where.group.name == "Main"; }
            filter other { return other != null; }
        }
        auto input Card helper { return helper.Power > Power; }
        player [player.active() + 1] input Card gift;
        require { return this.player == player.active(); }
        require { if (Power > 0) { return true; } else { return false; } }
        trigger PlayerChoiceEvent { return event.active == player; }
        trigger Scored { return event.points > 0; }
        prio 2;
        effect
        {
            this.move_to(where);
            Counter.Value += this.Strength() + helper.Power + gift.Power;
            player input List<Card> chosen { return chosen.Power > 0; }
            log(chosen.length + Label);
        }
    }
}
interactable Special : Card
{
    override function Strength { effect { return base.Strength() + 1; } }
    override action Play { effect { log(this.Power); this.Play(); } }
}
class Listener
{
    action Hear
    {
        trigger BigScore { return true; }
        trigger Scored { return event.points > 1; }
        effect { log(event.points); event.throw(new Scored()); }
    }
}
stack Deck { returns Card; default { push(new Card()); shuffle(); } }
stack BigDeck : Deck { }
tile Space { bool Taken = false; }
connection Road { number Length = 1; }
board Table1
{
    group Main { geometry square; grid { Space, b; b, Space; } }
}
board Board1
{
    group Hexes { geometry hex; orientation col; grid { Space, Space; Space, Space; } }
    group Rows { geometry hex; orientation column; grid { Space; } }
    group Graph
    {
        geometry graph;
        default { Space s = new Space(); log(s.Taken); }
    }
}
function Sum
{
    function input number a;
    function input number b = 2;
    returns number;
    effect { return a + b; }
}
function Nothing { returns; effect { log(Sum(a: 1) + Sum(b: 1, a: 2)); return; } }
turn Main
{
    phase Play { }
    phase Draw { auto input Card c; effect { c.discard(null); } }
    default { return player.active() + 1; }
}
turn Other
{
    phase Only { if (player.active() == 0) { turn.pass(1, "Only"); } }
    default { turn.pass(player.active() - 1, "Only"); }
}
"""


def test_a_program_using_most_of_the_language_has_no_diagnostics(tmp_path):
    assert found(tmp_path, KITCHEN_SINK) == []


def test_player_namespace_works_inside_classes(tmp_path):
    # Inside a class a bare `player` is this.player, but `player.active()`
    # and `player.all()` still name the built-in namespace.
    src = PRELUDE + (
        "interactable Card\n"
        "{\n"
        "    function Mine { returns bool; effect { return player == player.active(); } }\n"
        "    function All { returns number; effect { return player.all().length; } }\n"
        "    function Bad { returns; effect { log(player.nope); } }\n"
        "}\n"
    )
    assert found(tmp_path, src) == [E(src, "nope", "player has no member 'nope'")]


# ------------------------------------------------------------- undefined names


def test_undefined_variable(tmp_path):
    src = in_setup("log(y);")
    assert found(tmp_path, src) == [E(src, "y)", "undefined name 'y'")]


def test_undefined_none_suggests_null(tmp_path):
    src = in_setup("number x = none;\nlog(x);")
    assert found(tmp_path, src) == [E(src, "none", "undefined name 'none'; did you mean 'null'?")]


def test_undefined_name_suggests_a_close_local(tmp_path):
    src = in_setup("number count = 0;\nlog(cuont);\nlog(count);")
    assert found(tmp_path, src) == [E(src, "cuont", "undefined name 'cuont'; did you mean 'count'?")]


def test_undefined_type(tmp_path):
    src = PRELUDE + "class C { Foo a = null; }\n"
    assert found(tmp_path, src) == [E(src, "Foo", "unknown type 'Foo'")]


def test_undefined_type_suggests_a_close_one(tmp_path):
    src = in_setup("strng s = \"\";\nlog(s);")
    assert found(tmp_path, src) == [E(src, "strng", "unknown type 'strng'; did you mean 'string'?")]


def test_a_function_is_not_a_type(tmp_path):
    src = PRELUDE + "function F { returns; }\nclass C { F a = null; }\n"
    assert found(tmp_path, src) == [E(src, "F a", "'F' is not a type")]


def test_undefined_class_in_new(tmp_path):
    src = in_setup("log(new Nope());")
    assert found(tmp_path, src) == [E(src, "Nope", "unknown type 'Nope'")]


def test_undefined_base_class(tmp_path):
    src = PRELUDE + "class C : Nope { }\n"
    assert found(tmp_path, src) == [E(src, "Nope", "unknown base class 'Nope'")]


def test_undefined_base_class_suggests_a_close_one(tmp_path):
    src = PRELUDE + "class Piece { }\nclass Pawn : Peice { }\n"
    assert found(tmp_path, src) == [E(src, "Peice", "unknown base class 'Peice'; did you mean 'Piece'?")]


def test_an_input_read_in_a_require_or_trigger_says_why_it_is_undefined_there(tmp_path):
    """A designer's Shut the Box first read its optional second lever in a `require` (`if (second == null) ...`):
    the bare "undefined name" left them to guess that a require is decided before the inputs are chosen."""
    src = PRELUDE + (
        "class Seat\n"
        "{\n"
        "    action Take\n"
        "    {\n"
        "        input bool two;\n"
        "        require { return two == false; }\n"
        "        trigger PlayerChoiceEvent { return !two; }\n"
        "        effect { }\n"
        "    }\n"
        "}\n"
    )
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message) for d in diags] == [
        (*at(src, "two =="), "undefined name 'two' here"), (*at(src, "two; }"), "undefined name 'two' here")]
    assert all(d.notes == ("'two' is an input of action 'Take': its require and trigger blocks decide whether the "
                           "action may run before its inputs are chosen, so they cannot read them; test an input in "
                           "its filter (an input declared earlier is seen by the filters of later ones)",)
               for d in diags)


def test_undefined_function(tmp_path):
    src = in_setup("nope(a: 1);")
    assert found(tmp_path, src) == [E(src, "nope", "undefined name 'nope'")]


def test_undefined_event_in_trigger(tmp_path):
    src = PRELUDE + "class C { action A { trigger Nope { return true; } } }\n"
    assert found(tmp_path, src) == [E(src, "Nope", "unknown event 'Nope'")]


def test_undefined_event_suggests_player_choice_event(tmp_path):
    src = PRELUDE + "class C { action A { trigger PlayerChoiseEvent { return true; } } }\n"
    assert found(tmp_path, src) == [
        E(src, "PlayerChoiseEvent", "unknown event 'PlayerChoiseEvent'; did you mean 'PlayerChoiceEvent'?")
    ]


def test_trigger_on_something_that_is_not_an_event(tmp_path):
    src = PRELUDE + "class C { action A { trigger C { return true; } trigger Tile { return true; } } }\n"
    assert found(tmp_path, src) == [
        E(src, "C {", "'C' is not an event", 2),
        E(src, "Tile", "'Tile' is not an event"),
    ]


def test_undefined_input_in_named_argument(tmp_path):
    src = PRELUDE + (
        "function F { function input number a; returns; }\n"
        "function G { returns; effect { F(a: 1, b: 2); } }\n"
    )
    assert found(tmp_path, src) == [E(src, "b: 2", "function 'F' has no input 'b'")]


def test_undefined_input_suggests_a_close_one(tmp_path):
    src = PRELUDE + (
        "function F { function input number count; returns; }\n"
        "function G { returns; effect { F(cuont: 1); } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "F(cuont", "missing argument 'count' of function 'F'"),
        E(src, "cuont", "function 'F' has no input 'cuont'; did you mean 'count'?"),
    ]


def test_undefined_attribute_of_a_known_class(tmp_path):
    src = PRELUDE + "class C { number a = 1; function f { returns; effect { this.nope = 1; log(this.a); } } }\n"
    assert found(tmp_path, src) == [E(src, "nope", "C has no member 'nope'")]


def test_undefined_member_of_a_local_variable(tmp_path):
    src = in_setup("C c = new C();\nc.nope = 1;\nlog(c.x + c.Nope());", "class C { number x = 0; }\n")
    assert found(tmp_path, src) == [
        E(src, "nope", "C has no member 'nope'"),
        E(src, "Nope", "C has no member 'Nope'"),
    ]


def test_undefined_attribute_suggests_a_close_member(tmp_path):
    src = PRELUDE + "class C { number Score = 1; function f { returns number; effect { return this.Scor; } } }\n"
    assert found(tmp_path, src) == [E(src, "Scor;", "C has no member 'Scor'; did you mean 'Score'?")]


def test_undefined_member_of_a_collection(tmp_path):
    src = in_setup("List<number> l = {1};\nl.push(2);")
    assert found(tmp_path, src) == [E(src, "push", "List has no member 'push'")]


def test_undefined_member_of_builtin_namespaces(tmp_path):
    src = in_setup("turn.phase.nope();\nevent.nope();\nturn.actve();")
    assert found(tmp_path, src) == [
        E(src, "nope", "'turn.phase' has no member 'nope'"),
        E(src, "nope", "'event' has no function 'nope'; expected throw or throw_sync", 2),
        E(src, "actve", "'turn' has no member 'actve'; did you mean 'active'?"),
    ]


TURNS = "turn Turn { phase Phase { } phase Other { } }\n"


def test_unknown_turn_in_turn_use(tmp_path):
    src = in_setup('turn.use("T");', TURNS)
    assert found(tmp_path, src) == [E(src, '"T"', "no turn named 'T'")]


def test_unknown_turn_suggests_a_close_one(tmp_path):
    src = in_setup('turn.use("Trun");', TURNS)
    assert found(tmp_path, src) == [E(src, '"Trun"', "no turn named 'Trun'; did you mean 'Turn'?")]


def test_unknown_phase_in_turn_use(tmp_path):
    src = in_setup('turn.use("Turn", "P");\nturn.use("Turn", "Phas");', TURNS)
    assert found(tmp_path, src) == [
        E(src, '"P"', "turn 'Turn' has no phase 'P'"),
        E(src, '"Phas"', "turn 'Turn' has no phase 'Phas'; did you mean 'Phase'?"),
    ]


def test_unknown_phase_in_turn_pass(tmp_path):
    src = in_setup('turn.pass(0, "P");\nturn.pass(1, phase: "Q");', TURNS)
    assert found(tmp_path, src) == [
        E(src, '"P"', "no turn has a phase 'P'"),
        E(src, '"Q"', "no turn has a phase 'Q'"),
    ]


def test_known_turns_and_phases_are_accepted(tmp_path):
    src = in_setup('turn.use("Turn");\nturn.use("Turn", "Other");\nturn.pass(0, "Phase");\nturn.pass();', TURNS)
    assert found(tmp_path, src) == []


def test_unknown_tile_in_grid_row(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { geometry square; grid { T, X; T, b; } } }\n"
    assert found(tmp_path, src) == [E(src, "X;", "unknown tile 'X'")]


def test_grid_cell_that_is_not_a_tile(tmp_path):
    src = PRELUDE + "class C { }\nboard B { group G { geometry square; grid { C; } } }\n"
    assert found(tmp_path, src) == [E(src, "C;", "'C' is not a tile")]


# ------------------------------------------------------- duplicate definitions


def test_duplicate_top_level_definitions(tmp_path):
    src = PRELUDE + "class C { }\nclass C { }\nfunction C { returns; }\n"
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message, d.notes) for d in diags] == [
        (3, 7, "duplicate definition of 'C'", ("first defined at main.tgpl:2:7",)),
        (4, 10, "duplicate definition of 'C'", ("first defined at main.tgpl:2:7",)),
    ]


def test_duplicate_turn_name_is_a_duplicate_definition(tmp_path):
    src = PRELUDE + "turn T { phase P { } }\nturn T { phase Q { } }\n"
    assert found(tmp_path, src) == [E(src, "T", "duplicate definition of 'T'", 2)]


def test_duplicate_members_of_a_class(tmp_path):
    src = PRELUDE + "class C { number a = 1; string a = \"\"; function a { returns; } action b { } action b { } }\n"
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message, d.notes) for d in diags] == [
        (*at(src, "a =", 2), "duplicate member 'a' in C", (f"first defined at main.tgpl:2:{at(src, 'a =')[1]}",)),
        (*at(src, "a {"), "duplicate member 'a' in C", (f"first defined at main.tgpl:2:{at(src, 'a =')[1]}",)),
        (*at(src, "b {", 2), "duplicate member 'b' in C", (f"first defined at main.tgpl:2:{at(src, 'b {')[1]}",)),
    ]


def test_duplicate_locals_in_one_block(tmp_path):
    src = in_setup("number x = 1;\nnumber x = 2;\nlog(x);")
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message, d.notes) for d in diags] == [
        (6, 8, "'x' is already declared in this block", ("first declared at main.tgpl:5:8",)),
    ]


def test_shadowing_in_a_nested_block_is_allowed(tmp_path):
    src = in_setup("number x = 1;\n{ number x = 2; log(x); }\nlog(x);")
    assert found(tmp_path, src) == []


def test_duplicate_for_variable_and_local(tmp_path):
    src = in_setup("for (number i = 0; i < 2; i += 1) { number i = 3; log(i); }")
    assert found(tmp_path, src) == []  # the body is a nested block


def test_duplicate_inputs(tmp_path):
    src = PRELUDE + "class C { action A { input number x; input string x; effect { log(x); } } }\n"
    assert found(tmp_path, src) == [E(src, "x;", "'x' is already declared in this block", 2)]


def test_duplicate_function_inputs(tmp_path):
    src = PRELUDE + "function F { function input number a; function input number a; returns; }\n"
    assert found(tmp_path, src) == [E(src, "a;", "'a' is already declared in this block", 2)]


def test_input_statement_clashing_with_a_local(tmp_path):
    src = in_setup("number x = 1;\ninput number x;\nlog(x);")
    assert found(tmp_path, src) == [E(src, "x;", "'x' is already declared in this block")]


def test_duplicate_phases(tmp_path):
    src = PRELUDE + "turn T { phase P { } phase P { } }\n"
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message, d.notes) for d in diags] == [
        (*at(src, "P {", 2), "duplicate phase 'P' in turn 'T'", (f"first at main.tgpl:2:{at(src, 'P {')[1]}",)),
    ]


def test_duplicate_triggers_on_the_same_event(tmp_path):
    src = PRELUDE + (
        "class C { action A {\n"
        "trigger PlayerChoiceEvent { return true; }\n"
        "trigger PlayerChoiceEvent { return false; }\n"
        "} }\n"
    )
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message, d.notes) for d in diags] == [
        (4, 9, "action 'A' already has a trigger on PlayerChoiceEvent", ("first at main.tgpl:3:9",)),
    ]


def test_triggers_on_different_events_are_fine(tmp_path):
    src = PRELUDE + (
        "event E { }\n"
        "class C { action A { trigger PlayerChoiceEvent { return true; } trigger E { return true; } } }\n"
    )
    assert found(tmp_path, src) == []


def test_duplicate_effect_in_an_action(tmp_path):
    src = PRELUDE + "class C { action A { effect { } effect { } } }\n"
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message, d.notes) for d in diags] == [
        (*at(src, "effect", 2), "duplicate 'effect' in action 'A'", (f"first at main.tgpl:2:{at(src, 'effect')[1]}",)),
    ]


def test_duplicate_effect_in_a_function_and_a_phase(tmp_path):
    src = PRELUDE + (
        "function F { returns; effect { } effect { } }\n"
        "turn T { phase P { effect { } effect { } } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "effect", "duplicate 'effect' in function 'F'", 2),
        E(src, "effect", "duplicate 'effect' in phase 'P'", 4),
    ]


def test_duplicate_tags(tmp_path):
    src = PRELUDE + (
        "function F { returns; returns number; }\n"
        "class C { action A { prio 1; prio 2; } }\n"
        "interactable Card { }\n"
        "stack S { returns Card; returns Card; default { } default { } }\n"
        "turn T { phase P { } default { } default { } }\n"
        "board B { group G { geometry square; geometry hex; grid { b; } } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "returns number", "duplicate 'returns' in function 'F'"),
        E(src, "prio 2", "duplicate 'prio' in action 'A'"),
        E(src, "returns Card", "duplicate 'returns'", 2),
        E(src, "default", "duplicate 'default'", 2),
        E(src, "default", "duplicate 'default' in turn 'T'", 4),
        E(src, "geometry hex", "duplicate 'geometry' in group 'G'"),
    ]


def test_duplicate_directives(tmp_path):
    src = 'game "t";\ngame "u";\nplayers 2;\nplayers 3;\nsetup { }\nsetup { }\n'
    assert found(tmp_path, src) == [
        (2, 1, "error", "duplicate 'game' directive"),
        (4, 1, "error", "duplicate 'players' directive"),
        (6, 1, "error", "duplicate 'setup'"),
    ]


# ------------------------------------------------- constructs in the wrong place


def test_return_with_a_value_in_an_action_effect(tmp_path):
    src = PRELUDE + "class C { action A { effect { return 1; } } }\n"
    assert found(tmp_path, src) == [E(src, "return 1;", "an effect cannot return a value")]


def test_return_with_a_value_elsewhere(tmp_path):
    src = in_setup("return 1;", "function F { returns; effect { return 2; } }\nturn T { phase P { return 3; } }\n")
    assert found(tmp_path, src) == [
        E(src, "return 1;", "setup cannot return a value"),
        E(src, "return 2;", "a function that returns nothing cannot return a value"),
        E(src, "return 3;", "an effect cannot return a value"),
    ]


def test_return_without_a_value_is_fine_in_an_effect(tmp_path):
    src = PRELUDE + "class C { action A { effect { if (true) { return; } log(1); } } }\n"
    assert found(tmp_path, src) == []


def test_break_and_continue_outside_a_loop(tmp_path):
    src = in_setup("break;\ncontinue;\nwhile (true) { break; }\nfor (;;) { continue; }")
    # one error each, and no "unreachable code" cascade after them
    assert found(tmp_path, src) == [
        E(src, "break;", "'break' outside a loop"),
        E(src, "continue;", "'continue' outside a loop"),
    ]


def test_break_in_a_filter_inside_a_loop_is_outside_a_loop(tmp_path):
    src = in_setup("while (true) { input number x { break; return true; } log(x); }")
    assert found(tmp_path, src) == [E(src, "break;", "'break' outside a loop")]


def test_effect_directly_in_a_tile(tmp_path):
    src = PRELUDE + "tile T { effect { } }\n"
    assert found(tmp_path, src) == [
        E(src, "effect", "'effect' is not allowed in a tile: it belongs inside an action"
          " (tiles hold attributes and functions only)")
    ]


def test_action_in_a_tile_and_an_event(tmp_path):
    src = PRELUDE + "tile T { action A { } }\nevent E { action A { } require { return true; } }\n"
    assert found(tmp_path, src) == [
        E(src, "action", "'action' is not allowed in a tile"),
        E(src, "action", "'action' is not allowed in an event", 2),
        E(src, "require", "'require' is not allowed in an event: it belongs inside an action"),
    ]


def test_groups_returns_and_default_only_where_allowed(tmp_path):
    src = PRELUDE + "class C { group G { geometry square; } returns number; default { } }\n"
    assert found(tmp_path, src) == [
        E(src, "group", "'group' is not allowed in a class"),
        E(src, "returns", "'returns' is not allowed in a class"),
        E(src, "default", "'default' is not allowed in a class"),
    ]


def test_misplaced_tags_in_functions_and_actions(tmp_path):
    src = PRELUDE + (
        "function F { returns; require { return true; } }\n"
        "class C { action A { returns number; } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "require", "'require' is not allowed in function 'F'"),
        E(src, "returns number", "'returns' is not allowed in action 'A'"),
    ]


def test_game_not_first(tmp_path):
    src = 'players 2;\ngame "t";\nsetup { }\n'
    assert found(tmp_path, src) == [(2, 1, "error", "'game' must be the first directive of the game file")]


def test_import_before_game_puts_game_second(tmp_path):
    src = 'import "lib.tgpl";\ngame "t";\nplayers 2;\nsetup { }\n'
    assert found(tmp_path, src, {"lib.tgpl": "class L { }\n"}) == [
        (2, 1, "error", "'game' must be the first directive of the game file"),
    ]


def test_players_missing(tmp_path):
    src = 'game "t";\nsetup { }\n'
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.span.end_col, d.message) for d in diags] == [
        (1, 1, 10, "the game file needs a 'players' directive, e.g. players 2;"),
    ]


def test_setup_missing(tmp_path):
    src = 'game "t";\nplayers 2;\n'
    assert found(tmp_path, src) == [(1, 1, "error", "the game file needs a 'setup' block, the game's entry point")]


def test_game_missing(tmp_path):
    src = "players 2;\nsetup { }\n"
    assert found(tmp_path, src) == [
        (1, 1, "error", "the game file needs a 'game' directive first, e.g. game \"name\";"),
    ]


def test_empty_game_file_needs_everything(tmp_path):
    assert found(tmp_path, "// nothing\n") == [
        (1, 1, "error", "the game file needs a 'game' directive first, e.g. game \"name\";"),
        (1, 1, "error", "the game file needs a 'players' directive, e.g. players 2;"),
        (1, 1, "error", "the game file needs a 'setup' block, the game's entry point"),
    ]


def test_imports_after_definitions(tmp_path):
    src = PRELUDE + 'class C { }\nimport "lib.tgpl";\n'
    diags = check(tmp_path, src, {"lib.tgpl": "class L { }\n"})
    assert [(d.span.line, d.span.col, d.span.end_col, d.message) for d in diags] == [
        (3, 1, 19, "imports must come before every definition"),
    ]


def test_imports_after_setup_count_as_after_definitions(tmp_path):
    src = PRELUDE + 'import "lib.tgpl";\n'
    assert found(tmp_path, src, {"lib.tgpl": "class L { }\n"}) == [
        (2, 1, "error", "imports must come before every definition"),
    ]


def test_override_with_nothing_to_override(tmp_path):
    src = PRELUDE + "class C { override function f { returns; } override action a { } }\n"
    assert found(tmp_path, src) == [
        E(src, "f {", "'override function f' overrides nothing: no base class of C defines 'f'"),
        E(src, "a {", "'override action a' overrides nothing: no base class of C defines 'a'"),
    ]


def test_override_of_another_kind_of_member(tmp_path):
    src = PRELUDE + (
        "class A { function f { returns; } action g { } number h = 0; }\n"
        "class B : A { override action f { } override function g { returns; } override function h { returns; } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "f {", "'f' is a function in the base class; it cannot be overridden by an action", 2),
        E(src, "g {", "'g' is an action in the base class; it cannot be overridden by a function", 2),
        E(src, "h {", "'h' is an attribute in the base class; it cannot be overridden by a function"),
    ]


def test_override_under_an_unknown_or_cyclic_base_is_not_reported_again(tmp_path):
    src = PRELUDE + (
        "class B : Nope { override function f { returns; } function g { returns; effect { base.g(); } } }\n"
        "class X : Y { override function f { returns; } } class Y : X { }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "Nope", "unknown base class 'Nope'"),
        E(src, "Y {", "inheritance cycle: X -> Y -> X"),
    ]


def test_member_hiding_a_base_member_without_override(tmp_path):
    src = PRELUDE + (
        "class E { function g { returns; } action h { } number n = 1; }\n"
        "class F : E { function g { returns; } action h { } number n = 2; }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "g {", "'g' hides the function of base class E; write 'override function g'", 2),
        E(src, "h {", "'h' hides the action of base class E; write 'override action h'", 2),
        E(src, "n = 2", "'n' is already defined in base class E"),
    ]


def test_member_hiding_a_member_of_a_grandparent(tmp_path):
    src = PRELUDE + "class A { function g { returns; } }\nclass B : A { }\nclass C : B { function g { returns; } }\n"
    assert found(tmp_path, src) == [E(src, "g {", "'g' hides the function of base class B; write 'override function g'", 2)]


def test_redefining_a_built_in_member(tmp_path):
    src = PRELUDE + "interactable I { number tile = 1; function assign { returns; } }\n"
    assert found(tmp_path, src) == [
        E(src, "tile =", "'tile' is a built-in member of an interactable"),
        E(src, "assign", "'assign' is a built-in member of an interactable"),
    ]


def test_override_on_a_global_function(tmp_path):
    src = PRELUDE + "override function F { returns; }\n"
    assert found(tmp_path, src) == [E(src, "override", "'override' needs a class: function 'F' is global")]


def test_base_outside_a_derived_class(tmp_path):
    src = in_setup("log(base);", "class C { function f { returns; effect { base.f(); } } }\n")
    assert found(tmp_path, src) == [
        E(src, "base", "'base' outside a derived class"),
        E(src, "base", "'base' outside a derived class", 2),
    ]


def test_this_outside_a_class(tmp_path):
    src = in_setup("log(this);", "function F { returns; effect { this.x = 1; } }\n")
    assert found(tmp_path, src) == [
        E(src, "this", "'this' outside a class"),
        E(src, "this", "'this' outside a class", 2),
    ]


def test_function_modifier_outside_functions(tmp_path):
    src = in_setup(
        "function input number z;\nlog(z);",
        "class C { action A { function input number x; effect { log(x); } } }\n"
        "turn T { phase P { function input number y; effect { log(y); } } }\n",
    )
    assert found(tmp_path, src) == [
        E(src, "function input number z", "the 'function' modifier is only for function inputs, not the input statement"),
        E(src, "function input number x", "the 'function' modifier is only for function inputs"),
        E(src, "function input number y", "the 'function' modifier is only for function inputs"),
    ]


def test_default_value_on_a_non_function_input(tmp_path):
    src = PRELUDE + "class C { action A { input number y = 3; effect { log(y); } } }\n"
    assert found(tmp_path, src) == [E(src, "3", "only 'function' inputs can have a default value")]


def test_a_move_whose_input_no_player_can_choose(tmp_path):
    """Pente's first draft (tests/data/designers/pente7.tgpl) chose its point as two numbers: `tgpl check` passed
    it and the runtime stopped before the first move. A move's number, string or `List<number>` input is warned
    of; a class, player or bool input, a function input and an action that is no move (no PlayerChoiceEvent)
    are not."""
    src = PRELUDE + (
        "tile Spot { number X = 0; }\n"
        "class C {\n"
        " action Place { input number x { return x >= 0; } input string s; input List<number> many;\n"
        "  input Spot at; input player p; input bool b;\n"
        "  trigger PlayerChoiceEvent { return true; } effect { log(x + s + many.length + at.X + p); log(b); } }\n"
        " action Called { input number y; trigger Ping { return true; } effect { log(y); } }\n"
        "}\n"
        "event Ping { }\n")
    tail = ("which a player cannot choose: a move's candidates are the objects of a class, the players or true "
            "and false, so listing this move's is a runtime error")
    assert found(tmp_path, src) == [
        W(src, "input number x", f"input 'x' of move 'Place' is a number, {tail}"),
        W(src, "input string s", f"input 's' of move 'Place' is a string, {tail}"),
        W(src, "input List<number> many", f"input 'many' of move 'Place' is a number, {tail}"),
    ]


def test_filters_on_a_function_input(tmp_path):
    src = PRELUDE + "function F { function input number x { return x > 0; } returns; }\n"
    assert found(tmp_path, src) == [E(src, "{ return x", "a 'function' input cannot have filters")]


def test_unknown_input_modifier(tmp_path):
    src = PRELUDE + "class C { action A { input foo number w; effect { log(w); } } }\n"
    assert found(tmp_path, src) == [E(src, "foo", "unknown input modifier 'foo'; expected 'player'")]


def test_visibility_on_a_tile(tmp_path):
    src = PRELUDE + "global tile T { }\nlocal event E { }\n"
    assert found(tmp_path, src) == [
        E(src, "global", "a tile has no visibility: 'global' applies to classes, interactables, stacks and boards"),
        E(src, "local", "an event has no visibility: 'local' applies to classes, interactables, stacks and boards"),
    ]


def test_phase_with_an_effect_takes_only_inputs(tmp_path):
    src = PRELUDE + "turn T { phase P { input number x; effect { log(x); } number y = 1; } }\n"
    assert found(tmp_path, src) == [E(src, "number y = 1;", "phase 'P' has an 'effect': its other tags can only be inputs")]


def test_turn_without_phases(tmp_path):
    src = PRELUDE + "turn U { }\n"
    assert found(tmp_path, src) == [E(src, "U", "turn 'U' needs at least one phase")]


def test_turn_default_returns_a_player(tmp_path):
    src = PRELUDE + 'turn T { phase P { } default { return "next"; } }\nturn U { phase P { } default { return; } }\n'
    assert found(tmp_path, src) == [E(src, '"next"', "the turn's default must return a player, not string")]


def test_function_without_returns(tmp_path):
    src = PRELUDE + "function F { effect { } }\n"
    assert found(tmp_path, src) == [
        E(src, "F", "function 'F' needs a 'returns' tag: 'returns <type>;', or 'returns;' when it gives nothing")
    ]


def test_attribute_without_a_type(tmp_path):
    src = PRELUDE + "class C { attribute a { value 1; } }\n"
    assert found(tmp_path, src) == [E(src, "attribute", "attribute 'a' needs 'returns <type>;'")]


# --------------------------------------------- filters, require and trigger


def test_filter_that_can_end_without_returning(tmp_path):
    src = PRELUDE + (
        "class C { action A {\n"
        "input number x\n"
        "{\n"
        "    if (x > 1) { return true; }\n"
        "}\n"
        "} }\n"
    )
    # reported at the closing brace of the filter
    assert found(tmp_path, src) == [(6, 1, "error", "this filter can end without returning a bool")]


def test_require_and_trigger_that_can_end_without_returning(tmp_path):
    src = PRELUDE + (
        "class C { action A {\n"
        "require { if (true) { return true; } }\n"
        "trigger PlayerChoiceEvent { while (1 > 0) { return true; } }\n"
        "} }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "}\ntrigger", "this require block can end without returning a bool"),
        E(src, "}\n} }", "this trigger can end without returning a bool"),
    ]


def test_named_filter_that_can_end_without_returning(tmp_path):
    src = PRELUDE + "class C { action A { input number x { filter f { log(f); } } } }\n"
    assert found(tmp_path, src) == [E(src, "} } } }", "this filter can end without returning a bool")]


def test_blocks_returning_on_every_path_are_fine(tmp_path):
    src = PRELUDE + (
        "class C { action A {\n"
        "input player x { if (x > 1) { return true; } else { return false; } }\n"
        "require { if (true) { return true; } else if (false) { return false; } else { return true; } }\n"
        "trigger PlayerChoiceEvent { { return true; } }\n"
        "} }\n"
    )
    assert found(tmp_path, src) == []


def test_loops_that_never_end_normally_need_no_return_after_them(tmp_path):
    src = PRELUDE + (
        "class C { action A {\n"
        "input player x { while (true) { if (x > 0) { return true; } } }\n"
        "require { for (;;) { while (true) { break; } return true; } }\n"
        "trigger PlayerChoiceEvent { for (;;) { if (true) { break; } } }\n"
        "} }\n"
        "function F { returns number; effect { while (true) { } log(1); } }\n"
    )
    # a `break` of a nested loop does not end the outer one; one of its own does
    assert found(tmp_path, src) == [
        E(src, "}\n} }", "this trigger can end without returning a bool"),
        W(src, "log(1);", "unreachable code"),
    ]


def test_filter_return_without_a_value_or_with_a_wrong_one(tmp_path):
    src = PRELUDE + "class C { action A { input number x { return; } input number y { return y; } } }\n"
    assert found(tmp_path, src) == [
        E(src, "return;", "a filter block must return a bool"),
        E(src, "y; }", "must return bool, not number"),
    ]


def test_assigning_to_a_filter_candidate(tmp_path):
    src = PRELUDE + "class C { action A { input number x { x = 2; return true; } } }\n"
    assert found(tmp_path, src) == [E(src, "x = 2", "cannot assign to the filter candidate 'x'")]


def test_filters_see_earlier_inputs_and_list_candidates(tmp_path):
    src = PRELUDE + (
        "interactable Card { number P = 0; action A {\n"
        "input Card first;\n"
        "input List<Card> cs { return cs.P > first.P; }\n"
        "effect { log(cs.length); }\n"
        "} }\n"
    )
    assert found(tmp_path, src) == []


# ---------------------------------------------------------------------- calls


FN = "function F { function input number a; function input number b = 2; returns number; effect { return a + b; } }\n"


def test_call_with_an_unknown_named_argument(tmp_path):
    src = PRELUDE + FN + "function G { returns; effect { log(F(a: 1, c: 2)); } }\n"
    assert found(tmp_path, src) == [E(src, "c: 2", "function 'F' has no input 'c'")]


def test_call_with_a_missing_argument(tmp_path):
    src = PRELUDE + FN + "function G { returns; effect { log(F(b: 1)); } }\n"
    assert found(tmp_path, src) == [E(src, "F(b: 1)", "missing argument 'a' of function 'F'")]


def test_call_with_a_repeated_argument(tmp_path):
    src = PRELUDE + FN + "function G { returns; effect { log(F(a: 1, a: 2)); } }\n"
    assert found(tmp_path, src) == [E(src, "a: 2", "input 'a' given twice")]


def test_positional_argument_to_a_user_function(tmp_path):
    src = PRELUDE + FN + "function G { returns; effect { log(F(1)); } }\n"
    assert found(tmp_path, src) == [
        E(src, "F(1)", "missing argument 'a' of function 'F'"),
        E(src, "1)", "arguments of function 'F' must be named, e.g. F(name: value)"),
    ]


def test_argument_of_the_wrong_type_to_a_user_function(tmp_path):
    src = PRELUDE + FN + "function G { returns; effect { log(F(a: \"s\")); } }\n"
    assert found(tmp_path, src) == [E(src, '"s"', "input 'a' of F must be number, not string")]


def test_defaulted_input_may_be_left_out(tmp_path):
    src = PRELUDE + FN + "function G { returns; effect { log(F(a: 1) + F(b: 3, a: 1)); } }\n"
    assert found(tmp_path, src) == []


def test_builtin_arity(tmp_path):
    src = PRELUDE + "class C { function f { returns; effect { this.assign(); this.assign(0, 1); player.all(1); } } }\n"
    assert found(tmp_path, src) == [
        E(src, "this.assign()", "missing argument 'p' of assign(player p)"),
        E(src, "this.assign(0, 1)", "assign takes 1 argument(s), not 2"),
        E(src, "player.all(1)", "player.all takes 0 argument(s), not 1"),
    ]


def test_named_arguments_to_builtins(tmp_path):
    src = PRELUDE + (
        "class C { function f { returns; effect {\n"
        "this.assign(p: 0);\n"
        "this.assign(q: 1);\n"
        "this.assign(p: 1, p: 2);\n"
        "this.assign(0, p: 1);\n"
        "} } }\n"
    )
    assert found(tmp_path, src) == [
        (4, 1, "error", "missing argument 'p' of assign(player p)"),
        (4, 13, "error", "assign has no parameter 'q'"),
        (5, 19, "error", "argument 'p' given twice"),
        (6, 16, "error", "argument 'p' given twice"),
    ]


def test_builtin_argument_types(tmp_path):
    src = in_setup('turn.use(1);\nturn.pass("x");\nevent.throw(1);\nList<number> l = {};\nl.add("s");')
    assert found(tmp_path, src) == [
        E(src, "1)", "argument 'turn' of turn.use must be string, not number"),
        E(src, '"x"', "argument 'p' of turn.pass must be player, not string"),
        E(src, "1);\nList", "argument 'e' of event.throw must be Event, not number"),
        E(src, '"s"', "argument 'item' of add must be number, not string"),
    ]


def test_action_calls_take_named_inputs(tmp_path):
    src = PRELUDE + (
        "class C { action A { input number x; effect { log(x); } }\n"
        "function f { returns; effect { this.A(x: 1); this.A(nope: 1); this.A(2); this.A(x: 1, x: 2); } } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "nope: 1", "action 'A' has no input 'nope'"),
        E(src, "2)", "action 'A' must be named after its inputs"),
        E(src, "x: 2", "input 'x' given twice"),
    ]


def test_action_call_arguments_are_typed_by_the_action_inputs(tmp_path):
    src = PRELUDE + (
        "class C { action A { input C t; effect { } }\n"
        "function f { returns; effect { this.A(t: \"s\"); this.A(t: this); } } }\n"
    )
    assert found(tmp_path, src) == [E(src, '"s"', "input 't' of A must be C, not string")]


def test_calling_something_that_is_not_callable(tmp_path):
    src = in_setup("number x = 1;\nx();")
    assert found(tmp_path, src) == [E(src, "x()", "number cannot be called")]


def test_naming_a_function_without_calling_it(tmp_path):
    src = in_setup("log(F);", "function F { returns; }\n")
    assert found(tmp_path, src) == [E(src, "F)", "function F must be called: write F(...)")]


def test_classes_and_namespaces_are_not_values(tmp_path):
    src = in_setup("log(C);\nlog(turn);\nnumber x = C;\nlog(x);", "class C { }\n")
    assert found(tmp_path, src) == [
        E(src, "C)", "class 'C' is not a value (only global classes are)"),
        E(src, "turn)", "'turn' is not a value"),
        E(src, "C;", "cannot initialize 'x' of type number with class C"),
    ]


def test_turns_are_not_values(tmp_path):
    src = in_setup("log(T);", "turn T { phase P { } }\n")
    assert found(tmp_path, src) == [E(src, "T)", "turn 'T' is not a value; select it with turn.use(\"T\")")]


# ---------------------------------------------------------------- type errors


def test_declaration_type_mismatch(tmp_path):
    src = in_setup('number x = "a";\nlog(x);')
    assert found(tmp_path, src) == [E(src, '"a"', "cannot initialize 'x' of type number with string")]


def test_assignment_type_mismatch(tmp_path):
    src = in_setup("number x = 1;\nx = true;\nlog(x);")
    assert found(tmp_path, src) == [E(src, "true", "cannot assign to number a bool")]


def test_assignment_has_no_value(tmp_path):
    src = in_setup("number x = 1;\nif (x = 2) { }\nnumber y = x = 3;\nlog(y + x);")
    assert found(tmp_path, src) == [
        E(src, "x = 2", "the condition of 'if' must be a bool, not void"),
        E(src, "x = 3", "cannot initialize 'y' of type number with void"),
    ]


def test_return_type_mismatch(tmp_path):
    src = PRELUDE + 'function F { returns number; effect { return "s"; } }\n'
    assert found(tmp_path, src) == [E(src, '"s"', "must return number, not string")]


def test_missing_return_value(tmp_path):
    src = PRELUDE + "function G { returns number; effect { return; } }\n"
    assert found(tmp_path, src) == [E(src, "return;", "missing return value: the function returns number")]


def test_override_inherits_the_return_type(tmp_path):
    src = PRELUDE + (
        "class C { function f { returns number; effect { return 1; } } }\n"
        'class D : C { override function f { effect { return "s"; } } }\n'
    )
    assert found(tmp_path, src) == [E(src, '"s"', "must return number, not string")]


def test_arithmetic_operands(tmp_path):
    src = in_setup('log("a" - 1);\nlog(true * 2);\nlog(-"s");\nlog("a" + 1);\nlog(player.active() + 1);')
    assert found(tmp_path, src) == [
        E(src, '"a" - 1', "'-' needs numbers, not string and number"),
        E(src, "true * 2", "'*' needs numbers, not bool and number"),
        E(src, '-"s"', "unary '-' needs a number, not string"),
    ]


def test_comparison_operands(tmp_path):
    src = in_setup('log(true < 1);\nlog("a" < "b");\nlog(1 >= 2);\nlog("a" > 1);')
    assert found(tmp_path, src) == [
        E(src, "true < 1", "'<' needs two numbers or two strings, not bool and number"),
        E(src, '"a" > 1', "'>' needs two numbers or two strings, not string and number"),
    ]


def test_logical_operands(tmp_path):
    src = in_setup("log(1 && true);\nlog(!3);\nlog(true | false);")
    assert found(tmp_path, src) == [
        E(src, "1 &&", "'&&' needs bool operands, not number"),
        E(src, "!3", "'!' needs a bool, not number"),
    ]


def test_equality_between_unrelated_classes(tmp_path):
    src = PRELUDE + (
        "class A { } class B { } class D : A { }\n"
        "function G { function input A a; function input B b; function input D d; returns bool;\n"
        "effect { log(a == d); log(a != null); log(1 == \"1\"); return a == b; } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, '1 == "1"', "cannot compare number with string"),
        E(src, "a == b", "cannot compare A with B"),
    ]


def test_winner_of_a_string(tmp_path):
    src = in_setup('winner "x";')
    assert found(tmp_path, src) == [E(src, '"x"', "winner takes a player or a ranking List<List<player>>, not string")]


def test_winner_of_null(tmp_path):
    src = in_setup("winner null;")
    assert found(tmp_path, src) == [E(src, "null", "winner takes a player or a ranking List<List<player>>, not null")]


def test_winner_with_a_ranking_init_list_is_fine(tmp_path):
    src = in_setup("winner {{0,1}};")
    assert found(tmp_path, src) == []


def test_winner_with_a_flat_init_list_is_one_error_showing_both_readings(tmp_path):
    """A designer's `winner {0, 1};` for a draw said 'holds List<player>, not number' twice."""
    src = in_setup("winner {0, 1};")
    assert found(tmp_path, src) == [E(src, "{0, 1}", "a ranking lists places, each a list of players")]
    (diag,) = check(tmp_path, src)
    assert diag.notes == ("for a tie write 'winner {{0, 1}};', for places in this order 'winner {{0}, {1}};'",)


def test_winner_with_a_flat_init_list_of_other_values_says_their_type(tmp_path):
    src = in_setup("winner {true};")
    assert found(tmp_path, src) == [E(src, "true", "a List<List<player>> holds List<player>, not bool")]


def test_conditions_must_be_bool(tmp_path):
    src = in_setup('if (1) { }\nwhile ("s") { }\nfor (;2;) { }\nif (null) { }')
    assert found(tmp_path, src) == [
        E(src, "1)", "the condition of 'if' must be a bool, not number"),
        E(src, '"s"', "the condition of 'while' must be a bool, not string"),
        E(src, "2;)", "the condition of 'for' must be a bool, not number"),
        E(src, "null", "the condition of 'if' must be a bool, not null"),
    ]


def test_power_on_mixed_types(tmp_path):
    src = in_setup("log(2 ^ true);\nlog(2 ^ 3);\nlog(true ^ false);\nlog(\"a\" ^ \"b\");")
    assert found(tmp_path, src) == [
        E(src, "2 ^ true", "'^' needs two numbers (power) or two bools (xor), not number and bool"),
        E(src, '"a" ^ "b"', "'^' needs two numbers (power) or two bools (xor), not string and string"),
    ]


def test_cast_to_an_unrelated_class(tmp_path):
    src = PRELUDE + (
        "class A { } class B { } class D : A { }\n"
        "function F { function input A a; returns; effect { log(a as B); log(a as D); log(a as A); log(1 as B); } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "a as B", "cannot convert A to B"),
        E(src, "1 as B", "cannot convert number to B"),
    ]


def test_type_test_that_is_never_true(tmp_path):
    src = PRELUDE + (
        "class A { } class B { } class D : A { }\n"
        "function F { function input A a; returns; effect { log(a is B); log(a is D); } }\n"
    )
    assert found(tmp_path, src) == [W(src, "a is B", "a A is never a B: this test is always false")]


def test_types_are_not_values(tmp_path):
    src = in_setup("log(number);")
    assert found(tmp_path, src) == [E(src, "number", "'number' is a type, not a value")]


def test_reserved_words_cannot_name_declarations(tmp_path):
    src = in_setup("number auto = 1;\nlog(auto);", "class C { number optional = 1; function f { function input number is; returns; } }\n")
    assert found(tmp_path, src) == [
        E(src, "auto", "'auto' is a reserved word and cannot be used as a name"),
        E(src, "optional", "'optional' is a reserved word and cannot be used as a name"),
        E(src, "is;", "'is' is a reserved word and cannot be used as a name"),
    ]


def test_group_index_must_be_a_number(tmp_path):
    src = in_setup('B b = new B();\nlog(b.G["x"]);\nlog(b.G[0][0]);', "tile T { }\nboard B { group G { geometry square; grid { T; } } }\n")
    assert found(tmp_path, src) == [E(src, '"x"', "a group index must be a number, not string")]


def test_init_list_where_no_type_is_known(tmp_path):
    src = in_setup("number x = 0;\nx += {1};\nlog(x);", "class D { action A { effect { return {1}; } } }\n")
    # `return {1};` in an effect gets one error, not a second one about the list
    assert found(tmp_path, src) == [
        E(src, "{1}", "an initializer list needs a declared type here"),
        E(src, "return {1};", "an effect cannot return a value"),
    ]


def test_new_of_a_global_class(tmp_path):
    src = in_setup("log(new G());", "global class G { }\n")
    assert found(tmp_path, src) == [E(src, "new G()", "global class 'G' has a single instance: use G directly")]


def test_new_of_a_primitive_and_of_a_group(tmp_path):
    src = in_setup("log(new number());\nlog(new Group());\nlog(new List<number>());")
    assert found(tmp_path, src) == [
        E(src, "new number()", "'new' makes objects, not number values"),
        E(src, "new Group()", "groups are defined inside a board, not created with new"),
    ]


def test_assigning_read_only_builtins(tmp_path):
    src = PRELUDE + (
        "tile T { }\n"
        "interactable I { function f { function input T t; returns; effect {\n"
        "this.tile = t; this.player = 0; this.discarded = true;\n"
        "} } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "tile = t", "'tile' is read-only; use move_to(tile)"),
        E(src, "player = 0", "'player' is read-only; use assign(player)"),
        E(src, "discarded", "'discarded' is read-only"),
    ]


def test_read_only_builtins_by_bare_name(tmp_path):
    src = PRELUDE + (
        "class C { function f { returns; effect { player = 1; } } }\n"
        "tile T { function g { returns; effect { group = null; } } }\n"
        "interactable I { function g { returns; effect { tile = null; discarded = true; } } }\n"
        "stack S { returns I; function h { returns; effect { length = 1; discard_stack = null; } } }\n"
        "board B { function h { returns; effect { groups = null; this.groups = null; } } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "player = 1", "'player' is read-only; use assign(player)"),
        E(src, "group = null", "'group' is read-only"),
        E(src, "tile = null", "'tile' is read-only; use move_to(tile)"),
        E(src, "discarded", "'discarded' is read-only"),
        E(src, "length = 1", "'length' is read-only"),
        E(src, "discard_stack", "'discard_stack' is read-only"),
        E(src, "groups = null", "'groups' is read-only"),
        E(src, "groups = null", "'groups' is read-only", 2),
    ]


def test_declared_attributes_named_like_builtins_are_writable(tmp_path):
    src = in_setup(
        'C c = new C();\nc.name = "x";\nc.tile = null;\nc.length = 2;\nList<number> l = {};\nl.length = 3;\nname = 1;',
        'class C { string name = ""; Tile tile = null; number length = 0;\n'
        'function f { returns; effect { name = "y"; tile = null; length = 1; } } }\n',
    )
    # only the collection's length is read-only, and an undefined name is reported once
    assert found(tmp_path, src) == [
        E(src, "length = 3", "'length' is read-only"),
        E(src, "name = 1", "undefined name 'name'"),
    ]


def test_assigning_a_function(tmp_path):
    src = PRELUDE + "class C { function f { returns; effect { this.f = 1; } } }\n"
    assert found(tmp_path, src) == [E(src, "this.f", "cannot assign to function f")]


def test_assigning_things_that_are_not_variables(tmp_path):
    src = in_setup(
        "turn = 1;\nG = null;\nlog = 1;\nturn.use = 2;\n1 = 2;",
        "global class G { }\n",
    )
    assert found(tmp_path, src) == [
        E(src, "turn = 1", "cannot assign to 'turn'"),
        E(src, "G = null", "cannot assign to 'G'"),
        E(src, "log = 1", "cannot assign to 'log'"),
        E(src, "turn.use", "cannot assign to builtin turn.use"),
        E(src, "1 = 2", "cannot assign to this expression"),
    ]


def test_compound_assignment_operands(tmp_path):
    src = in_setup('string s = "";\ns += 1;\nbool b = true;\nb += 1;\nnumber n = 0;\nn -= "x";\nlog(s + b + n);')
    assert found(tmp_path, src) == [
        E(src, "b += 1", "'+=' needs numbers, not bool and number"),
        E(src, 'n -= "x"', "'-=' needs numbers, not number and string"),
    ]


def test_table_init_lists(tmp_path):
    src = in_setup(
        'Table<number> t = {{"a", 1}, {"b", 2}};\n'
        'Table<number> u = {{"a", "x"}, 3, {1}, {null, 1}};\n'
        "log(t);\nlog(u);"
    )
    assert found(tmp_path, src) == [
        E(src, '"x"', "a Table<number> holds number, not string"),
        E(src, "3,", "a table entry is written {key, value}"),
        E(src, "{1}", "a table entry is written {key, value}"),
        E(src, "null", "a table key cannot be null"),
    ]


def test_table_keys_are_values_or_objects(tmp_path):
    """A list, table or stack cannot name a table's entry: checked, not left to the runtime (where the fuzzer
    found `tiles[tiles][y]` in Tris's WinCheck phase raising a TypeError)."""
    src = in_setup(
        "Table<number> t = {};\nList<number> l = {1};\nTable<number> u = {{l, 1}};\n"
        "t[l] = 1;\nlog(t.contains(l));\nlog(t[u]);\nt[1] = 2;\nlog(t.contains(\"a\"));"
    )
    table_key = "a table key is a number, string, bool, player or object, not "
    assert found(tmp_path, src) == [
        E(src, "l, 1", table_key + "List<number>"),
        E(src, "l] = 1", table_key + "List<number>"),
        E(src, "l));", table_key + "List<number>"),
        E(src, "u]", table_key + "Table<number>"),
    ]


def test_init_lists_need_a_collection_or_deck(tmp_path):
    src = in_setup(
        "number x = {1};\nList<string> l = {1};\nDeck d = new Deck() { 1 };\nlog(x);\nlog(l);\nlog(d);",
        "interactable Card { }\nstack Deck { returns Card; }\n",
    )
    assert found(tmp_path, src) == [
        E(src, "{1};", "an initializer list cannot make a number"),
        E(src, "1};\nDeck", "a List<string> holds string, not number"),
        E(src, "1 }", "a Deck holds Card, not number"),
    ]


def test_indexing(tmp_path):
    src = in_setup(
        'List<number> l = {1};\nStack<number> s = {};\nnumber n = 1;\nlog(l["a"]);\nlog(s[0]);\nlog(n[0]);'
    )
    assert found(tmp_path, src) == [
        E(src, '"a"', "a list index must be a number, not string"),
        E(src, "s[0]", "a Stack cannot be indexed; use pop() or pop_front()"),
        E(src, "n[0]", "number cannot be indexed"),
    ]


def test_attribute_value_and_prio_types(tmp_path):
    src = PRELUDE + 'class C { attribute b { returns number; value "s"; } action A { prio "x"; } }\n'
    assert found(tmp_path, src) == [
        E(src, '"s"', "attribute 'b' is number, and its value is string"),
        E(src, '"x"', "'prio' needs a number, not string"),
    ]


def test_players_directive_values(tmp_path):
    assert found(tmp_path, 'game "t"; players 0; setup { }\n') == [(1, 19, "error", "a game needs at least one player")]
    assert found(tmp_path, 'game "t"; players "x"; setup { }\n') == [(1, 19, "error", "'players' needs a number, not string")]
    assert found(tmp_path, 'game "t"; players 2.5; setup { }\n') == [(1, 19, "warning", "'players 2.5' is truncated to 2")]


def test_member_access_on_a_class_that_is_not_global(tmp_path):
    src = in_setup("C.x = 1;", "class C { number x = 0; }\n")
    assert found(tmp_path, src) == [E(src, "C.x", "class 'C' is not a value (only global classes are); use an instance")]


def test_member_access_on_null(tmp_path):
    src = in_setup("log(null.x);")
    assert found(tmp_path, src) == [E(src, "null", "member access on null")]


def test_event_variable_in_triggers_and_effects(tmp_path):
    src = PRELUDE + (
        "event E { number n = 0; }\n"
        "class C { action A { trigger E { return event.n > 0; } effect { log(event.n); log(event.m); } } }\n"
        "class D { action B { effect { log(event.n); } } }\n"
    )
    assert found(tmp_path, src) == [
        E(src, "m)", "E has no member 'm'"),
        E(src, "n); } } }\n", "'event' has no function 'n'; expected throw or throw_sync"),
    ]


# -------------------------------------------------------------------- groups


def test_group_without_geometry(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { grid { T; } } }\n"
    assert found(tmp_path, src) == [E(src, "G", "group 'G' needs a geometry: square, hex or graph")]


def test_group_with_an_unknown_geometry(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { geometry circle; grid { T; } } }\n"
    assert found(tmp_path, src) == [E(src, "geometry circle", "unknown geometry 'circle'; expected square, hex or graph")]


def test_hex_group_without_orientation(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { geometry hex; grid { T; } } }\n"
    assert found(tmp_path, src) == [E(src, "G", "hex group 'G' needs 'orientation row;' or 'orientation col;'")]


def test_hex_group_with_an_unknown_orientation(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { geometry hex; orientation diagonal; grid { T; } } }\n"
    assert found(tmp_path, src) == [E(src, "orientation", "unknown orientation 'diagonal'; expected row or col")]


def test_orientation_on_a_square_group(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { geometry square; orientation row; grid { T; } } }\n"
    assert found(tmp_path, src) == [E(src, "orientation row;", "'orientation' applies to hex groups only")]


def test_grid_in_a_graph_group(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { geometry graph; grid { T; } } }\n"
    assert found(tmp_path, src) == [
        E(src, "grid", "a graph group has no grid: build its tiles and connections in 'default'")
    ]


def test_ragged_grid_rows(tmp_path):
    src = PRELUDE + "tile T { }\nboard B { group G { geometry square; grid {\nT, T;\nT;\nT, T, T;\n} } }\n"
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.span.end_line, d.span.end_col, d.message) for d in diags] == [
        (5, 1, 5, 2, "grid row 2 has 1 tile but row 1 has 2; pad rows with blank tiles 'b'"),
        (6, 1, 6, 8, "grid row 3 has 3 tiles but row 1 has 2; pad rows with blank tiles 'b'"),
    ]


def test_empty_groups_are_warned_about(tmp_path):
    src = PRELUDE + "board B { group G { geometry square; } group H { geometry graph; } }\n"
    assert found(tmp_path, src) == [
        W(src, "G", "group 'G' has neither a grid nor a default block: it is empty"),
        W(src, "H", "group 'H' has neither a grid nor a default block: it is empty"),
    ]


# -------------------------------------------------------------------- stacks


def test_stack_without_returns(tmp_path):
    src = PRELUDE + "stack S { }\n"
    assert found(tmp_path, src) == [E(src, "S", "stack 'S' needs 'returns <interactable>;': the type of its cards")]


def test_stack_returning_a_non_interactable(tmp_path):
    src = PRELUDE + "class C { }\nstack S { returns C; }\nstack N { returns number; }\nstack L { returns List<C>; }\n"
    assert found(tmp_path, src) == [
        E(src, "C;", "a stack holds interactables, and 'C' is a class"),
        E(src, "number;", "a stack holds interactables, not number"),
        E(src, "List<C>", "a stack holds interactables, not List<C>"),
    ]


def test_derived_stack_inherits_its_card_type(tmp_path):
    src = in_setup("Card c = new Big().pop();\nlog(c);", "interactable Card { }\nstack S { returns Card; }\nstack Big : S { }\n")
    assert found(tmp_path, src) == []


# --------------------------------------------------------------- inheritance


def test_inheritance_cycle(tmp_path):
    src = PRELUDE + "class A : B { }\nclass B : A { }\n"
    assert found(tmp_path, src) == [E(src, "B", "inheritance cycle: A -> B -> A")]


def test_class_deriving_from_itself(tmp_path):
    src = PRELUDE + "class A : A { }\n"
    assert found(tmp_path, src) == [E(src, "A {", "inheritance cycle: A -> A")]


def test_tile_deriving_from_a_class(tmp_path):
    src = PRELUDE + "class C { }\ntile T : C { }\nclass D : Tile { }\n"
    assert found(tmp_path, src) == [
        E(src, "C {", "a tile cannot derive from class 'C'", 2),
        E(src, "Tile", "a class cannot derive from tile 'Tile'"),
    ]


def test_upcasts_are_implicit_and_downcasts_are_not(tmp_path):
    src = PRELUDE + (
        "class A { } class D : A { }\n"
        "function F { function input D d; function input A a; returns; effect { A x = d; D y = a; log(x); log(y); } }\n"
    )
    assert found(tmp_path, src) == [E(src, "a;", "cannot initialize 'y' of type D with A", 2)]


# ------------------------------------------------------------------- warnings


def test_unused_variable(tmp_path):
    src = in_setup("number x = 1;\nnumber y = 2;\nlog(y);")
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.span.end_col, d.severity.value, d.message) for d in diags] == [
        (5, 8, 9, "warning", "variable 'x' is never used"),
    ]
    assert load_program(tmp_path / "main.tgpl").ok  # warnings alone are no error


def test_unused_inputs_are_not_warned_about_but_for_variables_are(tmp_path):
    src = in_setup("input number x;\nfor (number i = 0; ; ) { break; }\nfor (number j = 0; j < 2; ) { break; }")
    assert found(tmp_path, src) == [W(src, "i = 0", "variable 'i' is never used")]


def test_unreachable_code_after_return(tmp_path):
    src = PRELUDE + "function F { returns number; effect { return 1; log(\"x\"); log(\"y\"); } }\n"
    # one warning, at the first unreachable statement
    assert found(tmp_path, src) == [W(src, 'log("x");', "unreachable code")]


def test_unreachable_code_after_break_and_winner(tmp_path):
    src = in_setup("while (true) { break; log(1); }\nwinner 0;\nlog(2);")
    assert found(tmp_path, src) == [
        W(src, "log(1);", "unreachable code"),
        W(src, "log(2);", "unreachable code"),
    ]


def test_unreachable_after_if_else_that_both_return(tmp_path):
    src = PRELUDE + "function F { returns number; effect { if (true) { return 1; } else { return 2; } log(3); } }\n"
    assert found(tmp_path, src) == [W(src, "log(3);", "unreachable code")]


def test_expression_statement_whose_value_is_unused(tmp_path):
    src = in_setup("number x = 1;\nx + 2;\nx;\nx == 1;\nlog(x);\nnew C();", "class C { }\n")
    assert found(tmp_path, src) == [
        W(src, "x + 2;", "the value of this expression is never used"),
        W(src, "x;\n", "the value of this expression is never used"),
        W(src, "x == 1;", "the value of this expression is never used"),
    ]


def test_function_that_can_end_without_returning_a_value(tmp_path):
    src = PRELUDE + "function G { returns number; effect { if (true) { return 1; } } }\n"
    # at the closing brace of the effect
    assert found(tmp_path, src) == [
        W(src, "} }\n", "function 'G' can end without returning a value (it then returns null)")
    ]


def test_functions_returning_on_every_path_are_not_warned_about(tmp_path):
    src = PRELUDE + (
        "function F { returns number; effect { if (true) { return 1; } else if (false) { return 2; } else { return 3; } } }\n"
        "function G { returns; effect { } }\n"
        "function H { returns number; effect { { return 1; } } }\n"
    )
    assert found(tmp_path, src) == []


# ------------------------------------------------- several errors in one run


def test_all_errors_of_a_file_are_reported_sorted(tmp_path):
    src = (
        'game "t";\n'
        "players 2;\n"
        "function F { returns number; effect { return \"s\"; } }\n"
        "setup\n"
        "{\n"
        "    log(nope);\n"
        "}\n"
        "class C : Missing { }\n"
    )
    diags = check(tmp_path, src)
    assert [(d.span.line, d.span.col, d.message) for d in diags] == [
        (3, 46, "must return number, not string"),
        (6, 9, "undefined name 'nope'"),
        (8, 11, "unknown base class 'Missing'"),
    ]
    assert all(d.is_error and d.span.file == "main.tgpl" for d in diags)


def test_errors_on_one_line_are_sorted_by_column(tmp_path):
    src = in_setup("log(a + b + c);")
    assert found(tmp_path, src) == [
        E(src, "a +", "undefined name 'a'"),
        E(src, "b +", "undefined name 'b'"),
        E(src, "c)", "undefined name 'c'"),
    ]


def test_syntax_and_checker_errors_together(tmp_path):
    src = in_setup("number x = 1\nlog(x + y);")
    assert found(tmp_path, src) == [
        (5, 13, "error", "expected ';' before identifier 'log'"),
        E(src, "y)", "undefined name 'y'"),
    ]


def test_diagnostics_carry_end_positions(tmp_path):
    src = in_setup("log(undefinedName);")
    (d,) = check(tmp_path, src)
    assert (d.span.line, d.span.col, d.span.end_line, d.span.end_col) == (5, 5, 5, 18)


# ---------------------------------------------------------------- file text


def test_a_byte_order_mark_is_ignored(tmp_path):
    (tmp_path / "bom.tgpl").write_bytes(b"\xef\xbb\xbf" + b'game "t"; players 2; setup { log(x); }\n')
    diags = load_program(tmp_path / "bom.tgpl").diagnostics
    assert [(d.span.line, d.span.col, d.message) for d in diags] == [(1, 34, "undefined name 'x'")]


def test_crlf_line_endings_keep_positions(tmp_path):
    src = in_setup("    log(nope);").replace("\n", "\r\n")
    (tmp_path / "crlf.tgpl").write_bytes(src.encode("utf-8"))
    diags = load_program(tmp_path / "crlf.tgpl").diagnostics
    assert [(d.span.line, d.span.col, d.span.end_col, d.message) for d in diags] == [(5, 9, 13, "undefined name 'nope'")]


def test_columns_count_characters_not_bytes(tmp_path):
    src = in_setup('string città = "è";\nlog(città + nope);')
    assert found(tmp_path, src) == [E(src, "nope", "undefined name 'nope'")]
    assert at(src, "nope")[1] == 13  # 14 if bytes were counted


# ------------------------------------------------------- the thesis listing


def thesis(tmp_path, name):
    program = load_program(ROOT / "tests" / "data" / name)
    return [(d.span.line, d.span.col, d.severity.value, d.message) for d in program.diagnostics]


def test_tris_thesis_listing_verbatim(tmp_path):
    assert thesis(tmp_path, "tris_thesis.tgpl") == [
        (14, 47, "error", "expected ';' before identifier 'firstState'"),
        (18, 17, "warning", "variable 'secondState' is never used"),
        (18, 48, "error", "expected ';' before identifier 'firstState'"),
        (39, 24, "error", "expected ';' before 'effect'"),
        (72, 1, "error", "unexpected identifier 'PlayerState' at top level: expected a directive or a definition"),
    ]


def test_tris_thesis_listing_joined(tmp_path):
    assert thesis(tmp_path, "tris_thesis_joined.tgpl") == [
        (14, 47, "error", "expected ';' before identifier 'firstState'"),
        (18, 17, "warning", "variable 'secondState' is never used"),
        (18, 48, "error", "expected ';' before identifier 'firstState'"),
        (39, 24, "error", "expected ';' before 'effect'"),
        (68, 27, "error", "undefined name 'none'; did you mean 'null'?"),
        (69, 24, "error", "expected ';' before ':'"),
    ]


def test_a_csharp_foreach_says_how_to_loop(tmp_path):
    """`foreach`, which C# designers write and TGPL does not have, is the first error, with the fix."""
    src = PRELUDE + ("class C { List<number> Xs = {}; function F { returns number; effect {\n"
                     "number n = 0; foreach (number x in Xs) { n += x; } return n; } } }\n")
    diags = check(tmp_path, src)
    first = min((d for d in diags if d.severity.name == "ERROR"), key=lambda d: (d.span.line, d.span.col))
    assert (first.span.line, first.span.col) == at(src, "foreach")
    assert first.message == "TGPL has no 'foreach' loop"
    assert "for (number i = 0; i < xs.length; i += 1)" in first.notes[0]
