"""The dependency graph's walks: through every read, or through positive reads only (the relaxed game's)."""

from __future__ import annotations

import pytest

from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.kif import read_kif


def graph(text: str) -> DependencyGraph:
    return DependencyGraph.of(read_kif(text, "g.kif"))


def test_a_relation_read_only_under_not_is_needed_but_not_positively():
    g = graph("(<= (next q) (true p) (not busy))\n(<= busy (seen ?x))\n(seen 1)")
    assert g.needed(["next"]) == {"next", "true", "busy", "seen"}
    assert g.needed(["next"], positive=True) == {"next", "true"}


@pytest.mark.parametrize("text", [
    # one rule reads helper both ways
    "(<= (next (r ?x)) (helper ?x) (not (helper 2)))\n(<= (helper ?x) (index ?x))",
    # two rules, the negative read first: the positive one after it must not be forgotten
    "(<= (next q) (not (helper 2)))\n(<= (next (r ?x)) (helper ?x))\n(<= (helper ?x) (index ?x))",
    # two rules, the positive read first: the negative one after it must not hide it
    "(<= (next (r ?x)) (helper ?x))\n(<= (next q) (not (helper 2)))\n(<= (helper ?x) (index ?x))",
], ids=["one-rule", "negative-first", "positive-first"])
def test_an_edge_read_both_ways_counts_as_positive(text):
    g = graph(text + "\n(index 1)")
    assert g.edges["next"]["helper"] is True  # negative for stratification
    assert g.reads_positively("next", "helper")
    assert g.needed(["next"], positive=True) == {"next", "helper", "index"}


def test_a_positive_walk_starts_only_from_defined_roots():
    g = graph("(<= (next q) (true p))")
    assert g.needed(["init", "next", "legal"], positive=True) == {"next", "true"}
