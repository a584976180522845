"""The "Real tokenizers" view's table and sentence: worked by hand, and the counts against tiktoken."""

import lzma
import re

import pytest
from browser_helpers import REPO_ROOT

from bpe_core import Config, train
from bpe_core.pretrained import PUBLISHED, load_pretrained
from pages.compare.views.real_tokenizers import (
    DEFAULT_REAL,
    LANGUAGE_SAMPLES,
    REAL_TOKENIZERS,
    _times,
    cost_rows,
    cost_table_html,
    counts_table_html,
    fewest_tokens_sentence,
    lined_up,
    tokenizer_rows,
)


def test_each_sample_gets_its_count_and_how_many_times_the_baselines_it_is():
    samples = {"English": "abcd", "Russian": "abcdef", "Chinese": "a"}
    rows = cost_rows(
        {"Letters": list, "Pairs": lambda text: [text[i : i + 2] for i in range(0, len(text), 2)]}, samples
    )
    # a row per tokenizer, under the samples' lengths: as many columns as samples, however many tokenizers
    assert rows == [
        {"Tokenizer": "Characters", "English": "4", "Russian": "6", "Chinese": "1"},
        {"Tokenizer": "Letters", "English": "4", "Russian": "6 (1.5× English)", "Chinese": "1 (0.2× English)"},
        {"Tokenizer": "Pairs", "English": "2", "Russian": "3 (1.5× English)", "Chinese": "1 (0.5× English)"},
    ]


def test_the_counts_table_shows_thousands_separators_two_decimals_and_a_dash_for_no_tokens():
    markup = counts_table_html(tokenizer_rows({"GPT-2": (4, 50257), "<Mine>": (0, 3)}, characters=10))
    rows = re.findall(r"<tr>(.*?)</tr>", markup)
    assert re.findall(r">([^<]*)</td>", rows[1]) == ["GPT-2", "4", "2.50", "50,257"]  # 10 / 4 characters
    assert re.findall(r">([^<]*)</td>", rows[2]) == ["&lt;Mine&gt;", "0", "–", "3"]
    assert '<td class="num" data-column="Vocabulary">50,257</td>' in markup and 'class="bpe-table bpe-counts"' in markup


def test_the_cost_table_aligns_the_counts_not_the_tokenizers_names():
    markup = cost_table_html(cost_rows({"Letters": list}, {"English": "abcd", "Code": "ab"}))
    assert '<td data-column="Tokenizer">Letters</td>' in markup  # a name, to the left
    assert '<td class="num" data-column="Code">2 (0.5× English)</td>' in markup
    assert 'class="bpe-table bpe-costs"' in markup


def test_a_baseline_of_no_tokens_gives_a_dash_not_a_division_by_zero():
    assert cost_rows({"Letters": list}, {"English": "", "Code": "ab"})[1]["Code"] == "2 (– English)"


def test_the_fewest_tokens_sentence_names_the_winner_and_the_others_ratios():
    assert (
        fewest_tokens_sentence({"Yours": 20, "GPT-4": 10})
        == "GPT-4 needs the fewest tokens (10); Yours needs 2.0× as many."
    )
    assert fewest_tokens_sentence({"Yours": 5}) == "Yours needs the fewest tokens (5)."
    assert fewest_tokens_sentence({"A": 3, "B": 3, "C": 4, "D": 6}) == (
        "A and B need the fewest tokens (3); C needs 1.3× as many, D 2.0× as many."
    )


def test_the_view_offers_every_published_tokenizer_by_its_title():
    assert list(REAL_TOKENIZERS.items()) == [(name, published.title) for name, published in PUBLISHED.items()]
    assert DEFAULT_REAL == ("gpt2", "cl100k_base", "o200k_base", "llama3")  # the slow ones load only when picked


def test_tokenizer_rows_by_hand():
    assert tokenizer_rows({"Mine": (8, 300), "GPT-2": (3, 50257)}, characters=12) == [
        {"Tokenizer": "Mine", "Tokens": 8, "Characters per token": 1.5, "Vocabulary": 300},
        {"Tokenizer": "GPT-2", "Tokens": 3, "Characters per token": 4.0, "Vocabulary": 50257},
    ]
    assert tokenizer_rows({"Empty": (0, 5)}, characters=0)[0]["Characters per token"] is None
    assert tokenizer_rows({"Thirds": (3, 5)}, characters=10)[0]["Characters per token"] == 3.33


def test_lined_up_puts_the_users_model_first_and_caches_the_published_ones():
    mine, gpt2 = train("abab", Config(split="none"), merges=2), load_pretrained("gpt2")
    calls = []
    models, encoders = lined_up("Mine", mine, {"gpt2": gpt2}, lambda tok, text: calls.append((tok, text)))
    assert models == {"Mine": mine, "GPT-2": gpt2} and list(encoders) == ["Mine", "GPT-2"]
    assert [token.token for token in encoders["Mine"]("abab")] == ["abab"]  # a, b, ab, abab: one token
    encoders["GPT-2"]("hi")
    assert calls == [(gpt2, "hi")]


@pytest.mark.parametrize("name", ["llama2", "qwen3"])
def test_the_language_table_counts_tokens_as_hf_does_for_open_models(name):
    tokenizers = pytest.importorskip("tokenizers")
    with lzma.open(REPO_ROOT / "bpe_core" / "data" / "open" / f"{name}.tokenizer.json.xz") as packed:
        hf = tokenizers.Tokenizer.from_str(packed.read().decode("utf-8"))
    rows = cost_rows({REAL_TOKENIZERS[name]: load_pretrained(name).encode})
    expected = [len(hf.encode(text, add_special_tokens=False).ids) for text in LANGUAGE_SAMPLES.values()]
    assert [int(count.split(" ")[0]) for count in list(rows[1].values())[1:]] == expected


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_the_language_table_counts_tokens_as_tiktoken_does(tiktoken_module, name):
    reference = tiktoken_module.get_encoding(name)
    title = REAL_TOKENIZERS[name]
    rows = cost_rows({title: load_pretrained(name).encode})
    expected = {sample: len(reference.encode_ordinary(text)) for sample, text in LANGUAGE_SAMPLES.items()}
    assert rows[1]["Tokenizer"] == title
    assert [int(count.split(" ")[0]) for count in list(rows[1].values())[1:]] == list(expected.values())
    english = expected["English"]
    assert rows[1]["Russian"] == f"{expected['Russian']} ({expected['Russian'] / english:.1f}× English)"


def test_the_tokenizers_chart_by_hand():
    from pages.compare.views.figures import LINE_COLOURS, SIZE_COLOURS, tokenizers_figure

    rows = tokenizer_rows({"Your <model>": (30, 2105), "GPT-2": (12, 50257), "Llama 3": (10, 128256)}, characters=60)
    fig = tokenizers_figure(rows)
    bars = fig.data[0]
    assert list(bars.x) == [30, 12, 10] and list(bars.y) == [0, 1, 2]  # the most tokens at the bottom, fewest on top
    assert list(bars.text) == [
        "30 tokens · 2.00 chars/token",
        "12 tokens · 5.00 chars/token",
        "10 tokens · 6.00 chars/token",
    ]
    assert list(bars.marker.color) == [LINE_COLOURS[0], LINE_COLOURS[0], SIZE_COLOURS[2]]  # the fewest in green
    one = tokenizers_figure(tokenizer_rows({"Whole": (1, 50)}, characters=6))
    assert list(one.data[0].text) == ["1 token · 6.00 chars/token"]
    assert [note.text for note in fig.layout.annotations] == [  # titles over their bars, escaped for plotly
        "Your &lt;model&gt; (vocabulary 2,105)",
        "GPT-2 (vocabulary 50,257)",
        "Llama 3 (vocabulary 128,256)",
    ]
    assert [note.y for note in fig.layout.annotations] == [0.32, 1.32, 2.32]
    assert list(bars.hovertext) == ["Your &lt;model&gt;", "GPT-2", "Llama 3"]
    assert fig.layout.height == 60 + 52 * 3 and fig.layout.showlegend is False
    assert fig.layout.yaxis.visible is False  # no tick labels eat a phone's width: narrow side margins
    assert fig.layout.margin.to_plotly_json() == {"l": 4, "r": 4, "t": 10, "b": 40}
    assert bars.width == 0.45 and {note.font.size for note in fig.layout.annotations} == {12}
    assert tokenizers_figure(rows[:1]).layout.height == 112


def test_a_multiple_gets_two_decimals_only_where_one_would_hide_a_difference():
    assert [_times(101, 100), _times(100, 100), _times(99, 100), _times(150, 100)] == ["1.01×", "1.0×", "0.99×", "1.5×"]
