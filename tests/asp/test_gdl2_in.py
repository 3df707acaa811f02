"""GDL-II read, validated and played: the chance role `random` and the percepts of `sees`.

The games in tests/data/gdl2 are written here in the style of the published GDL-II games (Thielscher 2010,
the Dresden GDL-II competition): Monty Hall, Krieg tic-tac-toe and a blind guessing game.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from tgpl.asp.kif import read_kif
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.cli import main
from tests.asp.conftest import GUESSING, KRIEG, MONTY


# A valid one-player game with chance on lines 1-8; each case appends from line 9.
MINI = """\
(role a)
(role random)
(init p)
(<= (legal a go) (true p))
(<= (legal random (roll 1)) (true p))
(<= (next p) (does a go))
(<= (goal a 100) (true p))
(<= terminal (not (true p)))
"""


def errors(text: str) -> list[str]:
    """The diagnostics but the warnings that base and input are missing (MINI declares neither)."""
    return [d.header() for d in validate(read_kif(text, "g.kif"), "g.kif")
            if "defines no 'base'" not in d.message and "defines no 'input'" not in d.message]


@pytest.mark.parametrize("path, dialect", [
    (MONTY, "the chance role random and percepts (sees)"), (KRIEG, "percepts (sees)"), (GUESSING, "percepts (sees)")])
def test_the_published_style_games_pass_check_gdl(path, dialect):
    result = CliRunner().invoke(main, ["check-gdl", path])
    assert result.exit_code == 0, result.output
    assert result.output == f"{path}: ok (GDL-II: {dialect})\n"


def test_the_mini_game_is_valid():
    assert errors(MINI) == []


RESTRICTIONS = [
    pytest.param("(<= (goal random 0) (true p))",
                 ["g.kif:9:11: error: the 'random' role has no goal: it is chance, not a player (GDL-II)"],
                 id="random-goal"),
    pytest.param("(<= (sees random p) (does a go))",
                 ["g.kif:9:11: warning: the 'random' role sees nothing: it is chance, not a player, so this "
                  "percept is never given"], id="random-sees"),
    pytest.param("(<= (sees b p) (does a go))", ["g.kif:9:11: error: 'b' is not a role: 'sees' gives percepts to roles"],
                 id="sees-no-role"),
    pytest.param("(<= q (sees a p))", ["g.kif:9:7: error: 'sees' cannot appear in the body of a rule"],
                 id="sees-in-body"),
    pytest.param("(<= (sees a) (true p))", ["g.kif:9:5: error: 'sees' takes 2 arguments, found 1"], id="sees-arity"),
    pytest.param("(<= (q (sees a)) (true p))",
                 ["g.kif:9:8: error: 'sees' is a GDL keyword: it names a relation, never a function"],
                 id="sees-as-function"),
    pytest.param("(<= (sees a (roll ?x)) (does random (roll ?x)) (true p))", [], id="sees-may-read-does-and-true"),
    pytest.param("(<= (sees ?p (does ?q ?m)) (role ?p) (does ?q ?m))",
                 ["g.kif:9:14: warning: 'does' is a GDL keyword used as a function in a percept: GDL-II players "
                  "read it as a term, GDL tools may refuse it"], id="does-as-a-percept"),
    pytest.param("(<= (sees a (does a go)) (does a go))\n(<= (q (does a)) (true p))",
                 ["g.kif:10:8: error: 'does' is a GDL keyword: it names a relation, never a function",
                  "g.kif:10:8: error: function 'does' has 1 argument here but 2 at g.kif:9:13"],
                 id="does-as-a-function-outside-percepts"),
    pytest.param("(<= (legal a stop) (sees a p))",
                 ["g.kif:9:20: error: 'sees' cannot appear in the body of a rule"], id="legal-on-sees"),
]


@pytest.mark.parametrize("extra, expected", RESTRICTIONS)
def test_gdl_ii_restrictions_are_located(extra, expected):
    assert errors(MINI + extra) == expected


def test_random_without_a_legal_rule_is_stuck_everywhere():
    text = MINI.replace("(<= (legal random (roll 1)) (true p))\n", "")
    assert errors(text) == ["g.kif:2:7: error: the 'random' role has no legal rule: chance would have no move "
                            "in any state (GDL-II)"]


def test_check_gdl_shows_a_gdl_ii_error_with_its_line(tmp_path):
    path = tmp_path / "g.kif"
    path.write_text(MINI + "(<= (goal random 0) (true p))\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check-gdl", str(path)])
    assert result.exit_code == 1
    assert f"{path}:9:11: error: the 'random' role has no goal" in result.output
    assert "(<= (goal random 0) (true p))\n" in result.output and "^" in result.output


# ------------------------------------------------------------------ percepts
def seen(state) -> list[list[str]]:
    return [sorted(map(str, p)) for p in state.seen]


def test_monty_hall_percepts_follow_the_joint_moves():
    game = GdlGame.load(MONTY)
    assert [str(r) for r in game.roles] == ["candidate", "random"] and game.chance == 1 and game.perceives
    state = game.initial_state()
    assert seen(state) == [[], []]
    state = state.apply(["(choose 1)", "(hide_car 3)"])
    assert seen(state) == [[], []]  # the car is hidden: the candidate sees nothing
    assert [str(m) for m in state.legal_moves("random")] == ["(open_door 2)"]
    state = state.apply(["noop", "(open_door 2)"])
    assert seen(state) == [["(open_door 2)"], []]
    state = state.apply(["switch", "noop"])
    assert seen(state) == [["(car 3)"], []]
    assert state.is_terminal and state.goals == [100, None]


def playout_percepts(game: GdlGame, seed: int) -> list:
    """A seeded random playout's joint moves, percepts and fluents, and every successor's percepts on the way."""
    rng = random.Random(seed)
    state = game.initial_state()
    out = []
    while not state.is_terminal:
        out.append(sorted((tuple(map(str, j)), str(seen(s))) for j, s in state.successors()))
        joint = rng.choice(state.legal_moves())
        state = state.apply(joint)
        out.append((tuple(map(str, joint)), seen(state), sorted(state.fluent_texts())))
    return out


@pytest.mark.parametrize("path", [MONTY, KRIEG, GUESSING])
def test_percepts_are_the_same_grounded_once_and_per_state(path):
    once = GdlGame.load(path, mode="once")
    per_state = GdlGame.load(path, mode="per-state")  # successors() in batches, apply() alone
    assert per_state.batches
    for seed in range(4):
        assert playout_percepts(once, seed) == playout_percepts(per_state, seed)


def test_krieg_players_see_whether_their_mark_took():
    game = GdlGame.load(KRIEG)
    state = game.initial_state().apply(["(mark 2 2)", "noop"])
    assert seen(state) == [["ok"], ["your_turn"]]
    state = state.apply(["noop", "(mark 2 2)"])  # o does not see x's mark: it tries the same cell
    assert seen(state) == [[], ["taken"]]
    assert "(mark 2 2)" not in [str(m) for m in state.legal_moves("oplayer")]  # now it knows
    assert "(known oplayer 2 2)" in state.fluent_texts()


def test_a_percept_may_name_the_moves():
    game = GdlGame.from_text(MINI + "(<= (sees ?p (does ?q ?m)) (role ?p) (does ?q ?m))", "g.kif")
    state = game.initial_state().apply(["go", "(roll 1)"])
    assert seen(state) == [["(does a go)", "(does random (roll 1))"], ["(does a go)", "(does random (roll 1))"]]


def test_the_lowering_never_names_a_relation_after_a_gdl_ii_keyword():
    # a TGPL function `Sees` lowered with --functions-as-relations became the relation `sees`, which the validator
    # now reads as GDL-II's percepts: "internal error: the emitted GDL is not valid: 'sees' cannot appear in the
    # body of a rule". The lowering renames every keyword the validator knows, and `random`.
    from tgpl.asp.validate import KEYWORD_ARITY
    from tgpl.lowering.emit import KEYWORDS

    assert set(KEYWORD_ARITY) | {"random"} <= KEYWORDS
