"""Find merged tokens by the text they stand for: the tree picker of a model too big to list
(GPT-4o has 199,742 merged tokens, Gemma 3 236,339).

>>> matching_tokens(["Ġt", "he", "Ġthe", "the", "Ġthen"], " the", byte_level=True)
['Ġthe', 'Ġthen']
>>> matching_tokens(["▁t", "▁the", "the"], " the", byte_level=False)  # SentencePiece-style: a space is ▁
['▁the']
"""

from __future__ import annotations

from collections.abc import Sequence

from bpe_core.bytelevel import bytes_to_display

MAX_MATCHES = 100  # options offered at once: enough to scan, few enough to send on every keystroke


def matching_tokens(tokens: Sequence[str], typed: str, byte_level: bool, limit: int = MAX_MATCHES) -> list[str]:
    """The tokens that contain ``typed``: the one equal to it first, then those that start with it, then
    the rest, each group in ``tokens``' order (merge order), at most ``limit``.

    A byte-level model's tokens are written in GPT-2's stand-ins (``Ġ`` for a space), so ``typed`` is
    looked for both as typed and in that form: " the" and "Ġthe" find the same token. A model of characters
    may write a space as ``▁`` (Llama 2, Gemma 3): " the" finds "▁the" too.
    """
    if not typed:
        return []
    forms = {typed, bytes_to_display(typed.encode("utf-8")) if byte_level else typed.replace(" ", "▁")}
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
