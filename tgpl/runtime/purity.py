"""Which TGPL functions the runtime may memoize: their result depends only on their arguments
(and `this`) and on data no code changes once setup is over.

Read statically, conservatively. A function is *pure* when:

- its inputs are all `function` inputs of a scalar type (number, bool, string, player, a class)
  and it returns a scalar: a memo keyed by the argument values holds nothing the game changes;
- its body declares and changes locals only, loops, branches and returns, and reads only
  literals, its locals, `this`, global objects, declared fields that no code run after setup
  assigns (by name: any `X.F = ...` or `F = ...` anywhere but in `setup` counts for every class's
  `F`), cells of groups (`Grid[c][r]`: fixed once built), and lists and tables the function makes
  itself; a list or table held in a field only when no code but setup changes any list, table or
  stack in place (one could be an alias of the field's);
- it calls only pure functions (every function of that name, for a method: an override may run),
  and of the built-ins only `length` and the methods of lists, tables and stacks that change
  nothing and give back nothing their receiver holds (`Builtin.pure` in `tgpl.builtin_calls`:
  `contains`, `indexOf`, `copy`, `clone`, `keys`, `values`);
- it reads no built-in member (`player`, `tile`, `discarded`...: moves change them), no `event`,
  creates nothing, throws nothing, asks nothing, logs nothing, declares no winner;
- it is not reachable from code that runs while an object is being built (attribute
  initializers, `default` blocks of groups and stacks), where a field it reads may not hold its
  final value yet.

"After setup" is everything but the `setup` block itself: functions called only from setup still
count, so a field that setup's helpers assign is not fixed. The runtime keeps the memo per
completed setup (`World.memo`, shared by every state copied from it) and only after setup.
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.builtins import READ_ONLY
from tgpl.frontend.symbols import ClassInfo, FunctionInfo
from tgpl.frontend.types import BOOL, NUMBER, PLAYER, STRING, CallableType, ClassType, Collection, Prim, Type

SCALARS = (NUMBER, BOOL, STRING, PLAYER)
# nodes that read and write nothing themselves (what they hold is judged on its own)
PLAIN_NODES = (
    ast.NumberLit, ast.StringLit, ast.BoolLit, ast.NullLit, ast.This, ast.Binary, ast.Unary,
    ast.TypeTest, ast.Cast, ast.InitList, ast.Arg, ast.TypeRef, ast.Block, ast.VarDecl, ast.ExprStmt,
    ast.If, ast.While, ast.For, ast.Return, ast.Break, ast.Continue,
)
# Built-in members of objects: never part of a pure function's reads.
_BUILTIN_MEMBERS = READ_ONLY | {"connections", "to", "tiles", "geometry", "orientation", "owners"}


def scalar(t: Type | None) -> bool:
    return t in SCALARS or isinstance(t, ClassType)


class Purity:
    """The analysis of one program: `pure` (the ids of the pure FunctionDefs) and `fixed`.
    `input_type(InputDecl, Scope)` and `return_type(FunctionInfo)` resolve declared types."""

    def __init__(self, program, input_type, return_type):
        self.program = program
        self.input_type = input_type
        self.return_type = return_type
        self.types = program.types
        self.implicit_this = program.implicit_this
        self.written: set[str] = set()  # field names assigned by code run after setup
        self.collections_change = False  # a list, table or stack changed in place after setup
        self.fields: set[str] = set()  # declared attribute and group names
        self.by_name: dict[str, list[FunctionInfo]] = {}
        self.building: set[int] = set()  # ids of FunctionDefs reachable from object building
        self.functions: list[FunctionInfo] = list(program.functions)
        for info in program.classes:
            self.fields.update(info.attributes)
            self.fields.update(info.groups)
            self.functions.extend(info.functions.values())
        for fi in self.functions:
            self.by_name.setdefault(fi.name, []).append(fi)

    # ------------------------------------------------------------- writes
    def scan_writes(self) -> None:
        """The fields assigned, and whether collections change, in code that can run after setup:
        everything but `setup`, and but the `default` blocks of classes (and of the groups of
        boards) that only setup creates."""
        built = self.built_after_setup()
        skipped: set[int] = set()
        for info in self.program.classes:
            if id(info) in built or info.defn is None:
                continue
            skipped.update(id(m) for m in info.defn.members if isinstance(m, ast.Default))
            skipped.update(id(g) for g in info.groups.values())
        self.skipped = skipped
        for module in self.program.modules:
            for item in module.items:
                if not isinstance(item, ast.SetupDef):
                    self.scan(item)

    def scan(self, node) -> None:
        if isinstance(node, list):
            for x in node:
                self.scan(x)
            return
        if not isinstance(node, ast.Node) or id(node) in self.skipped:
            return
        if isinstance(node, ast.Assign):
            self.note_target(node.target)
        elif isinstance(node, ast.Call):
            ct = self.types.get(id(node.callee))
            if isinstance(ct, CallableType) and ct.kind == "builtin" and ct.target.entry.writes == "items":
                self.collections_change = True
        for child in ast.children(node):
            self.scan(child)

    def built_after_setup(self) -> set[int]:
        """The ids of the ClassInfos whose objects code other than setup may create (`new`, a board's
        tiles), with their bases: their initializers and `default` blocks run after setup."""
        made = []
        for module in self.program.modules:
            for item in module.items:
                if isinstance(item, ast.SetupDef):
                    continue
                for n in ast.walk(item):
                    if isinstance(n, ast.New):
                        t = self.types.get(id(n))
                        if isinstance(t, ClassType):
                            made.append(t.info)
                        elif not isinstance(t, Collection):
                            return {id(info) for info in self.program.classes}  # unknown: all
        built: set[int] = set()
        while made:
            info = made.pop()
            for a in info.ancestors():
                if id(a) in built:
                    continue
                built.add(id(a))
                for g in a.groups.values():
                    for n in ast.walk(g):
                        if isinstance(n, ast.GridCell) and n.name != "b":
                            sym = a.scope.lookup(n.name) if a.scope is not None else None
                            sym = sym or self.program.builtins.by_name().get(n.name)
                            if not isinstance(sym, ClassInfo):
                                return {id(info) for info in self.program.classes}
                            made.append(sym)
        return built

    def note_target(self, target: ast.Expr) -> None:
        if isinstance(target, ast.Member):
            self.written.add(target.name)
        elif isinstance(target, ast.Name):
            if id(target) in self.implicit_this:
                self.written.add(target.name)
        elif isinstance(target, ast.Index):
            self.collections_change = True
            root = target.obj
            while isinstance(root, ast.Index):
                root = root.obj
            if isinstance(root, (ast.Member, ast.Name)):
                self.written.add(root.name)  # not needed for purity (collections_change), but exact
        else:
            self.collections_change = True  # unknown: assume the worst

    def scan_building(self) -> None:
        """Functions reachable from code that runs while an object is built after setup."""
        roots: list = []
        built = self.built_after_setup()
        for info in self.program.classes:
            if id(info) not in built:
                continue
            for attr in info.attributes.values():
                if attr.value is not None:
                    roots.append(attr.value)
            for g in info.groups.values():
                roots.append(g)
            if info.defn is not None:
                roots.extend(m for m in info.defn.members if isinstance(m, ast.Default))
        todo = roots
        seen: set[int] = set()
        while todo:
            node = todo.pop()
            for n in ast.walk(node):
                if isinstance(n, ast.Call):
                    ct = self.types.get(id(n.callee))
                    if isinstance(ct, CallableType) and ct.kind == "function":
                        for fi in self.by_name.get(ct.target.name, [ct.target]):
                            if id(fi.defn) not in seen:
                                seen.add(id(fi.defn))
                                todo.append(fi.defn)
        self.building = seen

    # ------------------------------------------------------------- purity
    def signature_ok(self, fi: FunctionInfo) -> bool:
        defn = fi.defn
        if defn.effect is None or id(defn) in self.building or not scalar(self.return_type(fi)):
            return False
        for inp in defn.inputs:
            if inp.modifier != "function" or inp.filters or inp.target is not None or inp.optional:
                return False
            if not scalar(self.input_type(inp, fi.scope)):
                return False
        return True

    def body_ok(self, fi: FunctionInfo, pure: set[int]) -> bool:
        self.locals = {i.name for i in fi.defn.inputs}
        self.locals.update(n.name for n in ast.walk(fi.defn.effect.body) if isinstance(n, ast.VarDecl))
        for n in ast.walk(fi.defn.effect.body):
            if not self.node_ok(n, pure):
                return False
        return True

    def node_ok(self, n: ast.Node, pure: set[int]) -> bool:
        if isinstance(n, (ast.Winner, ast.InputDecl, ast.Filter, ast.New, ast.Base)):
            return False
        if isinstance(n, ast.Assign):
            return isinstance(n.target, ast.Name) and id(n.target) not in self.implicit_this
        if isinstance(n, ast.Name):
            if n.name == "event":
                return False
            t = self.types.get(id(n))
            if isinstance(t, CallableType):  # a callee, checked at its call (a method of `this`, too)
                return t.kind == "function"
            if id(n) in self.implicit_this:
                return self.field_ok(n.name, t)
            if isinstance(t, (Prim, ClassType, Collection)) or (t is None and n.name in self.locals):
                return True  # a local, an input, or a global object
            return isinstance(t, CallableType) and t.kind == "function"  # a callee (checked at its call)
        if isinstance(n, ast.Member):
            t = self.types.get(id(n.obj))
            if isinstance(t, Collection):
                return n.name == "length"
            if isinstance(t, ClassType):
                mt = self.types.get(id(n))
                if isinstance(mt, CallableType):
                    return True  # a callee, checked at its call
                return self.field_ok(n.name, mt)
            return False
        if isinstance(n, ast.Index):
            t = self.types.get(id(n.obj))
            return isinstance(t, (Collection, ClassType))  # lists and tables; group cells (fixed)
        if isinstance(n, ast.Call):
            ct = self.types.get(id(n.callee))
            if not isinstance(ct, CallableType):
                return isinstance(n.callee, ast.Member) and n.callee.name == "length" and not n.args
            if ct.kind == "function":
                if any(a.name is None for a in n.args):
                    return False
                return all(id(fi.defn) in pure for fi in self.by_name.get(ct.target.name, [ct.target]))
            if ct.kind == "builtin":
                callee = n.callee
                return (isinstance(callee, ast.Member) and ct.target.entry.pure
                        and isinstance(self.types.get(id(callee.obj)), Collection))
            return False
        return isinstance(n, PLAIN_NODES)

    def field_ok(self, name: str, t) -> bool:
        if name in _BUILTIN_MEMBERS or name not in self.fields or name in self.written:
            return False
        if isinstance(t, Collection):
            return not self.collections_change
        return True


    def solve(self) -> None:
        self.scan_writes()
        self.scan_building()
        pure = {id(fi.defn) for fi in self.functions if self.signature_ok(fi)}
        changed = True
        while changed:  # the greatest set closed under calls: recursion among pure functions is pure
            changed = False
            for fi in self.functions:
                if id(fi.defn) in pure and not self.body_ok(fi, pure):
                    pure.discard(id(fi.defn))
                    changed = True
        self.pure = pure
        # Remembered: the pure functions whose run costs more than a lookup in the memo.
        self.memoized = {id(fi.defn) for fi in self.functions if id(fi.defn) in pure and self.worth(fi.defn.effect.body)}

    def worth(self, node) -> bool:
        """Whether remembering `node`'s value saves time: it loops, calls a function, or reads at
        least three fields or group cells (a lookup in the memo costs about as much as two)."""
        cost = 0
        for n in ast.walk(node):
            if isinstance(n, (ast.While, ast.For)):
                return True
            if isinstance(n, ast.Call):
                ct = self.types.get(id(n.callee))
                if isinstance(ct, CallableType) and ct.kind == "function":
                    return True
            elif isinstance(n, ast.Member):
                if isinstance(self.types.get(id(n.obj)), ClassType) and not isinstance(self.types.get(id(n)), CallableType):
                    cost += 1
            elif isinstance(n, ast.Index):
                if isinstance(self.types.get(id(n.obj)), ClassType):
                    cost += 1
            elif isinstance(n, ast.Name) and id(n) in self.implicit_this:
                cost += 1
        return cost >= 3

    def fixed(self, e: ast.Expr, local_names: set[str]) -> bool:
        """Whether expression `e`, in code run after setup, depends only on the values of the locals
        it names (`local_names`: the locals in scope) and on `this`, as a pure function's body:
        fixed once setup is over. It must not assign anything."""
        self.locals = local_names
        for n in ast.walk(e):
            if isinstance(n, ast.Assign) or not self.node_ok(n, self.pure):
                return False
        return True


def analyse(program, input_type, return_type) -> Purity:
    """The purity of `program`'s functions and expressions (`Purity`)."""
    p = Purity(program, input_type, return_type)
    p.solve()
    return p


__all__ = ["Purity", "analyse", "scalar"]
