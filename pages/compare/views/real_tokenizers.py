"""Compare's "Real tokenizers" view: a text under the published tokenizers and the user's own, a table of
tokens, characters per token and vocabulary sizes, and what one sentence costs in other languages and in code.

>>> rows = cost_rows({"Letters": list}, {"English": "abcd", "Code": "ab"})  # one token per character
>>> rows[1]
{'Tokenizer': 'Letters', 'English': '4', 'Code': '2 (0.5× English)'}
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bpe_core.pretrained import PRETRAINED
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.card_table import card_table_html
from drawing.published import PRETRAINED_TITLES, in_a_list, listed

# The published tokenizers this view offers (bpe_core.pretrained names) and their titles.
REAL_TOKENIZERS = {name: PRETRAINED_TITLES[name] for name in PRETRAINED}
# Picked at first: OpenAI's three (read in a moment) and one open model (Llama 3, about a second the first time);
# the other five load only when picked (Gemma 3 takes about 3 seconds and 450 MB once per server).
DEFAULT_REAL = ("gpt2", "cl100k_base", "o200k_base", "llama3")
COST_TABLE_TITLE = "**One sentence in three languages, and a line of code**: tokens under each tokenizer"

# One sentence, written for this page, in English, Russian and Chinese, and a line of Python.
LANGUAGE_SAMPLES = {
    "English": "A tokenizer cuts text into pieces that a language model can count.",
    "Russian": "Токенизатор режет текст на кусочки, которые языковая модель может сосчитать.",
    "Chinese": "分词器把文本切成语言模型能够计数的小块。",
    "Python code": "def count_tokens(text):\n    return len(tokenizer.encode(text))\n",
}


def cost_rows(encoders: dict[str, Callable[[str], list]], samples: dict[str, str] = LANGUAGE_SAMPLES) -> list[dict]:
    """A column per sample, a row per encoder: its token count of each sample, with how many times the first
    sample's count it is (the first sample is the baseline, English by default); above them, the samples' lengths in
    characters. A row per tokenizer keeps the table as wide as the samples are many (four), so that it fits a
    projector's width whatever the number of tokenizers picked."""
    baseline_name = next(iter(samples))
    rows: list[dict] = [{"Tokenizer": "Characters", **{name: f"{len(text):,}" for name, text in samples.items()}}]
    for title, encode in encoders.items():
        counts = {name: len(encode(text)) for name, text in samples.items()}
        row = {"Tokenizer": title}
        for name, count in counts.items():
            times = "" if name == baseline_name else f" ({_times(count, counts[baseline_name])} {baseline_name})"
            row[name] = f"{count:,}{times}"
        rows.append(row)
    return rows


def lined_up(
    mine_title: str, mine: AnyTokenizer, published: dict[str, AnyTokenizer], cached: Callable[[AnyTokenizer, str], list]
) -> tuple[dict[str, AnyTokenizer], dict[str, Callable]]:
    """The tokenizers by title, the user's first, then the ``published`` ones by name; and the encoder of each
    (``encode_with_spans``; a published one's through ``cached(tokenizer, text)``, shared by sessions).

    >>> from bpe_core import Config, train
    >>> mine = train("abab", Config(split="none"), merges=2)
    >>> models, encoders = lined_up("Mine", mine, {"gpt2": mine}, lambda tok, text: [tok is mine, text])
    >>> list(models), encoders["GPT-2"]("hi"), [token.token for token in encoders["Mine"]("abab")]
    (['Mine', 'GPT-2'], [True, 'hi'], ['abab'])
    """
    models = {mine_title: mine} | {REAL_TOKENIZERS[name]: tok for name, tok in published.items()}
    encoders = {REAL_TOKENIZERS[name]: partial(cached, tok) for name, tok in published.items()}
    return models, {mine_title: mine.encode_with_spans} | encoders


def loading_line(title: str, index: int, count: int) -> str:
    """The spinner's words under the tokenizers drawn so far while the next one loads, the seconds so far beside
    them. No promise of how long: the largest took 3 s on an idle server and 11 to 20 on a busy one with two cores.

    >>> loading_line("Gemma 3", 2, 3)
    'Loading Gemma 3 (2 of 3), the first time on this server: a large one takes a while; then every visitor shares it.'
    """
    return (
        f"Loading {title} ({index} of {count}), the first time on this server: a large one takes a while; "
        "then every visitor shares it."
    )


def size_title(mine_title: str, vocabulary: int) -> str:
    """The user's model at one of the sizes compared, as the counts name it.

    >>> size_title("Your model", 5000)
    'Your model at 5,000'
    """
    return f"{mine_title} at {vocabulary:,}"


def tokenizer_rows(results: dict[str, tuple[int, int]], characters: int) -> list[dict]:
    """One row per tokenizer, ``results`` mapping its title to (tokens of the text, vocabulary size).

    >>> tokenizer_rows({"GPT-2": (4, 50257), "Mine": (0, 3)}, characters=10)  # doctest: +NORMALIZE_WHITESPACE
    [{'Tokenizer': 'GPT-2', 'Tokens': 4, 'Characters per token': 2.5, 'Vocabulary': 50257}, {'Tokenizer': 'Mine',
    'Tokens': 0, 'Characters per token': None, 'Vocabulary': 3}]
    """
    return [
        {
            "Tokenizer": title,
            "Tokens": tokens,
            "Characters per token": round(characters / tokens, 2) if tokens else None,
            "Vocabulary": vocabulary,
        }
        for title, (tokens, vocabulary) in results.items()
    ]


def counts_table_html(rows: list[dict]) -> str:
    """``tokenizer_rows`` as a table (a card per tokenizer on a phone): counts with thousands separators, a dash
    where a text of no tokens has no ratio."""
    shown = [
        {
            "Tokenizer": row["Tokenizer"],
            "Tokens": f"{row['Tokens']:,}",
            "Characters per token": "–" if ratio is None else f"{ratio:.2f}",
            "Vocabulary": f"{row['Vocabulary']:,}",
        }
        for row, ratio in ((row, row["Characters per token"]) for row in rows)
    ]
    return card_table_html(
        shown, "Tokens per tokenizer", numeric={"Tokens", "Characters per token", "Vocabulary"}, name="bpe-counts"
    )


def cost_table_html(rows: list[dict]) -> str:
    """``cost_rows`` as a table (a card per tokenizer on a phone), the counts aligned right."""
    return card_table_html(
        rows, "Tokens per language", numeric=set(rows[0]) - {"Tokenizer"} if rows else (), name="bpe-costs"
    )


def fewest_tokens_sentence(counts: dict[str, int]) -> str:
    """Which tokenizers need the fewest tokens for the text, and how many times as many the others need.

    >>> fewest_tokens_sentence({"Your model": 30, "GPT-2": 12, "GPT-4": 10})
    'GPT-4 needs the fewest tokens (10); Your model needs 3.0× as many, GPT-2 1.2× as many.'
    >>> fewest_tokens_sentence({"Your model": 13, "GPT-2": 11, "GPT-4": 11, "GPT-4o": 11})
    'GPT-2, GPT-4 and GPT-4o need the fewest tokens (11); Your model needs 1.2× as many.'
    >>> fewest_tokens_sentence({"Llama 3": 10, "GPT-4": 10, "Qwen3.5 and Qwen3.6": 11, "GPT-2": 12})
    'Llama 3 and GPT-4 need the fewest tokens (10); Qwen3.5/Qwen3.6 needs 1.1× as many, GPT-2 1.2× as many.'
    """
    fewest = min(counts.values())
    best = [title for title, count in counts.items() if count == fewest]
    winners = f"{listed(best)} need" if len(best) > 1 else f"{best[0]} needs"
    others = [
        f"{in_a_list(title)} {'needs ' if not index else ''}{_times(count, fewest)} as many"
        for index, (title, count) in enumerate((t, c) for t, c in counts.items() if c != fewest)
    ]
    return f"{winners} the fewest tokens ({fewest:,})" + (f"; {', '.join(others)}." if others else ".")


def _times(count: int, baseline: int) -> str:
    """``count`` as a multiple of ``baseline``: one decimal, two where one would read 1.0 for unequal counts.

    >>> _times(28, 27), _times(27, 27), _times(30, 12), _times(3, 0)
    ('1.04×', '1.0×', '2.5×', '–')
    """
    if not baseline:
        return "–"
    ratio = f"{count / baseline:.1f}"
    return f"{count / baseline:.2f}×" if ratio == "1.0" and count != baseline else f"{ratio}×"
