"""Reading a user's file: bounded in size, decoded as UTF-8, every failure one worded reason.

A game, a GDL file, a record or a moves file is read through here, so that
`/dev/zero`, a folder or a gigabyte file is refused before it fills memory
(decision 75), and every command words the same failure the same way.
"""

from __future__ import annotations

import os

MAX_SOURCE_BYTES = 1_000_000  # a game file: checking takes about 7 s per MB
MAX_GDL_BYTES = 64_000_000  # a GDL file: often written by `tgpl to-gdl` (five in a row: 4 MB), read in linear time


class UnreadableFile(Exception):
    """The file cannot be read; `reason` says why in a few lower-case words."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"cannot read '{path}': {reason}")
        self.path = path
        self.reason = reason


def read_source(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, encoding: str = "utf-8-sig") -> str:
    """The file's text; raises UnreadableFile when it is missing, too large (more than `limit`
    bytes, read no further), not UTF-8 or not a file at all."""
    shown = str(path).replace("\0", "\\0")
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        reason = (e.strerror or str(e)).lower() if isinstance(e, OSError) else "invalid path"
        raise UnreadableFile(shown, reason) from None
    if len(data) > limit:
        raise UnreadableFile(shown, f"too large: more than {limit:,} bytes")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise UnreadableFile(shown, "not valid UTF-8") from None


def read_source_or_none(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES) -> str | None:
    try:
        return read_source(path, limit)
    except UnreadableFile:
        return None


__all__ = ["MAX_GDL_BYTES", "MAX_SOURCE_BYTES", "UnreadableFile", "read_source", "read_source_or_none"]
