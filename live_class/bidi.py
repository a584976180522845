"""A text of the class (a student's name, a token, a word cut) written inside a sentence of ours: when it holds
right-to-left letters (Hebrew, Arabic) it is isolated between Unicode's first-strong isolate (U+2068) and its
closing mark (U+2069), so that the sentence around it keeps its order. Without them a Hebrew word pulls the full
stop and the points after it into its own direction: "Our model splits it: 2 .שלום places right".

>>> isolated("low") == "low", isolated("\\u05e9\\u05dc\\u05d5\\u05dd") == "\\u2068\\u05e9\\u05dc\\u05d5\\u05dd\\u2069"
(True, True)
"""

from __future__ import annotations

import unicodedata

_RIGHT_TO_LEFT = ("R", "AL")  # Unicode's bidirectional classes of Hebrew and of Arabic letters


def isolated(text: str) -> str:
    """``text`` isolated if it holds a right-to-left letter, else itself."""
    if any(unicodedata.bidirectional(character) in _RIGHT_TO_LEFT for character in text):
        return f"\u2068{text}\u2069"
    return text
