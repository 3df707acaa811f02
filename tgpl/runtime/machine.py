"""The execution unit (thesis 3.15.2): runs compiled code on one World.

A Machine runs one *segment* of a game, from a decision point to the next:
setup, or one move with everything it sets off. It plays the thesis's three
roles: code processor (runs blocks), event manager (dispatches thrown
events breadth first, by priority then declaration order) and input
injector (fills action inputs: from the move, from the choices already made
in this segment, or by raising NeedInput when a player must decide).

Game flow is a small state machine over `world.control` (player, turn,
phase): `turn.pass` runs the turn's `default` at once and schedules the
entry of the new phase; after the current block and its events, the phase
is entered (its inputs asked, its effect run), and so on until nothing is
scheduled: a decision point.
"""

from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from itertools import combinations
from typing import Sequence

from tgpl.builtin_calls import CHANCE, READS, call_method
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.types import BOOL, PLAYER, ClassType
from tgpl.runtime.classes import Frame, RAction, RClass, RFunction, RInput
from tgpl.runtime.boards import build_group
from tgpl.runtime.calls import new_memo
from tgpl.runtime.compiler import CompiledGame
from tgpl.runtime.errors import (
    TOO_LARGE, Cancelled, Frame as ErrFrame, GameOver, InputRequest, NeedInput, Returned, TGPLRuntimeError, too_deep,
)
from tgpl.runtime.values import Obj, World, show, to_player

_COLLECTIONS = (list, dict)

STEP_LIMIT = 100_000  # loop steps per segment (a move and all it sets off): `--max-steps`
FLOW_LIMIT = 10_000
EVENT_LIMIT = 1_000  # events resolved in one segment
OBJECT_LIMIT = 100_000  # live objects of a game (tiles included: a 300x300 board is 90,000)
STRING_LIMIT = 1_000_000  # characters of a string made by `+`
SUBSET_LIMIT = 12  # a player List input offers every subset of at most this many candidates


_Cancelled = Cancelled  # a non-optional input found no candidate: the action does not run (3.3.3)


class Machine:
    # What most segments never change, as class-level defaults: a machine is made per move and
    # per listing of moves: left to the class, not set on each.
    last_pass: Span | None = None  # the latest turn.pass: where a cycle of passes is reported
    used = 0  # the choices used so far
    enter_pending = False
    # Events resolved and phases entered since the segment began or the last choice it made
    # (`steps`, the loop steps, is set on each machine: generated code counts it)
    flows = 0
    events = 0
    held: set[int] | None = None  # while frozen: the ids of the lists and tables the world holds
    building: Obj | None = None  # the group whose default block is running
    # The last entry of a phase with inputs in this segment: (copy of the world then,
    # choices used before it); `resuming`: this segment starts at such an entry.
    entry: tuple[World, int] | None = None
    resuming = False
    # A field given a value that is not a list or table copies the object's dict only, its lists
    # and tables when it is owned (`World.own_fields`); False: the whole object at once (tests
    # set it on a game's machines to check both agree)
    lazy_lists = True
    listing: dict | None = None  # while frozen: `codegen._listing_site`'s results
    # Thrown events, with where they were thrown: a deque once one is (`throw`), empty until then
    queue: deque[tuple[Obj, Span]] | tuple = ()

    def __init__(self, game: CompiledGame, world: World, choices: Sequence = (), step_limit: int = STEP_LIMIT):
        self.game = game
        self.step_limit = step_limit
        self.world = world
        self.players = world.players
        # values for the decisions of this segment, in order: a list or a tuple, only read (by index,
        # `ask_input`), so kept as it is given
        self.choices = choices
        self.stack: list[ErrFrame | tuple[str, Span | None]] = []  # (what, span): cheaper to push
        # Loop steps since the segment began or the last choice it made: the limits count from
        # the last decision, so what happens after a choice does not depend on how the segment
        # came to ask it (`State.key`).
        self.steps = 0
        # While legal moves are listed, requires, triggers and filters run on the
        # state's own world, which must not change: writes are errors then.
        self.frozen = False
        # The objects whose fields generated code may read lists and tables from as they are:
        # those this world owns (`World.own`), or all of them while frozen.
        self.readable = world.owned

    @property
    def event_cls(self) -> RClass:
        """The built-in `Event` class (objects of its subclasses are transient)."""
        return self.game.builtin("event")

    def freeze(self) -> None:
        """Read-only from now on: for requires, triggers and filters while legal moves are listed."""
        self.frozen = True
        self.readable = self.world.everyone()
        # Results of calls whose arguments do not depend on the candidate, remembered while
        # the world cannot change (`codegen._listing_site`)
        self.listing = {}

    # ============================================================ errors
    def error(self, span: Span | None, message: str):
        raise TGPLRuntimeError(span, message, self.stack)

    def not_null(self, v, span: Span):
        if v is None:
            self.error(span, "null has no members")
        return v

    def step(self, span: Span) -> None:
        self.steps += 1
        if self.steps > self.step_limit:
            self.error(span, f"a loop ran past {self.step_limit} steps in one move (--max-steps): is it endless?")

    # =========================================================== objects
    def global_object(self, name: str) -> Obj:
        obj = self.world.globals.get(name)
        if obj is None:
            self.error(None, f"global class {name} has no instance")
        return obj

    def new_object(self, rc: RClass, span: Span | None, name: str | None = None) -> Obj:
        if self.frozen:
            self.read_only(span, "create an object")
        if len(self.world.objects) >= OBJECT_LIMIT:
            self.error(span, f"more than {OBJECT_LIMIT} objects: the game grew too large")
        obj = self.world.new_object(rc, name)
        if rc.is_a(self.event_cls):
            self.world.transients += 1
        self.init_object(obj, span)
        return obj

    def init_object(self, obj: Obj, span: Span | None) -> None:
        """Built-in fields, then attributes base first, then kind-specific defaults."""
        rc = obj.cls
        fields = self.world.own(obj)
        kinds = {c.kind for c in rc.ancestors()}
        if "interactable" in kinds:
            fields["tile"] = None
            fields["discarded"] = False
        if "stack" in kinds:
            fields["_items"] = []
            fields["discard_stack"] = []
        if "tile" in kinds:
            fields.setdefault("group", None)
            fields["connections"] = []
            if fields["group"] is None and self.building is not None:
                # a tile created in a group's default block joins that group
                fields["group"] = self.building
                self.world.own(self.building)["tiles"].append(obj)
        if "connection" in kinds:
            fields["to"] = None
        for c in reversed(list(rc.ancestors())):
            if c.attributes:
                frame = Frame(self, obj, c.init_size)
                for name, code in c.attributes:
                    fields[name] = code(frame) if code is not None else None
        if "board" in kinds:
            self._build_groups(obj, span)
        for c in reversed(list(rc.ancestors())):
            if c.default is not None:
                self._run_block(c.default, Frame(self, obj, c.default_size), f"default of {c.name}", span)

    def _build_groups(self, board: Obj, span: Span | None) -> None:
        groups: dict[str, Obj] = {}
        for c in reversed(list(board.cls.ancestors())):
            for g in c.groups:
                group = build_group(self.world, board, g, self.game.builtin,
                                    lambda tile: self.init_object(tile, None))
                groups[g.name] = group
                self.world.own(board)[g.name] = group
        self.world.own(board)["groups"] = groups
        for c in reversed(list(board.cls.ancestors())):
            for g in c.groups:
                if g.default is not None:
                    outer, self.building = self.building, groups[g.name]
                    try:
                        self._run_block(g.default, Frame(self, board, g.size), f"default of group {g.name}", span)
                    finally:
                        self.building = outer

    # ----------------------------------------------------------- members
    def get_member(self, obj, name: str, span: Span):
        if obj is None:
            self.error(span, f"cannot read '{name}' of null")
        if obj.__class__ is not Obj:
            if name == "length" and isinstance(obj, (list, dict)):
                return float(len(obj))
            self.error(span, f"{show(obj)} has no member '{name}'")
        world = self.world
        fields = world.fields(obj)
        if name in fields:
            value = fields[name]
            if value.__class__ in _COLLECTIONS and not self.frozen:  # the game may change it in place
                return world.own(obj)[name]
            return value
        if name == "player":
            owners = world.owners_of(obj)
            return owners[0] if owners else None
        if name == "players":
            return list(world.owners_of(obj))
        if name == "length" and "_items" in fields:
            return float(len(fields["_items"]))
        if name == "to" and "_to" in fields:  # a fixed connection of a square or hex group
            return world.named(fields["_to"])
        self.error(span, f"{obj.name} has no member '{name}'")

    def set_member(self, obj, name: str, value, span: Span) -> None:
        if self.frozen:
            self.read_only(span, "change an attribute")
        if obj is None:
            self.error(span, f"cannot set '{name}' of null")
        if obj.__class__ is not Obj:
            self.error(span, f"{show(obj)} has no member '{name}'")
        if obj.fixed is not None:
            self.error(span, f"{obj.name} is fixed by its group's geometry and cannot change")
        if value.__class__ in _COLLECTIONS or not self.lazy_lists:  # the object holds it as its own
            self.world.own(obj)[name] = value
        else:
            self.world.own_fields(obj)[name] = value

    def get_index(self, obj, key, span: Span):
        if obj is None:
            self.error(span, "cannot index null")
        if obj.__class__ is list:
            i = self._list_index(obj, key, span)
            return obj[i]
        if obj.__class__ is dict:
            if key is None:
                self.error(span, "a table key is null")
            return obj.get(key)
        if obj.__class__ is Obj and "_cells" in self.world.fields(obj):
            cells = self.world.fields(obj)["_cells"]
            i = self._list_index(cells, key, span)
            return cells[i]
        self.error(span, f"{show(obj)} cannot be indexed")

    def _list_index(self, xs: list, key, span: Span) -> int:
        if not isinstance(key, (int, float)) or isinstance(key, bool):
            self.error(span, f"the index {show(key)} is not a number")
        i = int(key)
        if not 0 <= i < len(xs):
            self.error(span, f"index {i} out of range 0..{len(xs) - 1}" if xs else f"index {i} of an empty list")
        return i

    def set_index(self, obj, key, value, span: Span) -> None:
        if self.frozen:
            self.changing(obj, span)
        if obj.__class__ is list:
            obj[self._list_index(obj, key, span)] = value
        elif obj.__class__ is dict:
            if key is None:
                self.error(span, "a table key is null")
            if value is None:
                obj.pop(key, None)  # `t[k] = null` removes the pair (3.2.3)
            else:
                obj[key] = value
        else:
            self.error(span, f"{show(obj)} cannot be indexed" if obj is not None else "cannot index null")

    def length(self, obj, span: Span) -> float:
        if obj is None:
            self.error(span, "null has no length")
        if obj.__class__ is Obj:
            return float(len(self.world.fields(obj).get("_items", ())))
        return float(len(obj))

    # --------------------------------------------------------- operators
    def arith(self, fn, op: str, a, b, span: Span):
        if not _is_number(a) or not _is_number(b):
            self.error(span, f"'{op}' of {show(a)} and {show(b)}")
        try:
            result = fn(a, b)
        except ZeroDivisionError:
            self.error(span, "division by zero")
        except OverflowError:
            self.error(span, "number too large")
        except ValueError:  # math.fmod of an infinity
            self.error(span, f"'{op}' of {show(a)} and {show(b)} is not a number")
        if isinstance(result, complex):
            self.error(span, f"{show(a)} ^ {show(b)} is not a real number")
        if result - result != 0:  # an infinity, or not a number: past the doubles
            self.error(span, f"'{op}' of {show(a)} and {show(b)}: number too large")
        return float(result)

    def concat(self, a, b, span: Span) -> str:
        """`+` on strings, bounded: a string doubled in a loop stops here, not in a MemoryError."""
        text = show(a) + show(b)
        if len(text) > STRING_LIMIT:
            self.error(span, f"a string longer than {STRING_LIMIT} characters")
        return text

    def compare(self, fn, op: str, a, b, span: Span) -> bool:
        if (_is_number(a) and _is_number(b)) or (isinstance(a, str) and isinstance(b, str)):
            return fn(a, b)
        self.error(span, f"'{op}' of {show(a)} and {show(b)}")

    # ======================================================= calls
    def _run_block(self, code, frame: Frame, what: str, span: Span | None):
        self.stack.append((what, span))
        try:
            return code(frame)
        except OverflowError:  # an infinity (from arithmetic past the doubles) made a player or an index
            self.error(span, TOO_LARGE)
        finally:
            self.stack.pop()

    def call_function(self, rf: RFunction, this, args: list[tuple[str, object]], span: Span):
        frame = Frame(self, this, rf.size)
        given = dict(args)
        self.stack.append((rf.what, span))
        try:
            for inp in rf.inputs:
                if inp.name in given:
                    frame.vars[inp.slot] = given[inp.name]
                elif inp.modifier == "function":
                    frame.vars[inp.slot] = inp.default(frame) if inp.default is not None else None
                else:
                    frame.vars[inp.slot] = self.ask_input(inp, frame)
            if rf.effect is None:
                return None
            r = rf.effect(self, this, *[frame.vars[inp.slot] for inp in rf.inputs])
            if r is None:
                return None
            return to_player(r, self.players) if rf.returns_player else r
        except _Cancelled:
            return None
        except RecursionError:  # the host's stack ran out: report it as the game's error
            self.error(span, too_deep(rf.what))
        except OverflowError:
            self.error(span, TOO_LARGE)
        finally:
            self.stack.pop()

    def call_action(self, obj: Obj, ra: RAction, args: list[tuple[str, object]], span: Span) -> None:
        """`obj.Action()`: the action flow, with no event (3.3.3)."""
        self.run_action(obj, ra, None, dict(args), span, check_requires=True)

    def run_action(self, obj: Obj, ra: RAction, event: Obj | None, given: dict, span: Span | None,
                   check_requires: bool) -> bool:
        frame = Frame(self, obj, ra.size, event)
        self.stack.append((ra.what, span or ra.defn.span))
        try:
            if check_requires and not self.requires_hold(ra, frame):
                return False
            try:
                for inp in ra.inputs:
                    if inp.name in given:
                        frame.vars[inp.slot] = given[inp.name]
                    else:
                        frame.vars[inp.slot] = self.ask_input(inp, frame)
            except _Cancelled:
                return False
            if ra.effect is not None:
                ra.effect(frame)
            return True
        except NeedInput as need:
            need.close(frame, ra.defn, ("action", obj, ra, given))
            raise
        except RecursionError:
            self.error(span or ra.defn.span, too_deep(ra.what))
        except OverflowError:
            self.error(span or ra.defn.span, TOO_LARGE)
        finally:
            self.stack.pop()

    def requires_hold(self, ra: RAction, frame: Frame) -> bool:
        for req in ra.requires:
            r = req(frame)
            if not (isinstance(r, Returned) and r.value is True):
                return False
        return True

    def trigger_holds(self, ra: RAction, event: Obj, frame: Frame) -> bool:
        """Whether `ra`'s trigger for the event's class (or its nearest base) holds; which trigger
        that is is found once per action and event class (listing moves asks it for every action)."""
        by_class = ra.__dict__.get("_trigger_by")
        if by_class is None:
            by_class = ra.__dict__["_trigger_by"] = {}
        code = by_class.get(event.cls, _UNSET)
        if code is _UNSET:
            code = next((ra.triggers[c.name] for c in event.cls.ancestors() if ra.triggers.get(c.name) is not None), None)
            if getattr(code, "always", False):  # `return true;` (compiler._returns_true): not run
                code = True
            by_class[event.cls] = code
        if code is None:
            return False
        if code is True:
            return True
        r = code(frame)
        return r.__class__ is Returned and r.value is True

    # ----------------------------------------------------------- built-ins
    def read_only(self, span: Span | None, what: str):
        self.error(span, f"a require, trigger or filter cannot {what}: it only decides whether a move is legal")

    def builtin_method(self, target, name: str, values: list, span: Span):
        if self.frozen and (name in CHANCE or target.__class__ is Obj and name not in READS):
            self.read_only(span, f"call {name}()")
        if self.frozen and name not in READS:
            self.changing(target, span)
        return call_method(self, target, name, values, span)

    def changing(self, collection, span: Span) -> None:
        """While legal moves are listed, a list or table may change only if the code made it:
        one the state holds is shared with the states copied from it (`World.own`)."""
        held = self.held
        if held is None:
            held = self.held = _collections_of(self.world)
        if id(collection) in held:
            self.read_only(span, "change a list or table that the game holds")

    def roll(self, sides, span: Span | None) -> float:
        """`roll(sides)`: a die of `sides` faces thrown, 1..sides, drawn from the game's generator as a
        shuffle draws (decision 95): a seed and the moves fix every roll, so records replay byte for byte."""
        if self.frozen:
            self.read_only(span, "call roll()")
        if sides.__class__ is bool or not isinstance(sides, (int, float)) or sides != int(sides) or sides < 1:
            self.error(span, f"roll() needs a whole number of sides, at least 1, not {show(sides)}")
        return float(1 + self.world.random().below(int(sides)))  # a number, as literals are

    def log(self, text: str) -> None:
        if self.frozen:
            return  # listing moves is not playing: nothing to log
        world = self.world
        if world.shared:
            world.unshare()
        world.log.append(text)

    # ============================================================ inputs
    def candidates(self, inp: RInput, frame: Frame) -> list:
        t = inp.candidate_type
        if isinstance(t, ClassType):
            rc = self.game.by_info[id(t.info)]
            pool = self.world.of_class(rc)  # the world's own list: only read here, copied if handed out
            if self.game.may_discard(rc):
                data = self.world.data
                pool = [o for o in pool if not data[o.place].get("discarded", False)]
        elif t == PLAYER:
            pool = list(range(self.players))
        elif t == BOOL:
            pool = [False, True]
        else:
            self.error(inp.span, f"the candidates of an input of type {t} cannot be listed; use a class or player type")
        if not inp.filters:
            return list(pool)
        # While legal moves are listed, a filter that does not name the candidate is run once, when a
        # candidate first reaches it, and its answer holds for the others (frozen, it changes nothing)
        once = self.frozen and True in inp.constant
        if len(inp.filters) == 1 and not once:
            slot, code = inp.filters[0]
            every = getattr(code, "all", None)
            if every is not None:  # a filter that is one `return`, run over the pool in one call
                return every(self, frame.this, frame.vars, pool)
            direct = getattr(code, "direct", None)
            if direct is not None:  # one filter spelled as a plain function: the common case
                this, local = frame.this, frame.vars
                out = []
                for c in pool:
                    local[slot] = c
                    if direct(self, this, local) is True:
                        out.append(c)
                return out
        known: dict[int, bool] = {}
        out = []
        for c in pool:
            for i, (slot, code) in enumerate(inp.filters):
                passed = known.get(i) if once else None
                if passed is None:
                    frame.vars[slot] = c
                    r = code(frame)
                    passed = isinstance(r, Returned) and r.value is True
                    if once and inp.constant[i]:
                        known[i] = passed
                if not passed:
                    break
            else:
                out.append(c)
        return out

    def input_target(self, inp: RInput, frame: Frame) -> int:
        if inp.target is not None:
            return to_player(self.not_null(inp.target(frame), inp.span), self.players)
        this = frame.this
        active = self.world.control.player
        if this is None or this.cls.visibility == "global":
            return active
        owners = self.world.owners_of(this)
        if this.cls.visibility == "group":
            if active in owners or not owners:
                return active
            if self.frozen:
                return owners[0]
            return self.world.random().choice(owners)
        return owners[0] if owners else active

    def player_options(self, inp: RInput, frame: Frame) -> list:
        """What a player picks from: the candidates, or every subset of them for a List input
        (by size, then in creation order, the empty list first)."""
        options = self.candidates(inp, frame)
        if not inp.is_list:
            return options
        if len(options) > SUBSET_LIMIT:
            self.error(inp.span, f"'{inp.name}' has {len(options)} candidates: too many subsets to choose from "
                                 f"(at most {SUBSET_LIMIT}); narrow it with a filter or make it auto")
        return [list(c) for k in range(len(options) + 1) for c in combinations(options, k)]

    def ask_input(self, inp: RInput, frame: Frame):
        if inp.modifier == "function":
            return inp.default(frame) if inp.default is not None else None
        if inp.modifier != "auto":
            options = self.player_options(inp, frame)
        else:
            options = self.candidates(inp, frame)
        if inp.modifier == "auto":
            if inp.is_list:
                return options
            if options:
                return options[0]
            if inp.optional:
                return None
            raise _Cancelled(inp)
        if not options and not inp.optional:
            raise _Cancelled(inp)
        if inp.optional:
            options = options + [None]
        player = self.input_target(inp, frame)
        if self.used < len(self.choices):
            choice = self.choices[self.used]
            self.used += 1
            # The limits count from the last decision, and a cycle of passes is one since then
            self.steps = self.events = self.flows = 0
            self.last_pass = None
            for option in options:
                if _matches(option, choice):
                    return option
            names = ", ".join(show(o) for o in options)
            self.error(inp.span, f"{show(choice)} is not a legal choice for '{inp.name}' (options: {names})")
        raise NeedInput(InputRequest(player, inp.name, options, inp.span, inp.optional), frame, inp.site)

    # ============================================================ events
    def throw(self, event, sync: bool, span: Span) -> None:
        if self.frozen:
            self.read_only(span, "throw an event")
        if not isinstance(event, Obj) or not event.cls.is_a(self.event_cls):
            self.error(span, f"{show(event)} is not an event")
        if not sync:
            if self.queue.__class__ is tuple:
                self.queue = deque()
            self.queue.append((event, span))
            return
        saved, self.queue = self.queue, deque([(event, span)])
        try:
            self.resolve_events()
        finally:
            self.queue = saved

    def listeners(self, event: Obj) -> list[tuple[Obj, RAction]]:
        """Actions whose require and trigger hold, by priority, then declaration order."""
        answering = self.game.answering(event.cls)
        found = []
        for obj in self.world.objects[:]:
            actions = answering.get(id(obj.cls))
            if actions is None:
                continue
            for ra in actions:
                frame = Frame(self, obj, ra.size, event)
                if not self.requires_hold(ra, frame) or not self.trigger_holds(ra, event, frame):
                    continue
                prio = ra.prio(frame) if ra.prio is not None else 0
                found.append((-float(prio or 0), ra.order, obj.serial, obj, ra))
        found.sort(key=lambda x: x[:3])
        return [(obj, ra) for *_, obj, ra in found]

    def resolve_events(self) -> None:
        while self.queue:
            event, span = self.queue.popleft()
            self.events += 1
            if self.events > EVENT_LIMIT:
                self.error(span, f"more than {EVENT_LIMIT} events resolved without waiting for a player: "
                                 "do listeners throw events endlessly?")
            listeners = self.listeners(event)
            for obj, ra in listeners:
                try:
                    self.run_action(obj, ra, event, {}, None, check_requires=False)
                except NeedInput as need:
                    if not self.stack:  # the segment's own loop, not an event thrown with throw_sync
                        rest = listeners[listeners.index((obj, ra)) + 1:]
                        need.outer(("event", event, span, rest))
                    raise

    # ============================================================ turns
    def turn_use(self, name, phase, span: Span) -> None:
        if self.frozen:
            self.read_only(span, "change the turn")
        turn = self.game.turns.get(name)
        if turn is None:
            self.error(span, f"no turn named {show(name)}")
        control = self.world.control
        control.turn = name
        if phase is not None:
            if phase not in turn.phases:
                self.error(span, f"turn {name} has no phase {show(phase)}")
            control.phase = phase
            self.enter_pending = True
        elif control.phase not in turn.phases:
            control.phase = next(iter(turn.phases), None)

    def turn_pass(self, p, phase, span: Span) -> None:
        if self.frozen:
            self.read_only(span, "pass the turn")
        control = self.world.control
        if control.turn is None:
            self.error(span, "turn.pass before turn.use: no turn is active")
        if p is None:
            self.error(span, "turn.pass to null")
        self.last_pass = span
        turn = self.game.turns[control.turn]
        if phase is not None:
            if phase not in turn.phases:
                self.error(span, f"turn {control.turn} has no phase {show(phase)}")
            control.phase = phase
        control.player = p if p.__class__ is int and 0 <= p < self.players else to_player(p, self.players)
        self.enter_pending = True

    def turn_pass_default(self, span: Span) -> None:
        """`turn.pass()`: the active turn's default run, through its plain spelling when it has one.
        A default that reads only the control (`RTurn.seen`, `tgpl.runtime.defaults`) keeps what a
        run that did not raise left the control, by turn, player, phase and players, in the game's
        table of every turn's (`Passes.seen`, where generated code finds it at the next
        `turn.pass()`, `passes.to_default`): the latest pass kept as None when it is `span`."""
        if self.frozen:
            self.read_only(span, "pass the turn")
        control = self.world.control
        if control.turn is None:
            self.error(span, "turn.pass before turn.use: no turn is active")
        turn = self.game.turns[control.turn]
        direct = turn.plain
        if direct is None and turn.default is None:
            self.error(span, f"turn {turn.name} has no default block for turn.pass()")
        pending = self.enter_pending
        self.last_pass = span
        self.enter_pending = False
        seen = turn.seen  # kept only where `direct` is not None (`Passes.fill`)
        if direct is None:
            r = self._run_block(turn.default, Frame(self, None, turn.default_size), turn.default_what, span)
            r = r.value if r.__class__ is Returned else None
        else:
            key = (turn.name, control.player, control.phase, self.players)  # before the default changes the control
            # the block's plain spelling (no Frame, its value returned as it is): it reads its
            # locals from `v` on entry and never writes them there, so all can share one of nulls
            stack = self.stack
            stack.append((turn.default_what, span))
            try:
                r = direct(self, None, turn.nulls)
            except OverflowError:  # as `_run_block`
                self.error(span, TOO_LARGE)
            finally:
                stack.pop()
        if r is not None:
            control.player = to_player(r, self.players)
            control.phase = next(iter(turn.phases), None)
            self.enter_pending = True
        elif not self.enter_pending:
            self.enter_pending = pending
            self.error(span, f"the default of turn {turn.name} neither returned a player nor passed the turn")
        if seen is not None:
            seen[key] = (control.player, control.phase, None if self.last_pass is span else self.last_pass)

    def enter_phase(self) -> None:
        """Enter the current phase, one with inputs or with code that needs a Frame (a phase with no
        code, or with a plain spelling, is entered by `settle` itself, `RTurn.entries`)."""
        control = self.world.control
        phase = self.game.turns[control.turn].phases[control.phase]
        if phase.inputs:
            if self.resuming:
                self.resuming = False  # the world is the entry's copy already
            else:
                # Everything after a phase's entry depends only on the world and the choices
                # made since: a decision asked from here on resumes from this copy, and states
                # waiting for it are equal whenever these worlds and choices are (`State.key`).
                self.entry = (self.world.copy(), self.used)
                self.readable = self.world.owned  # the copy took this world's ownership
        frame = Frame(self, None, phase.size)
        self.stack.append(phase.entry)
        try:
            try:
                for inp in phase.inputs:
                    frame.vars[inp.slot] = self.ask_input(inp, frame)
            except _Cancelled:
                self.error(phase.span, f"phase {phase.name}: an input has no candidate")
            if phase.effect is not None:
                phase.effect(frame)
        except NeedInput as need:
            need.close(frame, phase.home, ("phase", phase))
            raise
        except OverflowError:
            self.error(phase.span, TOO_LARGE)
        finally:
            self.stack.pop()

    # ========================================================= segments
    def settle(self) -> None:
        """Resolve events and enter phases until the game waits for a player: the one loop of a
        segment's flow, after setup, a move or a phase resumed. A phase with no code is passed, one
        with a plain spelling (`RPhase.plain`) run here, its entry on the stack, with its shared
        nulls (it reads its locals on entry and never writes them there); any other is entered by
        `enter_phase`. How each is entered is looked up once per turn (`RTurn.entries`), without
        testing the turn and phase for null first: a null one is in no table, a `KeyError`, raised
        again when neither is null. The world and its control are the segment's throughout."""
        turns = self.game.turns
        control = self.world.control
        stack = self.stack
        while True:
            if self.queue:
                self.resolve_events()
            if not self.enter_pending:
                return
            self.enter_pending = False
            self.flows += 1  # before the entry: a choice made in it starts the count again
            try:
                entry = turns[control.turn].entries[control.phase]  # None: `phase P { }`, nothing to run
            except KeyError:
                if control.turn is not None and control.phase is not None:
                    raise
                entry = None  # no turn or no phase: nothing to enter
            if entry is not None:
                if not entry:  # inputs, or code that needs a Frame
                    self.enter_phase()
                else:
                    plain, label, nulls, span = entry
                    stack.append(label)
                    try:
                        plain(self, None, nulls)
                    except NeedInput as need:
                        need.broken = True  # asked below a call: not at a site of the phase's own (`NeedInput.close`)
                        raise
                    except OverflowError:
                        self.error(span, TOO_LARGE)
                    finally:
                        stack.pop()
            if self.flows >= FLOW_LIMIT:
                self.cycle_error()

    def cycle_error(self):
        """The error of a segment that passed control `FLOW_LIMIT` times without waiting for a player."""
        self.error(self.last_pass, f"control passed {FLOW_LIMIT} times without waiting for a player: "
                                   "this turn.pass is part of a cycle of phases that never asks for a move")

    def run_setup(self, setup, size: int) -> None:
        for rc in self.game.classes.values():
            if rc.visibility == "global" and not rc.info.builtin and rc.name not in self.world.globals:
                obj = self.new_object(rc, None, name=rc.name)  # the world's own tables now (`unshare`)
                self.world.globals[rc.name] = obj
        with self._no_candidate():
            if setup is not None:
                frame = Frame(self, None, size)
                try:
                    self._run_block(setup, frame, "setup", None)
                except NeedInput as need:
                    need.close(frame, self.game.setup_home, ("setup",))
                    raise
            if self.game.memos:  # setup is over: what pure functions read is fixed from now on
                self.world.memo = new_memo(self.game.memos, self.game.options.memo_budget)
            self.settle()

    def resume_phase(self) -> None:
        """Run a segment from the entry of the current phase (a world `entry` copied)."""
        self.resuming = True
        with self._no_candidate():  # as when the move that entered the phase runs it
            self.enter_phase()  # a phase with inputs: the entry copied was of one
            self.settle()

    def play(self, obj: Obj, ra: RAction, given: dict, choice_event: Obj) -> None:
        """A move's action with its PlayerChoiceEvent (one given every input and run through its
        plain spelling is `play_plain`'s: `game._play`)."""
        try:  # `_no_candidate` inline: a move is the hot path of search
            self.run_action(obj, ra, choice_event, given, None, check_requires=False)
            self.settle()
        except _Cancelled as c:
            self._no_candidate_error(c)

    def play_plain(self, known: tuple) -> None:
        """`run_action` of a move's action given every input (none is asked), its effect run
        through its plain spelling (`RAction.plain`): no Frame, no event, then the segment settled.
        `known` is the move as `game._plain_play` finds it (`Game.played`: the move, the index of
        objects it was found in, its object, action, locals, plain spelling and stack entry). The
        locals may be a tuple: a plain spelling reads them from its list on entry and never writes
        them there (`codegen`'s `_direct`)."""
        try:
            stack = self.stack
            stack.append(known[6])
            try:
                known[5](self, known[2], known[4])
            except NeedInput as need:
                need.broken = True  # asked below a call: not at a site of the action's own (`NeedInput.close`)
                raise
            except RecursionError:
                ra = known[3]
                self.error(ra.defn.span, too_deep(ra.what))
            except OverflowError:
                self.error(known[3].defn.span, TOO_LARGE)
            finally:
                stack.pop()
            self.settle()
        except _Cancelled as c:
            self._no_candidate_error(c)

    @contextmanager
    def _no_candidate(self):
        """An input statement with no candidate outside a function or an action's inputs: an error there."""
        try:
            yield
        except _Cancelled as c:
            self._no_candidate_error(c)

    def _no_candidate_error(self, c: Cancelled):
        inp = c.inp
        self.error(inp.span if inp is not None else None,
                   f"input '{inp.name if inp is not None else '?'}' has no candidate")


def plain_locals(ra: RAction, given: dict) -> list:
    """The locals of an action run through its plain spelling, its inputs `given` (`Machine.play_plain`)."""
    local = [None] * ra.size
    for inp in ra.inputs:
        local[inp.slot] = given[inp.name]
    return local


def _matches(option, choice) -> bool:
    """Whether an option is the chosen value; objects are chosen by name, ("obj", name), since a
    choice may name an object that the segment creates again each time it runs."""
    if option is choice:
        return True
    if isinstance(choice, tuple) and len(choice) == 2:
        if choice[0] == "obj":
            return isinstance(option, Obj) and option.name == choice[1]
        if choice[0] == "list":
            return (isinstance(option, list) and len(option) == len(choice[1])
                    and all(_matches(o, c) for o, c in zip(option, choice[1])))
    return not isinstance(option, (Obj, list)) and option == choice and type(option) is type(choice)


def _collections_of(world: World) -> set[int]:
    """The ids of every list and table that the world's objects hold, however deep."""
    found: set[int] = set()
    todo = [v for o in world.objects for v in world.data[o.place].values()]
    while todo:
        v = todo.pop()
        c = v.__class__
        if (c is list or c is dict) and id(v) not in found:
            found.add(id(v))
            todo.extend(v.values() if c is dict else v)
            if c is dict:
                todo.extend(v.keys())
    return found


_UNSET = object()  # not looked up yet


def _is_number(v) -> bool:
    return (v.__class__ is float or v.__class__ is int) and v is not True and v is not False


__all__ = ["Machine", "GameOver", "NeedInput"]
