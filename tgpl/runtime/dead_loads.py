"""Prologue loads of locals that the code assigns before it reads them, dropped.

A generated function spelled with Python's own locals (`BlockGenerator.generate`) starts by loading
every local its code names from the frame's list, `l3 = v[3]`, or by setting those that are not
inputs to None, `l3 = l4 = None` (`_fast`). Most locals are declared in the block, and a
declaration assigns them before anything reads them (Tris's win check loaded six locals it then
assigned). A load is dropped when a definite-assignment analysis of the
generated source (Python's `ast`) shows that on every path from the prologue each read of the local
comes after an assignment to it; the analysis is conservative, and any doubt keeps the load:

- a loop's body may run zero times: what it assigns does not count after it (a `for`'s target
  counts inside its body only);
- in a `try`, a handler may start anywhere in the body: it is analysed from the state before the
  `try`; after the statement, a local is assigned when every way through that completes
  (body and `else`, each handler) assigned it, or the `finally` did;
- an `if` assigns what both of its branches assign;
- an assignment by `:=` counts for nothing (its place in the expression's order is not looked at);
- a local named in a nested scope (lambda, comprehension, nested function or class), deleted,
  declared global or nonlocal, or in a statement of another kind (`with`, `match`...) keeps its
  load.

Reading a local whose load was dropped would raise `UnboundLocalError`: the analysis never lets
that happen, and a dropped load changes nothing else (the frame's list is as long as the layout).
"""

from __future__ import annotations

import ast
import re

_LOAD = re.compile(r"^    (l\d+) = v\[(\d+)\]$", re.M)
_CHAIN = re.compile(r"^    ((?:l\d+ = )+)None$", re.M)
# an assignment of a local, as generated code spells one (a target of a tuple too, `l0, x = `)
_STORE = re.compile(r"\b(l\d+)(?:, [\w.]+)* = (?!=)")
_FOR = re.compile(r"\bfor ([^\n]*?) in ")
class _Analysis:
    """The locals `names` analysed together, in one pass over the statements: `unsafe` collects
    those that may be read unassigned (or that the analysis does not know); a state is the set of
    the locals definitely assigned there.

    What an expression reads is found in its text (`names_in`), not by walking its tree (the walk
    cost as much as the compile): every name of a local in it counts as a read, a `:=` target
    and a name in a string literal too, which is conservative. A local named on a line that may
    hold a nested scope (`lambda`, a comprehension's `for`) is unsafe wherever it is."""

    def __init__(self, names: set[str], src: str, lines: list[str]):
        self.names = names
        self.found = re.compile(r"\b(?:" + "|".join(sorted(names)) + r")\b") if names else None
        self.lines = lines
        self.ascii = src.isascii()  # column offsets are those of the UTF-8 bytes
        self.unsafe: set[str] = set()
        for line in lines:
            fors = len(re.findall(r"\bfor\b", line)) - (1 if line.lstrip().startswith("for ") else 0)
            if fors > 0 or re.search(r"\blambda\b", line):
                self.unsafe.update(self.names_in(line))

    def names_in(self, text: str) -> set[str]:
        return set(self.found.findall(text)) if self.found is not None else set()

    def text(self, node: ast.AST) -> str:
        """The source of `node`: its lines, or of one line the columns it spans."""
        if node.lineno == node.end_lineno and self.ascii:
            return self.lines[node.lineno - 1][node.col_offset:node.end_col_offset]
        return "\n".join(self.lines[node.lineno - 1:node.end_lineno])

    def mentioned(self, node: ast.AST) -> None:
        """Every local of `names` that `node` names (its whole lines): unsafe."""
        self.unsafe.update(self.names_in("\n".join(self.lines[node.lineno - 1:node.end_lineno])))

    def check(self, node: ast.AST | None, assigned: frozenset) -> None:
        """The reads of the expression (or statement part) `node`, from the state `assigned`:
        a local it names while it may be unassigned is unsafe."""
        if node is not None:
            self.unsafe.update(self.names_in(self.text(node)) - assigned)

    def target(self, t: ast.AST, assigned: frozenset) -> set[str]:
        """An assignment's target: the locals it assigns (its reads checked)."""
        if t.__class__ is ast.Name:
            return {t.id} if t.id in self.names else set()
        if isinstance(t, (ast.Tuple, ast.List)):
            found: set[str] = set()
            for e in t.elts:
                found |= self.target(e.value if isinstance(e, ast.Starred) else e, assigned)
            return found
        self.check(t, assigned)  # a subscript or attribute: reads its parts
        return set()

    def flow(self, stmts: list, assigned: frozenset) -> frozenset:
        """The locals definitely assigned after `stmts` run from the state `assigned`."""
        for s in stmts:
            cls = s.__class__
            if cls is ast.Assign:
                self.check(s.value, assigned)
                found: set[str] = set()
                for t in s.targets:
                    found |= self.target(t, assigned)
                assigned = assigned | found
            elif cls is ast.If:
                self.check(s.test, assigned)
                assigned = self.flow(s.body, assigned) & self.flow(s.orelse, assigned)
            elif cls is ast.For:
                self.check(s.iter, assigned)
                self.flow(s.body, assigned | self.target(s.target, assigned))
                self.flow(s.orelse, assigned)
            elif cls is ast.While:
                self.check(s.test, assigned)
                self.flow(s.body, assigned)
                self.flow(s.orelse, assigned)
            elif cls is ast.Try:
                done = self.flow(s.orelse, self.flow(s.body, assigned))
                for h in s.handlers:
                    self.check(h.type, assigned)
                    if h.name in self.names:
                        self.unsafe.add(h.name)
                    done = done & self.flow(h.body, assigned)
                # the `finally` may start anywhere too (analysed always: it may read the local)
                final = self.flow(s.finalbody, assigned)
                assigned = done | final if s.finalbody else done
            elif cls in (ast.Expr, ast.Return, ast.Pass, ast.Break, ast.Continue, ast.Raise):
                self.check(s, assigned)
            elif cls is ast.AugAssign:
                self.check(s, assigned)
                if s.target.__class__ is ast.Name and s.target.id in self.names and s.target.id not in assigned:
                    self.unsafe.add(s.target.id)
            else:  # anything else: the locals it names are not looked into
                self.mentioned(s)
        return assigned


# A block's two spellings (`BlockGenerator.generate`): `_block`'s source spelled as `_direct`'s,
# and what `pruned` made of it spelled so; `_direct`, compiled next, is that source, and gets
# that without a parse: its code differs only in `f.this`, `f.event` and `_Returned(`, which name
# no local nor table and change no statement.
_BLOCK_HEAD = "def _block(f):\n    v = f.vars\n    m = f.m\n"
_DIRECT_HEAD = "def _direct(m, this, v):\n"
_last: list = [None, None]


def _as_direct(src: str) -> str | None:
    if not src.startswith(_BLOCK_HEAD):
        return None
    body = src[len(_BLOCK_HEAD):].replace("f.this", "this").replace("f.event", "None").replace("_Returned(", "(")
    return _DIRECT_HEAD + body


def pruned(src: str) -> str:
    """`src` (one generated function) through `dropped` and `memo_tables_sunk`; a block's `_direct`
    as its `_block` was."""
    if _last[0] == src:
        return _last[1]
    out = memo_tables_sunk(dropped(src))
    if src.startswith(_BLOCK_HEAD):
        _last[0], _last[1] = _as_direct(src), _as_direct(out)
    return out


def dropped(src: str) -> str:
    """`src` (one generated function) without the prologue loads (`l3 = v[3]`) and initial Nones
    (`l3 = l4 = None`) of the locals that its code assigns before it reads them."""
    if not (_LOAD.search(src) or _CHAIN.search(src)):
        return src
    return _dropped(src)


def _dropped(src: str) -> str:
    # Only a local the code assigns (beyond its prologue line) can be dropped: the others are not
    # analysed, nor is a function with none (the parse costs as much as the compile)
    stores: dict[str, int] = {}
    for name in _STORE.findall(src):
        stores[name] = stores.get(name, 0) + 1
    for target in _FOR.findall(src):
        for name in re.findall(r"\bl\d+\b", target):
            stores[name] = stores.get(name, 0) + 2
    if not any(n > 1 for n in stores.values()):
        return src
    tree = ast.parse(src)
    fn = tree.body[0]
    if not isinstance(fn, ast.FunctionDef):
        return src
    prologue = []  # (statement, its local names)
    i = 0
    for s in fn.body:
        if not (s.__class__ is ast.Assign and s.lineno == s.end_lineno
                and all(t.__class__ is ast.Name for t in s.targets)):
            break
        names = [t.id for t in s.targets]
        v = s.value
        if (len(names) == 1 and v.__class__ is ast.Subscript and v.value.__class__ is ast.Name
                and v.value.id == "v" and v.slice.__class__ is ast.Constant
                and names[0] == f"l{v.slice.value}"):
            prologue.append((s, names))
        elif (v.__class__ is ast.Constant and v.value is None and not prologue
              and all(re.fullmatch(r"l\d+", n) for n in names)):
            prologue.append((s, names))  # a `_fast` spelling's Nones: one line, no loads
            i += 1
            break
        elif not (len(names) == 1 and names[0] in ("v", "m") and v.__class__ is ast.Attribute
                  and v.value.__class__ is ast.Name and v.value.id == "f"):
            break
        i += 1
    if not prologue:
        return src
    seen: dict[str, int] = {}
    for _, names in prologue:
        for n in names:
            seen[n] = seen.get(n, 0) + 1
    # analysed from the statement after the prologue on: only a local named once there (a load
    # or a None) and assigned somewhere else may be dropped
    lines = src.split("\n")
    analysis = _Analysis({n for n, k in seen.items() if k == 1 and stores.get(n, 0) > 1}, src, lines)
    analysis.flow(fn.body[i:], frozenset())
    dead = analysis.names - analysis.unsafe
    for s, names in prologue:
        kept = [n for n in names if n not in dead]
        if len(kept) == len(names):
            continue
        at = s.lineno - 1
        if not kept:
            lines[at] = None
        else:
            lines[at] = "    " + " = ".join(kept) + " = " + lines[at].rsplit(" = ", 1)[1]
    return "\n".join(line for line in lines if line is not None)


_MEMO_TABLE = re.compile(r"^    (MT\d+) = MM\[\d+\] if MM is not None else _NO_FIELDS$", re.M)


def memo_tables_sunk(src: str) -> str:
    """`src` (one generated function) with each memo table bound in its prologue
    (`MT1 = MM[1] if MM is not None else _NO_FIELDS`, `BlockGenerator.preamble`) that only the
    statements of one branch read bound at the start of those statements instead (Tris's win check
    reads the table of its fixed items only on the run that builds it, `fixed_table`). The binding reads only `MM`, bound before it and never again, whose tables are
    made with it and never replaced (`new_memo`): bound later, it is the same table. It is moved
    down through `if`s only (not into a loop, which would bind it again, nor past an `elif`),
    before the first statement of the branch that reads it; a table read nowhere is not bound."""
    found = _MEMO_TABLE.findall(src)
    if not found:
        return src
    # only a table that no statement at the top names may move (else no parse): most are read there
    top = set(re.findall(r"\bMT\d+\b", "\n".join(line for line in src.split("\n")
                                                if line.startswith("    ") and not line.startswith("     ")
                                                and not _MEMO_TABLE.match(line))))
    found = [n for n in found if n not in top]
    if not found:
        return src
    tree = ast.parse(src)
    fn = tree.body[0]
    if len(tree.body) != 1 or not isinstance(fn, ast.FunctionDef):
        return src
    lines = src.split("\n")
    # the lines naming each table (its uses; by their text, not a walk of the tree), and whether
    # anything but its binding may assign it, or `MM` (then it is left where it is)
    uses_of: dict[str, list[int]] = {n: [] for n in found}
    stores: dict[str, int] = {n: 0 for n in found}
    mm = re.compile(r"\bMM\b\s*(?::=|=(?!=))|\b(?:for|del|global|nonlocal)\b[^\n]*\bMM\b")
    if sum(1 for line in lines if mm.search(line)) != 1:
        return src
    for k, line in enumerate(lines):
        for name in set(re.findall(r"\bMT\d+\b", line)):
            if name in uses_of:
                if _MEMO_TABLE.match(line):
                    stores[name] += 1
                else:
                    uses_of[name].append(k + 1)
                    if re.search(rf"\b{name}\b\s*(?::=|=(?!=))", line) or re.search(
                            rf"\b(?:for|del|global|nonlocal)\b[^\n]*\b{name}\b", line):
                        stores[name] += 1
    removed: set[int] = set()
    inserted: dict[int, list[str]] = {}
    for name in found:
        binding = [s for s in fn.body if s.__class__ is ast.Assign and len(s.targets) == 1
                   and s.targets[0].__class__ is ast.Name and s.targets[0].id == name]
        if stores[name] != 1 or len(binding) != 1 or binding[0].lineno != binding[0].end_lineno:
            continue
        uses = uses_of[name]
        if not uses:
            removed.add(binding[0].lineno - 1)
            continue
        stmts = fn.body
        while True:
            within = [s for s in stmts if any(s.lineno <= u <= s.end_lineno for u in uses)]
            if len(within) != 1 or within[0].__class__ is not ast.If:
                break
            s = within[0]
            if s.body and all(s.body[0].lineno <= u <= s.body[-1].end_lineno for u in uses):
                stmts = s.body
            elif (s.orelse and lines[s.orelse[0].lineno - 2].strip() == "else:"
                  and all(s.orelse[0].lineno <= u <= s.orelse[-1].end_lineno for u in uses)):
                stmts = s.orelse
            else:
                break
        if not within:
            continue
        first = within[0]
        if stmts is fn.body or lines[first.lineno - 1][:first.col_offset].strip():
            continue
        removed.add(binding[0].lineno - 1)
        inserted.setdefault(first.lineno - 1, []).append(" " * first.col_offset + lines[binding[0].lineno - 1].strip())
    if not removed:
        return src
    out: list[str] = []
    for i, line in enumerate(lines):
        out += inserted.get(i, [])
        if i not in removed:
            out.append(line)
    return "\n".join(out)
