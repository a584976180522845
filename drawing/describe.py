"""How the pages name a model: its configuration in plain words (each setting as its row in
``bpe_core.settings_table`` says it, the settings' own names in ``config_terms`` for a tooltip), its size, and
counted nouns.

>>> describe_config(Config(), short=True)
'whitespace split · built from characters · equal counts: the pair seen first wins'
"""

from __future__ import annotations

import hashlib
import weakref

from bpe_core import Config
from bpe_core.rank_tokenizer import AnyTokenizer
from bpe_core.settings_table import CHOICE, CONFIG_SETTINGS, TIE_RULES

TIE_BREAK_WORDS = TIE_RULES  # which pair wins a tie, in words (the Merges page names the rule with them)


def describe_config(config: Config, short: bool = False) -> str:
    r"""How text becomes symbols, in words, one setting after another in the form's order (a setting at its plain
    value says nothing); ``short`` keeps split, units, marker and the tie rule.

    >>> print(describe_config(Config(end_of_word="</w>", glue_marker=True, min_frequency=2)).replace(" · ", "\n"))
    whitespace split
    built from characters
    a marker </w> ends each word
    glued to the last letter
    equal counts: the pair seen first wins
    stops when the best pair occurs fewer than 2 times
    >>> describe_config(Config(split="gpt2", units="bytes", tie_break="lex"), short=True)
    'gpt2 split · built from bytes · equal counts: the greatest pair wins'
    """
    sayers = [row.said for row in CONFIG_SETTINGS if row.said and (row.in_short or not short)]
    return " · ".join(words for say in sayers if (words := say(config)))


def config_terms(config: Config) -> str:
    """The configuration in the settings' own names and values, as the Train form and the command line name them
    (a value's plain words after it): for a tooltip or a glossary beside ``describe_config``'s plain words.

    >>> config_terms(Config(split="gpt2", units="bytes", tie_break="hf"))
    'Pre-tokenization: gpt2 · Units: bytes · Tie-break: hf (lowest ids)'
    """
    plain = Config()
    parts = []
    for row in CONFIG_SETTINGS:
        value = getattr(config, row.name)
        if (row.in_short and value) or value != getattr(plain, row.name):
            term = " ".join(value) if isinstance(value, tuple) else row.word(value)
            if row.kind == CHOICE and row.word(value) != value:
                term = f"{value} ({row.word(value)})"
            parts.append(f"{row.label}: {term}")
    return " · ".join(parts)


def text_digest(text: str) -> str:
    """A stable hash of a text (lone surrogates included), to key caches of work on it.

    >>> text_digest("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def plural(count: int, noun: str) -> str:
    """``1 word``, ``2,000 words``.

    >>> plural(1, "word"), plural(2000, "piece")
    ('1 word', '2,000 pieces')
    """
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def times(count: int) -> str:
    """How often something occurs, in words.

    >>> times(1), times(6), times(2000)
    ('once', '6 times', '2,000 times')
    """
    return "once" if count == 1 else f"{count:,} times"


_MERGED_TOKENS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # model -> tokens its merges make


def merged_tokens(tok: AnyTokenizer) -> int:
    """How many distinct tokens the merges make: fewer than the merges when a file lists several ways to make one
    (Llama 3: 280,147 merges make 127,744 tokens). Counted once per model (Llama 3's take a fraction of a second).

    >>> from bpe_core import train
    >>> merged_tokens(train("aaab", Config(split="none"), merges=2))
    2
    """
    if tok not in _MERGED_TOKENS:
        _MERGED_TOKENS[tok] = len({left + right for left, right in tok.merges})
    return _MERGED_TOKENS[tok]


def model_size(tok: AnyTokenizer) -> str:
    """A model's size in words: its vocabulary, and how many of its tokens merges made (and by how many merges,
    when some tokens are made in more than one way: more merges than tokens would puzzle).

    >>> from bpe_core import Config, train
    >>> model_size(train("aaab", Config(split="none"), merges=1))  # a, b, aa and <unk>
    'a vocabulary of 4 tokens, 1 of them made by a merge'
    >>> model_size(train("ab", Config(split="none"), merges=0))
    'a vocabulary of 3 tokens, none made by merges'
    """
    size = f"a vocabulary of {plural(len(tok.vocab), 'token')}"
    merges, made = len(tok.merges), merged_tokens(tok)
    if merges == 0:
        return f"{size}, none made by merges"
    if made == merges:
        return f"{size}, {made:,} of them made by {'a merge' if merges == 1 else 'merges'}"
    return f"{size}, {made:,} of them made by {merges:,} merges (some tokens can be made in more than one way)"
