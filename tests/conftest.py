"""Fixtures shared across the test packages."""

from __future__ import annotations

import os
import re

import pytest

from tgpl.cli import MAX_SECONDS_VAR
from tgpl.runtime.rng import Pcg32

# No test passes or fails by the machine's speed (language decision 110): the commands the tests run have no
# wall-clock limit unless a test gives one on the command line; what a test needs bounded, it bounds by a count.
os.environ[MAX_SECONDS_VAR] = "inf"

EDITABLE = re.compile(
    r"(?<![\w.#\[])\d+(\.\d+)?(?![\w\]])|<=|>=|==|!=|&&|\|\||[-+*/%<>]|\btrue\b|\bfalse\b|\bnull\b"
)
ALTERNATIVES = [["+", "-", "*", "/", "%"], ["<", ">", "<=", ">=", "==", "!="], ["&&", "||"], ["true", "false", "null"]]


def mutate_text(text: str, rng: Pcg32) -> str:
    """One to three edits a designer might make: a number, an operator, `&&`/`||`, true/false/null."""
    for _ in range(1 + rng.below(3)):
        matches = list(EDITABLE.finditer(text))
        m = matches[rng.below(len(matches))]
        token = m.group(0)
        options = next((alt for alt in ALTERNATIVES if token in alt), None)
        new = str(rng.below(13) - 2) if options is None else options[rng.below(len(options))]
        text = text[: m.start()] + new + text[m.end() :]
    return text


@pytest.fixture
def mutate():
    return mutate_text


_LOWERINGS: dict = {}  # shared_lowering's: one per game text and options, for the worker's session


@pytest.fixture
def shared_lowering(monkeypatch):
    """`tgpl.pipeline.lower_game` made to lower each game once: the commands a test runs on one game (`to-gdl`,
    `verify`, ...) each lower it anew, which for a game as large as the lowered chess is most of their work. A
    call is answered from what an earlier call in this worker's session lowered where the game's source texts,
    its number of players and the lowering's options are the same (`progress` and `limits` aside: a shared
    lowering is not interrupted). A refusal (NotLowerable) is raised anew each time: it is not kept."""
    from tgpl import pipeline

    lower = pipeline.lower_game

    def once(game, seed=0, query_function=None, relations=False, global_checks=True, progress=None, moves="auto",
             limits=None):
        key = (tuple(sorted(game.program.sources.items())), game.players, seed, query_function, relations,
               global_checks, moves)
        if key not in _LOWERINGS:
            _LOWERINGS[key] = lower(game, seed, query_function, relations, global_checks, progress, moves, limits)
        return _LOWERINGS[key]

    monkeypatch.setattr(pipeline, "lower_game", once)
