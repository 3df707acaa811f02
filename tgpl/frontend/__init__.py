"""The front end: grammar, AST, import loading, checks and diagnostics.

`tgpl.frontend.loader.load_program(path)` is the entry point every command goes
through: it parses the game file and everything it imports, checks the whole
program, and returns it with all diagnostics found.
"""
