"""What each role of a lowered GDL-II game sees: `sees` percepts from the game's secrets (docs/language.md,
decision 97; docs/gdl.md, "GDL-II out").

A GDL-II role knows the rules and its percepts only. The lowering gives a dice game with no secret the percept
of every move, random's included, `(sees ?r (did ?q ?m))`: a role that knows every move knows the whole state.
A game with secrets (attributes written `private` or `hidden`, decision 94) cannot: random's moves would tell
its secrets (Monty Hall's `(roll k)` of setup is where the car is), and without chance a GDL role sees every
state. There every player sees (a game with no chance has no `random`: its percepts alone make it GDL-II):
- every player's move, `(did ?q ?m)` (a move's text is public: the studio's log shows it), never random's; a
  move of a `private` action (decision 94) whole by its mover only, and by the others with its inputs
  `hidden`, as the studio's log redacts it (`(did player_0 (mark seat_0 hidden))`), from a table of the
  private moves (`tgpl_private_move`, `tgpl_redacted`); the same for a public action's move that names a card
  the others may not see (`unseen_classes`), its other inputs shown;
- after every step, every fluent it may see, as the fluent itself (`(sees ?r (held studio door_1))`): a public
  attribute's by every player, a `private` one's by the owners of its object (the number of items of a private
  list by everyone, as the studio shows it), a `hidden` one's by nobody; the control and the result by every
  player. Where an object's owner is a fluent (assign() during play), a private attribute of it is seen by
  the owner after the step.

A percept of a fluent after the step is the `next` rule of that fluent with `sees` for its head and the seat's
right to see it in its body: GDL-II's `sees` reads the state and the moves of the step, as `next` does. Only
what is state can be secret: what setup fixes is in the rules, which every role knows (setup's dice that set a
secret are random's first move, and so state).
"""

from __future__ import annotations

from tgpl.frontend.types import ClassType, Collection
from tgpl.lowering.chance import DEALT_ITEMS, DID, RANDOM, action_rolls
from tgpl.lowering.execute import OWNER, NotLowerable
from tgpl.lowering.symbolic import UObj
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Program, Rule, Var
from tgpl.lowering.list_sums import total_of
from tgpl.lowering.universe import list_cell, member_of

SEER = Var("tgpl_seer")  # the role a percept is for: a name no lowered rule uses
PRIVATE = "tgpl_private_move"  # (tgpl_private_move MOVE): a move of a private action, with inputs
REDACTED = "tgpl_redacted"  # (tgpl_redacted MOVE AS_THE_OTHERS_SEE_IT): the same moves
HIDDEN = "hidden"  # an input of a private action's move, to the players but its mover
EVERYONE = "everyone"
# A seen fluent with at least this many `next` rules has them define one relation that `next` and `sees` read
# (`_seen_next`): two rules more than the fluent's rules, against each of them written twice.
SHARED_FROM = 3
NOBODY = "nobody"
OWNERS = "owners"


def has_secrets(program) -> bool:
    """Whether some attribute or class of the game is written `private` or `hidden`, or some action `private`."""
    return first_secret(program) is not None


def first_secret(program):
    """The first `private` or `hidden` word of the game (an ast.Secrecy, for a refusal located where the secret is
    declared), or None."""
    for info in program.classes:
        defn = info.defn
        if defn is None:
            continue
        for node in (defn, *defn.attributes, *defn.actions):
            if node.secrecy is not None:
                return node.secrecy
    return None


def _who(fl) -> str:
    """Who sees the fluent `fl` (a segments.Fluent): EVERYONE, NOBODY or OWNERS of its object."""
    if fl.attr == OWNER:
        word = fl.obj.cls.owner_secrecy
    else:
        found = list_cell(fl.attr)
        # a list's running total (decision 113), or an item of a list kept as a set: seen by whoever sees its items
        total = total_of(fl.attr) or member_of(fl.attr)
        name = found[0] if found is not None else total[0] if total is not None else fl.attr
        if found is not None and found[1] is None:
            return EVERYONE  # a list's number of items: the studio shows it to every seat
        if found is not None and name == DEALT_ITEMS and fl.obj.items is not None:
            return NOBODY  # the items left in a deck random deals from: a deck's items are seen by no seat
        word = fl.obj.cls.secrecy(name)
    return {None: EVERYONE, "hidden": NOBODY, "private": OWNERS}[word]


def with_percepts(lowered, program):
    """The lowered game (emit.LoweredGame) as GDL-II with the percepts of the module's docstring in place of every
    move's, where the game has secrets; the game itself where it has none. A game with secrets and no chance has
    no role `random`: its percepts alone make it GDL-II (GDL's roles would see every state)."""
    em = lowered.emitter
    if em is None or not has_secrets(program):
        return lowered
    chance = RANDOM in lowered.roles
    thrown = action_rolls(program)[0]
    for info in program.classes:
        for action in (info.defn.actions if info.defn is not None else []):
            if action.secrecy is not None and id(info.actions.get(action.name)) in thrown:
                raise NotLowerable(action.secrecy.span, "a private action that throws dice is not lowerable yet: "
                                                        "random's control state after its move names the move, "
                                                        "inputs included, and every player sees the control")
    logic = em.logic
    roles = lowered.roles
    players = [r for r in roles if r != RANDOM]
    seats: dict[str, dict[str, set[str]]] = {}  # GDL relation -> object constant -> the roles that see it
    uniform: dict[str, set[str]] = {}  # GDL relation -> who of EVERYONE, NOBODY, OWNERS its fluents have
    for fl in logic.fluents.values():
        rel = em.attr(fl.attr)
        who = _who(fl)
        uniform.setdefault(rel, set()).add(who)
        if who == OWNERS and (fl.obj.name, OWNER) in logic.fluents:
            raise NotLowerable(_attr_span(fl), f"{fl.obj.name}.{fl.attr} is private and its object changes hands "
                                               "during play: not lowerable yet as GDL-II percepts")
        owners = {players[p] for p in fl.obj.owners} if who == OWNERS else set()
        seen_by = set(players) if who == EVERYONE else owners
        seats.setdefault(rel, {})[em.obj(fl.obj).name] = seen_by
    facts: list[Rule] = []
    tables: dict[str, str] = {}

    def seen(fluent: Func) -> tuple | None:
        """The body that lets SEER see `fluent` (a term whose first argument is its object), or None where no
        player may see it."""
        if fluent.name in ("control", "result"):
            who = {EVERYONE}
        else:
            who = uniform.get(fluent.name)
            if who is None or who == {NOBODY}:
                return None
        if who == {EVERYONE}:
            return _seer(chance)
        table = tables.get(fluent.name)  # by object: a table of who sees the fluent of each object
        if table is None:
            table = tables[fluent.name] = f"sees_{fluent.name}"
            for obj, seen_by in sorted(seats[fluent.name].items()):
                facts.extend(Rule(Atom(table, (Const(obj), Const(r)))) for r in sorted(seen_by))
        return (Atom(table, (fluent.args[0], SEER)),)

    kept = [r for r in lowered.program.rules if r.head.relation != "sees"]
    kept, out = _seen_next(kept, seen)
    at = next((i for i, r in enumerate(kept) if not r.is_fact or r.head.relation not in ("role",)), len(kept))
    rules = kept[:at] + _move_percepts(em, program, facts, chance) + kept[at:] + facts + out
    return lowered.with_program(Program(tuple(rules)))


def _next_fluent(rule: Rule) -> Func | None:
    """The fluent a `next` rule makes true, None for any other rule."""
    h = rule.head
    return h.args[0] if h.relation == "next" and h.args and isinstance(h.args[0], Func) else None


def _seen_next(rules: list[Rule], seen) -> tuple[list[Rule], list[Rule]]:
    """`rules` with the `next` rules of the fluents a player may see rewritten, and the `sees` rules that tell
    them: a percept of a fluent after the step reads what its `next` reads (GDL-II's `sees` reads the state and
    the step's moves). A fluent with few `next` rules gets a copy of each with `sees` for head and the seat's
    right to see it (`seen(fluent)`) in its body; one with more (a card game's hands: hundreds) has its `next`
    rules define `tgpl_next_<fluent>` once, which one `next` rule and one `sees` rule read, rather than every
    rule written twice."""
    by_name: dict[str, list[Func]] = {}
    for rule in rules:
        fluent = _next_fluent(rule)
        if fluent is not None:
            by_name.setdefault(fluent.name, []).append(fluent)
    shared = {name for name, fluents in by_name.items()
              if len(fluents) >= SHARED_FROM and len({len(f.args) for f in fluents}) == 1}
    kept: list[Rule] = []
    out: list[Rule] = []
    bridged: set[str] = set()
    for rule in rules:
        fluent = _next_fluent(rule)
        extra = seen(fluent) if fluent is not None else None
        if extra is None:
            kept.append(rule)
        elif fluent.name not in shared:
            kept.append(rule)
            out.append(Rule(Atom("sees", (SEER, fluent)), rule.body + extra))
        else:
            kept.append(Rule(Atom(f"tgpl_next_{fluent.name}", fluent.args), rule.body, rule.span))
            if fluent.name not in bridged:
                bridged.add(fluent.name)
                xs = tuple(Var(f"x{i}") for i in range(len(fluent.args)))
                made = Atom(f"tgpl_next_{fluent.name}", xs)
                general = Func(fluent.name, xs)
                kept.append(Rule(Atom("next", (general,)), (made,)))
                out.append(Rule(Atom("sees", (SEER, general)), (made,) + seen(general)))
    return kept, out


def _seer(chance: bool) -> tuple:
    """The body that makes SEER a player: a role, not `random` where the game has it."""
    return (Atom("role", (SEER,)),) + ((Distinct(SEER, Const(RANDOM)),) if chance else ())


def _move_percepts(em, program, facts: list[Rule], chance: bool) -> list[Rule]:
    """The percepts of the players' moves: every move to every player, but a private action's, which its mover
    sees whole and the others with its inputs `hidden`, and a public one naming a card the others may not see,
    which they see with that input `hidden` (a table of such moves appended to `facts`). `chance`: the game has
    the role `random`, whose moves no player sees."""
    q, m, x = Var("q"), Var("m"), Var("tgpl_hidden")
    seer = _seer(chance)
    public = seer + ((Distinct(q, Const(RANDOM)),) if chance else ()) + (Atom("does", (q, m)),)
    unseen = unseen_classes(program)
    private = []  # (move, which of its inputs the others see hidden)
    for mv in em.logic.moves:
        if mv.action is None or not mv.inputs:
            continue
        if mv.obj is not None and mv.obj.cls.private_action(mv.action.name):  # obj None: a phase's input
            private.append((mv, [True] * len(mv.inputs)))
            continue
        masked = [isinstance(v, UObj) and unseen(v.cls) for _, v in mv.inputs]
        if any(masked):
            private.append((mv, masked))
    if not private:
        return [Rule(Atom("sees", (SEER, Func(DID, (q, m)))), public)]
    for mv, masked in private:
        term = em.move(mv)
        hidden = Func(term.name, term.args[:1] + tuple(Const(HIDDEN) if h else a
                                                       for a, h in zip(term.args[1:], masked)))
        facts.append(Rule(Atom(PRIVATE, (term,))))
        facts.append(Rule(Atom(REDACTED, (term, hidden))))
    return [Rule(Atom("sees", (SEER, Func(DID, (q, m)))), public + (Not(Atom(PRIVATE, (m,))),)),
            Rule(Atom("sees", (q, Func(DID, (q, m)))), (Atom("does", (q, m)), Atom(PRIVATE, (m,)))),
            Rule(Atom("sees", (SEER, Func(DID, (q, x)))),
                 seer + (Distinct(SEER, q), Atom("does", (q, m)), Atom(REDACTED, (m, x))))]


def unseen_classes(program):
    """Whether a move naming an object of a class is to name it `hidden` to the other seats (a function of the
    ClassInfo). Decision 94 names an interactable to a seat only where the seat sees it: the lowering hides one
    that a `private` or `hidden` attribute, or a deck, may hold and no public attribute may (a card of a private
    hand that nothing public ever holds: treasure's Discard). One that a public attribute may hold is named
    (where the seat sees it is state, which the move's percept does not read)."""
    held: dict[bool, list] = {True: [], False: []}  # secret or not -> the classes its attributes may hold

    def classes(t):
        while isinstance(t, Collection):
            t = t.elem
        return [t.info] if isinstance(t, ClassType) else []

    for info in program.classes:
        if info.kind == "stack" and info.deck_item is not None:
            held[True].extend(classes(info.deck_item))
        for name, t in info.attribute_types.items():
            held[info.secrecy(name) is not None].extend(classes(t))

    def unseen(cls) -> bool:
        return cls.kind == "interactable" and any(cls.derives_from(c) for c in held[True]) \
            and not any(cls.derives_from(c) for c in held[False])
    return unseen


def _attr_span(fl):
    """Where the attribute of fluent `fl` is declared (None where it is built in)."""
    found = list_cell(fl.attr) or total_of(fl.attr) or member_of(fl.attr)
    name = found[0] if found is not None else fl.attr
    for info in fl.obj.cls.ancestors():
        for a in (info.defn.attributes if info.defn is not None else []):
            if a.name == name:
                return a.span
    return None


__all__ = ["has_secrets", "unseen_classes", "with_percepts"]
