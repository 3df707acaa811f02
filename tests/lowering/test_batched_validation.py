"""The translation validation of a GDL played one state at a time asks for its states in batches
(Differential.playouts, tgpl.validation): the runtime plays ahead, the GDL answers many states in one
grounding. The plays, and the first difference of each, must be those of the step-by-step comparison.
"""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

import tgpl.lowering.compiled as compiled
import tgpl.validation as validation
from tgpl.asp.reasoner import GdlGame
from tgpl.lowering.lower import lower
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.validation import Differential, validate_translation

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
    # a budget the exploration fits in on a busy machine, its rate judged after half of it, not GIVE_UP_SHARE:
    # its first second (the first groundings) says too little of what the rest will cost. Complete, it ends
    # the validation (no playouts): the budget is not waited for
    monkeypatch.setattr(validation, "GIVE_UP_SHARE", 0.5)
    result = validate_translation(d.game, d.lowered, 0, seconds=60)
    assert result.ok and result.complete and result.states == 501  # the bisimulation, its successors batched
    monkeypatch.setattr(compiled.SegmentCompiler, "read", read_ignoring_aliases)
    wrong = differential()
    result = validate_translation(wrong.game, wrong.lowered, 0, seconds=20, state_bound=1)  # playouts only
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
    streamed = dict(d.stream((random.Random(seed) for seed in seeds), 6))
    assert sorted(streamed) == list(seeds)
    plays = [streamed[k] for k in seeds]
    assert [summary(p) for p in plays] == [summary(p) for p in one_by_one(d, seeds, 6, monkeypatch)]
    assert sum(len(p.steps) for p in plays) > 3 * d.most_batch()
    assert sizes[0] == 4 and set(sizes[1:-1]) == {d.most_batch()} and sizes[-1] <= d.most_batch()


def test_a_pace_measured_while_busy_does_not_end_the_stream_early(monkeypatch):
    """A batch answered slowly (a busy machine) makes the next batch look as if it would end past `until`:
    the part that fits is handed out and the rest waits for it, the pace is measured again, and the plays go
    on until `until` (or until not one state more fits at the pace last measured)."""
    d = differential()
    monkeypatch.setattr(validation, "FIRST_BATCH", 4)
    monkeypatch.setattr(validation, "BATCH", 9)
    sizes = []
    later = GdlGame.states_later

    def slow_first(self, queries):
        sizes.append(len(queries))
        answers = later(self, queries)
        if len(sizes) > 1:
            return answers

        def slowly():
            time.sleep(0.6)  # 0.15 s a state: the rest of the budget seems to hold only a few
            return answers()
        return slowly

    monkeypatch.setattr(GdlGame, "states_later", slow_first)
    until = time.perf_counter() + 1.5
    plays = list(d.stream((random.Random(seed) for seed in itertools.count()), 8, until=until))
    ended = time.perf_counter()
    assert len(sizes) > 3 and sum(sizes[1:]) > 2 * sum(sizes[:2])
    assert ended >= until - d._query_seconds
    assert all(p.mismatch is None for _, p in plays)
