"""`roll(sides)`, the die (decision 95): typed by the checker, drawn from the game's seeded generator, kept by
records and replays, and refused by the lowering as a chance move."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.runtime.rng import Pcg32

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig.tgpl"


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    text = PIG.read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / "pig.tgpl"
    out.write_text(text.replace(old, new), encoding="utf-8")
    return out


def test_the_checker_types_roll(tmp_path):
    assert load_program(str(PIG)).ok
    bad = _variant(tmp_path, "number face = roll(6);", 'number face = roll("six");\n            string s = roll(6);')
    r = _run("check", str(bad))
    assert r.exit_code == 1
    assert "pig.tgpl:33:32: error: argument 'sides' of roll must be number, not string" in r.output
    assert "pig.tgpl:34:24: error: cannot initialize 's' of type string with number" in r.output


def test_the_rolls_are_the_seeded_generators_draws_and_replay(tmp_path):
    """Pig draws nothing but its rolls, so its log's faces are 1 + below(6) of the game's generator, in order."""
    for seed in (0, 7):
        record = tmp_path / f"pig{seed}.json"
        r = _run("play", str(PIG), "--players", "random,random", "--seed", str(seed), "--record", str(record),
                 "--quiet")
        assert r.exit_code == 0, r.output
        data = json.loads(record.read_text(encoding="utf-8"))
        faces = [int(line.rsplit(" ", 1)[1]) for line in data["log"]]
        rng = Pcg32(seed)
        assert faces == [1 + rng.below(6) for _ in faces]
        assert len(faces) == sum(m["move"].endswith(".Roll()") for m in data["moves"])
        again = tmp_path / f"again{seed}.json"
        _run("play", str(PIG), "--players", "random,random", "--seed", str(seed), "--record", str(again), "--quiet")
        assert again.read_bytes() == record.read_bytes()  # same seed, same game, byte for byte
        r = _run("replay", str(record))
        assert r.exit_code == 0 and "ok" in r.output, r.output
        data["log"][0] = data["log"][0][:-1] + ("2" if data["log"][0][-1] != "2" else "3")  # another roll
        record.write_text(json.dumps(data), encoding="utf-8")
        r = _run("replay", str(record))
        assert r.exit_code == 1 and "field 'log': line 1 differs from the replay's log" in r.output, r.output


def test_a_die_without_sides_is_a_located_runtime_error(tmp_path):
    bad = _variant(tmp_path, "roll(6)", "roll(Pig.TurnTotal)")  # 0 on the first roll
    r = _run("play", str(bad), "--players", "random,random", "--quiet")
    assert r.exit_code != 0
    assert "pig.tgpl:33:27: runtime error: roll() needs a whole number of sides, at least 1, not 0" in r.output
    assert "Traceback" not in r.output


def test_the_lowering_refuses_a_roll_it_cannot_make_randoms_move(tmp_path):
    """Pig's die lowers to GDL-II (tests/lowering/test_chance_out.py); a die of computed sides does not."""
    bad = _variant(tmp_path, "roll(6)", "roll(Pig.Target - 4)")
    out = tmp_path / "pig.kif"
    r = _run("to-gdl", str(bad), "-o", str(out))
    assert r.exit_code == 2, r.output  # the command cannot do its job
    assert ("pig.tgpl:33:27: error: not lowerable: roll() is lowered only with a whole number of sides written as "
            "a literal (`roll(6)`): random's moves are fixed") in r.output
    assert not out.exists()
