"""Source spans and diagnostics, rendered the way modern compilers do.

    examples/tris.tgpl:12:5: error: undefined name 'none'
       12 |     PlayerState winnerState = none;
          |                               ^^^^

Lines and columns are 1-based; `end_col` is exclusive. Columns count Unicode
code points, which is what a designer's editor shows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def holds(self, other: Span) -> bool:
        """Whether other starts within self's text (a statement in the function whose span is self)."""
        return (other.file == self.file
                and (self.line, self.col) <= (other.line, other.col) <= (self.end_line, self.end_col))

    def to(self, other: Span) -> Span:
        """The span from the start of self to the end of other."""
        return Span(self.file, self.line, self.col, other.end_line, other.end_col)


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: Severity
    span: Span
    message: str
    notes: tuple[str, ...] = ()
    # For programs, not readers: the kind of problem (e.g. "negation-cycle") and the names it is about (a
    # negation cycle's hops, "not " before a relation read negatively), so that a caller that acts on a kind
    # does not match the message's words.
    code: str = ""
    about: tuple[str, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def header(self) -> str:
        return f"{self.span}: {self.severity.value}: {self.message}"

    def to_json(self) -> dict:
        s = self.span
        return {
            "severity": self.severity.value,
            "file": s.file,
            "line": s.line,
            "column": s.col,
            "end_line": s.end_line,
            "end_column": s.end_col,
            "message": self.message,
            "notes": list(self.notes),
        }


@dataclass
class Diagnostics:
    """Collects diagnostics from every stage, in the order they were found."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, message: str, *notes: str, code: str = "", about: tuple[str, ...] = ()) -> None:
        self.items.append(Diagnostic(Severity.ERROR, span, message, tuple(notes), code, about))

    def warning(self, span: Span, message: str, *notes: str) -> None:
        self.items.append(Diagnostic(Severity.WARNING, span, message, tuple(notes)))

    def extend(self, other: list[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Stable order: by file, then position; ties keep discovery order."""
        return sorted(self.items, key=lambda d: (d.span.file, d.span.line, d.span.col))


def render(diagnostic: Diagnostic, sources: dict[str, str]) -> str:
    """The header line, then the source line with a caret under the span."""
    out = [diagnostic.header()]
    text = sources.get(diagnostic.span.file)
    if text is not None:
        lines = text.splitlines()
        s = diagnostic.span
        if 1 <= s.line <= len(lines):
            line = lines[s.line - 1].replace("\t", " ")
            width = len(str(s.line))
            start = max(s.col, 1)
            end = s.end_col if s.end_line == s.line else len(line) + 1
            end = max(end, start + 1)
            out.append(f" {s.line} | {line}")
            out.append(f" {' ' * width} | {' ' * (start - 1)}{'^' * (end - start)}")
    out.extend(f"  note: {n}" for n in diagnostic.notes)
    return "\n".join(out)


def render_all(diagnostics: list[Diagnostic], sources: dict[str, str]) -> str:
    return "\n".join(render(d, sources) for d in diagnostics)


def to_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2, ensure_ascii=False)
