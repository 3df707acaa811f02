"""Import tests: path resolution, aliases, clashes, cycles, missing files.

Each test lays out a few files under a temporary directory (the working
directory during the test, so diagnostics name files relative to it) and
checks the diagnostics of `load_program` on the game file: file, line,
column, severity and message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.frontend.loader import Program, load_program


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def write(tmp_path: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def load(tmp_path: Path, files: dict[str, str], main: str = "main.tgpl") -> Program:
    write(tmp_path, files)
    return load_program(tmp_path / main)


def found(program: Program) -> list[tuple]:
    return [(d.span.file, d.span.line, d.span.col, d.severity.value, d.message) for d in program.diagnostics]


def game(*imports: str, body: str = "", rest: str = "") -> str:
    """A game file: `game`, the import lines (lines 2..), players, setup { body }, rest."""
    lines = ['game "t";', *imports, "players 2;", "setup", "{", body, "}"]
    return "\n".join(lines) + "\n" + rest


# ------------------------------------------------------------- resolution


def test_paths_are_relative_to_the_importing_file(tmp_path):
    program = load(
        tmp_path,
        {
            "game/main.tgpl": game('import "lib/cards.tgpl";', body="Card c = new Card();\nlog(c.Rule());"),
            "game/lib/cards.tgpl": 'import "rules.tgpl";\ninteractable Card { function Rule { returns number; effect { return Base(); } } }\n',
            "game/lib/rules.tgpl": "function Base { returns number; effect { return 1; } }\n",
            # a decoy next to the game file: lib/cards.tgpl must not read it
            "game/rules.tgpl": "this is not TGPL at all\n",
        },
        main="game/main.tgpl",
    )
    assert found(program) == []
    assert sorted(program.sources) == ["game/lib/cards.tgpl", "game/lib/rules.tgpl", "game/main.tgpl"]
    assert program.main == "game/main.tgpl"
    assert [m.path for m in program.modules] == ["game/lib/rules.tgpl", "game/lib/cards.tgpl", "game/main.tgpl"]


def test_parent_directory_imports(tmp_path):
    program = load(
        tmp_path,
        {
            "game/main.tgpl": game('import "../shared/util.tgpl";', body="log(Util());"),
            "shared/util.tgpl": "function Util { returns number; effect { return 1; } }\n",
        },
        main="game/main.tgpl",
    )
    assert found(program) == []


def test_diagnostics_in_imported_files_name_those_files(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "lib/bad.tgpl";'),
            "lib/bad.tgpl": "class Y { number a = ; }\nfunction f { returns number; effect { return \"s\"; } }\n",
        },
    )
    assert found(program) == [
        ("lib/bad.tgpl", 1, 22, "error", "unexpected ';', expected an expression"),
        ("lib/bad.tgpl", 2, 46, "error", "must return number, not string"),
    ]


# ------------------------------------------------------------------ aliases


LIB = """\
interactable Card { number Value = 0; }
stack Deck { returns Card; }
event Played { number n = 1; }
tile Cell { }
function f { function input number a; returns number; effect { return a + 1; } }
"""


def test_alias_names_types_classes_functions_events_and_tiles(tmp_path):
    main = game(
        'import "lib/cards.tgpl" as Lib;',
        body=(
            "Lib.Card c = new Lib.Card();\n"
            "Lib.Deck d = new Lib.Deck() { c };\n"
            "number n = Lib.f(a: 1) + c.Value;\n"
            "List<Lib.Card> cards = { d.pop() };\n"
            "log(n + cards.length);\n"
            "event.throw(new Lib.Played());"
        ),
        rest=(
            "interactable Special : Lib.Card { }\n"
            "class Hand { action Play { trigger Lib.Played { return event.n > 0; } effect { log(event.n); } } }\n"
            "board B { group G { geometry square; grid { Lib.Cell, b; } } }\n"
        ),
    )
    program = load(tmp_path, {"main.tgpl": main, "lib/cards.tgpl": LIB})
    assert found(program) == []


def test_alias_members_are_checked(tmp_path):
    main = game(
        'import "lib/cards.tgpl" as Lib;',
        body=(
            'string s = Lib.f(a: 1);\n'      # line 6
            'log(Lib.f(a: "x"));\n'          # line 7
            "Lib.nope();\n"                  # line 8
            "Lib.Nope x = null;\n"           # line 9
            "Lib y = null;\n"                # line 10
            "log(Lib);\n"                    # line 11
            "log(Lib.f(1));\n"               # line 12
            "log(s + x + y);"
        ),
    )
    program = load(tmp_path, {"main.tgpl": main, "lib/cards.tgpl": LIB})
    assert found(program) == [
        ("main.tgpl", 6, 12, "error", "cannot initialize 's' of type string with number"),
        ("main.tgpl", 7, 14, "error", "input 'a' of f must be number, not string"),
        ("main.tgpl", 8, 5, "error", "'lib/cards.tgpl' defines no 'nope'"),
        ("main.tgpl", 9, 1, "error", "unknown type 'Lib.Nope'"),
        ("main.tgpl", 10, 1, "error", "'Lib' is not a type"),
        ("main.tgpl", 11, 5, "error", "'Lib' is not a value"),
        ("main.tgpl", 12, 5, "error", "missing argument 'a' of function 'f'"),
        ("main.tgpl", 12, 11, "error", "arguments of function 'f' must be named, e.g. f(name: value)"),
    ]


def test_aliased_names_are_not_merged(tmp_path):
    main = game('import "lib/cards.tgpl" as Lib;', body="Card c = null;\nlog(c);\nlog(f(a: 1));")
    program = load(tmp_path, {"main.tgpl": main, "lib/cards.tgpl": LIB})
    assert found(program) == [
        ("main.tgpl", 6, 1, "error", "unknown type 'Card'"),
        ("main.tgpl", 8, 5, "error", "undefined name 'f'"),
    ]


def test_alias_resolves_to_the_file_its_own_importer_named(tmp_path):
    # sub/y.tgpl imports "x.tgpl" as Y: that is sub/x.tgpl, not the x.tgpl
    # next to the game file, even though both are written "x.tgpl".
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "x.tgpl" as X;', 'import "sub/y.tgpl";', body="log(X.foo() + g());"),
            "x.tgpl": "function foo { returns number; effect { return 1; } }\n",
            "sub/y.tgpl": 'import "x.tgpl" as Y;\nfunction g { returns number; effect { return Y.foo() + Y.bar(); } }\n',
            "sub/x.tgpl": "function bar { returns number; effect { return 2; } }\n",
        },
    )
    assert found(program) == [("sub/y.tgpl", 2, 48, "error", "'x.tgpl' defines no 'foo'")]


def test_alias_clashing_with_a_definition(tmp_path):
    main = game('import "lib/cards.tgpl" as Lib;', rest="class Lib { }\n")
    program = load(tmp_path, {"main.tgpl": main, "lib/cards.tgpl": LIB})
    assert found(program) == [
        ("main.tgpl", 2, 1, "error", "import alias 'Lib' clashes with the definition at main.tgpl:8:7"),
    ]


def test_aliases_are_not_transitive_but_plain_imports_are(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "b.tgpl";', body="D d = new D();\nlog(d);\nDD.D e = null;\nlog(e);\nlog(E2());"),
            "b.tgpl": 'import "d.tgpl";\nimport "e.tgpl" as DD;\n',
            "d.tgpl": "class D { }\n",
            "e.tgpl": "function E2 { returns number; effect { return 1; } }\n",
        },
    )
    assert found(program) == [
        ("main.tgpl", 8, 1, "error", "unknown type 'DD.D'"),
        ("main.tgpl", 10, 5, "error", "undefined name 'E2'"),
    ]


def test_duplicate_turn_across_an_aliased_import(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "t.tgpl" as T;', rest="turn Play { phase P { } }\n"),
            "t.tgpl": "turn Play { phase Q { } }\n",
        },
    )
    diags = program.diagnostics
    assert [(d.span.file, d.span.line, d.span.col, d.message, d.notes) for d in diags] == [
        ("main.tgpl", 8, 6, "duplicate turn 'Play'", ("first defined at t.tgpl:1:6",)),
    ]


# ------------------------------------------------------------------- clashes


def test_unaliased_import_clash_is_reported_at_the_import(tmp_path):
    program = load(
        tmp_path,
        {"main.tgpl": game('import "e.tgpl";', rest="class D { }\n"), "e.tgpl": "class D { }\n"},
    )
    diags = program.diagnostics
    assert [(d.span.file, d.span.line, d.span.col, d.span.end_col, d.message, d.notes) for d in diags] == [
        (
            "main.tgpl", 2, 1, 17,
            "'D' from 'e.tgpl' clashes with the definition at main.tgpl:8:7",
            ("import it with 'as' to keep both: import \"e.tgpl\" as Name;",),
        ),
    ]


def test_two_plain_imports_defining_the_same_name_clash(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "e.tgpl";', 'import "d.tgpl";'),
            "e.tgpl": "class D { }\n",
            "d.tgpl": "function D { returns; }\n",
        },
    )
    assert found(program) == [
        ("main.tgpl", 3, 1, "error", "'D' from 'd.tgpl' clashes with the definition at e.tgpl:1:7"),
    ]


def test_the_same_file_imported_twice_does_not_clash(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "d.tgpl";', 'import "./d.tgpl";', body="log(new D());"),
            "d.tgpl": "class D { }\n",
        },
    )
    assert found(program) == []
    assert len(program.modules) == 2


# -------------------------------------------------------------------- cycles


def test_import_cycle_is_reported_once_at_the_closing_import(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "a.tgpl";'),
            "a.tgpl": 'import "b.tgpl";\nclass A { }\n',
            "b.tgpl": 'import "a.tgpl";\nclass B { }\n',
        },
    )
    diags = program.diagnostics
    assert [(d.span.file, d.span.line, d.span.col, d.span.end_col, d.message) for d in diags] == [
        ("b.tgpl", 1, 8, 16, "import cycle: a.tgpl -> b.tgpl -> a.tgpl"),
    ]


def test_a_file_importing_itself(tmp_path):
    program = load(tmp_path, {"main.tgpl": game('import "main.tgpl";')})
    assert found(program) == [("main.tgpl", 2, 8, "error", "import cycle: main.tgpl -> main.tgpl")]


def test_diamond_import_is_fine_and_loads_the_shared_file_once(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "b.tgpl";', 'import "c.tgpl";', body="D d = new D();\nlog(d);\nlog(new B2());\nlog(new C2());"),
            "b.tgpl": 'import "d.tgpl";\nclass B2 { D Shared = null; }\n',
            "c.tgpl": 'import "d.tgpl";\nclass C2 { D Shared = null; }\n',
            "d.tgpl": "class D { }\n",
        },
    )
    assert found(program) == []
    assert [m.path for m in program.modules] == ["d.tgpl", "b.tgpl", "c.tgpl", "main.tgpl"]
    assert [c.name for c in program.classes].count("D") == 1


# ------------------------------------------------------------ missing files


def test_missing_imported_file_is_reported_at_the_path_string(tmp_path):
    program = load(tmp_path, {"main.tgpl": game('import "missing.tgpl";', body="log(1);")})
    diags = program.diagnostics
    assert [(d.span.file, d.span.line, d.span.col, d.span.end_col, d.message) for d in diags] == [
        ("main.tgpl", 2, 8, 22, "cannot import 'missing.tgpl': no such file or directory"),
    ]


def test_unreadable_imports(tmp_path):
    (tmp_path / "dir.tgpl").mkdir()
    (tmp_path / "bad.tgpl").write_bytes(b"\xff\xfe class")
    program = load(tmp_path, {"main.tgpl": game('import "dir.tgpl";', 'import "bad.tgpl";')})
    assert found(program) == [
        ("main.tgpl", 2, 8, "error", "cannot import 'dir.tgpl': is a directory"),
        ("main.tgpl", 3, 8, "error", "cannot import 'bad.tgpl': not valid UTF-8"),
    ]


def test_missing_game_file(tmp_path):
    program = load_program(tmp_path / "nope.tgpl")
    assert found(program) == [("nope.tgpl", 1, 1, "error", "cannot read 'nope.tgpl': no such file or directory")]
    assert not program.ok
    assert program.modules == []


# ------------------------------------------------- directives in imported files


def test_game_players_and_setup_belong_to_the_game_file(tmp_path):
    program = load(
        tmp_path,
        {"main.tgpl": game('import "lib.tgpl";'), "lib.tgpl": 'game "u";\nplayers 3;\nsetup { }\nclass Q { }\n'},
    )
    assert found(program) == [
        ("lib.tgpl", 1, 1, "error", "'game' belongs in the game file only, not in an imported file"),
        ("lib.tgpl", 2, 1, "error", "'players' belongs in the game file only"),
        ("lib.tgpl", 3, 1, "error", "'setup' belongs in the game file only"),
    ]


def test_imported_files_need_no_directives(tmp_path):
    program = load(tmp_path, {"main.tgpl": game('import "lib.tgpl";'), "lib.tgpl": "class Q { }\n"})
    assert found(program) == []


def test_imports_after_definitions_in_an_imported_file(tmp_path):
    program = load(
        tmp_path,
        {
            "main.tgpl": game('import "lib.tgpl";'),
            "lib.tgpl": 'class Q { }\nimport "other.tgpl";\n',
            "other.tgpl": "class O { }\n",
        },
    )
    assert found(program) == [("lib.tgpl", 2, 1, "error", "imports must come before every definition")]


def test_import_paths_that_cannot_name_a_file(tmp_path):
    # "\0" is a valid string escape but no valid path; "" names the directory itself
    program = load(tmp_path, {"main.tgpl": game('import "a\\0b.tgpl";', 'import "";')})
    assert found(program) == [
        ("main.tgpl", 2, 8, "error", "cannot import 'a\\0b.tgpl': invalid path"),
        ("main.tgpl", 3, 8, "error", "cannot import '.': is a directory"),
    ]


def test_symlink_loop_import(tmp_path):
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    program = load(tmp_path, {"main.tgpl": game('import "loop1";')})
    assert found(program) == [("main.tgpl", 2, 8, "error", "cannot import 'loop1': too many levels of symbolic links")]


def test_game_file_path_with_a_nul_byte(tmp_path):
    program = load_program("bad\0name.tgpl")
    assert found(program) == [("bad\\0name.tgpl", 1, 1, "error", "cannot read 'bad\\0name.tgpl': invalid path")]
