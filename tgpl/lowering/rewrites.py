"""The rewrites the compiled moves' refusals name (issue 34): a refusal says where and which construct, and each of
these says what a designer writes instead, in TGPL, so that the game gets past that refusal. Each was applied to a
game that showed the refusal (tests/lowering/test_refusal_hints.py)."""

from __future__ import annotations

LIST_CALLS = ("add", "remove", "removeAt", "clear", "contains", "insert", "push", "pop")


def collection_hint() -> str:
    """A list, set or map kept in the state: the compiled moves keep only single values, so a list of objects is
    a flag on each object, and a list of numbers a number per item."""
    return ("keep a flag on each object instead (`bool Visited = false;` on the cell: `to.Visited = true;` for "
            "`add(to)`, `to.Visited` for `contains(to)`, a counted scan setting it false for `clear()`), or a number "
            "for each item it would count")


def list_call_hint(name: str) -> str:
    """A list's method (`Trail.clear()`) called where the compiled moves have no rule for it: a change or a
    question of a collection in the state (`collection_hint`)."""
    return f"{name}() works on a list in the state, which the compiled moves do not keep: {collection_hint()}"


def marked_items_hint(name: str, method: str, values: bool = False) -> str:
    """What to write instead of a list attribute that a move changes by `method` (`Row.remove(card)`), where its
    items are read one by one or tested (`contains`) rather than summed: the items stay where setup put them and an
    attribute of each says what the list said. A list of `values` (numbers, strings, bools, players:
    `Left.remove(shape.Kind)`) has items that carry no attribute, so they become objects first."""
    if values:
        return (f"its items are values, which carry no attribute: make each an object setup creates (`class Piece "
                f"{{ number Kind = 0; bool Out = false; }}`), keep them all in '{name}' as setup made it and mark "
                "the ones taken out (`Out = true`), or keep a bool or a count for each value on the list's owner")
    if method in ("add", "append"):
        return ("mark the items it would hold with an attribute of the item (`bool Held`), or keep what is read "
                "of it in a number the move changes (a running total)")
    if method in ("remove", "removeAt"):
        return (f"keep every item in '{name}' as setup made it and mark the ones taken out with an attribute of "
                "the item (`bool Out`), or numbers for its ends")
    return collection_hint()


def changed_list_hint(name: str, method: str, values: bool = False) -> str:
    """A list attribute changed by a move (`Row.remove(card)`, `Trail.clear()`): the compiled moves keep no list
    that changes after setup (its slots and length are the spelled-out moves'), so the rewrite marks its items
    (`marked_items_hint`)."""
    return (f"{method}() changes the list '{name}', and compiled moves keep no list that changes after setup: "
            f"{marked_items_hint(name, method, values)}; or spell the moves out (`--moves spelled`)")


def player_arithmetic_hint() -> str:
    """`who + 1` in a function: players wrap around, which the compiled functions have no table for, while a
    move's own code has (`CompiledMoves.player_arith`)."""
    return ("compute the player where the move calls the function and give it as an input "
            "(`F(who: player, other: player + 1)`), or, with two players, compare with `!= who`")


def known_method_hint() -> str:
    """`a.Strength()` on an object a move picks or reads from the state: the rules of a method are written for each
    object of its class (up to `compiled.OBJECTS_SPLIT`), where the rules of a function of an object the rules know
    (a global class's) take the object as an argument like any other value."""
    return ("make it a function of a global class (or a global function) that takes the object as an input and "
            "reads its members through it (`Strength(a: a)` reading `a.Rank`, for `a.Strength()` reading `Rank`)")
