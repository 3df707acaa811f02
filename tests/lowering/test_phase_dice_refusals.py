"""What `to-gdl` and its dry run say of dice thrown in a phase (decision 117, tgpl.lowering.chance.phase_rolls).

Each refusal decision 117 lists is made on an edit of tests/data/lowering/phase_dice.tgpl: located at the die with
a caret, exit 2, nothing written, the rewrite it names in its text; where that rewrite is a small edit of the same
game, the rewritten game lowers and validates. The dry run says how the phase lowers (random's move as the flow
enters it, spelled out; refused with the moves compiled), with the figures `to-gdl --stats` gives, and a failed
validation is located at the phase's die, naming the move that entered the phase."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering.chance import Throw

from refused_alike import located, refused_alike

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
PHASE_DICE = DATA / "phase_dice.tgpl"
SOURCE = PHASE_DICE.read_text()

ROLL_PHASE_END = '            turn.pass(player.active(), "Move");\n        }\n    }\n'
DECK = """
interactable Chip { number V = 0; }

stack Chips
{
    returns Chip;
    default
    {
        for (number v = 1; v <= 14; v += 1)
        {
            Chip c = new Chip();
            c.V = v;
            push(c);
        }
        shuffle();
    }
}

global class Bag { Chips Pile = null; }

global class Race"""
SHUFFLE_POP = "Bag.Pile.shuffle();\n        Chip k = Bag.Pile.pop();\n"


def edited(*edits: tuple[str, str]) -> str:
    """phase_dice.tgpl with each (old, new) replaced, every old text present once at its turn."""
    text = SOURCE
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


WITH_DECK = (("global class Race", DECK),
             ('    turn.use("Turns");', '    Bag.Pile = new Chips();\n    turn.use("Turns");'))

# name: (the game, the die refused as written in it, the refusal after its location)
REFUSED = {
    "default": (edited(("        return player.active() + 1;",
                        "        number d = roll(2);\n        return player.active() + d;")),
                "roll(2);\n        return",
                "roll() in a turn's default block is not lowerable: random throws the dice of a phase as the flow "
                "enters it (throw them in a phase's code instead)"),
    "ways": (edited(("number coin = roll(2);", "number coin = roll(400);")), "roll(400)",
             "phase Roll's dice fall in 1,200 ways at this roll, more than the 1,000 moves random may have as the "
             "flow enters the phase (throw fewer dice, or throw some in a phase of their own that this one passes "
             "to)"),
    "secret": (edited(("    number Pos = 0;\n", "    number Pos = 0;\n    private number Luck = 0;\n")), "roll(3)",
               "roll() in a phase is lowered only in a game without private attributes (throw the dice in an "
               "action's effect: random's move after the player's)"),
    "input": (edited(("    phase Roll\n    {\n", "    phase Roll\n    {\n        input bool hold { return true; }\n"
                                              "        effect\n        {\n"),
                     (ROLL_PHASE_END, ROLL_PHASE_END.replace("    }\n", "    }\n    }\n", 1))), "roll(3)",
              "roll() in phase Roll, which asks an input, is not lowerable: the input is a move of its own and the "
              "dice random's move as the flow enters the phase, two steps the lowering does not combine in one "
              "phase (throw the dice in a phase of their own and make the choice an action of the phase it passes "
              "to)"),
    "deals": (edited(*WITH_DECK, ("        Race.Die = die;\n", "        Race.Die = die;\n        " + SHUFFLE_POP)),
              "roll(3)",
              "roll() in phase Roll, which also deals from a shuffled deck, is not lowerable: random's move as the "
              "flow enters a phase gives the faces of its dice only (deal from the deck in setup only, where its "
              "order is the seed's: a phase's dice then lower)"),
    "dealt": (edited(*WITH_DECK, ("            Advance(runner: this, steps: 1);",
                                  "            " + SHUFFLE_POP.replace("\n        ", "\n            ")
                                  + "            Advance(runner: this, steps: 1);")),
              "roll(3)",
              "roll() in a phase is lowered only in a game whose play deals from no shuffled deck (random's deal "
              "at each pop()) (deal from the deck in setup only, where its order is the seed's: a phase's dice "
              "then lower)"),
}

# the rewrites the refusals name, each a game that lowers and validates
REWRITTEN = {
    "ways": edited(("        number coin = roll(2);\n        Race.Die = die;\n",
                    '        Race.Die = die;\n        turn.pass(player.active(), "Coin");\n    }\n\n    phase Coin\n'
                    '    {\n        number coin = roll(400);\n        number die = Race.Die;\n')),
    "secret": edited(("    number Pos = 0;\n", "    number Pos = 0;\n    private number Luck = 0;\n"),
                     ("steps: Race.Die", "steps: roll(3)"),
                     ("number die = roll(3);\n        number coin = roll(2);",
                      "number die = 1;\n        number coin = 1;")),
    "deals": edited(*WITH_DECK[:1], ('    turn.use("Turns");', '    Bag.Pile = new Chips();\n    Chip first = '
                                                             'Bag.Pile.pop();\n    turn.use("Turns");')),
    "asked after": edited(('            turn.pass(player.active(), "Move");\n        }\n    }\n',
                           '            turn.pass(player.active(), "Ask");\n        }\n    }\n\n    phase Ask { }\n'),
                          ("    action Walk\n", "    action Hold\n    {\n"
                                               '        require { return turn.phase.active() == "Ask"; }\n'
                                               "        trigger PlayerChoiceEvent { return true; }\n"
                                               '        effect { turn.pass(player.active(), "Move"); }\n'
                                               "    }\n\n    action Walk\n")),
}

# a throw whose flow passes, in the same move, to a phase that asks an input: refused in the symbolic execution,
# which the dry run runs too, and rewritten as "asked after" (issue 34); the phase's throw, and an action's
ASK = ('            turn.pass(player.active(), "Move");\n        }\n    }\n',
       '            turn.pass(player.active(), "Ask");\n        }\n    }\n\n    phase Ask\n    {\n'
       '        input bool hold { return true; }\n        effect { turn.pass(player.active(), "Move"); }\n    }\n')
ASKED_AFTER = {
    "phase": (edited(ASK), "roll(3)", "roll() in phase Roll"),
    "action": (edited(ASK, ("number die = roll(3);\n        number coin = roll(2);",
                            "number die = 1;\n        number coin = 1;"),
                      ("steps: Race.Die", "steps: roll(3)"),
                      ('turn.pass(runner.player + 1, "Roll");', 'turn.pass(runner.player + 1, "Ask");')),
               "roll(3)", "the dice of action Run"),
}


@pytest.mark.parametrize("name", sorted(ASKED_AFTER))
def test_a_throw_passing_to_a_phase_that_asks_an_input_is_refused_at_the_die_by_to_gdl_and_the_dry_run(name,
                                                                                                       tmp_path):
    """The runtime waits for the input in the middle of the move, after the draws, and resumes at the phase's
    entry, which the validation does not replay: once a validation failure blaming the lowering (the phase's
    throw) or a traceback (the action's), now a refusal before it, naming the rewrite (REWRITTEN["asked
    after"], which lowers and validates). The dry run, which runs the same symbolic execution, refuses it
    alike, the part refused, its hint naming that rewrite (not only the docs' section)."""
    text, die, thrower = ASKED_AFTER[name]
    src = tmp_path / "asked.tgpl"
    src.write_text(text)
    hint, lines = refused_alike(src, tmp_path / "asked.kif", die,
                                f"{thrower}, whose flow passes in the same move to phase Ask, which asks an input, is "
                                "not lowerable: the runtime waits for the input in the middle of the move, after the "
                                "draws, which the validation against the runtime does not replay (make the choice an "
                                "action of phase Ask, required in it with turn.phase.active())", len(die))
    assert hint.startswith("  note: hint: make the choice an action of the phase the throw passes to, required in "
                           "it with turn.phase.active(), rather than that phase's input"), hint
    part = next(line for line in lines if line.startswith("  NO "))
    assert part.split()[2] == ("Turns.Roll" if name == "phase" else "Runner.Run"), part


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_each_refusal_is_located_at_the_die_and_writes_nothing(name, tmp_path):
    text, die, reason = REFUSED[name]
    src = tmp_path / f"{name}.tgpl"
    src.write_text(text)
    hint, _ = refused_alike(src, tmp_path / f"{name}.kif", die, reason, len(die.split(";")[0]))
    assert hint.startswith("  note: hint: "), hint


@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_the_rewrite_a_refusal_names_lowers_and_validates(name, tmp_path):
    src = tmp_path / f"{name}.tgpl"
    src.write_text(REWRITTEN[name])
    out = tmp_path / f"{name}.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "(role random)" in out.read_text()


def test_the_dry_run_says_the_phase_is_random_s_move_with_the_figures_of_to_gdl(tmp_path):
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", str(PHASE_DICE)])
    assert dry.exit_code == 0, dry.output
    roll = next(line for line in dry.output.splitlines() if "phase     Turns.Roll" in line)
    assert "random's move as the flow enters it, (roll2 ...) throwing its 2 dice (6 ways), then run with them" \
           in roll, roll
    assert "run after every move" not in roll
    assert "its moves spelled out one by one (dice thrown in a phase" in dry.output.splitlines()[0]
    stats = CliRunner().invoke(main, ["to-gdl", "--stats", "--no-validate", str(PHASE_DICE)])
    assert stats.exit_code == 0, stats.output
    counted = dict(re.findall(r"^(moves|control states)\s+(\d+)$", stats.output, re.M))
    figures = dict(re.findall(r"(control states|moves) (\d+)", dry.output.split("figures: ")[1].splitlines()[0]))
    assert counted == figures and set(counted) == {"moves", "control states"}, (counted, figures)


def test_the_dry_run_refuses_the_compiled_moves_at_the_die_as_to_gdl_does(tmp_path):
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", "--moves", "compiled", str(PHASE_DICE)])
    assert dry.exit_code == 1, dry.output
    error = next(line for line in dry.output.splitlines() if ": error:" in line)
    assert error.endswith(f"phase_dice.tgpl:{located(SOURCE, 'roll(3)')}: error: not lowerable: a game whose "
                          "phase throws dice (random's move as the flow enters it, GDL-II) is lowered with its "
                          "moves spelled out, not compiled (--moves spelled or auto)"), error
    assert "note: hint: lower the game with its moves spelled out" in dry.output
    parts = {line.split()[2]: line for line in dry.output.splitlines() if line.startswith("  ")
             and len(line.split()) > 2 and line.split()[1] in ("action", "phase", "function")}
    assert parts["Turns.Roll"].split()[0] == "NO" and parts["Turns.Roll"].rstrip().endswith("refused")
    assert all("not tried (refused first)" in line for name, line in parts.items() if name != "Turns.Roll")
    out = tmp_path / "x.kif"
    lowered = CliRunner().invoke(main, ["to-gdl", "--moves", "compiled", str(PHASE_DICE), "-o", str(out)])
    assert lowered.exit_code == 2 and not out.exists() and error in lowered.output, lowered.output


def test_a_failed_validation_is_located_at_the_phase_s_die_naming_the_entering_move(tmp_path, monkeypatch):
    """A wrong lowering of the dice (random's moves leave out the last face of the last die): the mismatch is at
    random's throw as the flow enters Roll, located at its first die, the move that entered it named."""
    real = Throw.faces.fget
    monkeypatch.setattr(Throw, "faces", property(lambda t: [f for f in real(t) if f[-1] < t.sides[-1]]))
    out = tmp_path / "bad.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(PHASE_DICE), "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    lines = r.output.splitlines()
    first = next(k for k, line in enumerate(lines) if ": error: the GDL differs" in line)
    assert re.fullmatch(rf".*phase_dice\.tgpl:{located(SOURCE, 'roll(3)')}: error: the GDL differs from the "
                        r"runtime after \d+ moves?; the last move is random's, throwing the dice of phase Roll as "
                        r"the flow enters it after action '(Run|Walk)' of Runner#\d", lines[first]), lines[first]
    assert lines[first + 2].split("|", 1)[1].strip() == "^" * len("roll(3)")
    assert re.search(r"note: the move that entered the phase: action '(Run|Walk)' of Runner#\d, declared at "
                     r".*phase_dice\.tgpl:\d+:\d+", r.output), r.output
