"""The translation validation of a GDL played one state at a time asks for its states in batches
(Differential.playouts, tgpl.validation): the runtime plays ahead, the GDL answers many states in one
grounding. The plays, and the first difference of each, must be those of the step-by-step comparison,
whatever the batches and however long their answers take.
"""

from __future__ import annotations

import dataclasses
import random
import re
import time
from pathlib import Path

from click.testing import CliRunner

import tgpl.lowering.compiled as compiled
import tgpl.pipeline as pipeline
import tgpl.validation as validation
from tgpl.asp.reasoner import GdlGame
from tgpl.cli import main
from tgpl.lowering.lower import lower
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.validation import Differential, Plays, validate_translation

ROOT = Path(__file__).resolve().parents[2]
SHIFTS = ROOT / "tests" / "data" / "lowering" / "shifts.tgpl"


def read_ignoring_aliases(self, c, o, name):
    """A planted bug: SegmentCompiler.read taking only the last write to the very same object term, else the
    state before the move; `b` after `a.Mark = true` misses the write when the mover picked a = b."""
    for attr, w, v in reversed(c.store):
        if attr == name and w == o:
            return [(c, v)]
    return [self.read_before(c, o, name)]


def differential() -> Differential:
    game = load_game(str(SHIFTS))
    lowered = lower(game.program, snapshot(game.initial_state(0)), moves="compiled")
    assert lowered.grounding[0] == "per-state"
    d = Differential(game, lowered, 0)
    assert d.gdl.batches
    return d


def one_by_one(d: Differential, seeds: range, max_steps: int, monkeypatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(GdlGame, "batches", property(lambda self: False))
        return [d.playout(random.Random(seed), max_steps) for seed in seeds]


def summary(play) -> tuple:
    diff = play.mismatch
    return (play.moves, play.joints, play.steps, play.ended,
            None if diff is None else diff.lines("the GDL"))


def test_batched_plays_are_the_step_by_step_ones(monkeypatch):
    d = differential()
    monkeypatch.setattr(validation, "FIRST_BATCH", 3)  # batches that end inside a play and span plays
    monkeypatch.setattr(validation, "BATCH", 7)
    seeds = range(6)
    batched = d.playouts([random.Random(seed) for seed in seeds], 30)
    assert [summary(p) for p in batched] == [summary(p) for p in one_by_one(d, seeds, 30, monkeypatch)]
    assert all(p.mismatch is None for p in batched) and sum(len(p.steps) for p in batched) > 30


def test_a_planted_difference_is_found_at_the_same_move(monkeypatch):
    """Reads that ignore a write to the same object (test_compiled_moves) give another game; batched or not,
    each play stops at the same first difference."""
    monkeypatch.setattr(compiled.SegmentCompiler, "read", read_ignoring_aliases)
    d = differential()
    monkeypatch.setattr(validation, "BATCH", 5)
    seeds = range(12)
    batched = d.playouts([random.Random(seed) for seed in seeds], 40)
    assert [summary(p) for p in batched] == [summary(p) for p in one_by_one(d, seeds, 40, monkeypatch)]
    assert any(p.mismatch is not None for p in batched)


def test_the_validation_of_a_per_state_game_finds_the_planted_difference(monkeypatch):
    d = differential()
    # 501 states, more than a GDL played one state at a time is bisimulated for (PER_STATE_BOUND): playouts
    result = validate_translation(d.game, d.lowered, 0)
    assert result.ok and not result.complete and not result.states and result.steps >= 1000
    assert result.ended == result.playouts  # shifts ends after six moves at the most
    # asked to, the bisimulation explores it all, its successors batched
    result = validate_translation(d.game, d.lowered, 0, state_bound=validation.STATE_BOUND)
    assert result.ok and result.complete and result.states == 501
    monkeypatch.setattr(compiled.SegmentCompiler, "read", read_ignoring_aliases)
    wrong = differential()
    result = validate_translation(wrong.game, wrong.lowered, 0, state_bound=1)  # playouts only
    assert not result.ok and result.mismatch.found_by == "playouts"
    assert any("mark" in line for line in result.mismatch.difference.lines("the GDL"))


def test_a_state_is_encoded_alike_from_the_fields_it_reads_alone():
    """Differential.encoded cuts the snapshot down to the fields the compiled game's fluents read
    (tgpl.runtime.snapshot.fields_snapshot): the fluents must be those of the whole snapshot."""
    d = differential()
    fields = d.lowered.state_fields()
    assert fields and all(attrs for attrs in fields.values())
    rng, state, seen = random.Random(5), d.initial, 0
    while not state.is_terminal and seen < 40:
        assert d.encoded(state) == d.lowered.state_fluents(snapshot(state))
        state = state.apply(rng.choice(state.legal_moves()))
        seen += 1
    assert seen > 5
    spelled = lower(d.game.program, snapshot(d.initial), moves="spelled")
    assert spelled.state_fields() is None  # the moves spelled out read lists, decks and owners: the whole snapshot


def test_a_stream_of_plays_keeps_its_batches_full(monkeypatch):
    """Differential.stream starts a play as soon as the runtime has played the ones before: every batch but
    the last is full, though each play is shorter than a batch, and the plays are the step-by-step ones."""
    d = differential()
    monkeypatch.setattr(validation, "FIRST_BATCH", 4)
    monkeypatch.setattr(validation, "BATCH", 9)
    sizes = []
    later = GdlGame.states_later

    def counted(self, queries):
        sizes.append(len(queries))
        return later(self, queries)

    monkeypatch.setattr(GdlGame, "states_later", counted)
    seeds = range(10)
    streamed = dict(d.stream(Plays((random.Random(seed) for seed in seeds), 6)))
    assert sorted(streamed) == list(seeds)
    plays = [streamed[k] for k in seeds]
    assert [summary(p) for p in plays] == [summary(p) for p in one_by_one(d, seeds, 6, monkeypatch)]
    assert sum(len(p.steps) for p in plays) > 3 * d.most_batch()
    assert sizes[0] == 4 and set(sizes[1:-1]) == {d.most_batch()} and sizes[-1] <= d.most_batch()


def _validation_plays(d: Differential, steps: int) -> list:
    plays, found = validation._playouts(d, validation._Plan(d, steps, 0), None, lambda line: None)
    assert found is None
    return [summary(p) for p in plays]


def test_the_validation_plays_the_same_plays_whatever_the_batches_and_their_pace(monkeypatch):
    """The validation's plays and their cuts (tgpl.validation._Plan: the cut doubles after a play that reached
    it) depend on the game alone: streamed in batches of any size, with the first batch's answers late (a busy
    machine), or played step by step, they are the same plays."""
    d = differential()
    monkeypatch.setattr(validation, "FIRST_CUT_SHARE", 50)  # cuts of 2, then 4 and 8 moves: some plays are cut
    steps = 120
    reference = _validation_plays(d, steps)
    assert sum(len(p[2]) for p in reference) >= steps
    assert any(not p[3] for p in reference) and any(p[3] for p in reference)  # some cut, some to the end
    sizes = []
    later = GdlGame.states_later

    def slow_first(self, queries):
        sizes.append(len(queries))
        answers = later(self, queries)
        if len(sizes) > 1:
            return answers

        def slowly():
            time.sleep(0.5)
            return answers()
        return slowly

    with monkeypatch.context() as m:
        m.setattr(validation, "FIRST_BATCH", 3)
        m.setattr(validation, "BATCH", 5)
        m.setattr(GdlGame, "states_later", slow_first)
        assert _validation_plays(d, steps) == reference
        assert len(sizes) > 3
    with monkeypatch.context() as m:
        m.setattr(GdlGame, "batches", property(lambda self: False))
        assert _validation_plays(d, steps) == reference


class Clock:
    """A clock that moves one second each time it is read: time passes as the stream plays, whatever the
    machine's speed."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def test_a_stream_past_its_time_limit_stops_and_says_so():
    """`until`, a safety limit: once passed, no more states are played, and the plays going are cut short and
    marked `timed_out` (the validation then fails for lack of coverage)."""
    d = differential()
    d.clock = Clock().perf_counter  # what the stream reads `until` on (the command's clock, in to-gdl)
    plays = dict(d.stream(Plays((random.Random(seed) for seed in range(50)), 6), until=20.0))
    assert 1 < len(plays) < 50 and all(p.mismatch is None for p in plays.values())
    assert any(p.timed_out for p in plays.values())
    assert all(p.ended or len(p.moves) == 6 for p in plays.values() if not p.timed_out)
    result = validate_translation(d.game, d.lowered, 0, max_seconds=1e-9)
    assert not result.ok and result.mismatch is None and result.timed_out
    assert "within the time limit" in result.shortfall


def _without_texts(d: Differential, dropped) -> Differential:
    """`d`'s game against its lowering whose move texts (LoweredGame.move_texts) lack those `dropped` says: a
    lowering that gave some move of the runtime's no GDL term."""
    texts = {kif: text for kif, text in d.lowered.move_texts.items() if not dropped(kif, text)}
    assert len(texts) < len(d.lowered.move_texts)
    return Differential(d.game, dataclasses.replace(d.lowered, move_texts=texts), 0)


def test_a_move_the_lowering_has_no_term_for_is_a_difference_where_the_runtime_plays_it(monkeypatch):
    """The runtime plays ahead of the comparisons (Differential.stream): the move it picks may be one the
    lowering gave no term, whose joint move cannot be asked of the GDL (a KeyError in Differential.joint, once).
    The play stops there, and the comparison of the state before says what the runtime can play there and the
    GDL cannot, the difference the step-by-step comparison finds."""
    seed = 3
    reference = differential().playout(random.Random(seed), 6)
    assert reference.mismatch is None and len(reference.moves) >= 2
    missing = reference.moves[1]  # what this seed's play picks in the second state: Seat#1's first move
    d = _without_texts(differential(), lambda kif, text: text == missing)
    [play] = d.playouts([random.Random(seed)], 6)
    assert play.moves == reference.moves[:1]  # the moves that lead to the state where it is legal
    assert play.mismatch is not None and missing in play.mismatch.legal[0]
    assert any("legal moves only in the runtime: " in line and missing in line
               for line in play.mismatch.lines("the GDL"))
    [alone] = one_by_one(d, [seed], 6, monkeypatch)
    assert summary(play) == summary(alone)


def test_to_gdl_refuses_a_lowering_without_a_term_for_a_move_of_the_runtimes(tmp_path, monkeypatch):
    """The same through the command: not validated, the difference located and said with the moves that led
    there, exit 2, nothing written, no traceback. Every move of Seat#1 lacks its term, so that the first play's
    second move is one."""
    real = pipeline.lower_game

    def lower_game(*args, **kwargs):
        lowered = real(*args, **kwargs)
        assert lowered.grounding[0] == "per-state"  # its states asked for in batches
        lowered.move_texts = {kif: text for kif, text in lowered.move_texts.items() if "seat_1" not in kif}
        return lowered

    monkeypatch.setattr(pipeline, "lower_game", lower_game)
    out = tmp_path / "shifts.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(SHIFTS), "--moves", "compiled", "-o", str(out),
                                  "--max-seconds", "300"])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.stdout == "" and not out.exists()
    assert "Traceback" not in r.output
    assert re.search(r"shifts\.tgpl:\d+:\d+: error: the GDL differs from the runtime after 1 move", r.stderr), r.stderr
    assert "legal moves only in the runtime: Seat#1." in r.stderr
    assert "found by playouts" in r.stderr
    assert r.stderr.rstrip().endswith("the translation failed its validation against the runtime: nothing written")
