"""The TGPL runtime as a `tgpl.verify.graph.Machine` (what `tgpl verify` and `tgpl compare` explore)."""

from __future__ import annotations

from marshal import dumps
from hashlib import blake2b
from struct import Struct

from tgpl.frontend.outcomes import unscored
from tgpl.runtime.game import PHASE_ENTRY, Game, State, _freeze, _frozen_object
from tgpl.runtime.values import Obj, World
from tgpl.verify.graph import Info
from tgpl.verify.stored import Packer


# Digests of object parts, by the part marshalled, kept by a machine (`_packed`): at most this many
PART_DIGESTS = 1 << 14


def _packed(entry: list, known: dict | None = None) -> bytes:
    """An object's part of the key as verify's digest takes it, kept with the part: a 16-byte
    blake2b of the part marshalled (format 2, `RuntimeMachine.key`). The state's digest is then
    over 16 bytes per object, not the whole of every part, and the world keeps 16 bytes per part, not the marshalled part.
    `known`: the digests of parts met before, by their bytes (an object takes the same few
    values again and again: a Tris tile is empty or either player's), so that a part met
    again costs a lookup, not a blake2b."""
    packed = entry[1] = _digest(dumps(entry[0], 2), known)
    return packed


def _digest(data: bytes, known: dict | None) -> bytes:
    """The 16-byte blake2b of a part's bytes, looked up first in `known` (by the bytes) and kept
    there while it holds fewer than PART_DIGESTS (`_packed`)."""
    if known is None:
        return blake2b(data, digest_size=16).digest()
    packed = known.get(data)
    if packed is None:
        packed = blake2b(data, digest_size=16).digest()
        if len(known) < PART_DIGESTS:
            known[data] = packed
    return packed


_LEN = Struct("<i").pack
_CONSTANTS = {None: b"N", True: b"T", False: b"F"}


class _Parts:
    """Objects' parts of the key in marshal's format 2 (`_packed`'s bytes), assembled from the
    encodings of their values, each made once and kept by value: a part after a move costs a few
    lookups and a join, not the part frozen (a tuple of tuples made) and marshalled.

    Format 2 writes a tuple as `(`, its length (4 bytes, little-endian) and its items, each alone
    (no references to values met before, no interned strings: `RuntimeMachine.key`), so the bytes
    of `(name, owners, values)` are a head, made once per object and owners, and each value's
    bytes: a number as `_frozen_object` freezes it (a float, never -0.0), a string, a bool or
    null as it is, an object by its reference, anything else (lists, tables) frozen and
    marshalled, as there, once per list or table. Keyed by class as well as value where Python's
    equality would mix them (1.0 == True); at most PART_DIGESTS values of each kind kept."""

    def __init__(self):
        self.heads: dict[tuple, bytes] = {}  # (object, owners, number of fields) -> the part's head
        self.refs: dict[Obj, bytes] = {}  # objects' references
        self.floats: dict[float, bytes] = {}
        self.strings: dict[str, bytes] = {}
        self.collections: dict[int, tuple] = {}  # id -> (the list or table, its bytes)

    def __call__(self, w: World, o: Obj) -> bytes:
        fields = w.data[o.place]
        owners = w.owners.get(o, ())
        head = self.heads.get((o, owners, len(fields)))
        if head is None:
            head = b"(" + _LEN(3) + dumps(o.name, 2) + dumps(owners, 2) + b"(" + _LEN(len(fields))
            if len(self.heads) < PART_DIGESTS:
                self.heads[(o, owners, len(fields))] = head
        out = [head]
        for v in fields.values():
            c = v.__class__
            if c is float:
                v += 0.0
                b = self.floats.get(v)
                if b is None:
                    b = dumps(v, 2)
                    if len(self.floats) < PART_DIGESTS:
                        self.floats[v] = b
            elif c is Obj:
                b = self.refs.get(v)
                if b is None:
                    b = dumps(v.ref, 2)
                    if len(self.refs) < PART_DIGESTS:
                        self.refs[v] = b
            elif c is str:
                b = self.strings.get(v)
                if b is None:
                    b = dumps(v, 2)
                    if len(self.strings) < PART_DIGESTS:
                        self.strings[v] = b
            elif v is None or c is bool:
                b = _CONSTANTS[v]
            elif c is list or c is dict:
                # by the list or table itself: a state's world never changes, and a world copied
                # from it copies a list or table before changing it (`World.own`), so one met in a
                # state keeps its items (held here, its id stays its own)
                held = self.collections.get(id(v))
                if held is not None and held[0] is v:
                    b = held[1]
                else:
                    b = dumps(_freeze(v), 2)
                    if len(self.collections) < PART_DIGESTS:
                        self.collections[id(v)] = (v, b)
            else:
                b = dumps(_freeze(v), 2)
            out.append(b)
        return b"".join(out)


class RuntimeMachine:
    """Decision states of a TGPL game; move texts are exactly what `tgpl play --moves` accepts."""

    def __init__(self, game: Game, seed: int = 0, start: State | None = None,
                 unread: frozenset[str] = frozenset()):
        self.game = game
        self.seed = seed
        self._start = start  # the state after setup with this seed, when the caller has it already
        self.roles = [f"player {p}" for p in range(game.players)]
        # Worlds that pending states (waiting for a choice) re-run from, by id: the world
        # (held, so that its id stays its own), how many such states this machine handed
        # out that are not released yet, and whether the world's own state was released.
        self._bases: dict[int, list] = {}
        self._digests: dict[bytes, bytes] = {}  # object parts' digests, by their bytes (`_packed`)
        # The rest of keys with no result and no choice pending (`State.key_rest`: whose turn
        # and the generator, ints, strings and None only, so equal tuples marshal alike), marshalled
        self._rests: dict[tuple, bytes] = {}
        self._parts = _Parts()
        # Explore's `store` and `restore`: a settled state of the frontier kept as one tuple
        # (`tgpl.verify.stored`), a seventh of its memory on Tris, a state waiting for a choice whole
        packer = Packer(game)
        self.store = packer.pack
        self.restore = packer.unpack
        self._joints: dict[tuple, tuple] = {}  # (player, move text) -> the joint move (`_joint`)
        self._movers = [(p,) for p in range(game.players)]  # the movers of each player's states, one tuple each
        # attributes left out of the keys (`State.key_without`): to compare with a lowered game that has no state
        # of them (tgpl.lowering.unread); empty for every other use
        self.unread = unread

    def initial(self) -> State:
        state = self._start if self._start is not None else self.game.initial_state(self.seed)
        self._handed_out(state)
        return state

    def _handed_out(self, state: State) -> None:
        if state.base is not None:
            # a phase's entry world belongs to no state: only pending states hold it
            entry = self._bases.setdefault(id(state.base), [state.base, 0, state.first is PHASE_ENTRY])
            entry[1] += 1

    def release(self, state: State) -> None:
        """Let go of a state's world once explore is done with the state (`World.clear`).

        Worlds share the fields of objects they did not change, and hold no reference
        cycles, so this only frees a world's tables early. Every world handed out here belongs to one
        state, except that a pending state re-runs its segment from the world it started
        from (`base`), which a state that may already be released owns (or no state, for a
        copy made at a phase's entry); such a world is cleared when both its state and the
        last pending state using it are released.
        """
        if state.base is not None:
            entry = self._bases.get(id(state.base))
            if entry is not None:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._bases[id(state.base)]
                    if entry[2]:
                        entry[0].clear()
        entry = self._bases.get(id(state.world))
        if entry is not None:
            entry[2] = True  # pending states still re-run from it
        else:
            state.world.clear()

    def key(self, state: State) -> bytes:
        """The state's key, compact: a 16-byte digest of its canonical key. Explore keeps one
        per state seen; the key itself holds every object of the state (kilobytes on a large
        board). Runtime keys are tuples of strings, floats, bools and None in a fixed order (ints
        only where nothing else can be), and marshal's format 2 writes each by its value alone:
        later formats also write whether an equal value met before was the same object, or a
        string interned, so equal keys gave different bytes (a number copied from another field
        or computed anew). Two different states share a digest with probability about 2^-128
        per pair. The digest is over the number of objects, each object's part digested (16
        bytes of blake2b over the part marshalled, `_packed`, kept by the world with the part,
        `World.frozen`, and shared by its copies as the parts are: a state after a move digests
        only the objects the move changed), kept by place and so in creation order (an empty
        place adds no bytes), and the rest of the key marshalled: the part digests
        have a fixed length and marshal's encodings delimit themselves, so equal keys give equal
        bytes and different keys different bytes (but for a collision of 128-bit digests)."""
        if self.unread:
            return blake2b(dumps(state.key_without(self.unread), 2), digest_size=16).digest()
        w = state.world
        frozen = w.frozen
        known = self._digests
        objects = w.objects
        inherited = w.inherited
        if (inherited is not None and len(inherited[1]) == len(w.data)
                and (inherited[0] is objects or inherited[0] == objects)):
            # the digests of the world this one was copied from, those of the objects it owns or
            # wrote since made again: no other object changed (`World.inherited`), and the
            # objects are the same (the same list, or an equal copy: objects compare by identity)
            parts = inherited[1][:]
            assembled = self._parts
            for changed in (w.owned, w.written):
                for o in changed:
                    e = frozen.get(o)
                    if e is not None:
                        parts[o.place] = e[1] or _packed(e, known)
                    else:
                        # the part's bytes without the part (`_Parts`): nothing frozen, nothing kept by
                        # the world (a key asked of the state freezes it then)
                        parts[o.place] = _digest(assembled(w, o), known)
        else:
            # State.key_parts, each part digested once (`World.frozen`, `_packed`), by place: a
            # new object's place is past every live one's, so places are in creation order
            parts = [b""] * len(w.data)
            for o in objects:
                parts[o.place] = (e := frozen.get(o) or _frozen_object(w, o))[1] or _packed(e, known)
        w.digests = (objects, parts)
        w.inherited = None  # its source's digests are no longer needed: let them go with it
        count = len(objects)
        rest = state.key_rest()
        if rest[2] is None and rest[3] is None:  # ints, strings and None only: the bytes remembered
            packed = self._rests.get(rest)
            if packed is None:
                packed = dumps(rest, 2)
                if len(self._rests) < PART_DIGESTS:
                    self._rests[rest] = packed
        else:
            packed = dumps(rest, 2)
        return blake2b(count.to_bytes(4, "little") + b"".join(parts) + packed, digest_size=16).digest()

    def replay(self, moves: list[str]) -> State:
        """The state after these move texts from the initial state (explore rebuilds the
        states of its frontier this way when keeping them would take too much memory)."""
        state = self.game.initial_state(self.seed)
        for text in moves:
            nxt = state.apply(text)
            if nxt.base is not state.world:  # else nxt, waiting for a choice, re-runs from it
                self.release_now(state)
            state = nxt
        self._handed_out(state)
        return state

    def release_now(self, state: State) -> None:
        """Free a state of a replay at once (no pending state handed out refers to its world)."""
        if state.base is None and id(state.world) not in self._bases:
            state.world.clear()

    def leaf_info(self, state: State) -> Info:
        """`info` without the successors (a depth-limited search's last level): the moves listed, none made."""
        return self.info(state, successors=False)

    def info(self, state: State, successors: bool = True) -> Info:
        if state.is_terminal:
            ranking = state.ranking
            if unscored(ranking, self.game.players):  # `winner {}` among several players: names nobody
                return Info(True, [None] * self.game.players, (), (), [],
                            "the game ended without a winner (an empty ranking)")
            return Info(True, state.goals, (), (), [])
        p = state.active_player
        moves = state.legal_moves()
        joints = self._joints
        out = []
        for m in moves if successors else ():
            text = m.text
            joint = joints.get((p, text))
            if joint is None:
                joint = self._joint(p, text)
            nxt = state.apply(m)
            self._handed_out(nxt)
            out.append((text, joint, nxt))
        mover = self._movers[p]
        return Info(False, [], mover, () if moves else mover, out)

    def _joint(self, p: int, text: str) -> tuple:
        """The joint move of player `p` playing `text`, one tuple for every edge that plays it (the
        graph keeps one per edge: on Tris, more than its states), kept while fewer than PART_DIGESTS."""
        j = [None] * self.game.players
        j[p] = text
        joint = tuple(j)
        if len(self._joints) < PART_DIGESTS:
            self._joints[(p, text)] = joint
        return joint
