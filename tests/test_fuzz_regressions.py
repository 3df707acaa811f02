"""Each crash class bench/fuzz.py found (issue 14), with its reproducer: a message and an exit status now.

Every case runs in-process and fast; none may raise, print a traceback, or give an
error about a source without its `file:line:col`.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import clingo
import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.frontend.parser import MAX_NESTING

ROOT = Path(__file__).resolve().parents[1]
TRIS = (ROOT / "examples" / "tris.tgpl").read_text(encoding="utf-8")
KIF = (ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8")
DECL = "PlayerState winnerState = null;"


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def write(name: str, text: str | bytes) -> str:
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        return name

    return write


def errors(text: str) -> list[str]:
    program = load_program("g.tgpl", text=text)
    return [f"{d.span.line}:{d.span.col}: {d.message}" for d in program.diagnostics if d.is_error]


# ---------------------------------------------------------------- numbers and players
@pytest.mark.parametrize("literal", ["1e999", "9" * 400, "1e16"])
def test_a_number_literal_past_two_to_the_53_is_a_located_error(literal):
    (message,) = errors(TRIS.replace("== 9", "== " + literal))
    assert message.startswith("114:43: number out of range: a number literal is at most 9007199254740992")


@pytest.mark.parametrize("index", ["1e999", "-1e999", "9" * 400])
def test_a_grid_index_too_large_to_be_a_number_is_the_literals_error_only(index):
    """bench/fuzz.py: `tiles[0][99...9]` read as infinity made the grid-index check fail with OverflowError."""
    read = "tiles[x][y] = GameState.Board.TrisGrid[x]"
    text = TRIS.replace(read + "[y]", f"{read}[{index}]")
    assert text != TRIS
    (message,) = errors(text)
    assert "number out of range: a number literal is at most 9007199254740992" in message


def test_the_largest_literal_checks():
    assert errors(TRIS.replace("== 9", "== 9007199254740992")) == []


@pytest.mark.parametrize("count,message", [
    ("1e26", "number out of range: a number literal is at most 9007199254740992 (2^53, the largest whole number "
             "a double holds exactly)"),
    ("10000000000", "too many players: a game has at most 64"),
    ("-99999", "a game needs at least one player"),
    ("2 ^ 2", "'players' needs a constant number, e.g. players 2; or players 4..7;"),
    ("1e15 * 1e15", "too many players: a game has at most 64"),
])
def test_player_counts_out_of_range_are_located_errors(count, message):
    assert errors(TRIS.replace("players 2;", f"players {count};")) == [f"8:9: {message}"]


def test_a_huge_player_count_is_refused_by_play_and_to_gdl_before_any_work(write):
    path = write("g.tgpl", TRIS.replace("players 2;", "players 10000000000;"))
    for args in (["play", path, "--players", "random"], ["to-gdl", path]):
        result = run(*args)
        assert result.exit_code == 2 and "g.tgpl:8:9: error: too many players" in result.output


# ---------------------------------------------------------------------------- nesting
@pytest.mark.parametrize("shape", [
    "== " + "(" * 482 + "9" + ")" * 482,  # RecursionError in the builder
    "== " + " + ".join(["1"] * 328),  # a flat sum: RecursionError in the checker
    "== 9" + " && true" * 3000,
    "== " + "-" * 5000 + "9",
])
def test_deep_expressions_are_a_located_error(shape):
    (message,) = errors(TRIS.replace("== 9", shape))
    assert f"nested too deeply: more than {MAX_NESTING} levels" in message


@pytest.mark.parametrize("block", ["if (true) {" * 1000 + "}" * 1000, "{" * 324 + "}" * 324])
def test_deep_blocks_are_a_located_error(block):
    (message,) = errors(TRIS.replace(DECL, DECL + block))
    assert "nested too deeply" in message


@pytest.mark.parametrize("deep", [
    "== " + " + ".join(["1"] * 100),
    "== " + "(" * 100 + "9" + ")" * 100,
])
def test_expressions_just_inside_the_limit_check_play_and_lower(write, deep):
    path = write("g.tgpl", TRIS.replace("== 9", deep))
    assert run("check", path).exit_code == 0
    assert run("play", path, "--players", "random,random", "--quiet").exit_code == 0
    assert run("to-gdl", path, "--no-validate", "--stats").exit_code == 0


@pytest.mark.parametrize("nest", [
    "while (false) {" * 50 + "}" * 50,  # Python: at most 20 nested loops in a function
    "for (number i = 0; i < 1; i += 1) {" * 50 + "}" * 50,
    "if (false) {} else " * 110 + "{}",  # Python: at most 100 levels of indentation
])
def test_statements_nested_deeper_than_python_allows_still_run(write, nest):
    path = write("g.tgpl", TRIS.replace(DECL, DECL + nest))
    assert run("play", path, "--players", "random,random", "--quiet").exit_code == 0


def test_break_and_continue_deep_inside_generated_loops_still_work(write):
    deep = "if (true) {" * 45  # deeper than the generated code goes: these run as closures
    code = (" number n = 0; while (n < 5) { n += 1; " + deep + "continue;" + "}" * 45 + " n += 100; }"
            " while (true) { " + deep + "break;" + "}" * 45 + " } if (n == 5) { winner 1; }")
    path = write("g.tgpl", TRIS.replace(DECL, DECL + code))
    assert run("play", path, "--players", "first,first", "--quiet").stdout == "winner: player 1\n"


def test_a_class_through_an_import_alias_used_as_a_value(write):
    """Found by bench/fuzz.py in a mutated cards.tgpl: an AttributeError in the checker."""
    (Path.cwd() / "lib").mkdir()
    (Path.cwd() / "lib" / "deck.tgpl").write_text((ROOT / "examples" / "lib" / "deck.tgpl").read_text(encoding="utf-8"),
                                                  encoding="utf-8")
    path = write("g.tgpl", 'import "lib/deck.tgpl" as Lib\nsetup\n{ Lib.NumberCard > Cards\n}\n')
    result = run("check", path)
    assert result.exit_code == 1 and "g.tgpl:3:3: error: class 'NumberCard' is not a value" in result.stderr


def test_a_literal_compared_with_null_prints_no_python_warning(write):
    """Found by bench/fuzz.py: the generated `3.0 is None` made Python print a SyntaxWarning."""
    path = write("g.tgpl", TRIS.replace("winnerState != null", "3 != null", 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run("play", path, "--players", "first,first", "--quiet")
    assert not [w for w in caught if issubclass(w.category, SyntaxWarning)]


# ---------------------------------------------------------------------------- sizes
def test_check_dev_zero_and_an_import_of_it(write):
    result = run("check", "/dev/zero")
    assert result.exit_code == 1 and "dev/zero': too large: more than 1,000,000 bytes" in result.output
    path = write("g.tgpl", 'import "/dev/zero";\n' + TRIS)
    result = run("check", path)
    assert result.exit_code == 1 and "g.tgpl:1:8: error: cannot import '" in result.output
    assert "dev/zero': too large" in result.output


def test_a_source_past_a_megabyte_is_refused_unread(write):
    path = write("g.tgpl", TRIS + "// " + "x" * 1_000_000)
    assert "too large: more than 1,000,000 bytes" in run("check", path).output


def test_a_string_doubled_in_a_loop_is_a_runtime_error(write):
    path = write("g.tgpl", TRIS.replace(DECL, DECL + ' string s = "ab"; for (number i = 0; i < 40; i += 1) '
                                                    '{ s = s + s; } log(s);'))
    result = run("play", path, "--players", "random", "--quiet")
    assert result.exit_code == 1 and "runtime error: a string longer than 1000000 characters" in result.stderr
    assert result.stderr.startswith("g.tgpl:70:")


def test_a_number_past_the_doubles_is_a_runtime_error(write):
    path = write("g.tgpl", TRIS.replace(DECL, DECL + " number x = 9007199254740992; x = x ^ 100;"))
    result = run("play", path, "--players", "random", "--quiet")
    assert result.exit_code == 1 and "number too large" in result.stderr


def test_an_infinity_used_as_a_player_is_a_located_runtime_error(write):
    path = write("g.tgpl", TRIS.replace(DECL, DECL + " number x = 9007199254740992; for (number i = 0; i < 20; "
                                                    "i += 1) { x = x * x; } player p = x; log(p);"))
    result = run("play", path, "--players", "first,first", "--quiet")
    assert result.exit_code == 1
    assert result.stderr.startswith("g.tgpl:57:5: runtime error: a number grew past the doubles (to infinity)")


# ----------------------------------------------------------------------- runaways
def test_an_endless_loop_stops_at_the_default_step_limit_with_its_location(write):
    path = write("g.tgpl", TRIS.replace(DECL, DECL + " while (true) { }"))
    result = run("play", path, "--players", "random", "--quiet")
    assert result.exit_code == 1
    assert result.stderr.startswith("g.tgpl:70:41: runtime error: a loop ran past 100000 steps in one move")
    small = run("play", path, "--players", "random", "--quiet", "--max-steps", "10")
    assert "a loop ran past 10 steps" in small.stderr


def test_an_endless_cycle_of_turn_pass_is_reported_at_a_turn_pass(write):
    path = write("g.tgpl", 'game "c";\nplayers 2;\nsetup { turn.use("T"); turn.pass(0, "A"); }\n'
                           'turn T {\n    phase A { turn.pass(1, "B"); }\n    phase B { turn.pass(0, "A"); }\n}\n')
    result = run("play", path, "--players", "random", "--quiet")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == ("g.tgpl:6:15: runtime error: control passed 10000 times without "
                                             "waiting for a player: this turn.pass is part of a cycle of phases "
                                             "that never asks for a move")


def test_an_input_statement_without_candidates_is_a_runtime_error_not_a_crash(write):
    path = write("g.tgpl", TRIS.replace("GameState.TickedCount += 1;",
                                        "GameState.TickedCount += 1; input TickTile other { return false; }"))
    result = run("play", path, "--players", "first,first", "--quiet")
    assert result.exit_code == 1 and "runtime error: input 'other' has no candidate" in result.stderr


def test_a_loop_that_widens_its_conditions_each_pass_stops_at_the_work_budget(write, monkeypatch):
    """bench/fuzz.py's hex mutant: `pass += -1` never ends, and each pass widens `near`: 224 s and 3.5 GB to the
    statement budget, 14 s at the work budget (here a smaller one, which the unmutated game stays under)."""
    from tgpl.lowering import execute

    monkeypatch.setattr(execute, "WORK_LIMIT", 300_000)
    hex_source = (ROOT / "examples" / "hex.tgpl").read_text(encoding="utf-8")
    assert run("to-gdl", write("hex.tgpl", hex_source), "--no-validate", "--stats").exit_code == 0
    mutant = hex_source.replace("pass < Size; pass += 1", "pass < Size; pass += -1")
    assert mutant != hex_source
    result = run("to-gdl", write("hex.tgpl", mutant), "--no-validate", "--stats")
    loop = next(i for i, x in enumerate(mutant.splitlines(), 1) if "pass += -1" in x)
    assert result.exit_code == 2 and result.stderr.startswith("hex.tgpl:")
    assert loop < int(result.stderr.split(":")[1]) <= loop + 20  # at a statement of the loop's body
    assert "not lowerable: the lowering built conditions of more than 300,000 parts" in result.stderr


# ----------------------------------------------------------------------- options
def test_a_record_into_a_missing_folder_is_refused_before_the_game(write):
    result = run("play", "../" * 0 + str(ROOT / "examples" / "tris.tgpl"), "--players", "random",
                 "--record", "no/such/dir/r.json")
    assert result.exit_code == 2 and "the folder 'no/such/dir' does not exist" in result.output
    assert "player 0:" not in result.output  # not played


@pytest.mark.parametrize("args,message", [
    (["to-gdl", "{tris}", "-o", "no/such/t.kif"], "the folder 'no/such' does not exist"),
    (["to-asp", "{tris}", "-o", "no/such/t.lp"], "the folder 'no/such' does not exist"),
    (["to-gdl", "{tris}", "--players", "0"], "0 is not in the range x>=1"),
    (["to-gdl", "{tris}", "--players", "5"], "the game has 2 players, not 5"),
    (["to-gdl", "{tris}", "--players", "-1"], "-1 is not in the range x>=1"),
    (["verify", "{tris}", "--max-states", "-5"], "-5 is not in the range x>=1"),
    (["compare", "{tris}", "{tris}", "--max-states", "0"], "0 is not in the range x>=1"),
    (["query", "{tris}", "true", "--horizon", "-1"], "-1 is not in the range x>=0"),
    (["play", "{tris}", "--moves", "moves.txt"], "cannot read 'moves.txt': not valid UTF-8"),
])
def test_options_are_validated_before_the_work(write, args, message):
    write("moves.txt", b"\xff\xfe\n")
    result = run(*(a.replace("{tris}", str(ROOT / "examples" / "tris.tgpl")) for a in args))
    assert result.exit_code == 2 and message in result.output


# -------------------------------------------------------------------- moves typed
@pytest.mark.parametrize("typed", ["Tick(chosenTile: TrisGrid[0][0])", "PlayerState#0 . Tick ( chosenTile : TrisGrid[0][0] )",
                                   "PlayerState#0.Tick(chosenTile: TrisGrid[0][0]"])
def test_a_move_typed_without_its_object_or_with_spaces_resolves(write, typed):
    write("m.txt", typed + "\n")
    result = run("play", str(ROOT / "examples" / "tris.tgpl"), "--players", "first,first", "--moves", "m.txt")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "player 0: PlayerState#0.Tick(chosenTile: TrisGrid[0][0])"


def test_an_ambiguous_move_lists_the_moves_it_could_mean(write):
    write("m.txt", "Tick\n")
    result = run("play", str(ROOT / "examples" / "tris.tgpl"), "--players", "first,first", "--moves", "m.txt")
    assert result.exit_code == 1
    assert "illegal move 'Tick': ambiguous: it could be 9 legal moves: PlayerState#0.Tick(chosenTile: TrisGrid[0][0])" \
        in result.stderr


def test_a_bare_action_name_resolves_when_it_is_the_only_one(write):
    path = write("g.tgpl", 'game "p";\nplayers 2;\nsetup { PlayerState a = new PlayerState(); a.assign(0); '
                           'PlayerState b = new PlayerState(); b.assign(1); turn.use("T"); turn.pass(0, "P"); }\n'
                           'turn T { phase P { } default { turn.pass(player.active() + 1, "P"); } }\n'
                           'class PlayerState { action Take3 { trigger PlayerChoiceEvent { return true; } '
                           'effect { winner 0; } } }\n')
    write("m.txt", "Take3\n")
    result = run("play", path, "--players", "first,first", "--moves", "m.txt", "--quiet")
    assert result.exit_code == 0 and result.stdout == "winner: player 0\n"


# ------------------------------------------------------------------------ records
@pytest.fixture
def record(write):
    write("tris.tgpl", TRIS)
    assert run("play", "tris.tgpl", "--players", "random,random", "--seed", "2", "--record", "r.json",
               "--quiet").exit_code == 0
    return json.loads(Path("r.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(seed=float("inf")), "field 'seed': expected a whole number, not Infinity"),
    (lambda d: d.update(seed=10**30), "field 'seed': 1000000000000000000000000000000 is outside -2^64..2^64"),
    (lambda d: d["moves"][1].update(player=10**30), "move 2: field 'player': it is player 1's decision"),
    (lambda d: d["moves"][1].update(player="1"), "move 2: field 'player': expected a player number, not \"1\""),
    (lambda d: d["moves"][2].update(move=7), "move 3: field 'move': expected the move's text, not 7"),
    (lambda d: d["moves"][0].update(move="x"), "move 1: field 'move':"),
    (lambda d: d["moves"].__setitem__(0, "x"), "move 1: not an object with 'player' and 'move'"),
    (lambda d: d.pop("moves"), "field 'moves' is missing"),
    (lambda d: d.update(path=None), "field 'path': expected the game's path, not null"),
    (lambda d: d.update(source_digest="sha256:0"), "field 'source_digest': the game's source changed"),
    (lambda d: d.update(players=["random"] * 3), "field 'players': the record has 3 players"),
    (lambda d: d.update(log=[[[]]] * 2), "field 'log': expected a list of strings"),
    (lambda d: d.update(log=["made up"]), "field 'log': line 1 differs from the replay's log"),
    (lambda d: d.update(game="chess"), "field 'game': the record names 'chess', the game is 'tris'"),
    (lambda d: d.update(result=None), "field 'result': the replay ends with"),
])
def test_a_tampered_record_is_an_error_naming_the_move_and_field(record, change, message):
    change(record)
    Path("bad.json").write_text(json.dumps(record), encoding="utf-8")
    result = run("replay", "bad.json")
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert result.stderr.startswith("bad.json: error: ")


def test_a_record_nested_deeply_or_cut_short(record, write):
    write("deep.json", "[" * 100_000 + "]" * 100_000)
    assert "JSON nested too deeply" in run("replay", "deep.json").stderr
    write("cut.json", json.dumps(record)[:50])
    result = run("replay", "cut.json")
    assert result.exit_code == 1 and result.stderr.startswith("cut.json: error: not a tgpl game record: not JSON")


def test_replay_overrides_the_digest_only_when_asked(record):
    record["source_digest"] = "sha256:0"
    Path("bad.json").write_text(json.dumps(record), encoding="utf-8")
    assert run("replay", "bad.json", "--game", "tris.tgpl").exit_code == 1
    assert run("replay", "bad.json", "--game", "tris.tgpl", "--ignore-digest").exit_code == 0


# ---------------------------------------------------------------------------- GDL
@pytest.mark.parametrize("text,message", [
    (KIF.replace("(role oplayer)", "(role #$%^&*)"), "constant '#$%^&*' is not a KIF word"),
    (KIF.replace("(index 3)", "(index a\0b)"), "is not a KIF word"),
    (KIF + "\n(<= 42 (role ?x))\n", "'42' is a number and cannot name a relation"),
    (KIF + "\n(init (f " + "(g " * 10000 + "a" + ")" * 10000 + "))\n", "nested too deeply: more than 200 levels"),
    (KIF + "\n(<= (next (count ?y)) (true (count ?x)) (s ?x ?y))\n(<= (s ?x (f ?x)) (true (count ?x)))\n"
           "(init (count 0))\n", "terms can grow without bound"),
])
def test_check_gdl_refuses_malformed_gdl_with_a_location(write, text, message):
    write("g.kif", text)
    result = run("check-gdl", "g.kif")
    assert result.exit_code == 1 and message in result.stderr
    assert result.stderr.startswith("g.kif:") and result.stderr.split(":")[1].isdigit()


def test_verify_of_unbounded_gdl_is_refused_instead_of_grounding_for_ever(write):
    write("g.kif", KIF + "\n(<= (next (count (f ?x))) (true (count ?x)))\n(init (count 0))\n")
    result = run("verify", "g.kif", "--max-states", "10")
    assert result.exit_code == 2 and "terms can grow without bound" in result.stderr


def test_query_that_cannot_be_lowered_exits_2():
    result = run("query", str(ROOT / "examples" / "citadels" / "citadels.tgpl"), "true")
    assert result.exit_code == 2 and "not lowerable" in result.stderr


def test_compare_past_the_chance_outcomes_it_may_explore_exits_2():
    """Fuzzed: treasure's setup deals (random's first moves, decision 112) have more outcomes than a small
    --max-states; compare ended in a TooManyOutcomes traceback."""
    examples = ROOT / "examples"
    result = run("compare", str(examples / "treasure.tgpl"), str(examples / "gdl" / "tictactoe.kif"),
                 "--max-states", "3000")
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].endswith(
        "treasure.tgpl: error: more than 3000 outcomes of setup's deals: cannot explore every chance outcome "
        "(raise --max-states)"), result.stderr
    assert "Traceback" not in result.output


def test_a_gdl_file_past_a_megabyte_is_read(write):
    """GDL files are often written by `tgpl to-gdl` (five in a row: 4 MB): the 1 MB limit is for game sources."""
    path = write("big.kif", KIF + ("; " + "x" * 98 + "\n") * 11_000)
    result = run("check-gdl", path)
    assert result.exit_code == 0, result.output


# ------------------------------------------------------------------ ground size
BIG = KIF.replace("(index 3)", "\n".join(f"(index {i})" for i in range(3, 60)))  # bench/fuzz.py's 59 x 59 board
FRAME = BIG.splitlines().index("(<= (next (cell ?m ?n b))") + 1  # its 2 * 59^4 instances per disjunct


@pytest.fixture
def no_grounding(monkeypatch):
    """clingo's grounding cannot be interrupted: a refused game must never reach it."""
    def ground(*args, **kwargs):
        raise AssertionError("clingo grounded the game")

    monkeypatch.setattr(clingo.Control, "ground", ground)


@pytest.mark.parametrize("args,status", [
    (["check-gdl"], 1),
    (["check-gdl", "--json"], 1),
    (["verify", "--max-states", "2000"], 2),
    (["verify", "--horizon", "2"], 2),
    (["to-asp"], 2),
    (["compare", "g.kif"], 2),
])
def test_a_59_by_59_board_is_refused_at_its_frame_rule_before_grounding(write, no_grounding, args, status):
    write("g.kif", BIG)
    result = run(args[0], "g.kif", *args[1:])
    assert result.exit_code == status, result.output
    if "--json" in args:
        (d,) = json.loads(result.stdout)
        assert (d["file"], d["line"], d["column"], d["severity"]) == ("g.kif", FRAME, 1, "error")
        return
    assert result.stderr.startswith(f"g.kif:{FRAME}:1: error: this rule can have {4 * 59 ** 4:,} ground instances")
    assert "--max-ground" in result.stderr and result.stdout == ""


def test_max_ground_sets_the_limit_both_ways(write):
    path = write("g.kif", KIF.replace("(index 3)", "\n".join(f"(index {i})" for i in range(3, 11))))  # 10 x 10
    assert run("check-gdl", path).exit_code == 0
    refused = run("check-gdl", path, "--max-ground", "1000")
    assert refused.exit_code == 1 and "more than the 1,000 a game may have (--max-ground)" in refused.stderr
    assert run("verify", path, "--max-states", "5", "--max-ground", "1000").exit_code == 2
    assert run("verify", path, "--max-states", "5").exit_code == 0
    assert run("to-asp", path, "--max-ground", "1000").exit_code == 2


@pytest.mark.parametrize("args", [
    ["verify", "{tris}", "--horizon", "1", "--grounding", "once"],
    ["query", "{tris}", "true"],
])
def test_a_lowered_game_over_max_ground_is_refused_with_the_rule(write, no_grounding, args):
    tris = write("tris.tgpl", TRIS)
    result = run(*(a.replace("{tris}", tris) for a in args), "--max-ground", "10")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("tris.tgpl:1:1: error: ") and "note: the rule: (<= " in result.stderr


def test_a_lowered_game_over_max_ground_is_verified_state_by_state_within_a_horizon(write, no_grounding):
    """Unless --grounding once asks for the time-indexed encoding: nothing is grounded, nothing refused."""
    tris = write("tris.tgpl", TRIS)
    result = run("verify", tris, "--horizon", "1", "--max-ground", "10")
    assert result.exit_code == 0, result.output
    assert "searched state by state on the runtime" in result.stdout and "10 states examined" in result.stdout


def test_a_lowered_game_played_per_state_over_max_ground_is_refused_with_the_rule(write):
    """Played one state at a time, the first state is grounded with its rules counted and stopped past the
    limit (tgpl.asp.reasoner._Counter: the bound over-approximates a state, chess's compiled rules by 10^8);
    the game is then refused as before, at its largest rule."""
    tris = write("tris.tgpl", TRIS)
    result = run("verify", tris, "--engine", "clingo", "--max-states", "5", "--max-ground", "10")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("tris.tgpl:1:1: error: ") and "note: the rule: (<= " in result.stderr
