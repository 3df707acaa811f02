"""Dice lowered as moves of GDL-II's chance role `random` (docs/gdl.md, "GDL-II out").

A GDL-II game's `random` role picks uniformly among its legal moves, so a die of n faces is random choosing
among `(roll 1)` ... `(roll n)`. The lowering splits a move whose action rolls into two GDL steps: the
player's move only hands control to random, in a control state that remembers the move (`(control random
turn phase_roll_seat_0)`); random's `(roll k)` then runs the whole effect, the die reading k. Nothing happens
between the two steps (no state of the runtime lies there: the runtime's chance node is "the move played,
its draws not known"), so running the effect's statements before the roll in the second step is the same
game.

What is lowered: the dice an action throws, anywhere in its effect or in the functions it calls, but in a loop,
each `roll(n)` with n a whole-number literal; several dice are one move of random's, `(roll f1 ... fk)`, the
faces of all of them in the order the runtime draws them, one move for each way they can fall (the product of
their sides, at most THROW_OUTCOMES): random's uniform choice among them is the independent uniform faces of
the dice. The player's move is run once with a probe for the dice: the ways through the effect that reach one
hand control to random, the others are the move's whole effect (the runtime draws nothing there: a roll under a
condition, a `winner` before it). A way that reaches a die must throw all of them, in their order
(`Executor.dice` refuses the rest where it meets them). The dice of a phase's code are random's move as the flow
enters the phase, each entry a step of its own (`phase_rolls`, decision 117). Every other roll after setup (in a
loop, a turn's `default` block, shuffles after setup) is refused where it stands (`action_rolls`). Setup's dice are random's first move: the
game starts with random to move, each of its moves `(roll k)` setting what the k-th way setup's draws fall sets
(`setup_throw`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.after_setup import after_setup_nodes, reachable
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.types import CallableType, ClassType
from tgpl.lowering.universe import slot_cell

RANDOM = "random"  # GDL-II's chance role
ROLL = "roll"  # the function of random's moves: (roll k), (roll2 a b) for two dice (`roll_name`)
DID = "did"  # the percept of a move: every player sees (did role move), as Dresden's GameController writes it
SETUP = "setup"  # the last part of random's control state at the start, where it throws setup's dice
SETUP_DEAL = "deal"  # random's control states at the start where it deals setup's pops: `deal1`, `deal2`, ...


def setup_deal_control(k: int) -> str:
    """The last part of random's control state where it deals setup's (k+1)-th pop (decision 112)."""
    return f"{SETUP_DEAL}{k + 1}"


def setup_deal_step(cs: tuple) -> int | None:
    """k where the control state `cs` is random's dealing setup's (k+1)-th pop (`setup_deal_control`); else None."""
    if len(cs) == 4 and isinstance(cs[3], str) and cs[3].startswith(SETUP_DEAL):
        return int(cs[3][len(SETUP_DEAL):]) - 1
    return None


SETUP_OUTCOMES = 1_000
"""Ways setup's dice can fall past which a setup that rolls is refused: each is one move of random's first step."""
THROW_OUTCOMES = 1_000
"""Ways an action's dice can fall past which it is refused: each is one move of random's, and one way through the
rest of the effect."""


@dataclass(frozen=True)
class Roll:
    """A die an action throws: its call and its number of faces; or a deal, a pop() of a dealt deck
    (`dealt_decks`), whose faces are the deck's items (`deal`: its class's name; sides 0 until the lowering
    knows the deck, `Throw.sized`)."""
    call: ast.Call
    sides: int
    deal: str | None = None


@dataclass(frozen=True)
class Throw:
    """The dice an action throws, in the order its effect reaches them (a function called twice, twice): random's
    move gives them all their faces at once."""
    dice: tuple[Roll, ...]
    entered: bool = False  # its last die is a deal in the code of a phase the move may enter (`phase_deals`)

    @property
    def sides(self) -> tuple[int, ...]:
        return tuple(d.sides for d in self.dice)

    def sized(self, slots: dict[str, int]) -> Throw:
        """This throw with each deal's sides the items of its deck (deck class name -> items)."""
        return Throw(tuple(Roll(d.call, slots[d.deal], d.deal) if d.deal else d for d in self.dice), self.entered)

    @property
    def deals(self) -> bool:
        return any(d.deal for d in self.dice)

    @property
    def faces(self) -> list[tuple[int, ...]]:
        """Every way the dice can fall, in the runtime's order of draws (the last die first, odometer-wise):
        random's moves."""
        return list(itertools.product(*(range(1, n + 1) for n in self.sides)))


def is_roll(program, n) -> bool:
    """Is `n` a call of the built-in `roll(sides)` (a face from 1 up)?"""
    if not isinstance(n, ast.Call):
        return False
    ct = program.types.get(id(n.callee))
    return isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name == "roll" and "." not in ct.target.name


def roll_name(dice: int) -> str:
    """The function of random's moves that throw `dice` dice: `roll` for one, `roll2` for two, ... (GDL gives a
    function one arity: a game whose moves throw one die and two writes both)."""
    return ROLL if dice == 1 else f"{ROLL}{dice}"


def roll_sides(call: ast.Call) -> int | None:
    """The sides of a roll() call, where written as a whole-number literal; else None."""
    args = [a.value for a in call.args]
    if len(args) != 1 or not isinstance(args[0], ast.NumberLit):
        return None
    v = args[0].value
    return int(v) if v == int(v) and v >= 1 else None


def _rolls_reached(program, node, looped: bool = False, calling: tuple = (), pops: frozenset = frozenset()):
    """(roll() call, whether a loop may run it more than once) for every roll `node` runs, in the functions it
    calls too (as often as they are called: a function called twice throws its die twice), depth first; and
    for every pop() of a dealt deck (id() in `pops`), random's deal."""
    if isinstance(node, list):
        for x in node:
            yield from _rolls_reached(program, x, looped, calling, pops)
        return
    if not isinstance(node, ast.Node):
        return
    passes = counted_passes(node) if isinstance(node, ast.For) else None
    if passes is not None:  # a die in its body thrown once a pass (Executor.roll refuses a way that throws fewer)
        found = list(_rolls_reached(program, node.body, looped, calling, pops))
        for _ in range(passes if found else 0):
            yield from found
        return
    if isinstance(node, (ast.While, ast.For)):
        looped = True
    if is_roll(program, node) or id(node) in pops:
        yield node, looped
    if isinstance(node, ast.Call):
        ct = program.types.get(id(node.callee))
        if isinstance(ct, CallableType) and ct.kind == "function":
            defn = ct.target.defn
            if id(defn) in calling:  # recursion: its dice as many times as it calls itself
                yield from ((n, True) for n in ast.walk(defn) if is_roll(program, n) or id(n) in pops)
            else:
                yield from _rolls_reached(program, defn, looped, calling + (id(defn),), pops)
    for child in ast.children(node):
        yield from _rolls_reached(program, child, looped, calling, pops)


def counted_passes(loop: ast.For) -> int | None:
    """How many passes `for (number i = a; i < b; i += 1)` makes, a and b literals (a not negative) and i not
    written in the body (`<=` too): the dice in its body are thrown that many times. None for any other loop."""
    counted = ast.counted_for(loop)
    if counted is None or not isinstance(loop.init.init, ast.NumberLit) or not isinstance(loop.cond.right, ast.NumberLit):
        return None
    name, first, inclusive = counted
    if any(isinstance(n, ast.Assign) and isinstance(n.target, ast.Name) and n.target.name == name
           for n in ast.walk(loop.body)):
        return None
    last = loop.cond.right.value
    if first != int(first) or last != int(last):
        return None
    return max(0, int(last) - int(first) + inclusive)


def shuffle_refusal(name: str) -> str:
    """Why a shuffle() or reshuffle() after setup is refused: random's moves would be every order of the items
    (14! for examples/treasure.tgpl's deck), where dice give it a few."""
    return (f"{name}() after setup is not lowerable: it is a chance move over the orders of the items shuffled "
            "(k! of them for k items), and GDL-II's random deals only from a deck made shuffled that play only pops (decision 100)")


DEALT_ITEMS = "items"
"""The name of a dealt deck's items as fluents: `items.length`, how many are left, and `items[k]` (`left_cell`),
whether the deck's k-th item is one of them."""


def left_cell(k: int) -> str:
    """The attribute of a dealt deck's fluent saying whether its k-th item (numbered in the order the deck holds
    them when the lowering starts: its roster) is still in it, a bool: the deck as the set of its items left."""
    return slot_cell(DEALT_ITEMS, k)
DEAL_METHODS = frozenset({"pop", "shuffle", "length"})
"""What code after setup may do with a dealt deck: pop() is random's deal, shuffle() changes nothing."""


@dataclass(frozen=True)
class Dealt:
    """The deck classes random deals from at each pop() (`dealt_decks`: shuffled after setup, or made shuffled
    and only popped in play): their names (a class and the classes derived from it), and the pop() calls on
    them after setup."""
    classes: frozenset[str]
    pops: frozenset[int]  # id() of the calls
    shuffles: tuple[Span, ...] = ()  # their shuffles that change nothing: after setup, and in their default
    # blocks where setup takes nothing from them
    refills: frozenset[str] = frozenset()  # the classes of those code after setup reshuffles (`_why_not_refilled`):
    # a reshuffle makes their discarded items left again
    reshuffles: tuple[Span, ...] = ()  # where, in source order

    def sites(self, program) -> tuple[list[Span], list[Span]]:
        """Where random deals (the pop() calls) and the shuffles that change nothing in the GDL, in source order."""
        pops = [n.span for n in after_setup_nodes(program) if id(n) in self.pops]
        order = lambda sp: (sp.file, sp.line, sp.col)
        return sorted(set(pops), key=order), sorted(set(self.shuffles), key=order)


def _stack_class(program, expr):
    t = program.types.get(id(expr)) if expr is not None else None
    if isinstance(t, ClassType) and any(c.kind == "stack" for c in t.info.ancestors()):
        return t.info
    return None


def _ends_shuffled(program, info) -> ast.Call | None:
    """The `shuffle();` the deck class's `default` block (its own or its nearest base's) ends with, where it
    does: the deck is made in a shuffled order, whatever setup pops from it."""
    for c in info.ancestors():
        default = ast.tag_of(c.defn.members, ast.Default) if c.defn is not None else None
        if default is None:
            continue
        body = default.body.body
        last = body[-1] if body else None
        call = last.expr if isinstance(last, ast.ExprStmt) else None
        if not isinstance(call, ast.Call):
            return None
        ct = program.types.get(id(call.callee))
        return call if isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name == "shuffle" else None
    return None


def _pushed_in_setup(program, info) -> tuple[Span, str] | None:
    """Where setup changes the order of a deck of class `info` after its `default` block shuffled it (a push(),
    push_front() or discard onto it: the item would be the next a pop() takes, not a dealt one), with why."""
    code = [i for m in program.modules for i in m.items if isinstance(i, ast.SetupDef)]
    own = {id(x) for c in info.ancestors() if c.defn is not None for x in ast.walk(c.defn)}
    for n in reachable(program, code):
        if not isinstance(n, ast.Call) or not isinstance(n.callee, ast.Member) or id(n) in own:
            continue
        ct = program.types.get(id(n.callee))
        if not (isinstance(ct, CallableType) and ct.kind == "builtin") or ct.name not in ("push", "push_front",
                                                                                          "discard"):
            continue
        target = _stack_class(program, n.args[0].value if ct.name == "discard" and n.args else n.callee.obj)
        if target is not None and (target.derives_from(info) or info.derives_from(target)):
            return n.span, (f"{ct.name}() onto a {info.name} in setup puts an item where a pop() takes it next: "
                            f"random deals a {info.name} shuffled after setup only while setup leaves it in the "
                            "order its default block's shuffle() made")
    return None


def _taken_in_setup(program, info, keeps: frozenset[str] = frozenset()) -> Span | None:
    """Where setup takes from or reads a deck of class `info` (its code, the functions it calls, the `default`
    blocks of what it makes, but the deck's own): a pop(), peek(), pop_front(), an index; with `keeps`, not by
    those methods. What setup takes is the seed's shuffle's (the header's `Chance:` line), so the deck's
    `default` shuffle stays a chance site, unless setup's pops are random's first moves (`setup_deal_calls`)."""
    code = [i for m in program.modules for i in m.items if isinstance(i, ast.SetupDef)]
    code += _entered_in_setup(program, code)
    own = {id(x) for c in info.ancestors() if c.defn is not None for x in ast.walk(c.defn)}
    for n in reachable(program, code):
        if id(n) in own:
            continue
        if isinstance(n, ast.Call) and isinstance(n.callee, ast.Member):
            ct = program.types.get(id(n.callee))
            if not (isinstance(ct, CallableType) and ct.kind == "builtin") or ct.name in SETUP_KEEPS_ORDER | keeps:
                continue
            on = n.callee.obj
        elif isinstance(n, ast.Index):
            on = n.obj
        else:
            continue
        target = _stack_class(program, on)
        if target is not None and (target.derives_from(info) or info.derives_from(target)):
            return n.span
    return None


def _entered_in_setup(program, code: list) -> list:
    """The phase code setup may run: the phases its `turn.pass(p, "Phase")` enters (and those they pass to, in
    turn), or every phase and `default` block of the game where a pass names no phase as a literal (the turn's
    `default` picks it). A deal there is setup's, the seed's (decision 106)."""
    phases = {p.name: p for t in program.turns.values() for p in t.defn.phases}
    everything = [t.defn for t in program.turns.values()]
    todo, seen, out = list(code), set(), []
    while todo:
        for n in reachable(program, [todo.pop()]):
            if not (isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and n.callee.name == "pass"
                    and isinstance(n.callee.obj, ast.Name) and n.callee.obj.name == "turn"):
                continue
            named = n.args[1].value if len(n.args) == 2 else None
            if not isinstance(named, ast.StringLit) or named.value not in phases:
                return everything
            if named.value not in seen:
                seen.add(named.value)
                out.append(phases[named.value])
                todo.append(phases[named.value])
    return out


SETUP_DEALS = frozenset({"pop", "reshuffle"})
"""What setup may do with a dealt deck besides what keeps its order, where its pops are random's first moves
(decision 112): a pop() deals, a reshuffle in setup (of an empty pile) takes back what was discarded."""
SETUP_KEEPS_ORDER = frozenset({"push", "push_front", "discard", "shuffle", "length"})
"""What setup may do with a deck whose play only draws from it without taking what the seed's shuffle put on top
(`_taken_in_setup`; pushes are judged by `_pushed_in_setup`)."""


def _related(a, b) -> bool:
    return a.derives_from(b) or b.derives_from(a)


def _why_not_dealt(program, info, calls: list, first: ast.Call) -> tuple[Span, str] | None:
    """Why random may not deal a deck of class `info` at each pop() (located), `first` the call after setup that
    makes it a candidate; None where it may: made shuffled, never pushed to but in its `default` block, and
    after setup only popped, shuffled and measured (decision 100)."""
    name = info.name
    if _ends_shuffled(program, info) is None:
        return (first.span, f"{first.callee.name}() of a {name} after setup is lowered as random's deal at each "
                            f"pop() only for a deck made shuffled (its default block ending with shuffle()): "
                            "a deck in the order it was filled gives its top item first")
    for n, m in calls:
        on = n.args[0].value if m == "discard" and n.args else n.callee.obj
        target = _stack_class(program, on)
        if target is None or not _related(target, info):
            continue
        if m == "reshuffle":
            why = _why_not_refilled(program, info, calls, n)
            if why is not None:
                return why
            continue
        if m not in DEAL_METHODS:
            return (n.span, f"{m}() on a {name}, a deck shuffled after setup, is not lowerable: random deals "
                            "its items at each pop(), which is sound only while nothing else reads or "
                            "changes its order (pop(), shuffle() and length are lowered)")
    why = _pushed_in_setup(program, info)
    if why is None and info.find_attribute(DEALT_ITEMS) is not None:
        why = (first.span, f"a deck with an attribute named '{DEALT_ITEMS}' is not dealt by the lowering")
    return why


REFILL = "reshuffle() of the discards"
"""How a refusal of a reshuffle random could deal from begins (`_why_not_refilled`): its own reason is said at the
reshuffle, where any other shuffle's is `shuffle_refusal` (tgpl.lowering.subset)."""
PILE = "discard_stack"
"""A deck's discard pile: discard() puts an item there, reshuffle() takes every item there back into the deck."""


def _why_not_refilled(program, info, calls: list, reshuffle: ast.Call) -> tuple[Span, str] | None:
    """Why random may not deal a deck of class `info` whose discards `reshuffle` takes back (decision 105), located;
    None where it may: the game makes one such deck (`_made_once`: one pile), and every discard() after setup puts
    its item on that deck's pile (`deck.discard_stack`). An item is then on the pile exactly while its `discarded`
    is true, so a reshuffle makes the discarded items left again, and the lowering needs no list for the pile."""
    name = info.name
    if not _made_once(program, info):
        return (reshuffle.span, f"{REFILL} of a {name} is lowered only where the game makes one {name}, by a "
                                "statement of setup's own block: random deals its discards back from one pile")
    if _taken_in_setup(program, info, SETUP_DEALS) is not None:
        return (reshuffle.span, f"{REFILL} of a {name} that setup reads otherwise than by pop() is not lowerable: "
                                "random's deals name the items the deck holds before setup deals, and an item "
                                "setup took may be discarded and come back")
    for n, m in calls:
        if m != "discard":
            continue
        pile = n.args[0].value if len(n.args) == 1 else None
        deck = pile.obj if isinstance(pile, ast.Member) and pile.name == PILE else None
        target = _stack_class(program, deck)
        if target is None or not _related(target, info):
            return (n.span, f"discard() into a pile other than the {name}'s {PILE}, in a game that reshuffles a "
                            f"{name}, is not lowerable: the discards a reshuffle takes back are the items "
                            "discarded, so every discard() after setup must go to that deck's pile")
    return None


def _made_once(program, info) -> bool:
    """Whether the game makes one deck of class `info` (or of a class related to it): a single `new` of them in
    the whole program, a statement of setup's own block (no loop, condition or function around it). Random
    deals from one deck of a class (`Lowering._deal_decks` refuses a class of several): a deck made otherwise
    stays the seed's rather than be refused."""
    made = [n for m in program.modules for item in m.items for n in ast.walk(item) if isinstance(n, ast.New)
            and isinstance(t := program.types.get(id(n)), ClassType) and _related(t.info, info)]
    if len(made) != 1:
        return False
    for setup in (i for m in program.modules for i in m.items if isinstance(i, ast.SetupDef)):
        for stmt in setup.body.body:
            value = stmt.init if isinstance(stmt, ast.VarDecl) else \
                stmt.expr.value if isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.Assign) else None
            if value is made[0]:
                return True
    return False


DEALT_IN_PLAY_ITEMS = 16
"""The most items a deck made shuffled and drawn in play may hold to be dealt by random (decision 102): the state
then holds which items are left (`left_cell`), up to 2^n sets of them, and the hands they went to.
examples/cards.tgpl's ten cards, dealt, take 15 s of CPU to lower (0.6 s as the seed's order); a larger deck
keeps the seed's order, labelled in the header's `Chance:` line."""


def _items_made(program, info) -> int | None:
    """How many items the deck class's `default` block pushes, where its pushes are statements of the block or of
    counted loops with literal bounds (`for (v = 1; v <= 10; v += 1) { ... push(c); }`); None otherwise."""
    for c in info.ancestors():
        default = ast.tag_of(c.defn.members, ast.Default) if c.defn is not None else None
        if default is not None:
            return _pushes(program, default.body.body)
    return None


def _pushes(program, stmts: list) -> int | None:
    total = 0
    for s in stmts:
        if isinstance(s, ast.For):
            passes = counted_passes(s)
            inner = _pushes(program, s.body.body)
            if inner is None or (inner and passes is None):
                return None
            total += inner * (passes or 0)
            continue
        calls = [n for n in ast.walk([s]) if isinstance(n, ast.Call)
                 and isinstance(ct := program.types.get(id(n.callee)), CallableType) and ct.kind == "builtin"
                 and ct.name in ("push", "push_front")]
        if calls and not (isinstance(s, ast.ExprStmt) and s.expr is calls[0] and len(calls) == 1):
            return None  # a push inside a condition or another loop: not counted
        total += len(calls)
    return total


def _drawn_in_play(program, calls: list, dealt: dict) -> dict:
    """The deck classes made shuffled that code after setup pops but never shuffles (decision 102): dealt by
    random as a deck shuffled after setup is (`_why_not_dealt`), where setup takes nothing from them
    (`_taken_in_setup`) and each of their pop() calls is the one chance of the move of an action a player
    chooses. Such a deck's order is the seed's shuffle, of which a play sees only the items pop() takes: random's
    deal is the same game for every seed, where the seed's order would be one outcome of it. Any other such
    deck stays the seed's (the header's `Chance:` line): it is never refused for this, nor where the game may
    make several such decks (`_made_once`), nor where its `default` makes more than DEALT_IN_PLAY_ITEMS items
    or a number not counted (`_items_made`)."""
    found: dict = {}
    for n, m in calls:
        info = _stack_class(program, n.callee.obj) if m == "pop" else None
        if info is None or any(_related(info, d) for d in dealt.values()) or info.name in found:
            continue
        made = _items_made(program, info)
        if (_why_not_dealt(program, info, calls, n) is None and _taken_in_setup(program, info) is None
                and _made_once(program, info) and made is not None and made <= DEALT_IN_PLAY_ITEMS):
            found[info.name] = info
    if not found:
        return found
    # a pop() anywhere but in an action's effect (a phase, a turn's default, a require, or a function they call)
    elsewhere = [a for info in program.classes for act in info.actions.values()
                 for a in act.items if not isinstance(a, ast.Effect)]
    elsewhere = {id(n) for n in reachable(program, elsewhere + [t.defn for t in program.turns.values()])}
    while found:
        classes = {c.name for c in program.classes
                   if any(_related(c, d) for d in (*dealt.values(), *found.values()))}
        pops = {id(n): info for n, m in calls if m == "pop" and (info := _stack_class(program, n.callee.obj))
                is not None and info.name in classes}
        bad = [pops[i] for i in pops if i in elsewhere]
        reached: set[int] = set()
        for info in program.classes:
            for action in info.actions.values():
                if action.effect is None:
                    continue
                rolls = list(_rolls_reached(program, action.effect.body, pops=frozenset(pops)))
                deals = [pops[id(c)] for c, _ in rolls if id(c) in pops]
                reached |= {id(c) for c, _ in rolls}
                if deals and (_refused_dice(rolls, frozenset(pops)) is not None
                              or not any(t.event == "PlayerChoiceEvent" for t in action.triggers)):
                    bad += deals
        bad += [info for i, info in pops.items() if i not in reached]
        drop = {k for k, d in found.items() if any(_related(d, b) for b in bad)}
        if not drop:
            break
        found = {k: d for k, d in found.items() if k not in drop}
    return found


def dealt_decks(program) -> tuple[Dealt, list[tuple[Span, str]]]:
    """The deck classes the lowering deals from (random's move at each pop(), one for each item left), and the
    calls that keep a deck shuffled after setup from being dealt, each (span, reason). A deck shuffled after
    setup (the static type of the receiver of a shuffle() after setup) is dealt when `_why_not_dealt` finds
    nothing, and refused otherwise: then what a play observes of its order is the items pop() takes, each
    uniform among those left (decision 100). A deck made shuffled that play pops without shuffling is dealt too
    where it qualifies (`_drawn_in_play`, decision 102), and left the seed's where not."""
    types = program.types
    calls = []
    for n in after_setup_nodes(program):
        if isinstance(n, ast.Call) and isinstance(n.callee, ast.Member):
            ct = types.get(id(n.callee))
            if isinstance(ct, CallableType) and ct.kind == "builtin":
                calls.append((n, ct.name))
    shuffled = {}
    for n, name in calls:
        info = _stack_class(program, n.callee.obj)
        if name in ("shuffle", "reshuffle") and info is not None:
            shuffled.setdefault(info.name, (info, n))
    refused: list[tuple[Span, str]] = []
    dealt: dict[str, object] = {}
    for name, (info, first) in shuffled.items():
        why = _why_not_dealt(program, info, calls, first)
        if why is not None:
            refused.append(why)
        else:
            dealt[name] = info
    dealt.update(_drawn_in_play(program, calls, dealt))
    classes = {c.name for c in program.classes if any(c.derives_from(d) for d in dealt.values())}
    pops = {id(n) for n, m in calls if m == "pop" and (i := _stack_class(program, n.callee.obj)) is not None
            and i.name in classes}
    shuffles = [n.span for n, m in calls if m == "shuffle" and (i := _stack_class(program, n.callee.obj)) is not None
                and i.name in classes]
    # a deck setup takes from keeps its default's shuffle a chance site: what setup took is the seed's
    shuffles += [_ends_shuffled(program, info).span for info in dealt.values()
                 if _taken_in_setup(program, info) is None]
    reshuffled = [i for n, m in calls if m == "reshuffle" and (i := _stack_class(program, n.callee.obj)) is not None]
    refills = {c.name for c in program.classes if c.name in classes and any(_related(c, i) for i in reshuffled)}
    at = sorted({n.span for n, m in calls if m == "reshuffle" and (i := _stack_class(program, n.callee.obj)) is not None
                 and i.name in refills}, key=lambda sp: (sp.file, sp.line, sp.col))
    return Dealt(frozenset(classes), frozenset(pops), tuple(shuffles), frozenset(refills), tuple(at)), refused


def setup_deal_calls(program) -> list[ast.Call]:
    """The pop() calls of a deck random deals from after setup (`dealt_decks`: shuffled after setup) that setup
    runs (its code, the functions it calls, the phases it enters), where setup does nothing else with such a deck
    than pop(), reshuffle() and what keeps its order (`_taken_in_setup`): random deals them as its first moves,
    one a pop() (decision 112; tgpl.setup_deals finds where each deal's item goes), in source order. Empty where
    there are none, or setup reads such a deck otherwise (then what it takes is the seed's)."""
    calls = []
    for n in after_setup_nodes(program):
        if isinstance(n, ast.Call) and isinstance(n.callee, ast.Member):
            ct = program.types.get(id(n.callee))
            if isinstance(ct, CallableType) and ct.kind == "builtin":
                calls.append((n, ct.name))
    shuffled = {info.name: info for n, m in calls if m in ("shuffle", "reshuffle")
                and (info := _stack_class(program, n.callee.obj)) is not None}
    dealt = [info for info in shuffled.values() if _why_not_dealt(program, info, calls, calls[0][0]) is None]
    if not dealt or any(_taken_in_setup(program, info, SETUP_DEALS) is not None for info in dealt):
        return []
    code = [i for m in program.modules for i in m.items if isinstance(i, ast.SetupDef)]
    code += _entered_in_setup(program, code)
    found = {id(n): n for n in reachable(program, code) if isinstance(n, ast.Call) and isinstance(n.callee, ast.Member)
             and n.callee.name == "pop" and (t := _stack_class(program, n.callee.obj)) is not None
             and any(_related(t, d) for d in dealt)}
    return sorted(found.values(), key=lambda n: (n.span.file, n.span.line, n.span.col))


def setup_deal_refusal(program, universe) -> list[tuple[Span, str]]:
    """The reshuffle refused, located, where setup pops a deck whose discards a reshuffle takes back and its deals
    stay the seed's (`universe.deals` empty: tgpl.setup_deals found no place each deal's item goes whichever it
    is): an item setup dealt would not be named by random's deals, and may be discarded and come back. Reported
    with the constructs the lowering never translates (`subset.outside_subset`), before any code runs."""
    if universe.deals or not setup_deal_calls(program):
        return []
    dealt = dealt_decks(program)[0]
    if not dealt.refills:
        return []
    name = sorted(dealt.refills)[0]
    return [(dealt.reshuffles[0], f"{REFILL} of a {name} that setup deals from is not lowerable here: random deals "
                                  "setup's pops only where each deal's item goes to the same place whichever item it "
                                  "is (decision 112), and an item setup dealt may be discarded and come back")]


def phase_deals(program, pops: frozenset) -> list[tuple[ast.Call, bool]]:
    """The deals (pop() of a dealt deck, id() in `pops`) that entering a phase runs, in a turn's phases and its
    `default` block and the functions they call, each (call, whether a loop may run it more than once), as
    `_rolls_reached` gives them (decision 106). The move that enters the phase is the move whose chance they are:
    random deals after it, as after an action's own deal."""
    found = []
    for turn in program.turns.values():
        found += [(c, looped) for c, looped in _rolls_reached(program, turn.defn, pops=pops) if id(c) in pops]
    return found


def action_rolls(program) -> tuple[dict[int, Throw], list[tuple[object, str]]]:
    """The actions whose effect throws dice the lowering turns into random's move (id(action) -> Throw), and the
    rolls in actions' effects it refuses, each (span, reason).

    The dice may be thrown anywhere in the effect, in the functions it calls too: random throws them after the
    moves whose way through the effect reaches one, as the runtime draws (tgpl.lowering.segments probes the
    effect for those ways)."""
    rolls: dict[int, Throw] = {}
    refused: list[tuple[object, str]] = []
    dealt = dealt_decks(program)[0]
    entering = phase_deals(program, dealt.pops)  # a move that passes the turn may enter a phase that deals
    for info in program.classes:
        for action in info.actions.values():
            if action.effect is None:
                continue
            found = list(_rolls_reached(program, action.effect.body, pops=dealt.pops))
            passes = entering and any(t.event == "PlayerChoiceEvent" for t in action.triggers)
            if passes:
                found += entering
            if not found:
                continue
            why = _refused_dice(found, dealt.pops)
            if why is not None:
                refused.append(why)
                continue
            if not any(t.event == "PlayerChoiceEvent" for t in action.triggers):
                refused.append((found[0][0].span, "roll() is lowered only in actions a player chooses"))
                continue
            rolls[id(action)] = Throw(tuple(
                Roll(call, 0, _stack_class(program, call.callee.obj).name) if id(call) in dealt.pops
                else Roll(call, roll_sides(call)) for call, _ in found), bool(passes))
    return rolls, refused + phase_rolls(program)[1]


PHASE_THROW = "throw"
"""The last part of random's control state where it throws the dice of a phase the flow entered (`phase_rolls`):
`(player, turn, phase, PHASE_THROW)`, the player the phase's turn is at."""


def phase_rolls(program) -> tuple[dict[tuple[str, str], Throw], list[tuple[Span, str]]]:
    """The phases whose code throws dice (turn name, phase name) -> Throw, and the dice in phases (and in turns'
    `default` blocks) refused, each (span, reason) (decision 117). Entering such a phase hands control to random
    (`PHASE_THROW`): its move gives the faces of all the phase's dice, in the order the runtime draws them, and the
    phase's code then runs with them, as an action's effect runs after random's move. The phase's every way must
    throw all its dice (`Lowering._phase_thrown` refuses the rest), so GDL-II's random, which always moves, draws
    where the runtime does. A phase entered again in the same move (a throw of 0 passing to the next player's
    throw) is random's move again: each entry its own step."""
    from tgpl.lowering.percepts import has_secrets  # both import this module
    from tgpl.lowering.subset import phase_inputs
    found: dict[tuple[str, str], Throw] = {}
    refused: list[tuple[Span, str]] = []
    if not phase_roll_calls(program):  # the common case, without looking for the dealt decks
        return found, refused
    dealt = dealt_decks(program)[0]
    for name, turn in program.turns.items():
        default = ast.tag_of(turn.defn.items, ast.Default)
        for call, _ in (_rolls_reached(program, default) if default is not None else []):
            if is_roll(program, call):
                refused.append((call.span, "roll() in a turn's default block is not lowerable: random throws the "
                                           "dice of a phase as the flow enters it (throw them in a phase's code "
                                           "instead)"))
        for phase in turn.defn.phases:
            rolls = [(c, looped) for c, looped in _rolls_reached(program, ast.phase_body(phase), pops=dealt.pops)]
            dice = [(c, looped) for c, looped in rolls if is_roll(program, c)]
            if not dice:
                continue
            if len(dice) < len(rolls):
                refused.append((dice[0][0].span, f"roll() in phase {phase.name}, which also deals from a shuffled "
                                                 f"deck, is not lowerable: random's move as the flow enters a phase "
                                                 f"gives the faces of its dice only ({DEAL_IN_SETUP})"))
                continue
            if phase_inputs(phase):
                refused.append((dice[0][0].span, f"roll() in phase {phase.name}, which asks an input, is not "
                                                 "lowerable: the input is a move of its own and the dice random's "
                                                 "move as the flow enters the phase, two steps the lowering does not "
                                                 "combine in one phase (throw the dice in a phase of their own and "
                                                 "make the choice an action of the phase it passes to)"))
                continue
            if has_secrets(program):
                refused.append((dice[0][0].span, "roll() in a phase is lowered only in a game without private "
                                                 "attributes (throw the dice in an action's effect: random's move "
                                                 "after the player's)"))
                continue
            if dealt.classes:
                refused.append((dice[0][0].span, "roll() in a phase is lowered only in a game whose play deals "
                                                 f"from no shuffled deck (random's deal at each pop()) "
                                                 f"({DEAL_IN_SETUP})"))
                continue
            why = _refused_dice(dice, phase=phase.name)
            if why is not None:
                refused.append(why)
                continue
            found[(name, phase.name)] = Throw(tuple(Roll(c, roll_sides(c)) for c, _ in dice))
    return found, refused


DEAL_IN_SETUP = "deal from the deck in setup only, where its order is the seed's: a phase's dice then lower"
"""The rewrite that lets a phase's dice lower in a game that deals in play (decision 117)."""


def setup_phase_throws(program) -> list[str]:
    """The phases whose dice random throws (`phase_rolls`) that setup may enter: by `turn.pass` (`_entered_in_setup`)
    or as the phase a `turn.use` in setup starts its turn in. The runtime runs them in setup, drawing on the seed, so
    the lowering starts from that throw, the seed's (decision 117)."""
    throws = phase_rolls(program)[0]
    if not throws:
        return []
    code = [i for m in program.modules for i in m.items if isinstance(i, ast.SetupDef)]
    entered = {id(x) for x in _entered_in_setup(program, code)}
    for n in reachable(program, code):
        if (isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and n.callee.name == "use"
                and isinstance(n.callee.obj, ast.Name) and n.callee.obj.name == "turn" and n.args
                and isinstance(n.args[0].value, ast.StringLit) and n.args[0].value.value in program.turns):
            turn = program.turns[n.args[0].value.value].defn
            named = n.args[1].value if len(n.args) == 2 else None
            first = ast.phase_named(turn, named.value) if isinstance(named, ast.StringLit) else \
                (turn.phases[0] if turn.phases else None)
            entered.add(id(first) if first is not None else id(turn))
    out = []
    for turn, phase in throws:
        t = program.turns[turn].defn
        if id(t) in entered or id(ast.phase_named(t, phase)) in entered:
            out.append(phase)
    return out


def phase_roll_calls(program) -> set[int]:
    """id() of every roll() call a phase's code or a turn's `default` block runs (lowered or refused by
    `phase_rolls`)."""
    return {id(n) for turn in program.turns.values() for n, _ in _rolls_reached(program, turn.defn)
            if is_roll(program, n)}


def _refused_dice(found: list[tuple[ast.Call, bool]], pops: frozenset = frozenset(),
                  phase: str | None = None) -> tuple[Span, str] | None:
    """Why the dice `found` (from `_rolls_reached`) of an action (or of `phase`'s code) are not lowerable,
    located; None where they are."""
    deals = [call for call, _ in found if id(call) in pops]
    if deals and len(found) > 1:
        return found[1][0].span, "a deal from a shuffled deck is lowered as the one chance of its move: random " \
                                 "deals one item at a time, and this move also draws here"
    if deals:
        return (deals[0].span, "pop() of a shuffled deck in a loop (or a function calling itself) is not "
                               "lowerable: random deals one item a move") if found[0][1] else None
    outcomes = 1
    for call, looped in found:
        if looped:
            return call.span, "roll() in a loop (or a function calling itself) is not lowerable: random's move " \
                              "gives the faces of a fixed number of dice (a loop `for (number i = 0; i < 3; i += 1)` " \
                              "throws its dice 3 times)"
        sides = roll_sides(call)
        if sides is None:
            return call.span, "roll() is lowered only with a whole number of sides written as a literal " \
                              "(`roll(6)`): random's moves are fixed"
        outcomes *= sides
        if outcomes > THROW_OUTCOMES:
            if phase is not None:  # a phase may pass to another that throws: random's move again (decision 117)
                return call.span, (f"phase {phase}'s dice fall in {outcomes:,} ways at this roll, more than the "
                                   f"{THROW_OUTCOMES:,} moves random may have as the flow enters the phase (throw "
                                   "fewer dice, or throw some in a phase of their own that this one passes to)")
            return call.span, f"the action's dice fall in {outcomes:,} ways at this roll, more than the " \
                              f"{THROW_OUTCOMES:,} moves random may have after a move (throw fewer dice, or " \
                              "split the action)"
    return None


def effect_roll_calls(program) -> set[int]:
    """id() of every roll() call an action's effect runs, and of every pop() of a dealt deck (`dealt_decks`), in
    the functions it calls too (lowered or refused by `action_rolls`)."""
    pops = dealt_decks(program)[0].pops
    return {id(n) for info in program.classes for a in info.actions.values() if a.effect is not None
            for n, _ in _rolls_reached(program, a.effect.body, pops=pops)} | {id(n) for n, _ in phase_deals(program, pops)} \
        | phase_roll_calls(program)


def setup_roll_calls(program) -> list[ast.Call]:
    """The roll() calls that run in setup (in its code, the functions it calls, the `default` blocks of what it
    makes) and never after it, in source order."""
    during = {id(n) for n in after_setup_nodes(program)}
    code = [i for m in program.modules for i in m.items if isinstance(i, ast.SetupDef)]
    found = {id(n): n for n in reachable(program, code) if is_roll(program, n) and id(n) not in during}
    return sorted(found.values(), key=lambda n: (n.span.file, n.span.line, n.span.col))


class SetupRefused(Exception):
    """Setup's dice fall in ways random's first move cannot tell apart (the lowering raises it as NotLowerable)."""

    def __init__(self, span: Span, reason: str):
        super().__init__(reason)
        self.span = span
        self.reason = reason


def setup_throw(snapshots: list[dict], bounds: list[tuple[int, ...]], span: Span) -> dict:
    """The snapshot the lowering starts from when setup throws dice: random's first move `(roll k)` picks the
    k-th way they fall (`snapshots[k - 1]`, made with the draws of bounds `bounds[k - 1]`). GDL-II's random picks
    uniformly, so every way must have the same probability: the same draws, of the same bounds. The ways may
    differ only in plain attribute values (no object made, owned, placed or listed otherwise), the cells that
    differ set by random's move; the snapshot is the first way's, with `throws`: for each way, those cells'
    values ((object name, attribute) -> value, as the snapshot writes values). Raises SetupRefused."""
    if len(set(bounds)) > 1:
        raise SetupRefused(span, "setup's dice are not lowerable: they draw differently from one way to another "
                                 "(a roll() or shuffle under a condition), and GDL-II's random picks each way "
                                 "with the same chance")
    if len(snapshots) > SETUP_OUTCOMES:
        raise SetupRefused(span, f"setup's dice fall in {len(snapshots)} ways, more than the {SETUP_OUTCOMES} "
                                 "random's first move may have (a shuffle in setup besides the dice?)")
    first = snapshots[0]
    shape = _shape(first)
    cells: dict[tuple[str, str], None] = {}
    for snap in snapshots[1:]:
        if _shape(snap) != shape:
            raise SetupRefused(span, "setup's dice are lowered when every way they fall makes the same objects, "
                                     "owned, placed and listed alike, with the same player to move: these "
                                     "change more than attribute values")
        for o, p in zip(first["objects"], snap["objects"]):
            for name, v in p["fields"].items():
                if v != o["fields"][name]:
                    if isinstance(v, tuple) and v and v[0] in ("list", "table"):
                        raise SetupRefused(span, f"setup's dice change the list {o['name']}.{name}: only plain "
                                                 "attribute values set by dice are lowerable")
                    cells[(o["name"], name)] = None
    throws = [{cell: _field(snap, cell) for cell in cells} for snap in snapshots]
    return {**first, "throws": throws}


def _shape(snap: dict) -> tuple:
    """What of a snapshot the ways setup's dice fall may not change: all but the attributes' values."""
    return (tuple(snap["control"]), snap["result"] and tuple(map(tuple, snap["result"])),
            tuple((o["name"], o["class"].name, tuple(o["owners"]), tuple(o["fields"]),
                   None if o["items"] is None else tuple(o["items"]),
                   None if o["cells"] is None else tuple(map(tuple, o["cells"])),
                   tuple(tuple(c) for c in o["connections"])) for o in snap["objects"]))


def _field(snap: dict, cell: tuple[str, str]):
    obj, name = cell
    return next(o["fields"][name] for o in snap["objects"] if o["name"] == obj)


__all__ = ["DEALT_ITEMS", "DID", "Dealt", "PHASE_THROW", "PILE", "REFILL", "RANDOM", "ROLL", "SETUP", "THROW_OUTCOMES", "Roll", "SetupRefused", "Throw", "action_rolls", "dealt_decks",
           "effect_roll_calls", "left_cell", "phase_roll_calls", "phase_rolls", "roll_name", "roll_sides", "setup_deal_calls", "setup_deal_control", "setup_deal_refusal", "setup_deal_step", "setup_phase_throws", "setup_roll_calls", "setup_throw", "shuffle_refusal"]
