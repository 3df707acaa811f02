"""GDL-II out: a die thrown in an action's effect is lowered as a move of the chance role `random`
(tgpl/lowering/chance.py), validated against the runtime face by face, and the GDL-II it writes plays the
same game: check-gdl passes it, and verify gives the same expected goals on the .kif as on the .tgpl."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering import segments
from tgpl.lowering.chance import Throw
from to_gdl_runs import rules_with_a_body, to_gdl

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _last_die_short(monkeypatch) -> None:
    """A wrong lowering of the dice: random's moves leave out the last face of each action's last die."""
    real = Throw.faces.fget
    monkeypatch.setattr(Throw, "faces", property(lambda t: [f for f in real(t) if f[-1] < t.sides[-1]]))


def _validated(tmp_path: Path, text: str, name: str = "dice.tgpl") -> tuple[Path, str]:
    """`text` lowered to GDL-II and validated by bisimulation: the .kif's path and text."""
    src = tmp_path / name
    src.write_text(text)
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: bisimulation" in kif
    return r.out, kif


def _refused_at(tmp_path: Path, text: str, needle: str, col: int, message: str) -> None:
    """`text` checks, and to-gdl refuses it with `message` at column `col` of the line holding `needle`,
    writing nothing."""
    src = tmp_path / "dice.tgpl"
    src.write_text(text)
    r = CliRunner().invoke(main, ["check", str(src)])
    assert r.exit_code == 0, r.output
    r = to_gdl(tmp_path, src, "--no-validate")
    assert r.exit_code == 2, r.output
    line = next(i for i, x in enumerate(text.splitlines(), 1) if needle in x)
    assert f"dice.tgpl:{line}:{col}: error: not lowerable: {message}" in r.output
    assert not r.out.exists()


@pytest.mark.parametrize("name, states", [("race", "105"), ("pig", "1,620")])
def test_a_dice_game_lowers_to_gdl_ii_validated_and_checked(name, states, tmp_path):
    r = to_gdl(tmp_path, EXAMPLES / f"{name}.tgpl")
    assert r.exit_code == 0, r.output
    text = r.kif
    assert f"; validated: bisimulation, {states} states" in text  # every face of every throw compared
    assert "; GDL-II: the dice thrown at " in text and "moves of the chance role random" in text
    assert "\n(role random)\n" in text
    assert "(<= (legal random (roll ?" in text and "(input random (roll 1))" in text
    assert "(sees ?r (did ?q ?m))" in text  # every player sees every move: perfect information, as the runtime
    r = CliRunner().invoke(main, ["check-gdl", str(r.out)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith("ok (GDL-II: the chance role random and percepts (sees))")


def test_setup_dice_and_a_die_in_a_function_lower_monty_hall(tmp_path):
    """Monty Hall's car is placed by setup's roll(3), random's first move; the host's roll(2), in a function the
    contestant's Pick calls, random's move after Pick (idle where the host has one goat door to open)."""
    r = to_gdl(tmp_path, EXAMPLES / "montyhall.tgpl")
    assert r.exit_code == 0, r.output
    text = r.kif
    assert "; validated: bisimulation, 28 states" in text
    assert "; GDL-II: the dice thrown at " in text and "montyhall.tgpl:18:31" in text and "montyhall.tgpl:47:53" in text
    assert "Chance:" not in text  # no draw is left to the seed
    assert "(init (control random show setup))" in text and "(init (car studio null))" in text
    r = CliRunner().invoke(main, ["check-gdl", str(r.out)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith("ok (GDL-II: the chance role random and percepts (sees))")


def test_setup_dice_numbered_otherwise_fail_the_validation(monkeypatch, tmp_path):
    """Random's (roll k) must set what the runtime's k-th way of setup's draws sets: a lowering that numbers them
    backwards is caught, and nothing is written."""
    from tgpl import pipeline

    real = pipeline.setup_throw

    def backwards(snapshots, bounds, span):
        snap = real(snapshots, bounds, span)
        return {**snap, "throws": snap["throws"][::-1]}
    monkeypatch.setattr(pipeline, "setup_throw", backwards)
    r = to_gdl(tmp_path, EXAMPLES / "montyhall.tgpl")
    assert r.exit_code == 2, r.output
    assert "the GDL differs from the runtime after 1 move\n" in r.output and "(roll 1)" in r.output
    assert not r.out.exists()


def test_a_setup_whose_dice_change_what_it_makes_is_refused_located(tmp_path):
    """Setup's dice are random's first move only where each way they fall makes the same objects."""
    text = GAME.format(body="            Score += 1;").replace(
        "    turn.use(\"T\");", "    if (roll(2) == 2) { Seat extra = new Seat(); }\n    turn.use(\"T\");")
    _refused_at(tmp_path, text, "roll(2)", 9, "setup's dice are lowered when every way they fall makes the same objects")


def test_a_private_attribute_is_seen_by_its_owner_and_a_hidden_one_by_nobody(tmp_path):
    """Percepts in a dice game with secrets (decision 97): the die's face, kept in a private attribute, is seen
    by the seat's owner only; a hidden attribute by nobody; random's moves by nobody."""
    text = GAME.format(body="            Secret = roll(3);\n            Score += 1;\n            Never = Secret;")
    text = text.replace("    number Score = 0;", "    number Score = 0;\n    private number Secret = 0;\n"
                                                    "    hidden number Never = 0;")
    out, kif = _validated(tmp_path, text)
    assert "(sees_secret seat_0 player_0)\n(sees_secret seat_1 player_1)\n" in kif
    assert "(sees_secret seat_0 player_1)" not in kif and "(sees_secret seat_1 player_0)" not in kif
    assert "(sees_secret ?o ?tgpl_seer))" in kif or "(sees_secret ?x0 ?tgpl_seer))" in kif  # by owner
    assert "(sees ?tgpl_seer (score " in kif  # public
    assert "(sees ?tgpl_seer (never " not in kif
    assert "(distinct ?q random)" in kif
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    rep = json.loads(CliRunner().invoke(main, ["verify", str(out), "--json"]).output)
    assert rep["gdl_ii"]["hidden"]["player_0"] is not None  # it cannot tell the other seat's faces apart


MARK = """    number Score = 0;
    private number Secret = 0;

    private action Mark
    {
        input Seat target { return true; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Secret = target.Score;
            turn.pass();
        }
    }"""


def test_a_private_actions_move_is_seen_whole_by_its_mover_and_redacted_by_the_others(tmp_path):
    """Decision 94 in GDL-II's percepts: the others see a private action's move with its inputs hidden, as the
    studio's log shows it (`Seat#0.Mark(target: (hidden))`); the mover sees it whole."""
    from tgpl.asp.reasoner import GdlGame

    text = GAME.format(body="            Score += roll(3);").replace("    number Score = 0;", MARK)
    out, kif = _validated(tmp_path, text)
    assert "(tgpl_redacted (mark seat_0 seat_1) (mark seat_0 hidden))" in kif
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    game = GdlGame.load(str(out))
    assert [str(x) for x in game.roles] == ["player_0", "player_1", "random"]
    state = game.initial_state()

    def play(text: str):
        moves = {str(m): m for m in state.legal_moves(game.roles[0])}
        noop = state.legal_moves(game.roles[1])
        return state.apply([moves[text], noop[0], noop[0]])
    after = play("(mark seat_0 seat_1)")
    mover, other, _ = ({str(x) for x in seen} for seen in after.seen)
    assert "(did player_0 (mark seat_0 seat_1))" in mover and "(did player_0 (mark seat_0 hidden))" not in mover
    assert "(did player_0 (mark seat_0 hidden))" in other and "(did player_0 (mark seat_0 seat_1))" not in other
    after = play("(throw seat_0)")
    assert all("(did player_0 (throw seat_0))" in {str(x) for x in seen} for seen in after.seen[:2])


def test_a_public_move_naming_a_card_of_a_private_hand_shows_the_others_the_card_hidden(tmp_path):
    """Decision 94 in GDL-II's percepts: a move of a public action that names a card only a private hand holds
    (tests/data/lowering/dice_hand.tgpl's Discard) reads `hidden` in its place to the other seat, and whole to
    its mover; a move naming nothing secret is seen whole by every player."""
    from tgpl.asp.reasoner import GdlGame

    source = Path(__file__).resolve().parents[1] / "data" / "lowering" / "dice_hand.tgpl"
    out, kif = _validated(tmp_path, source.read_text())
    assert "(tgpl_redacted (discard seat_0 card_1) (discard seat_0 hidden))" in kif
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    game = GdlGame.load(str(out))
    state = game.initial_state()

    def play(text: str):
        moves = {str(m): m for m in state.legal_moves(game.roles[0])}
        noop = state.legal_moves(game.roles[1])
        return state.apply([moves[text], noop[0], noop[0]])
    mover, other, _ = ({str(x) for x in seen} for seen in play("(discard seat_0 card_1)").seen)
    assert "(did player_0 (discard seat_0 card_1))" in mover and "(did player_0 (discard seat_0 hidden))" not in mover
    assert "(did player_0 (discard seat_0 hidden))" in other
    assert not any("card_1" in x for x in other if x.startswith("(did "))
    after = play("(throw seat_0)")
    assert all("(did player_0 (throw seat_0))" in {str(x) for x in seen} for seen in after.seen[:2])


def test_a_private_action_that_throws_dice_is_refused_located(tmp_path):
    """Random's control state after the move names it, and every player sees the control."""
    text = GAME.format(body="            Score += roll(3);").replace("    action Throw", "    private action Throw")
    src = tmp_path / "dice.tgpl"
    src.write_text(text.replace("    number Score = 0;", "    number Score = 0;\n    private number Secret = 0;"))
    r = to_gdl(tmp_path, src, "--no-validate")
    assert r.exit_code == 2, r.output
    line = next(i for i, x in enumerate(src.read_text().splitlines(), 1) if "private action Throw" in x)
    assert f"dice.tgpl:{line}:5: error: not lowerable: a private action that throws dice is not lowerable " \
           "yet" in r.output
    assert not r.out.exists()


def test_setup_dice_drawn_differently_from_way_to_way_are_refused_located(tmp_path):
    """GDL-II's random picks its moves alike: setup's ways must be equally likely, the same draws each way."""
    text = GAME.format(body="            Score += 1;").replace(
        "    turn.use(\"T\");", "    number n = roll(2);\n    if (n == 2) { n += roll(3); }\n    turn.use(\"T\");")
    _refused_at(tmp_path, text, "roll(2)", 16,
                "setup's dice are not lowerable: they draw differently from one way to another")


def _race_value() -> Fraction:
    """Player 0's expected goal in examples/race.tgpl under expectimax, by dynamic programming here: walk 2, or
    dash 1..4 equally likely; the first at 7 wins (100); each player maximises its own chance."""
    finish = 7

    @lru_cache(maxsize=None)
    def win(me: int, other: int) -> Fraction:  # the mover's probability of winning
        walk = Fraction(1) if me + 2 >= finish else 1 - win(other, me + 2)
        dash = sum((Fraction(1) if me + k >= finish else 1 - win(other, me + k) for k in range(1, 5)),
                   Fraction(0)) / 4
        return max(walk, dash)
    return 100 * win(0, 0)


def test_expected_goals_agree_on_the_tgpl_and_its_gdl_ii(tmp_path):
    r = to_gdl(tmp_path, EXAMPLES / "race.tgpl")
    assert r.exit_code == 0, r.output
    tgpl = json.loads(CliRunner().invoke(main, ["verify", str(EXAMPLES / "race.tgpl"), "--json"]).output)
    kif = json.loads(CliRunner().invoke(main, ["verify", str(r.out), "--json"]).output)
    assert tgpl["states"] == kif["states"] == 170  # random's states are the runtime's chance nodes
    assert tgpl["chance_nodes"] == 65
    exact = Fraction(kif["gdl_ii"]["expected_goals_exact"]["player_0"])
    assert exact == _race_value()
    assert abs(tgpl["expected_goal"]["player 0"] - float(exact)) < 1e-9
    assert abs(tgpl["expected_goal"]["player 1"] - float(Fraction(kif["gdl_ii"]["expected_goals_exact"]["player_1"]))) < 1e-9
    assert kif["gdl_ii"]["hidden"] == {"player_0": None, "player_1": None}  # its percepts tell every state


def test_a_wrong_die_fails_the_validation(monkeypatch, tmp_path):
    """A lowering that gives random one face too few is caught by the validation, and nothing is written."""
    _last_die_short(monkeypatch)
    r = to_gdl(tmp_path, EXAMPLES / "race.tgpl")
    assert r.exit_code == 2
    assert "the GDL differs from the runtime" in r.output
    assert "legal moves only in the runtime: (roll 4)" in r.output
    assert not r.out.exists()


GAME = """game "dice";
players 2;

setup
{{
    for (number p = 0; p < 2; p += 1)
    {{
        Seat s = new Seat();
        s.assign(p);
    }}
    turn.use("T");
    turn.pass(0, "Play");
}}

class Seat
{{
    number Score = 0;

    action Throw
    {{
        trigger PlayerChoiceEvent {{ return true; }}
        effect
        {{
{body}
            if (Score >= 6) {{ winner player; }}
            turn.pass();
        }}
    }}
}}

turn T
{{
    phase Play {{ }}
    default {{ return player.active() + 1; }}
}}
"""


THROW3 = "function Throw3\n{\n    returns number;\n    effect { return roll(3); }\n}\n\nclass Seat\n{"


@pytest.mark.parametrize("body, where, reason", [
    ("            number a = roll(3);\n            if (a == 3) { Score += roll(2); }", "roll(2)",
     "a way through the effect throws 1 of the action's 2 dice, not this one"),
    ("            number a = roll(3);\n            if (a == 3) { a += roll(2); } else { a += roll(3); }", "roll(3);",
     "a way through the effect throws this die as its die 2, which has 2 sides where it throws all of them"),
    ("            Score += roll(40);\n            Score += roll(30);", "roll(30)",
     "the action's dice fall in 1,200 ways at this roll, more than the 1,000 moves random may have"),
    ("            number n = 3;\n            Score += roll(n);", "roll(n)",
     "roll() is lowered only with a whole number of sides written as a literal"),
    ("            for (number i = 0; i < Score; i += 1) { Score += roll(3); }", "roll(3)",
     "roll() in a loop (or a function calling itself) is not lowerable"),
    ("            number i = 0;\n            while (i < 2) { Score += Throw3(); i += 1; }", "roll(3)",
     "roll() in a loop (or a function calling itself) is not lowerable"),
    ("            for (number i = 0; i < 2; i += 1) { Score += roll(3); if (Score > 3) { break; } }", "roll(3)",
     "a way through the effect throws 1 of the action's 2 dice, not this one"),
])
def test_a_roll_the_lowering_cannot_handle_is_refused_located(body, where, reason, tmp_path):
    src = tmp_path / "dice.tgpl"
    text = GAME.format(body=body).replace("class Seat\n{", THROW3)
    src.write_text(text)
    r = CliRunner().invoke(main, ["check", str(src)])
    assert r.exit_code == 0, r.output
    r = to_gdl(tmp_path, src, "--no-validate")
    assert r.exit_code == 2
    first = r.output.splitlines()[0]
    m = re.match(r"\S+dice\.tgpl:(\d+):(\d+): error: not lowerable: (.*)", first)
    assert m, first
    line = text.splitlines()[int(m.group(1)) - 1]
    assert line[int(m.group(2)) - 1:].startswith(where), line
    assert reason in m.group(3)
    assert not r.out.exists()


@pytest.mark.parametrize("body", [
    "            if (Score < 3) { Score += roll(3); } else { Score += 1; }",  # thrown on some ways only
    "            if (Score > 4) { winner player; }\n            Score += roll(3);",  # after an end of the game
    "            Score += 1;\n            if (Score < 4) { Score += Throw3(); }",  # in a function the effect calls
    "            number a = roll(3);\n            Score += a + roll(2);",  # two dice: random's (roll a b)
    "            Score += Throw3();\n            Score += Throw3();",  # one roll, thrown twice
    "            if (Score < 3) { Score += roll(3) * roll(2) - 1; } else { Score += 1; }",  # on some ways
    "            Score += roll(3) + roll(2) - roll(2);",  # in one expression: each way reads its faces
    "            for (number i = 0; i < 2; i += 1) { Score += Throw3(); }",  # a loop of 2 passes: 2 dice
])
def test_a_die_anywhere_in_an_effect_lowers_and_validates(body, tmp_path):
    """Random throws the die after the moves whose way through the effect reaches it, as the runtime draws: the
    .tgpl (its dice as chance nodes) and its GDL-II are the same game, state for state."""
    out, text = _validated(tmp_path, GAME.format(body=body).replace("class Seat\n{", THROW3))
    assert re.search(r"\(<= \(legal random \(roll[23]? ", text)
    r = CliRunner().invoke(main, ["compare", str(out.with_suffix(".tgpl")), str(out), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["equivalent"] and rep["states"][0] == rep["states"][1]


def test_a_die_thrown_where_the_runtime_draws_none_fails_the_validation(monkeypatch, tmp_path):
    """A lowering that hands every move of the action to random, whether its way reaches the die or not, is
    caught: random is to move where the runtime's player is."""
    from tgpl.lowering.execute import THROWN
    from tgpl.lowering.symbolic import TRUE

    src = tmp_path / "dice.tgpl"
    src.write_text(GAME.format(body="            if (Score < 3) { Score += roll(3); } else { Score += 1; }"))
    monkeypatch.setattr(segments, "_thrown_when", lambda p: (p.store.pop(THROWN, None), TRUE)[1])
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 2, r.output
    assert "the GDL differs from the runtime" in r.output
    assert "legal moves only in the runtime: Seat#1.Throw()" in r.output
    assert not r.out.exists()


def test_with_secrets_random_throws_after_every_move_and_each_idle_face_is_compared(monkeypatch, tmp_path):
    """In a game with secrets, random throws after every move of an action that may throw (whether it throws may
    be a secret, decision 97): where the runtime draws nothing, each face must give the runtime's state. A
    lowering whose `else` (no die) happens on face 1 only is caught on the others."""
    from tgpl.lowering import execute
    from tgpl.lowering.symbolic import conj

    src = tmp_path / "dice.tgpl"
    src.write_text(GAME.format(body="            if (Score < 3) { Score += roll(3); } else { Score += 1; }").replace(
        "    number Score = 0;", "    number Score = 0;\n    private number Secret = 0;"))
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 0, r.output
    assert "; validated: bisimulation" in r.kif
    r.out.unlink()
    real = execute.Executor.fork_on

    def forked(self, p, cond):
        ways = real(self, p, cond)
        if self.dice is not None and repr(cond).startswith("[Seat"):  # `Score < 3` where random throws: else
            face_1 = self.dice.moves[0][1]  # on face 1 only
            for q, taken in ways:
                if not taken:
                    q.pc = conj(q.pc, face_1)
        return ways
    monkeypatch.setattr(execute.Executor, "fork_on", forked)
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 2, r.output
    assert "the GDL differs from the runtime" in r.output
    assert "fluents only in the runtime: (control player_1 t play) (score seat_0 4)" in r.output  # Score 3, no die
    assert not r.out.exists()


def test_the_die_of_an_action_at_the_top_of_its_effect_lowers(tmp_path):
    """The same game with its die where the lowering takes it: lowered and validated."""
    src = tmp_path / "dice.tgpl"
    src.write_text(GAME.format(body="            Score += 1;\n            number face = roll(3);\n"
                                    "            Score += face;"))
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 0, r.output
    assert "; validated: bisimulation" in r.kif


def test_playouts_throw_the_dice_with_the_plays_generator(monkeypatch):
    """Past the bisimulation's bound, seeded playouts draw each face; a die one face short is found there too."""
    from tgpl.pipeline import lower_game
    from tgpl.runtime.game import load_game
    from tgpl.validation import validate_translation

    game = load_game(str(EXAMPLES / "pig.tgpl"))
    result = validate_translation(game, lower_game(game), state_bound=20, steps=1000)
    assert result.ok, result.mismatch
    assert not result.complete and result.playouts > 0 and result.steps >= 1000 and result.ended > 0
    _last_die_short(monkeypatch)
    result = validate_translation(game, lower_game(game), state_bound=1, steps=1000)
    assert result.mismatch is not None and result.mismatch.found_by == "playouts"
    assert result.mismatch.difference.legal == (["(roll 6)"], [])


def test_its_asp_program_replays_the_dice(tmp_path):
    out = tmp_path / "race.lp"
    r = CliRunner().invoke(main, ["to-asp", str(EXAMPLES / "race.tgpl"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    first = out.read_text().splitlines()[0]
    assert re.search(r"ASP: 20 plays replayed, [\d,]+ steps compared", first), first


def test_compare_and_verify_on_the_lowered_gdl_ii(monkeypatch, tmp_path):
    """`compare` explores the .tgpl's dice as chance nodes against random's states; `verify --engine clingo` reads
    the lowered game as GDL-II (random a chance node, not a player)."""
    r = to_gdl(tmp_path, EXAMPLES / "race.tgpl")
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["compare", str(EXAMPLES / "race.tgpl"), str(r.out), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["equivalent"] and rep["states"] == [170, 170]
    r = CliRunner().invoke(main, ["verify", str(EXAMPLES / "race.tgpl"), "--engine", "clingo", "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["roles"] == ["player 0", "player 1"] and rep["states"] == 170
    assert rep["chance"] is None  # its one die is random's move, explored: no claim holds for a seed only
    assert Fraction(rep["gdl_ii"]["expected_goals_exact"]["player 0"]) == _race_value()
    # a die one face short, written without validation: compare tells the games apart
    _last_die_short(monkeypatch)
    bad = tmp_path / "bad" / "race.kif"
    bad.parent.mkdir()
    r = CliRunner().invoke(main, ["to-gdl", str(EXAMPLES / "race.tgpl"), "--no-validate", "-o", str(bad)])
    assert r.exit_code == 0, r.output
    monkeypatch.undo()
    r = CliRunner().invoke(main, ["compare", str(EXAMPLES / "race.tgpl"), str(bad), "--json"])
    assert r.exit_code == 1, r.output
    assert not json.loads(r.output)["equivalent"]


def test_a_roll_outside_an_actions_effect_is_refused_located(tmp_path):
    text = GAME.format(body="            Score += 1;").replace("default { return player.active() + 1; }",
                                                              "default { return (player.active() + roll(1)) % 2; }")
    _refused_at(tmp_path, text, "    default { return (player.active() + roll(1)) % 2; }", 41,
                "roll() in a turn's default block is not lowerable: random throws the dice of a phase as the flow "
                "enters it (throw them in a phase's code instead)")


def test_a_dice_game_compiled_validates_and_is_smaller_than_spelled(tmp_path):
    """`--moves compiled` takes an action's dice (tgpl.lowering.compiled, `CompiledGame.throws`): the move is
    remembered while random throws, random's legal moves are the die's faces, every one compared with the
    runtime's draws by the bisimulation; Race compiled is fewer rules with a body than spelled out."""
    r = to_gdl(tmp_path, EXAMPLES / "race.tgpl", "--moves", "compiled")
    assert r.exit_code == 0, r.output
    text = r.kif
    assert "; validated: bisimulation, 105 states" in text
    assert "\n(role random)\n" in text and "(input random noop)" in text
    assert sorted(re.findall(r"\(input random \(roll (\d+)\)\)", text)) == ["1", "2", "3", "4"]
    assert len(re.findall(r"^\(<= \(legal random ", text, re.M)) == 1  # one move throws: Dash
    assert "(sees ?r (did ?q ?m))" in text
    compiled = r.out
    spelled = tmp_path / "spelled"
    spelled.mkdir()
    r = to_gdl(spelled, EXAMPLES / "race.tgpl", "--moves", "spelled", "--no-validate")
    assert r.exit_code == 0, r.output
    assert rules_with_a_body(text) < rules_with_a_body(r.kif)
    r = CliRunner().invoke(main, ["check-gdl", str(compiled)])
    assert r.exit_code == 0, r.output


def test_two_dice_compiled_are_36_moves_of_random_validated(tmp_path):
    """Two dice of one move compiled: random's move `(roll2 a b)` over the 36 faces, the effect reading them in the
    order drawn, validated against the runtime."""
    src = tmp_path / "dice.tgpl"
    src.write_text(GAME.format(body="            number a = roll(6);\n            Score += 2 * a + roll(6);").replace(
        "Score >= 6", "Score >= 12"))
    r = to_gdl(tmp_path, src, "--moves", "compiled")
    assert r.exit_code == 0, r.output
    text = r.kif
    assert "; validated: " in text.splitlines()[1]
    assert len(re.findall(r"\(input random \(roll2 \d \d\)\)", text)) == 36


def test_two_dice_of_different_sides_compiled_are_random_moves_of_both_validated(tmp_path):
    """A die of three faces and one of two in one move compiled: random's moves are the six pairs, each die's
    faces its own table, both written (the smaller one's table was once left out: no `legal random` rule held,
    which the validation caught)."""
    src = tmp_path / "dice.tgpl"
    src.write_text(GAME.format(body="            Score += roll(3) + roll(2);"))
    r = to_gdl(tmp_path, src, "--moves", "compiled")
    assert r.exit_code == 0, r.output
    text = r.kif
    assert "; validated: " in text.splitlines()[1]
    assert sorted(re.findall(r"\(input random \(roll2 (\d) (\d)\)\)", text)) == [
        (a, b) for a in "123" for b in "12"]


def test_a_compiled_die_one_face_short_fails_the_validation(monkeypatch, tmp_path):
    """A compiled lowering whose dice lack their last face is caught: random's moves differ from the runtime's."""
    from tgpl.lowering.compiled import CompiledGame
    real = CompiledGame.face_table
    monkeypatch.setattr(CompiledGame, "face_table", lambda g, sides: real(g, sides - 1))
    r = to_gdl(tmp_path, EXAMPLES / "race.tgpl", "--moves", "compiled")
    assert r.exit_code == 2, r.output
    assert "the GDL differs from the runtime" in r.output and "(roll 4)" in r.output
    assert not r.out.exists()


def test_shut_the_box_is_compiled_by_auto_validated_and_compact(tmp_path):
    """tests/data/designers/shutbox.tgpl (issue 34): spelled out, 20,552 rules with a body; `auto` compiles it (a
    loop writes the state), its dice random's moves, its score a function's running total (`OpenTotal`, which
    the counters' relaxation evaluates: `compiled._counting_functions`), validated against the runtime."""
    r = to_gdl(tmp_path, Path(__file__).resolve().parents[1] / "data" / "designers" / "shutbox.tgpl",
                     "--moves", "auto")
    assert r.exit_code == 0, r.output
    text = r.kif
    assert text.splitlines()[1].startswith("; validated: ")
    assert rules_with_a_body(text) <= 2_000
    assert sorted(re.findall(r"\(input random \(roll (\d+)\)\)", text)) == [str(k) for k in range(1, 7)]
    assert len(re.findall(r"\(input random \(roll2 \d \d\)\)", text)) == 36
    assert len(re.findall(r"^\(<= \(legal random ", text, re.M)) == 2  # RollOne's die, RollTwo's two


def test_dice_in_a_game_with_secrets_are_not_compiled(tmp_path):
    """The percepts of a game with secrets are written for the spelled-out moves (tgpl.lowering.percepts):
    `--moves compiled` refuses the game, `auto` spells it out."""
    src = tmp_path / "dice.tgpl"
    src.write_text(GAME.format(body="            Score += roll(3);").replace(
        "    number Score = 0;", "    number Score = 0;\n    private number Secret = 0;"))
    r = to_gdl(tmp_path, src, "--moves", "compiled", "--no-validate")
    assert r.exit_code == 2 and "a game with secrets (its GDL-II percepts" in r.output, r.output
    assert not r.out.exists()


def test_a_dealing_game_is_not_compiled(tmp_path):
    """Deals (and setup's dice) are random's moves the spelled-out segments alone make."""
    r = to_gdl(tmp_path, EXAMPLES.parent / "tests" / "data" / "lowering" / "deal.tgpl", "--moves", "compiled",
                     "--no-validate")
    assert r.exit_code == 2
    assert ("deal.tgpl:61:22: error: not lowerable: a game whose deal or setup's die is random's move (GDL-II) is "
            "lowered with its moves spelled out, not compiled") in r.output
    assert not r.out.exists()


def test_pigs_gdl_ii_ends_by_chance_and_has_the_tgpls_expected_goals(tmp_path):
    """Pig's graph has cycles (two busts in a row come back to a state): on its GDL-II, verify leaves them through
    random's states, as on the .tgpl through the chance nodes, and iterates the same expected goals."""
    r = to_gdl(tmp_path, EXAMPLES / "pig.tgpl")
    assert r.exit_code == 0, r.output
    tgpl = json.loads(CliRunner().invoke(main, ["verify", str(EXAMPLES / "pig.tgpl"), "--json"]).output)
    r = CliRunner().invoke(main, ["verify", str(r.out), "--json"])
    assert r.exit_code == 0, r.output
    kif = json.loads(r.output)
    assert kif["terminates"] and kif["loops_only_by_chance"] and kif["well_formed"]
    assert kif["states"] == 2304 and kif["transitions"] == 5310
    assert kif["gdl_ii"]["expected_goals_exact"] is None and kif["gdl_ii"]["expected_goals_sweeps"] > 0
    for k in range(2):
        assert abs(kif["gdl_ii"]["expected_goals"][f"player_{k}"] - tgpl["expected_goal"][f"player {k}"]) < 1e-9
    assert kif["gdl_ii"]["hidden"] == {"player_0": None, "player_1": None}


Z99_CHI2_10 = 23.209  # the 99 % quantile of the chi-square law with 10 degrees of freedom


def _sum_counts(kif: Path, plays: int) -> tuple[dict[int, int], dict[int, int]]:
    """For the two-dice game below lowered to `kif`: how many of random's moves after player 0's first Throw give
    each sum (`exact`), and how often each sum comes in `plays` plays of random uniform over its legal moves, as
    GDL-II says (`seen`), read from the GDL state's (score seat_0 ?) fluent."""
    from tgpl.asp.reasoner import GdlGame
    import random

    game = GdlGame.load(str(kif))
    roles = [str(r) for r in game.roles]
    state = game.initial_state()
    noop = [m for m in state.legal_moves(game.roles[1]) if str(m) == "noop"][0]
    thrown = state.apply([state.legal_moves(game.roles[0])[0], noop, noop])

    def score(after) -> int:
        return next(int(f[len("(score seat_0 "):-1]) for f in after.fluent_texts() if f.startswith("(score seat_0 "))
    rolls = thrown.legal_moves(game.roles[roles.index("random")])
    after = {str(m): score(thrown.apply([noop, noop, m])) for m in rolls}
    exact: dict[int, int] = {}
    for v in after.values():
        exact[v] = exact.get(v, 0) + 1
    rng = random.Random(0)
    seen: dict[int, int] = {}
    for _ in range(plays):
        v = after[str(rng.choice(rolls))]
        seen[v] = seen.get(v, 0) + 1
    return exact, seen


def test_two_dice_sum_as_two_dice_do_on_the_gdl_ii(tmp_path):
    """Two six-sided dice in one action are one move of random's among 36: their sum comes as 2d6's does, exactly
    (the moves counted) and over 20,000 plays of random (a chi-square test at 99 %), and the validation compared
    every one of the 36 outcomes with the runtime's draws."""
    out, text = _validated(tmp_path, GAME.format(body="            Score += roll(6) + roll(6);").replace(
        "Score >= 6", "Score >= 24"))
    assert "(rollN f1 ... fN) for the faces of the N dice one move throws" in text
    assert "(input random (roll2 6 6))" in text and "(input random (roll2 7" not in text
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    two_d6 = {s: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s) for s in range(2, 13)}
    plays = 20_000
    exact, seen = _sum_counts(out, plays)
    assert exact == two_d6
    chi2 = sum((seen.get(s, 0) - plays * n / 36) ** 2 / (plays * n / 36) for s, n in two_d6.items())
    assert chi2 < Z99_CHI2_10, (chi2, seen)
    # the test tells a wrong law apart: the sums equally likely
    flat = sum((seen.get(s, 0) - plays / 11) ** 2 / (plays / 11) for s in two_d6)
    assert flat > Z99_CHI2_10


def test_sevens_two_dice_a_move_lowers_validated(tmp_path):
    """tests/data/designers/sevens.tgpl throws roll(3) and roll(4) in one action: random's move is their two
    faces. As written its pot grows without bound (roll on for ever without a seven), and is capped
    (tests/lowering/test_capped_counters.py); ending the game as soon as the banked points and the pot reach the
    target (as Pig does) bounds it, and it lowers uncapped, every one of the 12 ways the dice fall compared with
    the runtime by bisimulation."""
    source = Path(__file__).resolve().parents[1] / "data" / "designers" / "sevens.tgpl"
    text = source.read_text().replace("Pot += a + b;", "Pot += a + b;\n                if (Banked + Pot >= 8) "
                                      "{ winner player; }").replace("Banked >= 20", "Banked >= 8")
    out, kif = _validated(tmp_path, text, "sevens.tgpl")
    assert "sevens.tgpl:27:24, " in kif and "sevens.tgpl:28:24 are moves of the chance role random" in kif
    assert "(rollN f1 ... fN)" in kif and "(roll k)" not in kif  # the header names the moves it has
    rolls = sorted(re.findall(r"\(input random \(roll2 (\d) (\d)\)\)", kif))
    assert rolls == [(str(a), str(b)) for a in range(1, 4) for b in range(1, 5)]


def test_one_die_in_setup_and_two_in_a_move_are_two_functions(tmp_path):
    """GDL gives a function one arity: setup's one die is (roll k), the move's two dice (roll2 a b)."""
    text = GAME.format(body="            Score += roll(2) + roll(3);").replace(
        "        s.assign(p);", "        s.assign(p);\n        s.Score = roll(2) - 1;")
    out, kif = _validated(tmp_path, text)
    assert "(input random (roll 4))" in kif and "(input random (roll2 2 3))" in kif
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output


def test_two_dice_one_face_short_fail_the_validation(monkeypatch, tmp_path):
    """A lowering whose second die has a face too few is caught: random's moves differ from the runtime's draws."""
    src = tmp_path / "dice.tgpl"
    src.write_text(GAME.format(body="            number a = roll(3);\n            Score += a + roll(2);"))
    _last_die_short(monkeypatch)
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 2, r.output
    assert "the GDL differs from the runtime" in r.output
    assert "legal moves only in the runtime: (roll2 1 2); (roll2 2 2); (roll2 3 2)" in r.output
    assert not r.out.exists()
