"""GDL and ASP: the KIF reader and emitters, the GDL validator and the clingo reasoner.

- `tgpl.asp.kif`: read KIF into the IR (`tgpl.lowering.ir`), write KIF and the thesis's infix notation;
- `tgpl.asp.validate`: the GDL restrictions, as diagnostics with locations;
- `tgpl.asp.reasoner`: a GDL game as a state machine on clingo, grounded once.
"""
