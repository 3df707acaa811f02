"""A game that draws random numbers is a chance game: with `--chance seed` (or too many outcomes) `tgpl verify`
explores the states of one seed and says so of its claims (every outcome: tests/verify/test_chance_nodes.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.after_setup import chance_sites
from tgpl.frontend.loader import load_program

DATA = Path(__file__).resolve().parents[1] / "data"
DICE = str(DATA / "dice.tgpl")  # one roll of a shuffled die decides: a 4 or more wins for the roller, else a draw
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _verify(*args: str):
    return CliRunner().invoke(main, ["verify", *args])


def test_the_shuffles_are_found_in_setup_and_in_play():
    assert [(s.line, s.col) for s in chance_sites(load_program(DICE))] == [(24, 13)]
    assert chance_sites(load_program(str(EXAMPLES / "tris.tgpl"))) == []
    # citadels shuffles its district deck in the deck's `default` block, and its characters every round
    citadels = [f"{Path(s.file).name}:{s.line}" for s in chance_sites(load_program(str(EXAMPLES / "citadels" / "citadels.tgpl")))]
    assert citadels == ["districts.tgpl:81", "table.tgpl:214", "table.tgpl:274"]


def test_the_dice_games_value_is_claimed_for_its_seed_only():
    values = set()
    for seed in range(6):
        r = _verify(DICE, "--seed", str(seed), "--chance", "seed")
        problems = [line for line in r.output.splitlines() if line.startswith("problem ")]
        assert r.exit_code == (1 if problems else 0), r.output  # a drawn roll: "never wins", for that seed
        assert all(line.endswith(f"(for seed {seed})") for line in problems)
        assert f"these are the states of seed {seed}, one sample of its draws, and the claims below hold for that seed only" in r.output
        assert "dice.tgpl:24:13" in r.output
        value = next(line for line in r.output.splitlines() if line.startswith("  value: "))
        assert value.endswith(f"(for seed {seed})")
        values.add(value.split("(for seed")[0])
    assert len(values) == 2  # the roll decides: some seeds give the roller the game, others a draw


def test_the_json_report_names_the_seed_and_a_game_without_chance_says_nothing():
    r = _verify(DICE, "--seed", "5", "--json", "--chance", "seed")
    rep = json.loads(r.output)
    assert rep["chance"]["seed"] == 5 and rep["chance"]["sites"][0].endswith("dice.tgpl:24:13")
    plain = _verify(str(EXAMPLES / "tris.tgpl"))
    assert "  chance:" not in plain.output and "for seed" not in plain.output  # (the path may say chance)
    assert json.loads(_verify(str(EXAMPLES / "tris.tgpl"), "--json").output)["chance"] is None


DECK = DATA / "default_deck.tgpl"  # a deck shuffled in its own `default` block decides who wins
DECK_VARIANTS = {
    "shuffle();": "shuffle();",  # as docs/language.md teaches
    "this.shuffle();": "this.shuffle();",
    "a function": "Mix();\n    }\n    function Mix\n    {\n        returns;\n        effect { shuffle(); }",
}


def _deck_variant(tmp_path: Path, name: str) -> Path:
    text = DECK.read_text(encoding="utf-8")
    out = tmp_path / "deck.tgpl"
    out.write_text(text.replace("        shuffle();", "        " + DECK_VARIANTS[name]), encoding="utf-8")
    return out


def test_a_deck_shuffled_in_its_default_block_is_a_chance_game(tmp_path):
    """The issue's wrong answer: seeds 0 and 2 gave opposite values, neither labelled as a seed's."""
    for name in DECK_VARIANTS:
        path = _deck_variant(tmp_path, name)
        program = load_program(str(path))
        assert program.ok, name
        sites = chance_sites(program)
        assert len(sites) == 1 and Path(sites[0].file).name == "deck.tgpl", name
        where = f"deck.tgpl:{sites[0].line}:{sites[0].col}"
        values = {}
        for seed in (0, 2):
            r = _verify(str(path), "--seed", str(seed), "--chance", "seed")
            assert where in r.output and f"the claims below hold for that seed only" in r.output, r.output
            value = next(line for line in r.output.splitlines() if line.startswith("  value: "))
            assert value.endswith(f"(for seed {seed})"), value
            values[seed] = value
        seeing = " (computed with every role seeing the whole state, not the game's value)"  # the deck's order
        assert values == {0: f"  value: win for player 0{seeing} (for seed 0)",
                          2: f"  value: win for player 1{seeing} (for seed 2)"}


def test_analyze_and_to_gdl_name_the_chance_sites(tmp_path):
    deck = str(DECK)
    r = CliRunner().invoke(main, ["analyze", deck, "--games", "4", "--json"])
    sites = json.loads(r.stdout)["chance"]
    assert len(sites) == 1 and sites[0].endswith("default_deck.tgpl:31:9"), sites
    r = CliRunner().invoke(main, ["analyze", deck, "--games", "4"])
    assert f"chance: the game draws on its random numbers at {sites[0]}: the figures are over the seeds 0..3" in r.stdout
    out = tmp_path / "deck.kif"
    r = CliRunner().invoke(main, ["to-gdl", deck, "--seed", "2", "-o", str(out)])
    assert r.exit_code == 0, r.output
    # made shuffled and only popped in play: random deals each draw (language decision 102), whatever the seed
    text = out.read_text(encoding="utf-8")
    assert "; GDL-II: the pop() at " in text and f"its shuffles at {sites[0]} change nothing here" in text
    assert "; Chance:" not in text
    plain = CliRunner().invoke(main, ["analyze", str(EXAMPLES / "tris.tgpl"), "--games", "2", "--json"])
    assert json.loads(plain.stdout)["chance"] is None
