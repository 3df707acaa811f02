"""Flood fills over a local list, rewritten as recursive functions for the lowering (language decision 114).

Designers write connectivity as a worklist that is also the result:

    List<Point> group = {start};
    for (number i = 0; i < group.length; i += 1)
    {
        ... Point n = <a neighbour of group[i]> ...
        if (P(n) && !group.contains(n)) { group.add(n); }
    }
    ... group.contains(x) ...                                   // membership
    for (number j = 0; j < group.length; j += 1) { if (Q(group[j])) { return true; } }   // a search

Lowered as written, every way the list can grow is a path of its own (refused past 4096). The list holds exactly
the items reachable from `start` along the steps the loop body takes (`n` is added when `P(n)` holds, whatever the
order: `!group.contains(n)` only keeps an item from being added twice, and nothing else reads the list), so each
use is a question about reachability, which hand-written GDL asks with a recursive relation. Each use becomes a
call of a new function of the same owner, the form of Lines of Action's `Linked`:

    function GroupOfFlood1(a, b, <free locals>, steps)      // contains(b); for a search, b is left out
    {
        if (a == b) { return true; }                        // a search: Q(a) with `return V` made `return true`
        if (steps == 0) { return false; }
        <the loop body, group[i] read as a; the add made
         if (P(n) && GroupOfFlood1(a: n, b: b, ..., steps: steps - 1)) { return true; }>
        return false;
    }

`steps` starts at the number of objects of the item's class less one, which bounds the length of a shortest chain
(for a flood compared with a count, the most items that can have the count's condition less one, where
tgpl.lowering.held_counts proves it).
A list seeded by several items (`{a, b}`, or made empty and seeded by `add`s, `seeded`) holds what any of them
reaches: each use asks the search from each seed, joined by `||`. One made empty and seeded by a walk that adds
what it finds (`flood_seeds`: Havannah's `Ring`, every rim cell not the player's) asks it from each seed the walk
adds, in a function that runs the walk (`_seed_walked`, `flood_seeds.seeds_function`). The uses may stand in one
loop that writes the state, a prune of what the flood missed (`if (!group.contains(x)) { x.A = K; }`), marked to
read the state it started with (`_frozen_scan`).
The rewrite is for the lowering only: the runtime, and so the validation of the lowered rules against it, runs the
game as written. Anything not exactly this shape (the list returned or passed on, another write to it, the index
read otherwise, a write or an exit in the loop body, a free local assigned after its declaration) is left alone,
and meets the lowering's refusal as before. A walk over the list a neighbour function returns is first written as
that function's loop (`list_calls.py`), so that a flood reading its neighbours through such a list is found.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable

from tgpl.builtin_calls import READS
from tgpl.frontend import ast
from tgpl.frontend.after_setup import after_setup_nodes
from tgpl.frontend.diagnostics import Span
from tgpl.lowering.flood_counts import Distinct, counted_condition, counted_start, merged_scans
from tgpl.lowering.flood_seeds import SEEDS, SeedWalk, marked, seed_walk, seeds_function
from tgpl.lowering.flood_shapes import (_fresh, _is_name, _method, _replace, _same, _stmt_method, given_inputs,
                                          pure_block, walks_list)
from tgpl.lowering.flood_walks import Values, derefs_item, rewrite_flood_walks
from tgpl.lowering.group_clears import Scans, rewrite_group_clears
from tgpl.lowering.held_counts import Held, held_bound
from tgpl.lowering.list_calls import inline_list_walks, inline_object_walks
from tgpl.lowering.scan_cells import values_over, visits_each_once


@dataclass
class Flood:
    """One recognised flood: where it is, the list's name and item type, and the uses to rewrite."""

    function: ast.FunctionDef
    body: list  # the function's top-level statements
    at: int  # index of `List<T> L = {start};` in `body`; the loop is at + 1
    name: str  # the list's name
    item: ast.TypeRef
    counter: str  # the loop's index name
    free: dict[str, ast.TypeRef] = field(default_factory=dict)  # locals the loop reads, with their types


@dataclass
class _Locals:
    """The function's inputs and every local it declares, with the top-level ones in order and the assigned ones."""

    types: dict[str, ast.TypeRef]
    top: dict[str, int]  # top-level local -> index of its declaration (inputs: -1)
    assigned: set[str]
    made: set[str] = field(default_factory=set)  # top-level lists the function makes (`= {...}`), never assigned


def _locals(fn: ast.FunctionDef, body: list) -> _Locals:
    types = {d.name: d.type for d in fn.inputs}
    top = {d.name: -1 for d in fn.inputs}
    assigned: set[str] = set()
    for k, s in enumerate(body):
        if isinstance(s, ast.VarDecl):
            top.setdefault(s.name, k)
    for node in ast.walk(body):
        if isinstance(node, ast.VarDecl):
            types.setdefault(node.name, node.type)
        elif isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
            assigned.add(node.target.name)
    made = {s.name for s in body if isinstance(s, ast.VarDecl) and isinstance(s.init, ast.InitList)
            and s.name not in assigned and sum(isinstance(n, ast.VarDecl) and n.name == s.name
                                               for n in ast.walk(body)) == 1}
    return _Locals(types, top, assigned, made)


def _add_if(s, name: str) -> tuple[ast.Expr | None, str] | None:
    """`if (C && !name.contains(n)) { name.add(n); }` (or without `C`): (C or None, n)."""
    if not (isinstance(s, ast.If) and s.orelse is None and len(s.then.body) == 1
            and isinstance(s.then.body[0], ast.ExprStmt)):
        return None
    added = _method(s.then.body[0].expr, name, "add")
    cond, rest = s.cond, None
    if isinstance(cond, ast.Binary) and cond.op == "&&":
        cond, rest = cond.right, cond.left
    if not (isinstance(added, ast.Name) and isinstance(cond, ast.Unary) and cond.op == "!"):
        return None
    tested = _method(cond.operand, name, "contains")
    if not _is_name(tested, added.name):
        return None
    return rest, added.name


def seeded(body: list) -> list | None:
    """`body` with each list declared empty and seeded by `add`s, then walked, declared with its seeds:
    `List<T> L = {}; L.add(a); L.add(b);` followed by a loop over `L.length` (a `for`, or a counter then a
    `while`) becomes `List<T> L = {a, b};`, the same list, so that a designer's flood seeded so is the flood
    `find_flood` knows. A seed that reads `L` is left alone (the list it saw was not the whole start). None
    where nothing changes."""
    out: list = []
    k, changed = 0, False
    while k < len(body):
        s = body[k]
        if (isinstance(s, ast.VarDecl) and s.type.name == "List" and isinstance(s.init, ast.InitList)
                and not s.init.items):
            j, items = k + 1, []
            while j < len(body):
                x = _stmt_method(body[j], s.name, "add")
                if x is None or any(_is_name(n, s.name) for n in ast.walk(x)):
                    break
                items.append(x)
                j += 1
            if items and _walked_next(body[j:], s.name):
                out.append(ast.VarDecl(s.span, s.type, s.name, s.name_span, ast.InitList(s.init.span, items)))
                k, changed = j, True
                continue
        out.append(s)
        k += 1
    return out if changed else None


def _walked_next(rest: list, name: str) -> bool:
    """Is the first of `rest` a loop while `name.length` (a `for`, or a `number` counter then a `while`)?"""
    loop = rest[1] if (len(rest) > 1 and isinstance(rest[0], ast.VarDecl) and rest[0].type.name == "number"
                       and isinstance(rest[1], ast.While)) else rest[0] if rest else None
    if not isinstance(loop, (ast.For, ast.While)) or loop.cond is None:
        return False
    return any(isinstance(n, ast.Member) and _is_name(n.obj, name) and n.name == "length"
               for n in ast.walk(loop.cond))


def seed_floods(module: ast.Module) -> None:
    """Every function of `module` with its lists seeded by `add`s declared with their seeds (`seeded`)."""
    for _, members in _owners(module):
        for fn in members:
            if isinstance(fn, ast.FunctionDef) and fn.effect is not None:
                body = seeded(fn.effect.body.body)
                if body is not None:
                    fn.effect.body.body[:] = body


def _declared(block) -> set[str]:
    return {n.name for n in ast.walk(block) if isinstance(n, ast.VarDecl)}


def _free(block, lo: _Locals, own: set[str], skip: set[str]) -> dict[str, ast.TypeRef] | None:
    """The function's locals that `block` reads and does not declare: each an input or a top-level local never
    assigned after its declaration (so the value a call passes is the one the loop saw); None if one is not."""
    free: dict[str, ast.TypeRef] = {}
    for n in ast.walk(block):
        if isinstance(n, ast.Name) and n.name in lo.types and n.name not in own and n.name not in skip:
            if n.name not in lo.top or n.name in lo.assigned:
                return None
            free[n.name] = lo.types[n.name]
    return free


def find_flood(fn: ast.FunctionDef, body: list, first: int = 0) -> Flood | None:
    """The first flood of `fn`'s top-level statements `body` (from `body[first]` on) whose loop is as the module
    describes, else None."""
    lo = _locals(fn, body)
    for k in range(first, len(body) - 1):
        s = body[k]
        if not (isinstance(s, ast.VarDecl) and s.type.name == "List" and len(s.type.args) == 1
                and isinstance(s.init, ast.InitList) and s.init.items):
            continue
        name, counter = s.name, walks_list(body[k + 1], s.name)
        if counter is None or name in lo.assigned or lo.top.get(name) != k:
            continue
        loop = body[k + 1].body
        own = _declared(loop)
        adds = [x for x in ast.walk(loop) if _add_if(x, name) is not None]
        if len(adds) != 1 or not pure_block(_strip_add(loop, name), own, returns=False):
            continue
        stripped = _strip_add(loop, name)
        if _reads_list(stripped, name, counter):
            continue
        free = _free(stripped, lo, own, {name, counter})
        if free is None or any(lo.top[v] >= k for v in free):
            continue
        return Flood(fn, body, k, name, s.type.args[0], counter, free)
    return None


def _strip_add(loop, name: str):
    """The loop body with the add turned into `if (C) { }` and each `name[i]` into a marker, to check the rest."""
    def swap(n):
        found = _add_if(n, name)
        if found is not None:
            return ast.If(n.span, found[0] or ast.BoolLit(n.span, True), ast.Block(n.span, []), None)
        return None
    return _replace(loop, swap)


def _reads_list(block, name: str, counter: str) -> bool:
    """Does `block` read the list otherwise than as `name[counter]`, or the counter otherwise than there?"""
    def swap(n):
        if isinstance(n, ast.Index) and _is_name(n.obj, name) and _is_name(n.index, counter):
            return ast.NullLit(n.span)
        return None
    rest = _replace(block, swap)
    return any(isinstance(n, ast.Name) and n.name in (name, counter) for n in ast.walk(rest))


@dataclass
class _Use:
    """A use of the list after the loop: `contains(x)` (`tested`) or a search loop (`loop`, its counter, the value
    its returns give)."""

    node: object
    tested: ast.Expr | None = None
    counter: str | None = None
    value: bool | None = None
    sets: str | None = None  # a search that sets this local to `value` where it finds, rather than returns it


def _uses(flood: Flood, lo: _Locals) -> list[_Use] | None:
    """Every use of the list after its loop, each `contains` or a search; None if one is anything else."""
    uses: list[_Use] = []
    name = flood.name

    def swap(n):
        tested = _method(n, name, "contains")
        if tested is not None:
            uses.append(_Use(n, tested=tested))
            return ast.NullLit(n.span)
        counter = walks_list(n, name)
        if counter is not None:
            sets, body = _flag_search(n)
            returns = {r.value.value for r in ast.walk(body) if isinstance(r, ast.Return)
                       and isinstance(r.value, ast.BoolLit)}
            own = _declared(body)
            if (len(returns) == 1 and pure_block(body, own, returns=True)
                    and not _reads_list(body, name, counter)):
                value = returns.pop() if sets is None else sets[1]
                uses.append(_Use(_Search(n, body), counter=counter, value=value,
                                 sets=None if sets is None else sets[0]))
                return ast.Block(n.span, [])
        return None
    rest = _replace(flood.body[flood.at + 2:], swap)
    if any(_is_name(n, name) for n in ast.walk(rest)):
        return None
    for u in uses:
        if u.tested is not None and any(_is_name(n, name) for n in ast.walk(u.tested)):
            return None
    return uses


@dataclass
class _Search:
    """A search loop, and its body as the searcher runs it (a flag's `v = b;` made `return true;`)."""

    loop: ast.For
    body: ast.Block


def _flag_search(loop: ast.For) -> tuple[tuple[str, bool] | None, ast.Block]:
    """A search with no return whose only writes are `v = b;` to one local `v`, one value `b` (a flag: "some
    item has Q", the form `flood_shapes` gives a flag hoisted out of a stack walk): ((v, b), its body with each
    write a `return true;`); else (None, the loop's body)."""
    body = loop.body
    if any(isinstance(n, ast.Return) for n in ast.walk(body)):
        return None, body
    writes = {(n.expr.target.name, n.expr.value.value) for n in ast.walk(body)
              if isinstance(n, ast.ExprStmt) and isinstance(n.expr, ast.Assign) and n.expr.op == "="
              and isinstance(n.expr.target, ast.Name) and isinstance(n.expr.value, ast.BoolLit)}
    if len(writes) != 1:
        return None, body
    (v, b), = writes
    if v in _declared(body):
        return None, body
    swapped = _replace(body, lambda n: ast.Return(n.span, ast.BoolLit(n.span, True))
                       if isinstance(n, ast.ExprStmt) and isinstance(n.expr, ast.Assign)
                       and _is_name(n.expr.target, v) else None)
    return (v, b), swapped


def _arg(span: Span, name: str, value: ast.Expr) -> ast.Arg:
    return ast.Arg(span, name, value)


def _input(span: Span, name: str, ty: ast.TypeRef) -> ast.InputDecl:
    return ast.InputDecl(span, False, "function", True, None, copy.deepcopy(ty), name, span, [], None)


def rewrite_floods(module: ast.Module, steps: Callable[[str], int | None], distinct: Distinct | None = None,
                   held: Held | None = None, scans: Scans | None = None, cells: Scans | None = None,
                   values: Values | None = None) -> list[str]:
    """Rewrites the floods of `module`'s functions in place (see the module's docstring); `steps(T)` is the bound
    on a chain of `T`s (None: unknown, the flood is left alone); `distinct` proves a scan visits each object once
    (tgpl.lowering.flood_counts; None: no flood compared with a count is rewritten); `held` bounds a counted
    flood's chains by how many items can have the count's condition (tgpl.lowering.held_counts; None: `steps`
    alone); `scans` gives a proved scan of a class's objects, for a flood's group cleared in a loop
    (tgpl.lowering.group_clears; None: left as written); `cells` one that may also give nulls, for a flood's list
    walked item by item (tgpl.lowering.flood_walks; None: left as written); `values` the numbers an expression of
    a scanned object takes, for a set such a walk fills (None: left as written). The names of the functions
    made."""
    seed_floods(module)
    written = [m for _, members in _owners(module) for m in members if isinstance(m, ast.FunctionDef)]
    made: list[str] = rewrite_group_clears(module, scans) if scans is not None else []
    reads = _Reads(module)
    inline_object_walks(module, reads.only, reads.functions)
    for owner, members in _owners(module):
        taken = {getattr(m, "name", None) for m in members} - {None}
        inline_list_walks(members, reads.only)
        if cells is not None and isinstance(owner, ast.ClassDef):
            rewrite_flood_walks(owner, members, cells, reads.only,
                                lambda fn, body, k, members=members: _flood_list(fn, body, k, members), values)
        _inline_flood_calls(members, reads)
        for fn in [m for m in members if isinstance(m, ast.FunctionDef)]:
            effect = fn.effect
            if effect is None:
                continue
            for _ in range(8):  # a function with several floods: one at a time
                new = _rewrite_one(fn, effect.body.body, steps, taken, reads, distinct, held, written)
                if not new:
                    break
                members.extend(new)
                made.extend(f.name for f in new)
    return made


def _flood_list(fn: ast.FunctionDef, body: list, k: int, members: list) -> tuple[int, bool] | None:
    """Does `body[k]` declare a flood's list that holds each item once: the list a flood of `fn` grows
    (`List<T> L = {s};` and its loop) or the one a flood function of the same owner returns (`List<T> L =
    F(...);`), started from one item (seeds may repeat)? The index of the first statement after the flood, and
    whether its loop reads a member of the item first (`flood_walks.derefs_item`: then the list holds no null,
    which would stop the game as an error)."""
    s = body[k]
    if not (isinstance(s, ast.VarDecl) and s.type.name == "List" and len(s.type.args) == 1):
        return None
    if isinstance(s.init, ast.InitList):
        flood = find_flood(fn, body, k)
        if flood is None or flood.at != k or len(s.init.items) != 1:
            return None
        end = k + 2
    elif isinstance(s.init, ast.Call) and isinstance(s.init.callee, ast.Name):
        fns = [m for m in members if isinstance(m, ast.FunctionDef) and m.name == s.init.callee.name]
        if len(fns) != 1 or _flood_function(fns[0]) is None:
            return None
        inner = fns[0].effect.body.body
        flood = find_flood(fns[0], inner[:-1] + [ast.Block(inner[-1].span, [])])
        if len(inner[flood.at].init.items) != 1 or not _same(inner[flood.at].type, s.type):
            return None
        end = k + 1
    else:
        return None
    loop = flood.body[flood.at + 1]
    return end, derefs_item(loop.body.body, lambda e: isinstance(e, ast.Index) and _is_name(e.obj, flood.name)
                            and _is_name(e.index, flood.counter))


def _owners(module: ast.Module):
    """(owner, its member list) for the module and each class: where functions are defined."""
    yield module, module.items
    for item in module.items:
        if isinstance(item, ast.ClassDef):
            yield item, item.members


def _rewritable(fn: ast.FunctionDef, body: list, reads: _Reads) -> tuple[Flood, list[_Use]] | None:
    """The first flood of `body` with its uses, where all of them are rewritten: the loop and everything after it
    write nothing of the state (a call that only reads is allowed), so the searches, run where the uses are, see
    the state the loop saw."""
    flood = find_flood(fn, body)
    if flood is None:
        return None
    lo = _locals(fn, body)
    uses = _uses(flood, lo)
    loop = body[flood.at + 1].body
    if (uses is None or not reads.only(_strip_add(loop, flood.name), _declared(loop))
            or _frozen_scan(body[flood.at + 2:], flood.name, reads, lo) is None):
        return None
    if any(_search_free(u, flood, lo) is None for u in uses):
        return None
    return flood, uses


NO_SCAN = -1  # `_frozen_scan`: every use is read before the state is first written


def _frozen_scan(after: list, name: str, reads: _Reads, lo: _Locals) -> int | None:
    """Where the statements `after` a flood's loop may write the state, given that the searches the uses become
    run where the uses are: `NO_SCAN` where no use follows a write (every search sees the state the loop saw);
    else the index of the `for` that first writes the state and holds every use after it, to be marked
    `reads_before` (each pass reads the state as the loop found it, as the list was read: "every item the flood
    missed is cleared" is a rule over `not reached`), where the loop without its uses reads no attribute it
    writes (so that only the searches see the state the loop started with rather than the one its passes leave,
    the list's view) and calls only built-ins that read; None otherwise."""
    for j, s in enumerate(after):
        if reads.only(s, set(lo.types), lo.made):
            continue
        if not any(_is_name(n, name) for n in ast.walk(after[j:])):
            return NO_SCAN
        if (not isinstance(s, ast.For) or any(_is_name(n, name) for n in ast.walk(after[j + 1:]))
                or not _order_free(_without_uses(s, name))):
            return None
        return j
    return NO_SCAN


def _without_uses(loop: ast.For, name: str) -> ast.For:
    """`loop` with each `name.contains(x)` made `x` and each loop over `name` emptied: what it reads besides them."""
    def swap(n):
        tested = _method(n, name, "contains")
        if tested is not None:
            return tested
        if walks_list(n, name) is not None:
            return ast.Block(n.span, [])
        return None
    return _replace(loop, swap)


def _order_free(loop: ast.For) -> bool:
    """Does `loop` read no attribute it writes (`x.A = ...`; `x.A += ...` reads it too), write no list's slot,
    end no game, return nothing, and call nothing but built-in methods that read?"""
    written: set[str] = set()
    targets: set[int] = set()
    for n in ast.walk(loop):
        if isinstance(n, ast.Assign) and isinstance(n.target, ast.Member):
            written.add(n.target.name)
            if n.op == "=":
                targets.add(id(n.target))
        elif isinstance(n, ast.Assign) and not isinstance(n.target, ast.Name):
            return False  # a slot of a list (`x.L[k] = v`): which attribute it changes is the list's
        if isinstance(n, (ast.Winner, ast.InputDecl, ast.Return)):
            return False
        if isinstance(n, ast.Call) and not (isinstance(n.callee, ast.Member) and n.callee.name in READS):
            return False
    read = {n.name for n in ast.walk(loop) if isinstance(n, ast.Member) and id(n) not in targets}
    return not (written & read)


def _search_free(use: _Use, flood: Flood, lo: _Locals) -> dict[str, ast.TypeRef] | None:
    """The locals a search's body reads besides its own (none for `contains`), or None where one may change."""
    if use.counter is None:
        return {}
    return _free(use.node.body, lo, _declared(use.node.body), {flood.name, use.counter})


def _rewrite_one(fn: ast.FunctionDef, body: list, steps: Callable[[str], int | None],
                 taken: set[str], reads: _Reads, distinct: Distinct | None = None, held: Held | None = None,
                 written: list | None = None) -> list[ast.FunctionDef]:
    found = _rewritable(fn, body, reads)
    counted = False
    condition = None
    seeds: SeedWalk | None = None
    if found is None:
        walked = _seed_walked(fn, body, reads)
        if walked is not None and _rewritable(fn, walked[0], reads) is not None:
            body[:], seeds = walked  # only where the flood it makes is then rewritten
            found = _rewritable(fn, body, reads)
    if found is None:
        other = _other_shape(fn, body, distinct)
        found = _rewritable(fn, other, reads) if other is not None else None
        if found is None:
            return []
        condition = counted_condition(fn, body, distinct) if distinct is not None else None
        counted = condition is not None
        body[:] = other  # only where the flood it makes is then rewritten
        found = _rewritable(fn, body, reads)
    flood, uses = found
    bound = steps(flood.item.name)
    lo = _locals(fn, body)
    if bound is None:
        return []
    if condition is not None and held is not None:
        fewer = held(fn.name, condition[0], condition[1], flood.item.name)
        bound = min(bound, fewer) if fewer is not None else bound
    decl, loop = body[flood.at], body[flood.at + 1]
    span = loop.span
    used = set(lo.types) | {n.name for n in ast.walk(body + ([seeds.walk] if seeds is not None else []))
                            if isinstance(n, (ast.Name, ast.VarDecl))}
    starts = [] if seeds is not None else [_fresh(f"{flood.name}Start", used) for _ in decl.init.items]  # one a seed
    seed_free = _seed_free(seeds, lo) if seeds is not None else {}
    params = _Params(_fresh("at", used), _fresh("goal", used), _fresh("steps", used))
    made: list[ast.FunctionDef] = []
    swaps: dict[int, object] = {}
    for use in uses:
        free = {**flood.free, **_search_free(use, flood, lo)}
        fname = _fresh(f"{fn.name}Flood", taken)
        made.append(_searcher(fname, flood, use, free, span, params))
        flooded = f"its flood of the list '{flood.name}'" + (_use_text(use) if len(uses) > 1 else "")
        made[-1].origin = _origin(fn, flooded, span, written)
        if use.tested is not None and (len(starts) == 1 or seeds is not None) and (
                fn.reaches is not None and _is_name(use.tested, fn.reaches)  # every item (group_clears)
                or _many_goals(use, body[flood.at + 2:], lo)):
            made[-1].reaches = params.goal  # asked many goals of few starts: keyed by its start
        if seeds is None:
            call = _from_any(span, fname, starts, use, free, params, bound)
        else:  # the seed walk, in a function of its own that asks the search from each seed
            seeder = _fresh(f"{fn.name}Seeds", taken)
            search = _from_any(span, fname, [SEEDS], use, free, params, bound)

            def asked(e, at, search=search, use=use):
                return _replace(search, lambda n: e if _is_name(n, SEEDS) else ast.Name(at, params.goal)
                                if n is use.tested else None)
            made.append(seeds_function(seeder, seeds, flood.item, params.goal if use.tested is not None else None,
                                       {**free, **seed_free}, asked, span))
            made[-1].origin = _origin(fn, f"the walk that seeds its list '{flood.name}'", seeds.walk.span, written)
            args = [_arg(span, params.goal, use.tested)] if use.tested is not None else []
            call = ast.Call(span, ast.Name(span, seeder),
                            args + [_arg(span, v, ast.Name(span, v)) for v in {**free, **seed_free}])
        if use.tested is not None:
            swaps[id(use.node)] = call
        else:
            found: ast.Stmt = ast.Return(span, ast.BoolLit(span, use.value))
            if use.sets is not None:
                found = ast.ExprStmt(span, ast.Assign(span, ast.Name(span, use.sets), "=",
                                                      ast.BoolLit(span, use.value)))
            swaps[id(use.node.loop)] = ast.If(use.node.loop.span, call, ast.Block(span, [found]), None)
    scan = _frozen_scan(body[flood.at + 2:], flood.name, reads, lo)
    rest = _replace(body[flood.at + 2:], lambda n: swaps.get(id(n)))
    if scan is not None and scan != NO_SCAN:
        rest[scan].reads_before = True  # its uses read the state the flood saw (`_frozen_scan`)
    body[flood.at:] = [ast.VarDecl(decl.span, copy.deepcopy(flood.item), start, decl.name_span, seed)
                       for start, seed in zip(starts, decl.init.items)] + rest
    merged = merged_scans(body) if counted else None
    if merged is not None:
        body[:] = merged
    return made


def _origin(fn: ast.FunctionDef, what: str, span: Span, written: list | None) -> ast.Origin:
    """What a function made from `fn`'s flood stands for (`ast.Origin`): `fn` as the designer wrote it, and `what`
    at `span`; where `span` lies in another of the designer's functions `written` (a flood function's statements
    inlined where it is called, `_inline_flood_calls`, or a walk of another class's list, `list_calls`), that
    one named too, since the list is filled there."""
    name, holder = ast.written_name(fn), _written_at(span, written)
    if holder is not None and holder != name:
        what += f" filled in {holder}"
    return ast.Origin(name, what, span.line)


def _use_text(use: _Use) -> str:
    """Which use of a flood's list a search answers, for the origin of one of several made from one flood: the
    `contains` or the loop by its line, a flag's search by the flag it sets (`flood_shapes` hoisted it)."""
    if use.tested is not None:
        return f" asked by the contains at line {use.node.span.line}"
    if use.sets is not None:
        return f" searched for '{use.sets}'"
    return f" searched by the loop at line {use.node.loop.span.line}"


def _written_at(span: Span, written: list | None) -> str | None:
    """The designer's function among `written` whose text holds `span`, by name."""
    for m in written or []:
        if isinstance(m, ast.FunctionDef) and m.origin is None and m.span.holds(span):
            return m.name
    return None


def _seed_walked(fn: ast.FunctionDef, body: list, reads: _Reads | None) -> tuple[list, SeedWalk] | None:
    """`body` with its first flood seeded by a walk that adds what it finds (`flood_seeds`) marked as seeded so
    (`flood_seeds.marked`), and the walk; None where there is none, where the walk calls what may write (`reads`;
    None: not asked, `has_flood` only looks) or reads a local that may change or is declared after the list."""
    lo = _locals(fn, body)
    for k in range(len(body) - 2):
        seeds = seed_walk(body, k)
        if seeds is None or lo.top.get(body[k].name) != k or body[k].name in lo.assigned:
            continue
        free = _seed_free(seeds, lo)
        if free is None or any(lo.top[v] >= k for v in free):
            continue
        if reads is not None and not reads.only(seeds.stripped(), _declared(seeds.walk)):
            continue
        tried = marked(body, k)
        found = find_flood(fn, tried)
        if found is not None and found.at == k:
            return tried, seeds
    return None


def _seed_free(seeds: SeedWalk, lo: _Locals) -> dict[str, ast.TypeRef] | None:
    """The function's locals a seed walk reads and does not declare (`_free`), or None where one may change."""
    return _free(seeds.stripped(), lo, _declared(seeds.walk), {seeds.name})


def _many_goals(use: _Use, after: list, lo: _Locals) -> bool:
    """Is the `contains` use `use` asked of the items of a list that is no local, indexed by the counter of a
    counted `for` around it in `after`, the code after the flood (Havannah's `for (i = 0; i < Edge.length; i += 1)
    { if (group.contains(Edge[i])) ... }`)? Its start is then asked many goals: keyed by its start
    (closures.reached_of, which both forms answer alike), the search's rows are the items reached from the start,
    not those times every goal asked (issue 34)."""
    tested = use.tested
    if isinstance(tested, ast.Name):
        return _scanned_cell(tested.name, use, after)
    if not (isinstance(tested, ast.Index) and isinstance(tested.index, ast.Name)):
        return False
    if isinstance(tested.obj, ast.Name) and tested.obj.name in lo.types or not isinstance(tested.obj, (
            ast.Name, ast.Member)):
        return False  # a local list, or a list made by a call: its items may change with the state
    loops = [n for n in ast.walk(after) if isinstance(n, ast.For) and (ast.counted_for(n) or ("",))[0]
             == tested.index.name]
    return any(n is use.node for loop in loops for n in ast.walk([loop.body]))


def _scanned_cell(name: str, use: _Use, after: list) -> bool:
    """Is the local `name` the cell of a scan of a board's group (`T q = G[x][y] as T;`, `G` a bare name and each
    index the counter of a counted `for` over number literals around the use: `flood_walks`' scan), declared
    once in `after`? Its start is then asked every cell."""
    decls = [n for n in ast.walk(after) if isinstance(n, ast.VarDecl) and n.name == name]
    if len(decls) != 1 or not isinstance(decls[0].init, ast.Cast):
        return False
    cell, counters = decls[0].init.expr, []
    while isinstance(cell, ast.Index) and isinstance(cell.index, ast.Name):
        counters.append(cell.index.name)
        cell = cell.obj
    if not isinstance(cell, ast.Name) or not counters:
        return False
    for c in counters:
        loops = [n for n in ast.walk(after) if isinstance(n, ast.For) and (ast.counted_for(n) or ("",))[0] == c
                 and isinstance(n.cond.right, ast.NumberLit)]
        if len(loops) != 1 or not any(n is use.node for n in ast.walk([loops[0].body])):
            return False
    return True


def _from_any(span: Span, fname: str, starts: list[str], use: _Use, free: dict[str, ast.TypeRef],
              p: _Params, bound: int) -> ast.Expr:
    """The searcher `fname` asked from each seed, joined by `||`: the list holds what any seed reaches."""
    calls: list[ast.Expr] = []
    for start in starts:
        args = [_arg(span, p.at, ast.Name(span, start))]
        if use.tested is not None:
            args.append(_arg(span, p.goal, use.tested if start == starts[0] else copy.deepcopy(use.tested)))
        args += [_arg(span, v, ast.Name(span, v)) for v in free]
        args.append(_arg(span, p.steps, ast.NumberLit(span, float(bound))))
        calls.append(ast.Call(span, ast.Name(span, fname), args))
    out = calls[0]
    for call in calls[1:]:
        out = ast.Binary(span, "||", out, call)
    return out


@dataclass
class _Params:
    """The names of the searcher's own inputs, fresh in the function the flood was in: the item reached, the
    item asked about (`contains`), the steps left."""

    at: str
    goal: str
    steps: str


def _searcher(fname: str, flood: Flood, use: _Use, free: dict[str, ast.TypeRef],
              span: Span, p: _Params) -> ast.FunctionDef:
    """The recursive function that answers `use` (see the module's docstring)."""
    a = ast.Name(span, p.at)
    if use.tested is not None:
        here = [ast.If(span, ast.Binary(span, "==", a, ast.Name(span, p.goal)),
                       ast.Block(span, [ast.Return(span, ast.BoolLit(span, True))]), None)]
    else:
        here = _replace(use.node.body.body, lambda n: (
            ast.Name(n.span, p.at) if isinstance(n, ast.Index) and _is_name(n.obj, flood.name)
            and _is_name(n.index, use.counter) else
            ast.Return(n.span, ast.BoolLit(n.span, True)) if isinstance(n, ast.Return) else None))
        here = _passes_as_while(here, {x.name for x in ast.walk([use.node.body, flood.body]) if isinstance(
            x, (ast.Name, ast.VarDecl))} | set(free) | {p.at, p.goal, p.steps, fname})
    stop = ast.If(span, ast.Binary(span, "==", ast.Name(span, p.steps), ast.NumberLit(span, 0.0)),
                  ast.Block(span, [ast.Return(span, ast.BoolLit(span, False))]), None)
    passed = [_arg(span, p.goal, ast.Name(span, p.goal))] if use.tested is not None else []
    passed += [_arg(span, v, ast.Name(span, v)) for v in free]
    passed.append(_arg(span, p.steps, ast.Binary(span, "-", ast.Name(span, p.steps), ast.NumberLit(span, 1.0))))

    def swap(n):
        if isinstance(n, ast.Index) and _is_name(n.obj, flood.name) and _is_name(n.index, flood.counter):
            return ast.Name(n.span, p.at)
        found = _add_if(n, flood.name)
        if found is None:
            return None
        cond, item = found
        call = ast.Call(n.span, ast.Name(n.span, fname),
                        [_arg(n.span, p.at, ast.Name(n.span, item))] + passed)
        test = call if cond is None else ast.Binary(n.span, "&&", _replace(cond, swap), call)
        return ast.If(n.span, test, ast.Block(n.span, [ast.Return(n.span, ast.BoolLit(n.span, True))]), None)
    walk = _replace(flood.body[flood.at + 1].body.body, swap)
    inputs = [_input(span, p.at, flood.item)]
    if use.tested is not None:
        inputs.append(_input(span, p.goal, flood.item))
    inputs += [_input(span, v, t) for v, t in free.items()]
    inputs.append(_input(span, p.steps, ast.TypeRef(span, "number")))
    effect = ast.Effect(span, ast.Block(span, here + [stop] + walk + [ast.Return(span, ast.BoolLit(span, False))]))
    # `steps` starts at a bound proved to cut no answer (the caller's): the lowering may drop it (closures.py)
    return ast.FunctionDef(span, fname, span, False,
                           inputs + [ast.Returns(span, ast.TypeRef(span, "bool")), effect], stops=p.steps)


def _passes_as_while(stmts: list, used: set[str]) -> list:
    """`stmts` (a search's test, run on the item reached) with each counted `for` among them written as the
    `while` it is (`number c = a; while (c < b) { ...; c += 1; }`, the counter renamed fresh). A search whose own
    test is a loop (Atari Go's liberty: some neighbour of the item empty) would otherwise be compiled as "some
    pass returns true" (tgpl.lowering.horn's `exists_loop`), read under `not` on the way to every recursive
    call, so that the searcher's demand would depend on itself through negation, which GDL forbids; as a
    `while` it is a loop relation, left by its comparison. A loop with a `continue` (which would skip the
    step) or that declares its counter again is kept."""
    out: list = []
    for s in stmts:
        init = s.init if isinstance(s, ast.For) else None
        if not (isinstance(init, ast.VarDecl) and s.cond is not None and isinstance(s.post, ast.Assign)
                and not any(isinstance(n, ast.Continue) for n in ast.walk(s.body))
                and not any(isinstance(n, ast.VarDecl) and n.name == init.name for n in ast.walk(s.body))):
            out.append(s)
            continue
        counter = _fresh(f"{init.name}Pass", used)

        def renamed(n, old=init.name, new=counter):
            return ast.Name(n.span, new) if _is_name(n, old) else None
        step = ast.ExprStmt(s.post.span, _replace(s.post, renamed))
        out += [ast.VarDecl(init.span, copy.deepcopy(init.type), counter, init.name_span, _replace(init.init, renamed)),
                ast.While(s.span, _replace(s.cond, renamed), ast.Block(s.body.span, _replace(s.body.body, renamed)
                                                                      + [step]))]
    return out


def made_after_setup(program) -> set[str]:
    """The classes of the objects the code that can run after setup makes (`new`): actions, turns and what they
    call (tgpl.frontend.after_setup). A board's functions that build its places, called from its groups'
    `default` only, make none while the board is made in setup (a graph board of named places)."""
    return {n.type.name for n in after_setup_nodes(program) if isinstance(n, ast.New)}


def chain_bounds(program, start: dict) -> Callable[[str], int | None]:
    """`steps(T)` for `rewrite_floods`: the objects of class `T` (or a subclass) after setup, less one, the longest
    shortest chain among them; None where the game makes `T`s after setup (a `new` in the code that can run
    after setup, `made_after_setup`), so that their number is not known here, or where the start is not one
    state."""
    if "objects" not in start:
        return lambda name: None
    made = made_after_setup(program)

    bases = {c.name: c.base for c in program.classes}

    def derives(name: str, base: str) -> bool:
        seen: set[str] = set()
        while name is not None and name not in seen:
            if name == base:
                return True
            seen.add(name)
            up = bases.get(name)
            name = up.name if up is not None else None
        return False

    def steps(name: str) -> int | None:
        if any(derives(m, name) for m in made):
            return None
        count = 0
        for o in start["objects"]:
            c = o["class"]
            while c is not None and c.name != name:
                c = c.base
            count += c is not None
        return max(count - 1, 0) if count else None
    return steps


def _other_shape(fn: ast.FunctionDef, body: list, distinct: Distinct | None = None) -> list | None:
    """`body` with a flood written another way (`flood_shapes`; started by a count and compared with it,
    `flood_counts`, where `distinct` is given) in the worklist form, or None."""
    from tgpl.lowering.flood_shapes import stack_walk, while_walk

    counted = counted_start(fn, body, distinct) if distinct is not None else None
    base = counted if counted is not None else body
    return stack_walk(fn, base) or while_walk(fn, base) or counted


def has_flood(program) -> bool:
    """Does a function of `program` hold a flood `rewrite_floods` would look at (its loop recognised)?"""
    for m in program.modules:
        for _, members in _owners(m):
            for fn in members:
                if not isinstance(fn, ast.FunctionDef) or fn.effect is None:
                    continue
                body = seeded(fn.effect.body.body) or fn.effect.body.body
                other = None if find_flood(fn, body) else _other_shape(fn, body, _unproved)
                if find_flood(fn, body) or (other is not None and find_flood(fn, other)):
                    return True
                if _seed_walked(fn, body, None) is not None:
                    return True
    return False


def _unproved(ranges, item, item_class) -> bool:
    """`has_flood` only looks: a scan taken as visiting each object once, which `with_floods` then proves."""
    return True


def with_floods(program, start: dict) -> tuple[object, dict]:
    """`program` (checked) with its floods rewritten, and `start` (a snapshot of it) made to name the rewritten
    program's classes; both unchanged when there is no flood to rewrite or the rewritten text does not check."""
    from tgpl.frontend.loader import load_program

    if not has_flood(program) or program.main not in program.sources:
        return program, start
    steps = chain_bounds(program, start)
    made: list[str] = []

    def distinct(ranges, item, item_class) -> bool:
        return visits_each_once(program, start, ranges, item, item_class)
    held = held_bound(program, start)
    scans = board_scans(program, start)
    cells = board_scans(program, start, nulls=True)
    values = board_values(program, start)
    rewritten = load_program(program.main, text=program.sources[program.main],
                             transform=lambda m: made.extend(rewrite_floods(m, steps, distinct, held, scans, cells,
                                                                            values)))
    if not made or not rewritten.ok:
        return program, start
    classes = {**rewritten.builtins.by_name(), **{c.name: c for c in rewritten.classes}}

    def moved(o: dict) -> dict:
        o = dict(o)
        o["class"] = classes.get(o["class"].name, o["class"])
        o["connections"] = [(n, classes.get(c.name, c), to) for n, c, to in o.get("connections", ())]
        return o
    return rewritten, {**start, "objects": [moved(o) for o in start["objects"]]}


def board_scans(program, start: dict, nulls: bool = False) -> Scans:
    """`scans` for `rewrite_floods`: for the class `owner` and the item class `item`, a group `g` of the only
    object of `owner` (none made after setup) and counter ranges such that `o.g[x][y] as item` visits every
    object of `item` exactly once (tgpl.lowering.scan_cells), and, where `nulls`, may also give null (a board
    with blanks: the scan skips them), or None."""
    if "objects" not in start:
        return lambda owner, item, groups: None
    made = made_after_setup(program)
    objects = {o["name"]: o for o in start["objects"]}

    def scans(owner: str, item: str, groups: list[str]):
        held = [o for o in start["objects"] if o["class"].name == owner]
        if owner in made or len(held) != 1:
            return None
        for g in groups:
            v = held[0]["fields"].get(g)
            cells = objects[v[1]].get("cells") if isinstance(v, tuple) and v[0] == "obj" and v[1] in objects else None
            if not cells or len({len(col) for col in cells}) != 1:
                continue
            ranges = [("x", 0, len(cells)), ("y", 0, len(cells[0]))]
            span = None  # evaluated, never shown
            cell = ast.Index(span, ast.Index(span, ast.Member(span, ast.Name(span, "#o"), g, span),
                                             ast.Name(span, "x")), ast.Name(span, "y"))
            if visits_each_once(program, start, ranges, ast.Cast(span, cell, ast.TypeRef(span, item)), item,
                                {"#o": held[0]["name"]}, nulls=nulls):
                return g, ranges
        return None
    return scans


def board_values(program, start: dict) -> Values:
    """`values` for `rewrite_floods`: for the class `owner`, whose only object's group `g` a scan over `ranges`
    visits (`board_scans`), the numbers `value` takes, `names` read as each object of class `item` the scan gives,
    or None (tgpl.lowering.scan_cells.values_over)."""
    if "objects" not in start:
        return lambda owner, g, ranges, item, names, value: None

    def values(owner: str, g: str, ranges: list, item: str, names: set[str], value: ast.Expr):
        held = [o for o in start["objects"] if o["class"].name == owner]
        if len(held) != 1:
            return None
        span = None  # evaluated, never shown
        cell = ast.Index(span, ast.Index(span, ast.Member(span, ast.Name(span, "#o"), g, span),
                                         ast.Name(span, ranges[0][0])), ast.Name(span, ranges[1][0]))
        return values_over(program, start, ranges, ast.Cast(span, cell, ast.TypeRef(span, item)), names, value,
                           {"#o": held[0]["name"]})
    return values


def _flood_function(fn: ast.FunctionDef) -> str | None:
    """A function that only declares locals, floods a list and returns it (Atari Go's `GroupOf`): the list's name."""
    body = fn.effect.body.body if fn.effect is not None else []
    if len(body) < 3 or not (isinstance(body[-1], ast.Return) and isinstance(body[-1].value, ast.Name)):
        return None
    name = body[-1].value.name
    if not all(isinstance(x, ast.VarDecl) for x in body[:-2]):
        return None
    flood = find_flood(fn, body[:-1] + [ast.Block(body[-1].span, [])])
    if flood is None or flood.name != name or flood.at != len(body) - 3:
        return None
    if any(isinstance(n, ast.Return) for n in ast.walk(body[:-1])):
        return None
    return name


def _inline_flood_calls(members: list, reads: _Reads) -> None:
    """`List<T> g = F(...);` as a top-level statement of a function, `F` a flood function of the same owner called
    by its bare name, replaced by `F`'s statements (its inputs and locals renamed fresh, its list named `g`), so
    that the caller's uses of `g` meet the flood in the caller."""
    functions = {m.name: m for m in members if isinstance(m, ast.FunctionDef)}
    floods = {name: fn for name, fn in functions.items() if _flood_function(fn) is not None}
    if not floods:
        return
    for fn in functions.values():
        if fn.effect is None or fn.name in floods:
            continue
        body = fn.effect.body.body
        for k in range(len(body) - 1, -1, -1):
            s = body[k]
            if not (isinstance(s, ast.VarDecl) and isinstance(s.init, ast.Call)
                    and isinstance(s.init.callee, ast.Name) and s.init.callee.name in floods):
                continue
            inlined = _inlined(floods[s.init.callee.name], s, fn)
            if inlined is None:
                continue
            tried = body[:k] + inlined + body[k + 1:]
            found = _rewritable(fn, tried, reads)
            if found is not None and found[0].name == s.name:
                body[k:k + 1] = inlined  # only where the caller's uses are then rewritten


def _inlined(callee: ast.FunctionDef, decl: ast.VarDecl, caller: ast.FunctionDef) -> list | None:
    """The statements that stand for `decl` (`List<T> g = callee(...)`) in `caller`, or None (arguments that do not
    match the inputs)."""
    inputs = callee.inputs
    given = given_inputs(inputs, decl.init)
    if given is None:
        return None
    body = callee.effect.body.body
    listed = body[-1].value.name
    used = {n.name for n in ast.walk(caller.effect.body) if isinstance(n, (ast.Name, ast.VarDecl))}
    used |= {d.name for d in caller.inputs}
    renamed: dict[str, str] = {listed: decl.name}
    for n in list(inputs) + [x for x in ast.walk(body) if isinstance(x, ast.VarDecl)]:
        if n.name not in renamed:
            renamed[n.name] = _fresh(f"{callee.name}{n.name[:1].upper()}{n.name[1:]}", used)

    def swap(n):
        if isinstance(n, ast.Name) and n.name in renamed:
            return ast.Name(n.span, renamed[n.name])
        if isinstance(n, ast.VarDecl) and n.name in renamed:
            return ast.VarDecl(n.span, copy.deepcopy(n.type), renamed[n.name], n.name_span,
                               _replace(n.init, swap))
        return None
    args = [ast.VarDecl(decl.span, copy.deepcopy(d.type), renamed[d.name], decl.name_span, given[d.name])
            for d in inputs]
    return args + _replace(body[:-1], swap)


class _Reads:
    """Which calls only read the state: built-in methods that write nothing (`contains`, `indexOf`), and the
    game's functions whose writes, run after run, are all to their own locals (a list they make and fill, as
    Atari Go's `Around`), calling only such calls. The rewrite runs the flood's steps and a search's body once per
    path, not once per item: a call that writes would change the game."""

    def __init__(self, module: ast.Module):
        self.functions: dict[str, list[ast.FunctionDef]] = {}
        for _, members in _owners(module):
            for m in members:
                if isinstance(m, ast.FunctionDef):
                    self.functions.setdefault(m.name, []).append(m)
        self.known: dict[str, bool] = {}

    def only(self, node, own: set[str] = frozenset(), made: set[str] = frozenset()) -> bool:
        """Does `node` write nothing but the locals `own`, the lists it makes and the lists `made` (made by the
        function it is in), and call only such calls?"""
        fresh = {n.name for n in ast.walk(node) if isinstance(n, ast.VarDecl) and isinstance(n.init, ast.InitList)}
        fresh |= made
        for n in ast.walk(node):
            if isinstance(n, (ast.Winner, ast.InputDecl)):
                return False
            if isinstance(n, ast.Assign) and not (isinstance(n.target, ast.Name) and n.target.name in own):
                return False
            if isinstance(n, ast.Call) and not self._reads(n, fresh):
                return False
        return True

    def _reads(self, call: ast.Call, fresh: set[str]) -> bool:
        callee = call.callee
        name = callee.name if isinstance(callee, (ast.Name, ast.Member)) else None
        if name is None:
            return False
        if isinstance(callee, ast.Member) and isinstance(callee.obj, ast.Name) and callee.obj.name in fresh:
            return True  # a list made here, filled or read (`out.add(n)`)
        if name in self.functions:
            return all(self._function(f) for f in self.functions[name])
        return isinstance(callee, ast.Member) and name in READS

    def _function(self, fn: ast.FunctionDef) -> bool:
        key = f"{id(fn)}"
        if key not in self.known:
            self.known[key] = True  # a recursion: as the rest of its body says
            own = {d.name for d in fn.inputs} | {n.name for n in ast.walk(fn.items) if isinstance(n, ast.VarDecl)}
            self.known[key] = fn.effect is not None and self.only(fn.effect.body, own)
        return self.known[key]
