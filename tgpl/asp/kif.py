"""GDL in KIF, as ggp-base reads it: a reader into the IR and two emitters.

    (role xplayer)                      ; a fact
    (<= (line ?x) (row ?m ?x))          ; a rule: head, then the body's literals
    (<= (open) (true (cell ?m ?n b)))   ; `(open)` and `open` are the same proposition

Body literals are atoms, `(not L)`, `(distinct t1 t2)` and `(or L1 ... Ln)`;
`?name` is a variable; `;` starts a comment that runs to the end of the line.

**Case.** GDL is case-insensitive. ggp-base always folds its keywords (`role`,
`true`, `init`, ...) to lower case and, when told to be case-insensitive,
identifies constants and variables that differ only in case. The reader does
exactly that identification by folding every name (keywords, relations,
constants, variables) to lower case, so `(CELL 1 1 B)` and `(cell 1 1 b)` are
the same atom and `?X` is `?x`. The emitters therefore write lower case; they
refuse names that would not read back as themselves.

**Errors.** Malformed input raises `KifError` carrying one diagnostic per bad
top-level form (`path:line:col: error: message`); a bracket that is never
closed or closed too often stops the reading at once.

The infix emitter writes the notation of the thesis's chapter 2 listings,
`line(X) :- row(M,X)`, with `&` between literals, variables capitalised, `~`
for negation and `|` inside a parenthesised `or`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.frontend.sources import MAX_GDL_BYTES, read_source
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Literal, Not, Or, Program, Rule, Term, Var
from tgpl.verify.graph import collections_paused

KEYWORDS = frozenset({"<=", "not", "or", "distinct"})
"""Words with a meaning of their own in KIF: never a relation, function or constant."""

_DELIMITERS = frozenset("();")
_BLANKS = " \t\r\f\v"
"""White space between symbols, as ggp-base's reader splits them (Java's \\s): any other
character, a NUL or a no-break space included, is part of a symbol (and the validator
then refuses the symbol as not a KIF word)."""
_TOKEN = re.compile(rf"[{_BLANKS}]*(?:(\n)|(\()|(\))|;[^\n]*|([^{_BLANKS}\n();]+))")
"""One token with the blanks before it: a newline, a bracket, a comment or a symbol."""
_NEWLINE, _OPEN, _CLOSE = 1, 2, 3
MAX_NESTING = 200
"""Levels of brackets a file may nest: the validator and the translation to clingo walk terms
recursively, and this keeps them well inside Python's stack (docs/gdl.md)."""


class KifError(Exception):
    """Malformed KIF; `diagnostics` says where and why."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.header() for d in diagnostics))
        self.diagnostics = diagnostics


# ================================================================= reading
@dataclass(frozen=True, slots=True)
class _Sym:
    text: str  # folded to lower case
    span: Span


@dataclass(frozen=True, slots=True)
class _List:
    items: tuple[_Sym | _List, ...]
    span: Span


class _Bad(Exception):
    def __init__(self, span: Span, message: str):
        self.span = span
        self.message = message


def read_kif(text: str, path: str = "<string>") -> Program:
    """The program in `text`; raise KifError on malformed input.

    The garbage collector is paused meanwhile: the nodes form no cycles, and a large game
    (the lowered Connect Four, 30,000 lines) makes enough of them to set off collection
    after collection, each traversing them all again.
    """
    with collections_paused():
        return _read(text, path)


def _read(text: str, path: str) -> Program:
    forms = _parse(text.removeprefix("\ufeff"), path)
    rules: list[Rule] = []
    errors: list[Diagnostic] = []
    for form in forms:
        try:
            rules.append(_top(form))
        except _Bad as bad:
            errors.append(Diagnostic(Severity.ERROR, bad.span, bad.message))
    if errors:
        raise KifError(errors)
    return Program(tuple(rules))


def read_kif_file(path: str | Path) -> tuple[Program, str]:
    """The program in the file and its text (for rendering diagnostics).

    The file must be UTF-8 (a leading BOM is ignored) and at most MAX_GDL_BYTES;
    UnreadableFile propagates for the caller to report.
    """
    text = read_source(path, MAX_GDL_BYTES)
    return read_kif(text, str(path)), text


def _parse(text: str, path: str) -> list[_Sym | _List]:
    """The top-level S-expressions, with spans; unbalanced brackets raise KifError."""
    top: list[_Sym | _List] = []
    stack: list[tuple[list, int, int]] = []  # items, line and column of the '('
    line, line_start = 1, 0  # the offset where the current line starts

    def fail(span: Span, message: str) -> KifError:
        return KifError([Diagnostic(Severity.ERROR, span, message)])

    for match in _TOKEN.finditer(text):
        kind = match.lastindex
        if kind is None:  # a comment
            continue
        start = match.start(kind)
        if kind == _NEWLINE:
            line, line_start = line + 1, start + 1
            continue
        col = start - line_start + 1
        if kind == _OPEN:
            if len(stack) >= MAX_NESTING:
                raise fail(Span(path, line, col, line, col + 1),
                           f"nested too deeply: more than {MAX_NESTING} levels of brackets")
            stack.append(([], line, col))
        elif kind == _CLOSE:
            if not stack:
                raise fail(Span(path, line, col, line, col + 1), "unexpected ')': no '(' is open here")
            items, l0, c0 = stack.pop()
            node = _List(tuple(items), Span(path, l0, c0, line, col + 1))
            (stack[-1][0] if stack else top).append(node)
        else:
            word = match.group(kind)
            sym = _Sym(word.lower(), Span(path, line, col, line, col + len(word)))
            (stack[-1][0] if stack else top).append(sym)
    if stack:
        _, l0, c0 = stack[0]
        raise fail(Span(path, l0, c0, l0, c0 + 1), "'(' is never closed")
    return top


def _top(form: _Sym | _List) -> Rule:
    if isinstance(form, _List) and form.items and _is(form.items[0], "<="):
        if len(form.items) < 2:
            raise _Bad(form.span, "a rule needs a head: (<= head literal ...)")
        head = _sentence(form.items[1], "the head of a rule")
        return Rule(head, tuple(_literal(x) for x in form.items[2:]), form.span)
    if isinstance(form, _List) and form.items and isinstance(form.items[0], _Sym) and form.items[0].text in KEYWORDS:
        raise _Bad(form.span, f"a '{form.items[0].text}' literal cannot stand alone: expected a fact or a rule")
    head = _sentence(form, "a fact")
    return Rule(head, (), form.span)


def _sentence(node: _Sym | _List, what: str) -> Atom:
    if isinstance(node, _Sym):
        return Atom(_name(node, "a relation name"), (), node.span)
    if not node.items:
        raise _Bad(node.span, f"empty list '()' where {what} was expected")
    first = node.items[0]
    if isinstance(first, _List):
        raise _Bad(first.span, "expected a relation name, found a list")
    name = _name(first, "a relation name")
    return Atom(name, tuple(_term(x) for x in node.items[1:]), node.span)


def _literal(node: _Sym | _List) -> Literal:
    if isinstance(node, _List) and node.items and isinstance(node.items[0], _Sym):
        word, args = node.items[0].text, node.items[1:]
        if word == "not":
            if len(args) != 1:
                raise _Bad(node.span, f"'not' takes one literal, found {len(args)}")
            return Not(_literal(args[0]), node.span)
        if word == "distinct":
            if len(args) != 2:
                raise _Bad(node.span, f"'distinct' takes two terms, found {len(args)}")
            return Distinct(_term(args[0]), _term(args[1]), node.span)
        if word == "or":
            if not args:
                raise _Bad(node.span, "'or' needs at least one literal")
            return Or(tuple(_literal(a) for a in args), node.span)
        if word == "<=":
            raise _Bad(node.span, "a rule cannot appear inside a rule")
    return _sentence(node, "a literal")


def _term(node: _Sym | _List) -> Term:
    if isinstance(node, _Sym):
        if node.text.startswith("?"):
            if len(node.text) == 1:
                raise _Bad(node.span, "'?' needs a variable name after it")
            return Var(node.text[1:], node.span)
        return Const(_name(node, "a constant"), node.span)
    if not node.items:
        raise _Bad(node.span, "empty list '()' where a term was expected")
    first = node.items[0]
    if isinstance(first, _List):
        raise _Bad(first.span, "expected a function name, found a list")
    name = _name(first, "a function name")
    if len(node.items) == 1:
        raise _Bad(node.span, f"function term '({name})' has no arguments; write '{name}'")
    return Func(name, tuple(_term(x) for x in node.items[1:]), node.span)


def _name(sym: _Sym, role: str) -> str:
    """The symbol as `role` ("a relation name", "a function name", "a constant")."""
    if sym.text.startswith("?"):
        raise _Bad(sym.span, f"variable '{sym.text}' cannot be {role}")
    if sym.text in KEYWORDS:
        raise _Bad(sym.span, f"'{sym.text}' is a keyword and cannot be {role}")
    return sym.text


def _is(node: _Sym | _List, word: str) -> bool:
    return isinstance(node, _Sym) and node.text == word


# ================================================================= writing
def to_kif(program: Program, header: str = "") -> str:
    """The program as KIF: short rules on one line, longer ones a literal per line.

    Deterministic: rules keep their order; one-line rules and facts of one
    relation stay together, every longer rule is a paragraph of its own. A rule
    fits on one line when its body has fewer than three literals and the line
    80 characters or fewer.
    `header` lines become `;` comments at the top. Raise ValueError for a name
    that would not read back as itself (upper case, a keyword, a delimiter).
    """
    out: list[str] = [f"; {line}".rstrip() for line in header.splitlines()]
    if out:
        out.append("")
    _paragraphs(out, program.rules, _kif_rule)
    return "\n".join(out).rstrip("\n") + "\n"


def _kif_rule(rule: Rule) -> str:
    head = _kif(rule.head)
    if not rule.body:
        return head
    body = [_kif(lit) for lit in rule.body]
    line = f"(<= {head} {' '.join(body)})"
    if len(body) < 3 and len(line) <= 80:
        return line
    return "(<= " + head + "".join("\n    " + b for b in body) + ")"


def _kif(node) -> str:
    if isinstance(node, Var):
        return "?" + _checked(node.name, variable=True)
    if isinstance(node, Const):
        return _checked(node.name)
    if isinstance(node, (Func, Atom)):
        name = _checked(node.name if isinstance(node, Func) else node.relation)
        return f"({name} {' '.join(_kif(a) for a in node.args)})" if node.args else name
    if isinstance(node, Not):
        return f"(not {_kif(node.literal)})"
    if isinstance(node, Distinct):
        return f"(distinct {_kif(node.left)} {_kif(node.right)})"
    if isinstance(node, Or):
        return f"(or {' '.join(_kif(lit) for lit in node.literals)})"
    raise TypeError(f"not an IR node: {node!r}")


def _checked(name: str, variable: bool = False) -> str:
    bad = (
        not name
        or name != name.lower()
        or any(c.isspace() or c in _DELIMITERS for c in name)
        or (not variable and (name in KEYWORDS or name.startswith("?")))
    )
    if bad:
        raise ValueError(f"name {name!r} cannot be written in KIF so that it reads back the same")
    return name


def _paragraphs(out: list[str], rules, show) -> None:
    """One-line rules of one head relation in a block; a longer rule is a paragraph of its own."""
    previous: tuple[str, str] | None = None  # head relation, text
    for rule in rules:
        text = show(rule)
        together = previous is not None and previous[0] == rule.head.relation and "\n" not in previous[1] + text
        if previous is not None and not together:
            out.append("")
        out.append(text)
        previous = (rule.head.relation, text)


# ============================================================ infix writing
def to_infix(program: Program) -> str:
    """The program in the thesis's infix notation (chapter 2's listings).

    `line(X) :- row(M,X)`; a body of three literals or more, or a line over 80
    characters, puts each literal on its own line ending in ` &`, as the
    thesis's `row` listing does.
    """
    out: list[str] = []
    _paragraphs(out, program.rules, infix_rule)
    return "\n".join(out).rstrip("\n") + "\n"


def infix_rule(rule: Rule) -> str:
    head = _infix(rule.head)
    if not rule.body:
        return head
    body = [_infix(lit) for lit in rule.body]
    line = f"{head} :- {' & '.join(body)}"
    if len(body) < 3 and len(line) <= 80:
        return line
    return f"{head} :-\n    " + " &\n    ".join(body)


def _infix(node) -> str:
    if isinstance(node, Var):
        return _infix_var(node.name)
    if isinstance(node, Const):
        return node.name
    if isinstance(node, (Func, Atom)):
        name = node.name if isinstance(node, Func) else node.relation
        return f"{name}({','.join(_infix(a) for a in node.args)})" if node.args else name
    if isinstance(node, Not):
        return "~" + _infix(node.literal)
    if isinstance(node, Distinct):
        return f"distinct({_infix(node.left)},{_infix(node.right)})"
    if isinstance(node, Or):
        return "(" + " | ".join(_infix(lit) for lit in node.literals) + ")"
    raise TypeError(f"not an IR node: {node!r}")


def _infix_var(name: str) -> str:
    """`?x` is `X`, `?row` is `Row`; a name that cannot start upper case gets a `V`."""
    if name[:1].isalpha():
        return name[0].upper() + name[1:]
    return name if name.startswith("_") else "V" + name


def read_term(text: str, path: str = "<string>") -> Term:
    """One ground or non-ground term, e.g. a move typed by a user: `(mark 1 1)`."""
    forms = _parse(text.removeprefix("\ufeff"), path)
    if len(forms) != 1:
        span = forms[1].span if len(forms) > 1 else Span(path, 1, 1, 1, 1)
        raise KifError([Diagnostic(Severity.ERROR, span, f"expected one term, found {len(forms)}")])
    try:
        return _term(forms[0])
    except _Bad as bad:
        raise KifError([Diagnostic(Severity.ERROR, bad.span, bad.message)]) from None
