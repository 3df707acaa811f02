"""A move found before played as one segment, in one function (`State.apply`, `play_known`).

A move of the common shape (`game._plain_play`: its action given every input and run through its
plain spelling) went through five layers: `State.apply` found it, `State._run` copied the world and
made the machine, `Machine.play_plain` ran the action with its entry on the stack, `Machine.settle`
resolved events and entered the phases the action passed to, and `Machine.enter_phase` looked each
phase up and ran it. A Tris move enters two phases (the win check, then the tick phase, which has
no code): each layer's call, its `try` and its tests of cases that do not arise were about a
twentieth of a move.

Here the action, the settling and the entry of a phase with no code or with a plain spelling
(`RPhase.plain`) are one loop in one function; anything else is the machine's own method, as
before: events queued (`Machine.resolve_events`), a phase with inputs or that needs a Frame
(`Machine.enter_phase`). What it raises and where is what the layers raise: an input asked below
a call marks the request broken, an overflow or a recursion too deep is the same error at the same
place, an input with no candidate is `_no_candidate_error`'s, a cycle of passes the same error at
the latest pass. `State.apply` does what `State._run` does around it, inline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tgpl.runtime import machine as machine_module
from tgpl.runtime.errors import TOO_LARGE, NeedInput, too_deep
from tgpl.runtime.machine import _Cancelled

if TYPE_CHECKING:
    from tgpl.runtime.machine import Machine

def play_known(m: Machine, known: tuple) -> None:
    """`Machine.play_plain` of the move `known` (`Game.played`: its object, action, locals, plain
    spelling, stack entry), then `Machine.settle`, fused: the same effects and errors. Settling enters a phase
    with no code, or with a plain spelling, in place (`Machine.enter_phase`'s first two cases); any
    other phase is entered by `enter_phase`, events queued are resolved by `resolve_events`.

    The locals are given as they are, a tuple (`game._plain_play`): a plain spelling reads them
    from its list on entry and never writes them there (`codegen`'s `_direct`), as a phase's and a
    default's shared nulls are given. The phases entered are counted in a Python local, not in
    the machine's `flows`: only the machine's own methods read or change the count (a plain
    spelling never does), so the machine is told it before `enter_phase`, `resolve_events` or the
    cycle's error runs, and it is read back after (a known move's segment has no choices, so
    neither starts it again: `Machine.ask_input` does when it uses a choice). A turn and phase are
    looked up without testing them for null first: a null turn or phase is in no table, a
    `KeyError` (raised again when neither is null, as `enter_phase` raises it)."""
    stack = m.stack
    try:
        stack.append(known[6])
        try:
            known[5](m, known[2], known[4])
        except NeedInput as need:
            need.broken = True  # asked below a call: not at a site of the action's own (`NeedInput.close`)
            raise
        except RecursionError:
            ra = known[3]
            m.error(ra.defn.span, too_deep(ra.what))
        except OverflowError:
            m.error(known[3].defn.span, TOO_LARGE)
        finally:
            stack.pop()
        turns = m.game.turns
        control = m.world.control  # the machine's world and its control are the segment's throughout
        flows = 0  # the machine is new (`State.apply`): none counted yet, as its `flows` says
        while True:
            if m.queue:
                m.flows = flows
                m.resolve_events()
                flows = m.flows
            if not m.enter_pending:
                return
            m.enter_pending = False
            flows += 1  # before the entry: a choice made in it starts the count again
            try:
                entry = turns[control.turn].entries[control.phase]  # None: `phase P { }`, nothing to run
            except KeyError:
                if control.turn is not None and control.phase is not None:
                    raise  # as `enter_phase` looks them up
                entry = None  # no turn or no phase: nothing to enter
            if entry is not None:
                if not entry:  # inputs, or code that needs a Frame
                    m.flows = flows
                    m.enter_phase()
                    flows = m.flows
                else:
                    plain, label, nulls, span = entry
                    stack.append(label)
                    try:
                        plain(m, None, nulls)
                    except NeedInput as need:
                        need.broken = True
                        raise
                    except OverflowError:
                        m.error(span, TOO_LARGE)
                    finally:
                        stack.pop()
            if flows >= machine_module.FLOW_LIMIT:  # the machine's limit, read where it is set
                m.flows = flows
                m.cycle_error()
    except _Cancelled as c:
        m._no_candidate_error(c)


__all__ = ["play_known"]
