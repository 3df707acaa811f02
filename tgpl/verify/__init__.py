"""Game-agnostic verification of finite game graphs (`tgpl verify`, `tgpl compare`).

Imports neither tgpl.runtime nor tgpl.asp: the state machines come in through
the small `Machine` protocol of `tgpl.verify.graph`.
"""
