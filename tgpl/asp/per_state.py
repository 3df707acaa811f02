"""A GDL game grounded one state at a time: the program of a query, and its bound.

The reasoner's default grounds a game once for every state (tgpl.asp.reasoner,
gdl_state.lp): every fluent of `base` is an external, so a rule over fluents is
grounded for every combination of fluents that could ever be true. A rule such
as a king-safety test walking from a king square that is itself a fluent, for
every pair of squares, or the frame rule of a 59x59 tic-tac-toe (24 million
instances), makes that program too large to ground, while one state, in which
only the true fluents exist, grounds small.

So a query here is a program of its own: the rules a successor needs (those of
`init` and `next` and what they depend on, and the look-ahead copies of
`legal`/`goal`/`terminal` that read the successor, tgpl.asp.gdl_to_asp), the
state's fluents as `true/1` facts, the joint move as `does/2` facts (or
`gdl_start` for the initial state), and gdl_per_state.lp. Grounding evaluates
it; GDL's stratification leaves one answer set.

Cost. Parsing the rules is most of a fresh program's cost (for the lowered
Connect Four, 2.5 ms of a 4 ms query), so they are parsed once into clingo
ASTs and each query hands the parsed statements to a fresh `Control` through a
`ProgramBuilder` (0.6 ms), with its facts built as ASTs from symbols (cached per
fluent: a state repeats most of its predecessor's). A `Control` cannot forget
facts, so one per query it is.

Bound. clingo's grounding cannot be interrupted, so a query is bounded before
it grounds, by tgpl.asp.estimate applied to the query's own program: the rules
read `true` and `does` under names of their own ("true now", "does now", which
no GDL name can be) given by the state's facts, so the state position no
longer collects every fluent `next` can make; the copies read `next` (the
successor). The facts given exactly, a join through the state is bounded by
the fluents that are true. What does not depend on the state is worked out
once, and what a state's domains settle into is kept for the next state with
the same ones (tgpl.asp.estimate.QueryBounds); still, the reasoner asks for
the bound only for a game whose whole bound is over the limit (below it, the
whole game's bound bounds every state's).
"""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, Sequence

import clingo
from clingo import ast

from tgpl.limits import Limits, outside
from tgpl.workers import POLL, Workers, waited, worker_pool
from tgpl.lowering.ir import Atom, Literal, Not, Or, Program, Rule, Term, Var, renamed
from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.estimate import QueryBounds
from tgpl.asp.gdl_to_asp import STATE_VIEW, ClingoNames, lookahead_relations, lookahead_to_asp, rules_to_asp
from tgpl.asp.solver import SolverError, lp_file

STATE_NOW = "true now"
"""What `true` is called in a query's estimate: not a KIF word, so no game has a relation of that name."""
MOVE_NOW = "does now"
AHEAD = "ahead "
"""The prefix of the look-ahead copies in a query's estimate (gdl_a_ in the clingo program)."""

_NOWHERE = ast.Location(ast.Position("<state>", 1, 1), ast.Position("<state>", 1, 1))
START = clingo.Function("gdl_start")
_F = Var("f")
_FIXED = (
    Rule(Atom("gdl_state", (_F,)), (Atom("init", (_F,)), Atom("gdl_start", ()))),
    Rule(Atom("gdl_state", (_F,)), (Atom("next", (_F,)), Not(Atom("gdl_start", ())))),
)
"""gdl_per_state.lp's two rules, as the estimate reads rules: a query's bound counts them too."""


def query_rules(program: Program) -> Program:
    """The rules a query grounds besides the look-ahead copies: those of `init`, `next` and what they
    need, and the relations the copies read without copying them (static ones: `index`, `succ`, ...); GDL-II's
    `sees` too, the percepts of the joint move, which like `next` read the state and the move."""
    graph = DependencyGraph.of(program)
    copied = lookahead_relations(program)
    keep = graph.needed(("init", "next", "sees")) | (graph.needed(STATE_VIEW) - copied)
    return Program(tuple(rule for rule in program.rules if rule.head.relation in keep))


class StateQueries:
    """The program of a game's per-state queries, parsed once; `solve` grounds it with one state's facts."""

    def __init__(self, program: Program, names: ClingoNames):
        own = query_rules(program)
        self.text = rules_to_asp(own, names) + lookahead_to_asp(program, names) + lp_file("gdl_per_state.lp")
        if "sees" in program.defined():  # GDL-II: the percepts of the joint move, shown with the successor
            self.text += "#show sees/2.\n"
        self.statements = _parsed(self.text)
        self._estimate = estimate_rules(program, own)
        self._bounds: QueryBounds | None = None  # made when a bound is first asked for
        self._facts: dict[clingo.Symbol, ast.AST] = {}

    def solve(self, facts: Iterable[clingo.Symbol], observer: clingo.Observer | None = None) -> list[clingo.Symbol]:
        """The shown atoms of the query's one answer set, the facts added to the rules; `observer` sees
        what the grounder emits (the tests count it against the bound)."""
        return _answer(self.statements + [self._fact(fact) for fact in facts], "", observer, "this state")

    def _fact(self, symbol: clingo.Symbol) -> ast.AST:
        """The fact as a clingo statement, made once per symbol."""
        made = self._facts.get(symbol)
        if made is None:
            atom = ast.SymbolicAtom(ast.SymbolicTerm(_NOWHERE, symbol))
            made = self._facts[symbol] = ast.Rule(_NOWHERE, ast.Literal(_NOWHERE, ast.Sign.NoSign, atom), [])
        return made

    def bound(self, fluents: Iterable[Term], moves: Sequence[tuple[Term, Term]]) -> int | None:
        """The most ground rule instances the query of this state and joint move can have (no joint move:
        the initial state's query); None when the analysis cannot end (tgpl.asp.estimate)."""
        facts = [Rule(Atom(STATE_NOW, (f,))) for f in fluents] + [Rule(Atom(MOVE_NOW, m)) for m in moves]
        if not moves:
            facts.append(Rule(Atom("gdl_start", ())))
        if self._bounds is None:
            self._bounds = QueryBounds(self._estimate, (STATE_NOW, MOVE_NOW, "gdl_start"))
        return self._bounds.total(facts)


class BatchQueries:
    """Many queries of one game grounded as one program: the query program with every relation that depends on
    the state or the move given the query's index as its first argument, so that `true(Q,F)`, `does(Q,R,M)`
    and `gdl_start(Q)` facts pose many queries at once (gdl_batch.lp).

    Why: grounding a query's rules costs much the same whatever the state holds. For chess's compiled moves,
    two thirds of an 80 ms query is clingo preparing 750 rules, and 3,000 facts of static tables, before any
    fluent is read; in batches of 64 a query costs 30 ms. The static relations are not indexed: each batch
    grounds them once. The translation validation poses the runtime's states this way (tgpl.validation), as
    all the queries of a stretch of play are known before any is answered.

    Apart. For some games the batch grounds far slower than its queries one by one: the query index, a variable
    in every rule that reads the state, leads clingo to join a long rule in a bad order (Blokus Duo's
    look-ahead over the pieces' cells: its initial state 0.24 s alone, 29 s as a batch of one), where for
    others the batch is many times faster (reversi's 64 states: 0.22 s together, 3.4 s apart; a 9x9 Pente's,
    whose recursions join as many static literals as Blokus's, 19 times faster together). Which way is faster
    is a fact of the game that its rules' shape does not tell, so the first batch of at least PROBE_LEAST
    queries settles it (`grounding`): its queries are grounded apart, as StateQueries grounds one, then
    together in a forked process given as long (and FORK_TIME), and killed past that: it has lost then, and a
    grounding cannot be interrupted otherwise. The answers are the same either way (the apart ones are kept),
    so only the time depends on the machine, never what is answered. Until then, a smaller batch is grounded
    apart: its cost is bounded by the queries' own, where a bad join is not.
    """

    def __init__(self, program: Program, names: ClingoNames):
        # The game's own rules answer the queries that give a state and a move (`gdl_step`), the look-ahead
        # copies every query: they read the successor as `next` itself, which for an initial-state query is
        # `init` (gdl_batch.lp). Copying each successor into a relation of its own (as gdl_per_state.lp's
        # `gdl_state`) was a quarter of chess's fluent atoms; the game's `next` rules must then stay out of
        # the initial state's queries, where a rule reading no fluent positively would add to `init`.
        own = query_rules(_indexed(program, _STEP))
        ahead = lookahead_to_asp(_indexed(program, _QUERY), names, state=names.functor("next"))
        # the rules read the query indices under the clingo names GDL names give `gdl_query` and `gdl_step`
        # (gdl_ names are renamed, tgpl.asp.gdl_to_asp), which gdl_batch.lp cannot know: rules link them
        link = (f"{names.functor(_QUERY)}(Q) :- {_QUERY}(Q).\n"
                f"{names.functor(_STEP)}(Q) :- {_QUERY}(Q), not gdl_start(Q).\n")
        text = rules_to_asp(own, names) + ahead + link + lp_file("gdl_batch.lp")
        if "sees" in program.defined():  # GDL-II's percepts, per query as the rest (`_indexed`)
            text += "#show sees/3.\n"
        self.statements = _parsed(text)
        self._program, self._names = program, names
        self._apart: list[ast.AST] | None = None  # the program of a query grounded apart (`apart_statements`)
        self.grounding: str | None = None  # TOGETHER or APART once the first large batch settled it (`_settled`)
        self._texts: dict[clingo.Symbol, str] = {}  # a fluent or move -> its clingo text
        self._workers: Workers | None = None
        self._limits: Limits | None = None  # the limits of `parallel`, which the groundings here are under

    def solve(self, queries: Sequence[Query | None], observer: clingo.Observer | None = None) -> list[list[str]]:
        """Per query, the shown atoms of its answer as the query alone would show them, as clingo texts (`gdl_state(
        piece(a,b))`). A query is the state's fluents and the joint move, (role, move) pairs; None is the initial
        state's query. With workers (`parallel`) and no observer, the batch is shared between them and this
        process."""
        if not queries:
            return []
        if observer is None and self.grounding is None:
            if len(queries) < PROBE_LEAST:
                return self._here(queries, grounding=APART)
            settled = self._settled(queries[:PROBE])
            return settled + self.solve(queries[PROBE:])
        workers = self._workers
        if workers is None or observer is not None or len(queries) < 2 * MIN_SHARE:
            return self._here(queries, observer)
        parts = _shares(queries, workers.count + 1)
        pending = self._submitted(parts[1:])
        if pending is None:
            return self.solve(queries)
        out = self._here(parts[0])
        for part, future in zip(parts[1:], pending):
            out += self._collected(future, part)
        return out

    def later(self, queries: Sequence[Query | None]) -> Callable[[], list[list[str]]]:
        """`solve`'s answers, grounded by the workers meanwhile and handed over when the function returned is
        called: this process is free to do something else in between (the validation plays the runtime
        ahead). Without workers the batch is grounded when they are asked for. A batch that settles how batches
        are grounded (`grounding`) is grounded here, at once, to settle it."""
        if self.grounding is None and queries:
            first = self.solve(queries[:PROBE])
            rest = self.later(queries[PROBE:]) if len(queries) > PROBE else list
            return lambda: first + rest()
        workers = self._workers
        if workers is None or len(queries) < MIN_SHARE:
            return lambda: self.solve(queries)
        parts = _shares(queries, workers.count)
        futures = self._submitted(parts)
        if futures is None:
            return lambda: self.solve(queries)
        return lambda: [answer for part, future in zip(parts, futures) for answer in self._collected(future, part)]

    def _submitted(self, parts: list[Sequence]) -> list[Future] | None:
        """The parts handed to the workers; None where the pool is broken already (and is let go)."""
        assert self._workers is not None
        try:
            return [self._workers.pool.submit(_solve_forked, self.grounding, self._posed(part, self.grounding),
                                              len(part)) for part in parts]
        except BrokenProcessPool:
            self._workers = None
            return None

    def _here(self, queries: Sequence[Query | None], observer: clingo.Observer | None = None,
              grounding: str | None = None) -> list[list[str]]:
        """The batch grounded in this process (`grounding`, by default the one settled; an observer counts a
        batch grounded together); within `parallel`'s limits, in a thread of its own while they are checked
        (tgpl.limits.outside): clingo's grounding cannot be interrupted, and a batch of a large game grounds for
        minutes."""
        how = TOGETHER if observer is not None else grounding or self.grounding or TOGETHER

        def answers() -> list[list[str]]:
            if how == APART:
                return _apart_answers(self.apart_statements(), self._posed(queries, APART))
            return _batch_answers(self.statements, self._facts(queries), len(queries), observer)
        return answers() if self._limits is None else outside(answers, self._limits)

    def apart_statements(self) -> list[ast.AST]:
        """The program of one query grounded apart (StateQueries'), parsed when first asked for."""
        if self._apart is None:
            self._apart = StateQueries(self._program, self._names).statements
        return self._apart

    def _settled(self, queries: Sequence[Query | None]) -> list[list[str]]:
        """The answers of the queries, grounded apart, with `grounding` settled by how long they took together
        (the class's docstring)."""
        start = time.perf_counter()
        answers = self._here(queries, grounding=APART)
        apart = time.perf_counter() - start
        together = _timed_fork(lambda: _batch_answers(self.statements, self._facts(queries), len(queries)),
                                apart + FORK_TIME, self._limits)
        self.grounding = TOGETHER if together is not None and together <= apart else APART
        return answers

    def _posed(self, queries: Sequence[Query | None], grounding: str | None):
        """What a worker is handed of the queries: the batch's facts (`_facts`) or, grounded apart, each query's
        facts and the texts of the fluents it gave (`_apart_answers`)."""
        if grounding != APART:
            return self._facts(queries)
        text = self._text
        posed: list[tuple[str, frozenset[str] | None]] = []
        for query in queries:
            if query is None:
                posed.append(("gdl_start.", None))
                continue
            fluents, moves = query
            given = frozenset(text(f) for f in fluents)
            facts = [f"true({f})." for f in given] + [f"does({text(r)},{text(m)})." for r, m in moves]
            posed.append(("\n".join(facts), given))
        return posed

    def _text(self, symbol: clingo.Symbol) -> str:
        """The symbol's clingo text, made once: states repeat most of their predecessors' fluents."""
        made = self._texts.get(symbol)
        if made is None:
            made = self._texts[symbol] = str(symbol)
        return made

    def _collected(self, future: Future, part: Sequence) -> list[list[str]]:
        """A worker's answers, waited for under `parallel`'s limits; where the worker died (killed, out of memory),
        the share is grounded here, and so are the batches after it."""
        try:
            return waited(future, self._limits)
        except BrokenProcessPool:
            self._workers = None
            return self.solve(part)

    @property
    def workers(self) -> int:
        """The worker processes batches are shared with now (`parallel`); 0 outside it."""
        return 0 if self._workers is None else self._workers.count

    @contextmanager
    def parallel(self, count: int | None = None, limits: Limits | None = None) -> Iterator[None]:
        """Within the block, batches are grounded by `count` worker processes (default: one per core, at most
        MAX_WORKERS; none on one core) and, when this process waits for them (`solve`), by this one too. Why: a
        batch's queries are independent, and grounding them is the validation's whole cost (chess: 9 ms a
        state). Workers are forked and see the parsed rules they were forked with; where processes cannot be
        forked, batches stay here.

        `limits` (the command's): every grounding of the block is waited for under them, and the workers' memory
        counts toward --max-memory (tgpl.workers). Past them LimitReached is raised, and the block's end kills the
        workers: a stop ends their work too."""
        if count is None:
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
            count = min(MAX_WORKERS, cores) if cores > 1 else 0
        if self._workers is not None:
            yield
            return
        self._limits = limits
        try:
            if count < 1 or "fork" not in multiprocessing.get_all_start_methods():
                yield
                return
            global _FORKED
            _FORKED = self
            with worker_pool(count, limits, "fork") as workers:
                self._workers = workers
                try:
                    yield
                finally:
                    self._workers = None
        finally:
            self._limits = None

    def _facts(self, queries) -> str:
        text = self._text
        out = []
        before: frozenset[clingo.Symbol] | None = None  # the query before's fluents
        for q, query in enumerate(queries):
            out.append(f"{_QUERY}({q}).")
            if query is None:
                out.append(f"gdl_start({q}).")
                before = None
                continue
            fluents, moves = query
            if not isinstance(fluents, frozenset):
                fluents = frozenset(fluents)
            gone, new = (before - fluents, fluents - before) if before is not None else ((), ())
            if before is not None and 2 * (len(gone) + len(new)) < len(fluents):
                # the state after the query before's (a play's next state, mostly): what changed
                out.append(f"gdl_from({q},{q - 1}).")
                out += [f"gdl_drop({q},{text(f)})." for f in gone]
                out += [f"gdl_put({q},{text(f)})." for f in new]
            else:
                out += [f"true({q},{text(f)})." for f in fluents]
            out += [f"does({q},{text(role)},{text(move)})." for role, move in moves]
            before = fluents
        return "\n".join(out)


TOGETHER = "together"
"""A batch's queries grounded as one program (gdl_batch.lp)."""
APART = "apart"
"""A batch's queries grounded each as a program of its own (StateQueries)."""
PROBE_LEAST = 4
"""The fewest queries of a batch that settles how batches are grounded (BatchQueries): with fewer, what a batch
shares (the static tables grounded once) is too little to tell."""
PROBE = 8
"""The most queries of the first batch that settle it (the validation's first batch, tgpl.validation.FIRST_BATCH)."""
FORK_TIME = 0.2
"""Seconds a settling batch is given besides the time its queries took apart, for forking the process that
grounds it together (a large game's process has many pages to map), which times its grounding alone."""

MIN_SHARE = 8
"""The fewest queries a worker is given: a grounding has a fixed cost (the rules, the static tables)."""
MAX_WORKERS = 7


Query = tuple[Iterable[clingo.Symbol], Sequence[tuple[clingo.Symbol, clingo.Symbol]]]
"""A state's fluents and a joint move, (role, move) pairs."""


def _shares(queries: Sequence, n: int) -> list[Sequence]:
    """`queries` in at most `n` consecutive parts of about equal size, none under MIN_SHARE but the last."""
    share = max(MIN_SHARE, -(-len(queries) // n))
    return [queries[k:k + share] for k in range(0, len(queries), share)]


_FORKED: BatchQueries | None = None
"""The batch queries the workers were forked with (`BatchQueries.parallel`)."""


def _solve_forked(grounding: str | None, posed, n: int) -> list[list[str]]:
    """A worker's share of a batch: `n` queries as BatchQueries._posed gives them."""
    assert _FORKED is not None
    if grounding == APART:
        return _apart_answers(_FORKED.apart_statements(), posed)
    return _batch_answers(_FORKED.statements, posed, n)


def _timed_fork(work: Callable[[], object], most: float, limits: Limits | None) -> float | None:
    """The seconds `work()` takes in a forked process, or None where it took more than `most` (killed then),
    failed, or no process can be forked; `limits` checked meanwhile (LimitReached past them, the process
    killed). The work's result stays in that process: only its time is wanted. A bare fork, not a
    multiprocessing.Process: the child ends with os._exit, flushing nothing of this process's buffered
    output a second time, and prints nothing of its own."""
    if not hasattr(os, "fork"):
        return None
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 1
        try:
            os.close(reader)
            start = time.perf_counter()
            work()
            os.write(writer, repr(time.perf_counter() - start).encode())
            code = 0
        except BaseException:
            pass
        finally:
            os._exit(code)
    os.close(writer)
    try:
        deadline = time.monotonic() + most
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([reader], [], [], min(POLL, left))
            if ready:
                text = os.read(reader, 64)
                return float(text) if text else None  # nothing: the child failed
            if limits is not None:
                limits.poll()
        return None
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(reader)


def _apart_answers(statements: list[ast.AST], posed: Sequence[tuple[str, frozenset[str] | None]]
                   ) -> list[list[str]]:
    """The answers of a batch's queries, each grounded as a program of its own (StateQueries's `statements`)
    from its facts, in the form of a batch's (`_answers`): the successor of a query that gave a state (the
    texts of its fluents) as what changed, as gdl_batch.lp shows it."""
    answers = []
    for facts, given in posed:
        shown = [str(s) for s in _answer(statements, facts, None, "this state")]
        if given is None:
            answers.append(shown)
            continue
        answer = [s for s in shown if not s.startswith("gdl_state(")]
        after = {s[len("gdl_state("):-1] for s in shown if s.startswith("gdl_state(")}
        answer += [f"gdl_new({f})" for f in after if f not in given]
        answer += [f"gdl_gone({f})" for f in given if f not in after]
        answers.append(answer)
    return answers


def _batch_answers(statements: list[ast.AST], facts: str, n: int, observer: clingo.Observer | None = None
                   ) -> list[list[str]]:
    """The answers of a batch of `n` queries (their `facts`), per query (`_answers`)."""
    return _answers(_answer(statements, facts, observer, "these states"), n)


def _answers(shown: list[clingo.Symbol], n: int) -> list[list[str]]:
    """The shown atoms of a batch of `n` queries, per query, without the query index, as clingo texts: one call
    into clingo per atom (taking a symbol apart and making another costs four), and the texts key what the
    reader has decoded already (tgpl.asp.reasoner)."""
    answers: list[list[str]] = [[] for _ in range(n)]
    for symbol in shown:
        text = str(symbol)
        open_ = text.index("(")
        comma = text.find(",", open_)
        if comma < 0:  # `gdl_a_terminal(3)`
            answers[int(text[open_ + 1:-1])].append(text[:open_])
        else:
            answers[int(text[open_ + 1:comma])].append(text[:open_ + 1] + text[comma + 1:])
    return answers


def _answer(statements: list[ast.AST], facts: str, observer: clingo.Observer | None, what: str
            ) -> list[clingo.Symbol]:
    """The shown atoms of the one answer set of `statements` and the `facts` text, grounded in a fresh Control
    (it cannot forget facts); `observer` sees what the grounder emits."""
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none", "--models=1"], logger=lambda code, msg: messages.append(msg.strip()),
                         message_limit=20)
    if observer is not None:
        ctl.register_observer(observer)
    try:
        with ast.ProgramBuilder(ctl) as builder:
            for statement in statements:
                builder.add(statement)
        if facts:
            ctl.add("base", [], facts)
        ctl.ground([("base", [])])
    except RuntimeError as e:
        raise SolverError("; ".join(messages) or str(e)) from None
    found: list[list[clingo.Symbol]] = []
    ctl.solve(on_model=lambda m: found.append(m.symbols(shown=True)))
    if len(found) != 1:
        raise SolverError(f"the program has no answer set for {what} (is it stratified?)")
    return found[0]


_QUERY = "gdl_query"
"""The query indices of a batch (gdl_batch.lp); no game relation has a gdl_ name (tgpl.asp.gdl_to_asp)."""
_STEP = "gdl_step"
"""The query indices of a batch that give a state and a joint move, not the initial state's."""
_INDEX = Var("query index")
"""A variable no GDL variable can be: not an identifier, it is written `_V<k>` (tgpl.asp.gdl_to_asp._variable)."""


def _indexed(program: Program, domain: str) -> Program:
    """The game with the query index first in every relation that depends on `true` or `does`, and in
    `legal`, `goal`, `terminal`, `next` and `sees` whatever they depend on (a batch shows them per query), and in
    every relation that reads one of those. A rule of an indexed relation reads `domain(Q)` first (the
    queries it answers): it may read no indexed relation positively (`legal(R,noop) :- role(R), not
    true(control(R))`)."""
    indexed = DependencyGraph.of(program).reading({"true", "does", "next", "sees", *STATE_VIEW})

    def atom(a: Atom) -> Atom:
        return Atom(a.relation, (_INDEX, *a.args), a.span) if a.relation in indexed else a

    def literal(lit: Literal) -> Literal:
        if isinstance(lit, Atom):
            return atom(lit)
        if isinstance(lit, Not):
            return Not(literal(lit.literal), lit.span)
        if isinstance(lit, Or):
            return Or(tuple(literal(sub) for sub in lit.literals), lit.span)
        return lit

    queries = Atom(domain, (_INDEX,))
    return Program(tuple(Rule(atom(r.head), (queries, *map(literal, r.body)), r.span) if r.head.relation in indexed
                         else r for r in program.rules))


def estimate_rules(program: Program, own: Program) -> tuple[Rule, ...]:
    """The query's rules as tgpl.asp.estimate should see them (see the module's docstring)."""
    now = {"true": STATE_NOW, "does": MOVE_NOW}
    copied = lookahead_relations(program)
    ahead = {"true": "next", **{name: AHEAD + name for name in copied}}
    rules = [renamed(rule, now) for rule in own.rules]
    rules += [renamed(rule, ahead) for rule in program.rules if rule.head.relation in copied]
    return tuple(rules) + _FIXED


def _parsed(text: str) -> list[ast.AST]:
    statements: list[ast.AST] = []
    messages: list[str] = []
    try:
        ast.parse_string(text, statements.append, logger=lambda code, msg: messages.append(msg.strip()),
                         message_limit=20)
    except RuntimeError as e:
        raise SolverError("; ".join(messages) or str(e)) from None
    return statements


__all__ = ["StateQueries", "BatchQueries", "query_rules", "estimate_rules", "START"]
