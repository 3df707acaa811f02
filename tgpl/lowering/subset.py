"""Constructs outside the lowering's subset, found before any code runs, all at once.

The symbolic execution (tgpl.lowering.execute) refuses what it cannot translate
when it meets it, so a game with several such constructs was refused one at a
time, each after the execution had run up to it: chess ran for minutes before
its first refusal. Built-ins the lowering never translates (`shuffle`,
objects created with `new` that no pool of constants can stand for, list changes, ...) do not depend
on the state, so they are found here by reading the code that can run after
setup (actions, turns, and the functions they call), every one with its
location, before anything runs.

The scan is conservative in one way only: a refused construct in a branch that
no state ever takes is refused too (decision recorded in docs/lowering.md).

`discard(pile)` lowers as writes of the piece's `tile` and `discarded`; the
pile's contents are not a fluent. That is exact only when no code after setup
reads the pile, so the pile must be a list attribute or a stack object (whose
items the executor refuses to read), and every read of a list attribute that a
piece is discarded into (by its name, or by its type: another attribute could
hold the same list) is refused here, at the read.
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.after_setup import CHANCE, after_setup_nodes
from tgpl.lowering.chance import REFILL, action_rolls, dealt_decks, effect_roll_calls, shuffle_refusal
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.types import BOOL, NUMBER, PLAYER, STRING, CallableType, ClassType, Collection
from tgpl.lowering.set_scans import set_scan

# what execute.Executor translates: methods of lists and tables, and the namespaces' calls
METHODS = {"contains", "indexOf", "add", "keys", "values", "length", "move_to", "discard", "assign", "pop", "peek"}
# refused on lists, but on lists that are state (STATE_CHANGES) or nothing reads (add: on locals too)
LIST_CHANGES = {"remove", "removeAt", "append", "clear", "pop", "push", "draw"}
NAMESPACE_CALLS = {"player.active", "player.all", "turn.active", "turn.phase.active", "log", "turn.pass",
                   "event.throw"}  # event.throw_sync: not yet (its listeners, run mid-block, can give cyclic rules)


# changes of a list that neither read it nor give anything back: dropped when nothing after setup reads the list
UNREAD_CHANGES = {"add", "append", "remove", "removeAt", "clear", "push", "push_front"}


def unread_lists(program) -> frozenset[str]:
    """List attributes (by name) that code after setup changes but never reads: only as the receiver of a
    change (`Cards.add(c);`, a statement of its own). Their contents cannot affect the game after setup,
    so they are not fluents and their changes are dropped (as a discard pile's, decision recorded in
    docs/lowering.md). A read of any attribute of the same list type counts for all of them, since it
    could hold the same list."""
    types = program.types
    nodes = list(after_setup_nodes(program))
    changed: dict[str, str] = {}  # attribute name -> its list type
    receivers: set[int] = set()
    for n in nodes:
        if not (isinstance(n, ast.ExprStmt) and isinstance(n.expr, ast.Call) and isinstance(n.expr.callee, ast.Member)):
            continue
        ct = types.get(id(n.expr.callee))
        obj = n.expr.callee.obj
        t = types.get(id(obj))
        if (isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name in UNREAD_CHANGES
                and isinstance(t, Collection) and is_attribute(program, obj)):
            changed[obj.name] = str(t)
            receivers.add(id(obj))
    read_names: set[str] = set()
    read_types: set[str] = set()
    for n in nodes:
        if id(n) in receivers or not is_attribute(program, n):
            continue
        t = types.get(id(n))
        if isinstance(t, Collection):
            read_names.add(n.name)
            read_types.add(str(t))
    return frozenset(name for name, t in changed.items() if name not in read_names and t not in read_types)


# what the lowering translates on a list that is state (tgpl.lowering.execute, `Executor.list_method`)
STATE_CHANGES = {"add", "remove", "removeAt", "append", "clear"}
VALUE_ITEMS = (NUMBER, BOOL, STRING, PLAYER)  # the items of a list that is state: objects, or one of these


def state_lists(program) -> frozenset[str]:
    """List attributes (by name) that code after setup both changes (`STATE_CHANGES`, as statements, or an item
    by index) and reads, whose items are objects or values (`VALUE_ITEMS`): their length and items are fluents
    (tgpl.lowering.segments). Discard piles are not among them (their reads are refused), nor lists
    nothing reads (`unread_lists`)."""
    types = program.types
    unread = unread_lists(program)
    changed: set[str] = set()
    piles: set[str] = set()
    for n in after_setup_nodes(program):
        if isinstance(n, ast.Assign) and isinstance(n.target, ast.Index):  # `Taken[who] += 1`: an item changed
            obj = n.target.obj
            t = types.get(id(obj))
            if (isinstance(t, Collection) and t.kind == "List" and (isinstance(t.elem, ClassType)
                                                                     or t.elem in VALUE_ITEMS)
                    and is_attribute(program, obj)):
                changed.add(obj.name)
            continue
        if not (isinstance(n, ast.Call) and isinstance(n.callee, ast.Member)):
            continue
        ct = types.get(id(n.callee))
        if not (isinstance(ct, CallableType) and ct.kind == "builtin"):
            continue
        obj = n.callee.obj
        t = types.get(id(obj))
        if ct.name == "discard" and n.args:
            piles.add(getattr(n.args[0].value, "name", None))
        elif (ct.name in STATE_CHANGES and isinstance(t, Collection) and t.kind == "List"
              and (isinstance(t.elem, ClassType) or t.elem in VALUE_ITEMS) and is_attribute(program, obj)):
            changed.add(obj.name)
    return frozenset(changed - unread - piles)


# what a list kept as a set may meet after setup: method -> whether it must be a statement of its own
SET_USES = {"contains": False, "add": True, "remove": True}


def set_lists(program) -> frozenset[str]:
    """List attributes that are state (`state_lists`) whose order nothing after setup can observe: lists of
    objects that code after setup meets only as the receiver of `contains(x)`, `add(x);` and `remove(x);`
    (`SET_USES`) and of scans that stop at the first match (`set_scans.set_scan`), as does every other attribute
    of the same list type (which could hold the same list). No other index, length, loop, copy or argument reads
    them, and `remove` takes out the first equal item, so while
    no item is held twice such a list is the set of its items, one bool per object that can be in it
    (tgpl.lowering.segments). Holding an item twice is ruled out where the lowering meets it: setup's items
    (`Lowering._find_fluents`) and each `add` (`execute.Executor.set_method`); the list is then kept in
    order after all."""
    types = program.types
    nodes = list(after_setup_nodes(program))
    allowed: set[int] = set()  # ids of the receivers of SET_USES, and of the lists scans read
    for n in nodes:
        if isinstance(n, ast.For) and (scan := set_scan(n, types)) is not None:
            allowed.update(id(e) for e in scan.reads)
        call, statement = (n.expr, True) if isinstance(n, ast.ExprStmt) else (n, False)
        if not (isinstance(call, ast.Call) and isinstance(call.callee, ast.Member)):
            continue
        ct = types.get(id(call.callee))
        if (isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name in SET_USES
                and (statement or not SET_USES[ct.name])):
            allowed.add(id(call.callee.obj))
    kinds: dict[str, str] = {}  # attribute name -> its list type
    observed: set[str] = set()  # list types read otherwise
    for n in nodes:
        t = types.get(id(n))
        if not (isinstance(t, Collection) and is_attribute(program, n)):
            continue
        if kinds.setdefault(n.name, str(t)) != str(t):  # one name, two types: both read otherwise
            observed.update((kinds[n.name], str(t)))
        if id(n) not in allowed or not (t.kind == "List" and isinstance(t.elem, ClassType)):
            observed.add(str(t))
    return frozenset(name for name in state_lists(program) if name in kinds and kinds[name] not in observed)


def changed_decks(program) -> list:
    """The deck classes (stacks) whose items code after setup may change other than by pop() taking the top:
    pushed to, shuffled, discarded into, dealt by random (`tgpl.lowering.chance.dealt_decks`: the set of their
    items left is state). Decks of other classes keep the items setup left them, and what pop() takes is
    counted by their length alone."""
    types = program.types
    dealt = dealt_decks(program)[0].classes
    found = [c for c in program.classes if c.name in dealt]
    for n in after_setup_nodes(program):
        if not isinstance(n, ast.Call) or not isinstance(n.callee, ast.Member):
            continue
        ct = types.get(id(n.callee))
        if not (isinstance(ct, CallableType) and ct.kind == "builtin"):
            continue
        if ct.name == "discard":
            receiver = n.args[0].value if n.args else None
        elif ct.name in ("pop", "peek", "length"):
            continue
        else:
            receiver = n.callee.obj
        t = types.get(id(receiver)) if receiver is not None else None
        if isinstance(t, ClassType) and any(c.kind == "stack" for c in t.info.ancestors()):
            found.append(t.info)
    return found


def _dealt(types, receiver, dealt) -> bool:
    t = types.get(id(receiver))
    return isinstance(t, ClassType) and t.info.name in dealt.classes


def _calls(types, span: Span, nodes: list, names) -> bool:
    """Whether a call of one of the built-ins `names` stands at `span`."""
    for n in nodes:
        if isinstance(n, ast.Call) and n.span == span:
            ct = types.get(id(n.callee))
            return isinstance(ct, CallableType) and ct.name in names
    return False


def is_attribute(program, n) -> bool:
    """Whether n names an attribute (`x.Cards`, or `Cards` inside its class)."""
    return isinstance(n, ast.Member) or (isinstance(n, ast.Name) and id(n) in program.implicit_this)


PHASE_INPUTS = ("the inputs of phase '{phase}' are not lowerable yet: only a phase with one input that its "
                "player picks (no target, not optional, not a list) is lowered, as a move of its own "
                "(write the choice as an action of a class the player owns, its filter testing "
                "`turn.phase.active() == \"{phase}\"`)")


def phase_inputs(phase: ast.PhaseDef) -> list[ast.InputDecl]:
    """The inputs a phase asks when it is entered (before its effect runs)."""
    return [i for i in phase.items if isinstance(i, ast.InputDecl)]


def phase_move_input(phase: ast.PhaseDef) -> ast.InputDecl | None:
    """The input of a phase the lowering makes a move of, or None where it has none or its inputs are not
    lowerable. The runtime asks a phase's inputs one by one, each a decision of its own whose text is the
    value picked: one input that the active player picks from its candidates is one move, as an action's.
    Several inputs would be as many decisions in a row, states between moves the lowering has no control for."""
    inputs = phase_inputs(phase)
    if len(inputs) != 1:
        return None
    inp = inputs[0]
    modifier = inp.modifier if not inp.modifier.startswith("?") else "player"
    if modifier != "player" or inp.target is not None or inp.optional or inp.type.args:
        return None
    return inp


def phase_body_after_inputs(phase: ast.PhaseDef) -> ast.Block:
    """What a phase runs once its inputs are given: its effect, or its plain statements but the inputs."""
    effect = ast.tag_of(phase.items, ast.Effect)
    if effect is not None:
        return effect.body
    return ast.Block(phase.span, [i for i in phase.items if isinstance(i, ast.Stmt) and not isinstance(i, ast.InputDecl)])


def outside_subset(program) -> list[tuple[Span, str]]:
    """(location, reason) of every construct the lowering never translates in code that runs after setup."""
    types = program.types
    found: dict[tuple, tuple[Span, str]] = {}
    nodes = list(after_setup_nodes(program))
    unread = unread_lists(program)
    state = state_lists(program)
    piles: set[str] = set()  # list attributes that discard() fills, by name
    pile_types: set[str] = set()  # and their types
    pile_args: set[int] = set()  # the discard() arguments themselves
    _, refused_rolls = action_rolls(program)  # dice lowered as GDL-II's random (tgpl.lowering.chance)
    in_effects = effect_roll_calls(program)  # those action_rolls judged: lowered, or refused with its reason
    for span, why in refused_rolls:
        found.setdefault(_key(span), (span, why))
    dealt, refused_deals = dealt_decks(program)  # decks shuffled after setup that random deals from at pop()
    for span, why in refused_deals:
        if REFILL in why or not _calls(types, span, nodes, CHANCE):  # a shuffle's own site keeps
            # shuffle_refusal's reason, but a reshuffle random would deal from but for this
            found.setdefault(_key(span), (span, why))
    for n in nodes:
        if not isinstance(n, ast.Call):
            continue
        ct = types.get(id(n.callee))
        if not (isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name == "discard"
                and "." not in ct.target.name):
            continue
        pile = n.args[0].value if len(n.args) == 1 else None
        t = types.get(id(pile)) if pile is not None else None
        attribute = is_attribute(program, pile)
        if attribute and isinstance(t, Collection):
            piles.add(pile.name)
            pile_types.add(str(t))
            pile_args.add(id(pile))
        elif not (isinstance(t, ClassType) and any(c.kind == "stack" for c in t.info.ancestors())):
            found.setdefault(_key(n.span), (n.span, "discard() into a pile other than a list attribute or a stack "
                                                    "object is not lowerable"))
    for n in nodes:
        if id(n) in pile_args or not piles:
            continue
        if is_attribute(program, n):
            t = types.get(id(n))
            if n.name in piles:
                found.setdefault(_key(n.span), (n.span, f"'{n.name}' is read after setup, but discard() fills it "
                                                        "after setup: the contents of a discard pile are not "
                                                        "lowerable"))
            elif isinstance(t, Collection) and str(t) in pile_types:
                found.setdefault(_key(n.span), (n.span, f"'{n.name}' is read after setup, and it may hold a pile "
                                                        f"that discard() fills after setup (a {t}): the contents "
                                                        "of a discard pile are not lowerable"))
    for turn in program.turns.values():  # a phase's own inputs: the moves are the actions' (GDL's `does`)
        for phase in (i for i in turn.defn.items if isinstance(i, ast.PhaseDef)):
            inputs = phase_inputs(phase)
            if inputs and phase_move_input(phase) is None:
                found.setdefault(_key(inputs[0].span), (inputs[0].span, PHASE_INPUTS.format(phase=phase.name)))
    for n in nodes:
        if isinstance(n, ast.New) and not _is_event(types.get(id(n)), program):
            why = unpooled(program, n)
            if why is not None:
                found.setdefault(_key(n.span), (n.span, why))
        if not isinstance(n, ast.Call):
            continue
        ct = types.get(id(n.callee))
        if not isinstance(ct, CallableType) or ct.kind == "function":
            continue
        if ct.kind == "action":
            found.setdefault(_key(n.span), (n.span, "actions called from code are not lowerable"))
            continue
        qualified = ct.target.name
        if "." in qualified or qualified == "log":
            if qualified not in NAMESPACE_CALLS:
                found.setdefault(_key(n.span), (n.span, f"{qualified}() after setup is not lowerable"))
        elif ct.name == "roll" and id(n) in in_effects:
            pass  # random's move (tgpl.lowering.chance), or refused there
        elif ct.name == "roll":
            found.setdefault(_key(n.span), (n.span, "roll() is lowered only in the effect of an action a player "
                                                    "chooses or in a phase's code (a die thrown elsewhere is not "
                                                    "lowerable yet)"))
        elif id(n) in dealt.pops and id(n) not in in_effects:
            found.setdefault(_key(n.span), (n.span, "pop() of a shuffled deck is lowered only in the effect of an "
                                                    "action a player chooses: random deals after the move (a deal "
                                                    "in a phase, a turn's default or a function they call is not "
                                                    "lowerable yet)"))
        elif ct.name in CHANCE and isinstance(n.callee, ast.Member) and _dealt(types, n.callee.obj, dealt):
            pass  # shuffles nothing random deals from (tgpl.lowering.chance.dealt_decks)
        elif ct.name in CHANCE:
            found.setdefault(_key(n.span), (n.span, shuffle_refusal(ct.name)))
        elif ct.name in LIST_CHANGES and _is_list(types, n.callee):
            receiver = n.callee.obj
            name = getattr(receiver, "name", None)
            if not is_attribute(program, receiver):  # the executor changes a local list by add() only
                kind = types.get(id(receiver)).kind.lower()
                found.setdefault(_key(n.span), (n.span, f"{ct.name}() on a local {kind} is not lowerable"))
            elif name not in unread and not (ct.name in STATE_CHANGES and name in state):
                found.setdefault(_key(n.span), (n.span, f"{ct.name}() on a list stored in an attribute is not "
                                                        "lowerable"))
        elif ct.name not in METHODS:
            found.setdefault(_key(n.span), (n.span, f"the built-in {ct.name}() is not lowerable"))
    return [found[k] for k in sorted(found)]


POOL_KINDS = ("class", "interactable")  # classes whose objects made after setup come from a pool of constants


def pool_classes(program) -> dict:
    """The classes other than events whose objects code after setup makes with `new` (ClassInfo -> the `new`
    expressions, in source order). Each gets a pool of constants (tgpl.lowering.universe.Pool) as large as
    the counters' ranges say can be made; a class `unpooled` refuses is not among them."""
    found: dict = {}
    for n in after_setup_nodes(program):
        if isinstance(n, ast.New):
            t = program.types.get(id(n))
            if isinstance(t, ClassType) and not _is_event(t, program) and unpooled(program, n) is None:
                found.setdefault(t.info, []).append(n)
    return {info: sorted(news, key=lambda n: _key(n.span)) for info, news in found.items()}


def unpooled(program, n: ast.New) -> str | None:
    """Why the objects `n` makes after setup cannot come from a pool of constants, or None when they can.

    A pool object is a set of fluents that exist once `new` took it (tgpl.lowering.universe.Pool): objects
    of plain and interactable classes with attributes of plain values, made without items, no default block
    to run and no listeners (which would answer events from the pool's every constant, made or not)."""
    t = program.types.get(id(n))
    if not isinstance(t, ClassType):
        return "collections made with `new` after setup are not lowerable"
    info = t.info
    what = f"a {info.name} made after setup is not lowerable"
    if n.init is not None:
        return f"{what}: it is made with items"
    if info.kind not in POOL_KINDS or info.visibility != "local":
        return f"{what}: only objects of classes and interactables of local visibility can be made after setup"
    for c in info.ancestors():
        if c.defn is not None and any(isinstance(m, ast.Default) for m in c.defn.members):
            return f"{what}: its class has a default block"
        for name, at in c.attribute_types.items():
            if isinstance(at, Collection):
                return f"{what}: its attribute '{name}' holds a collection"
        for a in c.actions.values():
            if any(not _chosen(program, tr.event) for tr in a.triggers):
                return f"{what}: its action '{a.name}' listens to an event"
    return None


def _chosen(program, event: str) -> bool:
    """Whether a trigger on `event` is a player's choice (PlayerChoiceEvent or a base of it), not a listener."""
    return event in {c.name for c in program.builtins.player_choice.ancestors()}


def _is_event(t, program) -> bool:
    """An event class: its objects made after setup live within the move (tgpl.lowering.execute.Transient)."""
    return isinstance(t, ClassType) and t.info.derives_from(program.builtins.event)


def _is_list(types, callee) -> bool:
    t = types.get(id(callee.obj)) if isinstance(callee, ast.Member) else None
    return isinstance(t, Collection) and t.kind in ("List", "Stack")


def _key(span: Span) -> tuple:
    return (span.file, span.line, span.col)
