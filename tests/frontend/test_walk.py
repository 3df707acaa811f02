"""`ast.walk`: every node under a tree once, the node before its children, children in field order
and lists in their order, as the checks and the runtime's facts rely on (the first node found is
the outermost, the last assignment found the last written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.frontend import ast
from tgpl.frontend.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]


def preorder(node) -> list:
    """The reference order, written recursively."""
    if isinstance(node, list):
        return [n for x in node for n in preorder(x)]
    if not isinstance(node, (ast.Node, ast.Module)):
        return []
    return [node] + [n for child in ast.children(node) for n in preorder(child)]


@pytest.mark.parametrize("game", ["examples/tris.tgpl", "examples/chess/chess.tgpl", "tests/data/eights.tgpl"])
def test_walk_is_preorder_in_field_order(game):
    module = parse_text((ROOT / game).read_text(), game).module
    found = list(ast.walk(module))
    assert [id(n) for n in found] == [id(n) for n in preorder(module)]
    assert len({id(n) for n in found}) == len(found) > 100


def test_walk_of_a_list_and_of_a_leaf():
    module = parse_text((ROOT / "examples/tris.tgpl").read_text(), "tris.tgpl").module
    binary = next(n for n in ast.walk(module) if isinstance(n, ast.Binary))
    right = preorder(binary.right)
    assert list(ast.walk([binary, binary.right])) == [binary, *preorder(binary.left), *right, *right]
    assert list(ast.walk("a name")) == [] and list(ast.walk(None)) == []
