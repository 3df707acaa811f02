"""A settled state as verify stores it between finding and expanding it: one flat tuple.

Explore (tgpl.verify.graph) keeps every state of its frontier until its turn comes, and a
breadth-first frontier is a whole level: most of the memory of a search. A `State` there is a
`World` with its own tables (the objects' fields by object, the key parts remembered, the sets
of objects owned and written, its control), 2.9 KB for a Tris position and 6.3 KB for a
Connect Four one, although a move changes one or two objects. Stored, the state is one tuple:

    (fields at place 0, fields at place 1, ..., owners, player, turn, phase, seldom, result,
     transients, digested, [digest at place 0, ...,] [place, field values..., ...], layout)

the world's list of fields (`World.data`, a slot per object's place), each the object's fields
dict itself. A
world shares the dicts of the objects it did not change with the world it was copied from, and
the runtime changes no world a state holds (`tgpl.runtime.values`), so the tuple shares them
too. The dicts of the objects the state's move changed (`World.owned` and `written`) are the
state's alone: those the tuple holds as their values alone, their slots empty, since every
object of a class holds the same fields in the same order (`RClass.fields`), so that what a
stored state costs of its own is a slot per object and per value it changed (Tris: 46 slots,
408 bytes, against 2.9 KB). The `layout`, last, is
what every world with the same objects shares (the objects' list, the globals, the indexes by
class and name, the memo of pure functions, the number of players, the number of places, each
place's field names), made
once per list of objects (`Packer`); `owners`, `seldom` (the generator, log and name counters)
and `result` are the world's own, which it never changes either; whose turn it is (`Control`)
takes three slots. The digests are verify's of the objects' parts of the key (`World.digests`):
the successors' keys start from them (`RuntimeMachine.key`), so a state unpacked costs its
successors' keys nothing more.

Unpacking makes a `World` of these, sharing them as a copy would (`World.copy`): it owns
nothing, so the moves explored from it copy a dict before changing it. The key parts remembered
(`World.frozen`) are left behind: the successors' keys need them only where the objects' list
changed, and made them again then. Only settled states are stored this way: a state waiting for
a choice re-runs its segment from the world it started from (`State.base`) and is kept whole,
as is a state carrying more than its world (a chance machine's draws or key), or one whose move
changed an object holding other fields than its class's.
"""

from __future__ import annotations

from tgpl.runtime.game import Game, State
from tgpl.runtime.values import Control, World

_new_world = object.__new__
_new_state = object.__new__
_new_control = object.__new__
LAYOUTS = 64  # layouts a packer keeps to find again (the states packed hold theirs)


class Packer:
    """Packs and unpacks the states of one game, keeping one layout per list of objects."""

    __slots__ = ("game", "layouts")

    def __init__(self, game: Game):
        self.game = game
        # by id of the objects' list (held by the layout, so that its id stays its own)
        self.layouts: dict[int, tuple] = {}

    def _layout(self, w: World) -> tuple:
        """What the world shares with every world of the same objects: (objects, globals, index by
        class, index by name, everyone, memo, players, the number of places in `data`: the objects fix
        it, the last place being always an object's, and the field names at each place, by the class
        of its object), made when the world has none of its objects' list yet or one that differs
        (`pack`)."""
        objects = w.objects
        names: list = [()] * len(w.data)
        for o in objects:
            names[o.place] = o.cls.fields
        layout = (objects, w.globals, w._by_class, w._by_name, w._everyone, w.memo, w.players, len(w.data),
                  names)
        if len(self.layouts) >= LAYOUTS:  # a game whose moves make or drop objects: the old ones serve no more
            self.layouts.clear()
        self.layouts[id(objects)] = layout
        return layout

    def pack(self, state: State) -> tuple | State:
        """The state as a tuple (see the module's docstring), or the state itself when it is not
        settled or carries more than its world."""
        if state.__class__ is not State or len(state.__dict__) != 2:  # `game` and `world` only: a settled state's
            return state
        w = state.world
        objects = w.objects
        layout = self.layouts.get(id(objects))
        if (layout is None or layout[2] is not w._by_class or layout[3] is not w._by_name
                or layout[1] is not w.globals or layout[4] is not w._everyone or layout[5] is not w.memo):
            layout = self._layout(w)
        data = w.data
        values = data[:]
        c = w.control
        digests = w.digests
        digested = digests is not None and digests[0] is objects
        values += (w.owners, c.player, c.turn, c.phase, w.seldom, w.result, w.transients, digested)
        if digested:
            values += digests[1]
        names = layout[8]
        for changed in (w.owned, w.written):  # their fields dicts are this state's alone: kept as their values
            for o in changed:
                i = o.place
                fields = data[i]
                if len(fields) != len(names[i]):  # not its class's fields (`RClass.fields`): kept whole
                    return state
                values[i] = None
                values += (i, *fields.values())
        values.append(layout)
        return tuple(values)

    def unpack(self, packed: tuple | State) -> State:
        """The state `pack` gave (a state kept whole as it is)."""
        if packed.__class__ is not tuple:
            return packed
        layout = packed[-1]
        objects = layout[0]
        n = layout[7]
        w = _new_world(World)
        w.objects = objects
        data = w.data = list(packed[:n])
        w.owners, player, turn, phase, w.seldom, w.result, w.transients, digested = packed[n:n + 8]
        k = n + 8
        if digested:  # the digests of the objects' parts, by place
            w.digests = (objects, list(packed[k:k + n]))
            k += n
        else:
            w.digests = None
        end = len(packed) - 1
        names = layout[8]
        while k < end:  # the fields of the objects the state's move changed, named by their class
            keys = names[packed[k]]
            start = k + 1
            k = start + len(keys)
            data[packed[start - 1]] = dict(zip(keys, packed[start:k]))
        w.owned = set()
        w.written = set()
        w.frozen = {}
        w.globals = layout[1]
        c = w.control = _new_control(Control)
        c.player = player
        c.turn = turn
        c.phase = phase
        w.players = layout[6]
        w._by_class = layout[2]
        w._by_name = layout[3]
        w._everyone = layout[4]
        w.memo = layout[5]
        w.shared = True  # the objects' list, owners, globals and seldom are shared with other states
        w.inherited = None
        state = _new_state(State)  # as `State._run` makes a settled state
        fields = state.__dict__
        fields["game"] = self.game
        fields["world"] = w
        return state
