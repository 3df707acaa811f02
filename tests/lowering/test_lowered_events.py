"""Events made and thrown after setup: objects that live within one move, lowered as values on the path.

tests/data/lowering/events.tgpl makes a `Scored` event in each move, fills in
its attributes and throws it; a listener counts it and may throw a `Bonus` (a
subclass), answered first by a listener of priority 2, then by the counter
through its trigger on the base class; a `Tick` is answered after the move's
effect. `event.throw_sync` is refused (its listeners, run in the middle of a
block, gave cyclic rules in generated games), with its location. The lowered game must be the runtime's, state
for state, and a lowering that gets the dispatch wrong in a plausible way must
fail the validation every to-gdl runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.execute as execute
from differential import Lowered, bisimulate
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "events.tgpl"


def _lowered() -> Lowered:
    return Lowered.of_text(GAME.read_text(encoding="utf-8"), str(GAME))


def test_events_made_after_setup_lower_to_the_runtimes_game():
    lw = _lowered()
    logic = lw.lowered.emitter.logic
    persistent = {o.name for o in logic.universe.objects}
    assert {o for o, _ in logic.fluents} <= persistent  # no event object's attribute is a fluent
    assert {a for _, a in logic.fluents} >= {"Score0", "Last", "Seen"}
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and runtime.states > 20
    assert bisimulate(lw).states == runtime.states


def _listeners_chosen_late(monkeypatch):
    """Each listener's trigger judged on the state after the listeners before it ran, not up front."""
    def answer(self, p, event):
        paths = [p]
        for obj, action, trigger in self.listening(event.cls):
            nxt = []
            for q in paths:
                if q.status == "over":
                    nxt.append(q)
                    continue
                ok = self.holds(trigger.body, q, obj, event, "trigger")
                for r, runs in self.fork_on(q, ok):
                    if runs:
                        nxt.extend(self.run_block(action.effect.body, r, obj, event, "listener", {}))
                    else:
                        nxt.append(r)
            for x in nxt:
                if x.status != "over":
                    x.status = None
            paths = self.merge(nxt)
        return paths

    monkeypatch.setattr(execute.Executor, "answer", answer)


@pytest.mark.parametrize("defect", [
    pytest.param(lambda mp: mp.setattr(execute.Executor, "_prio", lambda self, action: 0.0), id="priority-ignored"),
    pytest.param(_listeners_chosen_late, id="listeners-in-declaration-order-ignoring-priority"),
    pytest.param(lambda mp: mp.setattr(execute.Executor, "resolve_events", lambda self, paths: paths),
                 id="events-never-answered"),
])
def test_a_wrong_lowering_of_events_fails_validation(monkeypatch, defect):
    defect(monkeypatch)
    lw = _lowered()
    result = validate_translation(lw.game, lw.lowered, lw.seed)
    assert result.mismatch is not None


@pytest.mark.parametrize("old, new, expected", [
    pytest.param("    number Last = 0;\n", "    number Last = 0;\n    Scored Kept = null;\n", None, id="unused-holder"),
    pytest.param("            event.throw(s);\n",  # Kept read, so state (an attribute nothing reads is not: decision 109)
                 "            event.throw(s);\n            G.Kept = s;\n            if (G.Kept == null) { G.Last = 0; }\n",
                 "an event object made after setup cannot be stored in an attribute", id="stored-in-an-attribute"),
])
def test_an_event_object_may_not_outlive_the_move(tmp_path, old, new, expected):
    text = GAME.read_text(encoding="utf-8")
    if expected is not None:  # the attribute must exist for the store to check
        text = text.replace("    number Last = 0;\n", "    number Last = 0;\n    Scored Kept = null;\n", 1)
    assert old in text
    text = text.replace(old, new, 1)
    try:
        Lowered.of_text(text, str(tmp_path / "game.tgpl"))
    except execute.NotLowerable as e:
        assert expected is not None and expected in e.reason
    else:
        assert expected is None


def test_throw_sync_is_refused_with_its_location(tmp_path):
    text = GAME.read_text(encoding="utf-8").replace("event.throw(new Tick());", "event.throw_sync(new Tick());", 1)
    with pytest.raises(execute.NotLowerable) as refused:
        Lowered.of_text(text, str(tmp_path / "game.tgpl"))
    assert refused.value.reason == "event.throw_sync() after setup is not lowerable"
    assert (refused.value.span.line, refused.value.span.col) == (55, 13)
