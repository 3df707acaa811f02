"""The runtime's view of a program: classes, functions, actions, turns, compiled.

Built once per game by `tgpl.runtime.compiler`; every block is a Python
closure taking a `Frame`, so running a game never walks the AST.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.symbols import ClassInfo
from tgpl.frontend.types import PLAYER, Type

Code = Callable[["Frame"], Any]


class Frame:
    """The activation of one TGPL block: its machine, `this`, locals and event."""

    __slots__ = ("m", "this", "vars", "event")

    def __init__(self, m, this, size: int, event=None):
        self.m = m
        self.this = this
        self.vars: list = [None] * size
        self.event = event


@dataclass(eq=False)
class RInput:
    name: str
    slot: int
    modifier: str  # player | auto | function
    optional: bool
    type: Type
    span: Span
    candidate_type: Type  # the element type for a List input
    is_list: bool = False
    target: Code | None = None  # who picks a player input; None: the default target
    filters: list[tuple[int, Code]] = field(default_factory=list)  # (candidate slot, filter block)
    default: Code | None = None
    # Per filter: whether its block never names the candidate. While legal moves are listed
    # filters cannot change anything, so such a filter is run once per candidate set.
    constant: tuple[bool, ...] = ()
    # Where a choice it asks suspends the code (`Site`): set for inputs a player may be asked.
    site: Site | None = None


@dataclass(eq=False)
class Site:
    """A place where running code can wait for a choice: an input, or a call of an action made
    as a statement (the caller waits there while the callee waits). `serial` names it in state
    keys (numbered in compile order); `home` is the action definition, phase or setup whose own
    statements or declared inputs it is part of (None elsewhere: functions, filters, requires,
    default blocks); `live` are the slots of the frame's locals in scope there, the site's own
    input excluded: what the code after it may still read."""

    serial: int
    home: object
    live: tuple[int, ...]


@dataclass(eq=False)
class RFunction:
    name: str
    owner: RClass | None
    defn: ast.FunctionDef
    inputs: list[RInput]
    # Its body as a function of (machine, this, its inputs in declaration order) giving its value
    # or None (`Compiler.function_effect`); it may carry an optimistic spelling, `direct_call`.
    effect: Callable | None
    size: int
    returns: Type
    memo: int | None = None  # its table in `World.memo` when it is pure (`tgpl.runtime.purity`)

    @cached_property
    def what(self) -> str:
        return f"function {self.owner.name + '.' if self.owner else ''}{self.name}"

    @cached_property
    def returns_player(self) -> bool:
        return self.returns == PLAYER

    @cached_property
    def binders(self) -> dict[tuple[str, ...], tuple[int, ...] | bool]:
        """Per call shape (the names a call gives, in its order): `binder`'s answer."""
        return {}

    def binder(self, names: tuple[str, ...]) -> tuple[int, ...] | bool:
        """How a call of this shape binds (tgpl.runtime.calls._invoke): False when it does not
        give every input once (the general path); True when it gives them in declaration order,
        the effect's own; else the position in that order of each of its values.

        Cached per call shape: generated code calls functions this way, and binding by a
        precomputed plan is the cheap part of a call that runs in every move.
        """
        at = {i.name: k for k, i in enumerate(self.inputs)}
        found: tuple[int, ...] | bool = False
        if len(set(names)) == len(names) == len(at) and all(n in at for n in names):
            plan = tuple(at[n] for n in names)
            found = True if plan == tuple(range(len(plan))) else plan
        self.binders[names] = found
        return found


@dataclass(eq=False)
class RAction:
    name: str
    owner: RClass
    defn: ast.ActionDef
    order: int  # declaration order across the program: ties in priority run in this order
    inputs: list[RInput]
    requires: list[Code]
    triggers: dict[str, Code]  # event class name -> trigger block
    prio: Code | None
    effect: Code | None
    size: int
    # The effect as a plain function of (machine, this, locals), no Frame, when its code has
    # nothing that needs one (`Machine.play` runs a move's action so when the move gives all
    # its inputs): no statement of it is then a site where a choice can suspend it, and a choice
    # asked below (in a function) leaves the state undescribed, as the Frame's way does.
    plain: Code | None = None

    @cached_property
    def what(self) -> str:
        return f"action {self.owner.name}.{self.name}"

    @cached_property
    def entry(self) -> tuple:
        """What the machine's stack holds while the action runs through its plain spelling."""
        return (self.what, self.defn.span)


@dataclass(eq=False)
class RGroup:
    name: str
    geometry: str  # square | hex | graph
    orientation: str | None  # row | col for hex
    rows: list[list[RClass | None]]  # None: the blank tile
    default: Code | None
    size: int


@dataclass(eq=False)
class RClass:
    name: str
    kind: str
    visibility: str
    info: ClassInfo
    base: RClass | None = None
    attributes: list[tuple[str, Code | None]] = field(default_factory=list)  # own, in order
    init_size: int = 0
    functions: dict[str, RFunction] = field(default_factory=dict)
    actions: dict[str, RAction] = field(default_factory=dict)
    groups: list[RGroup] = field(default_factory=list)
    default: Code | None = None  # a deck's default block
    default_size: int = 0
    _all_actions: list[RAction] | None = None  # filled on first all_actions, once compiled
    _choice_actions: list[RAction] | None = None

    def ancestors(self):
        c: RClass | None = self
        while c is not None:
            yield c
            c = c.base

    @cached_property
    def ancestry(self) -> frozenset:
        """The class and its bases (`is_a` as a set test for generated code); read once bases are final."""
        return frozenset(self.ancestors())

    def is_a(self, other: RClass) -> bool:
        return other in self.ancestry

    @cached_property
    def secrets(self) -> dict[str, str]:
        """Each attribute written `private` or `hidden` (over the class and its bases) and which: what a
        seat's view shows of it (tgpl.serve.views; docs/language.md, decision 94). Read once classes are final."""
        found: dict[str, str] = {}
        for c in reversed(list(self.ancestors())):
            defn = c.info.defn if c.info is not None else None
            for attr in (defn.attributes if defn is not None else []):
                if attr.secrecy is not None:
                    found[attr.name] = attr.secrecy.kind
        return found

    @cached_property
    def fields(self) -> tuple[str, ...]:
        """The names of the fields every object of the class holds in a world, in the order the
        world's fields dict holds them: the order `Machine.init_object` gives them (built-in fields
        by kind, then attributes base first, then a board's groups and `groups`), or for a group
        `boards.build_group`'s. Every object of a class has these and no others, however it was made
        (a tile of a board gets its `group` before `init_object`, where a tile made by `new` gets it
        first too), so a field's position is a fact of its class: what the stored form of a state
        (`tgpl.verify.stored`) leaves out, and what a state as one flat sequence would index by
        (tests/runtime/test_field_layouts.py checks every object of the examples against it).
        Read once classes are final."""
        kinds = {c.kind for c in self.ancestors()}
        if "group" in kinds:  # made by `build_group` alone, which gives it these
            return ("name", "tiles", "geometry", "orientation", "_cells")
        names: dict[str, None] = {}  # a dict for its insertion order: a name given again keeps its place
        if "interactable" in kinds:
            names.update(tile=None, discarded=None)
        if "stack" in kinds:
            names.update(_items=None, discard_stack=None)
        if "tile" in kinds:
            names.update(group=None, connections=None)
        if "connection" in kinds:
            names["to"] = None
        lineage = list(self.ancestors())[::-1]
        for c in lineage:
            names.update(dict.fromkeys(name for name, _ in c.attributes))
        if "board" in kinds:
            for c in lineage:
                names.update(dict.fromkeys(g.name for g in c.groups))
            names["groups"] = None
        return tuple(names)

    @cached_property
    def owner_secrecy(self) -> str | None:
        """`private` or `hidden` when the class (or a base) is written so: who owns one of its objects is
        seen by its owners only, or by nobody (tgpl.play.display.visible_owners)."""
        return self.info.owner_secrecy

    def private_action(self, name: str) -> bool:
        """Whether the action `name` is written `private` here or in a base: its moves' inputs are the
        mover's to read (tgpl.serve.views.redact)."""
        return self.info.private_action(name)

    def find_function(self, name: str) -> RFunction | None:
        for c in self.ancestors():
            if name in c.functions:
                return c.functions[name]
        return None

    def function(self, name: str) -> RFunction | None:
        """`find_function`, remembered per name: generated code looks a method up on every call."""
        found = self.found_functions
        if name not in found:
            found[name] = self.find_function(name)
        return found[name]

    @cached_property
    def found_functions(self) -> dict[str, RFunction | None]:
        return {}

    def find_action(self, name: str) -> RAction | None:
        for c in self.ancestors():
            if name in c.actions:
                return c.actions[name]
        return None

    def all_actions(self) -> list[RAction]:
        """Every action of the class, overrides replacing their base, in declaration order.

        Computed once (the runtime lists the actions of every object for every state's
        legal moves); only called once the program is compiled, when classes no longer change.
        """
        found = self._all_actions
        if found is None:
            seen: dict[str, RAction] = {}
            for c in reversed(list(self.ancestors())):
                for name, action in c.actions.items():
                    seen[name] = action
            found = self._all_actions = sorted(seen.values(), key=lambda a: a.order)
        return list(found)

    def choice_actions(self) -> list[RAction]:
        """The actions a player may choose as a move (a PlayerChoiceEvent trigger), in
        declaration order; computed once, as `all_actions`."""
        found = self._choice_actions
        if found is None:
            found = self._choice_actions = [ra for ra in self.all_actions() if "PlayerChoiceEvent" in ra.triggers]
        return found


@dataclass(eq=False)
class RTurn:
    name: str
    phases: dict[str, RPhase]
    default: Code | None
    default_size: int
    span: Span
    # Whether the default reads only the control and changes only it (`defaults.control_only`):
    # its outcomes are then kept by player and phase (`Machine.turn_pass_default`)
    control_only: bool = False
    # Where they are kept, the game's table of every kept outcome (`Passes.seen`, `Passes.fill`):
    # (turn, player, phase, players) -> (player, phase, last pass or None)
    seen: dict | None = None

    @property
    def outcomes(self) -> dict | None:
        """This turn's kept outcomes, (player, phase, players) -> (player, phase, last pass or
        None), read from `seen`; None where they are not kept."""
        if self.seen is None:
            return None
        return {key[1:]: out for key, out in self.seen.items() if key[0] == self.name}

    @cached_property
    def default_what(self) -> str:
        return f"default of turn {self.name}"

    @cached_property
    def plain(self) -> Code | None:
        """The default block's plain spelling (`Machine.turn_pass_default`), found once."""
        return getattr(self.default, "direct", None)

    @cached_property
    def nulls(self) -> tuple:
        """The locals of the default's plain spelling on entry: all null (it never writes them there)."""
        return (None,) * self.default_size

    @cached_property
    def entries(self) -> dict[str, tuple | None]:
        """How each phase is entered by the loop of a segment's flow (`Machine.settle`), found
        once: None for `phase P { }` (nothing runs), (plain spelling, stack entry, locals, span) for a
        phase with a plain spelling (`RPhase.plain`), () for any other (`Machine.enter_phase`)."""
        return {name: _entry(phase) for name, phase in self.phases.items()}


def _entry(phase: RPhase) -> tuple | None:
    """`RTurn.entries`' value for `phase`."""
    if phase.effect is None and not phase.inputs:
        return None
    if phase.plain is None:
        return ()
    return (phase.plain, phase.entry, phase.nulls, phase.span)


@dataclass(eq=False)
class RPhase:
    name: str
    turn: str
    inputs: list[RInput]
    # Its body as a function of (machine, this, its inputs in declaration order) giving its value
    # or None (`Compiler.function_effect`); it may carry an optimistic spelling, `direct_call`.
    effect: Callable | None
    size: int
    span: Span
    home: object = None  # what the sites of its inputs and effect name as their home
    # The effect as a plain function of (machine, this, locals), no Frame, when the phase has no
    # inputs and its code nothing that needs a Frame (`Machine.enter_phase`): then no statement
    # of it is a site where a choice can suspend it, and a choice asked below (in a function)
    # leaves the state undescribed, as the Frame's way does.
    plain: Code | None = None

    @cached_property
    def entry(self) -> tuple[str, Span]:
        """Its entry on the machine's call stack, made once."""
        return f"phase {self.turn}.{self.name}", self.span

    @cached_property
    def nulls(self) -> tuple:
        """The locals of its plain spelling on entry: all null (it never writes them there)."""
        return (None,) * self.size
