"""What a game's end and its values mean, shared by every layer that reports them.

The runtime scores a finished game and prints values; the lowering must give
the same goals in GDL and the same move texts. Both take these definitions from
here, below them both, so they cannot drift apart.
"""

from __future__ import annotations

import math


def goals_of(ranking: list[list[int]] | None, players: int) -> list[int]:
    """GDL goals from a ranking: 100 * (beaten + tied / 2) / (P - 1), rounded half up.

    Players the ranking leaves out share the last place. Two players: the winner
    gets 100 and the loser 0; a tie gives 50 each. One player: 100 when the ranking
    names the player, else 0 (`winner {};` is a solo game's loss, decision 96).
    """
    if ranking is None:
        return [0] * players
    ranks: list[list[int]] = [list(dict.fromkeys(r)) for r in ranking if r]
    placed = {p for r in ranks for p in r}
    rest = [p for p in range(players) if p not in placed]
    if rest:
        ranks.append(rest)
    if players == 1:
        return [100 if any(0 in r for r in ranking) else 0]
    goals = [0] * players
    below = players
    for rank in ranks:
        below -= len(rank)
        score = (below + (len(rank) - 1) / 2) / (players - 1)
        for p in rank:
            goals[p] = int(score * 100 + 0.5)
    return goals


def unscored(ranking: list[list[int]] | tuple | None, players: int) -> bool:
    """Whether a finished game's ranking gives no goals: it names nobody (`winner {};`) and the game has
    several players, whose places it leaves open (verify reports it; GDL gets no goal rule). In a game of
    one player it is the player's loss, goal 0 (decision 96)."""
    return players > 1 and ranking is not None and not any(ranking)


def format_number(x: float) -> str:
    """A number as TGPL text: integers without a decimal point."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if math.isfinite(x) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def scalar_text(v) -> str | None:
    """null, true, false and numbers as TGPL writes them; None for any other value."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return format_number(v)
    return None


def string_literal(s: str) -> str:
    """A string as a TGPL literal, as move texts and records write string inputs."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
