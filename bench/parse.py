"""Parse and check throughput on a large generated TGPL program.

    python bench/parse.py [--units 200] [--repeat 3]

Prints lines per second for parsing alone and for the whole front end
(parse + imports + checks), each also as a ratio to CPython's own
`ast.parse` of a Python program of about the same shape and size, measured
in the same run, so figures compare across machines.
"""

from __future__ import annotations

import argparse
import ast as pyast
import tempfile
import time
from pathlib import Path

from tgpl.frontend.loader import load_program
from tgpl.frontend.parser import parse_text

UNIT = """
tile Cell{i}
{{
    PlayerState{i} Owner = null;
    number Weight = {i};
}}

class PlayerState{i}
{{
    number Score = 0;
    List<number> History = {{1, 2, 3}};

    function Bonus
    {{
        function input number start;
        function input number factor = 2;
        returns number;
        effect
        {{
            number total = 0;
            for (number k = 0; k < start; k += 1)
            {{
                if (k % 2 == 0) {{ total += k * factor; }}
                else if (k > 10) {{ total -= 1; }}
                else {{ total = total + History.length; }}
            }}
            return total;
        }}
    }}

    action Claim
    {{
        input Cell{i} target
        {{
            return target.Owner == null && target.Weight >= 0;
        }}
        require {{ return Score < 100; }}
        trigger PlayerChoiceEvent {{ return true; }}
        prio 1;
        effect
        {{
            target.Owner = this;
            Score += Bonus(start: target.Weight, factor: 3);
            log("claimed " + target.Weight);
            turn.pass();
        }}
    }}
}}
"""

HEADER = """game "bench";
players 2;
setup
{
    turn.use("Main");
    turn.pass(0, "Play");
}
turn Main
{
    phase Play { }
    default { return player.active() + 1; }
}
"""

PY_UNIT = """
class Cell{i}:
    owner = None
    weight = {i}

class PlayerState{i}:
    score = 0
    history = [1, 2, 3]

    def bonus(self, start, factor=2):
        total = 0
        for k in range(0, start):
            if k % 2 == 0:
                total += k * factor
            elif k > 10:
                total -= 1
            else:
                total = total + len(self.history)
        return total

    def claim_filter(self, target):
        return target.owner is None and target.weight >= 0

    def claim_require(self):
        return self.score < 100

    def claim_trigger(self, event):
        return True

    def claim(self, target):
        target.owner = self
        self.score += self.bonus(start=target.weight, factor=3)
        print("claimed " + str(target.weight))
        turn_pass()
"""


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--units", type=int, default=200)
    args.add_argument("--repeat", type=int, default=3)
    opts = args.parse_args()

    source = HEADER + "".join(UNIT.format(i=i) for i in range(opts.units))
    py_source = "".join(PY_UNIT.format(i=i) for i in range(opts.units))
    lines = source.count("\n")
    py_lines = py_source.count("\n")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.tgpl"
        path.write_text(source, encoding="utf-8")
        program = load_program(path)
        assert program.ok, [d.header() for d in program.diagnostics[:5]]
        reference = best_of(opts.repeat, lambda: pyast.parse(py_source))
        parse = best_of(opts.repeat, lambda: parse_text(source, "bench.tgpl"))
        full = best_of(opts.repeat, lambda: load_program(path))

    ref_rate = py_lines / reference
    print(f"program: {lines} lines of TGPL ({opts.units} units); reference: {py_lines} lines of Python")
    print(f"{'stage':<28}{'lines/s':>12}{'ratio to ast.parse':>22}")
    print(f"{'CPython ast.parse (ref)':<28}{ref_rate:>12,.0f}{1.0:>22.3f}")
    for name, seconds in (("tgpl parse", parse), ("tgpl parse+check", full)):
        rate = lines / seconds
        print(f"{name:<28}{rate:>12,.0f}{rate / ref_rate:>22.3f}")


if __name__ == "__main__":
    main()
