"""The `tgpl` command line."""

from __future__ import annotations

import sys

import click

from tgpl import __version__
from tgpl.frontend.diagnostics import Diagnostic, render, to_json
from tgpl.frontend.loader import Program, load_program


def _styled(text: str, d: Diagnostic, color: bool) -> str:
    if not color:
        return text
    head, _, rest = text.partition("\n")
    fg = "red" if d.is_error else "yellow"
    label = f"{d.severity.value}:"
    head = head.replace(label, click.style(label, fg=fg, bold=True), 1)
    return head + ("\n" + rest if rest else "")


def report(program: Program, as_json: bool) -> None:
    """Print diagnostics: human-readable on stderr, or JSON on stdout."""
    if as_json:
        click.echo(to_json(program.diagnostics))
        return
    color = sys.stderr.isatty()
    for d in program.diagnostics:
        click.echo(_styled(render(d, program.sources), d, color), err=True)
    errors = sum(d.is_error for d in program.diagnostics)
    warnings = len(program.diagnostics) - errors
    if errors or warnings:
        parts = [f"{errors} error{'s' * (errors != 1)}"] if errors else []
        if warnings:
            parts.append(f"{warnings} warning{'s' * (warnings != 1)}")
        click.echo(f"{program.main}: {', '.join(parts)}", err=True)


@click.group()
@click.version_option(__version__, prog_name="tgpl")
def main() -> None:
    """tgpl: check, play and verify games written in TGPL."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
def check(files: tuple[str, ...], as_json: bool) -> None:
    """Parse and check game files; exit 1 if any has an error."""
    failed = False
    collected: list[Diagnostic] = []
    for path in files:
        program = load_program(path)
        failed |= not program.ok
        if as_json:
            collected.extend(program.diagnostics)
        else:
            report(program, as_json=False)
            if program.ok:
                click.echo(f"{program.main}: ok")
    if as_json:
        click.echo(to_json(collected))
    sys.exit(1 if failed else 0)
