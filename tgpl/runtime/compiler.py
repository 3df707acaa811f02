"""Compiles a checked program for the runtime.

Blocks become generated Python functions (tgpl.runtime.codegen); every node
also has a closure here, which generated code calls for the rarer nodes and
which runs everything when `RuntimeOptions.generate` is off (tests check both agree).

Names are resolved here once (locals to frame slots, members of `this`,
global objects, built-ins), using the static types the checker recorded, so
running a block is a chain of closure calls with no lookups by node type.

Statements return a signal: None to go on, BREAK, CONTINUE or a `Returned`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tgpl.builtin_calls import bind
from tgpl.frontend import ast
from tgpl.frontend.builtins import BuiltinClasses, Signature
from tgpl.frontend.loader import Program
from tgpl.frontend.symbols import ClassInfo, FunctionInfo, Scope
from tgpl.frontend.types import (
    ANY, BOOL, NUMBER, PLAYER, PRIMITIVES, STRING, CallableType, ClassType, Collection, Namespace, Type,
)
from tgpl.runtime.classes import (
    Code, Frame, RAction, RClass, RFunction, RGroup, RInput, RPhase, RTurn, Site,
)
from tgpl.runtime import defaults
from tgpl.runtime.passes import Passes
from tgpl.runtime.errors import BREAK, CONTINUE, NeedInput, Returned
from tgpl.runtime.calls import declare_winner, frame_runner
from tgpl.runtime.layout import Layout
from tgpl.runtime.options import DEFAULT, RuntimeOptions
from tgpl.runtime.operators import _ARITH, _MISSING, MISSING, _equal, _index
from tgpl.runtime.purity import analyse
from tgpl.runtime.readonly import ReadOnly
from tgpl.runtime.values import Obj, show, to_player

_NUMBERS = frozenset((int, float))  # bool is neither: `true + 1` stays an error


@dataclass
class CompiledGame:
    program: Program
    builtins: BuiltinClasses
    classes: dict[str, RClass]  # by name
    by_info: dict[int, RClass]  # by id(ClassInfo)
    functions: dict[int, RFunction]  # global functions by id(FunctionInfo)
    turns: dict[str, RTurn]
    setup: Code | None
    setup_size: int
    players: range  # the player counts the game allows: `players 2;` is range(2, 3)
    name: str
    actions: list[RAction]  # every action, in declaration order
    setup_home: object = None  # the home of the sites of the setup block (`Site.home`)
    options: RuntimeOptions = DEFAULT  # how it runs: what it was compiled with
    memos: int = 0  # memo tables (`World.memo`): pure functions' (`RFunction.memo`), then fixed expressions'
    _answering: dict[int, dict[int, list[RAction]]] = field(default_factory=dict)
    _discards: dict[int, bool] = field(default_factory=dict)

    def answering(self, event: RClass) -> dict[int, list[RAction]]:
        """Which actions answer an event of class `event`: per class (by id), its actions with a
        trigger on `event` or one of its bases, in declaration order. Resolved once per program
        and event class, so dispatching an event only visits the objects that may answer it."""
        found = self._answering.get(id(event))
        if found is None:
            names = {c.name for c in event.ancestors()}
            found = {}
            for rc in self.classes_by_id():
                actions = [ra for ra in rc.all_actions() if names.intersection(ra.triggers)]
                if actions:
                    found[id(rc)] = actions
            self._answering[id(event)] = found
        return found

    def may_discard(self, rc: RClass) -> bool:
        """Whether an object that is a `rc` can be discarded: an interactable (cached per class)."""
        found = self._discards.get(id(rc))
        if found is None:
            found = self._discards[id(rc)] = any(
                c.kind == "interactable" for k in self.classes_by_id() if k.is_a(rc) for c in k.ancestors())
        return found

    def builtin(self, name: str) -> RClass:
        """The runtime class of the built-in class `name` (`builtins.<name>`: "event", "group"...)."""
        return self.by_info[id(getattr(self.builtins, name))]

    def classes_by_id(self) -> list[RClass]:
        return list({id(rc): rc for rc in self.by_info.values()}.values())



class Compiler:
    def __init__(self, program: Program, options: RuntimeOptions, generator: type):
        self.program = program
        self.options = options
        # The code generator's class (`codegen.BlockGenerator`), given by `game.compile_program`:
        # it calls this compiler back for its closures, and imports this module for it.
        self.generator = generator
        self.types = program.types
        self.implicit_this = program.implicit_this
        self.builtins: BuiltinClasses = program.builtins  # the checker's: user classes derive from them
        self.by_info: dict[int, RClass] = {}
        self.classes: dict[str, RClass] = {}
        self.functions: dict[int, RFunction] = {}
        self.action_order = 0
        self.all_actions: list[RAction] = []
        self.scope: Scope | None = None
        # Where a choice can suspend code (`Site`): the home of the statements being compiled
        # (an action definition, a phase's or the setup's token; None in functions, filters,
        # requires, triggers and default blocks), the sites numbered so far, and the
        # expressions that are whole statements (a call of an action there is a site).
        self.home: object = None
        self.sites = 0
        self.statements: set[int] = set()
        self.memos = 0  # memo tables numbered: pure functions', then fixed expressions'
        # Whether a class declares a field named `player` (else an object's `player` is its owner)
        self.player_fields = any("player" in info.attributes for info in program.classes)
        self.purity = None  # tgpl.runtime.purity.Purity, before any block is compiled
        self.reads: ReadOnly | None = None  # made with the purity (`_memoize`)
        self.read_only: set[int] = set()  # ids of the FunctionDefs that read only (`_memoize`)
        self.listing_sites = 0  # call sites remembered while frozen (`codegen._listing_site`), numbered
        self.inlined = 0  # calls inlined (`tgpl.runtime.inlining`), numbered: their locals' names
        self.recursive: dict[int, bool] = {}  # by id(FunctionInfo): may it call itself (`inlining`)
        self.compiling: FunctionInfo | None = None  # the function whose body is being compiled
        self.passes = Passes()  # what `turn.pass` spelled inline needs (`tgpl.runtime.passes`)

    def site(self, home: object, live: tuple[int, ...]) -> Site:
        self.sites += 1
        return Site(self.sites, home, live)

    def in_home(self, home: object, compile_block):
        """`compile_block()` with `home` as the home of the statements it compiles."""
        saved, self.home = self.home, home
        try:
            return compile_block()
        finally:
            self.home = saved

    # ================================================================ driver
    def compile(self) -> CompiledGame:
        for info in (*self.builtins.by_name().values(), *self.program.classes):
            rc = RClass(info.name, info.kind, info.visibility, info)
            self.by_info[id(info)] = rc
            self.classes.setdefault(info.name, rc)
        for info in (*self.builtins.by_name().values(), *self.program.classes):
            if info.base is not None:
                self.by_info[id(info)].base = self.by_info.get(id(info.base))
        for fn in self.program.functions:
            self.functions[id(fn)] = self._declare_function(fn, None)
        for info in self.program.classes:
            rc = self.by_info[id(info)]
            for name, fi in info.functions.items():
                rc.functions[name] = self._declare_function(fi, rc)
        self._memoize()
        for fn in self.program.functions:
            self._compile_function(fn, self.functions[id(fn)])
        for info in self.program.classes:
            self._compile_class(info)
        turns = {}
        for name, turn in self.program.turns.items():
            self.scope = turn.scope
            turns[name] = self._compile_turn(turn.defn)
        self.passes.fill(turns)
        main = self.program.main_module
        setup_code, setup_size, players, game_name = None, 0, range(1, 2), ""
        setup_home = object()
        if main is not None:
            self.scope = self.program.scopes[main.path]
            for item in main.items:
                if isinstance(item, ast.SetupDef):
                    layout = Layout()
                    setup_code = self.in_home(setup_home, lambda: self.block(item.body, layout))
                    setup_size = layout.size
                elif isinstance(item, ast.PlayersDirective) and self.program.player_range is not None:
                    players = self.program.player_range  # as the checker evaluated `players`
                elif isinstance(item, ast.GameDirective):
                    game_name = item.name
        return CompiledGame(
            self.program, self.builtins, self.classes, self.by_info, self.functions, turns,
            setup_code, setup_size, players, game_name, self.all_actions, setup_home, self.options, self.memos,
        )

    def _memoize(self) -> None:
        """Find the pure functions (`tgpl.runtime.purity`), whose results the runtime memoizes once
        setup is over (`World.memo`), and number their tables; fixed expressions of blocks
        (`BlockGenerator.fixed`) number theirs after them."""
        self.purity = analyse(self.program, self._input_type, self._return_type)
        self.reads = ReadOnly(self.purity)  # what runs optimistically (`tgpl.runtime.readonly`)
        self.read_only = self.reads.functions
        for fn in self.program.functions:
            self._number_memo(fn, self.functions[id(fn)])
        for info in self.program.classes:
            rc = self.by_info[id(info)]
            for name, fi in info.functions.items():
                self._number_memo(fi, rc.functions[name])

    def _number_memo(self, fi: FunctionInfo, rf: RFunction) -> None:
        if id(fi.defn) in self.purity.memoized:
            rf.memo = self.memos
            self.memos += 1

    def direct_callee(self, fi: FunctionInfo, shape: tuple) -> bool:
        """Whether a call of `fi` giving the inputs `shape` (names, in order) runs directly
        (`tgpl.runtime.direct`): every function that may run (of the name, for a method: an
        override may) reads only, is not memoized, returns no player and takes exactly these
        inputs in this order."""
        for f in (self.purity.by_name.get(fi.name, [fi]) if fi.owner is not None else [fi]):
            if id(f.defn) not in self.read_only or tuple(i.name for i in f.defn.inputs) != shape:
                return False
            rf = self.functions.get(id(f)) if f.owner is None else self.by_info[id(f.owner)].functions.get(f.name)
            if rf is None or rf.memo is not None or rf.returns_player:
                return False
        return True

    def next_inline(self) -> int:
        """A number for a call inlined (`tgpl.runtime.inlining`): its locals' names in the caller."""
        self.inlined += 1
        return self.inlined

    def next_listing_site(self) -> int:
        """A number for a call site remembered while legal moves are listed: its part of the keys."""
        self.listing_sites += 1
        return self.listing_sites

    def rclass(self, info: ClassInfo) -> RClass:
        return self.by_info[id(info)]

    def type_of(self, e: ast.Expr) -> Type:
        return self.types.get(id(e), ANY)

    # ========================================================= definitions
    def _declare_function(self, fi: FunctionInfo, owner: RClass | None) -> RFunction:
        return RFunction(fi.name, owner, fi.defn, [], None, 0, self._return_type(fi))

    def _return_type(self, fi: FunctionInfo) -> Type:
        """The declared return type; an override without `returns` inherits its base's."""
        info: ClassInfo | None = fi.owner
        while True:
            tag = fi.defn.returns
            if tag is not None:
                if tag.type is None:
                    return ANY
                saved, self.scope = self.scope, fi.scope
                try:
                    return self._resolve(tag.type)
                finally:
                    self.scope = saved
            info = info.base if info is not None else None
            while info is not None and fi.name not in info.functions:
                info = info.base
            if info is None:
                return ANY
            fi = info.functions[fi.name]

    def _compile_function(self, fi: FunctionInfo, rf: RFunction) -> None:
        self.scope = fi.scope
        layout = Layout()
        rf.inputs = [self.input_decl(i, layout) for i in fi.defn.inputs]
        effect = fi.defn.effect
        params = tuple(i.slot for i in rf.inputs)
        optimistic = rf.what if id(fi.defn) in self.read_only else None
        self.compiling = fi
        try:
            rf.effect = self.function_effect(effect.body, layout, params, optimistic) if effect is not None else None
        finally:
            self.compiling = None
        rf.size = layout.size

    def _compile_class(self, info: ClassInfo) -> None:
        rc = self.rclass(info)
        self.scope = info.scope
        defn = info.defn
        assert defn is not None
        layout = Layout()
        for name, attr in info.attributes.items():
            code = None
            if attr.value is not None:
                code = self.value_for(attr.value, info.attribute_types.get(name, ANY), layout)
            rc.attributes.append((name, code))
        rc.init_size = layout.size
        for name, fi in info.functions.items():
            self._compile_function(fi, rc.functions[name])
            self.scope = info.scope
        for name, action in info.actions.items():
            rc.actions[name] = self._compile_action(action, rc)
        for group in info.groups.values():
            rc.groups.append(self._compile_group(group))
        if defn.kind == "stack":
            for member in defn.members:
                if isinstance(member, ast.Default):
                    layout = Layout()
                    rc.default = self.block(member.body, layout)
                    rc.default_size = layout.size

    def _compile_action(self, action: ast.ActionDef, owner: RClass) -> RAction:
        layout = Layout()
        inputs = [self.input_decl(i, layout, home=action) for i in action.inputs]
        requires = [self.block(r.body, layout) for r in action.requires]
        triggers: dict[str, Code] = {}
        for t in action.triggers:
            assert self.scope is not None
            sym = self.scope.lookup(t.event) or self.builtins.by_name().get(t.event)
            name = sym.name if isinstance(sym, ClassInfo) else t.event
            triggers[name] = code = self.block(t.body, layout)
            if _returns_true(t.body):  # `trigger PlayerChoiceEvent { return true; }`, most triggers
                code.always = True
        prio = self.expr(action.prio.value, layout) if action.prio is not None else None
        effect = None
        if action.effect is not None:
            effect = self.in_home(action, lambda: self.block(action.effect.body, layout, direct=True))
        self.action_order += 1
        ra = RAction(action.name, owner, action, self.action_order, inputs, requires, triggers, prio, effect, layout.size,
                     getattr(effect, "direct", None))
        self.all_actions.append(ra)
        return ra

    def _compile_group(self, group: ast.GroupDef) -> RGroup:
        geometry = group.geometry.name if group.geometry else "square"
        orientation = None
        if group.orientation is not None:
            orientation = {"row": "row", "col": "col", "column": "col"}.get(group.orientation.name, "row")
        rows: list[list[RClass | None]] = []
        if group.grid is not None:
            assert self.scope is not None
            for row in group.grid.rows:
                cells: list[RClass | None] = []
                for cell in row:
                    if cell.name == "b":
                        cells.append(self.rclass(self.builtins.blank_tile))
                    else:
                        sym = self.scope.lookup(cell.name) or self.builtins.by_name().get(cell.name)
                        cells.append(self.rclass(sym) if isinstance(sym, ClassInfo) else None)
                rows.append(cells)
        default, size = None, 0
        if group.default is not None:
            layout = Layout()
            default = self.block(group.default.body, layout)
            size = layout.size
        return RGroup(group.name, geometry, orientation, rows, default, size)

    def _compile_turn(self, turn: ast.TurnDef) -> RTurn:
        phases: dict[str, RPhase] = {}
        for phase in turn.phases:
            layout = Layout()
            home = object()
            effects = [i for i in phase.items if isinstance(i, ast.Effect)]
            inputs = [self.input_decl(i, layout, home=home) for i in phase.items if isinstance(i, ast.InputDecl)]
            plain = not inputs  # also spelled plainly (`RPhase.plain`)
            if effects:
                effect = self.in_home(home, lambda: self.block(effects[0].body, layout, direct=plain))
            else:
                body = [i for i in phase.items if not isinstance(i, ast.Effect)]
                effect = self.in_home(home, lambda: self.block(ast.Block(phase.span, body), layout, direct=plain)) if body else None
            phases[phase.name] = RPhase(phase.name, turn.name, inputs, effect, layout.size, phase.span, home,
                                        getattr(effect, "direct", None) if plain else None)
        default, size = None, 0
        if turn.default is not None:
            layout = Layout()
            default = self.block(turn.default.body, layout, direct=True)  # `Machine.turn_pass_default`
            size = layout.size
        rturn = RTurn(turn.name, phases, default, size, turn.span)
        rturn.control_only = turn.default is not None and defaults.control_only(turn.default.body, self.types)
        return rturn

    def input_decl(self, inp: ast.InputDecl, layout: Layout, home: object = None) -> RInput:
        """An input; `home`: the action, phase or setup whose declared input or statement it is."""
        live = layout.in_scope()
        saved, self.home = self.home, None  # its filters, target and default are not statements of home
        try:
            return self._input_decl(inp, layout, home, live)
        finally:
            self.home = saved

    def _input_decl(self, inp: ast.InputDecl, layout: Layout, home: object, live: tuple[int, ...]) -> RInput:
        t = self._resolve(inp.type)
        is_list = isinstance(t, Collection) and t.kind == "List"
        candidate_type = t.elem if isinstance(t, Collection) and is_list else t
        filters = []
        constant = []
        for flt in inp.filters:
            layout.push()
            slot = layout.declare(flt.name or inp.name, candidate_type)
            code_all = None
            if self.options.generate and len(inp.filters) == 1:
                reads = self.reads is not None and self.reads.block(flt.body)
                code_all = self.generator(self, layout, direct=True, optimistic="filter" if reads else None
                                          ).filter_all(flt.body, slot)
            # the filter's own spelling, and its plain one where `Machine.candidates` runs it: one
            # filter that is not run over the pool in one call (`code_all`)
            code = self.block(flt.body, layout, direct=len(inp.filters) == 1 and code_all is None)
            if code_all is not None:
                code.all = code_all
            filters.append((slot, code))
            layout.pop()
            candidate = flt.name or inp.name
            constant.append(not any(isinstance(n, ast.Name) and n.name == candidate for n in ast.walk(flt.body)))
        target = self.expr(inp.target, layout) if inp.target is not None else None
        default = self.value_for(inp.default, t, layout) if inp.default is not None else None
        slot = layout.declare(inp.name, t)
        modifier = inp.modifier if not inp.modifier.startswith("?") else "player"
        return RInput(inp.name, slot, modifier, inp.optional, t, inp.span, candidate_type, is_list, target, filters, default,
                      tuple(constant), self.site(home, live))

    def _resolve(self, ref: ast.TypeRef) -> Type:
        if ref.args:
            return Collection(ref.name, self._resolve(ref.args[0]))
        if ref.name in PRIMITIVES:
            return PRIMITIVES[ref.name]
        assert self.scope is not None
        sym = self.scope.lookup(ref.name) or self.builtins.by_name().get(ref.name)
        return ClassType(sym) if isinstance(sym, ClassInfo) else ANY

    # ========================================================== statements
    def function_effect(self, block: ast.Block, layout: Layout, params: tuple[int, ...], optimistic: str | None):
        """A function's body as `RFunction.effect`, a function of (machine, this, its inputs)
        whatever the options; `params`: the inputs' slots; `optimistic`: its `what` when it reads
        only (`tgpl.runtime.readonly`)."""
        if self.options.generate:
            return self.generator(self, layout, optimistic=optimistic).function(block, params)
        return frame_runner(self.block(block, layout), layout.size, params)

    def block(self, block: ast.Block, layout: Layout, direct: bool = False) -> Code:
        """The block's code; `direct`: generated code also carries, when it can, a plain
        function of (machine, this, locals) returning the value (`RAction.plain`, `RPhase.plain`)."""
        if self.options.generate:
            return self.generator(self, layout, direct).generate(block)
        layout.push()
        codes = [self.stmt(s, layout) for s in block.body]
        layout.pop()
        if not codes:
            return lambda f: None
        if len(codes) == 1:
            return codes[0]

        def run(f, codes=tuple(codes)):
            for code in codes:
                r = code(f)
                if r is not None:
                    return r
            return None

        return run

    def stmt(self, s: ast.Stmt, layout: Layout) -> Code:
        return getattr(self, "stmt_" + type(s).__name__)(s, layout)

    def stmt_Block(self, s: ast.Block, layout: Layout) -> Code:
        return self.block(s, layout)

    def stmt_VarDecl(self, s: ast.VarDecl, layout: Layout) -> Code:
        t = self._resolve(s.type)
        init = self.value_for(s.init, t, layout) if s.init is not None else None
        slot = layout.declare(s.name, t)

        def decl(f):
            f.vars[slot] = init(f) if init is not None else None

        return decl

    def stmt_ExprStmt(self, s: ast.ExprStmt, layout: Layout) -> Code:
        self.statements.add(id(s.expr))
        code = self.expr(s.expr, layout)

        def run(f):
            code(f)

        return run

    def stmt_If(self, s: ast.If, layout: Layout) -> Code:
        cond = self.expr(s.cond, layout)
        then = self.block(s.then, layout)
        orelse = self.stmt(s.orelse, layout) if s.orelse is not None else None
        span = s.cond.span

        def run_if(f):
            c = cond(f)
            if c is True:
                return then(f)
            if c is not False:
                f.m.error(span, f"the condition is {show(c)}, not a bool")
            return orelse(f) if orelse is not None else None

        return run_if

    def stmt_While(self, s: ast.While, layout: Layout) -> Code:
        return _loop(self.expr(s.cond, layout), self.block(s.body, layout), s.span)

    def stmt_For(self, s: ast.For, layout: Layout) -> Code:
        layout.push()
        if isinstance(s.init, ast.VarDecl):
            init = self.stmt_VarDecl(s.init, layout)
        elif s.init is not None:
            init = self.expr(s.init, layout)
        else:
            init = None
        cond = self.expr(s.cond, layout) if s.cond is not None else None
        post = self.expr(s.post, layout) if s.post is not None else None
        body = self.block(s.body, layout)
        layout.pop()
        return _loop(cond, body, s.span, init, post)

    def stmt_Return(self, s: ast.Return, layout: Layout) -> Code:
        if s.value is None:
            nothing = Returned(None)
            return lambda f: nothing
        value = self.expr(s.value, layout)
        return lambda f: Returned(value(f))

    def stmt_Break(self, s, layout):
        return lambda f: BREAK

    def stmt_Continue(self, s, layout):
        return lambda f: CONTINUE

    def stmt_Winner(self, s: ast.Winner, layout: Layout) -> Code:
        value = self.expr(s.value, layout)
        span = s.span

        def run(f):
            declare_winner(f.m, value(f), span)

        return run

    def stmt_InputDecl(self, s: ast.InputDecl, layout: Layout) -> Code:
        rinput = self.input_decl(s, layout, home=self.home)
        slot = rinput.slot

        def run(f):
            f.vars[slot] = f.m.ask_input(rinput, f)

        return run

    # ========================================================= expressions
    def value_for(self, e: ast.Expr, want: Type, layout: Layout) -> Code:
        """Compile e as a value stored where `want` is declared (players are mapped)."""
        code = self.expr(e, layout, want)
        if want == PLAYER and self.type_of(e) != PLAYER:
            def as_player(f):
                v = code(f)
                return None if v is None else to_player(v, f.m.players)
            return as_player
        return code

    def expr(self, e: ast.Expr, layout: Layout, want: Type | None = None) -> Code:
        if isinstance(e, ast.InitList):
            return self.init_list(e, want if want is not None else self.type_of(e), layout)
        return getattr(self, "expr_" + type(e).__name__)(e, layout)

    def expr_NumberLit(self, e, layout):
        v = e.value
        return lambda f: v

    expr_StringLit = expr_BoolLit = expr_NumberLit

    def expr_NullLit(self, e, layout):
        return lambda f: None

    def expr_This(self, e, layout):
        return lambda f: f.this

    expr_Base = expr_This

    def init_list(self, e: ast.InitList, want: Type, layout: Layout) -> Code:
        if isinstance(want, Collection) and want.kind == "Table":
            pairs = []
            for item in e.items:
                if isinstance(item, ast.InitList) and len(item.items) == 2:
                    pairs.append((self.expr(item.items[0], layout), self.value_for(item.items[1], want.elem, layout)))
            span = e.span

            def make_table(f):
                d = {}
                for k, v in pairs:
                    key = k(f)
                    if key is None:
                        f.m.error(span, "a table key is null")
                    d[key] = v(f)
                return d

            return make_table
        elem = want.elem if isinstance(want, Collection) else ANY
        if isinstance(want, ClassType) and want.info.deck_item is not None:
            elem = want.info.deck_item
        items = [self.value_for(i, elem, layout) for i in e.items]
        return lambda f: [i(f) for i in items]

    # --------------------------------------------------------------- names
    def expr_Name(self, e: ast.Name, layout: Layout) -> Code:
        slot = layout.lookup(e.name)
        if slot is not None:
            return lambda f: f.vars[slot]
        name, span = e.name, e.span
        if id(e) in self.implicit_this:
            return lambda f: f.m.get_member(f.this, name, span)
        if name == "event":
            return lambda f: f.event
        t = self.type_of(e)
        if isinstance(t, ClassType) and t.info.visibility == "global":
            cname = t.info.name
            return lambda f: f.m.global_object(cname)

        def not_a_value(f):
            f.m.error(span, f"'{name}' is not a value")

        return not_a_value

    def expr_Member(self, e: ast.Member, layout: Layout) -> Code:
        obj_t = self.type_of(e.obj)
        name, span = e.name, e.name_span
        if isinstance(obj_t, Namespace) and obj_t.name.startswith("import:"):
            t = self.type_of(e)
            if isinstance(t, ClassType) and t.info.visibility == "global":
                cname = t.info.name
                return lambda f: f.m.global_object(cname)
            return lambda f: f.m.error(span, f"'{name}' is not a value")
        obj = self.expr(e.obj, layout)
        if isinstance(obj_t, Collection) and name == "length":
            return lambda f: float(len(f.m.not_null(obj(f), span)))
        return lambda f: f.m.get_member(obj(f), name, span)

    def expr_Index(self, e: ast.Index, layout: Layout) -> Code:
        obj = self.expr(e.obj, layout)
        key = self.expr(e.index, layout)
        span = e.span

        return lambda f: _index(f.m, obj(f), key(f), span)

    # --------------------------------------------------------------- calls
    def expr_Call(self, e: ast.Call, layout: Layout) -> Code:
        callee = e.callee
        span = e.span
        if isinstance(callee, ast.Member) and callee.name == "length" and not e.args:
            obj = self.expr(callee.obj, layout)
            return lambda f: f.m.length(obj(f), span)
        callee_t = self.type_of(callee)
        if not isinstance(callee_t, CallableType):
            return lambda f: f.m.error(span, "this cannot be called")
        if callee_t.kind == "function":
            return self.call_function(e, callee, callee_t.target, layout)
        if callee_t.kind == "action":
            return self.call_action(e, callee, callee_t.name, layout)
        return self.call_builtin(e, callee, callee_t, layout)

    def _args(self, e: ast.Call, layout: Layout, params: dict[str, Type]) -> list[tuple[str, Code]]:
        out = []
        for a in e.args:
            if a.name is not None:
                out.append((a.name, self.value_for(a.value, params.get(a.name, ANY), layout)))
        return out

    def call_function(self, e: ast.Call, callee: ast.Expr, fi: FunctionInfo, layout: Layout) -> Code:
        span = e.span
        params = {i.name: self._input_type(i, fi.scope) for i in fi.defn.inputs}
        args = self._args(e, layout, params)
        name = fi.name
        if fi.owner is None:
            rf = self.functions[id(fi)]
            return lambda f: f.m.call_function(rf, None, [(n, a(f)) for n, a in args], span)
        if isinstance(callee, ast.Member):
            if isinstance(callee.obj, ast.Base):
                base_rf = self.rclass(fi.owner).find_function(name)
                return lambda f: f.m.call_function(base_rf, f.this, [(n, a(f)) for n, a in args], span)
            obj = self.expr(callee.obj, layout)
        else:
            obj = lambda f: f.this  # noqa: E731 - an implicit `this`

        def call_method(f):
            target = f.m.not_null(obj(f), span)
            rf = target.cls.find_function(name)
            if rf is None:
                f.m.error(span, f"{target.name} has no function '{name}'")
            return f.m.call_function(rf, target, [(n, a(f)) for n, a in args], span)

        return call_method

    def _input_type(self, inp: ast.InputDecl, scope: Scope) -> Type:
        saved, self.scope = self.scope, scope
        try:
            return self._resolve(inp.type)
        finally:
            self.scope = saved

    def call_action(self, e: ast.Call, callee: ast.Expr, name: str, layout: Layout) -> Code:
        span = e.span
        args = self._args(e, layout, {})
        base_call = isinstance(callee, ast.Member) and isinstance(callee.obj, ast.Base)
        if isinstance(callee, ast.Member) and not base_call:
            obj = self.expr(callee.obj, layout)
        else:
            obj = lambda f: f.this  # noqa: E731
        owner_info = None
        if base_call:
            t = self.type_of(callee.obj)
            owner_info = t.info if isinstance(t, ClassType) else None

        def call(f):
            target = f.m.not_null(obj(f), span)
            cls = self.by_info[id(owner_info)] if owner_info is not None else target.cls
            ra = cls.find_action(name)
            if ra is None:
                f.m.error(span, f"{target.name} has no action '{name}'")
            f.m.call_action(target, ra, [(n, a(f)) for n, a in args], span)

        if id(e) not in self.statements:
            return call
        # A call made as a whole statement: a choice asked in the action suspends the caller
        # right here, its locals in scope all it holds (no operand half evaluated).
        site = self.site(self.home, layout.in_scope())

        def call_statement(f):
            try:
                call(f)
            except NeedInput as need:
                need.reopen(f, site)
                raise

        return call_statement

    def call_builtin(self, e: ast.Call, callee: ast.Expr, ct: CallableType, layout: Layout) -> Code:
        sig = ct.target
        assert isinstance(sig, Signature)
        span = e.span
        bound = bind(sig, e)
        args = [
            (self.value_for(bound[p.name], p.type, layout) if p.name in bound else None) for p in sig.params
        ]
        entry = sig.entry
        if not entry.method:  # a namespace's or a global function: its runtime code, on the values
            run = entry.run
            return lambda f: run(f.m, [a(f) if a is not None else _MISSING for a in args], span)
        if isinstance(callee, ast.Member):
            obj = self.expr(callee.obj, layout)
        else:
            obj = lambda f: f.this  # noqa: E731
        name = ct.name

        def call(f):
            target = obj(f)
            values = [a(f) if a is not None else _MISSING for a in args]
            return f.m.builtin_method(target, name, values, span)

        return call

    # ----------------------------------------------------------- operators
    def expr_Unary(self, e: ast.Unary, layout: Layout) -> Code:
        operand = self.expr(e.operand, layout)
        span = e.span
        if e.op == "!":
            def not_(f):
                v = operand(f)
                if v is True:
                    return False
                if v is False:
                    return True
                return f.m.error(span, f"'!' of {show(v)}")
            return not_

        def neg(f):
            v = operand(f)
            if v is None or isinstance(v, (bool, str)):
                return f.m.error(span, f"'-' of {show(v)}")
            return -v

        return neg

    def expr_Binary(self, e: ast.Binary, layout: Layout) -> Code:
        left = self.expr(e.left, layout)
        right = self.expr(e.right, layout)
        op, span = e.op, e.span
        if op in ("&&", "||"):
            return _short_circuit(op, left, right, e.left.span, e.right.span)
        if op == "==":
            return lambda f: _equal(left(f), right(f))
        if op == "!=":
            return lambda f: not _equal(left(f), right(f))
        result_t = self.type_of(e)
        fn = _ARITH.get(op)
        if op == "+" and result_t == STRING:
            span = e.span
            return lambda f: f.m.concat(left(f), right(f), span)
        if op in ("&", "|") or (op == "^" and result_t == BOOL):
            logic = {"&": lambda a, b: a and b, "|": lambda a, b: a or b, "^": lambda a, b: a != b}[op]

            def bool_op(f):
                a, b = left(f), right(f)
                if not isinstance(a, bool) or not isinstance(b, bool):
                    f.m.error(span, f"'{op}' of {show(a)} and {show(b)}")
                return logic(a, b)
            return bool_op
        assert fn is not None, op
        if result_t == PLAYER:
            def player_op(f):
                return to_player(f.m.arith(fn, op, left(f), right(f), span), f.m.players)
            return player_op
        if op in ("<", ">", "<=", ">="):
            def compare(f):
                a, b = left(f), right(f)
                if a.__class__ in _NUMBERS and b.__class__ in _NUMBERS:
                    return fn(a, b)
                return f.m.compare(fn, op, a, b, span)  # strings, and the errors
            return compare
        if op in ("+", "-", "*"):
            def arith(f):
                a, b = left(f), right(f)
                if a.__class__ in _NUMBERS and b.__class__ in _NUMBERS:
                    return float(fn(a, b))
                return f.m.arith(fn, op, a, b, span)  # the errors
            return arith
        return lambda f: f.m.arith(fn, op, left(f), right(f), span)

    def expr_TypeTest(self, e: ast.TypeTest, layout: Layout) -> Code:
        value = self.expr(e.expr, layout)
        test = self._type_test(self._resolve(e.type))
        return lambda f: test(value(f))

    def expr_Cast(self, e: ast.Cast, layout: Layout) -> Code:
        value = self.expr(e.expr, layout)
        test = self._type_test(self._resolve(e.type))

        def cast(f):
            v = value(f)
            return v if test(v) else None

        return cast

    def _type_test(self, t: Type):
        if isinstance(t, ClassType):
            rc = self.rclass(t.info)
            return lambda v: isinstance(v, Obj) and v.cls.is_a(rc)
        if t == NUMBER or t == PLAYER:
            return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
        if t == STRING:
            return lambda v: isinstance(v, str)
        if t == BOOL:
            return lambda v: isinstance(v, bool)
        if isinstance(t, Collection):
            kind = dict if t.kind == "Table" else list
            return lambda v: isinstance(v, kind)
        return lambda v: v is not None

    def expr_New(self, e: ast.New, layout: Layout) -> Code:
        t = self._resolve(e.type)
        init = self.init_list(e.init, t, layout) if e.init is not None else None
        span = e.span
        if isinstance(t, Collection):
            empty = dict if t.kind == "Table" else list
            if init is None:
                return lambda f: empty()
            return init
        if isinstance(t, ClassType):
            rc = self.rclass(t.info)

            def new(f):
                obj = f.m.new_object(rc, span)
                if init is not None:
                    for item in init(f):
                        f.m.builtin_method(obj, "push", [item], span)
                return obj

            return new
        return lambda f: f.m.error(span, f"cannot create a {t}")

    def expr_Assign(self, e: ast.Assign, layout: Layout) -> Code:
        target = e.target
        target_t = self.type_of(target)
        if isinstance(target, ast.Name) and layout.lookup(target.name) is not None:
            target_t = layout.types.get(layout.lookup(target.name), target_t)  # the checker records no type here
        if e.op == "=":
            value = self.value_for(e.value, target_t, layout)
        else:
            raw = self.expr(e.value, layout)
            current = self.expr(target, layout)
            fn = _ARITH[e.op[0]]
            op, span = e.op[0], e.span
            if target_t == STRING:
                def value(f):
                    return f.m.concat(current(f), raw(f), span)
            elif target_t == PLAYER:
                def value(f):
                    return to_player(f.m.arith(fn, op, current(f), raw(f), span), f.m.players)
            else:
                def value(f):
                    a, b = current(f), raw(f)
                    if a.__class__ in _NUMBERS and b.__class__ in _NUMBERS and op != "/" and op != "%":
                        return float(fn(a, b))
                    return f.m.arith(fn, op, a, b, span)  # division, and the errors
        if isinstance(target, ast.Name):
            slot = layout.lookup(target.name)
            if slot is not None:
                def set_local(f):
                    f.vars[slot] = value(f)
                return set_local
            name, span = target.name, target.span
            return lambda f: f.m.set_member(f.this, name, value(f), span)
        if isinstance(target, ast.Member):
            obj = self.expr(target.obj, layout)
            name, span = target.name, target.name_span
            return lambda f: f.m.set_member(obj(f), name, value(f), span)
        obj = self.expr(target.obj, layout)  # an index: the checker takes no other target
        key = self.expr(target.index, layout)
        span = target.span

        def set_index(f):
            o, k = obj(f), key(f)
            f.m.set_index(o, k, value(f), span)

        return set_index


def _returns_true(block: ast.Block) -> bool:
    """Whether `block` is `return true;`: running it changes and counts nothing, and gives true
    (`Machine.trigger_holds` does not run it)."""
    body = block.body
    return (len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.BoolLit)
            and body[0].value.value is True)


def _loop(cond: Code | None, body: Code, span, init: Code | None = None, post: Code | None = None) -> Code:
    """A while loop, or a for loop with its init and post parts; every pass counts a step."""

    def run(f):
        m = f.m
        if init is not None:
            init(f)
        while True:
            if cond is not None:
                c = cond(f)
                if c is not True:
                    if c is not False:
                        m.error(span, f"the condition is {show(c)}, not a bool")
                    return None
            m.step(span)
            r = body(f)
            if r is not None:
                if r is BREAK:
                    return None
                if r is not CONTINUE:
                    return r
            if post is not None:
                post(f)

    return run


def _short_circuit(op: str, left: Code, right: Code, left_span, right_span) -> Code:
    """`&&` stops on false, `||` on true; both sides must be bools (3.2.4)."""
    decided = op == "||"  # the left value that decides the result alone

    def run(f):
        a = left(f)
        if a is decided:
            return decided
        if a is not (not decided):
            f.m.error(left_span, f"'{op}' of {show(a)}")
        b = right(f)
        if b is not True and b is not False:
            f.m.error(right_span, f"'{op}' of {show(b)}")
        return b

    return run


__all__ = ["CompiledGame", "Compiler", "Frame", "MISSING", "RGroup"]
