"""Clients of the runtime that play games: agents (a human, random, MCTS, a script), whole games
played or replayed (`play`, `replay`), records, the terminal's text view, typed moves and runtime
errors shown as the checker shows its errors.

It stands on the state API of `tgpl.runtime` (`Game`, `State`, `Move`), which imports nothing
from here (tests/runtime/test_import_graph.py). The CLI, the server and the analyses use it.
"""
