"""A refusal `to-gdl` and its dry run make alike: the helper of the tests of the lowering's located refusals."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main


def located(text: str, what: str) -> str:
    """`line:col` of the first occurrence of `what` in `text`."""
    at = text.index(what)
    return f"{text.count(chr(10), 0, at) + 1}:{at - text.rfind(chr(10), 0, at)}"


def refused_alike(src: Path, out: Path, at: str, reason: str, width: int) -> tuple[str, list[str]]:
    """`tgpl check` passes src; `to-gdl src -o out` exits 2, writes nothing and shows no traceback, its first error
    `not lowerable: reason` located at the first occurrence of `at` in the source, a caret `width` wide under
    it; the dry run exits 1 with the same three lines (the error, the source line, the caret). Returns the dry
    run's line after them (its hint) and all its lines."""
    text = src.read_text()
    checked = CliRunner().invoke(main, ["check", str(src)])
    assert checked.exit_code == 0, checked.output
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    assert "Traceback" not in r.output
    said = r.output.splitlines()
    first = next(k for k, line in enumerate(said) if ": error:" in line)
    assert said[first].endswith(f"/{src.name}:{located(text, at)}: error: not lowerable: {reason}"), said[first]
    assert said[first + 2].split("|", 1)[1].strip() == "^" * width, said[first:first + 3]
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", str(src)])
    assert dry.exit_code == 1, dry.output
    lines = dry.output.splitlines()
    k = lines.index(said[first])
    assert lines[k + 1:k + 3] == said[first + 1:first + 3], dry.output
    return lines[k + 3], lines
