"""GDL rules as clingo rules, and GDL names as clingo names and back.

GDL and ASP agree on the meaning of a stratified program, so each GDL rule
becomes one clingo rule per disjunct of its body (`or` is expanded):

    (<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))
    legal(W,mark(X,Y)) :- true(cell(X,Y,b)), true(control(W)).

`(distinct a b)` is `a != b`, `(not (distinct a b))` is `a = b`. Relations keep
their names, so `true/1`, `does/2`, `legal/2`, ... are the same predicates the
fixed parts in the `.lp` files use.

Names: a GDL name that is a canonical integer (within clingo's 32 bits) is a
clingo number (goal values must compare as numbers), one that is a clingo
identifier stays as it is, and any other (`1st`, `x-y`, `not`, names starting
with the reserved `gdl_`) gets a fresh `gdl_n<k>` name; `ClingoNames` maps
both ways, so models decode back to exactly the game's terms.
"""

from __future__ import annotations

import re

import clingo

from tgpl.lowering.ir import Atom, Const, Distinct, Func, Literal, Not, Program, Rule, Term, Var, expand_or
from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.tables import table_relations, tables_joined

_IDENTIFIER = re.compile(r"[a-z][A-Za-z0-9_]*")
_RESERVED_PREFIX = "gdl_"
_CLINGO_WORDS = frozenset({"not"})


# `_rep` is private to clingo's Python API (5.5 to 5.8 have it): where a version lacks it, the symbol is the key.
_SYMBOL_REP = hasattr(clingo.Function("tgpl"), "_rep")


class ClingoNames:
    """The two-way map between GDL names and clingo names."""

    def __init__(self, reserved: frozenset[str] = frozenset()) -> None:
        # `reserved`: clingo names an encoding uses for itself (the time-indexed
        # encoding's `holds`, `time`, ...); a GDL name equal to one is renamed.
        self._reserved = _CLINGO_WORDS | reserved
        self._to_asp: dict[str, str] = {}
        self._from_asp: dict[str, str] = {}
        self._terms: dict[int | clingo.Symbol, Term] = {}  # by the symbol's `_rep`: `term` says why
        self._texts: dict[clingo.Symbol, str] = {}

    def functor(self, name: str) -> str:
        """The clingo name of a relation, function or non-numeric constant."""
        known = self._to_asp.get(name)
        if known is not None:
            return known
        if _IDENTIFIER.fullmatch(name) and name not in self._reserved and not name.startswith(_RESERVED_PREFIX):
            asp = name
        else:
            asp = f"{_RESERVED_PREFIX}n{len(self._from_asp)}"
            self._from_asp[asp] = name
        self._to_asp[name] = asp
        return asp

    def renamed(self) -> dict[str, str]:
        """The clingo names given to GDL names that could not keep their own: clingo name -> GDL name."""
        return dict(self._from_asp)

    def gdl(self, asp_name: str) -> str:
        return self._from_asp.get(asp_name, asp_name)

    # ------------------------------------------------------------ symbols
    def symbol(self, term: Term) -> clingo.Symbol:
        """The clingo symbol of a ground term."""
        if isinstance(term, Const):
            number = _number(term)
            return clingo.Number(number) if number is not None else clingo.Function(self.functor(term.name))
        if isinstance(term, Func):
            return clingo.Function(self.functor(term.name), [self.symbol(a) for a in term.args])
        raise ValueError(f"'{term}' is not a ground term")

    def term(self, sym: clingo.Symbol) -> Term:
        """The GDL term of a symbol from a model (cached: models repeat the same symbols). The cache is keyed by
        the symbol's 64-bit representation, not the symbol: clingo makes each symbol once (equal symbols have one
        representation, which is what its equality compares), and a key of Python's own int spares the two calls
        into clingo that hashing and comparing a Symbol make. Pente 9x9's relaxed game, 2.0 M atoms of 6
        arguments decoded for narrowing: 10.7 s against 16.7 s keyed by the symbol."""
        key = sym._rep if _SYMBOL_REP else sym
        found = self._terms.get(key)
        if found is None:
            if sym.type is clingo.SymbolType.Number:
                found = Const(str(sym.number))
            elif sym.type is clingo.SymbolType.String:
                found = Const(sym.string)
            elif sym.arguments:
                found = Func(self.gdl(sym.name), tuple(self.term(a) for a in sym.arguments))
            else:
                found = Const(self.gdl(sym.name))
            self._terms[key] = found
        return found

    def text(self, sym: clingo.Symbol) -> str:
        """The KIF text of a symbol's GDL term (`term`), cached too: the translation validation compares a
        state's fluents as texts, two hundred a chess state."""
        found = self._texts.get(sym)
        if found is None:
            found = self._texts[sym] = str(self.term(sym))
        return found

    # --------------------------------------------------------------- text
    def term_text(self, term: Term, variables: dict[str, str]) -> str:
        if isinstance(term, Var):
            return variables[term.name]
        if isinstance(term, Const):
            return term.name if _number(term) is not None else self.functor(term.name)
        return f"{self.functor(term.name)}({','.join(self.term_text(a, variables) for a in term.args)})"

    def atom_text(self, atom: Atom, variables: dict[str, str], rename=None) -> str:
        """The atom; `rename(relation)` may give another predicate name (None: keep it)."""
        name = (rename and rename(atom.relation)) or self.functor(atom.relation)
        if not atom.args:
            return name
        return f"{name}({','.join(self.term_text(a, variables) for a in atom.args)})"


def rules_to_asp(program: Program, names: ClingoNames, drop_negation: bool = False,
                 tables: dict[str, list[Atom]] | None = None) -> str:
    """The program as clingo rules, one per line.

    With `drop_negation`, negative literals are left out: the result derives
    everything the game could ever derive, which is how the reasoner finds the
    fluents and moves of a game that has no `base`/`input`. Such a program is
    grounded with every `next` fed back as `true`, so its rules are recursive and
    their static tables are joined away first (tgpl/asp/tables.py says why:
    five in a row's window rule took minutes to ground, not milliseconds);
    `tables` gives the tables when `program` holds only some of the game's rules.
    """
    if drop_negation:
        program = tables_joined(program, table_relations(program) if tables is None else tables)
    lines = [_rule_text(plain, names, drop_negation) for rule in program.rules for plain in expand_or(rule)]
    return "\n".join(lines) + "\n"


LOOKAHEAD_PREFIX = "gdl_a_"
STATE_VIEW = ("legal", "goal", "terminal")


def lookahead_to_asp(program: Program, names: ClingoNames, state: str = "gdl_state") -> str:
    """`legal`, `goal` and `terminal` once more, of the state a joint move leads to.

    Every relation these three need that depends on `true` is copied under the
    name `gdl_a_<name>`, with `true(F)` read as `gdl_state(F)`: the successor's
    fluents (see gdl_state.lp). One answer set then holds a successor and what
    can be asked of it, so each move costs one solve, not two. Relations that do
    not depend on `true` are shared. GDL keeps `does` out of all three, so the
    copies never read a move.

    `state` is the clingo predicate the copies read as `true`: a batch of queries
    (gdl_batch.lp) has them read `next` itself, which spares a copy of every
    successor's fluents.
    """
    copied = lookahead_relations(program)

    def rename(name: str) -> str | None:
        if name == "true":
            return state
        if name in copied:
            return LOOKAHEAD_PREFIX + names.functor(name)
        return None

    lines: list[str] = []
    for rule in program.rules:
        if rule.head.relation in copied:
            for plain in expand_or(rule):
                lines.append(_rule_text(plain, names, False, rename))
    return "\n".join(lines) + "\n"


def lookahead_relations(program: Program) -> set[str]:
    """The relations `lookahead_to_asp` copies: `legal`, `goal`, `terminal` and those they need that
    depend on `true` (the others are shared by both copies)."""
    graph = DependencyGraph.of(program)
    copied = {r for r in graph.needed(STATE_VIEW) if r in STATE_VIEW or graph.path(r, "true") is not None}
    copied.discard("true")
    return copied


def rule_text(rule: Rule, names: ClingoNames, rename=None) -> str:
    """One rule without `or` as a clingo rule; `rename(relation)` may give another predicate name."""
    return _rule_text(rule, names, False, rename)


def _rule_text(rule: Rule, names: ClingoNames, drop_negation: bool, rename=None) -> str:
    variables = {v.name: _variable(v.name, i) for i, v in enumerate(rule.variables())}
    head = names.atom_text(rule.head, variables, rename)
    body = []
    for lit in rule.body:
        text = _literal_text(lit, names, variables, drop_negation, rename)
        if text:
            body.append(text)
    return f"{head} :- {', '.join(body)}." if body else f"{head}."


def _literal_text(lit: Literal, names: ClingoNames, variables: dict[str, str], drop_negation: bool, rename) -> str:
    if isinstance(lit, Atom):
        return names.atom_text(lit, variables, rename)
    if isinstance(lit, Distinct):
        return f"{names.term_text(lit.left, variables)} != {names.term_text(lit.right, variables)}"
    if isinstance(lit, Not):
        inner = lit.literal
        if isinstance(inner, Distinct):
            return f"{names.term_text(inner.left, variables)} = {names.term_text(inner.right, variables)}"
        if drop_negation:
            return ""
        if isinstance(inner, Atom):
            return "not " + names.atom_text(inner, variables, rename)
    raise ValueError(f"cannot translate literal '{lit}' (expand 'or' first)")


def _number(const: Const) -> int | None:
    """The clingo number of a canonical integer within clingo's 32 bits; None otherwise."""
    if const.is_int:
        value = int(const.name)
        if -(2**31) <= value < 2**31:
            return value
    return None


def _variable(name: str, index: int) -> str:
    """`?x` is `X`, `?row` is `Row`; any other name is `_V<index>`, which no GDL name becomes."""
    if _IDENTIFIER.fullmatch(name):
        return name[0].upper() + name[1:]
    return f"_V{index}"
