"""Find merged tokens by the text they stand for: the tree picker of a model too big to list
(GPT-4o has 199,742 merged tokens, Gemma 3 236,339); the token a tree opens on; and, for a text that is not one
token, how the tokenizer cuts it, with a link to Encode's "Why this split?".

>>> matching_tokens(["Ġt", "he", "Ġthe", "the", "Ġthen"], " the", byte_level=True)
['Ġthe', 'Ġthen']
>>> matching_tokens(["▁t", "▁the", "the"], " the", byte_level=False)  # SentencePiece-style: a space is ▁
['▁the']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

from bpe_core import Token, TreeNode
from bpe_core.bytelevel import bytes_to_display
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.escape import attribute, html_text
from drawing.readable import token_text
from drawing.token_html import render_tokens

MAX_MATCHES = 100  # options offered at once: enough to scan, few enough to send on every keystroke
# The tree a tokenizer opens on: the first of these common English words (a space before it, as inside a
# sentence) that it has as one token built by at least LEAST_MERGES merges. Every published tokenizer has
# " understanding" (13 merges: 14 bytes or characters); a model trained here may have none, then
# ``tree.default_tree_token`` chooses.
COMMON_WORDS = (" understanding", " information", " different", " important", " people", " because")
LEAST_MERGES = 3


def token_forms(typed: str, byte_level: bool) -> set[str]:
    """How a tokenizer may spell ``typed`` in its vocabulary: as typed, and in GPT-2's stand-ins (``Ġ`` for a
    space) for a byte-level model, or with SentencePiece's ``▁`` for a space in a model of characters.

    >>> sorted(token_forms(" é", byte_level=True)), sorted(token_forms(" a", byte_level=False))
    ([' é', 'ĠÃ©'], [' a', '▁a'])
    """
    return {typed, bytes_to_display(typed.encode("utf-8")) if byte_level else typed.replace(" ", "▁")}


def _merges_in(tree: TreeNode) -> int:
    return 0 if tree.left is None or tree.right is None else 1 + _merges_in(tree.left) + _merges_in(tree.right)


def word_token(tok: AnyTokenizer, words: Sequence[str] = COMMON_WORDS, least_merges: int = LEAST_MERGES) -> str | None:
    """The first of ``words`` that ``tok`` has as one merged token built by at least ``least_merges`` merges
    (in ``tok``'s own spelling), or None.

    >>> from bpe_core import Config, train
    >>> tok = train("banana_bandana_", Config(split="none"), merges=6)
    >>> word_token(tok, words=("an", "ana_", "banana_")), word_token(tok, words=("ana_",), least_merges=4)
    ('ana_', None)
    """
    byte_level = tok.byte_level
    for word in words:
        for form in sorted(token_forms(word, byte_level)):
            if tok.vocab.get(form) in tok.created_at and _merges_in(tok.merge_tree(form)) >= least_merges:
                return form
    return None


def matching_tokens(tokens: Sequence[str], typed: str, byte_level: bool, limit: int = MAX_MATCHES) -> list[str]:
    """The tokens that contain ``typed``: the one equal to it first, then those that start with it, then
    the rest, each group in ``tokens``' order (merge order), at most ``limit``.

    A byte-level model's tokens are written in GPT-2's stand-ins (``Ġ`` for a space), so ``typed`` is
    looked for both as typed and in that form: " the" and "Ġthe" find the same token. A model of characters
    may write a space as ``▁`` (Llama 2, Gemma 3): " the" finds "▁the" too.
    """
    if not typed:
        return []
    forms = token_forms(typed, byte_level)
    found: set[str] = set()
    for form in forms:  # one quick pass per form; only the few tokens found are sorted into groups below
        found.update([token for token in tokens if form in token])
    equal, starting, containing = [], [], []
    for token in (token for token in tokens if token in found) if found else ():
        if token in forms:
            equal.append(token)
        elif any(token.startswith(form) for form in forms):
            starting.append(token)
        elif any(form in token for form in forms):
            containing.append(token)
    return (equal + starting + containing)[:limit]


def split_note_html(
    text: str, tokens: Sequence[Token], tokenizer_title: str, byte_level: bool, encode_query: Mapping[str, str]
) -> str:
    """Escaped HTML for a ``text`` that is not one token: the tokens ``tokenizer_title`` cuts it into (the boxes of
    Encode, ``tokens`` from ``encode_with_spans``) and a link to Encode opened on that text with "Why this split?"
    (``encode_query``: Encode's address, built from ``pages.encode.state.CHOICES``, URL-encoded here).

    >>> from bpe_core import Config, train
    >>> tok = train("banana_bandana_", Config(split="none"), merges=6)
    >>> note = split_note_html("bandana", tok.encode_with_spans("bandana"), "Mine", False, {"input": "a&b"})
    >>> note.count('class="tok '), 'href="Encode?input=a%26b"' in note
    (3, True)
    """
    count = f"{len(tokens)} tokens" if len(tokens) != 1 else "1 token"
    href = "Encode?" + urlencode(dict(encode_query))
    return (
        '<div class="bpe-split-note">'
        f"<p>“{html_text(token_text(text, False))}” is not one token of {html_text(tokenizer_title)}: "
        f"it cuts that text into {count}.</p>"
        f"{render_tokens(tokens, text, byte_level=byte_level)}"
        f'<p><a href="{attribute(href)}" target="_blank" rel="noopener">Why this split? Open it on Encode</a></p>'
        "</div>"
    )
