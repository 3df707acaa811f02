"""`tgpl to-gdl` run from a test, on a game or on a variant of one the test writes, and the count the tests of
the lowering's size read off the GDL: the helpers many test modules of the lowering share."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main


def variant(tmp_path: Path, source: Path, *edits: tuple[str, str], name: str | None = None) -> Path:
    """`source` with each edit (old, new) made in turn, written in `tmp_path` as `name`, by default the source's
    own name, so that messages locate in the variant as they would in the game. Each `old` must stand exactly
    once in the text it edits: an edit that matched nowhere, or somewhere else too, would test another game."""
    text = source.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    out = tmp_path / (name or source.name)
    out.write_text(text, encoding="utf-8")
    return out


@dataclass(frozen=True)
class ToGdl:
    """One `tgpl to-gdl` run: its exit status and output (named as click's result names them) and where it was
    told to write the GDL."""

    exit_code: int
    output: str
    out: Path

    @property
    def kif(self) -> str:
        """The GDL written; '' where nothing was."""
        return self.out.read_text(encoding="utf-8") if self.out.exists() else ""

    def written(self) -> str:
        """The GDL written, the run asserted to have exited 0 (its output shown where it did not)."""
        assert self.exit_code == 0, self.output
        return self.kif


def to_gdl(tmp_path: Path, source: Path, *options: str) -> ToGdl:
    """`tgpl to-gdl SOURCE OPTIONS -o TMP_PATH/<source's stem>.kif`."""
    out = tmp_path / f"{source.stem}.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(source), *options, "-o", str(out)])
    return ToGdl(r.exit_code, r.output, out)


def rules_with_a_body(kif: str) -> int:
    """The rules of a .kif that have a body (`(<= ...`), as issue 34 counts a lowering's size."""
    return sum(line.startswith("(<= ") for line in kif.splitlines())
