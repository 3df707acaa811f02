"""Property test: no text whatsoever makes the front end raise.

Thousands of mutations of the bundled examples (characters and tokens
deleted, duplicated, swapped, inserted) go through the whole front end,
parser, loader and checker; each must come back as diagnostics with sane
locations that render, never as a Python exception.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tgpl.frontend.diagnostics import render_all
from tgpl.frontend.loader import load_program

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SOURCES = {p: p.read_text(encoding="utf-8") for p in (EXAMPLES / "tris.tgpl", EXAMPLES / "cards.tgpl")}
TOKEN = re.compile(r'"[^"\n]*"|\w+|//[^\n]*|\S')
VOCABULARY = [
    "{", "}", "(", ")", "[", "]", ";", ",", ":", ".", "=", "==", "+=", "<", ">", ">>", "^", "!", "&&",
    "class", "global", "action", "input", "filter", "effect", "trigger", "require", "prio", "function",
    "returns", "turn", "phase", "default", "board", "group", "grid", "geometry", "tile", "stack", "event",
    "import", "game", "players", "setup", "winner", "return", "break", "continue", "if", "else", "for",
    "while", "new", "this", "base", "null", "true", "player", "List", "Table", "Stack", "is", "as",
    "x", "TickTile", "GameState", "0", "1.5", '"s"', '"GameTurn"', "@", "\u00e8", "\t", "\n", "override",
]


def mutate(text: str, ops: list[tuple[int, int, int, int]]) -> str:
    """Apply (kind, a, b, c) operations; indexes are taken modulo the current size."""
    for kind, a, b, c in ops:
        tokens = [m.span() for m in TOKEN.finditer(text)]
        if not tokens:
            text += VOCABULARY[c % len(VOCABULARY)]
            continue
        i, j = sorted((a % len(tokens), b % len(tokens)))
        start, end = tokens[i][0], tokens[j][1]
        if kind == 0:  # delete one token
            text = text[: tokens[i][0]] + text[tokens[i][1] :]
        elif kind == 1:  # delete a run of tokens
            text = text[:start] + text[end:]
        elif kind == 2:  # insert a vocabulary word
            word = VOCABULARY[c % len(VOCABULARY)]
            text = text[:start] + word + " " + text[start:]
        elif kind == 3:  # duplicate a run
            text = text[:end] + " " + text[start:end] + text[end:]
        elif kind == 4:  # swap two tokens
            (s1, e1), (s2, e2) = tokens[i], tokens[j]
            if s1 != s2:
                text = text[:s1] + text[s2:e2] + text[e1:s2] + text[s1:e1] + text[e2:]
        elif kind == 5:  # truncate
            text = text[:start]
        else:  # a raw character
            pos = a % (len(text) + 1)
            text = text[:pos] + chr(32 + c % 0x2FF) + text[pos:]
    return text


operation = st.tuples(st.integers(0, 6), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))


def check_never_raises(path: Path, text: str) -> None:
    program = load_program(path, text=text)
    lines = {f: src.splitlines() for f, src in program.sources.items()}
    for d in program.diagnostics:
        assert d.span.line >= 1 and d.span.col >= 1, d
        assert d.span.file in lines, d
        assert d.message
    render_all(program.diagnostics, program.sources)


@settings(max_examples=1500, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(operation, min_size=1, max_size=4))
def test_mutated_tris_never_raises(ops):
    path = EXAMPLES / "tris.tgpl"
    check_never_raises(path, mutate(SOURCES[path], ops))


@settings(max_examples=700, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(operation, min_size=1, max_size=4))
def test_mutated_cards_never_raises(ops):
    path = EXAMPLES / "cards.tgpl"
    check_never_raises(path, mutate(SOURCES[path], ops))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(text=st.text(max_size=200))
def test_arbitrary_text_never_raises(text):
    check_never_raises(EXAMPLES / "scratch.tgpl", text)


def test_mutations_really_break_the_program():
    """Guard against a fuzzer that only ever checks valid text."""
    path = EXAMPLES / "tris.tgpl"
    broken = sum(
        not load_program(path, text=mutate(SOURCES[path], [(1, k * 37, k * 37 + 3, 0)])).ok for k in range(10)
    )
    assert broken >= 8
