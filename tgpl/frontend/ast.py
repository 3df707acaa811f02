"""The TGPL abstract syntax tree: plain dataclasses, one per construct.

Every node carries the `Span` of the source text it came from, so any later
stage (checker, runtime, lowering) can point at the code it is talking about.
Nothing downstream of the parser sees lark trees. Definitions keep their tags
in source order (`items`) so that the checker can report misplaced or repeated
tags where they were written; the `*_of` helpers select tags by kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar, Union

from tgpl.frontend.diagnostics import Span

T = TypeVar("T")


@dataclass(slots=True)
class Node:
    span: Span


# ---------------------------------------------------------------------- types


@dataclass(slots=True)
class TypeRef(Node):
    """A written type: `number`, `PlayerState`, `Alias.Card`, `List<List<player>>`."""

    name: str
    args: list[TypeRef] = field(default_factory=list)

    def __str__(self) -> str:
        if self.args:
            return f"{self.name}<{', '.join(str(a) for a in self.args)}>"
        return self.name


# ---------------------------------------------------------------- expressions


@dataclass(slots=True)
class Expr(Node):
    pass


@dataclass(slots=True)
class NumberLit(Expr):
    value: float


@dataclass(slots=True)
class StringLit(Expr):
    value: str


@dataclass(slots=True)
class BoolLit(Expr):
    value: bool


@dataclass(slots=True)
class NullLit(Expr):
    pass


@dataclass(slots=True)
class This(Expr):
    pass


@dataclass(slots=True)
class Base(Expr):
    pass


@dataclass(slots=True)
class Name(Expr):
    name: str


@dataclass(slots=True)
class Member(Expr):
    obj: Expr
    name: str
    name_span: Span


@dataclass(slots=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(slots=True)
class Arg(Node):
    """A call argument; `name` is None for a positional one."""

    name: str | None
    value: Expr


@dataclass(slots=True)
class Call(Expr):
    callee: Expr
    args: list[Arg]


@dataclass(slots=True)
class Binary(Expr):
    """`op` is the operator as written: + - * / % ^ < > <= >= == != & | && ||."""

    op: str
    left: Expr
    right: Expr


@dataclass(slots=True)
class Unary(Expr):
    op: str  # "-" or "!"
    operand: Expr


@dataclass(slots=True)
class TypeTest(Expr):
    """`expr is T`."""

    expr: Expr
    type: TypeRef


@dataclass(slots=True)
class Cast(Expr):
    """`expr as T`: the object as a T, or null."""

    expr: Expr
    type: TypeRef


@dataclass(slots=True)
class InitList(Expr):
    """`{a, b}` or `{{k, v}, ...}`: its meaning depends on the expected type."""

    items: list[Expr]


@dataclass(slots=True)
class New(Expr):
    type: TypeRef
    init: InitList | None


@dataclass(slots=True)
class Assign(Expr):
    """`target op value` with op one of = += -= *= /= %=."""

    target: Expr
    op: str
    value: Expr


# ----------------------------------------------------------------- statements


@dataclass(slots=True)
class Stmt(Node):
    pass


@dataclass(slots=True)
class Block(Stmt):
    body: list[Stmt]


@dataclass(slots=True)
class VarDecl(Stmt):
    """`T name = init;` as a statement, a class attribute, or a for initializer."""

    type: TypeRef
    name: str
    name_span: Span
    init: Expr | None


@dataclass(slots=True)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(slots=True)
class If(Stmt):
    cond: Expr
    then: Block
    orelse: Block | If | None


@dataclass(slots=True)
class While(Stmt):
    cond: Expr
    body: Block


@dataclass(slots=True)
class For(Stmt):
    init: VarDecl | Expr | None
    cond: Expr | None
    post: Expr | None
    body: Block
    # made by the lowering only (tgpl.lowering.group_clears): every pass reads the state as the loop found it
    reads_before: bool = False


@dataclass(slots=True)
class Return(Stmt):
    value: Expr | None


@dataclass(slots=True)
class Break(Stmt):
    pass


@dataclass(slots=True)
class Continue(Stmt):
    pass


@dataclass(slots=True)
class Winner(Stmt):
    value: Expr


@dataclass(slots=True)
class Filter(Node):
    """A filter block; `name` names the candidate (defaults to the input's name)."""

    name: str | None
    body: Block


@dataclass(slots=True)
class InputDecl(Stmt):
    """`[optional] [player [target] | auto | function] input T name ...`.

    `modifier` is "player" when none is written (the thesis's default).
    `shorthand` is true when the filters were written as one bare block.
    """

    optional: bool
    modifier: str
    modifier_written: bool
    target: Expr | None
    type: TypeRef
    name: str
    name_span: Span
    filters: list[Filter]
    default: Expr | None
    shorthand: bool = False


# ----------------------------------------------------------------------- tags


@dataclass(slots=True)
class Effect(Node):
    body: Block


@dataclass(slots=True)
class Require(Node):
    body: Block


@dataclass(slots=True)
class Trigger(Node):
    event: str
    event_span: Span
    body: Block


@dataclass(slots=True)
class Prio(Node):
    value: Expr


@dataclass(slots=True)
class Returns(Node):
    type: TypeRef | None


@dataclass(slots=True)
class Default(Node):
    body: Block


Tag = Union[InputDecl, Effect, Require, Trigger, Prio, Returns, VarDecl]


def tags_of(items: list, kind: type[T]) -> list[T]:
    return [item for item in items if isinstance(item, kind)]


def tag_of(items: list, kind: type[T]) -> T | None:
    found = tags_of(items, kind)
    return found[0] if found else None


def phase_named(turn: TurnDef | None, name) -> PhaseDef | None:
    """The phase of `turn` called `name` (None: no such turn or phase)."""
    return next((p for p in turn.phases if p.name == name), None) if turn is not None else None


def phase_body(phase: PhaseDef) -> Block:
    """What entering `phase` runs: its effect, or its plain statements (as in the thesis's 3.14)."""
    effect = tag_of(phase.items, Effect)
    return effect.body if effect is not None else Block(phase.span, [i for i in phase.items if isinstance(i, Stmt)])


# ---------------------------------------------------------------- definitions


@dataclass(slots=True)
class Secrecy(Node):
    """`private` or `hidden` before an attribute, `private` before an action: what a seat sees of it
    (docs/language.md, decision 94)."""

    kind: str  # private | hidden


@dataclass(slots=True)
class Attribute(Node):
    """A class attribute, from `T name = value;` or `attribute name { returns T; value v; }`."""

    name: str
    name_span: Span
    type: TypeRef | None
    value: Expr | None
    verbose: bool = False
    secrecy: Secrecy | None = None


@dataclass(frozen=True, slots=True)
class Origin:
    """What the designer wrote that a function the lowering made stands for (tgpl.lowering.floods' `HasPathFlood1`
    is the flood in `HasPath` over its list `reached`): messages name this, never the made name, which the
    designer never wrote and cannot find in the file (issue 34)."""

    function: str  # the designer's function it was made from (through every rewrite before)
    what: str  # what of that function it stands for: "its flood of the list 'reached'"
    line: int  # where that is in the designer's file

    def __str__(self) -> str:
        return f"{self.function}, {self.what} at line {self.line}"


def written_name(defn: FunctionDef) -> str:
    """The name of the designer's function `defn` is or was made from: `defn`'s own, or its origin's."""
    return defn.origin.function if defn.origin is not None else defn.name


def shown_name(defn: FunctionDef) -> str:
    """`defn` as a message names it: its name, or for a function the lowering made, what it was made from."""
    return str(defn.origin) if defn.origin is not None else defn.name


@dataclass(slots=True)
class FunctionDef(Node):
    name: str
    name_span: Span
    override: bool
    items: list  # InputDecl | Returns | Effect | misplaced tags
    # a number input that only stops a search the lowering made (tgpl.lowering.floods): its bound is proved to
    # cut no answer, so the lowering may drop it (tgpl.lowering.closures, language decision 115)
    stops: str | None = None
    # the input a `contains` search asks about, where the lowering compiles it as the set of items reached from
    # its start (tgpl.lowering.group_clears, tgpl.lowering.closures.reached_of); only the lowering sets it
    reaches: str | None = None
    # for a function the lowering made (a flood's search), what the designer wrote that it stands for
    origin: Origin | None = None

    @property
    def inputs(self) -> list[InputDecl]:
        return tags_of(self.items, InputDecl)

    @property
    def returns(self) -> Returns | None:
        return tag_of(self.items, Returns)

    @property
    def effect(self) -> Effect | None:
        return tag_of(self.items, Effect)


@dataclass(slots=True)
class ActionDef(Node):
    name: str
    name_span: Span
    override: bool
    items: list  # InputDecl | Effect | Require | Trigger | Prio | misplaced tags
    secrecy: Secrecy | None = None  # `private action`: its moves' inputs read `(hidden)` to other seats

    @property
    def inputs(self) -> list[InputDecl]:
        return tags_of(self.items, InputDecl)

    @property
    def effect(self) -> Effect | None:
        return tag_of(self.items, Effect)

    @property
    def requires(self) -> list[Require]:
        return tags_of(self.items, Require)

    @property
    def triggers(self) -> list[Trigger]:
        return tags_of(self.items, Trigger)

    @property
    def prio(self) -> Prio | None:
        return tag_of(self.items, Prio)


@dataclass(slots=True)
class GeometryTag(Node):
    name: str  # square | hex | graph


@dataclass(slots=True)
class OrientationTag(Node):
    name: str  # row | col


@dataclass(slots=True)
class GridCell(Node):
    """A tile type name in a grid row; `b` is the blank tile."""

    name: str


@dataclass(slots=True)
class Grid(Node):
    rows: list[list[GridCell]]


@dataclass(slots=True)
class GroupDef(Node):
    name: str
    name_span: Span
    items: list  # GeometryTag | OrientationTag | Grid | Default

    @property
    def geometry(self) -> GeometryTag | None:
        return tag_of(self.items, GeometryTag)

    @property
    def orientation(self) -> OrientationTag | None:
        return tag_of(self.items, OrientationTag)

    @property
    def grid(self) -> Grid | None:
        return tag_of(self.items, Grid)

    @property
    def default(self) -> Default | None:
        return tag_of(self.items, Default)


CLASS_KINDS = ("class", "interactable", "stack", "board", "tile", "connection", "event")


@dataclass(slots=True)
class ClassDef(Node):
    """Any class-like definition; `kind` is one of CLASS_KINDS."""

    kind: str
    name: str
    name_span: Span
    visibility: str | None  # local | group | global, None when not written
    base: str | None
    base_span: Span | None
    members: list  # Attribute | FunctionDef | ActionDef | Returns | Default | GroupDef | misplaced tags
    secrecy: Secrecy | None = None  # `private class`: who owns its objects is their owners' to see

    @property
    def attributes(self) -> list[Attribute]:
        return tags_of(self.members, Attribute)

    @property
    def functions(self) -> list[FunctionDef]:
        return tags_of(self.members, FunctionDef)

    @property
    def actions(self) -> list[ActionDef]:
        return tags_of(self.members, ActionDef)

    @property
    def groups(self) -> list[GroupDef]:
        return tags_of(self.members, GroupDef)


@dataclass(slots=True)
class PhaseDef(Node):
    """A turn phase: inputs and an `effect`, or plain statements (as in 3.14)."""

    name: str
    name_span: Span
    items: list  # Stmt | Effect


@dataclass(slots=True)
class TurnDef(Node):
    name: str
    name_span: Span
    items: list  # PhaseDef | Default

    @property
    def phases(self) -> list[PhaseDef]:
        return tags_of(self.items, PhaseDef)

    @property
    def default(self) -> Default | None:
        return tag_of(self.items, Default)


@dataclass(slots=True)
class SetupDef(Node):
    body: Block


@dataclass(slots=True)
class GameDirective(Node):
    name: str


@dataclass(slots=True)
class PlayersDirective(Node):
    count: Expr  # the number of players, or the minimum of a range
    maximum: Expr | None = None  # the maximum of `players min..max;`


@dataclass(slots=True)
class ImportDirective(Node):
    path: str
    path_span: Span
    alias: str | None


Definition = Union[ClassDef, FunctionDef, TurnDef]


@dataclass(slots=True)
class Module:
    """One parsed file: its directives and definitions in source order."""

    path: str
    items: list = field(default_factory=list)
    complete: bool = True  # False when syntax errors left nothing to build

    @property
    def imports(self) -> list[ImportDirective]:
        return tags_of(self.items, ImportDirective)

    @property
    def definitions(self) -> list[Definition]:
        return [i for i in self.items if isinstance(i, (ClassDef, FunctionDef, TurnDef))]


def walk(node):
    """Every AST node under `node` (a node or a list of them), `node` first, depth first. Each
    node's children are read once it has been yielded, as a recursive walk reads them; kept as a
    stack, since a game's tree is walked many times while it loads (checks, the runtime's facts)."""
    stack = [node]
    pop, extend = stack.pop, stack.extend
    while stack:
        n = pop()
        if isinstance(n, list):
            extend(reversed(n))
        elif isinstance(n, (Node, Module)):
            yield n
            extend(reversed(children(n)))


_FIELDS: dict[type, tuple[str, ...]] = {}


def children(node):
    """The values of a node's fields but its span (nodes, lists of them, names, literals), in field order: what a
    walk that keeps its own context (the loops around it, the calls it is in) descends into."""
    cls = node.__class__
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(name for name in cls.__dataclass_fields__ if name != "span")
    return [getattr(node, name, None) for name in names]


def counted_for(s: For) -> tuple[str, float, int] | None:
    """`for (number i = a; i < b; i += 1)` or `i <= b`, a a number literal (negative too, Pente's `dx = -1`): the
    counter's name, a, and 1 where the bound is inclusive (else 0); None for another loop."""
    init, cond, post = s.init, s.cond, s.post
    name = init.name if isinstance(init, VarDecl) else None
    if name is None or not (isinstance(cond, Binary) and cond.op in ("<", "<=")
                            and isinstance(cond.left, Name) and cond.left.name == name):
        return None
    if not (isinstance(post, Assign) and isinstance(post.target, Name) and post.target.name == name
            and post.op == "+=" and isinstance(post.value, NumberLit) and post.value.value == 1):
        return None
    first = init.init
    if isinstance(first, Unary) and first.op == "-" and isinstance(first.operand, NumberLit):
        return name, -first.operand.value, int(cond.op == "<=")
    if isinstance(first, NumberLit):
        return name, first.value, int(cond.op == "<=")
    return None
