"""The defaults the docs give are the CLI's own (issue 36: docs/verify.md said `--max-states` 10,000,000
where `--help` says 1,000,000).

Every "`--option ...` (default X)" in README.md and docs/*.md is checked against the defaults the
commands declare, which `--help` shows: a number must be the default of that option in some command
that has it, a phrase (a quarter of the machine's memory) must be in the option's help where its
default is computed at run time.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from tgpl.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLAIM = re.compile(r"`(--[a-z][a-z-]*)(?: [A-Z]+)?` \(default:? ([^);]+)")


def options() -> dict[str, list[click.Option]]:
    """Every option of every command, by name."""
    found: dict[str, list[click.Option]] = {}
    commands = list(main.commands.values())
    while commands:
        command = commands.pop()
        if isinstance(command, click.Group):
            commands.extend(command.commands.values())
        for p in command.params:
            if isinstance(p, click.Option):
                for name in p.opts:
                    found.setdefault(name, []).append(p)
    return found


def claims() -> list[tuple[str, int, str, str]]:
    out = []
    for path in DOCS:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CLAIM.finditer(line):
                out.append((path.name, n, m.group(1), m.group(2).strip()))
    return out


def test_the_docs_say_some_defaults():
    said = {(name, value) for _, _, name, value in claims()}
    assert ("--max-states", "1,000,000") in said  # docs/verify.md
    assert len(said) >= 8


@pytest.mark.parametrize("where, line, name, value", claims(), ids=lambda x: str(x))
def test_each_default_in_the_docs_is_the_cli_default(where, line, name, value):
    known = options()
    assert name in known, f"{where}:{line}: {name} is no option of any command"
    number = re.fullmatch(r"(\d[\d, ]*\d|\d)", value)
    if number:
        said = float(number.group(1).replace(",", "").replace(" ", ""))
        defaults = sorted({p.default for p in known[name] if isinstance(p.default, (int, float))})
        assert said in defaults, f"{where}:{line}: {name} default {value}; the CLI's: {defaults}"
    else:
        phrase = value.split(",")[0].removesuffix(" memory").removesuffix("'s")
        computed = [p for p in known[name] if p.default is None]
        assert computed and all(phrase in (p.help or "") for p in computed), \
            f"{where}:{line}: {name} default '{value}'; the CLI's help: {[p.help for p in known[name]]}"
