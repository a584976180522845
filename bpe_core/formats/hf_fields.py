"""The fields of a BPE ``tokenizer.json`` that HF tokenizers reads as data: the model's vocabulary,
merges and options, and the added tokens; each checked as HF checks it, the first wrong one named.

Where HF loads a file that would make us encode or decode differently from it (two tokens with one
id, an added token whose id contradicts the vocabulary), the file is refused too, and the reason said.

>>> model = {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}
>>> read_model_fields({"model": model})
({'a': 0, 'b': 1, 'ab': 2}, [('a', 'b')], [])
>>> read_model_fields({"model": {**model, "merges": [["a", "x"]]}})
Traceback (most recent call last):
...
ValueError: model.merges[0]: "x" is not in model.vocab
"""

from __future__ import annotations

import operator
from itertools import chain, repeat
from typing import cast

from ..pipeline.added_tokens import AddedToken
from .fields import checked_flag, checked_id, checked_text, checked_vocab, entry, shown

_TEXTS = ("unk_token", "continuing_subword_prefix", "end_of_word_suffix")
_FLAGS = ("fuse_unk", "byte_fallback", "ignore_merges")
_ADDED_FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")


def read_model_fields(data: dict) -> tuple[dict[str, int], list[tuple[str, str]], list[AddedToken]]:
    """``(vocab, merges, added tokens)`` of a tokenizer.json whose ``model`` is an object; a
    ValueError names the first field HF would refuse (or that would make us differ from HF)."""
    model = data["model"]
    for name in _TEXTS:
        checked_text(model.get(name), f"model.{name}", optional=True)
    for name in _FLAGS:
        checked_flag(model.get(name), f"model.{name}", optional=True)
    dropout = model.get("dropout")
    if dropout is not None and (type(dropout) not in (int, float) or not 0 <= dropout <= 1):
        raise ValueError(f"model.dropout: {shown(dropout)} is not a number from 0 to 1")
    for name in ("vocab", "merges"):
        if name not in model:
            raise ValueError(f"model.{name} is missing: a BPE model needs its vocabulary and its merges")
    vocab = dict(checked_vocab(model["vocab"], "model.vocab"))  # a copy: added tokens may join it
    merges = merge_pairs(model["merges"])
    _check_merges_in_vocab(merges, vocab, model.get("continuing_subword_prefix") or "")
    return vocab, merges, _added_tokens(data.get("added_tokens", []), vocab)


def merge_pairs(merges) -> list[tuple[str, str]]:
    """Merges spelled ``"a b"`` (older files) or ``["a", "b"]`` (newer ones), one spelling per file as
    HF reads them; checked in bulk (half a million of them: C-level maps), the first bad one named.

    >>> merge_pairs(["a b", "ab c"])
    [('a', 'b'), ('ab', 'c')]
    >>> merge_pairs([["a", "b", "c"]])
    Traceback (most recent call last):
    ...
    ValueError: model.merges[0]: ["a", "b", "c"] is not two tokens
    """
    if not isinstance(merges, list):
        raise ValueError(f"model.merges: must be a list of merges, not {shown(merges)}")
    kinds = set(map(type, merges))
    if kinds == {str}:
        pairs = list(map(tuple, map(str.split, merges, repeat(" "))))
    elif kinds <= {list}:
        pairs = list(map(tuple, merges))
    else:
        pairs = [tuple(merge) if type(merge) is list else () for merge in merges]  # (): not a list, refused below
        if kinds == {str, list}:
            raise ValueError('model.merges: mixes "a b" strings and ["a", "b"] lists; HF reads one spelling a file')
    if set(map(len, pairs)) <= {2}:
        parts = list(chain.from_iterable(pairs))
        if set(map(type, parts)) <= {str} and "" not in parts:
            return cast(list[tuple[str, str]], pairs)  # two strings each, checked just above
    # An empty part: HF loads it, but a merge of "" and "a" makes "a" again, which means nothing.
    index = next(
        index
        for index, pair in enumerate(pairs)
        if len(pair) != 2 or not all(isinstance(part, str) and part for part in pair)
    )
    raise ValueError(f"{entry('model.merges', index)}: {shown(merges[index])} is not two tokens")


def _check_merges_in_vocab(merges: list[tuple[str, str]], vocab: dict[str, int], prefix: str) -> None:
    """Each merge's parts and the token it makes are in the model's vocabulary, as HF requires."""
    lefts, rights = list(map(operator.itemgetter(0), merges)), list(map(operator.itemgetter(1), merges))
    made = [left + right[len(prefix) :] for left, right in merges] if prefix else list(map(operator.add, lefts, rights))
    if vocab.keys() >= set(chain(lefts, rights, made)):
        return
    for index, (left, right, token) in enumerate(zip(lefts, rights, made)):
        for part in (left, right, token):
            if part not in vocab:
                raise ValueError(f"{entry('model.merges', index)}: {shown(part)} is not in model.vocab")


def _added_tokens(entries, vocab: dict[str, int]) -> list[AddedToken]:
    """The added tokens, each field required as HF requires it.  HF loads a token listed twice, two
    tokens sharing an id, and a token whose id differs from the vocabulary's (it then uses the
    vocabulary's); each would make ids mean two things, so they are refused here."""
    if not isinstance(entries, list):
        raise ValueError(f"added_tokens: must be a list of tokens, not {shown(entries)}")
    added: list[AddedToken] = []
    owner = {index: token for token, index in vocab.items()}
    seen: dict[str, int] = {}
    for number, item in enumerate(entries):
        field = entry("added_tokens", number)
        if not isinstance(item, dict):
            raise ValueError(f"{field}: {shown(item)} is not an object")
        for name in ("id", "content", *_ADDED_FLAGS):
            if name not in item:
                raise ValueError(f"{field}.{name} is missing")
        index = checked_id(item["id"], f"{field}.id")
        content = checked_text(item["content"], f"{field}.content")
        flags = [checked_flag(item[name], f"{field}.{name}") for name in _ADDED_FLAGS]
        if not content:
            raise ValueError(f"{field}.content: an added token cannot be empty")
        if content in seen:
            raise ValueError(f"{field}: {shown(content)} is listed twice (also at added_tokens[{seen[content]}])")
        if vocab.get(content, index) != index:
            raise ValueError(f"{field}.id: {shown(content)} has the id {vocab[content]} in model.vocab, not {index}")
        if owner.get(index, content) != content:
            raise ValueError(f"{field}.id: {index} is already the id of {shown(owner[index])}")
        seen[content] = number
        owner[index] = content
        added.append(AddedToken(content, index, special=flags[4], normalized=flags[3]))
    return added
