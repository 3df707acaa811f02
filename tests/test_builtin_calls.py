"""The registry of built-in functions and methods (`tgpl.builtin_calls`): one entry per built-in, which the
checker's views, the closure compiler, the code generator and the analyses all read."""

from __future__ import annotations

import ast
from pathlib import Path

import tgpl.runtime
from tgpl.builtin_calls import (
    BUILTINS, CHANCE, CHANGES_ITEMS, GLOBAL_FUNCTIONS, NAMESPACES, PURE, READS, THROWS, builtin_methods,
    collection_methods, event_methods,
)
from tgpl.frontend.builtins import BuiltinClasses
from tgpl.frontend.symbols import ClassInfo
from tgpl.frontend.types import NUMBER, Collection, Namespace

RUNTIME = Path(tgpl.runtime.__file__).resolve().parent


def test_entries_of_one_name_agree_on_what_a_name_alone_decides():
    """The machine knows a method call by its name (`Machine.builtin_method`): `shuffle` of a list and of a
    stack, `contains` of a list and of a table, must read, write and draw alike."""
    by_name: dict[str, set] = {}
    for b in BUILTINS:
        by_name.setdefault(b.name, set()).add((b.method, b.writes, b.shares, b.chance))
    assert {n: facts for n, facts in by_name.items() if len(facts) > 1} == {}
    assert len({(b.receiver, b.name) for b in BUILTINS}) == len(BUILTINS)


def test_the_name_sets_are_those_the_runtime_and_checker_used():
    assert READS == {"contains", "indexOf", "copy", "keys", "values", "peek", "clone"}
    assert PURE == {"contains", "indexOf", "copy", "keys", "values", "clone"}
    assert CHANGES_ITEMS == {"add", "append", "clear", "remove", "removeAt", "shuffle", "push", "push_front", "pop",
                             "pop_front", "reshuffle", "discard"}
    assert CHANCE == {"shuffle", "reshuffle", "roll"}
    assert THROWS == {"throw", "throw_sync"}


def test_every_signature_carries_its_entry_and_its_name():
    builtins = BuiltinClasses.create()
    deck = ClassInfo("Deck", "stack")
    card = ClassInfo("Card", "interactable")
    sigs = [s for kind in ("List", "Table", "Stack") for s in collection_methods(Collection(kind, NUMBER)).values()]
    sigs += [*builtin_methods(deck, builtins).values(), *builtin_methods(card, builtins).values()]
    sigs += [*event_methods(builtins).values(), *GLOBAL_FUNCTIONS.values()]
    sigs += [s for ns in NAMESPACES.values() for s in ns.values() if not isinstance(s, Namespace)]
    assert all(s.entry is not None and s.entry.name == s.name for s in sigs)
    assert {id(s.entry) for s in sigs} == {id(b) for b in BUILTINS}  # every entry is reachable from the checker


def test_the_checker_lists_members_in_the_documented_order():
    """Suggestions and messages list members in this order; the views keep it."""
    assert list(collection_methods(Collection("List", NUMBER))) == [
        "add", "append", "clear", "contains", "indexOf", "remove", "removeAt", "shuffle", "copy"]
    assert list(collection_methods(Collection("Stack", NUMBER))) == [
        "push", "push_front", "pop", "pop_front", "peek", "clone", "shuffle"]
    assert list(builtin_methods(ClassInfo("Deck", "stack"), BuiltinClasses.create()))[-1] == "reshuffle"
    assert list(NAMESPACES) == ["player", "turn", "turn.phase", "event"]
    assert list(NAMESPACES["turn"]) == ["use", "pass", "active", "phase"]
    assert NAMESPACES["event"] == {}


def test_no_runtime_module_keeps_its_own_table_of_builtin_names():
    """A built-in's facts live in its entry: the runtime's modules spell no built-in's name as a string
    (but for `push`, how a deck's initial list is put in it)."""
    names = {b.name for b in BUILTINS} - {"log", "values"}  # also a record's key, a slot's name
    found = []
    for path in sorted(RUNTIME.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in names and node.value != "push":
                found.append(f"{path.name}:{node.lineno}: {node.value}")
    assert found == []
