"""Game-agnostic verification of finite game graphs (`tgpl verify`, `tgpl compare`).

The exploration and its checks (`graph`, `bounded`, `expectation`) import neither tgpl.runtime
nor tgpl.asp: the state machines come in through the small `Machine` protocol of
`tgpl.verify.graph`. The runtime's machines are here too, as clients of the runtime:
`runtime_machine` (`RuntimeMachine`), `stored` (a state stored as one flat tuple) and
`chance_machine` (every outcome of a chance game's draws); the GDL's is `tgpl.asp.verify`.
"""
