"""Merge trees: layout from the leaves up, boxes and hovers, big trees cut to a legible size."""

from __future__ import annotations

import pytest

from bpe_core import Config, load_gpt2, train
from viz.merge_tree import (COLLAPSED_BACKGROUND, MAX_TREE_LEAVES, collapsed_note, default_tree_token, leaf_counts, tree_figure,
                            tree_layout)

GPT2_BIGGEST = "ÃĥÃĤ" * 32  # GPT-2's token with the most base symbols: mojibake of "Ã\x83Ã\x82" repeated


@pytest.fixture(scope="module")
def banana():
    """The textbook model: 6 merges a+n, b+an, an+a, ana+_, ban+ana_, banana_+ban."""
    return train("banana_bandana_", Config(split="none"), merges=6)


def test_tree_of_banana_ban(banana):
    # banana_ban = banana_ + ban; banana_ = ban + ana_; ana_ = ana + _; ana = an + a; ban = b + an; an = a + n
    tree = banana.merge_tree("banana_ban")
    nodes, edges = tree_layout(tree)
    assert [node.token for node in nodes] == [
        "banana_ban", "banana_", "ban", "b", "an", "a", "n", "ana_", "ana", "an", "a", "n", "a", "_",
        "ban", "b", "an", "a", "n",
    ]
    assert len(edges) == 18
    leaves = sorted((node for node in nodes if node.step is None), key=lambda node: node.x)
    assert [node.token for node in leaves] == list("banana_ban")
    assert [node.x for node in leaves] == list(range(10)) and {node.y for node in leaves} == {0}
    by_path = {node.path: node for node in nodes}
    assert (by_path["LL"].x, by_path["LL"].y) == (0.75, 2)  # ban: midway between b (x 0) and an (x 1.5)
    for parent, _ in edges:  # every parent is centred above its two children
        node = by_path[parent]
        assert node.x == (by_path[parent + "L"].x + by_path[parent + "R"].x) / 2
        assert node.y > max(by_path[parent + "L"].y, by_path[parent + "R"].y)
    assert (by_path[""].token, by_path[""].step, by_path[""].y) == ("banana_ban", 6, 5)

    figure = tree_figure(tree)
    edges_trace, nodes_trace = figure.data
    assert sum(1 for x in edges_trace.x if x is None) == 18
    assert list(nodes_trace.text) == [node.token for node in nodes]
    assert [box.text for box in figure.layout.annotations] == list(nodes_trace.text)
    assert nodes_trace.hovertext[0] == "banana_ban: made at step 6, count 1"
    assert nodes_trace.hovertext[-1] == "n: base symbol"


def test_tree_with_repeated_tokens_keeps_every_node():
    tok = train("aaaa", Config(split="none"), merges=2)
    tree = tok.merge_tree("aaaa")
    assert (tree.left.token, tree.right.token) == ("aa", "aa")
    nodes, edges = tree_layout(tree)
    assert [node.token for node in nodes] == ["aaaa", "aa", "a", "a", "aa", "a", "a"]
    assert [node.path for node in nodes] == ["", "L", "LL", "LR", "R", "RL", "RR"]
    assert edges == [("L", "LL"), ("L", "LR"), ("R", "RL"), ("R", "RR"), ("", "L"), ("", "R")]
    assert [node.x for node in nodes] == [1.5, 0.5, 0, 1, 2.5, 2, 3]


def test_tree_labels_are_escaped():
    tok = train("<b><b>", Config(split="none"), merges=5)
    figure = tree_figure(tok.merge_tree("<b><b>"))
    assert figure.layout.annotations[0].text == "&lt;b&gt;&lt;b&gt;"
    assert figure.data[1].text[0] == "&lt;b&gt;&lt;b&gt;"


def test_long_tree_grows_wide_with_bounded_font():
    tok = train("a" * 32, Config(split="none"), merges=5)
    figure = tree_figure(tok.merge_tree("a" * 32))
    assert figure.layout.meta == {"leaves": 32, "collapsed": 0}
    assert figure.layout.width == 56 * 32 + 120
    assert {box.font.size for box in figure.layout.annotations} == {12}


def test_huge_tree_is_drawn_down_to_a_legible_number_of_boxes():
    gpt2 = load_gpt2()
    assert max(leaf_counts(gpt2.steps).items(), key=lambda item: item[1]) == (GPT2_BIGGEST, 128)
    tree = gpt2.merge_tree(GPT2_BIGGEST)
    nodes, edges = tree_layout(tree)
    bottom = sorted((node for node in nodes if node.y == 0), key=lambda node: node.x)
    assert MAX_TREE_LEAVES == 32 and len(bottom) == 32 and len(nodes) == 63 and len(edges) == 62
    assert [node.token for node in bottom] == ["ÃĥÃĤ"] * 32  # merged parts of 4 symbols each, not symbols
    assert all(node.collapsed for node in bottom)
    figure = tree_figure(tree)
    assert figure.layout.meta == {"leaves": 32, "collapsed": 32}
    assert figure.layout.width == 56 * 32 + 120
    # HF's GPT-2 vocabulary gives ÃĥÃĤ id 5808, so merge step 5808 - 256 + 1
    assert figure.data[1].hovertext[-1] == (
        "ÃĥÃĤ: made at step 5553, count n/a; its parts are not drawn (choose it to see its own tree)"
    )
    assert figure.layout.annotations[-1].bgcolor == COLLAPSED_BACKGROUND
    assert figure.layout.annotations[0].text == "ÃĥÃĤ" * 4 + "ÃĥÃ" + "…" + "ĥÃĤ" + "ÃĥÃĤ" * 4  # cut in the middle
    assert figure.data[1].text[0] == GPT2_BIGGEST  # the marker keeps the whole token


def test_tree_hover_without_counts_says_na():
    # GPT-2's merged tokens have ids 256 + (step - 1): "Hello" is id 15496, made at step 15241.
    tree = load_gpt2().merge_tree("Hello")
    assert tree_figure(tree).data[1].hovertext[0] == "Hello: made at step 15241, count n/a"


def test_default_tree_token_is_a_long_one(banana):
    assert default_tree_token(banana.steps) == "banana_ban"
    assert default_tree_token([]) is None
    assert leaf_counts(banana.steps) == {"an": 2, "ban": 3, "ana": 3, "ana_": 4, "banana_": 7, "banana_ban": 10}


def test_cut_tree_opens_the_widest_parts_first(banana):
    nodes, _ = tree_layout(banana.merge_tree("banana_ban"), max_leaves=4)
    bottom = sorted((node for node in nodes if node.y == 0), key=lambda node: node.x)
    # banana_ban = banana_ + ban; banana_ = ban + ana_ opens first (7 symbols), then ana_ or ban.
    assert [node.token for node in bottom] == ["ban", "ana", "_", "ban"]
    assert [node.collapsed for node in bottom] == [True, True, False, True]


def test_collapsed_note_counts_the_violet_boxes():
    assert collapsed_note(0) == ""
    assert collapsed_note(32) == (
        " The tree is too big to draw whole: the 32 violet boxes stand for merged parts whose own trees you can pick above."
    )
