"""Why a token is what it is: the merge tree that builds it, and the replay of one piece's encoding.

Both work on what any tokenizer has: its vocabulary, its merges in rank order and
which merge created each token (``Tokenizer.merge_tree`` and ``Tokenizer.explain``
call these).

>>> replace_pair([1, 2, 1, 2, 2], 1, 2, 9)
[9, 9, 2]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial


@dataclass(frozen=True)
class TreeNode:
    """How a token was built: its two parts, recursively, down to base symbols."""

    token: str
    id: int
    step: int | None = None  # the merge step that created it (None for a base symbol)
    count: int | None = None  # that step's pair count (None without training counts)
    left: TreeNode | None = None
    right: TreeNode | None = None

    def leaves(self) -> list[str]:
        if self.left is None or self.right is None:
            return [self.token]
        return self.left.leaves() + self.right.leaves()


def merge_tree(
    token: str,
    *,
    vocab: Mapping[str, int],
    created_at: Mapping[int, int],
    merges: Sequence[tuple[str, str]],
    counts: Sequence[int | None],
) -> TreeNode:
    """The tree of merges that builds ``token``; ``created_at`` maps a merged id to its rank.

    >>> tree = merge_tree("ban", vocab={"a": 0, "b": 1, "n": 2, "an": 3, "ban": 4}, created_at={3: 0, 4: 1},
    ...                   merges=[("a", "n"), ("b", "an")], counts=[4, 2])
    >>> tree.leaves(), tree.step, tree.count, tree.right.step
    (['b', 'a', 'n'], 2, 2, 1)
    """
    if token not in vocab:
        raise KeyError(f"{token!r} is not in the vocabulary")
    token_id = vocab[token]
    rank = created_at.get(token_id)
    if rank is None:
        return TreeNode(token=token, id=token_id)
    left, right = merges[rank]
    subtree = partial(merge_tree, vocab=vocab, created_at=created_at, merges=merges, counts=counts)
    return TreeNode(
        token=token, id=token_id, step=rank + 1, count=counts[rank], left=subtree(left), right=subtree(right)
    )


def replay(
    base_ids: list[int],
    fired: Sequence[int],
    *,
    vocab: Mapping[str, int],
    id_to_token: Mapping[int, str],
    merges: Sequence[tuple[str, str]],
) -> list[tuple[int | None, list[str]]]:
    """``(step, symbols)`` after each merge that changed a piece, from its base ids and the
    ranks of the merges that fired on it (in firing order); the first entry is the base symbols.

    >>> replay([0, 1, 2, 1, 2], [0, 0, 1], vocab={"b": 0, "a": 1, "n": 2, "an": 3, "ban": 4},
    ...        id_to_token={0: "b", 1: "a", 2: "n", 3: "an", 4: "ban"}, merges=[("a", "n"), ("b", "an")])
    [(None, ['b', 'a', 'n', 'a', 'n']), (1, ['b', 'an', 'an']), (2, ['ban', 'an'])]
    """
    current = base_ids
    history: list[tuple[int | None, list[str]]] = [(None, [id_to_token[i] for i in current])]
    for rank in dict.fromkeys(fired):  # each rank once, in firing order
        left, right = merges[rank]
        current = replace_pair(current, vocab[left], vocab[right], vocab[left + right])
        history.append((rank + 1, [id_to_token[i] for i in current]))
    return history


def replace_pair(ids: list[int], left: int, right: int, merged: int) -> list[int]:
    """Replace every ``left right`` by ``merged``, left to right, without overlap."""
    out: list[int] = []
    index = 0
    while index < len(ids):
        if index + 1 < len(ids) and ids[index] == left and ids[index + 1] == right:
            out.append(merged)
            index += 2
        else:
            out.append(ids[index])
            index += 1
    return out
