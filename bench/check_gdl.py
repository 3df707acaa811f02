"""The time `tgpl check-gdl` takes on the lowered Connect Four, step by step, as ratios to Python's parser.

    python bench/check_gdl.py [--repeat 3] [GAME.kif ...]

Lowers examples/connect4.tgpl (and takes any KIF files given), then times reading the
KIF and validating it, and the part of validating that is the base/input check (one
clingo grounding of the relaxed game). The reference is CPython's `ast.parse` of the same text written as
nested Python tuples of strings, measured in the same run, so figures compare across
machines. The best of `--repeat` runs counts.
"""

from __future__ import annotations

import argparse
import ast
import re
import time
from pathlib import Path

from tgpl.asp.declared import undeclared
from tgpl.asp.kif import read_kif, to_kif
from tgpl.asp.validate import validate
from tgpl.pipeline import lower_game
from tgpl.runtime import load_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def as_python(kif: str) -> str:
    """The KIF text as a Python expression of the same shape: a tuple per list, a string per symbol."""
    text = re.sub(r";[^\n]*", "", kif)
    text = re.sub(r"[^\s()]+", lambda m: repr(m.group()) + ",", text)
    return "(" + text.replace(")", "),") + ")"


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--repeat", type=int, default=3)
    args.add_argument("files", nargs="*")
    options = args.parse_args()
    games = {"connect4 (lowered)": to_kif(lower_game(load_game(str(EXAMPLES / "connect4.tgpl")), 0).program)}
    games.update({f: Path(f).read_text(encoding="utf-8") for f in options.files})
    for name, text in games.items():
        program = read_kif(text)
        source = as_python(text)
        reference = best(options.repeat, lambda: ast.parse(source))
        read = best(options.repeat, lambda: read_kif(text))
        checked = best(options.repeat, lambda: validate(program))
        declared = best(options.repeat, lambda: undeclared(program))
        print(f"{name}: {len(program.rules)} rules, {len(text.splitlines())} lines; "
              f"ast.parse of the same shape {reference:.3f} s")
        for step, seconds in (("read", read), ("validate", checked), ("  of which base/input", declared),
                              ("read + validate", read + checked)):
            print(f"  {step:<22} {seconds:6.3f} s  ratio {seconds / reference:6.1f}")


if __name__ == "__main__":
    main()
