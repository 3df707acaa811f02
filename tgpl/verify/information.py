"""What a TGPL game hides from its players, and a lone player's value knowing only what it sees.

`tgpl verify` explores every state as if every role saw the whole state: its forced wins, values and
expected goals are those of the game played with open cards. Where the game hides something (language
decision 94: attributes written `private` or `hidden`, `private` actions and classes, and the order of
every deck), those figures are not the game's value, and verify says so (the label `FULL_VIEW`, shared
with GDL-II games), naming what is hidden (`hidden_information`).

For a game of one player, the value the player can secure knowing only what it sees is computed too
(`value_seen`): expectimax over its *information sets*, the states it cannot tell apart, each weighted by
the probability of being there. The player sees of a state exactly what the studio shows its seat
(tgpl.serve.views.view: the board, the panels with secrets left out, the log) and knows its legal
moves, so two states are in one set when their views and legal moves are equal; a move is chosen once for
the whole set. With perfect recall the sets split at every move by what the player then sees. Monty
Hall: 200/3 (switch), where the open-cards value is 100.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Callable

from tgpl.asp.gdl2 import FULL_VIEW
from tgpl.serve.views import view
from tgpl.verify.chance_machine import ChanceMachine, ChanceNode

__all__ = ["FULL_VIEW", "TooManyInformationSets", "hidden_information", "value_seen"]


def hidden_information(program) -> list[str]:
    """What the game hides from some seat, as the checked program writes it, in source order: an attribute
    `Class.Name (private)` or `(hidden)`, a `private action Class.Name`, a `private class Name`, and each
    deck (`deck Name: the order of its items`). Empty for a game of open information."""
    out: list[str] = []
    for info in program.classes:
        defn = info.defn
        if defn is None:
            continue
        if defn.secrecy is not None:
            out.append(f"{defn.secrecy.kind} class {info.name} (who owns one is secret)")
        if info.kind == "stack":
            out.append(f"deck {info.name}: the order of its items")
        for attr in defn.attributes:
            if attr.secrecy is not None:
                out.append(f"{info.name}.{attr.name} ({attr.secrecy.kind})")
        for action in defn.actions:
            if action.secrecy is not None:
                out.append(f"private action {info.name}.{action.name} (its inputs)")
    return out


class TooManyInformationSets(Exception):
    """The information sets to evaluate are more than the budget allows."""


def value_seen(machine: ChanceMachine, budget: int = 100_000,
               stop: Callable[[], str | None] | None = None) -> Fraction:
    """The lone player's expected goal under optimal play knowing only what it sees (the module's docstring),
    exact. Raises TooManyInformationSets past `budget` sets (or when `stop()` says so), ValueError for a game
    of several players."""
    if machine.game.players != 1:
        raise ValueError("the value knowing only what one sees needs a game of one player")
    memo: dict[frozenset, Fraction] = {}
    key = machine.key  # kept in the state, once computed

    def outcomes(node, p: Fraction, into: list[tuple[Fraction, object]]) -> None:
        """The decision or terminal states a machine state leads to, each with its probability."""
        if isinstance(node, ChanceNode):
            info = machine.info(node)
            for q, (_, _, nxt) in zip(info.chances, info.moves):
                outcomes(nxt, p * q, into)
        else:
            into.append((p, node))

    def seen(state) -> str:
        return json.dumps(view(state, 0), sort_keys=True, default=str)

    def split(weighted: list[tuple[Fraction, object]]) -> list[list[tuple[Fraction, object]]]:
        sets: dict[str, dict[bytes, list]] = {}
        for p, s in weighted:
            by_key = sets.setdefault(seen(s), {})
            k = key(s)
            if k in by_key:
                by_key[k][0] += p
            else:
                by_key[k] = [p, s]
        return [[(p, s) for p, s in by_key.values()] for by_key in sets.values()]

    def worth(belief: list[tuple[Fraction, object]]) -> Fraction:
        memo_key = frozenset((key(s), p) for p, s in belief)
        found = memo.get(memo_key)
        if found is not None:
            return found
        if len(memo) >= budget:
            raise TooManyInformationSets(f"more than {budget:,} information sets (--max-states)")
        stopped = stop() if stop is not None else None
        if stopped is not None:
            raise TooManyInformationSets(f"stopped by {stopped} after {len(memo):,} information sets")
        total = Fraction(0)
        playing: dict[tuple[str, ...], list[tuple[Fraction, object, dict]]] = {}
        for p, s in belief:
            info = machine.info(s)
            if info.terminal:
                goal = info.goals[0]
                if not isinstance(goal, int):
                    raise ValueError("a terminal state gives the player no goal")
                total += p * goal
                continue
            moves = {text: nxt for text, _, nxt in info.moves}
            playing.setdefault(tuple(sorted(moves)), []).append((p, s, moves))
        for legal, states in playing.items():
            best: Fraction | None = None
            for move in legal:
                after: list[tuple[Fraction, object]] = []
                for p, _, moves in states:
                    outcomes(moves[move], p, after)
                value = sum((worth(b) for b in split(after)), Fraction(0))
                best = value if best is None or value > best else best
            total += best if best is not None else 0
        memo[memo_key] = total
        return total

    start: list[tuple[Fraction, object]] = []
    outcomes(machine.initial(), Fraction(1), start)
    return sum((worth(b) for b in split(start)), Fraction(0))
