"""A block left open: found from the braces and the indentation, reported at its opening brace.

A missing `}` leaves the parser inside the block to the end of the file: its errors come far
later (`unexpected identifier 'FlipsIn'`), and the checker's follow (`unknown type 'Seat'`, the
class swallowed), none at the brace. A designer's indentation says where the block was meant to
end: the first line, after the `{`, that is indented no deeper than the line of the `{` and is
not its `}`. That is where the `}` was expected; the parser then reads the file with a `}` put
there (in the indentation, so no other column moves), and the error is reported once, at the
brace, instead of the cascade.

Used only when a file has a syntax error: a file that parses is never second-guessed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unclosed:
    """The `{` at (line, col) that is never closed; its `}` was expected before `before_line`
    (None: at the end of the file). `repaired` is the text with that `}` put in, when it can be
    put in without moving any other column."""

    line: int
    col: int
    before_line: int | None
    repaired: str | None


def _code_lines(text: str) -> list[str]:
    """Each line with its strings and `//` comments blanked (same length), so braces in them do not count."""
    out = []
    for line in text.split("\n"):
        chars = list(line)
        i, quoted = 0, False
        while i < len(chars):
            ch = chars[i]
            if quoted:
                if ch == "\\":
                    chars[i] = " "
                    if i + 1 < len(chars):
                        chars[i + 1] = " "
                    i += 2
                    continue
                if ch == '"':
                    quoted = False
                chars[i] = " "
            elif ch == '"':
                quoted = True
                chars[i] = " "
            elif ch == "/" and i + 1 < len(chars) and chars[i + 1] == "/":
                chars[i:] = " " * (len(chars) - i)
                break
            i += 1
        out.append("".join(chars))
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def find_unclosed(text: str) -> Unclosed | None:
    """The first block whose indentation shows it left open, or None when the braces agree with it."""
    lines = _code_lines(text)
    stack: list[tuple[int, int, int]] = []  # (line, col, indentation of the line of the `{`), 1-based
    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            continue
        indent = _indent(line)
        # a line at or left of an open block's own line, other than its `}`: the block ended before it
        if stack and indent <= stack[-1][2] and not stripped.startswith("}"):
            return _unclosed(text, stack[-1], n)
        for col, ch in enumerate(line, 1):
            if ch == "{":
                stack.append((n, col, indent))
            elif ch == "}":
                if not stack:
                    return None  # a `}` too many: not this module's case
                opened = stack.pop()
                if col == indent + 1 and indent < opened[2]:  # a `}` left of its block's line: it closes an outer one
                    return _unclosed(text, opened, n)
    if stack:
        return Unclosed(stack[-1][0], stack[-1][1], None, text + "\n}" if not text.endswith("\n") else text + "}\n")
    return None


def _unclosed(text: str, opened: tuple[int, int, int], before: int) -> Unclosed:
    """The block opened at `opened` closed before line `before`: the `}` goes into the indentation
    of that line, right before its first character, when the line is indented; else on the blank
    line before it, or at the end of the code of the line before (moving only a comment there)."""
    source = text.split("\n")
    line = source[before - 1]
    indent = _indent(line)
    if indent >= 1:
        source[before - 1] = line[:indent - 1] + "}" + line[indent:]
    elif before >= 2 and not source[before - 2].strip():
        source[before - 2] = "}"
    elif before >= 2:
        code = _code_lines(source[before - 2])[0].rstrip()
        source[before - 2] = code + " }" + source[before - 2][len(code):]
    else:
        return Unclosed(opened[0], opened[1], before, None)
    return Unclosed(opened[0], opened[1], before, "\n".join(source))
