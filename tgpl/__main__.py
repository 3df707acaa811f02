"""`python -m tgpl`: the `tgpl` program."""

from tgpl.cli import run

run()
