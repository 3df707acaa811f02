"""Source text to AST, with error recovery so one run reports every syntax error.

The parser is lark's LALR(1) with its contextual lexer, driven token by token
through lark's interactive parser so that errors can be repaired:
- where `;` would have been accepted, a missing `;` is inserted (the classic
  "expected ';'" after the previous token), then the offending token is retried;
- otherwise the offending token is skipped (panic mode);
- a new error is only reported after three tokens have been accepted since the
  last one, so one mistake gives one message instead of a cascade.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from tgpl.frontend import ast
from tgpl.frontend.builder import build_module
from tgpl.frontend.diagnostics import Diagnostic, Diagnostics, Severity, Span
from tgpl.frontend.unclosed import find_unclosed

GRAMMAR = Path(__file__).with_name("tgpl.lark")
MAX_SYNTAX_ERRORS = 50
# Levels of the syntax tree a file may nest (decision 75): expressions, statements and blocks, each
# operand of a chain such as `a + b + c` one level. The checker, the runtime's compiler and the
# lowering walk the tree recursively; this bound keeps them well inside Python's stack.
MAX_NESTING = 120
QUIET_TOKENS = 3

_FRIENDLY = {
    "NAME": "an identifier",
    "NUMBER": "a number",
    "STRING": "a string",
    "$END": "end of file",
}


@cache
def _parser() -> Lark:
    # cache=True: lark keeps the LALR tables it builds (a third of a second, every command) in a
    # file of the system's temporary folder, named after a hash of the grammar and these options,
    # and loads them from there while the grammar is unchanged.
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
    )


@cache
def _keywords() -> dict[str, str]:
    """Keyword text to terminal name, e.g. 'effect' -> 'EFFECT'."""
    return {
        t.pattern.value: t.name
        for t in _parser().terminals
        if t.pattern.type == "str" and t.pattern.value.isidentifier()
    }


def describe_terminal(name: str) -> str:
    if name in _FRIENDLY:
        return _FRIENDLY[name]
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "end of file"
    if tok.type == "NAME":
        return f"'{tok}'" if tok in _keywords() else f"identifier '{tok}'"
    if tok.type in ("NUMBER", "STRING"):
        return f"{tok.type.lower()} {tok}"
    return f"'{tok}'"


# The collection types, reserved words that a designer may well give a class (`class Table`): written
# where a name is, the parser wants their `<`, and the reason is that they are reserved.
GENERIC_TYPES = ("List", "Table", "Stack")


def _expected_list(names: set[str]) -> str:
    if {"NUMBER", "STRING", "NAME"} <= names and "IF" not in names:
        return ", expected an expression"
    shown = sorted({describe_terminal(n) for n in names})
    if not shown or len(shown) > 6:
        return ""
    if len(shown) == 1:
        return f", expected {shown[0]}"
    return ", expected " + ", ".join(shown[:-1]) + " or " + shown[-1]


@dataclass
class ParseResult:
    module: ast.Module | None
    diagnostics: list[Diagnostic]


class _Session:
    """One parse: drives the interactive parser and repairs the token stream."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.diags = Diagnostics()
        self.accepted = 0  # tokens accepted by the parser
        self.accepted_at_last_error = -(10**9)
        self.reported = 0
        self.previous: Token | None = None  # last accepted token
        self.skip_depth = 0  # > 0 while skipping an unexpected block
        # a reserved type word used as a name (a class named Table): reported once, at its first use,
        # with the other uses as a note, not one error per use
        self.reserved_uses: dict[str, tuple[int, list[Span]]] = {}

    # ------------------------------------------------------------ reporting
    def _span_of(self, tok: Token) -> Span:
        if tok.type == "$END" or tok.line is None:
            lines = self.text.splitlines() or [""]
            n = len(lines)
            return Span(self.file, n, len(lines[-1]) + 1, n, len(lines[-1]) + 2)
        return Span(self.file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)

    def _after_previous(self, fallback: Token) -> Span:
        prev = self.previous
        if prev is None or prev.end_line is None:
            return self._span_of(fallback)
        return Span(self.file, prev.end_line, prev.end_column, prev.end_line, prev.end_column + 1)

    def _report(self, span: Span, message: str) -> None:
        quiet = self.accepted - self.accepted_at_last_error < QUIET_TOKENS
        self.accepted_at_last_error = self.accepted
        if not quiet:
            self.reported += 1
            self.diags.error(span, message)

    # -------------------------------------------------------------- driving
    def _feed(self, ip, tok: Token) -> None:
        ip.feed_token(tok)
        self.accepted += 1
        self.previous = tok

    @staticmethod
    def _readings(tok: Token) -> list[Token]:
        """tok as a keyword, as lexed, and as a plain name: where both a keyword
        and a name may follow, the contextual lexer can only guess."""
        out = []
        kw = _keywords().get(tok.value)
        if kw and tok.type != kw:
            out.append(Token.new_borrow_pos(kw, tok.value, tok))
        out.append(tok)
        if kw and tok.type != "NAME":
            out.append(Token.new_borrow_pos("NAME", tok.value, tok))
        return out

    def _synthetic_semicolon(self, before: Token) -> Token:
        """A `;` placed right after the previous token, so spans stay well formed."""
        anchor = self.previous if self.previous is not None and self.previous.end_line else before
        line = anchor.end_line or anchor.line or 1
        col = anchor.end_column or anchor.column or 1
        pos = anchor.end_pos or 0
        return Token("SEMICOLON", ";", pos, line, col, line, col, pos)

    def _try_feed(self, ip, tok: Token, others_only: bool = False) -> bool:
        for candidate in self._readings(tok):
            if others_only and candidate.type == tok.type:
                continue
            if candidate.type in ip.accepts():
                self._feed(ip, candidate)
                return True
        return False

    def _recover(self, ip, tok: Token) -> bool:
        """Handle an unexpected token; False when parsing cannot go on."""
        if self.skip_depth:
            self.skip_depth += {"LBRACE": 1, "RBRACE": -1}.get(tok.type, 0)
            return tok.type != "$END"
        if tok.type != "$END" and self._try_feed(ip, tok, others_only=True):
            return True  # a keyword lexed as a name, or the reverse: not an error
        expected = ip.accepts()
        if "SEMICOLON" in expected and tok.type != "SEMICOLON":
            self._report(self._after_previous(tok), f"expected ';' before {describe_token(tok)}")
            self._feed(ip, self._synthetic_semicolon(tok))
            if tok.type == "$END":
                return True
            self._try_feed(ip, tok)
            return True
        if tok.type == "$END":
            self._report(self._span_of(tok), f"unexpected end of file{_expected_list(expected)}")
            return False
        prev = self.previous
        if prev is not None and prev.value in GENERIC_TYPES and prev.type != "NAME" and "NAME" not in expected:
            # `Table.N` where a class is named Table: the reason is the reserved word, not the token after it
            self._reserved_word_used(prev, tok, expected)
            self._unwind_or_skip(ip, tok)
            return True
        if "CLASS" in expected:  # the top level
            message = f"unexpected {describe_token(tok)} at top level: expected a directive or a definition"
        else:
            message = f"unexpected {describe_token(tok)}{_expected_list(expected)}"
        self._report(self._span_of(tok), message)
        self._unwind_or_skip(ip, tok)
        return True

    def _reserved_word_used(self, word: Token, tok: Token, expected) -> None:
        """A generic type's word where a name was meant: one error per word, later uses as its note."""
        span = self._span_of(word)
        seen = self.reserved_uses.get(word.value)
        if seen is not None:
            if span != self.diags.items[seen[0]].span and span not in seen[1]:
                seen[1].append(span)
            self.accepted_at_last_error = self.accepted
            return
        before = len(self.diags.items)
        self._report(span, f"'{word.value}' is a reserved word and cannot be used as a name "
                           f"(unexpected {describe_token(tok)} after it{_expected_list(expected)})")
        if len(self.diags.items) > before:
            self.reserved_uses[word.value] = (before, [])

    def _lexed_uses(self, word: str) -> list[Span]:
        """Every place the reserved `word` stands before a `.` (`Table.Cups`), from the tokens: the parser meets
        only the uses that start what it reads after an error, and skips the rest of a broken statement or block,
        so a note built from its errors alone would name some of the places to rename."""
        try:
            tokens = list(_parser().lex(self.text))
        except (LarkError, UnicodeError):  # a text the lexer refuses: the uses the parser met are all there is
            return []
        return [self._span_of(t) for t, after in zip(tokens, tokens[1:])
                if t.value == word and t.type != "NAME" and after.type == "DOT"]

    def _note_reserved_uses(self) -> None:
        for word, (index, met) in self.reserved_uses.items():
            first = self.diags.items[index]
            others = sorted({*met, *self._lexed_uses(word)} - {first.span}, key=lambda s: (s.line, s.col))
            if not others:
                continue
            places = ", ".join(f"{s.line}:{s.col}" for s in others)
            note = (f"'{word}' is used as a name at {len(others)} more place{'s' if len(others) > 1 else ''} "
                    f"({places}); rename it, e.g. 'Game{word}', everywhere")
            self.diags.items[index] = replace(first, notes=first.notes + (note,))

    def _unwind_or_skip(self, ip, tok: Token) -> None:
        """After an error at `tok`: a `;` or `}` ends the broken statement, a `{` starts a block skipped whole."""
        if tok.type in ("SEMICOLON", "RBRACE"):
            self._unwind(ip, tok)
        elif tok.type == "LBRACE":  # skip the whole unexpected block
            self.skip_depth = 1

    def _unwind(self, ip, tok: Token) -> bool:
        """Panic mode: drop the half-parsed statement that `tok` ends.

        Pops parser states (a valid LALR configuration is left at each step)
        down to the innermost one that is inside a block or at the top level,
        so parsing resumes at the next statement. A `}` is then fed; a `;`
        is consumed with the broken statement.
        """
        states = _parser().parser.parser.parser.parse_table.states
        stack = ip.parser_state.state_stack
        anchor = "RBRACE" if tok.type == "RBRACE" else None
        for depth in range(len(stack) - 1, 0, -1):
            actions = states[stack[depth]]
            resumes = "RBRACE" in actions or "CLASS" in actions
            if resumes and (anchor is None or anchor in actions):
                del stack[depth + 1 :]
                del ip.parser_state.value_stack[depth:]
                if tok.type == "RBRACE":
                    return self._try_feed(ip, tok)
                return True
        return False

    def run(self):
        ip = _parser().parse_interactive(self.text)
        while self.reported < MAX_SYNTAX_ERRORS:
            try:
                for tok in ip.lexer_thread.lex(ip.parser_state):
                    try:
                        if self.skip_depth:
                            raise UnexpectedToken(tok, set())
                        self._feed(ip, tok)
                    except UnexpectedToken:
                        if not self._recover(ip, tok):
                            return None
                break
            except UnexpectedCharacters as e:
                ch = self.text[e.pos_in_stream] if e.pos_in_stream < len(self.text) else "?"
                self._report(Span(self.file, e.line, e.column, e.line, e.column + 1), f"unexpected character {ch!r}")
                ip.lexer_thread.state.line_ctr.feed(self.text[e.pos_in_stream : e.pos_in_stream + 1])
            except UnexpectedToken as e:  # the contextual lexer found a token the state cannot take
                if not self._recover(ip, e.token):
                    return None
        else:
            self.diags.error(self.diags.items[-1].span, f"too many syntax errors; stopped after {MAX_SYNTAX_ERRORS}")
            return None
        end = Token("$END", "")
        for _ in range(MAX_SYNTAX_ERRORS):
            try:
                return ip.feed_eof()
            except UnexpectedToken:
                if not self._recover(ip, end):
                    return None
        return None


def parse_text(text: str, file: str) -> ParseResult:
    """Parse one file. Never raises on bad input, whatever the text."""
    try:
        tree = _parser().parse(text)  # the fast path: most files have no syntax error
    except UnexpectedInput:
        tree = None
    if tree is not None:
        return _finish(tree, _Session(text, file))
    tree, session = _recovered(text, file)
    unclosed = find_unclosed(text)
    if unclosed is not None and unclosed.repaired is not None and session.diags.items:
        # A `}` missing where the indentation ends a block: read as if it were there, when that
        # leaves fewer syntax errors, and say so once, at the `{`
        tree2, session2 = _recovered(unclosed.repaired, file)
        if len(session2.diags.items) < len(session.diags.items):
            lines = text.split("\n")
            if unclosed.before_line is None:
                where = "before the end of the file"
            else:
                col = len(lines[unclosed.before_line - 1]) - len(lines[unclosed.before_line - 1].lstrip(" \t")) + 1
                where = f"at {file}:{unclosed.before_line}:{col}, where the indentation ends its block"
            session2.diags.items.insert(0, Diagnostic(
                Severity.ERROR, Span(file, unclosed.line, unclosed.col, unclosed.line, unclosed.col + 1),
                "this '{' is never closed", (f"its '}}' was expected {where}",)))
            tree, session = tree2, session2
    return _finish(tree, session)


def _recovered(text: str, file: str) -> tuple[Tree | None, _Session]:
    """The tree the recovering parser builds (None when it could not go on), and its session."""
    session = _Session(text, file)
    try:
        tree = session.run()
    except UnexpectedInput as e:  # defensive: recovery could not go on
        line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
        session.diags.error(Span(file, line, col, line, col + 1), "syntax error")
        tree = None
    session._note_reserved_uses()
    return tree, session


def _finish(tree: Tree | None, session: _Session) -> ParseResult:
    """The module of a tree, unless it nests too deeply (an error then)."""
    file = session.file
    if tree is not None:
        deep = _too_deep(tree)
        if deep is not None:
            meta = deep.meta
            line, col = getattr(meta, "line", 1), getattr(meta, "column", 1)
            session.diags.error(
                Span(file, line, col, getattr(meta, "end_line", line), getattr(meta, "end_column", col + 1)),
                f"nested too deeply: more than {MAX_NESTING} levels of expressions and blocks here "
                "(each operand of a long chain like a + b + c counts one level); "
                "split it with local variables or functions")
            tree = None
    module = build_module(tree, file) if tree is not None else None
    return ParseResult(module, session.diags.items)


def _too_deep(tree: Tree) -> Tree | None:
    """The first subtree found deeper than MAX_NESTING (walked with a stack, not recursion), or None."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None
