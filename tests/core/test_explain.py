"""Merge trees and replays on the textbook's banana_bandana_, worked out by hand.

Ids with split "none" and <unk>: <unk> 0, then the characters in code-point order
(_ 1, a 2, b 3, d 4, n 5), then the merged tokens in the order they are made
(an 6, ban 7, ana 8, ana_ 9, banana_ 10, banana_ban 11).
"""

import pytest

from bpe_core import TreeNode


def test_the_merge_tree_of_ban_names_every_id_step_and_count(banana):
    # "an" occurs 4 times (b-AN-AN-a, b-AN-d-AN-a); "b an" twice
    assert banana.merge_tree("ban") == TreeNode(
        token="ban",
        id=7,
        step=2,
        count=2,
        left=TreeNode(token="b", id=3),
        right=TreeNode(
            token="an", id=6, step=1, count=4, left=TreeNode(token="a", id=2), right=TreeNode(token="n", id=5)
        ),
    )


def test_a_base_symbol_is_a_leaf_and_an_unknown_token_a_clear_key_error(banana):
    assert banana.merge_tree("d") == TreeNode(token="d", id=4)
    assert banana.merge_tree("d").leaves() == ["d"]
    with pytest.raises(KeyError, match="'x' is not in the vocabulary"):
        banana.merge_tree("x")


def test_explain_replays_bandana_merge_by_merge(banana):
    assert banana.explain("bandana_") == [
        (None, ["b", "a", "n", "d", "a", "n", "a", "_"]),
        (1, ["b", "an", "d", "an", "a", "_"]),
        (2, ["ban", "d", "an", "a", "_"]),
        (3, ["ban", "d", "ana", "_"]),
        (4, ["ban", "d", "ana_"]),
    ]
