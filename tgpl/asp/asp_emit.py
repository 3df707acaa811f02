"""Any GDL game as a time-indexed ASP program: the plays of the game are its answer sets.

The reasoner (tgpl.asp.reasoner) grounds one state at a time and asks clingo
about it; this encoding instead unrolls the game over time, so that one solve
can search through whole plays. That is what bounded verification, planning and
queries over plays need. GDL's keywords become:

    (true F)        holds(F,T)          F is true at time T
    (does R M)      does(R,M,T)         R makes move M at time T
    (init F)        holds(F,0)
    (next F)        holds(F,T+1)        from the state and the moves at T
    (legal R M)     legal(R,M,T)
    (goal R N)      goal(R,N,T)
    terminal        terminal(T)

Every other relation keeps its name. One that depends on `true` or `does` (or on
`legal`, `goal`, `terminal`), through any chain of rules, gets a time argument
as its last argument; one that does not (`role`, `index`, `succ`, `base`,
`input`, ...) is *static* and stays untimed, so it is grounded once, not once
per step.

`emit_asp` writes the one-shot form, whose timed rules range over `time/1`;
the fixed part `asp_play.lp` (`#const horizon`, `time(0..horizon)`, one legal
move per role at each step of a play that has not ended) turns it into the
generator of the plays up to a horizon. `encode_incremental` writes the same
rules as clingo multi-shot parts (`#program base.` for time 0,
`#program step(t).` for the step from t-1 to t), which bounded verification
(tgpl.asp.bounded) grounds one step at a time.

Names follow tgpl.asp.gdl_to_asp.ClingoNames, with the encoding's own names
(`holds`, `time`, `t`, `horizon`, `ended`, `steps`) reserved: a GDL name equal
to one of them, like a name that is not a clingo identifier, gets a fresh
`gdl_n<k>` name, listed in the header. The output depends only on the program:
the same program gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tgpl.asp.gdl_to_asp import ClingoNames, _variable
from tgpl.asp.tables import join_tables, table_relations
from tgpl.lowering.ir import Atom, Distinct, Literal, Not, Program, Rule, Term, expand_or

RESERVED = frozenset({"holds", "time", "t", "horizon", "ended", "steps"})
"""Names the encoding and its fixed parts (asp_play.lp, asp_bounded.lp) use as they are.

Other names in the fixed parts start with `gdl_`, which no GDL name keeps.
"""

STATE_KEYWORDS = frozenset({"legal", "goal", "terminal"})
"""Always timed: they describe a state even when a game's rules for them read no fluent."""

TIME_VARIABLE = "T"


@dataclass(frozen=True)
class RelationKinds:
    """Which relations of a game get a time argument, and why.

    static: independent of `true` and `does` (no time argument);
    state: depend on `true` (or are legal/goal/terminal) but not on `does`;
    moving: depend on `does` (only `next` and its helpers may).
    `true`, `does`, `init` and `next` are none of these: they become holds/does.
    """

    static: frozenset[str]
    state: frozenset[str]
    moving: frozenset[str]

    @classmethod
    def of(cls, program: Program) -> RelationKinds:
        uses: dict[str, set[str]] = {}
        for rule in program.rules:
            used = uses.setdefault(rule.head.relation, set())
            used.update(atom.relation for atom, _ in rule.body_atoms())
        relations = set(program.relations())
        special = {"true", "does", "init", "next"}

        def reaches(start: str, targets: set[str]) -> bool:
            seen, todo = set(), [start]
            while todo:
                r = todo.pop()
                if r in targets:
                    return True
                if r not in seen:
                    seen.add(r)
                    todo.extend(uses.get(r, ()))
            return False

        moving = {r for r in relations - special if reaches(r, {"does"})}
        state = {r for r in relations - special - moving if r in STATE_KEYWORDS
                 or reaches(r, {"true"} | set(STATE_KEYWORDS))}
        static = relations - special - moving - state
        return cls(frozenset(static), frozenset(state), frozenset(moving))

    def timed(self, relation: str) -> bool:
        return relation in self.state or relation in self.moving or relation in ("true", "does")


@dataclass(frozen=True)
class AspEncoding:
    """An encoding's text with what reading its models needs: the name map and the roles in order."""

    text: str
    names: ClingoNames
    roles: tuple[Term, ...]
    kinds: RelationKinds


def emit_asp(program: Program) -> str:
    """The one-shot time-indexed ASP program of a GDL game (load it with asp_play.lp to get plays)."""
    return encode_asp(program).text


def encode_asp(program: Program, check: Callable[[], None] | None = None) -> AspEncoding:
    """`emit_asp` with the name map that decodes its models. `check` (the command's limits, tgpl.limits) is
    called at each rule and while tables are joined (tgpl.asp.tables)."""
    kinds = RelationKinds.of(program)
    names = ClingoNames(RESERVED)
    writer = _Writer(names, kinds, guard=True)
    t = TIME_VARIABLE
    groups = _groups(program, kinds, check)
    sections = [
        ("static relations: independent of true and does, no time argument",
         [writer.rule(r, t, t) for r in groups["static"]]),
        ("the initial state: init, as holds at time 0", [writer.rule(r, t, "0") for r in groups["init"]]),
        ("the state at time T: relations that read the fluents (and legal, goal, terminal)",
         [writer.rule(r, t, t) for r in groups["state"]]),
        ("the joint move at time T: relations that read does",
         [writer.rule(r, t, t) for r in groups["moving"]]),
        ("the next state: next, as holds at time T+1", [writer.rule(r, t, f"{t}+1") for r in groups["next"]]),
    ]
    header = [
        "% A GDL game as a time-indexed ASP program (tgpl to-asp; tgpl.asp.asp_emit).",
        "%",
        "%   holds(F,T)    fluent F is true at time T: GDL's true; init gives T=0, next gives T+1",
        "%   does(R,M,T)   role R makes move M at time T",
        "%   legal(R,M,T)  goal(R,N,T)  terminal(T)",
        "%",
        "% Timed rules range over time/1, which the fixed part gives: with asp_play.lp",
        "% (#const horizon, time(0..horizon), one legal move per role at each step)",
        "% the answer sets are the plays of the game up to the horizon.",
        f"% Timed relations (last argument T): {_listing(kinds.state | kinds.moving)}.",
        f"% Static relations: {_listing(kinds.static)}.",
    ]
    header += _renamed(names)
    return AspEncoding(_join(header, sections), names, _roles(program), kinds)


def encode_incremental(program: Program, check: Callable[[], None] | None = None) -> AspEncoding:
    """The same rules as multi-shot parts: `base` holds time 0, `step(t)` the step from t-1 to t.

    Grounding `base` and then `step(1)`, ..., `step(n)` in turn gives exactly
    the one-shot encoding up to time n, without grounding any step twice.
    """
    kinds = RelationKinds.of(program)
    names = ClingoNames(RESERVED)
    writer = _Writer(names, kinds, guard=False)
    groups = _groups(program, kinds, check)
    sections = [
        ("#program base.\n% static relations", [writer.rule(r, "0", "0") for r in groups["static"]]),
        ("the initial state", [writer.rule(r, "0", "0") for r in groups["init"]]),
        ("the state at time 0", [writer.rule(r, "0", "0") for r in groups["state"]]),
        ("#program step(t).\n% the joint move at time t-1", [writer.rule(r, "t-1", "t-1") for r in groups["moving"]]),
        ("the state at time t: next from time t-1", [writer.rule(r, "t-1", "t") for r in groups["next"]]),
        ("the state at time t", [writer.rule(r, "t", "t") for r in groups["state"]]),
    ]
    header = ["% A GDL game as an incremental ASP program (tgpl.asp.asp_emit.encode_incremental)."]
    header += _renamed(names)
    return AspEncoding(_join(header, sections, keep_empty=True), names, _roles(program), kinds)


# ------------------------------------------------------------------ writing
def _groups(program: Program, kinds: RelationKinds, check: Callable[[], None] | None = None
            ) -> dict[str, list[Rule]]:
    groups: dict[str, list[Rule]] = {"static": [], "init": [], "state": [], "moving": [], "next": []}
    tables = table_relations(program)
    for rule in program.rules:
        if check is not None:
            check()
        r = rule.head.relation
        kind = r if r in ("init", "next") else "state" if r in kinds.state else "moving" if r in kinds.moving \
            else "static"
        for one in expand_or(rule):
            # a timed rule joins its tables away: see tgpl/asp/tables.py for why gringo needs it
            groups[kind].extend([one] if kind == "static" else join_tables(one, tables, check))
    return groups


def _join(header: list[str], sections: list[tuple[str, list[str]]], keep_empty: bool = False) -> str:
    out = "\n".join(header) + "\n"
    for title, lines in sections:
        if lines or keep_empty:
            out += "\n" + "\n".join(("% " + title if not title.startswith("#") else title).splitlines()) + "\n"
            out += "".join(line + "\n" for line in lines)
    return out


def _listing(relations) -> str:
    return ", ".join(sorted(relations)) or "none"


def _renamed(names: ClingoNames) -> list[str]:
    renamed = names.renamed()
    if not renamed:
        return []
    return ["% Renamed (not a clingo identifier, or a name the encoding uses):"] + [
        f"%   {asp} = {gdl}" for asp, gdl in sorted(renamed.items(), key=lambda kv: int(kv[0][len("gdl_n"):]))]


def _roles(program: Program) -> tuple[Term, ...]:
    return tuple(dict.fromkeys(a.args[0] for a in program.facts("role") if a.args))


class _Writer:
    """One `or`-free GDL rule as one clingo rule, at given times.

    `at` is the time of the body (and of a timed head), `head_at` the time of a
    holds/1 head (init, next). With `guard`, a timed rule whose body binds no
    time gets `time(T)`, and a next rule `time(T+1)`, so that grounding stays
    within the horizon.
    """

    def __init__(self, names: ClingoNames, kinds: RelationKinds, guard: bool):
        self.names = names
        self.kinds = kinds
        self.guard = guard

    def rule(self, rule: Rule, at: str, head_at: str) -> str:
        self.variables = {}
        for i, v in enumerate(rule.variables()):
            name = _variable(v.name, i)
            self.variables[v.name] = f"_V{i}" if name == TIME_VARIABLE else name
        head_relation = rule.head.relation
        if head_relation in ("init", "next"):
            head = self._atom("holds", rule.head.args, head_at)
        else:
            timed = at if self.kinds.timed(head_relation) else None
            head = self._atom(self.names.functor(head_relation), rule.head.args, timed)
        body = [self._literal(lit, at) for lit in rule.body]
        if self.guard:
            timed_head = head_relation == "next" or self.kinds.timed(head_relation)
            bound = any(positive and self.kinds.timed(atom.relation) for atom, positive in rule.body_atoms())
            if timed_head and not bound:
                body.append(f"time({at})")
            if head_relation == "next":
                body.append(f"time({head_at})")
        return f"{head} :- {', '.join(body)}." if body else f"{head}."

    def _literal(self, lit: Literal, at: str) -> str:
        if isinstance(lit, Atom):
            name = "holds" if lit.relation == "true" else self.names.functor(lit.relation)
            return self._atom(name, lit.args, at if self.kinds.timed(lit.relation) else None)
        if isinstance(lit, Distinct):
            return f"{self._term(lit.left)} != {self._term(lit.right)}"
        if isinstance(lit, Not):
            inner = lit.literal
            if isinstance(inner, Distinct):
                return f"{self._term(inner.left)} = {self._term(inner.right)}"
            if isinstance(inner, Atom):
                return "not " + self._literal(inner, at)
        raise ValueError(f"cannot translate literal '{lit}' (expand 'or' first)")

    def _atom(self, name: str, args: tuple[Term, ...], at: str | None) -> str:
        """`name` is already the clingo name; `at` the time argument of a timed atom."""
        texts = [self._term(a) for a in args] + ([at] if at is not None else [])
        return f"{name}({','.join(texts)})" if texts else name

    def _term(self, term: Term) -> str:
        return self.names.term_text(term, self.variables)
