"""The passes over a generated function's syntax tree (Python's `ast`), run once before it is compiled.

`BlockGenerator._compile` parses each generated function once, runs these passes on the tree and
compiles the tree; the code object is kept by the source as generated (`codegen._COMPILED`). Each
pass changes only what cannot be seen: the function returns, raises and counts as before.

- `unused_bindings_dropped`: a temporary bound by `:=` (`(_t3 := x)`, `(_cse2 := y)`, the
  generator's own names, `BlockGenerator.name`) and never read is not bound. The generator binds
  only what it may read again (`BlockGenerator.member`, `shared`); what it cannot tell is the object
  of a general read that an optimistic spelling replaces, which a general read around it may still
  name (`_owned_index`).
- `loads_dropped`: a function spelled with Python's own locals starts by loading each local its code
  names from the frame's list (`l3 = v[3]`), or by setting those that are not inputs to None
  (`l3 = l4 = None`, `_fast`). Most locals are declared in the block, which assigns them before
  anything reads them (Tris's win check loaded six locals it then assigned). A load is dropped when
  a definite-assignment analysis (`_Analysis`) shows that on every path each read of the local comes
  after an assignment to it; any doubt keeps the load. Reading a local whose load was dropped would
  raise `UnboundLocalError`: the analysis never lets that happen.
- `memo_tables_sunk`: a memo table bound in the prologue (`MT1 = MM[1] if MM is not None else
  _NO_FIELDS`, `BlockGenerator.preamble`) that only the statements of one branch read is bound at
  the start of those statements (Tris's win check reads the table of its fixed items only on the run
  that builds it). The binding reads only `MM`, bound before it and never again, whose tables are
  made with it and never replaced (`new_memo`): bound later, it is the same table. It moves down
  through `if`s only (never into a loop, which would bind it again, nor into a `try`); a table read
  nowhere is not bound.
- `as_direct`, `as_fast`: a block's `_direct` made of its `_block`'s tree, a function's `_fast` of
  its `_direct`'s, as the passes left them: what the passes make of their sources, with no parse.

`BlockGenerator._compile` runs the passes on a function only when the generator gave it a prologue
of loads or memo tables (`BlockGenerator.prologued`): the generator binds no temporary it does not
read again (`BlockGenerator.member`, `shared`), so a function without such a prologue gives the
passes nothing to do, and is compiled from its source (a parse into Python's `ast` objects then the
compile of the tree cost three times the compile of the source).

The trees are walked by `_nodes` (a list read as it grows, not recursion: generated expressions nest deeper than
Python's recursion limit lets a recursive visitor go), which skips what holds no node: it is most
of the time the passes take.
"""

from __future__ import annotations

import ast as py
import re

_TEMP = re.compile(r"_(?:cse|t)\d+")  # a temporary's name (`BlockGenerator.name`)
_LOCAL = re.compile(r"l\d+")  # a local spelled as Python's own (`codegen._spelled`)
_MEMO_TABLE = re.compile(r"MT\d+")
# Nodes that open a scope of their own: a name in one is not analysed (`_Analysis`)
_SCOPES = frozenset((py.Lambda, py.ListComp, py.SetComp, py.DictComp, py.GeneratorExp, py.FunctionDef,
                     py.AsyncFunctionDef, py.ClassDef))


def optimised(src: str) -> py.Module:
    """`src` (one generated function) parsed and run through the passes."""
    tree = py.parse(src)
    fn = tree.body[0]
    unused_bindings_dropped(tree)
    loads_dropped(fn)
    memo_tables_sunk(fn)
    return tree


class _Fields(dict):
    """The fields of each class of node that may hold nodes; a leaf's (`Name`, `Constant`): none."""

    def __missing__(self, cls: type) -> tuple[str, ...]:
        fields = tuple(f for f in getattr(cls, "_fields", ()) if f not in _LEAVES
                       and not (f == "value" and cls in (py.Constant, py.MatchSingleton)))
        self[cls] = fields
        return fields


_CHILDREN = _Fields()
# The fields that never hold a node (a `value` does but in a constant)
_LEAVES = frozenset(("ctx", "op", "id", "attr", "arg", "name", "names", "module", "level", "kind", "tag",
                     "type_comment", "is_async", "conversion", "simple"))


def _nodes(node: py.AST) -> list:
    """Every node under `node` (itself included) but the contexts and operators, in no set order
    (a `None` where a list of nodes holds one, as a dict display's `**` key)."""
    found = [node]
    add = found.append
    for n in found:  # the list grows as it is read
        for field in _CHILDREN[n.__class__]:
            v = getattr(n, field)
            if v.__class__ is list:
                found += v
            elif v is not None:
                add(v)
    return found


def _names(node: py.AST) -> set[str]:
    """Every name `node` spells (read, assigned or deleted), nested scopes included."""
    found: set[str] = set()
    for n in _nodes(node):
        cls = n.__class__
        if cls is py.Name:
            found.add(n.id)
        elif cls in _NAMING:
            if cls is py.Global or cls is py.Nonlocal:
                found.update(n.names)
            elif isinstance(n.name, str):  # an `except ... as x`, a `match` capture
                found.add(n.name)
    return found


# The classes of nodes but `Name` that name a name: a declaration, or a node with a field `name`
_NAMING = frozenset({py.Global, py.Nonlocal} | {c for c in vars(py).values()
                                                if isinstance(c, type) and issubclass(c, py.AST)
                                                and "name" in getattr(c, "_fields", ())})


def _stores(node: py.AST) -> dict[str, int]:
    """How many times `node` assigns, deletes or declares each name (by any statement or `:=`)."""
    count: dict[str, int] = {}
    for n in _nodes(node):
        if n.__class__ is py.Name:
            if n.ctx.__class__ is not py.Load:
                count[n.id] = count.get(n.id, 0) + 1
        elif isinstance(n, (py.Global, py.Nonlocal)):
            for name in n.names:
                count[name] = count.get(name, 0) + 1
    return count


def unused_bindings_dropped(tree: py.AST) -> None:
    """Each `(_tN := x)` or `(_cseN := x)` of a temporary named nowhere else made `x`."""
    names: dict[str, int] = {}
    slots: list[tuple[py.AST, str, int | None]] = []  # where a binding is: (parent, field, index in a list)
    found = [tree]
    add = found.append
    for n in found:  # `_nodes`, noting the temporaries' names and the bindings' places on the way
        cls = n.__class__
        if cls is py.Name:
            if n.id.startswith("_") and _TEMP.fullmatch(n.id):
                names[n.id] = names.get(n.id, 0) + 1
            continue
        for field in _CHILDREN[cls]:
            v = getattr(n, field)
            if v.__class__ is list:
                found += v
                slots += [(n, field, i) for i, x in enumerate(v) if x.__class__ is py.NamedExpr]
            elif v is not None:
                add(v)
                if v.__class__ is py.NamedExpr:
                    slots.append((n, field, None))
    bindings = [getattr(n, f) if i is None else getattr(n, f)[i] for n, f, i in slots]
    for b in bindings:
        if b.target.id in names:
            names[b.target.id] -= 1
    unused = {name for name, others in names.items() if others == 0}
    if not unused:
        return
    for (n, f, i), b in zip(slots, bindings):
        if b.target.id in unused:
            while b.__class__ is py.NamedExpr and b.target.id in unused:
                b = b.value
            if i is None:
                setattr(n, f, b)
            else:
                getattr(n, f)[i] = b


class _Analysis:
    """The locals `names` analysed together, in one pass over the statements: `unsafe` collects
    those that may be read unassigned (or that the analysis does not know); a state is the set of
    the locals definitely assigned there. Conservative:

    - a loop's body may run zero times: what it assigns does not count after it (a `for`'s target
      counts inside its body only);
    - in a `try`, a handler may start anywhere in the body: it is analysed from the state before the
      `try`; after the statement, a local is assigned when every way through that completes (body
      and `else`, each handler) assigned it, or the `finally` did;
    - an `if` assigns what both of its branches assign;
    - an assignment by `:=` counts as a read, not as an assignment (its place in the expression's
      order is not looked at);
    - a local named in a nested scope (lambda, comprehension, nested function or class), deleted,
      declared global or nonlocal, or in a statement of another kind (`with`, `match`...) is unsafe."""

    def __init__(self, names: set[str], fn: py.FunctionDef):
        self.names = names
        self.unsafe: set[str] = set()
        for n in _nodes(fn):
            if n.__class__ in _SCOPES and n is not fn:
                self.unsafe |= _names(n) & names

    def check(self, node: py.AST | None, assigned: frozenset) -> None:
        """The reads of the expression (or statement part) `node`, from the state `assigned`."""
        if node is not None:
            self.unsafe |= (_names(node) & self.names) - assigned

    def target(self, t: py.AST, assigned: frozenset) -> set[str]:
        """An assignment's target: the locals it assigns (its reads checked)."""
        if t.__class__ is py.Name:
            return {t.id} if t.id in self.names else set()
        if isinstance(t, (py.Tuple, py.List)):
            found: set[str] = set()
            for e in t.elts:
                found |= self.target(e.value if isinstance(e, py.Starred) else e, assigned)
            return found
        self.check(t, assigned)  # a subscript or attribute: reads its parts
        return set()

    def flow(self, stmts: list, assigned: frozenset) -> frozenset:
        """The locals definitely assigned after `stmts` run from the state `assigned`."""
        for s in stmts:
            cls = s.__class__
            if cls is py.Assign:
                self.check(s.value, assigned)
                found: set[str] = set()
                for t in s.targets:
                    found |= self.target(t, assigned)
                assigned = assigned | found
            elif cls is py.If:
                self.check(s.test, assigned)
                assigned = self.flow(s.body, assigned) & self.flow(s.orelse, assigned)
            elif cls is py.For:
                self.check(s.iter, assigned)
                self.flow(s.body, assigned | self.target(s.target, assigned))
                self.flow(s.orelse, assigned)
            elif cls is py.While:
                self.check(s.test, assigned)
                self.flow(s.body, assigned)
                self.flow(s.orelse, assigned)
            elif cls is py.Try:
                done = self.flow(s.orelse, self.flow(s.body, assigned))
                for h in s.handlers:
                    self.check(h.type, assigned)
                    if h.name in self.names:
                        self.unsafe.add(h.name)
                    done = done & self.flow(h.body, assigned)
                # the `finally` may start anywhere too (analysed always: it may read the local)
                final = self.flow(s.finalbody, assigned)
                assigned = done | final if s.finalbody else done
            elif cls in (py.Expr, py.Return, py.Pass, py.Break, py.Continue, py.Raise, py.AugAssign):
                self.check(s, assigned)  # an augmented assignment reads its target first
            else:  # anything else: the locals it names are not looked into
                self.unsafe |= _names(s) & self.names
        return assigned


def _prologue(fn: py.FunctionDef) -> tuple[list[py.Assign], int]:
    """The statements of `fn`'s prologue that load locals (`l3 = v[3]`) or set them to None
    (`l3 = l4 = None`, a `_fast` spelling's, first and alone), and the index of the first statement
    after it (`v = f.vars` and `m = f.m` are passed over)."""
    prologue: list[py.Assign] = []
    i = 0
    for s in fn.body:
        if not (s.__class__ is py.Assign and all(t.__class__ is py.Name for t in s.targets)):
            break
        names = [t.id for t in s.targets]
        v = s.value
        if _is_load(s):
            prologue.append(s)
        elif (v.__class__ is py.Constant and v.value is None and not prologue
              and all(_LOCAL.fullmatch(n) for n in names)):
            prologue.append(s)
            i += 1
            break
        elif not (len(names) == 1 and names[0] in ("v", "m") and v.__class__ is py.Attribute
                  and v.value.__class__ is py.Name and v.value.id == "f"):
            break
        i += 1
    return prologue, i


def loads_dropped(fn: py.FunctionDef) -> None:
    """`fn` without the prologue loads and initial Nones of the locals its code assigns before it
    reads them."""
    prologue, after = _prologue(fn)
    if not prologue:
        return
    seen: dict[str, int] = {}
    for s in prologue:
        for t in s.targets:
            seen[t.id] = seen.get(t.id, 0) + 1
    # only a local named once in the prologue is analysed, from the statement after it on
    analysis = _Analysis({n for n, k in seen.items() if k == 1}, fn)
    analysis.flow(fn.body[after:], frozenset())
    dead = analysis.names - analysis.unsafe
    if not dead:
        return
    for s in prologue:
        s.targets = [t for t in s.targets if t.id not in dead]
    fn.body = [s for s in fn.body if s.__class__ is not py.Assign or s.targets]


def _memo_binding(s: py.stmt) -> str | None:
    """The table `s` binds when it is `MTn = MM[k] if MM is not None else _NO_FIELDS`, else None."""
    if not (s.__class__ is py.Assign and len(s.targets) == 1 and s.targets[0].__class__ is py.Name
            and _MEMO_TABLE.fullmatch(s.targets[0].id)):
        return None
    v = s.value
    if (v.__class__ is py.IfExp and v.body.__class__ is py.Subscript and v.body.value.__class__ is py.Name
            and v.body.value.id == "MM" and v.orelse.__class__ is py.Name and v.orelse.id == "_NO_FIELDS"):
        return s.targets[0].id
    return None


def memo_tables_sunk(fn: py.FunctionDef) -> None:
    """`fn` with each memo table bound in its prologue that only the statements of one branch read
    bound at the start of those statements instead; a table read nowhere not bound."""
    bindings = [(name, s) for s in fn.body if (name := _memo_binding(s)) is not None]
    if not bindings:
        return
    stores = _stores(fn)
    if stores.get("MM") != 1:
        return
    seen: dict[int, set[str]] = {}  # the names of each statement (and test) looked into, by its id

    def named(node: py.AST) -> set[str]:
        found = seen.get(id(node))
        if found is None:
            found = seen[id(node)] = _names(node)
        return found

    for name, binding in bindings:
        if stores[name] != 1:
            continue
        users = [s for s in fn.body if s is not binding and name in named(s)]
        if not users:
            fn.body.remove(binding)
            continue
        stmts = fn.body
        while len(users) == 1 and users[0].__class__ is py.If and name not in named(users[0].test):
            s = users[0]
            in_body = [x for x in s.body if name in named(x)]
            in_else = [x for x in s.orelse if name in named(x)]
            if bool(in_body) == bool(in_else):
                break
            stmts, users = (s.body, in_body) if in_body else (s.orelse, in_else)
        if stmts is fn.body:
            continue
        fn.body.remove(binding)
        stmts.insert(stmts.index(users[0]), binding)


def as_direct(tree: py.Module) -> None:
    """A block's `_block` (`BlockGenerator.generate`, spelled with Python's own locals), as the
    passes made it, made its `_direct`: `def _direct(m, this, v):` without `v = f.vars` and
    `m = f.m`, `f.this` spelled `this`, `f.event` None, `_Returned(x)` x. Those name no local nor
    table and change no statement, so the passes would have made the same of `_direct`'s source:
    its parse and its passes are saved."""
    fn = tree.body[0]
    fn.name = "_direct"
    fn.args.args = [py.copy_location(py.arg(name), fn.args.args[0]) for name in ("m", "this", "v")]
    del fn.body[:2]

    def spelled(child):
        if child.__class__ is py.Attribute and child.value.__class__ is py.Name and child.value.id == "f":
            new = py.Name("this", py.Load()) if child.attr == "this" else py.Constant(None)
            return py.copy_location(new, child)
        if child.__class__ is py.Call and child.func.__class__ is py.Name and child.func.id == "_Returned":
            return child.args[0]
        return child

    for n in _nodes(fn):
        for field in _CHILDREN[n.__class__]:
            v = getattr(n, field, None)
            if v.__class__ is list:
                v[:] = [spelled(x) for x in v]
            elif v is not None:
                setattr(n, field, spelled(v))


def as_fast(tree: py.Module, params: tuple[int, ...]) -> None:
    """A function's `_direct`, as the passes made it, made its `_fast` (`BlockGenerator.generate`):
    `def _fast(m, this, l0, l1...)` taking the inputs (the locals `params`) as parameters, the other
    locals the prologue loaded set to None in one statement. The two spell the same body, and the
    analysis of `loads_dropped` finds the same locals assigned before they are read whichever way
    they come in: the passes would have made the same of `_fast`'s source."""
    fn = tree.body[0]
    fn.name = "_fast"
    at = fn.args.args[0]
    fn.args.args = [py.copy_location(py.arg(name), at) for name in ("m", "this", *(f"l{p}" for p in params))]
    loads = 0
    while loads < len(fn.body) and _is_load(fn.body[loads]):
        loads += 1
    inputs = {f"l{p}" for p in params}
    nones = [t for s in fn.body[:loads] for t in s.targets if t.id not in inputs]
    if nones:
        fn.body[:loads] = [py.copy_location(py.Assign(nones, py.Constant(None)), fn.body[0])]
        py.copy_location(fn.body[0].value, fn.body[0])
    else:
        del fn.body[:loads]


def _is_load(s: py.stmt) -> bool:
    """Whether `s` is a prologue's load of a local, `l3 = v[3]`."""
    if not (s.__class__ is py.Assign and len(s.targets) == 1 and s.targets[0].__class__ is py.Name):
        return False
    v = s.value
    return (v.__class__ is py.Subscript and v.value.__class__ is py.Name and v.value.id == "v"
            and v.slice.__class__ is py.Constant and s.targets[0].id == f"l{v.slice.value}")
