"""Counters whose sum every move keeps (tgpl/lowering/conserved.py): Kalah's seeds, proved to stay within
0..24 (0..8 in the small Kalah) on every way through every move, and the proof refused where a move makes or
loses a seed, however slightly. A bound not proved must never be used: a range too small drops moves from the
lowered game."""

from __future__ import annotations

import itertools
import traceback
from pathlib import Path

import pytest

from tgpl.limits import LimitReached, Limits

from tgpl.lowering import segments
from tgpl.lowering.conserved import conserved_families, linear
from tgpl.lowering.satisfy import Encoding
from tgpl.lowering.symbolic import Num
from tgpl.lowering.universe import Universe
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot

DATA = Path(__file__).resolve().parent.parent / "data"
DESIGNERS = DATA / "designers" / "kalah.tgpl"
OTHERS = DATA / "lowering" / "others" / "kalah.tgpl"


class _Logic(Exception):
    """The game's paths are found: the test needs nothing after them."""


def proved(path: Path, monkeypatch) -> dict:
    """The families conserved_families proves on the game's paths at its first loop cut, each attribute with the
    top of its range."""

    def found(logic, lowering):
        numeric = {k: fl for k, fl in logic.fluents.items() if fl.numeric}
        cut = {id(p) for p in lowering.ex.overflows}
        ranges = conserved_families({k: fl.initial for k, fl in numeric.items()},
                                    [p for st in logic.states.values() for p in st.paths if id(p) not in cut])
        raise _Logic({k[1]: r[-1] for k, r in ranges.items()})

    monkeypatch.setattr(segments, "number_domains", found)
    g = load_game(str(path))
    with pytest.raises(_Logic) as e:
        segments.lowered_logic(g.program, Universe.from_snapshot(snapshot(g.initial_state(0))),
                               lambda u: segments.Lowering(g.program, u))
    return e.value.args[0]


def test_both_kalahs_keep_their_seeds(monkeypatch):
    assert proved(DESIGNERS, monkeypatch) == {"Seeds": 24.0}
    assert proved(OTHERS, monkeypatch) == {"Seeds": 8.0}


@pytest.mark.parametrize("old, new", [
    ("h.Seeds += 1;", "h.Seeds += 2;"),                                             # a seed made while sowing
    ("mine.Seeds += opposite.Seeds + 1;", "mine.Seeds += opposite.Seeds + 2;"),     # one made by a capture
    ("pit.Seeds = 0;", "pit.Seeds = 1;"),                                           # a pit not emptied
    ("last.Seeds = 0;", "last.Seeds = 1;"),                                         # a capture that leaves one
    ("store.Seeds += board.SideSeeds(who: p);", "store.Seeds += board.SideSeeds(who: 1 - p);"),  # swept wrong
    ("last.Seeds == 1)", "last.Seeds <= 2)"),   # a capture from a pit that held one before: one seed lost
])
def test_a_move_that_makes_or_loses_a_seed_is_not_proved(tmp_path, monkeypatch, old, new):
    text = DESIGNERS.read_text(encoding="utf-8")
    assert text.count(old) == 1
    mutant = tmp_path / "kalah.tgpl"
    mutant.write_text(text.replace(old, new), encoding="utf-8")
    assert proved(mutant, monkeypatch) == {}


def test_a_store_that_gains_twice_is_not_proved(tmp_path, monkeypatch):
    text = OTHERS.read_text(encoding="utf-8")
    old = "at.Seeds += 1;"
    mutant = tmp_path / "kalah.tgpl"
    mutant.write_text(text.replace(old, old + " if (at.IsStore) { at.Seeds += 1; }"), encoding="utf-8")
    assert proved(mutant, monkeypatch) == {}


def test_only_sums_of_members_are_linear():
    a, b, other = ("A", "Seeds"), ("B", "Seeds"), ("A", "Score")
    family = {a, b}
    form = linear(Num("-", (Num("+", (Num("fluent", a), Num("*", (2.0, Num("fluent", b))))), 1.0)), family)
    assert form is not None and dict(form.terms) == {a: 1.0, b: 2.0} and form.constant == -1.0
    assert linear(Num("+", (Num("fluent", a), Num("fluent", other))), family) is None  # another counter
    assert linear(Num("*", (Num("fluent", a), Num("fluent", b))), family) is None  # a product of two
    assert linear(Num("/", (Num("fluent", a), 2.0)), family) is None


def test_the_proof_stops_at_the_first_check_past_the_limits(monkeypatch):
    """A clock that jumps past the deadline as the proof starts: the lowering stops inside the proof, not after
    it (Kalah's took twenty seconds unchecked on a busy machine, past `--max-seconds 20` by nine)."""
    now = [0.0]
    limits = Limits(max_seconds=10, clock=lambda: now[0])
    proof = segments.conserved_families

    def late(*args, **kwargs):
        now[0] = 100.0
        return proof(*args, **kwargs)

    monkeypatch.setattr(segments, "conserved_families", late)
    g = load_game(str(OTHERS))
    with pytest.raises(LimitReached) as e:
        segments.lowered_logic(g.program, Universe.from_snapshot(snapshot(g.initial_state(0))),
                               lambda u: segments.Lowering(g.program, u, limits=limits))
    inside = {f.name for f in traceback.extract_tb(e.value.__traceback__)}
    assert "conserved_families" in inside and e.value.stage == "lowering (ranges)"


def test_listing_answers_stops_past_the_limits():
    """clingo's answers are listed under the limits: a clock one second per reading, five allowed, stops the
    listing of 4,096 answers at its fifth reading (a check's, or a poll's while clingo searches, which is not
    counted as a check: `Limits.poll`); without limits the listing gives every answer, one by one, and a caller
    that stops asking stops it."""
    ticks = itertools.count()
    limits = Limits(max_seconds=5, clock=lambda: float(next(ticks)))  # creation reads 0
    many = "{ x(1..12) }. #show x/1. #project x/1."
    with pytest.raises(LimitReached) as e:
        list(Encoding(lambda key: None).answers(many, limits))
    assert e.value.elapsed == 5.0 and next(ticks) == 6 and 1 <= limits.checks < 5
    assert len(list(Encoding(lambda key: None).answers("{ x(1..3) }. #show x/1. #project x/1."))) == 8
    assert len(list(itertools.islice(Encoding(lambda key: None).answers(many), 100))) == 100


def test_a_proof_stops_at_the_first_answer_that_changes_the_sum(tmp_path, monkeypatch):
    """A way whose answer changes the sum (a seed made while sowing) ends the proof there: clingo is asked for no
    more of that way's answers (Oware's ways listed thousands each, up to MODELS, before any was looked at); a
    proof that holds reads every answer of every way."""
    from tgpl.lowering import conserved

    answers = Encoding.answers
    listings: list[list[int]] = []  # per listing: [answers given, 1 where it was read to its end]

    def counted(self, *args, **kwargs):
        listing = [0, 0]
        listings.append(listing)
        for shown in answers(self, *args, **kwargs):
            listing[0] += 1
            yield shown
        listing[1] = 1

    monkeypatch.setattr(conserved, "_PROVED", {})
    monkeypatch.setattr(Encoding, "answers", counted)
    assert proved(OTHERS, monkeypatch) == {"Seeds": 8.0}
    assert listings and all(done for _, done in listings)
    listings.clear()
    text = DESIGNERS.read_text(encoding="utf-8")
    mutant = tmp_path / "kalah.tgpl"
    mutant.write_text(text.replace("h.Seeds += 1;", "h.Seeds += 2;"), encoding="utf-8")
    assert proved(mutant, monkeypatch) == {}
    assert listings[-1][1] == 0 and listings[-1][0] >= 1  # the failing way's listing stopped at its answer


def test_a_way_proved_once_is_asked_of_clingo_once(monkeypatch):
    """The ways a lowering shares with an earlier one (Kalah's at its first loop cut, sampled by the forecast and
    lowered again; the ways of few passes at the next cut) are the same facts: clingo answers each once per
    process, and the proof stays what it was."""
    from tgpl.lowering import conserved

    asked: list[int] = []
    answers = Encoding.answers

    def counted(self, *args, **kwargs):
        asked.append(len(self.facts))
        return answers(self, *args, **kwargs)

    monkeypatch.setattr(conserved, "_PROVED", {})
    monkeypatch.setattr(Encoding, "answers", counted)
    assert proved(OTHERS, monkeypatch) == {"Seeds": 8.0}
    first = len(asked)
    assert first > 0
    assert proved(OTHERS, monkeypatch) == {"Seeds": 8.0}
    assert len(asked) == first
    assert len(conserved._PROVED) == first
