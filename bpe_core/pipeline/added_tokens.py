"""Added tokens: texts cut out whole before anything else sees the text.

A ``tokenizer.json`` lists them under ``added_tokens``.  Each is matched either on the raw
text (``normalized: false``, before the normalizer runs) or on the normalized text
(``normalized: true``); ``special`` ones can be left unmatched (HF's
``encode_special_tokens``) and are skipped by a decode that skips special tokens.  At one
place the longest token wins, and the leftmost match wins overall, as HF's matcher does.

Thousands of added tokens (Gemma 3 has 6,415) make one regex alternative each too slow, so
the pattern is written as a trie: at each place the regex follows one branch per character.

>>> added = AddedTokens([AddedToken("<s>", 1, special=True), AddedToken("<sep>", 2, special=False)])
>>> added.split("a<s>b<sep>", normalized=False)
[('a', None), ('<s>', 1), ('b', None), ('<sep>', 2)]
>>> added.split("a<s>b<sep>", normalized=False, special=False)  # specials left as text
[('a<s>b', None), ('<sep>', 2)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class AddedToken:
    """One entry of ``added_tokens``: its text, id, and how it is matched."""

    content: str
    id: int
    special: bool = True
    normalized: bool = False


def trie_pattern(words: list[str]) -> str:
    """A regex matching any of ``words``, longest first at each place, one branch per character.

    >>> trie_pattern(["ab", "a", "ac"])
    'a(?:b|c)?'
    """
    trie: dict = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here

    def pattern(node: dict) -> str:
        ends_here = "" in node
        branches = [re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        if ends_here:
            return "(?:" + "|".join(branches) + ")?"  # greedy: the longer word is tried first
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return pattern(trie)


class AddedTokens:
    """The added tokens of a tokenizer, with one matcher per way of matching them."""

    def __init__(self, tokens: list[AddedToken]):
        self.tokens = list(tokens)
        self.by_content = {token.content: token for token in self.tokens}
        self.special_ids = {token.id for token in self.tokens if token.special}
        self._matchers: dict[tuple[bool, bool], re.Pattern | None] = {}

    def _matcher(self, normalized: bool, special: bool) -> re.Pattern | None:
        key = (normalized, special)
        if key not in self._matchers:
            words = [
                token.content
                for token in self.tokens
                if token.normalized == normalized and (special or not token.special)
            ]
            self._matchers[key] = re.compile(trie_pattern(words)) if words else None
        return self._matchers[key]

    def split(self, text: str, *, normalized: bool, special: bool = True) -> list[tuple[str, int | None]]:
        """``text`` cut into ``(part, id)``: an added token's id, or None for text between them.

        ``normalized`` picks the tokens matched on normalized text (True) or on raw text (False);
        ``special=False`` leaves special tokens unmatched.
        """
        matcher = self._matcher(normalized, special)
        if matcher is None:
            return [(text, None)] if text else []
        parts: list[tuple[str, int | None]] = []
        position = 0
        for match in matcher.finditer(text):
            if match.start() > position:
                parts.append((text[position : match.start()], None))
            parts.append((match.group(), self.by_content[match.group()].id))
            position = match.end()
        if position < len(text):
            parts.append((text[position:], None))
        return parts
