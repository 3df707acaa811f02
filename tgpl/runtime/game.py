"""The game API for players, agents, search and verification.

    game = load_game("examples/tris.tgpl")
    state = game.initial_state(seed=1)
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0])
    state.ranking, state.goals

A `State` is immutable: `apply` returns a new one and the old stays valid.
At a decision point the game waits for one player, either for a *move* (a
legal PlayerChoiceEvent action with values for its inputs that player picks)
or for a *choice* (an input that an effect, a phase or a triggered action
asks for). Both are `Move`s; their text, e.g.
`PlayerState#0.Tick(chosenTile: TrisGrid[0][2])` or `TrisGrid[1][1]`, is what
move lists, records and witnesses use.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from tgpl.frontend.diagnostics import render_all
from tgpl.frontend.loader import Program, load_program
from tgpl.frontend.outcomes import goals_of, string_literal
from tgpl.runtime.classes import Frame, RAction
from tgpl.runtime.codegen import BlockGenerator
from tgpl.runtime.compiler import CompiledGame, Compiler
from tgpl.runtime.options import DEFAULT, RuntimeOptions
from tgpl.runtime.errors import GameOver, InputRequest, NeedInput, Returned, TGPLRuntimeError
from tgpl.runtime.listing import quick
from tgpl.runtime.machine import STEP_LIMIT, Machine, _Cancelled, plain_locals
from tgpl.runtime.values import Obj, World, show


class GameLoadError(Exception):
    """The program has errors: `diagnostics` holds them, rendered."""

    def __init__(self, program: Program):
        super().__init__("the game has errors")
        self.program = program

    def render(self) -> str:
        return render_all(self.program.diagnostics, self.program.sources)


@dataclass(frozen=True)
class Move:
    """A decision: an action with its input values, or one input value."""

    text: str
    obj: str | None = None  # the acting object's name (a move); None for a choice
    action: str | None = None
    inputs: tuple[tuple[str, object], ...] = ()  # (input name, value or object name)
    value: object = None  # the chosen value, for a choice

    def __str__(self) -> str:
        return self.text


def _ref(v):
    """A world-independent reference to a value: objects by name."""
    if isinstance(v, list):  # a List input's value
        return ("list", tuple(_ref(x) for x in v))
    return ("obj", v.name) if isinstance(v, Obj) else v


# A pending state's `first` when its segment resumes at the entry of a phase with inputs
# (its `base` is the world then): not a move anyone plays.
PHASE_ENTRY = Move("<phase entry>")


def _value_text(v) -> str:
    return string_literal(v) if isinstance(v, str) else show(v)


def _unspaced(text: str) -> str:
    return "".join(text.split())


def _player_counts(allowed: range) -> str:
    """'2 players' or '4 to 7 players'."""
    if len(allowed) == 1:
        return f"{allowed.start} player{'s' * (allowed.start != 1)}"
    return f"{allowed.start} to {allowed[-1]} players"


class Game:
    """A loaded, checked and compiled TGPL game."""

    def __init__(self, program: Program, compiled: CompiledGame, players: int | None = None):
        self.program = program
        self.compiled = compiled
        if players is not None and players not in compiled.players:
            raise ValueError(f"{compiled.name or 'the game'} is for {_player_counts(compiled.players)}, not {players}")
        self.players = players or compiled.players.start  # the minimum by default
        self.step_limit = STEP_LIMIT  # loop steps per segment before a runtime error (`--max-steps`)
        self.name = compiled.name
        self.choice_event_cls = compiled.builtin("player_choice")
        event_cls = compiled.builtin("event")
        self.is_event = lambda obj: obj.cls.is_a(event_cls)
        self._files = {name: i for i, name in enumerate(program.sources)}
        # Moves listed so far, by (action, object), then input value, for an action whose one input is
        # an object its mover picks: a move names them only (`Move` is world-independent), so
        # every state lists the same Move for them. Bounded (`MOVE_CACHE`): past it, made anew.
        self.moves: dict[tuple, dict] = {}  # (action, object) -> {input value: Move}
        self.cached = 0  # the moves in `moves`
        self.actions: dict[tuple, RAction | None] = {}  # (class, name) -> the action a move names (`_play`)
        # Moves played through their action's plain spelling, by id: (the move, the index of objects
        # by name they were found in, object, action, locals (a tuple), plain spelling, the action's
        # stack entry), `_plain_play`
        self.played: dict[int, tuple] = {}

    def span_key(self, span) -> tuple | None:
        """A place in the game's source for state keys: the file's index among the game's
        sources (not its path, which depends on how the game was named), line and column."""
        if span is None:
            return None
        return (self._files.get(span.file, -1), span.line, span.col)

    def initial_state(self, seed: int = 0) -> State:
        world = World(self.players, seed)
        return State._run(self, world, None, [])

    def machine(self, world: World, choices=()) -> Machine:
        return Machine(self.compiled, world, choices, self.step_limit)


def compile_program(program: Program, options: RuntimeOptions = DEFAULT) -> CompiledGame:
    """The runtime's form of a checked program: closures, and generated code where it can be."""
    return Compiler(program, options, BlockGenerator).compile()


def load_game(path: str | Path, players: int | None = None, options: RuntimeOptions = DEFAULT) -> Game:
    """Load, check and compile a game (run as `options` say); raise GameLoadError if it has errors."""
    program = load_program(path)
    if not program.ok:
        raise GameLoadError(program)
    return Game(program, compile_program(program, options), players)


@dataclass(frozen=True, eq=False)
class State:
    game: Game
    world: World  # never changed once the state exists
    # A segment in progress: the world before it, the move that began it (None for setup,
    # PHASE_ENTRY when it resumes at a phase's entry, `base` being the world then) and the
    # choices made since.
    base: World | None = None
    first: Move | None = None
    choices: tuple = ()
    request: InputRequest | None = None
    error: TGPLRuntimeError | None = field(default=None)
    # Where the suspended segment stands, when the machine could describe it (`_Resume`):
    # what the key of a state waiting for a choice holds instead of its history.
    resume: _Resume | None = None

    # ------------------------------------------------------------ running
    @staticmethod
    def _run(game: Game, base: World, first: Move | None, choices: list) -> State:
        """The state after a segment from `base`: setup (`first` None), a phase's entry resumed, or
        the move `first` (a move played before is played by `apply` itself, `Machine.play_plain`)."""
        if first is not None and base._by_name is None:
            # the index the move names its objects through, made on the world copied, so that this
            # world's copies share it, and the moves found in it (`_play`), until objects change
            base.name_index()
        world = base.copy()
        # object references resolve as the segment runs (the machine copies them); `game.machine` inline
        m = Machine(game.compiled, world, choices, game.step_limit)
        try:
            if first is None:
                m.run_setup(game.compiled.setup, game.compiled.setup_size)
            elif first is PHASE_ENTRY:
                m.resume_phase()
            else:
                _play(game, m, world, first)
        except NeedInput as need:
            return State._waiting(game, world, base, first, choices, m, need)
        except GameOver as over:
            world.result = over.ranking
        if world.transients:  # thrown events live: some may be unreferenced now
            world.drop_unreferenced(game.is_event)
        state = _new_object(State)  # State(game, world), without the frozen dataclass's __init__
        fields = state.__dict__  # the other fields keep their defaults, the class's: a settled state's
        fields["game"] = game
        fields["world"] = world
        return state

    @staticmethod
    def _waiting(game: Game, world: World, base: World, first: Move | None, choices: list, m: Machine,
                 need: NeedInput) -> State:
        """The state of a segment from `base` that stopped for the input `need` asks (`_run`)."""
        resume = _Resume(need.links, tuple(m.queue), m.enter_pending) if need.described else None
        if m.entry is not None:  # resume from the phase's entry, with the choices made since
            entry, used = m.entry
            return State(game, world, entry, PHASE_ENTRY, tuple(choices[used:]), need.request, resume=resume)
        return State(game, world, base, first, tuple(choices), need.request, resume=resume)

    @property
    def pending(self) -> bool:
        return self.request is not None

    @property
    def active_player(self) -> int | None:
        if self.is_terminal:
            return None
        if self.request is not None:
            return self.request.player
        return self.world.control.player

    @property
    def is_terminal(self) -> bool:
        return self.world.result is not None

    @property
    def ranking(self) -> list[list[int]] | None:
        return self.world.result

    @property
    def goals(self) -> list[int]:
        return goals_of(self.world.result, self.world.players)

    @property
    def log(self) -> list[str]:
        return list(self.world.log)

    @property
    def _legal(self) -> list[Move]:
        """The legal moves, listed once (kept in `__dict__` as `cached_property` would, without
        the lock it takes on every first read: a state is listed once in search and verify)."""
        found = self.__dict__.get("_legal_found")
        if found is None:
            if self.world.result is not None:
                found = []
            elif self.request is not None:
                found = [Move(_value_text(v), value=_ref(v)) for v in self.request.options]
            else:
                found = _legal_moves(self.game, self.world)
            self.__dict__["_legal_found"] = found
        return found

    def legal_moves(self) -> list[Move]:
        return self._legal[:]

    def move_by_text(self, text: str) -> Move | None:
        text = text.strip()
        for move in self._legal:
            if move.text == text:
                return move
        return None

    def resolve(self, text: str) -> Move:
        """The move a person typed: its exact text, else the one legal move whose text (spaces
        ignored), or whose text after its object, starts with what was typed, so `Take3`
        finds `Pile.Take3()`. Raises IllegalMove, listing the moves it could mean when several."""
        found = self.move_by_text(text)
        if found is not None:
            return found
        typed = _unspaced(text)
        if typed:
            matches = [m for m in self._legal if _unspaced(m.text).startswith(typed)
                       or (m.obj is not None and _unspaced(m.text)[len(_unspaced(m.obj)) + 1:].startswith(typed))]
            if len(matches) == 1:
                return matches[0]
            if matches:
                shown = ", ".join(m.text for m in matches[:8]) + (", ..." if len(matches) > 8 else "")
                raise IllegalMove(text.strip(), f"ambiguous: it could be {len(matches)} legal moves: {shown}")
        raise IllegalMove(text.strip(), self.explain(text))

    def apply(self, move: Move | str) -> State:
        world = self.world
        if move.__class__ is Move and self.request is None and world.result is None:
            # a move played before from a world with the same index of objects (`_play`): found here.
            # The entry found is the move's own (`known[0] is move`, not tested): it holds the move, so
            # no other object can have its id while it is in the table
            game = self.game
            known = game.played.get(id(move))
            if known is not None and known[1] is world._by_name:
                # `_run(game, base, move, [])` inline, the move played as `_play` plays it when found
                new = world.copy()
                m = Machine(game.compiled, new, (), game.step_limit)
                try:
                    m.play_plain(known)
                except NeedInput as need:
                    return State._waiting(game, new, world, move, [], m, need)
                except GameOver as over:
                    new.result = over.ranking
                if new.transients:  # thrown events live: some may be unreferenced now
                    new.drop_unreferenced(game.is_event)
                state = _new_object(State)  # as `_run` makes it
                fields = state.__dict__
                fields["game"] = game
                fields["world"] = new
                return state
        if isinstance(move, str):
            found = self.move_by_text(move)
            if found is None:
                raise IllegalMove(move, self.explain(move))
            move = found
        if self.world.result is not None:  # `is_terminal` inline: once a move searched
            raise IllegalMove(move.text, "the game is over")
        if self.request is not None:
            return State._run(self.game, self.base, self.first, [*self.choices, move.value])
        return State._run(self.game, self.world, move, [])

    def explain(self, text: str) -> str:
        """Why a move text is not legal here (which require, trigger or filter failed)."""
        return _explain(self, text.strip())

    # ------------------------------------------------------------- views
    def key(self) -> tuple:
        """Canonical and hashable: equal for equal game states."""
        # An object's name fixes its class and the order of its fields, so values suffice.
        # Scalars and objects, nearly every field, are frozen inline: this runs once per
        # state explored.
        # Each object's part is kept by the world (`World.frozen`) and shared by its copies
        # until they change the object: a move changes a few objects, so a key freezes a few.
        objects, rest = self.key_parts()
        return (tuple(objects), *rest)

    def key_without(self, names: frozenset[str]) -> tuple:
        """`key()` with the attributes named `names` left out of every object's part: equal for states that differ
        only in them, as the lowered game that leaves them out sees states (tgpl.lowering.unread, decision 109)."""
        w = self.world
        objects, rest = self.key_parts()
        out = []
        for o, part in zip(w.objects, objects):
            fields = w.data[o.place]
            if not names.isdisjoint(fields):
                part = (part[0], part[1], tuple([v for name, v in zip(fields, part[2]) if name not in names]))
            out.append(part)
        return (tuple(out), *rest)

    def key_parts(self) -> tuple[list, tuple]:
        """`key()` in two: each object's part (`World.frozen`, shared by the states that did not
        change the object, `key_part`), and the rest (`key_rest`)."""
        w = self.world
        frozen = w.frozen
        return [(frozen.get(o) or _frozen_object(w, o))[0] for o in w.objects], self.key_rest()

    def key_rest(self) -> tuple:
        """The key beyond the objects: control, generator, result, what a waiting state holds."""
        w = self.world
        c = w.control
        pending = self._pending_key if self.request is not None else None
        result = tuple(tuple(r) for r in w.result) if w.result is not None else None
        return ((c.player, c.turn, c.phase), w.seldom.rng.key(), result, pending)

    @cached_property
    def _pending_key(self) -> tuple:
        """A waiting state's part of its key beyond the world: where the suspended code stands
        and what it still holds (`_Resume.key`), or, when the machine could not describe that
        (a choice asked inside a function, an event thrown with throw_sync, a default block...),
        the segment's history: the state it started from, its first move and the choices since."""
        if self.resume is not None:
            return self.resume.key(self.game, self.world, self.request)
        return (self.base_key(), self.first.text if self.first else None, tuple(_freeze(v) for v in self.choices))

    def base_key(self):
        return State(self.game, self.base).key() if self.base is not None else None

    def to_json(self) -> dict:
        w = self.world
        return {
            "active_player": self.active_player,
            "turn": w.control.turn,
            "phase": w.control.phase,
            "terminal": self.is_terminal,
            "ranking": w.result,
            "goals": self.goals if self.is_terminal else None,
            "waiting_for": (
                {"input": self.request.name, "player": self.request.player} if self.request else None
            ),
            "legal_moves": [m.text for m in self._legal],
            "objects": [
                {"name": o.name, "class": o.cls.name, "owners": list(w.owners_of(o)),
                 "fields": {k: _jsonable(v) for k, v in w.fields(o).items() if not k.startswith("_")}}
                for o in w.objects
            ],
            "log": list(w.log),
        }


class IllegalMove(Exception):
    def __init__(self, text: str, reason: str):
        super().__init__(f"illegal move '{text}': {reason}")
        self.text = text
        self.reason = reason


# ================================================================ moves
def _resolve(world: World, v):
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "obj":
        return _object(world, v[1])
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "list":
        return [_resolve(world, x) for x in v[1]]
    return v


def _object(world: World, name: str) -> Obj:
    found = world.named(name)
    if found is None:
        raise KeyError(name)
    return found


def _play(game: Game, m: Machine, world: World, move: Move) -> None:
    # objects named through the world's index as `_object` and `_resolve` name them, without
    # their calls: this runs once per move played
    index = world.name_index()
    known = game.played.get(id(move))
    if known is not None and known[0] is move and known[1] is index:  # as found before (`_plain_play`)
        m.play_plain(known)
        return
    obj = index.get(move.obj)
    if obj is None:
        raise KeyError(move.obj)
    ra = game.actions.get((obj.cls, move.action), _UNFOUND)
    if ra is _UNFOUND:  # found once per class and name: classes do not change once compiled
        ra = game.actions[(obj.cls, move.action)] = obj.cls.find_action(move.action)
    given = {}
    for name, v in move.inputs:  # a loop, not a comprehension: one function call less a move
        if v.__class__ is tuple and v[0] == "obj":  # ("obj", name), `_ref`
            found = index.get(v[1])
            if found is None:
                raise KeyError(v[1])
            given[name] = found
        else:
            given[name] = _resolve(world, v)
    if ra is not None and ra.plain is not None and len(given) == len(ra.inputs):
        _plain_play(game, m, move, index, obj, ra, given)
        return
    m.play(obj, ra, given, _choice_event(game, world.control.player))


def _plain_play(game: Game, m: Machine, move: Move, index: dict, obj: Obj, ra: RAction, given: dict) -> None:
    """Play a move whose action is given every input and runs through its plain spelling
    (`Machine.play_plain`: no Frame, no event), and remember what it was found to be: its object,
    action and locals, by the move, with the index of objects by name it was found in. A world
    with the same index has the same handles (`World.name_index` is made anew when an object is
    created or dropped), so the next play of the move in such a world finds them in one lookup
    (`_play`). Not remembered when an input is a list (the action could change it in place)."""
    # the move held: its id stays its own. The locals a tuple: a plain spelling never writes its list
    # (`Machine.play_plain`), and one that did would fail, not change the next play's
    known = (move, index, obj, ra, tuple(plain_locals(ra, given)), ra.plain, ra.entry)
    if all(v.__class__ is not list for v in given.values()):
        if len(game.played) >= MOVE_CACHE:  # moves of setups run before, most likely: start again
            game.played.clear()
        game.played[id(move)] = known
    m.play_plain(known)


def _choice_event(game: Game, player: int) -> Obj:
    return Obj(game.choice_event_cls, -1, "PlayerChoiceEvent", {"active": player})


def _visible(world: World, obj: Obj, player: int) -> bool:
    vis = obj.cls.visibility
    if vis == "global":
        return True
    return player in world.owners_of(obj)


def _new_move(text: str, obj: str, action: str, inputs: tuple) -> Move:
    """`Move(text, obj, action, inputs)` without the frozen dataclass's per-field __init__:
    listing moves makes one per candidate, in every state searched."""
    move = _new_object(Move)
    move.__dict__.update(text=text, obj=obj, action=action, inputs=inputs, value=None)
    return move


_new_object = object.__new__
_UNFOUND = object()
_COMBOS = "combos"  # `Game.moves`' key for an action's moves of several inputs, by their values
MOVE_CACHE = 1 << 17
_PLANS = ("plans",)  # `World.cached`'s key of `_plans_of`


def _single_input(m: Machine, frame: Frame, ra: RAction, player: int) -> list | None:
    """The candidates of an action whose one input the mover picks (the common shape, as
    `_combos` lists it), or None when the action has another shape."""
    inputs = ra.inputs
    if len(inputs) != 1:
        return None
    inp = inputs[0]
    if inp.modifier != "player" or inp.target is not None:
        return None
    options = m.player_options(inp, frame) if inp.is_list else m.candidates(inp, frame)
    return options + [None] if inp.optional else options


def _legal_moves(game: Game, world: World) -> list[Move]:
    known = world._by_class  # `World.cached` inline, without its lambda: once a state listed
    plans = known.get(_PLANS, _UNFOUND) if known is not None else _UNFOUND
    if plans is _UNFOUND:
        plans = world.cached(_PLANS, lambda: _plans_of(game, world))
    if plans is not None:
        return _planned_moves(game, world, plans)
    player = world.control.player
    scratch = world  # read-only: the machine is frozen, so requires, triggers and filters cannot write
    m = game.machine(scratch)
    m.freeze()
    event = None  # the move's PlayerChoiceEvent, made when code that may see it runs
    moves: list[Move] = []
    append = moves.append
    cache = game.moves
    owners = world.owners
    compiled, choice_cls = game.compiled, game.choice_event_cls
    for obj in scratch.actors():
        if obj.cls.visibility != "global" and player not in owners.get(obj, ()):  # `_visible` inline
            continue
        actions = obj.cls.choice_actions()
        for ra in actions:
            plan = quick(compiled, ra, choice_cls)
            try:
                if plan is not None:  # the common shape (`listing`): as `Machine.candidates` lists it
                    pool = scratch.of_class(plan.rc)
                    if plan.may_discard:
                        data = scratch.data
                        pool = [o for o in pool if not data[o.place].get("discarded", False)]
                    options = plan.every(m, obj, [None] * plan.size, pool)
                else:
                    if event is None:
                        event = _choice_event(game, player)
                    frame = Frame(m, obj, ra.size, event)
                    if (ra.requires and not m.requires_hold(ra, frame)) or not m.trigger_holds(ra, event, frame):
                        continue
                    options = _single_input(m, frame, ra, player)
                if options is not None:
                    # the moves of this action of this object, by input value (one lookup a move)
                    moves += _moves_of(game, obj, ra, options)
                    continue
                head = f"{obj.name}.{ra.name}("
                # the moves of this action of this object, by their inputs' values when all are
                # objects or null (a move names them only: every state lists the same Move)
                known = cache.get((ra, obj, _COMBOS))
                if known is None:
                    known = {}
                    if game.cached < MOVE_CACHE:
                        cache[(ra, obj, _COMBOS)] = known
                for combo in _combos(m, frame, list(ra.inputs), player):
                    values = tuple([v for _, v in combo])
                    plain = all(v.__class__ is Obj or v is None for v in values)
                    move = known.get(values) if plain else None
                    if move is None:
                        args = ", ".join(f"{n}: {_value_text(v)}" for n, v in combo)
                        move = _new_move(f"{head}{args})", obj.name, ra.name, tuple((n, _ref(v)) for n, v in combo))
                        if plain and game.cached < MOVE_CACHE:
                            known[values] = move
                            game.cached += 1
                    append(move)
            except _Cancelled:
                continue
            except NeedInput as need:  # a require, trigger or filter asked a player: it cannot
                raise _asked_while_listed(need, ra)
    return moves


def _asked_while_listed(need: NeedInput, ra: RAction) -> TGPLRuntimeError:
    """The error of an input asked by a require, trigger or filter of `ra` while moves are listed."""
    r = need.request
    return TGPLRuntimeError(r.span, f"'{r.name}' asks player {r.player} for input while the legal moves are listed "
                                    f"(in a require, trigger or filter of {ra.what})", [])


def _plans_of(game: Game, world: World) -> list | None:
    """How the legal moves of `world` are listed when every action a player may choose is of
    the common shape (`listing.quick`), else None: per object with such actions, in creation
    order, whether it is global (else its owners choose its moves), and per action a list of
    what listing it reads, in the order `_planned_moves` unpacks it (one unpacking, not a read of
    the plan's attribute each): the action, the plan's filter over the pool and its locals' size,
    the pool, whether some of it may be discarded, and the lookup of the moves met so far
    (`Game.moves`' table of the action's moves by value, its `__getitem__`; None until the first
    listing made the table). It depends only on which objects the world has: kept with them
    (`World.cached`)."""
    compiled, choice_cls = game.compiled, game.choice_event_cls
    plans = []
    for obj in world.actors():
        actions = []
        for ra in obj.cls.choice_actions():
            plan = quick(compiled, ra, choice_cls)
            if plan is None:
                return None
            actions.append([ra, plan.every, plan.size, world.of_class(plan.rc), plan.may_discard, None, plan.data])
        plans.append((obj, obj.cls.visibility == "global", actions))
    return plans


def _planned_moves(game: Game, world: World, plans: list) -> list[Move]:
    """`_legal_moves` by the world's plans (`_plans_of`): the same moves in the same order, without
    finding again, in every state, the objects, their actions, plans and pools. A plan whose filter
    reads only fields (`listing.Quick.data`) runs on the world's fields with no machine; the machine
    is taken only for a plan that needs one, or whose filter raised there (read only: run again its
    own way, it raises or not as it does)."""
    player = world.control.player
    m = None
    moves: list[Move] = []
    owners = world.owners
    data = world.data
    for obj, public, actions in plans:
        if not public and player not in owners.get(obj, ()):  # `_visible` inline
            continue
        for entry in actions:
            ra, every, size, pool, may_discard, listed, fields_only = entry
            if may_discard:
                pool = [o for o in pool if not data[o.place].get("discarded", False)]
            options = None
            if fields_only is not None:
                try:
                    options = fields_only(data, world.globals, obj, pool)
                except Exception:  # a miss (a null, a field missing...): the filter's own way, which has a machine
                    pass
            if options is None:
                if m is None:
                    m = game.machine(world)
                    m.freeze()
                try:
                    options = every(m, obj, [None] * size, pool)
                except _Cancelled:
                    continue
                except NeedInput as need:
                    raise _asked_while_listed(need, ra)
            if listed is not None:
                try:
                    moves += list(map(listed, options))  # each listed before: one lookup a move
                    continue
                except (KeyError, TypeError):  # one not listed before
                    pass
            else:
                known = game.moves.get((ra, obj))
                if known is not None:  # the game's own table of these moves, for the next listings
                    entry[5] = known.__getitem__
            moves += _moves_of(game, obj, ra, options)
    return moves


def _moves_of(game: Game, obj: Obj, ra: RAction, options: list) -> list[Move]:
    """The moves of `obj`'s action `ra` with these values for its one input, as `_legal_moves`
    makes and remembers them (`Game.moves`)."""
    known = game.moves.get((ra, obj))
    if known is None:
        known = {}
        if game.cached < MOVE_CACHE:
            game.moves[(ra, obj)] = known
    out = []
    for v in options:
        move = known.get(v) if v.__class__ is Obj else None
        if move is None:
            move = _single_move(obj, ra, v)
            if v.__class__ is Obj and game.cached < MOVE_CACHE:
                known[v] = move
                game.cached += 1
        out.append(move)
    return out


def _single_move(obj: Obj, ra: RAction, v) -> Move:
    """The move of `obj`'s action `ra` with `v` for its one input (`_single_input`)."""
    name = ra.inputs[0].name
    if v.__class__ is Obj:
        return _new_move(f"{obj.name}.{ra.name}({name}: {v.name})", obj.name, ra.name, ((name, ("obj", v.name)),))
    return _new_move(f"{obj.name}.{ra.name}({name}: {_value_text(v)})", obj.name, ra.name, ((name, _ref(v)),))


def _combos(m: Machine, frame: Frame, inputs, player: int) -> list[list[tuple[str, object]]]:
    """The values of the inputs the mover picks, in declaration order. Auto inputs are filled as the
    action will fill them (no candidate for a non-optional one: no move), so later filters and
    targets see them; an input another player picks stays null here and is asked when the move runs."""
    if not inputs:
        return [[]]
    first, rest = inputs[0], inputs[1:]
    if first.modifier == "auto":
        try:
            frame.vars[first.slot] = m.ask_input(first, frame)
        except _Cancelled:
            return []
        return _combos(m, frame, rest, player)
    if first.modifier != "player" or (first.target is not None and m.input_target(first, frame) != player):
        frame.vars[first.slot] = None
        return _combos(m, frame, rest, player)
    options = m.player_options(first, frame)
    if first.optional:
        options = options + [None]
    out = []
    for v in options:
        frame.vars[first.slot] = v
        for tail in _combos(m, frame, rest, player):
            out.append([(first.name, v), *tail])
    return out


def _explain(state: State, text: str) -> str:
    if state.is_terminal:
        return "the game is over"
    if state.request is not None:
        options = ", ".join(m.text for m in state._legal)
        return f"expected a value for '{state.request.name}' by player {state.request.player}: one of {options}"
    head, _, _ = text.partition("(")
    obj_name, _, action = head.rpartition(".")
    world = state.world.copy()
    player = world.control.player
    try:
        obj = _object(world, obj_name)
    except KeyError:
        return f"there is no object '{obj_name}'"
    if not _visible(world, obj, player):
        return f"{obj_name} does not belong to player {player}"
    ra = obj.cls.find_action(action)
    if ra is None:
        return f"{obj_name} has no action '{action}'"
    if "PlayerChoiceEvent" not in ra.triggers:
        return f"{obj_name}.{action} is not triggered by PlayerChoiceEvent"
    m = state.game.machine(world)
    event = _choice_event(state.game, player)
    frame = Frame(m, obj, ra.size, event)
    for i, req in enumerate(ra.requires):
        r = req(frame)
        if not (isinstance(r, Returned) and r.value is True):
            return f"require block {i + 1} of {obj_name}.{action} (line {ra.requires and ra.defn.requires[i].span.line}) is false"
    if not m.trigger_holds(ra, event, frame):
        return f"the PlayerChoiceEvent trigger of {obj_name}.{action} is false"
    m.freeze()
    return _explain_inputs(m, frame, ra, obj_name, action, text, player, world)


def _split_args(text: str) -> dict[str, str]:
    """`a: X, b: {Y, Z}` -> {"a": "X", "b": "{Y, Z}"}, splitting at top-level commas only."""
    inside = text[text.find("(") + 1 : text.rfind(")")] if "(" in text else ""
    parts, depth, quoted, current = [], 0, False, ""
    for ch in inside:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{(":
            depth += 1
        elif not quoted and ch in "]})":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    out = {}
    for part in parts:
        name, _, value = part.partition(":")
        out[name.strip()] = value.strip()
    return out


def _parse_value(text: str, world: World):
    literals = {"null": None, "true": True, "false": False}
    if text in literals:
        return literals[text]
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return _object(world, text)
    except KeyError:
        raise ValueError(text) from None


def _explain_inputs(m: Machine, frame: Frame, ra: RAction, obj_name: str, action: str, text: str,
                    player: int, world: World) -> str:
    """Which input value of the move is wrong, and which filter rejects it."""
    given = _split_args(text)
    where = f"{obj_name}.{action}"
    for inp in ra.inputs:
        if inp.modifier != "player" or (inp.target is not None and m.input_target(inp, frame) != player):
            frame.vars[inp.slot] = None
            continue
        if inp.name not in given:
            return f"{where} needs a value for its input '{inp.name}'"
        raw = given.pop(inp.name)
        if inp.is_list:
            return f"the value {raw} of '{inp.name}' is not one of the subsets the player may choose"
        try:
            value = _parse_value(raw, world)
        except ValueError:
            return f"the value {raw} of '{inp.name}' names no object"
        if value is None and not inp.optional:
            return f"'{inp.name}' of {where} is not optional: it cannot be null"
        if value is not None:
            saved, inp.filters = inp.filters, []
            try:
                pool = m.candidates(inp, frame)
            finally:
                inp.filters = saved
            if not any(c is value or (not isinstance(c, Obj) and c == value) for c in pool):
                return f"{raw} is not a candidate for '{inp.name}' ({inp.type})"
            filters = [f for f in ra.defn.inputs if f.name == inp.name][0].filters
            for k, (slot, code) in enumerate(inp.filters):
                frame.vars[slot] = value
                r = code(frame)
                if not (isinstance(r, Returned) and r.value is True):
                    label = f"filter '{filters[k].name}'" if filters[k].name else f"filter {k + 1}"
                    return f"{label} of input '{inp.name}' (line {filters[k].span.line}) rejects {raw}"
        frame.vars[inp.slot] = value
    if given:
        return f"{where} has no input '{next(iter(given))}' that the player picks"
    return f"the text does not match a legal move of {where}; legal moves are written like {where}(input: value)"


# ================================================================ views
# Values a key holds as they are. A number is a float in a key, and never -0.0 (`x + 0.0`): the
# game's numbers are floats, but a player stored in a number (`number n = player.active();`) is
# an int, and 2 == 2.0 and -0.0 == 0.0 while their bytes differ, which verify's digests
# (`RuntimeMachine.key`) would tell apart.
_KEPT = frozenset((str, bool, type(None)))


def _frozen_object(w: World, o: Obj) -> list:
    """An object's part of the state key: its name (which fixes its class and the order of its
    fields), owners and field values, frozen; remembered by the world until the object changes
    (`World.frozen`), as [part, the part marshalled or None until verify's digest needs it]."""
    kept, freeze = _KEPT, _freeze
    found = w.frozen[o] = [(o.name, w.owners_of(o), tuple([
        v + 0.0 if v.__class__ is float else v if v.__class__ in kept else v.ref if v.__class__ is Obj else freeze(v)
        for v in w.data[o.place].values()
    ])), None]
    return found


def _freeze(v):
    """A hashable value equal for equal values: objects by reference, collections as tuples."""
    c = v.__class__
    if c is float:
        return v + 0.0
    if c in _KEPT:
        return v
    if c is Obj:
        return v.ref
    if c is int:
        return float(v)
    if c is list:
        return tuple([x + 0.0 if x.__class__ is float else x.ref if x.__class__ is Obj else x if x.__class__ in _KEPT
                      else _freeze(x) for x in v])
    if c is dict:
        return ("{}",) + tuple([(_freeze(k), _freeze(x)) for k, x in v.items()])
    return v


class _Resume:
    """Where a segment waiting for a choice stands, as the machine described it (`NeedInput`):
    the frames it is suspended in, innermost first, each `(site, this, event, locals, what)`,
    the locals being those in scope at the site and `what` ("action", object, action, given
    inputs), ("phase", phase) or ("setup",); then, for a listener run by the segment's own
    loop, ("event", event, where it was thrown, the listeners still to run). Also the events
    queued and whether a phase entry is scheduled.

    The segment resumes by running again from where it started with the choices made, so it
    reaches this point again in the same world and with the same frames; from here on it reads
    only the world and what these hold (the limits count from the last decision), so two states
    with the same world and the same `key` here continue alike, however they came to wait.
    """

    __slots__ = ("links", "queue", "enter_pending")

    def __init__(self, links: list, queue: tuple, enter_pending: bool):
        # of each frame, only what the code after the site can read: `this`, the event and
        # the locals in scope (not the frame, which would keep the whole machine)
        self.links = [link if link[0] == "event" else (link[0], link[1].this, link[1].event,
                                                       [link[1].vars[slot] for slot in link[0].live], link[2])
                      for link in links]
        self.queue = queue
        self.enter_pending = enter_pending

    def key(self, game: Game, world: World, request: InputRequest) -> tuple:
        held = _Held(world)
        value = held.value
        where = game.span_key
        # who is asked and among what: usually found again from the world and the locals, but
        # not when a filter asked for choices itself
        parts: list = ["at", request.player, tuple([_freeze(o) for o in request.options])]
        for link in self.links:
            if link[0] == "event":
                _, event, span, rest = link
                parts.append(("event", value(event), where(span), tuple([(o.ref, ra.order) for o, ra in rest])))
                continue
            site, this, event, local, what = link
            kind = what[0]
            if kind == "action":
                _, _obj, ra, given = what
                # the inputs given to the action matter while its declared inputs are asked;
                # once its effect runs, they are locals like the others
                asking = any(inp.site is site for inp in ra.inputs)
                described = ("action", ra.order, tuple([(n, value(v)) for n, v in given.items()]) if asking else ())
            elif kind == "phase":
                described = ("phase", what[1].turn, what[1].name)
            else:
                described = ("setup",)
            parts.append((site.serial, described, value(this), value(event), tuple([value(v) for v in local])))
        parts.append(tuple([(value(event), where(span)) for event, span in self.queue]))
        parts.append(self.enter_pending)
        return tuple(parts)


class _Held:
    """Freezes what suspended frames hold, as `_freeze` does, and also which of their lists and
    tables are the very ones an object of the world holds (named by where: the object, field
    and indexes) or one another local holds too: the code after the choice may change them in
    place, and what that changes is part of what happens next."""

    __slots__ = ("world", "held", "seen")

    def __init__(self, world: World):
        self.world = world
        self.held: dict[int, tuple] | None = None
        self.seen: dict[int, int] = {}

    def value(self, v):
        c = v.__class__
        if c in _KEPT:
            return v
        if c is float or c is int:
            return _freeze(v)
        if c is Obj:
            if v.fixed is None:
                return v.ref
            return (v.ref, tuple([_freeze(x) for x in v.fixed.values()]))  # a move's PlayerChoiceEvent
        if c is list or c is dict:
            held = self.held
            if held is None:
                held = self.held = _collections_held(self.world)
            found = held.get(id(v))
            if found is not None:
                return ("held", *found)
            seen = self.seen
            k = seen.get(id(v))
            if k is not None:
                return ("same", k)
            seen[id(v)] = len(seen)
            if c is list:
                return ("list", *[self.value(x) for x in v])
            return ("{}", *[(self.value(k), self.value(x)) for k, x in v.items()])
        return v


def _collections_held(world: World) -> dict[int, tuple]:
    """Where each list and table the world's objects hold is, by id: (object name, field,
    indexes...), the first place met in object and field order."""
    found: dict[int, tuple] = {}
    data = world.data
    for o in world.objects:
        for name, v in data[o.place].items():
            if v.__class__ is not list and v.__class__ is not dict:
                continue
            todo = [(v, (o.name, name))]
            while todo:
                item, path = todo.pop()
                if id(item) in found:
                    continue
                found[id(item)] = path
                if item.__class__ is list:
                    inner = [(x, (*path, i)) for i, x in enumerate(item) if x.__class__ is list or x.__class__ is dict]
                else:
                    inner = []
                    for i, (k, x) in enumerate(item.items()):
                        if k.__class__ is list or k.__class__ is dict:
                            inner.append((k, (*path, "key", i)))
                        if x.__class__ is list or x.__class__ is dict:
                            inner.append((x, (*path, i)))
                todo.extend(reversed(inner))
    return found


def _jsonable(v):
    if isinstance(v, Obj):
        return v.name
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return [[_jsonable(k), _jsonable(x)] for k, x in v.items()]
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return int(v)
    return v


def explore(game: Game, limit: int = 1_000_000, seed: int = 0) -> dict:
    """Every reachable decision state, breadth first, up to `limit` states."""
    start = game.initial_state(seed)
    seen = {start.key(): start}
    frontier = deque([start])
    terminal = 0
    transitions = 0
    wins: dict[str, int] = {}
    while frontier:
        state = frontier.popleft()
        if state.is_terminal:
            terminal += 1
            label = ("no winner" if not any(state.ranking) else "draw" if len(state.ranking[0]) > 1
                     else f"player {state.ranking[0][0]}")
            wins[label] = wins.get(label, 0) + 1
            continue
        for move in state.legal_moves():
            nxt = state.apply(move)
            transitions += 1
            k = nxt.key()
            if k not in seen:
                if len(seen) >= limit:
                    return {"states": len(seen), "terminal": terminal, "complete": False, "transitions": transitions, "outcomes": wins}
                seen[k] = nxt
                frontier.append(nxt)
    return {"states": len(seen), "terminal": terminal, "complete": True, "transitions": transitions, "outcomes": wins}


__all__ = [
    "Game", "GameLoadError", "IllegalMove", "Move", "State", "explore", "goals_of", "load_game",
]
