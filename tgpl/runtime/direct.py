"""Direct calls: a call of a function that reads only (`tgpl.runtime.readonly`) runs the callee's
own Python function, with no call site in between once bound.

A call site (`codegen._site`) is a Python function between caller and callee: it pushes the call
on the machine's stack (for error reports), runs the effect, and turns the host's errors into the
game's. A function that reads only is also spelled `_fast_direct(m, this, SP, inputs...)`
(`spell`), which does that work itself, lazily: nothing is pushed; an error raised inside it gets
the call's entry (the function, the call's span `SP`) inserted in its stack as it passes
(`annotate`), at the place the entry would have had on the machine's stack. The caller passes the
span, and its site (`site`) installs the callee's function in the caller's code once bound, when
the target's class cannot change which function runs (a global function, a method of `this` or of a
global object that no subclass overrides); else a small dispatch by the target's class (`poly`).

Errors come out the same: where, what, and the stack of calls they name. The stack is only read
by errors and by code that cannot run inside a function that reads only (events, inputs).
"""

from __future__ import annotations

from tgpl.runtime.errors import TOO_LARGE, Cancelled, Frame as ErrFrame, TGPLRuntimeError, too_deep as too_deep_message
from tgpl.runtime.calls import _call_method, _invoke
from tgpl.runtime.values import Obj


def annotate(e: TGPLRuntimeError, m, what: str, span) -> None:
    """Add a direct call's entry to an error passing through it: every entry the machine holds
    now is below the call, every one after them in the error's stack above it."""
    e.stack.insert(len(m.stack), ErrFrame(what, span))


def too_deep(m, what: str, span) -> None:
    """The host's stack ran out in a direct call: the error a call site reports there."""
    m.stack.append((what, span))
    try:
        m.error(span, too_deep_message(what))
    finally:
        m.stack.pop()


def too_large(m, what: str, span) -> None:
    """An infinity used as a player or an index in a direct call, reported as a call site does."""
    m.stack.append((what, span))
    try:
        m.error(span, TOO_LARGE)
    finally:
        m.stack.pop()


# What the caller hands on to a direct call besides the values: the world's tables of fields and
# of global objects (`codegen._WORLD_TABLES`), which no code replaces while a machine runs.
GIVEN = frozenset(("D", "G"))

HELPERS = {"_annotate": annotate, "_too_deep": too_deep, "_too_large": too_large,
           "_RuntimeError": TGPLRuntimeError, "_Cancelled": Cancelled, "_ErrFrame": ErrFrame}


def spell(body: str, init: str, preamble: str, args: str, what: str, optimistic: bool, steps: bool,
          misses: str) -> str:
    """The source of `_fast_direct(m, D, G, this, SP, ...)` and of `_general`, its way back when
    an optimistic read misses (`optimistic`: each scalar field read one lookup with no test, a null,
    a fixed object or a missing field raising one of `misses`, `codegen.BlockGenerator.misses`):
    the general spelling `_fast` run as a call site runs it, the entry pushed. `body` is the
    function's body, optimistic or as `_fast` spells it, at two indentations; `preamble` binds what
    it reads but `GIVEN`; `steps`: the optimistic body may count loop steps (it loops or calls,
    `codegen.BlockGenerator.counts`), which a miss then gives back."""
    w = repr(what)
    src = f"def _fast_direct(m, D, G, this, SP{args}):\n" + init + preamble
    if steps:
        src += "    _st0 = m.steps\n"
    src += "    try:\n" + body
    if optimistic:
        src += (f"    except ({misses}):\n" + ("        m.steps = _st0\n" if steps else "")
                + f"        return _general(m, this, SP{args})\n")
    src += (
        f"    except _RuntimeError as _e:\n        _annotate(_e, m, {w}, SP)\n        raise\n"
        "    except _Cancelled:\n        return None\n"
        f"    except RecursionError:\n        _too_deep(m, {w}, SP)\n"
        f"    except OverflowError:\n        _too_large(m, {w}, SP)\n"
    )
    if optimistic:
        src += (
            f"def _general(m, this, SP{args}):\n"
            "    stack = m.stack\n"
            f"    stack.append(({w}, SP))\n"
            "    try:\n"
            f"        return _fast(m, this{args})\n"
            "    except _Cancelled:\n        return None\n"
            f"    except RecursionError:\n        m.error(SP, {too_deep_message(what)!r})\n"
            "    except OverflowError:\n        m.error(SP, _TOO_LARGE)\n"
            "    finally:\n        stack.pop()\n"
        )
    return src


def site(name: str | None, rf, names: tuple, span, install, exact) -> object:
    """A call site of a function that reads only, `x.name(...)` (a method, `exact`: the class of
    `x` when it is `this` or a global object, else None) or `rf(...)` (a global function), as a
    Python function of (machine, its tables `GIVEN`, target or None, the call's span, the values). Once it has bound
    a call it installs the callee's `_fast_direct` in the caller's code (`install`), or, for a
    method whose target's class may choose another override, a dispatch by class (`poly`); a
    callee with no direct spelling (or a call that binds its inputs otherwise) runs as
    `codegen._invoke` runs it."""
    n = len(names)
    args = "".join(f"a{i}, " for i in range(n))
    method = name is not None
    lines = [f"def call(m, D, G, t, sp, {args}):"]
    if method:
        lines += [
            "    if t.__class__ is not _Obj or (f := t.cls.function(name)) is None:",
            f"        return _call_method(m, t, name, names, ({args}), span)",
        ]
    else:
        lines += ["    f = rf"]
    lines += [
        "    fd = getattr(f.effect, 'direct_call', None)",
        "    if fd is None or (f.binders.get(names) or f.binder(names)) is not True:",
        f"        return _invoke(m, f, t, names, ({args}), span)",
        "    if install is not None:",
        "        bind(m, t, f, fd)",
        f"    return fd(m, D, G, t, sp, {args})",
    ]
    poly: dict = {}

    def bind(m, t, f, fd) -> None:
        if not method or (exact is not None and exact in t.cls.ancestry and all(
                c.function(name) is f for c in m.game.classes_by_id() if exact in c.ancestry)):
            install(fd)
            return
        poly[t.cls] = fd
        install(dispatch)

    ns = {"_Obj": Obj, "_call_method": _call_method, "_invoke": _invoke, "name": name, "names": names,
          "span": span, "rf": rf, "install": install, "bind": bind}
    exec(compile("\n".join(lines) + "\n", f"<tgpl direct call site {span}>", "exec"), ns)
    generic = ns["call"]
    dispatch = poly_site(generic, poly, n, span) if method else None
    return generic


def poly_site(generic, poly: dict, n: int, span):
    """A direct call site of a method bound for some classes (`poly`: class -> `_fast_direct`);
    other targets go back to `generic`, which may add their class."""
    args = "".join(f"a{i}, " for i in range(n))
    src = (
        f"def call(m, D, G, t, sp, {args}):\n"
        "    if t.__class__ is _Obj and (fd := POLY.get(t.cls)) is not None:\n"
        f"        return fd(m, D, G, t, sp, {args})\n"
        f"    return generic(m, D, G, t, sp, {args})\n"
    )
    ns = {"_Obj": Obj, "POLY": poly, "generic": generic}
    exec(compile(src, f"<tgpl direct call site {span}>", "exec"), ns)
    return ns["call"]


__all__ = ["annotate", "site", "spell"]
