"""A runtime error shown the way the checker shows its errors.

The runtime raises `TGPLRuntimeError` with a span and a short message, on paths that must stay
fast (the compiled code of docs/runtime.md). Everything a designer needs past that is found here,
after the fact, only when an error is shown:

    reversi.tgpl:78:20: runtime error: cannot read 'Disc' of null: 'board.At(x: 9, y: 0)' is null
     78 |         if (board.At(x: 9, y: 0).Disc == null) {
        |                                  ^^^^
      in action Seat.Place at reversi.tgpl:30:5
      in turn Main, phase Play
      reached by these moves (tgpl play --moves FILE replays them):
        place 2 3
        place 2 4

The expression that was null or out of range is named by finding, in the game's syntax tree,
the member or index expression the error's span belongs to, and quoting its source text.
"""

from __future__ import annotations


from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Diagnostic, Severity, Span, render
from tgpl.runtime.errors import TGPLRuntimeError

QUOTE_LIMIT = 60  # characters of an expression quoted in a message; longer ones are cut with "..."


def source_text(span: Span, sources: dict[str, str]) -> str | None:
    """The text `span` covers, on one line (a multi-line expression's lines joined by one space)."""
    text = sources.get(span.file)
    if text is None:
        return None
    lines = text.splitlines()
    if not 1 <= span.line <= len(lines) or span.end_line > len(lines):
        return None
    if span.line == span.end_line:
        part = lines[span.line - 1][span.col - 1:span.end_col - 1]
    else:
        part = " ".join([lines[span.line - 1][span.col - 1:]]
                        + [line.strip() for line in lines[span.line:span.end_line - 1]]
                        + [lines[span.end_line - 1][:span.end_col - 1].strip()])
    part = " ".join(part.split())
    return part[:QUOTE_LIMIT - 3] + "..." if len(part) > QUOTE_LIMIT else part


def failing_expression(span: Span, modules: list[ast.Module]) -> ast.Expr | None:
    """The member or index expression an error at `span` was raised for, if the game has one.

    A member is found by the span of its name (`obj.Name`: the runtime locates a null `obj`
    there), an index by its own span (`xs[i]`)."""
    for module in modules:
        if module.path != span.file:
            continue
        for node in ast.walk(module):
            if isinstance(node, ast.Member) and node.name_span == span:
                return node
            if isinstance(node, ast.Index) and node.span == span:
                return node
    return None


def explained_message(error: TGPLRuntimeError, modules: list[ast.Module], sources: dict[str, str]) -> str:
    """The error's message, with the expression that was null or out of range named when the
    game's text shows it."""
    message = error.message
    if error.span is None:
        return message
    node = failing_expression(error.span, modules)
    if node is None:
        return message
    obj = source_text(node.obj.span, sources)
    if isinstance(node, ast.Member) and obj and message.endswith("of null"):
        return f"{message}: '{obj}' is null"
    if isinstance(node, ast.Index) and obj:
        if message == "cannot index null":
            return f"{message}: '{obj}' is null"
        index = source_text(node.index.span, sources)
        if index and (" out of range " in message or " of an empty list" in message):
            return f"{message}: the index '{index}' of '{obj}'"
        if index and message == "a table key is null":
            return f"{message}: the key '{index}' of '{obj}'"
    return message


def render_runtime_error(error: TGPLRuntimeError, modules: list[ast.Module], sources: dict[str, str],
                         moves: list[str] | None = None) -> str:
    """The error as a designer reads it: `file:line:col: runtime error: ...`, the source line with a
    caret under the failing expression, the call chain, then the moves that reach it (when known)."""
    message = explained_message(error, modules, sources)
    lines = []
    if error.span is not None:
        shown = render(Diagnostic(Severity.ERROR, error.span, message), sources).splitlines()
        shown[0] = f"{error.span}: runtime error: {message}"
        lines.extend(shown)
    else:
        lines.append(f"runtime error: {message}")
    lines.extend(error.render().splitlines()[1:])  # the call chain, as TGPLRuntimeError gives it
    if moves is not None:
        if moves:
            lines.append("  reached by these moves (tgpl play --moves FILE replays them):")
            lines.extend(f"    {m}" for m in moves)
        else:
            lines.append("  reached before any move")
    return "\n".join(lines)
