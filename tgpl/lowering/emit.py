"""The GameLogic of a lowered game as a GDL program in the logic IR.

Names. Roles are `player_0`, `player_1`, ...; objects are their runtime names
made GDL-safe (`TrisGrid[0][2]` -> `trisgrid_0_2`, `PlayerState#1` ->
`playerstate_1`); a fluent is `(attribute object value)`; control is
`(control player turn phase)`; the end of the game is `(result place_0 ... place_n)`,
the place of each role in role order (`(result 1 2)`: player_0 won; `(result 1 1)`: a
draw; `(result none none)`: a ranking that names nobody). A move is
`(action object input-values...)`, and `LoweredGame.move_texts` maps each one
to the runtime's move text, so a GDL move and a TGPL move are the same thing.

Formulas. A pure call with concrete arguments is a relation of its arguments
and result (`(wincheck a b c ?who)`); any other condition met in the code is a
0-ary relation named after the block it comes from (`phase_wincheckphase_7`);
the fluent literals under them are `true` atoms, moves `does` atoms. GDL has no
arithmetic: a counter steps through `succ` facts over the finite range the
lowering has established, and other comparisons and sums become one rule per
combination of values in range.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from tgpl.frontend.outcomes import goals_of, unscored
from tgpl.frontend.types import PLAYER
from tgpl.lowering.chance import DEALT_ITEMS, DID, PHASE_THROW, RANDOM, ROLL, SETUP, roll_name, setup_deal_step
from tgpl.lowering.generalize import KEPT, fold, generalize, merge_relations, unfold_single_uses
from tgpl.lowering.execute import OWNER, tables_refused
from tgpl.lowering.horn import instantiate, relaxed_reads, table_name
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Literal, Not, Program, Rule, Term, Var
from tgpl.lowering.segments import (
    Fluent, GameLogic, MoveInfo, cmp_value, num_leaves,
)
from tgpl.lowering.implied import simplified
from tgpl.lowering.minimize import minimize
from tgpl.lowering.number_chains import Chains, decided
from tgpl.lowering.list_sums import runtime_total, total_of
from tgpl.lowering.universe import list_cell, member_of
from tgpl.lowering.saturate import saturated_value
from tgpl.limits import Limits, unlimited
from tgpl.lowering.symbolic import (
    FALSE, TRUE, UNDEF, AnyLit, CallLit, CmpLit, ControlLit, CountLit, CountSite, FluentLit, Formula, HornLit,
    MoveLit, Num, UObj, ViewLit,
    by_id, cases_of, conj, conjuncts, disj, disjuncts, is_bool_table, lit, literal_value, literals, literals_of,
    neg, rebuild,
    scalar_constant, settle, value_identity,
)

_MISSING = object()
# rounds of folding and merging: each round's merges make rules alike for the next one's folds; chess's
# per-move rules needed more than the four that were enough for the other examples (they stop earlier)
ROUNDS = 8

KEYWORDS = {"role", "init", "true", "next", "legal", "does", "goal", "terminal", "distinct", "base", "input",
            "or", "not", "noop", "control", "result", "none", "null", "yes", "no", "succ",
            "sees", "random"}  # GDL-II's: a TGPL name `Sees` must not become the percept relation


@dataclass
class LoweredGame:
    program: Program
    roles: list[str]
    move_texts: dict[str, str]  # KIF text of a move term -> the runtime's move text
    stats: dict = field(default_factory=dict)
    emitter: object = None
    # how the reasoner should ground it ((mode, max ground) of tgpl.asp.reasoner.GdlGame), None for its defaults
    grounding: tuple | None = None
    # a game with its moves compiled: the relations its emitter made the compiled functions' demands, and the
    # closures' positive answers (tgpl.lowering.compiled.Emission), that compile_game's retries look for in a
    # negation cycle; what a relation is made for is known where it is made, not from its name
    demands: frozenset[str] = frozenset()
    closure_answers: frozenset[str] = frozenset()

    def with_program(self, program: Program) -> LoweredGame:
        """This game with its rules replaced by `program` (a pass that tidies or mends them), its rule and
        relation counts brought up to date; itself, unchanged, when the pass changed nothing."""
        if program is not self.program:
            self.program = program
            self.stats["rules"] = len(program.rules)
            self.stats["relations"] = len(program.relations())
        return self

    def state_fluents(self, snapshot: dict) -> frozenset[str]:
        """The GDL fluents (as KIF text) of a runtime state given as a snapshot: for differential tests."""
        return self.emitter.state_fluents(snapshot)

    def setup_deals(self) -> int:
        """How many of random's first moves deal setup's pops (tgpl.setup_deals, decision 112): 0 where none do."""
        u = getattr(self.emitter, "u", None)
        return len(u.deals) if u is not None else 0

    def state_fields(self) -> dict[str, list[str]] | None:
        """The fields of the objects `state_fluents` reads (tgpl.runtime.snapshot.fields_snapshot); None when it
        needs the whole snapshot (the moves spelled out read lists, decks and owners too)."""
        return self.emitter.state_fields()


class Names:
    """GDL-safe, unique, lower-case names. Namespaces that `share` one another give no name the other has given:
    a constant and a relation of one name (the turn `Turns` and the attribute `Turns`) would be one symbol of two
    arities, which GDL's checkers refuse."""

    def __init__(self, share: Names | None = None) -> None:
        self.taken: dict[str, object] = {}
        self.given: dict[object, str] = {}
        self.peers: list[Names] = []
        if share is not None:
            self.peers = [share, *share.peers]
            for other in self.peers:
                other.peers.append(self)

    def name(self, key, text: str) -> str:
        if key in self.given:
            return self.given[key]
        base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "x"
        if base[0].isdigit():
            base = "n" + base
        if base in KEYWORDS:
            base = base + "_"
        if base.startswith("tgpl_"):  # the lowering's own relations (tgpl_query, tgpl_bad and its tables)
            base = "game_" + base
        name, k = base, 1
        while name in self.taken or any(name in other.taken for other in self.peers):
            k += 1
            name = f"{base}_{k}"
        self.taken[name] = key
        self.given[key] = name
        return name


class Emitter:
    def __init__(self, logic: GameLogic, conditions: dict[str, Formula] | None = None,
                 anywhere: dict[tuple, Formula] | None = None, limits: Limits | None = None):
        self.logic = logic
        self.limits = limits if limits is not None else unlimited()  # checked at each condition and rule written
        self.conditions = conditions or {}  # extra 0-ary relations: name -> when it holds
        self.u = logic.universe
        self.names = Names()
        self.props = Names()
        self.rules: list[Rule] = []
        self._prop: dict[int, str] = {}
        self.roles = [f"player_{i}" for i in range(self.u.players)]
        for r in self.roles:
            self.names.name(("role", r), r)
        # GDL-II: the chance role `random` after the players, when a die is random's move (tgpl.lowering.chance);
        # `roll` (`roll2` for two dice, ...) is then its moves' function, so an action named Roll is written roll_2
        self.chance = any(m.action is None for m in logic.moves)
        if self.chance:
            self.roles.append(RANDOM)
            for n in sorted({len(m.inputs) for m in logic.moves if m.action is None}):
                self.names.name(("chance", ROLL, n), roll_name(n))
            self.names.name(("chance", DID), DID)
        self.attr_names = Names(share=self.names)
        self._calls: dict[tuple, str] = {}
        self._successors: dict[str, str | None] = {}
        self.numbers: list[Rule] = []  # successor facts, for the ranges arithmetic steps through
        self._versions: dict[tuple, list] = {}
        self._version_names: dict[tuple, str] = {}
        self._contexts: dict[str, list[tuple]] = {}  # function -> the view sets its calls read, in order met
        self._horn_demand: dict[tuple[str, int], set[tuple]] = {}  # compiled calls made: (function, context) -> args
        self._settled: dict[int, Formula] = {}  # formula id -> the formula with constant comparisons decided
        self._constants: dict[CmpLit, bool | None] = {}
        self._implied: dict[int, Formula] = {}  # formula id -> `implied_free`'s answer
        self._read: dict[tuple, tuple] = logic.views_read  # a call's (function, args, cases) -> the views it reads
        self._view_names: dict[int, str] = {}
        self._view_attr: dict[str, str] = {}  # view relation -> the attribute's GDL name
        self._by_term: dict | None = None
        self._anywhere = dict(anywhere or {})  # (function, views read) -> the union its calls are replaced by
        self.anywhere = frozenset(fn for fn, _ in self._anywhere)  # the functions whose checks are made global
        self._subst: dict[int, Formula] = {}
        self._objs: dict[str, Const] = {}  # an object's name -> its term (`obj`)
        self._calls_found: dict[str, set] | None = None
        self.line = logic.number_line()
        self.chains = Chains(self, self.line)  # sums of several counters (tgpl.lowering.number_chains)

    # ------------------------------------------------------------ terms
    def obj(self, o: UObj | str) -> Const:
        name = o.name if isinstance(o, UObj) else o
        found = self._objs.get(name)
        if found is None:  # terms are immutable: one per object, for the many atoms that name it
            found = self._objs[name] = Const(self.names.name(("obj", name), name))
        return found

    def value(self, v, t=None) -> Term:
        scalar = scalar_constant(v)
        if scalar is not None:
            return Const(scalar)
        if isinstance(v, UObj):
            return self.obj(v)
        if isinstance(v, str):
            return Const(self.names.name(("str", v), "s_" + v))
        x = float(v)
        if t == PLAYER:
            return Const(self.roles[int(x)])
        if x == int(x):
            return Const(str(int(x)))
        return Const(self.names.name(("num", x), "n" + repr(x)))

    def fluent_value(self, fl: Fluent, v) -> Term:
        return self.value(v, fl.type)

    def state_fields(self) -> None:
        return None

    def state_fluents(self, snap: dict) -> frozenset[str]:
        out = set()
        by_name = {o["name"]: o for o in snap["objects"]}
        counters = {pool.counter.name: pool for pool in self.u.pools}
        absent = {"fields": {}, "owners": (), "items": None}  # an object of a pool not made yet: all null
        for (obj, attr), fl in self.logic.fluents.items():
            if obj in counters:  # how many of the pool's objects the state has
                out.add(str(self.fluent(fl, float(counters[obj].made_by(by_name)))))
                continue
            o = by_name.get(obj, absent)
            if attr == OWNER and attr not in o["fields"]:  # the owner: assign() sets it (one player or none)
                raw = float(o["owners"][0]) if o["owners"] else None
            elif attr == "length" and o.get("items") is not None:  # what is left of a deck
                raw = float(len(o["items"]))
            elif (found := list_cell(attr)) is not None and found[0] == DEALT_ITEMS and o.get("items") is not None:
                k = found[1]  # a deck random deals from: how many items are left, or whether its k-th item is
                raw = float(len(o["items"])) if k is None else \
                    fl.obj.items[k].name in {self.u.value(v).name for v in o["items"]}
            elif (member := member_of(attr)) is not None:  # a list kept as a set: whether it holds the item
                raw = member[1] in {self.u.value(v).name for v in o["fields"][member[0]][1] if v is not None}
            elif (total := total_of(attr)) is not None:  # a running total of a list (decision 113)
                raw = runtime_total([self.u.value(v) for v in o["fields"][total[0]][1]], total[1])
            elif found is not None:  # a list that is state: its length, or one item
                items = o["fields"][found[0]][1]
                k = found[1]
                raw = float(len(items)) if k is None else items[k] if k < len(items) else None
            else:
                raw = o["fields"].get(attr) if o is absent else o["fields"][attr]
                raw = saturated_value(raw, self.logic.caps.get(attr))  # a capped counter (Executor.caps)
            out.add(str(self.fluent(fl, literal_value(self.u.value(raw)))))
        out.add(str(self.control(tuple(snap["control"]))))
        if snap["result"] is not None:
            out.add(str(self.result(tuple(tuple(r) for r in snap["result"]))))
        return frozenset(out)

    def class_members(self) -> dict[str, list[str]]:
        """Each class's relation name and the constants of its objects (exact class, creation order)."""
        out: dict[str, list[str]] = {}
        attrs = set(self.attr_names.taken)
        for o in self.u.objects:
            text = o.cls.name if o.cls.name.lower() not in attrs else o.cls.name + "_class"
            rel = self.props.name(("class", o.cls.name), text)  # relation names share one namespace
            out.setdefault(rel, []).append(self.obj(o).name)
        return out

    def attr(self, name: str) -> str:
        return self.attr_names.name(name, name)

    def attribute_named(self, gdl: str) -> str | None:
        """The attribute a GDL fluent relation stands for (None: no attribute's), the inverse of `attr`."""
        return self.attr_names.taken.get(gdl)

    def fluent(self, fl: Fluent, v) -> Term:
        return Func(self.attr(fl.attr), (self.obj(fl.obj), self.fluent_value(fl, v)))

    def control(self, cs: tuple) -> Term:
        if len(cs) == 4 and cs[3] == SETUP:  # random throws setup's dice: the game's first step
            turn = cs[1]
            return Func("control", (Const(RANDOM), Const(self.names.name(("turn", turn), str(turn))),
                                    Const(self.names.name(("thrown", turn, SETUP), SETUP))))
        if setup_deal_step(cs) is not None:  # random deals setup's pops: the game's first steps (decision 112)
            turn = cs[1]
            return Func("control", (Const(RANDOM), Const(self.names.name(("turn", turn), str(turn))),
                                    Const(self.names.name(("thrown", turn, cs[3]), cs[3]))))
        if len(cs) == 4 and cs[3] == PHASE_THROW:  # random throws the dice of the phase entered: the player in the name
            player, turn, phase, _ = cs
            return Func("control", (Const(RANDOM), Const(self.names.name(("turn", turn), str(turn))),
                                    Const(self.names.name(("thrown", turn, phase, player, PHASE_THROW),
                                                          f"{phase} {PHASE_THROW} {self.roles[player]}"))))
        if len(cs) == 4:  # random throws the die of the move made (tgpl.lowering.chance): the move in the phase's name
            player, turn, phase, move = cs
            m = self.logic.moves[move]
            return Func("control", (Const(RANDOM), Const(self.names.name(("turn", turn), str(turn))),
                                    Const(self.names.name(("thrown", turn, phase, move), f"{phase} {self.move(m)}"))))
        player, turn, phase = cs
        return Func("control", (Const(self.roles[player]), Const(self.names.name(("turn", turn), str(turn))),
                                Const(self.names.name(("phase", turn, phase), str(phase)))))

    def result(self, ranking: tuple) -> Term:
        """`(result place_0 ... place_n)`: one arity for every ranking of this player count."""
        places = places_of(ranking, self.u.players)
        return Func("result", tuple(Const("none" if p is None else str(p)) for p in places))

    def move(self, m: MoveInfo) -> Term:
        if m.action is None:  # random's (roll k), (roll2 a b), ...: the faces of the dice it throws
            n = len(m.inputs)
            return Func(self.names.name(("chance", ROLL, n), roll_name(n)), tuple(self.value(f) for _, f in m.inputs))
        args = [self.obj(m.obj)] if m.phase is None else []
        players = {i.name for i in m.action.inputs if i.type.name == "player"}
        for n, v in m.inputs:
            args.append(self.value(v, PLAYER if n in players else None))
        if m.phase is not None:  # a phase's input: `(give_p piece_3)`, the phase and the input named (docs/lowering.md)
            (turn, phase_def), (inp,) = m.phase, m.action.inputs
            return Func(self.names.name(("phase move", turn, phase_def.name), f"{phase_def.name}_{inp.name}"),
                        tuple(args))
        return Func(self.names.name(("action", m.action.name), m.action.name), tuple(args))

    # ------------------------------------------------------------ formulas
    def body(self, f: Formula) -> list[Literal] | None:
        """Body literals for f (None when f is false)."""
        f = settle(self.implied_free(f), self._constant, self._settled)
        if f is FALSE:
            return None
        if f is TRUE:
            return []
        if f.kind == "and":
            out: list[Literal] = []
            for p in f.parts:
                out.extend(self.literal(p))
            return out
        return self.literal(f)

    def literal(self, f: Formula) -> list[Literal]:
        if f.kind == "lit":
            return [self.atom(f.key)]
        if f.kind == "not":
            inner = f.parts[0]
            if inner.kind == "lit" and not isinstance(inner.key, CmpLit):
                return [Not(self.atom(inner.key))]
            return [Not(Atom(self.prop(inner)))]
        return [Atom(self.prop(f))]

    def atom(self, key) -> Atom:
        if isinstance(key, FluentLit):
            fl = self.logic.fluents[(key.obj, key.attr)]
            return Atom("true", (self.fluent(fl, key.value),))
        if isinstance(key, ControlLit):
            return Atom("true", (self.control(key.control),))
        if isinstance(key, MoveLit):
            m = self.logic.moves[key.move]
            return Atom("does", (Const(self.roles[m.player]), self.move(m)))
        if isinstance(key, CmpLit):
            return Atom(self.prop(lit(key)))
        if isinstance(key, CallLit):
            return self.call_atom(key)
        if isinstance(key, CountLit):
            return Atom(self.count_relation(key.site), (self.value(key.value),))
        if isinstance(key, HornLit):
            self._horn_demand.setdefault((key.function, key.context), set()).add(key.args)
            value = self.horn_term(self.horn_const(key.value))
            return Atom(self.horn_relation(f"{key.function}|result@{key.context}"),
                        tuple(self.horn_term(a) for a in key.args) + (value,))
        if isinstance(key, ViewLit):
            fl = self.logic.fluents[(key.obj, key.attr)]
            return Atom(self.view_relation(key.view), (self.obj(fl.obj), self.fluent_value(fl, key.value)))
        if isinstance(key, AnyLit):
            slot = ("anywhere", key.function, key.context)
            name = self.props.given.get(slot)
            if name is None:
                name = self.props.name(slot, key.function)
                for part in disjuncts(key.body):
                    b = self.body(part)
                    if b is not None:
                        self.rules.append(Rule(Atom(name), tuple(b)))
            return Atom(name)
        raise TypeError(key)

    # ------------------------------------------------------------ anchored checks made global
    def _bool_calls(self) -> dict[str, set]:
        """function -> its calls (CallLit keys with a bool result) anywhere in the game's conditions."""
        if self._calls_found is None:
            found: dict[str, set] = {}
            for k in literals_of(self.all_formulas(), into_calls=True):
                if isinstance(k, CallLit) and is_bool_table(k.cases):
                    found.setdefault(k.function, set()).add(k)
            self._calls_found = found
        return self._calls_found

    def global_candidates(self) -> frozenset[str]:
        """Bool functions called on several arguments whose true conditions read one view alone: checks
        anchored at what the move wrote (`MakesFour(c, r)` of the disc just dropped), which may be the
        same as asking whether any of the calls holds (tgpl.lowering.lower.globalize says when they are)."""
        out = []
        for fn, calls in self._bool_calls().items():
            views = {x.view if isinstance(x, ViewLit) else None for k in calls for x in literals(k.body)}
            if len({k.args for k in calls}) > 1 and len(views) == 1 and None not in views:
                out.append(fn)
        return frozenset(out)

    def global_checks(self, functions: frozenset[str]) -> dict[tuple, Formula]:
        """(function, views read) -> the union of the true conditions of its calls, for `functions`: what
        `emit_gdl(..., anywhere=)` writes in their place."""
        calls: dict[tuple, list] = {}
        for fn in sorted(functions):
            for k in self._bool_calls().get(fn, ()):
                calls.setdefault((fn, self._views_read(k)), []).append(k)
        return {slot: disj(*(k.body for k in sorted(ks, key=lambda k: repr(k.args)))) for slot, ks in calls.items()}

    def state_cells(self) -> list[tuple[list[Term], bool]]:
        """The game's state as cells that each hold one value: (the fluent terms of its values, whether it
        may hold none). A state is a choice of one term per cell; `result` is there only once the game is over."""
        lg = self.logic
        cells: list[tuple[list[Term], bool]] = [
            ([self.fluent(fl, literal_value(v)) for v in fl.domain], False) for fl in lg.fluents.values()]
        controls = dict.fromkeys([*lg.states, *(p.control for st in lg.states.values() for p in st.paths)])
        cells.append(([self.control(cs) for cs in controls], False))
        if lg.results:
            cells.append(([self.result(r) for r in lg.results], True))
        return cells

    def invariant_rules(self, name: str) -> list[Rule]:
        """`name` holds in a state where some anchored check made global (self._anywhere) already holds before
        the move: its union read on `true` instead of the view. A global check equals the anchored one only in
        states where this fails."""
        rules: list[Rule] = []
        for body in self._anywhere.values():
            for part in disjuncts(body):
                b = self.body(_before_move(part))
                if b is not None:
                    rules.append(Rule(Atom(name), tuple(b)))
        # five in a row: 1,144 rules, one for each window and colour, become one rule over a table of windows
        folded, tables = fold(rules, self.domain_of, body_tables=True)
        return tables + folded

    def all_formulas(self):
        lg = self.logic
        for st in lg.states.values():
            for _, f in st.legal:
                yield f
            for p in st.paths:
                yield p.pc
                for v in p.store.values():
                    for _, f in cases_of(v):
                        yield f
        for view in lg.views:
            for pc, cells in view.contributions:
                yield pc
                for v in cells.values():
                    for _, f in cases_of(v):
                        yield f

    def implied_free(self, f: Formula) -> Formula:
        """f globalized, without the comparisons that another of the same number in one conjunction implies
        (tgpl.lowering.implied: a loop's test of its count, pass after pass). Only as rules are written: the
        consensus (`minimize`) takes the literals for independent propositions, and the comparisons implied are
        what lets it absorb a pass's term into a shorter one (`pit > 0 & pit > 1 & !(pit > 2)` into
        `pit > 0 & !(pit > 2)`); dropped before it, Kalah 2x4x1's rules grew by a fifth."""
        return simplified(self.globalized(f), self._implied)

    def globalized(self, f: Formula) -> Formula:
        """f with the calls of the anchored checks made global (self._anywhere) replaced by their union."""
        if not self._anywhere:
            return f
        got = self._subst.get(f.id)
        if got is None:
            if f.kind == "lit":
                k = f.key
                got = f
                if isinstance(k, CallLit) and k.value is True:
                    slot = (k.function, self._views_read(k))
                    body = self._anywhere.get(slot)
                    if body is not None:
                        got = lit(AnyLit(k.function, slot[1], body))
            else:
                got = rebuild(f, [self.globalized(p) for p in f.parts])
            self._subst[f.id] = got
        return got

    def domain_of(self, kind: str, node, j: int) -> set[str] | None:
        """The constants a fluent term `(attr object ?)` or a view atom can hold at argument j (values only)."""
        if j != 1 or len(node.args) != 2 or not isinstance(node.args[0], Const):
            return None
        name = node.name if kind == "fluent" else self._view_attr.get(node.relation)
        if name is None or (kind == "fluent" and name not in self.attr_names.taken):
            return None
        fl = self._fluent_terms().get((name, node.args[0].name))
        if fl is None:
            return None
        return {str(self.fluent_value(fl, literal_value(v))) for v in fl.domain}

    def _fluent_terms(self) -> dict[tuple[str, str], Fluent]:
        if self._by_term is None:
            self._by_term = {(self.attr(fl.attr), self.obj(fl.obj).name): fl for fl in self.logic.fluents.values()}
        return self._by_term

    def view_relation(self, vid: int) -> str:
        """`(attr_where object value)`: an attribute through a view, its rules emitted once.

        Each path that reached the view's site gives the values it wrote under its
        condition, and marks the objects it wrote as changed; a frame rule gives the
        others their value before the move, as GDL's `next` frame does.
        """
        name = self._view_names.get(vid)
        if name is not None:
            return name
        view = self.logic.views[vid]
        base = self.attr(view.attr)
        name = self.props.name(("view", vid), f"{base}_{view.label}")
        self._view_names[vid] = name
        self._view_attr[name] = base
        changed = self.props.name(("view changed", vid), f"changed_{name}")
        o, v = Var("o"), Var("v")
        self.rules.append(Rule(Atom(name, (o, v)), (Atom("true", (Func(base, (o, v)),)), Not(Atom(changed, (o,))))))
        for pc, cells in view.contributions:
            for cell, value in sorted(cells.items()):
                fl = self.logic.fluents[cell]
                written = cases_of(value)  # a Partial's written cases, each value by its own cases (a bool as a formula)
                when = []
                for x, f in written:
                    if x is UNDEF:
                        continue
                    cond = conj(pc, f)
                    b = self.body(cond)
                    if b is None:
                        continue
                    when.append(cond)
                    for term, extra in self.written_terms(fl, x):  # a number written by arithmetic: by cases
                        self.rules.append(Rule(Atom(name, (self.obj(fl.obj), term)), tuple(b + extra)))
                b = self.body(disj(*when)) if when else None
                if b is not None:
                    for part in disjuncts(disj(*when)):
                        pb = self.body(part)
                        if pb is not None:
                            self.rules.append(Rule(Atom(changed, (self.obj(fl.obj),)), tuple(pb)))
        return name

    def count_relation(self, site: CountSite) -> str:
        """`(name value)`: a local counted by tests has the value after its step (tgpl.lowering.counted_ifs),
        its rules emitted once: each path that ran the step, each case of the count it left there, each
        disjunct of the case's condition (the count before the step and the test, or its negation)."""
        slot = ("count", site.id)
        name = self.props.given.get(slot)
        if name is not None:
            return name
        name = self.props.name(slot, site.name)
        for pc, cases in site.contributions:
            for value, f in cases:
                head = Atom(name, (self.value(value),))
                for part in disjuncts(f):
                    b = self.body(conj(pc, part))
                    if b is not None:
                        self.rules.append(Rule(head, tuple(b)))
        return name

    def call_atom(self, key: CallLit) -> Atom:
        """`(function args... value)`, its rules emitted once per call (a version per distinct meaning).

        The calls of a function share one relation, but only calls that read the
        same views: a call after the move's writes (its view relation depends on
        `does`) never shares a relation with a call in a filter, and a call whose
        result decides a write never with a call that reads that write; GDL asks
        such dependencies of relations, not of their ground instances.
        """
        group = (key.function, key.args, key.cases)
        name = self._calls.get(group)
        if name is None:
            # one relation per meaning: the calls of a function on one state share it, a call
            # with the same arguments on another state (after another move) gets a version
            context = self._views_read(key) + self._own_calls_read(key)
            contexts = self._contexts.setdefault(key.function, [])
            if context not in contexts:
                contexts.append(context)
            versions = self._versions.setdefault((key.function, context, key.args), [])
            versions.append(group)
            slot = (key.function, context, len(versions))
            name = self._version_names.get(slot)
            if name is None:
                text = key.function
                if contexts.index(context):
                    text += "_" + "_".join(self.logic.views[v].label if isinstance(v, int) else "after"
                                           for v in context) if context else "_state"
                if len(versions) > 1:
                    text += f"_v{len(versions)}"
                name = self.props.name(("call",) + slot, text)
                self._version_names[slot] = name
            self._calls[group] = name
            terms = tuple(self.value(a) for a in key.args)
            bools = is_bool_table(key.cases)
            for value, f in _else_as_negation(key.cases):
                if bools and value is False:
                    continue  # false is the negation of true (execute._call_literal)
                head = Atom(name, terms + (self.value(value),))
                parts = disjuncts(f)
                for part in parts:
                    b = self.body(part)
                    if b is not None:
                        self.rules.append(Rule(head, tuple(b)))
        return Atom(name, tuple(self.value(a) for a in key.args) + (self.value(key.value),))

    def _own_calls_read(self, key: CallLit) -> tuple[tuple, ...]:
        """The calls of the same function a call's cases read, directly or through other calls: a call whose
        result depends on another call of its function (through a value that call decided, written before
        it) never shares that call's relation, or the relation would depend on itself, which GDL forbids
        of relations even where no ground instance does (an event's listener chosen by `IsOpen(A)` changes
        what `IsOpen(B)` reads after it)."""
        found: set[tuple] = set()
        seen: set[int] = set()
        todo = [f for _, f in key.cases]
        while todo:
            f = todo.pop()
            for k in literals(f):
                if isinstance(k, CallLit) and id(k) not in seen:
                    seen.add(id(k))
                    if k.function == key.function:  # that very call (its arguments, and its cases' formulas)
                        found.add(("call", repr(k.args), tuple(f.id for _, f in k.cases)))
                    todo.extend(g for _, g in k.cases)
        return tuple(sorted(found))

    def _views_read(self, key: CallLit) -> tuple[int, ...]:
        """The views a call's cases read, directly or through the calls they make (sorted ids)."""
        group = (key.function, key.args, key.cases)
        found = self._read.get(group)
        if found is None:
            views: set[int] = set()
            todo = [f for _, f in key.cases]
            seen: set[int] = set()
            while todo:
                for k in literals(todo.pop()):
                    if isinstance(k, ViewLit):
                        views.add(k.view)
                    elif isinstance(k, CallLit):
                        views.update(self._views_read(k))
                    elif isinstance(k, CountLit) and k.site.id not in seen:  # the views its steps read
                        seen.add(k.site.id)
                        todo.extend(conj(pc, f) for pc, cases in k.site.contributions for _, f in cases)
            found = self._read[group] = tuple(sorted(views))
        return found

    def prop(self, f: Formula) -> str:
        """The 0-ary relation that holds when f does (rules emitted once)."""
        name = self._prop.get(f.id)
        if name is not None:
            return name
        self.limits.check()
        label = self.logic.labels.get(f.id, "cond")
        if f.kind == "lit" and isinstance(f.key, CmpLit):
            label = "compare"
        name = self.props.name(f.id, f"{label}_{len(self._prop) + 1}")
        self._prop[f.id] = name
        head = Atom(name)
        if f.kind == "or":
            for p in _moves_factored([self.globalized(p) for p in f.parts]):
                b = self.body(p)
                if b is not None:
                    self.rules.append(Rule(head, tuple(b)))
        elif f.kind == "lit" and isinstance(f.key, CmpLit):
            self.compare_rules(head, f.key)
        elif f.kind == "not":
            self.rules.append(Rule(head, tuple(self.literal(f))))
        else:
            b = self.body(f)
            if b is not None:
                self.rules.append(Rule(head, tuple(b)))
        return name

    # ------------------------------------------------------------ compiled functions
    def horn_const(self, v) -> Const:
        return self.logic.horn.const_of(v)

    def horn_term(self, t: Term) -> Term:
        """A term of the compiled rules (tgpl.lowering.horn) as a GDL term (KIF folds case: variables lower case)."""
        if isinstance(t, Var):
            return Var(t.name.lower())
        if not isinstance(t, Const):
            return t
        if t.name.startswith("#o:"):
            return self.obj(t.name[3:])
        if t.name.startswith("#p:"):
            return Const(self.roles[int(t.name[3:])])
        if t.name.lstrip("-").isdigit():
            return self.value(float(t.name))
        return t

    def horn_relation(self, rel: str) -> str:
        """The GDL name of a relation of the compiled rules: `makesfour`, `run_loop`, `plus`, ..."""
        if rel.startswith("#"):
            return self.props.name(("horn", rel), table_name(rel))
        function, part = rel.split("|", 1)
        part, _ = part.rsplit("@", 1)
        name = function.split("@")[0].split(".")[-1]
        text = name if part == "result" else f"{name}_{part.rstrip('0123456789')}"
        return self.props.name(("horn", rel), text)

    def horn_literal(self, x: Literal, contexts: dict[int, tuple]) -> Literal:
        if isinstance(x, Not):
            return Not(self.horn_literal(x.literal, contexts))
        if isinstance(x, Distinct):
            return Distinct(self.horn_term(x.left), self.horn_term(x.right))
        args = tuple(self.horn_term(a) for a in x.args)
        if x.relation.startswith("#read:"):
            attr, ctx = x.relation[6:].rsplit("@", 1)
            vid = dict(contexts[int(ctx)]).get(attr)
            if vid is None:
                return Atom("true", (Func(self.attr(attr), args),))
            return Atom(self.view_relation(vid), args)
        return Atom(self.horn_relation(x.relation), args)

    def horn_rules(self) -> list[Rule]:
        """The rules of the compiled functions called, and the tables they read (tgpl.lowering.horn)."""
        if not self._horn_demand:
            return []
        hc = self.logic.horn
        reads = relaxed_reads(hc, list(self.logic.fluents.values()))
        with tables_refused():
            compiled = instantiate(hc, self._horn_demand, reads)
        contexts = {i: ctx for ctx, i in self.logic.horn_contexts.items()}
        out = [Rule(self.horn_literal(r.head, contexts), tuple(self.horn_literal(x, contexts) for x in r.body))
               for r in compiled.rules]
        for rel, rows in compiled.tables.items():
            name = self.horn_relation(rel)
            out.extend(Rule(Atom(name, tuple(self.horn_term(t) for t in row))) for row in rows)
        return out

    def _constant(self, key) -> bool | None:
        """A comparison that every value of its fluents decides alike (`Moves >= 0`): its truth, else None.

        Without this, a write behind `!(Moves >= 0)` would give a rule that can make a
        fluent value the range analysis never found, one missing from `base`.
        """
        if not isinstance(key, CmpLit):
            return None
        found = self._constants.get(key, _MISSING)
        if found is _MISSING and (plan := self.line.chained(key.left, key.op, key.right)) is not None:
            found = self._constants[key] = decided(plan, self.line)  # too many combinations to try each
        if found is _MISSING:
            leaves = sorted(num_leaves(key.left) | num_leaves(key.right))
            seen = {bool(cmp_value(key, dict(zip(leaves, combo))))
                    for combo in itertools.product(*(self.logic.fluents[leaf].domain for leaf in leaves))}
            found = self._constants[key] = seen.pop() if len(seen) == 1 else None
        return found

    def compare_rules(self, head: Atom, key: CmpLit) -> None:
        plan = self.line.chained(key.left, key.op, key.right)
        if plan is not None:
            self.chains.compare(head, plan)
            return
        leaves = sorted(num_leaves(key.left) | num_leaves(key.right))
        for combo in itertools.product(*(self.logic.fluents[leaf].domain for leaf in leaves)):
            env = dict(zip(leaves, combo))
            if cmp_value(key, env):
                self.rules.append(Rule(head, tuple(
                    Atom("true", (self.fluent(self.logic.fluents[leaf], x),)) for leaf, x in env.items())))

    # ------------------------------------------------------------ values written
    def value_cases(self, fl: Fluent, v) -> list[tuple[Term, list[Literal]]]:
        """(the fluent's new value as a term, extra body literals) for each way v can be it."""
        out: list[tuple[Term, list[Literal]]] = []
        for x, f in cases_of(v):
            b = self.body(f)
            if b is None or x is UNDEF:
                continue
            out.extend((term, b + extra) for term, extra in self.written_terms(fl, x))
        return out

    def written_terms(self, fl: Fluent, x) -> list[tuple[Term, list[Literal]]]:
        """(the term, extra body literals) for each value the fluent gets when `x` (a concrete value or an
        opaque number, `Num`) is written to it: a number by its leaves' values in range, or by a successor
        chain; nothing for a number the fluent's range does not hold (written only where the game never is)."""
        if isinstance(x, Num):
            chain = self.successor_chain(fl, x)
            if chain is not None:
                return [chain]
            plan = self.line.chained(x)
            if plan is not None:
                return [self.chains.written(plan, fl.domain)]
            out = []
            leaves = sorted(x.leaves())
            for combo in itertools.product(*(self.logic.fluents[leaf].domain for leaf in leaves)):
                env = dict(zip(leaves, combo))
                y = x.value(env)
                if y is UNDEF or not any(_eq(y, d) for d in fl.domain):
                    continue
                extra = [Atom("true", (self.fluent(self.logic.fluents[leaf], z),)) for leaf, z in env.items()]
                out.append((self.fluent_value(fl, y), extra))
            return out
        if fl.numeric and not any(_eq(x, d) for d in fl.domain):
            return []
        return [(self.fluent_value(fl, literal_value(x)), [])]

    def successor_chain(self, fl: Fluent, x: Num) -> tuple[Term, list[Literal]] | None:
        """`fluent + k` or `fluent - k` (k = 1..3) on the fluent itself, over a range of integers, through the
        successor relation: `(true (count o ?n0)) (succ ?n0 ?n1)`, as GDL writes arithmetic."""
        if x.op not in ("+", "-") or len(x.args) != 2:
            return None
        a, k = x.args
        if not (isinstance(a, Num) and a.op == "fluent" and a.args == (fl.obj.name, fl.attr)):
            return None
        if isinstance(k, Num) or not float(k).is_integer() or not 1 <= float(k) <= 3:
            return None
        relation = self.successor(fl)
        if relation is None:
            return None
        names = [Var(f"n{i}") for i in range(int(k) + 1)]
        body: list[Literal] = [Atom("true", (Func(self.attr(fl.attr), (self.obj(fl.obj), names[0])),))]
        for m, n in zip(names, names[1:]):
            body.append(Atom(relation, (m, n) if x.op == "+" else (n, m)))
        return names[-1], body

    def successor(self, fl: Fluent) -> str | None:
        """The successor relation over a numeric attribute's range, if it is one range of integers
        shared by every object with that attribute (so the relation can never step out of it)."""
        if fl.attr in self._successors:
            return self._successors[fl.attr]
        name = None
        family = [g for g in self.logic.fluents.values() if g.attr == fl.attr]
        domains = {tuple(d for d in g.domain if d is not None) for g in family}
        if len(domains) == 1:
            dom = next(iter(domains))
            if dom and all(float(d).is_integer() for d in dom) and \
                    [int(d) for d in dom] == list(range(int(dom[0]), int(dom[-1]) + 1)):
                numeric_attrs = {g.attr for g in self.logic.fluents.values() if g.numeric}
                name = "succ" if len(numeric_attrs) == 1 else self.props.name(("succ", fl.attr), "succ_" + fl.attr)
                for lo, hi in zip(dom, dom[1:]):
                    self.numbers.append(Rule(Atom(name, (self.value(lo), self.value(hi)))))
        self._successors[fl.attr] = name
        return name

    # ------------------------------------------------------------ when fluents are written
    def next_is_view(self) -> dict[str, int]:
        """attribute -> the view that already is its next state: every path that writes the attribute read
        it through that view after its last write (Connect Four's board after the drop, which `MakesFour`
        reads). Its `next` is then one rule, `(<= (next (disc ?o ?v)) (disc_makesfour ?o ?v))`, instead of the
        same writes and frame spelled out twice."""
        found: dict[str, set] = {}
        for st in self.logic.states.values():
            for p in st.paths:
                if p.pc is FALSE:
                    continue
                for attr in {a for (_, a) in p.store}:
                    ok = attr in p.views and not any(a == attr for (_, a) in p.dirty)
                    found.setdefault(attr, set()).add(p.views[attr] if ok else None)
        return {a: next(iter(v)) for a, v in sorted(found.items()) if len(v) == 1 and None not in v}

    def segment(self, when: Formula) -> Formula:
        self.logic.labels.setdefault(when.id, "segment")
        return when

    def write_conditions(self, pairs: list[tuple[Formula, Formula]]) -> list[list[Literal]]:
        """Rule bodies for "one of these paths wrote it, in this case of what it wrote" ((path condition, case)
        pairs): the disjunction multiplied out and reduced when that is smaller (a disc dropped before the
        win check is written by every outcome of the check: one rule), else one rule per case, the paths'
        conditions shared as one relation (`segment_N`), so that the rules of the cells fold into one."""
        self.limits.check()
        pairs = [(self.globalized(pc), self.globalized(f)) for pc, f in pairs]
        whole = disj(*(conj(pc, f) for pc, f in pairs))
        small = minimize(whole, expand=True, check=self.limits.check) if whole.kind in ("or", "and") else whole
        if small is not whole:  # several terms are one relation: the value's own literals join it once
            b = self.body(self.segment(small) if small.kind == "or" else small)
            return [] if b is None else [b]
        by_case: dict[Formula, list[Formula]] = {}
        for pc, f in pairs:
            by_case.setdefault(f, []).append(pc)
        out = []
        for f, pcs in by_case.items():
            pc, b = self.body(self.segment(_any(pcs))), self.body(f)
            if pc is not None and b is not None:
                out.append(pc + [x for x in b if x not in pc])
        return out

    # ------------------------------------------------------------ the program
    def build(self) -> LoweredGame:
        with self.limits.during("lowering (emission)"):
            return self._build()

    def _build(self) -> LoweredGame:
        lg = self.logic
        check = self.limits.check
        R = self.rules
        header: list[Rule] = [Rule(Atom("role", (Const(r),))) for r in self.roles]
        if self.chance:  # GDL-II tells a player only its percepts: every player sees every move, dice included
            r, q, m = Var("r"), Var("q"), Var("m")
            header.append(Rule(Atom("sees", (r, Func(DID, (q, m)))),
                               (Atom("role", (r,)), Distinct(r, Const(RANDOM)), Atom("does", (q, m)))))
        # base and input
        for fl in lg.fluents.values():
            for v in fl.domain:
                header.append(Rule(Atom("base", (self.fluent(fl, literal_value(v)),))))
        controls = dict.fromkeys([*lg.states, *(p.control for st in lg.states.values() for p in st.paths)])
        for cs in controls:
            header.append(Rule(Atom("base", (self.control(cs),))))
        for r in lg.results:
            header.append(Rule(Atom("base", (self.result(r),))))
        move_texts: dict[str, str] = {}
        for m in lg.moves:
            term = self.move(m)
            if m.action is not None:  # random's (roll k) is no move of the runtime's (tgpl.lowering.chance)
                move_texts[str(term)] = m.text
            header.append(Rule(Atom("input", (Const(self.roles[m.player]), term))))
        for r in self.roles:
            header.append(Rule(Atom("input", (Const(r), Const("noop")))))
        # init
        for fl in lg.fluents.values():
            header.append(Rule(Atom("init", (self.fluent(fl, literal_value(fl.initial)),))))
        header.append(Rule(Atom("init", (self.control(self.logic.start),))))
        if self.u.result is not None:
            header.append(Rule(Atom("init", (self.result(tuple(tuple(x) for x in self.u.result)),))))
        # legal
        legal: list[Rule] = []
        for cs, st in lg.states.items():
            ctrl = Atom("true", (self.control(cs),))
            for m, f in st.legal:
                check()
                b = self.body(f)
                if b is None:
                    continue
                legal.append(Rule(Atom("legal", (Const(self.roles[m.player]), self.move(m))),
                                  tuple([ctrl] + [x for x in b if x != ctrl])))
            mover = len(self.roles) - 1 if len(cs) == 4 else cs[0]  # random, where it throws a die
            for q, r in enumerate(self.roles):
                if q != mover:
                    legal.append(Rule(Atom("legal", (Const(r), Const("noop"))), (ctrl,)))
        # next: the conditions under which a fluent gets a value, gathered from every path that writes it
        nxt: list[Rule] = []
        changed: dict[str, list[Rule]] = {}
        writes: dict[tuple, list[Formula]] = {}  # ("control" or "result", value, None) -> path conditions
        cells: dict[tuple, list[tuple[Formula, Formula]]] = {}  # (cell, value key) -> (path condition, case)
        values: dict[tuple, object] = {}
        same = self.next_is_view()
        steps: set[tuple] = set()  # every path a move can take: (control, index), one per way through a move
        always: dict[tuple, set[tuple]] = {}  # (cell, value key) or cell -> the paths that write it in any case
        for cs, st in lg.states.items():
            for i, p in enumerate(st.paths):
                if p.pc is FALSE:
                    continue
                check()
                steps.add((cs, i))
                for cell, v in sorted(p.store.items()):
                    if cell[1] in same:
                        continue  # next is the view (below)
                    for x, f in cases_of(v):
                        if x is not UNDEF and conj(p.pc, f) is not FALSE:
                            key = (cell, value_identity(x))
                            cells.setdefault(key, []).append((p.pc, f))
                            values[key] = x
                            if f is TRUE:
                                always.setdefault(key, set()).add((cs, i))
                                always.setdefault(cell, set()).add((cs, i))
                key = ("control", p.control, None)
                writes.setdefault(key, []).append(p.pc)
                if p.result is not None:
                    writes.setdefault(("result", p.result, None), []).append(p.pc)
        for key, pcs in writes.items():
            kind, what, _ = key
            head = Atom("next", (self.control(what) if kind == "control" else self.result(what),))
            for pc in self.write_conditions([(pc, TRUE) for pc in pcs]):
                nxt.append(Rule(head, tuple(pc)))
        # A write every move makes, whatever holds (Connect Four's disc count, +1 on every path of every
        # state), has the condition "a move is made", always true of a step: one rule `(next (discs ?o
        # ?n1)) (true (discs ?o ?n0)) (succ ?n0 ?n1)` and no frame, rather than the disjunction of every
        # path's condition, which the minimizer cannot see is always true (its literals are independent
        # to it), written twice (the value and `changed_`) and read by a frame. The paths of a state are
        # every way a legal move can go (a move that would stop with an error is never made, execute).
        written: dict[tuple, list[tuple[Formula, Formula]]] = {}
        for (cell, xkey), pairs in cells.items():
            fl = lg.fluents[cell]
            written.setdefault(cell, []).extend(pairs)
            conditions = [[]] if always.get((cell, xkey)) == steps else self.write_conditions(pairs)
            for pc in conditions:
                for term, extra in self.value_cases(fl, values[(cell, xkey)]):
                    nxt.append(Rule(Atom("next", (Func(self.attr(fl.attr), (self.obj(fl.obj), term)),)),
                                    tuple(pc + extra)))
        for cell, pairs in written.items():  # the frame keeps the fluent unless one of these holds
            fl = lg.fluents[cell]
            conditions = [[]] if always.get(cell) == steps else self.write_conditions(pairs)
            for pc in conditions:
                changed.setdefault(fl.attr, []).append(
                    Rule(Atom("changed_" + self.attr(fl.attr), (self.obj(fl.obj),)), tuple(pc)))
        frame: list[Rule] = []
        attrs = sorted({fl.attr for fl in lg.fluents.values()})
        for a in attrs:
            o, v = Var("o"), Var("v")
            if a in same:
                frame.append(Rule(Atom("next", (Func(self.attr(a), (o, v)),)),
                                  (Atom(self.view_relation(same[a]), (o, v)),)))
                continue
            if all(always.get(cell) == steps for cell, fl in lg.fluents.items() if fl.attr == a):
                continue  # every move writes every fluent of the attribute: no frame, no `changed_`
            body: list[Literal] = [Atom("true", (Func(self.attr(a), (o, v)),))]
            if a in changed:
                body.append(Not(Atom("changed_" + self.attr(a), (o,))))
            frame.append(Rule(Atom("next", (Func(self.attr(a), (o, v)),)), tuple(body)))
            frame.extend(dict.fromkeys(changed.get(a, [])))
        # terminal and goals
        end: list[Rule] = []
        if lg.results or self.u.result is not None:
            places = tuple(Var(f"place{i}") for i in range(self.u.players))
            end.append(Rule(Atom("terminal"), (Atom("true", (Func("result", places),)),)))
        results = list(lg.results)
        for ranking in results:
            if unscored(ranking, self.u.players):
                continue  # `winner {}` among several players: no goals (as the runtime's verify); alone, a loss
            for i, g in enumerate(goals_of_places(ranking, self.u.players)):
                end.append(Rule(Atom("goal", (Const(self.roles[i]), Const(str(g)))),
                                (Atom("true", (self.result(ranking),)),)))
        numbers = list(dict.fromkeys(self.numbers))
        extra = []
        for name, f in self.conditions.items():
            b = self.body(f)
            if b is not None:
                extra.append(Rule(Atom(name), tuple(b)))
        horn = self.horn_rules()
        with self.limits.during("lowering (generalisation)"):
            return self._generalized(legal + nxt + frame + end + extra + R + horn, header, numbers, move_texts)

    def _folded(self, body_rules: list[Rule], rows_of: dict[str, list[tuple]], tables: list[Rule]) -> list[Rule]:
        """Rounds of folding and merging (tgpl.lowering.generalize) until nothing changes, at most ROUNDS;
        the tables they make are added to `tables` and `rows_of` (every table the rules read)."""
        for _ in range(ROUNDS):  # merged relations make their users alike, and folded rules make relations alike
            # the tables: facts of relations no rule derives (folding keeps every relation it folds)
            derived = {r.head.relation for r in body_rules if not r.is_fact} | KEPT
            self.limits.check()
            body_rules, more = fold(body_rules, self.domain_of, body_tables=True,
                                    tables={k: v for k, v in rows_of.items() if k not in derived}, limits=self.limits)
            for r in more:
                rows_of.setdefault(r.head.relation, []).append(r.head.args)
            self.limits.check()
            body_rules, rows = merge_relations(body_rules, {k: v for k, v in rows_of.items() if k not in derived},
                                               self.limits)
            self.limits.check()
            for r in rows:
                rows_of.setdefault(r.head.relation, []).append(r.head.args)
            tables += more + rows
            if not more and not rows:
                break
        return body_rules

    def _generalized(self, body: list[Rule], header: list[Rule], numbers: list[Rule],
                     move_texts: dict[str, str]) -> LoweredGame:
        """The game's program: the rules of `body` generalised and folded (tgpl.lowering.generalize) after
        `header` and `numbers`."""
        lg = self.logic
        body_rules, class_facts = generalize(list(dict.fromkeys(body)), self.class_members(), self.limits)
        tables: list[Rule] = []
        rows_of: dict[str, list[tuple]] = {}  # every table the rules read: relation -> its rows
        for r in numbers + class_facts + [r for r in body_rules if r.is_fact]:
            rows_of.setdefault(r.head.relation, []).append(r.head.args)
        body_rules = self._folded(unfold_single_uses(body_rules, self.limits), rows_of, tables)
        # the path conditions still named per object (nullary, read once) give their rules to their readers,
        # which then fold across objects (generalize.unfold_single_uses); after the first rounds, so that
        # those that merged across objects stay one relation
        unfolded = unfold_single_uses(body_rules, self.limits)
        if len(unfolded) < len(body_rules):
            body_rules = self._folded(unfolded, rows_of, tables)
        rules = header + numbers + class_facts + tables + body_rules
        rules = list(dict.fromkeys(rules))
        program = Program(tuple(rules))
        stats = {
            "rules": len(program.rules),
            "relations": len(program.relations()),
            "fluents": len(lg.fluents) + 1,
            "moves": len(lg.moves),
            "control states": len(lg.states),
            "conditions": len(self._prop),
        }
        if self._horn_demand:
            stats["functions as relations"] = len({f for f, _ in self._horn_demand})
        return LoweredGame(program, self.roles, move_texts, stats, self)


def places_of(ranking: tuple, players: int) -> list[int | None]:
    """Each player's place in a ranking, 1 for the first: tied players share a place and the
    next place skips them (standard competition ranking), players the ranking leaves out share
    the last place. A ranking that names nobody places nobody (None): the game gets no goals.
    Rankings with the same places give the same goals (tgpl.frontend.outcomes.goals_of)."""
    place: dict[int, int] = {}
    ahead = 0
    for group in ranking:
        members = [p for p in dict.fromkeys(group) if p not in place]
        for p in members:
            place[p] = ahead + 1
        ahead += len(members)
    if not place:
        return [None] * players
    return [place.get(p, ahead + 1) for p in range(players)]


def goals_of_places(ranking: tuple, players: int) -> list[int]:
    """The goals of the places a ranking gives (`places_of`), as the runtime ranks: what the GDL's
    `(result ...)` term says, so that each term has one goal per role (decision 74). A ranking that
    names a player in two groups has other goals at the runtime (`goals_of` counts the player twice),
    yet the places of the first group the player is in: such a ranking comes from a path whose condition
    can never hold (`place[p] == 1` and `place[p] == 2`, a contradiction the symbolic execution left
    within a disjunction), and its goals, written by the ranking, gave a real ranking's term a second
    goal (tests/data/lowering/ranked_counts.tgpl)."""
    places = places_of(ranking, players)
    if places[0] is None:
        return goals_of([], players)
    order = sorted(set(places))
    return goals_of([[i for i, p in enumerate(places) if p == k] for k in order], players)


def _else_as_negation(cases: tuple) -> tuple:
    """A call's cases with its costliest one, when it costs more than all the others together, written as
    "none of the others": the cases of a call are exclusive (each is a way through the function) and cover
    every state the lowering admits (one where it would stop with an error is never reached, as for a bool
    call's false, execute._call_literal), so the two are the same relation. Tris's `WinCheck` returns null
    when "a is not null and a == b and b == c" fails, each `==` a disjunction over the three values; as
    "neither player holds the line" it reads only the two lines the other cases already spell out, and the
    equality relations go (tests/lowering/test_propnet_size.py)."""
    if len(cases) < 3 or any(v is UNDEF for v, _ in cases):
        return cases
    sizes = [_leaves(f) for _, f in cases]
    costliest = max(range(len(cases)), key=lambda i: sizes[i])
    if 2 * sizes[costliest] <= sum(sizes):
        return cases
    others = disj(*(f for i, (_, f) in enumerate(cases) if i != costliest))
    return tuple((v, neg(others) if i == costliest else f) for i, (v, f) in enumerate(cases))


def _leaves(f: Formula) -> int:
    """The literals of f's tree, every nested connective opened."""
    if f.kind == "lit":
        return 1
    return sum(_leaves(p) for p in f.parts)


def _any(pcs: list[Formula]) -> Formula:
    """The disjunction of path conditions, each kept whole (one rule per path, not per disjunct)."""
    unique = sorted(set(pcs), key=by_id)
    if len(unique) == 1:
        return unique[0]
    return Formula("or", tuple(unique))


def _eq(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return float(a) == float(b)


FACTORED_MOVES = 4  # terms alike but for their move, from which on the moves are one relation


def _moves_factored(parts: list[Formula]) -> list[Formula]:
    """Terms alike but for the move they make (`claimed cell k & control & four`, k = 1..225) as one term
    over "one of these moves" (`control & four & moved`), a relation of its own that every condition made
    of the same moves shares: five in a row's outcomes of a claim (win, draw, go on) and its counter step
    ground to one rule each per player, and the 225 moves once, not 225 rules each. Exact: the terms are
    the product of their common part and the disjunction of their moves."""
    groups: dict[frozenset, list[Formula]] = {}
    order: list = []
    for p in parts:
        parts_of = conjuncts(p)
        moves = [c for c in parts_of if c.kind == "lit" and isinstance(c.key, MoveLit)]
        key = frozenset(c for c in parts_of if c is not moves[0]) if len(moves) == 1 else None
        if not key:  # not one move, or the move alone (the disjunction of moves itself)
            order.append(p)
            continue
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(moves[0])
    out = []
    for item in order:
        if isinstance(item, Formula):
            out.append(item)
        elif len(groups[item]) >= FACTORED_MOVES:
            out.append(conj(*item, disj(*groups[item])))
        else:
            out.extend(conj(*item, m) for m in groups[item])
    return out


def _before_move(f: Formula) -> Formula:
    """f with every read through a view read from the state before the move instead."""
    if f.kind == "lit":
        k = f.key
        return lit(FluentLit(k.obj, k.attr, k.value)) if isinstance(k, ViewLit) else f
    return rebuild(f, [_before_move(p) for p in f.parts])


def emit_gdl(logic: GameLogic, conditions: dict[str, Formula] | None = None,
             anywhere: dict[tuple, Formula] | None = None, limits: Limits | None = None) -> LoweredGame:
    """The GDL program; `conditions` adds 0-ary relations (a query's `tgpl_query`) that hold when their formula does;
    `anywhere` (Emitter.global_checks) replaces the calls of anchored checks by their union. `limits` (the
    command's, tgpl.limits) is checked as it goes."""
    return Emitter(logic, conditions, anywhere, limits).build()
