"""The reasoner's two modes, grounded once and grounded per state: the same games, and the large ones."""

from __future__ import annotations

import random
from pathlib import Path

import clingo
import pytest
from click.testing import CliRunner

from test_gdl_reasoner import PENNIES
from tgpl.asp.kif import read_kif
from tgpl.asp.estimate import rule_bounds
from tgpl.asp.per_state import MOVE_NOW, START, STATE_NOW, StateQueries, estimate_rules, query_rules
from tgpl.asp.reasoner import GdlError, GdlGame, GdlLoadError, IllegalMove, StateTooLarge, explore
from tgpl.asp.validate import validate
from tgpl.cli import main
from tgpl.lowering.ir import Atom, Const, Func, Program, Rule

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "examples" / "gdl" / "tictactoe.kif"
GAMES = sorted((ROOT / "examples" / "gdl").glob("*.kif")) + sorted((ROOT / "tests" / "data").glob("*.kif"))
NOOP = Const("noop")


def mark(m: int, n: int) -> Func:
    return Func("mark", (Const(str(m)), Const(str(n))))


def both(program) -> tuple[GdlGame, GdlGame]:
    once, per_state = GdlGame(program, "once"), GdlGame(program, "per-state")
    assert (once.mode, per_state.mode) == ("once", "per-state")
    return once, per_state


def step(state):
    """All that can be asked of a state, as comparable values (errors included)."""
    try:
        goals = state.goals
    except GdlError as e:
        goals = str(e)
    roles = state.game.roles
    return (state.fluents, state.is_terminal, goals, [state.legal_moves(r) for r in roles], state.legal_moves(),
            str(state))


def same_playouts(once: GdlGame, per_state: GdlGame, seeds: range, max_steps: int = 80) -> int:
    """Seeded random playouts in both modes, compared at every step; the steps compared."""
    steps = 0
    for seed in seeds:
        rng_once, rng_per_state = random.Random(seed), random.Random(seed)
        a, b = once.initial_state(), per_state.initial_state()
        for _ in range(max_steps):
            assert step(a) == step(b), f"seed {seed}, step {steps}"
            steps += 1
            if a.is_terminal or not a.legal_moves():
                break
            a = a.apply(rng_once.choice(a.legal_moves()))
            b = b.apply(rng_per_state.choice(b.legal_moves()))
    return steps


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_both_modes_play_the_hand_written_games_alike(path):
    once, per_state = both(read_kif(path.read_text(encoding="utf-8"), str(path)))
    assert same_playouts(once, per_state, range(8)) > 8


def test_both_modes_play_the_lowered_connect_four_alike():
    from tgpl.cli import _load_game
    from tgpl.pipeline import lower_game

    program = lower_game(_load_game(str(ROOT / "examples" / "connect4.tgpl"))).program
    once, per_state = both(program)
    assert same_playouts(once, per_state, range(3), max_steps=50) > 20


def test_explore_counts_the_same_in_both_modes():
    once, per_state = both(read_kif(TICTACTOE.read_text(encoding="utf-8")))
    expected = {"states": 5478, "terminal": 958, "complete": True, "transitions": 16167,
                "outcomes": {(100, 0): 626, (0, 100): 316, (50, 50): 16}}
    assert explore(once) == expected
    assert explore(per_state) == expected


def test_states_per_state_are_their_fluents():
    game = GdlGame.load(TICTACTOE, mode="per-state")
    s = game.initial_state()
    a = s.apply((mark(1, 1), NOOP)).apply((NOOP, mark(2, 2))).apply((mark(3, 3), NOOP))
    b = s.apply((mark(3, 3), NOOP)).apply((NOOP, mark(2, 2))).apply((mark(1, 1), NOOP))
    c = s.apply((mark(3, 3), NOOP)).apply((NOOP, mark(1, 1))).apply((mark(2, 2), NOOP))
    assert a == b and hash(a) == hash(b) and a.key() == b.key() and a != c
    assert all(isinstance(f, clingo.Symbol) for f in a.key())
    assert {str(f) for f in a.fluents} >= {"(cell 1 1 x)", "(cell 2 2 o)", "(cell 3 3 x)", "(control oplayer)"}


def test_auto_grounds_a_small_game_once_and_a_mode_must_exist():
    assert GdlGame.load(TICTACTOE).mode == "once"
    with pytest.raises(ValueError, match="no grounding mode 'lazy'"):
        GdlGame.load(TICTACTOE, mode="lazy")


# ---------------------------------------------------------------- errors, per state
ODD = """\
(role x-y)
(base (f 1st)) (base (f 007))
(input x-y (go-to 007))
(init (f 1st))
(<= (legal x-y (go-to 007)) (true (f 1st)))
(<= (next (f 007)) (does x-y (go-to 007)))
(<= terminal (true (f 007)))
(<= (goal x-y 100) (true (f 007)))
(<= (goal x-y 0) (true (f 1st)))
"""


@pytest.mark.parametrize("text", [PENNIES, ODD], ids=["simultaneous", "odd names"])
def test_both_modes_agree_on_simultaneous_moves_and_odd_names(text):
    once, per_state = both(read_kif(text))
    assert same_playouts(once, per_state, range(6)) >= 12
    assert explore(once) == explore(per_state)


@pytest.mark.parametrize("mode", ["once", "per-state"])
def test_errors_keep_their_messages_per_state(mode):
    game = GdlGame(read_kif(ODD.replace("(base (f 007))", "")), mode)  # not validated: play notices it
    with pytest.raises(GdlError, match=r"fluents not in base: \(f 007\)"):
        game.initial_state().apply(["(go-to 007)"])
    game = GdlGame(read_kif(ODD.replace("(input x-y (go-to 007))", "(input x-y stay)")), mode)
    with pytest.raises(GdlError, match=r"move \(go-to 007\) of x-y is not in input"):
        game.initial_state().apply(["(go-to 007)"])
    game = GdlGame(read_kif(ODD + "(<= (goal x-y 50) (true (f 007)))\n"), mode)
    end = game.initial_state().apply(["(go-to 007)"])
    with pytest.raises(GdlError, match="role x-y has several goal values: 100, 50"):
        end.goals
    with pytest.raises(IllegalMove, match=r"'\(go-to 1st\)' is not a legal move for x-y"):
        game.initial_state().apply(["(go-to 1st)"])
    with pytest.raises(IllegalMove, match="the game is over"):
        end.apply(["(go-to 007)"])


# ------------------------------------------------------------------ large boards
class Emitted(clingo.Observer):
    """What the grounder emits: ground rules, facts included."""

    def __init__(self) -> None:
        self.rules = 0

    def rule(self, choice, head, body) -> None:
        self.rules += 1


def emitted_instances(queries: StateQueries, facts: list, given: int) -> int:
    """The ground rule instances of a query: what clingo emits, less the facts given (the query's and the
    rules' own, which the bound leaves out as the whole game's does)."""
    counter = Emitted()
    queries.solve(facts, counter)
    return counter.rules - len(facts) - given


@pytest.mark.parametrize("name", [p.name for p in GAMES if "stuck" not in p.name] + ["board 10"])
def test_each_state_bound_is_at_least_what_clingo_grounds_for_it(name):
    text = board(10, declared=False) if name == "board 10" else next(p for p in GAMES if p.name == name).read_text()
    program = read_kif(text)
    game = GdlGame(program, "per-state")
    queries = StateQueries(program, game.names)
    given = sum(1 for rule in estimate_rules(program, query_rules(program)) if rule.is_fact)
    assert emitted_instances(queries, [START], given) <= queries.bound([], [])
    rng = random.Random(1)
    state = game.initial_state()
    for _ in range(12):
        if state.is_terminal:
            break
        joint = rng.choice(state.legal_moves())
        facts = [clingo.Function("true", [f]) for f in state.key()]
        facts += [clingo.Function("does", [game.names.symbol(r), game.names.symbol(m)]) for r, m in zip(game.roles, joint)]
        bound = queries.bound(state.fluents, list(zip(game.roles, joint)))
        assert 0 < emitted_instances(queries, facts, given) <= bound
        state = state.apply(joint)



def board(n: int, declared: bool) -> str:
    """Tic-tac-toe on an n x n board (still three in a row), with or without base/input."""
    text = TICTACTOE.read_text(encoding="utf-8").replace(
        "(index 3)", "\n".join(f"(index {i})" for i in range(3, n + 1)))
    if declared:
        return text
    return "\n".join(line for line in text.splitlines() if not line.startswith(("(<= (base", "(<= (input")))


@pytest.fixture
def no_grounding(monkeypatch):
    def ground(*args, **kwargs):
        raise AssertionError("clingo grounded the game")

    monkeypatch.setattr(clingo.Control, "ground", ground)


def test_a_board_too_large_to_ground_once_is_refused_so(no_grounding):
    with pytest.raises(GdlLoadError, match="this rule can have 48,469,444 ground instances"):
        GdlGame.from_text(board(59, declared=False), "big.kif", mode="once")


def test_a_board_too_large_to_ground_once_plays_per_state():
    game = GdlGame.from_text(board(59, declared=False), "big.kif")
    assert game.mode == "per-state"
    (size,) = [d for d in game.warnings if "ground instances" in d.message]
    assert not size.is_error and "grounded one state at a time" in size.message
    state = game.initial_state()
    assert len(state.legal_moves("xplayer")) == 59 * 59 and state.legal_moves("oplayer") == [NOOP]
    assert len(state.fluents) == 59 * 59 + 1
    for i, joint in enumerate([(mark(1, 1), NOOP), (NOOP, mark(2, 1)), (mark(1, 2), NOOP), (NOOP, mark(30, 59))]):
        state = state.apply(joint)
        mover = "oplayer" if i % 2 == 0 else "xplayer"
        assert len(state.legal_moves(mover)) == 59 * 59 - i - 1 and not state.is_terminal
    assert Func("cell", (Const("30"), Const("59"), Const("o"))) in state.fluents
    assert state.goals == [None, None]  # no line, and cells left
    won = state.apply((mark(1, 3), NOOP))
    assert won.is_terminal and won.goals == [100, 0] and won.legal_moves() == []


def test_a_state_over_the_limit_is_stopped_while_it_grounds():
    """A state whose bound (1,447) is over the limit is grounded with its rules counted: it plays when it grounds
    within the limit (the bound over-approximates), and is stopped once it passes it."""
    game = GdlGame(read_kif(board(10, declared=False)), max_ground=1_000)  # the game's bound is 41,042
    assert game.mode == "per-state"
    state = game.initial_state()  # 549 instances at most
    assert len(state.legal_moves("xplayer")) == 100
    assert len(state.apply((mark(4, 4), NOOP)).legal_moves("oplayer")) == 99
    game = GdlGame(read_kif(board(10, declared=False)), max_ground=400)
    state = game.initial_state()
    with pytest.raises(StateTooLarge, match=r"grounding the state after this joint move passed 400 ground rules, "
                                            r"the most a state may have \(--max-ground\): stopped"):
        state.apply((mark(4, 4), NOOP))


def test_a_bounded_state_plays_when_the_game_is_over_the_limit():
    game = GdlGame(read_kif(board(10, declared=False)), max_ground=3_000)
    assert game.mode == "per-state" and game._queries.max_ground == 3_000  # each state is bounded
    state = game.initial_state().apply((mark(4, 4), NOOP))
    assert len(state.legal_moves("oplayer")) == 99


def test_declared_base_and_input_keep_the_refusal_unless_per_state_is_asked_for():
    program = read_kif(board(59, declared=True), "big.kif")
    (refusal,) = validate(program, "big.kif")
    assert refusal.is_error and "refused before it starts" in refusal.message
    found = validate(program, "big.kif", grounding="per-state")
    assert not [d for d in found if d.is_error]
    assert any(d.message.startswith("base and input are not checked") for d in found)
    game = GdlGame(program, "per-state")
    assert len(game.initial_state().apply((mark(5, 5), NOOP)).legal_moves("oplayer")) == 59 * 59 - 1


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_check_gdl_accepts_a_large_game_it_can_play_per_state(tmp_path):
    path = tmp_path / "big.kif"
    path.write_text(board(59, declared=False), encoding="utf-8")
    result = run("check-gdl", str(path))
    assert result.exit_code == 0 and "grounded one state at a time" in result.output
    assert run("check-gdl", str(path), "--grounding", "once").exit_code == 1
    declared = tmp_path / "declared.kif"
    declared.write_text(board(59, declared=True), encoding="utf-8")
    assert run("check-gdl", str(declared)).exit_code == 1
    result = run("check-gdl", str(declared), "--grounding", "per-state")
    assert result.exit_code == 0 and "base and input are not checked" in result.output


def test_verify_explores_alike_per_state():
    once = run("verify", str(TICTACTOE), "--grounding", "once", "--max-states", "300", "--json")
    per_state = run("verify", str(TICTACTOE), "--grounding", "per-state", "--max-states", "300", "--json")
    assert once.exit_code == per_state.exit_code == 0, per_state.output
    assert once.output == per_state.output and '"complete": false' in once.output


def test_the_lowering_validates_against_the_reasoner_per_state():
    """tgpl.validation's differential playouts run on either mode (auto picks per state for a game too large)."""
    from tgpl.pipeline import lower_game
    from tgpl.runtime.game import load_game
    from tgpl.validation import Differential

    game = load_game(str(ROOT / "examples" / "tris.tgpl"))
    lowered = lower_game(game)
    d = Differential(game, lowered, gdl=GdlGame(lowered.program, "per-state"))
    for seed in range(3):
        play = d.playout(random.Random(seed), 12)
        assert play.mismatch is None and play.ended


@pytest.mark.parametrize("limit,status,message", [
    ("300", 2, "error: grounding the initial state passed 300 ground rules"),
    ("400", 2, "error: grounding the state after this joint move passed 400 ground rules"),
    ("3000", 0, "well formed within the first"),
])
def test_verify_bounds_each_state_of_a_game_over_the_limit(tmp_path, limit, status, message):
    path = tmp_path / "ten.kif"  # the game's bound is 41,042: over each limit, so played per state
    path.write_text(board(10, declared=False), encoding="utf-8")
    result = run("verify", str(path), "--max-ground", limit, "--max-states", "5")
    assert result.exit_code == status, result.output
    assert message in result.output


def scratch_bound(queries: StateQueries, fluents, moves) -> int:
    """A query's bound as the analysis makes it from nothing: the estimate's rules and the state's facts."""
    facts = [Rule(Atom(STATE_NOW, (f,))) for f in fluents] + [Rule(Atom(MOVE_NOW, m)) for m in moves]
    if not moves:
        facts.append(Rule(Atom("gdl_start", ())))
    return sum(b.instances for b in rule_bounds(Program(queries._estimate + tuple(facts))))


@pytest.mark.parametrize("name", ["reversi.kif", "connect4.kif"])
def test_each_state_bound_is_the_whole_analysis_of_that_state(name):
    # StateQueries.bound works out what does not depend on the state once, and keeps what a start settles into
    program = read_kif((ROOT / "examples" / "gdl" / name).read_text(encoding="utf-8"))
    game = GdlGame(program, "per-state", None)
    queries = StateQueries(program, game.names)
    assert queries.bound([], []) == scratch_bound(queries, [], [])
    rng = random.Random(3)
    states = 0
    for _ in range(3):
        state = game.initial_state()
        while not state.is_terminal and states < 120:
            joint = rng.choice(state.legal_moves())
            moves = list(zip(game.roles, joint))
            assert queries.bound(state.fluents, moves) == scratch_bound(queries, state.fluents, moves), states
            states += 1
            state = state.apply(joint)
    assert len(queries._bounds._known) < states  # starts met again, their tables' tuples counted anew
