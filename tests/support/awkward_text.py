"""Hypothesis strategies for text that trips up splitting, counting and encoding, shared by the tests that
compare two ways of cutting or counting a text: fragments where the regexes' alternatives and the ways of
reading lines disagree, joined in any order.  Each test adds the fragments its own subject cares about."""

from __future__ import annotations

from hypothesis import strategies as st

# Code points Python's unicodedata knows (the regex module may know a newer Unicode version, and HF's Rust
# another: a character assigned since would differ for a reason that is not ours).
KNOWN = st.characters(exclude_categories=("Cs", "Cn"))

# Runs of spaces, CR LF, tab, the information separators U+001C-U+001F, NEL, the no-break, line-separator
# and ideographic spaces: whitespace to some rules and not to others, line breaks to str.splitlines.
SPACES = (" ", "  ", "\n", "\n\n", "\r\n", "\t", "\x1c", "\x1f", "\x85", "\u00a0", "\u2028", "\u3000")
# Contractions, digit runs (Arabic-Indic too), punctuation, a precomposed and a combining accent, CJK, emoji
# with a skin tone and with a joiner.
WORDS = (
    "a", "ab", "x", "Z", "'s", "'LL", "1", "23", "123", "1234", "١٢", "!", "!?",
    "é", "e\u0301", "日本", "😀", "👍🏽", "👨\u200d👩",
)  # fmt: skip


def fragments(*extra: str) -> st.SearchStrategy[str]:
    """One fragment: a space, a word or one of ``extra``."""
    return st.sampled_from([*SPACES, *WORDS, *extra])


def awkward_text(*extra: str, max_size: int = 30) -> st.SearchStrategy[str]:
    """Up to ``max_size`` fragments (see :func:`fragments`) joined."""
    return st.lists(fragments(*extra), max_size=max_size).map("".join)
