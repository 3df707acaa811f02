"""In-process mutation fuzzing of the commands, on a small budget (bench/fuzz.py runs long ones).

The bundled examples and records played on them are mutated by bench/fuzz.py's
operators (tokens and lines deleted, duplicated, swapped; identifiers, numbers and
strings replaced; files cut short; records tampered) and run through `check`,
`play`, `replay`, `to-gdl` and `check-gdl`. No case may raise, print a traceback,
give an unlocated error about a source, or overrun its time limit.

Deterministic by default; `TGPL_FUZZ_SEED=N` rotates the inputs. A failure names
the seed, the command and the mutated input.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
SEED = int(os.environ.get("TGPL_FUZZ_SEED", "0"))


def _load_fuzz():
    spec = importlib.util.spec_from_file_location("tgpl_bench_fuzz", ROOT / "bench" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()
SMALL = ["tris.tgpl", "cards.tgpl", "lib/deck.tgpl", "graph.tgpl", "treasure.tgpl"]
CHECKED = SMALL + ["connect4.tgpl", "hex.tgpl", "fiveinarow.tgpl"]  # chess and citadels take long to check


@pytest.fixture(scope="module")
def records():
    return fuzz._make_records()


def case_for(command: str, rng: random.Random, records) -> fuzz.Case:
    """A small case of `command`: the examples that play and lower fast, few moves."""
    if command == "check":
        rel = rng.choice(CHECKED)
        return fuzz.Case("check", ["check", fuzz.MAIN_OF.get(rel, rel)], {rel: fuzz.mutate(fuzz._read(rel), rng)})
    if command == "play":
        rel = rng.choice(SMALL)
        return fuzz.Case("play", ["play", fuzz.MAIN_OF.get(rel, rel), "--players", "random", "--quiet",
                                  "--seed", str(rng.randrange(50)), "--max-moves", "60"],
                         {rel: fuzz.mutate(fuzz._read(rel), rng)})
    if command == "replay":
        name, text = rng.choice(records)
        tampered, how = fuzz.tamper(text, rng)
        return fuzz.Case("replay", ["replay", "rec.json"], {"rec.json": tampered}, origin=f"{name}: {how}")
    if command == "to-gdl":
        return fuzz.Case("to-gdl", ["to-gdl", "tris.tgpl", "--no-validate", "--stats"],
                         {"tris.tgpl": fuzz.mutate(fuzz._read("tris.tgpl"), rng)})
    rel = "gdl/tictactoe.kif"
    return fuzz.Case("check-gdl", ["check-gdl", rel], {rel: fuzz.mutate(fuzz._read(rel), rng, kif=True)})


def _fuzz(command: str, n: int, records) -> None:
    case = case_for(command, random.Random(SEED * 1_000_003 + n), records)
    result = fuzz.run_case(case, limit=30)
    shown = "\n".join(f"--- {name} ---\n{text[:3000]}" for name, text in case.files.items())
    assert result.kind == "ok", (
        f"TGPL_FUZZ_SEED={SEED} case {n}: tgpl {' '.join(case.args)} ({case.origin or 'mutated'}): "
        f"{result.kind} {result.signature}\n{result.detail}\n{shown}")


def _budget(examples: int):
    return settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                    suppress_health_check=list(HealthCheck))


BUDGET = {"check": 120, "play": 50, "replay": 60, "to-gdl": 25, "check-gdl": 60}  # cases per run


@pytest.mark.parametrize("command", BUDGET)
def test_the_command_survives_mutated_inputs(records, command):
    @seed(SEED)
    @_budget(BUDGET[command])
    @given(n=st.integers(0, 2**31))
    def one_case(n):
        _fuzz(command, n, records)

    one_case()


def test_the_mutations_break_programs_and_records(records):
    """Guard against a fuzzer that only ever runs valid inputs."""
    rng = random.Random(SEED)
    from tgpl.frontend.loader import load_program

    text = fuzz._read("tris.tgpl")
    broken = sum(not load_program(ROOT / "examples" / "tris.tgpl", text=fuzz.mutate(text, rng)).ok
                 for _ in range(30))
    assert broken >= 10
    tampered = [fuzz.tamper(records[0][1], rng)[0] for _ in range(30)]
    assert sum(t != json.dumps(json.loads(records[0][1]), indent=1) for t in tampered) >= 20
