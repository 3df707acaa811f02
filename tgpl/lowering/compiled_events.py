"""Events in the compiled moves (tgpl.lowering.compiled): an event made and thrown by a move's code, answered
where it is thrown.

The runtime resolves `event.throw(e)` after the outermost block under way (the move's action, a phase entry,
a listener), breadth first (docs/language.md, decisions 49, 65, 68). The compiled moves answer it at the
throw itself: its listeners, chosen up front and run in the runtime's order, inlined there. That is the
runtime's game only where the order cannot matter, which `EventPlan` decides by the attributes code reads and
writes (by name, through the functions it calls):

- nothing the block runs after the throw (the rest of its statements, every pass of the loops around the
  throw) writes what the listeners of the event, or of the events they throw, read, nor reads or writes what
  they write;
- the listeners of two different event classes never conflict so (breadth first and depth first run them in
  other orders);
- each event class is thrown from one place only (the move's code, or the listeners of one event class) and
  no event is thrown again by what it sets off, so the answers of one class come in the same order both ways.

An event is a `Record` of values (an event object made during play lives until the next decision, and the
subset never stores one, changes one after its throw, or gives one to a function). Anything else is
`Unsupported`: the moves are then spelled out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tgpl.frontend import ast
from tgpl.lowering.footprint import _children
from tgpl.lowering.horn import Unsupported
from tgpl.lowering.segments import actions_of

ANY = "*"  # in a footprint's writes: code whose effects are not followed (a built-in, `winner`): it conflicts
CONTROL = "#control"  # the pseudo-attribute of who moves where: turn.pass/use write it, player.active() reads it
READ_CALLS = {"player.active", "turn.active", "turn.phase.active"}
HARMLESS = {"log", "event.throw", "length", "contains", "at", "player.all"}


@dataclass(frozen=True)
class Record:
    """An event made by the move's code: its class, its attributes' values (name, term), and whether it was
    thrown (a thrown event is never changed: the runtime's listeners would see the change)."""

    cls: object  # the checker's ClassInfo
    fields: tuple
    thrown: bool = False

    def get(self, name: str):
        for n, v in self.fields:
            if n == name:
                return v
        raise Unsupported(f"'{name}' of an event")

    def with_field(self, name: str, v) -> Record:
        if self.thrown:
            raise Unsupported("an event changed after it was thrown")
        self.get(name)
        return Record(self.cls, tuple((n, v if n == name else x) for n, x in self.fields), self.thrown)

    def substituted(self, sub) -> Record:
        return Record(self.cls, tuple((n, sub(x)) for n, x in self.fields), self.thrown)


@dataclass
class Footprint:
    """The attribute names code may read and write (ANY among the writes: anything)."""

    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)

    def conflicts(self, other: Footprint) -> bool:
        """Whether running the two in either order may differ."""
        if ANY in self.writes and (other.reads or other.writes) or ANY in other.writes and (self.reads or self.writes):
            return True
        return bool(self.writes & (other.reads | other.writes) or other.writes & self.reads)

    def add(self, other: Footprint) -> None:
        self.reads |= other.reads
        self.writes |= other.writes


@dataclass
class Listener:
    obj: object  # the UObj
    action: ast.ActionDef
    trigger: ast.Trigger


class EventPlan:
    """Which thrown events the compiled moves answer at the throw, for one program (see the module's docstring)."""

    def __init__(self, program, universe):
        self.program = program
        self.u = universe
        self.types = program.types
        self.implicit = program.implicit_this
        self.order = {id(a): i for i, a in enumerate(a for info in program.classes for a in info.actions.values())}
        self._listening: dict[int, list[Listener]] = {}
        self._prints: dict[int, Footprint] = {}
        self._refusal: str | None = None
        self._checked = False

    # ------------------------------------------------------------ listeners
    def event_class(self, e: ast.New):
        """The event class `new E()` makes, or Unsupported."""
        t = self.types.get(id(e))
        info = getattr(t, "info", None)
        event = self.program.builtins.event
        if info is None or not info.derives_from(event):
            raise Unsupported("New expressions")
        if info.derives_from(self.program.builtins.player_choice) or e.init is not None:
            raise Unsupported("a player's choice event, or an event with an initializer list, made in a move")
        if info.base is not None and info.base is not event or any(c.base is info for c in self.program.classes):
            raise Unsupported("an event class derived from another event, or derived from")
        if info.defn is not None and any(isinstance(m, ast.Default) for m in info.defn.members):
            raise Unsupported("an event with a default block")
        return info

    def listening(self, cls) -> list[Listener]:
        """The listeners of an event of class `cls` in the runtime's order: by priority (refused here), action
        declaration order, object creation order."""
        found = self._listening.get(id(cls))
        if found is None:
            found = []
            names = [c.name for c in cls.ancestors()]  # a trigger on the class or its nearest base (`Event`)
            for obj in self.u.objects:
                for action in sorted(actions_of(obj), key=lambda a: self.order.get(id(a), -1)):
                    by_name = {t.event: t for t in action.triggers}
                    trigger = next((by_name[n] for n in names if n in by_name), None)
                    if trigger is None:
                        continue
                    if action.prio is not None:
                        raise Unsupported(f"a listener with a priority ({action.name})")
                    if action.inputs:
                        raise Unsupported(f"a listener with inputs ({action.name})")
                    found.append(Listener(obj, action, trigger))
            found.sort(key=lambda x: (self.order.get(id(x.action), -1), x.obj.serial))
            self._listening[id(cls)] = found
        return found

    def thrown_in(self, nodes) -> set:
        """The event classes `event.throw` throws in `nodes` (by the static type of what it throws)."""
        out = set()
        for n in ast.walk(nodes):
            if isinstance(n, ast.Call) and _qualified(self.types, n) == "event.throw" and n.args:
                info = getattr(self.types.get(id(n.args[0].value)), "info", None)
                if info is None:
                    raise Unsupported("a throw of a value that is not an event")
                out.add(info)
        return out

    def throwing_code(self) -> list[tuple]:
        """Every piece of play code with where its throws come from: an action answering an event (not a
        player's choice) its event class's id, anything else (a move, a function, a turn) "root"."""
        out: list[tuple] = []
        choice = {c.name for c in self.program.builtins.player_choice.ancestors()}
        by_name = {info.name: info for info in self.program.classes}
        for info in self.program.classes:
            if info.defn is None:
                continue
            for m in info.defn.members:
                if not isinstance(m, ast.ActionDef):
                    out.append(("root", m))
                    continue
                events = [t.event for t in m.triggers if t.event not in choice]
                wheres = [id(by_name[e]) for e in events if e in by_name] + (
                    ["root"] if len(events) < len(m.triggers) or not m.triggers else [])
                out += [(w, m) for w in wheres]
        out += [("root", t.defn) for t in self.program.turns.values()]
        return out

    def listener_code(self, cls) -> list:
        """The blocks the listeners of `cls` run: triggers, requires, effects."""
        out = []
        for ls in self.listening(cls):
            out += [ls.trigger.body] + [r.body for r in ls.action.requires]
            if ls.action.effect is not None:
                out.append(ls.action.effect.body)
        return out

    def check(self) -> None:
        """The program-wide conditions (the module's docstring): each thrown class thrown from one place, no
        event set off again by what it sets off, no two classes' listeners in conflict."""
        if self._checked:
            if self._refusal:
                raise Unsupported(self._refusal)
            return
        self._checked = True
        sources: dict[int, set] = {}  # event class -> where it is thrown: "root" or the class its listeners answer
        classes: dict[int, object] = {}
        children: dict[int, set] = {}
        for where, code in self.throwing_code():
            for info in self.thrown_in(code):
                classes[id(info)] = info
                sources.setdefault(id(info), set()).add(where)
                if where != "root":
                    children.setdefault(where, set()).add(info)
        base = self.program.builtins.event.name
        try:
            if any(t.event == base for _, m in self.throwing_code() if isinstance(m, ast.ActionDef) for t in m.triggers):
                raise Unsupported(f"a listener of every event (a trigger on {base})")
            for key, froms in sources.items():
                if len(froms) > 1:
                    raise Unsupported(f"the event {classes[key].name} thrown from several places")
            for info in classes.values():
                if id(info) in self._closure(info, children, skip_self=True):
                    raise Unsupported(f"the event {info.name} thrown again by what it sets off")
            prints = {k: self.footprint(self.listener_code(info)) for k, info in classes.items()}
            keys = sorted(prints)
            for i, a in enumerate(keys):
                for b in keys[i + 1:]:
                    if prints[a].conflicts(prints[b]):
                        raise Unsupported(f"listeners of {classes[a].name} and of {classes[b].name} that read or "
                                          "write the same attributes (their order would differ)")
        except Unsupported as e:
            self._refusal = str(e)
            raise

    def _closure(self, info, children: dict[int, set], skip_self: bool = False) -> set[int]:
        """The ids of the classes `info`'s listeners throw, transitively (itself too, unless `skip_self`)."""
        seen: set[int] = set() if skip_self else {id(info)}
        todo = list(children.get(id(info), ()))
        while todo:
            x = todo.pop()
            if id(x) in seen:
                continue
            seen.add(id(x))
            todo += list(children.get(id(x), ()))
        return seen

    def answerable(self, throw: ast.Call, block: ast.Block, cls) -> None:
        """Whether the listeners of `cls` (and what they set off) may run at `throw` in the outermost block
        `block`: Unsupported where the code after the throw may see the difference."""
        self.check()
        after = after_in(block, throw)
        if after is None:
            raise Unsupported("an event thrown in a function called by the move (only a throw in the move's, a "
                              "phase's or a listener's own code is answered where it is thrown)")
        mine = Footprint()
        todo, seen = [cls], set()
        while todo:
            info = todo.pop()
            if id(info) in seen:
                continue
            seen.add(id(info))
            code = self.listener_code(info)
            mine.add(self.footprint(code))
            todo += list(self.thrown_in(code))
        if mine.conflicts(self.footprint(after)):
            raise Unsupported(f"code after event.throw reads or writes what the listeners of {cls.name} read or "
                              "write (the runtime answers the event after the block)")

    # ------------------------------------------------------------ footprints
    def footprint(self, nodes) -> Footprint:
        """The attributes `nodes` may read and write, by name, through the functions and actions they call."""
        out = Footprint()
        seen: set[int] = set()
        todo = [nodes]
        while todo:
            node = todo.pop()
            targets = {id(n.target) for n in ast.walk(node) if isinstance(n, ast.Assign) and n.op == "="}
            for n in ast.walk(node):
                if isinstance(n, ast.Member) and self.of_event(n.obj):
                    continue  # an event's attribute: a value of the way, no state
                if isinstance(n, ast.Assign):
                    t = n.target
                    if isinstance(t, ast.Member) and self.of_event(t.obj):
                        continue
                    if isinstance(t, ast.Member):
                        out.writes.add(t.name)
                    elif isinstance(t, ast.Name) and id(t) in self.implicit:
                        out.writes.add(t.name)
                    elif not isinstance(t, ast.Name):
                        out.writes.add(ANY)
                elif isinstance(n, ast.Winner):
                    out.writes.add(ANY)
                elif isinstance(n, ast.Member) and id(n) not in targets:
                    out.reads.add(n.name)
                elif isinstance(n, ast.Name) and id(n) not in targets:
                    out.reads.add(n.name)
                elif isinstance(n, ast.Call):
                    self._call(n, out, seen, todo)
        return out

    def of_event(self, e) -> bool:
        """Whether `e`'s static type is an event class (its attributes are no state)."""
        info = getattr(self.types.get(id(e)), "info", None)
        return info is not None and info.derives_from(self.program.builtins.event)

    def _call(self, n: ast.Call, out: Footprint, seen: set[int], todo: list) -> None:
        ct = self.types.get(id(n.callee))
        kind = getattr(ct, "kind", None)
        if kind == "function":
            defn = getattr(getattr(ct, "target", None), "defn", None)
            if defn is not None and id(defn) not in seen:
                seen.add(id(defn))
                todo.append(defn)
            return
        q = _qualified(self.types, n)
        if q in ("turn.pass", "turn.use"):
            out.writes.add(CONTROL)
            out.reads.add(CONTROL)
            if q == "turn.pass" and not n.args:  # runs a turn's default at once: what it reads and writes too
                for turn in self.program.turns.values():
                    if turn.defn.default is not None and id(turn.defn.default) not in seen:
                        seen.add(id(turn.defn.default))
                        todo.append(turn.defn.default)
        elif q in READ_CALLS:
            out.reads.add(CONTROL)
        elif q in HARMLESS or q is None and isinstance(n.callee, ast.Member) and n.callee.name in HARMLESS:
            return
        else:
            out.writes.add(ANY)


def _qualified(types: dict, n: ast.Call) -> str | None:
    """`event.throw`, `turn.pass`, ...: the qualified name of a built-in call, else None."""
    ct = types.get(id(n.callee))
    if getattr(ct, "kind", None) != "builtin":
        return None
    name = getattr(getattr(ct, "target", None), "name", "")
    return name if "." in name else getattr(ct, "name", None)


def after_in(block: ast.Block, target: ast.Node) -> list | None:
    """What `block` may run after `target` (a node in it): the statements after it in each enclosing block, and
    the whole of each loop around it (its later passes). None where `target` is not in `block`."""
    path = _path(block, target)
    if path is None:
        return None
    out: list = []
    for parent, child in zip(path, path[1:]):
        if isinstance(parent, ast.Block):
            i = next(k for k, s in enumerate(parent.body) if s is child)
            out += parent.body[i + 1:]
        elif isinstance(parent, (ast.For, ast.While)):
            out.append(parent)
    return out


def _path(node, target) -> list | None:
    """The nodes from `node` down to `target`, both included; None where `target` is not under `node`."""
    if node is target:
        return [node]
    for child in _children(node):
        p = _path(child, target)
        if p is not None:
            return [node] + p
    return None
