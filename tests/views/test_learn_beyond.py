"""Learn's exercises beyond the textbook (``pages/learn/views/beyond.py``): the expected answers and counts are
tiktoken's (GPT-4's cl100k_base, GPT-2's gpt2) on the bundled texts, never the engine's."""

from __future__ import annotations

import pytest

from bpe_core import load_gpt2
from bpe_core.languages import bundled_texts
from bpe_core.pretrained import load_pretrained
from pages.learn.views.beyond import (
    HEALING_PROMPT,
    HEALING_WORD,
    PREMIUM_LANGUAGES,
    check_healing,
    check_premium,
    continuation_tokens,
    healing_answer,
    premium_question,
    premium_source,
    prompt_tokens,
)


@pytest.fixture(scope="module")
def gpt4_counts(tiktoken_module) -> dict[str, int]:
    encoding = tiktoken_module.get_encoding("cl100k_base")
    return {code: len(encoding.encode_ordinary(text)) for code, text in bundled_texts(PREMIUM_LANGUAGES).items()}


def test_the_four_languages_are_english_chinese_hindi_greek_and_the_source_is_named():
    assert PREMIUM_LANGUAGES == ("eng", "cmn", "hin", "ell")
    assert "Universal Declaration of Human Rights" in premium_source()


def test_the_costliest_language_is_tiktoken_s_and_the_verdict_gives_each_count(gpt4_counts):
    rows = premium_question(load_pretrained("cl100k_base"))
    assert {code: row.tokens for code, row in rows.items()} == gpt4_counts
    costliest = max(gpt4_counts, key=gpt4_counts.get)
    assert costliest == "ell"  # Greek: two bytes a letter and few merges
    right, sentence = check_premium(rows, costliest)
    assert right and sentence.startswith("Right: Greek needs the most tokens.")
    english = gpt4_counts["eng"]
    for code, name in (("cmn", "Chinese (Mandarin)"), ("hin", "Hindi"), ("ell", "Greek")):
        times = f"{gpt4_counts[code] / english:.1f}"
        assert f"{name} {gpt4_counts[code]:,} tokens ({times} times English's {english:,})" in sentence
    assert "mostly English" in sentence


def test_a_cheaper_language_is_told_its_count_and_the_costlier_one(gpt4_counts):
    right, sentence = check_premium(premium_question(load_pretrained("cl100k_base")), "hin")
    assert not right
    assert sentence.startswith(f"Not this one: Hindi takes {gpt4_counts['hin']:,} tokens, and Greek needs more.")


def test_the_prompt_ends_on_a_lone_space_and_the_word_takes_its_space(tiktoken_module):
    encoding = tiktoken_module.get_encoding("gpt2")
    gpt2 = load_gpt2()
    assert prompt_tokens(gpt2, HEALING_PROMPT) == tuple(
        encoding.decode([token]) for token in encoding.encode(HEALING_PROMPT)
    )
    assert prompt_tokens(gpt2, HEALING_PROMPT)[-1] == " "
    whole = encoding.encode(HEALING_PROMPT + HEALING_WORD)
    assert encoding.decode(whole[-1:]) == " the" and len(whole) == len(encoding.encode(HEALING_PROMPT))
    assert continuation_tokens(gpt2, HEALING_PROMPT, HEALING_WORD) == (" the",)
    assert healing_answer(gpt2) == "joined"


def test_the_healing_verdict_explains_in_words_with_the_tokens_that_start_with_a_space(tiktoken_module):
    encoding = tiktoken_module.get_encoding("gpt2")
    gpt2 = load_gpt2()
    right, sentence = check_healing(gpt2, "joined")
    assert right and sentence.startswith("Right: GPT-2 cuts “The answer is the” ending in “\u00a0the”, one token.")
    assert "Token healing" in sentence and "“\u00a0the”" in sentence.split("such as")[1]
    starting_with_space = sum(
        1 for rank in range(encoding.n_vocab - 1) if encoding.decode_single_token_bytes(rank).startswith(b" ")
    )
    assert f"GPT-2 has {starting_with_space - 1:,} longer tokens that start with a space" in sentence  # not " "
    wrong, said = check_healing(gpt2, "apart")
    assert not wrong and said.startswith("Not quite: GPT-2 cuts “The answer is the” ending in “\u00a0the”, one token.")
