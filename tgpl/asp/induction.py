"""Two GDL programs of one game proven to play alike, by one step of induction with clingo.

The lowering may rewrite a check anchored at what a move wrote (Connect Four's
`MakesFour(c, r)` of the disc just dropped) into a global one (is any window of
four full?). The two agree only on states where no window was full before the
move, an invariant of the reachable states that no rule-by-rule rewriting can
see. `same_game` proves it, with the invariant given as `bad`, rules for a
0-ary relation that holds in a state where the invariant fails:

1. base: the initial states agree (`init`), and there the invariant holds or
   the game is over;
2. step: for every state (any choice of one value per cell: far more states
   than are reachable) that is not terminal and keeps the invariant, and every
   joint legal move, the two programs give the same `legal`, `goal`, `terminal`
   and `next`, and the successor keeps the invariant or is terminal;
3. every state at all gives the same `legal`, `goal` and `terminal` in both.

By induction every reachable non-terminal state keeps the invariant, so the two
programs have the same reachable states, moves and outcomes. A counter-example
on a state no play reaches only costs the rewrite, never soundness. The three
programs are one clingo program: the original's relations prefixed `o_`, the
rewritten's `r_`, the original read on the successor (`true` read as
`gdl_state`, as the reasoner's lookahead does) `s_`.
"""

from __future__ import annotations

import clingo

from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.gdl_to_asp import ClingoNames, rule_text
from tgpl.asp.solver import lp_file
from tgpl.lowering.board_count import STEP_ATOMS, WRITES_ATOMS, ProofTooLarge
from tgpl.lowering.ir import Program, Rule, Term, expand_or

BAD = "tgpl_bad"
BEFORE = "tgpl_before"  # in an invariant's rules of the step: the state before the successor
# The solver's budget per proof: past it the rewrite is not made. Counted in conflicts, not seconds,
# so that the same game lowers to the same bytes on every machine (five in a row's proof: 7,637 in its step).
CONFLICTS = 300_000
# The writes' check's budget (never_holds): 5x5 Pente's takes 614 conflicts, 9x9's 4,445, each part of a body
# asked on its own (tgpl.lowering.board_count.flip_program); past it the induction decides rather than the check
# running on.
WRITES_CONFLICTS = 20_000
# The parts of induction.lp, each solved alone, and the relations each reads (None: all of them)
PARTS = {"start": ("init", "terminal", BAD), "every": ("legal", "goal", "terminal"), "step": None}
COMPARED = {"legal": "(R,M)", "goal": "(R,G)", "terminal": "", "next": "(F)", "init": "(F)"}


def same_game(original: Program, rewritten: Program, cells: list[tuple[list[Term], bool]],
              bad: list[Rule]) -> bool:
    """Whether `rewritten` plays exactly as `original` from the initial state (see the module's docstring).

    `cells`: the state as cells, each (the fluent terms it can hold, whether it may hold none);
    `bad`: rules for `tgpl_bad`, over `true`, true where the invariant fails, and facts of the tables they read.
    """
    if any((r.head.relation != BAD or r.head.args) and not r.is_fact for r in bad):
        raise ValueError(f"the invariant's rules must define the 0-ary {BAD} (and facts of its tables)")
    clash = {r.head.relation for r in bad} & {r.head.relation for r in (*original.rules, *rewritten.rules)}
    if clash:
        raise ValueError(f"the invariant's rules define relations of the game: {sorted(clash)}")
    shared = _shared(original, rewritten)
    with_bad = Program(tuple(original.rules) + tuple(bad))
    mine, theirs = DependencyGraph.of(with_bad), DependencyGraph.of(rewritten)
    for part, roots in PARTS.items():
        # each part is given only the rules it reads: the start and every-state parts are small programs
        names = ClingoNames()
        lines: list[str] = []
        needed_r = theirs.needed(roots) if roots is not None else {r.head.relation for r in rewritten.rules}
        needed_o = mine.needed(set(roots) | (needed_r & shared)) if roots is not None else None
        lines += _copy(_only(original, needed_o), names, "o_")
        lines += _copy(Program(tuple(r for r in rewritten.rules if r.head.relation not in shared
                                     and r.head.relation in needed_r)), names, "r_", keep=shared)
        for relation, args in COMPARED.items():  # the encoding compares these by their r_ names
            if relation in shared:
                lines.append(f"r_{relation}{args} :- o_{relation}{args}.")
        if part == "step":
            lines += _copy(_only(with_bad, mine.needed(("terminal", BAD))), names, "s_", "gdl_state")
        if needed_o is None or BAD in needed_o:
            lines += _copy(Program(tuple(bad)), names, "o_")
        lines += _cells(cells, names)
        # choice rules as normal rules: the step's proof for five in a row needs 7,600 conflicts and
        # 0.6 s this way, against 26,700 and 1.4 s (nothing changes but the search)
        ctl = clingo.Control(["--warn=none", "--trans-ext=all"])
        ctl.add("base", [], "\n".join(lines) + "\n" + lp_file("induction.lp"))
        ctl.ground([("base", []), (part, [])])
        ctl.configuration.solve.solve_limit = str(CONFLICTS)
        if not ctl.solve().unsatisfiable:  # a counter-example, or no proof within the budget
            return False
    return True


def invariant_holds(program: Program, cells: list[tuple[list[Term], bool]], bad: list[Rule],
                    after: list[Rule] | None = None) -> bool:
    """Whether no state play reaches from the initial state makes `tgpl_bad` true: by one step of induction
    (invariant.lp), `bad` is false initially and after every joint legal move from any state where it is false
    and the game is not over, terminal successors included. `cells` as `same_game` takes them; `bad`: rules of
    the 0-ary `tgpl_bad` and of helper relations named `tgpl_bad_...`, over `true` (tgpl.lowering.board_count:
    a counter that counts the board). Unproved within CONFLICTS conflicts: False; a part of the proof that grounds
    to more than STEP_ATOMS atoms is not tried: ProofTooLarge.

    `after`, where given, says in the step whether the successor breaks the invariant, in rules of the same names
    over the successor (`true`) and the state before it (`tgpl_before`): rules that, in a state before that keeps
    the invariant, hold `tgpl_bad` exactly where `bad` holds in the successor. The caller knows such rules that
    the solver finds far easier: a count of the board compared by what the move changed, not counted again."""
    if any(not r.head.relation.startswith(BAD) for r in (*bad, *(after or ()))) \
            or not any(r.head.relation == BAD for r in bad) or after is not None and not any(
                r.head.relation == BAD for r in after):
        raise ValueError(f"the invariant's rules must define the 0-ary {BAD} (and relations named {BAD}_...)")
    clash = {r.head.relation for r in (*bad, *(after or ()))} & {r.head.relation for r in program.rules}
    if clash:
        raise ValueError(f"the invariant's rules define relations of the game: {sorted(clash)}")
    with_bad = Program(tuple(program.rules) + tuple(bad))
    graph = DependencyGraph.of(with_bad)
    for part, roots in (("start", ("init", "terminal", BAD)), ("step", None)):
        names = ClingoNames()
        lines = _copy(_only(with_bad, graph.needed(roots) if roots is not None else None), names, "o_")
        if part == "step":
            if after is None:
                lines += _copy(_only(with_bad, graph.needed(("terminal", BAD))), names, "s_", "gdl_state")
            else:
                lines += _copy(_only(program, graph.needed(("terminal",))), names, "s_", "gdl_state")
                lines += _copy(Program(tuple(after)), names, "s_", "gdl_state", before="true")
            lines += _cells(cells, names)
        ctl = clingo.Control(["--warn=none", "--trans-ext=all"])
        ctl.add("base", [], "\n".join(lines) + "\n" + lp_file("invariant.lp"))
        ctl.ground([("base", []), (part, [])])
        atoms = len(ctl.symbolic_atoms)
        if atoms > STEP_ATOMS:
            raise ProofTooLarge(part, atoms, STEP_ATOMS)
        ctl.configuration.solve.solve_limit = str(CONFLICTS)
        if not ctl.solve().unsatisfiable:
            return False
    return True


def never_holds(rules: list[Rule], cells: list[tuple[list[Term], bool]],
                free: dict[str, list[tuple[Term, list[Term]]]]) -> bool:
    """Whether the 0-ary `tgpl_bad` of `rules` (a program of its own, over `true`) holds in no state (never.lp):
    any value of every cell (`cells` as `same_game` takes them), and for each relation of `free` (relation ->
    (object, its values) rows) any one value of each object, which no rule defines (tgpl.lowering.board_count:
    a view of the state a move wrote, read as any view could be). Unproved within WRITES_CONFLICTS conflicts, or
    rules clingo refuses (a variable left unbound): False; past STEP_ATOMS atoms: ProofTooLarge."""
    names = ClingoNames()
    lines = _copy(Program(tuple(rules)), names, "o_")
    for relation, rows in free.items():
        functor = "o_" + names.functor(relation)
        for obj, values in rows:
            o = names.symbol(obj)
            lines.append("1 { " + "; ".join(f"{functor}({o},{names.symbol(v)})" for v in values) + " } 1.")
    lines += _cells(cells, names)
    ctl = clingo.Control(["--warn=none"])
    try:
        ctl.add("base", [], "\n".join(lines) + "\n" + lp_file("never.lp"))
        ctl.ground([("base", [])])
    except RuntimeError:
        return False
    atoms = len(ctl.symbolic_atoms)
    if atoms > WRITES_ATOMS:
        raise ProofTooLarge("check of the writes", atoms, WRITES_ATOMS)
    ctl.configuration.solve.solve_limit = str(WRITES_CONFLICTS)
    return bool(ctl.solve().unsatisfiable)


def _cells(cells: list[tuple[list[Term], bool]], names: ClingoNames) -> list[str]:
    """The facts of the state's cells that the encodings choose one value of each from."""
    lines = []
    for k, (terms, optional) in enumerate(cells):
        lines.extend(f"tgpl_cell({k},{names.symbol(t)})." for t in terms)
        if optional:
            lines.append(f"tgpl_optional({k}).")
    return lines


def _shared(original: Program, rewritten: Program) -> set[str]:
    """Relations defined by the same rules in both programs, over relations that are shared too.

    The rewritten program reads them as the original's atoms: the solver then sees one board after the
    move, not two copies it would have to show equal cell by cell (five in a row: 5 s to 0.3 s)."""
    def rules_of(program: Program) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for r in program.rules:
            found.setdefault(r.head.relation, set()).add(str(r))
        return found

    mine, theirs = rules_of(original), rules_of(rewritten)
    uses: dict[str, set[str]] = {}
    for r in rewritten.rules:
        uses.setdefault(r.head.relation, set()).update(a.relation for a, _ in r.body_atoms())
    shared = {n for n, rules in theirs.items() if mine.get(n) == rules}
    while True:
        # a relation either program defines, unless shared, may differ (or be missing from one of them)
        drop = {n for n in shared if any(u not in shared and (u in theirs or u in mine) for u in uses.get(n, ()))}
        if not drop:
            return shared
        shared -= drop


def _only(program: Program, relations: set[str] | None) -> Program:
    """The program's rules that define `relations` (None: all its rules)."""
    if relations is None:
        return program
    return Program(tuple(r for r in program.rules if r.head.relation in relations))


def _copy(program: Program, names: ClingoNames, prefix: str, state: str = "true",
          keep: set[str] = frozenset(), before: str | None = None) -> list[str]:
    """The program's rules with every relation but `true` and `does` renamed `prefix + name` (`o_ + name`
    for those in `keep`), `true` read as `state`, `tgpl_before` (the state before it) as `before`."""

    def rename(name: str) -> str | None:
        if name == "true":
            return state
        if name == BEFORE and before is not None:
            return before
        if name == "does":
            return None
        return ("o_" if name in keep else prefix) + names.functor(name)

    return [rule_text(plain, names, rename) for rule in program.rules for plain in expand_or(rule)]
