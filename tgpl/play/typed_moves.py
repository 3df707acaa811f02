"""What a person types at the terminal, read as a move, and why it is not one when it is not.

A human at `tgpl play` sees the legal moves numbered and may answer with a number, a move's text
(or its start, `State.resolve`), or, what a player names at a table, the object an input takes:
`Grid[2][3]` for `Seat#0.Place(target: Grid[2][3])` when one legal move takes it. An answer that is
none of these is explained as precisely as `--moves` explains a line: the typed object put in the
form of the legal moves (`Seat#0.Place(target: Grid[0][0])`) is what `State.explain` examines, so
the answer is "filter 1 of input 'target' (line 171) rejects Grid[0][0]", not "there is no object ''".
"""

from __future__ import annotations

from tgpl.runtime.game import IllegalMove, Move, State, _unspaced


def read_typed_move(state: State, moves: list[Move], answer: str) -> Move:
    """The legal move `answer` means; IllegalMove with the reason otherwise."""
    answer = answer.strip()
    if answer.isdigit():
        n = int(answer)
        if 1 <= n <= len(moves):
            return moves[n - 1]
        raise IllegalMove(answer, f"there is no move {n}: the moves are numbered 1 to {len(moves)}")
    try:
        return state.resolve(answer)
    except IllegalMove as e:
        first = e
    taking = _moves_taking(moves, answer)
    if len(taking) == 1:
        return taking[0]
    if taking:
        shown = ", ".join(m.text for m in taking[:8]) + (", ..." if len(taking) > 8 else "")
        raise IllegalMove(answer, f"ambiguous: {len(taking)} legal moves take {answer}: {shown}")
    for text in _in_the_form_of(moves, answer):
        reason = state.explain(text)
        if not reason.startswith("there is no object"):
            raise IllegalMove(answer, f"as {text}: {reason}")
    raise first


def _moves_taking(moves: list[Move], answer: str) -> list[Move]:
    """The legal moves one of whose input values is written `answer` (spaces ignored)."""
    typed = _unspaced(answer)
    if not typed:
        return []
    out = []
    for move in moves:
        inside = move.text[move.text.find("(") + 1:move.text.rfind(")")] if "(" in move.text else ""
        values = [_unspaced(part.partition(":")[2]) for part in _top_level(inside)]
        if typed in values or (move.obj is None and _unspaced(move.text) == typed):
            out.append(move)
    return out


def _top_level(inside: str) -> list[str]:
    """`a: X, b: {Y, Z}` split at its top-level commas."""
    parts, depth, current = [], 0, ""
    for ch in inside:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [*parts, current] if current.strip() else parts


def _in_the_form_of(moves: list[Move], answer: str) -> list[str]:
    """Move texts that put `answer` where the legal moves take a value: in each action of one input
    (`Obj.Action(name: answer)`), or, for `Action(...)` typed without its object, behind each object
    whose legal moves use that action. In the order of the legal moves, each once."""
    out: list[str] = []
    head = answer.partition("(")[0].strip()
    for move in moves:
        if move.obj is None:
            continue
        if head and "." not in head and head == move.action and "(" in answer:
            text = f"{move.obj}.{answer}"
        elif len(move.inputs) == 1 and "(" not in answer:
            text = f"{move.obj}.{move.action}({move.inputs[0][0]}: {answer})"
        else:
            continue
        if text not in out:
            out.append(text)
    return out
