"""GDL and ASP: the KIF reader and emitters, the GDL validator and the clingo reasoner.

- `tgpl.asp.kif`: read KIF into the IR (`tgpl.lowering.ir`), write KIF and the thesis's infix notation;
- `tgpl.asp.validate`: the GDL restrictions, as diagnostics with locations;
- `tgpl.asp.reasoner`: a GDL game as a state machine on clingo, grounded once or one state at a time
  (`tgpl.asp.per_state`);
- `tgpl.asp.asp_emit`: a GDL game as a time-indexed ASP program (its answer sets are plays);
- `tgpl.asp.asp_trace`: a play read back out of that program, for differential tests;
- `tgpl.asp.bounded`: bounded verification on it, with clingo's multi-shot solving;
- `tgpl.asp.ground_size`: how large a game is once grounded, the measure of a compact lowering;
- `tgpl.asp.estimate`: an upper bound of that size from the rules alone, checked before anything grounds.
"""
