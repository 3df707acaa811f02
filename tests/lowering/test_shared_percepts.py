"""Percepts of a fluent read the relation its `next` rules define once (tgpl.lowering.percepts._seen_next):
every role sees exactly what it saw when each `next` rule was copied as a `sees` rule, with fewer rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tgpl.asp.reasoner import GdlGame
from tgpl.lowering import percepts
from to_gdl_runs import rules_with_a_body, to_gdl

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize("name", ["lowering/deal.tgpl", "designers/goofspiel.tgpl"])
def test_shared_percepts_see_what_copied_percepts_saw(name, tmp_path, monkeypatch):
    shared = to_gdl(tmp_path, DATA / name, "--no-validate").written()
    assert "(tgpl_next_" in shared
    monkeypatch.setattr(percepts, "SHARED_FROM", 10**9)  # every `next` rule of a seen fluent copied
    copied = to_gdl(tmp_path, DATA / name, "--no-validate").written()
    assert "(tgpl_next_" not in copied
    assert rules_with_a_body(shared) < rules_with_a_body(copied)
    a, b = GdlGame.from_text(shared), GdlGame.from_text(copied)
    rng = random.Random(7)
    seen = 0
    for _ in range(8):
        sa, sb = a.initial_state(), b.initial_state()
        while not sa.is_terminal:
            assert sa.fluent_texts() == sb.fluent_texts()
            moves = sorted(sa.legal_moves(), key=str)
            assert [str(m) for m in moves] == sorted(map(str, sb.legal_moves()))
            move = rng.choice(moves)
            sa, sb = sa.apply(move), sb.apply(move)
            assert [sorted(map(str, s)) for s in sa.seen] == [sorted(map(str, s)) for s in sb.seen]
            seen += sum(len(s) for s in sa.seen)
    assert seen > 0
