"""Setup's deals as random's first moves (docs/language.md, decision 112): where each deal's item goes.

A deck random deals from after setup (tgpl.lowering.chance.dealt_decks) that setup pops too
(`chance.setup_deal_calls`) is dealt by random from the start: the game begins with random to move, its k-th
first move `(roll j)` the item of the deck's roster (the order its `default` block pushed them) that setup's k-th
pop() takes, legal while that item is left. The lowering cannot run setup's code a step at a time, so the runtime
tells it where each deal's item goes: setup is run with the deck dealt at pop() (tgpl.runtime.dealing, a pop()
drawing which item among those left), once taking the first item left at every pop() and once the last; where
both runs agree once each deal's item is named by its deal, the k-th deal's item goes to the same cells (a
list's next slot, an attribute) whichever it is, and the state before the deals is the state after them with
those cells emptied. Where they do not (setup reads the item's value: `Total += card.Value`), setup's deals stay
the seed's (`plan` gives None), as before decision 112.

The validation plays setup's deals the same way (`SetupDeals.node`): a prefix of the draws is one of random's
states, its successors each item left, the whole draws the runtime's state after setup.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.lowering.chance import dealt_decks, setup_deal_calls
from tgpl.runtime.game import Game, State
from tgpl.runtime.rng import Pcg32
from tgpl.runtime.snapshot import snapshot
from tgpl.runtime.values import World
from tgpl.verify.chance_machine import ScriptedDraws, _Script


@dataclass
class SetupDeals:
    """A game's setup with its dealt decks dealt at pop() from the start: random's first `count` moves."""

    game: Game
    seed: int
    classes: frozenset[str]  # the deck classes dealt (tgpl.runtime.dealing)
    deck: str  # the one deck setup deals from, by name
    roster: tuple[str, ...]  # its items before setup deals, in the order its default block pushed them
    count: int  # the pops setup makes

    def run(self, draws: tuple[int, ...]) -> tuple[State, list[int]]:
        """Setup with its pops' draws `draws` (each the place of the item taken among those left; 0 past them):
        the state after setup, its generator the seed's as every state after a draw has it
        (tgpl.verify.chance_machine), and the bound of each draw made."""
        script = _Script(draws)
        world = World(self.game.players, self.seed)
        world.seldom.deals = self.classes
        world.seldom.rng = ScriptedDraws(script)
        state = State._run(self.game, world, None, [])
        state.world.seldom.rng = Pcg32(self.seed)
        return state, script.bounds

    def faces(self, draws: tuple[int, ...]) -> list[int]:
        """Random's `(roll j)` for each draw of `draws`: j the place in the roster of the item it takes."""
        left = list(range(1, len(self.roster) + 1))
        return [left.pop(v) for v in draws]

    def node(self, draws: tuple[int, ...]) -> State | list[tuple[int, tuple[int, ...]]]:
        """What setup's first deals `draws` lead to: the runtime's state after setup where setup deals no more,
        else random's state, each of its moves (the face, the draws after it)."""
        state, bounds = self.run(draws)
        if len(bounds) == len(draws):
            return state
        left = self.faces(draws)
        rest = [j for j in range(1, len(self.roster) + 1) if j not in left]
        return [(j, draws + (v,)) for v, j in enumerate(rest)]

    def draws(self, faces: list[int]) -> tuple[int, ...]:
        """The draws that deal the items `faces` (random's moves), the inverse of `faces`."""
        left = list(range(1, len(self.roster) + 1))
        out = []
        for j in faces:
            out.append(left.index(j))
            left.remove(j)
        return tuple(out)


def setup_deals(game: Game, seed: int = 0) -> SetupDeals | None:
    """The deals of `game`'s setup as random's first moves, None where there are none (`chance.setup_deal_calls`)
    or setup draws on anything else (a die, another deck)."""
    if not setup_deal_calls(game.program):
        return None
    classes = dealt_decks(game.program)[0].classes
    probe = SetupDeals(game, seed, classes, "", (), 0)
    state, bounds = probe.run(())
    count = len(bounds)
    took = state.world.seldom.dealt
    if count == 0 or took is None or took[0] != count:
        return None  # a draw that is no deal of a dealt deck
    decks = [o for o in state.world.objects if o.cls.name in classes and "_items" in state.world.fields(o)]
    if len(decks) != 1:
        return None
    dealt = _dealt_items(state, decks[0])
    left = tuple(i.name for i in state.world.fields(decks[0])["_items"])
    if len(dealt) != count:
        return None  # setup dealt every item, or made others of their class: no roster to name them by
    return SetupDeals(game, seed, classes, decks[0].name, tuple(dealt) + left, count)


def undealt_snapshot(plan: SetupDeals) -> dict | None:
    """The snapshot the lowering starts from where random deals setup's pops (decision 112): the state after setup
    with the deck holding its whole roster and the cells setup's deals filled emptied (a list's dealt slots cut
    off its end, an attribute null), and `deals`: for the k-th deal, the cells its item goes to ((object,
    attribute), a list's slot as `Cards[1]`) and the lengths it makes ((object, `Cards.length`), value). None
    where the two runs (the first item left at every pop, the last) differ otherwise than by which item each deal
    took, or an item goes anywhere else (a table, a list not at its end)."""
    n = len(plan.roster)
    first = snapshot(plan.run(())[0])
    last_draws = tuple(n - 1 - i for i in range(plan.count))
    last_state, bounds = plan.run(last_draws)
    if bounds != [n - i for i in range(plan.count)]:
        return None  # a reshuffle in setup, or draws that depend on the items
    last = snapshot(last_state)
    took_first = [plan.roster[j - 1] for j in plan.faces(tuple(0 for _ in range(plan.count)))]
    took_last = [plan.roster[j - 1] for j in plan.faces(last_draws)]
    rename = dict(zip(took_last, took_first))
    items = set(plan.roster)
    if not _same_but_dealt(first, last, rename, items, plan.deck):
        return None
    deal_of = {name: k for k, name in enumerate(took_first)}
    deals: list[dict] = [{"cells": [], "lengths": []} for _ in range(plan.count)]
    objects = []
    for o in first["objects"]:
        o = dict(o)
        if o["name"] == plan.deck:
            o["items"] = [("obj", name) for name in plan.roster]
        elif o["name"] not in items:
            fields = {}
            for attr, v in o["fields"].items():
                kept = _undealt(o["name"], attr, v, deal_of, deals)
                if kept is _ELSEWHERE:
                    return None
                fields[attr] = kept
            o["fields"] = fields
        objects.append(o)
    if any(not d["cells"] for d in deals):
        return None  # a deal whose item setup drops: nothing of the state names it
    return {**first, "objects": objects, "deals": deals, "deal_deck": plan.deck}


_ELSEWHERE = object()  # an item dealt in setup held where no deal's cell can name it


def _undealt(obj: str, attr: str, v, deal_of: dict[str, int], deals: list[dict]):
    """The value of `obj.attr` before setup's deals, their cells added to `deals`; _ELSEWHERE where it holds a
    dealt item otherwise than as an attribute's value or a list's last items."""
    if isinstance(v, tuple) and v[0] == "obj" and v[1] in deal_of:
        deals[deal_of[v[1]]]["cells"].append((obj, attr))
        return None
    if isinstance(v, tuple) and v[0] == "list":
        xs = list(v[1])
        at = [j for j, x in enumerate(xs) if isinstance(x, tuple) and x[0] == "obj" and x[1] in deal_of]
        if not at:
            return v if not _holds(xs, deal_of) else _ELSEWHERE
        if at != list(range(at[0], len(xs))) or _holds(xs[:at[0]], deal_of):
            return _ELSEWHERE
        order = [deal_of[xs[j][1]] for j in at]
        if order != sorted(order):
            return _ELSEWHERE  # a later deal in an earlier slot: the list's length would go down
        for j in at:
            deals[deal_of[xs[j][1]]]["cells"].append((obj, f"{attr}[{j}]"))
            deals[deal_of[xs[j][1]]]["lengths"].append(((obj, f"{attr}.length"), float(j + 1)))
        return ("list", xs[:at[0]])
    return _ELSEWHERE if _holds([v], deal_of) else v


def _holds(values, deal_of: dict[str, int]) -> bool:
    """Whether any of `values` names a dealt item, nested in lists and tables too."""
    for v in values:
        if isinstance(v, tuple) and v:
            if v[0] == "obj" and v[1] in deal_of:
                return True
            if v[0] == "list" and _holds(v[1], deal_of):
                return True
            if v[0] == "table" and any(_holds(kv, deal_of) for kv in v[1]):
                return True
    return False


def _renamed(v, rename: dict[str, str]):
    if isinstance(v, tuple) and v:
        if v[0] == "obj":
            return ("obj", rename.get(v[1], v[1]))
        if v[0] == "list":
            return ("list", [_renamed(x, rename) for x in v[1]])
        if v[0] == "table":
            return ("table", [(_renamed(k, rename), _renamed(x, rename)) for k, x in v[1]])
    return v


def _same_but_dealt(first: dict, last: dict, rename: dict[str, str], items: set[str], deck: str) -> bool:
    """Whether `last` is `first` with each deal's item renamed to the one the first run dealt there: the items'
    own attributes compared as they are, the deck's items not at all."""
    if (first["control"], first["result"]) != (last["control"], last["result"]):
        return False
    if [o["name"] for o in first["objects"]] != [o["name"] for o in last["objects"]]:
        return False
    for a, b in zip(first["objects"], last["objects"]):
        same_names = a["name"] in items
        for key in ("owners", "cells", "connections", "fields", "items"):
            if key == "items" and a["name"] == deck:
                continue
            x, y = a[key], b[key]
            if key == "fields":
                y = {k: v if same_names else _renamed(v, rename) for k, v in y.items()}
            elif key == "items" and y is not None:
                y = [_renamed(v, rename) for v in y]
            if x != y:
                return False
    return True


def _dealt_items(state: State, deck) -> list[str]:
    """The items setup's pops took where each took the first item left (the first of the roster), in the order
    they were made (a deck's `default` block makes and pushes them in turn): the objects of the classes of the
    items left that the deck no longer holds."""
    held = state.world.fields(deck)["_items"]
    names = {i.name for i in held}
    kinds = {i.cls.name for i in held}
    return [o.name for o in state.world.objects if o.cls.name in kinds and o.name not in names]


__all__ = ["SetupDeals", "setup_deals", "undealt_snapshot"]
