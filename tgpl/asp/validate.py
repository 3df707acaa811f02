"""The GDL validator: every restriction of the GDL specification, as diagnostics.

A GGP player given an invalid game fails in ways that are hard to trace back
to a rule (a prover loops, a propnet is incomplete, a goal is missing), so the
lowering's output and hand-written games are checked here first, with the
location of the offending rule, literal or term:

- safety: every variable of a rule occurs in a positive atom of its body (an
  `or` binds a variable when each of its disjuncts does);
- stratified negation: no cycle of the dependency graph goes through `not`;
- the recursion restriction of the GDL specification (Love et al., 2008, def. 15):
  in a rule for p, every argument of a body atom in a cycle with p is ground,
  an argument of the head, or a variable bound by a positive atom outside the cycle;
- keywords: `role` only in facts; `true` and `does` never in a head; `init`,
  `next`, `base` and `input` never in a body; `init`, `base` and `input`
  independent of `true` and `does`; `legal`, `goal` and `terminal` independent of `does`;
- each relation keeps one arity, the keywords theirs (`legal/2`, `terminal/0`, ...);
- each function symbol keeps one arity, wherever its terms are nested (ggp-base's
  prover unifies `(rank a)` with `(rank a b)` and fails on the reverse); a GDL
  keyword is never a function; a name that is both a function and a relation, or
  both a function and a constant, is legal GDL but gets a warning (ggp-base's
  validator warns about the first);
- names are KIF words (letters, digits and `!$%&*+-./<=>?@_~`, as GGP readers
  split symbols at white space only), and a relation or function is not a number;
- goal values are integers in 0..100;
- terms cannot grow without bound through the state or the moves (tgpl.asp.finite);
- the game's rules have at most `max_ground` ground instances, bounded before
  anything grounds them (tgpl.asp.estimate): clingo's grounding cannot be interrupted;
  a game over it that can be played one state at a time (tgpl.asp.per_state) gets a
  warning instead, see `_ground_size`;
- `role`, `init`, `legal`, `next`, `goal` and `terminal` are defined (an error
  otherwise) and `base` and `input` too (a warning: they are optional in GDL);
- a game otherwise valid that declares `base` or `input` lists in them every
  fluent and move its relaxed game can make (tgpl.asp.declared), where that can be
  grounded (a game played one state at a time gets a warning instead).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tgpl.frontend.diagnostics import Diagnostic, Diagnostics, Span
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Literal, Not, Or, Program, Rule, Term, Var, is_ground
from tgpl.asp.declared import undeclared
from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.estimate import MAX_GROUND, too_large
from tgpl.asp.finite import unbounded_terms
from tgpl.asp.kif import KEYWORDS as KIF_KEYWORDS

KEYWORD_ARITY = {
    "role": 1, "base": 1, "input": 2, "init": 1, "true": 1, "does": 2,
    "next": 1, "legal": 2, "goal": 2, "terminal": 0, "sees": 2,
}
REQUIRED = ("role", "init", "legal", "next", "goal", "terminal")
RECOMMENDED = ("base", "input")
NEVER_IN_HEAD = ("true", "does")
NEVER_IN_BODY = ("init", "next", "base", "input", "sees")
_KIF_WORD = re.compile(r"[A-Za-z0-9!$%&*+\-./<=>?@_~]+")
"""A KIF word of normal characters (KIF's `\\` escapes are not GDL: no GGP reader takes them)."""
_KIF_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
INDEPENDENT = {
    "init": ("true", "does"), "base": ("true", "does"), "input": ("true", "does"),
    "legal": ("does",), "goal": ("does",), "terminal": ("does",),
}


def validate(program: Program, path: str = "<gdl>", max_ground: int | None = MAX_GROUND,
             grounding: str = "auto") -> list[Diagnostic]:
    """Every violation found, sorted by location; `path` locates "missing" diagnostics.

    max_ground: the ground rule instances the game may have (tgpl.asp.estimate), checked before
    the base/input check grounds it; None checks no bound. grounding: how the game will be
    grounded (tgpl.asp.reasoner.MODES), which decides what a game over max_ground gets (`_ground_size`);
    "per-state" with no bound leaves the base/input check out (a warning), as over the bound: the
    lowering's games played one state at a time (chess) have a relaxed game far too large to ground.
    """
    diags = Diagnostics()
    graph = DependencyGraph.of(program)
    components = graph.components()
    for rule in program.rules:
        _safety(rule, diags)
        _keywords(rule, graph, diags)
        _negation(rule, graph, components, diags)
        _recursion(rule, graph, components, diags)
        _goal_value(rule, diags)
    _vocabulary(program, diags)
    _presence(program, path, diags)
    _gdl_ii(program, path, diags)
    if not diags.has_errors:  # before anything grounds it: an infinite game would ground for ever
        unbounded_terms(program, diags)
    over = False
    if not diags.has_errors and max_ground is not None:  # before the base/input check grounds it
        found = _ground_size(program, path, max_ground, grounding)
        diags.extend(found)
        over = bool(found)
    if not diags.has_errors:
        if over and _declares(program):
            diags.warning(Span(path, 1, 1, 1, 1), _UNCHECKED.format(max_ground))
        elif grounding == "per-state" and max_ground is None and _declares(program):
            diags.warning(Span(path, 1, 1, 1, 1), _UNCHECKED_PER_STATE)
        else:
            diags.extend(undeclared(program, path))
    return diags.sorted()


_UNCHECKED = ("base and input are not checked: the check grounds the game's relaxed game (every fluent it can "
              "make true at once), which the game's bound bounds, and that is over --max-ground ({:,}); "
              "a fluent or move missing from them is still an error in play")
_UNCHECKED_PER_STATE = ("base and input are not checked: the game is played one state at a time, and the check "
                        "grounds its relaxed game (every fluent it can make true at once), whose size is not "
                        "bounded here; a fluent or move missing from them is still an error in play")


def _declares(program: Program) -> bool:
    return bool({"base", "input"} & program.defined())


def _ground_size(program: Program, path: str, max_ground: int, grounding: str) -> list[Diagnostic]:
    """Nothing when the game's bound is within max_ground; otherwise what it means for `grounding`.

    "once" refuses (an error): the game is grounded whole. "auto" refuses a game that declares
    `base` or `input`, as before per-state grounding existed: their check grounds the relaxed game
    (tgpl.asp.declared), which is what the bound bounds, so it cannot run; a game without them has
    no such check, and gets a warning that it is played one state at a time. "per-state" always
    warns, and the base/input check is left out with a warning of its own (validate): the reasoner
    checks them in play instead (a fluent outside base, a legal move outside input is an error).
    """
    declares = _declares(program)
    per_state = grounding == "per-state" or (grounding == "auto" and not declares)
    remedy = None
    if grounding == "auto" and declares:  # the lowering's games played per state declare them (chess)
        remedy = ("--grounding per-state plays it one state at a time, base and input then checked in play "
                  "rather than here; a larger --max-ground grounds it anyway")
    return too_large(program, max_ground, path, per_state=per_state, remedy=remedy)


def _where(node, fallback: Span | None) -> Span:
    span = getattr(node, "span", None) or fallback
    return span if span is not None else Span("<gdl>", 1, 1, 1, 1)


# ------------------------------------------------------------------ safety
def _bound(lit: Literal) -> set[str]:
    """Variables a literal binds: those of a positive atom; for `or`, those every disjunct binds."""
    if isinstance(lit, Atom):
        return {v.name for v in lit.variables()}
    if isinstance(lit, Or):
        sets = [_bound(sub) for sub in lit.literals]
        return set.intersection(*sets) if sets else set()
    return set()


def _safety(rule: Rule, diags: Diagnostics) -> None:
    bound: set[str] = set()
    for lit in rule.body:
        bound |= _bound(lit)
    for var in rule.variables():
        if var.name not in bound:
            diags.error(_where(var, rule.span),
                        f"unsafe rule: variable '?{var.name}' does not occur in a positive literal of the body")


# ---------------------------------------------------------------- keywords
def _keywords(rule: Rule, graph: DependencyGraph, diags: Diagnostics) -> None:
    head = rule.head.relation
    if head == "role" and rule.body:
        diags.error(_where(rule.head, rule.span), "'role' must be given by facts only, not by a rule")
    if head in NEVER_IN_HEAD:
        diags.error(_where(rule.head, rule.span), f"'{head}' cannot appear in the head of a rule")
    for atom, _ in rule.body_atoms():
        if atom.relation in NEVER_IN_BODY:
            diags.error(_where(atom, rule.span), f"'{atom.relation}' cannot appear in the body of a rule")
    for forbidden in INDEPENDENT.get(head, ()):
        for atom, _ in rule.body_atoms():
            chain = [atom.relation] if atom.relation == forbidden else graph.path(atom.relation, forbidden)
            if chain is not None:
                via = " -> ".join([head] + ([forbidden] if atom.relation == forbidden else chain))
                diags.error(_where(atom, rule.span), f"'{head}' cannot depend on '{forbidden}': {via}")
                break


# ---------------------------------------------------------------- negation
def negation_cycles(program: Program) -> list[Diagnostic]:
    """The negation cycles `validate` reports, alone, sorted by location: what decides whether the lowering
    compiles a game's moves again (tgpl.lowering.compiled.compile_game), asked before its costly repair, without
    the other checks (the terms' growth above all)."""
    diags = Diagnostics()
    graph = DependencyGraph.of(program)
    components = graph.components()
    for rule in program.rules:
        _negation(rule, graph, components, diags)
    return diags.sorted()


def _negation(rule: Rule, graph: DependencyGraph, components: dict[str, int], diags: Diagnostics) -> None:
    head = rule.head.relation
    for atom, positive in rule.body_atoms():
        if positive or not graph.in_cycle(head, atom.relation, components):
            continue
        hops = [head, "not " + atom.relation]
        back = graph.path(atom.relation, head) if atom.relation != head else [head]
        for a, b in zip(back, back[1:]):
            hops.append(("not " if graph.edges[a][b] else "") + b)
        diags.error(_where(atom, rule.span), f"negation cycle: {' -> '.join(hops)}", code="negation-cycle",
                    about=tuple(hops))


# --------------------------------------------------------------- recursion
def _recursion(rule: Rule, graph: DependencyGraph, components: dict[str, int], diags: Diagnostics) -> None:
    head = rule.head.relation
    outside: set[str] = set()  # variables bound by positive atoms not in a cycle with the head
    for lit in rule.body:
        if isinstance(lit, Atom) and not graph.in_cycle(head, lit.relation, components):
            outside |= {v.name for v in lit.variables()}
    for atom in _positive_atoms(rule.body):
        if not graph.in_cycle(head, atom.relation, components):
            continue
        for arg in atom.args:
            if is_ground(arg) or arg in rule.head.args or (isinstance(arg, Var) and arg.name in outside):
                continue
            diags.error(
                _where(arg, atom.span),
                f"recursion restriction: argument '{arg}' of the recursive literal '{atom}' must be ground, "
                "an argument of the head, or a variable bound by a literal outside the recursion",
            )


def _positive_atoms(body) -> list[Atom]:
    out: list[Atom] = []
    for lit in body:
        if isinstance(lit, Atom):
            out.append(lit)
        elif isinstance(lit, Or):
            out.extend(_positive_atoms(lit.literals))
    return out


# ------------------------------------------------------------------- goals
def _goal_value(rule: Rule, diags: Diagnostics) -> None:
    if rule.head.relation != "goal" or rule.head.arity != 2:
        return
    value = rule.head.args[1]
    if isinstance(value, Var):
        return  # bound by the body: only the game's play can tell
    if isinstance(value, Const) and value.is_int:
        if not 0 <= int(value.name) <= 100:
            diags.error(_where(value, rule.span), f"goal value {value.name} is not in 0..100")
        return
    diags.error(_where(value, rule.span), f"goal value '{value}' is not an integer in 0..100")


# -------------------------------------------------------------- vocabulary
@dataclass
class _Vocabulary:
    """The first use of each name, by kind: what one arity per symbol and the word checks need."""

    relations: dict[str, dict[int, Atom]] = field(default_factory=dict)  # name -> arity -> first atom
    functions: dict[str, dict[int, Func]] = field(default_factory=dict)
    constants: dict[str, Const] = field(default_factory=dict)

    @classmethod
    def of(cls, program: Program) -> _Vocabulary:
        vocabulary = cls()
        for rule in program.rules:
            vocabulary._literal(rule.head, rule.span)
            for lit in rule.body:
                vocabulary._literal(lit, rule.span)
        return vocabulary

    def _literal(self, lit: Literal, span: Span | None) -> None:
        if isinstance(lit, Atom):
            if lit.span is None and span is not None:
                lit = Atom(lit.relation, lit.args, span)
            self.relations.setdefault(lit.relation, {}).setdefault(lit.arity, lit)
            for arg in lit.args:
                self._term(arg, lit.span)
        elif isinstance(lit, Not):
            self._literal(lit.literal, lit.span or span)
        elif isinstance(lit, Or):
            for sub in lit.literals:
                self._literal(sub, lit.span or span)
        elif isinstance(lit, Distinct):
            self._term(lit.left, lit.span or span)
            self._term(lit.right, lit.span or span)

    def _term(self, term: Term, span: Span | None) -> None:
        if isinstance(term, Func):
            if term.span is None and span is not None:
                term = Func(term.name, term.args, span)
            self.functions.setdefault(term.name, {}).setdefault(len(term.args), term)
            for arg in term.args:
                self._term(arg, term.span)
        elif isinstance(term, Const) and term.name not in self.constants:
            self.constants[term.name] = term if term.span is not None or span is None else Const(term.name, span)


def _vocabulary(program: Program, diags: Diagnostics) -> None:
    vocabulary = _Vocabulary.of(program)
    # a GDL-II percept may name a move as `(does ?q ?m)` (GDL-II provers' tests do): a keyword as a function
    # only there is a warning, as the percept is a term no rule reads back
    outside = _Vocabulary.of(Program(tuple(_without_percept(rule) for rule in program.rules))).functions
    for name, uses in vocabulary.relations.items():
        first = next(iter(uses.values()))
        _word(name, "relation", first, diags)
        if name in KEYWORD_ARITY:
            for arity, atom in uses.items():
                if arity != KEYWORD_ARITY[name]:
                    diags.error(_where(atom, None), f"'{name}' takes {_args(KEYWORD_ARITY[name])}, found {arity}")
            continue
        for arity, atom in list(uses.items())[1:]:
            diags.error(_where(atom, None), f"relation '{name}' has {_args(arity)} here but {first.arity}{_at(first)}")
    for name, uses in vocabulary.functions.items():
        first = next(iter(uses.values()))
        _word(name, "function", first, diags)
        if name in KEYWORD_ARITY and name in outside:
            diags.error(_where(next(iter(outside[name].values())), None),
                        f"'{name}' is a GDL keyword: it names a relation, never a function")
        elif name in KEYWORD_ARITY:
            diags.warning(_where(first, None), f"'{name}' is a GDL keyword used as a function in a percept: "
                                               "GDL-II players read it as a term, GDL tools may refuse it")
        for arity, func in list(uses.items())[1:]:
            diags.error(_where(func, None),
                        f"function '{name}' has {_args(arity)} here but {len(first.args)}{_at(first)}")
        relation = vocabulary.relations.get(name)
        if relation is not None and name not in KEYWORD_ARITY:
            _overlap(name, first, f"a function with {_args(len(first.args))}",
                     next(iter(relation.values())), "a relation", diags)
        constant = vocabulary.constants.get(name)
        if constant is not None:
            _overlap(name, first, f"a function with {_args(len(first.args))}", constant, "a constant", diags)
    for name, const in vocabulary.constants.items():
        _word(name, "constant", const, diags)


def _without_percept(rule: Rule) -> Rule:
    """The rule with the percept of a `sees` head left out (a constant in its place)."""
    head = rule.head
    if head.relation != "sees" or head.arity != 2:
        return rule
    return Rule(Atom("sees", (head.args[0], Const("percept")), head.span), rule.body, rule.span)


def _word(name: str, kind: str, node, diags: Diagnostics) -> None:
    """GDL names are KIF words; a relation or function is not named by a number or a KIF keyword."""
    if not _KIF_WORD.fullmatch(name):
        diags.error(_where(node, None), f"{kind} '{_shown(name)}' is not a KIF word: "
                                        "use letters, digits and ! $ % & * + - . / < = > ? @ _ ~")
    elif name in KIF_KEYWORDS:
        diags.error(_where(node, None), f"'{name}' is a keyword and cannot be a {kind}")
    elif kind == "constant" and name.startswith("?"):
        diags.error(_where(node, None), f"constant '{name}' starts with '?', which makes it a variable")
    elif kind != "constant" and _KIF_NUMBER.fullmatch(name):
        diags.error(_where(node, None), f"'{name}' is a number and cannot name a {kind}")


def _overlap(name: str, one, one_kind: str, other, other_kind: str, diags: Diagnostics) -> None:
    """One name for two kinds of symbol: a warning at the later first use, naming the earlier."""
    (here, here_kind), (there, there_kind) = sorted(
        [(one, one_kind), (other, other_kind)], key=lambda x: _order(x[0]), reverse=True)
    diags.warning(_where(here, None), f"'{name}' is {here_kind} here but {there_kind}{_at(there)}")


def _order(node) -> tuple:
    span = node.span
    return (span.file, span.line, span.col) if span is not None else ("", 0, 0)


def _at(node) -> str:
    return f" at {node.span}" if node.span is not None else ""


def _shown(name: str) -> str:
    """The name with control and other invisible characters escaped, so the message shows them."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


def _args(n: int) -> str:
    return f"{n} argument{'s' * (n != 1)}"


# ------------------------------------------------------------------ GDL-II
RANDOM = Const("random")
"""GDL-II's chance role (Thielscher 2010): declared by `(role random)`, it picks uniformly among its legal moves."""


def _gdl_ii(program: Program, path: str, diags: Diagnostics) -> None:
    """GDL-II's own restrictions. `sees` (the percepts of each role after a joint move) is a keyword of arity 2
    that may depend on `true` and `does` like `next`, and is never in a body (KEYWORD_ARITY, NEVER_IN_BODY).
    Where `(role random)` is declared: random is chance, not a player, so it has no goal (an error), sees
    nothing (a percept for it is never given: a warning), and must have a legal rule (else it is stuck in every
    state). A `sees` head names a role: a constant that is not one is an error, as the percept would go to no one."""
    roles = {a.args[0] for a in program.facts("role") if a.args}
    chance = RANDOM in roles
    random_moves = False
    for rule in program.rules:
        head = rule.head
        who = head.args[0] if head.args else None
        if head.relation == "legal" and head.arity == 2 and (who == RANDOM or isinstance(who, Var)):
            random_moves = True
        if not chance or who != RANDOM:
            if head.relation == "sees" and head.arity == 2 and isinstance(who, (Const, Func)) and roles \
                    and who not in roles:
                diags.error(_where(who, rule.span), f"'{who}' is not a role: 'sees' gives percepts to roles")
            continue
        if head.relation == "goal" and head.arity == 2:
            diags.error(_where(who, rule.span),
                        "the 'random' role has no goal: it is chance, not a player (GDL-II)")
        elif head.relation == "sees" and head.arity == 2:
            diags.warning(_where(who, rule.span),
                          "the 'random' role sees nothing: it is chance, not a player, so this percept is never given")
    if chance and not random_moves and "legal" in program.defined():
        role = next(a for a in program.facts("role") if a.args and a.args[0] == RANDOM)
        diags.error(_where(role.args[0], role.span),
                    "the 'random' role has no legal rule: chance would have no move in any state (GDL-II)")


# ---------------------------------------------------------------- presence
def _presence(program: Program, path: str, diags: Diagnostics) -> None:
    defined = program.defined()
    top = Span(path, 1, 1, 1, 1)
    for name in REQUIRED:
        if name not in defined:
            diags.error(top, f"the game defines no '{name}'")
    for name in RECOMMENDED:
        if name not in defined:
            diags.warning(top, f"the game defines no '{name}'; GGP players that need it must compute it")


__all__ = ["validate", "KEYWORD_ARITY"]
