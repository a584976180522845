"""The "Real tokenizers" view's table and sentence: worked by hand, and the counts against tiktoken."""

import pytest

from bpe_core.pretrained import load_pretrained
from viz.real_tokenizers import LANGUAGE_SAMPLES, REAL_TOKENIZERS, cost_rows, fewest_tokens_sentence


def test_each_sample_gets_its_count_and_how_many_times_the_baselines_it_is():
    samples = {"English": "abcd", "Russian": "abcdef", "Chinese": "a"}
    rows = cost_rows({"Letters": list, "Pairs": lambda text: [text[i:i + 2] for i in range(0, len(text), 2)]}, samples)
    assert rows == [
        {"Text": "English", "Characters": 4, "Letters": "4", "Pairs": "2"},
        {"Text": "Russian", "Characters": 6, "Letters": "6 (1.5× English)", "Pairs": "3 (1.5× English)"},
        {"Text": "Chinese", "Characters": 1, "Letters": "1 (0.2× English)", "Pairs": "1 (0.5× English)"},
    ]


def test_a_baseline_of_no_tokens_gives_a_dash_not_a_division_by_zero():
    assert cost_rows({"Letters": list}, {"English": "", "Code": "ab"})[1]["Letters"] == "2 (– English)"


def test_the_fewest_tokens_sentence_names_the_winner_and_the_others_ratios():
    assert fewest_tokens_sentence({"Yours": 20, "GPT-4": 10}) == "GPT-4 needs the fewest tokens (10); Yours needs 2.0× as many."
    assert fewest_tokens_sentence({"Yours": 5}) == "Yours needs the fewest tokens (5)."
    assert fewest_tokens_sentence({"A": 3, "B": 3, "C": 4, "D": 6}) == (
        "A and B need the fewest tokens (3); C needs 1.3× as many, D 2.0× as many.")


def test_the_view_offers_the_three_published_tokenizers_by_their_titles():
    assert REAL_TOKENIZERS == {"gpt2": "GPT-2", "cl100k_base": "GPT-4 (cl100k_base)", "o200k_base": "GPT-4o (o200k_base)"}


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_the_language_table_counts_tokens_as_tiktoken_does(tiktoken_module, name):
    reference = tiktoken_module.get_encoding(name)
    title = REAL_TOKENIZERS[name]
    rows = cost_rows({title: load_pretrained(name).encode})
    expected = {sample: len(reference.encode_ordinary(text)) for sample, text in LANGUAGE_SAMPLES.items()}
    assert [int(row[title].split(" ")[0]) for row in rows] == list(expected.values())
    english = expected["English"]
    assert rows[1][title] == f"{expected['Russian']} ({expected['Russian'] / english:.1f}× English)"
